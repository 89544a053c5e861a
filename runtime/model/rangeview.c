/*
 * rangeview.c - what a span of a managed allocation's ranges says, read
 * without changing them: the aggregate the range attributes and /cu show
 * (mg_aggregate) and the NUMA nodes its host pages are on, or will be
 * on first touch (mg_numa_bytes). Split from managed.c, which changes the ranges.
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

/* The node a first touch of the page at a would put it on: the node its
 * policy binds or prefers (an advice's mbind), else the calling thread's
 * preferred node (the local one under the default policy); a node the
 * machine does not have counts as node 0. */
static int first_touch_node(uintptr_t a)
{
	enum { BITS = 1024, WORD = 8 * sizeof(unsigned long) };
	unsigned long mask[BITS / WORD] = { 0 };
	int mode = MPOL_DEFAULT, n = -1;

	if (get_mempolicy(&mode, mask, BITS, (void *)a, MPOL_F_ADDR) == 0 &&
	    (mode == MPOL_BIND || mode == MPOL_PREFERRED))
		for (int k = 0; k < BITS && n < 0; k++)
			if (mask[k / WORD] >> (k % WORD) & 1)
				n = k;
	if (n < 0)
		n = numa_preferred();
	return n >= 0 && n < cuemu_numa_count() ? n : 0;
}

/* Samples of host pages, asked of the kernel together: each its page, the
 * bytes it stands for, and the start of its range (whose first-touch
 * node counts a page the kernel has not placed). */
#define SAMPLES 512

struct numa_samples {
	void *page[SAMPLES];
	uint64_t bytes[SAMPLES];
	uintptr_t range[SAMPLES];
	unsigned long n;
};

/* One move_pages for every sample gathered, their bytes to their nodes. */
static void samples_count(struct numa_samples *ns, uint64_t *node_bytes)
{
	int status[SAMPLES];
	bool placed = ns->n && move_pages(0, ns->n, ns->page, NULL, status,
					  0) == 0;
	uintptr_t untouched_of = 0;
	int untouched = -1;

	for (unsigned long i = 0; i < ns->n; i++) {
		int n;

		if (placed && status[i] >= 0) {
			n = status[i] < cuemu_numa_count() ? status[i] : 0;
		} else {
			/* A range has one policy (advice splits ranges where
			 * it binds): its first-touch node is asked once. */
			if (untouched < 0 || untouched_of != ns->range[i]) {
				untouched_of = ns->range[i];
				untouched = first_touch_node(untouched_of);
			}
			n = untouched;
		}
		node_bytes[n] += ns->bytes[i];
	}
	ns->n = 0;
}

/* A range's host bytes, split over the nodes of its sampled pages: a page
 * the kernel has placed counts on its node, one it has not yet (never
 * touched) on the node its first touch would use, so that the split adds
 * up to the range's host bytes (the cpu line). The kernel is asked for
 * SAMPLES pages at a time, whatever the ranges they lie in: a span cut
 * into thousands of ranges (a kernel's faults) costs one move_pages per
 * SAMPLES ranges, not one a range. */
void mg_numa_bytes(struct mstate *st, uintptr_t s, uintptr_t e,
		   uint64_t *node_bytes)
{
	struct mrange *r = mr_find(&st->ranges, s);
	uint64_t total = host_pages(st, s, e);
	struct numa_samples ns;

	ns.n = 0;
	/* Every range gets its share of SAMPLES pages, at least one. */
	for (; total && r && r->start < e; r = mr_next(&st->ranges, r)) {
		uintptr_t a = r->start > s ? r->start : s;
		uintptr_t b = r->end < e ? r->end : e;
		uint64_t npages = (b - a) / CUEMU_PAGE, k, step, want, share;
		uint64_t cnt;

		if (!(r->holders & cuemu_mask_bit(CUEMU_PROC_HOST)) || !npages)
			continue;
		if (numa_available() < 0) {
			node_bytes[0] += b - a;
			continue;
		}
		want = cuemu_min_u(npages, cuemu_max_u(npages * SAMPLES / total,
						       1));
		step = npages / want;
		share = (b - a) / want;
		for (k = 0, cnt = 0; k < npages && cnt < want; k += step, cnt++) {
			if (ns.n == SAMPLES)
				samples_count(&ns, node_bytes);
			ns.page[ns.n] = (void *)(a + k * CUEMU_PAGE);
			/* The last sample takes what the shares leave. */
			ns.bytes[ns.n] = cnt + 1 < want ? share
					 : (b - a) - share * (want - 1);
			ns.range[ns.n++] = a;
		}
	}
	samples_count(&ns, node_bytes);
}
