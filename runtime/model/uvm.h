/*
 * uvm.h - the parameters of the timing model of managed memory, as the
 * topology sets them ("uvm" in cuemu-topology(5)), and the mechanisms that
 * use them: the residency decision (residency.c), the prefetch growth of a
 * fault (prefetch.c), the kernel model with its fault batches (kernel.c)
 * and thrashing (thrash.c). The shapes and defaults follow NVIDIA's UVM
 * driver; DESIGN.md ("The timing model") names the driver function each
 * one follows and the measurements each cost is fitted to.
 *
 * Locking: the parameters are read-only once the machine is attached.
 */
#ifndef CUEMU_UVM_H
#define CUEMU_UVM_H

#include <stdbool.h>
#include <stdint.h>

/* The driver's geometry: 4 KiB pages, 64 KiB big pages, 2 MiB blocks. */
#define UVM_PAGE (4UL << 10)
#define UVM_BIG_PAGE (64UL << 10)
#define UVM_BLOCK (2UL << 20)

struct cuemu_uvm {
	/* GPU fault service (uvm_gpu_replayable_faults.c) */
	uint32_t batch_faults;      /* fault entries fetched per batch */
	uint64_t batch_ns;          /* fixed cost of one batch */
	uint64_t fault_ns;          /* cost of one fault entry */
	uint64_t fault_wave_ns;     /* a wave of a kernel's faults: the
	                             * service woken by its interrupt */
	uint64_t host_page_ns;      /* unmapping a 4 KiB host page a GPU
	                             * fault migrates away */
	uint64_t peer_page_ns;      /* unmapping a 4 KiB page from the GPU
	                             * a GPU fault migrates it away from */
	uint64_t peer_map_ns;       /* a GPU's fault mapping a 2 MiB block
	                             * of a peer's memory remotely: the
	                             * peer mapping made */
	uint64_t peer_copy_cross_ns; /* a peer copy that a stream of the
	                              * destination GPU, or a legacy stream,
	                              * carries waits this for the other */
	/* prefetch growth (uvm_perf_prefetch.c) */
	bool prefetch;
	uint32_t prefetch_threshold; /* percent of a region, > grows */
	/* a prefetch that finds its range already at the destination still
	 * walks it: this for each 2 MiB block */
	uint64_t prefetch_block_ns;
	/* a process's first prefetch from one GPU to another, each way */
	uint64_t peer_prefetch_first_ns;
	/* a kernel's memory time: bytes of the buffer per second when a
	 * GPU reads and writes host memory mapped over the host link */
	double remote_host_gbps;
	/* ... and what the host link carries of it each way, as bytes a
	 * second toward the GPU (a kernel's reads) and away (its writes),
	 * and millions of read requests a second it serves */
	double remote_host_read_gbps, remote_host_write_gbps;
	double remote_host_read_mrps;
	/* the same of a peer's memory over NVLink; 0: the link's rate */
	double remote_peer_gbps;
	/* the sectors a GPU's caches (L1, L2) serve a second, in bytes: a
	 * kernel's memory time at its own GPU is at least its sectors at
	 * this, however few of them reach the DRAM */
	double cache_gbps;
	/* of those sectors, the bytes a second the SMs' L1s serve of the
	 * loads (every load sector passes them; those they hold go no
	 * further), and the bytes a second of stores to lines other than a
	 * warp's last store's the L2 takes (cache_gbps serves the rest) */
	double l1_gbps, store_gbps;
	/* the distinct 4 KiB pages of a kernel's own GPU's memory its DRAM
	 * opens a second, in millions: a page the L2 did not keep for the
	 * kernel opens at least one of the DRAM's rows, so a kernel touching
	 * a few bytes of many pages takes at least their count at this */
	double dram_page_mps;
	/* what an advice call takes the host for each MiB of the range a GPU
	 * holds (its mappings there change), ns: SetAccessedBy and its
	 * unset, SetReadMostly and its unset, a preferred location set or
	 * unset; the GPU idles meanwhile */
	double advise_accessed_by_ns_mib, advise_read_mostly_ns_mib;
	double advise_preferred_ns_mib;
	/* a warp's wait for what an instruction it depends on wrote, ns:
	 * an arithmetic result, a load from the L1 (shared or local memory,
	 * a shuffle), a load of global memory (the L2's); all 0: a kernel's
	 * chains are not timed */
	double alu_latency_ns, l1_latency_ns, load_latency_ns;
	/* a global load whose line its GPU's L2 did not hold waits this,
	 * from the DRAM; the L2 holds l2_hold_bytes of the lines its
	 * kernels read and wrote last (0: every load is the L2's) */
	double dram_latency_ns;
	uint64_t l2_hold_bytes;
	/* an SM's L1 and shared memory together, bytes: what its blocks'
	 * shared memory leaves is the L1 their global loads hit in, shared
	 * between the blocks it holds; 0: no load hits an L1 */
	uint64_t l1_bytes;
	/* what a GPU's L2 keeps of the pages a kernel reached for the next
	 * kernel: all of them up to a footprint of l2_keep_bytes, none past
	 * l2_keep_none_bytes, the share linear between */
	uint64_t l2_keep_bytes, l2_keep_none_bytes;
	/* a kernel launch's fixed time, and an SM's time to take a block */
	uint64_t launch_ns;
	/* the launch call's own time on the calling thread */
	uint64_t launch_call_ns;
	/* a graph: cuGraphLaunch's call on the calling thread, the graph's
	 * start on its stream, and each kernel node's in place of launch_ns */
	uint64_t graph_launch_call_ns, graph_launch_ns, graph_node_ns;
	/* a call captured into a stream's graph, on the calling thread */
	uint64_t graph_capture_call_ns;
	/* a copy engine's copy queued behind a kernel on its stream: the
	 * handoff from the kernel's end to the copy's start */
	uint64_t copy_after_kernel_ns;
	/* an asynchronous or synchronous copy's call between pinned host
	 * memory and a GPU, on the calling thread, before it can start */
	uint64_t copy_call_ns;
	/* the call of a copy within a GPU or a memset past the short path,
	 * which the GPU runs as kernels */
	uint64_t copy_kernel_call_ns;
	/* such a kernel-run copy or memset queued behind a kernel */
	uint64_t copy_kernel_after_kernel_ns;
	/* a memset on the short path (copies.memset.small_bytes): its call,
	 * and its wait queued behind a kernel */
	uint64_t memset_short_call_ns, memset_short_after_kernel_ns;
	/* an asynchronous copy from pageable memory into a GPU's: the
	 * largest one staged at the call and queued rather than waited
	 * for, and the call's staging (fixed, and bytes a ns) */
	uint64_t pageable_async_bytes, pageable_async_call_ns;
	double pageable_async_gbps;
	/* a kernel queued behind a copy engine's copy on its stream */
	uint64_t kernel_after_copy_ns;
	/* a conditional node's own time, once a launch, and the device's
	 * start of each body it runs (a WHILE node's each iteration) */
	uint64_t graph_cond_ns, graph_cond_body_ns;
	/* launches from the device (dynamic parallelism): a launched
	 * grid's start after the grid that launched it, and a thread's
	 * launch calls one after another, a block's launches into its
	 * stream, the grid's launches, each (exec.h, struct ex_devlaunch) */
	uint64_t device_launch_ns, device_launch_call_ns;
	uint64_t device_launch_stream_ns, device_launch_grid_ns;
	uint64_t device_launch_first_ns; /* once, a host's grid that does */
	uint64_t device_runtime_load_ns; /* loading a module that calls it */
	uint64_t device_launch_block_ns; /* a block of a tree's launches */
	/* the host's time to instantiate a graph (fixed and a node) and to
	 * upload an executable graph, a node, at its first launch or upload */
	uint64_t graph_instantiate_ns, graph_instantiate_node_ns;
	uint64_t graph_upload_node_ns;
	uint64_t block_launch_ns;
	/* the driver's own work, on the calling thread's clock: cuInit
	 * (fixed, and for each device the process sees), making a context
	 * (cuCtxCreate, a primary context's first retain) and ending one
	 * (cuCtxDestroy, a primary context's last release or reset) */
	uint64_t init_ns, init_device_ns;
	uint64_t ctx_create_ns, ctx_destroy_ns;
	/* a kernel starting on a GPU whose SMs sat idle: nothing up to
	 * wake_after_ns of idle time, then wake_decade_ns for each tenfold
	 * of it, at most wake_max_ns (km_wake_ns) */
	uint64_t wake_after_ns, wake_decade_ns, wake_max_ns;
	/* ... of which it pays this share of what the SMs' idle adds,
	 * where another GPU's work kept its memory busy meanwhile */
	double wake_peer_share;
	/* writes to read-mostly memory, serviced a 4 KiB page at a time */
	uint64_t rm_upgrade_ns;     /* the writer holds a read-only copy */
	uint64_t rm_migrate_ns;     /* the writer holds none */
	/* ... or, where the warps' fault entries are known (a kernel the PTX
	 * engine runs), for each batch a 2 MiB block's entries fill */
	uint64_t rm_block_ns;
	/* thrashing (uvm_perf_thrashing.c); times in model ns */
	bool thrash;
	uint32_t thrash_threshold;  /* events within lapse to detect */
	uint64_t thrash_lapse_ns;
	uint32_t thrash_nap;        /* throttle, in lapses */
	uint32_t thrash_pin_threshold; /* throttles before pinning */
	uint32_t thrash_pin;        /* pin duration, in lapses */
	uint32_t thrash_epoch;      /* quiet lapses that end thrashing */
	/* access counters (uvm_gpu_access_counters.c) */
	bool access_counters;
	uint64_t ac_granularity;
	uint32_t ac_threshold;
};

/* The measured H200 on PCIe Gen5: a kernel's remote stream of host memory
 * ran at 42.1 GB/s of buffer where host-to-device migration ran at 47.5
 * GB/s. Another host link keeps that share (topology.c). */
#define UVM_REMOTE_HOST_GBPS 42.1
#define UVM_MEASURED_HOST_GBPS 47.5
/* The same H200's kernels reading 128 MiB of host memory ran at 51.0
 * GB/s, writing it at 52.3 (probes/results/patterns.txt), and touching
 * one byte a page of 1 GiB took 5.05 ns a touch, 198 million read
 * requests a second (probes/results/sparse.txt). */
#define UVM_REMOTE_HOST_READ_GBPS 51.0
#define UVM_REMOTE_HOST_WRITE_GBPS 52.3
#define UVM_REMOTE_HOST_READ_MRPS 198.0

/* The built-in values: the driver's defaults, and costs fitted to one
 * H200 on an x86 host without ATS (access counters off). */
void cuemu_uvm_default(struct cuemu_uvm *u);
/* The attached machine's parameters (the defaults before a machine). */
const struct cuemu_uvm *cuemu_uvm(void);

#endif
