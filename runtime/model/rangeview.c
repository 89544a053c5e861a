/*
 * rangeview.c - what a span of a managed allocation's ranges says, read
 * without changing them: the aggregate the range attributes and /cu show
 * (mg_aggregate) and the NUMA nodes the kernel put its host pages on
 * (mg_numa_bytes). Split from managed.c, which changes the ranges.
 *
 * Locking: cuemu_lock() held by the callers (managed.h).
 */
#include "model/managed.h"

#include <numa.h>
#include <numaif.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Range attributes                                                    */

static bool same_loc(CUmemLocation a, CUmemLocation b)
{
	return a.type == b.type &&
	       (a.type == CU_MEM_LOCATION_TYPE_INVALID || a.id == b.id);
}

/* The preferred location the real driver reports: a NUMA preference reads
 * back as the host (reference: managed.first_half_numa0). */
static CUmemLocation pref_reported(CUmemLocation l)
{
	if (l.type == CU_MEM_LOCATION_TYPE_HOST_NUMA ||
	    l.type == CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT)
		l.type = CU_MEM_LOCATION_TYPE_HOST;
	if (l.type == CU_MEM_LOCATION_TYPE_HOST)
		l.id = 0;
	return l;
}

void mg_aggregate(struct mstate *st, uintptr_t s, uintptr_t e,
		  struct mg_agg *g, bool reported)
{
	struct mrange *r = mr_find(&st->ranges, s);
	bool first = true;
	int p;

	memset(g, 0, sizeof *g);
	for (; r && r->start < e; r = mr_next(&st->ranges, r)) {
		uint64_t n = (r->end < e ? r->end : e) - (r->start > s ? r->start : s);
		CUmemLocation pl = reported ? pref_reported(r->pref) : r->pref;

		for (p = cuemu_mask_next(r->holders, 0); p >= 0;
		     p = cuemu_mask_next(r->holders, p + 1))
			if (r->holders & cuemu_mask_bit(p))
				g->bytes[p] += n;
		if (first) {
			g->read_mostly = r->read_mostly;
			g->pref = pl;
			g->lp = r->last_prefetch;
			g->accessed_by = r->accessed_by;
			g->holders_all = r->holders;
			first = false;
			continue;
		}
		g->read_mostly &= r->read_mostly;
		g->accessed_by &= r->accessed_by;
		g->holders_all &= r->holders;
		if (!same_loc(g->pref, pl))
			g->pref_mixed = true;
		if (!same_loc(g->lp, r->last_prefetch))
			g->lp_mixed = true;
	}
	if (g->pref_mixed)
		g->pref = (CUmemLocation){ CU_MEM_LOCATION_TYPE_INVALID, 0 };
	if (g->lp_mixed)
		g->lp = (CUmemLocation){ CU_MEM_LOCATION_TYPE_INVALID, 0 };
}

/* ------------------------------------------------------------------ */
/* Where the kernel put the host copies                                */

/* The host-resident pages of [s, e): how many, over every range. */
static uint64_t host_pages(struct mstate *st, uintptr_t s, uintptr_t e)
{
	struct mrange *r = mr_find(&st->ranges, s);
	uint64_t n = 0;

	for (; r && r->start < e; r = mr_next(&st->ranges, r))
		if (r->holders & cuemu_mask_bit(CUEMU_PROC_HOST))
			n += (cuemu_min_u(r->end, e) - cuemu_max_u(r->start, s)) /
			     CUEMU_PAGE;
	return n;
}

void mg_numa_bytes(struct mstate *st, uintptr_t s, uintptr_t e,
		   uint64_t *node_bytes)
{
	enum { SAMPLES = 512 };
	struct mrange *r = mr_find(&st->ranges, s);
	uint64_t total;
	void *pages[SAMPLES];
	int status[SAMPLES];

	if (numa_available() < 0 || !(total = host_pages(st, s, e)))
		return;
	/* Every range gets its share of SAMPLES pages, at least one: a span
	 * cut into thousands of ranges (a kernel's faults) costs a page a
	 * range, not SAMPLES a range. */
	for (; r && r->start < e; r = mr_next(&st->ranges, r)) {
		uintptr_t a = r->start > s ? r->start : s;
		uintptr_t b = r->end < e ? r->end : e;
		uint64_t npages = (b - a) / CUEMU_PAGE, k, step, want;
		unsigned long cnt = 0, i;

		if (!(r->holders & cuemu_mask_bit(CUEMU_PROC_HOST)) || !npages)
			continue;
		want = cuemu_min_u(npages, cuemu_max_u(npages * SAMPLES / total,
						       1));
		step = npages / want;
		for (k = 0; k < npages && cnt < want; k += step)
			pages[cnt++] = (void *)(a + k * CUEMU_PAGE);
		if (move_pages(0, cnt, pages, NULL, status, 0) != 0)
			continue;
		for (i = 0; i < cnt; i++)
			if (status[i] >= 0 && status[i] < cuemu_numa_count())
				node_bytes[status[i]] += (b - a) / cnt;
	}
}
