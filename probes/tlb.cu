// tlb.cu - what a load that misses the caches costs, and what a load
// whose page the SM has not translated lately costs: one thread chases a
// pointer through a shuffled ring of N 128-byte lines spread evenly over
// a span of S bytes (line i at i * S / N), with ld.global.cg so the L1
// never answers, timed by events:
//   warm:  the ring's lines all in the L2 (a pass just before); what the
//          span adds over a small one is the address translations'
//   cold:  the L2 emptied first (a kernel of 1,056 blocks reading 512 MiB
//          of other memory), each line read once: DRAM's latency, and
//          the translations'
// for N = 4,096 lines (512 KiB, well inside the L2) and N = 256, spans
// of 512 KiB to 1 GiB, in
//   dev:     cudaMalloc memory
//   pref:    managed memory prefetched to the GPU whole
//   gfault:  managed memory the CPU wrote, then a kernel touching every
//            4 KiB faulted in (the GPU's fault path picks the page sizes)
// and, last, the ring of 16 MiB right after the cudaMemcpy that wrote it
// (whether a copy leaves its lines in the L2).
// Lines: tlb <kind> <warm|cold> N=<lines> S=<bytes> steps=K: ms=... ns_per_step=...
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o tlb tlb.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("tlb.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

#define SPAN_MAX (1ull << 30)
#define FLUSH_BYTES (512ull << 20)

__global__ void chase(const unsigned *next, long steps, unsigned *out)
{
	unsigned p = 0;

	for (long i = 0; i < steps; i++)
		p = __ldcg(next + p);
	*out = p;
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

__global__ void touch(char *p, size_t bytes)
{
	size_t i = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) * 4096;

	if (i < bytes)
		p[i] += 1;
}

static cudaEvent_t e0, e1;
static unsigned *host, *out;
static int4 *junk;

static float timed(void)
{
	float ms;

	CK(cudaEventSynchronize(e1));
	CK(cudaEventElapsedTime(&ms, e0, e1));
	return ms;
}

// the ring of n lines over span bytes, in host (word indices)
static void ring(size_t n, size_t span)
{
	unsigned *order = (unsigned *)malloc(n * sizeof *order);
	size_t gap = span / n / 4;   // words between lines

	for (size_t i = 0; i < n; i++)
		order[i] = (unsigned)i;
	srand(11);
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (((size_t)rand() << 31) ^ rand()) % (i + 1);
		unsigned t = order[i]; order[i] = order[j]; order[j] = t;
	}
	for (size_t i = 0; i < n; i++)
		host[order[i] * gap] = (unsigned)(order[(i + 1) % n] * gap);
	free(order);
}

static float run_chase(const unsigned *next, long steps)
{
	CK(cudaEventRecord(e0, 0));
	chase<<<1, 1>>>(next, steps, out);
	CK(cudaEventRecord(e1, 0));
	return timed();
}

static void line(const char *kind, const char *how, size_t n, size_t span,
		 long steps, float ms)
{
	printf("tlb %s %s N=%zu S=%zu steps=%ld: ms=%.4f ns_per_step=%.2f\n",
	       kind, how, n, span, steps, ms, ms * 1e6 / steps);
	fflush(stdout);
}

static void sweep(const char *kind, unsigned *p)
{
	const size_t ns[] = { 4096, 256 };

	for (int k = 0; k < 2; k++)
		for (size_t span = 512 << 10; span <= SPAN_MAX; span *= 2) {
			size_t n = ns[k];
			long warm = 16 * (long)n;

			if (span / n < 128)
				continue;
			ring(n, span);
			// only the ring's words: the rest of the span as it was
			for (size_t i = 0; i < n; i++) {
				size_t w = i * (span / n / 4);

				CK(cudaMemcpy(p + w, host + w, 4,
					      cudaMemcpyHostToDevice));
			}
			run_chase(p, n);           // into the L2
			line(kind, "warm", n, span, warm, run_chase(p, warm));
			line(kind, "warm", n, span, warm, run_chase(p, warm));
			for (int r = 0; r < 2; r++) {
				flush<<<1056, 256>>>(junk, FLUSH_BYTES / 16,
						     (int *)out);
				line(kind, "cold", n, span, (long)n,
				     run_chase(p, n));
			}
		}
}

int main(void)
{
	unsigned *dev, *man;

	CK(cudaEventCreate(&e0));
	CK(cudaEventCreate(&e1));
	CK(cudaMalloc(&out, 64));
	CK(cudaMalloc(&junk, FLUSH_BYTES));
	CK(cudaMemset(junk, 1, FLUSH_BYTES));
	host = (unsigned *)calloc(SPAN_MAX / 4, 4);

	CK(cudaMalloc(&dev, SPAN_MAX));
	CK(cudaMemset(dev, 0, SPAN_MAX));
	sweep("dev", dev);

	// a copy's lines: the 16 MiB ring written whole by one cudaMemcpy,
	// then chased once
	for (int r = 0; r < 2; r++) {
		size_t n = 4096, span = 16 << 20;

		ring(n, span);
		flush<<<1056, 256>>>(junk, FLUSH_BYTES / 16, (int *)out);
		CK(cudaMemcpy(dev, host, span, cudaMemcpyHostToDevice));
		line("dev", "aftercopy", n, span, (long)n, run_chase(dev, n));
		flush<<<1056, 256>>>(junk, FLUSH_BYTES / 16, (int *)out);
		line("dev", "cold", n, span, (long)n, run_chase(dev, n));
	}
	CK(cudaFree(dev));

	CK(cudaMallocManaged(&man, SPAN_MAX));
	memset(man, 0, SPAN_MAX);
	CK(cudaMemPrefetchAsync(man, SPAN_MAX,
				(cudaMemLocation){ cudaMemLocationTypeDevice, 0 },
				0, 0));
	CK(cudaDeviceSynchronize());
	sweep("pref", man);
	CK(cudaFree(man));

	CK(cudaMallocManaged(&man, SPAN_MAX));
	memset(man, 0, SPAN_MAX);
	touch<<<(unsigned)(SPAN_MAX / 4096 / 256), 256>>>((char *)man,
							   SPAN_MAX);
	CK(cudaDeviceSynchronize());
	sweep("gfault", man);
	CK(cudaFree(man));
	printf("tlb.done: ok\n");
	return 0;
}
