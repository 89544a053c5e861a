/*
 * settings.c - the runtime API's device settings, PCI identity and
 * profiler calls that programs make around their memory work:
 * cudaDeviceGetP2PAttribute, cudaDeviceGetPCIBusId / GetByPCIBusId,
 * cudaDeviceGetLimit / SetLimit, cudaCtxResetPersistingL2Cache, the cache
 * and shared-memory configuration, cudaDeviceGetStreamPriorityRange, cudaSetDeviceFlags /
 * GetDeviceFlags and cudaProfilerStart / Stop, each on its cu* twin.
 *
 * Locking: none of its own; the settings are the current context's.
 */
#include "cudart/cudart.h"

#include "cudaProfiler.h"
#include "cuda_profiler_api.h"

/* cuInit, for the calls that need the driver but no context. */
static CUresult rt_driver(void)
{
	return cuInit(0);
}

cudaError_t cudaDeviceGetP2PAttribute(int *value, enum cudaDeviceP2PAttr attr,
				      int srcDevice, int dstDevice)
{
	CUresult r = rt_driver();

	if (r != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	/* The runtime's attribute numbers are the driver's. */
	return cuemu_rt_result(cuDeviceGetP2PAttribute(value,
				(CUdevice_P2PAttribute)attr, srcDevice,
				dstDevice));
}

cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device)
{
	CUresult r = rt_driver();

	if (r != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	return cuemu_rt_result(cuDeviceGetPCIBusId(pciBusId, len, device));
}

cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId)
{
	CUresult r = rt_driver();

	if (r != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	return cuemu_rt_result(cuDeviceGetByPCIBusId(device, pciBusId));
}

cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit)
{
	RT_BEGIN();
	/* The runtime knows the first seven limits only; the CIG ones are
	 * the driver's. */
	if ((int)limit < 0 || limit > cudaLimitPersistingL2CacheSize)
		return cuemu_rt_fail(cudaErrorUnsupportedLimit);
	return cuemu_rt_result(cuCtxGetLimit(pValue, (CUlimit)limit));
}

cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
	RT_BEGIN();
	if ((int)limit < 0 || limit > cudaLimitPersistingL2CacheSize)
		return cuemu_rt_fail(cudaErrorUnsupportedLimit);
	return cuemu_rt_result(cuCtxSetLimit((CUlimit)limit, value));
}

cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig)
{
	CUfunc_cache c;
	CUresult r;

	RT_BEGIN();
	if (!pCacheConfig)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((r = cuCtxGetCacheConfig(&c)) == CUDA_SUCCESS)
		*pCacheConfig = (enum cudaFuncCache)c;
	return cuemu_rt_result(r);
}

cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig)
{
	RT_BEGIN();
	return cuemu_rt_result(cuCtxSetCacheConfig((CUfunc_cache)cacheConfig));
}

cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig)
{
	CUsharedconfig c;
	CUresult r;

	RT_BEGIN();
	if (!pConfig)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((r = cuCtxGetSharedMemConfig(&c)) == CUDA_SUCCESS)
		*pConfig = (enum cudaSharedMemConfig)c;
	return cuemu_rt_result(r);
}

cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config)
{
	RT_BEGIN();
	return cuemu_rt_result(cuCtxSetSharedMemConfig((CUsharedconfig)config));
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority,
					     int *greatestPriority)
{
	RT_BEGIN();
	return cuemu_rt_result(cuCtxGetStreamPriorityRange(leastPriority,
							   greatestPriority));
}

cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
	cudaError_t e;
	int dev;

	/* The device flags are the primary context's (cudaDeviceMask is
	 * CU_CTX_FLAGS_MASK, bit for bit). */
	if (flags & ~(unsigned int)cudaDeviceMask)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((e = cudaGetDevice(&dev)) != cudaSuccess)
		return e;
	return cuemu_rt_result(cuDevicePrimaryCtxSetFlags_v2(dev, flags));
}

cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
	unsigned int f;
	cudaError_t e;
	CUresult r;
	int dev, active;

	if (!flags)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((e = cudaGetDevice(&dev)) != cudaSuccess)
		return e;
	if ((r = cuDevicePrimaryCtxGetState(dev, &f, &active)) == CUDA_SUCCESS)
		*flags = f;
	return cuemu_rt_result(r);
}

/* cuda-samples' simpleAttributes resets the persisting lines its access
 * policy window asked for. */
cudaError_t cudaCtxResetPersistingL2Cache(void)
{
	RT_BEGIN();
	return cuemu_rt_result(cuCtxResetPersistingL2Cache());
}

/* No profiler attaches: both succeed once the runtime has a context. */
cudaError_t cudaProfilerStart(void)
{
	RT_BEGIN();
	return cuemu_rt_result(cuProfilerStart());
}

cudaError_t cudaProfilerStop(void)
{
	RT_BEGIN();
	return cuemu_rt_result(cuProfilerStop());
}
