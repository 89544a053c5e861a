/*
 * memory.c - the runtime API's memory management: cudaMalloc,
 * cudaMallocPitch, cudaFree, cudaMallocHost, cudaHostAlloc, cudaFreeHost,
 * cudaHostGetFlags, cudaHostGetDevicePointer, cudaHostRegister,
 * cudaHostUnregister, cudaMemGetInfo, cudaMemcpy, cudaMemcpyAsync,
 * cudaMemcpyPeer(Async) and cudaMemset(Async), each on the driver entry
 * that does the same work.
 *
 * Where the runtime answers differently from the driver, it decides here
 * before calling down: a zero-byte cudaMalloc or an empty cudaMallocPitch
 * gives NULL, cudaMallocHost gives NULL for zero bytes as cuMemHostAlloc
 * does (cuMemAllocHost would leave the pointer as it was), a cudaMemcpyKind
 * picks the driver's copy of that direction, and a peer copy checks its
 * device numbers.
 *
 * Locking: none of its own; the driver API takes what it needs.
 */
#include "cudart/cudart.h"

#include <stdbool.h>
#include <stdint.h>

cudaError_t cudaMalloc(void **devPtr, size_t size)
{
	CUresult r;

	if ((r = cuemu_rt_current(NULL, NULL)))
		return cuemu_rt_result(r);
	if (!devPtr)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	/* The runtime answers a zero-byte request with a NULL pointer. */
	if (size == 0) {
		*devPtr = NULL;
		return cudaSuccess;
	}
	return cuemu_rt_result(cuMemAlloc((CUdeviceptr *)devPtr, size));
}

cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width,
			    size_t height)
{
	CUresult r;

	if ((r = cuemu_rt_current(NULL, NULL)))
		return cuemu_rt_result(r);
	/* The runtime answers an empty request with NULL and pitch 0. */
	if (devPtr && pitch && (width == 0 || height == 0)) {
		*devPtr = NULL;
		*pitch = 0;
		return cudaSuccess;
	}
	/* The runtime has no element size; the pitch does not depend on it
	 * (a multiple of the texture alignment), so any valid one will do. */
	return cuemu_rt_result(cuMemAllocPitch((CUdeviceptr *)devPtr, pitch,
					       width, height, 4));
}

cudaError_t cudaFree(void *devPtr)
{
	CUresult r;

	if ((r = cuemu_rt_current(NULL, NULL)))
		return cuemu_rt_result(r);
	return cuemu_rt_result(cuMemFree((CUdeviceptr)(uintptr_t)devPtr));
}

cudaError_t cudaMallocHost(void **ptr, size_t size)
{
	CUresult r;

	if ((r = cuemu_rt_current(NULL, NULL)))
		return cuemu_rt_result(r);
	/* cuMemHostAlloc, not cuMemAllocHost: zero bytes give NULL. */
	return cuemu_rt_result(cuMemHostAlloc(ptr, size, 0));
}

cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
	CUresult r;

	if ((r = cuemu_rt_current(NULL, NULL)))
		return cuemu_rt_result(r);
	return cuemu_rt_result(cuMemHostAlloc(pHost, size, flags));
}

cudaError_t cudaFreeHost(void *ptr)
{
	CUresult r;

	if ((r = cuemu_rt_current(NULL, NULL)))
		return cuemu_rt_result(r);
	return cuemu_rt_result(cuMemFreeHost(ptr));
}

cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost)
{
	CUresult r;

	if ((r = cuemu_rt_current(NULL, NULL)))
		return cuemu_rt_result(r);
	return cuemu_rt_result(cuMemHostGetFlags(pFlags, pHost));
}

cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost,
				     unsigned int flags)
{
	CUresult r;

	if ((r = cuemu_rt_current(NULL, NULL)))
		return cuemu_rt_result(r);
	return cuemu_rt_result(cuMemHostGetDevicePointer(
		(CUdeviceptr *)pDevice, pHost, flags));
}

cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
	CUresult r;

	if ((r = cuemu_rt_current(NULL, NULL)))
		return cuemu_rt_result(r);
	return cuemu_rt_result(cuMemHostRegister(ptr, size, flags));
}

cudaError_t cudaHostUnregister(void *ptr)
{
	CUresult r;

	if ((r = cuemu_rt_current(NULL, NULL)))
		return cuemu_rt_result(r);
	return cuemu_rt_result(cuMemHostUnregister(ptr));
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
	CUresult r;

	if ((r = cuemu_rt_current(NULL, NULL)))
		return cuemu_rt_result(r);
	return cuemu_rt_result(cuMemGetInfo(free_bytes, total));
}

/* ------------------------------------------------------------ copies */

/* The driver's copy for kind: a pointer the kind names a device pointer
 * must be one; cudaMemcpyDefault and HostToHost let the addresses say
 * where each end is, as cuMemcpy does under unified addressing. */
static CUresult copy_kind(uintptr_t dst, uintptr_t src, size_t count,
			  enum cudaMemcpyKind kind, CUstream s, bool sync)
{
	switch (kind) {
	case cudaMemcpyHostToDevice:
		return sync ? cuMemcpyHtoD(dst, (const void *)src, count) :
			cuMemcpyHtoDAsync(dst, (const void *)src, count, s);
	case cudaMemcpyDeviceToHost:
		return sync ? cuMemcpyDtoH((void *)dst, src, count) :
			cuMemcpyDtoHAsync((void *)dst, src, count, s);
	case cudaMemcpyDeviceToDevice:
		return sync ? cuMemcpyDtoD(dst, src, count) :
			cuMemcpyDtoDAsync(dst, src, count, s);
	default:
		return sync ? cuMemcpy(dst, src, count) :
			cuMemcpyAsync(dst, src, count, s);
	}
}

/* cudaMemcpy runs on the legacy default stream and waits; the Async form
 * runs on stream. */
static cudaError_t rt_copy(void *dst, const void *src, size_t count,
			   enum cudaMemcpyKind kind, cudaStream_t stream,
			   bool sync)
{
	CUresult r;

	if ((r = cuemu_rt_current(NULL, NULL)))
		return cuemu_rt_result(r);
	if ((unsigned)kind > cudaMemcpyDefault)
		return cuemu_rt_fail(cudaErrorInvalidMemcpyDirection);
	return cuemu_rt_result(copy_kind((uintptr_t)dst, (uintptr_t)src,
					 count, kind, (CUstream)stream, sync));
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
		       enum cudaMemcpyKind kind)
{
	return rt_copy(dst, src, count, kind, NULL, true);
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
			    enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return rt_copy(dst, src, count, kind, stream, false);
}

/* Under unified addressing a peer copy is a device-to-device copy; the
 * device numbers are only checked. */
static cudaError_t rt_peer(void *dst, int dstDevice, const void *src,
			   int srcDevice, size_t count, cudaStream_t stream,
			   bool sync)
{
	CUdeviceptr d = (CUdeviceptr)(uintptr_t)dst;
	CUdeviceptr s = (CUdeviceptr)(uintptr_t)src;
	CUresult r;
	int n = 0;

	if ((r = cuemu_rt_current(NULL, NULL)))
		return cuemu_rt_result(r);
	if ((r = cuDeviceGetCount(&n)))
		return cuemu_rt_result(r);
	if (dstDevice < 0 || dstDevice >= n || srcDevice < 0 || srcDevice >= n)
		return cuemu_rt_fail(cudaErrorInvalidDevice);
	return cuemu_rt_result(sync ? cuMemcpyDtoD(d, s, count) :
			       cuMemcpyDtoDAsync(d, s, count,
						 (CUstream)stream));
}

cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src,
			   int srcDevice, size_t count)
{
	return rt_peer(dst, dstDevice, src, srcDevice, count, NULL, true);
}

cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src,
				int srcDevice, size_t count,
				cudaStream_t stream)
{
	return rt_peer(dst, dstDevice, src, srcDevice, count, stream, false);
}

cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
	CUresult r;

	if ((r = cuemu_rt_current(NULL, NULL)))
		return cuemu_rt_result(r);
	return cuemu_rt_result(cuMemsetD8((CUdeviceptr)(uintptr_t)devPtr,
					  (unsigned char)value, count));
}

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
			    cudaStream_t stream)
{
	CUresult r;

	if ((r = cuemu_rt_current(NULL, NULL)))
		return cuemu_rt_result(r);
	return cuemu_rt_result(cuMemsetD8Async((CUdeviceptr)(uintptr_t)devPtr,
					       (unsigned char)value, count,
					       (CUstream)stream));
}
