/*
 * context.c - the driver API's context management entries: created
 * contexts (cuCtxCreate in every version, cuCtxDestroy), the current
 * context and the thread's stack (Set/Get/Push/Pop), cuCtxGetDevice,
 * cuCtxSynchronize, peer access between contexts, and primary contexts
 * (cuDevicePrimaryCtx*). The contexts themselves are model/context.c's.
 *
 * Locking: an entry checks its arguments, then changes contexts under the
 * process lock (cuemu_lock). Synchronizing calls (cuCtxSynchronize,
 * cuCtxDestroy, cuDevicePrimaryCtxReset) wait for streams without holding
 * it.
 */
#include "model/context.h"
#include "model/kheap.h"
#include "model/array.h"
#include "model/module.h"
#include "model/texobj.h"
#include "model/uvm.h"
#include "driver/graph.h"
#include "driver/driver.h"

/* Flags a context accepts: scheduling (one of them), MAP_HOST, the local
 * memory and coredump bits, SYNC_MEMOPS. */
#define CTX_FLAGS_MASK 0xffu

/* ---------------------------------------------------------------- contexts */

/* Flags are the scheduling choice (one of AUTO, SPIN, YIELD, BLOCKING_SYNC)
 * plus independent bits. */
static CUresult check_ctx_flags(unsigned int flags)
{
	unsigned int sched = flags & CU_CTX_SCHED_MASK;

	if ((flags & ~CTX_FLAGS_MASK) ||
	    (sched != CU_CTX_SCHED_AUTO && sched != CU_CTX_SCHED_SPIN &&
	     sched != CU_CTX_SCHED_YIELD && sched != CU_CTX_SCHED_BLOCKING_SYNC))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "context flags 0x%x are not valid", flags);
	return CUDA_SUCCESS;
}

static CUresult push(CUcontext ctx)
{
	if (!cuemu_ctx_push(ctx))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "context stack is %d deep",
				  CUEMU_CTX_STACK_MAX);
	return CUDA_SUCCESS;
}

CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams,
			unsigned int flags, CUdevice dev)
{
	CUcontext c;
	CUresult r;

	if (!pctx)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL context");
	if ((r = cuemu_check_dev(dev)) != CUDA_SUCCESS ||
	    (r = check_ctx_flags(flags)) != CUDA_SUCCESS)
		return r;
	if (ctxCreateParams && (ctxCreateParams->numExecAffinityParams ||
				ctxCreateParams->cigParams))
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED, "execution affinity "
				  "and CIG contexts are not emulated");
	if (cuemu_ctx_stack_full())
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "context stack is %d deep",
				  CUEMU_CTX_STACK_MAX);
	cuemu_lock();
	c = cuemu_ctx_new(dev, flags);
	/* a context holds its stacks' memory from the start (stackmem.c) */
	if (c && cuemu_stack_reserve(c, cuemu_ctx_limit(c, CU_LIMIT_STACK_SIZE))) {
		cuemu_ctx_kill(c);
		cuemu_unlock();
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	cuemu_unlock();
	if (!c)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "context");
	push(c);
	cuemu_host_advance(cuemu_uvm()->ctx_create_ns);
	cuemu_event_log("context", "create dev=%d", dev);
	*pctx = c;
	return CUDA_SUCCESS;
}

/* The names of older headers; real libcuda still exports them. */
#undef cuCtxCreate
CUresult cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev);
CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev);
CUresult cuCtxCreate_v3(CUcontext *pctx, CUexecAffinityParam *paramsArray,
			int numParams, unsigned int flags, CUdevice dev);

CUresult cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
	return cuCtxCreate_v4(pctx, NULL, flags, dev);
}

CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
	return cuCtxCreate_v4(pctx, NULL, flags, dev);
}

CUresult cuCtxCreate_v3(CUcontext *pctx, CUexecAffinityParam *paramsArray,
			int numParams, unsigned int flags, CUdevice dev)
{
	CUctxCreateParams p = {
		.execAffinityParams = paramsArray,
		.numExecAffinityParams = numParams,
	};

	return cuCtxCreate_v4(pctx, numParams ? &p : NULL, flags, dev);
}

CUresult cuCtxDestroy_v2(CUcontext ctx)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!ctx || cuemu_ctx_is_primary(ctx))
		return cuemu_fail(CUDA_ERROR_INVALID_CONTEXT, ctx ?
				  "a primary context is released, not destroyed"
				  : "NULL context");
	if (!cuemu_ctx_valid(ctx))
		return cuemu_fail(CUDA_ERROR_INVALID_CONTEXT,
				  "context %p is not alive", (void *)ctx);
	/* Its work finishes first: nothing may run on a dead context. */
	cuemu_ctx_streams_destroy(ctx);
	/* its modules go with it (libraries load again where asked), and
	 * its device heap */
	cuemu_module_destroy_ctx(ctx);
	cuemu_kheap_forget(ctx, true);
	/* its texture and surface objects (a later context may reuse the
	 * handle) */
	cuemu_ctx_free_texobjs(ctx);
	cuemu_lock();
	cuemu_stack_release(ctx);
	cuemu_ctx_kill(ctx);
	cuemu_unlock();
	cuemu_ctx_unstack(ctx);
	cuemu_host_advance(cuemu_uvm()->ctx_destroy_ns);
	cuemu_event_log("context", "destroy dev=%d", cuemu_ctx_device(ctx));
	return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext ctx)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	/* The driver: NULL pops the top, if there is one. */
	if (ctx && !cuemu_ctx_valid(ctx))
		return cuemu_fail(CUDA_ERROR_INVALID_CONTEXT,
				  "context %p is not alive", (void *)ctx);
	cuemu_ctx_replace_top(ctx);
	return CUDA_SUCCESS;
}

CUresult cuCtxGetCurrent(CUcontext *pctx)
{
	CUresult r;

	if (!pctx)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL context");
	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	*pctx = cuemu_ctx_top();
	return CUDA_SUCCESS;
}

CUresult cuCtxPushCurrent_v2(CUcontext ctx)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!ctx || !cuemu_ctx_valid(ctx))
		return cuemu_fail(CUDA_ERROR_INVALID_CONTEXT,
				  "context %p is not alive", (void *)ctx);
	return push(ctx);
}

CUresult cuCtxPopCurrent_v2(CUcontext *pctx)
{
	CUcontext c;
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!cuemu_ctx_top())
		return cuemu_fail(CUDA_ERROR_INVALID_CONTEXT,
				  "the context stack is empty");
	c = cuemu_ctx_pop();
	if (pctx)
		*pctx = c;
	return CUDA_SUCCESS;
}

#undef cuCtxDestroy
#undef cuCtxPushCurrent
#undef cuCtxPopCurrent
CUresult cuCtxDestroy(CUcontext ctx);
CUresult cuCtxPushCurrent(CUcontext ctx);
CUresult cuCtxPopCurrent(CUcontext *pctx);

CUresult cuCtxDestroy(CUcontext ctx)
{
	return cuCtxDestroy_v2(ctx);
}

CUresult cuCtxPushCurrent(CUcontext ctx)
{
	return cuCtxPushCurrent_v2(ctx);
}

CUresult cuCtxPopCurrent(CUcontext *pctx)
{
	return cuCtxPopCurrent_v2(pctx);
}

CUresult cuCtxGetDevice(CUdevice *device)
{
	CUresult r;
	int dev;

	if (!device)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL device");
	if ((r = cuemu_current(NULL, &dev)) != CUDA_SUCCESS)
		return r;
	*device = dev;
	return CUDA_SUCCESS;
}

/* CUDA 13: the device of ctx, or of the current context when ctx is NULL. */
CUresult cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx)
{
	CUresult r;

	if (!ctx)
		return cuCtxGetDevice(device);
	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!device)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL device");
	if (!cuemu_ctx_valid(ctx))
		return cuemu_fail(CUDA_ERROR_INVALID_CONTEXT,
				  "context %p does not exist", (void *)ctx);
	*device = cuemu_ctx_device(ctx);
	return CUDA_SUCCESS;
}

/* CUDA 13: synchronizes ctx, or the current context when ctx is NULL. */
CUresult cuCtxSynchronize_v2(CUcontext ctx)
{
	CUresult r;

	if (!ctx)
		return cuCtxSynchronize();
	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!cuemu_ctx_valid(ctx))
		return cuemu_fail(CUDA_ERROR_INVALID_CONTEXT,
				  "context %p does not exist", (void *)ctx);
	if ((r = cuemu_capture_ctx_sync()) != CUDA_SUCCESS ||
	    (r = cuemu_ctx_sync(ctx)) != CUDA_SUCCESS)
		return r;
	cuemu_host_synced();
	return cuemu_ctx_sticky(ctx);
}

CUresult cuCtxSynchronize(void)
{
	CUcontext c;
	CUresult r;

	if ((r = cuemu_current(&c, NULL)) != CUDA_SUCCESS ||
	    (r = cuemu_capture_ctx_sync()) != CUDA_SUCCESS)
		return r;
	if ((r = cuemu_ctx_sync(c)) != CUDA_SUCCESS)
		return r;
	cuemu_host_synced();
	/* a kernel that failed meanwhile answers here first */
	return cuemu_ctx_sticky(c);
}

/* The API version every context of the real CUDA 13 driver answers
 * (probes/results/ctx.txt: ctx.apiversion). */
#define CTX_API_VERSION 3020

/* *ctx, or the current context when *ctx is NULL, checked to exist: the
 * order in which cuCtxGetApiVersion checks, and cuCtxGetId once its
 * id pointer is known good. */
static CUresult ctx_or_current(CUcontext *ctx)
{
	CUresult r;

	if (!*ctx && (r = cuemu_current(ctx, NULL)) != CUDA_SUCCESS)
		return r;
	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!cuemu_ctx_valid(*ctx))
		return cuemu_fail(CUDA_ERROR_INVALID_CONTEXT,
				  "context %p does not exist", (void *)*ctx);
	return CUDA_SUCCESS;
}

CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version)
{
	CUresult r = ctx_or_current(&ctx);

	if (r != CUDA_SUCCESS)
		return r;
	if (!version)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL version");
	*version = CTX_API_VERSION;
	return CUDA_SUCCESS;
}

/* Unlike cuCtxGetApiVersion, a NULL id is refused before the context is
 * looked at (probes/results/ctxid.txt). */
CUresult cuCtxGetId(CUcontext ctx, unsigned long long *ctxId)
{
	CUresult r = cuemu_check_init();

	if (r != CUDA_SUCCESS)
		return r;
	if (!ctxId)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL id");
	if ((r = ctx_or_current(&ctx)) != CUDA_SUCCESS)
		return r;
	*ctxId = cuemu_ctx_id(ctx);
	return CUDA_SUCCESS;
}

/* The range cuStreamCreateWithPriority clamps to (driver/stream.c), as the
 * real driver answers it (probes/results/ctx.txt: ctx.priority_range).
 * Either pointer may be NULL. */
CUresult cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)) != CUDA_SUCCESS)
		return r;
	if (leastPriority)
		*leastPriority = CUEMU_STREAM_PRIORITY_LEAST;
	if (greatestPriority)
		*greatestPriority = CUEMU_STREAM_PRIORITY_GREATEST;
	return CUDA_SUCCESS;
}

/* ---------------------------------------------------------------- peers */

/* The current context and a live peer context on another device that a
 * link reaches. */
static CUresult peer_pair(CUcontext peer, CUcontext *cur)
{
	CUresult r;

	if ((r = cuemu_current(cur, NULL)) != CUDA_SUCCESS)
		return r;
	if (!peer || !cuemu_ctx_valid(peer))
		return cuemu_fail(CUDA_ERROR_INVALID_CONTEXT,
				  "peer context %p is not alive", (void *)peer);
	/* The driver answers PEER_ACCESS_UNSUPPORTED for the context itself
	 * (probes/results/ctx.txt), and so for any context of its device. */
	if (cuemu_ctx_device(peer) == cuemu_ctx_device(*cur))
		return cuemu_fail(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED,
				  "the peer context is on the current context's "
				  "device %d", cuemu_ctx_device(peer));
	if (!cuemu_peer_link(cuemu_ctx_device(*cur), cuemu_ctx_device(peer)))
		return cuemu_fail(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED,
				  "no link between device %d and device %d",
				  cuemu_ctx_device(*cur), cuemu_ctx_device(peer));
	return CUDA_SUCCESS;
}

CUresult cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags)
{
	CUcontext cur;
	CUresult r;
	int from, to;

	if (Flags != 0)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "peer access flags must be 0, not %u", Flags);
	if ((r = peer_pair(peerContext, &cur)) != CUDA_SUCCESS)
		return r;
	from = cuemu_ctx_device(cur);
	to = cuemu_ctx_device(peerContext);
	cuemu_lock();
	if (cuemu_ctx_has_peer(cur, to))
		r = cuemu_fail(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED,
			       "device %d already reaches device %d", from, to);
	else
		cuemu_ctx_set_peer(cur, to, true);
	cuemu_unlock();
	if (r == CUDA_SUCCESS)
		cuemu_event_log("peer", "enable gpu%d->gpu%d", from, to);
	return r;
}

CUresult cuCtxDisablePeerAccess(CUcontext peerContext)
{
	CUcontext cur;
	CUresult r;
	int from, to;

	if ((r = peer_pair(peerContext, &cur)) != CUDA_SUCCESS)
		return r;
	from = cuemu_ctx_device(cur);
	to = cuemu_ctx_device(peerContext);
	cuemu_lock();
	if (!cuemu_ctx_has_peer(cur, to))
		r = cuemu_fail(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED,
			       "device %d does not reach device %d", from, to);
	else
		cuemu_ctx_set_peer(cur, to, false);
	cuemu_unlock();
	if (r == CUDA_SUCCESS)
		cuemu_event_log("peer", "disable gpu%d->gpu%d", from, to);
	return r;
}

/* ---------------------------------------------------------------- primary */

CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
	CUresult r;
	bool made;

	if (!pctx)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL context");
	if ((r = cuemu_check_dev(dev)) != CUDA_SUCCESS)
		return r;
	cuemu_lock();
	made = cuemu_primary_retain(dev) == 0;
	if (made) {
		/* its stacks' memory, as a created context's; where it does
		 * not fit, the first launch asks again and fails (stackmem.c) */
		CUcontext p = cuemu_primary_ctx(dev);
		(void)cuemu_stack_reserve(p, cuemu_ctx_limit(p, CU_LIMIT_STACK_SIZE));
		cuemu_event_log("context", "primary active dev=%d", dev);
	}
	cuemu_unlock();
	/* the first retain makes the context, as cuCtxCreate does */
	if (made)
		cuemu_host_advance(cuemu_uvm()->ctx_create_ns);
	*pctx = cuemu_primary_ctx(dev);
	return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
	CUresult r;
	int released;

	if ((r = cuemu_check_dev(dev)) != CUDA_SUCCESS)
		return r;
	cuemu_lock();
	released = cuemu_primary_release(dev);
	cuemu_unlock();
	if (released < 0)
		return cuemu_fail(CUDA_ERROR_INVALID_CONTEXT,
				  "primary context of device %d is not retained",
				  dev);
	if (released) {
		/* Like the driver, the last release tears the context down:
		 * its streams finish and go, its texture and surface objects
		 * go, its peer access ends. */
		cuemu_ctx_streams_destroy(cuemu_primary_ctx(dev));
		cuemu_module_destroy_ctx(cuemu_primary_ctx(dev));
		cuemu_kheap_forget(cuemu_primary_ctx(dev), false);
		cuemu_ctx_free_texobjs(cuemu_primary_ctx(dev));
		cuemu_lock();
		if (!cuemu_primary_retained(dev)) {
			cuemu_ctx_clear_peers(cuemu_primary_ctx(dev));
			cuemu_stack_release(cuemu_primary_ctx(dev));
		}
		cuemu_unlock();
		cuemu_host_advance(cuemu_uvm()->ctx_destroy_ns);
		cuemu_event_log("context", "primary inactive dev=%d", dev);
	}
	return r;
}

CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev)
{
	size_t freed;
	CUresult r;

	if ((r = cuemu_check_dev(dev)) != CUDA_SUCCESS)
		return r;
	/* Work in flight finishes; the context keeps its handle and its
	 * retain count but loses its state (flags, peer access, limits) and
	 * every allocation made in it, as the driver documents. */
	cuemu_ctx_streams_destroy(cuemu_primary_ctx(dev));
	cuemu_module_destroy_ctx(cuemu_primary_ctx(dev));
	cuemu_kheap_forget(cuemu_primary_ctx(dev), false);
	freed = cuemu_ctx_free_memory(cuemu_primary_ctx(dev));
	freed += cuemu_ctx_free_arrays(cuemu_primary_ctx(dev));
	freed += cuemu_ctx_free_texobjs(cuemu_primary_ctx(dev));
	cuemu_lock();
	cuemu_ctx_clear_peers(cuemu_primary_ctx(dev));
	cuemu_ctx_set_flags(cuemu_primary_ctx(dev), 0);
	cuemu_ctx_reset_settings(cuemu_primary_ctx(dev));
	/* the default stack's memory again (stackmem.c); where it does not
	 * fit, the first launch asks again */
	if (cuemu_primary_retained(dev))
		(void)cuemu_stack_reserve(cuemu_primary_ctx(dev), cuemu_ctx_limit(
			cuemu_primary_ctx(dev), CU_LIMIT_STACK_SIZE));
	else
		cuemu_stack_release(cuemu_primary_ctx(dev));
	cuemu_unlock();
	cuemu_event_log("context", "primary reset dev=%d freed=%zu", dev,
			freed);
	return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags,
				    int *active)
{
	CUresult r;

	if (!flags || !active)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL out");
	if ((r = cuemu_check_dev(dev)) != CUDA_SUCCESS)
		return r;
	cuemu_lock();
	*flags = cuemu_ctx_flags(cuemu_primary_ctx(dev));
	*active = cuemu_ctx_valid(cuemu_primary_ctx(dev));
	cuemu_unlock();
	return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags)
{
	CUresult r;

	if ((r = cuemu_check_dev(dev)) != CUDA_SUCCESS ||
	    (r = check_ctx_flags(flags)) != CUDA_SUCCESS)
		return r;
	cuemu_lock();
	cuemu_ctx_set_flags(cuemu_primary_ctx(dev), flags);
	cuemu_unlock();
	return CUDA_SUCCESS;
}

/* The names before CUDA 11; real libcuda still exports them. */
#undef cuDevicePrimaryCtxRelease
#undef cuDevicePrimaryCtxReset
#undef cuDevicePrimaryCtxSetFlags
CUresult cuDevicePrimaryCtxRelease(CUdevice dev);
CUresult cuDevicePrimaryCtxReset(CUdevice dev);
CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags);

CUresult cuDevicePrimaryCtxRelease(CUdevice dev)
{
	return cuDevicePrimaryCtxRelease_v2(dev);
}

CUresult cuDevicePrimaryCtxReset(CUdevice dev)
{
	return cuDevicePrimaryCtxReset_v2(dev);
}

CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags)
{
	/* Before 11.0 the driver refused flags on an active context. */
	unsigned int cur;
	int active;
	CUresult r = cuDevicePrimaryCtxGetState(dev, &cur, &active);

	if (r != CUDA_SUCCESS)
		return r;
	if (active)
		return cuemu_fail(CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE,
				  "primary context of device %d is active", dev);
	return cuDevicePrimaryCtxSetFlags_v2(dev, flags);
}
