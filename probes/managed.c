/* Managed memory limits, without oversubscribing: memory info and the two managed-access attributes. */
#include "common.h"

int main(void)
{
    setup("managed");
    for (int i = 0; i < g_ndev && i < 2; i++) {
        CK(cuCtxSetCurrent(g_ctx[i]));
        size_t fr = 0, tot = 0, tm = 0;
        CUresult r = cuMemGetInfo(&fr, &tot);
        cuDeviceTotalMem(&tm, g_dev[i]);
        P("managed.dev%d.memgetinfo: %s free=%zu total=%zu devicetotalmem=%zu\n", i, en(r), fr, tot, tm);
        int a = -1, b = -1, c = -1, d = -1, e = -1;
        CUresult ra = cuDeviceGetAttribute(&a, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, g_dev[i]);
        CUresult rb = cuDeviceGetAttribute(&b, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS, g_dev[i]);
        CUresult rc = cuDeviceGetAttribute(&c, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, g_dev[i]);
        CUresult rd = cuDeviceGetAttribute(&d, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES,
                                           g_dev[i]);
        CUresult re = cuDeviceGetAttribute(&e, CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST, g_dev[i]);
        P("managed.dev%d.attrs: concurrent_managed_access=%d/%s pageable_memory_access=%d/%s managed_memory=%d/%s "
          "pageable_uses_host_page_tables=%d/%s direct_managed_access_from_host=%d/%s\n",
          i, a, en(ra), b, en(rb), c, en(rc), d, en(rd), e, en(re));
    }
    CK(cuCtxSetCurrent(g_ctx[0]));
    /* does a small managed allocation show in cuMemGetInfo before and after it is touched by the device? */
    size_t f0 = 0, f1 = 0, f2 = 0, f3 = 0, t = 0;
    cuMemGetInfo(&f0, &t);
    CUdeviceptr m;
    CK(cuMemAllocManaged(&m, 256 * MiB, CU_MEM_ATTACH_GLOBAL));
    cuMemGetInfo(&f1, &t);
    CUmemLocation loc = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
    CUresult r = cuMemPrefetchAsync(m, 256 * MiB, loc, 0, 0);
    cuCtxSynchronize();
    cuMemGetInfo(&f2, &t);
    CK(cuMemFree(m));
    cuMemGetInfo(&f3, &t);
    P("managed.memgetinfo_256MiB: free_drop_after_alloc=%lld after_prefetch_dev0=%lld (prefetch %s) after_free=%lld\n",
      (long long)f0 - (long long)f1, (long long)f0 - (long long)f2, en(r), (long long)f0 - (long long)f3);
    CUdeviceptr d;
    cuMemGetInfo(&f0, &t);
    CK(cuMemAlloc(&d, 256 * MiB));
    cuMemGetInfo(&f1, &t);
    CK(cuMemFree(d));
    cuMemGetInfo(&f2, &t);
    P("managed.memgetinfo_cuMemAlloc_256MiB: free_drop=%lld after_free=%lld\n", (long long)f0 - (long long)f1,
      (long long)f0 - (long long)f2);
    teardown("managed");
    return 0;
}
