/*
 * video.c - the SIMD video instructions: each of two 16-bit or four 8-bit
 * lanes of a and b, zero- or sign-extended by its operand's type, goes
 * through the operation (a sum, a difference, a mean with halves
 * rounded away from zero, an absolute difference, a minimum or maximum,
 * a comparison's 0 or 1) in full precision; then either each lane's
 * result, saturated to the
 * destination lane's range where .sat asks, truncated to the lane
 * otherwise, becomes that lane of d (the merge), or the results' sum is
 * added to c (.add, the accumulate: __vsadu4's sum of absolute
 * differences). Byte selectors and masks other than the defaults (all
 * lanes of a, all of b) are refused at load.
 *
 * Locking: none; a pure function of the instruction and its sources.
 */
#include "exec/video.h"

/* Lane i of x, `bits` wide, zero- or sign-extended. */
static int64_t lane(uint32_t x, int i, unsigned bits, bool sgn)
{
	uint32_t v = x >> (i * bits) & ((1u << bits) - 1);

	return sgn && v >> (bits - 1) ? (int64_t)v - ((int64_t)1 << bits) :
		      (int64_t)v;
}

static int64_t op(const struct insn *in, int64_t a, int64_t b)
{
	switch (in->sub) {
	case VO_ADD: return a + b;
	case VO_SUB: return a - b;
	case VO_AVRG: {
		int64_t s = a + b;       /* the mean, halves away from 0 */
		return s >= 0 ? (s + 1) / 2 : -((-s + 1) / 2);
	}
	case VO_ABSDIFF: return a > b ? a - b : b - a;
	case VO_MIN: return a < b ? a : b;
	case VO_MAX: return a > b ? a : b;
	default:
		switch (in->boolop) {
		case C_EQ: return a == b;
		case C_NE: return a != b;
		case C_LT: return a < b;
		case C_LE: return a <= b;
		case C_GT: return a > b;
		default: return a >= b;
		}
	}
}

/* r clamped to a lane of `bits`, signed or not. */
static int64_t saturate(int64_t r, unsigned bits, bool sgn)
{
	int64_t lo = sgn ? -((int64_t)1 << (bits - 1)) : 0;
	int64_t hi = sgn ? ((int64_t)1 << (bits - 1)) - 1 :
		     ((int64_t)1 << bits) - 1;

	return r < lo ? lo : r > hi ? hi : r;
}

uint32_t ex_video(const struct insn *in, uint32_t a, uint32_t b, uint32_t c)
{
	unsigned n = in->vec, bits = 32 / n;
	bool as = in->flags & F_VA_S, bs = in->flags & F_VB_S;
	bool ds = (in->flags & F_VD_S) && in->sub != VO_SET;
	uint32_t d = 0, mask = (1u << bits) - 1;
	int64_t sum = 0;

	for (unsigned i = 0; i < n; i++) {
		int64_t r = op(in, lane(a, (int)i, bits, as), lane(b, (int)i, bits, bs));
		if (in->flags & F_VACC) {
			sum += r;
			continue;
		}
		if (in->flags & F_SAT)
			r = saturate(r, bits, ds);
		d |= ((uint32_t)r & mask) << (i * bits);
	}
	return in->flags & F_VACC ? c + (uint32_t)sum : d;
}
