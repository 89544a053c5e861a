/* cuPointerGetAttribute / cuPointerGetAttributes for every kind of memory, at base and base+4096. */
#include "common.h"

#define NATTR 21 /* CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE is the last in CUDA 13.0 */
static const char *aname[NATTR + 2] = {
    "0", "CONTEXT", "MEMORY_TYPE", "DEVICE_POINTER", "HOST_POINTER", "P2P_TOKENS", "SYNC_MEMOPS", "BUFFER_ID",
    "IS_MANAGED", "DEVICE_ORDINAL", "IS_LEGACY_CUDA_IPC_CAPABLE", "RANGE_START_ADDR", "RANGE_SIZE", "MAPPED",
    "ALLOWED_HANDLE_TYPES", "IS_GPU_DIRECT_RDMA_CAPABLE", "ACCESS_FLAGS", "MEMPOOL_HANDLE", "MAPPING_SIZE",
    "MAPPING_BASE_ADDR", "MEMORY_BLOCK_ID", "IS_HW_DECOMPRESS_CAPABLE", "22" };

#define SENT 0xa5a5a5a5a5a5a5a5ull
static CUmemoryPool g_defpool;

/* how a raw 8-byte value reads for attribute a, given the queried pointer and the allocation base */
static void interp(char *o, size_t n, int a, uint64_t raw, uint64_t ptr, uint64_t base)
{
    o[0] = 0;
    if (raw == SENT) { snprintf(o, n, " (unwritten)"); return; }
    switch (a) {
    case CU_POINTER_ATTRIBUTE_CONTEXT:
        snprintf(o, n, " ctx=%s", raw == 0 ? "null" : raw == (uint64_t)(uintptr_t)g_ctx[0] ? "primary0"
                                   : (g_ndev > 1 && raw == (uint64_t)(uintptr_t)g_ctx[1]) ? "primary1" : "other");
        break;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
    case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR:
        if (raw == 0) snprintf(o, n, " =0");
        else if (raw == ptr) snprintf(o, n, " =ptr (base%+lld)", (long long)(raw - base));
        else snprintf(o, n, " base%+lld", (long long)(raw - base));
        break;
    case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
        snprintf(o, n, " pool=%s", raw == 0 ? "null" : raw == (uint64_t)(uintptr_t)g_defpool ? "default0" : "other");
        break;
    case CU_POINTER_ATTRIBUTE_BUFFER_ID:
    case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID:
        snprintf(o, n, " nonzero=%s", raw ? "yes" : "no");
        break;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
    case CU_POINTER_ATTRIBUTE_MAPPING_SIZE:
        snprintf(o, n, " size=%llu", (unsigned long long)raw);
        break;
    default:
        snprintf(o, n, " val=%lld", (long long)(int32_t)(raw & 0xffffffffu));
    }
}

static void one(const char *kind, uint64_t base, uint64_t ptr, const char *where)
{
    for (int a = 1; a <= NATTR; a++) {
        uint64_t buf[8];
        for (int i = 0; i < 8; i++) buf[i] = SENT;
        CUresult r = cuPointerGetAttribute(buf, (CUpointer_attribute)a, (CUdeviceptr)ptr);
        char t[96];
        interp(t, sizeof t, a, buf[0], ptr, base);
        if (a == CU_POINTER_ATTRIBUTE_P2P_TOKENS)
            P("ptrattr.%s.%s.%s: %s raw0=0x%016llx raw1=0x%016llx\n", kind, where, aname[a], en(r),
              (unsigned long long)buf[0], (unsigned long long)buf[1]);
        else
            P("ptrattr.%s.%s.%s: %s raw=0x%016llx%s\n", kind, where, aname[a], en(r), (unsigned long long)buf[0], t);
    }
    /* all at once, except P2P_TOKENS (5), which cuPointerGetAttributes rejects */
    CUpointer_attribute at[NATTR];
    uint64_t store[NATTR][4];
    void *data[NATTR];
    int n = 0;
    for (int a = 1; a <= NATTR; a++) {
        if (a == CU_POINTER_ATTRIBUTE_P2P_TOKENS) continue;
        at[n] = (CUpointer_attribute)a;
        for (int j = 0; j < 4; j++) store[n][j] = SENT;
        data[n] = store[n];
        n++;
    }
    CUresult r = cuPointerGetAttributes(n, at, data, (CUdeviceptr)ptr);
    char line[4096];
    int off = snprintf(line, sizeof line, "ptrattr.getattrs.%s.%s: %s", kind, where, en(r));
    for (int i = 0; i < n && off < (int)sizeof line - 80; i++) {
        char t[96];
        interp(t, sizeof t, at[i], store[i][0], ptr, base);
        off += snprintf(line + off, sizeof line - off, " %s=0x%llx%s", aname[at[i]], (unsigned long long)store[i][0],
                        t);
    }
    P("%s\n", line);
}

static void both(const char *kind, uint64_t base)
{
    one(kind, base, base, "base");
    one(kind, base, base + 4096, "interior");
}

static uint64_t u64attr(CUpointer_attribute a, CUdeviceptr p, CUresult *rr)
{
    uint64_t v = 0;
    CUresult r = cuPointerGetAttribute(&v, a, p);
    if (rr) *rr = r;
    return v;
}

int main(void)
{
    setup("ptrattr");
    CK(cuDeviceGetDefaultMemPool(&g_defpool, g_dev[0]));
    CUstream S;
    CK(cuStreamCreate(&S, CU_STREAM_NON_BLOCKING));
    const size_t SZ = 1 * MiB;

    CUdeviceptr dev;
    CK(cuMemAlloc(&dev, SZ));
    both("cuMemAlloc", dev);

    void *hp;
    CK(cuMemAllocHost(&hp, SZ));
    both("cuMemAllocHost", (uint64_t)(uintptr_t)hp);

    void *hm;
    CK(cuMemHostAlloc(&hm, SZ, CU_MEMHOSTALLOC_DEVICEMAP));
    both("cuMemHostAlloc_devicemap", (uint64_t)(uintptr_t)hm);

    void *reg = aligned_alloc(4096, SZ);
    memset(reg, 0, SZ);
    CK(cuMemHostRegister(reg, SZ, 0));
    both("cuMemHostRegister", (uint64_t)(uintptr_t)reg);

    CUdeviceptr man;
    CK(cuMemAllocManaged(&man, SZ, CU_MEM_ATTACH_GLOBAL));
    both("cuMemAllocManaged", man);

    CUdeviceptr pool;
    CK(cuMemAllocAsync(&pool, SZ, S));
    CK(cuStreamSynchronize(S));
    both("cuMemAllocAsync", pool);

    /* VMM: 4 MiB reservation, 2 MiB mapped at its start */
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof prop);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    size_t gran = 0;
    CK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    CUmemGenericAllocationHandle h;
    CK(cuMemCreate(&h, gran, &prop, 0));
    CUdeviceptr va;
    CK(cuMemAddressReserve(&va, 2 * gran, 0, 0, 0));
    CK(cuMemMap(va, gran, 0, h, 0));
    CUmemAccessDesc ad = { { CU_MEM_LOCATION_TYPE_DEVICE, 0 }, CU_MEM_ACCESS_FLAGS_PROT_READWRITE };
    CK(cuMemSetAccess(va, gran, &ad, 1));
    both("vmm", va);
    one("vmm", va, va + gran, "reserved_unmapped");

    void *mal = malloc(SZ);
    memset(mal, 1, SZ);
    both("malloc", (uint64_t)(uintptr_t)mal);

    char stackbuf[16384];
    memset(stackbuf, 0, sizeof stackbuf);
    both("stack", (uint64_t)(uintptr_t)stackbuf);

    both("null", 0);

    /* VMM mapped but no access set yet */
    {
        CUmemGenericAllocationHandle h2;
        CUdeviceptr va2;
        CK(cuMemCreate(&h2, gran, &prop, 0));
        CK(cuMemAddressReserve(&va2, gran, 0, 0, 0));
        CK(cuMemMap(va2, gran, 0, h2, 0));
        one("vmm_noaccess", va2, va2, "base");
        CK(cuMemUnmap(va2, gran));
        CK(cuMemAddressFree(va2, gran));
        CK(cuMemRelease(h2));
    }

    /* ids */
    CUresult r1, r2, r3, r4;
    CUdeviceptr d2;
    CK(cuMemAlloc(&d2, SZ));
    uint64_t b1 = u64attr(CU_POINTER_ATTRIBUTE_BUFFER_ID, dev, &r1);
    uint64_t b2 = u64attr(CU_POINTER_ATTRIBUTE_BUFFER_ID, d2, &r2);
    uint64_t m1 = u64attr(CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, dev, &r3);
    uint64_t m2 = u64attr(CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, d2, &r4);
    P("ptrattr.ids.two_cuMemAlloc: buffer_id differ=%s (%s/%s) block_id differ=%s (%s/%s) b1=%llu b2=%llu m1=%llu m2=%llu\n",
      b1 != b2 ? "yes" : "no", en(r1), en(r2), m1 != m2 ? "yes" : "no", en(r3), en(r4), (unsigned long long)b1,
      (unsigned long long)b2, (unsigned long long)m1, (unsigned long long)m2);
    uint64_t oldaddr = d2;
    CK(cuMemFree(d2));
    CK(cuMemAlloc(&d2, SZ));
    uint64_t b3 = u64attr(CU_POINTER_ATTRIBUTE_BUFFER_ID, d2, &r1);
    uint64_t m3 = u64attr(CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, d2, &r2);
    P("ptrattr.ids.realloc_cuMemAlloc: same_addr=%s new_buffer_id=%s new_block_id=%s b3=%llu m3=%llu\n",
      oldaddr == d2 ? "yes" : "no", b3 != b2 ? "yes" : "no", m3 != m2 ? "yes" : "no", (unsigned long long)b3,
      (unsigned long long)m3);
    CK(cuMemFree(d2));
    {
        CUdeviceptr p1, p2;
        CK(cuMemAllocAsync(&p1, 4096, S));
        CK(cuMemAllocAsync(&p2, 4096, S));
        CK(cuStreamSynchronize(S));
        uint64_t x1 = u64attr(CU_POINTER_ATTRIBUTE_BUFFER_ID, p1, NULL);
        uint64_t x2 = u64attr(CU_POINTER_ATTRIBUTE_BUFFER_ID, p2, NULL);
        uint64_t y1 = u64attr(CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, p1, NULL);
        uint64_t y2 = u64attr(CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, p2, NULL);
        uint64_t rs1 = u64attr(CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, p2, NULL);
        uint64_t rz1 = u64attr(CU_POINTER_ATTRIBUTE_RANGE_SIZE, p2, NULL);
        uint64_t mb1 = u64attr(CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR, p2, NULL);
        uint64_t mz1 = u64attr(CU_POINTER_ATTRIBUTE_MAPPING_SIZE, p2, NULL);
        P("ptrattr.ids.two_pool_4KiB: delta=%lld buffer_id differ=%s block_id differ=%s p2.range=%+lld/%llu p2.mapping=%+lld/%llu\n",
          (long long)(p2 - p1), x1 != x2 ? "yes" : "no", y1 != y2 ? "yes" : "no", (long long)(rs1 - p2),
          (unsigned long long)rz1, (long long)(mb1 - p2), (unsigned long long)mz1);
        CK(cuMemFreeAsync(p2, S));
        CK(cuStreamSynchronize(S));
        CK(cuMemAllocAsync(&p2, 4096, S));
        CK(cuStreamSynchronize(S));
        uint64_t x3 = u64attr(CU_POINTER_ATTRIBUTE_BUFFER_ID, p2, NULL);
        uint64_t y3 = u64attr(CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, p2, NULL);
        P("ptrattr.ids.pool_realloc: new_buffer_id=%s new_block_id=%s\n", x3 != x2 ? "yes" : "no",
          y3 != y2 ? "yes" : "no");
        CK(cuMemFreeAsync(p1, S));
        CK(cuMemFreeAsync(p2, S));
        CK(cuStreamSynchronize(S));
    }
    {
        /* two VMM mappings of one handle: same MEMORY_BLOCK_ID? */
        CUdeviceptr vb;
        CK(cuMemAddressReserve(&vb, gran, 0, 0, 0));
        CK(cuMemMap(vb, gran, 0, h, 0));
        CK(cuMemSetAccess(vb, gran, &ad, 1));
        uint64_t x1 = u64attr(CU_POINTER_ATTRIBUTE_BUFFER_ID, va, NULL);
        uint64_t x2 = u64attr(CU_POINTER_ATTRIBUTE_BUFFER_ID, vb, NULL);
        uint64_t y1 = u64attr(CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, va, NULL);
        uint64_t y2 = u64attr(CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, vb, NULL);
        P("ptrattr.ids.vmm_same_handle_two_maps: buffer_id differ=%s block_id differ=%s\n", x1 != x2 ? "yes" : "no",
          y1 != y2 ? "yes" : "no");
        CK(cuMemUnmap(vb, gran));
        CK(cuMemAddressFree(vb, gran));
    }

    /* set attribute and bad queries */
    unsigned int one_ = 1;
    CUresult r = cuPointerSetAttribute(&one_, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, dev);
    uint64_t sm = SENT;
    CUresult rq = cuPointerGetAttribute(&sm, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, dev);
    P("ptrattr.set_sync_memops.cuMemAlloc: %s readback=%s raw=0x%016llx\n", en(r), en(rq), (unsigned long long)sm);
    r = cuPointerSetAttribute(&one_, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, dev + 4096);
    P("ptrattr.set_sync_memops.cuMemAlloc_interior: %s\n", en(r));
    r = cuPointerSetAttribute(&one_, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, (CUdeviceptr)(uintptr_t)mal);
    P("ptrattr.set_sync_memops.malloc: %s\n", en(r));
    r = cuPointerSetAttribute(&one_, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, (CUdeviceptr)(uintptr_t)hp);
    P("ptrattr.set_sync_memops.cuMemAllocHost: %s\n", en(r));
    r = cuPointerSetAttribute(&one_, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, man);
    P("ptrattr.set_sync_memops.managed: %s\n", en(r));
    r = cuPointerSetAttribute(&one_, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, pool);
    P("ptrattr.set_sync_memops.pool: %s\n", en(r));
    r = cuPointerSetAttribute(&one_, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, va);
    P("ptrattr.set_sync_memops.vmm: %s\n", en(r));
    r = cuPointerSetAttribute(&one_, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, dev);
    P("ptrattr.set_memory_type: %s\n", en(r));
    r = cuPointerSetAttribute(NULL, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, dev);
    P("ptrattr.set_sync_memops_null_value: %s\n", en(r));
    uint64_t v = SENT;
    r = cuPointerGetAttribute(&v, (CUpointer_attribute)0, dev);
    P("ptrattr.get_attr0.cuMemAlloc: %s raw=0x%016llx\n", en(r), (unsigned long long)v);
    v = SENT;
    r = cuPointerGetAttribute(&v, (CUpointer_attribute)22, dev);
    P("ptrattr.get_attr22.cuMemAlloc: %s raw=0x%016llx\n", en(r), (unsigned long long)v);
    v = SENT;
    r = cuPointerGetAttribute(&v, (CUpointer_attribute)999, dev);
    P("ptrattr.get_attr999.cuMemAlloc: %s raw=0x%016llx\n", en(r), (unsigned long long)v);
    v = SENT;
    r = cuPointerGetAttribute(&v, (CUpointer_attribute)999, (CUdeviceptr)(uintptr_t)mal);
    P("ptrattr.get_attr999.malloc: %s\n", en(r));
    r = cuPointerGetAttribute(NULL, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, dev);
    P("ptrattr.get_null_data.cuMemAlloc: %s\n", en(r));
    r = cuPointerGetAttribute(NULL, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(uintptr_t)mal);
    P("ptrattr.get_null_data.malloc: %s\n", en(r));
    {
        CUpointer_attribute at[3] = { CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUpointer_attribute)999,
                                      CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL };
        uint64_t s[3] = { SENT, SENT, SENT };
        void *dd[3] = { &s[0], &s[1], &s[2] };
        r = cuPointerGetAttributes(3, at, dd, dev);
        P("ptrattr.getattrs_with_999: %s v0=0x%llx v1=0x%llx v2=0x%llx\n", en(r), (unsigned long long)s[0],
          (unsigned long long)s[1], (unsigned long long)s[2]);
        at[1] = (CUpointer_attribute)0;
        s[0] = s[1] = s[2] = SENT;
        r = cuPointerGetAttributes(3, at, dd, dev);
        P("ptrattr.getattrs_with_0: %s v0=0x%llx v1=0x%llx v2=0x%llx\n", en(r), (unsigned long long)s[0],
          (unsigned long long)s[1], (unsigned long long)s[2]);
        at[1] = CU_POINTER_ATTRIBUTE_CONTEXT;
        dd[1] = NULL;
        s[0] = s[1] = s[2] = SENT;
        r = cuPointerGetAttributes(3, at, dd, dev);
        P("ptrattr.getattrs_one_null_data: %s v0=0x%llx v2=0x%llx\n", en(r), (unsigned long long)s[0],
          (unsigned long long)s[2]);
        r = cuPointerGetAttributes(0, at, dd, dev);
        P("ptrattr.getattrs_count0: %s\n", en(r));
        r = cuPointerGetAttributes(3, NULL, dd, dev);
        P("ptrattr.getattrs_null_attrs: %s\n", en(r));
        r = cuPointerGetAttributes(3, at, NULL, dev);
        P("ptrattr.getattrs_null_data: %s\n", en(r));
    }
    /* which attributes does cuPointerGetAttributes take one at a time? */
    {
        static const struct { const char *n; int kind; } pk[] = { { "cuMemAlloc", 0 }, { "malloc", 1 }, { "null", 2 } };
        for (int k = 0; k < 3; k++) {
            CUdeviceptr q = pk[k].kind == 0 ? dev : pk[k].kind == 1 ? (CUdeviceptr)(uintptr_t)mal : 0;
            char line[2048];
            int off = snprintf(line, sizeof line, "ptrattr.getattrs_single.%s:", pk[k].n);
            for (int a = 1; a <= NATTR + 1; a++) {
                CUpointer_attribute aa = (CUpointer_attribute)a;
                uint64_t s[4] = { SENT, SENT, SENT, SENT };
                void *dd = s;
                CUresult q1 = cuPointerGetAttributes(1, &aa, &dd, q);
                off += snprintf(line + off, sizeof line - off, " %d=%s", a,
                                q1 == CUDA_SUCCESS ? "ok" : en(q1) + 11);
            }
            P("%s\n", line);
        }
    }
    /* after free */
    {
        CUdeviceptr f;
        CK(cuMemAlloc(&f, SZ));
        CK(cuMemFree(f));
        one("freed_cuMemAlloc", f, f, "base");
    }
    /* a registered range seen from a second context/device */
    if (g_ndev > 1) {
        CK(cuCtxSetCurrent(g_ctx[1]));
        one("cuMemAlloc_from_ctx1", dev, dev, "base");
        one("cuMemAllocHost_from_ctx1", (uint64_t)(uintptr_t)hp, (uint64_t)(uintptr_t)hp, "base");
        CK(cuCtxSetCurrent(g_ctx[0]));
    }
    /* with no current context */
    CK(cuCtxSetCurrent(NULL));
    one("cuMemAlloc_no_ctx", dev, dev, "base");
    one("malloc_no_ctx", (uint64_t)(uintptr_t)mal, (uint64_t)(uintptr_t)mal, "base");
    CK(cuCtxSetCurrent(g_ctx[0]));

    CK(cuMemUnmap(va, gran));
    CK(cuMemAddressFree(va, 2 * gran));
    CK(cuMemRelease(h));
    CK(cuMemFreeAsync(pool, S));
    CK(cuStreamSynchronize(S));
    CK(cuMemFree(man));
    CK(cuMemHostUnregister(reg));
    free(reg);
    free(mal);
    CK(cuMemFreeHost(hm));
    CK(cuMemFreeHost(hp));
    CK(cuMemFree(dev));
    cuStreamDestroy(S);
    teardown("ptrattr");
    return 0;
}
