/*
 * launch.c - a kernel's grid on the host: blocks handed out to the
 * launch's host threads one at a time (the launching thread and helpers
 * from the process's pool, pool.c), each block's warps run on its one
 * thread, switching at barriers, and what they did summed into the
 * launch's ex_result. A thread keeps its block memory from one launch to
 * the next.
 *
 * A block's warps run in turn until each ends or waits at a barrier; a
 * barrier opens when every warp with a thread that has not exited waits
 * at it (bar.sync's count-less form) or when its thread count arrived
 * (counted a warp at a time, as the device counts). A barrier no warp can
 * ever complete fails the launch rather than hanging it.
 *
 * A cooperative launch keeps every block resident at once, as the device
 * does: each host thread holds its share of the blocks and runs them in
 * turn, a warp yielding after SLICE branches, so that a grid-wide sync
 * (blocks spinning on words in the grid-sync window, %envreg1:%envreg2)
 * sees every other block arrive. The launching thread also holds the
 * shares of helpers the pool could not give, so that no block is left
 * without a thread.
 *
 * Locking: the grid's next block and stop flag are atomics; its result's
 * error is written once under grid.lock; each host thread counts into its
 * own struct blk and adds it to the result under the lock at its end.
 */
#include "exec/run.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ex_grid_fail(struct blk *b, struct warp *w, int lane, enum ex_status st,
		  uint64_t addr, const char *fmt, ...)
{
	struct grid *g = b->g;
	struct ex_result *r = g->r;
	va_list ap;

	pthread_mutex_lock(&g->lock);
	if (r->status == EX_OK) {
		r->status = st;
		r->fault_addr = addr;
		memcpy(r->block, b->ctaid, sizeof r->block);
		for (int i = 0; i < 3; i++)
			r->thread[i] = w ? (uint32_t)w->tid[i][lane & 31] : 0;
		va_start(ap, fmt);
		vsnprintf(r->message, sizeof r->message, fmt, ap);
		va_end(ap);
	}
	__atomic_store_n(&g->stop, 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&g->lock);
}

/* ------------------------------------------------------------------ */
/* A host thread's blocks                                              */

/* What a block's memory is carved from: its struct, its warps, their
 * register rows, local and param memory, its shared memory. A host thread
 * keeps one from launch to launch (thread_mem) and a launch only zeroes
 * the part it uses, as calloc did: allocating, faulting in and freeing it
 * each launch cost a small launch more than its blocks. A cooperative
 * launch's resident blocks have one each, for the launch. */
struct blk_mem {
	struct blk b;
	struct warp *warps;      /* nwarps_made of them, their own buffers
				  * (SIMT stack, frames, saved rows) kept */
	void *regs, *shared, *local, *lparam, *ready, *l1;
	size_t nwarps_made, regs_cap, shared_cap, local_cap, lparam_cap;
	size_t ready_cap, l1_cap;
	struct stlb *stlb;       /* the thread's (thread_stlb), kept; its
				  * entries name their launch */
};

/* *p holds need bytes, zeroed: grown when it holds fewer. */
static void *fit(void **p, size_t *cap, size_t need)
{
	if (need > *cap) {
		free(*p);
		*cap = (*p = calloc(1, need)) ? need : 0;
		return *p;
	}
	return memset(*p, 0, need);
}

/* n warps and the buffers each grew (warp.c grows them as a warp's
 * divergence, calls and recursion need). */
static void warps_free(struct warp *w, size_t n)
{
	for (size_t i = 0; w && i < n; i++) {
		free(w[i].stack);
		free(w[i].calls);
		free(w[i].save);
	}
	free(w);
}

/* m's warps, at least n: made anew, zeroed and without buffers, when it
 * holds fewer; else the same, buffers and all. */
static struct warp *warps_fit(struct blk_mem *m, size_t n)
{
	struct warp *w;

	if (n <= m->nwarps_made)
		return m->warps;
	if (!(w = calloc(n, sizeof *w)))
		return NULL;
	warps_free(m->warps, m->nwarps_made);
	m->nwarps_made = n;
	return m->warps = w;
}

static void mem_free(struct blk_mem *m)
{
	if (!m)
		return;
	warps_free(m->warps, m->nwarps_made);
	free(m->regs);
	free(m->shared);
	free(m->local);
	free(m->lparam);
	free(m->ready);
	free(m->l1);
	free(m->stlb);
	free(m);
}

/* The thread's blk_mem, freed when the thread ends (a stream's thread
 * does; the pool's live as long as the process) by the key's destructor.
 * Kept in a thread variable too: a leak checker reads those, not a
 * thread's key values. */
static pthread_key_t mem_key;
static pthread_once_t mem_once = PTHREAD_ONCE_INIT;
static bool mem_keyed;
static __thread struct blk_mem *tls_mem;

static void mem_key_make(void)
{
	mem_keyed = !pthread_key_create(&mem_key,
					(void (*)(void *))mem_free);
}

static struct blk_mem *thread_mem(void)
{
	struct blk_mem *m;

	if (tls_mem)
		return tls_mem;
	pthread_once(&mem_once, mem_key_make);
	if (!mem_keyed)
		return NULL;
	if ((m = calloc(1, sizeof *m)) && pthread_setspecific(mem_key, m)) {
		free(m);
		m = NULL;
	}
	ex_pool_keep(m);
	return tls_mem = m;
}

/* The calling thread's shared translation entries, made at its first
 * launch and kept in its blk_mem: every block the thread runs, a
 * cooperative launch's resident ones too, uses them. NULL without
 * memory: every warp then asks the model. */
static struct stlb *thread_stlb(void)
{
	struct blk_mem *m = thread_mem();

	if (m && !m->stlb)
		m->stlb = calloc(STLB_SIZE, sizeof *m->stlb);
	return m ? m->stlb : NULL;
}

/* A warp as calloc made it, but for the buffers it grew in earlier
 * launches (SIMT stack, call frames, saved rows), which it keeps: their
 * entries are written before they are read. */
static void zero_warp(struct warp *w)
{
	struct simt *stack = w->stack;
	struct frame *calls = w->calls;
	uint8_t *save = w->save;
	int capstack = w->capstack, capcalls = w->capcalls;
	size_t capsave = w->capsave;

	memset(w, 0, sizeof *w);
	w->stack = stack;
	w->capstack = capstack;
	w->calls = calls;
	w->capcalls = capcalls;
	w->save = save;
	w->capsave = capsave;
}

/* Each lane's %tid, counted up without a division a lane. */
static void thread_ids(struct warp *w, uint32_t first, const uint32_t block[3])
{
	uint64_t x = first % block[0], y = first / block[0] % block[1],
		 z = first / ((uint64_t)block[0] * block[1]);

	for (uint32_t k = 0; k < WARP; k++) {
		w->tid[0][k] = x;
		w->tid[1][k] = y;
		w->tid[2][k] = z;
		w->lane[k] = k;
		if (++x == block[0]) {
			x = 0;
			if (++y == block[1]) {
				y = 0;
				z++;
			}
		}
	}
}

/* Warp i's part of a slab of per-register entries of elem bytes (its
 * register file, its ready cycles): only the rows the kernel reaches,
 * [reg_lo, reg_hi), are there (a module's registers are numbered over all
 * its functions, and a launch must not allocate, zero and fault in every
 * kernel's rows for each of its warps). The pointer is biased by reg_lo
 * entries, so that register reg's is at [reg] as everywhere. */
static uintptr_t warp_part(const struct blk *b, void *slab, size_t elem,
			   int i)
{
	size_t rows = (size_t)(b->k->reg_hi - b->k->reg_lo);

	return (uintptr_t)slab + ((size_t)i * rows) * elem -
	       (uintptr_t)b->k->reg_lo * elem;
}

/* Whether the launch times its warps' chains: it gave a latency. */
static bool chains_timed(const struct ex_launch *l)
{
	for (int c = 0; c < EX_LAT_COUNT; c++)
		if (l->latency[c])
			return true;
	return false;
}

/* A warp's lanes' local (or param) memory, bytes a lane, in the block's
 * slab: each warp's part starts on a cache line, as its own allocation
 * did. */
static size_t lane_slab(uint32_t bytes)
{
	return ((size_t)WARP * (bytes ? bytes : 1) + 63) & ~(size_t)63;
}

/* Block memory from m for the launch's blocks; its struct blk is m->b. */
static int alloc_blk(struct blk_mem *m, struct grid *g, uint32_t shared_bytes)
{
	const struct ex_launch *l = g->l;
	uint64_t nthreads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
	struct blk *b = &m->b;
	size_t nw, lstride, pstride;
	uint8_t *local, *lparam;
	uint64_t *ready = NULL;

	memset(b, 0, sizeof *b);
	b->g = g;
	b->l = l;
	b->m = g->m;
	b->k = g->k;
	b->nwarps = (int)((nthreads + WARP - 1) / WARP);
	/* a kernel that reaches a recursive function has its stack after
	 * the static locals; a stack of 0 holds no frame, so its first
	 * recursive call faults, as on an H200 (probes/results/stackmem.txt) */
	b->local_bytes = g->m->local_bytes + (g->k->reaches_recursion ?
		l->stack_bytes : 0);
	b->lparam_bytes = g->m->lane_param_bytes;
	b->shared_bytes = shared_bytes;
	nw = (size_t)b->nwarps;
	lstride = lane_slab(b->local_bytes);
	pstride = lane_slab(b->lparam_bytes);
	b->warps = warps_fit(m, nw);
	b->shared = fit(&m->shared, &m->shared_cap,
			shared_bytes ? shared_bytes : 1);
	b->regs = fit(&m->regs, &m->regs_cap,
		      (nw * (size_t)(b->k->reg_hi - b->k->reg_lo) + 1) *
		      sizeof *b->regs);
	local = fit(&m->local, &m->local_cap, nw * lstride);
	lparam = fit(&m->lparam, &m->lparam_cap, nw * pstride);
	if (chains_timed(l)) {
		b->lat = l->latency;
		b->sm_warps = l->sm_warps ? l->sm_warps : 1;
		b->l1_sets = l->l1_lines / L1_WAYS;
		b->l1 = !b->l1_sets ? NULL :
			fit(&m->l1, &m->l1_cap, sizeof *b->l1 * L1_WAYS *
						b->l1_sets);
		ready = fit(&m->ready, &m->ready_cap,
			    (nw * (size_t)(b->k->reg_hi - b->k->reg_lo) + 1) *
			    sizeof *ready);
	}
	if (!b->warps || !b->shared || !b->regs || !local || !lparam ||
	    (b->lat && !ready) || (b->lat && b->l1_sets && !b->l1))
		return -1;
	b->stlb = thread_stlb();
	for (int i = 0; i < b->nwarps; i++) {
		struct warp *w = &b->warps[i];
		uint32_t first = (uint32_t)i * WARP;
		zero_warp(w);
		if (!w->stack && (w->stack = calloc(SIMT_DEPTH,
						    sizeof *w->stack)))
			w->capstack = SIMT_DEPTH;
		if (!w->stack)
			return -1;
		w->r = (uint64_t (*)[WARP])warp_part(b, b->regs,
						     sizeof *b->regs, i);
		w->ready = ready ? (uint64_t *)warp_part(b, ready,
							 sizeof *ready, i)
				 : NULL;
		w->local = local + (size_t)i * lstride;
		w->lparam = lparam + (size_t)i * pstride;
		w->id = (uint32_t)i;
		w->valid = nthreads - first >= WARP ? FULL :
			   (1u << (nthreads - first)) - 1;
		thread_ids(w, first, l->block);
		if (l->mem.generation)
			w->gen = *l->mem.generation;
	}
	return 0;
}

static void start_block(struct blk *b, uint64_t i)
{
	const struct ex_launch *l = b->l;

	b->linear = i;
	b->ctaid[0] = (uint32_t)(i % l->grid[0]);
	b->ctaid[1] = (uint32_t)(i / l->grid[0] % l->grid[1]);
	b->ctaid[2] = (uint32_t)(i / ((uint64_t)l->grid[0] * l->grid[1]));
	for (int d = 0; d < 3; d++) {
		b->scalar[S_NTID_X + d] = l->block[d];
		b->scalar[S_CTAID_X + d] = b->ctaid[d];
		b->scalar[S_NCTAID_X + d] = l->grid[d];
	}
	b->scalar[S_NWARPID] = l->dev.warps_per_sm ? l->dev.warps_per_sm : 64;
	b->scalar[S_NSMID] = l->dev.sm_count ? l->dev.sm_count : 1;
	b->scalar[S_SMID] = i % b->scalar[S_NSMID];
	b->scalar[S_GRIDID] = 1;
	b->scalar[S_DYN_SMEM] = l->dynamic_shared_bytes;
	b->scalar[S_TOTAL_SMEM] = b->shared_bytes - SMEM_RESERVED;
	b->scalar[S_AGGR_SMEM] = b->g->shared_aggr;
	b->scalar[S_RSMEM_BEGIN] = 0;
	b->scalar[S_RSMEM_END] = SMEM_RESERVED_END;
	b->scalar[S_RSMEM_CAP] = SMEM_RESERVED;
	b->scalar[S_RSMEM_0] = 0;
	b->scalar[S_RSMEM_1] = 0;
	if (b->g->gridws) {   /* where grid.sync() finds its words */
		b->scalar[S_ENVREG0 + 1] = WIN_GRID >> 32;
		b->scalar[S_ENVREG0 + 2] = WIN_GRID & 0xffffffffu;
	}
	memset(b->arrived, 0, sizeof b->arrived);
	memset(b->shared, 0, b->shared_bytes);
	if (b->l1)   /* a block's L1 starts empty: it may be another SM's */
		memset(b->l1, 0, sizeof *b->l1 * L1_WAYS * b->l1_sets);
	for (int k = 0; k < b->nwarps; k++) {
		struct warp *w = &b->warps[k];
		w->exited = ~w->valid;
		if (w->ready)   /* a block's chains start at its first issue */
			memset(&w->ready[b->k->reg_lo], 0,
			       (size_t)(b->k->reg_hi - b->k->reg_lo) *
			       sizeof *w->ready);
		w->cyc = w->end = w->st = w->issued = w->lsu = 0;
		w->count = 0;
		w->state = W_RUN;
		w->bar = 0;
		w->bar_red = -1;
		w->sp = 1;
		w->ncalls = 0;
		w->fbase = w->ssp = 0;
		w->nsave = 0;
		memset(w->launched, 0, sizeof w->launched);
		w->stack[0] = (struct simt){ b->k->first, -1, w->valid };
	}
}

/* bar.red: the block's popc/and/or over the arrived lanes' predicates,
 * written to each waiting warp's destination. */
static void bar_reduce(struct blk *b, int id)
{
	uint64_t popc = 0;
	bool all = true, any = false;
	const struct insn *in = NULL;

	for (int k = 0; k < b->nwarps; k++) {
		struct warp *w = &b->warps[k];
		const struct operand *p;
		if (w->state != W_BAR || w->bar != id || w->bar_red < 0)
			continue;
		in = &b->m->code[w->bar_red];
		p = &in->o[in->nops - 1];
		for (uint32_t mm = w->bar_mask; mm; mm &= mm - 1) {
			int l = __builtin_ctz(mm);
			bool v = p->kind == K_REG ?
				((w->r[p->reg][l] & 1) ^ p->neg) : (in->immv[in->nops - 1] & 1);
			popc += v;
			all = all && v;
			any = any || v;
		}
	}
	for (int k = 0; in && k < b->nwarps; k++) {
		struct warp *w = &b->warps[k];
		if (w->state != W_BAR || w->bar != id || w->bar_red < 0)
			continue;
		in = &b->m->code[w->bar_red];
		uint64_t v = in->sub == A_AND ? all : in->sub == A_OR ? any : popc;
		if (in->o[0].reg >= 0)
			for (uint32_t mm = w->bar_mask; mm; mm &= mm - 1)
				w->r[in->o[0].reg][__builtin_ctz(mm)] = v;
	}
}

/* The last cycle a warp of b issued in: of those waiting at barrier id,
 * or of them all where id is -1. */
static uint64_t last_issue(const struct blk *b, int id)
{
	uint64_t last = 0;

	for (int k = 0; k < b->nwarps; k++) {
		const struct warp *w = &b->warps[k];
		if ((id < 0 || (w->state == W_BAR && w->bar == id)) &&
		    w->end > last)
			last = w->end;
	}
	return last;
}

/* The warps waiting at barrier id go on, in the cycle the last of them
 * arrived. */
static void leave_together(struct blk *b, int id)
{
	uint64_t last = last_issue(b, id);

	for (int k = 0; k < b->nwarps; k++) {
		struct warp *w = &b->warps[k];
		if (w->state == W_BAR && w->bar == id) {
			w->state = W_RUN;
			w->cyc = w->end = last;
		}
	}
}

/* Opens every barrier that its warps complete; false when none. */
static bool release(struct blk *b)
{
	const uint32_t *arrived = b->arrived;
	bool any = false;
	int live = 0;

	for (int k = 0; k < b->nwarps; k++)
		live += b->warps[k].state != W_DONE;
	for (int id = 0; id < NBAR; id++) {
		int at = 0;
		uint32_t count = 0;
		for (int k = 0; k < b->nwarps; k++) {
			struct warp *w = &b->warps[k];
			if (w->state == W_BAR && w->bar == id) {
				at++;
				if (w->bar_count)
					count = w->bar_count;
			}
		}
		if (!at)
			continue;
		if (count ? (at + arrived[id]) * WARP < count : at < live)
			continue;
		bar_reduce(b, id);
		leave_together(b, id);
		b->arrived[id] = 0;
		any = true;
	}
	return any;
}

/* One round of block b: each runnable warp runs until it waits, ends or
 * yields; the barriers its warps complete open. 1: the block goes on; 0:
 * it has ended; -1: the launch failed. */
static int block_round(struct blk *b)
{
	bool yielded = false;
	int done = 0;

	for (int k = 0; k < b->nwarps; k++) {
		struct warp *w = &b->warps[k];
		int st;
		if (w->state != W_RUN)
			continue;
		st = b->g->run(b, w);
		while (st == W_BAR && w->state == W_RUN) {
			/* bar.arrive: counted, and the warp goes on */
			b->arrived[(-1 - w->bar) & (NBAR - 1)]++;
			st = b->g->run(b, w);
		}
		if (st < 0)
			return -1;
		yielded |= st == W_YIELD;
	}
	for (int k = 0; k < b->nwarps; k++)
		done += b->warps[k].state == W_DONE;
	if (done == b->nwarps)
		return 0;
	if (!release(b) && !yielded) {
		int k = 0;
		while (b->warps[k].state != W_BAR)
			k++;
		ex_grid_fail(b, &b->warps[k],
			     __builtin_ctz(b->warps[k].bar_mask | 1u << 31),
			     EX_LAUNCH_FAILED, 0,
			     "barrier %d can never complete: its warps wait for "
			     "threads that cannot arrive", b->warps[k].bar);
		return -1;
	}
	return 1;
}

/* Block b has ended: its chain is its slowest warp's. */
static void block_ended(struct blk *b)
{
	uint64_t last;

	if (!b->lat)
		return;
	last = last_issue(b, -1);
	b->chain_sum += last;
	if (last > b->chain_max)
		b->chain_max = last;
}

static int run_block(struct blk *b, uint64_t i)
{
	int rc;

	start_block(b, i);
	while ((rc = block_round(b)) > 0)
		;
	if (rc == 0)
		block_ended(b);
	return rc;
}

static void add_counts(struct grid *g, const struct blk *b)
{
	struct ex_result *r = g->r;

	pthread_mutex_lock(&g->lock);
	r->warp_instructions += b->warp_insns;
	r->lane_instructions += b->lane_insns;
	r->atomics += b->atomics;
	r->chain_sum += b->chain_sum;
	if (b->chain_max > r->chain_max)
		r->chain_max = b->chain_max;
	for (int p = 0; p < EX_MAX_PLACES; p++) {
		r->bytes_read[p] += b->bytes_read[p];
		r->bytes_written[p] += b->bytes_written[p];
		r->sectors_read[p] += b->sectors_read[p];
		r->sectors_written[p] += b->sectors_written[p];
		r->atoms[p] += b->atoms[p];
		r->read_requests[p] += b->read_requests[p];
		r->l1_sectors[p] += b->l1_sectors[p];
		r->merged_sectors[p] += b->merged_sectors[p];
	}
	pthread_mutex_unlock(&g->lock);
}

/* A launch as its host threads see it: the grid, and what each share
 * needs besides. */
struct crewjob {
	struct grid g;
	uint32_t shared_bytes;    /* a block's, in whole units */
	int hired;                /* the helpers the pool gave; the caller's */
};

static void out_of_memory(struct grid *g)
{
	pthread_mutex_lock(&g->lock);
	if (g->r->status == EX_OK)
		g->r->status = EX_OUT_OF_MEMORY;
	pthread_mutex_unlock(&g->lock);
	__atomic_store_n(&g->stop, 1, __ATOMIC_RELAXED);
}

/* Whether block i is share index's in a cooperative launch: every
 * nthreads-th block from index; the caller's (0) also holds the shares
 * of the helpers the pool could not give (past hired). */
static bool cooperative_owns(const struct crewjob *cj, int index, uint64_t i)
{
	int of = (int)(i % (uint64_t)cj->g.nthreads);

	return of == index || (index == 0 && of > cj->hired);
}

/* A cooperative launch's host thread: its share of the blocks, all
 * resident, run a round each in turn. */
static void cooperative(struct crewjob *cj, int index)
{
	struct grid *g = &cj->g;
	uint64_t n = 0, left;
	struct blk_mem **bs = calloc(g->nblocks, sizeof *bs);
	int *live = calloc(g->nblocks, sizeof *live);

	for (uint64_t i = 0; bs && live && i < g->nblocks; i++) {
		if (!cooperative_owns(cj, index, i))
			continue;
		if (!(bs[n] = calloc(1, sizeof *bs[n])) ||
		    alloc_blk(bs[n], g, cj->shared_bytes)) {
			if (bs[n])
				ex_grid_fail(&bs[n++]->b, NULL, 0,
					     EX_OUT_OF_MEMORY, 0, "out of "
					     "memory for a resident block");
			else
				out_of_memory(g);
			break;
		}
		bs[n]->b.slice = bs[n]->b.l1 ? SLICE_L1 : SLICE;
		start_block(&bs[n]->b, i);
		live[n++] = 1;
	}
	if (!bs || !live)
		out_of_memory(g);
	left = n;
	while (left && !__atomic_load_n(&g->stop, __ATOMIC_RELAXED)) {
		for (uint64_t k = 0; k < n; k++) {
			int rc;
			if (!live[k])
				continue;
			rc = block_round(&bs[k]->b);
			if (rc < 0) {
				left = 0;
				break;
			}
			if (rc == 0) {
				block_ended(&bs[k]->b);
				live[k] = 0;
				left--;
			}
		}
	}
	for (uint64_t k = 0; bs && k < n; k++) {
		add_counts(g, &bs[k]->b);
		mem_free(bs[k]);
	}
	free(bs);
	free(live);
}

/* A thread's share of an ordinary launch: the next block not yet
 * started, until none is left, in the thread's kept block memory. */
static void blocks(struct crewjob *cj)
{
	struct grid *g = &cj->g;
	struct blk_mem *m = thread_mem();
	struct blk *b;

	if (!m || alloc_blk(m, g, cj->shared_bytes)) {
		if (m)
			ex_grid_fail(&m->b, NULL, 0, EX_OUT_OF_MEMORY, 0,
				     "out of memory for a block");
		else
			out_of_memory(g);
		return;
	}
	b = &m->b;
	/* A block's warps may wait on one another through shared memory
	 * without a barrier (cooperative groups' tiles of more than a warp
	 * spin on a word of the reserved region): each gives way every SLICE
	 * branches, as the SM interleaves them. */
	b->slice = b->l1 ? SLICE_L1 : SLICE;
	for (;;) {
		uint64_t i = __atomic_fetch_add(&g->next, 1, __ATOMIC_RELAXED);
		if (i >= g->nblocks || __atomic_load_n(&g->stop, __ATOMIC_RELAXED))
			break;
		if (run_block(b, i))
			break;
	}
	add_counts(g, b);
}

static void share(struct crewjob *cj, int index)
{
	if (cj->g.gridws)
		cooperative(cj, index);
	else
		blocks(cj);
}

/* A pool thread's share: the bridge's hook around it. */
static void helper(void *arg, int index)
{
	struct crewjob *cj = arg;
	const struct ex_memops *mo = &cj->g.l->mem;

	if (mo->worker)
		mo->worker(mo->ctx, true);
	share(cj, index);
	if (mo->worker)
		mo->worker(mo->ctx, false);
}

/* ------------------------------------------------------------------ */
/* The launch                                                          */

static uint64_t *var_addresses(const struct ex_module *m,
			       const struct pfunc *k)
{
	uint64_t *a = calloc((size_t)m->nvars + 1, sizeof *a);

	if (!a)
		return NULL;
	for (int i = 0; i < m->nvars; i++) {
		const struct pvar *v = &m->vars[i];
		switch (v->space) {
		case SP_GLOBAL: case SP_CONST:
			a[i] = m->var_addr[i];
			break;
		case SP_PARAM:
			a[i] = v->kernel_param ? v->offset : LPARAM_BASE + v->offset;
			break;
		case SP_SHARED:   /* laid out for this kernel */
			a[i] = k->shoff[i];
			break;
		default:   /* local: offsets in the thread's local memory */
			a[i] = v->offset;
			break;
		}
	}
	return a;
}

static enum ex_status refuse(struct ex_result *r, enum ex_status st,
			     const char *why)
{
	r->status = st;
	snprintf(r->message, sizeof r->message, "%s", why);
	return st;
}

/* The warp loop for this launch: warp.c's AVX2 build where the host has
 * AVX2 and FMA and the launch does not ask for the baseline. */
static int (*warp_loop(const struct ex_launch *l))(struct blk *, struct warp *)
{
#ifdef EX_HAVE_AVX2
	if (!l->baseline && __builtin_cpu_supports("avx2") &&
	    __builtin_cpu_supports("fma"))
		return ex_warp_run_avx2;
#endif
	(void)l;
	return ex_warp_run;
}

/* Launches so far: each names the host threads' shared translation
 * entries it fills (struct stlb), so that a later launch, of another
 * context or after memory was freed, never hits them. Global because
 * the threads' kept caches are the process's. */
static uint64_t launches;

static enum ex_status grid_run(const struct ex_launch *l,
			       struct ex_result *r);

/* A launched grid's stream, its place in the queue, when its launch
 * call was made (its thread's calls before it) and its time. */
struct span_of {
	uint64_t group, order;
	uint64_t made, ns;
};

static int span_cmp(const void *a, const void *b)
{
	const struct span_of *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The stream a launch ran in, as a number: a block's own by the block's
 * number, a stream the device made by its handle, a fire-and-forget
 * launch one of its own (*alone counts them), numbered apart. */
static uint64_t group_of(const struct devop *op, uint64_t *alone)
{
	if (op->alone)
		return UINT64_MAX - (*alone)++;
	if (op->stream)
		return (1ull << 63) | op->stream;
	return op->from_block;
}

/* When the last stream ends: each stream's grids one after another, a
 * grid not before its launch call was made. Sorts sp. */
static uint64_t longest(struct span_of *sp, uint64_t n)
{
	uint64_t most = 0;

	qsort(sp, n, sizeof *sp, span_cmp);
	for (uint64_t i = 0, j; i < n; i = j) {
		uint64_t t = 0;
		for (j = i; j < n && sp[j].group == sp[i].group; j++)
			t = (sp[j].made > t ? sp[j].made : t) + sp[j].ns;
		most = t > most ? t : most;
	}
	return most;
}

/* How long a launched grid c ran, its own blocks' counts in r (insns its
 * instructions): the model's answer, or its longest chain at the
 * device's clock. */
static uint64_t grid_time(const struct ex_launch *c, const struct ex_result *r,
			  uint64_t insns)
{
	struct ex_grid_time t = { .warp_instructions = insns,
				  .chain_max = r->chain_max,
				  .chain_sum = r->chain_sum };

	memcpy(t.grid, c->grid, sizeof t.grid);
	memcpy(t.block, c->block, sizeof t.block);
	if (c->mem.grid_ns)
		return c->mem.grid_ns(c->mem.ctx, &t);
	return c->dev.clock_khz ? r->chain_max * 1000000 / c->dev.clock_khz : 0;
}

/* The work g's threads queued from the device (devrt.c), in order: each
 * launch a grid one deeper, run to its end (its own queue after it), each
 * copy and memset through the memops; the first error stops the rest.
 *
 * Their time is the parent's device_launch_ns (its chain_max and
 * chain_sum stay its own: the children's counts are the launch's, their
 * throughput the launch's, but their chains follow its end). A child's
 * time is its chains (at the device's clock) and its own children's; the
 * streams run side by side, a stream's grids one after another, none
 * before its thread's launch call was made (call_ns each), tail launches
 * after them all; beside the longest stream the launches themselves take
 * their time (ex_devq_cost), and the grids start start_ns after the
 * parent. A tree of launches takes at least grid_ns a launch in it and
 * block_ns a block of them: the device takes them at that rate
 * (probes/results/cdp-overlap.txt, cdp-wide.txt). */
static enum ex_status run_queued(const struct ex_launch *l, struct grid *g,
				 struct ex_result *r)
{
	struct devop *all = ex_devq_take(g);
	enum ex_status st = EX_OK;
	uint64_t chains = r->chain_max, chain_sum = r->chain_sum;
	uint64_t made = r->device_launches, insns = r->warp_instructions;
	uint64_t blocks = r->device_launch_blocks;
	uint64_t dinsns = r->device_warp_instructions;
	uint64_t n = 0, alone = 0, tails = 0, ns;
	struct span_of *sp;

	for (struct devop *op = all; op; op = op->next)
		n += op->kind == DEVOP_LAUNCH;
	if (!(sp = calloc(n + 1, sizeof *sp))) {
		ex_devq_free(all);
		return refuse(r, EX_OUT_OF_MEMORY, "out of memory");
	}
	ns = ex_devq_cost(all, &l->devlaunch);
	n = 0;
	for (struct devop *op = all; op && st == EX_OK; op = op->next) {
		struct ex_launch c = *l;
		uint64_t t, i0 = r->warp_instructions;
		uint64_t d0 = r->device_warp_instructions;
		if (op->kind != DEVOP_LAUNCH) {
			st = ex_devop_memory(l, op, r);
			continue;
		}
		c.kernel = op->kernel;
		memcpy(c.grid, op->grid, sizeof c.grid);
		memcpy(c.block, op->block, sizeof c.block);
		c.dynamic_shared_bytes = op->shared_bytes;
		c.params = op->params;
		c.cooperative = false;
		c.depth = l->depth + 1;
		r->chain_max = r->chain_sum = 0;
		r->device_launch_ns = 0;
		r->device_launches++;
		r->device_launch_blocks += (uint64_t)op->grid[0] * op->grid[1] *
					   op->grid[2];
		st = grid_run(&c, r);
		t = grid_time(&c, r, r->warp_instructions - i0 -
			      (r->device_warp_instructions - d0)) +
		    r->device_launch_ns;
		if (op->tail)
			tails += t;
		else
			sp[n] = (struct span_of){ group_of(op, &alone), n,
				(uint64_t)op->nth * l->devlaunch.call_ns, t },
			n++;
	}
	n = longest(sp, n);
	ns = l->devlaunch.start_ns + (n > ns ? n : ns) + tails;
	free(sp);
	made = (r->device_launches - made) * l->devlaunch.grid_ns +
	       (r->device_launch_blocks - blocks) * l->devlaunch.block_ns;
	if (made > ns)
		ns = made;
	if (l->depth == 0)
		ns += l->devlaunch.first_ns;
	/* every instruction since, at any depth, was a launched grid's */
	r->device_warp_instructions = dinsns + r->warp_instructions - insns;
	r->chain_max = chains;
	r->chain_sum = chain_sum;
	r->device_launch_ns = ns;
	ex_devq_free(all);
	return st;
}

/* One grid run, its counts added to r (a child's to its parent's), then
 * what it queued. */
static enum ex_status grid_run(const struct ex_launch *l, struct ex_result *r)
{
	struct crewjob cj = { 0 };
	struct grid *g = &cj.g;
	struct ex_crew crew;
	uint64_t *varaddr, nthreads;
	uint32_t shared;
	int n;

	if (!l || !l->module || l->kernel < 0 || l->kernel >= l->module->nkernels)
		return refuse(r, EX_LAUNCH_FAILED, "no such kernel");
	g->m = l->module;
	g->k = &g->m->funcs[g->m->kernels[l->kernel]];
	nthreads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
	if (!l->grid[0] || !l->grid[1] || !l->grid[2] || !nthreads ||
	    nthreads > 1024)
		return refuse(r, EX_LAUNCH_FAILED, "bad grid or block dimensions");
	if (g->k->info.param_bytes && !l->params)
		return refuse(r, EX_LAUNCH_FAILED, "no parameters");
	shared = g->k->shared_static;
	if (l->dynamic_shared_bytes) {
		shared = (shared + g->m->shared_align - 1) & ~(g->m->shared_align - 1);
		if ((uint64_t)shared + l->dynamic_shared_bytes > (1u << 30))
			return refuse(r, EX_LAUNCH_FAILED, "too much shared memory");
		shared += l->dynamic_shared_bytes;
	}
	/* the block is given whole units, as the SM allocates them: an
	 * access past the bytes asked for but inside the last unit runs */
	g->shared_aggr = shared;
	shared = SMEM_RESERVED + (shared - SMEM_RESERVED + SMEM_UNIT - 1) /
		 SMEM_UNIT * SMEM_UNIT;
	varaddr = var_addresses(g->m, g->k);
	n = l->threads > 0 ? l->threads : 1;
	g->l = l;
	g->run = warp_loop(l);
	g->varaddr = varaddr;
	g->epoch = __atomic_add_fetch(&launches, 1, __ATOMIC_RELAXED);
	g->nblocks = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
	g->r = r;
	g->ops_end = &g->ops;
	g->tails_end = &g->tails;
	if ((uint64_t)n > g->nblocks)
		n = (int)g->nblocks;
	/* a cooperative grid is shared out by n before any thread starts;
	 * the caller runs the shares of threads the pool could not give */
	g->nthreads = n;
	cj.shared_bytes = shared;
	if (l->cooperative)
		g->gridws = calloc(1, GRIDWS_BYTES);
	if (!varaddr || (l->cooperative && !g->gridws)) {
		free(varaddr);
		free(g->gridws);
		return refuse(r, EX_OUT_OF_MEMORY, "out of memory");
	}
	pthread_mutex_init(&g->lock, NULL);
	cj.hired = ex_pool_hire(&crew, n - 1, helper, &cj);
	share(&cj, 0);
	ex_pool_wait(&crew);
	if (g->ops || g->tails) {
		if (r->status == EX_OK)
			run_queued(l, g, r);
		else
			ex_devq_free(ex_devq_take(g));
	}
	pthread_mutex_destroy(&g->lock);
	free(varaddr);
	free(g->gridws);
	return r->status;
}

enum ex_status ex_launch_run(const struct ex_launch *l, struct ex_result *r)
{
	memset(r, 0, sizeof *r);
	return grid_run(l, r);
}
