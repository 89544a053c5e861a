/*
 * cufs.h - what the parts of the cufs daemon share: the options, the
 * control client (client.c: the processes and one connection to each),
 * the event relay (events.c) and the tree (tree.c: paths to files).
 *
 * cufs holds no runtime state: devices come from the machine segment,
 * everything else from each process's published-state segment, at the
 * moment it is read.
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

/* How long a process has to answer a request of the event log, and to
 * start a write (client.c), before it fails. */
#define CUFS_TIMEOUT_MS 2000
/* FUSE's threads at most (-o max_threads, libfuse 3.12 on; main.c): each
 * request that waits (a write, a read of a stream) holds one. */
#define CUFS_FUSE_THREADS 256
/* As many processes as a machine's table has rows (model/segment.h). */
#define CUFS_MAX_PROCS 4096

/* main.c: the command line's choices. */
struct cufs_options {
	char rundir[4096];
	char machine[256];
	bool allow_other;   /* -o allow_other: other users reach the mount */
};
extern struct cufs_options cufs_opt;

/* ---------------------------------------------------------------- client.c
 * The processes: those with a published-state segment of our machine
 * whose writer is alive; what /cu shows of them is read from it
 * (pubread.h), and writes and the event log go to their control socket.
 * Locking: client.c's own (see there); an entry is immutable and
 * reference counted, so a reader may use it as long as it holds it. */

struct pubmap;

struct cufs_proc {
	pid_t pid;
	uid_t uid;           /* the process's owner (the segment's) */
	uint64_t start;      /* its start time, the pid reuse guard */
	struct pubmap *map;  /* NULL when err says why */
	int err;             /* EIO: the segment is corrupt or truncated */
	int refs;            /* client.c's */
};

struct cufs_proc_info {
	pid_t pid;
	uid_t uid;
};

/* Rescans /dev/shm (at most every 100 ms unless force): maps new
 * segments, drops those whose process is gone (removing the file), maps
 * again one that a newer generation replaced. */
void cufs_procs_refresh(bool force);
/* The processes, sorted by pid, each referenced: put them after use. */
int cufs_procs_get(struct cufs_proc **out, int max);
void cufs_procs_put(struct cufs_proc **ps, int n);
/* One process, referenced, or NULL if it is not (or no longer) shown. */
struct cufs_proc *cufs_proc_get(pid_t pid);
void cufs_proc_put(struct cufs_proc *p);
/* The live processes' pids and owners, sorted; how many (at most max). */
int cufs_procs(struct cufs_proc_info *out, int max);
/* "running", "stopped" (SIGSTOP, a debugger: /proc says so) or "not
 * answering" (cufs's last request to it, the event relay's or a write's,
 * got no answer in time). Asks the process nothing. */
const char *cufs_proc_state(pid_t pid);

/* Sends req (not consumed) to pid and answers the answer object, or NULL
 * with *err: EIO (no answer in time, connection lost), EAGAIN (the
 * process is stopped), EBUSY (a write is in flight: ask again later) or
 * ENOENT (no such process). */
json_t *cufs_request(pid_t pid, json_t *req, int *err);
/* A write: 0 or a negative errno, the answer's, ETIMEDOUT when the
 * process is stopped or did not answer in time, or EAGAIN when another
 * write to it waits already (said in cufs's log; a write not sent, or
 * refused by its start_by, changed nothing). It takes at most
 * CUFS_WRITE_TIMEOUT_MS (client.c) in all. When
 * refused says why cufs could not send the value as written (not UTF-8, a
 * NUL), the refusal goes instead and the process records it in
 * last_error. */
int cufs_set(pid_t pid, const char *path, const char *value,
	     const char *refused);
/* cufs's note of the last write it failed with ETIMEDOUT for want of
 * p's answer (p stopped or silent), as a last_error object ({result
 * CUDA_ERROR_TIMEOUT, message, time}), while p's published last_error
 * is still the one it had then; else NULL. */
json_t *cufs_refusal(const struct cufs_proc *p, json_t *published);
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
int cufs_events_open(pid_t pid, bool pipe, uid_t who,
		     struct cufs_ev_reader **out);
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

/* ---------------------------------------------------------------- main.c
 * Hands freed heap back to the system when much of it lies free. glibc
 * keeps what a large request freed (a million-entry listing, the index of
 * a process that had a million objects), so without this cufs would stay
 * the size of the largest moment it ever had. Called after a long listing
 * and once a second by the event relay; costs a walk of the free lists. */
void cufs_tidy_heap(void);

/* ---------------------------------------------------------------- tree.c
 * The /cu tree by path, for lowlevel.c: each answers 0 (or a count) or
 * -errno. */

struct fh;
struct fuse_pollhandle;
struct stat;

/* What an open found: the handle, and for a read-only text file its text
 * (owned by the handle) and the text's length; stream: the file has no
 * offsets (events_pipe). */
struct cufs_open {
	struct fh *fh;
	const char *text;
	size_t len;
	bool stream;
};

/* *ro: a read-only text file, whose size is its text's length. */
int cufs_tree_getattr(const char *path, struct stat *st, bool *ro);
/* A directory's names (a new reference), or -ENOTDIR. */
int cufs_tree_list(const char *path, json_t **names);
int cufs_tree_readlink(const char *path, char *buf, size_t size);
int cufs_tree_open(const char *path, int flags, struct cufs_open *out);
int cufs_tree_read(struct fh *h, char *buf, size_t size, off_t off);
/* The attributes an open text file had when it was opened (size 0). */
void cufs_tree_fh_stat(const struct fh *h, struct stat *st);
int cufs_tree_write(struct fh *h, const char *buf, size_t size);
/* A truncation of path (opened: through a handle opened for writing). */
int cufs_tree_truncate(const char *path, bool opened);
void cufs_tree_release(struct fh *h);
int cufs_tree_poll(struct fh *h, struct fuse_pollhandle *ph,
		   unsigned *reventsp);
/* The mount starts and stops: the event relay, the processes. */
void cufs_tree_start(void);
void cufs_tree_stop(void);

/* ------------------------------------------------------------ lowlevel.c
 * The kernel's requests (libfuse's low-level API) over the tree. */
struct fuse_lowlevel_ops;
struct fuse_session;
extern const struct fuse_lowlevel_ops cufs_ll_ops;
/* The session, once made: cufs_exiting asks it. */
void cufs_ll_session(struct fuse_session *se);
/* Who made the request this thread serves (cufs's own user outside one),
 * whether it was interrupted, and whether the mount is stopping. */
uid_t cufs_caller_uid(void);
bool cufs_caller_interrupted(void);
bool cufs_exiting(void);

/* Text of a value as its file shows it: a scalar's line, an array's
 * words, an object's "key value" lines; malloc'd. */
char *cufs_render(json_t *v);

/* ---------------------------------------------------------------- tree.c
 * The classes of objects as /cu names them, and the record class of each
 * in a published segment. */
#define CUFS_NCLASSES 6
/* The index of "allocations" among them, where a process's handles and
 * kernels link their allocations; and of "kernels": its objects are named
 * by their kernel under processes/<pid>/kernels/. */
#define CUFS_CLASS_ALLOCATIONS 0
#define CUFS_CLASS_KERNELS 5
extern const char *const cufs_classes[CUFS_NCLASSES];
extern const uint32_t cufs_class_pub[CUFS_NCLASSES];
/* The machine, or one part of it (part: a device index, -1 for the host,
 * INT_MIN for all). NULL with *err: ENOENT for a device that does not
 * exist, EIO (and a word on stderr) for a machine that cannot be read. */
json_t *cufs_machine_part(int part, int *err);

/* ---------------------------------------------------------------- records.c
 * A process's records as JSON objects. */

/* p's record of id, of class cls, referenced: shared with a cache and
 * with other requests, so read only, never changed. Never older than a
 * copy taken now. NULL with *err: ENOENT (none, or of another class),
 * EIO (a corrupt segment or record: said in the log), EAGAIN (it kept
 * changing while copied). */
json_t *cufs_record(const struct cufs_proc *p, uint64_t id, uint32_t cls,
		    int *err);
/* Lets go of every record kept. */
void cufs_records_drop(void);

/* ---------------------------------------------------------------- spanview.c
 * ranges/<name> of a managed allocation's record alloc: a published range
 * as it is, any other page-aligned span of the allocation from the ranges
 * it covers, with the writes a range takes; NULL for a name that is not
 * such a span. */
json_t *cufs_range_view(json_t *alloc, const char *name);

/* ---------------------------------------------------------------- snapshot.c
 * The text of /cu/snapshot.json as of now; NULL without memory. */
char *cufs_snapshot_text(uid_t viewer);

/* Whether viewer may see what a process of owner's shows (tree.c; cufs(8),
 * PRIVACY): the owner and root do, as /proc with hidepid=1 has it. */
bool cufs_may_see(uid_t viewer, uid_t owner);

#endif
