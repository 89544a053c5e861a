/*
 * texture.h - the elements of probes/texture.cu's textures and surfaces,
 * shared with tests/unit/test_exec_texture.c, which builds the same
 * resources and replays the fetches the H200 answered
 * (probes/results/texture.txt). Plain C, for nvcc and the C compiler.
 */
#ifndef PROBES_TEXTURE_H
#define PROBES_TEXTURE_H

/* 1D floats: a texel's neighbours differ in every bit the filter keeps */
static const float tex_f1d[8] = { 0.1f, 3.7f, -2.25f, 1e-3f, 5.5f, 1234.5f, -0.7f, 42.f };
static const float tex_border[4] = { 0.25f, 0.5f, 0.75f, 1.f };
/* powers of two: the weights' steps exactly */
static const float tex_steps[4] = { 0.f, 256.f, 65536.f, 1.f };
static const float tex_f2x1d[3][2] = { { 1.f, 2.f }, { 3.f, 4.f }, { -5.f, 6.5f } };
static const unsigned char tex_u8[6] = { 0, 1, 127, 128, 200, 255 };
static const signed char tex_s8[6] = { -128, -127, -1, 0, 1, 127 };
static const unsigned short tex_u16x2[2 * 5] = { 0, 65535, 1, 32768, 4660, 22136, 65534, 2, 300, 7 };
static const short tex_s16[5] = { -32768, -32767, -1, 0, 32767 };
static const unsigned short tex_f16[5] = { 0x3c00, 0xc000, 0x3555, 0x7bff, 0x0001 };
static const int tex_s32[4] = { -7, 0, 2147483647, -2147483647 - 1 };
static const int tex_linear_s32[8] = { 5, -6, 7, -8, 9, 1000000, -2147483647 - 1, 2147483647 };

/* 4x4 uchar4 with both extremes next to each other */
static void tex_unorm4(unsigned char v[64])
{
	for (int i = 0; i < 64; i++)
		v[i] = (unsigned char)(i * 37 + 11);
	v[0] = 0; v[1] = 255; v[4] = 255; v[5] = 0;
}

static void tex_f2d(float v[16])
{
	for (int i = 0; i < 16; i++)
		v[i] = (float)(i * i) * 0.37f - 3.f;
}

/* 5 x 3 floats, rows of 32 */
static void tex_pitch(float v[3][32])
{
	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 32; x++)
			v[y][x] = x < 5 ? (float)(y * 10 + x) + 0.5f : -99.f;
}

/* 3x3x3, 2x2 by 3 layers, 2x2 by 6 faces */
static void tex_volumes(float v3[27], float lay[12], float cube[24])
{
	for (int i = 0; i < 27; i++)
		v3[i] = (float)i * 1.25f - 7.f;
	for (int i = 0; i < 12; i++)
		lay[i] = (float)(i / 4) * 100.f + (float)(i % 4);
	for (int i = 0; i < 24; i++)
		cube[i] = (float)(i / 4) * 10.f + (float)(i % 4) + 0.5f;
}

/* a 4 x 3 surface of words */
static void tex_surface(unsigned v[12])
{
	for (int i = 0; i < 12; i++)
		v[i] = 0x11111111u * (unsigned)(i % 15 + 1) + (unsigned)i;
}

#endif
