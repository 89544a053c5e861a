/*
 * header_compat.c - prints, one TAP line each, the facts of the CUDA 13 ABI
 * that libcuemu's headers must reproduce: enumerator values, sizes and
 * member offsets of the shared structures, identity of the runtime and
 * driver handle types, the symbol each entry point name resolves to, and
 * whether each entry point has the expected type.
 *
 * Every line reads "ok"; this program judges nothing. header-compat.sh
 * builds it twice, once against include/ and once against the CUDA
 * toolkit's headers, and any line that differs between the two runs is a
 * compatibility bug in include/. Plain C11, no library needed: nothing is
 * called, function names are only stringized and inspected with _Generic.
 *
 * Built with -DHC_SUPERSEDED it prints instead the types of the superseded
 * entry points that the renames hide (with CUEMU_SUPERSEDED_ENTRY_POINTS
 * for include/, and the toolkit's internal switch for the toolkit).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cuda.h>
#include <cuda_runtime.h>
#include <builtin_types.h>
#include <library_types.h>
#include <cuda_profiler_api.h>
#include <cudaProfiler.h>

static int facts;

__attribute__((format(printf, 1, 2)))
static void fact(const char *fmt, ...)
{
	va_list ap;

	printf("ok %d - ", ++facts);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* Expand a macro, then make a string of the result. */
#define STR_(x) #x
#define XSTR(x) STR_(x)

#define VALUE(e)     fact("%s = %lld", #e, (long long)(e))
#define HANDLE(e)    fact("%s = %#llx", #e, (unsigned long long)(uintptr_t)(e))
#define SIZE(t)      fact("sizeof(%s) = %zu, align %zu", #t, sizeof(t), \
                          _Alignof(t))
#define OFFSET(t, m) fact("offsetof(%s, %s) = %zu, size %zu", #t, #m, \
                          offsetof(t, m), sizeof(((t *)0)->m))
#define SAME(a, b)   fact("%s is %s: %s", #a, #b, \
                          _Generic((a *)0, b *: "yes", default: "no"))
/* The symbol a call to f links against, and whether f has type T. */
#define ENTRY(f, T)  fact("%s -> %s, typed as expected: %s", #f, XSTR(f), \
                          _Generic(&(f), T: "yes", default: "no"))

#ifndef HC_SUPERSEDED

static void versions(void)
{
	VALUE(CUDA_VERSION);
	VALUE(CUDART_VERSION);
}

static void driver_enums(void)
{
	SIZE(CUresult);
	VALUE(CUDA_SUCCESS);
	VALUE(CUDA_ERROR_INVALID_VALUE);
	VALUE(CUDA_ERROR_OUT_OF_MEMORY);
	VALUE(CUDA_ERROR_NOT_INITIALIZED);
	VALUE(CUDA_ERROR_DEINITIALIZED);
	VALUE(CUDA_ERROR_PROFILER_DISABLED);
	VALUE(CUDA_ERROR_PROFILER_NOT_INITIALIZED);
	VALUE(CUDA_ERROR_PROFILER_ALREADY_STARTED);
	VALUE(CUDA_ERROR_PROFILER_ALREADY_STOPPED);
	VALUE(CUDA_ERROR_STUB_LIBRARY);
	VALUE(CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER);
	VALUE(CUDA_ERROR_DEVICE_UNAVAILABLE);
	VALUE(CUDA_ERROR_NO_DEVICE);
	VALUE(CUDA_ERROR_INVALID_DEVICE);
	VALUE(CUDA_ERROR_DEVICE_NOT_LICENSED);
	VALUE(CUDA_ERROR_INVALID_IMAGE);
	VALUE(CUDA_ERROR_INVALID_CONTEXT);
	VALUE(CUDA_ERROR_CONTEXT_ALREADY_CURRENT);
	VALUE(CUDA_ERROR_MAP_FAILED);
	VALUE(CUDA_ERROR_UNMAP_FAILED);
	VALUE(CUDA_ERROR_ARRAY_IS_MAPPED);
	VALUE(CUDA_ERROR_ALREADY_MAPPED);
	VALUE(CUDA_ERROR_NO_BINARY_FOR_GPU);
	VALUE(CUDA_ERROR_ALREADY_ACQUIRED);
	VALUE(CUDA_ERROR_NOT_MAPPED);
	VALUE(CUDA_ERROR_NOT_MAPPED_AS_ARRAY);
	VALUE(CUDA_ERROR_NOT_MAPPED_AS_POINTER);
	VALUE(CUDA_ERROR_ECC_UNCORRECTABLE);
	VALUE(CUDA_ERROR_UNSUPPORTED_LIMIT);
	VALUE(CUDA_ERROR_CONTEXT_ALREADY_IN_USE);
	VALUE(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED);
	VALUE(CUDA_ERROR_INVALID_PTX);
	VALUE(CUDA_ERROR_INVALID_GRAPHICS_CONTEXT);
	VALUE(CUDA_ERROR_NVLINK_UNCORRECTABLE);
	VALUE(CUDA_ERROR_JIT_COMPILER_NOT_FOUND);
	VALUE(CUDA_ERROR_UNSUPPORTED_PTX_VERSION);
	VALUE(CUDA_ERROR_JIT_COMPILATION_DISABLED);
	VALUE(CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY);
	VALUE(CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC);
	VALUE(CUDA_ERROR_CONTAINED);
	VALUE(CUDA_ERROR_INVALID_SOURCE);
	VALUE(CUDA_ERROR_FILE_NOT_FOUND);
	VALUE(CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND);
	VALUE(CUDA_ERROR_SHARED_OBJECT_INIT_FAILED);
	VALUE(CUDA_ERROR_OPERATING_SYSTEM);
	VALUE(CUDA_ERROR_INVALID_HANDLE);
	VALUE(CUDA_ERROR_ILLEGAL_STATE);
	VALUE(CUDA_ERROR_LOSSY_QUERY);
	VALUE(CUDA_ERROR_NOT_FOUND);
	VALUE(CUDA_ERROR_NOT_READY);
	VALUE(CUDA_ERROR_ILLEGAL_ADDRESS);
	VALUE(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
	VALUE(CUDA_ERROR_LAUNCH_TIMEOUT);
	VALUE(CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING);
	VALUE(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED);
	VALUE(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED);
	VALUE(CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE);
	VALUE(CUDA_ERROR_CONTEXT_IS_DESTROYED);
	VALUE(CUDA_ERROR_ASSERT);
	VALUE(CUDA_ERROR_TOO_MANY_PEERS);
	VALUE(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
	VALUE(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);
	VALUE(CUDA_ERROR_HARDWARE_STACK_ERROR);
	VALUE(CUDA_ERROR_ILLEGAL_INSTRUCTION);
	VALUE(CUDA_ERROR_MISALIGNED_ADDRESS);
	VALUE(CUDA_ERROR_INVALID_ADDRESS_SPACE);
	VALUE(CUDA_ERROR_INVALID_PC);
	VALUE(CUDA_ERROR_LAUNCH_FAILED);
	VALUE(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE);
	VALUE(CUDA_ERROR_TENSOR_MEMORY_LEAK);
	VALUE(CUDA_ERROR_NOT_PERMITTED);
	VALUE(CUDA_ERROR_NOT_SUPPORTED);
	VALUE(CUDA_ERROR_SYSTEM_NOT_READY);
	VALUE(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH);
	VALUE(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE);
	VALUE(CUDA_ERROR_MPS_CONNECTION_FAILED);
	VALUE(CUDA_ERROR_MPS_RPC_FAILURE);
	VALUE(CUDA_ERROR_MPS_SERVER_NOT_READY);
	VALUE(CUDA_ERROR_MPS_MAX_CLIENTS_REACHED);
	VALUE(CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED);
	VALUE(CUDA_ERROR_MPS_CLIENT_TERMINATED);
	VALUE(CUDA_ERROR_CDP_NOT_SUPPORTED);
	VALUE(CUDA_ERROR_CDP_VERSION_MISMATCH);
	VALUE(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
	VALUE(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
	VALUE(CUDA_ERROR_STREAM_CAPTURE_MERGE);
	VALUE(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED);
	VALUE(CUDA_ERROR_STREAM_CAPTURE_UNJOINED);
	VALUE(CUDA_ERROR_STREAM_CAPTURE_ISOLATION);
	VALUE(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT);
	VALUE(CUDA_ERROR_CAPTURED_EVENT);
	VALUE(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD);
	VALUE(CUDA_ERROR_TIMEOUT);
	VALUE(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
	VALUE(CUDA_ERROR_EXTERNAL_DEVICE);
	VALUE(CUDA_ERROR_INVALID_CLUSTER_SIZE);
	VALUE(CUDA_ERROR_FUNCTION_NOT_LOADED);
	VALUE(CUDA_ERROR_INVALID_RESOURCE_TYPE);
	VALUE(CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION);
	VALUE(CUDA_ERROR_KEY_ROTATION);
	VALUE(CUDA_ERROR_UNKNOWN);
	/* modules and functions */
	SIZE(CUjit_option);
	VALUE(CU_JIT_WALL_TIME);
	VALUE(CU_JIT_INFO_LOG_BUFFER);
	VALUE(CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES);
	VALUE(CU_JIT_LOG_VERBOSE);
	VALUE(CU_JIT_SPLIT_COMPILE);
	VALUE(CU_JIT_NUM_OPTIONS);
	SIZE(CUfunction_attribute);
	VALUE(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
	VALUE(CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE);
	VALUE(CU_FUNC_ATTRIBUTE_MAX);
	VALUE(CU_MODULE_EAGER_LOADING);
	VALUE(CU_MODULE_LAZY_LOADING);
	VALUE(CU_FUNCTION_LOADING_STATE_LOADED);
	VALUE(CU_FUNCTION_LOADING_STATE_MAX);
	VALUE(CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE);
	VALUE(CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT);
	SIZE(CUmemAttach_flags);
	VALUE(CU_MEM_ATTACH_GLOBAL);
	VALUE(CU_MEM_ATTACH_HOST);
	VALUE(CU_MEM_ATTACH_SINGLE);
	SIZE(CUctx_flags);
	VALUE(CU_CTX_SCHED_AUTO);
	VALUE(CU_CTX_SCHED_SPIN);
	VALUE(CU_CTX_SCHED_YIELD);
	VALUE(CU_CTX_SCHED_BLOCKING_SYNC);
	VALUE(CU_CTX_BLOCKING_SYNC);
	VALUE(CU_CTX_SCHED_MASK);
	VALUE(CU_CTX_MAP_HOST);
	VALUE(CU_CTX_LMEM_RESIZE_TO_MAX);
	VALUE(CU_CTX_COREDUMP_ENABLE);
	VALUE(CU_CTX_USER_COREDUMP_ENABLE);
	VALUE(CU_CTX_SYNC_MEMOPS);
	VALUE(CU_CTX_FLAGS_MASK);
	SIZE(CUstream_flags);
	VALUE(CU_STREAM_DEFAULT);
	VALUE(CU_STREAM_NON_BLOCKING);
	SIZE(CUevent_flags);
	VALUE(CU_EVENT_DEFAULT);
	VALUE(CU_EVENT_BLOCKING_SYNC);
	VALUE(CU_EVENT_DISABLE_TIMING);
	VALUE(CU_EVENT_INTERPROCESS);
	SIZE(CUevent_wait_flags);
	VALUE(CU_EVENT_WAIT_DEFAULT);
	VALUE(CU_EVENT_WAIT_EXTERNAL);
	SIZE(CUdevice_attribute);
	VALUE(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
	VALUE(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
	VALUE(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y);
	VALUE(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
	VALUE(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
	VALUE(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
	VALUE(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
	VALUE(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
	VALUE(CU_DEVICE_ATTRIBUTE_SHARED_MEMORY_PER_BLOCK);
	VALUE(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY);
	VALUE(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
	VALUE(CU_DEVICE_ATTRIBUTE_MAX_PITCH);
	VALUE(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
	VALUE(CU_DEVICE_ATTRIBUTE_REGISTERS_PER_BLOCK);
	VALUE(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
	VALUE(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT);
	VALUE(CU_DEVICE_ATTRIBUTE_GPU_OVERLAP);
	VALUE(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
	VALUE(CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT);
	VALUE(CU_DEVICE_ATTRIBUTE_INTEGRATED);
	VALUE(CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY);
	VALUE(CU_DEVICE_ATTRIBUTE_COMPUTE_MODE);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_WIDTH);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_HEIGHT);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_NUMSLICES);
	VALUE(CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT);
	VALUE(CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS);
	VALUE(CU_DEVICE_ATTRIBUTE_ECC_ENABLED);
	VALUE(CU_DEVICE_ATTRIBUTE_PCI_BUS_ID);
	VALUE(CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID);
	VALUE(CU_DEVICE_ATTRIBUTE_TCC_DRIVER);
	VALUE(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
	VALUE(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
	VALUE(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
	VALUE(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
	VALUE(CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT);
	VALUE(CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS);
	VALUE(CU_DEVICE_ATTRIBUTE_CAN_TEX2D_GATHER);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE);
	VALUE(CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID);
	VALUE(CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT);
	VALUE(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
	VALUE(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
	VALUE(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH);
	VALUE(CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
	VALUE(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
	VALUE(CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY);
	VALUE(CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD);
	VALUE(CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID);
	VALUE(CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO);
	VALUE(CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS);
	VALUE(CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS);
	VALUE(CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM);
	VALUE(CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1);
	VALUE(CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1);
	VALUE(CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR_V1);
	VALUE(CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH);
	VALUE(CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH);
	VALUE(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
	VALUE(CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES);
	VALUE(CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES);
	VALUE(CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST);
	VALUE(CU_DEVICE_ATTRIBUTE_VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
	VALUE(CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE);
	VALUE(CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE);
	VALUE(CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK);
	VALUE(CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS);
	VALUE(CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING);
	VALUE(CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES);
	VALUE(CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH);
	VALUE(CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS);
	VALUE(CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR);
	VALUE(CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT);
	VALUE(CU_DEVICE_ATTRIBUTE_TENSOR_MAP_ACCESS_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS);
	VALUE(CU_DEVICE_ATTRIBUTE_NUMA_CONFIG);
	VALUE(CU_DEVICE_ATTRIBUTE_NUMA_ID);
	VALUE(CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_MPS_ENABLED);
	VALUE(CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID);
	VALUE(CU_DEVICE_ATTRIBUTE_D3D12_CIG_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_ALGORITHM_MASK);
	VALUE(CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_MAXIMUM_LENGTH);
	VALUE(CU_DEVICE_ATTRIBUTE_VULKAN_CIG_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID);
	VALUE(CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID);
	VALUE(CU_DEVICE_ATTRIBUTE_HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_HOST_NUMA_MEMORY_POOLS_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_HOST_NUMA_MULTINODE_IPC_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_HOST_MEMORY_POOLS_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED);
	VALUE(CU_DEVICE_ATTRIBUTE_MAX);
	SIZE(CUcomputemode);
	VALUE(CU_COMPUTEMODE_DEFAULT);
	VALUE(CU_COMPUTEMODE_PROHIBITED);
	VALUE(CU_COMPUTEMODE_EXCLUSIVE_PROCESS);
	SIZE(CUdevice_P2PAttribute);
	VALUE(CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK);
	VALUE(CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED);
	VALUE(CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED);
	VALUE(CU_DEVICE_P2P_ATTRIBUTE_ACCESS_ACCESS_SUPPORTED);
	VALUE(CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED);
	VALUE(CU_DEVICE_P2P_ATTRIBUTE_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED);
	SIZE(CUexecAffinityType);
	VALUE(CU_EXEC_AFFINITY_TYPE_SM_COUNT);
	VALUE(CU_EXEC_AFFINITY_TYPE_MAX);
	SIZE(CUcigDataType);
	VALUE(CIG_DATA_TYPE_D3D12_COMMAND_QUEUE);
	VALUE(CIG_DATA_TYPE_NV_BLOB);
	SIZE(CUmemorytype);
	VALUE(CU_MEMORYTYPE_HOST);
	VALUE(CU_MEMORYTYPE_DEVICE);
	VALUE(CU_MEMORYTYPE_ARRAY);
	VALUE(CU_MEMORYTYPE_UNIFIED);
	SIZE(CUpointer_attribute);
	VALUE(CU_POINTER_ATTRIBUTE_CONTEXT);
	VALUE(CU_POINTER_ATTRIBUTE_MEMORY_TYPE);
	VALUE(CU_POINTER_ATTRIBUTE_DEVICE_POINTER);
	VALUE(CU_POINTER_ATTRIBUTE_HOST_POINTER);
	VALUE(CU_POINTER_ATTRIBUTE_P2P_TOKENS);
	VALUE(CU_POINTER_ATTRIBUTE_SYNC_MEMOPS);
	VALUE(CU_POINTER_ATTRIBUTE_BUFFER_ID);
	VALUE(CU_POINTER_ATTRIBUTE_IS_MANAGED);
	VALUE(CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL);
	VALUE(CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE);
	VALUE(CU_POINTER_ATTRIBUTE_RANGE_START_ADDR);
	VALUE(CU_POINTER_ATTRIBUTE_RANGE_SIZE);
	VALUE(CU_POINTER_ATTRIBUTE_MAPPED);
	VALUE(CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES);
	VALUE(CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE);
	VALUE(CU_POINTER_ATTRIBUTE_ACCESS_FLAGS);
	VALUE(CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE);
	VALUE(CU_POINTER_ATTRIBUTE_MAPPING_SIZE);
	VALUE(CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR);
	VALUE(CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID);
	VALUE(CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE);
	SIZE(CUDA_POINTER_ATTRIBUTE_ACCESS_FLAGS);
	VALUE(CU_POINTER_ATTRIBUTE_ACCESS_FLAG_NONE);
	VALUE(CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READ);
	VALUE(CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE);
	SIZE(CUmem_advise);
	VALUE(CU_MEM_ADVISE_SET_READ_MOSTLY);
	VALUE(CU_MEM_ADVISE_UNSET_READ_MOSTLY);
	VALUE(CU_MEM_ADVISE_SET_PREFERRED_LOCATION);
	VALUE(CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION);
	VALUE(CU_MEM_ADVISE_SET_ACCESSED_BY);
	VALUE(CU_MEM_ADVISE_UNSET_ACCESSED_BY);
	SIZE(CUmem_range_attribute);
	VALUE(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY);
	VALUE(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION);
	VALUE(CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY);
	VALUE(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION);
	VALUE(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE);
	VALUE(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID);
	VALUE(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE);
	VALUE(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID);
	SIZE(CUmemAllocationHandleType);
	VALUE(CU_MEM_HANDLE_TYPE_NONE);
	VALUE(CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
	VALUE(CU_MEM_HANDLE_TYPE_WIN32);
	VALUE(CU_MEM_HANDLE_TYPE_WIN32_KMT);
	VALUE(CU_MEM_HANDLE_TYPE_FABRIC);
	VALUE(CU_MEM_HANDLE_TYPE_MAX);
	SIZE(CUmemAccess_flags);
	VALUE(CU_MEM_ACCESS_FLAGS_PROT_NONE);
	VALUE(CU_MEM_ACCESS_FLAGS_PROT_READ);
	VALUE(CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	VALUE(CU_MEM_ACCESS_FLAGS_PROT_MAX);
	SIZE(CUmemLocationType);
	VALUE(CU_MEM_LOCATION_TYPE_INVALID);
	VALUE(CU_MEM_LOCATION_TYPE_NONE);
	VALUE(CU_MEM_LOCATION_TYPE_DEVICE);
	VALUE(CU_MEM_LOCATION_TYPE_HOST);
	VALUE(CU_MEM_LOCATION_TYPE_HOST_NUMA);
	VALUE(CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT);
	VALUE(CU_MEM_LOCATION_TYPE_MAX);
	SIZE(CUmemAllocationType);
	VALUE(CU_MEM_ALLOCATION_TYPE_INVALID);
	VALUE(CU_MEM_ALLOCATION_TYPE_PINNED);
	VALUE(CU_MEM_ALLOCATION_TYPE_MANAGED);
	VALUE(CU_MEM_ALLOCATION_TYPE_MAX);
	SIZE(CUmemAllocationGranularity_flags);
	VALUE(CU_MEM_ALLOC_GRANULARITY_MINIMUM);
	VALUE(CU_MEM_ALLOC_GRANULARITY_RECOMMENDED);
	SIZE(CUmemAllocationCompType);
	VALUE(CU_MEM_ALLOCATION_COMP_NONE);
	VALUE(CU_MEM_ALLOCATION_COMP_GENERIC);
	SIZE(CUresourcetype);
	VALUE(CU_RESOURCE_TYPE_ARRAY);
	VALUE(CU_RESOURCE_TYPE_MIPMAPPED_ARRAY);
	VALUE(CU_RESOURCE_TYPE_LINEAR);
	VALUE(CU_RESOURCE_TYPE_PITCH2D);
	SIZE(CUarraySparseSubresourceType);
	VALUE(CU_ARRAY_SPARSE_SUBRESOURCE_TYPE_SPARSE_LEVEL);
	VALUE(CU_ARRAY_SPARSE_SUBRESOURCE_TYPE_MIPTAIL);
	SIZE(CUmemOperationType);
	VALUE(CU_MEM_OPERATION_TYPE_MAP);
	VALUE(CU_MEM_OPERATION_TYPE_UNMAP);
	SIZE(CUmemHandleType);
	VALUE(CU_MEM_HANDLE_TYPE_GENERIC);
	SIZE(CUmemPool_attribute);
	VALUE(CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES);
	VALUE(CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC);
	VALUE(CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES);
	VALUE(CU_MEMPOOL_ATTR_RELEASE_THRESHOLD);
	VALUE(CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT);
	VALUE(CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH);
	VALUE(CU_MEMPOOL_ATTR_USED_MEM_CURRENT);
	VALUE(CU_MEMPOOL_ATTR_USED_MEM_HIGH);
	/* cuGetProcAddress */
	SIZE(CUdriverProcAddress_flags);
	VALUE(CU_GET_PROC_ADDRESS_DEFAULT);
	VALUE(CU_GET_PROC_ADDRESS_LEGACY_STREAM);
	VALUE(CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM);
	SIZE(CUdriverProcAddressQueryResult);
	VALUE(CU_GET_PROC_ADDRESS_SUCCESS);
	VALUE(CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
	VALUE(CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
}

static void runtime_enums(void)
{
	SIZE(enum cudaError);
	VALUE(cudaSuccess);
	VALUE(cudaErrorInvalidValue);
	VALUE(cudaErrorMemoryAllocation);
	VALUE(cudaErrorInitializationError);
	VALUE(cudaErrorCudartUnloading);
	VALUE(cudaErrorProfilerDisabled);
	VALUE(cudaErrorProfilerNotInitialized);
	VALUE(cudaErrorProfilerAlreadyStarted);
	VALUE(cudaErrorProfilerAlreadyStopped);
	VALUE(cudaErrorInvalidConfiguration);
	VALUE(cudaErrorInvalidPitchValue);
	VALUE(cudaErrorInvalidSymbol);
	VALUE(cudaErrorInvalidHostPointer);
	VALUE(cudaErrorInvalidDevicePointer);
	VALUE(cudaErrorInvalidTexture);
	VALUE(cudaErrorInvalidTextureBinding);
	VALUE(cudaErrorInvalidChannelDescriptor);
	VALUE(cudaErrorInvalidMemcpyDirection);
	VALUE(cudaErrorAddressOfConstant);
	VALUE(cudaErrorTextureFetchFailed);
	VALUE(cudaErrorTextureNotBound);
	VALUE(cudaErrorSynchronizationError);
	VALUE(cudaErrorInvalidFilterSetting);
	VALUE(cudaErrorInvalidNormSetting);
	VALUE(cudaErrorMixedDeviceExecution);
	VALUE(cudaErrorNotYetImplemented);
	VALUE(cudaErrorMemoryValueTooLarge);
	VALUE(cudaErrorStubLibrary);
	VALUE(cudaErrorInsufficientDriver);
	VALUE(cudaErrorCallRequiresNewerDriver);
	VALUE(cudaErrorInvalidSurface);
	VALUE(cudaErrorDuplicateVariableName);
	VALUE(cudaErrorDuplicateTextureName);
	VALUE(cudaErrorDuplicateSurfaceName);
	VALUE(cudaErrorDevicesUnavailable);
	VALUE(cudaErrorIncompatibleDriverContext);
	VALUE(cudaErrorMissingConfiguration);
	VALUE(cudaErrorPriorLaunchFailure);
	VALUE(cudaErrorLaunchMaxDepthExceeded);
	VALUE(cudaErrorLaunchFileScopedTex);
	VALUE(cudaErrorLaunchFileScopedSurf);
	VALUE(cudaErrorSyncDepthExceeded);
	VALUE(cudaErrorLaunchPendingCountExceeded);
	VALUE(cudaErrorInvalidDeviceFunction);
	VALUE(cudaErrorNoDevice);
	VALUE(cudaErrorInvalidDevice);
	VALUE(cudaErrorDeviceNotLicensed);
	VALUE(cudaErrorSoftwareValidityNotEstablished);
	VALUE(cudaErrorStartupFailure);
	VALUE(cudaErrorInvalidKernelImage);
	VALUE(cudaErrorDeviceUninitialized);
	VALUE(cudaErrorMapBufferObjectFailed);
	VALUE(cudaErrorUnmapBufferObjectFailed);
	VALUE(cudaErrorArrayIsMapped);
	VALUE(cudaErrorAlreadyMapped);
	VALUE(cudaErrorNoKernelImageForDevice);
	VALUE(cudaErrorAlreadyAcquired);
	VALUE(cudaErrorNotMapped);
	VALUE(cudaErrorNotMappedAsArray);
	VALUE(cudaErrorNotMappedAsPointer);
	VALUE(cudaErrorECCUncorrectable);
	VALUE(cudaErrorUnsupportedLimit);
	VALUE(cudaErrorDeviceAlreadyInUse);
	VALUE(cudaErrorPeerAccessUnsupported);
	VALUE(cudaErrorInvalidPtx);
	VALUE(cudaErrorInvalidGraphicsContext);
	VALUE(cudaErrorNvlinkUncorrectable);
	VALUE(cudaErrorJitCompilerNotFound);
	VALUE(cudaErrorUnsupportedPtxVersion);
	VALUE(cudaErrorJitCompilationDisabled);
	VALUE(cudaErrorUnsupportedExecAffinity);
	VALUE(cudaErrorUnsupportedDevSideSync);
	VALUE(cudaErrorContained);
	VALUE(cudaErrorInvalidSource);
	VALUE(cudaErrorFileNotFound);
	VALUE(cudaErrorSharedObjectSymbolNotFound);
	VALUE(cudaErrorSharedObjectInitFailed);
	VALUE(cudaErrorOperatingSystem);
	VALUE(cudaErrorInvalidResourceHandle);
	VALUE(cudaErrorIllegalState);
	VALUE(cudaErrorLossyQuery);
	VALUE(cudaErrorSymbolNotFound);
	VALUE(cudaErrorNotReady);
	VALUE(cudaErrorIllegalAddress);
	VALUE(cudaErrorLaunchOutOfResources);
	VALUE(cudaErrorLaunchTimeout);
	VALUE(cudaErrorLaunchIncompatibleTexturing);
	VALUE(cudaErrorPeerAccessAlreadyEnabled);
	VALUE(cudaErrorPeerAccessNotEnabled);
	VALUE(cudaErrorSetOnActiveProcess);
	VALUE(cudaErrorContextIsDestroyed);
	VALUE(cudaErrorAssert);
	VALUE(cudaErrorTooManyPeers);
	VALUE(cudaErrorHostMemoryAlreadyRegistered);
	VALUE(cudaErrorHostMemoryNotRegistered);
	VALUE(cudaErrorHardwareStackError);
	VALUE(cudaErrorIllegalInstruction);
	VALUE(cudaErrorMisalignedAddress);
	VALUE(cudaErrorInvalidAddressSpace);
	VALUE(cudaErrorInvalidPc);
	VALUE(cudaErrorLaunchFailure);
	VALUE(cudaErrorCooperativeLaunchTooLarge);
	VALUE(cudaErrorTensorMemoryLeak);
	VALUE(cudaErrorNotPermitted);
	VALUE(cudaErrorNotSupported);
	VALUE(cudaErrorSystemNotReady);
	VALUE(cudaErrorSystemDriverMismatch);
	VALUE(cudaErrorCompatNotSupportedOnDevice);
	VALUE(cudaErrorMpsConnectionFailed);
	VALUE(cudaErrorMpsRpcFailure);
	VALUE(cudaErrorMpsServerNotReady);
	VALUE(cudaErrorMpsMaxClientsReached);
	VALUE(cudaErrorMpsMaxConnectionsReached);
	VALUE(cudaErrorMpsClientTerminated);
	VALUE(cudaErrorCdpNotSupported);
	VALUE(cudaErrorCdpVersionMismatch);
	VALUE(cudaErrorStreamCaptureUnsupported);
	VALUE(cudaErrorStreamCaptureInvalidated);
	VALUE(cudaErrorStreamCaptureMerge);
	VALUE(cudaErrorStreamCaptureUnmatched);
	VALUE(cudaErrorStreamCaptureUnjoined);
	VALUE(cudaErrorStreamCaptureIsolation);
	VALUE(cudaErrorStreamCaptureImplicit);
	VALUE(cudaErrorCapturedEvent);
	VALUE(cudaErrorStreamCaptureWrongThread);
	VALUE(cudaErrorTimeout);
	VALUE(cudaErrorGraphExecUpdateFailure);
	VALUE(cudaErrorExternalDevice);
	VALUE(cudaErrorInvalidClusterSize);
	VALUE(cudaErrorFunctionNotLoaded);
	VALUE(cudaErrorInvalidResourceType);
	VALUE(cudaErrorInvalidResourceConfiguration);
	VALUE(cudaErrorUnknown);
	VALUE(cudaErrorApiFailureBase);
	SIZE(enum cudaMemoryType);
	VALUE(cudaMemoryTypeUnregistered);
	VALUE(cudaMemoryTypeHost);
	VALUE(cudaMemoryTypeDevice);
	VALUE(cudaMemoryTypeManaged);
	SIZE(enum cudaMemcpyKind);
	VALUE(cudaMemcpyHostToHost);
	VALUE(cudaMemcpyHostToDevice);
	VALUE(cudaMemcpyDeviceToHost);
	VALUE(cudaMemcpyDeviceToDevice);
	VALUE(cudaMemcpyDefault);
	SIZE(enum cudaMemoryAdvise);
	VALUE(cudaMemAdviseSetReadMostly);
	VALUE(cudaMemAdviseUnsetReadMostly);
	VALUE(cudaMemAdviseSetPreferredLocation);
	VALUE(cudaMemAdviseUnsetPreferredLocation);
	VALUE(cudaMemAdviseSetAccessedBy);
	VALUE(cudaMemAdviseUnsetAccessedBy);
	SIZE(enum cudaMemRangeAttribute);
	VALUE(cudaMemRangeAttributeReadMostly);
	VALUE(cudaMemRangeAttributePreferredLocation);
	VALUE(cudaMemRangeAttributeAccessedBy);
	VALUE(cudaMemRangeAttributeLastPrefetchLocation);
	VALUE(cudaMemRangeAttributePreferredLocationType);
	VALUE(cudaMemRangeAttributePreferredLocationId);
	VALUE(cudaMemRangeAttributeLastPrefetchLocationType);
	VALUE(cudaMemRangeAttributeLastPrefetchLocationId);
	SIZE(enum cudaMemPoolAttr);
	VALUE(cudaMemPoolReuseFollowEventDependencies);
	VALUE(cudaMemPoolReuseAllowOpportunistic);
	VALUE(cudaMemPoolReuseAllowInternalDependencies);
	VALUE(cudaMemPoolAttrReleaseThreshold);
	VALUE(cudaMemPoolAttrReservedMemCurrent);
	VALUE(cudaMemPoolAttrReservedMemHigh);
	VALUE(cudaMemPoolAttrUsedMemCurrent);
	VALUE(cudaMemPoolAttrUsedMemHigh);
	SIZE(enum cudaMemLocationType);
	VALUE(cudaMemLocationTypeInvalid);
	VALUE(cudaMemLocationTypeNone);
	VALUE(cudaMemLocationTypeDevice);
	VALUE(cudaMemLocationTypeHost);
	VALUE(cudaMemLocationTypeHostNuma);
	VALUE(cudaMemLocationTypeHostNumaCurrent);
	SIZE(enum cudaMemAccessFlags);
	VALUE(cudaMemAccessFlagsProtNone);
	VALUE(cudaMemAccessFlagsProtRead);
	VALUE(cudaMemAccessFlagsProtReadWrite);
	SIZE(enum cudaMemAllocationType);
	VALUE(cudaMemAllocationTypeInvalid);
	VALUE(cudaMemAllocationTypePinned);
	VALUE(cudaMemAllocationTypeManaged);
	VALUE(cudaMemAllocationTypeMax);
	SIZE(enum cudaMemAllocationHandleType);
	VALUE(cudaMemHandleTypeNone);
	VALUE(cudaMemHandleTypePosixFileDescriptor);
	VALUE(cudaMemHandleTypeWin32);
	VALUE(cudaMemHandleTypeWin32Kmt);
	VALUE(cudaMemHandleTypeFabric);
	SIZE(enum cudaDeviceAttr);
	VALUE(cudaDevAttrMaxThreadsPerBlock);
	VALUE(cudaDevAttrMaxBlockDimX);
	VALUE(cudaDevAttrMaxBlockDimY);
	VALUE(cudaDevAttrMaxBlockDimZ);
	VALUE(cudaDevAttrMaxGridDimX);
	VALUE(cudaDevAttrMaxGridDimY);
	VALUE(cudaDevAttrMaxGridDimZ);
	VALUE(cudaDevAttrMaxSharedMemoryPerBlock);
	VALUE(cudaDevAttrTotalConstantMemory);
	VALUE(cudaDevAttrWarpSize);
	VALUE(cudaDevAttrMaxPitch);
	VALUE(cudaDevAttrMaxRegistersPerBlock);
	VALUE(cudaDevAttrClockRate);
	VALUE(cudaDevAttrTextureAlignment);
	VALUE(cudaDevAttrGpuOverlap);
	VALUE(cudaDevAttrMultiProcessorCount);
	VALUE(cudaDevAttrKernelExecTimeout);
	VALUE(cudaDevAttrIntegrated);
	VALUE(cudaDevAttrCanMapHostMemory);
	VALUE(cudaDevAttrComputeMode);
	VALUE(cudaDevAttrMaxTexture1DWidth);
	VALUE(cudaDevAttrMaxTexture2DWidth);
	VALUE(cudaDevAttrMaxTexture2DHeight);
	VALUE(cudaDevAttrMaxTexture3DWidth);
	VALUE(cudaDevAttrMaxTexture3DHeight);
	VALUE(cudaDevAttrMaxTexture3DDepth);
	VALUE(cudaDevAttrMaxTexture2DLayeredWidth);
	VALUE(cudaDevAttrMaxTexture2DLayeredHeight);
	VALUE(cudaDevAttrMaxTexture2DLayeredLayers);
	VALUE(cudaDevAttrSurfaceAlignment);
	VALUE(cudaDevAttrConcurrentKernels);
	VALUE(cudaDevAttrEccEnabled);
	VALUE(cudaDevAttrPciBusId);
	VALUE(cudaDevAttrPciDeviceId);
	VALUE(cudaDevAttrTccDriver);
	VALUE(cudaDevAttrMemoryClockRate);
	VALUE(cudaDevAttrGlobalMemoryBusWidth);
	VALUE(cudaDevAttrL2CacheSize);
	VALUE(cudaDevAttrMaxThreadsPerMultiProcessor);
	VALUE(cudaDevAttrAsyncEngineCount);
	VALUE(cudaDevAttrUnifiedAddressing);
	VALUE(cudaDevAttrMaxTexture1DLayeredWidth);
	VALUE(cudaDevAttrMaxTexture1DLayeredLayers);
	VALUE(cudaDevAttrMaxTexture2DGatherWidth);
	VALUE(cudaDevAttrMaxTexture2DGatherHeight);
	VALUE(cudaDevAttrMaxTexture3DWidthAlt);
	VALUE(cudaDevAttrMaxTexture3DHeightAlt);
	VALUE(cudaDevAttrMaxTexture3DDepthAlt);
	VALUE(cudaDevAttrPciDomainId);
	VALUE(cudaDevAttrTexturePitchAlignment);
	VALUE(cudaDevAttrMaxTextureCubemapWidth);
	VALUE(cudaDevAttrMaxTextureCubemapLayeredWidth);
	VALUE(cudaDevAttrMaxTextureCubemapLayeredLayers);
	VALUE(cudaDevAttrMaxSurface1DWidth);
	VALUE(cudaDevAttrMaxSurface2DWidth);
	VALUE(cudaDevAttrMaxSurface2DHeight);
	VALUE(cudaDevAttrMaxSurface3DWidth);
	VALUE(cudaDevAttrMaxSurface3DHeight);
	VALUE(cudaDevAttrMaxSurface3DDepth);
	VALUE(cudaDevAttrMaxSurface1DLayeredWidth);
	VALUE(cudaDevAttrMaxSurface1DLayeredLayers);
	VALUE(cudaDevAttrMaxSurface2DLayeredWidth);
	VALUE(cudaDevAttrMaxSurface2DLayeredHeight);
	VALUE(cudaDevAttrMaxSurface2DLayeredLayers);
	VALUE(cudaDevAttrMaxSurfaceCubemapWidth);
	VALUE(cudaDevAttrMaxSurfaceCubemapLayeredWidth);
	VALUE(cudaDevAttrMaxSurfaceCubemapLayeredLayers);
	VALUE(cudaDevAttrMaxTexture1DLinearWidth);
	VALUE(cudaDevAttrMaxTexture2DLinearWidth);
	VALUE(cudaDevAttrMaxTexture2DLinearHeight);
	VALUE(cudaDevAttrMaxTexture2DLinearPitch);
	VALUE(cudaDevAttrMaxTexture2DMipmappedWidth);
	VALUE(cudaDevAttrMaxTexture2DMipmappedHeight);
	VALUE(cudaDevAttrComputeCapabilityMajor);
	VALUE(cudaDevAttrComputeCapabilityMinor);
	VALUE(cudaDevAttrMaxTexture1DMipmappedWidth);
	VALUE(cudaDevAttrStreamPrioritiesSupported);
	VALUE(cudaDevAttrGlobalL1CacheSupported);
	VALUE(cudaDevAttrLocalL1CacheSupported);
	VALUE(cudaDevAttrMaxSharedMemoryPerMultiprocessor);
	VALUE(cudaDevAttrMaxRegistersPerMultiprocessor);
	VALUE(cudaDevAttrManagedMemory);
	VALUE(cudaDevAttrIsMultiGpuBoard);
	VALUE(cudaDevAttrMultiGpuBoardGroupID);
	VALUE(cudaDevAttrHostNativeAtomicSupported);
	VALUE(cudaDevAttrSingleToDoublePrecisionPerfRatio);
	VALUE(cudaDevAttrPageableMemoryAccess);
	VALUE(cudaDevAttrConcurrentManagedAccess);
	VALUE(cudaDevAttrComputePreemptionSupported);
	VALUE(cudaDevAttrCanUseHostPointerForRegisteredMem);
	VALUE(cudaDevAttrReserved92);
	VALUE(cudaDevAttrReserved93);
	VALUE(cudaDevAttrReserved94);
	VALUE(cudaDevAttrCooperativeLaunch);
	VALUE(cudaDevAttrReserved96);
	VALUE(cudaDevAttrMaxSharedMemoryPerBlockOptin);
	VALUE(cudaDevAttrCanFlushRemoteWrites);
	VALUE(cudaDevAttrHostRegisterSupported);
	VALUE(cudaDevAttrPageableMemoryAccessUsesHostPageTables);
	VALUE(cudaDevAttrDirectManagedMemAccessFromHost);
	VALUE(cudaDevAttrMaxBlocksPerMultiprocessor);
	VALUE(cudaDevAttrMaxPersistingL2CacheSize);
	VALUE(cudaDevAttrMaxAccessPolicyWindowSize);
	VALUE(cudaDevAttrReservedSharedMemoryPerBlock);
	VALUE(cudaDevAttrSparseCudaArraySupported);
	VALUE(cudaDevAttrHostRegisterReadOnlySupported);
	VALUE(cudaDevAttrTimelineSemaphoreInteropSupported);
	VALUE(cudaDevAttrMemoryPoolsSupported);
	VALUE(cudaDevAttrGPUDirectRDMASupported);
	VALUE(cudaDevAttrGPUDirectRDMAFlushWritesOptions);
	VALUE(cudaDevAttrGPUDirectRDMAWritesOrdering);
	VALUE(cudaDevAttrMemoryPoolSupportedHandleTypes);
	VALUE(cudaDevAttrClusterLaunch);
	VALUE(cudaDevAttrDeferredMappingCudaArraySupported);
	VALUE(cudaDevAttrReserved122);
	VALUE(cudaDevAttrReserved123);
	VALUE(cudaDevAttrReserved124);
	VALUE(cudaDevAttrIpcEventSupport);
	VALUE(cudaDevAttrMemSyncDomainCount);
	VALUE(cudaDevAttrReserved127);
	VALUE(cudaDevAttrReserved128);
	VALUE(cudaDevAttrReserved129);
	VALUE(cudaDevAttrNumaConfig);
	VALUE(cudaDevAttrNumaId);
	VALUE(cudaDevAttrReserved132);
	VALUE(cudaDevAttrMpsEnabled);
	VALUE(cudaDevAttrHostNumaId);
	VALUE(cudaDevAttrD3D12CigSupported);
	VALUE(cudaDevAttrVulkanCigSupported);
	VALUE(cudaDevAttrGpuPciDeviceId);
	VALUE(cudaDevAttrGpuPciSubsystemId);
	VALUE(cudaDevAttrReserved141);
	VALUE(cudaDevAttrHostNumaMemoryPoolsSupported);
	VALUE(cudaDevAttrHostNumaMultinodeIpcSupported);
	VALUE(cudaDevAttrHostMemoryPoolsSupported);
	VALUE(cudaDevAttrReserved145);
	VALUE(cudaDevAttrOnlyPartialHostNativeAtomicSupported);
	VALUE(cudaDevAttrMax);
	VALUE(cudaEnableDefault);
	VALUE(cudaEnableLegacyStream);
	VALUE(cudaEnablePerThreadDefaultStream);
	VALUE(cudaDriverEntryPointSuccess);
	VALUE(cudaDriverEntryPointSymbolNotFound);
	VALUE(cudaDriverEntryPointVersionNotSufficent);
}

static void driver_macros(void)
{
	HANDLE(CU_STREAM_LEGACY);
	HANDLE(CU_STREAM_PER_THREAD);
	VALUE(CU_DEVICE_CPU);
	VALUE(CU_DEVICE_INVALID);
	VALUE(CU_IPC_HANDLE_SIZE);
	VALUE(CU_MEMHOSTALLOC_PORTABLE);
	VALUE(CU_MEMHOSTALLOC_DEVICEMAP);
	VALUE(CU_MEMHOSTALLOC_WRITECOMBINED);
	VALUE(CU_MEMHOSTREGISTER_PORTABLE);
	VALUE(CU_MEMHOSTREGISTER_DEVICEMAP);
	VALUE(CU_MEMHOSTREGISTER_IOMEMORY);
	VALUE(CU_MEMHOSTREGISTER_READ_ONLY);
	VALUE(CU_MEM_CREATE_USAGE_TILE_POOL);
	VALUE(CU_MEM_CREATE_USAGE_HW_DECOMPRESS);
	VALUE(CU_MEM_POOL_CREATE_USAGE_HW_DECOMPRESS);
}

static void runtime_macros(void)
{
	HANDLE(cudaStreamLegacy);
	HANDLE(cudaStreamPerThread);
	VALUE(cudaCpuDeviceId);
	VALUE(cudaInvalidDeviceId);
	VALUE(cudaHostAllocDefault);
	VALUE(cudaHostAllocPortable);
	VALUE(cudaHostAllocMapped);
	VALUE(cudaHostAllocWriteCombined);
	VALUE(cudaHostRegisterDefault);
	VALUE(cudaHostRegisterPortable);
	VALUE(cudaHostRegisterMapped);
	VALUE(cudaHostRegisterIoMemory);
	VALUE(cudaHostRegisterReadOnly);
	VALUE(cudaPeerAccessDefault);
	VALUE(cudaStreamDefault);
	VALUE(cudaStreamNonBlocking);
	VALUE(cudaEventDefault);
	VALUE(cudaEventBlockingSync);
	VALUE(cudaEventDisableTiming);
	VALUE(cudaEventInterprocess);
	VALUE(cudaEventRecordDefault);
	VALUE(cudaEventRecordExternal);
	VALUE(cudaEventWaitDefault);
	VALUE(cudaEventWaitExternal);
	VALUE(cudaDeviceScheduleAuto);
	VALUE(cudaDeviceScheduleSpin);
	VALUE(cudaDeviceScheduleYield);
	VALUE(cudaDeviceScheduleBlockingSync);
	VALUE(cudaDeviceBlockingSync);
	VALUE(cudaDeviceScheduleMask);
	VALUE(cudaDeviceMapHost);
	VALUE(cudaDeviceLmemResizeToMax);
	VALUE(cudaDeviceSyncMemops);
	VALUE(cudaDeviceMask);
	VALUE(cudaMemAttachGlobal);
	VALUE(cudaMemAttachHost);
	VALUE(cudaMemAttachSingle);
	VALUE(cudaMemPoolCreateUsageHwDecompress);
}

static void scalar_types(void)
{
	SIZE(CUdeviceptr);
	SIZE(CUdeviceptr_v2);
	SIZE(CUdevice);
	SIZE(CUmemGenericAllocationHandle);
	SIZE(cuuint32_t);
	SIZE(cuuint64_t);
	SIZE(CUcontext);
	SIZE(CUstream);
	SIZE(CUhostFn);
	SIZE(CUstreamCallback);
	SIZE(cudaHostFn_t);
	SIZE(cudaStreamCallback_t);
	SAME(cudaStream_t, CUstream);
	SAME(cudaEvent_t, CUevent);
	SAME(cudaMemPool_t, CUmemoryPool);
	SAME(cudaUUID_t, CUuuid);
	SAME(CUdeviceptr, unsigned long long);
	SAME(CUmemGenericAllocationHandle, unsigned long long);
	SAME(CUdevice, int);
}

static void driver_structs(void)
{
	SIZE(CUuuid);
	OFFSET(CUuuid, bytes);
	SIZE(CUmemFabricHandle);
	OFFSET(CUmemFabricHandle, data);
	SIZE(CUmemLocation);
	OFFSET(CUmemLocation, type);
	OFFSET(CUmemLocation, id);
	SIZE(CUmemAllocationProp);
	OFFSET(CUmemAllocationProp, type);
	OFFSET(CUmemAllocationProp, requestedHandleTypes);
	OFFSET(CUmemAllocationProp, location);
	OFFSET(CUmemAllocationProp, location.id);
	OFFSET(CUmemAllocationProp, win32HandleMetaData);
	OFFSET(CUmemAllocationProp, allocFlags);
	OFFSET(CUmemAllocationProp, allocFlags.compressionType);
	OFFSET(CUmemAllocationProp, allocFlags.gpuDirectRDMACapable);
	OFFSET(CUmemAllocationProp, allocFlags.usage);
	OFFSET(CUmemAllocationProp, allocFlags.reserved);
	SIZE(CUmemAccessDesc);
	OFFSET(CUmemAccessDesc, location);
	OFFSET(CUmemAccessDesc, flags);
	SIZE(CUmemPoolProps);
	OFFSET(CUmemPoolProps, allocType);
	OFFSET(CUmemPoolProps, handleTypes);
	OFFSET(CUmemPoolProps, location);
	OFFSET(CUmemPoolProps, win32SecurityAttributes);
	OFFSET(CUmemPoolProps, maxSize);
	OFFSET(CUmemPoolProps, usage);
	OFFSET(CUmemPoolProps, reserved);
	SIZE(CUmemPoolPtrExportData);
	OFFSET(CUmemPoolPtrExportData, reserved);
	SIZE(CUarrayMapInfo);
	OFFSET(CUarrayMapInfo, resourceType);
	OFFSET(CUarrayMapInfo, resource);
	OFFSET(CUarrayMapInfo, resource.array);
	OFFSET(CUarrayMapInfo, subresourceType);
	OFFSET(CUarrayMapInfo, subresource);
	OFFSET(CUarrayMapInfo, subresource.sparseLevel.level);
	OFFSET(CUarrayMapInfo, subresource.sparseLevel.extentDepth);
	OFFSET(CUarrayMapInfo, subresource.miptail.layer);
	OFFSET(CUarrayMapInfo, subresource.miptail.offset);
	OFFSET(CUarrayMapInfo, subresource.miptail.size);
	OFFSET(CUarrayMapInfo, memOperationType);
	OFFSET(CUarrayMapInfo, memHandleType);
	OFFSET(CUarrayMapInfo, memHandle);
	OFFSET(CUarrayMapInfo, memHandle.memHandle);
	OFFSET(CUarrayMapInfo, offset);
	OFFSET(CUarrayMapInfo, deviceBitMask);
	OFFSET(CUarrayMapInfo, flags);
	OFFSET(CUarrayMapInfo, reserved);
	SIZE(CUexecAffinitySmCount);
	OFFSET(CUexecAffinitySmCount, val);
	SIZE(CUexecAffinityParam);
	OFFSET(CUexecAffinityParam, type);
	OFFSET(CUexecAffinityParam, param);
	OFFSET(CUexecAffinityParam, param.smCount);
	SIZE(CUctxCigParam);
	OFFSET(CUctxCigParam, sharedDataType);
	OFFSET(CUctxCigParam, sharedData);
	SIZE(CUctxCreateParams);
	OFFSET(CUctxCreateParams, execAffinityParams);
	OFFSET(CUctxCreateParams, numExecAffinityParams);
	OFFSET(CUctxCreateParams, cigParams);
	SIZE(CUDA_POINTER_ATTRIBUTE_P2P_TOKENS);
	OFFSET(CUDA_POINTER_ATTRIBUTE_P2P_TOKENS, p2pToken);
	OFFSET(CUDA_POINTER_ATTRIBUTE_P2P_TOKENS, vaSpaceToken);
}

static void runtime_structs(void)
{
	SIZE(struct cudaMemLocation);
	OFFSET(struct cudaMemLocation, type);
	OFFSET(struct cudaMemLocation, id);
	SIZE(struct cudaMemAccessDesc);
	OFFSET(struct cudaMemAccessDesc, location);
	OFFSET(struct cudaMemAccessDesc, flags);
	SIZE(struct cudaMemPoolProps);
	OFFSET(struct cudaMemPoolProps, allocType);
	OFFSET(struct cudaMemPoolProps, handleTypes);
	OFFSET(struct cudaMemPoolProps, location);
	OFFSET(struct cudaMemPoolProps, win32SecurityAttributes);
	OFFSET(struct cudaMemPoolProps, maxSize);
	OFFSET(struct cudaMemPoolProps, usage);
	OFFSET(struct cudaMemPoolProps, reserved);
	SIZE(struct cudaMemPoolPtrExportData);
	OFFSET(struct cudaMemPoolPtrExportData, reserved);
	SIZE(struct cudaPointerAttributes);
	OFFSET(struct cudaPointerAttributes, type);
	OFFSET(struct cudaPointerAttributes, device);
	OFFSET(struct cudaPointerAttributes, devicePointer);
	OFFSET(struct cudaPointerAttributes, hostPointer);
	OFFSET(struct cudaPointerAttributes, reserved);
	SIZE(struct cudaDeviceProp);
	OFFSET(struct cudaDeviceProp, name);
	OFFSET(struct cudaDeviceProp, uuid);
	OFFSET(struct cudaDeviceProp, luid);
	OFFSET(struct cudaDeviceProp, luidDeviceNodeMask);
	OFFSET(struct cudaDeviceProp, totalGlobalMem);
	OFFSET(struct cudaDeviceProp, sharedMemPerBlock);
	OFFSET(struct cudaDeviceProp, regsPerBlock);
	OFFSET(struct cudaDeviceProp, warpSize);
	OFFSET(struct cudaDeviceProp, memPitch);
	OFFSET(struct cudaDeviceProp, maxThreadsPerBlock);
	OFFSET(struct cudaDeviceProp, maxThreadsDim);
	OFFSET(struct cudaDeviceProp, maxGridSize);
	OFFSET(struct cudaDeviceProp, totalConstMem);
	OFFSET(struct cudaDeviceProp, major);
	OFFSET(struct cudaDeviceProp, minor);
	OFFSET(struct cudaDeviceProp, textureAlignment);
	OFFSET(struct cudaDeviceProp, texturePitchAlignment);
	OFFSET(struct cudaDeviceProp, multiProcessorCount);
	OFFSET(struct cudaDeviceProp, integrated);
	OFFSET(struct cudaDeviceProp, canMapHostMemory);
	OFFSET(struct cudaDeviceProp, maxTexture1D);
	OFFSET(struct cudaDeviceProp, maxTexture1DMipmap);
	OFFSET(struct cudaDeviceProp, maxTexture2D);
	OFFSET(struct cudaDeviceProp, maxTexture2DMipmap);
	OFFSET(struct cudaDeviceProp, maxTexture2DLinear);
	OFFSET(struct cudaDeviceProp, maxTexture2DGather);
	OFFSET(struct cudaDeviceProp, maxTexture3D);
	OFFSET(struct cudaDeviceProp, maxTexture3DAlt);
	OFFSET(struct cudaDeviceProp, maxTextureCubemap);
	OFFSET(struct cudaDeviceProp, maxTexture1DLayered);
	OFFSET(struct cudaDeviceProp, maxTexture2DLayered);
	OFFSET(struct cudaDeviceProp, maxTextureCubemapLayered);
	OFFSET(struct cudaDeviceProp, maxSurface1D);
	OFFSET(struct cudaDeviceProp, maxSurface2D);
	OFFSET(struct cudaDeviceProp, maxSurface3D);
	OFFSET(struct cudaDeviceProp, maxSurface1DLayered);
	OFFSET(struct cudaDeviceProp, maxSurface2DLayered);
	OFFSET(struct cudaDeviceProp, maxSurfaceCubemap);
	OFFSET(struct cudaDeviceProp, maxSurfaceCubemapLayered);
	OFFSET(struct cudaDeviceProp, surfaceAlignment);
	OFFSET(struct cudaDeviceProp, concurrentKernels);
	OFFSET(struct cudaDeviceProp, ECCEnabled);
	OFFSET(struct cudaDeviceProp, pciBusID);
	OFFSET(struct cudaDeviceProp, pciDeviceID);
	OFFSET(struct cudaDeviceProp, pciDomainID);
	OFFSET(struct cudaDeviceProp, tccDriver);
	OFFSET(struct cudaDeviceProp, asyncEngineCount);
	OFFSET(struct cudaDeviceProp, unifiedAddressing);
	OFFSET(struct cudaDeviceProp, memoryBusWidth);
	OFFSET(struct cudaDeviceProp, l2CacheSize);
	OFFSET(struct cudaDeviceProp, persistingL2CacheMaxSize);
	OFFSET(struct cudaDeviceProp, maxThreadsPerMultiProcessor);
	OFFSET(struct cudaDeviceProp, streamPrioritiesSupported);
	OFFSET(struct cudaDeviceProp, globalL1CacheSupported);
	OFFSET(struct cudaDeviceProp, localL1CacheSupported);
	OFFSET(struct cudaDeviceProp, sharedMemPerMultiprocessor);
	OFFSET(struct cudaDeviceProp, regsPerMultiprocessor);
	OFFSET(struct cudaDeviceProp, managedMemory);
	OFFSET(struct cudaDeviceProp, isMultiGpuBoard);
	OFFSET(struct cudaDeviceProp, multiGpuBoardGroupID);
	OFFSET(struct cudaDeviceProp, hostNativeAtomicSupported);
	OFFSET(struct cudaDeviceProp, pageableMemoryAccess);
	OFFSET(struct cudaDeviceProp, concurrentManagedAccess);
	OFFSET(struct cudaDeviceProp, computePreemptionSupported);
	OFFSET(struct cudaDeviceProp, canUseHostPointerForRegisteredMem);
	OFFSET(struct cudaDeviceProp, cooperativeLaunch);
	OFFSET(struct cudaDeviceProp, sharedMemPerBlockOptin);
	OFFSET(struct cudaDeviceProp, pageableMemoryAccessUsesHostPageTables);
	OFFSET(struct cudaDeviceProp, directManagedMemAccessFromHost);
	OFFSET(struct cudaDeviceProp, maxBlocksPerMultiProcessor);
	OFFSET(struct cudaDeviceProp, accessPolicyMaxWindowSize);
	OFFSET(struct cudaDeviceProp, reservedSharedMemPerBlock);
	OFFSET(struct cudaDeviceProp, hostRegisterSupported);
	OFFSET(struct cudaDeviceProp, sparseCudaArraySupported);
	OFFSET(struct cudaDeviceProp, hostRegisterReadOnlySupported);
	OFFSET(struct cudaDeviceProp, timelineSemaphoreInteropSupported);
	OFFSET(struct cudaDeviceProp, memoryPoolsSupported);
	OFFSET(struct cudaDeviceProp, gpuDirectRDMASupported);
	OFFSET(struct cudaDeviceProp, gpuDirectRDMAFlushWritesOptions);
	OFFSET(struct cudaDeviceProp, gpuDirectRDMAWritesOrdering);
	OFFSET(struct cudaDeviceProp, memoryPoolSupportedHandleTypes);
	OFFSET(struct cudaDeviceProp, deferredMappingCudaArraySupported);
	OFFSET(struct cudaDeviceProp, ipcEventSupported);
	OFFSET(struct cudaDeviceProp, clusterLaunch);
	OFFSET(struct cudaDeviceProp, unifiedFunctionPointers);
	OFFSET(struct cudaDeviceProp, deviceNumaConfig);
	OFFSET(struct cudaDeviceProp, deviceNumaId);
	OFFSET(struct cudaDeviceProp, mpsEnabled);
	OFFSET(struct cudaDeviceProp, hostNumaId);
	OFFSET(struct cudaDeviceProp, gpuPciDeviceID);
	OFFSET(struct cudaDeviceProp, gpuPciSubsystemID);
	OFFSET(struct cudaDeviceProp, hostNumaMultinodeIpcSupported);
	OFFSET(struct cudaDeviceProp, reserved);
}

static void driver_entries(void)
{
	ENTRY(cuGetErrorString, CUresult (*)(CUresult error, const char **pStr));
	ENTRY(cuGetErrorName, CUresult (*)(CUresult error, const char **pStr));
	ENTRY(cuInit, CUresult (*)(unsigned int Flags));
	ENTRY(cuDriverGetVersion, CUresult (*)(int *driverVersion));
	ENTRY(cuDeviceGet, CUresult (*)(CUdevice *device, int ordinal));
	ENTRY(cuDeviceGetCount, CUresult (*)(int *count));
	ENTRY(cuDeviceGetName, CUresult (*)(char *name, int len, CUdevice dev));
	ENTRY(cuDeviceGetUuid, CUresult (*)(CUuuid *uuid, CUdevice dev));
	ENTRY(cuDeviceTotalMem, CUresult (*)(size_t *bytes, CUdevice dev));
	ENTRY(cuDeviceGetAttribute, CUresult (*)(int *pi, CUdevice_attribute attrib,
	      CUdevice dev));
	ENTRY(cuDeviceSetMemPool, CUresult (*)(CUdevice dev, CUmemoryPool pool));
	ENTRY(cuDeviceGetMemPool, CUresult (*)(CUmemoryPool *pool, CUdevice dev));
	ENTRY(cuDeviceGetDefaultMemPool, CUresult (*)(CUmemoryPool *pool_out,
	      CUdevice dev));
	ENTRY(cuDeviceCanAccessPeer, CUresult (*)(int *canAccessPeer, CUdevice dev,
	      CUdevice peerDev));
	ENTRY(cuDeviceGetP2PAttribute, CUresult (*)(int *value,
	      CUdevice_P2PAttribute attrib, CUdevice srcDevice, CUdevice dstDevice));
	ENTRY(cuDevicePrimaryCtxRetain, CUresult (*)(CUcontext *pctx, CUdevice dev));
	ENTRY(cuDevicePrimaryCtxRelease, CUresult (*)(CUdevice dev));
	ENTRY(cuDevicePrimaryCtxSetFlags, CUresult (*)(CUdevice dev,
	      unsigned int flags));
	ENTRY(cuDevicePrimaryCtxGetState, CUresult (*)(CUdevice dev,
	      unsigned int *flags, int *active));
	ENTRY(cuDevicePrimaryCtxReset, CUresult (*)(CUdevice dev));
	ENTRY(cuCtxCreate, CUresult (*)(CUcontext *pctx,
	      CUctxCreateParams *ctxCreateParams, unsigned int flags, CUdevice dev));
	ENTRY(cuCtxDestroy, CUresult (*)(CUcontext ctx));
	ENTRY(cuCtxPushCurrent, CUresult (*)(CUcontext ctx));
	ENTRY(cuCtxPopCurrent, CUresult (*)(CUcontext *pctx));
	ENTRY(cuCtxSetCurrent, CUresult (*)(CUcontext ctx));
	ENTRY(cuCtxGetCurrent, CUresult (*)(CUcontext *pctx));
	ENTRY(cuCtxGetDevice, CUresult (*)(CUdevice *device));
	ENTRY(cuCtxSynchronize, CUresult (*)(void));
	ENTRY(cuCtxSynchronize_v2, CUresult (*)(CUcontext ctx));
	ENTRY(cuCtxGetDevice_v2, CUresult (*)(CUdevice *device, CUcontext ctx));
	ENTRY(cuCtxEnablePeerAccess, CUresult (*)(CUcontext peerContext,
	      unsigned int Flags));
	ENTRY(cuCtxDisablePeerAccess, CUresult (*)(CUcontext peerContext));
	ENTRY(cuStreamCreate, CUresult (*)(CUstream *phStream, unsigned int Flags));
	ENTRY(cuStreamCreateWithPriority, CUresult (*)(CUstream *phStream,
	      unsigned int flags, int priority));
	ENTRY(cuStreamGetPriority, CUresult (*)(CUstream hStream, int *priority));
	ENTRY(cuStreamGetFlags, CUresult (*)(CUstream hStream, unsigned int *flags));
	ENTRY(cuStreamGetCtx, CUresult (*)(CUstream hStream, CUcontext *pctx));
	ENTRY(cuStreamGetCtx_v2, CUresult (*)(CUstream hStream, CUcontext *pCtx,
					      CUgreenCtx *pGreenCtx));
	ENTRY(cuStreamWaitEvent, CUresult (*)(CUstream hStream, CUevent hEvent,
	      unsigned int Flags));
	ENTRY(cuStreamAddCallback, CUresult (*)(CUstream hStream,
	      CUstreamCallback callback, void *userData, unsigned int flags));
	ENTRY(cuStreamQuery, CUresult (*)(CUstream hStream));
	ENTRY(cuStreamSynchronize, CUresult (*)(CUstream hStream));
	ENTRY(cuStreamDestroy, CUresult (*)(CUstream hStream));
	ENTRY(cuLaunchHostFunc, CUresult (*)(CUstream hStream, CUhostFn fn,
	      void *userData));
	ENTRY(cuEventCreate, CUresult (*)(CUevent *phEvent, unsigned int Flags));
	ENTRY(cuEventRecord, CUresult (*)(CUevent hEvent, CUstream hStream));
	ENTRY(cuEventQuery, CUresult (*)(CUevent hEvent));
	ENTRY(cuEventSynchronize, CUresult (*)(CUevent hEvent));
	ENTRY(cuEventDestroy, CUresult (*)(CUevent hEvent));
	ENTRY(cuEventElapsedTime, CUresult (*)(float *pMilliseconds, CUevent hStart,
	      CUevent hEnd));
	ENTRY(cuMemGetInfo, CUresult (*)(size_t *freeBytes, size_t *totalBytes));
	ENTRY(cuMemAlloc, CUresult (*)(CUdeviceptr *dptr, size_t bytesize));
	ENTRY(cuMemAllocPitch, CUresult (*)(CUdeviceptr *dptr, size_t *pPitch,
	      size_t WidthInBytes, size_t Height, unsigned int ElementSizeBytes));
	ENTRY(cuMemFree, CUresult (*)(CUdeviceptr dptr));
	ENTRY(cuMemGetAddressRange, CUresult (*)(CUdeviceptr *pbase, size_t *psize,
	      CUdeviceptr dptr));
	ENTRY(cuMemAllocHost, CUresult (*)(void **pp, size_t bytesize));
	ENTRY(cuMemFreeHost, CUresult (*)(void *p));
	ENTRY(cuMemHostAlloc, CUresult (*)(void **pp, size_t bytesize,
	      unsigned int Flags));
	ENTRY(cuMemHostGetDevicePointer, CUresult (*)(CUdeviceptr *pdptr, void *p,
	      unsigned int Flags));
	ENTRY(cuMemHostGetFlags, CUresult (*)(unsigned int *pFlags, void *p));
	ENTRY(cuMemAllocManaged, CUresult (*)(CUdeviceptr *dptr, size_t bytesize,
	      unsigned int flags));
	ENTRY(cuMemHostRegister, CUresult (*)(void *p, size_t bytesize,
	      unsigned int Flags));
	ENTRY(cuMemHostUnregister, CUresult (*)(void *p));
	ENTRY(cuMemcpy, CUresult (*)(CUdeviceptr dst, CUdeviceptr src,
	      size_t ByteCount));
	ENTRY(cuMemcpyPeer, CUresult (*)(CUdeviceptr dstDevice, CUcontext dstContext,
	      CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount));
	ENTRY(cuMemcpyHtoD, CUresult (*)(CUdeviceptr dstDevice, const void *srcHost,
	      size_t ByteCount));
	ENTRY(cuMemcpyDtoH, CUresult (*)(void *dstHost, CUdeviceptr srcDevice,
	      size_t ByteCount));
	ENTRY(cuMemcpyDtoD, CUresult (*)(CUdeviceptr dstDevice,
	      CUdeviceptr srcDevice, size_t ByteCount));
	ENTRY(cuMemcpyAsync, CUresult (*)(CUdeviceptr dst, CUdeviceptr src,
	      size_t ByteCount, CUstream hStream));
	ENTRY(cuMemcpyPeerAsync, CUresult (*)(CUdeviceptr dstDevice,
	      CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext,
	      size_t ByteCount, CUstream hStream));
	ENTRY(cuMemcpyHtoDAsync, CUresult (*)(CUdeviceptr dstDevice,
	      const void *srcHost, size_t ByteCount, CUstream hStream));
	ENTRY(cuMemcpyDtoHAsync, CUresult (*)(void *dstHost, CUdeviceptr srcDevice,
	      size_t ByteCount, CUstream hStream));
	ENTRY(cuMemcpyDtoDAsync, CUresult (*)(CUdeviceptr dstDevice,
	      CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream));
	ENTRY(cuMemsetD8, CUresult (*)(CUdeviceptr dstDevice, unsigned char uc,
	      size_t N));
	ENTRY(cuMemsetD16, CUresult (*)(CUdeviceptr dstDevice, unsigned short us,
	      size_t N));
	ENTRY(cuMemsetD32, CUresult (*)(CUdeviceptr dstDevice, unsigned int ui,
	      size_t N));
	ENTRY(cuMemsetD8Async, CUresult (*)(CUdeviceptr dstDevice, unsigned char uc,
	      size_t N, CUstream hStream));
	ENTRY(cuMemsetD16Async, CUresult (*)(CUdeviceptr dstDevice,
	      unsigned short us, size_t N, CUstream hStream));
	ENTRY(cuMemsetD32Async, CUresult (*)(CUdeviceptr dstDevice, unsigned int ui,
	      size_t N, CUstream hStream));
	ENTRY(cuPointerGetAttribute, CUresult (*)(void *data,
	      CUpointer_attribute attribute, CUdeviceptr ptr));
	ENTRY(cuPointerGetAttributes, CUresult (*)(unsigned int numAttributes,
	      CUpointer_attribute *attributes, void **data, CUdeviceptr ptr));
	ENTRY(cuPointerSetAttribute, CUresult (*)(const void *value,
	      CUpointer_attribute attribute, CUdeviceptr ptr));
	ENTRY(cuMemPrefetchAsync, CUresult (*)(CUdeviceptr devPtr, size_t count,
	      CUmemLocation location, unsigned int flags, CUstream hStream));
	ENTRY(cuMemAdvise, CUresult (*)(CUdeviceptr devPtr, size_t count,
	      CUmem_advise advice, CUmemLocation location));
	ENTRY(cuMemRangeGetAttribute, CUresult (*)(void *data, size_t dataSize,
	      CUmem_range_attribute attribute, CUdeviceptr devPtr, size_t count));
	ENTRY(cuMemRangeGetAttributes, CUresult (*)(void **data, size_t *dataSizes,
	      CUmem_range_attribute *attributes, size_t numAttributes,
	      CUdeviceptr devPtr, size_t count));
	ENTRY(cuMemAddressReserve, CUresult (*)(CUdeviceptr *ptr, size_t size,
	      size_t alignment, CUdeviceptr addr, unsigned long long flags));
	ENTRY(cuMemAddressFree, CUresult (*)(CUdeviceptr ptr, size_t size));
	ENTRY(cuMemCreate, CUresult (*)(CUmemGenericAllocationHandle *handle,
	      size_t size, const CUmemAllocationProp *prop, unsigned long long flags));
	ENTRY(cuMemRelease, CUresult (*)(CUmemGenericAllocationHandle handle));
	ENTRY(cuMemMap, CUresult (*)(CUdeviceptr ptr, size_t size, size_t offset,
	      CUmemGenericAllocationHandle handle, unsigned long long flags));
	ENTRY(cuMemMapArrayAsync, CUresult (*)(CUarrayMapInfo *mapInfoList,
	      unsigned int count, CUstream hStream));
	ENTRY(cuMemUnmap, CUresult (*)(CUdeviceptr ptr, size_t size));
	ENTRY(cuMemSetAccess, CUresult (*)(CUdeviceptr ptr, size_t size,
	      const CUmemAccessDesc *desc, size_t count));
	ENTRY(cuMemGetAccess, CUresult (*)(unsigned long long *flags,
	      const CUmemLocation *location, CUdeviceptr ptr));
	ENTRY(cuMemExportToShareableHandle, CUresult (*)(void *shareableHandle,
	      CUmemGenericAllocationHandle handle,
	      CUmemAllocationHandleType handleType, unsigned long long flags));
	ENTRY(cuMemImportFromShareableHandle,
	      CUresult (*)(CUmemGenericAllocationHandle *handle, void *osHandle,
	      CUmemAllocationHandleType shHandleType));
	ENTRY(cuMemGetAllocationGranularity, CUresult (*)(size_t *granularity,
	      const CUmemAllocationProp *prop,
	      CUmemAllocationGranularity_flags option));
	ENTRY(cuMemGetAllocationPropertiesFromHandle,
	      CUresult (*)(CUmemAllocationProp *prop,
	      CUmemGenericAllocationHandle handle));
	ENTRY(cuMemRetainAllocationHandle,
	      CUresult (*)(CUmemGenericAllocationHandle *handle, void *addr));
	ENTRY(cuMemFreeAsync, CUresult (*)(CUdeviceptr dptr, CUstream hStream));
	ENTRY(cuMemAllocAsync, CUresult (*)(CUdeviceptr *dptr, size_t bytesize,
	      CUstream hStream));
	ENTRY(cuMemAllocFromPoolAsync, CUresult (*)(CUdeviceptr *dptr,
	      size_t bytesize, CUmemoryPool pool, CUstream hStream));
	ENTRY(cuMemPoolTrimTo, CUresult (*)(CUmemoryPool pool, size_t minBytesToKeep));
	ENTRY(cuMemPoolSetAttribute, CUresult (*)(CUmemoryPool pool,
	      CUmemPool_attribute attr, void *value));
	ENTRY(cuMemPoolGetAttribute, CUresult (*)(CUmemoryPool pool,
	      CUmemPool_attribute attr, void *value));
	ENTRY(cuMemPoolSetAccess, CUresult (*)(CUmemoryPool pool,
	      const CUmemAccessDesc *map, size_t count));
	ENTRY(cuMemPoolGetAccess, CUresult (*)(CUmemAccess_flags *flags,
	      CUmemoryPool memPool, CUmemLocation *location));
	ENTRY(cuMemPoolCreate, CUresult (*)(CUmemoryPool *pool,
	      const CUmemPoolProps *poolProps));
	ENTRY(cuMemPoolDestroy, CUresult (*)(CUmemoryPool pool));
	ENTRY(cuMemPoolExportToShareableHandle, CUresult (*)(void *handle_out,
	      CUmemoryPool pool, CUmemAllocationHandleType handleType,
	      unsigned long long flags));
	ENTRY(cuMemPoolImportFromShareableHandle,
	      CUresult (*)(CUmemoryPool *pool_out, void *handle,
	      CUmemAllocationHandleType handleType, unsigned long long flags));
	ENTRY(cuMemPoolExportPointer,
	      CUresult (*)(CUmemPoolPtrExportData *shareData_out, CUdeviceptr ptr));
	ENTRY(cuMemPoolImportPointer, CUresult (*)(CUdeviceptr *ptr_out,
	      CUmemoryPool pool, CUmemPoolPtrExportData *shareData));
	ENTRY(cuGetProcAddress, CUresult (*)(const char *symbol, void **pfn,
	      int cudaVersion, cuuint64_t flags,
	      CUdriverProcAddressQueryResult *symbolStatus));
	ENTRY(cuTexObjectCreate, CUresult (*)(CUtexObject *pTexObject,
	      const CUDA_RESOURCE_DESC *pResDesc,
	      const CUDA_TEXTURE_DESC *pTexDesc,
	      const CUDA_RESOURCE_VIEW_DESC *pResViewDesc));
	ENTRY(cuTexObjectDestroy, CUresult (*)(CUtexObject texObject));
	ENTRY(cuTexObjectGetResourceDesc, CUresult (*)(
	      CUDA_RESOURCE_DESC *pResDesc, CUtexObject texObject));
	ENTRY(cuTexObjectGetTextureDesc, CUresult (*)(
	      CUDA_TEXTURE_DESC *pTexDesc, CUtexObject texObject));
	ENTRY(cuTexObjectGetResourceViewDesc, CUresult (*)(
	      CUDA_RESOURCE_VIEW_DESC *pResViewDesc, CUtexObject texObject));
	ENTRY(cuSurfObjectCreate, CUresult (*)(CUsurfObject *pSurfObject,
	      const CUDA_RESOURCE_DESC *pResDesc));
	ENTRY(cuSurfObjectDestroy, CUresult (*)(CUsurfObject surfObject));
	ENTRY(cuSurfObjectGetResourceDesc, CUresult (*)(
	      CUDA_RESOURCE_DESC *pResDesc, CUsurfObject surfObject));
}

static void runtime_entries(void)
{
	ENTRY(cudaGetErrorName, const char *(*)(cudaError_t error));
	ENTRY(cudaGetErrorString, const char *(*)(cudaError_t error));
	ENTRY(cudaGetLastError, cudaError_t (*)(void));
	ENTRY(cudaPeekAtLastError, cudaError_t (*)(void));
	ENTRY(cudaDriverGetVersion, cudaError_t (*)(int *driverVersion));
	ENTRY(cudaRuntimeGetVersion, cudaError_t (*)(int *runtimeVersion));
	ENTRY(cudaGetDeviceCount, cudaError_t (*)(int *count));
	ENTRY(cudaSetDevice, cudaError_t (*)(int device));
	ENTRY(cudaGetDevice, cudaError_t (*)(int *device));
	ENTRY(cudaGetDeviceProperties, cudaError_t (*)(struct cudaDeviceProp *prop,
	      int device));
	ENTRY(cudaDeviceGetAttribute, cudaError_t (*)(int *value,
	      enum cudaDeviceAttr attr, int device));
	ENTRY(cudaDeviceSynchronize, cudaError_t (*)(void));
	ENTRY(cudaDeviceReset, cudaError_t (*)(void));
	ENTRY(cudaDeviceCanAccessPeer, cudaError_t (*)(int *canAccessPeer,
	      int device, int peerDevice));
	ENTRY(cudaDeviceEnablePeerAccess, cudaError_t (*)(int peerDevice,
	      unsigned int flags));
	ENTRY(cudaDeviceDisablePeerAccess, cudaError_t (*)(int peerDevice));
	ENTRY(cudaDeviceGetDefaultMemPool, cudaError_t (*)(cudaMemPool_t *memPool,
	      int device));
	ENTRY(cudaDeviceGetMemPool, cudaError_t (*)(cudaMemPool_t *memPool,
	      int device));
	ENTRY(cudaDeviceSetMemPool, cudaError_t (*)(int device,
	      cudaMemPool_t memPool));
	ENTRY(cudaStreamCreate, cudaError_t (*)(cudaStream_t *pStream));
	ENTRY(cudaStreamCreateWithFlags, cudaError_t (*)(cudaStream_t *pStream,
	      unsigned int flags));
	ENTRY(cudaStreamCreateWithPriority, cudaError_t (*)(cudaStream_t *pStream,
	      unsigned int flags, int priority));
	ENTRY(cudaStreamGetPriority, cudaError_t (*)(cudaStream_t hStream,
	      int *priority));
	ENTRY(cudaStreamGetFlags, cudaError_t (*)(cudaStream_t hStream,
	      unsigned int *flags));
	ENTRY(cudaStreamDestroy, cudaError_t (*)(cudaStream_t stream));
	ENTRY(cudaStreamWaitEvent, cudaError_t (*)(cudaStream_t stream,
	      cudaEvent_t event, unsigned int flags));
	ENTRY(cudaStreamAddCallback, cudaError_t (*)(cudaStream_t stream,
	      cudaStreamCallback_t callback, void *userData, unsigned int flags));
	ENTRY(cudaStreamSynchronize, cudaError_t (*)(cudaStream_t stream));
	ENTRY(cudaStreamQuery, cudaError_t (*)(cudaStream_t stream));
	ENTRY(cudaLaunchHostFunc, cudaError_t (*)(cudaStream_t stream,
	      cudaHostFn_t fn, void *userData));
	ENTRY(cudaEventCreate, cudaError_t (*)(cudaEvent_t *event));
	ENTRY(cudaEventCreateWithFlags, cudaError_t (*)(cudaEvent_t *event,
	      unsigned int flags));
	ENTRY(cudaEventRecord, cudaError_t (*)(cudaEvent_t event,
	      cudaStream_t stream));
	ENTRY(cudaEventQuery, cudaError_t (*)(cudaEvent_t event));
	ENTRY(cudaEventSynchronize, cudaError_t (*)(cudaEvent_t event));
	ENTRY(cudaEventDestroy, cudaError_t (*)(cudaEvent_t event));
	ENTRY(cudaEventElapsedTime, cudaError_t (*)(float *ms, cudaEvent_t start,
	      cudaEvent_t end));
	ENTRY(cudaMalloc, cudaError_t (*)(void **devPtr, size_t size));
	ENTRY(cudaMallocHost, cudaError_t (*)(void **ptr, size_t size));
	ENTRY(cudaMallocPitch, cudaError_t (*)(void **devPtr, size_t *pitch,
	      size_t width, size_t height));
	ENTRY(cudaMallocManaged, cudaError_t (*)(void **devPtr, size_t size,
	      unsigned int flags));
	ENTRY(cudaFree, cudaError_t (*)(void *devPtr));
	ENTRY(cudaFreeHost, cudaError_t (*)(void *ptr));
	ENTRY(cudaHostAlloc, cudaError_t (*)(void **pHost, size_t size,
	      unsigned int flags));
	ENTRY(cudaHostRegister, cudaError_t (*)(void *ptr, size_t size,
	      unsigned int flags));
	ENTRY(cudaHostUnregister, cudaError_t (*)(void *ptr));
	ENTRY(cudaHostGetDevicePointer, cudaError_t (*)(void **pDevice, void *pHost,
	      unsigned int flags));
	ENTRY(cudaHostGetFlags, cudaError_t (*)(unsigned int *pFlags, void *pHost));
	ENTRY(cudaMemGetInfo, cudaError_t (*)(size_t *freeBytes, size_t *totalBytes));
	ENTRY(cudaMemcpy, cudaError_t (*)(void *dst, const void *src, size_t count,
	      enum cudaMemcpyKind kind));
	ENTRY(cudaMemcpyPeer, cudaError_t (*)(void *dst, int dstDevice,
	      const void *src, int srcDevice, size_t count));
	ENTRY(cudaMemcpyAsync, cudaError_t (*)(void *dst, const void *src,
	      size_t count, enum cudaMemcpyKind kind, cudaStream_t stream));
	ENTRY(cudaMemcpyPeerAsync, cudaError_t (*)(void *dst, int dstDevice,
	      const void *src, int srcDevice, size_t count, cudaStream_t stream));
	ENTRY(cudaMemset, cudaError_t (*)(void *devPtr, int value, size_t count));
	ENTRY(cudaMemsetAsync, cudaError_t (*)(void *devPtr, int value, size_t count,
	      cudaStream_t stream));
	ENTRY(cudaMemPrefetchAsync, cudaError_t (*)(const void *devPtr, size_t count,
	      struct cudaMemLocation location, unsigned int flags,
	      cudaStream_t stream));
	ENTRY(cudaMemAdvise, cudaError_t (*)(const void *devPtr, size_t count,
	      enum cudaMemoryAdvise advice, struct cudaMemLocation location));
	ENTRY(cudaMemRangeGetAttribute, cudaError_t (*)(void *data, size_t dataSize,
	      enum cudaMemRangeAttribute attribute, const void *devPtr, size_t count));
	ENTRY(cudaMemRangeGetAttributes, cudaError_t (*)(void **data,
	      size_t *dataSizes, enum cudaMemRangeAttribute *attributes,
	      size_t numAttributes, const void *devPtr, size_t count));
	ENTRY(cudaPointerGetAttributes,
	      cudaError_t (*)(struct cudaPointerAttributes *attributes,
	      const void *ptr));
	ENTRY(cudaMallocAsync, cudaError_t (*)(void **devPtr, size_t size,
	      cudaStream_t hStream));
	ENTRY(cudaFreeAsync, cudaError_t (*)(void *devPtr, cudaStream_t hStream));
	ENTRY(cudaMallocFromPoolAsync, cudaError_t (*)(void **ptr, size_t size,
	      cudaMemPool_t memPool, cudaStream_t stream));
	ENTRY(cudaMemPoolTrimTo, cudaError_t (*)(cudaMemPool_t memPool,
	      size_t minBytesToKeep));
	ENTRY(cudaMemPoolSetAttribute, cudaError_t (*)(cudaMemPool_t memPool,
	      enum cudaMemPoolAttr attr, void *value));
	ENTRY(cudaMemPoolGetAttribute, cudaError_t (*)(cudaMemPool_t memPool,
	      enum cudaMemPoolAttr attr, void *value));
	ENTRY(cudaMemPoolSetAccess, cudaError_t (*)(cudaMemPool_t memPool,
	      const struct cudaMemAccessDesc *descList, size_t count));
	ENTRY(cudaMemPoolGetAccess, cudaError_t (*)(enum cudaMemAccessFlags *flags,
	      cudaMemPool_t memPool, struct cudaMemLocation *location));
	ENTRY(cudaMemPoolCreate, cudaError_t (*)(cudaMemPool_t *memPool,
	      const struct cudaMemPoolProps *poolProps));
	ENTRY(cudaMemPoolDestroy, cudaError_t (*)(cudaMemPool_t memPool));
	ENTRY(cudaMemPoolExportToShareableHandle,
	      cudaError_t (*)(void *shareableHandle, cudaMemPool_t memPool,
	      enum cudaMemAllocationHandleType handleType, unsigned int flags));
	ENTRY(cudaMemPoolImportFromShareableHandle,
	      cudaError_t (*)(cudaMemPool_t *memPool, void *shareableHandle,
	      enum cudaMemAllocationHandleType handleType, unsigned int flags));
	ENTRY(cudaMemPoolExportPointer,
	      cudaError_t (*)(struct cudaMemPoolPtrExportData *exportData, void *ptr));
	ENTRY(cudaMemPoolImportPointer, cudaError_t (*)(void **ptr,
	      cudaMemPool_t memPool, struct cudaMemPoolPtrExportData *exportData));
	ENTRY(cudaGetDriverEntryPointByVersion, cudaError_t (*)(const char *symbol,
	      void **funcPtr, unsigned int cudaVersion, unsigned long long flags,
	      enum cudaDriverEntryPointQueryResult *driverStatus));
	ENTRY(cudaCreateTextureObject, cudaError_t (*)(
	      cudaTextureObject_t *pTexObject,
	      const struct cudaResourceDesc *pResDesc,
	      const struct cudaTextureDesc *pTexDesc,
	      const struct cudaResourceViewDesc *pResViewDesc));
	ENTRY(cudaDestroyTextureObject,
	      cudaError_t (*)(cudaTextureObject_t texObject));
	ENTRY(cudaGetTextureObjectResourceDesc, cudaError_t (*)(
	      struct cudaResourceDesc *pResDesc, cudaTextureObject_t texObject));
	ENTRY(cudaGetTextureObjectTextureDesc, cudaError_t (*)(
	      struct cudaTextureDesc *pTexDesc, cudaTextureObject_t texObject));
	ENTRY(cudaGetTextureObjectResourceViewDesc, cudaError_t (*)(
	      struct cudaResourceViewDesc *pResViewDesc,
	      cudaTextureObject_t texObject));
	ENTRY(cudaCreateSurfaceObject, cudaError_t (*)(
	      cudaSurfaceObject_t *pSurfObject,
	      const struct cudaResourceDesc *pResDesc));
	ENTRY(cudaDestroySurfaceObject,
	      cudaError_t (*)(cudaSurfaceObject_t surfObject));
	ENTRY(cudaGetSurfaceObjectResourceDesc, cudaError_t (*)(
	      struct cudaResourceDesc *pResDesc, cudaSurfaceObject_t surfObject));
}

/* The rest of the toolkit's header set (builtin_types.h and what it
 * includes, library_types.h, the profiler headers): the guard macros that
 * programs test, the vector types' layouts, and the device, limit and
 * profiler types and entries that programs use around their memory work. */
static void header_set(void)
{
#ifdef __cuda_cuda_h__
	fact("__cuda_cuda_h__ is defined");
#else
	fact("__cuda_cuda_h__ is not defined");
#endif
#ifdef __CUDA_RUNTIME_H__
	fact("__CUDA_RUNTIME_H__ is defined");
#else
	fact("__CUDA_RUNTIME_H__ is not defined");
#endif
#ifdef __CUDA_RUNTIME_API_H__
	fact("__CUDA_RUNTIME_API_H__ is defined");
#else
	fact("__CUDA_RUNTIME_API_H__ is not defined");
#endif
#ifdef __DRIVER_TYPES_H__
	fact("__DRIVER_TYPES_H__ is defined");
#else
	fact("__DRIVER_TYPES_H__ is not defined");
#endif
#ifdef __VECTOR_TYPES_H__
	fact("__VECTOR_TYPES_H__ is defined");
#else
	fact("__VECTOR_TYPES_H__ is not defined");
#endif
#ifdef __LIBRARY_TYPES_H__
	fact("__LIBRARY_TYPES_H__ is defined");
#else
	fact("__LIBRARY_TYPES_H__ is not defined");
#endif
#ifdef __DEVICE_TYPES_H__
	fact("__DEVICE_TYPES_H__ is defined");
#else
	fact("__DEVICE_TYPES_H__ is not defined");
#endif
#ifdef __CUDA_PROFILER_API_H__
	fact("__CUDA_PROFILER_API_H__ is defined");
#else
	fact("__CUDA_PROFILER_API_H__ is not defined");
#endif
#ifdef cuda_profiler_H
	fact("cuda_profiler_H is defined");
#else
	fact("cuda_profiler_H is not defined");
#endif
#ifdef CU_UUID_HAS_BEEN_DEFINED
	fact("CU_UUID_HAS_BEEN_DEFINED is defined");
#else
	fact("CU_UUID_HAS_BEEN_DEFINED is not defined");
#endif
	SIZE(char1);
	SIZE(char2);
	SIZE(char3);
	SIZE(char4);
	SIZE(uchar1);
	SIZE(uchar2);
	SIZE(uchar3);
	SIZE(uchar4);
	SIZE(short1);
	SIZE(short2);
	SIZE(short3);
	SIZE(short4);
	SIZE(ushort1);
	SIZE(ushort2);
	SIZE(ushort3);
	SIZE(ushort4);
	SIZE(int1);
	SIZE(int2);
	SIZE(int3);
	SIZE(int4);
	SIZE(uint1);
	SIZE(uint2);
	SIZE(uint3);
	SIZE(uint4);
	SIZE(long1);
	SIZE(long2);
	SIZE(long3);
	SIZE(long4_16a);
	SIZE(long4_32a);
	SIZE(ulong1);
	SIZE(ulong2);
	SIZE(ulong3);
	SIZE(ulong4_16a);
	SIZE(ulong4_32a);
	SIZE(float1);
	SIZE(float2);
	SIZE(float3);
	SIZE(float4);
	SIZE(longlong1);
	SIZE(longlong2);
	SIZE(longlong3);
	SIZE(longlong4_16a);
	SIZE(longlong4_32a);
	SIZE(ulonglong1);
	SIZE(ulonglong2);
	SIZE(ulonglong3);
	SIZE(ulonglong4_16a);
	SIZE(ulonglong4_32a);
	SIZE(double1);
	SIZE(double2);
	SIZE(double3);
	SIZE(double4_16a);
	SIZE(double4_32a);
	SIZE(dim3);
	OFFSET(dim3, z);
	SIZE(struct cudaPitchedPtr);
	OFFSET(struct cudaPitchedPtr, ysize);
	SIZE(struct cudaExtent);
	SIZE(struct cudaPos);
	SIZE(cudaIpcMemHandle_t);
	SIZE(cudaIpcEventHandle_t);
	VALUE(CUDA_IPC_HANDLE_SIZE);
	VALUE(cudaLimitStackSize);
	VALUE(cudaLimitPrintfFifoSize);
	VALUE(cudaLimitMallocHeapSize);
	VALUE(cudaLimitDevRuntimeSyncDepth);
	VALUE(cudaLimitDevRuntimePendingLaunchCount);
	VALUE(cudaLimitMaxL2FetchGranularity);
	VALUE(cudaLimitPersistingL2CacheSize);
	VALUE(cudaFuncCachePreferNone);
	VALUE(cudaFuncCachePreferShared);
	VALUE(cudaFuncCachePreferL1);
	VALUE(cudaFuncCachePreferEqual);
	VALUE(cudaSharedMemBankSizeDefault);
	VALUE(cudaSharedMemBankSizeFourByte);
	VALUE(cudaSharedMemBankSizeEightByte);
	VALUE(cudaComputeModeDefault);
	VALUE(cudaComputeModeExclusive);
	VALUE(cudaComputeModeProhibited);
	VALUE(cudaComputeModeExclusiveProcess);
	VALUE(cudaDevP2PAttrPerformanceRank);
	VALUE(cudaDevP2PAttrAccessSupported);
	VALUE(cudaDevP2PAttrNativeAtomicSupported);
	VALUE(cudaDevP2PAttrCudaArrayAccessSupported);
	VALUE(cudaDevP2PAttrOnlyPartialNativeAtomicSupported);
	VALUE(cudaStreamCaptureStatusNone);
	VALUE(cudaStreamCaptureStatusActive);
	VALUE(cudaStreamCaptureStatusInvalidated);
	VALUE(cudaStreamCaptureModeGlobal);
	VALUE(cudaStreamCaptureModeThreadLocal);
	VALUE(cudaStreamCaptureModeRelaxed);
	VALUE(cudaRoundNearest);
	VALUE(cudaRoundZero);
	VALUE(cudaRoundPosInf);
	VALUE(cudaRoundMinInf);
	VALUE(CU_LIMIT_STACK_SIZE);
	VALUE(CU_LIMIT_PRINTF_FIFO_SIZE);
	VALUE(CU_LIMIT_MALLOC_HEAP_SIZE);
	VALUE(CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH);
	VALUE(CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT);
	VALUE(CU_LIMIT_MAX_L2_FETCH_GRANULARITY);
	VALUE(CU_LIMIT_PERSISTING_L2_CACHE_SIZE);
	VALUE(CU_LIMIT_SHMEM_SIZE);
	VALUE(CU_LIMIT_CIG_ENABLED);
	VALUE(CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED);
	VALUE(CU_LIMIT_MAX);
	VALUE(CU_FUNC_CACHE_PREFER_NONE);
	VALUE(CU_FUNC_CACHE_PREFER_SHARED);
	VALUE(CU_FUNC_CACHE_PREFER_L1);
	VALUE(CU_FUNC_CACHE_PREFER_EQUAL);
	VALUE(CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE);
	VALUE(CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE);
	VALUE(CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE);
	VALUE(CU_OUT_KEY_VALUE_PAIR);
	VALUE(CU_OUT_CSV);
	VALUE(CUDA_R_16F);
	VALUE(CUDA_C_16F);
	VALUE(CUDA_R_16BF);
	VALUE(CUDA_C_16BF);
	VALUE(CUDA_R_32F);
	VALUE(CUDA_C_32F);
	VALUE(CUDA_R_64F);
	VALUE(CUDA_C_64F);
	VALUE(CUDA_R_4I);
	VALUE(CUDA_C_4I);
	VALUE(CUDA_R_4U);
	VALUE(CUDA_C_4U);
	VALUE(CUDA_R_8I);
	VALUE(CUDA_C_8I);
	VALUE(CUDA_R_8U);
	VALUE(CUDA_C_8U);
	VALUE(CUDA_R_16I);
	VALUE(CUDA_C_16I);
	VALUE(CUDA_R_16U);
	VALUE(CUDA_C_16U);
	VALUE(CUDA_R_32I);
	VALUE(CUDA_C_32I);
	VALUE(CUDA_R_32U);
	VALUE(CUDA_C_32U);
	VALUE(CUDA_R_64I);
	VALUE(CUDA_C_64I);
	VALUE(CUDA_R_64U);
	VALUE(CUDA_C_64U);
	VALUE(CUDA_R_8F_E4M3);
	VALUE(CUDA_R_8F_UE4M3);
	VALUE(CUDA_R_8F_E5M2);
	VALUE(CUDA_R_8F_UE8M0);
	VALUE(CUDA_R_6F_E2M3);
	VALUE(CUDA_R_6F_E3M2);
	VALUE(CUDA_R_4F_E2M1);
	VALUE(MAJOR_VERSION);
	VALUE(MINOR_VERSION);
	VALUE(PATCH_LEVEL);
	SIZE(cudaDataType);
	SAME(cudaDataType_t, cudaDataType);
	SAME(libraryPropertyType_t, libraryPropertyType);
	SIZE(enum cudaLimit);
	SIZE(CUlimit);
	ENTRY(cudaDeviceGetP2PAttribute, cudaError_t (*)(int *, enum cudaDeviceP2PAttr, int, int));
	ENTRY(cudaDeviceGetPCIBusId, cudaError_t (*)(char *, int, int));
	ENTRY(cudaDeviceGetByPCIBusId, cudaError_t (*)(int *, const char *));
	ENTRY(cudaDeviceGetLimit, cudaError_t (*)(size_t *, enum cudaLimit));
	ENTRY(cudaDeviceSetLimit, cudaError_t (*)(enum cudaLimit, size_t));
	ENTRY(cudaDeviceGetCacheConfig, cudaError_t (*)(enum cudaFuncCache *));
	ENTRY(cudaDeviceSetCacheConfig, cudaError_t (*)(enum cudaFuncCache));
	ENTRY(cudaDeviceGetSharedMemConfig, cudaError_t (*)(enum cudaSharedMemConfig *));
	ENTRY(cudaDeviceSetSharedMemConfig, cudaError_t (*)(enum cudaSharedMemConfig));
	ENTRY(cudaDeviceGetStreamPriorityRange, cudaError_t (*)(int *, int *));
	ENTRY(cudaSetDeviceFlags, cudaError_t (*)(unsigned int));
	ENTRY(cudaGetDeviceFlags, cudaError_t (*)(unsigned int *));
	ENTRY(cudaGetDeviceProperties, cudaError_t (*)(struct cudaDeviceProp *, int));
	ENTRY(cudaProfilerStart, cudaError_t (*)(void));
	ENTRY(cudaProfilerStop, cudaError_t (*)(void));
	ENTRY(cuProfilerStart, CUresult (*)(void));
	ENTRY(cuProfilerStop, CUresult (*)(void));
	ENTRY(cuCtxGetLimit, CUresult (*)(size_t *, CUlimit));
	ENTRY(cuCtxSetLimit, CUresult (*)(CUlimit, size_t));
	ENTRY(cuCtxGetCacheConfig, CUresult (*)(CUfunc_cache *));
	ENTRY(cuCtxSetCacheConfig, CUresult (*)(CUfunc_cache));
	ENTRY(cuCtxGetSharedMemConfig, CUresult (*)(CUsharedconfig *));
	ENTRY(cuCtxSetSharedMemConfig, CUresult (*)(CUsharedconfig));
	ENTRY(cuDeviceGetPCIBusId, CUresult (*)(char *, int, CUdevice));
	ENTRY(cuDeviceGetByPCIBusId, CUresult (*)(CUdevice *, const char *));
}

/* 2D/3D copies, 2D memsets and CUDA arrays: layouts, values, entries. */
static void shape_facts(void)
{
	VALUE(CU_AD_FORMAT_UNSIGNED_INT8);
	VALUE(CU_AD_FORMAT_FLOAT);
	VALUE(CU_AD_FORMAT_BC7_UNORM_SRGB);
	VALUE(CU_AD_FORMAT_UNORM_INT_101010_2);
	VALUE(CU_AD_FORMAT_SNORM_INT16X4);
	VALUE(CU_AD_FORMAT_NV12);
	VALUE(CUDA_ARRAY3D_LAYERED);
	VALUE(CUDA_ARRAY3D_CUBEMAP);
	VALUE(CUDA_ARRAY3D_DEFERRED_MAPPING);
	VALUE(CUDA_ARRAY3D_VIDEO_ENCODE_DECODE);
	VALUE(CU_ARRAY_SPARSE_PROPERTIES_SINGLE_MIPTAIL);
	VALUE(cudaArrayLayered);
	VALUE(cudaArrayDeferredMapping);
	VALUE(cudaChannelFormatKindUnsignedNormalized1010102);
	VALUE(cudaChannelFormatKindSignedBlockCompressed6H);
	SIZE(CUDA_MEMCPY2D);
	OFFSET(CUDA_MEMCPY2D, srcMemoryType);
	OFFSET(CUDA_MEMCPY2D, srcArray);
	OFFSET(CUDA_MEMCPY2D, dstXInBytes);
	OFFSET(CUDA_MEMCPY2D, dstPitch);
	OFFSET(CUDA_MEMCPY2D, Height);
	SIZE(CUDA_MEMCPY3D);
	OFFSET(CUDA_MEMCPY3D, srcLOD);
	OFFSET(CUDA_MEMCPY3D, reserved0);
	OFFSET(CUDA_MEMCPY3D, srcHeight);
	OFFSET(CUDA_MEMCPY3D, dstZ);
	OFFSET(CUDA_MEMCPY3D, reserved1);
	OFFSET(CUDA_MEMCPY3D, Depth);
	SIZE(CUDA_MEMCPY3D_PEER);
	OFFSET(CUDA_MEMCPY3D_PEER, srcContext);
	OFFSET(CUDA_MEMCPY3D_PEER, dstContext);
	OFFSET(CUDA_MEMCPY3D_PEER, Depth);
	SIZE(CUDA_ARRAY_DESCRIPTOR);
	OFFSET(CUDA_ARRAY_DESCRIPTOR, Format);
	OFFSET(CUDA_ARRAY_DESCRIPTOR, NumChannels);
	SIZE(CUDA_ARRAY3D_DESCRIPTOR);
	OFFSET(CUDA_ARRAY3D_DESCRIPTOR, Format);
	OFFSET(CUDA_ARRAY3D_DESCRIPTOR, Flags);
	SIZE(CUDA_ARRAY_SPARSE_PROPERTIES);
	OFFSET(CUDA_ARRAY_SPARSE_PROPERTIES, miptailSize);
	OFFSET(CUDA_ARRAY_SPARSE_PROPERTIES, flags);
	SIZE(CUDA_ARRAY_MEMORY_REQUIREMENTS);
	OFFSET(CUDA_ARRAY_MEMORY_REQUIREMENTS, alignment);
	SIZE(struct cudaChannelFormatDesc);
	OFFSET(struct cudaChannelFormatDesc, f);
	SIZE(struct cudaMemcpy3DParms);
	OFFSET(struct cudaMemcpy3DParms, srcPtr);
	OFFSET(struct cudaMemcpy3DParms, dstArray);
	OFFSET(struct cudaMemcpy3DParms, extent);
	OFFSET(struct cudaMemcpy3DParms, kind);
	SIZE(struct cudaMemcpy3DPeerParms);
	OFFSET(struct cudaMemcpy3DPeerParms, srcDevice);
	OFFSET(struct cudaMemcpy3DPeerParms, dstDevice);
	OFFSET(struct cudaMemcpy3DPeerParms, extent);
	SIZE(CUDA_MEMCPY3D_BATCH_OP);
	OFFSET(CUDA_MEMCPY3D_BATCH_OP, dst);
	OFFSET(CUDA_MEMCPY3D_BATCH_OP, extent);
	OFFSET(CUDA_MEMCPY3D_BATCH_OP, srcAccessOrder);
	OFFSET(CUDA_MEMCPY3D_BATCH_OP, flags);
	SIZE(CUmemcpy3DOperand);
	OFFSET(CUmemcpy3DOperand, op.ptr.locHint);
	OFFSET(CUmemcpy3DOperand, op.array.offset);
	SIZE(struct cudaMemcpy3DBatchOp);
	OFFSET(struct cudaMemcpy3DBatchOp, dst);
	OFFSET(struct cudaMemcpy3DBatchOp, srcAccessOrder);
	OFFSET(struct cudaMemcpy3DOperand, op.ptr.locHint);
	ENTRY(cuMemcpy3DBatchAsync, CUresult (*)(size_t numOps,
		CUDA_MEMCPY3D_BATCH_OP *opList, unsigned long long flags,
		CUstream hStream));
	ENTRY(cudaMemcpy3DBatchAsync, cudaError_t (*)(size_t numOps,
		struct cudaMemcpy3DBatchOp *opList, unsigned long long flags,
		cudaStream_t stream));
	SIZE(struct cudaArraySparseProperties);
	SIZE(struct cudaArrayMemoryRequirements);
	ENTRY(cuMemcpy2D, CUresult (*)(const CUDA_MEMCPY2D *pCopy));
	ENTRY(cuMemcpy2DUnaligned, CUresult (*)(const CUDA_MEMCPY2D *pCopy));
	ENTRY(cuMemcpy3D, CUresult (*)(const CUDA_MEMCPY3D *pCopy));
	ENTRY(cuMemcpy3DPeerAsync, CUresult (*)(const CUDA_MEMCPY3D_PEER *pCopy,
						CUstream hStream));
	ENTRY(cuMemsetD2D32Async, CUresult (*)(CUdeviceptr dstDevice,
		size_t dstPitch, unsigned int ui, size_t Width, size_t Height,
		CUstream hStream));
	ENTRY(cuArrayCreate, CUresult (*)(CUarray *pHandle,
		const CUDA_ARRAY_DESCRIPTOR *pAllocateArray));
	ENTRY(cuArray3DGetDescriptor, CUresult (*)(
		CUDA_ARRAY3D_DESCRIPTOR *pArrayDescriptor, CUarray hArray));
	ENTRY(cuMemcpyAtoA, CUresult (*)(CUarray dstArray, size_t dstOffset,
		CUarray srcArray, size_t srcOffset, size_t ByteCount));
	ENTRY(cuMemcpyHtoAAsync, CUresult (*)(CUarray dstArray,
		size_t dstOffset, const void *srcHost, size_t ByteCount,
		CUstream hStream));
	ENTRY(cudaMallocArray, cudaError_t (*)(cudaArray_t *array,
		const struct cudaChannelFormatDesc *desc, size_t width,
		size_t height, unsigned int flags));
	ENTRY(cudaMemcpy3D, cudaError_t (*)(const struct cudaMemcpy3DParms *p));
	ENTRY(cudaMemcpy2DFromArrayAsync, cudaError_t (*)(void *dst,
		size_t dpitch, cudaArray_const_t src, size_t wOffset,
		size_t hOffset, size_t width, size_t height,
		enum cudaMemcpyKind kind, cudaStream_t stream));
	ENTRY(cudaArrayGetInfo, cudaError_t (*)(struct cudaChannelFormatDesc *desc,
		struct cudaExtent *extent, unsigned int *flags,
		cudaArray_t array));
}

int main(void)
{
	versions();
	driver_enums();
	driver_macros();
	runtime_enums();
	runtime_macros();
	scalar_types();
	driver_structs();
	runtime_structs();
	driver_entries();
	runtime_entries();
	header_set();
	shape_facts();
	printf("1..%d\n", facts);
	return 0;
}
#else /* HC_SUPERSEDED */

#undef cuDeviceTotalMem
#undef cuDeviceGetUuid
#undef cuDevicePrimaryCtxRelease
#undef cuDevicePrimaryCtxReset
#undef cuDevicePrimaryCtxSetFlags
#undef cuCtxCreate
#undef cuCtxDestroy
#undef cuCtxPushCurrent
#undef cuCtxPopCurrent
#undef cuStreamDestroy
#undef cuEventDestroy
#undef cuEventElapsedTime
#undef cuMemGetInfo
#undef cuMemAlloc
#undef cuMemAllocPitch
#undef cuMemFree
#undef cuMemGetAddressRange
#undef cuMemAllocHost
#undef cuMemHostGetDevicePointer
#undef cuMemHostRegister
#undef cuMemcpyHtoD
#undef cuMemcpyDtoH
#undef cuMemcpyDtoD
#undef cuMemcpyHtoDAsync
#undef cuMemcpyDtoHAsync
#undef cuMemcpyDtoDAsync
#undef cuMemsetD8
#undef cuMemsetD16
#undef cuMemsetD32
#undef cuMemAdvise
#undef cuMemPrefetchAsync

static void superseded_entries(void)
{
	ENTRY(cuDeviceTotalMem, CUresult (*)(unsigned int *bytes, CUdevice dev));
	ENTRY(cuDeviceGetUuid, CUresult (*)(CUuuid *uuid, CUdevice dev));
	ENTRY(cuDevicePrimaryCtxRelease, CUresult (*)(CUdevice dev));
	ENTRY(cuDevicePrimaryCtxReset, CUresult (*)(CUdevice dev));
	ENTRY(cuDevicePrimaryCtxSetFlags, CUresult (*)(CUdevice dev,
	      unsigned int flags));
	ENTRY(cuCtxCreate, CUresult (*)(CUcontext *pctx, unsigned int flags,
	      CUdevice dev));
	ENTRY(cuCtxCreate_v2, CUresult (*)(CUcontext *pctx, unsigned int flags,
	      CUdevice dev));
	ENTRY(cuCtxCreate_v3, CUresult (*)(CUcontext *pctx,
	      CUexecAffinityParam *paramsArray, int numParams, unsigned int flags,
	      CUdevice dev));
	ENTRY(cuCtxDestroy, CUresult (*)(CUcontext ctx));
	ENTRY(cuCtxPushCurrent, CUresult (*)(CUcontext ctx));
	ENTRY(cuCtxPopCurrent, CUresult (*)(CUcontext *pctx));
	ENTRY(cuStreamDestroy, CUresult (*)(CUstream hStream));
	ENTRY(cuEventDestroy, CUresult (*)(CUevent hEvent));
	ENTRY(cuEventElapsedTime, CUresult (*)(float *pMilliseconds, CUevent hStart,
	      CUevent hEnd));
	ENTRY(cuMemGetInfo, CUresult (*)(unsigned int *freeBytes,
	      unsigned int *totalBytes));
	ENTRY(cuMemAlloc, CUresult (*)(CUdeviceptr_v1 *dptr, unsigned int bytesize));
	ENTRY(cuMemAllocPitch, CUresult (*)(CUdeviceptr_v1 *dptr,
	      unsigned int *pPitch, unsigned int WidthInBytes, unsigned int Height,
	      unsigned int ElementSizeBytes));
	ENTRY(cuMemFree, CUresult (*)(CUdeviceptr_v1 dptr));
	ENTRY(cuMemGetAddressRange, CUresult (*)(CUdeviceptr_v1 *pbase,
	      unsigned int *psize, CUdeviceptr_v1 dptr));
	ENTRY(cuMemAllocHost, CUresult (*)(void **pp, unsigned int bytesize));
	ENTRY(cuMemHostGetDevicePointer, CUresult (*)(CUdeviceptr_v1 *pdptr, void *p,
	      unsigned int Flags));
	ENTRY(cuMemHostRegister, CUresult (*)(void *p, size_t bytesize,
	      unsigned int Flags));
	ENTRY(cuMemcpyHtoD, CUresult (*)(CUdeviceptr_v1 dstDevice,
	      const void *srcHost, unsigned int ByteCount));
	ENTRY(cuMemcpyDtoH, CUresult (*)(void *dstHost, CUdeviceptr_v1 srcDevice,
	      unsigned int ByteCount));
	ENTRY(cuMemcpyDtoD, CUresult (*)(CUdeviceptr_v1 dstDevice,
	      CUdeviceptr_v1 srcDevice, unsigned int ByteCount));
	ENTRY(cuMemcpyHtoDAsync, CUresult (*)(CUdeviceptr_v1 dstDevice,
	      const void *srcHost, unsigned int ByteCount, CUstream hStream));
	ENTRY(cuMemcpyDtoHAsync, CUresult (*)(void *dstHost,
	      CUdeviceptr_v1 srcDevice, unsigned int ByteCount, CUstream hStream));
	ENTRY(cuMemcpyDtoDAsync, CUresult (*)(CUdeviceptr_v1 dstDevice,
	      CUdeviceptr_v1 srcDevice, unsigned int ByteCount, CUstream hStream));
	ENTRY(cuMemsetD8, CUresult (*)(CUdeviceptr_v1 dstDevice, unsigned char uc,
	      unsigned int N));
	ENTRY(cuMemsetD16, CUresult (*)(CUdeviceptr_v1 dstDevice, unsigned short us,
	      unsigned int N));
	ENTRY(cuMemsetD32, CUresult (*)(CUdeviceptr_v1 dstDevice, unsigned int ui,
	      unsigned int N));
	ENTRY(cuMemPrefetchAsync, CUresult (*)(CUdeviceptr devPtr, size_t count,
	      CUdevice dstDevice, CUstream hStream));
	ENTRY(cuMemAdvise, CUresult (*)(CUdeviceptr devPtr, size_t count,
	      CUmem_advise advice, CUdevice device));
}

int main(void)
{
	superseded_entries();
	printf("1..%d\n", facts);
	return 0;
}
#endif /* HC_SUPERSEDED */
