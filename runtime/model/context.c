/*
 * context.c - the process as the model sees it: the process lock, whether
 * the model is initialized (and what runs when it is), the contexts (one
 * primary per device, the created ones), each thread's context stack, and
 * which devices a context may reach as peers.
 *
 * A context here is a device, the flags it was made with and the peers it
 * may access; its streams live in stream.c and its memory in the subsystems
 * that allocated it. Primary contexts are one static object per device whose
 * handle never changes (as the driver's). Created contexts live on a list
 * that only grows: a destroyed one is marked dead and its slot reused by a
 * later create, so a stale handle is found dead, never dereferenced after a
 * free, and the list can be read without a lock.
 *
 * Locking: contexts are created, destroyed, retained and released under the
 * process lock (cuemu_lock, defined here); the functions that change them
 * say "lock held". alive, refs and peers are read with atomics, so that
 * cuemu_current, cuemu_ctx_valid and cuemu_peer_enabled take no lock and
 * may be called with it held. The context stack, and whether the thread
 * holds the process lock, are per thread and need no lock.
 */
#include "model/context.h"
#include "model/clock.h"

#include <stdlib.h>
#include <string.h>

struct CUctx_st {
	int dev;
	unsigned int flags;
	bool alive;              /* atomic: created and not destroyed */
	unsigned int refs;       /* primary: retain count (active while > 0) */
	uint64_t peers[2];       /* atomic: devices this context may reach */
	/* Settings of cuCtxSetLimit/SetCacheConfig/SetSharedMemConfig; a
	 * limit whose bit in limits_set is clear reads as its default. Lock
	 * held to change; reset with the context. */
	size_t limits[CUEMU_CTX_LIMITS];
	uint32_t limits_set;
	size_t stack_held;       /* device memory its stacks hold (stackmem.c) */
	int cache_config;
	int shmem_config;
	struct CUctx_st *next;   /* created contexts: immutable once listed */
	uint64_t id;             /* cuCtxGetId: new for each creation (and
				  * each activation of a primary) */
	int sticky;              /* atomic: the CUresult a failed kernel
				  * left (ILLEGAL_ADDRESS, ASSERT, ...);
				  * every call in the context answers it */
};

/* The process lock. Global because a CUDA context is process-wide state
 * the API carries no handle for: every thread's calls share one address
 * space, one set of allocations and one set of contexts. */
static pthread_mutex_t process_lock = PTHREAD_MUTEX_INITIALIZER;
/* The calling thread holds process_lock through cuemu_lock: the stream
 * engine asks, so that it never runs an operation in a thread that holds
 * the lock the operation may take (cuemu_lock_held). */
static __thread bool lock_held;

/* The model is initialized: process-wide, as the driver's initialization
 * is. init_lock serializes the first initialization. */
static bool initialized;
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;

/* What runs once the model is up (the control server of outward/). Written
 * only from constructors, before any thread can initialize. */
#define INIT_HOOKS 4
static void (*init_hooks[INIT_HOOKS])(void);
static int n_init_hooks;

/* One primary context per device, and the contexts made by create.
 * Global for the same reason as the lock; guarded by it. */
static struct CUctx_st primaries[CUEMU_MAX_DEVICES];
static struct CUctx_st *created;

/* Each thread's context stack (the driver keeps one per CPU thread). */
static __thread CUcontext ctx_stack[CUEMU_CTX_STACK_MAX];
static __thread int ctx_depth;

/* ---------------------------------------------------------------- the process */

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

/* What runs under the lock is the model's work, not the program's: its
 * CPU time is left out of the thread's model clock (clock.c). */
void cuemu_lock(void)
{
	cuemu_clock_enter();
	pthread_mutex_lock(&process_lock);
	lock_held = true;
}

void cuemu_unlock(void)
{
	/* What changed is published while it is still one moment. */
	cuemu_changes_flush();
	lock_held = false;
	pthread_mutex_unlock(&process_lock);
	cuemu_clock_leave();
}

void cuemu_unlock_deferred(void)
{
	lock_held = false;
	pthread_mutex_unlock(&process_lock);
	cuemu_clock_leave();   /* the bracket cuemu_lock entered */
}

bool cuemu_lock_held(void)
{
	return lock_held;
}

CUresult cuemu_check_init(void)
{
	if (!__atomic_load_n(&initialized, __ATOMIC_ACQUIRE))
		return cuemu_fail(CUDA_ERROR_NOT_INITIALIZED,
				  "cuInit has not been called");
	return CUDA_SUCCESS;
}

void cuemu_on_init(void (*fn)(void))
{
	if (n_init_hooks < INIT_HOOKS)
		init_hooks[n_init_hooks++] = fn;
}

CUresult cuemu_model_init(bool *first)
{
	CUresult r = CUDA_SUCCESS;

	*first = false;
	pthread_mutex_lock(&init_lock);
	if (initialized)
		goto out;
	if (cuemu_machine_attach() < 0) {
		r = cuemu_fail(CUDA_ERROR_NO_DEVICE, "no machine: %s",
			       cuemu_errmsg());
		goto out;
	}
	/* Which devices the process sees: refused, cuInit fails now and
	 * at every later call, as the driver's. */
	if ((r = cuemu_select_devices()) != CUDA_SUCCESS)
		goto out;
	/* A CUEMU_CLOCK that names no clock, a CUEMU_KERNEL_THREADS that is
	 * no count: refused, said on stderr. */
	if ((r = cuemu_clock_check_env()) != CUDA_SUCCESS ||
	    (r = cuemu_kernel_threads_check_env()) != CUDA_SUCCESS) {
		cuemu_tell();
		goto out;
	}
	for (int d = 0; d < CUEMU_MAX_DEVICES; d++) {
		primaries[d].dev = d;
		cuemu_ctx_reset_settings(&primaries[d]);
	}
	pthread_atfork(fork_prepare, fork_done, fork_done);
	for (int i = 0; i < n_init_hooks; i++)
		init_hooks[i]();
	__atomic_store_n(&initialized, true, __ATOMIC_RELEASE);
	*first = true;
out:
	pthread_mutex_unlock(&init_lock);
	return r;
}

/* ---------------------------------------------------------------- contexts */

bool cuemu_ctx_is_primary(CUcontext ctx)
{
	return ctx >= primaries && ctx < primaries + CUEMU_MAX_DEVICES;
}

/* Takes no lock: the list only grows and a listed node never changes its
 * next pointer. */
bool cuemu_ctx_valid(CUcontext ctx)
{
	if (!ctx)
		return false;
	if (cuemu_ctx_is_primary(ctx))
		return __atomic_load_n(&ctx->refs, __ATOMIC_ACQUIRE) > 0;
	for (struct CUctx_st *c = __atomic_load_n(&created, __ATOMIC_ACQUIRE);
	     c; c = c->next)
		if (c == ctx)
			return __atomic_load_n(&c->alive, __ATOMIC_ACQUIRE);
	return false;
}

/* Context ids are the process's, counted from 1 as the driver's are. */
static uint64_t next_ctx_id = 1;

static uint64_t new_ctx_id(void)
{
	return __atomic_fetch_add(&next_ctx_id, 1, __ATOMIC_RELAXED);
}

uint64_t cuemu_ctx_id(CUcontext ctx)
{
	return __atomic_load_n(&ctx->id, __ATOMIC_ACQUIRE);
}

int cuemu_ctx_device(CUcontext ctx)
{
	return ctx ? ctx->dev : -1;
}

unsigned int cuemu_ctx_flags(CUcontext ctx)
{
	return ctx->flags;
}

void cuemu_ctx_set_flags(CUcontext ctx, unsigned int flags)
{
	ctx->flags = flags;
}

CUcontext cuemu_primary_ctx(int dev)
{
	if (dev < 0 || dev >= CUEMU_MAX_DEVICES)
		return NULL;
	return &primaries[dev];
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

CUcontext cuemu_ctx_new(int dev, unsigned int flags)
{
	struct CUctx_st *c = ctx_slot();

	if (c) {
		c->dev = dev;
		c->flags = flags;
		c->id = new_ctx_id();
		cuemu_ctx_reset_settings(c);
		__atomic_store_n(&c->peers[0], 0, __ATOMIC_RELEASE);
		__atomic_store_n(&c->peers[1], 0, __ATOMIC_RELEASE);
		__atomic_store_n(&c->alive, true, __ATOMIC_RELEASE);
	}
	return c;
}

void cuemu_ctx_kill(CUcontext ctx)
{
	__atomic_store_n(&ctx->alive, false, __ATOMIC_RELEASE);
}

unsigned int cuemu_primary_retain(int dev)
{
	unsigned int was = __atomic_fetch_add(&primaries[dev].refs, 1,
					      __ATOMIC_RELEASE);

	/* An activated primary context is a new context: no failure of an
	 * earlier activation stays with it. */
	if (was == 0) {
		__atomic_store_n(&primaries[dev].id, new_ctx_id(),
				 __ATOMIC_RELEASE);
		__atomic_store_n(&primaries[dev].sticky, 0, __ATOMIC_RELEASE);
	}
	return was;
}

int cuemu_primary_release(int dev)
{
	if (primaries[dev].refs == 0)
		return -1;
	return __atomic_sub_fetch(&primaries[dev].refs, 1,
				  __ATOMIC_RELEASE) == 0;
}

bool cuemu_primary_retained(int dev)
{
	return __atomic_load_n(&primaries[dev].refs, __ATOMIC_ACQUIRE) > 0;
}

/* ---------------------------------------------------------------- current */

CUcontext cuemu_ctx_top(void)
{
	return ctx_depth ? ctx_stack[ctx_depth - 1] : NULL;
}

bool cuemu_ctx_stack_full(void)
{
	return ctx_depth >= CUEMU_CTX_STACK_MAX;
}

bool cuemu_ctx_push(CUcontext ctx)
{
	if (cuemu_ctx_stack_full())
		return false;
	ctx_stack[ctx_depth++] = ctx;
	return true;
}

CUcontext cuemu_ctx_pop(void)
{
	return ctx_depth ? ctx_stack[--ctx_depth] : NULL;
}

void cuemu_ctx_replace_top(CUcontext ctx)
{
	if (!ctx) {
		if (ctx_depth)
			ctx_depth--;
	} else if (ctx_depth) {
		ctx_stack[ctx_depth - 1] = ctx;
	} else {
		ctx_stack[ctx_depth++] = ctx;
	}
}

void cuemu_ctx_unstack(CUcontext ctx)
{
	int j = 0;

	for (int i = 0; i < ctx_depth; i++)
		if (ctx_stack[i] != ctx)
			ctx_stack[j++] = ctx_stack[i];
	ctx_depth = j;
}

CUresult cuemu_current(CUcontext *ctx, int *dev)
{
	CUresult r = cuemu_check_init();
	CUcontext c;

	if (r != CUDA_SUCCESS)
		return r;
	c = cuemu_ctx_top();
	if (!c)
		return cuemu_fail(CUDA_ERROR_INVALID_CONTEXT,
				  "no context is current to this thread");
	if (!cuemu_ctx_valid(c))
		return cuemu_fail(CUDA_ERROR_INVALID_CONTEXT,
				  "the current context was destroyed");
	if ((r = cuemu_ctx_sticky(c)) != CUDA_SUCCESS)
		return r;
	if (ctx)
		*ctx = c;
	if (dev)
		*dev = c->dev;
	return CUDA_SUCCESS;
}

CUresult cuemu_ctx_sticky(CUcontext c)
{
	CUresult r = c ? (CUresult)__atomic_load_n(&c->sticky,
						    __ATOMIC_ACQUIRE) :
			 CUDA_SUCCESS;

	if (r != CUDA_SUCCESS)
		return cuemu_fail(r, "a kernel failed in this context; it "
				  "stays failed, as on the device");
	return CUDA_SUCCESS;
}

void cuemu_ctx_fail_sticky(CUcontext c, CUresult r)
{
	int none = 0;

	if (c)
		__atomic_compare_exchange_n(&c->sticky, &none, (int)r, false,
					    __ATOMIC_ACQ_REL,
					    __ATOMIC_ACQUIRE);
}

/* ---------------------------------------------------------------- peers */

bool cuemu_peer_link(int a, int b)
{
	return cuemu_machine_gpu_link(cuemu_machine_gpu_of(a),
				      cuemu_machine_gpu_of(b)) != 0;
}

bool cuemu_ctx_has_peer(CUcontext c, int dev)
{
	if (dev < 0 || dev >= 128)
		return false;
	return __atomic_load_n(&c->peers[dev / 64], __ATOMIC_ACQUIRE) >>
	       (dev % 64) & 1;
}

void cuemu_ctx_set_peer(CUcontext c, int dev, bool on)
{
	if (on)
		__atomic_or_fetch(&c->peers[dev / 64], 1ULL << (dev % 64),
				  __ATOMIC_RELEASE);
	else
		__atomic_and_fetch(&c->peers[dev / 64], ~(1ULL << (dev % 64)),
				   __ATOMIC_RELEASE);
	if (!on)
		cuemu_reach_changed();
}

void cuemu_ctx_clear_peers(CUcontext c)
{
	__atomic_store_n(&c->peers[0], 0, __ATOMIC_RELEASE);
	__atomic_store_n(&c->peers[1], 0, __ATOMIC_RELEASE);
	cuemu_reach_changed();
}

bool cuemu_peer_enabled(int from_dev, int to_dev)
{
	if (from_dev < 0 || from_dev >= CUEMU_MAX_DEVICES || to_dev < 0 ||
	    to_dev >= CUEMU_MAX_DEVICES)
		return false;
	if (from_dev == to_dev)
		return true;
	if (cuemu_ctx_valid(&primaries[from_dev]) &&
	    cuemu_ctx_has_peer(&primaries[from_dev], to_dev))
		return true;
	for (struct CUctx_st *c = __atomic_load_n(&created, __ATOMIC_ACQUIRE);
	     c; c = c->next)
		if (c->dev == from_dev && __atomic_load_n(&c->alive,
		    __ATOMIC_ACQUIRE) && cuemu_ctx_has_peer(c, to_dev))
			return true;
	return false;
}

/* ------------------------------------------------------------ settings */

/* The limits of a fresh context on the Hopper parts the default machine
 * models: the driver's documented defaults (1 KiB stack, 8 MiB device
 * heap, sync depth 2, 2048 pending launches, 64-byte L2 fetch granularity,
 * no persisting L2, not a CIG context), and the printf FIFO an H200 read
 * back under CUDA 13, 8.25 MiB where the documents say 1 MiB
 * (probes/results/stacklimit.txt). */
static const size_t limit_defaults[CUEMU_CTX_LIMITS] = {
	[CU_LIMIT_STACK_SIZE] = 1024,
	[CU_LIMIT_PRINTF_FIFO_SIZE] = 8650752,
	[CU_LIMIT_MALLOC_HEAP_SIZE] = 8 << 20,
	[CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH] = 2,
	[CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT] = 2048,
	[CU_LIMIT_MAX_L2_FETCH_GRANULARITY] = 64,
	[CU_LIMIT_PERSISTING_L2_CACHE_SIZE] = 0,
	[CU_LIMIT_CIG_ENABLED] = 0,
};

void cuemu_ctx_reset_settings(CUcontext ctx)
{
	ctx->limits_set = 0;
	ctx->cache_config = CU_FUNC_CACHE_PREFER_NONE;
	ctx->shmem_config = CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE;
	/* a reset context has no failed kernel behind it */
	__atomic_store_n(&ctx->sticky, 0, __ATOMIC_RELEASE);
}

size_t cuemu_ctx_limit(CUcontext ctx, int limit)
{
	if (ctx->limits_set & (1u << limit))
		return ctx->limits[limit];
	return limit_defaults[limit];
}

void cuemu_ctx_set_limit(CUcontext ctx, int limit, size_t value)
{
	ctx->limits[limit] = value;
	ctx->limits_set |= 1u << limit;
}

size_t cuemu_ctx_stack_held(CUcontext ctx)
{
	return ctx->stack_held;
}

void cuemu_ctx_set_stack_held(CUcontext ctx, size_t bytes)
{
	ctx->stack_held = bytes;
}

int cuemu_ctx_cache_config(CUcontext ctx)
{
	return ctx->cache_config;
}

void cuemu_ctx_set_cache_config(CUcontext ctx, int config)
{
	ctx->cache_config = config;
}

int cuemu_ctx_shmem_config(CUcontext ctx)
{
	return ctx->shmem_config;
}
