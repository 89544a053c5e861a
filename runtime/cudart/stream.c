/*
 * stream.c - the runtime API's stream management: cudaStreamCreate (and
 * WithFlags, WithPriority), GetPriority, GetFlags, GetId, GetDevice,
 * CopyAttributes, Destroy, WaitEvent,
 * AddCallback, Synchronize, Query, cudaLaunchHostFunc and the stream
 * attributes (cudaStreamSetAttribute, GetAttribute), each on its
 * driver twin (the per-thread forms on its _ptsz exports). No state; the
 * trampoline of a callback owns its argument.
 */
#define CUEMU_PER_THREAD_ENTRY_POINTS 1
#include "cudart/cudart.h"

#include <stdlib.h>

cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamCreate(pStream, CU_STREAM_DEFAULT));
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream,
				      unsigned int flags)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamCreate(pStream, flags));
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream,
					 unsigned int flags, int priority)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamCreateWithPriority(pStream, flags,
							  priority));
}

cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamGetPriority(hStream, priority));
}

cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamGetFlags(hStream, flags));
}

cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamGetId(hStream, streamId));
}

cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int *device)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamGetDevice(hStream, (CUdevice *)device));
}

cudaError_t cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamCopyAttributes(dst, src));
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamDestroy(stream));
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
				unsigned int flags)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamWaitEvent(stream, event, flags));
}

/* A runtime callback takes a cudaError_t: a driver callback calls it. */
struct rt_callback {
	cudaStreamCallback_t fn;
	void *user;
};

static void rt_callback_tramp(CUstream s, CUresult status, void *arg)
{
	struct rt_callback c = *(struct rt_callback *)arg;

	free(arg);
	c.fn(s, (cudaError_t)status, c.user);
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream,
				  cudaStreamCallback_t callback,
				  void *userData, unsigned int flags)
{
	struct rt_callback *c;
	CUresult r;

	RT_BEGIN();
	if (!callback || flags != 0)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if (!(c = malloc(sizeof *c)))
		return cuemu_rt_fail(cudaErrorMemoryAllocation);
	*c = (struct rt_callback){ callback, userData };
	if ((r = cuStreamAddCallback(stream, rt_callback_tramp, c, 0)) !=
	    CUDA_SUCCESS)
		free(c);
	return cuemu_rt_result(r);
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamSynchronize(stream));
}

cudaError_t cudaStreamQuery(cudaStream_t stream)
{
	CUresult r;

	RT_BEGIN();
	/* Not ready is an answer, not an error: it is not recorded. */
	if ((r = cuStreamQuery(stream)) == CUDA_ERROR_NOT_READY)
		return cudaErrorNotReady;
	return cuemu_rt_result(r);
}

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn,
			       void *userData)
{
	RT_BEGIN();
	return cuemu_rt_result(cuLaunchHostFunc(stream, fn, userData));
}

/* A stream's attributes: the driver's records under the same ids. */
cudaError_t cudaStreamSetAttribute(cudaStream_t hStream, cudaStreamAttrID attr,
				   const cudaStreamAttrValue *value)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamSetAttribute(
		hStream, (CUstreamAttrID)attr,
		(const CUstreamAttrValue *)value));
}

cudaError_t cudaStreamGetAttribute(cudaStream_t hStream, cudaStreamAttrID attr,
				   cudaStreamAttrValue *value_out)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamGetAttribute(
		hStream, (CUstreamAttrID)attr, (CUstreamAttrValue *)value_out));
}

cudaError_t cudaStreamSetAttribute_ptsz(cudaStream_t hStream,
					cudaStreamAttrID attr,
					const cudaStreamAttrValue *value)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamSetAttribute_ptsz(
		hStream, (CUstreamAttrID)attr,
		(const CUstreamAttrValue *)value));
}

cudaError_t cudaStreamGetAttribute_ptsz(cudaStream_t hStream,
					cudaStreamAttrID attr,
					cudaStreamAttrValue *value_out)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamGetAttribute_ptsz(
		hStream, (CUstreamAttrID)attr, (CUstreamAttrValue *)value_out));
}
