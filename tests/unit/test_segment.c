/*
 * test_segment.c - a machine segment is outside input: any process of the
 * machine can write it. Each case scribbles on a segment on purpose, as a
 * broken or hostile process would, and a process that then joins the
 * machine must answer with a clear error naming what is wrong, within
 * seconds, or go on with sane numbers; never hang, crash or trust garbage.
 *
 * The test itself never calls the API: each process that joins is this
 * program run again (/proc/self/exe <case>), so no API call follows a fork.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "model/segment.h"
#include "outward/cuemu-private.h"
#include "tap.h"

/* The longest a joining process may take to answer, scribbled or not. */
#define BOUND_S 10

static char machine[128];
static char errpath[256];

/* ------------------------------------------------------------ the joiners */

/* Joins the machine and leaves it made (the segment outlives us). */
static int join_make(void)
{
	return cuInit(0) == CUDA_SUCCESS ? 0 : 1;
}

/* Prints what cuInit answered. */
static int join_init(void)
{
	printf("%s\n", tap_res_name(cuInit(0)));
	return 0;
}

/* Joins, allocates and prints what the machine says of device 0. */
static int join_alloc(void)
{
	size_t free_b = 0, total = 0;
	CUdeviceptr p;
	CUcontext c;

	if (cuInit(0) != CUDA_SUCCESS ||
	    cuDevicePrimaryCtxRetain(&c, 0) != CUDA_SUCCESS ||
	    cuCtxSetCurrent(c) != CUDA_SUCCESS)
		return 1;
	printf("alloc %s\n", tap_res_name(cuMemAlloc(&p, 1 << 20)));
	printf("info %s\n", tap_res_name(cuMemGetInfo(&free_b, &total)));
	printf("used %llu total %llu\n",
	       (unsigned long long)(total - free_b), (unsigned long long)total);
	return 0;
}

/* Prints the machine as cufs reads it. */
static int join_machine(void)
{
	char *m = cuemuMachineJson();

	if (!m)
		return 1;
	printf("%s\n", m);
	free(m);
	return 0;
}

/* ------------------------------------------------------------ the parent */

/* Runs this program as `self what`, its stdout into out (size n) and its
 * stderr into errpath; kills it after BOUND_S. 0 when it exited by itself
 * within the bound, -1 otherwise. */
static int run_joiner(const char *what, char *out, size_t n)
{
	int pipefd[2], st = 0;
	time_t until = time(NULL) + BOUND_S;
	ssize_t got = 0, k;
	pid_t pid;

	if (pipe(pipefd) < 0)
		return -1;
	if ((pid = fork()) == 0) {
		dup2(pipefd[1], 1);
		if (!freopen(errpath, "w", stderr))
			_exit(99);
		execl("/proc/self/exe", "test_segment", what, (char *)NULL);
		_exit(98);
	}
	close(pipefd[1]);
	fcntl(pipefd[0], F_SETFL, O_NONBLOCK);
	out[0] = '\0';
	while (waitpid(pid, &st, WNOHANG) == 0) {
		if (time(NULL) > until) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			close(pipefd[0]);
			return -1;
		}
		usleep(20000);
	}
	while (got + 1 < (ssize_t)n &&
	       (k = read(pipefd[0], out + got, n - 1 - (size_t)got)) > 0)
		got += k;
	out[got > 0 ? got : 0] = '\0';
	close(pipefd[0]);
	return WIFEXITED(st) ? 0 : -1;
}

/* Whether the joiner's stderr says s. */
static int said(const char *s)
{
	char buf[4096];
	FILE *f = fopen(errpath, "r");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	return strstr(buf, s) != NULL;
}

/* The size of the mapping of the machine made last, and where its
 * arrays are (its counts as made, before any scribble). */
static size_t mapped;
static struct seg_layout lay;

/* A fresh machine made by a joiner, mapped here for scribbling. */
static struct segment *fresh_machine(void)
{
	char out[256], shm[160];
	struct segment *s;
	struct stat st;
	int fd;

	snprintf(shm, sizeof shm, "/%s", machine);
	shm_unlink(shm);
	if (run_joiner("make", out, sizeof out) < 0)
		return NULL;
	if ((fd = shm_open(shm, O_RDWR, 0)) < 0)
		return NULL;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return NULL;
	}
	mapped = (size_t)st.st_size;
	s = mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (s == MAP_FAILED || seg_layout(s->topo.ndev, s->topo.nnuma, &lay))
		return NULL;
	return s;
}

static void drop_machine(struct segment *s)
{
	char shm[160];

	if (s)
		munmap(s, mapped);
	snprintf(shm, sizeof shm, "/%s", machine);
	shm_unlink(shm);
}

/* A joiner's cuInit on a machine scribbled by scribble: refused with
 * NO_DEVICE, in time, naming field. */
static void refused(const char *what, void (*scribble)(struct segment *),
		    const char *field)
{
	struct segment *s = fresh_machine();
	char out[256];

	if (!ok(s != NULL, "%s: a machine to scribble on", what))
		return;
	scribble(s);
	ok(run_joiner("init", out, sizeof out) == 0,
	   "%s: a process joining answers within %d s", what, BOUND_S);
	ok(strcmp(out, "CUDA_ERROR_NO_DEVICE\n") == 0,
	   "%s: its cuInit is CUDA_ERROR_NO_DEVICE", what);
	ok(said(field), "%s: the message names %s", what, field);
	drop_machine(s);
}

static void lock_of_no_thread(struct segment *s)
{
	/* The lock word of a robust mutex holds its owner's thread id. */
	s->lock.__data.__lock = 4000000;
	s->lock.__data.__owner = 4000000;
}

static void ndev_huge(struct segment *s)
{
	s->topo.ndev = 0x7fffffff;
}

static void nnuma_huge(struct segment *s)
{
	s->topo.nnuma = 100000000;
}

/* A count within bounds that the segment's size does not hold. */
static void ndev_17(struct segment *s)
{
	s->topo.ndev = 17;
}

static void device_name_unterminated(struct segment *s)
{
	struct cuemu_device_info *dev = seg_at(s, lay.dev);

	memset(dev[1].name, 'A', sizeof dev[1].name);
}

static void machine_name_unterminated(struct segment *s)
{
	memset(s->topo.name, 'B', sizeof s->topo.name);
}

static void link_nan(struct segment *s)
{
	struct cuemu_link *link = seg_at(s, lay.link);

	link[1].gbps = NAN;
}

/* A copy rate of nothing would be divided by. */
static void copy_rate_zero(struct segment *s)
{
	s->topo.copy[CUEMU_RATE_MEMSET].gbps = 0;
}

static void copy_latency_huge(struct segment *s)
{
	s->topo.copy[CUEMU_RATE_PAGEABLE_DTOH_HOST].lat_ns = ~0ULL;
}

/* Rows of the process table full of random bytes: the machine stays
 * usable, its use stays within its size, and the rows are reported. */
static void garbage_rows(void)
{
	struct segment *s = fresh_machine();
	unsigned long long used = 0, total = 0;
	char out[512], *u;

	if (!ok(s != NULL, "garbage rows: a machine to scribble on"))
		return;
	srand(7);
	for (int i = 10; i < 13; i++)
		for (size_t b = 0; b < sizeof s->procs[i]; b++)
			((unsigned char *)&s->procs[i])[b] = (unsigned char)rand();
	ok(run_joiner("alloc", out, sizeof out) == 0,
	   "garbage rows: a process joining answers within %d s", BOUND_S);
	ok(strstr(out, "alloc CUDA_SUCCESS\n") != NULL,
	   "garbage rows: cuMemAlloc still succeeds");
	ok(strstr(out, "info CUDA_SUCCESS\n") != NULL,
	   "garbage rows: cuMemGetInfo still succeeds");
	if ((u = strstr(out, "used ")))
		sscanf(u, "used %llu total %llu", &used, &total);
	ok(total > 0, "garbage rows: the device has a size (%llu)", total);
	ok(used <= total,
	   "garbage rows: used memory (%llu) is within the device (%llu)",
	   used, total);
	ok(used >= (1 << 20), "garbage rows: and counts the new allocation");
	ok(said("is corrupt"), "garbage rows: the corrupt rows are reported");
	for (int i = 10; i < 13; i++)
		is_int(s->procs[i].pid, 0, "garbage rows: slot %d freed", i);
	drop_machine(s);
}

/* A device's use at 2^64-1 (a scribble, or a count gone wrong) reads as
 * the device's whole size with nothing free, never as -1: a use beyond the
 * device cannot be, and every reader subtracts it from the size. */
static void use_all_ones(void)
{
	struct segment *s = fresh_machine();
	char out[16384], want[64];
	struct cuemu_device_info *dev;

	if (!ok(s != NULL, "use 2^64-1: a machine to scribble on"))
		return;
	dev = seg_at(s, lay.dev);
	((uint64_t *)seg_at(s, lay.used))[0] = UINT64_MAX;
	snprintf(want, sizeof want, "\"used_memory\":%llu,",
		 (unsigned long long)dev[0].total);
	ok(run_joiner("machine", out, sizeof out) == 0,
	   "use 2^64-1: the machine is read within %d s", BOUND_S);
	ok(strstr(out, want) != NULL,
	   "use 2^64-1: used_memory reads the device's size, %llu",
	   (unsigned long long)dev[0].total);
	ok(strstr(out, "\"free_memory\":0,") != NULL,
	   "use 2^64-1: free_memory reads 0");
	ok(!strstr(out, "\"used_memory\":-1"), "use 2^64-1: never -1");
	drop_machine(s);
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "make") == 0)
		return join_make();
	if (argc == 2 && strcmp(argv[1], "init") == 0)
		return join_init();
	if (argc == 2 && strcmp(argv[1], "alloc") == 0)
		return join_alloc();
	if (argc == 2 && strcmp(argv[1], "machine") == 0)
		return join_machine();

	/* Named after the machine this test was given, and in its TMPDIR,
	 * so that tests/private-machine.sh removes both after a crash. */
	snprintf(machine, sizeof machine, "%s-segment", getenv("CUEMU_MACHINE"));
	snprintf(errpath, sizeof errpath, "%s/cuemu-segment-%d.err",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	setenv("CUEMU_MACHINE", machine, 1);
	setenv("CUEMU_CONTROL", "0", 1);
	unsetenv("CUEMU_TOPOLOGY");

	refused("a lock word naming a thread that does not exist",
		lock_of_no_thread, "does not exist");
	refused("device count 0x7fffffff", ndev_huge, "device_count");
	refused("device count 17, the segment sized for 4", ndev_17,
		"device_count");
	refused("NUMA node count 10^8", nnuma_huge, "numa_nodes");
	refused("a device name without its NUL", device_name_unterminated,
		"devices[1].name");
	refused("the machine's name without its NUL",
		machine_name_unterminated, ": name:");
	refused("a link's bandwidth NaN", link_nan, "links[0][1]");
	refused("a copy rate of 0 GB/s", copy_rate_zero, "copies.memset");
	refused("a copy latency of 2^64 - 1 ns", copy_latency_huge,
		"copies.gpu_to_pageable.host");
	garbage_rows();
	use_all_ones();

	unlink(errpath);
	return done_testing();
}
