// prefetch2m.cu - why a 2 MiB prefetch between two GPUs is slow at first
// (patterns.cu: 0.47, 0.14, 0.09 ms for its three repetitions gpu0 to
// gpu1, where 8 MiB took 0.14 every time). The same 2 MiB prefetched
// gpu0 -> gpu1 -> gpu0 ... twelve times, each timed with events on the
// destination's stream and by the wall clock around the call and its
// synchronize: right after the range's first placement on gpu0 (fresh),
// again on the same range (warm), on a second range after 10 ms of
// sleep before each prefetch (idle), and a fresh range after kernels
// on both GPUs wrote it (written).
// Lines: prefetch2m.<case> rep<N> to=<d>: ev_ms=... wall_ms=...
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o prefetch2m prefetch2m.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define MIB (1UL << 20)
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("prefetch2m.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void write(char *p, size_t n)
{
	size_t i = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) * 64;
	if (i < n)
		p[i] = 1;
}

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static struct cudaMemLocation dev(int d)
{
	struct cudaMemLocation l;
	l.type = cudaMemLocationTypeDevice;
	l.id = d;
	return l;
}

static void prefetch(const char *c, int rep, char *p, size_t n, int d)
{
	cudaEvent_t a, b;
	float ms;

	CK(cudaSetDevice(d));
	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	double t0 = now_ms();
	CK(cudaEventRecord(a, 0));
	CK(cudaMemPrefetchAsync(p, n, dev(d), 0, 0));
	CK(cudaEventRecord(b, 0));
	CK(cudaEventSynchronize(b));
	double wall = now_ms() - t0;
	CK(cudaEventElapsedTime(&ms, a, b));
	printf("prefetch2m.%s rep%d to=%d: ev_ms=%.4f wall_ms=%.4f\n", c, rep,
	       d, ms, wall);
	fflush(stdout);
	CK(cudaEventDestroy(a));
	CK(cudaEventDestroy(b));
}

static void walk(const char *c, char *p, size_t n, int sleep_ms)
{
	for (int rep = 0; rep < 12; rep++) {
		if (sleep_ms)
			usleep(sleep_ms * 1000);
		prefetch(c, rep, p, n, 1 - rep % 2);
	}
}

int main(void)
{
	size_t n = 2 * MIB;
	char *p, *q, *r;
	int ndev = 0, ok = 0;

	CK(cudaGetDeviceCount(&ndev));
	if (ndev < 2) {
		printf("prefetch2m.error: needs two GPUs\n");
		return 1;
	}
	CK(cudaDeviceCanAccessPeer(&ok, 0, 1));
	printf("prefetch2m.peer_access: %d\n", ok);
	CK(cudaMallocManaged(&p, 64 * MIB));
	CK(cudaMallocManaged(&q, 64 * MIB));
	CK(cudaMallocManaged(&r, 64 * MIB));
	CK(cudaSetDevice(0));
	CK(cudaMemPrefetchAsync(p, n, dev(0), 0, 0));
	CK(cudaDeviceSynchronize());
	walk("fresh", p, n, 0);
	walk("warm", p, n, 0);
	CK(cudaSetDevice(0));
	CK(cudaMemPrefetchAsync(q, n, dev(0), 0, 0));
	CK(cudaDeviceSynchronize());
	walk("idle", q, n, 10);
	for (int d = 0; d < 2; d++) {
		CK(cudaSetDevice(d));
		write<<<n / 64 / 256, 256>>>(r, n);
		CK(cudaDeviceSynchronize());
	}
	walk("written", r, n, 0);
	printf("prefetch2m.done: ok\n");
	return 0;
}
