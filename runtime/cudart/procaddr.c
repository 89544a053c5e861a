/*
 * procaddr.c - cudaGetDriverEntryPoint and cudaGetDriverEntryPointByVersion
 * (and their per-thread-default-stream forms) on cuGetProcAddress: the
 * runtime asks the driver for the export, at the runtime's own CUDA
 * version unless the caller names one, and starts itself first, as
 * libcudart does.
 *
 * Locking: none here; cuGetProcAddress reads a constant table.
 */
#include "cudart/cudart.h"

static cudaError_t entry_point(const char *symbol, void **funcPtr,
			       int version, unsigned long long flags,
			       enum cudaDriverEntryPointQueryResult *status)
{
	CUdriverProcAddressQueryResult st;
	CUresult r;

	RT_BEGIN();
	r = cuGetProcAddress(symbol, funcPtr, version, flags, &st);
	if (r == CUDA_SUCCESS && status)
		*status = (enum cudaDriverEntryPointQueryResult)st;
	return cuemu_rt_result(r);
}

cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr,
				    unsigned long long flags,
				    enum cudaDriverEntryPointQueryResult *st)
{
	return entry_point(symbol, funcPtr, CUDART_VERSION, flags, st);
}

cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol,
					     void **funcPtr,
					     unsigned int cudaVersion,
					     unsigned long long flags,
					     enum cudaDriverEntryPointQueryResult *st)
{
	/* A version past INT_MAX is past the driver's: refused below. */
	return entry_point(symbol, funcPtr,
			   cudaVersion > (unsigned)CUDART_VERSION ?
			   CUDART_VERSION + 1 : (int)cudaVersion, flags, st);
}

/* The forms a program built with per-thread default streams calls: the
 * default search is then the per-thread one. */
static unsigned long long per_thread(unsigned long long flags)
{
	return flags == cudaEnableDefault ?
	       cudaEnablePerThreadDefaultStream : flags;
}

cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr,
	unsigned long long flags, enum cudaDriverEntryPointQueryResult *st);
cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr,
	unsigned long long flags, enum cudaDriverEntryPointQueryResult *st)
{
	return cudaGetDriverEntryPoint(symbol, funcPtr, per_thread(flags), st);
}

cudaError_t cudaGetDriverEntryPointByVersion_ptsz(const char *symbol,
	void **funcPtr, unsigned int cudaVersion, unsigned long long flags,
	enum cudaDriverEntryPointQueryResult *st);
cudaError_t cudaGetDriverEntryPointByVersion_ptsz(const char *symbol,
	void **funcPtr, unsigned int cudaVersion, unsigned long long flags,
	enum cudaDriverEntryPointQueryResult *st)
{
	return cudaGetDriverEntryPointByVersion(symbol, funcPtr, cudaVersion,
						per_thread(flags), st);
}
