/*
 * test_launch_threads.c - a launch's blocks on several host threads
 * (CUEMU_KERNEL_THREADS): saxpy over managed memory the host wrote, run in
 * a process whose kernels use one host thread and in one whose kernels use
 * two, computes the same values and takes the same GPU faults, read back
 * in /cu. A worker thread's touch of a page the device does not hold is
 * the device's fault, served as the stream thread's are (before, such a
 * touch waited for the running kernel to end: the launch never did). A
 * value that is no count leaves the default, the process's CPUs.
 *
 * Each run is a child process, since cuInit reads the variable once; a
 * child that does not finish in 120 s is killed and its run fails.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <jansson.h>
#include "cuda.h"
#include "tap.h"
#include "ctl_alloc.h"
#include "kernel_file.h"
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

enum { N = 1 << 20 };   /* 4 MiB of floats each for x and y */

/* What a child reports. */
struct outcome {
	int rc;                       /* 0: every call succeeded */
	CUresult init;                /* what cuInit answered */
	int bad;                      /* elements of y not 2x + 1 */
	long long faults_x, faults_y; /* /cu's counters.gpu_faults */
};

/* The child's run: saxpy over managed memory the host wrote. */
static struct outcome saxpy_run(void)
{
	struct outcome o = { .rc = -1 };
	char *ptx = kernel_file("basic.ptx", NULL);
	CUdeviceptr x = 0, y = 0;
	CUcontext c;
	CUmodule m;
	CUfunction f;
	float a = 2;
	int n = N;
	void *args[] = { &n, &a, &x, &y };

	if ((o.init = cuInit(0)) || cuDevicePrimaryCtxRetain(&c, 0) ||
	    cuCtxSetCurrent(c) || cuModuleLoadData(&m, ptx) ||
	    cuModuleGetFunction(&f, m, "saxpy") ||
	    cuMemAllocManaged(&x, N * 4, CU_MEM_ATTACH_GLOBAL) ||
	    cuMemAllocManaged(&y, N * 4, CU_MEM_ATTACH_GLOBAL) ||
	    ctl_open() < 0)
		goto out;
	for (int i = 0; i < N; i++) {
		((float *)(uintptr_t)x)[i] = (float)i;
		((float *)(uintptr_t)y)[i] = 1;
	}
	if (cuLaunchKernel(f, N / 256, 1, 1, 256, 1, 1, 0, NULL, args, NULL) ||
	    cuCtxSynchronize())
		goto out;
	o.faults_x = cu_int(x, "counters", "gpu_faults");
	o.faults_y = cu_int(y, "counters", "gpu_faults");
	o.bad = 0;
	for (int i = 0; i < N; i++)
		o.bad += ((float *)(uintptr_t)y)[i] != 2.0f * (float)i + 1.0f;
	o.rc = 0;
out:
	if (ctl_fd >= 0)
		close(ctl_fd);
	cuMemFree(x);
	cuMemFree(y);
	free(ptx);
	return o;
}

/* Runs saxpy_run in a child with CUEMU_KERNEL_THREADS=threads (NULL:
 * unset); false where the child failed or ran out of time. */
static bool run_child(const char *threads, struct outcome *o)
{
	int fd[2], st;
	pid_t pid;
	ssize_t got;

	memset(o, 0, sizeof *o);
	fflush(stdout);
	if (pipe(fd) < 0 || (pid = fork()) < 0)
		return false;
	if (pid == 0) {
		struct outcome r;

		close(fd[0]);
		alarm(120);
		if (threads)
			setenv("CUEMU_KERNEL_THREADS", threads, 1);
		else
			unsetenv("CUEMU_KERNEL_THREADS");
		r = saxpy_run();
		_exit(write(fd[1], &r, sizeof r) == sizeof r ? 0 : 1);
	}
	close(fd[1]);
	got = read(fd[0], o, sizeof *o);
	close(fd[0]);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		printf("# the child (CUEMU_KERNEL_THREADS=%s) ended with "
		       "status 0x%x\n", threads ? threads : "unset", st);
		return false;
	}
	return got == sizeof *o && o->rc == 0;
}

int main(void)
{
	struct outcome one, two, odd;
	bool ran;

	if (RUNNING_ON_VALGRIND || getenv("CUEMU_NO_FAULTS")) {
		printf("ok %d - launches on host threads # SKIP real faults "
		       "are off\n", ++tap_n);
		return done_testing();
	}
	if (ok(run_child("1", &one), "saxpy over managed memory on one host "
	       "thread runs")) {
		is_int(one.bad, 0, "one thread: y = 2x + 1 everywhere");
		ok(one.faults_x > 0 && one.faults_y > 0,
		   "one thread: the device faulted on x (%lld) and y (%lld)",
		   one.faults_x, one.faults_y);
	}
	if (ok(run_child("2", &two), "the same on two host threads runs: "
	       "the workers' faults are the device's")) {
		is_int(two.bad, 0, "two threads: y = 2x + 1 everywhere");
		is_int(two.faults_x, one.faults_x,
		       "two threads: x's GPU faults are one thread's");
		is_int(two.faults_y, one.faults_y,
		       "two threads: y's GPU faults are one thread's");
	}
	ran = run_child("two", &odd);
	ok(!ran && odd.init == CUDA_ERROR_INVALID_VALUE,
	   "CUEMU_KERNEL_THREADS=two (no count): cuInit answers "
	   "CUDA_ERROR_INVALID_VALUE (%d), as for any CUEMU_ variable's value "
	   "it does not take", (int)odd.init);
	ran = run_child("65", &odd);
	ok(!ran && odd.init == CUDA_ERROR_INVALID_VALUE,
	   "CUEMU_KERNEL_THREADS=65, past 64: refused too (%d)",
	   (int)odd.init);
	return done_testing();
}
