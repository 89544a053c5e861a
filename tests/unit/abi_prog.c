/*
 * abi_prog.c - a driver-API program of the kind people already have: built
 * once against our headers and once against the real CUDA 13 headers and
 * libcuda, it must print the same lines when it runs on libcuemu.
 */
#include <stdio.h>
#include <string.h>

#include <cuda.h>

#define TRY(call)                                                             \
	do {                                                                  \
		CUresult r_ = (call);                                         \
		const char *n_ = "?";                                         \
		cuGetErrorName(r_, &n_);                                      \
		printf("%s: %s\n", #call, n_);                                \
	} while (0)

int main(void)
{
	CUdevice dev;
	CUcontext ctx;
	CUdeviceptr d = 0, m = 0;
	CUstream s;
	CUmemLocation gpu1 = { CU_MEM_LOCATION_TYPE_DEVICE, 1 };
	char name[64] = "";
	int n = 0, v = 0, pref = -9;
	size_t total = 0;
	unsigned char buf[4096], back[4096];

	TRY(cuInit(0));
	TRY(cuDeviceGetCount(&n));
	printf("devices %d\n", n);
	TRY(cuDeviceGet(&dev, 0));
	TRY(cuDeviceGetName(name, sizeof name, dev));
	TRY(cuDeviceTotalMem(&total, dev));
	printf("%s %zu\n", name, total);
	TRY(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, dev));
	printf("concurrent managed access %d\n", v);
	TRY(cuDevicePrimaryCtxRetain(&ctx, dev));
	TRY(cuCtxSetCurrent(ctx));
	TRY(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	TRY(cuMemAlloc(&d, sizeof buf));
	memset(buf, 0x5a, sizeof buf);
	TRY(cuMemcpyHtoD(d, buf, sizeof buf));
	TRY(cuMemcpyDtoH(back, d, sizeof back));
	printf("round trip %s\n", memcmp(buf, back, sizeof buf) ? "differs" : "equal");
	TRY(cuMemAllocManaged(&m, 1 << 20, CU_MEM_ATTACH_GLOBAL));
	TRY(cuMemAdvise(m, 1 << 20, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, gpu1));
	TRY(cuMemPrefetchAsync(m, 1 << 20, gpu1, 0, s));
	TRY(cuStreamSynchronize(s));
	TRY(cuMemRangeGetAttribute(&pref, sizeof pref,
				   CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, 1 << 20));
	printf("preferred location %d\n", pref);
	TRY(cuMemAdvise(m, 1 << 20, (CUmem_advise)99, gpu1));
	TRY(cuMemFree(m));
	TRY(cuMemFree(d));
	TRY(cuStreamDestroy(s));
	TRY(cuDevicePrimaryCtxRelease(dev));
	return 0;
}
