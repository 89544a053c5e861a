/*
 * attach.c - cuStreamAttachMemAsync and its per-thread form: the checks
 * the real driver makes (shared/reference/real-driver-api-families.txt,
 * attach.*; probes/results/families.txt), in its order, then the model's
 * record of the attachment (model/attach.c).
 *
 * Flags must be exactly one of GLOBAL, HOST and SINGLE; the legacy stream
 * refuses SINGLE (a null stream is the legacy one, but the per-thread one
 * in the _ptsz form); only the base of a managed allocation, with a length
 * of 0 or its size, is taken. Flags 0 faults inside the real driver; here
 * it is INVALID_VALUE like any other bad flags.
 *
 * Locking: none here; the model takes the process lock.
 */
#define CUEMU_PER_THREAD_ENTRY_POINTS 1
#include "model/managed.h"
#include "driver/driver.h"

static CUresult attach(CUstream h, CUdeviceptr dptr, size_t length,
		       unsigned int flags, bool legacy)
{
	CUresult r = cuemu_check_init();
	CUstream s;

	if (r != CUDA_SUCCESS)
		return r;
	if ((r = cuemu_stream_get(h, &s)) != CUDA_SUCCESS)
		return r;
	if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST &&
	    flags != CU_MEM_ATTACH_SINGLE)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "flags 0x%x: use one of CU_MEM_ATTACH_GLOBAL, "
				  "_HOST, _SINGLE", flags);
	if (legacy && flags == CU_MEM_ATTACH_SINGLE)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "the legacy stream cannot own memory "
				  "(CU_MEM_ATTACH_SINGLE)");
	return mg_attach(s, dptr, length, flags);
}

CUresult cuStreamAttachMemAsync(CUstream hStream, CUdeviceptr dptr,
				size_t length, unsigned int flags)
{
	return attach(hStream, dptr, length, flags,
		      !hStream || hStream == CU_STREAM_LEGACY);
}

CUresult cuStreamAttachMemAsync_ptsz(CUstream hStream, CUdeviceptr dptr,
				     size_t length, unsigned int flags)
{
	return attach(cuemu_ptsz(hStream), dptr, length,
		      flags, hStream == CU_STREAM_LEGACY);
}
