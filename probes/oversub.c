/* oversub.c - what the driver does when a GPU runs out of memory under
 * managed data, without ever asking for more managed memory than the card
 * has free: plain cuMemAlloc fills the card, 2 GiB of managed memory is
 * prefetched into the 3 GiB left, then more plain memory is asked for and
 * the managed buffers are read from the GPU (a device-to-device copy whose
 * speed tells whether they are still resident). */
#include "common.h"
#include <time.h>

#define MIB (1ULL << 20)
#define GIB (1ULL << 30)

static double ms_since(struct timespec t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
}

/* Reads 256 MiB of p on the GPU into scratch; the time says where p lives. */
static double read_ms(CUdeviceptr scratch, CUdeviceptr p, CUstream s)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    CK(cuMemcpyDtoDAsync(scratch, p, 256 * MIB, s));
    CK(cuStreamSynchronize(s));
    return ms_since(t0);
}

static size_t free_now(void)
{
    size_t f = 0, t = 0;
    cuMemGetInfo(&f, &t);
    return f;
}

int main(void)
{
    CUdevice dev;
    CUcontext ctx;
    CUstream s;
    CUdeviceptr big = 0, scratch = 0, a = 0, b = 0, x = 0, y = 0;
    CUmemLocation gpu = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
    size_t f0, total;
    CUresult r;

    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CK(cuMemGetInfo(&f0, &total));
    P("oversub.start: free=%zu total=%zu\n", f0, total);
    CK(cuMemAlloc(&scratch, 256 * MIB));
    r = cuMemAlloc(&big, free_now() - 3 * GIB);
    P("oversub.fill: %s free_left=%zu\n", en(r), free_now());
    if (r != CUDA_SUCCESS)
        return 1;

    CK(cuMemAllocManaged(&a, GIB, CU_MEM_ATTACH_GLOBAL));
    CK(cuMemAllocManaged(&b, GIB, CU_MEM_ATTACH_GLOBAL));
    memset((void *)a, 1, GIB);
    memset((void *)b, 2, GIB);
    CK(cuMemPrefetchAsync(a, GIB, gpu, 0, s));
    CK(cuStreamSynchronize(s));
    P("oversub.a_resident: free=%zu read_a_ms=%.2f\n", free_now(), read_ms(scratch, a, s));
    CK(cuMemPrefetchAsync(b, GIB, gpu, 0, s));
    CK(cuStreamSynchronize(s));
    P("oversub.b_resident: free=%zu read_a_ms=%.2f read_b_ms=%.2f\n", free_now(),
      read_ms(scratch, a, s), read_ms(scratch, b, s));
    /* b was used last: if the driver evicts least recently used, a goes. */
    P("oversub.b_used_last: read_b_ms=%.2f\n", read_ms(scratch, b, s));

    r = cuMemAlloc(&x, 1536 * MIB);
    P("oversub.alloc_1.5G_over_managed: %s free=%zu\n", en(r), free_now());
    P("oversub.after_x: read_a_ms=%.2f read_b_ms=%.2f\n",
      read_ms(scratch, a, s), read_ms(scratch, b, s));
    r = cuMemAlloc(&y, 1024 * MIB);
    P("oversub.alloc_1G_more: %s free=%zu\n", en(r), free_now());
    r = cuMemPrefetchAsync(a, GIB, gpu, 0, s);
    P("oversub.prefetch_a_back: %s sync=%s free=%zu\n", en(r), en(cuStreamSynchronize(s)),
      free_now());
    P("oversub.after_prefetch_back: read_a_ms=%.2f read_b_ms=%.2f\n",
      read_ms(scratch, a, s), read_ms(scratch, b, s));
    P("oversub.data_intact: a=%d b=%d\n", ((unsigned char *)a)[GIB - 1],
      ((unsigned char *)b)[GIB - 1]);

    if (y) cuMemFree(y);
    if (x) cuMemFree(x);
    CK(cuMemFree(a));
    CK(cuMemFree(b));
    CK(cuMemFree(big));
    CK(cuMemFree(scratch));
    P("oversub.end: free=%zu\n", free_now());
    return 0;
}
