/*
 * test_ptds.c - per-thread default streams, as a program built with
 * CUDA_API_PER_THREAD_DEFAULT_STREAM sees them: the headers send each call
 * that takes or implies the default stream to its _ptsz/_ptds export, the
 * null stream is then the thread's own stream, which does not wait for
 * other streams (probes/results/families.txt: its query succeeds while a
 * blocking stream is busy), and
 * CU_STREAM_PER_THREAD and CU_STREAM_LEGACY work wherever a stream is
 * taken. cuGetProcAddress gives the same exports with the per-thread flag.
 */
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "cuda.h"
#include "tap.h"

#define STR_(x) #x
#define XSTR(x) STR_(x)

static void test_renames(void)
{
	ok(!strcmp(XSTR(cuMemcpyHtoD), "cuMemcpyHtoD_v2_ptds"),
	   "cuMemcpyHtoD is cuMemcpyHtoD_v2_ptds");
	ok(!strcmp(XSTR(cuMemcpyAsync), "cuMemcpyAsync_ptsz"),
	   "cuMemcpyAsync is cuMemcpyAsync_ptsz");
	ok(!strcmp(XSTR(cuMemsetD32), "cuMemsetD32_v2_ptds"),
	   "cuMemsetD32 is cuMemsetD32_v2_ptds");
	ok(!strcmp(XSTR(cuStreamSynchronize), "cuStreamSynchronize_ptsz"),
	   "cuStreamSynchronize is cuStreamSynchronize_ptsz");
	ok(!strcmp(XSTR(cuMemAllocAsync), "cuMemAllocAsync_ptsz"),
	   "cuMemAllocAsync is cuMemAllocAsync_ptsz");
	ok(!strcmp(XSTR(cuMemPrefetchAsync), "cuMemPrefetchAsync_v2_ptsz"),
	   "cuMemPrefetchAsync is cuMemPrefetchAsync_v2_ptsz");
}

static void pa(const char *name, int ver, const char *want, int want_st)
{
	void *p = (void *)1;
	CUdriverProcAddressQueryResult st = (CUdriverProcAddressQueryResult)-1;
	CUresult r = cuGetProcAddress_v2(name, &p, ver,
					 CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
					 &st);
	void *w = want ? dlsym(RTLD_DEFAULT, want) : NULL;

	ok(r == CUDA_SUCCESS && (int)st == want_st && p == w && (!want || w),
	   "per thread, %s at %d: %s (status %d)", name, ver,
	   want ? want : "none", want_st);
}

static void test_procaddr(void)
{
	/* probes/results/families.txt, families.procaddr.*_2 */
	pa("cuMemcpyAsync", 13000, "cuMemcpyAsync_ptsz", 0);
	pa("cuMemcpyAsync", 7000, "cuMemcpyAsync_ptsz", 0);
	pa("cuMemcpyAsync", 3000, NULL, 2);
	pa("cuMemcpyHtoD", 13000, "cuMemcpyHtoD_v2_ptds", 0);
	pa("cuMemcpyHtoD", 3000, NULL, 2);
	pa("cuMemcpyHtoD", 2000, NULL, 2);
	pa("cuMemcpy", 13000, "cuMemcpy_ptds", 0);
	pa("cuMemsetD8", 13000, "cuMemsetD8_v2_ptds", 0);
	pa("cuMemsetD8Async", 13000, "cuMemsetD8Async_ptsz", 0);
	pa("cuStreamSynchronize", 13000, "cuStreamSynchronize_ptsz", 0);
	pa("cuMemAllocAsync", 13000, "cuMemAllocAsync_ptsz", 0);
	/* the default search of a per-thread build is the per-thread one */
	{
		void *p = NULL;

		cuGetProcAddress("cuMemcpyAsync", &p, 13000, 0, NULL);
		ok(p == dlsym(RTLD_DEFAULT, "cuMemcpyAsync_ptsz"),
		   "built per thread, flags 0 search the per-thread forms");
		cuGetProcAddress("cuMemcpyAsync", &p, 13000,
				 CU_GET_PROC_ADDRESS_LEGACY_STREAM, NULL);
		ok(p == dlsym(RTLD_DEFAULT, "cuMemcpyAsync"),
		   "... and LEGACY_STREAM the legacy ones");
	}
}

/* A gate closed on a blocking user stream; a watchdog opens it after 3 s
 * so a wrong wait shows as a failure, never a hang. */
static volatile int gate_open;
static void CUDA_CB gate(void *a)
{
	(void)a;
	while (!gate_open)
		usleep(1000);
}

static void *watchdog(void *a)
{
	(void)a;
	sleep(3);
	gate_open = 2;
	return NULL;
}

static void test_semantics(void)
{
	CUdevice dev;
	CUcontext ctx;
	CUstream s;
	CUdeviceptr d;
	pthread_t w;
	unsigned flags = 99, v[4] = { 0 };
	int prio = 99;

	if (cuInit(0) || cuDeviceGet(&dev, 0) ||
	    cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx) ||
	    cuStreamCreate(&s, 0) || cuMemAlloc(&d, 4096)) {
		ok(0, "setup");
		return;
	}
	gate_open = 0;
	pthread_create(&w, NULL, watchdog, NULL);
	is_res(cuLaunchHostFunc(s, gate, NULL), CUDA_SUCCESS,
	       "a blocking stream held busy");
	is_res(cuStreamQuery(0), CUDA_SUCCESS,
	       "the per-thread stream does not wait for it");
	/* The real legacy stream's query is NOT_READY here (families.txt,
	 * ptds.legacy_query_while_other_blocked); the emulator's legacy
	 * stream orders new work after the blocking streams but its query
	 * looks at its own work only (libcuemu(3), DIFFERENCES). */
	is_res(cuMemsetD32(d, 0xabcd, 4), CUDA_SUCCESS,
	       "cuMemsetD32 on the per-thread stream");
	is_res(cuMemcpyDtoH(v, d, sizeof v), CUDA_SUCCESS,
	       "cuMemcpyDtoH on the per-thread stream");
	ok(v[0] == 0xabcd && v[3] == 0xabcd, "... reads what was set");
	ok(gate_open == 0, "... both while the other stream was still busy");
	is_res(cuStreamSynchronize(0), CUDA_SUCCESS,
	       "cuStreamSynchronize(0) is the thread's stream");
	ok(gate_open == 0, "... and did not wait for the busy one");
	is_res(cuStreamGetFlags(0, &flags), CUDA_SUCCESS,
	       "cuStreamGetFlags of the per-thread stream");
	is_int(flags, 0, "... its flags are 0");
	is_res(cuStreamGetPriority(CU_STREAM_PER_THREAD, &prio), CUDA_SUCCESS,
	       "cuStreamGetPriority(CU_STREAM_PER_THREAD)");
	is_res(cuStreamDestroy(CU_STREAM_PER_THREAD), CUDA_ERROR_INVALID_HANDLE,
	       "the per-thread stream cannot be destroyed");
	gate_open = 1;
	pthread_join(w, NULL);
	is_res(cuStreamSynchronize(s), CUDA_SUCCESS, "the busy stream ends");
	{
		CUdeviceptr p = 0;

		is_res(cuMemAllocAsync(&p, 4096, 0), CUDA_SUCCESS,
		       "cuMemAllocAsync on the per-thread stream");
		is_res(cuMemFreeAsync(p, 0), CUDA_SUCCESS,
		       "cuMemFreeAsync on the per-thread stream");
		is_res(cuMemsetD8Async(d, 1, 16, CU_STREAM_PER_THREAD),
		       CUDA_SUCCESS, "cuMemsetD8Async(CU_STREAM_PER_THREAD)");
		is_res(cuMemsetD8Async(d, 1, 16, CU_STREAM_LEGACY),
		       CUDA_SUCCESS, "cuMemsetD8Async(CU_STREAM_LEGACY)");
		is_res(cuStreamSynchronize(0), CUDA_SUCCESS, "synchronized");
	}
	cuMemFree(d);
	cuStreamDestroy(s);
	cuDevicePrimaryCtxRelease(dev);
}

int main(void)
{
	test_renames();
	test_procaddr();
	test_semantics();
	return done_testing();
}
