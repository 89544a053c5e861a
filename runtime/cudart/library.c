/*
 * library.c - cudaLibrary*: libraries on their cu* twins (the driver's
 * library.c). A library's kernels are cudaKernel_t handles that the
 * launches (launch.c) take as they take a registered kernel's.
 *
 * No state; the libraries are the driver's.
 */
#include "cudart/cudart.h"

#include <stdint.h>

cudaError_t cudaLibraryLoadData(cudaLibrary_t *library, const void *code,
				enum cudaJitOption *jitOptions,
				void **jitOptionsValues,
				unsigned int numJitOptions,
				enum cudaLibraryOption *libraryOptions,
				void **libraryOptionValues,
				unsigned int numLibraryOptions)
{
	RT_BEGIN();
	return cuemu_rt_result(cuLibraryLoadData(
		(CUlibrary *)library, code, (CUjit_option *)jitOptions,
		jitOptionsValues, numJitOptions,
		(CUlibraryOption *)libraryOptions, libraryOptionValues,
		numLibraryOptions));
}

cudaError_t cudaLibraryLoadFromFile(cudaLibrary_t *library,
				    const char *fileName,
				    enum cudaJitOption *jitOptions,
				    void **jitOptionsValues,
				    unsigned int numJitOptions,
				    enum cudaLibraryOption *libraryOptions,
				    void **libraryOptionValues,
				    unsigned int numLibraryOptions)
{
	RT_BEGIN();
	return cuemu_rt_result(cuLibraryLoadFromFile(
		(CUlibrary *)library, fileName, (CUjit_option *)jitOptions,
		jitOptionsValues, numJitOptions,
		(CUlibraryOption *)libraryOptions, libraryOptionValues,
		numLibraryOptions));
}

cudaError_t cudaLibraryUnload(cudaLibrary_t library)
{
	RT_BEGIN();
	return cuemu_rt_result(cuLibraryUnload((CUlibrary)library));
}

cudaError_t cudaLibraryGetKernel(cudaKernel_t *pKernel, cudaLibrary_t library,
				 const char *name)
{
	RT_BEGIN();
	return cuemu_rt_result(cuLibraryGetKernel((CUkernel *)pKernel,
						  (CUlibrary)library, name));
}

cudaError_t cudaLibraryGetKernelCount(unsigned int *count, cudaLibrary_t lib)
{
	RT_BEGIN();
	return cuemu_rt_result(cuLibraryGetKernelCount(count,
						       (CUlibrary)lib));
}

cudaError_t cudaLibraryEnumerateKernels(cudaKernel_t *kernels,
					unsigned int numKernels,
					cudaLibrary_t lib)
{
	RT_BEGIN();
	return cuemu_rt_result(cuLibraryEnumerateKernels(
		(CUkernel *)kernels, numKernels, (CUlibrary)lib));
}

/* A device address given as the runtime gives it, a host pointer. */
static cudaError_t var(CUresult (*get)(CUdeviceptr *, size_t *, CUlibrary,
				       const char *),
		       void **dptr, size_t *bytes, cudaLibrary_t library,
		       const char *name)
{
	CUdeviceptr d = 0;
	CUresult r;

	RT_BEGIN();
	r = get(dptr ? &d : NULL, bytes, (CUlibrary)library, name);
	if (r == CUDA_SUCCESS && dptr)
		*dptr = (void *)(uintptr_t)d;
	return cuemu_rt_result(r);
}

cudaError_t cudaLibraryGetGlobal(void **dptr, size_t *bytes,
				 cudaLibrary_t library, const char *name)
{
	return var(cuLibraryGetGlobal, dptr, bytes, library, name);
}

cudaError_t cudaLibraryGetManaged(void **dptr, size_t *bytes,
				  cudaLibrary_t library, const char *name)
{
	return var(cuLibraryGetManaged, dptr, bytes, library, name);
}

cudaError_t cudaLibraryGetUnifiedFunction(void **fptr, cudaLibrary_t library,
					  const char *symbol)
{
	RT_BEGIN();
	return cuemu_rt_result(cuLibraryGetUnifiedFunction(
		fptr, (CUlibrary)library, symbol));
}
