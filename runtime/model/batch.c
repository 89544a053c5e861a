/*
 * batch.c - what a kernel's fault entries and accesses cost: the fault
 * service in batches (NVIDIA's UVM driver, uvm_gpu_replayable_faults.c:
 * fetch_fault_buffer_entries takes at most uvm_perf_fault_batch_count
 * entries a batch, service_fault_batch services them, each batch ending in
 * a replay), and the memory time of the bytes by where they are. Pure, so
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

uint64_t km_cost(const struct km_tally *t, const struct km_rates *r)
{
	double ns = (double)t->entries * (double)r->fault_ns +
		    (double)km_batches(t->entries, r->batch_faults) *
		    (double)r->batch_ns + (double)t->service_ns;

	for (int p = 0; p < CUEMU_NPROC; p = cuemu_proc_next(p))
		if (t->bytes[p] && r->gbps[p] > 0)
			ns += (double)t->bytes[p] / r->gbps[p];
	return ns < 1.8e19 ? (uint64_t)ns : UINT64_MAX / 2;
}

