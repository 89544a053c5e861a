/*
 * capture.c - stream capture: cuStreamBeginCapture, EndCapture,
 * IsCapturing, GetCaptureInfo, UpdateCaptureDependencies and
 * cuThreadExchangeStreamCaptureMode, and what the other entries ask of a
 * capture: a launch, copy, memset or host function on a capturing stream
 * becomes a node of its graph after the stream's dependencies
 * (cuemu_capture_node); an event recorded there carries the stream's
 * dependencies to the streams that wait for it, which join the capture
 * (fork and join); what cannot be captured refuses and invalidates it.
 *
 * What refuses what is the real driver's (probes/graph.cu,
 * results/graph.txt): the legacy stream cannot capture
 * (STREAM_CAPTURE_UNSUPPORTED), nor a stream twice (ILLEGAL_STATE); a
 * synchronization or query of a capturing stream, a context
 * synchronization and work the capture cannot take (a prefetch, a
 * callback) are STREAM_CAPTURE_UNSUPPORTED; the legacy stream's work
 * while a blocking stream of its device captures (a synchronous copy, a
 * launch) STREAM_CAPTURE_IMPLICIT (model/stream.c refuses those two); an
 * allocation, a free or a synchronization of another stream is unsafe
 * under a global or thread-local capture of the calling thread (or a
 * global one of another thread) and refused, STREAM_CAPTURE_UNSUPPORTED,
 * unless the thread's mode is relaxed; waiting for an event recorded
 * outside the capture is STREAM_CAPTURE_ISOLATION; a query or
 * synchronization of an event recorded in it CAPTURED_EVENT. Each of
 * those invalidates the capture (its end then answers
 * STREAM_CAPTURE_INVALIDATED and no graph) but the elapsed time between
 * captured events, which only refuses. Ending from a stream that joined
 * is STREAM_CAPTURE_UNMATCHED and invalidates; ending with a joined
 * stream's work not joined back STREAM_CAPTURE_UNJOINED.
 *
 * State: the captures, their streams and the events recorded into them,
 * under cap_lock; `live`, how many captures are open, is read without it
 * so that every entry's check costs one load while nothing captures. The
 * state is the process's because a capture spans threads (a stream of
 * another thread may join it, a global capture restricts every thread).
 */
#define CUEMU_SUPERSEDED_ENTRY_POINTS 1
#define CUEMU_PER_THREAD_ENTRY_POINTS 1
#include "driver/graph.h"
#include "model/clock.h"
#include "model/stream.h"
#include "model/uvm.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct capture {
	CUgraph g;
	bool program_graph;     /* the program's (BeginCaptureToGraph) */
	CUstreamCaptureMode mode;
	uint64_t id;
	CUstream origin;
	pthread_t thread;
	bool invalid;
};

/* A stream in a capture, with the nodes its next work depends on. */
struct member {
	CUstream s;
	struct capture *c;
	CUgraphNode *deps;
	size_t ndeps, cap;
};

/* An event recorded into a capture: the nodes a waiter depends on. c is
 * NULL once that capture ended (the event names nothing then). */
struct cevent {
	CUevent e;
	struct capture *c;
	CUgraphNode *deps;
	size_t ndeps;
};

static pthread_mutex_t cap_lock = PTHREAD_MUTEX_INITIALIZER;
static struct member *members;
static size_t nmembers, members_cap;
static struct cevent *cevents;
static size_t ncevents, cevents_cap;
static int live;                /* atomic: open captures */
static uint64_t last_id;        /* cap_lock: capture ids, from 1 */
static __thread CUstreamCaptureMode thread_mode = CU_STREAM_CAPTURE_MODE_GLOBAL;

static bool any_live(void)
{
	return __atomic_load_n(&live, __ATOMIC_ACQUIRE) != 0;
}

/* Whether an event may be marked at all: a capture is open, or one left
 * its events marked. */
static bool any_marked(void)
{
	return any_live() || __atomic_load_n(&ncevents, __ATOMIC_ACQUIRE);
}

/* ------------------------------------------------------------ members */

static struct member *member_of(CUstream s)
{
	for (size_t i = 0; i < nmembers; i++)
		if (members[i].s == s)
			return &members[i];
	return NULL;
}

static int deps_set(struct member *m, CUgraphNode const *d, size_t n)
{
	if (n > m->cap) {
		CUgraphNode *v = realloc(m->deps, n * sizeof *v);
		if (!v)
			return -1;
		m->deps = v;
		m->cap = n;
	}
	if (n)
		memcpy(m->deps, d, n * sizeof *d);
	m->ndeps = n;
	return 0;
}

/* Adds what m does not depend on yet of d. */
static int deps_add(struct member *m, CUgraphNode const *d, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		bool have = false;
		for (size_t j = 0; j < m->ndeps && !have; j++)
			have = m->deps[j] == d[i];
		if (have)
			continue;
		if (m->ndeps == m->cap) {
			size_t c = m->cap ? m->cap * 2 : 4;
			CUgraphNode *v = realloc(m->deps, c * sizeof *v);
			if (!v)
				return -1;
			m->deps = v;
			m->cap = c;
		}
		m->deps[m->ndeps++] = d[i];
	}
	return 0;
}

static CUresult member_add(CUstream s, struct capture *c,
			   CUgraphNode const *d, size_t n)
{
	struct member *m;

	if (nmembers == members_cap) {
		size_t cap = members_cap ? members_cap * 2 : 8;
		struct member *v = realloc(members, cap * sizeof *v);
		if (!v)
			return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "capture");
		members = v;
		members_cap = cap;
	}
	m = &members[nmembers];
	*m = (struct member){ .s = s, .c = c };
	if (deps_set(m, d, n) < 0)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "capture");
	nmembers++;
	cuemu_stream_set_capturing(s, true);
	return CUDA_SUCCESS;
}

/* ----------------------------------------------------- capture's life */

static void invalidate(struct capture *c)
{
	c->invalid = true;
}

/* Every stream of c leaves it, its events name nothing from now on, and
 * c goes (its graph with it unless kept). */
static void capture_end(struct capture *c, bool keep_graph)
{
	for (size_t i = 0; i < nmembers;) {
		if (members[i].c != c) {
			i++;
			continue;
		}
		cuemu_stream_set_capturing(members[i].s, false);
		free(members[i].deps);
		members[i] = members[--nmembers];
	}
	for (size_t i = 0; i < ncevents; i++)
		if (cevents[i].c == c) {
			cevents[i].c = NULL;
			free(cevents[i].deps);
			cevents[i].deps = NULL;
			cevents[i].ndeps = 0;
		}
	if (!keep_graph && !c->program_graph)
		cuemu_graph_free(c->g);
	free(c);
	__atomic_sub_fetch(&live, 1, __ATOMIC_ACQ_REL);
}

/* The model refused work on s (model/stream.c): the captures that work
 * would have broken are invalid. */
static void on_refusal(CUstream s, CUresult r)
{
	int dev = cuemu_stream_device(s);

	pthread_mutex_lock(&cap_lock);
	for (size_t i = 0; i < nmembers; i++) {
		struct member *m = &members[i];
		if (m->s == s ||
		    (r == CUDA_ERROR_STREAM_CAPTURE_IMPLICIT &&
		     cuemu_stream_device(m->s) == dev &&
		     cuemu_stream_blocking(m->s)))
			invalidate(m->c);
	}
	pthread_mutex_unlock(&cap_lock);
}

__attribute__((constructor)) static void capture_init(void)
{
	cuemu_on_capture_refusal(on_refusal);
}

/* ------------------------------------------------- what entries ask */

bool cuemu_capturing(CUstream h)
{
	CUstream s;
	bool in;

	if (!any_live() || cuemu_stream_get(h, &s) != CUDA_SUCCESS)
		return false;
	pthread_mutex_lock(&cap_lock);
	in = member_of(s) != NULL;
	pthread_mutex_unlock(&cap_lock);
	return in;
}

CUresult cuemu_capture_node(CUstream h, CUgraphNodeType t, CUgraphNode *out)
{
	struct member *m;
	CUstream s;
	CUresult r;

	if ((r = cuemu_stream_get(h, &s)) != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&cap_lock);
	if (!(m = member_of(s)))
		r = cuemu_fail(CUDA_ERROR_ILLEGAL_STATE,
			       "the stream does not capture");
	else if (m->c->invalid)
		r = cuemu_fail(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
			       "the stream's capture was invalidated");
	else if ((r = cuemu_graph_node_new(m->c->g, m->deps, m->ndeps, t,
					   out)) == CUDA_SUCCESS &&
		 deps_set(m, out, 1) < 0) {
		cuemu_graph_node_drop(*out);
		r = cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "capture");
	}
	pthread_mutex_unlock(&cap_lock);
	if (r == CUDA_SUCCESS)
		cuemu_host_advance(cuemu_uvm()->graph_capture_call_ns);
	return r;
}

CUresult cuemu_capture_copy(CUstream h, const CUDA_MEMCPY3D *c)
{
	CUgraphNode n;
	CUresult r;

	if ((r = cuemu_capture_node(h, CU_GRAPH_NODE_TYPE_MEMCPY, &n)) ==
	    CUDA_SUCCESS)
		n->p.copy.c = *c;
	return r;
}

CUresult cuemu_capture_memset(CUstream h, const CUDA_MEMSET_NODE_PARAMS *m)
{
	CUgraphNode n;
	CUresult r;

	if ((r = cuemu_capture_node(h, CU_GRAPH_NODE_TYPE_MEMSET, &n)) ==
	    CUDA_SUCCESS)
		n->p.set.m = *m;
	return r;
}

/* Is the calling thread barred from an unsafe call, and by which
 * captures (invalidated)? cap_lock held. */
static bool unsafe_here(void)
{
	pthread_t self = pthread_self();
	bool barred = false;

	if (thread_mode == CU_STREAM_CAPTURE_MODE_RELAXED)
		return false;
	for (size_t i = 0; i < nmembers; i++) {
		struct capture *c = members[i].c;
		bool mine = pthread_equal(c->thread, self);
		if ((mine && c->mode != CU_STREAM_CAPTURE_MODE_RELAXED) ||
		    (!mine && c->mode == CU_STREAM_CAPTURE_MODE_GLOBAL &&
		     thread_mode == CU_STREAM_CAPTURE_MODE_GLOBAL)) {
			invalidate(c);
			barred = true;
		}
	}
	return barred;
}

CUresult cuemu_capture_unsafe(const char *what)
{
	bool barred;

	if (!any_live())
		return CUDA_SUCCESS;
	pthread_mutex_lock(&cap_lock);
	barred = unsafe_here();
	pthread_mutex_unlock(&cap_lock);
	return barred ? cuemu_fail(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
				   "%s is not allowed during a capture in "
				   "this thread's mode", what) :
		CUDA_SUCCESS;
}

CUresult cuemu_capture_sync(CUstream h, const char *what)
{
	struct member *m;
	CUstream s;

	if (!any_live() || cuemu_stream_get(h, &s) != CUDA_SUCCESS)
		return CUDA_SUCCESS;
	pthread_mutex_lock(&cap_lock);
	if ((m = member_of(s)))
		invalidate(m->c);
	pthread_mutex_unlock(&cap_lock);
	if (m)
		return cuemu_fail(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
				  "%s of a capturing stream", what);
	return cuemu_capture_unsafe(what);
}

CUresult cuemu_capture_ctx_sync(void)
{
	bool any = false;

	if (!any_live())
		return CUDA_SUCCESS;
	pthread_mutex_lock(&cap_lock);
	for (size_t i = 0; i < nmembers; i++) {
		invalidate(members[i].c);
		any = true;
	}
	pthread_mutex_unlock(&cap_lock);
	return any ? cuemu_fail(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
				"a context synchronization during a capture") :
		CUDA_SUCCESS;
}

void cuemu_capture_stream_gone(CUstream h)
{
	struct member *m;
	CUstream s;

	if (!any_live() || cuemu_stream_get(h, &s) != CUDA_SUCCESS)
		return;
	pthread_mutex_lock(&cap_lock);
	if ((m = member_of(s))) {
		struct capture *c = m->c;
		invalidate(c);
		if (c->origin == s)
			capture_end(c, false);
		else {
			cuemu_stream_set_capturing(s, false);
			free(m->deps);
			*m = members[--nmembers];
		}
	}
	pthread_mutex_unlock(&cap_lock);
}

/* --------------------------------------------------------------- events */

static struct cevent *cevent_of(CUevent e)
{
	for (size_t i = 0; i < ncevents; i++)
		if (cevents[i].e == e)
			return &cevents[i];
	return NULL;
}

static void cevent_drop(struct cevent *ce)
{
	free(ce->deps);
	*ce = cevents[ncevents - 1];
	__atomic_store_n(&ncevents, ncevents - 1, __ATOMIC_RELEASE);
}

void cuemu_capture_event_forget(CUevent e)
{
	struct cevent *ce;

	if (!any_marked())
		return;
	pthread_mutex_lock(&cap_lock);
	if ((ce = cevent_of(e)))
		cevent_drop(ce);
	pthread_mutex_unlock(&cap_lock);
}

/* e now carries m's dependencies, within m's capture. cap_lock held. */
static CUresult cevent_set(CUevent e, const struct member *m)
{
	struct cevent *ce = cevent_of(e);
	CUgraphNode *d = NULL;

	if (m->ndeps && !(d = malloc(m->ndeps * sizeof *d)))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "capture");
	if (m->ndeps)
		memcpy(d, m->deps, m->ndeps * sizeof *d);
	if (!ce) {
		if (ncevents == cevents_cap) {
			size_t c = cevents_cap ? cevents_cap * 2 : 8;
			struct cevent *v = realloc(cevents, c * sizeof *v);
			if (!v) {
				free(d);
				return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
						  "capture");
			}
			cevents = v;
			cevents_cap = c;
		}
		ce = &cevents[ncevents];
		__atomic_store_n(&ncevents, ncevents + 1, __ATOMIC_RELEASE);
		ce->e = e;
		ce->deps = NULL;
	}
	free(ce->deps);
	ce->c = m->c;
	ce->deps = d;
	ce->ndeps = m->ndeps;
	return CUDA_SUCCESS;
}

CUresult cuemu_capture_record(CUevent e, CUstream h, unsigned flags,
			      bool *taken)
{
	struct member *m;
	CUgraphNode n;
	CUstream s;
	CUresult r;

	*taken = false;
	if (!any_marked() || cuemu_stream_get(h, &s) != CUDA_SUCCESS)
		return CUDA_SUCCESS;
	pthread_mutex_lock(&cap_lock);
	if (!(m = member_of(s))) {
		struct cevent *ce = cevent_of(e);
		if (ce)
			cevent_drop(ce);
		pthread_mutex_unlock(&cap_lock);
		return CUDA_SUCCESS;
	}
	*taken = true;
	if (m->c->invalid)
		r = cuemu_fail(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
			       "the stream's capture was invalidated");
	else
		r = cevent_set(e, m);
	pthread_mutex_unlock(&cap_lock);
	/* an external record is a node of the graph too (after the stream's
	 * work, as the stream's next work is after it) */
	if (r == CUDA_SUCCESS && (flags & CU_EVENT_RECORD_EXTERNAL) &&
	    (r = cuemu_capture_node(h, CU_GRAPH_NODE_TYPE_EVENT_RECORD, &n)) ==
		    CUDA_SUCCESS)
		n->p.event = e;
	return r;
}

/* s waits for ce's work of capture c: s joins c where it captured
 * nothing, or depends on that work too. cap_lock held. */
static CUresult join(CUstream s, struct member *m, const struct cevent *ce)
{
	if (!m)
		return member_add(s, ce->c, ce->deps, ce->ndeps);
	if (m->c != ce->c) {
		invalidate(m->c);
		invalidate(ce->c);
		return cuemu_fail(CUDA_ERROR_STREAM_CAPTURE_MERGE,
				  "the event was recorded in another "
				  "capture");
	}
	if (m->c->invalid)
		return cuemu_fail(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
				  "the stream's capture was invalidated");
	return deps_add(m, ce->deps, ce->ndeps) < 0 ?
		cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "capture") :
		CUDA_SUCCESS;
}

CUresult cuemu_capture_wait(CUstream h, CUevent e, unsigned flags,
			    bool *taken)
{
	struct cevent *ce;
	struct member *m;
	CUgraphNode n;
	CUstream s;
	CUresult r = CUDA_SUCCESS;
	bool node = false;

	*taken = false;
	if (!any_marked())
		return CUDA_SUCCESS;
	if (cuemu_stream_get(h, &s) != CUDA_SUCCESS)
		return CUDA_SUCCESS;
	pthread_mutex_lock(&cap_lock);
	ce = cevent_of(e);
	m = member_of(s);
	if (ce && ce->c) {
		*taken = true;
		r = join(s, m, ce);
	} else if (ce) {
		*taken = true;
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE, "the event was "
			       "recorded in a capture that has ended");
	} else if (m && (flags & CU_EVENT_WAIT_EXTERNAL)) {
		*taken = node = true;
	} else if (m) {
		*taken = true;
		invalidate(m->c);
		r = cuemu_fail(CUDA_ERROR_STREAM_CAPTURE_ISOLATION,
			       "a capturing stream waits for an event "
			       "recorded outside its capture");
	}
	pthread_mutex_unlock(&cap_lock);
	if (node && (r = cuemu_capture_node(h, CU_GRAPH_NODE_TYPE_WAIT_EVENT,
					    &n)) == CUDA_SUCCESS)
		n->p.event = e;
	return r;
}

CUresult cuemu_capture_event_use(CUevent e, bool invalidating)
{
	struct cevent *ce;
	CUresult r = CUDA_SUCCESS;

	if (!any_marked())
		return CUDA_SUCCESS;
	pthread_mutex_lock(&cap_lock);
	if ((ce = cevent_of(e)) && ce->c) {
		if (invalidating)
			invalidate(ce->c);
		r = cuemu_fail(CUDA_ERROR_CAPTURED_EVENT,
			       "the event was recorded in a capture");
	} else if (ce) {
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE, "the event was "
			       "recorded in a capture that has ended");
	}
	pthread_mutex_unlock(&cap_lock);
	return r;
}

/* --------------------------------------------- a graph's memory */

CUresult cuemu_capture_alloc(CUstream h, size_t size, CUcontext ctx, int dev,
			     CUdeviceptr *out)
{
	struct gmem *m;
	CUgraphNode n;
	CUresult r;

	if ((r = cuemu_gmem_new(ctx, dev, size, &m)) != CUDA_SUCCESS)
		return r;
	if ((r = cuemu_capture_node(h, CU_GRAPH_NODE_TYPE_MEM_ALLOC, &n))) {
		cuemu_gmem_unref(m);
		return r;
	}
	n->p.alloc.a = (CUDA_MEM_ALLOC_NODE_PARAMS){
		.poolProps = { .allocType = CU_MEM_ALLOCATION_TYPE_PINNED,
			       .location = { CU_MEM_LOCATION_TYPE_DEVICE, dev } },
		.bytesize = size, .dptr = cuemu_gmem_ptr(m),
	};
	n->p.alloc.m = m;
	*out = cuemu_gmem_ptr(m);
	return CUDA_SUCCESS;
}

CUresult cuemu_capture_free(CUstream h, CUdeviceptr p)
{
	CUgraphNode n;
	CUresult r;

	if (!cuemu_gmem_owns(p))
		return cuemu_capture_sync(h, "a free of memory no graph "
					  "allocated");
	if ((r = cuemu_capture_node(h, CU_GRAPH_NODE_TYPE_MEM_FREE, &n)) ==
	    CUDA_SUCCESS)
		n->p.free_ptr = p;
	return r;
}

/* ------------------------------------------------------------ entries */

static bool mode_valid(CUstreamCaptureMode mode)
{
	return mode == CU_STREAM_CAPTURE_MODE_GLOBAL ||
	       mode == CU_STREAM_CAPTURE_MODE_THREAD_LOCAL ||
	       mode == CU_STREAM_CAPTURE_MODE_RELAXED;
}

/* A capture of h into graph g (made here where NULL), its first nodes
 * after deps. */
static CUresult begin_into(CUstream h, CUstreamCaptureMode mode, CUgraph g,
			   const CUgraphNode *deps, size_t ndeps)
{
	struct capture *c;
	CUstream s;
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)) != CUDA_SUCCESS)
		return r;
	if (!mode_valid(mode))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "capture mode %d is none", (int)mode);
	if ((r = cuemu_stream_get(h, &s)) != CUDA_SUCCESS)
		return r;
	if (!h || h == CU_STREAM_LEGACY)
		return cuemu_fail(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
				  "the legacy stream cannot capture");
	if (g && (r = cuemu_graph_check(g)) != CUDA_SUCCESS)
		return r;
	if (ndeps && !deps)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%zu dependencies at NULL", ndeps);
	for (size_t i = 0; i < ndeps; i++)
		if ((r = cuemu_graph_node_check(deps[i])) != CUDA_SUCCESS ||
		    deps[i]->graph != g)
			return r ? r : cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				"dependency %zu is not of the graph", i);
	if (!(c = calloc(1, sizeof *c)))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "capture");
	c->program_graph = g != NULL;
	if (g)
		c->g = g;
	else if ((r = cuemu_graph_new(&c->g)) != CUDA_SUCCESS) {
		free(c);
		return r;
	}
	c->mode = mode;
	c->origin = s;
	c->thread = pthread_self();
	pthread_mutex_lock(&cap_lock);
	if (member_of(s))
		r = cuemu_fail(CUDA_ERROR_ILLEGAL_STATE,
			       "the stream captures already");
	else if ((r = member_add(s, c, deps, ndeps)) == CUDA_SUCCESS) {
		c->id = ++last_id;
		__atomic_add_fetch(&live, 1, __ATOMIC_ACQ_REL);
	}
	pthread_mutex_unlock(&cap_lock);
	if (r != CUDA_SUCCESS) {
		if (!c->program_graph)
			cuemu_graph_free(c->g);
		free(c);
	}
	return r;
}

static CUresult begin(CUstream h, CUstreamCaptureMode mode)
{
	return begin_into(h, mode, NULL, NULL, 0);
}

static CUresult begin_to_graph(CUstream h, CUgraph g, const CUgraphNode *deps,
			       const CUgraphEdgeData *edges, size_t n,
			       CUstreamCaptureMode mode)
{
	CUresult r;

	if (!g)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "the graph is NULL");
	for (size_t i = 0; edges && i < n; i++)
		if (edges[i].type || edges[i].from_port || edges[i].to_port)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "only default edges");
	r = begin_into(h, mode, g, deps, n);
	return r;
}

CUresult cuStreamBeginCaptureToGraph(CUstream hStream, CUgraph hGraph,
				     const CUgraphNode *dependencies,
				     const CUgraphEdgeData *dependencyData,
				     size_t numDependencies,
				     CUstreamCaptureMode mode)
{
	return begin_to_graph(hStream, hGraph, dependencies, dependencyData,
			      numDependencies, mode);
}

CUresult cuStreamBeginCaptureToGraph_ptsz(CUstream hStream, CUgraph hGraph,
					  const CUgraphNode *dependencies,
					  const CUgraphEdgeData *dependencyData,
					  size_t numDependencies,
					  CUstreamCaptureMode mode)
{
	return begin_to_graph(hStream ? hStream : CU_STREAM_PER_THREAD,
			      hGraph, dependencies, dependencyData,
			      numDependencies, mode);
}

CUresult cuStreamBeginCapture_v2(CUstream hStream, CUstreamCaptureMode mode)
{
	return begin(hStream, mode);
}

/* CUDA 10.0's form, a global capture. */
CUresult cuStreamBeginCapture(CUstream hStream)
{
	return begin(hStream, CU_STREAM_CAPTURE_MODE_GLOBAL);
}

CUresult cuStreamBeginCapture_ptsz(CUstream hStream)
{
	return begin(hStream ? hStream : CU_STREAM_PER_THREAD,
		     CU_STREAM_CAPTURE_MODE_GLOBAL);
}

CUresult cuStreamBeginCapture_v2_ptsz(CUstream hStream,
				      CUstreamCaptureMode mode)
{
	return begin(hStream ? hStream : CU_STREAM_PER_THREAD, mode);
}

/* Marks (seen) the nodes in of and every node they depend on: the work
 * a stream's end follows. */
static bool mark_ancestors(CUgraph g, CUgraphNode const *of, size_t nof)
{
	size_t cap = nof + 1, top = 0;
	CUgraphNode *stack;

	for (size_t i = 0; i < g->n; i++) {
		g->nodes[i]->seen = false;
		cap += g->nodes[i]->ndeps;
	}
	if (!(stack = malloc(cap * sizeof *stack)))
		return false;
	for (size_t i = 0; i < nof; i++)
		stack[top++] = of[i];
	while (top) {
		CUgraphNode n = stack[--top];
		if (n->seen)
			continue;
		n->seen = true;
		for (size_t d = 0; d < n->ndeps; d++)
			stack[top++] = n->deps[d];
	}
	free(stack);
	return true;
}

/* Every stream that joined c has its work joined back into the origin's:
 * each of its dependencies is one the origin's work follows (one walk of
 * the graph, whatever the streams). cap_lock held. */
static bool all_joined(struct capture *c)
{
	struct member *o = member_of(c->origin);

	if (!mark_ancestors(c->g, o->deps, o->ndeps))
		return true;
	for (size_t i = 0; i < nmembers; i++) {
		struct member *m = &members[i];
		if (m->c != c || m == o)
			continue;
		for (size_t d = 0; d < m->ndeps; d++)
			if (!m->deps[d]->seen)
				return false;
	}
	return true;
}

static CUresult end(CUstream h, CUgraph *out)
{
	struct member *m;
	struct capture *c;
	CUstream s;
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)) != CUDA_SUCCESS ||
	    (r = cuemu_stream_get(h, &s)) != CUDA_SUCCESS)
		return r;
	if (out)
		*out = NULL;
	pthread_mutex_lock(&cap_lock);
	if (!(m = member_of(s))) {
		pthread_mutex_unlock(&cap_lock);
		return cuemu_fail(CUDA_ERROR_ILLEGAL_STATE,
				  "the stream does not capture");
	}
	c = m->c;
	if (c->origin != s) {
		invalidate(c);
		r = cuemu_fail(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED,
			       "the capture began on another stream");
	} else if (c->invalid) {
		r = cuemu_fail(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
			       "the capture was invalidated");
		capture_end(c, false);
	} else if (!all_joined(c)) {
		r = cuemu_fail(CUDA_ERROR_STREAM_CAPTURE_UNJOINED,
			       "a stream that joined the capture was not "
			       "joined back into its first stream");
		capture_end(c, false);
	} else {
		if (out)
			*out = c->g;
		capture_end(c, out != NULL);
	}
	pthread_mutex_unlock(&cap_lock);
	return r;
}

CUresult cuStreamEndCapture(CUstream hStream, CUgraph *phGraph)
{
	return end(hStream, phGraph);
}

CUresult cuStreamEndCapture_ptsz(CUstream hStream, CUgraph *phGraph)
{
	return end(hStream ? hStream : CU_STREAM_PER_THREAD, phGraph);
}

/* What a stream's capture is, under cap_lock: the status, and the member
 * for an active one. */
static CUstreamCaptureStatus status_of(CUstream s, struct member **m)
{
	*m = member_of(s);
	return !*m ? CU_STREAM_CAPTURE_STATUS_NONE :
	       (*m)->c->invalid ? CU_STREAM_CAPTURE_STATUS_INVALIDATED :
	       CU_STREAM_CAPTURE_STATUS_ACTIVE;
}

static CUresult is_capturing(CUstream h, CUstreamCaptureStatus *out)
{
	struct member *m;
	CUstream s;
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)) != CUDA_SUCCESS)
		return r;
	if (!out)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "captureStatus is NULL");
	if ((r = cuemu_stream_get(h, &s)) != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&cap_lock);
	*out = status_of(s, &m);
	pthread_mutex_unlock(&cap_lock);
	return CUDA_SUCCESS;
}

CUresult cuStreamIsCapturing(CUstream hStream,
			     CUstreamCaptureStatus *captureStatus)
{
	return is_capturing(hStream, captureStatus);
}

CUresult cuStreamIsCapturing_ptsz(CUstream hStream,
				  CUstreamCaptureStatus *captureStatus)
{
	return is_capturing(hStream ? hStream : CU_STREAM_PER_THREAD,
			    captureStatus);
}

/* The stream's capture, its id, graph and the stream's dependencies (an
 * array of the capture's, good until the stream's next capture call). */
static CUresult info(CUstream h, CUstreamCaptureStatus *status, cuuint64_t *id,
		     CUgraph *graph, const CUgraphNode **deps,
		     const CUgraphEdgeData **edges, size_t *ndeps)
{
	static const CUgraphEdgeData none[64];
	struct member *m;
	CUstream s;
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)) != CUDA_SUCCESS)
		return r;
	if (!status)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "captureStatus_out is NULL");
	if ((r = cuemu_stream_get(h, &s)) != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&cap_lock);
	*status = status_of(s, &m);
	if (m && *status == CU_STREAM_CAPTURE_STATUS_ACTIVE) {
		if (id)
			*id = m->c->id;
		if (graph)
			*graph = m->c->g;
		if (deps)
			*deps = m->deps;
		if (edges)
			*edges = m->ndeps <= 64 ? none : NULL;
		if (ndeps)
			*ndeps = m->ndeps;
	}
	pthread_mutex_unlock(&cap_lock);
	return CUDA_SUCCESS;
}

CUresult cuStreamGetCaptureInfo_v3(CUstream hStream,
				   CUstreamCaptureStatus *captureStatus_out,
				   cuuint64_t *id_out, CUgraph *graph_out,
				   const CUgraphNode **dependencies_out,
				   const CUgraphEdgeData **edgeData_out,
				   size_t *numDependencies_out)
{
	return info(hStream, captureStatus_out, id_out, graph_out,
		    dependencies_out, edgeData_out, numDependencies_out);
}

CUresult cuStreamGetCaptureInfo_v3_ptsz(CUstream hStream,
					CUstreamCaptureStatus *captureStatus_out,
					cuuint64_t *id_out, CUgraph *graph_out,
					const CUgraphNode **dependencies_out,
					const CUgraphEdgeData **edgeData_out,
					size_t *numDependencies_out)
{
	return info(hStream ? hStream : CU_STREAM_PER_THREAD,
		    captureStatus_out, id_out, graph_out, dependencies_out,
		    edgeData_out, numDependencies_out);
}

CUresult cuStreamGetCaptureInfo_v2(CUstream hStream,
				   CUstreamCaptureStatus *captureStatus_out,
				   cuuint64_t *id_out, CUgraph *graph_out,
				   const CUgraphNode **dependencies_out,
				   size_t *numDependencies_out)
{
	return info(hStream, captureStatus_out, id_out, graph_out,
		    dependencies_out, NULL, numDependencies_out);
}

CUresult cuStreamGetCaptureInfo_v2_ptsz(CUstream hStream,
					CUstreamCaptureStatus *captureStatus_out,
					cuuint64_t *id_out, CUgraph *graph_out,
					const CUgraphNode **dependencies_out,
					size_t *numDependencies_out)
{
	return info(hStream ? hStream : CU_STREAM_PER_THREAD,
		    captureStatus_out, id_out, graph_out, dependencies_out,
		    NULL, numDependencies_out);
}

CUresult cuStreamGetCaptureInfo(CUstream hStream,
				CUstreamCaptureStatus *captureStatus_out,
				cuuint64_t *id_out)
{
	return info(hStream, captureStatus_out, id_out, NULL, NULL, NULL,
		    NULL);
}

CUresult cuStreamGetCaptureInfo_ptsz(CUstream hStream,
				     CUstreamCaptureStatus *captureStatus_out,
				     cuuint64_t *id_out)
{
	return info(hStream ? hStream : CU_STREAM_PER_THREAD,
		    captureStatus_out, id_out, NULL, NULL, NULL, NULL);
}

static CUresult update_deps(CUstream h, CUgraphNode *deps, size_t n,
			    unsigned flags)
{
	struct member *m;
	CUstream s;
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)) != CUDA_SUCCESS)
		return r;
	if (flags > CU_STREAM_SET_CAPTURE_DEPENDENCIES || (n && !deps))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s",
				  n && !deps ? "dependencies are NULL" :
				  "flags are none");
	if ((r = cuemu_stream_get(h, &s)) != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&cap_lock);
	if (!(m = member_of(s)))
		r = cuemu_fail(CUDA_ERROR_ILLEGAL_STATE,
			       "the stream does not capture");
	else if (m->c->invalid)
		r = cuemu_fail(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
			       "the stream's capture was invalidated");
	for (size_t i = 0; i < n && r == CUDA_SUCCESS; i++)
		if ((r = cuemu_graph_node_check(deps[i])) == CUDA_SUCCESS &&
		    deps[i]->graph != m->c->g)
			r = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				       "node %zu is not of the capture's "
				       "graph", i);
	if (r == CUDA_SUCCESS &&
	    (flags == CU_STREAM_SET_CAPTURE_DEPENDENCIES ?
		     deps_set(m, deps, n) : deps_add(m, deps, n)) < 0)
		r = cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "capture");
	pthread_mutex_unlock(&cap_lock);
	return r;
}

CUresult cuStreamUpdateCaptureDependencies(CUstream hStream,
					   CUgraphNode *dependencies,
					   size_t numDependencies,
					   unsigned int flags)
{
	return update_deps(hStream, dependencies, numDependencies, flags);
}

CUresult cuStreamUpdateCaptureDependencies_ptsz(CUstream hStream,
						CUgraphNode *dependencies,
						size_t numDependencies,
						unsigned int flags)
{
	return update_deps(hStream ? hStream : CU_STREAM_PER_THREAD,
			   dependencies, numDependencies, flags);
}

CUresult cuStreamUpdateCaptureDependencies_v2(CUstream hStream,
					      CUgraphNode *dependencies,
					      const CUgraphEdgeData *edgeData,
					      size_t numDependencies,
					      unsigned int flags)
{
	for (size_t i = 0; edgeData && i < numDependencies; i++)
		if (edgeData[i].type || edgeData[i].from_port ||
		    edgeData[i].to_port)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "only default edges");
	return update_deps(hStream, dependencies, numDependencies, flags);
}

CUresult cuStreamUpdateCaptureDependencies_v2_ptsz(
	CUstream hStream, CUgraphNode *dependencies,
	const CUgraphEdgeData *edgeData, size_t numDependencies,
	unsigned int flags)
{
	return cuStreamUpdateCaptureDependencies_v2(
		hStream ? hStream : CU_STREAM_PER_THREAD, dependencies,
		edgeData, numDependencies, flags);
}

CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode)
{
	CUstreamCaptureMode old;

	if (!mode || !mode_valid(*mode))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s",
				  !mode ? "mode is NULL" :
				  "the mode is none");
	old = thread_mode;
	thread_mode = *mode;
	*mode = old;
	return CUDA_SUCCESS;
}
