// control.cu - control flow: divergence, nested divergence, loops of
// different trip counts per lane, barriers after divergence, early exit,
// device functions, dynamic shared memory, local arrays, module globals.
#include <cstdio>
#include <cassert>
#include <cooperative_groups.h>

__device__ int table[8] = { 3, 1, 4, 1, 5, 9, 2, 6 };
__device__ unsigned long long counter = 40;
__constant__ float scale[2] = { 0.5f, 2.0f };
__managed__ int managedValue = 7;

// Each lane takes one of four paths, two of them nested.
extern "C" __global__ void diverge(int *out)
{
	int t = threadIdx.x, v;
	if (t & 1) {
		if (t & 2)
			v = t * 3;
		else
			v = t + 100;
	} else {
		if (t % 3 == 0)
			v = -t;
		else
			v = t << 4;
	}
	out[blockIdx.x * blockDim.x + t] = v;
}

// A loop whose trip count is the lane's id: lanes leave it one by one.
extern "C" __global__ void loops(int *out)
{
	int t = threadIdx.x, s = 0;
	for (int i = 0; i <= t; i++)
		s += i * i;
	out[t] = s;
}

// Warps diverge, reconverge, then meet at a barrier; the shared values
// written before it are read after it by other warps.
extern "C" __global__ void barrierAfterDivergence(int *out)
{
	__shared__ int s[256];
	int t = threadIdx.x;
	if (t % 5 == 0)
		s[t] = t * 2;
	else if (t % 5 == 1)
		s[t] = t + 7;
	else
		s[t] = -t;
	__syncthreads();
	out[t] = s[(t + 37) % blockDim.x] + s[blockDim.x - 1 - t];
}

// Threads past n leave early; the others still sync.
extern "C" __global__ void earlyExit(int *out, int n)
{
	__shared__ int s[128];
	int t = threadIdx.x;
	if (t >= n)
		return;
	s[t] = t;
	__syncthreads();
	out[t] = s[n - 1 - t];
}

__device__ __noinline__ int collatz(int x)
{
	int steps = 0;
	while (x != 1) {
		x = (x & 1) ? 3 * x + 1 : x / 2;
		steps++;
	}
	return steps;
}

__device__ __noinline__ float poly(float x, int k)
{
	if (k > 2)
		return x * x * scale[1];
	return x + scale[0];
}

// Calls of device functions from divergent lanes.
extern "C" __global__ void calls(int *steps, float *f)
{
	int t = threadIdx.x + 1;
	if (t % 3)
		steps[t - 1] = collatz(t);
	else
		steps[t - 1] = -1;
	f[t - 1] = poly((float)t, t % 5);
}

// Dynamic shared memory reversed across the block.
extern "C" __global__ void dynamicShared(int *data)
{
	extern __shared__ int d[];
	int t = threadIdx.x, n = blockDim.x;
	d[t] = data[t];
	__syncthreads();
	data[t] = d[n - t - 1];
}

// A local array indexed at run time (kept in the local depot).
extern "C" __global__ void localArray(const int *idx, int *out)
{
	int a[16];
	for (int i = 0; i < 16; i++)
		a[i] = i * threadIdx.x + table[i & 7];
	out[threadIdx.x] = a[idx[threadIdx.x] & 15];
}

// Module globals read and written by a kernel.
extern "C" __global__ void globals(int *out)
{
	out[0] = table[5] + managedValue;
	counter += 2;
	managedValue = 11;
	out[1] = (int)(scale[1] * 10);
}

extern "C" __global__ void hello(int n)
{
	if (threadIdx.x < n)
		printf("thread %d of block %d: %f %s\n", threadIdx.x,
		       blockIdx.x, 1.5 * threadIdx.x, "ok");
}

extern "C" __global__ void assertPositive(const int *v)
{
	assert(v[threadIdx.x] > 0);
}

extern "C" __global__ void trapAt(int at)
{
	if (threadIdx.x == at)
		__trap();
}

extern "C" __global__ void store(int *p, int v)
{
	p[threadIdx.x] = v;
}

extern "C" __global__ void special(unsigned *out)
{
	unsigned i = ((blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x +
		      blockIdx.x) * (blockDim.x * blockDim.y * blockDim.z) +
		     (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x +
		     threadIdx.x;
	unsigned lane;
	asm("mov.u32 %0, %%laneid;" : "=r"(lane));
	out[i * 4 + 0] = threadIdx.x | threadIdx.y << 8 | threadIdx.z << 16;
	out[i * 4 + 1] = blockIdx.x | blockIdx.y << 8 | blockIdx.z << 16;
	out[i * 4 + 2] = blockDim.x | blockDim.y << 8 | blockDim.z << 16;
	out[i * 4 + 3] = lane | gridDim.x << 8 | gridDim.y << 16 | gridDim.z << 24;
}

// A store, a load and a store of the same word: three accesses to one page.
extern "C" __global__ void twice(volatile int *p)
{
	p[threadIdx.x] = 1;
	p[threadIdx.x] = p[threadIdx.x] + 2;
}

__device__ __noinline__ int classify(int x)
{
	if (x < 0)
		return -1;
	if (x == 0)
		return 0;
	if (x > 100)
		return 2;
	return 1;
}

// A callee with several returns, called by lanes of every class.
extern "C" __global__ void returns(const int *in, int *out)
{
	int t = threadIdx.x;
	out[t] = classify(in[t]) * 10 + (t & 1 ? classify(-in[t]) : 5);
}

// Every block writes its part, the grid syncs, then each block reads a
// part another block wrote: only a cooperative launch may run it.
extern "C" __global__ void gridSync(int *p, int *q, int rounds)
{
	cooperative_groups::grid_group g = cooperative_groups::this_grid();
	unsigned n = gridDim.x * blockDim.x, i = g.thread_rank();
	for (int r = 0; r < rounds; r++) {
		p[i] = (int)i * 3 + r;
		g.sync();
		q[i] += p[(i + blockDim.x * 3) % n];
		g.sync();
	}
}

// A warp's accesses in the shapes the engine moves whole: every lane at
// one address (a pointer argument all threads read), runs of consecutive
// 1-, 2-, 4- and 8-byte elements, signed and not, in global and shared
// memory, and a store of every lane to one address.
extern "C" __global__ void spans(const int *one, const signed char *c,
				 const short *h, const unsigned char *u,
				 const long long *q, long long *out, int *last)
{
	__shared__ short s[256];
	int t = blockIdx.x * blockDim.x + threadIdx.x;

	s[threadIdx.x] = h[t];
	__syncthreads();
	out[t] = (long long)*one * 1000000 + c[t] * 10000 +
		 s[blockDim.x - 1 - threadIdx.x] * 10 + u[t] + q[t];
	*last = threadIdx.x;
}
