/*
 * event.c - the runtime API's event management: cudaEventCreate (and
 * WithFlags), Record, Query, Synchronize, Destroy and ElapsedTime, each on
 * its driver twin. No state.
 */
#include "cudart/cudart.h"

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
	RT_BEGIN();
	return cuemu_rt_result(cuEventCreate(event, CU_EVENT_DEFAULT));
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
	RT_BEGIN();
	return cuemu_rt_result(cuEventCreate(event, flags));
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
	RT_BEGIN();
	return cuemu_rt_result(cuEventRecord(event, stream));
}

cudaError_t cudaEventQuery(cudaEvent_t event)
{
	CUresult r;

	RT_BEGIN();
	if ((r = cuEventQuery(event)) == CUDA_ERROR_NOT_READY)
		return cudaErrorNotReady;
	return cuemu_rt_result(r);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
	RT_BEGIN();
	return cuemu_rt_result(cuEventSynchronize(event));
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
	RT_BEGIN();
	return cuemu_rt_result(cuEventDestroy(event));
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start,
				 cudaEvent_t end)
{
	CUresult r;

	RT_BEGIN();
	if ((r = cuEventElapsedTime(ms, start, end)) == CUDA_ERROR_NOT_READY)
		return cudaErrorNotReady;
	return cuemu_rt_result(r);
}
