/*
 * pubread.h - cufs's reader of a process's published-state segment
 * (layout and protocol: runtime/outward/pubseg.h). Every function copies
 * what it returns out of the mapping under the record's seqlock, checks
 * every offset and length against what it mapped, and answers -EIO for a
 * segment that is corrupt or was truncated under it (a SIGBUS there is
 * caught), -EAGAIN for a record that kept changing through every retry.
 *
 * Locking: none; a struct pubmap is immutable once opened and may be used
 * by any number of threads. The writer is never waited for.
 */
#ifndef CUFS_PUBREAD_H
#define CUFS_PUBREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct pubmap;

/* Maps the segment at path, which must be pid's: 0, or -ENOENT (no such
 * file), -EACCES, or -EIO (not a segment, or a corrupt one). *uid gets
 * the file's owner. */
int pubmap_open(const char *path, pid_t pid, struct pubmap **out, uid_t *uid);
void pubmap_close(struct pubmap *m);
/* The start time the writer recorded (the pid reuse guard). */
uint64_t pubmap_start(const struct pubmap *m);
/* A newer generation has the name now, or the file changed size or lost
 * its header: open it again (which tells what it is now). */
bool pubmap_retired(const struct pubmap *m);

/* The mapping's number, which no other mapping of this process ever
 * has (a pointer may be reused; this is not). */
uint64_t pubmap_serial(const struct pubmap *m);

/* What a copy of a record was taken from: the mapping's number, the
 * record's slot and the slot's sequence when the copy was taken. */
struct pubstamp {
	uint64_t map;
	uint64_t slot;
	uint64_t seq;
};

/* A copy of id's record, NUL-terminated, malloc'd, and its class; with
 * stamp, where it was copied from. */
int pubmap_get(const struct pubmap *m, uint64_t id, uint32_t *cls,
	       char **text, size_t *len, struct pubstamp *stamp);
/* Whether the record stamped st (by pubmap_get on m) is still what m
 * holds: the same mapping, and its slot has not changed since. False
 * for a stamp of another mapping, and for a segment that is unreadable
 * now. Costs one load, not a copy. */
bool pubmap_unchanged(const struct pubmap *m, const struct pubstamp *st);
/* Whether id has a record of class cls: 1, 0 or a negative errno. */
int pubmap_has(const struct pubmap *m, uint64_t id, uint32_t cls);
/* The ids of class cls, sorted, malloc'd (NULL when there are none). */
int pubmap_ids(const struct pubmap *m, uint32_t cls, uint64_t **ids,
	       size_t *n);
/* Calls fn with a copy of every record of class cls (in table order);
 * fn's text is valid during the call only. */
int pubmap_each(const struct pubmap *m, uint32_t cls,
		void (*fn)(uint64_t id, const char *text, size_t len, void *arg),
		void *arg);

#endif
