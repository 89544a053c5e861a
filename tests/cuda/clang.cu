// clang.cu - a program clang++ compiles as CUDA against libcuemu's own
// headers (include/), not the toolkit's: clang's CUDA wrapper cannot read
// CUDA 13's headers, so run.sh passes -nocudainc and this file says what
// the wrapper would have: the attribute macros, the built-in variables
// (clang's own <__clang_cuda_builtin_vars.h>) and the launch
// configuration's entry. clang's host code registers its fat binary,
// kernels and variables with libcudart.so.13 (__cudaRegisterFatBinary,
// __cudaRegisterFunction, __cudaRegisterVar) and launches through
// __cudaPushCallConfiguration, __cudaPopCallConfiguration and
// cudaLaunchKernel. Kernels: saxpy on device memory, one that adds into
// managed memory, with an atomic on a __device__ variable set and read
// through the symbol calls, dynamic shared memory and a stream.
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))

#include <cuda_runtime.h>
#include <__clang_cuda_builtin_vars.h>
#include "check.h"

// The name <<<>>> calls: the host pass knows CUDA's version and calls
// __cudaPushCallConfiguration; the device pass is told no version and
// checks the call against cudaConfigureCall. Neither is defined here.
extern "C" unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block,
						size_t shared = 0,
						cudaStream_t stream = 0);
extern "C" cudaError_t cudaConfigureCall(dim3 grid, dim3 block,
					 size_t shared = 0,
					 cudaStream_t stream = 0);

__device__ int hits;
__device__ int step;

__global__ void saxpy(int n, float a, const float *x, float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
}

// Each block reverses its slice through dynamic shared memory, adds step
// to it and counts its threads in hits.
__global__ void shuffle(int *v)
{
	extern __shared__ int tile[];
	int t = threadIdx.x, base = blockIdx.x * blockDim.x;
	tile[t] = v[base + t];
	__syncthreads();
	v[base + t] = tile[blockDim.x - 1 - t] + step;
	__nvvm_atom_add_gen_i(&hits, 1);
}

int main()
{
	const int n = 4096;
	static float hx[n], hy[n];
	float *x, *y;

	for (int i = 0; i < n; i++) {
		hx[i] = (float)i;
		hy[i] = 1.0f;
	}
	CHECK(cudaMalloc((void **)&x, sizeof hx));
	CHECK(cudaMalloc((void **)&y, sizeof hy));
	CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice));
	saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost));
	EXPECT(hy[0] == 1.0f && hy[1] == 3.0f && hy[n - 1] == 2.0f * (n - 1) + 1);

	int *v, k = 100;
	cudaStream_t s;
	CHECK(cudaStreamCreate(&s));
	CHECK(cudaMallocManaged((void **)&v, 1024 * sizeof *v,
				cudaMemAttachGlobal));
	for (int i = 0; i < 1024; i++)
		v[i] = i;
	CHECK(cudaMemcpyToSymbol(&step, &k, sizeof k, 0,
				 cudaMemcpyHostToDevice));
	shuffle<<<4, 256, 256 * sizeof(int), s>>>(v);
	CHECK(cudaGetLastError());
	CHECK(cudaStreamSynchronize(s));
	EXPECT(v[0] == 255 + 100 && v[255] == 100 && v[256] == 511 + 100);
	int count = 0;
	CHECK(cudaMemcpyFromSymbol(&count, &hits, sizeof count, 0,
				   cudaMemcpyDeviceToHost));
	EXPECT(count == 1024);

	// A block of 2048 threads through clang's stub: the driver's answer,
	// nothing run.
	shuffle<<<1, 2048, 2048 * sizeof(int)>>>(v);
	EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
	EXPECT(v[0] == 355);

	CHECK(cudaStreamDestroy(s));
	CHECK(cudaFree(v));
	CHECK(cudaFree(x));
	CHECK(cudaFree(y));
	std::printf("PASS\n");
	return 0;
}
