/*
 * device.c - the runtime API's initialization and device management: the
 * runtime's lazy start (cuemu_rt_current), cudaDriverGetVersion,
 * cudaRuntimeGetVersion, cudaGetDeviceCount, Set/GetDevice,
 * cudaDeviceGetAttribute, cudaGetDeviceProperties, cudaDeviceSynchronize,
 * cudaDeviceReset and peer access, on the public driver API.
 *
 * The runtime initializes on first use: cuInit, then the primary context of
 * the thread's device (device 0 until cudaSetDevice), which it retains once
 * per process and makes current. A context the thread made current through
 * the driver API is used as it is, as the real runtime does.
 *
 * Locking: rt_lock guards the runtime's retains of primary contexts; the
 * selected device is per thread, as the runtime's is.
 */
#include "cudart/register.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The most devices the runtime keeps a primary context for. */
#define RT_MAX_DEVICES 64

/* The primary contexts the runtime retained, one retain per device for the
 * whole process as the runtime does; guarded by rt_lock, read atomically. */
static pthread_mutex_t rt_lock = PTHREAD_MUTEX_INITIALIZER;
static CUcontext rt_primary[RT_MAX_DEVICES];

/* cuInit has succeeded once: the runtime need not ask again. */
static bool rt_inited;

/* The device cudaSetDevice chose for this thread. */
static __thread int rt_dev;

/* What runs once the runtime has a context current (cuemu_rt_on_current).
 * Written only from constructors, before any thread calls the runtime. */
static void (*on_current)(void);

/* What runs once cudaDeviceReset has reset a context
 * (cuemu_rt_on_reset); written only from constructors, as on_current. */
static void (*on_reset)(CUcontext ctx);

/* ---------------------------------------------------------------- init */

/* cuInit, until it has succeeded once. */
static CUresult rt_init(void)
{
	CUresult r;

	if (__atomic_load_n(&rt_inited, __ATOMIC_ACQUIRE))
		return CUDA_SUCCESS;
	if ((r = cuInit(0)) == CUDA_SUCCESS)
		__atomic_store_n(&rt_inited, true, __ATOMIC_RELEASE);
	return r;
}

static CUresult rt_check_dev(int dev)
{
	CUresult r = rt_init();
	int n;

	if (r != CUDA_SUCCESS ||
	    (r = cuDeviceGetCount(&n)) != CUDA_SUCCESS)
		return r;
	if (dev < 0 || dev >= n || dev >= RT_MAX_DEVICES)
		return CUDA_ERROR_INVALID_DEVICE;
	return CUDA_SUCCESS;
}

/* The runtime's own retain of dev's primary context, taken once. */
static CUresult rt_retain(int dev, CUcontext *pctx)
{
	CUcontext c = __atomic_load_n(&rt_primary[dev], __ATOMIC_ACQUIRE);
	CUresult r = CUDA_SUCCESS;

	if (!c) {
		pthread_mutex_lock(&rt_lock);
		if (!(c = rt_primary[dev]) &&
		    (r = cuDevicePrimaryCtxRetain(&c, dev)) == CUDA_SUCCESS)
			__atomic_store_n(&rt_primary[dev], c,
					 __ATOMIC_RELEASE);
		pthread_mutex_unlock(&rt_lock);
	}
	if (pctx)
		*pctx = c;
	return r;
}

/* The context current to the thread if it is alive, else none. */
static CUcontext live_current(void)
{
	CUcontext c = NULL;
	CUdevice d;

	if (cuCtxGetCurrent(&c) != CUDA_SUCCESS || !c ||
	    cuCtxGetDevice_v2(&d, c) != CUDA_SUCCESS)
		return NULL;
	return c;
}

/* Makes dev's primary context, retained by the runtime, current. */
static CUresult rt_activate(int dev, CUcontext *pctx)
{
	CUcontext c;
	CUresult r;

	if ((r = rt_check_dev(dev)) != CUDA_SUCCESS ||
	    (r = rt_retain(dev, &c)) != CUDA_SUCCESS ||
	    (r = cuCtxSetCurrent(c)) != CUDA_SUCCESS)
		return r;
	if (pctx)
		*pctx = c;
	return CUDA_SUCCESS;
}

void cuemu_rt_on_current(void (*fn)(void))
{
	on_current = fn;
}

void cuemu_rt_on_reset(void (*fn)(CUcontext ctx))
{
	on_reset = fn;
}

CUresult cuemu_rt_current(CUcontext *ctx, int *dev)
{
	CUresult r;
	CUcontext c;
	CUdevice d;

	if ((r = rt_init()) != CUDA_SUCCESS)
		return r;
	if (!(c = live_current()) &&
	    (r = rt_activate(rt_dev, &c)) != CUDA_SUCCESS)
		return r;
	if ((r = cuCtxGetDevice_v2(&d, c)) != CUDA_SUCCESS)
		return r;
	if (on_current)
		on_current();
	if (ctx)
		*ctx = c;
	if (dev)
		*dev = d;
	return CUDA_SUCCESS;
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
	return cuemu_rt_result(rt_activate(device, NULL));
}

cudaError_t cudaGetDevice(int *device)
{
	CUcontext c;
	CUresult r;

	if (!device)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((r = rt_init()) != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	if (!(c = live_current()) || cuCtxGetDevice_v2(device, c) != CUDA_SUCCESS)
		*device = rt_dev;
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
	int v;

	return cuDeviceGetAttribute(&v, a, dev) == CUDA_SUCCESS ? v : 0;
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

/* The texture and surface limits, and the identity fields the others
 * leave: every member of the CUDA 13 structure comes from the device. */
static void fill_textures(struct cudaDeviceProp *p, int d)
{
#define A(name) attr(d, CU_DEVICE_ATTRIBUTE_MAXIMUM_##name)
	p->maxTexture1D = A(TEXTURE1D_WIDTH);
	p->maxTexture1DMipmap = A(TEXTURE1D_MIPMAPPED_WIDTH);
	p->maxTexture2D[0] = A(TEXTURE2D_WIDTH);
	p->maxTexture2D[1] = A(TEXTURE2D_HEIGHT);
	p->maxTexture2DMipmap[0] = A(TEXTURE2D_MIPMAPPED_WIDTH);
	p->maxTexture2DMipmap[1] = A(TEXTURE2D_MIPMAPPED_HEIGHT);
	p->maxTexture2DLinear[0] = A(TEXTURE2D_LINEAR_WIDTH);
	p->maxTexture2DLinear[1] = A(TEXTURE2D_LINEAR_HEIGHT);
	p->maxTexture2DLinear[2] = A(TEXTURE2D_LINEAR_PITCH);
	p->maxTexture2DGather[0] = A(TEXTURE2D_GATHER_WIDTH);
	p->maxTexture2DGather[1] = A(TEXTURE2D_GATHER_HEIGHT);
	p->maxTexture3D[0] = A(TEXTURE3D_WIDTH);
	p->maxTexture3D[1] = A(TEXTURE3D_HEIGHT);
	p->maxTexture3D[2] = A(TEXTURE3D_DEPTH);
	p->maxTexture3DAlt[0] = A(TEXTURE3D_WIDTH_ALTERNATE);
	p->maxTexture3DAlt[1] = A(TEXTURE3D_HEIGHT_ALTERNATE);
	p->maxTexture3DAlt[2] = A(TEXTURE3D_DEPTH_ALTERNATE);
	p->maxTextureCubemap = A(TEXTURECUBEMAP_WIDTH);
	p->maxTexture1DLayered[0] = A(TEXTURE1D_LAYERED_WIDTH);
	p->maxTexture1DLayered[1] = A(TEXTURE1D_LAYERED_LAYERS);
	p->maxTexture2DLayered[0] = A(TEXTURE2D_LAYERED_WIDTH);
	p->maxTexture2DLayered[1] = A(TEXTURE2D_LAYERED_HEIGHT);
	p->maxTexture2DLayered[2] = A(TEXTURE2D_LAYERED_LAYERS);
	p->maxTextureCubemapLayered[0] = A(TEXTURECUBEMAP_LAYERED_WIDTH);
	p->maxTextureCubemapLayered[1] = A(TEXTURECUBEMAP_LAYERED_LAYERS);
	p->maxSurface1D = A(SURFACE1D_WIDTH);
	p->maxSurface2D[0] = A(SURFACE2D_WIDTH);
	p->maxSurface2D[1] = A(SURFACE2D_HEIGHT);
	p->maxSurface3D[0] = A(SURFACE3D_WIDTH);
	p->maxSurface3D[1] = A(SURFACE3D_HEIGHT);
	p->maxSurface3D[2] = A(SURFACE3D_DEPTH);
	p->maxSurface1DLayered[0] = A(SURFACE1D_LAYERED_WIDTH);
	p->maxSurface1DLayered[1] = A(SURFACE1D_LAYERED_LAYERS);
	p->maxSurface2DLayered[0] = A(SURFACE2D_LAYERED_WIDTH);
	p->maxSurface2DLayered[1] = A(SURFACE2D_LAYERED_HEIGHT);
	p->maxSurface2DLayered[2] = A(SURFACE2D_LAYERED_LAYERS);
	p->maxSurfaceCubemap = A(SURFACECUBEMAP_WIDTH);
	p->maxSurfaceCubemapLayered[0] = A(SURFACECUBEMAP_LAYERED_WIDTH);
	p->maxSurfaceCubemapLayered[1] = A(SURFACECUBEMAP_LAYERED_LAYERS);
#undef A
	p->surfaceAlignment = (size_t)attr(d,
		CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT);
	p->tccDriver = attr(d, CU_DEVICE_ATTRIBUTE_TCC_DRIVER);
	p->isMultiGpuBoard = attr(d, CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD);
	p->multiGpuBoardGroupID = attr(d,
		CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID);
	p->gpuDirectRDMAFlushWritesOptions = (unsigned int)attr(d,
		CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS);
	p->gpuDirectRDMAWritesOrdering = attr(d,
		CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING);
	p->mpsEnabled = attr(d, CU_DEVICE_ATTRIBUTE_MPS_ENABLED);
	p->gpuPciDeviceID = (unsigned int)attr(d,
		CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID);
	p->gpuPciSubsystemID = (unsigned int)attr(d,
		CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID);
	p->hostNumaMultinodeIpcSupported = attr(d,
		CU_DEVICE_ATTRIBUTE_HOST_NUMA_MULTINODE_IPC_SUPPORTED);
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
	CUuuid uuid;
	CUresult r;

	if (!prop)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((r = rt_check_dev(device)) != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	memset(prop, 0, sizeof *prop);
	if ((r = cuDeviceGetName(prop->name, sizeof prop->name, device)) !=
	    CUDA_SUCCESS ||
	    (r = cuDeviceGetUuid_v2(&uuid, device)) != CUDA_SUCCESS ||
	    (r = cuDeviceTotalMem_v2(&prop->totalGlobalMem, device)) !=
	    CUDA_SUCCESS)
		return cuemu_rt_result(r);
	memcpy(prop->uuid.bytes, uuid.bytes, sizeof prop->uuid.bytes);
	fill_limits(prop, device);
	fill_hardware(prop, device);
	fill_memory(prop, device);
	fill_textures(prop, device);
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
	CUcontext c, held;
	CUresult r;
	CUdevice d;
	int dev;

	if ((r = cuemu_rt_current(&c, &dev)) != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	if (dev >= RT_MAX_DEVICES)
		return cuemu_rt_result(CUDA_ERROR_INVALID_DEVICE);
	/* Everything of the device's primary context goes; the next runtime
	 * call starts it afresh. */
	if ((r = cuDevicePrimaryCtxReset(dev)) != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	pthread_mutex_lock(&rt_lock);
	held = rt_primary[dev];
	__atomic_store_n(&rt_primary[dev], NULL, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&rt_lock);
	/* the modules loaded in it went with the reset (register.c) */
	if (on_reset && held)
		on_reset(held);
	if (held)
		r = cuDevicePrimaryCtxRelease(dev);
	/* A primary context that the release ended is current no more. */
	if (held && c == held && cuCtxGetDevice_v2(&d, c) != CUDA_SUCCESS)
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
	    (r = rt_retain(peerDevice, peer)) != CUDA_SUCCESS)
		return r;
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
