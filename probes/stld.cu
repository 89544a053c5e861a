// stld.cu - how long a load waits for a store before it to the same
// word, or to the same line, when the load reads what the store wrote
// (PolyBench's GEMM adds into c[i][j] in memory each step: each step's
// load of it follows the step before's store). One thread, its loads
// and stores plain ld.global and st.global (the L1 may keep the line),
// each step's load depending on the one before through memory:
//   word:   p[0] = v + 1; v = p[0]: the load reads the word just stored
//   line:   two words of one line in turn: the load reads the word the
//           step before stored, right after a store to the line's other
//           word
//   apart:  the same with the two words 4 KiB apart (the store just
//           before the load wrote another line)
// Lines: stld <case> steps=N: ns_per_step=... (the mean of 3 runs, each
// 100,000 steps, after a first to warm up)
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o stld stld.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("stld.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

__device__ static unsigned ld(const unsigned *p)
{
	unsigned v;

	asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
	return v;
}

__device__ static void st(unsigned *p, unsigned v)
{
	asm volatile("st.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}

// word: the same word each step; otherwise two words `gap` apart in
// turn, each load reading what the step before stored
__global__ void chain(unsigned *p, long steps, int two, int gap)
{
	unsigned v = 0;

	for (long s = 0; s < steps; s++) {
		unsigned *a = p + (two ? (s & 1) * gap : 0);
		unsigned *b = p + (two ? ((s + 1) & 1) * gap : 0);

		st(a, v + 1);
		v = ld(b);
	}
	p[2048] = v;
}

int main(void)
{
	const struct { const char *name; int two, gap; } cases[] = {
		{ "word", 0, 0 }, { "line", 1, 1 }, { "apart", 1, 1024 },
	};
	const long steps = 100000;
	cudaEvent_t e0, e1;
	unsigned *p;

	CK(cudaMalloc(&p, 16384));
	CK(cudaMemset(p, 0, 16384));
	CK(cudaEventCreate(&e0));
	CK(cudaEventCreate(&e1));
	for (int c = 0; c < 3; c++) {
		double sum = 0;

		for (int rep = 0; rep < 4; rep++) {
			float ms;

			CK(cudaEventRecord(e0, 0));
			chain<<<1, 1>>>(p, steps, cases[c].two, cases[c].gap);
			CK(cudaEventRecord(e1, 0));
			CK(cudaEventSynchronize(e1));
			CK(cudaGetLastError());
			CK(cudaEventElapsedTime(&ms, e0, e1));
			if (rep)
				sum += ms;
		}
		printf("stld %s steps=%ld: ms=%.4f ns_per_step=%.1f\n",
		       cases[c].name, steps, sum / 3, sum / 3 * 1e6 / steps);
	}
	printf("stld.done: ok\n");
	return 0;
}
