/*
 * test_rows.c - the process table is every user's (libcuemu(3), SHARING):
 * a row is given back only on proof that its process is gone, and a
 * process whose row another member took does not charge the taker's.
 * The test forges rows through a mapping of its own, as a member of the
 * machine's group may, and reads what this process's libcuemu makes of
 * them. The parent process serves as a live process of another uid's row.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/segment.h"
#include "model/procstat.h"
#include "tap.h"

static struct segment *s;
static struct seg_layout lay;

/* Row i's use of device 0, and device 0's use. */
static uint64_t *row0(int i)
{
	return (uint64_t *)seg_at(s, lay.rows) + (size_t)i * s->topo.ndev;
}

static uint64_t *used0(void)
{
	return seg_at(s, lay.used);
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

/* A row for pid as uid, holding 8 MiB of device 0, with the machine's
 * total charged to match. */
static int forge(pid_t pid, uint32_t uid, uint64_t start)
{
	int i = free_row();

	if (i < 0)
		return -1;
	memset(&s->procs[i], 0, sizeof s->procs[i]);
	s->procs[i].uid = uid;
	s->procs[i].start = start;
	*row0(i) = 8 << 20;
	__atomic_add_fetch(used0(), 8 << 20, __ATOMIC_RELAXED);
	__atomic_store_n(&s->procs[i].pid, pid, __ATOMIC_RELEASE);
	return i;
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
	for (int i = 0; i < SEG_PROCS; i++)
		if (s->procs[i].pid == getpid())
			mine = i;
	ok(mine >= 0 && s->procs[mine].uid == getuid(),
	   "this process's row names its pid and uid");
	base = used_now();

	row = forge(getppid(), getuid(), cuemu_proc_start_time(getppid()));
	ok(used_now() == base + (8 << 20) && s->procs[row].pid == getppid(),
	   "a row of a live process, its uid and start time: kept");
	memset(&s->procs[row], 0, sizeof s->procs[row]);
	*row0(row) = 0;
	__atomic_sub_fetch(used0(), 8 << 20, __ATOMIC_RELAXED);

	row = forge(getppid(), getuid() + 4242, cuemu_proc_start_time(getppid()));
	ok(used_now() == base && s->procs[row].pid == 0,
	   "a row whose pid runs as another uid is not that process's: "
	   "given back");

	row = forge(getppid(), getuid(), cuemu_proc_start_time(getppid()) + 1);
	ok(used_now() == base && s->procs[row].pid == 0,
	   "a row whose pid started at another time: given back");

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
	return done_testing();
}
