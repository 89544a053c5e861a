/* Libraries, kernels and the launches issue 33 left open: what the driver
 * answers for cuLibrary* and cuKernel* at their edges (NULLs, no context,
 * a kernel in a second context, a lazily loaded library of garbage), for a
 * CUkernel where a CUfunction is taken, for modules whose context was
 * destroyed, for the launch checks that launch.c's run could not reach
 * (a fresh module: no required cluster left on saxpy), for
 * cuLaunchCooperativeKernel's grid limit, for every attribute of
 * cuLaunchKernelEx, and for cuStreamSetAttribute/GetAttribute. Usage:
 * library DIR (DIR holds basic.ptx and control.ptx). Lines are
 * "library.<case>: RESULT details", never addresses. */
#include "common.h"

static const char *g_dir;

#define G(call) ({ CUresult _r; int _s = sigsetjmp(g_jmp, 1); \
	if (_s) _r = (CUresult)-_s; \
	else { g_jmp_armed = 1; _r = (call); g_jmp_armed = 0; } _r; })

static const char *rn(CUresult r)
{
	return (int)r < 0 ? "SIGNAL" : en(r);
}

static char *slurp(const char *name)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", g_dir, name);
	FILE *f = fopen(path, "rb");
	if (!f) { P("FATAL cannot open %s\n", path); exit(1); }
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = calloc(1, n + 16);
	if (fread(b, 1, n, f) != (size_t)n) { P("FATAL short read\n"); exit(1); }
	fclose(f);
	return b;
}

static char *g_ptx, *g_ctl;

/* The entries' NULLs and bad handles, one at a time. */
static void edges(CUlibrary lib, CUkernel k)
{
	CUresult r;
	unsigned cnt = 7;
	CUkernel ks[4];
	CUmodule m;
	CUdeviceptr d;
	size_t sz;
	void *fp;
	int v;
	const char *nm;
	CUlibrary kl;
	CUfunction f;

	r = G(cuLibraryGetKernelCount(NULL, lib));
	P("library.count.null_out: %s\n", rn(r));
	r = G(cuLibraryGetKernelCount(&cnt, NULL));
	P("library.count.null_lib: %s\n", rn(r));
	r = G(cuLibraryEnumerateKernels(NULL, 2, lib));
	P("library.enumerate.null_out: %s\n", rn(r));
	r = G(cuLibraryEnumerateKernels(ks, 0, lib));
	P("library.enumerate.zero: %s\n", rn(r));
	r = G(cuLibraryEnumerateKernels(ks, 2, NULL));
	P("library.enumerate.null_lib: %s\n", rn(r));
	r = G(cuLibraryGetModule(NULL, lib));
	P("library.getmodule.null_out: %s\n", rn(r));
	r = G(cuLibraryGetModule(&m, NULL));
	P("library.getmodule.null_lib: %s\n", rn(r));
	r = G(cuLibraryGetGlobal(NULL, &sz, lib, "table"));
	P("library.getglobal.null_dptr: %s sz=%zu\n", rn(r), sz);
	r = G(cuLibraryGetGlobal(&d, NULL, lib, "table"));
	P("library.getglobal.null_bytes: %s\n", rn(r));
	r = G(cuLibraryGetGlobal(NULL, NULL, lib, "table"));
	P("library.getglobal.null_both: %s\n", rn(r));
	r = G(cuLibraryGetGlobal(&d, &sz, NULL, "table"));
	P("library.getglobal.null_lib: %s\n", rn(r));
	r = G(cuLibraryGetGlobal(&d, &sz, lib, NULL));
	P("library.getglobal.null_name: %s\n", rn(r));
	r = G(cuLibraryGetManaged(NULL, &sz, lib, "counter"));
	P("library.getmanaged.null_dptr: %s\n", rn(r));
	r = G(cuLibraryGetManaged(NULL, NULL, lib, "counter"));
	P("library.getmanaged.null_both: %s\n", rn(r));
	r = G(cuLibraryGetManaged(&d, &sz, NULL, "counter"));
	P("library.getmanaged.null_lib: %s\n", rn(r));
	r = G(cuLibraryGetManaged(&d, &sz, lib, NULL));
	P("library.getmanaged.null_name: %s\n", rn(r));
	r = G(cuLibraryGetUnifiedFunction(NULL, lib, "saxpy"));
	P("library.unified.null_out: %s\n", rn(r));
	r = G(cuLibraryGetUnifiedFunction(&fp, NULL, "saxpy"));
	P("library.unified.null_lib: %s\n", rn(r));
	r = G(cuLibraryGetUnifiedFunction(&fp, lib, NULL));
	P("library.unified.null_name: %s\n", rn(r));
	r = G(cuKernelGetAttribute(NULL, CU_FUNC_ATTRIBUTE_NUM_REGS, k, g_dev[0]));
	P("library.kattr.null_out: %s\n", rn(r));
	r = G(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, NULL, g_dev[0]));
	P("library.kattr.null_kernel: %s\n", rn(r));
	r = G(cuKernelGetAttribute(&v, (CUfunction_attribute)99, k, 99));
	P("library.kattr.bad_attr_bad_dev: %s\n", rn(r));
	r = G(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, k, -1));
	P("library.kattr.dev_minus1: %s\n", rn(r));
	r = G(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1024, NULL, g_dev[0]));
	P("library.ksetattr.null_kernel: %s\n", rn(r));
	r = G(cuKernelSetAttribute((CUfunction_attribute)99, 1, k, g_dev[0]));
	P("library.ksetattr.bad_attr: %s\n", rn(r));
	r = G(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_NUM_REGS, 1, k, 99));
	P("library.ksetattr.numregs_dev99: %s\n", rn(r));
	r = G(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 50, k, g_dev[0]));
	v = -7;
	cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, k, g_dev[0]);
	P("library.ksetattr.carveout50: %s back=%d\n", rn(r), v);
	r = G(cuKernelGetName(&nm, NULL));
	P("library.kname.null_kernel: %s\n", rn(r));
	r = G(cuKernelGetLibrary(NULL, k));
	P("library.klib.null_out: %s\n", rn(r));
	r = G(cuKernelGetLibrary(&kl, NULL));
	P("library.klib.null_kernel: %s\n", rn(r));
	r = G(cuKernelGetFunction(&f, (CUkernel)0x1234));
	P("library.kfunc.bogus: %s\n", rn(r));
	r = G(cuLibraryGetKernel(ks, (CUlibrary)0x1234, "saxpy"));
	P("library.getkernel.bogus_lib: %s\n", rn(r));
}

/* A CUkernel where a CUfunction is taken, and the other way round. */
static void casts(CUlibrary lib, CUkernel k)
{
	CUresult r;
	int v = -7;
	const char *nm = NULL;
	CUmodule m = NULL, lm = NULL;
	CUfunction f;

	CK(cuKernelGetFunction(&f, k));
	r = G(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, (CUfunction)k));
	P("library.cast.funcgetattr: %s %d\n", rn(r), v);
	r = G(cuFuncSetAttribute((CUfunction)k, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 25));
	v = -7;
	cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, f);
	P("library.cast.funcsetattr: %s function_sees=%d\n", rn(r), v);
	r = G(cuFuncGetName(&nm, (CUfunction)k));
	P("library.cast.funcgetname: %s %s\n", rn(r), r ? "-" : nm);
	r = G(cuFuncGetModule(&m, (CUfunction)k));
	cuLibraryGetModule(&lm, lib);
	P("library.cast.funcgetmodule: %s same=%d\n", rn(r), m == lm);
	r = G(cuFuncSetCacheConfig((CUfunction)k, CU_FUNC_CACHE_PREFER_L1));
	P("library.cast.funcsetcache: %s\n", rn(r));
	r = G(cuOccupancyMaxActiveBlocksPerMultiprocessor(&v, (CUfunction)k, 1024, 0));
	P("library.cast.occupancy: %s %d\n", rn(r), v);
	CUfunctionLoadingState st;
	r = G(cuFuncIsLoaded(&st, (CUfunction)k));
	P("library.cast.funcisloaded: %s %d\n", rn(r), (int)st);
	nm = NULL;
	r = G(cuKernelGetName(&nm, (CUkernel)f));
	P("library.cast.kernelname_of_function: %s %s\n", rn(r), r ? "-" : nm);
	CUlibrary kl = NULL;
	r = G(cuKernelGetLibrary(&kl, (CUkernel)f));
	P("library.cast.kernellibrary_of_function: %s\n", rn(r));
	r = G(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, (CUkernel)f, g_dev[0]));
	P("library.cast.kernelattr_of_function: %s\n", rn(r));
	/* a function of a module, given as a kernel */
	CUmodule mod;
	CUfunction mf;
	CK(cuModuleLoadData(&mod, g_ptx));
	CK(cuModuleGetFunction(&mf, mod, "saxpy"));
	r = G(cuKernelGetName(&nm, (CUkernel)mf));
	P("library.cast.kernelname_of_module_function: %s\n", rn(r));
	cuModuleUnload(mod);
}

/* Libraries and contexts: no context, a second context, a destroyed one. */
static void contexts(void)
{
	CUresult r;
	CUlibrary lib = NULL;
	CUkernel k = NULL;
	CUfunction f0 = NULL, f1 = NULL;
	CUmodule m0 = NULL, m1 = NULL;
	CUdeviceptr d0 = 0, d1 = 0;
	size_t sz;
	unsigned cnt = 0;
	int v = -7;

	cuCtxSetCurrent(NULL);
	r = G(cuLibraryLoadData(&lib, g_ptx, NULL, NULL, 0, NULL, NULL, 0));
	P("library.noctx.load: %s\n", rn(r));
	r = G(cuLibraryGetKernel(&k, lib, "saxpy"));
	P("library.noctx.getkernel: %s\n", rn(r));
	r = G(cuLibraryGetKernelCount(&cnt, lib));
	P("library.noctx.count: %s %u\n", rn(r), cnt);
	const char *nm = NULL;
	r = G(cuKernelGetName(&nm, k));
	P("library.noctx.kernelname: %s\n", rn(r));
	r = G(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, k, g_dev[0]));
	P("library.noctx.kernelattr: %s %d\n", rn(r), v);
	r = G(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 2048, k, g_dev[0]));
	P("library.noctx.kernelsetattr: %s\n", rn(r));
	r = G(cuKernelGetFunction(&f0, k));
	P("library.noctx.getfunction: %s\n", rn(r));
	r = G(cuLibraryGetModule(&m0, lib));
	P("library.noctx.getmodule: %s\n", rn(r));
	r = G(cuLibraryGetGlobal(&d0, &sz, lib, "table"));
	P("library.noctx.getglobal: %s\n", rn(r));
	r = G(cuLibraryGetManaged(&d0, &sz, lib, "counter"));
	P("library.noctx.getmanaged: %s\n", rn(r));
	r = G(cuModuleLoadData(&m0, g_ptx));
	P("library.noctx.moduleload: %s\n", rn(r));
	CK(cuCtxSetCurrent(g_ctx[0]));
	CK(cuKernelGetFunction(&f0, k));
	v = -7;
	cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f0);
	P("library.noctx.setattr_seen_by_function: %d\n", v);
	CK(cuLibraryGetModule(&m0, lib));
	CK(cuLibraryGetGlobal(&d0, &sz, lib, "table"));
	/* a second context on the same device */
	CUcontext c2;
	r = G(cuCtxCreate(&c2, NULL, 0, g_dev[0]));
	P("library.ctx2.create: %s\n", rn(r));
	if (r) return;
	CK(cuKernelGetFunction(&f1, k));
	CK(cuLibraryGetModule(&m1, lib));
	CK(cuLibraryGetGlobal(&d1, &sz, lib, "table"));
	P("library.ctx2.function_differs: %d module_differs: %d global_differs: %d\n", f0 != f1, m0 != m1, d0 != d1);
	v = -7;
	cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f1);
	P("library.ctx2.setattr_seen: %d\n", v);
	/* the first context's function launched here */
	CUdeviceptr dx, dy;
	CK(cuMemAlloc(&dx, 4096));
	CK(cuMemAlloc(&dy, 4096));
	int n = 0;
	float a = 2;
	void *args[] = { &n, &a, &dx, &dy };
	r = G(cuLaunchKernel(f0, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL));
	P("library.ctx2.launch_other_ctx_function: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	r = G(cuLaunchKernel((CUfunction)k, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL));
	P("library.ctx2.launch_kernel: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	/* a module of this context, then the context destroyed */
	CUmodule mc;
	CUfunction fc;
	CK(cuModuleLoadData(&mc, g_ptx));
	CK(cuModuleGetFunction(&fc, mc, "saxpy"));
	cuMemFree(dx);
	cuMemFree(dy);
	r = G(cuCtxDestroy(c2));
	P("library.ctx2.destroy: %s\n", rn(r));
	CK(cuCtxSetCurrent(g_ctx[0]));
	r = G(cuModuleGetFunction(&fc, mc, "saxpy"));
	P("library.ctx2.module_after_destroy.getfunction: %s\n", rn(r));
	r = G(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, fc));
	P("library.ctx2.function_after_destroy.getattr: %s\n", rn(r));
	r = G(cuModuleUnload(mc));
	P("library.ctx2.module_after_destroy.unload: %s\n", rn(r));
	r = G(cuKernelGetFunction(&f1, k));
	P("library.ctx2.kernel_after_destroy.getfunction: %s same_as_ctx0=%d\n", rn(r), f1 == f0);
	r = G(cuLibraryUnload(lib));
	P("library.unload: %s\n", rn(r));
	r = G(cuKernelGetName(&nm, k));
	P("library.kernel_after_unload.name: %s\n", rn(r));
	/* garbage loads lazily: when is it refused */
	CUlibrary gl = NULL;
	r = G(cuLibraryLoadData(&gl, "hello, world\n", NULL, NULL, 0, NULL, NULL, 0));
	P("library.garbage.load: %s\n", rn(r));
	r = G(cuLibraryGetKernelCount(&cnt, gl));
	P("library.garbage.count: %s\n", rn(r));
	r = G(cuLibraryGetKernel(&k, gl, "saxpy"));
	P("library.garbage.getkernel: %s\n", rn(r));
	r = G(cuLibraryGetModule(&m1, gl));
	P("library.garbage.getmodule: %s\n", rn(r));
	r = G(cuLibraryUnload(gl));
	P("library.garbage.unload: %s\n", rn(r));
	/* broken PTX, lazily */
	char *bad = strdup(g_ptx);
	char *at = strstr(bad, "ret;");
	if (at) memcpy(at, "rxt;", 4);
	r = G(cuLibraryLoadData(&gl, bad, NULL, NULL, 0, NULL, NULL, 0));
	P("library.badptx.load: %s\n", rn(r));
	if (!r) {
		r = G(cuLibraryGetKernel(&k, gl, "saxpy"));
		P("library.badptx.getkernel: %s\n", rn(r));
		r = G(cuLibraryGetModule(&m1, gl));
		P("library.badptx.getmodule: %s\n", rn(r));
		cuLibraryUnload(gl);
	}
	char *e = NULL;
	static char errlog[512];
	CUjit_option o[2] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *ov[2] = { errlog, (void *)(uintptr_t)sizeof errlog };
	r = G(cuLibraryLoadData(&gl, bad, o, ov, 2, NULL, NULL, 0));
	P("library.badptx.load_with_log: %s logsize=%zu\n", rn(r), (size_t)(uintptr_t)ov[1]);
	if (!r) cuLibraryUnload(gl);
	(void)e;
	free(bad);
	/* EAGER loading */
	CUlibraryOption lo[1] = { CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE };
	void *lv[1] = { NULL };
	r = G(cuLibraryLoadData(&gl, g_ptx, NULL, NULL, 0, lo, lv, 1));
	P("library.opt.host_table_null: %s\n", rn(r));
	if (!r) cuLibraryUnload(gl);
	r = G(cuLibraryLoadData(&gl, g_ptx, NULL, NULL, 1, NULL, NULL, 0));
	P("library.opt.jit_count_null_arrays: %s\n", rn(r));
	r = G(cuLibraryLoadData(&gl, g_ptx, NULL, NULL, 0, NULL, NULL, 1));
	P("library.opt.lib_count_null_arrays: %s\n", rn(r));
	r = G(cuLibraryLoadFromFile(&gl, NULL, NULL, NULL, 0, NULL, NULL, 0));
	P("library.loadfile.null_name: %s\n", rn(r));
	r = G(cuLibraryLoadFromFile(NULL, "/etc/hostname", NULL, NULL, 0, NULL, NULL, 0));
	P("library.loadfile.null_out: %s\n", rn(r));
	r = G(cuLibraryLoadFromFile(&gl, "/tmp", NULL, NULL, 0, NULL, NULL, 0));
	P("library.loadfile.directory: %s\n", rn(r));
	if (!r) cuLibraryUnload(gl);
	r = G(cuLibraryLoadFromFile(&gl, "/etc/hostname", NULL, NULL, 0, NULL, NULL, 0));
	P("library.loadfile.text: %s\n", rn(r));
	if (!r) cuLibraryUnload(gl);
}

struct cfg { const char *name; unsigned gx, gy, gz, bx, by, bz, smem; int nullparams; };

static void launches(void)
{
	CUmodule m;
	CUfunction f, gs;
	CUresult r;
	CK(cuModuleLoadData(&m, g_ptx));
	CK(cuModuleGetFunction(&f, m, "saxpy"));
	CUdeviceptr dx, dy;
	CK(cuMemAlloc(&dx, 4 << 20));
	CK(cuMemAlloc(&dy, 4 << 20));
	int n = 0;
	float a = 2;
	void *args[] = { &n, &a, &dx, &dy };
	static const struct cfg c[] = {
		{ "ok", 1, 1, 1, 32, 1, 1, 0, 0 },
		{ "smem_48k", 1, 1, 1, 32, 1, 1, 48 * 1024, 0 },
		{ "smem_48k1", 1, 1, 1, 32, 1, 1, 48 * 1024 + 1, 0 },
		{ "smem_1m", 1, 1, 1, 32, 1, 1, 1 << 20, 0 },
		{ "null_params", 1, 1, 1, 32, 1, 1, 0, 1 },
		{ "null_params_smem1m", 1, 1, 1, 32, 1, 1, 1 << 20, 1 },
		{ "grid_x_max", 0x7fffffff, 1, 1, 1, 1, 1, 0, 0 },
		{ "block_x_1024", 1, 1, 1, 1024, 1, 1, 0, 0 },
	};
	const char *skip = getenv("PROBE_SKIP");
	for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
		/* a case a replay cannot run in its time (PROBE_SKIP) */
		if (skip && strstr(skip, c[i].name))
			continue;
		r = G(cuLaunchKernel(f, c[i].gx, c[i].gy, c[i].gz, c[i].bx, c[i].by, c[i].bz, c[i].smem,
				   NULL, c[i].nullparams ? NULL : args, NULL));
		P("library.cfg.%s: %s sync=%s\n", c[i].name, rn(r), en(cuCtxSynchronize()));
	}
	struct __attribute__((packed, aligned(8))) { int n; float a; CUdeviceptr x, y; } pb = { 0, 2, dx, dy };
	size_t pbs = sizeof pb, small = 8, big = 64;
	void *ex_ok[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &pb, CU_LAUNCH_PARAM_BUFFER_SIZE, &pbs, CU_LAUNCH_PARAM_END };
	void *ex_small[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &pb, CU_LAUNCH_PARAM_BUFFER_SIZE, &small, CU_LAUNCH_PARAM_END };
	void *ex_big[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &pb, CU_LAUNCH_PARAM_BUFFER_SIZE, &big, CU_LAUNCH_PARAM_END };
	r = G(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, ex_ok));
	P("library.extra.ok: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	r = G(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, ex_small));
	P("library.extra.small: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	r = G(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, ex_big));
	P("library.extra.big: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));

	/* cooperative */
	int sms = 0, nb = 0, nb256 = 0, nbs = 0;
	cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, g_dev[0]);
	cuOccupancyMaxActiveBlocksPerMultiprocessor(&nb, f, 1024, 0);
	cuOccupancyMaxActiveBlocksPerMultiprocessor(&nb256, f, 256, 0);
	cuOccupancyMaxActiveBlocksPerMultiprocessor(&nbs, f, 256, 40 * 1024);
	P("library.coop.device: sms=%d b1024=%d b256=%d b256_smem40k=%d\n", sms, nb, nb256, nbs);
	r = G(cuLaunchCooperativeKernel(f, sms * nb, 1, 1, 1024, 1, 1, 0, NULL, args));
	P("library.coop.full: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	r = G(cuLaunchCooperativeKernel(f, sms * nb + 1, 1, 1, 1024, 1, 1, 0, NULL, args));
	P("library.coop.one_over: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	r = G(cuLaunchCooperativeKernel(f, sms * nb256, 1, 1, 256, 1, 1, 0, NULL, args));
	P("library.coop.full256: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	r = G(cuLaunchCooperativeKernel(f, sms * nb256 + 1, 1, 1, 256, 1, 1, 0, NULL, args));
	P("library.coop.one_over256: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	r = G(cuLaunchCooperativeKernel(f, sms * nb / 2, 2, 1, 1024, 1, 1, 0, NULL, args));
	P("library.coop.full_2d: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	r = G(cuLaunchCooperativeKernel(f, sms * nb / 2 + 1, 2, 1, 1024, 1, 1, 0, NULL, args));
	P("library.coop.over_2d: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 100 * 1024);
	r = G(cuLaunchCooperativeKernel(f, sms * nbs, 1, 1, 256, 1, 1, 40 * 1024, NULL, args));
	P("library.coop.full_smem40k: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	r = G(cuLaunchCooperativeKernel(f, sms * nbs + 1, 1, 1, 256, 1, 1, 40 * 1024, NULL, args));
	P("library.coop.over_smem40k: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 48 * 1024);
	r = G(cuLaunchCooperativeKernel(f, sms * nb + 1, 1, 1, 1024, 1, 1, 1 << 20, NULL, args));
	P("library.coop.over_and_smem1m: %s\n", rn(r));
	r = G(cuLaunchCooperativeKernel(f, sms * nb + 1, 1, 1, 1024, 1, 1, 0, NULL, NULL));
	P("library.coop.over_and_null_params: %s\n", rn(r));
	r = G(cuLaunchCooperativeKernel(NULL, 1, 1, 1, 32, 1, 1, 0, NULL, args));
	P("library.coop.null_func: %s\n", rn(r));
	CUstream s;
	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	r = G(cuLaunchCooperativeKernel(f, sms * nb, 1, 1, 1024, 1, 1, 0, s, args));
	P("library.coop.stream: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	/* a real grid sync */
	CUmodule mc;
	CK(cuModuleLoadData(&mc, g_ctl));
	CK(cuModuleGetFunction(&gs, mc, "gridSync"));
	int nbg = 0;
	cuOccupancyMaxActiveBlocksPerMultiprocessor(&nbg, gs, 128, 0);
	CUdeviceptr p, q;
	unsigned nt = 4 * 128;
	CK(cuMemAlloc(&p, nt * 4));
	CK(cuMemAlloc(&q, nt * 4));
	CK(cuMemsetD32(q, 0, nt));
	int rounds = 3;
	void *gargs[] = { &p, &q, &rounds };
	r = G(cuLaunchCooperativeKernel(gs, 4, 1, 1, 128, 1, 1, 0, NULL, gargs));
	int hq[2] = { -1, -1 };
	CUresult sr = cuCtxSynchronize();
	cuMemcpyDtoH(hq, q, 8);
	P("library.coop.gridsync: %s sync=%s blocks_per_sm_128=%d q0=%d q1=%d\n", rn(r), en(sr), nbg, hq[0], hq[1]);
	r = G(cuLaunchCooperativeKernel(gs, sms * nbg + 1, 1, 1, 128, 1, 1, 0, NULL, gargs));
	P("library.coop.gridsync_over: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));

	/* cuLaunchKernelEx */
	CUlaunchAttribute at[4];
	CUlaunchConfig cf;
	memset(&cf, 0, sizeof cf);
	memset(at, 0, sizeof at);
	cf.gridDimX = 2; cf.gridDimY = 1; cf.gridDimZ = 1;
	cf.blockDimX = 64; cf.blockDimY = 1; cf.blockDimZ = 1;
	cf.attrs = at;
#define EX(name) do { r = G(cuLaunchKernelEx(&cf, f, args, NULL)); \
	P("library.ex.%s: %s sync=%s\n", name, rn(r), en(cuCtxSynchronize())); } while (0)
	cf.numAttrs = 0;
	EX("plain");
	cf.attrs = NULL;
	EX("zero_attrs_null");
	cf.numAttrs = 1;
	EX("null_attrs");
	cf.attrs = at;
	cf.gridDimX = 0;
	cf.attrs = NULL;
	EX("null_attrs_grid0");
	cf.attrs = at;
	cf.gridDimX = 2;
	at[0].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
	at[0].value.cooperative = 1;
	EX("cooperative");
	at[0].value.cooperative = 7;
	EX("cooperative_7");
	cf.gridDimX = sms * nb + 1; cf.blockDimX = 1024;
	EX("cooperative_one_over");
	at[0].value.cooperative = 0;
	EX("cooperative_0_one_over");
	cf.gridDimX = 2; cf.blockDimX = 64;
	at[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
	static const unsigned cl[][6] = {
		{ 1, 1, 1, 48, 2, 1 }, { 2, 1, 1, 48, 2, 1 }, { 3, 1, 1, 48, 2, 1 },
		{ 8, 1, 1, 48, 2, 1 }, { 16, 1, 1, 48, 2, 1 }, { 0, 1, 1, 48, 2, 1 },
		{ 2, 2, 1, 48, 2, 1 }, { 2, 1, 1, 3, 1, 1 }, { 4, 2, 1, 48, 2, 1 },
		{ 1, 1, 8, 2, 2, 8 }, { 9, 1, 1, 9, 1, 1 }, { 0, 0, 0, 48, 2, 1 },
	};
	for (size_t i = 0; i < sizeof cl / sizeof *cl; i++) {
		char nmb[64];
		at[0].value.clusterDim.x = cl[i][0];
		at[0].value.clusterDim.y = cl[i][1];
		at[0].value.clusterDim.z = cl[i][2];
		cf.gridDimX = cl[i][3]; cf.gridDimY = cl[i][4]; cf.gridDimZ = cl[i][5];
		snprintf(nmb, sizeof nmb, "cluster_%ux%ux%u_grid%ux%ux%u", cl[i][0], cl[i][1], cl[i][2], cl[i][3], cl[i][4], cl[i][5]);
		EX(nmb);
	}
	cf.gridDimY = 1; cf.gridDimZ = 1;
	cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);
	at[0].value.clusterDim.x = 16; at[0].value.clusterDim.y = 1; at[0].value.clusterDim.z = 1;
	cf.gridDimX = 32;
	EX("cluster_16_nonportable");
	cf.blockDimX = 1024;
	EX("cluster_16_nonportable_block1024");
	cf.blockDimX = 64;
	cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 0);
	/* cooperative and cluster together */
	at[0].value.clusterDim.x = 2;
	at[1].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
	at[1].value.cooperative = 1;
	cf.numAttrs = 2;
	cf.gridDimX = 4;
	EX("cluster2_cooperative");
	cf.numAttrs = 1;
	cf.gridDimX = 2;
	/* the rest, each alone */
	at[0].id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
	static const int prios[] = { 0, -5, -6, 1, 5, -100 };
	for (size_t i = 0; i < sizeof prios / sizeof *prios; i++) {
		char nmb[64];
		at[0].value.priority = prios[i];
		snprintf(nmb, sizeof nmb, "priority_%d", prios[i]);
		EX(nmb);
	}
	memset(&at[0].value, 0, sizeof at[0].value);
	at[0].id = (CUlaunchAttributeID)99;
	EX("unknown_99");
	at[0].id = (CUlaunchAttributeID)15;
	EX("unknown_15");
	at[0].id = (CUlaunchAttributeID)17;
	EX("unknown_17");
	at[0].id = CU_LAUNCH_ATTRIBUTE_IGNORE;
	EX("ignore");
	at[0].id = CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY;
	at[0].value.syncPolicy = CU_SYNC_POLICY_SPIN;
	EX("sync_policy_spin");
	at[0].value.syncPolicy = 0;
	EX("sync_policy_0");
	at[0].id = CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW;
	at[0].value.accessPolicyWindow.base_ptr = (void *)(uintptr_t)dx;
	at[0].value.accessPolicyWindow.num_bytes = 1 << 20;
	at[0].value.accessPolicyWindow.hitRatio = 0.5f;
	at[0].value.accessPolicyWindow.hitProp = CU_ACCESS_PROPERTY_PERSISTING;
	at[0].value.accessPolicyWindow.missProp = CU_ACCESS_PROPERTY_STREAMING;
	EX("access_policy_window");
	at[0].value.accessPolicyWindow.hitRatio = 1.5f;
	EX("access_policy_window_ratio15");
	at[0].value.accessPolicyWindow.hitRatio = 0.5f;
	at[0].value.accessPolicyWindow.num_bytes = 1ull << 40;
	EX("access_policy_window_1t");
	memset(&at[0].value, 0, sizeof at[0].value);
	at[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE;
	for (int i = 0; i <= 3; i++) {
		char nmb[64];
		at[0].value.clusterSchedulingPolicyPreference = i;
		snprintf(nmb, sizeof nmb, "cluster_sched_%d", i);
		EX(nmb);
	}
	memset(&at[0].value, 0, sizeof at[0].value);
	at[0].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
	at[0].value.programmaticStreamSerializationAllowed = 1;
	EX("programmatic_serialization");
	at[0].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT;
	EX("programmatic_event_null");
	CUevent ev;
	CK(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
	at[0].value.programmaticEvent.event = ev;
	EX("programmatic_event");
	memset(&at[0].value, 0, sizeof at[0].value);
	at[0].id = CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT;
	EX("completion_event_null");
	at[0].value.launchCompletionEvent.event = ev;
	EX("completion_event");
	memset(&at[0].value, 0, sizeof at[0].value);
	at[0].id = CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN;
	at[0].value.memSyncDomain = CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE;
	EX("mem_sync_domain_remote");
	at[0].value.memSyncDomain = 5;
	EX("mem_sync_domain_5");
	at[0].id = CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP;
	at[0].value.memSyncDomainMap.default_ = 0;
	at[0].value.memSyncDomainMap.remote = 1;
	EX("mem_sync_domain_map");
	at[0].value.memSyncDomainMap.remote = 9;
	EX("mem_sync_domain_map_9");
	memset(&at[0].value, 0, sizeof at[0].value);
	at[0].id = CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION;
	at[0].value.preferredClusterDim.x = 2; at[0].value.preferredClusterDim.y = 1; at[0].value.preferredClusterDim.z = 1;
	EX("preferred_cluster_2");
	memset(&at[0].value, 0, sizeof at[0].value);
	at[0].id = CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE;
	at[0].value.deviceUpdatableKernelNode.deviceUpdatable = 1;
	EX("device_updatable");
	memset(&at[0].value, 0, sizeof at[0].value);
	at[0].id = CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT;
	at[0].value.sharedMemCarveout = 50;
	EX("carveout_50");
	at[0].value.sharedMemCarveout = 101;
	EX("carveout_101");
	memset(&at[0].value, 0, sizeof at[0].value);
	at[0].id = CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING;
	at[0].value.nvlinkUtilCentricScheduling = 1;
	EX("nvlink_centric");
	/* order: an unknown attribute beside a bad dimension, a bad smem */
	at[0].id = (CUlaunchAttributeID)99;
	cf.gridDimX = 0;
	EX("unknown_and_grid0");
	cf.gridDimX = 2;
	cf.sharedMemBytes = 1 << 20;
	EX("unknown_and_smem1m");
	cf.sharedMemBytes = 0;
	at[0].id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
	at[0].value.priority = 0;
	at[1].id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
	at[1].value.priority = -3;
	cf.numAttrs = 2;
	EX("priority_twice");
	cf.numAttrs = 1;
	cf.hStream = s;
	at[0].id = CU_LAUNCH_ATTRIBUTE_IGNORE;
	EX("stream");
	cf.hStream = NULL;
	r = G(cuLaunchKernelEx(&cf, f, args, ex_ok));
	P("library.ex.both_params: %s\n", rn(r));
	r = G(cuLaunchKernelEx(&cf, f, NULL, ex_ok));
	P("library.ex.extra: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	r = G(cuLaunchKernelEx(&cf, NULL, args, NULL));
	P("library.ex.null_func: %s\n", rn(r));
	r = G(cuLaunchKernelEx(NULL, NULL, args, NULL));
	P("library.ex.null_config_null_func: %s\n", rn(r));
	cuEventDestroy(ev);
	cuStreamDestroy(s);
	cuMemFree(p); cuMemFree(q);
	cuModuleUnload(mc);
	cuMemFree(dx); cuMemFree(dy);
	cuModuleUnload(m);
}

/* cuStreamSetAttribute / GetAttribute */
static void stream_attrs(void)
{
	CUstream s;
	CUresult r;
	CUstreamAttrValue v;
	int maxwin = 0, persist = 0;
	cuDeviceGetAttribute(&maxwin, CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE, g_dev[0]);
	cuDeviceGetAttribute(&persist, CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE, g_dev[0]);
	P("library.sattr.device: max_window=%d max_persisting=%d\n", maxwin, persist);
	CK(cuStreamCreateWithPriority(&s, CU_STREAM_NON_BLOCKING, -2));
	for (int id = 0; id <= 17; id++) {
		memset(&v, 0x5a, sizeof v);
		r = G(cuStreamGetAttribute(s, (CUstreamAttrID)id, &v));
		P("library.sattr.get.%d: %s w0=%d w1=%d w2=%d\n", id, rn(r), ((int *)&v)[0], ((int *)&v)[1], ((int *)&v)[2]);
	}
	memset(&v, 0x5a, sizeof v);
	r = G(cuStreamGetAttribute(NULL, CU_STREAM_ATTRIBUTE_PRIORITY, &v));
	P("library.sattr.get_null_stream_priority: %s %d\n", rn(r), v.priority);
	r = G(cuStreamGetAttribute(s, CU_STREAM_ATTRIBUTE_PRIORITY, NULL));
	P("library.sattr.get_null_out: %s\n", rn(r));
	CUdeviceptr d;
	CK(cuMemAlloc(&d, 8 << 20));
	memset(&v, 0, sizeof v);
	v.accessPolicyWindow.base_ptr = (void *)(uintptr_t)d;
	v.accessPolicyWindow.num_bytes = 1 << 20;
	v.accessPolicyWindow.hitRatio = 0.6f;
	v.accessPolicyWindow.hitProp = CU_ACCESS_PROPERTY_PERSISTING;
	v.accessPolicyWindow.missProp = CU_ACCESS_PROPERTY_STREAMING;
#define SA(name, id) do { r = G(cuStreamSetAttribute(s, id, &v)); CUstreamAttrValue _b; memset(&_b, 0x5a, sizeof _b); \
	CUresult _g = cuStreamGetAttribute(s, id, &_b); \
	P("library.sattr.set.%s: %s back=%s w0=%d w1=%d w2=%d w3=%d\n", name, rn(r), en(_g), ((int *)&_b)[0], ((int *)&_b)[1], ((int *)&_b)[2], ((int *)&_b)[3]); } while (0)
	SA("window_1m", CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW);
	CUstreamAttrValue b;
	cuStreamGetAttribute(s, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &b);
	P("library.sattr.window_back: base_same=%d bytes=%zu ratio=%g hit=%d miss=%d\n",
	  b.accessPolicyWindow.base_ptr == (void *)(uintptr_t)d, b.accessPolicyWindow.num_bytes,
	  b.accessPolicyWindow.hitRatio, (int)b.accessPolicyWindow.hitProp, (int)b.accessPolicyWindow.missProp);
	v.accessPolicyWindow.num_bytes = (size_t)maxwin;
	SA("window_max", CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW);
	v.accessPolicyWindow.num_bytes = (size_t)maxwin + 1;
	SA("window_max1", CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW);
	v.accessPolicyWindow.num_bytes = 1 << 20;
	v.accessPolicyWindow.hitRatio = 1.5f;
	SA("window_ratio15", CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW);
	v.accessPolicyWindow.hitRatio = -0.5f;
	SA("window_ratio_neg", CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW);
	v.accessPolicyWindow.hitRatio = 0.6f;
	v.accessPolicyWindow.hitProp = 7;
	SA("window_hitprop7", CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW);
	v.accessPolicyWindow.hitProp = CU_ACCESS_PROPERTY_PERSISTING;
	v.accessPolicyWindow.base_ptr = NULL;
	SA("window_null_base", CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW);
	v.accessPolicyWindow.num_bytes = 0;
	SA("window_zero", CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW);
	memset(&v, 0, sizeof v);
	v.syncPolicy = CU_SYNC_POLICY_YIELD;
	SA("sync_yield", CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY);
	v.syncPolicy = 9;
	SA("sync_9", CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY);
	v.syncPolicy = 0;
	SA("sync_0", CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY);
	memset(&v, 0, sizeof v);
	v.priority = -4;
	SA("priority_minus4", CU_STREAM_ATTRIBUTE_PRIORITY);
	v.priority = 3;
	SA("priority_3", CU_STREAM_ATTRIBUTE_PRIORITY);
	memset(&v, 0, sizeof v);
	v.memSyncDomain = CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE;
	SA("domain_remote", CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN);
	v.memSyncDomain = 4;
	SA("domain_4", CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN);
	memset(&v, 0, sizeof v);
	v.memSyncDomainMap.remote = 1;
	SA("domain_map", CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP);
	memset(&v, 0, sizeof v);
	v.cooperative = 1;
	SA("cooperative", CU_LAUNCH_ATTRIBUTE_COOPERATIVE);
	v.clusterDim.x = 2; v.clusterDim.y = 1; v.clusterDim.z = 1;
	SA("cluster", CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION);
	memset(&v, 0, sizeof v);
	SA("ignore", CU_LAUNCH_ATTRIBUTE_IGNORE);
	SA("unknown_99", (CUstreamAttrID)99);
	r = G(cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_PRIORITY, NULL));
	P("library.sattr.set_null_value: %s\n", rn(r));
	v.syncPolicy = CU_SYNC_POLICY_SPIN;
	r = G(cuStreamSetAttribute(NULL, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v));
	P("library.sattr.set_null_stream: %s\n", rn(r));
	r = G(cuStreamSetAttribute(CU_STREAM_PER_THREAD, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v));
	P("library.sattr.set_per_thread: %s\n", rn(r));
	CUstream s2;
	CK(cuStreamCreate(&s2, 0));
	r = G(cuStreamCopyAttributes(s2, s));
	memset(&b, 0x5a, sizeof b);
	cuStreamGetAttribute(s2, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &b);
	P("library.sattr.copy: %s sync_policy=%d\n", rn(r), (int)b.syncPolicy);
	cuStreamDestroy(s2);
	cuStreamDestroy(s);
	r = G(cuStreamGetAttribute(s, CU_STREAM_ATTRIBUTE_PRIORITY, &v));
	P("library.sattr.destroyed: %s\n", rn(r));
	cuMemFree(d);
}

int main(int argc, char **argv)
{
	if (argc < 2) { fprintf(stderr, "usage: library DIR\n"); return 2; }
	g_dir = argv[1];
	CUlibrary lib = NULL;
	P("library.load_before_init: %s\n", en(cuLibraryLoadData(&lib, "x", NULL, NULL, 0, NULL, NULL, 0)));
	setup("library");
	g_ptx = slurp("basic.ptx");
	g_ctl = slurp("control.ptx");
	CK(cuLibraryLoadData(&lib, g_ptx, NULL, NULL, 0, NULL, NULL, 0));
	CUkernel k;
	CK(cuLibraryGetKernel(&k, lib, "saxpy"));
	edges(lib, k);
	casts(lib, k);
	cuLibraryUnload(lib);
	contexts();
	CK(cuCtxSetCurrent(g_ctx[0]));
	launches();
	stream_attrs();
	teardown("library");
	return 0;
}
