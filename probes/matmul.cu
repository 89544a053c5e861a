// matmul.cu - a naive matrix product's time against its size, on device
// memory (PolyBench's 2MM and GEMM kernels: one thread an element of C,
// blocks of 32x8, C[i][j] += A[i][k] * B[k][j] over k). Every element of A
// and B is read N times, by warps far apart in time: what the caches
// serve, which the model's memory time (every access's DRAM units) does
// not know. N from 256 to 2048 (the three matrices 0.75 to 48 MiB, the
// H200's L2 50 MiB); three kernels each, timed with events.
// Lines: matmul n=<N> rep<R>: ms=...
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o matmul matmul.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("matmul.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void mm(const float *a, const float *b, float *c, int n)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if (i < n && j < n)
		for (int k = 0; k < n; k++)
			c[i * n + j] += a[i * n + k] * b[k * n + j];
}

int main(void)
{
	for (int n = 256; n <= 2048; n *= 2) {
		size_t bytes = (size_t)n * n * sizeof(float);
		float *a, *b, *c, ms;
		cudaEvent_t e0, e1;
		dim3 block(32, 8), grid(n / 32, n / 8);

		CK(cudaMalloc(&a, bytes));
		CK(cudaMalloc(&b, bytes));
		CK(cudaMalloc(&c, bytes));
		CK(cudaMemset(a, 0, bytes));
		CK(cudaMemset(b, 0, bytes));
		CK(cudaMemset(c, 0, bytes));
		CK(cudaEventCreate(&e0));
		CK(cudaEventCreate(&e1));
		for (int rep = 0; rep < 3; rep++) {
			CK(cudaEventRecord(e0, 0));
			mm<<<grid, block>>>(a, b, c, n);
			CK(cudaEventRecord(e1, 0));
			CK(cudaEventSynchronize(e1));
			CK(cudaEventElapsedTime(&ms, e0, e1));
			printf("matmul n=%d rep%d: ms=%.4f\n", n, rep, ms);
			fflush(stdout);
		}
		CK(cudaEventDestroy(e0));
		CK(cudaEventDestroy(e1));
		CK(cudaFree(a));
		CK(cudaFree(b));
		CK(cudaFree(c));
	}
	printf("matmul.done: ok\n");
	return 0;
}
