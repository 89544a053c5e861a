/*
 * pubseg.h - the layout of a process's published state: one shared-memory
 * file per process, /dev/shm/<machine>-proc-<pid> (mode 0600, owned by the
 * process), that the process writes (pubseg.c, driven by publish.c) and
 * cufs maps read-only (cufs/pubread.c). What cufs shows of a process is
 * read from it, without asking the process, so a stopped, deadlocked or
 * busy process reads as one that runs.
 *
 * The file is a header, a table of record slots (an open-addressing hash
 * table keyed by object id, with tombstones, so a record's slot never
 * moves while it lives) and a heap of record texts. A record is one
 * object's JSON text as its ctl class renders it (the process record has
 * id 0). Each slot is a seqlock: its sequence is odd while the writer
 * changes the slot or its text, and a reader takes a copy, then checks
 * that the sequence is the even one it started with.
 *
 * When the table or the heap is full, the writer builds a new generation
 * in a new file, renames it over the old name and marks the old header
 * retired; a reader that sees retired opens the name again.
 *
 * Locking: one writer, the owning process, under its process lock
 * (publish.c); readers take no lock and never make the writer wait.
 * Whatever a reader finds here was written by another process: it checks
 * every offset, length and count against what it mapped.
 */
#ifndef CUEMU_PUBSEG_H
#define CUEMU_PUBSEG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PUB_MAGIC 0x627570756d657563ULL /* "cuemupub", little-endian */
#define PUB_VERSION 1
/* Bounds a reader trusts: beyond them a segment is corrupt. */
#define PUB_MAX_SLOTS (1ULL << 26)
#define PUB_MAX_TEXT (256u << 20)

/* A slot's class: 0 empty (never used: a probe stops here), PUB_TOMB
 * freed (a probe goes on), else the class of a live record. */
enum pub_class {
	PUB_EMPTY = 0,
	PUB_PROCESS = 1,
	PUB_ALLOCATIONS = 2,
	PUB_POOLS = 3,
	PUB_RESERVATIONS = 4,
	PUB_HANDLES = 5,
	PUB_MULTICAST = 6,
	PUB_KERNELS = 7,
	PUB_TOMB = 0xffffffffu,
};

struct pub_header {
	uint64_t magic;
	uint32_t version;
	uint32_t header_size;  /* sizeof(struct pub_header) */
	uint64_t size;         /* bytes of the file */
	int32_t pid;
	uint32_t uid;
	uint64_t start;        /* /proc/<pid>/stat start time: pid reuse guard */
	uint64_t gen;          /* generation, from 1 */
	uint64_t slots_off;    /* struct pub_slot[nslots] */
	uint64_t nslots;       /* a power of two */
	uint64_t heap_off;
	uint64_t heap_size;
	uint32_t retired;      /* atomic: a newer generation has the name */
	uint32_t pad;
	uint64_t changes;      /* atomic: bumped after each batch of writes */
};

struct pub_slot {
	uint64_t seq;          /* atomic: odd while written */
	uint64_t id;
	uint32_t cls;          /* enum pub_class */
	uint32_t len;          /* bytes of text */
	uint64_t off;          /* into the heap */
	uint64_t cap;          /* bytes of heap the text may use */
};

/* The slot a probe for id starts at. */
static inline uint64_t pub_hash(uint64_t id, uint64_t nslots)
{
	return (id * 0x9e3779b97f4a7c15ULL) >> 17 & (nslots - 1);
}

/* /proc/<pid>/stat's start time (clock ticks since boot), 0 when pid does
 * not exist: with the pid, it names one process for ever. */

/* "/dev/shm/<machine>-proc-<pid>" into buf; -1 when it does not fit. */
int pub_path(char *buf, size_t len, const char *machine, pid_t pid);

/* ---------------------------------------------------------------- writer
 * The writer's own state, in its private memory: where the heap's free
 * blocks are (by size class) and how full the table is. */
#define PUB_SIZE_CLASSES 26

struct pub_freelist {
	uint64_t *off;
	size_t n, cap;
};

struct pubseg {
	char path[256];
	char tmp[256 + 16];        /* the next generation's file, until named */
	struct pub_header *h;      /* NULL: no segment */
	size_t size;
	pid_t pid;
	uint64_t start;
	uint64_t live, used;       /* live slots; live and tombstones */
	uint64_t bump;             /* heap bytes handed out so far */
	uint64_t heap_live;        /* heap bytes of live records' blocks */
	struct pub_freelist free[PUB_SIZE_CLASSES];
};

/* Makes the segment at path for this process (replacing a file of that
 * name, left by a dead process of the same pid). 0 or a negative errno. */
int pubseg_create(struct pubseg *w, const char *path);
/* Sets the record of id (class cls) to text. 0 or a negative errno (the
 * old record, if any, stays as it was). */
int pubseg_put(struct pubseg *w, uint32_t cls, uint64_t id, const char *text,
	       size_t len);
/* Removes the record of id, if there is one. */
void pubseg_remove(struct pubseg *w, uint64_t id);
/* Says that a batch of writes is done (readers may cache by it). */
void pubseg_commit(struct pubseg *w);
/* Unlinks the name (the process is ending) and frees what the writer kept
 * of its heap; the mapping stays. */
void pubseg_unlink(struct pubseg *w);
/* Removes the segments of dead processes of machine from /dev/shm that
 * this user may remove; how many went. */
int pub_reap(const char *machine);
/* Removes name, in the directory dirfd, when it is the segment of pid (a
 * header says so) and pid's process is gone; whether it did. A file that
 * is no segment stays, whoever runs this. */
bool pub_reap_one(int dirfd, const char *name, pid_t pid);

#endif
