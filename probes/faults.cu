// faults.cu - the managed-memory timing of kernels on H200s: GPU faults
// from CPU-resident data at two touch strides and streaming, resident and
// remote streams (host and NVLink peer), a CPU touching GPU-resident pages,
// and writes to read-mostly data. Complements
// shared/reference/real-driver-migration.txt where its figures were single
// or spread. Each line: faults.<case> repN: ms=... GBps=...
// Build: nvcc -O2 -arch=sm_90 -o faults faults.cu -lcuda
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GIB (1UL << 30)
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("faults.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void touch(char *p, size_t n, size_t stride)
{
	size_t i = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) * stride;
	if (i < n)
		p[i] += 1;
}

__global__ void stream(int4 *p, size_t n)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x) {
		int4 v = p[i];
		v.x += 1;
		p[i] = v;
	}
}

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static struct cudaMemLocation where(int d)
{
	struct cudaMemLocation l;
	l.type = d == cudaCpuDeviceId ? cudaMemLocationTypeHost
				      : cudaMemLocationTypeDevice;
	l.id = d == cudaCpuDeviceId ? 0 : d;
	return l;
}

static void adv(void *p, size_t n, enum cudaMemoryAdvise a, int d)
{
	cudaError_t e = cudaMemAdvise(p, n, a, where(d));
	if (e != cudaSuccess) {
		printf("faults.error: advise %d on %d: %s\n", (int)a, d,
		       cudaGetErrorString(e));
		exit(1);
	}
}

static int ndev;

/* Back on the host, every page populated there. */
static void to_host(char *p, size_t n)
{
	CK(cudaMemPrefetchAsync(p, n, where(cudaCpuDeviceId), 0, 0));
	CK(cudaDeviceSynchronize());
	for (size_t i = 0; i < n; i += 4096)
		p[i] += 1;
}

static void to_dev(char *p, size_t n, int d)
{
	CK(cudaMemPrefetchAsync(p, n, where(d), 0, 0));
	CK(cudaDeviceSynchronize());
}

/* Times one kernel on device d with events. */
static double run(int d, int kind, char *p, size_t n, size_t stride)
{
	cudaEvent_t a, b;
	float ms;

	CK(cudaSetDevice(d));
	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	CK(cudaEventRecord(a, 0));
	if (kind == 0) {
		size_t t = n / stride;
		touch<<<(t + 511) / 512, 512>>>(p, n, stride);
	} else {
		stream<<<1320, 512>>>((int4 *)p, n / 16);
	}
	CK(cudaGetLastError());
	CK(cudaEventRecord(b, 0));
	CK(cudaEventSynchronize(b));
	CK(cudaEventElapsedTime(&ms, a, b));
	CK(cudaEventDestroy(a));
	CK(cudaEventDestroy(b));
	CK(cudaSetDevice(0));
	return ms;
}

static void line(const char *c, int rep, size_t n, double ms)
{
	printf("faults.%s rep%d: bytes=%zu ms=%.2f GBps=%.2f\n", c, rep, n, ms,
	       n / ms / 1e6);
	fflush(stdout);
}

static void reset_advice(char *p, size_t n)
{
	adv(p, n, cudaMemAdviseUnsetReadMostly, 0);
	adv(p, n, cudaMemAdviseUnsetPreferredLocation, 0);
	adv(p, n, cudaMemAdviseUnsetAccessedBy, 0);
	if (ndev > 1)
		adv(p, n, cudaMemAdviseUnsetAccessedBy, 1);
}

int main(void)
{
	size_t n = GIB, q = GIB / 4;
	char *p;
	int rep;

	CK(cudaGetDeviceCount(&ndev));
	printf("faults.devices: %d\n", ndev);
	CK(cudaMallocManaged(&p, n));
	memset(p, 0, n);
	for (rep = 0; rep < 3; rep++) {
		to_host(p, n);
		line("gpu_touch_4k_from_cpu", rep, n, run(0, 0, p, n, 4096));
		to_host(p, n);
		line("gpu_touch_64k_from_cpu", rep, n, run(0, 0, p, n, 65536));
		to_host(p, n);
		line("gpu_stream_from_cpu", rep, n, run(0, 1, p, n, 0));
		to_dev(p, n, 0);
		line("gpu_stream_resident", rep, n, run(0, 1, p, n, 0));
		to_dev(p, n, 0);
		line("gpu_touch_4k_resident", rep, n, run(0, 0, p, n, 4096));
	}
	for (rep = 3; rep < 6; rep++) {
		to_host(p, n);
		line("gpu_stream_from_cpu", rep, n, run(0, 1, p, n, 0));
	}
	/* Remote over the host link: preferred location CPU, accessed by
	 * gpu0. */
	to_host(p, n);
	adv(p, n, cudaMemAdviseSetPreferredLocation, cudaCpuDeviceId);
	adv(p, n, cudaMemAdviseSetAccessedBy, 0);
	for (rep = 0; rep < 2; rep++) {
		line("gpu_stream_remote_pref_cpu", rep, n, run(0, 1, p, n, 0));
		line("gpu_touch_4k_remote_pref_cpu", rep, n, run(0, 0, p, n, 4096));
	}
	/* Preferred location CPU without accessed-by: the driver maps
	 * remotely rather than migrate away from the preferred location. */
	adv(p, n, cudaMemAdviseUnsetAccessedBy, 0);
	to_host(p, n);
	line("gpu_stream_pref_cpu_no_ab", 0, n, run(0, 1, p, n, 0));
	reset_advice(p, n);
	/* A CPU touching every 4 KiB of GPU-resident data. */
	for (rep = 0; rep < 2; rep++) {
		double t0;
		to_dev(p, n, 0);
		t0 = now_ms();
		for (size_t i = 0; i < n; i += 4096)
			p[i] += 1;
		line("cpu_touch_4k_from_gpu", rep, n, now_ms() - t0);
	}
	if (ndev > 1) {
		int ok = 0;
		CK(cudaDeviceCanAccessPeer(&ok, 1, 0));
		printf("faults.peer_access: %d\n", ok);
		for (rep = 0; rep < 2; rep++) {
			to_dev(p, n, 0);
			line("gpu1_stream_from_gpu0", rep, n, run(1, 1, p, n, 0));
		}
		/* Remote over NVLink: preferred location gpu0, accessed by
		 * gpu1. */
		to_dev(p, n, 0);
		adv(p, n, cudaMemAdviseSetPreferredLocation, 0);
		adv(p, n, cudaMemAdviseSetAccessedBy, 1);
		for (rep = 0; rep < 2; rep++)
			line("gpu1_stream_remote_gpu0", rep, n, run(1, 1, p, n, 0));
		reset_advice(p, n);
	}
	/* Read-mostly, written: a quarter GiB resident on gpu0, 4 KiB
	 * touches (one write per page), then streams; then gpu1 in turn. */
	to_dev(p, q, 0);
	adv(p, q, cudaMemAdviseSetReadMostly, 0);
	line("rm_touch_4k_gpu0_first", 0, q, run(0, 0, p, q, 4096));
	line("rm_touch_4k_gpu0_again", 0, q, run(0, 0, p, q, 4096));
	reset_advice(p, q);
	to_dev(p, q, 0);
	adv(p, q, cudaMemAdviseSetReadMostly, 0);
	line("rm_stream_gpu0_first", 0, q, run(0, 1, p, q, 0));
	line("rm_stream_gpu0_again", 0, q, run(0, 1, p, q, 0));
	reset_advice(p, q);
	/* Read-mostly duplicated on the host and gpu0, then gpu0 writes. */
	to_host(p, q);
	adv(p, q, cudaMemAdviseSetReadMostly, 0);
	to_dev(p, q, 0);
	line("rm_dup_host_stream_gpu0", 0, q, run(0, 1, p, q, 0));
	reset_advice(p, q);
	if (ndev > 1) {
		to_dev(p, q, 0);
		adv(p, q, cudaMemAdviseSetReadMostly, 0);
		line("rm_stream_gpu0_first", 1, q, run(0, 1, p, q, 0));
		line("rm_stream_gpu1", 0, q, run(1, 1, p, q, 0));
		reset_advice(p, q);
	}
	CK(cudaFree(p));
	printf("faults.done: ok\n");
	return 0;
}
