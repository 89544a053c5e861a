/*
 * thrash.c - thrashing detection and mitigation, in model time, as
 * NVIDIA's UVM driver does them (uvm_perf_thrashing.c: thrashing_event_cb
 * counts migrations of a page that come within a lapse of the page's own
 * previous one; at the threshold thrashing is detected; get_hint_for_migration_
 * thrashing then pins at once where every thrashing processor can map the
 * preferred location or has fast access to the current residency, and
 * otherwise throttles the faulting processor for a nap, pinning after
 * enough throttles; a pin lapses after a while (thrashing_unpin_pages),
 * and a quiet epoch ends thrashing). The state lives in the range (struct
 * mrange: moves, throttles, thrash_ns, pin_until_ns, thrashers, and
 * pinned/pin_proc), never per page; the times are model times (mg_now),
 * so the outcome does not depend on how fast the emulator runs. The lapse
 * counts from thrash_first_ns, the earliest of the range's pages' last
 * migrations (range.c keeps the earliest when ranges merge), as the driver
 * stamps each page: two GPUs taking turns at a buffer a kernel migrates
 * block by block over more than a lapse move each page once a turn, a
 * turn apart, and the driver sees no thrashing there (two H200s kept
 * migrating 64 MiB every round, probes/results/patterns.txt).
 *
 * A pin that has lapsed ends at the next fault that uses the range
 * (PERF_EVENT_USE). The mechanism (managed.c) asks on
 * PERF_EVENT_FAULT_MIGRATE, carries out
 * the hint (a throttle costs the faulting processor a nap; a pin moves the
 * range to its pin location, mapped by the others), and reports the pins
 * in PERF_EVENT_FAULT, which this file counts (the thrash counter) and
 * logs.
 *
 * Locking: everything here runs under cuemu_lock().
 */
#include "model/perf.h"
#include "model/uvm.h"

/* Every thrashing processor can map loc. */
static bool all_reach(cuemu_procmask who, int loc, const struct mg_reach *reach)
{
	for (int p = cuemu_mask_next(who, 0); p >= 0;
	     p = cuemu_mask_next(who, p + 1))
		if ((who & cuemu_mask_bit(p)) && !reach->can_map(p, loc))
			return false;
	return true;
}

/* ... and over a fast link (NVLink): a GPU's peers. */
static bool all_fast(cuemu_procmask who, int loc, const struct mg_reach *reach)
{
	if (loc < 0 || loc == CUEMU_PROC_HOST)
		return false;
	for (int p = cuemu_mask_next(who, 0); p >= 0;
	     p = cuemu_mask_next(who, p + 1))
		if ((who & cuemu_mask_bit(p)) && p != loc &&
		    (p == CUEMU_PROC_HOST || !reach->can_map(p, loc)))
			return false;
	return true;
}

static void forget(struct mrange *r)
{
	r->moves = 0;
	r->throttles = 0;
	r->thrashers = 0;
	r->pinned = false;
	r->pin_proc = 0;
	r->pin_until_ns = 0;
}

/* Every page of r moves (or is counted as moving) at t. */
static void stamp(struct mrange *r, uint64_t t)
{
	r->thrash_ns = t;
	r->thrash_first_ns = t;
}

/* Where a thrashing range is pinned once it is: the preferred location
 * when every thrasher maps it; a GPU holding it that every thrasher
 * reaches over NVLink; the faulting processor when every thrasher maps
 * it; else the host, which every GPU maps. immediate: the first two, which
 * pin without throttling first. */
static int pin_where(const struct mrange *r, int proc,
		     const struct mg_reach *reach, bool *immediate)
{
	int pref = cuemu_loc_proc(r->pref);
	int at = (r->holders & cuemu_mask_bit(proc)) ? proc
					  : mg_closest(r->holders, proc, reach->gbps);

	*immediate = true;
	if (pref >= 0 && all_reach(r->thrashers, pref, reach))
		return pref;
	if (all_fast(r->thrashers, at, reach))
		return at;
	*immediate = false;
	if (all_reach(r->thrashers, proc, reach))
		return proc;
	return CUEMU_PROC_HOST;
}

struct thrash_out thrash_step(struct mrange *r, int proc, uint64_t now,
			      const struct cuemu_uvm *u,
			      const struct mg_reach *reach)
{
	struct thrash_out o = { .hint = THRASH_NONE };
	uint64_t lapse = u->thrash_lapse_ns, last = r->thrash_first_ns;
	bool immediate;
	int where;

	if (!u->thrash)
		return o;
	if (r->pinned) {
		if (u->thrash_pin && now >= r->pin_until_ns) {
			forget(r);
			o.unpinned = true;
		} else {
			o.hint = THRASH_PIN;
			o.pin_proc = r->pin_proc;
			return o;
		}
	}
	if (r->thrash_ns && now > r->thrash_ns &&
	    now - r->thrash_ns > (uint64_t)u->thrash_epoch * lapse)
		forget(r);
	/* A migration within a lapse of every page's last one is a
	 * thrashing event; one after a longer pause ends a detected
	 * episode. */
	if (last && (now <= last || now - last <= lapse) &&
	    (r->thrashers & ~cuemu_mask_bit(proc)))
		r->moves++;
	else if (last && now > last + lapse &&
		 r->moves >= u->thrash_threshold)
		forget(r);
	r->thrashers |= cuemu_mask_bit(proc);
	stamp(r, now);
	if (r->moves < u->thrash_threshold)
		return o;
	o.detected = r->moves == u->thrash_threshold && !r->throttles;
	where = pin_where(r, proc, reach, &immediate);
	if (!immediate && r->throttles < u->thrash_pin_threshold) {
		/* The faulting processor waits out the nap; the lapse to the
		 * next migration counts from its end. */
		r->throttles++;
		stamp(r, now + (uint64_t)u->thrash_nap * lapse);
		o.hint = THRASH_THROTTLE;
		return o;
	}
	r->pinned = true;
	r->pin_proc = where;
	r->pin_until_ns = now + (uint64_t)u->thrash_pin * lapse;
	o.hint = THRASH_PIN;
	o.pin_proc = where;
	return o;
}

/* The detector's answer to a fault about to migrate a range. */
static void on_fault_migrate(enum perf_event ev, struct perf_data *d)
{
	struct thrash_out o;

	(void)ev;
	o = thrash_step(d->fault_migrate.r, d->fault_migrate.proc,
			d->fault_migrate.now_ns, cuemu_uvm(), &mg_machine_reach);
	d->fault_migrate.hint = o.hint;
	d->fault_migrate.pin_proc = o.pin_proc;
	d->fault_migrate.unpinned = o.unpinned;
}

static void on_fault(enum perf_event ev, struct perf_data *d)
{
	char w[16], where[16];

	(void)ev;
	cuemu_proc_str(d->fault.proc, w, sizeof w);
	if (d->fault.unpinned)
		cuemu_event_log("thrash", "alloc=%llu [0x%lx,0x%lx) unpinned",
				(unsigned long long)d->st->a->id,
				(unsigned long)d->fault.s,
				(unsigned long)d->fault.e);
	if (d->fault.throttled)
		cuemu_event_log("thrash", "alloc=%llu [0x%lx,0x%lx) %s "
				"throttled %llu times",
				(unsigned long long)d->st->a->id,
				(unsigned long)d->fault.s,
				(unsigned long)d->fault.e, w,
				(unsigned long long)d->fault.throttled);
	if (!d->fault.pinned)
		return;
	mg_count(d->st, d->fault.proc, CUEMU_CTR_THRASH, d->fault.pinned);
	cuemu_event_log("thrash", "alloc=%llu [0x%lx,0x%lx) pinned to %s",
			(unsigned long long)d->st->a->id,
			(unsigned long)d->fault.s, (unsigned long)d->fault.e,
			cuemu_proc_str(d->fault.pin_proc, where, sizeof where));
}

/* A fault's use of a pinned range ends the pin once it has lapsed. */
static void on_use(enum perf_event ev, struct perf_data *d)
{
	(void)ev;
	if (d->use.fault &&
	    thrash_unpin_due(d->use.r, d->use.now_ns, cuemu_uvm()))
		d->use.unpinned = true;
}

__attribute__((constructor)) static void subscribe(void)
{
	perf_subscribe(PERF_EVENT_USE, on_use);
	perf_subscribe(PERF_EVENT_FAULT_MIGRATE, on_fault_migrate);
	perf_subscribe(PERF_EVENT_FAULT, on_fault);
}

bool thrash_unpin_due(struct mrange *r, uint64_t now, const struct cuemu_uvm *u)
{
	if (!r->pinned || !u->thrash_pin || now < r->pin_until_ns)
		return false;
	forget(r);
	stamp(r, now);
	return true;
}
