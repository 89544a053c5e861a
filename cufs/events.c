/*
 * events.c - the relay behind /events: while at least one reader has it
 * open, a thread asks every process for its new event lines every 100 ms
 * and keeps the newest CUFS_EVENT_RING of them, each prefixed by the pid,
 * numbered in one sequence. Each reader has a cursor in that sequence that
 * starts at "now", so an open shows only what happens next.
 *
 * Locking: ev.lock guards everything here; it is never held across a
 * request to a process (the thread collects a process's lines first, then
 * takes the lock to append them).
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

#define CUFS_EVENT_RING 4096
#define CUFS_EVENT_POLL_MS 100
#define CUFS_MAX_POLLERS 64

struct cursor {
	pid_t pid;
	uint64_t since;     /* the process's last seq we relayed */
};

/* The relay of the daemon: one, so global; guarded by ev.lock. */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t more;     /* lines arrived, or readers came */
	char *ring[CUFS_EVENT_RING];
	uint64_t seq;            /* seq of the newest line (1-based) */
	int readers;
	bool fresh;              /* first round since readers came */
	bool started, stop;
	pthread_t thread;
	struct cursor cur[CUFS_MAX_PROCS];
	int ncur;
	struct fuse_pollhandle *ph[CUFS_MAX_POLLERS];
	int nph;
} ev = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.more = PTHREAD_COND_INITIALIZER,
};

/* Appends lines (ev.lock held) and wakes readers and pollers. */
static void append_locked(pid_t pid, json_t *events)
{
	size_t i;
	json_t *e;

	json_array_foreach(events, i, e) {
		const char *l = json_string_value(json_object_get(e, "line"));
		char *s;

		if (!l || asprintf(&s, "%d %s\n", (int)pid, l) < 0)
			continue;
		/* One line each: a newline inside would start a line that
		 * looks like another process's. */
		for (char *q = strchr(s, ' ') + 1; q[1]; q++)
			if (*q == '\n' || *q == '\r')
				*q = ' ';
		ev.seq++;
		free(ev.ring[ev.seq % CUFS_EVENT_RING]);
		ev.ring[ev.seq % CUFS_EVENT_RING] = s;
	}
	if (!json_array_size(events))
		return;
	pthread_cond_broadcast(&ev.more);
	for (int k = 0; k < ev.nph; k++) {
		fuse_notify_poll(ev.ph[k]);
		fuse_pollhandle_destroy(ev.ph[k]);
	}
	ev.nph = 0;
}

static struct cursor *cursor_of(pid_t pid)
{
	for (int i = 0; i < ev.ncur; i++)
		if (ev.cur[i].pid == pid)
			return &ev.cur[i];
	return NULL;
}

/* New lines of one process. A process seen for the first time starts at
 * its present end if readers just came (they want only what is next),
 * else at its beginning (it started after the readers opened). */
static void poll_process(pid_t pid, bool fresh)
{
	struct cursor *c;
	bool known;
	uint64_t since = 0;
	json_t *req, *a;
	int err;

	pthread_mutex_lock(&ev.lock);
	c = cursor_of(pid);
	known = c != NULL;
	if (c)
		since = c->since;
	pthread_mutex_unlock(&ev.lock);
	if (!known && fresh)
		req = json_pack("{s:s}", "op", "events");
	else
		req = json_pack("{s:s,s:I,s:i}", "op", "events",
				"since", (json_int_t)since, "max", 1000);
	a = cufs_request(pid, req, &err);
	json_decref(req);
	if (!a || !json_is_true(json_object_get(a, "ok"))) {
		json_decref(a);
		return;
	}
	pthread_mutex_lock(&ev.lock);
	if (!(c = cursor_of(pid)) && ev.ncur < CUFS_MAX_PROCS) {
		c = &ev.cur[ev.ncur++];
		c->pid = pid;
	}
	if (c) {
		c->since = (uint64_t)json_integer_value(json_object_get(a, "last"));
		append_locked(pid, json_object_get(a, "events"));
	}
	pthread_mutex_unlock(&ev.lock);
	json_decref(a);
}

/* Forgets the cursors of processes that are gone. ev.lock held. */
static void prune_locked(const struct cufs_proc_info *p, int n)
{
	for (int i = ev.ncur - 1; i >= 0; i--) {
		bool live = false;

		for (int k = 0; k < n; k++)
			live |= p[k].pid == ev.cur[i].pid;
		if (!live)
			ev.cur[i] = ev.cur[--ev.ncur];
	}
}

static void *relay(void *arg)
{
	struct cufs_proc_info p[CUFS_MAX_PROCS];
	struct timespec until;
	bool fresh;
	int n;

	(void)arg;
	pthread_mutex_lock(&ev.lock);
	while (!ev.stop) {
		if (!ev.readers) {
			pthread_cond_wait(&ev.more, &ev.lock);
			continue;
		}
		fresh = ev.fresh;
		ev.fresh = false;
		pthread_mutex_unlock(&ev.lock);
		n = cufs_procs(p, CUFS_MAX_PROCS);
		for (int i = 0; i < n; i++)
			poll_process(p[i].pid, fresh);
		pthread_mutex_lock(&ev.lock);
		prune_locked(p, n);
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += CUFS_EVENT_POLL_MS * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		while (!ev.stop && ev.readers &&
		       pthread_cond_timedwait(&ev.more, &ev.lock, &until) == 0)
			;
	}
	pthread_mutex_unlock(&ev.lock);
	return NULL;
}

uint64_t cufs_events_open(void)
{
	uint64_t now;

	pthread_mutex_lock(&ev.lock);
	if (!ev.started && pthread_create(&ev.thread, NULL, relay, NULL) == 0)
		ev.started = true;
	if (ev.readers++ == 0) {
		/* Nobody read while no one had it open: start over at now. */
		ev.ncur = 0;
		ev.fresh = true;
		pthread_cond_broadcast(&ev.more);
	}
	now = ev.seq;
	pthread_mutex_unlock(&ev.lock);
	return now;
}

void cufs_events_close(void)
{
	pthread_mutex_lock(&ev.lock);
	ev.readers--;
	pthread_mutex_unlock(&ev.lock);
}

static void deadline(struct timespec *t, int ms)
{
	clock_gettime(CLOCK_REALTIME, t);
	t->tv_sec += ms / 1000;
	t->tv_nsec += (ms % 1000) * 1000000L;
	if (t->tv_nsec >= 1000000000L) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000L;
	}
}

size_t cufs_events_read(uint64_t *cursor, char *buf, size_t len, int wait_ms)
{
	struct timespec until;
	size_t n = 0;
	uint64_t s;

	deadline(&until, wait_ms);
	pthread_mutex_lock(&ev.lock);
	while (ev.seq <= *cursor && !ev.stop &&
	       pthread_cond_timedwait(&ev.more, &ev.lock, &until) == 0)
		;
	/* Lines the ring dropped since the reader's last read are lost. */
	s = ev.seq > CUFS_EVENT_RING && *cursor < ev.seq - CUFS_EVENT_RING ?
	    ev.seq - CUFS_EVENT_RING : *cursor;
	for (s++; s <= ev.seq; s++) {
		const char *l = ev.ring[s % CUFS_EVENT_RING];
		size_t k = l ? strlen(l) : 0;

		if (n + k > len)
			break;
		memcpy(buf + n, l, k);
		n += k;
	}
	*cursor = s - 1;
	pthread_mutex_unlock(&ev.lock);
	return n;
}

bool cufs_events_ready(uint64_t cursor)
{
	bool r;

	pthread_mutex_lock(&ev.lock);
	r = ev.seq > cursor;
	pthread_mutex_unlock(&ev.lock);
	return r;
}

void cufs_events_poll_wait(void *ph)
{
	pthread_mutex_lock(&ev.lock);
	if (ev.nph < CUFS_MAX_POLLERS)
		ev.ph[ev.nph++] = ph;
	else
		fuse_pollhandle_destroy(ph);
	pthread_mutex_unlock(&ev.lock);
}

void cufs_events_stop(void)
{
	pthread_mutex_lock(&ev.lock);
	ev.stop = true;
	pthread_cond_broadcast(&ev.more);
	pthread_mutex_unlock(&ev.lock);
	if (ev.started)
		pthread_join(ev.thread, NULL);
	for (int i = 0; i < CUFS_EVENT_RING; i++)
		free(ev.ring[i]);
	for (int k = 0; k < ev.nph; k++)
		fuse_pollhandle_destroy(ev.ph[k]);
	ev.nph = 0;
}
