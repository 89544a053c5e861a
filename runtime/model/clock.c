/*
 * clock.c - the thread's model clock: what a program's own clocks read
 * under CUEMU_CLOCK=model (DESIGN.md, "The program's clocks"), a
 * deadline's real time, and the waits that move the clock. The C
 * library's real functions, the choice of clocks and the brackets of
 * libcuemu's own work are cputime.c's, below it.
 *
 * A thread's model time is stream.c's thread clock: the host's time (the
 * latest stream time any thread waited for), or the thread's own when
 * that is later; the thread's own moves on by its CPU faults and remote
 * accesses (their modelled cost) and, here, by the CPU time the program
 * spends in it (CLOCK_THREAD_CPUTIME_ID) and by the real time its sleeps
 * and timed waits wait. Each virtual clock reads its own real reading at
 * libcuemu's load (its origin) plus the thread's model time, so the
 * clocks keep their offsets to one another.
 *
 * The CPU time counted is the program's, not libcuemu's: libcuemu's own
 * work in a thread (the process lock, a wait for a stream, an operation
 * run inline, a fault) is bracketed by cuemu_clock_enter/leave, which take
 * the CPU time before into the clock and leave out the time inside; what
 * that work costs the thread is the model's price (a fault's, a wait's
 * end). A thread's clock starts at its first reading or wait, at the
 * host's model time: threads that never read a clock (libcuemu's stream
 * workers, control server and publisher) count nothing.
 *
 * Locking: none; what is read is cputime.c's (written once) or the
 * calling thread's own. Nothing here may take the process lock.
 */
#include "model/clock.h"

#include <limits.h>

#define NS 1000000000LL

static uint64_t real_mono_now(void)
{
	struct timespec ts;

	cuemu_libc.clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS + (uint64_t)ts.tv_nsec;
}

/* The calling thread's model time: a stream operation's (a host function
 * reads its stream's clock), else the thread's, its clock started. */
static uint64_t thread_model_ns(void)
{
	uint64_t ns;

	if (cuemu_op_clock(&ns))
		return ns;
	cuemu_clock_thread_start();
	return cuemu_host_now();
}

/* ---------------------------------------------------------------- readings */

void cuemu_clock_read(clockid_t clk, struct timespec *ts)
{
	uint64_t ns = thread_model_ns();

	ts->tv_sec = cuemu_clock_origin(clk)->tv_sec + (time_t)(ns / NS);
	ts->tv_nsec = cuemu_clock_origin(clk)->tv_nsec + (long)(ns % NS);
	if (ts->tv_nsec >= NS) {
		ts->tv_nsec -= NS;
		ts->tv_sec++;
	}
	cuemu_clock_reading_end();
}

void cuemu_clock_deadline(const struct timespec *model, struct timespec *real)
{
	int64_t ahead, s, n;

	*real = *model;
	if (model->tv_nsec < 0 || model->tv_nsec >= NS)
		return;
	/* How far model time is ahead of the real time since the origins:
	 * the same for every clock, as they all count from their origin. */
	ahead = (int64_t)thread_model_ns() -
		(int64_t)(real_mono_now() - cuemu_clock_origin_mono_ns());
	s = ahead / NS;
	n = ahead % NS;
	if ((s > 0 && model->tv_sec < LONG_MIN + s) ||
	    (s < 0 && model->tv_sec > LONG_MAX + s))
		return;
	real->tv_sec = model->tv_sec - s;
	real->tv_nsec = model->tv_nsec - n;
	if (real->tv_nsec < 0) {
		real->tv_nsec += NS;
		real->tv_sec--;
	} else if (real->tv_nsec >= NS) {
		real->tv_nsec -= NS;
		real->tv_sec++;
	}
}

/* ---------------------------------------------------------------- waits */

uint64_t cuemu_clock_wait_begin(void)
{
	(void)thread_model_ns();
	cuemu_clock_enter();
	return real_mono_now();
}

void cuemu_clock_wait_end(uint64_t begun)
{
	uint64_t now = real_mono_now(), ns;

	/* Inside the bracket: the wait's own CPU time is not taken. A
	 * stream operation's wait (a host function's) moves no thread. */
	if (!cuemu_op_clock(&ns))
		cuemu_host_advance(now > begun ? now - begun : 0);
	cuemu_clock_leave();
}
