/*
 * managed.h - the managed memory model as its files share it and as the
 * layers above read it: the range model (range.c), the managed allocations
 * (managed.c: the calls the driver entries make, what the policies and /cu
 * read), and the fault mechanism (fault.c). Nothing here is visible
 * outside libcuemu; the policies' event bus is perf.h.
 *
 * Locking: every function below expects cuemu_lock() held unless it says
 * it takes the lock, except the range-model functions (mr_*), which are
 * pure data structure code and leave locking to their caller.
 */
#ifndef CUEMU_MANAGED_H
#define CUEMU_MANAGED_H

#include "model/internal.h"

/* ------------------------------------------------------------------ */
/* The range model (range.c)                                           */

/* A maximal run of pages of one allocation with the same policy and the
 * same residency. The first group of fields decides equality (two equal
 * neighbours merge); the last group is bookkeeping that a merge combines. */
struct mrange {
	RB_ENTRY(mrange) node;
	uintptr_t start, end;          /* page aligned, [start, end) */

	/* policy */
	CUmemLocation pref;            /* type INVALID: no preferred location */
	CUmemLocation last_prefetch;   /* type INVALID: never prefetched */
	cuemu_procmask accessed_by;
	bool read_mostly;
	/* residency */
	cuemu_procmask holders;        /* processors holding a copy; 0: never
	                                * populated */
	cuemu_procmask ro;             /* GPUs among them whose mapping a read
	                                * duplication left read-only (the
	                                * advice set or taken back): their
	                                * next write faults to upgrade it
	                                * (probes/results/advise.txt); a
	                                * processor that stops holding a
	                                * range loses its bit (mr_update);
	                                * not compared: a merge keeps the
	                                * GPUs both sides had */
	cuemu_procmask maps;           /* GPUs that map it remotely by a
	                                * fault of theirs (a preferred
	                                * location they reach, no
	                                * accessed_by): their later accesses
	                                * do not fault; gone for all when
	                                * its holders change (mr_update),
	                                * the mapping pointing where the
	                                * pages were. Compared: a kernel
	                                * maps block by block */
	int host_node;                 /* node the host copy is bound to, -1:
	                                * where the kernel chose */
	bool pinned;                   /* thrashing: stays at pin_proc, the
	                                * other thrashers map it remotely */
	int pin_proc;                  /* where it is pinned (thrash.c) */

	/* bookkeeping, not compared: a merge keeps the newest / the most */
	uint64_t lru;                  /* last use, a process-wide stamp */
	/* thrashing (thrash.c), in model time */
	uint32_t moves;                /* migrations within a lapse of each
	                                * other, in a row */
	uint32_t throttles;            /* throttles since detection */
	uint64_t thrash_ns;            /* model time of the last migration */
	uint64_t thrash_first_ns;      /* the earliest of its pages' last
	                                * migrations (a merge keeps the
	                                * earliest nonzero): a lapse counts
	                                * from each page's own migration */
	uint64_t pin_until_ns;         /* model time the pin lapses */
	cuemu_procmask thrashers;      /* processors that migrated it */
};

RB_HEAD(mrtree, mrange);

struct mranges {
	struct mrtree tree;
	size_t n;
};

/* One fresh range covering [start, end). -1 when out of memory. */
int mr_init(struct mranges *m, uintptr_t start, uintptr_t end);
void mr_destroy(struct mranges *m);
struct mrange *mr_first(struct mranges *m);
struct mrange *mr_next(struct mranges *m, struct mrange *r);
struct mrange *mr_prev(struct mranges *m, struct mrange *r);
/* The range containing p, or NULL. O(log n). */
struct mrange *mr_find(struct mranges *m, uintptr_t p);
/* Same policy and residency: neighbours that may merge. */
bool mr_same(const struct mrange *a, const struct mrange *b);

/* The one routine that changes the model: splits ranges at start and end
 * (page aligned, inside the allocation), calls fn on each range inside
 * [start, end) in address order, then merges every range that became equal
 * to its neighbour, edges included. fn may change any field except start
 * and end. Returns 0, or -1 when a split ran out of memory (nothing
 * changed then). */
typedef void (*mr_fn)(struct mrange *r, void *arg);
int mr_update(struct mranges *m, uintptr_t start, uintptr_t end, mr_fn fn,
	      void *arg);
/* Makes dst describe the pages of every range of src as src does (policy,
 * residency, bookkeeping), through mr_update: src's span must lie inside
 * dst's. -1 when a split ran out of memory; dst may then hold part of
 * src's state, so callers graft into a map they can throw away. */
int mr_graft(struct mranges *dst, struct mranges *src);

/* ------------------------------------------------------------------ */
/* The managed address range (arena.c)                                 */

/* Maps span bytes with protection prot for a managed allocation, 2 MiB
 * aligned: MAP_FAILED, or the mapping. */
void *arena_map(size_t span, int prot);
/* Undoes arena_map: the pages go, the address space stays the arena's. */
void arena_unmap(void *p, size_t span);

/* ------------------------------------------------------------------ */
/* Managed allocations (managed.c)                                     */

struct mstate {
	struct cuemu_alloc *a;
	struct mranges ranges;
	uint64_t ctr[CUEMU_CTR__COUNT];   /* this allocation's counters */
	/* The model time its moves cost, in ns: fault_ns what faults took
	 * (their migrations, remote service), migration_ns what prefetches
	 * and evictions took. */
	uint64_t fault_ns, migration_ns;
	bool bound;                       /* some of it was ever mbind()ed */
	unsigned attach;          /* CU_MEM_ATTACH_*: allocation, then attach.c */
	uint64_t attach_stream;   /* the stream's id (uid) for SINGLE, or 0 */
	/* A block of a managed pool (pool_managed.c): its pool and the
	 * pool's record of it; NULL for cuMemAllocManaged memory. */
	struct CUmemPoolHandle_st *pool;
	void *pool_block;
};

/* The managed state of the allocation containing p, or NULL. Read from
 * the address map, so that fault.c's views need nothing of managed.c. */
static inline struct mstate *mg_find(uintptr_t p)
{
	struct cuemu_alloc *a = cuemu_va_find(p);

	return a && a->kind == CUEMU_KIND_MANAGED ? a->priv : NULL;
}

/* Resolves an access by proc to [start, end) (page aligned, one or more
 * ranges of st) as a fault would: populate, migrate, duplicate, collapse or
 * map remotely by policy; counts, and adds the model cost to *cost_ns.
 * Sets *remote when the access is served remotely (no migration), so that
 * a GPU view opens the pages without changing the model. faults: how many
 * faults to count (0 for a copy engine access). */
void mg_fault(struct mstate *st, uintptr_t start, uintptr_t end, int proc,
	      bool write, uint64_t faults, uint64_t *cost_ns, bool *remote);

/* Lock held: dev's mappings of [s, e), within the allocation holding s,
 * are writable again: its writes there upgraded them. */
void mg_write_upgraded(uintptr_t s, uintptr_t e, int dev);
/* mr_update of st's ranges that also marks the allocation changed, so
 * that /cu publishes it: what every change of a managed range goes
 * through. */
int mg_update(struct mstate *st, uintptr_t s, uintptr_t e, mr_fn fn,
	      void *arg);

/* Moves [s, e) of st to dst as a prefetch does (an access counter's
 * migration); why names it in the log. The model cost. Lock held. */
uint64_t mg_migrate_to(struct mstate *st, uintptr_t s, uintptr_t e, int dst,
		       const char *why);

/* Adds n to counter c of st and of processor proc. */
void mg_count(struct mstate *st, int proc, enum cuemu_counter c, uint64_t n);

/* Moves [s, e) of st (inside one range that dev holds) off dev: to the
 * host where dev held the only copy, dropped where others hold one; counts,
 * logs, and adds the model cost to *cost. false when the range model ran
 * out of memory (nothing changed). evict.c chooses what. */
bool mg_evict(struct mstate *st, uintptr_t s, uintptr_t e, int dev,
	      uint64_t *cost);

/* On a pageable machine, the SYSTEM allocation holding [p, p + count) of
 * memory from malloc or mmap, registered at its first use (system.c):
 * INVALID_VALUE where the span is not mapped or runs into a CUDA
 * allocation; a span over registrations and past them joins them. */
CUresult mg_system_range(uintptr_t p, size_t count, struct mstate **out);

/* Calls fn on every allocation the range model tracks: managed ones in
 * address order, then system registrations in address order. */
static inline void mg_each(void (*fn)(struct mstate *st, void *arg), void *arg)
{
	struct cuemu_alloc *a;

	for (a = cuemu_va_first(); a; a = cuemu_va_next(a))
		if (a->kind == CUEMU_KIND_MANAGED && a->priv)
			fn(a->priv, arg);
	for (a = cuemu_sys_first(); a; a = cuemu_sys_next(a))
		fn(a->priv, arg);
}

/* A device that can hold managed memory (concurrent managed access). */
bool mg_dev_ok(int dev);
/* The host NUMA node of the calling thread's CPU (NUMA_CURRENT). */
int mg_current_node(void);
/* The word an advice has in /cu and the event log ("set_read_mostly"). */
const char *mg_advice_name(CUmem_advise a);

/* cuMemAllocManaged's work once its arguments are checked: maps, records
 * and announces a managed allocation made in ctx on dev. Takes the process
 * lock for the insert into the address map only. */
CUresult mg_alloc(CUcontext ctx, int dev, size_t size, unsigned int flags,
		  CUdeviceptr *dptr);
/* The parts of mg_alloc and of the free a managed pool uses for its
 * blocks: mg_new maps a managed allocation and its state, not yet in the
 * address map (NULL, having failed with a message, when it cannot), with
 * the lock held or not; mg_delete undoes it once it left the map, giving
 * back what the GPUs held of it, with the lock held (fault_forget). */
struct cuemu_alloc *mg_new(CUcontext ctx, int dev, size_t size,
			   unsigned int flags, CUresult *r);
void mg_delete(struct cuemu_alloc *a);
/* Gives back the device memory st's ranges hold in the model (held.c). */
void mg_uncharge(struct mstate *st);
/* The ranged state a queued operation over [s, e) was made for: the
 * allocation id, or where that is gone, the system registration that now
 * covers [s, e) (a wider call joins registrations under a new id; see
 * system.c); NULL when neither exists. cuemu_lock held. */
struct mstate *mg_op_state(uint64_t id, uintptr_t s, uintptr_t e);

/* [p, p+count) must lie in one managed allocation: its state, and the span
 * widened to whole pages in *s, *e. Lock held. */
CUresult mg_check_range(CUdeviceptr p, size_t count, struct mstate **st,
			uintptr_t *s, uintptr_t *e);

/* Applies an advice to [p, p+count), whose location the caller checked
 * (proc: the accessed-by processor, or -1). Takes the process lock. */
CUresult mg_advise(CUdeviceptr p, size_t count, CUmem_advise what,
		   CUmemLocation loc, int proc);

/* Records loc as the last prefetch location of [p, p+count) now, as the
 * real driver does when the prefetch is enqueued, and enqueues on s the
 * move to processor dst (host node node, or -1). Takes the process lock;
 * the move takes it again on the stream's worker. */
CUresult mg_prefetch(CUstream s, CUdeviceptr p, size_t count,
		     CUmemLocation loc, int dst, int node);

/* Drops the residency of [p, p+count) in the order of s, moving nothing
 * (discard.c): every copy goes, so the range reads as never populated and
 * its next use populates it where it happens, without a copy. The bytes
 * stay as they were, as on the real driver. Its last prefetch location
 * and advice stay. Checks the range now; takes the process lock. */
CUresult mg_discard(CUstream s, CUdeviceptr p, size_t count);

/* A declared access (cuemuAccess) of [p, p+n) by s's device, resolved as
 * faults in stream order. Memory that is not managed has nothing to
 * resolve. Takes the process lock. */
CUresult mg_access(CUstream s, CUdeviceptr p, size_t n, bool write);

/* cuStreamAttachMemAsync's work once the stream and flags are checked
 * (attach.c): p must be the base of a managed allocation and length 0 or
 * its size; records the attachment to s. Takes the process lock. */
CUresult mg_attach(CUstream s, CUdeviceptr p, size_t length, unsigned flags);

/* The word for an attachment in /cu: "global", "host" or "single". */
const char *mg_attach_name(unsigned flags);

/* What a span of ranges agrees on (range attributes, /cu). */
struct mg_agg {
	bool read_mostly;
	bool pref_mixed, lp_mixed;     /* the locations differ: INVALID */
	CUmemLocation pref, lp;
	cuemu_procmask accessed_by;   /* set over the whole span */
	cuemu_procmask holders_all;   /* hold every page */
	uint64_t bytes[CUEMU_NPROC];  /* resident bytes by processor */
};
/* Aggregates [s, e) of st; reported: the preferred location as the real
 * driver reports it (a NUMA node reads back as the host). Lock held. */
void mg_aggregate(struct mstate *st, uintptr_t s, uintptr_t e,
		  struct mg_agg *g, bool reported);
/* Adds to node_bytes[n] the bytes of the host-resident pages of [s, e)
 * that the kernel placed on NUMA node n (move_pages), or would place there
 * on first touch (not placed yet); large spans are sampled, some 512 pages
 * in all (each range its share, at least one), each standing for its share
 * of its range, so that the nodes add up to the host's bytes. Lock held. */
void mg_numa_bytes(struct mstate *st, uintptr_t s, uintptr_t e,
		   uint64_t *node_bytes);

/* ------------------------------------------------------------------ */
/* Faults and views (fault.c): the mechanism. It calls nothing of
 * managed.c: it asks the resolver registered with it.                 */

/* A fault the resolver settled: [s, e) of st, and whether the model serves
 * it remotely (the block is then opened in place, the model unchanged). */
struct fault_done {
	struct mstate *st;
	uintptr_t s, e;
	bool remote;
	uint64_t cost;          /* model cost, ns */
	int prot;               /* an emulated kernel's fault: the protection
	                         * [s, e) opens with; -1: the view's */
};
/* Resolves a fault at addr by proc (CUEMU_PROC_HOST or the device of the
 * running emulated kernel); was_write: what the CPU says of the access.
 * false: no managed range holds addr. Lock held. */
typedef bool (*fault_resolver)(uintptr_t addr, int proc, bool was_write,
			       struct fault_done *out);
/* Sets the resolver; managed.c does, from a constructor. */
void fault_set_resolver(fault_resolver fn);
/* What prices an emulated kernel (kernel.c's model), each called on the
 * kernel's thread, kernels one at a time: begin as it starts on a stream
 * at model time now; sectors_counted when it says it is the engine's,
 * which counts the sectors it moves (its looks then charge no bytes of
 * their own); fault_ns, its faults' service so far (fault entries,
 * batches, migrations, page services); end, its whole model time. */
struct fault_pricing {
	void (*begin)(int dev, uint64_t now);
	void (*sectors_counted)(void);
	uint64_t (*fault_ns)(void);
	uint64_t (*end)(void);
};
/* Sets it; kernel.c does, from a constructor, so that the fault
 * mechanism calls nothing of the models above it. */
void fault_set_pricing(const struct fault_pricing *p);

/* The address spans the handler takes faults in (the managed
 * allocations): watch at allocation, unwatch at free, and ask without any
 * lock held. watch: 0, or -1 out of memory. */
int fault_watch(uintptr_t start, uintptr_t end);
void fault_unwatch(uintptr_t start);
bool fault_watched(uintptr_t p);

/* Installs the SIGSEGV handler once (cuMemAllocManaged calls it). 0/-1. */
int fault_install(void);
/* A CPU fault's host trap, measured at install with the clock in model
 * time (ns of the thread's CPU time; 0 when not measured): left out of
 * the faulting thread's clock at each CPU fault (fault.c). */
uint64_t fault_trap_ns(void);
/* The protection a new managed mapping starts with: PROT_NONE, or
 * read-write where real faults are off (under valgrind). */
int fault_initial_prot(void);
/* [start, end) is unmapped (a managed allocation freed): its pages show
 * nothing any more, as a new mapping there starts. Lock held. */
void fault_forget(uintptr_t start, uintptr_t end);
/* Sets the protections of [start, end) of st to what the processor whose
 * view is current (the CPU, or the device of the running emulated kernel)
 * may touch without a fault. */
void view_apply(struct mstate *st, uintptr_t start, uintptr_t end);
/* Re-protects the pages a copy opened (see cuemu_managed_touch). */
void view_flush_open(void);
/* Opens [start, end) for the runtime's own access until the next flush. */
void view_open(uintptr_t start, uintptr_t end, bool write);
/* The processor whose view is installed: CUEMU_PROC_HOST or a GPU. */
int view_current(void);
/* Runs fn(arg) on s's worker as a kernel of s's device: its touches of
 * managed memory fault as that device's (cuemuLaunchHostFunc). */
CUresult fault_launch(CUstream s, void (*fn)(void *), void *arg);
/* The same for fn that calls fault_look on each managed page before its
 * first touch of it (the engine's kernels, driver/launch.c): the address
 * space then switches to the device's view lazily, a run of the CPU's
 * open pages at a time as the kernel first looks at it, not all of them
 * at the switch. */
CUresult fault_launch_looked(CUstream s, void (*fn)(void *), void *arg);
/* The running kernel is about to touch managed page p: closes what the
 * CPU's view opens around it, so that the touch faults as the device's.
 * Lock held. */
void fault_look(uintptr_t p);
/* A module's kernel running as such a function says so (driver/launch.c's
 * run(), on the kernel's thread): its launch begins, on the event bus
 * (perf.h), with what it is; a warp of it looked up a page of allocation
 * alloc (page() of the bridge, under cuemu_lock); it ended, with what the
 * engine tallied (by enum perf_place) and its CUresult. The launch's end
 * goes on the bus when its model time is known, after the function. */
struct perf_launch;
void fault_launch_begin(const char *kernel, const uint32_t grid[3],
			const uint32_t block[3], uint32_t shared_bytes,
			uint32_t registers);
void fault_launch_page(uint64_t alloc, uintptr_t page, bool write);
void fault_launch_end(const uint64_t *bytes_read,
		      const uint64_t *bytes_written, const uint64_t *peer_read,
		      const uint64_t *peer_written, int status);
/* The launch the calling thread runs, or NULL (perf.h's .launch). */
const struct perf_launch *fault_launch_running(void);
/* Marks the calling thread as one the running emulated kernel on dev
 * started (its touches fault as that device's, as the kernel's own
 * thread's do, and it may use the pages the kernel's faults opened), or,
 * with -1, as a CPU thread again. Only between the
 * kernel's start and its end: fn's threads, joined before fn returns. */
void fault_kernel_thread(int dev);

/* ------------------------------------------------------------------ */
/* The timing model's mechanisms (uvm.h has their parameters)          */

/* What a fault does to the pages of one range (residency.c). */
enum mg_act {
	MG_NONE,      /* resident where needed */
	MG_COLLAPSE,  /* the copy at .to becomes the only one */
	MG_POPULATE,  /* first touch: the pages come to life at .to */
	MG_DUP,       /* a read-only copy is made at .to */
	MG_MIGRATE,   /* the pages move to .to, other copies dropped */
	MG_REMOTE,    /* the pages stay at .to; the faulting one maps them */
};
/* Which step of the driver's order decided (for the tests and the log). */
enum mg_branch {
	MG_BR_RESIDENT, MG_BR_READ_DUP, MG_BR_PREFERRED, MG_BR_PIN,
	MG_BR_FIRST_TOUCH, MG_BR_ACCESSED_BY, MG_BR_TO_PREFERRED,
	MG_BR_TO_REQUESTER,
	MG_BR_COHERENT,
};
struct mg_choice {
	enum mg_act act;
	int to;                /* processor the pages end up at (or stay) */
	enum mg_branch branch;
};
/* Who reaches what: can_map(p, loc) says processor p can map memory
 * resident at loc (a GPU maps the host's and its NVLink peers' memory; on
 * a host without coherence the CPU maps only its own); gbps the link. */
struct mg_reach {
	bool (*can_map)(int proc, int loc);
	double (*gbps)(int from, int to);
};
/* The decision for an access by proc to r, in the driver's order: read
 * duplication, a CPU access on a hardware-coherent machine (the CPU maps
 * every GPU: the pages stay where they are), the preferred location, a
 * thrashing pin, first touch at the preferred location, accessed-by keeps residency and maps, otherwise
 * migrate to the preferred location (mapped from proc) or to proc. */
struct mg_choice mg_decide(const struct mrange *r, int proc, bool write,
			   const struct mg_reach *reach);
/* The holder of holders closest to proc (fastest link), or -1. */
int mg_closest(cuemu_procmask holders, int proc,
	       double (*gbps)(int from, int to));
/* The machine's reach (the topology's links; reach.c). */
extern const struct mg_reach mg_machine_reach;

/* The region a GPU fault at addr by dest brings (prefetch.c): the 64 KiB
 * big page around it, grown as the driver's prefetch heuristic grows it
 * inside [lo, hi), the largest it may bring (its 2 MiB block within one
 * policy): to the largest aligned power-of-two region around addr more
 * than threshold percent of whose pages would then be resident on dest.
 * thrashing: no growth, the 4 KiB page alone. Reads the range model. */
void pf_region(struct mranges *m, uintptr_t addr, int dest, uintptr_t lo,
	       uintptr_t hi, unsigned threshold, bool grow, bool thrashing,
	       uintptr_t *s, uintptr_t *e);
/* Whether r thrashes: pinned, or moved thrash_threshold times (a fault
 * in it brings no more than it must). */
bool pf_thrashing(const struct mrange *r);
/* The region a fault at addr in r by dest brings (a GPU, or the CPU: the
 * driver asks the same hint for both): pf_region within addr's 2 MiB
 * block and the ranges of r's policy around it, grown unless r thrashes
 * (pf_thrashing). */
void pf_fault_region(struct mranges *m, struct mrange *r, uintptr_t addr,
		     int dest, uintptr_t *s, uintptr_t *e);
/* Bytes of [s, e) that dest holds. */
uint64_t pf_resident(struct mranges *m, uintptr_t s, uintptr_t e, int dest);

/* The model time of the access being resolved, for thrashing: set by
 * whoever calls mg_fault (the kernel model, the CPU fault handler, a
 * copy) on its own thread (reach.c). */
void mg_set_now(uint64_t ns);
uint64_t mg_now(void);

/* thrash.c: the thrashing detector's step for a fault about to migrate r
 * to proc at model time now (see perf.h, PERF_EVENT_FAULT_MIGRATE). */
enum thrash_hint { THRASH_NONE, THRASH_THROTTLE, THRASH_PIN };
struct thrash_out {
	enum thrash_hint hint;
	int pin_proc;          /* THRASH_PIN: where */
	bool unpinned;         /* a pin lapsed before this step */
	bool detected;         /* this step found thrashing */
};
struct cuemu_uvm;
struct thrash_out thrash_step(struct mrange *r, int proc, uint64_t now,
			      const struct cuemu_uvm *u,
			      const struct mg_reach *reach);

/* thrash.c: a pin of r that has lapsed by now is undone (true). */
bool thrash_unpin_due(struct mrange *r, uint64_t now,
		      const struct cuemu_uvm *u);

/* A fault-driven migration of bytes from one processor to another
 * (reach.c): the transfer, a CPU fault's service a 4 KiB page, and for a
 * GPU fault the unmapping of each page it takes, from the host or from
 * another GPU (uvm.host_page_ns, peer_page_ns). */
uint64_t km_fault_move_ns(int from, int to, uint64_t bytes);

/* The kernel model (kernel.c): what an emulated kernel's accesses cost.
 * An emulated kernel (cuemuLaunchHostFunc) or a declared access
 * (cuemuAccess) is one kernel: its fault entries, serviced in batches, the
 * migrations they make, and its memory time by where the bytes are. */
/* An emulated kernel's touch of addr (a page it had not touched yet) on
 * dev: resolves it as the GPU's fault or access, and says what to open.
 * managed.c's resolver hands a GPU's faults to it; kernel.c sets it,
 * from a constructor, so that the managed model calls nothing of the
 * kernel model above it. */
typedef bool (*mg_kernel_touch)(struct mstate *st, uintptr_t addr, int dev,
				bool was_write, struct fault_done *out);
void mg_set_kernel_touch(mg_kernel_touch fn);

/* What a kernel the PTX engine ran did, beside what its faults tell the
 * kernel model: its instructions and shape (the compute term and the
 * launch's), and what its memory instructions moved by the processor
 * holding it (managed memory's where km_lookup said, when the engine
 * first looked the page up): each 32-byte sector they touched read or
 * written whole, the 64-byte DRAM units those lie in, and the read
 * requests they made (a run of sectors one after another is one). */
struct km_work {
	uint64_t warp_instructions;
	uint64_t blocks, warps;           /* the grid's */
	uint64_t read[CUEMU_NPROC];       /* bytes of sectors read, by where */
	uint64_t written[CUEMU_NPROC];    /* ... and written */
	uint64_t dram[CUEMU_NPROC];       /* bytes of DRAM units, both */
	uint64_t requests[CUEMU_NPROC];   /* read requests */
	/* of read and written: the bytes of load sectors an L1 served, and
	 * of store sectors a warp's SM merged (exec.h ex_result) */
	uint64_t l1_read[CUEMU_NPROC], merged[CUEMU_NPROC];
	/* its own GPU's memory: the bytes of the distinct 4 KiB pages it
	 * read plus those it wrote (each moved by the DRAM at least once),
	 * and of the distinct pages (what the L2 must hold for rereads to
	 * hit); 0: not known */
	uint64_t compulsory, distinct;
	/* its blocks' chains of dependent instructions, in cycles (the
	 * engine's ex_result.chain_*): the longest block's and their sum;
	 * and the blocks of it an SM holds at once (the occupancy
	 * calculator's); 0: not timed */
	uint64_t chain_max, chain_sum;
	uint32_t resident;
	/* bytes of the pages it read that its GPU's L2 kept from the kernel
	 * before (kept.c): no DRAM moves them */
	uint64_t kept;
	/* of its distinct pages, those the L2 did not keep (0: not known) */
	uint64_t dram_pages;
	/* a graph's kernel node: its start costs uvm.graph_node_ns, not a
	 * launch's launch_ns */
	bool graph_node;
	/* the launches its threads made from the device: their own time
	 * (the engine's, ex_result.device_launch_ns) */
	uint64_t device_launch_ns;
};
/* The latencies of dev's warps' chains, in its cycles (uvm.*_latency_ns
 * at its clock): an arithmetic result, a load from the L1, a load of
 * global memory from the L2, and from the DRAM; an SM's L1 and shared
 * memory, bytes (uvm.l1_bytes), and the lines the L2 holds, bytes
 * (uvm.l2_hold_bytes). */
struct km_latency {
	uint32_t alu, l1, load, dram;
	uint64_t l1_bytes, l2_bytes;
};
void km_latency_of(int dev, struct km_latency *l);
/* A warp of the running kernel on dev looks managed page p up (the
 * engine's translation cache missed): the processor whose memory serves
 * the access, dev where it holds the page, else where the residency
 * decision leaves or brings it (a fault brings it to dev, a remote
 * mapping reads it where it is). A write to a read-duplicated page dev
 * holds a copy of is a fault entry of the warp's own, serviced with the
 * batch's others on its block: *own_entry says so (every other answer
 * holds for the kernel's other warps until the model's generation
 * moves). cuemu_lock held. */
int km_lookup(uintptr_t p, int dev, bool write, bool *own_entry);
/* Gives the running kernel (km_begin's, on its thread) the engine's
 * account of it, before km_end prices it. */
void km_work(const struct km_work *w);

/* A kernel's faults come in waves, each waking the fault service anew
 * (its interrupt, the servicing thread): its reads' faults, and its
 * writes', which wait for the values read and so for the first wave's
 * replay. A write to a page a read brought writable faults no more. */
#define KM_WAVE_READ 1u
#define KM_WAVE_WRITE 2u

/* The pure part of the kernel model, for its tests. */
struct km_tally {
	uint64_t entries;                 /* fault entries */
	unsigned waves;                   /* KM_WAVE_*: the waves they came
	                                   * in */
	uint64_t service_ns;              /* migrations, page services */
	uint64_t bytes[CUEMU_NPROC];      /* accessed, by where they are:
	                                   * bytes of buffer, each read and
	                                   * written */
	/* what crossed a link to memory elsewhere (a kernel the engine ran):
	 * bytes read and written, and read requests, by where */
	uint64_t link_read[CUEMU_NPROC], link_written[CUEMU_NPROC];
	uint64_t link_requests[CUEMU_NPROC];
	uint64_t compute_ns;              /* instructions at the issue rate */
	uint64_t launch_ns;               /* the launch's own time (a kernel
	                                   * the engine ran: none for the
	                                   * others, whose launch nobody
	                                   * made) */
	uint64_t dispatch_ns;             /* the SMs taking its blocks */
	uint64_t chain_ns;                /* its blocks' chains, each SM
	                                   * running those it holds at
	                                   * once side by side */
	uint64_t cache_read;              /* bytes of sectors its warps read
	                                   * at its own GPU's memory, every
	                                   * one through the caches ... */
	uint64_t cache_l1;                /* ... which its L1s served so
	                                   * many of, ... */
	uint64_t cache_written;           /* ... and wrote, ... */
	uint64_t cache_merged;            /* ... so many to a warp's last
	                                   * store's lines, ... */
	int cache_at;                     /* ... of this GPU, ... */
	uint64_t cache_sms;               /* ... of the SMs its blocks
	                                   * occupy (0: all): each SM's
	                                   * caches serve their share */
	uint64_t dram_pages;              /* the distinct 4 KiB pages of its
	                                   * own GPU's memory the L2 did not
	                                   * keep for it: a row of the DRAM
	                                   * opened each, at least */
	uint64_t rm_blocks;               /* the (batch, 2 MiB block) pairs
	                                   * of write entries to
	                                   * read-duplicated memory */
	uint64_t upgrades;                /* write entries that only upgrade
	                                   * a read-only mapping the GPU
	                                   * holds (struct mrange.ro): they
	                                   * fill batches, no service each */
};
struct km_rates {
	uint32_t batch_faults;
	uint64_t batch_ns, fault_ns;
	uint64_t wave_ns;                 /* a wave of faults' wake */
	uint64_t rm_block_ns;             /* a rm_blocks pair's service */
	double gbps[CUEMU_NPROC];         /* memory time by location: bytes
	                                   * of buffer read and written a
	                                   * second (traffic at twice that) */
	/* a link's own limits, by location (0: none): bytes it carries a
	 * second toward the GPU (reads) and away (writes), and millions of
	 * read requests it serves a second */
	double read_gbps[CUEMU_NPROC], write_gbps[CUEMU_NPROC];
	double mreq[CUEMU_NPROC];
	/* the compute term's device: SMs, warp instructions an SM issues
	 * a clock, its clock in kHz */
	uint32_t sms, issue;
	uint64_t clock_khz;
	/* a launch's fixed time, and an SM's time to take a block */
	uint64_t launch_ns, block_ns;
	/* the GPU's caches: the sectors they serve a second (bytes), of
	 * them the loads its L1s serve and the stores to new lines its L2
	 * takes (0: at cache_gbps), and what its L2 holds (bytes; 0 none) */
	double cache_gbps, l1_gbps, store_gbps;
	uint64_t l2_bytes;
	/* the distinct pages of its memory the DRAM opens a nanosecond (0:
	 * no such bound) */
	double dram_pages_ns;
};
/* The bytes of DRAM traffic of a kernel whose sectors' 64-byte units came
 * to dram: where it reread what it had already moved (dram beyond the
 * compulsory bytes of the pages it reached), the L2 served the rereads if
 * its distinct pages fit in l2_bytes, else the share that did not fit
 * went to the DRAM again. compulsory 0 (not known): dram. */
uint64_t km_dram_bytes(uint64_t dram, uint64_t compulsory, uint64_t distinct,
		       uint64_t l2_bytes);
/* traffic (km_dram_bytes') less what the L2 kept from the kernel before
 * served: kept bytes of the pages read, each moving the share of its
 * bytes the kernel's units came to (dram over compulsory, at most all). */
uint64_t km_dram_kept(uint64_t traffic, uint64_t dram, uint64_t compulsory,
		      uint64_t kept);
/* Batches that entries take, batch_faults at most each. */
uint64_t km_batches(uint64_t entries, uint32_t batch_faults);
/* The parts of a kernel's model time: its faults' service, its memory
 * time by location (at each, the longest of its buffer at the place's
 * rate, and of what crosses a link, its reads, writes and read requests
 * each at the link's own limit: a link carries both ways at once and
 * serves so many requests a second), and the time its SMs take to issue
 * w's instructions
 * (spread over the SMs its blocks fill, each issuing at most one
 * instruction a clock per warp it holds). */
uint64_t km_fault_ns(const struct km_tally *t, const struct km_rates *r);
uint64_t km_memory_ns(const struct km_tally *t, const struct km_rates *r);
uint64_t km_compute_ns(const struct km_work *w, const struct km_rates *r);
/* The time the SMs take to be given w's blocks: a block at a time each,
 * block_ns a block. */
uint64_t km_dispatch_ns(const struct km_work *w, const struct km_rates *r);
/* The time w's blocks' chains take: the longest block's, or the sum of
 * them over the blocks the SMs hold at once, whichever is longer. */
uint64_t km_chain_ns(const struct km_work *w, const struct km_rates *r);
/* The model time of a kernel's tally: its launch's fixed time and its
 * faults' service, then the longest of its memory, compute, dispatch and
 * chain time (a roofline: the SMs issue while memory streams and blocks
 * arrive, and no warp runs faster than what it waits for). */
uint64_t km_cost(const struct km_tally *t, const struct km_rates *r);
/* The rates of a kernel on dev (the topology's). */
void km_rates_of(int dev, struct km_rates *r);

#endif
