// slices.cu - a stencil walking a managed 3D array one slice a kernel, as
// PolyBench's 3DCONV does (UVMBench: 256^3 floats, 254 kernels, 28.4 ms
// on an H200 where the model said 13.9). Which kernels pay, and for what:
// A (64 MiB, written by the CPU) is read at slices i-1, i, i+1 and B (64
// MiB, never touched) written at slice i, by kernel i. Cases: both
// unprefetched (3DCONV's own), A prefetched to gpu0 first (B's first
// touches alone), both prefetched (the kernels alone). Each kernel timed
// with events; each case's whole loop by the wall clock around it and a
// synchronize. Lines: slices.<case> k<i>: ms=... and slices.<case> total:
// wall_ms=... sum_ms=...
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o slices slices.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 256
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("slices.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void slice(const float *a, float *b, int i)
{
	int k = blockIdx.x * blockDim.x + threadIdx.x;
	int j = blockIdx.y * blockDim.y + threadIdx.y;
	size_t s = (size_t)N * N;

	if (i < N - 1 && j < N - 1 && k < N - 1 && i > 0 && j > 0 && k > 0)
		b[i * s + j * N + k] =
			2 * a[(i - 1) * s + (j - 1) * N + (k - 1)] +
			4 * a[(i + 1) * s + (j - 1) * N + (k - 1)] -
			3 * a[i * s + (j - 1) * N + k] +
			6 * a[i * s + j * N + k] -
			9 * a[i * s + (j + 1) * N + k] +
			2 * a[(i - 1) * s + (j - 1) * N + (k + 1)] +
			4 * a[(i + 1) * s + (j - 1) * N + (k + 1)] +
			5 * a[(i - 1) * s + j * N + (k + 1)] +
			7 * a[(i + 1) * s + j * N + (k + 1)] -
			8 * a[(i - 1) * s + (j + 1) * N + (k + 1)] +
			10 * a[(i + 1) * s + (j + 1) * N + (k + 1)];
}

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void to_gpu(float *p, size_t n)
{
	struct cudaMemLocation l;
	l.type = cudaMemLocationTypeDevice;
	l.id = 0;
	CK(cudaMemPrefetchAsync(p, n, l, 0, 0));
	CK(cudaDeviceSynchronize());
}

static void run(const char *name, int pre_a, int pre_b)
{
	size_t n = (size_t)N * N * N * sizeof(float);
	float *a, *b, sum = 0, ms;
	cudaEvent_t ev[N];
	dim3 block(32, 8), grid(N / 32, N / 8);

	CK(cudaMallocManaged(&a, n));
	CK(cudaMallocManaged(&b, n));
	for (size_t x = 0; x < n / sizeof(float); x++)
		a[x] = (float)(x % 97);
	if (pre_a)
		to_gpu(a, n);
	if (pre_b)
		to_gpu(b, n);
	for (int i = 0; i < N - 1; i++)
		CK(cudaEventCreate(&ev[i]));
	CK(cudaDeviceSynchronize());
	double t0 = now_ms();
	CK(cudaEventRecord(ev[0], 0));
	for (int i = 1; i < N - 1; i++) {
		slice<<<grid, block>>>(a, b, i);
		CK(cudaEventRecord(ev[i], 0));
	}
	CK(cudaDeviceSynchronize());
	double wall = now_ms() - t0;
	for (int i = 1; i < N - 1; i++) {
		CK(cudaEventElapsedTime(&ms, ev[i - 1], ev[i]));
		printf("slices.%s k%d: ms=%.4f\n", name, i, ms);
		sum += ms;
	}
	printf("slices.%s total: wall_ms=%.3f sum_ms=%.3f\n", name, wall, sum);
	for (int i = 0; i < N - 1; i++)
		CK(cudaEventDestroy(ev[i]));
	CK(cudaFree(a));
	CK(cudaFree(b));
}

int main(void)
{
	run("faulted", 0, 0);
	run("a_prefetched", 1, 0);
	run("both_prefetched", 1, 1);
	run("faulted_again", 0, 0);
	printf("slices.done: ok\n");
	return 0;
}
