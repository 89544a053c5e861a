// wmma.cu - the warp matrix table: every case of wmma.h, one kernel each,
// warp t multiplying its tiles with wmma (load, mma, store), on the real
// GPU. Prints "name d0 d1 ..." (hex, each tile's D row-major, the tiles in
// order); tests/unit/test_exec_wmma.c runs the same kernels, from this
// file's PTX (wmma.ptx), through the engine and compares them.
// Build: nvcc -O2 -arch=sm_90 -o wmma wmma.cu
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
#include <stdio.h>
#include "wmma.h"

using namespace nvcuda;

#define TILE(p, T, t) ((T *)(p) + (size_t)(t) * WMMA_ELEMS)

/* A (m x k) row-major, B (k x n) column-major, C and D (m x n) row-major,
 * of element types AB and CD, shape M N K. */
#define GEMM(name, AB, FA, CD, M, N, K) \
extern "C" __global__ void name(const void *A, const void *B, \
				const void *C, void *D) \
{ \
	int t = blockIdx.x; \
	wmma::fragment<wmma::matrix_a, M, N, K, FA, wmma::row_major> a; \
	wmma::fragment<wmma::matrix_b, M, N, K, FA, wmma::col_major> b; \
	wmma::fragment<wmma::accumulator, M, N, K, CD> c; \
	wmma::load_matrix_sync(a, TILE(A, AB, t), K); \
	wmma::load_matrix_sync(b, TILE(B, AB, t), K); \
	wmma::load_matrix_sync(c, TILE(C, CD, t), N, wmma::mem_row_major); \
	wmma::mma_sync(c, a, b, c); \
	wmma::store_matrix_sync(TILE(D, CD, t), c, N, wmma::mem_row_major); \
}

GEMM(f16_f32_16x16x16, half, half, float, 16, 16, 16)
GEMM(f16_f16_16x16x16, half, half, half, 16, 16, 16)
GEMM(f16_f32_8x32x16, half, half, float, 8, 32, 16)
GEMM(f16_f32_32x8x16, half, half, float, 32, 8, 16)
GEMM(bf16_f32_16x16x16, __nv_bfloat16, __nv_bfloat16, float, 16, 16, 16)
GEMM(s8_s32_16x16x16, signed char, signed char, int, 16, 16, 16)
GEMM(f64_8x8x4, double, double, double, 8, 8, 4)

/* A column-major, B row-major. */
extern "C" __global__ void f16_f32_16x16x16_colrow(const void *A,
		const void *B, const void *C, void *D)
{
	int t = blockIdx.x;
	wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> a;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
	wmma::load_matrix_sync(a, TILE(A, half, t), 16);
	wmma::load_matrix_sync(b, TILE(B, half, t), 16);
	wmma::load_matrix_sync(c, TILE(C, float, t), 16, wmma::mem_col_major);
	wmma::mma_sync(c, a, b, c);
	wmma::store_matrix_sync(TILE(D, float, t), c, 16, wmma::mem_row_major);
}

/* Inputs of f32, each rounded to tf32 in its fragment. */
extern "C" __global__ void tf32_f32_16x16x8(const void *A, const void *B,
		const void *C, void *D)
{
	int t = blockIdx.x;
	wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32,
		       wmma::row_major> a;
	wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32,
		       wmma::col_major> b;
	wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
	wmma::load_matrix_sync(a, TILE(A, float, t), 8);
	wmma::load_matrix_sync(b, TILE(B, float, t), 8);
	for (int i = 0; i < a.num_elements; i++)
		a.x[i] = wmma::__float_to_tf32(a.x[i]);
	for (int i = 0; i < b.num_elements; i++)
		b.x[i] = wmma::__float_to_tf32(b.x[i]);
	wmma::load_matrix_sync(c, TILE(C, float, t), 16, wmma::mem_row_major);
	wmma::mma_sync(c, a, b, c);
	wmma::store_matrix_sync(TILE(D, float, t), c, 16, wmma::mem_row_major);
}

/* Unsigned bytes, the sum saturated to s32. */
extern "C" __global__ void u8_s32_16x16x16_sat(const void *A, const void *B,
		const void *C, void *D)
{
	int t = blockIdx.x;
	wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char,
		       wmma::row_major> a;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, unsigned char,
		       wmma::col_major> b;
	wmma::fragment<wmma::accumulator, 16, 16, 16, int> c;
	wmma::load_matrix_sync(a, TILE(A, unsigned char, t), 16);
	wmma::load_matrix_sync(b, TILE(B, unsigned char, t), 16);
	wmma::load_matrix_sync(c, TILE(C, int, t), 16, wmma::mem_row_major);
	wmma::mma_sync(c, a, b, c, true);
	wmma::store_matrix_sync(TILE(D, int, t), c, 16, wmma::mem_row_major);
}

/* Fragments changed element by element between their loads and the mma:
 * A doubled, the accumulator halved. */
extern "C" __global__ void f32_scaled_16x16x16(const void *A, const void *B,
		const void *C, void *D)
{
	int t = blockIdx.x;
	wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
	wmma::load_matrix_sync(a, TILE(A, half, t), 16);
	wmma::load_matrix_sync(b, TILE(B, half, t), 16);
	wmma::load_matrix_sync(c, TILE(C, float, t), 16, wmma::mem_row_major);
	for (int i = 0; i < a.num_elements; i++)
		a.x[i] = __hmul(a.x[i], __float2half(2.0f));
	for (int i = 0; i < c.num_elements; i++)
		c.x[i] *= 0.5f;
	wmma::mma_sync(c, a, b, c);
	wmma::store_matrix_sync(TILE(D, float, t), c, 16, wmma::mem_row_major);
}

typedef void (*kfn)(const void *, const void *, const void *, void *);
static const struct {
	const char *name;
	kfn fn;
	int ab, cd, m, n, k;
} cases[] = {
#define X(name, ab, cd, m, n, k) { #name, name, ab, cd, m, n, k },
	WMMA_CASES(X)
#undef X
};

int main(void)
{
	void *a, *b, *c, *d;
	size_t max = (size_t)WMMA_TILES * WMMA_ELEMS * 8;

	if (cudaMallocManaged(&a, max) || cudaMallocManaged(&b, max) ||
	    cudaMallocManaged(&c, max) || cudaMallocManaged(&d, max)) {
		printf("wmma.error: cudaMallocManaged\n");
		return 1;
	}
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		int sz = wmma_bytes(cases[k].cd), mn = cases[k].m * cases[k].n;
		wmma_fill(a, cases[k].ab, 1, cases[k].m * cases[k].k);
		wmma_fill(b, cases[k].ab, 2, cases[k].k * cases[k].n);
		wmma_fill(c, cases[k].cd, 3, mn);
		memset(d, 0xcd, max);
		cases[k].fn<<<WMMA_TILES, 32>>>(a, b, c, d);
		cudaError_t e = cudaDeviceSynchronize();
		if (e != cudaSuccess) {
			printf("%s error %s\n", cases[k].name, cudaGetErrorName(e));
			return 1;
		}
		printf("%s", cases[k].name);
		for (int t = 0; t < WMMA_TILES; t++)
			for (int i = 0; i < mn; i++) {
				uint64_t v = 0;
				memcpy(&v, (char *)d + ((size_t)t * WMMA_ELEMS + i) * sz, sz);
				printf(" %llx", (unsigned long long)v);
			}
		printf("\n");
	}
	return 0;
}
