// faultwindow.cu - why faults.cu's touch of every 4 KiB page of 1 GiB the
// CPU wrote (129 to 242 ms on H200s) takes 1.5 to 1.9 times its stream of
// the same 1 GiB (78 to 139 ms), which migrates the same bytes. The touch
// kernel's 262,144 threads are all resident at once, each faulting a page
// of its own; the stream's grid-stride loop has a few thousand pages in
// flight at a time. Each case times one kernel with events over memory
// the CPU wrote (prefetched to the host, every page written there):
//   touch_all            faults.cu's touch: a thread a page, 512 blocks
//   touch_window_G       the same pages touched by G blocks of 512
//                        threads in a grid-stride loop, a page a thread a
//                        step: G x 512 pages in flight
//   stream               faults.cu's stream: 1,320 blocks of 512 threads,
//                        an int4 read and written a step
//   touch_all_256m       touch_all over the first 256 MiB alone
// Each line: faultwindow.<case> repR: ms=...
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o faultwindow faultwindow.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define GIB (1UL << 30)
#define REPS 3
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("faultwindow.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

/* faults.cu's touch kernel: one byte every stride bytes of n. */
__global__ void touch(char *p, size_t n, size_t stride)
{
	size_t i = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) * stride;
	if (i < n)
		p[i] += 1;
}

/* The same touches, the grid striding over them. */
__global__ void touch_loop(char *p, size_t n, size_t stride)
{
	for (size_t i = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) *
			stride; i < n;
	     i += (size_t)gridDim.x * blockDim.x * stride)
		p[i] += 1;
}

/* faults.cu's stream kernel. */
__global__ void stream(int4 *p, size_t n)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x) {
		int4 v = p[i];
		v.x += 1;
		p[i] = v;
	}
}

static void to_host(char *p, size_t n)
{
	struct cudaMemLocation l = {cudaMemLocationTypeHost, 0};

	CK(cudaMemPrefetchAsync(p, n, l, 0, 0));
	CK(cudaDeviceSynchronize());
	for (size_t i = 0; i < n; i += 4096)
		p[i] += 1;
}

static cudaEvent_t ea, eb;

static void begin(void)
{
	CK(cudaEventRecord(ea, 0));
}

static void end(const char *c, int rep)
{
	float ms;

	CK(cudaGetLastError());
	CK(cudaEventRecord(eb, 0));
	CK(cudaEventSynchronize(eb));
	CK(cudaEventElapsedTime(&ms, ea, eb));
	printf("faultwindow.%s rep%d: ms=%.2f\n", c, rep, ms);
	fflush(stdout);
}

int main(void)
{
	const unsigned grids[] = {8, 33, 132, 264};
	char *p, name[64];

	CK(cudaEventCreate(&ea));
	CK(cudaEventCreate(&eb));
	CK(cudaMallocManaged(&p, GIB));
	for (int rep = 0; rep < REPS; rep++) {
		to_host(p, GIB);
		begin();
		touch<<<512, 512>>>(p, GIB, 4096);
		end("touch_all", rep);
		for (int g = 0; g < 4; g++) {
			to_host(p, GIB);
			begin();
			touch_loop<<<grids[g], 512>>>(p, GIB, 4096);
			snprintf(name, sizeof(name), "touch_window_%u",
				 grids[g]);
			end(name, rep);
		}
		to_host(p, GIB);
		begin();
		stream<<<1320, 512>>>((int4 *)p, GIB / 16);
		end("stream", rep);
		to_host(p, GIB / 4);
		begin();
		touch<<<128, 512>>>(p, GIB / 4, 4096);
		end("touch_all_256m", rep);
	}
	CK(cudaFree(p));
	printf("faultwindow.done: ok\n");
	return 0;
}
