/*
 * events.c - the event log behind /events, /events_pipe and each
 * processes/<pid>/events{,_pipe}: a relay thread takes every process's
 * new event lines every CUFS_EVENT_POLL_MS, from cufs's start on, and the
 * log keeps the newest CUFS_EVENT_LOG of them, each "<pid> <line>",
 * numbered in one sequence and placed at a byte offset, as if appended to
 * a file that is never rewritten.
 *
 * A view is the log as a whole or one process's lines ("source": one run
 * of a process, so a reused pid starts a new one). Each view has its own
 * byte offsets, and is read in two forms: as a log file (a read at an
 * offset gives the bytes there, and ends at the end of what came so far;
 * the size grows) or as a stream (starts at "now", blocks for whole
 * lines). A reader that asks for lines the log no longer keeps, and the
 * relay when a process's own ring dropped lines before it read them, get
 * a "dropped lines=N" line instead, and the view's counters count them.
 *
 * Streams are budgeted: CUFS_MAX_STREAMS in all, each user but root at
 * most a quarter of them (cufs(8), PRIVACY AND BUDGETS). So is the log: a
 * process holds at most CUFS_EVENT_SHARE of its lines; what it logs past
 * that while its older lines are still kept is dropped, and said by a
 * "dropped ... in=budget" line of its own once it may log again, so that
 * one process's flood cannot push the others' recent lines out. The
 * share binds only when the log is full and the line that would make
 * room is another process's, at most CUFS_EVENT_KEEP_S old: a process
 * alone, or pushing out its own lines, logs on however much it holds.
 *
 * Locking: ev.lock guards everything here; it is never held across a
 * request to a process (the relay takes a process's lines first, then the
 * lock to append them) nor across a poll notification.
 */
#define FUSE_USE_VERSION 31
#include "cufs.h"

#include <errno.h>
#include <fuse.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Lines the log keeps, of all processes together. Each process keeps its
 * newest 4096 (runtime/outward/events.c); this holds sixteen such rings,
 * so that with a few busy processes a quiet one's lines are still kept,
 * and tail -n and a whole cat still reach back a long way. A line is at
 * most CUFS_EVENT_LINE_MAX bytes (runtime lines are under 220), so the
 * log holds at most 32 MiB of text, about 7 MiB with real lines, and a
 * cat of all of it is some 60 reads. */
#define CUFS_EVENT_LOG 65536
#define CUFS_EVENT_LINE_MAX 512
/* How often the relay asks each process. A process keeps 4096 lines, so
 * only one logging more than 40,000 a second outruns it; asking costs an
 * empty answer a process when nothing happened. */
#define CUFS_EVENT_POLL_MS 100
/* What one request asks for (the runtime answers at most 1024), and how
 * many requests one process gets in one round: a full ring's worth. */
#define CUFS_EVENT_ASK 1024
#define CUFS_EVENT_ASKS 4
/* The lines of the log one process may hold while it would push out
 * another's: a quarter, so that a flood of one (200,000 lines) leaves the
 * others' lines where they are. The log appends and drops in order only,
 * so the flood's newest lines are the ones dropped, while its older ones
 * are kept. */
#define CUFS_EVENT_SHARE (CUFS_EVENT_LOG / 4)
/* How long another process's line is kept from a flood: past that it may
 * go, oldest first, as in any log. Without a bound, a quiet process's
 * first line at the head of the log would mute a flooding one for as
 * long as cufs runs, since only a push makes room. */
#define CUFS_EVENT_KEEP_S 60
/* Sources: each live process's, and the ones of processes that are gone
 * while the log keeps their lines or someone reads them. */
#define CUFS_EVENT_SOURCES (2 * CUFS_MAX_PROCS)
#define CUFS_MAX_POLLERS 64
/* Streams open at once. A read of a stream waits for lines in one of
 * FUSE's threads (CUFS_FUSE_THREADS): the rest are kept for everything
 * else, so that readers of streams never stop /cu. */
#define CUFS_MAX_STREAMS (CUFS_FUSE_THREADS - 64)
/* Streams one user (root aside) may hold open: a quarter of them, so that
 * one user's opens leave the others theirs (192 opened by one user left
 * everyone else EMFILE). */
#define CUFS_USER_STREAMS (CUFS_MAX_STREAMS / 4)

/* A view's extent and counters. Lines are numbered from 0 in each view;
 * the first gone_lines of them (gone_bytes bytes) are no longer kept. */
struct view {
	uint64_t lines, bytes;
	uint64_t gone_lines, gone_bytes;
	uint64_t lost_process;   /* lines a process's ring dropped unread */
	uint64_t lost_budget;    /* lines over a process's share of the log */
	uint64_t lost_readers;   /* lines readers fell behind by */
	struct timespec mtime;   /* when the last line came */
};

struct source {
	uint64_t id;             /* 0: a free slot */
	pid_t pid;
	bool live;               /* the process is still listed */
	int readers;             /* open files of this source's view */
	uint64_t since;          /* the process's last seq taken */
	uint64_t over;           /* lines over its share, not yet said */
	struct view v;
};

struct entry {
	char *text;              /* "<pid> <line>\n"; NULL: not yet used */
	uint32_t len;
	uint32_t at;             /* when it came: now_s() */
	int slot;                /* its source's slot in ev.src ... */
	uint64_t src;            /* ... if that slot still has this id */
	uint64_t off;            /* byte offset in the whole log */
	uint64_t poff, pline;    /* byte offset and line in its source */
};

struct cufs_ev_reader {
	uint64_t src;            /* 0: the whole log */
	int slot;
	bool pipe;
	uid_t uid;               /* who opened it: a stream counts as theirs */
	/* Where the reader is: in line vline of the view, inl bytes into
	 * it. hint is the log seq to look for that line from (a source's
	 * lines are spread among the others'). */
	uint64_t vline, hint;
	size_t inl;
	/* The log form: the offset at which the next read continues from
	 * here. A read anywhere else is placed by its offset. */
	bool placed;
	uint64_t koff;
	/* Placed by a read in the dropped part: it asked for old lines,
	 * it did not fall behind, so readers' counter leaves it out. */
	bool asked_old;
	/* A dropped-lines line not yet given in full. */
	char mark[128];
	size_t mlen, moff;
};

/* The log of the daemon: one, so global; guarded by ev.lock. */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t more;     /* lines came, or stop */
	struct entry ring[CUFS_EVENT_LOG];   /* seq s at ring[s % LOG] */
	struct view all;         /* the whole log; seq = line + 1 */
	struct source src[CUFS_EVENT_SOURCES];
	uint64_t next_id;
	bool started, stop;
	pthread_t thread;
	struct fuse_pollhandle *ph[CUFS_MAX_POLLERS];
	int nph;
	int streams;             /* open stream readers */
	struct {                 /* and whose: the users holding any */
		uid_t uid;
		int n;
	} held[CUFS_MAX_STREAMS];
	int nheld;
} ev = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.more = PTHREAD_COND_INITIALIZER,
};

/* ---------------------------------------------------------------- sources */

static struct source *source_by_pid_locked(pid_t pid)
{
	for (int i = 0; i < CUFS_EVENT_SOURCES; i++)
		if (ev.src[i].id && ev.src[i].live && ev.src[i].pid == pid)
			return &ev.src[i];
	return NULL;
}

static struct source *source_by_id_locked(uint64_t id, int slot)
{
	if (slot < 0 || slot >= CUFS_EVENT_SOURCES || !id ||
	    ev.src[slot].id != id)
		return NULL;
	return &ev.src[slot];
}

/* A gone process's source is freed once nobody reads it and the log
 * keeps none of its lines: its per-process files cannot be opened any
 * more, and the whole log does not need it. */
static void maybe_free_locked(struct source *s)
{
	if (s->id && !s->live && !s->readers &&
	    s->v.gone_lines == s->v.lines)
		memset(s, 0, sizeof *s);
}

/* The live source of pid, made if there is none; NULL when the table is
 * full of gone processes' sources that are being read. */
static struct source *source_of_locked(pid_t pid)
{
	struct source *s = source_by_pid_locked(pid), *spare = NULL;

	if (s)
		return s;
	for (int i = 0; i < CUFS_EVENT_SOURCES && !s; i++) {
		if (!ev.src[i].id)
			s = &ev.src[i];
		else if (!ev.src[i].live && !ev.src[i].readers && !spare)
			spare = &ev.src[i];
	}
	/* A gone process nobody reads: the log keeps its lines for the
	 * whole view, only its own view (which nothing can open) goes. */
	if (!s && (s = spare))
		memset(s, 0, sizeof *s);
	if (!s)
		return NULL;
	s->id = ++ev.next_id;
	s->pid = pid;
	s->live = true;
	clock_gettime(CLOCK_REALTIME, &s->v.mtime);
	return s;
}

/* ---------------------------------------------------------------- the log */

/* Seconds on the monotonic clock, for the age of a line. */
static uint32_t now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
	return (uint32_t)t.tv_sec;
}

static struct entry *entry_at(uint64_t seq)
{
	if (seq <= ev.all.gone_lines || seq > ev.all.lines)
		return NULL;
	return &ev.ring[seq % CUFS_EVENT_LOG];
}

/* Appends text (malloc'd, one line with its newline) to the log as s's.
 * The oldest line makes room. */
static void push_locked(struct source *s, char *text, size_t len)
{
	uint64_t seq = ev.all.lines + 1;
	struct entry *e = &ev.ring[seq % CUFS_EVENT_LOG];
	struct source *old;

	if (e->text) {
		ev.all.gone_lines++;
		ev.all.gone_bytes += e->len;
		if ((old = source_by_id_locked(e->src, e->slot))) {
			old->v.gone_lines = e->pline + 1;
			old->v.gone_bytes = e->poff + e->len;
			maybe_free_locked(old);
		}
		free(e->text);
	}
	*e = (struct entry){
		.text = text, .len = (uint32_t)len,
		.slot = (int)(s - ev.src), .src = s->id,
		.off = ev.all.bytes, .poff = s->v.bytes, .pline = s->v.lines,
		.at = now_s(),
	};
	ev.all.lines++;
	ev.all.bytes += len;
	s->v.lines++;
	s->v.bytes += len;
	clock_gettime(CLOCK_REALTIME, &ev.all.mtime);
	s->v.mtime = ev.all.mtime;
}

/* The line that says n lines were dropped: who (a pid, or "cufs" for
 * the whole log), the time, and where they were lost ("process": in the
 * process's ring before cufs read it; "log": in cufs's log before this
 * reader reached them). Shaped like every other event line. */
static int dropped_line(char *buf, size_t len, const char *who, uint64_t n,
			const char *where)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return snprintf(buf, len, "%s %lld.%03ld dropped lines=%llu in=%s\n",
			who, (long long)t.tv_sec, t.tv_nsec / 1000000,
			(unsigned long long)n, where);
}

/* One event line of pid as the log keeps it: "<pid> <line>\n", with
 * every control character a space (a newline would start a line that
 * looks like another process's; an escape would drive the terminal of
 * whoever runs tail -f), cut at CUFS_EVENT_LINE_MAX on a character
 * boundary. line is UTF-8 without NUL: the JSON parser checked both. */
static char *event_text(pid_t pid, const char *line, size_t *len)
{
	char *s;
	int n;
	size_t k;

	/* Room for the newline, put back below after any cut. */
	n = asprintf(&s, "%d %s\n", (int)pid, line);
	if (n < 1)
		return NULL;
	k = (size_t)n - 1;
	if (k > CUFS_EVENT_LINE_MAX - 1) {
		k = CUFS_EVENT_LINE_MAX - 1;
		while (k && ((unsigned char)s[k] & 0xc0) == 0x80)
			k--;
	}
	for (size_t i = 0; i < k; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			s[i] = ' ';
	s[k] = '\n';
	s[k + 1] = '\0';
	*len = k + 1;
	return s;
}

/* Whether s's next line would push out another source's line that the
 * log keeps from floods: the log is full, and its oldest line is not s's
 * and came less than CUFS_EVENT_KEEP_S ago. */
static bool over_share_locked(const struct source *s)
{
	const struct entry *e = &ev.ring[(ev.all.lines + 1) % CUFS_EVENT_LOG];

	if (s->v.lines - s->v.gone_lines < CUFS_EVENT_SHARE || !e->text)
		return false;
	if (e->src == s->id && e->slot == (int)(s - ev.src))
		return false;
	return now_s() - e->at < CUFS_EVENT_KEEP_S;
}

/* Whether s may add a line to the log: not over its share. Over it, the
 * line is counted as dropped; the first line allowed again is preceded
 * by one that says how many were (which may take the share's last place:
 * nothing is lost without a word). */
static bool budget_locked(struct source *s)
{
	char who[16], buf[128], *t;
	int n;

	if (over_share_locked(s)) {
		s->over++;
		s->v.lost_budget++;
		ev.all.lost_budget++;
		return false;
	}
	if (!s->over)
		return true;
	snprintf(who, sizeof who, "%d", (int)s->pid);
	n = dropped_line(buf, sizeof buf, who, s->over, "budget");
	if (n > 0 && (t = strdup(buf))) {
		push_locked(s, t, (size_t)n);
		s->over = 0;
	}
	return !over_share_locked(s);
}

/* Appends one answer's events of s (a JSON array of {seq, line}). The
 * seqs must rise; a gap is lines the process's ring dropped before the
 * relay asked, said by a dropped line in their place. Answers how many
 * entries it took. */
static size_t take_locked(struct source *s, json_t *events)
{
	char who[16], buf[128], *t;
	size_t i, len, took = 0;
	json_t *e, *seq, *line;
	uint64_t q;
	int n;

	json_array_foreach(events, i, e) {
		/* No more than was asked for. */
		if (i == CUFS_EVENT_ASK)
			break;
		seq = json_object_get(e, "seq");
		line = json_object_get(e, "line");
		if (!json_is_integer(seq) || json_integer_value(seq) < 1 ||
		    !json_is_string(line))
			continue;
		q = (uint64_t)json_integer_value(seq);
		if (q <= s->since)
			continue;
		if (q > s->since + 1) {
			snprintf(who, sizeof who, "%d", (int)s->pid);
			n = dropped_line(buf, sizeof buf, who,
					 q - s->since - 1, "process");
			if (n > 0 && (t = strdup(buf))) {
				push_locked(s, t, (size_t)n);
				s->v.lost_process += q - s->since - 1;
				ev.all.lost_process += q - s->since - 1;
			}
		}
		s->since = q;
		if (!budget_locked(s)) {
			took++;
			continue;
		}
		if ((t = event_text(s->pid, json_string_value(line), &len)))
			push_locked(s, t, len);
		took++;
	}
	return took;
}

/* Poll handles to notify, taken out under the lock, notified after. */
static int take_pollers_locked(struct fuse_pollhandle **out)
{
	int n = ev.nph;

	memcpy(out, ev.ph, sizeof *out * (size_t)n);
	ev.nph = 0;
	return n;
}

static void notify(struct fuse_pollhandle **ph, int n)
{
	for (int k = 0; k < n; k++) {
		fuse_notify_poll(ph[k]);
		fuse_pollhandle_destroy(ph[k]);
	}
}

/* Takes pid's new lines: from its first line when it is new (what it
 * logged before cufs saw it is part of the log too), else after the last
 * taken. */
static void relay_process(pid_t pid)
{
	struct fuse_pollhandle *ph[CUFS_MAX_POLLERS];
	struct source *s;
	uint64_t id, since;
	int slot, err, nph;
	size_t got;
	json_t *req, *a, *evs;

	pthread_mutex_lock(&ev.lock);
	s = source_of_locked(pid);
	id = s ? s->id : 0;
	slot = s ? (int)(s - ev.src) : -1;
	since = s ? s->since : 0;
	pthread_mutex_unlock(&ev.lock);
	if (!id)
		return;
	for (int k = 0; k < CUFS_EVENT_ASKS; k++) {
		req = json_pack("{s:s,s:I,s:i}", "op", "events", "since",
				(json_int_t)since, "max", CUFS_EVENT_ASK);
		a = req ? cufs_request(pid, req, &err) : NULL;
		json_decref(req);
		evs = json_object_get(a, "events");
		if (!json_is_true(json_object_get(a, "ok")) ||
		    !json_is_array(evs)) {
			json_decref(a);
			return;
		}
		pthread_mutex_lock(&ev.lock);
		got = 0;
		nph = 0;
		/* Only the relay frees a live source, so it is still s. */
		if ((s = source_by_id_locked(id, slot))) {
			got = take_locked(s, evs);
			since = s->since;
		}
		if (got) {
			pthread_cond_broadcast(&ev.more);
			nph = take_pollers_locked(ph);
		}
		pthread_mutex_unlock(&ev.lock);
		notify(ph, nph);
		json_decref(a);
		if (json_array_size(evs) < CUFS_EVENT_ASK)
			break;
	}
}

/* Marks the sources of processes that are no longer listed as gone. A
 * reader of a gone process's stream gets its last lines, then the end. */
static void mark_gone_locked(const struct cufs_proc_info *p, int n)
{
	bool woke = false;

	for (int i = 0; i < CUFS_EVENT_SOURCES; i++) {
		struct source *s = &ev.src[i];
		bool listed = false;

		if (!s->id || !s->live)
			continue;
		for (int k = 0; k < n && !listed; k++)
			listed = p[k].pid == s->pid;
		if (listed)
			continue;
		s->live = false;
		woke = true;
		maybe_free_locked(s);
	}
	if (woke)
		pthread_cond_broadcast(&ev.more);
}

static void *relay(void *arg)
{
	struct cufs_proc_info p[CUFS_MAX_PROCS];
	struct timespec until;
	unsigned rounds = 0;
	int n;

	(void)arg;
	pthread_mutex_lock(&ev.lock);
	while (!ev.stop) {
		pthread_mutex_unlock(&ev.lock);
		n = cufs_procs(p, CUFS_MAX_PROCS);
		for (int i = 0; i < n; i++)
			relay_process(p[i].pid);
		if (++rounds % (1000 / CUFS_EVENT_POLL_MS) == 0)
			cufs_tidy_heap();
		pthread_mutex_lock(&ev.lock);
		mark_gone_locked(p, n);
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += CUFS_EVENT_POLL_MS * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		while (!ev.stop &&
		       pthread_cond_timedwait(&ev.more, &ev.lock, &until) == 0)
			;
	}
	pthread_mutex_unlock(&ev.lock);
	return NULL;
}

int cufs_events_start(void)
{
	int rc = 0;

	pthread_mutex_lock(&ev.lock);
	if (!ev.started) {
		clock_gettime(CLOCK_REALTIME, &ev.all.mtime);
		rc = pthread_create(&ev.thread, NULL, relay, NULL);
		ev.started = rc == 0;
	}
	pthread_mutex_unlock(&ev.lock);
	return -rc;
}

void cufs_events_stop(void)
{
	pthread_mutex_lock(&ev.lock);
	ev.stop = true;
	pthread_cond_broadcast(&ev.more);
	pthread_mutex_unlock(&ev.lock);
	if (ev.started)
		pthread_join(ev.thread, NULL);
	for (int i = 0; i < CUFS_EVENT_LOG; i++) {
		free(ev.ring[i].text);
		ev.ring[i].text = NULL;
	}
	for (int k = 0; k < ev.nph; k++)
		fuse_pollhandle_destroy(ev.ph[k]);
	ev.nph = 0;
}

/* ---------------------------------------------------------------- views */

/* The view of pid's lines, or of the whole log for pid 0: its source's
 * id and slot (0 and -1 for the whole log). */
static int view_of_pid_locked(pid_t pid, uint64_t *id, int *slot)
{
	struct source *s;

	*id = 0;
	*slot = -1;
	if (!pid)
		return 0;
	if (!(s = source_of_locked(pid)))
		return -ENFILE;
	*id = s->id;
	*slot = (int)(s - ev.src);
	return 0;
}

static struct view *view_locked(const struct cufs_ev_reader *r)
{
	struct source *s;

	if (!r->src)
		return &ev.all;
	s = source_by_id_locked(r->src, r->slot);
	/* A reader holds its source: it is there. */
	return s ? &s->v : &ev.all;
}

int cufs_events_stat(pid_t pid, off_t *size, struct timespec *mtime)
{
	struct cufs_ev_reader r = { 0 };
	struct view *v;
	int rc;

	pthread_mutex_lock(&ev.lock);
	if ((rc = view_of_pid_locked(pid, &r.src, &r.slot)) == 0) {
		v = view_locked(&r);
		*size = (off_t)v->bytes;
		*mtime = v->mtime;
	}
	pthread_mutex_unlock(&ev.lock);
	return rc;
}

json_t *cufs_events_dropped(pid_t pid)
{
	struct cufs_ev_reader r = { 0 };
	struct view *v;
	json_t *o = NULL;

	pthread_mutex_lock(&ev.lock);
	if (view_of_pid_locked(pid, &r.src, &r.slot) == 0) {
		v = view_locked(&r);
		o = json_pack("{s:I,s:I,s:I,s:I}",
			      "process", (json_int_t)v->lost_process,
			      "budget", (json_int_t)v->lost_budget,
			      "log", (json_int_t)v->gone_lines,
			      "readers", (json_int_t)v->lost_readers);
	}
	pthread_mutex_unlock(&ev.lock);
	return o;
}

/* The entry of line vline of r's view, looked for from r->hint on; NULL
 * when the view has no such line (yet, or any more). */
static struct entry *line_locked(struct cufs_ev_reader *r, uint64_t vline,
				 uint64_t *seq)
{
	struct entry *e;
	uint64_t s;

	if (!r->src) {
		*seq = vline + 1;
		return entry_at(vline + 1);
	}
	s = r->hint > ev.all.gone_lines ? r->hint : ev.all.gone_lines + 1;
	for (; (e = entry_at(s)); s++) {
		if (e->src != r->src || e->pline < vline)
			continue;
		if (e->pline > vline)
			return NULL;
		r->hint = *seq = s;
		return e;
	}
	/* Nothing up to the newest is it: a reader waiting for its
	 * process's next line looks only at what comes after. */
	r->hint = s;
	return NULL;
}

/* Where line vline of the view starts. */
static uint64_t line_start_locked(struct cufs_ev_reader *r, struct view *v,
				  uint64_t vline)
{
	struct entry *e;
	uint64_t seq;

	if (vline <= v->gone_lines)
		return v->gone_bytes;
	if (vline >= v->lines)
		return v->bytes;
	e = line_locked(r, vline, &seq);
	return e ? (r->src ? e->poff : e->off) : v->bytes;
}

/* Places a log reader at byte off of its view: in the line holding it;
 * before the kept lines, at line 0 (cufs cannot tell which line of the
 * dropped ones off was in, so the count it will say is all of them). */
static void place_locked(struct cufs_ev_reader *r, uint64_t off)
{
	struct view *v = view_locked(r);
	struct entry *e;
	uint64_t lo, hi, mid;

	r->placed = true;
	r->koff = off;
	r->mlen = r->moff = 0;
	r->inl = 0;
	r->hint = 0;
	r->asked_old = off < v->gone_bytes;
	if (off >= v->bytes) {
		r->vline = v->lines;
		r->hint = ev.all.lines + 1;
		return;
	}
	if (off < v->gone_bytes) {
		r->vline = 0;
		return;
	}
	if (!r->src) {
		/* The last kept line that starts at or before off. */
		lo = ev.all.gone_lines + 1;
		hi = ev.all.lines;
		while (lo < hi) {
			mid = lo + (hi - lo + 1) / 2;
			if (entry_at(mid)->off <= off)
				lo = mid;
			else
				hi = mid - 1;
		}
		e = entry_at(lo);
		r->vline = lo - 1;
		r->inl = (size_t)(off - e->off);
		return;
	}
	/* A source's lines are spread: look back from the newest. */
	for (uint64_t s = ev.all.lines; (e = entry_at(s)); s--) {
		if (e->src != r->src || e->poff > off)
			continue;
		r->vline = e->pline;
		r->inl = (size_t)(off - e->poff);
		r->hint = s;
		return;
	}
	r->vline = v->gone_lines;
}

/* The reader's next line is gone: puts the line that says how many it
 * misses in r->mark, counts them, and moves it to the oldest kept line.
 * A log reader's offset then runs behind its view's (the dropped line is
 * shorter than what it stands for), never ahead: the size would say the
 * file shrank, and tail -f would start over. So where the lines it stands
 * for are shorter than it, it stands for the next kept lines too, as far
 * as there are any; kernel is the offset the dropped line starts at. */
static void mark_locked(struct cufs_ev_reader *r, struct view *v,
			uint64_t kernel)
{
	char who[16];
	uint64_t to = v->gone_lines;
	const char *nl = r->inl ? "\n" : "";
	int n;

	if (r->src)
		snprintf(who, sizeof who, "%d",
			 (int)ev.src[r->slot].pid);
	else
		snprintf(who, sizeof who, "cufs");
	r->hint = 0;
	for (;;) {
		n = (int)strlen(nl);
		n += dropped_line(r->mark + n, sizeof r->mark - (size_t)n, who,
				  to - r->vline, "log");
		memcpy(r->mark, nl, strlen(nl));
		if (r->pipe || to >= v->lines ||
		    kernel + (uint64_t)n <= line_start_locked(r, v, to))
			break;
		to++;
	}
	r->mlen = (size_t)n;
	r->moff = 0;
	if (!r->asked_old) {
		v->lost_readers += to - r->vline;
		if (r->src)
			ev.all.lost_readers += to - r->vline;
	}
	r->asked_old = false;
	r->vline = to;
	r->inl = 0;
	r->hint = 0;
}

/* Copies what r has next into buf, at most len bytes: a pending dropped
 * line, then the view's lines from where r is. A stream gives whole
 * lines only, unless the first does not fit at all. */
static size_t copy_locked(struct cufs_ev_reader *r, char *buf, size_t len)
{
	struct view *v;
	struct entry *e;
	size_t n = 0, k;
	uint64_t seq;

	while (n < len) {
		if (r->moff < r->mlen) {
			k = r->mlen - r->moff;
			if (r->pipe && n && k > len - n)
				break;
			k = k < len - n ? k : len - n;
			memcpy(buf + n, r->mark + r->moff, k);
			r->moff += k;
			n += k;
			continue;
		}
		v = view_locked(r);
		if (r->vline < v->gone_lines) {
			mark_locked(r, v, r->koff + n);
			continue;
		}
		if (!(e = line_locked(r, r->vline, &seq)))
			break;
		k = e->len - r->inl;
		if (r->pipe && n && k > len - n)
			break;
		k = k < len - n ? k : len - n;
		memcpy(buf + n, e->text + r->inl, k);
		r->inl += k;
		n += k;
		if (r->inl < e->len)
			break;
		r->vline++;
		r->inl = 0;
		r->hint = seq + 1;
	}
	r->koff += n;
	return n;
}

/* ---------------------------------------------------------------- readers */

/* The streams uid holds open, as a slot of ev.held (made if add), or
 * NULL. ev.lock held. */
static int *held_locked(uid_t uid, bool add)
{
	for (int i = 0; i < ev.nheld; i++)
		if (ev.held[i].uid == uid)
			return &ev.held[i].n;
	if (!add || ev.nheld == CUFS_MAX_STREAMS)
		return NULL;
	ev.held[ev.nheld].uid = uid;
	ev.held[ev.nheld].n = 0;
	return &ev.held[ev.nheld++].n;
}

/* One stream less for uid; a user holding none leaves the table. ev.lock
 * held. */
static void release_locked(uid_t uid)
{
	for (int i = 0; i < ev.nheld; i++)
		if (ev.held[i].uid == uid && --ev.held[i].n == 0) {
			ev.held[i] = ev.held[--ev.nheld];
			return;
		}
}

/* 0 when who may open one more stream, else -EMFILE, said in the log: all
 * of them are open, or who holds a user's share (root has none). ev.lock
 * held. */
static int stream_budget_locked(uid_t who)
{
	int *mine = held_locked(who, false);

	if (ev.streams >= CUFS_MAX_STREAMS) {
		fprintf(stderr, "cufs: an events_pipe open refused: %d streams "
			"are open already (each reader waiting for lines holds "
			"one of cufs's %d threads); EMFILE\n", CUFS_MAX_STREAMS,
			CUFS_FUSE_THREADS);
		return -EMFILE;
	}
	if (who != 0 && mine && *mine >= CUFS_USER_STREAMS) {
		fprintf(stderr, "cufs: an events_pipe open by uid %u refused: "
			"it holds %d streams, a user's most, so that others "
			"keep theirs; EMFILE\n", (unsigned)who,
			CUFS_USER_STREAMS);
		return -EMFILE;
	}
	return 0;
}

int cufs_events_open(pid_t pid, bool pipe, uid_t who,
		     struct cufs_ev_reader **out)
{
	struct cufs_ev_reader *r = calloc(1, sizeof *r);
	struct view *v;
	int rc;

	if (!r)
		return -ENOMEM;
	pthread_mutex_lock(&ev.lock);
	if (pipe && (rc = stream_budget_locked(who)) < 0) {
		pthread_mutex_unlock(&ev.lock);
		free(r);
		return rc;
	}
	if ((rc = view_of_pid_locked(pid, &r->src, &r->slot)) == 0) {
		if (r->src)
			ev.src[r->slot].readers++;
		if (pipe) {
			ev.streams++;
			/* There is a slot: fewer users than streams hold any. */
			(*held_locked(who, true))++;
		}
		r->pipe = pipe;
		r->uid = who;
		/* A stream starts at what comes next. */
		v = view_locked(r);
		r->vline = v->lines;
		r->hint = ev.all.lines + 1;
	}
	pthread_mutex_unlock(&ev.lock);
	if (rc) {
		free(r);
		return rc;
	}
	*out = r;
	return 0;
}

void cufs_events_close(struct cufs_ev_reader *r)
{
	struct source *s;

	if (!r)
		return;
	pthread_mutex_lock(&ev.lock);
	if (r->pipe) {
		ev.streams--;
		release_locked(r->uid);
	}
	if ((s = source_by_id_locked(r->src, r->slot))) {
		s->readers--;
		maybe_free_locked(s);
	}
	pthread_mutex_unlock(&ev.lock);
	free(r);
}

/* Whether a stream reader is at the end for good: the process is gone
 * and its last lines were read, or cufs is stopping. */
static bool ended_locked(struct cufs_ev_reader *r)
{
	struct source *s = source_by_id_locked(r->src, r->slot);

	return ev.stop || (s && !s->live && r->vline >= s->v.lines &&
			   r->moff >= r->mlen);
}

ssize_t cufs_events_read(struct cufs_ev_reader *r, char *buf, size_t len,
			 off_t off, int wait_ms)
{
	struct timespec until;
	size_t n;

	pthread_mutex_lock(&ev.lock);
	if (!r->pipe) {
		if (off < 0) {
			pthread_mutex_unlock(&ev.lock);
			return -EINVAL;
		}
		if (!r->placed || (uint64_t)off != r->koff)
			place_locked(r, (uint64_t)off);
		n = copy_locked(r, buf, len);
		pthread_mutex_unlock(&ev.lock);
		return (ssize_t)n;
	}
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += wait_ms / 1000;
	until.tv_nsec += (wait_ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	while (!(n = copy_locked(r, buf, len)) && !ended_locked(r) &&
	       pthread_cond_timedwait(&ev.more, &ev.lock, &until) == 0)
		;
	if (!n && !ended_locked(r))
		n = (size_t)-1;
	pthread_mutex_unlock(&ev.lock);
	return n == (size_t)-1 ? -EAGAIN : (ssize_t)n;
}

bool cufs_events_ready(struct cufs_ev_reader *r)
{
	struct view *v;
	bool ready;

	pthread_mutex_lock(&ev.lock);
	v = view_locked(r);
	ready = !r->pipe || r->moff < r->mlen || r->vline < v->lines ||
		ended_locked(r);
	pthread_mutex_unlock(&ev.lock);
	return ready;
}

void cufs_events_poll_wait(void *ph)
{
	struct fuse_pollhandle *old[CUFS_MAX_POLLERS];
	int n = 0;

	pthread_mutex_lock(&ev.lock);
	/* Full: wake those waiting now rather than lose the newcomer; a
	 * woken poll that finds nothing asks again. */
	if (ev.nph == CUFS_MAX_POLLERS)
		n = take_pollers_locked(old);
	ev.ph[ev.nph++] = ph;
	pthread_mutex_unlock(&ev.lock);
	notify(old, n);
}
