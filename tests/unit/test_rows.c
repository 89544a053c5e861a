/*
 * test_rows.c - the process table is every user's (libcuemu(3), SHARING):
 * a row is given back only on proof that its process is gone, and a
 * process whose row another member took does not charge the taker's.
 * The test forges rows through a mapping of its own, as a member of the
 * machine's group may, and reads what this process's libcuemu makes of
 * them. The parent process serves as a live process of another uid's row;
 * a live process holds its row's lock byte (segment.h), which the test
 * holds for it through an open file description of its own (holder).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/segment.h"
#include "model/procstat.h"
#include "tap.h"

static struct segment *s;
static struct seg_layout lay;
/* A description of the segment of the test's own, through which it holds
 * the lock bytes of the rows it forges as live processes' rows. */
static int holder = -1;

/* Row i's use of device 0, and device 0's use. */
static uint64_t *row0(int i)
{
	return (uint64_t *)seg_at(s, lay.rows) + (size_t)i * s->topo.ndev;
}

/* Device 0's use as cuMemGetInfo reports it, after the once-a-second look
 * for dead rows has had its chance. */
static uint64_t used_now(void)
{
	size_t free_b = 0, total = 0;

	usleep(1100 * 1000);
	cuMemGetInfo(&free_b, &total);
	return total - free_b;
}

static int free_row(void)
{
	for (int i = 0; i < SEG_PROCS; i++)
		if (!s->procs[i].pid)
			return i;
	return -1;
}

/* Holds (F_WRLCK) or lets go (F_UNLCK) of row i's lock byte. */
static int row_lock(int i, short type)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET,
			    .l_start = SEG_LOCK_ROW(i), .l_len = 1 };

	return fcntl(holder, F_OFD_SETLK, &fl);
}

/* Row i free again, its lock byte let go. */
static void unforge(int i)
{
	memset(&s->procs[i], 0, sizeof s->procs[i]);
	*row0(i) = 0;
	row_lock(i, F_UNLCK);
}

/* A row for pid as uid, holding 8 MiB of device 0, with the machine's
 * use (the sum over the rows) counting it; with held, its lock byte held
 * as its process would hold it. */
static int forge(pid_t pid, uint32_t uid, uint64_t start, bool held)
{
	int i = free_row();

	if (i < 0 || (held && row_lock(i, F_WRLCK) < 0))
		return -1;
	memset(&s->procs[i], 0, sizeof s->procs[i]);
	s->procs[i].uid = uid;
	s->procs[i].start = start;
	*row0(i) = 8 << 20;
	__atomic_store_n(&s->procs[i].pid, pid, __ATOMIC_RELEASE);
	if (s->rows_hi <= (uint32_t)i)
		s->rows_hi = (uint32_t)i + 1;
	return i;
}

/* A process killed while it holds memory, and in the middle of
 * allocating and freeing: what it held comes back whole, and nothing
 * more. A device's use is the sum over the rows, so no moment of a kill
 * leaves a total and a row disagreeing. */
static void killed_holding(void)
{
	uint64_t base = used_now();
	CUdeviceptr p, q;
	int fds[2], st;
	char c;
	pid_t child;

	if (pipe(fds) < 0 || (child = fork()) < 0) {
		ok(0, "pipe and fork");
		return;
	}
	if (child == 0) {
		if (cuMemAlloc(&p, 3 << 20) == CUDA_SUCCESS &&
		    cuMemAlloc(&q, 1 << 20) == CUDA_SUCCESS &&
		    cuMemFree(q) == CUDA_SUCCESS)
			(void)!write(fds[1], "r", 1);
		for (;;) {
			if (cuMemAlloc(&q, 1 << 20) == CUDA_SUCCESS)
				cuMemFree(q);
		}
	}
	close(fds[1]);
	ok(read(fds[0], &c, 1) == 1, "a child holds 3 MiB, allocating and "
	   "freeing 1 MiB over and over");
	close(fds[0]);
	usleep(20000);
	kill(child, SIGKILL);
	waitpid(child, &st, 0);
	ok(used_now() == base, "killed anywhere in that, all of it comes back "
	   "(%llu bytes used, %llu before)", (unsigned long long)used_now(),
	   (unsigned long long)base);
}

/* Every free row taken by a live process (the parent): a new process's
 * allocation is refused, and says why on stderr. */
static void table_full(void)
{
	static int forged[SEG_PROCS];
	int n = 0, fds[2], st = -1;
	char msg[512] = "";
	CUdeviceptr p;
	ssize_t got;
	pid_t child;

	while (n < SEG_PROCS && (forged[n] = forge(getppid(), getuid(),
			cuemu_proc_start_time(getppid()), true)) >= 0)
		n++;
	ok(n > 1000, "the table has room for a thousand processes (%d free)", n);
	if (pipe(fds) < 0 || (child = fork()) < 0) {
		ok(0, "pipe and fork");
		return;
	}
	if (child == 0) {
		dup2(fds[1], 2);
		_exit(cuMemAlloc(&p, 1 << 20) == CUDA_ERROR_OUT_OF_MEMORY ? 0 : 1);
	}
	close(fds[1]);
	got = read(fds[0], msg, sizeof msg - 1);
	msg[got > 0 ? got : 0] = '\0';
	close(fds[0]);
	waitpid(child, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	   "with the table full, a new process's allocation is refused");
	ok(strstr(msg, "process table is full") != NULL,
	   "and says why: %s", msg);
	for (int i = 0; i < n; i++)
		unforge(forged[i]);
}

/* Every free row written as the parent's, its uid and start time, with
 * no lock byte held: rows written by hand, no one's; a new process's
 * allocation takes one of them. */
static void table_full_of_forgeries(void)
{
	int n = 0, fds[2], st = -1;
	CUdeviceptr p;
	pid_t child;

	while (n < SEG_PROCS && forge(getppid(), getuid(),
				      cuemu_proc_start_time(getppid()),
				      false) >= 0)
		n++;
	if (pipe(fds) < 0 || (child = fork()) < 0) {
		ok(0, "pipe and fork");
		return;
	}
	if (child == 0) {
		dup2(fds[1], 2);
		_exit(cuMemAlloc(&p, 1 << 20) == CUDA_SUCCESS ? 0 : 1);
	}
	close(fds[1]);
	close(fds[0]);
	waitpid(child, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "with the table full of rows "
	   "no process holds (%d written by hand), a new process allocates", n);
	for (int i = 0; i < SEG_PROCS; i++)
		if (s->procs[i].pid == getppid())
			unforge(i);
}

int main(void)
{
	const char *m = getenv("CUEMU_MACHINE");
	char shm[256];
	CUdeviceptr p;
	CUcontext c;
	uint64_t base;
	int fd, row, mine = -1;
	struct stat st;

	setenv("CUEMU_CONTROL", "0", 1);
	if (cuInit(0) != CUDA_SUCCESS ||
	    cuDevicePrimaryCtxRetain(&c, 0) != CUDA_SUCCESS ||
	    cuCtxSetCurrent(c) != CUDA_SUCCESS ||
	    cuMemAlloc(&p, 1 << 20) != CUDA_SUCCESS) {
		printf("Bail out! no machine\n");
		return 1;
	}
	snprintf(shm, sizeof shm, "/%s", m && *m ? m : "cuemu");
	if ((fd = shm_open(shm, O_RDWR, 0)) < 0 || fstat(fd, &st) < 0 ||
	    (s = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE,
		      MAP_SHARED, fd, 0)) == MAP_FAILED ||
	    seg_layout(s->topo.ndev, s->topo.nnuma, &lay) < 0) {
		printf("Bail out! cannot map %s\n", shm);
		return 1;
	}
	close(fd);
	if ((holder = shm_open(shm, O_RDWR, 0)) < 0) {
		printf("Bail out! cannot open %s\n", shm);
		return 1;
	}
	for (int i = 0; i < SEG_PROCS; i++)
		if (s->procs[i].pid == getpid())
			mine = i;
	ok(mine >= 0 && s->procs[mine].uid == getuid(),
	   "this process's row names its pid and uid");
	base = used_now();

	row = forge(getppid(), getuid(), cuemu_proc_start_time(getppid()), true);
	ok(used_now() == base + (8 << 20) && s->procs[row].pid == getppid(),
	   "a row of a live process, its uid and start time, its lock byte "
	   "held: kept");
	unforge(row);

	row = forge(getppid(), getuid(), cuemu_proc_start_time(getppid()),
		    false);
	ok(used_now() == base && s->procs[row].pid == 0,
	   "the same row with its lock byte held by no one (written by "
	   "hand): given back");
	unforge(row);

	row = forge(getppid(), getuid() + 4242, cuemu_proc_start_time(getppid()),
		    true);
	ok(used_now() == base && s->procs[row].pid == 0,
	   "a row whose pid runs as another uid is not that process's: "
	   "given back");
	unforge(row);

	row = forge(getppid(), getuid(), cuemu_proc_start_time(getppid()) + 1,
		    true);
	ok(used_now() == base && s->procs[row].pid == 0,
	   "a row whose pid started at another time: given back");
	unforge(row);

	/* Another member frees this process's row, and a forged process
	 * takes it: this process must not charge the forger's row. */
	memset(&s->procs[mine], 0, sizeof s->procs[mine]);
	*row0(mine) = 0;
	s->procs[mine].pid = getppid();
	s->procs[mine].uid = getuid();
	s->procs[mine].start = cuemu_proc_start_time(getppid());
	is_res(cuMemAlloc(&p, 1 << 20), CUDA_SUCCESS,
	       "allocating after this process's row was taken works");
	ok(*row0(mine) == 0,
	   "and charges nothing to the row's new owner");
	row = -1;
	for (int i = 0; i < SEG_PROCS; i++)
		if (s->procs[i].pid == getpid())
			row = i;
	ok(row >= 0 && row != mine && *row0(row) == 1 << 20,
	   "but a new row of its own");
	memset(&s->procs[mine], 0, sizeof s->procs[mine]);
	killed_holding();
	table_full();
	table_full_of_forgeries();
	close(holder);
	return done_testing();
}
