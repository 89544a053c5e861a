/*
 * alloc-many.c - a process with many live allocations for bench/fsbench.sh
 * to look at through cufs. Through the public driver API only: cuInit, the
 * primary context of device 0, N device allocations of 4 KiB and M managed
 * allocations of 64 KiB. The first allocation is labelled "fsbench-first"
 * so that the bench can find it. Then it prints "ready" and sleeps until
 * a signal ends it.
 *
 *     alloc-many N [M]
 *
 * Locking: none of its own (one thread; the library locks for itself).
 */
#include <cuda.h>
#include <cuemu.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int check(CUresult r, const char *what)
{
	const char *name = NULL;

	if (r == CUDA_SUCCESS)
		return 0;
	cuGetErrorName(r, &name);
	fprintf(stderr, "alloc-many: %s: %s\n", what, name ? name : "?");
	return 1;
}

static int alloc_all(unsigned long n, unsigned long m)
{
	CUdeviceptr p;

	for (unsigned long i = 0; i < n; i++) {
		if (check(cuMemAlloc(&p, 4096), "cuMemAlloc"))
			return 1;
		if (i == 0 && check(cuemuSetLabel(p, "fsbench-first"),
		                    "cuemuSetLabel"))
			return 1;
	}
	for (unsigned long i = 0; i < m; i++)
		if (check(cuMemAllocManaged(&p, 65536, CU_MEM_ATTACH_GLOBAL),
		          "cuMemAllocManaged"))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long n, m = 0;
	CUdevice dev;
	CUcontext ctx;
	sigset_t set;
	int sig;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: alloc-many N [M]\n");
		return 2;
	}
	n = strtoul(argv[1], NULL, 10);
	if (argc == 3)
		m = strtoul(argv[2], NULL, 10);
	/* Blocked before cuInit so that the library's threads inherit the
	 * mask and the signal waits for sigwait below. */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	if (check(cuInit(0), "cuInit") ||
	    check(cuDeviceGet(&dev, 0), "cuDeviceGet") ||
	    check(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain") ||
	    check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent") ||
	    alloc_all(n, m))
		return 1;
	printf("ready\n");
	fflush(stdout);
	/* The allocations stay live, and the library's threads keep
	 * serving the control socket, until an ending signal arrives. */
	sigwait(&set, &sig);
	return 0;
}
