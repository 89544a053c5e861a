/*
 * graphexec.c - executable graphs: cuGraphInstantiateWithFlags,
 * InstantiateWithParams, cuGraphLaunch, Upload, ExecDestroy, the
 * cuGraphExec*NodeSetParams calls and cuGraphExecUpdate.
 *
 * Instantiation copies the graph (a later change of it, or its
 * destruction, leaves the executable graph as it was, as on the device:
 * probes/results/graph.txt), flattens child graphs into it, orders the
 * nodes (a cycle is INVALID_VALUE) and lays them on lanes: a node goes on
 * the lane of a dependency that ended its lane, else on a lane of its
 * own, so that independent branches run side by side as a graph's do on
 * the device (8 branches of a 20 us kernel took 28 us there). Lane 0 is
 * the launch's stream; the others are streams the executable graph owns,
 * joined by events where an edge crosses lanes. A launch replays the
 * nodes through the driver's own entries (cuMemcpy3DAsync,
 * cuMemsetD2D*Async, cuLaunchHostFunc, event calls; launch.c's
 * cuemu_launch_node for kernels), ordered after the stream's earlier work
 * and after the executable graph's previous launch.
 *
 * Model time (probes/results/graph-time.txt, a chain of 1, 10 and 100
 * empty kernels): the call costs the host uvm.graph_launch_call_ns once
 * (2 us; a launch of each kernel 4), the graph starts uvm.graph_launch_ns
 * after its stream reaches it, and each kernel node starts
 * uvm.graph_node_ns (0.53 us) behind the work it follows instead of a
 * launch's launch_ns. The host's instantiation takes
 * uvm.graph_instantiate_ns and graph_instantiate_node_ns a node, the
 * first launch or upload graph_upload_node_ns a node
 * (results/graph-perfscaling.txt).
 *
 * An executable graph is the program's to serialize, as CUDA asks; no
 * lock.
 */
#include "driver/graph.h"
#include "model/clock.h"
#include "model/copy.h"
#include "model/stream.h"
#include "model/uvm.h"

#include <stdlib.h>
#include <string.h>

#define EXEC_MAGIC 0x65786563u /* "exec" */
/* Past this many lanes, a node shares a lane (in order, never wrongly). */
#define MAX_LANES 16

/* A node as a launch runs it. */
struct xnode {
	CUgraphNode n;          /* in the executable graph's own copy */
	int lane;
	size_t *deps, ndeps;    /* indices of the nodes it follows */
	size_t *waits, nwaits;  /* ... of them, those on other lanes */
	bool signal;            /* another lane waits for it: an event */
};

/* The nodes in order and on lanes: what instantiation makes of a graph. */
struct plan {
	struct xnode *x;
	size_t n, cap;
	int nlanes;
};

/* A conditional node as a launch runs it: its bodies' executable graphs,
 * each run on a stream of the node's own when the node's value picks it. */
struct xcond {
	CUgraphExec *bodies;
	unsigned n;
	CUstream cs;
};

struct CUgraphExec_st {
	uint32_t magic;
	CUcontext ctx;
	CUgraph g;              /* the copy the nodes live in */
	struct plan p;
	struct xcond **cond;    /* per node: a conditional node's, else NULL */
	/* the values of the conditional handles, numbered from 1: the
	 * outermost executable graph's, which its bodies' share */
	uint32_t *vals;
	size_t nvals;
	bool body;              /* a conditional node's body: g and vals are
				 * the outer executable graph's */
	CUstream lanes[MAX_LANES];  /* [0] unused: the launch's stream */
	CUevent *ev;            /* per node, where it signals */
	CUevent start, done, lane_end[MAX_LANES];
	bool launched;
	bool uploaded;          /* its first launch or upload has been */
	unsigned long long flags; /* as instantiated */
};

/* ------------------------------------------------------------ the plan */

static void plan_free(struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->x[i].deps);
		free(p->x[i].waits);
	}
	free(p->x);
	*p = (struct plan){ 0 };
}

/* A set of node indices. */
struct iset {
	size_t *v, n, cap;
};

static int iset_add(struct iset *s, size_t i)
{
	for (size_t k = 0; k < s->n; k++)
		if (s->v[k] == i)
			return 0;
	if (s->n == s->cap) {
		size_t c = s->cap ? s->cap * 2 : 4;
		size_t *v = realloc(s->v, c * sizeof *v);
		if (!v)
			return -1;
		s->v = v;
		s->cap = c;
	}
	s->v[s->n++] = i;
	return 0;
}

static int iset_union(struct iset *s, const struct iset *o)
{
	for (size_t k = 0; k < o->n; k++)
		if (iset_add(s, o->v[k]) < 0)
			return -1;
	return 0;
}

static CUresult plan_push(struct plan *p, CUgraphNode n, const struct iset *d,
			  size_t *index)
{
	struct xnode *x;

	if (p->n == p->cap) {
		size_t c = p->cap ? p->cap * 2 : 16;
		struct xnode *v = realloc(p->x, c * sizeof *v);
		if (!v)
			return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph");
		p->x = v;
		p->cap = c;
	}
	x = &p->x[p->n];
	*x = (struct xnode){ .n = n, .ndeps = d->n };
	if (d->n && !(x->deps = malloc(d->n * sizeof *x->deps)))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph");
	if (d->n)
		memcpy(x->deps, d->v, d->n * sizeof *x->deps);
	*index = p->n++;
	return CUDA_SUCCESS;
}

static void isets_free(struct iset *s, size_t n)
{
	for (size_t i = 0; s && i < n; i++)
		free(s[i].v);
	free(s);
}

static CUresult flatten(struct plan *p, CUgraph g, const struct iset *entry,
			struct iset *leaves, int depth);

/* One node of g, its dependencies' exits known: a child graph's nodes
 * in its place, or the node itself. exit: what follows it depends on. */
static CUresult flatten_node(struct plan *p, CUgraphNode n,
			     const struct iset *deps, struct iset *exit,
			     int depth)
{
	size_t index = 0;
	CUresult r;

	/* a conditional node stays one node: its bodies run apart */
	if (n->type == CU_GRAPH_NODE_TYPE_GRAPH) {
		if ((r = flatten(p, n->p.child, deps, exit, depth + 1)))
			return r;
		return exit->n || iset_union(exit, deps) == 0 ? CUDA_SUCCESS :
			cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph");
	}
	if ((r = plan_push(p, n, deps, &index)) != CUDA_SUCCESS)
		return r;
	return iset_add(exit, index) < 0 ?
		cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph") : CUDA_SUCCESS;
}

/* Appends g's nodes to p in an order that puts each after what it
 * depends on (Kahn's), its roots after entry; *leaves gets what its last
 * nodes leave (their indices). A cycle leaves nodes unplaced. */
static CUresult flatten(struct plan *p, CUgraph g, const struct iset *entry,
			struct iset *leaves, int depth)
{
	size_t *indeg = calloc(g->n ? g->n : 1, sizeof *indeg);
	size_t *queue = malloc((g->n ? g->n : 1) * sizeof *queue);
	struct iset *exits = calloc(g->n ? g->n : 1, sizeof *exits);
	size_t head = 0, tail = 0;
	CUresult r = CUDA_SUCCESS;

	if (depth > 64)
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			       "child graphs nest past 64");
	else if (!indeg || !queue || !exits)
		r = cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph");
	cuemu_graph_number(g);
	for (size_t i = 0; r == CUDA_SUCCESS && i < g->n; i++)
		if (!(indeg[i] = g->nodes[i]->ndeps))
			queue[tail++] = i;
	while (r == CUDA_SUCCESS && head < tail) {
		size_t i = queue[head++];
		CUgraphNode n = g->nodes[i];
		struct iset d = { 0 };
		for (size_t k = 0; k < n->ndeps && r == CUDA_SUCCESS; k++)
			if (iset_union(&d, &exits[n->deps[k]->at]))
				r = cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
					       "graph");
		if (r == CUDA_SUCCESS)
			r = flatten_node(p, n, n->ndeps ? &d : entry,
					 &exits[i], depth);
		free(d.v);
		for (size_t k = 0; k < n->nouts && r == CUDA_SUCCESS; k++) {
			size_t o = n->outs[k]->at;
			if (!--indeg[o])
				queue[tail++] = o;
		}
		if (r == CUDA_SUCCESS && !n->nouts &&
		    iset_union(leaves, &exits[i]) < 0)
			r = cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph");
	}
	if (r == CUDA_SUCCESS && tail < g->n)
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			       "the graph has a cycle");
	free(indeg);
	free(queue);
	isets_free(exits, g->n);
	return r;
}

/* A conditional node follows every node placed before it, edge or not:
 * on the device a conditional node reads the value a kernel added before
 * it sets, where the program gave no edge between them (20 launches of
 * 20: probes/results/conditional.txt, unordered; cuda-samples'
 * graphConditionalNodes adds its nodes so). Its dependencies become the
 * lanes' last nodes as well as its own. */
static CUresult cond_after_all(struct plan *p, struct xnode *x,
			       const size_t *tail, size_t start)
{
	for (int l = 0; l < p->nlanes; l++) {
		size_t *v;
		bool has = tail[l] == start;

		for (size_t k = 0; k < x->ndeps && !has; k++)
			has = x->deps[k] == tail[l];
		if (has)
			continue;
		if (!(v = realloc(x->deps, (x->ndeps + 1) * sizeof *v)))
			return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph");
		x->deps = v;
		x->deps[x->ndeps++] = tail[l];
	}
	return CUDA_SUCCESS;
}

/* Each node on a lane: that of a dependency its lane ended with, else a
 * new one; the virtual start ends lane 0 at first. */
static CUresult lay_lanes(struct plan *p)
{
	const size_t START = (size_t)-1;
	size_t tail[MAX_LANES];
	CUresult r;

	p->nlanes = 1;
	tail[0] = START;
	for (size_t i = 0; i < p->n; i++) {
		struct xnode *x = &p->x[i];
		int lane = -1;

		if (x->n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL &&
		    (r = cond_after_all(p, x, tail, START)) != CUDA_SUCCESS)
			return r;

		for (size_t k = 0; k < x->ndeps && lane < 0; k++)
			if (tail[p->x[x->deps[k]].lane] == x->deps[k])
				lane = p->x[x->deps[k]].lane;
		if (lane < 0 && !x->ndeps && tail[0] == START)
			lane = 0;
		if (lane < 0)
			lane = p->nlanes < MAX_LANES ? p->nlanes++ :
			       (int)(i % MAX_LANES);
		x->lane = lane;
		tail[lane] = i;
		if (x->ndeps && !(x->waits = malloc(x->ndeps * sizeof *x->waits)))
			return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph");
		for (size_t k = 0; k < x->ndeps; k++)
			if (p->x[x->deps[k]].lane != lane) {
				p->x[x->deps[k]].signal = true;
				x->waits[x->nwaits++] = x->deps[k];
			}
	}
	return CUDA_SUCCESS;
}

static CUresult plan_make(CUgraph g, struct plan *p)
{
	struct iset entry = { 0 }, leaves = { 0 };
	CUresult r;

	*p = (struct plan){ 0 };
	r = flatten(p, g, &entry, &leaves, 0);
	free(leaves.v);
	if (r == CUDA_SUCCESS)
		r = lay_lanes(p);
	if (r != CUDA_SUCCESS)
		plan_free(p);
	return r;
}

/* ------------------------------------------------------------ the exec */

static void cond_free(struct xcond *c);

static void exec_free(CUgraphExec x)
{
	/* its user objects outlive its launches (their destructors may free
	 * what the work uses), and so do the conditional values and bodies
	 * its launches use */
	if (x->launched && x->g && (x->g->nuobjs || x->nvals))
		cuEventSynchronize(x->done);
	for (size_t i = 0; x->cond && i < x->p.n; i++)
		if (x->cond[i])
			cond_free(x->cond[i]);
	free(x->cond);
	for (int l = 1; l < MAX_LANES; l++) {
		if (x->lanes[l])
			cuStreamDestroy(x->lanes[l]);
		if (x->lane_end[l])
			cuEventDestroy(x->lane_end[l]);
	}
	for (size_t i = 0; x->ev && i < x->p.n; i++)
		if (x->ev[i])
			cuEventDestroy(x->ev[i]);
	if (x->start)
		cuEventDestroy(x->start);
	if (x->done)
		cuEventDestroy(x->done);
	free(x->ev);
	plan_free(&x->p);
	if (x->g && !x->body)
		cuemu_graph_free(x->g);
	if (!x->body)
		free(x->vals);
	x->magic = 0;
	free(x);
}

static CUresult event_new(CUevent *e)
{
	return cuEventCreate(e, CU_EVENT_DISABLE_TIMING);
}

static void cond_free(struct xcond *c)
{
	for (unsigned i = 0; c->bodies && i < c->n; i++)
		if (c->bodies[i])
			exec_free(c->bodies[i]);
	free(c->bodies);
	if (c->cs)
		cuStreamDestroy(c->cs);
	free(c);
}

/* What a conditional node's body may hold, child graphs' nodes among it
 * (CUDA_CONDITIONAL_NODE_PARAMS; probes/results/conditional.txt: a body
 * holding a host node, an event record node or a memory allocation node
 * is taken when added and refused at instantiation, INVALID_VALUE). */
static CUresult body_check(CUgraph g, int depth)
{
	CUresult r = CUDA_SUCCESS;

	for (size_t i = 0; i < g->n && r == CUDA_SUCCESS; i++)
		switch (g->nodes[i]->type) {
		case CU_GRAPH_NODE_TYPE_KERNEL:
		case CU_GRAPH_NODE_TYPE_EMPTY:
		case CU_GRAPH_NODE_TYPE_MEMSET:
		case CU_GRAPH_NODE_TYPE_MEMCPY:
		case CU_GRAPH_NODE_TYPE_CONDITIONAL:
			break;
		case CU_GRAPH_NODE_TYPE_GRAPH:
			r = depth < 64 ? body_check(g->nodes[i]->p.child,
						    depth + 1) :
			    cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				       "child graphs nest past 64");
			break;
		default:
			r = cuemu_fail(CUDA_ERROR_INVALID_VALUE, "a conditional "
				       "node's body holds a node of type %d",
				       (int)g->nodes[i]->type);
		}
	return r;
}

static CUresult exec_resources(CUgraphExec x);

/* The executable graph of body g of one of outer's conditional nodes. */
static CUresult body_exec(CUgraphExec outer, CUgraph g, CUgraphExec *out)
{
	CUgraphExec x = calloc(1, sizeof *x);
	CUresult r;

	if (!x)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph");
	*x = (struct CUgraphExec_st){ .magic = EXEC_MAGIC, .ctx = outer->ctx,
				      .g = g, .vals = outer->vals,
				      .nvals = outer->nvals, .body = true,
				      .flags = outer->flags };
	if ((r = body_check(g, 0)) == CUDA_SUCCESS &&
	    (r = plan_make(g, &x->p)) == CUDA_SUCCESS)
		r = exec_resources(x);
	if (r != CUDA_SUCCESS) {
		exec_free(x);
		return r;
	}
	*out = x;
	return CUDA_SUCCESS;
}

/* Each conditional node's bodies and stream. */
static CUresult conds_make(CUgraphExec x)
{
	CUresult r = CUDA_SUCCESS;

	for (size_t i = 0; i < x->p.n && r == CUDA_SUCCESS; i++) {
		CUgraphNode n = x->p.x[i].n;
		struct xcond *c;

		if (n->type != CU_GRAPH_NODE_TYPE_CONDITIONAL)
			continue;
		if ((!x->cond && !(x->cond = calloc(x->p.n, sizeof *x->cond))) ||
		    !(c = calloc(1, sizeof *c)))
			return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph");
		x->cond[i] = c;   /* exec_free frees what is made of it */
		if (!(c->bodies = calloc(n->p.cond.size, sizeof *c->bodies)))
			return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph");
		c->n = n->p.cond.size;
		r = cuStreamCreate(&c->cs, CU_STREAM_NON_BLOCKING);
		for (unsigned b = 0; b < c->n && r == CUDA_SUCCESS; b++)
			r = body_exec(x, n->p.cond.bodies[b], &c->bodies[b]);
	}
	return r;
}

/* The lanes' streams and the events the plan needs, in x->ctx. */
static CUresult exec_resources(CUgraphExec x)
{
	CUresult r = CUDA_SUCCESS;

	if (!(x->ev = calloc(x->p.n ? x->p.n : 1, sizeof *x->ev)))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph");
	for (int l = 1; l < x->p.nlanes && r == CUDA_SUCCESS; l++)
		if ((r = cuStreamCreate(&x->lanes[l], CU_STREAM_NON_BLOCKING)))
			break;
		else
			r = event_new(&x->lane_end[l]);
	for (size_t i = 0; i < x->p.n && r == CUDA_SUCCESS; i++)
		if (x->p.x[i].signal)
			r = event_new(&x->ev[i]);
	if (r == CUDA_SUCCESS)
		r = event_new(&x->start);
	if (r == CUDA_SUCCESS)
		r = event_new(&x->done);
	if (r == CUDA_SUCCESS)
		r = conds_make(x);
	return r;
}

/* The conditional handles' values, 0 until a launch assigns a default or
 * a kernel sets them (probes/results/conditional.txt: a handle made with
 * a default and no ASSIGN_DEFAULT reads 0). */
static CUresult cond_values(CUgraphExec x)
{
	x->nvals = x->g->nconds;
	if (x->nvals && !(x->vals = calloc(x->nvals, sizeof *x->vals)))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph");
	return CUDA_SUCCESS;
}

static CUresult instantiate(CUgraphExec *out, CUgraph g,
			    unsigned long long flags)
{
	const unsigned long long known =
		CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH |
		CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD |
		CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH |
		CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY;
	CUgraphExec x;
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)) != CUDA_SUCCESS)
		return r;
	if (!out)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "phGraphExec is NULL");
	if ((r = cuemu_graph_check(g)) != CUDA_SUCCESS)
		return r;
	if (flags & ~known)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "instantiation flags %#llx", flags);
	if (flags & CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH)
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED, "graphs launched "
				  "from the device are not emulated");
	if (!(x = calloc(1, sizeof *x)))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph");
	x->magic = EXEC_MAGIC;
	x->flags = flags;
	cuemu_clock_enter();
	if ((r = cuemu_current(&x->ctx, NULL)) == CUDA_SUCCESS &&
	    (r = cuemu_graph_clone(g, &x->g)) == CUDA_SUCCESS &&
	    (r = cond_values(x)) == CUDA_SUCCESS &&
	    (r = plan_make(x->g, &x->p)) == CUDA_SUCCESS)
		r = exec_resources(x);
	if (r == CUDA_SUCCESS)
		cuemu_host_advance(cuemu_uvm()->graph_instantiate_ns +
				   cuemu_uvm()->graph_instantiate_node_ns *
				   x->p.n);
	cuemu_clock_leave();
	if (r != CUDA_SUCCESS) {
		exec_free(x);
		return r;
	}
	*out = x;
	return CUDA_SUCCESS;
}

static CUresult exec_check(CUgraphExec x)
{
	if (!x || x->magic != EXEC_MAGIC)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s",
				  x ? "no such executable graph" :
				  "the executable graph is NULL");
	return CUDA_SUCCESS;
}

/* ------------------------------------------------------------ launches */

static CUresult run_memset(const CUDA_MEMSET_NODE_PARAMS *m, CUstream s)
{
	size_t pitch = m->height > 1 ? m->pitch : m->width * m->elementSize;

	switch (m->elementSize) {
	case 1:
		return cuMemsetD2D8Async(m->dst, pitch, (unsigned char)m->value,
					 m->width, m->height, s);
	case 2:
		return cuMemsetD2D16Async(m->dst, pitch,
					  (unsigned short)m->value, m->width,
					  m->height, s);
	default:
		return cuMemsetD2D32Async(m->dst, pitch, m->value, m->width,
					  m->height, s);
	}
}

static CUresult cond_enqueue(CUgraphExec x, size_t i, CUstream s);

static CUresult run_node(CUgraphExec x, size_t i, CUstream s)
{
	CUgraphNode n = x->p.x[i].n;

	if (n->disabled)
		return CUDA_SUCCESS;
	switch (n->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		return cuemu_launch_node(&n->p.k, s, x->vals, x->nvals);
	case CU_GRAPH_NODE_TYPE_CONDITIONAL:
		return cond_enqueue(x, i, s);
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		return cuMemcpy3DAsync(&n->p.copy.c, s);
	case CU_GRAPH_NODE_TYPE_MEMSET:
		return run_memset(&n->p.set.m, s);
	case CU_GRAPH_NODE_TYPE_HOST:
		return cuLaunchHostFunc(s, n->p.host.fn, n->p.host.userData);
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
		return cuEventRecord(n->p.event, s);
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
		return cuStreamWaitEvent(s, n->p.event, 0);
	default:
		return CUDA_SUCCESS;
	}
}

static CUstream lane_stream(CUgraphExec x, int lane, CUstream h)
{
	return lane ? x->lanes[lane] : h;
}

/* The nodes in order, each on its lane after the lanes it waits for; the
 * copy and memset nodes cost the host no call of their own (the launch's
 * call is paid once, as a kernel node's is). */
static CUresult replay(CUgraphExec x, CUstream h)
{
	CUresult r = CUDA_SUCCESS;

	cuemu_copy_calls_unpriced(true);
	for (size_t i = 0; i < x->p.n && r == CUDA_SUCCESS; i++) {
		const struct xnode *n = &x->p.x[i];
		CUstream s = lane_stream(x, n->lane, h);
		for (size_t k = 0; k < n->nwaits && r == CUDA_SUCCESS; k++)
			r = cuStreamWaitEvent(s, x->ev[n->waits[k]], 0);
		if (r == CUDA_SUCCESS)
			r = run_node(x, i, s);
		if (r == CUDA_SUCCESS && n->signal)
			r = cuEventRecord(x->ev[i], s);
	}
	cuemu_copy_calls_unpriced(false);
	return r;
}

/* The host's time to upload x, at its first launch or upload only. */
static void upload_time(CUgraphExec x)
{
	if (!x->uploaded)
		cuemu_host_advance(cuemu_uvm()->graph_upload_node_ns * x->p.n);
	x->uploaded = true;
}

static CUresult assign_defaults(CUgraphExec x, CUstream h);

/* The launch: after h's work and the previous launch, the lanes from its
 * start, the stream after every lane. A conditional node's body starts
 * where its node put it (cond_op). */
static CUresult launch_in(CUgraphExec x, CUstream h)
{
	CUresult r = CUDA_SUCCESS;

	if (x->launched)
		r = cuStreamWaitEvent(h, x->done, 0);
	if (r == CUDA_SUCCESS && !x->body)
		r = cuemuStreamSleep(h, cuemu_uvm()->graph_launch_ns);
	if (r == CUDA_SUCCESS && !x->body)
		r = assign_defaults(x, h);
	if (r == CUDA_SUCCESS && x->p.nlanes > 1)
		r = cuEventRecord(x->start, h);
	for (int l = 1; l < x->p.nlanes && r == CUDA_SUCCESS; l++)
		r = cuStreamWaitEvent(x->lanes[l], x->start, 0);
	if (r == CUDA_SUCCESS)
		r = replay(x, h);
	for (int l = 1; l < x->p.nlanes && r == CUDA_SUCCESS; l++)
		if ((r = cuEventRecord(x->lane_end[l], x->lanes[l])) ==
		    CUDA_SUCCESS)
			r = cuStreamWaitEvent(h, x->lane_end[l], 0);
	if (r == CUDA_SUCCESS && (r = cuEventRecord(x->done, h)) ==
	    CUDA_SUCCESS)
		x->launched = true;
	return r;
}

/* ------------------------------------------------------ conditionals */

/* At a launch's start on the device, each handle made with
 * ASSIGN_DEFAULT takes its default. */
struct assign {
	uint32_t *vals;
	size_t n;
	uint32_t v[];           /* v[2i]: whether handle i + 1 takes its
				 * default, v[2i + 1] the default */
};

static void assign_op(CUstream s, void *arg)
{
	struct assign *a = arg;

	(void)s;
	for (size_t i = 0; i < a->n; i++)
		if (a->v[2 * i])
			__atomic_store_n(&a->vals[i], a->v[2 * i + 1],
					 __ATOMIC_RELAXED);
	free(a);
}

static CUresult assign_defaults(CUgraphExec x, CUstream h)
{
	struct assign *a;
	CUstream s;
	CUresult r;

	if (!x->nvals)
		return CUDA_SUCCESS;
	if ((r = cuemu_stream_get(h, &s)) != CUDA_SUCCESS)
		return r;
	if (!(a = malloc(sizeof *a + 2 * x->nvals * sizeof a->v[0])))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph");
	a->vals = x->vals;
	a->n = x->nvals;
	for (size_t i = 0; i < x->nvals; i++) {
		a->v[2 * i] = x->g->conds[i].assign;
		a->v[2 * i + 1] = x->g->conds[i].dflt;
	}
	if ((r = cuemu_stream_enqueue(s, assign_op, a)) != CUDA_SUCCESS)
		free(a);
	return r;
}

/* The body a conditional node runs for value v, or -1: IF's first where
 * v is not 0, else its second where it has one; WHILE's while v is not
 * 0; SWITCH's v-th where it has that many
 * (probes/results/conditional.txt). */
static int cond_pick(CUgraphNode n, uint32_t v)
{
	switch (n->p.cond.type) {
	case CU_GRAPH_COND_TYPE_IF:
		return v ? 0 : n->p.cond.size == 2 ? 1 : -1;
	case CU_GRAPH_COND_TYPE_WHILE:
		return v ? 0 : -1;
	default:
		return v < n->p.cond.size ? (int)v : -1;
	}
}

struct condrun {
	CUgraphExec x;
	size_t i;
};

/* A conditional node on its lane s, once the work it follows is done:
 * the node takes uvm.graph_cond_ns of the device's time, and each body
 * its value picks starts graph_cond_body_ns later on the node's stream,
 * s's clock coming to its end; the value is read again after a WHILE
 * node's body. The lane's worker waits meanwhile, as the work behind the
 * node on the device does. */
static void cond_op(CUstream s, void *arg)
{
	struct condrun *c = arg;
	CUgraphExec x = c->x;
	CUgraphNode n = x->p.x[c->i].n;
	struct xcond *xc = x->cond[c->i];
	uint64_t t = cuemu_stream_now(s) + cuemu_uvm()->graph_cond_ns;
	CUstream cs;
	int b;

	free(c);
	if (cuCtxPushCurrent(x->ctx) != CUDA_SUCCESS)
		return;
	if (cuemu_stream_get(xc->cs, &cs) == CUDA_SUCCESS)
		for (;;) {
			uint32_t v = __atomic_load_n(&x->vals[n->p.cond.h - 1],
						     __ATOMIC_RELAXED);
			if ((b = cond_pick(n, v)) < 0)
				break;
			t += cuemu_uvm()->graph_cond_body_ns;
			cuemu_stream_not_before(cs, t);
			if (launch_in(xc->bodies[b], xc->cs) != CUDA_SUCCESS ||
			    cuemu_stream_join(s, cs) != CUDA_SUCCESS)
				break;
			t = cuemu_stream_now(s);
			if (n->p.cond.type != CU_GRAPH_COND_TYPE_WHILE)
				break;
		}
	cuCtxPopCurrent(NULL);
	if (t > cuemu_stream_now(s))
		cuemu_stream_advance(s, t - cuemu_stream_now(s));
}

static CUresult cond_enqueue(CUgraphExec x, size_t i, CUstream h)
{
	struct condrun *c = malloc(sizeof *c);
	CUstream s;
	CUresult r;

	if (!c)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph");
	*c = (struct condrun){ x, i };
	if ((r = cuemu_stream_get(h, &s)) != CUDA_SUCCESS ||
	    (r = cuemu_stream_enqueue_user(s, cond_op, c)) != CUDA_SUCCESS)
		free(c);
	return r;
}

static CUresult launch(CUgraphExec x, CUstream h)
{
	CUcontext cur;
	CUstream s;
	CUresult r;

	if ((r = cuemu_current(&cur, NULL)) != CUDA_SUCCESS ||
	    (r = exec_check(x)) != CUDA_SUCCESS ||
	    (r = cuemu_stream_get(h, &s)) != CUDA_SUCCESS)
		return r;
	if (cuemu_capturing(h))
		return cuemu_capture_sync(h, "a graph's launch");
	cuemu_clock_enter();
	cuemu_host_advance(cuemu_uvm()->graph_launch_call_ns);
	upload_time(x);
	if (cur != x->ctx && (r = cuCtxPushCurrent(x->ctx)) != CUDA_SUCCESS) {
		cuemu_clock_leave();
		return r;
	}
	r = launch_in(x, h);
	if (cur != x->ctx)
		cuCtxPopCurrent(NULL);
	cuemu_clock_leave();
	return r;
}

/* ------------------------------------------------------------ entries */

CUresult cuGraphInstantiateWithFlags(CUgraphExec *phGraphExec, CUgraph hGraph,
				     unsigned long long flags)
{
	return instantiate(phGraphExec, hGraph, flags);
}

CUresult cuGraphInstantiateWithParams(CUgraphExec *phGraphExec,
				      CUgraph hGraph,
				      CUDA_GRAPH_INSTANTIATE_PARAMS *params)
{
	CUresult r;

	if (!params)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "instantiateParams is NULL");
	r = instantiate(phGraphExec, hGraph, params->flags);
	params->hErrNode_out = NULL;
	params->result_out = r == CUDA_SUCCESS ?
		CUDA_GRAPH_INSTANTIATE_SUCCESS :
		r == CUDA_ERROR_INVALID_VALUE ?
		CUDA_GRAPH_INSTANTIATE_INVALID_STRUCTURE :
		CUDA_GRAPH_INSTANTIATE_ERROR;
	if (r == CUDA_SUCCESS &&
	    (params->flags & CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD))
		r = cuGraphUpload(*phGraphExec, params->hUploadStream);
	return r;
}

CUresult cuGraphInstantiateWithParams_ptsz(CUgraphExec *phGraphExec,
					   CUgraph hGraph,
					   CUDA_GRAPH_INSTANTIATE_PARAMS *params)
{
	return cuGraphInstantiateWithParams(phGraphExec, hGraph, params);
}

CUresult cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream)
{
	return launch(hGraphExec, hStream);
}

CUresult cuGraphLaunch_ptsz(CUgraphExec hGraphExec, CUstream hStream)
{
	return launch(hGraphExec, hStream ? hStream : CU_STREAM_PER_THREAD);
}

/* Nothing to move ahead of a launch: the nodes' parameters are the
 * host's; only the checks. */
static CUresult upload(CUgraphExec x, CUstream h)
{
	CUstream s;
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)) != CUDA_SUCCESS ||
	    (r = exec_check(x)) != CUDA_SUCCESS ||
	    (r = cuemu_stream_get(h, &s)) != CUDA_SUCCESS)
		return r;
	if (cuemu_capturing(h))
		return cuemu_capture_sync(h, "a graph's upload");
	cuemu_clock_enter();
	upload_time(x);
	cuemu_clock_leave();
	return CUDA_SUCCESS;
}

CUresult cuGraphUpload(CUgraphExec hGraphExec, CUstream hStream)
{
	return upload(hGraphExec, hStream);
}

CUresult cuGraphUpload_ptsz(CUgraphExec hGraphExec, CUstream hStream)
{
	return upload(hGraphExec, hStream ? hStream : CU_STREAM_PER_THREAD);
}

CUresult cuGraphExecDestroy(CUgraphExec hGraphExec)
{
	CUresult r;

	if ((r = exec_check(hGraphExec)) != CUDA_SUCCESS)
		return r;
	exec_free(hGraphExec);
	return CUDA_SUCCESS;
}

/* The executable graph's copy of a node of the graph it was made from
 * (or of a child graph in it), of type t. */
static CUresult exec_node(CUgraphExec x, CUgraphNode n, CUgraphNodeType t,
			  const void *params, CUgraphNode *out)
{
	CUresult r;

	if ((r = exec_check(x)) != CUDA_SUCCESS ||
	    (r = cuemu_graph_node_check(n)) != CUDA_SUCCESS)
		return r;
	if (!params)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "the parameters are NULL");
	if (n->type != t)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "a node of type %d, not %d", (int)n->type,
				  (int)t);
	for (size_t i = 0; i < x->p.n; i++)
		if (x->p.x[i].n->origin == n) {
			*out = x->p.x[i].n;
			return CUDA_SUCCESS;
		}
	return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "the node is not in the "
			  "graph the executable graph was made from");
}

CUresult cuGraphExecKernelNodeSetParams_v2(CUgraphExec hGraphExec,
					   CUgraphNode hNode,
					   const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
	CUgraphNode n;
	CUresult r = exec_node(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_KERNEL,
			       nodeParams, &n);

	return r ? r : cuemu_gkernel_set(&n->p.k, nodeParams);
}

CUresult cuGraphExecMemcpyNodeSetParams(CUgraphExec hGraphExec,
					CUgraphNode hNode,
					const CUDA_MEMCPY3D *copyParams,
					CUcontext ctx)
{
	CUgraphNode n;
	CUresult r = exec_node(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_MEMCPY,
			       copyParams, &n);

	(void)ctx;
	if (r == CUDA_SUCCESS && !(r = cuemu_gcopy_check(copyParams)))
		n->p.copy.c = *copyParams;
	return r;
}

CUresult cuGraphExecMemsetNodeSetParams(CUgraphExec hGraphExec,
					CUgraphNode hNode,
					const CUDA_MEMSET_NODE_PARAMS *memsetParams,
					CUcontext ctx)
{
	CUgraphNode n;
	CUresult r = exec_node(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_MEMSET,
			       memsetParams, &n);

	(void)ctx;
	if (r == CUDA_SUCCESS && !(r = cuemu_gset_check(memsetParams)))
		n->p.set.m = *memsetParams;
	return r;
}

CUresult cuGraphExecHostNodeSetParams(CUgraphExec hGraphExec,
				      CUgraphNode hNode,
				      const CUDA_HOST_NODE_PARAMS *nodeParams)
{
	CUgraphNode n;
	CUresult r = exec_node(hGraphExec, hNode, CU_GRAPH_NODE_TYPE_HOST,
			       nodeParams, &n);

	if (r == CUDA_SUCCESS && !nodeParams->fn)
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			       "the host node's function is NULL");
	if (r == CUDA_SUCCESS)
		n->p.host = *nodeParams;
	return r;
}

/* Why q cannot take p's place in x: the first node that differs, in
 * order, by type, edges or function. */
static CUgraphExecUpdateResult update_diff(const struct plan *p,
					   const struct plan *q, size_t *at)
{
	if (p->n != q->n) {
		*at = p->n < q->n ? p->n : q->n;
		return CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
	}
	for (size_t i = 0; i < p->n; i++) {
		const struct xnode *a = &p->x[i], *b = &q->x[i];
		*at = i;
		if (a->n->type != b->n->type)
			return CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED;
		if (a->ndeps != b->ndeps ||
		    (a->ndeps && memcmp(a->deps, b->deps,
					a->ndeps * sizeof *a->deps)))
			return CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
		if (a->n->type == CU_GRAPH_NODE_TYPE_KERNEL &&
		    a->n->p.k.ctx != b->n->p.k.ctx)
			return CU_GRAPH_EXEC_UPDATE_ERROR_FUNCTION_CHANGED;
		if ((a->n->type == CU_GRAPH_NODE_TYPE_EVENT_RECORD ||
		     a->n->type == CU_GRAPH_NODE_TYPE_WAIT_EVENT) &&
		    a->n->p.event != b->n->p.event)
			return CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED;
	}
	return CU_GRAPH_EXEC_UPDATE_SUCCESS;
}

CUresult cuGraphExecUpdate_v2(CUgraphExec hGraphExec, CUgraph hGraph,
			      CUgraphExecUpdateResultInfo *resultInfo)
{
	CUgraphExecUpdateResult why;
	struct plan q;
	CUgraph g;
	size_t at = 0;
	CUresult r;

	if ((r = exec_check(hGraphExec)) != CUDA_SUCCESS ||
	    (r = cuemu_graph_check(hGraph)) != CUDA_SUCCESS)
		return r;
	if (!resultInfo)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "resultInfo is NULL");
	if ((r = cuemu_graph_clone(hGraph, &g)) != CUDA_SUCCESS)
		return r;
	if ((r = plan_make(g, &q)) != CUDA_SUCCESS) {
		cuemu_graph_free(g);
		return r;
	}
	*resultInfo = (CUgraphExecUpdateResultInfo){ 0 };
	why = update_diff(&hGraphExec->p, &q, &at);
	if (why != CU_GRAPH_EXEC_UPDATE_SUCCESS) {
		resultInfo->result = why;
		resultInfo->errorNode = at < q.n ? q.x[at].n->origin : NULL;
		plan_free(&q);
		cuemu_graph_free(g);
		return cuemu_fail(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE,
				  "the graph differs from the executable "
				  "graph's at node %zu", at);
	}
	/* the same shape: the new copy's nodes take the old ones' places */
	for (size_t i = 0; i < q.n; i++) {
		q.x[i].n->disabled = hGraphExec->p.x[i].n->disabled;
		hGraphExec->p.x[i].n = q.x[i].n;
	}
	plan_free(&q);
	cuemu_graph_free(hGraphExec->g);
	hGraphExec->g = g;
	return CUDA_SUCCESS;
}

CUresult cuGraphExecEventRecordNodeSetEvent(CUgraphExec hGraphExec,
					    CUgraphNode hNode, CUevent event)
{
	CUgraphNode n;
	CUresult r = exec_node(hGraphExec, hNode,
			       CU_GRAPH_NODE_TYPE_EVENT_RECORD, &event, &n);

	if (r == CUDA_SUCCESS && !event)
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE, "the event is NULL");
	if (r == CUDA_SUCCESS)
		n->p.event = event;
	return r;
}

CUresult cuGraphExecEventWaitNodeSetEvent(CUgraphExec hGraphExec,
					  CUgraphNode hNode, CUevent event)
{
	CUgraphNode n;
	CUresult r = exec_node(hGraphExec, hNode,
			       CU_GRAPH_NODE_TYPE_WAIT_EVENT, &event, &n);

	if (r == CUDA_SUCCESS && !event)
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE, "the event is NULL");
	if (r == CUDA_SUCCESS)
		n->p.event = event;
	return r;
}

/* The executable graph's copy of a node that may be turned off: a
 * kernel, copy or memset node. */
static CUresult switchable(CUgraphExec x, CUgraphNode n, const void *out,
			   CUgraphNode *copy)
{
	CUresult r;

	if ((r = cuemu_graph_node_check(n)) != CUDA_SUCCESS)
		return r;
	if (n->type != CU_GRAPH_NODE_TYPE_KERNEL &&
	    n->type != CU_GRAPH_NODE_TYPE_MEMCPY &&
	    n->type != CU_GRAPH_NODE_TYPE_MEMSET)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "only kernel, "
				  "copy and memset nodes are turned off");
	return exec_node(x, n, n->type, out, copy);
}

CUresult cuGraphNodeSetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode,
			       unsigned int isEnabled)
{
	CUgraphNode n;
	CUresult r = switchable(hGraphExec, hNode, &isEnabled, &n);

	if (r == CUDA_SUCCESS)
		n->disabled = !isEnabled;
	return r;
}

CUresult cuGraphNodeGetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode,
			       unsigned int *isEnabled)
{
	CUgraphNode n;
	CUresult r = switchable(hGraphExec, hNode, isEnabled, &n);

	if (r == CUDA_SUCCESS)
		*isEnabled = !n->disabled;
	return r;
}

CUresult cuGraphExecGetFlags(CUgraphExec hGraphExec, cuuint64_t *flags)
{
	CUresult r;

	if ((r = exec_check(hGraphExec)) != CUDA_SUCCESS)
		return r;
	if (!flags)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "flags is NULL");
	*flags = hGraphExec->flags;
	return CUDA_SUCCESS;
}

/* cuGraphExecNodeSetParams: the kind's own executable-graph call. */
CUresult cuGraphExecNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
				  CUgraphNodeParams *nodeParams)
{
	CUresult r;

	if ((r = exec_check(hGraphExec)) != CUDA_SUCCESS ||
	    (r = cuemu_graph_node_check(hNode)) != CUDA_SUCCESS)
		return r;
	if (!nodeParams || nodeParams->type != hNode->type)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s",
				  !nodeParams ? "nodeParams is NULL" :
				  "a node keeps its kind");
	switch (hNode->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		return cuGraphExecKernelNodeSetParams_v2(
			hGraphExec, hNode,
			(const CUDA_KERNEL_NODE_PARAMS *)&nodeParams->kernel);
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		return cuGraphExecMemcpyNodeSetParams(
			hGraphExec, hNode, &nodeParams->memcpy.copyParams,
			nodeParams->memcpy.copyCtx);
	case CU_GRAPH_NODE_TYPE_MEMSET:
		return cuGraphExecMemsetNodeSetParams(
			hGraphExec, hNode,
			(const CUDA_MEMSET_NODE_PARAMS *)&nodeParams->memset,
			nodeParams->memset.ctx);
	case CU_GRAPH_NODE_TYPE_HOST:
		return cuGraphExecHostNodeSetParams(
			hGraphExec, hNode,
			(const CUDA_HOST_NODE_PARAMS *)&nodeParams->host);
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
		return cuGraphExecEventRecordNodeSetEvent(
			hGraphExec, hNode, nodeParams->eventRecord.event);
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
		return cuGraphExecEventWaitNodeSetEvent(
			hGraphExec, hNode, nodeParams->eventWait.event);
	case CU_GRAPH_NODE_TYPE_EMPTY:
		return CUDA_SUCCESS;
	default:
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "a node of type "
				  "%d keeps its parameters in an executable "
				  "graph", (int)hNode->type);
	}
}

/* The executable graph's copy of node n, child graphs searched too. */
static CUgraphNode copy_of(CUgraph g, CUgraphNode n, int depth)
{
	CUgraphNode found = NULL;

	for (size_t i = 0; i < g->n && !found && depth < 64; i++) {
		CUgraphNode m = g->nodes[i];
		if (m->origin == n)
			found = m;
		else if (m->type == CU_GRAPH_NODE_TYPE_GRAPH)
			found = copy_of(m->p.child, n, depth + 1);
	}
	return found;
}

/* A child graph node's graph replaced in the executable graph by one of
 * the same shape: its nodes take the new graph's parameters. */
CUresult cuGraphExecChildGraphNodeSetParams(CUgraphExec hGraphExec,
					    CUgraphNode hNode,
					    CUgraph childGraph)
{
	CUgraphNode n;
	CUresult r;

	if ((r = exec_check(hGraphExec)) != CUDA_SUCCESS ||
	    (r = cuemu_graph_node_check(hNode)) != CUDA_SUCCESS ||
	    (r = cuemu_graph_check(childGraph)) != CUDA_SUCCESS)
		return r;
	if (hNode->type != CU_GRAPH_NODE_TYPE_GRAPH)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "not a child graph node");
	if (!(n = copy_of(hGraphExec->g, hNode, 0)))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "the node is not "
				  "in the graph the executable graph was made "
				  "from");
	return cuemu_graph_update(n->p.child, childGraph);
}
