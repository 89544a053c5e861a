/*
 * system.c - system-allocated memory on a pageable machine (the hmm and
 * hardware-coherent paradigms, PAGEABLE_MEMORY_ACCESS 1): memory from
 * malloc or mmap that advice, prefetch, range attributes and cuemuAccess
 * are given. The first such call over a span registers its pages as an
 * allocation of kind SYSTEM, tracked by the range model as managed memory
 * is (never populated until an access or a prefetch places it: first
 * touch decides). Only the model's residency changes: the host memory
 * itself is never moved, bound nor protected, so CPU touches of it and
 * emulated kernels' touches are not seen.
 *
 * Registrations follow what the process maps, as far as the emulator can
 * see it (it does not see free(3) or munmap(2) as they happen):
 *   - a call over a span that overlaps registrations and runs past them
 *     joins them: one new registration (a new id) over the union, whose
 *     pages keep the policy and residency they had, so that advice never
 *     depends on how earlier calls happened to cut the memory;
 *   - a registration that a call overlaps and whose pages are no longer
 *     all mapped is dropped first, and what it held on a GPU given back:
 *     the process freed that memory, and a new mapping there starts fresh.
 * Memory unmapped and mapped again at the same addresses before any call
 * overlaps it cannot be told apart, and keeps its registration. Queued
 * work made for a registration that was joined finds the new one by
 * address (mg_op_state).
 *
 * Locking: cuemu_lock held by the caller.
 */
#include "model/managed.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* msync answers ENOMEM where a page of [s, e) is not mapped, for the whole
 * span at once. */
static bool sys_mapped(uintptr_t s, uintptr_t e)
{
	return msync((void *)s, e - s, MS_ASYNC) == 0;
}

static void sys_free(struct mstate *st)
{
	mr_destroy(&st->ranges);
	free(st->a);
	free(st);
}

/* A SYSTEM allocation over [s, e), fresh, not yet in any map. */
static CUresult sys_make(uintptr_t s, uintptr_t e, struct mstate **out)
{
	struct cuemu_alloc *a = calloc(1, sizeof *a);
	struct mstate *st = calloc(1, sizeof *st);

	if (!a || !st || mr_init(&st->ranges, s, e) < 0) {
		if (st)
			mr_destroy(&st->ranges);
		free(a);
		free(st);
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory");
	}
	a->base = s;
	a->size = e - s;
	a->span = e - s;
	a->kind = CUEMU_KIND_SYSTEM;
	a->device = -1;
	a->priv = st;
	st->a = a;
	st->attach = CU_MEM_ATTACH_GLOBAL;
	*out = st;
	return CUDA_SUCCESS;
}

/* Takes b out of the system map and frees it; uncharge: what it held on a
 * GPU is given back (its memory is gone), rather than carried by the
 * registration that joined it. */
static void sys_drop(struct cuemu_alloc *b, bool uncharge, uint64_t into)
{
	uint64_t id = b->id;

	cuemu_sys_remove(b);
	if (uncharge)
		mg_uncharge(b->priv);
	sys_free(b->priv);
	if (into)
		cuemu_event_log("free", "system alloc=%llu joined into alloc=%llu",
				(unsigned long long)id, (unsigned long long)into);
	else
		cuemu_event_log("free", "system alloc=%llu no longer mapped",
				(unsigned long long)id);
}

/* Drops the registrations overlapping [s, e) whose pages are not all
 * mapped any more. */
static void drop_unmapped(uintptr_t s, uintptr_t e)
{
	struct cuemu_alloc *b = cuemu_sys_overlap(s, e - s), *next;

	for (; b && b->base < e; b = next) {
		next = cuemu_sys_next(b);
		if (!sys_mapped(b->base, b->base + b->size))
			sys_drop(b, true, 0);
	}
}

/* Carries b's state into st: its ranges and its counters. */
static int sys_carry(struct mstate *st, const struct cuemu_alloc *b)
{
	struct mstate *from = b->priv;
	int i;

	if (mr_graft(&st->ranges, &from->ranges) < 0)
		return -1;
	for (i = 0; i < CUEMU_CTR__COUNT; i++)
		st->ctr[i] += from->ctr[i];
	st->fault_ns += from->fault_ns;
	st->migration_ns += from->migration_ns;
	return 0;
}

/* Registers [s, e), mapped and clear of CUDA allocations, joining the
 * registrations it overlaps (all mapped): built apart first, so that
 * running out of memory changes nothing. */
static CUresult sys_join(uintptr_t s, uintptr_t e, struct mstate **out)
{
	struct cuemu_alloc *first = cuemu_sys_overlap(s, e - s), *b, *next;
	uintptr_t lo = s, hi = e;
	struct mstate *st = NULL;
	CUresult r;

	for (b = first; b && b->base < e; b = cuemu_sys_next(b)) {
		lo = b->base < lo ? b->base : lo;
		hi = b->base + b->size > hi ? b->base + b->size : hi;
	}
	if ((r = sys_make(lo, hi, &st)) != CUDA_SUCCESS)
		return r;
	for (b = first; b && b->base < e; b = cuemu_sys_next(b)) {
		if (sys_carry(st, b) < 0) {
			sys_free(st);
			return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
					  "out of host memory");
		}
	}
	st->a->id = cuemu_next_id();
	for (b = first; b && b->base < e; b = next) {
		next = cuemu_sys_next(b);
		sys_drop(b, false, st->a->id);
	}
	if (cuemu_sys_insert(st->a) < 0) {
		/* Cannot happen: the union was checked clear of every map. */
		mg_uncharge(st);
		sys_free(st);
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "[0x%lx, 0x%lx) "
				  "overlaps another allocation",
				  (unsigned long)lo, (unsigned long)hi);
	}
	cuemu_event_log("alloc", "system alloc=%llu base=0x%lx size=%zu",
			(unsigned long long)st->a->id, (unsigned long)lo,
			(size_t)(hi - lo));
	*out = st;
	return CUDA_SUCCESS;
}

CUresult mg_system_range(uintptr_t p, size_t count, struct mstate **out)
{
	uintptr_t s = CUEMU_ALIGN_DOWN(p, CUEMU_PAGE);
	uintptr_t e = CUEMU_ALIGN_UP(p + count, CUEMU_PAGE);
	struct cuemu_alloc *a;

	if (p + count < p || e < p + count)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "range wraps the address space");
	if ((a = cuemu_sys_find(s)) && e <= a->base + a->size) {
		if (sys_mapped(a->base, a->base + a->size)) {
			*out = a->priv;
			return CUDA_SUCCESS;
		}
		sys_drop(a, true, 0);
	}
	if (cuemu_va_overlap(s, e - s))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "[0x%lx, 0x%lx) runs into a CUDA allocation",
				  (unsigned long)s, (unsigned long)e);
	if (!sys_mapped(s, e))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "0x%llx is not memory of the process (%s)",
				  (unsigned long long)p, strerror(errno));
	drop_unmapped(s, e);
	return sys_join(s, e, out);
}
