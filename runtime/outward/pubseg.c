/*
 * pubseg.c - the writer of a process's published-state segment (the layout
 * and the copy protocol are in pubseg.h): records put and removed in place
 * under a seqlock each, heap blocks in power-of-two size classes with free
 * lists kept in private memory, and a new generation (a new file renamed
 * over the name) when the table or the heap is full. Also what both sides
 * need: the segment's name, a process's start time, and the removal of
 * segments whose process is dead.
 *
 * Nothing here knows the model: cufs's unit test drives it directly.
 * Locking: none of its own; the caller serializes every call on one
 * struct pubseg (publish.c holds the process lock). Readers are other
 * processes and never block the writer.
 */
#include "config.h"
#include "outward/pubseg.h"
#include "model/procstat.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define PUB_MIN_SLOTS 1024u
#define PUB_MIN_HEAP (256u << 10)
#define PUB_MIN_BLOCK 64u
#define PUB_PAGE 4096u

int pub_path(char *buf, size_t len, const char *machine, pid_t pid)
{
	int n = snprintf(buf, len, "/dev/shm/%s-proc-%d", machine, (int)pid);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* ---------------------------------------------------------------- seqlock */

static void slot_begin(struct pub_slot *s)
{
	__atomic_store_n(&s->seq, s->seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static void slot_end(struct pub_slot *s)
{
	__atomic_store_n(&s->seq, s->seq + 1, __ATOMIC_RELEASE);
}

static struct pub_slot *slots(struct pubseg *w)
{
	return (struct pub_slot *)((char *)w->h + w->h->slots_off);
}

static char *heap(struct pubseg *w)
{
	return (char *)w->h + w->h->heap_off;
}

/* ---------------------------------------------------------------- heap */

/* The size class of a text of len bytes: blocks of 64 << k bytes. */
static int size_class(size_t len)
{
	int k = 0;

	while (((uint64_t)PUB_MIN_BLOCK << k) < len)
		k++;
	return k < PUB_SIZE_CLASSES ? k : -1;
}

static int heap_alloc(struct pubseg *w, size_t len, uint64_t *off,
		      uint64_t *cap)
{
	int k = size_class(len);
	struct pub_freelist *f;

	if (k < 0)
		return -EFBIG;
	f = &w->free[k];
	*cap = (uint64_t)PUB_MIN_BLOCK << k;
	if (f->n)
		*off = f->off[--f->n];
	else if (w->bump + *cap <= w->h->heap_size) {
		*off = w->bump;
		w->bump += *cap;
	} else
		return -ENOSPC;
	w->heap_live += *cap;
	return 0;
}

/* A block no slot points to any more. Without memory for the list it is
 * lost until the next generation, which copies only live records. */
static void heap_free(struct pubseg *w, uint64_t off, uint64_t cap)
{
	struct pub_freelist *f = &w->free[size_class(cap)];
	uint64_t *o;

	w->heap_live -= cap;
	if (f->n == f->cap) {
		size_t c = f->cap ? f->cap * 2 : 64;

		if (!(o = realloc(f->off, c * sizeof *o)))
			return;
		f->off = o;
		f->cap = c;
	}
	f->off[f->n++] = off;
}

/* ---------------------------------------------------------------- files */

static uint64_t round_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) / a * a;
}

/* A new file at path.new.XXXXXX (a name no one can guess, so no one can
 * take it first: another user's file at a fixed path.new kept the process
 * from publishing at all), laid out for nslots and heap bytes, its pages
 * reserved (so that a full /dev/shm is an error here, never a SIGBUS
 * later) and mapped; its name in w->tmp. NULL with errno. */
static struct pub_header *make_file(struct pubseg *w, uint64_t nslots,
				    uint64_t heap_size, size_t *size)
{
	uint64_t slots_off = PUB_PAGE;
	uint64_t heap_off = round_up(slots_off + nslots * sizeof(struct pub_slot),
				     PUB_PAGE);
	struct pub_header *h;
	int fd, e;

	*size = heap_off + heap_size;
	snprintf(w->tmp, sizeof w->tmp, "%s.new.XXXXXX", w->path);
	/* O_EXCL and mode 0600, whatever the umask. */
	fd = mkostemp(w->tmp, O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if ((e = posix_fallocate(fd, 0, (off_t)*size)) != 0) {
		close(fd);
		unlink(w->tmp);
		errno = e;
		return NULL;
	}
	h = mmap(NULL, *size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	e = errno;
	close(fd);
	if (h == MAP_FAILED) {
		unlink(w->tmp);
		errno = e;
		return NULL;
	}
	*h = (struct pub_header){
		.magic = PUB_MAGIC, .version = PUB_VERSION,
		.header_size = sizeof *h, .size = *size, .pid = w->pid,
		.uid = (uint32_t)geteuid(), .start = w->start,
		.slots_off = slots_off, .nslots = nslots,
		.heap_off = heap_off, .heap_size = heap_size,
	};
	return h;
}

/* Gives the name to the file made by make_file. Another user's file at
 * the name stays (/dev/shm is sticky): EPERM, and the caller says so. */
static int publish_file(const struct pubseg *w)
{
	if (rename(w->tmp, w->path) < 0) {
		int e = errno;

		unlink(w->tmp);
		return -e;
	}
	return 0;
}

static void free_lists_clear(struct pubseg *w)
{
	for (int k = 0; k < PUB_SIZE_CLASSES; k++)
		w->free[k].n = 0;
}

int pubseg_create(struct pubseg *w, const char *path)
{
	size_t size;
	int rc;

	memset(w, 0, sizeof *w);
	if (strlen(path) >= sizeof w->path)
		return -ENAMETOOLONG;
	strcpy(w->path, path);
	w->pid = getpid();
	w->start = cuemu_proc_start_time(w->pid);
	if (!(w->h = make_file(w, PUB_MIN_SLOTS, PUB_MIN_HEAP, &size)))
		return -errno;
	w->size = size;
	w->h->gen = 1;
	if ((rc = publish_file(w)) < 0) {
		munmap(w->h, w->size);
		w->h = NULL;
	}
	return rc;
}

/* ---------------------------------------------------------------- table */

/* The slot of id, or -1; *room gets the first slot an insert may take
 * (a tombstone or the empty slot that ended the probe), -1 if none. */
static int64_t find(struct pub_slot *t, uint64_t n, uint64_t id, int64_t *room)
{
	uint64_t i = pub_hash(id, n);

	*room = -1;
	for (uint64_t k = 0; k < n; k++, i = (i + 1) & (n - 1)) {
		if (t[i].cls == PUB_EMPTY) {
			if (*room < 0)
				*room = (int64_t)i;
			return -1;
		}
		if (t[i].cls == PUB_TOMB) {
			if (*room < 0)
				*room = (int64_t)i;
		} else if (t[i].id == id)
			return (int64_t)i;
	}
	return -1;
}

/* Copies every live record of w into a new generation big enough for
 * the live records and one more of need bytes, gives it the name, and
 * retires the old one. O(live records), and rare: each generation at
 * least doubles what the last could take before it fills. */
static int regen(struct pubseg *w, size_t need)
{
	struct pub_header *old = w->h, *h;
	struct pub_slot *os = slots(w), *ns;
	uint64_t nslots = old->nslots, heap_size, bump = 0;
	size_t size, old_size = w->size;
	int64_t room;
	int rc;

	/* A quarter full at most, so that it takes as many inserts again
	 * before the next generation. */
	while ((w->live + 1) * 4 > nslots && nslots < PUB_MAX_SLOTS)
		nslots *= 2;
	heap_size = round_up(2 * (w->heap_live + need + PUB_MIN_BLOCK), 65536);
	if (heap_size < PUB_MIN_HEAP)
		heap_size = PUB_MIN_HEAP;
	if (!(h = make_file(w, nslots, heap_size, &size)))
		return -errno;
	h->gen = old->gen + 1;
	h->changes = old->changes;
	ns = (struct pub_slot *)((char *)h + h->slots_off);
	for (uint64_t i = 0; i < old->nslots; i++) {
		const struct pub_slot *s = &os[i];
		uint64_t cap;
		int k;

		if (s->cls == PUB_EMPTY || s->cls == PUB_TOMB)
			continue;
		k = size_class(s->len);
		cap = (uint64_t)PUB_MIN_BLOCK << (k < 0 ? 0 : k);
		find(ns, nslots, s->id, &room);
		ns[room] = (struct pub_slot){ .id = s->id, .cls = s->cls,
			.len = s->len, .off = bump, .cap = cap };
		memcpy((char *)h + h->heap_off + bump,
		       (char *)old + old->heap_off + s->off, s->len);
		bump += cap;
	}
	w->h = h;
	w->size = size;
	if ((rc = publish_file(w)) < 0) {
		munmap(h, size);
		w->h = old;
		w->size = old_size;
		return rc;
	}
	__atomic_store_n(&old->retired, 1, __ATOMIC_RELEASE);
	munmap(old, old_size);
	w->used = w->live;
	w->bump = w->heap_live = bump;
	free_lists_clear(w);
	return 0;
}

/* Writes text into the block of slot s, as one change readers see whole. */
static void write_in_place(struct pubseg *w, struct pub_slot *s, uint32_t cls,
			   const char *text, size_t len)
{
	slot_begin(s);
	memcpy(heap(w) + s->off, text, len);
	s->cls = cls;
	s->len = (uint32_t)len;
	slot_end(s);
}

int pubseg_put(struct pubseg *w, uint32_t cls, uint64_t id, const char *text,
	       size_t len)
{
	struct pub_slot *s;
	uint64_t off, cap, old_off, old_cap;
	int64_t i, room;
	bool fresh;
	int rc;

	if (!w->h)
		return -ENODEV;
	if (len > PUB_MAX_TEXT || cls == PUB_EMPTY || cls == PUB_TOMB)
		return -EINVAL;
	i = find(slots(w), w->h->nslots, id, &room);
	if (i < 0 && (room < 0 || (w->used + 1) * 2 > w->h->nslots)) {
		if ((rc = regen(w, len)) < 0)
			return rc;
		i = find(slots(w), w->h->nslots, id, &room);
	}
	if (i >= 0 && slots(w)[i].cap >= len) {
		write_in_place(w, &slots(w)[i], cls, text, len);
		return 0;
	}
	if ((rc = heap_alloc(w, len, &off, &cap)) == -ENOSPC) {
		if ((rc = regen(w, len)) < 0)
			return rc;
		i = find(slots(w), w->h->nslots, id, &room);
		rc = heap_alloc(w, len, &off, &cap);
	}
	if (rc < 0)
		return rc;
	/* The new block is no slot's yet: no reader looks at it. */
	memcpy(heap(w) + off, text, len);
	fresh = i < 0;
	s = &slots(w)[fresh ? room : i];
	old_off = s->off;
	old_cap = s->cap;
	slot_begin(s);
	if (fresh && s->cls == PUB_EMPTY)
		w->used++;
	s->id = id;
	s->cls = cls;
	s->len = (uint32_t)len;
	s->off = off;
	s->cap = cap;
	slot_end(s);
	/* Only now may the old block be reused: a reader still copying it
	 * sees that the slot's sequence moved, and copies again. */
	if (fresh)
		w->live++;
	else
		heap_free(w, old_off, old_cap);
	return 0;
}

void pubseg_remove(struct pubseg *w, uint64_t id)
{
	struct pub_slot *s;
	int64_t i, room;

	if (!w->h || (i = find(slots(w), w->h->nslots, id, &room)) < 0)
		return;
	s = &slots(w)[i];
	slot_begin(s);
	s->cls = PUB_TOMB;
	s->len = 0;
	slot_end(s);
	heap_free(w, s->off, s->cap);
	w->live--;
}

void pubseg_commit(struct pubseg *w)
{
	if (w->h)
		__atomic_add_fetch(&w->h->changes, 1, __ATOMIC_RELEASE);
}

void pubseg_unlink(struct pubseg *w)
{
	if (w->h && w->pid == getpid())
		unlink(w->path);
	/* The writer is done with it: what it kept of the heap goes too. */
	for (int k = 0; k < PUB_SIZE_CLASSES; k++) {
		free(w->free[k].off);
		w->free[k] = (struct pub_freelist){ 0 };
	}
}

/* ---------------------------------------------------------------- reaping */

/* The pid of "<machine>-proc-<pid>" or "<machine>-proc-<pid>.new.XXXXXX"
 * (a generation being made); 0 for another name. */
static pid_t name_pid(const char *name, const char *machine)
{
	size_t m = strlen(machine);
	char *end;
	long pid;

	if (strncmp(name, machine, m) || strncmp(name + m, "-proc-", 6))
		return 0;
	name += m + 6;
	if (*name < '1' || *name > '9')
		return 0;
	pid = strtol(name, &end, 10);
	if (pid <= 0 || pid > INT32_MAX || (*end && strncmp(end, ".new.", 5)))
		return 0;
	return (pid_t)pid;
}

/* The segment names a process that is gone: it is one (a header of its
 * pid), and its pid is free or taken by a process that started at another
 * time than the writer did. A file that is no segment is left alone: cufs
 * runs this as root, and anyone may make files of such names. */
static bool segment_dead(int dirfd, const char *name, pid_t pid)
{
	struct pub_header h;
	int fd;
	ssize_t n;

	if ((fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
			 O_CLOEXEC)) < 0)
		return false;
	n = pread(fd, &h, sizeof h, 0);
	close(fd);
	return n == (ssize_t)sizeof h && h.magic == PUB_MAGIC &&
	       h.pid == pid && h.start != cuemu_proc_start_time(pid);
}

bool pub_reap_one(int dirfd, const char *name, pid_t pid)
{
	return segment_dead(dirfd, name, pid) && unlinkat(dirfd, name, 0) == 0;
}

int pub_reap(const char *machine)
{
	DIR *d = opendir("/dev/shm");
	struct dirent *e;
	int n = 0;
	pid_t pid;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if ((pid = name_pid(e->d_name, machine)) && pid != getpid() &&
		    pub_reap_one(dirfd(d), e->d_name, pid))
			n++;
	closedir(d);
	return n;
}
