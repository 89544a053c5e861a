/* Stream-ordered allocator: reservation granularity, release threshold, trimming,
 * attribute and access errors, IPC export/import in one process. */
#include "common.h"

static CUstream S;

static uint64_t ga(CUmemoryPool p, CUmemPool_attribute a, CUresult *rr)
{
    uint64_t v = 0xdeadbeefull;
    CUresult r = cuMemPoolGetAttribute(p, a, &v);
    if (rr) *rr = r;
    return v;
}

static void stats(const char *tag, CUmemoryPool p)
{
    P("pool.%s: reserved=%llu used=%llu reserved_high=%llu used_high=%llu\n", tag,
      (unsigned long long)ga(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, NULL),
      (unsigned long long)ga(p, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, NULL),
      (unsigned long long)ga(p, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, NULL),
      (unsigned long long)ga(p, CU_MEMPOOL_ATTR_USED_MEM_HIGH, NULL));
}

static void set64(CUmemoryPool p, CUmemPool_attribute a, uint64_t v)
{
    CK(cuMemPoolSetAttribute(p, a, &v));
}

static void reset_pool(CUmemoryPool p)
{
    cuStreamSynchronize(S);
    set64(p, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, 0);
    cuMemPoolTrimTo(p, 0);
    uint64_t z = 0;
    cuMemPoolSetAttribute(p, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, &z);
    cuMemPoolSetAttribute(p, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &z);
}

/* one size at a time on an empty pool: what does the pool reserve for it? */
static void chunks(const char *name, CUmemoryPool p)
{
    static const size_t sizes[] = { 1, 1 * KiB, 4 * KiB, 1 * MiB, 2 * MiB, 2 * MiB + 1, 31 * MiB, 32 * MiB,
                                    33 * MiB, 64 * MiB, 100 * MiB };
    for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        reset_pool(p);
        CUdeviceptr d = 0;
        CUresult r = cuMemAllocFromPoolAsync(&d, sizes[i], p, S);
        cuStreamSynchronize(S);
        P("pool.%s.alloc_%zu: %s reserved=%llu used=%llu addr_mod_2MiB=%llu\n", name, sizes[i], en(r),
          (unsigned long long)ga(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, NULL),
          (unsigned long long)ga(p, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, NULL),
          (unsigned long long)(d % (2 * MiB)));
        if (r == CUDA_SUCCESS) cuMemFreeAsync(d, S);
    }
    /* several small allocations: do they share one reservation, how far apart? */
    reset_pool(p);
    CUdeviceptr a[4] = { 0 };
    for (int i = 0; i < 4; i++) CK(cuMemAllocFromPoolAsync(&a[i], 1 * KiB, p, S));
    cuStreamSynchronize(S);
    P("pool.%s.four_1KiB: reserved=%llu used=%llu delta1=%lld delta2=%lld delta3=%lld\n", name,
      (unsigned long long)ga(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, NULL),
      (unsigned long long)ga(p, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, NULL),
      (long long)(a[1] - a[0]), (long long)(a[2] - a[0]), (long long)(a[3] - a[0]));
    for (int i = 0; i < 4; i++) cuMemFreeAsync(a[i], S);
    reset_pool(p);
    CUdeviceptr b[3] = { 0 };
    size_t bs[3] = { 1 * MiB + 1, 3 * MiB, 513 };
    for (int i = 0; i < 3; i++) CK(cuMemAllocFromPoolAsync(&b[i], bs[i], p, S));
    cuStreamSynchronize(S);
    P("pool.%s.mixed_1MiB+1_3MiB_513: reserved=%llu used=%llu delta1=%lld delta2=%lld\n", name,
      (unsigned long long)ga(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, NULL),
      (unsigned long long)ga(p, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, NULL),
      (long long)(b[1] - b[0]), (long long)(b[2] - b[0]));
    for (int i = 0; i < 3; i++) cuMemFreeAsync(b[i], S);
    /* two 20 MiB: one 32 MiB chunk can't hold both */
    reset_pool(p);
    CK(cuMemAllocFromPoolAsync(&b[0], 20 * MiB, p, S));
    CK(cuMemAllocFromPoolAsync(&b[1], 20 * MiB, p, S));
    cuStreamSynchronize(S);
    P("pool.%s.two_20MiB: reserved=%llu used=%llu delta1=%lld\n", name,
      (unsigned long long)ga(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, NULL),
      (unsigned long long)ga(p, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, NULL), (long long)(b[1] - b[0]));
    cuMemFreeAsync(b[0], S);
    cuMemFreeAsync(b[1], S);
    reset_pool(p);
    stats("after_chunks_reset", p);
}

static void threshold(const char *name, CUmemoryPool p)
{
    char t[128];
    reset_pool(p);
    CUdeviceptr d;
    CK(cuMemAllocFromPoolAsync(&d, 33 * MiB, p, S));
    CK(cuStreamSynchronize(S));
    snprintf(t, sizeof t, "%s.thr0.after_alloc_33MiB", name); stats(t, p);
    CK(cuMemFreeAsync(d, S));
    snprintf(t, sizeof t, "%s.thr0.after_free_nosync", name); stats(t, p);
    CK(cuStreamSynchronize(S));
    snprintf(t, sizeof t, "%s.thr0.after_free_streamsync", name); stats(t, p);
    /* reuse: same stream, same size: same address? */
    CUdeviceptr d1, d2;
    set64(p, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, UINT64_MAX);
    CK(cuMemAllocFromPoolAsync(&d1, 1 * MiB, p, S));
    CK(cuMemFreeAsync(d1, S));
    CK(cuMemAllocFromPoolAsync(&d2, 1 * MiB, p, S));
    P("pool.%s.reuse_same_stream_nosync: same_addr=%s\n", name, d1 == d2 ? "yes" : "no");
    CK(cuMemFreeAsync(d2, S));
    CK(cuStreamSynchronize(S));

    CK(cuMemAllocFromPoolAsync(&d, 33 * MiB, p, S));
    CK(cuStreamSynchronize(S));
    snprintf(t, sizeof t, "%s.thrmax.after_alloc_33MiB", name); stats(t, p);
    CK(cuMemFreeAsync(d, S));
    CK(cuStreamSynchronize(S));
    snprintf(t, sizeof t, "%s.thrmax.after_free_streamsync", name); stats(t, p);
    CK(cuCtxSynchronize());
    snprintf(t, sizeof t, "%s.thrmax.after_ctxsync", name); stats(t, p);
    /* threshold 16 MiB with 33 MiB reserved and nothing used */
    set64(p, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, 16 * MiB);
    snprintf(t, sizeof t, "%s.thr16M.after_set_nosync", name); stats(t, p);
    CK(cuStreamSynchronize(S));
    snprintf(t, sizeof t, "%s.thr16M.after_streamsync", name); stats(t, p);
    set64(p, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, UINT64_MAX);
    CK(cuMemAllocFromPoolAsync(&d, 33 * MiB, p, S));
    CK(cuMemFreeAsync(d, S));
    CK(cuStreamSynchronize(S));
    snprintf(t, sizeof t, "%s.thrmax.refilled", name); stats(t, p);
    CUresult r = cuMemPoolTrimTo(p, 40 * MiB);
    P("pool.%s.trim_to_40MiB: %s reserved=%llu\n", name, en(r),
      (unsigned long long)ga(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, NULL));
    r = cuMemPoolTrimTo(p, 1 * MiB);
    P("pool.%s.trim_to_1MiB: %s reserved=%llu\n", name, en(r),
      (unsigned long long)ga(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, NULL));
    CK(cuMemAllocFromPoolAsync(&d, 33 * MiB, p, S));
    CK(cuMemFreeAsync(d, S));
    CK(cuStreamSynchronize(S));
    r = cuMemPoolTrimTo(p, 0);
    P("pool.%s.trim_to_0: %s reserved=%llu used=%llu\n", name, en(r),
      (unsigned long long)ga(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, NULL),
      (unsigned long long)ga(p, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, NULL));
    /* trim while an allocation is live */
    CK(cuMemAllocFromPoolAsync(&d, 1 * MiB, p, S));
    CK(cuMemAllocFromPoolAsync(&d1, 40 * MiB, p, S));
    CK(cuMemFreeAsync(d1, S));
    CK(cuStreamSynchronize(S));
    r = cuMemPoolTrimTo(p, 0);
    P("pool.%s.trim_to_0_with_1MiB_live: %s reserved=%llu used=%llu\n", name, en(r),
      (unsigned long long)ga(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, NULL),
      (unsigned long long)ga(p, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, NULL));
    CK(cuMemFreeAsync(d, S));
    CK(cuStreamSynchronize(S));
    snprintf(t, sizeof t, "%s.highs_before_reset", name); stats(t, p);
    uint64_t v = 0;
    r = cuMemPoolSetAttribute(p, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, &v);
    P("pool.%s.set_reserved_high_0: %s reserved_high_after=%llu\n", name, en(r),
      (unsigned long long)ga(p, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, NULL));
    v = 5;
    r = cuMemPoolSetAttribute(p, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, &v);
    P("pool.%s.set_reserved_high_5: %s reserved_high_after=%llu\n", name, en(r),
      (unsigned long long)ga(p, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, NULL));
    v = 0;
    r = cuMemPoolSetAttribute(p, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &v);
    P("pool.%s.set_used_high_0: %s used_high_after=%llu\n", name, en(r),
      (unsigned long long)ga(p, CU_MEMPOOL_ATTR_USED_MEM_HIGH, NULL));
    v = 7;
    r = cuMemPoolSetAttribute(p, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &v);
    P("pool.%s.set_used_high_7: %s used_high_after=%llu\n", name, en(r),
      (unsigned long long)ga(p, CU_MEMPOOL_ATTR_USED_MEM_HIGH, NULL));
    v = 0;
    r = cuMemPoolSetAttribute(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &v);
    P("pool.%s.set_reserved_current_0: %s\n", name, en(r));
    r = cuMemPoolSetAttribute(p, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &v);
    P("pool.%s.set_used_current_0: %s\n", name, en(r));
    reset_pool(p);
}

static void defaults(const char *name, CUmemoryPool p)
{
    uint64_t thr = 1234;
    int i1 = -1, i2 = -1, i3 = -1;
    CUresult r0 = cuMemPoolGetAttribute(p, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &thr);
    CUresult r1 = cuMemPoolGetAttribute(p, CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES, &i1);
    CUresult r2 = cuMemPoolGetAttribute(p, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, &i2);
    CUresult r3 = cuMemPoolGetAttribute(p, CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES, &i3);
    P("pool.%s.defaults: threshold=%llu/%s follow_events=%d/%s opportunistic=%d/%s internal_deps=%d/%s\n", name,
      (unsigned long long)thr, en(r0), i1, en(r1), i2, en(r2), i3, en(r3));
}

static CUmemoryPool mkpool(const char *name, CUmemLocationType lt, int id, CUmemAllocationHandleType ht,
                           size_t maxSize, CUmemAllocationType at)
{
    CUmemPoolProps pp;
    memset(&pp, 0, sizeof pp);
    pp.allocType = at;
    pp.handleTypes = ht;
    pp.location.type = lt;
    pp.location.id = id;
    pp.maxSize = maxSize;
    CUmemoryPool p = NULL;
    CUresult r = cuMemPoolCreate(&p, &pp);
    P("pool.create.%s: %s\n", name, en(r));
    return r == CUDA_SUCCESS ? p : NULL;
}

static void access_line(const char *tag, CUmemoryPool p, CUmemLocationType lt, int id)
{
    CUmemLocation loc = { lt, id };
    CUmemAccess_flags f = (CUmemAccess_flags)0x55;
    CUresult r = cuMemPoolGetAccess(&f, p, &loc);
    P("pool.getaccess.%s: %s flags=%d\n", tag, en(r), (int)f);
}

static CUresult setaccess(CUmemoryPool p, CUmemLocationType lt, int id, CUmemAccess_flags fl)
{
    CUmemAccessDesc d;
    memset(&d, 0, sizeof d);
    d.location.type = lt;
    d.location.id = id;
    d.flags = fl;
    return cuMemPoolSetAccess(p, &d, 1);
}

int main(void)
{
    setup("pool");
    CK(cuStreamCreate(&S, CU_STREAM_NON_BLOCKING));
    int v = -1;
    cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, g_dev[0]);
    P("pool.supported: %d\n", v);

    CUmemoryPool dp = NULL, cp = NULL;
    CUresult r = cuDeviceGetDefaultMemPool(&dp, g_dev[0]);
    CUresult r2 = cuDeviceGetMemPool(&cp, g_dev[0]);
    P("pool.default_vs_current: %s/%s equal=%s\n", en(r), en(r2), dp == cp ? "yes" : "no");
    if (g_ndev > 1) {
        CUmemoryPool dp1 = NULL;
        cuDeviceGetDefaultMemPool(&dp1, g_dev[1]);
        P("pool.default_dev1_differs: %s\n", dp1 != dp ? "yes" : "no");
    }
    defaults("default", dp);
    stats("default.initial", dp);

    /* cuMemAllocAsync (default pool) chunking, the 6 asked sizes, cumulative style not used: each alone */
    static const size_t asz[] = { 1 * KiB, 1 * MiB, 2 * MiB, 31 * MiB, 33 * MiB, 100 * MiB };
    for (unsigned i = 0; i < 6; i++) {
        reset_pool(dp);
        CUdeviceptr d = 0;
        r = cuMemAllocAsync(&d, asz[i], S);
        cuStreamSynchronize(S);
        P("pool.default.allocasync_%zu: %s reserved=%llu used=%llu\n", asz[i], en(r),
          (unsigned long long)ga(dp, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, NULL),
          (unsigned long long)ga(dp, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, NULL));
        if (!r) cuMemFreeAsync(d, S);
    }
    chunks("default", dp);
    threshold("default", dp);

    r = cuMemPoolDestroy(dp);
    P("pool.destroy_default: %s\n", en(r));
    uint64_t x = 0;
    r = cuMemPoolGetAttribute(dp, (CUmemPool_attribute)999, &x);
    P("pool.getattr_999: %s\n", en(r));
    r = cuMemPoolGetAttribute(dp, (CUmemPool_attribute)0, &x);
    P("pool.getattr_0: %s\n", en(r));
    r = cuMemPoolSetAttribute(dp, (CUmemPool_attribute)999, &x);
    P("pool.setattr_999: %s\n", en(r));
    r = cuMemPoolGetAttribute(dp, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, NULL);
    P("pool.getattr_null_value: %s\n", en(r));
    r = cuMemPoolGetAttribute(NULL, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &x);
    P("pool.getattr_null_pool: %s\n", en(r));

    /* access on the default pool */
    access_line("default.owner", dp, CU_MEM_LOCATION_TYPE_DEVICE, 0);
    access_line("default.host", dp, CU_MEM_LOCATION_TYPE_HOST, 0);
    access_line("default.host_numa0", dp, CU_MEM_LOCATION_TYPE_HOST_NUMA, 0);
    access_line("default.dev99", dp, CU_MEM_LOCATION_TYPE_DEVICE, 99);
    access_line("default.invalid_type", dp, CU_MEM_LOCATION_TYPE_INVALID, 0);
    if (g_ndev > 1) access_line("default.peer_before", dp, CU_MEM_LOCATION_TYPE_DEVICE, 1);
    r = setaccess(dp, CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_ACCESS_FLAGS_PROT_READ);
    P("pool.setaccess.owner_read: %s\n", en(r));
    access_line("default.owner_after_read", dp, CU_MEM_LOCATION_TYPE_DEVICE, 0);
    r = setaccess(dp, CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_ACCESS_FLAGS_PROT_NONE);
    P("pool.setaccess.owner_none: %s\n", en(r));
    access_line("default.owner_after_none", dp, CU_MEM_LOCATION_TYPE_DEVICE, 0);
    r = setaccess(dp, CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    P("pool.setaccess.owner_rw: %s\n", en(r));
    r = setaccess(dp, CU_MEM_LOCATION_TYPE_HOST, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    P("pool.setaccess.host_rw: %s\n", en(r));
    r = setaccess(dp, CU_MEM_LOCATION_TYPE_DEVICE, 99, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    P("pool.setaccess.dev99_rw: %s\n", en(r));
    r = setaccess(dp, CU_MEM_LOCATION_TYPE_DEVICE, 0, (CUmemAccess_flags)2);
    P("pool.setaccess.owner_flags2: %s\n", en(r));
    r = cuMemPoolSetAccess(dp, NULL, 0);
    P("pool.setaccess.count0_null: %s\n", en(r));
    if (g_ndev > 1) {
        r = setaccess(dp, CU_MEM_LOCATION_TYPE_DEVICE, 1, CU_MEM_ACCESS_FLAGS_PROT_READ);
        P("pool.setaccess.peer_read: %s\n", en(r));
        access_line("default.peer_after_read", dp, CU_MEM_LOCATION_TYPE_DEVICE, 1);
        r = setaccess(dp, CU_MEM_LOCATION_TYPE_DEVICE, 1, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
        P("pool.setaccess.peer_rw: %s\n", en(r));
        access_line("default.peer_after_rw", dp, CU_MEM_LOCATION_TYPE_DEVICE, 1);
        r = setaccess(dp, CU_MEM_LOCATION_TYPE_DEVICE, 1, CU_MEM_ACCESS_FLAGS_PROT_NONE);
        P("pool.setaccess.peer_none: %s\n", en(r));
        access_line("default.peer_after_none", dp, CU_MEM_LOCATION_TYPE_DEVICE, 1);
    }

    /* errors around cuMemFreeAsync / cuMemAllocAsync */
    CUdeviceptr plain = 0;
    CK(cuMemAlloc(&plain, 1 * MiB));
    r = cuMemFreeAsync(plain, S);
    CUresult rs = cuStreamSynchronize(S);
    P("pool.freeasync_of_cuMemAlloc: %s sync=%s\n", en(r), en(rs));
    r = cuMemFree(plain);
    P("pool.cuMemFree_after_that: %s\n", en(r));
    r = cuMemFreeAsync((CUdeviceptr)0x1234000ull, S);
    rs = cuStreamSynchronize(S);
    P("pool.freeasync_garbage: %s sync=%s\n", en(r), en(rs));
    r = cuMemFreeAsync(0, S);
    rs = cuStreamSynchronize(S);
    P("pool.freeasync_null: %s sync=%s\n", en(r), en(rs));
    CUdeviceptr z = 0x77;
    r = cuMemAllocAsync(&z, 0, S);
    P("pool.allocasync_size0: %s ptr=0x%llx\n", en(r), (unsigned long long)z);
    if (!r && z) cuMemFreeAsync(z, S);
    r = cuMemAllocAsync(NULL, 1024, S);
    P("pool.allocasync_null_dptr: %s\n", en(r));
    CUdeviceptr pa;
    CK(cuMemAllocAsync(&pa, 1 * MiB, S));
    CK(cuStreamSynchronize(S));
    r = cuMemFree(pa);
    P("pool.cuMemFree_of_pool_ptr: %s\n", en(r));
    if (r) { CK(cuMemFreeAsync(pa, S)); }
    CK(cuStreamSynchronize(S));
    CK(cuMemAllocAsync(&pa, 1 * MiB, S));
    r = cuMemFreeAsync(pa + 4096, S);
    rs = cuStreamSynchronize(S);
    P("pool.freeasync_interior: %s sync=%s\n", en(r), en(rs));
    CK(cuMemFreeAsync(pa, S));
    r = cuMemFreeAsync(pa, S);
    rs = cuStreamSynchronize(S);
    P("pool.freeasync_double: %s sync=%s\n", en(r), en(rs));
    CK(cuMemAllocAsync(&pa, 1 * MiB, 0));
    rs = cuStreamSynchronize(0);
    P("pool.allocasync_legacy_stream: %s\n", en(rs));
    CK(cuMemFreeAsync(pa, 0));
    CK(cuStreamSynchronize(0));

    /* explicit pools */
    CUmemoryPool pn = mkpool("dev0_none", CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_HANDLE_TYPE_NONE, 0,
                             CU_MEM_ALLOCATION_TYPE_PINNED);
    if (pn) {
        defaults("explicit_none", pn);
        chunks("explicit_none", pn);
        threshold("explicit_none", pn);
        char buf[64];
        int fd = -1;
        r = cuMemPoolExportToShareableHandle(&fd, pn, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
        P("pool.export_none_pool_as_fd: %s\n", en(r));
        r = cuMemPoolExportToShareableHandle(buf, pn, CU_MEM_HANDLE_TYPE_NONE, 0);
        P("pool.export_none_pool_as_none: %s\n", en(r));
        access_line("explicit.owner", pn, CU_MEM_LOCATION_TYPE_DEVICE, 0);
        if (g_ndev > 1) access_line("explicit.peer", pn, CU_MEM_LOCATION_TYPE_DEVICE, 1);
        r = cuMemPoolDestroy(pn);
        P("pool.destroy_explicit: %s\n", en(r));
    }

    CUmemoryPool pf = mkpool("dev0_posix_fd", CU_MEM_LOCATION_TYPE_DEVICE, 0,
                             CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0, CU_MEM_ALLOCATION_TYPE_PINNED);
    if (pf) {
        chunks("explicit_fd", pf);
        int fd = -1;
        r = cuMemPoolExportToShareableHandle(&fd, pf, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
        P("pool.export_fd: %s fd_valid=%s\n", en(r), fd >= 0 ? "yes" : "no");
        r = cuMemPoolExportToShareableHandle(&fd, pf, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 1);
        P("pool.export_fd_flags1: %s\n", en(r));
        int fd2 = -1;
        r = cuMemPoolExportToShareableHandle(&fd2, pf, CU_MEM_HANDLE_TYPE_FABRIC, 0);
        P("pool.export_fd_pool_as_fabric: %s\n", en(r));
        CUmemoryPool ip = NULL;
        if (fd >= 0) {
            r = cuMemPoolImportFromShareableHandle(&ip, (void *)(uintptr_t)fd,
                                                   CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
            P("pool.import_same_process: %s same_handle=%s\n", en(r), ip == pf ? "yes" : "no");
            CUmemoryPool ip2 = NULL;
            r = cuMemPoolImportFromShareableHandle(&ip2, (void *)(uintptr_t)-1,
                                                   CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
            P("pool.import_fd_minus1: %s\n", en(r));
            int nfd = open("/dev/null", O_RDONLY);
            r = cuMemPoolImportFromShareableHandle(&ip2, (void *)(uintptr_t)nfd,
                                                   CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
            P("pool.import_fd_devnull: %s\n", en(r));
            close(nfd);
        }
        if (ip) {
            CUdeviceptr di = 0;
            r = cuMemAllocFromPoolAsync(&di, 1 * MiB, ip, S);
            P("pool.alloc_from_imported: %s\n", en(r));
            if (!r) { cuMemFreeAsync(di, S); cuStreamSynchronize(S); }
            uint64_t rv = 0;
            r = cuMemPoolGetAttribute(ip, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &rv);
            P("pool.imported_getattr_reserved: %s value=%llu\n", en(r), (unsigned long long)rv);
            r = cuMemPoolTrimTo(ip, 0);
            P("pool.imported_trim: %s\n", en(r));
            access_line("imported.owner", ip, CU_MEM_LOCATION_TYPE_DEVICE, 0);
            r = setaccess(ip, CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
            P("pool.imported_setaccess_owner: %s\n", en(r));
        }
        CUdeviceptr ep = 0;
        CK(cuMemAllocFromPoolAsync(&ep, 1 * MiB, pf, S));
        CK(cuStreamSynchronize(S));
        CUmemPoolPtrExportData ed;
        memset(&ed, 0, sizeof ed);
        r = cuMemPoolExportPointer(&ed, ep);
        P("pool.export_pointer: %s\n", en(r));
        r = cuMemPoolExportPointer(&ed, ep + 4096);
        P("pool.export_pointer_interior: %s\n", en(r));
        if (ip) {
            CUdeviceptr imp = 0;
            r = cuMemPoolImportPointer(&imp, ip, &ed);
            P("pool.import_pointer_same_process: %s same_addr=%s\n", en(r), imp == ep ? "yes" : "no");
            if (!r && imp) {
                r = cuMemFreeAsync(imp, S);
                rs = cuStreamSynchronize(S);
                P("pool.free_imported_pointer: %s sync=%s\n", en(r), en(rs));
            }
        }
        CK(cuMemFreeAsync(ep, S));
        CK(cuStreamSynchronize(S));
        {
            /* export a pointer of a non-exportable pool and of cuMemAlloc memory */
            CUdeviceptr dd;
            CK(cuMemAllocAsync(&dd, 4096, S));
            CK(cuStreamSynchronize(S));
            r = cuMemPoolExportPointer(&ed, dd);
            P("pool.export_pointer_default_pool: %s\n", en(r));
            CK(cuMemFreeAsync(dd, S));
            CK(cuMemAlloc(&dd, 4096));
            r = cuMemPoolExportPointer(&ed, dd);
            P("pool.export_pointer_cuMemAlloc: %s\n", en(r));
            cuMemFree(dd);
        }
        if (ip && ip != pf) {
            r = cuMemPoolDestroy(ip);
            P("pool.destroy_imported: %s\n", en(r));
        }
        if (fd >= 0) close(fd);
        CK(cuStreamSynchronize(S));
        r = cuMemPoolDestroy(pf);
        P("pool.destroy_fd_pool: %s\n", en(r));
    }

    /* maxSize */
    CUmemoryPool pm = mkpool("dev0_max64MiB", CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_HANDLE_TYPE_NONE, 64 * MiB,
                             CU_MEM_ALLOCATION_TYPE_PINNED);
    if (pm) {
        CUdeviceptr m1 = 0, m2 = 0, m3 = 0;
        r = cuMemAllocFromPoolAsync(&m1, 40 * MiB, pm, S);
        cuStreamSynchronize(S);
        P("pool.max64.alloc_40MiB: %s reserved=%llu\n", en(r),
          (unsigned long long)ga(pm, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, NULL));
        r = cuMemAllocFromPoolAsync(&m2, 30 * MiB, pm, S);
        rs = cuStreamSynchronize(S);
        P("pool.max64.alloc_30MiB_more: %s sync=%s reserved=%llu\n", en(r), en(rs),
          (unsigned long long)ga(pm, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, NULL));
        if (!r) cuMemFreeAsync(m2, S);
        r = cuMemAllocFromPoolAsync(&m3, 20 * MiB, pm, S);
        rs = cuStreamSynchronize(S);
        P("pool.max64.alloc_20MiB_more: %s sync=%s reserved=%llu\n", en(r), en(rs),
          (unsigned long long)ga(pm, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, NULL));
        if (!r) cuMemFreeAsync(m3, S);
        if (m1) cuMemFreeAsync(m1, S);
        cuStreamSynchronize(S);
        r = cuMemAllocFromPoolAsync(&m1, 65 * MiB, pm, S);
        rs = cuStreamSynchronize(S);
        P("pool.max64.alloc_65MiB: %s sync=%s\n", en(r), en(rs));
        if (!r) { cuMemFreeAsync(m1, S); cuStreamSynchronize(S); }
        CUdeviceptr after = 0;
        r = cuMemAllocAsync(&after, 1 * MiB, S);
        rs = cuStreamSynchronize(S);
        P("pool.max64.not_sticky: %s sync=%s\n", en(r), en(rs));
        if (!r) { cuMemFreeAsync(after, S); cuStreamSynchronize(S); }
        cuMemPoolDestroy(pm);
    }
    pm = mkpool("dev0_max_1MiB_plus1", CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_HANDLE_TYPE_NONE, 1 * MiB + 1,
                CU_MEM_ALLOCATION_TYPE_PINNED);
    if (pm) {
        CUdeviceptr m1 = 0;
        r = cuMemAllocFromPoolAsync(&m1, 4096, pm, S);
        rs = cuStreamSynchronize(S);
        P("pool.max1M+1.alloc_4KiB: %s sync=%s reserved=%llu\n", en(r), en(rs),
          (unsigned long long)ga(pm, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, NULL));
        if (!r) { cuMemFreeAsync(m1, S); cuStreamSynchronize(S); }
        cuMemPoolDestroy(pm);
    }
    pm = mkpool("dev0_max_huge", CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_HANDLE_TYPE_NONE, (size_t)1 << 50,
                CU_MEM_ALLOCATION_TYPE_PINNED);
    if (pm) cuMemPoolDestroy(pm);

    /* host-located pools */
    CUmemoryPool ph = mkpool("host_numa0", CU_MEM_LOCATION_TYPE_HOST_NUMA, 0, CU_MEM_HANDLE_TYPE_NONE, 0,
                             CU_MEM_ALLOCATION_TYPE_PINNED);
    if (ph) {
        access_line("host_numa.dev0_before", ph, CU_MEM_LOCATION_TYPE_DEVICE, 0);
        access_line("host_numa.host_numa0", ph, CU_MEM_LOCATION_TYPE_HOST_NUMA, 0);
        CUdeviceptr hp = 0;
        r = cuMemAllocFromPoolAsync(&hp, 1 * MiB, ph, S);
        rs = cuStreamSynchronize(S);
        P("pool.host_numa.alloc_1MiB: %s sync=%s reserved=%llu\n", en(r), en(rs),
          (unsigned long long)ga(ph, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, NULL));
        if (!r) {
            unsigned int mt = 0;
            CUresult q = cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, hp);
            P("pool.host_numa.memtype: %s %u\n", en(q), mt);
        }
        r = setaccess(ph, CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
        P("pool.setaccess.host_numa_pool_dev0_rw: %s\n", en(r));
        access_line("host_numa.dev0_after", ph, CU_MEM_LOCATION_TYPE_DEVICE, 0);
        r = setaccess(ph, CU_MEM_LOCATION_TYPE_HOST_NUMA, 0, CU_MEM_ACCESS_FLAGS_PROT_NONE);
        P("pool.setaccess.host_numa_pool_host_none: %s\n", en(r));
        if (hp) {
            r = cuMemsetD32Async(hp, 0x01020304, 1024, S);
            rs = cuStreamSynchronize(S);
            uint32_t hv = 0;
            CUresult rc = cuMemcpyDtoH(&hv, hp, 4);
            int sg = 0;
            uint32_t cv = safe_read32((const void *)(uintptr_t)hp, &sg);
            P("pool.host_numa.memset_by_dev0: %s sync=%s dtoh=%s read=0x%x cpu_read=0x%x signal=%d\n", en(r),
              en(rs), en(rc), hv, cv, sg);
            cuMemFreeAsync(hp, S);
            cuStreamSynchronize(S);
        }
        cuMemPoolDestroy(ph);
    }
    ph = mkpool("host", CU_MEM_LOCATION_TYPE_HOST, 0, CU_MEM_HANDLE_TYPE_NONE, 0, CU_MEM_ALLOCATION_TYPE_PINNED);
    if (ph) {
        access_line("host_pool.dev0", ph, CU_MEM_LOCATION_TYPE_DEVICE, 0);
        access_line("host_pool.host", ph, CU_MEM_LOCATION_TYPE_HOST, 0);
        CUdeviceptr hp = 0;
        r = cuMemAllocFromPoolAsync(&hp, 4096, ph, S);
        rs = cuStreamSynchronize(S);
        int sg = -1;
        uint32_t cv = 0;
        if (!r) { *(volatile uint32_t *)(uintptr_t)hp = 0; cv = safe_read32((const void *)(uintptr_t)hp, &sg); }
        P("pool.host_pool.alloc_4KiB: %s sync=%s reserved=%llu cpu_rw_signal=%d\n", en(r), en(rs),
          (unsigned long long)ga(ph, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, NULL), sg);
        (void)cv;
        if (!r) { cuMemFreeAsync(hp, S); cuStreamSynchronize(S); }
        cuMemPoolDestroy(ph);
    }
    ph = mkpool("host_numa_current", CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT, 0, CU_MEM_HANDLE_TYPE_NONE, 0,
                CU_MEM_ALLOCATION_TYPE_PINNED);
    if (ph) cuMemPoolDestroy(ph);
    ph = mkpool("dev99", CU_MEM_LOCATION_TYPE_DEVICE, 99, CU_MEM_HANDLE_TYPE_NONE, 0, CU_MEM_ALLOCATION_TYPE_PINNED);
    if (ph) cuMemPoolDestroy(ph);
    ph = mkpool("invalid_loc", CU_MEM_LOCATION_TYPE_INVALID, 0, CU_MEM_HANDLE_TYPE_NONE, 0,
                CU_MEM_ALLOCATION_TYPE_PINNED);
    if (ph) cuMemPoolDestroy(ph);
    ph = mkpool("alloctype_invalid", CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_HANDLE_TYPE_NONE, 0,
                (CUmemAllocationType)0);
    if (ph) cuMemPoolDestroy(ph);
    ph = mkpool("managed_loc_none", CU_MEM_LOCATION_TYPE_NONE, 0, CU_MEM_HANDLE_TYPE_NONE, 0,
                CU_MEM_ALLOCATION_TYPE_MANAGED);
    if (ph) cuMemPoolDestroy(ph);
    ph = mkpool("dev0_handle_fabric", CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_HANDLE_TYPE_FABRIC, 0,
                CU_MEM_ALLOCATION_TYPE_PINNED);
    if (ph) cuMemPoolDestroy(ph);
    {
        CUmemoryPool p2 = NULL;
        r = cuMemPoolCreate(&p2, NULL);
        P("pool.create.null_props: %s\n", en(r));
    }
    /* set the current pool to an explicit pool, then cuMemAllocAsync uses it */
    CUmemoryPool pc = mkpool("for_setmempool", CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_HANDLE_TYPE_NONE, 0,
                             CU_MEM_ALLOCATION_TYPE_PINNED);
    if (pc) {
        r = cuDeviceSetMemPool(g_dev[0], pc);
        CUmemoryPool cur = NULL;
        cuDeviceGetMemPool(&cur, g_dev[0]);
        CUdeviceptr q = 0;
        CK(cuMemAllocAsync(&q, 4096, S));
        CK(cuStreamSynchronize(S));
        CUmemoryPool owner = NULL;
        CUresult ro = cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, q);
        P("pool.setmempool: %s current_is_new=%s allocasync_uses_it=%s/%s\n", en(r), cur == pc ? "yes" : "no",
          owner == pc ? "yes" : "no", en(ro));
        CK(cuMemFreeAsync(q, S));
        CK(cuStreamSynchronize(S));
        r = cuMemPoolDestroy(pc);
        cuDeviceGetMemPool(&cur, g_dev[0]);
        P("pool.destroy_current_pool: %s current_back_to_default=%s\n", en(r), cur == dp ? "yes" : "no");
        cuDeviceSetMemPool(g_dev[0], dp);
    }
    if (g_ndev > 1) {
        r = cuDeviceSetMemPool(g_dev[1], dp);
        P("pool.setmempool_foreign_device: %s\n", en(r));
    }
    /* allocate from a pool of device 1 on a stream of device 0 */
    if (g_ndev > 1) {
        CUmemoryPool dp1 = NULL;
        cuDeviceGetDefaultMemPool(&dp1, g_dev[1]);
        CUdeviceptr q = 0;
        r = cuMemAllocFromPoolAsync(&q, 4096, dp1, S);
        rs = cuStreamSynchronize(S);
        int ord = -1;
        if (!r) cuPointerGetAttribute(&ord, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, q);
        P("pool.alloc_from_dev1_pool_on_dev0_stream: %s sync=%s ordinal=%d\n", en(r), en(rs), ord);
        if (!r) { cuMemFreeAsync(q, S); cuStreamSynchronize(S); }
    }
    /* garbage last: a crash here loses nothing else */
    {
        CUmemoryPool pj = mkpool("for_junk_import", CU_MEM_LOCATION_TYPE_DEVICE, 0,
                                 CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0, CU_MEM_ALLOCATION_TYPE_PINNED);
        int fd = -1;
        CUmemoryPool ip = NULL;
        if (pj && !cuMemPoolExportToShareableHandle(&fd, pj, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0) &&
            !cuMemPoolImportFromShareableHandle(&ip, (void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
                                                0)) {
            CUmemPoolPtrExportData junk;
            memset(&junk, 0x5a, sizeof junk);
            CUdeviceptr imp = 0;
            CASE("pool.import_pointer_junk");
            r = cuMemPoolImportPointer(&imp, ip, &junk);
            P("pool.import_pointer_junk: %s\n", en(r));
            if (ip != pj) cuMemPoolDestroy(ip);
        }
        if (fd >= 0) close(fd);
        if (pj) cuMemPoolDestroy(pj);
        CASE("pool.getattr_destroyed_pool");
        uint64_t x2 = 0;
        r = cuMemPoolGetAttribute(pj, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &x2);
        P("pool.getattr_destroyed_pool: %s\n", en(r));
    }
    cuStreamDestroy(S);
    teardown("pool");
    return 0;
}
