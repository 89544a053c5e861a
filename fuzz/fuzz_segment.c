/*
 * fuzz_segment.c - the reader of the machine segment (machine.c), which
 * any process of the machine may write. Each input is a list of patches
 * laid over a valid segment: [offset: 4 bytes, little endian, taken
 * modulo the segment's size][length: 1 byte][that many bytes]. The result
 * is written to a segment of its own, which this process then joins and
 * uses as a program would: counts, names, links, costs, charges, ids. It
 * must be refused with a message or used with sane numbers, never crash.
 *
 * The process-table lock is always a valid, unlocked one, and the segment
 * always marked ready: a scribbled or held lock costs its 2 s timeout each
 * time, and a segment not ready the 5 s its creator is waited for (both
 * covered by tests/unit/test_segment.c), which would make fuzzing
 * thousands of times slower.
 */
#include <fcntl.h>
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
	(void)cuemu_next_id();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct segment *s = malloc(tmpl_size);
	char shm[160];
	int fd;

	if (!s)
		return 0;
	memcpy(s, tmpl, tmpl_size);
	fuzz_patch(s, tmpl_size, data, size);
	memcpy(&s->lock, &tmpl->lock, sizeof s->lock);
	/* Not ready reads as a creator still at work, waited for 5 s. */
	if (!s->ready)
		s->ready = 1;
	snprintf(shm, sizeof shm, "/%s", name);
	fd = shm_open(shm, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0) {
		if (pwrite(fd, s, tmpl_size, 0) == (ssize_t)tmpl_size &&
		    cuemu_machine_attach() == 0)
			use();
		cuemu_machine_detach();
		close(fd);
		shm_unlink(shm);
	}
	free(s);
	return 0;
}
