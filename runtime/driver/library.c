/*
 * library.c - the cuLibrary* and cuKernel* entries, and what makes a
 * CUkernel good wherever a launch or the occupancy calculator takes a
 * CUfunction. A library is context-independent: its image is read and
 * parsed once at load (a refusal is kept and answered at its first kernel
 * or module, as the driver loads lazily), its kernels and their
 * attributes and its managed variables (made at the load, one copy for
 * the process) are there without a context, and the module it becomes is
 * loaded in a context when that context first asks for it (a kernel's
 * function, the library's module, a global, a launch). Each entry checks
 * its arguments in the real driver's order (probes/results/library.txt).
 *
 * State: load_lock (below), so that two threads asking for a library's
 * module in one context load it once; the libraries are the model's
 * (model/library.c, its own lock).
 */
#include <stdlib.h>
#include <string.h>

#include "model/library.h"
#include "model/module.h"
#include "driver/driver.h"
#include "driver/hookable.h"
#include "driver/image.h"

/* Held while a library's module is found or loaded in a context: global
 * because a context's first use of a library may come from any thread. */
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

/* The library's module in the current context, loaded there first. */
static CUresult library_module(CUlibrary l, CUmodule *out)
{
	const char *ptx;
	size_t len;
	CUcontext ctx;
	CUresult r;

	if ((r = cuemu_library_status(l)) != CUDA_SUCCESS)
		return cuemu_fail(r, "library %p: its image was refused",
				  (void *)l);
	if ((r = cuemu_current(&ctx, NULL)) != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&load_lock);
	if (!(*out = cuemu_library_module(l, ctx))) {
		ptx = cuemu_library_ptx(l, &len);
		r = cuemu_module_load_ptx(ptx, len, cuemu_library_vars(l),
					  out);
		if (r == CUDA_SUCCESS &&
		    (r = cuemu_library_add_module(l, ctx, *out)) !=
			    CUDA_SUCCESS)
			cuemu_module_destroy(*out);
	}
	pthread_mutex_unlock(&load_lock);
	return r;
}

/* The kernel's function in the current context. */
static CUresult kernel_function(CUkernel k, CUfunction *out)
{
	CUmodule m;
	CUresult r = library_module(cuemu_kernel_library(k), &m);

	if (r == CUDA_SUCCESS)
		*out = cuemu_module_function(m, cuemu_kernel_index(k));
	return r;
}

CUresult cuemu_function_resolve(CUfunction f, CUfunction *out)
{
	/* A CUkernel wherever a CUfunction is taken. Asked without a word:
	 * a failure message formatted at every launch of a plain function
	 * would be work for nothing. */
	if (cuemu_kernel_is((CUkernel)f))
		return kernel_function((CUkernel)f, out);
	*out = f;
	return cuemu_function_check(f);
}

/* The library options: each known, and their arrays there when counted. */
static CUresult lib_opts_check(unsigned n, CUlibraryOption *o, void **v)
{
	if (n && (!o || !v))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%u library options with %s NULL", n,
				  o ? "values" : "options");
	for (unsigned i = 0; i < n; i++)
		if ((unsigned)o[i] >= CU_LIBRARY_NUM_OPTIONS)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "library option %u is %d, no option",
					  i, (int)o[i]);
	return CUDA_SUCCESS;
}

/* The device whose architecture the image is read for, and where its
 * managed variables are made: the current context's, else the first. */
static int image_dev(void)
{
	CUcontext ctx;
	int dev = 0;

	if (cuCtxGetCurrent(&ctx) != CUDA_SUCCESS || !ctx ||
	    cuemu_current(NULL, &dev) != CUDA_SUCCESS)
		dev = 0;
	return dev;
}

/* Reads and parses the image once; a refusal is kept for the library's
 * first kernel or module, and its log goes where the JIT options say at
 * once, as the driver writes it at the load it answers with success. Its
 * managed variables are made here, with or without a context. */
static CUresult library_make(CUlibrary *out, const void *code,
			     const struct cuemu_jit *j)
{
	struct cuemu_image im = { 0 };
	struct cuemu_lib_vars lv;
	struct cuemu_func_desc *f;
	int nf;
	CUresult status = cuemu_image_kernels(code, image_dev(), &im, &f, &nf,
					      &lv, j);
	CUresult r = cuemu_library_create(status ? NULL : im.ptx, im.len,
					  status, f, nf, &lv, out);

	cuemu_func_descs_free(f, nf);
	cuemu_image_free(&im);
	return r;
}

static CUresult load_checks(CUlibrary *library, const void *code,
			    CUjit_option *jo, void **jv, unsigned nj,
			    CUlibraryOption *lo, void **lv, unsigned nl,
			    struct cuemu_jit *j)
{
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!library || !code)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s is NULL",
				  library ? "the image" : "library");
	if ((r = cuemu_jit_read(nj, jo, jv, j)) != CUDA_SUCCESS)
		return r;
	return lib_opts_check(nl, lo, lv);
}

CUresult cuLibraryLoadData(CUlibrary *library, const void *code,
			   CUjit_option *jitOptions, void **jitOptionsValues,
			   unsigned int numJitOptions,
			   CUlibraryOption *libraryOptions,
			   void **libraryOptionValues,
			   unsigned int numLibraryOptions)
{
	struct cuemu_jit j;
	CUresult r = load_checks(library, code, jitOptions, jitOptionsValues,
				 numJitOptions, libraryOptions,
				 libraryOptionValues, numLibraryOptions, &j);

	return r ? r : library_make(library, code, &j);
}

CUresult cuLibraryLoadFromFile(CUlibrary *library, const char *fileName,
			       CUjit_option *jitOptions,
			       void **jitOptionsValues,
			       unsigned int numJitOptions,
			       CUlibraryOption *libraryOptions,
			       void **libraryOptionValues,
			       unsigned int numLibraryOptions)
{
	char *data = NULL;
	size_t len = 0;
	struct cuemu_jit j;
	CUresult r = load_checks(library, fileName, jitOptions,
				 jitOptionsValues, numJitOptions,
				 libraryOptions, libraryOptionValues,
				 numLibraryOptions, &j);

	if (r != CUDA_SUCCESS ||
	    (r = cuemu_read_file(fileName, &data, &len)) != CUDA_SUCCESS)
		return r;
	r = library_make(library, data, &j);
	free(data);
	return r;
}

CUresult cuLibraryUnload(CUlibrary library)
{
	CUresult r = cuemu_check_init();

	if (r != CUDA_SUCCESS)
		return r;
	/* as at a module's unload, device printf is flushed */
	cuemu_devprintf_flush();
	return cuemu_library_destroy(library);
}

CUresult cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library,
			    const char *name)
{
	CUresult r = cuemu_check_init();
	CUkernel k;

	if (r != CUDA_SUCCESS)
		return r;
	if (!pKernel)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "pKernel is NULL");
	if ((r = cuemu_library_check(library)) != CUDA_SUCCESS)
		return r;
	if (!name)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "name is NULL");
	if ((r = cuemu_library_status(library)) != CUDA_SUCCESS)
		return cuemu_fail(r, "library %p: its image was refused",
				  (void *)library);
	if (!(k = cuemu_library_find_kernel(library, name)))
		return cuemu_fail(CUDA_ERROR_NOT_FOUND,
				  "library %p has no kernel %s",
				  (void *)library, name);
	*pKernel = k;
	return CUDA_SUCCESS;
}

CUresult cuLibraryGetKernelCount(unsigned int *count, CUlibrary lib)
{
	CUresult r;

	if ((r = cuemu_out_check(count, "count")) != CUDA_SUCCESS ||
	    (r = cuemu_library_check(lib)) != CUDA_SUCCESS)
		return r;
	*count = (unsigned)cuemu_library_kernel_count(lib);
	return CUDA_SUCCESS;
}

CUresult cuLibraryEnumerateKernels(CUkernel *kernels, unsigned int numKernels,
				   CUlibrary lib)
{
	CUresult r = cuemu_check_init();
	unsigned n;

	if (r != CUDA_SUCCESS)
		return r;
	if (!kernels)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "kernels is NULL");
	if ((r = cuemu_library_check(lib)) != CUDA_SUCCESS)
		return r;
	n = (unsigned)cuemu_library_kernel_count(lib);
	for (unsigned i = 0; i < n && i < numKernels; i++)
		kernels[i] = cuemu_library_kernel(lib, (int)i);
	return CUDA_SUCCESS;
}

CUresult cuLibraryGetModule(CUmodule *pMod, CUlibrary library)
{
	CUresult r = cuemu_check_init();

	if (r != CUDA_SUCCESS)
		return r;
	if (!pMod)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "pMod is NULL");
	if ((r = cuemu_library_check(library)) != CUDA_SUCCESS)
		return r;
	return library_module(library, pMod);
}

/* A variable of the library: a managed one is the library's own, found
 * with or without a context (probes/results/kapi.txt: noctx_get), any
 * other its module's in the current context. */
static CUresult library_var(CUdeviceptr *dptr, size_t *bytes, CUlibrary l,
			    const char *name, bool managed)
{
	CUdeviceptr a;
	CUmodule m;
	size_t n;
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!dptr && !bytes)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "dptr and bytes are both NULL");
	if ((r = cuemu_library_check(l)) != CUDA_SUCCESS)
		return r;
	if (!name)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "name is NULL");
	if (managed) {
		if ((r = cuemu_library_status(l)) != CUDA_SUCCESS)
			return cuemu_fail(r, "library %p: its image was "
					  "refused", (void *)l);
		if (!cuemu_library_managed(l, name, &a, &n))
			return cuemu_fail(CUDA_ERROR_NOT_FOUND, "library %p "
					  "has no __managed__ variable %s",
					  (void *)l, name);
	} else if ((r = library_module(l, &m)) != CUDA_SUCCESS) {
		return r;
	} else if (!cuemu_module_global(m, name, &a, &n)) {
		return cuemu_fail(CUDA_ERROR_NOT_FOUND,
				  "library %p has no variable %s", (void *)l,
				  name);
	}
	if (dptr)
		*dptr = a;
	if (bytes)
		*bytes = n;
	return CUDA_SUCCESS;
}

CUEMU_HOOKABLE(cuLibraryGetGlobal)
CUresult CUEMU_HOOKED(cuLibraryGetGlobal)(CUdeviceptr *dptr, size_t *bytes,
					  CUlibrary library, const char *name)
{
	return library_var(dptr, bytes, library, name, false);
}

CUresult cuLibraryGetManaged(CUdeviceptr *dptr, size_t *bytes,
			     CUlibrary library, const char *name)
{
	return library_var(dptr, bytes, library, name, true);
}

/* No library here holds unified functions (the driver answers
 * INVALID_VALUE for a kernel's name too). */
CUresult cuLibraryGetUnifiedFunction(void **fptr, CUlibrary library,
				     const char *symbol)
{
	CUresult r = cuemu_check_init();

	if (r != CUDA_SUCCESS)
		return r;
	if (!fptr)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "fptr is NULL");
	if ((r = cuemu_library_check(library)) != CUDA_SUCCESS)
		return r;
	if (!symbol)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "symbol is NULL");
	return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			  "library %p has no unified function %s",
			  (void *)library, symbol);
}

/* ------------------------------------------------------------ kernels */

CUresult cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel)
{
	CUresult r;

	if ((r = cuemu_out_check(pFunc, "pFunc")) != CUDA_SUCCESS ||
	    (r = cuemu_kernel_check(kernel)) != CUDA_SUCCESS)
		return r;
	return kernel_function(kernel, pFunc);
}

CUresult cuKernelGetAttribute(int *pi, CUfunction_attribute attrib,
			      CUkernel kernel, CUdevice dev)
{
	CUresult r;

	if ((r = cuemu_out_check(pi, "pi")) != CUDA_SUCCESS ||
	    (r = cuemu_kernel_check(kernel)) != CUDA_SUCCESS ||
	    (r = cuemu_check_dev(dev)) != CUDA_SUCCESS ||
	    (r = cuemu_func_attr_known(attrib)) != CUDA_SUCCESS)
		return r;
	*pi = cuemu_kernel_attr(kernel, attrib);
	return CUDA_SUCCESS;
}

/* An attribute set is the kernel's on every device: the machine's GPUs
 * are of one kind. */
CUresult cuKernelSetAttribute(CUfunction_attribute attrib, int val,
			      CUkernel kernel, CUdevice dev)
{
	CUresult r = cuemu_check_init();

	if (r != CUDA_SUCCESS)
		return r;
	if ((r = cuemu_kernel_check(kernel)) != CUDA_SUCCESS ||
	    (r = cuemu_check_dev(dev)) != CUDA_SUCCESS ||
	    (r = cuemu_func_attr_value(
		     cuemu_kernel_attr(kernel,
				       CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES),
		     dev, attrib, &val)) != CUDA_SUCCESS)
		return r;
	cuemu_kernel_set_attr(kernel, attrib, val);
	return CUDA_SUCCESS;
}

CUresult cuKernelGetName(const char **name, CUkernel hfunc)
{
	CUresult r = cuemu_check_init();

	if (r != CUDA_SUCCESS)
		return r;
	/* the driver answers INVALID_VALUE for either NULL */
	if (!name || !hfunc)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s is NULL",
				  name ? "the kernel" : "name");
	if ((r = cuemu_kernel_check(hfunc)) != CUDA_SUCCESS)
		return r;
	*name = cuemu_kernel_name(hfunc);
	return CUDA_SUCCESS;
}

CUresult cuKernelGetLibrary(CUlibrary *pLib, CUkernel kernel)
{
	CUresult r;

	if ((r = cuemu_out_check(pLib, "pLib")) != CUDA_SUCCESS ||
	    (r = cuemu_kernel_check(kernel)) != CUDA_SUCCESS)
		return r;
	*pLib = cuemu_kernel_library(kernel);
	return CUDA_SUCCESS;
}

/* The kernel's parameters are its function's in the current context:
 * without one the driver answers INVALID_CONTEXT, where cuFuncGetParamInfo
 * needs none (probes/results/kapi.txt). */
CUresult cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex,
			      size_t *paramOffset, size_t *paramSize)
{
	CUresult r = cuemu_check_init();
	CUfunction f;

	if (r != CUDA_SUCCESS)
		return r;
	if (!kernel)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "kernel is NULL");
	if ((r = cuemu_kernel_check(kernel)) != CUDA_SUCCESS ||
	    (r = kernel_function(kernel, &f)) != CUDA_SUCCESS)
		return r;
	return cuemu_function_param_info(f, paramIndex, paramOffset,
					 paramSize);
}

/* Checked kernel, device, then the preference, as the driver answers two
 * bad arguments at once; no context needed. */
CUresult cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config,
				CUdevice dev)
{
	CUresult r = cuemu_check_init();

	if (r != CUDA_SUCCESS)
		return r;
	if ((r = cuemu_kernel_check(kernel)) != CUDA_SUCCESS ||
	    (r = cuemu_check_dev(dev)) != CUDA_SUCCESS)
		return r;
	if ((unsigned)config > CU_FUNC_CACHE_PREFER_EQUAL)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "cache config %d is none", (int)config);
	return cuemu_kernel_set_cache(kernel, dev, config);
}
