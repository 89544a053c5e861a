/* legacy.c - what the pre-3.2 entry points (32-bit CUdeviceptr and sizes,
 * exported beside the _v2 names) and CUDA 13's new _v2 context calls do on
 * a 64-bit process. Called through dlsym, since the header maps the names. */
#include "common.h"
#include <dlfcn.h>

typedef unsigned int u32;

int main(void)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW);
    CUresult (*alloc_v1)(u32 *, u32) = dlsym(lib, "cuMemAlloc");
    CUresult (*free_v1)(u32) = dlsym(lib, "cuMemFree");
    CUresult (*info_v1)(u32 *, u32 *) = dlsym(lib, "cuMemGetInfo");
    CUresult (*allochost_v1)(void **, u32) = dlsym(lib, "cuMemAllocHost");
    CUresult (*range_v1)(u32 *, u32 *, u32) = dlsym(lib, "cuMemGetAddressRange");
    CUresult (*htod_v1)(u32, const void *, u32) = dlsym(lib, "cuMemcpyHtoD");
    CUresult (*memset_v1)(u32, unsigned char, u32) = dlsym(lib, "cuMemsetD8");
    CUresult (*sync_v2)(CUcontext) = dlsym(lib, "cuCtxSynchronize_v2");
    CUresult (*getdev_v2)(CUdevice *, CUcontext) = dlsym(lib, "cuCtxGetDevice_v2");
    CUresult (*streamctx_v2)(CUstream, CUcontext *, void **) = dlsym(lib, "cuStreamGetCtx_v2");
    CUresult (*reg_v1)(void *, size_t, unsigned) = dlsym(lib, "cuMemHostRegister");
    CUresult (*hostdev_v1)(u32 *, void *, unsigned) = dlsym(lib, "cuMemHostGetDevicePointer");
    CUresult (*pitch_v1)(u32 *, u32 *, u32, u32, u32) = dlsym(lib, "cuMemAllocPitch");
    CUresult (*dtod_v1)(u32, u32, u32) = dlsym(lib, "cuMemcpyDtoD");
    CUresult (*dtoh_v1)(void *, u32, u32) = dlsym(lib, "cuMemcpyDtoH");
    CUresult (*d16_v1)(u32, unsigned short, u32) = dlsym(lib, "cuMemsetD16");
    CUcontext ctx, got = NULL;
    CUdevice dev = -9;
    CUdeviceptr d64 = 0;
    CUstream s;
    void *hp = NULL;
    u32 d = 0, f = 0, t = 0, base = 0, size = 0;
    char buf[64] = "";

    CK(cuInit(0));
    CK(cuDevicePrimaryCtxRetain(&ctx, 0));
    CK(cuCtxSetCurrent(ctx));
    CK(cuStreamCreate(&s, 0));
    P("legacy.syms: alloc=%d free=%d info=%d allochost=%d range=%d htod=%d memset=%d sync_v2=%d getdev_v2=%d streamctx_v2=%d\n",
      !!alloc_v1, !!free_v1, !!info_v1, !!allochost_v1, !!range_v1, !!htod_v1, !!memset_v1,
      !!sync_v2, !!getdev_v2, !!streamctx_v2);
    if (info_v1) P("legacy.meminfo_v1: %s free=%u total=%u\n", en(info_v1(&f, &t)), f, t);
    if (alloc_v1) P("legacy.alloc_v1_1MiB: %s d=%#x\n", en(alloc_v1(&d, 1 << 20)), d);
    if (alloc_v1) P("legacy.alloc_v1_0: %s\n", en(alloc_v1(&d, 0)));
    CK(cuMemAlloc_v2(&d64, 1 << 20));
    P("legacy.alloc_v2_ptr: %#llx fits32=%d\n", (unsigned long long)d64, d64 <= 0xffffffffULL);
    if (range_v1) P("legacy.range_v1_of_v2ptr: %s base=%#x size=%u\n",
                    en(range_v1(&base, &size, (u32)d64)), base, size);
    if (htod_v1) P("legacy.htod_v1_trunc_ptr: %s\n", en(htod_v1((u32)d64, buf, sizeof buf)));
    if (memset_v1) P("legacy.memset_v1_trunc_ptr: %s\n", en(memset_v1((u32)d64, 0, 64)));
    if (free_v1) P("legacy.free_v1_trunc_ptr: %s\n", en(free_v1((u32)d64)));
    if (free_v1) P("legacy.free_v1_0: %s\n", en(free_v1(0)));
    if (allochost_v1) P("legacy.allochost_v1: %s p=%p\n", en(allochost_v1(&hp, 4096)), hp);
    if (hp) cuMemFreeHost(hp);
    {
        void *m = aligned_alloc(4096, 65536);
        u32 pd = 0, pitch = 0;
        if (reg_v1) {
            CUresult r = reg_v1(m, 65536, 0);
            P("legacy.hostregister_v1: %s\n", en(r));
            if (r == CUDA_SUCCESS) {
                P("legacy.hostgetdevptr_v1_registered: %s\n", en(hostdev_v1(&pd, m, 0)));
                cuMemHostUnregister(m);
            }
        }
        if (pitch_v1) P("legacy.allocpitch_v1: %s\n", en(pitch_v1(&pd, &pitch, 100, 10, 4)));
        if (dtod_v1) P("legacy.dtod_v1: %s\n", en(dtod_v1(0, 0, 0)));
        if (dtoh_v1) P("legacy.dtoh_v1_size0: %s\n", en(dtoh_v1(buf, 0, 0)));
        if (d16_v1) P("legacy.memsetd16_v1: %s\n", en(d16_v1(0, 0, 0)));
        free(m);
    }
    CK(cuMemFree_v2(d64));
    if (sync_v2) {
        P("legacy.ctxsync_v2_ctx: %s\n", en(sync_v2(ctx)));
        P("legacy.ctxsync_v2_null: %s\n", en(sync_v2(NULL)));
    }
    if (getdev_v2) {
        P("legacy.getdev_v2_ctx: %s dev=%d\n", en(getdev_v2(&dev, ctx)), dev);
        dev = -9;
        P("legacy.getdev_v2_null: %s dev=%d\n", en(getdev_v2(&dev, NULL)), dev);
    }
    if (streamctx_v2) {
        void *green = (void *)1;
        P("legacy.streamctx_v2: %s ctx_is_primary=%d green=%p\n",
          en(streamctx_v2(s, &got, &green)), got == ctx, green);
    }
    return 0;
}
