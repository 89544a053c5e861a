/*
 * probe_timing.h - what the tests that replay a probe's timings on a
 * topology share (test_peer, test_peermig, test_copyone): the ms= figure a
 * probe's raw output gives a case, and the model time of what a step
 * enqueues on a stream, by events recorded around it.
 */
#ifndef PROBE_TIMING_H
#define PROBE_TIMING_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"
#include "cuemu.h"
#include "tap.h"

/* The ms= figure of the line of file path that starts with key, or -1. */
static inline double probe_ms(const char *path, const char *key)
{
	FILE *f = fopen(path, "r");
	char line[512];
	double ms = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		const char *m;

		if (strncmp(line, key, strlen(key)) || !(m = strstr(line, " ms=")))
			continue;
		ms = strtod(m + 4, NULL);
		break;
	}
	fclose(f);
	return ms;
}

/* Model ms of what step() enqueues on stream s of context ctx, by events
 * recorded on s around it; -1 (and a failed check) where a call fails. */
static inline double timed_step(CUcontext ctx, CUstream s,
				CUresult (*step)(CUstream s, void *arg),
				void *arg)
{
	CUevent a = NULL, b = NULL;
	float ms = -1;
	CUresult r;

	cuCtxSetCurrent(ctx);
	r = cuEventCreate(&a, 0);
	if (!r)
		r = cuEventCreate(&b, 0);
	if (!r)
		r = cuEventRecord(a, s);
	if (!r)
		r = step(s, arg);
	if (!r)
		r = cuEventRecord(b, s);
	if (!r)
		r = cuEventSynchronize(b);
	if (!r)
		r = cuEventElapsedTime(&ms, a, b);
	if (a)
		cuEventDestroy(a);
	if (b)
		cuEventDestroy(b);
	if (r)
		ok(0, "a timed step failed: %s", tap_res_name(r));
	return r ? -1 : ms;
}

/* A span of managed memory: where a prefetch sends it, and the footprint
 * (CUEMU_ACCESS_*) a kernel declared over it has. */
struct span {
	CUdeviceptr p;
	size_t n;
	int to;
	unsigned flags;
};

static inline CUmemLocation gpu(int d)
{
	return (CUmemLocation){ CU_MEM_LOCATION_TYPE_DEVICE, d };
}

/* Steps for timed_step: the span prefetched to its GPU, and a kernel
 * declaring its footprint over it. */
static inline CUresult prefetch_step(CUstream q, void *arg)
{
	struct span *x = arg;

	return cuMemPrefetchAsync_v2(x->p, x->n, gpu(x->to), 0, q);
}

static inline CUresult access_step(CUstream q, void *arg)
{
	struct span *x = arg;

	return cuemuAccess(q, x->p, x->n, x->flags);
}

#endif
