/*
 * cudart.c - the runtime API's device, stream, event and error calls, on
 * top of the driver API of this library; the runtime's lazy initialization
 * (cuemu_rt_current) and its per-thread last error (cuemu_rt_result).
 *
 * The runtime initializes on first use: cuInit, then the primary context of
 * the thread's device (device 0 until cudaSetDevice), which it retains once
 * per process and makes current. A context the thread made current through
 * the driver API is used as it is, as the real runtime does.
 *
 * Locking: rt_lock guards the runtime's retains of primary contexts; the
 * selected device and the last error are per thread, as the runtime's are.
 * Everything else is the driver API's business.
 */
#include "model/internal.h"
#include "cudart/cudart.h"

#include <stdlib.h>
#include <string.h>

/* The primary contexts the runtime retained, one retain per device for the
 * whole process as the runtime does; guarded by rt_lock, read atomically. */
static pthread_mutex_t rt_lock = PTHREAD_MUTEX_INITIALIZER;
static bool rt_retained[CUEMU_MAX_DEVICES];

/* The device cudaSetDevice chose for this thread, and its last error. */
static __thread int rt_dev;
static __thread cudaError_t rt_last;

/* ---------------------------------------------------------------- errors */

cudaError_t cuemu_rt_result(CUresult r)
{
	/* Since CUDA 11 the runtime's codes share the driver's values for
	 * the same conditions (OUT_OF_MEMORY 2 is cudaErrorMemoryAllocation,
	 * INVALID_CONTEXT 201 is cudaErrorDeviceUninitialized, ...). */
	cudaError_t e = (cudaError_t)r;

	if (e != cudaSuccess)
		rt_last = e;
	return e;
}

/* Records and returns a runtime-only code. */
cudaError_t cuemu_rt_fail(cudaError_t e)
{
	rt_last = e;
	return e;
}

cudaError_t cudaGetLastError(void)
{
	cudaError_t e = rt_last;

	rt_last = cudaSuccess;
	return e;
}

cudaError_t cudaPeekAtLastError(void)
{
	return rt_last;
}

#define N(e) { e, #e }
static const struct {
	cudaError_t e;
	const char *name;
} rt_names[] = {
	N(cudaSuccess),
	N(cudaErrorInvalidValue),
	N(cudaErrorMemoryAllocation),
	N(cudaErrorInitializationError),
	N(cudaErrorCudartUnloading),
	N(cudaErrorProfilerDisabled),
	N(cudaErrorProfilerNotInitialized),
	N(cudaErrorProfilerAlreadyStarted),
	N(cudaErrorProfilerAlreadyStopped),
	N(cudaErrorInvalidConfiguration),
	N(cudaErrorInvalidPitchValue),
	N(cudaErrorInvalidSymbol),
	N(cudaErrorInvalidHostPointer),
	N(cudaErrorInvalidDevicePointer),
	N(cudaErrorInvalidTexture),
	N(cudaErrorInvalidTextureBinding),
	N(cudaErrorInvalidChannelDescriptor),
	N(cudaErrorInvalidMemcpyDirection),
	N(cudaErrorAddressOfConstant),
	N(cudaErrorTextureFetchFailed),
	N(cudaErrorTextureNotBound),
	N(cudaErrorSynchronizationError),
	N(cudaErrorInvalidFilterSetting),
	N(cudaErrorInvalidNormSetting),
	N(cudaErrorMixedDeviceExecution),
	N(cudaErrorNotYetImplemented),
	N(cudaErrorMemoryValueTooLarge),
	N(cudaErrorStubLibrary),
	N(cudaErrorInsufficientDriver),
	N(cudaErrorCallRequiresNewerDriver),
	N(cudaErrorInvalidSurface),
	N(cudaErrorDuplicateVariableName),
	N(cudaErrorDuplicateTextureName),
	N(cudaErrorDuplicateSurfaceName),
	N(cudaErrorDevicesUnavailable),
	N(cudaErrorIncompatibleDriverContext),
	N(cudaErrorMissingConfiguration),
	N(cudaErrorPriorLaunchFailure),
	N(cudaErrorLaunchMaxDepthExceeded),
	N(cudaErrorLaunchFileScopedTex),
	N(cudaErrorLaunchFileScopedSurf),
	N(cudaErrorSyncDepthExceeded),
	N(cudaErrorLaunchPendingCountExceeded),
	N(cudaErrorInvalidDeviceFunction),
	N(cudaErrorNoDevice),
	N(cudaErrorInvalidDevice),
	N(cudaErrorDeviceNotLicensed),
	N(cudaErrorSoftwareValidityNotEstablished),
	N(cudaErrorStartupFailure),
	N(cudaErrorInvalidKernelImage),
	N(cudaErrorDeviceUninitialized),
	N(cudaErrorMapBufferObjectFailed),
	N(cudaErrorUnmapBufferObjectFailed),
	N(cudaErrorArrayIsMapped),
	N(cudaErrorAlreadyMapped),
	N(cudaErrorNoKernelImageForDevice),
	N(cudaErrorAlreadyAcquired),
	N(cudaErrorNotMapped),
	N(cudaErrorNotMappedAsArray),
	N(cudaErrorNotMappedAsPointer),
	N(cudaErrorECCUncorrectable),
	N(cudaErrorUnsupportedLimit),
	N(cudaErrorDeviceAlreadyInUse),
	N(cudaErrorPeerAccessUnsupported),
	N(cudaErrorInvalidPtx),
	N(cudaErrorInvalidGraphicsContext),
	N(cudaErrorNvlinkUncorrectable),
	N(cudaErrorJitCompilerNotFound),
	N(cudaErrorUnsupportedPtxVersion),
	N(cudaErrorJitCompilationDisabled),
	N(cudaErrorUnsupportedExecAffinity),
	N(cudaErrorUnsupportedDevSideSync),
	N(cudaErrorContained),
	N(cudaErrorInvalidSource),
	N(cudaErrorFileNotFound),
	N(cudaErrorSharedObjectSymbolNotFound),
	N(cudaErrorSharedObjectInitFailed),
	N(cudaErrorOperatingSystem),
	N(cudaErrorInvalidResourceHandle),
	N(cudaErrorIllegalState),
	N(cudaErrorLossyQuery),
	N(cudaErrorSymbolNotFound),
	N(cudaErrorNotReady),
	N(cudaErrorIllegalAddress),
	N(cudaErrorLaunchOutOfResources),
	N(cudaErrorLaunchTimeout),
	N(cudaErrorLaunchIncompatibleTexturing),
	N(cudaErrorPeerAccessAlreadyEnabled),
	N(cudaErrorPeerAccessNotEnabled),
	N(cudaErrorSetOnActiveProcess),
	N(cudaErrorContextIsDestroyed),
	N(cudaErrorAssert),
	N(cudaErrorTooManyPeers),
	N(cudaErrorHostMemoryAlreadyRegistered),
	N(cudaErrorHostMemoryNotRegistered),
	N(cudaErrorHardwareStackError),
	N(cudaErrorIllegalInstruction),
	N(cudaErrorMisalignedAddress),
	N(cudaErrorInvalidAddressSpace),
	N(cudaErrorInvalidPc),
	N(cudaErrorLaunchFailure),
	N(cudaErrorCooperativeLaunchTooLarge),
	N(cudaErrorTensorMemoryLeak),
	N(cudaErrorNotPermitted),
	N(cudaErrorNotSupported),
	N(cudaErrorSystemNotReady),
	N(cudaErrorSystemDriverMismatch),
	N(cudaErrorCompatNotSupportedOnDevice),
	N(cudaErrorMpsConnectionFailed),
	N(cudaErrorMpsRpcFailure),
	N(cudaErrorMpsServerNotReady),
	N(cudaErrorMpsMaxClientsReached),
	N(cudaErrorMpsMaxConnectionsReached),
	N(cudaErrorMpsClientTerminated),
	N(cudaErrorCdpNotSupported),
	N(cudaErrorCdpVersionMismatch),
	N(cudaErrorStreamCaptureUnsupported),
	N(cudaErrorStreamCaptureInvalidated),
	N(cudaErrorStreamCaptureMerge),
	N(cudaErrorStreamCaptureUnmatched),
	N(cudaErrorStreamCaptureUnjoined),
	N(cudaErrorStreamCaptureIsolation),
	N(cudaErrorStreamCaptureImplicit),
	N(cudaErrorCapturedEvent),
	N(cudaErrorStreamCaptureWrongThread),
	N(cudaErrorTimeout),
	N(cudaErrorGraphExecUpdateFailure),
	N(cudaErrorExternalDevice),
	N(cudaErrorInvalidClusterSize),
	N(cudaErrorFunctionNotLoaded),
	N(cudaErrorInvalidResourceType),
	N(cudaErrorInvalidResourceConfiguration),
	N(cudaErrorUnknown),
};
#undef N

/* Text of the codes that have no driver counterpart. */
static const struct {
	cudaError_t e;
	const char *text;
} rt_texts[] = {
	{ cudaErrorCudartUnloading, "driver shutting down" },
	{ cudaErrorInvalidConfiguration, "invalid configuration argument" },
	{ cudaErrorInvalidPitchValue, "invalid pitch argument" },
	{ cudaErrorInvalidSymbol, "invalid device symbol" },
	{ cudaErrorInvalidHostPointer, "invalid host pointer" },
	{ cudaErrorInvalidDevicePointer, "invalid device pointer" },
	{ cudaErrorInvalidMemcpyDirection, "invalid copy direction for memcpy" },
	{ cudaErrorInsufficientDriver, "CUDA driver version is insufficient "
	  "for CUDA runtime version" },
	{ cudaErrorInvalidDeviceFunction, "invalid device function" },
	{ cudaErrorMissingConfiguration, "__global__ function call is not "
	  "configured" },
};

const char *cudaGetErrorName(cudaError_t error)
{
	for (size_t i = 0; i < sizeof rt_names / sizeof rt_names[0]; i++)
		if (rt_names[i].e == error)
			return rt_names[i].name;
	return "unrecognized error code";
}

const char *cudaGetErrorString(cudaError_t error)
{
	const char *s = NULL;

	for (size_t i = 0; i < sizeof rt_texts / sizeof rt_texts[0]; i++)
		if (rt_texts[i].e == error)
			return rt_texts[i].text;
	if (error == cudaErrorInitializationError)
		return "initialization error";
	if (cuGetErrorString((CUresult)error, &s) == CUDA_SUCCESS && s)
		return s;
	return "unrecognized error code";
}

cudaError_t cudaDriverGetVersion(int *driverVersion)
{
	return cuemu_rt_result(cuDriverGetVersion(driverVersion));
}

cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
	if (!runtimeVersion)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	*runtimeVersion = 13000;
	return cudaSuccess;
}

/* ---------------------------------------------------------------- init */

/* The runtime's own retain of dev's primary context, taken once. */
static CUresult rt_retain(int dev)
{
	CUcontext c;
	CUresult r = CUDA_SUCCESS;

	if (__atomic_load_n(&rt_retained[dev], __ATOMIC_ACQUIRE))
		return CUDA_SUCCESS;
	pthread_mutex_lock(&rt_lock);
	if (!rt_retained[dev] &&
	    (r = cuDevicePrimaryCtxRetain(&c, dev)) == CUDA_SUCCESS)
		__atomic_store_n(&rt_retained[dev], true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&rt_lock);
	return r;
}

/* cuInit, once. */
static CUresult rt_init(void)
{
	if (cuemu_check_init() == CUDA_SUCCESS)
		return CUDA_SUCCESS;
	return cuInit(0);
}

static CUresult rt_check_dev(int dev)
{
	int n;
	CUresult r = rt_init();

	if (r != CUDA_SUCCESS)
		return r;
	n = cuemu_device_count();
	if (dev < 0 || dev >= n)
		return cuemu_fail(CUDA_ERROR_INVALID_DEVICE,
				  "device %d does not exist (%d devices)", dev,
				  n);
	return CUDA_SUCCESS;
}

/* The context current to the thread if it is alive, else none. */
static CUcontext live_current(void)
{
	CUcontext c = NULL;

	if (cuCtxGetCurrent(&c) != CUDA_SUCCESS || !cuemu_ctx_valid(c))
		return NULL;
	return c;
}

/* Makes dev's primary context, retained by the runtime, current. */
static CUresult rt_activate(int dev)
{
	CUresult r;

	if ((r = rt_check_dev(dev)) != CUDA_SUCCESS ||
	    (r = rt_retain(dev)) != CUDA_SUCCESS)
		return r;
	return cuCtxSetCurrent(cuemu_primary_ctx(dev));
}

CUresult cuemu_rt_current(CUcontext *ctx, int *dev)
{
	CUresult r;
	CUcontext c;

	if ((r = rt_init()) != CUDA_SUCCESS)
		return r;
	if (!(c = live_current())) {
		if ((r = rt_activate(rt_dev)) != CUDA_SUCCESS)
			return r;
		c = cuemu_primary_ctx(rt_dev);
	}
	if (ctx)
		*ctx = c;
	if (dev)
		*dev = cuemu_ctx_device(c);
	return CUDA_SUCCESS;
}

/* ---------------------------------------------------------------- devices */

cudaError_t cudaGetDeviceCount(int *count)
{
	CUresult r;

	if (!count)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((r = rt_init()) != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	return cuemu_rt_result(cuDeviceGetCount(count));
}

cudaError_t cudaSetDevice(int device)
{
	CUresult r = rt_check_dev(device);

	if (r != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	rt_dev = device;
	return cuemu_rt_result(rt_activate(device));
}

cudaError_t cudaGetDevice(int *device)
{
	CUcontext c;
	CUresult r;

	if (!device)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((r = rt_init()) != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	c = live_current();
	*device = c ? cuemu_ctx_device(c) : rt_dev;
	return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr,
				   int device)
{
	CUresult r = rt_check_dev(device);

	if (r != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	/* The runtime's attribute numbers are the driver's. */
	return cuemu_rt_result(cuDeviceGetAttribute(value,
				(CUdevice_attribute)attr, device));
}

/* An attribute the machine does not know reads as 0 in the properties. */
static int attr(int dev, CUdevice_attribute a)
{
	int v = cuemu_device(dev)->attrs[a];

	return v == CUEMU_ATTR_UNKNOWN ? 0 : v;
}

static void fill_limits(struct cudaDeviceProp *p, int d)
{
	p->sharedMemPerBlock = (size_t)attr(d,
		CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
	p->regsPerBlock = attr(d, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
	p->warpSize = attr(d, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
	p->memPitch = (size_t)attr(d, CU_DEVICE_ATTRIBUTE_MAX_PITCH);
	p->maxThreadsPerBlock = attr(d,
		CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
	p->maxThreadsDim[0] = attr(d, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
	p->maxThreadsDim[1] = attr(d, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y);
	p->maxThreadsDim[2] = attr(d, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
	p->maxGridSize[0] = attr(d, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
	p->maxGridSize[1] = attr(d, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
	p->maxGridSize[2] = attr(d, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
	p->totalConstMem = (size_t)attr(d,
		CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY);
	p->textureAlignment = (size_t)attr(d,
		CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT);
	p->texturePitchAlignment = (size_t)attr(d,
		CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT);
	p->sharedMemPerMultiprocessor = (size_t)attr(d,
		CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
	p->regsPerMultiprocessor = attr(d,
		CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
	p->sharedMemPerBlockOptin = (size_t)attr(d,
		CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
	p->reservedSharedMemPerBlock = (size_t)attr(d,
		CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK);
	p->maxBlocksPerMultiProcessor = attr(d,
		CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
	p->maxThreadsPerMultiProcessor = attr(d,
		CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
}

static void fill_hardware(struct cudaDeviceProp *p, int d)
{
	p->major = attr(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
	p->minor = attr(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
	p->multiProcessorCount = attr(d,
		CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
	p->integrated = attr(d, CU_DEVICE_ATTRIBUTE_INTEGRATED);
	p->concurrentKernels = attr(d, CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS);
	p->ECCEnabled = attr(d, CU_DEVICE_ATTRIBUTE_ECC_ENABLED);
	p->pciBusID = attr(d, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID);
	p->pciDeviceID = attr(d, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID);
	p->pciDomainID = attr(d, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID);
	p->asyncEngineCount = attr(d, CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT);
	p->memoryBusWidth = attr(d,
		CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
	p->l2CacheSize = attr(d, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
	p->persistingL2CacheMaxSize = attr(d,
		CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE);
	p->streamPrioritiesSupported = attr(d,
		CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED);
	p->globalL1CacheSupported = attr(d,
		CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED);
	p->localL1CacheSupported = attr(d,
		CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED);
	p->computePreemptionSupported = attr(d,
		CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED);
	p->cooperativeLaunch = attr(d, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH);
	p->accessPolicyMaxWindowSize = attr(d,
		CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE);
	p->clusterLaunch = attr(d, CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH);
	p->unifiedFunctionPointers = attr(d,
		CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS);
	p->ipcEventSupported = attr(d, CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED);
	p->deviceNumaConfig = attr(d, CU_DEVICE_ATTRIBUTE_NUMA_CONFIG);
	p->deviceNumaId = attr(d, CU_DEVICE_ATTRIBUTE_NUMA_ID);
	p->hostNumaId = attr(d, CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID);
}

static void fill_memory(struct cudaDeviceProp *p, int d)
{
	p->canMapHostMemory = attr(d, CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY);
	p->unifiedAddressing = attr(d, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING);
	p->managedMemory = attr(d, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY);
	p->hostNativeAtomicSupported = attr(d,
		CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED);
	p->pageableMemoryAccess = attr(d,
		CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS);
	p->concurrentManagedAccess = attr(d,
		CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS);
	p->canUseHostPointerForRegisteredMem = attr(d,
		CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM);
	p->pageableMemoryAccessUsesHostPageTables = attr(d,
		CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES);
	p->directManagedMemAccessFromHost = attr(d,
		CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST);
	p->hostRegisterSupported = attr(d,
		CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED);
	p->hostRegisterReadOnlySupported = attr(d,
		CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED);
	p->sparseCudaArraySupported = attr(d,
		CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED);
	p->timelineSemaphoreInteropSupported = attr(d,
		CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED);
	p->memoryPoolsSupported = attr(d,
		CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED);
	p->gpuDirectRDMASupported = attr(d,
		CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED);
	p->memoryPoolSupportedHandleTypes = (unsigned int)attr(d,
		CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES);
	p->deferredMappingCudaArraySupported = attr(d,
		CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED);
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
	const struct cuemu_device_info *info;
	CUresult r;

	if (!prop)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((r = rt_check_dev(device)) != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	info = cuemu_device(device);
	memset(prop, 0, sizeof *prop);
	snprintf(prop->name, sizeof prop->name, "%s", info->name);
	memcpy(prop->uuid.bytes, info->uuid, sizeof prop->uuid.bytes);
	prop->totalGlobalMem = info->total;
	fill_limits(prop, device);
	fill_hardware(prop, device);
	fill_memory(prop, device);
	return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void)
{
	CUresult r = cuemu_rt_current(NULL, NULL);

	if (r != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	return cuemu_rt_result(cuCtxSynchronize());
}

cudaError_t cudaDeviceReset(void)
{
	CUresult r;
	CUcontext c;
	bool held;
	int dev;

	if ((r = cuemu_rt_current(&c, &dev)) != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	/* Everything of the device's primary context goes; the next runtime
	 * call starts it afresh. */
	if ((r = cuDevicePrimaryCtxReset(dev)) != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	pthread_mutex_lock(&rt_lock);
	held = rt_retained[dev];
	__atomic_store_n(&rt_retained[dev], false, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&rt_lock);
	if (held)
		r = cuDevicePrimaryCtxRelease(dev);
	if (c == cuemu_primary_ctx(dev) && !cuemu_ctx_valid(c))
		cuCtxSetCurrent(NULL);
	return cuemu_rt_result(r);
}

cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device,
				    int peerDevice)
{
	CUresult r = rt_init();

	if (r != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	return cuemu_rt_result(cuDeviceCanAccessPeer(canAccessPeer, device,
						     peerDevice));
}

/* The peer's primary context, retained by the runtime. */
static CUresult rt_peer(int peerDevice, CUcontext *peer)
{
	CUresult r;

	if ((r = cuemu_rt_current(NULL, NULL)) != CUDA_SUCCESS ||
	    (r = rt_check_dev(peerDevice)) != CUDA_SUCCESS ||
	    (r = rt_retain(peerDevice)) != CUDA_SUCCESS)
		return r;
	*peer = cuemu_primary_ctx(peerDevice);
	return CUDA_SUCCESS;
}

cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags)
{
	CUcontext peer;
	CUresult r;

	if ((r = rt_peer(peerDevice, &peer)) != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	return cuemu_rt_result(cuCtxEnablePeerAccess(peer, flags));
}

cudaError_t cudaDeviceDisablePeerAccess(int peerDevice)
{
	CUcontext peer;
	CUresult r;

	if ((r = rt_peer(peerDevice, &peer)) != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	return cuemu_rt_result(cuCtxDisablePeerAccess(peer));
}

/* ---------------------------------------------------------------- streams */

/* Every stream and event call starts the runtime first. */
#define RT_BEGIN()                                                    \
	do {                                                          \
		CUresult rt_r_ = cuemu_rt_current(NULL, NULL);        \
		if (rt_r_ != CUDA_SUCCESS)                            \
			return cuemu_rt_result(rt_r_);                \
	} while (0)

cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamCreate(pStream, CU_STREAM_DEFAULT));
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream,
				      unsigned int flags)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamCreate(pStream, flags));
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream,
					 unsigned int flags, int priority)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamCreateWithPriority(pStream, flags,
							  priority));
}

cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamGetPriority(hStream, priority));
}

cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamGetFlags(hStream, flags));
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamDestroy(stream));
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
				unsigned int flags)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamWaitEvent(stream, event, flags));
}

/* A runtime callback takes a cudaError_t: a driver callback calls it. */
struct rt_callback {
	cudaStreamCallback_t fn;
	void *user;
};

static void rt_callback_tramp(CUstream s, CUresult status, void *arg)
{
	struct rt_callback c = *(struct rt_callback *)arg;

	free(arg);
	c.fn(s, (cudaError_t)status, c.user);
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream,
				  cudaStreamCallback_t callback,
				  void *userData, unsigned int flags)
{
	struct rt_callback *c;
	CUresult r;

	RT_BEGIN();
	if (!callback || flags != 0)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if (!(c = malloc(sizeof *c)))
		return cuemu_rt_fail(cudaErrorMemoryAllocation);
	*c = (struct rt_callback){ callback, userData };
	if ((r = cuStreamAddCallback(stream, rt_callback_tramp, c, 0)) !=
	    CUDA_SUCCESS)
		free(c);
	return cuemu_rt_result(r);
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamSynchronize(stream));
}

cudaError_t cudaStreamQuery(cudaStream_t stream)
{
	CUresult r;

	RT_BEGIN();
	/* Not ready is an answer, not an error: it is not recorded. */
	if ((r = cuStreamQuery(stream)) == CUDA_ERROR_NOT_READY)
		return cudaErrorNotReady;
	return cuemu_rt_result(r);
}

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn,
			       void *userData)
{
	RT_BEGIN();
	return cuemu_rt_result(cuLaunchHostFunc(stream, fn, userData));
}

/* ---------------------------------------------------------------- events */

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
	RT_BEGIN();
	return cuemu_rt_result(cuEventCreate(event, CU_EVENT_DEFAULT));
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
	RT_BEGIN();
	return cuemu_rt_result(cuEventCreate(event, flags));
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
	RT_BEGIN();
	return cuemu_rt_result(cuEventRecord(event, stream));
}

cudaError_t cudaEventQuery(cudaEvent_t event)
{
	CUresult r;

	RT_BEGIN();
	if ((r = cuEventQuery(event)) == CUDA_ERROR_NOT_READY)
		return cudaErrorNotReady;
	return cuemu_rt_result(r);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
	RT_BEGIN();
	return cuemu_rt_result(cuEventSynchronize(event));
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
	RT_BEGIN();
	return cuemu_rt_result(cuEventDestroy(event));
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start,
				 cudaEvent_t end)
{
	CUresult r;

	RT_BEGIN();
	if ((r = cuEventElapsedTime(ms, start, end)) == CUDA_ERROR_NOT_READY)
		return cudaErrorNotReady;
	return cuemu_rt_result(r);
}
