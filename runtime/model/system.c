/*
 * system.c - system-allocated memory on a pageable machine (the hmm and
 * hardware-coherent paradigms, PAGEABLE_MEMORY_ACCESS 1): memory from
 * malloc or mmap that advice, prefetch, range attributes and cuemuAccess
 * are given. The first such call over a span registers its pages as an
 * allocation of kind SYSTEM, tracked by the range model as managed memory
 * is (never populated until an access or a prefetch places it: first
 * touch decides). Only the model's residency changes: the host memory
 * itself is never moved, bound nor protected, so CPU touches of it and
 * emulated kernels' touches are not seen. A registration lasts as long as
 * the process (the emulator cannot see free(3) or munmap(2)).
 *
 * Locking: cuemu_lock held by the caller.
 */
#include "model/managed.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* A new SYSTEM allocation over [s, e), which no other entry overlaps and
 * which the process has mapped. */
static CUresult sys_new(uintptr_t s, uintptr_t e, struct mstate **out)
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
	a->id = cuemu_next_id();
	a->device = -1;
	a->priv = st;
	st->a = a;
	st->attach = CU_MEM_ATTACH_GLOBAL;
	if (cuemu_sys_insert(a) < 0) {
		mr_destroy(&st->ranges);
		free(a);
		free(st);
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "[0x%lx, 0x%lx) "
				  "overlaps another allocation",
				  (unsigned long)s, (unsigned long)e);
	}
	cuemu_event_log("alloc", "system alloc=%llu base=0x%lx size=%zu",
			(unsigned long long)a->id, (unsigned long)s,
			(size_t)(e - s));
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
		*out = a->priv;
		return CUDA_SUCCESS;
	}
	if (a || cuemu_sys_overlap(s, e - s))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "[0x%lx, 0x%lx) runs across system memory "
				  "registered apart", (unsigned long)s,
				  (unsigned long)e);
	if (cuemu_va_overlap(s, e - s))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "[0x%lx, 0x%lx) runs into a CUDA allocation",
				  (unsigned long)s, (unsigned long)e);
	/* msync answers ENOMEM where a page of the span is not mapped, for
	 * the whole span at once. */
	if (msync((void *)s, e - s, MS_ASYNC) != 0)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "0x%llx is not memory of the process (%s)",
				  (unsigned long long)p, strerror(errno));
	return sys_new(s, e, out);
}
