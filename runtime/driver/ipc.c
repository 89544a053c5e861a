/*
 * ipc.c - the driver API's legacy interprocess entries: cuIpcGetMemHandle,
 * cuIpcOpenMemHandle (both exports), cuIpcCloseMemHandle,
 * cuIpcGetEventHandle and cuIpcOpenEventHandle, and the dma-buf of an
 * address range (cuMemGetHandleForAddressRange), in the real driver's
 * order of checks (probes/results/share.txt). The memory is model/ipc.c's,
 * the events the stream engine's.
 *
 * No state; the model takes its own locks.
 */
#include "model/ipc.h"
#include "model/stream.h"

#undef cuIpcOpenMemHandle

CUresult cuIpcGetMemHandle(CUipcMemHandle *pHandle, CUdeviceptr dptr)
{
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)))
		return r;
	if (!pHandle)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "pHandle is NULL");
	if (cuemu_ipc_mem_get_known((uintptr_t)dptr, pHandle))
		return CUDA_SUCCESS;
	cuemu_lock();
	r = cuemu_ipc_mem_get((uintptr_t)dptr, pHandle);
	cuemu_unlock();
	return r;
}

CUresult cuIpcOpenMemHandle_v2(CUdeviceptr *pdptr, CUipcMemHandle handle,
			       unsigned int Flags)
{
	CUcontext ctx;
	CUresult r;

	if ((r = cuemu_current(&ctx, NULL)))
		return r;
	if (!pdptr)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "pdptr is NULL");
	/* The one flag is required, not optional; other bits are ignored
	 * (probes/results/share.txt, imp.open_flags3). */
	if (!(Flags & CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "flags 0x%x lack "
				  "CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS", Flags);
	return cuemu_ipc_mem_open(&handle, ctx, pdptr);
}

/* The CUDA 4.1 export: the same call. */
CUresult cuIpcOpenMemHandle(CUdeviceptr *pdptr, CUipcMemHandle handle,
			    unsigned int Flags);
CUresult cuIpcOpenMemHandle(CUdeviceptr *pdptr, CUipcMemHandle handle,
			    unsigned int Flags)
{
	return cuIpcOpenMemHandle_v2(pdptr, handle, Flags);
}

CUresult cuIpcCloseMemHandle(CUdeviceptr dptr)
{
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)))
		return r;
	return cuemu_ipc_mem_close((uintptr_t)dptr);
}

CUresult cuIpcGetEventHandle(CUipcEventHandle *pHandle, CUevent event)
{
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)))
		return r;
	if (!pHandle || !event)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "pHandle or event is NULL");
	return cuemu_event_ipc_export(event, pHandle);
}

CUresult cuIpcOpenEventHandle(CUevent *phEvent, CUipcEventHandle handle)
{
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)))
		return r;
	if (!phEvent)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "phEvent is NULL");
	return cuemu_event_ipc_open(&handle, phEvent);
}

CUresult cuMemGetHandleForAddressRange(void *handle, CUdeviceptr dptr,
				       size_t size,
				       CUmemRangeHandleType handleType,
				       unsigned long long flags)
{
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)))
		return r;
	if (!handle)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "handle is NULL");
	if (handleType != CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "handle type %d is "
				  "not DMA_BUF_FD", (int)handleType);
	if (flags & ~(unsigned long long)
	    CU_MEM_RANGE_FLAG_DMA_BUF_MAPPING_TYPE_PCIE)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "flags %#llx are not valid", flags);
	/* The real H200 has no PCIe mapping of its memory to offer. */
	if (flags)
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED, "a PCIe mapping "
				  "type dma-buf is not supported");
	if (!size || dptr % CUEMU_PAGE || size % CUEMU_PAGE)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "address and size "
				  "must be non-zero multiples of the host "
				  "page");
	cuemu_lock();
	r = cuemu_dmabuf_get((uintptr_t)dptr, size, (int *)handle);
	cuemu_unlock();
	return r;
}
