/*
 * join_prog.c - one process of a machine, for the tests of who may join
 * (tests/bats/users.bats): join-machine [MIB [hold]] joins the machine,
 * allocates MIB MiB on device 0, prints the device's use, and with "hold"
 * keeps its memory until its stdin closes. Prints what cuInit answered
 * when it cannot join; libcuemu says why on stderr. Its context's stacks
 * hold no memory (a stack size of 0), so the use is its allocations'.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>

int main(int argc, char **argv)
{
	unsigned long mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 0;
	bool hold = argc > 2 && strcmp(argv[2], "hold") == 0;
	size_t free_b = 0, total = 0;
	const char *name = "?";
	CUdeviceptr p;
	CUcontext c;
	CUresult r;

	if ((r = cuInit(0)) != CUDA_SUCCESS) {
		cuGetErrorName(r, &name);
		printf("cuInit: %s\n", name);
		return 1;
	}
	if (cuDevicePrimaryCtxRetain(&c, 0) != CUDA_SUCCESS ||
	    cuCtxSetCurrent(c) != CUDA_SUCCESS ||
	    cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 0) != CUDA_SUCCESS)
		return 2;
	if (mib && (r = cuMemAlloc(&p, mib << 20)) != CUDA_SUCCESS) {
		cuGetErrorName(r, &name);
		printf("cuMemAlloc: %s\n", name);
		return 3;
	}
	if (cuMemGetInfo(&free_b, &total) != CUDA_SUCCESS)
		return 4;
	printf("used %zu\n", total - free_b);
	fflush(stdout);
	if (hold)
		while (getchar() != EOF)
			;
	return 0;
}
