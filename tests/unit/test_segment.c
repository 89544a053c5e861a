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
#define _GNU_SOURCE
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
#include "model/procstat.h"
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
	char *m;

	cuemuMachineReadOnly();
	if (!(m = cuemuMachineJson()))
		return 1;
	printf("%s\n", m);
	free(m);
	return 0;
}

/* As cufs: reads the machine, truncates its file to 4 KiB (as any member
 * may), reads it again: prints both, and lives to print "alive". */
static int join_shrink(void)
{
	char shm[160], *m;
	int fd;

	cuemuMachineReadOnly();
	if (!(m = cuemuMachineJson()))
		return 1;
	printf("before %s\n", strstr(m, "\"error\"") ? "error" : "read");
	free(m);
	snprintf(shm, sizeof shm, "/%s", getenv("CUEMU_MACHINE"));
	if ((fd = shm_open(shm, O_RDWR, 0)) < 0 || ftruncate(fd, 4096) < 0)
		return 2;
	close(fd);
	for (int d = 0; d < 2; d++) {
		m = cuemuDeviceJson(d);
		printf("after %s\n", m ? m : "NULL");
		free(m);
	}
	if (!(m = cuemuMachineJson()))
		return 1;
	printf("machine %s\n", m);
	free(m);
	printf("alive\n");
	return 0;
}

/* Allocates, sets the machine's id counter back to 1 (as any member
 * may), allocates again: prints both allocations' ids. */
static int join_ids_back(void)
{
	unsigned long long id[2] = { 0, 0 };
	struct segment *s;
	CUdeviceptr p[2];
	char shm[160];
	CUcontext c;
	int fd;

	if (cuInit(0) != CUDA_SUCCESS ||
	    cuDevicePrimaryCtxRetain(&c, 0) != CUDA_SUCCESS ||
	    cuCtxSetCurrent(c) != CUDA_SUCCESS)
		return 1;
	snprintf(shm, sizeof shm, "/%s", getenv("CUEMU_MACHINE"));
	if ((fd = shm_open(shm, O_RDWR, 0)) < 0)
		return 2;
	s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (s == MAP_FAILED)
		return 2;
	for (int i = 0; i < 2; i++) {
		if (cuMemAlloc(&p[i], 4096) != CUDA_SUCCESS ||
		    cuPointerGetAttribute(&id[i], CU_POINTER_ATTRIBUTE_BUFFER_ID,
					  p[i]) != CUDA_SUCCESS)
			return 3;
		__atomic_store_n(&s->next_id, 1, __ATOMIC_RELAXED);
	}
	printf("ids %llu %llu\n", id[0], id[1]);
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

/* Where version 4 kept its pthread mutex (offset 24), the thread id no
 * process has that once hung every cuInit and cufs (issue 32): no lock
 * lies there now, and a process joins as if nothing were written. */
static void old_lock_word(void)
{
	struct segment *s = fresh_machine();
	char out[512];

	if (!ok(s != NULL, "old lock word: a machine to scribble on"))
		return;
	*(uint32_t *)((char *)s + 24) = 0x003ffff0;
	*(uint32_t *)((char *)s + 28) = 0x003ffff0;
	ok(run_joiner("alloc", out, sizeof out) == 0,
	   "old lock word: a process joining answers within %d s", BOUND_S);
	ok(strstr(out, "alloc CUDA_SUCCESS\n") != NULL,
	   "old lock word: it joins and allocates");
	drop_machine(s);
}

/* A process of the machine that takes the process-table lock, as any
 * member may, and keeps it until killed: its pid. It calls no API. */
static pid_t hold_table_lock(void)
{
	int go[2];
	pid_t pid;
	char c;

	if (pipe(go) < 0)
		return -1;
	if ((pid = fork()) == 0) {
		struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET,
				    .l_start = SEG_LOCK_TABLE, .l_len = 1 };
		char shm[160];
		int fd;

		snprintf(shm, sizeof shm, "/%s", machine);
		if ((fd = shm_open(shm, O_RDWR, 0)) < 0 ||
		    fcntl(fd, F_OFD_SETLKW, &fl) < 0)
			_exit(1);
		if (write(go[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(go[1]);
	if (pid < 0 || read(go[0], &c, 1) != 1) {
		if (pid > 0) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
		pid = -1;
	}
	close(go[0]);
	return pid;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* A holder that never lets the table lock go: a new process is refused
 * in bounded time saying so, cufs's reader does not wait at all, and
 * once the holder dies (however: the kernel frees its lock) the machine
 * works again. */
static void lock_held(void)
{
	struct segment *s = fresh_machine();
	char out[16384];
	double t0;
	pid_t holder;

	if (!ok(s != NULL, "lock held: a machine"))
		return;
	holder = hold_table_lock();
	if (!ok(holder > 0, "lock held: a process holds the table lock")) {
		drop_machine(s);
		return;
	}
	t0 = now_s();
	ok(run_joiner("init", out, sizeof out) == 0,
	   "lock held: a process joining answers within %d s", BOUND_S);
	ok(strcmp(out, "CUDA_ERROR_NO_DEVICE\n") == 0,
	   "lock held: its cuInit is CUDA_ERROR_NO_DEVICE");
	ok(said("process-table lock was held for 2 s"),
	   "lock held: the message says the lock was held");
	ok(now_s() - t0 < 5, "lock held: refused after its 2 s bound");
	t0 = now_s();
	ok(run_joiner("machine", out, sizeof out) == 0 &&
	   strstr(out, "\"devices\"") && !strstr(out, "\"error\""),
	   "lock held: the machine reads as cufs reads it");
	ok(now_s() - t0 < 1.5, "lock held: and the reader waits for no lock "
	   "(%.2f s)", now_s() - t0);
	kill(holder, SIGKILL);
	waitpid(holder, NULL, 0);
	ok(run_joiner("alloc", out, sizeof out) == 0 &&
	   strstr(out, "alloc CUDA_SUCCESS\n"),
	   "lock held: once its holder is killed, a process joins and "
	   "allocates");
	drop_machine(s);
}

/* Every row of the process table written by hand as a real process's
 * (pid 1, uid 0, pid 1's start time), one of them holding all of device
 * 0: no process holds their lock bytes, so they are no one's; a new
 * process takes a row and allocates. */
static void fake_rows(void)
{
	struct segment *s = fresh_machine();
	struct cuemu_device_info *dev;
	uint64_t start = cuemu_proc_start_time(1);
	char out[512];

	if (!ok(s != NULL, "fake rows: a machine") ||
	    !ok(start != 0, "fake rows: pid 1's start time"))
		return drop_machine(s);
	dev = seg_at(s, lay.dev);
	for (int i = 0; i < SEG_PROCS; i++) {
		s->procs[i].pid = 1;
		s->procs[i].uid = 0;
		s->procs[i].start = start;
	}
	((uint64_t *)seg_at(s, lay.rows))[0] = dev[0].total;
	s->rows_hi = SEG_PROCS;
	ok(run_joiner("alloc", out, sizeof out) == 0,
	   "fake rows: a process joining answers within %d s", BOUND_S);
	ok(strstr(out, "alloc CUDA_SUCCESS\n") != NULL,
	   "fake rows: it takes a row and allocates");
	ok(!said("process table is full"),
	   "fake rows: the table is not said to be full");
	drop_machine(s);
}

/* A member truncates the segment under cufs's reader: the reader answers
 * an error naming the sizes, and lives. */
static void shrunk_under_reader(void)
{
	struct segment *s = fresh_machine();
	char out[16384];

	if (!ok(s != NULL, "shrunk: a machine"))
		return;
	ok(run_joiner("shrink", out, sizeof out) == 0,
	   "shrunk: the reader exits by itself (no SIGBUS)");
	ok(strstr(out, "before read\n") != NULL,
	   "shrunk: it read the machine before");
	ok(strstr(out, "machine {\"error\":") && strstr(out, "is 4096 bytes"),
	   "shrunk: after, the machine answers an error with its size");
	ok(strstr(out, "alive\n") != NULL, "shrunk: and the reader lives");
	ok(said("shrank under this reader"), "shrunk: said on stderr");
	drop_machine(s);
}

/* A process that ended holding memory leaves its row (nobody reclaims
 * it until a process needs it): cufs's reader, which reclaims nothing,
 * leaves it out of the use it shows, its lock byte being free. */
static void dead_row_under_reader(void)
{
	struct segment *s = fresh_machine();
	char out[16384], *u;

	if (!ok(s != NULL, "dead row: a machine"))
		return;
	ok(run_joiner("alloc", out, sizeof out) == 0 &&
	   strstr(out, "alloc CUDA_SUCCESS\n"),
	   "dead row: a process allocated 1 MiB and ended");
	ok(((uint64_t *)seg_at(s, lay.rows))[0] != 0 ||
	   ((uint64_t *)seg_at(s, lay.rows))[s->topo.ndev] != 0,
	   "dead row: its row still counts it in the segment");
	/* Device 0 comes first in the machine's JSON. */
	ok(run_joiner("machine", out, sizeof out) == 0 &&
	   (u = strstr(out, "\"used_memory\":")) &&
	   !strncmp(u, "\"used_memory\":0,", 16),
	   "dead row: the reader shows device 0 unused");
	drop_machine(s);
}

/* A member sets the id counter back: a process's ids still only rise. */
static void ids_set_back(void)
{
	struct segment *s = fresh_machine();
	unsigned long long a = 0, b = 0;
	char out[512], *p;

	if (!ok(s != NULL, "ids: a machine"))
		return;
	s->next_id = 1000;
	ok(run_joiner("ids-back", out, sizeof out) == 0,
	   "ids: the process answers");
	if ((p = strstr(out, "ids ")))
		sscanf(p, "ids %llu %llu", &a, &b);
	ok(a >= 1000 && b > a, "ids: the second id (%llu) follows the "
	   "first (%llu) though the counter was set back to 1", b, a);
	ok(said("id counter stood at 1"), "ids: and it says so");
	drop_machine(s);
}

/* A segment whose mode is not one the machine is made with (a chmod
 * 666 by its owner) is refused, saying why. */
static void mode_666(void)
{
	struct segment *s = fresh_machine();
	char out[512], path[200];

	if (!ok(s != NULL, "mode 0666: a machine"))
		return;
	snprintf(path, sizeof path, "/dev/shm/%s", machine);
	chmod(path, 0666);
	ok(run_joiner("init", out, sizeof out) == 0 &&
	   !strcmp(out, "CUDA_ERROR_NO_DEVICE\n"),
	   "mode 0666: a process joining is refused");
	ok(said("mode 0666 is not 0660"), "mode 0666: the message says why");
	ok(said("not joined"), "mode 0666: and that it did not join");
	drop_machine(s);
}

/* Root's process and a private machine (0600) of another user: root may
 * open it, and does not join it. */
static void private_of_another(void)
{
	struct segment *s;
	char out[512], path[200];

	if (getuid() != 0) {
		ok(1, "# SKIP another user's private machine: needs root");
		return;
	}
	if (!ok((s = fresh_machine()) != NULL, "another's 0600: a machine"))
		return;
	snprintf(path, sizeof path, "/dev/shm/%s", machine);
	ok(chown(path, 65534, (gid_t)-1) == 0 && chmod(path, 0600) == 0,
	   "another's 0600: given to uid 65534, mode 0600");
	ok(run_joiner("init", out, sizeof out) == 0 &&
	   !strcmp(out, "CUDA_ERROR_NO_DEVICE\n"),
	   "another's 0600: root's process is refused");
	ok(said("mode 0600 makes it user"), "another's 0600: says why");
	drop_machine(s);
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
	if (argc == 2 && strcmp(argv[1], "shrink") == 0)
		return join_shrink();
	if (argc == 2 && strcmp(argv[1], "ids-back") == 0)
		return join_ids_back();

	/* Named after the machine this test was given, and in its TMPDIR,
	 * so that tests/private-machine.sh removes both after a crash. */
	snprintf(machine, sizeof machine, "%s-segment", getenv("CUEMU_MACHINE"));
	snprintf(errpath, sizeof errpath, "%s/cuemu-segment-%d.err",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	setenv("CUEMU_MACHINE", machine, 1);
	setenv("CUEMU_CONTROL", "0", 1);
	unsetenv("CUEMU_TOPOLOGY");

	old_lock_word();
	lock_held();
	fake_rows();
	shrunk_under_reader();
	dead_row_under_reader();
	ids_set_back();
	mode_666();
	private_of_another();
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
