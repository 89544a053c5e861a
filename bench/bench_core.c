/*
 * bench_core.c - the calls every program makes all the time: the current
 * context, a device attribute, stream and event round trips on an idle
 * stream. The real driver's figures are the medians measured on the H200
 * host (probes/results/latency.txt), except the host function round trip,
 * measured the same way on an H100 host with driver 580 (see
 * bench/reference.txt).
 */
#include <stdlib.h>

#include "cuda.h"
#include "bench.h"

struct core_ctx {
	CUstream s;
	CUevent e;
};

static int stream_setup(void **out)
{
	struct core_ctx *c = calloc(1, sizeof *c);

	if (!c || cuStreamCreate(&c->s, CU_STREAM_DEFAULT) ||
	    cuEventCreate(&c->e, CU_EVENT_DEFAULT)) {
		free(c);
		return 1;
	}
	*out = c;
	return 0;
}

static int stream_setup_nt(void **out)
{
	struct core_ctx *c = calloc(1, sizeof *c);

	if (!c || cuStreamCreate(&c->s, CU_STREAM_DEFAULT) ||
	    cuEventCreate(&c->e, CU_EVENT_DISABLE_TIMING)) {
		free(c);
		return 1;
	}
	*out = c;
	return 0;
}

static void stream_teardown(void *arg)
{
	struct core_ctx *c = arg;

	cuStreamSynchronize(c->s);
	cuEventDestroy(c->e);
	cuStreamDestroy(c->s);
	free(c);
}

static int ctx_get_current(void *arg)
{
	CUcontext c;

	return cuCtxGetCurrent(&c) != CUDA_SUCCESS || !c;
}

/* One name, as libcudart asks for each entry point (issue 22's row). */
static int get_proc_address(void *arg)
{
	CUdriverProcAddressQueryResult st;
	void *p = NULL;

	return cuGetProcAddress("cuMemAlloc", &p, 13000, 0, &st) !=
	       CUDA_SUCCESS || !p;
}

static int device_get_attribute(void *arg)
{
	int v;

	return cuDeviceGetAttribute(&v,
		CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, 0) != CUDA_SUCCESS;
}

static int stream_create_destroy(void *arg)
{
	CUstream s;

	if (cuStreamCreate(&s, CU_STREAM_DEFAULT))
		return 1;
	return cuStreamDestroy(s) != CUDA_SUCCESS;
}

static int event_record_sync(void *arg)
{
	struct core_ctx *c = arg;

	if (cuEventRecord(c->e, c->s))
		return 1;
	return cuEventSynchronize(c->e) != CUDA_SUCCESS;
}

static void noop(void *arg)
{
}

static int host_func_sync(void *arg)
{
	struct core_ctx *c = arg;

	if (cuLaunchHostFunc(c->s, noop, NULL))
		return 1;
	return cuStreamSynchronize(c->s) != CUDA_SUCCESS;
}

static int stream_sync_idle(void *arg)
{
	return cuStreamSynchronize(((struct core_ctx *)arg)->s) != CUDA_SUCCESS;
}

static int stream_query_idle(void *arg)
{
	return cuStreamQuery(((struct core_ctx *)arg)->s) != CUDA_SUCCESS;
}

const struct bench_row bench_core_rows[] = {
	{ "cuCtxGetCurrent", 50, NULL, ctx_get_current, NULL, 0, NULL },
	/* probes/results/families.txt, families.latency */
	{ "cuGetProcAddress one name", 83, NULL, get_proc_address, NULL, 0,
	  NULL },
	{ "cuDeviceGetAttribute concurrent_managed", 54, NULL,
	  device_get_attribute, NULL, 0, NULL },
	{ "cuStreamCreate+Destroy", 6121, NULL, stream_create_destroy, NULL,
	  0, NULL },
	{ "cuEventRecord+Synchronize idle stream", 6828, stream_setup,
	  event_record_sync, stream_teardown, 0, NULL },
	{ "cuEventRecord+Synchronize idle stream, no timing", 1646,
	  stream_setup_nt, event_record_sync, stream_teardown, 0, NULL },
	{ "cuLaunchHostFunc+cuStreamSynchronize no-op", 16109, stream_setup,
	  host_func_sync, stream_teardown, 0, NULL },
	{ "cuStreamSynchronize idle stream", 1538, stream_setup,
	  stream_sync_idle, stream_teardown, 0, NULL },
	{ "cuStreamQuery idle stream", 1408, stream_setup, stream_query_idle,
	  stream_teardown, 0, NULL },
	{ 0 }
};
