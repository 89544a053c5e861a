/*
 * kstats.c - the per-kernel accounting (kstats.h): a module of the event
 * bus (perf.h), as NVIDIA's UVM driver keeps its per-GPU performance
 * modules (uvm_perf_module.h): it subscribes to a launch's beginning, the
 * pages its warps look up, the counters its faults move, the bytes they
 * migrate and its end, and keeps per kernel (by PTX entry name) and per
 * allocation what each launch did. Nothing in the mechanism calls it.
 *
 * The table is sorted by name (O(log n) lookups) and bounded (KSTATS_MAX;
 * past it, one entry sums the rest). A launch's pages are kept as spans
 * while it runs (spanset.h: a walk of memory is a handful of spans), and
 * turned into bytes per allocation at its end; the engine asks once per
 * warp and page, so nothing here runs per access. A page the merged spans
 * already hold is found from a hint (where the last asks were) and not
 * gathered again: warps walking the same pages cost no sort.
 *
 * Locking: bus callbacks run under cuemu_lock(), and so do the readers.
 * Launches run one at a time in a process (fault.c's kernel_lock), so the
 * running launch's state is one.
 */
#include "model/kstats.h"
#include "model/memory.h"
#include "model/spanset.h"

#include <stdlib.h>
#include <string.h>

/* A launch's pages kept as spans before they count a page at a time (a
 * kernel touching every other page of a large buffer), at 16 bytes each. */
#define KSTATS_SPANS 65536
/* Pages gathered unsorted before they join the spans in one merge: warps
 * on several threads, or a scattered kernel, bring pages out of order,
 * and adding each to a sorted array of up to KSTATS_SPANS would move half
 * of it a page. */
#define KSTATS_GATHER 4096
/* Where in the merged spans the last asks were found (spans_has_near):
 * one per walk a launch makes at once, a warp's reads and its writes on
 * each of the engine's threads. */
#define KSTATS_HINTS 4

/* The kernels, sorted by name (tab) and by record id (byid), KSTATS_OTHER
 * among them once the bound is reached. Global: the accounting is the
 * process's, as the bus is. */
static struct kstat **tab, **byid;
static size_t ntab, captab;

/* The running launch: its entry, and the pages its warps looked up. One
 * at a time (fault.c's kernel_lock). */
static struct {
	const struct perf_launch *l;
	struct kstat *k;
	struct spans pages;
	struct span gather[KSTATS_GATHER];
	size_t ngather;
	size_t hint[KSTATS_HINTS], nexthint; /* into pages, until it merges */
	uint64_t faults0, in0, out0; /* its kernel's totals at its start */
} cur;

struct kstat *const *kstats_all(size_t *n)
{
	*n = ntab;
	return tab;
}

/* The index of the first entry whose name is not below name. */
static size_t tab_floor(const char *name)
{
	size_t lo = 0, hi = ntab;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (strcmp(tab[mid]->kernel, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct kstat *kstats_by_id(uint64_t id)
{
	size_t lo = 0, hi = ntab;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (byid[mid]->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ntab && byid[lo]->id == id ? byid[lo] : NULL;
}

/* A new entry for name at tab[i] (and last in byid: ids only rise). */
static struct kstat *insert(size_t i, const char *name)
{
	struct kstat *k, **grown;

	if (ntab == captab) {
		size_t cap = captab ? 2 * captab : 16;
		if (!(grown = realloc(tab, cap * sizeof *grown)))
			return NULL;
		tab = grown;
		if (!(grown = realloc(byid, cap * sizeof *grown)))
			return NULL;
		byid = grown;
		captab = cap;
	}
	if (!(k = calloc(1, sizeof *k)) || !(k->kernel = strdup(name))) {
		free(k);
		return NULL;
	}
	k->id = cuemu_next_id();
	memmove(tab + i + 1, tab + i, (ntab - i) * sizeof *tab);
	tab[i] = k;
	byid[ntab++] = k;
	return k;
}

/* name's entry, made where it is missing (past the bound, the entry that
 * sums the rest); NULL without memory. */
static struct kstat *entry_of(const char *name)
{
	size_t i = tab_floor(name);

	if (i < ntab && !strcmp(tab[i]->kernel, name))
		return tab[i];
	if (ntab >= KSTATS_MAX && strcmp(name, KSTATS_OTHER))
		return entry_of(KSTATS_OTHER);
	return insert(i, name);
}

/* The index of the first of k's allocations whose id is not below id. */
static size_t alloc_floor(const struct kstat *k, uint64_t id)
{
	size_t lo = 0, hi = k->nallocs;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (k->allocs[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct kstat_alloc *kstats_alloc(const struct kstat *k, uint64_t id)
{
	size_t i = alloc_floor(k, id);

	return i < k->nallocs && k->allocs[i].id == id ? &k->allocs[i] : NULL;
}

/* k's part of allocation id, made where missing; NULL past the bound. */
static struct kstat_alloc *alloc_of(struct kstat *k, uint64_t id)
{
	size_t i = alloc_floor(k, id);
	struct kstat_alloc *grown;

	if (i < k->nallocs && k->allocs[i].id == id)
		return &k->allocs[i];
	if (k->nallocs == KSTATS_ALLOCS)
		return NULL;
	if (k->nallocs == k->capallocs) {
		size_t cap = k->capallocs ? 2 * k->capallocs : 8;
		if (!(grown = realloc(k->allocs, cap * sizeof *grown)))
			return NULL;
		k->allocs = grown;
		k->capallocs = cap;
	}
	memmove(k->allocs + i + 1, k->allocs + i,
		(k->nallocs - i) * sizeof *k->allocs);
	k->allocs[i] = (struct kstat_alloc){ .id = id };
	k->nallocs++;
	cuemu_obj_changed(id);
	return &k->allocs[i];
}

/* Adds bytes to proc's row of a move table. */
static void move_add(struct kstat_move **v, size_t *n, int proc,
		     uint64_t bytes)
{
	struct kstat_move *grown;
	size_t i;

	for (i = 0; i < *n && (*v)[i].proc != proc; i++)
		;
	if (i == *n) {
		if (!(grown = realloc(*v, (*n + 1) * sizeof *grown)))
			return;
		*v = grown;
		grown[(*n)++] = (struct kstat_move){ .proc = proc };
	}
	(*v)[i].bytes += bytes;
}

/* The running launch's entry, when the event is the running launch's. */
static struct kstat *of_launch(const struct perf_data *d)
{
	return d->launch && d->launch == cur.l ? cur.k : NULL;
}

/* ---------------------------------------------------------------- events */

/* The bytes of a move table, all rows. */
static uint64_t moved(const struct kstat_move *v, size_t n)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += v[i].bytes;
	return sum;
}

static void on_begin(enum perf_event ev, struct perf_data *d)
{
	const struct perf_launch *l = d->launch;
	char dev[16];
	struct kstat *k;

	(void)ev;
	spans_free(&cur.pages);
	cur.ngather = 0;
	memset(cur.hint, 0, sizeof cur.hint);
	cur.l = NULL;
	if (!(k = entry_of(l->kernel)))
		return; /* no memory: this launch goes uncounted */
	cur.l = l;
	cur.k = k;
	cur.faults0 = k->gpu_faults;
	cur.in0 = moved(k->in, k->nin);
	cur.out0 = moved(k->out, k->nout);
	k->launches++;
	k->running++;
	k->last_launch = l->seq;
	memcpy(k->last_grid, l->grid, sizeof k->last_grid);
	memcpy(k->last_block, l->block, sizeof k->last_block);
	k->shared_bytes = l->shared_bytes;
	k->registers = l->registers;
	k->last_dev = l->dev;
	cuemu_obj_changed(k->id);
	cuemu_event_log("launch", "kernel=%s launch=%llu %s stream=%llu "
			"grid=%u,%u,%u block=%u,%u,%u shared=%u", l->kernel,
			(unsigned long long)l->seq,
			cuemu_proc_str(l->dev, dev, sizeof dev),
			(unsigned long long)l->stream, l->grid[0], l->grid[1],
			l->grid[2], l->block[0], l->block[1], l->block[2],
			l->shared_bytes);
}

/* The gathered pages into the launch's spans. */
static void gather_flush(void)
{
	spans_add_many(&cur.pages, cur.gather, cur.ngather);
	cur.ngather = 0;
	memset(cur.hint, 0, sizeof cur.hint); /* the indexes moved */
}

/* Whether the merged spans hold the page at s: a warp's next page is most
 * often in its last page's span or the next, so the hints are tried
 * before a search, and a search's answer replaces the oldest hint. */
static bool merged_has(uintptr_t s)
{
	size_t i;

	for (i = 0; i < KSTATS_HINTS; i++)
		if (spans_has_at(&cur.pages, s, &cur.hint[i]))
			return true;
	i = spans_floor(&cur.pages, s);
	if (i == 0 || s >= cur.pages.v[i - 1].e)
		return false;
	cur.hint[cur.nexthint++ % KSTATS_HINTS] = i - 1;
	return true;
}

/* Whether the page at s joined the last gathered span, which holds it or
 * ends where it starts: a block's warps ask for one page after another
 * (32 warps of floats share a 4 KiB page), and gathering each ask would
 * fill the gather with copies for the merge to sort. */
static bool gather_joins(uintptr_t s)
{
	struct span *g;

	if (!cur.ngather)
		return false;
	g = &cur.gather[cur.ngather - 1];
	if (s < g->s || s > g->e)
		return false;
	g->e = cuemu_max_u(g->e, s + CUEMU_PAGE);
	return true;
}

/* A page goes into the gather unless it joins the last gathered span or
 * the spans already merged hold it (merged_has): a grid-stride loop's warps
 * each walk the same pages a warp apart (alignedTypes: 16,384 threads,
 * every warp a page a step), and gathering each of their asks made the
 * merge's sort (glibc's merge sort and by_start) 18% of its CPU. */
static void on_page(enum perf_event ev, struct perf_data *d)
{
	struct kstat *k = of_launch(d);
	struct kstat_alloc *a;

	(void)ev;
	if (!k)
		return;
	if (cur.ngather == KSTATS_GATHER)
		gather_flush();
	if (cur.pages.n < KSTATS_SPANS && !cur.pages.oom) {
		if (!gather_joins(d->page.s) &&
		    !merged_has(d->page.s))
			cur.gather[cur.ngather++] = (struct span){
				d->page.s, d->page.s + CUEMU_PAGE };
		alloc_of(k, d->page.alloc); /* its link shows from now on */
	} else if ((a = alloc_of(k, d->page.alloc))) {
		/* Past the bound a page counts each time a warp asks. */
		a->bytes += CUEMU_PAGE;
	}
}

static void on_count(enum perf_event ev, struct perf_data *d)
{
	struct kstat *k = of_launch(d);
	struct kstat_alloc *a;

	(void)ev;
	if (!k || d->count.proc != cur.l->dev)
		return;
	if (d->count.counter == CUEMU_CTR_GPU_FAULTS) {
		k->gpu_faults += d->count.n;
		if (d->st && (a = alloc_of(k, d->st->a->id)))
			a->faults += d->count.n;
	} else if (d->count.counter == CUEMU_CTR_REMOTE_ACCESSES) {
		k->remote_accesses += d->count.n;
	} else {
		return;
	}
	cuemu_obj_changed(k->id);
}

static void on_migration(enum perf_event ev, struct perf_data *d)
{
	struct kstat *k = of_launch(d);
	int dev;

	(void)ev;
	if (!k)
		return;
	dev = cur.l->dev;
	if (d->migration.to == dev)
		move_add(&k->in, &k->nin, d->migration.from,
			 d->migration.bytes);
	else if (d->migration.from == dev)
		move_add(&k->out, &k->nout, d->migration.to,
			 d->migration.bytes);
	cuemu_obj_changed(k->id);
}

/* The launch's pages as bytes of the allocations that hold them. */
static void pages_to_allocs(struct kstat *k)
{
	gather_flush();
	for (size_t i = 0; i < cur.pages.n; i++) {
		uintptr_t p = cur.pages.v[i].s, e = cur.pages.v[i].e;

		while (p < e) {
			struct cuemu_alloc *a = cuemu_va_find(p);
			struct kstat_alloc *ka;
			uintptr_t end;

			if (!a) { /* freed since it was touched */
				p += CUEMU_PAGE;
				continue;
			}
			end = cuemu_min_u(e, a->base + (a->span ? a->span
								: a->size));
			end = cuemu_max_u(end, p + CUEMU_PAGE);
			if ((ka = alloc_of(k, a->id)))
				ka->bytes += end - p;
			cuemu_obj_changed(a->id);
			p = end;
		}
	}
	spans_free(&cur.pages);
}

static void on_end(enum perf_event ev, struct perf_data *d)
{
	const struct perf_launch *l = d->launch;
	struct kstat *k = of_launch(d);
	uint64_t faults, in, out;
	char dev[16];

	(void)ev;
	if (!k)
		return;
	faults = k->gpu_faults;
	in = moved(k->in, k->nin);
	out = moved(k->out, k->nout);
	k->running--;
	if (l->status != CUDA_SUCCESS)
		k->failed++;
	k->model_ns += l->model_ns;
	k->fault_ns += l->fault_ns;
	for (int p = 0; p < PERF_PLACES; p++) {
		k->bytes_read[p] += l->bytes_read[p];
		k->bytes_written[p] += l->bytes_written[p];
	}
	for (int g = 0; g < CUEMU_MAX_DEVICES; g++) {
		if (l->peer_read[g])
			move_add(&k->peer_rd, &k->npeer_rd, g, l->peer_read[g]);
		if (l->peer_written[g])
			move_add(&k->peer_wr, &k->npeer_wr, g,
				 l->peer_written[g]);
	}
	pages_to_allocs(k);
	cuemu_obj_changed(k->id);
	/* The name first: a line is cut at its length (outward/events.c). */
	cuemu_event_log("kernel_done", "kernel=%s launch=%llu %s stream=%llu "
			"grid=%u,%u,%u block=%u,%u,%u kernel_ns=%llu "
			"faults=%llu migrated_in=%llu migrated_out=%llu %s",
			l->kernel, (unsigned long long)l->seq,
			cuemu_proc_str(l->dev, dev, sizeof dev),
			(unsigned long long)l->stream, l->grid[0], l->grid[1],
			l->grid[2], l->block[0], l->block[1], l->block[2],
			(unsigned long long)l->model_ns,
			(unsigned long long)(faults - cur.faults0),
			(unsigned long long)(in - cur.in0),
			(unsigned long long)(out - cur.out0),
			cuemu_result_name((CUresult)l->status));
	cur.l = NULL;
	cur.k = NULL;
}

__attribute__((constructor)) static void subscribe(void)
{
	perf_subscribe(PERF_EVENT_LAUNCH_BEGIN, on_begin);
	perf_subscribe(PERF_EVENT_LAUNCH_PAGE, on_page);
	perf_subscribe(PERF_EVENT_COUNT, on_count);
	perf_subscribe(PERF_EVENT_MIGRATION, on_migration);
	perf_subscribe(PERF_EVENT_LAUNCH_END, on_end);
}
