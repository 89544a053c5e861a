/*
 * test_library.c - libraries and kernels (cuLibrary*, cuKernel*), a
 * CUkernel wherever a launch takes a CUfunction, modules freed with their
 * context, cuLaunchCooperativeKernel's grid limit and cuLaunchKernelEx's
 * attributes: each answer as the H100 gave it (probes/results/library.txt
 * and the lib./kernel. lines of launch.txt), errors included, with what a
 * refused call leaves unchanged.
 */
#define _GNU_SOURCE
#define CUEMU_PER_THREAD_ENTRY_POINTS 1
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "kernel_file.h"

static CUdevice dev;
static CUcontext ctx;
static char *ptx, *ctl;

static CUlibrary lib_load(const char *image)
{
	CUlibrary l = NULL;

	if (cuLibraryLoadData(&l, image, NULL, NULL, 0, NULL, NULL, 0) !=
	    CUDA_SUCCESS) {
		printf("Bail out! the library does not load\n");
		exit(1);
	}
	return l;
}

static void test_loading(void)
{
	CUlibrary l = NULL, g = (CUlibrary)0x1;
	CUlibraryOption lo[1] = { (CUlibraryOption)99 };
	CUjit_option jo[1] = { CU_JIT_WALL_TIME };
	void *lv[1] = { NULL };
	unsigned n = 7;
	CUkernel k;
	CUmodule m;

	is_res(cuLibraryLoadData(NULL, ptx, NULL, NULL, 0, NULL, NULL, 0),
	       CUDA_ERROR_INVALID_VALUE, "load: NULL out");
	is_res(cuLibraryLoadData(&l, NULL, NULL, NULL, 0, NULL, NULL, 0),
	       CUDA_ERROR_INVALID_VALUE, "load: NULL image");
	is_res(cuLibraryLoadData(&l, ptx, NULL, NULL, 0, lo, lv, 1),
	       CUDA_ERROR_INVALID_VALUE, "load: library option 99");
	is_res(cuLibraryLoadData(&l, ptx, jo, NULL, 1, NULL, NULL, 0),
	       CUDA_ERROR_INVALID_VALUE, "load: a JIT option with no values");
	ok(l == NULL, "a refused load gives no library");
	/* garbage loads: the refusal comes at its first kernel or module */
	is_res(cuLibraryLoadData(&g, "hello, world\n", NULL, NULL, 0, NULL,
				 NULL, 0), CUDA_SUCCESS,
	       "text that is no image loads (lazily)");
	is_res(cuLibraryGetKernelCount(&n, g), CUDA_SUCCESS,
	       "its kernels are counted");
	is_res(cuLibraryGetKernel(&k, g, "saxpy"), CUDA_ERROR_INVALID_IMAGE,
	       "its kernel: INVALID_IMAGE");
	is_res(cuLibraryGetModule(&m, g), CUDA_ERROR_INVALID_IMAGE,
	       "its module: INVALID_IMAGE");
	is_res(cuLibraryUnload(g), CUDA_SUCCESS, "it unloads");
	char *bad = strdup(ptx);
	memcpy(strstr(bad, "ret;"), "rxt;", 4);
	is_res(cuLibraryLoadData(&g, bad, NULL, NULL, 0, NULL, NULL, 0),
	       CUDA_SUCCESS, "broken PTX loads (lazily)");
	is_res(cuLibraryGetKernel(&k, g, "saxpy"), CUDA_ERROR_INVALID_PTX,
	       "its kernel: INVALID_PTX");
	cuLibraryUnload(g);
	free(bad);
	is_res(cuLibraryLoadFromFile(&g, "/nonexistent.ptx", NULL, NULL, 0,
				     NULL, NULL, 0),
	       CUDA_ERROR_FILE_NOT_FOUND, "a missing file: FILE_NOT_FOUND");
	is_res(cuLibraryLoadFromFile(&g, "/tmp", NULL, NULL, 0, NULL, NULL, 0),
	       CUDA_ERROR_OUT_OF_MEMORY, "a directory: OUT_OF_MEMORY");
	is_res(cuLibraryLoadFromFile(&g, NULL, NULL, NULL, 0, NULL, NULL, 0),
	       CUDA_ERROR_INVALID_VALUE, "a NULL file name");
	is_res(cuLibraryUnload(NULL), CUDA_ERROR_INVALID_HANDLE,
	       "unload NULL: INVALID_HANDLE");
	/* __threadfence() as nvcc writes it (threadFenceReduction) */
	size_t n1 = strlen(ptx);
	char *fence = malloc(n1 + 16), *at = strstr(ptx, "ret;");

	snprintf(fence, n1 + 16, "%.*smembar.gl;\n%s", (int)(at - ptx), ptx,
		 at);
	is_res(cuLibraryLoadData(&g, fence, NULL, NULL, 0, NULL, NULL, 0),
	       CUDA_SUCCESS, "PTX with membar.gl loads");
	is_res(cuLibraryGetKernel(&k, g, "saxpy"), CUDA_SUCCESS,
	       "and parses (.gl is the GPU scope)");
	cuLibraryUnload(g);
	free(fence);
}

static void test_entries(void)
{
	CUlibrary l = lib_load(ptx), kl = NULL;
	CUkernel ks[16] = { 0 }, k = NULL, k2 = NULL;
	CUmodule m = NULL, fm = NULL, m2 = NULL;
	CUfunction f = NULL;
	CUdeviceptr d;
	const char *nm = NULL;
	unsigned n = 0;
	size_t sz = 0;
	void *fp = (void *)1;
	int v = -7;

	is_res(cuLibraryGetKernelCount(&n, l), CUDA_SUCCESS, "count");
	is_int(n, 10, "basic.ptx has 10 kernels");
	is_res(cuLibraryGetKernelCount(NULL, l), CUDA_ERROR_INVALID_VALUE,
	       "count: NULL out");
	is_res(cuLibraryGetKernelCount(&n, NULL), CUDA_ERROR_INVALID_HANDLE,
	       "count: NULL library");
	is_res(cuLibraryEnumerateKernels(ks, 2, l), CUDA_SUCCESS,
	       "enumerate 2");
	ok(ks[0] && ks[1] && !ks[2], "2 kernels given, no more");
	is_res(cuLibraryEnumerateKernels(ks, 0, l), CUDA_SUCCESS,
	       "enumerate 0");
	is_res(cuLibraryEnumerateKernels(NULL, 2, l), CUDA_ERROR_INVALID_VALUE,
	       "enumerate: NULL out");
	cuLibraryEnumerateKernels(ks, 16, l);
	cuKernelGetName(&nm, ks[0]);
	ok(nm && !strcmp(nm, "_Z5scaleIdEvPT_S0_"),
	   "the image's last kernel is listed first (%s)", nm);
	cuKernelGetName(&nm, ks[9]);
	ok(nm && !strcmp(nm, "saxpy"), "and its first last (%s)", nm);
	is_res(cuLibraryGetKernel(&k, l, "saxpy"), CUDA_SUCCESS, "get saxpy");
	cuLibraryGetKernel(&k2, l, "saxpy");
	ok(k == k2 && k == ks[9], "the same handle each time");
	is_res(cuLibraryGetKernel(&k2, l, "nothere"), CUDA_ERROR_NOT_FOUND,
	       "an unknown kernel: NOT_FOUND");
	is_res(cuLibraryGetKernel(NULL, l, "saxpy"), CUDA_ERROR_INVALID_VALUE,
	       "get: NULL out");
	is_res(cuLibraryGetKernel(&k2, NULL, "saxpy"),
	       CUDA_ERROR_INVALID_HANDLE, "get: NULL library");
	is_res(cuLibraryGetKernel(&k2, l, NULL), CUDA_ERROR_INVALID_VALUE,
	       "get: NULL name");
	is_res(cuLibraryGetModule(&m, l), CUDA_SUCCESS, "its module");
	is_res(cuLibraryGetModule(NULL, l), CUDA_ERROR_INVALID_VALUE,
	       "module: NULL out");
	/* probes/results/lifetimes.txt: library_module */
	is_res(cuModuleUnload(m), CUDA_ERROR_NOT_PERMITTED,
	       "cuModuleUnload of a library's module: NOT_PERMITTED");
	is_res(cuModuleGetFunctionCount(&n, m), CUDA_SUCCESS,
	       "and it stays loaded");
	cuLibraryGetModule(&m2, l);
	ok(m2 == m, "the library's module still");
	is_res(cuLibraryGetGlobal(&d, &sz, l, "table"), CUDA_SUCCESS,
	       "a global");
	is_int(sz, 16, "of 16 bytes");
	is_res(cuLibraryGetGlobal(NULL, &sz, l, "table"), CUDA_SUCCESS,
	       "a global's size alone");
	is_res(cuLibraryGetGlobal(NULL, NULL, l, "table"),
	       CUDA_ERROR_INVALID_VALUE, "global: both outputs NULL");
	is_res(cuLibraryGetGlobal(&d, &sz, l, "nothere"), CUDA_ERROR_NOT_FOUND,
	       "an unknown global: NOT_FOUND");
	is_res(cuLibraryGetGlobal(&d, &sz, NULL, "table"),
	       CUDA_ERROR_INVALID_HANDLE, "global: NULL library");
	is_res(cuLibraryGetManaged(&d, &sz, l, "counter"), CUDA_SUCCESS,
	       "a managed variable");
	is_int(sz, 4, "of 4 bytes");
	is_res(cuLibraryGetManaged(&d, &sz, l, "table"), CUDA_ERROR_NOT_FOUND,
	       "a device variable is no managed one: NOT_FOUND");
	is_res(cuLibraryGetUnifiedFunction(&fp, l, "saxpy"),
	       CUDA_ERROR_INVALID_VALUE, "no unified function: INVALID_VALUE");
	ok(fp == (void *)1, "its output untouched");
	is_res(cuLibraryGetUnifiedFunction(&fp, NULL, "saxpy"),
	       CUDA_ERROR_INVALID_HANDLE, "unified: NULL library");
	is_res(cuKernelGetFunction(&f, k), CUDA_SUCCESS, "the kernel's function");
	cuFuncGetModule(&fm, f);
	ok(fm == m, "in the library's module");
	is_res(cuKernelGetFunction(NULL, k), CUDA_ERROR_INVALID_VALUE,
	       "function: NULL out");
	is_res(cuKernelGetFunction(&f, NULL), CUDA_ERROR_INVALID_HANDLE,
	       "function: NULL kernel");
	is_res(cuKernelGetName(NULL, k), CUDA_ERROR_INVALID_VALUE,
	       "name: NULL out");
	is_res(cuKernelGetName(&nm, NULL), CUDA_ERROR_INVALID_VALUE,
	       "name: NULL kernel");
	is_res(cuKernelGetLibrary(&kl, k), CUDA_SUCCESS, "its library");
	ok(kl == l, "is the library");
	is_res(cuKernelGetLibrary(&kl, NULL), CUDA_ERROR_INVALID_HANDLE,
	       "library: NULL kernel");
	is_res(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
				    k, dev), CUDA_SUCCESS, "an attribute");
	is_int(v, 1024, "1024 threads");
	is_res(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX, k, dev),
	       CUDA_ERROR_INVALID_VALUE, "attribute MAX: INVALID_VALUE");
	is_res(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX, k, 99),
	       CUDA_ERROR_INVALID_DEVICE, "the device is checked first");
	is_res(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, NULL, dev),
	       CUDA_ERROR_INVALID_HANDLE, "attribute: NULL kernel");
	is_res(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
				    64 * 1024, k, dev), CUDA_SUCCESS,
	       "64 KiB of dynamic shared memory allowed");
	cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
			   f);
	is_int(v, 65536, "its function sees it");
	is_res(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
				    300 * 1024, k, dev),
	       CUDA_ERROR_INVALID_VALUE, "300 KiB: INVALID_VALUE");
	cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
			     k, dev);
	is_int(v, 65536, "a refused set changes nothing");
	is_res(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_NUM_REGS, 10, k, dev),
	       CUDA_ERROR_INVALID_VALUE, "NUM_REGS cannot be set");
	is_res(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_NUM_REGS, 10, k, 99),
	       CUDA_ERROR_INVALID_DEVICE, "the device before the attribute");
	/* a CUkernel is no CUfunction outside launches and occupancy */
	is_res(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS,
				  (CUfunction)k), CUDA_ERROR_INVALID_HANDLE,
	       "cuFuncGetAttribute of a kernel: INVALID_HANDLE");
	is_res(cuOccupancyMaxActiveBlocksPerMultiprocessor(&v, (CUfunction)k,
							   1024, 0),
	       CUDA_SUCCESS, "the occupancy of a kernel");
	is_int(v, 2, "2 blocks of 1024");
	is_res(cuKernelGetName(&nm, (CUkernel)f), CUDA_ERROR_INVALID_HANDLE,
	       "cuKernelGetName of a function: INVALID_HANDLE");
	is_res(cuLibraryUnload(l), CUDA_SUCCESS, "unload");
	is_res(cuModuleGetFunctionCount(&n, m), CUDA_ERROR_INVALID_HANDLE,
	       "its module went with it");
	is_res(cuModuleUnload(m), CUDA_ERROR_INVALID_HANDLE,
	       "cuModuleUnload of it then: INVALID_HANDLE");
	is_res(cuKernelGetFunction(&f, k), CUDA_ERROR_INVALID_HANDLE,
	       "its kernel names nothing");
}

/* One launch of globals (one thread), a kernel of l, in the current
 * context: it adds 1 to the managed counter. */
static CUresult run_globals(CUlibrary l)
{
	CUdeviceptr out;
	CUkernel k;
	CUresult r;

	if ((r = cuLibraryGetKernel(&k, l, "globals")) != CUDA_SUCCESS ||
	    (r = cuMemAlloc(&out, 64)) != CUDA_SUCCESS)
		return r;
	void *args[] = { &out };
	r = cuLaunchKernel((CUfunction)k, 1, 1, 1, 1, 1, 1, 0, NULL, args,
			   NULL);
	if (r == CUDA_SUCCESS)
		r = cuCtxSynchronize();
	cuMemFree(out);
	return r;
}

/* The word at d, read on the host; 0 where d is no address (a refusal
 * left it so), so that a failing check reads nothing. */
static uint32_t word_at(CUdeviceptr d)
{
	return d ? *(volatile uint32_t *)(uintptr_t)d : 0;
}

/* A library's managed variable is the library's: made at its load with
 * no context, one address in every context, kept while contexts go, freed
 * at its unload (probes/results/kapi.txt: kapi.managed.*). */
static void test_managed(void)
{
	CUdeviceptr d = 0, d2 = 0, dc = 0;
	unsigned int is_managed = 0;
	CUcontext cur = (CUcontext)1, c2;
	CUlibrary l;
	size_t sz = 0;

	cuCtxSetCurrent(NULL);
	l = lib_load(ptx);
	is_res(cuLibraryGetManaged(&d, &sz, l, "counter"), CUDA_SUCCESS,
	       "no context: the managed variable");
	is_int(sz, 4, "of 4 bytes");
	ok(word_at(d) == 7,
	   "with its initial value, read on the host");
	cuCtxGetCurrent(&cur);
	ok(cur == NULL, "and still no context current");
	is_res(cuLibraryGetManaged(&d2, NULL, l, "counter"), CUDA_SUCCESS,
	       "no context: the address alone");
	ok(d2 == d, "the same address");
	is_res(cuLibraryGetManaged(&d2, &sz, l, "nothere"),
	       CUDA_ERROR_NOT_FOUND, "no context: an unknown one NOT_FOUND");
	is_res(cuLibraryGetManaged(&d2, &sz, l, "table"),
	       CUDA_ERROR_NOT_FOUND,
	       "no context: a device variable is no managed one");
	is_res(cuLibraryGetGlobal(&d2, &sz, l, "counter"),
	       CUDA_ERROR_INVALID_CONTEXT,
	       "no context: cuLibraryGetGlobal still needs one");
	cuCtxSetCurrent(ctx);
	d2 = 0;
	is_res(cuLibraryGetManaged(&d2, &sz, l, "counter"), CUDA_SUCCESS,
	       "in a context");
	ok(d2 == d, "the same address as without one");
	is_res(cuLibraryGetGlobal(&d2, &sz, l, "counter"), CUDA_SUCCESS,
	       "cuLibraryGetGlobal of it");
	ok(d2 == d, "names it too");
	is_res(run_globals(l), CUDA_SUCCESS, "a kernel adds 1 in this context");
	is_res(cuCtxCreate(&c2, NULL, 0, dev), CUDA_SUCCESS,
	       "a second context");
	cuLibraryGetManaged(&dc, &sz, l, "counter");
	ok(dc == d, "has the same address");
	is_res(run_globals(l), CUDA_SUCCESS, "a kernel adds 1 there");
	ok(word_at(d) == 9, "both reached the one copy (%u)", word_at(d));
	is_res(cuCtxDestroy(c2), CUDA_SUCCESS, "the second context destroyed");
	cuCtxSetCurrent(ctx);
	is_res(cuPointerGetAttribute(&is_managed,
				     CU_POINTER_ATTRIBUTE_IS_MANAGED, d),
	       CUDA_SUCCESS, "the variable outlives it");
	ok(is_managed == 1 && word_at(d) == 9,
	   "managed, its value kept");
	is_res(cuLibraryUnload(l), CUDA_SUCCESS, "unload");
	is_res(cuPointerGetAttribute(&is_managed,
				     CU_POINTER_ATTRIBUTE_IS_MANAGED, d),
	       CUDA_ERROR_INVALID_VALUE, "the variable went with the library");
}

/* No context, a second one, a destroyed one. */
static void test_contexts(void)
{
	CUlibrary l;
	CUkernel k;
	CUfunction f0, f1;
	CUmodule m0, m1, mc;
	CUcontext c2;
	CUdeviceptr d0, d1, dx;
	unsigned n = 0;
	size_t sz;
	int v = -7, zero = 0;
	float a = 2;

	cuCtxSetCurrent(NULL);
	l = lib_load(ptx);
	is_res(cuLibraryGetKernel(&k, l, "saxpy"), CUDA_SUCCESS,
	       "no context: a kernel");
	is_res(cuLibraryGetKernelCount(&n, l), CUDA_SUCCESS,
	       "no context: the count");
	is_res(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, k, dev),
	       CUDA_SUCCESS, "no context: an attribute");
	is_res(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
				    2048, k, dev), CUDA_SUCCESS,
	       "no context: an attribute set");
	is_res(cuKernelGetFunction(&f0, k), CUDA_ERROR_INVALID_CONTEXT,
	       "no context: no function");
	is_res(cuLibraryGetModule(&m0, l), CUDA_ERROR_INVALID_CONTEXT,
	       "no context: no module");
	is_res(cuLibraryGetGlobal(&d0, &sz, l, "table"),
	       CUDA_ERROR_INVALID_CONTEXT, "no context: no global");
	cuCtxSetCurrent(ctx);
	cuKernelGetFunction(&f0, k);
	cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
			   f0);
	is_int(v, 2048, "the function loaded later has the kernel's setting");
	cuLibraryGetModule(&m0, l);
	cuLibraryGetGlobal(&d0, &sz, l, "table");
	is_res(cuCtxCreate(&c2, NULL, 0, dev), CUDA_SUCCESS,
	       "a second context");
	cuKernelGetFunction(&f1, k);
	cuLibraryGetModule(&m1, l);
	cuLibraryGetGlobal(&d1, &sz, l, "table");
	ok(f0 != f1 && m0 != m1 && d0 != d1,
	   "its function, module and global are its own");
	cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
			   f1);
	is_int(v, 2048, "with the kernel's setting");
	cuMemAlloc(&dx, 4096);
	void *args[] = { &zero, &a, &dx, &dx };
	is_res(cuLaunchKernel(f0, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL),
	       CUDA_ERROR_INVALID_HANDLE,
	       "the first context's function: INVALID_HANDLE here");
	is_res(cuLaunchKernel((CUfunction)k, 1, 1, 1, 32, 1, 1, 0, NULL, args,
			      NULL), CUDA_SUCCESS,
	       "the kernel launches here, as this context's function");
	is_res(cuCtxSynchronize(), CUDA_SUCCESS, "and runs");
	cuMemFree(dx);
	cuModuleLoadData(&mc, ptx);
	is_res(cuCtxDestroy(c2), CUDA_SUCCESS, "the context destroyed");
	cuCtxSetCurrent(ctx);
	is_res(cuModuleGetFunctionCount(&n, mc), CUDA_ERROR_INVALID_HANDLE,
	       "its module went with it");
	is_res(cuModuleUnload(mc), CUDA_ERROR_INVALID_HANDLE,
	       "and cannot be unloaded again");
	is_res(cuModuleGetFunctionCount(&n, m1), CUDA_ERROR_INVALID_HANDLE,
	       "so did the library's module there");
	is_res(cuKernelGetFunction(&f1, k), CUDA_SUCCESS,
	       "the kernel still has its function here");
	ok(f1 == f0, "the first context's");
	cuLibraryUnload(l);
}

static void test_cooperative(void)
{
	CUmodule m, mc;
	CUfunction f, gs;
	CUdeviceptr dx, p, q;
	int zero = 0, sms = 0, rounds = 3, hq[2] = { -1, -1 };
	float a = 2;
	void *args[] = { &zero, &a, &dx, &dx }, *gargs[] = { &p, &q, &rounds };

	cuModuleLoadData(&m, ptx);
	cuModuleGetFunction(&f, m, "saxpy");
	cuMemAlloc(&dx, 4096);
	cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
			     dev);
	is_res(cuLaunchCooperativeKernel(f, sms * 2, 1, 1, 1024, 1, 1, 0, NULL,
					 args), CUDA_SUCCESS,
	       "2 blocks of 1024 per SM: the whole device");
	is_res(cuLaunchCooperativeKernel(f, sms * 2 + 1, 1, 1, 1024, 1, 1, 0,
					 NULL, args),
	       CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, "one more: TOO_LARGE");
	is_res(cuLaunchCooperativeKernel(f, sms * 8 + 1, 1, 1, 256, 1, 1, 0,
					 NULL, args),
	       CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
	       "8 of 256 per SM, one over: TOO_LARGE");
	is_res(cuLaunchCooperativeKernel(f, sms, 2, 1, 1024, 1, 1, 0, NULL,
					 args), CUDA_SUCCESS,
	       "a 2D grid counts its blocks");
	is_res(cuLaunchCooperativeKernel(f, sms + 1, 2, 1, 1024, 1, 1, 0,
					 NULL, args),
	       CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, "2D, over: TOO_LARGE");
	cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
			   100 * 1024);
	is_res(cuLaunchCooperativeKernel(f, sms * 5 + 1, 1, 1, 256, 1, 1,
					 40 * 1024, NULL, args),
	       CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
	       "40 KiB of shared memory leaves 5 per SM");
	cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
			   48 * 1024);
	is_res(cuLaunchCooperativeKernel(f, sms * 2 + 1, 1, 1, 1024, 1, 1,
					 1 << 20, NULL, args),
	       CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
	       "the grid is checked before the shared memory");
	is_res(cuLaunchCooperativeKernel(f, sms * 2 + 1, 1, 1, 1024, 1, 1, 0,
					 NULL, NULL), CUDA_ERROR_INVALID_VALUE,
	       "the parameters before the grid");
	is_res(cuLaunchCooperativeKernel(NULL, 1, 1, 1, 32, 1, 1, 0, NULL,
					 args), CUDA_ERROR_INVALID_HANDLE,
	       "NULL function");
	is_res(cuCtxSynchronize(), CUDA_SUCCESS, "the launches ran");
	cuModuleLoadData(&mc, ctl);
	cuModuleGetFunction(&gs, mc, "gridSync");
	cuMemAlloc(&p, 512 * 4);
	cuMemAlloc(&q, 512 * 4);
	cuMemsetD32(q, 0, 512);
	is_res(cuLaunchCooperativeKernel(gs, 4, 1, 1, 128, 1, 1, 0, NULL,
					 gargs), CUDA_SUCCESS,
	       "a grid sync, cooperatively");
	is_res(cuCtxSynchronize(), CUDA_SUCCESS, "runs");
	cuMemcpyDtoH(hq, q, 8);
	ok(hq[0] == 3459 && hq[1] == 3468, "as on the H100 (q = %d %d)",
	   hq[0], hq[1]);
	cuMemFree(p);
	cuMemFree(q);
	cuMemFree(dx);
	cuModuleUnload(mc);
	cuModuleUnload(m);
}

/* cuLaunchKernelEx with attrs[0] as given. */
static CUresult ex(CUlaunchConfig *c, CUfunction f, void **args)
{
	CUresult r = cuLaunchKernelEx(c, f, args, NULL);

	cuCtxSynchronize();
	return r;
}

static void test_ex(void)
{
	CUmodule m;
	CUfunction f;
	CUdeviceptr dx;
	CUevent ev;
	CUlaunchAttribute at[2];
	CUlaunchConfig c;
	int zero = 0, sms = 0;
	float a = 2;
	void *args[] = { &zero, &a, &dx, &dx };

	cuModuleLoadData(&m, ptx);
	cuModuleGetFunction(&f, m, "saxpy");
	cuMemAlloc(&dx, 4096);
	cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING);
	cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
			     dev);
	memset(&c, 0, sizeof c);
	memset(at, 0, sizeof at);
	c.gridDimX = c.gridDimY = c.gridDimZ = 1;
	c.gridDimX = 2;
	c.blockDimX = 64;
	c.blockDimY = c.blockDimZ = 1;
	is_res(ex(&c, f, args), CUDA_SUCCESS, "no attributes");
	is_res(cuLaunchKernelEx(NULL, f, args, NULL), CUDA_ERROR_INVALID_VALUE,
	       "NULL config");
	is_res(cuLaunchKernelEx(NULL, NULL, args, NULL),
	       CUDA_ERROR_INVALID_VALUE, "the config before the function");
	c.numAttrs = 1;
	c.gridDimX = 0;
	is_res(ex(&c, f, args), CUDA_ERROR_INVALID_VALUE,
	       "one attribute at NULL");
	c.gridDimX = 2;
	c.attrs = at;
	at[0].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
	at[0].value.cooperative = 7;
	is_res(ex(&c, f, args), CUDA_SUCCESS, "cooperative (any non-zero)");
	c.gridDimX = sms * 2 + 1;
	c.blockDimX = 1024;
	is_res(ex(&c, f, args), CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
	       "cooperative, one block over: TOO_LARGE");
	at[0].value.cooperative = 0;
	is_res(ex(&c, f, args), CUDA_SUCCESS, "cooperative 0: no limit");
	c.blockDimX = 64;
	at[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
	static const struct { unsigned c[3], g[3]; CUresult r; } cl[] = {
		{ { 2, 1, 1 }, { 48, 2, 1 }, CUDA_SUCCESS },
		{ { 3, 1, 1 }, { 48, 2, 1 }, CUDA_SUCCESS },
		{ { 4, 2, 1 }, { 48, 2, 1 }, CUDA_SUCCESS },
		{ { 1, 1, 8 }, { 2, 2, 8 }, CUDA_SUCCESS },
		{ { 0, 0, 0 }, { 48, 2, 1 }, CUDA_SUCCESS },
		{ { 16, 1, 1 }, { 48, 2, 1 }, CUDA_ERROR_INVALID_CLUSTER_SIZE },
		{ { 9, 1, 1 }, { 9, 1, 1 }, CUDA_ERROR_INVALID_CLUSTER_SIZE },
		{ { 0, 1, 1 }, { 48, 2, 1 }, CUDA_ERROR_INVALID_CLUSTER_SIZE },
		{ { 2, 1, 1 }, { 3, 1, 1 }, CUDA_ERROR_INVALID_CLUSTER_SIZE },
	};
	for (size_t i = 0; i < sizeof cl / sizeof *cl; i++) {
		memcpy(&at[0].value.clusterDim, cl[i].c, sizeof cl[i].c);
		c.gridDimX = cl[i].g[0];
		c.gridDimY = cl[i].g[1];
		c.gridDimZ = cl[i].g[2];
		is_res(ex(&c, f, args), cl[i].r, "cluster %ux%ux%u, grid "
		       "%ux%ux%u", cl[i].c[0], cl[i].c[1], cl[i].c[2],
		       cl[i].g[0], cl[i].g[1], cl[i].g[2]);
	}
	c.gridDimY = c.gridDimZ = 1;
	cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED,
			   1);
	at[0].value.clusterDim.x = 16;
	at[0].value.clusterDim.y = at[0].value.clusterDim.z = 1;
	c.gridDimX = 32;
	is_res(ex(&c, f, args), CUDA_SUCCESS,
	       "a cluster of 16 where the kernel allows non-portable sizes");
	cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED,
			   0);
	c.gridDimX = 2;
	static const struct { CUlaunchAttributeID id; int v; CUresult r; } one[] = {
		{ CU_LAUNCH_ATTRIBUTE_PRIORITY, -100, CUDA_SUCCESS },
		{ CU_LAUNCH_ATTRIBUTE_PRIORITY, 5, CUDA_SUCCESS },
		{ CU_LAUNCH_ATTRIBUTE_IGNORE, 0, CUDA_SUCCESS },
		{ (CUlaunchAttributeID)15, 0, CUDA_ERROR_INVALID_VALUE },
		{ (CUlaunchAttributeID)99, 0, CUDA_ERROR_INVALID_VALUE },
		{ CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY, 2,
		  CUDA_ERROR_INVALID_VALUE },
		{ CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE, 2,
		  CUDA_SUCCESS },
		{ CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE, 3,
		  CUDA_ERROR_INVALID_VALUE },
		{ CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION, 1,
		  CUDA_SUCCESS },
		{ CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN, 1, CUDA_SUCCESS },
		{ CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN, 5,
		  CUDA_ERROR_INVALID_VALUE },
		{ CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION, 2,
		  CUDA_ERROR_INVALID_CLUSTER_SIZE },
		{ CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE, 1,
		  CUDA_ERROR_NOT_SUPPORTED },
		{ CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 50,
		  CUDA_SUCCESS },
		{ CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 101,
		  CUDA_ERROR_INVALID_VALUE },
		{ CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING, 1,
		  CUDA_SUCCESS },
		{ CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT, 0,
		  CUDA_ERROR_INVALID_HANDLE },
	};
	for (size_t i = 0; i < sizeof one / sizeof *one; i++) {
		memset(&at[0].value, 0, sizeof at[0].value);
		at[0].id = one[i].id;
		at[0].value.priority = one[i].v; /* the first int of each */
		is_res(ex(&c, f, args), one[i].r, "attribute %d = %d",
		       (int)one[i].id, one[i].v);
	}
	memset(&at[0].value, 0, sizeof at[0].value);
	at[0].id = CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP;
	at[0].value.memSyncDomainMap.remote = 9;
	is_res(ex(&c, f, args), CUDA_ERROR_INVALID_VALUE,
	       "a domain map to domain 9");
	memset(&at[0].value, 0, sizeof at[0].value);
	at[0].id = CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW;
	at[0].value.accessPolicyWindow.num_bytes = 1 << 20;
	at[0].value.accessPolicyWindow.hitRatio = 0.5f;
	is_res(ex(&c, f, args), CUDA_SUCCESS, "an access policy window");
	at[0].value.accessPolicyWindow.hitRatio = 1.5f;
	is_res(ex(&c, f, args), CUDA_ERROR_INVALID_VALUE, "hit ratio 1.5");
	at[0].value.accessPolicyWindow.hitRatio = 0.5f;
	at[0].value.accessPolicyWindow.num_bytes = 1ull << 40;
	is_res(ex(&c, f, args), CUDA_ERROR_INVALID_VALUE, "a 1 TiB window");
	memset(&at[0].value, 0, sizeof at[0].value);
	at[0].id = CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT;
	at[0].value.launchCompletionEvent.event = ev;
	is_res(ex(&c, f, args), CUDA_SUCCESS, "a completion event");
	is_res(cuEventQuery(ev), CUDA_SUCCESS, "recorded, and done");
	at[0].id = CU_LAUNCH_ATTRIBUTE_IGNORE;
	is_res(cuLaunchKernelEx(&c, f, args, (void *[]){ CU_LAUNCH_PARAM_END }),
	       CUDA_ERROR_INVALID_VALUE, "both kernelParams and extra");
	is_res(cuLaunchKernelEx(&c, NULL, args, NULL), CUDA_ERROR_INVALID_HANDLE,
	       "NULL function");
	c.hStream = NULL;
	is_res(cuLaunchKernelEx_ptsz(&c, f, args, NULL), CUDA_SUCCESS,
	       "the per-thread form");
	is_res(cuCtxSynchronize(), CUDA_SUCCESS, "every launch ran");
	cuEventDestroy(ev);
	cuMemFree(dx);
	cuModuleUnload(m);
}

/* The extra buffer: short is taken, long refused. */
static void test_extra(void)
{
	CUmodule m;
	CUfunction f;
	CUdeviceptr dx;
	struct __attribute__((packed, aligned(8))) {
		int n;
		float a;
		CUdeviceptr x, y;
	} pb;
	size_t big = 64, small = 8;

	cuModuleLoadData(&m, ptx);
	cuModuleGetFunction(&f, m, "saxpy");
	cuMemAlloc(&dx, 4096);
	pb.n = 0;
	pb.a = 2;
	pb.x = pb.y = dx;
	void *eb[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &pb,
		       CU_LAUNCH_PARAM_BUFFER_SIZE, &big, CU_LAUNCH_PARAM_END };
	void *es[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &pb,
		       CU_LAUNCH_PARAM_BUFFER_SIZE, &small,
		       CU_LAUNCH_PARAM_END };
	is_res(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, eb),
	       CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES,
	       "64 bytes of parameters for 24: LAUNCH_OUT_OF_RESOURCES");
	is_res(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, es),
	       CUDA_SUCCESS, "8 bytes for 24: taken");
	is_res(cuCtxSynchronize(), CUDA_SUCCESS, "runs");
	cuMemFree(dx);
	cuModuleUnload(m);
}

int main(void)
{
	CUlibrary l = NULL;

	is_res(cuLibraryLoadData(&l, "x", NULL, NULL, 0, NULL, NULL, 0),
	       CUDA_ERROR_NOT_INITIALIZED, "before cuInit: NOT_INITIALIZED");
	ptx = kernel_file("basic.ptx", NULL);
	ctl = kernel_file("control.ptx", NULL);
	cuInit(0);
	cuDeviceGet(&dev, 0);
	cuDevicePrimaryCtxRetain(&ctx, dev);
	cuCtxSetCurrent(ctx);
	test_loading();
	test_entries();
	test_contexts();
	test_managed();
	test_cooperative();
	test_ex();
	test_extra();
	cuCtxSetCurrent(NULL);
	cuDevicePrimaryCtxRelease(dev);
	free(ptx);
	free(ctl);
	return done_testing();
}
