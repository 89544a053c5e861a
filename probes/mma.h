/*
 * mma.h - the mma.sync table's cases and inputs, shared by the probe that
 * runs them on the GPU (mma.cu) and the replay that runs them through the
 * engine (tests/unit/test_exec_mma.c): m16n8k16 of f16 and bf16 into f32,
 * of f16 into f16, m16n8k8 of f16 into f32, over MMA_TILES tiles whose
 * lanes' registers hold wmma.h's hashed elements. Plain C, no state.
 */
#ifndef MMA_H
#define MMA_H

#include "wmma.h"

#define MMA_TILES 8

/* name, kind of A and B (wmma.h), of C, A's, B's, C's, D's registers */
#define MMA_CASES(X) \
	X(mma_f16_f32_k16, WK_F16, WK_F32, 4, 2, 4, 4) \
	X(mma_bf16_f32_k16, WK_BF16, WK_F32, 4, 2, 4, 4) \
	X(mma_f16_f16_k16, WK_F16, WK_F16, 4, 2, 2, 2) \
	X(mma_f16_f32_k8, WK_F16, WK_F32, 2, 1, 4, 4)

/* Each lane's registers of tile t: words of raw elements from wmma.h's
 * inputs, in the order the ISA's registers hold them (two 16-bit elements
 * a word, the first low; C of f32 a word each). */
static inline void mma_lanes(unsigned *in, int ab, int cd, int na, int nb, int nc)
{
	for (int t = 0; t < MMA_TILES; t++)
		for (int l = 0; l < 32; l++) {
			unsigned *p = in + ((size_t)t * 32 + l) * 16, k = 0;
			for (int i = 0; i < na + nb; i++, k += 2)
				p[i] = (unsigned)wmma_input(ab, 1, t, l * 16 + k) |
				       (unsigned)wmma_input(ab, 1, t, l * 16 + k + 1) << 16;
			for (int i = 0; i < nc; i++)
				p[6 + i] = cd == WK_F32 ? (unsigned)wmma_input(cd, 3, t, l * 4 + i) :
					(unsigned)wmma_input(cd, 3, t, l * 8 + 2 * i) |
					(unsigned)wmma_input(cd, 3, t, l * 8 + 2 * i + 1) << 16;
		}
}

#endif
