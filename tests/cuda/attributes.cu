// attributes.cu - what the runtime says of a kernel before it runs:
// cudaFuncGetAttributes, cudaFuncSetAttribute, the occupancy calculator,
// cudaGetKernel and cudaGetFuncBySymbol, cudaFuncGetParamInfo over
// parameters of mixed types; and device printf reaching stdout at the
// synchronization, in order.
#include <cstddef>

#include "check.h"

struct __align__(8) triple {
	double d;
	int i;
	char c[12];
};

__global__ void mixed(char a, float *p, triple t, float4 v, short s, int n)
{
	if (threadIdx.x == 0)
		p[0] = a + t.d + v.x + s + n;
}

__global__ void __launch_bounds__(256) bounded(float *v)
{
	__shared__ float s[64];
	s[threadIdx.x % 64] = v[threadIdx.x];
	__syncthreads();
	v[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}

__global__ void hello(int tag)
{
	if (threadIdx.x == 0)
		printf("hello from block %d tag %d\n", blockIdx.x, tag);
	if (threadIdx.x == 0 && blockIdx.x == 0)
		printf("%hd %ld %5.2f|%x|%-3s|%%\n", (short)-3, 1234567890123L,
		       3.14159, 255u, "ab");
}

int main()
{
	cudaFuncAttributes a;
	cudaKernel_t k;
	cudaFunction_t f;
	int blocks = -1;

	CHECK(cudaFuncGetAttributes(&a, bounded));
	EXPECT(a.maxThreadsPerBlock == 256);
	EXPECT(a.sharedSizeBytes == 64 * sizeof(float));
	EXPECT(a.numRegs > 0 && a.ptxVersion >= 90);
	EXPECT(cudaFuncGetAttributes(NULL, bounded) == cudaErrorInvalidValue);
	EXPECT(cudaFuncGetAttributes(&a, (const void *)main) ==
	       cudaErrorInvalidResourceHandle);
	cudaGetLastError();

	CHECK(cudaFuncSetAttribute(bounded,
				   cudaFuncAttributeMaxDynamicSharedMemorySize,
				   64 * 1024));
	CHECK(cudaFuncGetAttributes(&a, bounded));
	EXPECT(a.maxDynamicSharedSizeBytes == 64 * 1024);

	CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, bounded,
							    256, 0));
	EXPECT(blocks >= 1 && blocks <= 8);

	CHECK(cudaGetKernel(&k, hello));
	CHECK(cudaGetFuncBySymbol(&f, (const void *)hello));
	EXPECT(k != NULL && f != NULL);

	// the parameter buffer as the kernel declares it: each aligned
	const size_t off[6] = { 0, 8, 16, 48, 64, 68 };
	const size_t size[6] = { 1, 8, sizeof(triple), 16, 2, 4 };
	for (int i = 0; i < 6; i++) {
		size_t o = 99, z = 99;
		CHECK(cudaFuncGetParamInfo((const void *)mixed, i, &o, &z));
		EXPECT(o == off[i] && z == size[i]);
	}
	size_t o = 99;
	CHECK(cudaFuncGetParamInfo((const void *)mixed, 2, &o, NULL));
	EXPECT(o == 16);
	EXPECT(cudaFuncGetParamInfo((const void *)mixed, 6, &o, NULL) ==
	       cudaErrorInvalidValue);
	cudaGetLastError();
	EXPECT(cudaFuncGetParamInfo((const void *)mixed, 0, NULL, NULL) ==
	       cudaErrorInvalidValue);
	cudaGetLastError();
	EXPECT(cudaFuncGetParamInfo((const void *)main, 0, &o, NULL) ==
	       cudaErrorInvalidResourceHandle);
	cudaGetLastError();

	hello<<<2, 32>>>(7);
	CHECK(cudaDeviceSynchronize());
	std::fflush(stdout);
	std::printf("PASS\n");
	return 0;
}
