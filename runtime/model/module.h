/*
 * module.h - loaded modules as the model keeps them (module.c): their
 * functions, with the attributes cuFuncGetAttribute answers and
 * cuFuncSetAttribute changes, and their variables, each a real allocation
 * of the address map. What a module's code is (the PTX engine's parsed
 * form) the model does not know: the driver hands it in as an opaque
 * pointer with the function that frees it, and gets it back to launch.
 */
#ifndef CUEMU_MODEL_MODULE_H
#define CUEMU_MODEL_MODULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/internal.h"

/* A function as the loader describes it: its name and the attributes the
 * image fixes (indexed by CUfunction_attribute; the settable ones start
 * at their defaults). */
struct cuemu_func_desc {
	const char *name;
	int attr[CU_FUNC_ATTRIBUTE_MAX];
};

/* A module variable: size bytes, managed memory or device memory, its
 * first bytes init (NULL: zeros). */
struct cuemu_var_desc {
	const char *name;
	uint64_t size;
	bool managed;
	const void *init;
	/* A managed variable of the program's (a library's, the runtime's
	 * __managed__: one copy for the whole process), made before the
	 * module by cuemu_module_program_var and bound at `at`; the module
	 * leaves it when it goes. */
	bool program;
	CUdeviceptr at;
};

/* Makes d, a managed variable, the program's: allocated in no context (no
 * context's reset or end frees it) on dev, initialized, labelled; its
 * owner frees it with cuemu_device_free once no module binds it. */
CUresult cuemu_module_program_var(int dev, const struct cuemu_var_desc *d,
				  CUdeviceptr *addr);

/* Makes a module of ctx (on dev): every variable allocated and
 * initialized, its address in addr[i]; the module owns code from then on
 * (drop(code) when it goes). On failure nothing is left allocated, and
 * code is not taken. */
CUresult cuemu_module_create(CUcontext ctx, int dev,
			     const struct cuemu_func_desc *f, int nf,
			     const struct cuemu_var_desc *v, int nv,
			     void *code, void (*drop)(void *),
			     uint64_t *addr, CUmodule *out);
/* INVALID_HANDLE unless h names a live module. */
CUresult cuemu_module_check(CUmodule h);
/* Frees a module's variables and code once the launches queued of it
 * have ended; INVALID_HANDLE for a handle that names none. */
CUresult cuemu_module_destroy(CUmodule h);
/* cuModuleUnload's: cuemu_module_destroy, but NOT_PERMITTED for a
 * library's module (its library unloads it), which stays loaded. */
CUresult cuemu_module_unload(CUmodule h);
/* A launch queued of h keeps it loaded until cuemu_module_release: false
 * where h is no longer loaded. */
bool cuemu_module_hold(CUmodule h);
void cuemu_module_release(CUmodule m);
/* Destroys every module loaded in ctx, as its destruction does. */
void cuemu_module_destroy_ctx(CUcontext ctx);
/* Marks m as library l's: forget(l, m) is called when m goes, with no
 * lock of module.c held (library.c's hook, so that module.c need not
 * know libraries). */
void cuemu_module_set_owner(CUmodule m, CUlibrary l,
			    void (*forget)(CUlibrary l, CUmodule m));
void *cuemu_module_code(CUmodule m);
int cuemu_module_function_count(CUmodule m);
CUfunction cuemu_module_function(CUmodule m, int i);
/* NULL where no function has that name. */
CUfunction cuemu_module_find_function(CUmodule m, const char *name);
/* false where no variable has that name. */
bool cuemu_module_global(CUmodule m, const char *name, CUdeviceptr *addr,
			 size_t *size);
/* The context a module was loaded in. */
CUcontext cuemu_module_ctx(CUmodule m);

/* INVALID_HANDLE unless h names a function of a live module. */
CUresult cuemu_function_check(CUfunction h);
CUmodule cuemu_function_module(CUfunction f);
int cuemu_function_index(CUfunction f);
const char *cuemu_function_name(CUfunction f);
int cuemu_function_attr(CUfunction f, CUfunction_attribute a);
void cuemu_function_set_attr(CUfunction f, CUfunction_attribute a, int v);
CUfunc_cache cuemu_function_cache(CUfunction f);
void cuemu_function_set_cache(CUfunction f, CUfunc_cache c);

#endif
