/*
 * pool.c - the stream-ordered allocator: memory pools (each device's
 * default pool, created pools, pools imported from another process), the
 * granules of backing memory a pool reserves from its location, the blocks it
 * sub-allocates from them, the rules for reusing a freed block across
 * streams, release down to the threshold when the host synchronizes, trim,
 * access, IPC through one memfd per shareable pool, the cuMem*Async and
 * cuMemPool* calls with their cuda* twins, and /cu/pools.
 *
 * Model: allocation and free are stream operations, but as in the real
 * allocator their bookkeeping happens when they are enqueued. A free records
 * the stream position it is ordered after (stream.c's cuemu_spos); a later
 * allocation decides from that position whether it may reuse the block at
 * once, only with an inserted wait, or not at all.
 *
 * Locking: every pool, arena and block is guarded by cuemu_lock(). Entry
 * points resolve streams and contexts before taking it; under it they call
 * only stream.c's position queries and cuemu_stream_wait_pos (stream locks
 * come after the process lock) and never wait for a stream.
 */
#include "model/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/queue.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/* Backing memory is reserved and released in granules of this size, as the
 * real driver does (32 MiB: RESERVED_MEM_CURRENT moves by it). */
#define POOL_GRANULE (32UL << 20)
/* A pool's addresses come from arenas: contiguous reservations of address
 * space, granule-aligned, that backing is committed into. A block may span
 * granules, so a 33 MiB block after 3 MiB in use costs one granule more,
 * not a chunk of its own (what the driver reports). Arenas are modest so
 * that many pools fit a process's address space (and valgrind's). */
#define POOL_ARENA (1UL << 30)
/* The largest maxSize a pool may have: the address space it could need. */
#define POOL_MAX_SIZE (1ULL << 48)
/* Blocks are carved at this alignment (the driver's: 1000 bytes take 1024). */
#define POOL_ALIGN 512UL
/* In a shareable pool's memfd the header comes first, arenas after it. */
#define POOL_FD_DATA CUEMU_GRANULARITY
#define POOL_MAGIC 0x6c6f6f70756d6563ULL /* "cemupool" */
#define PTR_MAGIC 0x7274707570756d65ULL  /* "emupuptr" */

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

/* What a shareable pool's memfd starts with: how an importer learns what
 * pool the descriptor is. */
struct fd_header {
	uint64_t magic;
	uint64_t uid;
	int32_t loc_type, loc_id;
	uint64_t max_size;
	uint64_t handle_types;
};

/* CUmemPoolPtrExportData's 64 bytes. */
struct ptr_export {
	uint64_t magic;
	uint64_t uid;
	uint64_t off;                  /* in the memfd */
	uint64_t size;                 /* what the exporter asked for */
	uint64_t len;
	uint64_t id;                   /* the exporter's allocation id */
	uint64_t spare[2];
};
_Static_assert(sizeof(struct ptr_export) <= sizeof(CUmemPoolPtrExportData),
	       "export data fits the API's 64 bytes");

static int cmp_free(struct seg *a, struct seg *b)
{
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* libbsd's RB_GENERATE_STATIC relies on a __unused it leaves undefined on
 * Linux; spell the attribute out (as vaspace.c does). */
#define POOL_STATIC __attribute__((unused)) static
RB_GENERATE_INTERNAL(free_tree, seg, fnode, cmp_free, POOL_STATIC)

/* The process's pools: each process has its own allocator, as each CUDA
 * context has. Guarded by cuemu_lock(). current_pool[d] NULL means the
 * default pool, which is made on first use. */
static LIST_HEAD(, CUmemPoolHandle_st) pools = LIST_HEAD_INITIALIZER(pools);
/* Destroyed pools whose last frees have not run yet: their memory goes back
 * once the streams are past them (checked on synchronization). */
static LIST_HEAD(, CUmemPoolHandle_st) dying = LIST_HEAD_INITIALIZER(dying);
static CUmemoryPool default_pool[CUEMU_MAX_DEVICES];
static CUmemoryPool current_pool[CUEMU_MAX_DEVICES];

/* ---------------------------------------------------------------- helpers */

static bool dev_valid(int dev)
{
	return dev >= 0 && dev < cuemu_device_count();
}

static const char *pool_loc(CUmemoryPool p, char *buf, size_t len)
{
	return cuemu_loc_str(p->props.location, buf, len);
}

/* The pool behind a handle the caller passed, or NULL: a destroyed or
 * unknown handle is refused, never dereferenced. Lock held. */
static CUmemoryPool live_pool(CUmemoryPool h)
{
	CUmemoryPool p;

	if (!h)
		return NULL;
	LIST_FOREACH(p, &pools, node)
		if (p == h)
			return p;
	return NULL;
}

static CUmemoryPool pool_by_id(uint64_t id)
{
	CUmemoryPool p;

	LIST_FOREACH(p, &pools, node)
		if (p->id == id)
			return p;
	return NULL;
}

static void note_reserved(CUmemoryPool p, int64_t delta)
{
	p->reserved += delta;
	if (p->reserved > p->reserved_high)
		p->reserved_high = p->reserved;
}

static void note_used(CUmemoryPool p, int64_t delta)
{
	p->used += delta;
	if (p->used > p->used_high)
		p->used_high = p->used;
}

/* maxSize bounds what is reserved, counted in whole granules: a pool of
 * maxSize 1000 still holds one (as the driver's does). */
static uint64_t reserve_limit(CUmemoryPool p)
{
	return CUEMU_ALIGN_UP(p->max_size, POOL_GRANULE);
}

/* ---------------------------------------------------------------- backing */

static bool charge(CUmemoryPool p, size_t len)
{
	return p->dev < 0 || cuemu_mem_charge_evicting(p->dev, len);
}

static void uncharge(CUmemoryPool p, size_t len)
{
	if (p->dev >= 0)
		cuemu_mem_uncharge(p->dev, len);
}

static void place_on_node(CUmemoryPool p, void *addr, size_t len)
{
	if (p->props.location.type != CU_MEM_LOCATION_TYPE_HOST_NUMA)
		return;
	if (numa_available() < 0)
		return; /* no NUMA support in this kernel: one node anyway */
	numa_tonode_memory(addr, len, p->props.location.id);
}

/* Backs granule i of arena a: shared pages of the memfd for a shareable
 * pool, else anonymous ones. */
static bool granule_map(CUmemoryPool p, struct arena *a, size_t i)
{
	void *at = (void *)(a->base + i * POOL_GRANULE);
	void *m;

	if (p->fd >= 0) {
		m = mmap(at, POOL_GRANULE, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_FIXED, p->fd,
			 (off_t)(a->file_off + i * POOL_GRANULE));
		if (m == MAP_FAILED)
			return false;
	} else if (mprotect(at, POOL_GRANULE, PROT_READ | PROT_WRITE) < 0) {
		return false;
	}
	place_on_node(p, at, POOL_GRANULE);
	return true;
}

/* Gives granule i's pages back and leaves its addresses reserved. */
static void granule_unmap(CUmemoryPool p, struct arena *a, size_t i)
{
	void *at = (void *)(a->base + i * POOL_GRANULE);

	if (mmap(at, POOL_GRANULE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
		 MAP_NORESERVE | MAP_FIXED, -1, 0) == MAP_FAILED)
		cuemu_debug("pool %llu: unmap: %s", (unsigned long long)p->id,
			    strerror(errno));
	if (p->fd >= 0 &&
	    fallocate(p->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		      (off_t)(a->file_off + i * POOL_GRANULE), POOL_GRANULE) < 0)
		cuemu_debug("pool %llu: punch hole: %s",
			    (unsigned long long)p->id, strerror(errno));
}

/* committed[] values: a granule backed before this commit, or by it (so
 * that a failed commit undoes only its own). */
#define GRANULE_BACKED 1
#define GRANULE_NEW 2

static bool commit_one(CUmemoryPool p, struct arena *a, size_t i)
{
	if (p->reserved + POOL_GRANULE > reserve_limit(p) ||
	    !charge(p, POOL_GRANULE))
		return false;
	if (!granule_map(p, a, i)) {
		uncharge(p, POOL_GRANULE);
		return false;
	}
	a->committed[i] = GRANULE_NEW;
	note_reserved(p, (int64_t)POOL_GRANULE);
	return true;
}

static void decommit_one(CUmemoryPool p, struct arena *a, size_t i)
{
	granule_unmap(p, a, i);
	a->committed[i] = 0;
	uncharge(p, POOL_GRANULE);
	note_reserved(p, -(int64_t)POOL_GRANULE);
}

/* Backs every granule that [addr, addr+len) of arena a touches; all or
 * nothing. false when maxSize or the device does not allow it. */
static bool commit(CUmemoryPool p, struct arena *a, uintptr_t addr, size_t len)
{
	size_t first = (addr - a->base) / POOL_GRANULE;
	size_t last = (addr + len - 1 - a->base) / POOL_GRANULE;
	uint64_t before = p->reserved;
	bool ok = true;

	for (size_t i = first; i <= last && ok; i++)
		ok = a->committed[i] || commit_one(p, a, i);
	for (size_t i = first; i <= last; i++) {
		if (a->committed[i] != GRANULE_NEW)
			continue;
		if (ok)
			a->committed[i] = GRANULE_BACKED;
		else
			decommit_one(p, a, i);
	}
	if (!ok)
		return false;
	if (p->reserved > before)
		cuemu_event_log("pool_grow", "pool=%llu reserved=%llu",
				(unsigned long long)p->id,
				(unsigned long long)p->reserved);
	return true;
}

/* Reserves address space for at least need bytes (no backing yet) and
 * returns its one clean run, or NULL. */
static struct seg *arena_new(CUmemoryPool p, size_t need)
{
	size_t size = CUEMU_ALIGN_UP(need, POOL_GRANULE);
	size_t cap = reserve_limit(p) < POOL_ARENA ? reserve_limit(p) : POOL_ARENA;
	struct arena *a;
	struct seg *g;
	uintptr_t m, base;

	if (size < cap)
		size = cap;
	/* Over-reserve by a granule to align the arena to one. */
	m = (uintptr_t)mmap(NULL, size + POOL_GRANULE, PROT_NONE, MAP_PRIVATE |
			    MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if ((void *)m == MAP_FAILED)
		return NULL;
	base = CUEMU_ALIGN_UP(m, POOL_GRANULE);
	if (base > m)
		munmap((void *)m, base - m);
	if (m + POOL_GRANULE > base)
		munmap((void *)(base + size), m + POOL_GRANULE - base);
	a = calloc(1, sizeof *a);
	g = calloc(1, sizeof *g);
	if (a)
		a->committed = calloc(size / POOL_GRANULE, 1);
	if (!a || !g || !a->committed ||
	    (p->fd >= 0 && ftruncate(p->fd, (off_t)(p->file_end + size)) < 0)) {
		if (a)
			free(a->committed);
		free(a);
		free(g);
		munmap((void *)base, size);
		return NULL;
	}
	a->base = base;
	a->size = size;
	a->file_off = p->file_end;
	if (p->fd >= 0)
		p->file_end += size;
	TAILQ_INIT(&a->segs);
	LIST_INSERT_HEAD(&p->arenas, a, node);
	g->pool = p;
	g->arena = a;
	g->addr = base;
	g->len = size;
	g->state = SEG_CLEAN;
	TAILQ_INSERT_TAIL(&a->segs, g, adj);
	RB_INSERT(free_tree, &p->free, g);
	return g;
}

/* ---------------------------------------------------------------- runs */

static bool same_kind(const struct seg *a, const struct seg *b)
{
	if (a->state == SEG_USED || b->state == SEG_USED || a->state != b->state)
		return false;
	return a->state == SEG_CLEAN || a->freed_at.stream == b->freed_at.stream;
}

/* Merges b (right after a) into a; both are free runs in the tree. */
static void merge_into(CUmemoryPool p, struct seg *a, struct seg *b)
{
	RB_REMOVE(free_tree, &p->free, a);
	RB_REMOVE(free_tree, &p->free, b);
	a->len += b->len;
	if (b->state == SEG_PENDING) {
		/* Same stream: the later free covers the earlier. */
		if (b->freed_at.seq > a->freed_at.seq)
			a->freed_at = b->freed_at;
		TAILQ_REMOVE(&p->pending, b, lnode);
	}
	TAILQ_REMOVE(&b->arena->segs, b, adj);
	free(b);
	RB_INSERT(free_tree, &p->free, a);
}

static void coalesce(CUmemoryPool p, struct seg *g)
{
	struct seg *n = TAILQ_NEXT(g, adj);
	struct seg *v = TAILQ_PREV(g, seg_list, adj);

	if (n && same_kind(g, n))
		merge_into(p, g, n);
	if (v && same_kind(v, g))
		merge_into(p, v, g);
}

/* Turns free run g into a live block of len bytes, backing it first and
 * leaving the rest of the run free in the state it had. false (nothing
 * changed) when out of memory or past maxSize. */
static bool take(CUmemoryPool p, struct seg *g, size_t len)
{
	struct seg *r = NULL;

	if (g->len > len && !(r = calloc(1, sizeof *r)))
		return false;
	if (!commit(p, g->arena, g->addr, len)) {
		free(r);
		return false;
	}
	RB_REMOVE(free_tree, &p->free, g);
	if (g->state == SEG_PENDING)
		TAILQ_REMOVE(&p->pending, g, lnode);
	if (r) {
		r->pool = p;
		r->arena = g->arena;
		r->addr = g->addr + len;
		r->len = g->len - len;
		r->state = g->state;
		r->freed_at = g->freed_at;
		TAILQ_INSERT_AFTER(&g->arena->segs, g, r, adj);
		RB_INSERT(free_tree, &p->free, r);
		if (r->state == SEG_PENDING)
			TAILQ_INSERT_TAIL(&p->pending, r, lnode);
		g->len = len;
	}
	g->state = SEG_USED;
	TAILQ_INSERT_TAIL(&p->live, g, lnode);
	p->nlive++;
	return true;
}

/* Pending runs whose free has run become clean: the host has seen them
 * complete (this runs on synchronization and trim). */
static void settle(CUmemoryPool p)
{
	struct seg *g, *t;

	TAILQ_FOREACH_SAFE(g, &p->pending, lnode, t) {
		if (!cuemu_spos_done(g->freed_at))
			continue;
		TAILQ_REMOVE(&p->pending, g, lnode);
		g->state = SEG_CLEAN;
		/* Only clean neighbours merge with it, so t survives. */
		coalesce(p, g);
	}
}

/* Releases backed granules that lie wholly in clean free runs while the
 * pool holds more than keep bytes. With floor, never below keep (TrimTo);
 * without, down to keep or under it (the release threshold: the driver
 * frees a granule that crosses it). Returns the bytes released. */
static uint64_t release(CUmemoryPool p, uint64_t keep, bool floor)
{
	uint64_t before;
	struct seg *g;

	settle(p);
	before = p->reserved;
	RB_FOREACH(g, free_tree, &p->free) {
		struct arena *a = g->arena;
		size_t i = (CUEMU_ALIGN_UP(g->addr, POOL_GRANULE) - a->base) /
			   POOL_GRANULE;
		size_t end = (CUEMU_ALIGN_DOWN(g->addr + g->len, POOL_GRANULE) -
			      a->base) / POOL_GRANULE;

		if (g->state != SEG_CLEAN)
			continue;
		for (; i < end; i++) {
			if (p->reserved <= keep ||
			    (floor && p->reserved - POOL_GRANULE < keep))
				goto out;
			if (a->committed[i])
				decommit_one(p, a, i);
		}
	}
out:
	if (p->reserved < before)
		cuemu_event_log("pool_release", "pool=%llu released=%llu "
				"reserved=%llu", (unsigned long long)p->id,
				(unsigned long long)(before - p->reserved),
				(unsigned long long)p->reserved);
	return before - p->reserved;
}

/* ---------------------------------------------------------------- pools */

static uint64_t default_max(const CUmemLocation *loc)
{
	switch (loc->type) {
	case CU_MEM_LOCATION_TYPE_HOST_NUMA:
		return cuemu_numa_total(loc->id);
	case CU_MEM_LOCATION_TYPE_HOST:
		return (uint64_t)sysconf(_SC_PHYS_PAGES) * CUEMU_PAGE;
	default:
		return cuemu_device(loc->id)->total;
	}
}

static uint64_t new_uid(CUmemoryPool p)
{
	uint64_t u = 0;

	if (getrandom(&u, sizeof u, 0) != (ssize_t)sizeof u || !u)
		u = p->id ^ ((uint64_t)getpid() << 40);
	return u;
}

/* Backs a shareable pool with one sparse memfd: arenas are ranges of it, so
 * the exported descriptor maps the same bytes in another process. */
static int make_memfd(CUmemoryPool p)
{
	struct fd_header h = {
		.magic = POOL_MAGIC, .uid = p->uid,
		.loc_type = p->props.location.type,
		.loc_id = p->props.location.id,
		.max_size = p->max_size,
		.handle_types = p->props.handleTypes,
	};

	p->fd = memfd_create("cuemu-pool", MFD_CLOEXEC);
	if (p->fd < 0)
		return -1;
	p->file_end = POOL_FD_DATA;
	if (ftruncate(p->fd, (off_t)p->file_end) < 0 ||
	    pwrite(p->fd, &h, sizeof h, 0) != (ssize_t)sizeof h) {
		close(p->fd);
		p->fd = -1;
		return -1;
	}
	return 0;
}

static void access_defaults(CUmemoryPool p)
{
	for (int d = 0; d < CUEMU_MAX_DEVICES; d++)
		p->access[d] = d == p->dev ? CU_MEM_ACCESS_FLAGS_PROT_READWRITE :
			       CU_MEM_ACCESS_FLAGS_PROT_NONE;
}

static CUmemoryPool pool_alloc_struct(const CUmemPoolProps *props)
{
	CUmemoryPool p = calloc(1, sizeof *p);

	if (!p)
		return NULL;
	p->id = cuemu_next_id();
	p->uid = new_uid(p);
	p->props = *props;
	p->dev = props->location.type == CU_MEM_LOCATION_TYPE_DEVICE ?
		 props->location.id : -1;
	p->max_size = props->maxSize ? props->maxSize :
		      default_max(&props->location);
	p->reuse_follow = p->reuse_opportunistic = p->reuse_internal = 1;
	p->fd = -1;
	RB_INIT(&p->free);
	TAILQ_INIT(&p->pending);
	TAILQ_INIT(&p->live);
	LIST_INIT(&p->arenas);
	access_defaults(p);
	return p;
}

/* Makes a pool from validated properties. Lock held. */
static CUresult pool_new(const CUmemPoolProps *props, bool is_default,
			 CUmemoryPool *out)
{
	CUmemoryPool p = pool_alloc_struct(props);
	char loc[32];

	if (!p)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "no memory for a pool");
	p->is_default = is_default;
	if ((props->handleTypes & CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) &&
	    make_memfd(p) < 0) {
		free(p);
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "cannot make the pool's memfd: %s", strerror(errno));
	}
	LIST_INSERT_HEAD(&pools, p, node);
	cuemu_event_log("pool_create", "pool=%llu location=%s max_size=%llu%s",
			(unsigned long long)p->id, pool_loc(p, loc, sizeof loc),
			(unsigned long long)p->max_size,
			is_default ? " default" : "");
	*out = p;
	return CUDA_SUCCESS;
}

/* Each device's default pool, made on first use. Lock held. */
static CUresult default_of(int dev, CUmemoryPool *out)
{
	CUmemPoolProps props = {
		.allocType = CU_MEM_ALLOCATION_TYPE_PINNED,
		.handleTypes = CU_MEM_HANDLE_TYPE_NONE,
		.location = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = dev },
	};
	CUresult r = CUDA_SUCCESS;

	if (!default_pool[dev])
		r = pool_new(&props, true, &default_pool[dev]);
	*out = default_pool[dev];
	return r;
}

static CUresult current_of(int dev, CUmemoryPool *out)
{
	if (current_pool[dev]) {
		*out = current_pool[dev];
		return CUDA_SUCCESS;
	}
	return default_of(dev, out);
}

/* Frees what is left of a destroyed pool. */
static void pool_finish(CUmemoryPool p)
{
	struct arena *a;
	struct seg *g;

	while ((a = LIST_FIRST(&p->arenas))) {
		while ((g = TAILQ_FIRST(&a->segs))) {
			TAILQ_REMOVE(&a->segs, g, adj);
			free(g);
		}
		LIST_REMOVE(a, node);
		munmap((void *)a->base, a->size);
		free(a->committed);
		free(a);
	}
	uncharge(p, p->reserved);
	if (p->fd >= 0)
		close(p->fd);
	free(p);
}

/* A destroyed pool ends once no block is live and no stream may still use
 * a freed one; until then it waits on the dying list. Lock held; p is not
 * on the live list. */
static void maybe_finish(CUmemoryPool p, bool listed)
{
	if (p->nlive)
		return;
	settle(p);
	if (!TAILQ_EMPTY(&p->pending)) {
		if (!listed)
			LIST_INSERT_HEAD(&dying, p, node);
		return;
	}
	if (listed)
		LIST_REMOVE(p, node);
	pool_finish(p);
}

/* ---------------------------------------------------------------- blocks */

enum reuse { REUSE_NO, REUSE_NOW, REUSE_WAIT };

/* May an allocation on s (whose last operation is at here) take free run
 * g, and at what price? */
static enum reuse reuse_of(CUmemoryPool p, CUstream s, struct cuemu_spos here,
			   const struct seg *g)
{
	if (g->state == SEG_CLEAN || g->freed_at.stream == here.stream)
		return REUSE_NOW;
	if (p->reuse_follow && cuemu_stream_follows(s, g->freed_at))
		return REUSE_NOW;
	if (p->reuse_opportunistic && cuemu_spos_done(g->freed_at))
		return REUSE_NOW;
	return p->reuse_internal ? REUSE_WAIT : REUSE_NO;
}

/* Is [addr, addr+len) of arena a backed already? */
static bool backed(const struct arena *a, uintptr_t addr, size_t len)
{
	size_t first = (addr - a->base) / POOL_GRANULE;
	size_t last = (addr + len - 1 - a->base) / POOL_GRANULE;

	for (size_t i = first; i <= last; i++)
		if (!a->committed[i])
			return false;
	return true;
}

/* The free runs of at least len bytes that s may use: *now the best one
 * usable at once (memory already backed first, then memory that grows the
 * pool; smallest first), *later the best one usable only behind an
 * inserted wait. The driver reuses across streams through event
 * dependencies and completed frees before it grows the pool, and inserts a
 * wait only when growing fails. */
static void find_free(CUmemoryPool p, CUstream s, size_t len,
		      struct seg **now, struct seg **later)
{
	struct seg key = { .len = len, .addr = 0 };
	struct seg *g, *grow = NULL, *later_unbacked = NULL;
	struct cuemu_spos here = { 0, 0 };

	*now = *later = NULL;
	if (s)
		here = cuemu_stream_pos(s);
	for (g = RB_NFIND(free_tree, &p->free, &key); g;
	     g = RB_NEXT(free_tree, &p->free, g)) {
		enum reuse r = s ? reuse_of(p, s, here, g) :
			       g->state == SEG_CLEAN ? REUSE_NOW : REUSE_NO;
		bool b;

		if (r == REUSE_NO)
			continue;
		b = backed(g->arena, g->addr, len);
		if (r == REUSE_NOW && b) {
			*now = g;
			break;
		}
		if (r == REUSE_NOW && !grow)
			grow = g;
		else if (r == REUSE_WAIT && b && !*later)
			*later = g;
		else if (r == REUSE_WAIT && !later_unbacked)
			later_unbacked = g;
	}
	if (!*now)
		*now = grow;
	if (!*later)
		*later = later_unbacked;
}

static void fill_alloc(struct seg *g, size_t size, CUcontext ctx)
{
	CUmemoryPool p = g->pool;

	memset(&g->a, 0, sizeof g->a);
	g->a.base = g->addr;
	g->a.size = size;
	g->a.span = g->len;
	g->a.kind = CUEMU_KIND_POOL;
	g->a.id = cuemu_next_id();
	g->a.device = p->dev >= 0 ? p->dev : CU_DEVICE_CPU;
	g->a.ctx = ctx;
	g->a.priv = g;
}

/* Finds a run for len bytes and makes it a block: reuse, else grow (new
 * backing, new address space), else reuse behind a wait when the pool
 * allows internal dependencies. Lock held. */
static struct seg *carve(CUmemoryPool p, CUstream s, size_t len, bool *wait)
{
	struct seg *g, *later;

	*wait = false;
	find_free(p, s, len, &g, &later);
	if (!g)
		g = arena_new(p, len);
	if (g && take(p, g, len))
		return g;
	if (later && take(p, later, len)) {
		*wait = true;
		return later;
	}
	return NULL;
}

/* Allocates size bytes from p in the order of s. Lock held. */
static CUresult block_alloc(CUmemoryPool p, CUstream s, size_t size,
			    CUcontext ctx, CUdeviceptr *out)
{
	size_t len = CUEMU_ALIGN_UP(size, POOL_ALIGN);
	bool wait = false;
	struct seg *g;

	if (len < size)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "size too large");
	g = carve(p, s, len, &wait);
	/* Out of room: what no block uses may make room. */
	if (!g && release(p, 0, true))
		g = carve(p, s, len, &wait);
	if (!g)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "pool %llu cannot hold %zu more bytes (reserved "
				  "%llu of at most %llu, or the device is full)",
				  (unsigned long long)p->id, size,
				  (unsigned long long)p->reserved,
				  (unsigned long long)reserve_limit(p));
	/* The run was freed on another stream whose free may not have run:
	 * order this stream after it (REUSE_ALLOW_INTERNAL_DEPENDENCIES). */
	if (wait && cuemu_stream_wait_pos(s, g->freed_at) != CUDA_SUCCESS)
		cuemu_debug("pool %llu: cannot order the stream after the free",
			    (unsigned long long)p->id);
	fill_alloc(g, size, ctx);
	if (cuemu_va_insert(&g->a) < 0)
		cuemu_debug("pool block %#lx overlaps the address map",
			    (unsigned long)g->addr);
	note_used(p, (int64_t)size);
	cuemu_event_log("pool_alloc", "pool=%llu alloc=%llu base=%#lx size=%zu",
			(unsigned long long)p->id, (unsigned long long)g->a.id,
			(unsigned long)g->addr, size);
	*out = (CUdeviceptr)g->addr;
	return CUDA_SUCCESS;
}

static void import_unmap(CUmemoryPool p, struct seg *g)
{
	munmap(g->map, g->maplen);
	TAILQ_REMOVE(&p->live, g, lnode);
	p->nlive--;
	free(g);
}

/* Frees block a: ordered after the last operation of s, or at once (s
 * NULL: cuMemFree). Lock held. */
static void block_free(struct cuemu_alloc *a, CUstream s)
{
	struct seg *g = a->priv;
	CUmemoryPool p = g->pool;

	cuemu_va_remove(a);
	cuemu_event_log("pool_free", "pool=%llu alloc=%llu base=%#lx",
			(unsigned long long)p->id, (unsigned long long)a->id,
			(unsigned long)a->base);
	if (!g->arena) {
		import_unmap(p, g);
	} else {
		TAILQ_REMOVE(&p->live, g, lnode);
		p->nlive--;
		note_used(p, -(int64_t)a->size);
		if (s) {
			g->state = SEG_PENDING;
			g->freed_at = cuemu_stream_pos(s);
			TAILQ_INSERT_TAIL(&p->pending, g, lnode);
		} else {
			g->state = SEG_CLEAN;
		}
		RB_INSERT(free_tree, &p->free, g);
		coalesce(p, g);
	}
	if (p->destroyed)
		maybe_finish(p, false);
}

/* The pool block that starts at dptr, or NULL. Lock held. */
static struct cuemu_alloc *block_at(CUdeviceptr dptr)
{
	struct cuemu_alloc *a = cuemu_va_find((uintptr_t)dptr);

	if (!a || a->kind != CUEMU_KIND_POOL || a->base != (uintptr_t)dptr)
		return NULL;
	return a;
}

CUresult cuemu_pool_free_now(struct cuemu_alloc *a)
{
	cuemu_lock();
	block_free(a, NULL);
	cuemu_unlock();
	return CUDA_SUCCESS;
}

CUmemoryPool cuemu_pool_of(struct cuemu_alloc *a)
{
	if (!a || a->kind != CUEMU_KIND_POOL)
		return NULL;
	return ((struct seg *)a->priv)->pool;
}

uint64_t cuemu_pool_id(CUmemoryPool p)
{
	return p ? p->id : 0;
}

void cuemu_pool_on_sync(void)
{
	CUmemoryPool p, t;

	cuemu_lock();
	LIST_FOREACH_SAFE(p, &dying, node, t)
		maybe_finish(p, true);
	LIST_FOREACH(p, &pools, node) {
		if (!p->imported && (p->reserved > p->threshold ||
				     !TAILQ_EMPTY(&p->pending)))
			release(p, p->threshold, false);
	}
	cuemu_unlock();
}

/* A host synchronization releases memory down to each pool's threshold. */
__attribute__((constructor)) static void pool_hook_sync(void)
{
	cuemu_on_host_sync(cuemu_pool_on_sync);
}

/* ---------------------------------------------------------------- the API: allocation */

/* Resolves the stream and context an allocation runs in. */
static CUresult stream_ctx(CUstream h, CUstream *s, CUcontext *ctx)
{
	CUresult r = cuemu_stream_get(h, s);

	if (r != CUDA_SUCCESS)
		return r;
	if (cuemu_current(ctx, NULL) != CUDA_SUCCESS)
		*ctx = NULL;
	return CUDA_SUCCESS;
}

/* The two async allocations differ only in their pool: the one named, or
 * (current true) the current pool of the stream's device. */
static CUresult alloc_async(CUdeviceptr *dptr, size_t bytesize,
			    CUmemoryPool pool, bool current, CUstream hStream)
{
	CUstream s;
	CUcontext ctx;
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!dptr)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL dptr");
	if ((r = stream_ctx(hStream, &s, &ctx)) != CUDA_SUCCESS)
		return r;
	if (!bytesize)
		return CUDA_SUCCESS; /* the driver's answer; *dptr untouched */
	cuemu_lock();
	if (current)
		r = current_of(cuemu_stream_device(s), &pool);
	else if (!live_pool(pool))
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE, "not a live pool");
	else if (pool->imported)
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			       "an imported pool cannot make new allocations");
	if (r == CUDA_SUCCESS)
		r = block_alloc(pool, s, bytesize, ctx, dptr);
	cuemu_unlock();
	return r;
}

CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize,
				 CUmemoryPool pool, CUstream hStream)
{
	return alloc_async(dptr, bytesize, pool, false, hStream);
}

CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
	return alloc_async(dptr, bytesize, NULL, true, hStream);
}

CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream)
{
	struct cuemu_alloc *a;
	CUstream s;
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if ((r = cuemu_stream_get(hStream, &s)) != CUDA_SUCCESS)
		return r;
	if (!dptr)
		return CUDA_SUCCESS; /* what a zero-byte allocation returned */
	cuemu_lock();
	a = cuemu_va_find((uintptr_t)dptr);
	if (a && a->kind == CUEMU_KIND_DEVICE && a->base == (uintptr_t)dptr) {
		/* The driver frees cuMemAlloc memory here too. */
		cuemu_unlock();
		return cuMemFree(dptr);
	}
	a = block_at(dptr);
	if (!a)
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			       "%#llx was not allocated from a pool",
			       (unsigned long long)dptr);
	else
		block_free(a, s);
	cuemu_unlock();
	return r;
}

/* ---------------------------------------------------------------- the API: pools */

static CUresult check_props(const CUmemPoolProps *pp)
{
	const CUmemLocation *l = &pp->location;

	if (pp->allocType != CU_MEM_ALLOCATION_TYPE_PINNED)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "allocType must be CU_MEM_ALLOCATION_TYPE_PINNED");
	if (l->type == CU_MEM_LOCATION_TYPE_DEVICE) {
		if (!dev_valid(l->id))
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "no device %d", l->id);
	} else if (l->type == CU_MEM_LOCATION_TYPE_HOST_NUMA) {
		if (!cuemu_numa_valid(l->id))
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "no host NUMA node %d", l->id);
	} else if (l->type != CU_MEM_LOCATION_TYPE_HOST) {
		/* HOST is accepted since CUDA 13; HOST_NUMA_CURRENT is not.
		 * The seed calls HOST cudaErrorInvalidValue; the probed
		 * driver (pool.create.host) accepts it, and it wins. */
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "a pool lives on a device, the host or a host "
				  "NUMA node");
	}
	/* Windows handles do not exist here; a fabric pool is made (the
	 * device reports fabric support) though it cannot be exported. */
	/* The driver reserves address space for maxSize when the pool is
	 * made: 1 PiB does not fit and is OUT_OF_MEMORY. */
	if (pp->maxSize > POOL_MAX_SIZE)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "maxSize is larger than the address space");
	if (pp->handleTypes & ~(unsigned)(CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR |
					   CU_MEM_HANDLE_TYPE_FABRIC))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "handle types are POSIX file descriptors or fabric");
	return CUDA_SUCCESS;
}

CUresult cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *poolProps)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!pool || !poolProps)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL argument");
	if ((r = check_props(poolProps)) != CUDA_SUCCESS)
		return r;
	cuemu_lock();
	r = pool_new(poolProps, false, pool);
	cuemu_unlock();
	return r;
}

CUresult cuMemPoolDestroy(CUmemoryPool pool)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	cuemu_lock();
	if (!live_pool(pool)) {
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE, "not a live pool");
	} else if (pool->is_default) {
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			       "a device's default pool cannot be destroyed");
	} else {
		for (int d = 0; d < CUEMU_MAX_DEVICES; d++)
			if (current_pool[d] == pool)
				current_pool[d] = NULL;
		LIST_REMOVE(pool, node);
		pool->destroyed = true;
		cuemu_event_log("pool_destroy", "pool=%llu live=%zu",
				(unsigned long long)pool->id, pool->nlive);
		maybe_finish(pool, false);
	}
	cuemu_unlock();
	return r;
}

static CUresult get_attr(CUmemoryPool p, CUmemPool_attribute attr, void *value)
{
	/* The importer holds none of the memory: the driver refuses to tell. */
	if (p->imported && attr >= CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "an imported pool has no memory counts");
	switch (attr) {
	case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
		*(int *)value = p->reuse_follow;
		break;
	case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
		*(int *)value = p->reuse_opportunistic;
		break;
	case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
		*(int *)value = p->reuse_internal;
		break;
	case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
		*(cuuint64_t *)value = p->threshold;
		break;
	case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT:
		*(cuuint64_t *)value = p->reserved;
		break;
	case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
		*(cuuint64_t *)value = p->reserved_high;
		break;
	case CU_MEMPOOL_ATTR_USED_MEM_CURRENT:
		*(cuuint64_t *)value = p->used;
		break;
	case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
		*(cuuint64_t *)value = p->used_high;
		break;
	default:
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "unknown pool attribute %d", (int)attr);
	}
	return CUDA_SUCCESS;
}

/* A high-water mark can only be reset, and a reset one starts again from
 * what the pool holds now. */
static CUresult reset_high(uint64_t v, uint64_t *high, uint64_t cur,
			   const char *what)
{
	if (v)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%s can only be reset to 0", what);
	*high = cur;
	return CUDA_SUCCESS;
}

static CUresult set_attr(CUmemoryPool p, CUmemPool_attribute attr, void *value)
{
	switch (attr) {
	case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
		p->reuse_follow = *(int *)value != 0;
		break;
	case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
		p->reuse_opportunistic = *(int *)value != 0;
		break;
	case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
		p->reuse_internal = *(int *)value != 0;
		break;
	case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
		p->threshold = *(cuuint64_t *)value;
		break;
	case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
		return reset_high(*(cuuint64_t *)value, &p->reserved_high,
				  p->reserved, "reserved_mem_high");
	case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
		return reset_high(*(cuuint64_t *)value, &p->used_high, p->used,
				  "used_mem_high");
	case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT:
	case CU_MEMPOOL_ATTR_USED_MEM_CURRENT:
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "a current value cannot be set");
	default:
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "unknown pool attribute %d", (int)attr);
	}
	return CUDA_SUCCESS;
}

/* Get and set differ only in what they do to a live pool's attribute. */
static CUresult pool_attr(CUmemoryPool pool, CUmemPool_attribute attr,
			  void *value,
			  CUresult (*op)(CUmemoryPool, CUmemPool_attribute, void *))
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!value)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL value");
	cuemu_lock();
	r = live_pool(pool) ? op(pool, attr, value) :
	    cuemu_fail(CUDA_ERROR_INVALID_VALUE, "not a live pool");
	cuemu_unlock();
	return r;
}

CUresult cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr,
			       void *value)
{
	return pool_attr(pool, attr, value, get_attr);
}

CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr,
			       void *value)
{
	return pool_attr(pool, attr, value, set_attr);
}

CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep)
{
	CUresult r;
	uint64_t freed;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	cuemu_lock();
	if (!live_pool(pool)) {
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE, "not a live pool");
	} else if (pool->imported) {
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			       "an imported pool has nothing of its own to trim");
	} else {
		freed = release(pool, minBytesToKeep, true);
		cuemu_event_log("pool_trim", "pool=%llu keep=%zu released=%llu "
				"reserved=%llu", (unsigned long long)pool->id,
				minBytesToKeep, (unsigned long long)freed,
				(unsigned long long)pool->reserved);
	}
	cuemu_unlock();
	return r;
}

/* ---------------------------------------------------------------- the API: access */

static CUresult check_access(CUmemoryPool p, const CUmemAccessDesc *d)
{
	int dev = d->location.id;

	/* Checked in the driver's order: flags, location, device, owner. */
	switch (d->flags) {
	case CU_MEM_ACCESS_FLAGS_PROT_NONE:
	case CU_MEM_ACCESS_FLAGS_PROT_READWRITE:
		break;
	case CU_MEM_ACCESS_FLAGS_PROT_READ:
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED,
				  "read-only access to a pool is not supported");
	default:
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "unknown access flags %d", (int)d->flags);
	}
	if (d->location.type != CU_MEM_LOCATION_TYPE_DEVICE)
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED,
				  "pool access is set for devices");
	if (!dev_valid(dev))
		return cuemu_fail(CUDA_ERROR_INVALID_DEVICE, "no device %d", dev);
	if (dev == p->dev && d->flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
		return cuemu_fail(CUDA_ERROR_INVALID_DEVICE,
				  "the owning device always has read-write access");
	if (dev != p->dev && p->dev >= 0 && d->flags != CU_MEM_ACCESS_FLAGS_PROT_NONE) {
		const struct cuemu_link *l = cuemu_link(dev, p->dev);
		if (!l || !l->kind)
			return cuemu_fail(CUDA_ERROR_INVALID_DEVICE,
					  "gpu%d cannot reach gpu%d", dev, p->dev);
	}
	return CUDA_SUCCESS;
}

CUresult cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc *map,
			    size_t count)
{
	CUresult r;
	char loc[32];

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!map)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL descriptors");
	cuemu_lock();
	if (!live_pool(pool))
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE, "not a live pool");
	for (size_t i = 0; i < count && r == CUDA_SUCCESS; i++)
		r = check_access(pool, &map[i]);
	/* All or nothing: apply only once every descriptor passed. */
	for (size_t i = 0; i < count && r == CUDA_SUCCESS; i++) {
		pool->access[map[i].location.id] = map[i].flags;
		cuemu_event_log("pool_access", "pool=%llu %s=%s",
				(unsigned long long)pool->id,
				cuemu_loc_str(map[i].location, loc, sizeof loc),
				map[i].flags ? "rw" : "none");
	}
	cuemu_unlock();
	return r;
}

CUresult cuMemPoolGetAccess(CUmemAccess_flags *flags, CUmemoryPool memPool,
			    CUmemLocation *location)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!flags || !location)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL argument");
	cuemu_lock();
	if (!live_pool(memPool))
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE, "not a live pool");
	else if (location->type == CU_MEM_LOCATION_TYPE_DEVICE &&
		 dev_valid(location->id))
		*flags = memPool->access[location->id];
	else if (location->type == CU_MEM_LOCATION_TYPE_HOST ||
		 location->type == CU_MEM_LOCATION_TYPE_HOST_NUMA)
		/* The host owns a host pool; a device pool is none to it. */
		*flags = memPool->dev < 0 ? CU_MEM_ACCESS_FLAGS_PROT_READWRITE :
			 CU_MEM_ACCESS_FLAGS_PROT_NONE;
	else
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE, "not a location");
	cuemu_unlock();
	return r;
}

/* ---------------------------------------------------------------- the API: device pools */

/* The two getters differ only in which of the device's pools they answer. */
static CUresult device_pool(CUmemoryPool *out, CUdevice dev,
			    CUresult (*which)(int, CUmemoryPool *))
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!out)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL pool");
	if (!dev_valid(dev))
		return cuemu_fail(CUDA_ERROR_INVALID_DEVICE, "no device %d", dev);
	cuemu_lock();
	r = which(dev, out);
	cuemu_unlock();
	return r;
}

CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out, CUdevice dev)
{
	return device_pool(pool_out, dev, default_of);
}

CUresult cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev)
{
	return device_pool(pool, dev, current_of);
}

CUresult cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!dev_valid(dev))
		return cuemu_fail(CUDA_ERROR_INVALID_DEVICE, "no device %d", dev);
	cuemu_lock();
	if (!live_pool(pool))
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE, "not a live pool");
	else if (pool->imported)
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			       "an imported pool cannot be a device's pool");
	else if (pool->dev != dev)
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			       "the pool does not live on device %d", dev);
	else
		current_pool[dev] = pool->is_default ? NULL : pool;
	cuemu_unlock();
	return r;
}

/* ---------------------------------------------------------------- the API: IPC */

CUresult cuMemPoolExportToShareableHandle(void *handle_out, CUmemoryPool pool,
					  CUmemAllocationHandleType handleType,
					  unsigned long long flags)
{
	CUresult r;
	int fd;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!handle_out || flags)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "a handle to fill and flags 0 are needed");
	cuemu_lock();
	if (!live_pool(pool)) {
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE, "not a live pool");
	} else if (pool->imported || !(pool->props.handleTypes & handleType) ||
		   (handleType & (handleType - 1))) {
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			       "the pool was not created with that handle type");
	} else if (handleType != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) {
		r = cuemu_fail(CUDA_ERROR_NOT_SUPPORTED,
			       "this machine has no fabric to share over");
	} else if ((fd = fcntl(pool->fd, F_DUPFD_CLOEXEC, 0)) < 0) {
		r = cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "dup: %s", strerror(errno));
	} else {
		*(int *)handle_out = fd;
	}
	cuemu_unlock();
	return r;
}

static CUresult read_header(int fd, struct fd_header *h)
{
	struct stat st;

	/* The driver answers UNKNOWN for a descriptor that is not a pool,
	 * -1 included. */
	if (fstat(fd, &st) < 0)
		return cuemu_fail(CUDA_ERROR_UNKNOWN, "not a descriptor");
	if (pread(fd, h, sizeof *h, 0) != (ssize_t)sizeof *h ||
	    h->magic != POOL_MAGIC || (uint64_t)st.st_size < POOL_FD_DATA)
		return cuemu_fail(CUDA_ERROR_UNKNOWN,
				  "the descriptor is not an exported pool");
	return CUDA_SUCCESS;
}

CUresult cuMemPoolImportFromShareableHandle(CUmemoryPool *pool_out,
					    void *handle,
					    CUmemAllocationHandleType handleType,
					    unsigned long long flags)
{
	struct fd_header h;
	CUmemPoolProps props = { .allocType = CU_MEM_ALLOCATION_TYPE_PINNED };
	CUmemoryPool p;
	CUresult r;
	int fd = (int)(uintptr_t)handle;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!pool_out || flags ||
	    handleType != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "a POSIX descriptor and flags 0 are needed");
	if ((r = read_header(fd, &h)) != CUDA_SUCCESS)
		return r;
	props.handleTypes = (CUmemAllocationHandleType)h.handle_types;
	props.location.type = (CUmemLocationType)h.loc_type;
	props.location.id = h.loc_id;
	props.maxSize = h.max_size;
	if (check_props(&props) != CUDA_SUCCESS)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "the pool lives where this machine has nothing");
	cuemu_lock();
	p = pool_alloc_struct(&props);
	if (!p) {
		r = cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "no memory for a pool");
	} else if ((p->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0) {
		free(p);
		r = cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "dup: %s", strerror(errno));
	} else {
		p->uid = h.uid;
		p->imported = true;
		LIST_INSERT_HEAD(&pools, p, node);
		cuemu_event_log("pool_import", "pool=%llu location=gpu%d",
				(unsigned long long)p->id, p->dev);
		*pool_out = p;
	}
	cuemu_unlock();
	return r;
}

CUresult cuMemPoolExportPointer(CUmemPoolPtrExportData *shareData_out,
				CUdeviceptr ptr)
{
	struct ptr_export e = { .magic = PTR_MAGIC };
	struct cuemu_alloc *a;
	struct seg *g;
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!shareData_out)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL export data");
	cuemu_lock();
	a = block_at(ptr);
	g = a ? a->priv : NULL;
	if (!g) {
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			       "%#llx was not allocated from a pool",
			       (unsigned long long)ptr);
	} else if (!g->arena || g->pool->fd < 0) {
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			       "the block's pool is not shareable");
	} else {
		e.uid = g->pool->uid;
		e.off = g->arena->file_off + (g->addr - g->arena->base);
		e.size = a->size;
		e.len = g->len;
		e.id = a->id;
		memset(shareData_out, 0, sizeof *shareData_out);
		memcpy(shareData_out, &e, sizeof e);
	}
	cuemu_unlock();
	return r;
}

static uint64_t file_size(int fd)
{
	struct stat st;

	return fstat(fd, &st) < 0 ? 0 : (uint64_t)st.st_size;
}

/* Maps an exported block of imported pool p. Lock held. */
static CUresult import_block(CUmemoryPool p, const struct ptr_export *e,
			     CUcontext ctx, CUdeviceptr *out)
{
	uint64_t page = CUEMU_ALIGN_DOWN(e->off, CUEMU_PAGE);
	size_t delta = e->off - page;
	size_t maplen = CUEMU_ALIGN_UP(delta + e->len, CUEMU_PAGE);
	struct seg *g = calloc(1, sizeof *g);
	void *m;

	if (!g)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "no memory");
	m = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_SHARED, p->fd,
		 (off_t)page);
	if (m == MAP_FAILED) {
		free(g);
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "mmap: %s",
				  strerror(errno));
	}
	g->pool = p;
	g->map = m;
	g->maplen = maplen;
	g->addr = (uintptr_t)m + delta;
	g->len = e->len;
	g->state = SEG_USED;
	fill_alloc(g, e->size, ctx);
	if (cuemu_va_insert(&g->a) < 0)
		cuemu_debug("imported block %#lx overlaps the address map",
			    (unsigned long)g->addr);
	TAILQ_INSERT_TAIL(&p->live, g, lnode);
	p->nlive++;
	*out = (CUdeviceptr)g->addr;
	return CUDA_SUCCESS;
}

CUresult cuMemPoolImportPointer(CUdeviceptr *ptr_out, CUmemoryPool pool,
				CUmemPoolPtrExportData *shareData)
{
	struct ptr_export e;
	CUcontext ctx = NULL;
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!ptr_out || !shareData)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL argument");
	memcpy(&e, shareData, sizeof e);
	if (cuemu_current(&ctx, NULL) != CUDA_SUCCESS)
		ctx = NULL;
	cuemu_lock();
	if (!live_pool(pool) || !pool->imported)
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE, "not an imported pool");
	else if (e.magic != PTR_MAGIC || e.uid != pool->uid ||
		 e.off < POOL_FD_DATA || e.size > e.len ||
		 e.off + e.len > file_size(pool->fd))
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			       "the export data is not of this pool");
	else
		r = import_block(pool, &e, ctx, ptr_out);
	cuemu_unlock();
	return r;
}

/* ---------------------------------------------------------------- /cu/pools */

static json_t *ctl_list(void)
{
	json_t *arr = json_array();
	CUmemoryPool p;

	LIST_FOREACH(p, &pools, node)
		json_array_append_new(arr, json_integer((json_int_t)p->id));
	return arr;
}

static const char *handle_words(const CUmemoryPool p)
{
	switch ((unsigned)p->props.handleTypes) {
	case CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR:
		return "posix_fd";
	case CU_MEM_HANDLE_TYPE_FABRIC:
		return "fabric";
	case CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR | CU_MEM_HANDLE_TYPE_FABRIC:
		return "posix_fd fabric";
	default:
		return "none";
	}
}

static json_t *access_json(CUmemoryPool p)
{
	json_t *o = json_object();
	char w[16];

	if (p->dev < 0)
		json_object_set_new(o, pool_loc(p, w, sizeof w), json_string("rw"));
	for (int d = 0; d < cuemu_device_count(); d++) {
		snprintf(w, sizeof w, "gpu%d", d);
		json_object_set_new(o, w, json_string(
			cuemu_access_str(p->access[d])));
	}
	return o;
}

static json_t *ctl_get(uint64_t id, const char *rest, CUresult *err)
{
	CUmemoryPool p = pool_by_id(id);
	json_t *o, *allocs;
	struct seg *g;
	char loc[32];

	if (!p || (rest && *rest)) {
		*err = CUDA_ERROR_NOT_FOUND;
		return NULL;
	}
	allocs = json_array();
	TAILQ_FOREACH(g, &p->live, lnode)
		json_array_append_new(allocs, json_integer((json_int_t)g->a.id));
	o = json_pack("{s:I,s:s,s:I,s:s,s:I,s:i,s:i,s:i,s:I,s:I,s:I,s:I,"
		      "s:o,s:o,s:i,s:i,s:s}",
		"id", (json_int_t)p->id,
		"location", pool_loc(p, loc, sizeof loc),
		"max_size", (json_int_t)p->max_size,
		"handle_types", handle_words(p),
		"release_threshold", (json_int_t)p->threshold,
		"reuse_follow_event_dependencies", p->reuse_follow,
		"reuse_allow_opportunistic", p->reuse_opportunistic,
		"reuse_allow_internal_dependencies", p->reuse_internal,
		"reserved_mem_current", (json_int_t)p->reserved,
		"reserved_mem_high", (json_int_t)p->reserved_high,
		"used_mem_current", (json_int_t)p->used,
		"used_mem_high", (json_int_t)p->used_high,
		"access", access_json(p),
		"allocations", allocs,
		"default", p->is_default,
		"imported", p->imported,
		"trim", "");
	if (o)
		json_object_set_new(o, "writable", json_pack("[s,s,s,s,s,s,s,s]",
			"release_threshold", "reuse_follow_event_dependencies",
			"reuse_allow_opportunistic",
			"reuse_allow_internal_dependencies", "reserved_mem_high",
			"used_mem_high", "access", "trim"));
	return o;
}

static const struct {
	const char *name;
	CUmemPool_attribute attr;
	bool is_int; /* an int attribute, else cuuint64_t */
} ctl_attrs[] = {
	{ "release_threshold", CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, false },
	{ "reuse_follow_event_dependencies",
	  CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES, true },
	{ "reuse_allow_opportunistic", CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, true },
	{ "reuse_allow_internal_dependencies",
	  CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES, true },
	{ "reserved_mem_high", CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, false },
	{ "used_mem_high", CU_MEMPOOL_ATTR_USED_MEM_HIGH, false },
	{ "reserved_mem_current", CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, false },
	{ "used_mem_current", CU_MEMPOOL_ATTR_USED_MEM_CURRENT, false },
};


static CUresult ctl_set_attr(CUmemoryPool p, const char *name, const char *value)
{
	uint64_t v;
	int iv;

	for (size_t i = 0; i < sizeof ctl_attrs / sizeof ctl_attrs[0]; i++) {
		if (strcmp(ctl_attrs[i].name, name))
			continue;
		if (cuemu_size_parse(value, &v) < 0)
			return CUDA_ERROR_INVALID_VALUE;
		if (!ctl_attrs[i].is_int)
			return cuMemPoolSetAttribute(p, ctl_attrs[i].attr, &v);
		if (v > 1)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "%s is 0 or 1", name);
		iv = (int)v;
		return cuMemPoolSetAttribute(p, ctl_attrs[i].attr, &iv);
	}
	return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED, "%s cannot be written", name);
}

static CUresult ctl_set(uint64_t id, const char *rest, const char *value)
{
	CUmemAccessDesc d;
	CUmemoryPool p;
	uint64_t keep;
	CUresult r;

	cuemu_lock();
	p = pool_by_id(id);
	cuemu_unlock();
	if (!p)
		return cuemu_fail(CUDA_ERROR_NOT_FOUND, "no pool %llu",
				  (unsigned long long)id);
	if (!strcmp(rest, "trim")) {
		if (cuemu_size_parse(value, &keep) < 0)
			return CUDA_ERROR_INVALID_VALUE;
		return cuMemPoolTrimTo(p, keep);
	}
	if (!strcmp(rest, "access")) {
		if ((r = cuemu_access_parse(value, &d)) != CUDA_SUCCESS)
			return r;
		return cuMemPoolSetAccess(p, &d, 1);
	}
	return ctl_set_attr(p, rest, value);
}

const struct cuemu_ctl_class cuemu_ctl_pools = {
	.name = "pools",
	.list = ctl_list,
	.get = ctl_get,
	.set = ctl_set,
};
