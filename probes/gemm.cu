// gemm.cu - where PolyBench's GEMM kernel (as UVMBench builds it: 512
// cubed, blocks of 32 x 8, the sum added into c in memory each step, so
// a store and two loads a step) spends its time on one GPU: the kernel on
// device memory, then on managed memory the CPU wrote (faulted in by the
// kernel), then on the same managed memory resident; and the same product
// with the sum kept in a register. UVMBench's GEMM prints 1.13 ms of GPU
// Runtime on an H200 (its wall clock around the kernel and the
// synchronization, faults included), the model 0.65.
// Lines: gemm <case> n=N: ms=...
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o gemm gemm.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("gemm.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)
#define N 512

// UVMBench's form: c may alias a and b, so the compiler stores the sum
// every step
__global__ void gemm_mem(const float *a, const float *b, float *c)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if (i < N && j < N) {
		c[i * N + j] *= 2123.0f;
		for (int k = 0; k < N; k++)
			c[i * N + j] += 32412.0f * a[i * N + k] * b[k * N + j];
	}
}

__global__ void gemm_reg(const float *__restrict__ a,
			 const float *__restrict__ b, float *__restrict__ c)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if (i < N && j < N) {
		float s = c[i * N + j] * 2123.0f;
		for (int k = 0; k < N; k++)
			s += 32412.0f * a[i * N + k] * b[k * N + j];
		c[i * N + j] = s;
	}
}

static cudaEvent_t e0, e1;

static double wall_ms(void)
{
	struct timeval t;

	gettimeofday(&t, NULL);
	return t.tv_sec * 1e3 + t.tv_usec / 1e3;
}

// events around the kernel, and the wall clock around it and the
// synchronization (UVMBench's GPU Runtime)
static void run(const char *what, int reg, float *a, float *b, float *c)
{
	dim3 block(32, 8), grid(N / 32, N / 8);
	double w0 = wall_ms();
	float ms;

	CK(cudaEventRecord(e0, 0));
	if (reg)
		gemm_reg<<<grid, block>>>(a, b, c);
	else
		gemm_mem<<<grid, block>>>(a, b, c);
	CK(cudaEventRecord(e1, 0));
	CK(cudaDeviceSynchronize());
	CK(cudaEventElapsedTime(&ms, e0, e1));
	printf("gemm %s n=%d: ms=%.4f wall_ms=%.4f\n", what, N, ms,
	       wall_ms() - w0);
	fflush(stdout);
}

static void fill(float *p)
{
	for (int i = 0; i < N * N; i++)
		p[i] = (float)(i % 97) / N;
}

int main(void)
{
	size_t bytes = (size_t)N * N * sizeof(float);
	float *a, *b, *c, *h = (float *)malloc(bytes);

	CK(cudaEventCreate(&e0));
	CK(cudaEventCreate(&e1));
	fill(h);
	CK(cudaMalloc(&a, bytes));
	CK(cudaMalloc(&b, bytes));
	CK(cudaMalloc(&c, bytes));
	CK(cudaMemcpy(a, h, bytes, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(b, h, bytes, cudaMemcpyHostToDevice));
	CK(cudaMemcpy(c, h, bytes, cudaMemcpyHostToDevice));
	for (int rep = 0; rep < 3; rep++)
		run("device_mem", 0, a, b, c);
	for (int rep = 0; rep < 3; rep++)
		run("device_reg", 1, a, b, c);
	CK(cudaFree(a));
	CK(cudaFree(b));
	CK(cudaFree(c));
	for (int rep = 0; rep < 3; rep++) {
		CK(cudaMallocManaged(&a, bytes));
		CK(cudaMallocManaged(&b, bytes));
		CK(cudaMallocManaged(&c, bytes));
		fill(a);
		fill(b);
		fill(c);
		run("managed_faulted", 0, a, b, c);
		run("managed_resident", 0, a, b, c);
		CK(cudaFree(a));
		CK(cudaFree(b));
		CK(cudaFree(c));
	}
	printf("gemm.done: ok\n");
	return 0;
}
