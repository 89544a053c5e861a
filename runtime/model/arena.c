/*
 * arena.c - the managed address range. The real driver hands managed memory
 * out of a range of its own, upwards, so consecutive allocations sit side
 * by side, each after the one before (probes/results/ranges.txt:
 * ranges.layout), whatever else the process maps (thread stacks, malloc).
 * We reserve one at the first managed allocation (address space only:
 * PROT_NONE, NORESERVE) and carve it from the bottom up in 2 MiB steps. A
 * freed piece is reserved again; next to the uncarved part it joins it,
 * elsewhere it is kept as a hole, and holes are reused first-fit, lowest
 * first, before the uncarved part, as the real driver reuses a freed
 * address (ranges.layout.reuse_freed). When the reservation is refused
 * (valgrind's smaller address space), mappings come from the kernel
 * instead.
 *
 * Locking: arena.lock, a leaf lock; callers may hold cuemu_lock() or not.
 */
#include "model/managed.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

/* Maps span bytes at a 2 MiB boundary from the kernel, over-mapping and
 * trimming to align. Address space only: nothing is populated until
 * touched, and NORESERVE keeps a 1 TiB allocation from counting as commit.
 * Pages start PROT_NONE: no processor holds them yet. */
static void *map_aligned(size_t span, int prot)
{
	const int fl = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
	uintptr_t a, b;
	void *p = mmap(NULL, span, prot, fl, -1, 0);

	if (p == MAP_FAILED || (uintptr_t)p % CUEMU_GRANULARITY == 0)
		return p;
	munmap(p, span);
	if (span + CUEMU_GRANULARITY < span)
		return MAP_FAILED;
	p = mmap(NULL, span + CUEMU_GRANULARITY, prot, fl, -1, 0);
	if (p == MAP_FAILED)
		return p;
	a = CUEMU_ALIGN_UP((uintptr_t)p, CUEMU_GRANULARITY);
	b = (uintptr_t)p + span + CUEMU_GRANULARITY;
	if (a > (uintptr_t)p)
		munmap(p, a - (uintptr_t)p);
	if (b > a + span)
		munmap((void *)(a + span), b - (a + span));
	return (void *)a;
}

/* Global because the address space is the process's; guarded by
 * arena.lock, a leaf lock taken under nothing else of this file. */
#define ARENA_SIZE (16ULL << 40)
#define ARENA_HOLES 512

static struct {
	pthread_mutex_t lock;
	bool tried;
	uintptr_t base, low, end; /* [base, low) carved, [low, end) uncarved */
	size_t nholes;
	struct { uintptr_t s, e; } holes[ARENA_HOLES]; /* sorted, apart */
} arena = { .lock = PTHREAD_MUTEX_INITIALIZER };

static size_t arena_span(size_t span)
{
	return CUEMU_ALIGN_UP(span, CUEMU_GRANULARITY);
}

static bool in_arena(uintptr_t p)
{
	return arena.base && p >= arena.base && p < arena.end;
}

static void arena_reserve(void)
{
	void *p;

	arena.tried = true;
	p = mmap(NULL, ARENA_SIZE + CUEMU_GRANULARITY, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		cuemu_debug("no managed address range: %s", strerror(errno));
		return;
	}
	arena.base = CUEMU_ALIGN_UP((uintptr_t)p, CUEMU_GRANULARITY);
	/* The first granule stays unused: the kernel places later mappings
	 * just below the range, and the byte past one of them must not be
	 * managed memory. */
	arena.low = arena.base + CUEMU_GRANULARITY;
	arena.end = arena.base + ARENA_SIZE;
}

/* A 2 MiB-aligned piece of len bytes, or 0: the lowest hole that holds it,
 * else the start of the uncarved part. Lock held. */
static uintptr_t arena_carve(size_t len)
{
	uintptr_t at;
	size_t i;

	for (i = 0; i < arena.nholes; i++) {
		if (arena.holes[i].e - arena.holes[i].s < len)
			continue;
		at = arena.holes[i].s;
		arena.holes[i].s += len;
		if (arena.holes[i].s == arena.holes[i].e)
			memmove(&arena.holes[i], &arena.holes[i + 1],
				(--arena.nholes - i) * sizeof arena.holes[0]);
		return at;
	}
	if (arena.end - arena.low < len)
		return 0;
	at = arena.low;
	arena.low += len;
	return at;
}

/* Gives [s, e) back to the arena. Lock held. */
static void arena_return(uintptr_t s, uintptr_t e)
{
	size_t i;

	if (e == arena.low) {
		arena.low = s;
		/* The uncarved part may now reach the highest hole. */
		if (arena.nholes &&
		    arena.holes[arena.nholes - 1].e == arena.low)
			arena.low = arena.holes[--arena.nholes].s;
		return;
	}
	for (i = 0; i < arena.nholes && arena.holes[i].s < s; i++)
		;
	if (i > 0 && arena.holes[i - 1].e == s) {
		arena.holes[i - 1].e = e;
		if (i < arena.nholes && arena.holes[i].s == e) {
			arena.holes[i - 1].e = arena.holes[i].e;
			memmove(&arena.holes[i], &arena.holes[i + 1],
				(--arena.nholes - i) * sizeof arena.holes[0]);
		}
	} else if (i < arena.nholes && arena.holes[i].s == e) {
		arena.holes[i].s = s;
	} else if (arena.nholes < ARENA_HOLES) {
		memmove(&arena.holes[i + 1], &arena.holes[i],
			(arena.nholes++ - i) * sizeof arena.holes[0]);
		arena.holes[i].s = s;
		arena.holes[i].e = e;
	} /* else: the piece stays reserved and unused; the range is large */
}

void *arena_map(size_t span, int prot)
{
	uintptr_t at = 0;
	void *p;

	pthread_mutex_lock(&arena.lock);
	if (!arena.tried)
		arena_reserve();
	if (arena.base && arena_span(span) >= span)
		at = arena_carve(arena_span(span));
	pthread_mutex_unlock(&arena.lock);
	if (!at)
		return map_aligned(span, prot);
	p = mmap((void *)at, span, prot, MAP_PRIVATE | MAP_ANONYMOUS |
		 MAP_NORESERVE | MAP_FIXED, -1, 0);
	if (p == MAP_FAILED) {
		pthread_mutex_lock(&arena.lock);
		arena_return(at, at + arena_span(span));
		pthread_mutex_unlock(&arena.lock);
	}
	return p;
}

void arena_unmap(void *p, size_t span)
{
	uintptr_t s = (uintptr_t)p, e = s + arena_span(span);

	if (!in_arena(s)) {
		munmap(p, span);
		return;
	}
	if (mmap(p, e - s, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
		 MAP_NORESERVE | MAP_FIXED, -1, 0) == MAP_FAILED) {
		/* The pages stay mapped; never hand the range out again. */
		cuemu_debug("managed range 0x%lx not reserved again: %s",
			    (unsigned long)s, strerror(errno));
		return;
	}
	pthread_mutex_lock(&arena.lock);
	arena_return(s, e);
	pthread_mutex_unlock(&arena.lock);
}
