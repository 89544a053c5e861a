/*
 * bench_memory.c - the allocation calls and a pointer lookup, each with one
 * live allocation and with 100,000 (the address map's depth), beside the
 * real driver's medians from shared/reference/real-driver-latency.txt.
 */
#include <stdlib.h>

#include "cuda.h"
#include "bench.h"

#define MIB (1UL << 20)
#define MANY 100000

struct mem_ctx {
	CUcontext ctx;
	CUdeviceptr probe;        /* the pointer cuPointerGetAttribute asks */
	CUdeviceptr *live;        /* the 100,000, or NULL */
	size_t nlive;
};

static int setup_n(void **out, size_t n)
{
	struct mem_ctx *c = calloc(1, sizeof *c);
	CUdevice dev;

	if (!c || cuInit(0) || cuDeviceGet(&dev, 0) ||
	    cuDevicePrimaryCtxRetain(&c->ctx, dev) || cuCtxSetCurrent(c->ctx))
		goto fail;
	if (n && !(c->live = calloc(n, sizeof *c->live)))
		goto fail;
	for (; c->nlive < n; c->nlive++)
		if (cuMemAlloc(&c->live[c->nlive], 256))
			goto fail;
	/* Ask about one in the middle of the map, or a lone one. */
	if (n)
		c->probe = c->live[n / 2] + 100;
	else if (cuMemAlloc(&c->probe, 2 * MIB))
		goto fail;
	*out = c;
	return 0;
fail:
	if (c) {
		while (c->nlive)
			cuMemFree(c->live[--c->nlive]);
		free(c->live);
		free(c);
	}
	return 1;
}

static int setup_one(void **out)
{
	return setup_n(out, 0);
}

static int setup_many(void **out)
{
	return setup_n(out, MANY);
}

static void teardown(void *arg)
{
	struct mem_ctx *c = arg;

	if (c->live) {
		while (c->nlive)
			cuMemFree(c->live[--c->nlive]);
		free(c->live);
	} else {
		cuMemFree(c->probe);
	}
	free(c);
}

static int ptr_attr(void *arg)
{
	struct mem_ctx *c = arg;
	unsigned int type;

	return cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
				     c->probe) != CUDA_SUCCESS;
}

static int alloc_free(void *arg)
{
	CUdeviceptr d;

	(void)arg;
	if (cuMemAlloc(&d, 2 * MIB))
		return 1;
	return cuMemFree(d) != CUDA_SUCCESS;
}

static int host_alloc_free(void *arg)
{
	void *p;

	(void)arg;
	if (cuMemHostAlloc(&p, 64 * 1024, 0))
		return 1;
	return cuMemFreeHost(p) != CUDA_SUCCESS;
}

static int managed_alloc_free(void *arg)
{
	CUdeviceptr d;

	(void)arg;
	if (cuMemAllocManaged(&d, 2 * MIB, CU_MEM_ATTACH_GLOBAL))
		return 1;
	return cuMemFree(d) != CUDA_SUCCESS;
}

const struct bench_row bench_memory_rows[] = {
	{ "cuPointerGetAttribute memtype @1 live", 92,
	  setup_one, ptr_attr, teardown, 0, NULL },
	{ "cuPointerGetAttribute memtype @100k live", 92,
	  setup_many, ptr_attr, teardown, 0, NULL },
	{ "cuMemAlloc+Free 2MiB @1 live", 69312,
	  setup_one, alloc_free, teardown, 0, NULL },
	{ "cuMemAlloc+Free 2MiB @100k live", 69312,
	  setup_many, alloc_free, teardown, 0, NULL },
	{ "cuMemHostAlloc+FreeHost 64KiB @1 live", 666923,
	  setup_one, host_alloc_free, teardown, 0, NULL },
	{ "cuMemHostAlloc+FreeHost 64KiB @100k live", 666923,
	  setup_many, host_alloc_free, teardown, 0, NULL },
	{ "cuMemAllocManaged+Free 2MiB @1 live", 11085,
	  setup_one, managed_alloc_free, teardown, 0, NULL },
	{ "cuMemAllocManaged+Free 2MiB @100k live", 11085,
	  setup_many, managed_alloc_free, teardown, 0, NULL },
	{ 0 },
};
