/*
 * managed.c - the managed memory model: allocations and their free, the use
 * of the range model (advice, prefetch, attributes), residency, fault
 * resolution, migration and its counters. Its policies are files of their
 * own that it notifies through the event bus (perf.h): evict.c chooses what
 * leaves a full GPU, thrash.c what is pinned to the host. fault.c catches
 * the faults and calls back the resolver this file registers.
 *
 * The bytes of a managed allocation are one anonymous mapping: every copy a
 * processor "holds" is those same bytes; residency is the range model
 * (range.c), and the CPU's view of it is the mapping's protections (fault.c).
 * A processor that holds no copy of a page sees it PROT_NONE, so touching
 * it faults and the fault migrates, duplicates or maps remotely by policy.
 *
 * Locking: the range model, the allocation's counters and its protections
 * are guarded by cuemu_lock(). API calls take it for the check and the
 * update; prefetches and declared accesses run on the stream's worker and
 * take it there. The policies are notified under it. The managed address
 * range (arena.c) has a leaf lock of its own.
 */
#include "model/perf.h"
#include "model/uvm.h"
#include "model/wake.h"

#include <errno.h>
#include <numa.h>
#include <numaif.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* CPU faults and copies are resolved, and counted, in blocks of this many
 * bytes clipped to the range, and charged a 4 KiB page at a time
 * (km_fault_move_ns, reach.c). GPU faults are the kernel model's
 * (kernel.c, through kernel_touch). */
#define FAULT_BLOCK (64UL << 10)

bool cuemu_managed_contains(uintptr_t p)
{
	return fault_watched(p);
}

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */

/* mr_update of st's ranges, telling that the allocation changed (its
 * policy or residency), so that what /cu shows of it is published. */
int mg_update(struct mstate *st, uintptr_t s, uintptr_t e, mr_fn fn,
		     void *arg)
{
	cuemu_obj_changed(st->a->id);
	return mr_update(&st->ranges, s, e, fn, arg);
}

static void writable_fn(struct mrange *r, void *arg)
{
	r->ro &= ~cuemu_mask_bit(*(const int *)arg);
}

void mg_write_upgraded(uintptr_t s, uintptr_t e, int dev)
{
	struct mstate *st = mg_find(s);

	if (!st)
		return;
	s = cuemu_max_u(s, st->a->base);
	e = cuemu_min_u(e, st->a->base + st->a->span);
	if (s < e && mg_update(st, s, e, writable_fn, &dev) < 0)
		/* out of memory to split: the range keeps its read-only
		 * mapping, and its next write is an upgrade again */
		return;
}

void mg_count(struct mstate *st, int proc, enum cuemu_counter c, uint64_t n)
{
	struct perf_data d = { .st = st };

	if (!n)
		return;
	st->ctr[c] += n;
	cuemu_counter_add(proc, c, n);
	cuemu_obj_changed(st->a->id);
	d.count.proc = proc;
	d.count.counter = c;
	d.count.n = n;
	perf_notify(PERF_EVENT_COUNT, &d);
}

int mg_current_node(void)
{
	int cpu = sched_getcpu(), n;

	if (numa_available() < 0 || cpu < 0)
		return 0;
	n = numa_node_of_cpu(cpu);
	return n < 0 ? 0 : n;
}

/* Moves the host pages of [s, e) to node and binds later ones there
 * (prefetch, strict); a preferred location only steers pages placed from now
 * on and moves nothing, as the seed says setting one does not migrate.
 * Best effort: the residency report says where the kernel put them. */
static void bind_node(struct mstate *st, uintptr_t s, uintptr_t e, int node,
		      bool strict)
{
	unsigned long mask[4] = { 0 };

	/* System-allocated memory stays where the process put it. */
	if (st->a->kind != CUEMU_KIND_MANAGED)
		return;
	if (node < 0 || node >= (int)(8 * sizeof mask) || numa_available() < 0)
		return;
	st->bound = true;
	mask[node / (8 * sizeof mask[0])] |= 1UL << (node % (8 * sizeof mask[0]));
	if (mbind((void *)s, e - s, strict ? MPOL_BIND : MPOL_PREFERRED, mask,
		  8 * sizeof mask, strict ? MPOL_MF_MOVE : 0) != 0)
		cuemu_debug("mbind node %d: %s", node, strerror(errno));
}

/* Back to the default policy. Memory never bound has it already: no
 * system call then (an advice's fast path). */
static void unbind(struct mstate *st, uintptr_t s, uintptr_t e)
{
	if (st->bound && numa_available() >= 0)
		mbind((void *)s, e - s, MPOL_DEFAULT, NULL, 0, 0);
}

/* The holder a copy to dst comes from: the one with the fastest link. */
static int pick_src(cuemu_procmask holders, int dst)
{
	int best = -1, p;
	double bw = -1;

	for (p = cuemu_mask_next(holders, 0); p >= 0;
	     p = cuemu_mask_next(holders, p + 1)) {
		if (p == dst)
			continue;
		if (cuemu_link(p, dst)->gbps > bw) {
			bw = cuemu_link(p, dst)->gbps;
			best = p;
		}
	}
	return best;
}

/* " kernel=" and the name of the launch whose threads log a line, so
 * that its faults and migrations name it (cufs-events -k); "" for none. */
static const char *kernel_word(void)
{
	return fault_launch_running() ? " kernel=" : "";
}

static const char *kernel_name(void)
{
	const struct perf_launch *l = fault_launch_running();

	return l ? l->kernel : "";
}

/* Bytes moved in one operation, by source processor. */
struct moved {
	uint64_t from[CUEMU_NPROC];
	uint64_t dropped[CUEMU_NPROC]; /* GPU copies dropped: to uncharge */
};

static void notify_migration(struct mstate *st, int from, int to,
			     uint64_t bytes, bool fault)
{
	struct perf_data d = { .st = st };

	d.migration.from = from;
	d.migration.to = to;
	d.migration.bytes = bytes;
	d.migration.fault = fault;
	perf_notify(PERF_EVENT_MIGRATION, &d);
}

/* Counts and costs what moved to dst; uncharges dropped copies. */
static uint64_t settle(struct mstate *st, struct moved *mv, int dst,
		       bool fault, const char *why)
{
	uint64_t cost = 0, ns;
	char a[16], b[16];
	int p;

	for (p = 0; p < CUEMU_NPROC; p = cuemu_proc_next(p)) {
		if (mv->dropped[p] && p != CUEMU_PROC_HOST)
			cuemu_mem_uncharge(p, mv->dropped[p]);
		if (!mv->from[p])
			continue;
		if (p == CUEMU_PROC_HOST && dst != CUEMU_PROC_HOST)
			mg_count(st, dst, CUEMU_CTR_BYTES_HTOD, mv->from[p]);
		else if (p != CUEMU_PROC_HOST && dst == CUEMU_PROC_HOST)
			mg_count(st, p, CUEMU_CTR_BYTES_DTOH, mv->from[p]);
		else if (p != CUEMU_PROC_HOST)
			mg_count(st, dst, CUEMU_CTR_BYTES_DTOD, mv->from[p]);
		mg_count(st, dst, CUEMU_CTR_MIGRATIONS, 1);
		ns = fault ? km_fault_move_ns(p, dst, mv->from[p])
			   : cuemu_copy_cost_ns(p, dst, mv->from[p]);
		*(fault ? &st->fault_ns : &st->migration_ns) += ns;
		cost += ns;
		cuemu_event_log("migrate", "alloc=%llu %s->%s bytes=%llu%s%s "
				"(%s)", (unsigned long long)st->a->id,
				cuemu_proc_str(p, a, sizeof a),
				cuemu_proc_str(dst, b, sizeof b),
				(unsigned long long)mv->from[p],
				kernel_word(), kernel_name(), why);
		notify_migration(st, p, dst, mv->from[p], fault);
	}
	return cost;
}

/* ------------------------------------------------------------------ */
/* Eviction: the mechanism (evict.c chooses)                           */

struct evicting {
	struct mstate *st;
	int dev;
};

static void evict_fn(struct mrange *r, void *arg)
{
	struct evicting *v = arg;
	size_t n = r->end - r->start;

	if (r->holders == cuemu_mask_bit(v->dev)) {
		r->holders = cuemu_mask_bit(CUEMU_PROC_HOST);
		mg_count(v->st, v->dev, CUEMU_CTR_BYTES_DTOH, n);
	}
	r->holders &= ~cuemu_mask_bit(v->dev);
}

bool mg_evict(struct mstate *st, uintptr_t s, uintptr_t e, int dev,
	      uint64_t *cost)
{
	struct evicting v = { st, dev };
	struct perf_data d = { .st = st };
	/* Another processor holds a copy too: dropping it moves nothing. */
	bool dup = mr_find(&st->ranges, s)->holders != cuemu_mask_bit(dev);

	if (mg_update(st, s, e, evict_fn, &v) < 0)
		return false;
	cuemu_mem_uncharge(dev, e - s);
	mg_count(st, dev, CUEMU_CTR_EVICTIONS, 1);
	mg_count(st, dev, CUEMU_CTR_EVICTED_BYTES, e - s);
	if (!dup) {
		uint64_t ns = cuemu_copy_cost_ns(dev, CUEMU_PROC_HOST, e - s);

		st->migration_ns += ns;
		*cost += ns;
	}
	view_apply(st, s, e);
	cuemu_event_log("evict", "alloc=%llu gpu%d [0x%lx,0x%lx) bytes=%lu",
			(unsigned long long)st->a->id, dev,
			(unsigned long)s, (unsigned long)e,
			(unsigned long)(e - s));
	d.eviction.dev = dev;
	d.eviction.s = s;
	d.eviction.e = e;
	perf_notify(PERF_EVENT_EVICTION, &d);
	return true;
}

/* Charges bytes to dev for [s, e) of st; when they do not fit, the
 * policies may make room first (evict.c). */
static bool charge_room(int dev, uint64_t bytes, struct mstate *st,
			uintptr_t s, uintptr_t e, uint64_t *cost)
{
	struct perf_data d = { .st = st };

	if (!bytes || cuemu_mem_charge(dev, bytes))
		return true;
	d.no_room.dev = dev;
	d.no_room.bytes = bytes;
	d.no_room.s = s;
	d.no_room.e = e;
	perf_notify(PERF_EVENT_NO_ROOM, &d);
	*cost += d.no_room.cost;
	return cuemu_mem_charge(dev, bytes);
}

/* Bytes of [s, e) that proc does not hold. */
static uint64_t missing(struct mstate *st, uintptr_t s, uintptr_t e, int proc)
{
	struct mrange *r = mr_find(&st->ranges, s);
	uint64_t n = 0;

	for (; r && r->start < e; r = mr_next(&st->ranges, r))
		if (!(r->holders & cuemu_mask_bit(proc)))
			n += (r->end < e ? r->end : e) - (r->start > s ? r->start : s);
	return n;
}

/* ------------------------------------------------------------------ */
/* Faults: resolution by policy                                        */

/* The decision is residency.c's (the driver's order); the thrashing hint
 * thrash.c's; this carries them out on the range model. */

struct fault_ctx {
	struct mstate *st;
	int proc;
	bool write, no_room;
	uint64_t gpu_added;      /* bytes newly held by proc (a GPU) */
	uint64_t remote;
	uint64_t coh_ns;         /* the CPU's bytes served from GPUs, over
	                          * the coherent link (cpu_remote) */
	uint64_t coh_lat;        /* the slowest such link's latency */
	uint64_t pinned;         /* ranges newly pinned (thrashing) */
	int pin_proc;
	uint64_t throttled;      /* ranges whose migration was throttled */
	bool unpinned;
	bool acted;              /* something happened: a real fault */
	int bind;                /* host node to bind to, -1 */
	struct moved mv[CUEMU_NPROC]; /* by destination */
};

/* Says that proc uses r; true when that ended r's lapsed pin. */
static bool notify_use(struct mstate *st, struct mrange *r, int proc,
		       bool fault)
{
	struct perf_data d = { .st = st };

	d.use.r = r;
	d.use.proc = proc;
	d.use.fault = fault;
	d.use.now_ns = fault ? mg_now() : 0;
	perf_notify(PERF_EVENT_USE, &d);
	return d.use.unpinned;
}

/* The pages of r go to processor to alone: the copy comes from the
 * closest holder, the others are dropped. */
static void move_to(struct fault_ctx *c, struct mrange *r, int to)
{
	size_t n = r->end - r->start;
	int p;

	if (!(r->holders & cuemu_mask_bit(to)))
		c->mv[to].from[pick_src(r->holders, to)] += n;
	for (p = cuemu_mask_next(r->holders, 0); p >= 0 && p < CUEMU_PROC_HOST;
	     p = cuemu_mask_next(r->holders, p + 1))
		if (p != to && (r->holders & cuemu_mask_bit(p)))
			c->mv[to].dropped[p] += n;
	r->holders = cuemu_mask_bit(to);
}

/* A GPU other than the faulting one receives r (a preferred location, a
 * pin): charged there now, as no eviction runs inside an update. false:
 * no room. */
static bool room_at(int to, const struct mrange *r)
{
	return to == CUEMU_PROC_HOST || (r->holders & cuemu_mask_bit(to)) ||
	       cuemu_mem_charge(to, r->end - r->start);
}

/* A fault is about to migrate r: the thrashing detector's hint. A
 * throttle costs the faulting processor a nap; a pin sends the pages to
 * the pin's location. Returns where the pages go. */
static int thrash_hint(struct fault_ctx *c, struct mrange *r, int to)
{
	struct perf_data d = { .st = c->st };
	bool was = r->pinned;

	d.fault_migrate.r = r;
	d.fault_migrate.proc = c->proc;
	d.fault_migrate.now_ns = mg_now();
	perf_notify(PERF_EVENT_FAULT_MIGRATE, &d);
	c->unpinned |= d.fault_migrate.unpinned;
	if (d.fault_migrate.hint == THRASH_THROTTLE)
		c->throttled++;
	if (d.fault_migrate.hint != THRASH_PIN)
		return to;
	if (!was)
		c->pinned++;
	c->pin_proc = d.fault_migrate.pin_proc;
	return d.fault_migrate.pin_proc;
}

/* The CPU reads or writes n bytes of GPU at's memory in place: a
 * hardware-coherent machine maps every GPU's memory to the CPU over C2C
 * (the only machine where the CPU may map a GPU's, mg_machine_reach), so
 * the bytes cross that link, from the GPU for a read, to it for a write,
 * at its rate, its latency once an access (mg_fault). */
static void cpu_remote(struct fault_ctx *c, int at, size_t n)
{
	const struct cuemu_link *l = c->write ? cuemu_link(CUEMU_PROC_HOST, at)
					      : cuemu_link(at, CUEMU_PROC_HOST);

	if (at == CUEMU_PROC_HOST || l->gbps <= 0)
		return;
	c->coh_ns += (uint64_t)((double)n / l->gbps);
	if (l->lat_ns > c->coh_lat)
		c->coh_lat = l->lat_ns;
}

static void fault_fn(struct mrange *r, void *arg)
{
	struct fault_ctx *c = arg;
	size_t n = r->end - r->start;
	bool gpu = c->proc != CUEMU_PROC_HOST;
	struct mg_choice ch;

	if (notify_use(c->st, r, c->proc, true))
		c->unpinned = true;
	ch = mg_decide(r, c->proc, c->write, &mg_machine_reach);
	/* An accessed-by processor has the pages mapped in advance: its
	 * remote access is no fault (seed, SET_ACCESSED_BY); nor is a
	 * coherent CPU's. */
	if (ch.act != MG_NONE &&
	    !(ch.act == MG_REMOTE && (ch.branch == MG_BR_ACCESSED_BY ||
				      ch.branch == MG_BR_COHERENT)))
		c->acted = true;
	if (ch.act == MG_MIGRATE && !r->read_mostly)
		ch.to = thrash_hint(c, r, ch.to);
	if (ch.to != c->proc && ch.to != CUEMU_PROC_HOST &&
	    (ch.act == MG_MIGRATE || ch.act == MG_POPULATE) && !room_at(ch.to, r))
		ch.to = CUEMU_PROC_HOST;
	if (gpu && c->no_room && ch.to == c->proc && ch.act != MG_NONE &&
	    ch.act != MG_COLLAPSE) {
		/* No room on the GPU: the pages come to life on the host, or
		 * stay where they are, and the GPU maps them there. */
		ch.act = MG_REMOTE;
		ch.to = r->holders ? pick_src(r->holders, c->proc)
				   : CUEMU_PROC_HOST;
		if (!r->holders)
			r->holders = cuemu_mask_bit(CUEMU_PROC_HOST);
	}
	switch (ch.act) {
	case MG_NONE:
		return;
	case MG_REMOTE:
		c->remote++;
		if (!gpu)
			cpu_remote(c, ch.to, n);
		return;
	case MG_COLLAPSE:
		move_to(c, r, c->proc);
		break;
	case MG_POPULATE:
		r->holders = cuemu_mask_bit(ch.to);
		break;
	case MG_DUP:
		c->mv[ch.to].from[pick_src(r->holders, ch.to)] += n;
		r->holders |= cuemu_mask_bit(ch.to);
		break;
	case MG_MIGRATE:
		move_to(c, r, ch.to);
		break;
	}
	if (ch.to == c->proc && gpu && ch.act != MG_COLLAPSE)
		c->gpu_added += n;
	if (ch.to != c->proc) {
		c->remote++; /* brought elsewhere, mapped from here */
		if (!gpu)
			cpu_remote(c, ch.to, n);
	}
	if (ch.to == CUEMU_PROC_HOST &&
	    r->pref.type == CU_MEM_LOCATION_TYPE_HOST_NUMA) {
		r->host_node = r->pref.id;
		c->bind = r->pref.id;
	}
}

/* Bytes of [s, e) that an access by proc would bring onto proc (a GPU). */
static uint64_t fault_need(struct mstate *st, uintptr_t s, uintptr_t e,
			   int proc, bool write)
{
	struct mrange *r = mr_find(&st->ranges, s);
	uint64_t n = 0;

	for (; r && r->start < e; r = mr_next(&st->ranges, r)) {
		struct mg_choice ch = mg_decide(r, proc, write,
						&mg_machine_reach);
		if (ch.to == proc && (ch.act == MG_POPULATE ||
				      ch.act == MG_DUP || ch.act == MG_MIGRATE))
			n += (r->end < e ? r->end : e) -
			     (r->start > s ? r->start : s);
	}
	return n;
}

static void notify_fault(struct mstate *st, uintptr_t s, uintptr_t e,
			 bool write, uint64_t faults, const struct fault_ctx *c)
{
	struct perf_data d = { .st = st };

	d.fault.s = s;
	d.fault.e = e;
	d.fault.proc = c->proc;
	d.fault.write = write;
	d.fault.faults = faults;
	d.fault.pinned = c->pinned;
	d.fault.pin_proc = c->pin_proc;
	d.fault.throttled = c->throttled;
	d.fault.unpinned = c->unpinned;
	perf_notify(PERF_EVENT_FAULT, &d);
}

static void log_fault(struct mstate *st, uintptr_t s, uintptr_t e,
		      const struct fault_ctx *c, uint64_t faults)
{
	char w[16];

	mg_count(st, c->proc, c->proc != CUEMU_PROC_HOST ?
		 CUEMU_CTR_GPU_FAULTS : CUEMU_CTR_CPU_FAULTS, faults);
	cuemu_event_log("fault", "alloc=%llu %s %s [0x%lx,0x%lx) faults=%llu"
			"%s%s%s", (unsigned long long)st->a->id,
			cuemu_proc_str(c->proc, w, sizeof w),
			c->write ? "write" : "read", (unsigned long)s,
			(unsigned long)e, (unsigned long long)faults,
			kernel_word(), kernel_name(),
			c->remote ? " remote" : "");
}

void mg_fault(struct mstate *st, uintptr_t s, uintptr_t e, int proc,
	      bool write, uint64_t faults, uint64_t *cost, bool *remote)
{
	struct fault_ctx c = { .st = st, .proc = proc, .write = write,
			       .bind = -1 };
	uint64_t need = 0;
	bool gpu = proc != CUEMU_PROC_HOST;
	int to;

	*remote = false;
	if (gpu) {
		need = fault_need(st, s, e, proc, write);
		c.no_room = !charge_room(proc, need, st, s, e, cost);
		if (c.no_room)
			need = 0;
	}
	if (mg_update(st, s, e, fault_fn, &c) < 0) {
		if (need)
			cuemu_mem_uncharge(proc, need);
		*remote = true; /* out of memory for the model: serve in place */
		return;
	}
	if (gpu && need > c.gpu_added)
		cuemu_mem_uncharge(proc, need - c.gpu_added);
	if (c.bind >= 0)
		bind_node(st, s, e, c.bind, false);
	for (to = 0; to < CUEMU_NPROC; to = cuemu_proc_next(to))
		*cost += settle(st, &c.mv[to], to, true,
				to == proc ? "fault" : c.pinned &&
				to == c.pin_proc ? "thrash" : "fault, to the "
				"preferred location");
	if (c.throttled)
		*cost += c.throttled * cuemu_uvm()->thrash_nap *
			 cuemu_uvm()->thrash_lapse_ns;
	if (c.coh_ns || c.coh_lat)
		*cost += c.coh_lat + c.coh_ns;
	if (faults && c.acted)
		log_fault(st, s, e, &c, faults);
	if (c.remote) {
		mg_count(st, proc, CUEMU_CTR_REMOTE_ACCESSES, c.remote);
		*remote = true;
	}
	notify_fault(st, s, e, write, faults, &c);
}

/* What resolves an emulated kernel's touches: the kernel model's
 * (kernel.c sets it from a constructor, before any kernel runs). Global
 * as fault.c's resolver is, which calls it. */
static mg_kernel_touch kernel_touch;

/* A CPU fault at addr, which fault.c caught: the region the driver
 * brings for it (prefetch.c: its big page, grown by the prefetch
 * heuristic as a GPU fault's is; a write to a read-only duplicate, the
 * big page alone), resolved by the CPU, its cost on the faulting
 * thread's clock; an emulated kernel's is the kernel model's
 * (kernel_touch). */
static bool resolve_fault(uintptr_t addr, int proc, bool was_write,
			  struct fault_done *out)
{
	struct mstate *st = mg_find(addr);
	struct mrange *r;
	uintptr_t bs, be;
	bool write;

	if (!st || !(r = mr_find(&st->ranges, addr)))
		return false;
	if (proc != CUEMU_PROC_HOST)
		return kernel_touch && kernel_touch(st, addr, proc, was_write,
						    out);
	/* A fault on a page this processor holds is a write to a
	 * read-only duplicate. */
	write = (r->holders & cuemu_mask_bit(proc)) || was_write;
	if ((write && (r->holders & cuemu_mask_bit(proc) || r->read_mostly)) ||
	    pf_thrashing(r)) {
		/* The duplicates of the big page give way, no more; and a
		 * thrashing block moves by big pages, as the thrashing
		 * detector pins it (thrash.c), where the driver would
		 * bring the faulted page alone. */
		bs = cuemu_max_u(CUEMU_ALIGN_DOWN(addr, FAULT_BLOCK), r->start);
		be = cuemu_min_u(CUEMU_ALIGN_DOWN(addr, FAULT_BLOCK) +
				 FAULT_BLOCK, r->end);
	} else {
		/* Pages come as a GPU fault brings them: the big page,
		 * grown by the prefetch heuristic. */
		pf_fault_region(&st->ranges, r, addr, proc, &bs, &be);
	}
	out->st = st;
	out->s = bs;
	out->e = be;
	out->cost = 0;
	out->prot = -1;
	mg_set_now(cuemu_host_now());
	mg_fault(st, bs, be, proc, write, 1, &out->cost, &out->remote);
	cuemu_host_advance(out->cost);
	return true;
}

/* The fault handler is installed at the first managed allocation or
 * emulated kernel; it finds its resolver set before main. */
__attribute__((constructor)) static void register_resolver(void)
{
	fault_set_resolver(resolve_fault);
}

void mg_set_kernel_touch(mg_kernel_touch fn)
{
	kernel_touch = fn;
}

/* ------------------------------------------------------------------ */
/* Allocation and free                                                 */

struct cuemu_alloc *mg_new(CUcontext ctx, int dev, size_t size,
			   unsigned int flags, CUresult *r)
{
	struct cuemu_alloc *a;
	struct mstate *st;
	size_t span;
	void *p;

	if (fault_install() < 0) {
		*r = cuemu_fail(CUDA_ERROR_OPERATING_SYSTEM,
				"cannot install the fault handler");
		return NULL;
	}
	span = CUEMU_ALIGN_UP(size, CUEMU_PAGE);
	if (span < size) {
		*r = cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "size too large");
		return NULL;
	}
	p = arena_map(span, fault_initial_prot());
	if (p == MAP_FAILED) {
		*r = cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				"cannot map %zu bytes: %s", size, strerror(errno));
		return NULL;
	}
	a = calloc(1, sizeof *a);
	st = calloc(1, sizeof *st);
	if (!a || !st || mr_init(&st->ranges, (uintptr_t)p, (uintptr_t)p + span) ||
	    fault_watch((uintptr_t)p, (uintptr_t)p + span)) {
		if (st)
			mr_destroy(&st->ranges);
		free(a);
		free(st);
		arena_unmap(p, span);
		*r = cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory");
		return NULL;
	}
	a->base = (uintptr_t)p;
	a->size = size;
	a->span = span;
	a->kind = CUEMU_KIND_MANAGED;
	a->id = cuemu_next_id();
	a->device = dev;
	a->flags = flags;
	a->ctx = ctx;
	/* Managed memory starts with SYNC_MEMOPS set, where every other kind
	 * starts without it (probes/results/edges.txt, sync.*.fresh). */
	a->sync_memops = true;
	a->priv = st;
	st->a = a;
	st->attach = flags;
	*r = CUDA_SUCCESS;
	return a;
}

struct mstate *mg_op_state(uint64_t id, uintptr_t s, uintptr_t e)
{
	struct cuemu_alloc *a = cuemu_va_by_id(id);

	if (!a && (a = cuemu_sys_find(s)) && e > a->base + a->size)
		a = NULL;
	return a && cuemu_kind_ranged(a->kind) ? a->priv : NULL;
}

void mg_delete(struct cuemu_alloc *a)
{
	struct mstate *st = a->priv;

	mg_uncharge(st);
	fault_unwatch(a->base);
	fault_forget(a->base, a->base + a->span);
	arena_unmap((void *)a->base, a->span);
	mr_destroy(&st->ranges);
	free(st);
	free(a);
}

CUresult mg_alloc(CUcontext ctx, int dev, size_t size, unsigned int flags,
		  CUdeviceptr *dptr)
{
	struct cuemu_alloc *a;
	CUresult r;

	if (!(a = mg_new(ctx, dev, size, flags, &r)))
		return r;
	cuemu_lock();
	view_flush_open();
	if (cuemu_va_insert(a) < 0) {
		mg_delete(a); /* under the lock: fault_forget's rule */
		cuemu_unlock();
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "address map is full");
	}
	cuemu_unlock();
	cuemu_event_log("alloc", "managed alloc=%llu base=0x%lx size=%zu",
			(unsigned long long)a->id, (unsigned long)a->base, size);
	*dptr = (CUdeviceptr)a->base;
	return CUDA_SUCCESS;
}

CUresult cuemu_managed_free(struct cuemu_alloc *a)
{
	uint64_t id = a->id;

	cuemu_lock();
	view_flush_open();
	cuemu_va_remove(a);
	/* Uncharged under the lock, as the charges were made. */
	mg_delete(a);
	cuemu_unlock();
	cuemu_event_log("free", "managed alloc=%llu", (unsigned long long)id);
	return CUDA_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Checks shared by advice, prefetch and range attributes              */

CUresult mg_check_range(CUdeviceptr p, size_t count, struct mstate **out,
			uintptr_t *s, uintptr_t *e)
{
	struct cuemu_alloc *a;
	CUresult r;

	if (!p)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "pointer is NULL");
	if (!count)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "count is 0");
	a = cuemu_va_find((uintptr_t)p);
	if (!a && cuemu_machine_pageable()) {
		/* Memory from malloc or mmap, where the GPUs may use it. */
		r = mg_system_range((uintptr_t)p, count, out);
		if (r == CUDA_SUCCESS)
			r = cuemu_va_check_expected((*out)->a);
		if (r == CUDA_SUCCESS) {
			*s = CUEMU_ALIGN_DOWN((uintptr_t)p, CUEMU_PAGE);
			*e = CUEMU_ALIGN_UP((uintptr_t)p + count, CUEMU_PAGE);
		}
		return r;
	}
	if ((r = cuemu_va_check_expected(a)) != CUDA_SUCCESS)
		return r;
	if (!a || a->kind != CUEMU_KIND_MANAGED)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "0x%llx is not managed memory",
				  (unsigned long long)p);
	/* The bytes asked for, not the page-rounded span: the real driver
	 * refuses even one byte past the size (probe: odd.advise_size+1). */
	if ((uintptr_t)p + count < (uintptr_t)p ||
	    (uintptr_t)p + count > a->base + a->size)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "range runs past the end of its allocation");
	*out = a->priv;
	*s = CUEMU_ALIGN_DOWN((uintptr_t)p, CUEMU_PAGE);
	*e = CUEMU_ALIGN_UP((uintptr_t)p + count, CUEMU_PAGE);
	return CUDA_SUCCESS;
}

bool mg_dev_ok(int id)
{
	return id >= 0 && id < cuemu_device_count() &&
	       cuemu_device(id)->attrs[CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS] > 0;
}

/* ------------------------------------------------------------------ */
/* Advice                                                              */

struct advice {
	CUmem_advise what;
	CUmemLocation loc;
	int proc;
	struct mstate *st;
	struct moved mv;
};

static void collapse_fn(struct mrange *r, struct advice *ad)
{
	int keep, pp = cuemu_loc_proc(r->pref), p;

	if (cuemu_mask_count(r->holders) < 2)
		return;
	if (pp >= 0 && (r->holders & cuemu_mask_bit(pp)))
		keep = pp;
	else if (r->holders & cuemu_mask_bit(CUEMU_PROC_HOST))
		keep = CUEMU_PROC_HOST;
	else
		keep = cuemu_mask_next(r->holders, 0);
	for (p = cuemu_mask_next(r->holders, 0); p >= 0 && p < CUEMU_PROC_HOST;
	     p = cuemu_mask_next(r->holders, p + 1))
		if (p != keep && (r->holders & cuemu_mask_bit(p)))
			ad->mv.dropped[p] += r->end - r->start;
	r->holders = cuemu_mask_bit(keep);
}

static void advise_fn(struct mrange *r, void *arg)
{
	struct advice *ad = arg;

	switch (ad->what) {
	case CU_MEM_ADVISE_SET_READ_MOSTLY:
		/* the GPUs holding it map it read-only, and keep it so
		 * until each writes it, also after the advice is taken
		 * back (probes/results/advise.txt) */
		r->read_mostly = true;
		r->ro |= r->holders & ~cuemu_mask_bit(CUEMU_PROC_HOST);
		break;
	case CU_MEM_ADVISE_UNSET_READ_MOSTLY:
		if (r->read_mostly)
			r->ro |= r->holders & ~cuemu_mask_bit(CUEMU_PROC_HOST);
		r->read_mostly = false;
		collapse_fn(r, ad);
		break;
	case CU_MEM_ADVISE_SET_PREFERRED_LOCATION:
		r->pref = ad->loc;
		r->pinned = false; /* a new preference overrides thrash pinning */
		if (ad->loc.type == CU_MEM_LOCATION_TYPE_HOST_NUMA &&
		    (r->holders & cuemu_mask_bit(CUEMU_PROC_HOST)))
			r->host_node = ad->loc.id;
		break;
	case CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION:
		r->pref = (CUmemLocation){ CU_MEM_LOCATION_TYPE_INVALID, 0 };
		break;
	case CU_MEM_ADVISE_SET_ACCESSED_BY:
		r->accessed_by |= cuemu_mask_bit(ad->proc);
		break;
	case CU_MEM_ADVISE_UNSET_ACCESSED_BY:
		r->accessed_by &= ~cuemu_mask_bit(ad->proc);
		break;
	default:
		break;
	}
}

static bool loc_same(CUmemLocation a, CUmemLocation b)
{
	return a.type == b.type && a.id == b.id;
}

/* Would advise_fn leave r as it is? */
static bool advice_kept(const struct mrange *r, const struct advice *ad)
{
	switch (ad->what) {
	case CU_MEM_ADVISE_SET_READ_MOSTLY: {
		cuemu_procmask gpus = r->holders & ~cuemu_mask_bit(CUEMU_PROC_HOST);
		return r->read_mostly && (r->ro & gpus) == gpus;
	}
	case CU_MEM_ADVISE_UNSET_READ_MOSTLY:
		return !r->read_mostly && cuemu_mask_count(r->holders) < 2;
	case CU_MEM_ADVISE_SET_PREFERRED_LOCATION:
		return loc_same(r->pref, ad->loc) && !r->pinned &&
		       !(ad->loc.type == CU_MEM_LOCATION_TYPE_HOST_NUMA &&
			 (r->holders & cuemu_mask_bit(CUEMU_PROC_HOST)) &&
			 r->host_node != ad->loc.id);
	case CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION:
		return loc_same(r->pref, (CUmemLocation){
			CU_MEM_LOCATION_TYPE_INVALID, 0 });
	case CU_MEM_ADVISE_SET_ACCESSED_BY:
		return r->accessed_by & cuemu_mask_bit(ad->proc);
	case CU_MEM_ADVISE_UNSET_ACCESSED_BY:
		return !(r->accessed_by & cuemu_mask_bit(ad->proc));
	default:
		return true;
	}
}

/* Does [s, e) of st already have what the advice sets? Then the range
 * model need not split and merge for nothing. */
static bool advice_holds(struct mstate *st, uintptr_t s, uintptr_t e,
			 const struct advice *ad)
{
	struct mrange *r = mr_find(&st->ranges, s);

	for (; r && r->start < e; r = mr_next(&st->ranges, r))
		if (!advice_kept(r, ad))
			return false;
	return true;
}

const char *mg_advice_name(CUmem_advise a)
{
	static const char *const n[] = { "?", "set_read_mostly",
		"unset_read_mostly", "set_preferred_location",
		"unset_preferred_location", "set_accessed_by",
		"unset_accessed_by" };

	return a >= 1 && a <= 6 ? n[a] : "?";
}

/* What an advice that changed [s, e) of st takes the host: its rate for
 * each MiB a GPU holds there, whose mappings the driver rewrites
 * (probes/results/advise.txt); *holding gets those GPUs. Lock held. */
static uint64_t advice_ns(struct mstate *st, uintptr_t s, uintptr_t e,
			  CUmem_advise what, cuemu_procmask *holding)
{
	const struct cuemu_uvm *u = cuemu_uvm();
	cuemu_procmask gpus = ~cuemu_mask_bit(CUEMU_PROC_HOST);
	double rate, held = 0;

	switch (what) {
	case CU_MEM_ADVISE_SET_ACCESSED_BY:
	case CU_MEM_ADVISE_UNSET_ACCESSED_BY:
		rate = u->advise_accessed_by_ns_mib;
		break;
	case CU_MEM_ADVISE_SET_READ_MOSTLY:
	case CU_MEM_ADVISE_UNSET_READ_MOSTLY:
		rate = u->advise_read_mostly_ns_mib;
		break;
	default:
		rate = u->advise_preferred_ns_mib;
		break;
	}
	for (struct mrange *r = mr_find(&st->ranges, s); r && r->start < e;
	     r = mr_next(&st->ranges, r))
		if (r->holders & gpus) {
			*holding |= r->holders & gpus;
			held += (double)(cuemu_min_u(r->end, e) -
					 cuemu_max_u(r->start, s));
		}
	return (uint64_t)(held / (1024.0 * 1024.0) * rate);
}

CUresult mg_advise(CUdeviceptr p, size_t count, CUmem_advise what,
		   CUmemLocation loc, int proc)
{
	cuemu_procmask holding = 0;
	uint64_t ns = 0;
	struct advice ad = { .what = what, .loc = loc, .proc = proc };
	uintptr_t s, e;
	CUresult r;
	char w[24];
	bool kept;
	int q;

	cuemu_lock();
	view_flush_open();
	/* A managed pool's blocks take no advice on the real driver, whatever
	 * the range (probes/results/batch.txt, managedpool.advise_*). */
	if ((ad.st = mg_find((uintptr_t)p)) && ad.st->pool)
		r = cuemu_fail(CUDA_ERROR_NOT_SUPPORTED,
			       "a managed pool's block takes no advice");
	else
		r = mg_check_range(p, count, &ad.st, &s, &e);
	if (r != CUDA_SUCCESS) {
		cuemu_unlock();
		return r;
	}
	kept = advice_holds(ad.st, s, e, &ad);
	if (!kept && mg_update(ad.st, s, e, advise_fn, &ad) < 0) {
		cuemu_unlock();
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "out of host memory for the range model");
	}
	for (q = 0; q < CUEMU_PROC_HOST; q = cuemu_proc_next(q))
		if (ad.mv.dropped[q])
			cuemu_mem_uncharge(q, ad.mv.dropped[q]);
	if (what == CU_MEM_ADVISE_UNSET_READ_MOSTLY && !kept)
		view_apply(ad.st, s, e); /* copies collapsed */
	if (what == CU_MEM_ADVISE_SET_PREFERRED_LOCATION &&
	    loc.type == CU_MEM_LOCATION_TYPE_HOST_NUMA)
		bind_node(ad.st, s, e, loc.id, false);
	else if (what == CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION)
		unbind(ad.st, s, e);
	if (!kept)
		ns = advice_ns(ad.st, s, e, what, &holding);
	cuemu_unlock();
	/* The call rewrites the GPUs' mappings while the host waits. Their
	 * SMs idle, but the rewriting keeps their memory up, as a peer's
	 * traffic does: after SetAccessedBy's pair over 64 MiB (2.4 ms) an
	 * H200's touches took 7 to 14 us, back to back 7, after a sleep as
	 * long 12 to 17 (probes/results/advise.txt). */
	cuemu_host_advance(ns);
	for (q = cuemu_mask_next(holding, 0); ns && q >= 0 && q < CUEMU_PROC_HOST;
	     q = cuemu_mask_next(holding, q + 1))
		wake_memory_busy(q, cuemu_host_now());
	cuemu_event_log("advise", "alloc=%llu [0x%lx,0x%lx) %s %s",
			(unsigned long long)ad.st->a->id, (unsigned long)s,
			(unsigned long)e, mg_advice_name(what),
			cuemu_loc_str(loc, w, sizeof w));
	return CUDA_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Prefetch                                                            */

struct prefetch {
	uint64_t id;             /* the allocation, looked up when it runs */
	uintptr_t s, e;
	int dst;                 /* processor */
	int node;                /* host node for NUMA targets, -1 */
};

struct pf_ctx {
	struct mstate *st;
	int dst, node;
	struct moved mv;
};

static void last_prefetch_fn(struct mrange *r, void *arg)
{
	r->last_prefetch = *(CUmemLocation *)arg;
}

/* Records loc as [s, e)'s last prefetch location; no split and merge
 * where it is that already. -1 when out of memory. */
static int note_prefetch(struct mstate *st, uintptr_t s, uintptr_t e,
			 CUmemLocation loc)
{
	struct mrange *r = mr_find(&st->ranges, s);

	for (; r && r->start < e; r = mr_next(&st->ranges, r))
		if (!loc_same(r->last_prefetch, loc))
			return mg_update(st, s, e, last_prefetch_fn, &loc);
	return 0;
}

static void prefetch_fn(struct mrange *r, void *arg)
{
	struct pf_ctx *c = arg;
	size_t n = r->end - r->start;
	bool has = r->holders & cuemu_mask_bit(c->dst);

	notify_use(c->st, r, c->dst, false);
	if (!r->holders) {
		r->holders = cuemu_mask_bit(c->dst);
	} else if (r->read_mostly) {
		if (!has)
			c->mv.from[pick_src(r->holders, c->dst)] += n;
		r->holders |= cuemu_mask_bit(c->dst);
	} else if (r->holders != cuemu_mask_bit(c->dst)) {
		int p;
		if (!has)
			c->mv.from[pick_src(r->holders, c->dst)] += n;
		for (p = cuemu_mask_next(r->holders, 0); p >= 0 && p < CUEMU_PROC_HOST;
		     p = cuemu_mask_next(r->holders, p + 1))
			if (p != c->dst && (r->holders & cuemu_mask_bit(p)))
				c->mv.dropped[p] += n;
		r->holders = cuemu_mask_bit(c->dst);
	}
	if (c->dst == CUEMU_PROC_HOST && c->node >= 0)
		r->host_node = c->node;
}

/* Would prefetch_fn leave r as it is (r resident where c brings it)? */
static bool prefetch_kept(const struct mrange *r, const struct pf_ctx *c)
{
	bool has = r->holders & cuemu_mask_bit(c->dst);

	if (!has || (!r->read_mostly && r->holders != cuemu_mask_bit(c->dst)))
		return false;
	return c->dst != CUEMU_PROC_HOST || c->node < 0 ||
	       r->host_node == c->node;
}

/* A prefetch of what is resident already changes nothing but the ranges'
 * last use: counted without splitting and merging, nothing settled, no
 * protection set again. false, having done nothing, when something would
 * move. Lock held. */
static bool prefetch_resident(struct mstate *st, uintptr_t s, uintptr_t e,
			      struct pf_ctx *c)
{
	struct mrange *first = mr_find(&st->ranges, s), *r;

	for (r = first; r && r->start < e; r = mr_next(&st->ranges, r))
		if (!prefetch_kept(r, c))
			return false;
	/* The whole range's last use, as a split one's would be after the
	 * merge that follows it (a merge keeps the newest). */
	for (r = first; r && r->start < e; r = mr_next(&st->ranges, r))
		notify_use(st, r, c->dst, false);
	return true;
}

/* Brings [s, e) of st to dst; lock held. Returns the model cost. */
/* The GPUs a prefetch of this process has moved pages from, by the GPU
 * it moved them to. Global because the driver's state it stands for is
 * the process's; under cuemu_lock(), as every prefetch is. */
static cuemu_procmask peer_prefetched[CUEMU_MAX_DEVICES];

/* A process's first prefetch from one GPU to another, in each direction,
 * pays uvm.peer_prefetch_first_ns more (probes/prefetch2m.cu on two H200s:
 * 2 MiB took 0.58 and 0.34 ms the first time each way, 0.064 to 0.075 ms
 * once warm, whatever the range; the driver's own setup of that
 * direction, which a kernel's faults between the two GPUs do not do). */
static uint64_t first_peer_prefetch(const struct moved *mv, int dst)
{
	uint64_t ns = 0;

	if (dst < 0 || dst >= CUEMU_MAX_DEVICES)
		return 0;
	for (int p = 0; p < CUEMU_MAX_DEVICES; p = cuemu_proc_next(p)) {
		if (p == dst || !mv->from[p] ||
		    (peer_prefetched[dst] & cuemu_mask_bit(p)))
			continue;
		peer_prefetched[dst] |= cuemu_mask_bit(p);
		ns += cuemu_uvm()->peer_prefetch_first_ns;
	}
	return ns;
}

/* Moves [s, e) of st to dst (a host NUMA node, or -1): a prefetch the
 * program asked for (asked: cuMemPrefetchAsync, /cu's prefetch) or a
 * migration the model makes (access counters). */
static uint64_t do_prefetch(struct mstate *st, uintptr_t s, uintptr_t e,
			    int dst, int node, const char *why, bool asked)
{
	struct pf_ctx c = { .st = st, .dst = dst, .node = node };
	uint64_t cost = 0, charged = 0;

	if (prefetch_resident(st, s, e, &c)) {
		if (dst == CUEMU_PROC_HOST && node >= 0)
			bind_node(st, s, e, node, true);
		/* Nothing moves, but the driver still walks each block. */
		return (CUEMU_ALIGN_UP(e, UVM_BLOCK) -
			CUEMU_ALIGN_DOWN(s, UVM_BLOCK)) / UVM_BLOCK *
		       cuemu_uvm()->prefetch_block_ns;
	}
	if (dst != CUEMU_PROC_HOST) {
		charged = missing(st, s, e, dst);
		if (!charge_room(dst, charged, st, s, e, &cost)) {
			/* Does not fit even after eviction: bring what fits,
			 * 2 MiB at a time, and leave the rest where it is.
			 * Nothing of [s, e) is evicted to make that room. */
			uintptr_t c0 = s;

			charged = 0;
			while (c0 < e) {
				uintptr_t c1 = CUEMU_ALIGN_DOWN(c0, CUEMU_GRANULARITY) +
					       CUEMU_GRANULARITY;
				uint64_t need;

				if (c1 > e)
					c1 = e;
				need = missing(st, c0, c1, dst);
				if (!charge_room(dst, need, st, s, e, &cost))
					break;
				charged += need;
				c0 = c1;
			}
			cuemu_event_log("prefetch", "alloc=%llu gpu%d full: "
					"%lu of %lu bytes brought",
					(unsigned long long)st->a->id, dst,
					(unsigned long)(c0 - s),
					(unsigned long)(e - s));
			e = c0;
			if (s == e)
				return cost;
		}
	}
	if (mg_update(st, s, e, prefetch_fn, &c) < 0) {
		if (charged)
			cuemu_mem_uncharge(dst, charged);
		return cost;
	}
	if (dst == CUEMU_PROC_HOST && node >= 0)
		bind_node(st, s, e, node, true);
	cost += settle(st, &c.mv, dst, false, why);
	if (asked)
		cost += first_peer_prefetch(&c.mv, dst);
	view_apply(st, s, e);
	return cost;
}

uint64_t mg_migrate_to(struct mstate *st, uintptr_t s, uintptr_t e, int dst,
		       const char *why)
{
	return do_prefetch(st, s, e, dst, -1, why, false);
}

static void prefetch_op(CUstream s, void *arg)
{
	struct prefetch *pf = arg;
	struct mstate *st;
	uint64_t cost = 0;

	cuemu_lock();
	if ((st = mg_op_state(pf->id, pf->s, pf->e)))
		cost = do_prefetch(st, pf->s, pf->e, pf->dst, pf->node,
				   "prefetch", true);
	cuemu_unlock();
	cuemu_stream_advance(s, cost);
	free(pf);
}

CUresult mg_prefetch(CUstream s, CUdeviceptr p, size_t count,
		     CUmemLocation loc, int dst, int node)
{
	struct prefetch *pf;
	struct mstate *st;
	CUresult r;
	char w[24];

	if (!(pf = calloc(1, sizeof *pf)))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory");
	pf->dst = dst;
	pf->node = node;
	cuemu_lock();
	view_flush_open();
	r = mg_check_range(p, count, &st, &pf->s, &pf->e);
	/* The real driver records the last prefetch location when the
	 * prefetch is enqueued, before the stream runs it. */
	if (r == CUDA_SUCCESS && note_prefetch(st, pf->s, pf->e, loc) < 0)
		r = cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
			       "out of host memory for the range model");
	if (r == CUDA_SUCCESS)
		pf->id = st->a->id;
	cuemu_unlock();
	if (r != CUDA_SUCCESS) {
		free(pf);
		return r;
	}
	cuemu_event_log("prefetch", "alloc=%llu [0x%lx,0x%lx) to %s",
			(unsigned long long)pf->id, (unsigned long)pf->s,
			(unsigned long)pf->e, cuemu_loc_str(loc, w, sizeof w));
	r = cuemu_stream_enqueue(s, prefetch_op, pf);
	if (r != CUDA_SUCCESS)
		free(pf);
	return r;
}

/* ------------------------------------------------------------------ */
/* Copies touching managed memory                                      */

CUresult cuemu_managed_touch(uintptr_t p, size_t len, int proc, bool write,
			     CUstream s)
{
	struct mstate *st;
	uintptr_t b, e;
	uint64_t cost = 0;
	bool remote = false;

	if (!len)
		return CUDA_SUCCESS;
	if (proc < 0 || proc >= CUEMU_NPROC)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "no processor %d", proc);
	cuemu_lock();
	if (!(st = mg_find(p))) {
		cuemu_unlock();
		return CUDA_SUCCESS; /* not managed: nothing to resolve */
	}
	b = CUEMU_ALIGN_DOWN(p, CUEMU_PAGE);
	e = CUEMU_ALIGN_UP(p + len, CUEMU_PAGE);
	if (e > st->a->base + st->a->span)
		e = st->a->base + st->a->span;
	mg_set_now(s ? cuemu_stream_now(s) : cuemu_host_now());
	mg_fault(st, b, e, proc, write,
		 (e - b + FAULT_BLOCK - 1) / FAULT_BLOCK, &cost, &remote);
	if (remote)
		cost += cuemu_fault_latency_ns(); /* mapping it, once */
	view_apply(st, b, e);
	/* The copy itself runs on a CPU thread: when the model left the
	 * bytes on a GPU, open them to the copy until the next flush. */
	if (proc != CUEMU_PROC_HOST || remote ||
	    view_current() != CUEMU_PROC_HOST)
		view_open(b, e, write);
	cuemu_unlock();
	if (s && cost)
		cuemu_stream_advance(s, cost);
	return CUDA_SUCCESS;
}

