/*
 * poolloc.c - a location's pools (CUDA 13): cuMemGetDefaultMemPool,
 * cuMemGetMemPool and cuMemSetMemPool, for a device, the host or a host
 * NUMA node and pinned or managed memory (and no location, NONE, for
 * managed memory). Every refusal of the real driver is INVALID_VALUE but
 * one: the calling thread's node (HOST_NUMA_CURRENT) is NOT_SUPPORTED
 * (probes/results/batch.txt, families.txt). A pool set must hand out that
 * type of memory at that location; a device's pinned pool is the one
 * cuDeviceGetMemPool and cuDeviceSetMemPool name.
 *
 * Locking: the pool checks and the model call run under cuemu_lock().
 */
#include "model/pool.h"

static CUresult check_type(CUmemAllocationType type)
{
	if (type != CU_MEM_ALLOCATION_TYPE_PINNED &&
	    type != CU_MEM_ALLOCATION_TYPE_MANAGED)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "allocation type %d is neither pinned nor "
				  "managed", (int)type);
	return CUDA_SUCCESS;
}

static CUresult check_loc(const CUmemLocation *loc, CUmemAllocationType type)
{
	if (!loc)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL location");
	switch (loc->type) {
	case CU_MEM_LOCATION_TYPE_DEVICE:
		if (loc->id < 0 || loc->id >= cuemu_device_count())
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "no device %d", loc->id);
		return CUDA_SUCCESS;
	case CU_MEM_LOCATION_TYPE_HOST:
		return CUDA_SUCCESS;
	case CU_MEM_LOCATION_TYPE_HOST_NUMA:
		if (!cuemu_numa_valid(loc->id))
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "no host NUMA node %d", loc->id);
		return CUDA_SUCCESS;
	case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT:
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED,
				  "the calling thread's node has no pools");
	case CU_MEM_LOCATION_TYPE_NONE:
		if (type == CU_MEM_ALLOCATION_TYPE_MANAGED)
			return CUDA_SUCCESS;
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "pinned memory has a location");
	default:
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "location type %d has no pools",
				  (int)loc->type);
	}
}

/* Get default and get current differ in the model call only. */
static CUresult get_pool(CUmemoryPool *out, CUmemLocation *loc,
			 CUmemAllocationType type,
			 CUresult (*which)(const CUmemLocation *,
					   CUmemAllocationType, CUmemoryPool *))
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!out)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL pool");
	if ((r = check_type(type)) != CUDA_SUCCESS ||
	    (r = check_loc(loc, type)) != CUDA_SUCCESS)
		return r;
	cuemu_lock();
	r = which(loc, type, out);
	cuemu_unlock();
	return r;
}

CUresult cuMemGetDefaultMemPool(CUmemoryPool *pool_out, CUmemLocation *location,
				CUmemAllocationType type)
{
	return get_pool(pool_out, location, type, cuemu_pool_loc_default);
}

CUresult cuMemGetMemPool(CUmemoryPool *pool, CUmemLocation *location,
			 CUmemAllocationType type)
{
	return get_pool(pool, location, type, cuemu_pool_loc_current);
}

CUresult cuMemSetMemPool(CUmemLocation *location, CUmemAllocationType type,
			 CUmemoryPool pool)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if ((r = check_type(type)) != CUDA_SUCCESS ||
	    (r = check_loc(location, type)) != CUDA_SUCCESS)
		return r;
	cuemu_lock();
	if (!cuemu_pool_live(pool))
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE, "not a live pool");
	else if (cuemu_pool_imported(pool))
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			       "an imported pool cannot be a location's pool");
	else if (!cuemu_pool_loc_fits(pool, location, type))
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			       "the pool does not hand out that type of memory "
			       "at that location");
	else
		cuemu_pool_loc_set(location, type, pool);
	cuemu_unlock();
	return r;
}
