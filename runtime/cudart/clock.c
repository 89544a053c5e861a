/*
 * clock.c - the C library's clock and timed-wait names, exported by
 * libcuemu and by libcudart.so.13 (both build this file) so that a
 * program's own calls, and std::chrono's and timespec_get's inside other
 * libraries, reach the cuemuClock* entries (cuemu.h) and read model time
 * under CUEMU_CLOCK=model. A program finds the first definition in the
 * order its libraries were loaded: libcudart.so.13 comes before libc for a
 * program built with nvcc -cudart shared, libcuemu (libcuda.so.1) for
 * one linked with -lcuda. Each name hands its call on unchanged.
 *
 * No state, no lock.
 */
#include "config.h"
#include "cuemu.h"

#include <unistd.h>

int clock_gettime(clockid_t clk, struct timespec *ts)
{
	return cuemuClockGettime(clk, ts);
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
	return cuemuGettimeofday(tv, tz);
}

time_t time(time_t *t)
{
	return cuemuTime(t);
}

int timespec_get(struct timespec *ts, int base)
{
	return cuemuTimespecGet(ts, base);
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
	return cuemuNanosleep(req, rem);
}

int clock_nanosleep(clockid_t clk, int flags, const struct timespec *req,
		    struct timespec *rem)
{
	return cuemuClockNanosleep(clk, flags, req, rem);
}

int usleep(useconds_t usec)
{
	return cuemuUsleep(usec);
}

unsigned int sleep(unsigned int seconds)
{
	return cuemuSleep(seconds);
}

int pthread_cond_timedwait(pthread_cond_t *restrict cond,
			   pthread_mutex_t *restrict mutex,
			   const struct timespec *restrict abstime)
{
	return cuemuCondTimedwait(cond, mutex, abstime);
}

int pthread_cond_clockwait(pthread_cond_t *restrict cond,
			   pthread_mutex_t *restrict mutex, clockid_t clk,
			   const struct timespec *restrict abstime)
{
	return cuemuCondClockwait(cond, mutex, clk, abstime);
}

int sem_timedwait(sem_t *restrict sem, const struct timespec *restrict abstime)
{
	return cuemuSemTimedwait(sem, abstime);
}

int poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
	return cuemuPoll(fds, nfds, timeout);
}

int select(int nfds, fd_set *restrict rd, fd_set *restrict wr,
	   fd_set *restrict ex, struct timeval *restrict timeout)
{
	return cuemuSelect(nfds, rd, wr, ex, timeout);
}
