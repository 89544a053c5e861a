/*
 * devheap.c - where cuMemAlloc memory lies: in the process's address space
 * and in its device memory file of the device (model/ipc.c owns the file).
 * As the real driver does (probes/results/pack.txt), an allocation under
 * 2 MiB is packed into a shared 2 MiB block, 512 B aligned and rounded up
 * to 512 B, so that a process's mappings do not grow with its allocations
 * (the kernel allows a process vm.max_map_count of them); one of 2 MiB or
 * more gets a mapping of its own. A block is one shared mapping of 2 MiB
 * of the file. Blocks and large allocations are carved upwards, 2 MiB
 * aligned, from an address range reserved at the first allocation, as the
 * real driver's go up the address space.
 *
 * The free space of a device's blocks is a set of extents (maximal free
 * runs inside one block), in two red-black trees: by address, to join a
 * freed piece with its neighbours, and by (length, address), for the
 * smallest run that holds a request, lowest first. Every operation is
 * O(log n) in the number of extents; nothing is kept per page. A free
 * punches the whole pages it leaves unused out of the file, so the memory
 * goes back to the system; a block left empty is unmapped and its range
 * of the file reused by the next block, except the last one of a device,
 * which stays for the next allocation. A freed allocation that another
 * process maps (legacy IPC, ipc.c) leaves it its pages: its place takes
 * fresh pages of the file (a move of the block) and is reused, or, when
 * it shares a page with a live neighbour, stays out of use; such a
 * block's first range of the file is never reused.
 *
 * A forked child has device memory files of its own (ipc.c); it must not
 * carve its parent's blocks, which are mappings of the parent's files: it
 * starts with no blocks, and what it inherited stays mapped.
 *
 * Locking: heap_lock, a leaf lock, taken with or without cuemu_lock()
 * held; mmap and fallocate run under it (they take no lock of ours).
 */
#include "model/ipc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define BLOCK CUEMU_GRANULARITY         /* a block of packed allocations */
#define PACK_ALIGN 512UL                /* their alignment and rounding */
#define PACK_MAX (BLOCK - 1)           /* the largest one packed */

struct block {
	RB_ENTRY(block) node;   /* by base, per device */
	uintptr_t base;
	uint64_t off;           /* where it lies in the device's file */
	uint64_t id;            /* CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID */
	size_t live;            /* allocations in it, kept ones included */
	size_t kept;            /* freed ones an importer may still map */
	/* Pages moved to fresh ranges of the file (disjoint; rare): an
	 * allocation freed while another process mapped it left its pages
	 * to that process, and its place here took new ones. */
	struct move { uintptr_t va; size_t len; uint64_t off; } *moves;
	size_t nmoves;
};

/* Where the byte at p of block b lies in the file. */
static uint64_t blk_off(const struct block *b, uintptr_t p)
{
	for (size_t i = 0; i < b->nmoves; i++)
		if (p - b->moves[i].va < b->moves[i].len)
			return b->moves[i].off + (p - b->moves[i].va);
	return b->off + (p - b->base);
}

/* Whether [p, p+len) of b is one run of the file (no move's edge inside). */
static bool blk_linear(const struct block *b, uintptr_t p, size_t len)
{
	for (size_t i = 0; i < b->nmoves; i++) {
		uintptr_t s = b->moves[i].va, e = s + b->moves[i].len;

		if ((p < s && p + len > s) || (p < e && p + len > e))
			return false;
	}
	return true;
}

/* The end of the run of the file that begins at p in b, at most hi. */
static uintptr_t blk_run_end(const struct block *b, uintptr_t p,
			     uintptr_t hi)
{
	for (size_t i = 0; i < b->nmoves; i++) {
		uintptr_t s = b->moves[i].va, e = s + b->moves[i].len;

		if (p >= s && p < e && e < hi)
			hi = e;
		else if (p < s && s < hi)
			hi = s;
	}
	return hi;
}

struct extent {
	RB_ENTRY(extent) by_addr, by_len;
	uintptr_t s;
	size_t len;
	struct block *b;
};

static int cmp_block(struct block *x, struct block *y)
{
	return x->base < y->base ? -1 : x->base > y->base;
}

static int cmp_addr(struct extent *x, struct extent *y)
{
	return x->s < y->s ? -1 : x->s > y->s;
}

static int cmp_len(struct extent *x, struct extent *y)
{
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->s < y->s ? -1 : x->s > y->s;
}

RB_HEAD(block_tree, block);
RB_HEAD(addr_tree, extent);
RB_HEAD(len_tree, extent);
CUEMU_RB_STATIC(block_tree, block, node, cmp_block)
CUEMU_RB_STATIC(addr_tree, extent, by_addr, cmp_addr)
CUEMU_RB_STATIC(len_tree, extent, by_len, cmp_len)

struct heap {
	struct block_tree blocks;
	struct addr_tree addr;
	struct len_tree len;
	size_t empty;           /* blocks with nothing in them (at most 1) */
	uint64_t *spare_off;    /* file ranges of unmapped blocks, reusable */
	size_t nspare, capspare;
};

/* The heaps of the process's devices. Global as the files they carve are
 * the process's (ipc.c); guarded by heap_lock. epoch is the file epoch
 * the heaps were built in: a forked child's differs (ipc.c), and it
 * starts over, keeping its parent's heaps reachable in stale[]. */
static pthread_mutex_t heap_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static struct heap heaps[CUEMU_MAX_DEVICES];
static struct heap *stale;
static uint32_t heap_epoch;

bool cuemu_devheap_packs(size_t size)
{
	return size <= PACK_MAX;
}

size_t cuemu_devheap_span(size_t size)
{
	/* A packed allocation covers its request in the address map: the
	 * bytes that round it up to 512 B are in none (the real driver's
	 * pointer attributes answer INVALID_VALUE there). */
	if (cuemu_devheap_packs(size))
		return size;
	return CUEMU_ALIGN_UP(size, CUEMU_PAGE);
}

/* Address space for span bytes: 2 MiB aligned from 2 MiB up, as the real
 * driver places such allocations (and as an anonymous mapping of that size
 * is placed), else anywhere. NULL when there is none. */
void *cuemu_devheap_place(size_t span)
{
	size_t len = span + BLOCK - CUEMU_PAGE;
	uintptr_t s, a;
	void *p;

	if (span < BLOCK || len < span)
		return NULL;
	p = mmap(NULL, len, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	s = (uintptr_t)p;
	a = CUEMU_ALIGN_UP(s, BLOCK);
	if (a > s)
		munmap(p, a - s);
	if (s + len > a + span)
		munmap((void *)(a + span), s + len - (a + span));
	return (void *)a;
}

/* ------------------------------------------------------------ extents */

static void ext_insert(struct heap *h, struct extent *e)
{
	RB_INSERT(addr_tree, &h->addr, e);
	RB_INSERT(len_tree, &h->len, e);
}

static void ext_remove(struct heap *h, struct extent *e)
{
	RB_REMOVE(addr_tree, &h->addr, e);
	RB_REMOVE(len_tree, &h->len, e);
}

/* The smallest free run of at least len bytes, lowest first; NULL. */
static struct extent *ext_fit(struct heap *h, size_t len)
{
	struct extent key = { .len = len, .s = 0 };

	return RB_NFIND(len_tree, &h->len, &key);
}

/* The free run that ends at p in block b, or NULL. */
static struct extent *ext_ending_at(struct heap *h, struct block *b,
				    uintptr_t p)
{
	struct extent *n = RB_ROOT(&h->addr), *best = NULL;

	while (n) {
		if (n->s < p) {
			best = n;
			n = RB_RIGHT(n, by_addr);
		} else {
			n = RB_LEFT(n, by_addr);
		}
	}
	return best && best->b == b && best->s + best->len == p ? best : NULL;
}

static struct extent *ext_starting_at(struct heap *h, struct block *b,
				      uintptr_t p)
{
	struct extent key = { .s = p }, *e = RB_FIND(addr_tree, &h->addr, &key);

	return e && e->b == b ? e : NULL;
}

/* ------------------------------------------------------ address space */

/* The address range device memory is carved from, upwards, as the real
 * driver's blocks and large allocations go up the address space
 * (probes/results/pack.txt, pack.fill.*.blocks) where the kernel's
 * mappings go down. Reserved at the first device allocation (PROT_NONE,
 * NORESERVE: address space only); its free runs are extents of no block,
 * taken smallest first, lowest first, and a freed piece is reserved again
 * and joins its neighbours. When the reservation is refused (valgrind's
 * smaller address space) or full, mappings go where the kernel puts
 * them. Guarded by heap_lock. */
#define SPACE_SIZE (4ULL << 40)

static struct {
	bool tried;
	uintptr_t base, end;
	struct addr_tree addr;
	struct len_tree len;
} space;

static void space_reserve(void)
{
	struct extent *e = calloc(1, sizeof *e);
	void *p = MAP_FAILED;

	space.tried = true;
	if (e)
		p = mmap(NULL, SPACE_SIZE + BLOCK, PROT_NONE, MAP_PRIVATE |
			 MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		free(e);
		cuemu_debug("no device address range: %s", strerror(errno));
		return;
	}
	/* The first block stays unused: the kernel places later mappings
	 * just below the range, and the byte past one of them must not be
	 * device memory. */
	space.base = CUEMU_ALIGN_UP((uintptr_t)p, BLOCK) + BLOCK;
	space.end = space.base + SPACE_SIZE - BLOCK;
	e->s = space.base;
	e->len = space.end - space.base;
	RB_INSERT(addr_tree, &space.addr, e);
	RB_INSERT(len_tree, &space.len, e);
}

/* len bytes (a multiple of 2 MiB) of the range, or 0. heap_lock held. */
static uintptr_t space_take(size_t len)
{
	struct extent key = { .len = len }, *e;
	uintptr_t at;

	if (!space.tried)
		space_reserve();
	if (!(e = RB_NFIND(len_tree, &space.len, &key)))
		return 0;
	RB_REMOVE(len_tree, &space.len, e);
	at = e->s;
	if (e->len == len) {
		RB_REMOVE(addr_tree, &space.addr, e);
		free(e);
		return at;
	}
	e->s += len;
	e->len -= len;
	RB_INSERT(len_tree, &space.len, e);
	return at;
}

/* Gives [at, +len) back, reserved again. heap_lock held. */
static void space_give(uintptr_t at, size_t len)
{
	struct extent key = { .s = at }, *prev = NULL, *next, *n, *f;

	if (mmap((void *)at, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
		 MAP_NORESERVE | MAP_FIXED, -1, 0) == MAP_FAILED)
		return; /* never handed out again */
	for (n = RB_ROOT(&space.addr); n; )
		if (n->s < at) {
			prev = n;
			n = RB_RIGHT(n, by_addr);
		} else {
			n = RB_LEFT(n, by_addr);
		}
	key.s = at + len;
	next = RB_FIND(addr_tree, &space.addr, &key);
	if (prev && prev->s + prev->len == at) {
		RB_REMOVE(len_tree, &space.len, prev);
		prev->len += len;
		f = prev;
	} else if ((f = calloc(1, sizeof *f))) {
		f->s = at;
		f->len = len;
		RB_INSERT(addr_tree, &space.addr, f);
	} else {
		return; /* the piece stays reserved and unused */
	}
	if (next) {
		RB_REMOVE(len_tree, &space.len, next);
		RB_REMOVE(addr_tree, &space.addr, next);
		f->len += next->len;
		free(next);
	}
	RB_INSERT(len_tree, &space.len, f);
}

static bool in_space(uintptr_t p)
{
	return space.base && p >= space.base && p < space.end;
}

/* Maps len bytes of the file fd at off: in the range, else where the
 * kernel puts it (2 MiB aligned from 2 MiB up). heap_lock held. */
static void *map_file(int fd, uint64_t off, size_t len)
{
	const int fl = MAP_SHARED | MAP_NORESERVE;
	const int prot = PROT_READ | PROT_WRITE;
	size_t vlen = CUEMU_ALIGN_UP(len, BLOCK);
	uintptr_t at = vlen >= len ? space_take(vlen) : 0;
	void *p, *place;

	if (at) {
		p = mmap((void *)at, len, prot, fl | MAP_FIXED, fd, (off_t)off);
		if (p == MAP_FAILED)
			space_give(at, vlen);
		return p;
	}
	place = cuemu_devheap_place(len);
	p = mmap(place, len, prot, fl | (place ? MAP_FIXED : 0), fd,
		 (off_t)off);
	if (p == MAP_FAILED && place)
		munmap(place, len);
	return p;
}

/* Unmaps what map_file mapped. heap_lock held. */
static void unmap_file(void *p, size_t len)
{
	if (in_space((uintptr_t)p))
		space_give((uintptr_t)p, CUEMU_ALIGN_UP(len, BLOCK));
	else
		munmap(p, len);
}

/* ------------------------------------------------------------- blocks */

/* The heap of dev in this process's epoch. heap_lock held. */
static struct heap *heap_of(int dev)
{
	uint32_t ep = cuemu_devmem_epoch();

	if (heap_epoch != ep) {
		if (heap_epoch) {
			/* A forked child: its parent's heaps stay reachable,
			 * untouched, and it starts with none. */
			struct heap *old = malloc(sizeof heaps + sizeof stale);

			if (old) {
				memcpy(old, heaps, sizeof heaps);
				memcpy((char *)old + sizeof heaps, &stale,
				       sizeof stale);
				stale = old;
			}
			memset(heaps, 0, sizeof heaps);
		}
		heap_epoch = ep;
	}
	return &heaps[dev];
}

/* A fresh block of dev, one free run. heap_lock held. NULL with errno. */
static struct block *block_new(int dev, struct heap *h)
{
	struct block *b = calloc(1, sizeof *b);
	struct extent *e = calloc(1, sizeof *e);
	uint64_t off = 0;
	void *p = MAP_FAILED;
	int fd;

	if (h->nspare) {
		off = h->spare_off[h->nspare - 1];
		fd = cuemu_devmem_fd(dev);
	} else {
		fd = cuemu_devmem_file(dev, BLOCK, &off);
	}
	if (b && e && fd >= 0)
		p = map_file(fd, off, BLOCK);
	if (p == MAP_FAILED) {
		int err = fd < 0 || !b || !e ? ENOMEM : errno;

		free(b);
		free(e);
		if (fd >= 0 && !h->nspare)
			cuemu_devmem_punch(dev, off, BLOCK); /* nothing there */
		errno = err;
		return NULL;
	}
	if (h->nspare)
		h->nspare--;
	b->base = (uintptr_t)p;
	b->off = off;
	b->id = cuemu_next_id();
	RB_INSERT(block_tree, &h->blocks, b);
	e->s = b->base;
	e->len = BLOCK;
	e->b = b;
	ext_insert(h, e);
	h->empty++;
	return b;
}

static struct block *block_at(struct heap *h, uintptr_t p)
{
	struct block key = { .base = CUEMU_ALIGN_DOWN(p, BLOCK) };

	return RB_FIND(block_tree, &h->blocks, &key);
}

/* Punches the whole pages of [s, e) that the free run [fs, fe) covers. */
static void punch_free_pages(int dev, const struct block *b, uintptr_t s,
			     uintptr_t e, uintptr_t fs, uintptr_t fe)
{
	uintptr_t lo = CUEMU_ALIGN_DOWN(s, CUEMU_PAGE);
	uintptr_t hi = CUEMU_ALIGN_UP(e, CUEMU_PAGE);

	if (lo < CUEMU_ALIGN_UP(fs, CUEMU_PAGE))
		lo = CUEMU_ALIGN_UP(fs, CUEMU_PAGE);
	if (hi > CUEMU_ALIGN_DOWN(fe, CUEMU_PAGE))
		hi = CUEMU_ALIGN_DOWN(fe, CUEMU_PAGE);
	while (lo < hi) {
		uintptr_t end = blk_run_end(b, lo, hi);

		cuemu_devmem_punch(dev, blk_off(b, lo), end - lo);
		lo = end;
	}
}

/* Unmaps an empty block, its one free run e (out of the trees), keeping
 * its range of the file (punched) for the next block. heap_lock held. */
static void block_drop(int dev, struct heap *h, struct block *b,
		       struct extent *e)
{
	uint64_t *v = h->spare_off;

	free(e);
	RB_REMOVE(block_tree, &h->blocks, b);
	/* Moved pages' first range is another process's: it stays, and so
	 * the block's range of the file is not reused. */
	punch_free_pages(dev, b, b->base, b->base + BLOCK, b->base,
			 b->base + BLOCK);
	unmap_file((void *)b->base, BLOCK);
	if (b->nmoves) {
		free(b->moves);
		free(b);
		return;
	}
	if (h->nspare == h->capspare) {
		size_t cap = h->capspare ? 2 * h->capspare : 16;

		if ((v = realloc(h->spare_off, cap * sizeof *v))) {
			h->spare_off = v;
			h->capspare = cap;
		}
	}
	if (h->nspare < h->capspare)
		h->spare_off[h->nspare++] = b->off;
	free(b);
}

/* ------------------------------------------------------------- packed */

static int pack_alloc(int dev, size_t size, void **addr, uint64_t *off)
{
	size_t len = CUEMU_ALIGN_UP(size, PACK_ALIGN);
	struct heap *h;
	struct extent *e;
	struct block *b;
	uintptr_t p;

	pthread_mutex_lock(&heap_lock);
	h = heap_of(dev);
	if (!(e = ext_fit(h, len)) && block_new(dev, h))
		e = ext_fit(h, len);
	if (!e) {
		int err = errno;

		pthread_mutex_unlock(&heap_lock);
		errno = err;
		return -1;
	}
	b = e->b;
	p = e->s;
	ext_remove(h, e);
	if (e->len > len) {
		e->s += len;
		e->len -= len;
		ext_insert(h, e);
	} else {
		free(e);
	}
	if (!b->live++)
		h->empty--;
	*addr = (void *)p;
	*off = blk_off(b, p);
	pthread_mutex_unlock(&heap_lock);
	return 0;
}

/* Leaves the pages of a freed allocation that another process maps to
 * that process and gives its place here fresh pages of the file, so that
 * the place is reused as the real driver reuses the address (probes/
 * results/share.txt, share.ipc.realloc_same_addr) while the importer
 * keeps the bytes. Only for an allocation alone on its pages, which were
 * never moved; false otherwise (the place stays out of use). heap_lock
 * held. */
static bool rehome(int dev, struct heap *h, struct block *b, uintptr_t s,
		   uintptr_t e)
{
	uintptr_t lo = CUEMU_ALIGN_DOWN(s, CUEMU_PAGE);
	uintptr_t hi = CUEMU_ALIGN_UP(e, CUEMU_PAGE);
	struct extent *prev = ext_ending_at(h, b, s);
	struct extent *next = ext_starting_at(h, b, e);
	struct move *v;
	uint64_t off = 0;
	int fd;

	if ((lo < s && !(prev && prev->s <= lo)) ||
	    (hi > e && !(next && next->s + next->len >= hi)))
		return false;
	for (size_t i = 0; i < b->nmoves; i++)
		if (lo < b->moves[i].va + b->moves[i].len &&
		    b->moves[i].va < hi)
			return false;
	if (!(v = realloc(b->moves, (b->nmoves + 1) * sizeof *v)))
		return false;
	b->moves = v;
	if ((fd = cuemu_devmem_file(dev, hi - lo, &off)) < 0 ||
	    mmap((void *)lo, hi - lo, PROT_READ | PROT_WRITE, MAP_SHARED |
		 MAP_NORESERVE | MAP_FIXED, fd, (off_t)off) == MAP_FAILED)
		return false;
	v[b->nmoves].va = lo;
	v[b->nmoves].len = hi - lo;
	v[b->nmoves].off = off;
	b->nmoves++;
	return true;
}

static void pack_free(const struct cuemu_alloc *a, bool keep)
{
	size_t len = CUEMU_ALIGN_UP(a->size, PACK_ALIGN);
	uintptr_t s = a->base, e = s + len;
	struct extent *prev, *next, *f;
	struct heap *h;
	struct block *b;

	pthread_mutex_lock(&heap_lock);
	h = heap_of(a->device);
	if (!(b = block_at(h, s))) {
		pthread_mutex_unlock(&heap_lock);
		return;
	}
	if (keep && !rehome(a->device, h, b, s, e)) {
		/* An importer maps these pages still: they stay. */
		b->kept++;
		pthread_mutex_unlock(&heap_lock);
		return;
	}
	prev = ext_ending_at(h, b, s);
	next = ext_starting_at(h, b, e);
	if (prev) {
		ext_remove(h, prev);
		f = prev;
		f->len += len;
	} else if ((f = calloc(1, sizeof *f))) {
		f->s = s;
		f->len = len;
		f->b = b;
	} else {
		/* Out of memory: the piece stays unused; punch it all the
		 * same where it is alone on its pages. */
		punch_free_pages(a->device, b, s, e, s, e);
		pthread_mutex_unlock(&heap_lock);
		return;
	}
	if (next) {
		ext_remove(h, next);
		f->len += next->len;
		free(next);
	}
	punch_free_pages(a->device, b, s, e, f->s, f->s + f->len);
	if (--b->live == 0 && h->empty) {
		block_drop(a->device, h, b, f);
	} else {
		ext_insert(h, f);
		h->empty += !b->live;
	}
	pthread_mutex_unlock(&heap_lock);
}

/* ------------------------------------------------------------ entries */

/* A thread of the parent may have held the lock as it forked. */
static void child_after_fork(void)
{
	pthread_mutex_init(&heap_lock, NULL);
}

static void init_once(void)
{
	pthread_atfork(NULL, NULL, child_after_fork);
}

int cuemu_devmem_map(int dev, size_t size, void **addr, uint64_t *off,
		     uint32_t *ep)
{
	size_t span = cuemu_devheap_span(size);
	uint64_t o = 0;
	void *p;
	int fd;

	pthread_once(&once, init_once);
	*ep = cuemu_devmem_epoch();
	if (cuemu_devheap_packs(size))
		return pack_alloc(dev, size, addr, off);
	if ((fd = cuemu_devmem_file(dev, span, &o)) < 0)
		return -1;
	pthread_mutex_lock(&heap_lock);
	p = map_file(fd, o, span);
	pthread_mutex_unlock(&heap_lock);
	if (p == MAP_FAILED) {
		int err = errno;

		cuemu_devmem_punch(dev, o, span);
		errno = err;
		return -1;
	}
	*addr = p;
	*off = o;
	return 0;
}

void cuemu_devheap_free(const struct cuemu_alloc *a, bool mine, bool keep)
{
	if (!cuemu_devheap_packs(a->size)) {
		pthread_mutex_lock(&heap_lock);
		unmap_file((void *)a->base, a->span);
		pthread_mutex_unlock(&heap_lock);
		if (mine && !keep)
			cuemu_devmem_punch(a->device, a->file_off, a->span);
		return;
	}
	/* A forked child's inherited blocks are its parent's: they stay. */
	if (mine)
		pack_free(a, keep);
}

bool cuemu_devheap_linear(const struct cuemu_alloc *a, uintptr_t p,
			  size_t len)
{
	const struct block *b = NULL;
	bool ok = true;

	if (!cuemu_devheap_packs(a->size))
		return true;
	pthread_mutex_lock(&heap_lock);
	if (a->file_epoch == heap_epoch && a->device >= 0 &&
	    a->device < CUEMU_MAX_DEVICES)
		b = block_at(&heaps[a->device], a->base);
	if (b)
		ok = p >= a->base && blk_linear(b, a->base, p + len - a->base);
	pthread_mutex_unlock(&heap_lock);
	return ok;
}

void cuemu_devheap_mapping(const struct cuemu_alloc *a, uintptr_t *base,
			   size_t *size, uint64_t *block_id)
{
	const struct block *b = NULL;

	*base = a->base;
	*size = CUEMU_ALIGN_UP(a->size, BLOCK);
	*block_id = a->id;
	if (!cuemu_devheap_packs(a->size))
		return;
	*base = CUEMU_ALIGN_DOWN(a->base, BLOCK);
	*size = BLOCK;
	pthread_mutex_lock(&heap_lock);
	if (a->file_epoch == heap_epoch && a->device >= 0 &&
	    a->device < CUEMU_MAX_DEVICES)
		b = block_at(&heaps[a->device], a->base);
	if (b)
		*block_id = b->id;
	pthread_mutex_unlock(&heap_lock);
}
