// rdc_a.cu, rdc_b.cu - relocatable device code (nvcc -rdc=true): a kernel
// calling a device function of another translation unit and reading and
// writing its __device__ variable, and a kernel of that unit launched
// from here. The runtime links the PTX each object carries through the
// driver's linker (cuLink*), as the device link joined it (on an H200 the
// program passes as it does here). Built with machine code only
// (RDC_SASS_ONLY: -gencode arch=compute_90,code=sm_90) nothing can run
// here, where an H200 runs the machine code: the runtime says so once, and
// the launch answers cudaErrorNoKernelImageForDevice. linkptx.cu links
// the same two units' PTX through the driver API.
#include "check.h"

__device__ int twice(int x);
extern __device__ int offset;   // rdc_b.cu's, set to 100 there
__global__ void bump(int by);   // rdc_b.cu's: offset += by

__global__ void doubled(int *p)
{
	p[threadIdx.x] = twice((int)threadIdx.x) + offset;
}

#ifndef RDC_DEVICE_ONLY
int main()
{
	int *p;

	CHECK(cudaMallocManaged(&p, 32 * sizeof(int)));
	doubled<<<1, 32>>>(p);
#ifdef RDC_SASS_ONLY
	EXPECT(cudaGetLastError() == cudaErrorNoKernelImageForDevice);
#else
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());
	for (int i = 0; i < 32; i++)
		EXPECT(p[i] == 2 * i + 100);
	bump<<<1, 1>>>(5);
	doubled<<<1, 32>>>(p);
	CHECK(cudaDeviceSynchronize());
	for (int i = 0; i < 32; i++)
		EXPECT(p[i] == 2 * i + 105);
#endif
	CHECK(cudaFree(p));
	std::printf("PASS\n");
	return 0;
}
#endif
