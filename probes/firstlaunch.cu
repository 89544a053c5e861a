// firstlaunch.cu - what the first kernel after pages arrive pays
// (probes/mfirst.cu found 25-40 us more than the next, whatever the
// number of touches). 1 GiB, a byte written every 4 KiB by each kernel,
// each kernel timed with events. Cases: managed memory prefetched to
// gpu0 and touched three times; the same with an empty kernel first;
// with 100 ms of host sleep first; with only 2 MiB of it prefetched
// again (the rest already there); device memory after a memset, and with
// nothing before.
// Each line: firstlaunch.<case> k<N>: ms=...
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o firstlaunch firstlaunch.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MIB (1UL << 20)
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("firstlaunch.error: %s line %d: %s\n", #x, __LINE__, \
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

static double timed(char *p, size_t n, int empty_kernel)
{
	cudaEvent_t a, b;
	float ms;
	size_t t = n / 4096;

	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	CK(cudaEventRecord(a, 0));
	if (empty_kernel)
		empty<<<1, 32>>>();
	else
		touch<<<(t + 511) / 512, 512>>>(p, n, 4096);
	CK(cudaGetLastError());
	CK(cudaEventRecord(b, 0));
	CK(cudaEventSynchronize(b));
	CK(cudaEventElapsedTime(&ms, a, b));
	CK(cudaEventDestroy(a));
	CK(cudaEventDestroy(b));
	return ms;
}

static void line(const char *c, int k, double ms)
{
	printf("firstlaunch.%s k%d: ms=%.4f\n", c, k, ms);
	fflush(stdout);
}

static void prefetch(char *p, size_t n)
{
	struct cudaMemLocation l = { cudaMemLocationTypeDevice, 0 };

	CK(cudaMemPrefetchAsync(p, n, l, 0, 0));
	CK(cudaDeviceSynchronize());
}

static void to_host(char *p, size_t n)
{
	struct cudaMemLocation l = { cudaMemLocationTypeHost, 0 };

	CK(cudaMemPrefetchAsync(p, n, l, 0, 0));
	CK(cudaDeviceSynchronize());
	for (size_t i = 0; i < n; i += 4096)
		p[i] += 1;
}

int main(void)
{
	size_t n = 1024 * MIB;
	char *p, *d;

	CK(cudaMallocManaged(&p, n));
	CK(cudaMalloc(&d, n));
	memset(p, 0, n);
	for (int rep = 0; rep < 3; rep++) {
		to_host(p, n);
		prefetch(p, n);
		for (int k = 0; k < 3; k++)
			line("managed_prefetched", k, timed(p, n, 0));
		to_host(p, n);
		prefetch(p, n);
		line("managed_empty_first", 0, timed(p, n, 1));
		for (int k = 1; k < 3; k++)
			line("managed_empty_first", k, timed(p, n, 0));
		to_host(p, n);
		prefetch(p, n);
		usleep(100000);
		for (int k = 0; k < 2; k++)
			line("managed_sleep_first", k, timed(p, n, 0));
		prefetch(p, n);
		for (int k = 0; k < 2; k++)
			line("managed_prefetched_again", k, timed(p, n, 0));
		to_host(p, 2 * MIB);
		prefetch(p, 2 * MIB);
		for (int k = 0; k < 2; k++)
			line("managed_2m_moved", k, timed(p, n, 0));
		CK(cudaMemset(d, 0, n));
		CK(cudaDeviceSynchronize());
		for (int k = 0; k < 2; k++)
			line("device_after_memset", k, timed(d, n, 0));
		usleep(100000);
		for (int k = 0; k < 2; k++)
			line("device_after_sleep", k, timed(d, n, 0));
	}
	printf("firstlaunch.done: ok\n");
	return 0;
}
