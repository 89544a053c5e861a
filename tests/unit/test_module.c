/*
 * test_module.c - modules as the driver loads them: nvcc's images of
 * tests/unit/kernels/basic.cu (PTX, fatbins, machine code, PTX for a newer
 * GPU), broken PTX and its JIT logs, the module and function entries with
 * their errors in the real driver's order (probes/results/launch.txt),
 * module variables as allocations the model knows, and what unloading
 * gives back. A refused load leaves nothing behind.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "kernel_file.h"

static char *slurp(const char *name)
{
	return kernel_file(name, NULL);
}

static char *path_of(const char *name)
{
	static char path[1024];
	const char *src = getenv("top_srcdir");

	snprintf(path, sizeof path, "%s/tests/unit/kernels/%s",
		 src ? src : ".", name);
	return path;
}

/* The PTX with the first `from` replaced by `to`. */
static char *edit(const char *ptx, const char *from, const char *to)
{
	const char *at = strstr(ptx, from);
	char *o;

	if (!at || asprintf(&o, "%.*s%s%s", (int)(at - ptx), ptx, to,
			    at + strlen(from)) < 0) {
		printf("Bail out! no %s in the PTX\n", from);
		exit(1);
	}
	return o;
}

static size_t free_bytes(void)
{
	size_t fr = 0, total = 0;

	cuMemGetInfo(&fr, &total);
	return fr;
}

/* Loads img and unloads it at once: the CUresult of the load. */
static CUresult try_load(const void *img)
{
	CUmodule m = NULL;
	CUresult r = cuModuleLoadData(&m, img);

	if (r == CUDA_SUCCESS)
		cuModuleUnload(m);
	return r;
}

static void test_images(const char *ptx)
{
	char *zst = slurp("basic.fatbin"), *lz4 = slurp("basic-lz4.fatbin");
	char *plain = slurp("basic-plain.fatbin");
	char *sm80 = slurp("basic-sm80.fatbin");
	char *sm100 = slurp("basic-sm100.ptx");
	char *cubin = slurp("basic-sm90.cubin");
	struct {
		uint32_t magic, version;
		const void *data, *rest;
	} w = { 0x466243b1, 1, zst, NULL };
	CUmodule m;
	size_t before = free_bytes();

	is_res(try_load(ptx), CUDA_SUCCESS, "PTX text loads");
	is_res(try_load(zst), CUDA_SUCCESS, "a Zstandard fatbin loads");
	is_res(try_load(lz4), CUDA_SUCCESS, "an LZ4 fatbin loads");
	is_res(try_load(plain), CUDA_SUCCESS, "a fatbin of plain PTX loads");
	is_res(try_load(sm80), CUDA_ERROR_NO_BINARY_FOR_GPU,
	       "sm_80 machine code only: NO_BINARY_FOR_GPU");
	is_res(try_load(sm100), CUDA_ERROR_INVALID_PTX,
	       "PTX text for sm_100 on sm_90: INVALID_PTX");
	is_res(try_load(cubin), CUDA_ERROR_NO_BINARY_FOR_GPU,
	       "an sm_90 cubin: NO_BINARY_FOR_GPU (machine code never runs "
	       "here; the device loads it)");
	is_res(try_load(&w), CUDA_ERROR_INVALID_IMAGE,
	       "the wrapper nvcc registers: INVALID_IMAGE");
	is_res(cuModuleLoadFatBinary(&m, &w), CUDA_ERROR_INVALID_IMAGE,
	       "cuModuleLoadFatBinary of the wrapper: INVALID_IMAGE");
	is_res(cuModuleLoadFatBinary(&m, zst), CUDA_SUCCESS,
	       "cuModuleLoadFatBinary of a container");
	cuModuleUnload(m);
	is_res(cuModuleLoadFatBinary(&m, ptx), CUDA_SUCCESS,
	       "cuModuleLoadFatBinary of PTX text");
	cuModuleUnload(m);
	is_res(cuModuleLoadFatBinary(NULL, zst), CUDA_ERROR_INVALID_VALUE,
	       "cuModuleLoadFatBinary(NULL module): INVALID_VALUE");
	is_res(try_load("hello, world\n"), CUDA_ERROR_INVALID_IMAGE,
	       "text that is no image: INVALID_IMAGE");
	is_res(try_load(""), CUDA_ERROR_INVALID_IMAGE,
	       "an empty string: INVALID_IMAGE");
	is_res(cuModuleLoadData(&m, NULL), CUDA_ERROR_INVALID_VALUE,
	       "a NULL image: INVALID_VALUE");
	is_res(cuModuleLoadData(NULL, ptx), CUDA_ERROR_INVALID_VALUE,
	       "a NULL module: INVALID_VALUE");
	zst[16 + 80 + 40] ^= 0x55;
	is_res(try_load(zst), CUDA_ERROR_UNKNOWN,
	       "a payload that does not decompress: UNKNOWN, as the driver");
	ok(free_bytes() == before,
	   "loads and unloads leave the device's memory as it was");
	free(zst);
	free(lz4);
	free(plain);
	free(sm80);
	free(sm100);
	free(cubin);
}

/* cuModuleLoadDataEx with both logs, verbose, and the wall time. */
static CUresult load_ex(const char *img, char *err, size_t *err_size,
			char *info, size_t *info_size, float *wall)
{
	CUjit_option o[6] = { CU_JIT_INFO_LOG_BUFFER,
			      CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
			      CU_JIT_ERROR_LOG_BUFFER,
			      CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
			      CU_JIT_WALL_TIME, CU_JIT_LOG_VERBOSE };
	void *v[6] = { info, (void *)(uintptr_t)512, err,
		       (void *)(uintptr_t)512, NULL, (void *)(uintptr_t)1 };
	CUmodule m;
	CUresult r;

	memset(err, 0, 512);
	memset(info, 0, 512);
	memcpy(&v[4], &(float){ -1.0f }, sizeof(float));
	r = cuModuleLoadDataEx(&m, img, 6, o, v);
	*info_size = (size_t)(uintptr_t)v[1];
	*err_size = (size_t)(uintptr_t)v[3];
	memcpy(wall, &v[4], sizeof *wall);
	if (r == CUDA_SUCCESS)
		cuModuleUnload(m);
	return r;
}

static void test_jit(const char *ptx)
{
	char err[512], info[512], small[8] = "xxxxxxx", *e;
	size_t es, is;
	float wall;
	CUmodule m;
	size_t before = free_bytes();
	CUjit_option o2[2] = { CU_JIT_ERROR_LOG_BUFFER,
			       CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *v2[2] = { small, (void *)(uintptr_t)sizeof small };
	CUjit_option bad[1] = { (CUjit_option)9999 };
	void *bv[1] = { NULL };

	is_res(load_ex(ptx, err, &es, info, &is, &wall), CUDA_SUCCESS,
	       "cuModuleLoadDataEx loads with logs asked for");
	ok(es == 0 && err[0] == '\0', "no error log, its size 0");
	ok(is == strlen(info) + 1 && strstr(info, "10 kernels"),
	   "the verbose info log says what loaded: %s", info);
	ok(wall >= 0.0f, "the wall time is answered (%.3f ms)", wall);
	e = edit(ptx, "ret;", "frobnicate.b32 %r1;\nret;");
	is_res(load_ex(e, err, &es, info, &is, &wall), CUDA_ERROR_INVALID_PTX,
	       "an unknown instruction: INVALID_PTX");
	ok(strstr(err, "line 74") && strstr(err, "frobnicate"),
	   "the error log names the line and the instruction: %s", err);
	ok(es == strlen(err) + 1 && is == 0,
	   "its size is what was written; no info log");
	is_res(cuModuleLoadDataEx(&m, e, 2, o2, v2), CUDA_ERROR_INVALID_PTX,
	       "with an 8-byte error log");
	ok((size_t)(uintptr_t)v2[1] == 8 && strlen(small) == 7,
	   "the log is cut to fit, NUL ended: %s", small);
	free(e);
	e = edit(ptx, ".version 9.0", ".version 99.0");
	is_res(load_ex(e, err, &es, info, &is, &wall),
	       CUDA_ERROR_UNSUPPORTED_PTX_VERSION,
	       ".version 99.0: UNSUPPORTED_PTX_VERSION");
	free(e);
	e = edit(ptx, ".version 9.0", ".version 9.9");
	is_res(load_ex(e, err, &es, info, &is, &wall),
	       CUDA_ERROR_UNSUPPORTED_PTX_VERSION,
	       ".version 9.9: UNSUPPORTED_PTX_VERSION");
	free(e);
	e = edit(ptx, ".target sm_90", ".target sm_75");
	is_res(load_ex(e, err, &es, info, &is, &wall), CUDA_SUCCESS,
	       ".target sm_75 runs on sm_90");
	free(e);
	is_res(cuModuleLoadDataEx(&m, ptx, 2, o2, NULL),
	       CUDA_ERROR_INVALID_VALUE, "options without values: "
	       "INVALID_VALUE");
	is_res(cuModuleLoadDataEx(&m, ptx, 2, NULL, v2),
	       CUDA_ERROR_INVALID_VALUE, "values without options: "
	       "INVALID_VALUE");
	is_res(cuModuleLoadDataEx(&m, ptx, 1, bad, bv),
	       CUDA_ERROR_INVALID_VALUE, "option 9999: INVALID_VALUE");
	is_res(cuModuleLoadDataEx(&m, ptx, 0, NULL, NULL), CUDA_SUCCESS,
	       "no options at all");
	cuModuleUnload(m);
	ok(free_bytes() == before, "refused loads leave no memory behind");
}

static void test_files(void)
{
	CUmodule m;

	is_res(cuModuleLoad(&m, path_of("basic.ptx")), CUDA_SUCCESS,
	       "cuModuleLoad of a PTX file");
	cuModuleUnload(m);
	is_res(cuModuleLoad(&m, path_of("basic.fatbin")), CUDA_SUCCESS,
	       "cuModuleLoad of a fatbin file");
	cuModuleUnload(m);
	is_res(cuModuleLoad(&m, "/nonexistent/basic.ptx"),
	       CUDA_ERROR_FILE_NOT_FOUND, "a missing file: FILE_NOT_FOUND");
	is_res(cuModuleLoad(&m, path_of("")), CUDA_ERROR_OUT_OF_MEMORY,
	       "a directory: OUT_OF_MEMORY, as the driver answers");
	is_res(cuModuleLoad(&m, NULL), CUDA_ERROR_INVALID_VALUE,
	       "a NULL name: INVALID_VALUE");
	is_res(cuModuleLoad(&m, "/dev/null"), CUDA_ERROR_INVALID_IMAGE,
	       "an empty file: INVALID_IMAGE");
}

static void test_functions_listed(CUmodule m)
{
	static const char *names[] = { "saxpy", "transpose32", "blocksum",
				       "localsum", "globals", "illegal",
				       "fails_assert", "traps", "says",
				       "_Z5scaleIdEvPT_S0_" };
	CUfunction f, fs[16];
	CUmoduleLoadingMode mode = 0;
	unsigned n = 0, i, same = 0;
	const char *nm;

	is_res(cuModuleGetFunction(&f, m, "nothere"), CUDA_ERROR_NOT_FOUND,
	       "an unknown kernel: NOT_FOUND");
	is_res(cuModuleGetFunction(NULL, m, "saxpy"), CUDA_ERROR_INVALID_VALUE,
	       "a NULL out: INVALID_VALUE");
	is_res(cuModuleGetFunction(&f, NULL, "saxpy"),
	       CUDA_ERROR_INVALID_HANDLE, "a NULL module: INVALID_HANDLE");
	is_res(cuModuleGetFunction(&f, m, NULL), CUDA_ERROR_INVALID_VALUE,
	       "a NULL name: INVALID_VALUE");
	is_res(cuModuleGetFunction(&f, m, "_Z5scaleIdEvPT_S0_"), CUDA_SUCCESS,
	       "a mangled name is found");
	is_res(cuModuleGetFunction(&f, m, "scale"), CUDA_ERROR_NOT_FOUND,
	       "its unmangled name is not");
	is_res(cuModuleGetFunctionCount(&n, m), CUDA_SUCCESS,
	       "cuModuleGetFunctionCount");
	is_int(n, 10, "the module has its ten kernels");
	is_res(cuModuleGetFunctionCount(NULL, m), CUDA_ERROR_INVALID_VALUE,
	       "count NULL: INVALID_VALUE");
	is_res(cuModuleGetFunctionCount(&n, NULL), CUDA_ERROR_INVALID_HANDLE,
	       "module NULL: INVALID_HANDLE");
	memset(fs, 0, sizeof fs);
	is_res(cuModuleEnumerateFunctions(fs, 3, m), CUDA_SUCCESS,
	       "enumerating three");
	ok(fs[0] && fs[1] && fs[2] && !fs[3], "three are written, no more");
	is_res(cuModuleEnumerateFunctions(fs, 16, m), CUDA_SUCCESS,
	       "enumerating sixteen");
	for (i = 0; i < 10; i++)
		same += cuFuncGetName(&nm, fs[i]) == CUDA_SUCCESS &&
			!strcmp(nm, names[i]);
	is_int(same, 10, "in the order the PTX declares them");
	ok(!fs[10], "and nothing past the last");
	is_res(cuModuleEnumerateFunctions(NULL, 3, m),
	       CUDA_ERROR_INVALID_VALUE, "a NULL array: INVALID_VALUE");
	is_res(cuModuleEnumerateFunctions(fs, 0, m), CUDA_SUCCESS,
	       "none asked for: SUCCESS");
	is_res(cuModuleGetLoadingMode(&mode), CUDA_SUCCESS,
	       "cuModuleGetLoadingMode");
	is_int(mode, CU_MODULE_LAZY_LOADING, "lazy, CUDA 13's default");
}

static void test_globals(CUmodule m)
{
	CUdeviceptr d = 0, base = 0;
	size_t sz = 0, range = 0;
	int tv[4] = { 0 }, managed = -1;
	unsigned mt = 0;

	is_res(cuModuleGetGlobal(&d, &sz, m, "table"), CUDA_SUCCESS,
	       "the .global table is found");
	is_int(sz, 16, "16 bytes");
	is_res(cuMemcpyDtoH(tv, d, sizeof tv), CUDA_SUCCESS, "read back");
	ok(tv[0] == 1 && tv[1] == 2 && tv[2] == 3 && tv[3] == 4,
	   "it holds its initializer before any launch: %d %d %d %d", tv[0],
	   tv[1], tv[2], tv[3]);
	is_res(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d),
	       CUDA_SUCCESS, "the model knows it");
	is_int(mt, CU_MEMORYTYPE_DEVICE, "as device memory");
	is_res(cuMemGetAddressRange(&base, &range, d), CUDA_SUCCESS,
	       "its address range");
	ok(base == d && range >= 16, "starts at the variable");
	is_res(cuModuleGetGlobal(&d, &sz, m, "counter"), CUDA_SUCCESS,
	       "the __managed__ counter is found");
	cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, d);
	ok(sz == 4 && managed == 1, "4 bytes of managed memory");
	is_int(*(volatile int *)(uintptr_t)d, 7,
	       "the host reads its initial value");
	is_res(cuModuleGetGlobal(&d, &sz, m, "coef"), CUDA_SUCCESS,
	       "the .const coef is found");
	cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, d);
	ok(sz == 32 && managed == 0, "32 bytes, not managed");
	is_res(cuModuleGetGlobal(&d, &sz, m, "$str"), CUDA_SUCCESS,
	       "a string constant nvcc named is a variable too");
	is_res(cuModuleGetGlobal(&d, &sz, m, "buf"), CUDA_ERROR_NOT_FOUND,
	       "extern shared memory is no global: NOT_FOUND");
	is_res(cuModuleGetGlobal(&d, &sz, m, "nothere"), CUDA_ERROR_NOT_FOUND,
	       "an unknown name: NOT_FOUND");
	is_res(cuModuleGetGlobal(NULL, NULL, m, "table"),
	       CUDA_ERROR_INVALID_VALUE, "both outs NULL: INVALID_VALUE");
	is_res(cuModuleGetGlobal(&d, NULL, m, "table"), CUDA_SUCCESS,
	       "one out suffices");
	is_res(cuModuleGetGlobal(&d, &sz, m, NULL), CUDA_ERROR_INVALID_VALUE,
	       "a NULL name: INVALID_VALUE");
	is_res(cuModuleGetGlobal(&d, &sz, NULL, "table"),
	       CUDA_ERROR_INVALID_HANDLE, "a NULL module: INVALID_HANDLE");
}

static void test_attributes(CUmodule m)
{
	static const int saxpy[CU_FUNC_ATTRIBUTE_MAX] = {
		1024, -7, 32, 0, -7, 90, 90, 0, -7, -1, 0, 0, 0, 0, 0, 0 };
	CUfunction f, t, l;
	CUmodule back;
	CUfunctionLoadingState st;
	const char *nm = NULL;
	int v, a, same = 0;

	cuModuleGetFunction(&f, m, "saxpy");
	cuModuleGetFunction(&t, m, "transpose32");
	cuModuleGetFunction(&l, m, "localsum");
	for (a = 0; a < CU_FUNC_ATTRIBUTE_MAX; a++)
		same += cuFuncGetAttribute(&v, a, f) == CUDA_SUCCESS &&
			(saxpy[a] == -7 || v == saxpy[a]);
	is_int(same, CU_FUNC_ATTRIBUTE_MAX,
	       "saxpy's attributes are the driver's (registers and shared "
	       "memory aside: the engine's count)");
	cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f);
	cuFuncGetAttribute(&a, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
			   f);
	is_int(a, 49152 - v, "its dynamic shared memory is 48 KiB less its "
	       "static");
	cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, f);
	ok(v > 0 && v <= 255, "its register count is an estimate: %d", v);
	is_res(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX, f),
	       CUDA_ERROR_INVALID_VALUE, "attribute MAX: INVALID_VALUE");
	is_res(cuFuncGetAttribute(&v, (CUfunction_attribute)-1, f),
	       CUDA_ERROR_INVALID_VALUE, "attribute -1: INVALID_VALUE");
	is_res(cuFuncGetAttribute(NULL, 0, f), CUDA_ERROR_INVALID_VALUE,
	       "a NULL out: INVALID_VALUE");
	is_res(cuFuncGetAttribute(&v, 0, NULL), CUDA_ERROR_INVALID_HANDLE,
	       "a NULL function: INVALID_HANDLE");
	cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, t);
	is_int(v, 4224, "transpose32's static shared memory");
	cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
			   t);
	is_int(v, 44928, "leaves it 48 KiB less that dynamically");
	cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, l);
	is_int(v, 128, "localsum's launch bounds cap its blocks at 128");
	is_res(cuFuncGetName(&nm, f), CUDA_SUCCESS, "cuFuncGetName");
	ok(nm && !strcmp(nm, "saxpy"), "saxpy");
	is_res(cuFuncGetName(NULL, f), CUDA_ERROR_INVALID_VALUE,
	       "name NULL: INVALID_VALUE");
	is_res(cuFuncGetName(&nm, NULL), CUDA_ERROR_INVALID_VALUE,
	       "function NULL: INVALID_VALUE, as the driver answers");
	is_res(cuFuncGetModule(&back, f), CUDA_SUCCESS, "cuFuncGetModule");
	ok(back == m, "its module");
	is_res(cuFuncGetModule(NULL, f), CUDA_ERROR_INVALID_VALUE,
	       "module NULL: INVALID_VALUE");
	is_res(cuFuncGetModule(&back, NULL), CUDA_ERROR_INVALID_VALUE,
	       "function NULL: INVALID_VALUE");
	is_res(cuFuncLoad(f), CUDA_SUCCESS, "cuFuncLoad");
	is_res(cuFuncLoad(NULL), CUDA_ERROR_INVALID_HANDLE,
	       "cuFuncLoad(NULL): INVALID_HANDLE");
	is_res(cuFuncIsLoaded(&st, f), CUDA_SUCCESS, "cuFuncIsLoaded");
	is_int(st, CU_FUNCTION_LOADING_STATE_LOADED,
	       "loaded with its module");
	is_res(cuFuncIsLoaded(NULL, f), CUDA_ERROR_INVALID_VALUE,
	       "state NULL: INVALID_VALUE");
}

/* Sets attribute a to v: the result, and what reading it back gives. */
static CUresult set(CUfunction f, int a, int v, int *back)
{
	CUresult r = cuFuncSetAttribute(f, (CUfunction_attribute)a, v);

	*back = -7;
	cuFuncGetAttribute(back, (CUfunction_attribute)a, f);
	return r;
}

static void test_set(CUmodule m)
{
	static const struct {
		int a, v;
		CUresult r;
		int back;
		const char *what;
	} c[] = {
		{ 8, 0, CUDA_SUCCESS, 0, "dynamic shared 0" },
		{ 8, 48 * 1024 + 1, CUDA_SUCCESS, 49153, "48 KiB + 1" },
		{ 8, -9, CUDA_SUCCESS, -9, "227 KiB less the static, the "
		  "opt-in" },
		{ 8, -10, CUDA_ERROR_INVALID_VALUE, -9,
		  "one byte more: INVALID_VALUE, unchanged" },
		{ 8, -1, CUDA_ERROR_INVALID_VALUE, -9, "-1: INVALID_VALUE" },
		{ 9, 50, CUDA_SUCCESS, 50, "carveout 50" },
		{ 9, 101, CUDA_ERROR_INVALID_VALUE, 50, "carveout 101" },
		{ 9, -1, CUDA_SUCCESS, -1, "carveout -1, the default" },
		{ 0, 128, CUDA_ERROR_INVALID_VALUE, 1024,
		  "max threads is read-only" },
		{ 4, 10, CUDA_ERROR_INVALID_VALUE, -8, "registers too" },
		{ 10, 1, CUDA_ERROR_INVALID_VALUE, 0,
		  "cluster size must be set too" },
		{ 11, 2, CUDA_SUCCESS, 2, "a required cluster width" },
		{ 14, 2, CUDA_SUCCESS, 1, "non-portable clusters: a yes" },
		{ 15, 1, CUDA_SUCCESS, 1, "scheduling policy 1" },
		{ 15, 3, CUDA_ERROR_INVALID_VALUE, 1, "policy 3" },
		{ 16, 0, CUDA_ERROR_INVALID_VALUE, -7, "attribute MAX" },
	};
	CUfunction f;
	int back, regs, stat, optin = 0;

	cuModuleGetFunction(&f, m, "saxpy");
	cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f);
	cuFuncGetAttribute(&stat, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f);
	cuDeviceGetAttribute(&optin,
			     CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
			     0);
	is_int(optin, 227 * 1024, "an H200 block may opt in to 227 KiB");
	for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
		/* -9: the opt-in bound less static; -10: a byte past it */
		int v = c[i].v == -9 ? optin - stat :
			c[i].v == -10 ? optin - stat + 1 : c[i].v;
		CUresult r = set(f, c[i].a, v, &back);
		int want = c[i].back == -8 ? regs :
			   c[i].back == -9 ? optin - stat : c[i].back;
		ok(r == c[i].r && back == want, "cuFuncSetAttribute %s "
		   "(%d, read back %d)", c[i].what, (int)r, back);
	}
	is_res(cuFuncSetAttribute(NULL, 8, 0), CUDA_ERROR_INVALID_HANDLE,
	       "a NULL function: INVALID_HANDLE");
	is_res(cuFuncSetCacheConfig(f, CU_FUNC_CACHE_PREFER_EQUAL),
	       CUDA_SUCCESS, "cache config PREFER_EQUAL");
	is_res(cuFuncSetCacheConfig(f, (CUfunc_cache)4),
	       CUDA_ERROR_INVALID_VALUE, "cache config 4: INVALID_VALUE");
	is_res(cuFuncSetCacheConfig(NULL, CU_FUNC_CACHE_PREFER_NONE),
	       CUDA_ERROR_INVALID_HANDLE, "a NULL function: INVALID_HANDLE");
}

/* The H100's answers for the kernels of probes/launch.c
 * (launch.occ.*, launch.potential.*, launch.availsmem.*). */
static void test_occupancy(CUmodule m)
{
	static const int bs[] = { 1, 32, 128, 256, 1024, 1025 };
	static const int want[] = { 32, 32, 16, 8, 2, 0 };
	CUfunction f, t, l;
	int n = -7, grid = -7, block = -7, same = 0, stat;
	size_t dyn = 0;

	cuModuleGetFunction(&f, m, "saxpy");
	cuModuleGetFunction(&t, m, "transpose32");
	cuModuleGetFunction(&l, m, "localsum");
	for (size_t i = 0; i < sizeof bs / sizeof *bs; i++)
		same += cuOccupancyMaxActiveBlocksPerMultiprocessor(
				&n, f, bs[i], 0) == CUDA_SUCCESS && n == want[i];
	is_int(same, 6, "saxpy's blocks per SM at 1 to 1025 threads: 32, 32, "
	       "16, 8, 2, 0");
	is_res(cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, 0, 0),
	       CUDA_ERROR_INVALID_VALUE, "a block of 0: INVALID_VALUE");
	cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, t, 256, 1024);
	is_int(n, 8, "transpose32 (4224 static) with 1 KiB dynamic: 8");
	cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, t, 256, 49152);
	is_int(n, 0, "with 48 KiB dynamic it cannot launch: 0");
	is_res(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
		       &n, f, 256, 0, CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE),
	       CUDA_SUCCESS, "with DISABLE_CACHING_OVERRIDE");
	is_int(n, 8, "the same 8");
	is_res(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, f, 256,
								   0, 7),
	       CUDA_ERROR_INVALID_VALUE, "flags 7: INVALID_VALUE");
	is_res(cuOccupancyMaxActiveBlocksPerMultiprocessor(NULL, f, 128, 0),
	       CUDA_ERROR_INVALID_VALUE, "a NULL out: INVALID_VALUE");
	is_res(cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, NULL, 128, 0),
	       CUDA_ERROR_INVALID_HANDLE, "a NULL function: INVALID_HANDLE");
	cuOccupancyMaxPotentialBlockSize(&grid, &block, f, NULL, 0, 0);
	ok(block == 1024 && grid == 264, "saxpy's best block: 1024, on a "
	   "grid of at least 264 (%d, %d)", block, grid);
	cuOccupancyMaxPotentialBlockSize(&grid, &block, f, NULL, 4096, 200);
	ok(block == 128 && grid == 2112, "at most 200 threads: 128, grid "
	   "2112 (%d, %d)", block, grid);
	cuOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block, l, NULL, 0, 0,
						  0);
	ok(block == 128 && grid == 2112, "localsum's launch bounds: 128, "
	   "2112 (%d, %d)", block, grid);
	is_res(cuOccupancyMaxPotentialBlockSize(NULL, &block, f, NULL, 0, 0),
	       CUDA_ERROR_INVALID_VALUE, "a NULL grid: INVALID_VALUE");
	is_res(cuOccupancyMaxPotentialBlockSize(&grid, NULL, f, NULL, 0, 0),
	       CUDA_ERROR_INVALID_VALUE, "a NULL block: INVALID_VALUE");
	cuOccupancyAvailableDynamicSMemPerBlock(&dyn, t, 1, 256);
	is_int(dyn, 44928, "transpose32, one block: 48 KiB less its static");
	cuOccupancyAvailableDynamicSMemPerBlock(&dyn, t, 8, 128);
	is_int(dyn, 24960, "eight blocks: 228 KiB / 8 less its static");
	cuOccupancyAvailableDynamicSMemPerBlock(&dyn, t, 32, 64);
	is_int(dyn, 3072, "32 blocks: 3072");
	cuFuncGetAttribute(&stat, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f);
	cuFuncSetCacheConfig(f, CU_FUNC_CACHE_PREFER_EQUAL);
	cuOccupancyAvailableDynamicSMemPerBlock(&dyn, f, 8, 128);
	is_int(dyn, 135168 / 8 - stat, "PREFER_EQUAL takes the SM to 132 "
	       "KiB (the H100's 16896 for 8 saxpy blocks)");
	cuFuncSetCacheConfig(f, CU_FUNC_CACHE_PREFER_NONE);
	same = 0;
	static const int bad[][2] = { { 0, 256 }, { 1, 0 }, { 1, 1025 },
				      { 100, 32 } };
	for (size_t i = 0; i < 4; i++)
		same += cuOccupancyAvailableDynamicSMemPerBlock(
				&dyn, t, bad[i][0], bad[i][1]) ==
			CUDA_ERROR_INVALID_VALUE;
	is_int(same, 4, "0 blocks, 0 or 1025 threads, 100 blocks: "
	       "INVALID_VALUE");
	is_res(cuOccupancyAvailableDynamicSMemPerBlock(NULL, t, 1, 128),
	       CUDA_ERROR_INVALID_VALUE, "a NULL out: INVALID_VALUE (the "
	       "driver crashes)");
}

/* The host function test_unload_queued's stream waits in: it returns
 * once the main thread has called the unload (100 ms after the release,
 * the unload's call having been made long before on any machine). */
static volatile int stream_released;

static void hold_stream(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stream_released, __ATOMIC_ACQUIRE))
		usleep(1000);
	usleep(100 * 1000);
}

static void release_stream_soon(void)
{
	__atomic_store_n(&stream_released, 1, __ATOMIC_RELEASE);
}

static void test_unload(const char *ptx)
{
	CUmodule m;
	CUfunction f;
	CUdeviceptr d;
	size_t sz, before = free_bytes();
	unsigned mt;
	int v;

	cuModuleLoadData(&m, ptx);
	cuModuleGetFunction(&f, m, "saxpy");
	cuModuleGetGlobal(&d, &sz, m, "table");
	ok(free_bytes() < before, "a module's variables take device memory");
	is_res(cuModuleUnload(m), CUDA_SUCCESS, "cuModuleUnload");
	ok(free_bytes() == before, "unloading gives it back");
	is_res(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d),
	       CUDA_ERROR_INVALID_VALUE, "its variables are gone");
	is_res(cuFuncGetAttribute(&v, 0, f), CUDA_ERROR_INVALID_HANDLE,
	       "its functions are no handles any more");
	is_res(cuModuleUnload(m), CUDA_ERROR_INVALID_HANDLE,
	       "unloading it again: INVALID_HANDLE");
	is_res(cuModuleUnload(NULL), CUDA_ERROR_INVALID_HANDLE,
	       "unloading NULL: INVALID_HANDLE");
}

/* A launch still queued when its module is unloaded: the unload waits for
 * it, as the driver's does (probes/results/lifetimes.txt: module_queued),
 * and the kernel runs to its end on code and names still there. */
static void test_unload_queued(void)
{
	enum { GRID = 16, THREADS = 128 };
	char *ptx = slurp("ktime.ptx");
	unsigned out_host[GRID * THREADS];
	CUdeviceptr out = 0;
	int iters = 4000, zero = 0;
	void *args[] = { &out, &iters };
	CUstream s = NULL;
	CUmodule m = NULL;
	CUfunction f = NULL;
	size_t nonzero = 0;

	if (cuModuleLoadData(&m, ptx) != CUDA_SUCCESS ||
	    cuModuleGetFunction(&f, m, "spin") != CUDA_SUCCESS ||
	    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS ||
	    cuMemAlloc(&out, sizeof out_host) != CUDA_SUCCESS ||
	    cuMemsetD32(out, 0, GRID * THREADS) != CUDA_SUCCESS) {
		printf("Bail out! ktime.ptx's spin is not ready\n");
		exit(1);
	}
	/* the stream held back by a host function until the unload has
	 * been called: the launch is surely queued then */
	is_res(cuLaunchHostFunc(s, hold_stream, &zero), CUDA_SUCCESS,
	       "the stream waits on a host function");
	is_res(cuLaunchKernel(f, GRID, 1, 1, THREADS, 1, 1, 0, s, args, NULL),
	       CUDA_SUCCESS, "a long kernel queued behind it");
	release_stream_soon();
	is_res(cuModuleUnload(m), CUDA_SUCCESS,
	       "its module unloaded while the launch is queued");
	/* the kernel has run by then: its results are there before any
	 * synchronize of its stream */
	cuMemcpyDtoH(out_host, out, sizeof out_host);
	is_res(cuStreamSynchronize(s), CUDA_SUCCESS, "the kernel succeeded");
	for (size_t i = 0; i < GRID * THREADS; i++)
		nonzero += out_host[i] != 0;
	ok(nonzero > GRID * THREADS / 2, "the unload returned once the kernel "
	   "had run: its results were there (%zu of %d)",
	   nonzero, GRID * THREADS);
	is_res(cuModuleGetFunctionCount(&(unsigned){ 0 }, m),
	       CUDA_ERROR_INVALID_HANDLE, "the module is gone after");
	cuMemFree(out);
	cuStreamDestroy(s);
	free(ptx);
}

/* waitflag(w): sets w[0] to 1, then spins until w[1] is not 0. */
static const char waitflag_ptx[] =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry waitflag(.param .u64 w)\n{\n"
	".reg .u64 %rd<3>;\n.reg .u32 %r<3>;\n.reg .pred %p<2>;\n"
	"ld.param.u64 %rd1, [w];\ncvta.to.global.u64 %rd2, %rd1;\n"
	"mov.u32 %r1, 1;\nst.volatile.global.u32 [%rd2], %r1;\n"
	"$L_spin:\nld.volatile.global.u32 %r2, [%rd2+4];\n"
	"setp.eq.u32 %p1, %r2, 0;\n@%p1 bra $L_spin;\nret;\n}\n";

/* waitflag loaded, launched on s over w (pinned), and running. */
static CUresult waitflag_running(volatile uint32_t *w, CUstream s,
				 CUmodule *m)
{
	CUdeviceptr d = (CUdeviceptr)(uintptr_t)w;
	void *args[] = { &d };
	CUfunction f;
	CUresult r;

	w[0] = w[1] = 0;
	if ((r = cuModuleLoadData(m, waitflag_ptx)) != CUDA_SUCCESS ||
	    (r = cuModuleGetFunction(&f, *m, "waitflag")) != CUDA_SUCCESS ||
	    (r = cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, args, NULL)) !=
		    CUDA_SUCCESS)
		return r;
	/* at most 20 s for the kernel to start, so a failure cannot hang */
	for (int i = 0; !w[0]; i++) {
		if (i == 200000) {
			w[1] = 1;
			return CUDA_ERROR_LAUNCH_TIMEOUT;
		}
		usleep(100);
	}
	return CUDA_SUCCESS;
}

/* Once an unload that waited for a launch returns, the launch's stream
 * is past it: its query answers SUCCESS at once, as the H200's did
 * (probes/results/lifetimes.txt: module_queued). The kernel is let go
 * just before the unload each time, so that the unload waits for its
 * end. */
static void test_unload_then_query(volatile uint32_t *w)
{
	enum { ROUNDS = 40 };
	int busy = 0, failed = 0;
	CUstream s;
	CUmodule m;

	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	for (int i = 0; i < ROUNDS; i++) {
		m = NULL;
		if (waitflag_running(w, s, &m) != CUDA_SUCCESS) {
			failed++;
			if (m)
				cuModuleUnload(m);
			break;
		}
		w[1] = 1;
		failed += cuModuleUnload(m) != CUDA_SUCCESS;
		busy += cuStreamQuery(s) != CUDA_SUCCESS;
	}
	cuStreamSynchronize(s);
	cuStreamDestroy(s);
	is_int(failed, 0, "%d launches, each unloaded while it ran", ROUNDS);
	is_int(busy, 0, "the stream's query after each unload: SUCCESS "
	       "every time (%d NOT_READY)", busy);
}

/* A forked child of a process with a launch running and one queued: the
 * launches are its parent's and never end in the child, so the child's
 * unload of their module does not wait for them (the real driver answers
 * a forked child NOT_INITIALIZED at once, probes/results/xctx.txt;
 * libcuemu lets a child use the API with none of its parent's work). */
static void test_unload_in_child(volatile uint32_t *w)
{
	CUdeviceptr d = (CUdeviceptr)(uintptr_t)w;
	void *args[] = { &d };
	CUfunction f;
	CUstream s;
	CUmodule m = NULL;
	int st = 0;
	pid_t pid;

	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	is_res(waitflag_running(w, s, &m), CUDA_SUCCESS,
	       "a kernel runs until the host lets it go");
	cuModuleGetFunction(&f, m, "waitflag");
	is_res(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, args, NULL),
	       CUDA_SUCCESS, "a second one queued behind it");
	fflush(stdout);
	if ((pid = fork()) == 0) {
		alarm(20);
		_exit(cuModuleUnload(m) != CUDA_SUCCESS ? 2 :
		      cuStreamQuery(s) != CUDA_SUCCESS ? 3 : 0);
	}
	waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "a forked child unloads the "
	   "module at once and finds the stream idle (%s %d)",
	   WIFEXITED(st) ? "exit" : "signal",
	   WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	w[1] = 1;
	is_res(cuStreamSynchronize(s), CUDA_SUCCESS,
	       "the parent's launches end");
	is_res(cuModuleUnload(m), CUDA_SUCCESS, "and the parent unloads it");
	cuStreamDestroy(s);
}

int main(void)
{
	char *ptx = slurp("basic.ptx");
	void *pinned = NULL;
	CUdevice dev;
	CUcontext ctx;
	CUmodule m;

	is_res(cuModuleLoadData(&m, ptx), CUDA_ERROR_NOT_INITIALIZED,
	       "before cuInit: NOT_INITIALIZED");
	cuInit(0);
	is_res(cuModuleLoadData(&m, ptx), CUDA_ERROR_INVALID_CONTEXT,
	       "no current context: INVALID_CONTEXT");
	cuDeviceGet(&dev, 0);
	cuDevicePrimaryCtxRetain(&ctx, dev);
	cuCtxSetCurrent(ctx);
	test_images(ptx);
	test_jit(ptx);
	test_files();
	if (cuModuleLoadData(&m, ptx) != CUDA_SUCCESS) {
		printf("Bail out! basic.ptx does not load\n");
		return 1;
	}
	test_functions_listed(m);
	test_globals(m);
	test_attributes(m);
	test_set(m);
	cuModuleUnload(m);
	cuModuleLoadData(&m, ptx);
	test_occupancy(m);
	cuModuleUnload(m);
	test_unload(ptx);
	test_unload_queued();
	if (cuMemHostAlloc(&pinned, 8, CU_MEMHOSTALLOC_DEVICEMAP) !=
	    CUDA_SUCCESS) {
		printf("Bail out! no pinned memory\n");
		return 1;
	}
	test_unload_then_query(pinned);
	test_unload_in_child(pinned);
	cuMemFreeHost(pinned);
	free(ptx);
	cuDevicePrimaryCtxRelease(dev);
	return done_testing();
}
