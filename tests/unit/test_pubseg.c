/*
 * test_pubseg.c - the published-state segment (runtime/outward/pubseg.h):
 * its writer (pubseg.c) and cufs's reader (cufs/pubread.c), both compiled
 * in. Records put, replaced, removed and listed; new generations; a
 * segment that is corrupt or truncated under the reader (EIO, never a
 * crash); and the copy protocol under a writer that never stops, with
 * readers that must never see a torn record.
 */
#include "tap.h"
#include "outward/pubseg.h"
#include "model/procstat.h"
#include "pubread.h"

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[256];

static int open_map(struct pubmap **m)
{
	uid_t uid;

	return pubmap_open(path, getpid(), m, &uid);
}

/* "<id>:<ver>:" and filler of one letter, its length from ver: a reader
 * can tell a torn copy (two versions mixed) from a whole one. */
static size_t make_text(char *buf, uint64_t id, uint64_t ver)
{
	size_t len = 10 + ver * 7919 % 3000;
	int n = snprintf(buf, 64, "%llu:%llu:", (unsigned long long)id,
			 (unsigned long long)ver);

	memset(buf + n, 'a' + (int)(ver % 26), len);
	return (size_t)n + len;
}

static bool text_whole(const char *t, size_t len, uint64_t id)
{
	unsigned long long i, v;
	int n;

	if (sscanf(t, "%llu:%llu:%n", &i, &v, &n) != 2 || i != id)
		return false;
	if (len != (size_t)n + 10 + v * 7919 % 3000)
		return false;
	for (size_t k = (size_t)n; k < len; k++)
		if (t[k] != 'a' + (int)(v % 26))
			return false;
	return true;
}

static void test_basics(void)
{
	struct pubseg w;
	struct pubmap *m;
	uint64_t *ids;
	uint32_t cls;
	size_t n, len;
	char *text;

	ok(pubseg_create(&w, path) == 0, "a segment is made");
	ok(access(path, F_OK) == 0, "at its name in /dev/shm");
	ok(pubseg_put(&w, PUB_PROCESS, 0, "{\"pid\":1}", 9) == 0,
	   "the process record is put");
	ok(pubseg_put(&w, PUB_ALLOCATIONS, 12, "{\"id\":12}", 9) == 0 &&
	   pubseg_put(&w, PUB_ALLOCATIONS, 7, "{\"id\":7}", 8) == 0 &&
	   pubseg_put(&w, PUB_POOLS, 9, "{\"id\":9}", 8) == 0,
	   "records of two classes are put");
	ok(open_map(&m) == 0, "the reader maps it");
	ok(pubmap_get(m, 12, &cls, &text, &len, NULL) == 0 && cls == PUB_ALLOCATIONS &&
	   len == 9 && !strcmp(text, "{\"id\":12}"), "a record reads back whole");
	free(text);
	ok(pubmap_ids(m, PUB_ALLOCATIONS, &ids, &n) == 0 && n == 2 &&
	   ids[0] == 7 && ids[1] == 12, "a class's ids are listed, sorted");
	free(ids);
	ok(pubmap_has(m, 9, PUB_POOLS) == 1 && pubmap_has(m, 9, PUB_HANDLES) == 0,
	   "an id is found in its own class only");
	ok(pubseg_put(&w, PUB_ALLOCATIONS, 12, "{\"id\":12,\"label\":\"a longer "
		      "one than fits the block it had before, by far, to move "
		      "it\"}", 85) == 0 &&
	   pubmap_get(m, 12, &cls, &text, &len, NULL) == 0 && len == 85,
	   "a record that grows moves to a larger block and reads whole");
	free(text);
	pubseg_remove(&w, 7);
	ok(pubmap_get(m, 7, &cls, &text, &len, NULL) == -ENOENT,
	   "a removed record is gone");
	ok(pubmap_has(m, 12, PUB_ALLOCATIONS) == 1,
	   "a record past a tombstone is still found");
	pubmap_close(m);
	pubseg_unlink(&w);
	ok(access(path, F_OK) < 0, "unlink removes the name");
}

static void test_generations(void)
{
	struct pubseg w;
	struct pubmap *m, *m2;
	char buf[4096];
	uint32_t cls;
	size_t len, n, bad = 0;
	uint64_t *ids;
	char *text;

	pubseg_create(&w, path);
	open_map(&m);
	for (uint64_t id = 1; id <= 5000; id++)
		if (pubseg_put(&w, PUB_ALLOCATIONS, id, buf,
			       make_text(buf, id, id)) < 0)
			bad++;
	ok(bad == 0, "5,000 records are put through new generations");
	ok(pubmap_retired(m), "the first generation says it is retired");
	ok(open_map(&m2) == 0 && pubmap_ids(m2, PUB_ALLOCATIONS, &ids, &n) == 0 &&
	   n == 5000, "the name's newest generation has every record");
	free(ids);
	for (uint64_t id = 1; id <= 5000; id++)
		if (pubmap_get(m2, id, &cls, &text, &len, NULL) != 0 ||
		    !text_whole(text, len, id) || (free(text), 0))
			bad++;
	ok(bad == 0, "and each reads back whole");
	pubmap_close(m);
	pubmap_close(m2);
	pubseg_unlink(&w);
}

static void test_corrupt(void)
{
	struct pubseg w;
	struct pubmap *m;
	uint64_t zero = 0;
	uint32_t cls;
	size_t len;
	char *text;
	int fd;

	pubseg_create(&w, path);
	pubseg_put(&w, PUB_ALLOCATIONS, 5, "{}", 2);
	fd = open(path, O_RDWR);
	pwrite(fd, &zero, sizeof zero, 0);
	ok(open_map(&m) == -EIO, "a segment without its magic is EIO");
	w.h->magic = PUB_MAGIC;
	{
		uint64_t huge = 1ULL << 40;

		pwrite(fd, &huge, sizeof huge,
		       offsetof(struct pub_header, heap_size));
		ok(open_map(&m) == -EIO, "a heap past the file's end is EIO");
		w.h->heap_size = 256u << 10;
	}
	ok(open_map(&m) == 0, "repaired, it opens");
	/* A slot that points outside the heap. */
	for (uint64_t i = 0; i < w.h->nslots; i++) {
		struct pub_slot *s = (struct pub_slot *)((char *)w.h +
			w.h->slots_off) + i;

		if (s->cls == PUB_ALLOCATIONS)
			s->off = 1ULL << 50;
	}
	ok(pubmap_get(m, 5, &cls, &text, &len, NULL) == -EIO,
	   "a record outside the heap is EIO");
	ok(ftruncate(fd, 4096) == 0, "the file is truncated under the reader");
	ok(pubmap_get(m, 5, &cls, &text, &len, NULL) == -EIO,
	   "a read past the end is EIO, not a SIGBUS");
	ok(pubmap_retired(m), "and the reader is told to map it again");
	close(fd);
	pubmap_close(m);
	pubseg_unlink(&w);
}

/* ---------------------------------------------------------------- concurrency */

#define CONC_IDS 64
#define CONC_WRITES 60000

static struct {
	struct pubseg w;
	volatile bool done;
	size_t torn, reads, again;
} conc;

static void *writer(void *arg)
{
	char buf[4096];
	uint64_t ver = 1, fresh = 1000;

	(void)arg;
	for (int i = 0; i < CONC_WRITES; i++, ver++) {
		uint64_t id = 1 + (uint64_t)rand_r(&(unsigned){ (unsigned)i }) %
			      CONC_IDS;

		if (i % 97 == 0)
			pubseg_remove(&conc.w, id);
		else
			pubseg_put(&conc.w, PUB_ALLOCATIONS, id, buf,
				   make_text(buf, id, ver));
		/* Bursts of new records make new generations meanwhile. */
		if (i % 10000 == 5000)
			for (int k = 0; k < 2000; k++, fresh++)
				pubseg_put(&conc.w, PUB_POOLS, fresh, buf,
					   make_text(buf, fresh, fresh));
	}
	conc.done = true;
	return NULL;
}

static void *reader(void *arg)
{
	struct pubmap *m = NULL;
	unsigned seed = (unsigned)(uintptr_t)arg;
	uint32_t cls;
	size_t len;
	char *text;
	int rc;

	while (!conc.done) {
		uint64_t id = 1 + (uint64_t)rand_r(&seed) % CONC_IDS;

		if (!m || pubmap_retired(m)) {
			pubmap_close(m);
			if (open_map(&m) < 0) {
				m = NULL;
				continue;
			}
		}
		rc = pubmap_get(m, id, &cls, &text, &len, NULL);
		if (rc == -EAGAIN)
			__atomic_add_fetch(&conc.again, 1, __ATOMIC_RELAXED);
		if (rc)
			continue;
		__atomic_add_fetch(&conc.reads, 1, __ATOMIC_RELAXED);
		if (!text_whole(text, len, id))
			__atomic_add_fetch(&conc.torn, 1, __ATOMIC_RELAXED);
		free(text);
	}
	pubmap_close(m);
	return NULL;
}

static void test_concurrent(void)
{
	pthread_t wt, rt[2];

	pubseg_create(&conc.w, path);
	pthread_create(&rt[0], NULL, reader, (void *)1);
	pthread_create(&rt[1], NULL, reader, (void *)2);
	pthread_create(&wt, NULL, writer, NULL);
	pthread_join(wt, NULL);
	pthread_join(rt[0], NULL);
	pthread_join(rt[1], NULL);
	ok(conc.reads > 0, "readers took copies while the writer wrote "
	   "(%zu, %zu retried out)", conc.reads, conc.again);
	ok(conc.torn == 0, "no copy was torn (%zu)", conc.torn);
	pubseg_unlink(&conc.w);
}

int main(void)
{
	const char *m = getenv("CUEMU_MACHINE");

	pub_path(path, sizeof path, m && *m ? m : "cuemu-test", getpid());
	test_basics();
	test_generations();
	test_corrupt();
	test_concurrent();
	ok(cuemu_proc_start_time(getpid()) != 0, "a live process has a start time");
	ok(cuemu_proc_start_time(0x7ffffff0) == 0, "a free pid has none");
	unlink(path);
	return done_testing();
}
