// recursion.cu - device functions that call themselves: a value returned
// up the calls, lanes recursing to different depths, a pointer into the
// caller's frame written by the callee, two functions calling each other,
// and a cuda::barrier's phases.
#pragma nv_diag_suppress static_var_with_dynamic_init
#include <cuda/barrier>

__device__ __noinline__ int fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

// out[t] = fib(t % 13): each lane its own depth.
extern "C" __global__ void fibs(int *out)
{
	out[threadIdx.x] = fib(threadIdx.x % 13);
}

// Each frame has an array; the callee adds into its caller's through a
// pointer, so frames must be distinct memory.
__device__ __noinline__ void fill(int *parent, int d)
{
	int mine[8];

	for (int i = 0; i < 8; i++)
		mine[i] = d * 10 + i;
	if (d > 0)
		fill(mine, d - 1);
	for (int i = 0; i < 8; i++)
		parent[i] += mine[(i + d) & 7];
}

extern "C" __global__ void frames(int *out, int depth)
{
	int acc[8] = { 0 };

	fill(acc, depth + (threadIdx.x & 3));
	for (int i = 0; i < 8; i++)
		out[threadIdx.x * 8 + i] = acc[i];
}

__device__ __noinline__ bool is_odd(unsigned n);
__device__ __noinline__ bool is_even(unsigned n)
{
	return n == 0 ? true : is_odd(n - 1);
}
__device__ __noinline__ bool is_odd(unsigned n)
{
	return n == 0 ? false : is_even(n - 1);
}

extern "C" __global__ void parity(int *out)
{
	out[threadIdx.x] = is_even(threadIdx.x);
}

// A block's threads through four phases of a cuda::barrier, each phase
// reading what every thread wrote in the one before.
extern "C" __global__ void phases(int *out)
{
	__shared__ cuda::barrier<cuda::thread_scope_block> bar;
	__shared__ int v[128];
	int t = threadIdx.x, n = blockDim.x, sum = 0;

	if (t == 0)
		init(&bar, n);
	__syncthreads();
	for (int ph = 0; ph < 4; ph++) {
		v[t] = t + ph;
		bar.arrive_and_wait();
		sum += v[(t + 1) % n];
		bar.arrive_and_wait();
	}
	if (t == n - 1) {
		bar.arrive_and_drop();   // the others go on without it
		out[t] = sum;
		return;
	}
	bar.arrive_and_wait();
	out[t] = sum;
}
