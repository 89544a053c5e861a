/*
 * bench_batch.c - the CUDA 12.8/13 calls: a prefetch batch of 64 ranges
 * already where it sends them (the call's own cost, and with the sync),
 * and an allocate/free pair from a managed pool (cuGetProcAddress of one
 * name is bench_core.c's). The real driver's figures are one H200's (probes/families.c,
 * probes/results/families.txt, families.latency.*).
 */
#include <stdlib.h>

#include "cuda.h"
#include "bench.h"

enum { NR = 64, RANGE = 64 << 10 };

struct batch_ctx {
	CUcontext ctx;
	CUstream s;
	CUdeviceptr m, ds[NR];
	size_t sz[NR], idx[1];
	CUmemLocation loc;
	CUmemoryPool mpool;
};

static int ctx_setup(struct batch_ctx **out)
{
	struct batch_ctx *c = calloc(1, sizeof *c);
	CUdevice dev;

	if (!c || cuInit(0) || cuDeviceGet(&dev, 0) ||
	    cuDevicePrimaryCtxRetain(&c->ctx, dev) || cuCtxSetCurrent(c->ctx) ||
	    cuStreamCreate(&c->s, CU_STREAM_NON_BLOCKING)) {
		free(c);
		return 1;
	}
	c->loc = (CUmemLocation){ CU_MEM_LOCATION_TYPE_DEVICE, 0 };
	*out = c;
	return 0;
}

static void batch_teardown(void *arg)
{
	struct batch_ctx *c = arg;

	cuStreamSynchronize(c->s);
	if (c->m)
		cuMemFree(c->m);
	if (c->mpool)
		cuMemPoolDestroy(c->mpool);
	cuStreamDestroy(c->s);
	free(c);
}

/* 64 ranges of 64 KiB of one managed allocation, resident on gpu0. */
static int prefetch_setup(void **out)
{
	struct batch_ctx *c;

	if (ctx_setup(&c))
		return 1;
	if (cuMemAllocManaged(&c->m, NR * RANGE, CU_MEM_ATTACH_GLOBAL)) {
		batch_teardown(c);
		return 1;
	}
	for (int i = 0; i < NR; i++) {
		c->ds[i] = c->m + (CUdeviceptr)i * RANGE;
		c->sz[i] = RANGE;
	}
	if (cuMemPrefetchBatchAsync(c->ds, c->sz, NR, &c->loc, c->idx, 1, 0,
				    c->s) || cuStreamSynchronize(c->s)) {
		batch_teardown(c);
		return 1;
	}
	*out = c;
	return 0;
}

static int prefetch_64(void *arg)
{
	struct batch_ctx *c = arg;

	return cuMemPrefetchBatchAsync(c->ds, c->sz, NR, &c->loc, c->idx, 1, 0,
				       c->s) != CUDA_SUCCESS;
}

static int prefetch_64_sync(void *arg)
{
	struct batch_ctx *c = arg;

	return prefetch_64(arg) || cuStreamSynchronize(c->s) != CUDA_SUCCESS;
}

static int mpool_setup(void **out)
{
	CUmemPoolProps props = {
		.allocType = CU_MEM_ALLOCATION_TYPE_MANAGED,
		.location = { CU_MEM_LOCATION_TYPE_DEVICE, 0 },
	};
	struct batch_ctx *c;

	if (ctx_setup(&c))
		return 1;
	if (cuMemPoolCreate(&c->mpool, &props)) {
		batch_teardown(c);
		return 1;
	}
	*out = c;
	return 0;
}

static int mpool_alloc_free(void *arg)
{
	struct batch_ctx *c = arg;
	CUdeviceptr d;

	if (cuMemAllocFromPoolAsync(&d, 1 << 20, c->mpool, c->s))
		return 1;
	return cuMemFreeAsync(d, c->s) != CUDA_SUCCESS;
}

const struct bench_row bench_batch_rows[] = {
	{ .name = "cuMemPrefetchBatchAsync 64x64KiB, resident",
	  .real_ns = 1229514, .setup = prefetch_setup, .op = prefetch_64,
	  .teardown = batch_teardown, .reps = 200 },
	{ .name = "cuMemPrefetchBatchAsync 64x64KiB, resident, +sync",
	  .real_ns = 1296744, .setup = prefetch_setup, .op = prefetch_64_sync,
	  .teardown = batch_teardown, .reps = 200 },
	{ .name = "cuMemAllocFromPoolAsync+cuMemFreeAsync 1MiB, managed pool",
	  .real_ns = 1123, .setup = mpool_setup, .op = mpool_alloc_free,
	  .teardown = batch_teardown },
	{ 0 },
};
