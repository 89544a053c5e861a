/* VMM at every boundary: map, unmap, set and get access with a mapping smaller or larger than its
 * handle, offsets into the handle, ranges outside the reservation, partly mapped ranges and unmapped
 * addresses; and the identifiers of handles and their allocations. G is device 0's granularity.
 * Every case runs in a process of its own (the program runs itself as "vmmsweep case NAME"), so a case
 * that crashes inside the driver costs only itself: it prints "NAME: SIGNAL n" and its exit status.
 * Lines carry no addresses: offsets from the reservation's base and equalities instead. */
#include "common.h"
#include <sys/wait.h>

static size_t G;

static CUmemAllocationProp prop(void)
{
    CUmemAllocationProp p;
    memset(&p, 0, sizeof p);
    p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    p.location.id = 0;
    p.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    return p;
}

static CUmemGenericAllocationHandle mkh(size_t sz)
{
    CUmemAllocationProp p = prop();
    CUmemGenericAllocationHandle h;
    CK(cuMemCreate(&h, sz, &p, 0));
    return h;
}

static CUdeviceptr reserve(size_t sz)
{
    CUdeviceptr va;
    CK(cuMemAddressReserve(&va, sz, 0, 0, 0));
    return va;
}

static CUresult acc(CUdeviceptr va, size_t sz, int dev, CUmemAccess_flags f)
{
    CUmemAccessDesc d = { { CU_MEM_LOCATION_TYPE_DEVICE, dev }, f };
    return cuMemSetAccess(va, sz, &d, 1);
}

static const char *getacc(CUdeviceptr va)
{
    static char b[4][64];
    static int k;
    unsigned long long f = 99;
    CUmemLocation l = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
    CUresult r = cuMemGetAccess(&f, &l, va);
    k = (k + 1) % 4;
    snprintf(b[k], sizeof b[k], "%s flags=%llu", en(r), f);
    return b[k];
}

static const char *off(CUdeviceptr p, CUdeviceptr base)
{
    static char b[4][48];
    static int k;
    k = (k + 1) % 4;
    if (!p) snprintf(b[k], sizeof b[k], "0");
    else snprintf(b[k], sizeof b[k], "base%+lld", (long long)(p - base));
    return b[k];
}

/* ---- map ---- */
static void map_sizes(void)
{
    CUmemGenericAllocationHandle h = mkh(2 * G);
    CUdeviceptr va = reserve(8 * G);
    struct { const char *n; size_t at, sz, off; } c[] = {
        { "smaller_than_handle", 0, G, 0 },
        { "equal_to_handle", 0, 2 * G, 0 },
        { "larger_than_handle", 0, 3 * G, 0 },
        { "offset_G_size_G", 0, G, G },
        { "offset_G_size_2G", 0, 2 * G, G },
        { "offset_4K", 0, G, 4096 },
        { "offset_2G", 0, G, 2 * G },
        { "size0", 0, 0, 0 },
        { "size_G_plus_4K", 0, G + 4096, 0 },
        { "va_plus_4K", 4096, G, 0 },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        CUresult r = cuMemMap(va + c[i].at, c[i].sz, c[i].off, h, 0);
        const char *ga = "";
        if (r == CUDA_SUCCESS) {
            CK(acc(va + c[i].at, c[i].sz, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE));
            CUdeviceptr b = 0;
            size_t s = 0;
            CUresult q = cuMemGetAddressRange(&b, &s, va + c[i].at);
            P("vmmsweep.map.%s.addressrange: %s %s size=%zu\n", c[i].n, en(q), off(b, va), s);
            ga = getacc(va + c[i].at + c[i].sz - 1);
            CK(cuMemUnmap(va + c[i].at, c[i].sz));
        }
        P("vmmsweep.map.%s: %s%s%s\n", c[i].n, en(r), *ga ? " last_byte_access=" : "", ga);
    }
    CK(cuMemAddressFree(va, 8 * G));
    CK(cuMemRelease(h));
}

static void map_places(void)
{
    CUmemGenericAllocationHandle h = mkh(G);
    CUdeviceptr va = reserve(4 * G);
    CUdeviceptr vb = reserve(4 * G);
    CUdeviceptr lo = va < vb ? va : vb, hi = va < vb ? vb : va;
    struct { const char *n; CUdeviceptr at; } c[] = {
        { "at_reservation_start", va },
        { "at_last_granule", va + 3 * G },
        { "at_reservation_end", va + 4 * G },
        { "below_both_reservations", lo - G },
        { "above_both_reservations", hi + 4 * G },
        { "straddling_start", va - G / 2 },
        { "in_second_reservation", vb + G },
    };
    P("vmmsweep.map.places.second_reservation_after_first: %s\n",
      vb == va + 4 * G ? "adjacent" : vb > va ? "above" : "below");
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        CUresult r = cuMemMap(c[i].at, G, 0, h, 0);
        P("vmmsweep.map.%s: %s\n", c[i].n, en(r));
        if (r == CUDA_SUCCESS) CK(cuMemUnmap(c[i].at, G));
    }
    CK(cuMemAddressFree(vb, 4 * G));
    CUresult r = cuMemMap(vb, G, 0, h, 0);
    P("vmmsweep.map.into_freed_reservation: %s\n", en(r));
    if (r == CUDA_SUCCESS) cuMemUnmap(vb, G);
    CK(cuMemAddressFree(va, 4 * G));
    CK(cuMemRelease(h));
}

/* a reservation of 4G: [0,G) and [2G,3G) mapped, [G,2G) and [3G,4G) not */
static CUdeviceptr holes(CUmemGenericAllocationHandle *h1, CUmemGenericAllocationHandle *h2)
{
    CUdeviceptr va = reserve(4 * G);
    *h1 = mkh(G);
    *h2 = mkh(G);
    CK(cuMemMap(va, G, 0, *h1, 0));
    CK(cuMemMap(va + 2 * G, G, 0, *h2, 0));
    return va;
}

static void holes_free(CUdeviceptr va, CUmemGenericAllocationHandle h1, CUmemGenericAllocationHandle h2)
{
    cuMemUnmap(va, G);
    cuMemUnmap(va + 2 * G, G);
    CK(cuMemAddressFree(va, 4 * G));
    CK(cuMemRelease(h1));
    CK(cuMemRelease(h2));
}

/* ---- unmap ---- */
static void unmap_ranges(void)
{
    struct { const char *n; size_t at, sz; } c[] = {
        { "first_mapping", 0, G },
        { "hole", G, G },
        { "mapping_and_hole", 0, 2 * G },
        { "hole_and_mapping", G, 2 * G },
        { "whole_reservation", 0, 4 * G },
        { "last_hole", 3 * G, G },
        { "past_reservation_end", 3 * G, 2 * G },
        { "at_reservation_end", 4 * G, G },
        { "size0_at_mapping", 0, 0 },
        { "half_of_mapping", 0, G / 2 },
        { "second_half_of_mapping", G / 2, G / 2 },
        { "unaligned_start_in_hole", G + 4096, G - 4096 },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        CUmemGenericAllocationHandle h1, h2;
        CUdeviceptr va = holes(&h1, &h2);
        CUresult r = cuMemUnmap(va + c[i].at, c[i].sz);
        /* what is left mapped: a map over each granule tells (INVALID_VALUE where mapped) */
        CUmemGenericAllocationHandle h3 = mkh(G);
        char left[8];
        for (int g = 0; g < 4; g++) {
            CUresult m = cuMemMap(va + g * G, G, 0, h3, 0);
            left[g] = m == CUDA_SUCCESS ? '.' : 'M';
            if (m == CUDA_SUCCESS) CK(cuMemUnmap(va + g * G, G));
        }
        left[4] = 0;
        P("vmmsweep.unmap.%s: %s mapped_after=%s\n", c[i].n, en(r), left);
        CK(cuMemRelease(h3));
        holes_free(va, h1, h2);
    }
    CUresult r = cuMemUnmap(0, G);
    P("vmmsweep.unmap.null: %s\n", en(r));
}

/* ---- set and get access ---- */
static void setaccess_ranges(void)
{
    struct { const char *n; size_t at, sz; } c[] = {
        { "first_mapping", 0, G },
        { "hole", G, G },
        { "mapping_and_hole", 0, 2 * G },
        { "across_hole", 0, 3 * G },
        { "second_mapping", 2 * G, G },
        { "second_mapping_and_last_hole", 2 * G, 2 * G },
        { "past_reservation_end", 2 * G, 3 * G },
        { "at_reservation_end", 4 * G, G },
        { "size0", 0, 0 },
        { "interior_unaligned", 4096, 4096 },
        { "half_of_mapping", 0, G / 2 },
        { "second_half_of_mapping", G / 2, G / 2 },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        CUmemGenericAllocationHandle h1, h2;
        CUdeviceptr va = holes(&h1, &h2);
        CUresult r = acc(va + c[i].at, c[i].sz, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
        P("vmmsweep.setaccess.%s: %s first=[%s] first_last_byte=[%s] second=[%s]\n", c[i].n, en(r), getacc(va),
          getacc(va + G - 1), getacc(va + 2 * G));
        holes_free(va, h1, h2);
    }
    CUresult r = acc(0, G, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    P("vmmsweep.setaccess.null: %s\n", en(r));
    void *m = aligned_alloc(G, G);
    r = acc((CUdeviceptr)(uintptr_t)m, G, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    P("vmmsweep.setaccess.malloc: %s\n", en(r));
    free(m);
    CUdeviceptr d;
    CK(cuMemAlloc(&d, 2 * G));
    r = acc(d, G, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    P("vmmsweep.setaccess.cuMemAlloc: %s\n", en(r));
    CK(cuMemFree(d));
}

static void getaccess_places(void)
{
    CUmemGenericAllocationHandle h1, h2;
    CUdeviceptr va = holes(&h1, &h2);
    CK(acc(va, G, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE));
    CK(acc(va + 2 * G, G, 0, CU_MEM_ACCESS_FLAGS_PROT_READ));
    P("vmmsweep.getaccess.base: %s\n", getacc(va));
    P("vmmsweep.getaccess.interior: %s\n", getacc(va + G / 2 + 3));
    P("vmmsweep.getaccess.last_byte: %s\n", getacc(va + G - 1));
    P("vmmsweep.getaccess.hole: %s\n", getacc(va + G));
    P("vmmsweep.getaccess.second_mapping: %s\n", getacc(va + 2 * G + 5));
    P("vmmsweep.getaccess.last_hole: %s\n", getacc(va + 3 * G));
    P("vmmsweep.getaccess.reservation_end: %s\n", getacc(va + 4 * G));
    P("vmmsweep.getaccess.before_reservation: %s\n", getacc(va - 1));
    P("vmmsweep.getaccess.null: %s\n", getacc(0));
    CUdeviceptr d, m;
    CK(cuMemAlloc(&d, G));
    CK(cuMemAllocManaged(&m, G, CU_MEM_ATTACH_GLOBAL));
    void *hp;
    CK(cuMemAllocHost(&hp, G));
    void *ml = malloc(G);
    CUdeviceptr pd;
    CK(cuMemAllocAsync(&pd, G, 0));
    CK(cuStreamSynchronize(0));
    P("vmmsweep.getaccess.cuMemAlloc: %s\n", getacc(d));
    P("vmmsweep.getaccess.managed: %s\n", getacc(m));
    P("vmmsweep.getaccess.cuMemAllocHost: %s\n", getacc((CUdeviceptr)(uintptr_t)hp));
    P("vmmsweep.getaccess.malloc: %s\n", getacc((CUdeviceptr)(uintptr_t)ml));
    P("vmmsweep.getaccess.pool_block: %s\n", getacc(pd));
    CK(cuMemFreeAsync(pd, 0));
    CK(cuStreamSynchronize(0));
    free(ml);
    CK(cuMemFreeHost(hp));
    CK(cuMemFree(m));
    CK(cuMemFree(d));
    holes_free(va, h1, h2);
}

/* one mapping's access changed by a range over two mappings, then each alone */
static void access_two_mappings(void)
{
    CUdeviceptr va = reserve(2 * G);
    CUmemGenericAllocationHandle h1 = mkh(G), h2 = mkh(G);
    CK(cuMemMap(va, G, 0, h1, 0));
    CK(cuMemMap(va + G, G, 0, h2, 0));
    CUresult r = acc(va, 2 * G, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    P("vmmsweep.access_two.both: %s first=[%s] second=[%s]\n", en(r), getacc(va), getacc(va + G));
    r = acc(va + G, G, 0, CU_MEM_ACCESS_FLAGS_PROT_READ);
    P("vmmsweep.access_two.second_read: %s first=[%s] second=[%s]\n", en(r), getacc(va), getacc(va + G));
    r = acc(va + G / 2, G, 0, CU_MEM_ACCESS_FLAGS_PROT_NONE);
    P("vmmsweep.access_two.straddle_none: %s first=[%s] first_last=[%s] second=[%s] second_last=[%s]\n", en(r),
      getacc(va), getacc(va + G - 1), getacc(va + G), getacc(va + 2 * G - 1));
    CK(cuMemUnmap(va, 2 * G));
    CK(cuMemAddressFree(va, 2 * G));
    CK(cuMemRelease(h1));
    CK(cuMemRelease(h2));
}

/* ---- identifiers ---- */
static uint64_t pattr(CUpointer_attribute a, CUdeviceptr p, CUresult *r)
{
    uint64_t v = 0;
    *r = cuPointerGetAttribute(&v, a, p);
    return v;
}

static void ids(void)
{
    CUmemGenericAllocationHandle h = mkh(2 * G);
    CUdeviceptr va = reserve(4 * G);
    CK(cuMemMap(va, 2 * G, 0, h, 0));
    CK(acc(va, 2 * G, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE));
    struct { const char *n; CUdeviceptr p; } c[] = {
        { "base", va }, { "interior", va + G + 7 }, { "last_byte", va + 2 * G - 1 },
        { "end_unmapped", va + 2 * G }, { "past_reservation", va + 4 * G }, { "null", 0 },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        CUmemGenericAllocationHandle r2 = 0;
        CUresult r = cuMemRetainAllocationHandle(&r2, (void *)(uintptr_t)c[i].p);
        P("vmmsweep.ids.retain.%s: %s same_handle=%s\n", c[i].n, en(r), r2 == h ? "yes" : r2 ? "no" : "zero");
        if (r == CUDA_SUCCESS) CK(cuMemRelease(r2));
    }
    CUmemAllocationProp p;
    memset(&p, 0x5a, sizeof p);
    CUresult r = cuMemGetAllocationPropertiesFromHandle(&p, h);
    P("vmmsweep.ids.props: %s type=%d loc=%d:%d handles=%d rdma=%d compression=%d usage=%d\n", en(r), (int)p.type,
      (int)p.location.type, p.location.id, (int)p.requestedHandleTypes, (int)p.allocFlags.gpuDirectRDMACapable,
      (int)p.allocFlags.compressionType, (int)p.allocFlags.usage);
    r = cuMemGetAllocationPropertiesFromHandle(NULL, h);
    P("vmmsweep.ids.props_null_out: %s\n", en(r));
    CUdeviceptr b = 0;
    size_t s = 0;
    r = cuMemGetAddressRange(&b, &s, va + G + 7);
    P("vmmsweep.ids.addressrange_interior: %s %s size=%zu\n", en(r), off(b, va), s);
    r = cuMemGetAddressRange(&b, &s, va + 3 * G);
    P("vmmsweep.ids.addressrange_unmapped: %s\n", en(r));
    /* a second mapping of the same handle, and an exported and imported handle */
    CUdeviceptr vb = reserve(2 * G);
    CK(cuMemMap(vb, 2 * G, 0, h, 0));
    CK(acc(vb, 2 * G, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE));
    CUmemGenericAllocationHandle rb = 0;
    r = cuMemRetainAllocationHandle(&rb, (void *)(uintptr_t)vb);
    P("vmmsweep.ids.retain_second_mapping: %s same_handle=%s\n", en(r), rb == h ? "yes" : "no");
    if (r == CUDA_SUCCESS) CK(cuMemRelease(rb));
    CUresult q1, q2, q3, q4;
    uint64_t b1 = pattr(CU_POINTER_ATTRIBUTE_BUFFER_ID, va, &q1), b2 = pattr(CU_POINTER_ATTRIBUTE_BUFFER_ID, vb, &q2);
    uint64_t k1 = pattr(CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, va, &q3);
    uint64_t k2 = pattr(CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, vb, &q4);
    P("vmmsweep.ids.second_mapping_ids: %s %s %s %s buffer_same=%s block_same=%s\n", en(q1), en(q2), en(q3), en(q4),
      b1 == b2 ? "yes" : "no", k1 == k2 ? "yes" : "no");
    uint64_t i1 = pattr(CU_POINTER_ATTRIBUTE_BUFFER_ID, va + G + 7, &q1);
    uint64_t j1 = pattr(CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, va + G + 7, &q2);
    P("vmmsweep.ids.interior_ids: %s %s buffer_same_as_base=%s block_same_as_base=%s\n", en(q1), en(q2),
      i1 == b1 ? "yes" : "no", j1 == k1 ? "yes" : "no");
    int fd = -1;
    r = cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
    P("vmmsweep.ids.export: %s\n", en(r));
    if (r == CUDA_SUCCESS) {
        CUmemGenericAllocationHandle ih = 0;
        r = cuMemImportFromShareableHandle(&ih, (void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
        P("vmmsweep.ids.import_own: %s same_handle=%s\n", en(r), ih == h ? "yes" : ih ? "no" : "zero");
        if (r == CUDA_SUCCESS) {
            CUdeviceptr vc = reserve(2 * G);
            r = cuMemMap(vc, 2 * G, 0, ih, 0);
            P("vmmsweep.ids.map_imported: %s\n", en(r));
            if (r == CUDA_SUCCESS) {
                CK(acc(vc, 2 * G, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE));
                CUmemGenericAllocationHandle rc = 0;
                r = cuMemRetainAllocationHandle(&rc, (void *)(uintptr_t)vc);
                P("vmmsweep.ids.retain_imported_mapping: %s same_as_imported=%s same_as_original=%s\n", en(r),
                  rc == ih ? "yes" : "no", rc == h ? "yes" : "no");
                if (r == CUDA_SUCCESS) CK(cuMemRelease(rc));
                uint64_t k3 = pattr(CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, vc, &q1);
                P("vmmsweep.ids.imported_block_id: %s same_as_original=%s\n", en(q1), k3 == k1 ? "yes" : "no");
                CUmemAllocationProp ip;
                memset(&ip, 0, sizeof ip);
                r = cuMemGetAllocationPropertiesFromHandle(&ip, ih);
                P("vmmsweep.ids.imported_props: %s type=%d loc=%d:%d handles=%d\n", en(r), (int)ip.type,
                  (int)ip.location.type, ip.location.id, (int)ip.requestedHandleTypes);
                CK(cuMemUnmap(vc, 2 * G));
            }
            CK(cuMemAddressFree(vc, 2 * G));
            CK(cuMemRelease(ih));
        }
        close(fd);
    }
    CK(cuMemUnmap(vb, 2 * G));
    CK(cuMemAddressFree(vb, 2 * G));
    CK(cuMemUnmap(va, 2 * G));
    CK(cuMemAddressFree(va, 4 * G));
    CK(cuMemRelease(h));
}

/* a handle released while mapped, used again */
static void released_mapped(void)
{
    CUmemGenericAllocationHandle h = mkh(G);
    CUdeviceptr va = reserve(2 * G);
    CK(cuMemMap(va, G, 0, h, 0));
    CK(cuMemRelease(h));
    CUmemGenericAllocationHandle r2 = 0;
    CUresult r = cuMemRetainAllocationHandle(&r2, (void *)(uintptr_t)va);
    P("vmmsweep.released.retain: %s same_handle=%s\n", en(r), r2 == h ? "yes" : "no");
    CUresult m = cuMemMap(va + G, G, 0, r == CUDA_SUCCESS ? r2 : h, 0);
    P("vmmsweep.released.map_retained_again: %s\n", en(m));
    if (m == CUDA_SUCCESS) CK(cuMemUnmap(va + G, G));
    if (r == CUDA_SUCCESS) CK(cuMemRelease(r2));
    CK(cuMemUnmap(va, G));
    CK(cuMemAddressFree(va, 2 * G));
}

static struct { const char *name; void (*fn)(void); } cases[] = {
    { "map_sizes", map_sizes }, { "map_places", map_places }, { "unmap_ranges", unmap_ranges },
    { "setaccess_ranges", setaccess_ranges }, { "getaccess_places", getaccess_places },
    { "access_two_mappings", access_two_mappings }, { "ids", ids }, { "released_mapped", released_mapped },
};
#define NCASES (sizeof cases / sizeof cases[0])

static void begin(void)
{
    signal(SIGSEGV, on_sig);
    signal(SIGBUS, on_sig);
    signal(SIGABRT, on_sig);
    CK(cuInit(0));
    CK(cuDeviceGetCount(&g_ndev));
    CK(cuDeviceGet(&g_dev[0], 0));
    CK(cuDevicePrimaryCtxRetain(&g_ctx[0], g_dev[0]));
    CK(cuCtxSetCurrent(g_ctx[0]));
    CUmemAllocationProp p = prop();
    CK(cuMemGetAllocationGranularity(&G, &p, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
}

int main(int argc, char **argv)
{
    if (argc > 2 && !strcmp(argv[1], "case")) {
        for (size_t i = 0; i < NCASES; i++)
            if (!strcmp(argv[2], cases[i].name)) {
                CASE(cases[i].name);
                begin();
                cases[i].fn();
                cuDevicePrimaryCtxRelease(g_dev[0]);
                return 0;
            }
        return 2;
    }
    /* no driver call in this process: each case runs in a child of its own */
    for (size_t i = 0; i < NCASES; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            execl("/proc/self/exe", argv[0], "case", cases[i].name, (char *)NULL);
            _exit(127);
        }
        int st = 0;
        waitpid(pid, &st, 0);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
            printf("vmmsweep.case.%s.exit: %d\n", cases[i].name, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        fflush(stdout);
    }
    printf("vmmsweep.done: ok\n");
    return 0;
}
