/*
 * bench_start.c - a process's start: the wall time from before fork() to
 * the end of its first cuMemAlloc, with CUDA_VISIBLE_DEVICES set, beside
 * the real driver's (probes/startup.c on one H200, driver 580.159, CUDA
 * 13.0: probes/results/startup.txt, 21 runs, median 191 ms with
 * CUDA_VISIBLE_DEVICES=0, 197 ms unset). The runner runs itself again as
 * the process ("cuemu-bench --first-alloc FD"), which sends the time its
 * allocation ended through a pipe.
 *
 * No state of its own.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cuda.h"
#include "bench.h"

#define RUNS 21
#define REAL_CVD_MS 191.0

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int bench_first_alloc_child(int fd)
{
	CUcontext c;
	CUdeviceptr p;
	uint64_t t;

	if (cuInit(0) || cuDevicePrimaryCtxRetain(&c, 0) ||
	    cuCtxSetCurrent(c) || cuMemAlloc(&p, 4096))
		return 1;
	t = mono_ns();
	return write(fd, &t, sizeof t) == sizeof t ? 0 : 1;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* One start: the nanoseconds to its first allocation, or 0. */
static uint64_t one_start(const char *self)
{
	uint64_t t0, t = 0;
	char fdw[16];
	int pfd[2], st;
	pid_t pid;

	if (pipe(pfd) < 0)
		return 0;
	snprintf(fdw, sizeof fdw, "%d", pfd[1]);
	t0 = mono_ns();
	if ((pid = fork()) == 0) {
		close(pfd[0]);
		setenv("CUDA_VISIBLE_DEVICES", "1", 1);
		execl(self, self, "--first-alloc", fdw, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	if (pid < 0 || read(pfd[0], &t, sizeof t) != sizeof t)
		t = 0;
	close(pfd[0]);
	if (pid > 0)
		waitpid(pid, &st, 0);
	return t > t0 ? t - t0 : 0;
}

static int start_to_alloc(char *value, size_t len, char *unit, size_t ulen)
{
	uint64_t s[RUNS];
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);

	if (n < 0)
		return 1;
	self[n] = '\0';
	for (int i = 0; i < RUNS; i++)
		if (!(s[i] = one_start(self)))
			return 1;
	qsort(s, RUNS, sizeof s[0], cmp_u64);
	snprintf(value, len, "%.2f", s[RUNS / 2] / 1e6);
	snprintf(unit, ulen, "ms (real %.0f ms)", REAL_CVD_MS);
	return 0;
}

const struct bench_row bench_start_rows[] = {
	{ "start to first cuMemAlloc, CUDA_VISIBLE_DEVICES=1", 0,
	  NULL, NULL, NULL, 0, start_to_alloc },
	{ 0 }
};
