// idlewake.cu - what a kernel pays after the GPU sat idle
// (probes/firstlaunch.cu: a touch of device memory took 0.016 ms run
// back to back and 0.042-0.049 ms after 100 ms of host sleep; an empty
// kernel after a 1 GiB prefetch took 0.045). Device memory, 1 GiB, a byte
// written every 4 KiB (or an empty kernel), timed with events after the
// host slept S microseconds with nothing queued; five kernels per S, the
// first after a warm-up kernel.
// Each line: idlewake.<kernel> sleep_us=S k<N>: ms=...
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o idlewake idlewake.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define MIB (1UL << 20)
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("idlewake.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void touch(char *p, size_t n, size_t stride)
{
	size_t i = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) * stride;
	if (i < n)
		p[i] += 1;
}

__global__ void empty(void)
{
}

static void spin_us(long us)
{
	struct timespec a, b;

	if (us <= 0)
		return;
	if (us >= 1000) {
		usleep(us);
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000L +
	       (b.tv_nsec - a.tv_nsec) / 1000 < us);
}

static double timed(char *p, size_t n, int kind)
{
	cudaEvent_t a, b;
	float ms;
	size_t t = n / 4096;

	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	CK(cudaEventRecord(a, 0));
	if (kind)
		touch<<<(t + 511) / 512, 512>>>(p, n, 4096);
	else
		empty<<<1, 32>>>();
	CK(cudaGetLastError());
	CK(cudaEventRecord(b, 0));
	CK(cudaEventSynchronize(b));
	CK(cudaEventElapsedTime(&ms, a, b));
	CK(cudaEventDestroy(a));
	CK(cudaEventDestroy(b));
	return ms;
}

int main(void)
{
	static const long sleeps[] = { 0, 20, 100, 300, 1000, 3000, 10000,
				       30000, 100000 };
	size_t n = 1024 * MIB;
	char *d;

	CK(cudaMalloc(&d, n));
	CK(cudaMemset(d, 0, n));
	CK(cudaDeviceSynchronize());
	for (int kind = 1; kind >= 0; kind--)
		for (size_t s = 0; s < sizeof sleeps / sizeof *sleeps; s++) {
			timed(d, n, kind);
			for (int k = 0; k < 5; k++) {
				spin_us(sleeps[s]);
				printf("idlewake.%s sleep_us=%ld k%d: ms=%.4f\n",
				       kind ? "touch4k" : "empty", sleeps[s], k,
				       timed(d, n, kind));
			}
			fflush(stdout);
		}
	printf("idlewake.done: ok\n");
	return 0;
}
