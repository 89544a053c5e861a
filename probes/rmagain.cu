// rmagain.cu - why a second kernel writing read-mostly data takes longer
// than the first (probes/faults.cu: rm_touch_4k_gpu0_first 325 ms,
// _again 511 ms on an H200). 256 MiB managed, resident on gpu0, one byte
// written (or read) every 4 KiB by each kernel; each case's kernels timed
// one by one with events. Cases: read-mostly set after the prefetch (as
// faults.cu), with 50 ms of host sleep between the kernels, read touches
// before writes, read-mostly set before the prefetch, no read-mostly
// (the baseline), and a 64 KiB stride.
// Each line: rmagain.<case> k<N>: ms=...
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o rmagain rmagain.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MIB (1UL << 20)
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("rmagain.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void wtouch(char *p, size_t n, size_t stride)
{
	size_t i = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) * stride;
	if (i < n)
		p[i] += 1;
}

__global__ void rtouch(const char *p, size_t n, size_t stride, int *sink)
{
	size_t i = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) * stride;
	if (i < n && p[i] == 123)
		atomicAdd(sink, 1);
}

static int *sink;

static struct cudaMemLocation dev0(void)
{
	struct cudaMemLocation l;
	l.type = cudaMemLocationTypeDevice;
	l.id = 0;
	return l;
}

static double kernel(int write, char *p, size_t n, size_t stride)
{
	cudaEvent_t a, b;
	float ms;
	size_t t = n / stride;

	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	CK(cudaEventRecord(a, 0));
	if (write)
		wtouch<<<(t + 511) / 512, 512>>>(p, n, stride);
	else
		rtouch<<<(t + 511) / 512, 512>>>(p, n, stride, sink);
	CK(cudaGetLastError());
	CK(cudaEventRecord(b, 0));
	CK(cudaEventSynchronize(b));
	CK(cudaEventElapsedTime(&ms, a, b));
	CK(cudaEventDestroy(a));
	CK(cudaEventDestroy(b));
	return ms;
}

/* Fresh data on gpu0: written by the CPU, prefetched. rm_first: read
 * mostly set before the prefetch, else after it (when rm). */
static void setup(char *p, size_t n, int rm, int rm_first)
{
	CK(cudaMemAdvise(p, n, cudaMemAdviseUnsetReadMostly, dev0()));
	memset(p, 1, n);
	if (rm && rm_first)
		CK(cudaMemAdvise(p, n, cudaMemAdviseSetReadMostly, dev0()));
	CK(cudaMemPrefetchAsync(p, n, dev0(), 0, 0));
	CK(cudaDeviceSynchronize());
	if (rm && !rm_first)
		CK(cudaMemAdvise(p, n, cudaMemAdviseSetReadMostly, dev0()));
}

/* kinds: a string of 'w' and 'r', a kernel each; sleep_ms between. */
static void run(const char *name, char *p, size_t n, int rm, int rm_first,
		const char *kinds, int sleep_ms, size_t stride)
{
	setup(p, n, rm, rm_first);
	for (int k = 0; kinds[k]; k++) {
		if (k && sleep_ms)
			usleep(sleep_ms * 1000);
		printf("rmagain.%s k%d %c: ms=%.3f\n", name, k, kinds[k],
		       kernel(kinds[k] == 'w', p, n, stride));
		fflush(stdout);
	}
}

int main(void)
{
	size_t n = 256 * MIB;
	char *p;

	CK(cudaMallocManaged(&p, n));
	CK(cudaMalloc(&sink, sizeof(int)));
	for (int rep = 0; rep < 2; rep++) {
		printf("rmagain.rep: %d\n", rep);
		run("rm_after_prefetch", p, n, 1, 0, "wwww", 0, 4096);
		run("rm_after_prefetch_sleep50", p, n, 1, 0, "www", 50, 4096);
		run("rm_reads_then_writes", p, n, 1, 0, "rrww", 0, 4096);
		run("rm_before_prefetch", p, n, 1, 1, "www", 0, 4096);
		run("no_rm", p, n, 0, 0, "www", 0, 4096);
		run("rm_after_prefetch_64k", p, n, 1, 0, "www", 0, 65536);
	}
	CK(cudaFree(p));
	printf("rmagain.done: ok\n");
	return 0;
}
