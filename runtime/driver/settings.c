/*
 * settings.c - the driver API's entries for a context's settings and the
 * profiler: cuCtxGetLimit/SetLimit, cuCtxGetCacheConfig/SetCacheConfig,
 * cuCtxGetSharedMemConfig/SetSharedMemConfig, cuCtxResetPersistingL2Cache,
 * cuProfilerStart/Stop. They
 * change nothing the emulation computes (no kernels run here), but a
 * program reads back what it set, and gets the driver's refusals.
 *
 * Locking: the settings live in the context (model/context.c) and change
 * under the process lock.
 */
#include "model/context.h"
#include "driver/driver.h"

#include "cudaProfiler.h"

/* The limits a program may set; CU_LIMIT_SHMEM_SIZE and CU_LIMIT_CIG_*
 * concern CIG contexts, which the emulation never makes. */
static bool limit_settable(CUlimit limit)
{
	return limit >= CU_LIMIT_STACK_SIZE &&
	       limit <= CU_LIMIT_PERSISTING_L2_CACHE_SIZE;
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
	/* A fetch granularity is a hint of 0 to 128 bytes. */
	if (limit == CU_LIMIT_MAX_L2_FETCH_GRANULARITY && value > 128)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "L2 fetch granularity %zu is over 128", value);
	/* The persisting L2 set-aside is capped at the device's maximum. */
	if (limit == CU_LIMIT_PERSISTING_L2_CACHE_SIZE) {
		int max = cuemu_device(dev)->attrs[
			CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE];

		if (max >= 0 && value > (size_t)max)
			value = (size_t)max;
	}
	cuemu_lock();
	cuemu_ctx_set_limit(c, limit, value);
	cuemu_unlock();
	return CUDA_SUCCESS;
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
