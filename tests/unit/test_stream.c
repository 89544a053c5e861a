/*
 * test_stream.c - streams and events: order within a stream, order across
 * streams through events, the legacy default stream against blocking and
 * non-blocking streams, per-thread streams, callbacks and host functions,
 * queries while work is pending, elapsed model time of a copy, destroyed
 * handles, the runtime API's stream and event calls, and where work runs:
 * model work on an idle stream in the calling thread, behind anything
 * queued or running, host functions always on the worker. (Work in a
 * forked child is unsupported, as libcuemu(3) says, and so not specified
 * here, except that a stream is not left stuck by work another thread was
 * running; how long CUEMU_TIME_SCALE sleeps is a timing, for bench/.)
 *
 * Work is held back by host functions that wait on a semaphore, so "not
 * yet" is observed for certain: nothing can run past a gate until the test
 * opens it. Where work on another stream must wait for a gate, the test
 * checks that it has not run once that stream's worker thread sleeps: with
 * work queued, a worker sleeps only when what the work waits for is not
 * done, so it has run all it could. No check sleeps for a while and hopes.
 */
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cuda.h"
#include "cuda_runtime_api.h"
#include "cuemu.h"
#include "tap.h"

/* A gate: host functions wait on it until the test opens it. The last
 * gate reached says so in gate_reached, so that a test knows the worker is
 * held there and not merely slow to start. */
static int gate_reached;

static void gate_wait(void *sem)
{
	__atomic_store_n(&gate_reached, 1, __ATOMIC_RELEASE);
	sem_wait(sem);
}

/* Before enqueuing a gate whose reaching the test awaits. */
static void arm_gate(void)
{
	__atomic_store_n(&gate_reached, 0, __ATOMIC_RELEASE);
}

/* Waits, at most 10 s, until flag is raised: 1, or 0 if it never was. */
static int await_flag(int *flag)
{
	for (int i = 0; i < 1000; i++) {
		if (__atomic_load_n(flag, __ATOMIC_ACQUIRE))
			return 1;
		usleep(10 * 1000);
	}
	return 0;
}

/* A flag a host function raises. */
static void raise_flag(void *flag)
{
	__atomic_store_n((int *)flag, 1, __ATOMIC_RELEASE);
}

static int flag_of(int *flag)
{
	return __atomic_load_n(flag, __ATOMIC_ACQUIRE);
}

/* A host function's mark: that it ran, and the thread it ran on (its
 * stream's worker: each stream runs its work on a thread of its own). */
struct mark {
	int ran;
	pid_t tid;
};

static void mark_thread(void *arg)
{
	struct mark *m = arg;

	m->tid = (pid_t)syscall(SYS_gettid);
	__atomic_store_n(&m->ran, 1, __ATOMIC_RELEASE);
}

/* The state of thread tid of this process, as proc(5) gives it: 'R'
 * running, 'S' asleep, ...; '?' when it cannot be read. */
static char thread_state(pid_t tid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof path, "/proc/self/task/%d/stat", (int)tid);
	if (!(f = fopen(path, "r")))
		return '?';
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* "tid (comm) S ...": the name may hold anything but its last ')'. */
	if (!(p = strrchr(buf, ')')) || p[1] != ' ')
		return '?';
	return p[2];
}

/* Waits, at most 10 s, until the worker thread tid sleeps: then it has
 * run everything it could, and what it has not run waits for something
 * not done. 1, or 0 if it never slept. */
static int await_asleep(pid_t tid)
{
	for (int i = 0; i < 10000; i++) {
		if (thread_state(tid) == 'S')
			return 1;
		usleep(1000);
	}
	return 0;
}

/* Set just before the test opens a gate, so that work can tell whether
 * it ran before or after. */
static int gate_opened;

/* Raises the flag it is given with whether the gate was open: 2 if it
 * was, 1 if not. */
static void note_gate(void *flag)
{
	__atomic_store_n((int *)flag,
			 __atomic_load_n(&gate_opened, __ATOMIC_ACQUIRE) ? 2 : 1,
			 __ATOMIC_RELEASE);
}

static void open_gate(sem_t *gate)
{
	__atomic_store_n(&gate_opened, 1, __ATOMIC_RELEASE);
	sem_post(gate);
}

/* Host functions append their number here, in the order they run. */
static struct {
	int n;
	int seen[256];
} order;

struct step {
	int id;
};

static struct step steps[256];

static void append(void *arg)
{
	order.seen[order.n++] = ((struct step *)arg)->id;
}

static CUstream cb_stream;
static CUresult cb_status = CUDA_ERROR_UNKNOWN;

static void callback(CUstream s, CUresult status, void *arg)
{
	cb_stream = s;
	cb_status = status;
	append(arg);
}

static void creation(void)
{
	CUstream s;
	CUcontext c, cur;
	unsigned int flags = 99;
	int prio = 99;

	is_res(cuStreamCreate(&s, 2), CUDA_ERROR_INVALID_VALUE,
	       "cuStreamCreate flags 2");
	is_res(cuStreamCreate(&s, 7), CUDA_ERROR_INVALID_VALUE,
	       "cuStreamCreate flags 7");
	is_res(cuStreamCreate(NULL, 0), CUDA_ERROR_INVALID_VALUE,
	       "cuStreamCreate(NULL)");
	is_res(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS,
	       "cuStreamCreate NON_BLOCKING");
	is_res(cuStreamGetFlags(s, &flags), CUDA_SUCCESS, "cuStreamGetFlags");
	is_int(flags, CU_STREAM_NON_BLOCKING, "... NON_BLOCKING");
	cuCtxGetCurrent(&cur);
	is_res(cuStreamGetCtx(s, &c), CUDA_SUCCESS, "cuStreamGetCtx");
	ok(c == cur, "... the context it was made in");
	cuStreamDestroy(s);
	is_res(cuStreamCreateWithPriority(&s, 0, -6), CUDA_SUCCESS,
	       "priority -6");
	cuStreamGetPriority(s, &prio);
	is_int(prio, -5, "... clamped to -5");
	cuStreamDestroy(s);
	is_res(cuStreamCreateWithPriority(&s, 0, 1), CUDA_SUCCESS,
	       "priority 1");
	cuStreamGetPriority(s, &prio);
	is_int(prio, 0, "... clamped to 0");
	cuStreamDestroy(s);
	is_res(cuStreamGetPriority(NULL, &prio), CUDA_SUCCESS,
	       "priority of the legacy stream");
	is_int(prio, 0, "... 0");
}

static void in_order(void)
{
	CUstream s;
	int i, sorted = 1;

	cuStreamCreate(&s, 0);
	order.n = 0;
	for (i = 0; i < 200; i++) {
		steps[i].id = i;
		if (i % 3 == 0)
			cuStreamAddCallback(s, callback, &steps[i], 0);
		else
			cuLaunchHostFunc(s, append, &steps[i]);
	}
	is_res(cuStreamSynchronize(s), CUDA_SUCCESS, "cuStreamSynchronize");
	is_int(order.n, 200, "200 host functions and callbacks ran");
	for (i = 0; i < order.n; i++)
		sorted &= order.seen[i] == i;
	ok(sorted, "... in the order they were enqueued");
	ok(cb_stream == s && cb_status == CUDA_SUCCESS,
	   "a callback gets its stream and CUDA_SUCCESS");
	is_res(cuStreamAddCallback(s, callback, NULL, 1),
	       CUDA_ERROR_INVALID_VALUE, "cuStreamAddCallback flags 1");
	is_res(cuStreamAddCallback(s, NULL, NULL, 0), CUDA_ERROR_INVALID_VALUE,
	       "cuStreamAddCallback(NULL)");
	is_res(cuLaunchHostFunc(s, NULL, NULL), CUDA_ERROR_INVALID_VALUE,
	       "cuLaunchHostFunc(NULL)");
	cuStreamDestroy(s);
}

static void query_while_busy(void)
{
	CUstream s;
	sem_t gate;
	int flag = 0;

	sem_init(&gate, 0, 0);
	cuStreamCreate(&s, 0);
	is_res(cuStreamQuery(s), CUDA_SUCCESS, "an idle stream is ready");
	arm_gate();
	cuLaunchHostFunc(s, gate_wait, &gate);
	cuLaunchHostFunc(s, raise_flag, &flag);
	ok(await_flag(&gate_reached), "the stream's worker holds at the gate");
	is_res(cuStreamQuery(s), CUDA_ERROR_NOT_READY,
	       "cuStreamQuery while a host function waits: NOT_READY");
	ok(!flag_of(&flag), "... the work after it has not run");
	sem_post(&gate);
	is_res(cuStreamSynchronize(s), CUDA_SUCCESS, "synchronize");
	ok(flag_of(&flag), "... the work after it ran");
	is_res(cuStreamQuery(s), CUDA_SUCCESS, "... and the stream is ready");
	cuStreamDestroy(s);
	sem_destroy(&gate);
}

static void across_streams(void)
{
	CUstream a, b;
	CUevent e;
	sem_t gate;
	struct mark before = { 0 };
	int flag = 0;

	sem_init(&gate, 0, 0);
	cuStreamCreate(&a, CU_STREAM_NON_BLOCKING);
	cuStreamCreate(&b, CU_STREAM_NON_BLOCKING);
	cuEventCreate(&e, CU_EVENT_DISABLE_TIMING);
	arm_gate();
	__atomic_store_n(&gate_opened, 0, __ATOMIC_RELEASE);
	cuLaunchHostFunc(a, gate_wait, &gate);
	is_res(cuEventRecord(e, a), CUDA_SUCCESS, "cuEventRecord behind a gate");
	cuLaunchHostFunc(b, mark_thread, &before);
	is_res(cuStreamWaitEvent(b, e, 0), CUDA_SUCCESS, "cuStreamWaitEvent");
	cuLaunchHostFunc(b, note_gate, &flag);
	ok(await_flag(&gate_reached), "a's worker holds at the gate");
	ok(await_flag(&before.ran), "b's worker ran what came before the wait");
	ok(await_asleep(before.tid), "b's worker sleeps with work queued");
	is_int(flag_of(&flag), 0, "work after the wait has not run");
	is_res(cuEventQuery(e), CUDA_ERROR_NOT_READY,
	       "cuEventQuery of a pending event: NOT_READY");
	is_res(cuStreamQuery(b), CUDA_ERROR_NOT_READY,
	       "the waiting stream is not ready");
	open_gate(&gate);
	cuStreamSynchronize(b);
	is_int(flag_of(&flag), 2,
	       "... it runs once the event is reached, not before");
	is_res(cuEventQuery(e), CUDA_SUCCESS, "the event is complete");
	is_res(cuStreamWaitEvent(b, e, 2), CUDA_ERROR_INVALID_VALUE,
	       "cuStreamWaitEvent flags 2");
	cuEventDestroy(e);
	cuEventCreate(&e, 0);
	flag = 0;
	is_res(cuStreamWaitEvent(b, e, 0), CUDA_SUCCESS,
	       "waiting for an event never recorded");
	cuLaunchHostFunc(b, raise_flag, &flag);
	cuStreamSynchronize(b);
	ok(flag_of(&flag), "... waits for nothing");
	cuEventDestroy(e);
	cuStreamDestroy(a);
	cuStreamDestroy(b);
	sem_destroy(&gate);
}

/* Work on `second` after `first` is held by a gate: does it wait? It has
 * not run once second's worker sleeps (its thread is learnt first, from
 * work of its own). 1 it waited, 0 it ran, -1 the worker never slept or
 * the gate was never reached. */
static int waits_behind(CUstream first, CUstream second)
{
	struct mark m = { 0 };
	sem_t gate;
	int flag = 0, waited;

	sem_init(&gate, 0, 0);
	cuLaunchHostFunc(second, mark_thread, &m);
	cuStreamSynchronize(second);
	arm_gate();
	cuLaunchHostFunc(first, gate_wait, &gate);
	cuLaunchHostFunc(second, raise_flag, &flag);
	if (!await_flag(&gate_reached) || !await_asleep(m.tid))
		waited = -1;
	else
		waited = !flag_of(&flag);
	sem_post(&gate);
	cuStreamSynchronize(first);
	cuStreamSynchronize(second);
	sem_destroy(&gate);
	return waited;
}

static void legacy_stream(void)
{
	CUstream blk, nb;

	cuStreamCreate(&blk, 0);
	cuStreamCreate(&nb, CU_STREAM_NON_BLOCKING);
	is_int(waits_behind(blk, NULL), 1,
	       "legacy work waits for a blocking stream");
	is_int(waits_behind(NULL, blk), 1, "blocking work waits for legacy work");
	is_int(waits_behind(blk, CU_STREAM_LEGACY), 1,
	       "CU_STREAM_LEGACY is the legacy stream");
	is_int(waits_behind(nb, NULL), 0,
	       "legacy work does not wait for a non-blocking stream");
	is_int(waits_behind(NULL, nb), 0,
	       "non-blocking work does not wait for legacy work");
	is_int(waits_behind(NULL, NULL), 1, "legacy work is in order");
	cuStreamDestroy(blk);
	cuStreamDestroy(nb);
}

struct pt_arg {
	CUcontext ctx;
	sem_t *gate;
	int flag;
};

static void *per_thread_other(void *p)
{
	struct pt_arg *a = p;

	cuCtxSetCurrent(a->ctx);
	cuLaunchHostFunc(CU_STREAM_PER_THREAD, raise_flag, &a->flag);
	cuStreamSynchronize(CU_STREAM_PER_THREAD);
	return NULL;
}

static void per_thread(void)
{
	struct pt_arg a = { 0 };
	pthread_t t;
	sem_t gate;
	int flag = 0;

	sem_init(&gate, 0, 0);
	cuCtxGetCurrent(&a.ctx);
	is_res(cuLaunchHostFunc(CU_STREAM_PER_THREAD, gate_wait, &gate),
	       CUDA_SUCCESS, "work on CU_STREAM_PER_THREAD");
	is_res(cuStreamQuery(CU_STREAM_PER_THREAD), CUDA_ERROR_NOT_READY,
	       "... the thread's stream is busy");
	pthread_create(&t, NULL, per_thread_other, &a);
	pthread_join(t, NULL);
	ok(flag_of(&a.flag), "another thread's per-thread stream is its own");
	cuLaunchHostFunc(CU_STREAM_PER_THREAD, raise_flag, &flag);
	sem_post(&gate);
	is_res(cuStreamSynchronize(CU_STREAM_PER_THREAD), CUDA_SUCCESS,
	       "cuStreamSynchronize(CU_STREAM_PER_THREAD)");
	ok(flag_of(&flag), "... ran its work in order");
	sem_destroy(&gate);
}

static void events(void)
{
	CUevent e0, e1, nt, never;
	CUstream s;
	sem_t gate;
	float ms = -1;

	sem_init(&gate, 0, 0);
	cuStreamCreate(&s, 0);
	is_res(cuEventCreate(&e0, 0x80), CUDA_ERROR_INVALID_VALUE,
	       "cuEventCreate flags 0x80");
	is_res(cuEventCreate(&e0, CU_EVENT_INTERPROCESS),
	       CUDA_ERROR_INVALID_VALUE, "INTERPROCESS without DISABLE_TIMING");
	is_res(cuEventCreate(&nt, 7), CUDA_SUCCESS,
	       "BLOCKING_SYNC|DISABLE_TIMING|INTERPROCESS");
	cuEventCreate(&e0, 0);
	cuEventCreate(&e1, CU_EVENT_BLOCKING_SYNC);
	cuEventCreate(&never, 0);
	is_res(cuEventQuery(never), CUDA_SUCCESS,
	       "cuEventQuery of an event never recorded");
	is_res(cuEventSynchronize(never), CUDA_SUCCESS,
	       "cuEventSynchronize of an event never recorded");
	is_res(cuEventRecord(e0, s), CUDA_SUCCESS, "record start");
	is_res(cuEventRecord(e1, s), CUDA_SUCCESS, "record end");
	is_res(cuEventSynchronize(e1), CUDA_SUCCESS, "cuEventSynchronize");
	is_res(cuEventElapsedTime(&ms, e0, e1), CUDA_SUCCESS,
	       "cuEventElapsedTime");
	ok(ms == 0.0f, "nothing ran between them: 0 ms of model time");
	is_res(cuEventElapsedTime(&ms, e0, never), CUDA_ERROR_INVALID_HANDLE,
	       "elapsed to an event never recorded");
	is_res(cuEventElapsedTime(&ms, never, e1), CUDA_ERROR_INVALID_HANDLE,
	       "elapsed from an event never recorded");
	cuEventRecord(nt, s);
	cuEventSynchronize(nt);
	is_res(cuEventElapsedTime(&ms, e0, nt), CUDA_ERROR_INVALID_HANDLE,
	       "elapsed to a DISABLE_TIMING event");
	is_res(cuEventElapsedTime(NULL, e0, e1), CUDA_ERROR_INVALID_HANDLE,
	       "elapsed into NULL");
	cuLaunchHostFunc(s, gate_wait, &gate);
	cuEventRecord(e1, s);
	is_res(cuEventElapsedTime(&ms, e0, e1), CUDA_ERROR_NOT_READY,
	       "elapsed to a pending event: NOT_READY");
	sem_post(&gate);
	cuEventSynchronize(e1);
	is_res(cuEventElapsedTime(&ms, e0, e1), CUDA_SUCCESS,
	       "... SUCCESS once it is reached");
	cuLaunchHostFunc(s, gate_wait, &gate);
	cuEventRecord(never, s);
	is_res(cuEventDestroy(never), CUDA_SUCCESS,
	       "cuEventDestroy while its record is pending");
	is_res(cuEventQuery(never), CUDA_ERROR_INVALID_HANDLE,
	       "cuEventQuery of a destroyed event");
	is_res(cuEventRecord(never, s), CUDA_ERROR_INVALID_HANDLE,
	       "cuEventRecord of a destroyed event");
	is_res(cuEventDestroy(never), CUDA_ERROR_INVALID_HANDLE,
	       "cuEventDestroy twice");
	sem_post(&gate);
	is_res(cuStreamSynchronize(s), CUDA_SUCCESS,
	       "the pending record completes after its event is gone");
	cuEventDestroy(e0);
	cuEventDestroy(e1);
	cuEventDestroy(nt);
	cuStreamDestroy(s);
	sem_destroy(&gate);
}

static void destroyed_stream(void)
{
	unsigned long long t = 1;
	CUstream s, s2;
	CUevent e;
	sem_t gate;
	int flag = 0;

	sem_init(&gate, 0, 0);
	cuStreamCreate(&s, 0);
	is_res(cuemuStreamGetTime(s, &t), CUDA_SUCCESS, "cuemuStreamGetTime");
	cuStreamCreate(&s2, 0);
	cuEventCreate(&e, CU_EVENT_DISABLE_TIMING);
	cuLaunchHostFunc(s, gate_wait, &gate);
	cuLaunchHostFunc(s, raise_flag, &flag);
	cuEventRecord(e, s);
	is_res(cuStreamDestroy(s), CUDA_SUCCESS,
	       "cuStreamDestroy with work pending");
	is_res(cuStreamQuery(s), CUDA_ERROR_INVALID_HANDLE,
	       "cuStreamQuery of a destroyed stream");
	is_res(cuStreamSynchronize(s), CUDA_ERROR_INVALID_HANDLE,
	       "cuStreamSynchronize of a destroyed stream");
	is_res(cuLaunchHostFunc(s, raise_flag, &flag),
	       CUDA_ERROR_INVALID_HANDLE, "cuLaunchHostFunc on it");
	is_res(cuEventRecord(e, s), CUDA_ERROR_INVALID_HANDLE,
	       "cuEventRecord on it");
	is_res(cuStreamDestroy(s), CUDA_ERROR_INVALID_HANDLE,
	       "cuStreamDestroy twice");
	is_res(cuemuStreamGetTime(s, &t), CUDA_ERROR_INVALID_HANDLE,
	       "cuemuStreamGetTime of it");
	ok(!flag_of(&flag), "its work waits at the gate");
	sem_post(&gate);
	is_res(cuEventSynchronize(e), CUDA_SUCCESS,
	       "an event recorded on it is still reached");
	ok(flag_of(&flag), "... after its queued work ran");
	is_res(cuStreamDestroy(NULL), CUDA_ERROR_INVALID_HANDLE,
	       "cuStreamDestroy of the legacy stream");
	cuEventDestroy(e);
	cuStreamDestroy(s2);
	sem_destroy(&gate);
}

static void slow(void *flag)
{
	usleep(20 * 1000);
	raise_flag(flag);
}

static void context_sync(void)
{
	CUstream a, b;
	int fa = 0, fb = 0;

	cuStreamCreate(&a, CU_STREAM_NON_BLOCKING);
	cuStreamCreate(&b, 0);
	cuLaunchHostFunc(a, slow, &fa);
	cuLaunchHostFunc(b, slow, &fb);
	is_res(cuCtxSynchronize(), CUDA_SUCCESS, "cuCtxSynchronize");
	ok(flag_of(&fa) && flag_of(&fb), "... waited for every stream");
	cuStreamDestroy(a);
	cuStreamDestroy(b);
}

/* A host function may call the API on its own stream without hanging. */
static CUresult inner = CUDA_ERROR_UNKNOWN;

static void reentrant(void *s)
{
	inner = cuStreamQuery(s);
}

static void host_func_calls_api(void)
{
	CUstream s;

	cuStreamCreate(&s, 0);
	cuLaunchHostFunc(s, reentrant, s);
	cuStreamSynchronize(s);
	is_res(inner, CUDA_ERROR_NOT_READY,
	       "a host function sees its own stream busy");
	cuStreamDestroy(s);
}

/* A copy of 64 KiB from pinned memory to device 0: what it costs is the
 * topology's (test_copy.c checks which cost a copy takes); here, events
 * around it measure what the stream's clock moved by. */
#define COPY_BYTES (64u << 10)

static void model_time(void)
{
	unsigned long long t0 = 0, t1 = 0, tnew = 0;
	CUevent e0, e1, e2;
	CUstream s, s2, late;
	CUdeviceptr d;
	float ms = -1;
	void *h;

	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING);
	cuEventCreate(&e0, 0);
	cuEventCreate(&e1, 0);
	cuEventCreate(&e2, 0);
	if (cuMemAllocHost(&h, COPY_BYTES) || cuMemAlloc(&d, COPY_BYTES)) {
		ok(0, "64 KiB of pinned and device memory for the copy");
		return;
	}
	cuStreamSynchronize(s);
	cuemuStreamGetTime(s, &t0);
	cuEventRecord(e0, s);
	is_res(cuMemcpyHtoDAsync(d, h, COPY_BYTES, s), CUDA_SUCCESS,
	       "a 64 KiB copy on a stream");
	cuEventRecord(e1, s);
	cuStreamWaitEvent(s2, e1, 0);
	cuEventRecord(e2, s2);
	cuEventSynchronize(e2);
	is_res(cuEventElapsedTime(&ms, e0, e1), CUDA_SUCCESS,
	       "elapsed time around it");
	cuemuStreamGetTime(s, &t1);
	ok(t1 > t0, "the copy moved its stream's clock on");
	ok(ms > (t1 - t0) / 1e6 - 1e-6 && ms < (t1 - t0) / 1e6 + 1e-6,
	   "the elapsed time is what the clock moved by, %.6f ms",
	   (t1 - t0) / 1e6);
	printf("# elapsed %.6f ms, clock moved %llu ns\n", ms, t1 - t0);
	ms = -1;
	is_res(cuEventElapsedTime(&ms, e1, e2), CUDA_SUCCESS,
	       "elapsed time from the copy's end to the waiting stream's event");
	ok(ms >= 0, "... a stream that waited for the copy is no earlier (%f)",
	   ms);
	cuStreamCreate(&late, 0);
	cuemuStreamGetTime(late, &tnew);
	ok(tnew >= t1, "a stream made after a synchronize starts no earlier");
	cuMemFree(d);
	cuMemFreeHost(h);
	cuEventDestroy(e0);
	cuEventDestroy(e1);
	cuEventDestroy(e2);
	cuStreamDestroy(s);
	cuStreamDestroy(s2);
	cuStreamDestroy(late);
}

static int rt_cb_ok;

static void rt_callback(cudaStream_t s, cudaError_t status, void *arg)
{
	rt_cb_ok = status == cudaSuccess && s == arg;
}

static void runtime(void)
{
	cudaStream_t s;
	cudaEvent_t e0, e1;
	sem_t gate;
	float ms = -1;
	int flag = 0;

	sem_init(&gate, 0, 0);
	is_int(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking),
	       cudaSuccess, "cudaStreamCreateWithFlags");
	is_int(cudaEventCreate(&e0), cudaSuccess, "cudaEventCreate");
	is_int(cudaEventCreateWithFlags(&e1, cudaEventBlockingSync),
	       cudaSuccess, "cudaEventCreateWithFlags");
	is_int(cudaEventRecord(e0, s), cudaSuccess, "cudaEventRecord");
	is_int(cudaLaunchHostFunc(s, gate_wait, &gate), cudaSuccess,
	       "cudaLaunchHostFunc");
	is_int(cudaStreamAddCallback(s, rt_callback, s, 0), cudaSuccess,
	       "cudaStreamAddCallback");
	cudaEventRecord(e1, s);
	is_int(cudaStreamQuery(s), cudaErrorNotReady,
	       "cudaStreamQuery while busy");
	is_int(cudaEventQuery(e1), cudaErrorNotReady,
	       "cudaEventQuery while pending");
	is_int(cudaGetLastError(), cudaSuccess,
	       "not ready is not recorded as an error");
	sem_post(&gate);
	is_int(cudaEventSynchronize(e1), cudaSuccess, "cudaEventSynchronize");
	ok(rt_cb_ok, "the runtime callback got its stream and cudaSuccess");
	is_int(cudaEventElapsedTime(&ms, e0, e1), cudaSuccess,
	       "cudaEventElapsedTime");
	ok(ms == 0.0f, "... 0 ms: host functions cost no model time");
	is_int(cudaStreamWaitEvent(NULL, e1, 0), cudaSuccess,
	       "cudaStreamWaitEvent");
	cudaLaunchHostFunc(NULL, raise_flag, &flag);
	is_int(cudaStreamSynchronize(NULL), cudaSuccess,
	       "cudaStreamSynchronize of the legacy stream");
	ok(flag_of(&flag), "... ran its work");
	is_int(cudaStreamDestroy(s), cudaSuccess, "cudaStreamDestroy");
	is_int(cudaStreamDestroy(s), cudaErrorInvalidResourceHandle,
	       "cudaStreamDestroy twice");
	is_int(cudaGetLastError(), cudaErrorInvalidResourceHandle,
	       "... recorded as the last error");
	is_int(cudaEventDestroy(e0), cudaSuccess, "cudaEventDestroy");
	cudaEventDestroy(e1);
	sem_destroy(&gate);
}

/* ---------------------------------------------------------------- where work runs */

/* The thread a host function ran in. */
static void note_thread(void *arg)
{
	*(pthread_t *)arg = pthread_self();
}

static void note_thread_cb(CUstream s, CUresult status, void *arg)
{
	note_thread(arg);
}

static void host_work_on_worker(void)
{
	pthread_t f, c, k, me = pthread_self();
	CUstream s;

	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	cuLaunchHostFunc(s, note_thread, &f);
	cuStreamSynchronize(s);
	ok(!pthread_equal(f, me), "a host function on an idle stream runs on "
	   "the worker, never in the caller's thread");
	cuStreamAddCallback(s, note_thread_cb, &c, 0);
	cuStreamSynchronize(s);
	ok(!pthread_equal(c, me), "... a callback too");
	cuemuLaunchHostFunc(s, note_thread, &k);
	cuStreamSynchronize(s);
	ok(!pthread_equal(k, me), "... and an emulated kernel");
	cuStreamDestroy(s);
}

/* The first byte of a pinned buffer, as a host function reads it. */
struct peek {
	volatile unsigned char *p;
	int seen;
};

static void peek(void *arg)
{
	struct peek *k = arg;

	k->seen = k->p[0];
}

static void model_work_inline(void)
{
	unsigned char *h = NULL;
	struct peek before, after;
	CUstream s;
	CUevent e;
	sem_t gate;

	sem_init(&gate, 0, 0);
	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	cuEventCreate(&e, CU_EVENT_DEFAULT);
	if (cuMemHostAlloc((void **)&h, 4096, 0) != CUDA_SUCCESS)
		h = NULL;
	ok(h != NULL, "pinned memory for the memsets");
	if (!h)
		return;
	h[0] = 0;
	is_res(cuMemsetD8Async((CUdeviceptr)h, 0x11, 4096, s), CUDA_SUCCESS,
	       "a memset on an idle stream");
	ok(h[0] == 0x11 && cuStreamQuery(s) == CUDA_SUCCESS,
	   "... has run when the call returns: it ran in the caller's thread");
	cuEventRecord(e, s);
	is_res(cuEventQuery(e), CUDA_SUCCESS,
	   "a record on an idle stream is reached when the call returns");

	before.p = after.p = h;
	arm_gate();
	cuLaunchHostFunc(s, gate_wait, &gate);
	cuLaunchHostFunc(s, peek, &before);
	cuMemsetD8Async((CUdeviceptr)h, 0x22, 4096, s);
	cuLaunchHostFunc(s, peek, &after);
	ok(await_flag(&gate_reached), "a host function holds the stream at a gate");
	ok(h[0] == 0x11 && cuStreamQuery(s) == CUDA_ERROR_NOT_READY,
	   "a memset enqueued behind it has not run: it queued behind");
	sem_post(&gate);
	cuStreamSynchronize(s);
	ok(before.seen == 0x11 && after.seen == 0x22 && h[0] == 0x22,
	   "... and ran on the worker in stream order");
	cuMemFreeHost(h);
	cuEventDestroy(e);
	cuStreamDestroy(s);
	sem_destroy(&gate);
}

/* A page that holds a copy in the middle: reading it faults, and the
 * handler waits until the test lets it go, then opens the page. The copy
 * is pageable memory the runtime does not know, so the fault comes here
 * (the runtime passes on the faults that are not its own). */
static unsigned char *held_page;
static int held_reached, held_go;
static pthread_t held_thread;

static void held_handler(int sig, siginfo_t *si, void *uc)
{
	struct timespec ms = { 0, 1000000 };

	if ((unsigned char *)si->si_addr < held_page ||
	    (unsigned char *)si->si_addr >= held_page + 4096) {
		signal(sig, SIG_DFL);
		return;
	}
	held_thread = pthread_self();
	__atomic_store_n(&held_reached, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&held_go, __ATOMIC_ACQUIRE))
		nanosleep(&ms, NULL);
	mprotect(held_page, 4096, PROT_READ | PROT_WRITE);
}

struct held_copy {
	CUcontext ctx;
	CUstream s;
	unsigned char *dst;
	CUresult r;
};

static void *copy_held(void *arg)
{
	struct held_copy *c = arg;

	cuCtxSetCurrent(c->ctx);
	c->r = cuMemcpyAsync((CUdeviceptr)c->dst, (CUdeviceptr)held_page,
			     4096, c->s);
	return NULL;
}

/* In a child forked while another thread runs an operation inline: the
 * stream takes and finishes new work. Exit status 0 if so. */
static void child_uses_stream(CUstream s, unsigned char *h)
{
	alarm(10);
	h[0] = 0;
	if (cuMemsetD8Async((CUdeviceptr)h, 0x44, 16, s) != CUDA_SUCCESS ||
	    cuStreamSynchronize(s) != CUDA_SUCCESS || h[0] != 0x44)
		_exit(1);
	_exit(0);
}

static void held_inline(void)
{
	struct held_copy c = { 0 };
	unsigned char *h = NULL, *dst = NULL;
	struct peek after = { 0 };
	pthread_t t;
	pid_t pid;
	int flag = 0, status = -1;

	held_page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	cuMemHostAlloc((void **)&h, 4096, 0);
	cuMemHostAlloc((void **)&dst, 4096, 0);
	if (held_page == MAP_FAILED || !h || !dst) {
		ok(0, "memory for the held copy");
		return;
	}
	memset(held_page, 0x77, 4096);
	memset(dst, 0, 4096);
	mprotect(held_page, 4096, PROT_NONE);
	cuStreamCreate(&c.s, CU_STREAM_NON_BLOCKING);
	cuCtxGetCurrent(&c.ctx);
	c.dst = dst;
	pthread_create(&t, NULL, copy_held, &c);
	ok(await_flag(&held_reached), "a copy on an idle stream is held in "
	   "the middle");
	ok(pthread_equal(held_thread, t), "... in the thread that called it: "
	   "it runs inline");

	after.p = dst;
	cuLaunchHostFunc(c.s, raise_flag, &flag);
	cuLaunchHostFunc(c.s, peek, &after);
	cuMemsetD8Async((CUdeviceptr)h, 0x33, 16, c.s);
	usleep(50 * 1000);
	ok(!flag_of(&flag) && cuStreamQuery(c.s) == CUDA_ERROR_NOT_READY,
	   "work enqueued while it runs waits for it");

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		child_uses_stream(c.s, h);
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a child forked "
	   "while another thread runs an operation inline uses the stream");

	__atomic_store_n(&held_go, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	is_res(c.r, CUDA_SUCCESS, "the held copy finishes");
	is_res(cuStreamSynchronize(c.s), CUDA_SUCCESS, "... then the work "
	       "behind it");
	ok(flag_of(&flag) && after.seen == 0x77 && h[0] == 0x33,
	   "... in stream order, after the copy");
	cuStreamDestroy(c.s);
	cuMemFreeHost(h);
	cuMemFreeHost(dst);
	munmap(held_page, 4096);
}

/* Before the runtime installs its own handler, which passes on to this
 * one the faults that are not its own. */
static void held_install(void)
{
	struct sigaction sa = { 0 };

	sa.sa_sigaction = held_handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
}

/* Stream ids and devices (probes/results/streamid.txt): ids in the order
 * streams are made, never reused; the legacy stream's by NULL and by
 * CU_STREAM_LEGACY alike; a NULL output refused. */
static void ids(void)
{
	unsigned long long a_id = 0, b_id = 0, c_id = 0, n_id = 0, l_id = 1,
			   p_id = 0;
	CUstream a, b, c;
	CUdevice d = -1;
	int rd = -1;

	cuStreamCreate(&a, 0);
	cuStreamCreate(&b, CU_STREAM_NON_BLOCKING);
	is_res(cuStreamGetId(a, &a_id), CUDA_SUCCESS, "a stream's id");
	cuStreamGetId(b, &b_id);
	ok(a_id && b_id == a_id + 1, "the next stream's is one more");
	cuStreamDestroy(b);
	cuStreamCreate(&c, 0);
	cuStreamGetId(c, &c_id);
	ok(c_id == a_id + 2, "a destroyed stream's id is not given again");
	is_res(cuStreamGetId(NULL, &n_id), CUDA_SUCCESS, "the legacy stream's");
	cuStreamGetId(CU_STREAM_LEGACY, &l_id);
	ok(n_id == l_id, "by NULL and by CU_STREAM_LEGACY alike");
	cuStreamGetId(CU_STREAM_PER_THREAD, &p_id);
	ok(p_id && p_id != n_id && p_id != a_id && p_id != c_id,
	   "the per-thread stream has one of its own");
	is_res(cuStreamGetId(a, NULL), CUDA_ERROR_INVALID_VALUE,
	       "a NULL id: INVALID_VALUE");
	is_res(cuStreamGetDevice(c, &d), CUDA_SUCCESS, "a stream's device");
	ok(d == 0, "device 0");
	is_res(cuStreamGetDevice(NULL, NULL), CUDA_ERROR_INVALID_VALUE,
	       "a NULL device: INVALID_VALUE");
	ok(cudaStreamGetId((cudaStream_t)a, &b_id) == cudaSuccess &&
	   b_id == a_id, "the runtime's id is the driver's");
	ok(cudaStreamGetDevice((cudaStream_t)a, &rd) == cudaSuccess && rd == 0,
	   "the runtime's device too");
	ok(cudaStreamCopyAttributes((cudaStream_t)c, (cudaStream_t)a) ==
	   cudaSuccess, "the runtime copies a stream's attributes");
	cuStreamDestroy(a);
	cuStreamDestroy(c);
}

int main(void)
{
	CUcontext ctx;

	held_install();
	setenv("CUEMU_CONTROL", "0", 1);
	unsetenv("CUEMU_TIME_SCALE");
	unsetenv("CUEMU_TOPOLOGY");
	if (cuInit(0) != CUDA_SUCCESS ||
	    cuDevicePrimaryCtxRetain(&ctx, 0) != CUDA_SUCCESS ||
	    cuCtxSetCurrent(ctx) != CUDA_SUCCESS) {
		printf("Bail out! no device 0\n");
		return 1;
	}
	creation();
	in_order();
	query_while_busy();
	across_streams();
	legacy_stream();
	per_thread();
	events();
	destroyed_stream();
	context_sync();
	host_func_calls_api();
	model_time();
	runtime();
	host_work_on_worker();
	model_work_inline();
	held_inline();
	ids();
	cuDevicePrimaryCtxRelease(0);
	return done_testing();
}
