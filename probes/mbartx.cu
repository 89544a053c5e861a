// mbartx.cu - an mbarrier's transaction count on the GPU, where the PTX ISA
// leaves room: the state an arrival returns while bytes are pending
// (mbarrier.arrive and mbarrier.arrive.expect_tx), pending_count of it,
// test_wait before and after the bytes complete (expect_tx, complete_tx,
// a bulk copy's complete_tx), a count taken below zero and brought back,
// the largest count, and the object's own bits through ld.shared; then,
// alone and last, an arrival of more than is pending. One thread asks, in order; "mbartx.<step>
// <hex>" per line. Then the forms nvcc makes of cuda::memcpy_async with a
// cuda::barrier (whole block) and of cuda::device::memcpy_async_tx with
// barrier_arrive_tx (one thread's bulk copy) over four phases, a bulk copy
// from shared memory to global in a bulk group, and whether every value
// arrived ("bad" counts the wrong ones).
// Build: nvcc -O2 -arch=sm_90 -o mbartx mbartx.cu
#include <cuda/barrier>
#include <cuda/std/utility>
#include <cuda_runtime.h>
#include <stdio.h>

#pragma nv_diag_suppress static_var_with_dynamic_init

typedef unsigned long long u64;

__device__ __forceinline__ unsigned sa(const void *p)
{
	return (unsigned)__cvta_generic_to_shared(p);
}
__device__ __forceinline__ void init(u64 *b, unsigned n)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(sa(b)), "r"(n) : "memory");
}
__device__ __forceinline__ u64 arrive(u64 *b, unsigned n)
{
	u64 s;
	asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1], %2;"
		     : "=l"(s) : "r"(sa(b)), "r"(n) : "memory");
	return s;
}
__device__ __forceinline__ u64 arrive_tx(u64 *b, unsigned tx)
{
	u64 s;
	asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %0, [%1], %2;"
		     : "=l"(s) : "r"(sa(b)), "r"(tx) : "memory");
	return s;
}
__device__ __forceinline__ void expect_tx(u64 *b, unsigned tx)
{
	asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;"
		     :: "r"(sa(b)), "r"(tx) : "memory");
}
__device__ __forceinline__ void complete_tx(u64 *b, unsigned tx)
{
	asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;"
		     :: "r"(sa(b)), "r"(tx) : "memory");
}
__device__ __forceinline__ unsigned test_wait(u64 *b, u64 s)
{
	unsigned r;
	asm volatile("{ .reg .pred p; mbarrier.test_wait.shared::cta.b64 p, [%1], %2;"
		     " selp.u32 %0, 1, 0, p; }" : "=r"(r) : "r"(sa(b)), "l"(s) : "memory");
	return r;
}
__device__ __forceinline__ unsigned test_parity(u64 *b, unsigned ph)
{
	unsigned r;
	asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;"
		     " selp.u32 %0, 1, 0, p; }" : "=r"(r) : "r"(sa(b)), "r"(ph) : "memory");
	return r;
}
__device__ __forceinline__ unsigned pending(u64 s)
{
	unsigned r;
	asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(r) : "l"(s));
	return r;
}
__device__ __forceinline__ void bulk_g2s(void *dst, const void *src, unsigned n, u64 *b)
{
	asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
		     :: "r"(sa(dst)), "l"(src), "r"(n), "r"(sa(b)) : "memory");
}

#define OUT(v) (out[k++] = (u64)(v))

extern "C" __global__ void steps(u64 *out, const int4 *src)
{
	__shared__ u64 bar;
	__shared__ int4 buf[16];
	volatile u64 *raw = &bar;
	int k = 0;
	u64 s1, s2;

	/* A: an arrival that expects bytes */
	init(&bar, 1);
	s1 = arrive_tx(&bar, 64);
	OUT(s1); OUT(*raw); OUT(pending(s1)); OUT(test_wait(&bar, s1)); /* 0-3 */
	complete_tx(&bar, 32);
	OUT(*raw); OUT(test_wait(&bar, s1));          /* 4-5 */
	complete_tx(&bar, 32);
	OUT(*raw); OUT(test_wait(&bar, s1)); OUT(test_parity(&bar, 0)); /* 6-8 */
	/* B: bytes expected before the arrivals, not multiples of 16 */
	init(&bar, 2);
	expect_tx(&bar, 100);
	OUT(*raw);                                    /* 9 */
	s1 = arrive(&bar, 1);
	OUT(s1); OUT(pending(s1));                    /* 10-11 */
	s2 = arrive(&bar, 1);
	OUT(s2); OUT(pending(s2)); OUT(test_wait(&bar, s2)); /* 12-14 */
	complete_tx(&bar, 50);
	OUT(test_wait(&bar, s2));                     /* 15 */
	complete_tx(&bar, 50);
	OUT(test_wait(&bar, s2)); OUT(test_parity(&bar, 0)); /* 16-17 */
	/* C: bytes completed before they are expected (the count below zero) */
	init(&bar, 1);
	complete_tx(&bar, 32);
	OUT(*raw); OUT(test_parity(&bar, 0));         /* 18-19 */
	s1 = arrive(&bar, 1);
	OUT(s1); OUT(pending(s1)); OUT(test_wait(&bar, s1)); /* 20-22 */
	expect_tx(&bar, 32);
	OUT(test_wait(&bar, s1)); OUT(test_parity(&bar, 0)); /* 23-24 */
	/* D: the largest count, then one arrival expecting it */
	init(&bar, 1);
	s1 = arrive_tx(&bar, 1048575);
	OUT(s1); OUT(pending(s1)); OUT(test_wait(&bar, s1)); /* 25-27 */
	complete_tx(&bar, 1048575);
	OUT(test_wait(&bar, s1));                     /* 28 */
	/* E: a bulk copy, then the arrival that expects its bytes */
	init(&bar, 1);
	bulk_g2s(buf, src, 256, &bar);
	s1 = arrive_tx(&bar, 256);
	OUT(s1); OUT(pending(s1));                    /* 29-30 */
	{
		u64 spins = 0;
		while (!test_wait(&bar, s1))
			spins++;
		OUT(spins > 0);                       /* 31 (timing) */
	}
	OUT(buf[15].w); OUT(test_parity(&bar, 0));    /* 32-33 */
	/* F: arrive.expect_tx where arrivals remain, then a state with both */
	init(&bar, 3);
	s1 = arrive_tx(&bar, 16);
	OUT(s1); OUT(pending(s1));                    /* 34-35 */
	s2 = arrive_tx(&bar, 16);
	OUT(s2); OUT(pending(s2));                    /* 36-37 */
	s2 = arrive(&bar, 1);
	OUT(s2); OUT(pending(s2)); OUT(test_wait(&bar, s2)); /* 38-40 */
	complete_tx(&bar, 32);
	OUT(test_wait(&bar, s2));                     /* 41 */
	s1 = arrive(&bar, 1);
	OUT(s1); OUT(pending(s1));                    /* 42-43: phase 1 */
	OUT(k);
}

/* G: more arrivals than are pending, alone (the device may fail it) */
extern "C" __global__ void over(u64 *out)
{
	__shared__ u64 bar;
	int k = 0;
	u64 s1;

	init(&bar, 2);
	out[8] = 1;
	s1 = arrive(&bar, 3);
	out[9] = 1;
	OUT(s1); OUT(pending(s1)); OUT(test_wait(&bar, s1)); OUT(test_parity(&bar, 0));
}

/* What nvcc makes of cuda::memcpy_async into shared memory with a
 * cuda::barrier: every thread copies its part and arrives; four phases */
extern "C" __global__ void lib_copy(const int *g, int *o)
{
	using barrier = cuda::barrier<cuda::thread_scope_block>;
	__shared__ alignas(16) int s[256];
	__shared__ barrier bar;
	unsigned bad = 0;

	if (threadIdx.x == 0)
		init(&bar, blockDim.x);
	__syncthreads();
	for (int ph = 0; ph < 4; ph++) {
		if (threadIdx.x == 0)
			cuda::memcpy_async(s, g + ph * 256, cuda::aligned_size_t<16>(1024), bar);
		bar.arrive_and_wait();
		for (int i = threadIdx.x; i < 256; i += blockDim.x)
			bad += s[i] != ph * 256 + i;
		__syncthreads();
	}
	atomicAdd(o, bad);
}

/* cuda::device::memcpy_async_tx and barrier_arrive_tx (count 1 and 2),
 * then a bulk copy from shared memory to global in a bulk group */
extern "C" __global__ void lib_tx(const int *g, int *o)
{
	using barrier = cuda::barrier<cuda::thread_scope_block>;
	__shared__ alignas(16) int s[256];
	__shared__ barrier bar;
	unsigned bad = 0;

	if (threadIdx.x == 0)
		init(&bar, blockDim.x);
	__syncthreads();
	for (int ph = 0; ph < 4; ph++) {
		barrier::arrival_token t;
		if (threadIdx.x == 0) {
			cuda::device::memcpy_async_tx(s, g + ph * 256, cuda::aligned_size_t<16>(1024), bar);
			t = cuda::device::barrier_arrive_tx(bar, 1 + (ph & 1), 1024);
		} else if (threadIdx.x != 1 || !(ph & 1)) {
			t = bar.arrive();
		}
		if (threadIdx.x != 1 || !(ph & 1))
			bar.wait(cuda::std::move(t));
		else
			bar.wait_parity(ph & 1);
		for (int i = threadIdx.x; i < 256; i += blockDim.x)
			bad += s[i] != ph * 256 + i;
		__syncthreads();
	}
	atomicAdd(o, bad);
	if (threadIdx.x == 0) {
		for (int i = 0; i < 256; i++)
			s[i] = 7 * i;
		asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
		asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
			     :: "l"(o + 256), "r"(sa(s)), "r"(1024) : "memory");
		asm volatile("cp.async.bulk.commit_group;" ::: "memory");
		asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
		asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
			     :: "l"(o + 512), "r"(sa(s + 128)), "r"(512) : "memory");
		asm volatile("cp.async.bulk.commit_group;" ::: "memory");
		asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
	}
}

int main(void)
{
	u64 *out;
	int *g, *o;
	const char *names[] = {
		"a.arrive_tx64.state", "a.arrive_tx64.raw", "a.arrive_tx64.pending",
		"a.arrive_tx64.test_wait", "a.complete32.raw", "a.complete32.test_wait",
		"a.complete64.raw", "a.complete64.test_wait", "a.complete64.parity0",
		"b.expect100.raw", "b.arrive1.state", "b.arrive1.pending",
		"b.arrive2.state", "b.arrive2.pending", "b.arrive2.test_wait",
		"b.complete50.test_wait", "b.complete100.test_wait", "b.complete100.parity0",
		"c.complete32.raw", "c.complete32.parity0", "c.arrive.state",
		"c.arrive.pending", "c.arrive.test_wait", "c.expect32.test_wait",
		"c.expect32.parity0", "d.arrive_txmax.state", "d.arrive_txmax.pending",
		"d.arrive_txmax.test_wait", "d.completemax.test_wait",
		"e.bulk.arrive_tx.state", "e.bulk.arrive_tx.pending", "e.bulk.spun",
		"e.bulk.buf15w", "e.bulk.parity0", "f.arrive_tx16.state",
		"f.arrive_tx16.pending", "f.arrive_tx16b.state", "f.arrive_tx16b.pending",
		"f.arrive.state", "f.arrive.pending", "f.arrive.test_wait",
		"f.complete32.test_wait", "f.ph1.arrive.state", "f.ph1.arrive.pending",
		"count",
	};
	cudaMallocManaged(&out, 64 * 8);
	cudaMallocManaged(&g, 1024 * sizeof(int));
	cudaMallocManaged(&o, 1024 * sizeof(int));
	for (int i = 0; i < 1024; i++)
		g[i] = i;
	cudaError_t e;
	o[0] = 0;
	lib_copy<<<1, 128>>>(g, o);
	e = cudaDeviceSynchronize();
	printf("mbartx.lib_copy: %s bad %d\n", cudaGetErrorName(e), o[0]);
	for (int i = 0; i < 1024; i++)
		o[i] = -1;
	o[0] = 0;
	lib_tx<<<1, 128>>>(g, o);
	e = cudaDeviceSynchronize();
	int sbad = 0;
	for (int i = 0; i < 256; i++)
		sbad += o[256 + i] != 7 * i;
	for (int i = 0; i < 128; i++)
		sbad += o[512 + i] != 7 * (128 + i);
	for (int i = 640; i < 1024; i++)
		sbad += o[i] != -1;
	printf("mbartx.lib_tx: %s bad %d\n", cudaGetErrorName(e), o[0]);
	printf("mbartx.bulk_s2g: bad %d\n", sbad);
	steps<<<1, 1>>>(out, (const int4 *)g);
	e = cudaDeviceSynchronize();
	printf("mbartx.steps: %s\n", cudaGetErrorName(e));
	for (int i = 0; i < (int)(sizeof names / sizeof *names); i++)
		printf("mbartx.%s %llx\n", names[i], out[i]);
	for (int i = 0; i < 10; i++)
		out[i] = 0;
	over<<<1, 1>>>(out);
	e = cudaDeviceSynchronize();
	printf("mbartx.over: %s before %llu after %llu\n", cudaGetErrorName(e), out[8], out[9]);
	printf("mbartx.over.arrive3.state %llx\nmbartx.over.arrive3.pending %llx\n"
	       "mbartx.over.arrive3.test_wait %llx\nmbartx.over.arrive3.parity0 %llx\n",
	       out[0], out[1], out[2], out[3]);
	return 0;
}
