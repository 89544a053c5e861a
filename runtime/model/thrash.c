/*
 * thrash.c - thrashing detection: a block that faults keep migrating is
 * pinned to the host and accessed remotely, as the real driver does
 * (NVIDIA's uvm_perf_thrashing.c), and each pinning is counted and logged.
 *
 * A block migrated by faults more than THRASH_MAX times within
 * THRASH_WINDOW_MS is thrashing, unless its preferred location is a GPU
 * (the seed: then it thrashes indefinitely). The count and its window live
 * in the range (struct mrange: moves, window_ms). The detector answers
 * PERF_EVENT_FAULT_MIGRATE with a pin; the mechanism (managed.c) moves the
 * block to the host and tells how many ranges it pinned in PERF_EVENT_FAULT.
 *
 * Locking: everything here runs under cuemu_lock().
 */
#include "model/perf.h"

#include <time.h>

#define THRASH_MAX 8
#define THRASH_WINDOW_MS 1000

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Counts the migration in the range's window; pins on too many. */
static void on_fault_migrate(enum perf_event ev, struct perf_data *d)
{
	struct mrange *r = d->fault_migrate.r;
	uint64_t t = now_ms();

	(void)ev;
	if (t - r->window_ms > THRASH_WINDOW_MS) {
		r->window_ms = t;
		r->moves = 0;
	}
	if (++r->moves <= THRASH_MAX ||
	    r->pref.type == CU_MEM_LOCATION_TYPE_DEVICE)
		return;
	d->fault_migrate.pin = true;
}

static void on_fault(enum perf_event ev, struct perf_data *d)
{
	(void)ev;
	if (!d->fault.pinned)
		return;
	mg_count(d->st, d->fault.proc, CUEMU_CTR_THRASH, d->fault.pinned);
	cuemu_event_log("thrash", "alloc=%llu [0x%lx,0x%lx) pinned to cpu",
			(unsigned long long)d->st->a->id,
			(unsigned long)d->fault.s, (unsigned long)d->fault.e);
}

__attribute__((constructor)) static void subscribe(void)
{
	perf_subscribe(PERF_EVENT_FAULT_MIGRATE, on_fault_migrate);
	perf_subscribe(PERF_EVENT_FAULT, on_fault);
}
