/*
 * module.c - the module and library globals (cuModuleGetGlobal,
 * cuLibraryGetGlobal). The emulated machine runs no kernels, so no module
 * or library is ever loaded: every handle names none, and the answer is
 * the real driver's for a handle it does not know. Programs that only
 * look the entries up (UCX's memory hooks) find them.
 *
 * No state, no locks.
 */
#define CUEMU_SUPERSEDED_ENTRY_POINTS 1
#include "model/context.h"
#include "driver/driver.h"
#include "driver/hookable.h"

CUEMU_HOOKABLE(cuModuleGetGlobal_v2)
CUresult CUEMU_HOOKED(cuModuleGetGlobal_v2)(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod,
			      const char *name)
{
	CUresult r;

	(void)dptr;
	(void)bytes;
	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!hmod)
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE, "NULL module");
	if (!name)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL name");
	return cuemu_fail(CUDA_ERROR_INVALID_HANDLE,
			  "module %p: no module is loaded here", (void *)hmod);
}

/* The pre-3.2 form took 32-bit addresses and sizes; the same answer, as no
 * module exists either way. */
CUEMU_HOOKABLE(cuModuleGetGlobal)
CUresult CUEMU_HOOKED(cuModuleGetGlobal)(CUdeviceptr_v1 *dptr,
					 unsigned int *bytes, CUmodule hmod,
					 const char *name)
{
	(void)dptr;
	(void)bytes;
	return cuModuleGetGlobal_v2(NULL, NULL, hmod, name);
}

CUEMU_HOOKABLE(cuLibraryGetGlobal)
CUresult CUEMU_HOOKED(cuLibraryGetGlobal)(CUdeviceptr *dptr, size_t *bytes,
			    CUlibrary library, const char *name)
{
	CUresult r;

	(void)dptr;
	(void)bytes;
	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!library)
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE, "NULL library");
	if (!name)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL name");
	return cuemu_fail(CUDA_ERROR_INVALID_HANDLE,
			  "library %p: no library is loaded here",
			  (void *)library);
}
