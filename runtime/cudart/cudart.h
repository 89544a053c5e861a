/*
 * cudart.h - the runtime API's own state, shared by the files of
 * runtime/cudart/: its lazy initialization (the current device's primary
 * context, retained once), its per-thread last error and the CUresult to
 * cudaError_t mapping. Everything below it is reached through the public
 * driver API (cuda.h, cuemu.h), as libcudart is a client of libcuda.
 *
 * Locking: see device.c; the last error and the selected device are per
 * thread.
 */
#ifndef CUEMU_CUDART_H
#define CUEMU_CUDART_H

#include "cuda.h"
#include "cuda_runtime_api.h"
#include "cuemu.h"

/* Initializes the runtime on first use (cuInit, then the primary context of
 * the thread's device made current) unless the thread has a live context of
 * its own; then the current context and its device. Either out may be NULL. */
CUresult cuemu_rt_current(CUcontext *ctx, int *dev);

/* fn runs each time the runtime has a current context for a call, after
 * that context is current (register.c's EAGER loading: fn itself runs
 * its work once). Set from a constructor, before any thread calls the
 * runtime. */
void cuemu_rt_on_current(void (*fn)(void));
/* Sets what cudaDeviceReset runs once it has reset a primary context ctx
 * (its modules gone with it); set from a constructor. */
void cuemu_rt_on_reset(void (*fn)(CUcontext ctx));

/* Maps r to the runtime's code and records it as the thread's last error
 * when it is one. */
cudaError_t cuemu_rt_result(CUresult r);

/* Records and returns a code the runtime decides on its own. */
cudaError_t cuemu_rt_fail(cudaError_t e);

/* Most cuda* calls start the runtime first, and return what that failed
 * with. */
#define RT_BEGIN()                                                    \
	do {                                                          \
		CUresult rt_r_ = cuemu_rt_current(NULL, NULL);        \
		if (rt_r_ != CUDA_SUCCESS)                            \
			return cuemu_rt_result(rt_r_);                \
	} while (0)

#endif
