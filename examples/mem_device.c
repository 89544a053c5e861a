/*
 * mem_device.c - device memory: cuMemAlloc, a round trip through it, and
 * what it costs the device in cuMemGetInfo (which every process on the
 * machine sees).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"

#define CHECK(x) do { CUresult r_ = (x); if (r_) { \
	fprintf(stderr, "%s: error %d\n", #x, (int)r_); exit(1); } } while (0)

int main(void)
{
	size_t free0, free1, total, n = 64 << 20;
	char *host = malloc(n), *back = malloc(n);
	CUdeviceptr d;
	CUcontext ctx;

	CHECK(cuInit(0));
	CHECK(cuDevicePrimaryCtxRetain(&ctx, 0));
	CHECK(cuCtxSetCurrent(ctx));
	CHECK(cuMemGetInfo(&free0, &total));
	CHECK(cuMemAlloc(&d, n));
	CHECK(cuMemGetInfo(&free1, &total));
	memset(host, 0x42, n);
	CHECK(cuMemcpyHtoD(d, host, n));
	CHECK(cuMemcpyDtoH(back, d, n));
	printf("gpu0: %zu MiB of %zu MiB free; a 64 MiB allocation took %zu MiB;"
	       " round trip %s\n", free1 >> 20, total >> 20,
	       (free0 - free1) >> 20, memcmp(host, back, n) ? "BAD" : "ok");
	CHECK(cuMemFree(d));
	free(host);
	free(back);
	return 0;
}
