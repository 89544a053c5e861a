/*
 * held.c - the GPU memory a managed or system-allocated allocation's
 * ranges hold, given back when the allocation goes (managed.c's
 * mg_delete) or its registration is dropped (system.c). The ranges are
 * read, not changed. Its own file so that system.c, which drops
 * registrations, builds on it rather than on managed.c, which builds on
 * system.c.
 *
 * Locking: cuemu_lock() held by the callers (managed.h).
 */
#include "model/managed.h"

void mg_uncharge(struct mstate *st)
{
	struct mrange *r;
	int p;

	for (r = mr_first(&st->ranges); r; r = mr_next(&st->ranges, r))
		for (p = cuemu_mask_next(r->holders, 0); p >= 0 && p < CUEMU_PROC_HOST;
		     p = cuemu_mask_next(r->holders, p + 1))
			cuemu_mem_uncharge(p, r->end - r->start);
}
