/*
 * bench_clock.c - what a program's clock call costs with CUEMU_CLOCK unset
 * (libcuemu(3), THE PROGRAM'S CLOCKS): clock_gettime(CLOCK_MONOTONIC) and
 * gettimeofday as this program finds them (libcuemu's names, one branch
 * before the C library's), beside the C library's own functions called
 * directly, in the same run. The goal is one predicted branch and a call:
 * a few nanoseconds over the C library's.
 *
 * No state of its own.
 */
#include "config.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/time.h>
#include <time.h>

#include "bench.h"

#define CALLS 2000000
#define ROUNDS 5

/* The best of ROUNDS of CALLS calls of fn, in nanoseconds a call. */
static double per_call(int (*fn)(clockid_t, struct timespec *))
{
	double best = 0;

	for (int r = 0; r < ROUNDS; r++) {
		struct timespec a, b, t;
		double ns;

		clock_gettime(CLOCK_MONOTONIC, &a);
		for (int i = 0; i < CALLS; i++)
			fn(CLOCK_MONOTONIC, &t);
		clock_gettime(CLOCK_MONOTONIC, &b);
		ns = ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) /
		     CALLS;
		if (r == 0 || ns < best)
			best = ns;
	}
	return best;
}

static int tod(clockid_t unused, struct timespec *t)
{
	(void)unused;
	return gettimeofday((struct timeval *)t, NULL);
}

static int (*libc_tod_fn)(struct timeval *, void *);

static int libc_tod(clockid_t unused, struct timespec *t)
{
	(void)unused;
	return libc_tod_fn((struct timeval *)t, NULL);
}

/* The C library's own function of that name, past libcuemu's. */
static void *libc_fn(const char *name)
{
	void *c = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);

	return c ? dlsym(c, name) : NULL;
}

static int row(char *value, size_t len, double ours, double libc)
{
	if (ours <= 0 || libc <= 0)
		return 1;
	snprintf(value, len, "%.1f ns, the C library's %.1f ns: +%.1f ns",
		 ours, libc, ours - libc);
	return 0;
}

static int monotonic(char *value, size_t len, char *unit, size_t ulen)
{
	int (*real)(clockid_t, struct timespec *);
	void *f = libc_fn("clock_gettime");

	if (!f)
		return 1;
	*(void **)&real = f;
	snprintf(unit, ulen, "%s", "");
	return row(value, len, per_call(clock_gettime), per_call(real));
}

static int timeofday(char *value, size_t len, char *unit, size_t ulen)
{
	void *f = libc_fn("gettimeofday");

	if (!f)
		return 1;
	*(void **)&libc_tod_fn = f;
	snprintf(unit, ulen, "%s", "");
	return row(value, len, per_call(tod), per_call(libc_tod));
}

const struct bench_row bench_clock_rows[] = {
	{ .name = "clock_gettime MONOTONIC, CUEMU_CLOCK unset",
	  .report = monotonic },
	{ .name = "gettimeofday, CUEMU_CLOCK unset", .report = timeofday },
	{ 0 }
};
