/*
 * spanset.h - sets of address spans: sorted, disjoint, merged where they
 * touch, looked up in O(log n). The kernel model keeps what a kernel's
 * faults brought and what its looks charged in them (kernel.c), and the
 * per-kernel accounting the pages a launch touched (kstats.c). A kernel
 * walking memory keeps a handful; one touching every other page keeps one
 * a page.
 *
 * Locking: none; a set is its owner's.
 */
#ifndef CUEMU_SPANSET_H
#define CUEMU_SPANSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct span {
	uintptr_t s, e;
};

struct spans {
	struct span *v;
	size_t n, cap;
	bool oom;          /* a span could not be added */
};

/* The index of the first span starting after p. */
size_t spans_floor(const struct spans *x, uintptr_t p);
/* Whether p lies in a span. */
bool spans_has(const struct spans *x, uintptr_t p);
/* Whether p lies in the span at *hint or the next, without a search: O(1)
 * for a walk, which asks one span after another. Where it does, *hint
 * becomes that span's index; a hint past the end finds nothing. */
bool spans_has_at(const struct spans *x, uintptr_t p, size_t *hint);
/* Whether [s, e) meets a span. */
bool spans_overlap(const struct spans *x, uintptr_t s, uintptr_t e);
/* Adds [s, e), merging what it reaches; sets oom when it cannot grow.
 * O(log n) to find its place, O(n) to make room: for spans that come in
 * order, or few. */
void spans_add(struct spans *x, uintptr_t s, uintptr_t e);
/* Adds the m spans of add (in any order; add is sorted in place) in one
 * merge: O(n + m log m), for spans that come scattered, gathered first.
 * Sets oom, adding none, when it cannot grow. */
void spans_add_many(struct spans *x, struct span *add, size_t m);
/* Empties x and frees its memory. */
void spans_free(struct spans *x);

#endif
