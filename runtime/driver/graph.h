/*
 * graph.h - graphs, their nodes, stream capture and executable graphs as
 * the driver's entry points share them. Below every entry: kargs.c (a
 * kernel's arguments), gmem.c (a graph's memory), graphnode.c (graphs
 * and nodes as objects), capture.c (a stream's capture into a graph:
 * cuStreamBeginCapture ... EndCapture, and what the other entries ask of
 * it); above them, calling the entries: graph.c (cuGraphCreate, the
 * cuGraphAdd*Node calls, edges, queries) and graphexec.c (instantiated
 * graphs and their launches). Calls go down that list, never up
 * (tests/unit/circles.sh). A node keeps its parameters by value (a
 * kernel's argument bytes, a copy's shape): what the node does is fixed
 * when it is added, as the driver fixes it.
 *
 * Locking: a graph is the caller's to serialize, as CUDA asks of a program
 * (a graph is not thread-safe); capture.c's state has its own lock.
 */
#ifndef CUEMU_DRIVER_GRAPH_H
#define CUEMU_DRIVER_GRAPH_H

#include "driver/driver.h"

/* A kernel node's launch: the function, its shape and its argument bytes
 * (args[i] points into bytes, as cuGraphKernelNodeGetParams answers). */
struct gkernel {
	CUfunction f;
	CUkernel kern;          /* what was given, where it was a CUkernel */
	CUcontext ctx;
	unsigned g[3], b[3], smem;
	bool cooperative;
	/* cuGraphKernelNodeSetAttribute's, each id once (COOPERATIVE sets
	 * cooperative too) */
	CUlaunchAttribute attrs[12];
	unsigned nattrs;
	uint8_t *bytes;
	uint32_t nbytes, nargs;
	void **args;
};

struct CUgraphNode_st {
	uint32_t magic;
	CUgraph graph;
	CUgraphNodeType type;
	CUgraphNode origin;     /* the node this one was cloned from */
	bool seen;              /* a walk's mark (capture.c) */
	bool disabled;          /* in an executable graph: runs as nothing */
	size_t at;              /* its place in graph->nodes, once numbered */
	CUgraphNode *deps, *outs;
	size_t ndeps, nouts, deps_cap, outs_cap;
	union {
		struct gkernel k;
		struct { CUDA_MEMCPY3D c; CUcontext ctx; } copy;
		struct { CUDA_MEMSET_NODE_PARAMS m; CUcontext ctx; } set;
		CUDA_HOST_NODE_PARAMS host;
		CUgraph child;          /* the node's own copy */
		CUevent event;          /* record and wait nodes */
		struct {
			CUDA_MEM_ALLOC_NODE_PARAMS a;
			struct gmem *m;   /* a hold of the memory */
		} alloc;
		CUdeviceptr free_ptr;
		/* a conditional node: its handle, kind and body graphs
		 * (size of them, each owned by the node) */
		struct {
			CUgraphConditionalHandle h;
			CUgraphConditionalNodeType type;
			unsigned size;
			CUcontext ctx;
			CUgraph *bodies;
		} cond;
	} p;
};

/* A conditional handle: its default, whether each launch assigns it,
 * whether a node took it. A graph and the bodies of its conditional
 * nodes share one numbering, kept by the outermost graph: handles are
 * 1, 2, ... in the order made (probes/results/conditional.txt: each
 * graph's first two handles are 1 and 2). */
struct gcondh {
	unsigned dflt;
	bool assign;
	bool used;
};

/* A graph's references to a user object (userobj.c). */
struct guobj {
	CUuserObject o;
	unsigned count;
};

struct CUgraph_st {
	uint32_t magic;
	CUgraphNode *nodes;     /* in the order they were added */
	size_t n, cap;
	CUgraph origin;         /* the graph this one was cloned from */
	struct guobj *uobjs;    /* the user objects it holds */
	size_t nuobjs;
	CUgraphNode owner;      /* the conditional node it is a body of */
	struct gcondh *conds;   /* an outermost graph's handles */
	size_t nconds;
};

/* kargs.c */
/* A launch's arguments as the driver checks them (not both kernelParams
 * and extra; some where the kernel takes some), and copied into buf
 * (k->param_bytes); cuemu_launch_args does both. */
CUresult cuemu_kargs_check(const struct ex_kernel_info *k, void **params,
			   void **extra);
CUresult cuemu_kargs_copy(const struct ex_kernel_info *k, void **params,
			  void **extra, uint8_t *buf);
CUresult cuemu_launch_args(const struct ex_kernel_info *k, void **params,
			   void **extra, uint8_t *buf);

/* gmem.c: a graph's allocations, which live as long as a node holds
 * them (graphnode.c takes and drops holds with the nodes). */
struct gmem;
/* size bytes of dev's memory in ctx, one hold. */
CUresult cuemu_gmem_new(CUcontext ctx, int dev, size_t size,
			struct gmem **out);
void cuemu_gmem_ref(struct gmem *m);
void cuemu_gmem_unref(struct gmem *m);
CUdeviceptr cuemu_gmem_ptr(const struct gmem *m);
/* p is where a graph's allocation starts: the program's free of it
 * outside a graph is taken and does nothing. */
bool cuemu_gmem_owns(CUdeviceptr p);
/* dev's bytes of live graph allocations and their high marks; a high
 * mark reset to what is in use. */
void cuemu_gmem_usage(int dev, uint64_t *used, uint64_t *high,
		      uint64_t *reserved_high);
void cuemu_gmem_reset_high(int dev, bool reserved);

/* userobj.c */
CUresult cuemu_uobj_check(CUuserObject o);
void cuemu_uobj_ref(CUuserObject o, unsigned count);
/* The last reference let go runs the destructor, in this thread. */
void cuemu_uobj_unref(CUuserObject o, unsigned count);

/* graphnode.c */
/* NULL or a dead handle is CUDA_ERROR_INVALID_VALUE, as the driver
 * answers a NULL graph or node. */
CUresult cuemu_graph_check(CUgraph g);
CUresult cuemu_graph_node_check(CUgraphNode n);
/* A node of type t added to g after deps (checked: each a node of g,
 * none twice), its parameters zero; the caller fills them. */
CUresult cuemu_graph_node_new(CUgraph g, const CUgraphNode *deps,
			      size_t ndeps, CUgraphNodeType t,
			      CUgraphNode *out);
/* Takes n out of its graph again (a node whose parameters were refused). */
void cuemu_graph_node_drop(CUgraphNode n);
/* An empty graph. */
CUresult cuemu_graph_new(CUgraph *out);
/* g's references to o: count more (retained already where moved), or
 * count fewer (INVALID_VALUE for more than g holds). */
CUresult cuemu_graph_uobj_add(CUgraph g, CUuserObject o, unsigned count);
CUresult cuemu_graph_uobj_drop(CUgraph g, CUuserObject o, unsigned count);
/* An edge from -> to (to depends on from), and its removal; whether x is
 * among the n nodes of v. */
CUresult cuemu_graph_edge_add(CUgraphNode from, CUgraphNode to);
void cuemu_graph_edge_remove(CUgraphNode from, CUgraphNode to);
bool cuemu_graph_holds(CUgraphNode const *v, size_t n, CUgraphNode x);
/* A graph of its own holding what g holds, each node's origin its
 * original (cuGraphClone; instantiation keeps one). */
CUresult cuemu_graph_clone(CUgraph g, CUgraph *out);
void cuemu_graph_free(CUgraph g);
/* Sets each node's `at` to its place in g->nodes: O(n), so that a walk
 * of the edges finds a node's place in O(1). */
void cuemu_graph_number(CUgraph g);
/* b's parameters into a's nodes where b has a's shape (nodes in the same
 * order, kinds and edges); INVALID_VALUE where not, a unchanged. */
CUresult cuemu_graph_update(CUgraph a, CUgraph b);
/* The graph g is a body of, outward to the one that is no body: where
 * its conditional handles are kept. */
CUgraph cuemu_graph_root(CUgraph g);
/* A new conditional handle of g's outermost graph. */
CUresult cuemu_graph_cond_handle(CUgraph g, unsigned dflt, bool assign,
				 CUgraphConditionalHandle *out);
/* Makes n (a new node of type CONDITIONAL) the conditional node p
 * describes, checked as the driver checks it, its body graphs made and
 * answered in p->phGraph_out. */
CUresult cuemu_graph_cond_set(CUgraphNode n, CUDA_CONDITIONAL_NODE_PARAMS *p);
/* Whether g, or a child graph of it, holds a conditional node. */
bool cuemu_graph_has_cond(CUgraph g);
/* A kernel node's launch from a launch's arguments: f (a CUfunction or a
 * CUkernel), checked and resolved in the current context, and its
 * arguments copied from kernelParams or extra. */
CUresult cuemu_gkernel_set(struct gkernel *k, const CUDA_KERNEL_NODE_PARAMS *p);
/* The same from a launch's checked function and description: its
 * arguments copied from params or extra. */
CUresult cuemu_gkernel_fill(struct gkernel *k, CUfunction f,
			    const struct ex_kernel_info *ki,
			    const unsigned g[3], const unsigned b[3],
			    unsigned smem, void **params, void **extra);
void cuemu_gkernel_free(struct gkernel *k);
/* A copy node's and a memset node's parameters as the driver checks them
 * when they are given. */
CUresult cuemu_gcopy_check(const CUDA_MEMCPY3D *c);
CUresult cuemu_gset_check(const CUDA_MEMSET_NODE_PARAMS *m);

/* capture.c */
/* Whether stream handle h captures now; false at once while nothing in
 * the process captures. */
bool cuemu_capturing(CUstream h);
/* Adds a node of type t to h's capture after the stream's dependencies
 * and makes it the stream's one dependency: *out the node to fill; the
 * caller drops it (cuemu_graph_node_drop) if its parameters are refused. */
CUresult cuemu_capture_node(CUstream h, CUgraphNodeType t, CUgraphNode *out);
/* A copy node, a memset node, so made. */
CUresult cuemu_capture_copy(CUstream h, const CUDA_MEMCPY3D *c);
CUresult cuemu_capture_memset(CUstream h, const CUDA_MEMSET_NODE_PARAMS *m);
/* The checks an operation that is no node makes while something
 * captures: a potentially unsafe call (an allocation, a free, a
 * synchronization of another stream) under the calling thread's mode;
 * a synchronization or query of a capturing stream; of the whole
 * context. Each refusal invalidates the captures it breaks. */
CUresult cuemu_capture_unsafe(const char *what);
CUresult cuemu_capture_sync(CUstream h, const char *what);
CUresult cuemu_capture_ctx_sync(void);
/* An event: recorded into a capture (h captures), waited on by a stream
 * (joining it to the capture the event was recorded in), or asked about
 * (query, synchronize, elapsed time). Each answers *taken = true where the
 * capture took the call. */
CUresult cuemu_capture_record(CUevent e, CUstream h, unsigned flags,
			      bool *taken);
CUresult cuemu_capture_wait(CUstream h, CUevent e, unsigned flags,
			    bool *taken);
CUresult cuemu_capture_event_use(CUevent e, bool invalidate);
/* The event is recorded outside any capture again. */
void cuemu_capture_event_forget(CUevent e);
/* Stream h is being destroyed: it leaves its capture, which is
 * invalidated (and ended, where h began it). */
void cuemu_capture_stream_gone(CUstream h);
/* cuMemAllocAsync and cuMemFreeAsync on a capturing stream: an
 * allocation node (its memory made now, at the address answered), a
 * free node of a graph's allocation. */
CUresult cuemu_capture_alloc(CUstream h, size_t size, CUcontext ctx, int dev,
			     CUdeviceptr *out);
CUresult cuemu_capture_free(CUstream h, CUdeviceptr p);

/* graph.c */
/* A kernel node's launch from cuGraphAddKernelNode's (or SetParams')
 * parameters: f (a CUfunction or a CUkernel), checked and resolved in the
 * current context, its arguments copied from kernelParams or extra. */
CUresult cuemu_gkernel_set(struct gkernel *k, const CUDA_KERNEL_NODE_PARAMS *p);


/* launch.c */
/* A launch's function (resolved in the current context, where it must
 * be), shape and shared memory checked as a launch checks them; *k the
 * kernel's description. */
CUresult cuemu_launch_shape_check(CUfunction f, const unsigned g[3],
				  const unsigned b[3], unsigned smem,
				  const struct ex_kernel_info **k);
/* A kernel node launched on s by a graph's launch: the node's own device
 * time (uvm.graph_node_ns), no call of the host's. Its
 * cudaGraphSetConditional(h, v) sets conds[h - 1] (h from 1 to n). */
CUresult cuemu_launch_node(const struct gkernel *k, CUstream s,
			   uint32_t *conds, size_t nconds);

#endif
