/*
 * settings.c - the driver API's entries for a context's settings and the
 * profiler: cuCtxGetLimit/SetLimit, cuCtxGetCacheConfig/SetCacheConfig,
 * cuCtxGetSharedMemConfig/SetSharedMemConfig, cuCtxResetPersistingL2Cache,
 * cuProfilerStart/Stop. A program reads back what it set, bounded and
 * rounded as an H200 did it (probes/results/stacklimit.txt), and gets the
 * driver's refusals; of the limits, only the stack size reaches a kernel
 * (driver/launch.c hands it to the engine), and the heap's size the
 * heap the first launch of a kernel using malloc makes (model/kheap.c),
 * after which the heap's size is refused; only the stack size holds
 * device memory (model/stackmem.c: a stack that does not fit is
 * CUDA_ERROR_OUT_OF_MEMORY).
 *
 * Locking: the settings live in the context (model/context.c) and change
 * under the process lock.
 */
#include "model/context.h"
#include "model/kheap.h"
#include "driver/driver.h"

#include "cudaProfiler.h"

/* The limits a program may set; CU_LIMIT_SHMEM_SIZE and CU_LIMIT_CIG_*
 * concern CIG contexts, which the emulation never makes. */
static bool limit_settable(CUlimit limit)
{
	return limit >= CU_LIMIT_STACK_SIZE &&
	       limit <= CU_LIMIT_PERSISTING_L2_CACHE_SIZE;
}

/* An H200's largest stack per thread (CUDA 13): a larger one is refused
 * with INVALID_VALUE whatever memory is free. */
#define STACK_MAX 523712u
/* The printf FIFO: at least 512 KiB, in 256-byte steps, at most 2 GiB. */
#define FIFO_MIN (512u << 10)
#define FIFO_STEP 256u
#define FIFO_MAX ((size_t)2 << 30)
/* The device heap: at least 4 MiB, at most what an H200 read back for any
 * larger request. Its step was not seen (every value read back was a
 * multiple of 32); 32 is the coarsest that fits them all. */
#define HEAP_MIN (4u << 20)
#define HEAP_STEP 32u
#define HEAP_MAX ((size_t)17681179680ull)

/* v rounded up to a multiple of step (a power of two), wrapping past
 * SIZE_MAX to 0 as the driver's arithmetic does: SIZE_MAX reads back 0. */
static size_t round_up(size_t v, size_t step)
{
	return (v + step - 1) & ~(step - 1);
}

/* The stack is kept in 16-byte steps. A value is stored rounded up when its
 * step differs from the current one (the driver resizes the stacks), and
 * as given when it falls in the current step (nothing to resize): after 1
 * (16), 7 reads back 7; after 1024, 1025 reads back 1040, then 1030 1030. */
static size_t stack_value(CUcontext c, size_t value)
{
	size_t cur = round_up(cuemu_ctx_limit(c, CU_LIMIT_STACK_SIZE), 16);
	size_t want = round_up(value, 16);

	return want == cur ? value : want;
}

/* What a printf FIFO or heap request reads back: raised to the least,
 * rounded, then capped. */
static size_t bounded(size_t value, size_t min, size_t step, size_t max)
{
	value = round_up(value < min ? min : value, step);
	return value > max ? max : value;
}

/* The value a settable limit keeps for a request, in *value, or the
 * driver's refusal (nothing changes then). Lock held: it reads the current
 * stack size. */
static CUresult limit_value(CUcontext c, int dev, CUlimit limit,
			    size_t *value)
{
	switch (limit) {
	case CU_LIMIT_STACK_SIZE:
		if (*value > STACK_MAX)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "stack size %zu is over the device's "
					  "%u bytes per thread", *value,
					  STACK_MAX);
		*value = stack_value(c, *value);
		return CUDA_SUCCESS;
	case CU_LIMIT_PRINTF_FIFO_SIZE:
		*value = bounded(*value, FIFO_MIN, FIFO_STEP, FIFO_MAX);
		return CUDA_SUCCESS;
	case CU_LIMIT_MALLOC_HEAP_SIZE:
		*value = bounded(*value, HEAP_MIN, HEAP_STEP, HEAP_MAX);
		return CUDA_SUCCESS;
	case CU_LIMIT_MAX_L2_FETCH_GRANULARITY:
		/* a fetch granularity is a hint of 0 to 128 bytes */
		if (*value > 128)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "L2 fetch granularity %zu is over "
					  "128", *value);
		return CUDA_SUCCESS;
	case CU_LIMIT_PERSISTING_L2_CACHE_SIZE: {
		/* the set-aside is capped at the device's maximum */
		int max = cuemu_device(dev)->attrs[
			CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE];

		if (max >= 0 && *value > (size_t)max)
			*value = (size_t)max;
		return CUDA_SUCCESS;
	}
	default:
		return CUDA_SUCCESS;
	}
}

CUresult cuCtxGetLimit(size_t *pvalue, CUlimit limit)
{
	CUcontext c;
	CUresult r;

	if ((r = cuemu_current(&c, NULL)) != CUDA_SUCCESS)
		return r;
	if (!pvalue || (int)limit < 0 || limit >= CU_LIMIT_MAX)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  pvalue ? "limit %d is not a CUlimit" :
				  "NULL value", (int)limit);
	if (limit == CU_LIMIT_SHMEM_SIZE ||
	    limit == CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED)
		return cuemu_fail(CUDA_ERROR_UNSUPPORTED_LIMIT,
				  "limit %d applies to CIG contexts only",
				  (int)limit);
	cuemu_lock();
	*pvalue = cuemu_ctx_limit(c, limit);
	cuemu_unlock();
	return CUDA_SUCCESS;
}

CUresult cuCtxSetLimit(CUlimit limit, size_t value)
{
	CUcontext c;
	CUresult r;
	int dev;

	if ((r = cuemu_current(&c, &dev)) != CUDA_SUCCESS)
		return r;
	if ((int)limit < 0 || limit >= CU_LIMIT_MAX)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "limit %d is not a CUlimit", (int)limit);
	if (!limit_settable(limit))
		return cuemu_fail(CUDA_ERROR_UNSUPPORTED_LIMIT,
				  "limit %d can only be queried, on a CIG "
				  "context", (int)limit);
	cuemu_lock();
	/* after the first launch that used it the heap keeps its size, and
	 * an H200 refuses any size then, the same one too */
	if (limit == CU_LIMIT_MALLOC_HEAP_SIZE && cuemu_kheap_fixed(c))
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE, "the device heap is "
			       "fixed at %zu bytes by a launch that used it",
			       cuemu_ctx_limit(c, limit));
	else
		r = limit_value(c, dev, limit, &value);
	/* the stacks' memory is taken or given back first (stackmem.c) */
	if (r == CUDA_SUCCESS && limit == CU_LIMIT_STACK_SIZE)
		r = cuemu_stack_reserve(c, value);
	if (r == CUDA_SUCCESS)
		cuemu_ctx_set_limit(c, limit, value);
	cuemu_unlock();
	return r;
}

CUresult cuCtxGetCacheConfig(CUfunc_cache *pconfig)
{
	CUcontext c;
	CUresult r;

	if ((r = cuemu_current(&c, NULL)) != CUDA_SUCCESS)
		return r;
	if (!pconfig)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL config");
	cuemu_lock();
	*pconfig = (CUfunc_cache)cuemu_ctx_cache_config(c);
	cuemu_unlock();
	return CUDA_SUCCESS;
}

CUresult cuCtxSetCacheConfig(CUfunc_cache config)
{
	CUcontext c;
	CUresult r;

	if ((r = cuemu_current(&c, NULL)) != CUDA_SUCCESS)
		return r;
	if ((int)config < CU_FUNC_CACHE_PREFER_NONE ||
	    config > CU_FUNC_CACHE_PREFER_EQUAL)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "cache config %d is not a CUfunc_cache",
				  (int)config);
	/* A preference: kept and read back; Hopper's carve-out is per
	 * kernel, and no kernel runs here. */
	cuemu_lock();
	cuemu_ctx_set_cache_config(c, config);
	cuemu_unlock();
	return CUDA_SUCCESS;
}

CUresult cuCtxGetSharedMemConfig(CUsharedconfig *pConfig)
{
	CUcontext c;
	CUresult r;

	if ((r = cuemu_current(&c, NULL)) != CUDA_SUCCESS)
		return r;
	if (!pConfig)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL config");
	cuemu_lock();
	*pConfig = (CUsharedconfig)cuemu_ctx_shmem_config(c);
	cuemu_unlock();
	return CUDA_SUCCESS;
}

CUresult cuCtxSetSharedMemConfig(CUsharedconfig config)
{
	CUcontext c;
	CUresult r;

	if ((r = cuemu_current(&c, NULL)) != CUDA_SUCCESS)
		return r;
	if ((int)config < CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE ||
	    config > CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%d is not a CUsharedconfig", (int)config);
	/* Banks are four bytes wide on every device since Maxwell: the
	 * setting is accepted and changes nothing, as on the real driver. */
	return CUDA_SUCCESS;
}

/* No line of the emulated L2 is kept persisting (an access policy window
 * is kept and answered, not modelled): the reset needs a current context,
 * as the driver's does, and has nothing to reset. */
CUresult cuCtxResetPersistingL2Cache(void)
{
	return cuemu_current(NULL, NULL);
}

/* No profiler attaches to the emulation: start and stop need a current
 * context, as the driver's do, and then succeed with nothing to do. */
CUresult cuProfilerStart(void)
{
	return cuemu_current(NULL, NULL);
}

CUresult cuProfilerStop(void)
{
	return cuemu_current(NULL, NULL);
}
