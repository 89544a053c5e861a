/*
 * cuemu.h - libcuemu extensions to the CUDA driver API: emulated kernels
 * (host functions and declared memory footprints run as if on a device),
 * allocation labels, the CUresult-to-errno table, the stream model clock
 * and the library version. All names carry the cuemu prefix.
 */
#ifndef CUEMU_CUEMU_H
#define CUEMU_CUEMU_H

#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <stddef.h>
#include <sys/select.h>
#include <sys/time.h>
#include <time.h>

#include "cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* cuemuAccess flags: the footprint is read, written, or both. */
#define CUEMU_ACCESS_READ  0x1
#define CUEMU_ACCESS_WRITE 0x2

/** Run fn(arg) in stream order on the stream's device as if it were a kernel: its touches of managed memory fault on that device. */
CUresult cuemuLaunchHostFunc(CUstream s, void (*fn)(void *), void *arg);

/** Declare that a kernel on stream s touches [ptr, ptr+size) with CUEMU_ACCESS_* flags; faults exactly as that kernel would. */
CUresult cuemuAccess(CUstream s, CUdeviceptr ptr, size_t size,
                     unsigned int flags);

/** Name the allocation that contains ptr; the label (one line of at most 63 bytes of UTF-8, kept whole, else CUDA_ERROR_INVALID_VALUE) shows in /cu. */
CUresult cuemuSetLabel(CUdeviceptr ptr, const char *label);

/** cuModuleLoadData, the image's managed variables named in names[0..n) the program's (the runtime's __managed__, one copy for the process, whatever the context): each with addrs[i] set is bound there; each with addrs[i] 0 is allocated in no context (no context's end or reset frees it), initialized, and its address written to addrs[i]. Unloading the module leaves them; cuMemFree frees them. */
CUresult cuemuModuleLoadManaged(CUmodule *module, const void *image,
                                unsigned int n, const char *const *names,
                                CUdeviceptr *addrs);

/** The errno value that stands for r (0 for CUDA_SUCCESS); the one table of that mapping. */
int cuemuResultToErrno(CUresult r);

/** Store in *ns the model clock of stream s, in nanoseconds of emulated time (after cuStreamSynchronize, at least the caller's time). */
CUresult cuemuStreamGetTime(CUstream s, unsigned long long *ns);

/** Enqueue on stream s an operation that takes ns nanoseconds of model time and does nothing else, as a kernel's computation would. */
CUresult cuemuStreamSleep(CUstream s, unsigned long long ns);

/** Parse a location word as /cu takes it ("gpu1", "cpu", "numa0", "none": type CU_MEM_LOCATION_TYPE_INVALID): 0, or -1 when it is none of them. */
int cuemuParseLocation(const char *word, CUmemLocation *loc);

/** Parse a size as /cu takes it ("4096", "0x1000", "64M", "2GiB"): 0, or -1. */
int cuemuParseSize(const char *s, unsigned long long *bytes);

/** The library's package version string, e.g. "0.1.0". */
const char *cuemuVersion(void);

/*
 * The process's clocks and timed waits as a program sees them (libcuemu(3),
 * CUEMU_CLOCK): each takes the arguments and gives the results of the C
 * library's function of the same name, which libcuemu and libcudart.so.13
 * export on these. With CUEMU_CLOCK=model the clocks a program times
 * itself with read the calling thread's model time, deadlines given on
 * them are kept in model time, and a wait moves the thread's clock on by
 * the real time it waited; otherwise each is the C library's own.
 */
int cuemuClockGettime(clockid_t clk, struct timespec *ts);
int cuemuGettimeofday(struct timeval *tv, void *tz);
time_t cuemuTime(time_t *t);
int cuemuTimespecGet(struct timespec *ts, int base);
int cuemuNanosleep(const struct timespec *req, struct timespec *rem);
int cuemuClockNanosleep(clockid_t clk, int flags, const struct timespec *req,
			struct timespec *rem);
int cuemuUsleep(unsigned int usec);
unsigned int cuemuSleep(unsigned int seconds);
int cuemuCondTimedwait(pthread_cond_t *cond, pthread_mutex_t *mutex,
		       const struct timespec *abstime);
int cuemuCondClockwait(pthread_cond_t *cond, pthread_mutex_t *mutex,
		       clockid_t clk, const struct timespec *abstime);
int cuemuSemTimedwait(sem_t *sem, const struct timespec *abstime);
int cuemuPoll(struct pollfd *fds, nfds_t nfds, int timeout);
/* The process's clocks stay the C library's whatever CUEMU_CLOCK says: for
 * a program that links libcuemu but runs no CUDA work of its own (cufs),
 * whose timeouts and timestamps must be the machine's. Call it first in
 * main, before any thread starts. */
void cuemuClockReal(void);
int cuemuSelect(int nfds, fd_set *rd, fd_set *wr, fd_set *ex,
		struct timeval *timeout);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_CUEMU_H */
