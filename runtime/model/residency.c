/*
 * residency.c - where a fault puts the pages it touches: the residency
 * decision in the order of NVIDIA's UVM driver (uvm_va_block.c,
 * block_select_processor_residency, with can_read_duplicate). Pure: it
 * reads one range of the range model and asks the caller who may map
 * what, so that every branch is tested on its own (test_uvm).
 *
 * Locking: none; the caller holds what guards the range.
 */
#include "model/managed.h"

/* The holder closest to proc: the one with the fastest link to it. */
int mg_closest(cuemu_procmask holders, int proc,
	       double (*gbps)(int from, int to))
{
	int best = -1, p;
	double bw = -1;

	for (p = 0; p < CUEMU_NPROC; p = cuemu_proc_next(p)) {
		if (!(holders & cuemu_mask_bit(p)) || p == proc)
			continue;
		if (gbps(p, proc) > bw) {
			bw = gbps(p, proc);
			best = p;
		}
	}
	return best;
}

static struct mg_choice choice(enum mg_act act, int to, enum mg_branch br)
{
	return (struct mg_choice){ .act = act, .to = to, .branch = br };
}

/* Populated at to, or migrated there from the holders. */
static struct mg_choice bring(const struct mrange *r, int to,
			      enum mg_branch br)
{
	if (!r->holders)
		return choice(MG_POPULATE, to, br);
	if (r->holders & cuemu_mask_bit(to))
		return choice(MG_NONE, to, br);
	return choice(MG_MIGRATE, to, br);
}

struct mg_choice mg_decide(const struct mrange *r, int proc, bool write,
			   const struct mg_reach *reach)
{
	int pref = cuemu_loc_proc(r->pref), at;

	/* Resident here: a read needs nothing; a write to a copy that is not
	 * the only one, or to read-mostly memory (mapped read-only), makes
	 * the copy the only one. */
	if (r->holders & cuemu_mask_bit(proc)) {
		if (write && (r->read_mostly || cuemu_mask_count(r->holders) > 1))
			return choice(MG_COLLAPSE, proc, MG_BR_READ_DUP);
		return choice(MG_NONE, proc, MG_BR_RESIDENT);
	}
	/* 1. Read duplication: a read makes a copy here; a write brings the
	 * pages here, the other copies dropped. */
	if (r->read_mostly) {
		if (!r->holders)
			return choice(MG_POPULATE, proc, MG_BR_READ_DUP);
		return choice(write ? MG_MIGRATE : MG_DUP, proc,
			      MG_BR_READ_DUP);
	}
	/* 1b. Hardware coherence: the CPU reads and writes the GPU's memory
	 * in place over the coherent link; nothing moves (the Guide's
	 * hardware-coherent paradigm, DIRECT_MANAGED_MEM_ACCESS_FROM_HOST). */
	if (proc == CUEMU_PROC_HOST && r->holders) {
		at = mg_closest(r->holders, proc, reach->gbps);
		if (at >= 0 && reach->can_map(proc, at))
			return choice(MG_REMOTE, at, MG_BR_COHERENT);
	}
	/* 2. The faulting processor is the preferred location: always here. */
	if (pref == proc)
		return bring(r, proc, MG_BR_PREFERRED);
	/* 3. Pinned by thrashing: the pin's location, mapped from here. */
	if (r->pinned && reach->can_map(proc, r->pin_proc)) {
		if (r->pin_proc == proc)
			return bring(r, proc, MG_BR_PIN);
		if (r->holders & cuemu_mask_bit(r->pin_proc))
			return choice(MG_REMOTE, r->pin_proc, MG_BR_PIN);
		return choice(MG_MIGRATE, r->pin_proc, MG_BR_PIN);
	}
	/* 4. Never populated: at the preferred location where this processor
	 * can map it, else here. */
	if (!r->holders) {
		if (pref >= 0 && reach->can_map(proc, pref))
			return choice(MG_POPULATE, pref, MG_BR_FIRST_TOUCH);
		return choice(MG_POPULATE, proc, MG_BR_FIRST_TOUCH);
	}
	at = mg_closest(r->holders, proc, reach->gbps);
	/* 5. Accessed by this processor: the pages stay, mapped from here. */
	if ((r->accessed_by & cuemu_mask_bit(proc)) && reach->can_map(proc, at))
		return choice(MG_REMOTE, at, MG_BR_ACCESSED_BY);
	/* 6. A preferred location this processor can map: the pages go there
	 * (if not there already) and are mapped from here. */
	if (pref >= 0 && reach->can_map(proc, pref)) {
		if (r->holders & cuemu_mask_bit(pref))
			return choice(MG_REMOTE, pref, MG_BR_TO_PREFERRED);
		return choice(MG_MIGRATE, pref, MG_BR_TO_PREFERRED);
	}
	/* 7. Otherwise they come here. */
	return choice(MG_MIGRATE, proc, MG_BR_TO_REQUESTER);
}
