/*
 * kernel.c - the kernel model: what an emulated kernel's memory accesses
 * cost in model time, one model for both ways of running one (an emulated
 * kernel of cuemuLaunchHostFunc, whose touches fault.c catches a 4 KiB
 * page at a time, and a declared footprint of cuemuAccess, walked here).
 *
 * A kernel's cost is the sum of
 *  - its fault entries: every 4 KiB page it touches that was not resident
 *    on its GPU when it started is one entry (the GPU's warps run at once,
 *    so each such page faults before the first batch is serviced, as
 *    NVIDIA's UVM driver sees them in uvm_gpu_replayable_faults.c), at
 *    fault_ns each, fetched and serviced batch_faults at a time, batch_ns a
 *    batch (fetch_fault_buffer_entries, service_fault_batch), and
 *    fault_wave_ns for each wave they come in: the fault interrupt wakes
 *    the servicing thread, which sleeps once the buffer is empty, and a
 *    kernel's writes fault after its reads' replay (KM_WAVE_*);
 *  - the migrations its faults make, each a 64 KiB big page grown by the
 *    prefetch heuristic inside its 2 MiB block (prefetch.c), where the
 *    residency decision (residency.c) sends them: the transfer, and for
 *    host pages their unmapping (reach.c's km_fault_move_ns);
 *  - writes to read-mostly memory, serviced a 4 KiB page at a time
 *    (rm_upgrade_ns where the writer holds a read-only copy, rm_migrate_ns
 *    where it brought one this kernel), or for a kernel the engine runs,
 *    whose warps' entries its lookups give, by the batches each 2 MiB
 *    block's entries fill (rm_block_ns, rm_entry), and thrashing
 *    throttles;
 *  - the longest of its memory time, by where the bytes are (its own HBM,
 *    a peer's over NVLink, host memory over the host link where it is
 *    mapped remotely: for a kernel the PTX engine ran, the 64-byte DRAM
 *    units its warps' sectors lie in in its own GPU's memory, no more
 *    than its distinct pages once where they fit in the L2 (rereads are
 *    the caches', km_dram_bytes), at least its sectors at the caches'
 *    rate, and what
 *    crosses a link elsewhere, each way and its read requests, where
 *    km_lookup found them; for the others, what their looks open), its
 *    compute time: the warp instructions a
 *    kernel the PTX engine ran issued, at the SMs' issue rate and clock
 *    (km_work; zero for an emulated kernel or a declared footprint, whose
 *    instructions nobody counts), and the SMs' time to take its blocks.
 *    The SMs issue while memory streams, so they overlap; fault service
 *    stalls all of them;
 *  - for a kernel the PTX engine ran, its launch's fixed time.
 *
 * An emulated kernel's looks open pages of its view (fault.c), and every
 * page opened on its own between closed ones is a mapping of its own in
 * the kernel's memory map, which holds vm.max_map_count (65530) at most: a
 * kernel touching every other page of 256 MiB would run out, its
 * protections would stop changing, and its next fault would be taken for
 * one that repeats for ever and passed on as SIGSEGV. So the kernel model
 * remembers what its looks at memory resident on its GPU charged (the
 * pages seen, and seen writable), and closes those looks again every
 * OPEN_MAX of them: a touch of a page seen is then opened again for
 * nothing, as if it had never been closed. Model time does not depend on
 * when the looks are closed.
 *
 * Locking: the running kernel's tally is the kernel thread's (kernels run
 * one at a time, under fault.c's kernel_lock); km_touch runs under
 * cuemu_lock, in the fault handler. A declared access keeps its tally on
 * the stack of the stream operation that runs it.
 */
#include "model/managed.h"
#include "model/spanset.h"
#include "model/uvm.h"
#include "model/wake.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* ------------------------------------------------------------------ */
/* Costs                                                               */

void km_rates_of(int dev, struct km_rates *r)
{
	const struct cuemu_uvm *u = cuemu_uvm();
	const struct cuemu_device_info *d;

	memset(r, 0, sizeof *r);
	r->batch_faults = u->batch_faults;
	r->batch_ns = u->batch_ns;
	r->fault_ns = u->fault_ns;
	r->wave_ns = u->fault_wave_ns;
	r->rm_block_ns = u->rm_block_ns;
	r->launch_ns = u->launch_ns;
	r->block_ns = u->block_launch_ns;
	for (int p = 0; p < CUEMU_NPROC; p = cuemu_proc_next(p)) {
		if (p == CUEMU_PROC_HOST) {
			r->gbps[p] = u->remote_host_gbps;
			r->read_gbps[p] = u->remote_host_read_gbps;
			r->write_gbps[p] = u->remote_host_write_gbps;
			r->mreq[p] = u->remote_host_read_mrps;
			continue;
		}
		r->gbps[p] = p != dev && u->remote_peer_gbps > 0
			? u->remote_peer_gbps : cuemu_link(p, dev)->gbps;
		/* a peer's link carries the rate each way at once */
		if (p != dev)
			r->read_gbps[p] = r->write_gbps[p] = r->gbps[p];
	}
	if ((d = cuemu_device(dev))) {
		r->sms = (uint32_t)d->attrs[CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT];
		r->clock_khz = (uint64_t)d->attrs[CU_DEVICE_ATTRIBUTE_CLOCK_RATE];
		r->issue = (uint32_t)d->warp_issue;
		if (d->attrs[CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE] > 0)
			r->l2_bytes = (uint64_t)
				d->attrs[CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE];
	}
	r->cache_gbps = u->cache_gbps;
	r->l1_gbps = u->l1_gbps;
	r->store_gbps = u->store_gbps;
	r->dram_pages_ns = u->dram_page_mps / 1e3;
}

/* ns at a clock of khz, in whole cycles (at least one where ns is not
 * 0) */
static uint32_t cycles_of(double ns, uint64_t khz)
{
	double c = ns * (double)khz / 1e6;

	if (ns <= 0)
		return 0;
	return c < 1 ? 1 : c > 1e9 ? 1000000000u : (uint32_t)(c + 0.5);
}

void km_latency_of(int dev, struct km_latency *l)
{
	const struct cuemu_uvm *u = cuemu_uvm();
	const struct cuemu_device_info *d = cuemu_device(dev);
	uint64_t khz = d ? (uint64_t)d->attrs[CU_DEVICE_ATTRIBUTE_CLOCK_RATE]
			 : 0;

	l->alu = cycles_of(u->alu_latency_ns, khz);
	l->l1 = cycles_of(u->l1_latency_ns, khz);
	l->load = cycles_of(u->load_latency_ns, khz);
	l->dram = cycles_of(u->dram_latency_ns, khz);
	l->l1_bytes = u->l1_bytes;
	l->l2_bytes = u->l2_hold_bytes;
}

/* ------------------------------------------------------------------ */
/* A kernel's tally                                                    */

/* Looks at resident memory a kernel keeps open before it closes them
 * again: at most two mappings each, so that a kernel adds at most some
 * 8,000 to the process's memory map. */
#define OPEN_MAX 4096

/* A 2 MiB block's write entries to read-duplicated memory in a kernel. */
struct rmblk {
	uintptr_t block;
	uint64_t entries;
};

struct kmodel {
	int dev;
	uint64_t start;
	struct km_tally t;
	struct spans mig;  /* what its faults brought to its GPU: touches
	                    * there are fault entries too */
	struct spans seen; /* resident pages its looks charged */
	struct spans seen_w; /* ... and opened writable */
	struct span *open; /* looks at resident memory open since the last
	                    * closing (emulated kernels only) */
	size_t nopen;
	uintptr_t cs, ce;  /* a look opens nothing outside (a declared
	                    * footprint's bounds); 0, 0: no bound */
	uintptr_t last;    /* the page of the last look a page at a time */
	bool sectors;      /* the engine counts the sectors it moves
	                    * (km_work): its looks charge no bytes, and
	                    * its warps' lookups give its write entries to
	                    * read-duplicated memory (rm_entry) */
	struct rmblk *rm;  /* those entries by 2 MiB block, sorted */
	size_t nrm, caprm;
	struct spans ups;  /* pages its writes upgraded from a read-only
	                    * mapping (struct mrange.ro): an entry each */
	cuemu_procmask served; /* who held what its faults brought */
};

/* The running emulated kernel (one a process at a time, fault.c's
 * kernel_lock). Global because the fault handler finds it. */
static struct kmodel running;

/* k's fault of a read or a write: the wave it comes in (KM_WAVE_*). */
static void fault_wave(struct kmodel *k, bool write)
{
	k->t.waves |= write ? KM_WAVE_WRITE : KM_WAVE_READ;
}

static bool mig_has(const struct kmodel *k, uintptr_t p)
{
	return spans_has(&k->mig, p);
}

static void mig_add(struct kmodel *k, uintptr_t s, uintptr_t e)
{
	spans_add(&k->mig, s, e);
}

/* A warp's write to page p its GPU alone holds through a read-only
 * mapping a read duplication left (struct mrange.ro): a fault entry that
 * only upgrades the mapping; the page is writable from then on. */
static void upgrade_entry(struct kmodel *k, uintptr_t p)
{
	fault_wave(k, true);
	k->t.upgrades++;
	spans_add(&k->ups, p, p + UVM_PAGE);
}

/* Lock held: the pages the running kernel's writes upgraded are mapped
 * writable from now on. By 2 MiB block, so that a write a page leaves no
 * range a page: the block's other pages, which the GPU still maps
 * read-only, are taken as upgraded too. */
static void upgrades_done(struct kmodel *k)
{
	for (size_t i = 0; i < k->ups.n; i++)
		mg_write_upgraded(CUEMU_ALIGN_DOWN(k->ups.v[i].s, UVM_BLOCK),
				  CUEMU_ALIGN_UP(k->ups.v[i].e, UVM_BLOCK),
				  k->dev);
}

static void kmodel_free(struct kmodel *k)
{
	free(k->mig.v);
	free(k->seen.v);
	free(k->seen_w.v);
	free(k->open);
	free(k->rm);
	free(k->ups.v);
	memset(k, 0, sizeof *k);
}

/* Bytes a look at memory at processor at stands for, where nothing
 * counts them better: a kernel the engine runs has its sectors counted
 * where they are (km_work), an emulated kernel's or a declared
 * footprint's bytes are what its looks open. */
static void charge(struct kmodel *k, int at, uint64_t bytes)
{
	if (!k->sectors)
		k->t.bytes[at] += bytes;
}

static uint64_t k_now(const struct kmodel *k)
{
	struct km_rates r;

	km_rates_of(k->dev, &r);
	return k->start + km_cost(&k->t, &r);
}

/* Starts the kernel model of a kernel on dev whose stream is at model
 * time now (the emulated kernel's thread; kernels run one at a time). */
static void km_begin(int dev, uint64_t now)
{
	kmodel_free(&running);
	running.dev = dev;
	running.start = now;
}

/* The wake the running kernel pays, if it is one whose launch is priced
 * (a kernel the engine runs; wake.c). */
static uint64_t running_wake(void)
{
	if (!running.t.launch_ns)
		return 0;
	return wake_kernel_ns(running.dev, running.start);
}

/* The other GPUs whose memory the running kernel used: read or written
 * over a link, or the source of what its faults brought. */
static cuemu_procmask peers_used(const struct kmodel *k)
{
	cuemu_procmask m = k->served;

	for (int p = 0; p < CUEMU_MAX_DEVICES; p = cuemu_proc_next(p))
		if (k->t.bytes[p] || k->t.link_read[p] || k->t.link_written[p])
			m |= cuemu_mask_bit(p);
	return m & ~cuemu_mask_bit(k->dev) & ~cuemu_mask_bit(CUEMU_PROC_HOST);
}

/* Ends it: the kernel's model time. */
static uint64_t km_end(void)
{
	struct km_rates r;
	cuemu_procmask peers;
	uint64_t ns;
	int d = running.dev;

	running.t.launch_ns += running_wake();
	km_rates_of(d, &r);
	ns = km_cost(&running.t, &r);
	wake_kernel_ended(d, running.start + ns, km_fault_ns(&running.t, &r));
	peers = peers_used(&running);
	for (int p = cuemu_mask_next(peers, 0); p >= 0;
	     p = cuemu_mask_next(peers, p + 1))
		wake_memory_busy(p, running.start + ns);
	/* Faults a peer GPU served kept this GPU's side of the fabric busy
	 * too, as a peer's reads keep it (patterns.cu on two H200s: the
	 * kernel after gpu1's read-duplicating faults from gpu0 took 4 us
	 * more than gpu0's own read, where one after faults from the host
	 * took 16 to 35 more). */
	if (running.served & peers)
		wake_memory_busy(d, running.start + ns);
	upgrades_done(&running);
	kmodel_free(&running);
	return ns;
}

/* The engine's account of the running kernel: its launch, its compute
 * term, and what it read and wrote where nothing faults. Its GPU's own
 * memory is priced by what the DRAM moves, 64 bytes at a time, as bytes
 * of buffer (a rate is bytes read and written a second: traffic at twice
 * that); memory elsewhere by what crosses the link to it, the sectors each
 * way and the read requests. */
void km_work(const struct km_work *w)
{
	struct km_rates r;

	km_rates_of(running.dev, &r);
	running.t.compute_ns = km_compute_ns(w, &r);
	running.t.dispatch_ns = km_dispatch_ns(w, &r);
	running.t.chain_ns = km_chain_ns(w, &r);
	/* a graph's kernel node starts behind the one before it without a
	 * launch of its own (probes/results/graph-time.txt) */
	running.t.launch_ns = w->graph_node ? cuemu_uvm()->graph_node_ns :
			      r.launch_ns;
	/* the grids it launched from the device run after it */
	running.t.launch_ns += w->device_launch_ns;
	for (int p = 0; p < CUEMU_NPROC; p = cuemu_proc_next(p)) {
		if (p == running.dev) {
			uint64_t dram = km_dram_bytes(w->dram[p], w->compulsory,
						      w->distinct, r.l2_bytes);

			dram = km_dram_kept(dram, w->dram[p], w->compulsory,
					    w->kept);

			running.t.bytes[p] += (dram + 1) / 2;
			running.t.cache_read += w->read[p];
			running.t.cache_l1 += w->l1_read[p];
			running.t.cache_written += w->written[p];
			running.t.cache_merged += w->merged[p];
			running.t.cache_at = p;
			running.t.cache_sms = cuemu_min_u(r.sms, w->blocks);
			running.t.dram_pages += w->dram_pages;
			continue;
		}
		running.t.link_read[p] += w->read[p];
		running.t.link_written[p] += w->written[p];
		running.t.link_requests[p] += w->requests[p];
	}
}

/* The entry of block b among k's, added where absent; NULL without room
 * for it. */
static struct rmblk *rm_block(struct kmodel *k, uintptr_t b)
{
	size_t lo = 0, hi = k->nrm;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->rm[mid].block < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < k->nrm && k->rm[lo].block == b)
		return &k->rm[lo];
	if (k->nrm == k->caprm) {
		size_t cap = k->caprm ? 2 * k->caprm : 64;
		struct rmblk *v = realloc(k->rm, cap * sizeof *v);

		if (!v)
			return NULL;
		k->rm = v;
		k->caprm = cap;
	}
	memmove(&k->rm[lo + 1], &k->rm[lo], (k->nrm - lo) * sizeof *k->rm);
	k->nrm++;
	k->rm[lo] = (struct rmblk){ b, 0 };
	return &k->rm[lo];
}

/* A warp's write to read-duplicated page p that its GPU holds a copy of:
 * an entry of the fault buffer, each warp's its own (the warps fault
 * before the first is serviced). The driver services a batch's faults
 * block by block (service_fault_batch_block), revoking the other copies
 * of a block once for all its faults in the batch: so a block's entries
 * cost rm_block_ns for each batch they fill, whatever pages they are. A
 * block's entries counted without room for its record take batches of
 * their own. */
static void rm_entry(struct kmodel *k, uintptr_t p)
{
	uint64_t bf = cuemu_max_u(cuemu_uvm()->batch_faults, 1);
	struct rmblk *b = rm_block(k, CUEMU_ALIGN_DOWN(p, UVM_BLOCK));

	fault_wave(k, true);
	if (!b || b->entries++ % bf == 0)
		k->t.rm_blocks++;
}

/* The running kernel is the engine's, which counts the sectors it moves
 * and gives them to km_work: its looks charge no bytes of their own. */
static void km_sectors_counted(void)
{
	running.sectors = true;
}

int km_lookup(uintptr_t p, int dev, bool write, bool *own_entry)
{
	struct mstate *st = mg_find(p);
	struct mrange *r = st ? mr_find(&st->ranges, p) : NULL;
	struct mg_choice ch;

	*own_entry = false;
	if (!r)
		return dev;
	if (r->holders & cuemu_mask_bit(dev)) {
		bool ours = write && running.sectors && running.dev == dev;
		uintptr_t pg = CUEMU_ALIGN_DOWN(p, UVM_PAGE);

		if (ours && (r->read_mostly ||
			     cuemu_mask_count(r->holders) > 1) &&
		    !mig_has(&running, pg)) {
			rm_entry(&running, p);
			*own_entry = true;
		} else if (ours && (r->ro & cuemu_mask_bit(dev)) &&
			   !spans_has(&running.ups, pg)) {
			upgrade_entry(&running, pg);
			*own_entry = true;
		}
		return dev;
	}
	ch = mg_decide(r, dev, write, &mg_machine_reach);
	return ch.to >= 0 && ch.to < CUEMU_NPROC ? ch.to : dev;
}

/* The running kernel's fault service alone: no memory or compute time. */
static uint64_t km_running_fault_ns(void)
{
	struct km_rates r;

	km_rates_of(running.dev, &r);
	return km_fault_ns(&running.t, &r);
}

/* ------------------------------------------------------------------ */
/* Resolving a kernel's access                                         */

/* The part of r's 2 MiB block around p: what one look at resident or
 * remote memory opens. */
static void block_run(const struct kmodel *k, const struct mrange *r,
		      uintptr_t p, uintptr_t *s, uintptr_t *e)
{
	uintptr_t b = CUEMU_ALIGN_DOWN(p, UVM_BLOCK);

	*s = cuemu_max_u(b, r->start);
	*e = cuemu_min_u(b + UVM_BLOCK, r->end);
	if (k->ce) {
		*s = cuemu_max_u(*s, k->cs);
		*e = cuemu_min_u(*e, k->ce);
	}
}

/* A fault at p that brings pages: the region the driver brings, resolved
 * as one fault. Returns the model cost; [*s, *e) is what it covered. */
static uint64_t fault_region(struct mstate *st, struct mrange *r, uintptr_t p,
			     int dev, int dest, bool write, uintptr_t *s,
			     uintptr_t *e)
{
	uint64_t cost = 0;
	bool remote;

	pf_fault_region(&st->ranges, r, p, dest, s, e);
	mg_fault(st, *s, *e, dev, write, 1, &cost, &remote);
	return cost;
}

/* Access counters (off where the host has no ATS): a kernel's remote
 * access of at least threshold accesses (32-byte sectors) to a granule
 * moves the granule to the accessing GPU, unless its preferred location
 * or a thrashing pin keeps it away. */
static uint64_t access_counted(struct mstate *st, int pref, bool pinned,
			       uintptr_t s, uintptr_t e, int dev)
{
	const struct cuemu_uvm *u = cuemu_uvm();
	uintptr_t g0, g1;

	if (!u->access_counters || pinned || (pref >= 0 && pref != dev) ||
	    (e - s) / 32 < u->ac_threshold)
		return 0;
	g0 = cuemu_max_u(CUEMU_ALIGN_DOWN(s, u->ac_granularity), st->a->base);
	g1 = cuemu_min_u(g0 + u->ac_granularity, st->a->base + st->a->span);
	return mg_migrate_to(st, g0, g1, dev, "access counters");
}

/* What a look at an access opens: [s, e), which the kernel may touch from
 * then on without another look, with prot. */
struct look {
	uintptr_t s, e;
	int prot;
};

static int local_prot(const struct mrange *r, bool write)
{
	if (write || (!r->read_mostly && cuemu_mask_count(r->holders) < 2))
		return PROT_READ | PROT_WRITE;
	return PROT_READ;
}

/* A look a page at a time (pages this kernel's faults brought, writes
 * to read-only copies): the kernel touched page. When its look before was
 * the page before, in the same 64 KiB big page, it walks densely: the rest
 * of the big page (up to lim) counts as touched and opens at once, so
 * that a dense walk takes two looks a big page rather than sixteen, and a
 * walk of one touch every 4 KiB still tells from one every 64 KiB. Returns
 * the pages the look stands for; [*s, *e) is what it opens. */
static uint64_t walk(struct kmodel *k, uintptr_t page, uintptr_t lim,
		     uintptr_t *s, uintptr_t *e)
{
	uintptr_t b = CUEMU_ALIGN_DOWN(page, UVM_BIG_PAGE);
	uintptr_t be = cuemu_min_u(b + UVM_BIG_PAGE, lim);

	*s = page;
	*e = page + UVM_PAGE;
	if (page > b && k->last + UVM_PAGE == page && be > page) {
		*e = be;
		if (k->ce)
			*e = cuemu_min_u(*e,
					 cuemu_max_u(k->ce, page + UVM_PAGE));
	}
	k->last = *e - UVM_PAGE;
	return (*e - *s) / UVM_PAGE;
}

static uintptr_t mig_end(const struct kmodel *k, uintptr_t p)
{
	size_t i = spans_floor(&k->mig, p);

	return i > 0 && p < k->mig.v[i - 1].e ? k->mig.v[i - 1].e
					      : p + UVM_PAGE;
}

/* dev holds r: a local access, or a write to a read-only copy. */
static struct look touch_resident(struct kmodel *k, struct mstate *st,
				  struct mrange *r, uintptr_t p, bool write)
{
	const struct cuemu_uvm *u = cuemu_uvm();
	uintptr_t page = CUEMU_ALIGN_DOWN(p, UVM_PAGE), s, e;
	uint64_t cost = 0;
	bool remote, mine = mig_has(k, page);

	uint64_t n;

	if (write && (r->read_mostly || cuemu_mask_count(r->holders) > 1)) {
		/* Read duplication collapses: a page at a time, or where the
		 * engine gives its warps' entries (km_lookup), by the
		 * batches of each block. */
		n = walk(k, page, mine ? cuemu_min_u(r->end, mig_end(k, page))
				       : r->end, &s, &e);
		mg_fault(st, s, e, k->dev, true, n, &cost, &remote);
		fault_wave(k, true);
		k->t.service_ns += cost + n * (mine ? u->rm_migrate_ns :
					       k->sectors ? 0 : u->rm_upgrade_ns);
		charge(k, k->dev, e - s);
		return (struct look){ s, e, PROT_READ | PROT_WRITE };
	}
	if (mine) {
		/* Brought by this kernel's faults: its warps faulted here too. */
		int prot = local_prot(r, write);

		n = walk(k, page, cuemu_min_u(r->end, mig_end(k, page)),
			 &s, &e);
		k->t.entries += n;
		mg_count(st, k->dev, CUEMU_CTR_GPU_FAULTS, n);
		charge(k, k->dev, e - s);
		return (struct look){ s, e, prot };
	}
	block_run(k, r, p, &s, &e);
	if (spans_overlap(&k->mig, s, e) || k->mig.oom) {
		s = page;
		e = page + UVM_PAGE;
	}
	charge(k, k->dev, e - s);
	return (struct look){ s, e, local_prot(r, write) };
}

static void maps_fn(struct mrange *r, void *arg)
{
	r->maps |= cuemu_mask_bit(*(const int *)arg);
}

/* Remote: the bytes are read where they are. A GPU that accessed_by
 * does not map is mapped by its fault, a 2 MiB block at a time; a
 * peer's memory (not the host's: probes/results/faults.txt, a stream
 * preferring the CPU as fast with accessed_by as without) costs the
 * peer mapping's uvm.peer_map_ns beside the entry, and the mapping stays
 * until the pages move (struct mrange.maps). A thrashing pin's mapping
 * lasts the pin, which thrash.c times. */
static struct look touch_remote(struct kmodel *k, struct mstate *st,
				struct mrange *r, uintptr_t p, bool write,
				int at)
{
	uintptr_t s, e;
	uint64_t cost = 0;
	bool remote, mapped = (r->accessed_by | r->maps) &
			      cuemu_mask_bit(k->dev);
	int pref = cuemu_loc_proc(r->pref);
	bool pinned = r->pinned;

	block_run(k, r, p, &s, &e);
	mg_fault(st, s, e, k->dev, write, mapped ? 0 : 1, &cost, &remote);
	if (!mapped) {
		k->t.entries++;
		fault_wave(k, write);
		if (at != CUEMU_PROC_HOST && !pinned)
			k->t.service_ns += cuemu_uvm()->peer_map_ns;
	}
	k->t.service_ns += cost;
	charge(k, at, e - s);
	k->t.service_ns += access_counted(st, pref, pinned, s, e, k->dev);
	/* out of memory to split: the next kernel faults here again */
	if (!mapped && !pinned)
		(void)mg_update(st, s, e, maps_fn, &k->dev);
	return (struct look){ s, e, PROT_READ | PROT_WRITE };
}

static struct look touch(struct kmodel *k, struct mstate *st, uintptr_t p,
			 bool write)
{
	const struct cuemu_uvm *u = cuemu_uvm();
	struct mrange *r = mr_find(&st->ranges, p);
	uintptr_t page = CUEMU_ALIGN_DOWN(p, UVM_PAGE), s, e;
	struct mg_choice ch;
	uint64_t cost = 0;
	bool remote;

	mg_set_now(k_now(k));
	if (r->holders & cuemu_mask_bit(k->dev))
		return touch_resident(k, st, r, p, write);
	k->served |= r->holders;
	ch = mg_decide(r, k->dev, write, &mg_machine_reach);
	if (ch.act == MG_REMOTE)
		return touch_remote(k, st, r, p, write, ch.to);
	if (r->read_mostly && write) {
		/* A write where read duplication is on: a page at a time. */
		uint64_t n = walk(k, page, r->end, &s, &e);

		mg_fault(st, s, e, k->dev, true, n, &cost, &remote);
		k->t.service_ns += cost + n * u->rm_migrate_ns;
		k->t.entries += n;
		fault_wave(k, true);
		mig_add(k, s, e);
		charge(k, k->dev, e - s);
		return (struct look){ s, e, PROT_READ | PROT_WRITE };
	}
	k->t.service_ns += fault_region(st, r, p, k->dev, ch.to, write, &s, &e);
	k->t.entries++;
	fault_wave(k, write);
	r = mr_find(&st->ranges, p);
	if (!(r->holders & cuemu_mask_bit(k->dev))) {
		/* Brought elsewhere (the preferred location, a pin, no room):
		 * mapped from here. */
		int at = mg_closest(r->holders, k->dev, mg_machine_reach.gbps);

		block_run(k, r, p, &s, &e);
		charge(k, at < 0 ? CUEMU_PROC_HOST : at, e - s);
		return (struct look){ s, e, PROT_READ | PROT_WRITE };
	}
	mig_add(k, s, e);
	charge(k, k->dev, UVM_PAGE);
	k->last = page;
	return (struct look){ page, page + UVM_PAGE, local_prot(r, write) };
}

/* Clips [*s, *e) to the span of x holding p. */
static void clip_to_span(const struct spans *x, uintptr_t p, uintptr_t *s,
			 uintptr_t *e)
{
	size_t i = spans_floor(x, p);

	*s = cuemu_max_u(*s, x->v[i - 1].s);
	*e = cuemu_min_u(*e, x->v[i - 1].e);
}

/* A touch of a page this kernel's looks charged already, closed again
 * since (close_open): opened as that look left it, for nothing, as if it
 * had never been closed, with the run of its 2 MiB block and range the
 * looks charged around it (as prot allows): a kernel whose pages outnumber
 * the looks kept open (OPEN_MAX) would otherwise fault on every page of
 * every pass again (UVMBench's COVAR walks 4,100 pages of one array for
 * each column of another). Only while the page is still resident here
 * and, for a write, this GPU's alone: what moved it away since is a fault
 * again. false: not such a touch. */
static bool seen_again(const struct kmodel *k, struct mstate *st,
		       uintptr_t p, bool write, struct look *l)
{
	uintptr_t page = CUEMU_ALIGN_DOWN(p, UVM_PAGE), s, e;
	struct mrange *r = mr_find(&st->ranges, page);
	bool w;

	if (!r || !(r->holders & cuemu_mask_bit(k->dev)) ||
	    !spans_has(&k->seen, page))
		return false;
	/* Writable as the look left it while no copy was made since. */
	w = spans_has(&k->seen_w, page) &&
	    r->holders == cuemu_mask_bit(k->dev);
	if (write && !w)
		return false;
	/* one range holds its pages alike: their protection is one */
	s = cuemu_max_u(CUEMU_ALIGN_DOWN(page, UVM_BLOCK), r->start);
	e = cuemu_min_u(CUEMU_ALIGN_DOWN(page, UVM_BLOCK) + UVM_BLOCK, r->end);
	clip_to_span(&k->seen, page, &s, &e);
	if (w)
		clip_to_span(&k->seen_w, page, &s, &e);
	*l = (struct look){ s, e, w ? PROT_READ | PROT_WRITE : PROT_READ };
	return true;
}

/* Closes the looks open since the last closing: the kernel's view of
 * them is the model's again (every page closed), and its memory map
 * shrinks back to what the model's ranges make it. */
static void close_open(struct kmodel *k)
{
	for (size_t i = 0; i < k->nopen; i++) {
		struct mstate *st = mg_find(k->open[i].s);

		if (st)
			view_apply(st, k->open[i].s, k->open[i].e);
	}
	k->nopen = 0;
}

/* Keeps [s, e) among the looks open, closing them all first when there
 * are OPEN_MAX. Without room for the list, nothing is closed. */
static void note_open(struct kmodel *k, uintptr_t s, uintptr_t e)
{
	if (!k->open && !(k->open = malloc(OPEN_MAX * sizeof *k->open)))
		k->seen.oom = true;
	if (k->seen.oom || k->seen_w.oom)
		return;
	if (k->nopen == OPEN_MAX)
		close_open(k);
	k->open[k->nopen++] = (struct span){ s, e };
}

/* Notes what look l at st charged, where it left memory resident on the
 * kernel's GPU, so that it can be closed and opened again for nothing. A
 * set that could not grow stops the closing: the looks it misses would be
 * charged again. */
static void remember(struct kmodel *k, struct mstate *st,
		     const struct look *l)
{
	struct mrange *r = mr_find(&st->ranges, l->s);

	if (l->s >= l->e || !r || !(r->holders & cuemu_mask_bit(k->dev)))
		return;
	spans_add(&k->seen, l->s, l->e);
	if (l->prot & PROT_WRITE)
		spans_add(&k->seen_w, l->s, l->e);
	note_open(k, l->s, l->e);
}

/* An emulated kernel's touch of addr (a page it had not touched yet):
 * resolves it as the GPU's fault or access, and says what to open
 * (managed.c's resolver hands it a GPU's faults: mg_set_kernel_touch). */
static bool km_touch(struct mstate *st, uintptr_t addr, int dev,
		     bool was_write, struct fault_done *out)
{
	struct look l;

	if (running.dev != dev) {
		bool sectors = running.sectors;

		km_begin(dev, running.start);
		running.sectors = sectors;
	}
	if (seen_again(&running, st, addr, was_write, &l)) {
		note_open(&running, l.s, l.e);
	} else {
		l = touch(&running, st, addr, was_write);
		remember(&running, st, &l);
	}
	out->st = st;
	out->s = l.s;
	out->e = l.e;
	out->prot = l.prot;
	out->remote = false;
	out->cost = 0;
	return true;
}

/* ------------------------------------------------------------------ */
/* Declared accesses (cuemuAccess)                                     */

/* A write where read duplication is on, declared over [p, x) of one
 * range: the driver's page-at-a-time service, charged for every page at
 * once. */
static void declared_rm_write(struct kmodel *k, struct mstate *st,
			      struct mrange *q, uintptr_t p, uintptr_t x)
{
	const struct cuemu_uvm *u = cuemu_uvm();
	uint64_t pages = (x - p) / UVM_PAGE, cost = 0;
	bool remote, held = q->holders & cuemu_mask_bit(k->dev);

	mg_fault(st, p, x, k->dev, true, pages, &cost, &remote);
	k->t.service_ns += cost + pages * (held && !mig_has(k, p) ?
					   u->rm_upgrade_ns : u->rm_migrate_ns);
	if (!held)
		k->t.entries += pages;
	fault_wave(k, true);
	charge(k, k->dev, x - p);
}

/* A declared footprint is a kernel walking [s, e) of st: every page is
 * touched, in order, each look resolved as the emulated kernel's touch of
 * it would be. Returns the kernel's model time. */
static uint64_t declared(struct mstate *st, uintptr_t s, uintptr_t e,
			 int dev, bool write, uint64_t now)
{
	struct kmodel k = { .dev = dev, .start = now, .cs = s, .ce = e };
	struct km_rates r;
	uintptr_t p = s;
	uint64_t ns;

	while (p < e) {
		struct mrange *q = mr_find(&st->ranges, p);
		bool held;
		struct look l;

		if (!q)
			break;
		held = q->holders & cuemu_mask_bit(dev);
		if (write && (q->read_mostly ||
			      (held && cuemu_mask_count(q->holders) > 1))) {
			uintptr_t x = cuemu_min_u(cuemu_min_u(q->end, e),
					    CUEMU_ALIGN_DOWN(p, UVM_BLOCK) +
					    UVM_BLOCK);
			mg_set_now(k_now(&k));
			declared_rm_write(&k, st, q, p, x);
			p = x;
			continue;
		}
		if (held && mig_has(&k, p)) {
			/* Pages this kernel brought: entries, no new look. */
			size_t i = spans_floor(&k.mig, p) - 1;
			uintptr_t x = cuemu_min_u(cuemu_min_u(k.mig.v[i].e,
							  q->end), e);

			k.t.entries += (x - p) / UVM_PAGE;
			mg_count(st, dev, CUEMU_CTR_GPU_FAULTS, (x - p) / UVM_PAGE);
			charge(&k, dev, x - p);
			p = x;
			continue;
		}
		l = touch(&k, st, p, write);
		p = cuemu_max_u(cuemu_min_u(l.e, e), p + UVM_PAGE);
	}
	km_rates_of(dev, &r);
	ns = km_cost(&k.t, &r);
	kmodel_free(&k);
	return ns;
}

struct access {
	uint64_t id;
	uintptr_t s, e;
	int dev;
	bool write;
};

static void access_op(CUstream s, void *arg)
{
	struct access *ac = arg;
	struct mstate *st;
	uint64_t cost = 0;

	cuemu_lock();
	if ((st = mg_op_state(ac->id, ac->s, ac->e))) {
		cost = declared(st, ac->s, ac->e, ac->dev, ac->write,
				cuemu_stream_now(s));
		view_apply(st, ac->s, ac->e);
	}
	cuemu_unlock();
	cuemu_stream_advance(s, cost);
	free(ac);
}

CUresult mg_access(CUstream s, CUdeviceptr p, size_t n, bool write)
{
	struct cuemu_alloc *a;
	struct access *ac;
	CUresult r;

	if (!(ac = calloc(1, sizeof *ac)))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory");
	cuemu_lock();
	a = cuemu_va_find((uintptr_t)p);
	if (!a && cuemu_machine_pageable() && n) {
		/* Memory from malloc or mmap, where the GPUs may use it. */
		struct mstate *st;

		if ((r = mg_system_range((uintptr_t)p, n, &st)) != CUDA_SUCCESS) {
			cuemu_unlock();
			free(ac);
			return r;
		}
		a = st->a;
	}
	if (!a || (uintptr_t)p + n > a->base + (a->span ? a->span : a->size) ||
	    (uintptr_t)p + n < (uintptr_t)p) {
		cuemu_unlock();
		free(ac);
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "[0x%llx, +%zu) is not in one allocation",
				  (unsigned long long)p, n);
	}
	ac->id = a->id;
	if (!cuemu_kind_ranged(a->kind)) {
		/* Device, pinned or pool memory: nothing faults. */
		cuemu_unlock();
		free(ac);
		return CUDA_SUCCESS;
	}
	cuemu_unlock();
	ac->s = CUEMU_ALIGN_DOWN((uintptr_t)p, CUEMU_PAGE);
	ac->e = CUEMU_ALIGN_UP((uintptr_t)p + n, CUEMU_PAGE);
	ac->dev = cuemu_stream_device(s);
	ac->write = write;
	if ((r = cuemu_stream_enqueue(s, access_op, ac)) != CUDA_SUCCESS)
		free(ac);
	return r;
}

/* fault.c's emulated kernels are priced by this model, and their
 * touches resolved by it. */
__attribute__((constructor)) static void register_pricing(void)
{
	static const struct fault_pricing pricing = {
		.begin = km_begin,
		.sectors_counted = km_sectors_counted,
		.fault_ns = km_running_fault_ns,
		.end = km_end,
	};

	fault_set_pricing(&pricing);
	mg_set_kernel_touch(km_touch);
}
