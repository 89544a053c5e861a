// l1.cu - what an SM's L1 holds for one warp's dependent loads: the
// capacity a kernel of no shared memory sees, how a kernel's shared
// memory shrinks it, whether lines a power of two apart conflict, and
// whether a load after a store to its line hits. One thread chases a
// pointer through lines of 128 bytes; a hop's time is the latency of a
// load from where the line was (20 ns the L1, 145 the L2 on an H200,
// probes/results/chains.txt).
//   cap S:          S KiB of lines in a shuffled ring, no shared memory
//   cap_smem S:     the same with 160 KiB of dynamic shared memory
//   stride D N:     N lines D bytes apart, in order round the ring
//   store:          each hop stores to the line it read, then loads the
//                   next line, in a ring of 64 lines (does a store keep,
//                   drop or refresh the line?)
// Lines: l1 <case> ...: ns_per_hop=...
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o l1 l1.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("l1.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void chase(const unsigned *next, long steps, unsigned *out)
{
	extern __shared__ unsigned sm[];
	unsigned p = 0;

	for (long s = 0; s < steps; s++)
		p = next[p];
	out[0] = p;
	if (p == 0xffffffffu)   // never: keeps the shared memory asked for
		sm[0] = p;
}

__global__ void chase_store(unsigned *next, long steps, unsigned *out)
{
	unsigned p = 0;

	for (long s = 0; s < steps; s++) {
		unsigned q = next[p];
		next[p + 1] = q;   // the line just read, another word
		p = q;
	}
	out[0] = p;
}

static cudaEvent_t e0, e1;
static unsigned *host;

static float timed(void (*go)(void *), void *arg)
{
	float ms;

	CK(cudaEventRecord(e0, 0));
	go(arg);
	CK(cudaEventRecord(e1, 0));
	CK(cudaEventSynchronize(e1));
	CK(cudaEventElapsedTime(&ms, e0, e1));
	return ms;
}

struct run { unsigned *next, *out; long steps; size_t smem; int store; };

static void go(void *a)
{
	struct run *r = (struct run *)a;

	if (r->store)
		chase_store<<<1, 1>>>(r->next, r->steps, r->out);
	else
		chase<<<1, 1, r->smem>>>(r->next, r->steps, r->out);
}

// a ring through the lines at idx[0..n), in that order
static void ring(unsigned *dev, const size_t *idx, size_t n, size_t span)
{
	for (size_t i = 0; i < n; i++)
		host[idx[i] * 32] = (unsigned)(idx[(i + 1) % n] * 32);
	CK(cudaMemcpy(dev, host, span, cudaMemcpyHostToDevice));
}

static void shuffled(unsigned *dev, size_t n)
{
	size_t *idx = (size_t *)malloc(n * sizeof *idx);

	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	srand(11);
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)rand() % (i + 1), t = idx[i];
		idx[i] = idx[j];
		idx[j] = t;
	}
	ring(dev, idx, n, n * 128);
	free(idx);
}

static void strided(unsigned *dev, size_t n, size_t d)
{
	size_t *idx = (size_t *)malloc(n * sizeof *idx);

	for (size_t i = 0; i < n; i++)
		idx[i] = i * (d / 128);
	ring(dev, idx, n, n * d);
	free(idx);
}

static void hop(const char *what, struct run *r)
{
	float ms;

	timed(go, r);   // the first pass brings the lines in
	ms = timed(go, r);
	printf("l1 %s steps=%ld: ms=%.4f ns_per_hop=%.2f\n", what, r->steps,
	       ms, ms * 1e6 / r->steps);
	fflush(stdout);
}

int main(void)
{
	struct run r = { 0, 0, 100000, 0, 0 };
	char what[64];
	const size_t big = 64ull << 20;

	CK(cudaEventCreate(&e0));
	CK(cudaEventCreate(&e1));
	CK(cudaMalloc(&r.next, big));
	CK(cudaMalloc(&r.out, 64));
	host = (unsigned *)calloc(big, 1);
	CK(cudaFuncSetAttribute(chase,
		cudaFuncAttributeMaxDynamicSharedMemorySize, 160 << 10));
	for (size_t kib = 16; kib <= 320; kib += 16) {
		shuffled(r.next, kib * 8);
		r.smem = 0;
		snprintf(what, sizeof what, "cap S=%zu", kib);
		hop(what, &r);
		r.smem = 160 << 10;
		snprintf(what, sizeof what, "cap_smem S=%zu", kib);
		hop(what, &r);
	}
	r.smem = 0;
	for (size_t d = 128; d <= 65536; d *= 2)
		for (size_t n = 16; n <= 1024; n *= 4) {
			if (n * d > big)
				continue;
			strided(r.next, n, d);
			snprintf(what, sizeof what, "stride D=%zu N=%zu", d, n);
			hop(what, &r);
		}
	shuffled(r.next, 64);
	r.store = 1;
	hop("store N=64", &r);
	r.store = 0;
	hop("nostore N=64", &r);
	printf("l1.done: ok\n");
	return 0;
}
