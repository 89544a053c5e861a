/*
 * pool_managed.c - managed memory pools (CUDA 13: cuMemPoolCreate with
 * CU_MEM_ALLOCATION_TYPE_MANAGED, and each location's default managed
 * pool). A block of such a pool is managed memory in every way the
 * process can see: a managed allocation of its own (managed.c's mg_new),
 * with its range model, faults, residency, prefetch, discard and /cu
 * ranges. What the pool adds is the allocator's life: used and reserved
 * counts (reserved in the allocator's 32 MiB granules, a block's span
 * rounded up to them), and freed blocks kept for reuse until the release
 * threshold or a trim gives them back. A kept block is out of the address
 * map; taken again it keeps its range model, so a block freed and
 * allocated again reads the last prefetch location it had, as on the real
 * driver (probes/results/batch.txt, managedpool.alloc_again).
 *
 * The real driver's rules for these blocks that differ from managed
 * memory's: no advice (NOT_SUPPORTED, in managed.c), no stream attachment
 * (INVALID_VALUE, in attach.c), the CONTEXT attribute NULL, and a device
 * pool's location reads back as the blocks' preferred location.
 *
 * Locking: everything here runs under cuemu_lock(), taken by pool.c's
 * callers; mg_new and mg_delete take no lock of the process.
 */
#include "model/managed.h"
#include "model/pool_impl.h"

#include <stdlib.h>

/* The allocator's granule, as pool.c's: what a block counts in reserve. */
#define PM_GRANULE (32ULL << 20)

bool cuemu_pool_is_managed(CUmemoryPool p)
{
	return p->props.allocType == CU_MEM_ALLOCATION_TYPE_MANAGED;
}

CUmemoryPool cuemu_pool_of_managed(struct cuemu_alloc *a)
{
	struct mstate *st;

	if (!a || a->kind != CUEMU_KIND_MANAGED || !(st = a->priv))
		return NULL;
	return st->pool;
}

/* The chunk a managed pool's block is counted in, which the real driver
 * answers as its mapping (probes/results/ptrattr_new.txt): the block's
 * base and its span rounded up to the allocator's granule. */
bool cuemu_pool_managed_chunk(struct cuemu_alloc *a, uintptr_t *base,
			      size_t *size)
{
	struct mstate *st;

	if (!a || a->kind != CUEMU_KIND_MANAGED || !(st = a->priv) ||
	    !st->pool_block)
		return false;
	*base = a->base;
	*size = ((const struct mblock *)st->pool_block)->reserved;
	return true;
}

/* Can s take kept block b at once: freed on s, or its free has run? */
static bool reusable(CUstream s, const struct mblock *b)
{
	if (cuemu_spos_done(b->freed_at))
		return true;
	return s && cuemu_stream_pos(s).stream == b->freed_at.stream;
}

/* The smallest kept block of at least size bytes that s may take. */
static struct mblock *kept_for(CUmemoryPool p, CUstream s, size_t size)
{
	struct mblock *b, *best = NULL;

	TAILQ_FOREACH(b, &p->mkept, node)
		if (b->a->span >= size && reusable(s, b) &&
		    (!best || b->a->span < best->a->span))
			best = b;
	return best;
}

/* A new block: a managed allocation that the pool owns. */
static struct mblock *block_new(CUmemoryPool p, size_t size, CUresult *r)
{
	struct mblock *b = calloc(1, sizeof *b);
	struct mstate *st;

	if (!b) {
		*r = cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory");
		return NULL;
	}
	if (!(b->a = mg_new(NULL, p->dev >= 0 ? p->dev : 0, size,
			    CU_MEM_ATTACH_GLOBAL, r))) {
		free(b);
		return NULL;
	}
	st = b->a->priv;
	st->pool = p;
	st->pool_block = b;
	if (p->props.location.type == CU_MEM_LOCATION_TYPE_DEVICE)
		mr_first(&st->ranges)->pref = p->props.location;
	b->reserved = CUEMU_ALIGN_UP(b->a->span, PM_GRANULE);
	cuemu_pool_note_reserved(p, (int64_t)b->reserved);
	return b;
}

static void block_delete(CUmemoryPool p, struct mblock *b)
{
	cuemu_pool_note_reserved(p, -(int64_t)b->reserved);
	mg_delete(b->a);
	free(b);
}

CUresult pm_alloc(CUmemoryPool p, CUstream s, size_t size, CUdeviceptr *out)
{
	struct mblock *b = kept_for(p, s, size);
	CUresult r = CUDA_SUCCESS;

	if (b) {
		TAILQ_REMOVE(&p->mkept, b, node);
		b->a->id = cuemu_next_id();   /* a new buffer, as the driver's */
		b->a->size = size;
	} else if (!(b = block_new(p, size, &r))) {
		return r;
	}
	if (cuemu_va_insert(b->a) < 0) {
		block_delete(p, b);
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "address map is full");
	}
	TAILQ_INSERT_TAIL(&p->mlive, b, node);
	p->nlive++;
	cuemu_pool_note_used(p, (int64_t)size);
	cuemu_obj_changed(b->a->id);
	cuemu_event_log("pool_alloc", "pool=%llu alloc=%llu base=%#lx size=%zu "
			"managed", (unsigned long long)p->id,
			(unsigned long long)b->a->id, (unsigned long)b->a->base,
			size);
	*out = (CUdeviceptr)b->a->base;
	return CUDA_SUCCESS;
}

void pm_free(CUmemoryPool p, struct cuemu_alloc *a, CUstream s)
{
	struct mblock *b = ((struct mstate *)a->priv)->pool_block;

	view_flush_open();
	cuemu_va_remove(a);
	cuemu_obj_changed(p->id);
	cuemu_event_log("pool_free", "pool=%llu alloc=%llu base=%#lx",
			(unsigned long long)p->id, (unsigned long long)a->id,
			(unsigned long)a->base);
	TAILQ_REMOVE(&p->mlive, b, node);
	p->nlive--;
	cuemu_pool_note_used(p, -(int64_t)a->size);
	b->freed_at = s ? cuemu_stream_pos(s) : (struct cuemu_spos){ 0, 0 };
	TAILQ_INSERT_TAIL(&p->mkept, b, node);
	cuemu_pool_note_sync_work();
}

uint64_t pm_release(CUmemoryPool p, uint64_t keep, bool floor)
{
	uint64_t before = p->reserved;
	struct mblock *b, *t;

	TAILQ_FOREACH_SAFE(b, &p->mkept, node, t) {
		if (p->reserved <= keep ||
		    (floor && p->reserved - b->reserved < keep))
			break;
		if (!cuemu_spos_done(b->freed_at))
			continue;
		TAILQ_REMOVE(&p->mkept, b, node);
		block_delete(p, b);
	}
	if (p->reserved < before)
		cuemu_event_log("pool_release", "pool=%llu released=%llu "
				"reserved=%llu managed", (unsigned long long)p->id,
				(unsigned long long)(before - p->reserved),
				(unsigned long long)p->reserved);
	return before - p->reserved;
}

bool pm_pending(CUmemoryPool p)
{
	struct mblock *b;

	TAILQ_FOREACH(b, &p->mkept, node)
		if (!cuemu_spos_done(b->freed_at))
			return true;
	return false;
}

struct cuemu_alloc *pm_block_next(CUmemoryPool p, struct cuemu_alloc *a)
{
	struct mblock *b;

	b = a ? TAILQ_NEXT((struct mblock *)((struct mstate *)a->priv)->pool_block,
			   node) : TAILQ_FIRST(&p->mlive);
	return b ? b->a : NULL;
}
