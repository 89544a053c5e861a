// mbarrier.cu - what the GPU's mbarrier does where the PTX ISA leaves room:
// the 64-bit object's bits after init and each kind of arrival, the opaque
// state an arrival returns, pending_count of it, test_wait and try_wait
// (plain, with a suspend hint, by parity) before and after a phase
// completes, arrive.noComplete, arrive_drop and inval. One thread asks, in
// order; "mbarrier.<step> <hex>" per line. Then a block of 128 threads
// runs eight phases of a barrier of 128 arrivals: no thread passes its
// wait before every thread's store of the phase (early_readers 0), and how
// many waits found their phase incomplete at least once (timing: not
// replayed).
// Build: nvcc -O2 -arch=sm_90 -o mbarrier mbarrier.cu
#include <cuda_runtime.h>
#include <stdio.h>

typedef unsigned long long u64;

__device__ __forceinline__ unsigned sa(u64 *p)
{
	return (unsigned)__cvta_generic_to_shared(p);
}
__device__ __forceinline__ u64 arrive(u64 *b, unsigned n)
{
	u64 s;
	asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1], %2;"
		     : "=l"(s) : "r"(sa(b)), "r"(n) : "memory");
	return s;
}
__device__ __forceinline__ unsigned test_wait(u64 *b, u64 s)
{
	unsigned r;
	asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2;"
		     " selp.u32 %0, 1, 0, p; }" : "=r"(r) : "r"(sa(b)), "l"(s) : "memory");
	return r;
}
__device__ __forceinline__ unsigned try_wait(u64 *b, u64 s)
{
	unsigned r;
	asm volatile("{ .reg .pred p; mbarrier.try_wait.shared::cta.b64 p, [%1], %2;"
		     " selp.u32 %0, 1, 0, p; }" : "=r"(r) : "r"(sa(b)), "l"(s) : "memory");
	return r;
}
__device__ __forceinline__ unsigned try_wait_hint(u64 *b, u64 s)
{
	unsigned r;
	asm volatile("{ .reg .pred p; mbarrier.try_wait.shared::cta.b64 p, [%1], %2, 1000;"
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
__device__ __forceinline__ unsigned try_parity(u64 *b, unsigned ph)
{
	unsigned r;
	asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;"
		     " selp.u32 %0, 1, 0, p; }" : "=r"(r) : "r"(sa(b)), "r"(ph) : "memory");
	return r;
}
__device__ __forceinline__ unsigned pending(u64 s)
{
	unsigned r;
	asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(r) : "l"(s));
	return r;
}

#define OUT(v) (out[k++] = (u64)(v))

extern "C" __global__ void steps(u64 *out)
{
	__shared__ u64 bar;
	volatile u64 *raw = &bar;
	int k = 0;
	u64 s1, s2, s3, s4, s5;

	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(sa(&bar)), "r"(3) : "memory");
	OUT(*raw);                               /* 0 init 3 */
	s1 = arrive(&bar, 1);
	OUT(s1); OUT(*raw); OUT(pending(s1));    /* 1-3 */
	OUT(test_wait(&bar, s1)); OUT(try_wait(&bar, s1)); /* 4-5 */
	OUT(test_parity(&bar, 0)); OUT(test_parity(&bar, 1)); /* 6-7 */
	s2 = arrive(&bar, 2);                    /* completes phase 0 */
	OUT(s2); OUT(*raw); OUT(pending(s2));    /* 8-10 */
	OUT(test_wait(&bar, s1)); OUT(test_wait(&bar, s2)); /* 11-12 */
	OUT(try_wait_hint(&bar, s1));            /* 13 */
	OUT(test_parity(&bar, 0)); OUT(test_parity(&bar, 1)); /* 14-15 */
	OUT(try_parity(&bar, 0)); OUT(try_parity(&bar, 1)); /* 16-17 */
	asm volatile("mbarrier.arrive.noComplete.shared::cta.b64 %0, [%1], %2;"
		     : "=l"(s3) : "r"(sa(&bar)), "r"(1) : "memory");
	OUT(s3); OUT(*raw); OUT(pending(s3)); OUT(test_wait(&bar, s3)); /* 18-21 */
	asm volatile("mbarrier.arrive_drop.shared::cta.b64 %0, [%1];"
		     : "=l"(s4) : "r"(sa(&bar)) : "memory");
	OUT(s4); OUT(*raw); OUT(pending(s4)); OUT(test_wait(&bar, s4)); /* 22-25 */
	s5 = arrive(&bar, 1);                    /* completes phase 1 */
	OUT(s5); OUT(*raw); OUT(pending(s5)); OUT(test_wait(&bar, s5)); /* 26-29 */
	OUT(test_wait(&bar, s3)); OUT(test_parity(&bar, 0)); OUT(test_parity(&bar, 1)); /* 30-32 */
	s1 = arrive(&bar, 1);                    /* phase 2: expected count now 2 */
	OUT(s1); OUT(*raw); OUT(pending(s1));    /* 33-35 */
	s2 = arrive(&bar, 1);
	OUT(s2); OUT(*raw); OUT(test_wait(&bar, s1)); /* 36-38 */
	asm volatile("mbarrier.inval.shared::cta.b64 [%0];" :: "r"(sa(&bar)) : "memory");
	OUT(*raw);                               /* 39 */
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(sa(&bar)), "r"(1) : "memory");
	OUT(*raw);                               /* 40 init 1 */
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(sa(&bar)), "r"(1048575) : "memory");
	OUT(*raw);                               /* 41 init max */
	s1 = arrive(&bar, 5);
	OUT(s1); OUT(*raw); OUT(pending(s1));    /* 42-44 */
	OUT(k);
}

extern "C" __global__ void phases(u64 *out)
{
	__shared__ u64 bar;
	__shared__ unsigned waited, bad, seen[128];
	unsigned t = threadIdx.x, n = blockDim.x;

	if (t == 0) {
		asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(sa(&bar)), "r"(n) : "memory");
		waited = 0;
		bad = 0;
	}
	__syncthreads();
	for (unsigned ph = 0; ph < 8; ph++) {
		((volatile unsigned *)seen)[t] = ph;
		u64 s = arrive(&bar, 1);
		bool first = true;
		while (!try_wait(&bar, s)) {
			if (first)
				atomicAdd(&waited, 1);
			first = false;
		}
		if (((volatile unsigned *)seen)[(t + 1) % n] < ph)
			atomicAdd(&bad, 1);
	}
	__syncthreads();
	if (t == 0) {
		out[0] = bad;
		out[1] = waited;
	}
}

int main(void)
{
	u64 *out;
	const char *names[] = {
		"init3.raw", "arrive1.state", "arrive1.raw", "arrive1.pending",
		"arrive1.test_wait", "arrive1.try_wait", "arrive1.parity0",
		"arrive1.parity1", "arrive2.state", "arrive2.raw", "arrive2.pending",
		"done.test_wait_s1", "done.test_wait_s2", "done.try_wait_hint_s1",
		"done.test_parity0", "done.test_parity1", "done.try_parity0",
		"done.try_parity1", "nocomplete.state", "nocomplete.raw",
		"nocomplete.pending", "nocomplete.test_wait", "drop.state",
		"drop.raw", "drop.pending", "drop.test_wait", "arrive_last.state",
		"arrive_last.raw", "arrive_last.pending", "arrive_last.test_wait",
		"ph1.test_wait_s3", "ph1.test_parity0", "ph1.test_parity1",
		"ph2.arrive.state", "ph2.arrive.raw", "ph2.arrive.pending",
		"ph2.arrive2.state", "ph2.arrive2.raw", "ph2.test_wait",
		"inval.raw", "init1.raw", "initmax.raw", "initmax.arrive5.state",
		"initmax.arrive5.raw", "initmax.arrive5.pending", "count",
	};
	cudaMallocManaged(&out, 64 * 8);
	steps<<<1, 1>>>(out);
	cudaError_t e = cudaDeviceSynchronize();
	printf("mbarrier.steps: %s\n", cudaGetErrorName(e));
	for (int i = 0; i < (int)(sizeof names / sizeof *names); i++)
		printf("mbarrier.%s %llx\n", names[i], out[i]);
	phases<<<1, 128>>>(out);
	e = cudaDeviceSynchronize();
	printf("mbarrier.phases: %s\n", cudaGetErrorName(e));
	printf("mbarrier.phases.early_readers %llu\n", out[0]);
	printf("mbarrier.phases.waited %llu\n", out[1]);
	return 0;
}
