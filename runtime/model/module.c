/*
 * module.c - loaded modules: their functions and attributes, their
 * variables as real allocations (device memory, managed memory for
 * .attribute(.managed)) that the address map and /cu know, labelled with
 * the variable's name, and initialized before the module is handed out;
 * unloading frees them, and so does the destruction of the context it was
 * loaded in, except the program's managed variables (a library's, the
 * runtime's __managed__: one copy for the process, module.h), which are
 * made before any module in no context (cuemu_module_program_var) and
 * only bound by each module. A module a library made tells the library
 * when it goes
 * (library.c). The module's code is opaque here (module.h). A launch
 * queued of a module holds it (cuemu_module_hold): unloading it waits for
 * the launch to end, as the driver's cuModuleUnload and cuLibraryUnload
 * do (probes/results/lifetimes.txt), before its code, names and
 * variables go. A library's module is unloaded by its library only.
 *
 * Locking: modules and functions are found by handle in two trees under
 * mod_lock, a rwlock under which only hold_lock is taken, so a stale
 * handle is recognized without being dereferenced. hold_lock, a leaf,
 * guards the launches' holds, which a forked child does not inherit
 * (hold_epoch). A module's shape
 * never changes once made; a function's settable attributes are words
 * written under mod_lock held for writing. Variables are allocated and
 * freed through memory.c and managed.c, which take the process lock
 * themselves; mod_lock is not held then.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "model/memory.h"
#include "model/managed.h"
#include "model/module.h"
#include "model/library.h"

struct mod_var {
	char *name;
	CUdeviceptr addr;
	size_t size;
	bool kept;      /* the program's, bound: not the module's to free */
};

struct CUfunc_st {
	RB_ENTRY(CUfunc_st) node;
	CUmodule mod;
	int index;
	char *name;
	int attr[CU_FUNC_ATTRIBUTE_MAX];
	CUfunc_cache cache;
};

struct CUmod_st {
	RB_ENTRY(CUmod_st) node;
	CUcontext ctx;
	int dev;
	void *code;
	void (*drop)(void *);
	int nfunc, nvar;
	struct CUfunc_st *funcs;
	struct mod_var *vars;
	CUlibrary owner;         /* the library it was loaded for, or NULL */
	void (*forget)(CUlibrary, CUmodule); /* the owner's, told at the end */
	unsigned holds;          /* launches queued of it; hold_lock */
	unsigned hold_epoch;     /* the process's epoch those were taken in */
};

static int cmp_mod(struct CUmod_st *a, struct CUmod_st *b)
{
	return a < b ? -1 : a > b;
}

static int cmp_func(struct CUfunc_st *a, struct CUfunc_st *b)
{
	return a < b ? -1 : a > b;
}

RB_HEAD(mod_tree, CUmod_st);
RB_HEAD(func_tree, CUfunc_st);
CUEMU_RB_STATIC(mod_tree, CUmod_st, node, cmp_mod)
CUEMU_RB_STATIC(func_tree, CUfunc_st, node, cmp_func)

/* The live modules and their functions. Global because handles are
 * process-wide (any thread may use any handle) and one that was unloaded
 * must be told from a live one without dereferencing it. */
static pthread_rwlock_t mod_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct mod_tree modules = RB_INITIALIZER(&modules);
static struct func_tree functions = RB_INITIALIZER(&functions);

/* The launches' holds on modules, and the wait of an unload for them.
 * Global beside the registry they extend (a hold is taken on a handle
 * found there). */
static pthread_mutex_t hold_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hold_done = PTHREAD_COND_INITIALIZER;
/* Which process the holds were taken in: a forked child starts a new
 * epoch, in which its parent's holds count for nothing (the launches
 * holding them are the parent's and never end here: stream.c drops its
 * queued work, and the worker running one is not copied). No walk of
 * the modules at the fork, whose lock a parent's thread may hold. */
static unsigned hold_epoch;

static void holds_after_fork(void)
{
	pthread_mutex_init(&hold_lock, NULL);
	pthread_cond_init(&hold_done, NULL);
	hold_epoch++;
}

__attribute__((constructor)) static void holds_fork_register(void)
{
	pthread_atfork(NULL, NULL, holds_after_fork);
}

/* m's holds of this process; hold_lock held. */
static unsigned *holds_of(struct CUmod_st *m)
{
	if (m->hold_epoch != hold_epoch) {
		m->holds = 0;
		m->hold_epoch = hold_epoch;
	}
	return &m->holds;
}

/* Frees what a module holds but its code; its variables' memory too, but
 * the program's, which it only bound. */
static void mod_free(struct CUmod_st *m, int nvar_made)
{
	for (int i = 0; i < nvar_made; i++) {
		if (m->vars[i].addr && !m->vars[i].kept &&
		    cuemu_device_free((uintptr_t)m->vars[i].addr) !=
			    CUDA_SUCCESS)
			cuemu_debug("module %p: variable %s at 0x%llx was "
				    "freed elsewhere", (void *)m,
				    m->vars[i].name,
				    (unsigned long long)m->vars[i].addr);
		free(m->vars[i].name);
	}
	for (int i = 0; m->funcs && i < m->nfunc; i++)
		free(m->funcs[i].name);
	free(m->vars);
	free(m->funcs);
	free(m);
}

/* Allocates one variable in ctx (NULL: in none, the program's) and fills
 * it. The model's allocations are what the kernel's loads and stores
 * reach, and what /cu lists, named after it. */
static CUresult var_alloc(CUcontext ctx, int dev,
			  const struct cuemu_var_desc *d, CUdeviceptr *addr)
{
	size_t size = d->size ? d->size : 1;
	char label[160];
	CUresult r;

	r = d->managed ? mg_alloc(ctx, dev, size, CU_MEM_ATTACH_GLOBAL, addr) :
			 cuemu_device_alloc(ctx, dev, size, addr);
	if (r != CUDA_SUCCESS)
		return r;
	/* Device memory is mapped in the process; a managed page written
	 * here becomes resident on the host first, as the driver leaves a
	 * __managed__ variable's initial value. */
	if (d->init)
		memcpy((void *)(uintptr_t)*addr, d->init, d->size);
	else
		memset((void *)(uintptr_t)*addr, 0, d->size);
	snprintf(label, sizeof label, "module variable %s", d->name);
	cuemu_lock();
	cuemu_alloc_set_label((uintptr_t)*addr, label);
	cuemu_unlock();
	return CUDA_SUCCESS;
}

CUresult cuemu_module_program_var(int dev, const struct cuemu_var_desc *d,
				  CUdeviceptr *addr)
{
	if (!d->managed)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "variable %s is "
				  "not managed: only those are the program's",
				  d->name);
	return var_alloc(NULL, dev, d, addr);
}

/* One variable of the module: the program's bound where it was made,
 * the module's own allocated in its context. */
static CUresult var_make(struct CUmod_st *m, const struct cuemu_var_desc *d,
			 struct mod_var *v)
{
	if (!(v->name = strdup(d->name)))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "module variable");
	v->size = d->size;
	v->kept = d->managed && d->program;
	if (v->kept && !d->at)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "managed variable "
				  "%s is the program's but was never made",
				  d->name);
	if (v->kept) {
		v->addr = d->at;
		return CUDA_SUCCESS;
	}
	return var_alloc(m->ctx, m->dev, d, &v->addr);
}

static CUresult funcs_make(struct CUmod_st *m, const struct cuemu_func_desc *f,
			   int nf)
{
	if (nf && !(m->funcs = calloc((size_t)nf, sizeof *m->funcs)))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "module functions");
	for (int i = 0; i < nf; i++) {
		m->funcs[i].mod = m;
		m->funcs[i].index = i;
		memcpy(m->funcs[i].attr, f[i].attr, sizeof f[i].attr);
		if (!(m->funcs[i].name = strdup(f[i].name)))
			return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
					  "module function");
	}
	m->nfunc = nf;
	return CUDA_SUCCESS;
}

CUresult cuemu_module_create(CUcontext ctx, int dev,
			     const struct cuemu_func_desc *f, int nf,
			     const struct cuemu_var_desc *v, int nv,
			     void *code, void (*drop)(void *),
			     uint64_t *addr, CUmodule *out)
{
	struct CUmod_st *m = calloc(1, sizeof *m);
	CUresult r;
	int i;

	if (!m || (nv && !(m->vars = calloc((size_t)nv, sizeof *m->vars)))) {
		free(m);
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "module");
	}
	m->ctx = ctx;
	m->dev = dev;
	if ((r = funcs_make(m, f, nf)) != CUDA_SUCCESS) {
		mod_free(m, 0);
		return r;
	}
	for (i = 0; i < nv; i++)
		if ((r = var_make(m, &v[i], &m->vars[i])) != CUDA_SUCCESS) {
			mod_free(m, i + 1);
			return r;
		}
	m->nvar = nv;
	m->code = code;
	m->drop = drop;
	for (i = 0; i < nv; i++)
		addr[i] = m->vars[i].addr;
	pthread_rwlock_wrlock(&mod_lock);
	RB_INSERT(mod_tree, &modules, m);
	for (i = 0; i < nf; i++)
		RB_INSERT(func_tree, &functions, &m->funcs[i]);
	pthread_rwlock_unlock(&mod_lock);
	*out = m;
	return CUDA_SUCCESS;
}

CUresult cuemu_module_check(CUmodule h)
{
	struct CUmod_st *m;

	pthread_rwlock_rdlock(&mod_lock);
	m = h ? RB_FIND(mod_tree, &modules, h) : NULL;
	pthread_rwlock_unlock(&mod_lock);
	if (!m)
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE,
				  "module %p is not loaded", (void *)h);
	return CUDA_SUCCESS;
}

bool cuemu_module_hold(CUmodule h)
{
	struct CUmod_st *m;

	pthread_rwlock_rdlock(&mod_lock);
	if ((m = h ? RB_FIND(mod_tree, &modules, h) : NULL)) {
		pthread_mutex_lock(&hold_lock);
		(*holds_of(m))++;
		pthread_mutex_unlock(&hold_lock);
	}
	pthread_rwlock_unlock(&mod_lock);
	return m != NULL;
}

void cuemu_module_release(CUmodule m)
{
	unsigned *h;

	pthread_mutex_lock(&hold_lock);
	/* a parent's hold given back in a child is already forgotten */
	if (*(h = holds_of(m)) && !--*h)
		pthread_cond_broadcast(&hold_done);
	pthread_mutex_unlock(&hold_lock);
}

/* Takes h out of the registry, so that no launch holds it from then on;
 * a library's module only where owned is allowed. */
static CUresult unregister(CUmodule h, bool owned, struct CUmod_st **out)
{
	struct CUmod_st *m;

	pthread_rwlock_wrlock(&mod_lock);
	m = h ? RB_FIND(mod_tree, &modules, h) : NULL;
	if (m && m->owner && !owned) {
		pthread_rwlock_unlock(&mod_lock);
		return cuemu_fail(CUDA_ERROR_NOT_PERMITTED,
				  "module %p is a library's: "
				  "cuLibraryUnload unloads it", (void *)h);
	}
	if (m) {
		RB_REMOVE(mod_tree, &modules, m);
		for (int i = 0; i < m->nfunc; i++)
			RB_REMOVE(func_tree, &functions, &m->funcs[i]);
	}
	pthread_rwlock_unlock(&mod_lock);
	if (!m)
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE,
				  "module %p is not loaded", (void *)h);
	*out = m;
	return CUDA_SUCCESS;
}

/* Unloads h once every launch queued of it has ended. */
static CUresult destroy(CUmodule h, bool owned)
{
	struct CUmod_st *m = NULL;
	CUresult r;

	if ((r = unregister(h, owned, &m)) != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&hold_lock);
	while (*holds_of(m))
		pthread_cond_wait(&hold_done, &hold_lock);
	pthread_mutex_unlock(&hold_lock);
	if (m->owner)
		m->forget(m->owner, m);
	if (m->drop)
		m->drop(m->code);
	mod_free(m, m->nvar);
	return CUDA_SUCCESS;
}

CUresult cuemu_module_destroy(CUmodule h)
{
	return destroy(h, true);
}

CUresult cuemu_module_unload(CUmodule h)
{
	return destroy(h, false);
}

/* The first live module of ctx, NULL where it has none. */
static CUmodule module_of_ctx(CUcontext ctx)
{
	struct CUmod_st *m, *found = NULL;

	pthread_rwlock_rdlock(&mod_lock);
	RB_FOREACH(m, mod_tree, &modules)
		if (m->ctx == ctx) {
			found = m;
			break;
		}
	pthread_rwlock_unlock(&mod_lock);
	return found;
}

void cuemu_module_destroy_ctx(CUcontext ctx)
{
	CUmodule m;

	while ((m = module_of_ctx(ctx)))
		if (cuemu_module_destroy(m) != CUDA_SUCCESS)
			break;
}

void cuemu_module_set_owner(CUmodule m, CUlibrary l,
			    void (*forget)(CUlibrary l, CUmodule m))
{
	pthread_rwlock_wrlock(&mod_lock);
	m->owner = l;
	m->forget = forget;
	pthread_rwlock_unlock(&mod_lock);
}

void *cuemu_module_code(CUmodule m)
{
	return m->code;
}

CUcontext cuemu_module_ctx(CUmodule m)
{
	return m->ctx;
}

int cuemu_module_function_count(CUmodule m)
{
	return m->nfunc;
}

CUfunction cuemu_module_function(CUmodule m, int i)
{
	return i >= 0 && i < m->nfunc ? &m->funcs[i] : NULL;
}

CUfunction cuemu_module_find_function(CUmodule m, const char *name)
{
	for (int i = 0; i < m->nfunc; i++)
		if (!strcmp(m->funcs[i].name, name))
			return &m->funcs[i];
	return NULL;
}

bool cuemu_module_global(CUmodule m, const char *name, CUdeviceptr *addr,
			 size_t *size)
{
	for (int i = 0; i < m->nvar; i++)
		if (!strcmp(m->vars[i].name, name)) {
			*addr = m->vars[i].addr;
			*size = m->vars[i].size;
			return true;
		}
	return false;
}

CUresult cuemu_function_check(CUfunction h)
{
	struct CUfunc_st *f;

	pthread_rwlock_rdlock(&mod_lock);
	f = h ? RB_FIND(func_tree, &functions, h) : NULL;
	pthread_rwlock_unlock(&mod_lock);
	if (!f)
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE,
				  "function %p is in no loaded module",
				  (void *)h);
	return CUDA_SUCCESS;
}

CUmodule cuemu_function_module(CUfunction f)
{
	return f->mod;
}

int cuemu_function_index(CUfunction f)
{
	return f->index;
}

const char *cuemu_function_name(CUfunction f)
{
	return f->name;
}

int cuemu_function_attr(CUfunction f, CUfunction_attribute a)
{
	int v;

	pthread_rwlock_rdlock(&mod_lock);
	v = f->attr[a];
	pthread_rwlock_unlock(&mod_lock);
	return v;
}

void cuemu_function_set_attr(CUfunction f, CUfunction_attribute a, int v)
{
	pthread_rwlock_wrlock(&mod_lock);
	f->attr[a] = v;
	pthread_rwlock_unlock(&mod_lock);
}

CUfunc_cache cuemu_function_cache(CUfunction f)
{
	CUfunc_cache c;

	pthread_rwlock_rdlock(&mod_lock);
	c = f->cache;
	pthread_rwlock_unlock(&mod_lock);
	return c;
}

void cuemu_function_set_cache(CUfunction f, CUfunc_cache c)
{
	pthread_rwlock_wrlock(&mod_lock);
	f->cache = c;
	pthread_rwlock_unlock(&mod_lock);
}
