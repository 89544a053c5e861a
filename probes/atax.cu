// atax.cu - where UVMBench's ATAX and MVT spend their time on one H200:
// PolyBench's kernels as UVMBench builds them (n = 4096, blocks of 256,
// each thread adding into its element of global memory every step), each
// timed by events:
//   managed:  A in managed memory the CPU wrote, as UVMBench runs it:
//             kernel 1 faults A in (each thread walks a row of A: its
//             lanes 16 KiB apart), kernel 2 walks A's columns (a row a
//             step, the warp's lanes one line)
//   resident: the same two again, A now on the GPU
//   dev:      A in cudaMalloc memory, written by cudaMemcpy
//   cold:     kernel 2 on dev right after a kernel read 512 MiB of other
//             memory (its rows from the DRAM), and right after itself
//   mvt:      MVT's two kernels on dev (kernel 1 a row a thread, kernel 2
//             a column a thread: a[j * n + i])
// Whether kernel 2's step waits for the DRAM (350 ns, tlb.cu) or the L2
// (145) says what the model's L2 must hold of A.
// Lines: atax <case> <kernel> rep<r>: ms=...
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o atax atax.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("atax.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

#define N 4096
#define FLUSH_BYTES (512ull << 20)

__global__ void atax_kernel1(float *A, float *x, float *tmp)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < N)
		for (int j = 0; j < N; j++)
			tmp[i] += A[i * N + j] * x[j];
}

__global__ void atax_kernel2(float *A, float *y, float *tmp)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;

	if (j < N)
		for (int i = 0; i < N; i++)
			y[j] += A[i * N + j] * tmp[i];
}

__global__ void mvt_kernel1(float *a, float *x1, float *y_1)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < N)
		for (int j = 0; j < N; j++)
			x1[i] += a[i * N + j] * y_1[j];
}

__global__ void mvt_kernel2(float *a, float *x2, float *y_2)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < N)
		for (int j = 0; j < N; j++)
			x2[i] += a[j * N + i] * y_2[j];
}

__global__ void flush(const int4 *p, size_t n, int *out)
{
	int s = 0;

	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x)
		s ^= __ldcg(p + i).x;
	if (s == 0x7fffffff)
		*out = s;
}

static cudaEvent_t e0, e1;

static void line(const char *c, const char *k, int rep, float ms)
{
	printf("atax %s %s rep%d: ms=%.4f\n", c, k, rep, ms);
	fflush(stdout);
}

static float ended(void)
{
	float ms;

	CK(cudaEventRecord(e1, 0));
	CK(cudaEventSynchronize(e1));
	CK(cudaEventElapsedTime(&ms, e0, e1));
	return ms;
}

#define TIMED(c, k, rep, launch) do { \
	CK(cudaEventRecord(e0, 0)); launch; line(c, k, rep, ended()); \
} while (0)

int main(void)
{
	const dim3 block(256), grid(N / 256);
	float *A, *x, *y, *tmp, *dA, *host;
	int4 *junk;

	CK(cudaEventCreate(&e0));
	CK(cudaEventCreate(&e1));
	CK(cudaMalloc(&junk, FLUSH_BYTES));
	CK(cudaMemset(junk, 1, FLUSH_BYTES));
	host = (float *)malloc(sizeof(float) * N * N);
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			host[i * N + j] = (float)i * j / N;
	for (int rep = 0; rep < 3; rep++) {
		CK(cudaMallocManaged(&A, sizeof(float) * N * N));
		CK(cudaMallocManaged(&x, sizeof(float) * N));
		CK(cudaMallocManaged(&y, sizeof(float) * N));
		CK(cudaMallocManaged(&tmp, sizeof(float) * N));
		for (int i = 0; i < N; i++) {
			x[i] = i * 3.14159f;
			y[i] = 0;
			tmp[i] = 0;
			for (int j = 0; j < N; j++)
				A[i * N + j] = host[i * N + j];
		}
		TIMED("managed", "k1", rep,
		      (atax_kernel1<<<grid, block>>>(A, x, tmp)));
		TIMED("managed", "k2", rep,
		      (atax_kernel2<<<grid, block>>>(A, y, tmp)));
		TIMED("resident", "k1", rep,
		      (atax_kernel1<<<grid, block>>>(A, x, tmp)));
		TIMED("resident", "k2", rep,
		      (atax_kernel2<<<grid, block>>>(A, y, tmp)));
		CK(cudaFree(A));
		CK(cudaFree(x));
		CK(cudaFree(y));
		CK(cudaFree(tmp));
	}
	CK(cudaMalloc(&dA, sizeof(float) * N * N));
	CK(cudaMalloc(&x, sizeof(float) * N * 4));
	y = x + N;
	tmp = x + 2 * N;
	CK(cudaMemset(x, 0, sizeof(float) * N * 4));
	for (int rep = 0; rep < 3; rep++) {
		CK(cudaMemcpy(dA, host, sizeof(float) * N * N,
			      cudaMemcpyHostToDevice));
		TIMED("dev", "k1", rep,
		      (atax_kernel1<<<grid, block>>>(dA, x, tmp)));
		TIMED("dev", "k2", rep,
		      (atax_kernel2<<<grid, block>>>(dA, y, tmp)));
		flush<<<1056, 256>>>(junk, FLUSH_BYTES / 16, (int *)x);
		TIMED("cold", "k2", rep,
		      (atax_kernel2<<<grid, block>>>(dA, y, tmp)));
		TIMED("cold", "k2again", rep,
		      (atax_kernel2<<<grid, block>>>(dA, y, tmp)));
		TIMED("mvt", "k1", rep,
		      (mvt_kernel1<<<grid, block>>>(dA, x, y)));
		TIMED("mvt", "k2", rep,
		      (mvt_kernel2<<<grid, block>>>(dA, tmp, y)));
	}
	printf("atax.done: ok\n");
	return 0;
}
