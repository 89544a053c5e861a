/*
 * pool.c - the stream-ordered allocator's model: memory pools (each
 * device's default pool, created pools, pools imported from another
 * process), the granules of backing memory a pool reserves from its
 * location, the blocks it sub-allocates from them, the rules for reusing a
 * freed block across streams, release down to the threshold when the host
 * synchronizes, trim and access. The registry of pools and their counts
 * is pool_reg.c's, sharing a pool with another process pool_ipc.c's, a
 * managed pool's blocks pool_managed.c's; the structures they see are in
 * model/pool_impl.h. This file calls those three; they call only
 * pool_reg.c.
 * Its entry points (cuMem*Async, cuMemPool*, cuDevice*MemPool) are
 * driver/pool.c's, /cu/pools is outward/ctl_pool.c's; model/pool.h is what
 * they may call.
 *
 * Model: allocation and free are stream operations, but as in the real
 * allocator their bookkeeping happens when they are enqueued. A free records
 * the stream position it is ordered after (stream.c's cuemu_spos); a later
 * allocation decides from that position whether it may reuse the block at
 * once, only with an inserted wait, or not at all.
 *
 * Locking: every pool, arena and block is guarded by cuemu_lock(), which
 * the callers hold (the entries resolve streams and contexts before taking
 * it); cuemu_pool_free_now and the host-sync hook take it themselves (the
 * hook only when pool_reg.c's sync-work flag says it may have work). Under
 * it this file calls only stream.c's position queries and
 * cuemu_stream_wait_pos (stream locks come after the process lock) and
 * never waits for a stream.
 */
#include "model/pool_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <numa.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/queue.h>
#include <sys/random.h>
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
/* Blocks are carved at this alignment (the driver's: 1000 bytes take 1024). */
#define POOL_ALIGN 512UL

static int cmp_free(struct seg *a, struct seg *b)
{
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

CUEMU_RB_STATIC(free_tree, seg, fnode, cmp_free)

/* The process's pools are pool_reg.c's. Destroyed pools whose last
 * frees have not run yet wait here: their memory goes back once the
 * streams are past them (checked on synchronization). current_pool[d]
 * NULL means the default pool, which is made on first use. Each process
 * has its own allocator, as each CUDA context has; guarded by
 * cuemu_lock(). */
static LIST_HEAD(, CUmemPoolHandle_st) dying = LIST_HEAD_INITIALIZER(dying);
static CUmemoryPool default_pool[CUEMU_MAX_DEVICES];
static CUmemoryPool current_pool[CUEMU_MAX_DEVICES];

/* ---------------------------------------------------------------- helpers */

static const char *pool_loc(CUmemoryPool p, char *buf, size_t len)
{
	return cuemu_loc_str(p->props.location, buf, len);
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
	cuemu_pool_note_reserved(p, (int64_t)POOL_GRANULE);
	return true;
}

static void decommit_one(CUmemoryPool p, struct arena *a, size_t i)
{
	granule_unmap(p, a, i);
	a->committed[i] = 0;
	uncharge(p, POOL_GRANULE);
	cuemu_pool_note_reserved(p, -(int64_t)POOL_GRANULE);
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

	if (cuemu_pool_is_managed(p))
		return pm_release(p, keep, floor);
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

/* Makes a pool from validated properties. Lock held. */
static CUresult pool_new(const CUmemPoolProps *props, bool is_default,
			 CUmemoryPool *out)
{
	CUmemoryPool p = cuemu_pool_alloc_struct(props);
	char loc[32];

	if (!p)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "no memory for a pool");
	p->is_default = is_default;
	if ((props->handleTypes & CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) &&
	    cuemu_pool_memfd(p) < 0) {
		free(p);
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "cannot make the pool's memfd: %s", strerror(errno));
	}
	cuemu_pool_add(p);
	cuemu_event_log("pool_create", "pool=%llu location=%s max_size=%llu%s",
			(unsigned long long)p->id, pool_loc(p, loc, sizeof loc),
			(unsigned long long)p->max_size,
			is_default ? " default" : "");
	*out = p;
	return CUDA_SUCCESS;
}

CUresult cuemu_pool_create_default(const CUmemPoolProps *props,
				   CUmemoryPool *out)
{
	return pool_new(props, true, out);
}

CUresult cuemu_pool_default(int dev, CUmemoryPool *out)
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

CUresult cuemu_pool_current(int dev, CUmemoryPool *out)
{
	if (current_pool[dev]) {
		*out = current_pool[dev];
		return CUDA_SUCCESS;
	}
	return cuemu_pool_default(dev, out);
}

/* Frees what is left of a destroyed pool. */
static void pool_finish(CUmemoryPool p)
{
	struct arena *a;
	struct seg *g;

	pm_release(p, 0, false); /* a managed pool's kept blocks */
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
	if (!TAILQ_EMPTY(&p->pending) || pm_pending(p)) {
		if (!listed)
			LIST_INSERT_HEAD(&dying, p, node);
		cuemu_pool_note_sync_work();
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

CUresult cuemu_pool_block_alloc(CUmemoryPool p, CUstream s, size_t size,
				CUcontext ctx, CUdeviceptr *out)
{
	size_t len = CUEMU_ALIGN_UP(size, POOL_ALIGN);
	bool wait = false;
	struct seg *g;

	if (len < size)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "size too large");
	if (cuemu_pool_is_managed(p))
		return pm_alloc(p, s, size, out);
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
	cuemu_pool_fill_alloc(g, size, ctx);
	if (cuemu_va_insert(&g->a) < 0)
		cuemu_debug("pool block %#lx overlaps the address map",
			    (unsigned long)g->addr);
	cuemu_pool_note_used(p, (int64_t)size);
	cuemu_event_log("pool_alloc", "pool=%llu alloc=%llu base=%#lx size=%zu",
			(unsigned long long)p->id, (unsigned long long)g->a.id,
			(unsigned long)g->addr, size);
	*out = (CUdeviceptr)g->addr;
	return CUDA_SUCCESS;
}

void cuemu_pool_block_free(struct cuemu_alloc *a, CUstream s)
{
	struct seg *g = a->priv;
	CUmemoryPool p;

	if (a->kind == CUEMU_KIND_MANAGED) {
		p = cuemu_pool_of_managed(a);
		pm_free(p, a, s);
		if (p->destroyed)
			maybe_finish(p, false);
		return;
	}
	p = g->pool;

	cuemu_obj_changed(p->id); /* its allocations/ */
	cuemu_pool_note_sync_work(); /* a free run the next sync may release */
	cuemu_va_remove(a);
	cuemu_event_log("pool_free", "pool=%llu alloc=%llu base=%#lx",
			(unsigned long long)p->id, (unsigned long long)a->id,
			(unsigned long)a->base);
	if (!g->arena) {
		cuemu_pool_unmap_imported(p, g);
	} else {
		TAILQ_REMOVE(&p->live, g, lnode);
		p->nlive--;
		cuemu_pool_note_used(p, -(int64_t)a->size);
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

bool cuemu_pool_pending_at(uintptr_t addr, int *dev)
{
	CUmemoryPool p;
	struct arena *ar;
	struct seg *g;

	for (p = cuemu_pool_next(NULL); p; p = cuemu_pool_next(p))
		LIST_FOREACH(ar, &p->arenas, node) {
			if (addr < ar->base || addr - ar->base >= ar->size)
				continue;
			TAILQ_FOREACH(g, &ar->segs, adj)
				if (addr >= g->addr && addr - g->addr < g->len) {
					*dev = p->dev >= 0 ? p->dev :
						CUEMU_PROC_HOST;
					return g->state == SEG_PENDING &&
					       !cuemu_spos_done(g->freed_at);
				}
			return false;
		}
	return false;
}

struct cuemu_alloc *cuemu_pool_block_at(CUdeviceptr dptr)
{
	struct cuemu_alloc *a = cuemu_va_find((uintptr_t)dptr);

	if (!a || a->base != (uintptr_t)dptr)
		return NULL;
	return a->kind == CUEMU_KIND_POOL || cuemu_pool_of_managed(a) ? a : NULL;
}

CUresult cuemu_pool_free_now(struct cuemu_alloc *a)
{
	cuemu_lock();
	cuemu_pool_block_free(a, NULL);
	cuemu_unlock();
	return CUDA_SUCCESS;
}

CUmemoryPool cuemu_pool_of(struct cuemu_alloc *a)
{
	if (a && a->kind == CUEMU_KIND_MANAGED)
		return cuemu_pool_of_managed(a);
	if (!a || a->kind != CUEMU_KIND_POOL)
		return NULL;
	return ((struct seg *)a->priv)->pool;
}

bool cuemu_pool_block_chunk(struct cuemu_alloc *a, uintptr_t *base,
			    size_t *size)
{
	struct seg *g;
	uintptr_t lo, hi;

	if (a && a->kind == CUEMU_KIND_MANAGED)
		return cuemu_pool_managed_chunk(a, base, size);
	if (!a || a->kind != CUEMU_KIND_POOL)
		return false;

	g = a->priv;
	if (!g->arena)
		return false;
	/* the granules the block lies in, each a chunk the pool reserved */
	lo = g->arena->base + CUEMU_ALIGN_DOWN(g->addr - g->arena->base,
					      POOL_GRANULE);
	hi = g->arena->base + CUEMU_ALIGN_UP(g->addr + g->len -
					    g->arena->base, POOL_GRANULE);
	*base = lo;
	*size = hi - lo;
	return true;
}

uint64_t cuemu_pool_id(CUmemoryPool p)
{
	return p ? p->id : 0;
}

void cuemu_pool_on_sync(void)
{
	CUmemoryPool p, t;
	bool left = false;

	if (!cuemu_pool_take_sync_work())
		return;
	cuemu_lock();
	LIST_FOREACH_SAFE(p, &dying, node, t)
		maybe_finish(p, true);
	left = !LIST_EMPTY(&dying);
	for (p = cuemu_pool_next(NULL); p; p = cuemu_pool_next(p)) {
		if (!p->imported && (p->reserved > p->threshold ||
				     !TAILQ_EMPTY(&p->pending)))
			release(p, p->threshold, false);
		/* A free not yet done: the next synchronization looks again.
		 * A pool still over its threshold with nothing pending has
		 * released all it can until a free or a new threshold, which
		 * set sync_work. */
		left |= !p->imported && (!TAILQ_EMPTY(&p->pending) ||
					 pm_pending(p));
	}
	if (left)
		cuemu_pool_note_sync_work();
	cuemu_unlock();
}

/* A host synchronization releases memory down to each pool's threshold. */
__attribute__((constructor)) static void pool_hook_sync(void)
{
	cuemu_on_host_sync(cuemu_pool_on_sync);
}

/* ---------------------------------------------------------------- what the entries ask and set */

const CUmemPoolProps *cuemu_pool_props(CUmemoryPool p)
{
	return &p->props;
}

int cuemu_pool_device(CUmemoryPool p)
{
	return p->dev;
}

bool cuemu_pool_is_default(CUmemoryPool p)
{
	return p->is_default;
}

bool cuemu_pool_imported(CUmemoryPool p)
{
	return p->imported;
}

CUresult cuemu_pool_create(const CUmemPoolProps *props, CUmemoryPool *out)
{
	return pool_new(props, false, out);
}

void cuemu_pool_destroy(CUmemoryPool p)
{
	for (int d = 0; d < cuemu_device_count(); d++)
		if (current_pool[d] == p)
			current_pool[d] = NULL;
	LIST_REMOVE(p, node);
	p->destroyed = true;
	cuemu_obj_changed(p->id);
	cuemu_event_log("pool_destroy", "pool=%llu live=%zu",
			(unsigned long long)p->id, p->nlive);
	maybe_finish(p, false);
}

void cuemu_pool_set_current(int dev, CUmemoryPool p)
{
	current_pool[dev] = p->is_default ? NULL : p;
	cuemu_obj_changed(p->id);
}

CUresult cuemu_pool_get_attr(CUmemoryPool p, CUmemPool_attribute attr,
			     void *value)
{
	/* The importer holds none of the memory and none of the policy: the
	 * real driver refuses every attribute (probes/results/poolsweep.txt). */
	if (p->imported)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "an imported pool has no attributes");
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

CUresult cuemu_pool_set_attr(CUmemoryPool p, CUmemPool_attribute attr,
			     void *value)
{
	if (p->imported)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "an imported pool's attributes are its "
				  "exporter's to set");
	cuemu_obj_changed(p->id);
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
		cuemu_pool_note_sync_work();
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

void cuemu_pool_trim(CUmemoryPool p, uint64_t keep)
{
	uint64_t freed = release(p, keep, true);

	cuemu_event_log("pool_trim", "pool=%llu keep=%llu released=%llu "
			"reserved=%llu", (unsigned long long)p->id,
			(unsigned long long)keep, (unsigned long long)freed,
			(unsigned long long)p->reserved);
}

/* ---------------------------------------------------------------- access */

CUmemAccess_flags cuemu_pool_access(CUmemoryPool p, int dev)
{
	return p->access[dev];
}

void cuemu_pool_set_access(CUmemoryPool p, const CUmemAccessDesc *map,
			   size_t count)
{
	char loc[32];

	cuemu_obj_changed(p->id);
	for (size_t i = 0; i < count; i++) {
		p->access[map[i].location.id] = map[i].flags;
		cuemu_event_log("pool_access", "pool=%llu %s=%s",
				(unsigned long long)p->id,
				cuemu_loc_str(map[i].location, loc, sizeof loc),
				map[i].flags ? "rw" : "none");
	}
}

/* ---------------------------------------------------------------- /cu/pools */

struct cuemu_alloc *cuemu_pool_block_next(CUmemoryPool p,
					  struct cuemu_alloc *a)
{
	struct seg *g;

	if (cuemu_pool_is_managed(p))
		return pm_block_next(p, a);
	g = a ? TAILQ_NEXT((struct seg *)a->priv, lnode) : TAILQ_FIRST(&p->live);
	return g ? &g->a : NULL;
}

void cuemu_pool_view(CUmemoryPool p, struct cuemu_pool_view *v)
{
	memset(v, 0, sizeof *v);
	v->id = p->id;
	v->location = p->props.location;
	v->dev = p->dev;
	v->handle_types = p->props.handleTypes;
	v->max_size = p->max_size;
	v->threshold = p->threshold;
	v->reuse_follow = p->reuse_follow;
	v->reuse_opportunistic = p->reuse_opportunistic;
	v->reuse_internal = p->reuse_internal;
	v->reserved = p->reserved;
	v->reserved_high = p->reserved_high;
	v->used = p->used;
	v->used_high = p->used_high;
	memcpy(v->access, p->access, sizeof v->access);
	v->is_default = p->is_default;
	v->imported = p->imported;
	v->managed = cuemu_pool_is_managed(p);
}
