/*
 * test_kernel.c - the kernel model through the public API, read back in
 * /cu: a kernel's GPU faults are the driver's fault entries (one a 4 KiB
 * page it touches that was not on its GPU), its faults bring 64 KiB big
 * pages grown to the 2 MiB block, an emulated kernel and a declared
 * footprint make the same decisions, thrashing shows in the counters, and
 * access counters (on in this test's topology, off by default) migrate
 * what a GPU keeps reading remotely.
 * The costs are bench/'s ("model vs H200"), never asserted here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cuda.h"
#include "cuemu.h"
#include "tap.h"
#include "ctl_alloc.h"

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

#define KIB (1ULL << 10)
#define MIB (1ULL << 20)

static CUstream s0;

static CUmemLocation dev(int d)
{
	return (CUmemLocation){ CU_MEM_LOCATION_TYPE_DEVICE, d };
}

static const CUmemLocation host = { CU_MEM_LOCATION_TYPE_HOST, 0 };

struct touch {
	volatile char *p;
	size_t n, stride;
};

static void touch_fn(void *arg)
{
	struct touch *t = arg;

	for (size_t i = 0; i < t->n; i += t->stride)
		t->p[i] += 1;
}

/* n bytes of managed memory, resident on the host. */
static CUdeviceptr on_host(size_t n)
{
	CUdeviceptr p = 0;

	cuMemAllocManaged(&p, n, CU_MEM_ATTACH_GLOBAL);
	memset((void *)p, 1, n);
	cuCtxSynchronize();
	return p;
}

static void kernel(CUdeviceptr p, size_t n, size_t stride)
{
	struct touch t = { (volatile char *)p, n, stride };

	cuemuLaunchHostFunc(s0, touch_fn, &t);
	cuStreamSynchronize(s0);
}

static void test_entries(void)
{
	CUdeviceptr p;

	p = on_host(4 * MIB);
	kernel(p, 4 * MIB, 4 * KIB);
	is_int(cu_int(p, "counters", "gpu_faults"), 1024, "entries: a kernel "
	       "touching every 4 KiB of 4 MiB on the host takes 1024 GPU "
	       "faults, one a page, as the driver's fault buffer holds them");
	is_int(cu_int(p, "residency", "gpu0"), 4 * MIB,
	       "entries: and the 4 MiB are on gpu0");
	cuMemFree(p);

	p = on_host(4 * MIB);
	kernel(p, 4 * MIB, 64 * KIB);
	is_int(cu_int(p, "counters", "gpu_faults"), 64, "entries: one touch "
	       "every 64 KiB takes 64");
	is_int(cu_int(p, "residency", "gpu0"), 4 * MIB, "growth: yet the "
	       "prefetch heuristic brought both 2 MiB blocks whole");
	cuMemFree(p);

	p = on_host(4 * MIB);
	kernel(p, 100 * KIB, 4 * KIB);
	is_int(cu_int(p, "residency", "gpu0"), 128 * KIB, "growth: touching "
	       "the first 100 KiB of a block brings 128 KiB: two big pages, "
	       "the aligned region they fill");
	cuMemFree(p);

	p = on_host(4 * MIB);
	cuemuAccess(s0, p, 4 * MIB, CUEMU_ACCESS_READ | CUEMU_ACCESS_WRITE);
	cuStreamSynchronize(s0);
	is_int(cu_int(p, "counters", "gpu_faults"), 1024, "one model: a "
	       "declared footprint of the same 4 MiB takes the same 1024");
	is_int(cu_int(p, "residency", "gpu0"), 4 * MIB,
	       "one model: and leaves it in the same place");
	cuMemFree(p);
}

static void test_policy(void)
{
	CUdeviceptr p;

	/* Preferred on the host, touched first by gpu0: populated on the
	 * host, gpu0 maps it. */
	cuMemAllocManaged(&p, 4 * MIB, CU_MEM_ATTACH_GLOBAL);
	cuMemAdvise(p, 4 * MIB, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, host);
	kernel(p, 4 * MIB, 4 * KIB);
	ok(cu_int(p, "residency", "cpu") == 4 * MIB &&
	   cu_int(p, "residency", "gpu0") == 0, "first touch: at the "
	   "preferred location, the host, not on the faulting gpu0");
	cuMemFree(p);

	/* Preferred on gpu1, on the host: gpu0's touch sends it to gpu1. */
	p = on_host(4 * MIB);
	cuMemAdvise(p, 4 * MIB, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, dev(1));
	cuemuAccess(s0, p, 4 * MIB, CUEMU_ACCESS_READ);
	cuStreamSynchronize(s0);
	ok(cu_int(p, "residency", "gpu1") == 4 * MIB &&
	   cu_int(p, "residency", "gpu0") == 0, "away from its preferred "
	   "location: a gpu0 fault migrates it to gpu1, mapped from gpu0");
	cuMemFree(p);
}

static void test_thrash(void)
{
	CUdeviceptr p = on_host(64 * KIB);
	long long before = cu_int(p, "counters", "thrash");

	for (int i = 0; i < 16; i++) {
		cuemuAccess(s0, p, 64 * KIB, CUEMU_ACCESS_WRITE);
		cuStreamSynchronize(s0);
		((volatile char *)p)[0] = (char)i;
	}
	ok(before == 0 && cu_int(p, "counters", "thrash") == 1, "thrash: a "
	   "block bounced between gpu0 and the CPU within the lapse is "
	   "throttled, then pinned once (counter %lld)",
	   cu_int(p, "counters", "thrash"));
	ok(cu_int(p, "residency", "cpu") == 64 * KIB, "thrash: pinned on the "
	   "host, which both reach");
	cuMemFree(p);
}

static void test_access_counters(void)
{
	CUdeviceptr p = on_host(4 * MIB);

	cuMemAdvise(p, 4 * MIB, CU_MEM_ADVISE_SET_ACCESSED_BY, dev(0));
	cuemuAccess(s0, p, 4 * MIB, CUEMU_ACCESS_READ);
	cuStreamSynchronize(s0);
	is_int(cu_int(p, "residency", "gpu0"), 4 * MIB, "access counters: "
	       "on, gpu0's remote reads of accessed-by data move it to gpu0 "
	       "(off by default, it stays: test_managed)");
	cuMemFree(p);
	p = on_host(4 * MIB);
	cuMemAdvise(p, 4 * MIB, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, host);
	cuMemAdvise(p, 4 * MIB, CU_MEM_ADVISE_SET_ACCESSED_BY, dev(0));
	cuemuAccess(s0, p, 4 * MIB, CUEMU_ACCESS_READ);
	cuStreamSynchronize(s0);
	is_int(cu_int(p, "residency", "cpu"), 4 * MIB, "access counters: a "
	       "preferred location on the host keeps it there");
	cuMemFree(p);
}

/* This test's machine: the default one with access counters on. */
static int topology(void)
{
	static char path[512];
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	FILE *f;

	snprintf(path, sizeof path, "%s/test_kernel-%d.json", dir, (int)getpid());
	if (!(f = fopen(path, "w")))
		return -1;
	fputs("{\"uvm\": {\"access_counters\": true}}\n", f);
	if (fclose(f) != 0)
		return -1;
	return setenv("CUEMU_TOPOLOGY", path, 1);
}

int main(void)
{
	CUcontext c;
	int topo = topology();

	if (topo < 0)
		return 1;
	/* The machine takes its topology when cuInit creates it. */
	topo = cuInit(0);
	unlink(getenv("CUEMU_TOPOLOGY"));
	if (topo || cuDevicePrimaryCtxRetain(&c, 0) || cuCtxSetCurrent(c) ||
	    cuStreamCreate(&s0, CU_STREAM_NON_BLOCKING))
		return 1;
	if (RUNNING_ON_VALGRIND || getenv("CUEMU_NO_FAULTS")) {
		printf("ok %d - kernel model # SKIP real faults are off\n",
		       ++tap_n);
		return done_testing();
	}
	if (!ok(ctl_open() == 0, "the control socket answers"))
		return done_testing();
	test_entries();
	test_policy();
	test_thrash();
	test_access_counters();
	close(ctl_fd);
	cuStreamDestroy(s0);
	cuDevicePrimaryCtxRelease(0);
	return done_testing();
}
