// advise.cu - what an advice over resident managed memory costs the next
// kernel. prefnoop.cu's man_after_advise: cudaMemAdvise(SetAccessedBy,
// the GPU) given and taken back over 1 GiB the GPU holds, then faults.cu's
// touches of it (a byte every 4 KiB) took 16 to 54 us where the same
// touches back to back take 13 to 18 and after a sleep as long as a 1 ms
// prefetch 15 to 26. Is it the host's time in the calls (the GPU idle),
// the range's translations walked again, or every translation of the
// GPU? Each case times the touch kernel right after, with events:
//   back_to_back   nothing between two touches
//   sleep          the host sleeping as long as the case's advice took
//   <advice>       the advice given and taken back over the touched range
//                  (accessed_by, read_mostly, preferred_gpu, preferred_cpu)
//   accessed_set   SetAccessedBy(GPU) given only (taken back after)
//   other_range    accessed_by's pair over another resident managed range
//                  of the same size, then the touches of the first
//   dev_after      accessed_by's pair over the managed range, then the
//                  same touches of device memory
// for ranges of 64 MiB and 1 GiB (the touches: a byte every 4 KiB of it).
// Each line: advise.<size>.<case> rep<R>: us=... advise_us=... (the
// host's time for the advice calls, where there are any).
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o advise advise.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define MIB (1UL << 20)
#define REPS 6
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("advise.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void touch(char *p, size_t n, size_t stride)
{
	size_t i = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) * stride;
	if (i < n)
		p[i] += 1;
}

static cudaEvent_t ea, eb;
static size_t span;

static double timed_touch(char *p)
{
	size_t t = span / 4096;
	float ms;

	CK(cudaEventRecord(ea, 0));
	touch<<<(unsigned)((t + 511) / 512), 512>>>(p, span, 4096);
	CK(cudaGetLastError());
	CK(cudaEventRecord(eb, 0));
	CK(cudaEventSynchronize(eb));
	CK(cudaEventElapsedTime(&ms, ea, eb));
	return ms * 1e3;
}

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

enum { ACCESSED, READ_MOSTLY, PREF_GPU, PREF_CPU };

/* An advice given and taken back over p: the host's us. */
static double advise_pair(char *p, int kind)
{
	struct cudaMemLocation gpu = {cudaMemLocationTypeDevice, 0};
	struct cudaMemLocation cpu = {cudaMemLocationTypeHost, 0};
	double t0 = now_us();

	switch (kind) {
	case ACCESSED:
		CK(cudaMemAdvise(p, span, cudaMemAdviseSetAccessedBy, gpu));
		CK(cudaMemAdvise(p, span, cudaMemAdviseUnsetAccessedBy, gpu));
		break;
	case READ_MOSTLY:
		CK(cudaMemAdvise(p, span, cudaMemAdviseSetReadMostly, gpu));
		CK(cudaMemAdvise(p, span, cudaMemAdviseUnsetReadMostly, gpu));
		break;
	case PREF_GPU:
		CK(cudaMemAdvise(p, span, cudaMemAdviseSetPreferredLocation, gpu));
		CK(cudaMemAdvise(p, span, cudaMemAdviseUnsetPreferredLocation, gpu));
		break;
	default:
		CK(cudaMemAdvise(p, span, cudaMemAdviseSetPreferredLocation, cpu));
		CK(cudaMemAdvise(p, span, cudaMemAdviseUnsetPreferredLocation, cpu));
		break;
	}
	return now_us() - t0;
}

static void line(const char *c, int rep, double us, double adv)
{
	if (adv >= 0)
		printf("advise.%zuMiB.%s rep%d: us=%.1f advise_us=%.1f\n",
		       span / MIB, c, rep, us, adv);
	else
		printf("advise.%zuMiB.%s rep%d: us=%.1f\n", span / MIB, c, rep, us);
	fflush(stdout);
}

/* Managed memory of span bytes the GPU holds: written by it. */
static char *resident(void)
{
	struct cudaMemLocation gpu = {cudaMemLocationTypeDevice, 0};
	char *p;

	CK(cudaMallocManaged(&p, span));
	CK(cudaMemset(p, 1, span));
	CK(cudaMemPrefetchAsync(p, span, gpu, 0, 0));
	CK(cudaDeviceSynchronize());
	return p;
}

static void run(size_t bytes)
{
	static const char *names[] = { "accessed_by", "read_mostly",
				       "preferred_gpu", "preferred_cpu" };
	char *m, *o, *d;
	double adv = 0;

	span = bytes;
	m = resident();
	o = resident();
	CK(cudaMalloc(&d, span));
	CK(cudaMemset(d, 1, span));
	CK(cudaDeviceSynchronize());
	for (int rep = 0; rep < REPS; rep++) {
		timed_touch(m);
		line("back_to_back", rep, timed_touch(m), -1);
	}
	for (int k = ACCESSED; k <= PREF_CPU; k++)
		for (int rep = 0; rep < REPS; rep++) {
			timed_touch(m);
			double a = advise_pair(m, k);
			if (k == ACCESSED)
				adv += a / REPS;
			line(names[k], rep, timed_touch(m), a);
		}
	for (int rep = 0; rep < REPS; rep++) {
		timed_touch(m);
		usleep((useconds_t)adv);
		line("sleep", rep, timed_touch(m), -1);
	}
	for (int rep = 0; rep < REPS; rep++) {
		struct cudaMemLocation gpu = {cudaMemLocationTypeDevice, 0};
		timed_touch(m);
		double t0 = now_us();
		CK(cudaMemAdvise(m, span, cudaMemAdviseSetAccessedBy, gpu));
		double a = now_us() - t0;
		line("accessed_set", rep, timed_touch(m), a);
		CK(cudaMemAdvise(m, span, cudaMemAdviseUnsetAccessedBy, gpu));
	}
	for (int rep = 0; rep < REPS; rep++) {
		timed_touch(m);
		double a = advise_pair(o, ACCESSED);
		line("other_range", rep, timed_touch(m), a);
	}
	for (int rep = 0; rep < REPS; rep++) {
		timed_touch(d);
		double a = advise_pair(m, ACCESSED);
		line("dev_after", rep, timed_touch(d), a);
	}
	CK(cudaFree(m));
	CK(cudaFree(o));
	CK(cudaFree(d));
}

int main(void)
{
	CK(cudaEventCreate(&ea));
	CK(cudaEventCreate(&eb));
	run(64 * MIB);
	run(1024 * MIB);
	printf("advise.done\n");
	return 0;
}
