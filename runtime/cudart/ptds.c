/*
 * ptds.c - the runtime's per-thread default stream forms: what a program
 * built with `nvcc --default-stream per-thread` (CUDA_API_PER_THREAD_DEFAULT_STREAM)
 * calls in place of the plain names. A _ptsz form takes a null stream as
 * the calling thread's own (cudaStreamPerThread) and is otherwise its
 * plain twin; a _ptds form, a synchronous copy or memset, runs on the
 * thread's stream and returns once that stream has done it, where the
 * plain one runs on the legacy stream. The launches' and the batches'
 * forms are in launch.c, batch.c and unified.c, on the driver's _ptsz
 * exports.
 *
 * No state.
 */
#include "cudart/cudart.h"

/* The stream a per-thread form runs on: the named one, or the thread's
 * for the null stream (cudaStreamLegacy, named, stays the legacy one). */
static cudaStream_t pt(cudaStream_t s)
{
	return s ? s : cudaStreamPerThread;
}

/* A synchronous call done on the thread's stream: what it queued,
 * waited for. */
static cudaError_t pt_sync(cudaError_t queued)
{
	return queued != cudaSuccess ? queued :
	       cudaStreamSynchronize(cudaStreamPerThread);
}

/* ------------------------------------------------- synchronous: _ptds */

cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count,
			    enum cudaMemcpyKind kind)
{
	return pt_sync(cudaMemcpyAsync(dst, src, count, kind,
				       cudaStreamPerThread));
}

cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src,
			      size_t spitch, size_t width, size_t height,
			      enum cudaMemcpyKind kind)
{
	return pt_sync(cudaMemcpy2DAsync(dst, dpitch, src, spitch, width,
					 height, kind, cudaStreamPerThread));
}

cudaError_t cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset,
				     size_t hOffset, const void *src,
				     size_t spitch, size_t width,
				     size_t height, enum cudaMemcpyKind kind)
{
	return pt_sync(cudaMemcpy2DToArrayAsync(dst, wOffset, hOffset, src,
						spitch, width, height, kind,
						cudaStreamPerThread));
}

cudaError_t cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch,
				       cudaArray_const_t src, size_t wOffset,
				       size_t hOffset, size_t width,
				       size_t height, enum cudaMemcpyKind kind)
{
	return pt_sync(cudaMemcpy2DFromArrayAsync(dst, dpitch, src, wOffset,
						  hOffset, width, height, kind,
						  cudaStreamPerThread));
}

cudaError_t cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset,
				   size_t hOffset, const void *src,
				   size_t count, enum cudaMemcpyKind kind)
{
	return pt_sync(cudaMemcpyToArrayAsync(dst, wOffset, hOffset, src,
					      count, kind,
					      cudaStreamPerThread));
}

cudaError_t cudaMemcpyFromArray_ptds(void *dst, cudaArray_const_t src,
				     size_t wOffset, size_t hOffset,
				     size_t count, enum cudaMemcpyKind kind)
{
	return pt_sync(cudaMemcpyFromArrayAsync(dst, src, wOffset, hOffset,
						count, kind,
						cudaStreamPerThread));
}

/* Array to array copies have no asynchronous form: the plain copy, after
 * the thread's stream, then the legacy stream's wait (the copy runs
 * there). */
cudaError_t cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst,
					size_t hOffsetDst,
					cudaArray_const_t src,
					size_t wOffsetSrc, size_t hOffsetSrc,
					size_t count, enum cudaMemcpyKind kind)
{
	cudaError_t e = cudaStreamSynchronize(cudaStreamPerThread);

	return e != cudaSuccess ? e :
	       cudaMemcpyArrayToArray(dst, wOffsetDst, hOffsetDst, src,
				      wOffsetSrc, hOffsetSrc, count, kind);
}

cudaError_t cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst,
					  size_t hOffsetDst,
					  cudaArray_const_t src,
					  size_t wOffsetSrc, size_t hOffsetSrc,
					  size_t width, size_t height,
					  enum cudaMemcpyKind kind)
{
	cudaError_t e = cudaStreamSynchronize(cudaStreamPerThread);

	return e != cudaSuccess ? e :
	       cudaMemcpy2DArrayToArray(dst, wOffsetDst, hOffsetDst, src,
					wOffsetSrc, hOffsetSrc, width, height,
					kind);
}

cudaError_t cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p)
{
	return pt_sync(cudaMemcpy3DAsync(p, cudaStreamPerThread));
}

cudaError_t cudaMemcpy3DPeer_ptds(const struct cudaMemcpy3DPeerParms *p)
{
	return pt_sync(cudaMemcpy3DPeerAsync(p, cudaStreamPerThread));
}

cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src,
				    size_t count, size_t offset,
				    enum cudaMemcpyKind kind)
{
	return pt_sync(cudaMemcpyToSymbolAsync(symbol, src, count, offset,
					       kind, cudaStreamPerThread));
}

cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol,
				      size_t count, size_t offset,
				      enum cudaMemcpyKind kind)
{
	return pt_sync(cudaMemcpyFromSymbolAsync(dst, symbol, count, offset,
						 kind, cudaStreamPerThread));
}

cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count)
{
	return pt_sync(cudaMemsetAsync(devPtr, value, count,
				       cudaStreamPerThread));
}

cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value,
			      size_t width, size_t height)
{
	return pt_sync(cudaMemset2DAsync(devPtr, pitch, value, width, height,
					 cudaStreamPerThread));
}

cudaError_t cudaMemset3D_ptds(struct cudaPitchedPtr p, int value,
			      struct cudaExtent extent)
{
	return pt_sync(cudaMemset3DAsync(p, value, extent,
					 cudaStreamPerThread));
}

/* ------------------------------------------------ on a stream: _ptsz */

cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count,
				 enum cudaMemcpyKind kind, cudaStream_t s)
{
	return cudaMemcpyAsync(dst, src, count, kind, pt(s));
}

cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src,
				   size_t spitch, size_t width, size_t height,
				   enum cudaMemcpyKind kind, cudaStream_t s)
{
	return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind,
				 pt(s));
}

cudaError_t cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset,
					  size_t hOffset, const void *src,
					  size_t spitch, size_t width,
					  size_t height,
					  enum cudaMemcpyKind kind,
					  cudaStream_t s)
{
	return cudaMemcpy2DToArrayAsync(dst, wOffset, hOffset, src, spitch,
					width, height, kind, pt(s));
}

cudaError_t cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch,
					    cudaArray_const_t src,
					    size_t wOffset, size_t hOffset,
					    size_t width, size_t height,
					    enum cudaMemcpyKind kind,
					    cudaStream_t s)
{
	return cudaMemcpy2DFromArrayAsync(dst, dpitch, src, wOffset, hOffset,
					  width, height, kind, pt(s));
}

cudaError_t cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset,
					size_t hOffset, const void *src,
					size_t count, enum cudaMemcpyKind kind,
					cudaStream_t s)
{
	return cudaMemcpyToArrayAsync(dst, wOffset, hOffset, src, count, kind,
				      pt(s));
}

cudaError_t cudaMemcpyFromArrayAsync_ptsz(void *dst, cudaArray_const_t src,
					  size_t wOffset, size_t hOffset,
					  size_t count,
					  enum cudaMemcpyKind kind,
					  cudaStream_t s)
{
	return cudaMemcpyFromArrayAsync(dst, src, wOffset, hOffset, count,
					kind, pt(s));
}

cudaError_t cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p,
				   cudaStream_t s)
{
	return cudaMemcpy3DAsync(p, pt(s));
}

cudaError_t cudaMemcpy3DPeerAsync_ptsz(const struct cudaMemcpy3DPeerParms *p,
				       cudaStream_t s)
{
	return cudaMemcpy3DPeerAsync(p, pt(s));
}

cudaError_t cudaMemcpy3DBatchAsync_ptsz(size_t numOps,
					struct cudaMemcpy3DBatchOp *opList,
					unsigned long long flags,
					cudaStream_t s)
{
	return cudaMemcpy3DBatchAsync(numOps, opList, flags, pt(s));
}

cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src,
					 size_t count, size_t offset,
					 enum cudaMemcpyKind kind,
					 cudaStream_t s)
{
	return cudaMemcpyToSymbolAsync(symbol, src, count, offset, kind,
				       pt(s));
}

cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol,
					   size_t count, size_t offset,
					   enum cudaMemcpyKind kind,
					   cudaStream_t s)
{
	return cudaMemcpyFromSymbolAsync(dst, symbol, count, offset, kind,
					 pt(s));
}

cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count,
				 cudaStream_t s)
{
	return cudaMemsetAsync(devPtr, value, count, pt(s));
}

cudaError_t cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value,
				   size_t width, size_t height, cudaStream_t s)
{
	return cudaMemset2DAsync(devPtr, pitch, value, width, height, pt(s));
}

cudaError_t cudaMemset3DAsync_ptsz(struct cudaPitchedPtr p, int value,
				   struct cudaExtent extent, cudaStream_t s)
{
	return cudaMemset3DAsync(p, value, extent, pt(s));
}

cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t s)
{
	return cudaMallocAsync(devPtr, size, pt(s));
}

cudaError_t cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size,
					 cudaMemPool_t pool, cudaStream_t s)
{
	return cudaMallocFromPoolAsync(ptr, size, pool, pt(s));
}

cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t s)
{
	return cudaFreeAsync(devPtr, pt(s));
}

cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t s)
{
	return cudaEventRecord(event, pt(s));
}

cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t s,
					  unsigned int flags)
{
	return cudaEventRecordWithFlags(event, pt(s), flags);
}

cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t s, cudaHostFn_t fn,
				    void *userData)
{
	return cudaLaunchHostFunc(pt(s), fn, userData);
}

cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t s,
				       cudaStreamCallback_t callback,
				       void *userData, unsigned int flags)
{
	return cudaStreamAddCallback(pt(s), callback, userData, flags);
}

cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t s, unsigned int *flags)
{
	return cudaStreamGetFlags(pt(s), flags);
}

cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t s, int *priority)
{
	return cudaStreamGetPriority(pt(s), priority);
}

cudaError_t cudaStreamGetId_ptsz(cudaStream_t s, unsigned long long *streamId)
{
	return cudaStreamGetId(pt(s), streamId);
}

cudaError_t cudaStreamGetDevice_ptsz(cudaStream_t s, int *device)
{
	return cudaStreamGetDevice(pt(s), device);
}

cudaError_t cudaStreamCopyAttributes_ptsz(cudaStream_t dst, cudaStream_t src)
{
	return cudaStreamCopyAttributes(pt(dst), pt(src));
}

cudaError_t cudaStreamQuery_ptsz(cudaStream_t s)
{
	return cudaStreamQuery(pt(s));
}

cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t s)
{
	return cudaStreamSynchronize(pt(s));
}

cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t s, cudaEvent_t event,
				     unsigned int flags)
{
	return cudaStreamWaitEvent(pt(s), event, flags);
}

/* ---------------------------------------------------- graphs, capture */

cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t s,
					enum cudaStreamCaptureMode mode)
{
	return cudaStreamBeginCapture(pt(s), mode);
}

cudaError_t cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t s,
					       cudaGraph_t graph,
					       const cudaGraphNode_t *deps,
					       const cudaGraphEdgeData *edges,
					       size_t n,
					       enum cudaStreamCaptureMode mode)
{
	return cudaStreamBeginCaptureToGraph(pt(s), graph, deps, edges, n,
					     mode);
}

cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t s, cudaGraph_t *pGraph)
{
	return cudaStreamEndCapture(pt(s), pGraph);
}

cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t s,
				       enum cudaStreamCaptureStatus *status)
{
	return cudaStreamIsCapturing(pt(s), status);
}

cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t s,
					  enum cudaStreamCaptureStatus *status,
					  unsigned long long *id,
					  cudaGraph_t *graph,
					  const cudaGraphNode_t **deps,
					  const cudaGraphEdgeData **edges,
					  size_t *ndeps)
{
	return cudaStreamGetCaptureInfo(pt(s), status, id, graph, deps, edges,
					ndeps);
}

cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(
	cudaStream_t s, cudaGraphNode_t *deps, const cudaGraphEdgeData *edges,
	size_t n, unsigned int flags)
{
	return cudaStreamUpdateCaptureDependencies(pt(s), deps, edges, n,
						   flags);
}

cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t exec, cudaStream_t s)
{
	return cudaGraphLaunch(exec, pt(s));
}

cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t exec, cudaStream_t s)
{
	return cudaGraphUpload(exec, pt(s));
}

cudaError_t cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *pExec,
						cudaGraph_t graph,
						cudaGraphInstantiateParams *p)
{
	cudaGraphInstantiateParams q;
	cudaError_t e;

	if (!p)
		return cudaGraphInstantiateWithParams(pExec, graph, p);
	q = *p;
	q.uploadStream = pt(q.uploadStream);
	e = cudaGraphInstantiateWithParams(pExec, graph, &q);
	p->errNode_out = q.errNode_out;
	p->result_out = q.result_out;
	return e;
}
