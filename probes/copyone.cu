// copyone.cu - what one asynchronous copy costs, taken apart: the call's
// own time on the host, the device's time for a copy alone, and its time
// for each of many queued behind one another. The copy defaults
// (cuemu-topology(5), "copies") were fitted to 100 back-to-back copies
// timed by events, which a host issuing them one by one may bound; a
// copy timed alone took longer on two H200s (peermig.txt's copy_one).
//
// For each path (pinned host to GPU, GPU to pinned host, within a GPU, a
// memset of GPU memory, pageable host to GPU) and size (4 KiB, 64 KiB,
// 1 MiB), on a non-blocking stream and on the legacy stream:
//   call     the cudaMemcpyAsync (cudaMemsetAsync) call alone, the stream
//            idle: wall clock around it, median of 50
//   one      events around one copy, the stream idle: median of 30
//   b2b      events around 100 copies issued one after another, a copy
//   queued   the host's time to issue those 100, a copy
//   dev_one  events around one copy queued behind a 200 us spin kernel,
//            so that the host's call is done before the device reaches
//            it: the device's time for one copy, median of 30
//   dev_b2b  the same with 100 copies behind 2 ms: the device's time a
//            copy when nothing waits for the host
// Lines: copyone.<case> <path> <stream> <size>KiB: us=...
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o copyone copyone.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <algorithm>
#include <vector>

#define KIB (1UL << 10)
#define MIB (1UL << 20)
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("copyone.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

enum path { HTOD, DTOH, DTOD, MEMSET, PAGEABLE_HTOD, NPATHS };
static const char *const path_name[] = { "pinned_to_gpu", "gpu_to_pinned",
					 "gpu_local", "memset",
					 "pageable_to_gpu" };
static void *pinned, *pageable, *dev_a, *dev_b;

__global__ void spin(long long cycles)
{
	long long t0 = clock64();

	while (clock64() - t0 < cycles)
		;
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static double median(std::vector<double> v)
{
	std::sort(v.begin(), v.end());
	return v[v.size() / 2];
}

static void op(enum path p, size_t n, cudaStream_t s)
{
	switch (p) {
	case HTOD: CK(cudaMemcpyAsync(dev_a, pinned, n, cudaMemcpyHostToDevice, s)); break;
	case DTOH: CK(cudaMemcpyAsync(pinned, dev_a, n, cudaMemcpyDeviceToHost, s)); break;
	case DTOD: CK(cudaMemcpyAsync(dev_b, dev_a, n, cudaMemcpyDeviceToDevice, s)); break;
	case MEMSET: CK(cudaMemsetAsync(dev_a, 1, n, s)); break;
	default: CK(cudaMemcpyAsync(dev_a, pageable, n, cudaMemcpyHostToDevice, s)); break;
	}
}

/* Events around count operations on s, behind a spin kernel or not: us
 * an operation; the host's time to issue them in *issue. */
static double timed(enum path p, size_t n, cudaStream_t s, int count,
		    bool behind, double *issue)
{
	cudaEvent_t a, b;
	float ms;
	double t0;

	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	CK(cudaStreamSynchronize(s));
	/* about 200 us ahead of one copy, 2 ms ahead of many */
	if (behind)
		spin<<<1, 1, 0, s>>>(count == 1 ? 400000 : 4000000);
	CK(cudaEventRecord(a, s));
	t0 = now_us();
	for (int i = 0; i < count; i++)
		op(p, n, s);
	if (issue)
		*issue = (now_us() - t0) / count;
	CK(cudaEventRecord(b, s));
	CK(cudaEventSynchronize(b));
	CK(cudaEventElapsedTime(&ms, a, b));
	CK(cudaEventDestroy(a));
	CK(cudaEventDestroy(b));
	return ms * 1e3 / count;
}

static void line(const char *c, enum path p, const char *sn, size_t n,
		 double us)
{
	printf("copyone.%s %s %s %zuKiB: us=%.3f\n", c, path_name[p], sn,
	       n / KIB, us);
	fflush(stdout);
}

int main(void)
{
	cudaStream_t own;

	CK(cudaSetDevice(0));
	CK(cudaMallocHost(&pinned, 1 * MIB));
	pageable = malloc(1 * MIB);
	memset(pageable, 1, 1 * MIB);
	memset(pinned, 1, 1 * MIB);
	CK(cudaMalloc(&dev_a, 1 * MIB));
	CK(cudaMalloc(&dev_b, 1 * MIB));
	CK(cudaStreamCreateWithFlags(&own, cudaStreamNonBlocking));
	spin<<<1, 1>>>(1000);
	CK(cudaDeviceSynchronize());
	for (int st = 0; st < 2; st++) {
		cudaStream_t s = st ? (cudaStream_t)0 : own;
		const char *sn = st ? "legacy" : "nonblocking";
		for (int p = 0; p < NPATHS; p++)
			for (size_t n = 4 * KIB; n <= 1 * MIB; n *= 16) {
				std::vector<double> call, one, dev_one;
				double queued, b2b, dev_b2b;
				enum path pp = (enum path)p;

				timed(pp, n, s, 10, false, NULL);	/* warm */
				for (int i = 0; i < 50; i++) {
					CK(cudaStreamSynchronize(s));
					double t0 = now_us();
					op(pp, n, s);
					call.push_back(now_us() - t0);
				}
				for (int i = 0; i < 30; i++)
					one.push_back(timed(pp, n, s, 1, false, NULL));
				b2b = timed(pp, n, s, 100, false, &queued);
				for (int i = 0; i < 30; i++)
					dev_one.push_back(timed(pp, n, s, 1, true, NULL));
				dev_b2b = timed(pp, n, s, 100, true, NULL);
				line("call", pp, sn, n, median(call));
				line("one", pp, sn, n, median(one));
				line("b2b", pp, sn, n, b2b);
				line("queued", pp, sn, n, queued);
				line("dev_one", pp, sn, n, median(dev_one));
				line("dev_b2b", pp, sn, n, dev_b2b);
			}
	}
	CK(cudaDeviceSynchronize());
	printf("copyone.done: ok\n");
	return 0;
}
