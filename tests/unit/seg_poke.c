/*
 * seg_poke.c - what a member of a machine's group can do to its segment,
 * with no library in between, for the tests of what the machine trusts
 * (tests/bats/trust.bats). One act a run, on the segment CUEMU_MACHINE
 * names:
 *   seg-poke lock          take the process-table lock and keep it until
 *                          stdin closes (prints "locked PID")
 *   seg-poke word OFF HEX  write the 32-bit HEX at byte OFF
 *   seg-poke next-id [N]   set the id counter to N, or print it
 *   seg-poke fake-rows     write every process-table row as pid 1's
 *                          (uid 0, pid 1's real start time), holding
 *                          nothing
 *   seg-poke truncate N    cut the file to N bytes
 * Exits 0 when it did it, 1 when it could not (and says why).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/segment.h"
#include "model/procstat.h"

static int fail(const char *what)
{
	fprintf(stderr, "seg-poke: %s: %s\n", what, strerror(errno));
	return 1;
}

/* The segment mapped read-write: its fd in *fd, its size in *size. */
static struct segment *map_it(int *fd, size_t *size)
{
	const char *m = getenv("CUEMU_MACHINE");
	char shm[256];
	struct stat st;
	void *p;

	snprintf(shm, sizeof shm, "/%s", m && *m ? m : "cuemu");
	if ((*fd = shm_open(shm, O_RDWR, 0)) < 0 || fstat(*fd, &st) < 0 ||
	    (size_t)st.st_size < sizeof(struct segment))
		return NULL;
	*size = (size_t)st.st_size;
	p = mmap(NULL, *size, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
	return p == MAP_FAILED ? NULL : p;
}

static int hold_lock(int fd)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET,
			    .l_start = SEG_LOCK_TABLE, .l_len = 1 };
	char c;

	if (fcntl(fd, F_OFD_SETLKW, &fl) < 0)
		return fail("lock");
	printf("locked %d\n", (int)getpid());
	fflush(stdout);
	while (read(0, &c, 1) > 0)
		;
	return 0;
}

static void fake_rows(struct segment *s)
{
	uint64_t start = cuemu_proc_start_time(1);

	for (int i = 0; i < SEG_PROCS; i++) {
		s->procs[i].pid = 1;
		s->procs[i].uid = 0;
		s->procs[i].start = start;
	}
	s->rows_hi = SEG_PROCS;
}

int main(int argc, char **argv)
{
	struct segment *s;
	size_t size;
	int fd;

	if (argc < 2)
		return 2;
	if (!(s = map_it(&fd, &size)))
		return fail("machine segment");
	if (!strcmp(argv[1], "lock"))
		return hold_lock(fd);
	if (!strcmp(argv[1], "word") && argc == 4 &&
	    strtoul(argv[2], NULL, 0) + 4 <= size)
		*(uint32_t *)((char *)s + strtoul(argv[2], NULL, 0)) =
			(uint32_t)strtoul(argv[3], NULL, 16);
	else if (!strcmp(argv[1], "next-id") && argc == 3)
		s->next_id = strtoull(argv[2], NULL, 0);
	else if (!strcmp(argv[1], "next-id") && argc == 2)
		printf("%llu\n", (unsigned long long)s->next_id);
	else if (!strcmp(argv[1], "fake-rows"))
		fake_rows(s);
	else if (!strcmp(argv[1], "truncate") && argc == 3) {
		if (ftruncate(fd, (off_t)strtoull(argv[2], NULL, 0)) < 0)
			return fail("truncate");
	} else
		return 2;
	return 0;
}
