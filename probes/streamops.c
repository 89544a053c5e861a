/* Stream operations on an idle stream, and copies by kind and size.
 *
 * Latency rows: median wall time of one operation plus the synchronization
 * that waits for it, over 2000 repetitions on one thread
 * (clock_gettime(MONOTONIC)), as latency.c measures.
 *
 * Copy rows: CUDA events around 100 back-to-back cuMemcpyAsync (or memset)
 * calls on the legacy stream, as bandwidth tools measure; the rate is
 * bytes x 100 / elapsed. Pageable copies are also timed by the wall clock
 * of the synchronous call, since the driver stages them through the host.
 * Device to device counts the bytes copied once (not read plus write). */
#include "common.h"
#include <time.h>

#define REPS 2000
#define BATCH 100
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
    P("streamops.%s: %s median_ns=%lld p10_ns=%lld p90_ns=%lld\n", name, en(r), t_ns[REPS / 2], t_ns[REPS / 10],
      t_ns[REPS * 9 / 10]);
}

#define BENCH(name, body) do { CUresult _r = CUDA_SUCCESS; \
    for (int _i = 0; _i < 100; _i++) { body; } \
    for (int _i = 0; _i < REPS; _i++) { long long _t0 = now(); body; t_ns[_i] = now() - _t0; } \
    report(name, _r); } while (0)

enum kind { HTOD, DTOH, DTOD, MEMSET };
static const char *kind_name[] = { "htod", "dtoh", "dtod", "memset8" };

/* 100 operations of one kind between two events on the legacy stream. */
static void rate(const char *mem, enum kind k, size_t bytes, CUdeviceptr d0, CUdeviceptr d1, void *host)
{
    CUevent a, b;
    CUresult r = CUDA_SUCCESS;
    float ms = 0;

    CK(cuEventCreate(&a, 0));
    CK(cuEventCreate(&b, 0));
    for (int w = 0; w < 2; w++) {
        CK(cuEventRecord(a, NULL));
        for (int i = 0; i < BATCH; i++) {
            switch (k) {
            case HTOD: r |= cuMemcpyHtoDAsync(d0, host, bytes, NULL); break;
            case DTOH: r |= cuMemcpyDtoHAsync(host, d0, bytes, NULL); break;
            case DTOD: r |= cuMemcpyDtoDAsync(d1, d0, bytes, NULL); break;
            case MEMSET: r |= cuMemsetD8Async(d0, 1, bytes, NULL); break;
            }
        }
        CK(cuEventRecord(b, NULL));
        CK(cuEventSynchronize(b));
        CK(cuEventElapsedTime(&ms, a, b));
    }
    P("streamops.rate.%s.%s.%zu: %s ms=%.4f GBps=%.2f\n", mem, kind_name[k], bytes, en(r), ms,
      ms > 0 ? (double)bytes * BATCH / (ms * 1e6) : 0.0);
    cuEventDestroy(a);
    cuEventDestroy(b);
}

/* Wall time of one synchronous pageable copy, median of 20. */
static void pageable_wall(enum kind k, size_t bytes, CUdeviceptr d0, void *host)
{
    long long t[20];
    CUresult r = CUDA_SUCCESS;

    for (int i = 0; i < 20; i++) {
        long long t0 = now();
        r |= k == HTOD ? cuMemcpyHtoD(d0, host, bytes) : cuMemcpyDtoH(host, d0, bytes);
        t[i] = now() - t0;
    }
    qsort(t, 20, sizeof t[0], cmp);
    P("streamops.wall.pageable.%s.%zu: %s median_ns=%lld GBps=%.2f\n", kind_name[k], bytes, en(r), t[10],
      (double)bytes / (double)t[10]);
}

int main(void)
{
    static const size_t sizes[] = { 4096, 65536, 1 << 20, 32 << 20, 256 << 20 };
    CUstream s1, s2;
    CUevent e, et;
    CUdeviceptr d0, d1;
    void *pin, *pag;

    setup("streamops");
    CK(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
    CK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
    CK(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
    CK(cuEventCreate(&et, 0));
    CK(cuMemAlloc(&d0, 256 << 20));
    CK(cuMemAlloc(&d1, 256 << 20));
    CK(cuMemAllocHost(&pin, 256 << 20));
    pag = malloc(256 << 20);
    memset(pag, 1, 256 << 20);
    memset(pin, 1, 256 << 20);

    BENCH("cuEventRecord+cuStreamWaitEvent.two_streams+cuStreamSynchronize",
          _r |= cuEventRecord(e, s1); _r |= cuStreamWaitEvent(s2, e, 0); _r |= cuStreamSynchronize(s2));
    BENCH("cuStreamWaitEvent.recorded_elsewhere", _r |= cuStreamWaitEvent(s2, e, 0));
    CK(cuStreamSynchronize(s2));
    BENCH("cuMemsetD8Async.4KiB+cuStreamSynchronize", _r |= cuMemsetD8Async(d0, 1, 4096, s1); _r |= cuStreamSynchronize(s1));
    BENCH("cuMemcpyHtoDAsync.4KiB.pinned+cuStreamSynchronize",
          _r |= cuMemcpyHtoDAsync(d0, pin, 4096, s1); _r |= cuStreamSynchronize(s1));
    BENCH("cuMemcpyDtoHAsync.4KiB.pinned+cuStreamSynchronize",
          _r |= cuMemcpyDtoHAsync(pin, d0, 4096, s1); _r |= cuStreamSynchronize(s1));
    BENCH("cuLaunchHostFunc-free.cuEventRecord+cuEventSynchronize.timed", _r |= cuEventRecord(et, s1); _r |= cuEventSynchronize(et));

    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        rate("pinned", HTOD, sizes[i], d0, d1, pin);
        rate("pinned", DTOH, sizes[i], d0, d1, pin);
        rate("pageable", HTOD, sizes[i], d0, d1, pag);
        rate("pageable", DTOH, sizes[i], d0, d1, pag);
        rate("device", DTOD, sizes[i], d0, d1, NULL);
        rate("device", MEMSET, sizes[i], d0, d1, NULL);
        pageable_wall(HTOD, sizes[i], d0, pag);
        pageable_wall(DTOH, sizes[i], d0, pag);
    }

    cuEventDestroy(e);
    cuEventDestroy(et);
    cuStreamDestroy(s1);
    cuStreamDestroy(s2);
    cuMemFree(d0);
    cuMemFree(d1);
    cuMemFreeHost(pin);
    free(pag);
    teardown("streamops");
    return 0;
}
