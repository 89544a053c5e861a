/*
 * bench_core.c - the calls every program makes all the time: the current
 * context, a device attribute, stream and event round trips on an idle
 * stream, an event wait across two streams, and a small memset and copy
 * with the synchronization that waits for them. The real driver's figures
 * are the medians measured on the H200 host (probes/results/latency.txt,
 * and probes/results/streamops.txt for the wait, memset and copy rows),
 * except the host function round trip, measured the same way on an H100
 * host with driver 580 (see bench/reference.txt), and the launch row: an
 * empty kernel of one block timed by events on one H200
 * (probes/results/sparse.txt, sparse.empty_16mib_65536's mean of 7).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"
#include "cuda_runtime_api.h"
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

/* One name, as libcudart asks for each entry point. */
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

/* The streamops probe's setting: two idle non-blocking streams, an event
 * without timing, 4 KiB of device and of pinned memory. */
struct ops_ctx {
	CUstream a, b;
	CUevent e;
	CUdeviceptr d;
	void *pin;
};

static void ops_teardown(void *arg)
{
	struct ops_ctx *c = arg;

	if (c->a)
		cuStreamSynchronize(c->a);
	if (c->b)
		cuStreamSynchronize(c->b);
	cuEventDestroy(c->e);
	cuStreamDestroy(c->a);
	cuStreamDestroy(c->b);
	cuMemFree(c->d);
	cuMemFreeHost(c->pin);
	free(c);
}

static int ops_setup(void **out)
{
	struct ops_ctx *c = calloc(1, sizeof *c);

	if (!c)
		return 1;
	if (cuStreamCreate(&c->a, CU_STREAM_NON_BLOCKING) ||
	    cuStreamCreate(&c->b, CU_STREAM_NON_BLOCKING) ||
	    cuEventCreate(&c->e, CU_EVENT_DISABLE_TIMING) ||
	    cuMemAlloc(&c->d, 4096) || cuMemAllocHost(&c->pin, 4096)) {
		ops_teardown(c);
		return 1;
	}
	*out = c;
	return 0;
}

static int wait_event_two_streams(void *arg)
{
	struct ops_ctx *c = arg;

	return cuEventRecord(c->e, c->a) || cuStreamWaitEvent(c->b, c->e, 0) ||
	       cuStreamSynchronize(c->b);
}

static int memset_4k_sync(void *arg)
{
	struct ops_ctx *c = arg;

	return cuMemsetD8Async(c->d, 1, 4096, c->a) ||
	       cuStreamSynchronize(c->a);
}

static int htod_4k_pinned_sync(void *arg)
{
	struct ops_ctx *c = arg;

	return cuMemcpyHtoDAsync(c->d, c->pin, 4096, c->a) ||
	       cuStreamSynchronize(c->a);
}

/* The whole structure, about 90 attribute reads: what a program that
 * prints or checks its device pays. */
static int get_device_properties(void *arg)
{
	struct cudaDeviceProp p;

	(void)arg;
	return cudaGetDeviceProperties(&p, 0) != cudaSuccess;
}

/* A launch's fixed cost: one block of 512 threads of basic.ptx's saxpy
 * with n = 0 (each thread only compares its index), as probes/sparse.cu's
 * empty kernel of one block, and the synchronization that waits for it. */
struct launch_ctx {
	CUstream s;
	CUmodule m;
	CUfunction f;
};

static int launch_setup(void **out)
{
	struct launch_ctx *c = calloc(1, sizeof *c);
	char path[1024], *ptx = NULL;
	FILE *f;
	long n = 0;

	snprintf(path, sizeof path, "%s/tests/unit/kernels/basic.ptx",
		 EXEC_SRCDIR);
	if ((f = fopen(path, "rb"))) {
		fseek(f, 0, SEEK_END);
		n = ftell(f);
		fseek(f, 0, SEEK_SET);
		if (n > 0 && (ptx = calloc(1, (size_t)n + 1)) &&
		    fread(ptx, 1, (size_t)n, f) != (size_t)n) {
			free(ptx);
			ptx = NULL;
		}
		fclose(f);
	}
	if (!c || !ptx || cuStreamCreate(&c->s, CU_STREAM_NON_BLOCKING) ||
	    cuModuleLoadData(&c->m, ptx) ||
	    cuModuleGetFunction(&c->f, c->m, "saxpy")) {
		free(ptx);
		free(c);
		return 1;
	}
	free(ptx);
	*out = c;
	return 0;
}

static int launch_sync(void *arg)
{
	struct launch_ctx *c = arg;
	int n = 0;
	float a = 2;
	CUdeviceptr none = 0;
	void *args[] = { &n, &a, &none, &none };

	if (cuLaunchKernel(c->f, 1, 1, 1, 512, 1, 1, 0, c->s, args, NULL))
		return 1;
	return cuStreamSynchronize(c->s) != CUDA_SUCCESS;
}

static void launch_teardown(void *arg)
{
	struct launch_ctx *c = arg;

	cuModuleUnload(c->m);
	cuStreamDestroy(c->s);
	free(c);
}

/* The same launch with the process holding many managed allocations of
 * 64 KiB, each written by the CPU (so the CPU's view shows it read-write
 * and a kernel's view closes it) or each on the GPU (closed in both
 * views). A launch switches the address space to the GPU's view and back
 * (model/fault.c); what that costs should follow the pages whose
 * protection differs between the views, not the allocations held. The
 * row without allocations above is the reference. */
#define HELD_MAX 1000

struct held_ctx {
	struct launch_ctx *l;
	CUdeviceptr p[HELD_MAX];
	int n;
};

static void held_teardown(void *arg)
{
	struct held_ctx *c = arg;
	int i;

	for (i = 0; i < c->n; i++)
		cuMemFree(c->p[i]);
	launch_teardown(c->l);
	free(c);
}

static int held_setup(void **out, int n, bool on_gpu)
{
	struct held_ctx *c = calloc(1, sizeof *c);
	CUmemLocation gpu0 = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
	void *l = NULL;
	int i;

	if (!c || launch_setup(&l)) {
		free(c);
		return 1;
	}
	c->l = l;
	for (i = 0; i < n; i++) {
		if (cuMemAllocManaged(&c->p[i], 65536, CU_MEM_ATTACH_GLOBAL))
			break;
		c->n++;
		memset((void *)(uintptr_t)c->p[i], 1, 65536);
		if (on_gpu &&
		    cuMemPrefetchAsync(c->p[i], 65536, gpu0, 0, c->l->s))
			break;
	}
	if (c->n < n || cuStreamSynchronize(c->l->s) != CUDA_SUCCESS) {
		held_teardown(c);
		return 1;
	}
	*out = c;
	return 0;
}

static int held_cpu_1(void **out) { return held_setup(out, 1, false); }
static int held_cpu_100(void **out) { return held_setup(out, 100, false); }
static int held_cpu_1000(void **out) { return held_setup(out, 1000, false); }
static int held_gpu_1000(void **out) { return held_setup(out, 1000, true); }

static int held_launch(void *arg)
{
	struct held_ctx *c = arg;

	return launch_sync(c->l);
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
	{ "cuLaunchKernel 1 block of 512, no work+cuStreamSynchronize", 5900,
	  launch_setup, launch_sync, launch_teardown, 0, NULL },
	{ "cuLaunchKernel as above, 1 managed 64KiB on the CPU held", 0,
	  held_cpu_1, held_launch, held_teardown, 0, NULL },
	{ "cuLaunchKernel as above, 100 managed 64KiB on the CPU held", 0,
	  held_cpu_100, held_launch, held_teardown, 0, NULL },
	{ "cuLaunchKernel as above, 1000 managed 64KiB on the CPU held", 0,
	  held_cpu_1000, held_launch, held_teardown, 0, NULL },
	{ "cuLaunchKernel as above, 1000 managed 64KiB on the GPU held", 0,
	  held_gpu_1000, held_launch, held_teardown, 0, NULL },
	{ "cuStreamSynchronize idle stream", 1538, stream_setup,
	  stream_sync_idle, stream_teardown, 0, NULL },
	{ "cuStreamQuery idle stream", 1408, stream_setup, stream_query_idle,
	  stream_teardown, 0, NULL },
	{ "cuEventRecord+cuStreamWaitEvent+Sync, 2 streams", 552, ops_setup,
	  wait_event_two_streams, ops_teardown, 0, NULL },
	{ "cuMemsetD8Async 4KiB+cuStreamSynchronize", 6025, ops_setup,
	  memset_4k_sync, ops_teardown, 0, NULL },
	{ "cuMemcpyHtoDAsync 4KiB pinned+cuStreamSynchronize", 7280, ops_setup,
	  htod_4k_pinned_sync, ops_teardown, 0, NULL },
	/* No measurement of the real runtime's (0: none to show). */
	{ "cudaGetDeviceProperties", 0, NULL, get_device_properties, NULL, 0,
	  NULL },
	{ 0 }
};
