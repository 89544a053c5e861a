/*
 * clock.h - the thread's model clock (clock.c): what the process's own
 * clocks read under CUEMU_CLOCK=model; and what it builds on (cputime.c):
 * the brackets that keep libcuemu's own CPU time out of it, and the C
 * library's real clocks and waits for libcuemu's own use. driver/clock.c's
 * entries are the readers.
 */
#ifndef CUEMU_MODEL_CLOCK_H
#define CUEMU_MODEL_CLOCK_H

#include "model/internal.h"

#include <poll.h>
#include <semaphore.h>
#include <sys/select.h>
#include <sys/time.h>
#include <time.h>

/* The C library's own functions, found in libc itself: what the entries
 * call when the clocks are real, and what libcuemu's own timing (spins,
 * naps, timestamps) calls always, so that it never reads model time. */
struct cuemu_libc {
	int (*clock_gettime)(clockid_t, struct timespec *);
	int (*gettimeofday)(struct timeval *, void *);
	time_t (*time)(time_t *);
	int (*timespec_get)(struct timespec *, int);
	int (*nanosleep)(const struct timespec *, struct timespec *);
	int (*clock_nanosleep)(clockid_t, int, const struct timespec *,
			       struct timespec *);
	int (*usleep)(useconds_t);
	unsigned int (*sleep)(unsigned int);
	int (*cond_timedwait)(pthread_cond_t *, pthread_mutex_t *,
			      const struct timespec *);
	int (*cond_clockwait)(pthread_cond_t *, pthread_mutex_t *, clockid_t,
			      const struct timespec *);
	int (*sem_timedwait)(sem_t *, const struct timespec *);
	int (*poll)(struct pollfd *, nfds_t, int);
	int (*select)(int, fd_set *, fd_set *, fd_set *, struct timeval *);
};

/* The state of the process's clocks: CUEMU_CLOCK_UNREAD until the C
 * library's functions are found (the first call, or libcuemu's load). */
enum cuemu_clock_state { CUEMU_CLOCK_UNREAD, CUEMU_CLOCK_REAL,
			 CUEMU_CLOCK_MODEL };

/* Written once (clock.c's start), read by every entry without a lock: the
 * one branch a clock call costs when the clocks are real. Global because
 * the choice is the process's. */
extern enum cuemu_clock_state cuemu_clock_state;
extern struct cuemu_libc cuemu_libc;

/* The state, found first if it was not yet (then the C library's
 * functions are known too). */
enum cuemu_clock_state cuemu_clock_start(void);
/* The clocks real from now on, whatever CUEMU_CLOCK said (cuemuClockReal). */
void cuemu_clock_pin_real(void);
/* cuInit's check: CUDA_SUCCESS, or INVALID_VALUE with the reason when
 * CUEMU_CLOCK names no clock (the clocks then stay real). */
CUresult cuemu_clock_check_env(void);

/* Whether clk is one of the clocks a program times itself with
 * (REALTIME, MONOTONIC, their _RAW, _COARSE and _ALARM forms, BOOTTIME,
 * TAI): those read model time. */
bool cuemu_clock_virtual(clockid_t clk);
/* cputime.c: clk's real reading at model time 0 (libcuemu's load), and
 * MONOTONIC's in ns; the calling thread's clock started (its CPU time
 * counted from now), if it was not. */
const struct timespec *cuemu_clock_origin(clockid_t clk);
uint64_t cuemu_clock_origin_mono_ns(void);
void cuemu_clock_thread_start(void);

/* clk's model reading for the calling thread; clk virtual. */
void cuemu_clock_read(clockid_t clk, struct timespec *ts);
/* The real absolute time at which a deadline given on a virtual clock in
 * model time falls (now, when it has passed); a deadline that is no time
 * (tv_nsec out of range) is kept, for the C library to refuse. */
void cuemu_clock_deadline(const struct timespec *model, struct timespec *real);

/* A wait the calling thread makes (a sleep, a timed wait): begin takes its
 * CPU time so far into its clock and answers the real time now; end moves
 * its clock on by the real time waited since. */
uint64_t cuemu_clock_wait_begin(void);
void cuemu_clock_wait_end(uint64_t begun);

/* libcuemu's own work in a program's thread (the process lock, a wait
 * for a stream, an operation run inline, a fault): its CPU time is not
 * the program's, so the thread's clock takes what came before and leaves
 * out what runs until the matching leave. Nest. */
void cuemu_clock_enter(void);
void cuemu_clock_leave(void);
/* Leaves ns more of the thread's CPU time outside any bracket out of its
 * clock: the host's own work on libcuemu's behalf that no bracket can
 * enclose (a fault's trap, signal delivery and return: fault.c). Taken
 * from the CPU time that follows, never more than it. */
void cuemu_clock_leave_out(uint64_t ns);
/* A reading of a virtual clock is done: its own CPU from the CPU time it
 * took on (its second half, and the return to the program) is not the
 * program's, where a real reading costs tens of nanoseconds. */
void cuemu_clock_reading_end(void);
/* The program's own CPU time of the calling thread since it was last
 * taken, to be added to its model time (stream.c's thread clock); 0 when
 * the clocks are real, inside a bracket, or on a thread whose clock has
 * not started (one that never read a clock: libcuemu's own, and any the
 * program has not timed). */
uint64_t cuemu_clock_cpu_take(void);

#endif
