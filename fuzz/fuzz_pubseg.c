/*
 * fuzz_pubseg.c - cufs's reader of published state (cufs/pubread.c), the
 * per-process segment any process writes and cufs maps (pubseg.h), and
 * what cufs makes of a record's text: its JSON, and a span's view of a
 * managed allocation's ranges (cufs/spanview.c). Each input is a list of
 * patches laid over a valid segment, as fuzz_segment.c lays them: [offset:
 * 4 bytes, little endian, taken modulo the segment's size][length: 1
 * byte][that many bytes]. The result is written to a file of this
 * process's, which is then opened and read as cufs reads it: every class
 * listed, every record copied, stamped and checked, parsed and viewed. It
 * must be refused with an errno or read with sane results, never crash.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cufs.h"
#include "pubread.h"
#include "outward/pubseg.h"
#include "fuzz.h"

static char *tmpl;
static size_t tmpl_size;
static char path[256];

/* A managed allocation's record as publish.c renders one, in brief. */
static const char managed_rec[] =
	"{\"id\":12,\"kind\":\"managed\",\"base\":\"0x7f0000000000\","
	"\"size\":2097152,\"writable\":[\"label\",\"advise\",\"prefetch\"],"
	"\"ranges\":[{\"start\":\"0x7f0000000000\",\"end\":\"0x7f0000100000\","
	"\"preferred_location\":\"gpu0\",\"last_prefetch_location\":\"none\","
	"\"accessed_by\":[\"gpu1\"],\"read_mostly\":0,\"holders\":[\"gpu0\"],"
	"\"residency\":{\"gpu0\":1048576}},{\"start\":\"0x7f0000100000\","
	"\"end\":\"0x7f0000200000\",\"preferred_location\":\"none\","
	"\"last_prefetch_location\":\"cpu\",\"accessed_by\":[],"
	"\"read_mostly\":1,\"holders\":[\"cpu\",\"gpu1\"],"
	"\"residency\":{\"cpu\":1048576,\"gpu1\":1048576}}]}";

/* A valid segment made by the writer cufs reads, with records of every
 * class, one replaced and one removed, kept as the base. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *m = getenv("CUEMU_MACHINE");
	struct pubseg w;
	struct stat st;
	int fd, ok;

	(void)argc, (void)argv;
	snprintf(path, sizeof path, "/dev/shm/%s-fuzzpub-%d",
		 m && *m ? m : "cuemu-fuzz", (int)getpid());
	ok = pubseg_create(&w, path) == 0 &&
	     pubseg_put(&w, PUB_PROCESS, 0, "{\"pid\":1,\"counters\":{}}",
			24) == 0 &&
	     pubseg_put(&w, PUB_ALLOCATIONS, 12, managed_rec,
			sizeof managed_rec - 1) == 0 &&
	     pubseg_put(&w, PUB_ALLOCATIONS, 13, "{\"id\":13}", 9) == 0 &&
	     pubseg_put(&w, PUB_ALLOCATIONS, 13, "{\"id\":13,\"size\":4}",
			18) == 0 &&
	     pubseg_put(&w, PUB_POOLS, 14, "{\"id\":14}", 9) == 0 &&
	     pubseg_put(&w, PUB_RESERVATIONS, 15, "{\"id\":15}", 9) == 0 &&
	     pubseg_put(&w, PUB_HANDLES, 16, "{\"id\":16}", 9) == 0 &&
	     pubseg_put(&w, PUB_MULTICAST, 17, "{\"id\":17}", 9) == 0;
	pubseg_remove(&w, 15);
	pubseg_commit(&w);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && fstat(fd, &st) == 0)
		tmpl_size = (size_t)st.st_size;
	tmpl = tmpl_size ? malloc(tmpl_size) : NULL;
	if (!ok || fd < 0 || !tmpl ||
	    pread(fd, tmpl, tmpl_size, 0) != (ssize_t)tmpl_size) {
		fprintf(stderr, "fuzz_pubseg: cannot make %s\n", path);
		exit(2);
	}
	close(fd);
	pubseg_unlink(&w);
	unlink(path);
	return 0;
}

/* What cufs makes of one record: its JSON, and for a record with ranges,
 * the view of its first range's span and of the whole allocation. */
static void view(const char *text, size_t len)
{
	json_t *o = json_loadb(text, len, 0, NULL), *r, *v;
	char name[64];

	if (!json_is_object(o)) {
		json_decref(o);
		return;
	}
	r = json_array_get(json_object_get(o, "ranges"), 0);
	snprintf(name, sizeof name, "%s-%s",
		 json_string_value(json_object_get(r, "start")) ?: "0",
		 json_string_value(json_object_get(r, "end")) ?: "0");
	json_decref(cufs_range_view(o, name));
	json_decref(cufs_range_view(o, "0x7f0000000000-0x7f0000200000"));
	if ((v = cufs_range_view(o, "0x7f0000001000-0x7f0000101000"))) {
		FUZZ_CHECK(json_is_object(v));
		json_decref(v);
	}
	json_decref(o);
}

static void count(uint64_t id, const char *text, size_t len, void *arg)
{
	(void)id;
	FUZZ_CHECK(text && text[len] == '\0');
	++*(size_t *)arg;
}

/* Reads m as cufs does: the ids of each class, each record copied and
 * checked against its stamp, its class and the listing. */
static void read_all(struct pubmap *m)
{
	for (uint32_t cls = PUB_PROCESS; cls <= PUB_MULTICAST; cls++) {
		uint64_t *ids = NULL;
		size_t n = 0, each = 0;

		if (pubmap_ids(m, cls, &ids, &n) < 0)
			continue;
		for (size_t i = 0; i < n; i++) {
			struct pubstamp st;
			uint32_t got;
			size_t len;
			char *text;

			FUZZ_CHECK(i == 0 || ids[i - 1] < ids[i]);
			if (pubmap_get(m, ids[i], &got, &text, &len, &st) < 0)
				continue;
			FUZZ_CHECK(text && text[len] == '\0');
			FUZZ_CHECK(pubmap_unchanged(m, &st));
			(void)pubmap_has(m, ids[i], got);
			view(text, len);
			free(text);
		}
		(void)pubmap_each(m, cls, count, &each);
		free(ids);
	}
	(void)pubmap_retired(m);
	(void)pubmap_start(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(tmpl_size);
	struct pubmap *m;
	uid_t uid;
	int fd;

	if (!s)
		return 0;
	memcpy(s, tmpl, tmpl_size);
	fuzz_patch(s, tmpl_size, data, size);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0) {
		if (pwrite(fd, s, tmpl_size, 0) == (ssize_t)tmpl_size &&
		    pubmap_open(path, getpid(), &m, &uid) == 0) {
			read_all(m);
			pubmap_close(m);
		}
		close(fd);
		unlink(path);
	}
	free(s);
	return 0;
}
