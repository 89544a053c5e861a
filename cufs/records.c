/*
 * records.c - a process's published records as JSON objects, for the
 * tree (cufs_record, cufs.h): a record is copied out of the process's
 * segment (pubread.h) and parsed, and the last ones parsed are kept with
 * the stamp of the copy each came from. A record asked for again is
 * served from what was kept only while its slot in that same mapping
 * has not changed since the copy (one load of the slot's sequence), so
 * it is never older than a new copy taken at that moment would be. Most
 * of an attribute read's time in cufs was that parse: the lookup, getattr
 * and open of one file, and a file read again and again (a monitor
 * polling residency), now parse its record once per change.
 *
 * Locking: cache_lock guards the table and is held only to look an entry
 * up or to swap one in, never while copying or parsing. A record handed
 * out is shared with the table and with other requests: no one changes
 * it (callers read it only), and jansson's reference counts are atomic.
 */
#include "cufs.h"
#include "pubread.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* Entries, one per (mapping, id) hash; a power of two. A record's parsed
 * form is a few kilobytes: this keeps at most about a megabyte. */
#define RECORD_CACHE 256

struct kept {
	json_t *v;           /* NULL: empty */
	uint64_t id;
	uint32_t cls;
	struct pubstamp st;  /* st.map: the mapping's serial */
};

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kept cache[RECORD_CACHE];

static struct kept *entry_of(uint64_t map, uint64_t id)
{
	uint64_t h = (id + 1) * 0x9e3779b97f4a7c15ULL ^
		     map * 0xc2b2ae3d27d4eb4fULL;

	return &cache[(h >> 40) & (RECORD_CACHE - 1)];
}

/* The kept record of id (class cls) in m, referenced, when its slot has
 * not changed since it was copied; else NULL. */
static json_t *kept_get(const struct pubmap *m, uint64_t id, uint32_t cls)
{
	uint64_t map = pubmap_serial(m);
	struct kept *k = entry_of(map, id);
	struct pubstamp st;
	json_t *v = NULL;

	pthread_mutex_lock(&cache_lock);
	if (k->v && k->st.map == map && k->id == id && k->cls == cls) {
		v = json_incref(k->v);
		st = k->st;
	}
	pthread_mutex_unlock(&cache_lock);
	if (v && !pubmap_unchanged(m, &st)) {
		json_decref(v);
		v = NULL;
	}
	return v;
}

/* Keeps v, copied as st says, in place of what its entry had. */
static void kept_put(uint64_t id, uint32_t cls, const struct pubstamp *st,
		     json_t *v)
{
	struct kept *k = entry_of(st->map, id);
	json_t *old;

	pthread_mutex_lock(&cache_lock);
	old = k->v;
	*k = (struct kept){ .v = json_incref(v), .id = id, .cls = cls,
			    .st = *st };
	pthread_mutex_unlock(&cache_lock);
	json_decref(old);
}

json_t *cufs_record(const struct cufs_proc *p, uint64_t id, uint32_t cls,
		    int *err)
{
	struct pubstamp st;
	uint32_t got;
	size_t len;
	char *text;
	json_t *v;
	int rc;

	if (!p->map) {
		*err = p->err ? p->err : EIO;
		return NULL;
	}
	if ((v = kept_get(p->map, id, cls)))
		return v;
	if ((rc = pubmap_get(p->map, id, &got, &text, &len, &st)) < 0) {
		*err = -rc;
		return NULL;
	}
	v = got == cls ? json_loadb(text, len, 0, NULL) : NULL;
	free(text);
	if (got != cls) {
		*err = ENOENT;
		return NULL;
	}
	if (!json_is_object(v)) {
		fprintf(stderr, "cufs: pid %d: record %llu is no JSON object\n",
			(int)p->pid, (unsigned long long)id);
		json_decref(v);
		*err = EIO;
		return NULL;
	}
	kept_put(id, cls, &st, v);
	return v;
}

void cufs_records_drop(void)
{
	json_t *old[RECORD_CACHE];

	pthread_mutex_lock(&cache_lock);
	for (size_t i = 0; i < RECORD_CACHE; i++) {
		old[i] = cache[i].v;
		cache[i] = (struct kept){ 0 };
	}
	pthread_mutex_unlock(&cache_lock);
	for (size_t i = 0; i < RECORD_CACHE; i++)
		json_decref(old[i]);
}
