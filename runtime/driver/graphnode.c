/*
 * graphnode.c - graphs and their nodes as objects: making and freeing
 * them, their edges, copies of a graph (a clone, an instantiation's), and
 * each kind of node's parameters kept by value (a kernel's argument
 * bytes copied, a child graph's own copy, a hold of a graph's memory).
 * The entries that build graphs are graph.c's; capture.c and launch.c
 * make nodes here too, so this file calls no entry of the driver: it is
 * below them all (tests/unit/circles.sh).
 *
 * Handles are checked by a magic word: a graph is the program's to keep
 * alive and to serialize, as CUDA asks; nothing here is shared between
 * graphs, so there is no lock.
 */
#include "driver/graph.h"

#include <stdlib.h>
#include <string.h>

#define GRAPH_MAGIC 0x67726168u /* "grah" */
#define NODE_MAGIC  0x6e6f6465u /* "node" */

CUresult cuemu_graph_check(CUgraph g)
{
	if (!g || g->magic != GRAPH_MAGIC)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  g ? "no such graph" : "the graph is NULL");
	return CUDA_SUCCESS;
}

CUresult cuemu_graph_node_check(CUgraphNode n)
{
	if (!n || n->magic != NODE_MAGIC)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  n ? "no such graph node" :
				  "the graph node is NULL");
	return CUDA_SUCCESS;
}

/* ------------------------------------------------------------- edges */

static int push(CUgraphNode **v, size_t *n, size_t *cap, CUgraphNode x)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 4;
		CUgraphNode *nv = realloc(*v, c * sizeof *nv);
		if (!nv)
			return -1;
		*v = nv;
		*cap = c;
	}
	(*v)[(*n)++] = x;
	return 0;
}

bool cuemu_graph_holds(CUgraphNode const *v, size_t n, CUgraphNode x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

static void pull(CUgraphNode *v, size_t *n, CUgraphNode x)
{
	for (size_t i = 0; i < *n; i++)
		if (v[i] == x) {
			memmove(&v[i], &v[i + 1], (*n - i - 1) * sizeof *v);
			(*n)--;
			return;
		}
}

CUresult cuemu_graph_edge_add(CUgraphNode from, CUgraphNode to)
{
	if (push(&to->deps, &to->ndeps, &to->deps_cap, from) < 0)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph edge");
	if (push(&from->outs, &from->nouts, &from->outs_cap, to) < 0) {
		to->ndeps--;
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph edge");
	}
	return CUDA_SUCCESS;
}

void cuemu_graph_edge_remove(CUgraphNode from, CUgraphNode to)
{
	pull(to->deps, &to->ndeps, from);
	pull(from->outs, &from->nouts, to);
}

/* The dependencies a new node of g is given: each a live node of g, none
 * twice (probes/results/graph.txt: kernel_dup_deps, add_dep_other_graph). */
static CUresult deps_check(CUgraph g, const CUgraphNode *deps, size_t n)
{
	CUresult r;

	if (n && !deps)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%zu dependencies at NULL", n);
	for (size_t i = 0; i < n; i++) {
		if ((r = cuemu_graph_node_check(deps[i])) != CUDA_SUCCESS)
			return r;
		if (deps[i]->graph != g)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "dependency %zu is a node of another "
					  "graph", i);
		if (cuemu_graph_holds(deps, i, deps[i]))
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "dependency %zu is given twice", i);
	}
	return CUDA_SUCCESS;
}

/* ------------------------------------------------------------- nodes */

static void cond_free(CUgraphNode n);

static void params_free(CUgraphNode n)
{
	if (n->type == CU_GRAPH_NODE_TYPE_KERNEL)
		cuemu_gkernel_free(&n->p.k);
	else if (n->type == CU_GRAPH_NODE_TYPE_GRAPH && n->p.child)
		cuemu_graph_free(n->p.child);
	else if (n->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC && n->p.alloc.m)
		cuemu_gmem_unref(n->p.alloc.m);
	else if (n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
		cond_free(n);
}

static void node_free(CUgraphNode n)
{
	params_free(n);
	free(n->deps);
	free(n->outs);
	n->magic = 0;
	free(n);
}

CUresult cuemu_graph_node_new(CUgraph g, const CUgraphNode *deps,
			      size_t ndeps, CUgraphNodeType t,
			      CUgraphNode *out)
{
	CUgraphNode n;
	CUresult r;

	if ((r = deps_check(g, deps, ndeps)) != CUDA_SUCCESS)
		return r;
	if (!(n = calloc(1, sizeof *n)) ||
	    push(&g->nodes, &g->n, &g->cap, n) < 0) {
		free(n);
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph node");
	}
	*n = (struct CUgraphNode_st){ .magic = NODE_MAGIC, .graph = g,
				      .type = t };
	for (size_t i = 0; i < ndeps; i++)
		if ((r = cuemu_graph_edge_add(deps[i], n)) != CUDA_SUCCESS) {
			cuemu_graph_node_drop(n);
			return r;
		}
	*out = n;
	return CUDA_SUCCESS;
}

void cuemu_graph_node_drop(CUgraphNode n)
{
	CUgraph g = n->graph;

	while (n->ndeps)
		cuemu_graph_edge_remove(n->deps[0], n);
	while (n->nouts)
		cuemu_graph_edge_remove(n, n->outs[0]);
	pull(g->nodes, &g->n, n);
	node_free(n);
}

/* ------------------------------------------------------------ kernels */

void cuemu_gkernel_free(struct gkernel *k)
{
	free(k->bytes);
	free(k->args);
	k->bytes = NULL;
	k->args = NULL;
}

CUresult cuemu_gkernel_fill(struct gkernel *k, CUfunction f,
			    const struct ex_kernel_info *ki,
			    const unsigned g[3], const unsigned b[3],
			    unsigned smem, void **params, void **extra)
{
	CUresult r;

	*k = (struct gkernel){ .f = f, .smem = smem, .nbytes = ki->param_bytes,
			       .nargs = ki->nparams };
	memcpy(k->g, g, sizeof k->g);
	memcpy(k->b, b, sizeof k->b);
	k->bytes = calloc(1, ki->param_bytes ? ki->param_bytes : 1);
	k->args = calloc(ki->nparams ? ki->nparams : 1, sizeof *k->args);
	if (!k->bytes || !k->args)
		r = cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "kernel node");
	else
		r = cuemu_launch_args(ki, params, extra, k->bytes);
	if (r != CUDA_SUCCESS) {
		cuemu_gkernel_free(k);
		return r;
	}
	for (uint32_t i = 0; i < ki->nparams; i++)
		k->args[i] = k->bytes + ki->params[i].offset;
	return CUDA_SUCCESS;
}

/* A copy of src: its own bytes, and pointers at the same offsets. */
static CUresult gkernel_copy(struct gkernel *dst, const struct gkernel *src)
{
	size_t n = src->nargs;

	*dst = *src;
	dst->bytes = malloc(src->nbytes ? src->nbytes : 1);
	dst->args = calloc(n ? n : 1, sizeof *dst->args);
	if (!dst->bytes || !dst->args) {
		cuemu_gkernel_free(dst);
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "kernel node");
	}
	memcpy(dst->bytes, src->bytes, src->nbytes);
	for (size_t i = 0; i < n; i++)
		dst->args[i] = dst->bytes +
			       ((uint8_t *)src->args[i] - src->bytes);
	return CUDA_SUCCESS;
}

/* ---------------------------------------------------- copies, memsets */

CUresult cuemu_gcopy_check(const CUDA_MEMCPY3D *c)
{
	if (!c)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "the copy is NULL");
	if (!c->WidthInBytes || !c->Height || !c->Depth)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "a copy node of %zux%zux%zu moves nothing",
				  c->WidthInBytes, c->Height, c->Depth);
	if (c->srcMemoryType < CU_MEMORYTYPE_HOST ||
	    c->srcMemoryType > CU_MEMORYTYPE_UNIFIED ||
	    c->dstMemoryType < CU_MEMORYTYPE_HOST ||
	    c->dstMemoryType > CU_MEMORYTYPE_UNIFIED)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "memory types %d and %d",
				  (int)c->srcMemoryType, (int)c->dstMemoryType);
	return CUDA_SUCCESS;
}

CUresult cuemu_gset_check(const CUDA_MEMSET_NODE_PARAMS *m)
{
	if (!m)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "the memset is NULL");
	if (m->elementSize != 1 && m->elementSize != 2 && m->elementSize != 4)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "elements of %u bytes: 1, 2 or 4",
				  m->elementSize);
	if (!m->width || !m->height)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "a memset node of %zux%zu sets nothing",
				  m->width, m->height);
	if (m->height > 1 && m->pitch < m->width * m->elementSize)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "pitch %zu holds no row of %zu elements",
				  m->pitch, m->width);
	if (m->dst % m->elementSize)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%#llx is not aligned to %u bytes",
				  (unsigned long long)m->dst, m->elementSize);
	return CUDA_SUCCESS;
}

/* ------------------------------------------------------ whole graphs */

CUresult cuemu_graph_new(CUgraph *out)
{
	CUgraph g = calloc(1, sizeof *g);

	if (!g)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph");
	g->magic = GRAPH_MAGIC;
	*out = g;
	return CUDA_SUCCESS;
}

CUresult cuemu_graph_uobj_add(CUgraph g, CUuserObject o, unsigned count)
{
	struct guobj *v;

	for (size_t i = 0; i < g->nuobjs; i++)
		if (g->uobjs[i].o == o) {
			g->uobjs[i].count += count;
			return CUDA_SUCCESS;
		}
	if (!(v = realloc(g->uobjs, (g->nuobjs + 1) * sizeof *v)))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "user object");
	g->uobjs = v;
	g->uobjs[g->nuobjs++] = (struct guobj){ o, count };
	return CUDA_SUCCESS;
}

CUresult cuemu_graph_uobj_drop(CUgraph g, CUuserObject o, unsigned count)
{
	for (size_t i = 0; i < g->nuobjs; i++) {
		struct guobj *u = &g->uobjs[i];
		if (u->o != o)
			continue;
		if (count > u->count)
			break;
		u->count -= count;
		if (!u->count)
			*u = g->uobjs[--g->nuobjs];
		cuemu_uobj_unref(o, count);
		return CUDA_SUCCESS;
	}
	return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "the graph holds fewer "
			  "references to the user object");
}

void cuemu_graph_free(CUgraph g)
{
	for (size_t i = 0; i < g->n; i++)
		node_free(g->nodes[i]);
	for (size_t i = 0; i < g->nuobjs; i++)
		cuemu_uobj_unref(g->uobjs[i].o, g->uobjs[i].count);
	free(g->uobjs);
	free(g->nodes);
	free(g->conds);
	g->magic = 0;
	free(g);
}

/* ------------------------------------------------------ conditionals */

CUgraph cuemu_graph_root(CUgraph g)
{
	while (g->owner)
		g = g->owner->graph;
	return g;
}

CUresult cuemu_graph_cond_handle(CUgraph g, unsigned dflt, bool assign,
				 CUgraphConditionalHandle *out)
{
	CUgraph root = cuemu_graph_root(g);
	struct gcondh *v = realloc(root->conds,
				   (root->nconds + 1) * sizeof *v);

	if (!v)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "conditional handle");
	root->conds = v;
	v[root->nconds++] = (struct gcondh){ .dflt = dflt, .assign = assign };
	*out = root->nconds;
	return CUDA_SUCCESS;
}

/* The handle h of g's numbering, or NULL. */
static struct gcondh *cond_handle(CUgraph g, CUgraphConditionalHandle h)
{
	CUgraph root = cuemu_graph_root(g);

	return h >= 1 && h <= root->nconds ? &root->conds[h - 1] : NULL;
}

/* A conditional node's bodies go with it, and its handle (0 until the
 * node was made) is free again. */
static void cond_free(CUgraphNode n)
{
	struct gcondh *c = n->p.cond.h ? cond_handle(n->graph, n->p.cond.h) :
					 NULL;

	for (unsigned i = 0; n->p.cond.bodies && i < n->p.cond.size; i++)
		if (n->p.cond.bodies[i])
			cuemu_graph_free(n->p.cond.bodies[i]);
	free(n->p.cond.bodies);
	n->p.cond.bodies = NULL;
	if (c)
		c->used = false;
}

/* The bodies a conditional node of type t and size may have: WHILE one,
 * IF one or two (its else), SWITCH one or more. */
static bool cond_size_ok(CUgraphConditionalNodeType t, unsigned size)
{
	switch (t) {
	case CU_GRAPH_COND_TYPE_IF:
		return size == 1 || size == 2;
	case CU_GRAPH_COND_TYPE_WHILE:
		return size == 1;
	case CU_GRAPH_COND_TYPE_SWITCH:
		return size >= 1;
	default:
		return false;
	}
}

/* n's body graphs, empty, each owned by n. */
static CUresult cond_bodies(CUgraphNode n, unsigned size)
{
	CUresult r = CUDA_SUCCESS;

	if (!(n->p.cond.bodies = calloc(size, sizeof *n->p.cond.bodies)))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "conditional node");
	n->p.cond.size = size;
	for (unsigned i = 0; i < size && r == CUDA_SUCCESS; i++)
		if ((r = cuemu_graph_new(&n->p.cond.bodies[i])) == CUDA_SUCCESS)
			n->p.cond.bodies[i]->owner = n;
	return r;
}

/* probes/results/conditional.txt: a size its kind does not take, a kind
 * that is none, handle 0 or one the graph has not made: INVALID_VALUE;
 * no context: INVALID_CONTEXT; a handle another node took:
 * INVALID_VALUE. */
CUresult cuemu_graph_cond_set(CUgraphNode n, CUDA_CONDITIONAL_NODE_PARAMS *p)
{
	struct gcondh *c = cond_handle(n->graph, p->handle);
	CUresult r;

	if (!cond_size_ok(p->type, p->size))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "a conditional node "
				  "of type %d with %u bodies", (int)p->type,
				  p->size);
	if (!c)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "conditional handle "
				  "%llu is none of the graph's",
				  (unsigned long long)p->handle);
	if (!p->ctx)
		return cuemu_fail(CUDA_ERROR_INVALID_CONTEXT, "the conditional "
				  "node's context is NULL");
	if (c->used)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "conditional handle "
				  "%llu is another node's",
				  (unsigned long long)p->handle);
	n->p.cond.type = p->type;
	n->p.cond.ctx = p->ctx;
	if ((r = cond_bodies(n, p->size)) != CUDA_SUCCESS)
		return r;
	n->p.cond.h = p->handle;
	c->used = true;
	p->phGraph_out = n->p.cond.bodies;
	return CUDA_SUCCESS;
}

bool cuemu_graph_has_cond(CUgraph g)
{
	for (size_t i = 0; i < g->n; i++)
		if (g->nodes[i]->type == CU_GRAPH_NODE_TYPE_CONDITIONAL ||
		    (g->nodes[i]->type == CU_GRAPH_NODE_TYPE_GRAPH &&
		     cuemu_graph_has_cond(g->nodes[i]->p.child)))
			return true;
	return false;
}

/* c's bodies, copies of n's, owned by c. */
static CUresult cond_copy(CUgraphNode c, CUgraphNode n)
{
	CUresult r = CUDA_SUCCESS;
	unsigned size = n->p.cond.size;

	if (!(c->p.cond.bodies = calloc(size, sizeof *c->p.cond.bodies)))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "conditional node");
	for (unsigned i = 0; i < size && r == CUDA_SUCCESS; i++)
		if ((r = cuemu_graph_clone(n->p.cond.bodies[i],
					   &c->p.cond.bodies[i])) == CUDA_SUCCESS)
			c->p.cond.bodies[i]->owner = c;
	if (r != CUDA_SUCCESS) {
		for (unsigned i = 0; i < size; i++)
			if (c->p.cond.bodies[i])
				cuemu_graph_free(c->p.cond.bodies[i]);
		free(c->p.cond.bodies);
		c->p.cond.bodies = NULL;
	}
	return r;
}

/* A copy of n's parameters into c (a node of another graph). */
static CUresult params_copy(CUgraphNode c, CUgraphNode n)
{
	c->p = n->p;
	if (n->type == CU_GRAPH_NODE_TYPE_KERNEL)
		return gkernel_copy(&c->p.k, &n->p.k);
	if (n->type == CU_GRAPH_NODE_TYPE_GRAPH)
		return cuemu_graph_clone(n->p.child, &c->p.child);
	if (n->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC)
		cuemu_gmem_ref(n->p.alloc.m);
	if (n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
		return cond_copy(c, n);
	return CUDA_SUCCESS;
}

void cuemu_graph_number(CUgraph g)
{
	for (size_t i = 0; i < g->n; i++)
		g->nodes[i]->at = i;
}

CUresult cuemu_graph_clone(CUgraph g, CUgraph *out)
{
	CUgraph c = NULL;
	CUresult r;

	if ((r = cuemu_graph_new(&c)) != CUDA_SUCCESS)
		return r;
	c->origin = g;
	if (g->nconds && !(c->conds = malloc(g->nconds * sizeof *c->conds)))
		r = cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph");
	else if (g->nconds) {
		memcpy(c->conds, g->conds, g->nconds * sizeof *c->conds);
		c->nconds = g->nconds;
	}
	for (size_t i = 0; i < g->n && r == CUDA_SUCCESS; i++) {
		CUgraphNode n = g->nodes[i], m;
		if ((r = cuemu_graph_node_new(c, NULL, 0, n->type, &m)) !=
		    CUDA_SUCCESS)
			break;
		m->origin = n;
		if ((r = params_copy(m, n)) != CUDA_SUCCESS) {
			m->type = CU_GRAPH_NODE_TYPE_EMPTY;
			break;
		}
	}
	/* the edges, by the nodes' places in the original */
	cuemu_graph_number(g);
	for (size_t i = 0; i < g->n && r == CUDA_SUCCESS; i++)
		for (size_t d = 0; d < g->nodes[i]->ndeps && !r; d++)
			r = cuemu_graph_edge_add(c->nodes[g->nodes[i]->deps[d]->at],
				     c->nodes[i]);
	/* a clone holds the user objects its original holds */
	for (size_t i = 0; i < g->nuobjs && r == CUDA_SUCCESS; i++)
		if ((r = cuemu_graph_uobj_add(c, g->uobjs[i].o,
					      g->uobjs[i].count)) ==
		    CUDA_SUCCESS)
			cuemu_uobj_ref(g->uobjs[i].o, g->uobjs[i].count);
	if (r != CUDA_SUCCESS) {
		cuemu_graph_free(c);
		return r;
	}
	*out = c;
	return CUDA_SUCCESS;
}


/* Whether b has a's shape: as many nodes, in order of the same kinds and
 * the same edges, child graphs alike. */
static bool same_shape(CUgraph a, CUgraph b, int depth)
{
	if (a->n != b->n || depth > 64)
		return false;
	cuemu_graph_number(a);
	cuemu_graph_number(b);
	for (size_t i = 0; i < a->n; i++) {
		CUgraphNode x = a->nodes[i], y = b->nodes[i];
		if (x->type != y->type || x->ndeps != y->ndeps)
			return false;
		for (size_t d = 0; d < x->ndeps; d++)
			if (x->deps[d]->at != y->deps[d]->at)
				return false;
	}
	for (size_t i = 0; i < a->n; i++) {
		CUgraphNode x = a->nodes[i], y = b->nodes[i];
		if (x->type == CU_GRAPH_NODE_TYPE_GRAPH &&
		    !same_shape(x->p.child, y->p.child, depth + 1))
			return false;
		if (x->type != CU_GRAPH_NODE_TYPE_CONDITIONAL)
			continue;
		if (x->p.cond.type != y->p.cond.type ||
		    x->p.cond.size != y->p.cond.size ||
		    x->p.cond.h != y->p.cond.h)
			return false;
		for (unsigned k = 0; k < x->p.cond.size; k++)
			if (!same_shape(x->p.cond.bodies[k], y->p.cond.bodies[k],
					depth + 1))
				return false;
	}
	return true;
}

/* b's parameters into a's nodes, which stay (what points at them, an
 * executable graph's plan, keeps pointing). */
static CUresult update_nodes(CUgraph a, CUgraph b)
{
	CUresult r = CUDA_SUCCESS;

	for (size_t i = 0; i < a->n && r == CUDA_SUCCESS; i++) {
		CUgraphNode x = a->nodes[i], y = b->nodes[i];
		if (x->type == CU_GRAPH_NODE_TYPE_GRAPH) {
			r = update_nodes(x->p.child, y->p.child);
			continue;
		}
		if (x->type == CU_GRAPH_NODE_TYPE_CONDITIONAL) {
			for (unsigned k = 0; k < x->p.cond.size && !r; k++)
				r = update_nodes(x->p.cond.bodies[k],
						 y->p.cond.bodies[k]);
			continue;
		}
		params_free(x);
		if ((r = params_copy(x, y)) != CUDA_SUCCESS)
			x->type = CU_GRAPH_NODE_TYPE_EMPTY;
	}
	return r;
}

CUresult cuemu_graph_update(CUgraph a, CUgraph b)
{
	if (!same_shape(a, b, 0))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "the graph's shape "
				  "differs: nodes, their kinds and edges, in "
				  "the order they were added");
	return update_nodes(a, b);
}
