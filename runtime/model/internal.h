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

#define CUEMU_MAX_DEVICES 16
#define CUEMU_MAX_NUMA 8
#define CUEMU_PAGE 4096UL
#define CUEMU_GRANULARITY (2UL << 20) /* VMM granularity, eviction block */
#define CUEMU_ALIGN_UP(x, a) (((x) + (a) - 1) & ~((uintptr_t)(a) - 1))
#define CUEMU_ALIGN_DOWN(x, a) ((x) & ~((uintptr_t)(a) - 1))

/* Processor indices used by residency, links and counters: GPUs are 0..15,
 * the host is CUEMU_PROC_HOST. A processor mask has bit i for processor i. */
#define CUEMU_PROC_HOST 16
#define CUEMU_NPROC 17
typedef uint32_t cuemu_procmask;

/* ------------------------------------------------------------------ */
/* Errors                                                              */

/* Record a failure message for the calling thread (read by cuemu_errmsg()
 * and, for /cu writes, copied into the process's last_error). Returns r so
 * that callers can write `return cuemu_fail(CUDA_ERROR_X, "why %d", n);`. */
CUresult cuemu_fail(CUresult r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
const char *cuemu_errmsg(void);
void cuemu_errmsg_clear(void);
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

/* cuInit has run (CUDA_ERROR_NOT_INITIALIZED otherwise). */
CUresult cuemu_check_init(void);

/* machine.c: attach to (or create) the machine segment named by
 * CUEMU_MACHINE; cuInit and cufs call it. 0, or -1 with cuemu_errmsg(). */
int cuemu_machine_attach(void);
/* Unmaps the machine, as if never attached: for the segment's fuzzer
 * (fuzz/), which attaches to a new segment each run; never with objects
 * alive. */
void cuemu_machine_detach(void);
/* The sentinel a device attribute has when the machine does not know it:
 * cuDeviceGetAttribute answers CUDA_ERROR_INVALID_VALUE for it. */
#define CUEMU_ATTR_UNKNOWN INT32_MIN

/* Machine-unique object id: allocations, pools, reservations, handles share
 * one space; never reused while the machine segment lives. */
uint64_t cuemu_next_id(void);

/* ------------------------------------------------------------------ */
/* The machine (machine.c): topology and device accounting, shared by every
 * process through the shared-memory segment.                           */

struct cuemu_link {
	double gbps;      /* bandwidth, GB/s (1e9 bytes/s) */
	uint64_t lat_ns;  /* latency per transfer */
	int kind;         /* 0 none, 1 nvlink, 2 pcie, 3 host-local */
};

struct cuemu_device_info {
	char name[64];
	uint8_t uuid[16];
	uint64_t total;
	int numa_node;    /* host NUMA node nearest the device, or -1 */
	int attrs[160];   /* indexed by CUdevice_attribute; see machine.c */
};

int cuemu_device_count(void);
const struct cuemu_device_info *cuemu_device(int dev);
int cuemu_numa_count(void);            /* host NUMA nodes (libnuma) */
bool cuemu_numa_valid(int node);
uint64_t cuemu_numa_total(int node);    /* bytes, from libnuma */
const char *cuemu_machine_name(void);   /* the topology's name */
/* The machine's own name, as CUEMU_MACHINE gives it ("cuemu" unset). */
const char *cuemu_machine_id(void);
/* Link between two processors (GPU index or CUEMU_PROC_HOST). */
const struct cuemu_link *cuemu_link(int from, int to);
/* Model cost of moving bytes between processors, in nanoseconds. */
uint64_t cuemu_copy_cost_ns(int from, int to, size_t bytes);
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
uint64_t cuemu_mem_used(int dev);

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
int cuemu_ctx_device(CUcontext ctx);
bool cuemu_ctx_valid(CUcontext ctx);
/* Primary context of dev (retained by no one if never retained). */
CUcontext cuemu_primary_ctx(int dev);
bool cuemu_peer_enabled(int from_dev, int to_dev);

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

/* An operation runs on the stream's worker, in stream order, after every
 * operation it depends on. It may advance the stream's model clock.
 * cuemu_stream_enqueue's arg is malloc'd and fn frees it; a forked child,
 * which drops the parent's queued work, frees the arg of work never run. */
typedef void (*cuemu_op_fn)(CUstream s, void *arg);
CUresult cuemu_stream_enqueue(CUstream s, cuemu_op_fn fn, void *arg);
/* Enqueue and wait for it to finish (synchronous API calls). */
CUresult cuemu_stream_run(CUstream s, cuemu_op_fn fn, void *arg);
void cuemu_stream_advance(CUstream s, uint64_t ns);
uint64_t cuemu_stream_now(CUstream s);
CUresult cuemu_stream_sync(CUstream s);
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

/* Per-process counters, summed over devices (processes/<pid>/counters). */
void cuemu_proc_counter_add(enum cuemu_counter c, uint64_t n);
uint64_t cuemu_proc_counter_get(enum cuemu_counter c);

#endif
