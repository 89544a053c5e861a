// rdc_a.cu, rdc_b.cu - relocatable device code (nvcc -rdc=true): a kernel
// calling a device function of another translation unit. nvcc's device
// link leaves machine code only, which does not run here: the runtime
// says so once at registration, and the launch answers
// cudaErrorNoKernelImageForDevice instead of failing with no word of why.
#include "check.h"

__device__ int twice(int x);

__global__ void doubled(int *p)
{
	p[threadIdx.x] = twice((int)threadIdx.x);
}

int main()
{
	int *p;

	CHECK(cudaMallocManaged(&p, 32 * sizeof(int)));
	doubled<<<1, 32>>>(p);
	EXPECT(cudaGetLastError() == cudaErrorNoKernelImageForDevice);
	CHECK(cudaFree(p));
	std::printf("PASS\n");
	return 0;
}
