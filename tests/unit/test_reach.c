/*
 * test_reach.c - what memory a kernel reaches (driver/launch.c's page()):
 * a pool block until its stream-ordered free runs (cuda-samples'
 * streamOrderedAllocation frees right after its launch), another GPU's
 * pool block only where the pool grants access, and memory mapped with
 * cuMemMap only where cuMemSetAccess grants the device access. Each
 * refused access is ILLEGAL_ADDRESS and leaves the context failed, as on
 * the device; the primary context is reset between them.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "kernel_file.h"

enum { N = 1 << 16, BYTES = N * 4 };

static CUdevice dev;
static CUcontext ctx;
static CUmodule mod;
static CUfunction saxpy;
static char *ptx;

/* The primary context afresh, basic.ptx loaded in it. */
static void fresh(void)
{
	/* a reset keeps the retain main made */
	cuCtxSetCurrent(NULL);
	cuDevicePrimaryCtxReset(dev);
	cuCtxSetCurrent(ctx);
	if (cuModuleLoadData(&mod, ptx) != CUDA_SUCCESS ||
	    cuModuleGetFunction(&saxpy, mod, "saxpy") != CUDA_SUCCESS) {
		printf("Bail out! basic.ptx does not load\n");
		exit(1);
	}
}

/* y = 2x + y over N floats on stream s. */
static CUresult run(CUdeviceptr x, CUdeviceptr y, CUstream s)
{
	int n = N;
	float a = 2;
	void *args[] = { &n, &a, &x, &y };

	return cuLaunchKernel(saxpy, N / 256, 1, 1, 256, 1, 1, 0, s, args,
			      NULL);
}

static void test_pool_free_after_launch(void)
{
	CUdeviceptr x, y, out;
	CUstream s;
	float h[2] = { 0, 0 };

	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	cuMemAllocAsync(&x, BYTES, s);
	cuMemAllocAsync(&y, BYTES, s);
	cuMemAlloc(&out, BYTES);
	cuMemsetD32Async(x, 0x3f800000, N, s); /* 1.0f */
	cuMemsetD32Async(y, 0x3f800000, N, s);
	is_res(run(x, y, s), CUDA_SUCCESS, "a kernel on two pool blocks");
	cuMemcpyDtoDAsync(out, y, BYTES, s);
	is_res(cuMemFreeAsync(x, s), CUDA_SUCCESS,
	       "x freed in stream order right after the launch");
	is_res(cuMemFreeAsync(y, s), CUDA_SUCCESS, "and y");
	is_res(cuStreamSynchronize(s), CUDA_SUCCESS,
	       "the kernel queued before the frees reaches the blocks");
	cuMemcpyDtoH(h, out, sizeof h);
	ok(h[0] == 3.0f && h[1] == 3.0f, "y = 2x + y (%g %g)", h[0], h[1]);
	cuMemFree(out);
	cuStreamDestroy(s);
}

static void test_pool_freed(void)
{
	CUdeviceptr x;
	CUstream s;

	fresh();
	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	cuMemAllocAsync(&x, BYTES, s);
	cuMemFreeAsync(x, s);
	cuStreamSynchronize(s);
	is_res(run(x, x, s), CUDA_SUCCESS, "a launch on a block freed before");
	is_res(cuStreamSynchronize(s), CUDA_ERROR_ILLEGAL_ADDRESS,
	       "whose free ran: ILLEGAL_ADDRESS");
}

/* gpu1's pool block from a kernel on gpu0: with the pool's access only. */
static void test_pool_access(void)
{
	CUmemoryPool p;
	CUmemPoolProps pp;
	CUmemAccessDesc d;
	CUdeviceptr x;
	CUstream s;
	int ndev = 0;

	cuDeviceGetCount(&ndev);
	if (ndev < 2) {
		ok(1, "# SKIP one GPU: no other device's pool");
		return;
	}
	fresh();
	memset(&pp, 0, sizeof pp);
	pp.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	pp.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	pp.location.id = 1;
	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	is_res(cuMemPoolCreate(&p, &pp), CUDA_SUCCESS, "a pool on gpu1");
	cuMemAllocFromPoolAsync(&x, BYTES, p, s);
	cuMemsetD32Async(x, 0, N, s);
	memset(&d, 0, sizeof d);
	d.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	d.location.id = 0;
	d.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	is_res(cuMemPoolSetAccess(p, &d, 1), CUDA_SUCCESS,
	       "gpu0 given access to it");
	is_res(run(x, x, s), CUDA_SUCCESS, "a kernel on gpu0 uses its block");
	is_res(cuStreamSynchronize(s), CUDA_SUCCESS, "and runs");
	d.flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;
	cuMemPoolSetAccess(p, &d, 1);
	is_res(run(x, x, s), CUDA_SUCCESS, "launched after the access ends");
	is_res(cuStreamSynchronize(s), CUDA_ERROR_ILLEGAL_ADDRESS,
	       "without access: ILLEGAL_ADDRESS (peer access is not asked)");
}

/* Memory mapped into a reservation, with and without gpu0's access. */
static void test_vmm(void)
{
	CUmemAllocationProp prop;
	CUmemGenericAllocationHandle h;
	CUmemAccessDesc d;
	CUdeviceptr va;
	size_t gran = 0, size;

	fresh();
	memset(&prop, 0, sizeof prop);
	prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
	prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	prop.location.id = 0;
	cuMemGetAllocationGranularity(&gran, &prop,
				      CU_MEM_ALLOC_GRANULARITY_MINIMUM);
	size = (BYTES + gran - 1) / gran * gran;
	cuMemAddressReserve(&va, size, 0, 0, 0);
	is_res(cuMemCreate(&h, size, &prop, 0), CUDA_SUCCESS, "a handle");
	is_res(cuMemMap(va, size, 0, h, 0), CUDA_SUCCESS, "mapped");
	memset(&d, 0, sizeof d);
	d.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	d.location.id = 0;
	d.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	is_res(cuMemSetAccess(va, size, &d, 1), CUDA_SUCCESS,
	       "gpu0 given read-write access");
	cuMemsetD32(va, 0x3f800000, N);
	is_res(run(va, va, NULL), CUDA_SUCCESS, "a kernel on the mapping");
	is_res(cuCtxSynchronize(), CUDA_SUCCESS, "runs");
	float v = 0;
	cuMemcpyDtoH(&v, va, sizeof v);
	ok(v == 3.0f, "and writes it (%g)", v);
	cuMemUnmap(va, size);
	cuMemMap(va, size, 0, h, 0);
	is_res(run(va, va, NULL), CUDA_SUCCESS,
	       "launched on it mapped again, no access set");
	is_res(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS,
	       "ILLEGAL_ADDRESS");
	fresh();
	cuMemUnmap(va, size);
	cuMemRelease(h);
	cuMemAddressFree(va, size);
}

int main(void)
{
	ptx = kernel_file("basic.ptx", NULL);
	cuInit(0);
	cuDeviceGet(&dev, 0);
	cuDevicePrimaryCtxRetain(&ctx, dev);
	fresh();
	test_pool_free_after_launch();
	test_pool_freed();
	test_pool_access();
	test_vmm();
	fresh();
	cuCtxSetCurrent(NULL);
	cuDevicePrimaryCtxRelease(dev);
	free(ptx);
	return done_testing();
}
