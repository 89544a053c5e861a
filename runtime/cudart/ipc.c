/*
 * ipc.c - the runtime API's legacy interprocess calls: cudaIpcGetMemHandle,
 * cudaIpcOpenMemHandle, cudaIpcCloseMemHandle, cudaIpcGetEventHandle and
 * cudaIpcOpenEventHandle, each on its driver twin (the handles are the
 * same 64 bytes). No state.
 */
#include "cudart/cudart.h"

#include <string.h>

_Static_assert(sizeof(cudaIpcMemHandle_t) == sizeof(CUipcMemHandle) &&
	       sizeof(cudaIpcEventHandle_t) == sizeof(CUipcEventHandle),
	       "the runtime's handles are the driver's");

cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle, void *devPtr)
{
	RT_BEGIN();
	return cuemu_rt_result(cuIpcGetMemHandle((CUipcMemHandle *)handle,
				(CUdeviceptr)(uintptr_t)devPtr));
}

cudaError_t cudaIpcOpenMemHandle(void **devPtr, cudaIpcMemHandle_t handle,
				 unsigned int flags)
{
	CUipcMemHandle h;
	CUdeviceptr p = 0;
	CUresult r;

	RT_BEGIN();
	memcpy(&h, &handle, sizeof h);
	r = cuIpcOpenMemHandle(devPtr ? &p : NULL, h, flags);
	if (r == CUDA_SUCCESS)
		*devPtr = (void *)(uintptr_t)p;
	return cuemu_rt_result(r);
}

cudaError_t cudaIpcCloseMemHandle(void *devPtr)
{
	RT_BEGIN();
	return cuemu_rt_result(cuIpcCloseMemHandle(
				(CUdeviceptr)(uintptr_t)devPtr));
}

cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t *handle,
				  cudaEvent_t event)
{
	RT_BEGIN();
	return cuemu_rt_result(cuIpcGetEventHandle((CUipcEventHandle *)handle,
						   event));
}

cudaError_t cudaIpcOpenEventHandle(cudaEvent_t *event,
				   cudaIpcEventHandle_t handle)
{
	CUipcEventHandle h;

	RT_BEGIN();
	memcpy(&h, &handle, sizeof h);
	return cuemu_rt_result(cuIpcOpenEventHandle(event, h));
}
