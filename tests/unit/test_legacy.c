/*
 * test_legacy.c - the entry points older than CUDA 3.2 and the context
 * calls CUDA 13 added as _v2, as the real driver answers them in a 64-bit
 * process (probes/results/legacy.txt): every 32-bit-address call answers
 * CUDA_ERROR_INVALID_CONTEXT and writes nothing; cuMemHostRegister works as
 * its _v2; cuCtxGetDevice_v2, cuCtxSynchronize_v2 and cuStreamGetCtx_v2
 * take a context (or NULL for the current one).
 */
#define CUEMU_SUPERSEDED_ENTRY_POINTS 1
#include <stdlib.h>

#include "cuda.h"
#include "tap.h"

#undef cuMemGetInfo
#undef cuMemAlloc
#undef cuMemAllocPitch
#undef cuMemFree
#undef cuMemGetAddressRange
#undef cuMemAllocHost
#undef cuMemHostGetDevicePointer
#undef cuMemHostRegister
#undef cuMemcpyHtoD
#undef cuMemcpyDtoH
#undef cuMemcpyDtoD
#undef cuMemsetD8
#undef cuMemsetD16
#undef cuMemsetD32

static void test_before_init(void)
{
	CUdeviceptr_v1 d = 7;

	is_res(cuMemAlloc(&d, 4096), CUDA_ERROR_NOT_INITIALIZED,
	       "cuMemAlloc (32-bit) before cuInit");
}

static void test_v1(void)
{
	CUdeviceptr_v1 d = 7, base = 7;
	unsigned int f = 7, t = 7, pitch = 7, size = 7;
	void *hp = (void *)7;
	char buf[16];

	is_res(cuMemGetInfo(&f, &t), CUDA_ERROR_INVALID_CONTEXT,
	       "cuMemGetInfo (32-bit) has no context in a 64-bit process");
	ok(f == 7 && t == 7, "... and writes nothing");
	is_res(cuMemAlloc(&d, 1 << 20), CUDA_ERROR_INVALID_CONTEXT,
	       "cuMemAlloc (32-bit)");
	is_int(d, 7, "... writes no address");
	is_res(cuMemAllocPitch(&d, &pitch, 100, 10, 4), CUDA_ERROR_INVALID_CONTEXT,
	       "cuMemAllocPitch (32-bit)");
	ok(d == 7 && pitch == 7, "... writes nothing");
	is_res(cuMemFree(0), CUDA_ERROR_INVALID_CONTEXT, "cuMemFree (32-bit) of 0");
	is_res(cuMemGetAddressRange(&base, &size, 0), CUDA_ERROR_INVALID_CONTEXT,
	       "cuMemGetAddressRange (32-bit)");
	is_res(cuMemAllocHost(&hp, 4096), CUDA_ERROR_INVALID_CONTEXT,
	       "cuMemAllocHost (32-bit size)");
	ok(hp == (void *)7, "... writes no pointer");
	is_res(cuMemcpyHtoD(0, buf, 0), CUDA_ERROR_INVALID_CONTEXT,
	       "cuMemcpyHtoD (32-bit), even of 0 bytes");
	is_res(cuMemcpyDtoH(buf, 0, 0), CUDA_ERROR_INVALID_CONTEXT,
	       "cuMemcpyDtoH (32-bit)");
	is_res(cuMemcpyDtoD(0, 0, 0), CUDA_ERROR_INVALID_CONTEXT,
	       "cuMemcpyDtoD (32-bit)");
	is_res(cuMemsetD8(0, 0, 0), CUDA_ERROR_INVALID_CONTEXT, "cuMemsetD8 (32-bit)");
	is_res(cuMemsetD16(0, 0, 0), CUDA_ERROR_INVALID_CONTEXT, "cuMemsetD16 (32-bit)");
	is_res(cuMemsetD32(0, 0, 0), CUDA_ERROR_INVALID_CONTEXT, "cuMemsetD32 (32-bit)");
}

static void test_host_register(void)
{
	void *m = aligned_alloc(4096, 65536);
	unsigned int flags = 0;
	CUdeviceptr_v1 d = 7;

	is_res(cuMemHostRegister(m, 65536, 0), CUDA_SUCCESS,
	       "cuMemHostRegister (first version) registers as its _v2 does");
	is_res(cuMemHostGetFlags(&flags, m), CUDA_SUCCESS, "... the range is registered");
	is_res(cuMemHostGetDevicePointer(&d, m, 0), CUDA_ERROR_INVALID_CONTEXT,
	       "cuMemHostGetDevicePointer (32-bit) of it has no context");
	is_res(cuMemHostUnregister(m), CUDA_SUCCESS, "and it unregisters");
	free(m);
}

static void test_v2_context_calls(CUcontext primary)
{
	CUcontext other, got = NULL;
	CUgreenCtx green = (CUgreenCtx)1;
	CUdevice dev = -9;
	CUstream s;

	is_res(cuCtxGetDevice_v2(&dev, NULL), CUDA_SUCCESS,
	       "cuCtxGetDevice_v2 of NULL: the current context's device");
	is_int(dev, 0, "... device 0");
	is_res(cuDevicePrimaryCtxRetain(&other, 2), CUDA_SUCCESS, "retain gpu2's");
	is_res(cuCtxGetDevice_v2(&dev, other), CUDA_SUCCESS,
	       "cuCtxGetDevice_v2 of a context that is not current");
	is_int(dev, 2, "... its own device");
	is_res(cuCtxGetDevice_v2(NULL, other), CUDA_ERROR_INVALID_VALUE,
	       "cuCtxGetDevice_v2 with no place for the answer");
	is_res(cuCtxSynchronize_v2(NULL), CUDA_SUCCESS, "cuCtxSynchronize_v2(NULL)");
	is_res(cuCtxSynchronize_v2(other), CUDA_SUCCESS,
	       "cuCtxSynchronize_v2 of a context that is not current");
	is_res(cuStreamCreate(&s, 0), CUDA_SUCCESS, "a stream");
	is_res(cuStreamGetCtx_v2(s, &got, &green), CUDA_SUCCESS, "cuStreamGetCtx_v2");
	ok(got == primary, "... answers the stream's context");
	ok(green == NULL, "... and no green context");
	is_res(cuStreamDestroy(s), CUDA_SUCCESS, "destroy the stream");
	is_res(cuStreamGetCtx_v2(s, &got, &green), CUDA_ERROR_INVALID_HANDLE,
	       "cuStreamGetCtx_v2 of a destroyed stream");
	cuDevicePrimaryCtxRelease(2);
}

int main(void)
{
	CUcontext ctx;

	setenv("CUEMU_CONTROL", "0", 1);
	test_before_init();
	if (cuInit(0) || cuDevicePrimaryCtxRetain(&ctx, 0) || cuCtxSetCurrent(ctx)) {
		ok(0, "cuInit and gpu0's primary context");
		return done_testing();
	}
	test_v1();
	test_host_register();
	test_v2_context_calls(ctx);
	return done_testing();
}
