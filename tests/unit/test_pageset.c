/*
 * test_pageset.c - sets of page numbers with how each was reached
 * (runtime/model/pageset.h): a page counts once however often it is
 * added, each way (read, written) once, through the table's growth, and
 * the counts are those of a plain array kept beside it.
 */
#include "config.h"
#include "model/pageset.h"

#include <stdlib.h>
#include <string.h>

#include "tap.h"

#define SPACE (1u << 18) /* the page numbers the test draws from */

int main(void)
{
	struct pageset s = { 0 };
	static unsigned char want[SPACE];
	size_t n = 0, nr = 0, nw = 0;
	unsigned seed = 7;

	pageset_add(&s, 5, PAGESET_READ);
	pageset_add(&s, 5, PAGESET_READ);
	is_int(s.n, 1, "a page added twice is one page");
	is_int(s.nread, 1, "... read once");
	pageset_add(&s, 5, PAGESET_WRITE);
	ok(s.n == 1 && s.nread == 1 && s.nwritten == 1, "written after it "
	   "was read: one page, reached each way once");
	pageset_add(&s, 0, PAGESET_READ | PAGESET_WRITE);
	ok(s.n == 2 && s.nread == 2 && s.nwritten == 2, "page 0 is a page "
	   "like any (its slot is not taken for empty)");
	pageset_free(&s);
	ok(s.n == 0 && !s.slot && !s.full, "freed, the set is empty");

	for (int i = 0; i < 200000; i++) {
		unsigned pg, how;

		seed = seed * 1103515245u + 12345u;
		pg = (seed >> 8) % SPACE;
		how = 1 + (seed >> 4) % 3;
		pageset_add(&s, (uint64_t)pg << 20, how);
		if (!want[pg])
			n++;
		nr += (how & 1) && !(want[pg] & 1);
		nw += (how & 2) && !(want[pg] & 2);
		want[pg] |= (unsigned char)how;
	}
	ok(!s.full && s.cap >= 2 * s.n, "200,000 adds: the table grew, at "
	   "most half full (%zu of %zu)", s.n, s.cap);
	ok(s.n == n && s.nread == nr && s.nwritten == nw, "... its counts "
	   "are the array's: %zu pages, %zu read, %zu written", n, nr, nw);
	pageset_free(&s);
	return done_testing();
}
