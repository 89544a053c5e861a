// async.cu - copies from global to shared memory with cp.async, as
// cuda-samples' globalToShmemAsyncCopy stages its tiles: each thread
// copies 16 bytes of a tile (the last threads only part of theirs, the
// rest zero-filled), commits, waits for the group, and after a barrier
// reads a neighbour's copy back out.
#include <cuda_pipeline.h>

extern "C" __global__ void stage(const int4 *in, int4 *out, int valid)
{
	__shared__ int4 tile[256];
	int t = threadIdx.x;
	// bytes of this thread's 16 that lie inside the input
	int left = valid - t * 16;
	size_t zfill = left >= 16 ? 0 : left <= 0 ? 16 : 16 - left;

	__pipeline_memcpy_async(&tile[t], &in[t], 16, zfill);
	__pipeline_commit();
	__pipeline_wait_prior(0);
	__syncthreads();
	out[t] = tile[(t + 1) % blockDim.x];
}

// Two stages in flight: the first waited for while the second is pending.
extern "C" __global__ void twostage(const int *in, int *out)
{
	__shared__ int a[128], b[128];
	int t = threadIdx.x;

	__pipeline_memcpy_async(&a[t], &in[t], 4);
	__pipeline_commit();
	__pipeline_memcpy_async(&b[t], &in[128 + t], 8 / 2);
	__pipeline_commit();
	__pipeline_wait_prior(1);
	__syncthreads();
	out[t] = a[127 - t];
	__pipeline_wait_prior(0);
	__syncthreads();
	out[128 + t] = b[127 - t];
}
