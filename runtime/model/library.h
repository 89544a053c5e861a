/*
 * library.h - loaded libraries as the model keeps them (library.c): the
 * image a library was given (its PTX, kept to load a module in each
 * context that asks), or the CUresult the image earns once a context needs
 * it (libraries load lazily: garbage loads, and is refused at its first
 * kernel); its kernels by name, with the attributes cuKernelGetAttribute
 * answers and cuKernelSetAttribute changes for every context's function;
 * and the module it became in each context.
 */
#ifndef CUEMU_MODEL_LIBRARY_H
#define CUEMU_MODEL_LIBRARY_H

#include "model/module.h"

/* A library's managed variables: the program's (module.h), made at its
 * load without a context, one copy that its module binds in every
 * context, freed at its unload once those modules (and the launches
 * queued of them) are gone. Parallel arrays of n. */
struct cuemu_lib_vars {
	unsigned n;
	char **names;
	CUdeviceptr *addrs;
	size_t *sizes;
};
/* Frees the variables' memory and the arrays; v is empty after. */
void cuemu_lib_vars_free(struct cuemu_lib_vars *v);

/* Makes a library of ptx (len bytes, copied; NULL where the image was
 * refused, then status says how), its nf kernels in the order the image
 * defines them, and its managed variables (*mv, taken over and emptied,
 * also on failure). */
CUresult cuemu_library_create(const char *ptx, size_t len, CUresult status,
			      const struct cuemu_func_desc *f, int nf,
			      struct cuemu_lib_vars *mv, CUlibrary *out);
/* The library's managed variables, as a load binds them. */
const struct cuemu_lib_vars *cuemu_library_vars(CUlibrary l);
/* false where the library has no managed variable of that name. */
bool cuemu_library_managed(CUlibrary l, const char *name, CUdeviceptr *addr,
			   size_t *size);
/* INVALID_HANDLE unless h names a live library. */
CUresult cuemu_library_check(CUlibrary h);
/* Unloads every module the library became (each once the launches queued
 * of it have ended), then frees its managed variables and itself; its
 * kernels name nothing from then on. INVALID_HANDLE where h names none. */
CUresult cuemu_library_destroy(CUlibrary h);
/* The refusal its image earned, CUDA_SUCCESS where it has none. */
CUresult cuemu_library_status(CUlibrary l);
const char *cuemu_library_ptx(CUlibrary l, size_t *len);
int cuemu_library_kernel_count(CUlibrary l);
/* The i-th kernel in the order cuLibraryEnumerateKernels gives (the
 * image's last first, as the driver lists them). */
CUkernel cuemu_library_kernel(CUlibrary l, int i);
/* NULL where no kernel has that name. */
CUkernel cuemu_library_find_kernel(CUlibrary l, const char *name);
/* The module the library became in ctx, NULL where it has none yet. */
CUmodule cuemu_library_module(CUlibrary l, CUcontext ctx);
/* Records m as the library's module in ctx and gives its functions the
 * kernels' attributes; the module tells the library when it goes
 * (cuemu_library_forget). */
CUresult cuemu_library_add_module(CUlibrary l, CUcontext ctx, CUmodule m);
/* Forgets module m of library l: the hook module.c calls as m is
 * destroyed (cuemu_module_set_owner). */
void cuemu_library_forget(CUlibrary l, CUmodule m);

/* Whether h names a kernel of a live library, saying nothing: the launch
 * path asks it of every CUfunction, most of which are no kernel. */
bool cuemu_kernel_is(CUkernel h);
/* INVALID_HANDLE unless h names a kernel of a live library. */
CUresult cuemu_kernel_check(CUkernel h);
CUlibrary cuemu_kernel_library(CUkernel k);
int cuemu_kernel_index(CUkernel k);
const char *cuemu_kernel_name(CUkernel k);
int cuemu_kernel_attr(CUkernel k, CUfunction_attribute a);
/* Sets a for the kernel and for its function in every context. */
void cuemu_kernel_set_attr(CUkernel k, CUfunction_attribute a, int v);
/* Sets the kernel's cache preference on device dev, for its function in
 * each context of dev now and when loaded later; OUT_OF_MEMORY where the
 * preference cannot be kept. */
CUresult cuemu_kernel_set_cache(CUkernel k, int dev, CUfunc_cache config);

#endif
