/*
 * pageset.h - sets of 4 KiB page numbers, each with how it was reached
 * (read, written), added in O(1): the distinct pages of its own GPU's
 * memory a kernel the engine runs reached, whose bytes its DRAM moves at
 * least once (driver/launch.c, km_work's footprint). A hash table by
 * open addressing, doubled at half full, bounded.
 *
 * Locking: none; a set is its owner's.
 */
#ifndef CUEMU_PAGESET_H
#define CUEMU_PAGESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PAGESET_READ 1u
#define PAGESET_WRITE 2u
/* A set holds at most this many pages (64 GiB of 4 KiB pages, 144 MiB of
 * table); past it, or where the table cannot grow, it is full. */
#define PAGESET_MAX (1UL << 24)

struct pageset {
	uint64_t *slot;    /* (page number + 1) << 2 | its PAGESET_* bits:
	                    * one word, so a lookup reads one cache line;
	                    * 0 empty */
	size_t cap, n;
	size_t nread, nwritten; /* pages reached each way */
	bool full;         /* a page could not be added: counts unknown */
};

/* Adds page number pg, reached as how says; returns how it was reached
 * before (0: it was not in s; both bits where s is full). */
unsigned pageset_add(struct pageset *s, uint64_t pg, unsigned how);
/* Whether page number pg is in s. */
bool pageset_has(const struct pageset *s, uint64_t pg);
/* Adds every page of from to into, as from reached it. */
void pageset_merge(struct pageset *into, const struct pageset *from);
void pageset_free(struct pageset *s);

#endif
