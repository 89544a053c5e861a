/*
 * test_graph.c - graphs and stream capture through the driver API, where
 * probes/graph.cu's replay (tests/cuda, graphprobe) does not reach: a
 * capture's dependencies read and set (cuStreamGetCaptureInfo,
 * cuStreamUpdateCaptureDependencies), the capture modes across threads
 * (a global capture bars another thread's allocation, a relaxed thread
 * is never barred), the legacy stream beside a blocking and a
 * non-blocking capture, an event recorded in one capture waited on in
 * another (STREAM_CAPTURE_MERGE), a graph's nodes run in dependency order
 * on lanes (host nodes observe it), a destroyed node's edges gone, a
 * cycle refused by instantiation, cuGraphExecUpdate refusing a changed
 * node type, a memset node's 2D box, and a graph's memory kept while a
 * node holds it.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cuda.h"
#include "tap.h"

static CUcontext g_ctx;

/* ------------------------------------------------------- dependencies */

static void capture_deps(void)
{
	CUstream s;
	CUgraph g;
	CUgraphNode a, b;
	const CUgraphNode *deps = NULL;
	CUstreamCaptureStatus st;
	cuuint64_t id = 0;
	size_t n = 99;
	CUdeviceptr d;

	cuMemAlloc(&d, 4096);
	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	is_res(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL),
	       CUDA_SUCCESS, "a capture begins on a user stream");
	cuMemsetD8Async(d, 1, 16, s);
	is_res(cuStreamGetCaptureInfo(s, &st, &id, &g, &deps, NULL, &n),
	       CUDA_SUCCESS, "its information is read while it captures");
	ok(st == CU_STREAM_CAPTURE_STATUS_ACTIVE && id && n == 1 && deps,
	   "active, an id, and the memset the one dependency");
	a = deps[0];
	cuMemsetD8Async(d + 16, 2, 16, s);
	cuStreamGetCaptureInfo(s, &st, &id, &g, &deps, NULL, &n);
	b = deps[0];
	ok(n == 1 && b != a, "the second memset follows the first");
	is_res(cuStreamUpdateCaptureDependencies(s, &a, NULL, 1,
						 CU_STREAM_ADD_CAPTURE_DEPENDENCIES),
	       CUDA_SUCCESS, "a dependency is added");
	cuStreamGetCaptureInfo(s, &st, &id, &g, &deps, NULL, &n);
	ok(n == 2, "two dependencies after the add (%zu)", n);
	is_res(cuStreamUpdateCaptureDependencies(s, NULL, NULL, 0,
						 CU_STREAM_SET_CAPTURE_DEPENDENCIES),
	       CUDA_SUCCESS, "the set is emptied");
	cuMemsetD8Async(d + 32, 3, 16, s);
	is_res(cuStreamUpdateCaptureDependencies(s, &a, NULL, 1, 7),
	       CUDA_ERROR_INVALID_VALUE, "flags that are no mode: INVALID_VALUE");
	is_res(cuStreamEndCapture(s, &g), CUDA_SUCCESS, "the capture ends");
	size_t roots = 0;
	cuGraphGetRootNodes(g, NULL, &roots);
	ok(roots == 2, "the third memset is a root once the set was emptied "
	   "(%zu roots)", roots);
	is_res(cuStreamUpdateCaptureDependencies(s, &a, NULL, 1, 0),
	       CUDA_ERROR_ILLEGAL_STATE,
	       "dependencies of a stream that does not capture: ILLEGAL_STATE");
	cuGraphDestroy(g);
	cuStreamDestroy(s);
	cuMemFree(d);
}

/* ----------------------------------------------------------- threads */

struct other {
	CUresult r;
	CUstreamCaptureMode mode;
};

static void *other_thread(void *arg)
{
	struct other *o = arg;
	CUdeviceptr p = 0;
	CUstreamCaptureMode m = o->mode;

	cuCtxSetCurrent(g_ctx);
	cuThreadExchangeStreamCaptureMode(&m);
	o->r = cuMemAlloc(&p, 64);
	if (p)
		cuMemFree(p);
	return NULL;
}

static CUresult alloc_beside(CUstreamCaptureMode capture,
			     CUstreamCaptureMode thread, CUresult *end)
{
	struct other o = { CUDA_SUCCESS, thread };
	pthread_t t;
	CUstream s;
	CUgraph g = NULL;

	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	cuStreamBeginCapture(s, capture);
	pthread_create(&t, NULL, other_thread, &o);
	pthread_join(t, NULL);
	*end = cuStreamEndCapture(s, &g);
	if (g)
		cuGraphDestroy(g);
	cuStreamDestroy(s);
	return o.r;
}

static void modes(void)
{
	CUresult end;
	CUstreamCaptureMode m = CU_STREAM_CAPTURE_MODE_RELAXED;

	is_res(alloc_beside(CU_STREAM_CAPTURE_MODE_GLOBAL,
			    CU_STREAM_CAPTURE_MODE_GLOBAL, &end),
	       CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
	       "another thread's allocation beside a global capture: refused");
	is_res(end, CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
	       "... and the capture with it");
	is_res(alloc_beside(CU_STREAM_CAPTURE_MODE_GLOBAL,
			    CU_STREAM_CAPTURE_MODE_RELAXED, &end),
	       CUDA_SUCCESS, "a relaxed thread allocates beside it");
	is_res(end, CUDA_SUCCESS, "... and the capture goes on");
	is_res(alloc_beside(CU_STREAM_CAPTURE_MODE_THREAD_LOCAL,
			    CU_STREAM_CAPTURE_MODE_GLOBAL, &end),
	       CUDA_SUCCESS, "a thread-local capture bars its own thread only");
	is_res(cuThreadExchangeStreamCaptureMode(&m), CUDA_SUCCESS,
	       "the thread's mode is exchanged");
	ok(m == CU_STREAM_CAPTURE_MODE_GLOBAL, "global before");
	cuThreadExchangeStreamCaptureMode(&m);
	m = (CUstreamCaptureMode)9;
	is_res(cuThreadExchangeStreamCaptureMode(&m), CUDA_ERROR_INVALID_VALUE,
	       "a mode that is none: INVALID_VALUE");
}

/* The legacy stream's work beside a capture of a blocking stream is
 * refused; beside a non-blocking one it runs. */
static void legacy(void)
{
	CUstream blocking, nb;
	CUgraph g = NULL;
	CUdeviceptr d;
	CUstreamCaptureStatus st;

	cuMemAlloc(&d, 64);
	cuStreamCreate(&nb, CU_STREAM_NON_BLOCKING);
	cuStreamBeginCapture(nb, CU_STREAM_CAPTURE_MODE_RELAXED);
	is_res(cuMemsetD8Async(d, 0, 64, NULL), CUDA_SUCCESS,
	       "the legacy stream runs beside a non-blocking capture");
	cuStreamIsCapturing(nb, &st);
	ok(st == CU_STREAM_CAPTURE_STATUS_ACTIVE, "which goes on");
	cuStreamEndCapture(nb, &g);
	cuGraphDestroy(g);
	cuStreamCreate(&blocking, CU_STREAM_DEFAULT);
	cuStreamBeginCapture(blocking, CU_STREAM_CAPTURE_MODE_RELAXED);
	is_res(cuMemsetD8Async(d, 0, 64, NULL),
	       CUDA_ERROR_STREAM_CAPTURE_IMPLICIT,
	       "beside a blocking one it is STREAM_CAPTURE_IMPLICIT");
	cuStreamIsCapturing(blocking, &st);
	ok(st == CU_STREAM_CAPTURE_STATUS_INVALIDATED,
	   "and the blocking capture is invalidated");
	is_res(cuStreamEndCapture(blocking, &g),
	       CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "its end says so");
	is_res(cuMemsetD8Async(d, 0, 64, NULL), CUDA_SUCCESS,
	       "the legacy stream runs again after");
	cuStreamSynchronize(NULL);
	cuStreamDestroy(blocking);
	cuStreamDestroy(nb);
	cuMemFree(d);
}

static void merge(void)
{
	CUstream a, b;
	CUevent e;
	CUdeviceptr d;
	CUgraph g = NULL;

	cuMemAlloc(&d, 64);
	cuStreamCreate(&a, CU_STREAM_NON_BLOCKING);
	cuStreamCreate(&b, CU_STREAM_NON_BLOCKING);
	cuEventCreate(&e, CU_EVENT_DISABLE_TIMING);
	cuStreamBeginCapture(a, CU_STREAM_CAPTURE_MODE_RELAXED);
	cuStreamBeginCapture(b, CU_STREAM_CAPTURE_MODE_RELAXED);
	cuMemsetD8Async(d, 0, 64, a);
	cuEventRecord(e, a);
	is_res(cuStreamWaitEvent(b, e, 0), CUDA_ERROR_STREAM_CAPTURE_MERGE,
	       "an event of one capture waited on in another: MERGE");
	is_res(cuStreamEndCapture(a, &g), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
	       "both captures invalidated (a)");
	is_res(cuStreamEndCapture(b, &g), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
	       "both captures invalidated (b)");
	cuEventDestroy(e);
	cuStreamDestroy(a);
	cuStreamDestroy(b);
	/* a joined stream's work not joined back: UNJOINED; joined back,
	 * the capture ends */
	CUgraph ug = NULL;
	cuStreamCreate(&a, CU_STREAM_NON_BLOCKING);
	cuStreamCreate(&b, CU_STREAM_NON_BLOCKING);
	cuEventCreate(&e, CU_EVENT_DISABLE_TIMING);
	cuStreamBeginCapture(a, CU_STREAM_CAPTURE_MODE_RELAXED);
	cuEventRecord(e, a);
	cuStreamWaitEvent(b, e, 0);
	cuMemsetD8Async(d, 1, 64, b);
	is_res(cuStreamEndCapture(a, &ug), CUDA_ERROR_STREAM_CAPTURE_UNJOINED,
	       "a joined stream's work not joined back: UNJOINED");
	cuStreamBeginCapture(a, CU_STREAM_CAPTURE_MODE_RELAXED);
	cuEventRecord(e, a);
	cuStreamWaitEvent(b, e, 0);
	cuMemsetD8Async(d, 1, 64, b);
	cuEventRecord(e, b);
	cuStreamWaitEvent(a, e, 0);
	is_res(cuStreamEndCapture(a, &ug), CUDA_SUCCESS,
	       "joined back, the capture ends");
	cuGraphDestroy(ug);
	cuEventDestroy(e);
	cuStreamDestroy(a);
	cuStreamDestroy(b);
	/* a capturing stream destroyed: its capture goes with it, a joined
	 * one's is invalidated */
	CUstreamCaptureStatus st;
	cuStreamCreate(&a, CU_STREAM_NON_BLOCKING);
	cuStreamCreate(&b, CU_STREAM_NON_BLOCKING);
	cuEventCreate(&e, CU_EVENT_DISABLE_TIMING);
	cuStreamBeginCapture(a, CU_STREAM_CAPTURE_MODE_RELAXED);
	cuEventRecord(e, a);
	cuStreamWaitEvent(b, e, 0);
	is_res(cuStreamDestroy(b), CUDA_SUCCESS,
	       "a joined stream is destroyed while it captures");
	cuStreamIsCapturing(a, &st);
	ok(st == CU_STREAM_CAPTURE_STATUS_INVALIDATED,
	   "its capture is invalidated");
	is_res(cuStreamDestroy(a), CUDA_SUCCESS,
	       "the first stream is destroyed too");
	cuStreamCreate(&a, CU_STREAM_NON_BLOCKING);
	cuStreamIsCapturing(a, &st);
	ok(st == CU_STREAM_CAPTURE_STATUS_NONE,
	   "a new stream captures nothing, at whatever address");
	cuStreamDestroy(a);
	cuEventDestroy(e);
	cuMemFree(d);
}

/* ------------------------------------------------------- running them */

static int g_order[16], g_count;
static pthread_mutex_t g_order_lock = PTHREAD_MUTEX_INITIALIZER;

static void note(void *arg)
{
	pthread_mutex_lock(&g_order_lock);
	g_order[g_count++] = (int)(intptr_t)arg;
	pthread_mutex_unlock(&g_order_lock);
}

static CUgraphNode host(CUgraph g, const CUgraphNode *deps, size_t n, int tag)
{
	CUDA_HOST_NODE_PARAMS p = { note, (void *)(intptr_t)tag };
	CUgraphNode node = NULL;

	cuGraphAddHostNode(&node, g, deps, n, &p);
	return node;
}

static int pos(int tag)
{
	for (int i = 0; i < g_count; i++)
		if (g_order[i] == tag)
			return i;
	return -1;
}

/* A diamond 1 -> (2, 3) -> 4, and 5 alone: each after what it depends
 * on, whatever lanes they ran on. */
static void order(void)
{
	CUgraph g;
	CUgraphExec x;
	CUstream s;
	CUgraphNode n1, n2, n3, n4, pair[2];

	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	cuGraphCreate(&g, 0);
	n1 = host(g, NULL, 0, 1);
	n2 = host(g, &n1, 1, 2);
	n3 = host(g, &n1, 1, 3);
	pair[0] = n2;
	pair[1] = n3;
	n4 = host(g, pair, 2, 4);
	host(g, NULL, 0, 5);
	(void)n4;
	is_res(cuGraphInstantiate(&x, g, 0), CUDA_SUCCESS,
	       "a diamond and a lone node instantiate");
	for (int rep = 0; rep < 3; rep++) {
		g_count = 0;
		cuGraphLaunch(x, s);
		cuStreamSynchronize(s);
		ok(g_count == 5 && pos(1) < pos(2) && pos(1) < pos(3) &&
		   pos(2) < pos(4) && pos(3) < pos(4),
		   "launch %d: every node ran, each after its dependencies",
		   rep);
	}
	is_res(cuGraphDestroyNode(n2), CUDA_SUCCESS, "a node is destroyed");
	size_t edges = 0;
	cuGraphGetEdges(g, NULL, NULL, NULL, &edges);
	ok(edges == 2, "its edges went with it (%zu left)", edges);
	is_res(cuGraphAddDependencies(g, &n4, &n1, NULL, 1), CUDA_SUCCESS,
	       "an edge closing a cycle is taken");
	CUgraphExec y = NULL;
	is_res(cuGraphInstantiate(&y, g, 0), CUDA_ERROR_INVALID_VALUE,
	       "a cycle is refused by the instantiation");
	CUgraphExecUpdateResultInfo info;
	CUgraph other;
	CUgraphNode e;
	cuGraphCreate(&other, 0);
	cuGraphAddEmptyNode(&e, other, NULL, 0);
	host(other, &e, 1, 9);
	host(other, NULL, 0, 9);
	host(other, NULL, 0, 9);
	host(other, NULL, 0, 9);
	is_res(cuGraphExecUpdate(x, other, &info),
	       CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE,
	       "an update whose first node changed type is refused");
	ok(info.result == CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED &&
	   info.errorNode == e, "naming the node and why");
	g_count = 0;
	cuGraphLaunch(x, s);
	cuStreamSynchronize(s);
	ok(g_count == 5, "the executable graph is as it was");
	cuGraphExecDestroy(x);
	cuGraphDestroy(other);
	cuGraphDestroy(g);
	cuStreamDestroy(s);
}

static void memset_box(void)
{
	CUgraph g;
	CUgraphExec x;
	CUgraphNode n;
	CUdeviceptr d;
	CUcontext ctx;
	uint8_t h[256];
	int right = 1;

	cuCtxGetCurrent(&ctx);
	cuMemAlloc(&d, sizeof h);
	cuMemsetD8(d, 0, sizeof h);
	cuGraphCreate(&g, 0);
	CUDA_MEMSET_NODE_PARAMS m = { .dst = d + 4, .pitch = 64,
				      .value = 0x01020304, .elementSize = 4,
				      .width = 2, .height = 3 };
	is_res(cuGraphAddMemsetNode(&n, g, NULL, 0, &m, ctx), CUDA_SUCCESS,
	       "a 2D memset node of 4-byte elements");
	m.pitch = 4;
	is_res(cuGraphAddMemsetNode(&n, g, NULL, 0, &m, ctx),
	       CUDA_ERROR_INVALID_VALUE, "a pitch short of a row: INVALID_VALUE");
	cuGraphInstantiate(&x, g, 0);
	cuGraphLaunch(x, NULL);
	cuStreamSynchronize(NULL);
	cuMemcpyDtoH(h, d, sizeof h);
	for (int y = 0; y < 4; y++)
		for (int i = 0; i < 64; i++) {
			int in = y < 3 && i >= 4 && i < 12;
			uint8_t want = in ? (uint8_t)(4 - (i - 4) % 4) : 0;
			right &= h[y * 64 + i] == want;
		}
	ok(right, "sets two elements of three rows, 64 bytes apart");
	cuGraphExecDestroy(x);
	cuGraphDestroy(g);
	cuMemFree(d);
}

static void memory(void)
{
	CUgraph g, c;
	CUgraphNode a, f;
	CUDA_MEM_ALLOC_NODE_PARAMS p;
	CUdeviceptr q;
	size_t before, after, total;

	memset(&p, 0, sizeof p);
	p.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	p.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	p.poolProps.location.id = 0;
	p.bytesize = 64 << 20;
	cuMemGetInfo(&before, &total);
	cuGraphCreate(&g, 0);
	is_res(cuGraphAddMemAllocNode(&a, g, NULL, 0, &p), CUDA_SUCCESS,
	       "an allocation node of 64 MiB");
	ok(p.dptr != 0, "answers its address");
	is_res(cuGraphAddMemFreeNode(&f, g, &a, 1, p.dptr), CUDA_SUCCESS,
	       "a free node of it");
	is_res(cuGraphAddMemFreeNode(&f, g, &a, 1, p.dptr + 64),
	       CUDA_ERROR_INVALID_VALUE, "a free of no graph's allocation: "
	       "INVALID_VALUE");
	cuGraphMemFreeNodeGetParams(f, &q);
	ok(q == p.dptr, "the free node names it");
	cuuint64_t used = 0, high = 0, zero = 0;
	is_res(cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT,
					    &used), CUDA_SUCCESS,
	       "the device's graph memory is read");
	ok(used == 64 << 20, "64 MiB of it in use (%llu)",
	   (unsigned long long)used);
	cuGraphClone(&c, g);
	cuGraphDestroy(g);
	is_res(cuMemFree(p.dptr), CUDA_SUCCESS,
	       "the program's free of it is taken");
	cuMemGetInfo(&after, &total);
	ok(before - after >= (64 << 20), "... and the memory stays while a "
	   "clone holds the node");
	cuGraphDestroy(c);
	cuMemGetInfo(&after, &total);
	ok(after == before, "and goes with the last holder");
	cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT,
				     &used);
	cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &high);
	ok(used == 0 && high == 64 << 20, "none in use after, its high mark "
	   "64 MiB");
	is_res(cuDeviceSetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH,
					    &zero), CUDA_SUCCESS,
	       "the high mark is reset");
	cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &high);
	ok(high == 0, "to what is in use");
	is_res(cuDeviceSetGraphMemAttribute(0,
					    CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT,
					    &zero), CUDA_ERROR_INVALID_VALUE,
	       "what is in use is not set: INVALID_VALUE");
	is_res(cuDeviceGraphMemTrim(0), CUDA_SUCCESS, "a trim succeeds");
	p.poolProps.location.id = 99;
	cuGraphCreate(&g, 0);
	is_res(cuGraphAddMemAllocNode(&a, g, NULL, 0, &p),
	       CUDA_ERROR_INVALID_DEVICE, "a device that is none: "
	       "INVALID_DEVICE");
	cuGraphDestroy(g);
}

/* cuGraphAddNode: each kind through its own call; what is not emulated
 * refused as such. */
static void any_node(void)
{
	CUgraph g, child;
	CUgraphNode n, h, c;
	CUgraphNodeParams p;
	CUgraphEdgeData ed;
	CUgraphExec x;
	CUgraphConditionalHandle handle;
	CUgraphNodeType t;

	cuGraphCreate(&g, 0);
	memset(&p, 0, sizeof p);
	p.type = CU_GRAPH_NODE_TYPE_EMPTY;
	is_res(cuGraphAddNode(&n, g, NULL, NULL, 0, &p), CUDA_SUCCESS,
	       "an empty node through cuGraphAddNode");
	memset(&p, 0, sizeof p);
	p.type = CU_GRAPH_NODE_TYPE_HOST;
	p.host.fn = note;
	p.host.userData = (void *)(intptr_t)7;
	is_res(cuGraphAddNode(&h, g, &n, NULL, 1, &p), CUDA_SUCCESS,
	       "a host node after it");
	cuGraphNodeGetType(h, &t);
	ok(t == CU_GRAPH_NODE_TYPE_HOST, "of the host kind");
	memset(&ed, 0, sizeof ed);
	ed.type = CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC;
	is_res(cuGraphAddNode(&c, g, &n, &ed, 1, &p), CUDA_ERROR_INVALID_VALUE,
	       "a programmatic edge: INVALID_VALUE");
	cuGraphCreate(&child, 0);
	cuGraphAddEmptyNode(&c, child, NULL, 0);
	memset(&p, 0, sizeof p);
	p.type = CU_GRAPH_NODE_TYPE_GRAPH;
	p.graph.graph = child;
	p.graph.ownership = CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE;
	is_res(cuGraphAddNode(&c, g, &h, NULL, 1, &p), CUDA_SUCCESS,
	       "a child graph moved into its node");
	CUgraph inner = NULL;
	cuGraphChildGraphNodeGetGraph(c, &inner);
	ok(inner == child, "the node holds that graph itself");
	memset(&p, 0, sizeof p);
	p.type = CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL;
	is_res(cuGraphAddNode(&c, g, NULL, NULL, 0, &p),
	       CUDA_ERROR_NOT_SUPPORTED,
	       "an external semaphore node: NOT_SUPPORTED");
	p.type = (CUgraphNodeType)99;
	is_res(cuGraphAddNode(&c, g, NULL, NULL, 0, &p),
	       CUDA_ERROR_INVALID_VALUE, "a kind that is none: INVALID_VALUE");
	is_res(cuGraphConditionalHandleCreate(&handle, g, g_ctx, 0, 0),
	       CUDA_SUCCESS, "a conditional handle (test_graphcond: the rest)");
	g_count = 0;
	cuGraphInstantiate(&x, g, 0);
	cuGraphLaunch(x, NULL);
	cuStreamSynchronize(NULL);
	ok(g_count == 1 && g_order[0] == 7, "the host node runs");
	cuGraphExecDestroy(x);
	cuGraphDestroy(g);
}

/* Turning a node off in an executable graph, its flags, event nodes'
 * events set, a graph printed for Graphviz, a capture into a graph the
 * program made. */
static void more(void)
{
	CUgraph g, got = NULL;
	CUgraphNode set, first, ev;
	CUgraphExec x;
	CUdeviceptr d;
	CUcontext ctx;
	CUevent e1, e2, eo = NULL;
	CUstream s;
	unsigned int on = 9;
	cuuint64_t flags = 99;
	uint32_t v = 0;
	char path[64];
	char line[256];
	int arrows = 0, digraph = 0;
	FILE *f;

	cuCtxGetCurrent(&ctx);
	cuMemAlloc(&d, 64);
	cuMemsetD32(d, 0, 16);
	cuEventCreate(&e1, CU_EVENT_DISABLE_TIMING);
	cuEventCreate(&e2, CU_EVENT_DISABLE_TIMING);
	cuGraphCreate(&g, 0);
	CUDA_MEMSET_NODE_PARAMS m = { .dst = d, .value = 5, .elementSize = 4,
				      .width = 1, .height = 1 };
	cuGraphAddMemsetNode(&set, g, NULL, 0, &m, ctx);
	cuGraphAddEventRecordNode(&ev, g, &set, 1, e1);
	is_res(cuGraphEventRecordNodeSetEvent(ev, e2), CUDA_SUCCESS,
	       "an event record node's event is set");
	cuGraphEventRecordNodeGetEvent(ev, &eo);
	ok(eo == e2, "and read back");
	is_res(cuGraphEventWaitNodeSetEvent(ev, e1), CUDA_ERROR_INVALID_VALUE,
	       "a record node is no wait node: INVALID_VALUE");
	is_res(cuGraphInstantiate(&x, g, CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY),
	       CUDA_SUCCESS, "instantiated with a flag");
	cuGraphExecGetFlags(x, &flags);
	ok(flags == CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY,
	   "which the executable graph answers");
	is_res(cuGraphNodeSetEnabled(x, set, 0), CUDA_SUCCESS,
	       "the memset node is turned off");
	cuGraphNodeGetEnabled(x, set, &on);
	ok(on == 0, "and says so");
	is_res(cuGraphNodeSetEnabled(x, ev, 0), CUDA_ERROR_INVALID_VALUE,
	       "an event node cannot be: INVALID_VALUE");
	cuGraphLaunch(x, NULL);
	cuStreamSynchronize(NULL);
	cuMemcpyDtoH(&v, d, 4);
	ok(v == 0, "a launch leaves its memory alone");
	cuGraphNodeSetEnabled(x, set, 1);
	cuGraphLaunch(x, NULL);
	cuStreamSynchronize(NULL);
	cuMemcpyDtoH(&v, d, 4);
	ok(v == 5, "turned on again, it sets it");
	is_res(cuGraphExecEventRecordNodeSetEvent(x, ev, e1), CUDA_SUCCESS,
	       "the executable graph's record node takes another event");
	cuGraphExecDestroy(x);
	/* the graph for Graphviz */
	snprintf(path, sizeof path, "/tmp/cuemu-graph-dot.%d", (int)getpid());
	is_res(cuGraphDebugDotPrint(g, path, 0), CUDA_SUCCESS,
	       "the graph is printed as DOT");
	if ((f = fopen(path, "r"))) {
		while (fgets(line, sizeof line, f)) {
			digraph += !strncmp(line, "digraph", 7);
			arrows += strstr(line, "->") != NULL;
		}
		fclose(f);
	}
	unlink(path);
	ok(digraph == 1 && arrows == 1, "a digraph with its one edge");
	is_res(cuGraphDebugDotPrint(g, "/nonexistent/dir/g.dot", 0),
	       CUDA_ERROR_OPERATING_SYSTEM, "a path it cannot write: "
	       "OPERATING_SYSTEM");
	/* a capture into it, after its first node */
	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	first = set;
	is_res(cuStreamBeginCaptureToGraph(s, g, &first, NULL, 1,
					   CU_STREAM_CAPTURE_MODE_GLOBAL),
	       CUDA_SUCCESS, "a capture into the program's graph");
	cuMemsetD32Async(d, 7, 1, s);
	is_res(cuStreamEndCapture(s, &got), CUDA_SUCCESS, "it ends");
	size_t n = 0, deps = 0;
	cuGraphGetNodes(g, NULL, &n);
	CUgraphNode nodes[4];
	size_t k = 4;
	cuGraphGetNodes(g, nodes, &k);
	cuGraphNodeGetDependencies(nodes[2], NULL, NULL, &deps);
	ok(got == g && n == 3 && deps == 1, "the same graph, its new node "
	   "after the one named");
	cuStreamDestroy(s);
	cuGraphDestroy(g);
	cuEventDestroy(e1);
	cuEventDestroy(e2);
	cuMemFree(d);
}

/* A child graph node's graph replaced in an executable graph by one of
 * the same shape, and refused where the shape differs. */
static void child_update(void)
{
	CUgraph parent, c1, c2, c3;
	CUgraphNode n, cn, e;
	CUgraphExec x;
	CUdeviceptr d;
	CUcontext ctx;
	uint32_t v = 0;

	cuCtxGetCurrent(&ctx);
	cuMemAlloc(&d, 64);
	CUDA_MEMSET_NODE_PARAMS m = { .dst = d, .value = 5, .elementSize = 4,
				      .width = 1, .height = 1 };
	cuGraphCreate(&c1, 0);
	cuGraphAddMemsetNode(&n, c1, NULL, 0, &m, ctx);
	cuGraphCreate(&parent, 0);
	cuGraphAddChildGraphNode(&cn, parent, NULL, 0, c1);
	cuGraphInstantiate(&x, parent, 0);
	cuGraphLaunch(x, NULL);
	cuStreamSynchronize(NULL);
	cuMemcpyDtoH(&v, d, 4);
	ok(v == 5, "the child graph's memset ran");
	m.value = 9;
	cuGraphCreate(&c2, 0);
	cuGraphAddMemsetNode(&n, c2, NULL, 0, &m, ctx);
	is_res(cuGraphExecChildGraphNodeSetParams(x, cn, c2), CUDA_SUCCESS,
	       "a child graph of the same shape takes its place");
	cuGraphLaunch(x, NULL);
	cuStreamSynchronize(NULL);
	cuMemcpyDtoH(&v, d, 4);
	ok(v == 9, "the executable graph sets 9 now");
	cuGraphCreate(&c3, 0);
	cuGraphAddMemsetNode(&n, c3, NULL, 0, &m, ctx);
	cuGraphAddEmptyNode(&e, c3, &n, 1);
	is_res(cuGraphExecChildGraphNodeSetParams(x, cn, c3),
	       CUDA_ERROR_INVALID_VALUE, "one of another shape: INVALID_VALUE");
	is_res(cuGraphExecChildGraphNodeSetParams(x, n, c2),
	       CUDA_ERROR_INVALID_VALUE, "a node that is no child graph's: "
	       "INVALID_VALUE");
	cuGraphExecDestroy(x);
	cuGraphDestroy(parent);
	cuGraphDestroy(c1);
	cuGraphDestroy(c2);
	cuGraphDestroy(c3);
	cuMemFree(d);
}

static int g_destroyed;

static void destroyed(void *p)
{
	g_destroyed += (int)(intptr_t)p;
}

/* A user object lives while the program or a graph, a clone or an
 * executable graph holds a reference, and its destructor runs once. */
static void user_objects(void)
{
	CUuserObject o, m;
	CUgraph g, c;
	CUgraphNode e;
	CUgraphExec x;

	g_destroyed = 0;
	is_res(cuUserObjectCreate(&o, (void *)1, destroyed, 1, 0),
	       CUDA_ERROR_INVALID_VALUE, "without NO_DESTRUCTOR_SYNC: "
	       "INVALID_VALUE");
	is_res(cuUserObjectCreate(&o, (void *)1, destroyed, 1,
				  CU_USER_OBJECT_NO_DESTRUCTOR_SYNC),
	       CUDA_SUCCESS, "a user object of one reference");
	cuGraphCreate(&g, 0);
	cuGraphAddEmptyNode(&e, g, NULL, 0);
	is_res(cuGraphRetainUserObject(g, o, 2, 0), CUDA_SUCCESS,
	       "a graph takes two");
	is_res(cuUserObjectRelease(o, 4), CUDA_ERROR_INVALID_VALUE,
	       "letting go more than the object has: INVALID_VALUE");
	cuUserObjectRelease(o, 1);
	ok(g_destroyed == 0, "the program's gone, the graph's keep it");
	cuGraphClone(&c, g);
	cuGraphDestroy(g);
	ok(g_destroyed == 0, "a clone keeps it after its original goes");
	cuGraphInstantiate(&x, c, 0);
	cuGraphDestroy(c);
	ok(g_destroyed == 0, "an executable graph after its graph goes");
	cuGraphLaunch(x, NULL);
	cuGraphExecDestroy(x);
	ok(g_destroyed == 1, "gone with the last holder, its destructor run "
	   "once");
	cuUserObjectCreate(&m, (void *)10, destroyed, 1,
			   CU_USER_OBJECT_NO_DESTRUCTOR_SYNC);
	cuGraphCreate(&g, 0);
	is_res(cuGraphRetainUserObject(g, m, 1, CU_GRAPH_USER_OBJECT_MOVE),
	       CUDA_SUCCESS, "the program's reference moved to a graph");
	is_res(cuGraphReleaseUserObject(g, m, 2), CUDA_ERROR_INVALID_VALUE,
	       "a graph lets go more than it holds: INVALID_VALUE");
	cuGraphDestroy(g);
	ok(g_destroyed == 11, "gone with the graph");
}

int main(void)
{
	if (cuInit(0) || cuDevicePrimaryCtxRetain(&g_ctx, 0) ||
	    cuCtxSetCurrent(g_ctx)) {
		printf("Bail out! no device\n");
		return 1;
	}
	capture_deps();
	modes();
	legacy();
	merge();
	order();
	memset_box();
	memory();
	any_node();
	more();
	user_objects();
	child_update();
	cuDevicePrimaryCtxRelease(0);
	return done_testing();
}
