// basic.cu - kernels of our own for the module and launch tests and for
// probes/launch.c: a saxpy, shared memory static and dynamic, a local
// depot, launch bounds, module variables (.global, .const, __managed__),
// and the ways a kernel fails (illegal address, assert, trap), written the
// way ordinary CUDA programs write them. The PTX and fatbins beside this
// file are nvcc's output for it (Makefile.am, "kernels"), committed so
// that machines without nvcc test the same images.
#include <cassert>
#include <cstdio>

__device__ int table[4] = {1, 2, 3, 4};
__constant__ float coef[8] = {0.5f, 1.5f};
__managed__ int counter = 7;

extern "C" __global__ void saxpy(int n, float a, const float *x, float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
}

// one warp's transpose of a 32x32 tile through static shared memory
extern "C" __global__ void transpose32(const float *in, float *out)
{
	__shared__ float tile[32][33];
	int x = threadIdx.x, y = threadIdx.y;
	tile[y][x] = in[y * 32 + x];
	__syncthreads();
	out[y * 32 + x] = tile[x][y];
}

// sums blockDim.x values through dynamic shared memory
extern "C" __global__ void blocksum(const int *in, int *out)
{
	extern __shared__ int buf[];
	buf[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
	__syncthreads();
	for (int s = blockDim.x / 2; s > 0; s >>= 1) {
		if (threadIdx.x < s)
			buf[threadIdx.x] += buf[threadIdx.x + s];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		out[blockIdx.x] = buf[0];
}

// an array indexed at run time lives in the local depot
extern "C" __global__ void __launch_bounds__(128, 4)
	localsum(const int *idx, int *out)
{
	int a[16];
	for (int i = 0; i < 16; i++)
		a[i] = i * threadIdx.x;
	out[threadIdx.x] = a[idx[threadIdx.x] & 15];
}

// the module's variables, read and written by a kernel
extern "C" __global__ void globals(int *out)
{
	out[0] = table[threadIdx.x & 3] + (int)coef[1];
	atomicAdd(&counter, 1);
}

extern "C" __global__ void illegal(int *p)
{
	p[threadIdx.x] = 1;
}

extern "C" __global__ void fails_assert(int v)
{
	assert(v == 0);
}

extern "C" __global__ void traps(void)
{
	__trap();
}

extern "C" __global__ void says(int v)
{
	printf("block %d thread %d v %d\n", blockIdx.x, threadIdx.x, v);
}

// a mangled name, as most programs' kernels have
template <typename T> __global__ void scale(T *p, T k)
{
	p[threadIdx.x] *= k;
}
template __global__ void scale<double>(double *, double);
