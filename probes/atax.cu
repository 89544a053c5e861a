// atax.cu - where UVMBench's ATAX and MVT spend their time on one H200:
// their two kernels' access shapes (below: n = 4096, blocks of 256, each
// thread adding into its element of global memory every step), each
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

// ATAX's and MVT's two access shapes, written here: each thread adds a
// product into its element of global memory every step (the pointers may
// alias, so the compiler keeps the element in memory and the next step's
// loads after its store). along_row: thread t walks row t of m (the
// warp's lanes 16 KiB apart, each line serving 32 steps); down_col:
// thread t walks column t, a row a step (the warp's lanes one line, a new
// line of the matrix each step).
__global__ void along_row(const float *m, const float *v, float *acc)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	const float *row = m + (size_t)t * N;

	for (int k = 0; k < N; k++)
		acc[t] += row[k] * v[k];
}

__global__ void down_col(const float *m, const float *v, float *acc)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;

	for (int k = 0; k < N; k++)
		acc[t] += m[(size_t)k * N + t] * v[k];
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
		      (along_row<<<grid, block>>>(A, x, tmp)));
		TIMED("managed", "k2", rep,
		      (down_col<<<grid, block>>>(A, tmp, y)));
		TIMED("resident", "k1", rep,
		      (along_row<<<grid, block>>>(A, x, tmp)));
		TIMED("resident", "k2", rep,
		      (down_col<<<grid, block>>>(A, tmp, y)));
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
		      (along_row<<<grid, block>>>(dA, x, tmp)));
		TIMED("dev", "k2", rep,
		      (down_col<<<grid, block>>>(dA, tmp, y)));
		flush<<<1056, 256>>>(junk, FLUSH_BYTES / 16, (int *)x);
		TIMED("cold", "k2", rep,
		      (down_col<<<grid, block>>>(dA, tmp, y)));
		TIMED("cold", "k2again", rep,
		      (down_col<<<grid, block>>>(dA, tmp, y)));
		TIMED("mvt", "k1", rep,
		      (along_row<<<grid, block>>>(dA, y, x)));
		TIMED("mvt", "k2", rep,
		      (down_col<<<grid, block>>>(dA, y, tmp)));
	}
	printf("atax.done: ok\n");
	return 0;
}
