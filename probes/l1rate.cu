// l1rate.cu - how fast an SM's L1 serves the sectors it holds, against
// those that go on to the L2 (loads it does not hold, stores), and
// whether the two share the SM's time. Every case is a grid of eight
// 256-thread blocks an SM, each thread taking ITER steps that each move
// one 4-byte lane of a warp's access (a coalesced float: 4 sectors a
// warp; a broadcast: 1 sector; a float4: 16), the sum kept in a register
// and stored once; device memory, written before, so nothing faults.
//   hit_row:     each block reads its own 4 KiB row over and over: after
//                the first pass every sector is the L1's
//   hit_bcast:   the same row, a warp's lanes all at one float (1 sector
//                a load): is the L1's rate one of sectors or of loads?
//   hit_row4:    the row read as float4 (16 sectors a load)
//   l2_cg S:     S MiB read with ld.global.cg, each block from its own
//                start: every sector from the L2 (which holds 16 MiB,
//                not 64)
//   l2_miss:     16 MiB so with ordinary loads: the L1 asked and missing
//   store_row S: S MiB written, each block from its own start (does a
//                store cost the L2's time, or the DRAM's?)
//   store_same:  each thread stores to one float of its own each step
//                (PolyBench's GEMM keeps its sum so)
//   mix_hit_l2:  hit_row's load and l2_cg's each step
//   mix_hit_st S: hit_row's load and store_row's store each step
// Lines: l1rate <case> S=<MiB> rep<k>: bytes=<the sectors' bytes>
// ms=<events> (the cases without a span say 16)
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o l1rate l1rate.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("l1rate.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

#define ITER 1024
#define ROW 1024                 // floats in a block's row: 4 KiB
#define BIG (16u << 20)          // floats in the largest span, 64 MiB
#define THREADS 256

enum kind { HIT_ROW, HIT_BCAST, HIT_ROW4, L2_CG, L2_MISS, STORE_ROW,
	    STORE_SAME, MIX_HIT_L2, MIX_HIT_ST, NKINDS };

static const char *names[NKINDS] = {
	"hit_row", "hit_bcast", "hit_row4", "l2_cg", "l2_miss", "store_row",
	"store_same", "mix_hit_l2", "mix_hit_st",
};

// sectors of 32 bytes one warp step moves, by kind
static const int sectors[NKINDS] = { 4, 1, 16, 4, 4, 4, 4, 8, 8 };

// where block b starts in a span (mask: its floats less one): blocks apart by a prime
// number of 1 KiB runs, so that they walk it from different places
__device__ static unsigned start_of(unsigned b, unsigned mask)
{
	return (b * 7919u * THREADS) & mask;
}

template <int kind>
__global__ void run(const float *__restrict__ rows,
		    const float *__restrict__ big, float *__restrict__ out,
		    float *__restrict__ st, unsigned mask)
{
	const float *row = rows + (size_t)blockIdx.x * ROW;
	unsigned t = threadIdx.x, at = start_of(blockIdx.x, mask) + t;
	float s = 0;

	for (unsigned i = 0; i < ITER; i++) {
		unsigned r = (i * 160 + t) & (ROW - 1);
		unsigned g = (at + i * THREADS) & mask;

		switch (kind) {
		case HIT_ROW:
			s += row[r];
			break;
		case HIT_BCAST:
			s += row[(i * 33u) & (ROW - 1)];
			break;
		case HIT_ROW4: {
			float4 v = ((const float4 *)row)[(i * 40 + t) &
							 (ROW / 4 - 1)];
			s += v.x + v.y + v.z + v.w;
			break;
		}
		case L2_CG:
			s += __ldcg(big + g);
			break;
		case L2_MISS:
			s += big[g];
			break;
		case STORE_ROW:
			__stwb(st + g, s + (float)i);
			break;
		case STORE_SAME:
			__stwb(st + blockIdx.x * THREADS + t, s + (float)i);
			s += 1.0f;
			break;
		case MIX_HIT_L2:
			s += row[r] + __ldcg(big + g);
			break;
		case MIX_HIT_ST:
			s += row[r];
			__stwb(st + g, s);
			break;
		}
	}
	out[blockIdx.x * THREADS + t] = s;
}

// each kind its own kernel, so that its loop holds its access alone
static void launch(int k, int blocks, const float *rows, const float *big,
		   float *out, float *st, unsigned mask)
{
	void (*const kernels[NKINDS])(const float *, const float *, float *,
				      float *, unsigned) = {
		run<HIT_ROW>, run<HIT_BCAST>, run<HIT_ROW4>, run<L2_CG>,
		run<L2_MISS>, run<STORE_ROW>, run<STORE_SAME>,
		run<MIX_HIT_L2>, run<MIX_HIT_ST>,
	};

	kernels[k]<<<blocks, THREADS>>>(rows, big, out, st, mask);
}

// the cases run, each kind over a span of S MiB (the kinds that take
// no span show the L2's 16)
static const struct { int kind; unsigned mib; } cases[] = {
	{ HIT_ROW, 16 }, { HIT_BCAST, 16 }, { HIT_ROW4, 16 },
	{ L2_CG, 1 }, { L2_CG, 16 }, { L2_CG, 64 }, { L2_MISS, 16 },
	{ STORE_ROW, 1 }, { STORE_ROW, 4 }, { STORE_ROW, 16 },
	{ STORE_ROW, 64 }, { STORE_SAME, 16 }, { MIX_HIT_L2, 16 },
	{ MIX_HIT_ST, 1 }, { MIX_HIT_ST, 16 },
};

int main(void)
{
	cudaDeviceProp p;
	cudaEvent_t e0, e1;
	float *rows, *big, *out, *st;
	int blocks;

	CK(cudaGetDeviceProperties(&p, 0));
	blocks = 8 * p.multiProcessorCount;
	CK(cudaMalloc(&rows, (size_t)blocks * ROW * sizeof(float)));
	CK(cudaMalloc(&big, (size_t)BIG * sizeof(float)));
	CK(cudaMalloc(&st, (size_t)BIG * sizeof(float)));
	CK(cudaMalloc(&out, (size_t)blocks * THREADS * sizeof(float)));
	CK(cudaMemset(rows, 0, (size_t)blocks * ROW * sizeof(float)));
	CK(cudaMemset(big, 0, (size_t)BIG * sizeof(float)));
	CK(cudaMemset(st, 0, (size_t)BIG * sizeof(float)));
	CK(cudaEventCreate(&e0));
	CK(cudaEventCreate(&e1));
	printf("# %s, %d SMs, %d blocks of %d threads, %d steps\n", p.name,
	       p.multiProcessorCount, blocks, THREADS, ITER);
	for (int c = 0; c < (int)(sizeof(cases) / sizeof(cases[0])); c++) {
		int k = cases[c].kind;
		unsigned mib = cases[c].mib;
		double bytes = (double)blocks * (THREADS / 32) * ITER *
			       sectors[k] * 32;

		for (int rep = 0; rep < 3; rep++) {
			float ms;

			CK(cudaEventRecord(e0, 0));
			launch(k, blocks, rows, big, out, st, (mib << 18) - 1);
			CK(cudaEventRecord(e1, 0));
			CK(cudaEventSynchronize(e1));
			CK(cudaGetLastError());
			CK(cudaEventElapsedTime(&ms, e0, e1));
			printf("l1rate %s S=%u rep%d: bytes=%.0f ms=%.4f "
			       "GBps=%.0f\n", names[k], mib, rep, bytes, ms,
			       bytes / ms / 1e6);
		}
	}
	printf("l1rate.done: ok\n");
	return 0;
}
