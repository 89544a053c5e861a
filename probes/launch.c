/* Loading and launching: what the driver answers for the images nvcc makes
 * of tests/unit/kernels/basic.cu (PTX, fatbins plain, LZ4 and Zstandard, the
 * wrapper nvcc's host code registers, machine code for another GPU, PTX
 * for a newer one), for broken PTX (its JIT logs), for the module, library,
 * kernel and function entries and occupancy, and for each bad launch
 * configuration alone and two at a time (the order of its checks). The
 * kernels that fail (illegal address, assert, trap) run one per process:
 * "launch risky NAME DIR". Usage: launch DIR (DIR holds basic.ptx and the
 * fatbins). Lines are "launch.<case>: RESULT details", never addresses. */
#include "common.h"
#include <sys/stat.h>

static const char *g_dir;

/* a call that may crash inside the driver for a NULL it was given: the
 * crash is caught and answered as SIGNAL (CUresult -signal) */
#define G(call) ({ CUresult _r; int _s = sigsetjmp(g_jmp, 1); \
	if (_s) _r = (CUresult)-_s; \
	else { g_jmp_armed = 1; _r = (call); g_jmp_armed = 0; } _r; })

/* the file DIR/name, NUL-terminated; *len without the NUL */
static char *slurp(const char *name, size_t *len)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", g_dir, name);
	FILE *f = fopen(path, "rb");
	if (!f) { P("FATAL cannot open %s\n", path); exit(1); }
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = calloc(1, n + 16);
	if (fread(b, 1, n, f) != (size_t)n) { P("FATAL short read %s\n", path); exit(1); }
	fclose(f);
	if (len) *len = n;
	return b;
}

/* the PTX text with `from` replaced by `to` (the first occurrence) */
static char *edit(const char *ptx, const char *from, const char *to)
{
	const char *at = strstr(ptx, from);
	if (!at) { P("FATAL no %s in the PTX\n", from); exit(1); }
	size_t n = strlen(ptx) + strlen(to) + 1;
	char *o = malloc(n);
	snprintf(o, n, "%.*s%s%s", (int)(at - ptx), ptx, to, at + strlen(from));
	return o;
}

/* one line of a log, newlines shown as '|' */
static const char *rn(CUresult r)
{
	return (int)r < 0 ? "SIGNAL" : en(r);
}

static const char *oneline(const char *s)
{
	static char b[1200];
	size_t i;
	for (i = 0; s[i] && i < sizeof b - 1; i++)
		b[i] = s[i] == '\n' ? '|' : s[i];
	b[i] = 0;
	return b;
}

static void load(const char *name, const void *img)
{
	CUmodule m = NULL;
	CUresult r = cuModuleLoadData(&m, img);
	P("launch.load.%s: %s\n", name, rn(r));
	if (r == CUDA_SUCCESS) cuModuleUnload(m);
}

/* cuModuleLoadDataEx with both logs and the wall time */
static void load_ex(const char *name, const void *img)
{
	static char info[4096], err[4096];
	memset(info, 0, sizeof info);
	memset(err, 0, sizeof err);
	CUjit_option o[6] = { CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
			      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
			      CU_JIT_WALL_TIME, CU_JIT_LOG_VERBOSE };
	void *v[6] = { info, (void *)(uintptr_t)sizeof info, err,
		       (void *)(uintptr_t)sizeof err, NULL, (void *)(uintptr_t)1 };
	float wall;
	memcpy(&v[4], &(float){ -1.0f }, sizeof(float));
	CUmodule m = NULL;
	CUresult r = cuModuleLoadDataEx(&m, img, 6, o, v);
	memcpy(&wall, &v[4], sizeof wall);
	P("launch.loadex.%s: %s info_size=%zu err_size=%zu wall_set=%d\n", name, rn(r),
	  (size_t)(uintptr_t)v[1], (size_t)(uintptr_t)v[3], wall >= 0.0f);
	P("launch.loadex.%s.info: %s\n", name, oneline(info));
	P("launch.loadex.%s.error: %s\n", name, oneline(err));
	if (r == CUDA_SUCCESS) cuModuleUnload(m);
}

static void images(void)
{
	size_t n;
	char *ptx = slurp("basic.ptx", &n);
	char *zst = slurp("basic.fatbin", NULL);
	char *lz4 = slurp("basic-lz4.fatbin", NULL);
	char *plain = slurp("basic-plain.fatbin", NULL);
	char *sm80 = slurp("basic-sm80.fatbin", NULL);
	char *sm100 = slurp("basic-sm100.ptx", NULL);
	char *cubin = slurp("basic-sm90.cubin", NULL);
	CUmodule m = (CUmodule)0x1;
	CUresult r;

	load("ptx", ptx);
	load("fatbin_zstd", zst);
	load("fatbin_lz4", lz4);
	load("fatbin_plain", plain);
	load("fatbin_sm80_sass_only", sm80);
	load("ptx_sm100", sm100);
	load("cubin_sm90", cubin);
	struct { uint32_t magic, version; const void *data, *rest; } w = { 0x466243b1, 1, zst, NULL };
	load("wrapper", &w);
	r = G(cuModuleLoadFatBinary(&m, &w));
	P("launch.loadfatbinary.wrapper: %s\n", rn(r));
	if (!r) cuModuleUnload(m);
	r = G(cuModuleLoadFatBinary(&m, zst));
	P("launch.loadfatbinary.container: %s\n", rn(r));
	if (!r) cuModuleUnload(m);
	r = G(cuModuleLoadFatBinary(&m, ptx));
	P("launch.loadfatbinary.ptx: %s\n", rn(r));
	if (!r) cuModuleUnload(m);
	r = G(cuModuleLoadFatBinary(NULL, zst));
	P("launch.loadfatbinary.null_module: %s\n", rn(r));
	r = G(cuModuleLoadFatBinary(&m, NULL));
	P("launch.loadfatbinary.null_image: %s\n", rn(r));
	w.version = 7;
	load("wrapper_version7", &w);
	w.version = 2;
	load("wrapper_version2", &w);

	/* the container broken: payload bytes, header size, entry kind */
	char *bad = slurp("basic.fatbin", NULL);
	bad[16 + 80 + 40] ^= 0x55;
	load("fatbin_zstd_corrupt_payload", bad);
	free(bad);
	bad = slurp("basic-plain.fatbin", NULL);
	bad[16 + 2] = 0x33;
	load("fatbin_plain_entry_kind3", bad);
	free(bad);
	bad = slurp("basic-plain.fatbin", NULL);
	bad[4] = 9;
	load("fatbin_version9", bad);
	free(bad);
	bad = slurp("basic-plain.fatbin", NULL);
	bad[16 + 24 + 4] = 100 & 0xff; /* arch 100: a PTX for a newer GPU only */
	load("fatbin_plain_arch100", bad);
	free(bad);

	load("text_garbage", "hello, world\n");
	load("empty", "");
	r = G(cuModuleLoadData(&m, NULL));
	P("launch.load.null_image: %s\n", rn(r));
	r = G(cuModuleLoadData(NULL, ptx));
	P("launch.load.null_module: %s\n", rn(r));

	load_ex("ptx", ptx);
	char *e;
	load_ex("bad_instruction", e = edit(ptx, "ret;", "frobnicate.b32 %r1;\nret;"));
	free(e);
	load_ex("bad_operand", e = edit(ptx, "ret;", "add.s32 %r1, %r2;\nret;"));
	free(e);
	load_ex("version_99", e = edit(ptx, ".version 9.0", ".version 99.0"));
	load("version_99", e);
	free(e);
	load_ex("version_9_9", e = edit(ptx, ".version 9.0", ".version 9.9"));
	free(e);
	load_ex("version_7_0", e = edit(ptx, ".version 9.0", ".version 7.0"));
	free(e);
	load_ex("target_sm_100", sm100);
	load_ex("target_sm_99", e = edit(ptx, ".target sm_90", ".target sm_99"));
	free(e);
	load_ex("target_sm_90a", e = edit(ptx, ".target sm_90", ".target sm_90a"));
	free(e);
	load_ex("target_sm_75", e = edit(ptx, ".target sm_90", ".target sm_75"));
	free(e);
	load_ex("fatbin_sm80", sm80);
	load_ex("text_garbage", "hello, world\n");
	/* an undefined entry: a function called but never defined */
	load_ex("undefined_func", e = edit(ptx, ".extern .func __assertfail", ".extern .func __nothere\n(\n.param .b64 p\n)\n;\n.extern .func __assertfail"));
	free(e);

	/* options: a log buffer of 8 bytes for the error log, size 0, NULL */
	char small[8] = "xxxxxxx";
	CUjit_option o2[2] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *v2[2] = { small, (void *)(uintptr_t)sizeof small };
	e = edit(ptx, "ret;", "frobnicate.b32 %r1;\nret;");
	r = G(cuModuleLoadDataEx(&m, e, 2, o2, v2));
	P("launch.loadex.small_errlog: %s size=%zu text=%s\n", rn(r), (size_t)(uintptr_t)v2[1], oneline(small));
	r = G(cuModuleLoadDataEx(&m, ptx, 2, o2, NULL));
	P("launch.loadex.null_values: %s\n", rn(r));
	if (!r) cuModuleUnload(m);
	r = G(cuModuleLoadDataEx(&m, ptx, 2, NULL, v2));
	P("launch.loadex.null_options: %s\n", rn(r));
	if (!r) cuModuleUnload(m);
	CUjit_option o3[1] = { (CUjit_option)9999 };
	void *v3[1] = { NULL };
	r = G(cuModuleLoadDataEx(&m, ptx, 1, o3, v3));
	P("launch.loadex.unknown_option: %s\n", rn(r));
	if (!r) cuModuleUnload(m);
	r = G(cuModuleLoadDataEx(&m, ptx, 0, NULL, NULL));
	P("launch.loadex.no_options: %s\n", rn(r));
	if (!r) cuModuleUnload(m);
	free(e);

	/* from a file */
	char path[512];
	snprintf(path, sizeof path, "%s/basic.ptx", g_dir);
	r = G(cuModuleLoad(&m, path));
	P("launch.loadfile.ptx: %s\n", rn(r));
	if (!r) cuModuleUnload(m);
	snprintf(path, sizeof path, "%s/basic.fatbin", g_dir);
	r = G(cuModuleLoad(&m, path));
	P("launch.loadfile.fatbin: %s\n", rn(r));
	if (!r) cuModuleUnload(m);
	r = G(cuModuleLoad(&m, "/nonexistent/basic.ptx"));
	P("launch.loadfile.missing: %s\n", rn(r));
	r = G(cuModuleLoad(&m, g_dir));
	P("launch.loadfile.directory: %s\n", rn(r));
	r = G(cuModuleLoad(&m, NULL));
	P("launch.loadfile.null: %s\n", rn(r));
	r = G(cuModuleLoad(&m, "/dev/null"));
	P("launch.loadfile.empty: %s\n", rn(r));
	free(ptx); free(zst); free(lz4); free(plain); free(sm80); free(sm100); free(cubin);
}

static const char *kernels[] = { "saxpy", "transpose32", "blocksum", "localsum", "globals",
				 "illegal", "fails_assert", "traps", "says", "_Z5scaleIdEvPT_S0_" };
#define NK (int)(sizeof kernels / sizeof *kernels)

static void module_entries(CUmodule m)
{
	CUfunction f = NULL;
	CUresult r;
	unsigned int cnt = 0;

	r = G(cuModuleGetFunction(&f, m, "nothere"));
	P("launch.getfunction.unknown: %s\n", rn(r));
	r = G(cuModuleGetFunction(NULL, m, "saxpy"));
	P("launch.getfunction.null_out: %s\n", rn(r));
	r = G(cuModuleGetFunction(&f, NULL, "saxpy"));
	P("launch.getfunction.null_module: %s\n", rn(r));
	r = G(cuModuleGetFunction(&f, m, NULL));
	P("launch.getfunction.null_name: %s\n", rn(r));
	r = G(cuModuleGetFunction(&f, m, "_Z5scaleIdEvPT_S0_"));
	P("launch.getfunction.mangled: %s\n", rn(r));
	r = G(cuModuleGetFunction(&f, m, "scale"));
	P("launch.getfunction.unmangled: %s\n", rn(r));
	r = G(cuModuleGetFunctionCount(&cnt, m));
	P("launch.functioncount: %s n=%u\n", rn(r), cnt);
	r = G(cuModuleGetFunctionCount(NULL, m));
	P("launch.functioncount.null_out: %s\n", rn(r));
	r = G(cuModuleGetFunctionCount(&cnt, NULL));
	P("launch.functioncount.null_module: %s\n", rn(r));
	CUfunction fs[16];
	memset(fs, 0, sizeof fs);
	r = G(cuModuleEnumerateFunctions(fs, 3, m));
	P("launch.enumerate.3: %s set=%d,%d,%d,%d\n", rn(r), !!fs[0], !!fs[1], !!fs[2], !!fs[3]);
	r = G(cuModuleEnumerateFunctions(fs, 16, m));
	P("launch.enumerate.16: %s set10=%d\n", rn(r), !!fs[10]);
	for (int i = 0; i < (int)cnt && i < 16; i++) {
		const char *nm = NULL;
		cuFuncGetName(&nm, fs[i]);
		P("launch.enumerate.%d: %s\n", i, nm ? nm : "(null)");
	}
	r = G(cuModuleEnumerateFunctions(NULL, 3, m));
	P("launch.enumerate.null: %s\n", rn(r));
	r = G(cuModuleEnumerateFunctions(fs, 0, m));
	P("launch.enumerate.zero: %s\n", rn(r));
	CUmoduleLoadingMode mode = (CUmoduleLoadingMode)-1;
	r = G(cuModuleGetLoadingMode(&mode));
	P("launch.loadingmode: %s mode=%d\n", rn(r), (int)mode);
	/* cuModuleGetLoadingMode(NULL) crashes inside the driver (SIGSEGV) */

	/* globals */
	CUdeviceptr d = 0;
	size_t sz = 0;
	const char *gn[] = { "table", "coef", "counter", "nothere", "buf", "$str" };
	for (int i = 0; i < 6; i++) {
		sz = 0;
		r = G(cuModuleGetGlobal(&d, &sz, m, gn[i]));
		P("launch.getglobal.%s: %s size=%zu\n", gn[i], rn(r), sz);
	}
	r = G(cuModuleGetGlobal(NULL, NULL, m, "table"));
	P("launch.getglobal.both_null: %s\n", rn(r));
	r = G(cuModuleGetGlobal(&d, &sz, m, NULL));
	P("launch.getglobal.null_name: %s\n", rn(r));
	r = G(cuModuleGetGlobal(&d, &sz, NULL, "table"));
	P("launch.getglobal.null_module: %s\n", rn(r));
	int tv[4] = { 0 };
	cuModuleGetGlobal(&d, &sz, m, "table");
	r = G(cuMemcpyDtoH(tv, d, sizeof tv));
	P("launch.getglobal.table_read: %s %d %d %d %d\n", rn(r), tv[0], tv[1], tv[2], tv[3]);
	unsigned int mt = 0;
	r = G(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d));
	P("launch.getglobal.table_memtype: %s %u\n", rn(r), mt);
	int ismanaged = -1;
	cuModuleGetGlobal(&d, &sz, m, "counter");
	r = G(cuPointerGetAttribute(&ismanaged, CU_POINTER_ATTRIBUTE_IS_MANAGED, d));
	P("launch.getglobal.counter_managed: %s %d value=%d\n", rn(r), ismanaged, *(int *)(uintptr_t)d);
	cuModuleGetGlobal(&d, &sz, m, "coef");
	r = G(cuPointerGetAttribute(&ismanaged, CU_POINTER_ATTRIBUTE_IS_MANAGED, d));
	P("launch.getglobal.coef_managed: %s %d\n", rn(r), ismanaged);
	CUdeviceptr base = 0;
	size_t range = 0;
	cuModuleGetGlobal(&d, &sz, m, "table");
	r = G(cuMemGetAddressRange(&base, &range, d));
	P("launch.getglobal.table_range: %s base_is_var=%d range_ge_size=%d\n", rn(r), base == d, range >= 16);
}

static void func_entries(CUmodule m)
{
	CUresult r;
	for (int k = 0; k < NK; k++) {
		CUfunction f;
		CK(cuModuleGetFunction(&f, m, kernels[k]));
		for (int a = 0; a <= CU_FUNC_ATTRIBUTE_MAX; a++) {
			int v = -7;
			r = G(cuFuncGetAttribute(&v, (CUfunction_attribute)a, f));
			P("launch.funcattr.%s.%d: %s %d\n", kernels[k], a, rn(r), v);
		}
		CUfunctionLoadingState st = (CUfunctionLoadingState)-1;
		r = G(cuFuncIsLoaded(&st, f));
		P("launch.funcisloaded.%s: %s %d\n", kernels[k], rn(r), (int)st);
	}
	CUfunction f;
	CK(cuModuleGetFunction(&f, m, "saxpy"));
	int v;
	r = G(cuFuncGetAttribute(NULL, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
	P("launch.funcattr.null_out: %s\n", rn(r));
	r = G(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, NULL));
	P("launch.funcattr.null_func: %s\n", rn(r));
	r = G(cuFuncGetAttribute(&v, (CUfunction_attribute)-1, f));
	P("launch.funcattr.minus1: %s\n", rn(r));
	const char *nm = NULL;
	r = G(cuFuncGetName(&nm, f));
	P("launch.funcname: %s %s\n", rn(r), nm ? nm : "(null)");
	r = G(cuFuncGetName(NULL, f));
	P("launch.funcname.null_out: %s\n", rn(r));
	r = G(cuFuncGetName(&nm, NULL));
	P("launch.funcname.null_func: %s\n", rn(r));
	CUmodule mm = NULL;
	r = G(cuFuncGetModule(&mm, f));
	P("launch.funcmodule: %s same=%d\n", rn(r), mm == m);
	r = G(cuFuncGetModule(NULL, f));
	P("launch.funcmodule.null_out: %s\n", rn(r));
	r = G(cuFuncGetModule(&mm, NULL));
	P("launch.funcmodule.null_func: %s\n", rn(r));
	r = G(cuFuncLoad(f));
	P("launch.funcload: %s\n", rn(r));
	r = G(cuFuncLoad(NULL));
	P("launch.funcload.null: %s\n", rn(r));
	r = G(cuFuncIsLoaded(NULL, f));
	P("launch.funcisloaded.null_out: %s\n", rn(r));
	/* settable attributes and their edges */
	static const struct { int a, v; const char *n; } sets[] = {
		{ 8, 0, "maxdyn_0" }, { 8, 1024, "maxdyn_1k" }, { 8, 48 * 1024, "maxdyn_48k" },
		{ 8, 48 * 1024 + 1, "maxdyn_48k1" }, { 8, 227 * 1024, "maxdyn_227k" },
		{ 8, 227 * 1024 + 1, "maxdyn_227k1" }, { 8, 228 * 1024, "maxdyn_228k" },
		{ 8, -1, "maxdyn_minus1" }, { 9, 0, "carveout_0" }, { 9, 50, "carveout_50" },
		{ 9, 100, "carveout_100" }, { 9, 101, "carveout_101" }, { 9, -1, "carveout_minus1" },
		{ 0, 128, "maxthreads" }, { 4, 10, "numregs" }, { 10, 1, "cluster_must" },
		{ 11, 2, "cluster_width" }, { 14, 1, "nonportable_1" }, { 14, 2, "nonportable_2" },
		{ 15, 1, "schedpolicy_1" }, { 15, 3, "schedpolicy_3" }, { 16, 0, "max" },
	};
	for (size_t i = 0; i < sizeof sets / sizeof *sets; i++) {
		r = G(cuFuncSetAttribute(f, (CUfunction_attribute)sets[i].a, sets[i].v));
		int back = -7;
		cuFuncGetAttribute(&back, (CUfunction_attribute)sets[i].a, f);
		P("launch.funcset.%s: %s back=%d\n", sets[i].n, rn(r), back);
	}
	cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 48 * 1024);
	r = G(cuFuncSetAttribute(NULL, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 0));
	P("launch.funcset.null_func: %s\n", rn(r));
	for (int c = 0; c <= 4; c++) {
		r = G(cuFuncSetCacheConfig(f, (CUfunc_cache)c));
		P("launch.cacheconfig.%d: %s\n", c, rn(r));
	}
	r = G(cuFuncSetCacheConfig(NULL, CU_FUNC_CACHE_PREFER_NONE));
	P("launch.cacheconfig.null: %s\n", rn(r));

	/* occupancy */
	static const char *ok[] = { "saxpy", "transpose32", "blocksum", "localsum" };
	static const int bs[] = { 0, 1, 32, 128, 256, 512, 1024, 1025 };
	for (int k = 0; k < 4; k++) {
		CUfunction g;
		CK(cuModuleGetFunction(&g, m, ok[k]));
		for (size_t b = 0; b < sizeof bs / sizeof *bs; b++) {
			int nb = -7;
			r = G(cuOccupancyMaxActiveBlocksPerMultiprocessor(&nb, g, bs[b], 0));
			P("launch.occ.%s.b%d: %s %d\n", ok[k], bs[b], rn(r), nb);
		}
		static const size_t sm[] = { 1024, 48 * 1024, 100 * 1024, 228 * 1024 };
		for (size_t s = 0; s < 4; s++) {
			int nb = -7;
			r = G(cuOccupancyMaxActiveBlocksPerMultiprocessor(&nb, g, 256, sm[s]));
			P("launch.occ.%s.b256.smem%zu: %s %d\n", ok[k], sm[s], rn(r), nb);
		}
		int nb = -7;
		r = G(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&nb, g, 256, 0, CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE));
		P("launch.occflags.%s: %s %d\n", ok[k], rn(r), nb);
		r = G(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&nb, g, 256, 0, 7));
		P("launch.occflags.%s.bad: %s\n", ok[k], rn(r));
		int mg = -7, bsz = -7;
		r = G(cuOccupancyMaxPotentialBlockSize(&mg, &bsz, g, NULL, 0, 0));
		P("launch.potential.%s: %s min_grid=%d block=%d\n", ok[k], rn(r), mg, bsz);
		r = G(cuOccupancyMaxPotentialBlockSize(&mg, &bsz, g, NULL, 4096, 200));
		P("launch.potential.%s.limit200: %s min_grid=%d block=%d\n", ok[k], rn(r), mg, bsz);
		r = G(cuOccupancyMaxPotentialBlockSizeWithFlags(&mg, &bsz, g, NULL, 0, 0, CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE));
		P("launch.potentialflags.%s: %s min_grid=%d block=%d\n", ok[k], rn(r), mg, bsz);
		size_t dyn = 0;
		static const int nbs[][2] = { { 1, 256 }, { 2, 256 }, { 8, 128 }, { 32, 64 }, { 1, 1024 }, { 0, 256 }, { 1, 0 }, { 1, 1025 }, { 100, 32 } };
		for (size_t q = 0; q < sizeof nbs / sizeof *nbs; q++) {
			dyn = 12345;
			r = G(cuOccupancyAvailableDynamicSMemPerBlock(&dyn, g, nbs[q][0], nbs[q][1]));
			P("launch.availsmem.%s.%dx%d: %s %zu\n", ok[k], nbs[q][0], nbs[q][1], rn(r), dyn);
		}
	}
	int nb;
	r = G(cuOccupancyMaxActiveBlocksPerMultiprocessor(NULL, f, 128, 0));
	P("launch.occ.null_out: %s\n", rn(r));
	r = G(cuOccupancyMaxActiveBlocksPerMultiprocessor(&nb, NULL, 128, 0));
	P("launch.occ.null_func: %s\n", rn(r));
	int mg, bsz;
	r = G(cuOccupancyMaxPotentialBlockSize(NULL, &bsz, f, NULL, 0, 0));
	P("launch.potential.null_grid: %s\n", rn(r));
	r = G(cuOccupancyMaxPotentialBlockSize(&mg, NULL, f, NULL, 0, 0));
	P("launch.potential.null_block: %s\n", rn(r));
	size_t dyn;
	r = G(cuOccupancyAvailableDynamicSMemPerBlock(NULL, f, 1, 128));
	P("launch.availsmem.null_out: %s\n", rn(r));
	(void)dyn;
}

static void library_entries(void)
{
	size_t n;
	char *ptx = slurp("basic.ptx", &n);
	char *zst = slurp("basic.fatbin", NULL);
	CUlibrary lib = NULL;
	CUresult r;

	r = G(cuLibraryLoadData(&lib, ptx, NULL, NULL, 0, NULL, NULL, 0));
	P("launch.lib.load_ptx: %s\n", rn(r));
	CUlibrary lib2 = NULL;
	r = G(cuLibraryLoadData(&lib2, zst, NULL, NULL, 0, NULL, NULL, 0));
	P("launch.lib.load_fatbin: %s\n", rn(r));
	if (!r) cuLibraryUnload(lib2);
	r = G(cuLibraryLoadData(NULL, ptx, NULL, NULL, 0, NULL, NULL, 0));
	P("launch.lib.load_null_out: %s\n", rn(r));
	r = G(cuLibraryLoadData(&lib2, NULL, NULL, NULL, 0, NULL, NULL, 0));
	P("launch.lib.load_null_code: %s\n", rn(r));
	r = G(cuLibraryLoadData(&lib2, "hello", NULL, NULL, 0, NULL, NULL, 0));
	P("launch.lib.load_garbage: %s\n", rn(r));
	char path[512];
	snprintf(path, sizeof path, "%s/basic.ptx", g_dir);
	r = G(cuLibraryLoadFromFile(&lib2, path, NULL, NULL, 0, NULL, NULL, 0));
	P("launch.lib.loadfile: %s\n", rn(r));
	if (!r) cuLibraryUnload(lib2);
	r = G(cuLibraryLoadFromFile(&lib2, "/nonexistent.ptx", NULL, NULL, 0, NULL, NULL, 0));
	P("launch.lib.loadfile_missing: %s\n", rn(r));
	CUlibraryOption lo[1] = { CU_LIBRARY_BINARY_IS_PRESERVED };
	void *lv[1] = { (void *)(uintptr_t)1 };
	r = G(cuLibraryLoadData(&lib2, ptx, NULL, NULL, 0, lo, lv, 1));
	P("launch.lib.load_preserved: %s\n", rn(r));
	if (!r) cuLibraryUnload(lib2);
	CUlibraryOption lo2[1] = { (CUlibraryOption)99 };
	r = G(cuLibraryLoadData(&lib2, ptx, NULL, NULL, 0, lo2, lv, 1));
	P("launch.lib.load_badopt: %s\n", rn(r));
	if (!r) cuLibraryUnload(lib2);

	unsigned int cnt = 0;
	r = G(cuLibraryGetKernelCount(&cnt, lib));
	P("launch.lib.kernelcount: %s %u\n", rn(r), cnt);
	CUkernel ks[16];
	memset(ks, 0, sizeof ks);
	r = G(cuLibraryEnumerateKernels(ks, 2, lib));
	P("launch.lib.enumerate2: %s %d %d %d\n", rn(r), !!ks[0], !!ks[1], !!ks[2]);
	r = G(cuLibraryEnumerateKernels(ks, 16, lib));
	P("launch.lib.enumerate16: %s\n", rn(r));
	for (unsigned i = 0; i < cnt && i < 16; i++) {
		const char *nm = NULL;
		cuKernelGetName(&nm, ks[i]);
		P("launch.lib.enumerate.%u: %s\n", i, nm ? nm : "(null)");
	}
	CUkernel k = NULL;
	r = G(cuLibraryGetKernel(&k, lib, "saxpy"));
	P("launch.lib.getkernel: %s\n", rn(r));
	CUkernel k2 = NULL;
	r = G(cuLibraryGetKernel(&k2, lib, "saxpy"));
	P("launch.lib.getkernel_again_same: %s %d\n", rn(r), k == k2);
	r = G(cuLibraryGetKernel(&k2, lib, "nothere"));
	P("launch.lib.getkernel_unknown: %s\n", rn(r));
	r = G(cuLibraryGetKernel(NULL, lib, "saxpy"));
	P("launch.lib.getkernel_null_out: %s\n", rn(r));
	r = G(cuLibraryGetKernel(&k2, NULL, "saxpy"));
	P("launch.lib.getkernel_null_lib: %s\n", rn(r));
	r = G(cuLibraryGetKernel(&k2, lib, NULL));
	P("launch.lib.getkernel_null_name: %s\n", rn(r));
	CUmodule mod = NULL;
	r = G(cuLibraryGetModule(&mod, lib));
	P("launch.lib.getmodule: %s %d\n", rn(r), mod != NULL);
	CUdeviceptr d = 0;
	size_t sz = 0;
	r = G(cuLibraryGetGlobal(&d, &sz, lib, "table"));
	P("launch.lib.getglobal: %s %zu\n", rn(r), sz);
	r = G(cuLibraryGetGlobal(&d, &sz, lib, "counter"));
	P("launch.lib.getglobal_managed: %s %zu\n", rn(r), sz);
	r = G(cuLibraryGetGlobal(&d, &sz, lib, "nothere"));
	P("launch.lib.getglobal_unknown: %s\n", rn(r));
	r = G(cuLibraryGetManaged(&d, &sz, lib, "counter"));
	P("launch.lib.getmanaged: %s %zu\n", rn(r), sz);
	r = G(cuLibraryGetManaged(&d, &sz, lib, "table"));
	P("launch.lib.getmanaged_notmanaged: %s\n", rn(r));
	r = G(cuLibraryGetManaged(&d, &sz, lib, "nothere"));
	P("launch.lib.getmanaged_unknown: %s\n", rn(r));
	void *fp = (void *)1;
	r = G(cuLibraryGetUnifiedFunction(&fp, lib, "saxpy"));
	P("launch.lib.unifiedfunction: %s null=%d\n", rn(r), fp == NULL);
	r = G(cuLibraryGetUnifiedFunction(&fp, lib, "nothere"));
	P("launch.lib.unifiedfunction_unknown: %s\n", rn(r));
	CUfunction f = NULL;
	r = G(cuKernelGetFunction(&f, k));
	P("launch.kernel.getfunction: %s\n", rn(r));
	r = G(cuKernelGetFunction(NULL, k));
	P("launch.kernel.getfunction_null_out: %s\n", rn(r));
	r = G(cuKernelGetFunction(&f, NULL));
	P("launch.kernel.getfunction_null: %s\n", rn(r));
	CUmodule fm = NULL;
	cuFuncGetModule(&fm, f);
	P("launch.kernel.function_module_is_library_module: %d\n", fm == mod);
	const char *nm = NULL;
	r = G(cuKernelGetName(&nm, k));
	P("launch.kernel.name: %s %s\n", rn(r), nm ? nm : "(null)");
	r = G(cuKernelGetName(NULL, k));
	P("launch.kernel.name_null_out: %s\n", rn(r));
	CUlibrary kl = NULL;
	r = G(cuKernelGetLibrary(&kl, k));
	P("launch.kernel.library: %s same=%d\n", rn(r), kl == lib);
	int v = -7;
	for (int a = 0; a <= CU_FUNC_ATTRIBUTE_MAX; a++) {
		v = -7;
		r = G(cuKernelGetAttribute(&v, (CUfunction_attribute)a, k, g_dev[0]));
		P("launch.kernel.attr.%d: %s %d\n", a, rn(r), v);
	}
	r = G(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, k, 99));
	P("launch.kernel.attr_dev99: %s\n", rn(r));
	r = G(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 64 * 1024, k, g_dev[0]));
	cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, k, g_dev[0]);
	P("launch.kernel.setattr_64k: %s back=%d\n", rn(r), v);
	int fv = -7;
	cuFuncGetAttribute(&fv, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f);
	P("launch.kernel.setattr_seen_by_function: %d\n", fv);
	r = G(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 300 * 1024, k, g_dev[0]));
	P("launch.kernel.setattr_300k: %s\n", rn(r));
	r = G(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_NUM_REGS, 10, k, g_dev[0]));
	P("launch.kernel.setattr_numregs: %s\n", rn(r));
	r = G(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1024, k, 99));
	P("launch.kernel.setattr_dev99: %s\n", rn(r));

	/* launch through the kernel handle */
	float *hx = malloc(256 * 4), *hy = malloc(256 * 4);
	for (int i = 0; i < 256; i++) { hx[i] = i; hy[i] = 1; }
	CUdeviceptr dx, dy;
	CK(cuMemAlloc(&dx, 1024));
	CK(cuMemAlloc(&dy, 1024));
	CK(cuMemcpyHtoD(dx, hx, 1024));
	CK(cuMemcpyHtoD(dy, hy, 1024));
	int nn = 256;
	float a = 2;
	void *args[] = { &nn, &a, &dx, &dy };
	r = G(cuLaunchKernel((CUfunction)k, 2, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
	P("launch.kernel.launch_by_kernel: %s\n", rn(r));
	CK(cuCtxSynchronize());
	CK(cuMemcpyDtoH(hy, dy, 1024));
	P("launch.kernel.launch_by_kernel.result: y[0]=%g y[255]=%g\n", hy[0], hy[255]);
	cuMemFree(dx);
	cuMemFree(dy);
	free(hx); free(hy);

	r = G(cuLibraryUnload(lib));
	P("launch.lib.unload: %s\n", rn(r));
	/* cuLibraryUnload of an unloaded library crashes inside the driver */
	r = G(cuLibraryUnload(NULL));
	P("launch.lib.unload_null: %s\n", rn(r));
	free(ptx); free(zst);
}

struct cfg {
	const char *name;
	unsigned gx, gy, gz, bx, by, bz, smem;
	int nullparams;
};

static void launches(CUmodule m)
{
	CUfunction f, fb;
	CK(cuModuleGetFunction(&f, m, "saxpy"));
	CK(cuModuleGetFunction(&fb, m, "localsum"));
	CUdeviceptr dx, dy;
	CK(cuMemAlloc(&dx, 4 << 20));
	CK(cuMemAlloc(&dy, 4 << 20));
	CK(cuMemsetD8(dx, 0, 4 << 20));
	CK(cuMemsetD8(dy, 0, 4 << 20));
	int n = 0; /* no thread touches memory */
	float a = 2;
	void *args[] = { &n, &a, &dx, &dy };
	CUresult r;
	static const struct cfg c[] = {
		{ "ok", 1, 1, 1, 32, 1, 1, 0, 0 },
		{ "grid_x0", 0, 1, 1, 32, 1, 1, 0, 0 },
		{ "grid_y0", 1, 0, 1, 32, 1, 1, 0, 0 },
		{ "grid_z0", 1, 1, 0, 32, 1, 1, 0, 0 },
		{ "block_x0", 1, 1, 1, 0, 1, 1, 0, 0 },
		{ "block_z0", 1, 1, 1, 32, 1, 0, 0, 0 },
		{ "grid_x_max", 0x7fffffff, 1, 1, 1, 1, 1, 0, 0 },
		{ "grid_x_max1", 0x80000000u, 1, 1, 1, 1, 1, 0, 0 },
		{ "grid_y_65535", 1, 65535, 1, 1, 1, 1, 0, 0 },
		{ "grid_y_65536", 1, 65536, 1, 1, 1, 1, 0, 0 },
		{ "grid_z_65536", 1, 1, 65536, 1, 1, 1, 0, 0 },
		{ "block_x_1024", 1, 1, 1, 1024, 1, 1, 0, 0 },
		{ "block_x_1025", 1, 1, 1, 1025, 1, 1, 0, 0 },
		{ "block_y_1025", 1, 1, 1, 1, 1025, 1, 0, 0 },
		{ "block_z_64", 1, 1, 1, 1, 1, 64, 0, 0 },
		{ "block_z_65", 1, 1, 1, 1, 1, 65, 0, 0 },
		{ "block_prod_1056", 1, 1, 1, 33, 32, 1, 0, 0 },
		{ "smem_48k", 1, 1, 1, 32, 1, 1, 48 * 1024, 0 },
		{ "smem_48k1", 1, 1, 1, 32, 1, 1, 48 * 1024 + 1, 0 },
		{ "smem_1m", 1, 1, 1, 32, 1, 1, 1 << 20, 0 },
		{ "null_params", 1, 1, 1, 32, 1, 1, 0, 1 },
		{ "grid0_block1025", 0, 1, 1, 1025, 1, 1, 0, 0 },
		{ "block1025_smem1m", 1, 1, 1, 1025, 1, 1, 1 << 20, 0 },
		{ "grid0_smem1m", 0, 1, 1, 32, 1, 1, 1 << 20, 0 },
		{ "blockz65_gridy65536", 1, 65536, 1, 1, 1, 65, 0, 0 },
		{ "gridy65536_blockx1025", 1, 65536, 1, 1025, 1, 1, 0, 0 },
		{ "block0_grid0", 0, 1, 1, 0, 1, 1, 0, 0 },
		{ "null_params_grid0", 0, 1, 1, 32, 1, 1, 0, 1 },
		{ "null_params_smem1m", 1, 1, 1, 32, 1, 1, 1 << 20, 1 },
	};
	for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
		r = cuLaunchKernel(f, c[i].gx, c[i].gy, c[i].gz, c[i].bx, c[i].by, c[i].bz, c[i].smem,
				   NULL, c[i].nullparams ? NULL : args, NULL);
		CUresult s = cuCtxSynchronize();
		P("launch.cfg.%s: %s sync=%s\n", c[i].name, rn(r), en(s));
	}
	/* launch bounds: localsum has __launch_bounds__(128, 4) */
	int idx[256] = { 0 };
	CUdeviceptr di;
	CK(cuMemAlloc(&di, sizeof idx));
	CK(cuMemcpyHtoD(di, idx, sizeof idx));
	void *largs[] = { &di, &dy };
	r = G(cuLaunchKernel(fb, 1, 1, 1, 128, 1, 1, 0, NULL, largs, NULL));
	P("launch.cfg.bounds_128: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	r = G(cuLaunchKernel(fb, 1, 1, 1, 129, 1, 1, 0, NULL, largs, NULL));
	P("launch.cfg.bounds_129: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	r = G(cuLaunchKernel(NULL, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL));
	P("launch.cfg.null_func: %s\n", rn(r));
	/* smem opt-in */
	cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 100 * 1024);
	r = G(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 100 * 1024, NULL, args, NULL));
	P("launch.cfg.smem_100k_optin: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	r = G(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 100 * 1024 + 1, NULL, args, NULL));
	P("launch.cfg.smem_100k1_optin: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 48 * 1024);

	/* the extra buffer */
	struct __attribute__((packed, aligned(8))) { int n; float a; CUdeviceptr x, y; } pb = { 0, 2, dx, dy };
	size_t pbs = sizeof pb;
	void *extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &pb, CU_LAUNCH_PARAM_BUFFER_SIZE, &pbs, CU_LAUNCH_PARAM_END };
	r = G(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra));
	P("launch.extra.ok: %s sync=%s size=%zu\n", rn(r), en(cuCtxSynchronize()), pbs);
	r = G(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, args, extra));
	P("launch.extra.both: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	size_t small = 8;
	void *extra_small[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &pb, CU_LAUNCH_PARAM_BUFFER_SIZE, &small, CU_LAUNCH_PARAM_END };
	r = G(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra_small));
	P("launch.extra.small: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	size_t big = 64;
	void *extra_big[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &pb, CU_LAUNCH_PARAM_BUFFER_SIZE, &big, CU_LAUNCH_PARAM_END };
	r = G(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra_big));
	P("launch.extra.big: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	void *extra_nosize[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &pb, CU_LAUNCH_PARAM_END };
	r = G(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra_nosize));
	P("launch.extra.nosize: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	void *extra_noptr[] = { CU_LAUNCH_PARAM_BUFFER_SIZE, &pbs, CU_LAUNCH_PARAM_END };
	r = G(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra_noptr));
	P("launch.extra.noptr: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	void *extra_bad[] = { (void *)0x77, &pbs, CU_LAUNCH_PARAM_END };
	r = G(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra_bad));
	P("launch.extra.unknown_key: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	void *extra_empty[] = { CU_LAUNCH_PARAM_END };
	r = G(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra_empty));
	P("launch.extra.empty: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	/* a stream of another context */
	CUstream s1 = NULL;
	if (g_ndev > 1) {
		CK(cuCtxSetCurrent(g_ctx[1]));
		CK(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
		CK(cuCtxSetCurrent(g_ctx[0]));
		r = G(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s1, args, NULL));
		P("launch.cfg.other_ctx_stream: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
		CK(cuCtxSetCurrent(g_ctx[1]));
		r = G(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s1, args, NULL));
		P("launch.cfg.other_ctx_current: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
		cuStreamDestroy(s1);
		CK(cuCtxSetCurrent(g_ctx[0]));
	}

	/* cooperative */
	int sms = 0, coop = 0, nb = 0;
	cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, g_dev[0]);
	cuDeviceGetAttribute(&coop, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, g_dev[0]);
	cuOccupancyMaxActiveBlocksPerMultiprocessor(&nb, f, 1024, 0);
	P("launch.coop.device: sms=%d coop=%d blocks_per_sm_1024=%d\n", sms, coop, nb);
	r = G(cuLaunchCooperativeKernel(f, sms * nb, 1, 1, 1024, 1, 1, 0, NULL, args));
	P("launch.coop.full: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	r = G(cuLaunchCooperativeKernel(f, sms * nb + 1, 1, 1, 1024, 1, 1, 0, NULL, args));
	P("launch.coop.one_over: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	r = G(cuLaunchCooperativeKernel(f, 0, 1, 1, 1024, 1, 1, 0, NULL, args));
	P("launch.coop.grid0: %s\n", rn(r));
	r = G(cuLaunchCooperativeKernel(f, 1, 1, 1, 1025, 1, 1, 0, NULL, args));
	P("launch.coop.block1025: %s\n", rn(r));
	r = G(cuLaunchCooperativeKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL));
	P("launch.coop.null_params: %s\n", rn(r));

	/* cuLaunchKernelEx */
	CUlaunchAttribute at[4];
	CUlaunchConfig cf;
	memset(&cf, 0, sizeof cf);
	memset(at, 0, sizeof at);
	cf.gridDimX = 2; cf.gridDimY = 1; cf.gridDimZ = 1;
	cf.blockDimX = 64; cf.blockDimY = 1; cf.blockDimZ = 1;
	cf.attrs = at;
	cf.numAttrs = 0;
	r = G(cuLaunchKernelEx(&cf, f, args, NULL));
	P("launch.ex.plain: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	r = G(cuLaunchKernelEx(NULL, f, args, NULL));
	P("launch.ex.null_config: %s\n", rn(r));
	cf.numAttrs = 1;
	cf.attrs = NULL;
	r = G(cuLaunchKernelEx(&cf, f, args, NULL));
	P("launch.ex.null_attrs: %s\n", rn(r));
	cf.attrs = at;
	at[0].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
	at[0].value.cooperative = 1;
	r = G(cuLaunchKernelEx(&cf, f, args, NULL));
	P("launch.ex.cooperative: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	cf.gridDimX = sms * nb * 2; cf.blockDimX = 1024;
	r = G(cuLaunchKernelEx(&cf, f, args, NULL));
	P("launch.ex.cooperative_too_large: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	cf.gridDimX = 2; cf.blockDimX = 64;
	at[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
	static const unsigned cl[][3] = { { 1, 1, 1 }, { 2, 1, 1 }, { 3, 1, 1 }, { 8, 1, 1 }, { 16, 1, 1 }, { 0, 1, 1 }, { 2, 2, 1 } };
	for (size_t i = 0; i < sizeof cl / sizeof *cl; i++) {
		at[0].value.clusterDim.x = cl[i][0];
		at[0].value.clusterDim.y = cl[i][1];
		at[0].value.clusterDim.z = cl[i][2];
		cf.gridDimX = 48; cf.gridDimY = 2;
		r = G(cuLaunchKernelEx(&cf, f, args, NULL));
		P("launch.ex.cluster_%ux%ux%u: %s sync=%s\n", cl[i][0], cl[i][1], cl[i][2], rn(r), en(cuCtxSynchronize()));
	}
	cf.gridDimY = 1;
	int ncl = -7;
	at[0].value.clusterDim.x = 2; at[0].value.clusterDim.y = 1; at[0].value.clusterDim.z = 1;
	cf.gridDimX = 64; cf.blockDimX = 256;
	r = G(cuOccupancyMaxActiveClusters(&ncl, f, &cf));
	P("launch.ex.maxactiveclusters_2: %s %d\n", rn(r), ncl);
	int csz = -7;
	r = G(cuOccupancyMaxPotentialClusterSize(&csz, f, &cf));
	P("launch.ex.maxpotentialcluster: %s %d\n", rn(r), csz);
	cf.gridDimX = 2; cf.blockDimX = 64;
	at[0].id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
	at[0].value.priority = 0;
	r = G(cuLaunchKernelEx(&cf, f, args, NULL));
	P("launch.ex.priority: %s\n", rn(r));
	at[0].id = (CUlaunchAttributeID)99;
	r = G(cuLaunchKernelEx(&cf, f, args, NULL));
	P("launch.ex.unknown_attr: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	at[0].id = CU_LAUNCH_ATTRIBUTE_IGNORE;
	r = G(cuLaunchKernelEx(&cf, f, args, NULL));
	P("launch.ex.ignore: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	at[0].id = CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY;
	r = G(cuLaunchKernelEx(&cf, f, args, NULL));
	P("launch.ex.sync_policy_stream_only: %s sync=%s\n", rn(r), en(cuCtxSynchronize()));
	cf.gridDimX = 0;
	at[0].id = CU_LAUNCH_ATTRIBUTE_IGNORE;
	r = G(cuLaunchKernelEx(&cf, f, args, NULL));
	P("launch.ex.grid0: %s\n", rn(r));

	/* a real saxpy, and the kernels' own results */
	enum { N = 1 << 20 };
	float *hx = malloc(N * 4), *hy = malloc(N * 4);
	for (int i = 0; i < N; i++) { hx[i] = (float)i; hy[i] = 1.0f; }
	CK(cuMemcpyHtoD(dx, hx, N * 4));
	CK(cuMemcpyHtoD(dy, hy, N * 4));
	n = N;
	r = G(cuLaunchKernel(f, N / 256, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
	CK(cuMemcpyDtoH(hy, dy, N * 4));
	P("launch.saxpy: %s y[0]=%g y[12345]=%g y[N-1]=%g\n", rn(r), hy[0], hy[12345], hy[N - 1]);
	/* on managed memory */
	CUdeviceptr mx, my;
	CK(cuMemAllocManaged(&mx, N * 4, CU_MEM_ATTACH_GLOBAL));
	CK(cuMemAllocManaged(&my, N * 4, CU_MEM_ATTACH_GLOBAL));
	for (int i = 0; i < N; i++) { ((float *)mx)[i] = (float)i; ((float *)my)[i] = 1.0f; }
	void *margs[] = { &n, &a, &mx, &my };
	r = G(cuLaunchKernel(f, N / 256, 1, 1, 256, 1, 1, 0, NULL, margs, NULL));
	CUresult s = cuCtxSynchronize();
	P("launch.saxpy_managed: %s sync=%s y[7]=%g y[N-1]=%g\n", rn(r), en(s), ((float *)my)[7], ((float *)my)[N - 1]);
	cuMemFree(mx); cuMemFree(my);
	/* the globals kernel reads the module's data and bumps counter */
	CUfunction fg;
	CK(cuModuleGetFunction(&fg, m, "globals"));
	void *gargs[] = { &dx };
	r = G(cuLaunchKernel(fg, 1, 1, 1, 4, 1, 1, 0, NULL, gargs, NULL));
	int out = 0;
	CK(cuMemcpyDtoH(&out, dx, 4));
	CUdeviceptr dc;
	size_t szc;
	CK(cuModuleGetGlobal(&dc, &szc, m, "counter"));
	P("launch.globals: %s out=%d counter=%d\n", rn(r), out, *(int *)(uintptr_t)dc);
	/* transpose and blocksum */
	float t[1024], tt[1024];
	for (int i = 0; i < 1024; i++) t[i] = (float)i;
	CK(cuMemcpyHtoD(dx, t, sizeof t));
	CUfunction ft, fs;
	CK(cuModuleGetFunction(&ft, m, "transpose32"));
	void *targs[] = { &dx, &dy };
	r = G(cuLaunchKernel(ft, 1, 1, 1, 32, 32, 1, 0, NULL, targs, NULL));
	CK(cuMemcpyDtoH(tt, dy, sizeof tt));
	P("launch.transpose32: %s out[1]=%g out[32]=%g\n", rn(r), tt[1], tt[32]);
	int iv[512], ov[2];
	for (int i = 0; i < 512; i++) iv[i] = i;
	CK(cuMemcpyHtoD(dx, iv, sizeof iv));
	CK(cuModuleGetFunction(&fs, m, "blocksum"));
	r = G(cuLaunchKernel(fs, 2, 1, 1, 256, 1, 1, 256 * 4, NULL, targs, NULL));
	CK(cuMemcpyDtoH(ov, dy, sizeof ov));
	P("launch.blocksum: %s %d %d\n", rn(r), ov[0], ov[1]);
	/* printf: output order of a small grid */
	CUfunction fp;
	CK(cuModuleGetFunction(&fp, m, "says"));
	int v = 5;
	void *pargs[] = { &v };
	r = G(cuLaunchKernel(fp, 2, 1, 1, 2, 1, 1, 0, NULL, pargs, NULL));
	P("launch.printf.launched: %s\n", rn(r));
	CK(cuCtxSynchronize());
	P("launch.printf.synced: ok\n");
	cuMemFree(dx); cuMemFree(dy); cuMemFree(di);
	free(hx); free(hy);
}

/* one failing kernel, then what the context answers */
static int risky(const char *name)
{
	CUmodule m;
	CUfunction f;
	CUresult r;
	size_t n;
	setup("launch");
	char *ptx = slurp("basic.ptx", &n);
	CK(cuModuleLoadData(&m, ptx));
	static char label[128];
	snprintf(label, sizeof label, "launch.risky.%s", name);
	CASE(label);
	if (!strcmp(name, "illegal")) {
		CK(cuModuleGetFunction(&f, m, "illegal"));
		CUdeviceptr p = 0x10;
		void *args[] = { &p };
		r = G(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL));
	} else if (!strcmp(name, "assert")) {
		CK(cuModuleGetFunction(&f, m, "fails_assert"));
		int v = 3;
		void *args[] = { &v };
		r = G(cuLaunchKernel(f, 1, 1, 1, 2, 1, 1, 0, NULL, args, NULL));
	} else if (!strcmp(name, "trap")) {
		CK(cuModuleGetFunction(&f, m, "traps"));
		r = G(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
	} else {
		P("%s: unknown case\n", label);
		return 2;
	}
	P("%s.launch: %s\n", label, rn(r));
	P("%s.sync: %s\n", label, en(cuCtxSynchronize()));
	P("%s.sync_again: %s\n", label, en(cuCtxSynchronize()));
	CUdeviceptr d;
	P("%s.memalloc_after: %s\n", label, en(cuMemAlloc(&d, 4096)));
	CUmodule m2;
	P("%s.moduleload_after: %s\n", label, en(cuModuleLoadData(&m2, ptx)));
	P("%s.getfunction_after: %s\n", label, en(cuModuleGetFunction(&f, m, "saxpy")));
	P("%s.launch_after: %s\n", label, en(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL)));
	P("%s.getlasterror_name: %s\n", label, en(cuCtxGetCurrent(&(CUcontext){ 0 })));
	P("%s.unload_after: %s\n", label, en(cuModuleUnload(m)));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 3 && !strcmp(argv[1], "risky")) {
		g_dir = argv[3];
		return risky(argv[2]);
	}
	if (argc < 2) { fprintf(stderr, "usage: launch DIR | launch risky NAME DIR\n"); return 2; }
	g_dir = argv[1];
	/* before cuInit */
	CUmodule m;
	P("launch.load_before_init: %s\n", en(cuModuleLoadData(&m, "x")));
	setup("launch");
	images();
	size_t n;
	char *ptx = slurp("basic.ptx", &n);
	CK(cuModuleLoadData(&m, ptx));
	module_entries(m);
	func_entries(m);
	library_entries();
	launches(m);
	CUresult r = cuModuleUnload(m);
	P("launch.unload: %s\n", rn(r));
	r = G(cuModuleUnload(m));
	P("launch.unload_again: %s\n", rn(r));
	r = G(cuModuleUnload(NULL));
	P("launch.unload_null: %s\n", rn(r));
	/* no current context */
	cuCtxSetCurrent(NULL);
	P("launch.load_no_ctx: %s\n", en(cuModuleLoadData(&m, ptx)));
	free(ptx);
	teardown("launch");
	return 0;
}
