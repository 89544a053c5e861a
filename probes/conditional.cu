// conditional.cu - conditional graph nodes on the real driver: what
// cuGraphConditionalHandleCreate and a conditional cuGraphAddNode refuse
// and in what order, what a body graph may hold, how IF (with and without
// its else), WHILE and SWITCH run, what a handle's value is at a launch's
// start with and without CU_GRAPH_COND_ASSIGN_DEFAULT, nesting, clones,
// and, run as `conditional time`, what a conditional node and a loop's
// iteration cost.
// Each line: cond.<case>: <result> [details].
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o conditional conditional.cu -lcuda
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("cond.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorName(e_)); exit(1); } } while (0)

static const char *dn(CUresult r)
{
	const char *s = NULL;
	cuGetErrorName(r, &s);
	return s ? s : "?";
}

#define D(name, call) printf("cond.%s: %s\n", name, dn(call))
#define R(name, call) printf("cond.%s: %s\n", name, cudaGetErrorName(call))

__global__ void k_set(cudaGraphConditionalHandle h, unsigned v)
{
	cudaGraphSetConditional(h, v);
}

/* Adds one to *count; sets the handle to whether *count < limit. */
__global__ void k_count(cudaGraphConditionalHandle h, int *count, int limit)
{
	int c = ++*count;
	cudaGraphSetConditional(h, c < limit);
}

__global__ void k_add(int *p, int v)
{
	*p += v;
}

__global__ void k_empty(void) {}

static cudaGraphNode_t add_kernel(cudaGraph_t g, cudaGraphNode_t dep,
				  void *fn, void **args)
{
	cudaGraphNodeParams p = { cudaGraphNodeTypeKernel };
	cudaGraphNode_t n;

	p.kernel.func = fn;
	p.kernel.gridDim = dim3(1);
	p.kernel.blockDim = dim3(1);
	p.kernel.kernelParams = args;
	CK(cudaGraphAddNode(&n, g, dep ? &dep : NULL, NULL, dep ? 1 : 0, &p));
	return n;
}

static cudaGraphNode_t add_cond(cudaGraph_t g, cudaGraphNode_t dep,
				cudaGraphConditionalHandle h,
				cudaGraphConditionalNodeType t, unsigned size,
				cudaGraph_t *bodies)
{
	cudaGraphNodeParams p = { cudaGraphNodeTypeConditional };
	cudaGraphNode_t n;

	p.conditional.handle = h;
	p.conditional.type = t;
	p.conditional.size = size;
	CK(cudaGraphAddNode(&n, g, dep ? &dep : NULL, NULL, dep ? 1 : 0, &p));
	for (unsigned i = 0; i < size; i++)
		bodies[i] = p.conditional.phGraph_out[i];
	return n;
}

static int *counter;

static int host_count(void)
{
	int v;
	CK(cudaDeviceSynchronize());
	CK(cudaMemcpy(&v, counter, sizeof v, cudaMemcpyDeviceToHost));
	CK(cudaMemset(counter, 0, sizeof v));
	return v;
}

/* ------------------------------------------------------------ refusals */

static void refusals(void)
{
	CUgraph g, g2;
	CUcontext ctx;
	CUgraphConditionalHandle h = 0, h2 = 0, h2b = 0, h3 = 0;
	CUgraphNode n;
	CUgraphNodeParams p;

	cuCtxGetCurrent(&ctx);
	cuGraphCreate(&g, 0);
	cuGraphCreate(&g2, 0);
	D("create.null_out", cuGraphConditionalHandleCreate(NULL, g, ctx, 0, 0));
	D("create.null_graph", cuGraphConditionalHandleCreate(&h, NULL, ctx, 0, 0));
	D("create.flags2", cuGraphConditionalHandleCreate(&h, g, ctx, 0, 2));
	D("create.flags3", cuGraphConditionalHandleCreate(&h, g, ctx, 0, 3));
	D("create.null_ctx", cuGraphConditionalHandleCreate(&h, g, NULL, 0, 0));
	D("create.ok", cuGraphConditionalHandleCreate(&h, g, ctx, 5, 1));
	printf("cond.create.handle_nonzero: %d\n", h != 0);
	D("create.ok2", cuGraphConditionalHandleCreate(&h2, g2, ctx, 0, 0));
	printf("cond.create.handles_differ: %d\n", h != h2);
	D("create.ok3", cuGraphConditionalHandleCreate(&h2b, g2, ctx, 0, 0));
	D("create.ok4", cuGraphConditionalHandleCreate(&h3, g, ctx, 0, 0));
	printf("cond.create.values: g %#llx %#llx g2 %#llx %#llx\n",
	       (unsigned long long)h, (unsigned long long)h3,
	       (unsigned long long)h2, (unsigned long long)h2b);

	memset(&p, 0, sizeof p);
	p.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
	p.conditional.handle = h;
	p.conditional.type = CU_GRAPH_COND_TYPE_IF;
	p.conditional.ctx = ctx;
	p.conditional.size = 0;
	D("add.if_size0", cuGraphAddNode(&n, g, NULL, NULL, 0, &p));
	p.conditional.size = 3;
	D("add.if_size3", cuGraphAddNode(&n, g, NULL, NULL, 0, &p));
	p.conditional.type = CU_GRAPH_COND_TYPE_WHILE;
	p.conditional.size = 2;
	D("add.while_size2", cuGraphAddNode(&n, g, NULL, NULL, 0, &p));
	p.conditional.type = CU_GRAPH_COND_TYPE_SWITCH;
	p.conditional.size = 0;
	D("add.switch_size0", cuGraphAddNode(&n, g, NULL, NULL, 0, &p));
	p.conditional.type = (CUgraphConditionalNodeType)7;
	p.conditional.size = 1;
	D("add.type7", cuGraphAddNode(&n, g, NULL, NULL, 0, &p));
	p.conditional.type = CU_GRAPH_COND_TYPE_IF;
	p.conditional.handle = 0;
	D("add.handle0", cuGraphAddNode(&n, g, NULL, NULL, 0, &p));
	p.conditional.handle = h2b + 16;
	D("add.unknown_handle", cuGraphAddNode(&n, g, NULL, NULL, 0, &p));
	p.conditional.handle = h;
	p.conditional.ctx = NULL;
	D("add.null_ctx", cuGraphAddNode(&n, g, NULL, NULL, 0, &p));
	p.conditional.ctx = ctx;
	p.conditional.phGraph_out = NULL;
	D("add.if_ok", cuGraphAddNode(&n, g, NULL, NULL, 0, &p));
	printf("cond.add.phGraph_out_set: %d\n", p.conditional.phGraph_out != NULL);
	if (!p.conditional.phGraph_out) {
		cuGraphDestroy(g);
		cuGraphDestroy(g2);
		return;
	}
	{
		CUgraphNodeType t;
		size_t nn = 0;
		cuGraphNodeGetType(n, &t);
		printf("cond.add.node_type: %d\n", (int)t);
		cuGraphGetNodes(p.conditional.phGraph_out[0], NULL, &nn);
		printf("cond.add.body_nodes: %zu\n", nn);
	}
	D("add.same_handle_again", cuGraphAddNode(&n, g, NULL, NULL, 0, &p));
	p.conditional.handle = h2b;
	D("add.other_graphs_second_handle", cuGraphAddNode(&n, g, NULL, NULL, 0, &p));
	p.conditional.handle = h3;
	p.conditional.type = CU_GRAPH_COND_TYPE_IF;
	p.conditional.size = 2;
	D("add.if_size2", cuGraphAddNode(&n, g, NULL, NULL, 0, &p));
	p.conditional.handle = h;
	p.conditional.size = 1;
	{
		CUgraph body = p.conditional.phGraph_out[0];
		CUgraphNode hn, en, an;
		CUDA_HOST_NODE_PARAMS hp = { 0 };
		CUevent ev;
		CUDA_MEM_ALLOC_NODE_PARAMS ap;
		CUgraphExec x;

		memset(&ap, 0, sizeof ap);
		hp.fn = [](void *) {};
		D("body.host_node", cuGraphAddHostNode(&hn, body, NULL, 0, &hp));
		cuEventCreate(&ev, 0);
		D("body.event_record", cuGraphAddEventRecordNode(&en, body, NULL, 0, ev));
		ap.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
		ap.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
		ap.poolProps.location.id = 0;
		ap.bytesize = 1 << 20;
		D("body.mem_alloc", cuGraphAddMemAllocNode(&an, body, NULL, 0, &ap));
		D("body.instantiate", cuGraphInstantiate(&x, g, 0));
	}
	cuGraphDestroy(g);
	cuGraphDestroy(g2);
}

/* ------------------------------------------------------------ runs */

static void run_if(bool with_else)
{
	cudaGraph_t g, b[2];
	cudaGraphExec_t x;
	cudaGraphConditionalHandle h;
	unsigned v = 0;
	int one = 1, ten = 10;
	void *sa[] = { &h, &v }, *a1[] = { &counter, &one },
	     *a10[] = { &counter, &ten };
	cudaGraphNode_t k;

	CK(cudaGraphCreate(&g, 0));
	CK(cudaGraphConditionalHandleCreate(&h, g));
	k = add_kernel(g, NULL, (void *)k_set, sa);
	add_cond(g, k, h, cudaGraphCondTypeIf, with_else ? 2 : 1, b);
	add_kernel(b[0], NULL, (void *)k_add, a1);
	if (with_else)
		add_kernel(b[1], NULL, (void *)k_add, a10);
	for (v = 0; v < 3; v++) {
		cudaKernelNodeParams kp = { 0 };
		kp.func = (void *)k_set;
		kp.gridDim = dim3(1);
		kp.blockDim = dim3(1);
		kp.kernelParams = sa;
		CK(cudaGraphKernelNodeSetParams(k, &kp));
		CK(cudaGraphInstantiate(&x, g, 0));
		CK(cudaGraphLaunch(x, 0));
		printf("cond.if%s value=%u: count=%d\n", with_else ? "_else" : "",
		       v, host_count());
		CK(cudaGraphExecDestroy(x));
	}
	CK(cudaGraphDestroy(g));
}

static void run_while(void)
{
	cudaGraph_t g, b[1];
	cudaGraphExec_t x;
	cudaGraphConditionalHandle h;
	int limit = 5;
	void *ca[] = { &h, &counter, &limit };

	/* do-while: the default 1 at each launch, the body counts to 5 */
	CK(cudaGraphCreate(&g, 0));
	CK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
	add_cond(g, NULL, h, cudaGraphCondTypeWhile, 1, b);
	add_kernel(b[0], NULL, (void *)k_count, ca);
	CK(cudaGraphInstantiate(&x, g, 0));
	CK(cudaGraphLaunch(x, 0));
	printf("cond.while default=1: count=%d\n", host_count());
	CK(cudaGraphLaunch(x, 0));
	printf("cond.while default=1 again: count=%d\n", host_count());
	CK(cudaGraphExecDestroy(x));
	CK(cudaGraphDestroy(g));

	/* default 0 with the flag: the body never runs */
	CK(cudaGraphCreate(&g, 0));
	CK(cudaGraphConditionalHandleCreate(&h, g, 0, cudaGraphCondAssignDefault));
	add_cond(g, NULL, h, cudaGraphCondTypeWhile, 1, b);
	add_kernel(b[0], NULL, (void *)k_count, ca);
	CK(cudaGraphInstantiate(&x, g, 0));
	CK(cudaGraphLaunch(x, 0));
	printf("cond.while default=0: count=%d\n", host_count());
	CK(cudaGraphExecDestroy(x));
	CK(cudaGraphDestroy(g));

	/* no flag, default 1 given: what the value is at the first launch,
	 * and after a launch that left it 0 */
	CK(cudaGraphCreate(&g, 0));
	CK(cudaGraphConditionalHandleCreate(&h, g, 1, 0));
	add_cond(g, NULL, h, cudaGraphCondTypeWhile, 1, b);
	add_kernel(b[0], NULL, (void *)k_count, ca);
	CK(cudaGraphInstantiate(&x, g, 0));
	CK(cudaGraphLaunch(x, 0));
	printf("cond.while noflag default=1: count=%d\n", host_count());
	CK(cudaGraphLaunch(x, 0));
	printf("cond.while noflag default=1 again: count=%d\n", host_count());
	CK(cudaGraphExecDestroy(x));
	CK(cudaGraphInstantiate(&x, g, 0));
	CK(cudaGraphLaunch(x, 0));
	printf("cond.while noflag default=1 new exec: count=%d\n", host_count());
	CK(cudaGraphExecDestroy(x));
	CK(cudaGraphDestroy(g));
}

static void run_switch(void)
{
	cudaGraph_t g, b[4];
	cudaGraphExec_t x;
	cudaGraphConditionalHandle h;
	unsigned v;
	int adds[4] = { 1, 10, 100, 1000 };
	void *sa[] = { &h, &v };
	void *aa[4][2];
	cudaGraphNode_t k;

	for (v = 0; v < 6; v++) {
		CK(cudaGraphCreate(&g, 0));
		CK(cudaGraphConditionalHandleCreate(&h, g));
		k = add_kernel(g, NULL, (void *)k_set, sa);
		add_cond(g, k, h, cudaGraphCondTypeSwitch, 4, b);
		for (int i = 0; i < 4; i++) {
			aa[i][0] = &counter;
			aa[i][1] = &adds[i];
			add_kernel(b[i], NULL, (void *)k_add, aa[i]);
		}
		CK(cudaGraphInstantiate(&x, g, 0));
		CK(cudaGraphLaunch(x, 0));
		printf("cond.switch value=%u: count=%d\n", v, host_count());
		CK(cudaGraphExecDestroy(x));
		CK(cudaGraphDestroy(g));
	}
}

/* A WHILE node whose body holds an IF on a handle of the body graph's
 * own; then a clone of the whole. */
static void run_nested(void)
{
	cudaGraph_t g, b[1], ib[1], c;
	cudaGraphExec_t x;
	cudaGraphConditionalHandle h, ih;
	int limit = 4, one = 1;
	unsigned v = 1;
	void *ca[] = { &h, &counter, &limit }, *sa[] = { &ih, &v },
	     *aa[] = { &counter, &one };
	cudaGraphNode_t k, s;
	cudaError_t e;

	CK(cudaGraphCreate(&g, 0));
	CK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
	add_cond(g, NULL, h, cudaGraphCondTypeWhile, 1, b);
	k = add_kernel(b[0], NULL, (void *)k_count, ca);
	e = cudaGraphConditionalHandleCreate(&ih, b[0]);
	R("nested.handle_in_body", e);
	if (e != cudaSuccess)
		CK(cudaGraphConditionalHandleCreate(&ih, g));
	s = add_kernel(b[0], k, (void *)k_set, sa);
	add_cond(b[0], s, ih, cudaGraphCondTypeIf, 1, ib);
	add_kernel(ib[0], NULL, (void *)k_add, aa);
	CK(cudaGraphInstantiate(&x, g, 0));
	CK(cudaGraphLaunch(x, 0));
	printf("cond.nested while4_if: count=%d\n", host_count());
	CK(cudaGraphExecDestroy(x));
	e = cudaGraphClone(&c, g);
	R("nested.clone", e);
	if (e == cudaSuccess) {
		CK(cudaGraphInstantiate(&x, c, 0));
		CK(cudaGraphLaunch(x, 0));
		printf("cond.nested clone: count=%d\n", host_count());
		CK(cudaGraphExecDestroy(x));
		CK(cudaGraphDestroy(c));
	}
	{
		cudaGraph_t outer;
		cudaGraphNode_t cn;
		CK(cudaGraphCreate(&outer, 0));
		e = cudaGraphAddChildGraphNode(&cn, outer, NULL, 0, g);
		R("nested.as_child_graph", e);
		if (e == cudaSuccess) {
			CK(cudaGraphInstantiate(&x, outer, 0));
			CK(cudaGraphLaunch(x, 0));
			printf("cond.nested as child: count=%d\n", host_count());
			CK(cudaGraphExecDestroy(x));
		}
		CK(cudaGraphDestroy(outer));
	}
	CK(cudaGraphDestroy(g));
}

/* An IF node and the kernel that sets its handle with no edge between
 * them (cuda-samples' graphConditionalNodes adds its nodes so): how
 * often the body runs over 20 launches of each value. */
static void run_unordered(void)
{
	cudaGraph_t g, b[1];
	cudaGraphExec_t x;
	cudaGraphConditionalHandle h;
	unsigned v = 1;
	int one = 1;
	void *sa[] = { &h, &v }, *a1[] = { &counter, &one };

	for (v = 0; v < 2; v++) {
		int ran = 0;
		CK(cudaGraphCreate(&g, 0));
		CK(cudaGraphConditionalHandleCreate(&h, g));
		add_kernel(g, NULL, (void *)k_set, sa);
		add_cond(g, NULL, h, cudaGraphCondTypeIf, 1, b);
		add_kernel(b[0], NULL, (void *)k_add, a1);
		CK(cudaGraphInstantiate(&x, g, 0));
		for (int i = 0; i < 20; i++) {
			CK(cudaGraphLaunch(x, 0));
			ran += host_count();
		}
		printf("cond.unordered value=%u: body ran %d of 20\n", v, ran);
		CK(cudaGraphExecDestroy(x));
		CK(cudaGraphDestroy(g));
	}
}

/* A WHILE node's body made by capturing a stream into it, as
 * cuda-samples' graphConditionalNodes does. */
static void run_captured(void)
{
	cudaGraph_t g, b[1];
	cudaGraphExec_t x;
	cudaGraphConditionalHandle h;
	cudaStream_t s;
	int limit = 3;

	CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	CK(cudaGraphCreate(&g, 0));
	CK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
	add_cond(g, NULL, h, cudaGraphCondTypeWhile, 1, b);
	CK(cudaStreamBeginCaptureToGraph(s, b[0], NULL, NULL, 0,
					 cudaStreamCaptureModeGlobal));
	k_count<<<1, 1, 0, s>>>(h, counter, limit);
	CK(cudaStreamEndCapture(s, NULL));
	CK(cudaGraphInstantiate(&x, g, 0));
	CK(cudaGraphLaunch(x, s));
	CK(cudaStreamSynchronize(s));
	printf("cond.captured while3: count=%d\n", host_count());
	CK(cudaGraphExecDestroy(x));
	CK(cudaGraphDestroy(g));
	CK(cudaStreamDestroy(s));
}

/* A handle of the graph used by a kernel launched outside it. */
static void outside(void)
{
	cudaGraph_t g, b[1];
	cudaGraphConditionalHandle h;

	CK(cudaGraphCreate(&g, 0));
	CK(cudaGraphConditionalHandleCreate(&h, g));
	add_cond(g, NULL, h, cudaGraphCondTypeIf, 1, b);
	k_set<<<1, 1>>>(h, 1);
	R("outside.launch", cudaGetLastError());
	R("outside.sync", cudaDeviceSynchronize());
	CK(cudaGraphDestroy(g));
}

/* ------------------------------------------------------------ time */

static float timed_launch(cudaGraphExec_t x, cudaStream_t s)
{
	cudaEvent_t a, b;
	float ms;
	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	CK(cudaEventRecord(a, s));
	CK(cudaGraphLaunch(x, s));
	CK(cudaEventRecord(b, s));
	CK(cudaEventSynchronize(b));
	CK(cudaEventElapsedTime(&ms, a, b));
	CK(cudaEventDestroy(a));
	CK(cudaEventDestroy(b));
	return ms;
}

static void times(void)
{
	cudaStream_t s;
	CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	for (int limit = 1; limit <= 1000; limit *= 10) {
		cudaGraph_t g, b[1];
		cudaGraphExec_t x;
		cudaGraphConditionalHandle h;
		void *ca[] = { &h, &counter, &limit };
		CK(cudaGraphCreate(&g, 0));
		CK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
		add_cond(g, NULL, h, cudaGraphCondTypeWhile, 1, b);
		add_kernel(b[0], NULL, (void *)k_count, ca);
		CK(cudaGraphInstantiate(&x, g, 0));
		CK(cudaGraphUpload(x, s));
		for (int rep = 0; rep < 3; rep++) {
			float ms = timed_launch(x, s);
			printf("cond.time.while_iters=%d rep%d: us=%.2f count=%d\n",
			       limit, rep, ms * 1000, host_count());
		}
		CK(cudaGraphExecDestroy(x));
		CK(cudaGraphDestroy(g));
	}
	/* one empty kernel, alone and behind an IF that runs it */
	for (int cond = 0; cond < 2; cond++) {
		cudaGraph_t g, b[1];
		cudaGraphExec_t x;
		cudaGraphConditionalHandle h;
		CK(cudaGraphCreate(&g, 0));
		if (cond) {
			CK(cudaGraphConditionalHandleCreate(&h, g, 1,
				cudaGraphCondAssignDefault));
			add_cond(g, NULL, h, cudaGraphCondTypeIf, 1, b);
			add_kernel(b[0], NULL, (void *)k_empty, NULL);
		} else {
			add_kernel(g, NULL, (void *)k_empty, NULL);
		}
		CK(cudaGraphInstantiate(&x, g, 0));
		CK(cudaGraphUpload(x, s));
		for (int rep = 0; rep < 3; rep++)
			printf("cond.time.%s rep%d: us=%.2f\n",
			       cond ? "if_empty_kernel" : "empty_kernel", rep,
			       timed_launch(x, s) * 1000);
		CK(cudaGraphExecDestroy(x));
		CK(cudaGraphDestroy(g));
	}
	CK(cudaStreamDestroy(s));
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	CK(cudaSetDevice(0));
	CK(cudaFree(0));
	CK(cudaMalloc(&counter, sizeof(int)));
	CK(cudaMemset(counter, 0, sizeof(int)));
	if (argc > 1 && !strcmp(argv[1], "time")) {
		times();
		printf("cond.done: ok\n");
		return 0;
	}
	refusals();
	run_if(false);
	run_if(true);
	run_while();
	run_switch();
	run_nested();
	run_captured();
	run_unordered();
	outside();
	printf("cond.done: ok\n");
	return 0;
}
