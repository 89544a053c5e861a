// l2keep.cu - what a GPU's L2 keeps from one kernel to the next. PolyBench's
// FDTD-2D runs three kernels a time step over four 16 MiB arrays, each
// kernel reading what the one before read or wrote; on an H200 its 1,500
// kernels take 50 ms, where each kernel's bytes at the DRAM's rate take
// more. Here one kernel reads S bytes of device memory (a warp's lanes on
// consecutive words, a sum a thread stored once):
//   cold:  after a kernel read 512 MiB of another buffer
//   warm:  right after the same read of the same S bytes
//   after_write: right after a kernel wrote the S bytes
// S from 8 to 256 MiB, closer between 24 and 48 (the H200's L2 is 50 MiB);
// three of each, timed with events; and an empty kernel for the launch.
// Lines: l2keep <case> S=<MiB> rep<R>: ms=...
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o l2keep l2keep.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("l2keep.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void readsum(const float *a, size_t n, float *out)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	float s = 0;

	for (; i < n; i += (size_t)gridDim.x * blockDim.x)
		s += a[i];
	if (s == 12345.0f)   // never: keeps the loads
		out[0] = s;
}

__global__ void fill(float *a, size_t n)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;

	for (; i < n; i += (size_t)gridDim.x * blockDim.x)
		a[i] = 1.0f;
}

__global__ void empty(void)
{
}

static cudaEvent_t e0, e1;

static float timed_read(const float *a, size_t n, float *out)
{
	float ms;

	CK(cudaEventRecord(e0, 0));
	readsum<<<132 * 8, 256>>>(a, n, out);
	CK(cudaEventRecord(e1, 0));
	CK(cudaEventSynchronize(e1));
	CK(cudaEventElapsedTime(&ms, e0, e1));
	return ms;
}

int main(void)
{
	const size_t mib = 1 << 20, big = 512 * mib;
	const int sizes[] = { 8, 16, 24, 32, 36, 40, 44, 48, 96, 256 };
	float *a, *flush, *out, ms;

	CK(cudaEventCreate(&e0));
	CK(cudaEventCreate(&e1));
	CK(cudaMalloc(&a, 256 * mib));
	CK(cudaMalloc(&flush, big));
	CK(cudaMalloc(&out, 64));
	CK(cudaMemset(a, 0, 256 * mib));
	CK(cudaMemset(flush, 0, big));
	for (int rep = 0; rep < 3; rep++) {
		CK(cudaEventRecord(e0, 0));
		empty<<<1, 32>>>();
		CK(cudaEventRecord(e1, 0));
		CK(cudaEventSynchronize(e1));
		CK(cudaEventElapsedTime(&ms, e0, e1));
		printf("l2keep empty S=0 rep%d: ms=%.4f\n", rep, ms);
	}
	for (int z = 0; z < 10; z++) {
		size_t n = sizes[z] * mib / sizeof(float);

		for (int rep = 0; rep < 3; rep++) {
			timed_read(flush, big / sizeof(float), out);
			ms = timed_read(a, n, out);
			printf("l2keep cold S=%d rep%d: ms=%.4f\n", sizes[z], rep,
			       ms);
			ms = timed_read(a, n, out);
			printf("l2keep warm S=%d rep%d: ms=%.4f\n", sizes[z], rep,
			       ms);
			timed_read(flush, big / sizeof(float), out);
			fill<<<132 * 8, 256>>>(a, n);
			ms = timed_read(a, n, out);
			printf("l2keep after_write S=%d rep%d: ms=%.4f\n",
			       sizes[z], rep, ms);
			fflush(stdout);
		}
	}
	CK(cudaFree(a));
	CK(cudaFree(flush));
	CK(cudaFree(out));
	printf("l2keep.done: ok\n");
	return 0;
}
