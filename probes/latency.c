/* Median wall time of one call (or pair) over 2000 repetitions on one thread, clock_gettime(MONOTONIC). */
#include "common.h"
#include <time.h>

#define REPS 2000
static long long t_ns[REPS];

static long long now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

static void report(const char *name, CUresult r)
{
    qsort(t_ns, REPS, sizeof t_ns[0], cmp);
    P("latency.%s: %s median_ns=%lld p10_ns=%lld p90_ns=%lld\n", name, en(r), t_ns[REPS / 2], t_ns[REPS / 10],
      t_ns[REPS * 9 / 10]);
}

#define BENCH(name, body) do { CUresult _r = CUDA_SUCCESS; \
    for (int _i = 0; _i < 100; _i++) { body; } \
    for (int _i = 0; _i < REPS; _i++) { long long _t0 = now(); body; t_ns[_i] = now() - _t0; } \
    report(name, _r); } while (0)

int main(void)
{
    setup("latency");
    CUmemoryPool pool;
    CK(cuDeviceGetDefaultMemPool(&pool, g_dev[0]));
    uint64_t v;
    BENCH("cuMemPoolGetAttribute.used_current", _r |= cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &v));
    BENCH("cuMemPoolGetAttribute.reserved_current", _r |= cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &v));

    CUdeviceptr dev;
    CK(cuMemAlloc(&dev, 4 * MiB));
    /* attributes 1..21 without P2P_TOKENS (5), which cuPointerGetAttributes rejects */
    CUpointer_attribute at[21];
    uint64_t store[21][4];
    void *data[21];
    int n = 0;
    for (int a = 1; a <= 21; a++) {
        if (a == CU_POINTER_ATTRIBUTE_P2P_TOKENS) continue;
        at[n] = (CUpointer_attribute)a;
        data[n] = store[n];
        n++;
    }
    BENCH("cuPointerGetAttributes.all20.device", _r |= cuPointerGetAttributes(n, at, data, dev + 4096));
    void *mal = malloc(1 * MiB);
    BENCH("cuPointerGetAttributes.all20.malloc", _r |= cuPointerGetAttributes(n, at, data, (CUdeviceptr)(uintptr_t)mal));
    BENCH("cuPointerGetAttributes.3attrs.device", _r |= cuPointerGetAttributes(3, at, data, dev + 4096));
    unsigned int mt;
    BENCH("cuPointerGetAttribute.memtype.device", _r |= cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, dev));
    size_t fr, tot;
    BENCH("cuMemGetInfo", _r |= cuMemGetInfo(&fr, &tot));
    CUstream s;
    BENCH("cuStreamCreate+cuStreamDestroy", _r |= cuStreamCreate(&s, 0); _r |= cuStreamDestroy(s));
    BENCH("cuStreamCreate.nonblocking+cuStreamDestroy", _r |= cuStreamCreate(&s, CU_STREAM_NON_BLOCKING); _r |= cuStreamDestroy(s));
    CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUevent e, en_;
    CK(cuEventCreate(&e, 0));
    CK(cuEventCreate(&en_, CU_EVENT_DISABLE_TIMING));
    BENCH("cuEventRecord+cuEventSynchronize.idle_stream", _r |= cuEventRecord(e, s); _r |= cuEventSynchronize(e));
    BENCH("cuEventRecord+cuEventSynchronize.idle_stream.disable_timing", _r |= cuEventRecord(en_, s); _r |= cuEventSynchronize(en_));
    BENCH("cuStreamQuery.idle", _r |= cuStreamQuery(s));
    BENCH("cuStreamSynchronize.idle", _r |= cuStreamSynchronize(s));
    char *h4k = malloc(4096);
    memset(h4k, 1, 4096);
    BENCH("cuMemcpyHtoD.4KiB.pageable", _r |= cuMemcpyHtoD(dev, h4k, 4096));
    void *pin;
    CK(cuMemAllocHost(&pin, 4096));
    BENCH("cuMemcpyHtoD.4KiB.pinned", _r |= cuMemcpyHtoD(dev, pin, 4096));
    BENCH("cuMemcpyDtoH.4KiB.pinned", _r |= cuMemcpyDtoH(pin, dev, 4096));
    CUdeviceptr pp;
    size_t pitch;
    BENCH("cuMemAllocPitch+cuMemFree.100x10x4", _r |= cuMemAllocPitch(&pp, &pitch, 100, 10, 4); _r |= cuMemFree(pp));
    BENCH("cuMemAlloc+cuMemFree.4KiB", _r |= cuMemAlloc(&pp, 4096); _r |= cuMemFree(pp));
    BENCH("cuMemAllocAsync+cuMemFreeAsync.4KiB", _r |= cuMemAllocAsync(&pp, 4096, s); _r |= cuMemFreeAsync(pp, s));
    CK(cuStreamSynchronize(s));
    CUdeviceptr b; size_t sz;
    BENCH("cuMemGetAddressRange.device_interior", _r |= cuMemGetAddressRange(&b, &sz, dev + 4096));
    BENCH("cuCtxGetCurrent", CUcontext c; _r |= cuCtxGetCurrent(&c));
    int av;
    BENCH("cuDeviceGetAttribute.concurrent_managed", _r |= cuDeviceGetAttribute(&av, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, g_dev[0]));
    cuEventDestroy(e);
    cuEventDestroy(en_);
    cuStreamDestroy(s);
    cuMemFreeHost(pin);
    cuMemFree(dev);
    free(mal);
    free(h4k);
    teardown("latency");
    return 0;
}
