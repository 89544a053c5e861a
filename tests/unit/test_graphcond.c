/*
 * test_graphcond.c - conditional graph nodes through the driver API, as an
 * H200 answered probes/conditional.cu (results/conditional.txt, replayed
 * line for line by tests/cuda's condprobe; results/conditional-time.txt):
 * handles numbered from 1 in each outermost graph, the refusals of a
 * handle and of a conditional node, a body graph's nodes checked at
 * instantiation, IF with and without its else, WHILE and SWITCH run by the
 * value a kernel of the graph sets (cudaGraphSetConditional, from PTX), a
 * default assigned at each launch or not at all, a conditional node that
 * follows a kernel added before it without an edge, a kernel outside any
 * graph setting a handle (an illegal address), and the model time of a
 * node and of each body it runs (uvm.graph_cond_ns, graph_cond_body_ns).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cuda.h"
#include "cuemu.h"
#include "tap.h"

/* Two kernels: set(h, v) sets handle h to v; count(h, p, limit) adds one
 * to *p and sets h to whether it is still below limit. */
static const char ptx[] =
	".version 9.0\n"
	".target sm_90\n"
	".address_size 64\n"
	".extern .func cudaGraphSetConditional\n"
	"(\n"
	"	.param .b64 cudaGraphSetConditional_param_0,\n"
	"	.param .b32 cudaGraphSetConditional_param_1\n"
	");\n"
	".visible .entry set(.param .u64 h, .param .u32 v)\n"
	"{\n"
	"	.reg .b32 %r<2>;\n"
	"	.reg .b64 %rd<2>;\n"
	"	ld.param.u64 %rd1, [h];\n"
	"	ld.param.u32 %r1, [v];\n"
	"	{\n"
	"	.param .b64 param0;\n"
	"	st.param.b64 [param0+0], %rd1;\n"
	"	.param .b32 param1;\n"
	"	st.param.b32 [param1+0], %r1;\n"
	"	call.uni cudaGraphSetConditional, (param0, param1);\n"
	"	}\n"
	"	ret;\n"
	"}\n"
	".visible .entry count(.param .u64 h, .param .u64 p, .param .u32 lim)\n"
	"{\n"
	"	.reg .pred %p<2>;\n"
	"	.reg .b32 %r<5>;\n"
	"	.reg .b64 %rd<3>;\n"
	"	ld.param.u64 %rd1, [h];\n"
	"	ld.param.u64 %rd2, [p];\n"
	"	ld.param.u32 %r1, [lim];\n"
	"	ld.global.u32 %r2, [%rd2];\n"
	"	add.s32 %r2, %r2, 1;\n"
	"	st.global.u32 [%rd2], %r2;\n"
	"	setp.lt.s32 %p1, %r2, %r1;\n"
	"	selp.u32 %r3, 1, 0, %p1;\n"
	"	{\n"
	"	.param .b64 param0;\n"
	"	st.param.b64 [param0+0], %rd1;\n"
	"	.param .b32 param1;\n"
	"	st.param.b32 [param1+0], %r3;\n"
	"	call.uni cudaGraphSetConditional, (param0, param1);\n"
	"	}\n"
	"	ret;\n"
	"}\n";

static CUcontext ctx;
static CUfunction f_set, f_count;
static CUdeviceptr counter;

static CUgraphNode add_kernel(CUgraph g, CUgraphNode dep, CUfunction f,
			      void **args)
{
	CUDA_KERNEL_NODE_PARAMS p = { .func = f, .gridDimX = 1, .gridDimY = 1,
		.gridDimZ = 1, .blockDimX = 1, .blockDimY = 1, .blockDimZ = 1,
		.kernelParams = args };
	CUgraphNode n = NULL;

	is_res(cuGraphAddKernelNode(&n, g, dep ? &dep : NULL, dep ? 1 : 0, &p),
	       CUDA_SUCCESS, "a kernel node");
	return n;
}

static CUresult add_cond(CUgraphNode *n, CUgraph g, CUgraphNode dep,
			 CUgraphConditionalHandle h,
			 CUgraphConditionalNodeType t, unsigned size,
			 CUgraph **bodies)
{
	CUgraphNodeParams p;
	CUresult r;

	memset(&p, 0, sizeof p);
	p.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
	p.conditional.handle = h;
	p.conditional.type = t;
	p.conditional.size = size;
	p.conditional.ctx = ctx;
	r = cuGraphAddNode(n, g, dep ? &dep : NULL, NULL, dep ? 1 : 0, &p);
	if (bodies)
		*bodies = p.conditional.phGraph_out;
	return r;
}

/* The four counters' values as digits (counter i the i-th from the
 * right), zeroed again. */
static int take_count(void)
{
	int v[4] = { -1, -1, -1, -1 };

	cuCtxSynchronize();
	cuMemcpyDtoH(v, counter, sizeof v);
	cuMemsetD32(counter, 0, 4);
	return v[0] + 10 * v[1] + 100 * v[2] + 1000 * v[3];
}

/* One launch of a graph instantiated anew: the counters it left. */
static int run_once(CUgraph g)
{
	CUgraphExec x = NULL;
	int v;

	if (cuGraphInstantiate(&x, g, 0) != CUDA_SUCCESS)
		return -2;
	cuGraphLaunch(x, NULL);
	v = take_count();
	cuGraphExecDestroy(x);
	return v;
}

/* ------------------------------------------------------------ handles */

static void handles(void)
{
	CUgraph g, g2, *b = NULL;
	CUgraphConditionalHandle h1 = 0, h2 = 0, o1 = 0;
	CUgraphNode n = NULL, n2;
	CUgraphNodeType t;

	cuGraphCreate(&g, 0);
	cuGraphCreate(&g2, 0);
	is_res(cuGraphConditionalHandleCreate(NULL, g, ctx, 0, 0),
	       CUDA_ERROR_INVALID_VALUE, "handle: a NULL output");
	is_res(cuGraphConditionalHandleCreate(&h1, NULL, ctx, 0, 0),
	       CUDA_ERROR_INVALID_VALUE, "handle: a NULL graph");
	is_res(cuGraphConditionalHandleCreate(&h1, g, ctx, 0, 2),
	       CUDA_ERROR_INVALID_VALUE, "handle: flags 2");
	is_res(cuGraphConditionalHandleCreate(&h1, g, NULL, 0, 0),
	       CUDA_ERROR_INVALID_CONTEXT, "handle: no context");
	cuGraphConditionalHandleCreate(&h1, g, ctx, 5, 1);
	cuGraphConditionalHandleCreate(&h2, g, ctx, 0, 0);
	cuGraphConditionalHandleCreate(&o1, g2, ctx, 0, 0);
	ok(h1 == 1 && h2 == 2 && o1 == 1,
	   "handle: each graph numbers its handles from 1 (%llu %llu; %llu)",
	   (unsigned long long)h1, (unsigned long long)h2,
	   (unsigned long long)o1);

	is_res(add_cond(&n, g, NULL, h1, CU_GRAPH_COND_TYPE_IF, 3, NULL),
	       CUDA_ERROR_INVALID_VALUE, "node: IF takes one or two bodies");
	is_res(add_cond(&n, g, NULL, h1, CU_GRAPH_COND_TYPE_WHILE, 2, NULL),
	       CUDA_ERROR_INVALID_VALUE, "node: WHILE takes one");
	is_res(add_cond(&n, g, NULL, h1, CU_GRAPH_COND_TYPE_SWITCH, 0, NULL),
	       CUDA_ERROR_INVALID_VALUE, "node: SWITCH takes one or more");
	is_res(add_cond(&n, g, NULL, h1, (CUgraphConditionalNodeType)7, 1,
			NULL),
	       CUDA_ERROR_INVALID_VALUE, "node: a kind that is none");
	is_res(add_cond(&n, g, NULL, 0, CU_GRAPH_COND_TYPE_IF, 1, NULL),
	       CUDA_ERROR_INVALID_VALUE, "node: handle 0");
	is_res(add_cond(&n, g, NULL, 3, CU_GRAPH_COND_TYPE_IF, 1, NULL),
	       CUDA_ERROR_INVALID_VALUE, "node: a handle the graph has not made");
	{
		CUgraphNodeParams p;
		memset(&p, 0, sizeof p);
		p.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
		p.conditional.handle = h1;
		p.conditional.type = CU_GRAPH_COND_TYPE_IF;
		p.conditional.size = 1;
		is_res(cuGraphAddNode(&n, g, NULL, NULL, 0, &p),
		       CUDA_ERROR_INVALID_CONTEXT, "node: no context");
	}
	is_res(add_cond(&n, g, NULL, h1, CU_GRAPH_COND_TYPE_IF, 2, &b),
	       CUDA_SUCCESS, "node: an IF with its else");
	ok(b && b[0] && b[1] && b[0] != b[1],
	   "node: two body graphs of its own are answered");
	cuGraphNodeGetType(n, &t);
	ok(t == CU_GRAPH_NODE_TYPE_CONDITIONAL, "node: its type");
	is_res(add_cond(&n2, g, NULL, h1, CU_GRAPH_COND_TYPE_IF, 1, NULL),
	       CUDA_ERROR_INVALID_VALUE, "node: a handle another node took");
	is_res(cuGraphDestroy(b[0]), CUDA_ERROR_INVALID_VALUE,
	       "node: a body graph goes with its node, not by itself");
	{
		CUgraph c = NULL, outer;
		CUgraphNode cn;
		cuGraphCreate(&outer, 0);
		is_res(cuGraphClone(&c, g), CUDA_ERROR_NOT_SUPPORTED,
		       "clone: a graph with a conditional node is not cloned");
		is_res(cuGraphAddChildGraphNode(&cn, outer, NULL, 0, g),
		       CUDA_ERROR_NOT_SUPPORTED,
		       "clone: ... nor made a child graph");
		cuGraphDestroy(outer);
	}
	{
		CUDA_HOST_NODE_PARAMS hp = { 0 };
		CUgraphNode hn;
		CUgraphExec x = NULL;
		hp.fn = (CUhostFn)(void (*)(void))take_count;
		is_res(cuGraphAddHostNode(&hn, b[1], NULL, 0, &hp), CUDA_SUCCESS,
		       "body: a host node is taken when added");
		is_res(cuGraphInstantiate(&x, g, 0), CUDA_ERROR_INVALID_VALUE,
		       "body: ... and refused at instantiation");
		cuGraphDestroyNode(hn);
		is_res(cuGraphInstantiate(&x, g, 0), CUDA_SUCCESS,
		       "body: without it the graph instantiates");
		cuGraphExecDestroy(x);
	}
	is_res(cuGraphDestroyNode(n), CUDA_SUCCESS, "node: destroyed");
	is_res(add_cond(&n, g, NULL, h1, CU_GRAPH_COND_TYPE_IF, 1, NULL),
	       CUDA_SUCCESS, "node: its handle is free for another node");
	cuGraphDestroy(g);
	cuGraphDestroy(g2);
}

/* ------------------------------------------------------------ runs */

/* set(h, v), then an IF or SWITCH node whose body i counts into counter
 * i once (count's limit 0 leaves h 0, read no more): the counters. */
static int pick(CUgraphConditionalNodeType t, unsigned size, unsigned v,
		bool edge)
{
	CUgraph g, *b = NULL;
	CUgraphConditionalHandle h;
	CUgraphNode k, n;
	CUdeviceptr at[4];
	void *sa[] = { &h, &v };
	unsigned zero = 0;
	int got;

	cuGraphCreate(&g, 0);
	cuGraphConditionalHandleCreate(&h, g, ctx, 0, 0);
	k = add_kernel(g, NULL, f_set, sa);
	add_cond(&n, g, edge ? k : NULL, h, t, size, &b);
	for (unsigned i = 0; b && i < size; i++) {
		void *ca[] = { &h, &at[i], &zero };
		at[i] = counter + 4 * i;
		add_kernel(b[i], NULL, f_count, ca);
	}
	got = run_once(g);
	cuGraphDestroy(g);
	return got;
}

static void runs(void)
{
	ok(pick(CU_GRAPH_COND_TYPE_IF, 1, 0, true) == 0 &&
	   pick(CU_GRAPH_COND_TYPE_IF, 1, 1, true) == 1 &&
	   pick(CU_GRAPH_COND_TYPE_IF, 1, 2, true) == 1,
	   "IF: its body runs where the value is not 0");
	ok(pick(CU_GRAPH_COND_TYPE_IF, 2, 0, true) == 10 &&
	   pick(CU_GRAPH_COND_TYPE_IF, 2, 7, true) == 1,
	   "IF with an else: the else where the value is 0");
	ok(pick(CU_GRAPH_COND_TYPE_SWITCH, 4, 0, true) == 1 &&
	   pick(CU_GRAPH_COND_TYPE_SWITCH, 4, 2, true) == 100 &&
	   pick(CU_GRAPH_COND_TYPE_SWITCH, 4, 3, true) == 1000 &&
	   pick(CU_GRAPH_COND_TYPE_SWITCH, 4, 4, true) == 0,
	   "SWITCH: the value's body, none past the last");
	ok(pick(CU_GRAPH_COND_TYPE_IF, 1, 1, false) == 1 &&
	   pick(CU_GRAPH_COND_TYPE_IF, 1, 0, false) == 0,
	   "order: a conditional node reads what a kernel added before it "
	   "set, with no edge between them");
}

/* A WHILE node counting to limit, its handle made with a default and
 * ASSIGN_DEFAULT or without: the counts of two launches of one
 * executable graph. */
static void loop(unsigned dflt, unsigned flags, int limit, int *first,
		 int *second)
{
	CUgraph g, *b = NULL;
	CUgraphConditionalHandle h;
	CUgraphNode n;
	CUgraphExec x = NULL;
	void *ca[] = { &h, &counter, &limit };

	cuGraphCreate(&g, 0);
	cuGraphConditionalHandleCreate(&h, g, ctx, dflt, flags);
	add_cond(&n, g, NULL, h, CU_GRAPH_COND_TYPE_WHILE, 1, &b);
	if (b)
		add_kernel(b[0], NULL, f_count, ca);
	cuGraphInstantiate(&x, g, 0);
	cuGraphLaunch(x, NULL);
	*first = take_count();
	cuGraphLaunch(x, NULL);
	*second = take_count();
	cuGraphExecDestroy(x);
	cuGraphDestroy(g);
}

static void loops(void)
{
	int a, b;

	loop(1, CU_GRAPH_COND_ASSIGN_DEFAULT, 5, &a, &b);
	ok(a == 5 && b == 5, "WHILE: the default 1 at each launch, the body "
	   "counting to 5 (%d, %d)", a, b);
	loop(0, CU_GRAPH_COND_ASSIGN_DEFAULT, 5, &a, &b);
	ok(a == 0 && b == 0, "WHILE: the default 0, no iteration");
	loop(1, 0, 5, &a, &b);
	ok(a == 0 && b == 0, "WHILE: a default without ASSIGN_DEFAULT is "
	   "not assigned: the value starts at 0");
}

/* A kernel outside any graph setting a handle: an illegal address, as on
 * the device. */
static void outside(void)
{
	CUgraphConditionalHandle h = 1;
	unsigned v = 1;
	void *sa[] = { &h, &v };

	is_res(cuLaunchKernel(f_set, 1, 1, 1, 1, 1, 1, 0, NULL, sa, NULL),
	       CUDA_SUCCESS, "outside: the launch is taken");
	is_res(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS,
	       "outside: cudaGraphSetConditional of no graph's handle is an "
	       "illegal address");
}

/* ------------------------------------------------------------ time */

/* The model time of one launch of g, by events on a stream of its own
 * that has just run it once (its upload paid). */
static double launch_ns(CUgraph g)
{
	CUgraphExec x = NULL;
	CUstream s;
	CUevent a, b;
	float ms = -1;

	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	cuEventCreate(&a, 0);
	cuEventCreate(&b, 0);
	cuGraphInstantiate(&x, g, 0);
	cuGraphLaunch(x, s);
	cuStreamSynchronize(s);
	take_count();
	cuEventRecord(a, s);
	cuGraphLaunch(x, s);
	cuEventRecord(b, s);
	cuEventSynchronize(b);
	cuEventElapsedTime(&ms, a, b);
	cuGraphExecDestroy(x);
	cuEventDestroy(a);
	cuEventDestroy(b);
	cuStreamDestroy(s);
	take_count();
	return ms * 1e6;
}

/* An IF node alone: its default 0 or 1, its body empty. */
static double if_alone(unsigned dflt)
{
	CUgraph g;
	CUgraphConditionalHandle h;
	CUgraphNode n;
	double ns;

	cuGraphCreate(&g, 0);
	cuGraphConditionalHandleCreate(&h, g, ctx, dflt,
				       CU_GRAPH_COND_ASSIGN_DEFAULT);
	add_cond(&n, g, NULL, h, CU_GRAPH_COND_TYPE_IF, 1, NULL);
	ns = launch_ns(g);
	cuGraphDestroy(g);
	return ns;
}

static double while_n(int limit)
{
	CUgraph g, *b = NULL;
	CUgraphConditionalHandle h;
	CUgraphNode n;
	void *ca[] = { &h, &counter, &limit };
	double ns;

	cuGraphCreate(&g, 0);
	cuGraphConditionalHandleCreate(&h, g, ctx, 1,
				       CU_GRAPH_COND_ASSIGN_DEFAULT);
	add_cond(&n, g, NULL, h, CU_GRAPH_COND_TYPE_WHILE, 1, &b);
	if (b)
		add_kernel(b[0], NULL, f_count, ca);
	ns = launch_ns(g);
	cuGraphDestroy(g);
	return ns;
}

static void times(void)
{
	double none = if_alone(0), empty = if_alone(1);
	double w1 = while_n(1), w11 = while_n(11);

	/* the launch call's 2 us on the idle stream (uvm.graph_launch_call_ns),
	 * the graph's start (graph_launch_ns, 1 us) and the node's own 3.4;
	 * an empty body starts 3.87 us later */
	ok(none > 6399 && none < 6401, "time: an IF node that runs nothing "
	   "takes the call, the graph's start and its own 3.4 us (%.0f ns)",
	   none);
	ok(empty - none > 3869 && empty - none < 3871,
	   "time: each body it runs starts 3.87 us later (%.0f ns more)",
	   empty - none);
	ok((w11 - w1) / 10 > 3870 && (w11 - w1) / 10 < 3870 + 2000,
	   "time: a WHILE node's iteration, its body's start and its kernel "
	   "(%.0f ns; the H200's 4.55 us)", (w11 - w1) / 10);
}

int main(void)
{
	CUmodule m;

	if (cuInit(0) || cuDevicePrimaryCtxRetain(&ctx, 0) ||
	    cuCtxSetCurrent(ctx)) {
		printf("Bail out! no device\n");
		return 1;
	}
	is_res(cuModuleLoadData(&m, ptx), CUDA_SUCCESS,
	       "a module calling cudaGraphSetConditional loads");
	cuModuleGetFunction(&f_set, m, "set");
	cuModuleGetFunction(&f_count, m, "count");
	cuMemAlloc(&counter, 16);
	cuMemsetD32(counter, 0, 4);
	handles();
	runs();
	loops();
	times();
	outside();
	cuModuleUnload(m);
	cuDevicePrimaryCtxRelease(0);
	return done_testing();
}
