// l2size.cu - how much of a ring of lines the L2 keeps for a load that
// missed the L1: one thread chases a pointer through a shuffled ring of N
// 128-byte lines (ld.global.cg, the L1 never answers), N from 32,768
// (4 MiB) to 1,048,576 (128 MiB), laid out
//   dense:  one line after another (N * 128 bytes)
//   spread: evenly over 1 GiB (chains.cu's 1 GiB chase: its 200,000 hops
//           take 25 MiB of lines, 185 ns a hop on its second pass where a
//           ring of 16 MiB takes 145)
// the ring read once whole, then timed once whole (events): the time a
// hop of the second pass says what share of the ring the L2 still held
// (tlb.cu: 145 ns a hop from the L2, 350 from DRAM, whatever the span).
// Lines: l2size <dense|spread> N=<lines> steps=N: ms=... ns_per_step=...
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o l2size l2size.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("l2size.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

#define SPAN (1ull << 30)

__global__ void chase(const unsigned *next, long steps, unsigned *out)
{
	unsigned p = 0;

	for (long i = 0; i < steps; i++)
		p = __ldcg(next + p);
	*out = p;
}

int main(void)
{
	const long ns[] = { 32768, 65536, 98304, 131072, 163840, 196608,
			    262144, 327680, 393216, 524288, 1048576 };
	unsigned *dev, *host, *out, *order;
	cudaEvent_t e0, e1;

	CK(cudaEventCreate(&e0));
	CK(cudaEventCreate(&e1));
	CK(cudaMalloc(&dev, SPAN));
	CK(cudaMalloc(&out, 64));
	host = (unsigned *)calloc(SPAN / 4, 4);
	order = (unsigned *)malloc(sizeof *order * 1048576);
	for (int layout = 0; layout < 2; layout++)
		for (int k = 0; k < (int)(sizeof ns / sizeof *ns); k++) {
			long n = ns[k];
			size_t gap = layout ? SPAN / n / 4 : 32;
			float ms;

			for (long i = 0; i < n; i++)
				order[i] = (unsigned)i;
			srand(13);
			for (long i = n - 1; i > 0; i--) {
				long j = (((long)rand() << 31) ^ rand()) % (i + 1);
				unsigned t = order[i];
				order[i] = order[j];
				order[j] = t;
			}
			for (long i = 0; i < n; i++)
				host[order[i] * gap] =
					(unsigned)(order[(i + 1) % n] * gap);
			CK(cudaMemcpy(dev, host, n * gap * 4,
				      cudaMemcpyHostToDevice));
			for (int rep = 0; rep < 3; rep++) {
				CK(cudaEventRecord(e0, 0));
				chase<<<1, 1>>>(dev, n, out);
				CK(cudaEventRecord(e1, 0));
				CK(cudaEventSynchronize(e1));
				CK(cudaEventElapsedTime(&ms, e0, e1));
				printf("l2size %s N=%ld rep%d steps=%ld: ms=%.4f "
				       "ns_per_step=%.2f\n",
				       layout ? "spread" : "dense", n, rep, n, ms,
				       ms * 1e6 / n);
				fflush(stdout);
			}
		}
	printf("l2size.done: ok\n");
	return 0;
}
