/*
 * half.c - f16 and bf16 arithmetic and conversions, one lane's value at a
 * time, as the GPU computes them (probes/f16.cu ran every case on an H200;
 * test_exec_f16 replays them bit for bit).
 *
 * Every result is computed exactly, or rounded to odd, in a double and
 * then rounded once into the half format by hf_round in the mode asked:
 * a double holds every sum and product of two f16 values and every product
 * of two bf16 values exactly, and where it cannot (a bf16 sum, an fma) the
 * round-to-odd sum keeps enough bits that the second rounding is as good
 * as one (a double has 53 bits, a half format at most 11 + 2). NaN results
 * are the canonical 0x7fff, as the device writes them; .sat clamps to
 * [0, 1] with NaN to 0, .relu clamps below at 0, .ftz reads and writes
 * subnormals as zeros of their sign.
 *
 * Locking: none; pure functions of their arguments.
 */
#include "exec/half.h"

#include <math.h>
#include <string.h>

/* The canonical NaN of both formats, as arithmetic writes it. */
#define HQNAN 0x7fffu
/* A NaN from an f64 source: the device keeps the quiet bit alone. */
#define HQNAN_F64 0x7e00u
#define BQNAN_F64 0x7fc0u

struct hfmt {
	int ebits, mbits;
};

static struct hfmt fmt_of(enum ptype t)
{
	if (t == T_BF16 || t == T_BF16X2)
		return (struct hfmt){ 8, 7 };
	return (struct hfmt){ 5, 10 };
}

static enum ptype scalar_of(enum ptype t)
{
	return t == T_F16X2 ? T_F16 : t == T_BF16X2 ? T_BF16 : t;
}

static bool subnormal(uint32_t h, struct hfmt f)
{
	return !(h >> f.mbits & ((1u << f.ebits) - 1)) && (h & ((1u << f.mbits) - 1));
}

double hf_decode(uint32_t h, enum ptype t, bool ftz)
{
	struct hfmt f = fmt_of(t);
	uint32_t e = h >> f.mbits & ((1u << f.ebits) - 1);
	uint32_t m = h & ((1u << f.mbits) - 1);
	int bias = (1 << (f.ebits - 1)) - 1;
	double v;

	if (e == (1u << f.ebits) - 1)
		v = m ? NAN : INFINITY;
	else if (e == 0)
		v = ftz ? 0.0 : ldexp(m, 1 - bias - f.mbits);
	else
		v = ldexp(m | 1u << f.mbits, (int)e - bias - f.mbits);
	return (h & 0x8000) ? -v : v;
}

/* x rounded into format f in mode rnd; x is exact or rounded to odd. */
static uint32_t hf_round(double x, struct hfmt f, int rnd, bool ftz)
{
	uint32_t sign = signbit(x) ? 0x8000u : 0;
	int bias = (1 << (f.ebits - 1)) - 1, e;
	uint32_t inf = ((1u << f.ebits) - 1) << f.mbits, one = 1u << f.mbits;
	double a = fabs(x), n, fl, fr;
	uint64_t nn;
	bool up;

	if (isnan(x))
		return HQNAN;
	if (isinf(x))
		return sign | inf;
	if (a == 0)
		return sign;
	frexp(a, &e);
	e -= 1;                         /* a in [2^e, 2^(e+1)) */
	if (e < 1 - bias)
		e = 1 - bias;           /* subnormal: the least exponent's step */
	if (e > bias)
		goto overflow;
	n = ldexp(a, f.mbits - e);      /* exact: a power of two's scaling */
	fl = floor(n);
	fr = n - fl;
	switch (rnd) {
	case R_RZ: up = false; break;
	case R_RM: up = sign && fr > 0; break;
	case R_RP: up = !sign && fr > 0; break;
	default: up = fr > 0.5 || (fr == 0.5 && fmod(fl, 2.0) != 0); break;
	}
	nn = (uint64_t)fl + up;
	if (nn < one)                   /* subnormal (e is the least) */
		return ftz ? sign : sign | (uint32_t)nn;
	if (nn >= 2ull * one) {         /* rounded up into the next binade */
		nn >>= 1;
		e++;
	}
	if (e > bias)
		goto overflow;
	return sign | (uint32_t)(e + bias) << f.mbits | ((uint32_t)nn - one);
overflow:
	if (rnd == R_RZ || (rnd == R_RM && !sign) || (rnd == R_RP && sign))
		return sign | (inf - 1);
	return sign | inf;
}

uint32_t hf_encode(double x, enum ptype t, int rnd)
{
	return hf_round(x, fmt_of(t), rnd, false);
}

/* p + c rounded to odd: the truncated sum with its last bit set where
 * bits were lost, so one more rounding to fewer bits is exact-once. */
static double odd_sum(double p, double c)
{
	double s = p + c, bb, err;
	uint64_t u;

	if (!isfinite(s))
		return s;
	bb = s - p;
	err = (p - (s - bb)) + (c - bb);
	if (err == 0)
		return s;
	memcpy(&u, &s, 8);
	if ((err > 0) != (s > 0))
		u--;                    /* the exact sum lies below |s| */
	u |= 1;
	memcpy(&s, &u, 8);
	return s;
}

static uint32_t minmax(const struct insn *in, struct hfmt f, uint32_t a,
		       uint32_t b, double x, double y)
{
	bool max = in->op == OP_MAX;

	if (in->flags & F_FTZ) {
		if (subnormal(a, f)) a &= 0x8000u;
		if (subnormal(b, f)) b &= 0x8000u;
	}
	if ((isnan(x) && isnan(y)) || ((in->flags & F_NAN) && (isnan(x) || isnan(y))))
		return HQNAN;
	if (isnan(x))
		return b;
	if (isnan(y))
		return a;
	if (x == y)                     /* -0 is below +0 */
		return max ? ((a & 0x8000u) ? b : a) : ((a & 0x8000u) ? a : b);
	return (x < y) != max ? a : b;
}

/* One half's arithmetic. */
static uint32_t arith1(const struct insn *in, enum ptype t, uint32_t a,
		       uint32_t b, uint32_t c)
{
	struct hfmt f = fmt_of(t);
	bool ftz = in->flags & F_FTZ;
	double x = hf_decode(a, t, ftz), y = hf_decode(b, t, ftz),
	       z = hf_decode(c, t, ftz), r;

	switch (in->op) {
	case OP_NEG: case OP_ABS:
		if (isnan(x))
			return HQNAN;
		if (ftz && subnormal(a, f))
			a &= 0x8000u;
		return in->op == OP_NEG ? a ^ 0x8000u : a & 0x7fffu;
	case OP_MIN: case OP_MAX:
		return minmax(in, f, a, b, x, y);
	case OP_ADD: r = odd_sum(x, y); break;
	case OP_SUB: r = odd_sum(x, -y); break;
	case OP_MUL: r = x * y; break;
	case OP_FMA: case OP_MAD: r = odd_sum(x * y, z); break;
	case OP_EX2: r = exp2(x); break;
	case OP_TANH: r = tanh(x); break;
	default: return HQNAN;
	}
	if (isnan(r))
		return (in->flags & F_SAT) ? 0 : HQNAN;
	if (in->flags & F_SAT)
		r = r > 1 ? 1 : r > 0 ? r : 0;
	if ((in->flags & F_RELU) && (r < 0 || signbit(r)))
		r = 0;                  /* -0 too */
	return hf_round(r, f, R_RN, ftz);
}

uint64_t hf_arith(const struct insn *in, uint64_t a, uint64_t b, uint64_t c)
{
	enum ptype t = in->type, s = scalar_of(t);
	uint32_t lo = arith1(in, s, a & 0xffff, b & 0xffff, c & 0xffff);

	if (t == s)
		return lo;
	return (uint64_t)arith1(in, s, a >> 16 & 0xffff, b >> 16 & 0xffff,
				c >> 16 & 0xffff) << 16 | lo;
}

double ex_round_int(double x, int rnd)
{
	switch (rnd) {
	case R_RZ: return trunc(x);
	case R_RM: return floor(x);
	case R_RP: return ceil(x);
	default: return nearbyint(x);
	}
}

/* One value of cvt's source type as a double, exactly where it can be. */
static double source_value(const struct insn *in, uint64_t a, bool *f64nan)
{
	enum ptype s = in->type2;
	unsigned bits = ptype_bits(s);
	float fv;
	double d;

	*f64nan = false;
	switch (s) {
	case T_F32: {
		uint32_t u = (uint32_t)a;
		if ((in->flags & F_FTZ) && !(u & 0x7f800000u))
			u &= 0x80000000u;
		memcpy(&fv, &u, 4);
		return fv;
	}
	case T_F64:
		memcpy(&d, &a, 8);
		*f64nan = isnan(d);
		return d;
	case T_F16: case T_BF16:
		return hf_decode((uint32_t)a & 0xffff, s, false);
	default:
		break;
	}
	a &= bits >= 64 ? ~0ull : (1ull << bits) - 1;
	if (ptype_signed(s) && bits < 64 && (a >> (bits - 1) & 1))
		return (double)(int64_t)(a | ~((1ull << bits) - 1));
	return ptype_signed(s) ? (double)(int64_t)a : (double)a;
}

/* cvt of one value into half format d. */
static uint32_t to_half(const struct insn *in, enum ptype d, uint64_t a)
{
	struct hfmt f = fmt_of(d);
	bool f64nan;
	double x = source_value(in, a, &f64nan);
	int rnd = in->rnd ? in->rnd : R_RN;

	if (isnan(x) && (in->flags & F_SAT))
		return 0;
	if (isnan(x))
		return !f64nan ? HQNAN : d == T_F16 ? HQNAN_F64 : BQNAN_F64;
	if (in->flags & F_INT_RND) {
		x = ex_round_int(x, rnd);
		rnd = R_RN;             /* an integer in range is exact */
	}
	if ((in->flags & F_RELU) && (x < 0 || signbit(x)))
		x = 0;
	if (in->flags & F_SAT)
		x = x > 1 ? 1 : x > 0 ? x : 0;
	return hf_round(x, f, rnd, false);
}

uint64_t hf_cvt(const struct insn *in, uint64_t a, uint64_t b)
{
	enum ptype d = in->type, s = in->type2;

	if (!ptype_half(d)) {           /* widening: exact */
		double x = hf_decode((uint32_t)a & 0xffff, s, false);
		float fv = (float)x;
		uint32_t u;
		uint64_t v;

		if (d == T_F32 && s == T_BF16)
			return (a & 0xffff) << 16;
		if (d == T_F32) {
			if (isnan(x))
				return 0x7fffffffu;
			memcpy(&u, &fv, 4);
			return u;
		}
		if (isnan(x))           /* quieted, the payload kept */
			return (a & 0x8000) << 48 | 0x7ff8000000000000ull |
			       (uint64_t)(a & ((1u << fmt_of(s).mbits) - 1))
				       << (52 - fmt_of(s).mbits);
		memcpy(&v, &x, 8);
		return v;
	}
	if (d == T_F16X2 || d == T_BF16X2)
		return (uint64_t)to_half(in, scalar_of(d), a) << 16 |
		       to_half(in, scalar_of(d), b);
	return to_half(in, d, a);
}
