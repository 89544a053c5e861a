/*
 * pool.h - the stream-ordered allocator's model (model/pool.c): pools, the
 * granules and blocks they hold, the reuse of freed blocks across streams,
 * release and trim, access, and the memfd a shareable pool lives in. The
 * entries of driver/pool.c check their arguments and call it; /cu/pools
 * (outward/ctl_pool.c) reads it; memory.c and pointer.c ask it about a
 * block.
 *
 * Locking: every function here runs with cuemu_lock() held unless its
 * comment says otherwise.
 */
#ifndef CUEMU_MODEL_POOL_H
#define CUEMU_MODEL_POOL_H

#include "model/internal.h"

/* The largest maxSize a pool may have: the address space it could need. */
#define CUEMU_POOL_MAX_SIZE (1ULL << 48)

/* ---------------------------------------------------------------- pools */

/* h when it is a live pool of the process, else NULL: a destroyed or
 * unknown handle is refused, never dereferenced. */
CUmemoryPool cuemu_pool_live(CUmemoryPool h);
CUmemoryPool cuemu_pool_by_id(uint64_t id);
/* The live pools in turn: NULL gives the first, the last gives NULL. */
CUmemoryPool cuemu_pool_next(CUmemoryPool p);

const CUmemPoolProps *cuemu_pool_props(CUmemoryPool p);
int cuemu_pool_device(CUmemoryPool p);   /* owning GPU, -1 for the host */
bool cuemu_pool_is_default(CUmemoryPool p);
bool cuemu_pool_imported(CUmemoryPool p);

/* Makes a pool from properties the caller checked. */
CUresult cuemu_pool_create(const CUmemPoolProps *props, CUmemoryPool *out);
/* Destroys a live pool that is not a default one; its memory goes back
 * once no block is live and no stream may still use a freed one. */
void cuemu_pool_destroy(CUmemoryPool p);

/* The pool of a managed allocation that a managed pool handed out, or
 * NULL (pool_managed.c). */
CUmemoryPool cuemu_pool_of_managed(struct cuemu_alloc *a);
/* A managed pool block's chunk: its base and reserved span (false for
 * any other allocation). */
bool cuemu_pool_managed_chunk(struct cuemu_alloc *a, uintptr_t *base,
			      size_t *size);
/* A default pool for props (a location's, made by pool_loc.c on first
 * use): like cuemu_pool_create, but it cannot be destroyed. */
CUresult cuemu_pool_create_default(const CUmemPoolProps *props,
				   CUmemoryPool *out);

/* A location's default and current pool for an allocation type (CUDA 13,
 * pool_loc.c). loc, checked by the caller, is a device, the host, a host
 * NUMA node, or (managed only) NONE; the host's id does not matter. A
 * device's pinned pools are the ones below. */
CUresult cuemu_pool_loc_default(const CUmemLocation *loc,
				CUmemAllocationType type, CUmemoryPool *out);
CUresult cuemu_pool_loc_current(const CUmemLocation *loc,
				CUmemAllocationType type, CUmemoryPool *out);
/* p is a live pool, not imported, that cuemu_pool_loc_fits. */
void cuemu_pool_loc_set(const CUmemLocation *loc, CUmemAllocationType type,
			CUmemoryPool p);
/* p hands out type memory at loc. */
bool cuemu_pool_loc_fits(CUmemoryPool p, const CUmemLocation *loc,
			 CUmemAllocationType type);

/* Each device's default pool (made on first use) and its current pool
 * (the default one unless set). dev is a valid device. */
CUresult cuemu_pool_default(int dev, CUmemoryPool *out);
CUresult cuemu_pool_current(int dev, CUmemoryPool *out);
/* p is a live pool of dev, not imported. */
void cuemu_pool_set_current(int dev, CUmemoryPool p);

/* cuMemPoolGetAttribute and SetAttribute on a live pool; INVALID_VALUE for
 * what the pool does not answer or cannot take. */
CUresult cuemu_pool_get_attr(CUmemoryPool p, CUmemPool_attribute attr,
			     void *value);
CUresult cuemu_pool_set_attr(CUmemoryPool p, CUmemPool_attribute attr,
			     void *value);
/* Releases what no block uses while p holds more than keep bytes, never
 * below keep (p is not imported). */
void cuemu_pool_trim(CUmemoryPool p, uint64_t keep);

/* Access of device dev to p's memory; descriptors the caller checked. */
CUmemAccess_flags cuemu_pool_access(CUmemoryPool p, int dev);
void cuemu_pool_set_access(CUmemoryPool p, const CUmemAccessDesc *map,
			   size_t count);

/* ---------------------------------------------------------------- blocks */

/* Allocates size (> 0) bytes from p (not imported) in the order of s. */
CUresult cuemu_pool_block_alloc(CUmemoryPool p, CUstream s, size_t size,
				CUcontext ctx, CUdeviceptr *out);
/* The pool block that starts at dptr, or NULL. */
struct cuemu_alloc *cuemu_pool_block_at(CUdeviceptr dptr);
/* Whether addr lies in a pool block freed in stream order whose free has
 * not run yet (a kernel queued before the free still reaches it), and
 * then the pool's device (CUEMU_PROC_HOST for a host pool) in *dev. The
 * process lock held. */
bool cuemu_pool_pending_at(uintptr_t addr, int *dev);
/* Frees block a, ordered after the last operation of s, or at once (s
 * NULL). */
void cuemu_pool_block_free(struct cuemu_alloc *a, CUstream s);
/* The live blocks of p in turn (their address-map entries): NULL gives the
 * first, the last gives NULL. */
struct cuemu_alloc *cuemu_pool_block_next(CUmemoryPool p,
					  struct cuemu_alloc *a);

/* memory.c's cuMemFree of a pool block: frees it at once. Takes the lock. */
CUresult cuemu_pool_free_now(struct cuemu_alloc *a);
/* The pool a block came from (CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE). */
CUmemoryPool cuemu_pool_of(struct cuemu_alloc *a);
/* The reserved chunk that holds block a, which the driver maps it with
 * (CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR and _SIZE): false for an
 * imported block, which holds no chunk. Lock held. */
bool cuemu_pool_block_chunk(struct cuemu_alloc *a, uintptr_t *base,
			    size_t *size);
uint64_t cuemu_pool_id(CUmemoryPool p); /* its /cu/pools id; 0 for NULL */
/* Gives memory back down to each pool's release threshold: the host-sync
 * hook pool.c registers. Takes the lock. */
void cuemu_pool_on_sync(void);

/* ---------------------------------------------------------------- IPC */

/* A new descriptor of p's memfd (p shareable through POSIX descriptors,
 * not imported). */
CUresult cuemu_pool_export_fd(CUmemoryPool p, int *out);
/* What pool an exported descriptor is: its properties and its uid, which
 * its pointers carry. UNKNOWN when fd is no exported pool. No lock needed. */
CUresult cuemu_pool_read_fd(int fd, CUmemPoolProps *props, uint64_t *uid);
/* Makes the importer's pool over fd (read by cuemu_pool_read_fd). */
CUresult cuemu_pool_import(int fd, const CUmemPoolProps *props, uint64_t uid,
			   CUmemoryPool *out);
/* Fills the export data of block a; INVALID_VALUE when its pool is not
 * shareable. */
CUresult cuemu_pool_export_ptr(struct cuemu_alloc *a,
			       CUmemPoolPtrExportData *out);
/* Maps the block data describes into imported pool p; INVALID_VALUE when
 * data is not of p. */
CUresult cuemu_pool_import_ptr(CUmemoryPool p,
			       const CUmemPoolPtrExportData *data,
			       CUcontext ctx, CUdeviceptr *out);

/* ---------------------------------------------------------------- /cu/pools */

/* One moment of a pool, as /cu/pools/<id> shows it. */
struct cuemu_pool_view {
	uint64_t id;
	CUmemLocation location;
	int dev;                 /* owning GPU, -1 for the host */
	CUmemAllocationHandleType handle_types;
	uint64_t max_size, threshold;
	int reuse_follow, reuse_opportunistic, reuse_internal;
	uint64_t reserved, reserved_high, used, used_high;
	CUmemAccess_flags access[CUEMU_MAX_DEVICES];
	bool is_default, imported;
	bool managed;            /* hands out managed memory */
};
void cuemu_pool_view(CUmemoryPool p, struct cuemu_pool_view *v);

#endif
