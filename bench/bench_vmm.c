/*
 * bench_vmm.c - virtual memory management: the whole life of a 2 MiB
 * mapping (create, reserve, map, set access, unmap, free, release) as one
 * timed operation, beside the real driver's median, and the map/unmap pair
 * alone over a kept reservation and handle.
 */
#include <stdlib.h>
#include <string.h>

#include "cuda.h"
#include "bench.h"

#define SZ (2UL << 20)

struct vmm_ctx {
	CUmemAllocationProp prop;
	CUmemAccessDesc acc;
	CUdeviceptr va;                   /* the map/unmap row's reservation */
	CUmemGenericAllocationHandle h;   /* ... and handle */
};

static int vmm_setup(void **out)
{
	struct vmm_ctx *c = calloc(1, sizeof *c);
	CUcontext ctx;

	if (!c || cuInit(0) || cuDevicePrimaryCtxRetain(&ctx, 0) ||
	    cuCtxSetCurrent(ctx)) {
		free(c);
		return 1;
	}
	c->prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
	c->prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	c->prop.location.id = 0;
	c->acc.location = c->prop.location;
	c->acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	if (cuMemAddressReserve(&c->va, SZ, 0, 0, 0) ||
	    cuMemCreate(&c->h, SZ, &c->prop, 0)) {
		free(c);
		return 1;
	}
	*out = c;
	return 0;
}

static void vmm_teardown(void *arg)
{
	struct vmm_ctx *c = arg;

	cuMemRelease(c->h);
	cuMemAddressFree(c->va, SZ);
	free(c);
}

static int full_cycle(void *arg)
{
	struct vmm_ctx *c = arg;
	CUmemGenericAllocationHandle h;
	CUdeviceptr va;
	int bad = 0;

	if (cuMemCreate(&h, SZ, &c->prop, 0))
		return 1;
	if (cuMemAddressReserve(&va, SZ, 0, 0, 0)) {
		cuMemRelease(h);
		return 1;
	}
	bad |= cuMemMap(va, SZ, 0, h, 0) != CUDA_SUCCESS;
	bad |= cuMemSetAccess(va, SZ, &c->acc, 1) != CUDA_SUCCESS;
	bad |= cuMemUnmap(va, SZ) != CUDA_SUCCESS;
	bad |= cuMemAddressFree(va, SZ) != CUDA_SUCCESS;
	bad |= cuMemRelease(h) != CUDA_SUCCESS;
	return bad;
}

static int map_unmap(void *arg)
{
	struct vmm_ctx *c = arg;

	if (cuMemMap(c->va, SZ, 0, c->h, 0))
		return 1;
	return cuMemUnmap(c->va, SZ) != CUDA_SUCCESS;
}

const struct bench_row bench_vmm_rows[] = {
	{ .name = "vmm create+reserve+map+access+unmap+free+release 2MiB",
	  .real_ns = 57156, .setup = vmm_setup, .op = full_cycle,
	  .teardown = vmm_teardown },
	{ .name = "vmm map+unmap 2MiB", .real_ns = 0, .setup = vmm_setup,
	  .op = map_unmap, .teardown = vmm_teardown },
	{ 0 },
};
