// cdp.cu - dynamic parallelism (CUDA 12's device runtime) on the real
// GPU: what the device runtime's calls answer in device code (streams and
// events made there, a launch of a bad shape, launches past the pending
// count and past the nesting depth, the error names and texts, cudaMalloc,
// cudaGetDevice, cudaDeviceGetAttribute, cudaRuntimeGetVersion), in what
// order queued work runs (a copy queued behind a child, a tail launch
// behind fire-and-forget children), and what launches from the device
// cost: a parent launching 1 to 100 empty children from one thread into
// its block's stream, fire-and-forget, and from each of 100 blocks;
// chains of children 1 to 16 deep; tail launches one after another.
// Run as `cdp overlap`: spinning children (20 us each) from one thread into
// its block's stream, into streams of their own, fire-and-forget; binary
// trees of launches 1 to 10 deep, each child in a stream of its own, with
// and without 20 us of work a node.
// Run as `cdp first` (a fresh process each time): the first launches of an
// empty kernel and of kernels that launch, each timed by events.
// Run as `cdp wide`: blocks of 1,024 threads stepping through 110 barriers
// (a bitonic sort's shape), one alone and 16 to 1,024 in streams of their
// own; binary trees of grids of 64 blocks, the last block of each
// launching the next two (cdpAdvancedQuicksort's shape).
// Each line: cdp.<case>: <result> [details]; timings: cdp.time.<case>
// rep<i>: ms=<device time by events around the host's launch>; the last
// line cdp.done (added after the run kept in results/).
// Build: nvcc -O2 -arch=sm_90 -rdc=true -cudart shared -o cdp cdp.cu -lcudadevrt
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("cdp.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorName(e_)); exit(1); } } while (0)

__device__ int out[64];
__device__ int counter;
__device__ int order[256];
__device__ unsigned norder;

__global__ void k_empty(void) {}

__global__ void k_note(int v)
{
	order[atomicAdd(&norder, 1)] = v;
}

/* What the device runtime's calls answer, each into out[]. */
__global__ void k_answers(int *buf)
{
	cudaStream_t s;
	cudaEvent_t e;
	void *p = NULL;
	int v = -1;

	out[0] = cudaStreamCreateWithFlags(&s, 0);
	out[1] = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
	out[2] = cudaStreamDestroy(s);
	out[3] = cudaEventCreateWithFlags(&e, 0);
	out[4] = cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
	out[5] = cudaEventDestroy(e);
	out[6] = cudaGetLastError();
	k_empty<<<1, 2048>>>();
	out[7] = cudaPeekAtLastError();
	out[8] = cudaGetLastError();
	out[9] = cudaGetLastError();
	out[10] = cudaMalloc(&p, 1000);
	out[11] = p != NULL && ((unsigned long long)p & 15) == 0;
	out[12] = cudaFree(p);
	out[13] = cudaGetDevice(&v);
	out[14] = v;
	out[15] = cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0);
	out[16] = v;
	out[17] = cudaRuntimeGetVersion(&v);
	out[18] = v;
	out[19] = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)100000, 0);
	printf("cdp.names: %s %s %s %s\n", cudaGetErrorName(cudaSuccess),
	       cudaGetErrorName((cudaError_t)out[7]),
	       cudaGetErrorName(cudaErrorLaunchPendingCountExceeded),
	       cudaGetErrorName(cudaErrorLaunchMaxDepthExceeded));
	printf("cdp.text: %s | %s\n", cudaGetErrorString((cudaError_t)out[7]),
	       cudaGetErrorString(cudaErrorLaunchPendingCountExceeded));
	/* the launch of a kernel that is not one: a null function */
	void *pb = cudaGetParameterBuffer(16, 16);
	out[20] = pb != NULL;
	(void)buf;
}

/* n launches from one thread: how many the device runtime refuses, and
 * the last refusal. */
__global__ void k_pending(int n)
{
	int refused = 0, last = 0;

	for (int i = 0; i < n; i++) {
		k_empty<<<1, 1>>>();
		cudaError_t e = cudaGetLastError();
		if (e != cudaSuccess) {
			refused++;
			last = e;
		}
	}
	out[30] = refused;
	out[31] = last;
}

/* A chain of children, each one deeper: the deepest that ran, and the
 * error of the first launch refused. */
__global__ void k_deep(int depth, int limit)
{
	atomicMax(&out[40], depth);
	if (depth < limit) {
		k_deep<<<1, 1>>>(depth + 1, limit);
		cudaError_t e = cudaGetLastError();
		if (e != cudaSuccess)
			atomicCAS(&out[41], 0, (int)e * 1000 + depth);
	}
}

/* Order: a note, a copy behind it in the block's stream, a tail launch
 * made before two fire-and-forget ones. */
__global__ void k_order(int *src, int *dst)
{
	k_note<<<1, 1>>>(1);
	cudaMemcpyAsync(dst, src, 4 * sizeof(int), cudaMemcpyDeviceToDevice, 0);
	k_note<<<1, 1, 0, cudaStreamTailLaunch>>>(4);
	k_note<<<1, 1, 0, cudaStreamFireAndForget>>>(2);
	k_note<<<1, 1, 0, cudaStreamFireAndForget>>>(3);
}

/* A parent's child sees what the parent wrote before the launch; the
 * parent's write after the launch is not ordered with it. */
__global__ void k_child_reads(int *p)
{
	out[50] = p[0];
}
__global__ void k_parent_writes(int *p)
{
	p[0] = 7;
	k_child_reads<<<1, 1>>>(p);
}

/* Timing: n children from one thread into the block's stream, or
 * fire-and-forget; each of the grid's threads launching one. */
__global__ void k_serial(int n)
{
	for (int i = 0; i < n; i++)
		k_empty<<<1, 1>>>();
}
__global__ void k_ff(int n)
{
	for (int i = 0; i < n; i++)
		k_empty<<<1, 1, 0, cudaStreamFireAndForget>>>();
}
__global__ void k_each(void)
{
	k_empty<<<1, 1>>>();
}
__global__ void k_chain(int left)
{
	if (left > 0)
		k_chain<<<1, 1>>>(left - 1);
}
__global__ void k_tail(int left)
{
	if (left > 0)
		k_tail<<<1, 1, 0, cudaStreamTailLaunch>>>(left - 1);
}

/* A child that spins about us microseconds of the device's clock. */
__global__ void k_spin(int us)
{
	unsigned long long t0 = clock64(), t = t0;
	while (t - t0 < (unsigned long long)us * 1980)
		t = clock64();
}
/* n spinning children from one thread into its block's stream, into a
 * stream of their own each, fire-and-forget. */
__global__ void k_spin_serial(int n)
{
	for (int i = 0; i < n; i++)
		k_spin<<<1, 1>>>(20);
}
__global__ void k_spin_streams(int n)
{
	for (int i = 0; i < n; i++) {
		cudaStream_t s;
		cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
		k_spin<<<1, 1, 0, s>>>(20);
		cudaStreamDestroy(s);
	}
}
__global__ void k_spin_ff(int n)
{
	for (int i = 0; i < n; i++)
		k_spin<<<1, 1, 0, cudaStreamFireAndForget>>>(20);
}
/* A binary tree of launches, each child in a stream of its own, depth
 * levels below the root. */
__global__ void k_tree(int depth)
{
	if (depth > 0) {
		cudaStream_t s0, s1;
		cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking);
		cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
		k_tree<<<1, 1, 0, s0>>>(depth - 1);
		k_tree<<<1, 1, 0, s1>>>(depth - 1);
		cudaStreamDestroy(s0);
		cudaStreamDestroy(s1);
	}
}
/* The same with each node spinning 20 us first. */
__global__ void k_tree_spin(int depth)
{
	unsigned long long t0 = clock64(), t = t0;
	while (t - t0 < 20ull * 1980)
		t = clock64();
	if (depth > 0) {
		cudaStream_t s0, s1;
		cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking);
		cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
		k_tree_spin<<<1, 1, 0, s0>>>(depth - 1);
		k_tree_spin<<<1, 1, 0, s1>>>(depth - 1);
		cudaStreamDestroy(s0);
		cudaStreamDestroy(s1);
	}
}

/* A block of 1,024 threads through 55 barrier steps over shared memory,
 * as a bitonic sort of 1,024 keys steps. */
__global__ void k_steps(void)
{
	__shared__ unsigned v[1024];
	unsigned t = threadIdx.x;

	v[t] = t * 2654435761u;
	__syncthreads();
	for (int s = 0; s < 55; s++) {
		unsigned o = v[t ^ (1u << (s % 10))];
		__syncthreads();
		v[t] = o < v[t] ? o : v[t];
		__syncthreads();
	}
}
/* n of them from one thread, each into a stream of its own. */
__global__ void k_fan_steps(int n)
{
	for (int i = 0; i < n; i++) {
		cudaStream_t s;
		cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
		k_steps<<<1, 1024, 0, s>>>();
		cudaStreamDestroy(s);
	}
}
/* A binary tree of grids of 64 blocks of 128 threads: the last block to
 * end launches the node's two children, each into a stream of its own. */
__device__ unsigned wide_done[4096];
__global__ void k_tree_wide(int depth, int node)
{
	__shared__ bool last;
	if (threadIdx.x == 0)
		last = atomicAdd(&wide_done[node], 1) == gridDim.x - 1;
	__syncthreads();
	if (last && threadIdx.x == 0) {
		wide_done[node] = 0;
		if (depth > 0) {
			cudaStream_t s0, s1;
			cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking);
			cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
			k_tree_wide<<<64, 128, 0, s0>>>(depth - 1, 2 * node + 1);
			k_tree_wide<<<64, 128, 0, s1>>>(depth - 1, 2 * node + 2);
			cudaStreamDestroy(s0);
			cudaStreamDestroy(s1);
		}
	}
}

typedef void (*launcher)(int);

static void l_empty(int) { k_empty<<<1, 1>>>(); }
static void l_serial(int n) { k_serial<<<1, 1>>>(n); }
static void l_ff(int n) { k_ff<<<1, 1>>>(n); }
static void l_each_block(int n) { k_each<<<n, 1>>>(); }
static void l_each_thread(int n) { k_each<<<1, n>>>(); }
static void l_chain(int n) { k_chain<<<1, 1>>>(n); }
static void l_tail(int n) { k_tail<<<1, 1>>>(n); }
static void l_spin(int n) { k_spin<<<1, 1>>>(n); }
static void l_spin_serial(int n) { k_spin_serial<<<1, 1>>>(n); }
static void l_spin_streams(int n) { k_spin_streams<<<1, 1>>>(n); }
static void l_spin_ff(int n) { k_spin_ff<<<1, 1>>>(n); }
static void l_tree(int n) { k_tree<<<1, 1>>>(n); }
static void l_tree_spin(int n) { k_tree_spin<<<1, 1>>>(n); }
static void l_steps(int) { k_steps<<<1, 1024>>>(); }
static void l_fan_steps(int n) { k_fan_steps<<<1, 1>>>(n); }
static void l_tree_wide(int n) { k_tree_wide<<<64, 128>>>(n, 0); }

static void timed(const char *name, launcher f, int n)
{
	cudaEvent_t a, b;
	float ms;

	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	f(n);   /* warm */
	CK(cudaDeviceSynchronize());
	for (int rep = 0; rep < 5; rep++) {
		CK(cudaEventRecord(a));
		f(n);
		CK(cudaEventRecord(b));
		CK(cudaEventSynchronize(b));
		CK(cudaEventElapsedTime(&ms, a, b));
		printf("cdp.time.%s n=%d rep%d: ms=%.6f\n", name, n, rep, ms);
	}
	CK(cudaGetLastError());
	CK(cudaEventDestroy(a));
	CK(cudaEventDestroy(b));
}

/* One launch timed by events, nothing before it warmed. */
static float once(launcher f, int n)
{
	cudaEvent_t a, b;
	float ms;

	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	CK(cudaEventRecord(a));
	f(n);
	CK(cudaEventRecord(b));
	CK(cudaEventSynchronize(b));
	CK(cudaEventElapsedTime(&ms, a, b));
	CK(cudaGetLastError());
	CK(cudaEventDestroy(a));
	CK(cudaEventDestroy(b));
	return ms;
}

int main(int argc, char **argv)
{
	/* `cdp first`: a fresh process's first launches, before anything
	 * else: an empty kernel twice, then a kernel launching one child
	 * three times, then another such kernel */
	if (argc > 1 && argv[1][0] == 'f') {
		CK(cudaFree(0));
		for (int i = 0; i < 2; i++)
			printf("cdp.first empty %d: ms=%.6f\n", i,
			       once(l_empty, 0));
		for (int i = 0; i < 3; i++)
			printf("cdp.first serial1 %d: ms=%.6f\n", i,
			       once(l_serial, 1));
		printf("cdp.first chain1 0: ms=%.6f\n", once(l_chain, 1));
		printf("cdp.done\n");
		return 0;
	}
	int h[64], *src, *dst, hd[4], ord[8];
	unsigned n;

	CK(cudaMalloc(&src, 64));
	CK(cudaMalloc(&dst, 64));
	CK(cudaMemset(dst, 0, 64));
	for (int i = 0; i < 4; i++)
		hd[i] = 10 + i;
	CK(cudaMemcpy(src, hd, sizeof hd, cudaMemcpyHostToDevice));

	k_answers<<<1, 1>>>(src);
	CK(cudaDeviceSynchronize());
	CK(cudaMemcpyFromSymbol(h, out, sizeof h));
	printf("cdp.stream_create_0: %d\n", h[0]);
	printf("cdp.stream_create_nonblocking: %d\n", h[1]);
	printf("cdp.stream_destroy: %d\n", h[2]);
	printf("cdp.event_create_0: %d\n", h[3]);
	printf("cdp.event_create_disable_timing: %d\n", h[4]);
	printf("cdp.event_destroy: %d\n", h[5]);
	printf("cdp.last_error_after_calls: %d\n", h[6]);
	printf("cdp.bad_block_peek: %d\n", h[7]);
	printf("cdp.bad_block_get: %d then %d\n", h[8], h[9]);
	printf("cdp.malloc: %d aligned16=%d free=%d\n", h[10], h[11], h[12]);
	printf("cdp.get_device: %d device=%d\n", h[13], h[14]);
	printf("cdp.attribute_sms: %d value=%d\n", h[15], h[16]);
	printf("cdp.runtime_version: %d value=%d\n", h[17], h[18]);
	printf("cdp.attribute_bad: %d\n", h[19]);
	printf("cdp.param_buffer_no_kernel: %d\n", h[20]);

	for (int count = 2000; count <= 3000; count += 1000) {
		k_pending<<<1, 1>>>(count);
		CK(cudaDeviceSynchronize());
		CK(cudaMemcpyFromSymbol(h, out, sizeof h));
		printf("cdp.pending n=%d: refused=%d last=%d\n", count, h[30],
		       h[31]);
	}

	k_deep<<<1, 1>>>(0, 30);
	printf("cdp.deep launch: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
	CK(cudaMemcpyFromSymbol(h, out, sizeof h));
	printf("cdp.deep: deepest=%d refused=%d at_depth=%d\n", h[40],
	       h[41] / 1000, h[41] % 1000);

	k_order<<<1, 1>>>(src, dst);
	CK(cudaDeviceSynchronize());
	CK(cudaMemcpyFromSymbol(&n, norder, sizeof n));
	CK(cudaMemcpyFromSymbol(ord, order, sizeof ord));
	CK(cudaMemcpy(hd, dst, sizeof hd, cudaMemcpyDeviceToHost));
	printf("cdp.order: n=%u notes=%d %d %d %d copy=%d %d %d %d\n", n,
	       ord[0], ord[1], ord[2], ord[3], hd[0], hd[1], hd[2], hd[3]);

	k_parent_writes<<<1, 1>>>(dst);
	CK(cudaDeviceSynchronize());
	CK(cudaMemcpyFromSymbol(h, out, sizeof h));
	printf("cdp.child_sees_parent: %d\n", h[50]);

	if (argc > 1 && argv[1][0] == 't') {
		timed("empty", l_empty, 0);
		for (int k = 1; k <= 100; k *= 10) {
			timed("serial", l_serial, k);
			timed("ff", l_ff, k);
			timed("blocks", l_each_block, k);
			timed("threads", l_each_thread, k);
			timed("tail", l_tail, k);
		}
		for (int k = 1; k <= 16; k *= 2)
			timed("chain", l_chain, k);
	}
	/* `cdp overlap`: whether children in streams of their own, and the
	 * subtrees of a tree of launches, run side by side */
	if (argc > 1 && argv[1][0] == 'o') {
		timed("spin", l_spin, 20);
		for (int k = 1; k <= 64; k *= 4) {
			timed("spin_serial", l_spin_serial, k);
			timed("spin_streams", l_spin_streams, k);
			timed("spin_ff", l_spin_ff, k);
		}
		for (int k = 1; k <= 10; k += 3) {
			timed("tree", l_tree, k);
			timed("tree_spin", l_tree_spin, k);
		}
	}
	/* `cdp wide`: blocks of 1,024 threads stepping through barriers, one
	 * alone and 16 to 1,024 side by side in streams of their own; trees
	 * of grids of 64 blocks (cuda-samples' cdpAdvancedQuicksort's
	 * shapes) */
	if (argc > 1 && argv[1][0] == 'w') {
		timed("steps", l_steps, 1);
		for (int k = 16; k <= 1024; k *= 4)
			timed("fan_steps", l_fan_steps, k);
		for (int k = 1; k <= 10; k += 3)
			timed("tree_wide", l_tree_wide, k);
	}
	CK(cudaFree(src));
	CK(cudaFree(dst));
	printf("cdp.done\n");
	return 0;
}
