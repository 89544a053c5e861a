/*
 * bench_managed.c - advice, a range attribute and a prefetch of what is
 * already resident, each on an allocation of one range and on one of
 * 10,000 ranges (the range model's depth), beside the real driver's medians
 * from shared/reference/real-driver-latency.txt; and what a 1 TiB managed
 * allocation with 1,000 advised subranges costs in resident memory.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda.h"
#include "bench.h"

#define KIB (1UL << 10)
#define MIB (1UL << 20)
#define GIB (1UL << 30)
#define PAGE 4096UL
#define RANGES 10000

struct mg_ctx {
	CUcontext ctx;
	CUstream s;
	CUdeviceptr p;        /* the 4 MiB the rows work on */
	CUdeviceptr base;     /* the allocation */
};

static const CUmemLocation gpu0 = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };

/* One allocation: 4 MiB to work on, followed (for many) by a tail of
 * alternately advised pages that makes the allocation 10,000 ranges. */
static int setup_n(void **out, int ranges)
{
	struct mg_ctx *c = calloc(1, sizeof *c);
	size_t tail = ranges > 1 ? (size_t)ranges * PAGE : 0, i;

	if (!c || cuInit(0) || cuDevicePrimaryCtxRetain(&c->ctx, 0) ||
	    cuCtxSetCurrent(c->ctx) || cuStreamCreate(&c->s, 0) ||
	    cuMemAllocManaged(&c->base, 4 * MIB + tail, CU_MEM_ATTACH_GLOBAL))
		goto fail;
	c->p = c->base;
	for (i = 1; i + 1 < (size_t)ranges; i += 2)
		if (cuMemAdvise(c->base + 4 * MIB + i * PAGE, PAGE,
				CU_MEM_ADVISE_SET_READ_MOSTLY, gpu0))
			goto fail;
	/* Resident on gpu0, for the prefetch row. */
	if (cuMemPrefetchAsync(c->p, 4 * MIB, gpu0, 0, c->s) ||
	    cuStreamSynchronize(c->s))
		goto fail;
	*out = c;
	return 0;
fail:
	free(c);
	return 1;
}

static int setup_one(void **out)
{
	return setup_n(out, 1);
}

static int setup_many(void **out)
{
	return setup_n(out, RANGES);
}

static void teardown(void *arg)
{
	struct mg_ctx *c = arg;

	cuMemFree(c->base);
	cuStreamDestroy(c->s);
	free(c);
}

static int advise_set_unset(void *arg)
{
	struct mg_ctx *c = arg;

	if (cuMemAdvise(c->p, 4 * MIB, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, gpu0))
		return 1;
	return cuMemAdvise(c->p, 4 * MIB, CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION,
			   gpu0) != CUDA_SUCCESS;
}

static int range_attr(void *arg)
{
	struct mg_ctx *c = arg;
	int v;

	return cuMemRangeGetAttribute(&v, 4,
				      CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION,
				      c->p, 4 * MIB) != CUDA_SUCCESS;
}

static int prefetch_resident(void *arg)
{
	struct mg_ctx *c = arg;

	if (cuMemPrefetchAsync(c->p, 4 * MIB, gpu0, 0, c->s))
		return 1;
	return cuStreamSynchronize(c->s) != CUDA_SUCCESS;
}

static long rss_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[128];
	long v = -1;

	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "VmRSS: %ld", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

/* Memory a 1 TiB allocation (never touched) with 1,000 advised subranges
 * costs the process: heap bytes in use (what the range model holds, exact
 * even when earlier rows left freed heap to reuse) and resident memory. */
static int terabyte(char *value, size_t len, char *unit, size_t ulen)
{
	CUcontext ctx;
	CUdeviceptr p;
	long before, after;
	size_t heap_before, heap_after;
	int i;

	if (cuInit(0) || cuDevicePrimaryCtxRetain(&ctx, 0) || cuCtxSetCurrent(ctx))
		return 1;
	before = rss_kib();
	heap_before = mallinfo2().uordblks;
	if (cuMemAllocManaged(&p, 1UL << 40, CU_MEM_ATTACH_GLOBAL))
		return 1;
	for (i = 0; i < 1000; i++)
		if (cuMemAdvise(p + (CUdeviceptr)i * GIB, 64 * KIB,
				CU_MEM_ADVISE_SET_READ_MOSTLY, gpu0)) {
			cuMemFree(p);
			return 1;
		}
	after = rss_kib();
	heap_after = mallinfo2().uordblks;
	cuMemFree(p);
	snprintf(value, len, "%zu KiB heap, %ld", (heap_after - heap_before) / 1024,
		 after - before);
	snprintf(unit, ulen, "KiB resident");
	return 0;
}

const struct bench_row bench_managed_rows[] = {
	{ "cuMemAdvise set+unset 4MiB @1 range", 1573,
	  setup_one, advise_set_unset, teardown, 0, NULL },
	{ "cuMemAdvise set+unset 4MiB @10k ranges", 1573,
	  setup_many, advise_set_unset, teardown, 0, NULL },
	{ "cuMemRangeGetAttribute preferred 4MiB @1 range", 93,
	  setup_one, range_attr, teardown, 0, NULL },
	{ "cuMemRangeGetAttribute preferred 4MiB @10k ranges", 93,
	  setup_many, range_attr, teardown, 0, NULL },
	{ "cuMemPrefetchAsync+sync resident 4MiB @1 range", 8707,
	  setup_one, prefetch_resident, teardown, 0, NULL },
	{ "cuMemPrefetchAsync+sync resident 4MiB @10k ranges", 8707,
	  setup_many, prefetch_resident, teardown, 0, NULL },
	{ "1TiB managed, 1000 advised subranges: memory added", 0,
	  NULL, NULL, NULL, 0, terabyte },
	{ NULL, 0, NULL, NULL, NULL, 0, NULL },
};
