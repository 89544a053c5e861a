/* Every attribute of every kind of pool, got and set, with valid and invalid values: the default device
 * pool, explicit device pools (no handle type and POSIX_FD), a host pool, a host-NUMA pool, a pool imported
 * through a file descriptor, and a managed pool. Each pool (but the imported one, which cannot allocate)
 * holds one live 1 MiB block while it is asked. Every value is printed with the width written (w=4 or w=8,
 * from a sentinel). */
#include "common.h"

#define SENT 0xa5a5a5a5a5a5a5a5ull
static const char *an[10] = { "0", "REUSE_FOLLOW_EVENT_DEPENDENCIES", "REUSE_ALLOW_OPPORTUNISTIC",
                              "REUSE_ALLOW_INTERNAL_DEPENDENCIES", "RELEASE_THRESHOLD", "RESERVED_MEM_CURRENT",
                              "RESERVED_MEM_HIGH", "USED_MEM_CURRENT", "USED_MEM_HIGH", "9" };

static const char *val(uint64_t v)
{
    static char b[4][64];
    static int k;
    k = (k + 1) % 4;
    if (v == SENT) snprintf(b[k], sizeof b[k], "w=0");
    else if ((v >> 32) == 0xa5a5a5a5u) snprintf(b[k], sizeof b[k], "w=4 %d", (int32_t)(uint32_t)v);
    else snprintf(b[k], sizeof b[k], "w=8 %llu", (unsigned long long)v);
    return b[k];
}

static const char *get(CUmemoryPool p, int a)
{
    uint64_t v = SENT;
    CUresult r = cuMemPoolGetAttribute(p, (CUmemPool_attribute)a, &v);
    static char b[4][96];
    static int k;
    k = (k + 1) % 4;
    snprintf(b[k], sizeof b[k], "%s %s", en(r), val(v));
    return b[k];
}

/* set a to v, the width the attribute takes, and read it back */
static void set(const char *kind, CUmemoryPool p, int a, const char *vn, uint64_t v)
{
    uint64_t buf = a >= 1 && a <= 3 ? (SENT & ~0xffffffffull) | (uint32_t)v : v;
    CUresult r = cuMemPoolSetAttribute(p, (CUmemPool_attribute)a, &buf);
    P("poolsweep.%s.set.%s.%s: %s then %s\n", kind, an[a], vn, en(r), get(p, a));
}

static void sweep(const char *kind, CUmemoryPool p)
{
    if (!p) return;
    for (int a = 0; a <= 9; a++)
        P("poolsweep.%s.get.%s: %s\n", kind, an[a], get(p, a));
    for (int a = 1; a <= 3; a++) {
        set(kind, p, a, "0", 0);
        set(kind, p, a, "2", 2);
        set(kind, p, a, "minus1", (uint32_t)-1);
        set(kind, p, a, "1", 1);
    }
    set(kind, p, 4, "16MiB", 16 * MiB);
    set(kind, p, 4, "max", UINT64_MAX);
    set(kind, p, 4, "1", 1);
    set(kind, p, 4, "0", 0);
    for (int a = 5; a <= 8; a++) {
        set(kind, p, a, "0", 0);
        set(kind, p, a, "1MiB", MiB);
        set(kind, p, a, "max", UINT64_MAX);
    }
    set(kind, p, 0, "0", 0);
    set(kind, p, 9, "0", 0);
    P("poolsweep.%s.get_null_value: %s\n", kind, en(cuMemPoolGetAttribute(p, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, NULL)));
}

static CUmemoryPool mk(const char *kind, CUmemAllocationType at, CUmemLocationType lt, CUmemAllocationHandleType ht)
{
    CUmemPoolProps pp;
    memset(&pp, 0, sizeof pp);
    pp.allocType = at;
    pp.handleTypes = ht;
    pp.location.type = lt;
    pp.location.id = 0;
    CUmemoryPool p = NULL;
    CUresult r = cuMemPoolCreate(&p, &pp);
    P("poolsweep.%s.create: %s\n", kind, en(r));
    return r == CUDA_SUCCESS ? p : NULL;
}

static CUdeviceptr block(const char *kind, CUmemoryPool p, CUstream s)
{
    CUdeviceptr d = 0;
    if (!p) return 0;
    CUresult r = cuMemAllocFromPoolAsync(&d, MiB, p, s);
    cuStreamSynchronize(s);
    P("poolsweep.%s.alloc_1MiB: %s\n", kind, en(r));
    return r == CUDA_SUCCESS ? d : 0;
}

/* crashed the real driver (SIGSEGV): one process of its own, as "poolsweep risky set_null_value" */
static int risky(const char *name)
{
    CASE("poolsweep.set_null_value");
    setup("poolsweep_risky");
    CUmemoryPool p;
    CK(cuDeviceGetDefaultMemPool(&p, g_dev[0]));
    if (!strcmp(name, "set_null_value"))
        P("poolsweep.set_null_value: %s\n", en(cuMemPoolSetAttribute(p, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, NULL)));
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 2 && !strcmp(argv[1], "risky"))
        return risky(argv[2]);
    setup("poolsweep");
    CUstream S;
    CK(cuStreamCreate(&S, CU_STREAM_NON_BLOCKING));
    struct { const char *n; CUmemoryPool p; CUdeviceptr d; } k[7];
    memset(k, 0, sizeof k);
    k[0].n = "default";
    CK(cuDeviceGetDefaultMemPool(&k[0].p, g_dev[0]));
    k[1].n = "device";
    k[1].p = mk(k[1].n, CU_MEM_ALLOCATION_TYPE_PINNED, CU_MEM_LOCATION_TYPE_DEVICE, CU_MEM_HANDLE_TYPE_NONE);
    k[2].n = "device_fd";
    k[2].p = mk(k[2].n, CU_MEM_ALLOCATION_TYPE_PINNED, CU_MEM_LOCATION_TYPE_DEVICE,
                CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
    k[3].n = "host";
    k[3].p = mk(k[3].n, CU_MEM_ALLOCATION_TYPE_PINNED, CU_MEM_LOCATION_TYPE_HOST, CU_MEM_HANDLE_TYPE_NONE);
    k[4].n = "host_numa";
    k[4].p = mk(k[4].n, CU_MEM_ALLOCATION_TYPE_PINNED, CU_MEM_LOCATION_TYPE_HOST_NUMA, CU_MEM_HANDLE_TYPE_NONE);
    k[5].n = "managed";
    k[5].p = mk(k[5].n, CU_MEM_ALLOCATION_TYPE_MANAGED, CU_MEM_LOCATION_TYPE_DEVICE, CU_MEM_HANDLE_TYPE_NONE);
    k[6].n = "imported";
    int fd = -1;
    if (k[2].p) {
        CUresult r = cuMemPoolExportToShareableHandle(&fd, k[2].p, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
        if (r == CUDA_SUCCESS)
            r = cuMemPoolImportFromShareableHandle(&k[6].p, (void *)(uintptr_t)fd,
                                                   CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
        P("poolsweep.imported.create: %s\n", en(r));
        if (r != CUDA_SUCCESS) k[6].p = NULL;
    }
    for (int i = 0; i < 6; i++)
        k[i].d = block(k[i].n, k[i].p, S);
    for (int i = 0; i < 7; i++)
        sweep(k[i].n, k[i].p);
    for (int i = 0; i < 6; i++)
        if (k[i].d) CK(cuMemFreeAsync(k[i].d, S));
    CK(cuStreamSynchronize(S));
    /* after the blocks are freed and the stream synchronized, with threshold 0 */
    for (int i = 0; i < 6; i++)
        if (k[i].p) {
            P("poolsweep.%s.after_free.RESERVED_MEM_CURRENT: %s\n", k[i].n, get(k[i].p, 5));
            P("poolsweep.%s.after_free.USED_MEM_HIGH: %s\n", k[i].n, get(k[i].p, 8));
        }
    /* destroyed twice: the line gives the second call's answer (the recorded run called it twice, through
     * P's two evaluations of its arguments; this keeps that case explicit) */
    if (k[6].p) {
        CUresult r = cuMemPoolDestroy(k[6].p);
        r = cuMemPoolDestroy(k[6].p);
        P("poolsweep.imported.destroy: %s\n", en(r));
    }
    if (fd >= 0) close(fd);
    for (int i = 1; i < 6; i++)
        if (k[i].p) {
            CK(cuMemPoolDestroy(k[i].p));
            P("poolsweep.%s.get_destroyed: %s\n", k[i].n, get(k[i].p, 4));
        }
    cuStreamDestroy(S);
    teardown("poolsweep");
    return 0;
}
