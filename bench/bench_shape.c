/*
 * bench_shape.c - 2D copies and CUDA arrays beside the H200: cuMemcpy2D of
 * 1 MiB device to device (1024 rows of 1024 bytes between pitched
 * allocations) by the wall clock of one synchronous call and by its model
 * time (CUDA events around back-to-back cuMemcpy2DAsync on the legacy
 * stream, as the real figure was taken), and cuArrayCreate+cuArrayDestroy
 * of a 1024x1024 float array.
 *
 * Real figures: one H200, driver 580.159, CUDA 13.0, probes/shapelat.c
 * (probes/results/shapelat.txt): median of 1000 calls; events around 100
 * copies, the middle of three runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"
#include "bench.h"

#define COPIES 10

struct pitched {
	CUdeviceptr a, b;
	CUDA_MEMCPY2D c;
};

static int setup_2d(void **out)
{
	struct pitched *p = calloc(1, sizeof *p);
	size_t pa, pb;

	if (!p || cuMemAllocPitch(&p->a, &pa, 1024, 1024, 16) ||
	    cuMemAllocPitch(&p->b, &pb, 1024, 1024, 16)) {
		free(p);
		return 1;
	}
	p->c.srcMemoryType = p->c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	p->c.srcDevice = p->a;
	p->c.srcPitch = pa;
	p->c.dstDevice = p->b;
	p->c.dstPitch = pb;
	p->c.WidthInBytes = 1024;
	p->c.Height = 1024;
	*out = p;
	return 0;
}

static void teardown_2d(void *arg)
{
	struct pitched *p = arg;

	cuMemFree(p->a);
	cuMemFree(p->b);
	free(p);
}

static int copy_2d(void *arg)
{
	struct pitched *p = arg;

	return cuMemcpy2D(&p->c) != CUDA_SUCCESS;
}

/* Model ns a copy: events around COPIES back-to-back async copies. */
static int model_2d(char *value, size_t len, char *unit, size_t ulen)
{
	CUevent e0 = NULL, e1 = NULL;
	const double real = 5439;
	void *arg;
	float ms = 0;
	int bad;

	if (setup_2d(&arg))
		return 1;
	bad = cuEventCreate(&e0, 0) || cuEventCreate(&e1, 0) ||
	      cuCtxSynchronize() || cuEventRecord(e0, 0);
	for (int i = 0; !bad && i < COPIES; i++)
		bad = cuMemcpy2DAsync(&((struct pitched *)arg)->c, 0) != 0;
	bad = bad || cuEventRecord(e1, 0) || cuEventSynchronize(e1) ||
	      cuEventElapsedTime(&ms, e0, e1);
	cuEventDestroy(e0);
	cuEventDestroy(e1);
	teardown_2d(arg);
	if (bad || ms <= 0)
		return 1;
	snprintf(value, len, "%.0f ns model, %.0f real", ms * 1e6 / COPIES,
		 real);
	snprintf(unit, ulen, "(ratio %.2f)", ms * 1e6 / COPIES / real);
	return 0;
}

static int setup_none(void **out)
{
	*out = NULL;
	return 0;
}

static void teardown_none(void *arg)
{
	(void)arg;
}

static int array_create_destroy(void *arg)
{
	CUDA_ARRAY_DESCRIPTOR d = { 1024, 1024, CU_AD_FORMAT_FLOAT, 1 };
	CUarray a;

	(void)arg;
	return cuArrayCreate(&a, &d) || cuArrayDestroy(a);
}

const struct bench_row bench_shape_rows[] = {
	{ "cuMemcpy2D 1MiB DtoD, 1024 rows (wall)", 5682, setup_2d, copy_2d,
	  teardown_2d, 0, NULL },
	{ "cuMemcpy2D 1MiB DtoD, 1024 rows (model time, events)", 0, NULL,
	  NULL, NULL, 0, model_2d },
	{ "cuArrayCreate+cuArrayDestroy 1024x1024 float", 72923, setup_none,
	  array_create_destroy, teardown_none, 0, NULL },
	{ NULL, 0, NULL, NULL, NULL, 0, NULL },
};
