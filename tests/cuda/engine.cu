// engine.cu - what the engine gained for cuda-samples, through the
// runtime: __half2 and __nv_bfloat16 arithmetic (cuda_fp16.h and
// cuda_bf16.h as nvcc compiles them), their atomicAdd and a 16-bit
// atomicCAS by 256 threads at once, a cuda::barrier's phases, a
// recursive device function under the stack limit it sets, and the
// illegal address a recursion past the default limit ends in (last: it
// leaves the context failed, as on the device).
#pragma nv_diag_suppress static_var_with_dynamic_init
#include "check.h"
#include <cuda/barrier>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// dot[i] = a[i] * b[i] + {0.5, -0.5}, in halves
__global__ void halves(const __half2 *a, const __half2 *b, float2 *out)
{
	int i = threadIdx.x;
	__half2 r = __hfma2(a[i], b[i], __floats2half2_rn(0.5f, -0.5f));
	r = r + __float2half2_rn(1.0f);
	__nv_bfloat16 x = __float2bfloat16(__low2float(r));
	x = __hmul(x, __float2bfloat16(2.0f));
	out[i] = make_float2(__bfloat162float(x), __high2float(r));
}

// 256 threads add 1 to one __half, {1, 0.5} to one __half2 and 2 to one
// __nv_bfloat16 (every partial sum exact), and race to swap 0 for 7
__global__ void half_atomics(__half *h, __half2 *h2, __nv_bfloat16 *b,
			     unsigned short *c, int *wins)
{
	atomicAdd(h, __float2half(1.0f));
	atomicAdd(h2, __floats2half2_rn(1.0f, 0.5f));
	atomicAdd(b, __float2bfloat16(2.0f));
	if (atomicCAS(c, (unsigned short)0, (unsigned short)7) == 0)
		atomicAdd(wins, 1);
}

__global__ void phases(int *out)
{
	__shared__ cuda::barrier<cuda::thread_scope_block> bar;
	__shared__ int v[64];
	int t = threadIdx.x, sum = 0;

	if (t == 0)
		init(&bar, blockDim.x);
	__syncthreads();
	for (int ph = 0; ph < 3; ph++) {
		v[t] = t * ph;
		bar.arrive_and_wait();
		sum += v[(t + 1) % blockDim.x];
		bar.arrive_and_wait();
	}
	out[t] = sum;
}

__device__ __noinline__ int depth_sum(int d)
{
	volatile int pad[24];

	for (int i = 0; i < 24; i++)
		pad[i] = d + i;
	return d == 0 ? pad[3] : depth_sum(d - 1) + pad[d % 24];
}

__global__ void recurse(int *out, int d)
{
	out[threadIdx.x] = depth_sum(d);
}

int main()
{
	__half2 *a, *b;
	float2 *f;
	int *o;
	size_t lim = 0;

	CHECK(cudaMallocManaged(&a, 32 * sizeof *a));
	CHECK(cudaMallocManaged(&b, 32 * sizeof *b));
	CHECK(cudaMallocManaged(&f, 32 * sizeof *f));
	CHECK(cudaMallocManaged(&o, 64 * sizeof *o));
	for (int i = 0; i < 32; i++) {
		a[i] = __floats2half2_rn((float)i, 3.0f);
		b[i] = __floats2half2_rn(2.0f, (float)(i % 5));
	}
	halves<<<1, 32>>>(a, b, f);
	CHECK(cudaDeviceSynchronize());
	for (int i = 0; i < 32; i++)   // exact in both formats
		EXPECT(f[i].x == 2.0f * (2.0f * i + 1.5f) &&
		       f[i].y == 3.0f * (i % 5) + 0.5f);

	struct {
		__half h;
		__half2 h2;
		__nv_bfloat16 b;
		unsigned short c;
		int wins;
	} *at;
	CHECK(cudaMallocManaged(&at, sizeof *at));
	CHECK(cudaMemset(at, 0, sizeof *at));
	half_atomics<<<4, 64>>>(&at->h, &at->h2, &at->b, &at->c, &at->wins);
	CHECK(cudaDeviceSynchronize());
	EXPECT(__half2float(at->h) == 256.0f);
	EXPECT(__low2float(at->h2) == 256.0f && __high2float(at->h2) == 128.0f);
	EXPECT(__bfloat162float(at->b) == 512.0f);
	EXPECT(at->c == 7 && at->wins == 1);
	CHECK(cudaFree(at));

	phases<<<1, 64>>>(o);
	CHECK(cudaDeviceSynchronize());
	for (int t = 0; t < 64; t++)
		EXPECT(o[t] == 3 * ((t + 1) % 64));

	CHECK(cudaDeviceGetLimit(&lim, cudaLimitStackSize));
	EXPECT(lim == 1024);
	CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 16384));
	recurse<<<1, 32>>>(o, 40);
	CHECK(cudaDeviceSynchronize());
	int want = 3;
	for (int d = 1; d <= 40; d++)
		want += d + d % 24;
	EXPECT(o[0] == want && o[31] == want);

	CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 1024));
	recurse<<<1, 32>>>(o, 40);
	EXPECT(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
	std::printf("PASS\n");
	return 0;
}
