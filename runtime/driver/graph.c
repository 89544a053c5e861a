/*
 * graph.c - graphs and their nodes: cuGraphCreate, Destroy, Clone,
 * NodeFindInClone, the cuGraphAdd*Node calls for kernels, copies,
 * memsets, host functions, child graphs, empty nodes and event record and
 * wait nodes, and memory allocation and free nodes, each kind's
 * Get/SetParams, the edges (AddDependencies, RemoveDependencies, GetEdges,
 * NodeGetDependencies, GetDependentNodes), GetNodes, GetRootNodes,
 * NodeGetType and DestroyNode; a device's graph memory
 * (cuDeviceGetGraphMemAttribute, Set, Trim: gmem.c's figures). The objects
 * are graphnode.c's.
 *
 * Each call checks what the real driver checks, in its order
 * (probes/graph.cu, results/graph.txt): a NULL graph, node or output is
 * INVALID_VALUE; a dependency of another graph, a repeated one or an
 * edge already there INVALID_VALUE; a cycle is taken here and refused by
 * the instantiation (graphexec.c). A kernel node copies its arguments
 * when it is added (a later change of the program's variables does not
 * reach it); a child graph node holds a copy of the graph it was given.
 *
 * No state of its own (graphnode.c's objects, gmem.c's memory).
 */
#define CUEMU_SUPERSEDED_ENTRY_POINTS 1
#define CUEMU_PER_THREAD_ENTRY_POINTS 1
#include "driver/graph.h"
#include "model/module.h"
#include "model/stream.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------- kernel nodes */

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
	/* its attributes stay the node's */
	memcpy(nk.attrs, k->attrs, sizeof nk.attrs);
	nk.nattrs = k->nattrs;
	nk.cooperative = k->cooperative;
	cuemu_gkernel_free(k);
	*k = nk;
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
	return cuemu_graph_new(phGraph);
}

CUresult cuGraphDestroy(CUgraph hGraph)
{
	CUresult r;

	if ((r = cuemu_graph_check(hGraph)) != CUDA_SUCCESS)
		return r;
	if (hGraph->owner)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "the graph is a "
				  "conditional node's body: it goes with the "
				  "node");
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
	/* probes/results/conditional.txt */
	if (cuemu_graph_has_cond(originalGraph))
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED, "a graph with "
				  "conditional nodes is not cloned");
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
	/* its copy would number its handles apart from n's graph's */
	if (cuemu_graph_has_cond(child))
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED, "a graph with "
				  "conditional nodes is not copied into a "
				  "child graph node");
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

CUresult cuGraphEventRecordNodeSetEvent(CUgraphNode hNode, CUevent event)
{
	CUresult r = typed(hNode, CU_GRAPH_NODE_TYPE_EVENT_RECORD, &event);

	return r ? r : set_event(hNode, event);
}

CUresult cuGraphEventWaitNodeSetEvent(CUgraphNode hNode, CUevent event)
{
	CUresult r = typed(hNode, CU_GRAPH_NODE_TYPE_WAIT_EVENT, &event);

	return r ? r : set_event(hNode, event);
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
		if (cuemu_graph_holds(to[i]->deps, to[i]->ndeps, from[i]))
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "edge %zu is there already", i);
	for (size_t i = 0; i < numDependencies; i++)
		if ((r = cuemu_graph_edge_add(from[i], to[i])) != CUDA_SUCCESS) {
			while (i--)
				cuemu_graph_edge_remove(from[i], to[i]);
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
		if (!cuemu_graph_holds(to[i]->deps, to[i]->ndeps, from[i]))
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "edge %zu is not there", i);
	for (size_t i = 0; i < numDependencies; i++)
		cuemu_graph_edge_remove(from[i], to[i]);
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

/* ------------------------------------------------------ memory nodes */

/* An allocation node's pool: pinned memory of a device of the machine,
 * no handle to share it by (probes/results/graph.txt's captures make
 * such nodes; the device's graph pool has these properties). */
static CUresult props_check(const CUDA_MEM_ALLOC_NODE_PARAMS *p, int *dev)
{
	int n = 0;
	CUresult r;

	if (p->poolProps.allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
	    p->poolProps.location.type != CU_MEM_LOCATION_TYPE_DEVICE)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "an allocation "
				  "node's pool is pinned memory of a device");
	if ((r = cuDeviceGetCount(&n)) != CUDA_SUCCESS)
		return r;
	if (p->poolProps.location.id < 0 || p->poolProps.location.id >= n)
		return cuemu_fail(CUDA_ERROR_INVALID_DEVICE,
				  "device %d is none",
				  p->poolProps.location.id);
	if (p->poolProps.handleTypes)
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED, "a graph's memory "
				  "is not shared through handles");
	if (!p->bytesize)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "an allocation node of 0 bytes");
	*dev = p->poolProps.location.id;
	return CUDA_SUCCESS;
}

CUresult cuGraphAddMemAllocNode(CUgraphNode *phGraphNode, CUgraph hGraph,
				const CUgraphNode *dependencies,
				size_t numDependencies,
				CUDA_MEM_ALLOC_NODE_PARAMS *nodeParams)
{
	struct gmem *m;
	CUgraphNode n;
	CUcontext ctx;
	int dev = 0;
	CUresult r;

	if ((r = cuemu_current(&ctx, NULL)) != CUDA_SUCCESS)
		return r;
	if (!phGraphNode || !nodeParams)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s is NULL",
				  !phGraphNode ? "phGraphNode" : "nodeParams");
	if ((r = cuemu_graph_check(hGraph)) != CUDA_SUCCESS ||
	    (r = props_check(nodeParams, &dev)) != CUDA_SUCCESS)
		return r;
	if ((r = cuemu_gmem_new(ctx, dev, nodeParams->bytesize, &m)) != CUDA_SUCCESS)
		return r;
	if ((r = cuemu_graph_node_new(hGraph, dependencies, numDependencies,
				      CU_GRAPH_NODE_TYPE_MEM_ALLOC, &n))) {
		cuemu_gmem_unref(m);
		return r;
	}
	nodeParams->dptr = cuemu_gmem_ptr(m);
	n->p.alloc.a = *nodeParams;
	n->p.alloc.a.accessDescs = NULL;
	n->p.alloc.a.accessDescCount = 0;
	n->p.alloc.m = m;
	*phGraphNode = n;
	return CUDA_SUCCESS;
}

CUresult cuGraphMemAllocNodeGetParams(CUgraphNode hNode,
				      CUDA_MEM_ALLOC_NODE_PARAMS *params_out)
{
	CUresult r;

	if ((r = cuemu_graph_node_check(hNode)) != CUDA_SUCCESS)
		return r;
	if (!params_out || hNode->type != CU_GRAPH_NODE_TYPE_MEM_ALLOC)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s",
				  !params_out ? "params_out is NULL" :
				  "not an allocation node");
	*params_out = hNode->p.alloc.a;
	return CUDA_SUCCESS;
}

CUresult cuGraphAddMemFreeNode(CUgraphNode *phGraphNode, CUgraph hGraph,
			       const CUgraphNode *dependencies,
			       size_t numDependencies, CUdeviceptr dptr)
{
	CUgraphNode n;
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)) != CUDA_SUCCESS)
		return r;
	if (!phGraphNode)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "phGraphNode is NULL");
	if ((r = cuemu_graph_check(hGraph)) != CUDA_SUCCESS)
		return r;
	if (!cuemu_gmem_owns(dptr))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%#llx is no "
				  "graph's allocation",
				  (unsigned long long)dptr);
	if ((r = cuemu_graph_node_new(hGraph, dependencies, numDependencies,
				      CU_GRAPH_NODE_TYPE_MEM_FREE, &n)))
		return r;
	n->p.free_ptr = dptr;
	*phGraphNode = n;
	return CUDA_SUCCESS;
}

CUresult cuGraphMemFreeNodeGetParams(CUgraphNode hNode, CUdeviceptr *dptr_out)
{
	CUresult r;

	if ((r = cuemu_graph_node_check(hNode)) != CUDA_SUCCESS)
		return r;
	if (!dptr_out || hNode->type != CU_GRAPH_NODE_TYPE_MEM_FREE)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s",
				  !dptr_out ? "dptr_out is NULL" :
				  "not a free node");
	*dptr_out = hNode->p.free_ptr;
	return CUDA_SUCCESS;
}

/* ---------------------------------------------- a device's graph memory */

static CUresult attr_check(CUdevice dev, CUgraphMem_attribute attr,
			   const void *value)
{
	CUresult r;

	if ((r = cuemu_check_dev(dev)) != CUDA_SUCCESS)
		return r;
	if (!value || (unsigned)attr > CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s",
				  !value ? "value is NULL" :
				  "no such graph memory attribute");
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetGraphMemAttribute(CUdevice device,
				      CUgraphMem_attribute attr, void *value)
{
	CUresult r = attr_check(device, attr, value);
	uint64_t v;

	if (r != CUDA_SUCCESS)
		return r;
	uint64_t used, high, reserved_high;

	cuemu_gmem_usage(device, &used, &high, &reserved_high);
	v = attr == CU_GRAPH_MEM_ATTR_USED_MEM_HIGH ? high :
	    attr == CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH ? reserved_high :
	    used;
	*(cuuint64_t *)value = v;
	return CUDA_SUCCESS;
}

/* Only the high marks are set, and only to 0 (reset to what is in use). */
CUresult cuDeviceSetGraphMemAttribute(CUdevice device,
				      CUgraphMem_attribute attr, void *value)
{
	CUresult r = attr_check(device, attr, value);

	if (r != CUDA_SUCCESS)
		return r;
	if ((attr != CU_GRAPH_MEM_ATTR_USED_MEM_HIGH &&
	     attr != CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH) ||
	    *(const cuuint64_t *)value)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "only a high mark "
				  "is set, and only to 0");
	cuemu_gmem_reset_high(device,
			      attr == CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH);
	return CUDA_SUCCESS;
}

/* Every byte reserved is held by a node: nothing to give back. */
CUresult cuDeviceGraphMemTrim(CUdevice device)
{
	return cuemu_check_dev(device);
}

/* ------------------------------------------------------ any node's kind */

/* Edge data on a node's dependencies: only the default kind. */
static CUresult default_edges(const CUgraphEdgeData *d, size_t n)
{
	for (size_t i = 0; d && i < n; i++)
		if (d[i].type || d[i].from_port || d[i].to_port)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "dependency %zu: only default edges",
					  i);
	return CUDA_SUCCESS;
}

/* A child graph node that takes the graph itself (ownership moved). */
static CUresult add_moved_child(CUgraphNode *out, CUgraph g,
				const CUgraphNode *deps, size_t n,
				CUgraph child)
{
	CUgraphNode node;
	CUresult r;

	if ((r = add_check(out, g)) != CUDA_SUCCESS ||
	    (r = cuemu_graph_check(child)) != CUDA_SUCCESS)
		return r;
	if (child == g)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "a graph cannot be its own child");
	if (child->owner || cuemu_graph_has_cond(child))
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED, "a conditional "
				  "node's body, or a graph with conditional "
				  "nodes, as a child graph");
	if ((r = cuemu_graph_node_new(g, deps, n, CU_GRAPH_NODE_TYPE_GRAPH,
				      &node)) != CUDA_SUCCESS)
		return r;
	node->p.child = child;
	*out = node;
	return CUDA_SUCCESS;
}

static CUresult set_cond(CUgraphNode n, const void *arg)
{
	return cuemu_graph_cond_set(n, (CUDA_CONDITIONAL_NODE_PARAMS *)arg);
}

/* cuGraphAddNode: each kind's own call. External semaphores and batch
 * memory operations are not emulated. */
CUresult cuGraphAddNode_v2(CUgraphNode *phGraphNode, CUgraph hGraph,
			   const CUgraphNode *dependencies,
			   const CUgraphEdgeData *dependencyData,
			   size_t numDependencies,
			   CUgraphNodeParams *nodeParams)
{
	const CUgraphNode *d = dependencies;
	size_t n = numDependencies;
	CUresult r;

	if (!nodeParams)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "nodeParams is NULL");
	if ((r = default_edges(dependencyData, n)) != CUDA_SUCCESS)
		return r;
	switch (nodeParams->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		return cuGraphAddKernelNode_v2(
			phGraphNode, hGraph, d, n,
			(const CUDA_KERNEL_NODE_PARAMS *)&nodeParams->kernel);
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		return cuGraphAddMemcpyNode(phGraphNode, hGraph, d, n,
					    &nodeParams->memcpy.copyParams,
					    nodeParams->memcpy.copyCtx);
	case CU_GRAPH_NODE_TYPE_MEMSET:
		return cuGraphAddMemsetNode(
			phGraphNode, hGraph, d, n,
			(const CUDA_MEMSET_NODE_PARAMS *)&nodeParams->memset,
			nodeParams->memset.ctx);
	case CU_GRAPH_NODE_TYPE_HOST:
		return cuGraphAddHostNode(
			phGraphNode, hGraph, d, n,
			(const CUDA_HOST_NODE_PARAMS *)&nodeParams->host);
	case CU_GRAPH_NODE_TYPE_GRAPH:
		if (nodeParams->graph.ownership ==
		    CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE)
			return add_moved_child(phGraphNode, hGraph, d, n,
					       nodeParams->graph.graph);
		return cuGraphAddChildGraphNode(phGraphNode, hGraph, d, n,
						nodeParams->graph.graph);
	case CU_GRAPH_NODE_TYPE_EMPTY:
		return cuGraphAddEmptyNode(phGraphNode, hGraph, d, n);
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
		return cuGraphAddEventWaitNode(phGraphNode, hGraph, d, n,
					       nodeParams->eventWait.event);
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
		return cuGraphAddEventRecordNode(phGraphNode, hGraph, d, n,
						 nodeParams->eventRecord.event);
	case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
		return cuGraphAddMemAllocNode(
			phGraphNode, hGraph, d, n,
			(CUDA_MEM_ALLOC_NODE_PARAMS *)&nodeParams->alloc);
	case CU_GRAPH_NODE_TYPE_MEM_FREE:
		return cuGraphAddMemFreeNode(phGraphNode, hGraph, d, n,
					     nodeParams->free.dptr);
	case CU_GRAPH_NODE_TYPE_CONDITIONAL:
		return add_node(phGraphNode, hGraph, d, n,
				CU_GRAPH_NODE_TYPE_CONDITIONAL, set_cond,
				&nodeParams->conditional);
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
	case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED, "graph nodes of "
				  "type %d are not emulated",
				  (int)nodeParams->type);
	default:
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "node type %d is none",
				  (int)nodeParams->type);
	}
}

/* CUDA 12.2's form, without edge data. */
CUresult cuGraphAddNode(CUgraphNode *phGraphNode, CUgraph hGraph,
			const CUgraphNode *dependencies,
			size_t numDependencies, CUgraphNodeParams *nodeParams)
{
	return cuGraphAddNode_v2(phGraphNode, hGraph, dependencies, NULL,
				 numDependencies, nodeParams);
}

/* probes/results/conditional.txt: NULL out or graph, flags other than
 * 0 and ASSIGN_DEFAULT: INVALID_VALUE; no context: INVALID_CONTEXT. */
CUresult cuGraphConditionalHandleCreate(CUgraphConditionalHandle *pHandle_out,
					CUgraph hGraph, CUcontext ctx,
					unsigned int defaultLaunchValue,
					unsigned int flags)
{
	CUresult r;

	if (!pHandle_out)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "pHandle_out is NULL");
	if ((r = cuemu_graph_check(hGraph)) != CUDA_SUCCESS)
		return r;
	if (flags & ~(unsigned)CU_GRAPH_COND_ASSIGN_DEFAULT)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "conditional handle flags %#x", flags);
	if (!ctx)
		return cuemu_fail(CUDA_ERROR_INVALID_CONTEXT,
				  "the handle's context is NULL");
	return cuemu_graph_cond_handle(hGraph, defaultLaunchValue,
				       flags & CU_GRAPH_COND_ASSIGN_DEFAULT,
				       pHandle_out);
}

/* ---------------------------------------------------- a graph as DOT */

static const char *kind_name(CUgraphNodeType t)
{
	static const char *const names[] = {
		"KERNEL", "MEMCPY", "MEMSET", "HOST", "GRAPH", "EMPTY",
		"WAIT_EVENT", "EVENT_RECORD", "EXT_SEMAS_SIGNAL",
		"EXT_SEMAS_WAIT", "MEM_ALLOC", "MEM_FREE", "BATCH_MEM_OP",
		"CONDITIONAL",
	};

	return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}

/* g's nodes (a child graph's as a cluster of its own) and edges, each
 * node named by its place and kind, a kernel by its function too. */
static void dot_graph(FILE *f, CUgraph g, const char *prefix, int depth)
{
	cuemu_graph_number(g);
	for (size_t i = 0; i < g->n; i++) {
		CUgraphNode n = g->nodes[i];
		fprintf(f, "%*s\"%s%zu\" [label=\"%zu %s%s%s\"];\n",
			depth * 2, "", prefix, i, i, kind_name(n->type),
			n->type == CU_GRAPH_NODE_TYPE_KERNEL ? " " : "",
			n->type == CU_GRAPH_NODE_TYPE_KERNEL ?
				cuemu_function_name(n->p.k.f) : "");
		if (n->type == CU_GRAPH_NODE_TYPE_GRAPH && depth < 64) {
			char sub[256];
			snprintf(sub, sizeof sub, "%s%zu_", prefix, i);
			fprintf(f, "%*ssubgraph \"cluster_%s\" {\n",
				depth * 2, "", sub);
			dot_graph(f, n->p.child, sub, depth + 1);
			fprintf(f, "%*s}\n", depth * 2, "");
		}
	}
	cuemu_graph_number(g);
	for (size_t i = 0; i < g->n; i++)
		for (size_t d = 0; d < g->nodes[i]->ndeps; d++)
			fprintf(f, "%*s\"%s%zu\" -> \"%s%zu\";\n", depth * 2,
				"", prefix, g->nodes[i]->deps[d]->at, prefix,
				i);
}

/* The graph for Graphviz: its nodes and edges (the flags ask for more
 * detail of each node's parameters; the names are what is written). */
CUresult cuGraphDebugDotPrint(CUgraph hGraph, const char *path,
			      unsigned int flags)
{
	CUresult r;
	FILE *f;

	(void)flags;
	if ((r = cuemu_graph_check(hGraph)) != CUDA_SUCCESS)
		return r;
	if (!path)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "path is NULL");
	if (!(f = fopen(path, "w")))
		return cuemu_fail(CUDA_ERROR_OPERATING_SYSTEM, "%s: %s", path,
				  strerror(errno));
	fprintf(f, "digraph cuemu_graph {\n");
	dot_graph(f, hGraph, "n", 1);
	fprintf(f, "}\n");
	if (fclose(f) != 0)
		return cuemu_fail(CUDA_ERROR_OPERATING_SYSTEM, "%s: %s", path,
				  strerror(errno));
	return CUDA_SUCCESS;
}

/* ------------------------------------------------------ user objects */

CUresult cuGraphRetainUserObject(CUgraph graph, CUuserObject object,
				 unsigned int count, unsigned int flags)
{
	CUresult r;

	if ((r = cuemu_graph_check(graph)) != CUDA_SUCCESS ||
	    (r = cuemu_uobj_check(object)) != CUDA_SUCCESS)
		return r;
	if (!count || (flags & ~(unsigned)CU_GRAPH_USER_OBJECT_MOVE))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s",
				  !count ? "a count of 0" : "flags are none");
	if ((r = cuemu_graph_uobj_add(graph, object, count)) != CUDA_SUCCESS)
		return r;
	/* moved: the caller's references become the graph's */
	if (!(flags & CU_GRAPH_USER_OBJECT_MOVE))
		cuemu_uobj_ref(object, count);
	return CUDA_SUCCESS;
}

CUresult cuGraphReleaseUserObject(CUgraph graph, CUuserObject object,
				  unsigned int count)
{
	CUresult r;

	if ((r = cuemu_graph_check(graph)) != CUDA_SUCCESS ||
	    (r = cuemu_uobj_check(object)) != CUDA_SUCCESS)
		return r;
	if (!count)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "a count of 0");
	return cuemu_graph_uobj_drop(graph, object, count);
}

/* ------------------------------------------------ a kernel node's attributes */

/* The attributes a kernel node takes. */
static CUresult node_attr_known(CUkernelNodeAttrID id)
{
	switch (id) {
	case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
	case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
	case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
	case CU_LAUNCH_ATTRIBUTE_COOPERATIVE:
	case CU_LAUNCH_ATTRIBUTE_PRIORITY:
	case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
	case CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION:
	case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
	case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
		return CUDA_SUCCESS;
	case CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE:
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED, "device-updatable "
				  "kernel nodes are not emulated");
	default:
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "attribute %d is no kernel node's", (int)id);
	}
}

/* An attribute's value checked as a launch's. */
static CUresult node_attr_check(CUkernelNodeAttrID id,
				const CUkernelNodeAttrValue *v)
{
	int dev = 0;
	CUresult r;

	if ((r = node_attr_known(id)) != CUDA_SUCCESS ||
	    (r = cuemu_current(NULL, &dev)) != CUDA_SUCCESS)
		return r;
	switch (id) {
	case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
	case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
	case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
	case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
	case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
		return cuemu_attr_common_check(id, v, dev);
	default:
		return CUDA_SUCCESS;
	}
}

static CUlaunchAttribute *node_attr(struct gkernel *k, CUkernelNodeAttrID id)
{
	for (unsigned i = 0; i < k->nattrs; i++)
		if (k->attrs[i].id == id)
			return &k->attrs[i];
	return NULL;
}

CUresult cuGraphKernelNodeSetAttribute(CUgraphNode hNode,
				       CUkernelNodeAttrID attr,
				       const CUkernelNodeAttrValue *value)
{
	CUresult r = typed(hNode, CU_GRAPH_NODE_TYPE_KERNEL, value);
	struct gkernel *k = &hNode->p.k;
	CUlaunchAttribute *a;

	if (r != CUDA_SUCCESS || (r = node_attr_check(attr, value)))
		return r;
	if (!(a = node_attr(k, attr))) {
		if (k->nattrs == sizeof k->attrs / sizeof k->attrs[0])
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "too many attributes");
		a = &k->attrs[k->nattrs++];
		memset(a, 0, sizeof *a);
		a->id = attr;
	}
	a->value = *value;
	if (attr == CU_LAUNCH_ATTRIBUTE_COOPERATIVE)
		k->cooperative = value->cooperative != 0;
	return CUDA_SUCCESS;
}

CUresult cuGraphKernelNodeGetAttribute(CUgraphNode hNode,
				       CUkernelNodeAttrID attr,
				       CUkernelNodeAttrValue *value_out)
{
	CUresult r = typed(hNode, CU_GRAPH_NODE_TYPE_KERNEL, value_out);
	CUlaunchAttribute *a;

	if (r != CUDA_SUCCESS || (r = node_attr_known(attr)) != CUDA_SUCCESS)
		return r;
	memset(value_out, 0, sizeof *value_out);
	if ((a = node_attr(&hNode->p.k, attr)))
		*value_out = a->value;
	else if (attr == CU_LAUNCH_ATTRIBUTE_COOPERATIVE)
		value_out->cooperative = hNode->p.k.cooperative;
	return CUDA_SUCCESS;
}

CUresult cuGraphKernelNodeCopyAttributes(CUgraphNode dst, CUgraphNode src)
{
	CUresult r;

	if ((r = cuemu_graph_node_check(dst)) != CUDA_SUCCESS ||
	    (r = cuemu_graph_node_check(src)) != CUDA_SUCCESS)
		return r;
	if (dst->type != CU_GRAPH_NODE_TYPE_KERNEL ||
	    src->type != CU_GRAPH_NODE_TYPE_KERNEL)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "attributes are kernel nodes'");
	memcpy(dst->p.k.attrs, src->p.k.attrs, sizeof dst->p.k.attrs);
	dst->p.k.nattrs = src->p.k.nattrs;
	dst->p.k.cooperative = src->p.k.cooperative;
	return CUDA_SUCCESS;
}

/* --------------------------------------------- any node's parameters */

/* cuGraphNodeSetParams: the kind's own call; the node keeps its kind,
 * and the kinds whose parameters are fixed (child graphs, memory nodes)
 * refuse. */
CUresult cuGraphNodeSetParams(CUgraphNode hNode, CUgraphNodeParams *nodeParams)
{
	CUresult r;

	if ((r = cuemu_graph_node_check(hNode)) != CUDA_SUCCESS)
		return r;
	if (!nodeParams || nodeParams->type != hNode->type)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s",
				  !nodeParams ? "nodeParams is NULL" :
				  "a node keeps its kind");
	switch (hNode->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		return cuGraphKernelNodeSetParams_v2(
			hNode, (const CUDA_KERNEL_NODE_PARAMS *)&nodeParams->kernel);
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		return cuGraphMemcpyNodeSetParams(
			hNode, &nodeParams->memcpy.copyParams);
	case CU_GRAPH_NODE_TYPE_MEMSET:
		return cuGraphMemsetNodeSetParams(
			hNode, (const CUDA_MEMSET_NODE_PARAMS *)&nodeParams->memset);
	case CU_GRAPH_NODE_TYPE_HOST:
		return cuGraphHostNodeSetParams(
			hNode, (const CUDA_HOST_NODE_PARAMS *)&nodeParams->host);
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
		return cuGraphEventRecordNodeSetEvent(
			hNode, nodeParams->eventRecord.event);
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
		return cuGraphEventWaitNodeSetEvent(hNode,
						    nodeParams->eventWait.event);
	case CU_GRAPH_NODE_TYPE_EMPTY:
		return CUDA_SUCCESS;
	default:
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "a node of type "
				  "%d keeps its parameters",
				  (int)hNode->type);
	}
}
