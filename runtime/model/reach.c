/*
 * reach.c - the machine as the managed model's decisions see it: what a
 * processor maps and at what rate (mg_machine_reach, the topology's
 * links), what moving faulted pages between two costs
 * (km_fault_move_ns), and the model time of the access a thread is
 * resolving (mg_now). managed.c, kernel.c and thrash.c build on it; it
 * builds on the machine alone.
 *
 * Locking: none; the machine is fixed once the topology is read, and
 * the access's time is the thread's own.
 */
#include "model/managed.h"
#include "model/uvm.h"

/* A GPU maps the host's memory and an NVLink peer's; on a host without
 * coherence (the default machine) the CPU maps only its own, on a
 * hardware-coherent one every GPU's too. */
static bool machine_can_map(int proc, int loc)
{
	if (proc == loc || loc == CUEMU_PROC_HOST)
		return true;
	if (proc == CUEMU_PROC_HOST)
		return loc >= 0 && cuemu_machine_coherent();
	if (loc < 0)
		return false;
	return cuemu_link(loc, proc)->kind == 1;
}

static double machine_gbps(int from, int to)
{
	return cuemu_link(from, to)->gbps;
}

const struct mg_reach mg_machine_reach = { machine_can_map, machine_gbps };

/* The model time of the access being resolved on this thread: set by its
 * caller before mg_fault. Thread-local because each thread resolves its
 * own accesses. */
static __thread uint64_t tls_now;

void mg_set_now(uint64_t ns)
{
	tls_now = ns;
}

uint64_t mg_now(void)
{
	return tls_now;
}

uint64_t km_fault_move_ns(int from, int to, uint64_t bytes)
{
	const struct cuemu_link *l = cuemu_link(from, to);
	uint64_t pages = (bytes + UVM_PAGE - 1) / UVM_PAGE;
	uint64_t ns = l->gbps > 0 ? (uint64_t)((double)bytes / l->gbps) : 0;

	if (to == CUEMU_PROC_HOST)
		return cuemu_fault_cost_ns(from, to, bytes, UVM_PAGE);
	/* the pages leave the processor they were on: its mappings of
	 * them go (the host's page tables, or the source GPU's) */
	if (from == CUEMU_PROC_HOST)
		ns += pages * cuemu_uvm()->host_page_ns;
	else if (from != to)
		ns += pages * cuemu_uvm()->peer_page_ns;
	return ns;
}
