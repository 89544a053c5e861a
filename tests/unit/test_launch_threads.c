/*
 * test_launch_threads.c - a launch's blocks on several host threads
 * (CUEMU_KERNEL_THREADS): saxpy over managed memory the host wrote, run in
 * a process whose kernels use one host thread and in one whose kernels use
 * two, computes the same values and takes the same GPU faults, read back
 * in /cu. A worker thread's touch of a page the device does not hold is
 * the device's fault, served as the stream thread's are (before, such a
 * touch waited for the running kernel to end: the launch never did). The
 * launch threads a value asks for stay with the process after the launch
 * (the engine's pool), the same threads launch after launch. Four program
 * threads launch on streams of their own at once; a process exits with
 * launches queued. A value that is no count is refused at cuInit.
 *
 * Each run is a child process, since cuInit reads the variable once; a
 * child that does not finish in 120 s is killed and its run fails.
 */
#include <dirent.h>
#include <pthread.h>
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
	int tasks, tasks_later;       /* the process's threads after the
				       * launch, and after ten more */
};

/* The threads of this process, as /proc lists them. */
static int tasks(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

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
	o.tasks = tasks();
	a = 0;   /* y stays 2x + 1 */
	for (int k = 0; k < 10; k++)
		if (cuLaunchKernel(f, N / 256, 1, 1, 256, 1, 1, 0, NULL, args,
				   NULL) || cuCtxSynchronize())
			goto out;
	o.tasks_later = tasks();
	a = 2;
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

/* Four program threads, each with a stream of its own, launch at once:
 * y += x 25 times over 64 blocks each, on device memory of their own. */
struct launcher {
	CUcontext c;
	CUfunction f;
	pthread_t t;
	int bad;
	CUresult r;
};

static void *launcher(void *arg)
{
	struct launcher *L = arg;
	enum { M = 64 * 256 };
	static __thread float h[M];
	CUdeviceptr x = 0, y = 0;
	CUstream s = NULL;
	float a = 1;
	int n = M;
	void *args[] = { &n, &a, &x, &y };

	for (int i = 0; i < M; i++)
		h[i] = (float)i;
	if (!(L->r = cuCtxSetCurrent(L->c)) &&
	    !(L->r = cuStreamCreate(&s, CU_STREAM_NON_BLOCKING)) &&
	    !(L->r = cuMemAlloc(&x, M * 4)) && !(L->r = cuMemAlloc(&y, M * 4)) &&
	    !(L->r = cuMemcpyHtoD(x, h, M * 4)) &&
	    !(L->r = cuMemsetD32(y, 0, M)))
		for (int k = 0; k < 25 && !L->r; k++)
			L->r = cuLaunchKernel(L->f, M / 256, 1, 1, 256, 1, 1, 0,
					      s, args, NULL);
	if (!L->r && !(L->r = cuStreamSynchronize(s)) &&
	    !(L->r = cuMemcpyDtoH(h, y, M * 4)))
		for (int i = 0; i < M; i++)
			L->bad += h[i] != 25.0f * (float)i;
	cuMemFree(x);
	cuMemFree(y);
	if (s)
		cuStreamDestroy(s);
	return NULL;
}

static struct outcome streams_run(void)
{
	struct outcome o = { .rc = -1 };
	char *ptx = kernel_file("basic.ptx", NULL);
	struct launcher L[4];
	CUcontext c;
	CUmodule m;
	CUfunction f;
	int started = 0;

	memset(L, 0, sizeof L);
	if ((o.init = cuInit(0)) || cuDevicePrimaryCtxRetain(&c, 0) ||
	    cuCtxSetCurrent(c) || cuModuleLoadData(&m, ptx) ||
	    cuModuleGetFunction(&f, m, "saxpy")) {
		free(ptx);
		return o;
	}
	for (int i = 0; i < 4; i++) {
		L[i].c = c;
		L[i].f = f;
		started += !pthread_create(&L[i].t, NULL, launcher, &L[i]);
	}
	o.bad = 0;
	for (int i = 0; i < started; i++) {
		pthread_join(L[i].t, NULL);
		o.bad += L[i].bad + (L[i].r != CUDA_SUCCESS);
	}
	o.rc = started == 4 ? 0 : -1;
	cuModuleUnload(m);
	free(ptx);
	return o;
}

/* Launches queued on four streams, and the process exits without
 * waiting for them: what its threads do then must not crash it. */
static struct outcome exit_run(void)
{
	struct outcome o = { .rc = -1 };
	char *ptx = kernel_file("basic.ptx", NULL);
	CUdeviceptr x = 0, y = 0;
	CUstream s[4];
	CUcontext c;
	CUmodule m;
	CUfunction f;
	float a = 1;
	int n = N;
	void *args[] = { &n, &a, &x, &y };

	if ((o.init = cuInit(0)) || cuDevicePrimaryCtxRetain(&c, 0) ||
	    cuCtxSetCurrent(c) || cuModuleLoadData(&m, ptx) ||
	    cuModuleGetFunction(&f, m, "saxpy") ||
	    cuMemAlloc(&x, N * 4) || cuMemAlloc(&y, N * 4))
		return o;
	for (int i = 0; i < 4; i++)
		if (cuStreamCreate(&s[i], CU_STREAM_NON_BLOCKING))
			return o;
	for (int k = 0; k < 20; k++)
		for (int i = 0; i < 4; i++)
			if (cuLaunchKernel(f, N / 256, 1, 1, 256, 1, 1, 0, s[i],
					   args, NULL))
				return o;
	free(ptx);
	o.rc = 0;
	return o;   /* the child writes it and exits, launches queued */
}

/* Runs fn in a child with CUEMU_KERNEL_THREADS=threads (NULL: unset);
 * false where the child failed or ran out of time. */
static bool run_child_fn(const char *threads, struct outcome (*fn)(void),
			 struct outcome *o)
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
		r = fn();
		/* exit, not _exit: the library's exit handlers run while
		 * exit_run's launches are still queued */
		exit(write(fd[1], &r, sizeof r) == sizeof r ? 0 : 1);
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

static bool run_child(const char *threads, struct outcome *o)
{
	return run_child_fn(threads, saxpy_run, o);
}

int main(void)
{
	struct outcome one, two, four, odd, many, gone;
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
	if (ok(run_child("4", &four), "the same on four host threads runs")) {
		is_int(four.bad, 0, "four threads: y = 2x + 1 everywhere");
		ok(two.tasks == one.tasks + 1 && four.tasks == one.tasks + 3,
		   "after a launch the process keeps 1 launch thread with "
		   "CUEMU_KERNEL_THREADS=2 and 3 with 4 (threads %d, %d, %d)",
		   one.tasks, two.tasks, four.tasks);
		ok(one.tasks_later == one.tasks &&
		   two.tasks_later == two.tasks &&
		   four.tasks_later == four.tasks,
		   "ten launches later they are the same threads, no more "
		   "(%d, %d, %d)", one.tasks_later, two.tasks_later,
		   four.tasks_later);
	}
	ok(run_child_fn("4", streams_run, &many) && many.bad == 0,
	   "four program threads launching 25 times each on streams of "
	   "their own at once compute y += x 25 times (%d wrong or failed)",
	   many.bad);
	ok(run_child_fn("4", exit_run, &gone),
	   "a process exits with 80 launches queued on four streams, its "
	   "launch threads busy, and exits cleanly");
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
