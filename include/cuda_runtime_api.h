/*
 * cuda_runtime_api.h - the libcuemu runtime API as a C program includes it:
 * the runtime entry points of the CUDA memory API (devices, streams,
 * events, device/host/managed allocation, copies, memsets, advice and
 * prefetch, stream-ordered allocation and memory pools, CUDA arrays,
 * texture and surface objects) over the types of builtin_types.h.
 *
 * Source-compatible with the CUDA 13 API: the guard, the version macro,
 * the layering (host_defines.h, builtin_types.h) and the exported symbol
 * names are those of CUDA 13, so code that tests __CUDA_RUNTIME_API_H__ or
 * CUDART_VERSION builds unchanged.
 */
#if !defined(__CUDA_RUNTIME_API_H__)
#define __CUDA_RUNTIME_API_H__

#include <stddef.h>
#include <stdlib.h>

/** Runtime API version this header implements (major * 1000 + minor * 10). */
#define CUDART_VERSION 13000
#define __CUDART_API_VERSION CUDART_VERSION

#include "host_defines.h"
#include "builtin_types.h"

/* What the toolkit marks the runtime's device-callable entries with; a
 * host compiler sees nothing. */
#define CUDART_DEVICE __device__

/* Trailing arguments that C++ callers may leave out. */
#ifdef __cplusplus
#define CUEMU_DEFARG(v) = v
#else
#define CUEMU_DEFARG(v)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* What cudaLogsRegisterCallback calls with each line of the driver's log. */
typedef void (CUDART_CB *cudaLogsCallback_t)(void *data, cudaLogLevel logLevel,
                                             char *message, size_t length);

/* ==================================================== entry points */

/* ---- errors and versions */
const char *CUDARTAPI cudaGetErrorName(cudaError_t error);
const char *CUDARTAPI cudaGetErrorString(cudaError_t error);
cudaError_t CUDARTAPI cudaGetLastError(void);
cudaError_t CUDARTAPI cudaPeekAtLastError(void);
cudaError_t CUDARTAPI cudaDriverGetVersion(int *driverVersion);
cudaError_t CUDARTAPI cudaRuntimeGetVersion(int *runtimeVersion);

/* ---- devices */
cudaError_t CUDARTAPI cudaGetDeviceCount(int *count);
cudaError_t CUDARTAPI cudaSetDevice(int device);
cudaError_t CUDARTAPI cudaGetDevice(int *device);
cudaError_t CUDARTAPI cudaGetDeviceProperties(struct cudaDeviceProp *prop,
                                              int device);
cudaError_t CUDARTAPI cudaDeviceGetAttribute(int *value,
                                             enum cudaDeviceAttr attr,
                                             int device);
cudaError_t CUDARTAPI cudaDeviceSynchronize(void);
cudaError_t CUDARTAPI cudaDeviceReset(void);
cudaError_t CUDARTAPI cudaDeviceCanAccessPeer(int *canAccessPeer, int device,
                                              int peerDevice);
cudaError_t CUDARTAPI cudaDeviceEnablePeerAccess(int peerDevice,
                                                 unsigned int flags);
cudaError_t CUDARTAPI cudaDeviceDisablePeerAccess(int peerDevice);
cudaError_t CUDARTAPI cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool,
                                                  int device);
cudaError_t CUDARTAPI cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device);
cudaError_t CUDARTAPI cudaDeviceSetMemPool(int device, cudaMemPool_t memPool);

/* ---- device settings, PCI identity and selection around memory work */
cudaError_t CUDARTAPI cudaDeviceGetP2PAttribute(int *value,
    enum cudaDeviceP2PAttr attr, int srcDevice, int dstDevice);
cudaError_t CUDARTAPI cudaDeviceGetPCIBusId(char *pciBusId, int len,
    int device);
cudaError_t CUDARTAPI cudaDeviceGetByPCIBusId(int *device,
    const char *pciBusId);
cudaError_t CUDARTAPI cudaDeviceGetLimit(size_t *pValue,
    enum cudaLimit limit);
cudaError_t CUDARTAPI cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
cudaError_t CUDARTAPI cudaCtxResetPersistingL2Cache(void);
cudaError_t CUDARTAPI cudaDeviceGetCacheConfig(
    enum cudaFuncCache *pCacheConfig);
cudaError_t CUDARTAPI cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig);
cudaError_t CUDARTAPI cudaDeviceGetSharedMemConfig(
    enum cudaSharedMemConfig *pConfig);
cudaError_t CUDARTAPI cudaDeviceSetSharedMemConfig(
    enum cudaSharedMemConfig config);
cudaError_t CUDARTAPI cudaDeviceGetStreamPriorityRange(int *leastPriority,
    int *greatestPriority);
cudaError_t CUDARTAPI cudaSetDeviceFlags(unsigned int flags);
cudaError_t CUDARTAPI cudaGetDeviceFlags(unsigned int *flags);

/* ---- streams */
cudaError_t CUDARTAPI cudaStreamCreate(cudaStream_t *pStream);
cudaError_t CUDARTAPI cudaStreamCreateWithFlags(cudaStream_t *pStream,
                                                unsigned int flags);
cudaError_t CUDARTAPI cudaStreamCreateWithPriority(cudaStream_t *pStream,
                                                   unsigned int flags,
                                                   int priority);
cudaError_t CUDARTAPI cudaStreamGetPriority(cudaStream_t hStream,
                                            int *priority);
cudaError_t CUDARTAPI cudaStreamGetFlags(cudaStream_t hStream,
                                         unsigned int *flags);
cudaError_t CUDARTAPI cudaStreamGetId(cudaStream_t hStream,
				     unsigned long long *streamId);
cudaError_t CUDARTAPI cudaStreamGetDevice(cudaStream_t hStream, int *device);
cudaError_t CUDARTAPI cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src);
cudaError_t CUDARTAPI cudaStreamDestroy(cudaStream_t stream);
cudaError_t CUDARTAPI cudaStreamWaitEvent(cudaStream_t stream,
                                          cudaEvent_t event,
                                          unsigned int flags CUEMU_DEFARG(0));
cudaError_t CUDARTAPI cudaStreamAddCallback(cudaStream_t stream,
                                            cudaStreamCallback_t callback,
                                            void *userData,
                                            unsigned int flags);
cudaError_t CUDARTAPI cudaStreamSynchronize(cudaStream_t stream);
cudaError_t CUDARTAPI cudaStreamQuery(cudaStream_t stream);
cudaError_t CUDARTAPI cudaStreamAttachMemAsync(cudaStream_t stream,
    void *devPtr, size_t length CUEMU_DEFARG(0),
    unsigned int flags CUEMU_DEFARG(cudaMemAttachSingle));
cudaError_t CUDARTAPI cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn,
                                         void *userData);

/* ---- events */
cudaError_t CUDARTAPI cudaEventCreate(cudaEvent_t *event);
cudaError_t CUDARTAPI cudaEventCreateWithFlags(cudaEvent_t *event,
                                               unsigned int flags);
cudaError_t CUDARTAPI cudaEventRecord(cudaEvent_t event,
                                      cudaStream_t stream CUEMU_DEFARG(0));
cudaError_t CUDARTAPI cudaEventQuery(cudaEvent_t event);
cudaError_t CUDARTAPI cudaEventSynchronize(cudaEvent_t event);
cudaError_t CUDARTAPI cudaEventDestroy(cudaEvent_t event);
cudaError_t CUDARTAPI cudaEventElapsedTime(float *ms, cudaEvent_t start,
                                           cudaEvent_t end);

/* ---- allocation */
cudaError_t CUDARTAPI cudaMalloc(void **devPtr, size_t size);
cudaError_t CUDARTAPI cudaMallocHost(void **ptr, size_t size);
cudaError_t CUDARTAPI cudaMallocPitch(void **devPtr, size_t *pitch,
                                      size_t width, size_t height);
cudaError_t CUDARTAPI cudaMallocManaged(void **devPtr, size_t size,
                                        unsigned int flags
                                        CUEMU_DEFARG(cudaMemAttachGlobal));
cudaError_t CUDARTAPI cudaFree(void *devPtr);
cudaError_t CUDARTAPI cudaFreeHost(void *ptr);
cudaError_t CUDARTAPI cudaHostAlloc(void **pHost, size_t size,
                                    unsigned int flags);
cudaError_t CUDARTAPI cudaHostRegister(void *ptr, size_t size,
                                       unsigned int flags);
cudaError_t CUDARTAPI cudaHostUnregister(void *ptr);
cudaError_t CUDARTAPI cudaHostGetDevicePointer(void **pDevice, void *pHost,
                                               unsigned int flags);
cudaError_t CUDARTAPI cudaHostGetFlags(unsigned int *pFlags, void *pHost);
cudaError_t CUDARTAPI cudaMemGetInfo(size_t *freeBytes, size_t *totalBytes);

/* ---- copies and memsets */
cudaError_t CUDARTAPI cudaMemcpy(void *dst, const void *src, size_t count,
                                 enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpyPeer(void *dst, int dstDevice,
                                     const void *src, int srcDevice,
                                     size_t count);
cudaError_t CUDARTAPI cudaMemcpyAsync(void *dst, const void *src,
                                      size_t count, enum cudaMemcpyKind kind,
                                      cudaStream_t stream CUEMU_DEFARG(0));
cudaError_t CUDARTAPI cudaMemcpyPeerAsync(void *dst, int dstDevice,
                                          const void *src, int srcDevice,
                                          size_t count,
                                          cudaStream_t stream
                                          CUEMU_DEFARG(0));
cudaError_t CUDARTAPI cudaMemset(void *devPtr, int value, size_t count);
cudaError_t CUDARTAPI cudaMemsetAsync(void *devPtr, int value, size_t count,
                                      cudaStream_t stream CUEMU_DEFARG(0));

/* ---- unified memory */
cudaError_t CUDARTAPI cudaMemPrefetchAsync(const void *devPtr, size_t count,
                                           struct cudaMemLocation location,
                                           unsigned int flags,
                                           cudaStream_t stream
                                           CUEMU_DEFARG(0));
cudaError_t CUDARTAPI cudaMemAdvise(const void *devPtr, size_t count,
                                    enum cudaMemoryAdvise advice,
                                    struct cudaMemLocation location);
cudaError_t CUDARTAPI cudaMemRangeGetAttribute(
    void *data, size_t dataSize, enum cudaMemRangeAttribute attribute,
    const void *devPtr, size_t count);
cudaError_t CUDARTAPI cudaMemRangeGetAttributes(
    void **data, size_t *dataSizes, enum cudaMemRangeAttribute *attributes,
    size_t numAttributes, const void *devPtr, size_t count);
cudaError_t CUDARTAPI cudaPointerGetAttributes(
    struct cudaPointerAttributes *attributes, const void *ptr);

/* ---- stream-ordered allocation and memory pools */
cudaError_t CUDARTAPI cudaMallocAsync(void **devPtr, size_t size,
                                      cudaStream_t hStream);
cudaError_t CUDARTAPI cudaFreeAsync(void *devPtr, cudaStream_t hStream);
cudaError_t CUDARTAPI cudaMallocFromPoolAsync(void **ptr, size_t size,
                                              cudaMemPool_t memPool,
                                              cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemPoolTrimTo(cudaMemPool_t memPool,
                                        size_t minBytesToKeep);
cudaError_t CUDARTAPI cudaMemPoolSetAttribute(cudaMemPool_t memPool,
                                              enum cudaMemPoolAttr attr,
                                              void *value);
cudaError_t CUDARTAPI cudaMemPoolGetAttribute(cudaMemPool_t memPool,
                                              enum cudaMemPoolAttr attr,
                                              void *value);
cudaError_t CUDARTAPI cudaMemPoolSetAccess(
    cudaMemPool_t memPool, const struct cudaMemAccessDesc *descList,
    size_t count);
cudaError_t CUDARTAPI cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags,
                                           cudaMemPool_t memPool,
                                           struct cudaMemLocation *location);
cudaError_t CUDARTAPI cudaMemPoolCreate(cudaMemPool_t *memPool,
                                        const struct cudaMemPoolProps *poolProps);
cudaError_t CUDARTAPI cudaMemPoolDestroy(cudaMemPool_t memPool);
cudaError_t CUDARTAPI cudaMemPoolExportToShareableHandle(
    void *shareableHandle, cudaMemPool_t memPool,
    enum cudaMemAllocationHandleType handleType, unsigned int flags);
cudaError_t CUDARTAPI cudaMemPoolImportFromShareableHandle(
    cudaMemPool_t *memPool, void *shareableHandle,
    enum cudaMemAllocationHandleType handleType, unsigned int flags);
cudaError_t CUDARTAPI cudaMemPoolExportPointer(
    struct cudaMemPoolPtrExportData *exportData, void *ptr);
cudaError_t CUDARTAPI cudaMemPoolImportPointer(
    void **ptr, cudaMemPool_t memPool,
    struct cudaMemPoolPtrExportData *exportData);

/* ---- pitched memory, 2D/3D copies and memsets, CUDA arrays */
cudaError_t CUDARTAPI cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr,
                                   struct cudaExtent extent);
cudaError_t CUDARTAPI cudaMemcpy2D(void *dst, size_t dpitch, const void *src,
                                   size_t spitch, size_t width, size_t height,
                                   enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpy2DAsync(void *dst, size_t dpitch,
                                        const void *src, size_t spitch,
                                        size_t width, size_t height,
                                        enum cudaMemcpyKind kind,
                                        cudaStream_t stream CUEMU_DEFARG(0));
cudaError_t CUDARTAPI cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
cudaError_t CUDARTAPI cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p,
                                        cudaStream_t stream CUEMU_DEFARG(0));
cudaError_t CUDARTAPI cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms *p);
cudaError_t CUDARTAPI cudaMemcpy3DBatchAsync(size_t numOps,
                                             struct cudaMemcpy3DBatchOp *opList,
                                             unsigned long long flags,
                                             cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemcpy3DPeerAsync(
    const struct cudaMemcpy3DPeerParms *p,
    cudaStream_t stream CUEMU_DEFARG(0));
cudaError_t CUDARTAPI cudaMemset2D(void *devPtr, size_t pitch, int value,
                                   size_t width, size_t height);
cudaError_t CUDARTAPI cudaMemset2DAsync(void *devPtr, size_t pitch, int value,
                                        size_t width, size_t height,
                                        cudaStream_t stream CUEMU_DEFARG(0));
cudaError_t CUDARTAPI cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr,
                                   int value, struct cudaExtent extent);
cudaError_t CUDARTAPI cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr,
                                        int value, struct cudaExtent extent,
                                        cudaStream_t stream CUEMU_DEFARG(0));
struct cudaChannelFormatDesc CUDARTAPI cudaCreateChannelDesc(int x, int y,
    int z, int w, enum cudaChannelFormatKind f);
cudaError_t CUDARTAPI cudaMallocArray(cudaArray_t *array,
    const struct cudaChannelFormatDesc *desc, size_t width,
    size_t height CUEMU_DEFARG(0), unsigned int flags CUEMU_DEFARG(0));
cudaError_t CUDARTAPI cudaMalloc3DArray(cudaArray_t *array,
    const struct cudaChannelFormatDesc *desc, struct cudaExtent extent,
    unsigned int flags CUEMU_DEFARG(0));
cudaError_t CUDARTAPI cudaFreeArray(cudaArray_t array);
cudaError_t CUDARTAPI cudaArrayGetInfo(struct cudaChannelFormatDesc *desc,
                                       struct cudaExtent *extent,
                                       unsigned int *flags, cudaArray_t array);
cudaError_t CUDARTAPI cudaGetChannelDesc(struct cudaChannelFormatDesc *desc,
                                         cudaArray_const_t array);
cudaError_t CUDARTAPI cudaArrayGetPlane(cudaArray_t *pPlaneArray,
                                        cudaArray_t hArray,
                                        unsigned int planeIdx);
cudaError_t CUDARTAPI cudaArrayGetMemoryRequirements(
    struct cudaArrayMemoryRequirements *memoryRequirements,
    cudaArray_t array, int device);
cudaError_t CUDARTAPI cudaArrayGetSparseProperties(
    struct cudaArraySparseProperties *sparseProperties, cudaArray_t array);
cudaError_t CUDARTAPI cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset,
    size_t hOffset, const void *src, size_t spitch, size_t width,
    size_t height, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpy2DFromArray(void *dst, size_t dpitch,
    cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t width,
    size_t height, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpy2DArrayToArray(cudaArray_t dst,
    size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src,
    size_t wOffsetSrc, size_t hOffsetSrc, size_t width, size_t height,
    enum cudaMemcpyKind kind CUEMU_DEFARG(cudaMemcpyDeviceToDevice));
cudaError_t CUDARTAPI cudaMemcpy2DToArrayAsync(cudaArray_t dst,
    size_t wOffset, size_t hOffset, const void *src, size_t spitch,
    size_t width, size_t height, enum cudaMemcpyKind kind,
    cudaStream_t stream CUEMU_DEFARG(0));
cudaError_t CUDARTAPI cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch,
    cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t width,
    size_t height, enum cudaMemcpyKind kind,
    cudaStream_t stream CUEMU_DEFARG(0));
cudaError_t CUDARTAPI cudaMemcpyToArray(cudaArray_t dst, size_t wOffset,
    size_t hOffset, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpyFromArray(void *dst, cudaArray_const_t src,
    size_t wOffset, size_t hOffset, size_t count, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpyArrayToArray(cudaArray_t dst,
    size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src,
    size_t wOffsetSrc, size_t hOffsetSrc, size_t count,
    enum cudaMemcpyKind kind CUEMU_DEFARG(cudaMemcpyDeviceToDevice));
cudaError_t CUDARTAPI cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset,
    size_t hOffset, const void *src, size_t count, enum cudaMemcpyKind kind,
    cudaStream_t stream CUEMU_DEFARG(0));
cudaError_t CUDARTAPI cudaMemcpyFromArrayAsync(void *dst,
    cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
    enum cudaMemcpyKind kind, cudaStream_t stream CUEMU_DEFARG(0));

/* Texture and surface objects (libcuemu(3), "Texture and surface
 * objects"). */
cudaError_t CUDARTAPI cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
    const struct cudaResourceDesc *pResDesc,
    const struct cudaTextureDesc *pTexDesc,
    const struct cudaResourceViewDesc *pResViewDesc);
cudaError_t CUDARTAPI cudaDestroyTextureObject(cudaTextureObject_t texObject);
cudaError_t CUDARTAPI cudaGetTextureObjectResourceDesc(
    struct cudaResourceDesc *pResDesc, cudaTextureObject_t texObject);
cudaError_t CUDARTAPI cudaGetTextureObjectTextureDesc(
    struct cudaTextureDesc *pTexDesc, cudaTextureObject_t texObject);
cudaError_t CUDARTAPI cudaGetTextureObjectResourceViewDesc(
    struct cudaResourceViewDesc *pResViewDesc, cudaTextureObject_t texObject);
cudaError_t CUDARTAPI cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
    const struct cudaResourceDesc *pResDesc);
cudaError_t CUDARTAPI cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject);
cudaError_t CUDARTAPI cudaGetSurfaceObjectResourceDesc(
    struct cudaResourceDesc *pResDesc, cudaSurfaceObject_t surfObject);

/* The runtime's helpers that make the 3D structures. */
static __inline__ struct cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p,
                                                            size_t xsz,
                                                            size_t ysz)
{
    struct cudaPitchedPtr s;

    s.ptr = d;
    s.pitch = p;
    s.xsize = xsz;
    s.ysize = ysz;
    return s;
}

static __inline__ struct cudaPos make_cudaPos(size_t x, size_t y, size_t z)
{
    struct cudaPos p;

    p.x = x;
    p.y = y;
    p.z = z;
    return p;
}

static __inline__ struct cudaExtent make_cudaExtent(size_t w, size_t h,
                                                    size_t d)
{
    struct cudaExtent e;

    e.width = w;
    e.height = h;
    e.depth = d;
    return e;
}
/* ---- legacy interprocess sharing of memory and events */
cudaError_t CUDARTAPI cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle,
                                          void *devPtr);
cudaError_t CUDARTAPI cudaIpcOpenMemHandle(void **devPtr,
                                           cudaIpcMemHandle_t handle,
                                           unsigned int flags);
cudaError_t CUDARTAPI cudaIpcCloseMemHandle(void *devPtr);
cudaError_t CUDARTAPI cudaIpcGetEventHandle(cudaIpcEventHandle_t *handle,
                                            cudaEvent_t event);
cudaError_t CUDARTAPI cudaIpcOpenEventHandle(cudaEvent_t *event,
                                             cudaIpcEventHandle_t handle);

/* ---- driver entry points by name (cuGetProcAddress) */
cudaError_t CUDARTAPI cudaGetDriverEntryPoint(const char *symbol,
    void **funcPtr, unsigned long long flags,
    enum cudaDriverEntryPointQueryResult *driverStatus CUEMU_DEFARG(NULL));
cudaError_t CUDARTAPI cudaGetDriverEntryPointByVersion(const char *symbol,
    void **funcPtr, unsigned int cudaVersion, unsigned long long flags,
    enum cudaDriverEntryPointQueryResult *driverStatus CUEMU_DEFARG(NULL));

/* ---- batches (CUDA 12.8 and 13) and a location's pools (CUDA 13) */
cudaError_t CUDARTAPI cudaMemPrefetchBatchAsync(void **dptrs, size_t *sizes,
    size_t count, struct cudaMemLocation *prefetchLocs,
    size_t *prefetchLocIdxs, size_t numPrefetchLocs,
    unsigned long long flags, cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemDiscardBatchAsync(void **dptrs, size_t *sizes,
    size_t count, unsigned long long flags, cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemDiscardAndPrefetchBatchAsync(void **dptrs,
    size_t *sizes, size_t count, struct cudaMemLocation *prefetchLocs,
    size_t *prefetchLocIdxs, size_t numPrefetchLocs,
    unsigned long long flags, cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemcpyBatchAsync(void *const *dsts,
    const void *const *srcs, const size_t *sizes, size_t count,
    struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs, size_t numAttrs,
    cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemGetDefaultMemPool(cudaMemPool_t *memPool,
    struct cudaMemLocation *location, enum cudaMemAllocationType type);
cudaError_t CUDARTAPI cudaMemGetMemPool(cudaMemPool_t *memPool,
    struct cudaMemLocation *location, enum cudaMemAllocationType type);
cudaError_t CUDARTAPI cudaMemSetMemPool(struct cudaMemLocation *location,
    enum cudaMemAllocationType type, cudaMemPool_t memPool);

/* Device symbols: none can be registered on the emulated machine. */
cudaError_t CUDARTAPI cudaGetSymbolAddress(void **devPtr, const void *symbol);
cudaError_t CUDARTAPI cudaGetSymbolSize(size_t *size, const void *symbol);

/* Launching a registered kernel by its host stub, what the runtime says
 * of it, and its module's variables by their host shadows. */
cudaError_t CUDARTAPI cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
			     void **args, size_t sharedMem,
			     cudaStream_t stream);
cudaError_t CUDARTAPI cudaLaunchKernel_ptsz(const void *func, dim3 gridDim,
				  dim3 blockDim, void **args,
				  size_t sharedMem, cudaStream_t stream);
cudaError_t CUDARTAPI cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr);
cudaError_t CUDARTAPI cudaLaunchCooperativeKernel(const void *func,
				dim3 gridDim, dim3 blockDim, void **args,
				size_t sharedMem, cudaStream_t stream);
cudaError_t CUDARTAPI cudaLaunchCooperativeKernel_ptsz(const void *func,
				dim3 gridDim, dim3 blockDim, void **args,
				size_t sharedMem, cudaStream_t stream);
cudaError_t CUDARTAPI cudaLaunchKernelExC(const cudaLaunchConfig_t *config,
				const void *func, void **args);
cudaError_t CUDARTAPI cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config,
				const void *func, void **args);
cudaError_t CUDARTAPI cudaKernelSetAttributeForDevice(cudaKernel_t kernel,
				enum cudaFuncAttribute attr, int value,
				int device);

/* Libraries (the driver's cuLibrary*): their kernels launch as a
 * registered kernel does. */
cudaError_t CUDARTAPI cudaLibraryLoadData(cudaLibrary_t *library,
				const void *code,
				enum cudaJitOption *jitOptions,
				void **jitOptionsValues,
				unsigned int numJitOptions,
				enum cudaLibraryOption *libraryOptions,
				void **libraryOptionValues,
				unsigned int numLibraryOptions);
cudaError_t CUDARTAPI cudaLibraryLoadFromFile(cudaLibrary_t *library,
				const char *fileName,
				enum cudaJitOption *jitOptions,
				void **jitOptionsValues,
				unsigned int numJitOptions,
				enum cudaLibraryOption *libraryOptions,
				void **libraryOptionValues,
				unsigned int numLibraryOptions);
cudaError_t CUDARTAPI cudaLibraryUnload(cudaLibrary_t library);
cudaError_t CUDARTAPI cudaLibraryGetKernel(cudaKernel_t *pKernel,
				cudaLibrary_t library, const char *name);
cudaError_t CUDARTAPI cudaLibraryGetKernelCount(unsigned int *count,
				cudaLibrary_t lib);
cudaError_t CUDARTAPI cudaLibraryEnumerateKernels(cudaKernel_t *kernels,
				unsigned int numKernels, cudaLibrary_t lib);
cudaError_t CUDARTAPI cudaLibraryGetGlobal(void **dptr, size_t *bytes,
				cudaLibrary_t library, const char *name);
cudaError_t CUDARTAPI cudaLibraryGetManaged(void **dptr, size_t *bytes,
				cudaLibrary_t library, const char *name);
cudaError_t CUDARTAPI cudaLibraryGetUnifiedFunction(void **fptr,
				cudaLibrary_t library, const char *symbol);

/* A stream's attributes (the driver's cuStreamSetAttribute). */
cudaError_t CUDARTAPI cudaStreamSetAttribute(cudaStream_t hStream,
				cudaStreamAttrID attr,
				const cudaStreamAttrValue *value);
cudaError_t CUDARTAPI cudaStreamGetAttribute(cudaStream_t hStream,
				cudaStreamAttrID attr,
				cudaStreamAttrValue *value_out);
cudaError_t CUDARTAPI cudaStreamSetAttribute_ptsz(cudaStream_t hStream,
				cudaStreamAttrID attr,
				const cudaStreamAttrValue *value);
cudaError_t CUDARTAPI cudaStreamGetAttribute_ptsz(cudaStream_t hStream,
				cudaStreamAttrID attr,
				cudaStreamAttrValue *value_out);
cudaError_t CUDARTAPI cudaGetFuncBySymbol(cudaFunction_t *functionPtr,
				const void *symbolPtr);
cudaError_t CUDARTAPI cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
				  const void *func);
cudaError_t CUDARTAPI cudaFuncSetAttribute(const void *func,
				 enum cudaFuncAttribute attr, int value);
cudaError_t CUDARTAPI cudaFuncSetCacheConfig(const void *func,
				   enum cudaFuncCache cacheConfig);
cudaError_t CUDARTAPI cudaFuncGetParamInfo(const void *func,
				size_t paramIndex, size_t *paramOffset,
				size_t *paramSize);
cudaError_t CUDARTAPI cudaOccupancyMaxActiveBlocksPerMultiprocessor(
	int *numBlocks, const void *func, int blockSize,
	size_t dynamicSMemSize);
cudaError_t CUDARTAPI cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
	int *numBlocks, const void *func, int blockSize,
	size_t dynamicSMemSize, unsigned int flags);
cudaError_t CUDARTAPI cudaOccupancyAvailableDynamicSMemPerBlock(
	size_t *dynamicSmemSize, const void *func, int numBlocks,
	int blockSize);
cudaError_t CUDARTAPI cudaMemcpyToSymbol(const void *symbol, const void *src,
			       size_t count, size_t offset,
			       enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpyToSymbolAsync(const void *symbol, const void *src,
				    size_t count, size_t offset,
				    enum cudaMemcpyKind kind,
				    cudaStream_t stream);
cudaError_t CUDARTAPI cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
				 size_t offset, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpyFromSymbolAsync(void *dst, const void *symbol,
				      size_t count, size_t offset,
				      enum cudaMemcpyKind kind,
				      cudaStream_t stream);

/* ------------------------------------------------------ graphs, capture */
cudaError_t CUDARTAPI cudaStreamBeginCapture(cudaStream_t stream,
				   enum cudaStreamCaptureMode mode);
cudaError_t CUDARTAPI cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph);
cudaError_t CUDARTAPI cudaStreamIsCapturing(cudaStream_t stream,
				  enum cudaStreamCaptureStatus *pCaptureStatus);
cudaError_t CUDARTAPI cudaStreamGetCaptureInfo(cudaStream_t stream,
	enum cudaStreamCaptureStatus *captureStatus_out,
	unsigned long long *id_out CUEMU_DEFARG(0), cudaGraph_t *graph_out CUEMU_DEFARG(0),
	const cudaGraphNode_t **dependencies_out CUEMU_DEFARG(0),
	const cudaGraphEdgeData **edgeData_out CUEMU_DEFARG(0),
	size_t *numDependencies_out CUEMU_DEFARG(0));
cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies(cudaStream_t stream,
	cudaGraphNode_t *dependencies, const cudaGraphEdgeData *edgeData,
	size_t numDependencies, unsigned int flags CUEMU_DEFARG(0));
cudaError_t CUDARTAPI cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode);
cudaError_t CUDARTAPI cudaEventRecordWithFlags(cudaEvent_t event,
	cudaStream_t stream CUEMU_DEFARG(0), unsigned int flags CUEMU_DEFARG(0));
cudaError_t CUDARTAPI cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags);
cudaError_t CUDARTAPI cudaGraphDestroy(cudaGraph_t graph);
cudaError_t CUDARTAPI cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph);
cudaError_t CUDARTAPI cudaGraphNodeFindInClone(cudaGraphNode_t *pNode,
	cudaGraphNode_t originalNode, cudaGraph_t clonedGraph);
cudaError_t CUDARTAPI cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode,
	cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
	size_t numDependencies, const struct cudaKernelNodeParams *pNodeParams);
cudaError_t CUDARTAPI cudaGraphKernelNodeGetParams(cudaGraphNode_t node,
	struct cudaKernelNodeParams *pNodeParams);
cudaError_t CUDARTAPI cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
	const struct cudaKernelNodeParams *pNodeParams);
cudaError_t CUDARTAPI cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode,
	cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
	size_t numDependencies, const struct cudaMemcpy3DParms *pCopyParams);
cudaError_t CUDARTAPI cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode,
	cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
	size_t numDependencies, void *dst, const void *src, size_t count,
	enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node,
	struct cudaMemcpy3DParms *pNodeParams);
cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node,
	const struct cudaMemcpy3DParms *pNodeParams);
cudaError_t CUDARTAPI cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode,
	cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
	size_t numDependencies, const struct cudaMemsetParams *pMemsetParams);
cudaError_t CUDARTAPI cudaGraphMemsetNodeGetParams(cudaGraphNode_t node,
	struct cudaMemsetParams *pNodeParams);
cudaError_t CUDARTAPI cudaGraphMemsetNodeSetParams(cudaGraphNode_t node,
	const struct cudaMemsetParams *pNodeParams);
cudaError_t CUDARTAPI cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode,
	cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
	size_t numDependencies, const struct cudaHostNodeParams *pNodeParams);
cudaError_t CUDARTAPI cudaGraphHostNodeGetParams(cudaGraphNode_t node,
	struct cudaHostNodeParams *pNodeParams);
cudaError_t CUDARTAPI cudaGraphHostNodeSetParams(cudaGraphNode_t node,
	const struct cudaHostNodeParams *pNodeParams);
cudaError_t CUDARTAPI cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode,
	cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
	size_t numDependencies, cudaGraph_t childGraph);
cudaError_t CUDARTAPI cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node,
	cudaGraph_t *pGraph);
cudaError_t CUDARTAPI cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode,
	cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
	size_t numDependencies);
cudaError_t CUDARTAPI cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode,
	cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
	size_t numDependencies, cudaEvent_t event);
cudaError_t CUDARTAPI cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode,
	cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
	size_t numDependencies, cudaEvent_t event);
cudaError_t CUDARTAPI cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node,
	cudaEvent_t *event_out);
cudaError_t CUDARTAPI cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node,
	cudaEvent_t *event_out);
cudaError_t CUDARTAPI cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode,
	cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
	size_t numDependencies, struct cudaMemAllocNodeParams *nodeParams);
cudaError_t CUDARTAPI cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node,
	struct cudaMemAllocNodeParams *params_out);
cudaError_t CUDARTAPI cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode,
	cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
	size_t numDependencies, void *dptr);
cudaError_t CUDARTAPI cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node,
	void *dptr_out);
cudaError_t CUDARTAPI cudaDeviceGetGraphMemAttribute(int device,
	enum cudaGraphMemAttributeType attr, void *value);
cudaError_t CUDARTAPI cudaDeviceSetGraphMemAttribute(int device,
	enum cudaGraphMemAttributeType attr, void *value);
cudaError_t CUDARTAPI cudaDeviceGraphMemTrim(int device);
cudaError_t CUDARTAPI cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes,
	size_t *numNodes);
cudaError_t CUDARTAPI cudaGraphGetRootNodes(cudaGraph_t graph,
	cudaGraphNode_t *pRootNodes, size_t *pNumRootNodes);
cudaError_t CUDARTAPI cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from,
	cudaGraphNode_t *to, cudaGraphEdgeData *edgeData, size_t *numEdges);
cudaError_t CUDARTAPI cudaGraphNodeGetType(cudaGraphNode_t node,
	enum cudaGraphNodeType *pType);
cudaError_t CUDARTAPI cudaGraphNodeGetDependencies(cudaGraphNode_t node,
	cudaGraphNode_t *pDependencies, cudaGraphEdgeData *edgeData,
	size_t *pNumDependencies);
cudaError_t CUDARTAPI cudaGraphNodeGetDependentNodes(cudaGraphNode_t node,
	cudaGraphNode_t *pDependentNodes, cudaGraphEdgeData *edgeData,
	size_t *pNumDependentNodes);
cudaError_t CUDARTAPI cudaGraphAddDependencies(cudaGraph_t graph,
	const cudaGraphNode_t *from, const cudaGraphNode_t *to,
	const cudaGraphEdgeData *edgeData, size_t numDependencies);
cudaError_t CUDARTAPI cudaGraphRemoveDependencies(cudaGraph_t graph,
	const cudaGraphNode_t *from, const cudaGraphNode_t *to,
	const cudaGraphEdgeData *edgeData, size_t numDependencies);
cudaError_t CUDARTAPI cudaGraphDestroyNode(cudaGraphNode_t node);
cudaError_t CUDARTAPI cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *pGraphNode,
	cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
	size_t numDependencies, const void *symbol, const void *src,
	size_t count, size_t offset, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *pGraphNode,
	cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
	size_t numDependencies, void *dst, const void *symbol, size_t count,
	size_t offset, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node,
	void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t node,
	const void *symbol, const void *src, size_t count, size_t offset,
	enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t node,
	void *dst, const void *symbol, size_t count, size_t offset,
	enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec,
	cudaGraphNode_t node, void *dst, const void *src, size_t count,
	enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParamsToSymbol(
	cudaGraphExec_t hGraphExec, cudaGraphNode_t node, const void *symbol,
	const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParamsFromSymbol(
	cudaGraphExec_t hGraphExec, cudaGraphNode_t node, void *dst,
	const void *symbol, size_t count, size_t offset,
	enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node,
	cudaEvent_t event);
cudaError_t CUDARTAPI cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node,
	cudaEvent_t event);
cudaError_t CUDARTAPI cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t hGraphExec,
	cudaGraphNode_t hNode, cudaEvent_t event);
cudaError_t CUDARTAPI cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t hGraphExec,
	cudaGraphNode_t hNode, cudaEvent_t event);
cudaError_t CUDARTAPI cudaGraphNodeSetEnabled(cudaGraphExec_t hGraphExec,
	cudaGraphNode_t hNode, unsigned int isEnabled);
cudaError_t CUDARTAPI cudaGraphNodeGetEnabled(cudaGraphExec_t hGraphExec,
	cudaGraphNode_t hNode, unsigned int *isEnabled);
cudaError_t CUDARTAPI cudaGraphExecGetFlags(cudaGraphExec_t graphExec,
	unsigned long long *flags);
cudaError_t CUDARTAPI cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path,
	unsigned int flags);
cudaError_t CUDARTAPI cudaGraphKernelNodeGetAttribute(cudaGraphNode_t hNode,
	cudaKernelNodeAttrID attr, cudaKernelNodeAttrValue *value_out);
cudaError_t CUDARTAPI cudaGraphKernelNodeSetAttribute(cudaGraphNode_t hNode,
	cudaKernelNodeAttrID attr, const cudaKernelNodeAttrValue *value);
cudaError_t CUDARTAPI cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t hDst,
	cudaGraphNode_t hSrc);
cudaError_t CUDARTAPI cudaGraphNodeSetParams(cudaGraphNode_t node,
	struct cudaGraphNodeParams *nodeParams);
cudaError_t CUDARTAPI cudaGraphExecChildGraphNodeSetParams(
	cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
	cudaGraph_t childGraph);
cudaError_t CUDARTAPI cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec,
	cudaGraphNode_t node, struct cudaGraphNodeParams *nodeParams);
cudaError_t CUDARTAPI cudaUserObjectCreate(cudaUserObject_t *object_out,
	void *ptr, cudaHostFn_t destroy, unsigned int initialRefcount,
	unsigned int flags);
cudaError_t CUDARTAPI cudaUserObjectRetain(cudaUserObject_t object,
	unsigned int count CUEMU_DEFARG(1));
cudaError_t CUDARTAPI cudaUserObjectRelease(cudaUserObject_t object,
	unsigned int count CUEMU_DEFARG(1));
cudaError_t CUDARTAPI cudaGraphRetainUserObject(cudaGraph_t graph,
	cudaUserObject_t object, unsigned int count CUEMU_DEFARG(1),
	unsigned int flags CUEMU_DEFARG(0));
cudaError_t CUDARTAPI cudaGraphReleaseUserObject(cudaGraph_t graph,
	cudaUserObject_t object, unsigned int count CUEMU_DEFARG(1));
cudaError_t CUDARTAPI cudaStreamBeginCaptureToGraph(cudaStream_t stream,
	cudaGraph_t graph, const cudaGraphNode_t *dependencies,
	const cudaGraphEdgeData *dependencyData, size_t numDependencies,
	enum cudaStreamCaptureMode mode);
cudaError_t CUDARTAPI cudaGraphAddNode(cudaGraphNode_t *pGraphNode,
	cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
	const cudaGraphEdgeData *dependencyData, size_t numDependencies,
	struct cudaGraphNodeParams *nodeParams);
cudaError_t CUDARTAPI cudaGraphConditionalHandleCreate(
	cudaGraphConditionalHandle *pHandle_out, cudaGraph_t graph,
	unsigned int defaultLaunchValue CUEMU_DEFARG(0),
	unsigned int flags CUEMU_DEFARG(0));
cudaError_t CUDARTAPI cudaGraphInstantiate(cudaGraphExec_t *pGraphExec,
	cudaGraph_t graph, unsigned long long flags CUEMU_DEFARG(0));
cudaError_t CUDARTAPI cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec,
	cudaGraph_t graph, unsigned long long flags CUEMU_DEFARG(0));
cudaError_t CUDARTAPI cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec,
	cudaGraph_t graph, cudaGraphInstantiateParams *instantiateParams);
cudaError_t CUDARTAPI cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t CUDARTAPI cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t CUDARTAPI cudaGraphExecDestroy(cudaGraphExec_t graphExec);
cudaError_t CUDARTAPI cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec,
	cudaGraphNode_t node, const struct cudaKernelNodeParams *pNodeParams);
cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec,
	cudaGraphNode_t node, const struct cudaMemcpy3DParms *pNodeParams);
cudaError_t CUDARTAPI cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec,
	cudaGraphNode_t node, const struct cudaMemsetParams *pNodeParams);
cudaError_t CUDARTAPI cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec,
	cudaGraphNode_t node, const struct cudaHostNodeParams *pNodeParams);
cudaError_t CUDARTAPI cudaGraphExecUpdate(cudaGraphExec_t hGraphExec,
	cudaGraph_t hGraph, cudaGraphExecUpdateResultInfo *resultInfo);

/* The per-thread default stream forms (cudart/ptds.c): what a program
 * built with --default-stream per-thread calls. */
cudaError_t CUDARTAPI cudaMemcpy_ptds(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpyFromArray_ptds(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc, size_t count, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc, size_t width, size_t height, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p);
cudaError_t CUDARTAPI cudaMemcpy3DPeer_ptds(const struct cudaMemcpy3DPeerParms *p);
cudaError_t CUDARTAPI cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind);
cudaError_t CUDARTAPI cudaMemset_ptds(void *devPtr, int value, size_t count);
cudaError_t CUDARTAPI cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t width, size_t height);
cudaError_t CUDARTAPI cudaMemset3D_ptds(struct cudaPitchedPtr p, int value, struct cudaExtent extent);
cudaError_t CUDARTAPI cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t s);
cudaError_t CUDARTAPI cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t s);
cudaError_t CUDARTAPI cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t s);
cudaError_t CUDARTAPI cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t s);
cudaError_t CUDARTAPI cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t s);
cudaError_t CUDARTAPI cudaMemcpyFromArrayAsync_ptsz(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count, enum cudaMemcpyKind kind, cudaStream_t s);
cudaError_t CUDARTAPI cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p, cudaStream_t s);
cudaError_t CUDARTAPI cudaMemcpy3DPeerAsync_ptsz(const struct cudaMemcpy3DPeerParms *p, cudaStream_t s);
cudaError_t CUDARTAPI cudaMemcpy3DBatchAsync_ptsz(size_t numOps, struct cudaMemcpy3DBatchOp *opList, unsigned long long flags, cudaStream_t s);
cudaError_t CUDARTAPI cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind, cudaStream_t s);
cudaError_t CUDARTAPI cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count, size_t offset, enum cudaMemcpyKind kind, cudaStream_t s);
cudaError_t CUDARTAPI cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count, cudaStream_t s);
cudaError_t CUDARTAPI cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value, size_t width, size_t height, cudaStream_t s);
cudaError_t CUDARTAPI cudaMemset3DAsync_ptsz(struct cudaPitchedPtr p, int value, struct cudaExtent extent, cudaStream_t s);
cudaError_t CUDARTAPI cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t s);
cudaError_t CUDARTAPI cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size, cudaMemPool_t pool, cudaStream_t s);
cudaError_t CUDARTAPI cudaFreeAsync_ptsz(void *devPtr, cudaStream_t s);
cudaError_t CUDARTAPI cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t s);
cudaError_t CUDARTAPI cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t s, unsigned int flags);
cudaError_t CUDARTAPI cudaLaunchHostFunc_ptsz(cudaStream_t s, cudaHostFn_t fn, void *userData);
cudaError_t CUDARTAPI cudaStreamAddCallback_ptsz(cudaStream_t s, cudaStreamCallback_t callback, void *userData, unsigned int flags);
cudaError_t CUDARTAPI cudaStreamGetFlags_ptsz(cudaStream_t s, unsigned int *flags);
cudaError_t CUDARTAPI cudaStreamGetPriority_ptsz(cudaStream_t s, int *priority);
cudaError_t CUDARTAPI cudaStreamGetId_ptsz(cudaStream_t s, unsigned long long *streamId);
cudaError_t CUDARTAPI cudaStreamGetDevice_ptsz(cudaStream_t s, int *device);
cudaError_t CUDARTAPI cudaStreamCopyAttributes_ptsz(cudaStream_t dst, cudaStream_t src);
cudaError_t CUDARTAPI cudaStreamQuery_ptsz(cudaStream_t s);
cudaError_t CUDARTAPI cudaStreamSynchronize_ptsz(cudaStream_t s);
cudaError_t CUDARTAPI cudaStreamWaitEvent_ptsz(cudaStream_t s, cudaEvent_t event, unsigned int flags);
cudaError_t CUDARTAPI cudaStreamBeginCapture_ptsz(cudaStream_t s, enum cudaStreamCaptureMode mode);
cudaError_t CUDARTAPI cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t s, cudaGraph_t graph, const cudaGraphNode_t *deps, const cudaGraphEdgeData *edges, size_t n, enum cudaStreamCaptureMode mode);
cudaError_t CUDARTAPI cudaStreamEndCapture_ptsz(cudaStream_t s, cudaGraph_t *pGraph);
cudaError_t CUDARTAPI cudaStreamIsCapturing_ptsz(cudaStream_t s, enum cudaStreamCaptureStatus *status);
cudaError_t CUDARTAPI cudaStreamGetCaptureInfo_ptsz(cudaStream_t s, enum cudaStreamCaptureStatus *status, unsigned long long *id, cudaGraph_t *graph, const cudaGraphNode_t **deps, const cudaGraphEdgeData **edges, size_t *ndeps);
cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t s, cudaGraphNode_t *deps, const cudaGraphEdgeData *edges, size_t n, unsigned int flags);
cudaError_t CUDARTAPI cudaGraphLaunch_ptsz(cudaGraphExec_t exec, cudaStream_t s);
cudaError_t CUDARTAPI cudaGraphUpload_ptsz(cudaGraphExec_t exec, cudaStream_t s);
cudaError_t CUDARTAPI cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *pExec, cudaGraph_t graph, cudaGraphInstantiateParams *p);


#ifdef __cplusplus
}
#endif

#endif /* !__CUDA_RUNTIME_API_H__ */
