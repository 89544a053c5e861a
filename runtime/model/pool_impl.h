/*
 * pool_impl.h - what the files of the allocator's model share and
 * nobody else sees: a pool, its arenas and their runs (pool.c), the
 * registry every file of it builds on (pool_reg.c), and the hooks pool.c
 * calls in pool_ipc.c, which shares a pool's memory with another process,
 * and pool_managed.c. Everything outside model/pool*.c goes through
 * model/pool.h. The sizes the comments name (POOL_ALIGN, POOL_GRANULE)
 * are pool.c's.
 *
 * Locking: as pool.h; all of it is guarded by cuemu_lock().
 */
#ifndef CUEMU_MODEL_POOL_IMPL_H
#define CUEMU_MODEL_POOL_IMPL_H

#include "model/pool.h"

#include <sys/queue.h>

enum seg_state {
	SEG_CLEAN,   /* free, no stream may still be using it */
	SEG_PENDING, /* freed at freed_at, which may not have run yet */
	SEG_USED,    /* a live block */
};

/* A run of an arena: a live block, or free memory. Free runs of the same
 * kind (clean, or pending on the same stream) are always merged. */
struct seg {
	struct cuemu_alloc a;          /* the block's address-map entry (used) */
	TAILQ_ENTRY(seg) adj;          /* the arena's runs, by address */
	TAILQ_ENTRY(seg) lnode;        /* the pool's live or pending list */
	RB_ENTRY(seg) fnode;           /* the pool's free tree (not used) */
	struct CUmemPoolHandle_st *pool;
	struct arena *arena;           /* NULL for an imported block */
	uintptr_t addr;
	size_t len;                    /* bytes, a multiple of POOL_ALIGN */
	enum seg_state state;
	struct cuemu_spos freed_at;    /* pending: the free's position */
	void *map;                     /* imported block: its own mapping */
	size_t maplen;
};
TAILQ_HEAD(seg_list, seg);
RB_HEAD(free_tree, seg);

struct arena {
	struct seg_list segs;
	LIST_ENTRY(arena) node;
	uintptr_t base;
	size_t size;                   /* a multiple of POOL_GRANULE */
	uint64_t file_off;             /* where it lies in the pool's memfd */
	uint8_t *committed;            /* one flag a granule (32 MiB) */
};

/* A block of a managed pool (pool_managed.c): a managed allocation of
 * its own (kind MANAGED, with the range model), live or kept freed for
 * reuse until the pool releases it. */
struct mblock {
	TAILQ_ENTRY(mblock) node;
	struct cuemu_alloc *a;
	struct cuemu_spos freed_at;    /* kept: the free's position */
	uint64_t reserved;             /* what it counts in the pool's reserve */
};
TAILQ_HEAD(mblock_list, mblock);

struct CUmemPoolHandle_st {
	LIST_ENTRY(CUmemPoolHandle_st) node;
	uint64_t id;                   /* /cu/pools/<id> */
	uint64_t uid;                  /* shared with importers */
	CUmemPoolProps props;
	int dev;                       /* owning GPU, -1 for a host pool */
	bool is_default, imported, destroyed;
	uint64_t max_size, threshold;
	int reuse_follow, reuse_opportunistic, reuse_internal;
	uint64_t reserved, reserved_high, used, used_high;
	CUmemAccess_flags access[CUEMU_MAX_DEVICES];
	struct free_tree free;
	struct seg_list pending, live;
	size_t nlive;
	LIST_HEAD(, arena) arenas;
	int fd;                        /* memfd of a shareable pool, or -1 */
	uint64_t file_end;             /* the memfd's size */
	struct mblock_list mlive, mkept; /* a managed pool's blocks */
};

/* pool_reg.c: a new pool struct for props (no memory yet, not listed
 * yet); the listing of a pool among the process's live pools; block g's
 * address-map entry, filled for the size its caller asked. */
CUmemoryPool cuemu_pool_alloc_struct(const CUmemPoolProps *props);
void cuemu_pool_add(CUmemoryPool p);
void cuemu_pool_fill_alloc(struct seg *g, size_t size, CUcontext ctx);

/* pool_reg.c's counts: bytes used and reserved change by delta, and the
 * next host synchronization has something to release (taken, and
 * cleared, by that synchronization). */
void cuemu_pool_note_used(CUmemoryPool p, int64_t delta);
void cuemu_pool_note_reserved(CUmemoryPool p, int64_t delta);
void cuemu_pool_note_sync_work(void);
bool cuemu_pool_take_sync_work(void);

/* pool_managed.c: a managed pool (allocType MANAGED) hands out managed
 * allocations, one a block, each a range model of its own; pool.c's
 * allocation, free, release and listing call these for such a pool. */
bool cuemu_pool_is_managed(CUmemoryPool p);
CUresult pm_alloc(CUmemoryPool p, CUstream s, size_t size, CUdeviceptr *out);
void pm_free(CUmemoryPool p, struct cuemu_alloc *a, CUstream s);
/* Releases kept blocks whose free ran while p holds more than keep (never
 * below it with floor); the bytes released. */
uint64_t pm_release(CUmemoryPool p, uint64_t keep, bool floor);
/* Is any kept block's free still to run? */
bool pm_pending(CUmemoryPool p);
struct cuemu_alloc *pm_block_next(CUmemoryPool p, struct cuemu_alloc *a);

/* pool_ipc.c: gives a new pool of shareable props its memfd (0, or -1 with
 * errno), and unmaps an imported block that is freed. */
int cuemu_pool_memfd(CUmemoryPool p);
void cuemu_pool_unmap_imported(CUmemoryPool p, struct seg *g);

#endif
