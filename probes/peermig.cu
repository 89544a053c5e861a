// peermig.cu - what a move between two GPUs costs by its size, and what
// decides a small peer copy's time, timed on two GPUs of one host.
//
//  copies   100 back-to-back peer copies of 4 KiB, 64 KiB and 1 MiB (peer
//           access enabled both ways), timed by events on the stream that
//           carries them: the legacy stream with the source or the
//           destination current, a non-blocking stream of either device,
//           and cudaMemcpyAsync's default kind beside cudaMemcpyPeerAsync.
//           A lone copy the same ways (the median of 30).
//  migrate  managed memory of 2 MiB to 1 GiB resident on gpu0 (a prefetch)
//           read whole by a kernel on gpu1 with no advice, and touched a
//           byte a 4 KiB page; the same from the host (a prefetch to the
//           CPU): fault migration by size, each way.
//  remote   the same sizes preferring gpu0, read by gpu1: the first pass
//           (its remote mappings made by faults) and the second.
//
// Each line: peermig.<case> <parameters>: bytes=... ms=... (ms of one
// operation). It allocates at most 1 GiB of managed memory and 2 MiB on
// each GPU.
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o peermig peermig.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <vector>

#define KIB (1UL << 10)
#define MIB (1UL << 20)
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("peermig.error: %s line %d: %s\n", #x, __LINE__, \
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

/* One byte of every 4 KiB page incremented. */
__global__ void k_touch(char *p, size_t n)
{
	size_t i = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) * 4096;
	if (i < n)
		p[i] += 1;
}

static int *sink[2];

static struct cudaMemLocation where(int d)
{
	struct cudaMemLocation l;
	l.type = d < 0 ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
	l.id = d < 0 ? 0 : d;
	return l;
}

static void line(const char *c, const char *param, size_t n, double ms)
{
	printf("peermig.%s %s: bytes=%zu ms=%.4f\n", c, param, n, ms);
	fflush(stdout);
}

static double median(std::vector<double> v)
{
	std::sort(v.begin(), v.end());
	return v[v.size() / 2];
}

/* ------------------------------------------------------------ copies */

enum how { LEGACY_SRC, LEGACY_DST, OWN_SRC, OWN_DST };
static const char *const how_name[] = { "legacy_src_current", "legacy_dst_current",
					 "nonblocking_src", "nonblocking_dst" };
static void *dbuf[2];
static cudaStream_t own[2];

/* count copies of n bytes from gpu src to the other, one way and call,
 * timed by events on the stream that carries them: ms a copy. */
static double copies(int src, enum how h, bool peer_call, size_t n, int count)
{
	int dst = 1 - src;
	int cur = h == LEGACY_SRC || h == OWN_SRC ? src : dst;
	cudaStream_t s = h == OWN_SRC ? own[src] : h == OWN_DST ? own[dst] : 0;
	cudaEvent_t a, b;
	float ms;

	CK(cudaSetDevice(cur));
	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	CK(cudaEventRecord(a, s));
	for (int i = 0; i < count; i++)
		if (peer_call)
			CK(cudaMemcpyPeerAsync(dbuf[dst], dst, dbuf[src], src, n, s));
		else
			CK(cudaMemcpyAsync(dbuf[dst], dbuf[src], n, cudaMemcpyDefault, s));
	CK(cudaEventRecord(b, s));
	CK(cudaEventSynchronize(b));
	CK(cudaEventElapsedTime(&ms, a, b));
	CK(cudaEventDestroy(a));
	CK(cudaEventDestroy(b));
	return ms / count;
}

static void copy_cases(void)
{
	for (int d = 0; d < 2; d++) {
		CK(cudaSetDevice(d));
		CK(cudaMalloc(&dbuf[d], 1 * MIB));
		CK(cudaMemset(dbuf[d], 1, 1 * MIB));
		CK(cudaStreamCreateWithFlags(&own[d], cudaStreamNonBlocking));
		CK(cudaDeviceSynchronize());
	}
	for (int src = 0; src < 2; src++)
		for (int h = LEGACY_SRC; h <= OWN_DST; h++)
			for (int call = 0; call < 2; call++)
				for (size_t n = 4 * KIB; n <= 1 * MIB; n *= 16) {
					char p[128];
					std::vector<double> one;
					copies(src, (enum how)h, call, n, 10);	/* warm */
					double b2b = copies(src, (enum how)h, call, n, 100);
					for (int i = 0; i < 30; i++)
						one.push_back(copies(src, (enum how)h, call, n, 1));
					snprintf(p, sizeof p, "gpu%d->gpu%d %s %s %zuKiB", src,
						 1 - src, how_name[h], call ? "peer" : "default",
						 n / KIB);
					line("copy_b2b", p, n, b2b);
					line("copy_one", p, n, median(one));
				}
	for (int d = 0; d < 2; d++) {
		CK(cudaSetDevice(d));
		CK(cudaDeviceSynchronize());
		CK(cudaFree(dbuf[d]));
		CK(cudaStreamDestroy(own[d]));
	}
	CK(cudaSetDevice(0));
}

/* ---------------------------------------------------------- managed */

static void to(char *p, size_t n, int d)
{
	CK(cudaMemPrefetchAsync(p, n, where(d), 0, 0));
	CK(cudaDeviceSynchronize());
}

/* A read (touch 0) or a touch a page (touch 1) of n bytes on device d,
 * timed by events on its legacy stream. */
static double kernel(int d, bool touch, char *p, size_t n)
{
	cudaEvent_t a, b;
	float ms;

	CK(cudaSetDevice(d));
	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	CK(cudaEventRecord(a, 0));
	if (touch)
		k_touch<<<(unsigned)((n / 4096 + 511) / 512), 512>>>(p, n);
	else
		k_read<<<BLOCKS, THREADS>>>((const int4 *)p, n / 16, sink[d]);
	CK(cudaGetLastError());
	CK(cudaEventRecord(b, 0));
	CK(cudaEventSynchronize(b));
	CK(cudaEventElapsedTime(&ms, a, b));
	CK(cudaEventDestroy(a));
	CK(cudaEventDestroy(b));
	return ms;
}

static void advise(char *p, size_t n, enum cudaMemoryAdvise a, int d)
{
	CK(cudaMemAdvise(p, n, a, where(d)));
}

static void managed_cases(char *p)
{
	static const size_t mib[] = { 2, 8, 32, 128, 512, 1024 };
	for (size_t i = 0; i < sizeof mib / sizeof mib[0]; i++) {
		size_t n = mib[i] * MIB;
		char q[64];
		for (int rep = 0; rep < 2; rep++) {
			snprintf(q, sizeof q, "%zuMiB rep%d", n / MIB, rep);
			to(p, n, 0);
			line("gpu1_read_from_gpu0", q, n, kernel(1, false, p, n));
			to(p, n, 0);
			line("gpu1_touch4k_from_gpu0", q, n, kernel(1, true, p, n));
			to(p, n, -1);
			line("gpu1_read_from_host", q, n, kernel(1, false, p, n));
			to(p, n, -1);
			line("gpu1_touch4k_from_host", q, n, kernel(1, true, p, n));
		}
		snprintf(q, sizeof q, "%zuMiB rep0", n / MIB);
		to(p, n, 0);
		advise(p, n, cudaMemAdviseSetPreferredLocation, 0);
		line("pref0_gpu1_read_first", q, n, kernel(1, false, p, n));
		line("pref0_gpu1_read_again", q, n, kernel(1, false, p, n));
		advise(p, n, cudaMemAdviseUnsetPreferredLocation, 0);
	}
}

int main(int argc, char **argv)
{
	int ndev = 0, ok = 0;
	const char *only = argc > 1 ? argv[1] : "";
	char *p;

	CK(cudaGetDeviceCount(&ndev));
	printf("peermig.devices: %d\n", ndev);
	if (ndev < 2) {
		printf("peermig.skip: needs two GPUs\n");
		return 0;
	}
	CK(cudaDeviceCanAccessPeer(&ok, 0, 1));
	printf("peermig.can_access: %d\n", ok);
	for (int d = 0; d < 2; d++) {
		CK(cudaSetDevice(d));
		CK(cudaMalloc(&sink[d], sizeof(int)));
		CK(cudaDeviceEnablePeerAccess(1 - d, 0));
	}
	if (!*only || !strcmp(only, "copies"))
		copy_cases();
	if (!*only || !strcmp(only, "migrate")) {
		CK(cudaMallocManaged(&p, 1024 * MIB));
		memset(p, 1, 1024 * MIB);
		managed_cases(p);
		CK(cudaFree(p));
	}
	printf("peermig.done: ok\n");
	return 0;
}
