/*
 * control.c - the control server: a Unix stream socket per process,
 * <CUEMU_RUNDIR>/<pid>.sock (mode 0600), through which cufs lists, reads
 * and writes the process's objects, one JSON object a line each way. Also
 * the helpers libcuemu exports for cufs (cuemu-private.h).
 *
 * Requests and answers (every answer has "ok"; a failure has "errno" and
 * "message", and "result" when a CUresult decided it):
 *   {"op":"hello"}                        pid uid cmdline version machine
 *   {"op":"list","path":P}                ids (classes) or names (below)
 *   {"op":"get","path":P}                 value, and text for a file
 *   {"op":"set","path":P,"value":"text"}  result (the CUresult name)
 *   {"op":"set","path":P,"value":"","refused":"why"}
 *                                         a write the client could not send
 *                                         as written: refused, last_error
 *   {"op":"events","since":N,"max":M}     events [{seq,line}], last
 *   {"op":"snapshot"}                     value: process and every object
 *   {"op":"snapshot","text":true}         bytes: N, then N bytes of the
 *                                         value, one object a line
 *
 * Serving: one thread serves every connection, one request at a time.
 * Sockets are non-blocking and each client's answers queue until its peer
 * takes them (bounded), so a peer that asks much and reads little, or
 * never reads, stalls only itself. Connections are bounded per peer
 * process; when the table is full a newcomer takes the idlest's room.
 *
 * Locking: a get or list holds the process lock
 * (cuemu_lock) for the whole answer, so that it shows one moment; a set
 * runs without it, through the API's code path, which takes what it needs.
 * ctl is written by start and stop under ctl_lock, and read by the server
 * thread between them.
 */
#include "model/context.h"
#include "model/clock.h"
#include "outward/outward.h"
#include "outward/cuemu-private.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <numa.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* Connections served at once, and at most from one peer process: a peer
 * that opens more is refused, and cannot crowd out another. */
#define CTL_MAX_CLIENTS 256
#define CTL_MAX_PER_PEER 8
/* Answer bytes a client may leave unread before it is dropped: a snapshot
 * of 100,000 allocations is about 30 MB. */
#define CTL_MAX_QUEUED (256u << 20)
#define CTL_EVENTS_MAX 1024

struct client {
	int fd;           /* non-blocking */
	uid_t uid;        /* the peer's, from SO_PEERCRED */
	pid_t pid;
	uint64_t last;    /* serve loop tick of its last request */
	size_t len;       /* bytes of an unfinished line in buf */
	bool skipping;    /* dropping the rest of an overlong line */
	char *out;        /* answers not yet taken by the peer */
	size_t out_len, out_off;
	char buf[CUEMU_CTL_MAX_LINE + 1];
};

/* The server of this process: one per process by definition, so global.
 * Written under ctl_lock by start/stop; clients only by the server. */
static struct {
	bool running;
	pid_t owner;      /* the process that made the socket (not a child) */
	int lfd;
	int wake[2];      /* written by stop to end the server's poll */
	pthread_t thread;
	char path[PATH_MAX + 32]; /* the socket's full name, of any length */
	struct client *clients[CTL_MAX_CLIENTS];
	int nclients;
	uint64_t tick;    /* requests served: the clients' idle clock */
} ctl = { .lfd = -1, .wake = { -1, -1 } };
static pthread_mutex_t ctl_lock = PTHREAD_MUTEX_INITIALIZER;

static const struct cuemu_ctl_class *const classes[] = {
	&cuemu_ctl_allocations,
	&cuemu_ctl_pools,
	&cuemu_ctl_reservations,
	&cuemu_ctl_handles,
	&cuemu_ctl_multicast,
	&cuemu_ctl_kernels,
};
#define NCLASSES (sizeof classes / sizeof classes[0])

/* ---------------------------------------------------------------- answers */

static json_t *fail_errno(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static json_t *fail_errno(int err, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return json_pack("{s:b,s:i,s:s}", "ok", 0, "errno", err, "message", msg);
}

static const char *result_name(CUresult r)
{
	const char *s = NULL;

	return cuGetErrorName(r, &s) == CUDA_SUCCESS && s ? s : "CUDA_ERROR_UNKNOWN";
}

/* A failure decided by a CUresult: its name, its errno, and why. */
static json_t *fail_result(CUresult r, const char *why)
{
	const char *s = NULL;

	if (!why || !*why)
		why = cuGetErrorString(r, &s) == CUDA_SUCCESS && s ? s : "failed";
	return json_pack("{s:b,s:s,s:i,s:s}", "ok", 0, "result", result_name(r),
			 "errno", cuemuResultToErrno(r), "message", why);
}

static json_t *ok_with(const char *key, json_t *v)
{
	json_t *o = json_pack("{s:b}", "ok", 1);

	if (o && v)
		json_object_set_new(o, key, v);
	else
		json_decref(v);
	return o;
}

/* The text of a value as its /cu file shows it (cufs renders the same
 * way): a scalar's line, an array's words, a flat object's "key value"
 * lines. NULL for a value that is a directory (an object with an object
 * among its values). */
static void put_scalar(FILE *f, json_t *v)
{
	if (json_is_string(v))
		fputs(json_string_value(v), f);
	else if (json_is_integer(v))
		fprintf(f, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		fprintf(f, "%g", json_real_value(v));
	else if (json_is_boolean(v))
		fputc(json_is_true(v) ? '1' : '0', f);
	else if (json_is_array(v))
		for (size_t i = 0; i < json_array_size(v); i++) {
			if (i)
				fputc(' ', f);
			put_scalar(f, json_array_get(v, i));
		}
}

static json_t *text_of(json_t *v)
{
	const char *k;
	char *s = NULL;
	size_t len;
	json_t *e, *t;
	FILE *f;

	if (json_is_object(v)) {
		if (!json_object_size(v))
			return NULL;
		json_object_foreach(v, k, e)
			if (json_is_object(e))
				return NULL;
	}
	if (!(f = open_memstream(&s, &len)))
		return NULL;
	if (json_is_object(v))
		json_object_foreach(v, k, e) {
			fprintf(f, "%s ", k);
			put_scalar(f, e);
			fputc('\n', f);
		}
	else {
		put_scalar(f, v);
		fputc('\n', f);
	}
	fclose(f);
	t = s ? json_string(s) : NULL;
	free(s);
	return t;
}

/* A get's answer: the value, and its file's text where it is a file. */
static json_t *ok_value(json_t *v)
{
	json_t *o = ok_with("value", v), *t;

	if (o && v && (t = text_of(v)))
		json_object_set_new(o, "text", t);
	return o;
}

/* ---------------------------------------------------------------- process */

/* ---------------------------------------------------------------- paths */

struct ctl_path {
	const struct cuemu_ctl_class *cls; /* NULL: "process" or the root */
	bool process;
	bool has_id;
	uint64_t id;
	const char *rest;                   /* after "<class>/<id>/", or "" */
};

/* Splits "allocations/12/ranges" into its class, id and rest. 0, or an
 * errno (ENOENT for a name that does not exist). */
static int parse_path(const char *p, struct ctl_path *out)
{
	size_t n = strcspn(p, "/");
	char *end;

	memset(out, 0, sizeof *out);
	out->rest = "";
	if (n == 7 && !strncmp(p, "process", 7)) {
		out->process = true;
		out->rest = p[n] ? p + n + 1 : "";
		return 0;
	}
	for (size_t i = 0; i < NCLASSES; i++)
		if (strlen(classes[i]->name) == n &&
		    !strncmp(p, classes[i]->name, n))
			out->cls = classes[i];
	if (!out->cls)
		return n ? ENOENT : 0;
	if (!p[n] || !p[n + 1])
		return 0;
	p += n + 1;
	if (*p < '0' || *p > '9')
		return ENOENT;
	errno = 0;
	out->id = strtoull(p, &end, 10);
	if (errno || (*end && *end != '/'))
		return ENOENT;
	out->has_id = true;
	out->rest = *end ? end + 1 : "";
	return 0;
}

/* The class's answer for rest; a name the class does not know itself is
 * looked up as a key of its parent's object, so every file of a directory
 * can be read alone ("allocations/12/residency"). Lock held. */
static json_t *class_get(const struct cuemu_ctl_class *c, uint64_t id,
			 const char *rest, CUresult *err)
{
	const char *slash;
	json_t *parent, *v;
	char *up;

	*err = CUDA_SUCCESS;
	v = c->get(id, rest, err);
	if (!v && *err == CUDA_SUCCESS)
		*err = CUDA_ERROR_NOT_FOUND;
	if (v || !*rest || *err != CUDA_ERROR_NOT_FOUND)
		return v;
	slash = strrchr(rest, '/');
	if (!(up = strndup(rest, slash ? (size_t)(slash - rest) : 0))) {
		*err = CUDA_ERROR_OUT_OF_MEMORY;
		return NULL;
	}
	parent = class_get(c, id, up, err);
	free(up);
	if (!parent)
		return NULL;
	v = json_is_object(parent) ?
	    json_object_get(parent, slash ? slash + 1 : rest) : NULL;
	json_incref(v);
	json_decref(parent);
	*err = v ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
	return v;
}

/* What a get of path answers (lock held). */
static json_t *get_locked(const struct ctl_path *p)
{
	json_t *v, *obj;
	CUresult err;

	if (p->process) {
		obj = cuemu_process_json();
		if (!*p->rest)
			return ok_value(obj);
		v = json_object_get(obj, p->rest);
		json_incref(v);
		json_decref(obj);
		return v ? ok_value(v) :
		       fail_errno(ENOENT, "the process has no file %s", p->rest);
	}
	if (!p->cls)
		return fail_errno(ENOENT, "get needs an object's path, e.g. "
				  "allocations/12 or process");
	if (!p->has_id)
		return ok_with("value", p->cls->list());
	cuemu_errmsg_clear();
	if ((v = class_get(p->cls, p->id, p->rest, &err)))
		return ok_value(v);
	if (err == CUDA_ERROR_NOT_FOUND)
		return fail_errno(ENOENT, "%s/%llu%s%s does not exist",
				  p->cls->name, (unsigned long long)p->id,
				  *p->rest ? "/" : "", p->rest);
	return fail_result(err, cuemu_errmsg());
}

/* "<start>-<end>" for a range object. */
static json_t *range_name(json_t *r)
{
	const char *s = json_string_value(json_object_get(r, "start"));
	const char *e = json_string_value(json_object_get(r, "end"));
	char buf[80];

	if (!s || !e)
		return NULL;
	snprintf(buf, sizeof buf, "%s-%s", s, e);
	return json_string(buf);
}

/* Names under a path: a class's ids, an object's keys, an array's
 * elements (ranges by their "<start>-<end>" names). Lock held. */
static json_t *names_of(json_t *v)
{
	json_t *names = json_array(), *e;
	const char *k;
	size_t i;

	if (json_is_object(v)) {
		json_object_foreach(v, k, e)
			json_array_append_new(names, json_string(k));
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, e) {
			json_t *n = json_is_object(e) ? range_name(e) :
				    json_deep_copy(e);
			if (n)
				json_array_append_new(names, n);
		}
	}
	return names;
}

static json_t *list_locked(const struct ctl_path *p)
{
	json_t *ans, *v;

	if (!p->process && !p->cls) {
		json_t *names = json_array();

		json_array_append_new(names, json_string("process"));
		for (size_t i = 0; i < NCLASSES; i++)
			json_array_append_new(names, json_string(classes[i]->name));
		return ok_with("ids", names);
	}
	if (p->cls && !p->has_id)
		return ok_with("ids", p->cls->list());
	ans = get_locked(p);
	if (!json_is_true(json_object_get(ans, "ok")))
		return ans;
	v = names_of(json_object_get(ans, "value"));
	json_decref(ans);
	return ok_with("ids", v);
}

/* ---------------------------------------------------------------- ops */

static json_t *op_hello(void)
{
	return json_pack("{s:b,s:i,s:i,s:s,s:s,s:s}", "ok", 1,
			 "pid", (int)getpid(), "uid", (int)getuid(),
			 "cmdline", cuemu_cmdline(), "version", PACKAGE_VERSION,
			 "machine", cuemu_machine_id());
}

static const char *path_of(json_t *req, json_t **err)
{
	const char *p = json_string_value(json_object_get(req, "path"));

	*err = NULL;
	if (!p)
		*err = fail_errno(EINVAL, "missing \"path\" (a string)");
	else if (strlen(p) > CUEMU_CTL_MAX_PATH)
		*err = fail_errno(EINVAL, "path longer than %d bytes",
				  CUEMU_CTL_MAX_PATH);
	return *err ? NULL : p;
}

/* get and list: one moment of the process, under its lock. */
static json_t *op_read(json_t *req, bool list)
{
	struct ctl_path cp;
	json_t *ans;
	const char *p;
	int e;

	if (!(p = path_of(req, &ans)))
		return ans;
	if ((e = parse_path(p, &cp)))
		return fail_errno(e, "no such path: %s", p);
	cuemu_lock();
	ans = list ? list_locked(&cp) : get_locked(&cp);
	cuemu_unlock();
	return ans;
}

/* The value as text: a string as is, a number or boolean as its JSON;
 * one trailing newline dropped (echo adds it). */
static char *value_text(json_t *v)
{
	char *s;
	size_t n;

	if (json_is_string(v))
		s = strdup(json_string_value(v));
	else
		s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	if (s && (n = strlen(s)) && s[n - 1] == '\n')
		s[n - 1] = '\0';
	return s;
}

/* A set may say by when it must start ("start_by", CLOCK_MONOTONIC in
 * ms): cufs gives up on a process that does not answer in time, and a
 * request it gave up on must not run when the process comes back (it
 * was stopped, or its control thread stuck). 0, EINVAL for a value that
 * is no time, or ETIMEDOUT when that time has passed. */
static int past_start_by(json_t *req)
{
	json_t *v = json_object_get(req, "start_by");
	struct timespec now;

	if (!v)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return EINVAL;
	cuemu_libc.clock_gettime(CLOCK_MONOTONIC, &now);
	return (json_int_t)now.tv_sec * 1000 + now.tv_nsec / 1000000 >
	       json_integer_value(v) ? ETIMEDOUT : 0;
}

static json_t *op_set(json_t *req, uid_t peer)
{
	json_t *v = json_object_get(req, "value"), *ans;
	json_t *refused = json_object_get(req, "refused");
	struct ctl_path cp;
	const char *p;
	char *text;
	CUresult r;
	int e;

	if (!(p = path_of(req, &ans)))
		return ans;
	if (!v || json_is_null(v))
		return fail_errno(EINVAL, "missing \"value\"");
	/* A file's value is one word or line: an object or array has no
	 * text a file would take (a label became its JSON). */
	if (json_is_object(v) || json_is_array(v))
		return fail_errno(EINVAL, "\"value\" must be a string, a number "
				  "or a boolean");
	if ((e = parse_path(p, &cp)))
		return fail_errno(e, "no such path: %s", p);
	if ((e = past_start_by(req)))
		return fail_errno(e, "the write came after its \"start_by\" "
				  "(the writer stopped waiting): not done");
	if (peer != getuid() && peer != 0)
		return fail_errno(EACCES, "uid %d may not change a process of "
				  "uid %d", (int)peer, (int)getuid());
	if (cp.process)
		return fail_errno(EACCES, "the process's files are read-only");
	if (!cp.cls || !cp.has_id || !*cp.rest)
		return fail_errno(EISDIR, "set needs a file's path, e.g. "
				  "allocations/12/prefetch");
	if (!(text = value_text(v)))
		return fail_errno(ENOMEM, "out of memory");
	cuemu_errmsg_clear();
	/* A client that could not send the value as written (bytes that are
	 * not UTF-8, a NUL) says why instead: the write is refused here, so
	 * that last_error says so as for any other refusal. */
	if (json_is_string(refused))
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%.200s",
			       json_string_value(refused));
	else
		r = cp.cls->set(cp.id, cp.rest, text);
	free(text);
	if (r == CUDA_SUCCESS)
		return json_pack("{s:b,s:s}", "ok", 1, "result", "CUDA_SUCCESS");
	ans = fail_result(r, cuemu_errmsg());
	cuemu_set_last_error(r, json_string_value(json_object_get(ans, "message")));
	/* processes/<pid>/last_error is published with the process. */
	cuemu_lock();
	cuemu_obj_changed(0);
	cuemu_unlock();
	return ans;
}

static json_t *op_events(json_t *req)
{
	json_t *since = json_object_get(req, "since");
	json_t *max = json_object_get(req, "max");
	json_int_t m = CTL_EVENTS_MAX;
	uint64_t last = 0;
	json_t *evs;

	if (max && (!json_is_integer(max) || json_integer_value(max) < 0))
		return fail_errno(EINVAL, "\"max\" must be a count");
	if (max && json_integer_value(max) < m)
		m = json_integer_value(max);
	if (since && (!json_is_integer(since) || json_integer_value(since) < 0))
		return fail_errno(EINVAL, "\"since\" must be a sequence number");
	if (!since) {
		/* No cursor yet: answer only where the log is now, so that a
		 * reader starts with what happens next. */
		json_decref(cuemu_event_since(0, SIZE_MAX, &last));
		return json_pack("{s:b,s:[],s:I}", "ok", 1, "events",
				 "last", (json_int_t)last);
	}
	evs = cuemu_event_since((uint64_t)json_integer_value(since), (size_t)m,
				&last);
	if (!evs)
		return fail_errno(ENOMEM, "out of memory");
	return json_pack("{s:b,s:o,s:I}", "ok", 1, "events", evs,
			 "last", (json_int_t)last);
}

/* ---------------------------------------------------------------- text */

/* An answer built as text rather than as a JSON tree: a snapshot of
 * 100,000 allocations is 15 MB, and building one tree of all of it, then
 * printing and freeing it, cost several times what printing each object
 * as it is made does. Grows by doubling; failed once an allocation failed
 * (the answer is then refused with ENOMEM). */
struct text {
	char *s;
	size_t len, cap;
	bool failed;
};

static bool text_room(struct text *t, size_t n)
{
	size_t cap;
	char *s;

	if (t->failed)
		return false;
	if (t->cap - t->len >= n)
		return true;
	for (cap = t->cap ? t->cap : 65536; cap - t->len < n; cap *= 2)
		;
	if (!(s = realloc(t->s, cap))) {
		t->failed = true;
		return false;
	}
	t->s = s;
	t->cap = cap;
	return true;
}

static void text_put(struct text *t, const char *s, size_t n)
{
	if (text_room(t, n)) {
		memcpy(t->s + t->len, s, n);
		t->len += n;
	}
}

/* v as compact JSON, printed straight into t's spare room. */
static void text_json(struct text *t, json_t *v)
{
	size_t n;

	if (!text_room(t, 1))
		return;
	n = json_dumpb(v, t->s + t->len, t->cap - t->len, JSON_COMPACT);
	if (n > t->cap - t->len && text_room(t, n))
		n = json_dumpb(v, t->s + t->len, t->cap - t->len, JSON_COMPACT);
	if (!n || n > t->cap - t->len)
		t->failed = true;
	else
		t->len += n;
}

/* A member's separator and key. With lines, each member starts a line
 * indented two spaces a level, as JSON_INDENT(2) would; without, the text
 * is one line, as the protocol's answers are. Keys here need no escape. */
static void text_key(struct text *t, bool lines, int depth, bool first,
		     const char *key)
{
	static const char spaces[] = "        ";

	if (!first)
		text_put(t, ",", 1);
	if (lines) {
		text_put(t, "\n", 1);
		text_put(t, spaces, (size_t)(2 * depth));
	}
	text_put(t, "\"", 1);
	text_put(t, key, strlen(key));
	text_put(t, lines ? "\": " : "\":", lines ? 3 : 2);
}

static void text_close(struct text *t, bool lines, int depth, bool empty)
{
	static const char spaces[] = "        ";

	if (lines && !empty) {
		text_put(t, "\n", 1);
		text_put(t, spaces, (size_t)(2 * depth));
	}
	text_put(t, "}", 1);
}

/* Every object of every class, with its get; managed allocations also
 * with their ranges. Each object is printed as soon as it is made and
 * freed at once, so the heap holds one object at a time. With lines,
 * one object a line. Lock held. */
static void snapshot_locked(struct text *t, bool lines)
{
	json_t *ids, *id, *v, *r;
	char key[32];
	CUresult err;
	bool first;
	size_t i;

	text_put(t, "{", 1);
	text_key(t, lines, 1, true, "process");
	v = cuemu_process_json();
	text_json(t, v);
	json_decref(v);
	for (size_t c = 0; c < NCLASSES; c++) {
		text_key(t, lines, 1, false, classes[c]->name);
		text_put(t, "{", 1);
		first = true;
		ids = classes[c]->list();
		json_array_foreach(ids, i, id) {
			uint64_t n = (uint64_t)json_integer_value(id);
			const char *kind;

			if (!(v = classes[c]->get(n, "", &err)))
				continue;
			kind = json_string_value(json_object_get(v, "kind"));
			if (classes[c] == &cuemu_ctl_allocations && kind &&
			    !strcmp(kind, "managed") &&
			    (r = classes[c]->get(n, "ranges", &err)))
				json_object_set_new(v, "ranges", r);
			snprintf(key, sizeof key, "%llu", (unsigned long long)n);
			text_key(t, lines, 2, first, key);
			text_json(t, v);
			json_decref(v);
			first = false;
		}
		json_decref(ids);
		text_close(t, lines, 1, first);
	}
	text_close(t, lines, 0, false);
}

/* ---------------------------------------------------------------- server */

/* Sends what the peer will take now. -1 when the peer is gone. */
static int flush_out(struct client *c)
{
	while (c->out_off < c->out_len) {
		ssize_t w = send(c->fd, c->out + c->out_off,
				 c->out_len - c->out_off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (w <= 0)
			return -1;
		c->out_off += (size_t)w;
	}
	free(c->out);
	c->out = NULL;
	c->out_len = c->out_off = 0;
	return 0;
}

/* Queues n bytes of answer for c and sends what the peer takes at once;
 * the server never waits for a peer to read. -1 when the peer is gone or
 * has left more unread than CTL_MAX_QUEUED. */
static int queue_out(struct client *c, const char *p, size_t n)
{
	size_t left = c->out_len - c->out_off;
	char *o;

	if (left + n > CTL_MAX_QUEUED) {
		cuemu_debug("control: dropped a client that left %zu bytes "
			    "unread", left);
		return -1;
	}
	if (!(o = malloc(left + n)))
		return -1;
	if (left)
		memcpy(o, c->out + c->out_off, left);
	memcpy(o + left, p, n);
	free(c->out);
	c->out = o;
	c->out_len = left + n;
	c->out_off = 0;
	return flush_out(c);
}

/* The answer and its newline as one piece of output. */
static int reply(struct client *c, json_t *ans)
{
	char small[8192], *s = small;
	size_t n;
	int rc;

	if (!ans)
		ans = fail_errno(ENOMEM, "out of memory");
	n = ans ? json_dumpb(ans, small, sizeof small - 1, JSON_COMPACT) : 0;
	if (n > sizeof small - 1) {
		s = malloc(n + 1);
		n = s ? json_dumpb(ans, s, n, JSON_COMPACT) : 0;
	}
	json_decref(ans);
	if (!n) {
		if (s != small)
			free(s);
		return -1;
	}
	s[n++] = '\n';
	rc = queue_out(c, s, n);
	if (s != small)
		free(s);
	return rc;
}

/* {"op":"snapshot"} answers one line, {"ok":true,"value":{...}}, printed
 * as text; with "text":true it answers {"ok":true,"bytes":N} and then N
 * bytes of the value, one object a line, which cufs copies into
 * snapshot.json without parsing it. The text is made under the lock and
 * queued; the peer takes it at its own pace. */
static int op_snapshot(struct client *c, json_t *req)
{
	bool lines = json_is_true(json_object_get(req, "text"));
	struct text t = { 0 };
	char head[64];
	int rc, n;

	if (!lines)
		text_put(&t, "{\"ok\":true,\"value\":", 19);
	cuemu_lock();
	snapshot_locked(&t, lines);
	cuemu_unlock();
	if (!lines)
		text_put(&t, "}\n", 2);
	if (t.failed) {
		free(t.s);
		return reply(c, fail_errno(ENOMEM, "out of memory for a "
					   "snapshot"));
	}
	rc = 0;
	if (lines) {
		n = snprintf(head, sizeof head, "{\"ok\":true,\"bytes\":%zu}\n",
			     t.len);
		rc = queue_out(c, head, (size_t)n);
	}
	if (rc == 0)
		rc = queue_out(c, t.s, t.len);
	free(t.s);
	return rc;
}

static json_t *answer(json_t *req, uid_t peer)
{
	const char *op = json_string_value(json_object_get(req, "op"));

	if (!op)
		return fail_errno(EINVAL, "missing \"op\" (a string)");
	if (!strcmp(op, "hello"))
		return op_hello();
	if (!strcmp(op, "list"))
		return op_read(req, true);
	if (!strcmp(op, "get"))
		return op_read(req, false);
	if (!strcmp(op, "set"))
		return op_set(req, peer);
	if (!strcmp(op, "events"))
		return op_events(req);
	return fail_errno(EINVAL, "unknown op \"%.64s\" (hello, list, get, "
			  "set, events, snapshot)", op);
}

/* While the file CUEMU_CONTROL_PAUSE_FILE names exists, the server
 * answers nothing: the tests' stand-in for a control thread caught in a
 * deadlock of its own process (a thread cannot be stopped alone). */
static void pause_while_asked(void)
{
	static const char *file;
	static bool read_env;

	if (!read_env) {
		file = getenv("CUEMU_CONTROL_PAUSE_FILE");
		read_env = true;
	}
	while (file && *file && access(file, F_OK) == 0)
		cuemu_libc.usleep(20000);
}

/* One request line: its answer queued. -1 when the peer is gone. */
static int serve_line(struct client *c, const char *line, size_t n)
{
	json_error_t jerr;
	json_t *req;
	int rc;

	pause_while_asked();
	c->last = ++ctl.tick;
	if (!n)
		return reply(c, fail_errno(EINVAL, "an empty line is no "
					   "request: send a JSON object"));
	if (!(req = json_loadb(line, n, 0, &jerr)))
		return reply(c, fail_errno(EINVAL, "not JSON: %s", jerr.text));
	if (!json_is_object(req))
		rc = reply(c, fail_errno(EINVAL, "a request is a JSON object"));
	else if (!strcmp(json_string_value(json_object_get(req, "op")) ?: "",
			 "snapshot"))
		rc = op_snapshot(c, req);
	else
		rc = reply(c, answer(req, c->uid));
	json_decref(req);
	return rc;
}

static void drop_client(int i)
{
	close(ctl.clients[i]->fd);
	free(ctl.clients[i]->out);
	free(ctl.clients[i]);
	ctl.clients[i] = ctl.clients[--ctl.nclients];
}

/* The client that asked nothing for longest among those of pid (any pid
 * when pid is 0), and how many pid has; -1 when there is none. */
static int idlest(pid_t pid, int *count)
{
	int best = -1;

	*count = 0;
	for (int i = 0; i < ctl.nclients; i++) {
		if (pid && ctl.clients[i]->pid != pid)
			continue;
		++*count;
		if (best < 0 || ctl.clients[i]->last < ctl.clients[best]->last)
			best = i;
	}
	return best;
}

/* Whether c's peer has closed its end (a probe that connected and left:
 * cufs asks "does anyone listen?" that way). */
static bool peer_gone(const struct client *c)
{
	char b;

	return !c->out && recv(c->fd, &b, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

/* Drops pid's connections whose peer has gone but whose close the serve
 * loop has not seen yet, so that they do not count against its share. */
static void reap_gone(pid_t pid)
{
	for (int i = ctl.nclients - 1; i >= 0; i--)
		if (ctl.clients[i]->pid == pid && peer_gone(ctl.clients[i]))
			drop_client(i);
}

/* Room for a client of pid: false when pid already has its share (its
 * new connection is refused, its old ones keep working); a full table
 * gives up its idlest connection, so that a newcomer (cufs started after a
 * flood from many processes) is always served. */
static bool make_room(pid_t pid)
{
	int n, i = idlest(pid, &n);

	if (n >= CTL_MAX_PER_PEER) {
		reap_gone(pid);
		i = idlest(pid, &n);
	}
	if (n >= CTL_MAX_PER_PEER)
		return false;
	if (ctl.nclients == CTL_MAX_CLIENTS) {
		i = idlest(0, &n);
		cuemu_debug("control: closed an idle connection of pid %d to "
			    "serve pid %d", (int)ctl.clients[i]->pid, (int)pid);
		drop_client(i);
	}
	return true;
}

static void accept_client(void)
{
	struct ucred cred;
	socklen_t len = sizeof cred;
	struct client *c;
	int fd;

	fd = accept4(ctl.lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (fd < 0)
		return;
	/* Only the owner and root may look inside a process; the socket's
	 * mode says so already, this holds even if the mode was changed. */
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 ||
	    (cred.uid != getuid() && cred.uid != 0) || !make_room(cred.pid) ||
	    !(c = malloc(sizeof *c))) {
		cuemu_debug("control: refused a connection");
		close(fd);
		return;
	}
	*c = (struct client){ .fd = fd, .uid = cred.uid, .pid = cred.pid,
			      .last = ++ctl.tick };
	ctl.clients[ctl.nclients++] = c;
}

/* Answers every complete line in c's buffer until answers wait unread:
 * then the rest waits too, and c is not read from, so what a client may
 * ask is bounded by its buffer and what it leaves unread by
 * CTL_MAX_QUEUED. -1 when the peer is gone. */
static int serve_lines(struct client *c)
{
	char *nl;

	while (!c->out && (nl = memchr(c->buf, '\n', c->len))) {
		size_t n = (size_t)(nl - c->buf);

		if (c->skipping)
			c->skipping = false;
		else if (serve_line(c, c->buf, n) < 0)
			return -1;
		c->len -= n + 1;
		memmove(c->buf, nl + 1, c->len);
	}
	if (c->len == sizeof c->buf) {
		/* A line longer than the limit: refuse it once, then skip to
		 * its end; the connection stays usable. */
		if (!c->skipping && reply(c, fail_errno(EINVAL,
		    "request line longer than %d bytes", CUEMU_CTL_MAX_LINE)) < 0)
			return -1;
		c->skipping = true;
		c->len = 0;
	}
	return 0;
}

static int read_client(struct client *c)
{
	ssize_t n = read(c->fd, c->buf + c->len, sizeof c->buf - c->len);

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n <= 0)
		return -1;
	c->len += (size_t)n;
	return serve_lines(c);
}

/* What c's poll event asks of the server. -1 when c is to be dropped. */
static int serve_client(struct client *c, short ev)
{
	if (c->out) {
		if (ev & (POLLERR | POLLHUP))
			return -1;
		if (flush_out(c) < 0)
			return -1;
		return c->out ? 0 : serve_lines(c);
	}
	return read_client(c);
}

static void *serve(void *arg)
{
	struct pollfd pfd[2 + CTL_MAX_CLIENTS];

	(void)arg;
	for (;;) {
		int n = ctl.nclients;

		pfd[0] = (struct pollfd){ .fd = ctl.wake[0], .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = ctl.lfd, .events = POLLIN };
		/* A client with answers unread is not read from until it has
		 * taken them. */
		for (int i = 0; i < n; i++)
			pfd[2 + i] = (struct pollfd){ .fd = ctl.clients[i]->fd,
				.events = ctl.clients[i]->out ? POLLOUT : POLLIN };
		if (cuemu_libc.poll(pfd, (nfds_t)(2 + n), -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[0].revents)
			break;
		/* Backwards, so that dropping client i (the last one moves
		 * into its slot) leaves the ones still to visit in place. */
		for (int i = n - 1; i >= 0; i--) {
			short ev = pfd[2 + i].revents;

			if (ev && serve_client(ctl.clients[i], ev) < 0)
				drop_client(i);
		}
		if (pfd[1].revents & POLLIN)
			accept_client();
	}
	while (ctl.nclients)
		drop_client(ctl.nclients - 1);
	return NULL;
}

/* ---------------------------------------------------------------- start */

/* The server thread takes no asynchronous signals: they belong to the
 * program's threads. */
static int start_thread(void)
{
	sigset_t all, old;
	int rc;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&ctl.thread, NULL, serve, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc == 0)
		pthread_setname_np(ctl.thread, "cuemu-control");
	return rc;
}

static void control_stop(void);

static int control_start(void)
{
	static bool registered;
	char dir[PATH_MAX];
	int rc = -1;

	pthread_mutex_lock(&ctl_lock);
	if (ctl.running && ctl.owner == getpid()) {
		rc = 0;
		goto out;
	}
	if ((ctl.lfd = cuemu_ctl_listen(dir, sizeof dir, ctl.path,
					sizeof ctl.path)) < 0)
		goto out;
	if (pipe2(ctl.wake, O_CLOEXEC | O_NONBLOCK) < 0 || start_thread()) {
		cuemu_fail(CUDA_ERROR_OPERATING_SYSTEM, "control thread: %s",
			   strerror(errno));
		close(ctl.lfd);
		unlink(ctl.path);
		ctl.lfd = -1;
		goto out;
	}
	ctl.running = true;
	ctl.owner = getpid();
	if (!registered)
		registered = atexit(control_stop) == 0;
	rc = 0;
out:
	pthread_mutex_unlock(&ctl_lock);
	return rc;
}

static void control_stop(void)
{
	pthread_mutex_lock(&ctl_lock);
	/* A forked child inherits ctl but not the thread, and the socket is
	 * its parent's: leave both alone. */
	if (!ctl.running || ctl.owner != getpid()) {
		pthread_mutex_unlock(&ctl_lock);
		return;
	}
	unlink(ctl.path);
	if (write(ctl.wake[1], "x", 1) == 1)
		pthread_join(ctl.thread, NULL);
	close(ctl.wake[0]);
	close(ctl.wake[1]);
	close(ctl.lfd);
	ctl.wake[0] = ctl.wake[1] = ctl.lfd = -1;
	ctl.running = false;
	pthread_mutex_unlock(&ctl_lock);
}

/* The control server is how cufs sees this process; a process that asks
 * not to be seen (benchmarks, some tests) sets CUEMU_CONTROL=0. */
static void control_at_init(void)
{
	const char *env = getenv("CUEMU_CONTROL");

	if (!(env && strcmp(env, "0") == 0) && control_start() < 0)
		cuemu_debug("control server not started: %s", cuemu_errmsg());
}

/* The model starts the server when it initializes (cuInit). */
__attribute__((constructor)) static void control_hook_init(void)
{
	cuemu_on_init(control_at_init);
}

/* ---------------------------------------------------------------- fuzzing */

/* Serves data as one connection's bytes from a peer of uid peer, in the
 * pieces the server's buffer takes, through a socket pair whose other end
 * takes the answers and drops them: the request path of a real connection
 * without its thread, for the fuzzer (fuzz/fuzz_control.c). -1 when the
 * connection would have been dropped. */
int cuemu_control_feed(const char *data, size_t n, uid_t peer)
{
	struct client *c = calloc(1, sizeof *c);
	int sv[2] = { -1, -1 }, rc = 0;
	char sink[65536];

	if (!c || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC |
			     SOCK_NONBLOCK, 0, sv) < 0) {
		free(c);
		return -1;
	}
	c->fd = sv[0];
	c->uid = peer;
	c->pid = getpid();
	while (rc == 0 && (n || c->out)) {
		size_t k = sizeof c->buf - c->len;

		if (c->out) {
			/* The peer reads what waits, as a reader would. */
			while (read(sv[1], sink, sizeof sink) > 0)
				;
			rc = serve_client(c, POLLOUT);
			continue;
		}
		k = k < n ? k : n;
		if (!k)
			break;
		memcpy(c->buf + c->len, data, k);
		c->len += k;
		data += k;
		n -= k;
		rc = serve_lines(c);
		while (read(sv[1], sink, sizeof sink) > 0)
			;
	}
	close(sv[0]);
	close(sv[1]);
	free(c->out);
	free(c);
	return rc;
}
