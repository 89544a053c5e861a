/*
 * mem_registered.c - registered host memory: a buffer the program already
 * has, made visible to the devices with cuMemHostRegister, and the errors
 * for registering it twice and unregistering from its middle.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cuda.h"

#define CHECK(x) do { CUresult r_ = (x); if (r_) { \
	fprintf(stderr, "%s: error %d\n", #x, (int)r_); exit(1); } } while (0)

static const char *name(CUresult r)
{
	const char *s = "?";

	cuGetErrorName(r, &s);
	return s;
}

int main(void)
{
	size_t n = 1 << 20;
	char *buf = aligned_alloc(4096, n);
	CUdeviceptr dp;
	CUcontext ctx;

	CHECK(cuInit(0));
	CHECK(cuDevicePrimaryCtxRetain(&ctx, 0));
	CHECK(cuCtxSetCurrent(ctx));
	CHECK(cuMemHostRegister(buf, n, CU_MEMHOSTREGISTER_PORTABLE));
	CHECK(cuMemHostGetDevicePointer(&dp, buf, 0));
	printf("registered %p; the devices see it at %#llx\n", (void *)buf,
	       (unsigned long long)dp);
	printf("register again: %s\n", name(cuMemHostRegister(buf, n, 0)));
	printf("unregister from the middle: %s\n",
	       name(cuMemHostUnregister(buf + 4096)));
	CHECK(cuMemHostUnregister(buf));
	printf("unregister again: %s\n", name(cuMemHostUnregister(buf)));
	free(buf);
	return 0;
}
