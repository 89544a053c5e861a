/*
 * pool.c - the stream-ordered allocator's entry points (the driver API's
 * "Stream Ordered Memory Allocator" module): cuMemAllocAsync,
 * cuMemAllocFromPoolAsync, cuMemFreeAsync, cuMemPool* and
 * cuDeviceGetDefaultMemPool, cuDeviceGetMemPool, cuDeviceSetMemPool. Each
 * checks its arguments in the order the real driver does
 * (probes/results/pool.txt), takes the process lock and calls the model
 * (model/pool.h), which holds the pools and blocks.
 *
 * Locking: streams and the current context are resolved before
 * cuemu_lock() is taken; checks that read a pool (is it live, imported,
 * a default one, where does it live) run under it, with the model call
 * that follows, so that they see the pool the call changes.
 */
#include "model/pool.h"
#include "driver/hookable.h"
#include "driver/graph.h"

#include <stdint.h>
#include <string.h>

static bool dev_valid(int dev)
{
	return dev >= 0 && dev < cuemu_device_count();
}

static CUresult not_live(void)
{
	return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "not a live pool");
}

/* ---------------------------------------------------------------- allocation */

/* Resolves the stream and context an allocation runs in. */
static CUresult stream_ctx(CUstream h, CUstream *s, CUcontext *ctx)
{
	CUresult r = cuemu_stream_get(h, s);

	if (r != CUDA_SUCCESS)
		return r;
	if (cuemu_current(ctx, NULL) != CUDA_SUCCESS)
		*ctx = NULL;
	return CUDA_SUCCESS;
}

/* The pool an allocation comes from: the one named, or (current true) the
 * current pool of the stream's device. Lock held. */
static CUresult alloc_pool(CUmemoryPool *pool, bool current, CUstream s)
{
	if (current)
		return cuemu_pool_current(cuemu_stream_device(s), pool);
	if (!cuemu_pool_live(*pool))
		return not_live();
	if (cuemu_pool_imported(*pool))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "an imported pool cannot make new allocations");
	return CUDA_SUCCESS;
}

/* The two async allocations differ only in their pool. */
static CUresult alloc_async(CUdeviceptr *dptr, size_t bytesize,
			    CUmemoryPool pool, bool current, CUstream hStream)
{
	CUstream s;
	CUcontext ctx;
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!dptr)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL dptr");
	if ((r = stream_ctx(hStream, &s, &ctx)) != CUDA_SUCCESS)
		return r;
	if (!bytesize)
		return CUDA_SUCCESS; /* the driver's answer; *dptr untouched */
	/* captured: a graph's allocation node (a pool named is the
	 * graph's own pool then, as for the device's) */
	if (cuemu_capturing(hStream))
		return cuemu_capture_alloc(hStream, bytesize, ctx,
					   cuemu_ctx_device(ctx), dptr);
	cuemu_lock();
	r = alloc_pool(&pool, current, s);
	if (r == CUDA_SUCCESS)
		r = cuemu_pool_block_alloc(pool, s, bytesize, ctx, dptr);
	cuemu_unlock();
	return r;
}

CUEMU_HOOKABLE(cuMemAllocFromPoolAsync)
CUresult CUEMU_HOOKED(cuMemAllocFromPoolAsync)(CUdeviceptr *dptr, size_t bytesize,
				 CUmemoryPool pool, CUstream hStream)
{
	return alloc_async(dptr, bytesize, pool, false, hStream);
}

CUEMU_HOOKABLE(cuMemAllocAsync)
CUresult CUEMU_HOOKED(cuMemAllocAsync)(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
	return alloc_async(dptr, bytesize, NULL, true, hStream);
}

CUEMU_HOOKABLE(cuMemFreeAsync)
CUresult CUEMU_HOOKED(cuMemFreeAsync)(CUdeviceptr dptr, CUstream hStream)
{
	struct cuemu_alloc *a;
	CUstream s;
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if ((r = cuemu_stream_get(hStream, &s)) != CUDA_SUCCESS)
		return r;
	if (cuemu_capturing(hStream))
		return cuemu_capture_free(hStream, dptr);
	if (!dptr)
		return CUDA_SUCCESS; /* what a zero-byte allocation returned */
	/* a graph's memory is the graph's as long as it lives */
	if (cuemu_gmem_owns(dptr))
		return CUDA_SUCCESS;
	cuemu_lock();
	a = cuemu_va_find((uintptr_t)dptr);
	if (a && a->kind == CUEMU_KIND_DEVICE && a->base == (uintptr_t)dptr) {
		/* The driver frees cuMemAlloc memory here too. */
		cuemu_unlock();
		return cuMemFree(dptr);
	}
	a = cuemu_pool_block_at(dptr);
	if (!a)
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			       "%#llx was not allocated from a pool",
			       (unsigned long long)dptr);
	else
		cuemu_pool_block_free(a, s);
	cuemu_unlock();
	return r;
}

/* ---------------------------------------------------------------- pools */

/* A managed pool (CUDA 13) may live anywhere, even nowhere (NONE) or on
 * the calling thread's node, but takes no maximum size, no usage and no
 * handle type (probes/results/batch.txt, managedpool.create_*). */
static CUresult check_managed_props(const CUmemPoolProps *pp)
{
	const CUmemLocation *l = &pp->location;

	if (l->type == CU_MEM_LOCATION_TYPE_DEVICE && !dev_valid(l->id))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "no device %d", l->id);
	if (l->type == CU_MEM_LOCATION_TYPE_HOST_NUMA && !cuemu_numa_valid(l->id))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "no host NUMA node %d", l->id);
	if ((unsigned)l->type > CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "location type %d is not a place", (int)l->type);
	if (pp->maxSize || pp->usage || pp->handleTypes)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "a managed pool takes no maxSize, usage or "
				  "handle types");
	return CUDA_SUCCESS;
}

static CUresult check_props(const CUmemPoolProps *pp)
{
	const CUmemLocation *l = &pp->location;

	if (pp->allocType == CU_MEM_ALLOCATION_TYPE_MANAGED)
		return check_managed_props(pp);
	if (pp->allocType != CU_MEM_ALLOCATION_TYPE_PINNED)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "allocType must be PINNED or MANAGED");
	if (l->type == CU_MEM_LOCATION_TYPE_DEVICE) {
		if (!dev_valid(l->id))
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "no device %d", l->id);
	} else if (l->type == CU_MEM_LOCATION_TYPE_HOST_NUMA) {
		if (!cuemu_numa_valid(l->id))
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "no host NUMA node %d", l->id);
	} else if (l->type != CU_MEM_LOCATION_TYPE_HOST) {
		/* HOST is accepted since CUDA 13; HOST_NUMA_CURRENT is not.
		 * The seed calls HOST cudaErrorInvalidValue; the probed
		 * driver (pool.create.host) accepts it, and it wins. */
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "a pool lives on a device, the host or a host "
				  "NUMA node");
	}
	/* Windows handles do not exist here; a fabric pool is made (the
	 * device reports fabric support) though it cannot be exported. */
	/* The driver reserves address space for maxSize when the pool is
	 * made: 1 PiB does not fit and is OUT_OF_MEMORY. */
	if (pp->maxSize > CUEMU_POOL_MAX_SIZE)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "maxSize is larger than the address space");
	if (pp->handleTypes & ~(unsigned)(CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR |
					   CU_MEM_HANDLE_TYPE_FABRIC))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "handle types are POSIX file descriptors or fabric");
	return CUDA_SUCCESS;
}

CUresult cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *poolProps)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!pool || !poolProps)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL argument");
	if ((r = check_props(poolProps)) != CUDA_SUCCESS)
		return r;
	cuemu_lock();
	r = cuemu_pool_create(poolProps, pool);
	cuemu_unlock();
	return r;
}

CUresult cuMemPoolDestroy(CUmemoryPool pool)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	cuemu_lock();
	if (!cuemu_pool_live(pool))
		r = not_live();
	else if (cuemu_pool_is_default(pool))
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			       "a device's default pool cannot be destroyed");
	else
		cuemu_pool_destroy(pool);
	cuemu_unlock();
	return r;
}

/* Get and set differ only in what they do to a live pool's attribute. */
static CUresult pool_attr(CUmemoryPool pool, CUmemPool_attribute attr,
			  void *value,
			  CUresult (*op)(CUmemoryPool, CUmemPool_attribute, void *))
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!value)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL value");
	cuemu_lock();
	r = cuemu_pool_live(pool) ? op(pool, attr, value) : not_live();
	cuemu_unlock();
	return r;
}

CUresult cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr,
			       void *value)
{
	return pool_attr(pool, attr, value, cuemu_pool_get_attr);
}

CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr,
			       void *value)
{
	return pool_attr(pool, attr, value, cuemu_pool_set_attr);
}

CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	cuemu_lock();
	if (!cuemu_pool_live(pool))
		r = not_live();
	else if (cuemu_pool_imported(pool))
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			       "an imported pool has nothing of its own to trim");
	else
		cuemu_pool_trim(pool, minBytesToKeep);
	cuemu_unlock();
	return r;
}

/* ---------------------------------------------------------------- access */

/* One descriptor for a pool owned by owner (a GPU, or -1 for the host). */
static CUresult check_access(int owner, const CUmemAccessDesc *d)
{
	int dev = d->location.id;

	/* Checked in the driver's order: flags, location, device, owner. */
	switch (d->flags) {
	case CU_MEM_ACCESS_FLAGS_PROT_NONE:
	case CU_MEM_ACCESS_FLAGS_PROT_READWRITE:
		break;
	case CU_MEM_ACCESS_FLAGS_PROT_READ:
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED,
				  "read-only access to a pool is not supported");
	default:
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "unknown access flags %d", (int)d->flags);
	}
	if (d->location.type != CU_MEM_LOCATION_TYPE_DEVICE)
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED,
				  "pool access is set for devices");
	if (!dev_valid(dev))
		return cuemu_fail(CUDA_ERROR_INVALID_DEVICE, "no device %d", dev);
	if (dev == owner && d->flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
		return cuemu_fail(CUDA_ERROR_INVALID_DEVICE,
				  "the owning device always has read-write access");
	if (dev != owner && owner >= 0 && d->flags != CU_MEM_ACCESS_FLAGS_PROT_NONE) {
		const struct cuemu_link *l = cuemu_link(dev, owner);
		if (!l || !l->kind)
			return cuemu_fail(CUDA_ERROR_INVALID_DEVICE,
					  "gpu%d cannot reach gpu%d", dev, owner);
	}
	return CUDA_SUCCESS;
}

CUresult cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc *map,
			    size_t count)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!map)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL descriptors");
	cuemu_lock();
	if (!cuemu_pool_live(pool))
		r = not_live();
	for (size_t i = 0; i < count && r == CUDA_SUCCESS; i++)
		r = check_access(cuemu_pool_device(pool), &map[i]);
	/* All or nothing: apply only once every descriptor passed. */
	if (r == CUDA_SUCCESS)
		cuemu_pool_set_access(pool, map, count);
	cuemu_unlock();
	return r;
}

CUresult cuMemPoolGetAccess(CUmemAccess_flags *flags, CUmemoryPool memPool,
			    CUmemLocation *location)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!flags || !location)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL argument");
	cuemu_lock();
	if (!cuemu_pool_live(memPool))
		r = not_live();
	else if (location->type == CU_MEM_LOCATION_TYPE_DEVICE &&
		 dev_valid(location->id))
		*flags = cuemu_pool_access(memPool, location->id);
	else if (location->type == CU_MEM_LOCATION_TYPE_HOST ||
		 location->type == CU_MEM_LOCATION_TYPE_HOST_NUMA)
		/* The host owns a host pool; a device pool is none to it. */
		*flags = cuemu_pool_device(memPool) < 0 ?
			 CU_MEM_ACCESS_FLAGS_PROT_READWRITE :
			 CU_MEM_ACCESS_FLAGS_PROT_NONE;
	else
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE, "not a location");
	cuemu_unlock();
	return r;
}

/* ---------------------------------------------------------------- device pools */

/* The two getters differ only in which of the device's pools they answer. */
static CUresult device_pool(CUmemoryPool *out, CUdevice dev,
			    CUresult (*which)(int, CUmemoryPool *))
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!out)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL pool");
	if (!dev_valid(dev))
		return cuemu_fail(CUDA_ERROR_INVALID_DEVICE, "no device %d", dev);
	cuemu_lock();
	r = which(dev, out);
	cuemu_unlock();
	return r;
}

CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out, CUdevice dev)
{
	return device_pool(pool_out, dev, cuemu_pool_default);
}

CUresult cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev)
{
	return device_pool(pool, dev, cuemu_pool_current);
}

CUresult cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!dev_valid(dev))
		return cuemu_fail(CUDA_ERROR_INVALID_DEVICE, "no device %d", dev);
	cuemu_lock();
	if (!cuemu_pool_live(pool))
		r = not_live();
	else if (cuemu_pool_imported(pool))
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			       "an imported pool cannot be a device's pool");
	else if (cuemu_pool_device(pool) != dev)
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			       "the pool does not live on device %d", dev);
	else
		cuemu_pool_set_current(dev, pool);
	cuemu_unlock();
	return r;
}

/* ---------------------------------------------------------------- IPC */

CUresult cuMemPoolExportToShareableHandle(void *handle_out, CUmemoryPool pool,
					  CUmemAllocationHandleType handleType,
					  unsigned long long flags)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!handle_out || flags)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "a handle to fill and flags 0 are needed");
	cuemu_lock();
	if (!cuemu_pool_live(pool))
		r = not_live();
	else if (cuemu_pool_imported(pool) ||
		 !(cuemu_pool_props(pool)->handleTypes & handleType) ||
		 (handleType & (handleType - 1)))
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			       "the pool was not created with that handle type");
	else if (handleType != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
		r = cuemu_fail(CUDA_ERROR_NOT_PERMITTED, "fabric handles need "
			       "an IMEX channel, which this machine does not "
			       "have");
	else
		r = cuemu_pool_export_fd(pool, (int *)handle_out);
	cuemu_unlock();
	return r;
}

CUresult cuMemPoolImportFromShareableHandle(CUmemoryPool *pool_out,
					    void *handle,
					    CUmemAllocationHandleType handleType,
					    unsigned long long flags)
{
	CUmemPoolProps props;
	uint64_t uid;
	CUresult r;
	int fd = (int)(uintptr_t)handle;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!pool_out || flags ||
	    handleType != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "a POSIX descriptor and flags 0 are needed");
	if ((r = cuemu_pool_read_fd(fd, &props, &uid)) != CUDA_SUCCESS)
		return r;
	if (check_props(&props) != CUDA_SUCCESS)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "the pool lives where this machine has nothing");
	cuemu_lock();
	r = cuemu_pool_import(fd, &props, uid, pool_out);
	cuemu_unlock();
	return r;
}

CUresult cuMemPoolExportPointer(CUmemPoolPtrExportData *shareData_out,
				CUdeviceptr ptr)
{
	struct cuemu_alloc *a;
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!shareData_out)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL export data");
	cuemu_lock();
	a = cuemu_pool_block_at(ptr);
	if (!a)
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			       "%#llx was not allocated from a pool",
			       (unsigned long long)ptr);
	else
		r = cuemu_pool_export_ptr(a, shareData_out);
	cuemu_unlock();
	return r;
}

CUresult cuMemPoolImportPointer(CUdeviceptr *ptr_out, CUmemoryPool pool,
				CUmemPoolPtrExportData *shareData)
{
	CUcontext ctx = NULL;
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!ptr_out || !shareData)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL argument");
	if (cuemu_current(&ctx, NULL) != CUDA_SUCCESS)
		ctx = NULL;
	cuemu_lock();
	if (!cuemu_pool_live(pool) || !cuemu_pool_imported(pool))
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE, "not an imported pool");
	else
		r = cuemu_pool_import_ptr(pool, shareData, ctx, ptr_out);
	cuemu_unlock();
	return r;
}
