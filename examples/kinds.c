/*
 * kinds.c - one allocation of every kind of memory the API hands out, and
 * what cuPointerGetAttributes says about each: the quickest way to see the
 * address map from a program. Each allocation is labelled, so that
 * /cu/allocations shows the same list while the program waits (pass -w).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda.h"
#include "cuemu.h"

#define CHECK(x)                                                              \
	do {                                                                  \
		CUresult r_ = (x);                                            \
		if (r_ != CUDA_SUCCESS) {                                     \
			const char *n_ = "?";                                 \
			cuGetErrorName(r_, &n_);                              \
			fprintf(stderr, "%s: %s\n", #x, n_);                  \
			exit(1);                                              \
		}                                                             \
	} while (0)

static void show(const char *kind, CUdeviceptr p)
{
	CUpointer_attribute at[] = {
		CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED,
		CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, CU_POINTER_ATTRIBUTE_BUFFER_ID,
		CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
		CU_POINTER_ATTRIBUTE_RANGE_SIZE,
	};
	unsigned int type = 0;
	/* IS_MANAGED is documented as a bool but the driver writes 4 bytes
	 * (probes/results/ptrattr.txt): a bool here would lose its neighbour. */
	unsigned int managed = 0;
	int ordinal = 0;
	unsigned long long id = 0;
	CUdeviceptr start = 0;
	size_t size = 0;
	void *data[] = { &type, &managed, &ordinal, &id, &start, &size };

	CHECK(cuemuSetLabel(p, kind));
	CHECK(cuPointerGetAttributes(6, at, data, p + 16));
	printf("%-10s %#14llx  type=%-6s managed=%d device=%-2d id=%-6llu "
	       "range=%#llx+%zu\n", kind, (unsigned long long)p,
	       type == CU_MEMORYTYPE_DEVICE ? "device" :
	       type == CU_MEMORYTYPE_HOST ? "host" : "none", managed, ordinal,
	       id, (unsigned long long)start, size);
}

int main(int argc, char **argv)
{
	static char user[1 << 16] __attribute__((aligned(4096)));
	CUdeviceptr dev, man;
	CUcontext ctx;
	void *pinned;

	CHECK(cuInit(0));
	CHECK(cuDevicePrimaryCtxRetain(&ctx, 0));
	CHECK(cuCtxSetCurrent(ctx));
	CHECK(cuMemAlloc(&dev, 1 << 20));
	CHECK(cuMemHostAlloc(&pinned, 1 << 16, CU_MEMHOSTALLOC_PORTABLE));
	CHECK(cuMemHostRegister(user, sizeof user, 0));
	CHECK(cuMemAllocManaged(&man, 2 << 20, CU_MEM_ATTACH_GLOBAL));

	show("device", dev);
	show("pinned", (CUdeviceptr)pinned);
	show("registered", (CUdeviceptr)user);
	show("managed", man);
	if (argc > 1 && strcmp(argv[1], "-w") == 0) {
		printf("pid %d: see /cu/allocations; Enter to exit\n",
		       (int)getpid());
		fflush(stdout);
		getchar();
	}
	CHECK(cuMemFree(man));
	CHECK(cuMemHostUnregister(user));
	CHECK(cuMemFreeHost(pinned));
	CHECK(cuMemFree(dev));
	return 0;
}
