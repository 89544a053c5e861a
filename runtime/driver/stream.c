/*
 * stream.c - the driver API's stream management entries (cuStreamCreate,
 * WithPriority, Destroy, GetPriority, GetFlags, GetId, GetDevice, GetCtx,
 * Query, Synchronize,
 * WaitEvent), host functions on a stream (cuLaunchHostFunc,
 * cuStreamAddCallback), the stream's attributes (cuStreamSetAttribute,
 * GetAttribute, CopyAttributes) and the stream's model clock
 * (cuemuStreamGetTime).
 * The streams are the stream engine's (model/stream.c).
 *
 * No state; an entry checks its arguments and calls the engine, which
 * takes its own locks.
 */
#include "model/stream.h"
#include "driver/driver.h"
#include "driver/graph.h"

#include <stdlib.h>
#include <string.h>

/* The driver clamps a priority to the device's range, when a stream is
 * made and when its attribute is set. */
static int clamp_priority(int p)
{
	return p > CUEMU_STREAM_PRIORITY_LEAST ? CUEMU_STREAM_PRIORITY_LEAST :
	       p < CUEMU_STREAM_PRIORITY_GREATEST ?
		       CUEMU_STREAM_PRIORITY_GREATEST : p;
}

CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags,
				    int priority)
{
	CUcontext ctx;
	CUresult r;

	if (!phStream)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL stream");
	if (flags & ~(unsigned int)CU_STREAM_NON_BLOCKING)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "stream flags 0x%x are not valid", flags);
	if ((r = cuemu_current(&ctx, NULL)) != CUDA_SUCCESS)
		return r;
	return cuemu_stream_create(ctx, flags, clamp_priority(priority),
				   phStream);
}

CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
	return cuStreamCreateWithPriority(phStream, Flags, 0);
}

CUresult cuStreamDestroy_v2(CUstream hStream)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!hStream || hStream == CU_STREAM_LEGACY ||
	    hStream == CU_STREAM_PER_THREAD)
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE,
				  "an implicit stream cannot be destroyed");
	cuemu_capture_stream_gone(hStream);
	return cuemu_stream_release(hStream);
}

#undef cuStreamDestroy
CUresult cuStreamDestroy(CUstream hStream);
CUresult cuStreamDestroy(CUstream hStream)
{
	return cuStreamDestroy_v2(hStream);
}

CUresult cuStreamGetPriority(CUstream hStream, int *priority)
{
	CUstream s;
	CUresult r;

	if (!priority)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL priority");
	if ((r = cuemu_stream_get(hStream, &s)) != CUDA_SUCCESS)
		return r;
	*priority = cuemu_stream_priority(s);
	return CUDA_SUCCESS;
}

CUresult cuStreamGetFlags(CUstream hStream, unsigned int *flags)
{
	CUstream s;
	CUresult r;

	if (!flags)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL flags");
	if ((r = cuemu_stream_get(hStream, &s)) != CUDA_SUCCESS)
		return r;
	*flags = cuemu_stream_flags(s);
	return CUDA_SUCCESS;
}

/* A stream's id: unique in the process, made in order, never reused
 * (probes/results/streamid.txt: two streams made in turn one apart, the
 * next after a destroy one further; the legacy stream's the same by NULL
 * and CU_STREAM_LEGACY, the per-thread stream one of its own). The
 * driver's own streams take ids libcuemu has no streams for, so ids
 * differ from the H200's by those. */
CUresult cuStreamGetId(CUstream hStream, unsigned long long *streamId)
{
	CUstream s;
	CUresult r;

	if (!streamId)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL streamId");
	if ((r = cuemu_stream_get(hStream, &s)) != CUDA_SUCCESS)
		return r;
	*streamId = cuemu_stream_uid(s);
	return CUDA_SUCCESS;
}

CUresult cuStreamGetDevice(CUstream hStream, CUdevice *device)
{
	CUstream s;
	CUresult r;

	if (!device)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL device");
	if ((r = cuemu_stream_get(hStream, &s)) != CUDA_SUCCESS)
		return r;
	*device = cuemu_stream_device(s);
	return CUDA_SUCCESS;
}

CUresult cuStreamGetCtx(CUstream hStream, CUcontext *pctx)
{
	CUstream s;
	CUresult r;

	if (!pctx)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL context");
	if ((r = cuemu_stream_get(hStream, &s)) != CUDA_SUCCESS)
		return r;
	/* The implicit streams answer the context that is current. */
	if (!cuemu_stream_ctx(s))
		return cuemu_current(pctx, NULL);
	*pctx = cuemu_stream_ctx(s);
	return CUDA_SUCCESS;
}

/* CUDA 13: the stream's context, and its green context (none here). */
CUresult cuStreamGetCtx_v2(CUstream hStream, CUcontext *pCtx,
			   CUgreenCtx *pGreenCtx)
{
	CUresult r = cuStreamGetCtx(hStream, pCtx);

	if (r == CUDA_SUCCESS && pGreenCtx)
		*pGreenCtx = NULL;
	return r;
}

CUresult cuStreamQuery(CUstream hStream)
{
	CUstream s;
	CUresult r;

	if ((r = cuemu_stream_get(hStream, &s)) != CUDA_SUCCESS)
		return r;
	if (cuemu_capturing(hStream))
		return cuemu_capture_sync(hStream, "a query");
	return cuemu_stream_idle(s) ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

CUresult cuStreamSynchronize(CUstream hStream)
{
	CUstream s;
	CUresult r;

	if ((r = cuemu_stream_get(hStream, &s)) != CUDA_SUCCESS ||
	    (r = cuemu_capture_sync(hStream, "a synchronization")) !=
		    CUDA_SUCCESS ||
	    (r = cuemu_stream_sync(s)) != CUDA_SUCCESS)
		return r;
	cuemu_host_synced();
	/* a kernel of the stream's context that failed answers here */
	if (cuemu_stream_ctx(s))
		return cuemu_ctx_sticky(cuemu_stream_ctx(s));
	return cuemu_current(NULL, NULL);
}

CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent,
			   unsigned int Flags)
{
	bool taken;
	CUresult r;

	if (Flags & ~(unsigned int)CU_EVENT_WAIT_EXTERNAL)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "wait flags 0x%x are not valid", Flags);
	r = cuemu_capture_wait(hStream, hEvent, Flags, &taken);
	return taken ? r : cuemu_stream_wait_event(hStream, hEvent);
}

CUresult cuemuStreamGetTime(CUstream s, unsigned long long *ns)
{
	CUstream st;
	CUresult r;

	if (!ns)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL time");
	if ((r = cuemu_stream_get(s, &st)) != CUDA_SUCCESS)
		return r;
	*ns = cuemu_stream_now(st);
	return CUDA_SUCCESS;
}

/* ---------------------------------------------------------------- host work */

struct host_call {
	CUhostFn fn;
	CUstreamCallback cb;
	CUstream handle;         /* as the caller named the stream */
	void *user;
};

static void host_call_op(CUstream s, void *arg)
{
	struct host_call c = *(struct host_call *)arg;

	/* Freed before the user's function runs: a function that blocks
	 * across a fork then leaves nothing behind in the child. */
	free(arg);
	if (c.fn)
		c.fn(c.user);
	else
		c.cb(c.handle, CUDA_SUCCESS, c.user);
}

/* A host function on a capturing stream: a host node of its graph. */
static CUresult capture_host(CUstream h, struct host_call c)
{
	CUgraphNode n;
	CUresult r;

	if ((r = cuemu_capture_node(h, CU_GRAPH_NODE_TYPE_HOST, &n)) ==
	    CUDA_SUCCESS)
		n->p.host = (CUDA_HOST_NODE_PARAMS){ c.fn, c.user };
	return r;
}

static CUresult enqueue_host(CUstream h, struct host_call c)
{
	struct host_call *p;
	CUstream s;
	CUresult r;

	if ((r = cuemu_stream_get(h, &s)) != CUDA_SUCCESS)
		return r;
	if (c.fn && cuemu_capturing(h))
		return capture_host(h, c);
	if (!(p = malloc(sizeof *p)))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "host function");
	*p = c;
	if ((r = cuemu_stream_enqueue_user(s, host_call_op, p)) !=
	    CUDA_SUCCESS)
		free(p);
	return r;
}

CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData)
{
	if (!fn)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL host function");
	return enqueue_host(hStream, (struct host_call){
		.fn = fn, .handle = hStream, .user = userData });
}

CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback,
			     void *userData, unsigned int flags)
{
	if (!callback)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL callback");
	if (flags != 0)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "callback flags must be 0, not %u", flags);
	return enqueue_host(hStream, (struct host_call){
		.cb = callback, .handle = hStream, .user = userData });
}


CUresult cuemuStreamSleep(CUstream s, unsigned long long ns)
{
	CUstream st;
	CUresult r;

	if ((r = cuemu_stream_get(s, &st)) != CUDA_SUCCESS)
		return r;
	return cuemu_stream_sleep(st, ns);
}

/* ------------------------------------------------------------ attributes */

CUresult cuemu_attr_common_check(CUlaunchAttributeID id,
				 const CUlaunchAttributeValue *v, int dev)
{
	int max = 0;

	if (id == CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW) {
		cuDeviceGetAttribute(&max,
			CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE, dev);
		if (!(v->accessPolicyWindow.hitRatio >= 0.0f &&
		      v->accessPolicyWindow.hitRatio <= 1.0f) ||
		    v->accessPolicyWindow.num_bytes > (size_t)max)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "access policy window: hit ratio 0 "
					  "to 1, at most %d bytes", max);
		return CUDA_SUCCESS;
	}
	if (id == CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN) {
		if ((unsigned)v->memSyncDomain > CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "memory sync domain %d",
					  (int)v->memSyncDomain);
		return CUDA_SUCCESS;
	}
	if (id == CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE) {
		if ((unsigned)v->clusterSchedulingPolicyPreference >
		    CU_CLUSTER_SCHEDULING_POLICY_LOAD_BALANCING)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "cluster scheduling policy %d",
					  (int)v->clusterSchedulingPolicyPreference);
		return CUDA_SUCCESS;
	}
	if (id == CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT) {
		if (v->sharedMemCarveout > 100)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "carveout %u: 0 to 100 percent",
					  v->sharedMemCarveout);
		return CUDA_SUCCESS;
	}
	cuDeviceGetAttribute(&max, CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT,
			     dev);
	if (v->memSyncDomainMap.default_ >= max ||
	    v->memSyncDomainMap.remote >= max)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "memory sync domains 0 to %d", max - 1);
	return CUDA_SUCCESS;
}

/* A stream attribute's value checked as the driver checks it
 * (probes/results/library.txt): the access policy window's hit ratio 0 to
 * 1 and its size at most the device's window (any hit or miss property,
 * any base), a synchronization policy of the four, domain 0 or 1, a map
 * into the device's domains. */
static CUresult sattr_check(CUstream s, CUstreamAttrID id,
			    const CUstreamAttrValue *v)
{
	int dev = 0;

	/* an implicit stream is the current context's device's */
	if (cuemu_stream_ctx(s))
		dev = cuemu_ctx_device(cuemu_stream_ctx(s));
	else if (cuemu_current(NULL, &dev) != CUDA_SUCCESS)
		dev = 0;

	switch (id) {
	case CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW:
		return cuemu_attr_common_check(id, v, dev);
	case CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY:
		if (v->syncPolicy < CU_SYNC_POLICY_AUTO ||
		    v->syncPolicy > CU_SYNC_POLICY_BLOCKING_SYNC)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "synchronization policy %d",
					  (int)v->syncPolicy);
		return CUDA_SUCCESS;
	case CU_STREAM_ATTRIBUTE_PRIORITY:
		return CUDA_SUCCESS; /* clamped to the range */
	case CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN:
	case CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
		return cuemu_attr_common_check(id, v, dev);
	default:
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "attribute %d is no stream's", (int)id);
	}
}

CUresult cuStreamSetAttribute(CUstream hStream, CUstreamAttrID attr,
			      const CUstreamAttrValue *value)
{
	struct cuemu_stream_attrs a;
	CUstream s;
	CUresult r;

	/* the driver crashes on a NULL value; refuse it */
	if (!value)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "value is NULL");
	if ((r = cuemu_stream_get(hStream, &s)) != CUDA_SUCCESS ||
	    (r = sattr_check(s, attr, value)) != CUDA_SUCCESS)
		return r;
	if (attr == CU_STREAM_ATTRIBUTE_PRIORITY) {
		cuemu_stream_set_priority(s, clamp_priority(value->priority));
		return CUDA_SUCCESS;
	}
	cuemu_stream_attrs_get(s, &a);
	if (attr == CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW)
		a.window = value->accessPolicyWindow;
	else if (attr == CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY)
		a.sync_policy = (int)value->syncPolicy;
	else if (attr == CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN)
		a.domain = value->memSyncDomain;
	else
		a.domain_map = value->memSyncDomainMap;
	cuemu_stream_attrs_set(s, &a);
	return CUDA_SUCCESS;
}

/* Writes only the member the attribute names, as the driver does. */
CUresult cuStreamGetAttribute(CUstream hStream, CUstreamAttrID attr,
			      CUstreamAttrValue *value_out)
{
	struct cuemu_stream_attrs a;
	CUstream s;
	CUresult r;

	if (!value_out)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "value is NULL");
	if ((r = cuemu_stream_get(hStream, &s)) != CUDA_SUCCESS)
		return r;
	cuemu_stream_attrs_get(s, &a);
	switch (attr) {
	case CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW:
		value_out->accessPolicyWindow = a.window;
		return CUDA_SUCCESS;
	case CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY:
		memcpy(&value_out->syncPolicy, &a.sync_policy,
		       sizeof a.sync_policy);
		return CUDA_SUCCESS;
	case CU_STREAM_ATTRIBUTE_PRIORITY:
		value_out->priority = cuemu_stream_priority(s);
		return CUDA_SUCCESS;
	case CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN:
		value_out->memSyncDomain = a.domain;
		return CUDA_SUCCESS;
	case CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
		value_out->memSyncDomainMap = a.domain_map;
		return CUDA_SUCCESS;
	default:
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "attribute %d is no stream's", (int)attr);
	}
}

CUresult cuStreamCopyAttributes(CUstream dst, CUstream src)
{
	struct cuemu_stream_attrs a;
	CUstream d, s;
	CUresult r;

	if ((r = cuemu_stream_get(dst, &d)) != CUDA_SUCCESS ||
	    (r = cuemu_stream_get(src, &s)) != CUDA_SUCCESS)
		return r;
	cuemu_stream_attrs_get(s, &a);
	cuemu_stream_attrs_set(d, &a);
	cuemu_stream_set_priority(d, cuemu_stream_priority(s));
	return CUDA_SUCCESS;
}
