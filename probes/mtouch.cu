// mtouch.cu - what a sparse touch of managed memory resident on the GPU
// costs beside the same touch of device memory, by how the pages came to
// be resident: prefetched whole, faulted in by a streaming kernel after
// the CPU wrote them, faulted in by 4 KiB touches, or first touched by the
// GPU. faults.cu's gpu_touch_4k_resident (0.03 ms over 1 GiB) took twice
// sparse.cu's touch of device memory (0.0144 ms); this asks whether the
// mapping's page size (2 MiB for device memory; managed memory mapped by
// faults in smaller pages) is the difference. One byte read and written
// every `stride` bytes, one thread a touch; CUDA events around each
// launch; the first run's time (the first touch since the pages came),
// then min and mean of the 7 runs after it.
// Each line: mtouch.<how>_<size>mib_<stride> touches=... first_ms=...
// min_ms=... mean_ms=...
// Build: nvcc -O2 -arch=sm_90 -o mtouch mtouch.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIB (1UL << 20)
#define REPS 7
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("mtouch.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void touch(char *p, size_t n, size_t stride)
{
	size_t i = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) * stride;
	if (i < n)
		p[i] += 1;
}

__global__ void stream(int4 *p, size_t n)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x) {
		int4 v = p[i];
		v.x += 1;
		p[i] = v;
	}
}

static void launch_touch(char *p, size_t n, size_t stride)
{
	size_t t = n / stride;
	touch<<<(unsigned)((t + 511) / 512), 512>>>(p, n, stride);
	CK(cudaGetLastError());
}

/* Times the touch of [p, p + n) every stride bytes, already resident. */
static void one(const char *how, char *p, size_t n, size_t stride)
{
	cudaEvent_t a, b;
	float ms, min = 1e30f, sum = 0, first = 0;

	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	for (int r = -1; r < REPS; r++) {
		CK(cudaEventRecord(a, 0));
		launch_touch(p, n, stride);
		CK(cudaEventRecord(b, 0));
		CK(cudaEventSynchronize(b));
		CK(cudaEventElapsedTime(&ms, a, b));
		if (r < 0) {
			first = ms;
			continue;
		}
		sum += ms;
		min = ms < min ? ms : min;
	}
	CK(cudaEventDestroy(a));
	CK(cudaEventDestroy(b));
	printf("mtouch.%s_%zumib_%zu touches=%zu first_ms=%.4f min_ms=%.4f "
	       "mean_ms=%.4f\n", how, n / MIB, stride, n / stride, first, min,
	       sum / REPS);
	fflush(stdout);
}

enum how { DEVICE, PREFETCHED, STREAMED, TOUCHED_4K, GPU_FIRST, NHOW };
static const char *hows[NHOW] = { "device", "prefetched", "streamed",
				  "touched4k", "gpufirst" };

/* A buffer of n bytes made resident on GPU 0 the way h says. */
static char *make(enum how h, size_t n)
{
	char *p;
	cudaMemLocation loc = { cudaMemLocationTypeDevice, 0 };

	if (h == DEVICE) {
		CK(cudaMalloc(&p, n));
		CK(cudaMemset(p, 0, n));
		CK(cudaDeviceSynchronize());
		return p;
	}
	CK(cudaMallocManaged(&p, n));
	if (h != GPU_FIRST)
		memset(p, 0, n);
	switch (h) {
	case PREFETCHED:
		CK(cudaMemPrefetchAsync(p, n, loc, 0, 0));
		break;
	case STREAMED:
	case GPU_FIRST:
		stream<<<1320, 512>>>((int4 *)p, n / 16);
		CK(cudaGetLastError());
		break;
	case TOUCHED_4K:
		launch_touch(p, n, 4096);
		break;
	default:
		break;
	}
	CK(cudaDeviceSynchronize());
	return p;
}

int main(void)
{
	static const size_t sizes[] = { 64 * MIB, 1024 * MIB };
	static const size_t strides[] = { 4096, 65536, 2 * MIB };

	CK(cudaSetDevice(0));
	for (int h = 0; h < NHOW; h++)
		for (size_t z = 0; z < 2; z++)
			for (size_t s = 0; s < 3; s++) {
				char *p = make((enum how)h, sizes[z]);
				one(hows[h], p, sizes[z], strides[s]);
				CK(cudaFree(p));
			}
	printf("mtouch.done: ok\n");
	return 0;
}
