/*
 * register.c - the device code a program registers: the fat binaries that
 * nvcc's and clang's host code hands the runtime from their constructors
 * (__cudaRegisterFatBinary and its End, __cudaRegisterFunction,
 * __cudaRegisterVar, __cudaRegisterManagedVar, __cudaInitModule,
 * __cudaUnregisterFatBinary at exit), and the kernels and variables they
 * hold, found by the host address the program names them by.
 *
 * Each fat binary becomes one module in each context that uses it, through
 * the public cuModule* entries, as the runtime is a client of the driver.
 * It is loaded in a context at the first use there of anything it holds (a
 * launch, a symbol copy, a managed variable's first host access through
 * __cudaInitModule): CUDA_MODULE_LOADING is LAZY by default, as the real
 * runtime's. Under EAGER every fat binary registered so far is loaded when
 * the runtime starts (register_eager, on the runtime's first current
 * context: cuemu_rt_on_current). A load that fails is remembered
 * and answered at every later use, as the real runtime answers a module it
 * could not load. A __managed__ variable is one allocation for the
 * process, whatever the device and across cudaDeviceReset, as the real
 * runtime's (probes/results/lifetimes.txt): the first load allocates it in
 * no context (cuemuModuleLoadManaged), every later load in any context
 * binds the same memory, and the pointer the program reaches it by is set
 * to it. A context the runtime resets takes its modules with it: the
 * reset's hook (cuemu_rt_on_reset) drops them and the functions found in
 * them here, so that the next use loads again; a handle is never probed
 * to learn whether it still names what it did, as a new module may have
 * taken a freed one's address.
 *
 * Relocatable device code (nvcc -rdc=true, -dc) registers the fat binary
 * of nvcc's device link, machine code only, in a wrapper of version 2
 * whose last field is the program's objects' own fat binaries (crt's
 * link.stub, NULL-terminated). Their PTX is what the device link joined:
 * at the first load the runtime links it again through cuLink* (one
 * image for the process, every context's module loaded from it), as the
 * driver's JIT would link it for a GPU the machine code was not built
 * for. Objects that carry machine code only are refused once, in one
 * line.
 *
 * Kernels and variables are kept in one array of entries sorted by host
 * address: registration inserts (constructors, a few hundred entries),
 * every lookup is a binary search, O(log n). The handle cudaGetKernel
 * gives for a kernel is its stub's address: a handle is looked up as the
 * address was, never followed.
 *
 * Locking: reg_lock guards the fat binaries (their list, their modules),
 * the table and the functions found, and is held
 * across a fat binary's load so that two threads never load it twice. It
 * is never held while calling into the program.
 */
#include "cudart/register.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The wrapper nvcc's host code registers around its fat binary. */
#define RT_WRAPPER_MAGIC 0x466243B1u
/* Its version where nvcc's device link (relocatable device code) made
 * the fat binary; 1 otherwise. */
#define RT_WRAPPER_LINKED 2u
/* The fat binary container's magic (its header: u32 magic, u16 version,
 * u16 header size, u64 bytes of entries). */
#define RT_FATBIN_MAGIC 0xBA55ED50u

struct rt_wrapper {
	uint32_t magic;
	uint32_t version;
	const void *data;   /* the fat binary container */
	const void *filename_or_fatbins;
};

/* A fat binary's module in one context, and a kernel's function there. */
struct rt_module {
	CUcontext ctx;
	CUmodule mod;
	struct rt_module *next;
};

struct rt_function {
	CUcontext ctx;
	CUfunction fn;
	struct rt_function *next;
};

/* One registered fat binary. The program holds &fb->self as its handle
 * (a void **), which is how it names this fat binary back to us. */
struct rt_fatbin {
	void *self;
	const void *image;
	const void *const *prelinked; /* relocatable objects' fat binaries */
	void *linked;           /* their link's image, once made (image) */
	struct rt_module *modules;
	cudaError_t load_error; /* cudaSuccess until a load failed */
	struct rt_fatbin *next; /* in reg_fatbins */
};

struct rt_entry {
	const void *host;   /* stub, shadow variable, or managed pointer */
	struct rt_fatbin *fb;
	const char *name;   /* the device-side (mangled) name */
	enum rt_kind kind;
	struct rt_function *functions;
	CUdeviceptr managed; /* RT_MANAGED: the program's copy, once loaded */
};

/* The program's registered device code. Global because registration runs
 * from the program's constructors, before any handle exists to hang it
 * on; guarded by reg_lock. */
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rt_entry **reg_table;
static size_t reg_count, reg_cap;
static struct rt_fatbin *reg_fatbins;

/* ------------------------------------------------------------ table */

/* The index of the first entry whose host address is >= host. */
static size_t table_floor(const void *host)
{
	size_t lo = 0, hi = reg_count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((uintptr_t)reg_table[mid]->host < (uintptr_t)host)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct rt_entry *table_find(const void *host, enum rt_kind kind)
{
	size_t i = table_floor(host);

	if (i < reg_count && reg_table[i]->host == host &&
	    reg_table[i]->kind == kind)
		return reg_table[i];
	return NULL;
}

static void free_functions(struct rt_entry *e)
{
	while (e->functions) {
		struct rt_function *f = e->functions;

		e->functions = f->next;
		free(f);
	}
}

/* Adds e, or puts it in place of the entry for the same host address (a
 * library registered again). Registration cannot fail back to the program
 * (the entries return void): an entry that finds no memory is left out,
 * said once, and its use answers as an unknown name would. */
static void table_put(struct rt_entry *e)
{
	size_t i = table_floor(e->host);

	if (i < reg_count && reg_table[i]->host == e->host) {
		free_functions(reg_table[i]);
		free(reg_table[i]);
		reg_table[i] = e;
		return;
	}
	if (reg_count == reg_cap) {
		size_t cap = reg_cap ? reg_cap * 2 : 64;
		struct rt_entry **t = realloc(reg_table, cap * sizeof *t);

		if (!t) {
			fprintf(stderr, "cuemu: out of memory registering "
				"'%s': it will not be found\n", e->name);
			free(e);
			return;
		}
		reg_table = t;
		reg_cap = cap;
	}
	memmove(&reg_table[i + 1], &reg_table[i],
		(reg_count - i) * sizeof *reg_table);
	reg_table[i] = e;
	reg_count++;
}

/* Drops and frees every entry of fb. */
static void table_drop(const struct rt_fatbin *fb)
{
	size_t i, n = 0;

	for (i = 0; i < reg_count; i++) {
		if (reg_table[i]->fb != fb) {
			reg_table[n++] = reg_table[i];
			continue;
		}
		free_functions(reg_table[i]);
		free(reg_table[i]);
	}
	reg_count = n;
	if (!n) {
		free(reg_table);
		reg_table = NULL;
		reg_cap = 0;
	}
}

static struct rt_fatbin *fatbin_of(void **handle)
{
	return handle ? (struct rt_fatbin *)(void *)handle : NULL;
}

static void put(void **handle, const void *host, const char *name,
		enum rt_kind kind)
{
	struct rt_entry *e;

	if (!fatbin_of(handle) || !host || !name)
		return;
	if (!(e = calloc(1, sizeof *e))) {
		fprintf(stderr, "cuemu: out of memory registering '%s': it "
			"will not be found\n", name);
		return;
	}
	*e = (struct rt_entry){
		.host = host, .fb = fatbin_of(handle), .name = name,
		.kind = kind,
	};
	pthread_mutex_lock(&reg_lock);
	table_put(e);
	pthread_mutex_unlock(&reg_lock);
}

/* ------------------------------------------------------------- loading */

/* fb's managed variables: their names and the program's copies (0 where
 * none is allocated yet), in *names and *addrs (both freed by the
 * caller), their count in *n; reg_lock held. */
static cudaError_t managed_of(const struct rt_fatbin *fb, const char ***names,
			      CUdeviceptr **addrs, unsigned *n)
{
	size_t i, k = 0;

	*names = NULL;
	*addrs = NULL;
	for (i = 0; i < reg_count; i++)
		k += reg_table[i]->fb == fb && reg_table[i]->kind == RT_MANAGED;
	*n = (unsigned)k;
	if (!k)
		return cudaSuccess;
	*names = calloc(k, sizeof **names);
	*addrs = calloc(k, sizeof **addrs);
	if (!*names || !*addrs)
		return cudaErrorMemoryAllocation;
	for (i = 0, k = 0; i < reg_count; i++)
		if (reg_table[i]->fb == fb && reg_table[i]->kind == RT_MANAGED) {
			(*names)[k] = reg_table[i]->name;
			(*addrs)[k++] = reg_table[i]->managed;
		}
	return cudaSuccess;
}

/* Points every managed variable of fb at the program's copy, as the real
 * runtime does when it loads the module: the program reaches a
 * __managed__ variable through the pointer it registered. The copies are
 * in addrs, in managed_of's order; reg_lock held. */
static void bind_managed(const struct rt_fatbin *fb, const CUdeviceptr *addrs)
{
	size_t i, k = 0;

	for (i = 0; i < reg_count; i++) {
		struct rt_entry *e = reg_table[i];

		if (e->fb != fb || e->kind != RT_MANAGED)
			continue;
		e->managed = addrs[k++];
		if (e->managed)
			*(void **)e->host = (void *)(uintptr_t)e->managed;
	}
}

/* Loads fb in the current context, its managed variables the program's. */
static CUresult load_locked(struct rt_fatbin *fb, CUmodule *mod)
{
	const char **names;
	CUdeviceptr *addrs;
	unsigned n;
	CUresult r;

	if (managed_of(fb, &names, &addrs, &n) != cudaSuccess)
		r = CUDA_ERROR_OUT_OF_MEMORY;
	else if ((r = cuemuModuleLoadManaged(mod, fb->image, n, names,
					     addrs)) == CUDA_SUCCESS)
		bind_managed(fb, addrs);
	free(names);
	free(addrs);
	return r;
}

/* fb's module in the current context ctx, loaded there once; reg_lock
 * held. */
/* The bytes of a fat binary container: its header and the entries'
 * bytes it declares. */
static size_t fatbin_size(const void *fatbin)
{
	uint32_t magic;
	uint64_t body;

	memcpy(&magic, fatbin, sizeof magic);
	if (magic != RT_FATBIN_MAGIC)
		return 0;
	memcpy(&body, (const char *)fatbin + 8, sizeof body);
	return 16 + body;
}

/* Says once a process why the program's relocatable device code does
 * not run: the link's own words. */
static void say_unlinked(CUresult r, const char *log)
{
	static bool said; /* once a process: a program has one such */

	if (__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
		return;
	if (r == CUDA_ERROR_NO_BINARY_FOR_GPU)
		fprintf(stderr, "cuemu: this program's device code is "
			"relocatable (nvcc -rdc=true or -dc) and its objects "
			"carry machine code only, which does not run here: "
			"build them with PTX too (-arch=sm_XX, or -gencode "
			"with code=compute_XX)\n");
	else
		fprintf(stderr, "cuemu: this program's relocatable device "
			"code (nvcc -rdc=true or -dc) does not link here: "
			"%s\n", log[0] ? log : "(no log)");
}

/* The relocatable objects' PTX linked as the device link joined them,
 * through the driver's linker, into fb's own image; reg_lock held. */
static CUresult link_locked(struct rt_fatbin *fb)
{
	char log[1024] = "", name[32];
	CUjit_option o[] = { CU_JIT_ERROR_LOG_BUFFER,
			     CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *v[] = { log, (void *)(uintptr_t)sizeof log };
	CUlinkState st;
	void *image = NULL;
	size_t len = 0;
	CUresult r = cuLinkCreate(2, o, v, &st);

	if (r != CUDA_SUCCESS)
		return r;
	for (int i = 0; r == CUDA_SUCCESS && fb->prelinked[i]; i++) {
		snprintf(name, sizeof name, "object %d", i + 1);
		r = cuLinkAddData(st, CU_JIT_INPUT_FATBINARY,
				  (void *)fb->prelinked[i],
				  fatbin_size(fb->prelinked[i]), name, 0, NULL,
				  NULL);
	}
	if (r == CUDA_SUCCESS)
		r = cuLinkComplete(st, &image, &len);
	if (r == CUDA_SUCCESS && !(fb->linked = malloc(len)))
		r = CUDA_ERROR_OUT_OF_MEMORY;
	if (r == CUDA_SUCCESS) {
		memcpy(fb->linked, image, len);
		fb->image = fb->linked;
	}
	(void)cuLinkDestroy(st);
	if (r != CUDA_SUCCESS)
		say_unlinked(r, log);
	return r;
}

static cudaError_t module_locked(struct rt_fatbin *fb, CUcontext ctx,
				 CUmodule *out)
{
	struct rt_module *m;
	CUresult r;

	if (fb->load_error != cudaSuccess)
		return fb->load_error;
	if (fb->prelinked && !fb->linked &&
	    (r = link_locked(fb)) != CUDA_SUCCESS) {
		fb->load_error = r == CUDA_ERROR_NO_BINARY_FOR_GPU ?
			cudaErrorNoKernelImageForDevice : (cudaError_t)r;
		return fb->load_error;
	}
	for (m = fb->modules; m; m = m->next)
		if (m->ctx == ctx) {
			*out = m->mod;
			return cudaSuccess;
		}
	if (!(m = calloc(1, sizeof *m)))
		return cudaErrorMemoryAllocation;
	if ((r = load_locked(fb, &m->mod)) != CUDA_SUCCESS) {
		free(m);
		/* The runtime names a module it cannot use for this GPU as
		 * having no image for the device. */
		fb->load_error = r == CUDA_ERROR_NO_BINARY_FOR_GPU ?
			cudaErrorNoKernelImageForDevice : (cudaError_t)r;
		return fb->load_error;
	}
	m->ctx = ctx;
	m->next = fb->modules;
	fb->modules = m;
	*out = m->mod;
	return cudaSuccess;
}

/* The current context, the runtime started. */
static cudaError_t current(CUcontext *ctx)
{
	return (cudaError_t)cuemu_rt_current(ctx, NULL);
}

static void load_all(void)
{
	const char *mode = getenv("CUDA_MODULE_LOADING");
	CUcontext ctx;
	CUmodule mod;
	size_t i;

	if (!mode || strcmp(mode, "EAGER") != 0 ||
	    cuCtxGetCurrent(&ctx) != CUDA_SUCCESS || !ctx)
		return;
	pthread_mutex_lock(&reg_lock);
	for (i = 0; i < reg_count; i++)
		(void)module_locked(reg_table[i]->fb, ctx, &mod);
	pthread_mutex_unlock(&reg_lock);
}

static void register_eager(void)
{
	/* Once a process, as the runtime starts once. */
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, load_all);
}

/* Drops what ctx held of fb, its modules gone with it; reg_lock held. */
static void forget_modules(struct rt_fatbin *fb, CUcontext ctx)
{
	struct rt_module **at = &fb->modules, *m;

	while ((m = *at)) {
		if (m->ctx == ctx) {
			*at = m->next;
			free(m);
		} else {
			at = &m->next;
		}
	}
}

static void forget_functions(struct rt_entry *e, CUcontext ctx)
{
	struct rt_function **at = &e->functions, *f;

	while ((f = *at)) {
		if (f->ctx == ctx) {
			*at = f->next;
			free(f);
		} else {
			at = &f->next;
		}
	}
}

/* A context the runtime reset has lost its modules: what was found in
 * them is forgotten, and the next use there loads again. */
static void register_reset(CUcontext ctx)
{
	struct rt_fatbin *fb;
	size_t i;

	pthread_mutex_lock(&reg_lock);
	for (fb = reg_fatbins; fb; fb = fb->next)
		forget_modules(fb, ctx);
	for (i = 0; i < reg_count; i++)
		forget_functions(reg_table[i], ctx);
	pthread_mutex_unlock(&reg_lock);
}

/* Under EAGER, the runtime's start loads every fat binary registered; a
 * reset's context forgets its modules. */
__attribute__((constructor)) static void register_hook(void)
{
	cuemu_rt_on_current(register_eager);
	cuemu_rt_on_reset(register_reset);
}

/* e's function in ctx, looked up once there; reg_lock held. */
static cudaError_t function_locked(struct rt_entry *e, CUcontext ctx,
				   CUfunction *out)
{
	struct rt_function *f;
	CUmodule mod;
	cudaError_t err;
	CUresult r;

	for (f = e->functions; f; f = f->next)
		if (f->ctx == ctx) {
			*out = f->fn;
			return cudaSuccess;
		}
	if ((err = module_locked(e->fb, ctx, &mod)) != cudaSuccess)
		return err;
	if (!(f = calloc(1, sizeof *f)))
		return cudaErrorMemoryAllocation;
	if ((r = cuModuleGetFunction(&f->fn, mod, e->name)) != CUDA_SUCCESS) {
		free(f);
		return r == CUDA_ERROR_NOT_FOUND ?
			cudaErrorInvalidDeviceFunction : (cudaError_t)r;
	}
	f->ctx = ctx;
	f->next = e->functions;
	e->functions = f;
	*out = f->fn;
	return cudaSuccess;
}

cudaError_t rt_kernel_of(const void *host, struct rt_kernel *out)
{
	struct rt_entry *e;

	pthread_mutex_lock(&reg_lock);
	e = table_find(host, RT_KERNEL);
	pthread_mutex_unlock(&reg_lock);
	if (!e)
		return cudaErrorInvalidDeviceFunction;
	out->handle = e->host;
	out->name = e->name;
	return cudaSuccess;
}

cudaError_t rt_function_of(const void *handle, CUfunction *fn)
{
	struct rt_entry *e;
	CUcontext ctx;
	cudaError_t err;

	if ((err = current(&ctx)) != cudaSuccess)
		return err;
	pthread_mutex_lock(&reg_lock);
	e = table_find(handle, RT_KERNEL);
	err = e ? function_locked(e, ctx, fn) :
		  cudaErrorInvalidResourceHandle;
	pthread_mutex_unlock(&reg_lock);
	/* a library's kernel (cudaLibraryGetKernel) is the driver's */
	if (!e && cuKernelGetFunction(fn, (CUkernel)(uintptr_t)handle) ==
		  CUDA_SUCCESS)
		err = cudaSuccess;
	return err;
}

const void *rt_stub_of(CUfunction fn)
{
	const void *stub = fn;

	pthread_mutex_lock(&reg_lock);
	for (size_t i = 0; i < reg_count && stub == fn; i++) {
		const struct rt_entry *e = reg_table[i];
		if (e->kind != RT_KERNEL)
			continue;
		for (const struct rt_function *f = e->functions; f; f = f->next)
			if (f->fn == fn)
				stub = e->host;
	}
	pthread_mutex_unlock(&reg_lock);
	return stub;
}

/* The managed variable whose program copy is at p (what the host code
 * names a __managed__ variable by: the memory its pointer was set to);
 * reg_lock held. A walk of the table: a program's managed variables are
 * few, and the symbol calls that ask are not on any fast path. */
static struct rt_entry *managed_at(const void *p)
{
	for (size_t i = 0; i < reg_count; i++)
		if (reg_table[i]->kind == RT_MANAGED && reg_table[i]->managed &&
		    reg_table[i]->managed == (CUdeviceptr)(uintptr_t)p)
			return reg_table[i];
	return NULL;
}

cudaError_t rt_symbol_of(const void *host, CUdeviceptr *dptr, size_t *size)
{
	struct rt_entry *e;
	CUcontext ctx;
	CUmodule mod;
	cudaError_t err;
	CUresult r;

	if ((err = current(&ctx)) != cudaSuccess)
		return err;
	pthread_mutex_lock(&reg_lock);
	if (!(e = table_find(host, RT_VAR)) && !(e = managed_at(host)))
		err = cudaErrorInvalidSymbol;
	else if ((err = module_locked(e->fb, ctx, &mod)) == cudaSuccess &&
		 (r = cuModuleGetGlobal(dptr, size, mod, e->name)) !=
			 CUDA_SUCCESS)
		err = r == CUDA_ERROR_NOT_FOUND ? cudaErrorInvalidSymbol :
						  (cudaError_t)r;
	pthread_mutex_unlock(&reg_lock);
	return err;
}

/* ------------------------------------------------- the host code's calls */


void **__cudaRegisterFatBinary(void *fatCubin)
{
	const struct rt_wrapper *w = fatCubin;
	struct rt_fatbin *fb = calloc(1, sizeof *fb);

	if (!fb) {
		fprintf(stderr, "cuemu: out of memory registering a fat "
			"binary: its kernels will not be found\n");
		return NULL;
	}
	fb->self = fb;
	/* The wrapper's image is what the driver loads; a pointer that is
	 * no wrapper is handed on as it is, and the load says what it is. */
	fb->image = w && w->magic == RT_WRAPPER_MAGIC ? w->data : fatCubin;
	/* relocatable objects: linked at the first load (link_locked); a
	 * wrapper without them has only the device link's machine code,
	 * which the load refuses */
	if (w && w->magic == RT_WRAPPER_MAGIC &&
	    w->version == RT_WRAPPER_LINKED && w->filename_or_fatbins)
		fb->prelinked = w->filename_or_fatbins;
	pthread_mutex_lock(&reg_lock);
	fb->next = reg_fatbins;
	reg_fatbins = fb;
	pthread_mutex_unlock(&reg_lock);
	return &fb->self;
}

void __cudaRegisterFatBinaryEnd(void **fatCubinHandle)
{
	(void)fatCubinHandle;
}

/* fb out of the fat binaries' list, its managed variables' copies freed;
 * reg_lock held. */
static void fatbin_drop(struct rt_fatbin *fb)
{
	struct rt_fatbin **at;

	for (at = &reg_fatbins; *at; at = &(*at)->next)
		if (*at == fb) {
			*at = fb->next;
			break;
		}
	for (size_t i = 0; i < reg_count; i++)
		if (reg_table[i]->fb == fb && reg_table[i]->managed)
			(void)cuMemFree(reg_table[i]->managed);
}

/* At exit (the host code's atexit): the modules unloaded, the managed
 * variables freed, the entries freed. A context already destroyed by then
 * answers an error, which nothing here can act on. */
void __cudaUnregisterFatBinary(void **fatCubinHandle)
{
	struct rt_fatbin *fb = fatbin_of(fatCubinHandle);

	if (!fb)
		return;
	pthread_mutex_lock(&reg_lock);
	fatbin_drop(fb);
	table_drop(fb);
	pthread_mutex_unlock(&reg_lock);
	while (fb->modules) {
		struct rt_module *m = fb->modules;

		fb->modules = m->next;
		(void)cuModuleUnload(m->mod);
		free(m);
	}
	free(fb->linked);
	free(fb);
}

void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun,
			    char *deviceFun, const char *deviceName,
			    int thread_limit, void *tid, void *bid,
			    void *bDim, void *gDim, int *wSize)
{
	(void)deviceFun;
	(void)thread_limit;
	(void)tid;
	(void)bid;
	(void)bDim;
	(void)gDim;
	(void)wSize;
	put(fatCubinHandle, hostFun, deviceName, RT_KERNEL);
}

void __cudaRegisterVar(void **fatCubinHandle, char *hostVar,
		       char *deviceAddress, const char *deviceName, int ext,
		       size_t size, int constant, int global)
{
	(void)deviceAddress;
	(void)ext;
	(void)size;
	(void)constant;
	(void)global;
	put(fatCubinHandle, hostVar, deviceName, RT_VAR);
}

void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress,
			      char *deviceAddress, const char *deviceName,
			      int ext, size_t size, int constant, int global)
{
	(void)deviceAddress;
	(void)ext;
	(void)size;
	(void)constant;
	(void)global;
	put(fatCubinHandle, hostVarPtrAddress, deviceName, RT_MANAGED);
}

/* The host code calls this before its first touch of a managed variable:
 * the module is loaded then, and the variable's pointer set. Answers
 * whether it is. */
char __cudaInitModule(void **fatCubinHandle)
{
	struct rt_fatbin *fb = fatbin_of(fatCubinHandle);
	CUcontext ctx;
	CUmodule mod;
	cudaError_t err;

	if (!fb || current(&ctx) != cudaSuccess)
		return 0;
	pthread_mutex_lock(&reg_lock);
	err = module_locked(fb, ctx, &mod);
	pthread_mutex_unlock(&reg_lock);
	return err == cudaSuccess;
}
