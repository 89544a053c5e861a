// f16.cu - the half-precision table: every case of f16.h, one kernel each
// running exactly one PTX instruction (inline asm) over the case's rows, on
// the real GPU. Prints "name d0 d1 ..." (hex) per case;
// tests/unit/test_exec_f16.c runs the same kernels, from this file's PTX
// (f16.ptx), through the engine and compares line by line.
// Build: nvcc -O2 -arch=sm_90 -o f16 f16.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include "f16.h"

typedef unsigned long long u64;
typedef unsigned short u16;

#define HEAD(name) extern "C" __global__ void name(const u64 *A, const u64 *B, \
	const u64 *C, u64 *D, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; \
	if (i >= n) return;
#define K1(name, TD, CD, TA, CA, INS) HEAD(name) TD d; TA a = (TA)A[i]; \
	asm volatile(INS " %0, %1;" : "=" CD(d) : CA(a)); D[i] = (u64)d; }
#define K2(name, TD, CD, TA, CA, INS) HEAD(name) TD d; TA a = (TA)A[i], \
	b = (TA)B[i]; asm volatile(INS " %0, %1, %2;" : "=" CD(d) : CA(a), CA(b)); \
	D[i] = (u64)d; }
#define K3(name, TD, CD, TA, CA, INS) HEAD(name) TD d; TA a = (TA)A[i], \
	b = (TA)B[i], c = (TA)C[i]; asm volatile(INS " %0, %1, %2, %3;" \
	: "=" CD(d) : CA(a), CA(b), CA(c)); D[i] = (u64)d; }
#define H1(name, ins) K1(name, u16, "h", u16, "h", ins)
#define H2(name, ins) K2(name, u16, "h", u16, "h", ins)
#define H3(name, ins) K3(name, u16, "h", u16, "h", ins)
#define X1(name, ins) K1(name, unsigned, "r", unsigned, "r", ins)
#define X2(name, ins) K2(name, unsigned, "r", unsigned, "r", ins)
#define X3(name, ins) K3(name, unsigned, "r", unsigned, "r", ins)
// setp over 16-bit operands: the predicate as 0 or 1
#define PH(name, ins) HEAD(name) unsigned d; u16 a = (u16)A[i], b = (u16)B[i]; \
	asm volatile("{ .reg .pred p; " ins " p, %1, %2; selp.u32 %0, 1, 0, p; }" \
		     : "=r"(d) : "h"(a), "h"(b)); D[i] = d; }
// setp over pairs: p as 2, q as 1
#define PX(name, ins) HEAD(name) unsigned d; unsigned a = (unsigned)A[i], \
	b = (unsigned)B[i]; asm volatile("{ .reg .pred p, q; .reg .u32 t; " ins \
	" p|q, %1, %2; selp.u32 %0, 2, 0, p; selp.u32 t, 1, 0, q; " \
	"or.b32 %0, %0, t; }" : "=r"(d) : "r"(a), "r"(b)); D[i] = d; }
// conversions: source as its type's bits
#define CF(name, TD, CD, ins) HEAD(name) TD d; float a = __uint_as_float((unsigned)A[i]); \
	asm volatile(ins " %0, %1;" : "=" CD(d) : "f"(a)); D[i] = (u64)d; }
#define CD(name, TD, CDD, ins) HEAD(name) TD d; double a = __longlong_as_double((long long)A[i]); \
	asm volatile(ins " %0, %1;" : "=" CDD(d) : "d"(a)); D[i] = (u64)d; }
#define CFH(name, ins) HEAD(name) float d; u16 a = (u16)A[i]; \
	asm volatile(ins " %0, %1;" : "=f"(d) : "h"(a)); D[i] = __float_as_uint(d); }
#define CDH(name, ins) HEAD(name) double d; u16 a = (u16)A[i]; \
	asm volatile(ins " %0, %1;" : "=d"(d) : "h"(a)); D[i] = (u64)__double_as_longlong(d); }
#define CF2(name, ins) HEAD(name) unsigned d; float a = __uint_as_float((unsigned)A[i]), \
	b = __uint_as_float((unsigned)B[i]); asm volatile(ins " %0, %1, %2;" \
	: "=r"(d) : "f"(a), "f"(b)); D[i] = d; }

H2(add_f16, "add.f16") H2(add_rn_f16, "add.rn.f16") H2(add_ftz_f16, "add.ftz.f16")
H2(add_sat_f16, "add.sat.f16") H2(sub_f16, "sub.f16")
H2(sub_rn_ftz_sat_f16, "sub.rn.ftz.sat.f16") H2(mul_f16, "mul.f16")
H2(mul_ftz_f16, "mul.ftz.f16") H2(mul_sat_f16, "mul.sat.f16")
H3(fma_rn_f16, "fma.rn.f16") H3(fma_rn_ftz_f16, "fma.rn.ftz.f16")
H3(fma_rn_sat_f16, "fma.rn.sat.f16") H3(fma_rn_relu_f16, "fma.rn.relu.f16")
H1(neg_f16, "neg.f16") H1(abs_f16, "abs.f16") H1(neg_ftz_f16, "neg.ftz.f16")
H1(abs_ftz_f16, "abs.ftz.f16") H2(min_f16, "min.f16") H2(max_f16, "max.f16")
H2(min_ftz_f16, "min.ftz.f16") H2(min_NaN_f16, "min.NaN.f16")
H2(max_NaN_f16, "max.NaN.f16") H1(ex2_approx_f16, "ex2.approx.f16")
H1(tanh_approx_f16, "tanh.approx.f16")
PH(setp_eq_f16, "setp.eq.f16") PH(setp_lt_f16, "setp.lt.f16")
PH(setp_gtu_f16, "setp.gtu.f16") PH(setp_nan_f16, "setp.nan.f16")
PH(setp_ne_ftz_f16, "setp.ne.ftz.f16")
HEAD(set_lt_u32_f16) unsigned d; u16 a = (u16)A[i], b = (u16)B[i];
	asm volatile("set.lt.u32.f16 %0, %1, %2;" : "=r"(d) : "h"(a), "h"(b)); D[i] = d; }
H2(set_ge_f16_f16, "set.ge.f16.f16")
X2(add_f16x2, "add.f16x2") X2(add_sat_f16x2, "add.sat.f16x2")
X2(sub_f16x2, "sub.f16x2") X2(mul_f16x2, "mul.f16x2")
X2(mul_ftz_f16x2, "mul.ftz.f16x2") X3(fma_rn_f16x2, "fma.rn.f16x2")
X3(fma_rn_relu_f16x2, "fma.rn.relu.f16x2") X3(fma_rn_sat_f16x2, "fma.rn.sat.f16x2")
X1(neg_f16x2, "neg.f16x2") X1(abs_f16x2, "abs.f16x2")
X2(min_f16x2, "min.f16x2") X2(max_NaN_f16x2, "max.NaN.f16x2")
X1(ex2_approx_f16x2, "ex2.approx.f16x2")
PX(setp_lt_f16x2, "setp.lt.f16x2") PX(setp_equ_f16x2, "setp.equ.f16x2")
X2(set_lt_f16x2_f16x2, "set.lt.f16x2.f16x2") X2(set_ne_u32_f16x2, "set.ne.u32.f16x2")
H2(add_rn_bf16, "add.rn.bf16") H2(sub_rn_bf16, "sub.rn.bf16")
H2(mul_rn_bf16, "mul.rn.bf16") H3(fma_rn_bf16, "fma.rn.bf16")
H3(fma_rn_relu_bf16, "fma.rn.relu.bf16") H1(neg_bf16, "neg.bf16")
H1(abs_bf16, "abs.bf16") H2(min_bf16, "min.bf16") H2(max_bf16, "max.bf16")
H2(min_NaN_bf16, "min.NaN.bf16") H1(ex2_approx_ftz_bf16, "ex2.approx.ftz.bf16")
PH(setp_lt_bf16, "setp.lt.bf16") PH(setp_neu_bf16, "setp.neu.bf16")
X2(add_rn_bf16x2, "add.rn.bf16x2") X2(mul_rn_bf16x2, "mul.rn.bf16x2")
X3(fma_rn_bf16x2, "fma.rn.bf16x2") X2(min_bf16x2, "min.bf16x2")
X2(max_NaN_bf16x2, "max.NaN.bf16x2") X1(neg_bf16x2, "neg.bf16x2")
PX(setp_gt_bf16x2, "setp.gt.bf16x2")
CF(cvt_rn_f16_f32, u16, "h", "cvt.rn.f16.f32") CF(cvt_rz_f16_f32, u16, "h", "cvt.rz.f16.f32")
CF(cvt_rm_f16_f32, u16, "h", "cvt.rm.f16.f32") CF(cvt_rp_f16_f32, u16, "h", "cvt.rp.f16.f32")
CF(cvt_rn_sat_f16_f32, u16, "h", "cvt.rn.sat.f16.f32")
CF(cvt_rn_ftz_f16_f32, u16, "h", "cvt.rn.ftz.f16.f32")
CFH(cvt_f32_f16, "cvt.f32.f16") CDH(cvt_f64_f16, "cvt.f64.f16")
CD(cvt_rn_f16_f64, u16, "h", "cvt.rn.f16.f64") CD(cvt_rz_f16_f64, u16, "h", "cvt.rz.f16.f64")
CD(cvt_rp_f16_f64, u16, "h", "cvt.rp.f16.f64")
K1(cvt_rni_s32_f16, unsigned, "r", u16, "h", "cvt.rni.s32.f16")
K1(cvt_rzi_s32_f16, unsigned, "r", u16, "h", "cvt.rzi.s32.f16")
K1(cvt_rmi_s32_f16, unsigned, "r", u16, "h", "cvt.rmi.s32.f16")
K1(cvt_rpi_s32_f16, unsigned, "r", u16, "h", "cvt.rpi.s32.f16")
K1(cvt_rzi_u32_f16, unsigned, "r", u16, "h", "cvt.rzi.u32.f16")
K1(cvt_rni_s16_f16, u16, "h", u16, "h", "cvt.rni.s16.f16")
K1(cvt_rzi_u16_f16, u16, "h", u16, "h", "cvt.rzi.u16.f16")
K1(cvt_rni_s64_f16, u64, "l", u16, "h", "cvt.rni.s64.f16")
H1(cvt_rni_f16_f16, "cvt.rni.f16.f16") H1(cvt_rzi_f16_f16, "cvt.rzi.f16.f16")
H1(cvt_rmi_f16_f16, "cvt.rmi.f16.f16") H1(cvt_rpi_f16_f16, "cvt.rpi.f16.f16")
K1(cvt_rn_f16_s32, u16, "h", unsigned, "r", "cvt.rn.f16.s32")
K1(cvt_rz_f16_s32, u16, "h", unsigned, "r", "cvt.rz.f16.s32")
K1(cvt_rm_f16_s32, u16, "h", unsigned, "r", "cvt.rm.f16.s32")
K1(cvt_rp_f16_s32, u16, "h", unsigned, "r", "cvt.rp.f16.s32")
K1(cvt_rn_f16_u32, u16, "h", unsigned, "r", "cvt.rn.f16.u32")
HEAD(cvt_rn_f16_s64) u16 d; long long a = (int)A[i];
	asm volatile("cvt.rn.f16.s64 %0, %1;" : "=h"(d) : "l"(a)); D[i] = d; }
K1(cvt_rn_f16_u16, u16, "h", u16, "h", "cvt.rn.f16.u16")
K1(cvt_rn_f16_s16, u16, "h", u16, "h", "cvt.rn.f16.s16")
CF2(cvt_rn_f16x2_f32, "cvt.rn.f16x2.f32") CF2(cvt_rz_f16x2_f32, "cvt.rz.f16x2.f32")
CF2(cvt_rn_relu_f16x2_f32, "cvt.rn.relu.f16x2.f32")
CF(cvt_rn_bf16_f32, u16, "h", "cvt.rn.bf16.f32") CF(cvt_rz_bf16_f32, u16, "h", "cvt.rz.bf16.f32")
CF(cvt_rn_relu_bf16_f32, u16, "h", "cvt.rn.relu.bf16.f32")
CFH(cvt_f32_bf16, "cvt.f32.bf16") CF2(cvt_rn_bf16x2_f32, "cvt.rn.bf16x2.f32")
CD(cvt_rn_bf16_f64, u16, "h", "cvt.rn.bf16.f64") CDH(cvt_f64_bf16, "cvt.f64.bf16")
K1(cvt_rn_bf16_s32, u16, "h", unsigned, "r", "cvt.rn.bf16.s32")
K1(cvt_rni_s32_bf16, unsigned, "r", u16, "h", "cvt.rni.s32.bf16")
H1(cvt_rn_f16_bf16, "cvt.rn.f16.bf16") H1(cvt_rn_bf16_f16, "cvt.rn.bf16.f16")
// atomics on the row's own word of D, which starts as a: the old value
// high, the one left in memory low
#define AH(name, ins) HEAD(name) u16 old; D[i] = A[i]; \
	asm volatile(ins " %0, [%1], %2;" : "=h"(old) : "l"(&D[i]), \
		     "h"((u16)B[i]) : "memory"); \
	D[i] = (u64)old << 16 | *(volatile u16 *)&D[i]; }
#define AX(name, ins) HEAD(name) unsigned old; D[i] = A[i]; \
	asm volatile(ins " %0, [%1], %2;" : "=r"(old) : "l"(&D[i]), \
		     "r"((unsigned)B[i]) : "memory"); \
	D[i] = (u64)old << 32 | *(volatile unsigned *)&D[i]; }
AH(atom_add_f16, "atom.add.noftz.f16") AX(atom_add_f16x2, "atom.global.add.noftz.f16x2")
AH(atom_add_bf16, "atom.global.add.noftz.bf16")
AX(atom_add_bf16x2, "atom.global.add.noftz.bf16x2")
HEAD(red_add_f16) D[i] = A[i];
	asm volatile("red.global.add.noftz.f16 [%0], %1;" : : "l"(&D[i]),
		     "h"((u16)B[i]) : "memory");
	D[i] = *(volatile u16 *)&D[i]; }
HEAD(atom_cas_b16) u16 old; D[i] = A[i];
	asm volatile("atom.global.cas.b16 %0, [%1], %2, %3;" : "=h"(old)
		     : "l"(&D[i]), "h"((u16)B[i]), "h"((u16)C[i]) : "memory");
	D[i] = (u64)old << 16 | *(volatile u16 *)&D[i]; }
// vector atomics (sm_90) on the row's own 64 bits of D, which start as a
// (low) and b (high) and take b's and a's elements: what is left in
// memory, or bad where the old values returned are not what was there
#define BAD 0xbadbadbadbadbad0ull
#define VEND(o) D[i] = (o) == m ? *(volatile u64 *)&D[i] : BAD; }
#define AVF(name, ins) HEAD(name) u64 m = A[i] | B[i] << 32; float o0, o1; \
	D[i] = m; asm volatile(ins " {%0, %1}, [%2], {%3, %4};" \
	: "=f"(o0), "=f"(o1) : "l"(&D[i]), "f"(__uint_as_float((unsigned)B[i])), \
	  "f"(__uint_as_float((unsigned)A[i])) : "memory"); \
	VEND(__float_as_uint(o0) | (u64)__float_as_uint(o1) << 32)
#define AV4(name, ins) HEAD(name) u64 m = A[i] | B[i] << 32; u16 o[4]; \
	D[i] = m; asm volatile(ins " {%0, %1, %2, %3}, [%4], {%5, %6, %7, %8};" \
	: "=h"(o[0]), "=h"(o[1]), "=h"(o[2]), "=h"(o[3]) : "l"(&D[i]), \
	  "h"((u16)B[i]), "h"((u16)(B[i] >> 16)), "h"((u16)A[i]), \
	  "h"((u16)(A[i] >> 16)) : "memory"); \
	VEND(o[0] | (u64)o[1] << 16 | (u64)o[2] << 32 | (u64)o[3] << 48)
#define AV2(name, ins) HEAD(name) u64 m = A[i] | B[i] << 32; unsigned o0, o1; \
	D[i] = m; asm volatile(ins " {%0, %1}, [%2], {%3, %4};" \
	: "=r"(o0), "=r"(o1) : "l"(&D[i]), "r"((unsigned)B[i]), \
	  "r"((unsigned)A[i]) : "memory"); VEND(o0 | (u64)o1 << 32)
AVF(atom_add_v2_f32, "atom.global.add.v2.f32")
HEAD(red_add_v2_f32) D[i] = A[i] | B[i] << 32;
	asm volatile("red.global.add.v2.f32 [%0], {%1, %2};" : : "l"(&D[i]),
		     "f"(__uint_as_float((unsigned)B[i])),
		     "f"(__uint_as_float((unsigned)A[i])) : "memory"); }
AV4(atom_add_v4_f16, "atom.global.add.noftz.v4.f16")
AV4(atom_min_v4_f16, "atom.global.min.noftz.v4.f16")
AV4(atom_max_v4_f16, "atom.global.max.noftz.v4.f16")
AV4(atom_add_v4_bf16, "atom.global.add.noftz.v4.bf16")
AV4(atom_min_v4_bf16, "atom.global.min.noftz.v4.bf16")
AV4(atom_max_v4_bf16, "atom.global.max.noftz.v4.bf16")
AV2(atom_add_v2_f16x2, "atom.global.add.noftz.v2.f16x2")
AV2(atom_min_v2_f16x2, "atom.global.min.noftz.v2.f16x2")
AV2(atom_max_v2_bf16x2, "atom.global.max.noftz.v2.bf16x2")
HEAD(red_min_v2_bf16x2) D[i] = A[i] | B[i] << 32;
	asm volatile("red.global.min.noftz.v2.bf16x2 [%0], {%1, %2};" : :
		     "l"(&D[i]), "r"((unsigned)B[i]), "r"((unsigned)A[i])
		     : "memory"); }
HEAD(mov_b32_pack) unsigned d; u16 a = (u16)A[i], b = (u16)B[i];
	asm volatile("mov.b32 %0, {%1, %2};" : "=r"(d) : "h"(a), "h"(b)); D[i] = d; }
HEAD(mov_b32_unpack_hi) u16 d; unsigned a = (unsigned)A[i];
	asm volatile("{ .reg .b16 l, h; mov.b32 {l, h}, %1; mov.b16 %0, h; }"
		     : "=h"(d) : "r"(a)); D[i] = d; }

typedef void (*kfn)(const u64 *, const u64 *, const u64 *, u64 *, int);
static const struct { const char *name; kfn fn; int gen; } cases[] = {
#define X(name, gen, approx) { #name, name, gen },
	HF_CASES(X)
#undef X
};

int main(void)
{
	u64 *a, *b, *c, *d;
	int max = 4096;

	if (cudaMallocManaged(&a, max * 8) || cudaMallocManaged(&b, max * 8) ||
	    cudaMallocManaged(&c, max * 8) || cudaMallocManaged(&d, max * 8)) {
		printf("f16.error: cudaMallocManaged\n");
		return 1;
	}
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		int n = hf_rows(cases[k].gen);
		for (int i = 0; i < n; i++) {
			uint64_t x, y, z;
			hf_row(cases[k].gen, i, &x, &y, &z);
			a[i] = x;
			b[i] = y;
			c[i] = z;
			d[i] = 0xcdcdcdcdcdcdcdcdull;
		}
		cases[k].fn<<<(n + 127) / 128, 128>>>(a, b, c, d, n);
		cudaError_t e = cudaDeviceSynchronize();
		if (e != cudaSuccess) {
			printf("%s error %s\n", cases[k].name, cudaGetErrorName(e));
			return 1;
		}
		printf("%s", cases[k].name);
		for (int i = 0; i < n; i++)
			printf(" %llx", d[i]);
		printf("\n");
	}
	return 0;
}
