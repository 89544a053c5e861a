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

bool spans_has_at(const struct spans *x, uintptr_t p, size_t *hint)
{
	for (size_t i = *hint; i < x->n && i <= *hint + 1; i++) {
		if (x->v[i].s <= p && p < x->v[i].e) {
			*hint = i;
			return true;
		}
	}
	return false;
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

static int by_start(const void *a, const void *b)
{
	uintptr_t x = ((const struct span *)a)->s, y = ((const struct span *)b)->s;

	return (x > y) - (x < y);
}

/* Appends sp to out[0..*n), merged with the last when they meet. */
static void put_merged(struct span *out, size_t *n, struct span sp)
{
	if (*n && out[*n - 1].e >= sp.s)
		out[*n - 1].e = cuemu_max_u(out[*n - 1].e, sp.e);
	else
		out[(*n)++] = sp;
}

void spans_add_many(struct spans *x, struct span *add, size_t m)
{
	struct span *out;
	size_t i = 0, j = 0, n = 0;

	if (!m)
		return;
	qsort(add, m, sizeof *add, by_start);
	if (!(out = malloc((x->n + m) * sizeof *out))) {
		x->oom = true;
		return;
	}
	while (i < x->n || j < m)
		put_merged(out, &n, j == m || (i < x->n && x->v[i].s <= add[j].s)
				    ? x->v[i++] : add[j++]);
	free(x->v);
	x->v = out;
	x->n = n;
	x->cap = i + j; /* what out was made for: the old n, and m */
}

void spans_free(struct spans *x)
{
	free(x->v);
	memset(x, 0, sizeof *x);
}
