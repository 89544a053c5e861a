/*
 * fuzz_control.c - the control protocol (control.c): any bytes, as a peer
 * would send them on a connection, served by a process with one object of
 * each kind (device, managed, pinned and pool allocations, a reservation
 * and a physical handle), from a peer of the process's own uid, so that
 * writes reach the API, and from another uid, so that refusals do too.
 * The process serves no socket (CUEMU_CONTROL=0) and takes no real CPU
 * faults (CUEMU_NO_FAULTS=1: libFuzzer keeps SIGSEGV).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outward/outward.h"
#include "fuzz.h"

static void need(CUresult r, const char *what)
{
	if (r != CUDA_SUCCESS) {
		fprintf(stderr, "fuzz_control: %s: %d\n", what, (int)r);
		exit(2);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	CUmemAllocationProp prop = {
		.type = CU_MEM_ALLOCATION_TYPE_PINNED,
		.location = { CU_MEM_LOCATION_TYPE_DEVICE, 0 },
	};
	CUmemGenericAllocationHandle h;
	CUdeviceptr d, m, r, pd;
	CUmemoryPool pool;
	CUcontext c;
	size_t gran = 0;
	void *host;

	setenv("CUEMU_CONTROL", "0", 1);
	setenv("CUEMU_NO_FAULTS", "1", 1);
	need(cuInit(0), "cuInit");
	need(cuDevicePrimaryCtxRetain(&c, 0), "retain");
	need(cuCtxSetCurrent(c), "set current");
	need(cuMemAlloc(&d, 1 << 20), "cuMemAlloc");
	need(cuemuSetLabel(d, "fuzz"), "label");
	need(cuMemAllocManaged(&m, 4 << 20, CU_MEM_ATTACH_GLOBAL), "managed");
	need(cuMemHostAlloc(&host, 1 << 16, 0), "host");
	need(cuDeviceGetDefaultMemPool(&pool, 0), "pool");
	need(cuMemAllocFromPoolAsync(&pd, 1 << 16, pool, NULL), "pool alloc");
	need(cuMemGetAllocationGranularity(&gran, &prop,
					   CU_MEM_ALLOC_GRANULARITY_MINIMUM),
	     "granularity");
	need(cuMemAddressReserve(&r, 4 * gran, 0, 0, 0), "reserve");
	need(cuMemCreate(&h, 2 * gran, &prop, 0), "create");
	need(cuMemMap(r, 2 * gran, 0, h, 0), "map");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The first byte picks the peer: the owner, or another user. */
	uid_t peer = size && (data[0] & 1) ? getuid() + 1 : getuid();

	cuemu_control_feed((const char *)data, size, peer);
	return 0;
}
