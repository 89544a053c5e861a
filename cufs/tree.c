/*
 * tree.c - the /cu tree: paths resolved to directories, files and links at
 * the moment they are used, from the machine segment (devices/) and from
 * the processes (everything else), and the FUSE operations over them.
 *
 * Objects are rendered generically from their JSON: every key is a file
 * (a scalar its line, an array its words, an object its "key value"
 * lines), a value that is an object of objects is a directory, "json" is
 * the object pretty-printed, and the names in the object's "writable"
 * array are writable files. A file's text is taken once, at open, so one
 * read sequence shows one moment. The event log's files (events,
 * events_pipe, events_dropped; at the top and in processes/<pid>/) are
 * cufs's own: events.c keeps what they show. lowlevel.c answers the
 * kernel's requests with what these functions find by path.
 *
 * Who sees what (cufs(8), PRIVACY AND BUDGETS): a process's directory and
 * its objects' are listed for everyone, but only its owner and root see
 * in them, as /proc with hidepid=1 has it; snapshot.json leaves out the
 * processes the reader may not see, and the whole event log at the top is
 * for root and cufs's user alone.
 *
 * Locking: client.c and events.c lock what they share; here only the
 * list of open files (open_lock) and the processes' kernel indexes
 * (kidx_lock), neither held while another is taken. Each FUSE request
 * works on its own copies.
 */
#define FUSE_USE_VERSION 34
#include "cufs.h"
#include "pubread.h"
#include "outward/cuemu-private.h"
#include "outward/pubseg.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_DEPTH 32

const char *const cufs_classes[CUFS_NCLASSES] = {
	"allocations", "pools", "reservations", "handles", "multicast",
	"kernels",
};
/* The record class of each (pubseg.h). */
const uint32_t cufs_class_pub[CUFS_NCLASSES] = {
	PUB_ALLOCATIONS, PUB_POOLS, PUB_RESERVATIONS, PUB_HANDLES,
	PUB_MULTICAST, PUB_KERNELS,
};

enum ntype { N_DIR, N_FILE, N_LINK };
/* F_EVENTS is a view of the event log read as a file, F_EVENTS_PIPE as
 * a stream (events.c). */
enum fkind { F_TEXT, F_EVENTS, F_EVENTS_PIPE, F_SNAPSHOT };

/* What a path is, with what it needs: a directory's entries, a file's
 * text, a link's target, and for a writable file where a write goes. */
struct node {
	enum ntype type;
	enum fkind fkind;
	mode_t mode;
	uid_t uid;
	json_t *entries;    /* N_DIR: array of names */
	char *text;         /* N_FILE (F_TEXT) */
	char *target;       /* N_LINK */
	bool writable;      /* the object says so */
	bool may_write;     /* and the caller may */
	bool want_entries;  /* a directory's entries are needed (not stat) */
	pid_t pid;          /* the process that owns it, or 0 */
	char setpath[4200]; /* control path of a writable file */
};

static void node_free(struct node *n)
{
	json_decref(n->entries);
	free(n->text);
	free(n->target);
}

static uid_t caller_uid(void)
{
	return cufs_caller_uid();
}

static bool caller_may_write(uid_t owner)
{
	uid_t u = caller_uid();

	return u == 0 || u == owner;
}

bool cufs_may_see(uid_t viewer, uid_t owner)
{
	return viewer == 0 || viewer == owner;
}

static int class_index(const char *s)
{
	for (size_t i = 0; i < CUFS_NCLASSES; i++)
		if (!strcmp(s, cufs_classes[i]))
			return (int)i;
	return -1;
}

/* ---------------------------------------------------------------- text */

static void put_scalar(FILE *f, json_t *v)
{
	char *s;

	switch (json_typeof(v)) {
	case JSON_STRING:
		fputs(json_string_value(v), f);
		break;
	case JSON_INTEGER:
		fprintf(f, "%lld", (long long)json_integer_value(v));
		break;
	case JSON_REAL:
		fprintf(f, "%g", json_real_value(v));
		break;
	case JSON_TRUE:
		fputc('1', f);
		break;
	case JSON_FALSE:
		fputc('0', f);
		break;
	case JSON_NULL:
		break;
	default:
		s = json_dumps(v, JSON_COMPACT);
		fputs(s ? s : "", f);
		free(s);
	}
}

static void put_words(FILE *f, json_t *arr)
{
	size_t i;
	json_t *e;

	json_array_foreach(arr, i, e) {
		if (i)
			fputc(' ', f);
		put_scalar(f, e);
	}
}

char *cufs_render(json_t *v)
{
	const char *k;
	size_t len;
	char *s = NULL;
	json_t *e;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		return NULL;
	if (json_is_object(v)) {
		json_object_foreach(v, k, e) {
			fprintf(f, "%s ", k);
			if (json_is_array(e))
				put_words(f, e);
			else
				put_scalar(f, e);
			fputc('\n', f);
		}
	} else {
		if (json_is_array(v))
			put_words(f, v);
		else
			put_scalar(f, v);
		fputc('\n', f);
	}
	fclose(f);
	return s;
}

static char *pretty(json_t *v)
{
	char *s = json_dumps(v, JSON_INDENT(2) | JSON_ENCODE_ANY), *t;

	if (!s || asprintf(&t, "%s\n", s) < 0)
		t = NULL;
	free(s);
	return t;
}

/* An object with an object among its values (or with no values) is a
 * directory: a collection ("mappings") or a thing with parts (a mapping
 * with its "access"). A flat object ("counters") is a file of lines. */
static bool is_dir(json_t *v)
{
	const char *k;
	json_t *e;

	if (!json_is_object(v))
		return false;
	if (!json_object_size(v))
		return true;
	json_object_foreach(v, k, e)
		if (json_is_object(e))
			return true;
	return false;
}

static bool has_name(json_t *arr, const char *s)
{
	size_t i;
	json_t *e;

	json_array_foreach(arr, i, e)
		if (json_is_string(e) && !strcmp(json_string_value(e), s))
			return true;
	return false;
}

/* The writable names of obj: its "writable" array. */
static json_t *writable_of(json_t *obj)
{
	json_t *w = json_object_get(obj, "writable");

	return json_is_array(w) ? json_incref(w) : json_array();
}

/* ---------------------------------------------------------------- nodes */

static int make_dir_node(struct node *n, json_t *entries, uid_t uid)
{
	n->type = N_DIR;
	n->mode = 0555;
	n->uid = uid;
	n->entries = entries;
	return entries ? 0 : -ENOMEM;
}

static int make_file_node(struct node *n, char *text, uid_t uid)
{
	n->type = N_FILE;
	n->fkind = F_TEXT;
	n->mode = 0444;
	n->uid = uid;
	n->text = text;
	return text ? 0 : -ENOMEM;
}

/* What another user gets of a process's (or its object's) directory, as
 * /proc with hidepid=1 has it: the directory, mode 0500, its owner's;
 * nothing in it (EACCES). depth: of the path below the directory. */
static int hidden_node(int depth, uid_t owner, struct node *out)
{
	int rc;

	if (depth > 0 || out->want_entries)
		return -EACCES;
	rc = make_dir_node(out, json_array(), owner);
	out->mode = 0500;
	return rc;
}

/* Where the object's walk is: for writes, the process and the control
 * path of the object (e.g. "allocations/12/ranges/0x1000-0x3000"). */
struct walk_ctx {
	pid_t pid;
	uid_t uid;
	int cls;             /* class index, -1 for devices and processes */
	const char *base;
	json_t *extra_dirs;  /* more directory names at the top (borrowed) */
	const char *hide;    /* a key at the top shown as if absent, or NULL:
			      * the object is shared and never changed */
};

/* Entries of an object's directory: its keys but hide, "json", the
 * writable names that are not keys, and the extra directories. */
static json_t *object_entries(json_t *obj, json_t *w, json_t *extra,
			      const char *hide)
{
	json_t *names = json_array(), *e;
	const char *k;
	size_t i;

	json_object_foreach(obj, k, e)
		if (!hide || strcmp(k, hide))
			json_array_append_new(names, json_string(k));
	if (!json_object_get(obj, "json"))
		json_array_append_new(names, json_string("json"));
	json_array_foreach(w, i, e)
		if (json_is_string(e) && !json_object_get(obj,
							  json_string_value(e)))
			json_array_append(names, e);
	json_array_foreach(extra, i, e)
		json_array_append(names, e);
	return names;
}

/* cur's member k as a walk sees it: none for a key hidden at the top. */
static json_t *member(json_t *cur, const char *k, bool top,
		      const struct walk_ctx *ctx)
{
	if (!json_is_object(cur) || (top && ctx->hide && !strcmp(k, ctx->hide)))
		return NULL;
	return json_object_get(cur, k);
}

/* The "json" file of v: v pretty-printed, without hide. The record is
 * shared: a shallow copy loses the key, never v itself. */
static char *pretty_without(json_t *v, const char *hide)
{
	json_t *c;
	char *s;

	if (!hide || !json_object_get(v, hide))
		return pretty(v);
	if (!(c = json_copy(v)))
		return NULL;
	json_object_del(c, hide);
	s = pretty(c);
	json_decref(c);
	return s;
}

/* Resolves comps[0..n) inside obj (a directory). */
static int walk_object(json_t *obj, char **comps, int n,
		       const struct walk_ctx *ctx, struct node *out)
{
	char path[4200];
	json_t *cur = obj, *w, *child;
	int i, rc;

	snprintf(path, sizeof path, "%s", ctx->base);
	for (i = 0; i < n; i++) {
		child = member(cur, comps[i], i == 0, ctx);
		if (!child || !is_dir(child))
			break;
		cur = child;
		snprintf(path + strlen(path), sizeof path - strlen(path), "/%s",
			 comps[i]);
	}
	w = writable_of(cur);
	if (i == n) {
		rc = make_dir_node(out, object_entries(cur, w,
				   i == 0 ? ctx->extra_dirs : NULL,
				   i == 0 ? ctx->hide : NULL), ctx->uid);
		json_decref(w);
		return rc;
	}
	if (i != n - 1) {
		json_decref(w);
		return -ENOENT;
	}
	child = member(cur, comps[i], i == 0, ctx);
	out->writable = has_name(w, comps[i]) && ctx->pid > 0;
	json_decref(w);
	if (child)
		rc = make_file_node(out, cufs_render(child), ctx->uid);
	else if (!strcmp(comps[i], "json"))
		rc = make_file_node(out, pretty_without(cur, i == 0 ?
				    ctx->hide : NULL), ctx->uid);
	else if (out->writable)
		rc = make_file_node(out, strdup(""), ctx->uid);
	else
		return -ENOENT;
	if (rc == 0 && out->writable) {
		out->may_write = caller_may_write(ctx->uid);
		out->mode = out->may_write ? 0644 : 0444;
		out->pid = ctx->pid;
		snprintf(out->setpath, sizeof out->setpath, "%s/%s", path,
			 comps[i]);
	}
	return rc;
}

/* ---------------------------------------------------------------- devices */

/* A number as the tree spells it: decimal digits, no leading zero. Any
 * other spelling ("012", or one longer than a request's buffer, which
 * it would cut) would be a second name of the same object. */
static bool parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (*s < '0' || *s > '9' || (*s == '0' && s[1]))
		return false;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return !errno && !*end;
}


/* The machine, or one part of it (part: a device index, -1 for the host,
 * INT_MIN for all, INT_MIN + 1 for its summary without parts), as the
 * objects libcuemu builds. NULL with *err: ENOENT for a device that does
 * not exist, EIO (and a word on stderr) for a machine that cannot be
 * read. */
json_t *cufs_machine_part(int part, int *err)
{
	json_t *m = part == INT_MIN ? cuemuMachineObject() :
		    part == INT_MIN + 1 ? cuemuMachineSummaryObject() :
		    cuemuDeviceObject(part);
	const char *why;

	*err = 0;
	if (m && !(why = json_string_value(json_object_get(m, "error"))))
		return m;
	*err = EIO;
	if (m && part >= 0 && !strcmp(why, CUEMU_NO_SUCH_DEVICE))
		*err = ENOENT;
	else if (m)
		fprintf(stderr, "cufs: %s\n", why);
	json_decref(m);
	return NULL;
}

/* gpu<part>/<member>[/...]: the member alone is built, not the device
 * (a read of devices/gpu0/total_memory would otherwise build the links
 * and counters beside it, most of what the read cost). */
static int resolve_device_member(int part, char **comps, int n,
				 const struct walk_ctx *ctx, struct node *out)
{
	const char *why = NULL;
	json_t *m;
	int rc = cuemuDeviceMember(part, comps[0], &m, &why);

	if (rc == -EIO)
		fprintf(stderr, "cufs: %s\n", why);
	if (rc < 0)
		return rc;
	if (is_dir(m))
		rc = walk_object(m, comps + 1, n - 1, ctx, out);
	else if (n == 1)
		rc = make_file_node(out, cufs_render(m), ctx->uid);
	else
		rc = -ENOENT;
	json_decref(m);
	return rc;
}

static int resolve_devices(char **comps, int n, struct node *out)
{
	struct walk_ctx ctx = { .cls = -1, .uid = getuid(), .base = "" };
	json_t *m, *devs, *obj, *names;
	char name[32];
	uint64_t idx;
	int err, rc, part;
	size_t i;

	if (n == 0) {
		if (!(m = cufs_machine_part(INT_MIN + 1, &err)))
			return -err;
		devs = json_object_get(m, "device_count");
		names = json_array();
		for (i = 0; json_is_integer(devs) &&
			    i < (size_t)json_integer_value(devs); i++) {
			snprintf(name, sizeof name, "gpu%zu", i);
			json_array_append_new(names, json_string(name));
		}
		json_array_append_new(names, json_string("cpu"));
		json_array_append_new(names, json_string("memory_model"));
		json_decref(m);
		return make_dir_node(out, names, getuid());
	}
	if (!strcmp(comps[0], "memory_model")) {
		if (n > 1)
			return -ENOTDIR;
		if (!(m = cufs_machine_part(INT_MIN + 1, &err)))
			return -err;
		rc = make_file_node(out, cufs_render(json_object_get(m,
				    "memory_model")), getuid());
		json_decref(m);
		return rc;
	}
	if (!strcmp(comps[0], "cpu"))
		part = -1;
	else if (!strncmp(comps[0], "gpu", 3) && parse_u64(comps[0] + 3, &idx) &&
		 (idx == 0 || comps[0][3] != '0') && idx < INT_MAX)
		part = (int)idx;
	else
		return -ENOENT;
	/* A device's file: only that member is built. Its directory and
	 * its json file take the whole device. */
	if (part >= 0 && n > 1 && strcmp(comps[1], "json"))
		return resolve_device_member(part, comps + 1, n - 1, &ctx, out);
	/* Only that part is rendered. */
	if (!(obj = cufs_machine_part(part, &err)))
		return -err;
	rc = walk_object(obj, comps + 1, n - 1, &ctx, out);
	json_decref(obj);
	return rc;
}

/* ---------------------------------------------------------------- events */

/* The event log's files, at the top for every process and in each
 * processes/<pid>/ for that one (cufs(5), EVENTS). */
static const char *const event_files[] = {
	"events", "events_pipe", "events_dropped",
};

static json_t *event_names(json_t *into)
{
	for (size_t i = 0; i < sizeof event_files / sizeof *event_files; i++)
		json_array_append_new(into, json_string(event_files[i]));
	return into;
}

/* name as one of the event log's files of pid's view (0: the whole log):
 * 0, 1 when it is none of them, or a negative errno. The counters are
 * taken now, as any file's text is. */
static int resolve_events(const char *name, pid_t pid, uid_t uid,
			  struct node *out)
{
	json_t *c;
	int rc;

	if (!strcmp(name, "events_dropped")) {
		if (!(c = cufs_events_dropped(pid)))
			return -ENFILE;
		rc = make_file_node(out, cufs_render(c), uid);
		json_decref(c);
		return rc;
	}
	if (strcmp(name, "events") && strcmp(name, "events_pipe"))
		return 1;
	out->type = N_FILE;
	out->fkind = name[6] ? F_EVENTS_PIPE : F_EVENTS;
	out->mode = 0444;
	out->uid = uid;
	out->pid = pid;
	return 0;
}

/* ---------------------------------------------------------------- processes */

static json_t *class_dirs(void)
{
	json_t *a = json_array();

	for (size_t i = 0; i < CUFS_NCLASSES; i++)
		json_array_append_new(a, json_string(cufs_classes[i]));
	return a;
}

/* ---------------------------------------------------------------- records */

/* The names of p's ids of class cls, appended to into. */
static int id_names(const struct cufs_proc *p, int cls, json_t *into)
{
	uint64_t *ids;
	size_t n;
	char buf[32];
	int rc;

	if (!p->map)
		return -(p->err ? p->err : EIO);
	if ((rc = pubmap_ids(p->map, cufs_class_pub[cls], &ids, &n)) < 0)
		return rc;
	for (size_t i = 0; i < n; i++) {
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)ids[i]);
		json_array_append_new(into, json_string(buf));
	}
	free(ids);
	return 0;
}

/* A link to target, made by the format. */
static int link_node(struct node *out, uid_t uid, const char *fmt,
		     const char *a, const char *b)
{
	out->type = N_LINK;
	out->uid = uid;
	out->mode = 0777;
	if (asprintf(&out->target, fmt, a, b) < 0)
		out->target = NULL;
	return out->target ? 0 : -ENOMEM;
}

/* The name of a kernel record (its PTX entry name), when it is one a
 * directory may have; NULL for none. */
static const char *kernel_name(json_t *rec)
{
	const char *k = json_string_value(json_object_get(rec, "kernel"));

	return k && *k && strcmp(k, ".") && strcmp(k, "..") &&
	       !strchr(k, '/') && strlen(k) < NAME_MAX ? k : NULL;
}

/*
 * processes/<pid>/kernels/<name>: a process's kernel records by name, an
 * index sorted by name per process, searched in O(log n) where a walk read
 * up to KSTATS_MAX + 1 records a lookup. A kernel's name never changes
 * for its id (kstats.c), so a name found is checked against that record
 * alone; a name the index lacks builds it again, only where the process
 * has a number of kernel records other than the index was built from (a
 * kernel counted since). Global: every request shares the indexes, one a
 * slot by pid; kidx_lock guards them, held to look up or swap in only,
 * never while records are read.
 */
struct kname {
	char *name;
	uint64_t id;
};

struct kidx {
	pid_t pid;
	uint64_t serial;  /* the mapping it was built from */
	struct kname *v;
	size_t n;
	size_t nids;      /* kernel records then, named or not */
	bool partial;     /* one of them could not be read then */
};

#define KIDX_SLOTS 64
static pthread_mutex_t kidx_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kidx kidx[KIDX_SLOTS];

static int kname_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kname *)a)->name,
		      ((const struct kname *)b)->name);
}

static void knames_free(struct kname *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

/* The process's kernel records as names and ids, sorted by name. */
static int kidx_build(const struct cufs_proc *p, struct kidx *out)
{
	const char *k;
	uint64_t *ids;
	json_t *rec;
	int rc, err;

	if ((rc = pubmap_ids(p->map, PUB_KERNELS, &ids, &out->nids)) < 0)
		return rc;
	out->n = 0;
	if (out->nids && !(out->v = calloc(out->nids, sizeof *out->v))) {
		free(ids);
		return -ENOMEM;
	}
	for (size_t i = 0; i < out->nids; i++) {
		if (!(rec = cufs_record(p, ids[i], PUB_KERNELS, &err))) {
			out->partial = true;
			continue;
		}
		if ((k = kernel_name(rec)) &&
		    (out->v[out->n].name = strdup(k)))
			out->v[out->n++].id = ids[i];
		json_decref(rec);
	}
	free(ids);
	qsort(out->v, out->n, sizeof *out->v, kname_cmp);
	out->pid = p->pid;
	out->serial = pubmap_serial(p->map);
	return 0;
}

/* The id the process's index gives name: 1, or 0 where the index has no
 * such name (or none of this mapping); *nids the records it was built
 * from, SIZE_MAX where there is no index or a record was not read. */
static int kidx_find(const struct cufs_proc *p, const char *name,
		     uint64_t *id, size_t *nids)
{
	struct kidx *x = &kidx[(unsigned)p->pid % KIDX_SLOTS];
	struct kname key = { (char *)name, 0 }, *hit = NULL;

	pthread_mutex_lock(&kidx_lock);
	*nids = SIZE_MAX;
	if (x->pid == p->pid && x->serial == pubmap_serial(p->map)) {
		*nids = x->partial ? SIZE_MAX : x->nids;
		if ((hit = bsearch(&key, x->v, x->n, sizeof *x->v,
				   kname_cmp)))
			*id = hit->id;
	}
	pthread_mutex_unlock(&kidx_lock);
	return hit != NULL;
}

static void kidx_put(struct kidx *built)
{
	struct kidx *x = &kidx[(unsigned)built->pid % KIDX_SLOTS], old;

	pthread_mutex_lock(&kidx_lock);
	old = *x;
	*x = *built;
	pthread_mutex_unlock(&kidx_lock);
	knames_free(old.v, old.n);
}

/* Whether the process's kernel record id is still named name. */
static bool kernel_is(const struct cufs_proc *p, uint64_t id,
		      const char *name)
{
	json_t *rec;
	const char *k;
	bool same;
	int err;

	if (!(rec = cufs_record(p, id, PUB_KERNELS, &err)))
		return false;
	same = (k = kernel_name(rec)) && !strcmp(k, name);
	json_decref(rec);
	return same;
}

/* The id of the process's kernel record named name: 0, or -ENOENT. */
static int kernel_id(const struct cufs_proc *p, const char *name,
		     uint64_t *id)
{
	struct kidx built = { 0 };
	uint64_t *ids;
	size_t nids, now;
	int rc;

	if (kidx_find(p, name, id, &nids))
		return kernel_is(p, *id, name) ? 0 : -ENOENT;
	/* not there: built again only where the records are others now */
	if (nids != SIZE_MAX) {
		if ((rc = pubmap_ids(p->map, PUB_KERNELS, &ids, &now)) < 0)
			return rc;
		free(ids);
		if (now == nids)
			return -ENOENT;
	}
	if ((rc = kidx_build(p, &built)) < 0)
		return rc;
	kidx_put(&built);
	if (kidx_find(p, name, id, &nids) && kernel_is(p, *id, name))
		return 0;
	return -ENOENT;
}

/* processes/<pid>/kernels/: the process's kernels by name, each a link
 * to kernels/<id>; a listing reads every kernel record (at most
 * KSTATS_MAX + 1, each parsed once per change: records.c), a lookup the
 * index above. */
static int resolve_proc_kernels(const struct cufs_proc *p, char **comps,
				int n, struct node *out)
{
	json_t *names, *rec;
	const char *k;
	char id[32];
	uint64_t *ids, kid;
	size_t nids;
	int rc, err;

	if (!p->map)
		return -(p->err ? p->err : EIO);
	if (n > 1)
		return -ENOENT;
	if (n == 1) {
		if ((rc = kernel_id(p, comps[0], &kid)) < 0)
			return rc;
		snprintf(id, sizeof id, "%llu", (unsigned long long)kid);
		return link_node(out, p->uid, "../../../%s/%s",
				 cufs_classes[CUFS_CLASS_KERNELS], id);
	}
	if ((rc = pubmap_ids(p->map, PUB_KERNELS, &ids, &nids)) < 0)
		return rc;
	names = json_array();
	for (size_t i = 0; i < nids; i++) {
		if (!(rec = cufs_record(p, ids[i], PUB_KERNELS, &err)))
			continue;
		/* a name no directory may have is not listed */
		if ((k = kernel_name(rec)))
			json_array_append_new(names, json_string(k));
		json_decref(rec);
	}
	free(ids);
	return make_dir_node(out, names, p->uid);
}

/* processes/<pid>/<class>/: a link to each of the process's objects. */
static int resolve_proc_class(const struct cufs_proc *p, int cls,
			      char **comps, int n, struct node *out)
{
	json_t *names = json_array();
	uint64_t id;
	int rc;

	if (cls == CUFS_CLASS_KERNELS) {
		json_decref(names);
		return resolve_proc_kernels(p, comps, n, out);
	}
	if (n == 0) {
		if ((rc = id_names(p, cls, names)) < 0) {
			json_decref(names);
			return rc;
		}
		return make_dir_node(out, names, p->uid);
	}
	json_decref(names);
	if (n > 1 || !parse_u64(comps[0], &id) || !p->map ||
	    pubmap_has(p->map, id, cufs_class_pub[cls]) != 1)
		return -ENOENT;
	return link_node(out, p->uid, "../../../%s/%s", cufs_classes[cls],
			 comps[0]);
}

/* processes/<pid>/state: cufs's own file beside the process's record. */
static int state_node(pid_t pid, uid_t uid, struct node *out)
{
	char *t;

	if (asprintf(&t, "%s\n", cufs_proc_state(pid)) < 0)
		t = NULL;
	return make_file_node(out, t, uid);
}

static int resolve_process(const struct cufs_proc *p, char **comps, int n,
			   struct node *out)
{
	struct walk_ctx ctx = { .cls = -1, .base = "process", .uid = p->uid };
	json_t *obj, *extra, *note;
	int err, rc, cls;

	if (n >= 1 && (cls = class_index(comps[0])) >= 0)
		return resolve_proc_class(p, cls, comps + 1, n - 1, out);
	if (n == 1 && (rc = resolve_events(comps[0], p->pid, p->uid,
					   out)) <= 0)
		return rc;
	if (n == 1 && !strcmp(comps[0], "state"))
		return state_node(p->pid, p->uid, out);
	if (!(obj = cufs_record(p, 0, PUB_PROCESS, &err)))
		return -err;
	/* A write cufs could not deliver is the process's last error too:
	 * set on a shallow copy, since the record is the cache's, shared by
	 * every thread (another may be dumping its last_error right now). */
	if ((note = cufs_refusal(p, json_object_get(obj, "last_error")))) {
		json_t *mine = json_copy(obj);

		json_decref(obj);
		if (!mine) {
			json_decref(note);
			return -ENOMEM;
		}
		obj = mine;
		json_object_set_new(obj, "last_error", note);
	}
	/* Names cufs adds to the process's own: its objects' classes, its
	 * view of the event log, and its state. */
	extra = event_names(class_dirs());
	json_array_append_new(extra, json_string("state"));
	ctx.extra_dirs = extra;
	rc = walk_object(obj, comps, n, &ctx, out);
	json_decref(extra);
	json_decref(obj);
	return rc;
}

static int resolve_processes(char **comps, int n, struct node *out)
{
	struct cufs_proc *ps[CUFS_MAX_PROCS], *p;
	json_t *names;
	char buf[32];
	uint64_t pid;
	int np, rc;

	if (n == 0 && !out->want_entries)
		return make_dir_node(out, json_array(), getuid());
	if (n == 0) {
		cufs_procs_refresh(true);
		np = cufs_procs_get(ps, CUFS_MAX_PROCS);
		names = json_array();
		for (int i = 0; i < np; i++) {
			snprintf(buf, sizeof buf, "%d", (int)ps[i]->pid);
			json_array_append_new(names, json_string(buf));
		}
		cufs_procs_put(ps, np);
		return make_dir_node(out, names, getuid());
	}
	if (!parse_u64(comps[0], &pid) || pid > INT32_MAX ||
	    !(p = cufs_proc_get((pid_t)pid)))
		return -ENOENT;
	rc = cufs_may_see(caller_uid(), p->uid) ?
	     resolve_process(p, comps + 1, n - 1, out) :
	     hidden_node(n - 1, p->uid, out);
	cufs_proc_put(p);
	return rc;
}

/* ---------------------------------------------------------------- objects */

/* Says once per id that two processes publish <class>/<id>. */
static void say_not_unique(int cls, uint64_t id, pid_t a, pid_t b)
{
	/* The last id said: a listing or a lookup repeats it. Global: the
	 * tree's one memory of what it logged. */
	static uint64_t said = UINT64_MAX;

	if (__atomic_exchange_n(&said, id, __ATOMIC_RELAXED) == id)
		return;
	fprintf(stderr, "cufs: %s/%llu is published by processes %d and %d "
		"(the machine's id counter was written back): shown under "
		"neither\n", cufs_classes[cls], (unsigned long long)id, (int)a,
		(int)b);
}

/* The process among those known whose segment has <class>/<id>, or NULL
 * with *err: ENOENT when none has it, ENOTUNIQ when two have it (ids
 * come from a counter every member of the machine may write: an id two
 * processes hold names neither, rather than one of them by chance). */
static struct cufs_proc *owner_in(int cls, uint64_t id, int *err)
{
	struct cufs_proc *ps[CUFS_MAX_PROCS], *who = NULL;
	int np = cufs_procs_get(ps, CUFS_MAX_PROCS);

	*err = ENOENT;
	for (int i = 0; i < np && *err != ENOTUNIQ; i++) {
		if (!ps[i]->map ||
		    pubmap_has(ps[i]->map, id, cufs_class_pub[cls]) != 1)
			continue;
		if (who) {
			say_not_unique(cls, id, who->pid, ps[i]->pid);
			*err = ENOTUNIQ;
			who = NULL;
		} else {
			who = ps[i];
			*err = 0;
		}
	}
	for (int i = 0; i < np; i++)
		if (ps[i] != who)
			cufs_proc_put(ps[i]);
	return who;
}

/* The process whose segment has <class>/<id>, referenced; NULL with *err
 * when none has it, even after a rescan (the id may be of a process
 * started since the last one), or two have it. */
static struct cufs_proc *owner_of(int cls, uint64_t id, int *err)
{
	struct cufs_proc *who = owner_in(cls, id, err);

	if (!who && *err == ENOENT) {
		cufs_procs_refresh(true);
		who = owner_in(cls, id, err);
	}
	return who;
}

/* allocations/<id>/ranges[/<start>-<end>[/...]] of a managed allocation
 * (its record obj). */
static int resolve_ranges(const struct cufs_proc *p, const char *id,
			  json_t *obj, char **comps, int n, struct node *out)
{
	struct walk_ctx ctx = { .pid = p->pid, .uid = p->uid, .cls = 0 };
	json_t *names, *r, *v;
	char path[4200];
	size_t i;
	int rc;

	if (n == 0) {
		names = json_array();
		json_array_foreach(json_object_get(obj, "ranges"), i, r) {
			snprintf(path, sizeof path, "%s-%s",
				 json_string_value(json_object_get(r, "start")) ?: "",
				 json_string_value(json_object_get(r, "end")) ?: "");
			json_array_append_new(names, json_string(path));
		}
		return make_dir_node(out, names, p->uid);
	}
	if (!(v = cufs_range_view(obj, comps[0])))
		return -ENOENT;
	snprintf(path, sizeof path, "allocations/%s/ranges/%s", id, comps[0]);
	ctx.base = path;
	rc = walk_object(v, comps + 1, n - 1, &ctx, out);
	json_decref(v);
	return rc;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Appends p's ids of class cls to *all (n of them): 0, or -ENOMEM. A
 * process whose segment cannot be read adds none. */
static int gather_ids(const struct cufs_proc *p, int cls, uint64_t **all,
		      size_t *n)
{
	uint64_t *ids, *grown;
	size_t k;

	if (!p->map || pubmap_ids(p->map, cufs_class_pub[cls], &ids, &k) < 0 ||
	    !k)
		return 0;
	if (!(grown = realloc(*all, (*n + k) * sizeof *grown))) {
		free(ids);
		return -ENOMEM;
	}
	memcpy(grown + *n, ids, k * sizeof *ids);
	*all = grown;
	*n += k;
	free(ids);
	return 0;
}

/* <class>/ : the ids of every process's objects of the class, sorted;
 * an id two processes hold is left out, as <class>/<id> names neither
 * (owner_in). */
static int list_class(int cls, struct node *out)
{
	struct cufs_proc *ps[CUFS_MAX_PROCS];
	uint64_t *all = NULL;
	size_t n = 0;
	json_t *names;
	char buf[32];
	int np, rc = 0;

	cufs_procs_refresh(true);
	np = cufs_procs_get(ps, CUFS_MAX_PROCS);
	for (int i = 0; i < np && rc == 0; i++)
		rc = gather_ids(ps[i], cls, &all, &n);
	cufs_procs_put(ps, np);
	if (rc < 0) {
		free(all);
		return rc;
	}
	qsort(all, n, sizeof *all, cmp_u64);
	names = json_array();
	for (size_t i = 0; i < n; i++) {
		if ((i > 0 && all[i] == all[i - 1]) ||
		    (i + 1 < n && all[i] == all[i + 1]))
			continue;
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)all[i]);
		json_array_append_new(names, json_string(buf));
	}
	free(all);
	return make_dir_node(out, names, getuid());
}

/* kernels/<id>/allocations/: a link to each allocation the kernel
 * touched (its record's "allocations"). */
static int resolve_kernel_allocs(const struct cufs_proc *p, json_t *obj,
				 char **comps, int n, struct node *out)
{
	json_t *names = json_array(), *e;
	char buf[32];
	size_t i;

	json_array_foreach(json_object_get(obj, "allocations"), i, e) {
		if (!json_is_integer(e) || json_integer_value(e) < 0)
			continue;
		snprintf(buf, sizeof buf, "%lld",
			 (long long)json_integer_value(e));
		if (n == 0) {
			json_array_append_new(names, json_string(buf));
		} else if (n == 1 && !strcmp(buf, comps[0])) {
			json_decref(names);
			return link_node(out, p->uid, "../../../%s/%s",
					 cufs_classes[CUFS_CLASS_ALLOCATIONS], buf);
		}
	}
	if (n == 0)
		return make_dir_node(out, names, p->uid);
	json_decref(names);
	return -ENOENT;
}

static int resolve_object(struct cufs_proc *who, int cls, char **comps,
			  int n, struct node *out)
{
	struct walk_ctx ctx = { .cls = cls, .pid = who->pid, .uid = who->uid };
	json_t *obj, *extra = NULL;
	char base[64];
	uint64_t id;
	bool managed;
	int err, rc;

	parse_u64(comps[0], &id);
	/* A stat of the directory needs no record. */
	if (n == 1 && !out->want_entries)
		return make_dir_node(out, json_array(), who->uid);
	if (!(obj = cufs_record(who, id, cufs_class_pub[cls], &err)))
		return -err;
	managed = cls == 0 && !strcmp(json_string_value(
		json_object_get(obj, "kind")) ?: "", "managed");
	if (managed && n >= 2 && !strcmp(comps[1], "ranges")) {
		rc = resolve_ranges(who, comps[0], obj, comps + 2, n - 2, out);
		json_decref(obj);
		return rc;
	}
	if (cls == CUFS_CLASS_KERNELS && n >= 2 &&
	    !strcmp(comps[1], "allocations")) {
		rc = resolve_kernel_allocs(who, obj, comps + 2, n - 2, out);
		json_decref(obj);
		return rc;
	}
	/* The ranges are a directory of their own, not a file of words; so
	 * are a kernel's allocations, of links. */
	ctx.hide = cls == CUFS_CLASS_KERNELS ? "allocations" : "ranges";
	if (managed)
		extra = json_pack("[s]", "ranges");
	if (cls == CUFS_CLASS_KERNELS)
		extra = json_pack("[s]", "allocations");
	snprintf(base, sizeof base, "%s/%s", cufs_classes[cls], comps[0]);
	ctx.base = base;
	ctx.extra_dirs = extra;
	rc = walk_object(obj, comps + 1, n - 1, &ctx, out);
	json_decref(extra);
	json_decref(obj);
	return rc;
}

static int resolve_class(int cls, char **comps, int n, struct node *out)
{
	struct cufs_proc *who;
	uint64_t id;
	int rc;

	if (n == 0 && !out->want_entries)
		return make_dir_node(out, json_array(), getuid());
	if (n == 0)
		return list_class(cls, out);
	if (!parse_u64(comps[0], &id))
		return -ENOENT;
	if (!(who = owner_of(cls, id, &rc)))
		return -rc;
	rc = cufs_may_see(caller_uid(), who->uid) ?
	     resolve_object(who, cls, comps, n, out) :
	     hidden_node(n - 1, who->uid, out);
	cufs_proc_put(who);
	return rc;
}

/* ---------------------------------------------------------------- resolve */

static int resolve(const char *path, struct node *out, bool entries)
{
	char *copy = strdup(path), *comps[MAX_DEPTH], *save = NULL, *c;
	int n = 0, rc, cls;

	memset(out, 0, sizeof *out);
	out->want_entries = entries;
	if (!copy)
		return -ENOMEM;
	for (c = strtok_r(copy, "/", &save); c && n < MAX_DEPTH;
	     c = strtok_r(NULL, "/", &save))
		comps[n++] = c;
	if (n == MAX_DEPTH)
		rc = -ENOENT;
	else if (n == 0) {
		json_t *names = json_pack("[s,s,s]", "devices", "processes",
					  "snapshot.json");
		json_t *more = class_dirs();

		json_array_extend(names, more);
		json_decref(more);
		rc = make_dir_node(out, event_names(names), getuid());
	} else if (!strcmp(comps[0], "devices"))
		rc = resolve_devices(comps + 1, n - 1, out);
	else if (!strcmp(comps[0], "processes"))
		rc = resolve_processes(comps + 1, n - 1, out);
	else if ((cls = class_index(comps[0])) >= 0)
		rc = resolve_class(cls, comps + 1, n - 1, out);
	else if (n == 1 && !strcmp(comps[0], "snapshot.json")) {
		out->type = N_FILE;
		out->fkind = F_SNAPSHOT;
		out->mode = 0444;
		out->uid = getuid();
		rc = 0;
	} else if (n == 1 && (rc = resolve_events(comps[0], 0, getuid(),
						  out)) <= 0) {
		/* Every user's lines: for root and cufs's user (PRIVACY). */
		if (rc == 0 && out->fkind != F_TEXT &&
		    !cufs_may_see(caller_uid(), getuid()))
			out->mode = 0400;
	}
	else
		rc = -ENOENT;
	free(copy);
	if (rc < 0)
		node_free(out);
	return rc;
}

/* ---------------------------------------------------------------- files */

struct fh {
	enum fkind kind;
	char *text;
	size_t len;
	bool nonblock;
	struct cufs_ev_reader *ev;   /* F_EVENTS, F_EVENTS_PIPE */
	pid_t pid;           /* writes */
	char *setpath;
	/* Where it was opened, for open_attr(). */
	char *path;
	/* F_TEXT: its attributes when opened, for open_attr(); linked in
	 * open_files. ro: never written through cufs. */
	bool linked;
	bool ro;
	uid_t uid;
	mode_t mode;
	struct fh *next, **prevp;
};

/*
 * The F_TEXT files open now. A file already open keeps the text it had
 * (cufs(8), ROBUSTNESS), but fstat(2) of it may reach cufs_tree_getattr by path
 * alone, with no handle: when the path no longer resolves (its process
 * exited or stops answering), the attributes come from a handle open on
 * it. Global: every request's getattr and open share it.
 */
static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;
static struct fh *open_files;

static void open_link(struct fh *h)
{
	h->linked = true;
	pthread_mutex_lock(&open_lock);
	h->next = open_files;
	h->prevp = &open_files;
	if (open_files)
		open_files->prevp = &h->next;
	open_files = h;
	pthread_mutex_unlock(&open_lock);
}

static void open_unlink(struct fh *h)
{
	if (!h->linked)
		return;
	pthread_mutex_lock(&open_lock);
	*h->prevp = h->next;
	if (h->next)
		h->next->prevp = h->prevp;
	pthread_mutex_unlock(&open_lock);
}

void cufs_tree_fh_stat(const struct fh *h, struct stat *st)
{
	memset(st, 0, sizeof *st);
	st->st_mode = S_IFREG | h->mode;
	st->st_nlink = 1;
	st->st_uid = h->uid;
	st->st_gid = getgid();
	st->st_atime = st->st_mtime = st->st_ctime = time(NULL);
}

/* The attributes a file open on path had when it was opened: 0, or
 * -ENOENT when none is open. */
static int open_attr(const char *path, struct stat *st)
{
	int rc = -ENOENT;

	pthread_mutex_lock(&open_lock);
	for (struct fh *h = open_files; h; h = h->next)
		if (!strcmp(h->path, path)) {
			cufs_tree_fh_stat(h, st);
			rc = 0;
			break;
		}
	pthread_mutex_unlock(&open_lock);
	return rc;
}

/* The attributes of path: 0, or -errno. *ro: a file whose text is read
 * and never written through cufs (its size is its text's length). */
int cufs_tree_getattr(const char *path, struct stat *st, bool *ro)
{
	struct node n;
	int rc;

	*ro = false;
	rc = resolve(path, &n, false);
	if (rc < 0)
		return open_attr(path, st) == 0 ? 0 : rc;
	memset(st, 0, sizeof *st);
	st->st_uid = n.uid;
	st->st_gid = getgid();
	/* Every value is as of now, as in procfs. */
	st->st_atime = st->st_mtime = st->st_ctime = time(NULL);
	if (n.type == N_DIR) {
		st->st_mode = S_IFDIR | n.mode;
		st->st_nlink = 2;
	} else if (n.type == N_LINK) {
		st->st_mode = S_IFLNK | 0777;
		st->st_nlink = 1;
		st->st_size = (off_t)strlen(n.target);
	} else {
		st->st_mode = S_IFREG | n.mode;
		st->st_nlink = 1;
	}
	if (n.type == N_FILE && n.fkind == F_TEXT) {
		st->st_size = n.text ? (off_t)strlen(n.text) : 0;
		*ro = !n.writable;
	}
	/* The log grows like a file appended to: tail -f and less +F poll
	 * the size (FUSE sends no inotify events), and the time is when
	 * its last line came. */
	if (n.type == N_FILE && n.fkind == F_EVENTS)
		rc = cufs_events_stat(n.pid, &st->st_size, &st->st_mtim);
	node_free(&n);
	return rc;
}

int cufs_tree_list(const char *path, json_t **names)
{
	struct node n;
	int rc = resolve(path, &n, true);

	*names = NULL;
	if (rc < 0)
		return rc;
	if (n.type != N_DIR) {
		node_free(&n);
		return -ENOTDIR;
	}
	*names = n.entries;
	n.entries = NULL;
	node_free(&n);
	return 0;
}

int cufs_tree_readlink(const char *path, char *buf, size_t size)
{
	struct node n;
	int rc = resolve(path, &n, false);

	if (rc < 0)
		return rc;
	if (n.type != N_LINK)
		rc = -EINVAL;
	else
		snprintf(buf, size, "%s", n.target);
	node_free(&n);
	return rc;
}

int cufs_tree_open(const char *path, int flags, struct cufs_open *out)
{
	bool wr = (flags & O_ACCMODE) != O_RDONLY;
	struct node n;
	struct fh *h;
	int rc = resolve(path, &n, false);

	memset(out, 0, sizeof *out);
	if (rc < 0)
		return rc;
	if (n.type == N_DIR)
		rc = -EISDIR;
	else if (wr && !(n.writable && n.may_write))
		rc = -EACCES;
	else if (!(h = calloc(1, sizeof *h)))
		rc = -ENOMEM;
	if (rc == 0 && !(h->path = strdup(path))) {
		free(h);
		rc = -ENOMEM;
	}
	if (rc < 0) {
		node_free(&n);
		return rc;
	}
	h->kind = n.fkind;
	h->nonblock = flags & O_NONBLOCK;
	if (n.fkind == F_EVENTS || n.fkind == F_EVENTS_PIPE) {
		if (!n.pid && !cufs_may_see(caller_uid(), n.uid))
			rc = -EACCES;
		else
			rc = cufs_events_open(n.pid, n.fkind == F_EVENTS_PIPE,
					      caller_uid(), &h->ev);
		if (rc < 0) {
			free(h->path);
			free(h);
			node_free(&n);
			return rc;
		}
		/* The stream has no offsets; the log is read at any. */
		out->stream = n.fkind == F_EVENTS_PIPE;
	} else if (n.fkind == F_SNAPSHOT) {
		h->text = cufs_snapshot_text(caller_uid());
	} else {
		h->text = n.text;
		n.text = NULL;
		h->uid = n.uid;
		h->mode = n.mode;
		h->ro = !n.writable;
		open_link(h);
	}
	h->len = h->text ? strlen(h->text) : 0;
	if (wr) {
		h->pid = n.pid;
		h->setpath = strdup(n.setpath);
	}
	node_free(&n);
	out->fh = h;
	if (h->ro) {
		out->text = h->text;
		out->len = h->len;
	}
	return 0;
}

int cufs_tree_read(struct fh *h, char *buf, size_t size, off_t off)
{
	ssize_t r;
	size_t n;

	/* The log's reads are direct (lowlevel.c), so its bytes at off come
	 * from events.c, never from a page the kernel kept. */
	if (h->kind == F_EVENTS)
		return (int)cufs_events_read(h->ev, buf, size, off, 0);
	if (h->kind == F_EVENTS_PIPE) {
		for (;;) {
			r = cufs_events_read(h->ev, buf, size, 0,
					     h->nonblock ? 0 : 100);
			if (r != -EAGAIN || h->nonblock)
				return (int)r;
			if (cufs_caller_interrupted())
				return -EINTR;
			/* Unmounting, or told to stop: the stream ends, or
			 * the loop would wait for this thread for ever. */
			if (cufs_exiting())
				return 0;
		}
	}
	if (off < 0 || (size_t)off >= h->len)
		return 0;
	n = h->len - (size_t)off < size ? h->len - (size_t)off : size;
	memcpy(buf, h->text + off, n);
	return (int)n;
}

int cufs_tree_write(struct fh *h, const char *buf, size_t size)
{
	char *v;
	int rc;

	if (!h->setpath)
		return -EBADF;
	/* The value is text: a NUL would cut it short, and the part before
	 * it would be written as if it were all. */
	if (memchr(buf, '\0', size)) {
		rc = cufs_set(h->pid, h->setpath, "", "the value written has a "
			      "NUL byte");
		return rc < 0 ? rc : -EINVAL;
	}
	if (!(v = strndup(buf, size)))
		return -ENOMEM;
	if (size && v[size - 1] == '\n')
		v[size - 1] = '\0';
	rc = cufs_set(h->pid, h->setpath, v, NULL);
	free(v);
	return rc < 0 ? rc : (int)size;
}

int cufs_tree_truncate(const char *path, bool opened)
{
	struct node n;
	int rc;

	if (opened)
		return 0; /* opened for writing already: the open checked */
	if ((rc = resolve(path, &n, false)) < 0)
		return rc;
	rc = n.writable && n.may_write ? 0 : -EACCES;
	node_free(&n);
	return rc;
}

void cufs_tree_release(struct fh *h)
{
	cufs_events_close(h->ev);
	open_unlink(h);
	free(h->path);
	free(h->text);
	free(h->setpath);
	free(h);
}

int cufs_tree_poll(struct fh *h, struct fuse_pollhandle *ph,
		   unsigned *reventsp)
{
	if (h->kind != F_EVENTS_PIPE) {
		if (ph)
			fuse_pollhandle_destroy(ph);
		*reventsp |= POLLIN;
		return 0;
	}
	if (ph)
		cufs_events_poll_wait(ph);
	if (cufs_events_ready(h->ev))
		*reventsp |= POLLIN;
	return 0;
}

void cufs_tree_start(void)
{
	int rc;

	/* The log keeps lines from the start, read or not: a process keeps
	 * only its newest, and takes them along when it exits. */
	if ((rc = cufs_events_start()) < 0)
		fprintf(stderr, "cufs: the event relay did not start: %s\n",
			strerror(-rc));
}

void cufs_tree_stop(void)
{
	cufs_events_stop();
	cufs_records_drop();
	cufs_client_shutdown();
}
