/*
 * context.c - cuInit, devices, primary and created contexts, each thread's
 * context stack, and peer access between contexts.
 *
 * A context here is a device, the flags it was made with and the peers it
 * may access; its streams live in stream.c and its memory in the subsystems
 * that allocated it. Primary contexts are one static object per device whose
 * handle never changes (as the driver's). Created contexts live on a list
 * that only grows: a destroyed one is marked dead and its slot reused by a
 * later cuCtxCreate, so a stale handle is found dead, never dereferenced
 * after a free, and the list can be read without a lock.
 *
 * Locking: contexts are created, destroyed, retained and released under the
 * process lock (cuemu_lock, defined here). alive, refs and peers are read
 * with atomics, so that cuemu_current, cuemu_ctx_valid and
 * cuemu_peer_enabled take no lock and may be called with it held. The
 * context stack is per thread and needs no lock. Synchronizing calls (cuCtxSynchronize, cuCtxDestroy,
 * cuDevicePrimaryCtxReset) wait for streams without holding it.
 */
#include "model/internal.h"

#include <stdlib.h>
#include <string.h>

struct CUctx_st {
	int dev;
	unsigned int flags;
	bool alive;              /* atomic: created and not destroyed */
	unsigned int refs;       /* primary: retain count (active while > 0) */
	uint32_t peers;          /* atomic: devices this context may reach */
	struct CUctx_st *next;   /* created contexts: immutable once listed */
};

/* The process lock. Global because a CUDA context is process-wide state
 * the API carries no handle for: every thread's calls share one address
 * space, one set of allocations and one set of contexts. */
static pthread_mutex_t process_lock = PTHREAD_MUTEX_INITIALIZER;

/* cuInit has succeeded: process-wide, as the driver's initialization is. */
static bool initialized;

/* One primary context per device, and the contexts made by cuCtxCreate.
 * Global for the same reason as the lock; guarded by it. */
static struct CUctx_st primaries[CUEMU_MAX_DEVICES];
static struct CUctx_st *created;

/* Each thread's context stack (the driver keeps one per CPU thread). */
#define CTX_STACK_MAX 64
static __thread CUcontext ctx_stack[CTX_STACK_MAX];
static __thread int ctx_depth;

/* Flags a context accepts: scheduling (one of them), MAP_HOST, the local
 * memory and coredump bits, SYNC_MEMOPS. */
#define CTX_FLAGS_MASK 0xffu

/* fork() while another thread holds the process lock would leave the
 * child's copy locked for ever: fork waits for it instead. */
static void fork_prepare(void)
{
	pthread_mutex_lock(&process_lock);
}

static void fork_done(void)
{
	pthread_mutex_unlock(&process_lock);
}

void cuemu_lock(void)
{
	pthread_mutex_lock(&process_lock);
}

void cuemu_unlock(void)
{
	pthread_mutex_unlock(&process_lock);
}

CUresult cuemu_check_init(void)
{
	if (!__atomic_load_n(&initialized, __ATOMIC_ACQUIRE))
		return cuemu_fail(CUDA_ERROR_NOT_INITIALIZED,
				  "cuInit has not been called");
	return CUDA_SUCCESS;
}

/* ---------------------------------------------------------------- init */

CUresult cuInit(unsigned int Flags)
{
	static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
	const char *ctl = getenv("CUEMU_CONTROL");
	CUresult r = CUDA_SUCCESS;

	if (Flags != 0)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "cuInit flags must be 0, not %u", Flags);
	pthread_mutex_lock(&init_lock);
	if (initialized)
		goto out;
	if (cuemu_machine_attach() < 0) {
		r = cuemu_fail(CUDA_ERROR_NO_DEVICE, "no machine: %s",
			       cuemu_errmsg());
		goto out;
	}
	for (int d = 0; d < CUEMU_MAX_DEVICES; d++)
		primaries[d].dev = d;
	pthread_atfork(fork_prepare, fork_done, fork_done);
	/* The control server is how cufs sees this process; a process that
	 * asks not to be seen (benchmarks, some tests) sets CUEMU_CONTROL=0. */
	if (!(ctl && strcmp(ctl, "0") == 0) && cuemu_control_start() < 0)
		cuemu_debug("control server not started: %s", cuemu_errmsg());
	__atomic_store_n(&initialized, true, __ATOMIC_RELEASE);
out:
	pthread_mutex_unlock(&init_lock);
	return r;
}

CUresult cuDriverGetVersion(int *driverVersion)
{
	if (!driverVersion)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL version");
	*driverVersion = 13000;
	return CUDA_SUCCESS;
}

/* ---------------------------------------------------------------- devices */

/* Initialized, and dev names a device of the machine. */
static CUresult check_dev(CUdevice dev)
{
	CUresult r = cuemu_check_init();

	if (r != CUDA_SUCCESS)
		return r;
	if (dev < 0 || dev >= cuemu_device_count())
		return cuemu_fail(CUDA_ERROR_INVALID_DEVICE,
				  "device %d does not exist (%d devices)", dev,
				  cuemu_device_count());
	return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
	CUresult r;

	if (!device)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL device");
	if ((r = check_dev(ordinal)) != CUDA_SUCCESS)
		return r;
	*device = ordinal;
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count)
{
	CUresult r;

	if (!count)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL count");
	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	*count = cuemu_device_count();
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
	CUresult r;

	if (!name)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL name");
	if ((r = check_dev(dev)) != CUDA_SUCCESS)
		return r;
	/* The driver truncates to len - 1 bytes and answers success for a
	 * negative len, writing nothing. */
	if (len > 0)
		snprintf(name, (size_t)len, "%s", cuemu_device(dev)->name);
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
	CUresult r;

	if (!uuid)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL uuid");
	if ((r = check_dev(dev)) != CUDA_SUCCESS)
		return r;
	memcpy(uuid->bytes, cuemu_device(dev)->uuid, sizeof uuid->bytes);
	return CUDA_SUCCESS;
}

/* The pre-11.4 name; real libcuda still exports it. */
#undef cuDeviceGetUuid
CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev);
CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
	return cuDeviceGetUuid_v2(uuid, dev);
}

CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
	CUresult r;
	int v;

	if (!pi)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL value");
	if ((r = check_dev(dev)) != CUDA_SUCCESS)
		return r;
	if ((int)attrib < 0 || (size_t)attrib >= sizeof cuemu_device(dev)->attrs /
					  sizeof(int))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "attribute %d is not a device attribute",
				  (int)attrib);
	v = cuemu_device(dev)->attrs[attrib];
	if (v == CUEMU_ATTR_UNKNOWN)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "attribute %d is not a device attribute",
				  (int)attrib);
	*pi = v;
	return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
	CUresult r;

	if (!bytes)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL bytes");
	if ((r = check_dev(dev)) != CUDA_SUCCESS)
		return r;
	*bytes = cuemu_device(dev)->total;
	return CUDA_SUCCESS;
}

/* The 32-bit-era name; real libcuda still exports it. */
#undef cuDeviceTotalMem
CUresult cuDeviceTotalMem(unsigned int *bytes, CUdevice dev);
CUresult cuDeviceTotalMem(unsigned int *bytes, CUdevice dev)
{
	size_t b;
	CUresult r = cuDeviceTotalMem_v2(&b, dev);

	if (r == CUDA_SUCCESS)
		*bytes = b > 0xffffffffu ? 0xffffffffu : (unsigned int)b;
	return r;
}

/* Two different devices joined by a link the topology knows. */
static bool peer_link(int a, int b)
{
	const struct cuemu_link *l = cuemu_link(a, b);

	return a != b && l && l->kind != 0;
}

CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev,
			       CUdevice peerDev)
{
	CUresult r;

	if (!canAccessPeer)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL result");
	if ((r = check_dev(dev)) != CUDA_SUCCESS ||
	    (r = check_dev(peerDev)) != CUDA_SUCCESS)
		return r;
	*canAccessPeer = peer_link(dev, peerDev);
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetP2PAttribute(int *value, CUdevice_P2PAttribute attrib,
				 CUdevice srcDevice, CUdevice dstDevice)
{
	CUresult r;
	bool p2p;

	if (!value)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL value");
	if ((r = check_dev(srcDevice)) != CUDA_SUCCESS ||
	    (r = check_dev(dstDevice)) != CUDA_SUCCESS)
		return r;
	if (srcDevice == dstDevice)
		return cuemu_fail(CUDA_ERROR_INVALID_DEVICE,
				  "P2P attribute of device %d with itself",
				  srcDevice);
	p2p = peer_link(srcDevice, dstDevice);
	switch (attrib) {
	case CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK:
		*value = 0;
		break;
	case CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED:
	case CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED:
	case CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED:
		*value = p2p;
		break;
	default:
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "unknown P2P attribute %d", (int)attrib);
	}
	return CUDA_SUCCESS;
}

/* ---------------------------------------------------------------- contexts */

static bool is_primary(CUcontext ctx)
{
	return ctx >= primaries && ctx < primaries + CUEMU_MAX_DEVICES;
}

/* Takes no lock: the list only grows and a listed node never changes its
 * next pointer. */
bool cuemu_ctx_valid(CUcontext ctx)
{
	if (!ctx)
		return false;
	if (is_primary(ctx))
		return __atomic_load_n(&ctx->refs, __ATOMIC_ACQUIRE) > 0;
	for (struct CUctx_st *c = __atomic_load_n(&created, __ATOMIC_ACQUIRE);
	     c; c = c->next)
		if (c == ctx)
			return __atomic_load_n(&c->alive, __ATOMIC_ACQUIRE);
	return false;
}

int cuemu_ctx_device(CUcontext ctx)
{
	return ctx ? ctx->dev : -1;
}

CUcontext cuemu_primary_ctx(int dev)
{
	if (dev < 0 || dev >= CUEMU_MAX_DEVICES)
		return NULL;
	return &primaries[dev];
}

CUresult cuemu_current(CUcontext *ctx, int *dev)
{
	CUresult r = cuemu_check_init();
	CUcontext c;

	if (r != CUDA_SUCCESS)
		return r;
	c = ctx_depth ? ctx_stack[ctx_depth - 1] : NULL;
	if (!c)
		return cuemu_fail(CUDA_ERROR_INVALID_CONTEXT,
				  "no context is current to this thread");
	if (!cuemu_ctx_valid(c))
		return cuemu_fail(CUDA_ERROR_INVALID_CONTEXT,
				  "the current context was destroyed");
	if (ctx)
		*ctx = c;
	if (dev)
		*dev = c->dev;
	return CUDA_SUCCESS;
}

static bool has_peer(CUcontext c, int dev)
{
	return __atomic_load_n(&c->peers, __ATOMIC_ACQUIRE) >> dev & 1;
}

bool cuemu_peer_enabled(int from_dev, int to_dev)
{
	if (from_dev < 0 || from_dev >= CUEMU_MAX_DEVICES || to_dev < 0 ||
	    to_dev >= CUEMU_MAX_DEVICES)
		return false;
	if (from_dev == to_dev)
		return true;
	if (cuemu_ctx_valid(&primaries[from_dev]) &&
	    has_peer(&primaries[from_dev], to_dev))
		return true;
	for (struct CUctx_st *c = __atomic_load_n(&created, __ATOMIC_ACQUIRE);
	     c; c = c->next)
		if (c->dev == from_dev && __atomic_load_n(&c->alive,
		    __ATOMIC_ACQUIRE) && has_peer(c, to_dev))
			return true;
	return false;
}

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
	if (ctx_depth >= CTX_STACK_MAX)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "context stack is %d deep", CTX_STACK_MAX);
	ctx_stack[ctx_depth++] = ctx;
	return CUDA_SUCCESS;
}

/* A dead slot of the list, or a new one at its head. Lock held. */
static struct CUctx_st *ctx_slot(void)
{
	struct CUctx_st *c;

	for (c = created; c; c = c->next)
		if (!c->alive)
			return c;
	if (!(c = calloc(1, sizeof *c)))
		return NULL;
	c->next = created;
	__atomic_store_n(&created, c, __ATOMIC_RELEASE);
	return c;
}

CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams,
			unsigned int flags, CUdevice dev)
{
	struct CUctx_st *c;
	CUresult r;

	if (!pctx)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL context");
	if ((r = check_dev(dev)) != CUDA_SUCCESS ||
	    (r = check_ctx_flags(flags)) != CUDA_SUCCESS)
		return r;
	if (ctxCreateParams && (ctxCreateParams->numExecAffinityParams ||
				ctxCreateParams->cigParams))
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED, "execution affinity "
				  "and CIG contexts are not emulated");
	if (ctx_depth == CTX_STACK_MAX)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "context stack is %d deep", CTX_STACK_MAX);
	cuemu_lock();
	if ((c = ctx_slot())) {
		c->dev = dev;
		c->flags = flags;
		__atomic_store_n(&c->peers, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&c->alive, true, __ATOMIC_RELEASE);
	}
	cuemu_unlock();
	if (!c)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "context");
	push(c);
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

/* Removes ctx from the calling thread's stack wherever it is. */
static void unstack(CUcontext ctx)
{
	int j = 0;

	for (int i = 0; i < ctx_depth; i++)
		if (ctx_stack[i] != ctx)
			ctx_stack[j++] = ctx_stack[i];
	ctx_depth = j;
}

CUresult cuCtxDestroy_v2(CUcontext ctx)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!ctx || is_primary(ctx))
		return cuemu_fail(CUDA_ERROR_INVALID_CONTEXT, ctx ?
				  "a primary context is released, not destroyed"
				  : "NULL context");
	if (!cuemu_ctx_valid(ctx))
		return cuemu_fail(CUDA_ERROR_INVALID_CONTEXT,
				  "context %p is not alive", (void *)ctx);
	/* Its work finishes first: nothing may run on a dead context. */
	cuemu_ctx_streams_destroy(ctx);
	cuemu_lock();
	__atomic_store_n(&ctx->alive, false, __ATOMIC_RELEASE);
	cuemu_unlock();
	unstack(ctx);
	cuemu_event_log("context", "destroy dev=%d", ctx->dev);
	return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext ctx)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!ctx) {
		/* The driver: NULL pops the top, if there is one. */
		if (ctx_depth)
			ctx_depth--;
		return CUDA_SUCCESS;
	}
	if (!cuemu_ctx_valid(ctx))
		return cuemu_fail(CUDA_ERROR_INVALID_CONTEXT,
				  "context %p is not alive", (void *)ctx);
	if (ctx_depth)
		ctx_stack[ctx_depth - 1] = ctx;
	else
		ctx_stack[ctx_depth++] = ctx;
	return CUDA_SUCCESS;
}

CUresult cuCtxGetCurrent(CUcontext *pctx)
{
	CUresult r;

	if (!pctx)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL context");
	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	*pctx = ctx_depth ? ctx_stack[ctx_depth - 1] : NULL;
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
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!ctx_depth)
		return cuemu_fail(CUDA_ERROR_INVALID_CONTEXT,
				  "the context stack is empty");
	ctx_depth--;
	if (pctx)
		*pctx = ctx_stack[ctx_depth];
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
	if ((r = cuemu_ctx_sync(ctx)) != CUDA_SUCCESS)
		return r;
	cuemu_host_synced();
	return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize(void)
{
	CUcontext c;
	CUresult r;

	if ((r = cuemu_current(&c, NULL)) != CUDA_SUCCESS)
		return r;
	if ((r = cuemu_ctx_sync(c)) != CUDA_SUCCESS)
		return r;
	cuemu_host_synced();
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
	if (peer->dev == (*cur)->dev)
		return cuemu_fail(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED,
				  "the peer context is on the current context's "
				  "device %d", peer->dev);
	if (!peer_link((*cur)->dev, peer->dev))
		return cuemu_fail(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED,
				  "no link between device %d and device %d",
				  (*cur)->dev, peer->dev);
	return CUDA_SUCCESS;
}

CUresult cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags)
{
	CUcontext cur;
	CUresult r;

	if (Flags != 0)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "peer access flags must be 0, not %u", Flags);
	if ((r = peer_pair(peerContext, &cur)) != CUDA_SUCCESS)
		return r;
	cuemu_lock();
	if (has_peer(cur, peerContext->dev))
		r = cuemu_fail(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED,
			       "device %d already reaches device %d", cur->dev,
			       peerContext->dev);
	else
		__atomic_or_fetch(&cur->peers, 1u << peerContext->dev,
				  __ATOMIC_RELEASE);
	cuemu_unlock();
	if (r == CUDA_SUCCESS)
		cuemu_event_log("peer", "enable gpu%d->gpu%d", cur->dev,
				peerContext->dev);
	return r;
}

CUresult cuCtxDisablePeerAccess(CUcontext peerContext)
{
	CUcontext cur;
	CUresult r;

	if ((r = peer_pair(peerContext, &cur)) != CUDA_SUCCESS)
		return r;
	cuemu_lock();
	if (!has_peer(cur, peerContext->dev))
		r = cuemu_fail(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED,
			       "device %d does not reach device %d", cur->dev,
			       peerContext->dev);
	else
		__atomic_and_fetch(&cur->peers, ~(1u << peerContext->dev),
				   __ATOMIC_RELEASE);
	cuemu_unlock();
	if (r == CUDA_SUCCESS)
		cuemu_event_log("peer", "disable gpu%d->gpu%d", cur->dev,
				peerContext->dev);
	return r;
}

/* ---------------------------------------------------------------- primary */

CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
	CUresult r;

	if (!pctx)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL context");
	if ((r = check_dev(dev)) != CUDA_SUCCESS)
		return r;
	cuemu_lock();
	if (__atomic_fetch_add(&primaries[dev].refs, 1, __ATOMIC_RELEASE) == 0)
		cuemu_event_log("context", "primary active dev=%d", dev);
	cuemu_unlock();
	*pctx = &primaries[dev];
	return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
	CUresult r;
	bool last = false;

	if ((r = check_dev(dev)) != CUDA_SUCCESS)
		return r;
	cuemu_lock();
	if (primaries[dev].refs == 0)
		r = cuemu_fail(CUDA_ERROR_INVALID_CONTEXT,
			       "primary context of device %d is not retained",
			       dev);
	else
		last = __atomic_sub_fetch(&primaries[dev].refs, 1,
					  __ATOMIC_RELEASE) == 0;
	cuemu_unlock();
	if (last) {
		/* Like the driver, the last release tears the context down:
		 * its streams finish and go, its peer access ends. */
		cuemu_ctx_streams_destroy(&primaries[dev]);
		cuemu_lock();
		if (primaries[dev].refs == 0)
			__atomic_store_n(&primaries[dev].peers, 0,
					 __ATOMIC_RELEASE);
		cuemu_unlock();
		cuemu_event_log("context", "primary inactive dev=%d", dev);
	}
	return r;
}

CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev)
{
	CUresult r;

	if ((r = check_dev(dev)) != CUDA_SUCCESS)
		return r;
	/* Work in flight finishes; the context keeps its handle and its
	 * retain count but loses its state (flags, peer access). */
	cuemu_ctx_streams_destroy(&primaries[dev]);
	cuemu_lock();
	__atomic_store_n(&primaries[dev].peers, 0, __ATOMIC_RELEASE);
	primaries[dev].flags = 0;
	cuemu_unlock();
	cuemu_event_log("context", "primary reset dev=%d", dev);
	return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags,
				    int *active)
{
	CUresult r;

	if (!flags || !active)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL out");
	if ((r = check_dev(dev)) != CUDA_SUCCESS)
		return r;
	cuemu_lock();
	*flags = primaries[dev].flags;
	*active = cuemu_ctx_valid(&primaries[dev]);
	cuemu_unlock();
	return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags)
{
	CUresult r;

	if ((r = check_dev(dev)) != CUDA_SUCCESS ||
	    (r = check_ctx_flags(flags)) != CUDA_SUCCESS)
		return r;
	cuemu_lock();
	primaries[dev].flags = flags;
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
