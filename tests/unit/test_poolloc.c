/*
 * test_poolloc.c - a location's pools (cuMemGetDefaultMemPool,
 * cuMemGetMemPool, cuMemSetMemPool and the cuda* names) and managed pools
 * (cuMemPoolCreate with CU_MEM_ALLOCATION_TYPE_MANAGED), as the real
 * driver answers them (probes/results/batch.txt, poolloc.* and
 * managedpool.*; families.txt; shared/reference poolloc.*): the errors,
 * which pools are distinct, setting and reverting, and a managed block's
 * life: managed memory with its range model and residency (shown in /cu),
 * no advice, no attachment, reuse, the pool's counts and release.
 */
#include <stdint.h>

#include "cuda.h"
#include "cuda_runtime_api.h"
#include "tap.h"
#include "ctl.h"

#define MiB (1UL << 20)

static CUstream s;

static CUmemLocation loc(CUmemLocationType t, int id)
{
	return (CUmemLocation){ t, id };
}

static uint64_t attr(CUmemoryPool p, CUmemPool_attribute a)
{
	cuuint64_t v = 12345;

	cuMemPoolGetAttribute(p, a, &v);
	return v;
}

static void test_errors(void)
{
	CUmemoryPool p = NULL;
	CUmemLocation d0 = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	CUmemLocation bad = loc(CU_MEM_LOCATION_TYPE_DEVICE, 99);
	CUmemLocation cur = loc(CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT, 0);
	CUmemLocation none = loc(CU_MEM_LOCATION_TYPE_NONE, 0);
	const CUresult V = CUDA_ERROR_INVALID_VALUE;
	const CUmemAllocationType PIN = CU_MEM_ALLOCATION_TYPE_PINNED,
				  MAN = CU_MEM_ALLOCATION_TYPE_MANAGED;

	is_res(cuMemGetDefaultMemPool(NULL, &d0, PIN), V, "NULL out");
	is_res(cuMemGetDefaultMemPool(&p, NULL, PIN), V, "NULL location");
	is_res(cuMemGetDefaultMemPool(&p, &d0, 0), V, "type 0");
	is_res(cuMemGetDefaultMemPool(&p, &d0, 7), V, "type 7");
	is_res(cuMemGetDefaultMemPool(&p, &bad, PIN), V, "device 99");
	is_res(cuMemGetDefaultMemPool(&p, &(CUmemLocation){
			CU_MEM_LOCATION_TYPE_HOST_NUMA, 99 }, PIN), V,
	       "NUMA node 99");
	is_res(cuMemGetDefaultMemPool(&p, &cur, PIN), CUDA_ERROR_NOT_SUPPORTED,
	       "the calling thread's node: NOT_SUPPORTED");
	is_res(cuMemGetDefaultMemPool(&p, &cur, MAN), CUDA_ERROR_NOT_SUPPORTED,
	       "... for managed memory too");
	is_res(cuMemGetMemPool(&p, &cur, PIN), CUDA_ERROR_NOT_SUPPORTED,
	       "... and current");
	is_res(cuMemGetDefaultMemPool(&p, &none, PIN), V,
	       "no location for pinned memory");
	is_res(cuMemGetDefaultMemPool(&p, &none, MAN), CUDA_SUCCESS,
	       "no location for managed memory");
	is_res(cuMemGetMemPool(NULL, &d0, PIN), V, "get: NULL out");
	is_res(cuMemGetMemPool(&p, &d0, 0), V, "get: type 0");
	cuMemGetDefaultMemPool(&p, &d0, PIN);
	is_res(cuMemSetMemPool(NULL, PIN, p), V, "set: NULL location");
	is_res(cuMemSetMemPool(&d0, PIN, NULL), V, "set: NULL pool");
	is_res(cuMemSetMemPool(&bad, PIN, p), V, "set: device 99");
	is_res(cuMemSetMemPool(&d0, 0, p), V, "set: type 0");
	is_res(cuMemSetMemPool(&d0, MAN, p), V, "set: a pinned pool as managed");
	is_res(cuMemSetMemPool(&(CUmemLocation){ CU_MEM_LOCATION_TYPE_HOST, 0 },
			       PIN, p), V, "set: a device's pool for the host");
	is_res(cuMemSetMemPool(&cur, PIN, p), CUDA_ERROR_NOT_SUPPORTED,
	       "set: the calling thread's node");
}

static void test_defaults(void)
{
	CUmemLocation d0 = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	CUmemLocation h = loc(CU_MEM_LOCATION_TYPE_HOST, 0);
	CUmemLocation h5 = loc(CU_MEM_LOCATION_TYPE_HOST, 5);
	CUmemLocation n0 = loc(CU_MEM_LOCATION_TYPE_HOST_NUMA, 0);
	CUmemLocation none = loc(CU_MEM_LOCATION_TYPE_NONE, 0);
	const CUmemAllocationType PIN = CU_MEM_ALLOCATION_TYPE_PINNED,
				  MAN = CU_MEM_ALLOCATION_TYPE_MANAGED;
	CUmemoryPool dp, dd, hp, h5p, np, dm, hm, nm, zm, cur = NULL;
	CUmemAccess_flags f = 99;

	cuMemGetDefaultMemPool(&dp, &d0, PIN);
	cuDeviceGetDefaultMemPool(&dd, 0);
	ok(dp == dd, "a device's default pinned pool is cuDeviceGetDefaultMemPool's");
	cuMemGetDefaultMemPool(&hp, &h, PIN);
	cuMemGetDefaultMemPool(&h5p, &h5, PIN);
	ok(hp == h5p, "the host's id does not matter");
	cuMemGetDefaultMemPool(&np, &n0, PIN);
	ok(np != hp && np != dp, "NUMA node 0 has a pool of its own");
	cuMemGetDefaultMemPool(&dm, &d0, MAN);
	cuMemGetDefaultMemPool(&hm, &h, MAN);
	cuMemGetDefaultMemPool(&nm, &n0, MAN);
	cuMemGetDefaultMemPool(&zm, &none, MAN);
	ok(dm != dp && dm != hm && hm != nm && zm != dm && zm != hm,
	   "every managed default is distinct (poolloc.managed_defaults)");
	is_res(cuMemGetMemPool(&cur, &h, PIN), CUDA_SUCCESS, "the host's current pool");
	ok(cur == hp, "... is its default");
	is_res(cuMemPoolDestroy(np), CUDA_ERROR_INVALID_VALUE,
	       "a NUMA default cannot be destroyed");
	is_res(cuMemPoolDestroy(dm), CUDA_ERROR_INVALID_VALUE,
	       "a managed default cannot be destroyed");
	cuMemPoolGetAccess(&f, np, &n0);
	is_int(f, CU_MEM_ACCESS_FLAGS_PROT_READWRITE, "NUMA default: the node reads and writes");
	cuMemPoolGetAccess(&f, np, &d0);
	is_int(f, CU_MEM_ACCESS_FLAGS_PROT_NONE, "... device 0 does not");
}

static void test_set(void)
{
	CUmemLocation d0 = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	CUmemLocation h = loc(CU_MEM_LOCATION_TYPE_HOST, 0);
	CUmemLocation n0 = loc(CU_MEM_LOCATION_TYPE_HOST_NUMA, 0);
	const CUmemAllocationType PIN = CU_MEM_ALLOCATION_TYPE_PINNED;
	CUmemPoolProps pr = { .allocType = PIN, .location = n0 };
	CUmemoryPool p = NULL, q = NULL, dflt = NULL, hp = NULL;
	CUdeviceptr a = 0;

	cuMemGetDefaultMemPool(&dflt, &n0, PIN);
	cuMemGetDefaultMemPool(&hp, &h, PIN);
	if (cuMemPoolCreate(&p, &pr)) {
		ok(0, "a NUMA pool");
		return;
	}
	is_res(cuMemSetMemPool(&n0, PIN, p), CUDA_SUCCESS, "set a NUMA node's pool");
	cuMemGetMemPool(&q, &n0, PIN);
	ok(q == p, "... it is current");
	cuMemGetMemPool(&q, &h, PIN);
	ok(q == hp, "... the host's is not changed");
	is_res(cuMemSetMemPool(&h, PIN, p), CUDA_ERROR_INVALID_VALUE,
	       "a NUMA pool is not the host's");
	is_res(cuMemSetMemPool(&d0, PIN, p), CUDA_ERROR_INVALID_VALUE,
	       "... nor a device's");
	cuMemPoolDestroy(p);
	cuMemGetMemPool(&q, &n0, PIN);
	ok(q == dflt, "destroyed, the node's pool is its default again");

	pr.location = d0;
	if (cuMemPoolCreate(&p, &pr)) {
		ok(0, "a device pool");
		return;
	}
	is_res(cuMemSetMemPool(&d0, PIN, p), CUDA_SUCCESS, "set a device's pool");
	cuDeviceGetMemPool(&q, 0);
	ok(q == p, "... cuDeviceGetMemPool sees it");
	cuMemAllocAsync(&a, 4096, s);
	q = NULL;
	cuPointerGetAttribute(&q, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, a);
	ok(q == p, "... cuMemAllocAsync takes from it");
	cuMemFreeAsync(a, s);
	cuStreamSynchronize(s);
	cuDeviceGetDefaultMemPool(&q, 0);
	cuDeviceSetMemPool(0, q);
	cuMemGetMemPool(&p, &d0, PIN);
	ok(p == q, "cuDeviceSetMemPool back to the default: cuMemGetMemPool sees it");
	cuMemPoolDestroy(p == q ? NULL : p);
}

static void test_runtime(void)
{
	cudaMemPool_t p = NULL, q = NULL;
	struct cudaMemLocation l = { cudaMemLocationTypeHost, 0 };

	is_int(cudaMemGetDefaultMemPool(&p, &l, cudaMemAllocationTypePinned),
	       cudaSuccess, "cudaMemGetDefaultMemPool");
	is_int(cudaMemGetMemPool(&q, &l, cudaMemAllocationTypePinned),
	       cudaSuccess, "cudaMemGetMemPool");
	ok(p == q && p, "... the host's current pool is its default");
	is_int(cudaMemSetMemPool(&l, cudaMemAllocationTypePinned, p),
	       cudaSuccess, "cudaMemSetMemPool");
	is_int(cudaMemGetDefaultMemPool(&p, &l, cudaMemAllocationTypeInvalid),
	       cudaErrorInvalidValue, "... an invalid type");
	cudaGetLastError();
}

static void test_managed_create(void)
{
	CUmemPoolProps pr = { .allocType = CU_MEM_ALLOCATION_TYPE_MANAGED };
	CUmemoryPool p;
	const CUresult V = CUDA_ERROR_INVALID_VALUE;

	pr.location = loc(CU_MEM_LOCATION_TYPE_NONE, 0);
	is_res(cuMemPoolCreate(&p, &pr), CUDA_SUCCESS,
	       "a managed pool of no location (pool.create.managed_loc_none)");
	cuMemPoolDestroy(p);
	pr.location = loc(CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT, 0);
	is_res(cuMemPoolCreate(&p, &pr), CUDA_SUCCESS,
	       "... of the calling thread's node");
	cuMemPoolDestroy(p);
	pr.location = loc(CU_MEM_LOCATION_TYPE_DEVICE, 99);
	is_res(cuMemPoolCreate(&p, &pr), V, "... of device 99");
	pr.location = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	pr.maxSize = 64 * MiB;
	is_res(cuMemPoolCreate(&p, &pr), V, "... with a maxSize");
	pr.maxSize = 0;
	pr.usage = CU_MEM_POOL_CREATE_USAGE_HW_DECOMPRESS;
	is_res(cuMemPoolCreate(&p, &pr), V, "... with a usage");
	pr.usage = 0;
	pr.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
	is_res(cuMemPoolCreate(&p, &pr), V, "... shareable");
	pr.allocType = 3;
	pr.handleTypes = 0;
	is_res(cuMemPoolCreate(&p, &pr), V, "allocType 3");
}

static void test_managed_block(void)
{
	CUmemLocation d0 = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	CUmemLocation h = loc(CU_MEM_LOCATION_TYPE_HOST, 0);
	CUmemPoolProps pr = { .allocType = CU_MEM_ALLOCATION_TYPE_MANAGED,
			      .location = d0 };
	CUmemoryPool p, q = NULL;
	CUdeviceptr b = 0, b2 = 0, old;
	unsigned v = 9;
	int i = -9;
	char buf[256];
	void *ctx = (void *)1;

	if (cuMemPoolCreate(&p, &pr) ||
	    cuMemAllocFromPoolAsync(&b, 64 * MiB, p, s)) {
		ok(0, "a managed pool and a block");
		return;
	}
	cuStreamSynchronize(s);
	cuPointerGetAttribute(&v, CU_POINTER_ATTRIBUTE_IS_MANAGED, b);
	is_int(v, 1, "a block is managed memory");
	cuPointerGetAttribute(&q, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, b);
	ok(q == p, "... of its pool");
	cuPointerGetAttribute(&ctx, CU_POINTER_ATTRIBUTE_CONTEXT, b);
	ok(ctx == NULL, "... with no context");
	is_int(attr(p, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), 64 * MiB, "used 64 MiB");
	is_int(attr(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 64 * MiB,
	       "reserved 64 MiB");
	cuMemRangeGetAttribute(&i, 4, CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION,
			       b, 64 * MiB);
	is_int(i, 0, "the pool's device reads as the preferred location");
	is_res(cuMemAdvise_v2(b, 64 * MiB, CU_MEM_ADVISE_SET_READ_MOSTLY, d0),
	       CUDA_ERROR_NOT_SUPPORTED, "advice: NOT_SUPPORTED");
	is_res(cuMemAdvise_v2(b, 65 * MiB, CU_MEM_ADVISE_SET_ACCESSED_BY, d0),
	       CUDA_ERROR_NOT_SUPPORTED, "... even past the end");
	is_res(cuMemAdvise_v2(b, 64 * MiB, (CUmem_advise)99, d0),
	       CUDA_ERROR_INVALID_VALUE, "an unknown advice: INVALID_VALUE");
	is_res(cuStreamAttachMemAsync(s, b, 0, CU_MEM_ATTACH_HOST),
	       CUDA_ERROR_INVALID_VALUE, "attach: INVALID_VALUE");
	is_res(cuMemPoolExportPointer(&(CUmemPoolPtrExportData){ { 0 } }, b),
	       CUDA_ERROR_INVALID_VALUE, "export: INVALID_VALUE");
	is_res(cuMemPrefetchAsync_v2(b, 64 * MiB, d0, 0, s), CUDA_SUCCESS,
	       "prefetch to gpu0");
	cuStreamSynchronize(s);
	ok(strstr(ctl_holders(b, buf, sizeof buf), "gpu0") != NULL,
	   "/cu: gpu0 holds the block");
	is_res(cuMemsetD8Async(b, 0x42, 64 * MiB, s), CUDA_SUCCESS, "memset");
	cuStreamSynchronize(s);
	is_int(*(volatile unsigned char *)(b + 8 * MiB), 0x42,
	       "the CPU reads it (a fault brings it)");
	CUdeviceptr bp[1] = { b };
	size_t bs[1] = { 64 * MiB }, z[1] = { 0 };
	is_res(cuMemDiscardAndPrefetchBatchAsync(bp, bs, 1, &h, z, 1, 0, s),
	       CUDA_SUCCESS, "discard and prefetch to the host");
	cuStreamSynchronize(s);
	ctl_holders(b, buf, sizeof buf);
	ok(strstr(buf, "cpu") && !strstr(buf, "gpu0"),
	   "/cu: then the CPU alone holds it");
	old = b;
	is_res(cuMemFreeAsync(b, s), CUDA_SUCCESS, "free");
	is_int(attr(p, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), 0, "used 0");
	is_res(cuMemAllocFromPoolAsync(&b2, 64 * MiB, p, s), CUDA_SUCCESS,
	       "allocate again on the stream");
	ok(b2 == old, "... the same block (managedpool.alloc_again.same_address)");
	cuStreamSynchronize(s);
	i = -9;
	cuMemRangeGetAttribute(&i, 4, CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION,
			       b2, 64 * MiB);
	is_int(i, -1, "... keeping its last prefetch location");
	cuMemFreeAsync(b2, s);
	cuStreamSynchronize(s);
	is_int(attr(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 0,
	       "released at the sync (threshold 0)");
	is_int(attr(p, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH), 64 * MiB,
	       "... the high mark stays");
	b = 0;
	is_res(cuMemAllocFromPoolAsync(&b, 4 * MiB, p, s), CUDA_SUCCESS,
	       "a 4 MiB block");
	is_int(attr(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 32 * MiB,
	       "... reserves a 32 MiB granule");
	is_res(cuMemFree(b), CUDA_SUCCESS, "cuMemFree of a block");
	cuStreamSynchronize(s);
	is_int(attr(p, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), 0, "... back in its pool");
	b = 0;
	cuMemAllocFromPoolAsync(&b, MiB, p, s);
	is_res(cuMemPoolDestroy(p), CUDA_SUCCESS, "destroy with a live block");
	*(volatile int *)b = 3;
	is_int(*(volatile int *)b, 3, "... the block stays usable");
	is_res(cuMemFreeAsync(b, s), CUDA_SUCCESS, "... until freed");
	cuStreamSynchronize(s);
}

static void test_default_managed(void)
{
	CUmemLocation h = loc(CU_MEM_LOCATION_TYPE_HOST, 0);
	CUmemoryPool p;
	CUdeviceptr b = 0;
	unsigned v = 9;

	cuMemGetDefaultMemPool(&p, &h, CU_MEM_ALLOCATION_TYPE_MANAGED);
	is_res(cuMemAllocFromPoolAsync(&b, MiB, p, s), CUDA_SUCCESS,
	       "a block of the host's default managed pool");
	cuPointerGetAttribute(&v, CU_POINTER_ATTRIBUTE_IS_MANAGED, b);
	is_int(v, 1, "... is managed");
	cuMemFreeAsync(b, s);
	cuStreamSynchronize(s);
}

int main(void)
{
	CUdevice dev;
	CUcontext ctx;
	CUmemoryPool p;
	CUmemLocation d0 = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	int v = -1;

	is_res(cuMemGetDefaultMemPool(&p, &d0, CU_MEM_ALLOCATION_TYPE_PINNED),
	       CUDA_ERROR_NOT_INITIALIZED, "before cuInit");
	if (cuInit(0) || cuDeviceGet(&dev, 0) ||
	    cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx) ||
	    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING)) {
		ok(0, "setup");
		return done_testing();
	}
	cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_HOST_NUMA_MEMORY_POOLS_SUPPORTED, 0);
	is_int(v, 1, "host NUMA pools supported (poolloc.attr_host_numa_pools)");
	test_errors();
	test_defaults();
	test_set();
	test_runtime();
	test_managed_create();
	test_managed_block();
	test_default_managed();
	cuStreamDestroy(s);
	return done_testing();
}
