/*
 * error.c - the driver API's error handling entries, cuGetErrorName and
 * cuGetErrorString, and the one CUresult-to-errno table of the project
 * (cuemuResultToErrno: what a refused /cu write returns, used by the
 * control protocol and cufs). The names and sentences are model/errors.c's
 * table. No state, no locks.
 */
#include "model/internal.h"

#include <errno.h>

CUresult cuGetErrorName(CUresult error, const char **pStr)
{
	if (!pStr)
		return CUDA_ERROR_INVALID_VALUE;
	*pStr = cuemu_result_name(error);
	return *pStr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult error, const char **pStr)
{
	if (!pStr)
		return CUDA_ERROR_INVALID_VALUE;
	*pStr = cuemu_result_text(error);
	return *pStr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* The one mapping from a CUresult to the errno a refused /cu write returns. */
int cuemuResultToErrno(CUresult r)
{
	switch (r) {
	case CUDA_SUCCESS:
		return 0;
	case CUDA_ERROR_INVALID_VALUE:
		return EINVAL;
	case CUDA_ERROR_OUT_OF_MEMORY:
		return ENOMEM;
	case CUDA_ERROR_INVALID_DEVICE:
	case CUDA_ERROR_NO_DEVICE:
		return ENODEV;
	case CUDA_ERROR_NOT_SUPPORTED:
	case CUDA_ERROR_PEER_ACCESS_UNSUPPORTED:
		return EOPNOTSUPP;
	case CUDA_ERROR_NOT_READY:
	case CUDA_ERROR_ALREADY_MAPPED:
	case CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED:
	case CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED:
	case CUDA_ERROR_CONTEXT_ALREADY_IN_USE:
	case CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE:
		return EBUSY;
	case CUDA_ERROR_NOT_FOUND:
	case CUDA_ERROR_NOT_MAPPED:
	case CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED:
		return ENOENT;
	case CUDA_ERROR_INVALID_HANDLE:
	case CUDA_ERROR_CONTEXT_IS_DESTROYED:
		return EBADF;
	case CUDA_ERROR_NOT_PERMITTED:
		return EPERM;
	case CUDA_ERROR_TIMEOUT:
		return ETIMEDOUT;
	default:
		return EIO;
	}
}
