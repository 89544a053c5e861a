/*
 * snapshot.c - /cu/snapshot.json: the machine and every process the reader
 * may see in one JSON document, each process's objects copied in as the process
 * rendered them in its published segment (no parse, no print), into one
 * buffer grown from the size of the last snapshot.
 *
 * Locking: none of its own; the processes are taken with a reference
 * (client.c) and read through pubread.c's consistent copies.
 */
#include "cufs.h"
#include "pubread.h"
#include "outward/pubseg.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* snapshot.json's text as it is made: one buffer, grown by doubling from
 * about the size the last snapshot had, so that 100,000 allocations are
 * one copy each and not a stream's copies of copies. */
struct sbuf {
	char *s;
	size_t len, cap;
	bool failed;
};

/* The size of the last snapshot: where the next one's buffer starts.
 * Global because snapshots follow each other; a hint, read and written
 * without a lock. */
static size_t last_snapshot_len;

static bool sb_room(struct sbuf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 4096;
	char *s;

	if (b->failed)
		return false;
	if (b->len + n + 1 <= b->cap)
		return true;
	while (cap < b->len + n + 1)
		cap *= 2;
	if (!(s = realloc(b->s, cap))) {
		b->failed = true;
		return false;
	}
	b->s = s;
	b->cap = cap;
	return true;
}

static void sb_put(struct sbuf *b, const char *p, size_t n)
{
	if (!sb_room(b, n))
		return;
	memcpy(b->s + b->len, p, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void sb_puts(struct sbuf *b, const char *p)
{
	sb_put(b, p, strlen(p));
}

/* "<prefix>"<n>": " with n in decimal, the way a member's name opens. */
static void sb_key(struct sbuf *b, const char *prefix, unsigned long long n)
{
	char d[24], *p = d + sizeof d;

	do
		*--p = (char)('0' + n % 10);
	while ((n /= 10));
	sb_puts(b, prefix);
	sb_put(b, "\"", 1);
	sb_put(b, p, (size_t)(d + sizeof d - p));
	sb_put(b, "\": ", 3);
}

/* Writes JSON text with every line after its first indented by depth more
 * spaces, so a member's text printed at the top level sits in place
 * inside the document. A newline in JSON text is always layout (strings
 * escape theirs), so this is all the parsing it needs. */
static void sb_indented(struct sbuf *b, const char *s, int depth)
{
	static const char spaces[] = "        ";
	const char *nl;

	while ((nl = strchr(s, '\n'))) {
		sb_put(b, s, (size_t)(nl - s) + 1);
		sb_put(b, spaces, (size_t)depth < sizeof spaces - 1 ?
		       (size_t)depth : sizeof spaces - 1);
		s = nl + 1;
	}
	sb_puts(b, s);
}

/* snapshot.json's members of one class: "<id>": <record> a line each. */
struct snap {
	struct sbuf *b;
	bool first;
};

static void snap_member(uint64_t id, const char *text, size_t len, void *arg)
{
	struct snap *sn = arg;

	sb_key(sn->b, sn->first ? "\n        " : ",\n        ",
	       (unsigned long long)id);
	sb_put(sn->b, text, len);
	sn->first = false;
}

/* One process's part of snapshot.json, from its segment: its record and
 * every object's, each copied in as the process rendered it (no parse,
 * no print). 0 or an errno; what it wrote before an error is the
 * caller's to take back. */
static int snapshot_proc(struct sbuf *b, const struct cufs_proc *p)
{
	struct snap sn = { .b = b };
	uint32_t cls;
	size_t len;
	char *text;
	int rc;

	if (!p->map)
		return p->err ? p->err : EIO;
	if ((rc = pubmap_get(p->map, 0, &cls, &text, &len, NULL)) < 0)
		return -rc;
	sb_puts(b, "{\n      \"process\": ");
	sb_put(b, text, len);
	free(text);
	for (size_t c = 0; c < CUFS_NCLASSES; c++) {
		sb_puts(b, ",\n      \"");
		sb_puts(b, cufs_classes[c]);
		sb_puts(b, "\": {");
		sn.first = true;
		if ((rc = pubmap_each(p->map, cufs_class_pub[c], snap_member, &sn)) < 0)
			return -rc;
		sb_puts(b, sn.first ? "}" : "\n      }");
	}
	sb_puts(b, "\n    }");
	return 0;
}

/* /snapshot.json: the machine and every process viewer may see, one
 * text, laid out as JSON_INDENT(2) lays out the document's top levels,
 * each object on a line of its own. A process whose segment cannot be
 * read is left out (its files say EIO), and so is one of another user's
 * (cufs_may_see). */
char *cufs_snapshot_text(uid_t viewer)
{
	struct cufs_proc *ps[CUFS_MAX_PROCS];
	struct sbuf b = { 0 };
	bool first = true;
	int np, err;
	json_t *m;
	char *t;

	sb_room(&b, last_snapshot_len + last_snapshot_len / 8);
	sb_puts(&b, "{");
	if ((m = cufs_machine_part(INT_MIN, &err)) &&
	    (t = json_dumps(m, JSON_INDENT(2)))) {
		sb_puts(&b, "\n  \"machine\": ");
		sb_indented(&b, t, 2);
		free(t);
		sb_puts(&b, ",");
	}
	json_decref(m);
	sb_puts(&b, "\n  \"processes\": {");
	cufs_procs_refresh(true);
	np = cufs_procs_get(ps, CUFS_MAX_PROCS);
	for (int i = 0; i < np; i++) {
		size_t mark = b.len;

		if (!cufs_may_see(viewer, ps[i]->uid))
			continue;
		sb_key(&b, first ? "\n    " : ",\n    ",
		       (unsigned long long)ps[i]->pid);
		if (snapshot_proc(&b, ps[i]) == 0)
			first = false;
		else if (!b.failed)
			b.s[b.len = mark] = '\0'; /* left out whole */
	}
	cufs_procs_put(ps, np);
	sb_puts(&b, first ? "}\n}\n" : "\n  }\n}\n");
	if (b.failed) {
		free(b.s);
		return NULL;
	}
	last_snapshot_len = b.len;
	return b.s;
}
