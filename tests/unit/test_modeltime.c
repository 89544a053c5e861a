/*
 * test_modeltime.c - model time as a program and the tools see it:
 * cuemuStreamSleep advances its stream's clock by what it asks, in stream
 * order, and refuses what the other stream entries refuse; the words /cu
 * takes parse through cuemuParseLocation and cuemuParseSize; and
 * CUEMU_REPORT leaves the process's last record (model time, streams,
 * counters) in a file at exit; a prefetch of what is already in place
 * costs the walk of its blocks.
 */
#include <fcntl.h>
#include <jansson.h>

#include "cuemu.h"
#include "tap.h"
#include "spawn.h"

#define MS 1000000ULL

static CUcontext ctx;

static void test_sleep(void)
{
	unsigned long long t0 = 0, t1 = 0, t2 = 0;
	CUstream s, gone;

	is_res(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS,
	       "a stream");
	is_res(cuemuStreamGetTime(s, &t0), CUDA_SUCCESS, "its clock");
	is_res(cuemuStreamSleep(s, 3 * MS), CUDA_SUCCESS,
	       "cuemuStreamSleep 3 ms");
	is_res(cuemuStreamSleep(s, 0), CUDA_SUCCESS, "0 ns is an operation too");
	is_res(cuStreamSynchronize(s), CUDA_SUCCESS, "synchronized");
	is_res(cuemuStreamGetTime(s, &t1), CUDA_SUCCESS, "its clock again");
	is_int(t1 - t0, 3 * MS, "the clock moved by exactly what was slept");
	/* Stream order: a second sleep starts where the first ended. */
	is_res(cuemuStreamSleep(s, 2 * MS), CUDA_SUCCESS, "2 ms more");
	is_res(cuStreamSynchronize(s), CUDA_SUCCESS, "synchronized");
	cuemuStreamGetTime(s, &t2);
	is_int(t2 - t1, 2 * MS, "sleeps add up in stream order");

	is_res(cuStreamCreate(&gone, 0), CUDA_SUCCESS, "a second stream");
	is_res(cuStreamDestroy(gone), CUDA_SUCCESS, "destroyed");
	is_res(cuemuStreamSleep(gone, MS), CUDA_ERROR_INVALID_HANDLE,
	       "a destroyed stream: INVALID_HANDLE");
	is_res(cuemuStreamSleep(NULL, MS), CUDA_SUCCESS,
	       "the legacy stream (NULL)");
	is_res(cuCtxSynchronize(), CUDA_SUCCESS, "context synchronized");
	is_res(cuStreamDestroy(s), CUDA_SUCCESS, "stream destroyed");
}

/* A prefetch that finds its range already there moves nothing and still
 * walks each 2 MiB block of it (probes/results/resprefetch.txt):
 * uvm.prefetch_block_ns a block on the stream's clock. */
static void test_resident_prefetch(void)
{
	CUmemLocation gpu0 = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
	unsigned long long t0 = 0, t1 = 0;
	CUdeviceptr p = 0;
	CUstream s;

	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	is_res(cuMemAllocManaged(&p, 8 << 20, CU_MEM_ATTACH_GLOBAL),
	       CUDA_SUCCESS, "8 MiB of managed memory");
	cuMemPrefetchAsync(p, 8 << 20, gpu0, 0, s);
	cuStreamSynchronize(s);
	cuemuStreamGetTime(s, &t0);
	is_res(cuMemPrefetchAsync(p, 8 << 20, gpu0, 0, s), CUDA_SUCCESS,
	       "prefetched again where it is");
	cuStreamSynchronize(s);
	cuemuStreamGetTime(s, &t1);
	is_int(t1 - t0, 4 * 1250, "the walk of its four blocks, 1.25 us each");
	cuMemFree(p);
	cuStreamDestroy(s);
}

static void test_words(void)
{
	unsigned long long b = 1;
	CUmemLocation loc = { 0 };

	is_int(cuemuParseSize("64M", &b), 0, "64M is a size");
	is_int(b, 64ULL << 20, "of 64 MiB");
	is_int(cuemuParseSize("0x1000", &b), 0, "0x1000 is a size");
	is_int(b, 4096, "of 4096 bytes");
	is_int(cuemuParseSize("2GiB", &b), 0, "2GiB is a size");
	is_int(b, 2ULL << 30, "of 2 GiB");
	b = 7;
	is_int(cuemuParseSize("64X", &b), -1, "64X is not");
	is_int(b, 7, "and leaves the result alone");
	is_int(cuemuParseSize("", &b), -1, "nor is nothing");
	is_int(cuemuParseSize(NULL, &b), -1, "NULL is refused");
	is_int(cuemuParseSize("1", NULL), -1, "so is no result");

	is_int(cuemuParseLocation("gpu1", &loc), 0, "gpu1 is a location");
	ok(loc.type == CU_MEM_LOCATION_TYPE_DEVICE && loc.id == 1,
	   "device 1");
	is_int(cuemuParseLocation("cpu", &loc), 0, "cpu is a location");
	ok(loc.type == CU_MEM_LOCATION_TYPE_HOST, "the host");
	is_int(cuemuParseLocation("none", &loc), 0, "none is a word too");
	ok(loc.type == CU_MEM_LOCATION_TYPE_INVALID, "of no location");
	is_int(cuemuParseLocation("gpux", &loc), -1, "gpux is not");
	is_int(cuemuParseLocation(NULL, &loc), -1, "NULL is refused");
}

/* The child: sleeps 5 ms on a stream of its own and exits with it alive,
 * after cuInit and a primary context's first retain took theirs (the
 * default machine's uvm.init_ns, init_device_ns a device seen, and
 * context_create_ns: probes/results/ctxtime-visible.txt). */
static int child_report(void)
{
	CUstream s;

	if (cuInit(0) || cuDevicePrimaryCtxRetain(&ctx, 0) ||
	    cuCtxSetCurrent(ctx) || cuStreamCreate(&s, 0) ||
	    cuemuStreamSleep(s, 5 * MS) || cuStreamSynchronize(s))
		return 1;
	return 0;
}

/* The calling thread's model time, as a stream made now starts there. */
static unsigned long long thread_time(void)
{
	unsigned long long ns = 0;
	CUstream s;

	if (cuStreamCreate(&s, 0) == CUDA_SUCCESS) {
		cuemuStreamGetTime(s, &ns);
		cuStreamDestroy(s);
	}
	return ns;
}

/* The child: the driver's work in a fresh process, each step's model
 * time on the calling thread printed as "key ns". */
static int child_driver(void)
{
	CUcontext p, c;
	int n = 0;

	if (cuInit(0) || cuDeviceGetCount(&n) ||
	    cuDevicePrimaryCtxRetain(&p, 0) || cuCtxSetCurrent(p))
		return 1;
	printf("devices %d\nretained %llu\n", n, thread_time());
	if (cuInit(0) || cuDevicePrimaryCtxRetain(&p, 0))
		return 1;
	printf("again %llu\n", thread_time());
	if (cuCtxCreate(&c, NULL, 0, 0))
		return 1;
	printf("created %llu\n", thread_time());
	if (cuCtxDestroy(c))
		return 1;
	printf("destroyed %llu\n", thread_time());
	if (cuDevicePrimaryCtxRelease(0) || cuDevicePrimaryCtxRelease(0) ||
	    cuDevicePrimaryCtxRetain(&p, 0))
		return 1;
	printf("remade %llu\n", thread_time());
	cuDevicePrimaryCtxRelease(0);
	return 0;
}

static void test_driver_work(void)
{
	char out[256];
	long long n, t;

	snprintf(out, sizeof out, "%s/driver-work.out",
		 getenv("CUEMU_RUNDIR") ? getenv("CUEMU_RUNDIR") : "/tmp");
	is_int(run_self("driver", NULL, out, NULL, 20), 0,
	       "a fresh process initialized, made and ended contexts");
	n = child_value(out, "devices", -1);
	t = 25 * MS + n * 104 * MS + 112 * MS;
	is_int(child_value(out, "retained", -1), t, "cuInit takes 25 ms and "
	       "104 ms a device; the first retain makes the context, 112 ms");
	is_int(child_value(out, "again", -1), t, "a second cuInit and retain "
	       "take nothing");
	is_int(child_value(out, "created", -1), t + 112 * MS,
	       "cuCtxCreate makes a context: 112 ms");
	t += 112 * MS + 60 * MS;
	is_int(child_value(out, "destroyed", -1), t,
	       "cuCtxDestroy ends it: 60 ms");
	is_int(child_value(out, "remade", -1), t + 60 * MS + 112 * MS,
	       "the last release ends the primary (60 ms), a retain makes it "
	       "again (112 ms)");
	unlink(out);
}

static void test_report(void)
{
	char path[256], env[300];
	char *envs[] = { env, NULL };
	json_t *r, *streams, *v;
	const char *k;
	int user = 0, n = 0;
	long long setup;

	cuDeviceGetCount(&n);
	setup = 25 * MS + n * 104 * MS + 112 * MS;
	snprintf(path, sizeof path, "%s/report.json",
		 getenv("CUEMU_RUNDIR") ? getenv("CUEMU_RUNDIR") : "/tmp");
	snprintf(env, sizeof env, "CUEMU_REPORT=%s", path);
	unlink(path);
	is_int(run_self("report", envs, NULL, NULL, 20), 0,
	       "a process with CUEMU_REPORT ran");
	r = json_load_file(path, 0, NULL);
	ok(json_is_object(r), "and left its record in the file");
	is_int(json_integer_value(json_object_get(r, "model_time")),
	       setup + 5 * MS, "model_time: the furthest clock, the driver's "
	       "setup and 5 ms");
	ok(json_is_object(json_object_get(r, "counters")), "its counters");
	streams = json_object_get(r, "streams");
	json_object_foreach(streams, k, v) {
		if (strcmp(json_string_value(json_object_get(v, "kind")), "user"))
			continue;
		user++;
		is_int(json_integer_value(json_object_get(v, "clock_ns")),
		       setup + 5 * MS, "its stream's clock: made after the "
		       "setup, 5 ms on");
		ok(!strcmp(json_string_value(json_object_get(v, "device")),
			   "gpu0"), "on gpu0");
		is_int(json_integer_value(json_object_get(
			json_object_get(v, "operations"), "completed")), 1,
		       "one operation completed");
		is_int(json_integer_value(json_object_get(v, "id")),
		       strtoll(k, NULL, 10), "named by its id");
	}
	is_int(user, 1, "one user stream");
	json_decref(r);
	unlink(path);

	snprintf(env, sizeof env, "CUEMU_REPORT=/nonexistent-dir/r.json");
	is_int(run_self("report", envs, NULL, "/dev/null", 20), 0,
	       "a report that cannot be written does not fail the process");
}

int main(int argc, char **argv)
{
	const char *role = child_role(argc, argv);

	if (role)
		return !strcmp(role, "report") ? child_report() :
		       !strcmp(role, "driver") ? child_driver() : 2;
	is_res(cuInit(0), CUDA_SUCCESS, "cuInit");
	is_res(cuDevicePrimaryCtxRetain(&ctx, 0), CUDA_SUCCESS, "context");
	is_res(cuCtxSetCurrent(ctx), CUDA_SUCCESS, "current");
	test_sleep();
	test_resident_prefetch();
	test_words();
	test_report();
	test_driver_work();
	cuDevicePrimaryCtxRelease(0);
	return done_testing();
}
