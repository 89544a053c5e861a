// resprefetch.cu - what a prefetch of managed memory already resident on
// the destination costs, by size (the bench's reference has 4 MiB: 8.7 us
// with its synchronize; probes/faults.cu prefetches 1 GiB already on gpu0
// before gpu_touch_4k_resident, whose kernel then pays a wake that says
// the GPU sat idle about 1.5 ms). Wall time of cudaMemPrefetchAsync and
// its cudaStreamSynchronize, the median of 20, for 2 MiB to 1 GiB on gpu0,
// and the same for data resident on the host prefetched to the host.
// Each line: resprefetch.<where> bytes=N: median_us=... min_us=...
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o resprefetch resprefetch.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MIB (1UL << 20)
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("resprefetch.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

static double now_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void prefetch(char *p, size_t n, int host)
{
	struct cudaMemLocation l;

	l.type = host ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
	l.id = 0;
	CK(cudaMemPrefetchAsync(p, n, l, 0, 0));
	CK(cudaStreamSynchronize(0));
}

int main(void)
{
	size_t sizes[] = { 2 * MIB, 16 * MIB, 128 * MIB, 1024 * MIB };
	char *p;
	double t[20];

	CK(cudaMallocManaged(&p, 1024 * MIB));
	memset(p, 1, 1024 * MIB);
	for (int host = 0; host <= 1; host++) {
		prefetch(p, 1024 * MIB, host);
		for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
			for (int i = 0; i < 20; i++) {
				double a = now_us();
				prefetch(p, sizes[s], host);
				t[i] = now_us() - a;
			}
			qsort(t, 20, sizeof *t, cmp);
			printf("resprefetch.%s bytes=%zu: median_us=%.1f "
			       "min_us=%.1f\n", host ? "host" : "gpu0",
			       sizes[s], t[10], t[0]);
			fflush(stdout);
		}
	}
	printf("resprefetch.done: ok\n");
	return 0;
}
