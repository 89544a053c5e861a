/*
 * cufs.h - what the parts of the cufs daemon share: the options, the
 * control client (client.c: the processes and one connection to each),
 * the event relay (events.c) and the tree (tree.c: paths to files).
 *
 * cufs holds no runtime state: devices come from the machine segment,
 * everything else from asking the processes, at the moment it is read.
 */
#ifndef CUFS_H
#define CUFS_H

#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include <jansson.h>

/* How long a process has to answer before a read fails with EIO. */
#define CUFS_TIMEOUT_MS 2000
#define CUFS_BULK_TIMEOUT_MS 30000
#define CUFS_MAX_PROCS 256
/* How long a class's id list answers lookups of its ids: an object freed
 * in a process may still be found by a lookup for this long. */
#define CUFS_IDS_TTL_MS 1000
/* Classes whose lists are kept: allocations, pools, reservations, handles
 * (tree.c's order). */
#define CUFS_ID_CLASSES 4

/* main.c: the command line's choices. */
struct cufs_options {
	char rundir[4096];
	char machine[256];
};
extern struct cufs_options cufs_opt;

/* ---------------------------------------------------------------- client.c
 * The processes: those with a socket in the run dir that answer hello and
 * run on our machine. Locking: a table lock around the table, one lock per
 * connection around each request; never the first while waiting on an
 * answer. */

struct cufs_proc_info {
	pid_t pid;
	uid_t uid;       /* the process's owner, from SO_PEERCRED */
};

/* Rescans the run dir (at most every 100 ms unless force): connects to new
 * processes, forgets dead ones, removes stale sockets of dead pids. */
void cufs_procs_refresh(bool force);
/* The live processes, sorted by pid; returns how many (at most max). */
int cufs_procs(struct cufs_proc_info *out, int max);
/* One process's info; false if it is not (or no longer) known. */
bool cufs_proc(pid_t pid, struct cufs_proc_info *out);

/* Sends req (not consumed) to pid and answers the answer object, or NULL
 * with *err: EIO (no answer in time, connection lost) or ENOENT (no such
 * process). */
json_t *cufs_request(pid_t pid, json_t *req, int *err);
/* The JSON text of pid's snapshot, as the process printed it (newlines
 * in it only between members), with a NUL after it; NULL with *err. It
 * grows with the process (15 MB at 100,000 allocations), so it has
 * CUFS_BULK_TIMEOUT_MS. */
char *cufs_snapshot(pid_t pid, int *err);
/* get and list: the answer's value / ids, or NULL with *err from the
 * answer's errno (or the transport's). */
json_t *cufs_get(pid_t pid, const char *path, int *err);
json_t *cufs_list(pid_t pid, const char *path, int *err);
/* list of class k (its index, name its path), kept for cufs_has_id. */
json_t *cufs_list_ids(pid_t pid, int k, const char *name, int *err);
/* Whether pid's list of class k, asked at most CUFS_IDS_TTL_MS ago, has
 * id: 1 or 0; -1 when there is no such list. A list that expired after
 * answering many lookups is asked for again (ls -l of 100,000 entries
 * takes more than a second), one that did not is dropped. */
int cufs_has_id(pid_t pid, int k, uint64_t id);
/* set: 0 or a negative errno. */
/* A write: value goes to the process, or, when refused says why cufs could
 * not send it as written, the refusal does (the process records it in
 * last_error). 0 or -errno. */
int cufs_set(pid_t pid, const char *path, const char *value,
	     const char *refused);
void cufs_client_shutdown(void);

/* ---------------------------------------------------------------- events.c
 * The event log: a relay thread takes every process's new event lines
 * while cufs runs, and the log keeps the newest, each "<pid> <line>". A
 * view is the whole log (pid 0) or one process's lines; each is read as
 * a log file (events) or as a stream (events_pipe). */

struct cufs_ev_reader;

/* Starts the relay: 0 or a negative errno. */
int cufs_events_start(void);
void cufs_events_stop(void);
/* A view's log file: its size (bytes ever appended) and when its last
 * line came. 0 or a negative errno. */
int cufs_events_stat(pid_t pid, off_t *size, struct timespec *mtime);
/* A view's counters of dropped lines as a JSON object (process, log,
 * readers); NULL when there is no room for the view. */
json_t *cufs_events_dropped(pid_t pid);
/* Opens a reader of a view; a stream starts at what comes next. 0 or a
 * negative errno. */
int cufs_events_open(pid_t pid, bool pipe, struct cufs_ev_reader **out);
void cufs_events_close(struct cufs_ev_reader *r);
/* The log form: the bytes at off (0 at the end). The stream (off
 * ignored): whole lines, waiting up to wait_ms for the first; -EAGAIN
 * when none came, 0 at the end (its process is gone, or cufs stops). */
ssize_t cufs_events_read(struct cufs_ev_reader *r, char *buf, size_t len,
			 off_t off, int wait_ms);
/* Whether a read would answer at once. */
bool cufs_events_ready(struct cufs_ev_reader *r);
/* Called with a poll handle to notify when lines come. */
void cufs_events_poll_wait(void *ph);

/* ---------------------------------------------------------------- tree.c */

struct fuse_operations;
extern const struct fuse_operations cufs_ops;

/* Text of a value as its file shows it: a scalar's line, an array's
 * words, an object's "key value" lines; malloc'd. */
char *cufs_render(json_t *v);

#endif
