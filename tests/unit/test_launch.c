/*
 * test_launch.c - kernels of tests/unit/kernels/basic.cu launched with
 * cuLaunchKernel: results right on device and managed memory, a module
 * variable read and written by a kernel, shared memory static and
 * dynamic, parameters as kernelParams and as the `extra` buffer, stream
 * order with events across two streams, the launch checks in the real
 * driver's order (probes/results/launch.txt), and the failures that leave
 * the context failed (illegal address, assert, trap) with what every call
 * answers then.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "kernel_file.h"

static CUdevice dev;
static CUcontext ctx;
static CUmodule mod;

static char *slurp(const char *name)
{
	return kernel_file(name, NULL);
}

static CUfunction fn(const char *name)
{
	return kernel_fn(mod, name);
}

/* The primary context afresh, basic.ptx loaded in it. */
static void fresh(const char *ptx)
{
	cuCtxSetCurrent(NULL);
	cuDevicePrimaryCtxReset(dev);
	cuDevicePrimaryCtxRetain(&ctx, dev);
	cuCtxSetCurrent(ctx);
	if (cuModuleLoadData(&mod, ptx) != CUDA_SUCCESS) {
		printf("Bail out! basic.ptx does not load\n");
		exit(1);
	}
}

static void test_saxpy(void)
{
	enum { N = 1 << 18 };
	float *hx = malloc(N * 4), *hy = malloc(N * 4), a = 2;
	CUdeviceptr dx, dy, mx, my;
	CUfunction f = fn("saxpy");
	int n = N, bad = 0;
	void *args[] = { &n, &a, &dx, &dy }, *margs[] = { &n, &a, &mx, &my };

	for (int i = 0; i < N; i++) {
		hx[i] = (float)i;
		hy[i] = 1;
	}
	cuMemAlloc(&dx, N * 4);
	cuMemAlloc(&dy, N * 4);
	cuMemcpyHtoD(dx, hx, N * 4);
	cuMemcpyHtoD(dy, hy, N * 4);
	is_res(cuLaunchKernel(f, N / 256, 1, 1, 256, 1, 1, 0, NULL, args,
			      NULL), CUDA_SUCCESS, "saxpy on device memory");
	is_res(cuCtxSynchronize(), CUDA_SUCCESS, "runs");
	cuMemcpyDtoH(hy, dy, N * 4);
	for (int i = 0; i < N; i++)
		bad += hy[i] != 2.0f * (float)i + 1.0f;
	is_int(bad, 0, "y = 2x + 1 everywhere (y[N-1] = %g)", hy[N - 1]);
	cuMemAllocManaged(&mx, N * 4, CU_MEM_ATTACH_GLOBAL);
	cuMemAllocManaged(&my, N * 4, CU_MEM_ATTACH_GLOBAL);
	for (int i = 0; i < N; i++) {
		((float *)(uintptr_t)mx)[i] = (float)i;
		((float *)(uintptr_t)my)[i] = 1;
	}
	is_res(cuLaunchKernel(f, N / 256, 1, 1, 256, 1, 1, 0, NULL, margs,
			      NULL), CUDA_SUCCESS, "saxpy on managed memory");
	is_res(cuCtxSynchronize(), CUDA_SUCCESS, "runs");
	bad = 0;
	for (int i = 0; i < N; i++)
		bad += ((float *)(uintptr_t)my)[i] != 2.0f * (float)i + 1.0f;
	is_int(bad, 0, "the host reads y = 2x + 1 back");
	cuMemFree(dx);
	cuMemFree(dy);
	cuMemFree(mx);
	cuMemFree(my);
	free(hx);
	free(hy);
}

static void test_kernels(void)
{
	float t[1024], tt[1024];
	int iv[512], ov[2], out = 0, *counter;
	CUdeviceptr dx, dy, dc;
	size_t sz;
	void *targs[] = { &dx, &dy }, *gargs[] = { &dx };
	int bad = 0;

	cuMemAlloc(&dx, 4096);
	cuMemAlloc(&dy, 4096);
	for (int i = 0; i < 1024; i++)
		t[i] = (float)i;
	cuMemcpyHtoD(dx, t, sizeof t);
	is_res(cuLaunchKernel(fn("transpose32"), 1, 1, 1, 32, 32, 1, 0, NULL,
			      targs, NULL), CUDA_SUCCESS,
	       "a transpose through static shared memory");
	cuMemcpyDtoH(tt, dy, sizeof tt);
	for (int i = 0; i < 1024; i++)
		bad += tt[i] != t[(i % 32) * 32 + i / 32];
	is_int(bad, 0, "is the transpose");
	for (int i = 0; i < 512; i++)
		iv[i] = i;
	cuMemcpyHtoD(dx, iv, sizeof iv);
	is_res(cuLaunchKernel(fn("blocksum"), 2, 1, 1, 256, 1, 1, 256 * 4,
			      NULL, targs, NULL), CUDA_SUCCESS,
	       "a block sum through dynamic shared memory");
	cuMemcpyDtoH(ov, dy, sizeof ov);
	ok(ov[0] == 32640 && ov[1] == 98176, "sums to %d and %d, as on the "
	   "H100", ov[0], ov[1]);
	cuModuleGetGlobal(&dc, &sz, mod, "counter");
	counter = (int *)(uintptr_t)dc;
	*counter = 7;
	is_res(cuLaunchKernel(fn("globals"), 1, 1, 1, 4, 1, 1, 0, NULL, gargs,
			      NULL), CUDA_SUCCESS,
	       "a kernel of the module's variables");
	cuMemcpyDtoH(&out, dx, 4);
	/* four lanes store to out[0]: which lands is the device's choice
	 * (the H100 kept lane 0's, 2) */
	ok(out >= 2 && out <= 5 && *counter == 11, "reads table and coef "
	   "(%d) and bumps the managed counter four times (%d)", out,
	   *counter);
	cuMemFree(dx);
	cuMemFree(dy);
}

static void test_params(void)
{
	struct __attribute__((packed, aligned(8))) {
		int n;
		float a;
		CUdeviceptr x, y;
	} pb;
	size_t pbs = sizeof pb;
	float h[64];
	CUdeviceptr dx, dy;
	void *extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &pb,
			  CU_LAUNCH_PARAM_BUFFER_SIZE, &pbs,
			  CU_LAUNCH_PARAM_END };
	void *noptr[] = { CU_LAUNCH_PARAM_BUFFER_SIZE, &pbs,
			  CU_LAUNCH_PARAM_END };
	void *nosize[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &pb,
			   CU_LAUNCH_PARAM_END };
	void *badkey[] = { (void *)0x77, &pbs, CU_LAUNCH_PARAM_END };
	void *empty[] = { CU_LAUNCH_PARAM_END };
	CUfunction f = fn("saxpy");
	void *args[] = { &pb.n, &pb.a, &dx, &dy };

	cuMemAlloc(&dx, 256);
	cuMemAlloc(&dy, 256);
	for (int i = 0; i < 64; i++)
		h[i] = (float)i;
	cuMemcpyHtoD(dx, h, 256);
	cuMemsetD32(dy, 0, 64);
	pb.n = 64;
	pb.a = 3;
	pb.x = dx;
	pb.y = dy;
	is_res(cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, NULL, extra),
	       CUDA_SUCCESS, "parameters as the extra buffer");
	cuMemcpyDtoH(h, dy, 256);
	ok(h[10] == 30.0f && h[63] == 189.0f, "reach the kernel: y = 3x");
	is_res(cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, args, extra),
	       CUDA_ERROR_INVALID_VALUE, "both kernelParams and extra: "
	       "INVALID_VALUE");
	is_res(cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, NULL, noptr),
	       CUDA_ERROR_INVALID_VALUE, "extra without its pointer");
	is_res(cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, NULL, nosize),
	       CUDA_ERROR_INVALID_VALUE, "extra without its size");
	is_res(cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, NULL, badkey),
	       CUDA_ERROR_INVALID_VALUE, "extra with an unknown key");
	is_res(cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, NULL, empty),
	       CUDA_ERROR_INVALID_VALUE, "extra with nothing in it");
	is_res(cuCtxSynchronize(), CUDA_SUCCESS,
	       "refused launches leave the context well");
	cuMemFree(dx);
	cuMemFree(dy);
}

static void test_checks(void)
{
	static const struct {
		const char *name;
		unsigned g[3], b[3], smem;
		int nullp;
		CUresult want;
	} c[] = {
		{ "grid x 0", { 0, 1, 1 }, { 32, 1, 1 }, 0, 0,
		  CUDA_ERROR_INVALID_VALUE },
		{ "grid y 0", { 1, 0, 1 }, { 32, 1, 1 }, 0, 0,
		  CUDA_ERROR_INVALID_VALUE },
		{ "block x 0", { 1, 1, 1 }, { 0, 1, 1 }, 0, 0,
		  CUDA_ERROR_INVALID_VALUE },
		{ "grid x 2^31", { 0x80000000u, 1, 1 }, { 1, 1, 1 }, 0, 0,
		  CUDA_ERROR_INVALID_VALUE },
		{ "grid y 65536", { 1, 65536, 1 }, { 1, 1, 1 }, 0, 0,
		  CUDA_ERROR_INVALID_VALUE },
		{ "grid z 65536", { 1, 1, 65536 }, { 1, 1, 1 }, 0, 0,
		  CUDA_ERROR_INVALID_VALUE },
		{ "block x 1025", { 1, 1, 1 }, { 1025, 1, 1 }, 0, 0,
		  CUDA_ERROR_INVALID_VALUE },
		{ "block z 65", { 1, 1, 1 }, { 1, 1, 65 }, 0, 0,
		  CUDA_ERROR_INVALID_VALUE },
		{ "block of 33x32 threads", { 1, 1, 1 }, { 33, 32, 1 }, 0, 0,
		  CUDA_ERROR_INVALID_VALUE },
		{ "no parameters for a kernel that takes four", { 1, 1, 1 },
		  { 32, 1, 1 }, 0, 1, CUDA_ERROR_INVALID_VALUE },
		{ "48 KiB + 1 of dynamic shared memory", { 1, 1, 1 },
		  { 32, 1, 1 }, 48 * 1024 + 1, 0, CUDA_ERROR_INVALID_VALUE },
	};
	CUfunction f = fn("saxpy");
	CUdeviceptr d = 0;
	int n = 0;
	float a = 1;
	void *args[] = { &n, &a, &d, &d };
	int idx = 0;
	void *largs[] = { &d, &d };

	for (size_t i = 0; i < sizeof c / sizeof *c; i++)
		is_res(cuLaunchKernel(f, c[i].g[0], c[i].g[1], c[i].g[2],
				      c[i].b[0], c[i].b[1], c[i].b[2],
				      c[i].smem, NULL,
				      c[i].nullp ? NULL : args, NULL),
		       c[i].want, "%s", c[i].name);
	is_res(cuLaunchKernel(NULL, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL),
	       CUDA_ERROR_INVALID_HANDLE, "a NULL function: INVALID_HANDLE");
	(void)idx;
	is_res(cuLaunchKernel(fn("localsum"), 1, 1, 1, 129, 1, 1, 0, NULL,
			      largs, NULL), CUDA_ERROR_INVALID_VALUE,
	       "129 threads where launch bounds say 128: INVALID_VALUE");
	is_res(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH,
				  2), CUDA_SUCCESS, "a cluster width of 2 "
	       "required");
	is_res(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL),
	       CUDA_ERROR_INVALID_CLUSTER_SIZE,
	       "a grid of 1 then: INVALID_CLUSTER_SIZE");
	is_res(cuLaunchKernel(f, 1, 1, 1, 1025, 1, 1, 0, NULL, args, NULL),
	       CUDA_ERROR_INVALID_VALUE, "the block is checked before the "
	       "cluster");
	is_res(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL),
	       CUDA_ERROR_INVALID_VALUE, "the parameters too");
	is_res(cuLaunchKernel(f, 2, 1, 1, 32, 1, 1, 0, NULL, args, NULL),
	       CUDA_SUCCESS, "a grid of 2 runs");
	cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, 0);
	is_res(cuFuncSetAttribute(f,
				  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
				  100 * 1024), CUDA_SUCCESS,
	       "opting in to 100 KiB");
	is_res(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 100 * 1024, NULL, args,
			      NULL), CUDA_SUCCESS, "then 100 KiB launches");
	is_res(cuCtxSynchronize(), CUDA_SUCCESS, "and runs");
}

/* Two streams: the second waits for an event the first records after
 * its saxpy, then doubles what the first wrote. */
static void test_streams(void)
{
	enum { N = 4096 };
	CUstream s1, s2;
	CUevent e;
	CUdeviceptr dx, dy;
	float h[N], a1 = 1, a2 = 2;
	int n = N, bad = 0;
	void *first[] = { &n, &a1, &dx, &dy }, *second[] = { &n, &a2, &dy, &dx };

	cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING);
	cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING);
	cuEventCreate(&e, CU_EVENT_DISABLE_TIMING);
	cuMemAlloc(&dx, N * 4);
	cuMemAlloc(&dy, N * 4);
	for (int i = 0; i < N; i++)
		h[i] = 1;
	cuMemcpyHtoD(dx, h, sizeof h);
	cuMemsetD32(dy, 0, N);
	/* s1: y = x + y = 1; s2 after the event: x = 2y + x = 3 */
	is_res(cuLaunchKernel(fn("saxpy"), N / 256, 1, 1, 256, 1, 1, 0, s1,
			      first, NULL), CUDA_SUCCESS, "on the first stream");
	cuEventRecord(e, s1);
	cuStreamWaitEvent(s2, e, 0);
	is_res(cuLaunchKernel(fn("saxpy"), N / 256, 1, 1, 256, 1, 1, 0, s2,
			      second, NULL), CUDA_SUCCESS,
	       "on the second, after the first's event");
	is_res(cuStreamSynchronize(s2), CUDA_SUCCESS, "the second finishes");
	cuMemcpyDtoH(h, dx, sizeof h);
	for (int i = 0; i < N; i++)
		bad += h[i] != 3.0f;
	is_int(bad, 0, "it saw the first's result: x = 3 everywhere");
	cuEventDestroy(e);
	cuStreamDestroy(s1);
	cuStreamDestroy(s2);
	cuMemFree(dx);
	cuMemFree(dy);
}

static void test_failures(const char *ptx)
{
	CUdeviceptr p = 0x10, d;
	CUmodule m2;
	int v = 3;
	void *iargs[] = { &p }, *aargs[] = { &v };

	is_res(cuLaunchKernel(fn("illegal"), 1, 1, 1, 32, 1, 1, 0, NULL,
			      iargs, NULL), CUDA_SUCCESS,
	       "a kernel that stores to 0x10 launches");
	is_res(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS,
	       "the synchronize after it: ILLEGAL_ADDRESS");
	is_res(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS,
	       "and again: the context stays failed");
	is_res(cuMemAlloc(&d, 4096), CUDA_ERROR_ILLEGAL_ADDRESS,
	       "an allocation in it too");
	is_res(cuModuleLoadData(&m2, ptx), CUDA_ERROR_ILLEGAL_ADDRESS,
	       "a module load too");
	is_res(cuLaunchKernel(fn("saxpy"), 1, 1, 1, 1, 1, 1, 0, NULL, NULL,
			      NULL), CUDA_ERROR_ILLEGAL_ADDRESS,
	       "a launch too");
	fresh(ptx);
	is_res(cuMemAlloc(&d, 4096), CUDA_SUCCESS,
	       "a reset primary context works again");
	cuMemFree(d);
	is_res(cuLaunchKernel(fn("fails_assert"), 1, 1, 1, 2, 1, 1, 0, NULL,
			      aargs, NULL), CUDA_SUCCESS,
	       "a kernel whose assert fails launches");
	is_res(cuCtxSynchronize(), CUDA_ERROR_ASSERT,
	       "the synchronize: ASSERT (the message on stderr)");
	is_res(cuMemAlloc(&d, 4096), CUDA_ERROR_ASSERT, "and it stays");
	fresh(ptx);
	is_res(cuLaunchKernel(fn("traps"), 1, 1, 1, 1, 1, 1, 0, NULL, NULL,
			      NULL), CUDA_SUCCESS, "a kernel that traps");
	is_res(cuCtxSynchronize(), CUDA_ERROR_LAUNCH_FAILED,
	       "the synchronize: LAUNCH_FAILED");
	is_res(cuCtxSynchronize(), CUDA_ERROR_LAUNCH_FAILED, "and it stays");
	fresh(ptx);
}

int main(void)
{
	char *ptx = slurp("basic.ptx");

	cuInit(0);
	cuDeviceGet(&dev, 0);
	cuDevicePrimaryCtxRetain(&ctx, dev);
	cuCtxSetCurrent(ctx);
	if (cuModuleLoadData(&mod, ptx) != CUDA_SUCCESS) {
		printf("Bail out! basic.ptx does not load\n");
		return 1;
	}
	test_saxpy();
	test_kernels();
	test_params();
	test_checks();
	test_streams();
	test_failures(ptx);
	cuModuleUnload(mod);
	cuDevicePrimaryCtxRelease(dev);
	free(ptx);
	return done_testing();
}
