/*
 * pageset.c - sets of page numbers with how each was reached (pageset.h).
 *
 * Locking: none; a set is its owner's.
 */
#include "model/pageset.h"

#include <stdlib.h>

#define HOW_BITS 2
#define HOW_MASK ((1u << HOW_BITS) - 1)

static uint64_t tag_of(uint64_t pg)
{
	return (pg + 1) << HOW_BITS;
}

static size_t slot_of(uint64_t pg, size_t cap)
{
	return (size_t)((pg * 0x9e3779b97f4a7c15ull) >> 17) & (cap - 1);
}

/* Where pg lies in s's table, or the empty slot it would take. */
static size_t find(const uint64_t *slot, size_t cap, uint64_t pg)
{
	size_t i = slot_of(pg, cap);

	while (slot[i] && (slot[i] & ~(uint64_t)HOW_MASK) != tag_of(pg))
		i = (i + 1) & (cap - 1);
	return i;
}

static bool grow(struct pageset *s)
{
	size_t cap = s->cap ? 2 * s->cap : 1024;
	uint64_t *slot = calloc(cap, sizeof *slot);

	if (!slot)
		return false;
	for (size_t i = 0; i < s->cap; i++)
		if (s->slot[i])
			slot[find(slot, cap, (s->slot[i] >> HOW_BITS) - 1)] =
				s->slot[i];
	free(s->slot);
	s->slot = slot;
	s->cap = cap;
	return true;
}

unsigned pageset_add(struct pageset *s, uint64_t pg, unsigned how)
{
	unsigned add, before;
	size_t i;

	if (s->full)
		return PAGESET_READ | PAGESET_WRITE;
	if (2 * (s->n + 1) > s->cap &&
	    (s->n >= PAGESET_MAX || !grow(s))) {
		s->full = true;
		return PAGESET_READ | PAGESET_WRITE;
	}
	i = find(s->slot, s->cap, pg);
	if (!s->slot[i]) {
		s->slot[i] = tag_of(pg);
		s->n++;
	}
	before = (unsigned)s->slot[i] & HOW_MASK;
	add = how & ~before & (PAGESET_READ | PAGESET_WRITE);
	if (!add)
		return before;
	s->slot[i] |= add;
	s->nread += !!(add & PAGESET_READ);
	s->nwritten += !!(add & PAGESET_WRITE);
	return before;
}

bool pageset_has(const struct pageset *s, uint64_t pg)
{
	return s->cap && s->slot[find(s->slot, s->cap, pg)];
}

void pageset_merge(struct pageset *into, const struct pageset *from)
{
	for (size_t i = 0; i < from->cap && !into->full; i++)
		if (from->slot[i])
			pageset_add(into, (from->slot[i] >> HOW_BITS) - 1,
				    (unsigned)from->slot[i] & HOW_MASK);
}

void pageset_free(struct pageset *s)
{
	free(s->slot);
	*s = (struct pageset){ 0 };
}
