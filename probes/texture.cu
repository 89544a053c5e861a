// texture.cu - what the texture unit returns: a table of fetches through
// texture objects of each resource kind, format, filter, address and read
// mode, and of surface loads and stores, on the real GPU. Each line is
// "case coords: r0 r1 r2 r3", the four result registers in hex, so that
// tests/cuda/run.sh can run this program on libcuemu and compare the lines
// one for one. `texture trap` and `texture misaligned` run the cases that
// end their context (a surface load out of range with the trap mode, one
// at an x not a multiple of its size) alone.
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o texture texture.cu
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "texture.h"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("error %s: %s\n", #x, cudaGetErrorName(e_)); exit(1); } } while (0)

enum { K1D = 1, K2D, K3D, KA1D, KA2D, KCUBE, KG0, KG1, KG2, KG3, KFETCH,
       KLOD2D, KGRAD2D };

// One fetch a thread: c[i] holds its coordinates (x, y, z, and the layer
// or the gather's component where the kind takes one).
template <class T>
__global__ void fetch(cudaTextureObject_t t, int kind, const float4 *c, T *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float4 p = c[i];
	T v;
	switch (kind) {
	case K1D: v = tex1D<T>(t, p.x); break;
	case K2D: v = tex2D<T>(t, p.x, p.y); break;
	case K3D: v = tex3D<T>(t, p.x, p.y, p.z); break;
	case KA1D: v = tex1DLayered<T>(t, p.x, (int)p.w); break;
	case KA2D: v = tex2DLayered<T>(t, p.x, p.y, (int)p.w); break;
	case KCUBE: v = texCubemap<T>(t, p.x, p.y, p.z); break;
	case KG0: v = tex2Dgather<T>(t, p.x, p.y, 0); break;
	case KG1: v = tex2Dgather<T>(t, p.x, p.y, 1); break;
	case KG2: v = tex2Dgather<T>(t, p.x, p.y, 2); break;
	case KG3: v = tex2Dgather<T>(t, p.x, p.y, 3); break;
	case KFETCH: v = tex1Dfetch<T>(t, (int)p.x); break;
	case KLOD2D: v = tex2DLod<T>(t, p.x, p.y, p.w); break;
	default: v = tex2DGrad<T>(t, p.x, p.y, make_float2(p.z, 0), make_float2(0, p.w)); break;
	}
	out[i] = v;
}

static float4 *dc, *dout;
static float4 hc[4096];

// Runs kind over the n coordinates in hc, as floats (T float4) or
// integers (T int4 / uint4), printing a line each.
template <class T>
static void run(const char *name, cudaTextureObject_t t, int kind, int n)
{
	T h[4096];
	CK(cudaMemcpy(dc, hc, n * sizeof(float4), cudaMemcpyHostToDevice));
	fetch<T><<<(n + 127) / 128, 128>>>(t, kind, dc, (T *)dout, n);
	CK(cudaGetLastError());
	CK(cudaMemcpy(h, dout, n * sizeof(T), cudaMemcpyDeviceToHost));
	for (int i = 0; i < n; i++) {
		unsigned r[4];
		memcpy(r, &h[i], 16);
		printf("%s %.9g %.9g %.9g %.9g: %08x %08x %08x %08x\n", name,
		       hc[i].x, hc[i].y, hc[i].z, hc[i].w, r[0], r[1], r[2], r[3]);
	}
}

// The 1D coordinates, in texels: either side of each texel's centre, the
// filter weight's steps of 1/256 and less, the edges and far beyond.
static const float xs[] = {
	-100.f, -1.5f, -0.5f, -0.25f, 0.f, 0.25f, 0.49f, 0.5f, 0.5f + 1.f / 1024,
	0.5f + 1.f / 512, 0.5f + 1.f / 256, 0.5f + 1.5f / 256, 0.5f + 3.f / 512,
	0.5f + 255.f / 256, 0.5f + 255.5f / 256, 0.75f, 0.99999994f, 1.f, 1.25f,
	1.4999999f, 1.5f, 1.5000001f, 1.75f, 2.0039062f, 2.3f, 3.3f, 4.6666665f,
	6.9f, 7.5f, 7.75f, 7.9999995f, 8.f, 8.25f, 8.5f, 9.7f, 15.9f, 16.5f,
	100.f, 1e30f, -1e30f, NAN, INFINITY, -INFINITY,
};
#define NX (int)(sizeof xs / sizeof xs[0])

static cudaTextureObject_t texobj(cudaArray_t a, cudaTextureAddressMode am,
				  cudaTextureFilterMode fm, cudaTextureReadMode rm,
				  int norm, const float *border)
{
	cudaResourceDesc r;
	cudaTextureDesc d;
	cudaTextureObject_t t;
	memset(&r, 0, sizeof r);
	memset(&d, 0, sizeof d);
	r.resType = cudaResourceTypeArray;
	r.res.array.array = a;
	d.addressMode[0] = d.addressMode[1] = d.addressMode[2] = am;
	d.filterMode = fm;
	d.readMode = rm;
	d.normalizedCoords = norm;
	if (border)
		memcpy(d.borderColor, border, sizeof d.borderColor);
	CK(cudaCreateTextureObject(&t, &r, &d, NULL));
	return t;
}

static const char *amname[] = { "wrap", "clamp", "mirror", "border" };

// 1D: each coordinate as texels, and divided by the width as normalized.
template <class T>
static void line1d(const char *what, cudaArray_t a, int w, cudaTextureFilterMode fm,
		   cudaTextureReadMode rm, int modes, const float *border)
{
	char name[128];
	for (int am = 0; am < 4; am++) {
		if (!(modes & 1 << am))
			continue;
		for (int norm = 0; norm < 2; norm++) {
			cudaTextureObject_t t = texobj(a, (cudaTextureAddressMode)am,
						       fm, rm, norm, border);
			int n = 0;
			for (int i = 0; i < NX; i++)
				hc[n++] = make_float4(norm ? xs[i] / w : xs[i], 0, 0, 0);
			if (norm) {
				const float more[] = { 1.f, 1.0625f, 1.5f, 2.5f,
					-0.0625f, -0.5f, -1.f, 0.999f };
				for (unsigned k = 0; k < sizeof more / sizeof more[0]; k++)
					hc[n++] = make_float4(more[k], 0, 0, 0);
			}
			snprintf(name, sizeof name, "%s.%s.%s.%s", what,
				 fm == cudaFilterModeLinear ? "linear" : "point",
				 amname[am], norm ? "norm" : "texels");
			run<T>(name, t, K1D, n);
			CK(cudaDestroyTextureObject(t));
		}
	}
}

static cudaArray_t array2d(cudaChannelFormatDesc f, int w, int h, const void *src,
			   size_t elem, unsigned flags = 0)
{
	cudaArray_t a;
	CK(cudaMallocArray(&a, &f, w, h, flags));
	CK(cudaMemcpy2DToArray(a, 0, 0, src, w * elem, w * elem, h ? h : 1,
			       cudaMemcpyHostToDevice));
	return a;
}

static cudaArray_t array3d(cudaChannelFormatDesc f, int w, int h, int d,
			   const void *src, size_t elem, unsigned flags)
{
	cudaArray_t a;
	cudaMemcpy3DParms p;
	CK(cudaMalloc3DArray(&a, &f, make_cudaExtent(w, h, d), flags));
	memset(&p, 0, sizeof p);
	p.srcPtr = make_cudaPitchedPtr((void *)src, w * elem, w, h ? h : 1);
	p.dstArray = a;
	p.extent = make_cudaExtent(w, h ? h : 1, d);
	p.kind = cudaMemcpyHostToDevice;
	CK(cudaMemcpy3D(&p));
	return a;
}

// A grid of 2D coordinates (in texels, or normalized by w and h).
static int grid2d(const float *g, int ng, int w, int h, int norm, float z, float layer)
{
	int n = 0;
	for (int j = 0; j < ng; j++)
		for (int i = 0; i < ng; i++)
			hc[n++] = make_float4(norm ? g[i] / w : g[i],
					      norm ? g[j] / h : g[j], z, layer);
	return n;
}

static const float g2[] = { -0.3f, 0.5f, 0.7f, 1.2f, 1.5f, 2.9f, 3.6f, 4.4f };
#define NG2 (int)(sizeof g2 / sizeof g2[0])

static void floats1d(void)
{
	const float *border = tex_border;
	cudaArray_t a = array2d(cudaCreateChannelDesc<float>(), 8, 0, tex_f1d, 4);
	line1d<float4>("f32x1", a, 8, cudaFilterModePoint, cudaReadModeElementType, 15, NULL);
	line1d<float4>("f32x1", a, 8, cudaFilterModeLinear, cudaReadModeElementType, 15, NULL);
	line1d<float4>("f32x1.bordercolor", a, 8, cudaFilterModePoint, cudaReadModeElementType, 8, border);
	line1d<float4>("f32x1.bordercolor", a, 8, cudaFilterModeLinear, cudaReadModeElementType, 8, border);
	CK(cudaFreeArray(a));
	a = array2d(cudaCreateChannelDesc<float>(), 4, 0, tex_steps, 4);
	line1d<float4>("f32x1.steps", a, 4, cudaFilterModeLinear, cudaReadModeElementType, 2, NULL);
	CK(cudaFreeArray(a));
	a = array2d(cudaCreateChannelDesc<float2>(), 3, 0, tex_f2x1d, 8);
	line1d<float4>("f32x2", a, 3, cudaFilterModeLinear, cudaReadModeElementType, 2, NULL);
	CK(cudaFreeArray(a));
}

static void ints1d(void)
{
	cudaArray_t a;

	a = array2d(cudaCreateChannelDesc<unsigned char>(), 6, 0, tex_u8, 1);
	line1d<uint4>("u8x1.element", a, 6, cudaFilterModePoint, cudaReadModeElementType, 2, NULL);
	line1d<float4>("u8x1.normalized", a, 6, cudaFilterModePoint, cudaReadModeNormalizedFloat, 2, NULL);
	line1d<float4>("u8x1.normalized", a, 6, cudaFilterModeLinear, cudaReadModeNormalizedFloat, 10, NULL);
	CK(cudaFreeArray(a));
	a = array2d(cudaCreateChannelDesc<signed char>(), 6, 0, tex_s8, 1);
	line1d<int4>("s8x1.element", a, 6, cudaFilterModePoint, cudaReadModeElementType, 2, NULL);
	line1d<float4>("s8x1.normalized", a, 6, cudaFilterModePoint, cudaReadModeNormalizedFloat, 2, NULL);
	line1d<float4>("s8x1.normalized", a, 6, cudaFilterModeLinear, cudaReadModeNormalizedFloat, 2, NULL);
	CK(cudaFreeArray(a));
	a = array2d(cudaCreateChannelDesc<ushort2>(), 5, 0, tex_u16x2, 4);
	line1d<uint4>("u16x2.element", a, 5, cudaFilterModePoint, cudaReadModeElementType, 2, NULL);
	line1d<float4>("u16x2.normalized", a, 5, cudaFilterModeLinear, cudaReadModeNormalizedFloat, 2, NULL);
	CK(cudaFreeArray(a));
	a = array2d(cudaCreateChannelDesc<short>(), 5, 0, tex_s16, 2);
	line1d<int4>("s16x1.element", a, 5, cudaFilterModePoint, cudaReadModeElementType, 2, NULL);
	line1d<float4>("s16x1.normalized", a, 5, cudaFilterModeLinear, cudaReadModeNormalizedFloat, 2, NULL);
	CK(cudaFreeArray(a));
	a = array2d(cudaCreateChannelDescHalf(), 5, 0, tex_f16, 2);
	line1d<float4>("f16x1", a, 5, cudaFilterModePoint, cudaReadModeElementType, 2, NULL);
	line1d<float4>("f16x1", a, 5, cudaFilterModeLinear, cudaReadModeElementType, 2, NULL);
	CK(cudaFreeArray(a));
	a = array2d(cudaCreateChannelDesc<int>(), 4, 0, tex_s32, 4);
	line1d<int4>("s32x1.element", a, 4, cudaFilterModePoint, cudaReadModeElementType, 3, NULL);
	CK(cudaFreeArray(a));
}

static void unorm4_2d(void)
{
	unsigned char v[4 * 4 * 4];
	tex_unorm4(v);
	cudaArray_t a = array2d(cudaCreateChannelDesc<uchar4>(), 4, 4, v, 4);
	for (int fm = 0; fm < 2; fm++) {
		cudaTextureObject_t t = texobj(a, cudaAddressModeClamp,
			(cudaTextureFilterMode)fm, cudaReadModeNormalizedFloat, 0, NULL);
		int n = grid2d(g2, NG2, 4, 4, 0, 0, 0);
		run<float4>(fm ? "u8x4.2d.linear.clamp.texels" : "u8x4.2d.point.clamp.texels",
			    t, K2D, n);
		if (!fm)
			for (int k = KG0; k <= KG3; k++) {
				char name[64];
				snprintf(name, sizeof name, "u8x4.2d.gather%d.clamp.texels", k - KG0);
				run<float4>(name, t, k, n);
			}
		CK(cudaDestroyTextureObject(t));
	}
	cudaTextureObject_t t = texobj(a, cudaAddressModeBorder, cudaFilterModePoint,
				       cudaReadModeElementType, 0, NULL);
	int n = grid2d(g2, NG2, 4, 4, 0, 0, 0);
	run<uint4>("u8x4.2d.point.border.element", t, K2D, n);
	run<uint4>("u8x4.2d.gather1.border.element", t, KG1, n);
	CK(cudaDestroyTextureObject(t));
	CK(cudaFreeArray(a));
}

static void floats2d(void)
{
	float v[4 * 4];
	tex_f2d(v);
	cudaArray_t a = array2d(cudaCreateChannelDesc<float>(), 4, 4, v, 4);
	for (int am = 0; am < 4; am++)
		for (int fm = 0; fm < 2; fm++)
			for (int norm = 0; norm < 2; norm++) {
				char name[64];
				cudaTextureObject_t t = texobj(a, (cudaTextureAddressMode)am,
					(cudaTextureFilterMode)fm, cudaReadModeElementType, norm, NULL);
				int n = grid2d(g2, NG2, 4, 4, norm, 0, 0);
				snprintf(name, sizeof name, "f32x1.2d.%s.%s.%s",
					 fm ? "linear" : "point", amname[am], norm ? "norm" : "texels");
				run<float4>(name, t, K2D, n);
				if (am == 1 && fm == 1 && !norm) {
					for (int i = 0; i < n; i++)
						hc[i].w = 2.f, hc[i].z = 0.5f;
					run<float4>("f32x1.2d.lod.linear.clamp.texels", t, KLOD2D, n);
					run<float4>("f32x1.2d.grad.linear.clamp.texels", t, KGRAD2D, n);
				}
				CK(cudaDestroyTextureObject(t));
			}
	CK(cudaFreeArray(a));
}

static void pitch_and_linear(void)
{
	// pitch2D: 5 x 3 floats in rows of 128 bytes
	float *p;
	size_t pitch;
	float hv[3][32];
	CK(cudaMallocPitch((void **)&p, &pitch, 5 * 4, 3));
	tex_pitch(hv);
	CK(cudaMemcpy2D(p, pitch, hv, sizeof hv[0], 5 * 4, 3, cudaMemcpyHostToDevice));
	printf("pitch2d.pitch %zu\n", pitch);
	for (int fm = 0; fm < 2; fm++) {
		cudaResourceDesc r;
		cudaTextureDesc d;
		cudaTextureObject_t t;
		memset(&r, 0, sizeof r);
		memset(&d, 0, sizeof d);
		r.resType = cudaResourceTypePitch2D;
		r.res.pitch2D.devPtr = p;
		r.res.pitch2D.desc = cudaCreateChannelDesc<float>();
		r.res.pitch2D.width = 5;
		r.res.pitch2D.height = 3;
		r.res.pitch2D.pitchInBytes = pitch;
		d.addressMode[0] = d.addressMode[1] = cudaAddressModeClamp;
		d.filterMode = (cudaTextureFilterMode)fm;
		CK(cudaCreateTextureObject(&t, &r, &d, NULL));
		int n = grid2d(g2, NG2, 5, 3, 0, 0, 0);
		run<float4>(fm ? "pitch2d.f32x1.linear.clamp" : "pitch2d.f32x1.point.clamp", t, K2D, n);
		CK(cudaDestroyTextureObject(t));
	}
	CK(cudaFree(p));

	// linear: 8 ints, and 6 uchar4s read as normalized floats
	int *q;
	CK(cudaMalloc((void **)&q, 64));
	CK(cudaMemcpy(q, tex_linear_s32, sizeof tex_linear_s32, cudaMemcpyHostToDevice));
	const float fx[] = { -1.f, 0.f, 1.f, 7.f, 8.f, 9.f, 15.f, 16.f, 1048576.f, -1048576.f };
	for (int k = 0; k < 2; k++) {
		cudaResourceDesc r;
		cudaTextureDesc d;
		cudaTextureObject_t t;
		memset(&r, 0, sizeof r);
		memset(&d, 0, sizeof d);
		r.resType = cudaResourceTypeLinear;
		r.res.linear.devPtr = q;
		r.res.linear.desc = k ? cudaCreateChannelDesc<uchar4>() : cudaCreateChannelDesc<int>();
		r.res.linear.sizeInBytes = 32;
		d.readMode = k ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
		CK(cudaCreateTextureObject(&t, &r, &d, NULL));
		int n = 0;
		for (unsigned i = 0; i < sizeof fx / sizeof fx[0]; i++)
			hc[n++] = make_float4(fx[i], 0, 0, 0);
		if (k)
			run<float4>("linear.u8x4.fetch.normalized", t, KFETCH, n);
		else
			run<int4>("linear.s32x1.fetch", t, KFETCH, n);
		CK(cudaDestroyTextureObject(t));
	}
	CK(cudaFree(q));
}

static void volumes(void)
{
	float v3[3 * 3 * 3], lay[2 * 2 * 3], cube[2 * 2 * 6];
	tex_volumes(v3, lay, cube);
	cudaArray_t a = array3d(cudaCreateChannelDesc<float>(), 3, 3, 3, v3, 4, 0);
	const float g3[] = { -0.2f, 0.5f, 1.1f, 1.75f, 2.9f, 3.4f };
	for (int fm = 0; fm < 2; fm++) {
		cudaTextureObject_t t = texobj(a, cudaAddressModeClamp,
			(cudaTextureFilterMode)fm, cudaReadModeElementType, 0, NULL);
		int n = 0;
		for (int k = 0; k < 6; k++)
			for (int j = 0; j < 6; j++)
				for (int i = 0; i < 6; i++)
					hc[n++] = make_float4(g3[i], g3[j], g3[k], 0);
		run<float4>(fm ? "f32x1.3d.linear.clamp.texels" : "f32x1.3d.point.clamp.texels",
			    t, K3D, n);
		CK(cudaDestroyTextureObject(t));
	}
	CK(cudaFreeArray(a));

	a = array3d(cudaCreateChannelDesc<float>(), 2, 2, 3, lay, 4, cudaArrayLayered);
	for (int fm = 0; fm < 2; fm++) {
		cudaTextureObject_t t = texobj(a, cudaAddressModeClamp,
			(cudaTextureFilterMode)fm, cudaReadModeElementType, 0, NULL);
		const float gl[] = { -0.5f, 0.5f, 0.8f, 1.5f, 2.5f };
		const int layers[] = { -1, 0, 1, 2, 3, 100 };
		int n = 0;
		for (int l = 0; l < 6; l++)
			for (int j = 0; j < 5; j++)
				for (int i = 0; i < 5; i++)
					hc[n++] = make_float4(gl[i], gl[j], 0, (float)layers[l]);
		run<float4>(fm ? "f32x1.a2d.linear.clamp.texels" : "f32x1.a2d.point.clamp.texels",
			    t, KA2D, n);
		CK(cudaDestroyTextureObject(t));
	}
	CK(cudaFreeArray(a));

	a = array3d(cudaCreateChannelDesc<float>(), 2, 2, 6, cube, 4, cudaArrayCubemap);
	for (int fm = 0; fm < 2; fm++) {
		cudaTextureObject_t t = texobj(a, cudaAddressModeClamp,
			(cudaTextureFilterMode)fm, cudaReadModeElementType, 1, NULL);
		const float gc[] = { -1.f, -0.6f, -0.2f, 0.f, 0.3f, 0.9f, 1.f };
		int n = 0;
		for (int k = 0; k < 7; k++)
			for (int j = 0; j < 7; j++)
				for (int i = 0; i < 7; i++)
					hc[n++] = make_float4(gc[i], gc[j], gc[k], 0);
		run<float4>(fm ? "f32x1.cube.linear" : "f32x1.cube.point", t, KCUBE, n);
		CK(cudaDestroyTextureObject(t));
	}
	CK(cudaFreeArray(a));
}

// Surfaces: x in bytes. Loads at each (x, y) with each boundary mode but
// trap; stores of a byte vector and a word, read back by a copy.
__global__ void sload(cudaSurfaceObject_t s, const int2 *c, uint4 *out, int n)
{
	int i = threadIdx.x;
	if (i >= n)
		return;
	int x = c[i].x, y = c[i].y;
	unsigned a = surf2Dread<unsigned>(s, x, y, cudaBoundaryModeZero);
	unsigned b = surf2Dread<unsigned>(s, x, y, cudaBoundaryModeClamp);
	uchar4 u = surf2Dread<uchar4>(s, x, y, cudaBoundaryModeClamp);
	unsigned short h = surf2Dread<unsigned short>(s, x, y, cudaBoundaryModeZero);
	out[i] = make_uint4(a, b, u.x | u.y << 8 | u.z << 16 | (unsigned)u.w << 24, h);
}

__global__ void sstore(cudaSurfaceObject_t s, const int2 *c, int n)
{
	int i = threadIdx.x;
	if (i >= n)
		return;
	int x = c[i].x, y = c[i].y;
	if (i & 1)
		surf2Dwrite(0xa0000000u + i, s, x, y, cudaBoundaryModeZero);
	else
		surf2Dwrite(make_uchar4(i, i + 1, i + 2, i + 3), s, x, y, cudaBoundaryModeClamp);
}

__global__ void strap(cudaSurfaceObject_t s, int x, int y, unsigned *out)
{
	*out = surf2Dread<unsigned>(s, x, y, cudaBoundaryModeTrap);
}

static cudaSurfaceObject_t surface(cudaArray_t a)
{
	cudaResourceDesc r;
	cudaSurfaceObject_t s;
	memset(&r, 0, sizeof r);
	r.resType = cudaResourceTypeArray;
	r.res.array.array = a;
	CK(cudaCreateSurfaceObject(&s, &r));
	return s;
}

static void surfaces(void)
{
	unsigned v[4 * 3];
	tex_surface(v);
	cudaArray_t a = array2d(cudaCreateChannelDesc<unsigned>(), 4, 3, v, 4,
				cudaArraySurfaceLoadStore);
	cudaSurfaceObject_t s = surface(a);
	const int cx[] = { -8, -4, 0, 4, 8, 12, 16, 20, 1000 };
	const int cy[] = { -1, 0, 2, 3, 7 };
	int2 hc2[128];
	int n = 0;
	for (int j = 0; j < 5; j++)
		for (int i = 0; i < 9; i++)
			hc2[n++] = make_int2(cx[i], cy[j]);
	int2 *d2;
	uint4 *o, ho[128];
	CK(cudaMalloc((void **)&d2, sizeof hc2));
	CK(cudaMalloc((void **)&o, sizeof ho));
	CK(cudaMemcpy(d2, hc2, sizeof hc2, cudaMemcpyHostToDevice));
	sload<<<1, 128>>>(s, d2, o, n);
	CK(cudaGetLastError());
	CK(cudaMemcpy(ho, o, n * sizeof(uint4), cudaMemcpyDeviceToHost));
	for (int i = 0; i < n; i++)
		printf("surf.u32.2d.load %d %d: %08x %08x %08x %08x\n", hc2[i].x, hc2[i].y,
		       ho[i].x, ho[i].y, ho[i].z, ho[i].w);
	// stores: in range and out, one lane each (distinct targets first)
	const int sx[] = { 0, 4, 8, 12, 0, 4, -4, 16, 12, 100, 0, 4 };
	const int sy[] = { 0, 0, 1, 1, 2, 2, 0, 1, 5, 2, -3, 9 };
	n = 12;
	for (int i = 0; i < n; i++)
		hc2[i] = make_int2(sx[i], sy[i]);
	CK(cudaMemcpy(d2, hc2, sizeof hc2, cudaMemcpyHostToDevice));
	for (int i = 0; i < n; i++) {
		// one store a launch, so that the order of lanes is no question
		sstore<<<1, 32>>>(s, d2 + i, 1);
		CK(cudaGetLastError());
		CK(cudaDeviceSynchronize());
		// the thread index is 0: a byte vector with clamp
		unsigned back[12];
		CK(cudaMemcpy2DFromArray(back, 16, a, 0, 0, 16, 3, cudaMemcpyDeviceToHost));
		printf("surf.u32.2d.store %d %d:", sx[i], sy[i]);
		for (int k = 0; k < 12; k++)
			printf(" %08x", back[k]);
		printf("\n");
	}
	CK(cudaDestroySurfaceObject(s));
	CK(cudaFree(d2));
	CK(cudaFree(o));
	CK(cudaFreeArray(a));
}

// The cases that end their context, one a process: a load past the
// width with the trap mode, and one whose x is not a multiple of its size.
__global__ void smis(cudaSurfaceObject_t s, int x, int y, unsigned *out)
{
	*out = surf2Dread<unsigned>(s, x, y, cudaBoundaryModeZero);
}

static void risky(const char *which)
{
	unsigned v[4] = { 1, 2, 3, 4 }, *o;
	cudaArray_t a = array2d(cudaCreateChannelDesc<unsigned>(), 2, 2, v, 4,
				cudaArraySurfaceLoadStore);
	cudaSurfaceObject_t s = surface(a);
	CK(cudaMalloc((void **)&o, 4));
	if (!strcmp(which, "trap"))
		strap<<<1, 1>>>(s, 8, 0, o);
	else
		smis<<<1, 1>>>(s, 2, 0, o);
	cudaError_t e = cudaDeviceSynchronize();
	printf("surf.%s: %s\n", which, cudaGetErrorName(e));
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		risky(argv[1]);
		return 0;
	}
	CK(cudaMalloc((void **)&dc, sizeof hc));
	CK(cudaMalloc((void **)&dout, sizeof hc));
	floats1d();
	ints1d();
	floats2d();
	unorm4_2d();
	pitch_and_linear();
	volumes();
	surfaces();
	CK(cudaFree(dc));
	CK(cudaFree(dout));
	printf("texture.done\n");
	return 0;
}
