/*
 * pool_impl.h - what the two files of the allocator's model share and
 * nobody else sees: a pool, its arenas and their runs (pool.c), and the
 * hooks between pool.c and pool_ipc.c, which shares a pool's memory with
 * another process. Everything outside model/pool*.c goes through
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
};

/* pool.c: a new pool struct for props (no memory yet, not listed yet);
 * the listing of a pool among the process's live pools; block g's
 * address-map entry, filled for the size its caller asked. */
CUmemoryPool cuemu_pool_alloc_struct(const CUmemPoolProps *props);
void cuemu_pool_add(CUmemoryPool p);
void cuemu_pool_fill_alloc(struct seg *g, size_t size, CUcontext ctx);

/* pool_ipc.c: gives a new pool of shareable props its memfd (0, or -1 with
 * errno), and unmaps an imported block that is freed. */
int cuemu_pool_memfd(CUmemoryPool p);
void cuemu_pool_unmap_imported(CUmemoryPool p, struct seg *g);

#endif
