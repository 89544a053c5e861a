/*
 * topology.c - the machine's shape: the built-in default (four GPUs fitted
 * to the measured H200s of ../shared/reference, copies at the rates of
 * probes/results/streamops.txt), the tables a topology owns, sized from
 * its counts, and the UUIDs a machine gives its GPUs. The parser of
 * topology files and the checker are topology_parse.c. Pure functions
 * over the struct they are given; no global state, no locks.
 */
#include "model/topology.h"

#include <ctype.h>
#include <math.h>
#include <numa.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
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

int cuemu_attr_by_name(const char *name)
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
	/* Fourteen GPUs to a PCI domain, 16 buses apart, from bus 0x18. */
	a[CU_DEVICE_ATTRIBUTE_PCI_BUS_ID] = 0x18 + 0x10 * (dev % 14);
	a[CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID] = dev / 14;
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
	/* deprecated, yet an H200 answers 1 and runs the launch
	 * (probes/results/kapi.txt) */
	a[CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH] = 1;
	a[CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN] = 232448;
	a[CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED] = 1;
	a[CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES] = 0;
	a[CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST] = 0;
	a[CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED] = 1;
	a[CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED] = 1;
	/* The device supports fabric handles; making one still needs an IMEX
	 * channel, which no emulated machine has: cuMemCreate answers
	 * NOT_PERMITTED, as the real one does without a channel
	 * (probes/results/edges.txt, fabric). */
	a[CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED] = 1;
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
	const int h = CUEMU_PROC_HOST;

	for (int i = 0; i < t->ndev; i++) {
		for (int j = 0; j < t->ndev; j++) {
			if (i == j)
				set_link(cuemu_topo_link(t, i, j), 3, 1850, 2000);
			else
				set_link(cuemu_topo_link(t, i, j), 1, 117, 3000);
		}
		set_link(cuemu_topo_link(t, h, i), 2, 47.5, 5000);
		set_link(cuemu_topo_link(t, i, h), 2, 12.5, 5000);
	}
	set_link(cuemu_topo_link(t, h, h), 3, 10, 1000);
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
	/* Bytes copied, counted once: 0.95, 15.1, 259, 1803 GB/s (2091).
	 * The GPU runs it as a kernel, whose call (uvm.copy_kernel_call_ns,
	 * 3.5 us) bounded those copies queued back to back; the device's
	 * own time a copy, 100 queued behind a kernel, is 1.7 to 2.0 us from
	 * 4 KiB to 1 MiB (probes/results/copyone.txt). */
	set_rate(&c[CUEMU_RATE_DEVICE], 1650, 2540);
	/* cuMemsetD8: 2.38, 18.7, 280, 3635 GB/s (4372). A 4 KiB memset takes
	 * 1.7 us and a 64 KiB one 3.5 us: up to 4 KiB a copy engine's (a call
	 * of 0.8 us), past it a kernel whose call (3.0 to 3.8 us) bounded the
	 * memsets queued back to back; the device's own time, 1.8 to 2.0 us
	 * from 64 KiB to 1 MiB (copyone.txt), with the rate fitted to 64 KiB
	 * to 32 MiB. */
	set_rate(&c[CUEMU_RATE_MEMSET], 1750, 5810);
	/* up to 4 KiB: 1.4 us each of 100 queued behind a kernel or the
	 * last of two, 1.5 queued back to back (its call, 0.8 us:
	 * uvm.memset_short_call_ns) */
	c[CUEMU_RATE_MEMSET].small_bytes = 4096;
	c[CUEMU_RATE_MEMSET].small_lat_ns = 1400;
}

/* The host's NUMA nodes (libnuma), one without it. */
static int host_nodes(void)
{
	int n = numa_available() < 0 ? 1 : numa_max_node() + 1;

	return n < 1 ? 1 : n > CUEMU_NUMA_LIMIT ? CUEMU_NUMA_LIMIT : n;
}

/* Node n's size: the host's node of that number where it has one, else
 * (a machine of more nodes than the host) the host's node 0. */
static uint64_t default_node_size(int n)
{
	long long sz;

	if (numa_available() < 0)
		return 0;
	if (n > numa_max_node())
		n = 0;
	sz = numa_node_size64(n, NULL);
	return sz > 0 ? (uint64_t)sz : 0;
}

static void default_device(struct cuemu_topology *t, int d)
{
	struct cuemu_device_info *dev = &t->dev[d];

	snprintf(dev->name, sizeof dev->name, "NVIDIA H200");
	dev->total = 141 * GIB;
	dev->numa_node = d % (t->nnuma ? t->nnuma : 1);
	/* The UUID is the machine's (cuemu_topology_stamp), unless given. */
	memset(dev->uuid, 0, sizeof dev->uuid);
	dev->uuid_given = 0;
	h200_attrs(dev->attrs, d, dev->numa_node);
	/* Hopper's SM: four schedulers, each issuing one warp instruction a
	 * clock (NVIDIA H100 Tensor Core GPU Architecture whitepaper). */
	dev->warp_issue = 4;
}

void cuemu_topology_free(struct cuemu_topology *t)
{
	free(t->dev);
	free(t->numa_total);
	free(t->link);
	t->dev = NULL;
	t->numa_total = NULL;
	t->link = NULL;
	t->ndev = 0;
	t->nnuma = 0;
}

int cuemu_topology_size(struct cuemu_topology *t, int ndev, int nnuma)
{
	size_t p = (size_t)ndev + 1;

	cuemu_topology_free(t);
	if (ndev < 1 || ndev > CUEMU_MAX_DEVICES || nnuma < 0 ||
	    nnuma > CUEMU_NUMA_LIMIT)
		return -1;
	t->dev = calloc((size_t)ndev, sizeof *t->dev);
	t->numa_total = calloc(nnuma ? (size_t)nnuma : 1, sizeof(uint64_t));
	t->link = calloc(p * p, sizeof *t->link);
	if (!t->dev || !t->numa_total || !t->link) {
		cuemu_topology_free(t);
		return -1;
	}
	t->ndev = ndev;
	t->nnuma = nnuma;
	/* One look at each of the host's nodes: a node past them (a machine
	 * of more nodes than the host) has node 0's size. */
	for (int n = 0; n < nnuma; n++)
		t->numa_total[n] = n < host_nodes() || n == 0 ?
				   default_node_size(n) : t->numa_total[0];
	for (int d = 0; d < ndev; d++)
		default_device(t, d);
	default_links(t);
	return 0;
}

int cuemu_topology_default(struct cuemu_topology *t)
{
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "default: 4 x H200");
	if (cuemu_topology_size(t, 4, host_nodes()) < 0)
		return -1;
	/* gpu_fault_ns: what a fault that maps memory remotely costs where
	 * no kernel model charges it (a copy's access). A CPU touch of a GPU
	 * page costs 0.56 us a 4 KiB page beyond its transfer: 0.89 us a page
	 * at 12.5 GB/s, the mean of 1.03 (shared reference) and 0.82
	 * (probes/results/faults.txt, cpu_touch_4k_from_gpu). */
	t->gpu_fault_ns = 470;
	t->cpu_fault_ns = 560;
	default_copies(t);
	cuemu_uvm_default(&t->uvm);
	return 0;
}

/* FNV-1a over n bytes, from h. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ c[i]) * 0x100000001b3ULL;
	return h;
}

void cuemu_topology_stamp(struct cuemu_topology *t, const char *machine)
{
	for (int d = 0; d < t->ndev; d++) {
		struct cuemu_device_info *dev = &t->dev[d];
		uint64_t h[2];

		if (dev->uuid_given)
			continue;
		for (int k = 0; k < 2; k++) {
			h[k] = fnv(0xcbf29ce484222325ULL ^ (uint64_t)(k + 1),
				   machine, strlen(machine));
			h[k] = fnv(h[k], &d, sizeof d);
			h[k] = fnv(h[k], &k, sizeof k);
		}
		memcpy(dev->uuid, h, sizeof dev->uuid);
		/* The shape of a random (version 4) UUID, as GPUs' look. */
		dev->uuid[6] = (uint8_t)((dev->uuid[6] & 0x0f) | 0x40);
		dev->uuid[8] = (uint8_t)((dev->uuid[8] & 0x3f) | 0x80);
	}
}


/* ---------------------------------------------------------------- shipped */

const char *cuemu_topology_dir(void)
{
	const char *d = getenv("CUEMU_TOPOLOGY_DIR");

	return d && *d ? d : CUEMU_TOPOLOGY_DATADIR;
}

int cuemu_topology_find(const char *name, char *file, size_t len)
{
	struct stat st;

	if (strchr(name, '/') || stat(name, &st) == 0) {
		snprintf(file, len, "%s", name);
		return 0;
	}
	for (const char *c = name; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_' &&
		    *c != '.')
			return -1;
	if ((size_t)snprintf(file, len, "%s/%s.json", cuemu_topology_dir(),
			     name) >= len || stat(file, &st) != 0)
		return -1;
	return 0;
}

/* ---------------------------------------------------------------- paradigms */

const char *cuemu_paradigm_name(int paradigm)
{
	static const char *const n[] = {
		[CUEMU_SOFTWARE_COHERENT] = "software-coherent",
		[CUEMU_HMM] = "hmm",
		[CUEMU_HARDWARE_COHERENT] = "hardware-coherent",
	};

	return paradigm >= 0 && paradigm <= CUEMU_HARDWARE_COHERENT ?
	       n[paradigm] : NULL;
}

void cuemu_topology_paradigm(struct cuemu_topology *t)
{
	bool hmm = t->paradigm != CUEMU_SOFTWARE_COHERENT;
	bool hw = t->paradigm == CUEMU_HARDWARE_COHERENT;

	for (int d = 0; d < t->ndev; d++) {
		int *a = t->dev[d].attrs;

		/* The Guide's table of the paradigms: pageable memory is
		 * the GPU's to access with HMM or hardware coherence; only
		 * the latter goes through the host's page tables, lets the
		 * CPU reach managed memory on the GPU directly and has
		 * native host atomics. */
		a[CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS] = hmm;
		a[CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES] = hw;
		a[CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST] = hw;
		a[CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED] = hw;
		a[CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS] = 1;
	}
	/* Access-counter migration is on where the GPUs reach host memory
	 * through ATS (the driver's default there), off elsewhere; a
	 * topology's "uvm" block, parsed after, may say otherwise. */
	t->uvm.access_counters = hw;
}

/* x scaled by a host link's share of the measured one, within the uvm
 * block's bounds. */
static double host_share(double x, double gbps)
{
	double g = x * gbps / UVM_MEASURED_HOST_GBPS;

	return g < 0.001 ? 0.001 : g > 1e6 ? 1e6 : g;
}

void cuemu_topology_remote_host(struct cuemu_topology *t)
{
	const struct cuemu_link *l;

	if (t->ndev < 1)
		return;
	/* A kernel's remote stream of host memory keeps the measured share
	 * of the host link (42.1 of 47.5 GB/s over the H200's PCIe): 399
	 * GB/s over a 450 GB/s C2C; so do its rates each way and of read
	 * requests (not measured on any other link). The first GPU's link
	 * stands for all; a topology's "uvm" block, parsed after, may say
	 * otherwise (the bounds are the uvm block's). */
	l = cuemu_topo_link(t, CUEMU_PROC_HOST, 0);
	if (!(l->gbps > 0))
		return;
	t->uvm.remote_host_gbps = host_share(UVM_REMOTE_HOST_GBPS, l->gbps);
	t->uvm.remote_host_read_gbps =
		host_share(UVM_REMOTE_HOST_READ_GBPS, l->gbps);
	t->uvm.remote_host_write_gbps =
		host_share(UVM_REMOTE_HOST_WRITE_GBPS, l->gbps);
	t->uvm.remote_host_read_mrps =
		host_share(UVM_REMOTE_HOST_READ_MRPS, l->gbps);
}
