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
	X(mma_f16_f32_k8, WK_F16, WK_F32, 2, 1, 4, 4) \
	X(mma_bf16_f32_k8, WK_BF16, WK_F32, 2, 1, 4, 4) \
	X(mma_s8_s32_k32, WK_S8, WK_S32, 4, 2, 4, 4) \
	X(mma_u8_s32_k16_sat, WK_U8, WK_S32_EDGE, 2, 1, 4, 4) \
	X(mma_tf32_f32_k8, WK_F32, WK_F32, 4, 2, 4, 4) \
	X(mma_f64_k4, WK_F64, WK_F64, 2, 2, 4, 4)

/* Words of a kind's elements: how many a 32-bit word holds (0: an f64
 * takes two words, low first). */
static inline int mma_per_word(int k)
{
	return k == WK_F16 || k == WK_BF16 ? 2 : k == WK_S8 || k == WK_U8 ? 4 :
	       k == WK_F64 ? 0 : 1;
}

/* n words at w of kind k's elements, hashed from (salt, t, lane, its
 * e-th element on). */
static inline void mma_words(unsigned *w, int n, int k, int salt, int t,
			     int l, int e)
{
	int per = mma_per_word(k);

	for (int i = 0; i < n; i++) {
		if (!per) {
			uint64_t v = wmma_input(k, salt, t, l * 16 + e + i / 2);
			w[i] = (unsigned)(i & 1 ? v >> 32 : v);
			continue;
		}
		w[i] = 0;
		for (int j = 0; j < per; j++)
			w[i] |= (unsigned)wmma_input(k, salt, t,
						     l * 16 + e + i * per + j)
				<< (32 / per * j);
	}
}

/* Each lane's registers of tile t: A's na words from in[0], B's nb from
 * in[4], C's nc from in[6] (16 words a lane), of their kinds' hashed
 * elements in the order the registers hold them. */
static inline void mma_lanes(unsigned *in, int ab, int cd, int na, int nb,
			     int nc)
{
	for (int t = 0; t < MMA_TILES; t++)
		for (int l = 0; l < 32; l++) {
			unsigned *p = in + ((size_t)t * 32 + l) * 16;
			mma_words(p, na, ab, 1, t, l, 0);
			mma_words(p + 4, nb, ab, 2, t, l, 0);
			mma_words(p + 6, nc, cd, 3, t, l, 0);
		}
}

#endif
