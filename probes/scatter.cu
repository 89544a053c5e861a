// scatter.cu - what scattered touches of resident memory cost: one byte
// incremented in each of N places S bytes apart, the places in a
// scrambled order (k_scramble of patterns.cu, whose 32,768 touches of
// 128 MiB of managed memory first faulted in by the GPU take 37-43 us on
// an H200, where their DRAM units take about 2), timed by events, on
//   dev:      cudaMalloc memory
//   pref:     managed memory prefetched to the GPU whole
//   gfault:   managed memory the GPU faulted in by touching each 4 KiB
//             page in the same scrambled order (patterns.cu's case)
//   cfault:   managed memory the CPU wrote, then the GPU faulted in
// for S = 4 KiB, 64 KiB and 2 MiB and spans of 8 to 512 MiB: the first
// touch after its setup, and the second. Whether the cost follows the pages'
// count, the span, or how the memory came to the GPU says which
// mechanism it is (a TLB's reach, a page size).
// Lines: scatter <kind> S=<bytes> span=<MiB> touches=N: first_us=... us=...
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o scatter scatter.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("scatter.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void k_scatter(char *p, size_t n, size_t stride)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;

	if (i < n)
		p[((i * 0x9E3779B1ULL) & (n - 1)) * stride] += 1;
}

static cudaEvent_t e0, e1;

static float touch(char *p, size_t n, size_t stride)
{
	float ms;

	CK(cudaEventRecord(e0, 0));
	k_scatter<<<(unsigned)((n + 511) / 512), 512>>>(p, n, stride);
	CK(cudaEventRecord(e1, 0));
	CK(cudaEventSynchronize(e1));
	CK(cudaEventElapsedTime(&ms, e0, e1));
	return ms;
}

int main(void)
{
	const char *kinds[] = { "dev", "pref", "gfault", "cfault" };
	const size_t strides[] = { 4096, 65536, 2u << 20 };
	const size_t spans[] = { 8, 32, 128, 512 };

	CK(cudaEventCreate(&e0));
	CK(cudaEventCreate(&e1));
	for (int k = 0; k < 4; k++)
		for (int z = 0; z < 4; z++)
			for (int s = 0; s < 3; s++) {
				size_t bytes = spans[z] << 20;
				size_t n = bytes / strides[s];
				char *p;
				float first, ms;

				if (n < 4)
					continue;
				if (k == 0)
					CK(cudaMalloc(&p, bytes));
				else
					CK(cudaMallocManaged(&p, bytes));
				if (k == 0)
					CK(cudaMemset(p, 0, bytes));
				else if (k == 1) {
					cudaMemLocation gpu0 = {
						cudaMemLocationTypeDevice, 0 };
					CK(cudaMemPrefetchAsync(p, bytes, gpu0,
								0, 0));
				} else if (k == 2)
					touch(p, bytes / 4096, 4096);
				else {
					memset(p, 0, bytes);
					touch(p, bytes / 4096, 4096);
				}
				CK(cudaDeviceSynchronize());
				first = touch(p, n, strides[s]);
				ms = touch(p, n, strides[s]);
				printf("scatter %s S=%zu span=%zu touches=%zu: "
				       "first_us=%.2f us=%.2f\n", kinds[k],
				       strides[s], spans[z], n, first * 1e3,
				       ms * 1e3);
				fflush(stdout);
				CK(cudaFree(p));
			}
	printf("scatter.done: ok\n");
	return 0;
}
