/*
 * tap.h - a small TAP producer for the unit tests: ok(), is_int(), is_res()
 * and done_testing(). Each test program is a specification: one line a fact.
 */
#ifndef CUEMU_TAP_H
#define CUEMU_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"

static int tap_n, tap_failed;

__attribute__((format(printf, 2, 3), unused))
static int ok(int cond, const char *fmt, ...)
{
	va_list ap;
	printf("%sok %d - ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		tap_failed++;
	fflush(stdout);
	return cond;
}

__attribute__((unused))
static const char *tap_res_name(CUresult r)
{
	const char *s = NULL;
	if (cuGetErrorName(r, &s) != CUDA_SUCCESS || !s)
		return "?";
	return s;
}

/* is_res(got, want, "what"): a CUresult, printed by name when it differs. */
#define is_res(got, want, ...)                                                \
	do {                                                                  \
		CUresult tap_g_ = (got), tap_w_ = (want);                     \
		if (!ok(tap_g_ == tap_w_, __VA_ARGS__))                       \
			printf("#   got %s, want %s\n", tap_res_name(tap_g_), \
			       tap_res_name(tap_w_));                         \
	} while (0)

/* is_int(got, want, "what"): integers, printed when they differ. */
#define is_int(got, want, ...)                                                \
	do {                                                                  \
		long long tap_g_ = (long long)(got), tap_w_ = (long long)(want); \
		if (!ok(tap_g_ == tap_w_, __VA_ARGS__))                       \
			printf("#   got %lld, want %lld\n", tap_g_, tap_w_);      \
	} while (0)

__attribute__((unused))
static int done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
