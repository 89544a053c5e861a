/*
 * batch.c - what a kernel's fault entries and accesses cost: the fault
 * service in batches (NVIDIA's UVM driver, uvm_gpu_replayable_faults.c:
 * fetch_fault_buffer_entries takes at most uvm_perf_fault_batch_count
 * entries a batch, service_fault_batch services them block by block, each
 * batch ending in a replay; a batch's writes to one block of
 * read-duplicated memory revoke its copies once), the memory time of the bytes by where they are, and the
 * compute time of the instructions a kernel issued. Pure, so
 * that the test of the mechanism (test_uvm) checks it directly; kernel.c
 * keeps the tally.
 *
 * Locking: none.
 */
#include "model/managed.h"

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
	return ns_of((double)t->entries * (double)r->fault_ns +
		     (double)km_batches(t->entries, r->batch_faults) *
		     (double)r->batch_ns + (double)t->service_ns +
		     (double)t->rm_blocks * (double)r->rm_block_ns);
}

uint64_t km_memory_ns(const struct km_tally *t, const struct km_rates *r)
{
	double ns = 0;

	for (int p = 0; p < CUEMU_NPROC; p = cuemu_proc_next(p))
		if (t->bytes[p] && r->gbps[p] > 0)
			ns += (double)t->bytes[p] / r->gbps[p];
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

uint64_t km_cost(const struct km_tally *t, const struct km_rates *r)
{
	uint64_t f = km_fault_ns(t, r), m = km_memory_ns(t, r);
	uint64_t busy = cuemu_max_u(m, t->compute_ns);

	return f + busy < f ? UINT64_MAX / 2 : f + busy;
}
