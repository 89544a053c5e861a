/*
 * wmma.h - the warp matrix table: its cases and inputs, shared by the
 * probe that runs them on the GPU (wmma.cu) and the replay that runs them
 * through the engine (tests/unit/test_exec_wmma.c). Each case is one
 * kernel of wmma.cu, named as here, in which warp t of WMMA_TILES loads
 * its tiles of A, B and C (each tile its own inputs), multiplies and adds
 * them with wmma and stores D row-major: f16 into f32 and into f16 on
 * each shape, with A and B in each layout, bf16, tf32 (its inputs
 * rounded by cvt.rna.tf32.f32), s8 and u8 (saturated too), f64, and an
 * accumulator scaled element by element between a load and the mma.
 *
 * Inputs are the raw bits of each element, from a hash of the case's
 * kind, the tile and the element: floats of exponents over a range that
 * makes sums cancel, bytes of every value, s32 near its limits for the
 * saturated case. Plain C, no state.
 */
#ifndef WMMA_H
#define WMMA_H

#include <stdint.h>
#include <string.h>

#define WMMA_TILES 8
/* The most elements a tile has, and so the stride between tiles. */
#define WMMA_ELEMS 512

/* name, the input kinds of A and B and of C (enum wmma_kind), m, n, k */
#define WMMA_CASES(X) \
	X(f16_f32_16x16x16, WK_F16, WK_F32, 16, 16, 16) \
	X(f16_f32_16x16x16_colrow, WK_F16, WK_F32, 16, 16, 16) \
	X(f16_f16_16x16x16, WK_F16, WK_F16, 16, 16, 16) \
	X(f16_f32_8x32x16, WK_F16, WK_F32, 8, 32, 16) \
	X(f16_f32_32x8x16, WK_F16, WK_F32, 32, 8, 16) \
	X(bf16_f32_16x16x16, WK_BF16, WK_F32, 16, 16, 16) \
	X(tf32_f32_16x16x8, WK_F32, WK_F32, 16, 16, 8) \
	X(s8_s32_16x16x16, WK_S8, WK_S32, 16, 16, 16) \
	X(u8_s32_16x16x16_sat, WK_U8, WK_S32_EDGE, 16, 16, 16) \
	X(f64_8x8x4, WK_F64, WK_F64, 8, 8, 4) \
	X(f32_scaled_16x16x16, WK_F16, WK_F32, 16, 16, 16)

enum wmma_kind { WK_F16 = 1, WK_BF16, WK_F32, WK_F64, WK_S8, WK_U8, WK_S32,
		 WK_S32_EDGE };

static inline uint32_t wmma_hash(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

/* Element i of tile t of an input of kind k (salt tells A, B and C
 * apart), as its raw bits. */
static inline uint64_t wmma_input(int k, int salt, int t, int i)
{
	uint32_t h = wmma_hash((uint32_t)(k * 131 + salt) * 2654435761u ^
			       (uint32_t)(t * WMMA_ELEMS + i));
	uint32_t s = h >> 31, e = (h >> 24) & 15, m = h & 0xffffff;

	switch (k) {
	case WK_F16:    /* exponents -8 to 7 */
		return s << 15 | (e + 7) << 10 | (m & 0x3ff);
	case WK_BF16:
		return s << 15 | (e + 119) << 7 | (m & 0x7f);
	case WK_F32:
		return (uint64_t)s << 31 | (uint64_t)(e + 119) << 23 | (m & 0x7fffff);
	case WK_F64: {
		uint64_t hi = wmma_hash(h);
		return (uint64_t)s << 63 | (uint64_t)(e + 1015) << 52 |
		       ((hi << 20 | m) & 0xfffffffffffffull);
	}
	case WK_S8: case WK_U8:
		return h & 0xff;
	case WK_S32:
		return h;
	default:        /* WK_S32_EDGE: near the limits, or small */
		return (h & 3) == 0 ? 0x7fffff00u + (h >> 24) :
		       (h & 3) == 1 ? 0x80000100u - (h >> 24) : h & 0xffff;
	}
}

/* An element's bytes in memory, by input kind. */
static inline int wmma_bytes(int kind)
{
	switch (kind) {
	case WK_F16: case WK_BF16: return 2;
	case WK_S8: case WK_U8: return 1;
	case WK_F64: return 8;
	default: return 4;
	}
}

/* Every tile of an input at p: elems elements of kind k each (salt 1 for
 * A, 2 for B, 3 for C), tile t at element t * WMMA_ELEMS. */
static inline void wmma_fill(void *p, int k, int salt, int elems)
{
	int sz = wmma_bytes(k);

	for (int t = 0; t < WMMA_TILES; t++)
		for (int i = 0; i < elems; i++) {
			uint64_t v = wmma_input(k, salt, t, i);
			memcpy((char *)p + ((size_t)t * WMMA_ELEMS + i) * sz, &v,
			       (size_t)sz);
		}
}

#endif
