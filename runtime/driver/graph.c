/*
 * graph.c - graphs and their nodes: cuGraphCreate, Destroy, Clone,
 * NodeFindInClone, the cuGraphAdd*Node calls for kernels, copies,
 * memsets, host functions, child graphs, empty nodes and event record and
 * wait nodes, each kind's Get/SetParams, the edges (AddDependencies,
 * RemoveDependencies, GetEdges, NodeGetDependencies, GetDependentNodes),
 * GetNodes, GetRootNodes, NodeGetType and DestroyNode.
 *
 * Each call checks what the real driver checks, in its order
 * (probes/graph.cu, results/graph.txt): a NULL graph, node or output is
 * INVALID_VALUE; a dependency of another graph, a repeated one or an
 * edge already there INVALID_VALUE; a cycle is taken here and refused by
 * the instantiation (graphexec.c). A kernel node copies its arguments
 * when it is added (a later change of the program's variables does not
 * reach it); a child graph node holds a copy of the graph it was given.
 *
 * Handles are checked by a magic word: a graph is the program's to keep
 * alive and to serialize, as CUDA asks; nothing here is shared between
 * graphs, so there is no lock.
 */
#define CUEMU_SUPERSEDED_ENTRY_POINTS 1
#define CUEMU_PER_THREAD_ENTRY_POINTS 1
#include "driver/graph.h"
#include "model/module.h"
#include "model/stream.h"

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

static bool holds(CUgraphNode const *v, size_t n, CUgraphNode x)
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

static CUresult edge_add(CUgraphNode from, CUgraphNode to)
{
	if (push(&to->deps, &to->ndeps, &to->deps_cap, from) < 0)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph edge");
	if (push(&from->outs, &from->nouts, &from->outs_cap, to) < 0) {
		to->ndeps--;
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph edge");
	}
	return CUDA_SUCCESS;
}

static void edge_remove(CUgraphNode from, CUgraphNode to)
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
		if (holds(deps, i, deps[i]))
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "dependency %zu is given twice", i);
	}
	return CUDA_SUCCESS;
}

/* ------------------------------------------------------------- nodes */

static void params_free(CUgraphNode n)
{
	if (n->type == CU_GRAPH_NODE_TYPE_KERNEL)
		cuemu_gkernel_free(&n->p.k);
	else if (n->type == CU_GRAPH_NODE_TYPE_GRAPH && n->p.child)
		cuemu_graph_free(n->p.child);
	else if (n->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC && n->p.alloc.m)
		cuemu_gmem_unref(n->p.alloc.m);
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
		if ((r = edge_add(deps[i], n)) != CUDA_SUCCESS) {
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
		edge_remove(n->deps[0], n);
	while (n->nouts)
		edge_remove(n, n->outs[0]);
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

/* The function a node names, in the current context: f, or the context's
 * function of kern where f is NULL. */
static CUresult gkernel_function(const CUDA_KERNEL_NODE_PARAMS *p,
				 CUfunction *f)
{
	CUfunction named = p->func ? p->func : (CUfunction)p->kern;

	if (!named)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "the kernel node names no function");
	return cuemu_function_resolve(named, f);
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

CUresult cuemu_gkernel_set(struct gkernel *k, const CUDA_KERNEL_NODE_PARAMS *p)
{
	const unsigned g[3] = { p->gridDimX, p->gridDimY, p->gridDimZ };
	const unsigned b[3] = { p->blockDimX, p->blockDimY, p->blockDimZ };
	const struct ex_kernel_info *ki;
	struct gkernel nk;
	CUfunction f;
	CUcontext ctx;
	CUresult r;

	if ((r = gkernel_function(p, &f)) != CUDA_SUCCESS ||
	    (r = cuemu_launch_shape_check(f, g, b, p->sharedMemBytes,
					  &ki)) != CUDA_SUCCESS ||
	    (r = cuemu_current(&ctx, NULL)) != CUDA_SUCCESS ||
	    (r = cuemu_gkernel_fill(&nk, f, ki, g, b, p->sharedMemBytes,
				    p->kernelParams, p->extra)))
		return r;
	nk.ctx = ctx;
	nk.kern = p->func ? NULL : p->kern;
	cuemu_gkernel_free(k);
	*k = nk;
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

static CUresult graph_new(CUgraph *out)
{
	CUgraph g = calloc(1, sizeof *g);

	if (!g)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph");
	g->magic = GRAPH_MAGIC;
	*out = g;
	return CUDA_SUCCESS;
}

void cuemu_graph_free(CUgraph g)
{
	for (size_t i = 0; i < g->n; i++)
		node_free(g->nodes[i]);
	free(g->nodes);
	g->magic = 0;
	free(g);
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

	if ((r = graph_new(&c)) != CUDA_SUCCESS)
		return r;
	c->origin = g;
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
			r = edge_add(c->nodes[g->nodes[i]->deps[d]->at],
				     c->nodes[i]);
	if (r != CUDA_SUCCESS) {
		cuemu_graph_free(c);
		return r;
	}
	*out = c;
	return CUDA_SUCCESS;
}

/* ------------------------------------------------------------ entries */

CUresult cuGraphCreate(CUgraph *phGraph, unsigned int flags)
{
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)) != CUDA_SUCCESS)
		return r;
	if (!phGraph || flags)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s",
				  !phGraph ? "phGraph is NULL" :
				  "graph flags must be 0");
	return graph_new(phGraph);
}

CUresult cuGraphDestroy(CUgraph hGraph)
{
	CUresult r;

	if ((r = cuemu_graph_check(hGraph)) != CUDA_SUCCESS)
		return r;
	cuemu_graph_free(hGraph);
	return CUDA_SUCCESS;
}

CUresult cuGraphClone(CUgraph *phGraphClone, CUgraph originalGraph)
{
	CUresult r;

	if (!phGraphClone)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "phGraphClone is NULL");
	if ((r = cuemu_graph_check(originalGraph)) != CUDA_SUCCESS)
		return r;
	return cuemu_graph_clone(originalGraph, phGraphClone);
}

CUresult cuGraphNodeFindInClone(CUgraphNode *phNode, CUgraphNode hOriginalNode,
				CUgraph hClonedGraph)
{
	CUresult r;

	if (!phNode)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "phNode is NULL");
	if ((r = cuemu_graph_node_check(hOriginalNode)) != CUDA_SUCCESS ||
	    (r = cuemu_graph_check(hClonedGraph)) != CUDA_SUCCESS)
		return r;
	for (size_t i = 0; i < hClonedGraph->n; i++)
		if (hClonedGraph->nodes[i]->origin == hOriginalNode) {
			*phNode = hClonedGraph->nodes[i];
			return CUDA_SUCCESS;
		}
	return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			  "the node has no clone in that graph");
}

/* The checks every cuGraphAdd*Node starts with. */
static CUresult add_check(CUgraphNode *out, CUgraph g)
{
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)) != CUDA_SUCCESS)
		return r;
	if (!out)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "phGraphNode is NULL");
	return cuemu_graph_check(g);
}

/* A node of type t whose parameters set() fills; dropped where it
 * refuses them. */
static CUresult add_node(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
			 size_t n, CUgraphNodeType t,
			 CUresult (*set)(CUgraphNode, const void *),
			 const void *params)
{
	CUgraphNode node;
	CUresult r;

	if ((r = add_check(out, g)) != CUDA_SUCCESS ||
	    (r = cuemu_graph_node_new(g, deps, n, t, &node)) != CUDA_SUCCESS)
		return r;
	if (set && (r = set(node, params)) != CUDA_SUCCESS) {
		cuemu_graph_node_drop(node);
		return r;
	}
	*out = node;
	return CUDA_SUCCESS;
}

static CUresult set_kernel(CUgraphNode n, const void *p)
{
	if (!p)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "nodeParams is NULL");
	return cuemu_gkernel_set(&n->p.k, p);
}

CUresult cuGraphAddKernelNode_v2(CUgraphNode *phGraphNode, CUgraph hGraph,
				 const CUgraphNode *dependencies,
				 size_t numDependencies,
				 const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
	return add_node(phGraphNode, hGraph, dependencies, numDependencies,
			CU_GRAPH_NODE_TYPE_KERNEL, set_kernel, nodeParams);
}

/* The superseded entry: the same layout without its last two fields. */
CUresult cuGraphAddKernelNode(CUgraphNode *phGraphNode, CUgraph hGraph,
			      const CUgraphNode *dependencies,
			      size_t numDependencies,
			      const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
	CUDA_KERNEL_NODE_PARAMS p = { 0 };

	if (nodeParams)
		memcpy(&p, nodeParams, sizeof *nodeParams);
	return cuGraphAddKernelNode_v2(phGraphNode, hGraph, dependencies,
				       numDependencies,
				       nodeParams ? &p : NULL);
}

struct ctx_params {
	const void *params;
	CUcontext ctx;
};

static CUresult set_copy(CUgraphNode n, const void *arg)
{
	const struct ctx_params *cp = arg;
	CUresult r;

	if ((r = cuemu_gcopy_check(cp->params)) != CUDA_SUCCESS)
		return r;
	n->p.copy.c = *(const CUDA_MEMCPY3D *)cp->params;
	n->p.copy.ctx = cp->ctx;
	return CUDA_SUCCESS;
}

CUresult cuGraphAddMemcpyNode(CUgraphNode *phGraphNode, CUgraph hGraph,
			      const CUgraphNode *dependencies,
			      size_t numDependencies,
			      const CUDA_MEMCPY3D *copyParams, CUcontext ctx)
{
	struct ctx_params cp = { copyParams, ctx };

	return add_node(phGraphNode, hGraph, dependencies, numDependencies,
			CU_GRAPH_NODE_TYPE_MEMCPY, set_copy, &cp);
}

static CUresult set_memset(CUgraphNode n, const void *arg)
{
	const struct ctx_params *cp = arg;
	CUresult r;

	if ((r = cuemu_gset_check(cp->params)) != CUDA_SUCCESS)
		return r;
	n->p.set.m = *(const CUDA_MEMSET_NODE_PARAMS *)cp->params;
	n->p.set.ctx = cp->ctx;
	return CUDA_SUCCESS;
}

CUresult cuGraphAddMemsetNode(CUgraphNode *phGraphNode, CUgraph hGraph,
			      const CUgraphNode *dependencies,
			      size_t numDependencies,
			      const CUDA_MEMSET_NODE_PARAMS *memsetParams,
			      CUcontext ctx)
{
	struct ctx_params cp = { memsetParams, ctx };

	return add_node(phGraphNode, hGraph, dependencies, numDependencies,
			CU_GRAPH_NODE_TYPE_MEMSET, set_memset, &cp);
}

static CUresult set_host(CUgraphNode n, const void *arg)
{
	const CUDA_HOST_NODE_PARAMS *h = arg;

	if (!h || !h->fn)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s",
				  h ? "the host node's function is NULL" :
				  "nodeParams is NULL");
	n->p.host = *h;
	return CUDA_SUCCESS;
}

CUresult cuGraphAddHostNode(CUgraphNode *phGraphNode, CUgraph hGraph,
			    const CUgraphNode *dependencies,
			    size_t numDependencies,
			    const CUDA_HOST_NODE_PARAMS *nodeParams)
{
	return add_node(phGraphNode, hGraph, dependencies, numDependencies,
			CU_GRAPH_NODE_TYPE_HOST, set_host, nodeParams);
}

static CUresult set_child(CUgraphNode n, const void *arg)
{
	CUgraph child = (CUgraph)arg;
	CUresult r;

	if ((r = cuemu_graph_check(child)) != CUDA_SUCCESS)
		return r;
	return cuemu_graph_clone(child, &n->p.child);
}

CUresult cuGraphAddChildGraphNode(CUgraphNode *phGraphNode, CUgraph hGraph,
				  const CUgraphNode *dependencies,
				  size_t numDependencies, CUgraph childGraph)
{
	return add_node(phGraphNode, hGraph, dependencies, numDependencies,
			CU_GRAPH_NODE_TYPE_GRAPH, set_child, childGraph);
}

CUresult cuGraphAddEmptyNode(CUgraphNode *phGraphNode, CUgraph hGraph,
			     const CUgraphNode *dependencies,
			     size_t numDependencies)
{
	return add_node(phGraphNode, hGraph, dependencies, numDependencies,
			CU_GRAPH_NODE_TYPE_EMPTY, NULL, NULL);
}

static CUresult set_event(CUgraphNode n, const void *arg)
{
	CUevent e = (CUevent)arg;
	CUresult r;

	CUcontext ctx;

	if (!e)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "the event is NULL");
	if ((r = cuemu_current(&ctx, NULL)) != CUDA_SUCCESS ||
	    (r = cuemu_event_check_ctx(e, ctx)) != CUDA_SUCCESS)
		return r;
	n->p.event = e;
	return CUDA_SUCCESS;
}

CUresult cuGraphAddEventRecordNode(CUgraphNode *phGraphNode, CUgraph hGraph,
				   const CUgraphNode *dependencies,
				   size_t numDependencies, CUevent event)
{
	return add_node(phGraphNode, hGraph, dependencies, numDependencies,
			CU_GRAPH_NODE_TYPE_EVENT_RECORD, set_event, event);
}

CUresult cuGraphAddEventWaitNode(CUgraphNode *phGraphNode, CUgraph hGraph,
				 const CUgraphNode *dependencies,
				 size_t numDependencies, CUevent event)
{
	return add_node(phGraphNode, hGraph, dependencies, numDependencies,
			CU_GRAPH_NODE_TYPE_WAIT_EVENT, set_event, event);
}

/* ---------------------------------------------- each kind's parameters */

static CUresult typed(CUgraphNode n, CUgraphNodeType t, const void *out)
{
	CUresult r;

	if ((r = cuemu_graph_node_check(n)) != CUDA_SUCCESS)
		return r;
	if (!out)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "the parameters are NULL");
	if (n->type != t)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "a node of type %d, not %d", (int)n->type,
				  (int)t);
	return CUDA_SUCCESS;
}

CUresult cuGraphKernelNodeGetParams_v2(CUgraphNode hNode,
				       CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
	CUresult r = typed(hNode, CU_GRAPH_NODE_TYPE_KERNEL, nodeParams);
	const struct gkernel *k = &hNode->p.k;

	if (r != CUDA_SUCCESS)
		return r;
	*nodeParams = (CUDA_KERNEL_NODE_PARAMS){
		.func = k->f, .gridDimX = k->g[0], .gridDimY = k->g[1],
		.gridDimZ = k->g[2], .blockDimX = k->b[0],
		.blockDimY = k->b[1], .blockDimZ = k->b[2],
		.sharedMemBytes = k->smem, .kernelParams = k->args,
		.kern = k->kern, .ctx = k->ctx,
	};
	return CUDA_SUCCESS;
}

CUresult cuGraphKernelNodeSetParams_v2(CUgraphNode hNode,
				       const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
	CUresult r = typed(hNode, CU_GRAPH_NODE_TYPE_KERNEL, nodeParams);

	return r ? r : cuemu_gkernel_set(&hNode->p.k, nodeParams);
}

CUresult cuGraphMemcpyNodeGetParams(CUgraphNode hNode,
				    CUDA_MEMCPY3D *nodeParams)
{
	CUresult r = typed(hNode, CU_GRAPH_NODE_TYPE_MEMCPY, nodeParams);

	if (r == CUDA_SUCCESS)
		*nodeParams = hNode->p.copy.c;
	return r;
}

CUresult cuGraphMemcpyNodeSetParams(CUgraphNode hNode,
				    const CUDA_MEMCPY3D *nodeParams)
{
	CUresult r = typed(hNode, CU_GRAPH_NODE_TYPE_MEMCPY, nodeParams);

	if (r == CUDA_SUCCESS && !(r = cuemu_gcopy_check(nodeParams)))
		hNode->p.copy.c = *nodeParams;
	return r;
}

CUresult cuGraphMemsetNodeGetParams(CUgraphNode hNode,
				    CUDA_MEMSET_NODE_PARAMS *nodeParams)
{
	CUresult r = typed(hNode, CU_GRAPH_NODE_TYPE_MEMSET, nodeParams);

	if (r == CUDA_SUCCESS)
		*nodeParams = hNode->p.set.m;
	return r;
}

CUresult cuGraphMemsetNodeSetParams(CUgraphNode hNode,
				    const CUDA_MEMSET_NODE_PARAMS *nodeParams)
{
	CUresult r = typed(hNode, CU_GRAPH_NODE_TYPE_MEMSET, nodeParams);

	if (r == CUDA_SUCCESS && !(r = cuemu_gset_check(nodeParams)))
		hNode->p.set.m = *nodeParams;
	return r;
}

CUresult cuGraphHostNodeGetParams(CUgraphNode hNode,
				  CUDA_HOST_NODE_PARAMS *nodeParams)
{
	CUresult r = typed(hNode, CU_GRAPH_NODE_TYPE_HOST, nodeParams);

	if (r == CUDA_SUCCESS)
		*nodeParams = hNode->p.host;
	return r;
}

CUresult cuGraphHostNodeSetParams(CUgraphNode hNode,
				  const CUDA_HOST_NODE_PARAMS *nodeParams)
{
	CUresult r = typed(hNode, CU_GRAPH_NODE_TYPE_HOST, nodeParams);

	return r ? r : set_host(hNode, nodeParams);
}

CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode hNode, CUgraph *phGraph)
{
	CUresult r = typed(hNode, CU_GRAPH_NODE_TYPE_GRAPH, phGraph);

	if (r == CUDA_SUCCESS)
		*phGraph = hNode->p.child;
	return r;
}

CUresult cuGraphEventRecordNodeGetEvent(CUgraphNode hNode, CUevent *event_out)
{
	CUresult r = typed(hNode, CU_GRAPH_NODE_TYPE_EVENT_RECORD, event_out);

	if (r == CUDA_SUCCESS)
		*event_out = hNode->p.event;
	return r;
}

CUresult cuGraphEventWaitNodeGetEvent(CUgraphNode hNode, CUevent *event_out)
{
	CUresult r = typed(hNode, CU_GRAPH_NODE_TYPE_WAIT_EVENT, event_out);

	if (r == CUDA_SUCCESS)
		*event_out = hNode->p.event;
	return r;
}

/* --------------------------------------------------- the graph's shape */

/* Answers a list as the driver does: with an array, up to *n of them and
 * *n set to how many were written; without, *n set to how many there are. */
static void answer(CUgraphNode *out, size_t *n, CUgraphNode const *v,
		   size_t count)
{
	if (out) {
		size_t k = count < *n ? count : *n;
		memcpy(out, v, k * sizeof *v);
		for (size_t i = k; i < *n; i++)
			out[i] = NULL;
		*n = k;
	} else {
		*n = count;
	}
}

/* Zeroed edge data for the edges answered (every edge here is a
 * default one). */
static void no_edge_data(CUgraphEdgeData *d, size_t n)
{
	if (d)
		memset(d, 0, n * sizeof *d);
}

CUresult cuGraphGetNodes(CUgraph hGraph, CUgraphNode *nodes, size_t *numNodes)
{
	CUresult r;

	if ((r = cuemu_graph_check(hGraph)) != CUDA_SUCCESS)
		return r;
	if (!numNodes)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "numNodes is NULL");
	answer(nodes, numNodes, hGraph->nodes, hGraph->n);
	return CUDA_SUCCESS;
}

CUresult cuGraphGetRootNodes(CUgraph hGraph, CUgraphNode *rootNodes,
			     size_t *numRootNodes)
{
	CUgraphNode *roots;
	size_t n = 0;
	CUresult r;

	if ((r = cuemu_graph_check(hGraph)) != CUDA_SUCCESS)
		return r;
	if (!numRootNodes)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "numRootNodes is NULL");
	if (!(roots = malloc((hGraph->n ? hGraph->n : 1) * sizeof *roots)))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "root nodes");
	for (size_t i = 0; i < hGraph->n; i++)
		if (!hGraph->nodes[i]->ndeps)
			roots[n++] = hGraph->nodes[i];
	answer(rootNodes, numRootNodes, roots, n);
	free(roots);
	return CUDA_SUCCESS;
}

CUresult cuGraphGetEdges_v2(CUgraph hGraph, CUgraphNode *from, CUgraphNode *to,
			    CUgraphEdgeData *edgeData, size_t *numEdges)
{
	size_t n = 0, k = 0;
	CUresult r;

	if ((r = cuemu_graph_check(hGraph)) != CUDA_SUCCESS)
		return r;
	if (!numEdges || (!from) != (!to))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s",
				  !numEdges ? "numEdges is NULL" :
				  "from and to must both be given");
	for (size_t i = 0; i < hGraph->n; i++)
		n += hGraph->nodes[i]->ndeps;
	if (!from) {
		*numEdges = n;
		return CUDA_SUCCESS;
	}
	for (size_t i = 0; i < hGraph->n; i++) {
		CUgraphNode t = hGraph->nodes[i];
		for (size_t d = 0; d < t->ndeps && k < *numEdges; d++, k++) {
			from[k] = t->deps[d];
			to[k] = t;
		}
	}
	no_edge_data(edgeData, k);
	for (size_t i = k; i < *numEdges; i++)
		from[i] = to[i] = NULL;
	*numEdges = k;
	return CUDA_SUCCESS;
}

CUresult cuGraphGetEdges(CUgraph hGraph, CUgraphNode *from, CUgraphNode *to,
			 size_t *numEdges)
{
	return cuGraphGetEdges_v2(hGraph, from, to, NULL, numEdges);
}

CUresult cuGraphNodeGetType(CUgraphNode hNode, CUgraphNodeType *type)
{
	CUresult r;

	if ((r = cuemu_graph_node_check(hNode)) != CUDA_SUCCESS)
		return r;
	if (!type)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "type is NULL");
	*type = hNode->type;
	return CUDA_SUCCESS;
}

CUresult cuGraphNodeGetDependencies_v2(CUgraphNode hNode,
				       CUgraphNode *dependencies,
				       CUgraphEdgeData *edgeData,
				       size_t *numDependencies)
{
	CUresult r;

	if ((r = cuemu_graph_node_check(hNode)) != CUDA_SUCCESS)
		return r;
	if (!numDependencies)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "numDependencies is NULL");
	answer(dependencies, numDependencies, hNode->deps, hNode->ndeps);
	if (dependencies)
		no_edge_data(edgeData, *numDependencies);
	return CUDA_SUCCESS;
}

CUresult cuGraphNodeGetDependencies(CUgraphNode hNode,
				    CUgraphNode *dependencies,
				    size_t *numDependencies)
{
	return cuGraphNodeGetDependencies_v2(hNode, dependencies, NULL,
					     numDependencies);
}

CUresult cuGraphNodeGetDependentNodes_v2(CUgraphNode hNode,
					 CUgraphNode *dependentNodes,
					 CUgraphEdgeData *edgeData,
					 size_t *numDependentNodes)
{
	CUresult r;

	if ((r = cuemu_graph_node_check(hNode)) != CUDA_SUCCESS)
		return r;
	if (!numDependentNodes)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "numDependentNodes is NULL");
	answer(dependentNodes, numDependentNodes, hNode->outs, hNode->nouts);
	if (dependentNodes)
		no_edge_data(edgeData, *numDependentNodes);
	return CUDA_SUCCESS;
}

CUresult cuGraphNodeGetDependentNodes(CUgraphNode hNode,
				      CUgraphNode *dependentNodes,
				      size_t *numDependentNodes)
{
	return cuGraphNodeGetDependentNodes_v2(hNode, dependentNodes, NULL,
					       numDependentNodes);
}

/* Each pair's nodes live in g, not the same node; edge data, where
 * given, only the default kind. */
static CUresult pairs_check(CUgraph g, const CUgraphNode *from,
			    const CUgraphNode *to, const CUgraphEdgeData *d,
			    size_t n)
{
	CUresult r;

	if ((r = cuemu_graph_check(g)) != CUDA_SUCCESS)
		return r;
	if (n && (!from || !to))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%zu edges at NULL", n);
	for (size_t i = 0; i < n; i++) {
		if ((r = cuemu_graph_node_check(from[i])) != CUDA_SUCCESS ||
		    (r = cuemu_graph_node_check(to[i])) != CUDA_SUCCESS)
			return r;
		if (from[i]->graph != g || to[i]->graph != g)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "edge %zu joins a node of another "
					  "graph", i);
		if (from[i] == to[i])
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "edge %zu joins a node to itself",
					  i);
		if (d && (d[i].type || d[i].from_port || d[i].to_port))
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "edge %zu: only default edges", i);
	}
	return CUDA_SUCCESS;
}

CUresult cuGraphAddDependencies_v2(CUgraph hGraph, const CUgraphNode *from,
				   const CUgraphNode *to,
				   const CUgraphEdgeData *edgeData,
				   size_t numDependencies)
{
	CUresult r;

	if ((r = pairs_check(hGraph, from, to, edgeData, numDependencies)))
		return r;
	for (size_t i = 0; i < numDependencies; i++)
		if (holds(to[i]->deps, to[i]->ndeps, from[i]))
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "edge %zu is there already", i);
	for (size_t i = 0; i < numDependencies; i++)
		if ((r = edge_add(from[i], to[i])) != CUDA_SUCCESS) {
			while (i--)
				edge_remove(from[i], to[i]);
			return r;
		}
	return CUDA_SUCCESS;
}

CUresult cuGraphAddDependencies(CUgraph hGraph, const CUgraphNode *from,
				const CUgraphNode *to, size_t numDependencies)
{
	return cuGraphAddDependencies_v2(hGraph, from, to, NULL,
					 numDependencies);
}

CUresult cuGraphRemoveDependencies_v2(CUgraph hGraph, const CUgraphNode *from,
				      const CUgraphNode *to,
				      const CUgraphEdgeData *edgeData,
				      size_t numDependencies)
{
	CUresult r;

	if ((r = pairs_check(hGraph, from, to, edgeData, numDependencies)))
		return r;
	for (size_t i = 0; i < numDependencies; i++)
		if (!holds(to[i]->deps, to[i]->ndeps, from[i]))
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "edge %zu is not there", i);
	for (size_t i = 0; i < numDependencies; i++)
		edge_remove(from[i], to[i]);
	return CUDA_SUCCESS;
}

CUresult cuGraphRemoveDependencies(CUgraph hGraph, const CUgraphNode *from,
				   const CUgraphNode *to,
				   size_t numDependencies)
{
	return cuGraphRemoveDependencies_v2(hGraph, from, to, NULL,
					    numDependencies);
}

CUresult cuGraphDestroyNode(CUgraphNode hNode)
{
	CUresult r;

	if ((r = cuemu_graph_node_check(hNode)) != CUDA_SUCCESS)
		return r;
	cuemu_graph_node_drop(hNode);
	return CUDA_SUCCESS;
}
