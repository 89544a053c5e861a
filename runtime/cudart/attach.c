/*
 * attach.c - cudaStreamAttachMemAsync (and its per-thread form) on
 * cuStreamAttachMemAsync, whose checks are the driver's.
 *
 * Locking: none here.
 */
#define CUEMU_PER_THREAD_ENTRY_POINTS 1
#include "cudart/cudart.h"

cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr,
				     size_t length, unsigned int flags)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamAttachMemAsync((CUstream)stream,
						      (CUdeviceptr)devPtr,
						      length, flags));
}

cudaError_t cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void *devPtr,
					  size_t length, unsigned int flags);
cudaError_t cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void *devPtr,
					  size_t length, unsigned int flags)
{
	RT_BEGIN();
	return cuemu_rt_result(cuStreamAttachMemAsync_ptsz((CUstream)stream,
							   (CUdeviceptr)devPtr,
							   length, flags));
}
