/* Every pointer attribute on every kind of memory the runtime makes (see ptrsweep.h for the lines):
 * cuMemAlloc, cuMemAllocHost, cuMemHostAlloc(DEVICEMAP), cuMemHostRegister, cuMemAllocManaged (global and
 * host-attached), blocks of the default device pool, of an exportable device pool, of a host pool and of a
 * host-NUMA pool, a block imported from a pool shared through a file descriptor, and VMM mappings of
 * device, host and host-NUMA handles. Each allocation is 1 MiB (VMM: one granule mapped at the start of a
 * two-granule reservation), and one byte past its end is asked too. */
#include "ptrsweep.h"

static CUmemoryPool mkpool(CUmemLocationType lt, CUmemAllocationHandleType ht)
{
    CUmemPoolProps pp;
    memset(&pp, 0, sizeof pp);
    pp.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    pp.handleTypes = ht;
    pp.location.type = lt;
    pp.location.id = 0;
    CUmemoryPool p = NULL;
    CUresult r = cuMemPoolCreate(&p, &pp);
    P("ptrsweep.setup.pool_create.%d.%d: %s\n", (int)lt, (int)ht, en(r));
    return r == CUDA_SUCCESS ? p : NULL;
}

static CUdeviceptr poolblock(const char *name, CUmemoryPool p, CUstream s, size_t sz)
{
    CUdeviceptr d = 0;
    CUresult r = cuMemAllocFromPoolAsync(&d, sz, p, s);
    cuStreamSynchronize(s);
    P("ptrsweep.setup.%s: %s\n", name, en(r));
    if (r == CUDA_SUCCESS) sw_sweep(name, d, sz, p);
    return r == CUDA_SUCCESS ? d : 0;
}

static void vmmkind(const char *name, CUmemLocationType lt, size_t G)
{
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof prop);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = lt;
    prop.location.id = 0;
    CUmemGenericAllocationHandle h;
    CUdeviceptr va = 0;
    CUresult r = cuMemCreate(&h, G, &prop, 0);
    P("ptrsweep.setup.%s.create: %s\n", name, en(r));
    if (r != CUDA_SUCCESS) return;
    CK(cuMemAddressReserve(&va, 2 * G, 0, 0, 0));
    CK(cuMemMap(va, G, 0, h, 0));
    CUmemAccessDesc ad = { { CU_MEM_LOCATION_TYPE_DEVICE, 0 }, CU_MEM_ACCESS_FLAGS_PROT_READWRITE };
    CK(cuMemSetAccess(va, G, &ad, 1));
    sw_sweep(name, va, G, NULL);
    CK(cuMemUnmap(va, G));
    CK(cuMemAddressFree(va, 2 * G));
    CK(cuMemRelease(h));
}

int main(void)
{
    setup("ptrsweep");
    const size_t SZ = 1 * MiB;
    CUstream S;
    CK(cuStreamCreate(&S, CU_STREAM_NON_BLOCKING));
    CUmemoryPool defpool;
    CK(cuDeviceGetDefaultMemPool(&defpool, g_dev[0]));

    CUdeviceptr dev;
    CK(cuMemAlloc(&dev, SZ));
    sw_sweep("cuMemAlloc", dev, SZ, NULL);

    void *hp;
    CK(cuMemAllocHost(&hp, SZ));
    sw_sweep("cuMemAllocHost", (uint64_t)(uintptr_t)hp, SZ, NULL);

    void *hm;
    CK(cuMemHostAlloc(&hm, SZ, CU_MEMHOSTALLOC_DEVICEMAP));
    sw_sweep("cuMemHostAlloc_devicemap", (uint64_t)(uintptr_t)hm, SZ, NULL);

    void *reg = aligned_alloc(4096, 2 * SZ);
    memset(reg, 0, 2 * SZ);
    CK(cuMemHostRegister(reg, SZ, 0));
    sw_sweep("cuMemHostRegister", (uint64_t)(uintptr_t)reg, SZ, NULL);

    CUdeviceptr man, manh;
    CK(cuMemAllocManaged(&man, SZ, CU_MEM_ATTACH_GLOBAL));
    sw_sweep("managed_global", man, SZ, NULL);
    CK(cuMemAllocManaged(&manh, SZ, CU_MEM_ATTACH_HOST));
    sw_sweep("managed_host", manh, SZ, NULL);

    CUdeviceptr pd = poolblock("pool_default", defpool, S, SZ);
    CUmemoryPool pf = mkpool(CU_MEM_LOCATION_TYPE_DEVICE, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
    CUdeviceptr pfd = pf ? poolblock("pool_device_fd", pf, S, SZ) : 0;
    CUmemoryPool ph = mkpool(CU_MEM_LOCATION_TYPE_HOST, CU_MEM_HANDLE_TYPE_NONE);
    CUdeviceptr phd = ph ? poolblock("pool_host", ph, S, SZ) : 0;
    CUmemoryPool pn = mkpool(CU_MEM_LOCATION_TYPE_HOST_NUMA, CU_MEM_HANDLE_TYPE_NONE);
    CUdeviceptr pnd = pn ? poolblock("pool_host_numa", pn, S, SZ) : 0;

    /* a block of the exportable pool, imported in this same process through its fd */
    if (pf && pfd) {
        int fd = -1;
        CUmemoryPool ip = NULL;
        CUmemPoolPtrExportData ed;
        CUdeviceptr imp = 0;
        CUresult r = cuMemPoolExportToShareableHandle(&fd, pf, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
        if (r == CUDA_SUCCESS)
            r = cuMemPoolImportFromShareableHandle(&ip, (void *)(uintptr_t)fd,
                                                   CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
        if (r == CUDA_SUCCESS) r = cuMemPoolExportPointer(&ed, pfd);
        if (r == CUDA_SUCCESS) r = cuMemPoolImportPointer(&imp, ip, &ed);
        P("ptrsweep.setup.pool_imported: %s\n", en(r));
        if (r == CUDA_SUCCESS) {
            sw_sweep("pool_imported", imp, SZ, ip);
            CK(cuMemFreeAsync(imp, S));
            CK(cuStreamSynchronize(S));
        }
        if (ip) cuMemPoolDestroy(ip);
        if (fd >= 0) close(fd);
    }

    size_t G = 0;
    CUmemAllocationProp gp;
    memset(&gp, 0, sizeof gp);
    gp.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    gp.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    CK(cuMemGetAllocationGranularity(&G, &gp, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    vmmkind("vmm_device", CU_MEM_LOCATION_TYPE_DEVICE, G);
    vmmkind("vmm_host", CU_MEM_LOCATION_TYPE_HOST, G);
    vmmkind("vmm_host_numa", CU_MEM_LOCATION_TYPE_HOST_NUMA, G);

    /* the same, with no current context */
    CK(cuCtxSetCurrent(NULL));
    sw_sweep("pool_host_no_ctx", phd, SZ, ph);
    sw_sweep("managed_global_no_ctx", man, SZ, NULL);
    CK(cuCtxSetCurrent(g_ctx[0]));

    if (pd) CK(cuMemFreeAsync(pd, S));
    if (pfd) CK(cuMemFreeAsync(pfd, S));
    if (phd) CK(cuMemFreeAsync(phd, S));
    if (pnd) CK(cuMemFreeAsync(pnd, S));
    CK(cuStreamSynchronize(S));
    if (pf) CK(cuMemPoolDestroy(pf));
    if (ph) CK(cuMemPoolDestroy(ph));
    if (pn) CK(cuMemPoolDestroy(pn));
    CK(cuMemFree(manh));
    CK(cuMemFree(man));
    CK(cuMemHostUnregister(reg));
    free(reg);
    CK(cuMemFreeHost(hm));
    CK(cuMemFreeHost(hp));
    CK(cuMemFree(dev));
    cuStreamDestroy(S);
    teardown("ptrsweep");
    return 0;
}
