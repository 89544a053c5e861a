/*
 * test_topologies.c - every shipped topology (topologies/, installed under
 * $(datadir)/cuemu/topologies; cuemu-topology(5)) boots by its name: the
 * devices, NUMA nodes and links it declares, every device usable, and the
 * device attributes of its unified-memory paradigm as the CUDA
 * Programming Guide gives them. Each runs in a process of its own
 * (spawn.h) on a machine of its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda.h"
#include "spawn.h"
#include "tap.h"

static char dir[160];

/* Child: what the machine is, one "key value" a line. */
static int describe(void)
{
	int n = 0, v, peer = -1;
	CUcontext c;
	CUdeviceptr p;
	static const struct { const char *key; CUdevice_attribute a; } at[] = {
		{ "pageable", CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS },
		{ "host_page_tables",
		  CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES },
		{ "direct_managed",
		  CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST },
		{ "host_atomics", CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED },
		{ "concurrent", CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS },
		{ "numa_config", CU_DEVICE_ATTRIBUTE_NUMA_CONFIG },
		{ "cc_major", CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR },
	};

	v = (int)cuInit(0);
	printf("init %d\n", v);
	if (v != CUDA_SUCCESS)
		return 0;
	if (cuDeviceGetCount(&n))
		return 2;
	printf("count %d\n", n);
	for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
		int same = 1, v0 = -1;

		for (int d = 0; d < n; d++) {
			if (cuDeviceGetAttribute(&v, at[i].a, d))
				return 3;
			if (d == 0)
				v0 = v;
			same &= v == v0;
		}
		printf("%s %d\nall_%s %d\n", at[i].key, v0, at[i].key, same);
	}
	if (n > 1)
		cuDeviceCanAccessPeer(&peer, 0, n - 1);
	printf("peer %d\n", peer);
	/* The last device takes an allocation, and shows it. */
	if (cuDevicePrimaryCtxRetain(&c, n - 1) || cuCtxSetCurrent(c) ||
	    cuMemAlloc(&p, 1 << 20))
		return 4;
	{
		size_t fr, tot;

		cuMemGetInfo(&fr, &tot);
		printf("last_used %llu\n", (unsigned long long)(tot - fr));
	}
	cuMemFree(p);
	return 0;
}

struct want {
	const char *name;
	int count, paradigm; /* 0 software, 1 hmm, 2 hardware */
	int peer, cc;
};

static void boots(const struct want *w)
{
	char e1[200], e2[300], e3[200], out[200];
	char *env[] = { e1, e2, e3, NULL };
	int hmm = w->paradigm > 0, hw = w->paradigm == 2;

	snprintf(e1, sizeof e1, "CUEMU_TOPOLOGY=%s", w->name);
	snprintf(e2, sizeof e2, "CUEMU_TOPOLOGY_DIR=%s", dir);
	snprintf(e3, sizeof e3, "CUEMU_MACHINE=%s-%s", getenv("CUEMU_MACHINE"),
		 w->name);
	snprintf(out, sizeof out, "%s/%s.out", getenv("TMPDIR") ?
		 getenv("TMPDIR") : "/tmp", w->name);
	is_int(run_self("describe", env, out, NULL, 60), 0,
	       "%s: a process runs on it, by its name", w->name);
	is_int(child_value(out, "init", -1), CUDA_SUCCESS, "%s: cuInit",
	       w->name);
	is_int(child_value(out, "count", -1), w->count, "%s: %d GPUs",
	       w->name, w->count);
	is_int(child_value(out, "pageable", -1), hmm,
	       "%s: PAGEABLE_MEMORY_ACCESS %d", w->name, hmm);
	is_int(child_value(out, "host_page_tables", -1), hw,
	       "%s: PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES %d", w->name,
	       hw);
	is_int(child_value(out, "direct_managed", -1), hw,
	       "%s: DIRECT_MANAGED_MEM_ACCESS_FROM_HOST %d", w->name, hw);
	is_int(child_value(out, "host_atomics", -1), hw,
	       "%s: HOST_NATIVE_ATOMIC_SUPPORTED %d", w->name, hw);
	is_int(child_value(out, "concurrent", -1), 1,
	       "%s: CONCURRENT_MANAGED_ACCESS 1", w->name);
	is_int(child_value(out, "numa_config", -1), hw,
	       "%s: NUMA_CONFIG %s", w->name, hw ? "NUMA_NODE: GPU memory is "
	       "a NUMA node" : "NONE");
	ok(child_value(out, "all_pageable", 0) &&
	   child_value(out, "all_host_page_tables", 0) &&
	   child_value(out, "all_direct_managed", 0),
	   "%s: every GPU answers the same", w->name);
	is_int(child_value(out, "cc_major", -1), w->cc,
	       "%s: compute capability %d", w->name, w->cc);
	is_int(child_value(out, "peer", -2), w->peer,
	       "%s: gpu0 and the last GPU %s peers", w->name,
	       w->peer == 1 ? "are" : w->peer == 0 ? "are not" : "(one GPU)");
	ok(child_value(out, "last_used", 0) >= (1 << 20),
	   "%s: the last GPU takes an allocation", w->name);
	unlink(out);
}

int main(int argc, char **argv)
{
	static const struct want all[] = {
		{ "dgx-h200", 8, 0, 1, 9 },
		{ "dgx-h100", 8, 0, 1, 9 },
		{ "gh200", 1, 2, -1, 9 },
		{ "gh200-nvl4", 4, 2, 1, 9 },
		{ "gb200-nvl72", 72, 2, 1, 10 },
		{ "pcie-4x-h100", 4, 0, 1, 9 },
		{ "hmm-2x-h100", 2, 1, 1, 9 },
	};
	const char *role = child_role(argc, argv);
	const char *src = getenv("top_srcdir");

	if (role && !strcmp(role, "describe"))
		return describe();
	snprintf(dir, sizeof dir, "%s/topologies", src ? src : ".");
	if (dir[0] != '/') {
		char cwd[4096];

		if (getcwd(cwd, sizeof cwd)) {
			char tmp[160];

			snprintf(tmp, sizeof tmp, "%s", dir);
			snprintf(dir, sizeof dir, "%.100s/%.50s", cwd, tmp);
		}
	}
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		boots(&all[i]);
	{
		char e1[] = "CUEMU_TOPOLOGY=no-such-machine", e2[200];
		char *env[] = { e1, e2, NULL };
		char out[200];

		snprintf(e2, sizeof e2, "CUEMU_TOPOLOGY_DIR=%s", dir);
		snprintf(out, sizeof out, "%s/none.out", getenv("TMPDIR") ?
			 getenv("TMPDIR") : "/tmp");
		is_int(run_self("describe", env, out, NULL, 60), 0,
		       "a name that is no shipped topology");
		is_int(child_value(out, "init", -1), CUDA_ERROR_NO_DEVICE,
		       "... cuInit answers NO_DEVICE");
		unlink(out);
	}
	return done_testing();
}
