/*
 * fault.c - the fault mechanism: real CPU faults on managed memory, the
 * views (the protections that show what a processor holds) and the GPU
 * view of emulated kernels.
 *
 * A processor that holds no copy of a managed page sees it PROT_NONE (read
 * only while other copies exist). A chained SIGSEGV handler turns a touch of
 * such a page into a fault and hands it to the resolver registered with it
 * (managed.c), which migrates, duplicates or maps remotely by policy; the
 * page's protections then follow the model, and the instruction is
 * restarted. Addresses outside the watched spans go to the previous
 * handler. This file calls nothing of managed.c: it reads the range model
 * (range.c) and the address map, and asks the resolver; nor of kernel.c,
 * whose model of a running kernel's time it reaches through the pricing
 * hook kernel.c sets (fault_set_pricing).
 *
 * fault_launch (cuemuLaunchHostFunc) runs a function as a kernel on a
 * stream's device: the whole address space switches to that device's view
 * (everything PROT_NONE until the kernel touches it), the function's
 * touches fault as GPU faults, and the CPU view is put back afterwards. A
 * switch changes only the pages whose protection differs between the two
 * views: this file keeps what every managed page shows (the runs below),
 * so closing the address space for a kernel costs one mprotect a run of
 * open pages, and coming back looks only at what the kernel's view closed,
 * what its looks opened and what the model changed meanwhile, not at every
 * allocation. A kernel that looks each managed page up before it touches
 * it (fault_launch_looked: the engine's) takes its view lazily: a run the
 * CPU's view opens is closed when the kernel first looks at a page of it
 * (fault_look), so memory the kernel never touches is never switched.
 * Emulated kernels run one at a time in a process
 * (kernel_lock). Pages a kernel's faults open carry a protection key that
 * only the kernel's threads may use, where the host has keys; a CPU
 * thread's fault (on a closed page or on one of those) waits for the
 * process's kernels in flight to end, or for none to begin or end for a
 * second (a kernel polling memory the CPU is about to write), and is then
 * served (DESIGN.md, "A CPU touch while kernels run"). A module's kernel
 * (driver/launch.c) is such a function that says its launch: this file
 * keeps the running launch and puts its beginning, its pages and its end
 * on the event bus (perf.h), so that every event its threads raise
 * carries it.
 *
 * The whole handler is libcuemu's work, bracketed out of the faulting
 * thread's model clock (clock.h); the host's trap around it (the signal's
 * delivery and return, the restarted access), which no bracket encloses,
 * is measured once at install with the clock in model time and left out
 * of the thread's CPU time at each CPU fault the model serves.
 *
 * Under valgrind (or with CUEMU_NO_FAULTS set) real faults are off: valgrind
 * loses the fault address when a handler changes protections and restarts
 * the access. Managed memory is then plain read-write memory; prefetch,
 * advice, cuemuAccess and copies still move the model, CPU touches and
 * emulated kernels' touches are not seen.
 *
 * Locking: the handler takes cuemu_lock. That is not async-signal-safe in
 * general; it is safe here because these faults are synchronous (raised by
 * the faulting instruction itself, never delivered asynchronously) and the
 * rule of internal.h forbids touching managed memory while holding
 * cuemu_lock, so the faulting thread never holds it. A CPU thread's fault
 * waits under flight_lock (a leaf, let go before anything else is taken),
 * then takes cuemu_lock; the kernel's own faults take only cuemu_lock (its
 * thread holds kernel_lock, and the worker threads it runs blocks on are
 * marked its own with fault_kernel_thread, so several may fault at once,
 * one at a time under cuemu_lock). The view state below (the current view,
 * the runs each page shows, what to revisit) is guarded by cuemu_lock; the
 * watched spans by spans_lock, a leaf rwlock, so that the handler can ask
 * "is this managed?" before taking any other.
 */
#include "model/managed.h"
#include "model/perf.h"
#include "model/clock.h"
#include "model/spanset.h"
#include "model/uvm.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

/* The processor whose view the address space shows. Global because the
 * address space is; cuemu_lock. */
static int cur_view = CUEMU_PROC_HOST;

/* Emulated kernels run one at a time: the address space has one view. */
static pthread_mutex_t kernel_lock = PTHREAD_MUTEX_INITIALIZER;

/* Set on the thread running an emulated kernel: its faults are the
 * device's, and the kernel model (kernel.c) tallies their cost. */
static __thread int tls_dev = -1;
/* Guards against a fault the model cannot resolve repeating forever: a
 * fault at the address of the thread's last one, with no protection
 * changed anywhere since that one was resolved, made no progress. */
static __thread uintptr_t tls_last_addr;
static __thread unsigned tls_repeats;
static __thread uint64_t tls_gen;

/* Counts protection changes, so that the handler can tell a fault that
 * repeats because nothing changed from one that comes back because other
 * code (a prefetch, an eviction, a kernel) moved the page away again.
 * Global because the protections are the address space's; changed
 * under cuemu_lock, read atomically. */
static uint64_t prot_gen;

/* False under valgrind: its signal delivery does not survive a handler
 * that changes protections and restarts the access, so there managed
 * memory stays accessible to every thread and only the model moves (CPU
 * touches and emulated kernels' touches are then not seen). Set once. */
static bool real_faults = true;

/* Who resolves a fault: managed.c registers it from a constructor, before
 * any thread runs; read by the handler. Global because the handler is. */
static fault_resolver resolver;
/* What prices a kernel: kernel.c sets it from a constructor, before any
 * kernel runs; read by the kernel's thread. Global as the resolver is. */
static const struct fault_pricing *pricing;

static struct sigaction old_segv;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static int install_rc;

void fault_set_resolver(fault_resolver fn)
{
	resolver = fn;
}

void fault_set_pricing(const struct fault_pricing *p)
{
	pricing = p;
}

int view_current(void)
{
	return cur_view;
}

int fault_initial_prot(void)
{
	fault_install();
	return real_faults ? PROT_NONE : PROT_READ | PROT_WRITE;
}

/* ------------------------------------------------------------------ */
/* What the address space shows                                        */

/* A run of an mprotect that failed: what its pages show is not known, so
 * the next change over them is always made. */
#define PROT_UNKNOWN (-1)
/* A run a running kernel's faults opened: its threads' alone where the
 * host has protection keys (kernel_key), and never closed by fault_look. */
#define PROT_KEYED 0x100

/* The protection key of the pages a running kernel's faults open: its
 * threads (fault_kernel_thread, kernel_op) may use them, every other thread
 * faults on them as on closed pages, so that a CPU thread never sees what a
 * kernel has half done (the handler makes it wait, below). -1 where the
 * host has no protection keys (pkey_alloc fails) or real faults are off:
 * a CPU thread then sees the pages a running kernel opened. Set once, at
 * the handler's installation; global because the address space is. */
static int kernel_key = -1;

/* The protections the managed pages actually have: runs of pages that are
 * not PROT_NONE, sorted, disjoint, merged where they touch with the same
 * protection. A page in no run is PROT_NONE, as every managed mapping
 * starts (fault_initial_prot) and as fault_forget leaves a freed one. So a
 * view switch changes only the pages whose protection differs between
 * the two views: closing the address space for a kernel closes the runs,
 * and a protection already in place costs no system call. Lost when a run
 * could not be recorded (no memory): every change is then made, and the
 * next switch to a kernel's view closes every allocation and finds the
 * runs again. Global because the address space is; cuemu_lock. */
struct prun {
	uintptr_t s, e;
	int prot;
};
static struct prun *shown;
static size_t nshown, capshown;
static bool shown_lost;

/* The index of the first run ending after p. */
static size_t shown_at(uintptr_t p)
{
	size_t lo = 0, hi = nshown;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (shown[mid].e <= p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Whether every page of [s, e) already shows prot. */
static bool shown_same(uintptr_t s, uintptr_t e, int prot)
{
	size_t i;

	if (shown_lost)
		return false;
	i = shown_at(s);
	if (prot == PROT_NONE)
		return i == nshown || shown[i].s >= e;
	for (; i < nshown && shown[i].s < e; i++) {
		if (shown[i].prot != prot || shown[i].s > s)
			return false;
		s = shown[i].e;
		if (s >= e)
			return true;
	}
	return false;
}

/* Merges run i into run i - 1 where they touch with one protection. */
static void shown_merge(size_t i)
{
	if (i == 0 || i >= nshown || shown[i - 1].e != shown[i].s ||
	    shown[i - 1].prot != shown[i].prot ||
	    shown[i].prot == PROT_UNKNOWN)
		return;
	shown[i - 1].e = shown[i].e;
	memmove(shown + i, shown + i + 1, (nshown - i - 1) * sizeof *shown);
	nshown--;
}

/* Records that [s, e) now shows prot: the runs it covers go, the ends of
 * those it cuts stay. */
static void shown_set(uintptr_t s, uintptr_t e, int prot)
{
	struct prun keep[3];
	size_t i, j, k = 0;

	if (shown_lost)
		return;
	if (nshown + 2 > capshown) {
		size_t cap = capshown ? capshown * 2 : 64;
		struct prun *n = realloc(shown, cap * sizeof *n);
		if (!n) {
			shown_lost = true;
			nshown = 0;
			return;
		}
		shown = n;
		capshown = cap;
	}
	i = shown_at(s);
	for (j = i; j < nshown && shown[j].s < e; j++)
		;
	if (i < j && shown[i].s < s)
		keep[k++] = (struct prun){ shown[i].s, s, shown[i].prot };
	if (prot != PROT_NONE)
		keep[k++] = (struct prun){ s, e, prot };
	if (i < j && shown[j - 1].e > e)
		keep[k++] = (struct prun){ e, shown[j - 1].e, shown[j - 1].prot };
	memmove(shown + i + k, shown + j, (nshown - j) * sizeof *shown);
	memcpy(shown + i, keep, k * sizeof *keep);
	nshown = nshown - (j - i) + k;
	shown_merge(i + k);
	shown_merge(i);
}

/* Every protection change goes through here, and only a change: pages
 * that already show prot (with the kernel's key or not) are left alone.
 * keyed: opened by the running kernel's faults (PROT_KEYED).
 * One that fails (ENOMEM: the memory map is full, vm.max_map_count) leaves
 * the pages as they were (or some of them); the access then faults again,
 * and the repeat guard passes it on. */
static void protect_as(uintptr_t s, size_t n, int prot, bool keyed)
{
	int rc, v;

	keyed = keyed && prot != PROT_NONE;
	v = keyed ? prot | PROT_KEYED : prot;
	if (!real_faults || !n || shown_same(s, s + n, v))
		return;
	rc = kernel_key < 0 ? mprotect((void *)s, n, prot) :
	     pkey_mprotect((void *)s, n, prot, keyed ? kernel_key : 0);
	if (rc != 0) {
		cuemu_debug("mprotect [0x%lx, +%zu): %s",
			    (unsigned long)s, n, strerror(errno));
		v = PROT_UNKNOWN;
	}
	shown_set(s, s + n, v);
	__atomic_add_fetch(&prot_gen, 1, __ATOMIC_RELAXED);
}

static void protect(uintptr_t s, size_t n, int prot)
{
	protect_as(s, n, prot, false);
}

/* Whether the CPU's access to p, a write or not, would now succeed: another
 * thread's fault, or a kernel's end, opened its page while this one
 * waited. */
static bool cpu_may(uintptr_t p, bool write)
{
	size_t i = shown_at(p);
	int need = write ? PROT_READ | PROT_WRITE : PROT_READ;

	return real_faults && !shown_lost && i < nshown && shown[i].s <= p &&
	       shown[i].prot != PROT_UNKNOWN &&
	       (kernel_key < 0 || !(shown[i].prot & PROT_KEYED)) &&
	       (shown[i].prot & need) == need;
}

/* What the CPU's view must look at again when it comes back: the runs a
 * kernel's view closed, and every span the model changed while it was up
 * (view_apply's); with the runs the kernel's looks opened, that is all
 * whose protection can differ from the CPU's view, so switching back is
 * O(what changed), not O(allocations). Global as the view is; cuemu_lock. */
static struct spans revisit;

void fault_forget(uintptr_t s, uintptr_t e)
{
	shown_set(s, e, PROT_NONE);
}

/* ------------------------------------------------------------------ */
/* The watched spans: managed memory, asked about without cuemu_lock   */

struct watched {
	uintptr_t start, end;
};
/* The handler's first question, "is this managed?", is asked with no lock
 * held (and by copies before they take one). Global because managed memory
 * is the process's address space; guarded by spans_lock, a leaf lock
 * (nothing is called while it is held). */
static pthread_rwlock_t spans_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct watched *spans;
static size_t nspans, capspans;

static size_t span_floor(uintptr_t p)
{
	size_t lo = 0, hi = nspans;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (spans[mid].start <= p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo; /* index of the first span starting after p */
}

int fault_watch(uintptr_t start, uintptr_t end)
{
	size_t i;
	int rc = 0;

	pthread_rwlock_wrlock(&spans_lock);
	if (nspans == capspans) {
		size_t cap = capspans ? capspans * 2 : 16;
		struct watched *n = realloc(spans, cap * sizeof *n);
		if (!n) {
			rc = -1;
			goto out;
		}
		spans = n;
		capspans = cap;
	}
	i = span_floor(start);
	memmove(spans + i + 1, spans + i, (nspans - i) * sizeof *spans);
	spans[i] = (struct watched){ start, end };
	nspans++;
out:
	pthread_rwlock_unlock(&spans_lock);
	return rc;
}

void fault_unwatch(uintptr_t start)
{
	size_t i;

	pthread_rwlock_wrlock(&spans_lock);
	i = span_floor(start);
	if (i > 0 && spans[i - 1].start == start) {
		memmove(spans + i - 1, spans + i, (nspans - i) * sizeof *spans);
		nspans--;
	}
	pthread_rwlock_unlock(&spans_lock);
}

bool fault_watched(uintptr_t p)
{
	size_t i;
	bool in;

	pthread_rwlock_rdlock(&spans_lock);
	i = span_floor(p);
	in = i > 0 && p < spans[i - 1].end;
	pthread_rwlock_unlock(&spans_lock);
	return in;
}

/* ------------------------------------------------------------------ */
/* Protections                                                         */

static int prot_for(const struct mrange *r, int view)
{
	/* An emulated kernel sees every page closed until it touches it:
	 * the kernel model (kernel.c) then says what the touch costs and
	 * what it opens. */
	if (view != CUEMU_PROC_HOST)
		return PROT_NONE;
	if (!(r->holders & ((cuemu_procmask)1 << view)))
		return PROT_NONE;
	return cuemu_mask_count(r->holders) > 1 ? PROT_READ
						 : PROT_READ | PROT_WRITE;
}

/* Spans a copy opened for the runtime's own access (see
 * cuemu_managed_touch): copies run on CPU threads even when the model
 * says a GPU touched the bytes. Re-protected at the next flush; a copy that
 * loses its opening then takes an ordinary CPU fault, so a flush is always
 * safe. cuemu_lock. */
#define MAX_OPEN 32
static struct { uintptr_t s, e; int prot; } opened[MAX_OPEN];
static int nopened;

/* Puts back the openings over [s, e) of st after its view was applied.
 * An opening only adds access: where the model has since given the view
 * more (the host became the only holder of bytes a copy had opened
 * read-only), the model's protection stands, or the host's writes would
 * fault for ever. */
static void reopen(struct mstate *st, uintptr_t s, uintptr_t e)
{
	for (int i = 0; i < nopened; i++) {
		uintptr_t a = opened[i].s > s ? opened[i].s : s;
		uintptr_t b = opened[i].e < e ? opened[i].e : e;
		struct mrange *r;

		for (r = a < b ? mr_find(&st->ranges, a) : NULL;
		     r && r->start < b; r = mr_next(&st->ranges, r)) {
			uintptr_t x = r->start > a ? r->start : a;
			uintptr_t y = r->end < b ? r->end : b;

			protect(x, y - x, prot_for(r, cur_view) |
			       opened[i].prot);
		}
	}
}

void view_apply(struct mstate *st, uintptr_t s, uintptr_t e)
{
	struct mrange *r = mr_find(&st->ranges, s);
	uintptr_t run_s = s;
	int run_prot = -1;

	/* System-allocated memory is never protected: only its model moves. */
	if (st->a->kind != CUEMU_KIND_MANAGED)
		return;
	cuemu_reach_changed();
	if (cur_view != CUEMU_PROC_HOST)
		spans_add(&revisit, s, e);
	/* One mprotect per run of equal protection, not per range. */
	for (; r && r->start < e; r = mr_next(&st->ranges, r)) {
		uintptr_t a = r->start > s ? r->start : s;
		int prot = prot_for(r, cur_view);

		if (prot != run_prot) {
			if (run_prot >= 0)
				protect(run_s, a - run_s, run_prot);
			run_s = a;
			run_prot = prot;
		}
	}
	if (run_prot >= 0)
		protect(run_s, e - run_s, run_prot);
	reopen(st, s, e);
}

void view_flush_open(void)
{
	int i, n = nopened;

	nopened = 0;
	for (i = 0; i < n; i++) {
		struct mstate *st = mg_find(opened[i].s);
		if (st)
			view_apply(st, opened[i].s, opened[i].e);
	}
}

void view_open(uintptr_t s, uintptr_t e, bool write)
{
	int prot = write ? PROT_READ | PROT_WRITE : PROT_READ;

	if (nopened == MAX_OPEN)
		view_flush_open();
	opened[nopened].s = s;
	opened[nopened].e = e;
	opened[nopened].prot = prot;
	nopened++;
	protect(s, e - s, prot);
}

static void apply_all(struct mstate *st, void *arg)
{
	(void)arg;
	view_apply(st, st->a->base, st->a->base + st->a->span);
}

/* Closes every page that shows anything for a kernel's view (cur_view),
 * where every page is closed until the kernel touches it: one mprotect a
 * run of open pages, however many allocations it spans, each run kept to
 * be revisited. With the runs lost, one an allocation, and the runs are
 * known again (none). */
static void close_all(void)
{
	size_t i = 0;

	if (shown_lost) {
		shown_lost = false;
		nshown = 0;
		revisit.oom = true; /* the way back walks everything too */
		mg_each(apply_all, NULL);
		return;
	}
	cuemu_reach_changed();
	while (i < nshown) {
		uintptr_t s = shown[i].s, e = shown[i].e;

		while (++i < nshown && shown[i].s == e)
			e = shown[i].e;
		spans_add(&revisit, s, e);
		protect(s, e - s, PROT_NONE);
		i = shown_at(e);
	}
}

/* The CPU's view over [s, e): each managed allocation in it as the model
 * says. */
static void host_view_over(uintptr_t s, uintptr_t e)
{
	struct cuemu_alloc *a = cuemu_va_overlap(s, e - s);

	for (; a && a->base < e; a = cuemu_va_next(a)) {
		uintptr_t x = a->base > s ? a->base : s;
		uintptr_t y = a->base + a->span < e ? a->base + a->span : e;

		if (a->kind == CUEMU_KIND_MANAGED && a->priv)
			view_apply(a->priv, x, y);
	}
}

/* Back to the CPU's view: what a kernel's view closed, what its faults
 * opened (keyed runs), what copies opened and what the model changed
 * meanwhile, and nothing else; every allocation where any of that was
 * lost. What else shows is what the CPU's view opened and the kernel never
 * looked at (a lazy view), as it was. */
static void open_changed(void)
{
	size_t i;

	for (i = 0; i < nshown && !revisit.oom; i++)
		if (shown[i].prot == PROT_UNKNOWN ||
		    (shown[i].prot & PROT_KEYED))
			spans_add(&revisit, shown[i].s, shown[i].e);
	for (i = 0; i < (size_t)nopened; i++)
		spans_add(&revisit, opened[i].s, opened[i].e);
	nopened = 0;
	if (revisit.oom || shown_lost)
		mg_each(apply_all, NULL);
	else
		for (i = 0; i < revisit.n; i++)
			host_view_over(revisit.v[i].s, revisit.v[i].e);
	revisit.n = 0;
	revisit.oom = false;
}

/* Whether the kernel's view is taken lazily: the running kernel looks
 * every managed page up before it touches it (fault_look), so what the
 * CPU's view opens stays open until the kernel looks at it. cuemu_lock. */
static bool lazy_view;

/* Whether p lies in an opening of a copy (or of a CPU fault served while
 * a kernel runs): those stay open to everyone until the next switch. */
static bool in_opening(uintptr_t p)
{
	for (int i = 0; i < nopened; i++)
		if (opened[i].s <= p && p < opened[i].e)
			return true;
	return false;
}

void fault_look(uintptr_t p)
{
	size_t i;
	struct mstate *st;

	if (!lazy_view || cur_view == CUEMU_PROC_HOST || in_opening(p))
		return;
	if (shown_lost) {
		/* what shows is not known: close the allocation */
		if ((st = mg_find(p)))
			view_apply(st, st->a->base, st->a->base + st->a->span);
		return;
	}
	i = shown_at(p);
	if (i == nshown || shown[i].s > p ||
	    (shown[i].prot != PROT_UNKNOWN && (shown[i].prot & PROT_KEYED)))
		return;
	spans_add(&revisit, shown[i].s, shown[i].e);
	protect(shown[i].s, shown[i].e - shown[i].s, PROT_NONE);
}

/* Switches the address space to view (lock held). Only the pages whose
 * protection differs between the two views change; lazy (a kernel's view
 * only): none at the switch, each open run as the kernel first looks at
 * it. */
static void switch_view(int view, bool lazy)
{
	cur_view = view;
	lazy_view = lazy && view != CUEMU_PROC_HOST && !shown_lost;
	if (view == CUEMU_PROC_HOST) {
		open_changed();
		return;
	}
	nopened = 0;
	if (lazy_view)
		cuemu_reach_changed();
	else
		close_all();
}

/* ------------------------------------------------------------------ */
/* The SIGSEGV handler                                                 */

/* Whether the faulting access was a write, when the page's state does not
 * say it already. */
static bool was_write(void *uc)
{
#if defined(__x86_64__)
	ucontext_t *u = uc;
	return (u->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#else
	(void)uc;
	return false; /* a write then faults again on the read-only copy */
#endif
}

/* Resolves a fault at addr by proc through the resolver, then opens the
 * block as the model left it; lock held. false: not ours. */
static bool resolve(uintptr_t addr, int proc, void *uc)
{
	struct fault_done d;
	bool kernel = proc != CUEMU_PROC_HOST;

	if (!resolver || !resolver(addr, proc, was_write(uc), &d))
		return false;
	if (d.prot >= 0)
		protect_as(d.s, d.e - d.s, d.prot, kernel);
	else if (d.remote)
		protect_as(d.s, d.e - d.s, PROT_READ | PROT_WRITE, kernel);
	else
		view_apply(d.st, d.s, d.e);
	/* The CPU's access served while a kernel runs (its wait ran out): it
	 * goes on as a copy does, through an opening the next switch closes. */
	if (!kernel && cur_view != CUEMU_PROC_HOST)
		view_open(d.s, d.e, was_write(uc));
	return true;
}

static void chain(int sig, siginfo_t *si, void *uc)
{
	if (old_segv.sa_flags & SA_SIGINFO) {
		old_segv.sa_sigaction(sig, si, uc);
		return;
	}
	if (old_segv.sa_handler == SIG_DFL || old_segv.sa_handler == SIG_IGN) {
		/* Let the fault happen again with the default action. */
		signal(sig, SIG_DFL);
		return;
	}
	old_segv.sa_handler(sig);
}

/* When a kernel's faults last published what they changed (the
 * monotonic clock, ns). The process's, not a thread's: a launch's blocks
 * run on several host threads, and each would render on its first
 * fault. Read and written with atomics: it is
 * written after the lock is let go, so that it marks the render's end. */
static uint64_t kernel_published;
#define PUBLISH_EVERY_NS 100000000ULL

/* Releases the lock after a kernel's fault. Publishing renders the
 * faulting allocation whole (its residency by NUMA node reads up to 512
 * pages' nodes a range), and a kernel streaming 1 GiB faults tens of
 * thousands of times into ever more ranges: /cu follows a running kernel
 * 100 ms of wall time after its last render, and shows all of it when it
 * ends (kernel_op releases the lock with cuemu_unlock). */
static uint64_t coarse_ns(void)
{
	struct timespec t;

	/* the C library's own: a model clock would not measure the render */
	cuemu_libc.clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

static void kernel_unlock(void)
{
	if (coarse_ns() - __atomic_load_n(&kernel_published, __ATOMIC_RELAXED) <
	    PUBLISH_EVERY_NS) {
		cuemu_unlock_deferred();
		return;
	}
	cuemu_unlock();
	/* from the render's end: a slow render is not followed at once */
	__atomic_store_n(&kernel_published, coarse_ns(), __ATOMIC_RELAXED);
}

/* The process's kernels in flight: launched (fault_launch) and not yet
 * ended, queued or running, by the number of their launch (sorted: a
 * launch appends, an end takes its own out), the last number given, and
 * how many have begun or ended so far. A CPU thread's fault waits for
 * those launched before it (kernels_wait). Global because the waiting
 * threads are any of the process's; flight_lock, a leaf lock taken with
 * nothing else held (in the handler, before cuemu_lock). */
static pthread_mutex_t flight_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t flight_cond = PTHREAD_COND_INITIALIZER;
static uint64_t *flight;
static size_t nflight, capflight;
static uint64_t flight_seq, flight_moves;

/* How long a CPU fault waits without a kernel of the process beginning or
 * ending before it is served while they run: a kernel that polls memory
 * the CPU is about to write never ends until it is. Wall time, as the
 * engine's pace is: no model time passes while a kernel waits for the
 * CPU. */
#define FLIGHT_WAIT_NS 1000000000ULL

/* A kernel launched: its number, or 0 where there is no room to keep it
 * (it is then not waited for). */
static uint64_t flight_launched(void)
{
	uint64_t seq = 0;

	pthread_mutex_lock(&flight_lock);
	if (nflight == capflight) {
		size_t cap = capflight ? capflight * 2 : 64;
		uint64_t *n = realloc(flight, cap * sizeof *n);
		if (n) {
			flight = n;
			capflight = cap;
		}
	}
	if (nflight < capflight) {
		seq = ++flight_seq;
		flight[nflight++] = seq;
	}
	pthread_mutex_unlock(&flight_lock);
	return seq;
}

/* Kernel seq began (ended false) or ended (true). */
static void flight_moved(uint64_t seq, bool ended)
{
	size_t lo = 0, hi;

	pthread_mutex_lock(&flight_lock);
	for (hi = nflight; ended && seq && lo < hi;) {
		size_t mid = (lo + hi) / 2;
		if (flight[mid] < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (ended && seq && lo < nflight && flight[lo] == seq)
		memmove(flight + lo, flight + lo + 1,
			(--nflight - lo) * sizeof *flight);
	flight_moves++;
	pthread_cond_broadcast(&flight_cond);
	pthread_mutex_unlock(&flight_lock);
}

/* The wait of a CPU fault: until every kernel launched before it has
 * ended, or none of the process's began or ended for FLIGHT_WAIT_NS.
 * Kernels launched meanwhile are not waited for, so that a thread
 * launching kernels without end cannot hold it for ever. A stream's own
 * operation (a host function, a copy) does not wait: it runs in stream
 * order, after what it must see, and a kernel queued behind it could not
 * begin until it returns. */
static void kernels_wait(void)
{
	struct timespec t;
	uint64_t seen, last;

	if (cuemu_stream_on_worker())
		return;
	pthread_mutex_lock(&flight_lock);
	last = flight_seq;
	while (nflight && flight[0] <= last) {
		seen = flight_moves;
		cuemu_libc.clock_gettime(CLOCK_MONOTONIC, &t);
		t.tv_sec += FLIGHT_WAIT_NS / 1000000000ULL;
		while (nflight && flight[0] <= last && flight_moves == seen)
			if (cuemu_libc.cond_clockwait(&flight_cond, &flight_lock,
						      CLOCK_MONOTONIC,
						      &t) == ETIMEDOUT)
				goto out;
	}
out:
	pthread_mutex_unlock(&flight_lock);
}

/* Fork: the parent's kernels never run in the child (stream.c drops its
 * queued work), and its threads held no lock here that the child has. */
static void flight_child(void)
{
	pthread_mutex_init(&flight_lock, NULL);
	pthread_cond_init(&flight_cond, NULL);
	nflight = 0;
}

/* The calling thread's use of pages open to the running kernel alone. */
static void kernel_access(bool on)
{
	if (kernel_key >= 0)
		pkey_set(kernel_key, on ? 0 : PKEY_DISABLE_ACCESS);
}

/* ------------------------------------------------------------------ */
/* The host's trap: what a CPU fault costs the thread outside the handler */

/* A CPU fault's CPU time in the faulting thread that no bracket can
 * enclose: the host's trap, its delivery of SIGSEGV, the return from the
 * handler and the restarted access. The model's charge for a CPU fault
 * already stands for all of a real fault's time, so this is left out of
 * the thread's clock at each CPU fault the model serves (DESIGN.md, "The
 * timing model"). Measured once, at install, with the clock in model
 * time; 0 otherwise. Global because the handler is; written once before
 * the first managed allocation is made. */
static uint64_t trap_ns;
/* The pages the measurement traps on, while it runs (its thread's own:
 * no other thread can touch them, as no other knows them). */
static uintptr_t trap_base, trap_end;
static __thread uint64_t trap_in_ns;

#define TRAP_PAGES 16
#define TRAP_ROUNDS 4

static uint64_t thread_cpu_ns(void)
{
	struct timespec t;

	cuemu_libc.clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

/* The measurement's handler: it opens the page, as a CPU fault's handler
 * does, and counts its own time, which a real fault's bracket leaves
 * out already. */
static void trap_opened(uintptr_t addr)
{
	uint64_t t0 = thread_cpu_ns();

	mprotect((void *)CUEMU_ALIGN_DOWN(addr, CUEMU_PAGE), CUEMU_PAGE,
		 PROT_READ | PROT_WRITE);
	trap_in_ns += thread_cpu_ns() - t0;
}

/* One round: TRAP_PAGES populated pages closed, then each touched; the
 * thread's CPU time a trap outside the handler. */
static uint64_t trap_round(volatile char *p)
{
	size_t len = TRAP_PAGES * CUEMU_PAGE;
	uint64_t t0, t1;

	if (mprotect((void *)p, len, PROT_READ | PROT_WRITE) < 0)
		return UINT64_MAX;
	for (size_t i = 0; i < len; i += CUEMU_PAGE)
		p[i] = 1;   /* populated: the restart is not a first touch */
	if (mprotect((void *)p, len, PROT_NONE) < 0)
		return UINT64_MAX;
	trap_in_ns = 0;
	t0 = thread_cpu_ns();
	for (size_t i = 0; i < len; i += CUEMU_PAGE)
		p[i]++;
	t1 = thread_cpu_ns();
	return t1 - t0 > trap_in_ns ? (t1 - t0 - trap_in_ns) / TRAP_PAGES : 0;
}

/* The least of a few rounds: a round the host disturbed (another
 * process's cache use, an interrupt) counts more than a trap costs, and
 * leaving out more than the trap would hide the program's own time. */
static void measure_trap(void)
{
	size_t len = TRAP_PAGES * CUEMU_PAGE;
	uint64_t best = UINT64_MAX;
	char *p;

	if (!real_faults || cuemu_clock_start() != CUEMU_CLOCK_MODEL)
		return;
	p = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return;
	__atomic_store_n(&trap_end, (uintptr_t)p + len, __ATOMIC_RELAXED);
	__atomic_store_n(&trap_base, (uintptr_t)p, __ATOMIC_RELAXED);
	for (int r = 0; r < TRAP_ROUNDS; r++) {
		uint64_t t = trap_round(p);
		if (t < best)
			best = t;
	}
	__atomic_store_n(&trap_base, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&trap_end, 0, __ATOMIC_RELAXED);
	munmap(p, len);
	trap_ns = best == UINT64_MAX ? 0 : best;
	cuemu_debug("a CPU fault's trap: %llu ns of the thread's CPU time",
		    (unsigned long long)trap_ns);
}

uint64_t fault_trap_ns(void)
{
	return trap_ns;
}

/* Resolves a watched fault; lock taken inside. false: not ours. */
static bool handle(uintptr_t addr, void *uc)
{
	bool ours;

	if (tls_dev >= 0) {
		cuemu_lock();
		ours = resolve(addr, tls_dev, uc);
		tls_gen = __atomic_load_n(&prot_gen, __ATOMIC_RELAXED);
		kernel_unlock();
		return ours;
	}
	/* The kernels launched before the touch end first, as they
	 * would have on the GPU (DESIGN.md, "A CPU touch while
	 * kernels run"); the CPU's view comes back then. */
	kernels_wait();
	cuemu_lock();
	ours = cpu_may(addr, was_write(uc)) ||
	       resolve(addr, CUEMU_PROC_HOST, uc);
	tls_gen = __atomic_load_n(&prot_gen, __ATOMIC_RELAXED);
	cuemu_unlock();
	/* What the host spends on the trap around this handler is the
	 * emulator's; the model's charge is the fault's time. */
	if (ours)
		cuemu_clock_leave_out(trap_ns);
	return ours;
}

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	uintptr_t addr = (uintptr_t)si->si_addr;
	int saved = errno;
	bool ours;

	if (addr >= __atomic_load_n(&trap_base, __ATOMIC_RELAXED) &&
	    addr < __atomic_load_n(&trap_end, __ATOMIC_RELAXED)) {
		trap_opened(addr);
		return;
	}
	if (!fault_watched(addr)) {
		chain(sig, si, uc);
		return;
	}
	if (addr != tls_last_addr ||
	    __atomic_load_n(&prot_gen, __ATOMIC_RELAXED) != tls_gen)
		tls_repeats = 0;
	if (addr == tls_last_addr && ++tls_repeats > 16) {
		/* The model says the access is allowed yet it keeps faulting:
		 * let the program see its fault rather than spin. */
		tls_repeats = 0;
		cuemu_debug("fault at 0x%lx repeats: passing it on",
			    (unsigned long)addr);
		chain(sig, si, uc);
		return;
	}
	tls_last_addr = addr;
	/* The whole handler is libcuemu's work, not the program's. */
	cuemu_clock_enter();
	ours = handle(addr, uc);
	cuemu_clock_leave();
	if (!ours) {
		cuemu_debug("fault at 0x%lx: no managed range", (unsigned long)addr);
		chain(sig, si, uc);
	}
	errno = saved;
}

static void install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	if (RUNNING_ON_VALGRIND || getenv("CUEMU_NO_FAULTS"))
		real_faults = false;
	/* No thread may use the key until it runs a kernel: each thread's
	 * rights start from its creator's, and the program's threads were
	 * made without it. */
	if (real_faults)
		kernel_key = pkey_alloc(0, PKEY_DISABLE_ACCESS);
	pthread_atfork(NULL, NULL, flight_child);
	install_rc = sigaction(SIGSEGV, &sa, &old_segv);
	if (install_rc == 0)
		measure_trap();
}

int fault_install(void)
{
	pthread_once(&install_once, install);
	return install_rc;
}

/* ------------------------------------------------------------------ */
/* Emulated kernels                                                    */

struct kernel {
	void (*fn)(void *);
	void *arg;
	int dev;
	bool looks;              /* it calls fault_look before each touch */
	uint64_t flight;         /* its number among the kernels in flight */
	CUstream s;
	struct perf_launch pl;   /* a module's kernel's launch: pl.seq > 0 */
};

/* The emulated kernel running. Global because the fault path asks which
 * launch an event belongs to; set and cleared under kernel_lock (one
 * kernel at a time) and cuemu_lock, read by the kernel's own threads. */
static struct kernel *running_k;
/* The process's launches so far, for perf_launch.seq; cuemu_lock. */
static uint64_t launch_seq;

const struct perf_launch *fault_launch_running(void)
{
	struct kernel *k = running_k;

	return tls_dev >= 0 && k && k->pl.seq ? &k->pl : NULL;
}

/* Events the launch's threads raise carry it. */
__attribute__((constructor)) static void launch_source(void)
{
	perf_set_launch_source(fault_launch_running);
}

void fault_launch_begin(const char *kernel, const uint32_t grid[3],
			const uint32_t block[3], uint32_t shared_bytes,
			uint32_t registers)
{
	struct kernel *k = running_k;
	struct perf_data d = { 0 };
	struct perf_launch *l;

	if (tls_dev < 0 || !k || k->pl.seq)
		return; /* not the kernel's thread */
	if (pricing)
		pricing->sectors_counted();
	if (!(k->pl.kernel = strdup(kernel)))
		return; /* no room: not counted */
	l = &k->pl;
	l->dev = k->dev;
	memcpy(l->grid, grid, sizeof l->grid);
	memcpy(l->block, block, sizeof l->block);
	l->shared_bytes = shared_bytes;
	l->registers = registers;
	l->stream = cuemu_stream_uid(k->s);
	cuemu_lock();
	l->seq = ++launch_seq;
	d.launch = l;
	perf_notify(PERF_EVENT_LAUNCH_BEGIN, &d);
	/* What the beginning changed (the kernel running, the process's
	 * counts) is published with the launch's end or by the clock
	 * publisher within its period, whichever comes first: rendering the
	 * kernel's and the process's records at every beginning cost a
	 * launch of one block more than running it (perf: 40% of its CPU). */
	cuemu_unlock_deferred();
	cuemu_time_moved();
}

void fault_launch_page(uint64_t alloc, uintptr_t page, bool write)
{
	struct perf_data d = { 0 };

	if (!fault_launch_running())
		return;
	d.page.alloc = alloc;
	d.page.s = page;
	d.page.write = write;
	perf_notify(PERF_EVENT_LAUNCH_PAGE, &d);
}

void fault_launch_end(const uint64_t *bytes_read,
		      const uint64_t *bytes_written, const uint64_t *peer_read,
		      const uint64_t *peer_written, int status)
{
	struct kernel *k = running_k;

	if (tls_dev < 0 || !k || !k->pl.seq)
		return;
	memcpy(k->pl.bytes_read, bytes_read, sizeof k->pl.bytes_read);
	memcpy(k->pl.bytes_written, bytes_written,
	       sizeof k->pl.bytes_written);
	memcpy(k->pl.peer_read, peer_read, sizeof k->pl.peer_read);
	memcpy(k->pl.peer_written, peer_written, sizeof k->pl.peer_written);
	k->pl.status = status;
}

/* The launch's end on the bus, with the model time it adds to its
 * stream; cuemu_lock held, still the running kernel (so that the next
 * launch's beginning comes after it). */
static void launch_done(struct kernel *k, uint64_t model_ns)
{
	struct perf_data d = { 0 };

	k->pl.model_ns = model_ns;
	d.launch = &k->pl;
	perf_notify(PERF_EVENT_LAUNCH_END, &d);
	free(k->pl.kernel);
}

static void kernel_op(CUstream s, void *arg)
{
	struct kernel *k = arg;
	uint64_t cost;

	pthread_mutex_lock(&kernel_lock);
	cuemu_lock();
	view_flush_open();
	switch_view(k->dev, k->looks);
	k->s = s;
	/* queued behind a copy engine's copy, the kernel starts once the
	 * copy's end reaches the compute engine (probes/results/afterop.txt) */
	if (cuemu_stream_behind(s, CUEMU_END_ENGINE))
		cuemu_stream_advance(s, cuemu_uvm()->kernel_after_copy_ns);
	k->pl.start_ns = cuemu_stream_now(s);
	if (pricing)
		pricing->begin(k->dev, k->pl.start_ns);
	running_k = k;
	cuemu_unlock();
	flight_moved(k->flight, false);
	fault_kernel_thread(k->dev);
	k->fn(k->arg);
	fault_kernel_thread(-1);
	cuemu_lock();
	if (k->pl.seq && pricing)
		k->pl.fault_ns = pricing->fault_ns();
	cost = pricing ? pricing->end() : 0;
	switch_view(CUEMU_PROC_HOST, false);
	if (k->pl.seq)
		launch_done(k, cost);
	running_k = NULL;
	/* A launch with more work queued behind it leaves its end to the
	 * clock publisher (within 10 ms) or to the last of them: a burst of
	 * launches costs a render each 10 ms, not each launch, and whoever
	 * synchronizes with the stream's last operation finds it published. */
	if (cuemu_stream_more_queued(s)) {
		cuemu_unlock_deferred();
		cuemu_time_moved();
	} else {
		cuemu_unlock();
	}
	pthread_mutex_unlock(&kernel_lock);
	cuemu_stream_advance(s, cost);
	cuemu_stream_ended(s, CUEMU_END_KERNEL);
	flight_moved(k->flight, true);
	free(k);
}

void fault_kernel_thread(int dev)
{
	tls_dev = dev;
	kernel_access(dev >= 0);
}

static CUresult launch_kernel(CUstream s, void (*fn)(void *), void *arg,
			      bool looks)
{
	struct kernel *k;
	CUresult r;

	if (fault_install() < 0)
		return cuemu_fail(CUDA_ERROR_OPERATING_SYSTEM,
				  "cannot install the fault handler");
	if (!(k = calloc(1, sizeof *k)))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory");
	k->fn = fn;
	k->arg = arg;
	k->dev = cuemu_stream_device(s);
	k->looks = looks;
	k->flight = flight_launched();
	if ((r = cuemu_stream_enqueue_user(s, kernel_op, k)) != CUDA_SUCCESS) {
		flight_moved(k->flight, true);
		free(k);
	}
	return r;
}

CUresult fault_launch(CUstream s, void (*fn)(void *), void *arg)
{
	return launch_kernel(s, fn, arg, false);
}

CUresult fault_launch_looked(CUstream s, void (*fn)(void *), void *arg)
{
	return launch_kernel(s, fn, arg, true);
}
