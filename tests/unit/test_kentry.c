/*
 * test_kentry.c - issue 33's last entry points, each as two H200s answered
 * (probes/results/kapi.txt): cuFuncGetParamInfo and cuKernelGetParamInfo
 * over a kernel of mixed parameters and at their edges; cuKernelSetCacheConfig
 * (its checks, and the preference reaching the kernel's function on that
 * device only, now and when loaded later); the JIT logs cuLibraryLoadData
 * writes at its load; cuLaunchCooperativeKernelMultiDevice, found through
 * cuGetProcAddress (CUDA 13's cuda.h no longer declares it), running a
 * grid on each of two GPUs, refusing without running any part, and
 * synchronizing the streams after. (cudaFuncGetParamInfo is
 * tests/cuda/attributes.cu's, on a kernel nvcc built.)
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda.h"
#include "tap.h"

static const char ptx[] =
	".version 8.5\n.target sm_90\n.address_size 64\n"
	".visible .entry mixed(.param .u8 a, .param .u64 b,\n"
	"	.param .align 8 .b8 s[24], .param .f32 c,\n"
	"	.param .align 16 .b8 v[16], .param .u16 d,\n"
	"	.param .align 4 .b8 t[12], .param .u32 e)\n{\n	ret;\n}\n"
	".visible .entry empty()\n{\n	ret;\n}\n"
	/* out[i] = v + i over the grid */
	".visible .entry fill(.param .u64 out, .param .u32 v)\n{\n"
	"	.reg .b32 %r<6>;\n	.reg .b64 %rd<4>;\n"
	"	ld.param.u64 %rd1, [out];\n	ld.param.u32 %r1, [v];\n"
	"	mov.u32 %r2, %ctaid.x;\n	mov.u32 %r3, %ntid.x;\n"
	"	mov.u32 %r4, %tid.x;\n	mad.lo.s32 %r2, %r2, %r3, %r4;\n"
	"	mul.wide.u32 %rd2, %r2, 4;\n	add.s64 %rd3, %rd1, %rd2;\n"
	"	add.s32 %r5, %r1, %r2;\n	st.global.u32 [%rd3], %r5;\n"
	"	ret;\n}\n";

static const char broken[] =
	".version 8.5\n.target sm_90\n.address_size 64\n"
	".visible .entry bad()\n{\n	frobnicate.u32 %r1;\n	ret;\n}\n";

static const size_t want_off[8] = { 0, 8, 16, 40, 48, 64, 68, 80 };
static const size_t want_size[8] = { 1, 8, 24, 4, 16, 2, 12, 4 };

static CUdevice dev[2];
static CUcontext ctx[2];

typedef CUresult (*pinfo_fn)(void *, size_t, size_t *, size_t *);

static CUresult func_pinfo(void *h, size_t i, size_t *o, size_t *s)
{
	return cuFuncGetParamInfo((CUfunction)h, i, o, s);
}

static CUresult kernel_pinfo(void *h, size_t i, size_t *o, size_t *s)
{
	return cuKernelGetParamInfo((CUkernel)h, i, o, s);
}

static void pinfo_cases(const char *who, pinfo_fn fn, void *h, void *empty,
			void *other)
{
	size_t off, sz;
	int bad = 0;

	for (size_t i = 0; i < 8; i++) {
		off = sz = 0xa5;
		bad += fn(h, i, &off, &sz) != CUDA_SUCCESS ||
		       off != want_off[i] || sz != want_size[i];
	}
	is_int(bad, 0, "%s: the 8 parameters' offsets and sizes as the H200's "
	       "(a byte, a pointer at 8, a 24-byte struct at 16, ..., an int at 80)", who);
	off = sz = 0xa5;
	is_res(fn(h, 8, &off, &sz), CUDA_ERROR_INVALID_VALUE,
	       "%s: index 8 of 8 is INVALID_VALUE", who);
	ok(off == 0xa5 && sz == 0xa5, "%s: ... and writes nothing", who);
	is_res(fn(h, (size_t)-1, &off, &sz), CUDA_ERROR_INVALID_VALUE,
	       "%s: index SIZE_MAX is INVALID_VALUE", who);
	off = 0xa5;
	is_res(fn(h, 2, &off, NULL), CUDA_SUCCESS, "%s: no size asked: taken", who);
	is_int(off, 16, "%s: ... the offset alone written", who);
	sz = 0xa5;
	is_res(fn(h, 2, NULL, &sz), CUDA_ERROR_INVALID_VALUE,
	       "%s: a NULL offset is INVALID_VALUE", who);
	is_int(sz, 0xa5, "%s: ... and the size is not written", who);
	is_res(fn(NULL, 0, &off, &sz), CUDA_ERROR_INVALID_VALUE,
	       "%s: a NULL handle is INVALID_VALUE, not a bad handle", who);
	is_res(fn(other, 0, &off, &sz), CUDA_ERROR_INVALID_HANDLE,
	       "%s: a handle of the other kind is INVALID_HANDLE", who);
	is_res(fn(empty, 0, &off, &sz), CUDA_ERROR_INVALID_VALUE,
	       "%s: a kernel of no parameters has no index 0", who);
}

static void test_param_info(void)
{
	CUlibrary lib;
	CUkernel k, ke;
	CUfunction f, fe, fm;
	CUmodule m;
	size_t off = 0, sz = 0;

	if (cuLibraryLoadData(&lib, ptx, NULL, NULL, 0, NULL, NULL, 0) ||
	    cuLibraryGetKernel(&k, lib, "mixed") ||
	    cuLibraryGetKernel(&ke, lib, "empty") ||
	    cuKernelGetFunction(&f, k) || cuKernelGetFunction(&fe, ke)) {
		ok(0, "the library of mixed parameters loads");
		return;
	}
	pinfo_cases("cuFuncGetParamInfo", func_pinfo, f, fe, k);
	pinfo_cases("cuKernelGetParamInfo", kernel_pinfo, k, ke, f);
	cuCtxSetCurrent(NULL);
	is_res(cuFuncGetParamInfo(f, 1, &off, &sz), CUDA_SUCCESS,
	       "cuFuncGetParamInfo needs no current context");
	is_int(off, 8, "... and answers");
	off = 0;
	is_res(cuKernelGetParamInfo(k, 1, &off, &sz), CUDA_ERROR_INVALID_CONTEXT,
	       "cuKernelGetParamInfo without a context: INVALID_CONTEXT");
	is_int(off, 0, "... and writes nothing");
	cuCtxSetCurrent(ctx[0]);
	/* a module's function answers alike; one unloaded is no handle */
	cuModuleLoadData(&m, ptx);
	cuModuleGetFunction(&fm, m, "mixed");
	is_res(cuFuncGetParamInfo(fm, 6, &off, &sz), CUDA_SUCCESS,
	       "a module's function");
	ok(off == 68 && sz == 12, "... its 4-aligned 12-byte struct at 68");
	cuModuleUnload(m);
	is_res(cuFuncGetParamInfo(fm, 6, &off, &sz), CUDA_ERROR_INVALID_HANDLE,
	       "a function of an unloaded module: INVALID_HANDLE");
	cuLibraryUnload(lib);
	is_res(cuKernelGetParamInfo(k, 0, &off, &sz), CUDA_ERROR_INVALID_HANDLE,
	       "a kernel of an unloaded library: INVALID_HANDLE");
}

/* Blocks of 128 threads with 40 KiB of dynamic shared memory an SM
 * holds: the cache preference moves the carveout. */
static int occupancy(CUfunction f)
{
	int n = -1;

	cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, 128, 40 * 1024);
	return n;
}

static void test_cache_config(void)
{
	CUlibrary lib;
	CUkernel k;
	CUfunction f0, f1, f2;
	CUcontext c2;
	int before0, before1;

	cuLibraryLoadData(&lib, ptx, NULL, NULL, 0, NULL, NULL, 0);
	cuLibraryGetKernel(&k, lib, "fill");
	cuKernelGetFunction(&f0, k);
	cuCtxSetCurrent(ctx[1]);
	cuKernelGetFunction(&f1, k);
	cuCtxSetCurrent(ctx[0]);
	before0 = occupancy(f0);
	before1 = occupancy(f1);
	is_res(cuKernelSetCacheConfig(NULL, (CUfunc_cache)4, 99),
	       CUDA_ERROR_INVALID_HANDLE, "all three bad: the kernel's INVALID_HANDLE first");
	is_res(cuKernelSetCacheConfig((CUkernel)f0, CU_FUNC_CACHE_PREFER_EQUAL,
				      dev[0]), CUDA_ERROR_INVALID_HANDLE,
	       "a function handle is no kernel");
	is_res(cuKernelSetCacheConfig(k, (CUfunc_cache)4, 99),
	       CUDA_ERROR_INVALID_DEVICE, "device 99 and preference 4: the device first");
	is_res(cuKernelSetCacheConfig(k, CU_FUNC_CACHE_PREFER_EQUAL, -1),
	       CUDA_ERROR_INVALID_DEVICE, "device -1: INVALID_DEVICE");
	is_res(cuKernelSetCacheConfig(k, (CUfunc_cache)4, dev[0]),
	       CUDA_ERROR_INVALID_VALUE, "preference 4: INVALID_VALUE");
	is_res(cuKernelSetCacheConfig(k, (CUfunc_cache)-1, dev[0]),
	       CUDA_ERROR_INVALID_VALUE, "preference -1: INVALID_VALUE");
	is_int(occupancy(f0), before0, "a refused preference changes nothing");
	cuCtxSetCurrent(NULL);
	is_res(cuKernelSetCacheConfig(k, CU_FUNC_CACHE_PREFER_EQUAL, dev[0]),
	       CUDA_SUCCESS, "PREFER_EQUAL on device 0, no context current: taken");
	cuCtxSetCurrent(ctx[0]);
	ok(occupancy(f0) < before0, "the kernel's function on device 0 holds "
	   "fewer 40 KiB blocks an SM (%d, was %d): half the shared memory", occupancy(f0), before0);
	cuCtxSetCurrent(ctx[1]);
	is_int(occupancy(f1), before1, "its function on device 1 keeps its occupancy");
	cuCtxCreate(&c2, NULL, 0, dev[0]);
	cuKernelGetFunction(&f2, k);
	is_int(occupancy(f2), occupancy(f0),
	       "a context made later on device 0 gets the preference with the function");
	cuCtxDestroy(c2);
	cuCtxSetCurrent(ctx[0]);
	is_res(cuKernelSetCacheConfig(k, CU_FUNC_CACHE_PREFER_NONE, dev[0]),
	       CUDA_SUCCESS, "PREFER_NONE again");
	is_int(occupancy(f0), before0, "... gives the occupancy back");
	cuLibraryUnload(lib);
}

static void jit_load(const char *image, size_t errsize, CUresult *r,
		     char *info, char *err, size_t *isz, size_t *esz,
		     float *wall, CUlibrary *lib)
{
	CUjit_option o[5] = { CU_JIT_INFO_LOG_BUFFER,
		CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
		CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_WALL_TIME };
	void *v[5] = { info, (void *)(uintptr_t)256, err,
		       (void *)(uintptr_t)errsize, NULL };

	memset(info, 'Z', 256);
	memset(err, 'Z', 256);
	*wall = -1;
	memcpy(&v[4], wall, sizeof *wall);
	*r = cuLibraryLoadData(lib, image, o, v, 5, NULL, NULL, 0);
	*isz = (size_t)(uintptr_t)v[1];
	*esz = (size_t)(uintptr_t)v[3];
	memcpy(wall, &v[4], sizeof *wall);
}

static void test_jit_logs(void)
{
	char info[256], err[256], path[] = "/tmp/cuemu-kentry-XXXXXX";
	size_t isz, esz;
	float wall;
	CUresult r;
	CUlibrary lib = NULL;
	CUkernel k;
	int fd;

	jit_load(broken, sizeof err, &r, info, err, &isz, &esz, &wall, &lib);
	is_res(r, CUDA_SUCCESS, "broken PTX with logs loads (the refusal comes at its kernel)");
	ok(strstr(err, "line 6") && strstr(err, "frobnicate"),
	   "... its error log is written at the load, naming line and instruction: %s", err);
	is_int(esz, strlen(err) + 1, "... the error size option says the bytes written, NUL included");
	is_int(isz, 0, "... no info log (the driver writes none either)");
	ok(wall >= 0, "... and the wall time is written");
	is_res(cuLibraryGetKernel(&k, lib, "bad"), CUDA_ERROR_INVALID_PTX,
	       "its kernel: INVALID_PTX");
	cuLibraryUnload(lib);
	jit_load(broken, 8, &r, info, err, &isz, &esz, &wall, &lib);
	ok(esz == 8 && strlen(err) == 7, "an 8-byte error log gets 7 bytes and its NUL");
	cuLibraryUnload(lib);
	jit_load(ptx, sizeof err, &r, info, err, &isz, &esz, &wall, &lib);
	ok(r == CUDA_SUCCESS && isz == 0 && esz == 0,
	   "good PTX: both sizes 0");
	cuLibraryUnload(lib);
	jit_load("this is no image", sizeof err, &r, info, err, &isz, &esz,
		 &wall, &lib);
	ok(r == CUDA_SUCCESS && esz > 1 && esz == strlen(err) + 1,
	   "text that is no image: loads, its error log says why: %s", err);
	cuLibraryUnload(lib);
	/* from a file, alike */
	if ((fd = mkstemp(path)) < 0 ||
	    write(fd, broken, sizeof broken - 1) != (ssize_t)(sizeof broken - 1)) {
		ok(0, "a temporary file for the broken PTX");
		return;
	}
	close(fd);
	CUjit_option o[2] = { CU_JIT_ERROR_LOG_BUFFER,
			      CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *v[2] = { err, (void *)(uintptr_t)sizeof err };
	err[0] = 0;
	is_res(cuLibraryLoadFromFile(&lib, path, o, v, 2, NULL, NULL, 0),
	       CUDA_SUCCESS, "cuLibraryLoadFromFile of broken PTX with a log loads");
	ok(strstr(err, "frobnicate") != NULL, "... and writes the log too");
	cuLibraryUnload(lib);
	unlink(path);
}

typedef CUresult (*multi_fn)(CUDA_LAUNCH_PARAMS *, unsigned, unsigned);

struct part {
	CUmodule m;
	CUfunction f;
	CUstream s;
	CUdeviceptr d;
	unsigned v;
	void *args[2];
};

static void part_make(struct part *p, int i, CUDA_LAUNCH_PARAMS *lp)
{
	cuCtxSetCurrent(ctx[i]);
	cuModuleLoadData(&p->m, ptx);
	cuModuleGetFunction(&p->f, p->m, "fill");
	cuStreamCreate(&p->s, CU_STREAM_NON_BLOCKING);
	cuMemAlloc(&p->d, 4 * 256);
	cuMemsetD32(p->d, 0, 256);
	p->v = 1000u * (unsigned)(i + 1);
	p->args[0] = &p->d;
	p->args[1] = &p->v;
	memset(lp, 0, sizeof *lp);
	lp->function = p->f;
	lp->gridDimX = 2;
	lp->gridDimY = lp->gridDimZ = 1;
	lp->blockDimX = 128;
	lp->blockDimY = lp->blockDimZ = 1;
	lp->hStream = p->s;
	lp->kernelParams = p->args;
}

/* How many of part p's 256 words hold what its grid writes. */
static int part_filled(struct part *p, int i)
{
	uint32_t h[256];
	int n = 0;

	cuCtxSetCurrent(ctx[i]);
	cuMemcpyDtoH(h, p->d, sizeof h);
	for (int k = 0; k < 256; k++)
		n += h[k] == p->v + (unsigned)k;
	return n;
}

static void test_multi_device(void)
{
	CUdriverProcAddressQueryResult st;
	multi_fn fn = NULL;
	struct part p[2];
	CUDA_LAUNCH_PARAMS lp[2], bad[2];
	int attr = -1;

	cuDeviceGetAttribute(&attr, CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH, dev[0]);
	is_int(attr, 1, "COOPERATIVE_MULTI_DEVICE_LAUNCH is 1, as an H200 answers");
	is_res(cuGetProcAddress("cuLaunchCooperativeKernelMultiDevice", (void **)&fn,
				13000, CU_GET_PROC_ADDRESS_DEFAULT, &st),
	       CUDA_SUCCESS, "cuGetProcAddress finds cuLaunchCooperativeKernelMultiDevice at 13000");
	if (!ok(fn != NULL && st == CU_GET_PROC_ADDRESS_SUCCESS, "... a function"))
		return;
	part_make(&p[0], 0, &lp[0]);
	part_make(&p[1], 1, &lp[1]);
	cuCtxSetCurrent(ctx[0]);
	is_res(fn(NULL, 1, 0), CUDA_ERROR_INVALID_VALUE, "NULL list: INVALID_VALUE");
	is_res(fn(lp, 0, 0), CUDA_ERROR_INVALID_VALUE, "no devices: INVALID_VALUE");
	is_res(fn(lp, 2, 4), CUDA_ERROR_INVALID_VALUE, "flags 4: INVALID_VALUE");
	bad[0] = lp[0];
	bad[1] = lp[0];
	is_res(fn(bad, 2, 0), CUDA_ERROR_INVALID_DEVICE,
	       "two parts on one device: INVALID_DEVICE");
	bad[0] = lp[0];
	bad[1] = lp[1];
	bad[1].hStream = NULL;
	is_res(fn(bad, 2, 0), CUDA_ERROR_INVALID_HANDLE,
	       "a part on the NULL stream: INVALID_HANDLE");
	bad[1] = lp[1];
	bad[1].function = lp[0].function;
	is_res(fn(bad, 2, 0), CUDA_ERROR_INVALID_HANDLE,
	       "a part whose function is another context's than its stream's: INVALID_HANDLE");
	bad[1] = lp[1];
	bad[1].gridDimX = 1u << 20;
	is_res(fn(bad, 2, 0), CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
	       "a part's grid too large to be resident: COOPERATIVE_LAUNCH_TOO_LARGE");
	bad[1] = lp[1];
	bad[1].blockDimX = 2048;
	is_res(fn(bad, 2, 0), CUDA_ERROR_INVALID_VALUE, "a block of 2048: INVALID_VALUE");
	cuCtxSynchronize();
	is_int(part_filled(&p[0], 0), 0,
	       "no refused launch ran a part, not even the valid first one");
	cuCtxSetCurrent(ctx[0]);
	is_res(fn(lp, 2, 0), CUDA_SUCCESS, "a grid on each of two GPUs");
	/* after it, each stream waits for both grids: syncing the first
	 * stream alone leaves the second device's grid done */
	cuCtxSetCurrent(ctx[0]);
	cuStreamSynchronize(p[0].s);
	is_int(part_filled(&p[1], 1), 256,
	       "the second GPU's grid is done once the first stream is (the post-launch sync)");
	is_int(part_filled(&p[0], 0), 256, "the first GPU's grid wrote its 256 words");
	for (int i = 0; i < 2; i++) {
		cuCtxSetCurrent(ctx[i]);
		cuMemsetD32(p[i].d, 0, 256);
	}
	cuCtxSetCurrent(ctx[0]);
	is_res(fn(lp, 1, CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_PRE_LAUNCH_SYNC |
		  CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_POST_LAUNCH_SYNC),
	       CUDA_SUCCESS, "one part, both syncs left out");
	cuStreamSynchronize(p[0].s);
	is_int(part_filled(&p[0], 0), 256, "... it ran");
	for (int i = 0; i < 2; i++) {
		cuCtxSetCurrent(ctx[i]);
		cuCtxSynchronize();
		cuStreamDestroy(p[i].s);
		cuMemFree(p[i].d);
		cuModuleUnload(p[i].m);
	}
	cuCtxSetCurrent(ctx[0]);
}

int main(void)
{
	int n = 0;

	cuInit(0);
	cuDeviceGetCount(&n);
	if (n < 2) {
		printf("1..0 # SKIP the machine has %d GPU\n", n);
		return 0;
	}
	for (int i = 0; i < 2; i++) {
		cuDeviceGet(&dev[i], i);
		cuDevicePrimaryCtxRetain(&ctx[i], dev[i]);
	}
	cuCtxSetCurrent(ctx[0]);
	test_param_info();
	test_cache_config();
	test_jit_logs();
	test_multi_device();
	cuCtxSetCurrent(NULL);
	for (int i = 0; i < 2; i++)
		cuDevicePrimaryCtxRelease(dev[i]);
	return done_testing();
}
