/*
 * uvm.c - the built-in parameters of the timing model of managed memory
 * (uvm.h); a topology's "uvm" object (topology.c) changes them.
 *
 * Locking: none.
 */
#include "model/uvm.h"

/* The timing model of managed memory. The shapes and the driver's own
 * defaults come from NVIDIA's UVM driver (uvm_gpu_replayable_faults.c:
 * 256 faults a batch; uvm_perf_prefetch.c: a 51 % threshold;
 * uvm_perf_thrashing.c: 3 events within a 500 us lapse, a nap of one
 * lapse, pinning after 10 throttles, for 300 lapses, an epoch of 2000;
 * uvm_gpu_access_counters.c: 2 MiB granularity, a threshold of 256, and
 * migration off on hosts without ATS such as the measured x86 one). The
 * costs are fitted to one H200 (shared reference real-driver-migration,
 * probes/results/faults.txt; DESIGN.md, "The timing model"): a fault entry
 * and its share of a batch cost 0.22 us (a 1 GiB stream from GPU0 to GPU1
 * in 67.6 ms), a host page unmapped 0.16 us (1 GiB touched every 4 KiB or
 * streamed from the host, 153 and 99 ms, met halfway), a remote stream of
 * host memory runs at 42.1 GB/s (51.0 reading alone, 52.3 writing alone,
 * and 198 million read requests a second), a write to read-mostly memory
 * costs 54.7 us a page in place and 33.7 us a page from a peer, and a
 * launch 5.6 us and 85 ns a block an SM takes (an empty kernel of 8 to
 * 16,384 blocks of 512 threads, probes/results/sparse.txt). cuInit took
 * 129-133 ms with one device visible and 226-237 ms with two (25 ms and
 * 104 ms a device), making a context 104-122 ms and ending one 55-69 ms,
 * medians of 15 fresh processes on two H200s
 * (probes/results/ctxtime-visible.txt). */
void cuemu_uvm_default(struct cuemu_uvm *u)
{
	*u = (struct cuemu_uvm){
		.batch_faults = 256,
		.batch_ns = 20000,
		.fault_ns = 142,
		/* probes/results/slices.txt: one H200, a 254-kernel stencil
		 * whose kernels fault a 256 KiB slice each; a kernel whose
		 * writes fault took 70 us (median) more than its batch and
		 * entries, one whose reads and then writes fault 150-175 */
		.fault_wave_ns = 75000,
		.host_page_ns = 159,
		/* probes/results/peermig.txt, faults-h200x2.txt,
		 * peer-h200.txt and the shared reference: two H200s, gpu1
		 * reading 1 GiB resident on gpu0 with no advice, eight runs
		 * of 57 to 117 ms (two modes, 57-74 and 105-117), 88.75 the
		 * mean, where entries, batches and the link give 67: the
		 * source GPU's pages unmapped, 83 ns each */
		.peer_page_ns = 83,
		/* probes/results/peermig.txt: two H200s, gpu1's first read
		 * of memory preferring gpu0 over its second, 33.0 ms for 1
		 * GiB and 17.1 for 512 MiB: 64 us a 2 MiB block mapped */
		.peer_map_ns = 64000,
		/* probes/results/peermig.txt: two H200s, 100 back-to-back
		 * peer copies of 4 KiB, 1.7-1.9 us each on a non-blocking
		 * stream of the source, 8.0 on either legacy stream and 8.4
		 * to 8.7 on a stream of the destination */
		.peer_copy_cross_ns = 6200,
		.prefetch = true,
		.prefetch_threshold = 51,
		/* probes/results/resprefetch.txt: one H200, 128 MiB and 1 GiB
		 * already resident, 1.2 to 2.2 us a block */
		.prefetch_block_ns = 1250,
		/* probes/results/prefetch2m.txt, patterns.txt: two H200s,
		 * the first 2 MiB each way 0.27 to 0.51 ms over the warm 0.065 */
		.peer_prefetch_first_ns = 370000,
		.remote_host_gbps = UVM_REMOTE_HOST_GBPS,
		.remote_host_read_gbps = UVM_REMOTE_HOST_READ_GBPS,
		.remote_host_write_gbps = UVM_REMOTE_HOST_WRITE_GBPS,
		.remote_host_read_mrps = UVM_REMOTE_HOST_READ_MRPS,
		/* probes/results/matmul.txt: one H200, a naive matrix
		 * product's sectors (its loads and its stores of the same
		 * sum) at 7.2 TB/s (n=512), 8.7 (1024), 9.3 (2048) */
		.cache_gbps = 9000,
		/* probes/results/l1rate.txt: one H200, loads of float4s its
		 * L1 holds at 30.5 TB/s of sectors, loads from the L2 at 8.7,
		 * stores to new lines at 4.6 over 1 to 64 MiB (so not the
		 * DRAM), the same loads and stores together at the stores'
		 * rate */
		.l1_gbps = 30500,
		.store_gbps = 4600,
		/* probes/results/prefnoop.txt: one H200, a byte touched in
		 * each 4 KiB page of 1 GiB of device memory whose lines the
		 * L2 did not hold took 27 to 31 us (the launch's 6.5), 15 to
		 * 18 where the kernel before touched the same bytes:
		 * 262,144 pages in about 21.5 us */
		.dram_page_mps = 12200,
		/* probes/results/advise.txt: one H200, an advice given and
		 * taken back over 64 MiB and 1 GiB of managed memory it held:
		 * SetAccessedBy's pair 2.3 to 2.6 and 23 to 39 ms, about 19
		 * us a MiB a call; SetReadMostly's 0.11 to 0.17 and 1.5 to
		 * 1.9 ms, about 0.9; a preferred location's 8 to 41 us and
		 * 0.1 to 0.25 ms, about 0.08 */
		.advise_accessed_by_ns_mib = 19000,
		.advise_read_mostly_ns_mib = 900,
		.advise_preferred_ns_mib = 80,
		/* probes/results/chains.txt: one H200 at 1980 MHz, a
		 * pointer chase through 16 KiB (the L1) 20 ns a hop, through
		 * 1 and 16 MiB (the L2) 145; an add into a register 2.3 ns a
		 * step. A hop is a load and the two steps of arithmetic that
		 * make its address (4 ns): the loads' own latencies are 16
		 * and 141 */
		.alu_latency_ns = 2.0,
		.l1_latency_ns = 16,
		.load_latency_ns = 141,
		/* probes/results/tlb.txt, l2size.txt: one H200, a chase
		 * 350 ns a hop through lines the L2 does not hold, whatever
		 * their span; a ring the L2 held loses 0.17 of itself at 24
		 * MiB, 0.43 at 32, 0.58 at 40, as random placement in 36 MiB
		 * of eight-way sets does (exec/l2.c) */
		.dram_latency_ns = 346,
		.l2_hold_bytes = 36ULL << 20,
		/* an H100 or H200 SM has 256 KiB of L1 and shared memory
		 * (NVIDIA's Hopper tuning guide), of which the shared memory
		 * carveout takes 0 to 228 KiB (the CUDA Programming Guide's
		 * sizes for compute capability 9.0) */
		.l1_bytes = 256ULL << 10,
		/* probes/results/l2keep.txt: one H200, a kernel reading S
		 * MiB right after one reached them: from the L2 whole to 32
		 * MiB, 0.83 of them at 36, 0.54 at 40, 0.29 at 44, 0.06 at 48 */
		.l2_keep_bytes = 32ULL << 20,
		.l2_keep_none_bytes = 48ULL << 20,
		/* an empty kernel timed by events around it, 5.6 us
		 * (probes/results/sparse.txt), is the call's and the GPU's;
		 * probes/results/launchloop.txt: one H200, cudaLaunchKernel
		 * of an empty kernel on an idle stream 4.0 to 4.3 us */
		.launch_ns = 1600,
		.launch_call_ns = 4000,
		/* probes/results/graph-time.txt: a chain of 1, 10 and 100
		 * empty kernels 3.8-4.5, 8.1 and 56 us from the call's
		 * start, the call 1.6-3.9 us */
		.graph_launch_call_ns = 2000,
		.graph_launch_ns = 1000,
		.graph_node_ns = 530,
		/* results/graph-perfscaling.txt: capturing chains of 1 to
		 * 61 kernels took 1.7 to 31.6 us, 0.50 us a kernel */
		.graph_capture_call_ns = 500,
		/* probes/results/copyone.txt: one H200, a pinned copy each
		 * way of 4 KiB to 1 MiB queued behind a kernel took 3.5 to
		 * 3.9 us more than each of 100 queued behind one another */
		.copy_after_kernel_ns = 3600,
		/* and the call of such a copy, the stream idle, 1.2 to
		 * 1.3 us (2.2 for 4 KiB to the GPU) */
		.copy_call_ns = 1250,
		/* a copy within the GPU or a memset of 64 KiB or more, run
		 * as kernels: calls of 2.9 to 3.8 us */
		.copy_kernel_call_ns = 3500,
		/* and behind a kernel 1.3 to 1.5 us slower than each of
		 * 100 queued behind it */
		.copy_kernel_after_kernel_ns = 1400,
		/* probes/results/pageable.txt: one H200, an asynchronous
		 * copy from pageable memory returned before a 10 ms kernel
		 * ahead of it ended up to 2 MiB (from 3 MiB it waited), its
		 * call 2.8 us for 4 KiB to 111-129 us for 2 MiB */
		.pageable_async_bytes = 2097152,
		.pageable_async_call_ns = 3000,
		.pageable_async_gbps = 17.0,
		/* a memset of 4 KiB: a call of 0.8 us, and behind a kernel
		 * 2.6 us where each of 100 queued took 1.4 */
		.memset_short_call_ns = 800,
		.memset_short_after_kernel_ns = 1200,
		/* probes/results/afterop.txt: one H200, an empty kernel
		 * behind a pinned copy of 4 KiB to 4 MiB either way took 1.7
		 * to 9.6 us more than the copy, 4.4 the median of 24 (two
		 * runs), where the model's kernel took its 1.7 */
		.kernel_after_copy_ns = 2700,
		/* probes/results/conditional-time.txt: one H200, a WHILE
		 * node whose body is one small kernel, 4.55 us an iteration
		 * over 10 to 1,000 iterations (the kernel node 0.68 of it);
		 * an IF running an empty kernel, and a WHILE of one
		 * iteration, 7.3 and 7.5 us more than the kernel alone */
		.graph_cond_ns = 3400,
		.graph_cond_body_ns = 3870,
		/* probes/results/cdp-time.txt: one H200, an empty child
		 * 9.7 us a step in a chain of 1 to 16 nested launches, 10.2
		 * a step of tail launches; 1 to 100 children from one
		 * thread 6.0 to 6.5 us each past the first, from the threads
		 * of one block 3.6, from as many blocks 0.3 to 0.4 */
		.device_launch_ns = 10000,
		.device_launch_call_ns = 6300,
		.device_launch_stream_ns = 3600,
		.device_launch_grid_ns = 350,
		/* ... and a host's grid launching one child 15.6 us after
		 * an empty one, 5.9 more than a step of the chain */
		.device_launch_first_ns = 5900,
		/* cdp-first.txt: a fresh process's first launch of a kernel
		 * of a module that calls the device runtime (the module
		 * loaded lazily in it) 6.1 to 8.1 ms, 0.03 with the module
		 * loaded eagerly before */
		.device_runtime_load_ns = 6800000,
		/* cdp-wide.txt and cdp-overlap.txt: trees of 2,047 grids of
		 * one block and of 64 took 0.79 and 1.38 ms: 0.37 us a grid
		 * (device_launch_grid_ns) and 4.5 to 5 ns a block */
		.device_launch_block_ns = 5,
		/* results/graph-perfscaling.txt: 61 to 1,040 nodes
		 * instantiated in 0.9 to 1.8 us a node past 4 us, the first
		 * launch's call 1.1 to 1.3 us a node */
		.graph_instantiate_ns = 4000,
		.graph_instantiate_node_ns = 1000,
		.graph_upload_node_ns = 1200,
		.block_launch_ns = 85,
		.init_ns = 25000000,
		.init_device_ns = 104000000,
		.ctx_create_ns = 112000000,
		.ctx_destroy_ns = 60000000,
		/* probes/results/idlewake.txt: one H200, a kernel after the
		 * host slept 0.3 to 100 ms with nothing queued */
		.wake_after_ns = 300000,
		.wake_decade_ns = 18000,
		.wake_max_ns = 38000,
		/* probes/results/idlepeer.txt: two H200s, gpu0's kernel
		 * after 10 ms in which gpu1 read gpu0's memory or copied
		 * out of it paid 6.5 to 8.1 us where idle paid 19.8 */
		.wake_peer_share = 0.35,
		.rm_upgrade_ns = 54700,
		.rm_migrate_ns = 33700,
		.rm_block_ns = 1355000,
		.thrash = true,
		.thrash_threshold = 3,
		.thrash_lapse_ns = 500000,
		.thrash_nap = 1,
		.thrash_pin_threshold = 10,
		.thrash_pin = 300,
		.thrash_epoch = 2000,
		.access_counters = false,
		.ac_granularity = 2UL << 20,
		.ac_threshold = 256,
	};
}
