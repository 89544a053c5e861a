/*
 * range.c - the range model of a managed allocation: an ordered set of
 * maximal uniform ranges (same policy, same residency), kept in a red-black
 * tree by start address. Nothing is stored per page: a 1 TiB allocation
 * with four policies is four ranges. Every change goes through mr_update,
 * which splits at the edges of the changed span, lets the caller change the
 * ranges inside it, and merges what became equal.
 *
 * Locking: none here; managed.c calls these under cuemu_lock(). The file is
 * also compiled into tests/unit/test_managed to test the model directly.
 */
#include "model/managed.h"

#include <stdlib.h>
#include <string.h>

static int cmp_start(struct mrange *a, struct mrange *b)
{
	return a->start < b->start ? -1 : a->start > b->start;
}

CUEMU_RB_STATIC(mrtree, mrange, node, cmp_start)

int mr_init(struct mranges *m, uintptr_t start, uintptr_t end)
{
	struct mrange *r = calloc(1, sizeof *r);

	RB_INIT(&m->tree);
	m->n = 0;
	if (!r)
		return -1;
	r->start = start;
	r->end = end;
	r->host_node = -1;
	RB_INSERT(mrtree, &m->tree, r);
	m->n = 1;
	return 0;
}

void mr_destroy(struct mranges *m)
{
	struct mrange *r, *next;

	for (r = RB_MIN(mrtree, &m->tree); r; r = next) {
		next = RB_NEXT(mrtree, &m->tree, r);
		RB_REMOVE(mrtree, &m->tree, r);
		free(r);
	}
	m->n = 0;
}

struct mrange *mr_first(struct mranges *m)
{
	return RB_MIN(mrtree, &m->tree);
}

struct mrange *mr_next(struct mranges *m, struct mrange *r)
{
	return RB_NEXT(mrtree, &m->tree, r);
}

struct mrange *mr_prev(struct mranges *m, struct mrange *r)
{
	return RB_PREV(mrtree, &m->tree, r);
}

struct mrange *mr_find(struct mranges *m, uintptr_t p)
{
	struct mrange *n = RB_ROOT(&m->tree), *best = NULL;

	while (n) {
		if (n->start <= p) {
			best = n;
			n = RB_RIGHT(n, node);
		} else {
			n = RB_LEFT(n, node);
		}
	}
	return best && p < best->end ? best : NULL;
}

static bool loc_eq(CUmemLocation a, CUmemLocation b)
{
	if (a.type != b.type)
		return false;
	return a.type == CU_MEM_LOCATION_TYPE_INVALID ||
	       a.type == CU_MEM_LOCATION_TYPE_HOST || a.id == b.id;
}

bool mr_same(const struct mrange *a, const struct mrange *b)
{
	return loc_eq(a->pref, b->pref) &&
	       loc_eq(a->last_prefetch, b->last_prefetch) &&
	       a->accessed_by == b->accessed_by &&
	       a->read_mostly == b->read_mostly && a->holders == b->holders &&
	       a->maps == b->maps && a->host_node == b->host_node && a->pinned == b->pinned &&
	       (!a->pinned || a->pin_proc == b->pin_proc);
}

/* Cuts r at p (r->start < p < r->end); the new right half is returned. */
static struct mrange *split(struct mranges *m, struct mrange *r, uintptr_t p)
{
	struct mrange *right = malloc(sizeof *right);

	if (!right)
		return NULL;
	*right = *r;
	right->start = p;
	r->end = p;
	RB_INSERT(mrtree, &m->tree, right);
	m->n++;
	return right;
}

/* Folds b, r's right neighbour, into r. */
static void absorb(struct mranges *m, struct mrange *r, struct mrange *b)
{
	r->end = b->end;
	if (b->lru > r->lru)
		r->lru = b->lru;
	if (b->moves > r->moves)
		r->moves = b->moves;
	if (b->throttles > r->throttles)
		r->throttles = b->throttles;
	if (b->thrash_ns > r->thrash_ns)
		r->thrash_ns = b->thrash_ns;
	/* The merged pages moved no later than the earliest of them did:
	 * pieces a kernel migrated one after another over a long pass are
	 * not one range that moved at the pass's end. */
	if (b->thrash_first_ns &&
	    (!r->thrash_first_ns || b->thrash_first_ns < r->thrash_first_ns))
		r->thrash_first_ns = b->thrash_first_ns;
	if (b->pin_until_ns > r->pin_until_ns)
		r->pin_until_ns = b->pin_until_ns;
	r->thrashers |= b->thrashers;
	/* read-only only where both were: the mapping's state prices a
	 * write, it does not cut ranges (where it did, the thrashing
	 * detector's ranges, and so its pins, came out otherwise) */
	r->ro &= b->ro;
	RB_REMOVE(mrtree, &m->tree, b);
	free(b);
	m->n--;
}

/* Merges equal neighbours from the range before `from` up to the first
 * range starting at or after `until` (which may merge into its left). */
static void merge_span(struct mranges *m, struct mrange *from, uintptr_t until)
{
	struct mrange *r = from, *prev = from ? mr_prev(m, from) : NULL, *next;

	if (prev)
		r = prev;
	while (r && r->start <= until) {
		next = mr_next(m, r);
		if (next && mr_same(r, next) && next->start <= until) {
			absorb(m, r, next);
			continue;
		}
		r = next;
	}
}

int mr_update(struct mranges *m, uintptr_t start, uintptr_t end, mr_fn fn,
	      void *arg)
{
	struct mrange *first = mr_find(m, start), *last, *r;

	if (!first || start >= end)
		return -1;
	if (first->start < start) {
		/* Split the end first: if it fails nothing has changed. */
		last = mr_find(m, end - 1);
		if (last->end > end && !split(m, last, end))
			return -1;
		if (!(first = split(m, first, start))) {
			merge_span(m, mr_find(m, end - 1), end);
			return -1;
		}
	} else {
		last = mr_find(m, end - 1);
		if (last->end > end && !split(m, last, end))
			return -1;
	}
	for (r = first; r && r->start < end; r = mr_next(m, r)) {
		cuemu_procmask was = r->holders;

		fn(r, arg);
		/* a processor that no longer holds the range has no mapping
		 * of it: when the pages come back, it maps them writable */
		r->ro &= r->holders;
		/* pages that moved are mapped remotely by no one */
		if (r->holders != was)
			r->maps = 0;
	}
	merge_span(m, first, end);
	return 0;
}

/* Gives r src's policy, residency and bookkeeping: all but its place. */
static void graft_fn(struct mrange *r, void *arg)
{
	const struct mrange *src = arg;

	r->pref = src->pref;
	r->last_prefetch = src->last_prefetch;
	r->accessed_by = src->accessed_by;
	r->read_mostly = src->read_mostly;
	r->holders = src->holders;
	r->ro = src->ro;
	r->maps = src->maps;
	r->host_node = src->host_node;
	r->pinned = src->pinned;
	r->pin_proc = src->pin_proc;
	r->lru = src->lru;
	r->moves = src->moves;
	r->throttles = src->throttles;
	r->thrash_ns = src->thrash_ns;
	r->thrash_first_ns = src->thrash_first_ns;
	r->pin_until_ns = src->pin_until_ns;
	r->thrashers = src->thrashers;
}

int mr_graft(struct mranges *dst, struct mranges *src)
{
	struct mrange *r;

	for (r = mr_first(src); r; r = mr_next(src, r))
		if (mr_update(dst, r->start, r->end, graft_fn, r) < 0)
			return -1;
	return 0;
}
