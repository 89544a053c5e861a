/*
 * ptx_table.h - the instruction table's cases and inputs, shared by the
 * probe that runs them on the GPU (ptx_table.cu) and the replay that runs
 * them through the engine (tests/unit/test_exec_table.c), so both compute
 * the same rows: edge values (zeros of both signs, NaNs, infinities,
 * subnormals, the ends of each integer range, shifts past the width,
 * INT_MIN / -1) in every combination a case takes.
 *
 * Each case is one kernel of ptx_table.cu, named as here, that runs one
 * instruction over rows (a, b, c) -> d, all as 64-bit patterns. Plain C,
 * no state.
 */
#ifndef PTX_TABLE_H
#define PTX_TABLE_H

#include <stdint.h>

/* Input generators: the kind of rows a case runs over. */
enum pt_gen {
	G_I32_1, G_I32_2, G_I32_3, G_SH32, G_BF32, G_I64_1, G_I64_2, G_SH64,
	G_F32_1, G_F32_2, G_F32_3, G_F64_1, G_F64_2, G_F64_3, G_PRMT,
	G_CVT_F32, G_CVT_F64, G_CVT_I32, G_CVT_I64,
	G_BMSK,
};

/* name, generator, approximate (compared to a relative 2^-20) */
#define PT_CASES(X) \
	X(add_s32, G_I32_2, 0) X(add_sat_s32, G_I32_2, 0) \
	X(sub_s32, G_I32_2, 0) X(sub_sat_s32, G_I32_2, 0) \
	X(mul_lo_s32, G_I32_2, 0) X(mul_hi_s32, G_I32_2, 0) \
	X(mul_hi_u32, G_I32_2, 0) X(mul_wide_s32, G_I32_2, 0) \
	X(mul_wide_u32, G_I32_2, 0) X(mad_lo_s32, G_I32_3, 0) \
	X(mad_hi_u32, G_I32_3, 0) X(mad_wide_s32, G_I32_3, 0) \
	X(div_s32, G_I32_2, 0) X(div_u32, G_I32_2, 0) \
	X(rem_s32, G_I32_2, 0) X(rem_u32, G_I32_2, 0) \
	X(abs_s32, G_I32_1, 0) X(neg_s32, G_I32_1, 0) \
	X(min_s32, G_I32_2, 0) X(min_u32, G_I32_2, 0) \
	X(max_s32, G_I32_2, 0) X(max_u32, G_I32_2, 0) \
	X(mul24_lo_s32, G_I32_2, 0) X(sad_u32, G_I32_3, 0) \
	X(add_cc_addc_u32, G_I32_3, 0) X(sub_cc_subc_u32, G_I32_3, 0) \
	X(add_s64, G_I64_2, 0) X(mul_lo_s64, G_I64_2, 0) \
	X(mul_hi_s64, G_I64_2, 0) X(mul_hi_u64, G_I64_2, 0) \
	X(div_s64, G_I64_2, 0) X(div_u64, G_I64_2, 0) \
	X(rem_s64, G_I64_2, 0) X(min_s64, G_I64_2, 0) \
	X(max_u64, G_I64_2, 0) X(abs_s64, G_I64_1, 0) \
	X(and_b32, G_I32_2, 0) X(or_b32, G_I32_2, 0) \
	X(xor_b32, G_I32_2, 0) X(not_b32, G_I32_1, 0) \
	X(cnot_b32, G_I32_1, 0) X(shl_b32, G_SH32, 0) \
	X(shr_u32, G_SH32, 0) X(shr_s32, G_SH32, 0) \
	X(shl_b64, G_SH64, 0) X(shr_u64, G_SH64, 0) X(shr_s64, G_SH64, 0) \
	X(bfe_u32, G_BF32, 0) X(bfe_s32, G_BF32, 0) \
	X(bfe_u64, G_BF32, 0) X(bfe_s64, G_BF32, 0) \
	X(bfi_b32, G_BF32, 0) X(brev_b32, G_I32_1, 0) \
	X(brev_b64, G_I64_1, 0) X(clz_b32, G_I32_1, 0) \
	X(clz_b64, G_I64_1, 0) X(popc_b32, G_I32_1, 0) \
	X(popc_b64, G_I64_1, 0) X(prmt_b32, G_PRMT, 0) \
	X(shf_l_wrap_b32, G_I32_3, 0) X(shf_r_wrap_b32, G_I32_3, 0) \
	X(shf_l_clamp_b32, G_I32_3, 0) X(shf_r_clamp_b32, G_I32_3, 0) \
	X(bfind_u32, G_I32_1, 0) X(bfind_s32, G_I32_1, 0) \
	X(bfind_shiftamt_u32, G_I32_1, 0) X(bfind_s64, G_I64_1, 0) \
	X(bmsk_clamp_b32, G_BMSK, 0) X(bmsk_wrap_b32, G_BMSK, 0) \
	X(add_rn_f32, G_F32_2, 0) X(add_rz_f32, G_F32_2, 0) \
	X(add_rm_f32, G_F32_2, 0) X(add_rp_f32, G_F32_2, 0) \
	X(add_ftz_f32, G_F32_2, 0) X(add_sat_f32, G_F32_2, 0) \
	X(sub_rn_f32, G_F32_2, 0) X(mul_rn_f32, G_F32_2, 0) \
	X(mul_rz_f32, G_F32_2, 0) X(mul_ftz_f32, G_F32_2, 0) \
	X(fma_rn_f32, G_F32_3, 0) X(fma_rz_f32, G_F32_3, 0) \
	X(fma_rm_f32, G_F32_3, 0) X(fma_rp_f32, G_F32_3, 0) \
	X(fma_rn_ftz_sat_f32, G_F32_3, 0) X(mad_rn_f32, G_F32_3, 0) \
	X(div_rn_f32, G_F32_2, 0) X(div_rz_f32, G_F32_2, 0) \
	X(div_full_f32, G_F32_2, 1) X(div_approx_f32, G_F32_2, 1) \
	X(rcp_rn_f32, G_F32_1, 0) X(rcp_approx_ftz_f32, G_F32_1, 1) \
	X(sqrt_rn_f32, G_F32_1, 0) X(sqrt_approx_f32, G_F32_1, 1) \
	X(rsqrt_approx_f32, G_F32_1, 1) X(sin_approx_f32, G_F32_1, 1) \
	X(cos_approx_f32, G_F32_1, 1) X(lg2_approx_f32, G_F32_1, 1) \
	X(ex2_approx_f32, G_F32_1, 1) X(tanh_approx_f32, G_F32_1, 1) \
	X(min_f32, G_F32_2, 0) X(max_f32, G_F32_2, 0) \
	X(min_ftz_f32, G_F32_2, 0) X(abs_f32, G_F32_1, 0) \
	X(neg_f32, G_F32_1, 0) X(abs_ftz_f32, G_F32_1, 0) \
	X(copysign_f32, G_F32_2, 0) \
	X(testp_finite_f32, G_F32_1, 0) X(testp_infinite_f32, G_F32_1, 0) \
	X(testp_number_f32, G_F32_1, 0) X(testp_notanumber_f32, G_F32_1, 0) \
	X(testp_normal_f32, G_F32_1, 0) X(testp_subnormal_f32, G_F32_1, 0) \
	X(add_rn_f64, G_F64_2, 0) X(add_rz_f64, G_F64_2, 0) \
	X(add_rm_f64, G_F64_2, 0) X(add_rp_f64, G_F64_2, 0) \
	X(mul_rn_f64, G_F64_2, 0) X(fma_rn_f64, G_F64_3, 0) \
	X(div_rn_f64, G_F64_2, 0) X(rcp_rn_f64, G_F64_1, 0) \
	X(sqrt_rn_f64, G_F64_1, 0) X(min_f64, G_F64_2, 0) \
	X(max_f64, G_F64_2, 0) X(abs_f64, G_F64_1, 0) X(neg_f64, G_F64_1, 0) \
	X(setp_eq_f32, G_F32_2, 0) X(setp_ne_f32, G_F32_2, 0) \
	X(setp_lt_f32, G_F32_2, 0) X(setp_ge_f32, G_F32_2, 0) \
	X(setp_equ_f32, G_F32_2, 0) X(setp_neu_f32, G_F32_2, 0) \
	X(setp_ltu_f32, G_F32_2, 0) X(setp_num_f32, G_F32_2, 0) \
	X(setp_nan_f32, G_F32_2, 0) X(setp_lt_s32, G_I32_2, 0) \
	X(setp_lo_u32, G_I32_2, 0) X(setp_ge_s64, G_I64_2, 0) \
	X(setp_gt_f64, G_F64_2, 0) X(set_lt_u32_f32, G_F32_2, 0) \
	X(set_eq_f32_s32, G_I32_2, 0) X(selp_b32, G_I32_3, 0) \
	X(slct_s32_s32, G_I32_3, 0) X(slct_f32_f32, G_F32_3, 0) \
	X(cvt_rni_s32_f32, G_CVT_F32, 0) X(cvt_rzi_s32_f32, G_CVT_F32, 0) \
	X(cvt_rmi_s32_f32, G_CVT_F32, 0) X(cvt_rpi_s32_f32, G_CVT_F32, 0) \
	X(cvt_rzi_u32_f32, G_CVT_F32, 0) X(cvt_rni_s64_f32, G_CVT_F32, 0) \
	X(cvt_rzi_s64_f64, G_CVT_F64, 0) X(cvt_rzi_u64_f64, G_CVT_F64, 0) \
	X(cvt_rni_s32_f64, G_CVT_F64, 0) X(cvt_rn_f32_s32, G_CVT_I32, 0) \
	X(cvt_rz_f32_s32, G_CVT_I32, 0) X(cvt_rn_f32_u32, G_CVT_I32, 0) \
	X(cvt_rn_f32_u64, G_CVT_I64, 0) X(cvt_rz_f32_s64, G_CVT_I64, 0) \
	X(cvt_rn_f64_s64, G_CVT_I64, 0) X(cvt_rm_f64_u64, G_CVT_I64, 0) \
	X(cvt_rn_f32_f64, G_CVT_F64, 0) X(cvt_rz_f32_f64, G_CVT_F64, 0) \
	X(cvt_rm_f32_f64, G_CVT_F64, 0) X(cvt_rp_f32_f64, G_CVT_F64, 0) \
	X(cvt_f64_f32, G_CVT_F32, 0) X(cvt_rni_f32_f32, G_CVT_F32, 0) \
	X(cvt_rzi_f32_f32, G_CVT_F32, 0) X(cvt_rmi_f64_f64, G_CVT_F64, 0) \
	X(cvt_sat_f32_f32, G_CVT_F32, 0) X(cvt_ftz_f32_f32, G_CVT_F32, 0) \
	X(cvt_s32_s8, G_CVT_I32, 0) X(cvt_u32_u16, G_CVT_I32, 0) \
	X(cvt_s64_s32, G_CVT_I32, 0) X(cvt_u64_u32, G_CVT_I32, 0) \
	X(cvt_u32_u64, G_CVT_I64, 0) X(cvt_sat_s32_s64, G_CVT_I64, 0) \
	X(cvt_sat_u32_s32, G_CVT_I32, 0) X(cvt_sat_u32_u64, G_CVT_I64, 0) \
	X(cvt_sat_s32_u32, G_CVT_I32, 0)

static const uint32_t pt_i32[] = {
	0, 1, 0xffffffffu, 7, 0xfffffff9u, 0x7fffffffu, 0x80000000u,
	0x80000001u, 31, 32, 0x12345678u, 0xdeadbeefu,
};
static const uint32_t pt_i32s[] = { 0, 1, 0xffffffffu, 0x7fffffffu,
				    0x80000000u, 33, 0xdeadbeefu };
static const uint32_t pt_shift[] = { 0, 1, 5, 31, 32, 33, 64, 255, 256,
				     0xffffffffu, 0x80000000u };
static const uint32_t pt_bf[] = { 0, 1, 4, 15, 31, 32, 33, 200 };
/* bmsk's positions and widths, past 31 and 32 each way */
static const uint32_t pt_bmsk[] = { 0, 1, 4, 15, 16, 28, 31, 32, 33, 63, 64,
	200, 0x80000000u, 0xffffffffu };
static const uint64_t pt_i64[] = {
	0, 1, ~0ull, 7, 0x7fffffffffffffffull, 0x8000000000000000ull,
	0x8000000000000001ull, 0xffffffffull, 0x100000000ull,
	0x123456789abcdef0ull, 0xfedcba9876543210ull,
};
static const uint32_t pt_f32[] = {
	0x00000000u, 0x80000000u, 0x3f800000u, 0xbfc00000u, 0x3dcccccdu,
	0x00800000u, 0x00000001u, 0x807fffffu, 0x7f7fffffu, 0x7f800000u,
	0xff800000u, 0x7fc00000u, 0x7f800001u, 0x40600000u, 0x501502f9u,
	0xc0200000u,
};
static const uint32_t pt_f32s[] = {
	0x00000000u, 0x3f800000u, 0xbfc00000u, 0x00000001u, 0x7f7fffffu,
	0x7f800000u, 0x7fc00000u, 0x34000000u,
};
static const uint32_t pt_cvt_f32[] = {
	0x00000000u, 0x80000000u, 0x3f000000u, 0x3fc00000u, 0x40200000u,
	0xbf000000u, 0xc0200000u, 0x3f7fffffu, 0x4effffffu, 0x4f000000u,
	0xcf000000u, 0xcf000001u, 0x4f800000u, 0x5f000000u, 0x5f800000u,
	0xdf000000u, 0x00000001u, 0x807fffffu, 0x7f800000u, 0xff800000u,
	0x7fc00000u, 0x7f800001u, 0x3f800001u, 0x4b7fffffu, 0x3f400000u,
};
static const uint64_t pt_f64[] = {
	0x0000000000000000ull, 0x8000000000000000ull, 0x3ff0000000000000ull,
	0xbff8000000000000ull, 0x3fb999999999999aull, 0x0010000000000000ull,
	0x0000000000000001ull, 0x800fffffffffffffull, 0x7fefffffffffffffull,
	0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
	0x7ff0000000000001ull, 0x400c000000000000ull,
};
static const uint64_t pt_f64s[] = {
	0x0000000000000000ull, 0x3ff0000000000000ull, 0xbff8000000000000ull,
	0x0000000000000001ull, 0x7ff0000000000000ull, 0x7ff8000000000000ull,
	0x3cb0000000000000ull,
};
static const uint64_t pt_cvt_f64[] = {
	0x0000000000000000ull, 0x8000000000000000ull, 0x3fe0000000000000ull,
	0x3ff8000000000000ull, 0x4004000000000000ull, 0xbfe0000000000000ull,
	0xc004000000000000ull, 0x41dfffffffc00000ull, 0x41e0000000000000ull,
	0xc1e0000000200000ull, 0x43e0000000000000ull, 0x43f0000000000000ull,
	0xc3e0000000000000ull, 0x0000000000000001ull, 0x7ff0000000000000ull,
	0xfff0000000000000ull, 0x7ff8000000000000ull, 0x3ff0000010000000ull,
	0x3ff0000008000000ull, 0x3ff0000018000000ull, 0x36a0000000000000ull,
	0x47efffffe0000000ull, 0x47efffffffffffffull, 0xc7f0000000000000ull,
	0x380fffffe0000000ull,
};
static const uint64_t pt_cvt_i32[] = {
	0, 1, 0xffffffffu, 0x7fffffffu, 0x80000000u, 0x00ffffffu,
	0x01000001u, 0x01000003u, 0xfeffffffu, 0x7fffff80u, 0x7fffffc0u,
	0xffffff80u, 0x12345678u, 0x0000ff80u, 0x80u, 0x7fu,
};
static const uint64_t pt_cvt_i64[] = {
	0, 1, ~0ull, 0x7fffffffffffffffull, 0x8000000000000000ull,
	0xffffffffull, 0x100000000ull, 0x7fffffffull, 0xffffffff80000000ull,
	0x0020000000000001ull, 0x0020000000000003ull, 0xffffffffffffff01ull,
	0x8000008000000001ull, 0x1000001000000000ull,
};

#define PT_N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* How many rows generator g makes. */
static inline int pt_rows(int g)
{
	switch (g) {
	case G_I32_1: return PT_N(pt_i32);
	case G_I32_2: return PT_N(pt_i32) * PT_N(pt_i32);
	case G_I32_3: return PT_N(pt_i32s) * PT_N(pt_i32s) * PT_N(pt_i32s);
	case G_SH32: return PT_N(pt_i32) * PT_N(pt_shift);
	case G_BMSK: return PT_N(pt_bmsk) * PT_N(pt_bmsk);
	case G_BF32: return PT_N(pt_i32s) * PT_N(pt_bf) * PT_N(pt_bf);
	case G_I64_1: return PT_N(pt_i64);
	case G_I64_2: return PT_N(pt_i64) * PT_N(pt_i64);
	case G_SH64: return PT_N(pt_i64) * PT_N(pt_shift);
	case G_F32_1: return PT_N(pt_f32);
	case G_F32_2: return PT_N(pt_f32) * PT_N(pt_f32);
	case G_F32_3: return PT_N(pt_f32s) * PT_N(pt_f32s) * PT_N(pt_f32s);
	case G_F64_1: return PT_N(pt_f64);
	case G_F64_2: return PT_N(pt_f64) * PT_N(pt_f64);
	case G_F64_3: return PT_N(pt_f64s) * PT_N(pt_f64s) * PT_N(pt_f64s);
	case G_PRMT: return 2 * 16;
	case G_CVT_F32: return PT_N(pt_cvt_f32);
	case G_CVT_F64: return PT_N(pt_cvt_f64);
	case G_CVT_I32: return PT_N(pt_cvt_i32);
	case G_CVT_I64: return PT_N(pt_cvt_i64);
	default: return 0;
	}
}

/* Row i of generator g. */
static inline void pt_row(int g, int i, uint64_t *a, uint64_t *b, uint64_t *c)
{
	int n;

	*a = *b = *c = 0;
	switch (g) {
	case G_I32_1: *a = pt_i32[i]; break;
	case G_I32_2: n = PT_N(pt_i32); *a = pt_i32[i / n]; *b = pt_i32[i % n]; break;
	case G_I32_3:
		n = PT_N(pt_i32s);
		*a = pt_i32s[i / (n * n)]; *b = pt_i32s[i / n % n]; *c = pt_i32s[i % n];
		break;
	case G_SH32:
		n = PT_N(pt_shift); *a = pt_i32[i / n]; *b = pt_shift[i % n]; break;
	case G_BMSK:
		n = PT_N(pt_bmsk); *a = pt_bmsk[i / n]; *b = pt_bmsk[i % n]; break;
	case G_BF32:
		n = PT_N(pt_bf);
		*a = pt_i32s[i / (n * n)]; *b = pt_bf[i / n % n]; *c = pt_bf[i % n];
		break;
	case G_I64_1: *a = pt_i64[i]; break;
	case G_I64_2: n = PT_N(pt_i64); *a = pt_i64[i / n]; *b = pt_i64[i % n]; break;
	case G_SH64:
		n = PT_N(pt_shift); *a = pt_i64[i / n]; *b = pt_shift[i % n]; break;
	case G_F32_1: *a = pt_f32[i]; break;
	case G_F32_2: n = PT_N(pt_f32); *a = pt_f32[i / n]; *b = pt_f32[i % n]; break;
	case G_F32_3:
		n = PT_N(pt_f32s);
		*a = pt_f32s[i / (n * n)]; *b = pt_f32s[i / n % n]; *c = pt_f32s[i % n];
		break;
	case G_F64_1: *a = pt_f64[i]; break;
	case G_F64_2: n = PT_N(pt_f64); *a = pt_f64[i / n]; *b = pt_f64[i % n]; break;
	case G_F64_3:
		n = PT_N(pt_f64s);
		*a = pt_f64s[i / (n * n)]; *b = pt_f64s[i / n % n]; *c = pt_f64s[i % n];
		break;
	case G_PRMT:
		*a = 0x80f17f02u; *b = 0x44332211u;
		*c = (uint64_t)(i % 16) * 0x1111u ^ (i >= 16 ? 0x9c3au : 0x7650u);
		break;
	case G_CVT_F32: *a = pt_cvt_f32[i]; break;
	case G_CVT_F64: *a = pt_cvt_f64[i]; break;
	case G_CVT_I32: *a = pt_cvt_i32[i]; break;
	case G_CVT_I64: *a = pt_cvt_i64[i]; break;
	}
}

#endif
