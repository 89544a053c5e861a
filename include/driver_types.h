/*
 * driver_types.h - the runtime API's types: error codes, handle types,
 * flags, the memory, pool, device, stream and event enumerations and
 * structures, cudaDeviceProp, and every other type of the toolkit's
 * driver_types.h (graphs and their nodes, launch attributes, external
 * memory and semaphores, resources, JIT and library options), served or
 * not by libcuemu's calls. Included by builtin_types.h, as in the
 * CUDA toolkit, so a program that tests __DRIVER_TYPES_H__ or includes
 * this header by name finds what it expects.
 *
 * Source-compatible with CUDA 13: every enumerator has the CUDA 13 value
 * and every structure its layout (tests/unit/header-compat.sh compares
 * them with the toolkit's). The runtime handles are the driver handles
 * (cudaStream_t is CUstream, cudaEvent_t is CUevent, cudaMemPool_t is
 * CUmemoryPool), so the two APIs can be mixed freely.
 */
#if !defined(__DRIVER_TYPES_H__)
#define __DRIVER_TYPES_H__

#include "host_defines.h"
#include "vector_types.h"

#include <limits.h>
#include <stddef.h>

/* Calling convention of runtime callbacks; empty but on 32-bit Windows. */
#ifdef _WIN32
#define CUDART_CB __stdcall
#else
#define CUDART_CB
#endif

/* ------------------------------------------------------------- errors */

/* Status returned by every runtime entry point. */
enum cudaError {
    cudaSuccess                             = 0,
    cudaErrorInvalidValue                   = 1,
    cudaErrorMemoryAllocation               = 2,
    cudaErrorInitializationError            = 3,
    cudaErrorCudartUnloading                = 4,
    cudaErrorProfilerDisabled               = 5,
    cudaErrorProfilerNotInitialized         = 6,
    cudaErrorProfilerAlreadyStarted         = 7,
    cudaErrorProfilerAlreadyStopped         = 8,
    cudaErrorInvalidConfiguration           = 9,
    cudaErrorInvalidPitchValue              = 12,
    cudaErrorInvalidSymbol                  = 13,
    cudaErrorInvalidHostPointer             = 16,
    cudaErrorInvalidDevicePointer           = 17,
    cudaErrorInvalidTexture                 = 18,
    cudaErrorInvalidTextureBinding          = 19,
    cudaErrorInvalidChannelDescriptor       = 20,
    cudaErrorInvalidMemcpyDirection         = 21,
    cudaErrorAddressOfConstant              = 22,
    cudaErrorTextureFetchFailed             = 23,
    cudaErrorTextureNotBound                = 24,
    cudaErrorSynchronizationError           = 25,
    cudaErrorInvalidFilterSetting           = 26,
    cudaErrorInvalidNormSetting             = 27,
    cudaErrorMixedDeviceExecution           = 28,
    cudaErrorNotYetImplemented              = 31,
    cudaErrorMemoryValueTooLarge            = 32,
    cudaErrorStubLibrary                    = 34,
    cudaErrorInsufficientDriver             = 35,
    cudaErrorCallRequiresNewerDriver        = 36,
    cudaErrorInvalidSurface                 = 37,
    cudaErrorDuplicateVariableName          = 43,
    cudaErrorDuplicateTextureName           = 44,
    cudaErrorDuplicateSurfaceName           = 45,
    cudaErrorDevicesUnavailable             = 46,
    cudaErrorIncompatibleDriverContext      = 49,
    cudaErrorMissingConfiguration           = 52,
    cudaErrorPriorLaunchFailure             = 53,
    cudaErrorLaunchMaxDepthExceeded         = 65,
    cudaErrorLaunchFileScopedTex            = 66,
    cudaErrorLaunchFileScopedSurf           = 67,
    cudaErrorSyncDepthExceeded              = 68,
    cudaErrorLaunchPendingCountExceeded     = 69,
    cudaErrorInvalidDeviceFunction          = 98,
    cudaErrorNoDevice                       = 100,
    cudaErrorInvalidDevice                  = 101,
    cudaErrorDeviceNotLicensed              = 102,
    cudaErrorSoftwareValidityNotEstablished = 103,
    cudaErrorStartupFailure                 = 127,
    cudaErrorInvalidKernelImage             = 200,
    cudaErrorDeviceUninitialized            = 201,
    cudaErrorMapBufferObjectFailed          = 205,
    cudaErrorUnmapBufferObjectFailed        = 206,
    cudaErrorArrayIsMapped                  = 207,
    cudaErrorAlreadyMapped                  = 208,
    cudaErrorNoKernelImageForDevice         = 209,
    cudaErrorAlreadyAcquired                = 210,
    cudaErrorNotMapped                      = 211,
    cudaErrorNotMappedAsArray               = 212,
    cudaErrorNotMappedAsPointer             = 213,
    cudaErrorECCUncorrectable               = 214,
    cudaErrorUnsupportedLimit               = 215,
    cudaErrorDeviceAlreadyInUse             = 216,
    cudaErrorPeerAccessUnsupported          = 217,
    cudaErrorInvalidPtx                     = 218,
    cudaErrorInvalidGraphicsContext         = 219,
    cudaErrorNvlinkUncorrectable            = 220,
    cudaErrorJitCompilerNotFound            = 221,
    cudaErrorUnsupportedPtxVersion          = 222,
    cudaErrorJitCompilationDisabled         = 223,
    cudaErrorUnsupportedExecAffinity        = 224,
    cudaErrorUnsupportedDevSideSync         = 225,
    cudaErrorContained                      = 226,
    cudaErrorInvalidSource                  = 300,
    cudaErrorFileNotFound                   = 301,
    cudaErrorSharedObjectSymbolNotFound     = 302,
    cudaErrorSharedObjectInitFailed         = 303,
    cudaErrorOperatingSystem                = 304,
    cudaErrorInvalidResourceHandle          = 400,
    cudaErrorIllegalState                   = 401,
    cudaErrorLossyQuery                     = 402,
    cudaErrorSymbolNotFound                 = 500,
    cudaErrorNotReady                       = 600,
    cudaErrorIllegalAddress                 = 700,
    cudaErrorLaunchOutOfResources           = 701,
    cudaErrorLaunchTimeout                  = 702,
    cudaErrorLaunchIncompatibleTexturing    = 703,
    cudaErrorPeerAccessAlreadyEnabled       = 704,
    cudaErrorPeerAccessNotEnabled           = 705,
    cudaErrorSetOnActiveProcess             = 708,
    cudaErrorContextIsDestroyed             = 709,
    cudaErrorAssert                         = 710,
    cudaErrorTooManyPeers                   = 711,
    cudaErrorHostMemoryAlreadyRegistered    = 712,
    cudaErrorHostMemoryNotRegistered        = 713,
    cudaErrorHardwareStackError             = 714,
    cudaErrorIllegalInstruction             = 715,
    cudaErrorMisalignedAddress              = 716,
    cudaErrorInvalidAddressSpace            = 717,
    cudaErrorInvalidPc                      = 718,
    cudaErrorLaunchFailure                  = 719,
    cudaErrorCooperativeLaunchTooLarge      = 720,
    cudaErrorTensorMemoryLeak               = 721,
    cudaErrorNotPermitted                   = 800,
    cudaErrorNotSupported                   = 801,
    cudaErrorSystemNotReady                 = 802,
    cudaErrorSystemDriverMismatch           = 803,
    cudaErrorCompatNotSupportedOnDevice     = 804,
    cudaErrorMpsConnectionFailed            = 805,
    cudaErrorMpsRpcFailure                  = 806,
    cudaErrorMpsServerNotReady              = 807,
    cudaErrorMpsMaxClientsReached           = 808,
    cudaErrorMpsMaxConnectionsReached       = 809,
    cudaErrorMpsClientTerminated            = 810,
    cudaErrorCdpNotSupported                = 811,
    cudaErrorCdpVersionMismatch             = 812,
    cudaErrorStreamCaptureUnsupported       = 900,
    cudaErrorStreamCaptureInvalidated       = 901,
    cudaErrorStreamCaptureMerge             = 902,
    cudaErrorStreamCaptureUnmatched         = 903,
    cudaErrorStreamCaptureUnjoined          = 904,
    cudaErrorStreamCaptureIsolation         = 905,
    cudaErrorStreamCaptureImplicit          = 906,
    cudaErrorCapturedEvent                  = 907,
    cudaErrorStreamCaptureWrongThread       = 908,
    cudaErrorTimeout                        = 909,
    cudaErrorGraphExecUpdateFailure         = 910,
    cudaErrorExternalDevice                 = 911,
    cudaErrorInvalidClusterSize             = 912,
    cudaErrorFunctionNotLoaded              = 913,
    cudaErrorInvalidResourceType            = 914,
    cudaErrorInvalidResourceConfiguration   = 915,
    cudaErrorUnknown                        = 999,
    cudaErrorApiFailureBase                 = 10000
};

typedef enum cudaError cudaError_t;

/* ------------------------------------------------------------ handles */

typedef struct CUstream_st *cudaStream_t;           /* = CUstream */
typedef struct CUevent_st *cudaEvent_t;             /* = CUevent */
typedef struct CUmemPoolHandle_st *cudaMemPool_t;   /* = CUmemoryPool */

/* 16-byte device identifier (shared with the driver header). */
#ifndef CU_UUID_HAS_BEEN_DEFINED
#define CU_UUID_HAS_BEEN_DEFINED
typedef struct CUuuid_st {
    char bytes[16];
} CUuuid;
#endif
typedef struct CUuuid_st cudaUUID_t;

/* Host function enqueued by cudaLaunchHostFunc. */
typedef void (CUDART_CB *cudaHostFn_t)(void *userData);

/* Callback enqueued by cudaStreamAddCallback. */
typedef void (CUDART_CB *cudaStreamCallback_t)(cudaStream_t stream,
                                               cudaError_t status,
                                               void *userData);

/* ---------------------------------------------------- flags and ids */

/* cudaHostAlloc flags. */
#define cudaHostAllocDefault       0x00
#define cudaHostAllocPortable      0x01
#define cudaHostAllocMapped        0x02
#define cudaHostAllocWriteCombined 0x04

/* cudaHostRegister flags. */
#define cudaHostRegisterDefault    0x00
#define cudaHostRegisterPortable   0x01
#define cudaHostRegisterMapped     0x02
#define cudaHostRegisterIoMemory   0x04
#define cudaHostRegisterReadOnly   0x08

/* cudaDeviceEnablePeerAccess flags. */
#define cudaPeerAccessDefault      0x00

/* Stream creation flags and the implicit streams. */
#define cudaStreamDefault          0x00
#define cudaStreamNonBlocking      0x01
#define cudaStreamLegacy           ((cudaStream_t)0x1)
#define cudaStreamPerThread        ((cudaStream_t)0x2)

/* Event creation, record and wait flags. */
#define cudaEventDefault           0x00
#define cudaEventBlockingSync      0x01
#define cudaEventDisableTiming     0x02
#define cudaEventInterprocess      0x04
#define cudaEventRecordDefault     0x00
#define cudaEventRecordExternal    0x01
#define cudaEventWaitDefault       0x00
#define cudaEventWaitExternal      0x01

/* Device flags. */
#define cudaDeviceScheduleAuto         0x00
#define cudaDeviceScheduleSpin         0x01
#define cudaDeviceScheduleYield        0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceBlockingSync         0x04
#define cudaDeviceScheduleMask         0x07
#define cudaDeviceMapHost              0x08
#define cudaDeviceLmemResizeToMax      0x10
#define cudaDeviceSyncMemops           0x80
#define cudaDeviceMask                 0xff

/* cudaMallocManaged attachment scope. */
#define cudaMemAttachGlobal        0x01
#define cudaMemAttachHost          0x02
#define cudaMemAttachSingle        0x04

/* Device ordinal standing for the host, and for "no device". */
#define cudaCpuDeviceId            ((int)-1)
#define cudaInvalidDeviceId        ((int)-2)

/* cudaMemPoolProps.usage bits. */
#define cudaMemPoolCreateUsageHwDecompress 0x2

/* ------------------------------------------------------ memory enums */

/* Kind of memory a pointer refers to. */
enum cudaMemoryType {
    cudaMemoryTypeUnregistered = 0,
    cudaMemoryTypeHost         = 1,
    cudaMemoryTypeDevice       = 2,
    cudaMemoryTypeManaged      = 3
};

/* Direction of a copy. */
enum cudaMemcpyKind {
    cudaMemcpyHostToHost     = 0,
    cudaMemcpyHostToDevice   = 1,
    cudaMemcpyDeviceToHost   = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault        = 4
};

/* cudaMemAdvise advice. */
enum cudaMemoryAdvise {
    cudaMemAdviseSetReadMostly          = 1,
    cudaMemAdviseUnsetReadMostly        = 2,
    cudaMemAdviseSetPreferredLocation   = 3,
    cudaMemAdviseUnsetPreferredLocation = 4,
    cudaMemAdviseSetAccessedBy          = 5,
    cudaMemAdviseUnsetAccessedBy        = 6
};

/* cudaMemRangeGetAttribute(s) queries. */
enum cudaMemRangeAttribute {
    cudaMemRangeAttributeReadMostly               = 1,
    cudaMemRangeAttributePreferredLocation        = 2,
    cudaMemRangeAttributeAccessedBy               = 3,
    cudaMemRangeAttributeLastPrefetchLocation     = 4,
    cudaMemRangeAttributePreferredLocationType    = 5,
    cudaMemRangeAttributePreferredLocationId      = 6,
    cudaMemRangeAttributeLastPrefetchLocationType = 7,
    cudaMemRangeAttributeLastPrefetchLocationId   = 8
};

/* cudaMemPoolGetAttribute / cudaMemPoolSetAttribute attributes. */
enum cudaMemPoolAttr {
    cudaMemPoolReuseFollowEventDependencies   = 0x1, /* int */
    cudaMemPoolReuseAllowOpportunistic        = 0x2, /* int */
    cudaMemPoolReuseAllowInternalDependencies = 0x3, /* int */
    cudaMemPoolAttrReleaseThreshold           = 0x4, /* unsigned long long */
    cudaMemPoolAttrReservedMemCurrent         = 0x5, /* unsigned long long */
    cudaMemPoolAttrReservedMemHigh            = 0x6, /* unsigned long long */
    cudaMemPoolAttrUsedMemCurrent             = 0x7, /* unsigned long long */
    cudaMemPoolAttrUsedMemHigh                = 0x8  /* unsigned long long */
};

/* What cudaMemLocation.id names. */
enum cudaMemLocationType {
    cudaMemLocationTypeInvalid         = 0,
    cudaMemLocationTypeNone            = 0,
    cudaMemLocationTypeDevice          = 1,
    cudaMemLocationTypeHost            = 2,
    cudaMemLocationTypeHostNuma        = 3,
    cudaMemLocationTypeHostNumaCurrent = 4
};

/* Protection of a mapping as seen from one location. */
enum cudaMemAccessFlags {
    cudaMemAccessFlagsProtNone      = 0,
    cudaMemAccessFlagsProtRead      = 1,
    cudaMemAccessFlagsProtReadWrite = 3
};

/* cudaGetDriverEntryPoint: which forms of a driver entry point to
 * search, and what the search found (cuGetProcAddress's, by value). */
enum cudaGetDriverEntryPointFlags {
    cudaEnableDefault                = 0x0,
    cudaEnableLegacyStream           = 0x1,
    cudaEnablePerThreadDefaultStream = 0x2
};

enum cudaDriverEntryPointQueryResult {
    cudaDriverEntryPointSuccess             = 0,
    cudaDriverEntryPointSymbolNotFound      = 1,
    cudaDriverEntryPointVersionNotSufficent = 2
};

/* Kind of physical allocation. */
enum cudaMemAllocationType {
    cudaMemAllocationTypeInvalid = 0x0,
    cudaMemAllocationTypePinned  = 0x1,
    cudaMemAllocationTypeManaged = 0x2,
    cudaMemAllocationTypeMax     = 0x7FFFFFFF
};

/* Export mechanisms a pool may allow (a bit mask). */
enum cudaMemAllocationHandleType {
    cudaMemHandleTypeNone                = 0x0,
    cudaMemHandleTypePosixFileDescriptor = 0x1,
    cudaMemHandleTypeWin32               = 0x2,
    cudaMemHandleTypeWin32Kmt            = 0x4,
    cudaMemHandleTypeFabric              = 0x8
};

/* ------------------------------------------------------ memory structs */

/* A place memory can live: a device, the host or a host NUMA node. */
struct cudaMemLocation {
    enum cudaMemLocationType type;
    int id;
};

/* Access granted to one location (cudaMemPoolSetAccess). */
struct cudaMemAccessDesc {
    struct cudaMemLocation location;
    enum cudaMemAccessFlags flags;
};

/* Properties of a pool (cudaMemPoolCreate). */
struct cudaMemPoolProps {
    enum cudaMemAllocationType allocType;
    enum cudaMemAllocationHandleType handleTypes;
    struct cudaMemLocation location;
    void *win32SecurityAttributes;          /* must be NULL off Windows */
    size_t maxSize;                         /* 0: no limit of its own */
    unsigned short usage;                   /* cudaMemPoolCreateUsage* */
    unsigned char reserved[54];
};

/* Opaque token naming one pool allocation across processes. */
struct cudaMemPoolPtrExportData {
    unsigned char reserved[64];
};

/* Result of cudaPointerGetAttributes. */
struct cudaPointerAttributes {
    enum cudaMemoryType type;
    int device;
    void *devicePointer;
    void *hostPointer;
    long reserved[8];
};

/* ------------------------------------------------------------ devices */

/* cudaDeviceGetAttribute queries. */
enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock                     = 1,
    cudaDevAttrMaxBlockDimX                           = 2,
    cudaDevAttrMaxBlockDimY                           = 3,
    cudaDevAttrMaxBlockDimZ                           = 4,
    cudaDevAttrMaxGridDimX                            = 5,
    cudaDevAttrMaxGridDimY                            = 6,
    cudaDevAttrMaxGridDimZ                            = 7,
    cudaDevAttrMaxSharedMemoryPerBlock                = 8,
    cudaDevAttrTotalConstantMemory                    = 9,
    cudaDevAttrWarpSize                               = 10,
    cudaDevAttrMaxPitch                               = 11,
    cudaDevAttrMaxRegistersPerBlock                   = 12,
    cudaDevAttrClockRate                              = 13,
    cudaDevAttrTextureAlignment                       = 14,
    cudaDevAttrGpuOverlap                             = 15,
    cudaDevAttrMultiProcessorCount                    = 16,
    cudaDevAttrKernelExecTimeout                      = 17,
    cudaDevAttrIntegrated                             = 18,
    cudaDevAttrCanMapHostMemory                       = 19,
    cudaDevAttrComputeMode                            = 20,
    cudaDevAttrMaxTexture1DWidth                      = 21,
    cudaDevAttrMaxTexture2DWidth                      = 22,
    cudaDevAttrMaxTexture2DHeight                     = 23,
    cudaDevAttrMaxTexture3DWidth                      = 24,
    cudaDevAttrMaxTexture3DHeight                     = 25,
    cudaDevAttrMaxTexture3DDepth                      = 26,
    cudaDevAttrMaxTexture2DLayeredWidth               = 27,
    cudaDevAttrMaxTexture2DLayeredHeight              = 28,
    cudaDevAttrMaxTexture2DLayeredLayers              = 29,
    cudaDevAttrSurfaceAlignment                       = 30,
    cudaDevAttrConcurrentKernels                      = 31,
    cudaDevAttrEccEnabled                             = 32,
    cudaDevAttrPciBusId                               = 33,
    cudaDevAttrPciDeviceId                            = 34,
    cudaDevAttrTccDriver                              = 35,
    cudaDevAttrMemoryClockRate                        = 36,
    cudaDevAttrGlobalMemoryBusWidth                   = 37,
    cudaDevAttrL2CacheSize                            = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor            = 39,
    cudaDevAttrAsyncEngineCount                       = 40,
    cudaDevAttrUnifiedAddressing                      = 41,
    cudaDevAttrMaxTexture1DLayeredWidth               = 42,
    cudaDevAttrMaxTexture1DLayeredLayers              = 43,
    cudaDevAttrMaxTexture2DGatherWidth                = 45,
    cudaDevAttrMaxTexture2DGatherHeight               = 46,
    cudaDevAttrMaxTexture3DWidthAlt                   = 47,
    cudaDevAttrMaxTexture3DHeightAlt                  = 48,
    cudaDevAttrMaxTexture3DDepthAlt                   = 49,
    cudaDevAttrPciDomainId                            = 50,
    cudaDevAttrTexturePitchAlignment                  = 51,
    cudaDevAttrMaxTextureCubemapWidth                 = 52,
    cudaDevAttrMaxTextureCubemapLayeredWidth          = 53,
    cudaDevAttrMaxTextureCubemapLayeredLayers         = 54,
    cudaDevAttrMaxSurface1DWidth                      = 55,
    cudaDevAttrMaxSurface2DWidth                      = 56,
    cudaDevAttrMaxSurface2DHeight                     = 57,
    cudaDevAttrMaxSurface3DWidth                      = 58,
    cudaDevAttrMaxSurface3DHeight                     = 59,
    cudaDevAttrMaxSurface3DDepth                      = 60,
    cudaDevAttrMaxSurface1DLayeredWidth               = 61,
    cudaDevAttrMaxSurface1DLayeredLayers              = 62,
    cudaDevAttrMaxSurface2DLayeredWidth               = 63,
    cudaDevAttrMaxSurface2DLayeredHeight              = 64,
    cudaDevAttrMaxSurface2DLayeredLayers              = 65,
    cudaDevAttrMaxSurfaceCubemapWidth                 = 66,
    cudaDevAttrMaxSurfaceCubemapLayeredWidth          = 67,
    cudaDevAttrMaxSurfaceCubemapLayeredLayers         = 68,
    cudaDevAttrMaxTexture1DLinearWidth                = 69,
    cudaDevAttrMaxTexture2DLinearWidth                = 70,
    cudaDevAttrMaxTexture2DLinearHeight               = 71,
    cudaDevAttrMaxTexture2DLinearPitch                = 72,
    cudaDevAttrMaxTexture2DMipmappedWidth             = 73,
    cudaDevAttrMaxTexture2DMipmappedHeight            = 74,
    cudaDevAttrComputeCapabilityMajor                 = 75,
    cudaDevAttrComputeCapabilityMinor                 = 76,
    cudaDevAttrMaxTexture1DMipmappedWidth             = 77,
    cudaDevAttrStreamPrioritiesSupported              = 78,
    cudaDevAttrGlobalL1CacheSupported                 = 79,
    cudaDevAttrLocalL1CacheSupported                  = 80,
    cudaDevAttrMaxSharedMemoryPerMultiprocessor       = 81,
    cudaDevAttrMaxRegistersPerMultiprocessor          = 82,
    cudaDevAttrManagedMemory                          = 83,
    cudaDevAttrIsMultiGpuBoard                        = 84,
    cudaDevAttrMultiGpuBoardGroupID                   = 85,
    cudaDevAttrHostNativeAtomicSupported              = 86,
    cudaDevAttrSingleToDoublePrecisionPerfRatio       = 87,
    cudaDevAttrPageableMemoryAccess                   = 88,
    cudaDevAttrConcurrentManagedAccess                = 89,
    cudaDevAttrComputePreemptionSupported             = 90,
    cudaDevAttrCanUseHostPointerForRegisteredMem      = 91,
    cudaDevAttrReserved92                             = 92,
    cudaDevAttrReserved93                             = 93,
    cudaDevAttrReserved94                             = 94,
    cudaDevAttrCooperativeLaunch                      = 95,
    cudaDevAttrReserved96                             = 96,
    cudaDevAttrMaxSharedMemoryPerBlockOptin           = 97,
    cudaDevAttrCanFlushRemoteWrites                   = 98,
    cudaDevAttrHostRegisterSupported                  = 99,
    cudaDevAttrPageableMemoryAccessUsesHostPageTables = 100,
    cudaDevAttrDirectManagedMemAccessFromHost         = 101,
    cudaDevAttrMaxBlocksPerMultiprocessor             = 106,
    cudaDevAttrMaxPersistingL2CacheSize               = 108,
    cudaDevAttrMaxAccessPolicyWindowSize              = 109,
    cudaDevAttrReservedSharedMemoryPerBlock           = 111,
    cudaDevAttrSparseCudaArraySupported               = 112,
    cudaDevAttrHostRegisterReadOnlySupported          = 113,
    cudaDevAttrTimelineSemaphoreInteropSupported      = 114,
    cudaDevAttrMemoryPoolsSupported                   = 115,
    cudaDevAttrGPUDirectRDMASupported                 = 116,
    cudaDevAttrGPUDirectRDMAFlushWritesOptions        = 117,
    cudaDevAttrGPUDirectRDMAWritesOrdering            = 118,
    cudaDevAttrMemoryPoolSupportedHandleTypes         = 119,
    cudaDevAttrClusterLaunch                          = 120,
    cudaDevAttrDeferredMappingCudaArraySupported      = 121,
    cudaDevAttrReserved122                            = 122,
    cudaDevAttrReserved123                            = 123,
    cudaDevAttrReserved124                            = 124,
    cudaDevAttrIpcEventSupport                        = 125,
    cudaDevAttrMemSyncDomainCount                     = 126,
    cudaDevAttrReserved127                            = 127,
    cudaDevAttrReserved128                            = 128,
    cudaDevAttrReserved129                            = 129,
    cudaDevAttrNumaConfig                             = 130,
    cudaDevAttrNumaId                                 = 131,
    cudaDevAttrReserved132                            = 132,
    cudaDevAttrMpsEnabled                             = 133,
    cudaDevAttrHostNumaId                             = 134,
    cudaDevAttrD3D12CigSupported                      = 135,
    cudaDevAttrVulkanCigSupported                     = 138,
    cudaDevAttrGpuPciDeviceId                         = 139,
    cudaDevAttrGpuPciSubsystemId                      = 140,
    cudaDevAttrReserved141                            = 141,
    cudaDevAttrHostNumaMemoryPoolsSupported           = 142,
    cudaDevAttrHostNumaMultinodeIpcSupported          = 143,
    cudaDevAttrHostMemoryPoolsSupported               = 144,
    cudaDevAttrReserved145                            = 145,
    cudaDevAttrOnlyPartialHostNativeAtomicSupported   = 147,
    cudaDevAttrMax                                    = 148
};

/* Result of cudaGetDeviceProperties. */
struct cudaDeviceProp {
    char         name[256];
    cudaUUID_t   uuid;
    char         luid[8];
    unsigned int luidDeviceNodeMask;
    size_t       totalGlobalMem;
    size_t       sharedMemPerBlock;
    int          regsPerBlock;
    int          warpSize;
    size_t       memPitch;
    int          maxThreadsPerBlock;
    int          maxThreadsDim[3];
    int          maxGridSize[3];
    size_t       totalConstMem;
    int          major;
    int          minor;
    size_t       textureAlignment;
    size_t       texturePitchAlignment;
    int          multiProcessorCount;
    int          integrated;
    int          canMapHostMemory;
    int          maxTexture1D;
    int          maxTexture1DMipmap;
    int          maxTexture2D[2];
    int          maxTexture2DMipmap[2];
    int          maxTexture2DLinear[3];
    int          maxTexture2DGather[2];
    int          maxTexture3D[3];
    int          maxTexture3DAlt[3];
    int          maxTextureCubemap;
    int          maxTexture1DLayered[2];
    int          maxTexture2DLayered[3];
    int          maxTextureCubemapLayered[2];
    int          maxSurface1D;
    int          maxSurface2D[2];
    int          maxSurface3D[3];
    int          maxSurface1DLayered[2];
    int          maxSurface2DLayered[3];
    int          maxSurfaceCubemap;
    int          maxSurfaceCubemapLayered[2];
    size_t       surfaceAlignment;
    int          concurrentKernels;
    int          ECCEnabled;
    int          pciBusID;
    int          pciDeviceID;
    int          pciDomainID;
    int          tccDriver;
    int          asyncEngineCount;
    int          unifiedAddressing;
    int          memoryBusWidth;
    int          l2CacheSize;
    int          persistingL2CacheMaxSize;
    int          maxThreadsPerMultiProcessor;
    int          streamPrioritiesSupported;
    int          globalL1CacheSupported;
    int          localL1CacheSupported;
    size_t       sharedMemPerMultiprocessor;
    int          regsPerMultiprocessor;
    int          managedMemory;
    int          isMultiGpuBoard;
    int          multiGpuBoardGroupID;
    int          hostNativeAtomicSupported;
    int          pageableMemoryAccess;
    int          concurrentManagedAccess;
    int          computePreemptionSupported;
    int          canUseHostPointerForRegisteredMem;
    int          cooperativeLaunch;
    size_t       sharedMemPerBlockOptin;
    int          pageableMemoryAccessUsesHostPageTables;
    int          directManagedMemAccessFromHost;
    int          maxBlocksPerMultiProcessor;
    int          accessPolicyMaxWindowSize;
    size_t       reservedSharedMemPerBlock;
    int          hostRegisterSupported;
    int          sparseCudaArraySupported;
    int          hostRegisterReadOnlySupported;
    int          timelineSemaphoreInteropSupported;
    int          memoryPoolsSupported;
    int          gpuDirectRDMASupported;
    unsigned int gpuDirectRDMAFlushWritesOptions;
    int          gpuDirectRDMAWritesOrdering;
    unsigned int memoryPoolSupportedHandleTypes;
    int          deferredMappingCudaArraySupported;
    int          ipcEventSupported;
    int          clusterLaunch;
    int          unifiedFunctionPointers;
    int          deviceNumaConfig;
    int          deviceNumaId;
    int          mpsEnabled;
    int          hostNumaId;
    unsigned int gpuPciDeviceID;
    unsigned int gpuPciSubsystemID;
    int          hostNumaMultinodeIpcSupported;
    int          reserved[56];
};

/* ------------------------------------------- device settings and limits */

/* cudaDeviceGetLimit / cudaDeviceSetLimit. */
enum cudaLimit {
    cudaLimitStackSize                    = 0x00,
    cudaLimitPrintfFifoSize               = 0x01,
    cudaLimitMallocHeapSize               = 0x02,
    cudaLimitDevRuntimeSyncDepth          = 0x03,
    cudaLimitDevRuntimePendingLaunchCount = 0x04,
    cudaLimitMaxL2FetchGranularity        = 0x05,
    cudaLimitPersistingL2CacheSize        = 0x06
};

/* cudaDeviceGetCacheConfig / cudaDeviceSetCacheConfig. */
enum cudaFuncCache {
    cudaFuncCachePreferNone   = 0,
    cudaFuncCachePreferShared = 1,
    cudaFuncCachePreferL1     = 2,
    cudaFuncCachePreferEqual  = 3
};

/* cudaDeviceGetSharedMemConfig / cudaDeviceSetSharedMemConfig. */
enum cudaSharedMemConfig {
    cudaSharedMemBankSizeDefault   = 0,
    cudaSharedMemBankSizeFourByte  = 1,
    cudaSharedMemBankSizeEightByte = 2
};

/* cudaDevAttrComputeMode values. */
enum cudaComputeMode {
    cudaComputeModeDefault          = 0,
    cudaComputeModeExclusive        = 1,
    cudaComputeModeProhibited       = 2,
    cudaComputeModeExclusiveProcess = 3
};

/* cudaDeviceGetP2PAttribute queries. */
enum cudaDeviceP2PAttr {
    cudaDevP2PAttrPerformanceRank                  = 1,
    cudaDevP2PAttrAccessSupported                  = 2,
    cudaDevP2PAttrNativeAtomicSupported            = 3,
    cudaDevP2PAttrCudaArrayAccessSupported         = 4,
    cudaDevP2PAttrOnlyPartialNativeAtomicSupported = 5
};

/* ------------------------------------------------- streams and capture */

/* cudaStreamIsCapturing / cudaStreamGetCaptureInfo. */
enum cudaStreamCaptureStatus {
    cudaStreamCaptureStatusNone        = 0,
    cudaStreamCaptureStatusActive      = 1,
    cudaStreamCaptureStatusInvalidated = 2
};

/* cudaStreamBeginCapture / cudaThreadExchangeStreamCaptureMode. */
enum cudaStreamCaptureMode {
    cudaStreamCaptureModeGlobal      = 0,
    cudaStreamCaptureModeThreadLocal = 1,
    cudaStreamCaptureModeRelaxed     = 2
};

/* ------------------------------------------------ 3D copies and IPC */

/* A pitched allocation: what cudaMalloc3D returns. */
struct cudaPitchedPtr {
    void   *ptr;
    size_t  pitch;
    size_t  xsize;
    size_t  ysize;
};

/* A 3D extent: width in bytes (elements for arrays), height, depth. */
struct cudaExtent {
    size_t width;
    size_t height;
    size_t depth;
};

/* A 3D position. */
struct cudaPos {
    size_t x;
    size_t y;
    size_t z;
};

/* ------------------------------------------------------ CUDA arrays */

/* cudaMallocArray's and cudaMalloc3DArray's flags. */
#define cudaArrayDefault          0x00
#define cudaArrayLayered          0x01
#define cudaArraySurfaceLoadStore 0x02
#define cudaArrayCubemap          0x04
#define cudaArrayTextureGather    0x08
#define cudaArrayColorAttachment  0x20
#define cudaArraySparse           0x40
#define cudaArrayDeferredMapping  0x80
#define cudaArraySparsePropertiesSingleMipTail 0x1

/* What the channels of an array element hold. */
enum cudaChannelFormatKind {
    cudaChannelFormatKindSigned                       = 0,
    cudaChannelFormatKindUnsigned                     = 1,
    cudaChannelFormatKindFloat                        = 2,
    cudaChannelFormatKindNone                         = 3,
    cudaChannelFormatKindNV12                         = 4,
    cudaChannelFormatKindUnsignedNormalized8X1        = 5,
    cudaChannelFormatKindUnsignedNormalized8X2        = 6,
    cudaChannelFormatKindUnsignedNormalized8X4        = 7,
    cudaChannelFormatKindUnsignedNormalized16X1       = 8,
    cudaChannelFormatKindUnsignedNormalized16X2       = 9,
    cudaChannelFormatKindUnsignedNormalized16X4       = 10,
    cudaChannelFormatKindSignedNormalized8X1          = 11,
    cudaChannelFormatKindSignedNormalized8X2          = 12,
    cudaChannelFormatKindSignedNormalized8X4          = 13,
    cudaChannelFormatKindSignedNormalized16X1         = 14,
    cudaChannelFormatKindSignedNormalized16X2         = 15,
    cudaChannelFormatKindSignedNormalized16X4         = 16,
    cudaChannelFormatKindUnsignedBlockCompressed1     = 17,
    cudaChannelFormatKindUnsignedBlockCompressed1SRGB = 18,
    cudaChannelFormatKindUnsignedBlockCompressed2     = 19,
    cudaChannelFormatKindUnsignedBlockCompressed2SRGB = 20,
    cudaChannelFormatKindUnsignedBlockCompressed3     = 21,
    cudaChannelFormatKindUnsignedBlockCompressed3SRGB = 22,
    cudaChannelFormatKindUnsignedBlockCompressed4     = 23,
    cudaChannelFormatKindSignedBlockCompressed4       = 24,
    cudaChannelFormatKindUnsignedBlockCompressed5     = 25,
    cudaChannelFormatKindSignedBlockCompressed5       = 26,
    cudaChannelFormatKindUnsignedBlockCompressed6H    = 27,
    cudaChannelFormatKindSignedBlockCompressed6H      = 28,
    cudaChannelFormatKindUnsignedBlockCompressed7     = 29,
    cudaChannelFormatKindUnsignedBlockCompressed7SRGB = 30,
    cudaChannelFormatKindUnsignedNormalized1010102    = 31
};

/* An element: the bits of each of up to four channels, and their kind. */
struct cudaChannelFormatDesc {
    int x;
    int y;
    int z;
    int w;
    enum cudaChannelFormatKind f;
};

/* A CUDA array: the driver's CUarray. */
typedef struct cudaArray *cudaArray_t;
typedef const struct cudaArray *cudaArray_const_t;

/* A sparse array's tiles and mip tail. */
struct cudaArraySparseProperties {
    struct {
        unsigned int width;
        unsigned int height;
        unsigned int depth;
    } tileExtent;
    unsigned int miptailFirstLevel;
    unsigned long long miptailSize;
    unsigned int flags;
    unsigned int reserved[4];
};

/* The memory a deferred-mapping array needs. */
struct cudaArrayMemoryRequirements {
    size_t size;
    size_t alignment;
    unsigned int reserved[4];
};

/* A 3D copy: each end an array at a position, or a pitched pointer. */
struct cudaMemcpy3DParms {
    cudaArray_t srcArray;
    struct cudaPos srcPos;
    struct cudaPitchedPtr srcPtr;
    cudaArray_t dstArray;
    struct cudaPos dstPos;
    struct cudaPitchedPtr dstPtr;
    struct cudaExtent extent;
    enum cudaMemcpyKind kind;
};

/* A 3D copy between devices. */
struct cudaMemcpy3DPeerParms {
    cudaArray_t srcArray;
    struct cudaPos srcPos;
    struct cudaPitchedPtr srcPtr;
    int srcDevice;
    cudaArray_t dstArray;
    struct cudaPos dstPos;
    struct cudaPitchedPtr dstPtr;
    int dstDevice;
    struct cudaExtent extent;
};

/* A batch of 3D copies (cudaMemcpy3DBatchAsync), laid out as the
 * driver's CUDA_MEMCPY3D_BATCH_OP. */
enum cudaMemcpyFlags {
    cudaMemcpyFlagDefault                  = 0x0,
    cudaMemcpyFlagPreferOverlapWithCompute = 0x1
};

enum cudaMemcpySrcAccessOrder {
    cudaMemcpySrcAccessOrderInvalid       = 0x0,
    cudaMemcpySrcAccessOrderStream        = 0x1,
    cudaMemcpySrcAccessOrderDuringApiCall = 0x2,
    cudaMemcpySrcAccessOrderAny           = 0x3,
    cudaMemcpySrcAccessOrderMax           = 0x7FFFFFFF
};

enum cudaMemcpy3DOperandType {
    cudaMemcpyOperandTypePointer = 0x1,
    cudaMemcpyOperandTypeArray   = 0x2,
    cudaMemcpyOperandTypeMax     = 0x7FFFFFFF
};

struct cudaOffset3D {
    size_t x;
    size_t y;
    size_t z;
};

struct cudaMemcpy3DOperand {
    enum cudaMemcpy3DOperandType type;
    union {
        struct {
            void *ptr;
            size_t rowLength;
            size_t layerHeight;
            struct cudaMemLocation locHint;
        } ptr;
        struct {
            cudaArray_t array;
            struct cudaOffset3D offset;
        } array;
    } op;
};

struct cudaMemcpy3DBatchOp {
    struct cudaMemcpy3DOperand src;
    struct cudaMemcpy3DOperand dst;
    struct cudaExtent extent;
    enum cudaMemcpySrcAccessOrder srcAccessOrder;
    unsigned int flags;
};

/* Size of the opaque interprocess handles. */
#define CUDA_IPC_HANDLE_SIZE 64

typedef struct cudaIpcEventHandle_st {
    char reserved[CUDA_IPC_HANDLE_SIZE];
} cudaIpcEventHandle_t;

typedef struct cudaIpcMemHandle_st {
    char reserved[CUDA_IPC_HANDLE_SIZE];
} cudaIpcMemHandle_t;

/* ------------------------------------------------------ batches */

/* The attributes of the copies of a cudaMemcpyBatchAsync batch that name
 * them; how they read their source is enum cudaMemcpySrcAccessOrder, above. */
struct cudaMemcpyAttributes {
    enum cudaMemcpySrcAccessOrder srcAccessOrder;
    struct cudaMemLocation srcLocHint;
    struct cudaMemLocation dstLocHint;
    unsigned int flags;                     /* cudaMemcpyFlags */
};

/* cudaIpcOpenMemHandle's one flag, which it requires. */
#define cudaIpcMemLazyEnablePeerAccess 0x01

/* --------------------------------- arrays, copies and memsets of graphs */
typedef struct cudaMipmappedArray *cudaMipmappedArray_t;
typedef const struct cudaMipmappedArray *cudaMipmappedArray_const_t;
/* A memcpy node. */
struct cudaMemcpyNodeParams {
    int flags;
    int reserved[3];
    struct cudaMemcpy3DParms copyParams;
};

/* A memset node: a 2D memset of 1, 2 or 4-byte elements. */
struct cudaMemsetParams {
    void *dst;
    size_t pitch;
    unsigned int value;
    unsigned int elementSize;
    size_t width;
    size_t height;
};

struct cudaMemsetParamsV2 {
    void *dst;
    size_t pitch;
    unsigned int value;
    unsigned int elementSize;
    size_t width;
    size_t height;
};

/* ----------------------------------------------------- L2 access policy */
enum cudaAccessProperty {
    cudaAccessPropertyNormal     = 0,
    cudaAccessPropertyStreaming  = 1,
    cudaAccessPropertyPersisting = 2
};

/* An L2 persistence window, as CUaccessPolicyWindow. */
struct cudaAccessPolicyWindow {
    void *base_ptr;
    size_t num_bytes;
    float hitRatio;
    enum cudaAccessProperty hitProp;
    enum cudaAccessProperty missProp;
};

/* ------------------------------------------------- host nodes, policies */
struct cudaHostNodeParams {
    cudaHostFn_t fn;
    void *userData;
};

struct cudaHostNodeParamsV2 {
    cudaHostFn_t fn;
    void *userData;
};

/* How a thread waits on a stream. */
enum cudaSynchronizationPolicy {
    cudaSyncPolicyAuto         = 1,
    cudaSyncPolicySpin         = 2,
    cudaSyncPolicyYield        = 3,
    cudaSyncPolicyBlockingSync = 4
};

/* How thread block clusters are spread over the GPU. */
enum cudaClusterSchedulingPolicy {
    cudaClusterSchedulingPolicyDefault       = 0,
    cudaClusterSchedulingPolicySpread        = 1,
    cudaClusterSchedulingPolicyLoadBalancing = 2
};

/* Whether cudaStreamUpdateCaptureDependencies adds or replaces. */
enum cudaStreamUpdateCaptureDependenciesFlags {
    cudaStreamAddCaptureDependencies = 0,
    cudaStreamSetCaptureDependencies = 1
};

/* --------------------------------------------------------- user objects */
enum cudaUserObjectFlags {
    cudaUserObjectNoDestructorSync = 1
};

/* cudaGraphRetainUserObject flags. */
enum cudaUserObjectRetainFlags {
    cudaGraphUserObjectMove = 1
};

/* ---------------------------------------- graphics, textures, resources */
enum cudaGraphicsRegisterFlags {
    cudaGraphicsRegisterFlagsNone             = 0,
    cudaGraphicsRegisterFlagsReadOnly         = 1,
    cudaGraphicsRegisterFlagsWriteDiscard     = 2,
    cudaGraphicsRegisterFlagsSurfaceLoadStore = 4,
    cudaGraphicsRegisterFlagsTextureGather    = 8
};

/* cudaGraphicsResourceSetMapFlags flags. */
enum cudaGraphicsMapFlags {
    cudaGraphicsMapFlagsNone         = 0,
    cudaGraphicsMapFlagsReadOnly     = 1,
    cudaGraphicsMapFlagsWriteDiscard = 2
};

/* Faces of a cubemap, in layer order. */
enum cudaGraphicsCubeFace {
    cudaGraphicsCubeFacePositiveX = 0,
    cudaGraphicsCubeFaceNegativeX = 1,
    cudaGraphicsCubeFacePositiveY = 2,
    cudaGraphicsCubeFaceNegativeY = 3,
    cudaGraphicsCubeFacePositiveZ = 4,
    cudaGraphicsCubeFaceNegativeZ = 5
};

/* Kinds of resource a texture or surface object reads. */
enum cudaResourceType {
    cudaResourceTypeArray          = 0,
    cudaResourceTypeMipmappedArray = 1,
    cudaResourceTypeLinear         = 2,
    cudaResourceTypePitch2D        = 3
};

/* Formats a resource view may give its resource. */
enum cudaResourceViewFormat {
    cudaResViewFormatNone                      = 0,
    cudaResViewFormatUnsignedChar1             = 1,
    cudaResViewFormatUnsignedChar2             = 2,
    cudaResViewFormatUnsignedChar4             = 3,
    cudaResViewFormatSignedChar1               = 4,
    cudaResViewFormatSignedChar2               = 5,
    cudaResViewFormatSignedChar4               = 6,
    cudaResViewFormatUnsignedShort1            = 7,
    cudaResViewFormatUnsignedShort2            = 8,
    cudaResViewFormatUnsignedShort4            = 9,
    cudaResViewFormatSignedShort1              = 10,
    cudaResViewFormatSignedShort2              = 11,
    cudaResViewFormatSignedShort4              = 12,
    cudaResViewFormatUnsignedInt1              = 13,
    cudaResViewFormatUnsignedInt2              = 14,
    cudaResViewFormatUnsignedInt4              = 15,
    cudaResViewFormatSignedInt1                = 16,
    cudaResViewFormatSignedInt2                = 17,
    cudaResViewFormatSignedInt4                = 18,
    cudaResViewFormatHalf1                     = 19,
    cudaResViewFormatHalf2                     = 20,
    cudaResViewFormatHalf4                     = 21,
    cudaResViewFormatFloat1                    = 22,
    cudaResViewFormatFloat2                    = 23,
    cudaResViewFormatFloat4                    = 24,
    cudaResViewFormatUnsignedBlockCompressed1  = 25,
    cudaResViewFormatUnsignedBlockCompressed2  = 26,
    cudaResViewFormatUnsignedBlockCompressed3  = 27,
    cudaResViewFormatUnsignedBlockCompressed4  = 28,
    cudaResViewFormatSignedBlockCompressed4    = 29,
    cudaResViewFormatUnsignedBlockCompressed5  = 30,
    cudaResViewFormatSignedBlockCompressed5    = 31,
    cudaResViewFormatUnsignedBlockCompressed6H = 32,
    cudaResViewFormatSignedBlockCompressed6H   = 33,
    cudaResViewFormatUnsignedBlockCompressed7  = 34
};

/* The resource a texture or surface object reads. */
struct cudaResourceDesc {
    enum cudaResourceType resType;
    union {
        struct {
            cudaArray_t array;
        } array;
        struct {
            cudaMipmappedArray_t mipmap;
        } mipmap;
        struct {
            void *devPtr;
            struct cudaChannelFormatDesc desc;
            size_t sizeInBytes;
        } linear;
        struct {
            void *devPtr;
            struct cudaChannelFormatDesc desc;
            size_t width;
            size_t height;
            size_t pitchInBytes;
        } pitch2D;
        struct {
            int reserved[32];
        } reserved;
    } res;
    unsigned int flags;
};

/* A view of a resource: format, extent, levels and layers. */
struct cudaResourceViewDesc {
    enum cudaResourceViewFormat format;
    size_t width;
    size_t height;
    size_t depth;
    unsigned int firstMipmapLevel;
    unsigned int lastMipmapLevel;
    unsigned int firstLayer;
    unsigned int lastLayer;
    unsigned int reserved[16];
};

/* ------------------------------------------------------------ functions */
struct cudaFuncAttributes {
    size_t sharedSizeBytes;
    size_t constSizeBytes;
    size_t localSizeBytes;
    int maxThreadsPerBlock;
    int numRegs;
    int ptxVersion;
    int binaryVersion;
    int cacheModeCA;
    int maxDynamicSharedSizeBytes;
    int preferredShmemCarveout;
    int clusterDimMustBeSet;
    int requiredClusterWidth;
    int requiredClusterHeight;
    int requiredClusterDepth;
    int clusterSchedulingPolicyPreference;
    int nonPortableClusterSizeAllowed;
    int reserved[16];
};

/* cudaFuncSetAttribute attributes. */
enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize        = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout     = 9,
    cudaFuncAttributeClusterDimMustBeSet               = 10,
    cudaFuncAttributeRequiredClusterWidth              = 11,
    cudaFuncAttributeRequiredClusterHeight             = 12,
    cudaFuncAttributeRequiredClusterDepth              = 13,
    cudaFuncAttributeNonPortableClusterSizeAllowed     = 14,
    cudaFuncAttributeClusterSchedulingPolicyPreference = 15,
    cudaFuncAttributeMax                               = 16
};

/* Shared memory carveout preferences (percent of the unified L1). */
enum cudaSharedCarveout {
    cudaSharedmemCarveoutDefault   = -1,
    cudaSharedmemCarveoutMaxShared = 100,
    cudaSharedmemCarveoutMaxL1     = 0
};

/* ------------------------------------------------------- GPUDirect RDMA */
enum cudaFlushGPUDirectRDMAWritesOptions {
    cudaFlushGPUDirectRDMAWritesOptionHost   = 1,
    cudaFlushGPUDirectRDMAWritesOptionMemOps = 2
};

enum cudaGPUDirectRDMAWritesOrdering {
    cudaGPUDirectRDMAWritesOrderingNone       = 0,
    cudaGPUDirectRDMAWritesOrderingOwner      = 100,
    cudaGPUDirectRDMAWritesOrderingAllDevices = 200
};

enum cudaFlushGPUDirectRDMAWritesScope {
    cudaFlushGPUDirectRDMAWritesToOwner      = 100,
    cudaFlushGPUDirectRDMAWritesToAllDevices = 200
};

enum cudaFlushGPUDirectRDMAWritesTarget {
    cudaFlushGPUDirectRDMAWritesTargetCurrentDevice = 0
};

/* ----------------------------------------------------- allocation nodes */
struct cudaMemAllocNodeParams {
    struct cudaMemPoolProps poolProps;
    const struct cudaMemAccessDesc *accessDescs;
    size_t accessDescCount;
    size_t bytesize;
    void *dptr;
};

struct cudaMemAllocNodeParamsV2 {
    struct cudaMemPoolProps poolProps;
    const struct cudaMemAccessDesc *accessDescs;
    size_t accessDescCount;
    size_t bytesize;
    void *dptr;
};

/* A memory free node. */
struct cudaMemFreeNodeParams {
    void *dptr;
};

/* cudaDeviceGetGraphMemAttribute queries. */
enum cudaGraphMemAttributeType {
    cudaGraphMemAttrUsedMemCurrent     = 0,
    cudaGraphMemAttrUsedMemHigh        = 1,
    cudaGraphMemAttrReservedMemCurrent = 2,
    cudaGraphMemAttrReservedMemHigh    = 3
};

/* -------------------------------------------------------------- atomics */
enum cudaAtomicOperation {
    cudaAtomicOperationIntegerAdd       = 0,
    cudaAtomicOperationIntegerMin       = 1,
    cudaAtomicOperationIntegerMax       = 2,
    cudaAtomicOperationIntegerIncrement = 3,
    cudaAtomicOperationIntegerDecrement = 4,
    cudaAtomicOperationAnd              = 5,
    cudaAtomicOperationOr               = 6,
    cudaAtomicOperationXOR              = 7,
    cudaAtomicOperationExchange         = 8,
    cudaAtomicOperationCAS              = 9,
    cudaAtomicOperationFloatAdd         = 10,
    cudaAtomicOperationFloatMin         = 11,
    cudaAtomicOperationFloatMax         = 12
};

enum cudaAtomicOperationCapability {
    cudaAtomicCapabilitySigned     = 0,
    cudaAtomicCapabilityUnsigned   = 1,
    cudaAtomicCapabilityReduction  = 2,
    cudaAtomicCapabilityScalar32   = 3,
    cudaAtomicCapabilityScalar64   = 4,
    cudaAtomicCapabilityScalar128  = 5,
    cudaAtomicCapabilityVector32x4 = 6
};

/* --------------------------------------- external memory and semaphores */
typedef struct cudaMemFabricHandle_st {
    char reserved[64];
} cudaMemFabricHandle_t;

/* cudaExternalMemoryHandleDesc.flags, the semaphores' signal and wait
 * flags, and cudaDeviceGetNvSciSyncAttributes's. */
#define cudaExternalMemoryDedicated                    0x1
#define cudaExternalSemaphoreSignalSkipNvSciBufMemSync 0x01
#define cudaExternalSemaphoreWaitSkipNvSciBufMemSync   0x02
#define cudaNvSciSyncAttrSignal                        0x1
#define cudaNvSciSyncAttrWait                          0x2
/* cudaOccupancy* flags; cudaInitDevice's. */
#define cudaOccupancyDefault                0x00
#define cudaOccupancyDisableCachingOverride 0x01
#define cudaInitDeviceFlagsAreValid         0x01
/* Kinds of memory cudaImportExternalMemory takes. */
enum cudaExternalMemoryHandleType {
    cudaExternalMemoryHandleTypeOpaqueFd         = 1,
    cudaExternalMemoryHandleTypeOpaqueWin32      = 2,
    cudaExternalMemoryHandleTypeOpaqueWin32Kmt   = 3,
    cudaExternalMemoryHandleTypeD3D12Heap        = 4,
    cudaExternalMemoryHandleTypeD3D12Resource    = 5,
    cudaExternalMemoryHandleTypeD3D11Resource    = 6,
    cudaExternalMemoryHandleTypeD3D11ResourceKmt = 7,
    cudaExternalMemoryHandleTypeNvSciBuf         = 8
};

/* Memory of another API to import. */
struct cudaExternalMemoryHandleDesc {
    enum cudaExternalMemoryHandleType type;
    union {
        int fd;
        struct {
            void *handle;
            const void *name;
        } win32;
        const void *nvSciBufObject;
    } handle;
    unsigned long long size;
    unsigned int flags;
    unsigned int reserved[16];
};

/* A buffer mapped from imported memory. */
struct cudaExternalMemoryBufferDesc {
    unsigned long long offset;
    unsigned long long size;
    unsigned int flags;
    unsigned int reserved[16];
};

/* A mipmapped array mapped from imported memory. */
struct cudaExternalMemoryMipmappedArrayDesc {
    unsigned long long offset;
    struct cudaChannelFormatDesc formatDesc;
    struct cudaExtent extent;
    unsigned int flags;
    unsigned int numLevels;
    unsigned int reserved[16];
};

/* Kinds of semaphore cudaImportExternalSemaphore takes. */
enum cudaExternalSemaphoreHandleType {
    cudaExternalSemaphoreHandleTypeOpaqueFd               = 1,
    cudaExternalSemaphoreHandleTypeOpaqueWin32            = 2,
    cudaExternalSemaphoreHandleTypeOpaqueWin32Kmt         = 3,
    cudaExternalSemaphoreHandleTypeD3D12Fence             = 4,
    cudaExternalSemaphoreHandleTypeD3D11Fence             = 5,
    cudaExternalSemaphoreHandleTypeNvSciSync              = 6,
    cudaExternalSemaphoreHandleTypeKeyedMutex             = 7,
    cudaExternalSemaphoreHandleTypeKeyedMutexKmt          = 8,
    cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd    = 9,
    cudaExternalSemaphoreHandleTypeTimelineSemaphoreWin32 = 10
};

/* A semaphore of another API to import. */
struct cudaExternalSemaphoreHandleDesc {
    enum cudaExternalSemaphoreHandleType type;
    union {
        int fd;
        struct {
            void *handle;
            const void *name;
        } win32;
        const void *nvSciSyncObj;
    } handle;
    unsigned int flags;
    unsigned int reserved[16];
};

/* What signalling an imported semaphore sets. */
struct cudaExternalSemaphoreSignalParams {
    struct {
        struct {
            unsigned long long value;
        } fence;
        union {
            void *fence;
            unsigned long long reserved;
        } nvSciSync;
        struct {
            unsigned long long key;
        } keyedMutex;
        unsigned int reserved[12];
    } params;
    unsigned int flags;
    unsigned int reserved[16];
};

/* What waiting on an imported semaphore waits for. */
struct cudaExternalSemaphoreWaitParams {
    struct {
        struct {
            unsigned long long value;
        } fence;
        union {
            void *fence;
            unsigned long long reserved;
        } nvSciSync;
        struct {
            unsigned long long key;
            unsigned int timeoutMs;
        } keyedMutex;
        unsigned int reserved[10];
    } params;
    unsigned int flags;
    unsigned int reserved[16];
};

/* ------------------------------------------------------------ handles */
/* The runtime's handles are the driver's, by the same structure tags. */
typedef struct cudaGraphicsResource *cudaGraphicsResource_t;
typedef struct CUexternalMemory_st *cudaExternalMemory_t;
typedef struct CUexternalSemaphore_st *cudaExternalSemaphore_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphNode_st *cudaGraphNode_t;
typedef struct CUuserObject_st *cudaUserObject_t;
typedef unsigned long long cudaGraphConditionalHandle;
typedef struct CUfunc_st *cudaFunction_t;
typedef struct CUkern_st *cudaKernel_t;

/* ---------------------------------------------------- JIT and libraries */
enum cudaJitOption {
    cudaJitMaxRegisters            = 0,
    cudaJitThreadsPerBlock         = 1,
    cudaJitWallTime                = 2,
    cudaJitInfoLogBuffer           = 3,
    cudaJitInfoLogBufferSizeBytes  = 4,
    cudaJitErrorLogBuffer          = 5,
    cudaJitErrorLogBufferSizeBytes = 6,
    cudaJitOptimizationLevel       = 7,
    cudaJitFallbackStrategy        = 10,
    cudaJitGenerateDebugInfo       = 11,
    cudaJitLogVerbose              = 12,
    cudaJitGenerateLineInfo        = 13,
    cudaJitCacheMode               = 14,
    cudaJitPositionIndependentCode = 30,
    cudaJitMinCtaPerSm             = 31,
    cudaJitMaxThreadsPerBlock      = 32,
    cudaJitOverrideDirectiveValues = 33
};

enum cudaLibraryOption {
    cudaLibraryHostUniversalFunctionAndDataTable = 0,
    cudaLibraryBinaryIsPreserved                 = 1
};

struct cudalibraryHostUniversalFunctionAndDataTable {
    void *functionTable;
    size_t functionWindowSize;
    void *dataTable;
    size_t dataWindowSize;
};

enum cudaJit_CacheMode {
    cudaJitCacheOptionNone = 0,
    cudaJitCacheOptionCG   = 1,
    cudaJitCacheOptionCA   = 2
};

enum cudaJit_Fallback {
    cudaPreferPtx    = 0,
    cudaPreferBinary = 1
};

typedef struct CUlib_st *cudaLibrary_t;

/* --------------------------------------------------------------- graphs */
enum cudaCGScope {
    cudaCGScopeInvalid  = 0,
    cudaCGScopeGrid     = 1,
    cudaCGScopeReserved = 2
};

/* A kernel node: the function, its launch and arguments. */
struct cudaKernelNodeParams {
    void *func;
    dim3 gridDim;
    dim3 blockDim;
    unsigned int sharedMemBytes;
    void **kernelParams;
    void **extra;
};

struct cudaKernelNodeParamsV2 {
    void *func;
    dim3 gridDim;
    dim3 blockDim;
    unsigned int sharedMemBytes;
    void **kernelParams;
    void **extra;
};

struct cudaExternalSemaphoreSignalNodeParams {
    cudaExternalSemaphore_t *extSemArray;
    const struct cudaExternalSemaphoreSignalParams *paramsArray;
    unsigned int numExtSems;
};

struct cudaExternalSemaphoreSignalNodeParamsV2 {
    cudaExternalSemaphore_t *extSemArray;
    const struct cudaExternalSemaphoreSignalParams *paramsArray;
    unsigned int numExtSems;
};

struct cudaExternalSemaphoreWaitNodeParams {
    cudaExternalSemaphore_t *extSemArray;
    const struct cudaExternalSemaphoreWaitParams *paramsArray;
    unsigned int numExtSems;
};

struct cudaExternalSemaphoreWaitNodeParamsV2 {
    cudaExternalSemaphore_t *extSemArray;
    const struct cudaExternalSemaphoreWaitParams *paramsArray;
    unsigned int numExtSems;
};

enum cudaGraphConditionalHandleFlags {
    cudaGraphCondAssignDefault = 1
};

/* Kinds of conditional node. */
enum cudaGraphConditionalNodeType {
    cudaGraphCondTypeIf     = 0,
    cudaGraphCondTypeWhile  = 1,
    cudaGraphCondTypeSwitch = 2
};

/* A conditional node: its handle, type, and the body graphs it makes. */
struct cudaConditionalNodeParams {
    cudaGraphConditionalHandle handle;
    enum cudaGraphConditionalNodeType type;
    unsigned int size;
    cudaGraph_t *phGraph_out;
};

/* Kinds of graph node. */
enum cudaGraphNodeType {
    cudaGraphNodeTypeKernel             = 0,
    cudaGraphNodeTypeMemcpy             = 1,
    cudaGraphNodeTypeMemset             = 2,
    cudaGraphNodeTypeHost               = 3,
    cudaGraphNodeTypeGraph              = 4,
    cudaGraphNodeTypeEmpty              = 5,
    cudaGraphNodeTypeWaitEvent          = 6,
    cudaGraphNodeTypeEventRecord        = 7,
    cudaGraphNodeTypeExtSemaphoreSignal = 8,
    cudaGraphNodeTypeExtSemaphoreWait   = 9,
    cudaGraphNodeTypeMemAlloc           = 10,
    cudaGraphNodeTypeMemFree            = 11,
    cudaGraphNodeTypeConditional        = 13,
    cudaGraphNodeTypeCount              = 14
};

enum cudaGraphChildGraphNodeOwnership {
    cudaGraphChildGraphOwnershipClone = 0,
    cudaGraphChildGraphOwnershipMove  = 1
};

/* A child graph node. */
struct cudaChildGraphNodeParams {
    cudaGraph_t graph;
    enum cudaGraphChildGraphNodeOwnership ownership;
};

struct cudaEventRecordNodeParams {
    cudaEvent_t event;
};

struct cudaEventWaitNodeParams {
    cudaEvent_t event;
};

/* Any node's parameters, by its type (cudaGraphAddNode). */
struct cudaGraphNodeParams {
    enum cudaGraphNodeType type;
    int reserved0[3];
    union {
        long long reserved1[29];
        struct cudaKernelNodeParamsV2 kernel;
        struct cudaMemcpyNodeParams memcpy;
        struct cudaMemsetParamsV2 memset;
        struct cudaHostNodeParamsV2 host;
        struct cudaChildGraphNodeParams graph;
        struct cudaEventWaitNodeParams eventWait;
        struct cudaEventRecordNodeParams eventRecord;
        struct cudaExternalSemaphoreSignalNodeParamsV2 extSemSignal;
        struct cudaExternalSemaphoreWaitNodeParamsV2 extSemWait;
        struct cudaMemAllocNodeParamsV2 alloc;
        struct cudaMemFreeNodeParams free;
        struct cudaConditionalNodeParams conditional;
    };
    long long reserved2;
};

/* Kinds of edge between graph nodes. */
typedef enum cudaGraphDependencyType_enum {
    cudaGraphDependencyTypeDefault      = 0,
    cudaGraphDependencyTypeProgrammatic = 1
} cudaGraphDependencyType;

/* What an edge carries: the ports it joins and its type. */
typedef struct cudaGraphEdgeData_st {
    unsigned char from_port;
    unsigned char to_port;
    unsigned char type;
    unsigned char reserved[5];
} cudaGraphEdgeData;

/* The ports a kernel node's outgoing edge may leave from. */
#define cudaGraphKernelNodePortDefault          0
#define cudaGraphKernelNodePortProgrammatic     1
#define cudaGraphKernelNodePortLaunchCompletion 2
typedef struct CUgraphExec_st *cudaGraphExec_t;
/* What cudaGraphExecUpdate made of an update. */
enum cudaGraphExecUpdateResult {
    cudaGraphExecUpdateSuccess                        = 0,
    cudaGraphExecUpdateError                          = 1,
    cudaGraphExecUpdateErrorTopologyChanged           = 2,
    cudaGraphExecUpdateErrorNodeTypeChanged           = 3,
    cudaGraphExecUpdateErrorFunctionChanged           = 4,
    cudaGraphExecUpdateErrorParametersChanged         = 5,
    cudaGraphExecUpdateErrorNotSupported              = 6,
    cudaGraphExecUpdateErrorUnsupportedFunctionChange = 7,
    cudaGraphExecUpdateErrorAttributesChanged         = 8
};

/* Why cudaGraphInstantiateWithParams failed, if it did. */
typedef enum cudaGraphInstantiateResult {
    cudaGraphInstantiateSuccess                     = 0,
    cudaGraphInstantiateError                       = 1,
    cudaGraphInstantiateInvalidStructure            = 2,
    cudaGraphInstantiateNodeOperationNotSupported   = 3,
    cudaGraphInstantiateMultipleDevicesNotSupported = 4,
    cudaGraphInstantiateConditionalHandleUnused     = 5
} cudaGraphInstantiateResult;

/* cudaGraphInstantiateWithParams' arguments and results. */
typedef struct cudaGraphInstantiateParams_st {
    unsigned long long flags;
    cudaStream_t uploadStream;
    cudaGraphNode_t errNode_out;
    cudaGraphInstantiateResult result_out;
} cudaGraphInstantiateParams;

/* What cudaGraphExecUpdate made of the update, and where it failed. */
typedef struct cudaGraphExecUpdateResultInfo_st {
    enum cudaGraphExecUpdateResult result;
    cudaGraphNode_t errorNode;
    cudaGraphNode_t errorFromNode;
} cudaGraphExecUpdateResultInfo;

typedef struct CUgraphDeviceUpdatableNode_st *cudaGraphDeviceNode_t;
/* Which field of a device-updatable kernel node an update sets. */
enum cudaGraphKernelNodeField {
    cudaGraphKernelNodeFieldInvalid = 0,
    cudaGraphKernelNodeFieldGridDim = 1,
    cudaGraphKernelNodeFieldParam   = 2,
    cudaGraphKernelNodeFieldEnabled = 3
};

/* One update of a device-updatable kernel node. */
struct cudaGraphKernelNodeUpdate {
    cudaGraphDeviceNode_t node;
    enum cudaGraphKernelNodeField field;
    union {
        dim3 gridDim;
        struct {
            const void *pValue;
            size_t offset;
            size_t size;
        } param;
        unsigned int isEnabled;
    } updateData;
};

/* What cudaGraphDebugDotPrint writes. */
enum cudaGraphDebugDotFlags {
    cudaGraphDebugDotFlagsVerbose                  = 1,
    cudaGraphDebugDotFlagsKernelNodeParams         = 4,
    cudaGraphDebugDotFlagsMemcpyNodeParams         = 8,
    cudaGraphDebugDotFlagsMemsetNodeParams         = 16,
    cudaGraphDebugDotFlagsHostNodeParams           = 32,
    cudaGraphDebugDotFlagsEventNodeParams          = 64,
    cudaGraphDebugDotFlagsExtSemasSignalNodeParams = 128,
    cudaGraphDebugDotFlagsExtSemasWaitNodeParams   = 256,
    cudaGraphDebugDotFlagsKernelNodeAttributes     = 512,
    cudaGraphDebugDotFlagsHandles                  = 0x400,
    cudaGraphDebugDotFlagsConditionalNodeParams    = 0x8000
};

/* cudaGraphInstantiate flags. */
enum cudaGraphInstantiateFlags {
    cudaGraphInstantiateFlagAutoFreeOnLaunch = 1,
    cudaGraphInstantiateFlagUpload           = 2,
    cudaGraphInstantiateFlagDeviceLaunch     = 4,
    cudaGraphInstantiateFlagUseNodePriority  = 8
};

/* ---------------------------------------------------- launch attributes */
typedef enum cudaLaunchMemSyncDomain {
    cudaLaunchMemSyncDomainDefault = 0,
    cudaLaunchMemSyncDomainRemote  = 1
} cudaLaunchMemSyncDomain;

/* Which domain the default and remote launches map to. */
typedef struct cudaLaunchMemSyncDomainMap_st {
    unsigned char default_;
    unsigned char remote;
} cudaLaunchMemSyncDomainMap;

/* Launch attributes (cudaLaunchKernelEx, streams, kernel nodes). */
typedef enum cudaLaunchAttributeID {
    cudaLaunchAttributeIgnore                            = 0,
    cudaLaunchAttributeAccessPolicyWindow                = 1,
    cudaLaunchAttributeCooperative                       = 2,
    cudaLaunchAttributeSynchronizationPolicy             = 3,
    cudaLaunchAttributeClusterDimension                  = 4,
    cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
    cudaLaunchAttributeProgrammaticStreamSerialization   = 6,
    cudaLaunchAttributeProgrammaticEvent                 = 7,
    cudaLaunchAttributePriority                          = 8,
    cudaLaunchAttributeMemSyncDomainMap                  = 9,
    cudaLaunchAttributeMemSyncDomain                     = 10,
    cudaLaunchAttributePreferredClusterDimension         = 11,
    cudaLaunchAttributeLaunchCompletionEvent             = 12,
    cudaLaunchAttributeDeviceUpdatableKernelNode         = 13,
    cudaLaunchAttributePreferredSharedMemoryCarveout     = 14,
    cudaLaunchAttributeNvlinkUtilCentricScheduling       = 16
} cudaLaunchAttributeID;

/* An attribute's value: the member its id names, in 64 bytes. */
typedef union cudaLaunchAttributeValue {
    char pad[64];
    struct cudaAccessPolicyWindow accessPolicyWindow;
    int cooperative;
    enum cudaSynchronizationPolicy syncPolicy;
    struct {
        unsigned int x;
        unsigned int y;
        unsigned int z;
    } clusterDim;
    enum cudaClusterSchedulingPolicy clusterSchedulingPolicyPreference;
    int programmaticStreamSerializationAllowed;
    struct {
        cudaEvent_t event;
        int flags;
        int triggerAtBlockStart;
    } programmaticEvent;
    int priority;
    cudaLaunchMemSyncDomainMap memSyncDomainMap;
    cudaLaunchMemSyncDomain memSyncDomain;
    struct {
        unsigned int x;
        unsigned int y;
        unsigned int z;
    } preferredClusterDim;
    struct {
        cudaEvent_t event;
        int flags;
    } launchCompletionEvent;
    struct {
        int deviceUpdatable;
        cudaGraphDeviceNode_t devNode;
    } deviceUpdatableKernelNode;
    unsigned int sharedMemCarveout;
    unsigned int nvlinkUtilCentricScheduling;
} cudaLaunchAttributeValue;

/* One attribute of a launch configuration. */
typedef struct cudaLaunchAttribute_st {
    cudaLaunchAttributeID id;
    char pad[4];
    cudaLaunchAttributeValue val;
} cudaLaunchAttribute;

/* cudaLaunchKernelEx's configuration. */
typedef struct cudaLaunchConfig_st {
    dim3 gridDim;
    dim3 blockDim;
    size_t dynamicSmemBytes;
    cudaStream_t stream;
    cudaLaunchAttribute *attrs;
    unsigned int numAttrs;
} cudaLaunchConfig_t;

/* Stream and kernel node attributes: the launch attributes by older
 * names. */
#define cudaStreamAttrID cudaLaunchAttributeID
#define cudaStreamAttributeAccessPolicyWindow \
    cudaLaunchAttributeAccessPolicyWindow
#define cudaStreamAttributeSynchronizationPolicy \
    cudaLaunchAttributeSynchronizationPolicy
#define cudaStreamAttributeMemSyncDomainMap cudaLaunchAttributeMemSyncDomainMap
#define cudaStreamAttributeMemSyncDomain    cudaLaunchAttributeMemSyncDomain
#define cudaStreamAttributePriority         cudaLaunchAttributePriority
#define cudaStreamAttrValue cudaLaunchAttributeValue
#define cudaKernelNodeAttrID cudaLaunchAttributeID
#define cudaKernelNodeAttributeAccessPolicyWindow \
    cudaLaunchAttributeAccessPolicyWindow
#define cudaKernelNodeAttributeCooperative cudaLaunchAttributeCooperative
#define cudaKernelNodeAttributePriority    cudaLaunchAttributePriority
#define cudaKernelNodeAttributeClusterDimension \
    cudaLaunchAttributeClusterDimension
#define cudaKernelNodeAttributeClusterSchedulingPolicyPreference \
    cudaLaunchAttributeClusterSchedulingPolicyPreference
#define cudaKernelNodeAttributeMemSyncDomainMap \
    cudaLaunchAttributeMemSyncDomainMap
#define cudaKernelNodeAttributeMemSyncDomain cudaLaunchAttributeMemSyncDomain
#define cudaKernelNodeAttributePreferredSharedMemoryCarveout \
    cudaLaunchAttributePreferredSharedMemoryCarveout
#define cudaKernelNodeAttributeDeviceUpdatableKernelNode \
    cudaLaunchAttributeDeviceUpdatableKernelNode
#define cudaKernelNodeAttributeNvlinkUtilCentricScheduling \
    cudaLaunchAttributeNvlinkUtilCentricScheduling
#define cudaKernelNodeAttrValue cudaLaunchAttributeValue

/* -------------------------------------------- NUMA, notifications, logs */
enum cudaDeviceNumaConfig {
    cudaDeviceNumaConfigNone     = 0,
    cudaDeviceNumaConfigNumaNode = 1
};

typedef struct cudaAsyncCallbackEntry *cudaAsyncCallbackHandle_t;

/* Kinds of async notification. */
typedef enum cudaAsyncNotificationType_enum {
    cudaAsyncNotificationTypeOverBudget = 1
} cudaAsyncNotificationType;

/* What an async notification says: its type and that type's data. */
typedef struct cudaAsyncNotificationInfo {
    cudaAsyncNotificationType type;
    union {
        struct {
            unsigned long long bytesOverBudget;
        } overBudget;
    } info;
} cudaAsyncNotificationInfo_t;

/* What cudaDeviceRegisterAsyncNotification calls with each notification. */
typedef void (CUDART_CB *cudaAsyncCallback)(cudaAsyncNotificationInfo_t *info,
                                            void *userData,
                                            cudaAsyncCallbackHandle_t callback);

/* Severity of a driver log line. */
typedef enum CUDAlogLevel_enum {
    cudaLogLevelError   = 0,
    cudaLogLevelWarning = 1
} cudaLogLevel;

typedef struct CUlogsCallbackEntry_st *cudaLogsCallbackHandle;
typedef unsigned int cudaLogIterator;

#endif /* !__DRIVER_TYPES_H__ */
