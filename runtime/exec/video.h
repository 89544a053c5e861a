/*
 * video.h - the SIMD video instructions (video.c): vadd, vsub, vavrg,
 * vabsdiff, vmin, vmax and vset over two halves or four bytes of a
 * 32-bit word, one lane's value at a time, as an H200 computes them
 * (probes/video.cu). Shared by warp.c and video.c only.
 *
 * Locking: none; a pure function.
 */
#ifndef CUEMU_EXEC_VIDEO_H
#define CUEMU_EXEC_VIDEO_H

#include <stdint.h>

#include "exec/ptx.h"

/* d of instruction in (OP_VIDEO) for sources a, b and c. */
uint32_t ex_video(const struct insn *in, uint32_t a, uint32_t b, uint32_t c);

#endif
