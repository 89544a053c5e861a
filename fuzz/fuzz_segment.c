/*
 * fuzz_segment.c - the reader of the machine segment (machine.c), which
 * any process of the machine may write. Each input is a list of patches
 * laid over a valid segment: [offset: 4 bytes, little endian, taken
 * modulo the segment's size][length: 1 byte][that many bytes]. The result
 * is written to a segment of its own, which this process then joins and
 * uses as a program would: counts, names, links, costs, charges, ids. It
 * must be refused with a message or used with sane numbers, never crash.
 *
 * An input that starts with "AIM" aims its patches: byte 3 picks a part
 * of the segment (0 the whole, 1 the header: counts, lock_turns, the id
 * counter, rows_hi; 2 the process table; 3 the rows' use; 4 the orphaned
 * counts and counters), and each patch's offset is taken modulo that
 * part; byte 4's bits are rows 0..7 whose lock bytes another open file
 * description holds, as live processes would (segment.h), so that the
 * table's rows are read as live as well as dead.
 *
 * The table lock itself is never held by another: a held lock costs its
 * 2 s bound each time (tests/unit/test_segment.c covers it), and the
 * segment is always marked ready, since a segment not ready is waited
 * for 5 s; both would make fuzzing thousands of times slower.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/segment.h"
#include "fuzz.h"

static struct segment *tmpl;
static size_t tmpl_size;  /* the valid segment's size, from its counts */
static char name[128];

/* A valid segment made by the code that makes them, kept as the base. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *m = getenv("CUEMU_MACHINE");
	char shm[160];
	struct stat st;
	int fd;

	snprintf(name, sizeof name, "%s-seg-%d", m && *m ? m : "cuemu-fuzz",
		 (int)getpid());
	setenv("CUEMU_MACHINE", name, 1);
	setenv("CUEMU_CONTROL", "0", 1);
	setenv("CUEMU_GROUP", "none", 1);
	unsetenv("CUEMU_TOPOLOGY");
	if (cuemu_machine_attach() < 0) {
		fprintf(stderr, "fuzz_segment: %s\n", cuemu_errmsg());
		exit(2);
	}
	cuemu_machine_detach();
	snprintf(shm, sizeof shm, "/%s", name);
	fd = shm_open(shm, O_RDONLY, 0);
	if (fd >= 0 && fstat(fd, &st) == 0)
		tmpl_size = (size_t)st.st_size;
	tmpl = tmpl_size >= sizeof *tmpl ? malloc(tmpl_size) : NULL;
	if (fd < 0 || !tmpl ||
	    pread(fd, tmpl, tmpl_size, 0) != (ssize_t)tmpl_size) {
		fprintf(stderr, "fuzz_segment: cannot read %s\n", shm);
		exit(2);
	}
	close(fd);
	shm_unlink(shm);
	return 0;
}

static void use(void)
{
	int n = cuemu_device_count();
	uint64_t id;

	FUZZ_CHECK(n >= 1 && n <= CUEMU_MAX_DEVICES);
	FUZZ_CHECK(memchr(cuemu_machine_name(), '\0', 64));
	for (int d = 0; d < n; d++) {
		const struct cuemu_device_info *i = cuemu_device(d);

		FUZZ_CHECK(i && memchr(i->name, '\0', sizeof i->name));
		FUZZ_CHECK(cuemu_mem_used(d) <= i->total);
		if (cuemu_mem_charge(d, 4096)) {
			FUZZ_CHECK(cuemu_mem_used(d) <= i->total);
			cuemu_mem_uncharge(d, 4096);
		}
		cuemu_counter_add(d, CUEMU_CTR_MIGRATIONS, 1);
		(void)cuemu_counter_get(d, CUEMU_CTR_MIGRATIONS);
		(void)cuemu_copy_cost_ns(d, CUEMU_PROC_HOST, 1 << 20);
		(void)cuemu_fault_cost_ns(CUEMU_PROC_HOST, d, 1 << 20, 4096);
	}
	for (int node = 0; node < cuemu_numa_count(); node++)
		(void)cuemu_numa_total(node);
	/* Whatever the shared counter says, a process's ids only rise. */
	id = cuemu_next_id();
	FUZZ_CHECK(cuemu_next_id() > id);
}

/* Where the part an aimed input picked lies: *off and *len. */
static void aim_at(int part, size_t *off, size_t *len)
{
	struct seg_layout l;

	*off = 0;
	*len = tmpl_size;
	if (seg_layout(tmpl->topo.ndev, tmpl->topo.nnuma, &l) < 0)
		return;
	switch (part % 5) {
	case 1:
		*len = offsetof(struct segment, procs);
		break;
	case 2:
		*off = offsetof(struct segment, procs);
		*len = sizeof tmpl->procs;
		break;
	case 3:
		*off = l.rows;
		*len = l.size - l.rows;
		break;
	case 4:
		*off = l.used;
		*len = l.rows - l.used;
		break;
	}
}

/* Holds the lock bytes of the rows in mask through a description of its
 * own, as live processes would: its fd, to close after the run, or -1. */
static int hold_rows(const char *shm, unsigned mask)
{
	int fd;

	if (!mask || (fd = shm_open(shm, O_RDWR | O_CLOEXEC, 0)) < 0)
		return -1;
	for (int i = 0; i < 8; i++) {
		struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET,
				    .l_start = SEG_LOCK_ROW(i), .l_len = 1 };

		if (mask & 1u << i)
			fcntl(fd, F_OFD_SETLK, &fl);
	}
	return fd;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct segment *s = malloc(tmpl_size);
	size_t off = 0, len = tmpl_size;
	unsigned held = 0;
	char shm[160];
	int fd, rows_fd;

	if (!s)
		return 0;
	memcpy(s, tmpl, tmpl_size);
	if (size >= 5 && !memcmp(data, "AIM", 3)) {
		aim_at(data[3], &off, &len);
		held = data[4];
		data += 5;
		size -= 5;
	}
	fuzz_patch((char *)s + off, len, data, size);
	/* Not ready reads as a creator still at work, waited for 5 s. */
	if (!s->ready)
		s->ready = 1;
	snprintf(shm, sizeof shm, "/%s", name);
	fd = shm_open(shm, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0) {
		rows_fd = hold_rows(shm, held);
		if (pwrite(fd, s, tmpl_size, 0) == (ssize_t)tmpl_size &&
		    cuemu_machine_attach() == 0)
			use();
		cuemu_machine_detach();
		if (rows_fd >= 0)
			close(rows_fd);
		close(fd);
		shm_unlink(shm);
	}
	free(s);
	return 0;
}
