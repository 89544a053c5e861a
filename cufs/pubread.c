/*
 * pubread.c - reads a process's published-state segment (pubread.h): maps
 * it read-only, checks its geometry once, and takes consistent copies of
 * records under their seqlocks, retrying a bounded number of times.
 *
 * Whatever is read here was written by another process, which may be
 * buggy, hostile or dead half-way: every offset, length and count is
 * checked against the mapping's own bounds (copied at open, never read
 * again from the segment), and an access past the end of a file that
 * was truncated under the mapping raises SIGBUS, which a handler turns
 * into -EIO for that one call.
 *
 * Locking: none. The SIGBUS guard is per thread (a thread-local jump
 * buffer); the handler is installed once.
 */
#include "pubread.h"
#include "outward/pubseg.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* How often a record that changes under the copy is copied again, and how
 * long a slot that stays odd (a writer stopped in the middle of a write,
 * since a writer's write is short) is waited for, before -EAGAIN. */
#define PUB_TRIES 64

/* The last mapping's number: one for each pubmap_open, never reused, so
 * that a stamp can never be taken for one of another mapping (another
 * process's, or a later one at the same address). */
static uint64_t last_serial;

struct pubmap {
	uint64_t serial;     /* this mapping's number: no other has it */
	int fd;              /* kept to see the file shrink under us */
	const char *base;
	size_t size;
	const struct pub_header *h;
	const struct pub_slot *slots;
	uint64_t nslots;
	const char *heap;
	uint64_t heap_size;
	uint64_t start;
};

/* ---------------------------------------------------------------- SIGBUS */

static __thread sigjmp_buf *guard;
static pthread_once_t guard_once = PTHREAD_ONCE_INIT;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	(void)si, (void)uc;
	if (guard)
		siglongjmp(*guard, 1);
	/* Not ours: the default action, as if no handler were there. */
	signal(sig, SIG_DFL);
	raise(sig);
}

static void guard_install(void)
{
	struct sigaction sa = { .sa_sigaction = on_sigbus,
				.sa_flags = SA_SIGINFO | SA_NODEFER };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

/* Runs body with SIGBUS turned into -EIO. A macro, because the jump
 * buffer must live in the frame that reads the mapping. */
#define GUARDED(rc, body)                                         \
	do {                                                      \
		sigjmp_buf jb_;                                   \
		pthread_once(&guard_once, guard_install);         \
		if (sigsetjmp(jb_, 0)) {                          \
			guard = NULL;                             \
			rc = -EIO;                                \
			break;                                    \
		}                                                 \
		guard = &jb_;                                     \
		body;                                             \
		guard = NULL;                                     \
	} while (0)

/* ---------------------------------------------------------------- open */

static bool geometry_ok(const struct pub_header *h, size_t size, pid_t pid)
{
	uint64_t slots_end;

	if (h->magic != PUB_MAGIC || h->version != PUB_VERSION ||
	    h->header_size != sizeof *h || h->size != size || h->pid != pid)
		return false;
	if (!h->nslots || h->nslots > PUB_MAX_SLOTS ||
	    (h->nslots & (h->nslots - 1)) || h->slots_off < sizeof *h ||
	    h->slots_off % 8 || h->slots_off > size)
		return false;
	slots_end = h->slots_off + h->nslots * sizeof(struct pub_slot);
	return slots_end <= size && h->heap_off >= slots_end &&
	       h->heap_off <= size && h->heap_size <= size - h->heap_off;
}

int pubmap_open(const char *path, pid_t pid, struct pubmap **out, uid_t *uid)
{
	struct pubmap *m;
	struct stat st;
	void *base;
	int fd;
	volatile int rc = 0;

	*out = NULL;
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (size_t)st.st_size < sizeof(struct pub_header)) {
		close(fd);
		return -EIO;
	}
	base = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED) {
		close(fd);
		return -EIO;
	}
	if (!(m = calloc(1, sizeof *m))) {
		munmap(base, (size_t)st.st_size);
		close(fd);
		return -ENOMEM;
	}
	m->serial = __atomic_add_fetch(&last_serial, 1, __ATOMIC_RELAXED);
	m->fd = fd;
	m->base = base;
	m->size = (size_t)st.st_size;
	m->h = base;
	GUARDED(rc, {
		if (!geometry_ok(m->h, m->size, pid))
			rc = -EIO;
		else {
			m->nslots = m->h->nslots;
			m->slots = (const void *)(m->base + m->h->slots_off);
			m->heap = m->base + m->h->heap_off;
			m->heap_size = m->h->heap_size;
			m->start = m->h->start;
		}
	});
	if (rc < 0) {
		pubmap_close(m);
		return rc;
	}
	*uid = st.st_uid;
	*out = m;
	return 0;
}

void pubmap_close(struct pubmap *m)
{
	if (m) {
		munmap((void *)m->base, m->size);
		close(m->fd);
		free(m);
	}
}

uint64_t pubmap_start(const struct pubmap *m)
{
	return m->start;
}

uint64_t pubmap_serial(const struct pubmap *m)
{
	return m->serial;
}

bool pubmap_retired(const struct pubmap *m)
{
	int rc = 0;
	volatile bool r = false;
	struct stat st;

	/* Truncated (or grown) under us: what was mapped is not all there. */
	if (fstat(m->fd, &st) < 0 || (size_t)st.st_size != m->size)
		return true;
	GUARDED(rc, r = __atomic_load_n(&m->h->retired, __ATOMIC_ACQUIRE) ||
		    m->h->magic != PUB_MAGIC);
	/* A header that no longer says what it said is no segment now:
	 * opening it again tells what it is. */
	return r || rc < 0;
}

/* ---------------------------------------------------------------- copies */

/* A consistent copy of slot i: its id, class, the sequence it was taken
 * at and (when want_text) its text into *buf (grown as needed,
 * NUL-terminated). 0, -EIO for a slot that points outside the heap,
 * -EAGAIN when it never held still. Runs guarded. */
struct copy {
	uint64_t id;
	uint64_t seq;
	uint32_t cls;
	size_t len;
	char *buf;
	size_t cap;
};

static int copy_slot(const struct pubmap *m, uint64_t i, bool want_text,
		     struct copy *c)
{
	const struct pub_slot *s = &m->slots[i];

	for (int t = 0; t < PUB_TRIES; t++) {
		uint64_t q = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
		uint64_t off, len;

		if (q & 1) {
			sched_yield();
			continue;
		}
		c->id = s->id;
		c->cls = s->cls;
		off = s->off;
		len = s->len;
		c->len = 0;
		if (want_text && c->cls != PUB_EMPTY && c->cls != PUB_TOMB) {
			/* A torn read may show anything: bounds first, and
			 * a bad one only counts once the sequence agrees. */
			if (len > PUB_MAX_TEXT || off > m->heap_size ||
			    len > m->heap_size - off) {
				__atomic_thread_fence(__ATOMIC_ACQUIRE);
				if (__atomic_load_n(&s->seq, __ATOMIC_RELAXED) == q)
					return -EIO;
				continue;
			}
			if (len + 1 > c->cap) {
				char *b = realloc(c->buf, len + 1);

				if (!b)
					return -ENOMEM;
				c->buf = b;
				c->cap = len + 1;
			}
			memcpy(c->buf, m->heap + off, len);
			c->buf[len] = '\0';
			c->len = len;
		}
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&s->seq, __ATOMIC_RELAXED) == q) {
			c->seq = q;
			return 0;
		}
	}
	return -EAGAIN;
}

/* The slot of id (live), or -1; probes stop at an empty slot. */
static int find(const struct pubmap *m, uint64_t id, struct copy *c,
		bool want_text, int64_t *at)
{
	uint64_t i = pub_hash(id, m->nslots);
	int rc;

	*at = -1;
	for (uint64_t k = 0; k < m->nslots; k++, i = (i + 1) & (m->nslots - 1)) {
		if ((rc = copy_slot(m, i, false, c)) < 0)
			return rc;
		if (c->cls == PUB_EMPTY)
			return 0;
		if (c->cls == PUB_TOMB || c->id != id)
			continue;
		if (want_text && (rc = copy_slot(m, i, true, c)) < 0)
			return rc;
		/* It may have been removed between the two copies. */
		if (c->cls == PUB_TOMB || c->id != id)
			continue;
		*at = (int64_t)i;
		return 0;
	}
	return 0;
}

int pubmap_get(const struct pubmap *m, uint64_t id, uint32_t *cls,
	       char **text, size_t *len, struct pubstamp *stamp)
{
	struct copy c = { 0 };
	int64_t at = -1;
	volatile int rc = 0;

	GUARDED(rc, rc = find(m, id, &c, true, &at));
	if (rc == 0 && at < 0)
		rc = -ENOENT;
	if (rc < 0) {
		free(c.buf);
		return rc;
	}
	*cls = c.cls;
	*text = c.buf ? c.buf : strdup("");
	*len = c.len;
	if (stamp)
		*stamp = (struct pubstamp){ .map = m->serial,
					    .slot = (uint64_t)at, .seq = c.seq };
	return *text ? 0 : -ENOMEM;
}

bool pubmap_unchanged(const struct pubmap *m, const struct pubstamp *st)
{
	volatile bool same = false;
	int rc = 0;

	if (st->map != m->serial || st->slot >= m->nslots || (st->seq & 1))
		return false;
	/* The writer bumps a slot's sequence around every change of the
	 * slot or of its text (a removal, a reuse for another id, a text
	 * written in place or moved): the same even sequence is the same
	 * record. A segment truncated under us is a change too. */
	GUARDED(rc, same = __atomic_load_n(&m->slots[st->slot].seq,
					   __ATOMIC_ACQUIRE) == st->seq);
	return same && rc == 0;
}

int pubmap_has(const struct pubmap *m, uint64_t id, uint32_t cls)
{
	struct copy c = { 0 };
	int64_t at = -1;
	volatile int rc = 0;

	GUARDED(rc, rc = find(m, id, &c, false, &at));
	if (rc < 0)
		return rc;
	return at >= 0 && c.cls == cls;
}

int pubmap_each(const struct pubmap *m, uint32_t cls,
		void (*fn)(uint64_t id, const char *text, size_t len, void *arg),
		void *arg)
{
	struct copy c = { 0 };
	volatile int rc = 0;

	GUARDED(rc, {
		for (uint64_t i = 0; i < m->nslots && rc == 0; i++) {
			/* Cheap look first: most slots are of no interest. */
			if (__atomic_load_n(&m->slots[i].cls,
					    __ATOMIC_RELAXED) != cls)
				continue;
			if ((rc = copy_slot(m, i, true, &c)) == 0 &&
			    c.cls == cls) {
				guard = NULL;
				fn(c.id, c.buf, c.len, arg);
				guard = &jb_;
			}
		}
	});
	free(c.buf);
	return rc;
}

static int by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

int pubmap_ids(const struct pubmap *m, uint32_t cls, uint64_t **ids,
	       size_t *n)
{
	struct copy c = { 0 };
	/* volatile: read again after a SIGBUS jumped back. */
	uint64_t *volatile out = NULL;
	volatile size_t cap = 0, k = 0;
	volatile int rc = 0;
	size_t j;

	GUARDED(rc, {
		for (uint64_t i = 0; i < m->nslots && rc == 0; i++) {
			if (__atomic_load_n(&m->slots[i].cls,
					    __ATOMIC_RELAXED) != cls)
				continue;
			if ((rc = copy_slot(m, i, false, &c)) < 0 ||
			    c.cls != cls)
				continue;
			if (k == cap) {
				uint64_t *o;

				cap = cap ? cap * 2 : 256;
				if (!(o = realloc(out, cap * sizeof *o))) {
					rc = -ENOMEM;
					break;
				}
				out = o;
			}
			out[k++] = c.id;
		}
	});
	if (rc < 0) {
		free(out);
		return rc;
	}
	if (k)
		qsort(out, k, sizeof *out, by_u64);
	/* An id listed twice: a record removed and put again in another
	 * slot while the scan went by, or a table scribbled on. Once. */
	j = k ? 1 : 0;
	for (size_t i = 1; i < k; i++)
		if (out[i] != out[j - 1])
			out[j++] = out[i];
	*ids = out;
	*n = j;
	return 0;
}
