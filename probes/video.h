/*
 * video.h - the SIMD video instructions' table: its cases and inputs,
 * shared by the probe that runs them on the GPU (video.cu) and the replay
 * that runs them through the engine (tests/unit/test_exec_video.c).
 * vadd, vsub, vavrg, vabsdiff, vmin, vmax and vset over two halves or
 * four bytes, unsigned and signed lanes, saturated or not, merged into c
 * or accumulated onto it (nvcc's __vabsdiffu4 and __vsadu4 are two of
 * them), over rows of bytes at their edges (0, 1, 0x7f, 0x80, 0x81, 0xfe,
 * 0xff) and others.
 *
 * Each case is one kernel of video.cu, named as here, that runs one
 * instruction over rows (a, b, c) -> d. Plain C, no state.
 */
#ifndef VIDEO_H
#define VIDEO_H

#include <stdint.h>

/* name, instruction */
#define VIDEO_CASES(X) \
	X(vabsdiff4_u, "vabsdiff4.u32.u32.u32") \
	X(vabsdiff4_u_add, "vabsdiff4.u32.u32.u32.add") \
	X(vabsdiff4_s, "vabsdiff4.s32.s32.s32") \
	X(vabsdiff4_s_sat, "vabsdiff4.s32.s32.s32.sat") \
	X(vabsdiff4_s_add, "vabsdiff4.s32.s32.s32.add") \
	X(vabsdiff4_us_add, "vabsdiff4.u32.s32.s32.add") \
	X(vadd4_u, "vadd4.u32.u32.u32") \
	X(vadd4_u_sat, "vadd4.u32.u32.u32.sat") \
	X(vadd4_s_sat, "vadd4.s32.s32.s32.sat") \
	X(vadd4_su_sat, "vadd4.s32.u32.s32.sat") \
	X(vadd4_us_sat, "vadd4.u32.s32.u32.sat") \
	X(vadd4_s_add, "vadd4.s32.s32.s32.add") \
	X(vsub4_u, "vsub4.u32.u32.u32") \
	X(vsub4_u_sat, "vsub4.u32.u32.u32.sat") \
	X(vsub4_s_sat, "vsub4.s32.s32.s32.sat") \
	X(vsub4_u_add, "vsub4.u32.u32.u32.add") \
	X(vavrg4_u, "vavrg4.u32.u32.u32") \
	X(vavrg4_s, "vavrg4.s32.s32.s32") \
	X(vavrg4_s_sat, "vavrg4.u32.s32.s32.sat") \
	X(vmin4_u, "vmin4.u32.u32.u32") \
	X(vmin4_s, "vmin4.s32.s32.s32") \
	X(vmax4_us, "vmax4.u32.u32.s32") \
	X(vmax4_s_add, "vmax4.s32.s32.s32.add") \
	X(vmin4_s_sat, "vmin4.u32.s32.s32.sat") \
	X(vset4_u_lt, "vset4.u32.u32.lt") \
	X(vset4_s_ge, "vset4.s32.s32.ge") \
	X(vset4_su_eq, "vset4.s32.u32.eq") \
	X(vset4_u_ne_add, "vset4.u32.u32.ne.add") \
	X(vabsdiff2_u, "vabsdiff2.u32.u32.u32") \
	X(vabsdiff2_u_add, "vabsdiff2.u32.u32.u32.add") \
	X(vabsdiff2_s_sat, "vabsdiff2.s32.s32.s32.sat") \
	X(vadd2_u_sat, "vadd2.u32.u32.u32.sat") \
	X(vadd2_s_sat, "vadd2.s32.s32.s32.sat") \
	X(vadd2_s_add, "vadd2.s32.s32.s32.add") \
	X(vsub2_u, "vsub2.u32.u32.u32") \
	X(vsub2_s_sat, "vsub2.s32.s32.s32.sat") \
	X(vavrg2_u, "vavrg2.u32.u32.u32") \
	X(vavrg2_s, "vavrg2.s32.s32.s32") \
	X(vmin2_s, "vmin2.s32.s32.s32") \
	X(vmax2_u_add, "vmax2.u32.u32.u32.add") \
	X(vset2_s_le, "vset2.s32.s32.le") \
	X(vset2_u_gt_add, "vset2.u32.u32.gt.add")

/* The rows: 512, each byte of a and b drawn from the edges and a
 * sequence, c from the sequence. */
#define VIDEO_ROWS 512

static uint32_t video_next(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s;
}

static void video_row(int i, uint32_t *a, uint32_t *b, uint32_t *c)
{
	static const uint8_t edge[] = { 0x00, 0x01, 0x7f, 0x80, 0x81, 0xfe,
					0xff, 0x40 };
	uint32_t s = (uint32_t)i * 2654435761u + 12345u, x = 0, y = 0;

	for (int k = 0; k < 4; k++) {
		uint32_t r = video_next(&s);
		uint8_t ea = (r >> 8) & 1 ? edge[(r >> 12) & 7] : (uint8_t)(r >> 16);
		uint8_t eb = (r >> 9) & 1 ? edge[(r >> 20) & 7] : (uint8_t)(r >> 24);
		x |= (uint32_t)ea << (8 * k);
		y |= (uint32_t)eb << (8 * k);
	}
	*a = x;
	*b = y;
	*c = i & 3 ? video_next(&s) : 0;
}

#endif
