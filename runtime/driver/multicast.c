/*
 * multicast.c - the driver API's multicast object entries: cuMulticastCreate,
 * AddDevice, BindMem, BindAddr, Unbind and GetGranularity. A machine whose
 * devices lack CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED answers
 * NOT_SUPPORTED to each before looking at its arguments, as the real
 * driver does on a single H200 (probes/results/share.txt); otherwise the
 * arguments are checked as its documentation states, then the model
 * (model/multicast.h) checks the objects under the process lock.
 *
 * No state.
 */
#include "model/multicast.h"
#include "driver/driver.h"

#define KNOWN_TYPES (CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR | \
		     CU_MEM_HANDLE_TYPE_FABRIC)

static CUresult supported(void)
{
	CUresult r;

	if ((r = cuemu_check_init()))
		return r;
	if (!cuemu_mc_supported())
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED, "the machine's "
				  "devices do not support multicast "
				  "(multicast_supported in the topology)");
	return CUDA_SUCCESS;
}

static CUresult check_flags_types(const CUmulticastObjectProp *p)
{
	if (p->flags)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "flags must be 0");
	if (p->handleTypes & ~(unsigned long long)KNOWN_TYPES)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "handle types "
				  "%#llx are not POSIX_FILE_DESCRIPTOR or "
				  "FABRIC", p->handleTypes);
	return CUDA_SUCCESS;
}

static CUresult check_prop(const CUmulticastObjectProp *p)
{
	if (!p->numDevices || p->numDevices > (unsigned)cuemu_device_count())
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "numDevices %u: "
				  "the machine has %d devices", p->numDevices,
				  cuemu_device_count());
	return check_flags_types(p);
}

CUresult cuMulticastGetGranularity(size_t *granularity,
				   const CUmulticastObjectProp *prop,
				   CUmulticastGranularity_flags option)
{
	CUresult r;

	if ((r = supported()))
		return r;
	if (!granularity || !prop)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "granularity or prop is NULL");
	if (option != CU_MULTICAST_GRANULARITY_MINIMUM &&
	    option != CU_MULTICAST_GRANULARITY_RECOMMENDED)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "option %d is neither MINIMUM nor "
				  "RECOMMENDED", (int)option);
	if ((r = check_flags_types(prop)))
		return r;
	/* The team's size is not looked at: two H100s answered a team of
	 * 0 and of 3 as one of 2 (probes/results/mcgran.txt). */
	*granularity = option == CU_MULTICAST_GRANULARITY_MINIMUM ||
		       prop->size <= CUEMU_MC_GRAN_MIN ?
		CUEMU_MC_GRAN_MIN : CUEMU_MC_GRAN_REC;
	return CUDA_SUCCESS;
}

CUresult cuMulticastCreate(CUmemGenericAllocationHandle *mcHandle,
			   const CUmulticastObjectProp *prop)
{
	CUresult r;

	if ((r = supported()))
		return r;
	if (!mcHandle || !prop)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "mcHandle or prop is NULL");
	if ((r = check_prop(prop)))
		return r;
	if (!prop->size || prop->size % CUEMU_MC_GRAN_MIN)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "size %zu is not a "
				  "non-zero multiple of %lu", prop->size,
				  CUEMU_MC_GRAN_MIN);
	if (prop->handleTypes & CU_MEM_HANDLE_TYPE_FABRIC)
		return cuemu_fail(CUDA_ERROR_NOT_PERMITTED,
				  "fabric handles need an IMEX channel, which "
				  "this machine does not have");
	cuemu_lock();
	r = cuemu_mc_create(prop, mcHandle);
	cuemu_unlock();
	return r;
}

CUresult cuMulticastAddDevice(CUmemGenericAllocationHandle mcHandle,
			      CUdevice dev)
{
	CUresult r;

	if ((r = supported()))
		return r;
	if ((r = cuemu_check_dev(dev)))
		return r;
	cuemu_lock();
	r = cuemu_mc_add_device(mcHandle, dev);
	cuemu_unlock();
	return r;
}

CUresult cuMulticastBindMem(CUmemGenericAllocationHandle mcHandle,
			    size_t mcOffset,
			    CUmemGenericAllocationHandle memHandle,
			    size_t memOffset, size_t size,
			    unsigned long long flags)
{
	CUresult r;

	if ((r = supported()))
		return r;
	if (flags)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "flags must be 0");
	cuemu_lock();
	r = cuemu_mc_bind(mcHandle, mcOffset, memHandle, memOffset, size);
	cuemu_unlock();
	return r;
}

CUresult cuMulticastBindAddr(CUmemGenericAllocationHandle mcHandle,
			     size_t mcOffset, CUdeviceptr memptr,
			     size_t size, unsigned long long flags)
{
	CUresult r;

	if ((r = supported()))
		return r;
	if (flags)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "flags must be 0");
	cuemu_lock();
	r = cuemu_mc_bind_addr(mcHandle, mcOffset, (uintptr_t)memptr, size);
	cuemu_unlock();
	return r;
}

CUresult cuMulticastUnbind(CUmemGenericAllocationHandle mcHandle,
			   CUdevice dev, size_t mcOffset, size_t size)
{
	CUresult r;

	if ((r = supported()))
		return r;
	if ((r = cuemu_check_dev(dev)))
		return r;
	cuemu_lock();
	r = cuemu_mc_unbind(mcHandle, dev, mcOffset, size);
	cuemu_unlock();
	return r;
}
