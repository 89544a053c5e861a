/*
 * mem_pinned.c - pinned host memory: cuMemHostAlloc with each flag, the
 * flags it reads back with, and an asynchronous copy from it, which only
 * pinned memory allows to overlap with the host.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"
#include "cuemu.h"

#define CHECK(x) do { CUresult r_ = (x); if (r_) { \
	fprintf(stderr, "%s: error %d\n", #x, (int)r_); exit(1); } } while (0)

int main(void)
{
	static const unsigned flags[] = { 0, CU_MEMHOSTALLOC_PORTABLE,
		CU_MEMHOSTALLOC_DEVICEMAP, CU_MEMHOSTALLOC_WRITECOMBINED };
	unsigned long long t0, t1;
	unsigned got;
	CUcontext ctx;
	CUdeviceptr d;
	CUstream s;
	void *p;

	CHECK(cuInit(0));
	CHECK(cuDevicePrimaryCtxRetain(&ctx, 0));
	CHECK(cuCtxSetCurrent(ctx));
	for (size_t i = 0; i < sizeof flags / sizeof *flags; i++) {
		CHECK(cuMemHostAlloc(&p, 1 << 16, flags[i]));
		CHECK(cuMemHostGetFlags(&got, p));
		printf("cuMemHostAlloc flags %#x -> cuMemHostGetFlags %#x\n",
		       flags[i], got);
		CHECK(cuMemFreeHost(p));
	}
	CHECK(cuMemAllocHost(&p, 256 << 20));
	CHECK(cuMemAlloc(&d, 256 << 20));
	CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	memset(p, 1, 256 << 20);
	CHECK(cuemuStreamGetTime(s, &t0));
	CHECK(cuMemcpyHtoDAsync(d, p, 256 << 20, s));
	CHECK(cuStreamSynchronize(s));
	CHECK(cuemuStreamGetTime(s, &t1));
	printf("256 MiB pinned -> gpu0: %.3f ms of model time\n",
	       (double)(t1 - t0) / 1e6);
	CHECK(cuStreamDestroy(s));
	CHECK(cuMemFree(d));
	CHECK(cuMemFreeHost(p));
	return 0;
}
