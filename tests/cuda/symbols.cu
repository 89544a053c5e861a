// symbols.cu - a program's device variables by their host names:
// __device__, __constant__ and __managed__ variables, read and written
// from the host and from kernels, cudaGetSymbolAddress/Size, and the
// refusals of a copy past a variable's end or in the wrong direction.
#include "check.h"

__device__ int counters[4];
__constant__ float coeff[3] = {1.0f, 2.0f, 4.0f};
__managed__ int total = 100;

__global__ void accumulate(int n)
{
	int i = threadIdx.x;
	if (i < n) {
		atomicAdd(&counters[i % 4], 1);
		atomicAdd(&total, (int)coeff[i % 3]);
	}
}

int main()
{
	int zero[4] = {0, 0, 0, 0}, got[4];
	void *p;
	size_t size;

	CHECK(cudaMemcpyToSymbol(counters, zero, sizeof zero));
	accumulate<<<1, 30>>>(30);
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpyFromSymbol(got, counters, sizeof got));
	EXPECT(got[0] == 8 && got[1] == 8 && got[2] == 7 && got[3] == 7);
	EXPECT(total == 100 + 10 * (1 + 2 + 4));

	CHECK(cudaGetSymbolSize(&size, counters));
	EXPECT(size == sizeof got);
	CHECK(cudaGetSymbolAddress(&p, counters));
	CHECK(cudaMemcpy(got, p, sizeof got, cudaMemcpyDeviceToHost));
	EXPECT(got[0] == 8);

	float c[3];
	CHECK(cudaMemcpyFromSymbol(c, coeff, sizeof c));
	EXPECT(c[2] == 4.0f);
	float two = 2.0f;
	CHECK(cudaMemcpyToSymbol(coeff, &two, sizeof two, 2 * sizeof(float)));
	CHECK(cudaMemcpyFromSymbol(c, coeff, sizeof c));
	EXPECT(c[2] == 2.0f);

	EXPECT(cudaMemcpyToSymbol(counters, zero, sizeof zero, 4) ==
	       cudaErrorInvalidValue);
	EXPECT(cudaMemcpyToSymbol(counters, zero, sizeof zero, 0,
				  cudaMemcpyDeviceToHost) ==
	       cudaErrorInvalidMemcpyDirection);
	EXPECT(cudaGetSymbolSize(&size, &size) == cudaErrorInvalidSymbol);
	cudaGetLastError();
	CHECK(cudaMemcpyFromSymbol(got, counters, sizeof got));
	EXPECT(got[0] == 8);
	std::printf("PASS\n");
	return 0;
}
