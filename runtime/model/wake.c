/*
 * wake.c - each GPU's idle state, as a kernel starting there pays it: the
 * curve of the wake against idle time (km_wake_ns, wake_due_ns: pure, so
 * test_uvm checks them directly) and, for the process's GPUs, when its
 * last kernel there ended and until when another GPU's work kept that
 * GPU's memory busy. A GPU whose SMs sat idle while a peer read its
 * memory wakes faster than one left alone (probes/idlepeer.cu): its
 * memory and the fabric stayed up, only the SMs slept.
 *
 * Locking: none. The state is read and moved by atomic loads and maxima
 * (kernels end under cuemu_lock(), copies run on their stream's thread
 * without it).
 */
#include "model/wake.h"
#include "model/internal.h"
#include "model/uvm.h"

#include <math.h>

uint64_t km_wake_ns(uint64_t idle_ns, const struct cuemu_uvm *u)
{
	double ns;

	if (!u->wake_decade_ns || idle_ns <= u->wake_after_ns)
		return 0;
	if (!u->wake_after_ns)
		return u->wake_max_ns;
	ns = (double)u->wake_decade_ns *
	     log2((double)idle_ns / (double)u->wake_after_ns) / log2(10.0);
	return ns >= (double)u->wake_max_ns ? u->wake_max_ns : (uint64_t)ns;
}

static uint64_t since(uint64_t start, uint64_t t)
{
	return start > t ? start - t : 0;
}

uint64_t wake_due_ns(const struct gpu_idle *g, uint64_t start,
		     const struct cuemu_uvm *u)
{
	uint64_t idle = g->ran ? since(start, g->since) : UINT64_MAX;
	uint64_t full = km_wake_ns(idle, u), kept;

	if (!g->mem_until || (g->ran && g->mem_until <= g->since))
		return full;
	/* The memory went quiet later than the SMs: what its own quiet
	 * costs, and a share of what the SMs' longer sleep adds. */
	kept = km_wake_ns(since(start, g->mem_until), u);
	if (kept >= full)
		return full;
	return kept + (uint64_t)((double)(full - kept) * u->wake_peer_share);
}

/* The process's GPUs by ordinal. Global because the GPUs are the
 * process's, as its kernels and copies see them. Each field moves only
 * forward, by atomic maximum: a reader may see one field's newer value
 * beside another's older, which prices one wake as of a moment earlier,
 * never as no moment was. */
static struct gpu_idle gpus[CUEMU_MAX_DEVICES];

static bool is_gpu(int dev)
{
	return dev >= 0 && dev < CUEMU_MAX_DEVICES;
}

static void raise_to(uint64_t *at, uint64_t v)
{
	uint64_t cur = __atomic_load_n(at, __ATOMIC_RELAXED);

	while (cur < v && !__atomic_compare_exchange_n(at, &cur, v, true,
						       __ATOMIC_RELAXED,
						       __ATOMIC_RELAXED))
		;
}

uint64_t wake_kernel_ns(int dev, uint64_t start)
{
	struct gpu_idle g;

	if (!is_gpu(dev))
		return 0;
	g.since = __atomic_load_n(&gpus[dev].since, __ATOMIC_ACQUIRE);
	g.ran = __atomic_load_n(&gpus[dev].ran, __ATOMIC_ACQUIRE);
	g.mem_until = __atomic_load_n(&gpus[dev].mem_until, __ATOMIC_ACQUIRE);
	return wake_due_ns(&g, start, cuemu_uvm());
}

/* The stalls are placed at the kernel's end: the wake tells no stall's
 * place in the kernel, and the kernels that stall long (a first touch of
 * managed memory) are stalls nearly whole. */
void wake_kernel_ended(int dev, uint64_t end, uint64_t stalled_ns)
{
	if (!is_gpu(dev))
		return;
	raise_to(&gpus[dev].since, end - cuemu_min_u(stalled_ns, end));
	__atomic_store_n(&gpus[dev].ran, true, __ATOMIC_RELEASE);
}

void wake_memory_busy(int dev, uint64_t until)
{
	if (is_gpu(dev))
		raise_to(&gpus[dev].mem_until, until);
}
