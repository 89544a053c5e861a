/*
 * test_machine.c - the emulated machine: the default topology, topology
 * files and their rejection, one machine shared by every process, and what
 * a killed process held given back.
 *
 * cuInit attaches a process to its machine once, so each case that needs a
 * different environment runs in a child and reports through its exit code.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cuda.h"
#include "tap.h"

#define GIB (1ULL << 30)

static char machine[64];

/* Runs fn in a child with the machine named name and topology path (NULL:
 * default); returns fn's result, or -1 if the child died. stderr of the
 * child goes to errfile when given. */
static int in_child(const char *name, const char *topo, const char *errfile,
		    int (*fn)(void))
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		setenv("CUEMU_MACHINE", name, 1);
		if (topo)
			setenv("CUEMU_TOPOLOGY", topo, 1);
		else
			unsetenv("CUEMU_TOPOLOGY");
		setenv("CUEMU_CONTROL", "0", 1);
		if (errfile && !freopen(errfile, "w", stderr))
			_exit(99);
		st = fn();
		fflush(stderr);
		_exit(st);
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static int default_shape(void)
{
	int n = 0;
	size_t total = 0;
	char name[64];

	if (cuInit(0) != CUDA_SUCCESS || cuDeviceGetCount(&n) != CUDA_SUCCESS)
		return 10;
	if (n != 4)
		return 11;
	if (cuDeviceTotalMem(&total, 3) != CUDA_SUCCESS || total != 141 * GIB)
		return 12;
	if (cuDeviceGetName(name, sizeof name, 0) != CUDA_SUCCESS ||
	    strcmp(name, "NVIDIA H200"))
		return 13;
	return 0;
}

static int custom_shape(void)
{
	int n = 0, sm = 0;
	size_t total = 0;
	char name[64];

	if (cuInit(0) != CUDA_SUCCESS || cuDeviceGetCount(&n) != CUDA_SUCCESS)
		return 10;
	if (n != 2)
		return 11;
	if (cuDeviceTotalMem(&total, 1) != CUDA_SUCCESS || total != 8 * GIB)
		return 12;
	if (cuDeviceGetName(name, sizeof name, 1) != CUDA_SUCCESS ||
	    strcmp(name, "Small GPU"))
		return 13;
	if (cuDeviceGetAttribute(&sm, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0)
	    != CUDA_SUCCESS || sm != 40)
		return 14;
	return 0;
}

static int init_fails(void)
{
	return cuInit(0) == CUDA_SUCCESS ? 1 : 0;
}

static const char *write_file(const char *tag, const char *text)
{
	static char path[8][128];
	static int next;
	char *p = path[next++ % 8];
	FILE *f;

	snprintf(p, 128, "/tmp/cuemu-test-%d-%s.json", (int)getpid(), tag);
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
	char m[96], err[128];
	const char *small = write_file("small",
		"{\"name\":\"two small\",\"device_count\":2,"
		"\"devices\":[{\"name\":\"Small GPU\",\"memory\":\"8G\","
		"\"attributes\":{\"multiprocessor_count\":40}}],"
		"\"links\":{\"gpu_gpu\":{\"kind\":\"pcie\",\"gbps\":25}}}");
	static const struct { const char *tag, *json, *needle; } bad[] = {
		{ "syntax", "{\"devices\": [", "line" },
		{ "memory", "{\"devices\":[{\"memory\":\"lots\"}]}",
		  "devices[0].memory" },
		{ "key", "{\"devcies\":[]}", "unknown key 'devcies'" },
		{ "count", "{\"device_count\":99}", "device_count" },
		{ "attr", "{\"devices\":[{\"attributes\":{\"warp\":1}}]}",
		  "devices[0].attributes.warp" },
		{ "link", "{\"links\":{\"gpu_gpu\":{\"kind\":\"wire\"}}}",
		  "links.gpu_gpu" },
		{ "pair", "{\"links\":{\"pairs\":[{\"from\":\"gpu9\",\"to\":\"cpu\"}]}}",
		  "links.pairs[0].from" },
	};

	snprintf(m, sizeof m, "%s-default", machine);
	is_int(in_child(m, NULL, NULL, default_shape), 0,
	       "the default machine is four H200-shaped GPUs of 141 GiB");
	remove_machine(m);

	snprintf(m, sizeof m, "%s-small", machine);
	is_int(in_child(m, small, NULL, custom_shape), 0,
	       "a topology file sets device count, names, memory and attributes");
	is_int(in_child(m, NULL, NULL, custom_shape), 0,
	       "a second process joins the machine the first one created");
	remove_machine(m);

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const char *f = write_file(bad[i].tag, bad[i].json);
		snprintf(m, sizeof m, "%s-bad-%zu", machine, i);
		snprintf(err, sizeof err, "/tmp/cuemu-test-%d-err", (int)getpid());
		is_int(in_child(m, f, err, init_fails), 0,
		       "a topology with a bad %s is rejected by cuInit", bad[i].tag);
		ok(contains(err, f) && contains(err, bad[i].needle),
		   "the rejection names the file and '%s'", bad[i].needle);
		remove_machine(m);
		unlink(f);
		unlink(err);
	}
	unlink(small);
}

/* A child takes 10 GiB of gpu0 and is killed; the machine gives it back. */
static void test_reclaim(void)
{
	int pipefd[2];
	size_t free0 = 0, free1 = 0, free2 = 0, total = 0;
	CUcontext ctx;
	pid_t pid;
	char c;

	is_res(cuInit(0), CUDA_SUCCESS, "cuInit on the test's machine");
	is_res(cuDevicePrimaryCtxRetain(&ctx, 0), CUDA_SUCCESS, "retain gpu0");
	is_res(cuCtxSetCurrent(ctx), CUDA_SUCCESS, "make it current");
	is_res(cuMemGetInfo(&free0, &total), CUDA_SUCCESS, "cuMemGetInfo");
	if (pipe(pipefd) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		CUdeviceptr p;
		CUcontext cctx;
		/* The child re-initializes: the runtime's state is not forked. */
		close(pipefd[0]);
		if (cuDevicePrimaryCtxRetain(&cctx, 0) || cuCtxSetCurrent(cctx) ||
		    cuMemAlloc(&p, 10 * GIB))
			c = 'n';
		else
			c = 'y';
		if (write(pipefd[1], &c, 1) != 1)
			_exit(2);
		pause();
		_exit(0);
	}
	close(pipefd[1]);
	ok(read(pipefd[0], &c, 1) == 1 && c == 'y', "a second process allocates 10 GiB");
	cuMemGetInfo(&free1, &total);
	is_int(free0 - free1, 10 * GIB, "and the first process sees it used");
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	sleep(1); /* readers look for dead processes at most once a second */
	cuMemGetInfo(&free2, &total);
	is_int(free2, free0, "killed, its memory is given back to the machine");
	close(pipefd[0]);
}

int main(void)
{
	snprintf(machine, sizeof machine, "%s",
		 getenv("CUEMU_MACHINE") ? getenv("CUEMU_MACHINE") : "cuemu-test");
	setenv("CUEMU_CONTROL", "0", 1);
	test_topologies();
	test_reclaim();
	remove_machine(machine);
	return done_testing();
}
