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
#include <dirent.h>
#include <unistd.h>

#include "cuda.h"

static int tap_n, tap_failed;

/*
 * Run by hand, a test must not attach to the user's machine "cuemu" nor put
 * sockets in the user's run dir: with no CUEMU_MACHINE it gets a machine of
 * its own, cuemu-test-<pid>, and with no CUEMU_RUNDIR a run dir of its own;
 * both are removed when it exits. (make check gives each test both through
 * tests/private-machine.sh, which also cleans up after a crash.)
 * Global: what the constructor made is what the exit handler removes.
 */
static struct {
	pid_t owner;
	char machine[64], rundir[64];
} tap_own;

static void tap_remove_own(void)
{
	char path[600];
	struct dirent *e;
	DIR *d;

	if (getpid() != tap_own.owner)
		return;
	if (tap_own.machine[0]) {
		size_t n = strlen(tap_own.machine);
		snprintf(path, sizeof path, "/dev/shm/%s", tap_own.machine);
		unlink(path);
		/* and the machines of its own it named after it
		 * ("<machine>-copyone", "-h200x2") */
		if ((d = opendir("/dev/shm"))) {
			while ((e = readdir(d)))
				if (!strncmp(e->d_name, tap_own.machine, n) &&
				    e->d_name[n] == '-') {
					snprintf(path, sizeof path,
						 "/dev/shm/%s", e->d_name);
					unlink(path);
				}
			closedir(d);
		}
	}
	if (tap_own.rundir[0] && (d = opendir(tap_own.rundir))) {
		while ((e = readdir(d)))
			if (e->d_name[0] != '.') {
				snprintf(path, sizeof path, "%s/%s",
					 tap_own.rundir, e->d_name);
				unlink(path);
			}
		closedir(d);
		rmdir(tap_own.rundir);
	}
}

__attribute__((constructor, unused))
static void tap_private_machine(void)
{
	tap_own.owner = getpid();
	if (!getenv("CUEMU_MACHINE")) {
		snprintf(tap_own.machine, sizeof tap_own.machine,
			 "cuemu-test-%d", (int)getpid());
		setenv("CUEMU_MACHINE", tap_own.machine, 1);
	}
	if (!getenv("CUEMU_RUNDIR")) {
		snprintf(tap_own.rundir, sizeof tap_own.rundir,
			 "/tmp/cuemu-test-run.XXXXXX");
		if (mkdtemp(tap_own.rundir))
			setenv("CUEMU_RUNDIR", tap_own.rundir, 1);
		else
			tap_own.rundir[0] = '\0';
	}
	atexit(tap_remove_own);
}

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
