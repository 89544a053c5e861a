/*
 * test_cpuwait.c - a CPU thread touching managed memory while kernels the
 * engine runs are in flight (DESIGN.md, "A CPU touch while kernels run";
 * libcuemu(3)): a program that launches kernels and reads their results
 * without synchronizing reads them finished, as it does on the GPU, where
 * the kernels have long ended by then; a kernel that polls a flag the CPU
 * writes still sees the write and ends, however long the CPU's touch
 * waited for it; and a touch waits only for the kernels launched before
 * it, not for those another thread keeps launching. Kernels of
 * tests/unit/kernels/cpuwait.cu.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "tap.h"
#include "kernel_file.h"

static CUmodule mod;
static CUstream st;
static CUcontext ctx;

static CUfunction fn(const char *name)
{
	return kernel_fn(mod, name);
}

/* A wait that never ends would hang the test: fail it instead. */
static void on_alarm(int sig)
{
	static const char msg[] = "not ok - a wait never ended (60 s)\n";

	(void)sig;
	if (write(1, msg, sizeof msg - 1) < 0)
		_exit(2);
	_exit(1);
}

/* Whether the host has memory protection keys (x86 pku, pkeys(7)), with
 * which libcuemu keeps the pages a running kernel opened from other
 * threads; without them a CPU thread's read of such a page does not fault,
 * and sees the kernel's work as far as it has got (libcuemu(3)). */
static bool host_has_pkeys(void)
{
	int k = pkey_alloc(0, 0);

	if (k < 0)
		return false;
	pkey_free(k);
	return true;
}

/* Results read without a synchronize: eight launches adding one to each of
 * 64 pages of ints that start on the GPU, queued on a stream; the CPU
 * reads every int right after the last launch returns. Where the host has
 * no protection keys, a read of a page the first kernel already opened
 * overlaps it (a race the test lost one run in five under ASan): only the
 * results after the synchronize are asserted there. */
static void test_results(void)
{
	enum { N = 1 << 16, LAUNCHES = 8 };
	CUmemLocation gpu = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
	CUfunction f = fn("bump");
	CUdeviceptr y;
	int n = N, early = 0, i, *p;
	void *args[] = { &n, &y };

	if (!ok(cuMemAllocManaged(&y, N * sizeof(int), CU_MEM_ATTACH_GLOBAL) ==
		CUDA_SUCCESS, "results: a managed buffer of 64 pages"))
		return;
	p = (int *)(uintptr_t)y;
	memset(p, 0, N * sizeof(int));
	is_res(cuMemPrefetchAsync(y, N * sizeof(int), gpu, 0, st),
	       CUDA_SUCCESS, "results: on the GPU before the launches");
	cuStreamSynchronize(st);
	for (i = 0; i < LAUNCHES; i++)
		if (cuLaunchKernel(f, N / 256, 1, 1, 256, 1, 1, 0, st, args,
				   NULL) != CUDA_SUCCESS)
			break;
	is_int(i, LAUNCHES, "results: %d launches queued", LAUNCHES);
	for (i = 0; i < N; i++)
		early += p[i] != LAUNCHES;
	if (host_has_pkeys())
		is_int(early, 0, "results: read without a synchronize, every "
		       "int is the last launch's (p[0] %d, p[N-1] %d)", p[0],
		       p[N - 1]);
	else
		ok(1, "# SKIP results read without a synchronize: this host has "
		   "no memory protection keys, so the read may overlap the "
		   "first kernel");
	is_res(cuStreamSynchronize(st), CUDA_SUCCESS,
	       "results: the stream then has nothing left");
	for (early = 0, i = 0; i < N; i++)
		early += p[i] != LAUNCHES;
	is_int(early, 0, "results: and the ints stay so");
	cuMemFree(y);
}

/* A kernel polling a flag the CPU sets: the CPU's write to the flag's
 * page, closed to it while the kernel runs, waits for the kernel, which
 * waits for the write; the wait runs out and the write goes through. */
static void test_flag(void)
{
	CUmemLocation gpu = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
	CUfunction f = fn("wait_flag");
	CUdeviceptr flag, seen;
	volatile int *fp;
	void *args[] = { &flag, &seen };

	if (!ok(cuMemAllocManaged(&flag, 4, CU_MEM_ATTACH_GLOBAL) ==
		CUDA_SUCCESS &&
		cuMemAllocManaged(&seen, 4, CU_MEM_ATTACH_GLOBAL) ==
		CUDA_SUCCESS, "flag: a flag and a result, managed"))
		return;
	fp = (volatile int *)(uintptr_t)flag;
	*fp = 0;
	*(int *)(uintptr_t)seen = 0;
	cuMemPrefetchAsync(flag, 4, gpu, 0, st);
	cuMemPrefetchAsync(seen, 4, gpu, 0, st);
	cuStreamSynchronize(st);
	is_res(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, st, args, NULL),
	       CUDA_SUCCESS, "flag: the polling kernel launches");
	signal(SIGALRM, on_alarm);
	alarm(60);
	*fp = 7;
	is_res(cuStreamSynchronize(st), CUDA_SUCCESS,
	       "flag: the kernel ends once the CPU writes the flag");
	alarm(0);
	is_int(*(int *)(uintptr_t)seen, 7, "flag: it read the CPU's write");
	is_int(*fp, 7, "flag: the CPU reads its own write back");
	cuMemFree(flag);
	cuMemFree(seen);
}

/* A thread that keeps up to DEPTH launches in flight on a stream of its
 * own until told to stop. */
#define DEPTH 8
struct launcher {
	CUstream s;
	CUdeviceptr y;
	volatile int stop, launched;
	int failed;
};

static void *launch_on(void *arg)
{
	struct launcher *l = arg;
	CUfunction f = fn("bump");
	CUevent ev[DEPTH + 1];
	int n = 1 << 16, i;
	void *args[] = { &n, &l->y };

	cuCtxSetCurrent(ctx);
	for (i = 0; i <= DEPTH; i++)
		cuEventCreate(&ev[i], CU_EVENT_DISABLE_TIMING);
	for (i = 0; !l->stop; i++) {
		if (i >= DEPTH)
			cuEventSynchronize(ev[(i - DEPTH) % (DEPTH + 1)]);
		if (cuLaunchKernel(f, n / 256, 1, 1, 256, 1, 1, 0, l->s, args,
				   NULL) != CUDA_SUCCESS ||
		    cuEventRecord(ev[i % (DEPTH + 1)], l->s) != CUDA_SUCCESS) {
			l->failed = 1;
			break;
		}
		l->launched = i + 1;
	}
	cuStreamSynchronize(l->s);
	for (i = 0; i <= DEPTH; i++)
		cuEventDestroy(ev[i]);
	return NULL;
}

/* A CPU touch while another thread keeps launching: it waits for the
 * kernels launched before it, then goes on, though kernels stay in flight
 * all the while. */
static void test_launching(void)
{
	CUmemLocation gpu = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
	struct launcher l = { 0 };
	CUdeviceptr p;
	pthread_t t;
	int v;

	if (!ok(cuMemAllocManaged(&l.y, (1 << 16) * sizeof(int),
				  CU_MEM_ATTACH_GLOBAL) == CUDA_SUCCESS &&
		cuMemAllocManaged(&p, 4, CU_MEM_ATTACH_GLOBAL) ==
		CUDA_SUCCESS &&
		cuStreamCreate(&l.s, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS,
		"launching: two buffers and a stream"))
		return;
	*(int *)(uintptr_t)p = 5;
	cuMemPrefetchAsync(p, 4, gpu, 0, st);
	cuStreamSynchronize(st);
	if (!ok(pthread_create(&t, NULL, launch_on, &l) == 0,
		"launching: a thread launches without end"))
		return;
	while (l.launched < DEPTH && !l.failed)
		usleep(1000);
	signal(SIGALRM, on_alarm);
	alarm(60);
	v = *(volatile int *)(uintptr_t)p;
	alarm(0);
	l.stop = 1;
	pthread_join(t, NULL);
	is_int(v, 5, "launching: the CPU's read of a page on the GPU returns "
	       "while kernels stay in flight (%d launched by then)",
	       l.launched);
	is_int(l.failed, 0, "launching: every launch and record succeeded");
	cuStreamDestroy(l.s);
	cuMemFree(l.y);
	cuMemFree(p);
}

int main(void)
{
	char *ptx = kernel_file("cpuwait.ptx", NULL);
	CUdevice dev;

	cuInit(0);
	cuDeviceGet(&dev, 0);
	cuDevicePrimaryCtxRetain(&ctx, dev);
	cuCtxSetCurrent(ctx);
	if (!ptx || cuModuleLoadData(&mod, ptx) != CUDA_SUCCESS ||
	    cuStreamCreate(&st, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS) {
		printf("Bail out! cpuwait.ptx does not load\n");
		return 1;
	}
	test_results();
	test_flag();
	test_launching();
	cuStreamDestroy(st);
	cuModuleUnload(mod);
	cuDevicePrimaryCtxRelease(dev);
	free(ptx);
	return done_testing();
}
