/*
 * export.c - cuGetExportTable. The driver's export tables are private:
 * arrays of functions whose number, order and meaning NVIDIA does not
 * publish, which NVIDIA's own CUDA runtime (the static libcudart that nvcc
 * links by default, and its libcudart.so) asks for before any documented
 * call. libcuemu serves none of them and answers every table as unknown
 * (CUDA_ERROR_INVALID_VALUE), as the real driver answers an id it does not
 * have.
 *
 * The first such request is the one sign a user gets that the program
 * carries NVIDIA's runtime rather than libcuemu's, so it is said once on
 * stderr, naming which runtime asked (the file holding the caller) and
 * what to do: build with `nvcc -cudart shared` (CMake:
 * CUDA_RUNTIME_LIBRARY Shared) and run with libcuemu's libcudart.so.13
 * first on the library path. A shared library that asks (one of NVIDIA's,
 * NVRTC or cuBLAS, or the user's) is named as a library: the program
 * itself may be built right.
 *
 * State: whether it was said, once a process; no locks (pthread_once).
 */
#define _GNU_SOURCE
#include "model/context.h"
#include "driver/driver.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* The caller of the first request, for the once-said line. Global because
 * pthread_once passes nothing to its routine; written before the once. */
static const void *first_caller;

static void say_once(void)
{
	Dl_info info;
	const char *file = "the program";
	const char *base;

	if (dladdr(first_caller, &info) && info.dli_fname &&
	    info.dli_fname[0])
		file = info.dli_fname;
	base = strrchr(file, '/');
	base = base ? base + 1 : file;
	if (strncmp(base, "libcudart.so", 12) == 0)
		fprintf(stderr,
			"cuemu: %s is NVIDIA's CUDA runtime, which needs "
			"private driver tables that libcuemu does not "
			"serve: put libcuemu's libcudart.so.13 first on "
			"LD_LIBRARY_PATH (the directory of the libcuda.so.1 "
			"alias)\n", file);
	else if (strstr(base, ".so"))   /* a library: maybe not the user's */
		fprintf(stderr,
			"cuemu: %s, a library the program loads, links "
			"NVIDIA's static CUDA runtime, which needs private "
			"driver tables that libcuemu does not serve: what it "
			"does through that runtime fails; rebuild it with "
			"`nvcc -cudart shared` where it is yours (NVIDIA's "
			"own, such as cuBLAS or NVRTC, cannot be)\n", file);
	else
		fprintf(stderr,
			"cuemu: %s links NVIDIA's static CUDA runtime, which "
			"needs private driver tables that libcuemu does not "
			"serve: rebuild it with `nvcc -cudart shared` (CMake: "
			"CUDA_RUNTIME_LIBRARY Shared)\n", file);
}

CUresult cuGetExportTable(const void **ppExportTable,
			  const CUuuid *pExportTableId)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	const void *none = NULL;

	if (!ppExportTable || !pExportTableId)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "NULL table or id");
	*ppExportTable = NULL;
	__atomic_compare_exchange_n(&first_caller, &none,
				    __builtin_return_address(0), false,
				    __ATOMIC_RELEASE, __ATOMIC_RELAXED);
	pthread_once(&once, say_once);
	return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			  "export tables are private: none is served");
}
