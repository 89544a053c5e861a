/*
 * client.c - which processes cufs shows and how it reaches them. A process
 * is one with a published-state segment, /dev/shm/<machine>-proc-<pid>
 * (runtime/outward/pubseg.h), whose writer is alive: everything cufs reads
 * of it comes from that segment (pubread.c), so a stopped or hung process
 * reads as a running one. Writes and the event log still go to the
 * process's control socket, one connection to each, with requests that
 * time out instead of hanging; a write is never sent to a process that is
 * stopped or does not answer, and one that waited too long is refused by
 * the process when it gets to it (start_by), so it changes nothing.
 *
 * Every wait has one deadline, whatever it waits for (the connection's
 * lock, a connect, a hello, the answer): a write is sent within
 * CUFS_TIMEOUT_MS of its write(2) or not at all, and gets its answer
 * within CUFS_WRITE_TIMEOUT_MS of it or fails. A write waits for no other
 * one but the write in flight to its process: one more is refused at once
 * (EAGAIN), so that a process that does not answer ties up two of FUSE's
 * threads at most. A process seen stopped while a request waits fails it
 * at once (a write already sent, once its start_by passed), and one that
 * let a request time out a moment ago gets no write. Reads never
 * talk to a process: processes/<pid>/state says what the requests that
 * cufs made anyway (the event relay's, ten a second) found.
 *
 * The segment of a dead process (its pid gone, or reused by a process that
 * started later) is removed here when noticed, as the next libcuemu
 * process to start removes it too.
 *
 * Locking: tab.lock guards the table of processes. An entry never changes
 * once made: a newer generation of a segment, or a process gone, replaces
 * or drops the entry, and the readers that hold a reference keep the old
 * one until they put it. The connections are another table (conns.lock),
 * each with conn.lock around a request (conn.waiting and conn.silent are
 * atomics, read without it); no two of these locks are held at once.
 * refresh_lock makes rescans one at a time. notes.lock guards cufs's
 * notes of the writes it failed (timed_out), taken alone.
 */
#include "cufs.h"
#include "pubread.h"
#include "outward/pubseg.h"
#include "model/procstat.h"
#include "outward/cuemu-private.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* A process's control connection. */
struct conn {
	pid_t pid;
	uid_t uid;           /* the process's owner, as cufs shows it */
	uint64_t start;      /* and its start time: the process it means */
	int fd;              /* -1: dial before the next request */
	int refs;            /* the table's, and each request's */
	pthread_mutex_t lock;
	char *buf;           /* bytes read past an answer (none normally) */
	size_t len, cap;
	size_t scanned;      /* bytes of buf known to hold no newline */
	/* The request in hand's limits (lock held): its deadline, and from
	 * when the process seen stopped ends it (0: from the start). */
	uint64_t deadline, stop_from;
	int waiting;         /* writes waiting for lock (atomic) */
	uint64_t silent_at;  /* when the last request got no answer; 0: it
			      * got one (atomic) */
	int silent_err;      /* and why: EPERM for a listener that is not
			      * the process (atomic) */
};

/* The processes and the connections: one table each for the daemon, so
 * global. */
static struct {
	pthread_mutex_t lock;
	struct cufs_proc *p[CUFS_MAX_PROCS];
	int n;
	uint64_t last_scan_ms;
} tab = { .lock = PTHREAD_MUTEX_INITIALIZER };
static pthread_mutex_t refresh_lock = PTHREAD_MUTEX_INITIALIZER;

static struct {
	pthread_mutex_t lock;
	struct conn *c[CUFS_MAX_PROCS];
	int n;
} conns = { .lock = PTHREAD_MUTEX_INITIALIZER };

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

static bool stopped(pid_t pid);

/* ---------------------------------------------------------------- wire */

/* How often a wait looks whether its process was stopped meanwhile. */
#define CUFS_STOP_CHECK_MS 100

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

/* Whether c's request in hand is over: its deadline passed (ETIMEDOUT),
 * or its process was stopped (EAGAIN). c->lock held. */
static int over(struct conn *c)
{
	uint64_t now = now_ms();

	if (now >= c->deadline)
		return ETIMEDOUT;
	return now >= c->stop_from && stopped(c->pid) ? EAGAIN : 0;
}

/* Reads more of c's stream into buf, before the request's end (over());
 * -1 with errno (ETIMEDOUT, EAGAIN, ECONNRESET, ENOMEM). c->lock held. */
static int fill(struct conn *c)
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
		uint64_t now = now_ms(), left;
		struct pollfd p = { .fd = c->fd, .events = POLLIN };
		int r, e;

		left = now >= c->deadline ? 0 : c->deadline - now;
		r = poll(&p, 1, (int)(left < CUFS_STOP_CHECK_MS ? left :
				      CUFS_STOP_CHECK_MS));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0) {
			if ((e = over(c))) {
				errno = e;
				return -1;
			}
			continue;
		}
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

/* One answer line into a JSON object, before the request's end; NULL
 * with errno (ETIMEDOUT, EAGAIN, ECONNRESET, EPROTO). Each byte is searched for the
 * newline once: a list of 100,000 ids arrives in many reads. c->lock
 * held. */
static json_t *recv_answer(struct conn *c)
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
		if (fill(c) < 0)
			return NULL;
	}
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

/* What a request sent at sent found of the process, for
 * processes/<pid>/state: answering, or silent (no answer within a whole
 * CUFS_TIMEOUT_MS, or a connection refused or lost). Being stopped
 * (EAGAIN) says nothing of that, nor a wait cut short because the
 * request came late (a write's start window nearly spent). */
static void heard(struct conn *c, bool answered, int e, uint64_t sent)
{
	uint64_t now = now_ms();
	bool timeout = e == ETIMEDOUT || e == EIO;

	if (!answered && (e == EAGAIN ||
			  (timeout && now - sent < CUFS_TIMEOUT_MS)))
		return;
	__atomic_store_n(&c->silent_err, answered ? 0 : e, __ATOMIC_RELAXED);
	__atomic_store_n(&c->silent_at, answered ? 0 : now, __ATOMIC_RELAXED);
}

/* One request on c's connection, within c's limits; NULL with errno.
 * c->lock held. */
static json_t *exchange(struct conn *c, const char *line)
{
	uint64_t sent = now_ms();
	json_t *a;
	int e;

	if (c->fd < 0) {
		errno = ENOTCONN;
		return NULL;
	}
	if (send_line(c->fd, line, strlen(line)) == 0 &&
	    (a = recv_answer(c))) {
		heard(c, true, 0, sent);
		return a;
	}
	e = errno;
	heard(c, false, e, sent);
	reset(c);
	errno = e;
	return NULL;
}

/* Whether the listener at the other end of fd is the process c means:
 * its pid, listening as the process's owner, and the pid still the
 * process that started when cufs first saw it. The socket's name is only
 * a claim (in a shared run dir anyone may make <pid>.sock for a pid not
 * theirs), and so is the pid the kernel took down at listen(2): a
 * listener made by a process that had the pid before, and handed to
 * another of its user's, outlives it. Only the owner vouches for a pid
 * that was reused. (Said nowhere: the rescans would say it ten times a
 * second.) */
static bool peer_is(int fd, const struct conn *c)
{
	struct ucred cred;
	socklen_t clen = sizeof cred;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) < 0)
		return false;
	return cred.pid == c->pid && cred.uid == c->uid &&
	       cuemu_proc_start_time(c->pid) == c->start;
}

/* Connects to c's process and says hello by deadline; the fd, or -1 with
 * errno (EPERM for a listener that is not the process, EXDEV for a
 * process of another machine, EAGAIN for one seen stopped, EIO for no
 * answer). */
static int dial(const struct conn *c, uint64_t deadline)
{
	struct sockaddr_un sa;
	uint64_t now = now_ms(), left = deadline > now ? deadline - now : 1;
	struct timeval tv = { .tv_sec = (time_t)(left / 1000),
			      .tv_usec = (suseconds_t)(left % 1000 * 1000) };
	struct conn tmp = { .pid = c->pid, .deadline = deadline };
	const char *m;
	json_t *a;
	int fd, dfd, e;

	if ((dfd = cuemuCtlAddr(cufs_opt.rundir, c->pid, &sa)) < 0)
		return -1;
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0) {
		close(dfd);
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
		/* A listener whose backlog is full (it accepts nothing) keeps
		 * connect waiting until SO_SNDTIMEO. */
		e = errno == EAGAIN || errno == EINPROGRESS ? ETIMEDOUT : errno;
		close(fd);
		close(dfd);
		errno = e;
		return -1;
	}
	close(dfd);
	if (!peer_is(fd, c)) {
		close(fd);
		errno = EPERM;
		return -1;
	}
	tmp.fd = fd;
	if (!(a = exchange(&tmp, "{\"op\":\"hello\"}\n"))) {
		e = errno;
		free(tmp.buf);
		errno = e == EAGAIN ? EAGAIN : EIO;
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
	return fd;
}


/* ---------------------------------------------------------------- processes */

static void proc_free(struct cufs_proc *p)
{
	pubmap_close(p->map);
	free(p);
}

void cufs_proc_put(struct cufs_proc *p)
{
	int left;

	if (!p)
		return;
	pthread_mutex_lock(&tab.lock);
	left = --p->refs;
	pthread_mutex_unlock(&tab.lock);
	if (!left)
		proc_free(p);
}

/* The table lets go of entry i. tab.lock held. */
static void drop_locked(int i)
{
	struct cufs_proc *p = tab.p[i];

	tab.p[i] = tab.p[--tab.n];
	if (--p->refs == 0)
		proc_free(p);
}

static int find_locked(pid_t pid)
{
	for (int i = 0; i < tab.n; i++)
		if (tab.p[i]->pid == pid)
			return i;
	return -1;
}

/* The owner of /proc/<pid>, or -1. */
static uid_t proc_owner(pid_t pid)
{
	char path[32];
	struct stat st;

	snprintf(path, sizeof path, "/proc/%d", (int)pid);
	return stat(path, &st) < 0 ? (uid_t)-1 : st.st_uid;
}

/* pid of "<machine>-proc-<pid>", or 0 for any other name. */
static pid_t seg_pid(const char *name)
{
	size_t m = strlen(cufs_opt.machine);
	char *end;
	long pid;

	if (strncmp(name, cufs_opt.machine, m) || strncmp(name + m, "-proc-", 6))
		return 0;
	name += m + 6;
	if (*name < '1' || *name > '9')
		return 0;
	pid = strtol(name, &end, 10);
	return *end || pid > INT32_MAX ? 0 : (pid_t)pid;
}

/* A new entry for pid's segment, or NULL when it is not shown: its
 * process is gone (the segment is removed then), it is not ours to read,
 * or someone else's file claims to be it. A segment that cannot be read
 * (corrupt, truncated) gives an entry whose files fail with EIO. */
static struct cufs_proc *open_proc(pid_t pid)
{
	struct cufs_proc *p = calloc(1, sizeof *p);
	uint64_t start = cuemu_proc_start_time(pid);
	char path[512];
	uid_t uid;
	int rc;

	if (!p || pub_path(path, sizeof path, cufs_opt.machine, pid) < 0) {
		free(p);
		return NULL;
	}
	p->pid = pid;
	p->refs = 1;
	rc = pubmap_open(path, pid, &p->map, &uid);
	if (rc == 0 && pubmap_start(p->map) != start) {
		/* The pid is free, or another process's now. */
		if (unlink(path) == 0)
			fprintf(stderr, "cufs: removed %s: its process is gone\n",
				path);
		proc_free(p);
		return NULL;
	}
	if (rc == -EIO && start) {
		struct stat st;

		uid = stat(path, &st) == 0 ? st.st_uid : (uid_t)-1;
		p->err = EIO;
		fprintf(stderr, "cufs: %s is not a readable segment: pid %d's "
			"files fail with EIO\n", path, (int)pid);
	} else if (rc < 0) {
		proc_free(p);
		return NULL;
	}
	/* The file's owner must be the process's: anyone may make a file
	 * in /dev/shm with another's pid in its name. */
	if (uid != proc_owner(pid)) {
		proc_free(p);
		return NULL;
	}
	p->uid = uid;
	p->start = start;
	return p;
}

/* Whether entry p still stands for a live process and its segment's
 * current generation. tab.lock not held (it reads /proc). */
static bool proc_current(struct cufs_proc *p)
{
	if (cuemu_proc_start_time(p->pid) != p->start)
		return false;
	return p->map ? !pubmap_retired(p->map) : true;
}

/* Whether name, in /dev/shm (d), may be the segment of a live process
 * owned by owner: a plain file of that owner's. Anyone may make files
 * there with any pid in their names; those are no process's, and must not
 * take the places of real ones among the CUFS_MAX_PROCS shown. */
static bool seg_plausible(DIR *d, const char *name, uid_t owner)
{
	struct stat st;

	return fstatat(dirfd(d), name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       S_ISREG(st.st_mode) && st.st_uid == owner;
}

/* The pids that have a segment of our machine, in seen[]. */
static int scan_shm(pid_t *seen, int max)
{
	/* Said once; scans run under refresh_lock. */
	static bool said;
	DIR *d = opendir("/dev/shm");
	struct dirent *e;
	int n = 0;
	pid_t pid;
	uid_t owner;

	if (!d)
		return 0;

	while ((e = readdir(d))) {
		if (!(pid = seg_pid(e->d_name)))
			continue;
		if ((owner = proc_owner(pid)) == (uid_t)-1) {
			/* A process killed cannot remove its own. */
			if (pub_reap_one(dirfd(d), e->d_name, pid))
				fprintf(stderr, "cufs: removed /dev/shm/%s: its "
					"process is gone\n", e->d_name);
			continue;
		}
		if (!seg_plausible(d, e->d_name, owner))
			continue;
		if (n < max)
			seen[n++] = pid;
		else if (!said) {
			said = true;
			fprintf(stderr, "cufs: more than %d processes publish "
				"their state; /cu shows %d of them\n", max, max);
		}
	}
	closedir(d);
	return n;
}

/* The last scan's pids, kept while /dev/shm is unchanged: its names,
 * thousands of them another user's, were read and checked ten times a
 * second (some 15% of a core for 4,200 files). Global, as the scan's
 * results are cufs's one view of /dev/shm; under refresh_lock. */
static struct {
	pid_t pid[CUFS_MAX_PROCS];
	int n;
	bool valid;
	struct timespec mtime;   /* /dev/shm's, read before the scan */
	struct timespec at;      /* when the scan began */
} shm_seen;

static int64_t ms_between(const struct timespec *a, const struct timespec *b)
{
	return (int64_t)(b->tv_sec - a->tv_sec) * 1000 +
	       (b->tv_nsec - a->tv_nsec) / 1000000;
}

/* Whether /dev/shm's names may have changed since the last scan: its
 * mtime moved, or that scan began within 50 ms of the change it saw
 * last, so that a change just after it might carry the same time (the
 * kernel's file times are coarse, a few ms). */
static bool shm_changed(struct timespec *mtime, struct timespec *now)
{
	struct stat st;

	clock_gettime(CLOCK_REALTIME, now);
	if (stat("/dev/shm", &st) < 0)
		return true;
	*mtime = st.st_mtim;
	return !shm_seen.valid || st.st_mtim.tv_sec != shm_seen.mtime.tv_sec ||
	       st.st_mtim.tv_nsec != shm_seen.mtime.tv_nsec ||
	       ms_between(&shm_seen.mtime, &shm_seen.at) < 50;
}

/* The pids with a segment of our machine, in seen[]: the last scan's
 * while /dev/shm is unchanged. refresh_lock held. */
static int shm_pids(pid_t *seen, int max)
{
	struct timespec mtime, now;

	if (shm_changed(&mtime, &now)) {
		shm_seen.n = scan_shm(shm_seen.pid, CUFS_MAX_PROCS);
		shm_seen.mtime = mtime;
		shm_seen.at = now;
		shm_seen.valid = true;
	}
	if (max > shm_seen.n)
		max = shm_seen.n;
	memcpy(seen, shm_seen.pid, sizeof *seen * (size_t)max);
	return max;
}

/* Removes the sockets of dead processes from the run dir: a process
 * killed cannot remove its own. */
static void reap_sockets(void)
{
	DIR *d = opendir(cufs_opt.rundir);
	struct dirent *e;
	char *end;
	long pid;

	if (!d)
		return;
	while ((e = readdir(d))) {
		pid = strtol(e->d_name, &end, 10);
		if (end != e->d_name && pid > 0 && pid <= INT32_MAX &&
		    !strcmp(end, ".sock") && kill((pid_t)pid, 0) < 0 &&
		    errno == ESRCH)
			unlinkat(dirfd(d), e->d_name, 0);
	}
	closedir(d);
}

/* Replaces (or adds, or with NULL drops) pid's entry. */
static void install(pid_t pid, struct cufs_proc *p)
{
	int i;

	pthread_mutex_lock(&tab.lock);
	if ((i = find_locked(pid)) >= 0)
		drop_locked(i);
	if (p && tab.n < CUFS_MAX_PROCS) {
		tab.p[tab.n++] = p;
		p = NULL;
	}
	pthread_mutex_unlock(&tab.lock);
	if (p)
		proc_free(p);
}

/* A kept entry of pid, referenced, or NULL. */
static struct cufs_proc *kept(pid_t pid)
{
	struct cufs_proc *p = NULL;
	int i;

	pthread_mutex_lock(&tab.lock);
	if ((i = find_locked(pid)) >= 0) {
		p = tab.p[i];
		p->refs++;
	}
	pthread_mutex_unlock(&tab.lock);
	return p;
}

void cufs_procs_refresh(bool force)
{
	pid_t seen[CUFS_MAX_PROCS];
	struct cufs_proc *p;
	int n;

	pthread_mutex_lock(&refresh_lock);
	if (!force && now_ms() - tab.last_scan_ms < 100) {
		pthread_mutex_unlock(&refresh_lock);
		return;
	}
	n = shm_pids(seen, CUFS_MAX_PROCS);
	reap_sockets();
	/* Entries whose segment is gone. */
	pthread_mutex_lock(&tab.lock);
	for (int i = tab.n - 1; i >= 0; i--) {
		bool present = false;

		for (int k = 0; k < n; k++)
			present |= seen[k] == tab.p[i]->pid;
		if (!present)
			drop_locked(i);
	}
	pthread_mutex_unlock(&tab.lock);
	for (int k = 0; k < n; k++) {
		p = kept(seen[k]);
		if (p && proc_current(p)) {
			cufs_proc_put(p);
			continue;
		}
		cufs_proc_put(p);
		install(seen[k], open_proc(seen[k]));
	}
	tab.last_scan_ms = now_ms();
	pthread_mutex_unlock(&refresh_lock);
}

static int by_pid(const void *a, const void *b)
{
	const struct cufs_proc *const *x = a, *const *y = b;

	return ((*x)->pid > (*y)->pid) - ((*x)->pid < (*y)->pid);
}

/* p, or when its segment has grown into a new generation since it was
 * mapped, the entry of that generation: a read just after the process
 * grew must not see the old one (which a rescan would notice only up to
 * 100 ms later). Takes p's reference; gives one on what it returns. */
static struct cufs_proc *current_gen(struct cufs_proc *p)
{
	pid_t pid;

	if (!p || !p->map || !pubmap_retired(p->map))
		return p;
	pid = p->pid;
	cufs_proc_put(p);
	install(pid, open_proc(pid));
	return kept(pid);
}

int cufs_procs_get(struct cufs_proc **out, int max)
{
	int n = 0;

	cufs_procs_refresh(false);
	pthread_mutex_lock(&tab.lock);
	for (int i = 0; i < tab.n && n < max; i++, n++) {
		out[n] = tab.p[i];
		out[n]->refs++;
	}
	pthread_mutex_unlock(&tab.lock);
	for (int i = 0; i < n; i++)
		out[i] = current_gen(out[i]);
	/* A process whose new generation could not be opened is gone. */
	for (int i = 0; i < n; i++)
		if (!out[i])
			out[i--] = out[--n];
	qsort(out, (size_t)n, sizeof *out, by_pid);
	return n;
}

void cufs_procs_put(struct cufs_proc **ps, int n)
{
	for (int i = 0; i < n; i++)
		cufs_proc_put(ps[i]);
}

int cufs_procs(struct cufs_proc_info *out, int max)
{
	struct cufs_proc *p[CUFS_MAX_PROCS];
	int n = cufs_procs_get(p, max < CUFS_MAX_PROCS ? max : CUFS_MAX_PROCS);

	for (int i = 0; i < n; i++)
		out[i] = (struct cufs_proc_info){ .pid = p[i]->pid,
						  .uid = p[i]->uid };
	cufs_procs_put(p, n);
	return n;
}

struct cufs_proc *cufs_proc_get(pid_t pid)
{
	struct cufs_proc *p;

	cufs_procs_refresh(false);
	if (!(p = kept(pid))) {
		/* Perhaps started since the last rescan. */
		cufs_procs_refresh(true);
		p = kept(pid);
	}
	return current_gen(p);
}

/* The state letter of /proc/<pid>/stat ('R', 'S', 'T', ...), or 0. */
static char proc_letter(pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

static bool stopped(pid_t pid)
{
	char c = proc_letter(pid);

	return c == 'T' || c == 't';
}

static bool conn_silent(pid_t pid);

/* Known without asking the process: a read must not wait for it. */
const char *cufs_proc_state(pid_t pid)
{
	if (stopped(pid))
		return "stopped";
	return conn_silent(pid) ? "not answering" : "running";
}

/* ---------------------------------------------------------------- connections */

static void conn_free(struct conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	pthread_mutex_destroy(&c->lock);
	free(c->buf);
	free(c);
}

static void conn_put(struct conn *c)
{
	int left;

	pthread_mutex_lock(&conns.lock);
	left = --c->refs;
	pthread_mutex_unlock(&conns.lock);
	if (!left)
		conn_free(c);
}

/* Whether the last request to pid got no answer in time. */
static bool conn_silent(pid_t pid)
{
	bool silent = false;

	pthread_mutex_lock(&conns.lock);
	for (int i = 0; i < conns.n; i++)
		if (conns.c[i]->pid == pid)
			silent = __atomic_load_n(&conns.c[i]->silent_at,
						 __ATOMIC_RELAXED) != 0;
	pthread_mutex_unlock(&conns.lock);
	return silent;
}

/* The table lets go of connection i. conns.lock held. */
static void conn_drop_locked(int i)
{
	struct conn *d = conns.c[i];

	conns.c[i] = conns.c[--conns.n];
	if (--d->refs == 0)
		conn_free(d);
}

/* pid's connection, made (not dialled) if there is none; NULL when pid is
 * no process cufs shows. Forgets the connections of processes gone, and
 * one made for an earlier process of the pid. */
static struct conn *conn_get(pid_t pid)
{
	struct cufs_proc *p = cufs_proc_get(pid);
	struct conn *c = NULL, *fresh;

	if (!p)
		return NULL;
	if (!(fresh = calloc(1, sizeof *fresh))) {
		cufs_proc_put(p);
		return NULL;
	}
	fresh->pid = pid;
	fresh->uid = p->uid;
	fresh->start = p->start;
	fresh->fd = -1;
	fresh->refs = 1;
	pthread_mutex_init(&fresh->lock, NULL);
	cufs_proc_put(p);
	pthread_mutex_lock(&conns.lock);
	for (int i = conns.n - 1; i >= 0; i--) {
		struct cufs_proc *q;

		if (conns.c[i]->pid == pid) {
			if (conns.c[i]->start == fresh->start &&
			    conns.c[i]->uid == fresh->uid)
				c = conns.c[i];
			else
				conn_drop_locked(i);
			continue;
		}
		/* A connection of a process no longer shown. */
		pthread_mutex_unlock(&conns.lock);
		q = kept(conns.c[i]->pid);
		pthread_mutex_lock(&conns.lock);
		if (!q && i < conns.n)
			conn_drop_locked(i);
		cufs_proc_put(q);
	}
	if (!c && conns.n < CUFS_MAX_PROCS) {
		c = fresh;
		conns.c[conns.n++] = c;
		fresh = NULL;
	}
	if (c)
		c->refs++;
	pthread_mutex_unlock(&conns.lock);
	if (fresh)
		conn_free(fresh);
	return c;
}

/* ---------------------------------------------------------------- requests */

/* A write runs the API call in the process (a prefetch, a trim), which
 * may take longer than a read; it blocks only its writer. This is all
 * the time a write(2) may take, from its start: the wait for another
 * write, the connect, the hello and the call. */
#define CUFS_WRITE_TIMEOUT_MS 10000

/* The request in hand ends at deadline, or when the process is seen
 * stopped from stop_from on. c->lock held. */
static void limit(struct conn *c, uint64_t deadline, uint64_t stop_from)
{
	c->deadline = deadline;
	c->stop_from = stop_from;
}

/* One exchange on c, dialling first if needed, within c's limits; NULL
 * with errno (EAGAIN: the process was seen stopped). c->lock held. */
static json_t *exchange_on(struct conn *c, const char *line)
{
	uint64_t sent = now_ms();
	int fd, e;

	if (c->fd < 0) {
		if ((fd = dial(c, c->deadline)) < 0) {
			e = errno;
			heard(c, false, e, sent);
			errno = e;
			return NULL;
		}
		c->fd = fd;
	}
	return exchange(c, line);
}

/* Takes c->lock by deadline, unless pid is seen stopped first: 0, or
 * ETIMEDOUT, or EAGAIN (stopped). */
static int lock_by(struct conn *c, pid_t pid, uint64_t deadline)
{
	for (;;) {
		uint64_t now = now_ms(), until;
		struct timespec t;
		int r;

		if (now >= deadline)
			return pthread_mutex_trylock(&c->lock) ? ETIMEDOUT : 0;
		until = deadline - now < CUFS_STOP_CHECK_MS ? deadline :
			now + CUFS_STOP_CHECK_MS;
		clock_gettime(CLOCK_MONOTONIC, &t);
		t.tv_sec += (time_t)((until - now) / 1000);
		t.tv_nsec += (long)((until - now) % 1000) * 1000000L;
		if (t.tv_nsec >= 1000000000L) {
			t.tv_sec++;
			t.tv_nsec -= 1000000000L;
		}
		r = pthread_mutex_clocklock(&c->lock, CLOCK_MONOTONIC, &t);
		if (r == 0)
			return 0;
		if (r != ETIMEDOUT)
			return r;
		if (stopped(pid))
			return EAGAIN;
	}
}

static char *line_of(json_t *req)
{
	char *s = json_dumps(req, JSON_COMPACT), *line;

	line = s ? malloc(strlen(s) + 2) : NULL;
	if (line)
		strcat(strcpy(line, s), "\n");
	free(s);
	return line;
}

json_t *cufs_request(pid_t pid, json_t *req, int *err)
{
	struct conn *c;
	char *line;
	json_t *a = NULL;

	/* A stopped process answers nothing until it is continued, and a
	 * request left in its socket would be answered to nobody. */
	if (stopped(pid)) {
		*err = EAGAIN;
		return NULL;
	}
	if (!(c = conn_get(pid))) {
		*err = ENOENT;
		return NULL;
	}
	/* The relay asks every process in turn: it does not wait behind a
	 * write, it asks again next round. */
	if (pthread_mutex_trylock(&c->lock)) {
		conn_put(c);
		*err = EBUSY;
		return NULL;
	}
	line = line_of(req);
	limit(c, now_ms() + CUFS_TIMEOUT_MS, 0);
	if (line)
		a = exchange_on(c, line);
	*err = a ? 0 : !line ? ENOMEM : errno == EAGAIN ? EAGAIN : EIO;
	pthread_mutex_unlock(&c->lock);
	conn_put(c);
	free(line);
	return a;
}

/* The answer's errno, or EIO where it has none. */
static int answer_errno(json_t *a)
{
	int e = (int)json_integer_value(json_object_get(a, "errno"));

	return e > 0 ? e : EIO;
}

/* Whether c's process answers a hello (with a connect first if needed)
 * within c's limits; 0 or the errno. c->lock held. */
static int answers(struct conn *c)
{
	json_t *a = exchange_on(c, "{\"op\":\"hello\"}\n");
	int e = a ? 0 : errno;

	json_decref(a);
	return e;
}

/* cufs's own note of the last write it refused a process for want of an
 * answer (the process stopped, or silent): a stopped process records
 * nothing, so processes/<pid>/last_error serves the note until the
 * process publishes a last_error of its own (cufs_refusal). Global: notes outlive
 * the request that made them; notes.lock guards them. A pid's note holds
 * the process's start time, so a later process of that pid has none. The
 * newest CUFS_NOTES are kept: a note matters only until its process
 * records an error of its own. */
#define CUFS_NOTES 64
static struct {
	pthread_mutex_t lock;
	struct refusal {
		pid_t pid;
		uint64_t start;
		time_t time;
		char msg[512];
		char *before;  /* the last_error the process had published */
	} v[CUFS_NOTES];
} notes = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The last_error pid publishes now, as text (NULL: none readable). */
static char *published_error(pid_t pid)
{
	struct cufs_proc *p = cufs_proc_get(pid);
	json_t *obj = NULL;
	char *t = NULL;
	int err;

	/* json_dumps asserts on NULL: a record without one gives none */
	if (p && (obj = cufs_record(p, 0, PUB_PROCESS, &err)) &&
	    json_object_get(obj, "last_error"))
		t = json_dumps(json_object_get(obj, "last_error"),
			       JSON_SORT_KEYS | JSON_ENCODE_ANY);
	json_decref(obj);
	if (p)
		cufs_proc_put(p);
	return t;
}

/* The reason of the last write this thread failed with ETIMEDOUT: kept
 * by timed_out() under the connection's lock, noted by cufs_set() once
 * that is released (noting reads the process table, whose lock is never
 * taken with a connection's). Thread-local: each write is one thread's. */
static __thread char why_timed_out[512];

/* Says why a write to pid failed with ETIMEDOUT (fmt ends with it), on
 * stderr (cufs's log), and keeps it for note_timeout(). */
__attribute__((format(printf, 1, 2)))
static void timed_out(const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(why_timed_out, sizeof why_timed_out, fmt, ap);
	va_end(ap);
	fputs(why_timed_out, stderr);
	if ((n = strlen(why_timed_out)) && why_timed_out[n - 1] == '\n')
		why_timed_out[n - 1] = '\0';
}

/* Keeps this thread's last reason as pid's note, until the process
 * publishes a last_error of its own. No lock held. */
static void note_timeout(pid_t pid)
{
	uint64_t start = cuemu_proc_start_time(pid);
	char *before = published_error(pid);
	struct refusal *slot = NULL;

	pthread_mutex_lock(&notes.lock);
	/* The pid's slot, else the oldest (a free one is the oldest). */
	for (size_t i = 0; i < CUFS_NOTES && !slot; i++)
		if (notes.v[i].pid == pid)
			slot = &notes.v[i];
	for (size_t i = 0; i < CUFS_NOTES; i++)
		if (!slot || (slot->pid != pid && notes.v[i].time < slot->time))
			slot = &notes.v[i];
	free(slot->before);
	*slot = (struct refusal){ .pid = pid, .start = start,
				  .time = time(NULL), .before = before };
	snprintf(slot->msg, sizeof slot->msg, "%s", why_timed_out);
	pthread_mutex_unlock(&notes.lock);
}

json_t *cufs_refusal(const struct cufs_proc *p, json_t *published)
{
	char *now = NULL;
	json_t *o = NULL;

	pthread_mutex_lock(&notes.lock);
	for (size_t i = 0; i < CUFS_NOTES && !o; i++) {
		const struct refusal *r = &notes.v[i];

		if (r->pid != p->pid || r->start != p->start || !r->before)
			continue;
		/* Served until the process records an error of its own; a
		 * process with none readable now has no note served (and
		 * json_dumps asserts on NULL). */
		if (!published)
			break;
		if (!now && !(now = json_dumps(published, JSON_SORT_KEYS |
					       JSON_ENCODE_ANY)))
			break;
		if (!strcmp(r->before, now))
			o = json_pack("{s:s,s:s,s:I}", "result",
				      "CUDA_ERROR_TIMEOUT", "message", r->msg,
				      "time", (json_int_t)r->time);
	}
	pthread_mutex_unlock(&notes.lock);
	free(now);
	return o;
}

/* The request of a write, with the moment by which the process must
 * start it. jansson takes only UTF-8: a value that is not goes as a
 * refusal, which the process records in last_error like any other. */
static char *set_line(const char *path, const char *value,
		      const char *refused, uint64_t start_by)
{
	json_t *text = refused ? NULL : json_string(value), *req;
	char *line;

	if (!refused && !text)
		refused = "the value written is not UTF-8 text";
	json_decref(text);
	req = refused ? json_pack("{s:s,s:s,s:s,s:s,s:I}", "op", "set", "path",
				  path, "value", "", "refused", refused,
				  "start_by", (json_int_t)start_by) :
			json_pack("{s:s,s:s,s:s,s:I}", "op", "set", "path", path,
				  "value", value, "start_by",
				  (json_int_t)start_by);
	line = req ? line_of(req) : NULL;
	json_decref(req);
	return line;
}

/* Takes c->lock for a write, within its start window: 0, or the errno
 * to fail it with, said in the log. At most one write waits: a process
 * that does not answer must not gather FUSE's threads. */
static int write_lock(struct conn *c, const char *path, uint64_t start_by)
{
	int e;

	if (__atomic_fetch_add(&c->waiting, 1, __ATOMIC_ACQ_REL) > 0) {
		__atomic_fetch_sub(&c->waiting, 1, __ATOMIC_ACQ_REL);
		fprintf(stderr, "cufs: write of %s to pid %d not sent: another "
			"write to it is waiting already; EAGAIN\n", path,
			(int)c->pid);
		return EAGAIN;
	}
	e = lock_by(c, c->pid, start_by);
	__atomic_fetch_sub(&c->waiting, 1, __ATOMIC_ACQ_REL);
	if (e == EAGAIN)
		timed_out("cufs: write of %s to pid %d not sent: the "
			"process was stopped while the write waited for the "
			"one before it; ETIMEDOUT\n", path, (int)c->pid);
	else if (e)
		timed_out("cufs: write of %s to pid %d not sent: the "
			"request before it held the process for the write's "
			"first %d ms; ETIMEDOUT\n", path, (int)c->pid,
			CUFS_TIMEOUT_MS);
	return e ? ETIMEDOUT : 0;
}

/* A write not sent because the listener at the process's socket is not
 * the process (peer_is): said, and ECONNREFUSED. */
static int not_the_process(const struct conn *c, const char *path)
{
	fprintf(stderr, "cufs: write of %s to pid %d not sent: the listener at "
		"%s/%d.sock is not that process (another user's, or made by an "
		"earlier process of the pid); ECONNREFUSED\n", path, (int)c->pid,
		cufs_opt.rundir, (int)c->pid);
	return ECONNREFUSED;
}

/* What became of a write sent but not answered. */
static const char unanswered[] = " (a write the process had begun runs to "
	"its end; one it had not is refused when it gets to it); ETIMEDOUT\n";

/* Sends a write's line once the process answered a hello within the
 * start window; its answer's errno (0: done). c->lock held. */
static int write_locked(struct conn *c, const char *path, const char *line,
			uint64_t start_by, uint64_t deadline)
{
	uint64_t silent = __atomic_load_n(&c->silent_at, __ATOMIC_RELAXED);
	json_t *a;
	int e;

	/* A process that let the last request time out a moment ago is not
	 * asked again: writes queued behind one to it (the kernel sends
	 * writes to one file one at a time) would each wait that long. The
	 * event relay asks it again ten times a second. */
	if (silent && __atomic_load_n(&c->silent_err, __ATOMIC_RELAXED) == EPERM)
		return not_the_process(c, path);
	if (silent && now_ms() - silent < CUFS_TIMEOUT_MS) {
		timed_out("cufs: write of %s to pid %d not sent: the "
			"process did not answer cufs's last request (%d ms "
			"ago); ETIMEDOUT\n", path, (int)c->pid,
			(int)(now_ms() - silent));
		return ETIMEDOUT;
	}
	if (now_ms() >= start_by) {
		timed_out("cufs: write of %s to pid %d not sent: the "
			"request before it held the process for the write's "
			"first %d ms; ETIMEDOUT\n", path, (int)c->pid,
			CUFS_TIMEOUT_MS);
		return ETIMEDOUT;
	}
	limit(c, start_by, 0);
	if ((e = answers(c))) {
		if (e == EPERM)
			return not_the_process(c, path);
		if (e == EAGAIN)
			timed_out("cufs: write of %s to pid %d not sent: "
				"the process was stopped (SIGSTOP or a "
				"debugger); ETIMEDOUT\n", path, (int)c->pid);
		else
			timed_out("cufs: write of %s to pid %d not sent: "
				"the process did not answer within the write's "
				"first %d ms; ETIMEDOUT\n", path, (int)c->pid,
				CUFS_TIMEOUT_MS);
		return ETIMEDOUT;
	}
	/* Sent: the process starts it by start_by or refuses it. Once that
	 * has passed, a process stopped will not answer in time. */
	limit(c, deadline, start_by);
	if (!(a = exchange(c, line))) {
		if (errno == EAGAIN)
			timed_out("cufs: write of %s to pid %d: the "
				  "process was stopped before it answered%s",
				  path, (int)c->pid, unanswered);
		else
			timed_out("cufs: write of %s to pid %d: no "
				  "answer within the write's %d ms%s", path,
				  (int)c->pid, CUFS_WRITE_TIMEOUT_MS, unanswered);
		return ETIMEDOUT;
	}
	e = json_is_true(json_object_get(a, "ok")) ? 0 : answer_errno(a);
	json_decref(a);
	return e;
}

int cufs_set(pid_t pid, const char *path, const char *value,
	     const char *refused)
{
	uint64_t t0 = now_ms(), start_by = t0 + CUFS_TIMEOUT_MS;
	struct conn *c;
	char *line;
	int err;

	why_timed_out[0] = '\0';
	if (stopped(pid)) {
		timed_out("cufs: write of %s to pid %d not sent: the "
			"process is stopped (SIGSTOP or a debugger); ETIMEDOUT\n",
			path, (int)pid);
		note_timeout(pid);
		return -ETIMEDOUT;
	}
	if (!(c = conn_get(pid)))
		return -ENOENT;
	if (!(line = set_line(path, value, refused, start_by))) {
		conn_put(c);
		return -ENOMEM;
	}
	if (!(err = write_lock(c, path, start_by))) {
		err = write_locked(c, path, line, start_by,
				   t0 + CUFS_WRITE_TIMEOUT_MS);
		pthread_mutex_unlock(&c->lock);
	}
	conn_put(c);
	free(line);
	if (err == ETIMEDOUT && why_timed_out[0])
		note_timeout(pid);
	return -err;
}

void cufs_client_shutdown(void)
{
	pthread_mutex_lock(&tab.lock);
	while (tab.n)
		drop_locked(tab.n - 1);
	pthread_mutex_unlock(&tab.lock);
	pthread_mutex_lock(&conns.lock);
	while (conns.n) {
		struct conn *c = conns.c[--conns.n];

		if (--c->refs == 0)
			conn_free(c);
	}
	pthread_mutex_unlock(&conns.lock);
}
