/*
 * test_spanset.c - sets of address spans (runtime/model/spanset.h): what
 * spans_add and spans_add_many make is the set of every address added,
 * sorted, disjoint and merged where spans touch, whatever order the spans
 * came in; and the two ways of adding make the same set. spans_has_at
 * answers from a hint without a search: the hinted span or the next.
 */
#include "config.h"
#include "model/spanset.h"

#include <stdlib.h>
#include <string.h>

#include "tap.h"

#define PAGES 4096 /* the address space of the test, in units */

/* Whether x is sorted, disjoint, merged, and holds exactly the units
 * marked in want. */
static bool same_set(const struct spans *x, const bool *want)
{
	size_t i;
	uintptr_t u;

	for (i = 0; i < x->n; i++) {
		if (x->v[i].s >= x->v[i].e)
			return false;
		if (i && x->v[i - 1].e >= x->v[i].s)
			return false; /* touching spans must be one */
	}
	for (u = 0; u < PAGES; u++)
		if (spans_has(x, u) != want[u])
			return false;
	return true;
}

/* A pseudo-random number below n, the same every run. */
static unsigned next(unsigned n)
{
	static unsigned long long s = 88172645463325252ULL;

	s ^= s << 13;
	s ^= s >> 7;
	s ^= s << 17;
	return (unsigned)(s % n);
}

static void test_merges(void)
{
	struct spans x = { 0 };
	struct span add[] = { { 30, 40 }, { 10, 20 }, { 20, 30 }, { 50, 60 },
			      { 55, 58 } };

	spans_add_many(&x, add, 5);
	ok(x.n == 2 && x.v[0].s == 10 && x.v[0].e == 40 && x.v[1].s == 50 &&
	   x.v[1].e == 60, "touching spans merge and a span inside another "
	   "adds nothing: [10,40) [50,60) (%zu spans)", x.n);
	spans_add(&x, 40, 50);
	ok(x.n == 1 && x.v[0].s == 10 && x.v[0].e == 60,
	   "a span that closes the gap makes one of all");
	spans_add_many(&x, add, 0);
	ok(x.n == 1, "adding no spans changes nothing");
	spans_free(&x);
	ok(!x.v && !x.n, "freed, a set is empty");
}

/* Random spans, in random order, one way and the other: both are the set
 * of every unit added. */
static void test_random(void)
{
	static bool want[PAGES];
	static struct span batch[512];
	struct spans one = { 0 }, many = { 0 };
	bool same = true, equal = true;

	for (int round = 0; round < 64; round++) {
		size_t m = 1 + next(512);

		for (size_t i = 0; i < m; i++) {
			uintptr_t s = next(PAGES - 8), len = 1 + next(8);

			batch[i] = (struct span){ s, s + len };
			spans_add(&one, s, s + len);
			for (uintptr_t u = s; u < s + len; u++)
				want[u] = true;
		}
		spans_add_many(&many, batch, m);
		same &= same_set(&one, want) && same_set(&many, want);
		equal &= one.n == many.n &&
			 !memcmp(one.v, many.v, one.n * sizeof *one.v);
	}
	ok(same, "64 rounds of scattered spans: each way holds exactly the "
	   "units added, sorted, disjoint and merged");
	ok(equal, "spans_add one at a time and spans_add_many make the same "
	   "spans (%zu)", many.n);
	spans_free(&one);
	spans_free(&many);
}

/* spans_has_at looks at the hinted span and the next only, and moves the
 * hint to the span it found p in. */
static void test_has_at(void)
{
	struct spans x = { 0 };
	size_t h = 0;

	ok(!spans_has_at(&x, 10, &h), "an empty set holds nothing at hint 0");
	spans_add(&x, 10, 20);
	spans_add(&x, 30, 40);
	spans_add(&x, 50, 60);
	ok(spans_has_at(&x, 15, &h) && h == 0, "the hinted span: hint 0");
	ok(spans_has_at(&x, 35, &h) && h == 1, "the next: the hint moves to 1");
	ok(spans_has_at(&x, 59, &h) && h == 2, "and on to 2");
	h = 0;
	ok(!spans_has_at(&x, 55, &h) && h == 0,
	   "two spans on is not looked at; the hint stays");
	ok(!spans_has_at(&x, 25, &h) && !spans_has_at(&x, 20, &h) && h == 0,
	   "a gap and a span's end are not held");
	h = 3;
	ok(!spans_has_at(&x, 15, &h) && h == 3,
	   "a hint past the end finds nothing");
	h = 1;
	ok(!spans_has_at(&x, 15, &h) && h == 1, "nor does one past p's span");
	spans_free(&x);
}

int main(void)
{
	test_merges();
	test_random();
	test_has_at();
	return done_testing();
}
