// ptx_table.cu - the instruction table: every case of ptx_table.h, one
// kernel each running exactly one PTX instruction (inline asm) over the
// case's rows, on the real GPU. Prints "name d0 d1 ..." (hex) per case;
// tests/unit/test_exec_table.c runs the same kernels, from this file's PTX
// (ptx_table.ptx), through the engine and compares line by line.
// Build: nvcc -O2 -arch=sm_90 -o ptx_table ptx_table.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include "ptx_table.h"

typedef unsigned long long u64;
typedef long long s64;

template <class T> __device__ __forceinline__ T from(u64 v);
template <> __device__ __forceinline__ unsigned from(u64 v) { return (unsigned)v; }
template <> __device__ __forceinline__ int from(u64 v) { return (int)v; }
template <> __device__ __forceinline__ u64 from(u64 v) { return v; }
template <> __device__ __forceinline__ s64 from(u64 v) { return (s64)v; }
template <> __device__ __forceinline__ short from(u64 v) { return (short)v; }
template <> __device__ __forceinline__ float from(u64 v) { return __uint_as_float((unsigned)v); }
template <> __device__ __forceinline__ double from(u64 v) { return __longlong_as_double((s64)v); }
__device__ __forceinline__ u64 to(unsigned v) { return v; }
__device__ __forceinline__ u64 to(int v) { return (unsigned)v; }
__device__ __forceinline__ u64 to(u64 v) { return v; }
__device__ __forceinline__ u64 to(s64 v) { return (u64)v; }
__device__ __forceinline__ u64 to(float v) { return __float_as_uint(v); }
__device__ __forceinline__ u64 to(double v) { return (u64)__double_as_longlong(v); }

#define HEAD(name) extern "C" __global__ void name(const u64 *A, const u64 *B, \
	const u64 *C, u64 *D, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; \
	if (i >= n) return;
#define K1(name, TD, CD, TA, CA, INS) HEAD(name) TD d; TA a = from<TA>(A[i]); \
	asm volatile(INS " %0, %1;" : "=" CD(d) : CA(a)); D[i] = to(d); }
#define K2(name, TD, CD, TA, CA, TB, CB, INS) HEAD(name) TD d; \
	TA a = from<TA>(A[i]); TB b = from<TB>(B[i]); \
	asm volatile(INS " %0, %1, %2;" : "=" CD(d) : CA(a), CB(b)); D[i] = to(d); }
#define K3(name, TD, CD, TA, CA, TB, CB, TC, CC, INS) HEAD(name) TD d; \
	TA a = from<TA>(A[i]); TB b = from<TB>(B[i]); TC c = from<TC>(C[i]); \
	asm volatile(INS " %0, %1, %2, %3;" : "=" CD(d) : CA(a), CB(b), CC(c)); \
	D[i] = to(d); }
// any asm body over %0 (d, u32), %1 a, %2 b
#define KA(name, TA, CA, TB, CB, BODY) HEAD(name) unsigned d; \
	TA a = from<TA>(A[i]); TB b = from<TB>(B[i]); \
	asm volatile(BODY : "=r"(d) : CA(a), CB(b)); D[i] = to(d); }
#define KP2(name, T, C, INS) KA(name, T, C, T, C, \
	"{ .reg .pred pp; " INS " pp, %1, %2; selp.u32 %0, 1, 0, pp; }")
#define KT(name, INS) KA(name, float, "f", float, "f", \
	"{ .reg .pred pp; " INS " pp, %1; selp.u32 %0, 1, 0, pp; }")

#define I2(name, ins) K2(name, int, "r", int, "r", int, "r", ins)
#define U2(name, ins) K2(name, unsigned, "r", unsigned, "r", unsigned, "r", ins)
#define L2(name, ins) K2(name, u64, "l", u64, "l", u64, "l", ins)
#define F1(name, ins) K1(name, float, "f", float, "f", ins)
#define F2(name, ins) K2(name, float, "f", float, "f", float, "f", ins)
#define F3(name, ins) K3(name, float, "f", float, "f", float, "f", float, "f", ins)
#define D1(name, ins) K1(name, double, "d", double, "d", ins)
#define D2(name, ins) K2(name, double, "d", double, "d", double, "d", ins)

I2(add_s32, "add.s32") I2(add_sat_s32, "add.sat.s32") I2(sub_s32, "sub.s32")
I2(sub_sat_s32, "sub.sat.s32") I2(mul_lo_s32, "mul.lo.s32")
I2(mul_hi_s32, "mul.hi.s32") U2(mul_hi_u32, "mul.hi.u32")
K2(mul_wide_s32, s64, "l", int, "r", int, "r", "mul.wide.s32")
K2(mul_wide_u32, u64, "l", unsigned, "r", unsigned, "r", "mul.wide.u32")
K3(mad_lo_s32, int, "r", int, "r", int, "r", int, "r", "mad.lo.s32")
K3(mad_hi_u32, unsigned, "r", unsigned, "r", unsigned, "r", unsigned, "r", "mad.hi.u32")
K3(mad_wide_s32, s64, "l", int, "r", int, "r", s64, "l", "mad.wide.s32")
I2(div_s32, "div.s32") U2(div_u32, "div.u32") I2(rem_s32, "rem.s32")
U2(rem_u32, "rem.u32")
K1(abs_s32, int, "r", int, "r", "abs.s32") K1(neg_s32, int, "r", int, "r", "neg.s32")
I2(min_s32, "min.s32") U2(min_u32, "min.u32") I2(max_s32, "max.s32")
U2(max_u32, "max.u32") I2(mul24_lo_s32, "mul24.lo.s32")
K3(sad_u32, unsigned, "r", unsigned, "r", unsigned, "r", unsigned, "r", "sad.u32")
HEAD(add_cc_addc_u32) unsigned d, a = (unsigned)A[i], b = (unsigned)B[i], c = (unsigned)C[i];
	asm volatile("{ .reg .u32 t; add.cc.u32 t, %1, %2; addc.u32 %0, %3, 0; }"
		     : "=r"(d) : "r"(a), "r"(b), "r"(c)); D[i] = d; }
HEAD(sub_cc_subc_u32) unsigned d, a = (unsigned)A[i], b = (unsigned)B[i], c = (unsigned)C[i];
	asm volatile("{ .reg .u32 t; sub.cc.u32 t, %1, %2; subc.u32 %0, %3, 0; }"
		     : "=r"(d) : "r"(a), "r"(b), "r"(c)); D[i] = d; }
L2(add_s64, "add.s64") L2(mul_lo_s64, "mul.lo.s64") L2(mul_hi_s64, "mul.hi.s64")
L2(mul_hi_u64, "mul.hi.u64") L2(div_s64, "div.s64") L2(div_u64, "div.u64")
L2(rem_s64, "rem.s64") L2(min_s64, "min.s64") L2(max_u64, "max.u64")
K1(abs_s64, s64, "l", s64, "l", "abs.s64")
U2(and_b32, "and.b32") U2(or_b32, "or.b32") U2(xor_b32, "xor.b32")
U2(bmsk_clamp_b32, "bmsk.clamp.b32") U2(bmsk_wrap_b32, "bmsk.wrap.b32")
K1(not_b32, unsigned, "r", unsigned, "r", "not.b32")
K1(cnot_b32, unsigned, "r", unsigned, "r", "cnot.b32")
U2(shl_b32, "shl.b32") U2(shr_u32, "shr.u32") I2(shr_s32, "shr.s32")
K2(shl_b64, u64, "l", u64, "l", unsigned, "r", "shl.b64")
K2(shr_u64, u64, "l", u64, "l", unsigned, "r", "shr.u64")
K2(shr_s64, s64, "l", s64, "l", unsigned, "r", "shr.s64")
K3(bfe_u32, unsigned, "r", unsigned, "r", unsigned, "r", unsigned, "r", "bfe.u32")
K3(bfe_s32, int, "r", int, "r", unsigned, "r", unsigned, "r", "bfe.s32")
K3(bfe_u64, u64, "l", u64, "l", unsigned, "r", unsigned, "r", "bfe.u64")
K3(bfe_s64, s64, "l", s64, "l", unsigned, "r", unsigned, "r", "bfe.s64")
HEAD(bfi_b32) unsigned d, a = (unsigned)A[i], b = (unsigned)B[i], c = (unsigned)C[i];
	asm volatile("bfi.b32 %0, %1, %4, %2, %3;" : "=r"(d)
		     : "r"(a), "r"(b), "r"(c), "r"(0x5a5a5a5au)); D[i] = d; }
K1(brev_b32, unsigned, "r", unsigned, "r", "brev.b32")
K1(brev_b64, u64, "l", u64, "l", "brev.b64")
K1(clz_b32, unsigned, "r", unsigned, "r", "clz.b32")
K1(clz_b64, unsigned, "r", u64, "l", "clz.b64")
K1(popc_b32, unsigned, "r", unsigned, "r", "popc.b32")
K1(popc_b64, unsigned, "r", u64, "l", "popc.b64")
K3(prmt_b32, unsigned, "r", unsigned, "r", unsigned, "r", unsigned, "r", "prmt.b32")
K3(shf_l_wrap_b32, unsigned, "r", unsigned, "r", unsigned, "r", unsigned, "r", "shf.l.wrap.b32")
K3(shf_r_wrap_b32, unsigned, "r", unsigned, "r", unsigned, "r", unsigned, "r", "shf.r.wrap.b32")
K3(shf_l_clamp_b32, unsigned, "r", unsigned, "r", unsigned, "r", unsigned, "r", "shf.l.clamp.b32")
K3(shf_r_clamp_b32, unsigned, "r", unsigned, "r", unsigned, "r", unsigned, "r", "shf.r.clamp.b32")
K1(bfind_u32, unsigned, "r", unsigned, "r", "bfind.u32")
K1(bfind_s32, unsigned, "r", int, "r", "bfind.s32")
K1(bfind_shiftamt_u32, unsigned, "r", unsigned, "r", "bfind.shiftamt.u32")
K1(bfind_s64, unsigned, "r", s64, "l", "bfind.s64")
F2(add_rn_f32, "add.rn.f32") F2(add_rz_f32, "add.rz.f32") F2(add_rm_f32, "add.rm.f32")
F2(add_rp_f32, "add.rp.f32") F2(add_ftz_f32, "add.ftz.f32") F2(add_sat_f32, "add.sat.f32")
F2(sub_rn_f32, "sub.rn.f32") F2(mul_rn_f32, "mul.rn.f32") F2(mul_rz_f32, "mul.rz.f32")
F2(mul_ftz_f32, "mul.ftz.f32")
F3(fma_rn_f32, "fma.rn.f32") F3(fma_rz_f32, "fma.rz.f32") F3(fma_rm_f32, "fma.rm.f32")
F3(fma_rp_f32, "fma.rp.f32") F3(fma_rn_ftz_sat_f32, "fma.rn.ftz.sat.f32")
F3(mad_rn_f32, "mad.rn.f32")
F2(div_rn_f32, "div.rn.f32") F2(div_rz_f32, "div.rz.f32") F2(div_full_f32, "div.full.f32")
F2(div_approx_f32, "div.approx.f32")
F1(rcp_rn_f32, "rcp.rn.f32") F1(rcp_approx_ftz_f32, "rcp.approx.ftz.f32")
F1(sqrt_rn_f32, "sqrt.rn.f32") F1(sqrt_approx_f32, "sqrt.approx.f32")
F1(rsqrt_approx_f32, "rsqrt.approx.f32") F1(sin_approx_f32, "sin.approx.f32")
F1(cos_approx_f32, "cos.approx.f32") F1(lg2_approx_f32, "lg2.approx.f32")
F1(ex2_approx_f32, "ex2.approx.f32") F1(tanh_approx_f32, "tanh.approx.f32")
F2(min_f32, "min.f32") F2(max_f32, "max.f32") F2(min_ftz_f32, "min.ftz.f32")
F1(abs_f32, "abs.f32") F1(neg_f32, "neg.f32") F1(abs_ftz_f32, "abs.ftz.f32")
F2(copysign_f32, "copysign.f32")
KT(testp_finite_f32, "testp.finite.f32") KT(testp_infinite_f32, "testp.infinite.f32")
KT(testp_number_f32, "testp.number.f32") KT(testp_notanumber_f32, "testp.notanumber.f32")
KT(testp_normal_f32, "testp.normal.f32") KT(testp_subnormal_f32, "testp.subnormal.f32")
D2(add_rn_f64, "add.rn.f64") D2(add_rz_f64, "add.rz.f64") D2(add_rm_f64, "add.rm.f64")
D2(add_rp_f64, "add.rp.f64") D2(mul_rn_f64, "mul.rn.f64")
K3(fma_rn_f64, double, "d", double, "d", double, "d", double, "d", "fma.rn.f64")
D2(div_rn_f64, "div.rn.f64") D1(rcp_rn_f64, "rcp.rn.f64") D1(sqrt_rn_f64, "sqrt.rn.f64")
D2(min_f64, "min.f64") D2(max_f64, "max.f64") D1(abs_f64, "abs.f64") D1(neg_f64, "neg.f64")
KP2(setp_eq_f32, float, "f", "setp.eq.f32") KP2(setp_ne_f32, float, "f", "setp.ne.f32")
KP2(setp_lt_f32, float, "f", "setp.lt.f32") KP2(setp_ge_f32, float, "f", "setp.ge.f32")
KP2(setp_equ_f32, float, "f", "setp.equ.f32") KP2(setp_neu_f32, float, "f", "setp.neu.f32")
KP2(setp_ltu_f32, float, "f", "setp.ltu.f32") KP2(setp_num_f32, float, "f", "setp.num.f32")
KP2(setp_nan_f32, float, "f", "setp.nan.f32") KP2(setp_lt_s32, int, "r", "setp.lt.s32")
KP2(setp_lo_u32, unsigned, "r", "setp.lo.u32") KP2(setp_ge_s64, s64, "l", "setp.ge.s64")
KP2(setp_gt_f64, double, "d", "setp.gt.f64")
K2(set_lt_u32_f32, unsigned, "r", float, "f", float, "f", "set.lt.u32.f32")
K2(set_eq_f32_s32, float, "f", int, "r", int, "r", "set.eq.f32.s32")
HEAD(selp_b32) unsigned d, a = (unsigned)A[i], b = (unsigned)B[i], c = (unsigned)C[i];
	asm volatile("{ .reg .pred pp; setp.ne.u32 pp, %3, 0; selp.b32 %0, %1, %2, pp; }"
		     : "=r"(d) : "r"(a), "r"(b), "r"(c)); D[i] = d; }
K3(slct_s32_s32, int, "r", int, "r", int, "r", int, "r", "slct.s32.s32")
K3(slct_f32_f32, float, "f", float, "f", float, "f", float, "f", "slct.f32.f32")
K1(cvt_rni_s32_f32, int, "r", float, "f", "cvt.rni.s32.f32")
K1(cvt_rzi_s32_f32, int, "r", float, "f", "cvt.rzi.s32.f32")
K1(cvt_rmi_s32_f32, int, "r", float, "f", "cvt.rmi.s32.f32")
K1(cvt_rpi_s32_f32, int, "r", float, "f", "cvt.rpi.s32.f32")
K1(cvt_rzi_u32_f32, unsigned, "r", float, "f", "cvt.rzi.u32.f32")
K1(cvt_rni_s64_f32, s64, "l", float, "f", "cvt.rni.s64.f32")
K1(cvt_rzi_s64_f64, s64, "l", double, "d", "cvt.rzi.s64.f64")
K1(cvt_rzi_u64_f64, u64, "l", double, "d", "cvt.rzi.u64.f64")
K1(cvt_rni_s32_f64, int, "r", double, "d", "cvt.rni.s32.f64")
K1(cvt_rn_f32_s32, float, "f", int, "r", "cvt.rn.f32.s32")
K1(cvt_rz_f32_s32, float, "f", int, "r", "cvt.rz.f32.s32")
K1(cvt_rn_f32_u32, float, "f", unsigned, "r", "cvt.rn.f32.u32")
K1(cvt_rn_f32_u64, float, "f", u64, "l", "cvt.rn.f32.u64")
K1(cvt_rz_f32_s64, float, "f", s64, "l", "cvt.rz.f32.s64")
K1(cvt_rn_f64_s64, double, "d", s64, "l", "cvt.rn.f64.s64")
K1(cvt_rm_f64_u64, double, "d", u64, "l", "cvt.rm.f64.u64")
K1(cvt_rn_f32_f64, float, "f", double, "d", "cvt.rn.f32.f64")
K1(cvt_rz_f32_f64, float, "f", double, "d", "cvt.rz.f32.f64")
K1(cvt_rm_f32_f64, float, "f", double, "d", "cvt.rm.f32.f64")
K1(cvt_rp_f32_f64, float, "f", double, "d", "cvt.rp.f32.f64")
K1(cvt_f64_f32, double, "d", float, "f", "cvt.f64.f32")
K1(cvt_rni_f32_f32, float, "f", float, "f", "cvt.rni.f32.f32")
K1(cvt_rzi_f32_f32, float, "f", float, "f", "cvt.rzi.f32.f32")
K1(cvt_rmi_f64_f64, double, "d", double, "d", "cvt.rmi.f64.f64")
K1(cvt_sat_f32_f32, float, "f", float, "f", "cvt.sat.f32.f32")
K1(cvt_ftz_f32_f32, float, "f", float, "f", "cvt.ftz.f32.f32")
K1(cvt_s32_s8, int, "r", short, "h", "cvt.s32.s8")
K1(cvt_u32_u16, unsigned, "r", short, "h", "cvt.u32.u16")
K1(cvt_s64_s32, s64, "l", int, "r", "cvt.s64.s32")
K1(cvt_u64_u32, u64, "l", unsigned, "r", "cvt.u64.u32")
K1(cvt_u32_u64, unsigned, "r", u64, "l", "cvt.u32.u64")
K1(cvt_sat_s32_s64, int, "r", s64, "l", "cvt.sat.s32.s64")
K1(cvt_sat_u32_s32, unsigned, "r", int, "r", "cvt.sat.u32.s32")
K1(cvt_sat_u32_u64, unsigned, "r", u64, "l", "cvt.sat.u32.u64")
K1(cvt_sat_s32_u32, int, "r", unsigned, "r", "cvt.sat.s32.u32")

typedef void (*kfn)(const u64 *, const u64 *, const u64 *, u64 *, int);
static const struct { const char *name; kfn fn; int gen; } cases[] = {
#define X(name, gen, approx) { #name, name, gen },
	PT_CASES(X)
#undef X
};

int main(void)
{
	u64 *a, *b, *c, *d;
	int max = 4096;

	if (cudaMallocManaged(&a, max * 8) || cudaMallocManaged(&b, max * 8) ||
	    cudaMallocManaged(&c, max * 8) || cudaMallocManaged(&d, max * 8)) {
		printf("ptx_table.error: cudaMallocManaged\n");
		return 1;
	}
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		int n = pt_rows(cases[k].gen);
		for (int i = 0; i < n; i++) {
			uint64_t x, y, z;
			pt_row(cases[k].gen, i, &x, &y, &z);
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
