/*
 * vaspace.c - the address map: every allocation, registration and
 * reservation of the process, in two red-black trees (libbsd's <sys/tree.h>):
 * one ordered by address for interior-pointer lookups, one by id for /cu.
 * Both are O(log n). Entries never overlap. And the words each kind of
 * entry is shown by, and the generation of what kernels may reach, which
 * moves when an entry goes (and when fault.c applies a view again, or
 * peer access goes off).
 *
 * Locking: every function here expects the caller to hold cuemu_lock().
 */
#include "model/internal.h"

const char *const cuemu_kind_names[] = {
	[CUEMU_KIND_DEVICE] = "device",
	[CUEMU_KIND_HOST] = "host",
	[CUEMU_KIND_REGISTERED] = "registered",
	[CUEMU_KIND_MANAGED] = "managed",
	[CUEMU_KIND_POOL] = "pool",
	[CUEMU_KIND_RESERVATION] = "reservation",
	[CUEMU_KIND_IPC] = "ipc",
	[CUEMU_KIND_SYSTEM] = "system",
};

/* Moves whenever a page a kernel was let reach may have lost that reach:
 * a view applied again (residency changed: an eviction, a migration
 * away, a look closed), an allocation gone from the address map, peer
 * access turned off. The engine's translation caches are dropped when
 * it moves (ex_memops.generation). Global because the address space and
 * the address map are the process's; only ever incremented, atomically. */
static uint64_t reach_gen;

void cuemu_reach_changed(void)
{
	__atomic_add_fetch(&reach_gen, 1, __ATOMIC_RELEASE);
}

const volatile uint64_t *cuemu_reach_generation(void)
{
	return &reach_gen;
}

static int cmp_addr(struct cuemu_alloc *a, struct cuemu_alloc *b)
{
	return a->base < b->base ? -1 : a->base > b->base;
}

static int cmp_id(struct cuemu_alloc *a, struct cuemu_alloc *b)
{
	return a->id < b->id ? -1 : a->id > b->id;
}

RB_HEAD(va_tree, cuemu_alloc);
RB_HEAD(id_tree, cuemu_alloc);
CUEMU_RB_STATIC(va_tree, cuemu_alloc, va_node, cmp_addr)
CUEMU_RB_STATIC(id_tree, cuemu_alloc, id_node, cmp_id)

/* The process's address map. Global because the address space it describes
 * is the process's own; guarded by cuemu_lock(). */
static struct va_tree by_addr = RB_INITIALIZER(&by_addr);
static struct id_tree by_id = RB_INITIALIZER(&by_id);
static size_t nentries;

/* The entry with the greatest base <= p in the tree under root: the
 * address map's or the system map's, whose nodes are linked alike. */
static struct cuemu_alloc *floor_under(struct cuemu_alloc *n, uintptr_t p)
{
	struct cuemu_alloc *best = NULL;

	while (n) {
		if (n->base <= p) {
			best = n;
			n = RB_RIGHT(n, va_node);
		} else {
			n = RB_LEFT(n, va_node);
		}
	}
	return best;
}

static struct cuemu_alloc *floor_entry(uintptr_t p)
{
	return floor_under(RB_ROOT(&by_addr), p);
}

static size_t span_of(const struct cuemu_alloc *a)
{
	return a->span ? a->span : a->size;
}

struct cuemu_alloc *cuemu_va_overlap(uintptr_t p, size_t len)
{
	struct cuemu_alloc *a = floor_entry(p);

	if (len == 0)
		len = 1;
	if (a && p < a->base + span_of(a))
		return a;
	a = a ? RB_NEXT(va_tree, &by_addr, a) : RB_MIN(va_tree, &by_addr);
	if (a && a->base < p + len)
		return a;
	return NULL;
}

int cuemu_va_insert(struct cuemu_alloc *a)
{
	if (cuemu_va_overlap(a->base, span_of(a)))
		return -1;
	RB_INSERT(va_tree, &by_addr, a);
	RB_INSERT(id_tree, &by_id, a);
	nentries++;
	cuemu_obj_changed(a->id);
	return 0;
}

void cuemu_va_remove(struct cuemu_alloc *a)
{
	RB_REMOVE(va_tree, &by_addr, a);
	RB_REMOVE(id_tree, &by_id, a);
	nentries--;
	cuemu_reach_changed();
	cuemu_obj_changed(a->id);
}

struct cuemu_alloc *cuemu_va_find(uintptr_t p)
{
	struct cuemu_alloc *a = floor_entry(p);

	return a && p < a->base + span_of(a) ? a : NULL;
}

struct cuemu_alloc *cuemu_va_by_id(uint64_t id)
{
	struct cuemu_alloc key = { .id = id };

	return RB_FIND(id_tree, &by_id, &key);
}

/* The allocation a /cu write names by id (outward/ctl_alloc.c), which the
 * calls it runs must find at its address, not another made there since the
 * write looked it up. Thread-local because a write runs on one thread and
 * the expectation is that thread's alone; 0: none. */
static __thread uint64_t expected_id;

void cuemu_va_expect(uint64_t id)
{
	expected_id = id;
}

CUresult cuemu_va_check_expected(const struct cuemu_alloc *a)
{
	if (!expected_id || (a && a->id == expected_id))
		return CUDA_SUCCESS;
	return cuemu_fail(CUDA_ERROR_NOT_FOUND, "allocation %llu was freed "
			  "while the write ran",
			  (unsigned long long)expected_id);
}

struct cuemu_alloc *cuemu_va_first(void)
{
	return RB_MIN(va_tree, &by_addr);
}

struct cuemu_alloc *cuemu_va_next(struct cuemu_alloc *a)
{
	return RB_NEXT(va_tree, &by_addr, a);
}

/* ------------------------------------------------------------------ */
/* System-allocated memory a pageable machine tracks (system.c): kept out
 * of the address map above, which speaks for CUDA's own allocations only
 * (pointer attributes, copies, frees and registrations see none of it),
 * in a tree of its own by address, and by id beside the others for /cu. */

RB_HEAD(sys_tree, cuemu_alloc);
CUEMU_RB_STATIC(sys_tree, cuemu_alloc, va_node, cmp_addr)
static struct sys_tree sys_by_addr = RB_INITIALIZER(&sys_by_addr);

static struct cuemu_alloc *sys_floor(uintptr_t p)
{
	return floor_under(RB_ROOT(&sys_by_addr), p);
}

struct cuemu_alloc *cuemu_sys_overlap(uintptr_t p, size_t len)
{
	struct cuemu_alloc *a = sys_floor(p);

	if (len == 0)
		len = 1;
	if (a && p < a->base + a->size)
		return a;
	a = a ? RB_NEXT(sys_tree, &sys_by_addr, a)
	      : RB_MIN(sys_tree, &sys_by_addr);
	return a && a->base < p + len ? a : NULL;
}

int cuemu_sys_insert(struct cuemu_alloc *a)
{
	if (cuemu_sys_overlap(a->base, a->size) ||
	    cuemu_va_overlap(a->base, a->size))
		return -1;
	RB_INSERT(sys_tree, &sys_by_addr, a);
	RB_INSERT(id_tree, &by_id, a);
	cuemu_obj_changed(a->id);
	return 0;
}

void cuemu_sys_remove(struct cuemu_alloc *a)
{
	RB_REMOVE(sys_tree, &sys_by_addr, a);
	RB_REMOVE(id_tree, &by_id, a);
	cuemu_obj_changed(a->id);
}

struct cuemu_alloc *cuemu_sys_find(uintptr_t p)
{
	struct cuemu_alloc *a = sys_floor(p);

	return a && p < a->base + a->size ? a : NULL;
}

struct cuemu_alloc *cuemu_sys_first(void)
{
	return RB_MIN(sys_tree, &sys_by_addr);
}

struct cuemu_alloc *cuemu_sys_next(struct cuemu_alloc *a)
{
	return RB_NEXT(sys_tree, &sys_by_addr, a);
}

size_t cuemu_va_count(void)
{
	return nentries;
}
