/*
 * cfg.c - where a warp's divergent lanes meet again: each branch's
 * reconvergence point is the immediate post-dominator of its basic block,
 * computed once at load per function (as GPGPU-Sim's SIMT stack uses it).
 *
 * The control-flow graph of a function is its basic blocks and one
 * virtual exit that exit and the function's end (OP_FRET, where every
 * return branches) lead to. A trap leads nowhere: it ends the launch, so
 * the paths beside it still meet where they would without it (nvcc ends a
 * switch with a trapping default; were the trap a way out, the cases
 * would meet only at the exit and reach a barrier one path at a time). Post-dominators are the dominators of
 * the reversed graph rooted at that exit, by the iterative algorithm of
 * Cooper, Harvey and Kennedy over a reverse postorder. A block that
 * cannot reach the exit (an endless loop) has no post-dominator: its
 * branches reconverge nowhere (-1), and their paths run one after the
 * other.
 *
 * Locking: none; called by ex_module_parse on the module it builds.
 */
#include "exec/ptx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct graph {
	int n;              /* blocks; node n is the virtual exit */
	int *start;         /* first instruction of each block */
	int *succ;          /* two successors per block, -1 none */
	int *po;            /* postorder number in the reversed graph */
	int *ipdom;
	int *order;         /* nodes by postorder number */
};

static bool ends_block(const struct insn *in)
{
	return in->op == OP_BRA || in->op == OP_EXIT || in->op == OP_TRAP ||
	       in->op == OP_FRET;
}

static bool leaves(const struct insn *in)
{
	return in->op == OP_EXIT || in->op == OP_FRET;
}

/* Blocks of [first, end] (end is the function's OP_FRET). */
static int build(const struct ex_module *m, const struct pfunc *f,
		 struct graph *g, int *blockof)
{
	int n = 0, len = f->end - f->first + 1;
	char *lead = calloc((size_t)len, 1);

	if (!lead)
		return -1;
	lead[0] = 1;
	for (int i = f->first; i <= f->end; i++) {
		const struct insn *in = &m->code[i];
		if (in->op == OP_BRA && in->o[0].target >= f->first &&
		    in->o[0].target <= f->end)
			lead[in->o[0].target - f->first] = 1;
		if (ends_block(in) && i + 1 <= f->end)
			lead[i + 1 - f->first] = 1;
	}
	for (int i = 0; i < len; i++)
		n += lead[i];
	g->n = n;
	g->start = malloc(sizeof(int) * (size_t)(n + 1));
	g->succ = malloc(sizeof(int) * 2 * (size_t)(n + 1));
	g->po = malloc(sizeof(int) * (size_t)(n + 1));
	g->ipdom = malloc(sizeof(int) * (size_t)(n + 1));
	g->order = malloc(sizeof(int) * (size_t)(n + 1));
	if (!g->start || !g->succ || !g->po || !g->ipdom || !g->order) {
		free(lead);
		return -1;
	}
	for (int i = 0, b = -1; i < len; i++) {
		if (lead[i])
			g->start[++b] = f->first + i;
		blockof[i] = b;
	}
	free(lead);
	for (int b = 0; b < n; b++) {
		int last = (b + 1 < n ? g->start[b + 1] : f->end + 1) - 1;
		const struct insn *in = &m->code[last];
		int *s = &g->succ[2 * b];
		s[0] = s[1] = -1;
		if (in->op == OP_BRA) {
			s[0] = blockof[in->o[0].target - f->first];
			if (in->guard >= 0)
				s[1] = b + 1 < n ? b + 1 : n;
		} else if (in->op == OP_TRAP) {
			if (in->guard >= 0)
				s[0] = b + 1 < n ? b + 1 : n;
		} else if (leaves(in)) {
			s[0] = n;
			if (in->guard >= 0 && in->op != OP_FRET)
				s[1] = b + 1 < n ? b + 1 : n;
		} else {
			s[0] = b + 1 < n ? b + 1 : n;
		}
	}
	return 0;
}

/* Postorder of the reversed graph from the exit, iteratively (a DFS
 * over predecessors, found by scanning successors: functions are small
 * next to the cost of running them, and this runs once at load). */
static int postorder(struct graph *g)
{
	int n = g->n, count = 0, sp = 0;
	int *stack = malloc(sizeof(int) * 2 * (size_t)(n + 2));
	char *seen = calloc((size_t)n + 1, 1);

	if (!stack || !seen) {
		free(stack);
		free(seen);
		return -1;
	}
	for (int i = 0; i <= n; i++)
		g->po[i] = -1;
	stack[sp++] = n;
	stack[sp++] = 0;   /* next predecessor candidate to scan */
	seen[n] = 1;
	while (sp) {
		int v = stack[sp - 2], *k = &stack[sp - 1];
		bool pushed = false;
		while (*k < n) {
			int u = (*k)++;
			if (!seen[u] && (g->succ[2 * u] == v || g->succ[2 * u + 1] == v)) {
				seen[u] = 1;
				stack[sp++] = u;
				stack[sp++] = 0;
				pushed = true;
				break;
			}
		}
		if (!pushed) {
			g->po[v] = count;
			g->order[count++] = v;
			sp -= 2;
		}
	}
	free(stack);
	free(seen);
	return count;
}

static int intersect(const struct graph *g, int a, int b)
{
	while (a != b) {
		while (g->po[a] < g->po[b])
			a = g->ipdom[a];
		while (g->po[b] < g->po[a])
			b = g->ipdom[b];
	}
	return a;
}

static void post_dominators(struct graph *g, int count)
{
	bool changed = true;

	for (int i = 0; i <= g->n; i++)
		g->ipdom[i] = -1;
	g->ipdom[g->n] = g->n;
	while (changed) {
		changed = false;
		/* reverse postorder, the root (highest number) first */
		for (int k = count - 2; k >= 0; k--) {
			int b = g->order[k], nd = -1;
			for (int j = 0; j < 2; j++) {
				int s = g->succ[2 * b + j];
				if (s < 0 || g->po[s] < 0 || g->ipdom[s] < 0)
					continue;
				nd = nd < 0 ? s : intersect(g, s, nd);
			}
			if (nd >= 0 && g->ipdom[b] != nd) {
				g->ipdom[b] = nd;
				changed = true;
			}
		}
	}
}

static int function(struct ex_module *m, const struct pfunc *f)
{
	struct graph g = { 0 };
	int *blockof = malloc(sizeof(int) * (size_t)(f->end - f->first + 1));
	int count, rc = -1;

	if (!blockof || build(m, f, &g, blockof))
		goto out;
	count = postorder(&g);
	if (count < 0)
		goto out;
	post_dominators(&g, count);
	for (int b = 0; b < g.n; b++) {
		int last = (b + 1 < g.n ? g.start[b + 1] : f->end + 1) - 1;
		struct insn *in = &m->code[last];
		int d = g.ipdom[b];
		if (in->op != OP_BRA)
			continue;
		in->reconv = (d < 0 || d == g.n) ? -1 : g.start[d];
	}
	rc = 0;
out:
	free(blockof);
	free(g.start);
	free(g.succ);
	free(g.po);
	free(g.ipdom);
	free(g.order);
	return rc;
}

enum ex_status ex_cfg_reconverge(struct ex_module *m, char *log,
				 size_t logsz)
{
	for (int f = 0; f < m->nfuncs; f++) {
		if (!m->funcs[f].defined)
			continue;
		if (function(m, &m->funcs[f])) {
			if (log && logsz)
				snprintf(log, logsz, "out of memory");
			return EX_OUT_OF_MEMORY;
		}
	}
	return EX_OK;
}
