// video.cu - the SIMD video instructions' table: every case of video.h,
// one kernel each running exactly one PTX instruction (inline asm) over
// the table's rows, on the real GPU. Prints "name d0 d1 ..." (hex) per
// case; tests/unit/test_exec_video.c runs the same kernels, from this
// file's PTX (video.ptx), through the engine and compares them.
// Build: nvcc -O2 -arch=sm_90 -o video video.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include "video.h"

#define K(name, ins) extern "C" __global__ void name(const unsigned *A, \
	const unsigned *B, const unsigned *C, unsigned *D, int n) { \
	int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; \
	unsigned d; asm volatile(ins " %0, %1, %2, %3;" : "=r"(d) \
	: "r"(A[i]), "r"(B[i]), "r"(C[i])); D[i] = d; }
VIDEO_CASES(K)
#undef K

typedef void (*kfn)(const unsigned *, const unsigned *, const unsigned *,
		    unsigned *, int);
static const struct { const char *name; kfn fn; } cases[] = {
#define X(name, ins) { #name, name },
	VIDEO_CASES(X)
#undef X
};

int main(void)
{
	unsigned *a, *b, *c, *d;
	int n = VIDEO_ROWS;

	if (cudaMallocManaged(&a, n * 4) || cudaMallocManaged(&b, n * 4) ||
	    cudaMallocManaged(&c, n * 4) || cudaMallocManaged(&d, n * 4)) {
		printf("video.error: cudaMallocManaged\n");
		return 1;
	}
	for (int i = 0; i < n; i++)
		video_row(i, &a[i], &b[i], &c[i]);
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		for (int i = 0; i < n; i++)
			d[i] = 0xcdcdcdcdu;
		cases[k].fn<<<(n + 127) / 128, 128>>>(a, b, c, d, n);
		cudaError_t e = cudaDeviceSynchronize();
		if (e != cudaSuccess) {
			printf("%s error %s\n", cases[k].name, cudaGetErrorName(e));
			return 1;
		}
		printf("%s", cases[k].name);
		for (int i = 0; i < n; i++)
			printf(" %x", d[i]);
		printf("\n");
	}
	return 0;
}
