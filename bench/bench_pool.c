/*
 * bench_pool.c - the stream-ordered allocator: an allocate/free pair on one
 * stream (the real driver's figure beside it), an attribute read, and the
 * throughput of allocation with eight streams on two threads, and on one
 * thread, so that a reader sees what the second thread adds.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cuda.h"
#include "bench.h"

struct pool_ctx {
	CUcontext ctx;
	CUstream s;
	CUmemoryPool pool;
};

static int pool_setup(void **out)
{
	struct pool_ctx *c = calloc(1, sizeof *c);
	CUdevice dev;

	if (!c || cuInit(0) || cuDeviceGet(&dev, 0) ||
	    cuDevicePrimaryCtxRetain(&c->ctx, dev) || cuCtxSetCurrent(c->ctx) ||
	    cuStreamCreate(&c->s, CU_STREAM_NON_BLOCKING) ||
	    cuDeviceGetMemPool(&c->pool, dev)) {
		free(c);
		return 1;
	}
	*out = c;
	return 0;
}

static void pool_teardown(void *arg)
{
	struct pool_ctx *c = arg;

	cuStreamSynchronize(c->s);
	cuStreamDestroy(c->s);
	free(c);
}

static int alloc_free_1mib(void *arg)
{
	struct pool_ctx *c = arg;
	CUdeviceptr d;

	if (cuMemAllocAsync(&d, 1 << 20, c->s))
		return 1;
	return cuMemFreeAsync(d, c->s) != CUDA_SUCCESS;
}

static int get_used(void *arg)
{
	struct pool_ctx *c = arg;
	cuuint64_t v;

	return cuMemPoolGetAttribute(c->pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT,
				     &v) != CUDA_SUCCESS;
}

/* Throughput: eight streams, on two threads (four each) or on one, each
 * stream keeping eight blocks of mixed sizes live and freeing them in
 * turn. */
#define TP_MAX_THREADS 2
#define TP_STREAMS_ALL 8
#define TP_LIVE 8
#define TP_ROUNDS 20000

static CUcontext tp_ctx;

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* arg: how many of the eight streams this thread allocates on. */
static void *tp_worker(void *arg)
{
	int n = (int)(long)arg;
	CUstream s[TP_STREAMS_ALL];
	CUdeviceptr d[TP_STREAMS_ALL][TP_LIVE] = { { 0 } };
	long fails = 0;

	cuCtxSetCurrent(tp_ctx);
	for (int i = 0; i < n; i++)
		cuStreamCreate(&s[i], CU_STREAM_NON_BLOCKING);
	for (int r = 0; r < TP_ROUNDS; r++) {
		int k = r % TP_LIVE;
		for (int i = 0; i < n; i++) {
			if (d[i][k])
				fails += cuMemFreeAsync(d[i][k], s[i]) != 0;
			fails += cuMemAllocAsync(&d[i][k],
				(size_t)(k + 1) << 16, s[i]) != 0;
		}
	}
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < TP_LIVE; k++)
			cuMemFreeAsync(d[i][k], s[i]);
		cuStreamSynchronize(s[i]);
		cuStreamDestroy(s[i]);
	}
	return (void *)fails;
}

static int throughput(int threads, char *value, size_t len, char *unit,
		      size_t ulen)
{
	pthread_t t[TP_MAX_THREADS];
	void *fails;
	long bad = 0;
	CUdevice dev;
	double t0, dt;

	if (cuInit(0) || cuDeviceGet(&dev, 0) ||
	    cuDevicePrimaryCtxRetain(&tp_ctx, dev))
		return 1;
	t0 = now_s();
	for (int i = 0; i < threads; i++)
		if (pthread_create(&t[i], NULL, tp_worker,
				   (void *)(long)(TP_STREAMS_ALL / threads)))
			return 1;
	for (int i = 0; i < threads; i++) {
		pthread_join(t[i], &fails);
		bad += (long)fails;
	}
	dt = now_s() - t0;
	if (bad)
		return 1;
	snprintf(value, len, "%.2f",
		 (double)TP_STREAMS_ALL * TP_ROUNDS / dt / 1e6);
	snprintf(unit, ulen, "M allocs/s");
	return 0;
}

static int throughput_2(char *value, size_t len, char *unit, size_t ulen)
{
	return throughput(2, value, len, unit, ulen);
}

static int throughput_1(char *value, size_t len, char *unit, size_t ulen)
{
	return throughput(1, value, len, unit, ulen);
}

const struct bench_row bench_pool_rows[] = {
	{ .name = "cuMemAllocAsync+cuMemFreeAsync 1MiB, one stream",
	  .real_ns = 609, .setup = pool_setup, .op = alloc_free_1mib,
	  .teardown = pool_teardown },
	{ .name = "cuMemPoolGetAttribute used_current", .real_ns = 55,
	  .setup = pool_setup, .op = get_used, .teardown = pool_teardown },
	{ .name = "cuMemAllocAsync throughput, 8 streams on 2 threads",
	  .report = throughput_2 },
	{ .name = "cuMemAllocAsync throughput, 8 streams on 1 thread",
	  .report = throughput_1 },
	{ 0 },
};
