/*
 * spanset.c - sets of address spans (spanset.h).
 *
 * Locking: none; a set is its owner's.
 */
#include "model/spanset.h"
#include "model/internal.h"

#include <stdlib.h>
#include <string.h>

size_t spans_floor(const struct spans *x, uintptr_t p)
{
	size_t lo = 0, hi = x->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (x->v[mid].s <= p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo; /* the first span starting after p */
}

bool spans_has(const struct spans *x, uintptr_t p)
{
	size_t i = spans_floor(x, p);

	return i > 0 && p < x->v[i - 1].e;
}

bool spans_overlap(const struct spans *x, uintptr_t s, uintptr_t e)
{
	size_t i = spans_floor(x, e - 1);

	return i > 0 && x->v[i - 1].e > s;
}

void spans_add(struct spans *x, uintptr_t s, uintptr_t e)
{
	size_t i = spans_floor(x, s), j;

	if (i > 0 && x->v[i - 1].e >= s) {
		i--;
	} else {
		if (x->n == x->cap) {
			size_t cap = x->cap ? 2 * x->cap : 16;
			struct span *n = realloc(x->v, cap * sizeof *n);
			if (!n) {
				x->oom = true;
				return;
			}
			x->v = n;
			x->cap = cap;
		}
		memmove(x->v + i + 1, x->v + i, (x->n - i) * sizeof *x->v);
		x->v[i] = (struct span){ s, e };
		x->n++;
	}
	x->v[i].s = cuemu_min_u(x->v[i].s, s);
	x->v[i].e = cuemu_max_u(x->v[i].e, e);
	/* Swallow the spans the grown one now reaches. */
	for (j = i + 1; j < x->n && x->v[j].s <= x->v[i].e; j++)
		x->v[i].e = cuemu_max_u(x->v[i].e, x->v[j].e);
	memmove(x->v + i + 1, x->v + j, (x->n - j) * sizeof *x->v);
	x->n -= j - i - 1;
}

void spans_free(struct spans *x)
{
	free(x->v);
	memset(x, 0, sizeof *x);
}
