// wmma.cu - a program's tensor-core GEMM through the wmma API, built by
// nvcc: a 64x64x64 product of f16 tiles into f32, one warp a 16x16 tile of
// the result walking K in steps of 16, the accumulator scaled element by
// element; an f64 m8n8k4 product and an s8 one. Each against the host's
// exact result (f16 sums of these small integers are exact in f32).
#include <mma.h>
#include <cuda_fp16.h>
#include "check.h"

using namespace nvcuda;

#define DIM 64

__global__ void gemm(const half *a, const half *b, float *c)
{
	int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
	int ti = warp / (DIM / 16), tj = warp % (DIM / 16);
	wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;

	wmma::fill_fragment(acc, 1.0f);
	for (int i = 0; i < acc.num_elements; i++)
		acc.x[i] *= 3.0f;
	for (int k = 0; k < DIM; k += 16) {
		wmma::load_matrix_sync(fa, a + ti * 16 * DIM + k, DIM);
		wmma::load_matrix_sync(fb, b + tj * 16 * DIM + k, DIM);
		wmma::mma_sync(acc, fa, fb, acc);
	}
	wmma::store_matrix_sync(c + ti * 16 * DIM + tj * 16, acc, DIM,
				wmma::mem_row_major);
}

__global__ void dgemm(const double *a, const double *b, double *d)
{
	wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
	wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> fb;
	wmma::fragment<wmma::accumulator, 8, 8, 4, double> acc;

	wmma::fill_fragment(acc, 0.5);
	wmma::load_matrix_sync(fa, a, 4);
	wmma::load_matrix_sync(fb, b, 8);
	wmma::mma_sync(acc, fa, fb, acc);
	wmma::store_matrix_sync(d, acc, 8, wmma::mem_col_major);
}

__global__ void igemm(const signed char *a, const signed char *b, int *d)
{
	wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::col_major> fa;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::row_major> fb;
	wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;

	wmma::fill_fragment(acc, -7);
	wmma::load_matrix_sync(fa, a, 16);
	wmma::load_matrix_sync(fb, b, 16);
	wmma::mma_sync(acc, fa, fb, acc);
	wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

int main()
{
	static half ha[DIM * DIM], hb[DIM * DIM];
	static float hc[DIM * DIM];
	half *a, *b;
	float *c;

	for (int i = 0; i < DIM * DIM; i++) {
		ha[i] = __float2half((float)(i % 9 - 4));
		hb[i] = __float2half((float)(i % 5 - 2));
	}
	CHECK(cudaMalloc(&a, sizeof ha));
	CHECK(cudaMalloc(&b, sizeof hb));
	CHECK(cudaMalloc(&c, sizeof hc));
	CHECK(cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice));
	gemm<<<DIM * DIM / 256 / 4, 128>>>(a, b, c);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(hc, c, sizeof hc, cudaMemcpyDeviceToHost));
	for (int i = 0; i < DIM; i++)
		for (int j = 0; j < DIM; j++) {
			float s = 3.0f;
			for (int k = 0; k < DIM; k++)
				s += __half2float(ha[i * DIM + k]) *
				     __half2float(hb[j * DIM + k]);
			EXPECT(hc[i * DIM + j] == s);
		}

	double xa[32], xb[32], xd[64], *da, *db, *dd;
	for (int i = 0; i < 32; i++) {
		xa[i] = i * 0.25 - 2;
		xb[i] = 1.0 / (i + 3);
	}
	CHECK(cudaMalloc(&da, sizeof xa));
	CHECK(cudaMalloc(&db, sizeof xb));
	CHECK(cudaMalloc(&dd, sizeof xd));
	CHECK(cudaMemcpy(da, xa, sizeof xa, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(db, xb, sizeof xb, cudaMemcpyHostToDevice));
	dgemm<<<1, 32>>>(da, db, dd);
	CHECK(cudaMemcpy(xd, dd, sizeof xd, cudaMemcpyDeviceToHost));
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++) {
			double s = 0.5;
			for (int k = 0; k < 4; k++)
				s = fma(xa[i * 4 + k], xb[k * 8 + j], s);
			EXPECT(xd[j * 8 + i] == s);
		}

	signed char ia[256], ib[256], *ga, *gb;
	int id[256], *gd;
	for (int i = 0; i < 256; i++) {
		ia[i] = (signed char)(i * 29 % 256 - 128);
		ib[i] = (signed char)(i * 13 % 256 - 128);
	}
	CHECK(cudaMalloc(&ga, 256));
	CHECK(cudaMalloc(&gb, 256));
	CHECK(cudaMalloc(&gd, sizeof id));
	CHECK(cudaMemcpy(ga, ia, 256, cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(gb, ib, 256, cudaMemcpyHostToDevice));
	igemm<<<1, 32>>>(ga, gb, gd);
	CHECK(cudaMemcpy(id, gd, sizeof id, cudaMemcpyDeviceToHost));
	for (int i = 0; i < 16; i++)
		for (int j = 0; j < 16; j++) {
			int s = -7;
			for (int k = 0; k < 16; k++)
				s += ia[k * 16 + i] * ib[k * 16 + j];
			EXPECT(id[i * 16 + j] == s);
		}
	std::printf("PASS\n");
	return 0;
}
