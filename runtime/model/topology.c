/*
 * topology.c - the machine's shape: the built-in default (four GPUs fitted
 * to the measured H200s of ../shared/reference, copies at the rates of
 * probes/results/streamops.txt) and the parser of topology files (JSON,
 * jansson; format in man/cuemu-topology.5). Every rejection names the
 * file, the field and the reason. Pure functions over the struct they are
 * given; no global state, no locks.
 */
#include "model/topology.h"

#include <math.h>
#include <stddef.h>
#include <numa.h>
#include <stdio.h>
#include <string.h>

/* Device attribute numbers and the names a topology file uses for them. */
static const struct { int attr; const char *name; } attr_names[] = {
	{ 1, "max_threads_per_block" },
	{ 2, "max_block_dim_x" },
	{ 3, "max_block_dim_y" },
	{ 4, "max_block_dim_z" },
	{ 5, "max_grid_dim_x" },
	{ 6, "max_grid_dim_y" },
	{ 7, "max_grid_dim_z" },
	{ 8, "shared_memory_per_block" },
	{ 9, "total_constant_memory" },
	{ 10, "warp_size" },
	{ 11, "max_pitch" },
	{ 12, "registers_per_block" },
	{ 13, "clock_rate" },
	{ 14, "texture_alignment" },
	{ 15, "gpu_overlap" },
	{ 16, "multiprocessor_count" },
	{ 17, "kernel_exec_timeout" },
	{ 18, "integrated" },
	{ 19, "can_map_host_memory" },
	{ 20, "compute_mode" },
	{ 21, "maximum_texture1d_width" },
	{ 22, "maximum_texture2d_width" },
	{ 23, "maximum_texture2d_height" },
	{ 24, "maximum_texture3d_width" },
	{ 25, "maximum_texture3d_height" },
	{ 26, "maximum_texture3d_depth" },
	{ 27, "maximum_texture2d_layered_width" },
	{ 28, "maximum_texture2d_layered_height" },
	{ 29, "maximum_texture2d_layered_layers" },
	{ 30, "surface_alignment" },
	{ 31, "concurrent_kernels" },
	{ 32, "ecc_enabled" },
	{ 33, "pci_bus_id" },
	{ 34, "pci_device_id" },
	{ 35, "tcc_driver" },
	{ 36, "memory_clock_rate" },
	{ 37, "global_memory_bus_width" },
	{ 38, "l2_cache_size" },
	{ 39, "max_threads_per_multiprocessor" },
	{ 40, "async_engine_count" },
	{ 41, "unified_addressing" },
	{ 42, "maximum_texture1d_layered_width" },
	{ 43, "maximum_texture1d_layered_layers" },
	{ 44, "can_tex2d_gather" },
	{ 45, "maximum_texture2d_gather_width" },
	{ 46, "maximum_texture2d_gather_height" },
	{ 47, "maximum_texture3d_width_alternate" },
	{ 48, "maximum_texture3d_height_alternate" },
	{ 49, "maximum_texture3d_depth_alternate" },
	{ 50, "pci_domain_id" },
	{ 51, "texture_pitch_alignment" },
	{ 52, "maximum_texturecubemap_width" },
	{ 53, "maximum_texturecubemap_layered_width" },
	{ 54, "maximum_texturecubemap_layered_layers" },
	{ 55, "maximum_surface1d_width" },
	{ 56, "maximum_surface2d_width" },
	{ 57, "maximum_surface2d_height" },
	{ 58, "maximum_surface3d_width" },
	{ 59, "maximum_surface3d_height" },
	{ 60, "maximum_surface3d_depth" },
	{ 61, "maximum_surface1d_layered_width" },
	{ 62, "maximum_surface1d_layered_layers" },
	{ 63, "maximum_surface2d_layered_width" },
	{ 64, "maximum_surface2d_layered_height" },
	{ 65, "maximum_surface2d_layered_layers" },
	{ 66, "maximum_surfacecubemap_width" },
	{ 67, "maximum_surfacecubemap_layered_width" },
	{ 68, "maximum_surfacecubemap_layered_layers" },
	{ 69, "maximum_texture1d_linear_width" },
	{ 70, "maximum_texture2d_linear_width" },
	{ 71, "maximum_texture2d_linear_height" },
	{ 72, "maximum_texture2d_linear_pitch" },
	{ 73, "maximum_texture2d_mipmapped_width" },
	{ 74, "maximum_texture2d_mipmapped_height" },
	{ 75, "compute_capability_major" },
	{ 76, "compute_capability_minor" },
	{ 77, "maximum_texture1d_mipmapped_width" },
	{ 78, "stream_priorities_supported" },
	{ 79, "global_l1_cache_supported" },
	{ 80, "local_l1_cache_supported" },
	{ 81, "max_shared_memory_per_multiprocessor" },
	{ 82, "max_registers_per_multiprocessor" },
	{ 83, "managed_memory" },
	{ 84, "multi_gpu_board" },
	{ 85, "multi_gpu_board_group_id" },
	{ 86, "host_native_atomic_supported" },
	{ 87, "single_to_double_precision_perf_ratio" },
	{ 88, "pageable_memory_access" },
	{ 89, "concurrent_managed_access" },
	{ 90, "compute_preemption_supported" },
	{ 91, "can_use_host_pointer_for_registered_mem" },
	{ 92, "can_use_stream_mem_ops_v1" },
	{ 93, "can_use_64_bit_stream_mem_ops_v1" },
	{ 94, "can_use_stream_wait_value_nor_v1" },
	{ 95, "cooperative_launch" },
	{ 96, "cooperative_multi_device_launch" },
	{ 97, "max_shared_memory_per_block_optin" },
	{ 98, "can_flush_remote_writes" },
	{ 99, "host_register_supported" },
	{ 100, "pageable_memory_access_uses_host_page_tables" },
	{ 101, "direct_managed_mem_access_from_host" },
	{ 102, "virtual_memory_management_supported" },
	{ 103, "handle_type_posix_file_descriptor_supported" },
	{ 104, "handle_type_win32_handle_supported" },
	{ 105, "handle_type_win32_kmt_handle_supported" },
	{ 106, "max_blocks_per_multiprocessor" },
	{ 107, "generic_compression_supported" },
	{ 108, "max_persisting_l2_cache_size" },
	{ 109, "max_access_policy_window_size" },
	{ 110, "gpu_direct_rdma_with_cuda_vmm_supported" },
	{ 111, "reserved_shared_memory_per_block" },
	{ 112, "sparse_cuda_array_supported" },
	{ 113, "read_only_host_register_supported" },
	{ 114, "timeline_semaphore_interop_supported" },
	{ 115, "memory_pools_supported" },
	{ 116, "gpu_direct_rdma_supported" },
	{ 117, "gpu_direct_rdma_flush_writes_options" },
	{ 118, "gpu_direct_rdma_writes_ordering" },
	{ 119, "mempool_supported_handle_types" },
	{ 120, "cluster_launch" },
	{ 121, "deferred_mapping_cuda_array_supported" },
	{ 122, "can_use_64_bit_stream_mem_ops" },
	{ 123, "can_use_stream_wait_value_nor" },
	{ 124, "dma_buf_supported" },
	{ 125, "ipc_event_supported" },
	{ 126, "mem_sync_domain_count" },
	{ 127, "tensor_map_access_supported" },
	{ 128, "handle_type_fabric_supported" },
	{ 129, "unified_function_pointers" },
	{ 130, "numa_config" },
	{ 131, "numa_id" },
	{ 132, "multicast_supported" },
	{ 133, "mps_enabled" },
	{ 134, "host_numa_id" },
	{ 135, "d3d12_cig_supported" },
	{ 136, "mem_decompress_algorithm_mask" },
	{ 137, "mem_decompress_maximum_length" },
	{ 138, "vulkan_cig_supported" },
	{ 139, "gpu_pci_device_id" },
	{ 140, "gpu_pci_subsystem_id" },
	{ 141, "host_numa_virtual_memory_management_supported" },
	{ 142, "host_numa_memory_pools_supported" },
	{ 143, "host_numa_multinode_ipc_supported" },
	{ 144, "host_memory_pools_supported" },
	{ 145, "host_virtual_memory_management_supported" },
	{ 146, "host_alloc_dma_buf_supported" },
	{ 147, "only_partial_host_native_atomic_supported" },
};

const char *cuemu_attr_name(int attr)
{
	for (size_t i = 0; i < sizeof attr_names / sizeof attr_names[0]; i++)
		if (attr_names[i].attr == attr)
			return attr_names[i].name;
	return NULL;
}

static int attr_by_name(const char *name)
{
	for (size_t i = 0; i < sizeof attr_names / sizeof attr_names[0]; i++)
		if (!strcmp(attr_names[i].name, name))
			return attr_names[i].attr;
	return -1;
}

#define GIB (1ULL << 30)

/* The texture and surface limits of compute capability 9.0, as NVIDIA's
 * tables give them and deviceQuery prints them on an H100/H200: what
 * cudaGetDeviceProperties fills in its maxTexture* and maxSurface*. */
static void h200_texture_attrs(int *a)
{
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH] = 131072;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH] = 131072;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT] = 65536;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH] = 16384;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT] = 16384;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH] = 16384;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH] = 32768;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT] = 32768;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS] = 2048;
	a[CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT] = 512;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH] = 32768;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS] = 2048;
	a[CU_DEVICE_ATTRIBUTE_CAN_TEX2D_GATHER] = 1;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH] = 32768;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT] = 32768;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE] = 8192;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE] = 8192;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE] = 32768;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH] = 32768;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH] = 32768;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS] = 2046;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH] = 32768;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH] = 131072;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT] = 65536;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH] = 16384;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT] = 16384;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH] = 16384;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH] = 32768;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS] = 2048;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH] = 32768;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT] = 32768;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS] = 2048;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH] = 32768;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH] = 32768;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS] = 2046;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH] = 268435456;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH] = 131072;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT] = 65000;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH] = 2097120;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH] = 32768;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT] = 32768;
	a[CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH] = 32768;
}

/* Attribute values of the reference H200 (real-driver-managed-pinned.txt)
 * and the usual Hopper figures for the rest; every named attribute has a
 * value, so cuDeviceGetAttribute answers for all of them as the driver does. */
static void h200_attrs(int *a, int dev, int numa)
{
	for (int i = 0; i < 160; i++)
		a[i] = CUEMU_ATTR_UNKNOWN;
	for (size_t i = 0; i < sizeof attr_names / sizeof attr_names[0]; i++)
		a[attr_names[i].attr] = 0;
	a[CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK] = 1024;
	a[CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X] = 1024;
	a[CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y] = 1024;
	a[CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z] = 64;
	a[CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X] = 2147483647;
	a[CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y] = 65535;
	a[CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z] = 65535;
	a[CU_DEVICE_ATTRIBUTE_SHARED_MEMORY_PER_BLOCK] = 49152;
	a[CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY] = 65536;
	a[CU_DEVICE_ATTRIBUTE_WARP_SIZE] = 32;
	a[CU_DEVICE_ATTRIBUTE_MAX_PITCH] = 2147483647;
	a[CU_DEVICE_ATTRIBUTE_REGISTERS_PER_BLOCK] = 65536;
	a[CU_DEVICE_ATTRIBUTE_CLOCK_RATE] = 1980000;
	a[CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT] = 512;
	a[CU_DEVICE_ATTRIBUTE_GPU_OVERLAP] = 1;
	a[CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT] = 132;
	a[CU_DEVICE_ATTRIBUTE_INTEGRATED] = 0;
	a[CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY] = 1;
	a[CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS] = 1;
	a[CU_DEVICE_ATTRIBUTE_ECC_ENABLED] = 1;
	a[CU_DEVICE_ATTRIBUTE_PCI_BUS_ID] = 0x18 + 0x10 * dev;
	a[CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE] = 3201000;
	a[CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH] = 6016;
	a[CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE] = 62914560;
	a[CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR] = 2048;
	a[CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT] = 3;
	a[CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING] = 1;
	a[CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT] = 32;
	a[CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR] = 9;
	a[CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR] = 0;
	a[CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED] = 1;
	a[CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED] = 1;
	a[CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED] = 1;
	a[CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR] = 233472;
	a[CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR] = 65536;
	a[CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY] = 1;
	a[CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED] = 0;
	a[CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO] = 2;
	a[CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS] = 0;
	a[CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS] = 1;
	a[CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED] = 1;
	a[CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM] = 1;
	a[CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH] = 1;
	a[CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN] = 232448;
	a[CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED] = 1;
	a[CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES] = 0;
	a[CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST] = 0;
	a[CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED] = 1;
	a[CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED] = 1;
	a[CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR] = 32;
	a[CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED] = 1;
	a[CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE] = 82837504;
	a[CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE] = 134213632;
	a[CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED] = 1;
	a[CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK] = 1024;
	a[CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED] = 0;
	a[CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED] = 1;
	a[CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED] = 1;
	a[CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED] = 1;
	a[CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED] = 1;
	a[CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES] = 9;
	a[CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH] = 1;
	a[CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED] = 1;
	a[CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED] = 1;
	a[CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED] = 1;
	a[CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT] = 4;
	a[CU_DEVICE_ATTRIBUTE_TENSOR_MAP_ACCESS_SUPPORTED] = 1;
	a[CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS] = 1;
	a[CU_DEVICE_ATTRIBUTE_NUMA_CONFIG] = 0;
	a[CU_DEVICE_ATTRIBUTE_NUMA_ID] = -1;
	a[CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED] = 1;
	a[CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID] = numa;
	a[CU_DEVICE_ATTRIBUTE_HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED] = 1;
	a[CU_DEVICE_ATTRIBUTE_HOST_NUMA_MEMORY_POOLS_SUPPORTED] = 1;
	a[CU_DEVICE_ATTRIBUTE_HOST_MEMORY_POOLS_SUPPORTED] = 1;
	a[CU_DEVICE_ATTRIBUTE_HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED] = 1;
	a[CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID] = dev;
	a[CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS] = 1;
	a[CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING] = 100;
	/* The H200's PCI ids: NVIDIA (0x10de), device 0x2335. */
	a[CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID] = 0x233510de;
	a[CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID] = 0x18b010de;
	h200_texture_attrs(a);
}

static void set_link(struct cuemu_link *l, int kind, double gbps, uint64_t lat)
{
	l->kind = kind;
	l->gbps = gbps;
	l->lat_ns = lat;
}

/* Link figures fitted to real-driver-migration.txt: prefetch host to device
 * 47.5 GB/s, device to host about 12.5 GB/s, device to device over NVLink
 * 117 GB/s, a resident GPU stream about 1850 GB/s. Latencies are the
 * per-call overheads of the measured cuMemPrefetchAsync/cuMemcpy. */
static void default_links(struct cuemu_topology *t)
{
	memset(t->link, 0, sizeof t->link);
	for (int i = 0; i < t->ndev; i++) {
		for (int j = 0; j < t->ndev; j++) {
			if (i == j)
				set_link(&t->link[i][j], 3, 1850, 2000);
			else
				set_link(&t->link[i][j], 1, 117, 3000);
		}
		set_link(&t->link[CUEMU_PROC_HOST][i], 2, 47.5, 5000);
		set_link(&t->link[i][CUEMU_PROC_HOST], 2, 12.5, 5000);
	}
	set_link(&t->link[CUEMU_PROC_HOST][CUEMU_PROC_HOST], 3, 10, 1000);
}

static void set_rate(struct cuemu_rate *r, uint64_t lat, double gbps)
{
	*r = (struct cuemu_rate){ .gbps = gbps, .lat_ns = lat };
}

/* The copy engines' rates, fitted to one H200 (driver 580.159, CUDA 13.0;
 * probes/streamops.c, raw output in probes/results/streamops.txt): CUDA
 * events around 100 back-to-back copies on the legacy stream at 4 KiB,
 * 64 KiB, 1 MiB and 32 MiB, and the wall clock of one synchronous pageable
 * copy for the host's own time. Each pair (latency, bandwidth) is the one
 * whose worst ratio of model to real time over those four sizes is
 * smallest. The real figures at 256 MiB check the fit; only pageable host
 * to device falls away there (7.9 GB/s by events, 6.7 by the wall clock,
 * against 13.8 and 12.8 at 32 MiB), and the model keeps the smaller sizes'
 * rate. */
static void default_copies(struct cuemu_topology *t)
{
	struct cuemu_rate *c = t->copy;

	/* 1.53, 16.6, 48.3, 55.2 GB/s (55.1 at 256 MiB). */
	set_rate(&c[CUEMU_RATE_PINNED_HTOD], 2660, 54.2);
	/* 2.35, 23.3, 51.1, 55.2 GB/s (55.2). */
	set_rate(&c[CUEMU_RATE_PINNED_DTOH], 1660, 55.8);
	/* Events: 1.51, 9.02, 16.2, 13.8 GB/s; wall: 0.60, 4.49, 12.1, 12.8. */
	set_rate(&c[CUEMU_RATE_PAGEABLE_HTOD], 2290, 15.2);
	set_rate(&c[CUEMU_RATE_PAGEABLE_HTOD_HOST], 7340, 11.6);
	/* Events: 0.54, 4.29, 8.98, 11.7 GB/s; wall: 0.53, 3.93, 8.99, 11.6. */
	set_rate(&c[CUEMU_RATE_PAGEABLE_DTOH], 7800, 10.6);
	set_rate(&c[CUEMU_RATE_PAGEABLE_DTOH_HOST], 8350, 10.3);
	/* Bytes copied, counted once: 0.95, 15.1, 259, 1803 GB/s (2091). */
	set_rate(&c[CUEMU_RATE_DEVICE], 3980, 2540);
	/* cuMemsetD8: 2.38, 18.7, 280, 3635 GB/s (4372). A 4 KiB memset takes
	 * 1.7 us and a 64 KiB one 3.5 us, which no one latency fits: 4 KiB,
	 * the largest size seen on the short path, bounds it (the threshold
	 * between 4 and 64 KiB was not measured); the rest is fitted to
	 * 64 KiB to 32 MiB. */
	set_rate(&c[CUEMU_RATE_MEMSET], 3530, 5810);
	c[CUEMU_RATE_MEMSET].small_bytes = 4096;
	c[CUEMU_RATE_MEMSET].small_lat_ns = 1720;
}

static void host_numa(struct cuemu_topology *t)
{
	t->nnuma = 1;
	t->numa_total[0] = 0;
	if (numa_available() < 0)
		return;
	t->nnuma = numa_max_node() + 1;
	if (t->nnuma > CUEMU_MAX_NUMA)
		t->nnuma = CUEMU_MAX_NUMA;
	for (int n = 0; n < t->nnuma; n++) {
		long long sz = numa_node_size64(n, NULL);
		t->numa_total[n] = sz > 0 ? (uint64_t)sz : 0;
	}
}

static void default_device(struct cuemu_topology *t, int d)
{
	struct cuemu_device_info *dev = &t->dev[d];

	snprintf(dev->name, sizeof dev->name, "NVIDIA H200");
	dev->total = 141 * GIB;
	dev->numa_node = d % (t->nnuma ? t->nnuma : 1);
	for (int i = 0; i < 16; i++)
		dev->uuid[i] = (uint8_t)(0x5a ^ (d * 16 + i) * 37);
	h200_attrs(dev->attrs, d, dev->numa_node);
}

void cuemu_topology_default(struct cuemu_topology *t)
{
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "default: 4 x H200");
	host_numa(t);
	t->ndev = 4;
	for (int d = 0; d < t->ndev; d++)
		default_device(t, d);
	default_links(t);
	/* gpu_fault_ns: what a fault that maps memory remotely costs where
	 * no kernel model charges it (a copy's access). A CPU touch of a GPU
	 * page costs 0.56 us a 4 KiB page beyond its transfer: 0.89 us a page
	 * at 12.5 GB/s, the mean of 1.03 (shared reference) and 0.82
	 * (probes/results/faults.txt, cpu_touch_4k_from_gpu). */
	t->gpu_fault_ns = 470;
	t->cpu_fault_ns = 560;
	default_copies(t);
	cuemu_uvm_default(&t->uvm);
}

/* ---------------------------------------------------------------- parser */

struct parse {
	const char *path;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 3, 4)))
static int reject(struct parse *p, const char *field, const char *fmt, ...)
{
	char why[192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	snprintf(p->err, p->errlen, "%s: %s: %s", p->path, field, why);
	return -1;
}

/* Allowed keys of an object: anything else is a typo worth refusing. */
static int only_keys(struct parse *p, json_t *o, const char *field,
		     const char *const *keys)
{
	const char *k;
	json_t *v;

	json_object_foreach(o, k, v) {
		int found = 0;
		for (const char *const *q = keys; *q; q++)
			found |= !strcmp(*q, k);
		if (!found)
			return reject(p, field, "unknown key '%s'", k);
	}
	return 0;
}

static int get_size(struct parse *p, json_t *v, const char *field, uint64_t *out)
{
	if (json_is_integer(v) && json_integer_value(v) > 0) {
		*out = (uint64_t)json_integer_value(v);
		return 0;
	}
	if (json_is_string(v) && cuemu_size_parse(json_string_value(v), out) == 0
	    && *out > 0)
		return 0;
	return reject(p, field, "not a size (bytes, or a string like \"141G\")");
}

static int get_number(struct parse *p, json_t *v, const char *field,
		      double lo, double hi, double *out)
{
	if (!json_is_number(v))
		return reject(p, field, "not a number");
	*out = json_number_value(v);
	if (*out < lo || *out > hi)
		return reject(p, field, "%g is out of range [%g, %g]", *out, lo, hi);
	return 0;
}

static int parse_attrs(struct parse *p, json_t *o, const char *field, int *attrs)
{
	const char *k;
	json_t *v;
	char f[160];

	if (!json_is_object(o))
		return reject(p, field, "not an object");
	json_object_foreach(o, k, v) {
		int a = attr_by_name(k);
		snprintf(f, sizeof f, "%s.%s", field, k);
		if (a < 0)
			return reject(p, f, "unknown device attribute");
		if (!json_is_integer(v) || json_integer_value(v) < INT32_MIN + 1 ||
		    json_integer_value(v) > INT32_MAX)
			return reject(p, f, "not a 32-bit integer");
		attrs[a] = (int)json_integer_value(v);
	}
	return 0;
}

static int parse_device(struct parse *p, struct cuemu_topology *t, int d, json_t *o)
{
	static const char *const keys[] = { "name", "memory", "numa_node",
					    "attributes", NULL };
	struct cuemu_device_info *dev = &t->dev[d];
	char f[64];
	json_t *v;

	snprintf(f, sizeof f, "devices[%d]", d);
	if (!json_is_object(o))
		return reject(p, f, "not an object");
	if (only_keys(p, o, f, keys) < 0)
		return -1;
	default_device(t, d);
	if ((v = json_object_get(o, "name"))) {
		if (!json_is_string(v) || json_string_length(v) == 0 ||
		    json_string_length(v) >= sizeof dev->name)
			return reject(p, f, "name must be a string of 1 to 63 bytes");
		snprintf(dev->name, sizeof dev->name, "%s", json_string_value(v));
	}
	if ((v = json_object_get(o, "memory"))) {
		snprintf(f, sizeof f, "devices[%d].memory", d);
		if (get_size(p, v, f, &dev->total) < 0)
			return -1;
	}
	if ((v = json_object_get(o, "numa_node"))) {
		snprintf(f, sizeof f, "devices[%d].numa_node", d);
		if (!json_is_integer(v) || json_integer_value(v) < -1 ||
		    json_integer_value(v) >= t->nnuma)
			return reject(p, f, "not a host NUMA node (-1 or 0..%d)",
				      t->nnuma - 1);
		dev->numa_node = (int)json_integer_value(v);
		dev->attrs[CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID] = dev->numa_node;
	}
	if ((v = json_object_get(o, "attributes"))) {
		snprintf(f, sizeof f, "devices[%d].attributes", d);
		if (parse_attrs(p, v, f, dev->attrs) < 0)
			return -1;
	}
	return 0;
}

static int parse_devices(struct parse *p, struct cuemu_topology *t, json_t *root)
{
	json_t *devs = json_object_get(root, "devices");
	json_t *count = json_object_get(root, "device_count");
	size_t n;

	if (!devs && !count)
		return 0;
	if (devs && !json_is_array(devs))
		return reject(p, "devices", "not an array");
	n = devs ? json_array_size(devs) : 0;
	if (count) {
		if (!json_is_integer(count) || json_integer_value(count) < 1 ||
		    json_integer_value(count) > CUEMU_MAX_DEVICES)
			return reject(p, "device_count", "must be 1..%d",
				      CUEMU_MAX_DEVICES);
		if (n > 1 && (size_t)json_integer_value(count) != n)
			return reject(p, "device_count",
				      "disagrees with the %zu devices listed", n);
		t->ndev = (int)json_integer_value(count);
	} else {
		if (n < 1 || n > CUEMU_MAX_DEVICES)
			return reject(p, "devices", "must list 1..%d devices",
				      CUEMU_MAX_DEVICES);
		t->ndev = (int)n;
	}
	for (int d = 0; d < t->ndev; d++) {
		json_t *o = n == 0 ? NULL : json_array_get(devs, n == 1 ? 0 : d);
		if (!o)
			default_device(t, d);
		else if (parse_device(p, t, d, o) < 0)
			return -1;
	}
	return 0;
}

static const char *const link_kinds[] = { "none", "nvlink", "pcie", "local", NULL };

static int parse_link(struct parse *p, json_t *o, const char *field,
		      struct cuemu_link *l)
{
	static const char *const keys[] = { "kind", "gbps", "latency_ns",
					    "from", "to", NULL };
	json_t *v;
	double x;
	char f[96];

	if (!json_is_object(o))
		return reject(p, field, "not an object");
	if (only_keys(p, o, field, keys) < 0)
		return -1;
	if ((v = json_object_get(o, "kind"))) {
		int k = -1;
		for (int i = 0; link_kinds[i]; i++)
			if (json_is_string(v) && !strcmp(json_string_value(v), link_kinds[i]))
				k = i;
		if (k < 0)
			return reject(p, field, "kind must be none, nvlink, pcie or local");
		l->kind = k;
	}
	if ((v = json_object_get(o, "gbps"))) {
		snprintf(f, sizeof f, "%s.gbps", field);
		if (get_number(p, v, f, 0.001, 1e6, &x) < 0)
			return -1;
		l->gbps = x;
	}
	if ((v = json_object_get(o, "latency_ns"))) {
		snprintf(f, sizeof f, "%s.latency_ns", field);
		if (get_number(p, v, f, 0, 1e10, &x) < 0)
			return -1;
		l->lat_ns = (uint64_t)x;
	}
	return 0;
}

/* "gpu3" or "cpu" to a processor index of this topology. */
static int proc_of(struct parse *p, struct cuemu_topology *t, json_t *v,
		   const char *field, int *out)
{
	CUmemLocation loc;
	int proc;

	if (!json_is_string(v) || cuemu_loc_parse(json_string_value(v), &loc) < 0)
		return reject(p, field, "not a processor (gpuN or cpu)");
	proc = cuemu_loc_proc(loc);
	if (loc.type == CU_MEM_LOCATION_TYPE_HOST)
		proc = CUEMU_PROC_HOST;
	else if (loc.type != CU_MEM_LOCATION_TYPE_DEVICE || proc < 0 ||
		 proc >= t->ndev)
		return reject(p, field, "no such processor '%s'", json_string_value(v));
	*out = proc;
	return 0;
}

static int parse_links(struct parse *p, struct cuemu_topology *t, json_t *root)
{
	static const char *const keys[] = { "gpu_gpu", "host_to_gpu", "gpu_to_host",
					    "gpu_local", "host_local", "pairs", NULL };
	json_t *links = json_object_get(root, "links"), *v;
	struct cuemu_link tmpl;
	size_t i;

	default_links(t);
	if (!links)
		return 0;
	if (!json_is_object(links))
		return reject(p, "links", "not an object");
	if (only_keys(p, links, "links", keys) < 0)
		return -1;
	for (int a = 0; a <= t->ndev; a++) {
		for (int b = 0; b <= t->ndev; b++) {
			int from = a == t->ndev ? CUEMU_PROC_HOST : a;
			int to = b == t->ndev ? CUEMU_PROC_HOST : b;
			const char *k = from == CUEMU_PROC_HOST ?
				(to == CUEMU_PROC_HOST ? "host_local" : "host_to_gpu") :
				(to == CUEMU_PROC_HOST ? "gpu_to_host" :
				 from == to ? "gpu_local" : "gpu_gpu");
			char f[64];
			if (!(v = json_object_get(links, k)))
				continue;
			snprintf(f, sizeof f, "links.%s", k);
			tmpl = t->link[from][to];
			if (parse_link(p, v, f, &tmpl) < 0)
				return -1;
			t->link[from][to] = tmpl;
		}
	}
	if (!(v = json_object_get(links, "pairs")))
		return 0;
	if (!json_is_array(v))
		return reject(p, "links.pairs", "not an array");
	for (i = 0; i < json_array_size(v); i++) {
		json_t *o = json_array_get(v, i);
		char f[64], ff[80];
		int from, to;

		snprintf(f, sizeof f, "links.pairs[%zu]", i);
		if (!json_is_object(o))
			return reject(p, f, "not an object");
		snprintf(ff, sizeof ff, "%s.from", f);
		if (proc_of(p, t, json_object_get(o, "from"), ff, &from) < 0)
			return -1;
		snprintf(ff, sizeof ff, "%s.to", f);
		if (proc_of(p, t, json_object_get(o, "to"), ff, &to) < 0)
			return -1;
		tmpl = t->link[from][to];
		if (parse_link(p, o, f, &tmpl) < 0)
			return -1;
		t->link[from][to] = tmpl;
	}
	return 0;
}

static int parse_faults(struct parse *p, struct cuemu_topology *t, json_t *root)
{
	static const char *const keys[] = { "gpu_fault_ns", "cpu_fault_ns", NULL };
	json_t *o = json_object_get(root, "faults"), *v;
	double x;

	if (!o)
		return 0;
	if (!json_is_object(o))
		return reject(p, "faults", "not an object");
	if (only_keys(p, o, "faults", keys) < 0)
		return -1;
	if ((v = json_object_get(o, "gpu_fault_ns"))) {
		if (get_number(p, v, "faults.gpu_fault_ns", 0, 1e9, &x) < 0)
			return -1;
		t->gpu_fault_ns = (uint64_t)x;
	}
	if ((v = json_object_get(o, "cpu_fault_ns"))) {
		if (get_number(p, v, "faults.cpu_fault_ns", 0, 1e9, &x) < 0)
			return -1;
		t->cpu_fault_ns = (uint64_t)x;
	}
	return 0;
}

/* ------------------------------------------------------------- uvm model */

/* The "uvm" keys: a number within [lo, hi] or a boolean (lo = hi = -1),
 * stored at off in struct cuemu_uvm as the type says. */
enum uvm_type { U_U32, U_U64, U_DBL, U_BOOL };
static const struct {
	const char *key;
	enum uvm_type type;
	size_t off;
	double lo, hi;
} uvm_keys[] = {
#define UK(k, f, t, lo, hi) { k, t, offsetof(struct cuemu_uvm, f), lo, hi }
	UK("fault_batch", batch_faults, U_U32, 1, 65536),
	UK("batch_ns", batch_ns, U_U64, 0, 1e9),
	UK("fault_ns", fault_ns, U_U64, 0, 1e9),
	UK("host_page_ns", host_page_ns, U_U64, 0, 1e9),
	UK("prefetch", prefetch, U_BOOL, -1, -1),
	UK("prefetch_threshold", prefetch_threshold, U_U32, 1, 100),
	UK("remote_host_gbps", remote_host_gbps, U_DBL, 0.001, 1e6),
	UK("read_mostly_write_ns", rm_upgrade_ns, U_U64, 0, 1e9),
	UK("read_mostly_migrate_ns", rm_migrate_ns, U_U64, 0, 1e9),
	UK("thrashing", thrash, U_BOOL, -1, -1),
	UK("thrash_threshold", thrash_threshold, U_U32, 1, 255),
	UK("thrash_lapse_ns", thrash_lapse_ns, U_U64, 1000, 1e10),
	UK("thrash_nap", thrash_nap, U_U32, 1, 100),
	UK("thrash_pin_threshold", thrash_pin_threshold, U_U32, 1, 255),
	UK("thrash_pin", thrash_pin, U_U32, 0, 1e6),
	UK("thrash_epoch", thrash_epoch, U_U32, 1, 1e6),
	UK("access_counters", access_counters, U_BOOL, -1, -1),
	UK("access_counter_granularity", ac_granularity, U_U64, 65536, 1UL << 30),
	UK("access_counter_threshold", ac_threshold, U_U32, 1, 65535),
#undef UK
};
#define NUVM_KEYS (sizeof uvm_keys / sizeof uvm_keys[0])

static int parse_uvm_key(struct parse *p, struct cuemu_uvm *u, size_t i,
			 json_t *v)
{
	char f[64];
	char *at = (char *)u + uvm_keys[i].off;
	double x;

	snprintf(f, sizeof f, "uvm.%s", uvm_keys[i].key);
	if (uvm_keys[i].type == U_BOOL) {
		if (!json_is_boolean(v))
			return reject(p, f, "not true or false");
		*(bool *)at = json_is_true(v);
		return 0;
	}
	if (get_number(p, v, f, uvm_keys[i].lo, uvm_keys[i].hi, &x) < 0)
		return -1;
	if (uvm_keys[i].type == U_U32)
		*(uint32_t *)at = (uint32_t)x;
	else if (uvm_keys[i].type == U_U64)
		*(uint64_t *)at = (uint64_t)x;
	else
		*(double *)at = x;
	return 0;
}

static int parse_uvm(struct parse *p, struct cuemu_topology *t, json_t *root)
{
	json_t *o = json_object_get(root, "uvm"), *v;
	const char *k;

	if (!o)
		return 0;
	if (!json_is_object(o))
		return reject(p, "uvm", "not an object");
	json_object_foreach(o, k, v) {
		size_t i;

		for (i = 0; i < NUVM_KEYS && strcmp(uvm_keys[i].key, k); i++)
			;
		if (i == NUVM_KEYS)
			return reject(p, "uvm", "unknown key '%s'", k);
		if (parse_uvm_key(p, &t->uvm, i, v) < 0)
			return -1;
	}
	if (t->uvm.ac_granularity & (t->uvm.ac_granularity - 1))
		return reject(p, "uvm.access_counter_granularity",
			      "not a power of two");
	return 0;
}

/* What a topology's uvm block must satisfy wherever it came from. */
static int check_uvm(struct parse *p, const struct cuemu_uvm *u)
{
	if (u->batch_faults < 1 || u->batch_faults > 65536)
		return reject(p, "uvm.fault_batch", "not in [1, 65536]");
	if (u->prefetch_threshold < 1 || u->prefetch_threshold > 100)
		return reject(p, "uvm.prefetch_threshold", "not in [1, 100]");
	if (!isfinite(u->remote_host_gbps) || u->remote_host_gbps < 0.001 ||
	    u->remote_host_gbps > 1e6)
		return reject(p, "uvm.remote_host_gbps", "not in [0.001, 1e6]");
	if (u->batch_ns > 1000000000ULL || u->fault_ns > 1000000000ULL ||
	    u->host_page_ns > 1000000000ULL || u->rm_upgrade_ns > 1000000000ULL ||
	    u->rm_migrate_ns > 1000000000ULL)
		return reject(p, "uvm", "a cost is over a second");
	if (u->thrash_threshold < 1 || u->thrash_threshold > 255 ||
	    u->thrash_pin_threshold < 1 || u->thrash_pin_threshold > 255 ||
	    u->thrash_nap < 1 || u->thrash_nap > 100 || u->thrash_epoch < 1 ||
	    u->thrash_epoch > 1000000 || u->thrash_pin > 1000000 ||
	    u->thrash_lapse_ns < 1000 || u->thrash_lapse_ns > 10000000000ULL)
		return reject(p, "uvm", "a thrashing setting is out of range");
	if (u->ac_granularity < 65536 || u->ac_granularity > (1UL << 30) ||
	    (u->ac_granularity & (u->ac_granularity - 1)) ||
	    u->ac_threshold < 1 || u->ac_threshold > 65535)
		return reject(p, "uvm", "an access counter setting is out of "
			      "range");
	return 0;
}

/* The "copies" keys, the rate each sets and, for a pageable copy, the rate
 * of the host's own time that its host_ keys set (-1: none). */
static const struct {
	const char *key;
	int rate, host;
} copy_keys[] = {
	{ "pinned_to_gpu", CUEMU_RATE_PINNED_HTOD, -1 },
	{ "gpu_to_pinned", CUEMU_RATE_PINNED_DTOH, -1 },
	{ "pageable_to_gpu", CUEMU_RATE_PAGEABLE_HTOD,
	  CUEMU_RATE_PAGEABLE_HTOD_HOST },
	{ "gpu_to_pageable", CUEMU_RATE_PAGEABLE_DTOH,
	  CUEMU_RATE_PAGEABLE_DTOH_HOST },
	{ "gpu_local", CUEMU_RATE_DEVICE, -1 },
	{ "memset", CUEMU_RATE_MEMSET, -1 },
};
#define NCOPY_KEYS (sizeof copy_keys / sizeof copy_keys[0])

/* o's key prefix + name into *out, a number within [lo, hi]; *out stays
 * as it is when the key is absent. */
static int rate_field(struct parse *p, json_t *o, const char *field,
		      const char *prefix, const char *name, double lo,
		      double hi, double *out)
{
	char k[32], f[96];
	json_t *v;

	snprintf(k, sizeof k, "%s%s", prefix, name);
	if (!(v = json_object_get(o, k)))
		return 0;
	snprintf(f, sizeof f, "%s.%s", field, k);
	return get_number(p, v, f, lo, hi, out);
}

/* A rate's bandwidth and latency: "gbps" and "latency_ns" after prefix. */
static int parse_rate(struct parse *p, json_t *o, const char *field,
		      const char *prefix, struct cuemu_rate *r)
{
	double gbps = r->gbps, lat = (double)r->lat_ns;

	if (rate_field(p, o, field, prefix, "gbps", 0.001, 1e6, &gbps) < 0 ||
	    rate_field(p, o, field, prefix, "latency_ns", 0, 1e9, &lat) < 0)
		return -1;
	r->gbps = gbps;
	r->lat_ns = (uint64_t)lat;
	return 0;
}

/* One "copies" entry: its rate, the short path, the host's own time. */
static int parse_copy(struct parse *p, struct cuemu_topology *t, size_t i,
		      json_t *o)
{
	static const char *const keys[] = { "gbps", "latency_ns",
		"small_bytes", "small_latency_ns", NULL };
	static const char *const host_keys[] = { "gbps", "latency_ns",
		"small_bytes", "small_latency_ns", "host_gbps",
		"host_latency_ns", NULL };
	struct cuemu_rate *r = &t->copy[copy_keys[i].rate];
	double small = (double)r->small_bytes, slat = (double)r->small_lat_ns;
	char f[64];

	snprintf(f, sizeof f, "copies.%s", copy_keys[i].key);
	if (!json_is_object(o))
		return reject(p, f, "not an object");
	if (only_keys(p, o, f, copy_keys[i].host < 0 ? keys : host_keys) < 0 ||
	    parse_rate(p, o, f, "", r) < 0 ||
	    rate_field(p, o, f, "", "small_bytes", 0, 1099511627776.0,
		       &small) < 0 ||
	    rate_field(p, o, f, "", "small_latency_ns", 0, 1e9, &slat) < 0)
		return -1;
	r->small_bytes = (uint64_t)small;
	r->small_lat_ns = (uint64_t)slat;
	if (copy_keys[i].host >= 0)
		return parse_rate(p, o, f, "host_", &t->copy[copy_keys[i].host]);
	return 0;
}

static int parse_copies(struct parse *p, struct cuemu_topology *t,
			json_t *root)
{
	json_t *o = json_object_get(root, "copies"), *v;
	const char *k;

	if (!o)
		return 0;
	if (!json_is_object(o))
		return reject(p, "copies", "not an object");
	json_object_foreach(o, k, v) {
		size_t i = 0;

		while (i < NCOPY_KEYS && strcmp(copy_keys[i].key, k))
			i++;
		if (i == NCOPY_KEYS)
			return reject(p, "copies", "unknown key '%s'", k);
		if (parse_copy(p, t, i, v) < 0)
			return -1;
	}
	return 0;
}

/* The one parser of a topology document, whichever way it was read:
 * root's fields over the built-in default. Consumes root. */
static int parse_root(struct parse *p, json_t *root, struct cuemu_topology *t)
{
	static const char *const keys[] = { "name", "devices", "device_count",
					    "links", "faults", "copies", "uvm",
					    NULL };
	json_t *v;
	int rc = -1;

	if (!json_is_object(root)) {
		reject(p, "(top)", "not a JSON object");
		goto out;
	}
	if (only_keys(p, root, "(top)", keys) < 0)
		goto out;
	if ((v = json_object_get(root, "name"))) {
		if (!json_is_string(v) || json_string_length(v) >= sizeof t->name) {
			reject(p, "name", "must be a string of at most 63 bytes");
			goto out;
		}
		snprintf(t->name, sizeof t->name, "%s", json_string_value(v));
	}
	if (parse_devices(p, t, root) < 0 || parse_links(p, t, root) < 0 ||
	    parse_faults(p, t, root) < 0 || parse_copies(p, t, root) < 0 ||
	    parse_uvm(p, t, root) < 0 ||
	    cuemu_topology_check(t, p->path, p->err, p->errlen) < 0)
		goto out;
	rc = 0;
out:
	json_decref(root);
	return rc;
}

int cuemu_topology_load(const char *path, struct cuemu_topology *t,
			char *err, size_t errlen)
{
	struct parse p = { path, err, errlen };
	json_error_t jerr;
	json_t *root;

	cuemu_topology_default(t);
	root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		snprintf(err, errlen, "%s: line %d column %d: %s", path, jerr.line,
			 jerr.column, jerr.text);
		return -1;
	}
	return parse_root(&p, root, t);
}

int cuemu_topology_parse(const char *buf, size_t len, const char *what,
			 struct cuemu_topology *t, char *err, size_t errlen)
{
	struct parse p = { what, err, errlen };
	json_error_t jerr;
	json_t *root;

	cuemu_topology_default(t);
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		snprintf(err, errlen, "%s: line %d column %d: %s", what, jerr.line,
			 jerr.column, jerr.text);
		return -1;
	}
	return parse_root(&p, root, t);
}

/* ---------------------------------------------------------------- checks */

/* A string of a fixed array is terminated inside it. */
static bool terminated(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

static int check_link(struct parse *p, const struct cuemu_link *l, int a,
		      int b)
{
	char f[64];

	snprintf(f, sizeof f, "links[%d][%d]", a, b);
	if (l->kind < 0 || l->kind > 3)
		return reject(p, f, "kind %d is not a link kind", l->kind);
	/* 0 (no link) or what the parser takes: a bandwidth near zero makes
	 * a copy's cost overflow. */
	if (!isfinite(l->gbps) || (l->gbps != 0 && l->gbps < 0.001) ||
	    l->gbps < 0 || l->gbps > 1e6)
		return reject(p, f, "bandwidth %g GB/s is not 0 or a number in "
			      "[0.001, 1e6]", l->gbps);
	if (l->lat_ns > 1000000000ULL)
		return reject(p, f, "latency %llu ns is over a second",
			      (unsigned long long)l->lat_ns);
	return 0;
}

/* A rate the cost functions can divide by and add up without overflow. */
static int check_rate(struct parse *p, const struct cuemu_rate *r, int kind)
{
	static const char *const names[CUEMU_RATE__COUNT] = {
		[CUEMU_RATE_PINNED_HTOD] = "copies.pinned_to_gpu",
		[CUEMU_RATE_PINNED_DTOH] = "copies.gpu_to_pinned",
		[CUEMU_RATE_PAGEABLE_HTOD] = "copies.pageable_to_gpu",
		[CUEMU_RATE_PAGEABLE_DTOH] = "copies.gpu_to_pageable",
		[CUEMU_RATE_PAGEABLE_HTOD_HOST] = "copies.pageable_to_gpu.host",
		[CUEMU_RATE_PAGEABLE_DTOH_HOST] = "copies.gpu_to_pageable.host",
		[CUEMU_RATE_DEVICE] = "copies.gpu_local",
		[CUEMU_RATE_MEMSET] = "copies.memset",
	};
	const char *f = names[kind];

	if (!isfinite(r->gbps) || r->gbps < 0.001 || r->gbps > 1e6)
		return reject(p, f, "bandwidth %g GB/s is not a number in "
			      "[0.001, 1e6]", r->gbps);
	if (r->lat_ns > 1000000000ULL || r->small_lat_ns > 1000000000ULL)
		return reject(p, f, "a latency is over a second");
	if (r->small_bytes > (1ULL << 40))
		return reject(p, f, "small_bytes %llu is over 1 TiB",
			      (unsigned long long)r->small_bytes);
	return 0;
}

static int check_device(struct parse *p, const struct cuemu_topology *t,
			int d)
{
	const struct cuemu_device_info *dev = &t->dev[d];
	char f[64];

	snprintf(f, sizeof f, "devices[%d].name", d);
	if (!terminated(dev->name, sizeof dev->name))
		return reject(p, f, "not terminated within %zu bytes",
			      sizeof dev->name);
	snprintf(f, sizeof f, "devices[%d].memory", d);
	if (dev->total == 0 || dev->total > (1ULL << 50))
		return reject(p, f, "%llu bytes is not in (0, 1 PiB]",
			      (unsigned long long)dev->total);
	snprintf(f, sizeof f, "devices[%d].numa_node", d);
	if (dev->numa_node < -1 || dev->numa_node >= CUEMU_MAX_NUMA)
		return reject(p, f, "%d is not -1 or a host node",
			      dev->numa_node);
	return 0;
}

int cuemu_topology_check(const struct cuemu_topology *t, const char *what,
			 char *err, size_t errlen)
{
	struct parse p = { what, err, errlen };

	if (!terminated(t->name, sizeof t->name))
		return reject(&p, "name", "not terminated within %zu bytes",
			      sizeof t->name);
	if (t->ndev < 1 || t->ndev > CUEMU_MAX_DEVICES)
		return reject(&p, "device_count", "%d is not in [1, %d]",
			      t->ndev, CUEMU_MAX_DEVICES);
	if (t->nnuma < 0 || t->nnuma > CUEMU_MAX_NUMA)
		return reject(&p, "numa_nodes", "%d is not in [0, %d]",
			      t->nnuma, CUEMU_MAX_NUMA);
	for (int d = 0; d < t->ndev; d++)
		if (check_device(&p, t, d) < 0)
			return -1;
	for (int a = 0; a < CUEMU_NPROC; a++)
		for (int b = 0; b < CUEMU_NPROC; b++)
			if (check_link(&p, &t->link[a][b], a, b) < 0)
				return -1;
	if (t->gpu_fault_ns > 1000000000ULL || t->cpu_fault_ns > 1000000000ULL)
		return reject(&p, "faults", "a fault service time is over a "
			      "second");
	for (int k = 0; k < CUEMU_RATE__COUNT; k++)
		if (check_rate(&p, &t->copy[k], k) < 0)
			return -1;
	if (check_uvm(&p, &t->uvm) < 0)
		return -1;
	return 0;
}
