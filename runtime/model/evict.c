/*
 * evict.c - the eviction policy of managed memory under oversubscription:
 * the order of use (LRU) and the choice of what leaves a full GPU.
 *
 * Every range a fault or a prefetch uses gets a stamp of a process-wide
 * clock (PERF_EVENT_USE). When a device lacks room (PERF_EVENT_NO_ROOM from
 * the mechanism, or cuemu_mem_charge_evicting for memory that is not
 * managed), the least recently used 2 MiB blocks of this process's managed
 * memory on it (and of system-allocated memory, on a pageable machine) go
 * to the host, one at a time, until the bytes fit or
 * nothing is left to evict; managed.c's mg_evict moves each. Memory from
 * cuMemAlloc, pools and VMM is never evicted.
 *
 * Locking: everything here runs under cuemu_lock().
 */
#include "model/perf.h"

/* The clock of uses, for LRU order. Global because the order is across
 * every managed allocation of the process; cuemu_lock. */
static uint64_t use_clock;

static void on_use(enum perf_event ev, struct perf_data *d)
{
	(void)ev;
	d->use.r->lru = ++use_clock;
}

struct victim {
	int dev;
	struct mstate *skip;          /* the allocation being brought in */
	uintptr_t skip_s, skip_e;
	struct mstate *st;
	struct mrange *r;
};

static void find_victim(struct mstate *st, void *arg)
{
	struct victim *v = arg;
	struct mrange *r;

	for (r = mr_first(&st->ranges); r; r = mr_next(&st->ranges, r)) {
		if (!(r->holders & cuemu_mask_bit(v->dev)))
			continue;
		if (st == v->skip && r->start < v->skip_e && r->end > v->skip_s)
			continue;
		if (!v->r || r->lru < v->r->lru) {
			v->st = st;
			v->r = r;
		}
	}
}

/* Evicts least recently used 2 MiB blocks of managed memory from dev to
 * the host until bytes are free there or nothing is left to evict, sparing
 * [skip_s, skip_e) of skip. Returns the model cost. */
static uint64_t evict(int dev, uint64_t bytes, struct mstate *skip,
		      uintptr_t skip_s, uintptr_t skip_e)
{
	uint64_t total = cuemu_device(dev)->total, cost = 0;

	while (cuemu_mem_used(dev) + bytes > total) {
		struct victim v = { dev, skip, skip_s, skip_e, NULL, NULL };
		uintptr_t b0, b1;

		mg_each(find_victim, &v);
		if (!v.r)
			break;
		b0 = v.r->start;
		b1 = CUEMU_ALIGN_DOWN(b0, CUEMU_GRANULARITY) + CUEMU_GRANULARITY;
		if (b1 > v.r->end)
			b1 = v.r->end;
		if (!mg_evict(v.st, b0, b1, dev, &cost))
			break;
	}
	return cost;
}

/* A fault or a prefetch needs room on a GPU for what it brings in. */
static void make_room(enum perf_event ev, struct perf_data *d)
{
	(void)ev;
	d->no_room.cost += evict(d->no_room.dev, d->no_room.bytes, d->st,
				 d->no_room.s, d->no_room.e);
}

struct resident_sum {
	int dev;
	uint64_t bytes;
};

static void add_resident(struct mstate *st, void *arg)
{
	struct resident_sum *sum = arg;
	struct mrange *r;

	for (r = mr_first(&st->ranges); r; r = mr_next(&st->ranges, r))
		if (r->holders & cuemu_mask_bit(sum->dev))
			sum->bytes += r->end - r->start;
}

bool cuemu_mem_charge_evicting(int dev, uint64_t bytes)
{
	struct resident_sum sum = { dev, 0 };

	if (cuemu_mem_charge(dev, bytes))
		return true;
	if (!cuemu_device(dev))
		return false;
	/* A request that cannot fit even with all of our managed memory gone
	 * is refused as it stands: a refusal moves nothing. */
	mg_each(add_resident, &sum);
	if (cuemu_mem_used(dev) - sum.bytes + bytes > cuemu_device(dev)->total)
		return false;
	/* No stream pays for this eviction: the allocating call is synchronous
	 * and the real driver's cuMemAlloc does not report it either. */
	evict(dev, bytes, NULL, 0, 0);
	return cuemu_mem_charge(dev, bytes);
}

__attribute__((constructor)) static void subscribe(void)
{
	perf_subscribe(PERF_EVENT_USE, on_use);
	perf_subscribe(PERF_EVENT_NO_ROOM, make_room);
}
