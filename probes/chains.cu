// chains.cu - what a warp's chain of dependent memory operations costs,
// where too few warps run to hide it. PolyBench's CORR and COVAR end in a
// kernel of 2048 threads, each adding a column's products into one
// element of global memory (symmat[j1][j2] += data[i][j1] * data[i][j2]
// over i: a load, a multiply-add and a store of the same element each
// step); on an H200 it takes 1.1 s where its bytes and instructions take
// milliseconds. Each case here is one such chain, timed with events:
//   chase: one thread following a pointer a hop at a time through S bytes
//          of device memory (hops 128 bytes and more apart, shuffled):
//          the latency of a dependent load from the L1, the L2, the DRAM
//   rmw:   one thread adding into one global element, a read-modify-write
//          a step (CORR's form), its operand a column walk of an L2-sized
//          array; also with the operand in a register (the element alone)
//   sum:   the same walk with the sum kept in a register: the loads do not
//          wait for each other, only the adds do
//   rmw_scatter: rmw with the lanes' elements in 32 lines (W warps)
//   corr:  CORR's inner loop, 2047 steps, one block of 256 or eight
//   warps: rmw in W warps at once, a thread each of 32 lanes, one block a
//          warp: a chain a warp, the warps side by side
// Lines: chains <case> [S=|W=] steps=N: ms=... ns_per_step=...
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o chains chains.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("chains.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void chase(const unsigned *next, long steps, unsigned *out)
{
	unsigned p = 0;

	for (long s = 0; s < steps; s++)
		p = next[p];
	out[0] = p;
}

// acc and col may alias, as in PolyBench: the compiler keeps acc's
// element in memory, loaded and stored every step
__global__ void rmw(float *acc, const float *col, int stride, long steps)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;

	for (long i = 0; i < steps; i++)
		acc[t] += col[(i * stride) & ((1 << 22) - 1)] * 1.0001f;
}

__global__ void rmw_alone(float *acc, long steps)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;

	for (long i = 0; i < steps; i++)
		acc[t] += 1.0f;
}

// rmw with each lane's element in a line of its own (CORR's symmat
// [j1][j2], the lanes' j1 rows apart): stride 2049 floats
__global__ void rmw_scatter(float *acc, const float *col, int stride,
			    long steps)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;

	for (long i = 0; i < steps; i++)
		acc[(t * 2049) & ((1 << 22) - 1)] +=
			col[(i * stride) & ((1 << 22) - 1)] * 1.0001f;
}

// CORR's inner loop itself: lanes at columns j1 and j2 of a 2049-wide
// array, their sum in row j1 of symmat (M = N = 2048, as PolyBench's)
__global__ void corr(float *symmat, const float *data, int steps)
{
	int j1 = blockIdx.x * blockDim.x + threadIdx.x + 1, j2 = j1 + 1;

	symmat[j1 * 2049 + j2] = 0;
	for (int i = 1; i < steps + 1; i++)
		symmat[j1 * 2049 + j2] += data[i * 2049 + j1] *
					  data[i * 2049 + j2];
}

__global__ void sum(float *acc, const float *col, int stride, long steps)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	float s = 0;

	for (long i = 0; i < steps; i++)
		s += col[(i * stride) & ((1 << 22) - 1)];
	acc[t] = s;
}

static float timed(cudaEvent_t e0, cudaEvent_t e1)
{
	float ms;

	CK(cudaEventSynchronize(e1));
	CK(cudaEventElapsedTime(&ms, e0, e1));
	return ms;
}

static void line(const char *what, long steps, float ms)
{
	printf("chains %s steps=%ld: ms=%.4f ns_per_step=%.2f\n", what, steps,
	       ms, ms * 1e6 / steps);
	fflush(stdout);
}

int main(void)
{
	cudaEvent_t e0, e1;
	unsigned *next, *out, *host;
	float *acc, *col;
	const size_t sizes[] = { 16 << 10, 1 << 20, 16 << 20, 1ull << 30 };
	char what[64];

	CK(cudaEventCreate(&e0));
	CK(cudaEventCreate(&e1));
	CK(cudaMalloc(&next, 1ull << 30));
	CK(cudaMalloc(&out, 64));
	host = (unsigned *)malloc(1ull << 30);
	for (int z = 0; z < 4; z++) {
		// a cycle through every 32nd word (128 bytes), shuffled
		size_t n = sizes[z] / 128;
		unsigned *order = (unsigned *)malloc(n * sizeof *order);
		long steps = 200000;

		for (size_t i = 0; i < n; i++)
			order[i] = (unsigned)i;
		srand(7);
		for (size_t i = n - 1; i > 0; i--) {
			size_t j = (((size_t)rand() << 31) ^ rand()) % (i + 1);
			unsigned t = order[i]; order[i] = order[j]; order[j] = t;
		}
		for (size_t i = 0; i < n; i++)
			host[order[i] * 32] = order[(i + 1) % n] * 32;
		CK(cudaMemcpy(next, host, n * 128, cudaMemcpyHostToDevice));
		free(order);
		for (int rep = 0; rep < 3; rep++) {
			CK(cudaEventRecord(e0, 0));
			chase<<<1, 1>>>(next, steps, out);
			CK(cudaEventRecord(e1, 0));
			snprintf(what, sizeof what, "chase S=%zu rep%d", sizes[z],
				 rep);
			line(what, steps, timed(e0, e1));
		}
	}
	CK(cudaFree(next));
	free(host);

	CK(cudaMalloc(&acc, 16 << 20));
	CK(cudaMalloc(&col, 16 << 20));
	CK(cudaMemset(acc, 0, 16 << 20));
	CK(cudaMemset(col, 0, 16 << 20));
	for (int rep = 0; rep < 3; rep++) {
		long steps = 200000;

		CK(cudaEventRecord(e0, 0));
		rmw<<<1, 1>>>(acc, col, 2048, steps);
		CK(cudaEventRecord(e1, 0));
		snprintf(what, sizeof what, "rmw rep%d", rep);
		line(what, steps, timed(e0, e1));
		CK(cudaEventRecord(e0, 0));
		rmw_alone<<<1, 1>>>(acc, steps);
		CK(cudaEventRecord(e1, 0));
		snprintf(what, sizeof what, "rmw_alone rep%d", rep);
		line(what, steps, timed(e0, e1));
		CK(cudaEventRecord(e0, 0));
		sum<<<1, 1>>>(acc, col, 2048, steps);
		CK(cudaEventRecord(e1, 0));
		snprintf(what, sizeof what, "sum rep%d", rep);
		line(what, steps, timed(e0, e1));
	}
	for (int w = 1; w <= 64; w *= 64) {
		long steps = 100000;

		CK(cudaEventRecord(e0, 0));
		rmw_scatter<<<w, 32>>>(acc, col, 2048, steps);
		CK(cudaEventRecord(e1, 0));
		snprintf(what, sizeof what, "rmw_scatter W=%d", w);
		line(what, steps, timed(e0, e1));
	}
	{
		float *sym, *data;

		CK(cudaMalloc(&sym, 2049 * 2049 * 4));
		CK(cudaMalloc(&data, 2049 * 2049 * 4));
		CK(cudaMemset(sym, 0, 2049 * 2049 * 4));
		CK(cudaMemset(data, 0, 2049 * 2049 * 4));
		for (int b = 1; b <= 8; b *= 8)
			for (int rep = 0; rep < 2; rep++) {
				CK(cudaEventRecord(e0, 0));
				corr<<<b, 256>>>(sym, data, 2047);
				CK(cudaEventRecord(e1, 0));
				snprintf(what, sizeof what, "corr blocks=%d rep%d",
					 b, rep);
				line(what, 2047, timed(e0, e1));
			}
		CK(cudaFree(sym));
		CK(cudaFree(data));
	}
	for (int w = 1; w <= 1024; w *= 4) {
		long steps = 100000;

		CK(cudaEventRecord(e0, 0));
		rmw<<<w, 32>>>(acc, col, 2048, steps);
		CK(cudaEventRecord(e1, 0));
		snprintf(what, sizeof what, "warps W=%d", w);
		line(what, steps, timed(e0, e1));
	}
	CK(cudaFree(acc));
	CK(cudaFree(col));
	printf("chains.done: ok\n");
	return 0;
}
