/*
 * discard.c - discarding managed memory (cuMemDiscardBatchAsync and the
 * discard half of cuMemDiscardAndPrefetchBatchAsync): a range's residency
 * is dropped in stream order without migrating anything. Every processor's
 * copy goes and the GPUs' bytes are given back, so /cu shows the range
 * resident nowhere, as a range never touched; the next touch or prefetch
 * populates it where it happens, at no copy cost. The bytes themselves are
 * kept (the real driver leaves the old data readable after a discard on an
 * H200, probes/results/batch.txt), and the last prefetch location and the
 * advice stay as they were.
 *
 * Locking: the check and the stream operation take cuemu_lock(); the range
 * changes go through managed.c's mg_update (range.c's one routine).
 */
#include "model/managed.h"

#include <stdlib.h>

struct discard {
	uint64_t id;             /* the allocation, looked up when it runs */
	uintptr_t s, e;
};

static void discard_fn(struct mrange *r, void *arg)
{
	size_t n = r->end - r->start;
	int p;

	(void)arg;
	for (p = cuemu_mask_next(r->holders, 0); p >= 0 && p < CUEMU_PROC_HOST;
	     p = cuemu_mask_next(r->holders, p + 1))
		if (r->holders & ((cuemu_procmask)1 << p))
			cuemu_mem_uncharge(p, n);
	r->holders = 0;
	r->pinned = false;
}

static void discard_op(CUstream s, void *arg)
{
	struct discard *d = arg;
	struct mstate *st;

	(void)s;
	cuemu_lock();
	if ((st = mg_op_state(d->id, d->s, d->e)) &&
	    mg_update(st, d->s, d->e, discard_fn, NULL) == 0)
		view_apply(st, d->s, d->e);
	cuemu_unlock();
	free(d);
}

CUresult mg_discard(CUstream s, CUdeviceptr p, size_t count)
{
	struct discard *d = calloc(1, sizeof *d);
	struct mstate *st;
	CUresult r;

	if (!d)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory");
	cuemu_lock();
	view_flush_open();
	r = mg_check_range(p, count, &st, &d->s, &d->e);
	if (r == CUDA_SUCCESS)
		d->id = st->a->id;
	cuemu_unlock();
	if (r != CUDA_SUCCESS) {
		free(d);
		return r;
	}
	cuemu_event_log("discard", "alloc=%llu [0x%lx,0x%lx)",
			(unsigned long long)d->id, (unsigned long)d->s,
			(unsigned long)d->e);
	r = cuemu_stream_enqueue(s, discard_op, d);
	if (r != CUDA_SUCCESS)
		free(d);
	return r;
}
