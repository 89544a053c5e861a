/*
 * half.h - the half-precision formats (f16 and bf16, alone or as the two
 * halves of a 32-bit register) as warp.c computes them: one lane's value
 * at a time, bit-exact with the GPU (probes/f16.cu). Shared by warp.c and
 * half.c only.
 *
 * Locking: none; pure functions.
 */
#ifndef CUEMU_EXEC_HALF_H
#define CUEMU_EXEC_HALF_H

#include "exec/ptx.h"

/* Whether t is one of the four half-precision types. */
static inline bool ptype_half(enum ptype t)
{
	return t == T_F16 || t == T_F16X2 || t == T_BF16 || t == T_BF16X2;
}

/* A 16-bit value of format t (T_F16 or T_BF16, or their pairs) as a
 * double, exactly; ftz reads a subnormal as a zero of its sign. */
double hf_decode(uint32_t h, enum ptype t, bool ftz);

/* x rounded into format t (T_F16 or T_BF16) in mode rnd (enum rnd; none
 * to nearest even); x exact or rounded to odd. */
uint32_t hf_encode(double x, enum ptype t, int rnd);

/* add, sub, mul, fma, neg, abs, min, max, ex2, tanh of one lane: over
 * both halves of a pair type. */
uint64_t hf_arith(const struct insn *in, uint64_t a, uint64_t b, uint64_t c);

/* cvt whose destination is a half type (from f32, f64, an integer or the
 * other half format), or whose source is one and destination f32 or f64.
 * b is the second source of the pair forms (cvt.f16x2.f32 d, a, b). */
uint64_t hf_cvt(const struct insn *in, uint64_t a, uint64_t b);

/* x rounded to an integer in rounding mode rnd (enum rnd: cvt's .rzi,
 * .rmi, .rpi; .rni and none to nearest even), for the float and the half
 * conversions alike. */
double ex_round_int(double x, int rnd);

#endif
