// peer.cu - what only two GPUs show, timed on the real machine: peer copies
// in each direction from 4 KiB to 256 MiB (bandwidth of back-to-back copies
// and the latency of one, by events, with and without peer access enabled,
// and both directions at once), kernels reading and writing a peer's memory,
// managed memory read remotely through accessed_by, read-mostly duplication
// and its invalidation by a write, two GPUs writing the same 64 MiB in turn,
// and prefetches between the GPUs from 2 MiB to 1 GiB.
// Each line: peer.<case> <parameters>: ms=... GBps=... (ms of one operation).
// Build: nvcc -O2 -arch=sm_90 -o peer peer.cu
// It allocates at most 1 GiB of managed memory and 512 MiB on each GPU.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <algorithm>
#include <vector>

#define KIB (1UL << 10)
#define MIB (1UL << 20)
#define GIB (1UL << 30)
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("peer.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

static const int BLOCKS = 1320, THREADS = 512;

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

__global__ void k_copy(int4 *d, const int4 *s, size_t n)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x)
		d[i] = s[i];
}

/* One byte of every stride: read (w 0) or incremented (w 1). */
__global__ void k_touch(char *p, size_t n, size_t stride, int w, int *out)
{
	size_t i = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) * stride;
	if (i >= n)
		return;
	if (w)
		p[i] += 1;
	else if (p[i] == 0x5b)
		out[0] = 1;
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

static int *sink[2];

/* Events on device d's stream s around f(); the stream's ms. */
template <class F> static float timed(int d, cudaStream_t s, F f)
{
	cudaEvent_t a, b;
	float ms;
	CK(cudaSetDevice(d));
	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	CK(cudaEventRecord(a, s));
	f();
	CK(cudaGetLastError());
	CK(cudaEventRecord(b, s));
	CK(cudaEventSynchronize(b));
	CK(cudaEventElapsedTime(&ms, a, b));
	CK(cudaEventDestroy(a));
	CK(cudaEventDestroy(b));
	return ms;
}

enum kind { READ, WRITE, RW, TOUCH_R, TOUCH_W };

/* A kernel of one kind on device d over n bytes at p, timed. */
static float kernel(int d, enum kind k, void *p, size_t n)
{
	return timed(d, 0, [&] {
		switch (k) {
		case READ:
			k_read<<<BLOCKS, THREADS>>>((const int4 *)p, n / 16, sink[d]);
			break;
		case WRITE:
			k_write<<<BLOCKS, THREADS>>>((int4 *)p, n / 16, 3);
			break;
		case RW:
			k_copy<<<BLOCKS, THREADS>>>((int4 *)p, (const int4 *)p, n / 16);
			break;
		case TOUCH_R:
		case TOUCH_W: {
			size_t t = n / (4 * KIB);
			k_touch<<<(t + 511) / 512, 512>>>((char *)p, n, 4 * KIB,
							  k == TOUCH_W, sink[d]);
			break;
		}
		}
	});
}

static void line(const char *c, const char *param, size_t n, double ms)
{
	printf("peer.%s %s: bytes=%zu ms=%.4f GBps=%.2f\n", c, param, n, ms,
	       ms > 0 ? n / ms / 1e6 : 0.0);
	fflush(stdout);
}

static void kline(const char *c, int rep, size_t n, double ms)
{
	char p[32];
	snprintf(p, sizeof p, "rep%d", rep);
	line(c, p, n, ms);
}

static double median(std::vector<double> v)
{
	std::sort(v.begin(), v.end());
	return v[v.size() / 2];
}

/* ------------------------------------------------------------ copies */

static void *dbuf[2][2];	/* two 256 MiB buffers on each device */
static cudaStream_t cs[2];

static void copy_sweep(const char *mode)
{
	for (int src = 0; src < 2; src++) {
		int dst = 1 - src;
		for (size_t n = 4 * KIB; n <= 256 * MIB; n *= 4) {
			size_t count = std::max((size_t)2, std::min((size_t)200, 512 * MIB / n));
			char p[96];
			/* warm */
			CK(cudaMemcpyPeerAsync(dbuf[dst][0], dst, dbuf[src][0], src, n, cs[src]));
			CK(cudaStreamSynchronize(cs[src]));
			for (int rep = 0; rep < 3; rep++) {
				float ms = timed(src, cs[src], [&] {
					for (size_t i = 0; i < count; i++)
						CK(cudaMemcpyPeerAsync(dbuf[dst][0], dst, dbuf[src][0],
								       src, n, cs[src]));
				});
				snprintf(p, sizeof p, "%s gpu%d->gpu%d %zuKiB x%zu rep%d", mode,
					 src, dst, n / KIB, count, rep);
				line("copy_bw", p, n, ms / count);
			}
			std::vector<double> ev, wall;
			for (int i = 0; i < 30; i++) {
				ev.push_back(timed(src, cs[src], [&] {
					CK(cudaMemcpyPeerAsync(dbuf[dst][0], dst, dbuf[src][0], src,
							       n, cs[src]));
				}));
				double t0 = now_ms();
				CK(cudaMemcpyPeer(dbuf[dst][0], dst, dbuf[src][0], src, n));
				wall.push_back(now_ms() - t0);
			}
			snprintf(p, sizeof p, "%s gpu%d->gpu%d %zuKiB median30 events", mode, src,
				 dst, n / KIB);
			line("copy_lat", p, n, median(ev));
			snprintf(p, sizeof p, "%s gpu%d->gpu%d %zuKiB median30 wall_sync", mode,
				 src, dst, n / KIB);
			line("copy_lat", p, n, median(wall));
		}
	}
	/* Both directions at once, 256 MiB each way, 4 times. */
	size_t n = 256 * MIB;
	for (int rep = 0; rep < 3; rep++) {
		CK(cudaSetDevice(0));
		CK(cudaDeviceSynchronize());
		CK(cudaSetDevice(1));
		CK(cudaDeviceSynchronize());
		double t0 = now_ms();
		for (int i = 0; i < 4; i++) {
			CK(cudaMemcpyPeerAsync(dbuf[1][1], 1, dbuf[0][0], 0, n, cs[0]));
			CK(cudaMemcpyPeerAsync(dbuf[0][1], 0, dbuf[1][0], 1, n, cs[1]));
		}
		CK(cudaStreamSynchronize(cs[0]));
		CK(cudaStreamSynchronize(cs[1]));
		char p[64];
		snprintf(p, sizeof p, "%s both_ways 256MiB x4 each rep%d wall", mode, rep);
		line("copy_bidir", p, 2 * 4 * n, now_ms() - t0);
	}
}

/* ------------------------------------------------------------ kernels on peer memory */

static void peer_kernels(void)
{
	size_t n = 256 * MIB;
	for (int d = 0; d < 2; d++) {
		int o = 1 - d;
		char c[64];
		for (int rep = 0; rep < 3; rep++) {
			snprintf(c, sizeof c, "kernel_read_local gpu%d", d);
			kline(c, rep, n, kernel(d, READ, dbuf[d][0], n));
			snprintf(c, sizeof c, "kernel_read_peer gpu%d<-gpu%d", d, o);
			kline(c, rep, n, kernel(d, READ, dbuf[o][0], n));
			snprintf(c, sizeof c, "kernel_write_peer gpu%d->gpu%d", d, o);
			kline(c, rep, n, kernel(d, WRITE, dbuf[o][0], n));
			snprintf(c, sizeof c, "kernel_rw_peer gpu%d<->gpu%d", d, o);
			kline(c, rep, n, kernel(d, RW, dbuf[o][0], n));
			snprintf(c, sizeof c, "kernel_touch4k_read_peer gpu%d<-gpu%d", d, o);
			kline(c, rep, n, kernel(d, TOUCH_R, dbuf[o][0], n));
			float ms = timed(d, 0, [&] {
				k_copy<<<BLOCKS, THREADS>>>((int4 *)dbuf[d][1],
							    (const int4 *)dbuf[o][0], n / 16);
			});
			snprintf(c, sizeof c, "kernel_copy_from_peer gpu%d<-gpu%d", d, o);
			kline(c, rep, n, ms);
			ms = timed(d, 0, [&] {
				k_copy<<<BLOCKS, THREADS>>>((int4 *)dbuf[o][1],
							    (const int4 *)dbuf[d][0], n / 16);
			});
			snprintf(c, sizeof c, "kernel_copy_to_peer gpu%d->gpu%d", d, o);
			kline(c, rep, n, ms);
		}
	}
}

/* ------------------------------------------------------------ managed */

static void adv(void *p, size_t n, enum cudaMemoryAdvise a, int d)
{
	CK(cudaMemAdvise(p, n, a, dev(d)));
}

static void reset_advice(void *p, size_t n)
{
	adv(p, n, cudaMemAdviseUnsetReadMostly, 0);
	adv(p, n, cudaMemAdviseUnsetPreferredLocation, 0);
	adv(p, n, cudaMemAdviseUnsetAccessedBy, 0);
	adv(p, n, cudaMemAdviseUnsetAccessedBy, 1);
}

static void to_dev(void *p, size_t n, int d)
{
	CK(cudaSetDevice(d));
	CK(cudaMemPrefetchAsync(p, n, dev(d), 0, 0));
	CK(cudaDeviceSynchronize());
}

static void remote_access(char *p, size_t n)
{
	/* No advice: gpu1's faults migrate gpu0's pages. */
	for (int rep = 0; rep < 2; rep++) {
		to_dev(p, n, 0);
		kline("managed_noadvice_gpu1_read_from_gpu0 first", rep, n, kernel(1, READ, p, n));
		kline("managed_noadvice_gpu1_read_from_gpu0 again", rep, n, kernel(1, READ, p, n));
		to_dev(p, n, 0);
		kline("managed_noadvice_gpu1_touch4k_from_gpu0", rep, n, kernel(1, TOUCH_W, p, n));
	}
	/* Preferred location gpu0 alone. */
	to_dev(p, n, 0);
	adv(p, n, cudaMemAdviseSetPreferredLocation, 0);
	kline("managed_pref0_gpu1_read first", 0, n, kernel(1, READ, p, n));
	kline("managed_pref0_gpu1_read again", 0, n, kernel(1, READ, p, n));
	kline("managed_pref0_gpu0_read after", 0, n, kernel(0, READ, p, n));
	reset_advice(p, n);
	/* Preferred location gpu0, accessed by gpu1: remote over NVLink. */
	to_dev(p, n, 0);
	adv(p, n, cudaMemAdviseSetPreferredLocation, 0);
	adv(p, n, cudaMemAdviseSetAccessedBy, 1);
	for (int rep = 0; rep < 3; rep++) {
		kline("managed_ab1_gpu1_read_remote", rep, n, kernel(1, READ, p, n));
		kline("managed_ab1_gpu1_write_remote", rep, n, kernel(1, WRITE, p, n));
		kline("managed_ab1_gpu1_rw_remote", rep, n, kernel(1, RW, p, n));
		kline("managed_ab1_gpu1_touch4k_remote", rep, n, kernel(1, TOUCH_W, p, n));
	}
	kline("managed_ab1_gpu0_read_local after", 0, n, kernel(0, READ, p, n));
	reset_advice(p, n);
}

static void read_mostly(char *p, size_t q)
{
	for (int rep = 0; rep < 2; rep++) {
		to_dev(p, q, 0);
		adv(p, q, cudaMemAdviseSetReadMostly, 0);
		kline("rm_gpu1_read first(duplicates)", rep, q, kernel(1, READ, p, q));
		kline("rm_gpu1_read again", rep, q, kernel(1, READ, p, q));
		kline("rm_gpu0_read after_dup", rep, q, kernel(0, READ, p, q));
		kline("rm_gpu0_touch4k_write invalidates", rep, q, kernel(0, TOUCH_W, p, q));
		kline("rm_gpu1_read after_invalidate", rep, q, kernel(1, READ, p, q));
		kline("rm_gpu0_read after_gpu1_reread", rep, q, kernel(0, READ, p, q));
		reset_advice(p, q);
	}
	/* Duplication by prefetch: gpu0's copy stays. */
	for (int rep = 0; rep < 2; rep++) {
		to_dev(p, q, 0);
		adv(p, q, cudaMemAdviseSetReadMostly, 0);
		CK(cudaSetDevice(1));
		float ms = timed(1, 0, [&] { CK(cudaMemPrefetchAsync(p, q, dev(1), 0, 0)); });
		kline("rm_prefetch_gpu0_to_gpu1(duplicates)", rep, q, ms);
		kline("rm_gpu1_read after_prefetch", rep, q, kernel(1, READ, p, q));
		kline("rm_gpu0_read after_prefetch", rep, q, kernel(0, READ, p, q));
		kline("rm_gpu1_touch4k_write invalidates", rep, q, kernel(1, TOUCH_W, p, q));
		kline("rm_gpu0_read after_invalidate", rep, q, kernel(0, READ, p, q));
		reset_advice(p, q);
	}
}

static void ping_pong(char *p, size_t m)
{
	to_dev(p, m, 0);
	for (int round = 0; round < 16; round++) {
		int d = 1 - round % 2;
		char c[64];
		snprintf(c, sizeof c, "pingpong_write gpu%d round", d);
		kline(c, round, m, kernel(d, WRITE, p, m));
	}
	to_dev(p, m, 0);
	for (int round = 0; round < 8; round++) {
		int d = 1 - round % 2;
		char c[64];
		snprintf(c, sizeof c, "pingpong_touch4k gpu%d round", d);
		kline(c, round, m, kernel(d, TOUCH_W, p, m));
	}
}

static void prefetch(char *p, size_t n)
{
	CK(cudaSetDevice(0));
	CK(cudaMemPrefetchAsync(p, n, dev(0), 0, 0));
	kernel(0, WRITE, p, n);	/* every page populated on gpu0 */
	for (size_t s = 2 * MIB; s <= n; s *= 4) {
		size_t sz = std::min(s, n);
		for (int rep = 0; rep < 3; rep++) {
			for (int src = 0; src < 2; src++) {
				int dst = 1 - src;
				char c[96];
				to_dev(p, sz, src);
				double t0 = now_ms();
				float ms = timed(dst, cs[dst], [&] {
					CK(cudaMemPrefetchAsync(p, sz, dev(dst), 0, cs[dst]));
				});
				double wall = now_ms() - t0;
				snprintf(c, sizeof c, "prefetch gpu%d->gpu%d %zuMiB rep%d events",
					 src, dst, sz / MIB, rep);
				line(c, "", sz, ms);
				snprintf(c, sizeof c, "prefetch gpu%d->gpu%d %zuMiB rep%d wall",
					 src, dst, sz / MIB, rep);
				line(c, "", sz, wall);
				float again = timed(dst, cs[dst], [&] {
					CK(cudaMemPrefetchAsync(p, sz, dev(dst), 0, cs[dst]));
				});
				snprintf(c, sizeof c, "prefetch_resident gpu%d %zuMiB rep%d events",
					 dst, sz / MIB, rep);
				line(c, "", sz, again);
			}
		}
		if (s == 512 * MIB)
			s = n / 4;	/* 2, 8, 32, 128, 512 MiB, then 1 GiB */
	}
}

int main(void)
{
	int ndev = 0, ok01 = 0, ok10 = 0, v;
	CK(cudaGetDeviceCount(&ndev));
	printf("peer.devices: %d\n", ndev);
	if (ndev < 2) {
		printf("peer.skip: needs two GPUs\n");
		return 0;
	}
	for (int d = 0; d < 2; d++) {
		cudaDeviceProp pr;
		CK(cudaGetDeviceProperties(&pr, d));
		printf("peer.gpu%d: %s sms=%d mem=%zu\n", d, pr.name, pr.multiProcessorCount,
		       pr.totalGlobalMem);
	}
	CK(cudaDeviceCanAccessPeer(&ok01, 0, 1));
	CK(cudaDeviceCanAccessPeer(&ok10, 1, 0));
	printf("peer.can_access: 0->1 %d 1->0 %d\n", ok01, ok10);
	CK(cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrPerformanceRank, 0, 1));
	printf("peer.attr.performance_rank: %d\n", v);
	CK(cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrNativeAtomicSupported, 0, 1));
	printf("peer.attr.native_atomic: %d\n", v);
	CK(cudaDeviceGetAttribute(&v, cudaDevAttrConcurrentManagedAccess, 0));
	printf("peer.attr.concurrent_managed: %d\n", v);
	for (int d = 0; d < 2; d++) {
		CK(cudaSetDevice(d));
		CK(cudaStreamCreateWithFlags(&cs[d], cudaStreamNonBlocking));
		CK(cudaMalloc(&sink[d], sizeof(int)));
		for (int i = 0; i < 2; i++) {
			CK(cudaMalloc(&dbuf[d][i], 256 * MIB));
			CK(cudaMemset(dbuf[d][i], 1, 256 * MIB));
		}
	}
	CK(cudaDeviceSynchronize());
	double t0 = now_ms();
	copy_sweep("noaccess");
	for (int d = 0; d < 2; d++) {
		CK(cudaSetDevice(d));
		CK(cudaDeviceEnablePeerAccess(1 - d, 0));
	}
	copy_sweep("access");
	peer_kernels();
	printf("peer.section copies+kernels: wall_ms=%.0f\n", now_ms() - t0);

	char *p;
	CK(cudaSetDevice(0));
	CK(cudaMallocManaged(&p, GIB));
	CK(cudaMemset(p, 0, GIB));
	CK(cudaDeviceSynchronize());
	t0 = now_ms();
	remote_access(p, GIB);
	read_mostly(p, 256 * MIB);
	ping_pong(p, 64 * MIB);
	printf("peer.section managed: wall_ms=%.0f\n", now_ms() - t0);
	t0 = now_ms();
	prefetch(p, GIB);
	printf("peer.section prefetch: wall_ms=%.0f\n", now_ms() - t0);
	CK(cudaFree(p));
	for (int d = 0; d < 2; d++) {
		CK(cudaSetDevice(d));
		for (int i = 0; i < 2; i++)
			CK(cudaFree(dbuf[d][i]));
		CK(cudaFree(sink[d]));
		CK(cudaStreamDestroy(cs[d]));
	}
	printf("peer.done: ok\n");
	return 0;
}
