/*
 * test_pageset.c - sets of page numbers with how each was reached
 * (runtime/model/pageset.h): a page counts once however often it is
 * added, each way (read, written) once, through the table's growth, and
 * the counts and members are those of a plain array kept beside it; an
 * add says how the page was reached before; a merge adds another set.
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
	{
		size_t bad = 0;
		for (unsigned pg = 0; pg < SPACE; pg++)
			bad += pageset_has(&s, (uint64_t)pg << 20) != !!want[pg];
		is_int(bad, 0, "... and it has exactly the array's pages");
	}
	pageset_free(&s);

	is_int(pageset_add(&s, 9, PAGESET_READ), 0, "an add says the page "
	       "was not there");
	is_int(pageset_add(&s, 9, PAGESET_WRITE), PAGESET_READ, "... and "
	       "then how it was reached before");
	{
		struct pageset t = { 0 };

		pageset_add(&t, 9, PAGESET_WRITE);
		pageset_add(&t, 11, PAGESET_READ);
		pageset_merge(&t, &s);
		ok(t.n == 2 && t.nread == 2 && t.nwritten == 1 &&
		   pageset_has(&t, 9) && pageset_has(&t, 11) &&
		   !pageset_has(&t, 10), "a merge adds the other set's pages "
		   "as it reached them, once each");
		pageset_free(&t);
	}
	pageset_free(&s);
	return done_testing();
}
