/*
 * cputime.c - what the thread's model clock (clock.c) builds on: the C
 * library's real clocks and waits, found once, for libcuemu's own use and
 * for the entries when the clocks are real (cuemu_libc); the process's
 * choice of clocks (CUEMU_CLOCK) and each virtual clock's origin; and
 * each thread's CPU time as the program's own, with the brackets
 * (cuemu_clock_enter/leave) that leave libcuemu's own work in the thread
 * out of it, and what the host spends outside any bracket on libcuemu's
 * behalf (a fault's trap: cuemu_clock_leave_out) taken from the CPU time
 * that follows. stream.c's thread clock takes that CPU time
 * (cuemu_clock_cpu_take); this file calls nothing of the model above it,
 * so the process lock, the machine and the streams can all use it.
 *
 * Locking: the state and origins are written once, before the state is
 * published (pthread_once), and read without a lock after; everything
 * else is the calling thread's own (thread-local), so no lock is taken.
 * Nothing here may take the process lock: cuemu_lock calls in.
 */
#include "model/clock.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NS 1000000000LL
/* Clock ids 0..CLOCK_TAI: the fixed clocks Linux defines. */
#define NCLOCKS (CLOCK_TAI + 1)

/* ------------------------------------------------------------ until found */

/* What a clock call gets while the C library's functions are being found:
 * finding them (dlopen) may itself read a clock (a sanitizer's allocator
 * does), and that call must not wait for the finding. The system calls
 * themselves, for the clocks and sleeps; a timed wait on a condition or a
 * semaphore then times out at once, as a timed wait may. */
static int sys_clock_gettime(clockid_t c, struct timespec *ts)
{
	return (int)syscall(SYS_clock_gettime, c, ts);
}

static int sys_gettimeofday(struct timeval *tv, void *tz)
{
	return (int)syscall(SYS_gettimeofday, tv, tz);
}

static time_t sys_time(time_t *t)
{
	struct timespec ts;

	if (sys_clock_gettime(CLOCK_REALTIME, &ts) < 0)
		return (time_t)-1;
	if (t)
		*t = ts.tv_sec;
	return ts.tv_sec;
}

static int sys_timespec_get(struct timespec *ts, int base)
{
	return base == TIME_UTC &&
	       sys_clock_gettime(CLOCK_REALTIME, ts) == 0 ? base : 0;
}

static int sys_nanosleep(const struct timespec *req, struct timespec *rem)
{
	return (int)syscall(SYS_nanosleep, req, rem);
}

static int sys_clock_nanosleep(clockid_t c, int flags,
			       const struct timespec *req, struct timespec *rem)
{
	/* Its result is the error number, not -1 and errno. */
	return syscall(SYS_clock_nanosleep, c, flags, req, rem) < 0 ? errno : 0;
}

static int sys_usleep(useconds_t us)
{
	struct timespec ts = { (time_t)(us / 1000000), (long)(us % 1000000) *
			       1000 };

	return sys_nanosleep(&ts, NULL);
}

static unsigned int sys_sleep(unsigned int s)
{
	struct timespec ts = { (time_t)s, 0 };

	return sys_nanosleep(&ts, &ts) < 0 ? (unsigned int)ts.tv_sec : 0;
}

static int sys_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
			      const struct timespec *at)
{
	(void)c, (void)m, (void)at;
	return ETIMEDOUT;
}

static int sys_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m,
			      clockid_t clk, const struct timespec *at)
{
	(void)clk;
	return sys_cond_timedwait(c, m, at);
}

static int sys_sem_timedwait(sem_t *sem, const struct timespec *at)
{
	(void)sem, (void)at;
	errno = ETIMEDOUT;
	return -1;
}

static int sys_poll(struct pollfd *fds, nfds_t n, int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	return (int)syscall(SYS_ppoll, fds, n, ms < 0 ? NULL : &ts, NULL,
			    (size_t)8);
}

static int sys_select(int n, fd_set *r, fd_set *w, fd_set *e,
		      struct timeval *tv)
{
	struct timespec ts;

	if (tv) {
		ts.tv_sec = tv->tv_sec;
		ts.tv_nsec = tv->tv_usec * 1000;
	}
	return (int)syscall(SYS_pselect6, n, r, w, e, tv ? &ts : NULL, NULL);
}

/* Global: the choice of clocks and the C library's functions are the
 * process's, read by every clock call without a lock (clock.h). Written
 * once, by start(); until then, the system calls above. */
enum cuemu_clock_state cuemu_clock_state;
struct cuemu_libc cuemu_libc = {
	.clock_gettime = sys_clock_gettime, .gettimeofday = sys_gettimeofday,
	.time = sys_time, .timespec_get = sys_timespec_get,
	.nanosleep = sys_nanosleep, .clock_nanosleep = sys_clock_nanosleep,
	.usleep = sys_usleep, .sleep = sys_sleep,
	.cond_timedwait = sys_cond_timedwait,
	.cond_clockwait = sys_cond_clockwait,
	.sem_timedwait = sys_sem_timedwait, .poll = sys_poll,
	.select = sys_select,
};
/* The thread that is finding the C library's functions (start()): its
 * clock calls meanwhile get the system calls, not a wait for itself. */
static __thread bool finding;

/* Each virtual clock's real reading at model time 0 (libcuemu's load);
 * a clock whose reading failed there is left real. Written once in
 * start(), before the state is published. Global: the process has one
 * set of clocks. */
static struct timespec origin[NCLOCKS];
static bool origin_ok[NCLOCKS];
static uint64_t origin_mono_ns;
/* CUEMU_CLOCK's value when it named no clock, for cuInit to refuse. */
static char env_bad[48];
static bool env_is_bad;
static pthread_once_t start_once = PTHREAD_ONCE_INIT;
/* What one reading of a thread's CPU time costs the thread (the median of
 * a few back to back, measured at start): a bracket's two readings are
 * libcuemu's work, yet the CPU spent around their timestamps falls
 * outside the bracket, about one reading's worth a bracket (a graph's
 * launch call took 0.8 to 0.9 us more than uvm.graph_launch_call_ns on
 * the program's clock here). Written once, in start(). */
static uint64_t read_cost_ns;

/* The calling thread's clock: started at its first reading or wait; the
 * depth of libcuemu's brackets it is in; its CPU time when last taken,
 * the program's CPU time taken at a bracket's entry and not yet given to
 * the thread's model clock (cuemu_clock_cpu_take), and the host's CPU
 * time outside any bracket still to be left out (cuemu_clock_leave_out:
 * a fault's trap). */
static __thread struct {
	bool started;
	unsigned int depth;
	uint64_t cpu_ns, pending_ns, out_ns;
} me;

static uint64_t ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * NS + (uint64_t)ts->tv_nsec;
}

/* One of the C library's functions, into *slot; false when it lacks it. */
static bool find(void *libc, const char *name, void *slot)
{
	void *f = dlsym(libc, name);

	memcpy(slot, &f, sizeof f);
	return f != NULL;
}

static void find_libc(void)
{
	struct cuemu_libc found = cuemu_libc, *l = &found;
	void *c;

	finding = true;
	c = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);

	/* Without them no clock call could be answered at all. */
	if (!c || !find(c, "clock_gettime", &l->clock_gettime) ||
	    !find(c, "gettimeofday", &l->gettimeofday) ||
	    !find(c, "time", &l->time) ||
	    !find(c, "timespec_get", &l->timespec_get) ||
	    !find(c, "nanosleep", &l->nanosleep) ||
	    !find(c, "clock_nanosleep", &l->clock_nanosleep) ||
	    !find(c, "usleep", &l->usleep) || !find(c, "sleep", &l->sleep) ||
	    !find(c, "pthread_cond_timedwait", &l->cond_timedwait) ||
	    !find(c, "pthread_cond_clockwait", &l->cond_clockwait) ||
	    !find(c, "sem_timedwait", &l->sem_timedwait) ||
	    !find(c, "poll", &l->poll) || !find(c, "select", &l->select)) {
		fprintf(stderr, "cuemu: the C library's clocks are not found "
			"(libc.so.6: %s)\n", c ? dlerror() : "not loaded");
		abort();
	}
	/* Each pointer a word: a call meanwhile gets either function, and
	 * both answer it. */
	cuemu_libc = found;
	finding = false;
}

/* Which clocks read model time: every one a program times itself with. */
static bool virtual_id(clockid_t clk)
{
	switch (clk) {
	case CLOCK_REALTIME: case CLOCK_MONOTONIC: case CLOCK_MONOTONIC_RAW:
	case CLOCK_REALTIME_COARSE: case CLOCK_MONOTONIC_COARSE:
	case CLOCK_BOOTTIME: case CLOCK_REALTIME_ALARM:
	case CLOCK_BOOTTIME_ALARM: case CLOCK_TAI:
		return true;
	default:
		return false;
	}
}

static uint64_t cpu_now(void);

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The median cost of a reading of the thread's CPU time. */
static uint64_t measure_read_cost(void)
{
	uint64_t d[15], prev = cpu_now();

	for (int i = 0; i < 15; i++) {
		uint64_t now = cpu_now();
		d[i] = now - prev;
		prev = now;
	}
	qsort(d, 15, sizeof d[0], cmp_u64);
	return d[7];
}

static void start(void)
{
	const char *e = getenv("CUEMU_CLOCK");
	enum cuemu_clock_state st = CUEMU_CLOCK_REAL;

	find_libc();
	if (e && !strcmp(e, "model")) {
		read_cost_ns = measure_read_cost();
		for (clockid_t c = 0; c < NCLOCKS; c++)
			origin_ok[c] = virtual_id(c) &&
				cuemu_libc.clock_gettime(c, &origin[c]) == 0;
		origin_mono_ns = ts_ns(&origin[CLOCK_MONOTONIC]);
		st = CUEMU_CLOCK_MODEL;
	} else if (e && *e && strcmp(e, "real")) {
		snprintf(env_bad, sizeof env_bad, "%s", e);
		env_is_bad = true;
	}
	__atomic_store_n(&cuemu_clock_state, st, __ATOMIC_RELEASE);
}

enum cuemu_clock_state cuemu_clock_start(void)
{
	enum cuemu_clock_state st =
		__atomic_load_n(&cuemu_clock_state, __ATOMIC_ACQUIRE);

	if (st != CUEMU_CLOCK_UNREAD || finding)
		return st;
	pthread_once(&start_once, start);
	return cuemu_clock_state;
}

/* At load, before the program's main: the origins are the process's
 * start, and libcuemu's own timing has the C library's functions. */
__attribute__((constructor(101)))
static void clock_load(void)
{
	cuemu_clock_start();
}

/* start() has run by the time the store lands, so nothing writes the
 * state after it; the state is read without a lock, as it always is. */
void cuemu_clock_pin_real(void)
{
	cuemu_clock_start();
	__atomic_store_n(&cuemu_clock_state, CUEMU_CLOCK_REAL, __ATOMIC_RELEASE);
}

CUresult cuemu_clock_check_env(void)
{
	cuemu_clock_start();
	if (env_is_bad)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "CUEMU_CLOCK "
				  "'%.40s' is neither model nor real: the "
				  "clocks stay real", env_bad);
	return CUDA_SUCCESS;
}

bool cuemu_clock_virtual(clockid_t clk)
{
	return cuemu_clock_start() == CUEMU_CLOCK_MODEL && clk >= 0 &&
	       clk < NCLOCKS && origin_ok[clk];
}

const struct timespec *cuemu_clock_origin(clockid_t clk)
{
	return &origin[clk];
}

uint64_t cuemu_clock_origin_mono_ns(void)
{
	return origin_mono_ns;
}

/* ---------------------------------------------------------------- threads */

static uint64_t cpu_now(void)
{
	struct timespec ts;

	cuemu_libc.clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts_ns(&ts);
}

static bool model_on(void)
{
	return __builtin_expect(__atomic_load_n(&cuemu_clock_state,
				__ATOMIC_RELAXED) == CUEMU_CLOCK_MODEL, 0);
}

/* The CPU time from the last taking to now, less what is still to be
 * left out (never below 0: what is left over waits for the next). */
static uint64_t cpu_since(uint64_t now)
{
	uint64_t d = now > me.cpu_ns ? now - me.cpu_ns : 0;
	uint64_t out = d < me.out_ns ? d : me.out_ns;

	me.out_ns -= out;
	me.cpu_ns = now;
	return d - out;
}

void cuemu_clock_leave_out(uint64_t ns)
{
	if (model_on() && me.started)
		me.out_ns += ns;
}

void cuemu_clock_reading_end(void)
{
	if (model_on() && me.started && me.depth == 0) {
		me.cpu_ns = cpu_now();
		me.out_ns += read_cost_ns;
	}
}

void cuemu_clock_thread_start(void)
{
	if (!me.started) {
		me.started = true;
		me.cpu_ns = cpu_now();
	}
}

uint64_t cuemu_clock_cpu_take(void)
{
	uint64_t now, d;

	if (!model_on() || !me.started)
		return 0;
	d = me.pending_ns;
	me.pending_ns = 0;
	if (me.depth)
		return d;
	now = cpu_now();
	return d + cpu_since(now);
}

/* The CPU time before the bracket is the program's: it waits, pending,
 * for the thread's clock to take it (the next reading or enqueue, which
 * asks cuemu_clock_cpu_take), so that this file calls nothing above it. */
void cuemu_clock_enter(void)
{
	uint64_t now;

	if (!model_on() || !me.started)
		return;
	if (me.depth == 0) {
		now = cpu_now();
		me.pending_ns += cpu_since(now);
	}
	me.depth++;
}

void cuemu_clock_leave(void)
{
	if (!model_on() || !me.started || me.depth == 0)
		return;
	if (--me.depth == 0) {
		me.cpu_ns = cpu_now();
		/* the bracket's readings' own CPU outside it */
		me.out_ns += read_cost_ns;
	}
}
