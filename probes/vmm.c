/* Virtual memory management: granularity, create/reserve/map/unmap/access edge cases, export/import. */
#include "common.h"

static size_t G; /* device 0 minimum granularity */

static CUmemAllocationProp mkprop(CUmemLocationType lt, int id, CUmemAllocationHandleType ht)
{
    CUmemAllocationProp p;
    memset(&p, 0, sizeof p);
    p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    p.location.type = lt;
    p.location.id = id;
    p.requestedHandleTypes = ht;
    return p;
}

static CUresult create(CUmemGenericAllocationHandle *h, size_t sz, CUmemLocationType lt, int id,
                       CUmemAllocationHandleType ht, unsigned long long flags)
{
    CUmemAllocationProp p = mkprop(lt, id, ht);
    *h = 0;
    return cuMemCreate(h, sz, &p, flags);
}

static CUresult access1(CUdeviceptr va, size_t sz, CUmemLocationType lt, int id, CUmemAccess_flags f)
{
    CUmemAccessDesc d;
    memset(&d, 0, sizeof d);
    d.location.type = lt;
    d.location.id = id;
    d.flags = f;
    return cuMemSetAccess(va, sz, &d, 1);
}

static void getaccess(const char *tag, CUdeviceptr va, CUmemLocationType lt, int id)
{
    CUmemLocation l = { lt, id };
    unsigned long long f = 0x55;
    CUresult r = cuMemGetAccess(&f, &l, va);
    P("vmm.getaccess.%s: %s flags=%llu\n", tag, en(r), f);
}

static void gran(const char *tag, CUmemLocationType lt, int id, CUmemAllocationHandleType ht)
{
    CUmemAllocationProp p = mkprop(lt, id, ht);
    size_t a = 0, b = 0;
    CUresult r1 = cuMemGetAllocationGranularity(&a, &p, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
    CUresult r2 = cuMemGetAllocationGranularity(&b, &p, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED);
    P("vmm.granularity.%s: min=%zu/%s recommended=%zu/%s\n", tag, a, en(r1), b, en(r2));
}

/* cases that may crash the process: each runs alone, as "vmm risky NAME" (run.sh does this) */
static int risky(const char *name)
{
    CUresult r;
    CK(cuInit(0));
    CUdevice d0;
    CUcontext c0;
    CK(cuDeviceGet(&d0, 0));
    CK(cuDevicePrimaryCtxRetain(&c0, d0));
    CK(cuCtxSetCurrent(c0));
    CUmemAllocationProp p0 = mkprop(CU_MEM_LOCATION_TYPE_DEVICE, 0, 0);
    CK(cuMemGetAllocationGranularity(&G, &p0, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    CUmemGenericAllocationHandle freed;
    CK(create(&freed, G, CU_MEM_LOCATION_TYPE_DEVICE, 0, 0, 0));
    CK(cuMemRelease(freed));
    CUdeviceptr X;
    CK(cuMemAddressReserve(&X, G, 0, 0, 0));
    CUmemAllocationProp pp;
    const CUmemGenericAllocationHandle garbage = 0x1234567;
    static char label[128]; /* static: survives a driver call that scribbles on the stack */
    snprintf(label, sizeof label, "vmm.%s", name);
    CASE(label);
    if (!strcmp(name, "map_garbage_handle")) r = cuMemMap(X, G, 0, garbage, 0);
    else if (!strcmp(name, "map_freed_handle")) r = cuMemMap(X, G, 0, freed, 0);
    else if (!strcmp(name, "props_garbage_handle")) r = cuMemGetAllocationPropertiesFromHandle(&pp, garbage);
    else if (!strcmp(name, "release_garbage_handle")) r = cuMemRelease(garbage);
    else if (!strcmp(name, "export_garbage_handle")) {
        int fd = -1;
        r = cuMemExportToShareableHandle(&fd, garbage, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
    } else {
        P("%s: unknown case\n", label);
        return 2;
    }
    P("%s: %s\n", label, en(r));
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 2 && !strcmp(argv[1], "risky")) {
        signal(SIGSEGV, on_sig);
        signal(SIGBUS, on_sig);
        return risky(argv[2]);
    }
    setup("vmm");
    int v = -1;
    cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, g_dev[0]);
    P("vmm.supported: %d\n", v);
    gran("device0", CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_HANDLE_TYPE_NONE);
    gran("device0_posix_fd", CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
    if (g_ndev > 1) gran("device1", CU_MEM_LOCATION_TYPE_DEVICE, 1, CU_MEM_HANDLE_TYPE_NONE);
    gran("device99", CU_MEM_LOCATION_TYPE_DEVICE, 99, CU_MEM_HANDLE_TYPE_NONE);
    gran("host", CU_MEM_LOCATION_TYPE_HOST, 0, CU_MEM_HANDLE_TYPE_NONE);
    gran("host_numa0", CU_MEM_LOCATION_TYPE_HOST_NUMA, 0, CU_MEM_HANDLE_TYPE_NONE);
    gran("host_numa_current", CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT, 0, CU_MEM_HANDLE_TYPE_NONE);
    gran("invalid_loc", CU_MEM_LOCATION_TYPE_INVALID, 0, CU_MEM_HANDLE_TYPE_NONE);
    {
        CUmemAllocationProp p = mkprop(CU_MEM_LOCATION_TYPE_DEVICE, 0, 0);
        size_t a = 0;
        CUresult r = cuMemGetAllocationGranularity(&a, &p, (CUmemAllocationGranularity_flags)2);
        P("vmm.granularity.option2: %s\n", en(r));
    }
    CUmemAllocationProp p0 = mkprop(CU_MEM_LOCATION_TYPE_DEVICE, 0, 0);
    CK(cuMemGetAllocationGranularity(&G, &p0, CU_MEM_ALLOC_GRANULARITY_MINIMUM));

    CUresult r;
    CUmemGenericAllocationHandle h, h2, h4;
    /* cuMemCreate */
    r = create(&h, 1 * MiB, CU_MEM_LOCATION_TYPE_DEVICE, 0, 0, 0);
    P("vmm.create.size_1MiB: %s\n", en(r));
    if (!r) cuMemRelease(h);
    r = create(&h, G + 4096, CU_MEM_LOCATION_TYPE_DEVICE, 0, 0, 0);
    P("vmm.create.size_G+4KiB: %s\n", en(r));
    if (!r) cuMemRelease(h);
    r = create(&h, 0, CU_MEM_LOCATION_TYPE_DEVICE, 0, 0, 0);
    P("vmm.create.size_0: %s\n", en(r));
    if (!r) cuMemRelease(h);
    r = create(&h, G, CU_MEM_LOCATION_TYPE_DEVICE, 0, 0, 1);
    P("vmm.create.flags1: %s\n", en(r));
    if (!r) cuMemRelease(h);
    r = create(&h, G, CU_MEM_LOCATION_TYPE_DEVICE, 99, 0, 0);
    P("vmm.create.device99: %s\n", en(r));
    if (!r) cuMemRelease(h);
    r = create(&h, G, CU_MEM_LOCATION_TYPE_INVALID, 0, 0, 0);
    P("vmm.create.loc_invalid: %s\n", en(r));
    if (!r) cuMemRelease(h);
    r = create(&h, G, (CUmemLocationType)77, 0, 0, 0);
    P("vmm.create.loc_type77: %s\n", en(r));
    if (!r) cuMemRelease(h);
    {
        CUmemAllocationProp p = mkprop(CU_MEM_LOCATION_TYPE_DEVICE, 0, 0);
        p.type = CU_MEM_ALLOCATION_TYPE_MANAGED;
        r = cuMemCreate(&h, G, &p, 0);
        P("vmm.create.type_managed: %s\n", en(r));
        if (!r) cuMemRelease(h);
        p.type = (CUmemAllocationType)0;
        r = cuMemCreate(&h, G, &p, 0);
        P("vmm.create.type_invalid: %s\n", en(r));
        if (!r) cuMemRelease(h);
        r = cuMemCreate(&h, G, NULL, 0);
        P("vmm.create.null_prop: %s\n", en(r));
    }
    r = create(&h, G, CU_MEM_LOCATION_TYPE_DEVICE, 0, (CUmemAllocationHandleType)0x10, 0);
    P("vmm.create.handle_type_0x10: %s\n", en(r));
    if (!r) cuMemRelease(h);
    r = create(&h, G, CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_HANDLE_TYPE_FABRIC, 0);
    P("vmm.create.handle_type_fabric: %s\n", en(r));
    if (!r) cuMemRelease(h);

    /* host-located handles */
    static const struct { const char *n; CUmemLocationType t; } hl[] = {
        { "host", CU_MEM_LOCATION_TYPE_HOST },
        { "host_numa0", CU_MEM_LOCATION_TYPE_HOST_NUMA },
        { "host_numa_current", CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT } };
    for (int i = 0; i < 3; i++) {
        r = create(&h, G, hl[i].t, 0, 0, 0);
        P("vmm.create.%s: %s\n", hl[i].n, en(r));
        if (r) continue;
        CUdeviceptr va;
        CK(cuMemAddressReserve(&va, G, 0, 0, 0));
        CUresult rm = cuMemMap(va, G, 0, h, 0);
        CUresult ra = access1(va, G, CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
        CUresult rh = access1(va, G, hl[i].t == CU_MEM_LOCATION_TYPE_HOST ? CU_MEM_LOCATION_TYPE_HOST
                                                                           : CU_MEM_LOCATION_TYPE_HOST_NUMA,
                              0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
        CUresult rw = CUDA_ERROR_NOT_SUPPORTED, rs = CUDA_ERROR_NOT_SUPPORTED;
        uint32_t val = 0;
        if (!rm && !ra) {
            rw = cuMemsetD32(va, 0xabcd1234, 16);
            rs = cuMemcpyDtoH(&val, va, 4);
        }
        unsigned int mt = 0;
        CUresult rt = cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, va);
        P("vmm.create.%s.use: map=%s access_dev0=%s access_host=%s memset=%s read=%s val=0x%x memtype=%u/%s\n",
          hl[i].n, en(rm), en(ra), en(rh), en(rw), en(rs), val, mt, en(rt));
        if (!rh && hl[i].t != CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT) {
            int sg = 0;
            uint32_t hv = safe_read32((const void *)(uintptr_t)va, &sg);
            P("vmm.create.%s.cpu_read: val=0x%x signal=%d\n", hl[i].n, hv, sg);
        }
        getaccess("host_handle_dev0", va, CU_MEM_LOCATION_TYPE_DEVICE, 0);
        getaccess("host_handle_host", va, CU_MEM_LOCATION_TYPE_HOST, 0);
        getaccess("host_handle_host_numa0", va, CU_MEM_LOCATION_TYPE_HOST_NUMA, 0);
        if (!rm) cuMemUnmap(va, G);
        cuMemAddressFree(va, G);
        cuMemRelease(h);
    }

    /* cuMemAddressReserve */
    CUdeviceptr va = 0, vb = 0;
    r = cuMemAddressReserve(&va, 1 * MiB, 0, 0, 0);
    P("vmm.reserve.size_1MiB: %s addr_mod_G=%llu\n", en(r), (unsigned long long)(va % G));
    if (!r) { CUresult rf = cuMemAddressFree(va, 1 * MiB); P("vmm.reserve.size_1MiB_free: %s\n", en(rf)); }
    r = cuMemAddressReserve(&va, 0, 0, 0, 0);
    P("vmm.reserve.size_0: %s\n", en(r));
    r = cuMemAddressReserve(&va, G, 0, 0, 0);
    P("vmm.reserve.align0: %s addr_mod_G=%llu\n", en(r), (unsigned long long)(va % G));
    if (!r) cuMemAddressFree(va, G);
    r = cuMemAddressReserve(&va, G, 3, 0, 0);
    P("vmm.reserve.align3: %s\n", en(r));
    if (!r) cuMemAddressFree(va, G);
    r = cuMemAddressReserve(&va, G, 4096, 0, 0);
    P("vmm.reserve.align4KiB: %s addr_mod_G=%llu\n", en(r), (unsigned long long)(va % G));
    if (!r) cuMemAddressFree(va, G);
    r = cuMemAddressReserve(&va, G, 4 * MiB, 0, 0);
    P("vmm.reserve.align4MiB: %s addr_mod_4MiB=%llu\n", en(r), (unsigned long long)(va % (4 * MiB)));
    if (!r) cuMemAddressFree(va, G);
    r = cuMemAddressReserve(&va, G, 1ull << 30, 0, 0);
    P("vmm.reserve.align1GiB: %s addr_mod_1GiB=%llu\n", en(r), (unsigned long long)(va % (1ull << 30)));
    if (!r) cuMemAddressFree(va, G);
    r = cuMemAddressReserve(&va, G, 0, 0, 1);
    P("vmm.reserve.flags1: %s\n", en(r));
    if (!r) cuMemAddressFree(va, G);
    r = cuMemAddressReserve(&va, 1ull << 40, 0, 0, 0);
    P("vmm.reserve.1TiB: %s\n", en(r));
    if (!r) cuMemAddressFree(va, 1ull << 40);
    {
        CUdeviceptr big;
        CK(cuMemAddressReserve(&big, 64 * MiB, 0, 0, 0));
        CK(cuMemAddressFree(big, 64 * MiB));
        CUdeviceptr hint = big + 16 * MiB;
        r = cuMemAddressReserve(&va, G, 0, hint, 0);
        P("vmm.reserve.hint_free_range: %s honoured=%s delta=%lld\n", en(r), va == hint ? "yes" : "no",
          (long long)(va - hint));
        if (!r) {
            CUdeviceptr vc = 0;
            CUresult r2 = cuMemAddressReserve(&vc, G, 0, hint, 0);
            P("vmm.reserve.hint_taken_range: %s got_hint=%s\n", en(r2), vc == hint ? "yes" : "no");
            if (!r2) cuMemAddressFree(vc, G);
            cuMemAddressFree(va, G);
        }
        r = cuMemAddressReserve(&va, G, 0, big, 0);
        P("vmm.reserve.hint_exact_start_of_freed: %s honoured=%s delta=%lld\n", en(r), va == big ? "yes" : "no",
          (long long)(va - big));
        if (!r) cuMemAddressFree(va, G);
        {
            CUdeviceptr n1 = 0, n2 = 0;
            CUresult q1 = cuMemAddressReserve(&n1, G, 0, 0, 0);
            CUresult q2 = cuMemAddressReserve(&n2, G, 0, 0, 0);
            P("vmm.reserve.no_hint_pair: %s/%s n1_minus_big=%lld n2_minus_n1=%lld\n", en(q1), en(q2),
              (long long)(n1 - big), (long long)(n2 - n1));
            CUdeviceptr n3 = 0;
            CUresult q3 = cuMemAddressReserve(&n3, G, 0, n2 + 8 * G, 0);
            P("vmm.reserve.hint_8G_past_last: %s honoured=%s delta=%lld\n", en(q3), n3 == n2 + 8 * G ? "yes" : "no",
              (long long)(n3 - (n2 + 8 * G)));
            CUdeviceptr n4 = 0;
            CUresult q4 = cuMemAddressReserve(&n4, G, 0, n2 + G, 0);
            P("vmm.reserve.hint_right_after_last: %s honoured=%s delta=%lld\n", en(q4), n4 == n2 + G ? "yes" : "no",
              (long long)(n4 - (n2 + G)));
            if (!q4) cuMemAddressFree(n4, G);
            if (!q3) cuMemAddressFree(n3, G);
            if (!q2) cuMemAddressFree(n2, G);
            if (!q1) cuMemAddressFree(n1, G);
        }
        r = cuMemAddressReserve(&va, G, 0, hint + 4096, 0);
        P("vmm.reserve.hint_unaligned: %s honoured=%s delta=%lld\n", en(r), va == hint + 4096 ? "yes" : "no",
          (long long)(va - hint));
        if (!r) cuMemAddressFree(va, G);
        CUdeviceptr dm;
        CK(cuMemAlloc(&dm, G));
        r = cuMemAddressReserve(&va, G, 0, dm, 0);
        P("vmm.reserve.hint_on_cuMemAlloc: %s got_hint=%s\n", en(r), va == dm ? "yes" : "no");
        if (!r) cuMemAddressFree(va, G);
        cuMemFree(dm);
    }

    /* cuMemMap edge cases */
    CUdeviceptr R;
    CK(cuMemAddressReserve(&R, 4 * G, 0, 0, 0));
    CK(create(&h, G, CU_MEM_LOCATION_TYPE_DEVICE, 0, 0, 0));
    CK(create(&h2, 2 * G, CU_MEM_LOCATION_TYPE_DEVICE, 0, 0, 0));
    CK(create(&h4, G, CU_MEM_LOCATION_TYPE_DEVICE, 0, 0, 0));
    r = cuMemMap(R, G, G, h2, 0);
    P("vmm.map.offset_G: %s\n", en(r));
    if (!r) cuMemUnmap(R, G);
    r = cuMemMap(R, G, 0, h, 1);
    P("vmm.map.flags1: %s\n", en(r));
    if (!r) cuMemUnmap(R, G);
    r = cuMemMap(R, G / 2, 0, h, 0);
    P("vmm.map.size_half_G: %s\n", en(r));
    if (!r) cuMemUnmap(R, G / 2);
    r = cuMemMap(R + 4096, G, 0, h, 0);
    P("vmm.map.va_unaligned: %s\n", en(r));
    if (!r) cuMemUnmap(R + 4096, G);
    r = cuMemMap(R, 2 * G, 0, h, 0);
    P("vmm.map.size_larger_than_handle: %s\n", en(r));
    if (!r) cuMemUnmap(R, 2 * G);
    r = cuMemMap(R, G, 0, 0, 0);
    P("vmm.map.handle0: %s\n", en(r));
    CK(cuMemMap(R, G, 0, h, 0));
    r = cuMemMap(R, G, 0, h4, 0);
    P("vmm.map.overlap_exact: %s\n", en(r));
    if (!r) cuMemUnmap(R, G);
    r = cuMemMap(R, 2 * G, 0, h2, 0);
    P("vmm.map.overlap_partial: %s\n", en(r));
    if (!r) cuMemUnmap(R, 2 * G);
    r = cuMemMap(R + G, G, 0, h, 0);
    P("vmm.map.same_handle_twice_in_one_reservation: %s\n", en(r));
    if (!r) cuMemUnmap(R + G, G);
    {
        CUdeviceptr nx = 0;
        size_t nsz = 0;
        CUresult qa = cuMemGetAddressRange(&nx, &nsz, R + 4 * G);
        P("vmm.map.what_follows_R: addressrange=%s\n", en(qa));
    }
    r = cuMemMap(R + 3 * G, 2 * G, 0, h2, 0);
    P("vmm.map.partly_outside_reservation: %s\n", en(r));
    if (!r) cuMemUnmap(R + 3 * G, 2 * G);
    r = cuMemMap(R + 4 * G, G, 0, h4, 0);
    P("vmm.map.just_past_reservation: %s\n", en(r));
    if (!r) cuMemUnmap(R + 4 * G, G);
    {
        CUdeviceptr dm;
        CK(cuMemAlloc(&dm, G));
        r = cuMemMap(dm, G, 0, h4, 0);
        P("vmm.map.onto_cuMemAlloc: %s\n", en(r));
        if (!r) cuMemUnmap(dm, G);
        cuMemFree(dm);
    }
    {
        /* two adjacent reservations */
        CUdeviceptr A, B = 0;
        CK(cuMemAddressReserve(&A, 8 * G, 0, 0, 0));
        CK(cuMemAddressFree(A, 8 * G));
        CUdeviceptr A0 = A;
        CK(cuMemAddressReserve(&A, G, 0, A0, 0));
        P("vmm.adjacent.reserve_A_hint_honoured: %s\n", A == A0 ? "yes" : "no");
        r = cuMemAddressReserve(&B, G, 0, A + G, 0);
        P("vmm.adjacent.reserve_B: %s adjacent=%s\n", en(r), B == A + G ? "yes" : "no");
        if (!r && B == A + G) {
            r = cuMemMap(A, 2 * G, 0, h2, 0);
            P("vmm.map.span_two_adjacent_reservations: %s\n", en(r));
            if (!r) {
                CUresult ra = access1(A, 2 * G, CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
                P("vmm.map.span_two.setaccess: %s\n", en(ra));
                CUresult ru = cuMemUnmap(A, 2 * G);
                P("vmm.map.span_two.unmap: %s\n", en(ru));
            }
            r = cuMemAddressFree(A, 2 * G);
            P("vmm.adjacent.free_both_at_once: %s\n", en(r));
            if (r) cuMemAddressFree(B, G);
            else B = 0;
        }
        if (B) cuMemAddressFree(B, G);
        cuMemAddressFree(A, G);
    }
    /* access, unmap */
    getaccess("owner_before_setaccess", R, CU_MEM_LOCATION_TYPE_DEVICE, 0);
    r = access1(R, 2 * G, CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    P("vmm.setaccess.range_not_fully_mapped: %s\n", en(r));
    r = access1(R, G, CU_MEM_LOCATION_TYPE_HOST, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    P("vmm.setaccess.host_on_device_mem: %s\n", en(r));
    r = access1(R, G, CU_MEM_LOCATION_TYPE_HOST_NUMA, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    P("vmm.setaccess.host_numa_on_device_mem: %s\n", en(r));
    r = access1(R, G, CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_ACCESS_FLAGS_PROT_READ);
    P("vmm.setaccess.owner_read: %s\n", en(r));
    getaccess("owner_after_read", R, CU_MEM_LOCATION_TYPE_DEVICE, 0);
    r = access1(R, G, CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_ACCESS_FLAGS_PROT_NONE);
    P("vmm.setaccess.owner_none: %s\n", en(r));
    getaccess("owner_after_none", R, CU_MEM_LOCATION_TYPE_DEVICE, 0);
    r = access1(R, G, CU_MEM_LOCATION_TYPE_DEVICE, 0, (CUmemAccess_flags)2);
    P("vmm.setaccess.owner_flags2: %s\n", en(r));
    r = access1(R, G / 2, CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    P("vmm.setaccess.half_granule: %s\n", en(r));
    r = access1(R, G, CU_MEM_LOCATION_TYPE_DEVICE, 99, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    P("vmm.setaccess.dev99: %s\n", en(r));
    r = cuMemSetAccess(R, G, NULL, 0);
    P("vmm.setaccess.count0: %s\n", en(r));
    r = access1(R, G, CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    P("vmm.setaccess.owner_rw: %s\n", en(r));
    getaccess("owner_after_rw", R, CU_MEM_LOCATION_TYPE_DEVICE, 0);
    getaccess("owner_interior", R + 4096, CU_MEM_LOCATION_TYPE_DEVICE, 0);
    getaccess("host_loc", R, CU_MEM_LOCATION_TYPE_HOST, 0);
    getaccess("host_loc_id1", R, CU_MEM_LOCATION_TYPE_HOST, 1);
    getaccess("host_loc_id5", R, CU_MEM_LOCATION_TYPE_HOST, 5);
    getaccess("host_numa0_loc", R, CU_MEM_LOCATION_TYPE_HOST_NUMA, 0);
    getaccess("invalid_loc", R, CU_MEM_LOCATION_TYPE_INVALID, 0);
    getaccess("dev99", R, CU_MEM_LOCATION_TYPE_DEVICE, 99);
    getaccess("unmapped_in_reservation", R + 2 * G, CU_MEM_LOCATION_TYPE_DEVICE, 0);
    if (g_ndev > 1) {
        getaccess("peer_before", R, CU_MEM_LOCATION_TYPE_DEVICE, 1);
        r = access1(R, G, CU_MEM_LOCATION_TYPE_DEVICE, 1, CU_MEM_ACCESS_FLAGS_PROT_READ);
        P("vmm.setaccess.peer_read: %s\n", en(r));
        getaccess("peer_after_read", R, CU_MEM_LOCATION_TYPE_DEVICE, 1);
        getaccess("host_loc_id1_with_peer_read", R, CU_MEM_LOCATION_TYPE_HOST, 1);
        r = access1(R, G, CU_MEM_LOCATION_TYPE_DEVICE, 1, CU_MEM_ACCESS_FLAGS_PROT_NONE);
        P("vmm.setaccess.peer_none: %s\n", en(r));
        getaccess("peer_after_none", R, CU_MEM_LOCATION_TYPE_DEVICE, 1);
        getaccess("owner_after_peer_none", R, CU_MEM_LOCATION_TYPE_DEVICE, 0);
    }
    {
        CUmemAccessDesc two[2];
        memset(two, 0, sizeof two);
        two[0].location.type = CU_MEM_LOCATION_TYPE_DEVICE; two[0].location.id = 0;
        two[0].flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
        two[1] = two[0];
        two[1].flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
        r = cuMemSetAccess(R, G, two, 2);
        P("vmm.setaccess.same_device_twice_rw_then_read: %s\n", en(r));
        getaccess("owner_after_twice", R, CU_MEM_LOCATION_TYPE_DEVICE, 0);
        access1(R, G, CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    }
    {
        /* a second mapping right after: set access over both at once, unmap spanning both */
        CK(cuMemMap(R + G, G, 0, h4, 0));
        getaccess("second_map_before_access", R + G, CU_MEM_LOCATION_TYPE_DEVICE, 0);
        r = access1(R, 2 * G, CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
        P("vmm.setaccess.span_two_mappings: %s\n", en(r));
        r = cuMemUnmap(R, 2 * G);
        P("vmm.unmap.span_two_mappings: %s\n", en(r));
        if (r) { cuMemUnmap(R, G); cuMemUnmap(R + G, G); }
    }
    CK(cuMemMap(R, 2 * G, 0, h2, 0));
    r = cuMemUnmap(R, G);
    P("vmm.unmap.half_of_mapping: %s\n", en(r));
    if (r) {
        r = cuMemUnmap(R + G, G);
        P("vmm.unmap.second_half_of_mapping: %s\n", en(r));
        if (r) cuMemUnmap(R, 2 * G);
    } else {
        cuMemUnmap(R + G, G);
    }
    r = cuMemUnmap(R, G);
    P("vmm.unmap.not_mapped: %s\n", en(r));
    r = cuMemUnmap(R + 4096, G);
    P("vmm.unmap.unaligned_not_mapped: %s\n", en(r));
    r = cuMemUnmap(R, G / 2);
    P("vmm.unmap.half_G_not_mapped: %s\n", en(r));
    CK(cuMemMap(R, G, 0, h, 0));
    r = cuMemUnmap(R + 4096, G - 4096);
    P("vmm.unmap.unaligned_mapped: %s\n", en(r));
    r = cuMemUnmap(R, 2 * G);
    P("vmm.unmap.mapped_plus_unmapped_tail: %s\n", en(r));
    if (r) cuMemUnmap(R, G);
    r = cuMemUnmap(R + 8 * G, G);
    P("vmm.unmap.not_in_any_reservation_guess: %s\n", en(r));
    {
        void *mal = malloc(4 * MiB);
        r = cuMemUnmap(((CUdeviceptr)(uintptr_t)mal + G - 1) & ~(CUdeviceptr)(G - 1), G);
        P("vmm.unmap.malloc_address: %s\n", en(r));
        free(mal);
        CUdeviceptr dm;
        CK(cuMemAlloc(&dm, G));
        r = cuMemUnmap(dm, G);
        P("vmm.unmap.cuMemAlloc_address: %s\n", en(r));
        r = cuMemFree(dm);
        P("vmm.unmap.cuMemFree_after: %s\n", en(r));
    }
    /* address free errors */
    CK(cuMemMap(R, G, 0, h, 0));
    r = cuMemAddressFree(R, 2 * G);
    P("vmm.addressfree.wrong_size: %s\n", en(r));
    if (!r) {
        r = cuMemUnmap(R, G);
        P("vmm.addressfree.wrong_size_then_unmap: %s\n", en(r));
    }
    else {
        r = cuMemAddressFree(R + G, 3 * G);
        P("vmm.addressfree.interior: %s\n", en(r));
        r = cuMemAddressFree(R, 4 * G);
        P("vmm.addressfree.while_mapped: %s\n", en(r));
        if (!r) {
            r = cuMemUnmap(R, G);
            P("vmm.addressfree.unmap_after_free_while_mapped: %s\n", en(r));
        } else {
            cuMemUnmap(R, G);
            cuMemAddressFree(R, 4 * G);
        }
    }
    r = cuMemAddressFree(R, 4 * G);
    P("vmm.addressfree.double: %s\n", en(r));

    /* export / import */
    {
        int fd = -1;
        r = cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
        P("vmm.export.handle_types_none_as_fd: %s\n", en(r));
        CUmemGenericAllocationHandle hf, hi;
        CK(create(&hf, G, CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
        r = cuMemExportToShareableHandle(&fd, hf, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
        P("vmm.export.fd: %s fd_valid=%s\n", en(r), fd >= 0 ? "yes" : "no");
        int fd2 = -1;
        r = cuMemExportToShareableHandle(&fd2, hf, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 1);
        P("vmm.export.fd_flags1: %s\n", en(r));
        r = cuMemExportToShareableHandle(&fd2, hf, CU_MEM_HANDLE_TYPE_FABRIC, 0);
        P("vmm.export.fd_handle_as_fabric: %s\n", en(r));
        if (fd >= 0) {
            r = cuMemImportFromShareableHandle(&hi, (void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
            P("vmm.import.own_fd: %s same_handle=%s\n", en(r), hi == hf ? "yes" : "no");
            if (!r) {
                CUmemAllocationProp pp;
                memset(&pp, 0x5a, sizeof pp);
                CUresult rp = cuMemGetAllocationPropertiesFromHandle(&pp, hi);
                P("vmm.import.props: %s type=%d handletypes=%d loc=%d/%d\n", en(rp), pp.type,
                  pp.requestedHandleTypes, pp.location.type, pp.location.id);
                /* both handles into one reservation: shared physical memory? */
                CUdeviceptr X;
                CK(cuMemAddressReserve(&X, 2 * G, 0, 0, 0));
                CK(cuMemMap(X, G, 0, hf, 0));
                CK(cuMemMap(X + G, G, 0, hi, 0));
                CK(access1(X, 2 * G, CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE));
                CK(cuMemsetD32(X, 0x11223344, 4));
                uint32_t rv = 0;
                CK(cuMemcpyDtoH(&rv, X + G, 4));
                P("vmm.import.shares_memory: %s\n", rv == 0x11223344 ? "yes" : "no");
                cuMemUnmap(X, 2 * G);
                cuMemAddressFree(X, 2 * G);
                r = cuMemRelease(hi);
                P("vmm.import.release_imported: %s\n", en(r));
            }
            close(fd);
        }
        r = cuMemImportFromShareableHandle(&hi, (void *)(uintptr_t)-1, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
        P("vmm.import.fd_minus1: %s\n", en(r));
        int nfd = open("/dev/null", O_RDONLY);
        r = cuMemImportFromShareableHandle(&hi, (void *)(uintptr_t)nfd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
        P("vmm.import.fd_devnull: %s\n", en(r));
        close(nfd);
        r = cuMemImportFromShareableHandle(&hi, (void *)(uintptr_t)3, CU_MEM_HANDLE_TYPE_NONE);
        P("vmm.import.type_none: %s\n", en(r));
        cuMemRelease(hf);
    }

    /* retain, properties */
    {
        CUdeviceptr X;
        CK(cuMemAddressReserve(&X, 4 * G, 0, 0, 0));
        CK(cuMemMap(X, 2 * G, 0, h2, 0));
        CUmemGenericAllocationHandle hr = 0;
        r = cuMemRetainAllocationHandle(&hr, (void *)(uintptr_t)X);
        P("vmm.retain.base: %s same_handle=%s\n", en(r), hr == h2 ? "yes" : "no");
        if (!r) cuMemRelease(hr);
        hr = 0;
        r = cuMemRetainAllocationHandle(&hr, (void *)(uintptr_t)(X + G + 4096));
        P("vmm.retain.interior: %s same_handle=%s\n", en(r), hr == h2 ? "yes" : "no");
        if (!r) cuMemRelease(hr);
        r = cuMemRetainAllocationHandle(&hr, (void *)(uintptr_t)(X + 3 * G));
        P("vmm.retain.reserved_unmapped: %s\n", en(r));
        CUdeviceptr dm;
        CK(cuMemAlloc(&dm, G));
        r = cuMemRetainAllocationHandle(&hr, (void *)(uintptr_t)dm);
        P("vmm.retain.cuMemAlloc: %s\n", en(r));
        if (!r) cuMemRelease(hr);
        cuMemFree(dm);
        void *mal = malloc(4096);
        r = cuMemRetainAllocationHandle(&hr, mal);
        P("vmm.retain.malloc: %s\n", en(r));
        free(mal);
        CUmemAllocationProp pp;
        memset(&pp, 0x5a, sizeof pp);
        r = cuMemGetAllocationPropertiesFromHandle(&pp, h2);
        P("vmm.props: %s type=%d handletypes=%d loc=%d/%d win32=%p compression=%u rdma=%u usage=%u reserved=%02x%02x%02x%02x\n",
          en(r), pp.type, pp.requestedHandleTypes, pp.location.type, pp.location.id, pp.win32HandleMetaData,
          pp.allocFlags.compressionType, pp.allocFlags.gpuDirectRDMACapable, pp.allocFlags.usage,
          pp.allocFlags.reserved[0], pp.allocFlags.reserved[1], pp.allocFlags.reserved[2], pp.allocFlags.reserved[3]);
        /* release while mapped, then memory still usable until unmap? */
        CK(access1(X, 2 * G, CU_MEM_LOCATION_TYPE_DEVICE, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE));
        CK(cuMemsetD32(X, 0xcafef00d, 16));
        r = cuMemRelease(h2);
        P("vmm.release_while_mapped: %s\n", en(r));
        uint32_t rv = 0;
        CUresult rc = cuMemcpyDtoH(&rv, X + 4, 4);
        CUresult rm = cuMemsetD32(X, 0x12345678, 16);
        uint32_t rv2 = 0;
        CUresult rc2 = cuMemcpyDtoH(&rv2, X, 4);
        P("vmm.after_release_still_mapped: read=%s val=0x%x write=%s reread=%s val=0x%x\n", en(rc), rv, en(rm),
          en(rc2), rv2);
        r = cuMemRetainAllocationHandle(&hr, (void *)(uintptr_t)X);
        P("vmm.retain_after_release: %s\n", en(r));
        if (!r) {
            CUresult rr = cuMemRelease(hr);
            P("vmm.release_retained_after_release: %s\n", en(rr));
        }
        r = cuMemGetAllocationPropertiesFromHandle(&pp, h2);
        P("vmm.props_of_released_but_mapped: %s\n", en(r));
        r = cuMemUnmap(X, 2 * G);
        P("vmm.unmap_after_release: %s\n", en(r));
        CUresult rfa = cuMemAddressFree(X, 4 * G);
        P("vmm.addressfree_after: %s\n", en(rfa));
    }
    {
        r = cuMemMapArrayAsync(NULL, 0, 0);
        P("vmm.maparray.null_count0: %s\n", en(r));
        r = cuMemMapArrayAsync(NULL, 1, 0);
        P("vmm.maparray.null_count1: %s\n", en(r));
    }
    r = cuMemRelease(h);
    P("vmm.release_h: %s\n", en(r));
    r = cuMemRelease(h4);
    P("vmm.release_h4: %s\n", en(r));
    r = cuCtxSynchronize();
    P("vmm.ctx_healthy: %s\n", en(r));
    /* stale handles (garbage ones run alone: "vmm risky NAME") */
    r = cuMemRelease(0);
    P("vmm.release_0: %s\n", en(r));
    {
        CUmemAllocationProp pp;
        r = cuMemGetAllocationPropertiesFromHandle(&pp, h2);
        P("vmm.props_of_freed_handle: %s\n", en(r));
        r = cuMemRelease(h4);
        P("vmm.release_double: %s\n", en(r));
    }
    r = cuCtxSynchronize();
    P("vmm.ctx_healthy_at_end: %s\n", en(r));
    (void)vb;
    teardown("vmm");
    return 0;
}
