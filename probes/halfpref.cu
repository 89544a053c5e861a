// halfpref.cu - why patterns.cu's half_prefetched_stream (128 MiB of
// managed memory, its first half prefetched to the GPU, the rest on the
// host, then read and written whole by one kernel: 5.1 ms on an H200)
// takes less than half of read_stream_from_cpu (the whole from the host:
// 12.8 ms). The same kernel (patterns.cu's k_rw: int4 read-modify-write,
// 1,320 blocks of 512, grid-stride) over:
//   cpu_S:      S MiB all on the host (populated by the CPU), S = 32 to 256
//   tail_64:    the second 64 MiB of 128 only, all on the host
//   first_half, second_half, first_quarter, first_3q:  128 MiB with that
//               part prefetched to the GPU, the rest on the host
//   alternate:  128 MiB with every other 2 MiB block on the GPU
// Whether the half's time follows its faulted bytes, the buffer's size or
// where the faulted part lies says which mechanism it is.
// Lines: halfpref.<case> repN: bytes=... ms=...
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o halfpref halfpref.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define KIB (1UL << 10)
#define MIB (1UL << 20)
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("halfpref.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

static const int BLOCKS = 1320, THREADS = 512, REPS = 3;

__global__ void k_rw(int4 *p, size_t n)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x) {
		int4 v = p[i];
		v.x += 1;
		p[i] = v;
	}
}

static struct cudaMemLocation where(int d)
{
	struct cudaMemLocation l;

	l.type = d < 0 ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
	l.id = d < 0 ? 0 : d;
	return l;
}

/* Back on the host, every page populated there. */
static void to_host(char *p, size_t n)
{
	CK(cudaMemPrefetchAsync(p, n, where(-1), 0, 0));
	CK(cudaDeviceSynchronize());
	for (size_t i = 0; i < n; i += 4 * KIB)
		p[i] += 1;
}

static void to_dev(char *p, size_t n)
{
	CK(cudaMemPrefetchAsync(p, n, where(0), 0, 0));
	CK(cudaDeviceSynchronize());
}

static float rw(char *p, size_t n)
{
	cudaEvent_t e0, e1;
	float ms;

	CK(cudaEventCreate(&e0));
	CK(cudaEventCreate(&e1));
	CK(cudaEventRecord(e0, 0));
	k_rw<<<BLOCKS, THREADS>>>((int4 *)p, n / sizeof(int4));
	CK(cudaEventRecord(e1, 0));
	CK(cudaEventSynchronize(e1));
	CK(cudaEventElapsedTime(&ms, e0, e1));
	CK(cudaEventDestroy(e0));
	CK(cudaEventDestroy(e1));
	return ms;
}

static void line(const char *c, int rep, size_t bytes, float ms)
{
	printf("halfpref.%s rep%d: bytes=%zu ms=%.4f\n", c, rep, bytes, ms);
	fflush(stdout);
}

int main(void)
{
	const size_t n = 128 * MIB;
	char *p, name[32];

	CK(cudaMallocManaged(&p, 2 * n));
	for (int rep = 0; rep < REPS; rep++) {
		for (size_t s = 32 * MIB; s <= 2 * n; s *= 2) {
			to_host(p, s);
			snprintf(name, sizeof name, "cpu_%zu", s / MIB);
			line(name, rep, s, rw(p, s));
		}
		to_host(p, n);
		line("tail_64", rep, n / 2, rw(p + n / 2, n / 2));
		to_host(p, n);
		to_dev(p, n / 2);
		line("first_half", rep, n, rw(p, n));
		to_host(p, n);
		to_dev(p + n / 2, n / 2);
		line("second_half", rep, n, rw(p, n));
		to_host(p, n);
		to_dev(p, n / 4);
		line("first_quarter", rep, n, rw(p, n));
		to_host(p, n);
		to_dev(p, 3 * n / 4);
		line("first_3q", rep, n, rw(p, n));
		to_host(p, n);
		for (size_t o = 0; o < n; o += 4 * MIB)
			to_dev(p + o, 2 * MIB);
		line("alternate", rep, n, rw(p, n));
	}
	CK(cudaFree(p));
	printf("halfpref.done: ok\n");
	return 0;
}
