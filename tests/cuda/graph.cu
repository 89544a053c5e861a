// graph.cu - graphs as a program uses them, beyond the probe's table
// (probes/graph.cu, replayed as graphprobe): a captured fork and join
// replayed many times with its arguments as captured, a kernel node's
// parameters changed in the executable graph, a graph updated from a new
// capture (cudaGraphExecUpdate), a child graph, and the model's time: a
// chain of 100 kernels as one graph costs the device a fraction of the
// same kernels launched one by one, and independent branches overlap.
#include <cuda_runtime.h>
#include "check.h"

__device__ int symbol_value;

__global__ void add(int *p, int v) { atomicAdd(p, v); }
__global__ void scale(int *p, int k) { *p *= k; }
__global__ void empty(int *p, int t) { if (t < 0) *p = t; }
__global__ void spin(int *p, int n)
{
	int x = 0;
	for (int i = 0; i < n; i++)
		x += i ^ x;
	if (x == -1)
		*p = x;
}

static int value(const int *d)
{
	int v = 0;
	CHECK(cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost));
	return v;
}

static float gpu_us(cudaGraphExec_t x, cudaStream_t s)
{
	cudaEvent_t a, b;
	float ms = 0;

	CHECK(cudaEventCreate(&a));
	CHECK(cudaEventCreate(&b));
	CHECK(cudaEventRecord(a, s));
	CHECK(cudaGraphLaunch(x, s));
	CHECK(cudaEventRecord(b, s));
	CHECK(cudaEventSynchronize(b));
	CHECK(cudaEventElapsedTime(&ms, a, b));
	CHECK(cudaEventDestroy(a));
	CHECK(cudaEventDestroy(b));
	return ms * 1000;
}

int main()
{
	cudaStream_t s, s2;
	cudaEvent_t fork, join;
	cudaGraph_t g, g2;
	cudaGraphExec_t x;
	int *d;
	int v = 3;

	CHECK(cudaMalloc(&d, sizeof(int)));
	CHECK(cudaStreamCreate(&s));
	CHECK(cudaStreamCreate(&s2));
	CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
	CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));

	// (1 + 3 on a forked stream) * 10, captured: arguments as captured
	CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	CHECK(cudaMemsetAsync(d, 0, sizeof(int), s));
	add<<<1, 1, 0, s>>>(d, 1);
	CHECK(cudaEventRecord(fork, s));
	CHECK(cudaStreamWaitEvent(s2, fork, 0));
	add<<<1, 1, 0, s2>>>(d, v);
	v = 1000; // no node sees this
	CHECK(cudaEventRecord(join, s2));
	CHECK(cudaStreamWaitEvent(s, join, 0));
	scale<<<1, 1, 0, s>>>(d, 10);
	CHECK(cudaStreamEndCapture(s, &g));
	CHECK(cudaGraphInstantiate(&x, g, 0));
	for (int i = 0; i < 5; i++) {
		CHECK(cudaGraphLaunch(x, s));
		CHECK(cudaStreamSynchronize(s));
		EXPECT(value(d) == 40);
	}

	// the forked kernel's argument changed in the executable graph only
	cudaGraphNode_t nodes[8];
	size_t n = 8;
	CHECK(cudaGraphGetNodes(g, nodes, &n));
	EXPECT(n == 4); // memset, add, add, scale
	cudaGraphNode_t forked = NULL;
	for (size_t i = 0; i < n; i++) {
		cudaGraphNodeType t;
		cudaKernelNodeParams kp;
		CHECK(cudaGraphNodeGetType(nodes[i], &t));
		if (t != cudaGraphNodeTypeKernel)
			continue;
		CHECK(cudaGraphKernelNodeGetParams(nodes[i], &kp));
		if (kp.func == (void *)add && *(int *)kp.kernelParams[1] == 3)
			forked = nodes[i];
	}
	EXPECT(forked != NULL);
	{
		int seven = 7;
		void *args[2] = { &d, &seven };
		cudaKernelNodeParams kp = {};
		kp.func = (void *)add;
		kp.gridDim = dim3(1);
		kp.blockDim = dim3(1);
		kp.kernelParams = args;
		CHECK(cudaGraphExecKernelNodeSetParams(x, forked, &kp));
	}
	CHECK(cudaGraphLaunch(x, s));
	CHECK(cudaStreamSynchronize(s));
	EXPECT(value(d) == 80);

	// a new capture of the same shape updates the executable graph
	CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	CHECK(cudaMemsetAsync(d, 0, sizeof(int), s));
	add<<<1, 1, 0, s>>>(d, 2);
	CHECK(cudaEventRecord(fork, s));
	CHECK(cudaStreamWaitEvent(s2, fork, 0));
	add<<<1, 1, 0, s2>>>(d, 2);
	CHECK(cudaEventRecord(join, s2));
	CHECK(cudaStreamWaitEvent(s, join, 0));
	scale<<<1, 1, 0, s>>>(d, 100);
	CHECK(cudaStreamEndCapture(s, &g2));
	cudaGraphExecUpdateResultInfo info;
	CHECK(cudaGraphExecUpdate(x, g2, &info));
	EXPECT(info.result == cudaGraphExecUpdateSuccess);
	CHECK(cudaGraphLaunch(x, s));
	CHECK(cudaStreamSynchronize(s));
	EXPECT(value(d) == 400);
	// ... and one of another shape is refused, the old one kept
	cudaGraph_t g3;
	cudaGraphNode_t e;
	CHECK(cudaGraphCreate(&g3, 0));
	CHECK(cudaGraphAddEmptyNode(&e, g3, NULL, 0));
	EXPECT(cudaGraphExecUpdate(x, g3, &info) ==
	       cudaErrorGraphExecUpdateFailure);
	EXPECT(info.result == cudaGraphExecUpdateErrorTopologyChanged);
	cudaGetLastError();
	CHECK(cudaGraphLaunch(x, s));
	CHECK(cudaStreamSynchronize(s));
	EXPECT(value(d) == 400);
	CHECK(cudaGraphExecDestroy(x));

	// a child graph runs in its parent's place
	cudaGraph_t parent;
	cudaGraphNode_t child, after;
	CHECK(cudaGraphCreate(&parent, 0));
	CHECK(cudaGraphAddChildGraphNode(&child, parent, NULL, 0, g));
	{
		int five = 5;
		void *args[2] = { &d, &five };
		cudaKernelNodeParams kp = {};
		kp.func = (void *)add;
		kp.gridDim = dim3(1);
		kp.blockDim = dim3(1);
		kp.kernelParams = args;
		CHECK(cudaGraphAddKernelNode(&after, parent, &child, 1, &kp));
	}
	CHECK(cudaGraphInstantiate(&x, parent, 0));
	CHECK(cudaGraphLaunch(x, s));
	CHECK(cudaStreamSynchronize(s));
	EXPECT(value(d) == 45);
	CHECK(cudaGraphExecDestroy(x));

	// cudaGraphAddNode's kernel and memset kinds, as their own calls
	{
		cudaGraph_t an;
		cudaGraphNode_t ms, kn;
		cudaGraphNodeParams p = {};
		int nine = 9;
		void *args[2] = { &d, &nine };
		CHECK(cudaGraphCreate(&an, 0));
		p.type = cudaGraphNodeTypeMemset;
		p.memset.dst = d;
		p.memset.value = 0;
		p.memset.elementSize = 4;
		p.memset.width = 1;
		p.memset.height = 1;
		CHECK(cudaGraphAddNode(&ms, an, NULL, NULL, 0, &p));
		p = {};
		p.type = cudaGraphNodeTypeKernel;
		p.kernel.func = (void *)add;
		p.kernel.gridDim = dim3(1);
		p.kernel.blockDim = dim3(1);
		p.kernel.kernelParams = args;
		CHECK(cudaGraphAddNode(&kn, an, &ms, NULL, 1, &p));
		// a kernel node's attributes: kept, checked, copied
		cudaKernelNodeAttrValue av = {}, got = {};
		av.accessPolicyWindow.base_ptr = d;
		av.accessPolicyWindow.num_bytes = 4096;
		av.accessPolicyWindow.hitRatio = 0.5f;
		av.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
		av.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
		CHECK(cudaGraphKernelNodeSetAttribute(
			kn, cudaKernelNodeAttributeAccessPolicyWindow, &av));
		CHECK(cudaGraphKernelNodeGetAttribute(
			kn, cudaKernelNodeAttributeAccessPolicyWindow, &got));
		EXPECT(got.accessPolicyWindow.num_bytes == 4096 &&
		       got.accessPolicyWindow.hitRatio == 0.5f);
		av.accessPolicyWindow.hitRatio = 2.0f;
		EXPECT(cudaGraphKernelNodeSetAttribute(
			       kn, cudaKernelNodeAttributeAccessPolicyWindow,
			       &av) == cudaErrorInvalidValue);
		cudaGetLastError();
		cudaGraphNode_t kn2;
		CHECK(cudaGraphAddNode(&kn2, an, &kn, NULL, 1, &p));
		CHECK(cudaGraphKernelNodeCopyAttributes(kn2, kn));
		got = {};
		CHECK(cudaGraphKernelNodeGetAttribute(
			kn2, cudaKernelNodeAttributeAccessPolicyWindow, &got));
		EXPECT(got.accessPolicyWindow.num_bytes == 4096);
		CHECK(cudaGraphInstantiate(&x, an, 0));
		CHECK(cudaGraphLaunch(x, s));
		CHECK(cudaStreamSynchronize(s));
		EXPECT(value(d) == 18);
		// the generic parameter calls: the executable graph's first
		// kernel now adds 3, a node keeps its kind
		int three = 3;
		void *args3[2] = { &d, &three };
		p.kernel.kernelParams = args3;
		CHECK(cudaGraphExecNodeSetParams(x, kn, &p));
		CHECK(cudaGraphLaunch(x, s));
		CHECK(cudaStreamSynchronize(s));
		EXPECT(value(d) == 12);
		cudaGraphNodeParams other = {};
		other.type = cudaGraphNodeTypeEmpty;
		EXPECT(cudaGraphNodeSetParams(kn, &other) ==
		       cudaErrorInvalidValue);
		cudaGetLastError();
		CHECK(cudaGraphNodeSetParams(kn2, &p));
		CHECK(cudaGraphExecDestroy(x));
		CHECK(cudaGraphDestroy(an));
	}

	// copy nodes to and from a variable
	{
		cudaGraph_t sg;
		cudaGraphNode_t to, from;
		int in = 1234, *out;
		CHECK(cudaMallocHost(&out, sizeof(int)));
		*out = 0;
		CHECK(cudaGraphCreate(&sg, 0));
		CHECK(cudaGraphAddMemcpyNodeToSymbol(&to, sg, NULL, 0,
						     symbol_value, &in,
						     sizeof in, 0,
						     cudaMemcpyHostToDevice));
		CHECK(cudaGraphAddMemcpyNodeFromSymbol(&from, sg, &to, 1, out,
						       symbol_value,
						       sizeof in, 0,
						       cudaMemcpyDeviceToHost));
		EXPECT(cudaGraphAddMemcpyNodeToSymbol(&to, sg, NULL, 0,
						      symbol_value, &in, 8, 0,
						      cudaMemcpyHostToDevice) ==
		       cudaErrorInvalidValue);
		cudaGetLastError();
		CHECK(cudaGraphInstantiate(&x, sg, 0));
		CHECK(cudaGraphLaunch(x, s));
		CHECK(cudaStreamSynchronize(s));
		EXPECT(*out == 1234);
		CHECK(cudaGraphExecDestroy(x));
		CHECK(cudaGraphDestroy(sg));
		CHECK(cudaFreeHost(out));
	}

	// a graph's own memory: allocated and freed in the capture, at the
	// same address every launch, its free outside a graph taken as
	// nothing while the graph holds it
	{
		cudaGraph_t mg;
		int *tmp = NULL, *first = NULL, *h;
		CHECK(cudaMallocHost(&h, sizeof(int)));
		CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
		CHECK(cudaMallocAsync(&tmp, sizeof(int), s));
		first = tmp;
		CHECK(cudaMemsetAsync(tmp, 0, sizeof(int), s));
		add<<<1, 1, 0, s>>>(tmp, 11);
		CHECK(cudaMemcpyAsync(h, tmp, sizeof(int), cudaMemcpyDeviceToHost,
				      s));
		CHECK(cudaFreeAsync(tmp, s));
		CHECK(cudaStreamEndCapture(s, &mg));
		size_t k = 0;
		CHECK(cudaGraphGetNodes(mg, NULL, &k));
		EXPECT(k == 5);
		CHECK(cudaGraphInstantiate(&x, mg, 0));
		for (int i = 0; i < 3; i++) {
			*h = 0;
			CHECK(cudaGraphLaunch(x, s));
			CHECK(cudaStreamSynchronize(s));
			EXPECT(*h == 11);
		}
		CHECK(cudaFree(first));
		CHECK(cudaGraphLaunch(x, s));
		CHECK(cudaStreamSynchronize(s));
		EXPECT(*h == 11);
		CHECK(cudaGraphExecDestroy(x));
		CHECK(cudaGraphDestroy(mg));
		CHECK(cudaFreeHost(h));
	}

	// model time: 100 kernels as a graph, then one by one
	cudaGraph_t chain;
	CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	for (int i = 0; i < 100; i++)
		empty<<<1, 32, 0, s>>>(d, i);
	CHECK(cudaStreamEndCapture(s, &chain));
	CHECK(cudaGraphInstantiate(&x, chain, 0));
	// uploaded first: a first launch's upload is the host's time
	CHECK(cudaGraphUpload(x, s));
	CHECK(cudaStreamSynchronize(s));
	float graph = gpu_us(x, s);
	cudaEvent_t a, b;
	float ms;
	CHECK(cudaEventCreate(&a));
	CHECK(cudaEventCreate(&b));
	CHECK(cudaEventRecord(a, s));
	for (int i = 0; i < 100; i++)
		empty<<<1, 32, 0, s>>>(d, i);
	CHECK(cudaEventRecord(b, s));
	CHECK(cudaEventSynchronize(b));
	CHECK(cudaEventElapsedTime(&ms, a, b));
	std::printf("100 kernels: graph %.1f us, one by one %.1f us\n", graph,
		    ms * 1000);
	EXPECT(graph > 100 * 0.5f);      // a node's start each
	EXPECT(graph * 3 < ms * 1000);    // no launch call each
	CHECK(cudaGraphExecDestroy(x));

	// independent branches overlap: 8 take about what 1 takes
	float t[2];
	for (int k = 0; k < 2; k++) {
		cudaGraph_t w;
		cudaGraphNode_t node;
		int iters = 20000;
		void *args[2] = { &d, &iters };
		cudaKernelNodeParams kp = {};
		kp.func = (void *)spin;
		kp.gridDim = dim3(1);
		kp.blockDim = dim3(32);
		kp.kernelParams = args;
		CHECK(cudaGraphCreate(&w, 0));
		for (int i = 0; i < (k ? 8 : 1); i++)
			CHECK(cudaGraphAddKernelNode(&node, w, NULL, 0, &kp));
		CHECK(cudaGraphInstantiate(&x, w, 0));
		t[k] = gpu_us(x, s);
		CHECK(cudaGraphExecDestroy(x));
		CHECK(cudaGraphDestroy(w));
	}
	std::printf("branches: 1 %.1f us, 8 %.1f us\n", t[0], t[1]);
	EXPECT(t[1] < 2 * t[0]);

	CHECK(cudaGraphDestroy(chain));
	CHECK(cudaGraphDestroy(parent));
	CHECK(cudaGraphDestroy(g));
	CHECK(cudaGraphDestroy(g2));
	CHECK(cudaGraphDestroy(g3));
	CHECK(cudaFree(d));
	std::printf("PASS\n");
	return 0;
}
