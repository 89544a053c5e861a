/*
 * cost.c - what moving bytes costs in model time on the machine's links and
 * copy engines: a copy between two processors, a copy by path (pinned,
 * pageable, peer, memset), the host's share of a pageable copy, a fault
 * and its migration; and the timing model's parameters (uvm.h). Every
 * figure is the topology's (machine.c holds the checked copy), so the same
 * workload costs each platform its own links.
 *
 * Locking: none; the topology never changes once the machine is attached.
 */
#include "model/internal.h"
#include "model/topology.h"
#include "model/uvm.h"

#include <pthread.h>

/* The timing model's parameters before there is a machine (a unit test of
 * a mechanism): the built-in ones. Global because cuemu_uvm() hands out a
 * pointer to them; written once. */
static struct cuemu_uvm uvm_builtin_params;

static void uvm_builtin(void)
{
	cuemu_uvm_default(&uvm_builtin_params);
}

const struct cuemu_uvm *cuemu_uvm(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	const struct cuemu_topology *t = cuemu_machine_topo();

	if (t)
		return &t->uvm;
	pthread_once(&once, uvm_builtin);
	return &uvm_builtin_params;
}

/* Nanoseconds to move bytes at gbps (GB/s is bytes per nanosecond),
 * saturated: a double past 2^64 converts to no defined integer. */
static uint64_t transfer_ns(size_t bytes, double gbps)
{
	double ns = (double)bytes / gbps;

	return ns < 1.8e19 ? (uint64_t)ns : UINT64_MAX / 2;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

uint64_t cuemu_copy_cost_ns(int from, int to, size_t bytes)
{
	const struct cuemu_link *l = cuemu_link(from, to);

	if (l->gbps <= 0)
		return 0;
	return add_sat(l->lat_ns, transfer_ns(bytes, l->gbps));
}

/* An operation of bytes at rate r. */
static uint64_t at_rate(const struct cuemu_rate *r, size_t bytes)
{
	uint64_t lat = bytes <= r->small_bytes ? r->small_lat_ns : r->lat_ns;

	if (r->gbps <= 0)
		return 0;
	return lat + (uint64_t)((double)bytes / r->gbps);
}

/* The rate of each path that the copy engines set (not a link's). */
static const int path_rate[] = {
	[CUEMU_PATH_PINNED_HTOD] = CUEMU_RATE_PINNED_HTOD,
	[CUEMU_PATH_PINNED_DTOH] = CUEMU_RATE_PINNED_DTOH,
	[CUEMU_PATH_PAGEABLE_HTOD] = CUEMU_RATE_PAGEABLE_HTOD,
	[CUEMU_PATH_PAGEABLE_DTOH] = CUEMU_RATE_PAGEABLE_DTOH,
	[CUEMU_PATH_DEVICE] = CUEMU_RATE_DEVICE,
	[CUEMU_PATH_MEMSET] = CUEMU_RATE_MEMSET,
};

uint64_t cuemu_path_cost_ns(enum cuemu_path path, int from, int to,
			    size_t bytes)
{
	const struct cuemu_topology *t = cuemu_machine_topo();
	const struct cuemu_link *l;

	if (!t)
		return 0;
	switch (path) {
	case CUEMU_PATH_HOST:
		return cuemu_copy_cost_ns(CUEMU_PROC_HOST, CUEMU_PROC_HOST,
					  bytes);
	case CUEMU_PATH_PEER:
		/* Without a link between them the driver stages the bytes
		 * through host memory: out of one GPU, into the other. */
		l = cuemu_link(from, to);
		if (l->kind && l->gbps > 0)
			return t->copy[CUEMU_RATE_PEER].gbps > 0
				? at_rate(&t->copy[CUEMU_RATE_PEER], bytes)
				: cuemu_copy_cost_ns(from, to, bytes);
		return at_rate(&t->copy[CUEMU_RATE_PINNED_DTOH], bytes) +
		       at_rate(&t->copy[CUEMU_RATE_PINNED_HTOD], bytes);
	default:
		return at_rate(&t->copy[path_rate[path]], bytes);
	}
}

bool cuemu_path_short(enum cuemu_path path, size_t bytes)
{
	const struct cuemu_topology *t = cuemu_machine_topo();

	/* the host's and the peers' paths take a link's rate, no short one */
	if (!t || path == CUEMU_PATH_HOST || path == CUEMU_PATH_PEER)
		return false;
	return bytes <= t->copy[path_rate[path]].small_bytes;
}

uint64_t cuemu_path_host_ns(enum cuemu_path path, size_t bytes)
{
	const struct cuemu_topology *t = cuemu_machine_topo();

	if (!t)
		return 0;
	if (path == CUEMU_PATH_PAGEABLE_HTOD)
		return at_rate(&t->copy[CUEMU_RATE_PAGEABLE_HTOD_HOST], bytes);
	if (path == CUEMU_PATH_PAGEABLE_DTOH)
		return at_rate(&t->copy[CUEMU_RATE_PAGEABLE_DTOH_HOST], bytes);
	return 0;
}

uint64_t cuemu_fault_latency_ns(void)
{
	const struct cuemu_topology *t = cuemu_machine_topo();

	return t ? t->gpu_fault_ns : 0;
}

uint64_t cuemu_fault_cost_ns(int from, int to, size_t bytes, size_t page_bytes)
{
	const struct cuemu_topology *t = cuemu_machine_topo();
	const struct cuemu_link *l = cuemu_link(from, to);
	uint64_t faults, per;

	if (!t || page_bytes == 0)
		return 0;
	faults = (bytes + page_bytes - 1) / page_bytes;
	per = to == CUEMU_PROC_HOST ? t->cpu_fault_ns : t->gpu_fault_ns;
	return add_sat(per && faults > UINT64_MAX / per ? UINT64_MAX : faults * per,
		       l->gbps > 0 ? transfer_ns(bytes, l->gbps) : 0);
}
