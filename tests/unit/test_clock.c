/*
 * test_clock.c - CUEMU_CLOCK (libcuemu(3)): a C program linked with
 * libcuemu, as one linked with -lcuda is, reads its own clocks through
 * libcuemu's clock_gettime, gettimeofday, time and timespec_get. With
 * CUEMU_CLOCK=model they read the thread's model time: its CPU work moves
 * it by its CPU time, a synchronization to the end of what it waited for,
 * a sleep by what it slept, a launch captured into a graph by the H200's
 * 0.5 us, a reading of a clock by next to nothing; the clocks keep their offsets; deadlines on
 * them are kept in model time. Unset, every clock is the real one;
 * CUEMU_CLOCK=bogus is refused by cuInit, in one line on stderr.
 *
 * The library reads CUEMU_CLOCK once, at its load, so each setting runs in
 * a process of its own (this program again, spawn.h), which prints one
 * "PASS text" or "FAIL text" line a fact ("SKIP text" for one a sanitizer
 * build cannot hold); this one relays them as TAP.
 * The real clock is read with the system call itself, past libcuemu.
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "cuda.h"
#include "cuemu.h"
#include "spawn.h"
#include "tap.h"

#define MS 1000000LL

/* ---------------------------------------------------------------- child */

static int failures;

static void fact(int pass, const char *fmt, ...)
{
	va_list ap;

	printf("%s ", pass ? "PASS" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	failures += !pass;
}

/* A fact of how little of libcuemu's own CPU reaches the program's clock.
 * A sanitizer build's instrumentation is CPU that the reading's cost,
 * measured at load, does not stand for, and varies with the host's load:
 * there the fact is skipped, saying so (the plain build asserts it). */
static void fact_cpu(int pass, const char *fmt, ...)
{
	va_list ap;

#if defined(__SANITIZE_ADDRESS__)
	printf("SKIP ");
	(void)pass;
#else
	printf("%s ", pass ? "PASS" : "FAIL");
	failures += !pass;
#endif
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static int64_t ns_of(const struct timespec *t)
{
	return (int64_t)t->tv_sec * 1000000000LL + t->tv_nsec;
}

/* A clock as the program reads it (through libcuemu). */
static int64_t now(clockid_t c)
{
	struct timespec t;

	clock_gettime(c, &t);
	return ns_of(&t);
}

/* The real clock: the system call, which nothing interposes. */
static int64_t real_now(clockid_t c)
{
	struct timespec t;

	syscall(SYS_clock_gettime, c, &t);
	return ns_of(&t);
}

/* c as the program reads it lies between two real readings around it:
 * it is the real clock. */
static int reads_real(clockid_t c)
{
	int64_t r0 = real_now(c), v = now(c), r1 = real_now(c);

	return r0 <= v && v <= r1;
}

/* Spins until the thread has used ms of CPU time. */
static void burn(int ms)
{
	int64_t end = now(CLOCK_THREAD_CPUTIME_ID) + ms * MS;
	volatile unsigned x = 0;

	while (now(CLOCK_THREAD_CPUTIME_ID) < end)
		for (int i = 0; i < 10000; i++)
			x += (unsigned)i;
}

static CUstream setup(void)
{
	CUcontext ctx;
	CUstream s = NULL;

	if (cuInit(0) != CUDA_SUCCESS ||
	    cuDevicePrimaryCtxRetain(&ctx, 0) != CUDA_SUCCESS ||
	    cuCtxSetCurrent(ctx) != CUDA_SUCCESS ||
	    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS) {
		fact(0, "a context and a stream (%s)", "setup");
		return NULL;
	}
	return s;
}

/* The program's clock_gettime is libcuemu's; in a sanitizer build, the
 * sanitizer's runtime comes first and hands the call on to the next
 * definition, libcuemu's (the model facts show it arrives). */
static void interposed(void)
{
	Dl_info info = { 0 };
	int found = dladdr((void *)clock_gettime, &info);
	const char *lib = found && info.dli_fname ? info.dli_fname : "?";

	fact(strstr(lib, "libcuemu") || strstr(lib, "libasan"),
	     "the program's clock_gettime is libcuemu's (%s)", lib);
}

/* How far a stream synchronization moves the clock. */
static void sync_moves(CUstream s, unsigned long long ns, const char *how)
{
	int64_t t0 = now(CLOCK_MONOTONIC), d;
	CUevent e;

	cuemuStreamSleep(s, ns);
	if (!strcmp(how, "cuStreamSynchronize")) {
		cuStreamSynchronize(s);
	} else if (!strcmp(how, "cuEventSynchronize")) {
		cuEventCreate(&e, 0);
		cuEventRecord(e, s);
		cuEventSynchronize(e);
		cuEventDestroy(e);
	} else {
		cuCtxSynchronize();
	}
	d = now(CLOCK_MONOTONIC) - t0;
	fact(d >= (int64_t)ns && d < (int64_t)ns + 5 * MS,
	     "%s after %llu ms of model work moves MONOTONIC by that "
	     "(%.3f ms)", how, ns / MS, d / 1e6);
}

/* A thread that never touches CUDA: its clock counts its CPU time. */
static void *cpu_thread(void *arg)
{
	int64_t *d = arg;
	int64_t c0 = now(CLOCK_THREAD_CPUTIME_ID), t0 = now(CLOCK_MONOTONIC);

	burn(30);
	d[0] = now(CLOCK_MONOTONIC) - t0;
	d[1] = now(CLOCK_THREAD_CPUTIME_ID) - c0;
	return NULL;
}

static void cpu_time(void)
{
	int64_t c0 = now(CLOCK_THREAD_CPUTIME_ID), t0 = now(CLOCK_MONOTONIC);
	int64_t d, c, td[2] = { 0, 0 };
	pthread_t t;

	burn(40);
	d = now(CLOCK_MONOTONIC) - t0;
	c = now(CLOCK_THREAD_CPUTIME_ID) - c0;
	fact(d >= c - MS && d <= c + c / 10 + 2 * MS,
	     "40 ms of CPU work moves MONOTONIC by its CPU time (%.3f ms "
	     "for %.3f ms)", d / 1e6, c / 1e6);
	if (pthread_create(&t, NULL, cpu_thread, td) == 0)
		pthread_join(t, NULL);
	fact(td[0] >= td[1] - MS && td[0] <= td[1] + td[1] / 10 + 2 * MS,
	     "a thread that never touches CUDA sees its own CPU time (%.3f "
	     "ms for %.3f ms)", td[0] / 1e6, td[1] / 1e6);
}

/* An empty kernel, to capture. */
static const char empty_ptx[] =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry empty()\n{\n\tret;\n}\n";

/* A launch captured into a graph costs the program's clock the H200's
 * 0.5 us (uvm.graph_capture_call_ns), not libcuemu's CPU time for it. */
static void captured_calls(CUstream s)
{
	enum { N = 100 };
	CUmodule m;
	CUfunction f;
	CUgraph g = NULL;
	int64_t t0, d;

	if (cuModuleLoadData(&m, empty_ptx) != CUDA_SUCCESS ||
	    cuModuleGetFunction(&f, m, "empty") != CUDA_SUCCESS ||
	    cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED) !=
		    CUDA_SUCCESS) {
		fact(0, "a module and a capture (%s)", "captured_calls");
		return;
	}
	t0 = now(CLOCK_MONOTONIC);
	for (int i = 0; i < N; i++)
		cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, NULL, NULL);
	d = now(CLOCK_MONOTONIC) - t0;
	cuStreamEndCapture(s, &g);
	fact_cpu(d >= N * 500 && d < N * 500 + 30000,
		 "100 launches captured move MONOTONIC by 0.5 us each (%.2f us "
		 "each)", d / 1e3 / N);
	if (g)
		cuGraphDestroy(g);
	cuModuleUnload(m);
}

/* A reading of the clock is libcuemu's work: it moves the clock by about
 * what a real reading takes (tens of nanoseconds), not by its own CPU
 * time (two readings of the thread's CPU time, 0.6 us here). */
static void readings(void)
{
	enum { N = 10000 };
	int64_t t0 = now(CLOCK_MONOTONIC), d;

	for (int i = 0; i < N; i++)
		(void)now(CLOCK_MONOTONIC);
	d = now(CLOCK_MONOTONIC) - t0;
	fact_cpu(d >= 0 && d < N * 250, "10,000 readings of MONOTONIC move it "
		 "by under 0.25 us each (%.3f us each)", d / 1e3 / N);
}

static void offsets(CUstream s)
{
	int64_t o0 = now(CLOCK_REALTIME) - now(CLOCK_MONOTONIC), o1;
	int64_t b0 = now(CLOCK_BOOTTIME) - now(CLOCK_MONOTONIC), b1;
	struct timespec ts;
	struct timeval tv;
	time_t t;

	cuemuStreamSleep(s, 100000 * MS);
	cuStreamSynchronize(s);
	o1 = now(CLOCK_REALTIME) - now(CLOCK_MONOTONIC);
	b1 = now(CLOCK_BOOTTIME) - now(CLOCK_MONOTONIC);
	fact(llabs(o1 - o0) < MS && llabs(b1 - b0) < MS,
	     "REALTIME and BOOTTIME keep their offsets to MONOTONIC across "
	     "100 s of model time (moved %lld ns, %lld ns)",
	     (long long)(o1 - o0), (long long)(b1 - b0));
	fact(llabs(now(CLOCK_MONOTONIC_RAW) - now(CLOCK_MONOTONIC) -
		   (real_now(CLOCK_MONOTONIC_RAW) - real_now(CLOCK_MONOTONIC)))
	     < 5 * MS,
	     "MONOTONIC_RAW keeps its offset to MONOTONIC");
	gettimeofday(&tv, NULL);
	timespec_get(&ts, TIME_UTC);
	t = time(NULL);
	fact(llabs((int64_t)tv.tv_sec * 1000000000LL + tv.tv_usec * 1000LL -
		   now(CLOCK_REALTIME)) < MS &&
	     llabs(ns_of(&ts) - now(CLOCK_REALTIME)) < MS &&
	     llabs((int64_t)t - now(CLOCK_REALTIME) / 1000000000LL) <= 1,
	     "gettimeofday, timespec_get and time read REALTIME's model time");
	fact(now(CLOCK_REALTIME) - real_now(CLOCK_REALTIME) > 90000 * MS,
	     "REALTIME is 100 s of model work ahead of the real clock "
	     "(%.3f s)", (now(CLOCK_REALTIME) - real_now(CLOCK_REALTIME)) /
	     1e9);
}

/* A timed wait 20 ms on in model time that nothing ends: on clk through
 * pthread_cond_clockwait, or (clk -1) sem_timedwait on REALTIME. Its
 * result in *rc, the real time it took. */
static int64_t timed_wait(clockid_t clk, int *rc)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
	struct timespec at;
	int64_t r0;
	sem_t sem;

	clock_gettime(clk < 0 ? CLOCK_REALTIME : clk, &at);
	at.tv_nsec += 20 * MS;
	if (at.tv_nsec >= 1000000000L) {
		at.tv_nsec -= 1000000000L;
		at.tv_sec++;
	}
	r0 = real_now(CLOCK_MONOTONIC);
	if (clk < 0) {
		sem_init(&sem, 0, 0);
		while ((*rc = sem_timedwait(&sem, &at)) < 0 && errno == EINTR)
			;
		sem_destroy(&sem);
	} else {
		pthread_mutex_lock(&m);
		do
			*rc = pthread_cond_clockwait(&cv, &m, clk, &at);
		while (*rc == 0);
		pthread_mutex_unlock(&m);
	}
	return real_now(CLOCK_MONOTONIC) - r0;
}

static void sleeps(void)
{
	struct timespec ten = { 0, 10 * MS }, at;
	int64_t t0 = now(CLOCK_MONOTONIC), r0 = real_now(CLOCK_MONOTONIC);
	int64_t d, r;
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
	int rc;

	nanosleep(&ten, NULL);
	d = now(CLOCK_MONOTONIC) - t0;
	r = real_now(CLOCK_MONOTONIC) - r0;
	fact(d >= 10 * MS && d <= r + MS,
	     "a 10 ms nanosleep moves MONOTONIC by what it slept (%.3f ms, "
	     "%.3f ms real)", d / 1e6, r / 1e6);
	t0 = now(CLOCK_MONOTONIC);
	r0 = real_now(CLOCK_MONOTONIC);
	usleep(10000);
	d = now(CLOCK_MONOTONIC) - t0;
	r = real_now(CLOCK_MONOTONIC) - r0;
	fact(d >= 10 * MS && d <= r + MS,
	     "a 10 ms usleep moves it by what it slept (%.3f ms)", d / 1e6);

	/* Deadlines in model time, 100 s ahead of the real clock: kept,
	 * the wait is 20 ms, not the 100 s a real deadline of the same
	 * value would be. */
	clock_gettime(CLOCK_MONOTONIC, &at);
	at.tv_nsec += 20 * MS;
	if (at.tv_nsec >= 1000000000L) {
		at.tv_nsec -= 1000000000L;
		at.tv_sec++;
	}
	r0 = real_now(CLOCK_MONOTONIC);
	rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL);
	r = real_now(CLOCK_MONOTONIC) - r0;
	fact(rc == 0 && r >= 19 * MS && r < 500 * MS &&
	     now(CLOCK_MONOTONIC) >= ns_of(&at),
	     "clock_nanosleep to a MONOTONIC deadline 20 ms on waits 20 ms "
	     "(%.3f ms real) and ends at it", r / 1e6);
	clock_gettime(CLOCK_REALTIME, &at);
	at.tv_nsec += 20 * MS;
	if (at.tv_nsec >= 1000000000L) {
		at.tv_nsec -= 1000000000L;
		at.tv_sec++;
	}
	r0 = real_now(CLOCK_MONOTONIC);
	pthread_mutex_lock(&m);
	do
		rc = pthread_cond_timedwait(&cv, &m, &at);
	while (rc == 0);
	pthread_mutex_unlock(&m);
	r = real_now(CLOCK_MONOTONIC) - r0;
	fact(rc == ETIMEDOUT && r >= 19 * MS && r < 500 * MS &&
	     now(CLOCK_REALTIME) >= ns_of(&at),
	     "pthread_cond_timedwait to a REALTIME deadline 20 ms on times "
	     "out after 20 ms (%.3f ms real)", r / 1e6);
	r = timed_wait(CLOCK_MONOTONIC, &rc);
	fact(rc == ETIMEDOUT && r >= 19 * MS && r < 500 * MS,
	     "pthread_cond_clockwait (std::condition_variable's) to a "
	     "MONOTONIC deadline 20 ms on times out after 20 ms (%.3f ms "
	     "real)", r / 1e6);
	r = timed_wait(-1, &rc);
	fact(rc == -1 && errno == ETIMEDOUT && r >= 19 * MS && r < 500 * MS,
	     "sem_timedwait to a REALTIME deadline 20 ms on times out after "
	     "20 ms (%.3f ms real)", r / 1e6);
	t0 = now(CLOCK_MONOTONIC);
	r0 = real_now(CLOCK_MONOTONIC);
	rc = poll(NULL, 0, 10);
	d = now(CLOCK_MONOTONIC) - t0;
	r = real_now(CLOCK_MONOTONIC) - r0;
	fact(rc == 0 && d >= 10 * MS && d <= r + MS,
	     "a poll with a 10 ms timeout moves MONOTONIC by what it waited "
	     "(%.3f ms)", d / 1e6);
}

static void refusals(void)
{
	struct timespec bad = { 0, 1000000000L }, ts;
	int64_t t0 = now(CLOCK_MONOTONIC);
	int rc;

	errno = 0;
	rc = clock_gettime((clockid_t)1000, &ts);
	fact(rc == -1 && errno == EINVAL,
	     "clock_gettime of no clock: -1, EINVAL (%d, %s)", rc,
	     strerror(errno));
	errno = 0;
	rc = nanosleep(&bad, NULL);
	fact(rc == -1 && errno == EINVAL,
	     "nanosleep of 10^9 ns in tv_nsec: -1, EINVAL (%d, %s)", rc,
	     strerror(errno));
	rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &bad, NULL);
	fact(rc == EINVAL, "clock_nanosleep to a deadline that is no time: "
	     "EINVAL (%d)", rc);
	fact(now(CLOCK_MONOTONIC) - t0 < 5 * MS,
	     "the refused calls moved the clock by no wait (%.3f ms)",
	     (now(CLOCK_MONOTONIC) - t0) / 1e6);
}

/* A host function reads its stream's clock: after 300 ms of model work
 * ahead of it on the stream, 300 ms on from the enqueuing thread's. */
static void read_in_host_func(void *arg)
{
	*(int64_t *)arg = now(CLOCK_MONOTONIC);
}

static void host_func(CUstream s)
{
	int64_t t0 = now(CLOCK_MONOTONIC), seen = 0;

	cuemuStreamSleep(s, 300 * MS);
	cuLaunchHostFunc(s, read_in_host_func, &seen);
	cuStreamSynchronize(s);
	fact(seen - t0 >= 300 * MS && seen - t0 < 305 * MS,
	     "a host function reads its stream's model time (%.3f ms on)",
	     (seen - t0) / 1e6);
}

/* A CPU thread touching every 4 KiB of GPU-resident managed memory: each
 * 64 KiB faults once, and each fault is the model's charge on the clock;
 * the host's trap around the handler is left out (its measure, at the
 * first managed allocation, is on stderr under CUEMU_DEBUG: trap_said). */
static int trap_role(void)
{
	size_t n = 16 << 20;
	CUdeviceptr p = 0;
	CUmemLocation gpu = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
	CUstream s;
	int64_t t0, d;

	if (!(s = setup()))
		return 1;
	if (cuMemAllocManaged(&p, n, CU_MEM_ATTACH_GLOBAL) != CUDA_SUCCESS) {
		fact(0, "a managed allocation (%s)", "trap");
		return 1;
	}
	memset((void *)p, 1, n);
	fact(cuMemPrefetchAsync(p, n, gpu, 0, s) == CUDA_SUCCESS &&
	     cuStreamSynchronize(s) == CUDA_SUCCESS, "16 MiB prefetched to "
	     "the GPU");
	t0 = now(CLOCK_MONOTONIC);
	for (size_t i = 0; i < n; i += 4096)
		((volatile char *)p)[i]++;
	d = now(CLOCK_MONOTONIC) - t0;
	fact(d > 0 && ((volatile char *)p)[n - 4096] == 2, "the CPU's "
	     "touches of GPU-resident pages fault and land (%.3f ms)",
	     d / 1e6);
	cuMemFree(p);
	cuStreamDestroy(s);
	return failures != 0;
}

static int model_role(void)
{
	CUstream s;

	interposed();
	if (!(s = setup()))
		return 1;
	cpu_time();
	sync_moves(s, 250 * MS, "cuStreamSynchronize");
	sync_moves(s, 100 * MS, "cuEventSynchronize");
	sync_moves(s, 100 * MS, "cuCtxSynchronize");
	host_func(s);
	captured_calls(s);
	readings();
	offsets(s);
	sleeps();
	refusals();
	cuStreamDestroy(s);
	return failures != 0;
}

/* Unset: each clock is the real one, and model work moves none. */
static int real_role(void)
{
	int64_t d, r, t0, r0;
	CUstream s;

	interposed();
	if (!(s = setup()))
		return 1;
	fact(reads_real(CLOCK_MONOTONIC) && reads_real(CLOCK_REALTIME),
	     "unset: MONOTONIC and REALTIME read the real clocks");
	t0 = now(CLOCK_MONOTONIC);
	r0 = real_now(CLOCK_MONOTONIC);
	cuemuStreamSleep(s, 1000 * MS);
	cuStreamSynchronize(s);
	r = real_now(CLOCK_MONOTONIC) - r0;
	d = now(CLOCK_MONOTONIC) - t0;
	fact(d < 900 * MS && d >= r && reads_real(CLOCK_MONOTONIC),
	     "unset: a second of model work moves MONOTONIC by the real "
	     "time it took (%.3f ms)", d / 1e6);
	cuStreamDestroy(s);
	return failures != 0;
}

/* CUEMU_CLOCK=model, and the program pins the clocks real first, as cufs
 * does: a wait the model does not see (a read of a pipe nobody writes)
 * still moves MONOTONIC by the real time it took. */
static int pinned_role(void)
{
	struct pollfd none = { .fd = -1 };
	int64_t d, r, t0, r0;

	cuemuClockReal();
	interposed();
	fact(reads_real(CLOCK_MONOTONIC) && reads_real(CLOCK_REALTIME),
	     "model, pinned real: MONOTONIC and REALTIME read the real clocks");
	t0 = now(CLOCK_MONOTONIC);
	r0 = real_now(CLOCK_MONOTONIC);
	/* A syscall of its own, not the wrapped poll: a wait libcuemu does
	 * not see, as cufs's readers of /dev/fuse wait. */
	syscall(SYS_ppoll, &none, 1, &(struct timespec){ 0, 200 * MS }, NULL, 0);
	r = real_now(CLOCK_MONOTONIC) - r0;
	d = now(CLOCK_MONOTONIC) - t0;
	fact(d >= 200 * MS && d <= r + MS,
	     "model, pinned real: 200 ms in an unseen wait moves MONOTONIC "
	     "by 200 ms (%.3f ms)", d / 1e6);
	return failures != 0;
}

/* A value that names no clock: cuInit refuses it and the clocks stay
 * real. */
static int bogus_role(void)
{
	CUresult r = cuInit(0);

	fact(r == CUDA_ERROR_INVALID_VALUE,
	     "CUEMU_CLOCK=bogus: cuInit answers CUDA_ERROR_INVALID_VALUE (%d)",
	     (int)r);
	fact(reads_real(CLOCK_MONOTONIC),
	     "CUEMU_CLOCK=bogus: MONOTONIC stays the real clock");
	return failures != 0;
}

/* ---------------------------------------------------------------- parent */

static char dir[PATH_MAX];

static const char *file(const char *name)
{
	static char path[2][PATH_MAX + 32];
	static int next;
	char *p = path[next++ % 2];

	snprintf(p, sizeof path[0], "%s/%s", dir, name);
	return p;
}

/* Runs role with env and relays its facts; false when it gave none. */
static void relay(const char *role, char *const env[])
{
	char out[PATH_MAX + 32], line[512];
	int n = 0, st;
	pid_t pid;
	FILE *f;

	snprintf(out, sizeof out, "%s", file("out"));
	pid = spawn_self(role, env, out, file("err"));
	st = pid < 0 ? -1 : wait_bounded(pid, 120);
	if ((f = fopen(out, "r"))) {
		while (fgets(line, sizeof line, f)) {
			line[strcspn(line, "\n")] = '\0';
			if (!strncmp(line, "PASS ", 5) ||
			    !strncmp(line, "FAIL ", 5)) {
				ok(line[0] == 'P', "%s", line + 5);
				n++;
			} else if (!strncmp(line, "SKIP ", 5)) {
				ok(1, "%s # SKIP libcuemu's CPU under a "
				   "sanitizer", line + 5);
				n++;
			}
		}
		fclose(f);
	}
	ok(n > 0 && st >= 0, "the %s run ends (exit %d) after %d facts",
	   role, st, n);
	unlink(out);
}

/* The refusal is said once, in one line that names the variable. */
static void bogus_said(void)
{
	char line[512];
	int lines = 0, named = 0;
	FILE *f = fopen(file("err"), "r");

	while (f && fgets(line, sizeof line, f)) {
		lines++;
		named += strstr(line, "CUEMU_CLOCK 'bogus'") != NULL;
	}
	if (f)
		fclose(f);
	ok(lines == 1 && named == 1, "CUEMU_CLOCK=bogus is said in one line "
	   "on stderr that names it (%d lines)", lines);
}

/* The trap a CPU fault leaves out is measured, in model time only, and
 * said once under CUEMU_DEBUG with its cost: a host's trap and signal
 * round trip is microseconds, not nothing and not a millisecond. */
static void trap_said(bool model)
{
	char line[512];
	unsigned long long ns = 0;
	int said = 0;
	FILE *f = fopen(file("err"), "r");
	const char *m;

	while (f && fgets(line, sizeof line, f))
		if ((m = strstr(line, "a CPU fault's trap: ")) &&
		    sscanf(m, "a CPU fault's trap: %llu ns", &ns) == 1)
			said++;
	if (f)
		fclose(f);
	if (model)
		ok(said == 1 && ns > 100 && ns < 1000000, "CUEMU_CLOCK=model: "
		   "a CPU fault's trap is measured once (%d lines, %.2f us)",
		   said, ns / 1e3);
	else
		ok(said == 0, "real clocks: no trap is measured (%d lines)",
		   said);
}

int main(int argc, char **argv)
{
	const char *role = child_role(argc, argv);
	char *model[] = { "CUEMU_CLOCK=model", NULL };
	char *unset[] = { "CUEMU_CLOCK", NULL };
	char *bogus[] = { "CUEMU_CLOCK=bogus", NULL };
	char *trap_model[] = { "CUEMU_CLOCK=model", "CUEMU_DEBUG=1", NULL };
	char *trap_real[] = { "CUEMU_CLOCK", "CUEMU_DEBUG=1", NULL };

	if (role)
		return !strcmp(role, "model") ? model_role() :
		       !strcmp(role, "real") ? real_role() :
		       !strcmp(role, "pinned") ? pinned_role() :
		       !strcmp(role, "trap") ? trap_role() : bogus_role();
	setenv("CUEMU_CONTROL", "0", 1);
	snprintf(dir, sizeof dir, "%s/cuemu-clock.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir)) {
		printf("Bail out! no scratch directory\n");
		return 1;
	}
	relay("real", unset);
	relay("model", model);
	relay("pinned", model);
	relay("bogus", bogus);
	bogus_said();
	relay("trap", trap_model);
	trap_said(true);
	relay("trap", trap_real);
	trap_said(false);
	unlink(file("err"));
	rmdir(dir);
	return done_testing();
}
