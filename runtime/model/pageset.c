/*
 * pageset.c - sets of page numbers with how each was reached (pageset.h).
 *
 * Locking: none; a set is its owner's.
 */
#include "model/pageset.h"

#include <stdlib.h>

static size_t slot_of(uint64_t pg, size_t cap)
{
	return (size_t)((pg * 0x9e3779b97f4a7c15ull) >> 17) & (cap - 1);
}

/* Where pg lies in s's table, or the empty slot it would take. */
static size_t find(const struct pageset *s, uint64_t pg)
{
	size_t i = slot_of(pg, s->cap);

	while (s->key[i] && s->key[i] != pg + 1)
		i = (i + 1) & (s->cap - 1);
	return i;
}

static bool grow(struct pageset *s)
{
	size_t cap = s->cap ? 2 * s->cap : 1024;
	uint64_t *key = calloc(cap, sizeof *key);
	uint8_t *how = calloc(cap, sizeof *how);
	struct pageset t = { .key = key, .how = how, .cap = cap };

	if (!key || !how) {
		free(key);
		free(how);
		return false;
	}
	for (size_t i = 0; i < s->cap; i++)
		if (s->key[i]) {
			size_t j = find(&t, s->key[i] - 1);

			key[j] = s->key[i];
			how[j] = s->how[i];
		}
	free(s->key);
	free(s->how);
	s->key = key;
	s->how = how;
	s->cap = cap;
	return true;
}

void pageset_add(struct pageset *s, uint64_t pg, unsigned how)
{
	unsigned add;
	size_t i;

	if (s->full)
		return;
	if (2 * (s->n + 1) > s->cap &&
	    (s->n >= PAGESET_MAX || !grow(s))) {
		s->full = true;
		return;
	}
	i = find(s, pg);
	if (!s->key[i]) {
		s->key[i] = pg + 1;
		s->how[i] = 0;
		s->n++;
	}
	add = how & ~s->how[i] & (PAGESET_READ | PAGESET_WRITE);
	s->how[i] |= (uint8_t)add;
	s->nread += !!(add & PAGESET_READ);
	s->nwritten += !!(add & PAGESET_WRITE);
}

void pageset_free(struct pageset *s)
{
	free(s->key);
	free(s->how);
	*s = (struct pageset){ 0 };
}
