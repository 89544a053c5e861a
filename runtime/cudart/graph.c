/*
 * graph.c - the runtime's graphs and stream capture: cudaStreamBeginCapture,
 * EndCapture, IsCapturing, GetCaptureInfo, cudaThreadExchangeStreamCaptureMode,
 * cudaEventRecordWithFlags, cudaGraphCreate and the cudaGraphAdd*Node
 * calls, their parameters, edges and queries, cudaGraphInstantiate (and
 * WithFlags, WithParams), Launch, Upload, ExecDestroy, the
 * cudaGraphExec*NodeSetParams calls and cudaGraphExecUpdate, each on its
 * cu* twin (driver/graph.c, capture.c, graphexec.c).
 *
 * What the runtime decides itself: a kernel node names a registered
 * kernel by its stub (cudaErrorInvalidDeviceFunction for any other
 * address, NULL too: probes/results/graph.txt), answered back as that
 * stub; a copy node's cudaMemcpy3DParms become the driver's copy as
 * cudaMemcpy3D's do (copy2d.c), and a 1D copy node is a box of one row.
 *
 * No state; the driver's objects are the runtime's handles.
 */
#include "cudart/register.h"
#include "cudart/shape.h"

#include <string.h>

/* ------------------------------------------------------------- capture */

cudaError_t cudaStreamBeginCapture(cudaStream_t stream,
				   enum cudaStreamCaptureMode mode)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamBeginCapture_v2(
		stream, (CUstreamCaptureMode)mode));
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamEndCapture(stream, pGraph));
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream,
				  enum cudaStreamCaptureStatus *pStatus)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamIsCapturing(
		stream, (CUstreamCaptureStatus *)pStatus));
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream,
				     enum cudaStreamCaptureStatus *status,
				     unsigned long long *id,
				     cudaGraph_t *graph,
				     const cudaGraphNode_t **deps,
				     const cudaGraphEdgeData **edges,
				     size_t *ndeps)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamGetCaptureInfo_v3(
		stream, (CUstreamCaptureStatus *)status, (cuuint64_t *)id, graph,
		deps,
		(const CUgraphEdgeData **)edges, ndeps));
}

cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream,
						cudaGraphNode_t *deps,
						const cudaGraphEdgeData *edges,
						size_t n, unsigned int flags)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamUpdateCaptureDependencies_v2(
		stream, deps, (const CUgraphEdgeData *)edges, n, flags));
}

cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode)
{
	return cuemu_rt_result(cuThreadExchangeStreamCaptureMode(
		(CUstreamCaptureMode *)mode));
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
				     unsigned int flags)
{
	RT_BEGIN();
	return cuemu_rt_result(cuEventRecordWithFlags(event, stream, flags));
}

/* -------------------------------------------------------------- graphs */

cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags)
{
	RT_BEGIN();
	return cuemu_rt_result(cuGraphCreate(pGraph, flags));
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
	return cuemu_rt_result(cuGraphDestroy(graph));
}

cudaError_t cudaGraphClone(cudaGraph_t *pClone, cudaGraph_t original)
{
	return cuemu_rt_result(cuGraphClone(pClone, original));
}

cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *pNode,
				     cudaGraphNode_t original,
				     cudaGraph_t clone)
{
	return cuemu_rt_result(cuGraphNodeFindInClone(pNode, original, clone));
}

/* The driver's kernel node of a runtime one: its function in the current
 * context. */
static cudaError_t kernel_params(const struct cudaKernelNodeParams *p,
				 CUDA_KERNEL_NODE_PARAMS *k)
{
	CUfunction f;
	cudaError_t e;

	if ((e = rt_function_of(p->func, &f)) != cudaSuccess)
		return e == cudaErrorInvalidResourceHandle ?
			cudaErrorInvalidDeviceFunction : e;
	*k = (CUDA_KERNEL_NODE_PARAMS){
		.func = f, .gridDimX = p->gridDim.x, .gridDimY = p->gridDim.y,
		.gridDimZ = p->gridDim.z, .blockDimX = p->blockDim.x,
		.blockDimY = p->blockDim.y, .blockDimZ = p->blockDim.z,
		.sharedMemBytes = p->sharedMemBytes,
		.kernelParams = p->kernelParams, .extra = p->extra,
	};
	return cudaSuccess;
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pNode, cudaGraph_t graph,
				   const cudaGraphNode_t *deps, size_t n,
				   const struct cudaKernelNodeParams *p)
{
	CUDA_KERNEL_NODE_PARAMS k;
	cudaError_t e;

	RT_BEGIN();
	if (!pNode || !graph || !p)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((e = kernel_params(p, &k)) != cudaSuccess)
		return cuemu_rt_fail(e);
	return cuemu_rt_result(cuGraphAddKernelNode_v2(pNode, graph, deps, n,
						       &k));
}

cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node,
					 struct cudaKernelNodeParams *p)
{
	CUDA_KERNEL_NODE_PARAMS k;
	CUresult r;

	RT_BEGIN();
	if (!p)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((r = cuGraphKernelNodeGetParams_v2(node, &k)) != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	*p = (struct cudaKernelNodeParams){
		.func = (void *)rt_stub_of(k.func),
		.gridDim = { k.gridDimX, k.gridDimY, k.gridDimZ },
		.blockDim = { k.blockDimX, k.blockDimY, k.blockDimZ },
		.sharedMemBytes = k.sharedMemBytes,
		.kernelParams = k.kernelParams, .extra = NULL,
	};
	return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
					 const struct cudaKernelNodeParams *p)
{
	CUDA_KERNEL_NODE_PARAMS k;
	cudaError_t e;

	RT_BEGIN();
	if (!p)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((e = kernel_params(p, &k)) != cudaSuccess)
		return cuemu_rt_fail(e);
	return cuemu_rt_result(cuGraphKernelNodeSetParams_v2(node, &k));
}

/* The driver's copy of a runtime copy node's parameters. */
static cudaError_t copy_params(const struct cudaMemcpy3DParms *p,
			       CUDA_MEMCPY3D *c)
{
	if (!p)
		return cudaErrorInvalidValue;
	return cuemu_rt_copy3d_of(p, c);
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pNode, cudaGraph_t graph,
				   const cudaGraphNode_t *deps, size_t n,
				   const struct cudaMemcpy3DParms *p)
{
	CUDA_MEMCPY3D c;
	CUcontext ctx;
	cudaError_t e;
	CUresult r;

	if ((r = cuemu_rt_current(&ctx, NULL)) != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	if ((e = copy_params(p, &c)) != cudaSuccess)
		return cuemu_rt_fail(e);
	return cuemu_rt_result(cuGraphAddMemcpyNode(pNode, graph, deps, n, &c,
						    ctx));
}

/* A driver copy of count bytes from src to dst, as kind names them. */
static cudaError_t copy_1d(void *dst, const void *src, size_t count,
			   enum cudaMemcpyKind kind, CUDA_MEMCPY3D *c)
{
	CUmemorytype st, dt;

	*c = (CUDA_MEMCPY3D){ .WidthInBytes = count, .Height = 1,
			      .Depth = 1 };
	if (cuemu_rt_kind_types(kind, &st, &dt))
		return cudaErrorInvalidMemcpyDirection;
	cuemu_rt_ptr_end(st, src, false, c);
	cuemu_rt_ptr_end(dt, dst, true, c);
	return cudaSuccess;
}

/* The same to or from a variable: its device address and offset, the
 * copy held within the variable. */
static cudaError_t copy_symbol(const void *symbol, size_t count,
			       size_t offset, void **at)
{
	CUdeviceptr d;
	size_t size;
	cudaError_t e;

	if ((e = rt_symbol_of(symbol, &d, &size)) != cudaSuccess)
		return e;
	if (offset > size || count > size - offset)
		return cudaErrorInvalidValue;
	*at = (void *)(uintptr_t)(d + offset);
	return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pNode, cudaGraph_t graph,
				     const cudaGraphNode_t *deps, size_t n,
				     void *dst, const void *src, size_t count,
				     enum cudaMemcpyKind kind)
{
	CUDA_MEMCPY3D c;
	CUcontext ctx;
	cudaError_t e;
	CUresult r;

	if ((r = cuemu_rt_current(&ctx, NULL)) != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	if ((e = copy_1d(dst, src, count, kind, &c)) != cudaSuccess)
		return cuemu_rt_fail(e);
	return cuemu_rt_result(cuGraphAddMemcpyNode(pNode, graph, deps, n, &c,
						    ctx));
}

cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *pNode,
					   cudaGraph_t graph,
					   const cudaGraphNode_t *deps,
					   size_t n, const void *symbol,
					   const void *src, size_t count,
					   size_t offset,
					   enum cudaMemcpyKind kind)
{
	void *at;
	cudaError_t e;

	RT_BEGIN();
	if ((e = copy_symbol(symbol, count, offset, &at)) != cudaSuccess)
		return cuemu_rt_fail(e);
	return cudaGraphAddMemcpyNode1D(pNode, graph, deps, n, at, src, count,
					kind);
}

cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *pNode,
					     cudaGraph_t graph,
					     const cudaGraphNode_t *deps,
					     size_t n, void *dst,
					     const void *symbol, size_t count,
					     size_t offset,
					     enum cudaMemcpyKind kind)
{
	void *at;
	cudaError_t e;

	RT_BEGIN();
	if ((e = copy_symbol(symbol, count, offset, &at)) != cudaSuccess)
		return cuemu_rt_fail(e);
	return cudaGraphAddMemcpyNode1D(pNode, graph, deps, n, dst, at, count,
					kind);
}

/* A pointer end of a driver copy as a runtime pitched pointer. */
static struct cudaPitchedPtr pitched(CUmemorytype t, const void *host,
				     CUdeviceptr dev, size_t pitch,
				     size_t width, size_t height)
{
	void *p = t == CU_MEMORYTYPE_HOST ? (void *)host : (void *)dev;

	return (struct cudaPitchedPtr){ p, pitch, width, height };
}

cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node,
					 struct cudaMemcpy3DParms *p)
{
	CUDA_MEMCPY3D c;
	CUresult r;

	if (!p)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((r = cuGraphMemcpyNodeGetParams(node, &c)) != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	*p = (struct cudaMemcpy3DParms){
		.srcArray = c.srcMemoryType == CU_MEMORYTYPE_ARRAY ?
			(cudaArray_t)c.srcArray : NULL,
		.srcPos = { c.srcXInBytes, c.srcY, c.srcZ },
		.srcPtr = pitched(c.srcMemoryType, c.srcHost, c.srcDevice,
				  c.srcPitch, c.WidthInBytes, c.srcHeight),
		.dstArray = c.dstMemoryType == CU_MEMORYTYPE_ARRAY ?
			(cudaArray_t)c.dstArray : NULL,
		.dstPos = { c.dstXInBytes, c.dstY, c.dstZ },
		.dstPtr = pitched(c.dstMemoryType, c.dstHost, c.dstDevice,
				  c.dstPitch, c.WidthInBytes, c.dstHeight),
		.extent = { c.WidthInBytes, c.Height, c.Depth },
		.kind = cudaMemcpyDefault,
	};
	return cudaSuccess;
}

cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node,
					 const struct cudaMemcpy3DParms *p)
{
	CUDA_MEMCPY3D c;
	cudaError_t e;

	if ((e = copy_params(p, &c)) != cudaSuccess)
		return cuemu_rt_fail(e);
	return cuemu_rt_result(cuGraphMemcpyNodeSetParams(node, &c));
}

static CUDA_MEMSET_NODE_PARAMS memset_params(const struct cudaMemsetParams *p)
{
	return (CUDA_MEMSET_NODE_PARAMS){
		.dst = (CUdeviceptr)(uintptr_t)p->dst, .pitch = p->pitch,
		.value = p->value, .elementSize = p->elementSize,
		.width = p->width, .height = p->height,
	};
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pNode, cudaGraph_t graph,
				   const cudaGraphNode_t *deps, size_t n,
				   const struct cudaMemsetParams *p)
{
	CUDA_MEMSET_NODE_PARAMS m;
	CUcontext ctx;
	CUresult r;

	if ((r = cuemu_rt_current(&ctx, NULL)) != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	if (!p)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	m = memset_params(p);
	return cuemu_rt_result(cuGraphAddMemsetNode(pNode, graph, deps, n, &m,
						    ctx));
}

cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst,
					   const void *src, size_t count,
					   enum cudaMemcpyKind kind)
{
	CUDA_MEMCPY3D c;
	cudaError_t e;

	if ((e = copy_1d(dst, src, count, kind, &c)) != cudaSuccess)
		return cuemu_rt_fail(e);
	return cuemu_rt_result(cuGraphMemcpyNodeSetParams(node, &c));
}

cudaError_t cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t node,
						 const void *symbol,
						 const void *src, size_t count,
						 size_t offset,
						 enum cudaMemcpyKind kind)
{
	void *at;
	cudaError_t e;

	RT_BEGIN();
	if ((e = copy_symbol(symbol, count, offset, &at)) != cudaSuccess)
		return cuemu_rt_fail(e);
	return cudaGraphMemcpyNodeSetParams1D(node, at, src, count, kind);
}

cudaError_t cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t node,
						   void *dst,
						   const void *symbol,
						   size_t count, size_t offset,
						   enum cudaMemcpyKind kind)
{
	void *at;
	cudaError_t e;

	RT_BEGIN();
	if ((e = copy_symbol(symbol, count, offset, &at)) != cudaSuccess)
		return cuemu_rt_fail(e);
	return cudaGraphMemcpyNodeSetParams1D(node, dst, at, count, kind);
}

cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node,
					 struct cudaMemsetParams *p)
{
	CUDA_MEMSET_NODE_PARAMS m;
	CUresult r;

	if (!p)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((r = cuGraphMemsetNodeGetParams(node, &m)) != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	*p = (struct cudaMemsetParams){
		.dst = (void *)(uintptr_t)m.dst, .pitch = m.pitch,
		.value = m.value, .elementSize = m.elementSize,
		.width = m.width, .height = m.height,
	};
	return cudaSuccess;
}

cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node,
					 const struct cudaMemsetParams *p)
{
	CUDA_MEMSET_NODE_PARAMS m;

	if (!p)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	m = memset_params(p);
	return cuemu_rt_result(cuGraphMemsetNodeSetParams(node, &m));
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pNode, cudaGraph_t graph,
				 const cudaGraphNode_t *deps, size_t n,
				 const struct cudaHostNodeParams *p)
{
	RT_BEGIN();
	return cuemu_rt_result(cuGraphAddHostNode(
		pNode, graph, deps, n, (const CUDA_HOST_NODE_PARAMS *)p));
}

cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node,
				       struct cudaHostNodeParams *p)
{
	return cuemu_rt_result(cuGraphHostNodeGetParams(
		node, (CUDA_HOST_NODE_PARAMS *)p));
}

cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node,
				       const struct cudaHostNodeParams *p)
{
	return cuemu_rt_result(cuGraphHostNodeSetParams(
		node, (const CUDA_HOST_NODE_PARAMS *)p));
}

cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pNode,
				       cudaGraph_t graph,
				       const cudaGraphNode_t *deps, size_t n,
				       cudaGraph_t child)
{
	RT_BEGIN();
	return cuemu_rt_result(cuGraphAddChildGraphNode(pNode, graph, deps, n,
							child));
}

cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node,
					    cudaGraph_t *pGraph)
{
	return cuemu_rt_result(cuGraphChildGraphNodeGetGraph(node, pGraph));
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pNode, cudaGraph_t graph,
				  const cudaGraphNode_t *deps, size_t n)
{
	RT_BEGIN();
	return cuemu_rt_result(cuGraphAddEmptyNode(pNode, graph, deps, n));
}

cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pNode,
					cudaGraph_t graph,
					const cudaGraphNode_t *deps, size_t n,
					cudaEvent_t event)
{
	RT_BEGIN();
	return cuemu_rt_result(cuGraphAddEventRecordNode(pNode, graph, deps,
							 n, event));
}

cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pNode,
				      cudaGraph_t graph,
				      const cudaGraphNode_t *deps, size_t n,
				      cudaEvent_t event)
{
	RT_BEGIN();
	return cuemu_rt_result(cuGraphAddEventWaitNode(pNode, graph, deps, n,
						       event));
}

cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node,
					     cudaEvent_t *event)
{
	return cuemu_rt_result(cuGraphEventRecordNodeGetEvent(node, event));
}

cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node,
					   cudaEvent_t *event)
{
	return cuemu_rt_result(cuGraphEventWaitNodeGetEvent(node, event));
}

/* The runtime's allocation node is the driver's, field for field. */
_Static_assert(sizeof(struct cudaMemAllocNodeParams) ==
	       sizeof(CUDA_MEM_ALLOC_NODE_PARAMS), "allocation node layout");

cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pNode, cudaGraph_t graph,
				     const cudaGraphNode_t *deps, size_t n,
				     struct cudaMemAllocNodeParams *p)
{
	RT_BEGIN();
	return cuemu_rt_result(cuGraphAddMemAllocNode(
		pNode, graph, deps, n, (CUDA_MEM_ALLOC_NODE_PARAMS *)p));
}

cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node,
					   struct cudaMemAllocNodeParams *p)
{
	return cuemu_rt_result(cuGraphMemAllocNodeGetParams(
		node, (CUDA_MEM_ALLOC_NODE_PARAMS *)p));
}

cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pNode, cudaGraph_t graph,
				    const cudaGraphNode_t *deps, size_t n,
				    void *dptr)
{
	RT_BEGIN();
	return cuemu_rt_result(cuGraphAddMemFreeNode(
		pNode, graph, deps, n, (CUdeviceptr)(uintptr_t)dptr));
}

cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out)
{
	return cuemu_rt_result(cuGraphMemFreeNodeGetParams(
		node, (CUdeviceptr *)dptr_out));
}

cudaError_t cudaDeviceGetGraphMemAttribute(int device,
					   enum cudaGraphMemAttributeType attr,
					   void *value)
{
	RT_BEGIN();
	return cuemu_rt_result(cuDeviceGetGraphMemAttribute(
		device, (CUgraphMem_attribute)attr, value));
}

cudaError_t cudaDeviceSetGraphMemAttribute(int device,
					   enum cudaGraphMemAttributeType attr,
					   void *value)
{
	RT_BEGIN();
	return cuemu_rt_result(cuDeviceSetGraphMemAttribute(
		device, (CUgraphMem_attribute)attr, value));
}

cudaError_t cudaDeviceGraphMemTrim(int device)
{
	RT_BEGIN();
	return cuemu_rt_result(cuDeviceGraphMemTrim(device));
}

/* ------------------------------------------------------------ its shape */

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes,
			      size_t *n)
{
	return cuemu_rt_result(cuGraphGetNodes(graph, nodes, n));
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *roots,
				  size_t *n)
{
	return cuemu_rt_result(cuGraphGetRootNodes(graph, roots, n));
}

cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from,
			      cudaGraphNode_t *to, cudaGraphEdgeData *edges,
			      size_t *n)
{
	return cuemu_rt_result(cuGraphGetEdges_v2(graph, from, to,
						  (CUgraphEdgeData *)edges,
						  n));
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node,
				 enum cudaGraphNodeType *type)
{
	return cuemu_rt_result(cuGraphNodeGetType(node,
						  (CUgraphNodeType *)type));
}

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node,
					 cudaGraphNode_t *deps,
					 cudaGraphEdgeData *edges, size_t *n)
{
	return cuemu_rt_result(cuGraphNodeGetDependencies_v2(
		node, deps, (CUgraphEdgeData *)edges, n));
}

cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node,
					   cudaGraphNode_t *outs,
					   cudaGraphEdgeData *edges, size_t *n)
{
	return cuemu_rt_result(cuGraphNodeGetDependentNodes_v2(
		node, outs, (CUgraphEdgeData *)edges, n));
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph,
				     const cudaGraphNode_t *from,
				     const cudaGraphNode_t *to,
				     const cudaGraphEdgeData *edges, size_t n)
{
	return cuemu_rt_result(cuGraphAddDependencies_v2(
		graph, from, to, (const CUgraphEdgeData *)edges, n));
}

cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph,
					const cudaGraphNode_t *from,
					const cudaGraphNode_t *to,
					const cudaGraphEdgeData *edges,
					size_t n)
{
	return cuemu_rt_result(cuGraphRemoveDependencies_v2(
		graph, from, to, (const CUgraphEdgeData *)edges, n));
}

cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node)
{
	return cuemu_rt_result(cuGraphDestroyNode(node));
}

/* The driver's parameters of a runtime node's (cudaGraphNodeParams): a
 * kernel node's stub made its function, a copy node's runtime copy the
 * driver's, copies and memsets in the current context. */
static cudaError_t driver_params(const struct cudaGraphNodeParams *p,
				 CUgraphNodeParams *d, CUcontext ctx)
{
	cudaError_t e = cudaSuccess;

	_Static_assert(sizeof *d == sizeof *p, "node parameters' layout");
	memcpy(d, p, sizeof *d);
	if (p->type == cudaGraphNodeTypeKernel) {
		struct cudaKernelNodeParams k = {
			.func = p->kernel.func, .gridDim = p->kernel.gridDim,
			.blockDim = p->kernel.blockDim,
			.sharedMemBytes = p->kernel.sharedMemBytes,
			.kernelParams = p->kernel.kernelParams,
			.extra = p->kernel.extra,
		};
		CUDA_KERNEL_NODE_PARAMS kd;
		if ((e = kernel_params(&k, &kd)) == cudaSuccess)
			memcpy(&d->kernel, &kd, sizeof kd);
	} else if (p->type == cudaGraphNodeTypeMemcpy) {
		memset(&d->memcpy, 0, sizeof d->memcpy);
		d->memcpy.copyCtx = ctx;
		e = copy_params(&p->memcpy.copyParams, &d->memcpy.copyParams);
	} else if (p->type == cudaGraphNodeTypeMemset) {
		d->memset.ctx = ctx;
	} else if (p->type == cudaGraphNodeTypeConditional) {
		/* the runtime's parameters have no context: the current */
		d->conditional.ctx = ctx;
	}
	return e;
}

cudaError_t cudaGraphAddNode(cudaGraphNode_t *pNode, cudaGraph_t graph,
			     const cudaGraphNode_t *deps,
			     const cudaGraphEdgeData *edges, size_t n,
			     struct cudaGraphNodeParams *p)
{
	CUgraphNodeParams d;
	CUcontext ctx;
	cudaError_t e;
	CUresult r;

	if ((r = cuemu_rt_current(&ctx, NULL)) != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	if (!p)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((e = driver_params(p, &d, ctx)) != cudaSuccess)
		return cuemu_rt_fail(e);
	r = cuGraphAddNode_v2(pNode, graph, deps,
			      (const CUgraphEdgeData *)edges, n, &d);
	if (r == CUDA_SUCCESS && p->type == cudaGraphNodeTypeMemAlloc)
		p->alloc.dptr = (void *)(uintptr_t)d.alloc.dptr;
	if (r == CUDA_SUCCESS && p->type == cudaGraphNodeTypeConditional)
		p->conditional.phGraph_out = d.conditional.phGraph_out;
	return cuemu_rt_result(r);
}

cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node,
				   struct cudaGraphNodeParams *p)
{
	CUgraphNodeParams d;
	CUcontext ctx;
	cudaError_t e;
	CUresult r;

	if ((r = cuemu_rt_current(&ctx, NULL)) != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	if (!p)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((e = driver_params(p, &d, ctx)) != cudaSuccess)
		return cuemu_rt_fail(e);
	return cuemu_rt_result(cuGraphNodeSetParams(node, &d));
}

cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t exec,
				       cudaGraphNode_t node,
				       struct cudaGraphNodeParams *p)
{
	CUgraphNodeParams d;
	CUcontext ctx;
	cudaError_t e;
	CUresult r;

	if ((r = cuemu_rt_current(&ctx, NULL)) != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	if (!p)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((e = driver_params(p, &d, ctx)) != cudaSuccess)
		return cuemu_rt_fail(e);
	return cuemu_rt_result(cuGraphExecNodeSetParams(exec, node, &d));
}

cudaError_t cudaGraphConditionalHandleCreate(
	cudaGraphConditionalHandle *pHandle_out, cudaGraph_t graph,
	unsigned int defaultLaunchValue, unsigned int flags)
{
	CUcontext ctx;
	CUresult r;

	if ((r = cuemu_rt_current(&ctx, NULL)) != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	return cuemu_rt_result(cuGraphConditionalHandleCreate(
		(CUgraphConditionalHandle *)pHandle_out, graph, ctx,
		defaultLaunchValue, flags));
}

/* ---------------------------------------------------- executable graphs */

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pExec, cudaGraph_t graph,
				 unsigned long long flags)
{
	RT_BEGIN();
	return cuemu_rt_result(cuGraphInstantiateWithFlags(pExec, graph,
							   flags));
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pExec,
					  cudaGraph_t graph,
					  unsigned long long flags)
{
	return cudaGraphInstantiate(pExec, graph, flags);
}

cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *pExec,
					   cudaGraph_t graph,
					   cudaGraphInstantiateParams *p)
{
	RT_BEGIN();
	return cuemu_rt_result(cuGraphInstantiateWithParams(
		pExec, graph, (CUDA_GRAPH_INSTANTIATE_PARAMS *)p));
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream)
{
	RT_BEGIN();
	return cuemu_rt_result(cuGraphLaunch(exec, stream));
}

cudaError_t cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t stream)
{
	RT_BEGIN();
	return cuemu_rt_result(cuGraphUpload(exec, stream));
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec)
{
	return cuemu_rt_result(cuGraphExecDestroy(exec));
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec,
					     cudaGraphNode_t node,
					     const struct cudaKernelNodeParams *p)
{
	CUDA_KERNEL_NODE_PARAMS k;
	cudaError_t e;

	RT_BEGIN();
	if (!p)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((e = kernel_params(p, &k)) != cudaSuccess)
		return cuemu_rt_fail(e);
	return cuemu_rt_result(cuGraphExecKernelNodeSetParams_v2(exec, node,
								 &k));
}

cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t exec,
					     cudaGraphNode_t node,
					     const struct cudaMemcpy3DParms *p)
{
	CUDA_MEMCPY3D c;
	cudaError_t e;

	if ((e = copy_params(p, &c)) != cudaSuccess)
		return cuemu_rt_fail(e);
	return cuemu_rt_result(cuGraphExecMemcpyNodeSetParams(exec, node, &c,
							      NULL));
}

cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t exec,
					       cudaGraphNode_t node, void *dst,
					       const void *src, size_t count,
					       enum cudaMemcpyKind kind)
{
	CUDA_MEMCPY3D c;
	cudaError_t e;

	if ((e = copy_1d(dst, src, count, kind, &c)) != cudaSuccess)
		return cuemu_rt_fail(e);
	return cuemu_rt_result(cuGraphExecMemcpyNodeSetParams(exec, node, &c,
							      NULL));
}

cudaError_t cudaGraphExecMemcpyNodeSetParamsToSymbol(
	cudaGraphExec_t exec, cudaGraphNode_t node, const void *symbol,
	const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind)
{
	void *at;
	cudaError_t e;

	RT_BEGIN();
	if ((e = copy_symbol(symbol, count, offset, &at)) != cudaSuccess)
		return cuemu_rt_fail(e);
	return cudaGraphExecMemcpyNodeSetParams1D(exec, node, at, src, count,
						  kind);
}

cudaError_t cudaGraphExecMemcpyNodeSetParamsFromSymbol(
	cudaGraphExec_t exec, cudaGraphNode_t node, void *dst,
	const void *symbol, size_t count, size_t offset,
	enum cudaMemcpyKind kind)
{
	void *at;
	cudaError_t e;

	RT_BEGIN();
	if ((e = copy_symbol(symbol, count, offset, &at)) != cudaSuccess)
		return cuemu_rt_fail(e);
	return cudaGraphExecMemcpyNodeSetParams1D(exec, node, dst, at, count,
						  kind);
}

cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t exec,
					     cudaGraphNode_t node,
					     const struct cudaMemsetParams *p)
{
	CUDA_MEMSET_NODE_PARAMS m;

	if (!p)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	m = memset_params(p);
	return cuemu_rt_result(cuGraphExecMemsetNodeSetParams(exec, node, &m,
							      NULL));
}

cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t exec,
					   cudaGraphNode_t node,
					   const struct cudaHostNodeParams *p)
{
	return cuemu_rt_result(cuGraphExecHostNodeSetParams(
		exec, node, (const CUDA_HOST_NODE_PARAMS *)p));
}

cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph,
				cudaGraphExecUpdateResultInfo *info)
{
	return cuemu_rt_result(cuGraphExecUpdate_v2(
		exec, graph, (CUgraphExecUpdateResultInfo *)info));
}

/* ------------------------------------------- events, switches, flags */

cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node,
					     cudaEvent_t event)
{
	RT_BEGIN();
	return cuemu_rt_result(cuGraphEventRecordNodeSetEvent(node, event));
}

cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node,
					   cudaEvent_t event)
{
	RT_BEGIN();
	return cuemu_rt_result(cuGraphEventWaitNodeSetEvent(node, event));
}

cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t exec,
						 cudaGraphNode_t node,
						 cudaEvent_t event)
{
	return cuemu_rt_result(cuGraphExecEventRecordNodeSetEvent(exec, node,
								  event));
}

cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t exec,
					       cudaGraphNode_t node,
					       cudaEvent_t event)
{
	return cuemu_rt_result(cuGraphExecEventWaitNodeSetEvent(exec, node,
								event));
}

cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t exec, cudaGraphNode_t node,
				    unsigned int isEnabled)
{
	return cuemu_rt_result(cuGraphNodeSetEnabled(exec, node, isEnabled));
}

cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t exec, cudaGraphNode_t node,
				    unsigned int *isEnabled)
{
	return cuemu_rt_result(cuGraphNodeGetEnabled(exec, node, isEnabled));
}

cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t exec,
				  unsigned long long *flags)
{
	return cuemu_rt_result(cuGraphExecGetFlags(exec, (cuuint64_t *)flags));
}

cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path,
				   unsigned int flags)
{
	return cuemu_rt_result(cuGraphDebugDotPrint(graph, path, flags));
}

cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream,
					  cudaGraph_t graph,
					  const cudaGraphNode_t *deps,
					  const cudaGraphEdgeData *edges,
					  size_t n,
					  enum cudaStreamCaptureMode mode)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamBeginCaptureToGraph(
		stream, graph, deps, (const CUgraphEdgeData *)edges, n,
		(CUstreamCaptureMode)mode));
}

/* ------------------------------------------------------ user objects */

cudaError_t cudaUserObjectCreate(cudaUserObject_t *object_out, void *ptr,
				 cudaHostFn_t destroy,
				 unsigned int initialRefcount,
				 unsigned int flags)
{
	RT_BEGIN();
	return cuemu_rt_result(cuUserObjectCreate(object_out, ptr, destroy,
						  initialRefcount, flags));
}

cudaError_t cudaUserObjectRetain(cudaUserObject_t object, unsigned int count)
{
	return cuemu_rt_result(cuUserObjectRetain(object, count));
}

cudaError_t cudaUserObjectRelease(cudaUserObject_t object, unsigned int count)
{
	return cuemu_rt_result(cuUserObjectRelease(object, count));
}

cudaError_t cudaGraphRetainUserObject(cudaGraph_t graph,
				      cudaUserObject_t object,
				      unsigned int count, unsigned int flags)
{
	return cuemu_rt_result(cuGraphRetainUserObject(graph, object, count,
						       flags));
}

cudaError_t cudaGraphReleaseUserObject(cudaGraph_t graph,
				       cudaUserObject_t object,
				       unsigned int count)
{
	return cuemu_rt_result(cuGraphReleaseUserObject(graph, object, count));
}

/* ------------------------------------------ a kernel node's attributes */

cudaError_t cudaGraphKernelNodeGetAttribute(cudaGraphNode_t node,
					    cudaKernelNodeAttrID attr,
					    cudaKernelNodeAttrValue *value_out)
{
	RT_BEGIN();
	return cuemu_rt_result(cuGraphKernelNodeGetAttribute(
		node, (CUkernelNodeAttrID)attr,
		(CUkernelNodeAttrValue *)value_out));
}

cudaError_t cudaGraphKernelNodeSetAttribute(cudaGraphNode_t node,
					    cudaKernelNodeAttrID attr,
					    const cudaKernelNodeAttrValue *value)
{
	RT_BEGIN();
	return cuemu_rt_result(cuGraphKernelNodeSetAttribute(
		node, (CUkernelNodeAttrID)attr,
		(const CUkernelNodeAttrValue *)value));
}

cudaError_t cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t hDst,
					      cudaGraphNode_t hSrc)
{
	return cuemu_rt_result(cuGraphKernelNodeCopyAttributes(hDst, hSrc));
}

cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t exec,
						 cudaGraphNode_t node,
						 cudaGraph_t childGraph)
{
	return cuemu_rt_result(cuGraphExecChildGraphNodeSetParams(exec, node,
								  childGraph));
}
