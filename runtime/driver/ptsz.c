/*
 * ptsz.c - the _ptsz exports of the stream, event, launch and
 * stream-ordered allocator entries: what a program built with per-thread
 * default streams (CUDA_API_PER_THREAD_DEFAULT_STREAM, nvcc
 * --default-stream per-thread) calls. Each is its entry with the null
 * stream taken as the calling thread's per-thread stream
 * (CU_STREAM_PER_THREAD), which orders nothing with other streams; an
 * explicit CU_STREAM_LEGACY stays the legacy stream. The copy and memset
 * forms are in copy.c, the prefetch ones in unified.c.
 *
 * Locking: none here; each calls its entry point.
 */
#define CUEMU_PER_THREAD_ENTRY_POINTS 1
#include "driver/driver.h"

CUresult cuStreamGetPriority_ptsz(CUstream hStream, int *priority)
{
	return cuStreamGetPriority(cuemu_ptsz(hStream), priority);
}

CUresult cuStreamGetFlags_ptsz(CUstream hStream, unsigned int *flags)
{
	return cuStreamGetFlags(cuemu_ptsz(hStream), flags);
}

CUresult cuStreamGetCtx_ptsz(CUstream hStream, CUcontext *pctx)
{
	return cuStreamGetCtx(cuemu_ptsz(hStream), pctx);
}

CUresult cuStreamGetCtx_v2_ptsz(CUstream hStream, CUcontext *pCtx,
				CUgreenCtx *pGreenCtx)
{
	return cuStreamGetCtx_v2(cuemu_ptsz(hStream), pCtx, pGreenCtx);
}

CUresult cuStreamWaitEvent_ptsz(CUstream hStream, CUevent hEvent,
				unsigned int Flags)
{
	return cuStreamWaitEvent(cuemu_ptsz(hStream), hEvent, Flags);
}

CUresult cuStreamAddCallback_ptsz(CUstream hStream, CUstreamCallback callback,
				  void *userData, unsigned int flags)
{
	return cuStreamAddCallback(cuemu_ptsz(hStream), callback, userData, flags);
}

CUresult cuStreamQuery_ptsz(CUstream hStream)
{
	return cuStreamQuery(cuemu_ptsz(hStream));
}

CUresult cuStreamSynchronize_ptsz(CUstream hStream)
{
	return cuStreamSynchronize(cuemu_ptsz(hStream));
}

CUresult cuEventRecord_ptsz(CUevent hEvent, CUstream hStream)
{
	return cuEventRecord(hEvent, cuemu_ptsz(hStream));
}

CUresult cuLaunchHostFunc_ptsz(CUstream hStream, CUhostFn fn, void *userData)
{
	return cuLaunchHostFunc(cuemu_ptsz(hStream), fn, userData);
}

CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned int gx, unsigned int gy,
			     unsigned int gz, unsigned int bx, unsigned int by,
			     unsigned int bz, unsigned int smem,
			     CUstream hStream, void **kernelParams,
			     void **extra)
{
	return cuLaunchKernel(f, gx, gy, gz, bx, by, bz, smem, cuemu_ptsz(hStream),
			      kernelParams, extra);
}

CUresult cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned int gx,
					unsigned int gy, unsigned int gz,
					unsigned int bx, unsigned int by,
					unsigned int bz, unsigned int smem,
					CUstream hStream, void **kernelParams)
{
	return cuLaunchCooperativeKernel(f, gx, gy, gz, bx, by, bz, smem,
					 cuemu_ptsz(hStream), kernelParams);
}

/* The configuration's NULL stream is the thread's own. */
CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f,
			       void **kernelParams, void **extra)
{
	CUlaunchConfig c;

	if (!config)
		return cuLaunchKernelEx(config, f, kernelParams, extra);
	c = *config;
	c.hStream = cuemu_ptsz(c.hStream);
	return cuLaunchKernelEx(&c, f, kernelParams, extra);
}

CUresult cuStreamSetAttribute_ptsz(CUstream hStream, CUstreamAttrID attr,
				   const CUstreamAttrValue *value)
{
	return cuStreamSetAttribute(cuemu_ptsz(hStream), attr, value);
}

CUresult cuStreamGetAttribute_ptsz(CUstream hStream, CUstreamAttrID attr,
				   CUstreamAttrValue *value_out)
{
	return cuStreamGetAttribute(cuemu_ptsz(hStream), attr, value_out);
}

CUresult cuStreamCopyAttributes_ptsz(CUstream dst, CUstream src)
{
	return cuStreamCopyAttributes(cuemu_ptsz(dst), cuemu_ptsz(src));
}

CUresult cuMemMapArrayAsync_ptsz(CUarrayMapInfo *mapInfoList,
				 unsigned int count, CUstream hStream)
{
	return cuMemMapArrayAsync(mapInfoList, count, cuemu_ptsz(hStream));
}

CUresult cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream hStream)
{
	return cuMemFreeAsync(dptr, cuemu_ptsz(hStream));
}

CUresult cuMemAllocAsync_ptsz(CUdeviceptr *dptr, size_t bytesize,
			      CUstream hStream)
{
	return cuMemAllocAsync(dptr, bytesize, cuemu_ptsz(hStream));
}

CUresult cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *dptr, size_t bytesize,
				      CUmemoryPool pool, CUstream hStream)
{
	return cuMemAllocFromPoolAsync(dptr, bytesize, pool, cuemu_ptsz(hStream));
}

CUresult cuEventRecordWithFlags_ptsz(CUevent hEvent, CUstream hStream,
				     unsigned int flags)
{
	return cuEventRecordWithFlags(hEvent, cuemu_ptsz(hStream), flags);
}

CUresult cuStreamGetId_ptsz(CUstream hStream, unsigned long long *streamId)
{
	return cuStreamGetId(cuemu_ptsz(hStream), streamId);
}

CUresult cuStreamGetDevice_ptsz(CUstream hStream, CUdevice *device)
{
	return cuStreamGetDevice(cuemu_ptsz(hStream), device);
}
