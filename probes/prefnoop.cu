// prefnoop.cu - what faults.cu's gpu_touch_4k_resident pays for the
// prefetch before it. faults.cu prefetches 1 GiB of managed memory that
// is already on the GPU (a walk of 0.6 to 1.1 ms that moves nothing),
// then touches one byte every 4 KiB of it: 28 to 45 us on H200s, where
// the same touches back to back take 15 to 17 and after 1 ms of sleep 20
// to 32. Does the prefetch leave the GPU idler than a sleep as long, or
// does it leave the range's translations to be walked again? Each case
// times the touch kernel with events, right after:
//   man_after_man       the same touches of the managed 1 GiB
//   man_after_prefetch  a prefetch of it to the GPU, where it is
//   dev_after_prefetch  the same prefetch, then the touches on 1 GiB of
//                       device memory instead
//   man_after_sleep     the host sleeping as long as the prefetch took
//   dev_after_sleep     the same, then the touches on device memory
//   man_after_advise    cudaMemAdvise(SetAccessedBy, the GPU) given and
//                       taken back over the range, then the touches
//   dev_after_dev       the device memory's touches back to back
//   dev_after_man       the device memory's right after the managed's
//   seq_*               faults.cu's sequence: the CPU writes the range,
//                       a stream faults it in (seq_stream_from_cpu), a
//                       prefetch, a stream of it resident
//                       (seq_stream_resident), a prefetch, the touches
//                       (seq_touch) and the touches again
//                       (seq_touch_again)
// Each line: prefnoop.<case> repR: us=... (prefetch_us=... where there is
// one: the host's time for the prefetch and its synchronization).
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o prefnoop prefnoop.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define GIB (1UL << 30)
#define REPS 7
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("prefnoop.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

/* faults.cu's stream kernel: every int4 read and written. */
__global__ void stream(int4 *p, size_t n)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x) {
		int4 v = p[i];
		v.x += 1;
		p[i] = v;
	}
}

/* faults.cu's touch kernel: one byte every stride bytes of n. */
__global__ void touch(char *p, size_t n, size_t stride)
{
	size_t i = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) * stride;
	if (i < n)
		p[i] += 1;
}

static cudaEvent_t ea, eb;

static double timed_touch(char *p)
{
	size_t t = GIB / 4096;
	float ms;

	CK(cudaEventRecord(ea, 0));
	touch<<<(unsigned)((t + 511) / 512), 512>>>(p, GIB, 4096);
	CK(cudaGetLastError());
	CK(cudaEventRecord(eb, 0));
	CK(cudaEventSynchronize(eb));
	CK(cudaEventElapsedTime(&ms, ea, eb));
	return ms * 1e3;
}

static double timed_stream(char *p)
{
	float ms;

	CK(cudaEventRecord(ea, 0));
	stream<<<1320, 512>>>((int4 *)p, GIB / 16);
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

/* The prefetch of m to gpu0 and its synchronization: the host's us. */
static double prefetch(char *m)
{
	struct cudaMemLocation l = {cudaMemLocationTypeDevice, 0};
	double t0 = now_us();

	CK(cudaMemPrefetchAsync(m, GIB, l, 0, 0));
	CK(cudaDeviceSynchronize());
	return now_us() - t0;
}

static void line(const char *c, int rep, double us)
{
	printf("prefnoop.%s rep%d: us=%.1f\n", c, rep, us);
	fflush(stdout);
}

int main(void)
{
	struct cudaMemLocation gpu0 = {cudaMemLocationTypeDevice, 0};
	char *m, *d;
	double pf = 0;

	CK(cudaEventCreate(&ea));
	CK(cudaEventCreate(&eb));
	CK(cudaMalloc(&d, GIB));
	CK(cudaMemset(d, 0, GIB));
	CK(cudaMallocManaged(&m, GIB));
	CK(cudaMemset(m, 0, GIB));
	prefetch(m);
	timed_touch(m);
	timed_touch(d);
	for (int rep = 0; rep < REPS; rep++) {
		timed_touch(m);
		line("man_after_man", rep, timed_touch(m));
	}
	for (int rep = 0; rep < REPS; rep++) {
		double p;

		timed_touch(m);
		p = prefetch(m);
		pf += p;
		printf("prefnoop.man_after_prefetch rep%d: prefetch_us=%.1f "
		       "us=%.1f\n", rep, p, timed_touch(m));
		fflush(stdout);
		timed_touch(m);
		p = prefetch(m);
		printf("prefnoop.dev_after_prefetch rep%d: prefetch_us=%.1f "
		       "us=%.1f\n", rep, p, timed_touch(d));
		fflush(stdout);
	}
	pf /= REPS;
	for (int rep = 0; rep < REPS; rep++) {
		timed_touch(m);
		usleep((useconds_t)pf);
		line("man_after_sleep", rep, timed_touch(m));
		timed_touch(m);
		usleep((useconds_t)pf);
		line("dev_after_sleep", rep, timed_touch(d));
	}
	for (int rep = 0; rep < REPS; rep++) {
		timed_touch(m);
		CK(cudaMemAdvise(m, GIB, cudaMemAdviseSetAccessedBy, gpu0));
		CK(cudaMemAdvise(m, GIB, cudaMemAdviseUnsetAccessedBy, gpu0));
		line("man_after_advise", rep, timed_touch(m));
	}
	for (int rep = 0; rep < REPS; rep++) {
		timed_touch(d);
		line("dev_after_dev", rep, timed_touch(d));
		timed_touch(m);
		line("dev_after_man", rep, timed_touch(d));
	}
	for (int rep = 0; rep < 3; rep++) {
		struct cudaMemLocation host = {cudaMemLocationTypeHost, 0};

		CK(cudaMemPrefetchAsync(m, GIB, host, 0, 0));
		CK(cudaDeviceSynchronize());
		for (size_t i = 0; i < GIB; i += 4096)
			m[i] += 1;
		line("seq_stream_from_cpu", rep, timed_stream(m));
		prefetch(m);
		line("seq_stream_resident", rep, timed_stream(m));
		prefetch(m);
		line("seq_touch", rep, timed_touch(m));
		line("seq_touch_again", rep, timed_touch(m));
	}
	CK(cudaFree(m));
	CK(cudaFree(d));
	printf("prefnoop.done: ok\n");
	return 0;
}
