// cdp.cu - dynamic parallelism through libcudadevrt's entry points, which
// the engine serves (libcuemu(3), THE DEVICE RUNTIME): built with
// -rdc=true -lcudadevrt. Kernels launched from kernels, nested, into the
// block's stream, fire-and-forget and as tail launches, templates and
// structs by value, dynamic shared memory, cudaMalloc and asynchronous
// copies in device code, device printf of a thread's own char array,
// an illegal address in a child reaching the host, and what the launches
// cost in model time.
#include "check.h"

struct pair {
	int a;
	double b;
};

__device__ int log_[64];
__device__ unsigned nlog;

__device__ void note(int v)
{
	log_[atomicAdd(&nlog, 1)] = v;
}

template <typename T>
__global__ void k_store(T *p, T v, pair s)
{
	p[threadIdx.x] = v + (T)s.a + (T)s.b;
}

__global__ void k_shared(int *out)
{
	extern __shared__ int tile[];
	tile[threadIdx.x] = threadIdx.x * 2;
	__syncthreads();
	out[threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
}

__global__ void k_note(int v)
{
	note(v);
}

// A chain: each level prints its depth through a char array of its own.
__global__ void k_nest(int depth, int max)
{
	char pad[16];
	int i;

	for (i = 0; i < depth && i < 15; i++)
		pad[i] = '-';
	pad[i] = '\0';
	printf("%sdepth %d\n", pad, depth);
	if (depth < max)
		k_nest<<<1, 1>>>(depth + 1, max);
}

__global__ void k_parent(float *f, int *shared_out, int *dst, int *src)
{
	pair s = { 2, 0.5 };

	k_store<float><<<1, 4>>>(f, 1.0f, s);
	k_shared<<<1, 8, 8 * sizeof(int)>>>(shared_out);
	cudaMemcpyAsync(dst, src, 4 * sizeof(int), cudaMemcpyDeviceToDevice, 0);
	cudaMemsetAsync(dst + 4, 0x01, 4 * sizeof(int), 0);
}

// The tail launch runs after everything else the grid launched.
__global__ void k_order(void)
{
	k_note<<<1, 1, 0, cudaStreamTailLaunch>>>(3);
	k_note<<<1, 1>>>(1);
	k_note<<<1, 1, 0, cudaStreamFireAndForget>>>(2);
}

__global__ void k_heap(int **out)
{
	int *p;
	if (cudaMalloc((void **)&p, 16 * sizeof(int)) != cudaSuccess)
		return;
	p[0] = 42;
	*out = p;
}

__global__ void k_bad(int *p)
{
	p[threadIdx.x] = 1;
}

__global__ void k_launch_bad(void)
{
	k_bad<<<1, 32>>>((int *)0x10);
}

__global__ void k_refusals(int *out)
{
	cudaStream_t s;
	cudaEvent_t e;

	out[0] = cudaEventCreateWithFlags(&e, 0);
	out[1] = cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
	out[2] = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
	k_note<<<1, 2048>>>(0);
	out[3] = cudaGetLastError();
	out[4] = cudaGetLastError();
}

__global__ void k_chain(int left)
{
	if (left > 0)
		k_chain<<<1, 1>>>(left - 1);
}

int main()
{
	float *f, hf[4];
	int *so, hso[8], *src, *dst, hd[8], hs[4] = { 5, 6, 7, 8 }, *out,
	    hout[8], **pp, *hp, one;
	unsigned n;
	cudaEvent_t a, b;
	float ms1, ms8;

	CHECK(cudaMalloc(&f, sizeof hf));
	CHECK(cudaMalloc(&so, sizeof hso));
	CHECK(cudaMalloc(&src, sizeof hs));
	CHECK(cudaMalloc(&dst, sizeof hd));
	CHECK(cudaMalloc(&out, sizeof hout));
	CHECK(cudaMalloc(&pp, sizeof *pp));
	CHECK(cudaMemcpy(src, hs, sizeof hs, cudaMemcpyHostToDevice));

	k_parent<<<1, 1>>>(f, so, dst, src);
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(hso, so, sizeof hso, cudaMemcpyDeviceToHost));
	CHECK(cudaMemcpy(hd, dst, sizeof hd, cudaMemcpyDeviceToHost));
	for (int i = 0; i < 4; i++)
		EXPECT(hf[i] == 3.5f);
	for (int i = 0; i < 8; i++)
		EXPECT(hso[i] == (7 - i) * 2);
	for (int i = 0; i < 4; i++)
		EXPECT(hd[i] == hs[i] && hd[4 + i] == 0x01010101);

	k_nest<<<1, 1>>>(0, 3);
	CHECK(cudaDeviceSynchronize());

	k_order<<<1, 1>>>();
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpyFromSymbol(&n, nlog, sizeof n));
	CHECK(cudaMemcpyFromSymbol(hout, log_, 3 * sizeof(int)));
	EXPECT(n == 3 && hout[2] == 3);

	k_heap<<<1, 1>>>(pp);
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(&hp, pp, sizeof hp, cudaMemcpyDeviceToHost));
	EXPECT(hp != NULL);

	k_refusals<<<1, 1>>>(out);
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(hout, out, 5 * sizeof(int), cudaMemcpyDeviceToHost));
	EXPECT(hout[0] == cudaErrorInvalidValue && hout[1] == cudaSuccess &&
	       hout[2] == cudaSuccess);
	EXPECT(hout[3] == cudaErrorInvalidConfiguration &&
	       hout[4] == cudaSuccess);

	// a chain of 8 nested launches costs the device 7 steps more than
	// one (about 10 us each on an H200: probes/results/cdp-time.txt)
	CHECK(cudaEventCreate(&a));
	CHECK(cudaEventCreate(&b));
	CHECK(cudaEventRecord(a));
	k_chain<<<1, 1>>>(1);
	CHECK(cudaEventRecord(b));
	CHECK(cudaEventSynchronize(b));
	CHECK(cudaEventElapsedTime(&ms1, a, b));
	CHECK(cudaEventRecord(a));
	k_chain<<<1, 1>>>(8);
	CHECK(cudaEventRecord(b));
	CHECK(cudaEventSynchronize(b));
	CHECK(cudaEventElapsedTime(&ms8, a, b));
	printf("chain of 1: %.4f ms, of 8: %.4f ms\n", ms1, ms8);
	EXPECT(ms8 - ms1 > 0.060f && ms8 - ms1 < 0.085f);

	// the last: an illegal address in a child ends the context
	k_launch_bad<<<1, 1>>>();
	one = cudaDeviceSynchronize();
	EXPECT(one == cudaErrorIllegalAddress);
	printf("PASS\n");
	return 0;
}
