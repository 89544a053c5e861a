/*
 * prefetch.c - how much a fault brings, a GPU's or the CPU's alike (the
 * driver services both through uvm_va_block_service_locked, which asks
 * the same hint): the driver's granularity and its prefetch heuristic (NVIDIA's UVM driver, uvm_perf_prefetch.c:
 * grow_fault_granularity widens a faulted page to its 64 KiB big page
 * unless the block thrashes; compute_prefetch_region walks a bitmap tree
 * over the 2 MiB block from the faulted page's leaf to the root and keeps
 * the largest subregion more than uvm_perf_prefetch_threshold percent of
 * whose pages are resident on the destination or faulted). The tree's
 * counts are taken from the range model, a few ranges a level: nothing
 * here is per page.
 *
 * Locking: none; the caller holds what guards the range model.
 */
#include "model/managed.h"
#include "model/uvm.h"

uint64_t pf_resident(struct mranges *m, uintptr_t s, uintptr_t e, int dest)
{
	struct mrange *r = s < e ? mr_find(m, s) : NULL;
	uint64_t n = 0;

	for (; r && r->start < e; r = mr_next(m, r))
		if (r->holders & cuemu_mask_bit(dest))
			n += cuemu_min_u(r->end, e) - cuemu_max_u(r->start, s);
	return n;
}

/* Pages of [a, b) resident on dest or faulted ([fs, fe)), counted once. */
static uint64_t tree_count(struct mranges *m, uintptr_t a, uintptr_t b,
			   int dest, uintptr_t fs, uintptr_t fe)
{
	uintptr_t x = cuemu_max_u(a, fs), y = cuemu_min_u(b, fe);
	uint64_t n = pf_resident(m, a, b, dest);

	if (x < y)
		n += (y - x) - pf_resident(m, x, y, dest);
	return n / UVM_PAGE;
}

void pf_region(struct mranges *m, uintptr_t addr, int dest, uintptr_t lo,
	       uintptr_t hi, unsigned threshold, bool grow, bool thrashing,
	       uintptr_t *s, uintptr_t *e)
{
	uintptr_t page = CUEMU_ALIGN_DOWN(addr, UVM_PAGE);
	uintptr_t fs, fe, size;

	if (thrashing) {
		/* Thrashing pages are neither widened nor prefetched. */
		*s = cuemu_max_u(page, lo);
		*e = cuemu_min_u(page + UVM_PAGE, hi);
		return;
	}
	fs = cuemu_max_u(CUEMU_ALIGN_DOWN(addr, UVM_BIG_PAGE), lo);
	fe = cuemu_min_u(CUEMU_ALIGN_DOWN(addr, UVM_BIG_PAGE) + UVM_BIG_PAGE,
			 hi);
	*s = fs;
	*e = fe;
	if (!grow)
		return;
	/* From the leaf up: the largest aligned subregion over threshold. */
	for (size = UVM_PAGE; size <= UVM_BLOCK; size *= 2) {
		uintptr_t a = cuemu_max_u(CUEMU_ALIGN_DOWN(addr, size), lo);
		uintptr_t b = cuemu_min_u(CUEMU_ALIGN_DOWN(addr, size) + size,
					  hi);
		uint64_t pages = (b - a) / UVM_PAGE;

		if (pages && tree_count(m, a, b, dest, fs, fe) * 100 >
			     pages * threshold) {
			*s = cuemu_min_u(*s, a);
			*e = cuemu_max_u(*e, b);
		}
	}
}

static bool same_policy(const struct mrange *a, const struct mrange *b)
{
	return a->pref.type == b->pref.type && a->pref.id == b->pref.id &&
	       a->accessed_by == b->accessed_by &&
	       a->read_mostly == b->read_mostly;
}

/* The most a fault at p may bring: its 2 MiB block, within the run of
 * ranges of one policy around p. */
static void fault_bounds(struct mranges *m, struct mrange *r, uintptr_t p,
			 uintptr_t *lo, uintptr_t *hi)
{
	uintptr_t b = CUEMU_ALIGN_DOWN(p, UVM_BLOCK);
	struct mrange *q;

	*lo = r->start;
	for (q = mr_prev(m, r); q && q->end > b && same_policy(q, r);
	     q = mr_prev(m, q))
		*lo = q->start;
	*hi = r->end;
	for (q = mr_next(m, r); q && q->start < b + UVM_BLOCK &&
	     same_policy(q, r); q = mr_next(m, q))
		*hi = q->end;
	*lo = cuemu_max_u(*lo, b);
	*hi = cuemu_min_u(*hi, b + UVM_BLOCK);
}

bool pf_thrashing(const struct mrange *r)
{
	return r->pinned || r->moves >= cuemu_uvm()->thrash_threshold;
}

void pf_fault_region(struct mranges *m, struct mrange *r, uintptr_t addr,
		     int dest, uintptr_t *s, uintptr_t *e)
{
	const struct cuemu_uvm *u = cuemu_uvm();
	uintptr_t lo, hi;

	fault_bounds(m, r, addr, &lo, &hi);
	pf_region(m, addr, dest, lo, hi, u->prefetch_threshold, u->prefetch,
		  pf_thrashing(r), s, e);
}
