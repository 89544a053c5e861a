/*
 * vmm.c - virtual memory management's entry points (the driver API's
 * "Virtual Memory Management" module): cuMemCreate, cuMemRelease,
 * cuMemGetAllocationGranularity, cuMemGetAllocationPropertiesFromHandle,
 * cuMemRetainAllocationHandle, cuMemExportToShareableHandle,
 * cuMemImportFromShareableHandle, cuMemAddressReserve, cuMemAddressFree,
 * cuMemMap, cuMemUnmap, cuMemMapArrayAsync, cuMemSetAccess and
 * cuMemGetAccess. Each checks its arguments in the order the real driver
 * does (probes/results/vmm.txt), takes the process lock and calls the
 * model (model/vmm.h), which finds the handle, reservation or mapping the
 * call names and answers the driver's code when there is none.
 *
 * Locking: the checks here read no model state and run before cuemu_lock()
 * is taken; the model call runs under it.
 */
#include "model/vmm.h"
#include "driver/hookable.h"

#define G CUEMU_GRANULARITY

/* The properties cuMemCreate takes, checked in the driver's order
 * (cuMemGetAllocationGranularity does not look at them). */
static CUresult check_prop(const CUmemAllocationProp *p)
{
	unsigned long long t = (unsigned long long)p->requestedHandleTypes;

	if (p->type != CU_MEM_ALLOCATION_TYPE_PINNED)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "allocation type %d: only PINNED is supported",
				  (int)p->type);
	switch (p->location.type) {
	case CU_MEM_LOCATION_TYPE_DEVICE:
		if (p->location.id < 0 || p->location.id >= cuemu_device_count())
			return cuemu_fail(CUDA_ERROR_INVALID_DEVICE,
					  "no device %d", p->location.id);
		break;
	case CU_MEM_LOCATION_TYPE_HOST:
		if (t)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "HOST allocations cannot be shared: "
					  "requestedHandleTypes must be 0");
		break;
	case CU_MEM_LOCATION_TYPE_HOST_NUMA:
		if (!cuemu_numa_valid(p->location.id))
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "no host NUMA node %d", p->location.id);
		break;
	default:
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "location type %d is not DEVICE, HOST or "
				  "HOST_NUMA", (int)p->location.type);
	}
	/* Bits the driver does not know are ignored, as it does. */
	if (t & CU_MEM_HANDLE_TYPE_FABRIC)
		return cuemu_fail(CUDA_ERROR_NOT_PERMITTED,
				  "fabric handles need an IMEX channel, which "
				  "this machine does not have");
	if (t & (CU_MEM_HANDLE_TYPE_WIN32 | CU_MEM_HANDLE_TYPE_WIN32_KMT))
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED,
				  "Windows handles do not exist on Linux");
	return CUDA_SUCCESS;
}

CUresult cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size,
		     const CUmemAllocationProp *prop, unsigned long long flags)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!handle || !prop)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL argument");
	if (flags)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "flags must be 0, not %#llx", flags);
	if ((r = check_prop(prop)) != CUDA_SUCCESS)
		return r;
	if (!size || size % G)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "size %zu is not a non-zero multiple of the "
				  "granularity (%lu)", size, G);
	cuemu_lock();
	r = cuemu_vmm_create(prop, size, handle);
	cuemu_unlock();
	return r;
}

CUresult cuMemRelease(CUmemGenericAllocationHandle handle)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	cuemu_lock();
	r = cuemu_vmm_release(handle);
	cuemu_unlock();
	return r;
}

CUresult cuMemGetAllocationGranularity(size_t *granularity,
				       const CUmemAllocationProp *prop,
				       CUmemAllocationGranularity_flags option)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!granularity || !prop)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL argument");
	if (option != CU_MEM_ALLOC_GRANULARITY_MINIMUM &&
	    option != CU_MEM_ALLOC_GRANULARITY_RECOMMENDED)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "option %d is not MINIMUM or RECOMMENDED",
				  (int)option);
	/* The driver does not look at the location here: 2 MiB for every
	 * one, a device that does not exist included. */
	*granularity = G;
	return CUDA_SUCCESS;
}

CUresult cuMemGetAllocationPropertiesFromHandle(CUmemAllocationProp *prop,
						CUmemGenericAllocationHandle handle)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!prop)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL prop");
	cuemu_lock();
	r = cuemu_vmm_prop(handle, prop);
	cuemu_unlock();
	return r;
}

CUresult cuMemRetainAllocationHandle(CUmemGenericAllocationHandle *handle,
				     void *addr)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!handle)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL handle");
	cuemu_lock();
	r = cuemu_vmm_retain((uintptr_t)addr, handle);
	cuemu_unlock();
	return r;
}

/* ---------------------------------------------------------------- sharing */

CUresult cuMemExportToShareableHandle(void *shareableHandle,
				      CUmemGenericAllocationHandle handle,
				      CUmemAllocationHandleType handleType,
				      unsigned long long flags)
{
	CUresult r;
	int fd = -1;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!shareableHandle)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL shareableHandle");
	if (flags)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "flags must be 0, not %#llx", flags);
	cuemu_lock();
	r = cuemu_vmm_export(handle, handleType, &fd);
	cuemu_unlock();
	if (r == CUDA_SUCCESS)
		*(int *)shareableHandle = fd;
	return r;
}

CUresult cuMemImportFromShareableHandle(CUmemGenericAllocationHandle *handle,
					void *osHandle,
					CUmemAllocationHandleType shHandleType)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!handle)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL handle");
	if (shHandleType != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "handle type %#x: only POSIX file descriptors "
				  "are emulated", (unsigned)shHandleType);
	cuemu_lock();
	r = cuemu_vmm_import((int)(intptr_t)osHandle, handle);
	cuemu_unlock();
	return r;
}

/* ---------------------------------------------------------------- reservations */

static bool pow2(size_t v)
{
	return v && !(v & (v - 1));
}

CUresult cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t alignment,
			     CUdeviceptr addr, unsigned long long flags)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!ptr)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL ptr");
	if (flags)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "flags must be 0, not %#llx", flags);
	if (!size || size % G)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "size %zu is not a non-zero multiple of the "
				  "granularity (%lu)", size, G);
	if (alignment && !pow2(alignment))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "alignment %zu is not a power of two",
				  alignment);
	if (addr % G)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "hint %#llx is not a multiple of the "
				  "granularity", (unsigned long long)addr);
	cuemu_lock();
	r = cuemu_vmm_reserve(size, alignment > G ? alignment : G,
			      (uintptr_t)addr, ptr);
	cuemu_unlock();
	return r;
}

CUresult cuMemAddressFree(CUdeviceptr ptr, size_t size)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	cuemu_lock();
	r = cuemu_vmm_address_free((uintptr_t)ptr, size);
	cuemu_unlock();
	return r;
}

/* ---------------------------------------------------------------- mappings */

CUEMU_HOOKABLE(cuMemMap)
CUresult CUEMU_HOOKED(cuMemMap)(CUdeviceptr ptr, size_t size, size_t offset,
		  CUmemGenericAllocationHandle handle, unsigned long long flags)
{
	uintptr_t p = (uintptr_t)ptr;
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (flags)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "flags must be 0, not %#llx", flags);
	if (!size)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "size 0");
	if (offset)
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED,
				  "offset must be 0, not %zu", offset);
	if (size % G)
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED,
				  "size %zu is not a multiple of the "
				  "granularity (%lu)", size, G);
	/* the handle's size is checked before the address's alignment
	 * (model/vmm.c) */
	cuemu_lock();
	r = cuemu_vmm_map(p, size, offset, handle);
	cuemu_unlock();
	return r;
}

CUEMU_HOOKABLE(cuMemUnmap)
CUresult CUEMU_HOOKED(cuMemUnmap)(CUdeviceptr ptr, size_t size)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	cuemu_lock();
	r = cuemu_vmm_unmap((uintptr_t)ptr, size);
	cuemu_unlock();
	return r;
}

CUresult cuMemMapArrayAsync(CUarrayMapInfo *mapInfoList, unsigned int count,
			    CUstream hStream)
{
	CUresult r;

	(void)hStream;
	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!mapInfoList || !count)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "no map operations");
	return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED,
			  "sparse CUDA arrays are not emulated");
}

/* ---------------------------------------------------------------- access */

CUresult cuMemSetAccess(CUdeviceptr ptr, size_t size,
			const CUmemAccessDesc *desc, size_t count)
{
	uintptr_t p = (uintptr_t)ptr;
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!desc || !count)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "no access descriptors");
	if (!size || size % G || p % G)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "address %#lx and size %zu must be non-zero "
				  "multiples of the granularity (%lu)",
				  (unsigned long)p, size, G);
	cuemu_lock();
	r = cuemu_vmm_set_access(p, size, desc, count);
	cuemu_unlock();
	return r;
}

CUresult cuMemGetAccess(unsigned long long *flags,
			const CUmemLocation *location, CUdeviceptr ptr)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!flags || !location)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL argument");
	/* NULL leaves flags as they were (vmmsweep.getaccess.null) */
	if (!ptr)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL address");
	cuemu_lock();
	r = cuemu_vmm_get_access((uintptr_t)ptr, location, flags);
	cuemu_unlock();
	/* An address that is not mapped answers no access rather than what
	 * was there; a bad location leaves it (probes/results/vmm.txt:
	 * getaccess.unmapped_in_reservation, getaccess.dev99). */
	if (r == CUDA_ERROR_INVALID_VALUE)
		*flags = 0;
	return r;
}
