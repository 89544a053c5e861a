/*
 * clock.c - the cuemuClock* entries (cuemu.h): the process's clocks and
 * timed waits, real or in model time as CUEMU_CLOCK says; cudart/clock.c
 * gives them the C library's names. The model clock itself is
 * model/clock.c's.
 *
 * Each entry starts with the one branch that hands the call to the C
 * library's own function when the clocks are real. No state of its own;
 * no lock (model/clock.c's rule).
 */
#include "model/clock.h"

#include <errno.h>

/* The clocks are real and the C library's functions known: the common
 * case, one predicted branch. */
#define REAL() __builtin_expect(cuemu_clock_state == CUEMU_CLOCK_REAL, 1)

int cuemuClockGettime(clockid_t clk, struct timespec *ts)
{
	if (REAL() || !cuemu_clock_virtual(clk))
		return cuemu_libc.clock_gettime(clk, ts);
	if (!ts) {
		errno = EFAULT;
		return -1;
	}
	cuemu_clock_read(clk, ts);
	return 0;
}

int cuemuGettimeofday(struct timeval *tv, void *tz)
{
	struct timespec ts;
	int rc;

	if (REAL() || !cuemu_clock_virtual(CLOCK_REALTIME))
		return cuemu_libc.gettimeofday(tv, tz);
	/* The C library's first, for the time zone and its result. */
	if ((rc = cuemu_libc.gettimeofday(tv, tz)) != 0 || !tv)
		return rc;
	cuemu_clock_read(CLOCK_REALTIME, &ts);
	tv->tv_sec = ts.tv_sec;
	tv->tv_usec = ts.tv_nsec / 1000;
	return 0;
}

time_t cuemuTime(time_t *t)
{
	struct timespec ts;

	if (REAL() || !cuemu_clock_virtual(CLOCK_REALTIME))
		return cuemu_libc.time(t);
	cuemu_clock_read(CLOCK_REALTIME, &ts);
	if (t)
		*t = ts.tv_sec;
	return ts.tv_sec;
}

int cuemuTimespecGet(struct timespec *ts, int base)
{
	if (REAL() || !cuemu_clock_virtual(CLOCK_REALTIME) || base != TIME_UTC)
		return cuemu_libc.timespec_get(ts, base);
	cuemu_clock_read(CLOCK_REALTIME, ts);
	return base;
}

/* ---------------------------------------------------------------- waits */

int cuemuNanosleep(const struct timespec *req, struct timespec *rem)
{
	uint64_t t;
	int rc;

	if (REAL() || cuemu_clock_start() != CUEMU_CLOCK_MODEL)
		return cuemu_libc.nanosleep(req, rem);
	t = cuemu_clock_wait_begin();
	rc = cuemu_libc.nanosleep(req, rem);
	cuemu_clock_wait_end(t);
	return rc;
}

int cuemuClockNanosleep(clockid_t clk, int flags, const struct timespec *req,
			struct timespec *rem)
{
	struct timespec at;
	uint64_t t;
	int rc;

	if (REAL() || !cuemu_clock_virtual(clk))
		return cuemu_libc.clock_nanosleep(clk, flags, req, rem);
	t = cuemu_clock_wait_begin();
	if (flags & TIMER_ABSTIME) {
		cuemu_clock_deadline(req, &at);
		req = &at;
	}
	rc = cuemu_libc.clock_nanosleep(clk, flags, req, rem);
	cuemu_clock_wait_end(t);
	return rc;
}

int cuemuUsleep(unsigned int usec)
{
	uint64_t t;
	int rc;

	if (REAL() || cuemu_clock_start() != CUEMU_CLOCK_MODEL)
		return cuemu_libc.usleep(usec);
	t = cuemu_clock_wait_begin();
	rc = cuemu_libc.usleep(usec);
	cuemu_clock_wait_end(t);
	return rc;
}

unsigned int cuemuSleep(unsigned int seconds)
{
	unsigned int left;
	uint64_t t;

	if (REAL() || cuemu_clock_start() != CUEMU_CLOCK_MODEL)
		return cuemu_libc.sleep(seconds);
	t = cuemu_clock_wait_begin();
	left = cuemu_libc.sleep(seconds);
	cuemu_clock_wait_end(t);
	return left;
}

/* The deadline of a timed wait on a clock the program may have read in
 * model time, as the C library must see it: the offset between model and
 * real time is the same on every virtual clock, so the wait's own clock
 * (a condition variable's attribute) need not be known. */
int cuemuCondTimedwait(pthread_cond_t *cond, pthread_mutex_t *mutex,
		       const struct timespec *abstime)
{
	struct timespec at;
	uint64_t t;
	int rc;

	if (REAL() || !cuemu_clock_virtual(CLOCK_REALTIME) || !abstime)
		return cuemu_libc.cond_timedwait(cond, mutex, abstime);
	t = cuemu_clock_wait_begin();
	cuemu_clock_deadline(abstime, &at);
	rc = cuemu_libc.cond_timedwait(cond, mutex, &at);
	cuemu_clock_wait_end(t);
	return rc;
}

int cuemuCondClockwait(pthread_cond_t *cond, pthread_mutex_t *mutex,
		       clockid_t clk, const struct timespec *abstime)
{
	struct timespec at;
	uint64_t t;
	int rc;

	if (REAL() || !cuemu_clock_virtual(clk) || !abstime)
		return cuemu_libc.cond_clockwait(cond, mutex, clk, abstime);
	t = cuemu_clock_wait_begin();
	cuemu_clock_deadline(abstime, &at);
	rc = cuemu_libc.cond_clockwait(cond, mutex, clk, &at);
	cuemu_clock_wait_end(t);
	return rc;
}

int cuemuSemTimedwait(sem_t *sem, const struct timespec *abstime)
{
	struct timespec at;
	uint64_t t;
	int rc;

	if (REAL() || !cuemu_clock_virtual(CLOCK_REALTIME) || !abstime)
		return cuemu_libc.sem_timedwait(sem, abstime);
	t = cuemu_clock_wait_begin();
	cuemu_clock_deadline(abstime, &at);
	rc = cuemu_libc.sem_timedwait(sem, &at);
	cuemu_clock_wait_end(t);
	return rc;
}

/* A poll or select that does not wait (timeout 0) is no wait: it is
 * handed on as it is, so a program's busy loop costs no clock reading. */
int cuemuPoll(struct pollfd *fds, nfds_t nfds, int timeout)
{
	uint64_t t;
	int rc;

	if (REAL() || cuemu_clock_start() != CUEMU_CLOCK_MODEL ||
	    timeout == 0)
		return cuemu_libc.poll(fds, nfds, timeout);
	t = cuemu_clock_wait_begin();
	rc = cuemu_libc.poll(fds, nfds, timeout);
	cuemu_clock_wait_end(t);
	return rc;
}

void cuemuClockReal(void)
{
	cuemu_clock_pin_real();
}

int cuemuSelect(int nfds, fd_set *rd, fd_set *wr, fd_set *ex,
		struct timeval *timeout)
{
	uint64_t t;
	int rc;

	if (REAL() || cuemu_clock_start() != CUEMU_CLOCK_MODEL ||
	    (timeout && !timeout->tv_sec && !timeout->tv_usec))
		return cuemu_libc.select(nfds, rd, wr, ex, timeout);
	t = cuemu_clock_wait_begin();
	rc = cuemu_libc.select(nfds, rd, wr, ex, timeout);
	cuemu_clock_wait_end(t);
	return rc;
}
