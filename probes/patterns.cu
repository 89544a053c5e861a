// patterns.cu - managed-memory access patterns the timing model was not
// fitted to, timed on real H200s so the emulator can be checked against
// them without fitting each: scrambled 4 KiB touches, read-only and
// write-only streams, a half-prefetched buffer streamed whole, the CPU
// reading and writing GPU-resident data, remote reads and writes of data
// preferring the CPU (accessed_by); and on two GPUs: a GPU streaming its
// peer's data through accessed_by, read-mostly duplication and its
// invalidation by a write, two GPUs writing the same 64 MiB in turn and
// the same 2 MiB in turn (thrashing), prefetches between the GPUs from
// 2 MiB to 128 MiB, plain peer copies of 256 MiB and of 4 KiB.
// Kernels are timed by CUDA events on the GPU's stream, CPU loops by the
// wall clock. Each line: patterns.<case> repN: bytes=... ms=... GBps=...
// Build: nvcc -O2 -arch=sm_90 -o patterns patterns.cu
// It allocates 128 MiB of managed memory and, with two GPUs, 256 MiB on
// each of them.
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define KIB (1UL << 10)
#define MIB (1UL << 20)
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("patterns.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

static const int BLOCKS = 1320, THREADS = 512, REPS = 3;

__global__ void k_read(const int4 *p, size_t n, int *out)
{
	int acc = 0;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x) {
		int4 v = p[i];
		acc += v.x ^ v.y ^ v.z ^ v.w;
	}
	if (acc == 0x7a5a5a5a)	/* never, but the reads must be made */
		out[0] = acc;
}

__global__ void k_write(int4 *p, size_t n, int v)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x)
		p[i] = make_int4(v, v, v, v);
}

__global__ void k_rw(int4 *p, size_t n)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x) {
		int4 v = p[i];
		v.x += 1;
		p[i] = v;
	}
}

/* One byte of each 4 KiB page incremented, the pages in a scrambled
 * order: thread i takes page (i * an odd number) mod the page count, a
 * power of two, so every page once and neighbours far apart. */
__global__ void k_scramble(char *p, size_t pages)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	if (i < pages)
		p[((i * 0x9E3779B1ULL) & (pages - 1)) * 4 * KIB] += 1;
}

enum kind { READ, WRITE, RW, SCRAMBLE };

static int *sink[2];
static int ndev;

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static struct cudaMemLocation where(int d)
{
	struct cudaMemLocation l;
	l.type = d < 0 ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
	l.id = d < 0 ? 0 : d;
	return l;
}

static void adv(void *p, size_t n, enum cudaMemoryAdvise a, int d)
{
	CK(cudaMemAdvise(p, n, a, where(d)));
}

static void reset_advice(char *p, size_t n)
{
	adv(p, n, cudaMemAdviseUnsetReadMostly, 0);
	adv(p, n, cudaMemAdviseUnsetPreferredLocation, 0);
	for (int d = 0; d < ndev && d < 2; d++)
		adv(p, n, cudaMemAdviseUnsetAccessedBy, d);
}

/* Back on the host, every page populated there. */
static void to_host(char *p, size_t n)
{
	CK(cudaMemPrefetchAsync(p, n, where(-1), 0, 0));
	CK(cudaDeviceSynchronize());
	for (size_t i = 0; i < n; i += 4 * KIB)
		p[i] += 1;
}

static void to_dev(char *p, size_t n, int d)
{
	CK(cudaSetDevice(d));
	CK(cudaMemPrefetchAsync(p, n, where(d), 0, 0));
	CK(cudaDeviceSynchronize());
	CK(cudaSetDevice(0));
}

/* Events on device d's legacy stream around one operation. */
static float timed_begin(int d, cudaEvent_t *a, cudaEvent_t *b)
{
	CK(cudaSetDevice(d));
	CK(cudaEventCreate(a));
	CK(cudaEventCreate(b));
	CK(cudaEventRecord(*a, 0));
	return 0;
}

static float timed_end(cudaEvent_t a, cudaEvent_t b)
{
	float ms;
	CK(cudaGetLastError());
	CK(cudaEventRecord(b, 0));
	CK(cudaEventSynchronize(b));
	CK(cudaEventElapsedTime(&ms, a, b));
	CK(cudaEventDestroy(a));
	CK(cudaEventDestroy(b));
	CK(cudaSetDevice(0));
	return ms;
}

static float kernel(int d, enum kind k, char *p, size_t n)
{
	cudaEvent_t a, b;
	timed_begin(d, &a, &b);
	switch (k) {
	case READ:
		k_read<<<BLOCKS, THREADS>>>((const int4 *)p, n / 16, sink[d]);
		break;
	case WRITE:
		k_write<<<BLOCKS, THREADS>>>((int4 *)p, n / 16, 3);
		break;
	case RW:
		k_rw<<<BLOCKS, THREADS>>>((int4 *)p, n / 16);
		break;
	case SCRAMBLE:
		k_scramble<<<(n / (4 * KIB) + 511) / 512, 512>>>(p, n / (4 * KIB));
		break;
	}
	return timed_end(a, b);
}

static float prefetch(int d, char *p, size_t n)
{
	cudaEvent_t a, b;
	timed_begin(d, &a, &b);
	CK(cudaMemPrefetchAsync(p, n, where(d), 0, 0));
	return timed_end(a, b);
}

static void line(const char *c, int rep, size_t n, double ms)
{
	printf("patterns.%s rep%d: bytes=%zu ms=%.4f GBps=%.2f\n", c, rep, n,
	       ms, n / ms / 1e6);
	fflush(stdout);
}

/* The CPU reading (w 0) or writing (w 1) every 8 bytes, wall-timed. */
static double cpu_stream(char *p, size_t n, int w)
{
	volatile uint64_t *q = (volatile uint64_t *)p;
	uint64_t acc = 0;
	double t0 = now_ms();
	for (size_t i = 0; i < n / 8; i++) {
		if (w)
			q[i] = i;
		else
			acc += q[i];
	}
	double ms = now_ms() - t0;
	if (acc == 1)	/* never; keeps the reads */
		printf("patterns.note: %llu\n", (unsigned long long)acc);
	return ms;
}

static void one_gpu(char *p, size_t n)
{
	for (int rep = 0; rep < REPS; rep++) {
		to_host(p, n);
		line("scramble_4k_from_cpu", rep, n, kernel(0, SCRAMBLE, p, n));
		line("scramble_4k_resident", rep, n, kernel(0, SCRAMBLE, p, n));
		to_host(p, n);
		line("read_stream_from_cpu", rep, n, kernel(0, READ, p, n));
		line("read_stream_resident", rep, n, kernel(0, READ, p, n));
		to_host(p, n);
		line("write_stream_from_cpu", rep, n, kernel(0, WRITE, p, n));
		line("write_stream_resident", rep, n, kernel(0, WRITE, p, n));
		to_host(p, n);
		to_dev(p, n / 2, 0);
		line("half_prefetched_stream", rep, n, kernel(0, RW, p, n));
		to_dev(p, n, 0);
		line("cpu_read_from_gpu", rep, n, cpu_stream(p, n, 0));
		to_dev(p, n, 0);
		line("cpu_write_from_gpu", rep, n, cpu_stream(p, n, 1));
	}
	/* Remote over the host link: preferred location the CPU, accessed
	 * by gpu0, so the kernel maps the host's pages. */
	to_host(p, n);
	adv(p, n, cudaMemAdviseSetPreferredLocation, -1);
	adv(p, n, cudaMemAdviseSetAccessedBy, 0);
	for (int rep = 0; rep < REPS; rep++) {
		line("remote_read_pref_cpu", rep, n, kernel(0, READ, p, n));
		line("remote_write_pref_cpu", rep, n, kernel(0, WRITE, p, n));
	}
	reset_advice(p, n);
}

static void peer_copies(void)
{
	char *buf[2];
	size_t n = 256 * MIB;
	for (int d = 0; d < 2; d++) {
		CK(cudaSetDevice(d));
		CK(cudaMalloc(&buf[d], n));
		CK(cudaMemset(buf[d], 1, n));
		CK(cudaDeviceSynchronize());
	}
	for (int rep = 0; rep < REPS; rep++)
		for (int s = 0; s < 2; s++) {
			cudaEvent_t a, b;
			char c[64];
			timed_begin(1 - s, &a, &b);
			CK(cudaMemcpyPeerAsync(buf[1 - s], 1 - s, buf[s], s, n, 0));
			snprintf(c, sizeof c, "peer_copy_gpu%d_to_gpu%d", s, 1 - s);
			line(c, rep, n, timed_end(a, b));
			/* 100 copies of 4 KiB back to back: ms is one's share */
			timed_begin(1 - s, &a, &b);
			for (int i = 0; i < 100; i++)
				CK(cudaMemcpyPeerAsync(buf[1 - s], 1 - s, buf[s], s,
						       4 * KIB, 0));
			snprintf(c, sizeof c, "peer_copy_4k_gpu%d_to_gpu%d", s, 1 - s);
			line(c, rep, 4 * KIB, timed_end(a, b) / 100);
		}
	for (int d = 0; d < 2; d++) {
		CK(cudaSetDevice(d));
		CK(cudaFree(buf[d]));
	}
	CK(cudaSetDevice(0));
}

static void two_gpus(char *p, size_t n, size_t m)
{
	/* gpu1 streams gpu0's data, mapped over NVLink by accessed_by. */
	to_dev(p, n, 0);
	adv(p, n, cudaMemAdviseSetPreferredLocation, 0);
	adv(p, n, cudaMemAdviseSetAccessedBy, 1);
	for (int rep = 0; rep < REPS; rep++) {
		line("gpu1_read_peer_ab", rep, n, kernel(1, READ, p, n));
		line("gpu1_write_peer_ab", rep, n, kernel(1, WRITE, p, n));
	}
	reset_advice(p, n);
	/* Read-mostly: gpu1's reads duplicate gpu0's pages, a write by
	 * gpu0 invalidates gpu1's copies, gpu1 reads them again. */
	for (int rep = 0; rep < REPS; rep++) {
		to_dev(p, n, 0);
		adv(p, n, cudaMemAdviseSetReadMostly, 0);
		line("rm_gpu1_read_dup", rep, n, kernel(1, READ, p, n));
		line("rm_gpu1_read_again", rep, n, kernel(1, READ, p, n));
		line("rm_gpu0_read_own", rep, n, kernel(0, READ, p, n));
		line("rm_gpu0_write_invalidate", rep, n, kernel(0, WRITE, p, n));
		line("rm_gpu1_read_after_write", rep, n, kernel(1, READ, p, n));
		reset_advice(p, n);
	}
	/* Two GPUs writing the same m bytes in turn, a line a round. */
	to_dev(p, m, 0);
	for (int round = 0; round < 16; round++)
		line("pingpong_write", round, m, kernel(1 - round % 2, WRITE, p, m));
	to_dev(p, m, 0);
	for (int round = 0; round < 16; round++)
		line("pingpong_rw", round, m, kernel(1 - round % 2, RW, p, m));
	/* The same with 2 MiB: a round far shorter than the driver's
	 * thrashing lapse (500 us). */
	to_dev(p, m, 0);
	for (int round = 0; round < 16; round++)
		line("pingpong_write_2m", round, 2 * MIB,
		     kernel(1 - round % 2, WRITE, p, 2 * MIB));
	/* Prefetch between the GPUs, timed on the destination's stream:
	 * 2, 8 and 32 MiB, then the whole buffer. */
	for (size_t sz = 2 * MIB; sz < n; sz *= 4)
		for (int rep = 0; rep < REPS; rep++)
			for (int s = 0; s < 2; s++) {
				char c[64];
				to_dev(p, sz, s);
				snprintf(c, sizeof c, "prefetch_%zum_gpu%d_to_gpu%d",
					 sz / MIB, s, 1 - s);
				line(c, rep, sz, prefetch(1 - s, p, sz));
			}
	for (int rep = 0; rep < REPS; rep++)
		for (int s = 0; s < 2; s++) {
			char c[64];
			to_dev(p, n, s);
			snprintf(c, sizeof c, "prefetch_gpu%d_to_gpu%d", s, 1 - s);
			line(c, rep, n, prefetch(1 - s, p, n));
		}
	peer_copies();
}

int main(void)
{
	size_t n = 128 * MIB, m = 64 * MIB;
	char *p;

	CK(cudaGetDeviceCount(&ndev));
	printf("patterns.devices: %d\n", ndev);
	for (int d = 0; d < ndev && d < 2; d++) {
		cudaDeviceProp pr;
		CK(cudaGetDeviceProperties(&pr, d));
		printf("patterns.gpu%d: %s sms=%d\n", d, pr.name,
		       pr.multiProcessorCount);
		CK(cudaSetDevice(d));
		CK(cudaMalloc(&sink[d], sizeof(int)));
	}
	CK(cudaSetDevice(0));
	CK(cudaMallocManaged(&p, n));
	memset(p, 0, n);
	double t0 = now_ms();
	one_gpu(p, n);
	printf("patterns.section one_gpu: wall_ms=%.0f\n", now_ms() - t0);
	if (ndev > 1) {
		int ok = 0;
		CK(cudaDeviceCanAccessPeer(&ok, 1, 0));
		printf("patterns.peer_access: %d\n", ok);
		for (int d = 0; d < 2; d++) {
			CK(cudaSetDevice(d));
			CK(cudaDeviceEnablePeerAccess(1 - d, 0));
		}
		CK(cudaSetDevice(0));
		t0 = now_ms();
		two_gpus(p, n, m);
		printf("patterns.section two_gpus: wall_ms=%.0f\n", now_ms() - t0);
	}
	CK(cudaFree(p));
	for (int d = 0; d < ndev && d < 2; d++) {
		CK(cudaSetDevice(d));
		CK(cudaFree(sink[d]));
	}
	printf("patterns.done: ok\n");
	return 0;
}
