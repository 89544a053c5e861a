/*
 * mem_managed.c - managed memory: one pointer for host and devices. The
 * host writes it, a copy engine of gpu0 reads it, and the host reads the
 * result back, with no cuMemcpyHtoD of the program's own.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cuda.h"

#define CHECK(x) do { CUresult r_ = (x); if (r_) { \
	fprintf(stderr, "%s: error %d\n", #x, (int)r_); exit(1); } } while (0)

int main(void)
{
	size_t n = 4 << 20;
	CUdeviceptr m, d;
	CUcontext ctx;
	int *v;

	CHECK(cuInit(0));
	CHECK(cuDevicePrimaryCtxRetain(&ctx, 0));
	CHECK(cuCtxSetCurrent(ctx));
	CHECK(cuMemAllocManaged(&m, n, CU_MEM_ATTACH_GLOBAL));
	CHECK(cuMemAlloc(&d, n));
	v = (int *)m;
	for (size_t i = 0; i < n / sizeof *v; i++)
		v[i] = (int)i;
	CHECK(cuMemcpyDtoD(d, m, n));
	CHECK(cuMemsetD32(m, 0, n / sizeof *v));
	CHECK(cuMemcpyDtoD(m, d, n));
	printf("managed round trip through gpu0: v[12345] = %d\n", v[12345]);
	CHECK(cuMemFree(d));
	CHECK(cuMemFree(m));
	return 0;
}
