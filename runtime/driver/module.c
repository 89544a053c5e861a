/*
 * module.c - the cuModule* and cuFunc* entries: an image read (image.c),
 * its PTX parsed once by the engine (exec/exec.h), and the module made in
 * the model (model/module.h) with its variables allocated, initialized and
 * bound into the parsed code before the handle is returned. Each entry
 * checks its arguments in the real driver's order
 * (probes/results/launch.txt). This file is the glue between engine and
 * model: the model never sees the engine's types.
 *
 * No state of its own; the model's module registry has its lock.
 */
#define CUEMU_SUPERSEDED_ENTRY_POINTS 1
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "model/context.h"
#include "model/clock.h"
#include "model/uvm.h"
#include "model/library.h"
#include "model/memory.h"
#include "model/module.h"
#include "driver/driver.h"
#include "driver/hookable.h"
#include "driver/image.h"
#include "exec/exec.h"

/* The shared memory a block may have without opting in, as the driver
 * answers CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES before any set. */
#define SMEM_DEFAULT_LIMIT (48 * 1024)

CUresult cuemu_jit_read(unsigned n, CUjit_option *o, void **v,
			struct cuemu_jit *j)
{
	memset(j, 0, sizeof *j);
	if (n && (!o || !v))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%u JIT options with %s NULL", n,
				  o ? "values" : "options");
	for (unsigned i = 0; i < n; i++) {
		if ((unsigned)o[i] >= CU_JIT_NUM_OPTIONS)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "JIT option %u is %d, no option",
					  i, (int)o[i]);
		switch (o[i]) {
		case CU_JIT_INFO_LOG_BUFFER:
			j->info = v[i];
			break;
		case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES:
			j->info_size = (size_t)(uintptr_t)v[i];
			j->info_size_out = &v[i];
			break;
		case CU_JIT_ERROR_LOG_BUFFER:
			j->error = v[i];
			break;
		case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
			j->error_size = (size_t)(uintptr_t)v[i];
			j->error_size_out = &v[i];
			break;
		case CU_JIT_WALL_TIME:
			j->wall_out = &v[i];
			break;
		case CU_JIT_LOG_VERBOSE:
			j->verbose = v[i] != NULL;
			break;
		default:
			/* code generation choices: PTX runs as written */
			break;
		}
	}
	return CUDA_SUCCESS;
}

/* Writes text into a log buffer of size bytes and its size option the
 * bytes written, NUL included (0 for none). */
static void jit_log(char *buf, size_t size, void **size_out, const char *text)
{
	size_t n = 0;

	if (buf && size) {
		snprintf(buf, size, "%s", text);
		n = text[0] ? strlen(buf) + 1 : 0;
	}
	if (size_out)
		*size_out = (void *)(uintptr_t)n;
}

void cuemu_jit_answer(const struct cuemu_jit *j, const char *info,
		      const char *error, float ms)
{
	if (!j)
		return;
	jit_log(j->info, j->info_size, j->info_size_out,
		j->verbose ? info : "");
	jit_log(j->error, j->error_size, j->error_size_out, error);
	if (j->wall_out)
		memcpy(j->wall_out, &ms, sizeof ms);
}

/* The CUresult of an engine's refusal of the chosen PTX. A .target above
 * the device is INVALID_PTX for PTX text, as the driver answers; a fatbin
 * never hands over such an entry (image.c). */
CUresult cuemu_parse_result(enum ex_status s)
{
	switch (s) {
	case EX_OK:
		return CUDA_SUCCESS;
	case EX_UNSUPPORTED_PTX:
		return CUDA_ERROR_UNSUPPORTED_PTX_VERSION;
	case EX_OUT_OF_MEMORY:
		return CUDA_ERROR_OUT_OF_MEMORY;
	case EX_NO_BINARY_FOR_GPU:
	case EX_INVALID_PTX:
	case EX_UNSUPPORTED:
	default:
		return CUDA_ERROR_INVALID_PTX;
	}
}

/* The image's PTX parsed: its one text, or a linked image's texts joined
 * again as cuLinkComplete joined them. */
static CUresult image_parse(const struct cuemu_image *im, int sm,
			    struct ex_module **em, char *log, size_t logsz)
{
	struct ex_text *t;
	enum ex_status st;

	if (!im->linked)
		return cuemu_parse_result(ex_module_parse(im->ptx, im->len, sm, em,
						    log, logsz));
	if (!(t = calloc((size_t)im->units + 1, sizeof *t)))
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (int i = 0; i < im->units; i++)
		cuemu_image_unit(im, i, &t[i].name, &t[i].ptx, &t[i].len);
	st = ex_module_link(t, im->units, EX_LINK_NAMED, sm, em, log, logsz);
	free(t);
	return cuemu_parse_result(st);
}

/* The compute capability the PTX was written for (.target sm_XY), which
 * cuFuncGetAttribute answers as PTX_VERSION; 0 where it says none. */
static int ptx_target(const char *ptx)
{
	const char *t = strstr(ptx, ".target");
	int v = 0;

	if (t && sscanf(t, ".target sm_%d", &v) == 1)
		return v;
	return 0;
}

/* The most threads a block may have: its launch bounds (.maxntid, else
 * .reqntid), else the device's 1024. The engine's register count is the
 * PTX's virtual registers, far above what ptxas allocates (10 for saxpy
 * where the PTX names 160), so it limits nothing here. */
static int max_threads(const struct ex_kernel_info *k)
{
	const uint32_t *d = k->maxntid[0] ? k->maxntid : k->reqntid;
	uint32_t n;

	if (!d[0])
		return 1024;
	n = d[0] * (d[1] ? d[1] : 1) * (d[2] ? d[2] : 1);
	return n > 1024 ? 1024 : (int)n;
}

/* What a kernel's attributes are before any is set (the real driver's
 * defaults, probes/results/launch.txt). */
static void func_desc(const struct ex_kernel_info *k, int target, int sm,
		      int const_bytes, struct cuemu_func_desc *d)
{
	memset(d, 0, sizeof *d);
	d->name = k->name;
	d->attr[CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK] = max_threads(k);
	d->attr[CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES] =
		(int)k->shared_static_bytes;
	d->attr[CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES] = const_bytes;
	d->attr[CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES] = (int)k->local_bytes;
	d->attr[CU_FUNC_ATTRIBUTE_NUM_REGS] = (int)k->registers;
	d->attr[CU_FUNC_ATTRIBUTE_PTX_VERSION] = target;
	d->attr[CU_FUNC_ATTRIBUTE_BINARY_VERSION] = sm;
	d->attr[CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES] =
		k->shared_static_bytes >= SMEM_DEFAULT_LIMIT ? 0 :
		SMEM_DEFAULT_LIMIT - (int)k->shared_static_bytes;
	d->attr[CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT] = -1;
}

static void drop_code(void *code)
{
	ex_module_free(code);
}

/* The program's managed variables a load binds (cuemuModuleLoadManaged):
 * n names, each with its address, 0 until a load has allocated it. */
struct program_vars {
	unsigned n;
	const char *const *names;
	CUdeviceptr *addrs;
};

/* The index in pv of a managed variable's name; -1 where pv has none. */
static int program_var(const struct program_vars *pv, const char *name)
{
	for (unsigned i = 0; pv && i < pv->n; i++)
		if (pv->names[i] && !strcmp(pv->names[i], name))
			return (int)i;
	return -1;
}

/* The module's variables as the model allocates them; INVALID_PTX for
 * one declared .extern, which no other module can supply here. */
static CUresult var_descs(const struct ex_module *em, int nv,
			  const struct program_vars *pv,
			  struct cuemu_var_desc *d, int *const_bytes)
{
	*const_bytes = 0;
	for (int i = 0; i < nv; i++) {
		const struct ex_var_info *v = ex_module_var(em, i);
		if (v->external)
			return cuemu_fail(CUDA_ERROR_INVALID_PTX,
					  "variable %s is .extern: modules "
					  "are not linked here", v->name);
		d[i].name = v->name;
		d[i].size = v->size;
		d[i].managed = v->managed;
		d[i].init = v->init;
		if (v->managed && program_var(pv, v->name) >= 0) {
			d[i].program = true;
			d[i].at = pv->addrs[program_var(pv, v->name)];
		}
		if (v->space == EX_VAR_CONST)
			*const_bytes += (int)v->size;
	}
	return CUDA_SUCCESS;
}

/* Frees the program's managed variables a failed load made (fresh[i])
 * and forgets their addresses in pv. */
static void program_vars_drop(const struct cuemu_var_desc *d, int nv,
			      const struct program_vars *pv, const bool *fresh)
{
	for (int i = 0; i < nv; i++)
		if (fresh[i]) {
			if (cuemu_device_free((uintptr_t)d[i].at) !=
			    CUDA_SUCCESS)
				cuemu_debug("variable %s was freed elsewhere",
					    d[i].name);
			pv->addrs[program_var(pv, d[i].name)] = 0;
		}
}

/* Makes the program's managed variables that this load is the first to
 * need (0 in pv), on dev in no context, their addresses written to d and
 * pv (fresh[i] set): every later load in any context binds them. */
static CUresult program_vars_make(int dev, struct cuemu_var_desc *d, int nv,
				  const struct program_vars *pv, bool *fresh)
{
	CUresult r;

	for (int i = 0; i < nv; i++) {
		fresh[i] = false;
		if (!d[i].program || d[i].at)
			continue;
		if ((r = cuemu_module_program_var(dev, &d[i], &d[i].at)) !=
		    CUDA_SUCCESS) {
			program_vars_drop(d, i, pv, fresh);
			return r;
		}
		fresh[i] = true;
		pv->addrs[program_var(pv, d[i].name)] = d[i].at;
	}
	return CUDA_SUCCESS;
}

/* Makes the model's module of a parsed one and binds its variables; the
 * program's managed variables it is the first to need are made first
 * and written to pv. */
static CUresult module_make(CUcontext ctx, int dev, struct ex_module *em,
			    int target, int sm, const struct program_vars *pv,
			    CUmodule *out)
{
	int nf = ex_module_kernel_count(em), nv = ex_module_var_count(em);
	struct cuemu_func_desc *f = calloc(nf ? nf : 1, sizeof *f);
	struct cuemu_var_desc *v = calloc(nv ? nv : 1, sizeof *v);
	uint64_t *addr = calloc(nv ? nv : 1, sizeof *addr);
	bool *fresh = calloc(nv ? nv : 1, sizeof *fresh);
	int const_bytes;
	CUresult r;

	if (!f || !v || !addr || !fresh)
		r = cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "module");
	else if ((r = var_descs(em, nv, pv, v, &const_bytes)) ==
		 CUDA_SUCCESS &&
		 (r = program_vars_make(dev, v, nv, pv, fresh)) ==
		 CUDA_SUCCESS) {
		for (int i = 0; i < nf; i++)
			func_desc(ex_module_kernel(em, i), target, sm,
				  const_bytes, &f[i]);
		r = cuemu_module_create(ctx, dev, f, nf, v, nv, em, drop_code,
					addr, out);
		if (r != CUDA_SUCCESS)
			program_vars_drop(v, nv, pv, fresh);
	}
	for (int i = 0; r == CUDA_SUCCESS && i < nv; i++)
		ex_module_bind_var(em, i, addr[i]);
	free(f);
	free(v);
	free(addr);
	free(fresh);
	return r;
}

static int device_sm(int dev)
{
	int major = 0, minor = 0;

	if (cuDeviceGetAttribute(&major,
				 CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
				 dev) != CUDA_SUCCESS ||
	    cuDeviceGetAttribute(&minor,
				 CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
				 dev) != CUDA_SUCCESS)
		return 0;
	return major * 10 + minor;
}

static double now_ms(void)
{
	struct timespec t;

	cuemu_libc.clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Loads an image (bytes of len, or a pointer alone where len is 0) in the
 * current context; JIT answers in j where given. */
static CUresult load_image(CUmodule *out, const void *data, size_t len,
			   const struct cuemu_jit *j,
			   const struct program_vars *pv)
{
	char log[1024] = "", info[256] = "";
	struct cuemu_image im;
	struct ex_module *em = NULL;
	double t0 = now_ms();
	CUcontext ctx;
	int dev, sm;
	CUresult r;

	if ((r = cuemu_current(&ctx, &dev)) != CUDA_SUCCESS)
		return r;
	sm = device_sm(dev);
	r = len ? cuemu_image_from_bytes(data, len, sm, &im, log, sizeof log) :
		  cuemu_image_from_pointer(data, sm, &im, log, sizeof log);
	if (r == CUDA_SUCCESS) {
		r = image_parse(&im, sm, &em, log, sizeof log);
		if (r == CUDA_SUCCESS) {
			int target = im.arch ? (int)im.arch :
					       ptx_target(im.ptx);
			r = module_make(ctx, dev, em, target, sm, pv, out);
			if (r != CUDA_SUCCESS) {
				ex_module_free(em);
				snprintf(log, sizeof log, "%s", cuemu_errmsg());
			}
		}
		snprintf(info, sizeof info, "%d kernels, %d variables, from "
			 "%s (sm_%d PTX) for sm_%d",
			 em ? ex_module_kernel_count(em) : 0,
			 em ? ex_module_var_count(em) : 0,
			 im.from_fatbin ? "a fatbin" : "PTX text",
			 im.arch ? (int)im.arch : ptx_target(im.ptx), sm);
		cuemu_image_free(&im);
	}
	cuemu_jit_answer(j, r == CUDA_SUCCESS ? info : "",
			 r == CUDA_SUCCESS ? "" : log, (float)(now_ms() - t0));
	if (r != CUDA_SUCCESS)
		return cuemu_fail(r, "module not loaded: %s", log);
	return CUDA_SUCCESS;
}

/* load_image, its CPU time left out of the thread's model clock (the
 * parse of PTX is the emulator's work, not the program's: clock.c). */
static CUresult load(CUmodule *out, const void *data, size_t len,
		     const struct cuemu_jit *j, const struct program_vars *pv)
{
	CUresult r;

	cuemu_clock_enter();
	r = load_image(out, data, len, j, pv);
	cuemu_clock_leave();
	/* a module that calls the device runtime takes the driver long to
	 * load (probes/results/cdp-first.txt) */
	if (r == CUDA_SUCCESS &&
	    ex_module_uses_device_runtime(cuemu_module_code(*out)))
		cuemu_host_advance(cuemu_uvm()->device_runtime_load_ns);
	return r;
}

CUresult cuemu_module_load_ptx(const char *ptx, size_t len,
			       const struct cuemu_lib_vars *lv, CUmodule *out)
{
	struct program_vars pv = {
		lv->n, (const char *const *)lv->names, lv->addrs
	};

	return load(out, ptx, len, NULL, &pv);
}

/* The image's managed variables made the program's, for a library: on
 * dev in no context, before any context asks for its module. */
static CUresult lib_vars_make(const struct cuemu_var_desc *v, int nv, int dev,
			      struct cuemu_lib_vars *lv)
{
	CUresult r;
	unsigned n = 0;

	for (int i = 0; i < nv; i++)
		n += v[i].managed;
	*lv = (struct cuemu_lib_vars){ 0 };
	if (!n)
		return CUDA_SUCCESS;
	if (!(lv->names = calloc(n, sizeof *lv->names)) ||
	    !(lv->addrs = calloc(n, sizeof *lv->addrs)) ||
	    !(lv->sizes = calloc(n, sizeof *lv->sizes))) {
		cuemu_lib_vars_free(lv);
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "library");
	}
	lv->n = n;
	for (int i = 0, k = 0; i < nv; i++) {
		if (!v[i].managed)
			continue;
		lv->sizes[k] = v[i].size;
		if (!(lv->names[k] = strdup(v[i].name)))
			r = cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "library");
		else
			r = cuemu_module_program_var(dev, &v[i],
						     &lv->addrs[k]);
		if (r != CUDA_SUCCESS) {
			cuemu_lib_vars_free(lv);
			return r;
		}
		k++;
	}
	return CUDA_SUCCESS;
}

/* The image's PTX for sm, and its kernels as a module would describe
 * them; on failure the CUresult a load would answer. */
CUresult cuemu_image_kernels(const void *image, int dev, struct cuemu_image *im,
			     struct cuemu_func_desc **f, int *nf,
			     struct cuemu_lib_vars *lv,
			     const struct cuemu_jit *j)
{
	char log[1024] = "";
	double t0 = now_ms();
	struct ex_module *em = NULL;
	struct cuemu_var_desc *v = NULL;
	int nv, const_bytes = 0, target, sm = device_sm(dev);
	CUresult r;

	*f = NULL;
	*nf = 0;
	*lv = (struct cuemu_lib_vars){ 0 };
	r = cuemu_image_from_pointer(image, sm, im, log, sizeof log);
	if (r == CUDA_SUCCESS)
		r = image_parse(im, sm, &em, log, sizeof log);
	/* the library's JIT runs at its load: no info, a refusal's log */
	cuemu_jit_answer(j, "", r == CUDA_SUCCESS ? "" : log,
			 (float)(now_ms() - t0));
	if (r != CUDA_SUCCESS)
		return cuemu_fail(r, "library image: %s", log);
	nv = ex_module_var_count(em);
	*nf = ex_module_kernel_count(em);
	target = im->arch ? (int)im->arch : ptx_target(im->ptx);
	if (!(v = calloc(nv ? nv : 1, sizeof *v)) ||
	    !(*f = calloc(*nf ? *nf : 1, sizeof **f)))
		r = cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "library");
	else if ((r = var_descs(em, nv, NULL, v, &const_bytes)) ==
		 CUDA_SUCCESS)
		for (int i = 0; i < *nf; i++) {
			func_desc(ex_module_kernel(em, i), target, sm,
				  const_bytes, &(*f)[i]);
			/* the names outlive the parse */
			if (!((*f)[i].name = strdup((*f)[i].name)))
				r = cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
					       "library");
		}
	/* made while the parse holds their initial values */
	if (r == CUDA_SUCCESS)
		r = lib_vars_make(v, nv, dev, lv);
	free(v);
	ex_module_free(em);
	if (r != CUDA_SUCCESS) {
		cuemu_func_descs_free(*f, *nf);
		*f = NULL;
		*nf = 0;
	}
	return r;
}

void cuemu_func_descs_free(struct cuemu_func_desc *f, int nf)
{
	for (int i = 0; f && i < nf; i++)
		free((char *)f[i].name);
	free(f);
}

int cuemu_device_sm(int dev)
{
	return device_sm(dev);
}

/* The checks every load from memory starts with, in the driver's order. */
static CUresult load_args(CUmodule *module, const void *image)
{
	CUresult r = cuemu_check_init();

	if (r != CUDA_SUCCESS)
		return r;
	if (!module || !image)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s is NULL",
				  module ? "image" : "module");
	return CUDA_SUCCESS;
}

CUresult cuModuleLoadData(CUmodule *module, const void *image)
{
	CUresult r = load_args(module, image);

	return r != CUDA_SUCCESS ? r : load(module, image, 0, NULL, NULL);
}

CUresult cuemuModuleLoadManaged(CUmodule *module, const void *image,
				unsigned int n, const char *const *names,
				CUdeviceptr *addrs)
{
	struct program_vars pv = { n, names, addrs };
	CUresult r = load_args(module, image);

	if (r != CUDA_SUCCESS)
		return r;
	if (n && (!names || !addrs))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%u variables "
				  "with %s NULL", n, names ? "addrs" : "names");
	return load(module, image, 0, NULL, &pv);
}

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
			    unsigned int numOptions, CUjit_option *options,
			    void **optionValues)
{
	struct cuemu_jit j;
	CUresult r = load_args(module, image);

	if (r != CUDA_SUCCESS)
		return r;
	if ((r = cuemu_jit_read(numOptions, options, optionValues, &j)) !=
	    CUDA_SUCCESS)
		return r;
	return load(module, image, 0, &j, NULL);
}

CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin)
{
	return cuModuleLoadData(module, fatCubin);
}

/* The whole of a file, or the CUresult the driver answers for it. */
CUresult cuemu_read_file(const char *path, char **data, size_t *len)
{
	size_t n = 0, cap = 1 << 16;
	struct stat st;
	ssize_t got;
	char *b, *nb;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return cuemu_fail(errno == ENOENT ? CUDA_ERROR_FILE_NOT_FOUND :
				  CUDA_ERROR_INVALID_VALUE, "%s: %s", path,
				  strerror(errno));
	/* A directory reads as no bytes the driver can hold: it answers
	 * OUT_OF_MEMORY (probes/results/launch.txt). */
	if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
		close(fd);
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "%s: a directory", path);
	}
	for (b = malloc(cap + 1); b; b = nb, cap *= 2) {
		while (n < cap && (got = read(fd, b + n, cap - n)) > 0)
			n += (size_t)got;
		if (n < cap)
			break;
		nb = realloc(b, cap * 2 + 1);
		if (!nb)
			free(b);
	}
	close(fd);
	if (!b)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "%s", path);
	b[n] = '\0';
	*data = b;
	*len = n;
	return CUDA_SUCCESS;
}

CUresult cuModuleLoad(CUmodule *module, const char *fname)
{
	char *data = NULL;
	size_t len = 0;
	CUresult r = cuemu_check_init();

	if (r != CUDA_SUCCESS)
		return r;
	if (!module || !fname)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s is NULL",
				  module ? "fname" : "module");
	if ((r = cuemu_current(NULL, NULL)) != CUDA_SUCCESS ||
	    (r = cuemu_read_file(fname, &data, &len)) != CUDA_SUCCESS)
		return r;
	r = len ? load(module, data, len, NULL, NULL) :
		  cuemu_fail(CUDA_ERROR_INVALID_IMAGE, "%s is empty", fname);
	free(data);
	return r;
}

CUresult cuModuleUnload(CUmodule hmod)
{
	CUresult r = cuemu_check_init();

	if (r != CUDA_SUCCESS)
		return r;
	/* A launch still queued of it ends first; then the driver flushes
	 * device printf, as at every unload. */
	if ((r = cuemu_module_unload(hmod)) != CUDA_SUCCESS)
		return r;
	cuemu_devprintf_flush();
	return CUDA_SUCCESS;
}

CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode *mode)
{
	const char *e = getenv("CUDA_MODULE_LOADING");
	CUresult r = cuemu_check_init();

	if (r != CUDA_SUCCESS)
		return r;
	/* The driver crashes on NULL (probes/README.md); refuse it. */
	if (!mode)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "mode is NULL");
	*mode = e && !strcmp(e, "EAGER") ? CU_MODULE_EAGER_LOADING :
					   CU_MODULE_LAZY_LOADING;
	return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod,
			     const char *name)
{
	CUresult r = cuemu_check_init();
	CUfunction f;

	if (r != CUDA_SUCCESS)
		return r;
	if (!hfunc)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "hfunc is NULL");
	if ((r = cuemu_module_check(hmod)) != CUDA_SUCCESS)
		return r;
	if (!name)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "name is NULL");
	if (!(f = cuemu_module_find_function(hmod, name)))
		return cuemu_fail(CUDA_ERROR_NOT_FOUND,
				  "module %p has no kernel %s", (void *)hmod,
				  name);
	*hfunc = f;
	return CUDA_SUCCESS;
}

CUresult cuModuleGetFunctionCount(unsigned int *count, CUmodule mod)
{
	CUresult r;

	if ((r = cuemu_out_check(count, "count")) != CUDA_SUCCESS ||
	    (r = cuemu_module_check(mod)) != CUDA_SUCCESS)
		return r;
	*count = (unsigned)cuemu_module_function_count(mod);
	return CUDA_SUCCESS;
}

CUresult cuModuleEnumerateFunctions(CUfunction *functions,
				    unsigned int numFunctions, CUmodule mod)
{
	CUresult r = cuemu_check_init();
	unsigned n;

	if (r != CUDA_SUCCESS)
		return r;
	if (!functions)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "functions is NULL");
	if ((r = cuemu_module_check(mod)) != CUDA_SUCCESS)
		return r;
	n = (unsigned)cuemu_module_function_count(mod);
	for (unsigned i = 0; i < n && i < numFunctions; i++)
		functions[i] = cuemu_module_function(mod, (int)i);
	return CUDA_SUCCESS;
}

CUEMU_HOOKABLE(cuModuleGetGlobal_v2)
CUresult CUEMU_HOOKED(cuModuleGetGlobal_v2)(CUdeviceptr *dptr, size_t *bytes,
					    CUmodule hmod, const char *name)
{
	CUdeviceptr a;
	size_t n;
	CUresult r;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!dptr && !bytes)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "dptr and bytes are both NULL");
	if ((r = cuemu_module_check(hmod)) != CUDA_SUCCESS)
		return r;
	if (!name)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL name");
	if (!cuemu_module_global(hmod, name, &a, &n))
		return cuemu_fail(CUDA_ERROR_NOT_FOUND,
				  "module %p has no variable %s",
				  (void *)hmod, name);
	if (dptr)
		*dptr = a;
	if (bytes)
		*bytes = n;
	return CUDA_SUCCESS;
}

/* The pre-3.2 form: 32-bit address and size, which a 64-bit process's
 * variables do not fit; the lookup's errors are the same. */
CUEMU_HOOKABLE(cuModuleGetGlobal)
CUresult CUEMU_HOOKED(cuModuleGetGlobal)(CUdeviceptr_v1 *dptr,
					 unsigned int *bytes, CUmodule hmod,
					 const char *name)
{
	CUdeviceptr a;
	size_t n;
	CUresult r = cuModuleGetGlobal_v2(&a, &n, hmod, name);

	if (r != CUDA_SUCCESS)
		return r;
	if (a > UINT32_MAX || n > UINT32_MAX)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "variable %s lies above 4 GiB: use "
				  "cuModuleGetGlobal_v2", name);
	if (dptr)
		*dptr = (CUdeviceptr_v1)a;
	if (bytes)
		*bytes = (unsigned)n;
	return CUDA_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Functions                                                           */

CUresult cuemu_out_check(const void *out, const char *name)
{
	CUresult r = cuemu_check_init();

	if (r != CUDA_SUCCESS)
		return r;
	if (!out)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s is NULL", name);
	return CUDA_SUCCESS;
}

CUresult cuemu_func_attr_known(CUfunction_attribute a)
{
	if ((unsigned)a >= CU_FUNC_ATTRIBUTE_MAX)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "attribute %d is none", (int)a);
	return CUDA_SUCCESS;
}

CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib,
			    CUfunction hfunc)
{
	CUresult r;

	if ((r = cuemu_out_check(pi, "pi")) != CUDA_SUCCESS ||
	    (r = cuemu_function_check(hfunc)) != CUDA_SUCCESS ||
	    (r = cuemu_func_attr_known(attrib)) != CUDA_SUCCESS)
		return r;
	*pi = cuemu_function_attr(hfunc, attrib);
	return CUDA_SUCCESS;
}

/* Whether value may be set for attrib of f, as the driver checks it. */
static CUresult attr_value(CUfunction f, CUfunction_attribute a, int *value)
{
	return cuemu_func_attr_value(
		cuemu_function_attr(f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES),
		cuemu_ctx_device(cuemu_module_ctx(cuemu_function_module(f))),
		a, value);
}

/* The checks of cuemu_func_attr_value, the value as given. */
static CUresult attr_check(int stat, int dev, CUfunction_attribute a,
			   int value)
{
	int optin = 0;

	switch (a) {
	case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
		cuDeviceGetAttribute(&optin,
				     CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
				     dev);
		if (value < 0 || value > optin - stat)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "%d bytes of dynamic shared memory: "
					  "0 to %d with %d static", value,
					  optin - stat, stat);
		return CUDA_SUCCESS;
	case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
		if (value < -1 || value > 100)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "carveout %d: -1 or 0 to 100 percent",
					  value);
		return CUDA_SUCCESS;
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
	case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
		if (value < 0)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "attribute %d: %d is negative",
					  (int)a, value);
		return CUDA_SUCCESS;
	case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
		if (value < 0 || value > 2)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "scheduling policy %d: 0 to 2",
					  value);
		return CUDA_SUCCESS;
	default:
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "attribute %d cannot be set", (int)a);
	}
}

CUresult cuemu_func_attr_value(int stat, int dev, CUfunction_attribute a,
			       int *value)
{
	CUresult r = attr_check(stat, dev, a, *value);

	/* a permission, answered as a yes or no */
	if (r == CUDA_SUCCESS &&
	    a == CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED)
		*value = *value != 0;
	return r;
}

CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib,
			    int value)
{
	CUresult r = cuemu_check_init();

	if (r != CUDA_SUCCESS)
		return r;
	if ((r = cuemu_function_check(hfunc)) != CUDA_SUCCESS ||
	    (r = attr_value(hfunc, attrib, &value)) != CUDA_SUCCESS)
		return r;
	cuemu_function_set_attr(hfunc, attrib, value);
	return CUDA_SUCCESS;
}

CUresult cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config)
{
	CUresult r = cuemu_check_init();

	if (r != CUDA_SUCCESS)
		return r;
	if ((r = cuemu_function_check(hfunc)) != CUDA_SUCCESS)
		return r;
	if ((unsigned)config > CU_FUNC_CACHE_PREFER_EQUAL)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "cache config %d is none", (int)config);
	cuemu_function_set_cache(hfunc, config);
	return CUDA_SUCCESS;
}

CUresult cuFuncGetName(const char **name, CUfunction hfunc)
{
	CUresult r = cuemu_check_init();

	if (r != CUDA_SUCCESS)
		return r;
	/* the driver answers INVALID_VALUE for either NULL */
	if (!name || !hfunc)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s is NULL",
				  name ? "hfunc" : "name");
	if ((r = cuemu_function_check(hfunc)) != CUDA_SUCCESS)
		return r;
	*name = cuemu_function_name(hfunc);
	return CUDA_SUCCESS;
}

CUresult cuFuncGetModule(CUmodule *hmod, CUfunction hfunc)
{
	CUresult r = cuemu_check_init();

	if (r != CUDA_SUCCESS)
		return r;
	if (!hmod || !hfunc)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s is NULL",
				  hmod ? "hfunc" : "hmod");
	if ((r = cuemu_function_check(hfunc)) != CUDA_SUCCESS)
		return r;
	*hmod = cuemu_function_module(hfunc);
	return CUDA_SUCCESS;
}

CUresult cuemu_function_param_info(CUfunction f, size_t i, size_t *offset,
				   size_t *size)
{
	const struct ex_kernel_info *k = ex_module_kernel(
		cuemu_module_code(cuemu_function_module(f)),
		cuemu_function_index(f));

	if (i >= k->nparams)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%s has %u parameters, none at %zu", k->name,
				  k->nparams, i);
	if (!offset)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "paramOffset is NULL");
	*offset = k->params[i].offset;
	if (size)
		*size = k->params[i].size;
	return CUDA_SUCCESS;
}

/* A function handle alone answers, with or without a current context
 * (probes/results/kapi.txt); NULL is INVALID_VALUE, not a bad handle. */
CUresult cuFuncGetParamInfo(CUfunction func, size_t paramIndex,
			    size_t *paramOffset, size_t *paramSize)
{
	CUresult r = cuemu_check_init();

	if (r != CUDA_SUCCESS)
		return r;
	if (!func)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "func is NULL");
	if ((r = cuemu_function_check(func)) != CUDA_SUCCESS)
		return r;
	return cuemu_function_param_info(func, paramIndex, paramOffset,
					 paramSize);
}

/* Functions are parsed with their module, so every one is loaded. */
CUresult cuFuncLoad(CUfunction function)
{
	CUresult r = cuemu_check_init();

	if (r != CUDA_SUCCESS)
		return r;
	return cuemu_function_check(function);
}

CUresult cuFuncIsLoaded(CUfunctionLoadingState *state, CUfunction function)
{
	CUresult r;

	if ((r = cuemu_out_check(state, "state")) != CUDA_SUCCESS ||
	    (r = cuemu_function_check(function)) != CUDA_SUCCESS)
		return r;
	*state = CU_FUNCTION_LOADING_STATE_LOADED;
	return CUDA_SUCCESS;
}
