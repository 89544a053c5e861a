/*
 * bench_memory.c - the allocation calls and a pointer lookup, each with one
 * live allocation and with 100,000 (the address map's depth), beside the
 * real driver's medians from shared/reference/real-driver-latency.txt.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

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

/* ------------------------------------------------ small allocations */
/* 4 KiB allocations are packed into shared 2 MiB blocks (model/devheap.c),
 * as the real driver packs them; its 4 KiB pair took 102344 ns
 * (probes/results/latency.txt). */

static int alloc_free_4k(void *arg)
{
	CUdeviceptr d;

	(void)arg;
	if (cuMemAlloc(&d, 4096))
		return 1;
	return cuMemFree(d) != CUDA_SUCCESS;
}

#define MILLION 1000000

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static long maps_now(void)
{
	FILE *f = fopen("/proc/self/maps", "re");
	long n = 0;
	int c;

	if (!f)
		return -1;
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

/* A million live 4 KiB allocations: the mean of each call, and the
 * mappings they took. */
static int million(char *value, size_t len, char *unit, size_t ulen)
{
	CUdeviceptr *d = calloc(MILLION, sizeof *d);
	double t0, ta, tf;
	long maps0, maps;
	CUcontext ctx;
	CUdevice dev;
	size_t n = 0;
	int bad = 0;

	if (!d || cuInit(0) || cuDeviceGet(&dev, 0) ||
	    cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx)) {
		free(d);
		return 1;
	}
	maps0 = maps_now();
	t0 = now_ns();
	while (n < MILLION && !cuMemAlloc(&d[n], 4096))
		n++;
	ta = now_ns() - t0;
	maps = maps_now() - maps0;
	t0 = now_ns();
	for (size_t i = 0; i < n; i++)
		bad |= cuMemFree(d[i]) != CUDA_SUCCESS;
	tf = now_ns() - t0;
	free(d);
	cuDevicePrimaryCtxRelease(dev);
	if (n < MILLION || bad)
		return 1;
	snprintf(value, len, "%.0f + %.0f ns alloc + free (real pair 102344)",
		 ta / n, tf / n);
	snprintf(unit, ulen, "%+ld mappings", maps);
	return 0;
}

const struct bench_row bench_memory_rows[] = {
	{ "cuMemAlloc+Free 4KiB @1 live", 102344,
	  setup_one, alloc_free_4k, teardown, 0, NULL },
	{ "cuMemAlloc+Free 4KiB @100k live", 102344,
	  setup_many, alloc_free_4k, teardown, 0, NULL },
	{ .name = "cuMemAlloc 4KiB x 1M live, then cuMemFree each",
	  .report = million },
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
