/*
 * test_paradigms.c - what the unified-memory paradigms do beyond their
 * device attributes, each in a process of its own on its machine (spawn.h):
 * on a hardware-coherent machine (the shipped gh200) the CPU reads managed
 * memory resident on a GPU in place, counted as remote accesses, where the
 * default software-coherent machine faults it back to the host; and
 * access-counter migration is on there by default; and the CPU's remote
 * accesses cost their bytes over the C2C link, on the accessing thread's
 * clock.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <jansson.h>

#include "cuda.h"
#include "cuemu.h"
#include "tap.h"
#include "ctl_alloc.h"
#include "spawn.h"

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

#define MIB (1ULL << 20)
#define CUEMU_TEST_ALIGN_DOWN(x) ((x) & ~(uintptr_t)4095)

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

/* The host's model time: a new stream starts there. */
static unsigned long long host_now(void)
{
	unsigned long long t = 0;
	CUstream x;

	if (cuStreamCreate(&x, CU_STREAM_NON_BLOCKING))
		return 0;
	cuemuStreamGetTime(x, &t);
	cuStreamDestroy(x);
	return t;
}

/* The child: 16 MiB of managed memory prefetched to gpu0; the CPU reads
 * a byte a page of 4 MiB, then of the next 8 MiB, then writes a byte a
 * page of the last 4 MiB: the host's model time each took. */
static int remote_cost_role(void)
{
	CUmemLocation gpu0 = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
	volatile unsigned char *b;
	unsigned long long t0, t1, t2, t3;
	CUdeviceptr p = 0;
	unsigned sum = 0;
	CUcontext c;
	CUstream s;
	void *h;
	size_t i;

	if (cuInit(0) || cuDevicePrimaryCtxRetain(&c, 0) || cuCtxSetCurrent(c) ||
	    cuMemAllocManaged(&p, 16 * MIB, CU_MEM_ATTACH_GLOBAL) ||
	    ctl_open() != 0)
		return 1;
	b = (volatile unsigned char *)p;
	memset((void *)p, 3, 16 * MIB);
	if (cuMemPrefetchAsync_v2(p, 16 * MIB, gpu0, 0, NULL) ||
	    cuCtxSynchronize())
		return 1;
	t0 = host_now();
	for (i = 0; i < 4 * MIB; i += 4096)
		sum += b[i];
	t1 = host_now();
	for (i = 4 * MIB; i < 12 * MIB; i += 4096)
		sum += b[i];
	t2 = host_now();
	for (i = 12 * MIB; i < 16 * MIB; i += 4096)
		b[i] = 5;
	t3 = host_now();
	printf("sum %u\n", sum);
	printf("read4 %llu\nread8 %llu\nwrite4 %llu\nend %llu\n", t1 - t0,
	       t2 - t1, t3 - t2, t3);
	printf("gpu0 %lld\n", cu_int(p, "residency", "gpu0"));
	/* A copy out of it to pinned memory: the CPU's access too. */
	if (cuMemAllocHost(&h, 4 * MIB) ||
	    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) ||
	    cuemuStreamGetTime(s, &t0) || cuMemcpyAsync((CUdeviceptr)h, p,
							  4 * MIB, s) ||
	    cuStreamSynchronize(s) || cuemuStreamGetTime(s, &t1))
		return 1;
	printf("copy %llu\n", t1 - t0);
	printf("gpu0_after_copy %lld\n", cu_int(p, "residency", "gpu0"));
	/* The same copy with the bytes on the host. */
	if (cuMemPrefetchAsync_v2(p, 4 * MIB, (CUmemLocation){
			CU_MEM_LOCATION_TYPE_HOST, 0 }, 0, s) ||
	    cuStreamSynchronize(s) || cuemuStreamGetTime(s, &t0) ||
	    cuMemcpyAsync((CUdeviceptr)h, p, 4 * MIB, s) ||
	    cuStreamSynchronize(s) || cuemuStreamGetTime(s, &t1))
		return 1;
	printf("copy_host %llu\n", t1 - t0);
	cuStreamDestroy(s);
	cuMemFreeHost(h);
	cuMemFree(p);
	close(ctl_fd);
	return 0;
}

/* The child: a kernel on gpu0 streams 64 MiB of host memory it maps
 * (preferred location the host, accessed by gpu0): its model time. */
static int remote_kernel_role(void)
{
	CUmemLocation gpu0 = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
	CUmemLocation cpu = { CU_MEM_LOCATION_TYPE_HOST, 0 };
	unsigned long long t0 = 0, t1 = 0;
	CUdeviceptr p = 0;
	CUcontext c;
	CUstream s;

	if (cuInit(0) || cuDevicePrimaryCtxRetain(&c, 0) || cuCtxSetCurrent(c) ||
	    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) ||
	    cuMemAllocManaged(&p, 64 * MIB, CU_MEM_ATTACH_GLOBAL) ||
	    ctl_open() != 0)
		return 1;
	memset((void *)p, 1, 64 * MIB);
	if (cuMemAdvise_v2(p, 64 * MIB, CU_MEM_ADVISE_SET_PREFERRED_LOCATION,
			   cpu) ||
	    cuMemAdvise_v2(p, 64 * MIB, CU_MEM_ADVISE_SET_ACCESSED_BY, gpu0) ||
	    cuemuStreamGetTime(s, &t0) ||
	    cuemuAccess(s, p, 64 * MIB, CUEMU_ACCESS_READ) ||
	    cuStreamSynchronize(s) || cuemuStreamGetTime(s, &t1))
		return 1;
	printf("kernel %llu\n", t1 - t0);
	printf("cpu %lld\n", cu_int(p, "residency", "cpu"));
	cuMemFree(p);
	cuStreamDestroy(s);
	close(ctl_fd);
	return 0;
}

/* The id of the allocation of kind "system" based at base, or 0. */
static unsigned long long system_id(uintptr_t base)
{
	static char buf[1 << 16];
	unsigned long long id = 0;
	json_t *root, *ids;
	size_t i;

	if (!*ctl(buf, sizeof buf, "{\"op\":\"get\",\"path\":\"allocations\"}"))
		return 0;
	root = json_loads(buf, 0, NULL);
	ids = json_object_get(root, "value");
	for (i = 0; ids && i < json_array_size(ids) && !id; i++) {
		json_int_t n = json_integer_value(json_array_get(ids, i));
		json_t *ans, *v, *k, *b;

		if (!*ctl(buf, sizeof buf, "{\"op\":\"get\",\"path\":"
			  "\"allocations/%lld\"}", (long long)n))
			continue;
		ans = json_loads(buf, 0, NULL);
		v = json_object_get(ans, "value");
		k = json_object_get(v, "kind");
		b = json_object_get(v, "base");
		if (json_is_string(k) && !strcmp(json_string_value(k), "system") &&
		    json_is_string(b) &&
		    strtoull(json_string_value(b), NULL, 0) == base)
			id = (unsigned long long)n;
		json_decref(ans);
	}
	json_decref(root);
	return id;
}

/* /cu's value k1 (k1.k2 where k2 is not NULL) of allocation id, or -1. */
static long long id_int(unsigned long long id, const char *k1, const char *k2)
{
	static char buf[1 << 16];
	json_t *ans, *v;
	long long n = -1;

	if (!*ctl(buf, sizeof buf, "{\"op\":\"get\",\"path\":"
		  "\"allocations/%llu\"}", id))
		return -1;
	ans = json_loads(buf, 0, NULL);
	v = json_object_get(json_object_get(ans, "value"), k1);
	if (k2)
		v = json_object_get(v, k2);
	if (json_is_integer(v))
		n = json_integer_value(v);
	else if (json_is_object(json_object_get(json_object_get(ans, "value"),
						k1)))
		n = 0; /* nothing there: /cu leaves the processor out */
	json_decref(ans);
	return n;
}

/* A child's start: cuInit, device 0's primary context current, a stream
 * of its own and the process's control socket. 0, or -1. */
static int child_start(CUstream *s)
{
	CUcontext c;

	if (cuInit(0) || cuDevicePrimaryCtxRetain(&c, 0) || cuCtxSetCurrent(c) ||
	    cuStreamCreate(s, CU_STREAM_NON_BLOCKING) || ctl_open() != 0)
		return -1;
	return 0;
}

/* The child: 4 MiB from mmap and a malloc'd buffer given to advice,
 * prefetch, range attributes and cuemuAccess; prints the answers and what
 * /cu shows. */
static int system_role(void)
{
	CUmemLocation gpu0 = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
	CUmemLocation gpu1 = { CU_MEM_LOCATION_TYPE_DEVICE, 1 };
	static char buf[1 << 16];
	CUstream s;
	char *m, *h;
	int v = -7, pageable = -1;
	unsigned long long id;
	CUresult r;

	if (child_start(&s) != 0)
		return 1;
	cuDeviceGetAttribute(&pageable, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS,
			     0);
	printf("pageable %d\n", pageable);
	m = mmap(NULL, 4 * MIB, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	h = malloc(100000);
	if (m == MAP_FAILED || !h)
		return 1;
	memset(m, 3, 4 * MIB);
	printf("advise %d\n", (int)cuMemAdvise_v2((CUdeviceptr)m, 4 * MIB,
		CU_MEM_ADVISE_SET_PREFERRED_LOCATION, gpu0));
	r = cuMemRangeGetAttribute(&v, sizeof v,
		CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, (CUdeviceptr)m, 4 * MIB);
	printf("rangeattr %d\n", (int)r);
	printf("preferred %d\n", v);
	printf("prefetch %d\n", (int)cuMemPrefetchAsync_v2((CUdeviceptr)m,
		2 * MIB, gpu0, 0, s));
	cuStreamSynchronize(s);
	id = system_id((uintptr_t)m);
	printf("listed %d\n", id != 0);
	printf("gpu0 %lld\n", id_int(id, "residency", "gpu0"));
	printf("bytes %d\n", m[12345] == 3 && m[3 * MIB] == 3);
	/* Steered through /cu: the first 2 MiB to the host. */
	ctl(buf, sizeof buf, "{\"op\":\"set\",\"path\":\"allocations/%llu/"
	    "ranges/0x%lx-0x%lx/prefetch\",\"value\":\"cpu\"}", id,
	    (unsigned long)m, (unsigned long)(m + 2 * MIB));
	printf("steered_gpu0 %lld\n", id_int(id, "residency", "gpu0"));
	printf("steered_cpu %lld\n", id_int(id, "residency", "cpu"));
	/* cuemuAccess from gpu0 over the malloc'd buffer: first touch. */
	printf("access %d\n", (int)cuemuAccess(s, (CUdeviceptr)h, 100000,
						CUEMU_ACCESS_WRITE));
	cuStreamSynchronize(s);
	id = system_id(CUEMU_TEST_ALIGN_DOWN((uintptr_t)h));
	printf("heap_gpu0 %lld\n", id ? id_int(id, "residency", "gpu0") : -1);
	{
		/* A prefetch batch takes it too: back to the host. */
		CUdeviceptr d = (CUdeviceptr)h;
		size_t n = 100000, idx = 0;
		CUmemLocation cpu = { CU_MEM_LOCATION_TYPE_HOST, 0 };

		printf("batch %d\n", (int)cuMemPrefetchBatchAsync(&d, &n, 1,
			&cpu, &idx, 1, 0, s));
		cuStreamSynchronize(s);
		printf("heap_gpu0_after %lld\n",
		       id ? id_int(id, "residency", "gpu0") : -1);
	}
	/* Memory the process has not mapped stays refused. */
	printf("unmapped %d\n", (int)cuMemAdvise_v2((CUdeviceptr)4096, 4096,
		CU_MEM_ADVISE_SET_READ_MOSTLY, gpu1));
	munmap(m, 4 * MIB);
	free(h);
	cuStreamDestroy(s);
	close(ctl_fd);
	return 0;
}

/* The child: registrations follow the memory. Advice over 1 MiB, then
 * over a span that overlaps it and runs on: one registration over both,
 * the first's advice and residency kept. Then the memory unmapped and a
 * smaller mapping made in its place: the old registration is dropped and
 * what it held on gpu0 given back. */
static int rejoin_role(void)
{
	CUmemLocation gpu0 = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
	CUstream s;
	char *m, *m2;
	int v = -7;
	unsigned long long id1, id2, id3;
	size_t free0, free1, free2, total;

	if (child_start(&s) != 0)
		return 1;
	m = mmap(NULL, 8 * MIB, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return 1;
	cuMemGetInfo(&free0, &total);
	printf("advise1 %d\n", (int)cuMemAdvise_v2((CUdeviceptr)m, MIB,
		CU_MEM_ADVISE_SET_PREFERRED_LOCATION, gpu0));
	printf("prefetch1 %d\n", (int)cuMemPrefetchAsync_v2((CUdeviceptr)m,
		MIB, gpu0, 0, s));
	cuStreamSynchronize(s);
	id1 = system_id((uintptr_t)m);
	cuMemGetInfo(&free1, &total);
	printf("charged %lld\n", (long long)free0 - (long long)free1);
	printf("advise_wider %d\n", (int)cuMemAdvise_v2((CUdeviceptr)(m +
		MIB / 2), 3 * MIB, CU_MEM_ADVISE_SET_READ_MOSTLY, gpu0));
	id2 = system_id((uintptr_t)m);
	printf("joined_new_id %d\n", id1 && id2 && id2 != id1);
	printf("old_id_gone %d\n", id_int(id1, "residency", "gpu0") < 0);
	printf("joined_size %lld\n", id_int(id2, "size", NULL));
	printf("joined_gpu0 %lld\n", id_int(id2, "residency", "gpu0"));
	cuMemRangeGetAttribute(&v, sizeof v,
		CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, (CUdeviceptr)m, MIB);
	printf("joined_preferred %d\n", v);
	v = -7;
	cuMemRangeGetAttribute(&v, sizeof v, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY,
			       (CUdeviceptr)(m + MIB), MIB);
	printf("joined_read_mostly %d\n", v);
	munmap(m, 8 * MIB);
	m2 = mmap(m, MIB, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	printf("remapped %d\n", m2 == m);
	printf("advise_fresh %d\n", (int)cuMemAdvise_v2((CUdeviceptr)m, MIB,
		CU_MEM_ADVISE_SET_READ_MOSTLY, gpu0));
	id3 = system_id((uintptr_t)m);
	printf("fresh_new_id %d\n", id3 && id3 != id2);
	printf("fresh_gpu0 %lld\n", id_int(id3, "residency", "gpu0"));
	cuMemGetInfo(&free2, &total);
	printf("given_back %lld\n", (long long)free2 - (long long)free1);
	munmap(m2, MIB);
	cuStreamDestroy(s);
	close(ctl_fd);
	return 0;
}

/* The child, on two 16 MiB GPUs with HMM: 12 MiB of mmap memory
 * prefetched to gpu0, then 8 MiB of device memory asked of gpu0. */
static int sysevict_role(void)
{
	CUmemLocation gpu0 = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
	CUstream s;
	CUdeviceptr d = 0;
	size_t free0, total;
	char *m;
	unsigned long long id;

	if (child_start(&s) != 0)
		return 1;
	m = mmap(NULL, 12 * MIB, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return 1;
	printf("prefetch %d\n", (int)cuMemPrefetchAsync_v2((CUdeviceptr)m,
		12 * MIB, gpu0, 0, s));
	cuStreamSynchronize(s);
	id = system_id((uintptr_t)m);
	printf("on_gpu0 %lld\n", id_int(id, "residency", "gpu0"));
	printf("alloc %d\n", (int)cuMemAlloc(&d, 8 * MIB));
	cuMemGetInfo(&free0, &total);
	printf("used %lld\n", (long long)(total - free0));
	printf("left_on_gpu0 %lld\n", id_int(id, "residency", "gpu0"));
	printf("evictions %lld\n", id_int(id, "counters", "evictions"));
	cuMemFree(d);
	munmap(m, 12 * MIB);
	cuStreamDestroy(s);
	close(ctl_fd);
	return 0;
}

/* Runs the child on machine name (a topology by name, or the default),
 * with one more variable set where extra is not NULL. */
static int run_on_with(const char *role, const char *topology,
		       const char *out, char *extra)
{
	char e1[PATH_MAX + 16], e2[PATH_MAX + 32], e3[200];
	char *env[] = { e1, e2, e3, extra, NULL };
	const char *src = getenv("top_srcdir");

	snprintf(e1, sizeof e1, "CUEMU_TOPOLOGY=%s", topology);
	snprintf(e2, sizeof e2, "CUEMU_TOPOLOGY_DIR=%s/topologies",
		 src ? src : ".");
	/* A machine per role and topology: a machine's shape is its first
	 * process's, so two topology files must not share one. */
	snprintf(e3, sizeof e3, "CUEMU_MACHINE=%s-%s-%s",
		 getenv("CUEMU_MACHINE") ? getenv("CUEMU_MACHINE") : "cuemu",
		 role, !*topology ? "default" :
		 strchr(topology, '/') ? "file" : topology);
	return run_self(role, env, out, NULL, 60);
}

static int run_on(const char *role, const char *topology, const char *out)
{
	return run_on_with(role, topology, out, NULL);
}

static void test_cpu_read(void)
{
	char out[PATH_MAX];
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

	snprintf(out, sizeof out, "%s/paradigms-gh200.out", tmp);
	is_int(run_on("cpu_read", "gh200", out), 0, "gh200: the child runs");
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
	is_int(run_on("cpu_read", "", out), 0, "default machine: the child runs");
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

/* The link key of shipped topology name, as its file gives it: the GB/s
 * in *gbps, and the model nanoseconds of one access of bytes (latency +
 * bytes / gbps), or -1. */
static long long link_ns(const char *name, const char *key, size_t bytes,
			 double *gbps)
{
	char path[PATH_MAX];
	const char *src = getenv("top_srcdir");
	json_t *t, *l;
	long long ns = -1;

	snprintf(path, sizeof path, "%s/topologies/%s.json",
		 src ? src : ".", name);
	if (!(t = json_load_file(path, 0, NULL)))
		return -1;
	l = json_object_get(json_object_get(t, "links"), key);
	if (json_is_number(json_object_get(l, "gbps"))) {
		*gbps = json_number_value(json_object_get(l, "gbps"));
		ns = json_integer_value(json_object_get(l, "latency_ns")) +
		     (long long)((double)bytes / *gbps);
	}
	json_decref(t);
	return ns;
}

static long long c2c_ns(const char *key, size_t bytes)
{
	double g;

	return link_ns("gh200", key, bytes, &g);
}

/* The CPU's remote access on a hardware-coherent machine costs its bytes
 * over C2C: each 64 KiB block it opens, the link's latency and the
 * block's bytes at its rate, on the CPU's clock; where the CPU faults
 * instead (the default machine) it costs more. */
static void test_remote_cost(void)
{
	char out[PATH_MAX];
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char rep[PATH_MAX], env[PATH_MAX + 32];
	json_t *r;
	long long rd = c2c_ns("gpu_to_host", 64 * 1024);
	long long wr = c2c_ns("host_to_gpu", 64 * 1024);
	long long r4, r8, w4, d4;

	ok(rd > 0 && wr > 0, "gh200.json: C2C links of %lld and %lld ns a "
	   "64 KiB block", rd, wr);
	snprintf(out, sizeof out, "%s/paradigms-cost-gh200.out", tmp);
	snprintf(rep, sizeof rep, "%s/paradigms-cost-gh200.json", tmp);
	snprintf(env, sizeof env, "CUEMU_REPORT=%s", rep);
	is_int(run_on_with("remote_cost", "gh200", out, env), 0,
	       "gh200: the remote-cost child runs");
	r4 = child_value(out, "read4", -1);
	r8 = child_value(out, "read8", -1);
	w4 = child_value(out, "write4", -1);
	is_int(child_value(out, "sum", -1), 3 * 3072, "gh200: the CPU read "
	       "the bytes");
	is_int(child_value(out, "gpu0", -1), 16 * MIB, "gh200: they stay on "
	       "gpu0, read and written in place");
	ok(r4 > 0, "gh200: a remote read costs model time (%lld ns for "
	   "4 MiB)", r4);
	ok(llabs(r4 - 64 * rd) <= 64, "gh200: 4 MiB read is 64 blocks over "
	   "C2C (%lld ns, %lld expected)", r4, 64 * rd);
	ok(llabs(r8 - 2 * r4) <= 128, "gh200: twice the bytes, twice the "
	   "time (%lld ns for 8 MiB)", r8);
	ok(llabs(w4 - 64 * wr) <= 64, "gh200: 4 MiB written is 64 blocks "
	   "over C2C to the GPU (%lld ns, %lld expected)", w4, 64 * wr);
	r = json_load_file(rep, 0, NULL);
	ok(json_integer_value(json_object_get(r, "model_time")) >=
	   child_value(out, "end", -1) && child_value(out, "end", -1) > 0,
	   "gh200: the process's model_time counts the thread's remote "
	   "accesses, the last thing it did (%lld ns)",
	   (long long)json_integer_value(json_object_get(r, "model_time")));
	json_decref(r);
	d4 = child_value(out, "copy", -1) - child_value(out, "copy_host", -1);
	ok(d4 >= c2c_ns("gpu_to_host", 4 * MIB) &&
	   d4 <= c2c_ns("gpu_to_host", 4 * MIB) + 1000,
	   "gh200: a copy of 4 MiB of it to pinned memory reads it over C2C: "
	   "%lld ns more than from the host, the link's %lld and a mapping",
	   d4, c2c_ns("gpu_to_host", 4 * MIB));
	is_int(child_value(out, "gpu0_after_copy", -1), 16 * MIB, "gh200: "
	       "in place: the copy moved nothing");
	unlink(rep);
	unlink(out);

	snprintf(out, sizeof out, "%s/paradigms-cost-default.out", tmp);
	is_int(run_on("remote_cost", "", out), 0,
	       "default machine: the remote-cost child runs");
	d4 = child_value(out, "read4", -1);
	is_int(child_value(out, "gpu0", -1), 0, "default: what the CPU "
	       "touched faulted to the host");
	ok(d4 > r4, "default: reading 4 MiB off gpu0 through CPU faults over "
	   "PCIe (%lld ns) costs more than over C2C (%lld ns)", d4, r4);
	unlink(out);
}

/* A kernel's stream of host memory it maps goes at the share of the host
 * link measured on the H200: on GH200's C2C as many times faster than on
 * the DGX's PCIe as the links are. */
static void test_remote_kernel(void)
{
	char out[PATH_MAX];
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	double g_gh = 0, g_dgx = 0, want;
	long long gh, dgx;

	int read = link_ns("gh200", "host_to_gpu", 0, &g_gh) >= 0 &&
		    link_ns("dgx-h200", "host_to_gpu", 0, &g_dgx) >= 0;

	ok(read && g_dgx > 0, "host links: gh200 %.1f GB/s, dgx-h200 %.1f "
	   "GB/s", g_gh, g_dgx);
	snprintf(out, sizeof out, "%s/paradigms-kernel-gh200.out", tmp);
	is_int(run_on("remote_kernel", "gh200", out), 0,
	       "gh200: the remote-kernel child runs");
	gh = child_value(out, "kernel", -1);
	is_int(child_value(out, "cpu", -1), 64 * MIB, "gh200: the kernel "
	       "read host memory in place");
	unlink(out);
	snprintf(out, sizeof out, "%s/paradigms-kernel-dgx.out", tmp);
	is_int(run_on("remote_kernel", "dgx-h200", out), 0,
	       "dgx-h200: the remote-kernel child runs");
	dgx = child_value(out, "kernel", -1);
	is_int(child_value(out, "cpu", -1), 64 * MIB, "dgx-h200: the "
	       "kernel read host memory in place");
	unlink(out);
	want = g_gh / g_dgx;
	ok(gh > 0 && dgx > gh, "the remote stream costs %lld ns on gh200, "
	   "%lld on dgx-h200", gh, dgx);
	ok(gh > 0 && fabs((double)dgx / (double)gh / want - 1) < 0.05,
	   "gh200 is faster by the ratio of the host links (%.2f, links "
	   "%.2f)", gh > 0 ? (double)dgx / (double)gh : 0, want);
}

/* A topology file of the default machine with HMM: its path. */
static const char *hmm_topology(void)
{
	static char path[PATH_MAX];
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	FILE *f;

	snprintf(path, sizeof path, "%s/hmm.json", dir);
	if (!(f = fopen(path, "w")))
		return "";
	fputs("{\"memory_model\": \"hmm\"}\n", f);
	fclose(f);
	return path;
}

/* System-allocated memory on machine topo (pageable: 1 where its
 * paradigm lets GPUs use it). */
static void test_system(const char *topo, int pageable)
{
	char out[PATH_MAX];
	const char *name = !*topo ? "default" : strchr(topo, '/') ? "hmm"
								 : topo;
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	int inval = CUDA_ERROR_INVALID_VALUE;

	snprintf(out, sizeof out, "%s/paradigms-sys-%s.out", tmp, name);
	is_int(run_on("system", topo, out), 0, "%s: the system child runs",
	       name);
	is_int(child_value(out, "pageable", -1), pageable,
	       "%s: PAGEABLE_MEMORY_ACCESS %d", name, pageable);
	is_int(child_value(out, "advise", -1), pageable ? 0 : inval,
	       "%s: cuMemAdvise on mmap memory %s", name,
	       pageable ? "is accepted" : "answers INVALID_VALUE");
	is_int(child_value(out, "rangeattr", -1), pageable ? 0 : inval,
	       "%s: cuMemRangeGetAttribute on it %s", name,
	       pageable ? "answers" : "answers INVALID_VALUE");
	is_int(child_value(out, "preferred", -1), pageable ? 0 : -7,
	       "%s: %s", name, pageable ? "its preferred location is gpu0"
	       : "nothing written");
	is_int(child_value(out, "prefetch", -1), pageable ? 0 : inval,
	       "%s: cuMemPrefetchAsync on it %s", name,
	       pageable ? "is accepted" : "answers INVALID_VALUE");
	is_int(child_value(out, "listed", -1), pageable,
	       "%s: /cu %s it as an allocation of kind system", name,
	       pageable ? "lists" : "does not list");
	is_int(child_value(out, "bytes", -1), 1, "%s: the bytes stay where "
	       "the process put them", name);
	is_int(child_value(out, "access", -1), pageable ? 0 : inval,
	       "%s: cuemuAccess on malloc memory %s", name,
	       pageable ? "is accepted" : "answers INVALID_VALUE");
	is_int(child_value(out, "unmapped", -1), inval, "%s: memory the "
	       "process has not mapped answers INVALID_VALUE", name);
	if (pageable) {
		is_int(child_value(out, "gpu0", -1), 2 * MIB, "%s: the "
		       "prefetched 2 MiB are on gpu0 in /cu", name);
		is_int(child_value(out, "steered_cpu", -1), 2 * MIB, "%s: a "
		       "prefetch to cpu written to /cu moves them", name);
		is_int(child_value(out, "steered_gpu0", -1), 0, "%s: off "
		       "gpu0", name);
		ok(child_value(out, "heap_gpu0", -1) >= 100000, "%s: the "
		   "malloc'd buffer a gpu0 access touched first is on gpu0 "
		   "(%lld)", name, child_value(out, "heap_gpu0", -1));
		is_int(child_value(out, "batch", -1), 0, "%s: "
		       "cuMemPrefetchBatchAsync takes it", name);
		is_int(child_value(out, "heap_gpu0_after", -1), 0, "%s: and "
		       "moves it off gpu0", name);
	}
	unlink(out);
}

/* Registrations follow the memory on an HMM machine. */
static void test_rejoin(void)
{
	char out[PATH_MAX];
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

	snprintf(out, sizeof out, "%s/paradigms-rejoin.out", tmp);
	is_int(run_on("rejoin", hmm_topology(), out), 0, "rejoin: the child "
	       "runs");
	is_int(child_value(out, "advise1", -1), 0, "advice over 1 MiB of mmap "
	       "memory");
	is_int(child_value(out, "charged", -1), MIB, "its prefetch to gpu0 "
	       "takes 1 MiB of gpu0");
	is_int(child_value(out, "advise_wider", -1), 0, "advice over a span "
	       "that overlaps it and runs on is accepted");
	is_int(child_value(out, "joined_new_id", -1), 1, "... one "
	       "registration over both, under a new id");
	is_int(child_value(out, "old_id_gone", -1), 1, "... the old id is "
	       "gone from /cu");
	is_int(child_value(out, "joined_size", -1), 3 * MIB + MIB / 2,
	       "... it spans the union, 3.5 MiB");
	is_int(child_value(out, "joined_gpu0", -1), MIB, "... the first "
	       "MiB is still on gpu0");
	is_int(child_value(out, "joined_preferred", -1), 0, "... and still "
	       "prefers gpu0");
	is_int(child_value(out, "joined_read_mostly", -1), 1, "... the new "
	       "advice holds on its own span");
	is_int(child_value(out, "remapped", -1), 1, "the memory unmapped, a "
	       "smaller mapping made in its place");
	is_int(child_value(out, "advise_fresh", -1), 0, "advice over the new "
	       "mapping is accepted");
	is_int(child_value(out, "fresh_new_id", -1), 1, "... a registration "
	       "of its own");
	is_int(child_value(out, "fresh_gpu0", -1), 0, "... fresh: nothing on "
	       "gpu0");
	is_int(child_value(out, "given_back", -1), MIB, "... and the 1 MiB "
	       "the unmapped memory held on gpu0 is given back");
	unlink(out);
}

/* System memory on a GPU is evicted like managed memory when the GPU
 * needs room. */
static void test_sysevict(void)
{
	char out[PATH_MAX], topo[PATH_MAX];
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	FILE *f;

	snprintf(topo, sizeof topo, "%s/hmm-small.json", tmp);
	f = fopen(topo, "w");
	ok(f != NULL, "sysevict: its topology written to %s", topo);
	if (!f)
		return;
	fputs("{\"memory_model\": \"hmm\", \"device_count\": 2, "
	      "\"devices\": [{\"name\": \"Small\", \"memory\": \"16M\"}]}\n",
	      f);
	fclose(f);
	snprintf(out, sizeof out, "%s/paradigms-sysevict.out", tmp);
	is_int(run_on("sysevict", topo, out), 0, "sysevict: the child runs");
	is_int(child_value(out, "prefetch", -1), 0, "12 MiB of mmap memory "
	       "prefetched to a 16 MiB gpu0");
	is_int(child_value(out, "on_gpu0", -1), 12 * MIB, "... all of it "
	       "is there");
	is_int(child_value(out, "alloc", -1), 0, "cuMemAlloc of 8 MiB on it "
	       "succeeds");
	is_int(child_value(out, "used", -1), 16 * MIB, "... gpu0 is full, "
	       "not over");
	is_int(child_value(out, "left_on_gpu0", -1), 8 * MIB, "... the "
	       "system memory made room: 4 MiB of it went to the host");
	is_int(child_value(out, "evictions", -1), 2, "... two 2 MiB blocks, "
	       "counted as evictions");
	unlink(out);
	unlink(topo);
}

int main(int argc, char **argv)
{
	const char *role = child_role(argc, argv);

	if (role && !strcmp(role, "cpu_read"))
		return cpu_read_role();
	if (role && !strcmp(role, "system"))
		return system_role();
	if (role && !strcmp(role, "remote_cost"))
		return remote_cost_role();
	if (role && !strcmp(role, "remote_kernel"))
		return remote_kernel_role();
	if (role && !strcmp(role, "rejoin"))
		return rejoin_role();
	if (role && !strcmp(role, "sysevict"))
		return sysevict_role();
	if (role)
		return 2;
	if (RUNNING_ON_VALGRIND || getenv("CUEMU_NO_FAULTS")) {
		printf("ok %d - paradigms # SKIP real faults are off\n",
		       ++tap_n);
		return done_testing();
	}
	test_cpu_read();
	test_remote_cost();
	test_remote_kernel();
	test_system("gh200", 1);
	test_system(hmm_topology(), 1);
	test_system("", 0);
	test_rejoin();
	test_sysevict();
	return done_testing();
}
