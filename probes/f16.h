/*
 * f16.h - the half-precision table's cases and inputs, shared by the probe
 * that runs them on the GPU (f16.cu) and the replay that runs them through
 * the engine (tests/unit/test_exec_f16.c): f16, f16x2, bf16 and bf16x2
 * arithmetic, comparisons, min/max, conversions to and from f32, f64 and
 * integers in each rounding mode PTX allows, the atomics (add.noftz of
 * each type, cas.b16, and sm_90's vector forms: add of f32 pairs, add,
 * min and max of four halves and of two pairs), over edge values (zeros of
 * both signs, subnormals, the largest finite, infinities, quiet and
 * signalling NaNs, rounding ties, values that overflow).
 *
 * Each case is one kernel of f16.cu, named as here, that runs one
 * instruction over rows (a, b, c) -> d, all as 64-bit patterns. Plain C,
 * no state.
 */
#ifndef F16_H
#define F16_H

#include <stdint.h>

/* Input generators: the kind of rows a case runs over. */
enum hf_gen {
	H_1, H_2, H_3,		/* f16 operands */
	HX_1, HX_2, HX_3,	/* f16x2 */
	B_1, B_2, B_3,		/* bf16 */
	BX_1, BX_2, BX_3,	/* bf16x2 */
	C_F32, C_F32_2, C_F64, C_INT, C_H, C_B,	/* conversion sources */
};

/* name, generator, approximate (compared within a relative 2^-9) */
#define HF_CASES(X) \
	X(add_f16, H_2, 0) X(add_rn_f16, H_2, 0) X(add_ftz_f16, H_2, 0) \
	X(add_sat_f16, H_2, 0) X(sub_f16, H_2, 0) X(sub_rn_ftz_sat_f16, H_2, 0) \
	X(mul_f16, H_2, 0) X(mul_ftz_f16, H_2, 0) X(mul_sat_f16, H_2, 0) \
	X(fma_rn_f16, H_3, 0) X(fma_rn_ftz_f16, H_3, 0) \
	X(fma_rn_sat_f16, H_3, 0) X(fma_rn_relu_f16, H_3, 0) \
	X(neg_f16, H_1, 0) X(abs_f16, H_1, 0) X(neg_ftz_f16, H_1, 0) \
	X(abs_ftz_f16, H_1, 0) X(min_f16, H_2, 0) X(max_f16, H_2, 0) \
	X(min_ftz_f16, H_2, 0) X(min_NaN_f16, H_2, 0) X(max_NaN_f16, H_2, 0) \
	X(ex2_approx_f16, H_1, 1) X(tanh_approx_f16, H_1, 1) \
	X(setp_eq_f16, H_2, 0) X(setp_lt_f16, H_2, 0) X(setp_gtu_f16, H_2, 0) \
	X(setp_nan_f16, H_2, 0) X(setp_ne_ftz_f16, H_2, 0) \
	X(set_lt_u32_f16, H_2, 0) X(set_ge_f16_f16, H_2, 0) \
	X(add_f16x2, HX_2, 0) X(add_sat_f16x2, HX_2, 0) X(sub_f16x2, HX_2, 0) \
	X(mul_f16x2, HX_2, 0) X(mul_ftz_f16x2, HX_2, 0) \
	X(fma_rn_f16x2, HX_3, 0) X(fma_rn_relu_f16x2, HX_3, 0) \
	X(fma_rn_sat_f16x2, HX_3, 0) X(neg_f16x2, HX_1, 0) X(abs_f16x2, HX_1, 0) \
	X(min_f16x2, HX_2, 0) X(max_NaN_f16x2, HX_2, 0) \
	X(ex2_approx_f16x2, HX_1, 1) \
	X(setp_lt_f16x2, HX_2, 0) X(setp_equ_f16x2, HX_2, 0) \
	X(set_lt_f16x2_f16x2, HX_2, 0) X(set_ne_u32_f16x2, HX_2, 0) \
	X(add_rn_bf16, B_2, 0) X(sub_rn_bf16, B_2, 0) X(mul_rn_bf16, B_2, 0) \
	X(fma_rn_bf16, B_3, 0) X(fma_rn_relu_bf16, B_3, 0) X(neg_bf16, B_1, 0) \
	X(abs_bf16, B_1, 0) X(min_bf16, B_2, 0) X(max_bf16, B_2, 0) \
	X(min_NaN_bf16, B_2, 0) X(ex2_approx_ftz_bf16, B_1, 1) \
	X(setp_lt_bf16, B_2, 0) X(setp_neu_bf16, B_2, 0) \
	X(add_rn_bf16x2, BX_2, 0) X(mul_rn_bf16x2, BX_2, 0) \
	X(fma_rn_bf16x2, BX_3, 0) X(min_bf16x2, BX_2, 0) \
	X(max_NaN_bf16x2, BX_2, 0) X(neg_bf16x2, BX_1, 0) \
	X(setp_gt_bf16x2, BX_2, 0) \
	X(cvt_rn_f16_f32, C_F32, 0) X(cvt_rz_f16_f32, C_F32, 0) \
	X(cvt_rm_f16_f32, C_F32, 0) X(cvt_rp_f16_f32, C_F32, 0) \
	X(cvt_rn_sat_f16_f32, C_F32, 0) X(cvt_rn_ftz_f16_f32, C_F32, 0) \
	X(cvt_f32_f16, C_H, 0) X(cvt_f64_f16, C_H, 0) \
	X(cvt_rn_f16_f64, C_F64, 0) X(cvt_rz_f16_f64, C_F64, 0) \
	X(cvt_rp_f16_f64, C_F64, 0) \
	X(cvt_rni_s32_f16, C_H, 0) X(cvt_rzi_s32_f16, C_H, 0) \
	X(cvt_rmi_s32_f16, C_H, 0) X(cvt_rpi_s32_f16, C_H, 0) \
	X(cvt_rzi_u32_f16, C_H, 0) X(cvt_rni_s16_f16, C_H, 0) \
	X(cvt_rzi_u16_f16, C_H, 0) X(cvt_rni_s64_f16, C_H, 0) \
	X(cvt_rni_f16_f16, C_H, 0) X(cvt_rzi_f16_f16, C_H, 0) \
	X(cvt_rmi_f16_f16, C_H, 0) X(cvt_rpi_f16_f16, C_H, 0) \
	X(cvt_rn_f16_s32, C_INT, 0) X(cvt_rz_f16_s32, C_INT, 0) \
	X(cvt_rm_f16_s32, C_INT, 0) X(cvt_rp_f16_s32, C_INT, 0) \
	X(cvt_rn_f16_u32, C_INT, 0) X(cvt_rn_f16_s64, C_INT, 0) \
	X(cvt_rn_f16_u16, C_INT, 0) X(cvt_rn_f16_s16, C_INT, 0) \
	X(cvt_rn_f16x2_f32, C_F32_2, 0) X(cvt_rz_f16x2_f32, C_F32_2, 0) \
	X(cvt_rn_relu_f16x2_f32, C_F32_2, 0) \
	X(cvt_rn_bf16_f32, C_F32, 0) X(cvt_rz_bf16_f32, C_F32, 0) \
	X(cvt_rn_relu_bf16_f32, C_F32, 0) X(cvt_f32_bf16, C_B, 0) \
	X(cvt_rn_bf16x2_f32, C_F32_2, 0) X(cvt_rn_bf16_f64, C_F64, 0) \
	X(cvt_f64_bf16, C_B, 0) X(cvt_rn_bf16_s32, C_INT, 0) \
	X(cvt_rni_s32_bf16, C_B, 0) X(cvt_rn_f16_bf16, C_B, 0) \
	X(cvt_rn_bf16_f16, C_H, 0) \
	X(mov_b32_pack, H_2, 0) X(mov_b32_unpack_hi, HX_1, 0) \
	X(atom_add_f16, H_2, 0) X(red_add_f16, H_2, 0) \
	X(atom_add_f16x2, HX_2, 0) X(atom_add_bf16, B_2, 0) \
	X(atom_add_bf16x2, BX_2, 0) X(atom_cas_b16, H_3, 0) \
	X(atom_add_v2_f32, C_F32_2, 0) X(red_add_v2_f32, C_F32_2, 0) \
	X(atom_add_v4_f16, HX_2, 0) X(atom_min_v4_f16, HX_2, 0) \
	X(atom_max_v4_f16, HX_2, 0) X(atom_add_v4_bf16, BX_2, 0) \
	X(atom_min_v4_bf16, BX_2, 0) X(atom_max_v4_bf16, BX_2, 0) \
	X(atom_add_v2_f16x2, HX_2, 0) X(atom_min_v2_f16x2, HX_2, 0) \
	X(atom_max_v2_bf16x2, BX_2, 0) X(red_min_v2_bf16x2, BX_2, 0)

static const uint16_t hf_h[] = {
	0x0000, 0x8000, 0x3c00, 0x3c01, 0xbe00, 0x0001, 0x83ff, 0x0400,
	0x7bff, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x1000, 0x4248, 0xc900,
};
static const uint16_t hf_h3[] = {
	0x0000, 0x8000, 0x3c00, 0xbc01, 0x0001, 0x7bff, 0xfc00, 0x7e00, 0x1000,
};
static const uint16_t hf_b[] = {
	0x0000, 0x8000, 0x3f80, 0x3f81, 0xbfc0, 0x0001, 0x807f, 0x0080,
	0x7f7f, 0x7f80, 0xff80, 0x7fc0, 0x7f81, 0x3b80, 0x4049, 0xc120,
};
static const uint16_t hf_b3[] = {
	0x0000, 0x8000, 0x3f80, 0xbf81, 0x0001, 0x7f7f, 0xff80, 0x7fc0, 0x3b80,
};
static const uint32_t hf_cvt_f32[] = {
	0x00000000u, 0x80000000u, 0x3f800000u, 0x3f801000u, 0x3f803000u,
	0x3f801001u, 0x477fe000u, 0x477ff000u, 0x477fefffu, 0xc77ff000u,
	0x33800000u, 0x33000000u, 0x33400000u, 0x387fc000u, 0x00000001u,
	0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7fa12345u, 0xffc12345u,
	0x3f808000u, 0x3f818000u, 0x3f808001u, 0x7f7fffffu, 0xbf400000u,
	0x40490fdbu, 0x00800000u, 0x00400000u, 0x4b800001u, 0xc0200000u,
};
static const uint64_t hf_cvt_f64[] = {
	0x0000000000000000ull, 0x8000000000000000ull, 0x3ff0000000000000ull,
	0x3ff0020000000000ull, 0x3ff0020000001000ull, 0x3ff0060000000000ull,
	0x40effc0000000000ull, 0x40effe0000000000ull, 0x3e60000000000000ull,
	0x3e60000000000001ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
	0x7ff8000000000000ull, 0x7ff0000000000001ull, 0x7e37e43c8800759cull,
	0x3ff0100000000000ull, 0x3ff0100000001000ull, 0x01a56e1fc2f8f359ull,
	0xbfe8000000000000ull,
};
static const uint32_t hf_cvt_int[] = {
	0, 1, 0xffffffffu, 2049, 2051, 0xfffff7ffu, 65504, 65519, 65520,
	65535, 0x7fffffffu, 0x80000000u, 257, 259, 12345, 0x00ffffffu,
	0x8001u, 0xfff0u,
};
static const uint16_t hf_cvt_h[] = {
	0x0000, 0x8000, 0x3800, 0x3e00, 0x4100, 0x4300, 0xb800, 0xc100,
	0xc300, 0x3c00, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x0001,
	0x5a00, 0xf800, 0x7800, 0x3bff, 0x83ff, 0x7d55,
};
static const uint16_t hf_cvt_b[] = {
	0x0000, 0x8000, 0x3f00, 0x3fc0, 0x4020, 0x4060, 0xbf00, 0xc020,
	0x3f80, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0x0001, 0x4f00,
	0xcf00, 0x4f80, 0x5f00, 0x477f, 0x3380, 0x7f81, 0x0080, 0x3f81,
};

#define HF_N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* How many rows generator g makes. */
static inline int hf_rows(int g)
{
	switch (g) {
	case H_1: case HX_1: return HF_N(hf_h);
	case H_2: case HX_2: return HF_N(hf_h) * HF_N(hf_h);
	case H_3: case HX_3: return HF_N(hf_h3) * HF_N(hf_h3) * HF_N(hf_h3);
	case B_1: case BX_1: return HF_N(hf_b);
	case B_2: case BX_2: return HF_N(hf_b) * HF_N(hf_b);
	case B_3: case BX_3: return HF_N(hf_b3) * HF_N(hf_b3) * HF_N(hf_b3);
	case C_F32: return HF_N(hf_cvt_f32);
	case C_F32_2: return HF_N(hf_cvt_f32) * 4;
	case C_F64: return HF_N(hf_cvt_f64);
	case C_INT: return HF_N(hf_cvt_int);
	case C_H: return HF_N(hf_cvt_h);
	case C_B: return HF_N(hf_cvt_b);
	default: return 0;
	}
}

/* Two halves of one table in a 32-bit pair: entry i high, a second entry
 * (i walked with another stride) low, so both halves see every value. */
static inline uint64_t hf_pair(const uint16_t *t, int n, int i, int k)
{
	return (uint64_t)t[i] << 16 | t[(i * k + 3) % n];
}

/* Row i of generator g. */
static inline void hf_row(int g, int i, uint64_t *a, uint64_t *b, uint64_t *c)
{
	int n;

	*a = *b = *c = 0;
	switch (g) {
	case H_1: *a = hf_h[i]; break;
	case H_2: n = HF_N(hf_h); *a = hf_h[i / n]; *b = hf_h[i % n]; break;
	case H_3:
		n = HF_N(hf_h3);
		*a = hf_h3[i / (n * n)]; *b = hf_h3[i / n % n]; *c = hf_h3[i % n];
		break;
	case HX_1: *a = hf_pair(hf_h, HF_N(hf_h), i, 7); break;
	case HX_2:
		n = HF_N(hf_h);
		*a = hf_pair(hf_h, n, i / n, 7); *b = hf_pair(hf_h, n, i % n, 5);
		break;
	case HX_3:
		n = HF_N(hf_h3);
		*a = hf_pair(hf_h3, n, i / (n * n), 7);
		*b = hf_pair(hf_h3, n, i / n % n, 5);
		*c = hf_pair(hf_h3, n, i % n, 4);
		break;
	case B_1: *a = hf_b[i]; break;
	case B_2: n = HF_N(hf_b); *a = hf_b[i / n]; *b = hf_b[i % n]; break;
	case B_3:
		n = HF_N(hf_b3);
		*a = hf_b3[i / (n * n)]; *b = hf_b3[i / n % n]; *c = hf_b3[i % n];
		break;
	case BX_1: *a = hf_pair(hf_b, HF_N(hf_b), i, 7); break;
	case BX_2:
		n = HF_N(hf_b);
		*a = hf_pair(hf_b, n, i / n, 7); *b = hf_pair(hf_b, n, i % n, 5);
		break;
	case BX_3:
		n = HF_N(hf_b3);
		*a = hf_pair(hf_b3, n, i / (n * n), 7);
		*b = hf_pair(hf_b3, n, i / n % n, 5);
		*c = hf_pair(hf_b3, n, i % n, 4);
		break;
	case C_F32: *a = hf_cvt_f32[i]; break;
	case C_F32_2:
		n = HF_N(hf_cvt_f32);
		*a = hf_cvt_f32[i / 4]; *b = hf_cvt_f32[(i * 7 + 1) % n];
		break;
	case C_F64: *a = hf_cvt_f64[i]; break;
	case C_INT: *a = hf_cvt_int[i]; break;
	case C_H: *a = hf_cvt_h[i]; break;
	case C_B: *a = hf_cvt_b[i]; break;
	}
}

#endif
