/*
 * test_paradigms.c - what the unified-memory paradigms do beyond their
 * device attributes, each in a process of its own on its machine (spawn.h):
 * on a hardware-coherent machine (the shipped gh200) the CPU reads managed
 * memory resident on a GPU in place, counted as remote accesses, where the
 * default software-coherent machine faults it back to the host; and
 * access-counter migration is on there by default.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cuda.h"
#include "cuemu.h"
#include "tap.h"
#include "ctl.h"
#include "spawn.h"

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

#define MIB (1ULL << 20)

/* What /cu shows of the allocation holding p: key k1 (and k2 inside it),
 * or -1. */
static long long cu_int(CUdeviceptr p, const char *k1, const char *k2)
{
	static char buf[1 << 16];
	unsigned long long id = 0;
	char req[128];
	json_t *ans, *v;
	long long n = -1;

	if (cuPointerGetAttribute(&id, CU_POINTER_ATTRIBUTE_BUFFER_ID, p))
		return -1;
	snprintf(req, sizeof req,
		 "{\"op\":\"get\",\"path\":\"allocations/%llu\"}", id);
	if (!*ctl_line(ctl_fd, req, buf, sizeof buf))
		return -1;
	ans = json_loads(buf, 0, NULL);
	v = json_object_get(json_object_get(ans, "value"), k1);
	if (k2)
		v = json_object_get(v, k2);
	if (json_is_integer(v))
		n = json_integer_value(v);
	json_decref(ans);
	return n;
}

/* The child: 4 MiB of managed memory prefetched to gpu0, then read by the
 * CPU a byte a page; prints what /cu shows then. */
static int cpu_read_role(void)
{
	CUmemLocation gpu0 = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
	CUdeviceptr p = 0;
	CUcontext c;
	unsigned sum = 0;
	CUstream s;

	if (cuInit(0) || cuDevicePrimaryCtxRetain(&c, 0) || cuCtxSetCurrent(c) ||
	    cuMemAllocManaged(&p, 4 * MIB, CU_MEM_ATTACH_GLOBAL) ||
	    ctl_open() != 0)
		return 1;
	memset((void *)p, 7, 4 * MIB);
	if (cuMemPrefetchAsync_v2(p, 4 * MIB, gpu0, 0, NULL) ||
	    cuCtxSynchronize())
		return 1;
	printf("before_gpu0 %lld\n", cu_int(p, "residency", "gpu0"));
	printf("faults_before %lld\n", cu_int(p, "counters", "cpu_faults"));
	for (size_t i = 0; i < 4 * MIB; i += 4096)
		sum += ((volatile unsigned char *)p)[i];
	printf("sum %u\n", sum);
	printf("gpu0 %lld\n", cu_int(p, "residency", "gpu0"));
	printf("cpu %lld\n", cu_int(p, "residency", "cpu"));
	printf("remote %lld\n", cu_int(p, "counters", "remote_accesses"));
	printf("cpu_faults %lld\n", cu_int(p, "counters", "cpu_faults"));
	/* A second read: the CPU keeps reading in place. */
	printf("again %u\n", ((volatile unsigned char *)p)[8192]);
	printf("gpu0_after %lld\n", cu_int(p, "residency", "gpu0"));
	cuMemFree(p);
	/* Access counters: gpu0 keeps reading host memory it may map
	 * (accessed by it); with the counters on the pages move to it. */
	if (cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) ||
	    cuMemAllocManaged(&p, 4 * MIB, CU_MEM_ATTACH_GLOBAL))
		return 1;
	memset((void *)p, 1, 4 * MIB);
	if (cuMemAdvise_v2(p, 4 * MIB, CU_MEM_ADVISE_SET_ACCESSED_BY, gpu0) ||
	    cuemuAccess(s, p, 4 * MIB, CUEMU_ACCESS_READ) ||
	    cuStreamSynchronize(s))
		return 1;
	printf("counted_gpu0 %lld\n", cu_int(p, "residency", "gpu0"));
	cuMemFree(p);
	cuStreamDestroy(s);
	close(ctl_fd);
	return 0;
}

/* Runs the child on machine name (a topology by name, or the default). */
static int run_on(const char *topology, const char *out)
{
	char e1[200], e2[600], e3[200];
	char *env[] = { e1, e2, e3, NULL };
	const char *src = getenv("top_srcdir");

	snprintf(e1, sizeof e1, "CUEMU_TOPOLOGY=%s", topology);
	snprintf(e2, sizeof e2, "CUEMU_TOPOLOGY_DIR=%s/topologies",
		 src ? src : ".");
	snprintf(e3, sizeof e3, "CUEMU_MACHINE=%s-%s", getenv("CUEMU_MACHINE") ?
		 getenv("CUEMU_MACHINE") : "cuemu", *topology ? topology
							       : "default");
	return run_self("cpu_read", env, out, NULL, 60);
}

static void test_cpu_read(void)
{
	char out[300];
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

	snprintf(out, sizeof out, "%s/paradigms-gh200.out", tmp);
	is_int(run_on("gh200", out), 0, "gh200: the child runs");
	is_int(child_value(out, "before_gpu0", -1), 4 * MIB,
	       "gh200: prefetched to gpu0");
	is_int(child_value(out, "sum", -1), 7 * 1024, "gh200: the CPU reads "
	       "the bytes");
	is_int(child_value(out, "gpu0", -1), 4 * MIB, "gh200: a CPU read "
	       "leaves the pages on gpu0 (hardware coherence)");
	is_int(child_value(out, "cpu", -1), 0, "gh200: nothing came to the "
	       "host");
	ok(child_value(out, "remote", 0) > 0, "gh200: the reads are counted "
	   "as remote accesses (%lld)", child_value(out, "remote", 0));
	is_int(child_value(out, "cpu_faults", -1),
	       child_value(out, "faults_before", -2), "gh200: the reads "
	       "count no CPU fault");
	is_int(child_value(out, "gpu0_after", -1), 4 * MIB, "gh200: a second "
	       "read leaves them too");
	is_int(child_value(out, "counted_gpu0", -1), 4 * MIB, "gh200: "
	       "access-counter migration is on: gpu0's remote reads of "
	       "accessed-by data bring it to gpu0");
	unlink(out);

	snprintf(out, sizeof out, "%s/paradigms-default.out", tmp);
	is_int(run_on("", out), 0, "default machine: the child runs");
	is_int(child_value(out, "before_gpu0", -1), 4 * MIB,
	       "default: prefetched to gpu0");
	is_int(child_value(out, "sum", -1), 7 * 1024, "default: the CPU reads "
	       "the bytes");
	is_int(child_value(out, "gpu0", -1), 0, "default: a CPU read "
	       "migrates the pages off gpu0 (software coherence)");
	is_int(child_value(out, "cpu", -1), 4 * MIB, "default: they are on "
	       "the host");
	is_int(child_value(out, "remote", -1), 0, "default: no remote access");
	ok(child_value(out, "cpu_faults", 0) >
	   child_value(out, "faults_before", 0), "default: the reads count "
	   "CPU faults");
	is_int(child_value(out, "counted_gpu0", -1), 0, "default: "
	       "access-counter migration is off: the data stays on the host");
	unlink(out);
}

int main(int argc, char **argv)
{
	const char *role = child_role(argc, argv);

	if (role && !strcmp(role, "cpu_read"))
		return cpu_read_role();
	if (role)
		return 2;
	if (RUNNING_ON_VALGRIND || getenv("CUEMU_NO_FAULTS")) {
		printf("ok %d - paradigms # SKIP real faults are off\n",
		       ++tap_n);
		return done_testing();
	}
	test_cpu_read();
	return done_testing();
}
