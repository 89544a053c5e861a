// sparse.cu - what sparse accesses of memory that does not fault cost a
// kernel on one H200: one byte read and written every `stride` bytes (one
// thread a touch, faults.cu's touch kernel) of device memory and of pinned
// host memory mapped into the GPU, at several sizes and strides, beside an
// empty kernel of the same grid. Separates a launch's fixed time from the
// cost of each touch, which probes/faults.cu's gpu_touch_4k_resident and
// _remote_pref_cpu rows show together. CUDA events around each launch;
// each case's min and mean of 7 runs after one to warm up.
// Each line: sparse.<case> bytes=... stride=... touches=... min_ms=... mean_ms=...
// Build: nvcc -O2 -arch=sm_90 -o sparse sparse.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define MIB (1UL << 20)
#define REPS 7
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("sparse.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void touch(char *p, size_t n, size_t stride)
{
	size_t i = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) * stride;
	if (i < n)
		p[i] += 1;
}

__global__ void empty(char *p, size_t n, size_t stride)
{
	(void)p; (void)n; (void)stride;
}

/* One case: kernel k over [p, p + n) every stride bytes. */
static void one(const char *name, void (*k)(char *, size_t, size_t),
		char *p, size_t n, size_t stride)
{
	size_t t = n / stride;
	unsigned grid = (unsigned)((t + 511) / 512);
	cudaEvent_t a, b;
	float ms, min = 1e30f, sum = 0;

	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	for (int r = -1; r < REPS; r++) {
		CK(cudaEventRecord(a, 0));
		k<<<grid, 512>>>(p, n, stride);
		CK(cudaGetLastError());
		CK(cudaEventRecord(b, 0));
		CK(cudaEventSynchronize(b));
		CK(cudaEventElapsedTime(&ms, a, b));
		if (r < 0)
			continue;
		sum += ms;
		min = ms < min ? ms : min;
	}
	CK(cudaEventDestroy(a));
	CK(cudaEventDestroy(b));
	printf("sparse.%s bytes=%zu stride=%zu touches=%zu min_ms=%.4f "
	       "mean_ms=%.4f\n", name, n, stride, t, min, sum / REPS);
	fflush(stdout);
}

int main(void)
{
	static const size_t sizes[] = { 16 * MIB, 64 * MIB, 256 * MIB,
					1024 * MIB };
	static const size_t strides[] = { 128, 4096, 65536 };
	char *d, *h, *hd;
	char name[64];

	CK(cudaMalloc(&d, 1024 * MIB));
	CK(cudaMemset(d, 0, 1024 * MIB));
	CK(cudaHostAlloc(&h, 1024 * MIB, cudaHostAllocMapped));
	CK(cudaHostGetDevicePointer(&hd, h, 0));
	for (size_t i = 0; i < 1024 * MIB; i += 4096)
		h[i] = 0;
	for (size_t s = 0; s < 3; s++)
		for (size_t z = 0; z < 4; z++) {
			snprintf(name, sizeof name, "empty_%zumib_%zu",
				 sizes[z] / MIB, strides[s]);
			one(name, empty, d, sizes[z], strides[s]);
			snprintf(name, sizeof name, "device_%zumib_%zu",
				 sizes[z] / MIB, strides[s]);
			one(name, touch, d, sizes[z], strides[s]);
			if (strides[s] == 128 && sizes[z] > 64 * MIB)
				continue; /* minutes over PCIe */
			snprintf(name, sizeof name, "host_%zumib_%zu",
				 sizes[z] / MIB, strides[s]);
			one(name, touch, hd, sizes[z], strides[s]);
		}
	CK(cudaFreeHost(h));
	CK(cudaFree(d));
	printf("sparse.done: ok\n");
	return 0;
}
