/*
 * batch.c - what a kernel's fault entries and accesses cost: the fault
 * service in batches (NVIDIA's UVM driver, uvm_gpu_replayable_faults.c:
 * fetch_fault_buffer_entries takes at most uvm_perf_fault_batch_count
 * entries a batch, service_fault_batch services them block by block, each
 * batch ending in a replay; a batch's writes to one block of
 * read-duplicated memory revoke its copies once), the memory time of the
 * bytes by where they are (a link's two directions and its rate of read
 * requests apart), the compute time of the instructions a kernel issued,
 * and its launch: a fixed time, and the SMs taking its blocks. Pure, so
 * that the test of the mechanism (test_uvm) checks it directly; kernel.c
 * keeps the tally.
 *
 * Locking: none.
 */
#include "model/managed.h"
#include "model/uvm.h"

#include <math.h>

uint64_t km_batches(uint64_t entries, uint32_t batch_faults)
{
	if (!batch_faults)
		batch_faults = 1;
	return (entries + batch_faults - 1) / batch_faults;
}

/* ns as a model time, saturated far below overflow. */
static uint64_t ns_of(double ns)
{
	return ns < 1.8e19 ? (uint64_t)ns : UINT64_MAX / 2;
}

uint64_t km_fault_ns(const struct km_tally *t, const struct km_rates *r)
{
	unsigned waves = !!(t->waves & KM_WAVE_READ) +
			 !!(t->waves & KM_WAVE_WRITE);

	return ns_of((double)waves * (double)r->wave_ns +
		     (double)t->entries * (double)r->fault_ns +
		     (double)km_batches(t->entries + t->upgrades,
					r->batch_faults) *
		     (double)r->batch_ns + (double)t->service_ns +
		     (double)t->rm_blocks * (double)r->rm_block_ns);
}

static double max_d(double a, double b)
{
	return a > b ? a : b;
}

/* The time of what crossed the link to place p: each direction at its
 * own rate, and the read requests at the rate the link serves them (a
 * read waits for its answer, and only so many can wait at once). */
static double link_ns(const struct km_tally *t, const struct km_rates *r,
		      int p)
{
	double ns = 0;

	if (r->read_gbps[p] > 0)
		ns = max_d(ns, (double)t->link_read[p] / r->read_gbps[p]);
	if (r->write_gbps[p] > 0)
		ns = max_d(ns, (double)t->link_written[p] / r->write_gbps[p]);
	if (r->mreq[p] > 0)
		ns = max_d(ns, (double)t->link_requests[p] * 1e3 / r->mreq[p]);
	return ns;
}

uint64_t km_dram_bytes(uint64_t dram, uint64_t compulsory, uint64_t distinct,
		       uint64_t l2_bytes)
{
	double spill;

	if (!compulsory || dram <= compulsory)
		return dram;
	if (distinct <= l2_bytes)
		return compulsory;
	spill = 1.0 - (double)l2_bytes / (double)distinct;
	return compulsory + ns_of((double)(dram - compulsory) * spill);
}

uint64_t km_dram_kept(uint64_t traffic, uint64_t dram, uint64_t compulsory,
		      uint64_t kept)
{
	double moved;

	if (!kept || !compulsory)
		return traffic;
	moved = (double)kept * (dram < compulsory ?
				(double)dram / (double)compulsory : 1.0);
	return (double)traffic > moved ? traffic - ns_of(moved) : 0;
}

/* The sectors a second the caches of the SMs t's blocks occupy serve:
 * cache_gbps is the whole GPU's, an SM's share of it its own, so a
 * kernel of few blocks has only their SMs' (CORR's last kernel, eight
 * blocks each storing to 32 lines a warp each step, moves its 22 MB of
 * sectors through eight SMs' caches). */
static double cache_rate(const struct km_tally *t, const struct km_rates *r,
			 double gbps)
{
	if (!t->cache_sms || !r->sms || t->cache_sms >= r->sms)
		return gbps;
	return gbps * (double)t->cache_sms / (double)r->sms;
}

/* The time t's sectors at its own GPU's memory take the caches: every
 * load sector passes its SM's L1 (l1_gbps), and what the L1 did not
 * serve, the L2: loads it missed and merged stores at cache_gbps, stores
 * to new lines at store_gbps, one after the other (the L2's slices take
 * both). The two overlap: on an H200 loads the L1 holds beside stores
 * take the stores' time (probes/results/l1rate.txt, mix_hit_st). A rate
 * of 0 is cache_gbps's, which then serves the L1's share too. */
static double cache_ns(const struct km_tally *t, const struct km_rates *r)
{
	double l2 = cache_rate(t, r, r->cache_gbps), l1_ns = 0;
	double hits = 0, news = (double)(t->cache_written - t->cache_merged);
	double l2_ns;

	if (r->l1_gbps > 0) {
		hits = (double)t->cache_l1;
		l1_ns = (double)t->cache_read / cache_rate(t, r, r->l1_gbps);
	}
	l2_ns = ((double)t->cache_read - hits + (double)t->cache_merged) / l2;
	if (r->store_gbps > 0)
		l2_ns += news / cache_rate(t, r, r->store_gbps);
	else
		l2_ns += news / l2;
	return max_d(l1_ns, l2_ns);
}

uint64_t km_memory_ns(const struct km_tally *t, const struct km_rates *r)
{
	double ns = 0;

	for (int p = 0; p < CUEMU_NPROC; p = cuemu_proc_next(p)) {
		/* the place's own memory: bytes of buffer at its rate */
		double buf = (double)t->bytes[p] +
			     ((double)t->link_read[p] +
			      (double)t->link_written[p]) / 2;
		double at = 0;

		if (buf > 0 && r->gbps[p] > 0)
			at = max_d(buf / r->gbps[p], link_ns(t, r, p));
		/* every sector at its own GPU's memory passes the caches
		 * of the SM that asked for it */
		if (p == t->cache_at && r->cache_gbps > 0 &&
		    (t->cache_read || t->cache_written))
			at = max_d(at, cache_ns(t, r));
		/* and its DRAM opens a row for each page it reached that the
		 * L2 did not keep: a sparse touch of many pages is bound by
		 * their count, not its bytes */
		if (p == t->cache_at && r->dram_pages_ns > 0)
			at = max_d(at, (double)t->dram_pages / r->dram_pages_ns);
		ns += at;
	}
	return ns_of(ns);
}

uint64_t km_compute_ns(const struct km_work *w, const struct km_rates *r)
{
	uint64_t sms, per_sm, issue;

	if (!w->warp_instructions || !r->sms || !r->issue || !r->clock_khz)
		return 0;
	/* A grid of fewer blocks than SMs leaves the rest idle; an SM
	 * issues for at most as many warps as it holds. */
	sms = cuemu_min_u(r->sms, cuemu_max_u(w->blocks, 1));
	per_sm = (cuemu_max_u(w->warps, 1) + sms - 1) / sms;
	issue = cuemu_min_u(r->issue, per_sm);
	/* clocks = instructions / (sms * issue); ns = clocks * 1e6 / kHz */
	return ns_of((double)w->warp_instructions / ((double)sms * issue) *
		     1e6 / (double)r->clock_khz);
}

uint64_t km_dispatch_ns(const struct km_work *w, const struct km_rates *r)
{
	uint64_t sms;

	if (!w->blocks || !r->sms)
		return 0;
	sms = cuemu_min_u(r->sms, w->blocks);
	return ns_of((double)((w->blocks + sms - 1) / sms) *
		     (double)r->block_ns);
}

uint64_t km_chain_ns(const struct km_work *w, const struct km_rates *r)
{
	double slots, cycles;

	if (!w->chain_max || !r->sms || !r->clock_khz)
		return 0;
	slots = (double)r->sms * (double)cuemu_max_u(w->resident, 1);
	cycles = (double)w->chain_sum / slots;
	if (cycles < (double)w->chain_max)
		cycles = (double)w->chain_max;
	return ns_of(cycles * 1e6 / (double)r->clock_khz);
}

uint64_t km_cost(const struct km_tally *t, const struct km_rates *r)
{
	uint64_t f = km_fault_ns(t, r), m = km_memory_ns(t, r);
	uint64_t busy = cuemu_max_u(cuemu_max_u(m, t->compute_ns),
				    cuemu_max_u(t->dispatch_ns, t->chain_ns));
	double ns = (double)t->launch_ns + (double)f + (double)busy;

	return ns_of(ns);
}
