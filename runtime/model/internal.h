/*
 * internal.h - what the subsystems of libcuemu share: the process state, the
 * process lock, ids, locations, the address map, accounting, counters, the
 * event log and the error plumbing.
 *
 * Locking rule (the whole runtime follows it):
 *   - cuemu_lock() guards every memory object of the process: the address
 *     map, allocations, managed ranges, pools, reservations, handles, the
 *     contexts. It is not recursive. Take it for short critical sections.
 *   - Never wait for a stream (sync, event wait) while holding it: stream
 *     workers take it to run their operations.
 *   - Never touch managed user memory while holding it: a CPU fault taken
 *     under the lock would deadlock in the fault handler.
 *   - Stream queues have their own locks (stream.c), always taken after, never
 *     before, the process lock.
 *   - The machine segment (machine.c) is updated with atomics and its own
 *     process-shared mutex, taken last of all.
 */
#ifndef CUEMU_INTERNAL_H
#define CUEMU_INTERNAL_H

#include "config.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>
#include <sys/tree.h> /* libbsd's red-black trees */

#include "cuda.h"
#include "cuda_runtime_api.h"
#include "cuemu.h"

#define CUEMU_PAGE 4096UL
#define CUEMU_GRANULARITY (2UL << 20) /* VMM granularity, eviction block */
#define CUEMU_ALIGN_UP(x, a) (((x) + (a) - 1) & ~((uintptr_t)(a) - 1))
#define CUEMU_ALIGN_DOWN(x, a) ((x) & ~((uintptr_t)(a) - 1))

/* A red-black tree's functions, static to the file that keeps the tree.
 * libbsd's RB_GENERATE_STATIC relies on a __unused it leaves undefined on
 * Linux, so the attribute is spelled out here, once. */
#define CUEMU_RB_STATIC(name, type, field, cmp)                              \
	RB_GENERATE_INTERNAL(name, type, field, cmp,                         \
			     __attribute__((unused)) static)

/* Processor indices used by residency, links and counters: GPUs are
 * 0..ndev-1 (the topology's count), the host is CUEMU_PROC_HOST. A
 * processor mask has bit i for processor i: 128 bits, so that a machine
 * may have up to CUEMU_MAX_DEVICES GPUs (a GB200 NVL72 rack has 72); the
 * machine segment and every table of the machine are sized from the
 * topology's own count, not from this bound. */
#define CUEMU_PROC_HOST 127
#define CUEMU_NPROC 128
#define CUEMU_MAX_DEVICES CUEMU_PROC_HOST
/* The most NUMA nodes a machine may have: Linux's own bound
 * (MAX_NUMNODES at the largest NODES_SHIFT, 10). */
#define CUEMU_NUMA_LIMIT 1024
__extension__ typedef unsigned __int128 cuemu_procmask;
/* The lowest processor of m at or above from, or -1: a loop over a mask
 * costs its set bits, not the width. */
static inline int cuemu_mask_next(cuemu_procmask m, int from)
{
	uint64_t lo, hi;

	if (from < 0 || from >= CUEMU_NPROC)
		return -1;
	m >>= from;
	lo = (uint64_t)m;
	hi = (uint64_t)(m >> 64);
	if (lo)
		return from + __builtin_ctzll(lo);
	return hi ? from + 64 + __builtin_ctzll(hi) : -1;
}
/* The mask of processor proc alone. */
static inline cuemu_procmask cuemu_mask_bit(int proc)
{
	return (cuemu_procmask)1 << proc;
}
/* How many processors m holds. */
static inline int cuemu_mask_count(cuemu_procmask m)
{
	return __builtin_popcountll((uint64_t)m) +
	       __builtin_popcountll((uint64_t)(m >> 64));
}
/* Address arithmetic's min and max. */
static inline uintptr_t cuemu_max_u(uintptr_t a, uintptr_t b)
{
	return a > b ? a : b;
}
static inline uintptr_t cuemu_min_u(uintptr_t a, uintptr_t b)
{
	return a < b ? a : b;
}
/* The processor after p of this process (its GPUs, then the host), or
 * CUEMU_NPROC after the host: a loop over processors costs the machine's
 * GPUs, not the width of a mask. */
int cuemu_proc_next(int p);

/* ------------------------------------------------------------------ */
/* Errors                                                              */

/* Record a failure message for the calling thread (read by cuemu_errmsg()
 * and, for /cu writes, copied into the process's last_error). Returns r so
 * that callers can write `return cuemu_fail(CUDA_ERROR_X, "why %d", n);`. */
CUresult cuemu_fail(CUresult r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
const char *cuemu_errmsg(void);
void cuemu_errmsg_clear(void);
/* Says the thread's message on stderr ("cuemu: ..."), whatever CUEMU_DEBUG
 * says, for a failure a user must hear of that the answer cannot carry
 * (cuInit can only answer CUDA_ERROR_NO_DEVICE); cuemu_errmsg_told then
 * answers true until the next cuemu_fail, so that a caller that reports
 * the message itself (cufs) does not say it twice. */
void cuemu_tell(void);
bool cuemu_errmsg_told(void);
/* The name ("CUDA_ERROR_INVALID_VALUE") and the sentence of a CUresult;
 * NULL for a value that is none. */
const char *cuemu_result_name(CUresult r);
const char *cuemu_result_text(CUresult r);

/* Debug/diagnostic output on stderr when CUEMU_DEBUG is set. */
void cuemu_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ------------------------------------------------------------------ */
/* The process                                                         */

void cuemu_lock(void);
void cuemu_unlock(void);
/* Releases the lock leaving what changed named, for the next cuemu_unlock
 * to publish: for a kernel's faults, which would otherwise publish their
 * allocation at every one (fault.c). */
void cuemu_unlock_deferred(void);
/* The calling thread holds the process lock (taken with cuemu_lock). The
 * stream engine never runs an operation in such a thread: the operation
 * may take the lock itself. */
bool cuemu_lock_held(void);

/* cuInit has run (CUDA_ERROR_NOT_INITIALIZED otherwise). */
CUresult cuemu_check_init(void);

/* machine.c: attach to (or create) the machine segment named by
 * CUEMU_MACHINE; cuInit and cufs call it. 0, or -1 with cuemu_errmsg(). */
int cuemu_machine_attach(void);
/* Unmaps the machine, as if never attached: for the segment's fuzzer
 * (fuzz/), which attaches to a new segment each run; never with objects
 * alive. */
void cuemu_machine_detach(void);
/* From now on this process only reads the machine (cufs): it takes no
 * lock another process could hold, writes nothing, and reads the segment
 * through a private copy that a truncated file cannot turn into SIGBUS.
 * Before the first attach. */
void cuemu_machine_read_only(void);
/* Removes the machine segment name when the caller owns it (or is root),
 * it is a machine segment and no process is attached: 0, or a negative
 * errno (EINVAL, ENOENT, EPERM, EBUSY) with why said in why. */
int cuemu_machine_remove(const char *name, char *why, size_t len);
/* The sentinel a device attribute has when the machine does not know it:
 * cuDeviceGetAttribute answers CUDA_ERROR_INVALID_VALUE for it. */
#define CUEMU_ATTR_UNKNOWN INT32_MIN

/* Machine-unique object id: allocations, pools, reservations, handles share
 * one space; never reused while the machine segment lives and no member
 * writes its counter back. A process's own ids only rise, whatever the
 * counter says. */
uint64_t cuemu_next_id(void);

/* ------------------------------------------------------------------ */
/* The machine (machine.c): topology and device accounting, shared by every
 * process through the shared-memory segment.                           */

struct cuemu_link {
	double gbps;      /* bandwidth, GB/s (1e9 bytes/s) */
	uint64_t lat_ns;  /* latency per transfer */
	int kind;         /* 0 none, 1 nvlink, 2 pcie, 3 host-local, 4 c2c */
};

struct cuemu_device_info {
	char name[64];
	uint8_t uuid[16];
	uint64_t total;
	int numa_node;    /* host NUMA node nearest the device, or -1 */
	int attrs[160];   /* indexed by CUdevice_attribute; see machine.c */
	int uuid_given;   /* the topology named the UUID (else derived) */
	/* Warp instructions one SM issues a clock (its schedulers, one each):
	 * with multiprocessor_count and clock_rate (attrs), a kernel's
	 * compute term in model time (kernel.c). */
	int warp_issue;
};

/* Devices are named by the process's ordinals (CUDA_VISIBLE_DEVICES and
 * CUDA_DEVICE_ORDER choose them at cuInit: cudaenv.c); every query of the
 * machine that takes a device or a processor takes an ordinal. */
int cuemu_device_count(void);
const struct cuemu_device_info *cuemu_device(int dev);
/* The machine's own GPUs, whatever this process sees: how many, the one
 * at machine index i, and the machine index of ordinal dev (-1: none). */
int cuemu_machine_gpu_count(void);
const struct cuemu_device_info *cuemu_machine_gpu(int index);
int cuemu_machine_gpu_of(int dev);
/* The process sees machine GPUs map[0..n) as ordinals 0..n-1 (cudaenv.c,
 * once at cuInit). 0, or -1 when map names no GPU of the machine. */
int cuemu_machine_set_view(const int *map, int n);
/* The CUDA_* environment cuInit reads (cudaenv.c): chooses the devices
 * this process sees, SUCCESS or the driver's error (NO_DEVICE when none,
 * INVALID_DEVICE for a repeated index or an unknown order), with a
 * message; and whether kernel launches (memsets and emulated kernels)
 * return only once done (CUDA_LAUNCH_BLOCKING=1). */
CUresult cuemu_select_devices(void);
bool cuemu_launch_blocking(void);
/* The host threads a kernel's blocks run on: CUEMU_KERNEL_THREADS as cuInit
 * read it, else the CPUs the process may run on (at most 64). */
int cuemu_kernel_threads(void);
/* cuInit's read of CUEMU_KERNEL_THREADS: SUCCESS, or INVALID_VALUE with
 * the reason when it is no count from 1 to 64 (the default then holds). */
CUresult cuemu_kernel_threads_check_env(void);
/* The device order in force ("FASTEST_FIRST" or "PCI_BUS_ID") and the
 * CUDA_VISIBLE_DEVICES value cuInit read (NULL: unset), for /cu. */
const char *cuemu_device_order(void);
const char *cuemu_visible_devices_env(void);
/* The UUID of a device as the driver prints it: "GPU-xxxxxxxx-...". */
void cuemu_uuid_str(const uint8_t uuid[16], char *buf, size_t len);
/* A device's PCI bus id as the driver writes it: "0000:18:00.0". */
void cuemu_pci_str(const struct cuemu_device_info *d, char *buf, size_t len);
int cuemu_numa_count(void);            /* host NUMA nodes (libnuma) */
bool cuemu_numa_valid(int node);
uint64_t cuemu_numa_total(int node);    /* bytes, from libnuma */
const char *cuemu_machine_name(void);   /* the topology's name */
/* The machine's unified-memory paradigm, as cuemu-topology(5) names it:
 * "software-coherent", "hmm" or "hardware-coherent". */
const char *cuemu_machine_paradigm(void);
/* Hardware coherence (the hardware-coherent paradigm): the CPU reaches
 * memory resident on a GPU directly, without faulting it back. */
bool cuemu_machine_coherent(void);
/* Pageable memory access (hmm and hardware-coherent): memory from malloc
 * or mmap is the GPUs' too, and the managed-memory calls accept it. */
bool cuemu_machine_pageable(void);
/* The machine's own name, as CUEMU_MACHINE gives it ("cuemu" unset). */
const char *cuemu_machine_id(void);
/* Link between two processors (GPU index or CUEMU_PROC_HOST). */
const struct cuemu_link *cuemu_link(int from, int to);
/* Model cost of moving bytes between processors over their link, in
 * nanoseconds: what a managed migration costs (a plain copy is priced by
 * its path, below). */
uint64_t cuemu_copy_cost_ns(int from, int to, size_t bytes);

/* What a copy engine does at one rate: an operation of bytes costs
 * latency plus bytes over bandwidth; one of at most small_bytes takes
 * small_lat_ns instead of lat_ns (the real memset is quicker below a
 * size). */
struct cuemu_rate {
	double gbps;           /* GB/s (1e9 bytes/s) */
	uint64_t lat_ns;
	uint64_t small_bytes;  /* 0: no short path */
	uint64_t small_lat_ns;
};

/* The rates a topology gives plain copies (cuemu-topology(5), "copies"). */
enum cuemu_rate_kind {
	CUEMU_RATE_PINNED_HTOD,
	CUEMU_RATE_PINNED_DTOH,
	CUEMU_RATE_PAGEABLE_HTOD,
	CUEMU_RATE_PAGEABLE_DTOH,
	CUEMU_RATE_PAGEABLE_HTOD_HOST, /* the host's own time of a synchronous */
	CUEMU_RATE_PAGEABLE_DTOH_HOST, /* pageable copy, staging it */
	CUEMU_RATE_DEVICE,
	CUEMU_RATE_MEMSET,
	CUEMU_RATE_PEER,               /* GPU to GPU over their link; gbps 0: */
	                               /* unset, the link's own rate */
	CUEMU_RATE__COUNT
};

/* The way a plain copy or a memset goes, which sets its cost. copy.c picks
 * it from where the ends are; a managed end has first been made resident
 * where the copy needs it (a migration, charged as one only when pages
 * move), so it counts as memory of that processor. */
enum cuemu_path {
	CUEMU_PATH_HOST,          /* host memory to host memory: host_local */
	CUEMU_PATH_PINNED_HTOD,   /* pinned or registered host memory to a GPU */
	CUEMU_PATH_PINNED_DTOH,   /* a GPU to pinned or registered host memory */
	CUEMU_PATH_PAGEABLE_HTOD, /* staged through the driver's pinned buffers */
	CUEMU_PATH_PAGEABLE_DTOH,
	CUEMU_PATH_DEVICE,        /* within one GPU's memory */
	CUEMU_PATH_PEER,          /* GPU to GPU over their link */
	CUEMU_PATH_MEMSET,        /* a GPU writing a value into its own memory */
};
/* The stream time of a copy of bytes by path from processor from to to. */
uint64_t cuemu_path_cost_ns(enum cuemu_path path, int from, int to,
			    size_t bytes);
/* The host's own time of a synchronous copy by path: staging a pageable
 * one; 0 for every other path, where the host only waits. */
uint64_t cuemu_path_host_ns(enum cuemu_path path, size_t bytes);
/* Whether an operation of bytes on path takes the rate's short path (a
 * memset of at most copies.memset.small_bytes: a copy engine's, not a
 * kernel's). */
bool cuemu_path_short(enum cuemu_path path, size_t bytes);
/* Model cost of a fault-driven migration of bytes in pages of page_bytes. */
uint64_t cuemu_fault_cost_ns(int from, int to, size_t bytes, size_t page_bytes);
/* Per-fault service latency (ns) from the topology. */
uint64_t cuemu_fault_latency_ns(void);

/* Capacity accounting of device memory, shared machine-wide.
 * charge fails (returns false) without side effects when it does not fit. */
bool cuemu_mem_charge(int dev, uint64_t bytes);
/* evict.c: the charge of memory that is not managed (cuMemAlloc, pool
 * granules, VMM handles). When it does not fit, this process's managed
 * memory on dev is evicted to the host first, least recently used first,
 * as the real driver does (probes/results/oversub.txt). Lock held. */
bool cuemu_mem_charge_evicting(int dev, uint64_t bytes);
void cuemu_mem_uncharge(int dev, uint64_t bytes);
/* One half of an uncharge, for memory another process still maps (legacy
 * IPC, model/ipc.c): row, this process's share, when it frees memory an
 * importer holds (the bytes stay in the device's use as orphaned); total,
 * the orphaned bytes, when the last importer lets go of memory its
 * exporter freed. */
void cuemu_mem_uncharge_part(int dev, uint64_t bytes, bool total, bool row);
uint64_t cuemu_mem_used(int dev);

/* The machine's GPUs by machine index, as NVML shows them (whatever this
 * process sees): what a GPU's processes hold on it (dead ones reclaimed at
 * most once a second), the live processes holding memory on it (at most
 * max pids and uses; the count, which may be more), and the kind of its
 * link to another (0: none, or itself). */
uint64_t cuemu_machine_gpu_used(int index);
int cuemu_machine_gpu_procs(int index, int *pids, uint64_t *used, int max);
int cuemu_machine_gpu_link(int a, int b);
/* Rows of the machine's process table (segment.h's SEG_PROCS). */
#define CUEMU_MAX_PROCS 4096
/* A device's PCI address: domain, bus and device (slot), the one source
 * of cuDeviceGetPCIBusId's and NVML's bus ids. */
void cuemu_device_pci(const struct cuemu_device_info *d, int *domain,
		      int *bus, int *slot);
/* The device at a PCI bus id written [domain]:[bus]:[device].[function],
 * [domain]:[bus]:[device] or [bus]:[device].[function] (hex, as the driver
 * reads them): its ordinal (or machine index), -1 for none there, -2 for
 * text that is not one. */
int cuemu_device_by_bus_id(const char *s);
int cuemu_machine_gpu_by_bus_id(const char *s);


/* Machine-wide per-device counters (shown under /cu/devices/gpuN/counters).
 * cuemu_counter_add also adds to the process's counters. dev may be
 * CUEMU_PROC_HOST for counters that belong to the host side. */
enum cuemu_counter {
	CUEMU_CTR_GPU_FAULTS,
	CUEMU_CTR_CPU_FAULTS,
	CUEMU_CTR_BYTES_HTOD,
	CUEMU_CTR_BYTES_DTOH,
	CUEMU_CTR_BYTES_DTOD,
	CUEMU_CTR_MIGRATIONS,
	CUEMU_CTR_EVICTIONS,
	CUEMU_CTR_EVICTED_BYTES,
	CUEMU_CTR_THRASH,
	CUEMU_CTR_REMOTE_ACCESSES,
	CUEMU_CTR__COUNT
};
extern const char *const cuemu_counter_names[CUEMU_CTR__COUNT];
void cuemu_counter_add(int dev, enum cuemu_counter c, uint64_t n);
uint64_t cuemu_counter_get(int dev, enum cuemu_counter c);

/* ------------------------------------------------------------------ */
/* Locations (location.c): the one parser and printer of the words /cu,
 * the topology and the tools use: gpu0, cpu (also "host"), numa0, none.    */

/* A written value is one line: an optional newline at its end, no other
 * control character but tab, UTF-8, at most CUEMU_LINE_MAX bytes. */
#define CUEMU_LINE_MAX 4095
/* The longest word of a value (location, advice, flag), with its NUL. */
#define CUEMU_WORD 32
bool cuemu_utf8_valid(const char *s, size_t n);
/* s as one line of at most max bytes (a newline at its end aside): its
 * length without that newline, or -1 with a message saying why not. */
int cuemu_line_check(const char *s, size_t max);
/* Splits a value into its words (separated by blanks or commas): how many,
 * or -1 with a message when the value is not one line or has more than max
 * words or a word too long. */
int cuemu_words(const char *value, char (*w)[CUEMU_WORD], int max);
/* Parses s (trailing newline allowed) into loc. type INVALID for "none".
 * Returns 0, or -1 with a message in cuemu_errmsg(). Does not check that
 * the device or node exists. */
int cuemu_loc_parse(const char *s, CUmemLocation *loc);
/* Writes the word for loc ("gpu1", "cpu", "numa0", "numa_current", "none"). */
const char *cuemu_loc_str(CUmemLocation loc, char *buf, size_t len);
/* Processor index of a location: GPU index, CUEMU_PROC_HOST for any host
 * kind, -1 for invalid. */
int cuemu_loc_proc(CUmemLocation loc);
/* Word for a processor index ("gpu0", "cpu"). */
const char *cuemu_proc_str(int proc, char *buf, size_t len);
/* "gpu1 rw" (rw, ro or none) to an access descriptor, and back. */
CUresult cuemu_access_parse(const char *value, CUmemAccessDesc *d);
const char *cuemu_access_str(CUmemAccess_flags f);
/* Parses a size with optional K/M/G/T suffix (binary). 0 or -1. */
int cuemu_size_parse(const char *s, uint64_t *out);

/* ------------------------------------------------------------------ */
/* Contexts (context.c)                                                 */

/* Contexts are CUcontext (struct CUctx_st, defined in context.c). */

/* The calling thread's current context and its device; fails with
 * NOT_INITIALIZED or INVALID_CONTEXT as the driver does. Either out may be
 * NULL. */
CUresult cuemu_current(CUcontext *ctx, int *dev);
/* A kernel of c failed with r (ILLEGAL_ADDRESS, ASSERT, LAUNCH_FAILED):
 * c stays failed, and cuemu_current answers r in it from then on, as every
 * call in a context does on the device. The first failure is kept. */
void cuemu_ctx_fail_sticky(CUcontext c, CUresult r);
/* The failure c keeps (with its message), or CUDA_SUCCESS: what a
 * synchronization answers once the failed kernel is reached. */
CUresult cuemu_ctx_sticky(CUcontext c);
int cuemu_ctx_device(CUcontext ctx);
bool cuemu_ctx_valid(CUcontext ctx);
/* Primary context of dev (retained by no one if never retained). */
CUcontext cuemu_primary_ctx(int dev);
bool cuemu_peer_enabled(int from_dev, int to_dev);
/* A counter that moves whenever memory a kernel reached may no longer be
 * reachable the same way (vaspace.c; moved by fault.c's views applied
 * again, an allocation removed, peer access off): what a kernel's translation caches watch. */
void cuemu_reach_changed(void);
const volatile uint64_t *cuemu_reach_generation(void);

/* ------------------------------------------------------------------ */
/* Allocations and the address map: model/memory.h.                    */

#include "model/memory.h"

/* ------------------------------------------------------------------ */
/* Streams and events (stream.c)                                        */

/* Streams are CUstream (struct CUstream_st, defined in stream.c). */

/* Resolves a handle (NULL and CU_STREAM_LEGACY: the legacy default stream of
 * the current context's device; CU_STREAM_PER_THREAD: the thread's stream).
 * INVALID_HANDLE for a destroyed or unknown stream, INVALID_CONTEXT etc. when
 * there is no current context. */
CUresult cuemu_stream_get(CUstream h, CUstream *out);
int cuemu_stream_device(CUstream s);
/* s is a device's legacy default stream. */
bool cuemu_stream_legacy(CUstream s);
/* s's id, as cuStreamGetId answers it. */
uint64_t cuemu_stream_uid(CUstream s);

/* An operation runs in stream order, after every operation it depends on.
 * It may advance the stream's model clock. cuemu_stream_enqueue's arg is
 * malloc'd and fn frees it; a forked child, which drops the parent's queued
 * work, frees the arg of work never run.
 *
 * Where it runs: cuemu_stream_enqueue takes model work (a copy, a
 * prefetch, a record), which may run in the calling thread, before the
 * call returns, when the stream has nothing queued or running ahead of it
 * and everything it depends on is done; else the stream's worker runs it.
 * Either way its model time, ordering and results are the same. The engine
 * never runs an operation in the caller's thread while that thread holds
 * the process lock (cuemu_lock_held), nor in a stream's worker thread, nor
 * when CUEMU_TIME_SCALE makes operations sleep. fn may take the process
 * lock; it must not wait for anything the caller does after the enqueue.
 * User code (a host function, an emulated kernel) may wait for exactly
 * that, so it goes through cuemu_stream_enqueue_user and always runs on
 * the worker. */
typedef void (*cuemu_op_fn)(CUstream s, void *arg);
CUresult cuemu_stream_enqueue(CUstream s, cuemu_op_fn fn, void *arg);
CUresult cuemu_stream_enqueue_user(CUstream s, cuemu_op_fn fn, void *arg);
/* Called by a running operation's fn: fn(arg) runs once the operation's
 * end is published, so that whoever fn wakes finds the stream past it (a
 * launch's module hold, released for an unload that waits). One a time. */
void cuemu_op_then(void (*fn)(void *), void *arg);
/* Enqueue model work and wait for it to finish (synchronous API calls). */
CUresult cuemu_stream_run(CUstream s, cuemu_op_fn fn, void *arg);
void cuemu_stream_advance(CUstream s, uint64_t ns);
uint64_t cuemu_stream_now(CUstream s);
/* What ran on s to its clock now: a kernel (a launch's end, fault.c) or a
 * copy engine's copy (copy.c); whether the operation now starting on s
 * starts at the end of one of that kind, nothing having moved the clock
 * since (an event's record does not): queued behind it, not after an idle
 * stream. Asked by the running operation; the engines hand over to each
 * other at a cost (probes/results/copyone.txt, afterop.txt). */
enum cuemu_stream_end { CUEMU_END_KERNEL = 1, CUEMU_END_ENGINE };
void cuemu_stream_ended(CUstream s, enum cuemu_stream_end what);
bool cuemu_stream_behind(CUstream s, enum cuemu_stream_end what);
/* Operations are enqueued on s behind the one its worker runs (asked by
 * that operation). */
bool cuemu_stream_more_queued(CUstream s);
/* Whether the calling thread is a stream's worker (it runs the stream's
 * operations: host functions, copies, kernels). */
bool cuemu_stream_on_worker(void);
/* The host was busy with an operation until model time ns (staging a
 * pageable copy): its clock is at least that from now on. */
void cuemu_host_busy_until(uint64_t ns);
/* The calling thread spent ns of model time on its own (its CPU faults):
 * its clock, and what it enqueues from now on, move on by that much. */
void cuemu_host_advance(uint64_t ns);
/* The calling thread's model time. */
uint64_t cuemu_host_now(void);
/* In a stream's operation (a host function's thread): true, with *ns the
 * stream's clock; else false. */
bool cuemu_op_clock(uint64_t *ns);
CUresult cuemu_stream_sync(CUstream s);
/* Work enqueued on t from now on starts no earlier than model time ns,
 * where t has nothing queued or running (else t's own order stands). */
void cuemu_stream_not_before(CUstream t, uint64_t ns);
/* A running operation of s waits for the work enqueued on t so far, and
 * s's clock comes to where it ended; no thread's host clock moves (a
 * conditional graph node running its body on a stream of its own). */
CUresult cuemu_stream_join(CUstream s, CUstream t);
/* Synchronize every stream of the process (cuCtxSynchronize). */
CUresult cuemu_sync_all(void);
/* Wait for every stream of ctx (and its device's legacy stream). */
CUresult cuemu_ctx_sync(CUcontext ctx);
/* Lets the work of ctx's streams finish, then destroys them (cuCtxDestroy,
 * the last primary release, cuDevicePrimaryCtxReset). No lock held. */
void cuemu_ctx_streams_destroy(CUcontext ctx);

/* Positions in stream order, for the pool allocator's reuse rules. */
struct cuemu_spos {
	uint64_t stream;  /* stream uid, never reused */
	uint64_t seq;     /* operation number within that stream */
};
/* Position of the last operation enqueued on s. */
struct cuemu_spos cuemu_stream_pos(CUstream s);
/* The operation at p has finished (true for a destroyed stream). */
bool cuemu_spos_done(struct cuemu_spos p);
/* Work enqueued on s from now on is ordered after p: same stream, or a
 * chain of event waits. */
bool cuemu_stream_follows(CUstream s, struct cuemu_spos p);
/* Makes later work on s wait for p (the allocator's internal dependency). */
CUresult cuemu_stream_wait_pos(CUstream s, struct cuemu_spos p);

/* Model time as /cu shows it (processes/<pid>/streams/, model_time):
 * each stream's state, read without stopping it. */
struct cuemu_stream_info {
	uint64_t uid;        /* as cuStreamGetId gives it */
	int dev;
	const char *kind;    /* "user", "legacy" or "per_thread" */
	uint64_t clock_ns;   /* the stream's model clock */
	uint64_t queued;     /* operations enqueued so far */
	uint64_t completed;  /* of them, finished */
};
/* fn for each live stream of the process, in uid order, under the
 * registry's read lock (fn takes no lock of the stream engine); how many. */
size_t cuemu_streams_each(void (*fn)(const struct cuemu_stream_info *i,
				     void *arg), void *arg);
/* The furthest model time of the process: its streams' clocks (those
 * destroyed too) and the host's. */
uint64_t cuemu_model_time(void);
/* The model time of the calling thread: the clock of the stream whose
 * operation it runs, else the host's. */
uint64_t cuemu_model_now(void);

/* ------------------------------------------------------------------ */
/* Hooks between subsystems                                            */

/* stream.c: what a host synchronization (a stream, an event or a context
 * synchronize) sets off in the parts of the model above the stream engine,
 * such as the pool allocator's release down to each pool's threshold. fn
 * runs with no lock held; register from a constructor. */
void cuemu_on_host_sync(void (*fn)(void));
void cuemu_host_synced(void);
/* managed.c: is p inside managed memory? Used by copies before touching
 * user memory; makes [p, p+len) resident on proc for access (a fault). */
bool cuemu_managed_contains(uintptr_t p);
CUresult cuemu_managed_touch(uintptr_t p, size_t len, int proc, bool write,
                             CUstream s);

/* The free path of model/memory.c dispatches on kind: managed.c frees
 * managed memory, pool.c a pool block synchronously (cuemu_pool_free_now,
 * in model/pool.h). Both take the process lock. */
CUresult cuemu_managed_free(struct cuemu_alloc *a);

/* ------------------------------------------------------------------ */
/* What the model tells (notify.c): its events, handed to the sinks that
 * subscribed (the event log of outward/events.c), and its counters.      */

/* Emits one event: a type word and a line of text. */
void cuemu_event_log(const char *type, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* sink(type, text) is called for every event from then on, in the
 * emitting thread, possibly with the process lock held: it takes only a
 * leaf lock of its own. Call from a constructor. */
void cuemu_on_event(void (*sink)(const char *type, const char *text));

/* Which objects changed, for what publishes the process's state
 * (outward/publish.c). The model calls cuemu_obj_changed(id) (lock held)
 * for every allocation, pool, reservation or handle it creates, changes
 * or frees, and 0 for the process's own record; when the lock is
 * released, cuemu_unlock hands the ids of that critical section to the
 * sink, once, before it unlocks. sink runs with the process lock held and
 * must not take it. Set it from an init hook (cuemu_on_init), before any
 * call can change an object; until then nothing is kept. */
void cuemu_on_change(void (*sink)(const uint64_t *ids, size_t n));
void cuemu_obj_changed(uint64_t id);
void cuemu_changes_flush(void);

/* A stream finished an operation, so its clock and counts moved: the
 * time sink (outward/publish.c) learns it, called with no lock of the
 * model held and expected to return at once. Set from an init hook. */
void cuemu_on_time(void (*sink)(void));
void cuemu_time_moved(void);

/* Per-process counters, summed over devices (processes/<pid>/counters). */
void cuemu_proc_counter_add(enum cuemu_counter c, uint64_t n);
uint64_t cuemu_proc_counter_get(enum cuemu_counter c);

#endif
