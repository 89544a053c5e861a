// stack.cu - device recursion against the stack limit: a recursive device
// function with a 128-byte local array a frame, run to a given depth by 32
// threads under the default CU_LIMIT_STACK_SIZE or a given one. Prints the
// limit before and after, the kernel's local bytes, the launch's error and
// whether the sum came out right. One depth and limit a process (a failed
// launch poisons the context): stack DEPTH [LIMIT].
// Build: nvcc -O2 -arch=sm_90 -o stack stack.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

__device__ int rec(int d)
{
	volatile int buf[32];

	for (int i = 0; i < 32; i++)
		buf[i] = d + i;
	if (d == 0)
		return buf[5];
	return rec(d - 1) + buf[d % 32];
}

extern "C" __global__ void run(int *out, int depth)
{
	out[threadIdx.x] = rec(depth);
}

int main(int argc, char **argv)
{
	int depth = argc > 1 ? atoi(argv[1]) : 1, *out, want = 5;
	size_t lim = 0, set = argc > 2 ? strtoull(argv[2], NULL, 0) : 0;
	struct cudaFuncAttributes fa;

	cudaDeviceGetLimit(&lim, cudaLimitStackSize);
	printf("stack.%d.%zu.default_limit %zu\n", depth, set, lim);
	if (set) {
		cudaError_t e = cudaDeviceSetLimit(cudaLimitStackSize, set);
		cudaDeviceGetLimit(&lim, cudaLimitStackSize);
		printf("stack.%d.%zu.set %s %zu\n", depth, set, cudaGetErrorName(e), lim);
	}
	cudaFuncGetAttributes(&fa, run);
	printf("stack.%d.%zu.local_bytes %zu\n", depth, set, fa.localSizeBytes);
	cudaMallocManaged(&out, 32 * sizeof(int));
	for (int d = 1; d <= depth; d++)
		want += d + d % 32;
	run<<<1, 32>>>(out, depth);
	cudaError_t e = cudaDeviceSynchronize();
	printf("stack.%d.%zu.launch %s %s\n", depth, set, cudaGetErrorName(e),
	       e ? "-" : out[31] == want ? "right" : "wrong");
	return 0;
}
