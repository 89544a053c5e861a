/*
 * library.c - loaded libraries (cuLibrary*): the PTX a library holds, its
 * kernels (CUkernel: context-independent handles) with their attributes,
 * its managed variables (one copy for the process, made at its load
 * without a context and bound by each of its modules: module.h), and the
 * module it became in each context that asked for one. A kernel's
 * attribute set through cuKernelSetAttribute is the kernel's in every
 * context: its functions there are given it now and when loaded later;
 * a cache preference set through cuKernelSetCacheConfig is the kernel's on
 * one device, given to its functions in that device's contexts alike.
 *
 * Locking: libraries and kernels are found by handle in two trees under
 * lib_lock, a rwlock; a library's modules are a short list under it. It
 * is taken before module.c's mod_lock (a kernel's attribute is given to
 * its functions under it), never while mod_lock is held: module.c calls
 * cuemu_library_forget after releasing its own. Modules are destroyed
 * with lib_lock not held. A library's managed variables are fixed from
 * its making to its freeing and read without the lock.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "model/library.h"
#include "model/memory.h"

struct lib_mod {
	CUcontext ctx;
	CUmodule mod;
};

/* A kernel's cache preference on one device. */
struct kcache {
	int dev;
	CUfunc_cache config;
};

struct CUkern_st {
	RB_ENTRY(CUkern_st) node;
	CUlibrary lib;
	int index;               /* in the image's order */
	char *name;
	int attr[CU_FUNC_ATTRIBUTE_MAX];
	bool set[CU_FUNC_ATTRIBUTE_MAX]; /* given by cuKernelSetAttribute */
	struct kcache *cache;    /* by cuKernelSetCacheConfig, a device each */
	int ncache;
};

struct CUlib_st {
	RB_ENTRY(CUlib_st) node;
	char *ptx;
	size_t len;
	CUresult status;
	int nkern;
	struct CUkern_st *kerns;
	int nmod, capmod;
	struct lib_mod *mods;
	struct cuemu_lib_vars vars;  /* fixed from its making */
};

static int cmp_lib(struct CUlib_st *a, struct CUlib_st *b)
{
	return a < b ? -1 : a > b;
}

static int cmp_kern(struct CUkern_st *a, struct CUkern_st *b)
{
	return a < b ? -1 : a > b;
}

RB_HEAD(lib_tree, CUlib_st);
RB_HEAD(kern_tree, CUkern_st);
CUEMU_RB_STATIC(lib_tree, CUlib_st, node, cmp_lib)
CUEMU_RB_STATIC(kern_tree, CUkern_st, node, cmp_kern)

/* The live libraries and their kernels. Global because handles are
 * process-wide and context-independent, and one that was unloaded must be
 * told from a live one without dereferencing it. */
static pthread_rwlock_t lib_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct lib_tree libraries = RB_INITIALIZER(&libraries);
static struct kern_tree kernels = RB_INITIALIZER(&kernels);

void cuemu_lib_vars_free(struct cuemu_lib_vars *v)
{
	for (unsigned i = 0; i < v->n; i++) {
		if (v->addrs && v->addrs[i] &&
		    cuemu_device_free((uintptr_t)v->addrs[i]) != CUDA_SUCCESS)
			cuemu_debug("library variable %s at 0x%llx was freed "
				    "elsewhere", v->names[i],
				    (unsigned long long)v->addrs[i]);
		if (v->names)
			free(v->names[i]);
	}
	free(v->names);
	free(v->addrs);
	free(v->sizes);
	*v = (struct cuemu_lib_vars){ 0 };
}

static void lib_free(struct CUlib_st *l)
{
	cuemu_lib_vars_free(&l->vars);
	for (int i = 0; l->kerns && i < l->nkern; i++) {
		free(l->kerns[i].name);
		free(l->kerns[i].cache);
	}
	free(l->kerns);
	free(l->mods);
	free(l->ptx);
	free(l);
}

CUresult cuemu_library_create(const char *ptx, size_t len, CUresult status,
			      const struct cuemu_func_desc *f, int nf,
			      struct cuemu_lib_vars *mv, CUlibrary *out)
{
	struct CUlib_st *l = calloc(1, sizeof *l);

	if (!l) {
		cuemu_lib_vars_free(mv);
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "library");
	}
	l->vars = *mv;
	*mv = (struct cuemu_lib_vars){ 0 };
	l->status = status;
	if ((ptx && !(l->ptx = malloc(len + 1))) ||
	    (nf && !(l->kerns = calloc((size_t)nf, sizeof *l->kerns)))) {
		lib_free(l);
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "library");
	}
	if (ptx) {
		memcpy(l->ptx, ptx, len);
		l->ptx[len] = '\0';
		l->len = len;
	}
	for (int i = 0; i < nf; i++) {
		l->kerns[i].lib = l;
		l->kerns[i].index = i;
		memcpy(l->kerns[i].attr, f[i].attr, sizeof f[i].attr);
		if (!(l->kerns[i].name = strdup(f[i].name))) {
			lib_free(l);
			return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "kernel");
		}
		l->nkern = i + 1;
	}
	pthread_rwlock_wrlock(&lib_lock);
	RB_INSERT(lib_tree, &libraries, l);
	for (int i = 0; i < l->nkern; i++)
		RB_INSERT(kern_tree, &kernels, &l->kerns[i]);
	pthread_rwlock_unlock(&lib_lock);
	*out = l;
	return CUDA_SUCCESS;
}

CUresult cuemu_library_check(CUlibrary h)
{
	struct CUlib_st *l;

	pthread_rwlock_rdlock(&lib_lock);
	l = h ? RB_FIND(lib_tree, &libraries, h) : NULL;
	pthread_rwlock_unlock(&lib_lock);
	if (!l)
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE,
				  "library %p is not loaded", (void *)h);
	return CUDA_SUCCESS;
}

/* Takes the library's first module off its list; NULL when none is left. */
static CUmodule take_module(struct CUlib_st *l)
{
	CUmodule m = NULL;

	pthread_rwlock_wrlock(&lib_lock);
	if (l->nmod)
		m = l->mods[--l->nmod].mod;
	pthread_rwlock_unlock(&lib_lock);
	return m;
}

CUresult cuemu_library_destroy(CUlibrary h)
{
	struct CUlib_st *l;
	CUmodule m;

	pthread_rwlock_wrlock(&lib_lock);
	if ((l = h ? RB_FIND(lib_tree, &libraries, h) : NULL)) {
		RB_REMOVE(lib_tree, &libraries, l);
		for (int i = 0; i < l->nkern; i++)
			RB_REMOVE(kern_tree, &kernels, &l->kerns[i]);
	}
	pthread_rwlock_unlock(&lib_lock);
	if (!l)
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE,
				  "library %p is not loaded", (void *)h);
	/* its modules go with it; each forgets itself, already taken off */
	while ((m = take_module(l)))
		if (cuemu_module_destroy(m) != CUDA_SUCCESS)
			cuemu_debug("library %p: module %p was gone",
				    (void *)l, (void *)m);
	lib_free(l);
	return CUDA_SUCCESS;
}

CUresult cuemu_library_status(CUlibrary l)
{
	return l->status;
}

const char *cuemu_library_ptx(CUlibrary l, size_t *len)
{
	*len = l->len;
	return l->ptx;
}

int cuemu_library_kernel_count(CUlibrary l)
{
	return l->nkern;
}

CUkernel cuemu_library_kernel(CUlibrary l, int i)
{
	return i >= 0 && i < l->nkern ? &l->kerns[l->nkern - 1 - i] : NULL;
}

CUkernel cuemu_library_find_kernel(CUlibrary l, const char *name)
{
	for (int i = 0; i < l->nkern; i++)
		if (!strcmp(l->kerns[i].name, name))
			return &l->kerns[i];
	return NULL;
}

const struct cuemu_lib_vars *cuemu_library_vars(CUlibrary l)
{
	return &l->vars;
}

bool cuemu_library_managed(CUlibrary l, const char *name, CUdeviceptr *addr,
			   size_t *size)
{
	for (unsigned i = 0; i < l->vars.n; i++)
		if (!strcmp(l->vars.names[i], name)) {
			*addr = l->vars.addrs[i];
			*size = l->vars.sizes[i];
			return true;
		}
	return false;
}

CUmodule cuemu_library_module(CUlibrary l, CUcontext ctx)
{
	CUmodule m = NULL;

	pthread_rwlock_rdlock(&lib_lock);
	for (int i = 0; i < l->nmod && !m; i++)
		if (l->mods[i].ctx == ctx)
			m = l->mods[i].mod;
	pthread_rwlock_unlock(&lib_lock);
	return m;
}

CUresult cuemu_library_add_module(CUlibrary l, CUcontext ctx, CUmodule m)
{
	struct lib_mod *nm;

	pthread_rwlock_wrlock(&lib_lock);
	if (l->nmod == l->capmod) {
		int cap = l->capmod ? l->capmod * 2 : 4;
		if (!(nm = realloc(l->mods, (size_t)cap * sizeof *nm))) {
			pthread_rwlock_unlock(&lib_lock);
			return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "library");
		}
		l->mods = nm;
		l->capmod = cap;
	}
	l->mods[l->nmod++] = (struct lib_mod){ ctx, m };
	for (int i = 0; i < l->nkern; i++) {
		for (int a = 0; a < CU_FUNC_ATTRIBUTE_MAX; a++)
			if (l->kerns[i].set[a])
				cuemu_function_set_attr(
					cuemu_module_function(m, i),
					(CUfunction_attribute)a,
					l->kerns[i].attr[a]);
		for (int c = 0; c < l->kerns[i].ncache; c++)
			if (l->kerns[i].cache[c].dev == cuemu_ctx_device(ctx))
				cuemu_function_set_cache(
					cuemu_module_function(m, i),
					l->kerns[i].cache[c].config);
	}
	pthread_rwlock_unlock(&lib_lock);
	cuemu_module_set_owner(m, l, cuemu_library_forget);
	return CUDA_SUCCESS;
}

void cuemu_library_forget(CUlibrary l, CUmodule m)
{
	pthread_rwlock_wrlock(&lib_lock);
	/* l may be on its way out (destroy took its modules off already) */
	for (int i = 0; i < l->nmod; i++)
		if (l->mods[i].mod == m) {
			l->mods[i] = l->mods[--l->nmod];
			break;
		}
	pthread_rwlock_unlock(&lib_lock);
}

bool cuemu_kernel_is(CUkernel h)
{
	struct CUkern_st *k;

	pthread_rwlock_rdlock(&lib_lock);
	k = h ? RB_FIND(kern_tree, &kernels, h) : NULL;
	pthread_rwlock_unlock(&lib_lock);
	return k != NULL;
}

CUresult cuemu_kernel_check(CUkernel h)
{
	if (!cuemu_kernel_is(h))
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE,
				  "kernel %p is in no loaded library",
				  (void *)h);
	return CUDA_SUCCESS;
}

CUlibrary cuemu_kernel_library(CUkernel k)
{
	return k->lib;
}

int cuemu_kernel_index(CUkernel k)
{
	return k->index;
}

const char *cuemu_kernel_name(CUkernel k)
{
	return k->name;
}

int cuemu_kernel_attr(CUkernel k, CUfunction_attribute a)
{
	int v;

	pthread_rwlock_rdlock(&lib_lock);
	v = k->attr[a];
	pthread_rwlock_unlock(&lib_lock);
	return v;
}

void cuemu_kernel_set_attr(CUkernel k, CUfunction_attribute a, int v)
{
	struct CUlib_st *l = k->lib;

	pthread_rwlock_wrlock(&lib_lock);
	k->attr[a] = v;
	k->set[a] = true;
	for (int i = 0; i < l->nmod; i++)
		cuemu_function_set_attr(cuemu_module_function(l->mods[i].mod,
							      k->index),
					a, v);
	pthread_rwlock_unlock(&lib_lock);
}

CUresult cuemu_kernel_set_cache(CUkernel k, int dev, CUfunc_cache config)
{
	struct CUlib_st *l = k->lib;
	struct kcache *nc;
	int c;

	pthread_rwlock_wrlock(&lib_lock);
	for (c = 0; c < k->ncache && k->cache[c].dev != dev; c++)
		;
	if (c == k->ncache) {
		if (!(nc = realloc(k->cache, (size_t)(c + 1) * sizeof *nc))) {
			pthread_rwlock_unlock(&lib_lock);
			return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
					  "kernel cache preference");
		}
		k->cache = nc;
		k->ncache = c + 1;
	}
	k->cache[c] = (struct kcache){ dev, config };
	for (int i = 0; i < l->nmod; i++)
		if (cuemu_ctx_device(l->mods[i].ctx) == dev)
			cuemu_function_set_cache(
				cuemu_module_function(l->mods[i].mod, k->index),
				config);
	pthread_rwlock_unlock(&lib_lock);
	return CUDA_SUCCESS;
}
