/*
 * segment.h - the layout of the machine segment (machine.c owns it): the
 * topology, each device's use, the counters, the id counter and the process
 * table that every process of the machine maps read-write. Nothing but
 * machine.c and the tests that corrupt a segment on purpose include it:
 * whatever is read from it is outside input.
 *
 * The segment is sized from its topology: a fixed header, then arrays of
 * as many devices and NUMA nodes as the topology has, at the offsets
 * seg_layout() computes from the two counts. A reader checks the counts
 * and that the segment's size is exactly what they give before it follows
 * any offset.
 */
#ifndef CUEMU_MODEL_SEGMENT_H
#define CUEMU_MODEL_SEGMENT_H

#include "model/topology.h"

#define SEG_MAGIC 0x6375656d756d6368ULL /* "cuemumch" */
/* Version 23: launches from the device (uvm.device_launch_*); version
 * 22: an asynchronous pageable copy staged at its call
 * (uvm.pageable_async_*), a copy engine's copy behind a kernel, a pinned copy's call
 * and a kernel-run copy's (uvm.copy_after_kernel_ns, copy_call_ns,
 * copy_kernel_call_ns, copy_kernel_after_kernel_ns, kernel_after_copy_ns,
 * memset_short_call_ns, memset_short_after_kernel_ns); version 21: a call captured into a graph
 * (uvm.graph_capture_call_ns);
 * version 20: a page unmapped from the GPU a fault takes it from, a
 * peer's block mapped by a fault and a peer copy's wait for the other GPU
 * (uvm.peer_page_ns, peer_map_ns, peer_copy_cross_ns), a conditional
 * graph node's costs (uvm.graph_cond_ns, graph_cond_body_ns); version 19: a graph's launch call, start and kernel nodes, its
 * instantiation and upload (uvm.graph_*); version 18: an advice call's time a MiB a GPU holds
 * (uvm.advise_*_ns_mib); version 17: the pages a second the DRAM opens
 * (uvm.dram_page_mps);
 * version 16: the L1's and the L2's stores' rates (uvm.l1_gbps,
 * store_gbps); version 15: a load from the DRAM and the lines the L2 holds
 * (uvm.dram_latency_ns, l2_hold_bytes); version 14: an SM's L1 (uvm.l1_bytes); version 13: the latencies of a warp's chains (uvm.alu_latency_ns,
 * l1_latency_ns, load_latency_ns) and what the L2 keeps between kernels
 * (uvm.l2_keep_bytes, l2_keep_none_bytes) and a launch call's own time
 * (uvm.launch_call_ns); version 12: the share of the wake a GPU pays after another GPU's work
 * kept its memory busy (uvm.wake_peer_share), a wave of faults' wake of
 * the fault service (uvm.fault_wave_ns), a process's first prefetch
 * between two GPUs (uvm.peer_prefetch_first_ns) and the caches' rate
 * (uvm.cache_gbps); version 11: a kernel's wake after its GPU sat idle (uvm.wake_*) and a
 * prefetch's walk of blocks already in place (uvm.prefetch_block_ns);
 * version 10: the driver's initialization and a context's making and
 * ending (uvm); version 9: a launch's fixed time and block dispatch, the host link's
 * rates each way and of read requests (uvm); version 8: the cost of a batch's writes to a block of read-duplicated
 * memory (uvm.rm_block_ns); version 7: a device's warp issue rate (the compute term), the
 * topology's peer copy rate and a kernel's rate of a peer's memory;
 * version 5: no lock in the segment (its locks are the kernel's, on the
 * file: below); version 4 kept a pthread mutex whose robust-list pointers
 * any member could aim. */
#define SEG_VERSION 23
#define SEG_PROCS CUEMU_MAX_PROCS
#define SEG_MAX_NUMA CUEMU_NUMA_LIMIT

/* The segment's locks are open-file-description locks (fcntl
 * F_OFD_SETLK) on bytes of its file, which the kernel keeps and releases
 * when the holder's last descriptor closes, whatever the holder dies of:
 * nothing of them lies in memory another process can write. Byte
 * SEG_LOCK_TABLE is the process table's lock; byte SEG_LOCK_ROW(i) is held
 * by the process whose row i is, for as long as it lives, so a row whose
 * byte nobody holds belongs to no process, whatever the row says. The
 * bytes lie past the segment's end (locks need no data under them). */
#define SEG_LOCK_TABLE ((off_t)1 << 40)
#define SEG_LOCK_ROW(i) (SEG_LOCK_TABLE + 1 + (off_t)(i))

struct seg_proc {
	int32_t pid;          /* 0: free; information only: whose the row is
			       * is the row's lock byte (above) */
	uint32_t uid;
	uint64_t start;       /* /proc/<pid>/stat start time: pid reuse guard */
};

struct segment {
	uint64_t magic;
	uint32_t version;
	uint32_t ready;       /* set (release) once the topology is written */
	uint64_t size;        /* seg_layout()'s size for topo's counts */
	/* Times the process-table lock was taken, counted by each holder: a
	 * waiter that sees it move knows the lock changes hands (busy), not
	 * that one holder keeps it. A hint for waiting and messages, never
	 * trusted for more. */
	uint64_t lock_turns;
	/* The topology's scalars and counts; its array pointers are the
	 * writer's and never followed: the arrays follow the header. */
	struct cuemu_topology topo;
	uint64_t next_id;
	/* Rows ever claimed are below this (it only rises). A device's use
	 * is the sum over the rows below it: a process killed between two
	 * counts could leave a total and its row disagreeing for ever. */
	uint32_t rows_hi;
	uint32_t pad;
	struct seg_proc procs[SEG_PROCS];
};

/* Where the arrays of a segment of ndev devices and nnuma NUMA nodes lie,
 * in bytes from its start, and its whole size:
 *   dev       struct cuemu_device_info[ndev]
 *   numa      uint64_t[nnuma]                 each node's size
 *   link      struct cuemu_link[(ndev+1)^2]   from * (ndev+1) + to, the host last
 *   used      uint64_t[ndev]                  each device's orphaned bytes:
 *                                             memory its exporter freed
 *                                             while an importer maps it
 *                                             (legacy IPC), part of its use
 *   counters  uint64_t[(ndev+1) * CUEMU_CTR__COUNT], the host last
 *   rows      uint64_t[SEG_PROCS * ndev]      each row's use of each device */
struct seg_layout {
	size_t dev, numa, link, used, counters, rows, size;
};

static inline size_t seg_align(size_t x)
{
	return (x + 63) & ~(size_t)63;
}

/* -1 when the counts are out of bounds (nothing is computed then). */
static inline int seg_layout(int ndev, int nnuma, struct seg_layout *l)
{
	size_t n = (size_t)ndev, p = (size_t)ndev + 1;

	if (ndev < 1 || ndev > CUEMU_MAX_DEVICES || nnuma < 0 ||
	    nnuma > SEG_MAX_NUMA)
		return -1;
	l->dev = seg_align(sizeof(struct segment));
	l->numa = seg_align(l->dev + n * sizeof(struct cuemu_device_info));
	l->link = seg_align(l->numa + (size_t)nnuma * sizeof(uint64_t));
	l->used = seg_align(l->link + p * p * sizeof(struct cuemu_link));
	l->counters = seg_align(l->used + n * sizeof(uint64_t));
	l->rows = seg_align(l->counters +
			    p * CUEMU_CTR__COUNT * sizeof(uint64_t));
	l->size = seg_align(l->rows + SEG_PROCS * n * sizeof(uint64_t));
	return 0;
}

static inline void *seg_at(const struct segment *s, size_t off)
{
	return (char *)s + off;
}

#endif
