/*
 * test_machine.c - the emulated machine: the default topology, topology
 * files and their rejection, one machine shared by every process, and what
 * a killed process held given back.
 *
 * cuInit attaches a process to its machine once, so each case that needs a
 * different environment runs in a second run of this program (spawn.h, no
 * API after fork), which prints what it sees, a fact a line.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda.h"
#include "stacks.h"
#include "spawn.h"
#include "tap.h"

#define GIB (1ULL << 30)

static char machine[64], outfile[PATH_MAX];

/* Runs role in a second run of this program (spawn.h: no API after fork)
 * on the machine named name with topology topo (NULL: the default); its
 * stdout, "key value" lines, goes to outfile and its stderr to errfile
 * when given. The role's exit status, or -1. */
static int in_child(const char *name, const char *topo, const char *errfile,
		    const char *role)
{
	char m[128], t[PATH_MAX + 16];
	char *env[] = { m, topo ? t : "CUEMU_TOPOLOGY", "CUEMU_CONTROL=0", NULL };

	snprintf(m, sizeof m, "CUEMU_MACHINE=%s", name);
	snprintf(t, sizeof t, "CUEMU_TOPOLOGY=%s", topo ? topo : "");
	return run_self(role, env, outfile, errfile, 30);
}

/* Child roles print what they see, one "key value" line a fact; the
 * parent checks each on its own TAP line. */
static int shape(void)
{
	int n = -1, sm = -1;
	size_t total = 0;
	char name[64] = "";

	printf("init %d\n", (int)cuInit(0));
	printf("count_res %d\n", (int)cuDeviceGetCount(&n));
	printf("count %d\n", n);
	printf("total_last_res %d\n", (int)cuDeviceTotalMem(&total, n - 1));
	printf("total_last %llu\n", (unsigned long long)total);
	printf("name_res %d\n", (int)cuDeviceGetName(name, sizeof name, n - 1));
	printf("name_is_h200 %d\n", !strcmp(name, "NVIDIA H200"));
	printf("name_is_small %d\n", !strcmp(name, "Small GPU"));
	printf("sm_res %d\n", (int)cuDeviceGetAttribute(&sm,
		CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0));
	printf("sm %d\n", sm);
	return 0;
}

static long long val(const char *key)
{
	return child_value(outfile, key, -999);
}

static const char *write_file(const char *tag, const char *text)
{
	static char path[8][PATH_MAX];
	static int next;
	char *p = path[next++ % 8];
	FILE *f;

	snprintf(p, PATH_MAX, "%s/cuemu-test-%d-%s.json",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid(), tag);
	f = fopen(p, "w");
	fputs(text, f);
	fclose(f);
	return p;
}

static int contains(const char *file, const char *needle)
{
	char buf[2048] = "";
	FILE *f = fopen(file, "r");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	return strstr(buf, needle) != NULL;
}

static void remove_machine(const char *name)
{
	char path[128];

	snprintf(path, sizeof path, "/dev/shm/%s", name);
	unlink(path);
}

static void test_topologies(void)
{
	char m[96], err[PATH_MAX];
	const char *small = write_file("small",
		"{\"name\":\"two small\",\"device_count\":2,"
		"\"devices\":[{\"name\":\"Small GPU\",\"memory\":\"8G\","
		"\"attributes\":{\"multiprocessor_count\":40}}],"
		"\"links\":{\"gpu_gpu\":{\"kind\":\"pcie\",\"gbps\":25}},"
		"\"copies\":{\"pageable_to_gpu\":{\"gbps\":5,\"host_gbps\":4,"
		"\"host_latency_ns\":9000},\"memset\":{\"small_bytes\":65536,"
		"\"small_latency_ns\":1000}},"
		"\"uvm\":{\"access_counters\":true,\"fault_batch\":128,"
		"\"thrash_pin\":0}}");
	static const struct { const char *tag, *json, *needle; } bad[] = {
		{ "syntax", "{\"devices\": [", "line" },
		{ "memory", "{\"devices\":[{\"memory\":\"lots\"}]}",
		  "devices[0].memory" },
		{ "key", "{\"devcies\":[]}", "unknown key 'devcies'" },
		{ "count", "{\"device_count\":128}", "device_count" },
		{ "attr", "{\"devices\":[{\"attributes\":{\"warp\":1}}]}",
		  "devices[0].attributes.warp" },
		{ "link", "{\"links\":{\"gpu_gpu\":{\"kind\":\"wire\"}}}",
		  "links.gpu_gpu" },
		{ "pair", "{\"links\":{\"pairs\":[{\"from\":\"gpu9\",\"to\":\"cpu\"}]}}",
		  "links.pairs[0].from" },
		{ "copy rate", "{\"copies\":{\"memset\":{\"gbps\":0}}}",
		  "copies.memset.gbps" },
		{ "copy latency", "{\"copies\":{\"gpu_local\":{\"latency_ns\":2e9}}}",
		  "copies.gpu_local.latency_ns" },
		{ "copy kind", "{\"copies\":{\"pinned\":{}}}",
		  "unknown key 'pinned'" },
		{ "copy host time", "{\"copies\":{\"gpu_local\":{\"host_gbps\":5}}}",
		  "unknown key 'host_gbps'" },
		{ "peer copy rate", "{\"copies\":{\"gpu_to_gpu\":{\"gbps\":0}}}",
		  "copies.gpu_to_gpu.gbps" },
		{ "peer copy without a rate",
		  "{\"copies\":{\"gpu_to_gpu\":{\"latency_ns\":100}}}",
		  "copies.gpu_to_gpu" },
		{ "uvm peer rate", "{\"uvm\":{\"remote_peer_gbps\":0}}",
		  "uvm.remote_peer_gbps" },
		{ "uvm read requests", "{\"uvm\":{\"remote_host_read_mrps\":0}}",
		  "uvm.remote_host_read_mrps" },
		{ "uvm host write rate",
		  "{\"uvm\":{\"remote_host_write_gbps\":-1}}",
		  "uvm.remote_host_write_gbps" },
		{ "uvm launch", "{\"uvm\":{\"launch_ns\":2e9}}",
		  "uvm.launch_ns" },
		{ "uvm block launch", "{\"uvm\":{\"block_launch_ns\":-5}}",
		  "uvm.block_launch_ns" },
		{ "uvm init", "{\"uvm\":{\"init_ns\":2e10}}", "uvm.init_ns" },
		{ "uvm init a device", "{\"uvm\":{\"init_device_ns\":-1}}",
		  "uvm.init_device_ns" },
		{ "uvm context made", "{\"uvm\":{\"context_create_ns\":\"1\"}}",
		  "uvm.context_create_ns" },
		{ "uvm context ended", "{\"uvm\":{\"context_destroy_ns\":1e11}}",
		  "uvm.context_destroy_ns" },
		{ "uvm wake after", "{\"uvm\":{\"wake_after_ns\":2e10}}",
		  "uvm.wake_after_ns" },
		{ "uvm wake a decade", "{\"uvm\":{\"wake_decade_ns\":-1}}",
		  "uvm.wake_decade_ns" },
		{ "uvm wake at most", "{\"uvm\":{\"wake_max_ns\":2e9}}",
		  "uvm.wake_max_ns" },
		{ "uvm first peer prefetch",
		  "{\"uvm\":{\"peer_prefetch_first_ns\":-5}}",
		  "uvm.peer_prefetch_first_ns" },
		{ "uvm a peer's page unmapped",
		  "{\"uvm\":{\"peer_page_ns\":-1}}", "uvm.peer_page_ns" },
		{ "uvm a peer's block mapped",
		  "{\"uvm\":{\"peer_map_ns\":2e9}}", "uvm.peer_map_ns" },
		{ "uvm a peer copy's wait",
		  "{\"uvm\":{\"peer_copy_cross_ns\":\"6200\"}}",
		  "uvm.peer_copy_cross_ns" },
		{ "uvm cache rate", "{\"uvm\":{\"cache_gbps\":0}}",
		  "uvm.cache_gbps" },
		{ "uvm load latency", "{\"uvm\":{\"load_latency_ns\":-1}}",
		  "uvm.load_latency_ns" },
		{ "uvm L1 latency", "{\"uvm\":{\"l1_latency_ns\":2e6}}",
		  "uvm.l1_latency_ns" },
		{ "uvm L1 bytes", "{\"uvm\":{\"l1_bytes\":2e9}}",
		  "uvm.l1_bytes" },
		{ "uvm DRAM latency", "{\"uvm\":{\"dram_latency_ns\":-1}}",
		  "uvm.dram_latency_ns" },
		{ "uvm L2 hold bytes", "{\"uvm\":{\"l2_hold_bytes\":2e12}}",
		  "uvm.l2_hold_bytes" },
		{ "uvm L1 rate", "{\"uvm\":{\"l1_gbps\":0}}", "uvm.l1_gbps" },
		{ "uvm store rate", "{\"uvm\":{\"store_gbps\":2e6}}",
		  "uvm.store_gbps" },
		{ "uvm dram pages", "{\"uvm\":{\"dram_page_mps\":0}}",
		  "uvm.dram_page_mps" },
		{ "uvm advice's time", "{\"uvm\":{\"advise_read_mostly_ns_mib\":-1}}",
		  "uvm.advise_read_mostly_ns_mib" },
		{ "uvm ALU latency", "{\"uvm\":{\"alu_latency_ns\":-0.5}}",
		  "uvm.alu_latency_ns" },
		{ "uvm L2 keeps more than its most",
		  "{\"uvm\":{\"l2_keep_bytes\":5e7,\"l2_keep_none_bytes\":4e7}}",
		  "uvm.l2_keep_bytes" },
		{ "uvm fault wave", "{\"uvm\":{\"fault_wave_ns\":2e9}}",
		  "uvm.fault_wave_ns" },
		{ "uvm wake kept", "{\"uvm\":{\"wake_peer_share\":1.5}}",
		  "uvm.wake_peer_share" },
		{ "uvm wake kept below", "{\"uvm\":{\"wake_peer_share\":-0.1}}",
		  "uvm.wake_peer_share" },
		{ "uvm prefetch walk", "{\"uvm\":{\"prefetch_block_ns\":\"x\"}}",
		  "uvm.prefetch_block_ns" },
		{ "uvm key", "{\"uvm\":{\"batch\":1}}", "unknown key 'batch'" },
		{ "uvm batch", "{\"uvm\":{\"fault_batch\":0}}",
		  "uvm.fault_batch" },
		{ "uvm flag", "{\"uvm\":{\"access_counters\":1}}",
		  "uvm.access_counters" },
		{ "uvm granule", "{\"uvm\":{\"access_counter_granularity\":"
		  "100000}}", "uvm.access_counter_granularity" },
		{ "issue rate", "{\"devices\":[{\"warp_issue_per_clock\":0}]}",
		  "devices[0].warp_issue_per_clock" },
		{ "fractional issue", "{\"devices\":[{\"warp_issue_per_clock\":"
		  "2.5}]}", "devices[0].warp_issue_per_clock: not a whole" },
		{ "SM clock", "{\"devices\":[{\"attributes\":{\"clock_rate\":"
		  "0}}]}", "devices[0].attributes.clock_rate" },
		{ "SM count", "{\"devices\":[{\"attributes\":{"
		  "\"multiprocessor_count\":0}}]}",
		  "devices[0].attributes.multiprocessor_count" },
	};

	snprintf(m, sizeof m, "%s-default", machine);
	is_int(in_child(m, NULL, NULL, "shape"), 0,
	       "a process on a new machine with no topology file runs");
	is_int(val("init"), CUDA_SUCCESS, "default: cuInit");
	is_int(val("count"), 4, "default: four GPUs");
	is_int(val("total_last"), 141 * GIB, "default: gpu3 has 141 GiB");
	is_int(val("name_is_h200"), 1, "default: gpu3 is an NVIDIA H200");
	remove_machine(m);

	snprintf(m, sizeof m, "%s-small", machine);
	is_int(in_child(m, small, NULL, "shape"), 0,
	       "a process on a new machine with a topology file runs");
	is_int(val("init"), CUDA_SUCCESS, "topology file: cuInit");
	is_int(val("count"), 2, "topology file: device_count 2");
	is_int(val("total_last"), 8 * GIB, "topology file: gpu1 has 8 GiB");
	is_int(val("name_is_small"), 1, "topology file: gpu1 is named Small GPU");
	is_int(val("sm"), 40, "topology file: multiprocessor_count 40");
	is_int(in_child(m, NULL, NULL, "shape"), 0,
	       "a second process joins the machine the first one created");
	is_int(val("count"), 2, "... and sees its two devices, not the default");
	is_int(val("sm"), 40, "... with their attributes");
	remove_machine(m);

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const char *f = write_file(bad[i].tag, bad[i].json);
		snprintf(m, sizeof m, "%s-bad-%zu", machine, i);
		snprintf(err, sizeof err, "%s/cuemu-test-%d-err",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
		is_int(in_child(m, f, err, "shape"), 0,
		       "a process with a bad %s in its topology runs", bad[i].tag);
		ok(val("init") != CUDA_SUCCESS,
		   "a topology with a bad %s is rejected by cuInit", bad[i].tag);
		ok(contains(err, f) && contains(err, bad[i].needle),
		   "the rejection names the file and '%s'", bad[i].needle);
		remove_machine(m);
		unlink(f);
		unlink(err);
	}
	unlink(small);
}

/* Child: takes 10 GiB of gpu0, says so on stdout, and waits to be killed. */
static int hold_10g(void)
{
	CUdeviceptr p;
	CUcontext c;

	if (cuInit(0) || cuDevicePrimaryCtxRetain(&c, 0) ||
	    cuCtxSetCurrent(c) || cuMemAlloc(&p, 10 * GIB)) {
		printf("held 0\n");
		return 1;
	}
	printf("held 1\n");
	fflush(stdout);
	for (;;)
		pause();
}

/* Until free memory of the current context is want, at most 10 s. */
static size_t await_free(size_t want)
{
	size_t fr = 0, total = 0;

	for (int i = 0; i < 1000; i++) {
		cuMemGetInfo(&fr, &total);
		if (fr == want)
			break;
		usleep(10 * 1000);
	}
	return fr;
}

/* A second process takes 10 GiB of gpu0 and is killed; the machine gives
 * it back. */
static void test_reclaim(void)
{
	size_t free0 = 0, total = 0, stacks = 0;
	CUcontext ctx;
	pid_t pid;
	int held = 0;

	is_res(cuInit(0), CUDA_SUCCESS, "cuInit on the test's machine");
	is_res(cuDevicePrimaryCtxRetain(&ctx, 0), CUDA_SUCCESS, "retain gpu0");
	is_res(cuCtxSetCurrent(ctx), CUDA_SUCCESS, "make it current");
	is_res(cuMemGetInfo(&free0, &total), CUDA_SUCCESS, "cuMemGetInfo");
	/* the second process's context holds its stacks too */
	stacks = context_stacks();
	pid = spawn_self("hold", (char *[]){ "CUEMU_CONTROL=0", NULL },
			 outfile, NULL);
	ok(pid > 0, "a second process starts");
	if (pid <= 0)
		return;
	for (int i = 0; i < 1000 && !held; i++) {
		held = child_value(outfile, "held", -1) >= 0;
		if (!held)
			usleep(10 * 1000);
	}
	is_int(child_value(outfile, "held", -1), 1,
	       "the second process allocates 10 GiB of gpu0");
	ok(stacks > 0, "a context's stacks hold %zu bytes", stacks);
	is_int(free0 - await_free(free0 - 10 * GIB - stacks), 10 * GIB + stacks,
	       "and the first process sees it used, and its context's stacks");
	kill(pid, SIGKILL);
	is_int(wait_bounded(pid, 10), -1, "the second process is killed");
	/* Readers look for dead processes at most once a second. */
	is_int(await_free(free0), free0,
	       "killed, its memory is given back to the machine");
}

int main(int argc, char **argv)
{
	const char *role = child_role(argc, argv);

	if (role && !strcmp(role, "shape"))
		return shape();
	if (role && !strcmp(role, "hold"))
		return hold_10g();
	snprintf(machine, sizeof machine, "%s", getenv("CUEMU_MACHINE"));
	snprintf(outfile, sizeof outfile, "%s/cuemu-machine-%d.out",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	setenv("CUEMU_CONTROL", "0", 1);
	test_topologies();
	test_reclaim();
	remove_machine(machine);
	unlink(outfile);
	return done_testing();
}
