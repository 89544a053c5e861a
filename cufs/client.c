/*
 * client.c - cufs's side of the control protocol: which processes exist
 * (the *.sock files of the run dir that answer hello for our machine),
 * one connection to each, and requests that time out instead of hanging.
 *
 * Locking: tab.lock guards the table (entries are reference counted so a
 * request can run after the table let go of its process); conn.lock
 * serializes the requests on one connection and is never held together
 * with tab.lock. refresh_lock makes rescans one at a time; connecting to a
 * new process happens under it but outside tab.lock, so a slow process
 * does not stall requests to the others. conn.idlock guards the
 * connection's kept id lists; it is held only to read or swap them, never
 * across a request, so a lookup does not wait behind a long snapshot.
 */
#include "cufs.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* A class's ids as the process last listed them, sorted, so that the
 * lookups of <class>/<id> that follow a readdir (ls -l: one to three per
 * entry) need no request each. */
struct idcache {
	uint64_t *ids;
	size_t n;
	uint64_t at_ms;      /* when asked; older than CUFS_IDS_TTL_MS: unused */
	size_t hits;         /* lookups it answered since */
	bool renewing;       /* a thread is asking for the list again */
	const char *name;    /* the class's name, for asking again */
};

struct conn {
	pid_t pid;
	uid_t uid;
	int fd;              /* -1: reconnect before the next request */
	int refs;            /* the table's, and each request's */
	pthread_mutex_t lock;
	char *buf;           /* bytes read past an answer (none normally) */
	size_t len, cap;
	size_t scanned;      /* bytes of buf known to hold no newline */
	pthread_mutex_t idlock;
	struct idcache ids[CUFS_ID_CLASSES];
};

/* The processes cufs knows: one table for the daemon, so global. */
static struct {
	pthread_mutex_t lock;
	struct conn *c[CUFS_MAX_PROCS];
	int n;
	uint64_t last_scan_ms;
} tab = { .lock = PTHREAD_MUTEX_INITIALIZER };
static pthread_mutex_t refresh_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

static void conn_free(struct conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	pthread_mutex_destroy(&c->lock);
	pthread_mutex_destroy(&c->idlock);
	for (int k = 0; k < CUFS_ID_CLASSES; k++)
		free(c->ids[k].ids);
	free(c->buf);
	free(c);
}

static void conn_put(struct conn *c)
{
	int left;

	pthread_mutex_lock(&tab.lock);
	left = --c->refs;
	pthread_mutex_unlock(&tab.lock);
	if (!left)
		conn_free(c);
}

/* ---------------------------------------------------------------- wire */

static int send_line(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = send(fd, s, n, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Reads more of c's stream into buf, before the deadline; -1 with errno
 * (ETIMEDOUT, ECONNRESET, ENOMEM). c->lock held. */
static int fill(struct conn *c, uint64_t deadline)
{
	for (;;) {
		if (c->cap - c->len < 4096) {
			size_t cap = c->cap ? c->cap * 2 : 65536;
			char *b = realloc(c->buf, cap);

			if (!b)
				return -1;
			c->buf = b;
			c->cap = cap;
		}
		uint64_t now = now_ms();
		struct pollfd p = { .fd = c->fd, .events = POLLIN };
		int r = now >= deadline ? 0 :
			poll(&p, 1, (int)(deadline - now));

		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0)
			errno = ETIMEDOUT;
		if (r <= 0)
			return -1;
		ssize_t got = read(c->fd, c->buf + c->len, c->cap - c->len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			errno = ECONNRESET;
			return -1;
		}
		c->len += (size_t)got;
		return 0;
	}
}

/* Drops the first n bytes of buf. */
static void consume(struct conn *c, size_t n)
{
	c->len -= n;
	memmove(c->buf, c->buf + n, c->len);
	c->scanned = 0;
}

/* One answer line into a JSON object, before the deadline; NULL with
 * errno (ETIMEDOUT, ECONNRESET, EPROTO). Each byte is searched for the
 * newline once: a list of 100,000 ids arrives in many reads. c->lock
 * held. */
static json_t *recv_answer(struct conn *c, uint64_t deadline)
{
	for (;;) {
		char *nl = c->len > c->scanned ?
			   memchr(c->buf + c->scanned, '\n',
				  c->len - c->scanned) : NULL;

		if (nl) {
			size_t n = (size_t)(nl - c->buf);
			json_t *j = json_loadb(c->buf, n, 0, NULL);

			consume(c, n + 1);
			if (!json_is_object(j)) {
				json_decref(j);
				errno = EPROTO;
				return NULL;
			}
			return j;
		}
		c->scanned = c->len;
		if (fill(c, deadline) < 0)
			return NULL;
	}
}

/* n bytes of c's stream, read straight into a buffer of their own (with
 * a NUL after them), before the deadline; NULL with errno. c->lock
 * held. */
static char *recv_bytes(struct conn *c, size_t n, uint64_t deadline)
{
	char *out = malloc(n + 1);
	size_t have = c->len < n ? c->len : n;

	if (!out)
		return NULL;
	memcpy(out, c->buf, have);
	consume(c, have);
	while (have < n) {
		uint64_t now = now_ms();
		struct pollfd p = { .fd = c->fd, .events = POLLIN };
		int r = now >= deadline ? 0 :
			poll(&p, 1, (int)(deadline - now));
		ssize_t got;

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0)
				errno = ETIMEDOUT;
			break;
		}
		got = read(c->fd, out + have, n - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			errno = ECONNRESET;
			break;
		}
		have += (size_t)got;
	}
	if (have < n) {
		free(out);
		return NULL;
	}
	out[n] = '\0';
	return out;
}

/* The connection is out of step now (or dead): start over next time.
 * c->lock held. */
static void reset(struct conn *c)
{
	close(c->fd);
	c->fd = -1;
	c->len = 0;
	c->scanned = 0;
}

/* One request on c's connection. c->lock held. */
static json_t *exchange(struct conn *c, const char *line, int timeout_ms)
{
	json_t *a;

	if (c->fd < 0) {
		errno = ENOTCONN;
		return NULL;
	}
	if (send_line(c->fd, line, strlen(line)) == 0 &&
	    (a = recv_answer(c, now_ms() + (uint64_t)timeout_ms)))
		return a;
	reset(c);
	return NULL;
}

static int sock_path(pid_t pid, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/%d.sock", cufs_opt.rundir, (int)pid);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* Connects to pid and says hello; the fd, or -1 with errno (EXDEV for a
 * process of another machine). */
static int dial(pid_t pid, uid_t *uid)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = CUFS_TIMEOUT_MS / 1000 };
	struct conn tmp = { .pid = pid };
	struct ucred cred;
	socklen_t clen = sizeof cred;
	const char *m;
	json_t *a;
	int fd, e;

	if (sock_path(pid, sa.sun_path, sizeof sa.sun_path) < 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0 ||
	    getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) < 0) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	/* The name is only a claim: in a shared run dir anyone may make
	 * <pid>.sock for a pid that is not theirs. The listener's pid is
	 * the kernel's word. (Said nowhere: the rescans would say it ten
	 * times a second.) */
	if (cred.pid != pid) {
		close(fd);
		errno = EPERM;
		return -1;
	}
	tmp.fd = fd;
	if (!(a = exchange(&tmp, "{\"op\":\"hello\"}\n", CUFS_TIMEOUT_MS))) {
		free(tmp.buf);
		errno = EIO;
		return -1;
	}
	free(tmp.buf);
	m = json_string_value(json_object_get(a, "machine"));
	e = m && strcmp(m, cufs_opt.machine) ? EXDEV : 0;
	json_decref(a);
	if (e) {
		close(fd);
		errno = e;
		return -1;
	}
	*uid = cred.uid;
	return fd;
}

/* ---------------------------------------------------------------- table */

static int find_locked(pid_t pid)
{
	for (int i = 0; i < tab.n; i++)
		if (tab.c[i]->pid == pid)
			return i;
	return -1;
}

static void drop_locked(int i)
{
	struct conn *c = tab.c[i];

	tab.c[i] = tab.c[--tab.n];
	/* Nobody is using it: free here (conn_put would relock). */
	if (--c->refs == 0)
		conn_free(c);
}

static void forget(pid_t pid)
{
	int i;

	pthread_mutex_lock(&tab.lock);
	if ((i = find_locked(pid)) >= 0)
		drop_locked(i);
	pthread_mutex_unlock(&tab.lock);
}

static bool pid_dead(pid_t pid)
{
	return kill(pid, 0) < 0 && errno == ESRCH;
}

/* Does anyone listen on pid's socket? A non-blocking connect answers at
 * once, even for a process that is stopped (the kernel queues it). */
static bool listening(pid_t pid)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, rc;

	if (sock_path(pid, sa.sun_path, sizeof sa.sun_path) < 0)
		return false;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return true;
	rc = connect(fd, (struct sockaddr *)&sa, sizeof sa);
	rc = rc == 0 || errno == EAGAIN || errno == EINPROGRESS;
	close(fd);
	return rc;
}

/* Keeps a process whose connection broke as long as it still listens: it
 * may only be slow, and its files then fail with EIO rather than vanish.
 * A connection that is readable with no request in flight was closed by
 * its process (or is out of step): closed here, to be dialled again. One
 * in use is alive: its request will tell. tab.lock held. */
static bool alive(struct conn *c)
{
	struct pollfd p = { .fd = c->fd, .events = POLLIN };

	if (pthread_mutex_trylock(&c->lock) != 0)
		return true;
	if (c->fd >= 0 && poll(&p, 1, 0) != 0) {
		reset(c);
	}
	pthread_mutex_unlock(&c->lock);
	return c->fd >= 0 || listening(c->pid);
}

static void add_new(pid_t pid)
{
	struct conn *c;
	uid_t uid;
	int fd = dial(pid, &uid);

	if (fd < 0) {
		/* A socket nobody listens on, left by a process that died. */
		if (errno == ECONNREFUSED && pid_dead(pid)) {
			char p[4200];

			if (sock_path(pid, p, sizeof p) == 0)
				unlink(p);
		}
		return;
	}
	if (!(c = calloc(1, sizeof *c))) {
		close(fd);
		return;
	}
	c->pid = pid;
	c->uid = uid;
	c->fd = fd;
	c->refs = 1;
	pthread_mutex_init(&c->lock, NULL);
	pthread_mutex_init(&c->idlock, NULL);
	pthread_mutex_lock(&tab.lock);
	if (find_locked(pid) < 0 && tab.n < CUFS_MAX_PROCS) {
		tab.c[tab.n++] = c;
		c = NULL;
	}
	pthread_mutex_unlock(&tab.lock);
	if (c)
		conn_put(c);
}

/* The pids that have a socket in the run dir, in seen[] (sorted). */
static int scan_rundir(pid_t *seen, int max)
{
	DIR *d = opendir(cufs_opt.rundir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);

		if (end != e->d_name && pid > 0 && !strcmp(end, ".sock"))
			seen[n++] = (pid_t)pid;
	}
	closedir(d);
	return n;
}

void cufs_procs_refresh(bool force)
{
	pid_t seen[CUFS_MAX_PROCS], fresh[CUFS_MAX_PROCS];
	int n, nfresh = 0;

	pthread_mutex_lock(&refresh_lock);
	if (!force && now_ms() - tab.last_scan_ms < 100) {
		pthread_mutex_unlock(&refresh_lock);
		return;
	}
	n = scan_rundir(seen, CUFS_MAX_PROCS);
	pthread_mutex_lock(&tab.lock);
	for (int i = tab.n - 1; i >= 0; i--) {
		bool present = false;

		for (int k = 0; k < n; k++)
			present |= seen[k] == tab.c[i]->pid;
		if (!present || pid_dead(tab.c[i]->pid) || !alive(tab.c[i]))
			drop_locked(i);
	}
	for (int k = 0; k < n; k++)
		if (find_locked(seen[k]) < 0)
			fresh[nfresh++] = seen[k];
	pthread_mutex_unlock(&tab.lock);
	for (int k = 0; k < nfresh; k++)
		add_new(fresh[k]);
	tab.last_scan_ms = now_ms();
	pthread_mutex_unlock(&refresh_lock);
}

static int by_pid(const void *a, const void *b)
{
	const struct cufs_proc_info *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

int cufs_procs(struct cufs_proc_info *out, int max)
{
	int n = 0;

	cufs_procs_refresh(false);
	pthread_mutex_lock(&tab.lock);
	for (int i = 0; i < tab.n && n < max; i++, n++) {
		out[n].pid = tab.c[i]->pid;
		out[n].uid = tab.c[i]->uid;
	}
	pthread_mutex_unlock(&tab.lock);
	qsort(out, (size_t)n, sizeof *out, by_pid);
	return n;
}

bool cufs_proc(pid_t pid, struct cufs_proc_info *out)
{
	int i;

	cufs_procs_refresh(false);
	pthread_mutex_lock(&tab.lock);
	if ((i = find_locked(pid)) >= 0) {
		out->pid = pid;
		out->uid = tab.c[i]->uid;
	}
	pthread_mutex_unlock(&tab.lock);
	return i >= 0;
}

static struct conn *conn_get(pid_t pid)
{
	struct conn *c = NULL;
	int i;

	pthread_mutex_lock(&tab.lock);
	if ((i = find_locked(pid)) >= 0) {
		c = tab.c[i];
		c->refs++;
	}
	pthread_mutex_unlock(&tab.lock);
	return c;
}

/* ---------------------------------------------------------------- requests */

/* A write runs the API call in the process (a prefetch, a trim), which
 * may take longer than a read; it blocks only its writer. */
#define CUFS_SET_TIMEOUT_MS 10000

static json_t *request(pid_t pid, json_t *req, int timeout_ms, int *err)
{
	struct conn *c = conn_get(pid);
	char *line, *s;
	json_t *a = NULL;
	uid_t uid;
	int fd;

	if (!c) {
		*err = ENOENT;
		return NULL;
	}
	s = json_dumps(req, JSON_COMPACT);
	line = s ? malloc(strlen(s) + 2) : NULL;
	if (line)
		strcat(strcpy(line, s), "\n");
	pthread_mutex_lock(&c->lock);
	if (line && c->fd < 0 && (fd = dial(pid, &uid)) >= 0)
		c->fd = fd;
	if (line)
		a = exchange(c, line, timeout_ms);
	*err = a ? 0 : (c->fd < 0 && pid_dead(pid)) ? ENOENT : EIO;
	pthread_mutex_unlock(&c->lock);
	if (*err == ENOENT)
		forget(pid);
	conn_put(c);
	free(s);
	free(line);
	return a;
}

json_t *cufs_request(pid_t pid, json_t *req, int *err)
{
	return request(pid, req, CUFS_TIMEOUT_MS, err);
}

/* The answer's errno, or EIO where it has none. */
static int answer_errno(json_t *a)
{
	int e = (int)json_integer_value(json_object_get(a, "errno"));

	return e > 0 ? e : EIO;
}

/* One snapshot exchange on c. c->lock held. */
static char *snapshot_on(struct conn *c, int *err)
{
	static const char line[] = "{\"op\":\"snapshot\",\"text\":true}\n";
	uint64_t deadline = now_ms() + CUFS_BULK_TIMEOUT_MS;
	json_t *a, *n;
	char *text = NULL;

	*err = EIO;
	if (c->fd < 0 || send_line(c->fd, line, sizeof line - 1) < 0 ||
	    !(a = recv_answer(c, deadline))) {
		if (c->fd >= 0)
			reset(c);
		return NULL;
	}
	n = json_object_get(a, "bytes");
	if (!json_is_true(json_object_get(a, "ok")))
		*err = answer_errno(a);
	else if (json_is_integer(n) && json_integer_value(n) >= 0) {
		text = recv_bytes(c, (size_t)json_integer_value(n), deadline);
		if (!text)
			reset(c);
	} else if (json_is_object(json_object_get(a, "value"))) {
		/* A process of an older libcuemu answers in the line. */
		text = json_dumps(json_object_get(a, "value"), JSON_INDENT(2));
	}
	json_decref(a);
	if (text)
		*err = 0;
	return text;
}

char *cufs_snapshot(pid_t pid, int *err)
{
	struct conn *c = conn_get(pid);
	char *text;
	uid_t uid;
	int fd;

	if (!c) {
		*err = ENOENT;
		return NULL;
	}
	pthread_mutex_lock(&c->lock);
	if (c->fd < 0 && (fd = dial(pid, &uid)) >= 0)
		c->fd = fd;
	text = snapshot_on(c, err);
	if (!text && c->fd < 0 && pid_dead(pid))
		*err = ENOENT;
	pthread_mutex_unlock(&c->lock);
	if (*err == ENOENT)
		forget(pid);
	conn_put(c);
	return text;
}

static json_t *ask(pid_t pid, const char *op, const char *path,
		   const char *key, int *err)
{
	json_t *req = json_pack("{s:s,s:s}", "op", op, "path", path);
	json_t *a, *v = NULL;

	a = cufs_request(pid, req, err);
	json_decref(req);
	if (!a)
		return NULL;
	if (json_is_true(json_object_get(a, "ok"))) {
		v = json_object_get(a, key);
		json_incref(v);
	}
	*err = v ? 0 : (int)json_integer_value(json_object_get(a, "errno"));
	if (!v && *err <= 0)
		*err = EIO;
	json_decref(a);
	return v;
}

json_t *cufs_get(pid_t pid, const char *path, int *err)
{
	return ask(pid, "get", path, "value", err);
}

json_t *cufs_list(pid_t pid, const char *path, int *err)
{
	return ask(pid, "list", path, "ids", err);
}

int cufs_set(pid_t pid, const char *path, const char *value,
	     const char *refused)
{
	json_t *req;
	json_t *a, *text = refused ? NULL : json_string(value);
	int err;

	/* jansson takes only UTF-8: a value that is not goes as a refusal,
	 * which the process records in last_error like any other. */
	if (!refused && !text)
		refused = "the value written is not UTF-8 text";
	json_decref(text);
	req = refused ? json_pack("{s:s,s:s,s:s,s:s}", "op", "set", "path",
				  path, "value", "", "refused", refused) :
			json_pack("{s:s,s:s,s:s}", "op", "set", "path", path,
				  "value", value);
	if (!req)
		return -ENOMEM;
	a = request(pid, req, CUFS_SET_TIMEOUT_MS, &err);
	json_decref(req);
	if (!a)
		return -err;
	if (!json_is_true(json_object_get(a, "ok"))) {
		err = (int)json_integer_value(json_object_get(a, "errno"));
		if (err <= 0)
			err = EIO;
	}
	json_decref(a);
	return -err;
}

/* ---------------------------------------------------------------- ids */

static int by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* A list answer's integer ids, sorted; NULL for none. */
static uint64_t *sorted_ids(json_t *list, size_t *n)
{
	uint64_t *ids = malloc((json_array_size(list) + 1) * sizeof *ids);
	size_t i;
	json_t *e;

	*n = 0;
	if (!ids)
		return NULL;
	json_array_foreach(list, i, e)
		if (json_is_integer(e))
			ids[(*n)++] = (uint64_t)json_integer_value(e);
	qsort(ids, *n, sizeof *ids, by_u64);
	return ids;
}

/* Keeps list (asked at at_ms) as c's ids of class k, unless a list asked
 * later is kept already; NULL (the process did not answer) drops a list
 * that expired. Takes idlock. */
static void keep_ids(struct conn *c, int k, const char *name, json_t *list,
		     uint64_t at_ms)
{
	struct idcache *ic = &c->ids[k];
	size_t n = 0;
	uint64_t *ids = list ? sorted_ids(list, &n) : NULL;

	pthread_mutex_lock(&c->idlock);
	if (ids && (!ic->ids || ic->at_ms <= at_ms)) {
		free(ic->ids);
		*ic = (struct idcache){ .ids = ids, .n = n, .at_ms = at_ms,
					.name = name };
		ids = NULL;
	} else if (!list && now_ms() - ic->at_ms > CUFS_IDS_TTL_MS) {
		free(ic->ids);
		*ic = (struct idcache){ 0 };
	}
	ic->renewing = false;
	pthread_mutex_unlock(&c->idlock);
	free(ids);
}

json_t *cufs_list_ids(pid_t pid, int k, const char *name, int *err)
{
	uint64_t at = now_ms();
	json_t *list = cufs_list(pid, name, err);
	struct conn *c;

	if (list && k >= 0 && k < CUFS_ID_CLASSES && (c = conn_get(pid))) {
		keep_ids(c, k, name, list, at);
		conn_put(c);
	}
	return list;
}

/* Asks for c's list of class k again (no lock held). */
static void renew_ids(struct conn *c, int k, const char *name)
{
	uint64_t at = now_ms();
	int err;
	json_t *list = cufs_list(c->pid, name, &err);

	keep_ids(c, k, name, list, at);
	json_decref(list);
}

/* 1, 0, or -1 for no fresh list; sets *renew for a stale list that is
 * worth asking for again. idlock held. */
static int has_id_locked(struct idcache *ic, uint64_t id, bool *renew)
{
	*renew = false;
	if (!ic->ids)
		return -1;
	if (now_ms() - ic->at_ms <= CUFS_IDS_TTL_MS) {
		ic->hits++;
		return bsearch(&id, ic->ids, ic->n, sizeof id, by_u64) != NULL;
	}
	/* One list costs about what 256 lookups of one object do. */
	if (!ic->renewing && ic->hits > ic->n / 256) {
		ic->renewing = true;
		*renew = true;
	} else if (!ic->renewing) {
		free(ic->ids);
		*ic = (struct idcache){ 0 };
	}
	return -1;
}

int cufs_has_id(pid_t pid, int k, uint64_t id)
{
	struct conn *c;
	const char *name;
	bool renew;
	int r;

	if (k < 0 || k >= CUFS_ID_CLASSES || !(c = conn_get(pid)))
		return -1;
	pthread_mutex_lock(&c->idlock);
	r = has_id_locked(&c->ids[k], id, &renew);
	name = c->ids[k].name;
	pthread_mutex_unlock(&c->idlock);
	if (renew) {
		renew_ids(c, k, name);
		pthread_mutex_lock(&c->idlock);
		r = has_id_locked(&c->ids[k], id, &renew);
		pthread_mutex_unlock(&c->idlock);
	}
	conn_put(c);
	return r;
}

void cufs_client_shutdown(void)
{
	pthread_mutex_lock(&tab.lock);
	while (tab.n)
		drop_locked(tab.n - 1);
	pthread_mutex_unlock(&tab.lock);
}
