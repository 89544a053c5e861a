/*
 * wmma.c - warp matrix fragments and their multiply-add: where a tile's
 * elements lie in a warp's registers, and D = A B + C over them
 * (wmma.h). PTX leaves a fragment's layout to the implementation (only a
 * fragment's register count is fixed): each lane here holds a run of the
 * tile's elements in row-major order, so that load, store, mma and a
 * program's element-wise work on a fragment all agree.
 *
 * Locking: none; pure functions.
 */
#include "exec/wmma.h"
#include "exec/half.h"
#include "exec/ptx.h"

#include <math.h>
#include <string.h>

static const struct { unsigned m, n, k; } shapes[] = {
	[WS_M16N16K16] = { 16, 16, 16 }, [WS_M8N32K16] = { 8, 32, 16 },
	[WS_M32N8K16] = { 32, 8, 16 }, [WS_M16N16K8] = { 16, 16, 8 },
	[WS_M8N8K4] = { 8, 8, 4 }, [WS_M16N8K16] = { 16, 8, 16 },
	[WS_M16N8K8] = { 16, 8, 8 }, [WS_M16N8K32] = { 16, 8, 32 },
	[WS_M16N8K4] = { 16, 8, 4 },
};

/* The element types each shape's A and B take, and C and D. */
static bool ab_type_ok(int shape, int t)
{
	switch (shape) {
	case WS_M16N16K8:
		return t == T_TF32;
	case WS_M8N8K4:
		return t == T_F64;
	default:
		return t == T_F16 || t == T_BF16 || t == T_S8 || t == T_U8;
	}
}

static bool cd_type_ok(int shape, int t)
{
	switch (shape) {
	case WS_M16N16K8:
		return t == T_F32;
	case WS_M8N8K4:
		return t == T_F64;
	default:
		return t == T_F16 || t == T_F32 || t == T_S32;
	}
}

bool wm_frag_of(int which, int shape, int type, struct wm_frag *f)
{
	unsigned m, n, k, per_lane;

	if (shape < WS_M16N16K16 || shape > WS_M8N8K4)
		return false;
	m = shapes[shape].m;
	n = shapes[shape].n;
	k = shapes[shape].k;
	if (which == WM_A || which == WM_B) {
		if (!ab_type_ok(shape, type))
			return false;
		f->rows = which == WM_A ? m : k;
		f->cols = which == WM_A ? k : n;
	} else {
		if (!cd_type_ok(shape, type))
			return false;
		f->rows = m;
		f->cols = n;
	}
	f->type = type;
	f->ebits = type == T_S8 || type == T_U8 ? 8 :
		   type == T_F16 || type == T_BF16 ? 16 :
		   type == T_F64 ? 64 : 32;
	f->per_reg = f->ebits < 32 ? 32 / f->ebits : 1;
	per_lane = f->rows * f->cols / 32;
	/* an f16 A or B is eight registers of f16x2 whatever its shape */
	if ((which == WM_A || which == WM_B) && type == T_F16)
		per_lane = 16;
	f->regs = per_lane / f->per_reg;
	return f->regs > 0;
}

/* An element's bits as a number. */
static double value(int type, uint64_t v)
{
	switch (type) {
	case T_F16:
	case T_BF16:
		return hf_decode((uint32_t)v & 0xffff, type, false);
	case T_TF32: {
		/* the unit reads a tf32 operand's top 19 bits */
		uint32_t u = (uint32_t)v & 0xffffe000u;
		float f;
		memcpy(&f, &u, 4);
		return f;
	}
	case T_F32: {
		uint32_t u = (uint32_t)v;
		float f;
		memcpy(&f, &u, 4);
		return f;
	}
	case T_S8:
		return (double)(int8_t)v;
	case T_U8:
		return (double)(uint8_t)v;
	case T_S32:
		return (double)(int32_t)v;
	default: {
		double d;
		memcpy(&d, &v, 8);
		return d;
	}
	}
}

/* A sum as an element of type. */
static uint64_t element(int type, double x, bool sat)
{
	switch (type) {
	case T_F16:
		if (sat && isfinite(x) && fabs(x) > 65504)
			x = copysign(65504, x);
		return hf_encode(x, T_F16, R_RN);
	case T_F32: {
		float f = (float)x;
		uint32_t u;
		if (sat && isinf(f) && !isinf(x))
			f = copysignf(3.40282347e38f, f);
		memcpy(&u, &f, 4);
		return u;
	}
	default: {
		uint64_t u;
		memcpy(&u, &x, 8);
		return u;
	}
	}
}

/* The tensor unit's f32 sum of c and the k products (probes/results/
 * wmma.txt, on an H200): each term is cut toward zero to a multiple of
 * 2^(E - 26), E the largest term's exponent, the cut terms are added
 * exactly, and the sum is cut toward zero to f32. This gives the H200's
 * bits for 93 % of f16 products' sums, 88 % of bf16's and 69 % of tf32's
 * (a plain sum rounded once, about half), the rest a few units apart
 * (tests/unit/test_exec_wmma.c bounds them). Products of f16, bf16 and
 * tf32 and an f32 c are exact as doubles, and 17 terms of 27 bits add
 * up exactly in 64. */
/* A double's biased exponent field: frexp's exponent plus 1022 for a
 * normal number, 0 for zero and subnormals, 2047 for infinities and NaN. */
static int expo(double x)
{
	uint64_t b;

	memcpy(&b, &x, 8);
	return (int)(b >> 52) & 0x7ff;
}

static uint64_t unit_f32_sum(double c, const double *x, const double *y,
			     unsigned k, bool sat)
{
	double t[17], q, scale;
	int emax = 0;
	int64_t s = 0;
	float f;
	uint32_t u;

	t[0] = c;
	for (unsigned p = 0; p < k; p++)
		t[p + 1] = x[p] * y[p];
	for (unsigned p = 0; p <= k; p++) {
		int e = expo(t[p]);
		if (e == 0x7ff)   /* an infinity or NaN: the plain sum's */
			emax = -1;
		if (emax >= 0 && e > emax)
			emax = e;
	}
	if (emax <= 0) {
		double plain = c;
		for (unsigned p = 0; p < k; p++)
			plain += t[p + 1];
		return element(T_F32, plain, sat);
	}
	/* units of 2^(E - 26), E the largest term's exponent: the scale is
	 * a power of two, so each product is exact */
	scale = ldexp(1.0, 26 - (emax - 1023));
	for (unsigned p = 0; p <= k; p++)
		s += (int64_t)trunc(t[p] * scale);
	q = (double)s / scale;
	f = (float)q;
	if (fabs((double)f) > fabs(q))       /* toward zero */
		f = nextafterf(f, 0.0f);
	if (sat && isinf(f))
		f = copysignf(3.40282347e38f, f);
	memcpy(&u, &f, 4);
	return u;
}

/* An integer sum as s32: clamped, or its low 32 bits. */
static uint64_t int_element(int64_t s, bool sat)
{
	if (sat && s > INT32_MAX)
		s = INT32_MAX;
	if (sat && s < INT32_MIN)
		s = INT32_MIN;
	return (uint32_t)s;
}

void wm_mma(int shape, int atype, int ctype, int dtype, bool sat,
	    const uint64_t *a, const uint64_t *b, const uint64_t *c,
	    uint64_t *d)
{
	unsigned m = shapes[shape].m, n = shapes[shape].n, k = shapes[shape].k;
	bool integer = atype == T_S8 || atype == T_U8;
	double av[WM_MAX_ELEMS], bt[WM_MAX_ELEMS];

	/* each element decoded once; B by columns, so that a sum walks
	 * both in order */
	for (unsigned i = 0; i < m * k; i++)
		av[i] = value(atype, a[i]);
	for (unsigned p = 0; p < k; p++)
		for (unsigned j = 0; j < n; j++)
			bt[j * k + p] = value(atype, b[p * n + j]);
	for (unsigned i = 0; i < m; i++)
		for (unsigned j = 0; j < n; j++) {
			const double *x = av + i * k, *y = bt + j * k;
			uint64_t cv = c[i * n + j];
			if (integer) {
				/* products of bytes, summed exactly */
				int64_t s = (int32_t)cv;
				for (unsigned p = 0; p < k; p++)
					s += (int64_t)x[p] * (int64_t)y[p];
				d[i * n + j] = int_element(s, sat);
			} else if (atype == T_F64) {
				double s = value(ctype, cv);
				for (unsigned p = 0; p < k; p++)
					s = fma(x[p], y[p], s);
				d[i * n + j] = element(dtype, s, false);
			} else if (dtype == T_F32 && k <= 16) {
				d[i * n + j] = unit_f32_sum(value(ctype, cv),
							    x, y, k, sat);
			} else {
				double s = value(ctype, cv);
				for (unsigned p = 0; p < k; p++)
					s += x[p] * y[p];
				d[i * n + j] = element(dtype, s, sat);
			}
		}
}

bool mma_frag_of(int shape, int which, int type, struct mma_frag *f)
{
	unsigned m, n, k, bits;

	if (shape < WS_M16N16K16 || shape > WS_M16N8K4)
		return false;
	m = shapes[shape].m;
	n = shapes[shape].n;
	k = shapes[shape].k;
	bits = type == T_S8 || type == T_U8 ? 8 :
	       type == T_F16 || type == T_BF16 ? 16 : type == T_F64 ? 64 : 32;
	*f = (struct mma_frag){ shape, which, type, 0, bits == 64 ? 1 :
				32 / bits };
	f->elems = (which == WM_A ? m * k : which == WM_B ? k * n : m * n) / 32;
	return f->elems > 0;
}

unsigned wm_cols(int shape, int which)
{
	return which == WM_A ? shapes[shape].k : shapes[shape].n;
}

void mma_pos(const struct mma_frag *f, unsigned lane, unsigned i,
	     unsigned *row, unsigned *col)
{
	unsigned g = lane >> 2, t = lane & 3, per = f->per;

	if (f->shape == WS_M8N8K4) {           /* f64 */
		*row = f->which == WM_B ? t : g;
		*col = f->which == WM_A ? t : f->which == WM_B ? g : t * 2 + i;
		return;
	}
	switch (f->which) {
	case WM_A:
		if (per == 1) {                /* tf32: k8 four, k4 two */
			*row = g + 8 * (i & 1);
			*col = t + 4 * (i >> 1);
		} else {                       /* f16, bf16: 2; s8, u8: 4 */
			*row = g + 8 * ((i / per) & 1);
			*col = t * per + i % per + 4 * per * (i / (2 * per));
		}
		break;
	case WM_B:
		*row = per == 1 ? t + 4 * i :
		       t * per + i % per + 4 * per * (i / per);
		*col = g;
		break;
	default:
		*row = g + 8 * (i >> 1);
		*col = t * 2 + (i & 1);
		break;
	}
}

unsigned wm_issue_slots(int shape, int atype)
{
	/* multiply-adds an SM's tensor cores do in one issue slot's time */
	unsigned per = atype == T_S8 || atype == T_U8 ? 946 :
		       atype == T_TF32 ? 237 : atype == T_F64 ? 32 : 473;
	unsigned fmas = shapes[shape].m * shapes[shape].n * shapes[shape].k;

	return (fmas + per - 1) / per;
}

uint32_t wm_tf32(uint32_t f, int rnd)
{
	uint32_t mag = f & 0x7fffffffu, low = f & 0x1fffu;

	if (mag > 0x7f800000u)               /* NaN */
		return f | 0x00400000u;
	if (mag == 0x7f800000u)
		return f;
	switch (rnd) {
	case R_RZ:
		break;
	case R_RN:                           /* ties to even */
		if (low > 0x1000u || (low == 0x1000u && (f & 0x2000u)))
			f += 0x2000u;
		break;
	default:                             /* R_RNA: ties away */
		if (low >= 0x1000u)
			f += 0x2000u;
		break;
	}
	return f & 0xffffe000u;
}
