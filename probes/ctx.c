/* Devices, contexts, streams, events and the classic allocation calls: error codes at the edges. */
#include "common.h"

/* cases that may crash the process: each runs alone, as "ctx risky NAME" (run.sh does this) */
static int risky(const char *name)
{
    CUresult r;
    CK(cuInit(0));
    CUdevice d0;
    CUcontext c0;
    CK(cuDeviceGet(&d0, 0));
    CK(cuDevicePrimaryCtxRetain(&c0, d0));
    CK(cuCtxSetCurrent(c0));
    static char label[128]; /* static: cuDeviceGetName(len 0) zero-fills the stack */
    snprintf(label, sizeof label, "ctx.%s", name);
    CASE(label);
    if (!strcmp(name, "streamquery_destroyed")) {
        CUstream s;
        CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
        CK(cuStreamDestroy(s));
        r = cuStreamQuery(s);
    } else if (!strcmp(name, "eventquery_destroyed")) {
        CUevent e;
        CK(cuEventCreate(&e, 0));
        CK(cuEventDestroy(e));
        r = cuEventQuery(e);
    } else if (!strcmp(name, "devicegetname_len0")) {
        char name0[64];
        memset(name0, 'x', sizeof name0);
        r = cuDeviceGetName(name0, 0, d0);
    } else {
        P("%s: unknown case\n", label);
        return 2;
    }
    P("%s: %s\n", label, en(r));
    return 0;
}

int main(int argc, char **argv)
{
    signal(SIGSEGV, on_sig);
    if (argc > 2 && !strcmp(argv[1], "risky")) return risky(argv[2]);
    CUresult r;
    CUdeviceptr d = 0x77;
    /* before cuInit */
    r = cuMemAlloc(&d, 4096);
    P("ctx.memalloc_before_init: %s\n", en(r));
    int n = -5;
    r = cuDeviceGetCount(&n);
    P("ctx.devicegetcount_before_init: %s n=%d\n", en(r), n);
    CUcontext c = (CUcontext)0x1;
    r = cuCtxGetCurrent(&c);
    P("ctx.ctxgetcurrent_before_init: %s\n", en(r));
    r = cuInit(1);
    P("ctx.init_flags1: %s\n", en(r));
    r = cuInit(0);
    P("ctx.init: %s\n", en(r));
    c = (CUcontext)0x1;
    r = cuCtxGetCurrent(&c);
    P("ctx.ctxgetcurrent_none: %s ctx=%s\n", en(r), c ? "nonnull" : "null");
    r = cuMemAlloc(&d, 4096);
    P("ctx.memalloc_no_current_ctx: %s\n", en(r));
    r = cuCtxSynchronize();
    P("ctx.ctxsync_no_current_ctx: %s\n", en(r));
    CUstream st0;
    r = cuStreamCreate(&st0, 0);
    P("ctx.streamcreate_no_current_ctx: %s\n", en(r));
    if (!r) cuStreamDestroy(st0);
    size_t fr = 0, tot = 0;
    r = cuMemGetInfo(&fr, &tot);
    P("ctx.memgetinfo_no_current_ctx: %s\n", en(r));

    /* cuInit done: the normal setup */
    CK(cuDeviceGetCount(&g_ndev));
    P("ctx.devices: %d\n", g_ndev);
    for (int i = 0; i < g_ndev && i < 2; i++) {
        CK(cuDeviceGet(&g_dev[i], i));
        CK(cuDevicePrimaryCtxRetain(&g_ctx[i], g_dev[i]));
    }
    CUdevice dv = 12345;
    r = cuDeviceGet(&dv, 99);
    P("ctx.deviceget_99: %s dev=%d\n", en(r), dv);
    r = cuDeviceGet(&dv, -1);
    P("ctx.deviceget_minus1: %s\n", en(r));
    r = cuDeviceGet(&dv, g_ndev);
    P("ctx.deviceget_count: %s\n", en(r));
    int a = -7;
    r = cuDeviceGetAttribute(&a, (CUdevice_attribute)0, g_dev[0]);
    P("ctx.devattr_0: %s val=%d\n", en(r), a);
    a = -7;
    r = cuDeviceGetAttribute(&a, (CUdevice_attribute)9999, g_dev[0]);
    P("ctx.devattr_9999: %s val=%d\n", en(r), a);
    a = -7;
    r = cuDeviceGetAttribute(&a, CU_DEVICE_ATTRIBUTE_MAX, g_dev[0]);
    P("ctx.devattr_MAX(%d): %s val=%d\n", (int)CU_DEVICE_ATTRIBUTE_MAX, en(r), a);
    a = -7;
    r = cuDeviceGetAttribute(&a, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 99);
    P("ctx.devattr_dev99: %s\n", en(r));
    r = cuDeviceGetAttribute(NULL, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, g_dev[0]);
    P("ctx.devattr_null: %s\n", en(r));
    char name[256];
    memset(name, 'x', sizeof name);
    r = cuDeviceGetName(name, 1, g_dev[0]);
    P("ctx.devicegetname_len1: %s first_byte=0x%02x\n", en(r), (unsigned char)name[0]);
    memset(name, 'x', sizeof name);
    r = cuDeviceGetName(name, 5, g_dev[0]);
    P("ctx.devicegetname_len5: %s bytes=%02x%02x%02x%02x%02x%02x\n", en(r), (unsigned char)name[0],
      (unsigned char)name[1], (unsigned char)name[2], (unsigned char)name[3], (unsigned char)name[4],
      (unsigned char)name[5]);
    r = cuDeviceGetName(name, -1, g_dev[0]);
    P("ctx.devicegetname_len_minus1: %s\n", en(r));
    r = cuDeviceGetName(name, sizeof name, g_dev[0]);
    P("ctx.devicegetname: %s name=%s\n", en(r), name);
    r = cuDeviceGetName(NULL, 10, g_dev[0]);
    P("ctx.devicegetname_null: %s\n", en(r));
    size_t tm = 0;
    r = cuDeviceTotalMem(&tm, g_dev[0]);
    P("ctx.totalmem: %s %zu\n", en(r), tm);
    a = -7;
    r = cuDeviceCanAccessPeer(&a, g_dev[0], g_dev[0]);
    P("ctx.canaccesspeer_self: %s val=%d\n", en(r), a);
    a = -7;
    r = cuDeviceCanAccessPeer(&a, g_dev[0], 99);
    P("ctx.canaccesspeer_dev99: %s val=%d\n", en(r), a);
    if (g_ndev > 1) {
        a = -7;
        r = cuDeviceCanAccessPeer(&a, g_dev[0], g_dev[1]);
        P("ctx.canaccesspeer_0_1: %s val=%d\n", en(r), a);
    }

    CK(cuCtxSetCurrent(g_ctx[0]));
    c = NULL;
    cuCtxGetCurrent(&c);
    P("ctx.current_is_primary: %s\n", c == g_ctx[0] ? "yes" : "no");
    unsigned int api = 0;
    r = cuCtxGetApiVersion(g_ctx[0], &api);
    P("ctx.apiversion: %s %u\n", en(r), api);

    /* streams */
    CUstream s;
    r = cuStreamCreate(&s, 7);
    P("ctx.streamcreate_flags7: %s\n", en(r));
    if (!r) cuStreamDestroy(s);
    r = cuStreamCreate(&s, 2);
    P("ctx.streamcreate_flags2: %s\n", en(r));
    if (!r) cuStreamDestroy(s);
    r = cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
    P("ctx.streamcreate_flags1: %s\n", en(r));
    if (!r) {
        unsigned int fl = 99;
        cuStreamGetFlags(s, &fl);
        P("ctx.streamgetflags: %u\n", fl);
        cuStreamDestroy(s);
    }
    int least = -99, greatest = -99;
    r = cuCtxGetStreamPriorityRange(&least, &greatest);
    P("ctx.priority_range: %s least=%d greatest=%d\n", en(r), least, greatest);
    int pr[] = { 0, greatest, least, greatest - 1, least + 1, -100, 100 };
    for (unsigned i = 0; i < sizeof pr / sizeof pr[0]; i++) {
        r = cuStreamCreateWithPriority(&s, 0, pr[i]);
        int got = -99;
        if (!r) { cuStreamGetPriority(s, &got); cuStreamDestroy(s); }
        P("ctx.stream_priority_%d: %s got=%d\n", pr[i], en(r), got);
    }
    r = cuStreamCreateWithPriority(&s, 7, 0);
    P("ctx.stream_priority_flags7: %s\n", en(r));
    if (!r) cuStreamDestroy(s);
    {
        int gp = -99;
        r = cuStreamGetPriority(NULL, &gp);
        P("ctx.legacy_stream_priority: %s got=%d\n", en(r), gp);
    }
    CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    r = cuStreamQuery(s);
    P("ctx.streamquery_idle: %s\n", en(r));
    r = cuStreamQuery(NULL);
    P("ctx.streamquery_legacy_idle: %s\n", en(r));

    /* events */
    CUevent e1, e2, en1;
    CK(cuEventCreate(&e1, 0));
    CK(cuEventCreate(&e2, 0));
    CK(cuEventCreate(&en1, CU_EVENT_DISABLE_TIMING));
    r = cuEventQuery(e1);
    P("ctx.eventquery_never_recorded: %s\n", en(r));
    r = cuEventSynchronize(e1);
    P("ctx.eventsync_never_recorded: %s\n", en(r));
    float ms = -1;
    r = cuEventElapsedTime(&ms, e1, e2);
    P("ctx.elapsed_never_recorded: %s ms=%g\n", en(r), ms);
    CK(cuEventRecord(e1, s));
    ms = -1;
    r = cuEventElapsedTime(&ms, e1, e2);
    P("ctx.elapsed_end_never_recorded: %s ms=%g\n", en(r), ms);
    r = cuEventElapsedTime(&ms, e2, e1);
    P("ctx.elapsed_start_never_recorded: %s ms=%g\n", en(r), ms);
    CK(cuEventRecord(e2, s));
    CK(cuEventRecord(en1, s));
    CK(cuStreamSynchronize(s));
    ms = -1;
    r = cuEventElapsedTime(&ms, e1, e2);
    P("ctx.elapsed_ok: %s ms_nonneg=%s\n", en(r), ms >= 0 ? "yes" : "no");
    ms = -1;
    r = cuEventElapsedTime(&ms, e2, e1);
    P("ctx.elapsed_reversed: %s ms=%g\n", en(r), ms);
    ms = -1;
    r = cuEventElapsedTime(&ms, e1, en1);
    P("ctx.elapsed_end_disable_timing: %s ms=%g\n", en(r), ms);
    r = cuEventElapsedTime(&ms, en1, e2);
    P("ctx.elapsed_start_disable_timing: %s\n", en(r));
    r = cuEventElapsedTime(NULL, e1, e2);
    P("ctx.elapsed_null_out: %s\n", en(r));
    r = cuEventQuery(en1);
    P("ctx.eventquery_disable_timing_done: %s\n", en(r));
    CUevent ebad;
    r = cuEventCreate(&ebad, 0x80);
    P("ctx.eventcreate_flags0x80: %s\n", en(r));
    if (!r) cuEventDestroy(ebad);
    r = cuEventCreate(&ebad, 0x7);
    P("ctx.eventcreate_flags7: %s\n", en(r));
    if (!r) cuEventDestroy(ebad);
    cuEventDestroy(e1);
    cuEventDestroy(e2);
    cuEventDestroy(en1);

    /* peer access */
    r = cuCtxEnablePeerAccess(g_ctx[0], 0);
    P("ctx.enablepeer_self: %s\n", en(r));
    if (g_ndev > 1) {
        r = cuCtxDisablePeerAccess(g_ctx[1]);
        P("ctx.disablepeer_not_enabled: %s\n", en(r));
        r = cuCtxEnablePeerAccess(g_ctx[1], 1);
        P("ctx.enablepeer_flags1: %s\n", en(r));
        r = cuCtxEnablePeerAccess(g_ctx[1], 0);
        P("ctx.enablepeer_first: %s\n", en(r));
        r = cuCtxEnablePeerAccess(g_ctx[1], 0);
        P("ctx.enablepeer_second: %s\n", en(r));
        r = cuCtxDisablePeerAccess(g_ctx[1]);
        P("ctx.disablepeer_enabled: %s\n", en(r));
        r = cuCtxDisablePeerAccess(g_ctx[1]);
        P("ctx.disablepeer_again: %s\n", en(r));
    } else {
        r = cuCtxDisablePeerAccess(g_ctx[0]);
        P("ctx.disablepeer_self: %s\n", en(r));
    }

    /* classic alloc/free */
    d = 0x77;
    r = cuMemAlloc(&d, 0);
    P("ctx.memalloc_size0: %s ptr=0x%llx\n", en(r), (unsigned long long)d);
    r = cuMemAlloc(NULL, 16);
    P("ctx.memalloc_null_dptr: %s\n", en(r));
    r = cuMemFree(0);
    P("ctx.memfree_0: %s\n", en(r));
    CUdeviceptr m;
    CK(cuMemAlloc(&m, 1 * MiB));
    P("ctx.memalloc_1MiB_addr_mod_2MiB: %llu\n", (unsigned long long)(m % (2 * MiB)));
    {
        CUdeviceptr s1, s2, s3;
        CK(cuMemAlloc(&s1, 1));
        CK(cuMemAlloc(&s2, 1));
        CK(cuMemAlloc(&s3, 1000));
        P("ctx.memalloc_small_deltas: s2-s1=%lld s3-s2=%lld s1_mod_512=%llu\n", (long long)(s2 - s1),
          (long long)(s3 - s2), (unsigned long long)(s1 % 512));
        CUdeviceptr b = 0;
        size_t sz = 0;
        r = cuMemGetAddressRange(&b, &sz, s1);
        P("ctx.addressrange_1byte_alloc: %s size=%zu base=%s\n", en(r), sz, b == s1 ? "ptr" : "other");
        cuMemFree(s1);
        cuMemFree(s2);
        cuMemFree(s3);
    }
    CUdeviceptr b = 0;
    size_t sz = 0;
    r = cuMemGetAddressRange(&b, &sz, m + 4096);
    P("ctx.addressrange_interior: %s base_off=%lld size=%zu\n", en(r), (long long)(b - m), sz);
    r = cuMemGetAddressRange(&b, &sz, m + 1 * MiB);
    P("ctx.addressrange_one_past_end: %s base_off=%lld size=%zu\n", en(r), (long long)(b - m), sz);
    r = cuMemGetAddressRange(NULL, NULL, m + 17);
    P("ctx.addressrange_null_outs: %s\n", en(r));
    void *mal = malloc(64 * 1024);
    b = 0x77; sz = 0x77;
    r = cuMemGetAddressRange(&b, &sz, (CUdeviceptr)(uintptr_t)mal);
    P("ctx.addressrange_malloc: %s base=0x%llx size=%zu\n", en(r), (unsigned long long)b, sz);
    {
        void *hp;
        CK(cuMemAllocHost(&hp, 64 * 1024));
        r = cuMemGetAddressRange(&b, &sz, (CUdeviceptr)(uintptr_t)hp + 100);
        P("ctx.addressrange_cuMemAllocHost: %s base_off=%lld size=%zu\n", en(r),
          (long long)(b - (CUdeviceptr)(uintptr_t)hp), sz);
        cuMemFreeHost(hp);
        CUdeviceptr mm;
        CK(cuMemAllocManaged(&mm, 64 * 1024, CU_MEM_ATTACH_GLOBAL));
        r = cuMemGetAddressRange(&b, &sz, mm + 100);
        P("ctx.addressrange_managed: %s base_off=%lld size=%zu\n", en(r), (long long)(b - mm), sz);
        cuMemFree(mm);
    }
    r = cuMemFree(m + 4096);
    P("ctx.memfree_interior: %s\n", en(r));
    r = cuMemFree((CUdeviceptr)(uintptr_t)mal);
    P("ctx.memfree_malloc: %s\n", en(r));
    free(mal);
    r = cuMemFree(m);
    P("ctx.memfree: %s\n", en(r));
    r = cuMemFree(m);
    P("ctx.memfree_double: %s\n", en(r));
    {
        void *hp;
        CK(cuMemAllocHost(&hp, 4096));
        r = cuMemFree((CUdeviceptr)(uintptr_t)hp);
        P("ctx.memfree_of_cuMemAllocHost: %s\n", en(r));
        if (r) cuMemFreeHost(hp);
    }

    /* pitch */
    static const struct { size_t w, h; unsigned e; } pc[] = {
        { 100, 10, 4 }, { 100, 10, 3 }, { 100, 10, 8 }, { 100, 10, 16 }, { 100, 10, 2 }, { 100, 10, 1 },
        { 100, 10, 32 }, { 1, 1, 4 }, { 512, 1, 4 }, { 513, 1, 4 }, { 1000, 3, 4 }, { 0, 10, 4 }, { 100, 0, 4 },
        { 100, 10, 0 }, { 4096, 1, 16 }, { 4097, 1, 16 } };
    for (unsigned i = 0; i < sizeof pc / sizeof pc[0]; i++) {
        CUdeviceptr pp = 0x77;
        size_t pitch = 0x77;
        r = cuMemAllocPitch(&pp, &pitch, pc[i].w, pc[i].h, pc[i].e);
        CUdeviceptr pb = 0;
        size_t psz = 0;
        if (!r && pp) cuMemGetAddressRange(&pb, &psz, pp);
        P("ctx.allocpitch_w%zu_h%zu_e%u: %s pitch=%zu alloc_size=%zu ptr_mod_512=%llu\n", pc[i].w, pc[i].h, pc[i].e,
          en(r), pitch, psz, (unsigned long long)(pp % 512));
        if (!r && pp) cuMemFree(pp);
    }

    /* managed */
    static const unsigned mf[] = { 0, 1, 2, 3, 4 };
    for (unsigned i = 0; i < 5; i++) {
        CUdeviceptr mm = 0x77;
        r = cuMemAllocManaged(&mm, 4096, mf[i]);
        P("ctx.allocmanaged_flags%u: %s\n", mf[i], en(r));
        if (!r) cuMemFree(mm);
    }
    {
        CUdeviceptr mm = 0x77;
        r = cuMemAllocManaged(&mm, 0, CU_MEM_ATTACH_GLOBAL);
        P("ctx.allocmanaged_size0: %s ptr=0x%llx\n", en(r), (unsigned long long)mm);
        if (!r && mm) cuMemFree(mm);
    }

    /* copies and sets */
    CUdeviceptr x, y;
    CK(cuMemAlloc(&x, 1 * MiB));
    CK(cuMemAlloc(&y, 1 * MiB));
    r = cuMemcpy(y, x, 0);
    P("ctx.memcpy_size0: %s\n", en(r));
    r = cuMemcpy(0, 0, 0);
    P("ctx.memcpy_size0_null: %s\n", en(r));
    r = cuMemcpyHtoD(x, NULL, 0);
    P("ctx.memcpyhtod_size0_nullsrc: %s\n", en(r));
    r = cuMemcpyDtoH(NULL, 0, 0);
    P("ctx.memcpydtoh_size0_null: %s\n", en(r));
    r = cuMemcpyDtoD(0, 0, 0);
    P("ctx.memcpydtod_size0_null: %s\n", en(r));
    r = cuMemcpy(y, 0, 16);
    P("ctx.memcpy_from_null: %s\n", en(r));
    r = cuMemcpy(y, x, 2 * MiB);
    P("ctx.memcpy_past_end: %s\n", en(r));
    r = cuMemsetD32(x + 1, 0, 4);
    P("ctx.memsetd32_unaligned1: %s\n", en(r));
    r = cuMemsetD32(x + 2, 0, 4);
    P("ctx.memsetd32_unaligned2: %s\n", en(r));
    r = cuMemsetD16(x + 1, 0, 4);
    P("ctx.memsetd16_unaligned1: %s\n", en(r));
    r = cuMemsetD32(x, 0, 0);
    P("ctx.memsetd32_n0: %s\n", en(r));
    r = cuMemsetD8(x + 1 * MiB - 1, 0, 2);
    P("ctx.memsetd8_past_end: %s\n", en(r));
    r = cuMemsetD32(x, 0x01020304, 256 * 1024);
    P("ctx.memsetd32_whole: %s\n", en(r));
    r = cuMemcpyPeer(y, g_ctx[0], x, g_ctx[0], 4096);
    uint32_t hv = 0;
    cuMemcpyDtoH(&hv, y + 8, 4);
    P("ctx.memcpypeer_same_ctx: %s data=%s\n", en(r), hv == 0x01020304 ? "ok" : "bad");
    r = cuMemcpyPeer(y, NULL, x, NULL, 4096);
    P("ctx.memcpypeer_null_ctx: %s\n", en(r));
    if (g_ndev > 1) {
        CK(cuCtxSetCurrent(g_ctx[1]));
        CUdeviceptr z;
        CK(cuMemAlloc(&z, 1 * MiB));
        CK(cuCtxSetCurrent(g_ctx[0]));
        r = cuMemcpyPeer(z, g_ctx[1], x, g_ctx[0], 4096);
        hv = 0;
        cuMemcpyDtoH(&hv, z + 8, 4);
        P("ctx.memcpypeer_0_to_1: %s data=%s\n", en(r), hv == 0x01020304 ? "ok" : "bad");
        r = cuMemcpyPeer(z, g_ctx[0], x, g_ctx[0], 4096);
        P("ctx.memcpypeer_wrong_dst_ctx: %s\n", en(r));
        r = cuMemcpyDtoD(z, x, 4096);
        P("ctx.memcpydtod_cross_device_no_peer: %s\n", en(r));
        CK(cuCtxSetCurrent(g_ctx[1]));
        cuMemFree(z);
        CK(cuCtxSetCurrent(g_ctx[0]));
    }

    /* out of memory */
    r = cuMemGetInfo(&fr, &tot);
    P("ctx.memgetinfo: %s free=%zu total=%zu\n", en(r), fr, tot);
    CUdeviceptr big = 0x77;
    r = cuMemAlloc(&big, tot + (1ull << 30));
    P("ctx.memalloc_total_plus_1GiB: %s ptr=0x%llx\n", en(r), (unsigned long long)big);
    if (!r) cuMemFree(big);
    r = cuMemAlloc(&big, (size_t)-1);
    P("ctx.memalloc_sizemax: %s\n", en(r));
    if (!r) cuMemFree(big);
    r = cuMemAlloc(&big, 1ull << 50);
    P("ctx.memalloc_1PiB: %s\n", en(r));
    if (!r) cuMemFree(big);
    r = cuCtxSynchronize();
    CUresult r2 = cuMemAlloc(&big, 1 * MiB);
    P("ctx.after_oom_not_sticky: sync=%s alloc=%s\n", en(r), en(r2));
    if (!r2) cuMemFree(big);
    {
        void *hp = NULL;
        r = cuMemAllocHost(&hp, (size_t)1 << 50);
        P("ctx.memallochost_1PiB: %s\n", en(r));
        if (!r) cuMemFreeHost(hp);
        CUdeviceptr mm;
        r = cuMemAllocManaged(&mm, (size_t)1 << 50, CU_MEM_ATTACH_GLOBAL);
        P("ctx.allocmanaged_1PiB: %s\n", en(r));
        if (!r) cuMemFree(mm);
        CUstream s2;
        CK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
        CUdeviceptr pa = 0x77;
        r = cuMemAllocAsync(&pa, (size_t)1 << 50, s2);
        CUresult rs = cuStreamSynchronize(s2);
        P("ctx.allocasync_1PiB: %s sync=%s\n", en(r), en(rs));
        cuStreamDestroy(s2);
    }
    cuMemFree(x);
    cuMemFree(y);
    cuStreamDestroy(s);
    r = cuCtxSynchronize();
    P("ctx.ctx_healthy: %s\n", en(r));
    teardown("ctx");
    return 0;
}
