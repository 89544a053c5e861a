/*
 * install_prog.c - what a communication library's CUDA support does when
 * it is configured with the installed prefix as its CUDA root: it builds
 * against the installed cuda.h, cudaTypedefs.h and nvml.h, links with
 * -lcuda -lnvidia-ml, counts the devices both ways, asks for an
 * allocation's memory type, managed flag, ordinal and context in one
 * cuPointerGetAttributes call, widens it to its allocation
 * (cuMemGetAddressRange), exports it (cuIpcGetMemHandle), and looks up the
 * optional dma-buf export by name (cuGetProcAddress). One line a fact;
 * install.sh checks the lines.
 */
#include <stdio.h>
#include <string.h>

#include <cuda.h>
#include <cudaTypedefs.h>
#include <nvml.h>

#define SAY(call)                                                             \
	do {                                                                  \
		CUresult r_ = (call);                                         \
		const char *n_ = "?";                                         \
		cuGetErrorName(r_, &n_);                                      \
		printf("%s: %s\n", #call, n_);                                \
	} while (0)

int main(void)
{
	CUdevice dev;
	CUcontext ctx, owner = NULL;
	CUdeviceptr d = 0, base = 0;
	CUmemorytype type = (CUmemorytype)0;
	unsigned int managed = 9, count = 0;
	int ordinal = -1, n = 0;
	size_t size = 0;
	CUipcMemHandle ipc;
	CUpointer_attribute attrs[4] = {
		CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED,
		CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, CU_POINTER_ATTRIBUTE_CONTEXT,
	};
	void *data[4] = { &type, &managed, &ordinal, &owner };
	PFN_cuMemGetHandleForAddressRange_v11070 dmabuf = NULL;
	CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;

	SAY(cuInit(0));
	SAY(cuDeviceGetCount(&n));
	printf("devices %d\n", n);
	printf("nvmlInit_v2: %d\n", (int)nvmlInit_v2());
	printf("nvmlDeviceGetCount_v2: %d\n", (int)nvmlDeviceGetCount_v2(&count));
	printf("nvml devices %u\n", count);
	SAY(cuDeviceGet(&dev, 1));
	SAY(cuDevicePrimaryCtxRetain(&ctx, dev));
	SAY(cuCtxSetCurrent(ctx));
	SAY(cuMemAlloc(&d, 3 << 20));
	SAY(cuPointerGetAttributes(4, attrs, data, d + 4096));
	printf("type %d managed %u ordinal %d own context %s\n", (int)type,
	       managed, ordinal, owner == ctx ? "yes" : "no");
	SAY(cuMemGetAddressRange(&base, &size, d + 4096));
	printf("range from the base %s, %zu bytes\n", base == d ? "yes" : "no",
	       size);
	SAY(cuIpcGetMemHandle(&ipc, d));
	SAY(cuGetProcAddress("cuMemGetHandleForAddressRange", (void **)&dmabuf,
			     12000, CU_GET_PROC_ADDRESS_DEFAULT, &found));
	printf("dma-buf export %s\n",
	       found == CU_GET_PROC_ADDRESS_SUCCESS && dmabuf ? "found" : "absent");
	SAY(cuMemFree(d));
	SAY(cuDevicePrimaryCtxRelease(dev));
	printf("nvmlShutdown: %d\n", (int)nvmlShutdown());
	return 0;
}
