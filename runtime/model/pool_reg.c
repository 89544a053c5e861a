/*
 * pool_reg.c - the process's memory pools as a registry: making a pool's
 * structure from its properties (its id, the uid importers share, its
 * default maximum and access), listing it among the live pools and
 * finding it by handle or id, its counts of bytes used and reserved, the
 * flag that tells a host synchronization it has pools to look at, and a
 * block's address-map entry. pool.c (the allocator), pool_ipc.c (shared
 * pools) and pool_managed.c (managed pools) build on it; it calls none of
 * them, so that the allocator's files are layered rather than a circle.
 *
 * Locking: the list and every count are guarded by cuemu_lock(), which
 * the callers hold; the sync-work flag is an atomic, read without it.
 */
#include "model/pool_impl.h"

#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

/* The process's live pools: each process has its own allocator, as each
 * CUDA context has. Guarded by cuemu_lock(). */
static LIST_HEAD(, CUmemPoolHandle_st) pools = LIST_HEAD_INITIALIZER(pools);

/* A host synchronization may find something to release or finish: set
 * (under cuemu_lock) by whatever can give the sync hook work, cleared by
 * the hook (atomically, before it takes the lock). While it is clear, a
 * synchronization does not take the process lock at all, which another
 * thread may hold for long. Global with the pools it summarizes. */
static bool sync_work;

void cuemu_pool_note_sync_work(void)
{
	__atomic_store_n(&sync_work, true, __ATOMIC_RELEASE);
}

bool cuemu_pool_take_sync_work(void)
{
	return __atomic_exchange_n(&sync_work, false, __ATOMIC_ACQ_REL);
}

/* ---------------------------------------------------------------- lookups */

CUmemoryPool cuemu_pool_live(CUmemoryPool h)
{
	CUmemoryPool p;

	if (!h)
		return NULL;
	LIST_FOREACH(p, &pools, node)
		if (p == h)
			return p;
	return NULL;
}

CUmemoryPool cuemu_pool_by_id(uint64_t id)
{
	CUmemoryPool p;

	LIST_FOREACH(p, &pools, node)
		if (p->id == id)
			return p;
	return NULL;
}

CUmemoryPool cuemu_pool_next(CUmemoryPool p)
{
	return p ? LIST_NEXT(p, node) : LIST_FIRST(&pools);
}

/* ---------------------------------------------------------------- counts */

void cuemu_pool_note_reserved(CUmemoryPool p, int64_t delta)
{
	if (delta > 0)
		cuemu_pool_note_sync_work();
	p->reserved += delta;
	cuemu_obj_changed(p->id);
	if (p->reserved > p->reserved_high)
		p->reserved_high = p->reserved;
}

void cuemu_pool_note_used(CUmemoryPool p, int64_t delta)
{
	p->used += delta;
	cuemu_obj_changed(p->id);
	if (p->used > p->used_high)
		p->used_high = p->used;
}

/* ---------------------------------------------------------------- making */

static uint64_t default_max(const CUmemLocation *loc)
{
	switch (loc->type) {
	case CU_MEM_LOCATION_TYPE_HOST_NUMA:
		return cuemu_numa_total(loc->id);
	case CU_MEM_LOCATION_TYPE_DEVICE:
		return cuemu_device(loc->id)->total;
	default: /* the host, or a managed pool's NONE or NUMA_CURRENT */
		return (uint64_t)sysconf(_SC_PHYS_PAGES) * CUEMU_PAGE;
	}
}

static uint64_t new_uid(CUmemoryPool p)
{
	uint64_t u = 0;

	if (getrandom(&u, sizeof u, 0) != (ssize_t)sizeof u || !u)
		u = p->id ^ ((uint64_t)getpid() << 40);
	return u;
}

static void access_defaults(CUmemoryPool p)
{
	for (int d = 0; d < CUEMU_MAX_DEVICES; d++)
		p->access[d] = d == p->dev ? CU_MEM_ACCESS_FLAGS_PROT_READWRITE :
			       CU_MEM_ACCESS_FLAGS_PROT_NONE;
}

CUmemoryPool cuemu_pool_alloc_struct(const CUmemPoolProps *props)
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
	TAILQ_INIT(&p->mlive);
	TAILQ_INIT(&p->mkept);
	LIST_INIT(&p->arenas);
	access_defaults(p);
	return p;
}

void cuemu_pool_add(CUmemoryPool p)
{
	LIST_INSERT_HEAD(&pools, p, node);
	cuemu_obj_changed(p->id);
}

void cuemu_pool_fill_alloc(struct seg *g, size_t size, CUcontext ctx)
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
