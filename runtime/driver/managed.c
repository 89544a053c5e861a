/*
 * managed.c - cuMemAllocManaged and the emulated-kernel entries of cuemu.h
 * (cuemuLaunchHostFunc, cuemuAccess): their argument checks, in the order
 * the real driver makes them, over the managed memory model
 * (model/managed.c, model/fault.c).
 *
 * Locking: no lock is taken here; the model takes the process lock for the
 * part of each call that needs it (see model/managed.h), and an emulated
 * kernel runs on its stream's worker with no lock held.
 */
#include "model/managed.h"
#include "driver/driver.h"
#include "driver/hookable.h"
#include "driver/graph.h"

CUEMU_HOOKABLE(cuMemAllocManaged)
CUresult CUEMU_HOOKED(cuMemAllocManaged)(CUdeviceptr *dptr, size_t bytesize,
			   unsigned int flags)
{
	CUcontext ctx;
	int dev;
	CUresult r = cuemu_current(&ctx, &dev);

	if (r != CUDA_SUCCESS)
		return r;
	if (!dptr)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "dptr is NULL");
	if (bytesize == 0)
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE, "size is 0");
	else if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST)
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			       "flags 0x%x: use CU_MEM_ATTACH_GLOBAL or "
			       "CU_MEM_ATTACH_HOST", flags);
	else if (!(r = cuemu_capture_unsafe("an allocation")))
		r = mg_alloc(ctx, dev, bytesize, flags, dptr);
	return cuemu_zero_ptr(r, dptr);
}

/* An emulated kernel was launched on s with result r: under
 * CUDA_LAUNCH_BLOCKING=1 the launch returns once it is done. */
static CUresult launched(CUstream s, CUresult r)
{
	if (r == CUDA_SUCCESS && cuemu_launch_blocking())
		return cuemu_stream_sync(s);
	return r;
}

CUresult cuemuLaunchHostFunc(CUstream h, void (*fn)(void *), void *arg)
{
	CUresult r = cuemu_check_init();
	CUstream s;

	if (r != CUDA_SUCCESS)
		return r;
	if (!fn)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "fn is NULL");
	if ((r = cuemu_stream_get(h, &s)) != CUDA_SUCCESS)
		return r;
	return launched(s, fault_launch(s, fn, arg));
}

CUresult cuemuAccess(CUstream h, CUdeviceptr p, size_t n, unsigned flags)
{
	CUresult r = cuemu_check_init();
	CUstream s;

	if (r != CUDA_SUCCESS)
		return r;
	if (!n || !flags ||
	    (flags & ~(unsigned)(CUEMU_ACCESS_READ | CUEMU_ACCESS_WRITE)))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "need a size and READ and/or WRITE");
	if ((r = cuemu_stream_get(h, &s)) != CUDA_SUCCESS)
		return r;
	return launched(s, mg_access(s, p, n, flags & CUEMU_ACCESS_WRITE));
}
