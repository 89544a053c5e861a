/*
 * kernel_launch.c - bench/kernel-launch: the wall time of one launch of a
 * kernel of our own (tests/unit/kernels/pages.ptx), for bench/kernels.sh,
 * which runs it with and without the process's state published and cufs
 * mounted: what counting kernels for /cu costs a launch.
 *
 *   kernel-launch resident MIB COUNT   read_all over MIB MiB already on
 *                                      the GPU: the launch and its pages
 *   kernel-launch faulting MIB COUNT   touch_all over MIB MiB sent back to
 *                                      the CPU before each launch (the
 *                                      prefetch is timed apart): a fault
 *                                      a page
 *
 * Prints the median microseconds a launch took (to its synchronization).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda.h"
#include "../tests/unit/kernel_file.h"

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	unsigned long long n;
	int count, faulting;
	CUdeviceptr p, out;
	CUcontext ctx;
	CUmodule mod;
	CUfunction f;
	double *t;
	CUmemLocation gpu = { CU_MEM_LOCATION_TYPE_DEVICE, 0 },
		      cpu = { CU_MEM_LOCATION_TYPE_HOST, 0 };

	if (argc != 4 || (strcmp(argv[1], "resident") &&
			  strcmp(argv[1], "faulting"))) {
		fprintf(stderr, "usage: kernel-launch resident|faulting MIB "
			"COUNT\n");
		return 2;
	}
	faulting = !strcmp(argv[1], "faulting");
	n = strtoull(argv[2], NULL, 10) << 20;
	count = atoi(argv[3]);
	if (!n || count < 1 || !(t = calloc((size_t)count, sizeof *t)))
		return 2;
	if (cuInit(0) || cuDevicePrimaryCtxRetain(&ctx, 0) ||
	    cuCtxSetCurrent(ctx) ||
	    cuModuleLoadData(&mod, kernel_file("pages.ptx", NULL)) ||
	    cuModuleGetFunction(&f, mod, faulting ? "touch_all" : "read_all") ||
	    cuMemAllocManaged(&p, n, CU_MEM_ATTACH_GLOBAL) ||
	    cuMemAlloc(&out, sizeof(int)) ||
	    cuMemPrefetchAsync(p, n, gpu, 0, NULL)) {
		fprintf(stderr, "kernel-launch: cannot set up\n");
		return 1;
	}
	for (int i = 0; i < count; i++) {
		unsigned int pages = (unsigned int)(n / 4096);
		void *args[] = { &p, &n, &out };
		double t0;

		if (faulting && (cuMemPrefetchAsync(p, n, cpu, 0, NULL) ||
				 cuCtxSynchronize()))
			return 1;
		t0 = now_us();
		if (cuLaunchKernel(f, (pages + 127) / 128, 1, 1, 128, 1, 1, 0,
				   NULL, args, NULL) || cuCtxSynchronize())
			return 1;
		t[i] = now_us() - t0;
	}
	qsort(t, (size_t)count, sizeof *t, cmp);
	printf("%.1f\n", t[count / 2]);
	return 0;
}
