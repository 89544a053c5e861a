// graph.cu - stream capture and graphs as the runtime answers them: what a
// capture refuses and what that does to it, how streams fork and join a
// capture, the graph calls' refusals, and what a graph launch costs beside
// the same work launched on a stream.
// Lines: graph.<section>.<case>: <result> [details]
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o graph graph.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *en(cudaError_t r) { return cudaGetErrorName(r); }
#define P(...) do { printf(__VA_ARGS__); fflush(stdout); } while (0)

__global__ void inc(int *p) { atomicAdd(p, 1); }
__global__ void add(int *p, int v) { atomicAdd(p, v); }
__global__ void empty(int *p, int t) { if (t < 0) p[0] = t; }
__global__ void spin(long long ns)
{
	long long t0 = clock64();
	while (clock64() - t0 < ns * 2) // ~2 GHz
		;
}

static void host_fn(void *p) { ++*(int *)p; }
static void CUDART_CB cb(cudaStream_t, cudaError_t, void *) {}

static const char *st(cudaStreamCaptureStatus s)
{
	return s == cudaStreamCaptureStatusNone ? "none" :
	       s == cudaStreamCaptureStatusActive ? "active" :
	       s == cudaStreamCaptureStatusInvalidated ? "invalidated" : "?";
}

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static size_t nodes(cudaGraph_t g)
{
	size_t n = 0;
	cudaGraphGetNodes(g, NULL, &n);
	return n;
}

static int *dbuf, *dbuf2, *hpin, *managed;
static int hpage[64];
static cudaStream_t s, s2, s3nb;

enum { X_MALLOC, X_FREE, X_MEMCPY, X_MEMSET, X_SSYNC, X_SQUERY, X_DSYNC,
       X_LEGACY_LAUNCH, X_LEGACY_ASYNC, X_OTHER_SYNC, X_EQUERY, X_ESYNC,
       X_MALLOCHOST, X_MALLOCMANAGED, X_MALLOCASYNC, X_PREFETCH, X_CALLBACK,
       X_NB_LAUNCH, X_PAGEABLE_ASYNC, X_PINNED_ASYNC, X_HOSTFN, X_MEMSETASYNC,
       X_EVENT_ELAPSED, X_FREEASYNC, X_PTSZ_LAUNCH, X_N };
static const char *xname[X_N] = {
	"malloc", "free", "memcpy_sync", "memset_sync", "stream_sync",
	"stream_query", "device_sync", "legacy_launch", "legacy_memcpyasync",
	"other_stream_sync", "event_query", "event_sync", "malloc_host",
	"malloc_managed", "malloc_async", "prefetch", "add_callback",
	"nonblocking_launch", "pageable_memcpyasync", "pinned_memcpyasync",
	"host_func", "memsetasync", "event_elapsed", "free_async",
	"per_thread_launch" };

static cudaError_t do_x(int x, cudaEvent_t e)
{
	void *p = NULL;
	float ms;
	cudaEvent_t e0;

	switch (x) {
	case X_MALLOC: return cudaMalloc(&p, 1024);
	case X_FREE: { static void *q; if (!q) { cudaStreamCaptureMode m = cudaStreamCaptureModeRelaxed; cudaThreadExchangeStreamCaptureMode(&m); cudaMalloc(&q, 64); cudaThreadExchangeStreamCaptureMode(&m); } cudaError_t r = cudaFree(q); if (r == cudaSuccess) q = NULL; return r; }
	case X_MEMCPY: return cudaMemcpy(dbuf2, hpin, 4, cudaMemcpyHostToDevice);
	case X_MEMSET: return cudaMemset(dbuf2, 0, 4);
	case X_SSYNC: return cudaStreamSynchronize(s);
	case X_SQUERY: return cudaStreamQuery(s);
	case X_DSYNC: return cudaDeviceSynchronize();
	case X_LEGACY_LAUNCH: inc<<<1, 1>>>(dbuf2); return cudaGetLastError();
	case X_LEGACY_ASYNC: return cudaMemcpyAsync(dbuf2, hpin, 4, cudaMemcpyHostToDevice, 0);
	case X_OTHER_SYNC: return cudaStreamSynchronize(s2);
	case X_EQUERY: cudaEventRecord(e, s); return cudaEventQuery(e);
	case X_ESYNC: cudaEventRecord(e, s); return cudaEventSynchronize(e);
	case X_MALLOCHOST: return cudaMallocHost(&p, 64);
	case X_MALLOCMANAGED: return cudaMallocManaged(&p, 64);
	case X_MALLOCASYNC: return cudaMallocAsync(&p, 1024, s);
	case X_PREFETCH: { cudaMemLocation l = { cudaMemLocationTypeDevice, 0 }; return cudaMemPrefetchAsync(managed, 4096, l, 0, s); }
	case X_CALLBACK: return cudaStreamAddCallback(s, cb, NULL, 0);
	case X_NB_LAUNCH: inc<<<1, 1, 0, s3nb>>>(dbuf2); return cudaGetLastError();
	case X_PAGEABLE_ASYNC: return cudaMemcpyAsync(dbuf2, hpage, 4, cudaMemcpyHostToDevice, s);
	case X_PINNED_ASYNC: return cudaMemcpyAsync(dbuf2, hpin, 4, cudaMemcpyHostToDevice, s);
	case X_HOSTFN: return cudaLaunchHostFunc(s, host_fn, hpin);
	case X_MEMSETASYNC: return cudaMemsetAsync(dbuf2, 0, 4, s);
	case X_EVENT_ELAPSED: cudaEventCreate(&e0); cudaEventRecord(e0, s); cudaEventRecord(e, s); { cudaError_t r = cudaEventElapsedTime(&ms, e0, e); cudaEventDestroy(e0); return r; }
	case X_FREEASYNC: { void *q = NULL; cudaMallocAsync(&q, 64, s); return cudaFreeAsync(q, s); }
	case X_PTSZ_LAUNCH: inc<<<1, 1, 0, cudaStreamPerThread>>>(dbuf2); return cudaGetLastError();
	}
	return cudaErrorUnknown;
}

static void one_x(const char *mode_name, cudaStreamCaptureMode mode, int x)
{
	cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
	cudaGraph_t g = (cudaGraph_t)1;
	cudaEvent_t e;
	cudaError_t r, re, rl;

	cudaEventCreate(&e);
	cudaGetLastError();
	r = cudaStreamBeginCapture(s, mode);
	if (r != cudaSuccess) {
		P("graph.%s.%s: begin %s\n", mode_name, xname[x], en(r));
		return;
	}
	inc<<<1, 1, 0, s>>>(dbuf);
	r = do_x(x, e);
	cudaStreamIsCapturing(s, &cs);
	rl = cudaGetLastError();
	re = cudaStreamEndCapture(s, &g);
	P("graph.%s.%s: %s status=%s last=%s end=%s graph=%s nodes=%zu\n",
	  mode_name, xname[x], en(r), st(cs), en(rl), en(re),
	  g ? "set" : "NULL", g ? nodes(g) : 0);
	if (g && re == cudaSuccess)
		cudaGraphDestroy(g);
	cudaDeviceSynchronize();
	cudaGetLastError();
	cudaEventDestroy(e);
}

static void capture_state(void)
{
	cudaStreamCaptureStatus cs;
	cudaGraph_t g = (cudaGraph_t)1;
	cudaError_t r;
	unsigned long long id1 = 0, id2 = 0;
	const cudaGraphNode_t *deps = NULL;
	size_t nd = 99;

	r = cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal);
	P("graph.state.begin_legacy: %s\n", en(r));
	if (r == cudaSuccess) { cudaStreamEndCapture(0, &g); }
	cudaGetLastError();
	r = cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeGlobal);
	P("graph.state.begin_per_thread: %s\n", en(r));
	if (r == cudaSuccess) { r = cudaStreamEndCapture(cudaStreamPerThread, &g); P("graph.state.end_per_thread: %s nodes=%zu\n", en(r), g ? nodes(g) : 0); }
	r = cudaStreamBeginCapture(s, (cudaStreamCaptureMode)7);
	P("graph.state.begin_bad_mode: %s\n", en(r));
	if (r == cudaSuccess) cudaStreamEndCapture(s, &g);
	g = (cudaGraph_t)1;
	r = cudaStreamEndCapture(s, &g);
	P("graph.state.end_not_capturing: %s graph=%s\n", en(r), g == (cudaGraph_t)1 ? "untouched" : g ? "set" : "NULL");
	r = cudaStreamIsCapturing(s, &cs);
	P("graph.state.is_capturing_idle: %s %s\n", en(r), st(cs));
	r = cudaStreamIsCapturing(s, NULL);
	P("graph.state.is_capturing_null: %s\n", en(r));
	r = cudaStreamGetCaptureInfo(s, &cs, &id1);
	P("graph.state.info_idle: %s %s id=%llu\n", en(r), st(cs), id1);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	r = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	P("graph.state.begin_twice: %s\n", en(r));
	r = cudaStreamIsCapturing(s, &cs);
	P("graph.state.is_capturing_active: %s %s\n", en(r), st(cs));
	r = cudaStreamGetCaptureInfo(s, &cs, &id1, &g, &deps, NULL, &nd);
	P("graph.state.info_start: %s %s id=%s graph=%s ndeps=%zu\n", en(r), st(cs), id1 ? "nonzero" : "0", g ? "set" : "NULL", nd);
	inc<<<1, 1, 0, s>>>(dbuf);
	inc<<<1, 1, 0, s>>>(dbuf);
	r = cudaStreamGetCaptureInfo(s, &cs, &id2, &g, &deps, NULL, &nd);
	P("graph.state.info_after_two: %s %s same_id=%d ndeps=%zu\n", en(r), st(cs), id1 == id2, nd);
	r = cudaStreamEndCapture(s, NULL);
	P("graph.state.end_null_out: %s\n", en(r));
	r = cudaStreamIsCapturing(s, &cs);
	P("graph.state.after_end_null: %s %s\n", en(r), st(cs));
	if (cs != cudaStreamCaptureStatusNone) { r = cudaStreamEndCapture(s, &g); P("graph.state.end_again: %s nodes=%zu\n", en(r), g ? nodes(g) : 0); }
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	g = (cudaGraph_t)1;
	r = cudaStreamEndCapture(s, &g);
	P("graph.state.empty_capture: %s graph=%s nodes=%zu\n", en(r), g ? "set" : "NULL", g ? nodes(g) : 0);
	if (g) cudaGraphDestroy(g);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	r = cudaStreamEndCapture(s, &g);
	P("graph.state.end_after_begin_twice: %s\n", en(r));
	r = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	unsigned long long id3 = 0;
	cudaStreamGetCaptureInfo(s, &cs, &id3);
	r = cudaStreamEndCapture(s, &g);
	P("graph.state.ids: next=%lld\n", (long long)(id3 - id1));
	cudaGraphDestroy(g);
	cudaGetLastError();
}

static void fork_join(void)
{
	cudaEvent_t e1, e2, eo;
	cudaGraph_t g = NULL;
	cudaStreamCaptureStatus cs;
	cudaError_t r;
	size_t ne = 0, nr = 0;

	cudaEventCreate(&e1);
	cudaEventCreate(&e2);
	cudaEventCreate(&eo);
	// unjoined
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	inc<<<1, 1, 0, s>>>(dbuf);
	cudaEventRecord(e1, s);
	r = cudaStreamWaitEvent(s2, e1, 0);
	cudaStreamIsCapturing(s2, &cs);
	P("graph.fork.wait_joins: %s s2=%s\n", en(r), st(cs));
	inc<<<1, 1, 0, s2>>>(dbuf);
	r = cudaStreamEndCapture(s2, &g);
	P("graph.fork.end_from_forked: %s graph=%s\n", en(r), g ? "set" : "NULL");
	cudaStreamIsCapturing(s, &cs);
	P("graph.fork.origin_after: %s\n", st(cs));
	g = (cudaGraph_t)1;
	r = cudaStreamEndCapture(s, &g);
	P("graph.fork.end_unjoined: %s graph=%s\n", en(r), g ? "set" : "NULL");
	cudaStreamIsCapturing(s2, &cs);
	P("graph.fork.s2_after_unjoined: %s\n", st(cs));
	if (cs != cudaStreamCaptureStatusNone) { r = cudaStreamEndCapture(s2, &g); P("graph.fork.s2_end: %s\n", en(r)); }
	cudaGetLastError();
	// proper
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	inc<<<1, 1, 0, s>>>(dbuf);
	cudaEventRecord(e1, s);
	cudaStreamWaitEvent(s2, e1, 0);
	add<<<1, 1, 0, s>>>(dbuf, 10);
	add<<<1, 1, 0, s2>>>(dbuf, 100);
	cudaEventRecord(e2, s2);
	cudaStreamWaitEvent(s, e2, 0);
	add<<<1, 1, 0, s>>>(dbuf, 1000);
	r = cudaStreamEndCapture(s, &g);
	cudaGraphGetEdges(g, NULL, NULL, NULL, &ne);
	cudaGraphGetRootNodes(g, NULL, &nr);
	P("graph.fork.joined: %s nodes=%zu edges=%zu roots=%zu\n", en(r), nodes(g), ne, nr);
	cudaStreamIsCapturing(s2, &cs);
	P("graph.fork.s2_after_join: %s\n", st(cs));
	cudaGraphExec_t x;
	cudaMemset(dbuf, 0, 4);
	r = cudaGraphInstantiate(&x, g, 0);
	P("graph.fork.instantiate: %s\n", en(r));
	r = cudaGraphLaunch(x, s);
	cudaStreamSynchronize(s);
	int v = 0;
	cudaMemcpy(&v, dbuf, 4, cudaMemcpyDeviceToHost);
	P("graph.fork.result: %s value=%d\n", en(r), v);
	r = cudaGraphLaunch(x, s);
	r = cudaGraphLaunch(x, s);
	cudaStreamSynchronize(s);
	cudaMemcpy(&v, dbuf, 4, cudaMemcpyDeviceToHost);
	P("graph.fork.result_3: %s value=%d\n", en(r), v);
	cudaGraphDestroy(g);
	r = cudaGraphLaunch(x, s);
	cudaStreamSynchronize(s);
	cudaMemcpy(&v, dbuf, 4, cudaMemcpyDeviceToHost);
	P("graph.fork.after_graph_destroy: %s value=%d\n", en(r), v);
	cudaGraphExecDestroy(x);
	// event recorded outside the capture, waited inside
	cudaEventRecord(eo, s2);
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	r = cudaStreamWaitEvent(s, eo, 0);
	inc<<<1, 1, 0, s>>>(dbuf);
	cudaError_t re = cudaStreamEndCapture(s, &g);
	P("graph.fork.wait_outside_event: %s end=%s nodes=%zu\n", en(r), en(re), re == cudaSuccess ? nodes(g) : 0);
	if (re == cudaSuccess) cudaGraphDestroy(g);
	cudaGetLastError();
	// a captured event waited by a stream after the capture ended
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	inc<<<1, 1, 0, s>>>(dbuf);
	cudaEventRecord(e1, s);
	cudaStreamEndCapture(s, &g);
	r = cudaStreamWaitEvent(s2, e1, 0);
	P("graph.fork.wait_ended_capture_event: %s\n", en(r));
	r = cudaEventQuery(e1);
	P("graph.fork.query_ended_capture_event: %s\n", en(r));
	cudaGraphDestroy(g);
	cudaGetLastError();
	// external record makes a node
	cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
	inc<<<1, 1, 0, s>>>(dbuf);
	r = cudaEventRecordWithFlags(e1, s, cudaEventRecordExternal);
	cudaStreamWaitEvent(s, eo, cudaEventWaitExternal);
	re = cudaStreamEndCapture(s, &g);
	P("graph.fork.external: %s end=%s nodes=%zu\n", en(r), en(re), re == cudaSuccess ? nodes(g) : 0);
	if (re == cudaSuccess) {
		cudaGraphNode_t n[4];
		size_t k = 4;
		cudaGraphGetNodes(g, n, &k);
		for (size_t i = 0; i < k; i++) {
			cudaGraphNodeType t;
			cudaGraphNodeGetType(n[i], &t);
			P("graph.fork.external_node%zu: type=%d\n", i, (int)t);
		}
		cudaGraphDestroy(g);
	}
	cudaGetLastError();
	cudaEventDestroy(e1);
	cudaEventDestroy(e2);
	cudaEventDestroy(eo);
}

static void api_errors(void)
{
	cudaGraph_t g, g2;
	cudaGraphExec_t x;
	cudaGraphNode_t a, b, c, o;
	cudaError_t r;
	int v = 5;
	void *args[2] = { &dbuf, &v };

	r = cudaGraphCreate(&g, 1);
	P("graph.api.create_flags1: %s\n", en(r));
	r = cudaGraphCreate(NULL, 0);
	P("graph.api.create_null: %s\n", en(r));
	r = cudaGraphInstantiate(&x, NULL, 0);
	P("graph.api.instantiate_null_graph: %s\n", en(r));
	cudaGraphCreate(&g, 0);
	r = cudaGraphInstantiate(NULL, g, 0);
	P("graph.api.instantiate_null_out: %s\n", en(r));
	r = cudaGraphInstantiate(&x, g, 0x100);
	P("graph.api.instantiate_bad_flags: %s\n", en(r));
	r = cudaGraphInstantiate(&x, g, 0);
	P("graph.api.instantiate_empty: %s\n", en(r));
	if (r == cudaSuccess) {
		r = cudaGraphLaunch(x, s);
		P("graph.api.launch_empty: %s sync=%s\n", en(r), en(cudaStreamSynchronize(s)));
		cudaGraphExecDestroy(x);
	}
	r = cudaGraphLaunch(NULL, s);
	P("graph.api.launch_null: %s\n", en(r));
	cudaGetLastError();
	r = cudaGraphExecDestroy(NULL);
	P("graph.api.exec_destroy_null: %s\n", en(r));
	r = cudaGraphDestroy(NULL);
	P("graph.api.destroy_null: %s\n", en(r));
	cudaGetLastError();
	struct cudaKernelNodeParams kp = {};
	kp.func = (void *)add;
	kp.gridDim = dim3(1);
	kp.blockDim = dim3(1);
	kp.kernelParams = args;
	r = cudaGraphAddKernelNode(&a, g, NULL, 0, NULL);
	P("graph.api.kernel_null_params: %s\n", en(r));
	r = cudaGraphAddKernelNode(NULL, g, NULL, 0, &kp);
	P("graph.api.kernel_null_out: %s\n", en(r));
	r = cudaGraphAddKernelNode(&a, NULL, NULL, 0, &kp);
	P("graph.api.kernel_null_graph: %s\n", en(r));
	kp.func = NULL;
	r = cudaGraphAddKernelNode(&a, g, NULL, 0, &kp);
	P("graph.api.kernel_null_func: %s\n", en(r));
	kp.func = (void *)add;
	kp.blockDim = dim3(2048);
	r = cudaGraphAddKernelNode(&a, g, NULL, 0, &kp);
	P("graph.api.kernel_block_2048: %s\n", en(r));
	kp.blockDim = dim3(1);
	kp.gridDim = dim3(0);
	r = cudaGraphAddKernelNode(&a, g, NULL, 0, &kp);
	P("graph.api.kernel_grid_0: %s\n", en(r));
	kp.gridDim = dim3(1);
	r = cudaGraphAddKernelNode(&a, g, NULL, 1, &kp);
	P("graph.api.kernel_deps_null_n1: %s\n", en(r));
	r = cudaGraphAddKernelNode(&a, g, NULL, 0, &kp);
	P("graph.api.kernel: %s\n", en(r));
	v = 7; // parameters are copied at the add
	r = cudaGraphAddKernelNode(&b, g, &a, 1, &kp);
	P("graph.api.kernel_b: %s\n", en(r));
	cudaGraphNode_t dd[2] = { a, a };
	r = cudaGraphAddKernelNode(&c, g, dd, 2, &kp);
	P("graph.api.kernel_dup_deps: %s\n", en(r));
	r = cudaGraphAddDependencies(g, &a, &b, NULL, 1);
	P("graph.api.dep_duplicate: %s\n", en(r));
	r = cudaGraphAddDependencies(g, &b, &a, NULL, 1);
	P("graph.api.dep_cycle: %s\n", en(r));
	r = cudaGraphInstantiate(&x, g, 0);
	P("graph.api.instantiate_cycle: %s\n", en(r));
	if (r == cudaSuccess) cudaGraphExecDestroy(x);
	r = cudaGraphRemoveDependencies(g, &b, &a, NULL, 1);
	P("graph.api.remove_dep: %s\n", en(r));
	r = cudaGraphRemoveDependencies(g, &b, &a, NULL, 1);
	P("graph.api.remove_dep_again: %s\n", en(r));
	r = cudaGraphAddDependencies(g, &a, &a, NULL, 1);
	P("graph.api.dep_self: %s\n", en(r));
	cudaGraphCreate(&g2, 0);
	cudaGraphAddEmptyNode(&o, g2, NULL, 0);
	r = cudaGraphAddDependencies(g, &a, &o, NULL, 1);
	P("graph.api.dep_other_graph: %s\n", en(r));
	r = cudaGraphAddEmptyNode(&c, g, &o, 1);
	P("graph.api.add_dep_other_graph: %s\n", en(r));
	r = cudaGraphAddDependencies(g, NULL, NULL, NULL, 0);
	P("graph.api.dep_zero: %s\n", en(r));
	struct cudaMemsetParams ms = {};
	ms.dst = dbuf2; ms.value = 0x01010101; ms.elementSize = 3; ms.width = 4; ms.height = 1;
	r = cudaGraphAddMemsetNode(&c, g, NULL, 0, &ms);
	P("graph.api.memset_elem3: %s\n", en(r));
	ms.elementSize = 4; ms.height = 2; ms.pitch = 0;
	r = cudaGraphAddMemsetNode(&c, g, NULL, 0, &ms);
	P("graph.api.memset_h2_pitch0: %s\n", en(r));
	ms.height = 1;
	r = cudaGraphAddMemsetNode(&c, g, NULL, 0, &ms);
	P("graph.api.memset: %s\n", en(r));
	struct cudaHostNodeParams hp = { NULL, NULL };
	r = cudaGraphAddHostNode(&c, g, NULL, 0, &hp);
	P("graph.api.host_null_fn: %s\n", en(r));
	struct cudaMemcpy3DParms mp = {};
	r = cudaGraphAddMemcpyNode(&c, g, NULL, 0, &mp);
	P("graph.api.memcpy_empty: %s\n", en(r));
	r = cudaGraphAddMemcpyNode1D(&c, g, NULL, 0, dbuf2, hpin, 4, cudaMemcpyHostToDevice);
	P("graph.api.memcpy1d: %s\n", en(r));
	r = cudaGraphAddMemcpyNode1D(&c, g, NULL, 0, dbuf2, hpage, 4, cudaMemcpyHostToDevice);
	P("graph.api.memcpy1d_pageable: %s\n", en(r));
	r = cudaGraphAddMemcpyNode1D(&c, g, NULL, 0, dbuf2, hpin, 0, cudaMemcpyHostToDevice);
	P("graph.api.memcpy1d_zero: %s\n", en(r));
	size_t n = 0;
	r = cudaGraphGetNodes(g, NULL, &n);
	P("graph.api.get_nodes_count: %s n=%zu\n", en(r), n);
	cudaGraphNode_t arr[2];
	size_t two = 2;
	r = cudaGraphGetNodes(g, arr, &two);
	P("graph.api.get_nodes_short: %s n=%zu\n", en(r), two);
	r = cudaGraphGetNodes(g, NULL, NULL);
	P("graph.api.get_nodes_null: %s\n", en(r));
	size_t ne = 0;
	r = cudaGraphGetEdges(g, NULL, NULL, NULL, &ne);
	P("graph.api.get_edges_count: %s n=%zu\n", en(r), ne);
	cudaGraphNodeType t;
	r = cudaGraphNodeGetType(a, &t);
	P("graph.api.type_kernel: %s %d\n", en(r), (int)t);
	r = cudaGraphNodeGetType(NULL, &t);
	P("graph.api.type_null: %s\n", en(r));
	struct cudaKernelNodeParams got = {};
	r = cudaGraphKernelNodeGetParams(b, &got);
	P("graph.api.kernel_get: %s func_same=%d grid=%u param1=%d\n", en(r), got.func == (void *)add, got.gridDim.x, got.kernelParams ? *(int *)got.kernelParams[1] : -1);
	r = cudaGraphKernelNodeGetParams(c, &got);
	P("graph.api.kernel_get_wrong_type: %s\n", en(r));
	cudaGraph_t cl;
	r = cudaGraphClone(&cl, g);
	P("graph.api.clone: %s nodes=%zu\n", en(r), nodes(cl));
	cudaGraphNode_t cn;
	r = cudaGraphNodeFindInClone(&cn, a, cl);
	P("graph.api.find_in_clone: %s\n", en(r));
	r = cudaGraphNodeFindInClone(&cn, a, g2);
	P("graph.api.find_in_other: %s\n", en(r));
	cudaGraphDestroy(cl);
	r = cudaGraphDestroyNode(c);
	P("graph.api.destroy_node: %s nodes=%zu\n", en(r), nodes(g));
	r = cudaGraphAddChildGraphNode(&c, g, &a, 1, g2);
	P("graph.api.child: %s nodes=%zu\n", en(r), nodes(g));
	cudaMemset(dbuf, 0, 4);
	r = cudaGraphInstantiate(&x, g, 0);
	P("graph.api.instantiate: %s\n", en(r));
	r = cudaGraphLaunch(x, s);
	cudaStreamSynchronize(s);
	cudaMemcpy(&v, dbuf, 4, cudaMemcpyDeviceToHost);
	P("graph.api.launch: %s value=%d\n", en(r), v);
	// exec kernel update
	kp.kernelParams = args; v = 40;
	r = cudaGraphExecKernelNodeSetParams(x, a, &kp);
	cudaMemset(dbuf, 0, 4);
	cudaGraphLaunch(x, s);
	cudaStreamSynchronize(s);
	cudaMemcpy(&v, dbuf, 4, cudaMemcpyDeviceToHost);
	P("graph.api.exec_set_params: %s value=%d\n", en(r), v);
	// the graph changed after instantiation does not change the exec
	cudaGraphAddEmptyNode(&c, g, NULL, 0);
	r = cudaGraphLaunch(x, s);
	P("graph.api.launch_after_graph_change: %s\n", en(r));
	cudaStreamSynchronize(s);
	// two instantiations of the same graph
	cudaGraphExec_t x2;
	r = cudaGraphInstantiate(&x2, g, 0);
	P("graph.api.instantiate_twice: %s\n", en(r));
	if (r == cudaSuccess) cudaGraphExecDestroy(x2);
	// launch into a capturing stream: a child graph node
	cudaGraph_t gc;
	cudaStreamBeginCapture(s2, cudaStreamCaptureModeGlobal);
	r = cudaGraphLaunch(x, s2);
	cudaError_t re = cudaStreamEndCapture(s2, &gc);
	P("graph.api.launch_in_capture: %s end=%s nodes=%zu\n", en(r), en(re), re == cudaSuccess ? nodes(gc) : 0);
	if (re == cudaSuccess) {
		cudaGraphNode_t n1; size_t k = 1; cudaGraphNodeType tt = (cudaGraphNodeType)-1;
		cudaGraphGetNodes(gc, &n1, &k);
		if (k) cudaGraphNodeGetType(n1, &tt);
		P("graph.api.launch_in_capture_type: %d\n", (int)tt);
		cudaGraphDestroy(gc);
	}
	cudaGraphExecDestroy(x);
	cudaGraphDestroy(g);
	cudaGraphDestroy(g2);
	cudaGetLastError();
}

static void timing(void)
{
	for (int nk = 1; nk <= 100; nk *= 10) {
		cudaGraph_t g;
		cudaGraphExec_t x;
		cudaEvent_t e0, e1;
		double ti0 = now_us();

		cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
		for (int i = 0; i < nk; i++)
			empty<<<1, 32, 0, s>>>(dbuf, i);
		cudaStreamEndCapture(s, &g);
		double tc = now_us() - ti0;
		ti0 = now_us();
		cudaGraphInstantiate(&x, g, 0);
		double tin = now_us() - ti0;
		cudaGraphUpload(x, s);
		cudaStreamSynchronize(s);
		cudaEventCreate(&e0);
		cudaEventCreate(&e1);
		for (int rep = 0; rep < 3; rep++) {
			double call = 0, gpu = 0, scall = 0, sgpu = 0, wall = 0, swall = 0;
			const int R = 200;
			for (int i = 0; i < R; i++) {
				float ms;
				double t0 = now_us();
				cudaEventRecord(e0, s);
				double t1 = now_us();
				cudaGraphLaunch(x, s);
				call += now_us() - t1;
				cudaEventRecord(e1, s);
				cudaStreamSynchronize(s);
				wall += now_us() - t0;
				cudaEventElapsedTime(&ms, e0, e1);
				gpu += ms * 1000;
				t0 = now_us();
				cudaEventRecord(e0, s);
				t1 = now_us();
				for (int k = 0; k < nk; k++)
					empty<<<1, 32, 0, s>>>(dbuf, k);
				scall += now_us() - t1;
				cudaEventRecord(e1, s);
				cudaStreamSynchronize(s);
				swall += now_us() - t0;
				cudaEventElapsedTime(&ms, e0, e1);
				sgpu += ms * 1000;
			}
			P("graph.time.chain%d rep%d: capture_us=%.1f instantiate_us=%.1f graph_call_us=%.2f graph_gpu_us=%.2f graph_wall_us=%.2f stream_calls_us=%.2f stream_gpu_us=%.2f stream_wall_us=%.2f\n",
			  nk, rep, tc, tin, call / R, gpu / R, wall / R, scall / R, sgpu / R, swall / R);
		}
		cudaGraphExecDestroy(x);
		cudaGraphDestroy(g);
		cudaEventDestroy(e0);
		cudaEventDestroy(e1);
	}
	// 8 independent branches of a 20 us spin: concurrent in the graph?
	for (int w = 1; w <= 8; w *= 2) {
		cudaGraph_t g;
		cudaGraphExec_t x;
		cudaGraphNode_t n;
		cudaEvent_t e0, e1;
		long long ns = 20000;
		void *args[1] = { &ns };
		struct cudaKernelNodeParams kp = {};
		kp.func = (void *)spin; kp.gridDim = dim3(1); kp.blockDim = dim3(32); kp.kernelParams = args;
		cudaGraphCreate(&g, 0);
		for (int i = 0; i < w; i++)
			cudaGraphAddKernelNode(&n, g, NULL, 0, &kp);
		cudaGraphInstantiate(&x, g, 0);
		cudaEventCreate(&e0);
		cudaEventCreate(&e1);
		cudaGraphLaunch(x, s);
		cudaStreamSynchronize(s);
		for (int rep = 0; rep < 3; rep++) {
			float ms, sum = 0;
			for (int i = 0; i < 20; i++) {
				cudaEventRecord(e0, s);
				cudaGraphLaunch(x, s);
				cudaEventRecord(e1, s);
				cudaStreamSynchronize(s);
				cudaEventElapsedTime(&ms, e0, e1);
				sum += ms * 1000;
			}
			P("graph.time.parallel%d rep%d: gpu_us=%.2f\n", w, rep, sum / 20);
		}
		cudaGraphExecDestroy(x);
		cudaGraphDestroy(g);
		cudaEventDestroy(e0);
		cudaEventDestroy(e1);
	}
	// a copy and a memset node beside the same on a stream
	{
		size_t sz = 64 << 20;
		void *d, *h;
		cudaGraph_t g;
		cudaGraphExec_t x;
		cudaEvent_t e0, e1;
		cudaMalloc(&d, sz);
		cudaMallocHost(&h, sz);
		cudaEventCreate(&e0);
		cudaEventCreate(&e1);
		cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
		cudaMemcpyAsync(d, h, sz, cudaMemcpyHostToDevice, s);
		cudaMemsetAsync(d, 1, sz, s);
		cudaStreamEndCapture(s, &g);
		cudaGraphInstantiate(&x, g, 0);
		for (int rep = 0; rep < 3; rep++) {
			float gm, sm;
			cudaEventRecord(e0, s);
			cudaGraphLaunch(x, s);
			cudaEventRecord(e1, s);
			cudaStreamSynchronize(s);
			cudaEventElapsedTime(&gm, e0, e1);
			cudaEventRecord(e0, s);
			cudaMemcpyAsync(d, h, sz, cudaMemcpyHostToDevice, s);
			cudaMemsetAsync(d, 1, sz, s);
			cudaEventRecord(e1, s);
			cudaStreamSynchronize(s);
			cudaEventElapsedTime(&sm, e0, e1);
			P("graph.time.copy_memset_64m rep%d: graph_us=%.1f stream_us=%.1f\n", rep, gm * 1000, sm * 1000);
		}
		cudaGraphExecDestroy(x);
		cudaGraphDestroy(g);
		cudaFree(d);
		cudaFreeHost(h);
	}
}

int main(int argc, char **argv)
{
	cudaMalloc(&dbuf, 64);
	cudaMalloc(&dbuf2, 64);
	cudaMallocHost(&hpin, 64);
	cudaMallocManaged(&managed, 1 << 20);
	cudaStreamCreate(&s);
	cudaStreamCreate(&s2);
	cudaStreamCreateWithFlags(&s3nb, cudaStreamNonBlocking);
	inc<<<1, 1, 0, s>>>(dbuf);
	cudaDeviceSynchronize();
	if (argc > 1 && !strcmp(argv[1], "time")) {
		timing();
		// (this line came after results/graph-time.txt was taken)
		P("graph.done: %s\n", en(cudaDeviceSynchronize()));
		return 0;
	}
	capture_state();
	fork_join();
	api_errors();
	for (int x = 0; x < X_N; x++)
		one_x("global", cudaStreamCaptureModeGlobal, x);
	for (int x = 0; x < X_N; x++)
		one_x("thread_local", cudaStreamCaptureModeThreadLocal, x);
	for (int x = 0; x < X_N; x++)
		one_x("relaxed", cudaStreamCaptureModeRelaxed, x);
	P("graph.done: %s\n", en(cudaDeviceSynchronize()));
	return 0;
}
