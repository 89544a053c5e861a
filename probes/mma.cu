// mma.cu - mma.sync and ldmatrix, the tensor core's PTX-level forms,
// whose fragment layouts the PTX ISA fixes: each case one kernel of one
// warp a tile, run on the real GPU, printing every lane's registers.
//  ldmatrix_x4, ldmatrix_x4_trans: four 8x8 b16 tiles from shared memory,
//    each lane's four registers (a tile's element is its index, so the
//    layout reads off the values);
//  mma_f16_f32_k16, mma_bf16_f32_k16, mma_f16_f16_k16, mma_f16_f32_k8:
//    D = A B + C of m16n8k16 and m16n8k8, A, B and C each lane's
//    registers loaded from hashed elements by the ISA's layout (wmma.h's
//    inputs), D's registers printed.
// Prints "name r0 r1 ..." (hex, lane by lane, a lane's registers in
// order); tests/unit/test_exec_mma.c runs the same PTX (mma.ptx) through
// the engine and compares them.
// Build: nvcc -O2 -arch=sm_90 -o mma mma.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>
#include "mma.h"

extern "C" __global__ void ldmatrix_x4(const unsigned short *in, unsigned *out)
{
	__shared__ unsigned short s[4 * 64];
	unsigned l = threadIdx.x, r[4];
	for (int i = l; i < 256; i += 32)
		s[i] = in[i];
	__syncwarp();
	unsigned addr = (unsigned)__cvta_generic_to_shared(&s[l * 8]);
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
		     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
	for (int j = 0; j < 4; j++)
		out[l * 4 + j] = r[j];
}

extern "C" __global__ void ldmatrix_x4_trans(const unsigned short *in,
					     unsigned *out)
{
	__shared__ unsigned short s[4 * 64];
	unsigned l = threadIdx.x, r[4];
	for (int i = l; i < 256; i += 32)
		s[i] = in[i];
	__syncwarp();
	unsigned addr = (unsigned)__cvta_generic_to_shared(&s[l * 8]);
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
		     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
	for (int j = 0; j < 4; j++)
		out[l * 4 + j] = r[j];
}

/* Tile t's lanes' registers: A's na, B's nb, C's nc words each, in from
 * in[] (t, lane, register), D's nd words out. */
#define MMA(name, ins, na, nb, nc, nd, CD) \
extern "C" __global__ void name(const unsigned *in, unsigned *out) \
{ \
	unsigned l = threadIdx.x, t = blockIdx.x; \
	const unsigned *p = in + ((size_t)t * 32 + l) * 16; \
	unsigned a[4] = { p[0], p[1], p[2], p[3] }, b[2] = { p[4], p[5] }; \
	unsigned c[4] = { p[6], p[7], p[8], p[9] }, d[4] = { 0, 0, 0, 0 }; \
	CD; \
	for (int i = 0; i < nd; i++) \
		out[((size_t)t * 32 + l) * 4 + i] = d[i]; \
}

MMA(mma_f16_f32_k16, 0, 4, 2, 4, 4,
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
		 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
		 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
		 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
		   "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])))
MMA(mma_bf16_f32_k16, 0, 4, 2, 4, 4,
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
		 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
		 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
		 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
		   "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])))
MMA(mma_f16_f16_k16, 0, 4, 2, 2, 2,
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 "
		 "{%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};"
		 : "=r"(d[0]), "=r"(d[1])
		 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
		   "r"(c[0]), "r"(c[1])))
MMA(mma_f16_f32_k8, 0, 2, 1, 4, 4,
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
		 "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
		 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
		 : "r"(a[0]), "r"(a[1]), "r"(b[0]),
		   "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])))

MMA(mma_bf16_f32_k8, 0, 2, 1, 4, 4,
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 "
		 "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
		 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
		 : "r"(a[0]), "r"(a[1]), "r"(b[0]),
		   "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])))
MMA(mma_s8_s32_k32, 0, 4, 2, 4, 4,
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
		 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
		 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
		 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
		   "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])))
MMA(mma_u8_s32_k16_sat, 0, 2, 1, 4, 4,
    asm volatile("mma.sync.aligned.m16n8k16.row.col.satfinite.s32.u8.u8.s32 "
		 "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
		 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
		 : "r"(a[0]), "r"(a[1]), "r"(b[0]),
		   "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])))
MMA(mma_tf32_f32_k8, 0, 4, 2, 4, 4,
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
		 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
		 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
		 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
		   "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])))
/* f64: A, B and C's doubles from pairs of words, low first. */
extern "C" __global__ void mma_f64_k4(const unsigned *in, unsigned *out)
{
	unsigned l = threadIdx.x, t = blockIdx.x;
	const unsigned *p = in + ((size_t)t * 32 + l) * 16;
	double a = __hiloint2double(p[1], p[0]);
	double b = __hiloint2double(p[5], p[4]);
	double c0 = __hiloint2double(p[7], p[6]);
	double c1 = __hiloint2double(p[9], p[8]);
	double d0, d1;

	asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 "
		     "{%0, %1}, {%2}, {%3}, {%4, %5};"
		     : "=d"(d0), "=d"(d1) : "d"(a), "d"(b), "d"(c0), "d"(c1));
	unsigned *o = out + ((size_t)t * 32 + l) * 4;
	o[0] = __double2loint(d0);
	o[1] = __double2hiint(d0);
	o[2] = __double2loint(d1);
	o[3] = __double2hiint(d1);
}

typedef void (*kfn)(const unsigned *, unsigned *);
static const struct { const char *name; kfn fn; int ab, cd, na, nb, nc, nd; }
cases[] = {
#define X(name, ab, cd, na, nb, nc, nd) { #name, name, ab, cd, na, nb, nc, nd },
	MMA_CASES(X)
#undef X
};

int main(void)
{
	unsigned short *e;
	unsigned *in, *out;

	if (cudaMallocManaged(&e, 512) || cudaMallocManaged(&in, MMA_TILES * 32 * 64) ||
	    cudaMallocManaged(&out, MMA_TILES * 32 * 16)) {
		printf("mma.error: cudaMallocManaged\n");
		return 1;
	}
	for (int i = 0; i < 256; i++)
		e[i] = (unsigned short)i;
	for (int tr = 0; tr < 2; tr++) {
		(tr ? ldmatrix_x4_trans : ldmatrix_x4)<<<1, 32>>>(e, out);
		if (cudaDeviceSynchronize() != cudaSuccess)
			return 1;
		printf("%s", tr ? "ldmatrix_x4_trans" : "ldmatrix_x4");
		for (int i = 0; i < 128; i++)
			printf(" %x", out[i]);
		printf("\n");
	}
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		memset(in, 0, MMA_TILES * 32 * 64);
		mma_lanes(in, cases[k].ab, cases[k].cd, cases[k].na, cases[k].nb,
		      cases[k].nc);
		cases[k].fn<<<MMA_TILES, 32>>>(in, out);
		cudaError_t err = cudaDeviceSynchronize();
		if (err != cudaSuccess) {
			printf("%s error %s\n", cases[k].name, cudaGetErrorName(err));
			return 1;
		}
		printf("%s", cases[k].name);
		for (int t = 0; t < MMA_TILES; t++)
			for (int l = 0; l < 32; l++)
				for (int i = 0; i < cases[k].nd; i++)
					printf(" %x", out[((size_t)t * 32 + l) * 4 + i]);
		printf("\n");
	}
	return 0;
}
