/*
 * wmma.h - warp matrix fragments and their multiply-add (wmma.c): where
 * each element of a tile lies in the warp's registers, and D = A B + C
 * over the tiles' elements. Pure: warp.c moves the tiles between memory
 * and elements, and the elements between registers.
 */
#ifndef CUEMU_EXEC_WMMA_H
#define CUEMU_EXEC_WMMA_H

#include <stdbool.h>
#include <stdint.h>

/* The most elements a tile has (m8n32k16's B, m32n8k16's A). */
#define WM_MAX_ELEMS 512

/* A fragment: its tile's rows and columns, the element type (enum
 * ptype), the registers each lane holds and the elements each holds. */
struct wm_frag {
	unsigned rows, cols;
	int type;
	unsigned regs, per_reg, ebits;
};

/* The fragment of matrix which (WM_A ... WM_D) of shape (enum wmshape)
 * with elements of type; false for a combination PTX does not have. */
bool wm_frag_of(int which, int shape, int type, struct wm_frag *f);

/* The tile's element (row-major index) that slot s of lane l's
 * fragment holds: each lane holds a run of the elements in order, and
 * where the warp holds more slots than the tile has elements (an f16 A
 * or B of m16n16k16 holds each twice), the upper lanes hold them again. */
static inline unsigned wm_elem(const struct wm_frag *f, unsigned lane,
			       unsigned slot)
{
	unsigned per_lane = f->regs * f->per_reg;

	return (lane * per_lane + slot) % (f->rows * f->cols);
}

/* D = A B + C over raw element bits, each tile row-major: a is m x k of
 * atype, b k x n of atype, c and d m x n of ctype and dtype. f64 sums in
 * k order, each step one fused multiply-add rounded to nearest; the
 * others sum exactly and round once (sat: integers clamp to 32 bits,
 * floats to the largest finite). */
void wm_mma(int shape, int atype, int ctype, int dtype, bool sat,
	    const uint64_t *a, const uint64_t *b, const uint64_t *c,
	    uint64_t *d);

/* mma.sync's fragments, as the PTX ISA lays them out (m16n8k16 and
 * m16n8k8 of f16 and bf16, m16n8k32 and m16n8k16 of s8 and u8, m16n8k8
 * and m16n8k4 of tf32, m8n8k4 of f64): of matrix which (WM_A ... WM_D)
 * with elements of type, the elements a lane holds, how many share a
 * register (a 32-bit one; f64's are 64), and element i's row and column
 * in its tile (A m x k, B k x n, C and D m x n). Element i lies in
 * register i / per's bits (i % per) * (32 / per) up. false: no such
 * fragment. */
struct mma_frag {
	int shape, which, type;
	unsigned elems, per;
};
bool mma_frag_of(int shape, int which, int type, struct mma_frag *f);
/* The columns of matrix which's tile (A: k; B, C and D: n). */
unsigned wm_cols(int shape, int which);
void mma_pos(const struct mma_frag *f, unsigned lane, unsigned i,
	     unsigned *row, unsigned *col);

/* The warp instructions an SM's issue would take in the time its tensor
 * cores take one mma of shape over A and B of atype (the compute term
 * counts them): Hopper's published dense peaks (H100 and H200 SXM: 989
 * TFLOPS of f16 and bf16, 495 of tf32, 1979 TOPS of int8, 67 TFLOPS of
 * f64 at 1.98 GHz on 132 SMs) over the SM's four issue slots a clock. */
unsigned wm_issue_slots(int shape, int atype);

/* f32 bits rounded to tf32's 10 mantissa bits (rnd: enum rnd, R_RNA,
 * R_RN or R_RZ), the low 13 bits zero; NaN stays NaN. */
uint32_t wm_tf32(uint32_t f, int rnd);

#endif
