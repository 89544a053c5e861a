// devrt.cu - kernels that call the device runtime (dynamic parallelism),
// for test_devrt: nvcc -ptx -rdc=true -arch=compute_90 (make kernels).
#include <cuda_runtime.h>

__device__ int trace[64];
__device__ unsigned ntrace;

__device__ void note(int v)
{
	trace[atomicAdd(&ntrace, 1)] = v;
}

extern "C" __global__ void child(int *out, int v)
{
	out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

extern "C" __global__ void noted(int v)
{
	note(v);
}

// A child of two blocks, a tail launch made first, a note: the tail runs
// last.
extern "C" __global__ void parent(int *out)
{
	noted<<<1, 1, 0, cudaStreamTailLaunch>>>(3);
	child<<<2, 32>>>(out, 5);
	noted<<<1, 1>>>(1);
	noted<<<1, 1, 0, cudaStreamFireAndForget>>>(2);
}

// What the calls answer, each into out[].
extern "C" __global__ void answers(int *out, char *name, char *text)
{
	cudaStream_t s;
	cudaEvent_t e;
	void *p;
	const char *n, *t;
	int i;

	out[0] = cudaEventCreateWithFlags(&e, 0);
	out[1] = cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
	out[2] = cudaStreamCreateWithFlags(&s, 0);
	out[3] = cudaStreamCreateWithFlags(&s, 2);
	out[4] = cudaGetLastError();
	out[5] = cudaGetLastError();
	child<<<1, 2048>>>(out, 0);
	out[6] = cudaPeekAtLastError();
	out[7] = cudaGetLastError();
	// the older pair: a buffer, then the launch named
	p = cudaGetParameterBuffer(8, 16);
	out[8] = p != 0;
	out[9] = cudaLaunchDevice((void *)child, p, dim3(1), dim3(4096), 0, 0);
	// a buffer is used once
	p = cudaGetParameterBufferV2((void *)noted, dim3(1), dim3(1), 0);
	*(int *)p = 9;
	out[10] = cudaLaunchDeviceV2(p, 0);
	out[11] = cudaLaunchDeviceV2(p, 0);
	out[12] = cudaMalloc(&p, 64);
	out[13] = ((unsigned long long)p & 15) == 0;
	out[14] = cudaFree(p);
	out[15] = cudaGetDevice(&i);
	out[16] = i;
	out[17] = cudaRuntimeGetVersion(&i);
	out[18] = i;
	// the names and texts are memory a kernel reads
	n = cudaGetErrorName(cudaErrorInvalidConfiguration);
	t = cudaGetErrorString(cudaErrorLaunchMaxDepthExceeded);
	for (i = 0; n[i] && i < 63; i++)
		name[i] = n[i];
	name[i] = 0;
	for (i = 0; t[i] && i < 127; i++)
		text[i] = t[i];
	text[i] = 0;
}

// A chain as deep as it goes: the deepest that ran and the first refusal.
extern "C" __global__ void deep(int depth, int limit, int *out)
{
	atomicMax(&out[0], depth);
	if (depth < limit) {
		deep<<<1, 1>>>(depth + 1, limit, out);
		cudaError_t e = cudaGetLastError();
		if (e != cudaSuccess)
			atomicCAS(&out[1], 0, e * 1000 + depth);
	}
}

// Copies and memsets queued in device code, after a launch into the
// same stream that writes the source.
extern "C" __global__ void copies(int *src, int *dst)
{
	child<<<1, 4>>>(src, 7);
	cudaMemcpyAsync(dst, src, 4 * sizeof(int), cudaMemcpyDeviceToDevice, 0);
	cudaMemsetAsync(dst + 4, 0xff, 4 * sizeof(int), 0);
}

// A copy to memory no allocation holds ends the launch.
extern "C" __global__ void bad_copy(int *src)
{
	cudaMemcpyAsync((void *)0x1000, src, 16, cudaMemcpyDeviceToDevice, 0);
}

// Launch shapes for the model's time: n children from one thread, one
// from each of n blocks, a chain n deep, n tail launches.
extern "C" __global__ void empty(void) {}
extern "C" __global__ void serial(int n)
{
	for (int i = 0; i < n; i++)
		empty<<<1, 1>>>();
}
extern "C" __global__ void each(void)
{
	empty<<<1, 1>>>();
}
extern "C" __global__ void chain(int left)
{
	if (left > 0)
		chain<<<1, 1>>>(left - 1);
}
extern "C" __global__ void tail(int left)
{
	if (left > 0)
		tail<<<1, 1, 0, cudaStreamTailLaunch>>>(left - 1);
}

// A child spinning cycles of its SM's clock; n of them from one thread,
// each into a stream of its own, or all into the block's.
extern "C" __global__ void spin(long long cycles)
{
	long long t0 = clock64();
	while (clock64() - t0 < cycles)
		;
}
extern "C" __global__ void spin_streams(int n, long long cycles)
{
	for (int i = 0; i < n; i++) {
		cudaStream_t s;
		cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
		spin<<<1, 1, 0, s>>>(cycles);
		cudaStreamDestroy(s);
	}
}
extern "C" __global__ void spin_serial(int n, long long cycles)
{
	for (int i = 0; i < n; i++)
		spin<<<1, 1>>>(cycles);
}

// A launch of a buffer that is none: one in the thread's own memory, then
// one at an address no allocation holds.
extern "C" __global__ void bad_buffer(int *out)
{
	int local[32];
	out[0] = cudaLaunchDeviceV2(&local[16], 0);
	out[1] = 1;
	cudaLaunchDeviceV2((void *)0x10000040, 0);
	out[1] = 2;
}

// A binary tree of grids of 64 blocks of 128 threads, the last block of
// each launching the next two into streams of their own (probes/cdp.cu's
// tree_wide, cuda-samples' cdpAdvancedQuicksort's shape).
__device__ unsigned wide_done[4096];
extern "C" __global__ void tree_wide(int depth, int node)
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
			tree_wide<<<64, 128, 0, s0>>>(depth - 1, 2 * node + 1);
			tree_wide<<<64, 128, 0, s1>>>(depth - 1, 2 * node + 2);
			cudaStreamDestroy(s0);
			cudaStreamDestroy(s1);
		}
	}
}
