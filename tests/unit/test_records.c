/*
 * test_records.c - cufs's records (cufs/records.c) over real segments
 * (runtime/outward/pubseg.c writes, cufs/pubread.c reads, all compiled
 * in): a record read again while unchanged is the one parsed before, and
 * the kept record is never served once it is stale: a record changed in
 * place or moved, a record removed and its slot reused by another id, a
 * second process's segment with the same ids, a later mapping whose slot
 * and sequence are the same as a closed one's, a segment truncated under
 * the reader; and, under a writer that never stops, no reader ever sees
 * a record older than one it saw before, nor the last one missed.
 */
#include "tap.h"
#include "cufs.h"
#include "outward/pubseg.h"
#include "pubread.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path_a[256], path_b[256];

/* A process as client.c makes one, over the segment at path. */
static int open_proc(struct cufs_proc *p, const char *path)
{
	uid_t uid;

	memset(p, 0, sizeof *p);
	p->pid = getpid();
	return pubmap_open(path, getpid(), &p->map, &uid);
}

static int put(struct pubseg *w, uint32_t cls, uint64_t id, long v,
	       size_t pad)
{
	char buf[8192];
	int n = snprintf(buf, sizeof buf, "{\"id\":%llu,\"v\":%ld,\"pad\":\"",
			 (unsigned long long)id, v);

	memset(buf + n, 'x', pad);
	n += (int)pad;
	n += snprintf(buf + n, sizeof buf - (size_t)n, "\"}");
	return pubseg_put(w, cls, id, buf, (size_t)n);
}

/* v of p's record id (class cls), or -errno. */
static long value(const struct cufs_proc *p, uint64_t id, uint32_t cls)
{
	int err = 0;
	json_t *r = cufs_record(p, id, cls, &err);
	long v;

	if (!r)
		return -err;
	v = (long)json_integer_value(json_object_get(r, "v"));
	json_decref(r);
	return v;
}

static void test_kept(void)
{
	struct cufs_proc p;
	struct pubseg w;
	json_t *r1, *r2, *r3;
	int err = 0;

	pubseg_create(&w, path_a);
	put(&w, PUB_ALLOCATIONS, 12, 1, 10);
	ok(open_proc(&p, path_a) == 0, "the segment is mapped");
	r1 = cufs_record(&p, 12, PUB_ALLOCATIONS, &err);
	r2 = cufs_record(&p, 12, PUB_ALLOCATIONS, &err);
	ok(r1 && r1 == r2, "a record read again unchanged is the one parsed "
	   "before");
	json_decref(r2);
	put(&w, PUB_ALLOCATIONS, 12, 2, 10);
	r2 = cufs_record(&p, 12, PUB_ALLOCATIONS, &err);
	ok(r2 && r2 != r1 && json_integer_value(json_object_get(r2, "v")) == 2,
	   "a record changed in place is seen at the next read");
	ok(json_integer_value(json_object_get(r1, "v")) == 1,
	   "and the copy handed out before is left as it was");
	put(&w, PUB_ALLOCATIONS, 12, 3, 4000);
	ok(value(&p, 12, PUB_ALLOCATIONS) == 3,
	   "a record that grew into another block is seen");
	r3 = cufs_record(&p, 12, PUB_POOLS, &err);
	ok(!r3 && err == ENOENT, "asked as another class it is ENOENT");
	ok(value(&p, 12, PUB_ALLOCATIONS) == 3,
	   "and still itself in its own class");
	pubseg_remove(&w, 12);
	ok(value(&p, 12, PUB_ALLOCATIONS) == -ENOENT,
	   "a removed record is ENOENT, though it was kept");
	pubseg_put(&w, PUB_ALLOCATIONS, 13, "[1,2]", 5);
	ok(value(&p, 13, PUB_ALLOCATIONS) == -EIO,
	   "a record that is no JSON object is EIO");
	json_decref(r1);
	json_decref(r2);
	pubmap_close(p.map);
	pubseg_unlink(&w);
}

/* An id past from whose probe starts at from's slot. */
static uint64_t same_start(uint64_t from, uint64_t nslots)
{
	uint64_t id = from + 1;

	while (pub_hash(id, nslots) != pub_hash(from, nslots))
		id++;
	return id;
}

static void test_reused_slot(void)
{
	struct pubstamp sa, sb;
	struct cufs_proc p;
	struct pubseg w;
	uint64_t b;
	uint32_t cls;
	size_t len;
	char *t;

	pubseg_create(&w, path_a);
	b = same_start(40, w.h->nslots);
	put(&w, PUB_ALLOCATIONS, 40, 1, 10);
	open_proc(&p, path_a);
	ok(value(&p, 40, PUB_ALLOCATIONS) == 1, "record 40 is read (and kept)");
	pubmap_get(p.map, 40, &cls, &t, &len, &sa);
	free(t);
	pubseg_remove(&w, 40);
	put(&w, PUB_ALLOCATIONS, b, 2, 10);
	ok(pubmap_get(p.map, b, &cls, &t, &len, &sb) == 0 &&
	   sb.slot == sa.slot, "record %llu took the slot 40 had",
	   (unsigned long long)b);
	free(t);
	ok(value(&p, 40, PUB_ALLOCATIONS) == -ENOENT,
	   "40 is ENOENT, not the record kept of it");
	ok(value(&p, b, PUB_ALLOCATIONS) == 2, "the new id reads as itself");
	put(&w, PUB_ALLOCATIONS, 40, 3, 10);
	ok(value(&p, 40, PUB_ALLOCATIONS) == 3, "40 put again reads anew");
	pubmap_close(p.map);
	pubseg_unlink(&w);
}

static void test_two_processes(void)
{
	struct cufs_proc pa, pb;
	struct pubseg wa, wb;
	int same = 0;

	pubseg_create(&wa, path_a);
	pubseg_create(&wb, path_b);
	/* The same writes, so the same slots and sequences, but values
	 * that differ. */
	put(&wa, PUB_PROCESS, 0, 100, 10);
	put(&wb, PUB_PROCESS, 0, 200, 10);
	open_proc(&pa, path_a);
	open_proc(&pb, path_b);
	for (int i = 0; i < 4; i++)
		same += value(&pa, 0, PUB_PROCESS) == 100 &&
			value(&pb, 0, PUB_PROCESS) == 200;
	ok(same == 4, "two processes' records of one id are each their own");
	pubmap_close(pb.map);
	pubseg_unlink(&wb);

	/* A mapping closed, and a new one of a segment written alike: the
	 * same slot and sequence, perhaps the same address. */
	ok(value(&pa, 0, PUB_PROCESS) == 100, "the first is kept");
	pubmap_close(pa.map);
	pubseg_unlink(&wa);
	pubseg_create(&wa, path_a);
	put(&wa, PUB_PROCESS, 0, 300, 10);
	open_proc(&pa, path_a);
	ok(value(&pa, 0, PUB_PROCESS) == 300,
	   "a later mapping alike is never served the closed one's record");
	pubmap_close(pa.map);
	pubseg_unlink(&wa);
}

static void test_truncated(void)
{
	struct cufs_proc p;
	struct pubseg w;
	json_t *r;
	int err = 0;

	pubseg_create(&w, path_a);
	put(&w, PUB_ALLOCATIONS, 5, 1, 10);
	open_proc(&p, path_a);
	ok(value(&p, 5, PUB_ALLOCATIONS) == 1, "a record is read and kept");
	ok(truncate(path_a, 4096) == 0, "the segment is truncated");
	r = cufs_record(&p, 5, PUB_ALLOCATIONS, &err);
	ok(!r && err == EIO, "the kept record is not served: EIO");
	pubmap_close(p.map);
	pubseg_unlink(&w);
	p.map = NULL;
	p.err = EIO;
	r = cufs_record(&p, 5, PUB_ALLOCATIONS, &err);
	ok(!r && err == EIO, "a process whose segment cannot be read is EIO");
}

/* ---------------------------------------------------------------- concurrency */

#define CONC_IDS 8
/* The writer writes at least CONC_MIN_WRITES times, then until the
 * readers have read CONC_READS times (or it has written CONC_MAX_WRITES):
 * readers started first may read that often before it runs at all. */
#define CONC_READS 30000
#define CONC_MAX_WRITES 5000000
#define CONC_MIN_WRITES 20000

static struct {
	struct pubseg w;
	long last[CONC_IDS];     /* the writer's last value of each id */
	volatile bool done;
	size_t reads, back, bad;
} conc;

static void *writer(void *arg)
{
	(void)arg;
	/* At least CONC_MIN_WRITES, however many reads the readers made
	 * before this thread ran. */
	for (long v = CONC_IDS; v <= CONC_MAX_WRITES &&
	     (v < CONC_MIN_WRITES ||
	      __atomic_load_n(&conc.reads, __ATOMIC_RELAXED) < CONC_READS);
	     v++) {
		uint64_t id = 1 + (uint64_t)v % CONC_IDS;

		/* Now in place, now moved to a larger block. */
		if (put(&conc.w, PUB_ALLOCATIONS, id, v,
			(size_t)(v * 131 % 2000)) == 0)
			conc.last[id - 1] = v;
	}
	conc.done = true;
	return NULL;
}

static void *reader(void *arg)
{
	struct cufs_proc p;
	long seen[CONC_IDS] = { 0 };
	unsigned seed = (unsigned)(uintptr_t)arg;

	p.map = NULL;
	while (!conc.done) {
		uint64_t id = 1 + (uint64_t)rand_r(&seed) % CONC_IDS;
		long v;

		/* A new generation is a new mapping, as client.c opens it. */
		if (!p.map || pubmap_retired(p.map)) {
			pubmap_close(p.map);
			if (open_proc(&p, path_a) < 0)
				continue;
		}
		v = value(&p, id, PUB_ALLOCATIONS);

		if (v == -EAGAIN || v == -ENOENT)
			continue;
		__atomic_add_fetch(&conc.reads, 1, __ATOMIC_RELAXED);
		if (v < 0 || (uint64_t)v % CONC_IDS != id - 1)
			__atomic_add_fetch(&conc.bad, 1, __ATOMIC_RELAXED);
		else if (v < seen[id - 1])
			__atomic_add_fetch(&conc.back, 1, __ATOMIC_RELAXED);
		else
			seen[id - 1] = v;
	}
	pubmap_close(p.map);
	return NULL;
}

static void test_concurrent(void)
{
	pthread_t wt, rt[3];
	struct cufs_proc p;
	int stale = 0;

	pubseg_create(&conc.w, path_a);
	/* Room enough that the writer makes no new generation. */
	for (uint64_t id = 1; id <= CONC_IDS; id++) {
		put(&conc.w, PUB_ALLOCATIONS, id, (long)id - 1, 10);
		conc.last[id - 1] = (long)id - 1;
	}
	for (int i = 0; i < 3; i++)
		pthread_create(&rt[i], NULL, reader, (void *)(uintptr_t)(i + 1));
	pthread_create(&wt, NULL, writer, NULL);
	pthread_join(wt, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(rt[i], NULL);
	ok(conc.reads > 0 && conc.bad == 0, "readers read while the writer "
	   "wrote, each record whole and its own (%zu reads, %zu bad)",
	   conc.reads, conc.bad);
	ok(conc.back == 0, "no reader saw a record older than one it had seen "
	   "(%zu)", conc.back);
	open_proc(&p, path_a);
	for (uint64_t id = 1; id <= CONC_IDS; id++) {
		long v = value(&p, id, PUB_ALLOCATIONS);

		if (v != conc.last[id - 1] && stale++ < 3)
			printf("# record %llu reads %ld, its last write %ld\n",
			       (unsigned long long)id, v, conc.last[id - 1]);
	}
	ok(stale == 0, "after the writer, every record reads as its last");
	pubmap_close(p.map);
	pubseg_unlink(&conc.w);
}

int main(void)
{
	const char *m = getenv("CUEMU_MACHINE");
	char b[256];

	m = m && *m ? m : "cuemu-test";
	snprintf(b, sizeof b, "%s-b", m);
	pub_path(path_a, sizeof path_a, m, getpid());
	pub_path(path_b, sizeof path_b, b, getpid());
	test_kept();
	test_reused_slot();
	test_two_processes();
	test_truncated();
	test_concurrent();
	cufs_records_drop();
	unlink(path_a);
	unlink(path_b);
	return done_testing();
}
