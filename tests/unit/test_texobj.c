/*
 * test_texobj.c - texture and surface objects: handles (small numbers
 * from 1, the lowest free first, textures and surfaces alike); what each
 * resource kind takes and refuses (linear and pitch2D alignment, formats
 * and bounds, arrays, no mipmapped arrays), the texture descriptor's and
 * the view's checks, each with its CUresult and no object made; the
 * descriptors read back as the driver writes them; the order of the
 * checks against cuInit, the current context and other contexts; a
 * surface of an array without SURFACE_LDST and one made with no current
 * context; destroy of a destroyed, made-up or other kind's handle;
 * objects outliving their array but not their context (destroyed, reset,
 * last released); what a launch's view of an object (cuemu_texobj_view)
 * holds; and the runtime's cuda*Object calls on them. The facts follow
 * probes/results/texobj.txt. Linked with libcuemu's own objects, for the
 * view.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cuda.h"
#include "cuda_runtime_api.h"
#include "model/texobj.h"
#include "tap.h"

#define KIB 1024ull
#define MIB (1024ull * KIB)
#define SENTINEL 0xdeadbeefcafeull

static CUcontext g_ctx;
static CUdeviceptr g_mem;          /* 4 MiB of device memory */
/* Refused creates that wrote their handle: none should. */
static int g_touched;

/* ---------------------------------------------------------------- builders */

static CUDA_RESOURCE_DESC lin(CUdeviceptr p, CUarray_format f, unsigned n,
			      size_t bytes)
{
	CUDA_RESOURCE_DESC r;

	memset(&r, 0, sizeof r);
	r.resType = CU_RESOURCE_TYPE_LINEAR;
	r.res.linear.devPtr = p;
	r.res.linear.format = f;
	r.res.linear.numChannels = n;
	r.res.linear.sizeInBytes = bytes;
	return r;
}

static CUDA_RESOURCE_DESC pitch(CUdeviceptr p, CUarray_format f, unsigned n,
				size_t w, size_t h, size_t bytes)
{
	CUDA_RESOURCE_DESC r;

	memset(&r, 0, sizeof r);
	r.resType = CU_RESOURCE_TYPE_PITCH2D;
	r.res.pitch2D.devPtr = p;
	r.res.pitch2D.format = f;
	r.res.pitch2D.numChannels = n;
	r.res.pitch2D.width = w;
	r.res.pitch2D.height = h;
	r.res.pitch2D.pitchInBytes = bytes;
	return r;
}

static CUDA_RESOURCE_DESC arr(CUarray a)
{
	CUDA_RESOURCE_DESC r;

	memset(&r, 0, sizeof r);
	r.resType = CU_RESOURCE_TYPE_ARRAY;
	r.res.array.hArray = a;
	return r;
}

/* Clamped, point-sampled, unnormalized. */
static CUDA_TEXTURE_DESC tdesc(void)
{
	CUDA_TEXTURE_DESC t;

	memset(&t, 0, sizeof t);
	t.addressMode[0] = t.addressMode[1] = t.addressMode[2] =
		CU_TR_ADDRESS_MODE_CLAMP;
	t.filterMode = CU_TR_FILTER_MODE_POINT;
	return t;
}

static CUDA_RESOURCE_VIEW_DESC vdesc(CUresourceViewFormat f, size_t w,
				     size_t h, size_t d)
{
	CUDA_RESOURCE_VIEW_DESC v;

	memset(&v, 0, sizeof v);
	v.format = f;
	v.width = w;
	v.height = h;
	v.depth = d;
	return v;
}

static CUarray mkarr(size_t w, size_t h, size_t d, CUarray_format f,
		     unsigned n, unsigned flags)
{
	CUDA_ARRAY3D_DESCRIPTOR ad = { w, h, d, f, n, flags };
	CUarray a = NULL;

	if (cuArray3DCreate(&a, &ad) != CUDA_SUCCESS)
		printf("# array %zux%zux%zu format %#x x%u flags %#x: not made\n",
		       w, h, d, (unsigned)f, n, flags);
	return a;
}

/* Creates a texture (and destroys it): the answer. A refusal that wrote
 * the handle is counted in g_touched. */
static CUresult try_tex(const CUDA_RESOURCE_DESC *r,
			const CUDA_TEXTURE_DESC *t,
			const CUDA_RESOURCE_VIEW_DESC *v)
{
	CUtexObject h = SENTINEL;
	CUresult rc = cuTexObjectCreate(&h, r, t, v);

	if (rc == CUDA_SUCCESS)
		cuTexObjectDestroy(h);
	else if (h != SENTINEL)
		g_touched++;
	return rc;
}

static CUresult try_surf(const CUDA_RESOURCE_DESC *r)
{
	CUsurfObject h = SENTINEL;
	CUresult rc = cuSurfObjectCreate(&h, r);

	if (rc == CUDA_SUCCESS)
		cuSurfObjectDestroy(h);
	else if (h != SENTINEL)
		g_touched++;
	return rc;
}

static CUtexObject mktex(const CUDA_RESOURCE_DESC *r,
			 const CUDA_TEXTURE_DESC *t,
			 const CUDA_RESOURCE_VIEW_DESC *v)
{
	CUtexObject h = 0;

	if (cuTexObjectCreate(&h, r, t, v) != CUDA_SUCCESS)
		printf("# a texture that should be made was not\n");
	return h;
}

static CUsurfObject mksurf(CUarray a)
{
	CUDA_RESOURCE_DESC r = arr(a);
	CUsurfObject h = 0;

	if (cuSurfObjectCreate(&h, &r) != CUDA_SUCCESS)
		printf("# a surface that should be made was not\n");
	return h;
}

/* No object of either kind under the first handles: what a section that
 * destroyed all it made leaves, refused creates included. */
static bool none_live(void)
{
	struct cuemu_texview v;

	for (uint64_t h = 1; h <= 16; h++)
		if (cuemu_texobj_view(h, false, &v) == CUDA_SUCCESS ||
		    cuemu_texobj_view(h, true, &v) == CUDA_SUCCESS)
			return false;
	return true;
}

static bool all_bytes(const void *p, size_t n, unsigned char b)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++)
		if (c[i] != b)
			return false;
	return true;
}

/* ---------------------------------------------------------------- cases */

/* Every entry before cuInit, in a child that never initializes. */
static void before_init(void)
{
	static const char *const names[] = {
		"cuTexObjectCreate", "cuTexObjectDestroy",
		"cuTexObjectGetResourceDesc", "cuTexObjectGetTextureDesc",
		"cuTexObjectGetResourceViewDesc", "cuSurfObjectCreate",
		"cuSurfObjectDestroy", "cuSurfObjectGetResourceDesc",
	};
	pid_t pid = fork();
	int st = 0;

	if (pid == 0) {
		CUDA_RESOURCE_DESC r = lin(0, CU_AD_FORMAT_FLOAT, 1, 0), rd;
		CUDA_TEXTURE_DESC t = tdesc(), td;
		CUDA_RESOURCE_VIEW_DESC vd;
		CUtexObject h;
		CUsurfObject s;
		CUresult got[8] = {
			cuTexObjectCreate(NULL, NULL, NULL, NULL),
			cuTexObjectDestroy(1),
			cuTexObjectGetResourceDesc(&rd, 1),
			cuTexObjectGetTextureDesc(&td, 1),
			cuTexObjectGetResourceViewDesc(&vd, 1),
			cuSurfObjectCreate(&s, NULL),
			cuSurfObjectDestroy(1),
			cuSurfObjectGetResourceDesc(&rd, 1),
		};
		int bits = 0;

		(void)h;
		(void)r;
		(void)t;
		for (int i = 0; i < 8; i++)
			if (got[i] != CUDA_ERROR_NOT_INITIALIZED)
				bits |= 1 << i;
		_exit(bits);
	}
	waitpid(pid, &st, 0);
	for (int i = 0; i < 8; i++)
		ok(WIFEXITED(st) && !(WEXITSTATUS(st) & 1 << i),
		   "%s before cuInit: CUDA_ERROR_NOT_INITIALIZED, whatever "
		   "its arguments", names[i]);
}

static void handles(void)
{
	CUarray a = mkarr(64, 64, 0, CU_AD_FORMAT_FLOAT, 1,
			  CUDA_ARRAY3D_SURFACE_LDST);
	CUDA_RESOURCE_DESC l = lin(g_mem, CU_AD_FORMAT_FLOAT, 1, 4096);
	CUDA_TEXTURE_DESC t = tdesc();
	CUtexObject t1, t2, t3, t4;
	CUsurfObject s1, s2;

	ok(none_live(), "no object before the first");
	t1 = mktex(&l, &t, NULL);
	t2 = mktex(&l, &t, NULL);
	s1 = mksurf(a);
	t3 = mktex(&l, &t, NULL);
	s2 = mksurf(a);
	ok(t1 == 1 && t2 == 2 && s1 == 3 && t3 == 4 && s2 == 5,
	   "handles count from 1, textures and surfaces alike: %llu %llu "
	   "%llu %llu %llu", t1, t2, s1, t3, s2);
	is_res(cuTexObjectDestroy(t2), CUDA_SUCCESS, "a texture destroyed");
	t4 = mktex(&l, &t, NULL);
	is_int(t4, 2, "its handle is the lowest free, the next one's");
	is_res(cuSurfObjectDestroy(s1), CUDA_SUCCESS, "a surface destroyed");
	t2 = mktex(&l, &t, NULL);
	is_int(t2, 3, "a texture takes a surface's freed handle");
	cuTexObjectDestroy(t1);
	cuTexObjectDestroy(t2);
	cuTexObjectDestroy(t3);
	cuTexObjectDestroy(t4);
	cuSurfObjectDestroy(s2);
	ok(none_live(), "all destroyed, none left");
	t1 = mktex(&l, &t, NULL);
	s1 = mksurf(a);
	ok(t1 == 1 && s1 == 2, "and the numbers start again from 1");
	cuTexObjectDestroy(t1);
	cuSurfObjectDestroy(s1);
	cuArrayDestroy(a);
}

static void linear(void)
{
	CUDA_TEXTURE_DESC t = tdesc();
	CUDA_RESOURCE_DESC r, rd;
	CUDA_RESOURCE_VIEW_DESC v, vd;
	CUtexObject h;

	r = lin(g_mem + 1024, CU_AD_FORMAT_HALF, 2, 8192);
	h = mktex(&r, &t, NULL);
	memset(&rd, 0xab, sizeof rd);
	is_res(cuTexObjectGetResourceDesc(&rd, h), CUDA_SUCCESS,
	       "linear: its resource read back");
	ok(rd.resType == CU_RESOURCE_TYPE_LINEAR &&
	   rd.res.linear.devPtr == g_mem + 1024 &&
	   rd.res.linear.format == CU_AD_FORMAT_HALF &&
	   rd.res.linear.numChannels == 2 &&
	   rd.res.linear.sizeInBytes == 8192 && rd.flags == 0,
	   "as made: pointer, format, channels, size, flags");
	ok(all_bytes(&rd.res.reserved.reserved[6], 26 * sizeof(int), 0xab),
	   "the rest of the union left as it was");
	cuTexObjectDestroy(h);

	static const struct { CUarray_format f; unsigned n; CUresult want; }
	fmts[] = {
		{ CU_AD_FORMAT_FLOAT, 1, CUDA_SUCCESS },
		{ CU_AD_FORMAT_FLOAT, 4, CUDA_SUCCESS },
		{ CU_AD_FORMAT_UNSIGNED_INT8, 1, CUDA_SUCCESS },
		{ CU_AD_FORMAT_SIGNED_INT16, 2, CUDA_SUCCESS },
		{ CU_AD_FORMAT_UNSIGNED_INT32, 4, CUDA_SUCCESS },
		{ CU_AD_FORMAT_UNORM_INT_101010_2, 4, CUDA_SUCCESS },
		{ CU_AD_FORMAT_UNORM_INT_101010_2, 1, CUDA_SUCCESS },
		{ CU_AD_FORMAT_FLOAT, 3, CUDA_ERROR_INVALID_VALUE },
		{ CU_AD_FORMAT_FLOAT, 0, CUDA_ERROR_INVALID_VALUE },
		{ CU_AD_FORMAT_FLOAT, 5, CUDA_ERROR_INVALID_VALUE },
		{ CU_AD_FORMAT_UNORM_INT8X1, 1, CUDA_ERROR_INVALID_VALUE },
		{ CU_AD_FORMAT_SNORM_INT16X4, 4, CUDA_ERROR_INVALID_VALUE },
		{ CU_AD_FORMAT_BC1_UNORM, 4, CUDA_ERROR_INVALID_VALUE },
		{ CU_AD_FORMAT_NV12, 1, CUDA_ERROR_INVALID_VALUE },
		{ (CUarray_format)0, 1, CUDA_ERROR_INVALID_VALUE },
	};
	for (size_t i = 0; i < sizeof fmts / sizeof *fmts; i++) {
		r = lin(g_mem, fmts[i].f, fmts[i].n, 4096);
		is_res(try_tex(&r, &t, NULL), fmts[i].want,
		       "linear of format %#x, %u channels", (unsigned)fmts[i].f,
		       fmts[i].n);
	}

	r = lin(0, CU_AD_FORMAT_FLOAT, 1, 4096);
	is_res(try_tex(&r, &t, NULL), CUDA_ERROR_INVALID_VALUE, "devPtr 0");
	r = lin(g_mem + 4, CU_AD_FORMAT_FLOAT, 1, 4096);
	is_res(try_tex(&r, &t, NULL), CUDA_ERROR_INVALID_VALUE,
	       "devPtr 4 bytes past a 512-byte boundary");
	r = lin(g_mem + 256, CU_AD_FORMAT_FLOAT, 1, 4096);
	is_res(try_tex(&r, &t, NULL), CUDA_ERROR_INVALID_VALUE,
	       "devPtr 256 bytes past (the texture alignment is 512)");
	r = lin(g_mem + 512, CU_AD_FORMAT_FLOAT, 1, 4096);
	is_res(try_tex(&r, &t, NULL), CUDA_SUCCESS, "devPtr 512 bytes in");
	r = lin(0x7f0000000000ull, CU_AD_FORMAT_FLOAT, 1, 4096);
	is_res(try_tex(&r, &t, NULL), CUDA_SUCCESS,
	       "an address no allocation holds: the pointer is not looked up");
	r = lin(g_mem, CU_AD_FORMAT_FLOAT, 1, 0);
	is_res(try_tex(&r, &t, NULL), CUDA_SUCCESS, "a size of 0");
	r = lin(g_mem, CU_AD_FORMAT_FLOAT, 1, 1023);
	is_res(try_tex(&r, &t, NULL), CUDA_SUCCESS,
	       "a size no whole number of elements");
	r = lin(g_mem, CU_AD_FORMAT_FLOAT, 1, 8 * MIB);
	is_res(try_tex(&r, &t, NULL), CUDA_SUCCESS,
	       "a size past the allocation: not compared");
	r = lin(g_mem, CU_AD_FORMAT_FLOAT, 1, 4ull << 30);
	is_res(try_tex(&r, &t, NULL), CUDA_SUCCESS, "4 GiB of floats (2^30)");
	r = lin(g_mem, CU_AD_FORMAT_FLOAT, 1, (4ull << 30) + 4);
	is_res(try_tex(&r, &t, NULL), CUDA_ERROR_INVALID_VALUE,
	       "a float more");
	r = lin(g_mem, CU_AD_FORMAT_UNSIGNED_INT8, 1, 1ull << 30);
	is_res(try_tex(&r, &t, NULL), CUDA_SUCCESS, "2^30 bytes of uint8");
	r = lin(g_mem, CU_AD_FORMAT_UNSIGNED_INT8, 1, (1ull << 30) + 1);
	is_res(try_tex(&r, &t, NULL), CUDA_ERROR_INVALID_VALUE,
	       "a byte more: 2^30 elements at most");
	r = lin(g_mem, CU_AD_FORMAT_FLOAT, 4, (4ull << 30) + 15);
	is_res(try_tex(&r, &t, NULL), CUDA_SUCCESS,
	       "4 GiB of float4 and part of one");
	r = lin(g_mem, CU_AD_FORMAT_FLOAT, 4, (4ull << 30) + 16);
	is_res(try_tex(&r, &t, NULL), CUDA_ERROR_INVALID_VALUE,
	       "a float4 more: 4 GiB at most");

	r = lin(g_mem, CU_AD_FORMAT_FLOAT, 1, 4096);
	t.filterMode = CU_TR_FILTER_MODE_LINEAR;
	is_res(try_tex(&r, &t, NULL), CUDA_SUCCESS, "linear filtering");
	t.filterMode = (CUfilter_mode)2;
	is_res(try_tex(&r, &t, NULL), CUDA_ERROR_INVALID_VALUE,
	       "filter mode 2");
	t = tdesc();
	t.mipmapFilterMode = (CUfilter_mode)2;
	is_res(try_tex(&r, &t, NULL), CUDA_ERROR_INVALID_VALUE,
	       "mipmap filter mode 2");
	t = tdesc();
	t.addressMode[0] = (CUaddress_mode)4;
	is_res(try_tex(&r, &t, NULL), CUDA_ERROR_INVALID_VALUE,
	       "address mode 4 in x");
	t = tdesc();
	t.addressMode[1] = (CUaddress_mode)4;
	is_res(try_tex(&r, &t, NULL), CUDA_SUCCESS,
	       "address mode 4 in y: linear memory has no y");
	t = tdesc();
	t.addressMode[0] = CU_TR_ADDRESS_MODE_WRAP;
	is_res(try_tex(&r, &t, NULL), CUDA_SUCCESS,
	       "wrap with unnormalized coordinates");
	t = tdesc();
	t.flags = 0x80;
	is_res(try_tex(&r, &t, NULL), CUDA_ERROR_INVALID_VALUE, "flag 0x80");
	t.flags = CU_TRSF_SEAMLESS_CUBEMAP;
	is_res(try_tex(&r, &t, NULL), CUDA_ERROR_INVALID_VALUE,
	       "seamless cubemap filtering of linear memory");
	r = lin(g_mem, CU_AD_FORMAT_UNSIGNED_INT8, 1, 4096);
	t = tdesc();
	t.filterMode = CU_TR_FILTER_MODE_LINEAR;
	t.flags = CU_TRSF_READ_AS_INTEGER;
	is_res(try_tex(&r, &t, NULL), CUDA_SUCCESS,
	       "linear filtering of uint8 read as integers");

	/* a view of linear memory is ignored */
	r = lin(g_mem, CU_AD_FORMAT_FLOAT, 1, 4096);
	t = tdesc();
	v = vdesc((CUresourceViewFormat)99, 7, 7, 7);
	v.reserved[0] = 5;
	h = mktex(&r, &t, &v);
	ok(h != 0, "a view of linear memory, however wrong, is ignored");
	memset(&vd, 0xab, sizeof vd);
	is_res(cuTexObjectGetResourceViewDesc(&vd, h), CUDA_SUCCESS,
	       "its view read back: a success");
	ok(all_bytes(&vd, sizeof vd, 0xab), "that writes nothing");
	cuTexObjectDestroy(h);
	is_int(g_touched, 0, "no refusal wrote the handle");
	ok(none_live(), "no refusal made an object");
}

static void pitched(void)
{
	CUDA_TEXTURE_DESC t = tdesc();
	CUDA_RESOURCE_DESC r, rd;
	CUtexObject h;

	r = pitch(g_mem + 512, CU_AD_FORMAT_UNSIGNED_INT16, 4, 60, 30, 512);
	h = mktex(&r, &t, NULL);
	memset(&rd, 0xab, sizeof rd);
	is_res(cuTexObjectGetResourceDesc(&rd, h), CUDA_SUCCESS,
	       "pitch2D: its resource read back");
	ok(rd.resType == CU_RESOURCE_TYPE_PITCH2D &&
	   rd.res.pitch2D.devPtr == g_mem + 512 &&
	   rd.res.pitch2D.format == CU_AD_FORMAT_UNSIGNED_INT16 &&
	   rd.res.pitch2D.numChannels == 4 && rd.res.pitch2D.width == 60 &&
	   rd.res.pitch2D.height == 30 && rd.res.pitch2D.pitchInBytes == 512,
	   "as made");
	cuTexObjectDestroy(h);

	static const struct { const char *what; size_t off, w, h, p;
			      CUresult want; } k[] = {
		{ "devPtr 32 bytes past", 32, 100, 64, 512,
		  CUDA_ERROR_INVALID_VALUE },
		{ "a pitch of 500, not a multiple of 32", 0, 100, 64, 500,
		  CUDA_ERROR_INVALID_VALUE },
		{ "a pitch of 416 for rows of 400", 0, 100, 64, 416,
		  CUDA_SUCCESS },
		{ "a pitch of 384, below the row: not compared", 0, 100, 64,
		  384, CUDA_SUCCESS },
		{ "a pitch of 0", 0, 100, 64, 0, CUDA_SUCCESS },
		{ "a width of 0", 0, 0, 64, 512, CUDA_SUCCESS },
		{ "a height of 0", 0, 100, 0, 512, CUDA_SUCCESS },
		{ "a width of 131072, the device's linear maximum", 0, 131072,
		  2, 524288, CUDA_SUCCESS },
		{ "a width of 131073", 0, 131073, 2, 524800,
		  CUDA_ERROR_INVALID_VALUE },
		{ "a height of 65000, the maximum", 0, 16, 65000, 64,
		  CUDA_SUCCESS },
		{ "a height of 65001", 0, 16, 65001, 64,
		  CUDA_ERROR_INVALID_VALUE },
		{ "a pitch of 2097120, the maximum", 0, 16, 2, 2097120,
		  CUDA_SUCCESS },
		{ "a pitch of 2 MiB", 0, 16, 2, 2097152,
		  CUDA_ERROR_INVALID_VALUE },
		{ "rows past the allocation: not compared", 0, 100, 65000, 512,
		  CUDA_SUCCESS },
	};
	for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
		r = pitch(g_mem + k[i].off, CU_AD_FORMAT_FLOAT, 1, k[i].w,
			  k[i].h, k[i].p);
		is_res(try_tex(&r, &t, NULL), k[i].want, "pitch2D: %s",
		       k[i].what);
	}
	r = pitch(0, CU_AD_FORMAT_FLOAT, 1, 100, 64, 512);
	is_res(try_tex(&r, &t, NULL), CUDA_ERROR_INVALID_VALUE,
	       "pitch2D: devPtr 0");
	r = pitch(g_mem, CU_AD_FORMAT_FLOAT, 3, 100, 64, 512);
	is_res(try_tex(&r, &t, NULL), CUDA_ERROR_INVALID_VALUE,
	       "pitch2D: 3 channels");
	r = pitch(g_mem, CU_AD_FORMAT_BC1_UNORM, 4, 64, 64, 512);
	is_res(try_tex(&r, &t, NULL), CUDA_ERROR_INVALID_VALUE,
	       "pitch2D: block-compressed");
	r = pitch(g_mem, CU_AD_FORMAT_FLOAT, 1, 100, 64, 512);
	t.addressMode[1] = (CUaddress_mode)4;
	is_res(try_tex(&r, &t, NULL), CUDA_ERROR_INVALID_VALUE,
	       "pitch2D: address mode 4 in y");
	t = tdesc();
	t.addressMode[2] = (CUaddress_mode)7;
	is_res(try_tex(&r, &t, NULL), CUDA_SUCCESS,
	       "pitch2D: address mode 7 in z, which it has not");
	is_int(g_touched, 0, "no refusal wrote the handle");
	ok(none_live(), "no refusal made an object");
}

static void arrays(void)
{
	CUarray f2 = mkarr(64, 64, 0, CU_AD_FORMAT_FLOAT, 1, 0);
	CUarray f1 = mkarr(256, 0, 0, CU_AD_FORMAT_FLOAT, 1, 0);
	CUarray f3 = mkarr(16, 16, 16, CU_AD_FORMAT_FLOAT, 4, 0);
	CUarray l1 = mkarr(32, 0, 4, CU_AD_FORMAT_FLOAT, 1,
			   CUDA_ARRAY3D_LAYERED);
	CUarray l2 = mkarr(32, 32, 4, CU_AD_FORMAT_FLOAT, 1,
			   CUDA_ARRAY3D_LAYERED);
	CUarray cube = mkarr(16, 16, 6, CU_AD_FORMAT_FLOAT, 1,
			     CUDA_ARRAY3D_CUBEMAP);
	CUarray u8 = mkarr(64, 64, 0, CU_AD_FORMAT_UNSIGNED_INT8, 1, 0);
	CUarray u32x2 = mkarr(16, 16, 0, CU_AD_FORMAT_UNSIGNED_INT32, 2, 0);
	CUarray bc1 = mkarr(64, 64, 0, CU_AD_FORMAT_BC1_UNORM, 4, 0);
	CUarray gone = mkarr(8, 8, 0, CU_AD_FORMAT_FLOAT, 1, 0);
	CUDA_TEXTURE_DESC t = tdesc(), td;
	CUDA_RESOURCE_DESC r, rd;
	CUDA_RESOURCE_VIEW_DESC v, vd;
	CUtexObject h;

	/* every field read back, but the border colour */
	r = arr(f2);
	t.addressMode[0] = CU_TR_ADDRESS_MODE_WRAP;
	t.addressMode[1] = CU_TR_ADDRESS_MODE_MIRROR;
	t.addressMode[2] = CU_TR_ADDRESS_MODE_BORDER;
	t.filterMode = CU_TR_FILTER_MODE_LINEAR;
	t.flags = CU_TRSF_NORMALIZED_COORDINATES |
		  CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION;
	t.maxAnisotropy = 100;
	t.mipmapFilterMode = CU_TR_FILTER_MODE_LINEAR;
	t.mipmapLevelBias = 1.5f;
	t.minMipmapLevelClamp = 0.5f;
	t.maxMipmapLevelClamp = 3.0f;
	t.borderColor[0] = 0.25f;
	h = mktex(&r, &t, NULL);
	memset(&td, 0xab, sizeof td);
	is_res(cuTexObjectGetTextureDesc(&td, h), CUDA_SUCCESS,
	       "array: its texture descriptor read back");
	ok(td.addressMode[0] == CU_TR_ADDRESS_MODE_WRAP &&
	   td.addressMode[1] == CU_TR_ADDRESS_MODE_MIRROR &&
	   td.addressMode[2] == CU_TR_ADDRESS_MODE_BORDER &&
	   td.filterMode == CU_TR_FILTER_MODE_LINEAR &&
	   td.flags == (CU_TRSF_NORMALIZED_COORDINATES |
			CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION) &&
	   td.mipmapFilterMode == CU_TR_FILTER_MODE_LINEAR &&
	   td.mipmapLevelBias == 1.5f && td.minMipmapLevelClamp == 0.5f &&
	   td.maxMipmapLevelClamp == 3.0f,
	   "modes, flags and mipmap fields as made");
	is_int(td.maxAnisotropy, 100, "an anisotropy of 100, not clamped");
	ok(all_bytes(td.borderColor, sizeof td.borderColor, 0xab) &&
	   all_bytes(td.reserved, sizeof td.reserved, 0xab),
	   "border colour and reserved words left as they were");
	memset(&rd, 0xab, sizeof rd);
	is_res(cuTexObjectGetResourceDesc(&rd, h), CUDA_SUCCESS,
	       "its resource read back");
	ok(rd.resType == CU_RESOURCE_TYPE_ARRAY && rd.res.array.hArray == f2 &&
	   rd.flags == 0, "the same array");
	memset(&vd, 0xab, sizeof vd);
	is_res(cuTexObjectGetResourceViewDesc(&vd, h), CUDA_SUCCESS,
	       "made without a view, its view read back is a success");
	ok(all_bytes(&vd, sizeof vd, 0xab), "that writes nothing");
	cuTexObjectDestroy(h);

	struct { const char *what; CUarray a; unsigned flags;
		 CUfilter_mode filter; CUresult want; } k[] = {
		{ "1D", f1, 0, CU_TR_FILTER_MODE_POINT, CUDA_SUCCESS },
		{ "3D", f3, 0, CU_TR_FILTER_MODE_POINT, CUDA_SUCCESS },
		{ "layered", l2, 0, CU_TR_FILTER_MODE_POINT, CUDA_SUCCESS },
		{ "cubemap", cube, 0, CU_TR_FILTER_MODE_POINT, CUDA_SUCCESS },
		{ "block-compressed", bc1, 0, CU_TR_FILTER_MODE_LINEAR,
		  CUDA_SUCCESS },
		{ "uint8 linear-filtered, read as integers", u8,
		  CU_TRSF_READ_AS_INTEGER, CU_TR_FILTER_MODE_LINEAR,
		  CUDA_SUCCESS },
		{ "float read as integers", f2, CU_TRSF_READ_AS_INTEGER,
		  CU_TR_FILTER_MODE_POINT, CUDA_SUCCESS },
		{ "sRGB of floats", f2, CU_TRSF_SRGB, CU_TR_FILTER_MODE_POINT,
		  CUDA_SUCCESS },
		{ "flags 0x04 and 0x08, which have no name", f2, 0x0c,
		  CU_TR_FILTER_MODE_POINT, CUDA_SUCCESS },
		{ "flag 0x80", f2, 0x80, CU_TR_FILTER_MODE_POINT,
		  CUDA_ERROR_INVALID_VALUE },
		{ "seamless filtering of a 2D array", f2,
		  CU_TRSF_SEAMLESS_CUBEMAP, CU_TR_FILTER_MODE_POINT,
		  CUDA_ERROR_INVALID_VALUE },
		{ "seamless filtering of a cubemap", cube,
		  CU_TRSF_SEAMLESS_CUBEMAP, CU_TR_FILTER_MODE_LINEAR,
		  CUDA_SUCCESS },
		{ "filter mode 2", f2, 0, (CUfilter_mode)2,
		  CUDA_ERROR_INVALID_VALUE },
		{ "filter mode -1", f2, 0, (CUfilter_mode)-1,
		  CUDA_ERROR_INVALID_VALUE },
	};
	for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
		r = arr(k[i].a);
		t = tdesc();
		t.flags = k[i].flags;
		t.filterMode = k[i].filter;
		is_res(try_tex(&r, &t, NULL), k[i].want, "array: %s",
		       k[i].what);
	}

	/* address modes: only the dimensions the array has */
	struct { const char *what; CUarray a; int dim; CUresult want; } am[] = {
		{ "x of a 2D array", f2, 0, CUDA_ERROR_INVALID_VALUE },
		{ "y of a 2D array", f2, 1, CUDA_ERROR_INVALID_VALUE },
		{ "z of a 2D array", f2, 2, CUDA_SUCCESS },
		{ "y of a 1D array", f1, 1, CUDA_SUCCESS },
		{ "z of a 3D array", f3, 2, CUDA_ERROR_INVALID_VALUE },
		{ "y of 1D layers", l1, 1, CUDA_SUCCESS },
		{ "y of 2D layers", l2, 1, CUDA_ERROR_INVALID_VALUE },
		{ "z of 2D layers", l2, 2, CUDA_SUCCESS },
		{ "z of a cubemap", cube, 2, CUDA_SUCCESS },
	};
	for (size_t i = 0; i < sizeof am / sizeof *am; i++) {
		r = arr(am[i].a);
		t = tdesc();
		t.addressMode[am[i].dim] = (CUaddress_mode)4;
		is_res(try_tex(&r, &t, NULL), am[i].want,
		       "address mode 4 in %s", am[i].what);
	}
	r = arr(f2);
	t = tdesc();
	t.reserved[0] = 1;
	is_res(try_tex(&r, &t, NULL), CUDA_ERROR_INVALID_VALUE,
	       "a reserved word of the texture descriptor set");

	/* resources that are none */
	t = tdesc();
	r = arr(NULL);
	is_res(try_tex(&r, &t, NULL), CUDA_ERROR_INVALID_VALUE,
	       "a NULL array");
	cuArrayDestroy(gone);
	r = arr(gone);
	is_res(try_tex(&r, &t, NULL), CUDA_ERROR_INVALID_VALUE,
	       "a destroyed array");
	r = arr(f2);
	r.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
	is_res(try_tex(&r, &t, NULL), CUDA_ERROR_INVALID_VALUE,
	       "a mipmapped array: libcuemu makes none");
	r = arr(f2);
	r.resType = (CUresourcetype)4;
	is_res(try_tex(&r, &t, NULL), CUDA_ERROR_INVALID_VALUE,
	       "resource type 4");
	r = arr(f2);
	r.flags = 1;
	is_res(try_tex(&r, &t, NULL), CUDA_ERROR_INVALID_VALUE,
	       "resource flags 1");

	/* views */
	r = arr(f2);
	v = vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 64, 64, 0);
	h = mktex(&r, &t, &v);
	ok(h != 0, "a view of the array as it is");
	memset(&vd, 0xab, sizeof vd);
	is_res(cuTexObjectGetResourceViewDesc(&vd, h), CUDA_SUCCESS,
	       "read back");
	ok(!memcmp(&vd, &v, sizeof v), "whole, as made");
	cuTexObjectDestroy(h);
	{
		CUtexObject z = SENTINEL;

		v = vdesc(CU_RES_VIEW_FORMAT_NONE, 64, 64, 0);
		is_res(cuTexObjectCreate(&z, &r, &t, &v),
		       CUDA_ERROR_INVALID_VALUE,
		       "a view of format NONE and the array's extent");
		is_int(z, 0, "which writes 0 to the handle first");
		z = SENTINEL;
		v = vdesc(CU_RES_VIEW_FORMAT_NONE, 32, 64, 0);
		is_res(cuTexObjectCreate(&z, &r, &t, &v),
		       CUDA_ERROR_INVALID_VALUE,
		       "format NONE and another width");
		ok(z == SENTINEL, "refused before: the handle as it was");
	}
	struct { const char *what; CUarray a; CUDA_RESOURCE_VIEW_DESC v;
		 unsigned first, last; CUresult want; } vk[] = {
		{ "uint32 of floats", f2,
		  vdesc(CU_RES_VIEW_FORMAT_UINT_1X32, 64, 64, 0), 0, 0,
		  CUDA_SUCCESS },
		{ "uint8 of floats", f2,
		  vdesc(CU_RES_VIEW_FORMAT_UINT_1X8, 64, 64, 0), 0, 0,
		  CUDA_ERROR_INVALID_VALUE },
		{ "float2 of floats", f2,
		  vdesc(CU_RES_VIEW_FORMAT_FLOAT_2X32, 64, 64, 0), 0, 0,
		  CUDA_ERROR_INVALID_VALUE },
		{ "uint16x4 of uint32x2: the same bytes", u32x2,
		  vdesc(CU_RES_VIEW_FORMAT_UINT_4X16, 16, 16, 0), 0, 0,
		  CUDA_SUCCESS },
		{ "another width", f2,
		  vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 32, 64, 0), 0, 0,
		  CUDA_ERROR_INVALID_VALUE },
		{ "a depth of a 2D array", f2,
		  vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 64, 64, 1), 0, 0,
		  CUDA_ERROR_INVALID_VALUE },
		{ "a height of a 1D array", f1,
		  vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 256, 1, 0), 0, 0,
		  CUDA_ERROR_INVALID_VALUE },
		{ "a layer of a 2D array", f2,
		  vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 64, 64, 0), 1, 1,
		  CUDA_ERROR_INVALID_VALUE },
		{ "layers 1 to 2 of 4", l2,
		  vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 32, 32, 4), 1, 2,
		  CUDA_SUCCESS },
		{ "layers 2 to 1", l2,
		  vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 32, 32, 4), 2, 1,
		  CUDA_ERROR_INVALID_VALUE },
		{ "layers 0 to 100 of 4: not bounded", l2,
		  vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 32, 32, 4), 0, 100,
		  CUDA_SUCCESS },
		{ "layers 1 to 2 of 4 and a depth of 2", l2,
		  vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 32, 32, 2), 1, 2,
		  CUDA_ERROR_INVALID_VALUE },
		{ "a layer of a cubemap", cube,
		  vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 16, 16, 6), 1, 1,
		  CUDA_ERROR_INVALID_VALUE },
		{ "BC1 of uint32x2 four times as large", u32x2,
		  vdesc(CU_RES_VIEW_FORMAT_UNSIGNED_BC1, 64, 64, 0), 0, 0,
		  CUDA_SUCCESS },
		{ "BC1 of uint32x2 as large", u32x2,
		  vdesc(CU_RES_VIEW_FORMAT_UNSIGNED_BC1, 16, 16, 0), 0, 0,
		  CUDA_ERROR_INVALID_VALUE },
		{ "BC2 of uint32x2 (it needs 4 channels)", u32x2,
		  vdesc(CU_RES_VIEW_FORMAT_UNSIGNED_BC2, 64, 64, 0), 0, 0,
		  CUDA_ERROR_INVALID_VALUE },
		{ "BC1 of a BC1 array", bc1,
		  vdesc(CU_RES_VIEW_FORMAT_UNSIGNED_BC1, 64, 64, 0), 0, 0,
		  CUDA_ERROR_INVALID_VALUE },
		{ "format 99", f2, vdesc((CUresourceViewFormat)99, 64, 64, 0),
		  0, 0, CUDA_ERROR_INVALID_VALUE },
	};
	for (size_t i = 0; i < sizeof vk / sizeof *vk; i++) {
		r = arr(vk[i].a);
		v = vk[i].v;
		v.firstLayer = vk[i].first;
		v.lastLayer = vk[i].last;
		is_res(try_tex(&r, &t, &v), vk[i].want, "view: %s",
		       vk[i].what);
	}
	r = arr(f2);
	v = vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 64, 64, 0);
	v.firstMipmapLevel = v.lastMipmapLevel = 1;
	is_res(try_tex(&r, &t, &v), CUDA_ERROR_INVALID_VALUE,
	       "view: mipmap level 1 of an array that has none");
	v = vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 64, 64, 0);
	v.reserved[3] = 1;
	is_res(try_tex(&r, &t, &v), CUDA_ERROR_INVALID_VALUE,
	       "view: a reserved word set");
	is_int(g_touched, 0, "no refusal but NONE's wrote the handle");
	ok(none_live(), "no refusal made an object");

	CUarray all[] = { f2, f1, f3, l1, l2, cube, u8, u32x2, bc1 };
	for (size_t i = 0; i < sizeof all / sizeof *all; i++)
		cuArrayDestroy(all[i]);
}

static void order(void)
{
	CUarray a = mkarr(64, 64, 0, CU_AD_FORMAT_FLOAT, 1, 0);
	CUDA_RESOURCE_DESC l = lin(g_mem, CU_AD_FORMAT_FLOAT, 1, 4096), rd;
	CUDA_RESOURCE_DESC ar = arr(a), bad = l;
	CUDA_TEXTURE_DESC t = tdesc(), td;
	CUDA_RESOURCE_VIEW_DESC vd;
	CUtexObject h = mktex(&l, &t, NULL), h2;
	CUsurfObject s = mksurf(a), s2;
	CUcontext c2;

	bad.resType = (CUresourcetype)9;
	is_res(cuTexObjectCreate(NULL, &l, &t, NULL), CUDA_ERROR_INVALID_VALUE,
	       "no handle");
	is_res(try_tex(NULL, &t, NULL), CUDA_ERROR_INVALID_VALUE,
	       "no resource");
	is_res(try_tex(&l, NULL, NULL), CUDA_ERROR_INVALID_VALUE,
	       "no texture descriptor");
	is_res(try_tex(&bad, NULL, NULL), CUDA_ERROR_INVALID_VALUE,
	       "resource type 9 and no texture descriptor");
	is_res(cuTexObjectGetResourceDesc(NULL, h), CUDA_ERROR_INVALID_VALUE,
	       "a resource asked into NULL");
	is_res(cuTexObjectGetTextureDesc(NULL, h), CUDA_ERROR_INVALID_VALUE,
	       "a texture descriptor asked into NULL");
	is_res(cuTexObjectGetResourceViewDesc(NULL, h),
	       CUDA_ERROR_INVALID_VALUE, "a view asked into NULL");
	is_res(cuSurfObjectGetResourceDesc(NULL, s), CUDA_ERROR_INVALID_VALUE,
	       "a surface's resource asked into NULL");
	is_res(cuTexObjectGetResourceDesc(&rd, 0), CUDA_ERROR_INVALID_VALUE,
	       "texture 0");
	is_res(cuSurfObjectGetResourceDesc(&rd, 0), CUDA_ERROR_INVALID_VALUE,
	       "surface 0");
	is_res(cuTexObjectGetTextureDesc(&td, s), CUDA_ERROR_INVALID_VALUE,
	       "a surface asked as a texture");
	is_res(cuSurfObjectGetResourceDesc(&rd, h), CUDA_ERROR_INVALID_VALUE,
	       "a texture asked as a surface");
	is_res(cuTexObjectGetResourceDesc(&rd, h + 1000),
	       CUDA_ERROR_INVALID_VALUE, "a handle never given");
	is_res(cuSurfObjectDestroy(h), CUDA_SUCCESS,
	       "destroying a texture as a surface succeeds");
	is_res(cuTexObjectGetResourceDesc(&rd, h), CUDA_SUCCESS,
	       "and leaves it");
	is_res(cuTexObjectDestroy(s), CUDA_SUCCESS,
	       "destroying a surface as a texture succeeds");
	is_res(cuSurfObjectGetResourceDesc(&rd, s), CUDA_SUCCESS,
	       "and leaves it");
	is_res(cuTexObjectDestroy(0), CUDA_SUCCESS, "destroying texture 0");
	is_res(cuSurfObjectDestroy(~0ull), CUDA_SUCCESS,
	       "destroying a surface never made");

	/* no current context */
	cuCtxSetCurrent(NULL);
	is_res(cuTexObjectCreate(NULL, NULL, NULL, NULL),
	       CUDA_ERROR_INVALID_CONTEXT,
	       "no context: creating a texture, before its arguments");
	is_res(cuTexObjectDestroy(h), CUDA_ERROR_INVALID_CONTEXT,
	       "no context: destroying one");
	is_res(cuTexObjectGetResourceDesc(NULL, 0), CUDA_ERROR_INVALID_CONTEXT,
	       "no context: its resource");
	is_res(cuTexObjectGetTextureDesc(&td, h), CUDA_ERROR_INVALID_CONTEXT,
	       "no context: its texture descriptor");
	is_res(cuTexObjectGetResourceViewDesc(&vd, h),
	       CUDA_ERROR_INVALID_CONTEXT, "no context: its view");
	is_res(cuSurfObjectDestroy(s), CUDA_ERROR_INVALID_CONTEXT,
	       "no context: destroying a surface");
	is_res(cuSurfObjectGetResourceDesc(&rd, s), CUDA_ERROR_INVALID_CONTEXT,
	       "no context: a surface's resource");
	is_res(try_surf(NULL), CUDA_ERROR_INVALID_VALUE,
	       "no context: a surface of no resource is INVALID_VALUE");
	is_res(cuSurfObjectCreate(NULL, &ar), CUDA_ERROR_INVALID_CONTEXT,
	       "no context: a surface into no handle is INVALID_CONTEXT");
	s2 = SENTINEL;
	is_res(cuSurfObjectCreate(&s2, &ar), CUDA_SUCCESS,
	       "no context: a surface is made");
	cuCtxSetCurrent(g_ctx);
	is_res(cuSurfObjectGetResourceDesc(&rd, s2), CUDA_SUCCESS,
	       "in the primary context");
	cuSurfObjectDestroy(s2);
	is_res(cuSurfObjectCreate(NULL, &ar), CUDA_ERROR_INVALID_VALUE,
	       "a surface into no handle (the driver faults)");

	/* another context of the device */
	if (cuCtxCreate(&c2, NULL, 0, 0) != CUDA_SUCCESS) {
		ok(0, "a second context");
	} else {
		CUDA_TEXTURE_DESC bt = tdesc();

		is_res(cuTexObjectGetResourceDesc(&rd, h),
		       CUDA_ERROR_INVALID_VALUE,
		       "the primary context's texture, from another context");
		is_res(cuSurfObjectGetResourceDesc(&rd, s),
		       CUDA_ERROR_INVALID_VALUE, "its surface likewise");
		is_res(cuTexObjectDestroy(h), CUDA_SUCCESS,
		       "destroying it there succeeds");
		is_res(try_tex(&ar, &t, NULL),
		       CUDA_ERROR_PEER_ACCESS_NOT_ENABLED,
		       "a texture of the primary context's array");
		is_res(try_surf(&ar), CUDA_ERROR_PEER_ACCESS_NOT_ENABLED,
		       "a surface of it");
		bt.filterMode = (CUfilter_mode)2;
		is_res(try_tex(&ar, &bt, NULL), CUDA_ERROR_INVALID_VALUE,
		       "with filter mode 2: INVALID_VALUE, checked first");
		h2 = mktex(&l, &t, NULL);
		ok(h2 > s, "handles are the process's: %llu follows the "
		   "primary context's", h2);
		cuCtxSetCurrent(g_ctx);
		is_res(cuTexObjectGetResourceDesc(&rd, h), CUDA_SUCCESS,
		       "back in the primary context, the texture is there");
		is_res(cuCtxDestroy(c2), CUDA_SUCCESS,
		       "the second context destroyed");
		cuCtxSetCurrent(g_ctx);
		{
			struct cuemu_texview v;

			is_res(cuemu_texobj_view(h2, false, &v),
			       CUDA_ERROR_INVALID_HANDLE,
			       "with it, its texture");
		}
	}
	cuTexObjectDestroy(h);
	cuSurfObjectDestroy(s);
	cuArrayDestroy(a);
	ok(none_live(), "no object left");
}

static void surfaces(void)
{
	CUarray ldst = mkarr(64, 64, 0, CU_AD_FORMAT_FLOAT, 1,
			     CUDA_ARRAY3D_SURFACE_LDST);
	CUarray plain = mkarr(64, 64, 0, CU_AD_FORMAT_FLOAT, 1, 0);
	CUarray l3 = mkarr(16, 16, 16, CU_AD_FORMAT_FLOAT, 4,
			   CUDA_ARRAY3D_SURFACE_LDST);
	CUDA_RESOURCE_DESC r, rd;
	CUsurfObject s;

	r = arr(ldst);
	is_res(try_surf(&r), CUDA_SUCCESS, "a surface of a SURFACE_LDST array");
	r = arr(l3);
	is_res(try_surf(&r), CUDA_SUCCESS, "of a 3D one");
	r = arr(plain);
	is_res(try_surf(&r), CUDA_SUCCESS,
	       "of an array made without SURFACE_LDST too");
	r.flags = 1;
	is_res(try_surf(&r), CUDA_ERROR_INVALID_VALUE, "resource flags 1");
	r = arr(NULL);
	is_res(try_surf(&r), CUDA_ERROR_INVALID_VALUE, "a NULL array");
	r.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
	is_res(try_surf(&r), CUDA_ERROR_INVALID_VALUE, "a mipmapped array");
	r = lin(g_mem, CU_AD_FORMAT_FLOAT, 1, 4096);
	is_res(try_surf(&r), CUDA_ERROR_INVALID_VALUE, "linear memory");
	is_res(cuSurfObjectCreate(NULL, &r), CUDA_ERROR_INVALID_VALUE,
	       "linear memory into no handle");
	r = pitch(g_mem, CU_AD_FORMAT_FLOAT, 1, 100, 64, 512);
	is_res(try_surf(&r), CUDA_ERROR_INVALID_VALUE, "pitched memory");
	s = mksurf(ldst);
	memset(&rd, 0xab, sizeof rd);
	is_res(cuSurfObjectGetResourceDesc(&rd, s), CUDA_SUCCESS,
	       "a surface's resource read back");
	ok(rd.resType == CU_RESOURCE_TYPE_ARRAY && rd.res.array.hArray == ldst &&
	   rd.flags == 0 && all_bytes(&rd.res.reserved.reserved[2],
				      30 * sizeof(int), 0xab),
	   "its array, the rest left as it was");
	is_res(cuSurfObjectDestroy(s), CUDA_SUCCESS, "destroyed");
	is_res(cuSurfObjectDestroy(s), CUDA_SUCCESS, "and destroyed again");
	is_res(cuSurfObjectGetResourceDesc(&rd, s), CUDA_ERROR_INVALID_VALUE,
	       "then it is none");
	{
		CUDA_RESOURCE_DESC l = lin(g_mem, CU_AD_FORMAT_FLOAT, 1, 64);
		CUDA_TEXTURE_DESC t = tdesc();
		CUtexObject h = mktex(&l, &t, NULL);

		is_res(cuTexObjectDestroy(h), CUDA_SUCCESS,
		       "a texture destroyed");
		is_res(cuTexObjectDestroy(h), CUDA_SUCCESS,
		       "and destroyed again");
		is_res(cuTexObjectGetTextureDesc(&t, h),
		       CUDA_ERROR_INVALID_VALUE, "then it is none");
	}
	is_int(g_touched, 0, "no refusal wrote the handle");
	ok(none_live(), "no refusal made an object");
	cuArrayDestroy(ldst);
	cuArrayDestroy(plain);
	cuArrayDestroy(l3);
}

static void view(void)
{
	CUarray a = mkarr(16, 8, 0, CU_AD_FORMAT_FLOAT, 1,
			  CUDA_ARRAY3D_SURFACE_LDST);
	CUarray a3 = mkarr(4, 3, 2, CU_AD_FORMAT_FLOAT, 4, 0);
	CUarray lay = mkarr(8, 8, 3, CU_AD_FORMAT_UNSIGNED_INT8, 2,
			    CUDA_ARRAY3D_LAYERED);
	CUDA_RESOURCE_DESC r = arr(a), l;
	CUDA_TEXTURE_DESC t = tdesc();
	CUDA_RESOURCE_VIEW_DESC vd = vdesc(CU_RES_VIEW_FORMAT_UINT_1X32, 16, 8, 0);
	struct cuemu_texview v;
	float host[16 * 8];
	CUtexObject h;
	CUsurfObject s;
	bool same = true;

	for (int i = 0; i < 16 * 8; i++)
		host[i] = (float)i * 0.5f;
	{
		CUDA_MEMCPY2D c;

		memset(&c, 0, sizeof c);
		c.srcMemoryType = CU_MEMORYTYPE_HOST;
		c.srcHost = host;
		c.srcPitch = 16 * sizeof(float);
		c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
		c.dstArray = a;
		c.WidthInBytes = 16 * sizeof(float);
		c.Height = 8;
		is_res(cuMemcpy2D(&c), CUDA_SUCCESS, "an array written");
	}
	t.filterMode = CU_TR_FILTER_MODE_LINEAR;
	t.flags = CU_TRSF_NORMALIZED_COORDINATES;
	t.borderColor[2] = 0.75f;
	h = mktex(&r, &t, &vd);
	is_res(cuemu_texobj_view(h, false, &v), CUDA_SUCCESS,
	       "view: a texture of it");
	ok(!v.surface && v.device == 0 && v.res.resType == CU_RESOURCE_TYPE_ARRAY &&
	   v.res.res.array.hArray == a, "its kind, device and array");
	ok(!memcmp(&v.tex, &t, sizeof t),
	   "its texture descriptor, border colour included");
	ok(v.has_view && !memcmp(&v.view, &vd, sizeof vd), "its view");
	ok(v.array.Width == 16 && v.array.Height == 8 && v.array.Depth == 0 &&
	   v.array.Format == CU_AD_FORMAT_FLOAT && v.array.NumChannels == 1 &&
	   v.array.Flags == CUDA_ARRAY3D_SURFACE_LDST,
	   "the array's descriptor");
	ok(v.elem == 4 && v.row_bytes == 64 && v.rows == 8 && v.slices == 1,
	   "its shape: 4-byte elements, rows of 64 bytes, 8 rows, 1 slice");
	for (int i = 0; v.mem && i < 16 * 8; i++)
		same &= ((const float *)v.mem)[i] == host[i];
	ok(v.mem && same, "its bytes, row-major, as written");
	is_res(cuemu_texobj_view(h, true, &v), CUDA_ERROR_INVALID_HANDLE,
	       "a texture's handle is no surface");
	cuTexObjectDestroy(h);
	is_res(cuemu_texobj_view(h, false, &v), CUDA_ERROR_INVALID_HANDLE,
	       "a destroyed texture is none");

	r = arr(a3);
	t = tdesc();
	h = mktex(&r, &t, NULL);
	is_res(cuemu_texobj_view(h, false, &v), CUDA_SUCCESS,
	       "view: a texture of a 3D float4 array");
	ok(!v.has_view && v.elem == 16 && v.row_bytes == 64 && v.rows == 3 &&
	   v.slices == 2, "16-byte elements, 3 rows, 2 slices, no view");
	cuTexObjectDestroy(h);
	r = arr(lay);
	h = mktex(&r, &t, NULL);
	is_res(cuemu_texobj_view(h, false, &v), CUDA_SUCCESS,
	       "view: of 3 layers of uint8x2");
	ok(v.elem == 2 && v.row_bytes == 16 && v.rows == 8 && v.slices == 3,
	   "each layer a slice");
	cuTexObjectDestroy(h);

	l = lin(g_mem + 2048, CU_AD_FORMAT_SIGNED_INT16, 2, 4096);
	h = mktex(&l, &t, NULL);
	is_res(cuemu_texobj_view(h, false, &v), CUDA_SUCCESS,
	       "view: linear memory");
	ok(!memcmp(&v.res, &l, sizeof l) && !v.mem && !v.has_view,
	   "its resource as made, no array bytes");
	cuTexObjectDestroy(h);

	s = mksurf(a);
	is_res(cuemu_texobj_view(s, true, &v), CUDA_SUCCESS,
	       "view: a surface");
	ok(v.surface && all_bytes(&v.tex, sizeof v.tex, 0) && v.mem &&
	   v.rows == 8, "no texture descriptor, the array's bytes");
	is_res(cuemu_texobj_view(s, false, &v), CUDA_ERROR_INVALID_HANDLE,
	       "a surface's handle is no texture");
	r = arr(a);
	h = mktex(&r, &t, NULL);
	is_res(cuArrayDestroy(a), CUDA_SUCCESS,
	       "the array destroyed under a texture and a surface");
	is_res(cuTexObjectGetResourceDesc(&l, h), CUDA_SUCCESS,
	       "the texture outlives it");
	is_res(cuSurfObjectGetResourceDesc(&l, s), CUDA_SUCCESS,
	       "the surface too");
	is_res(cuemu_texobj_view(h, false, &v), CUDA_ERROR_INVALID_HANDLE,
	       "but a launch has nothing to sample through it");
	is_res(cuemu_texobj_view(s, true, &v), CUDA_ERROR_INVALID_HANDLE,
	       "nor through the surface");
	cuTexObjectDestroy(h);
	cuSurfObjectDestroy(s);
	is_res(cuemu_texobj_view(0, false, &v), CUDA_ERROR_INVALID_HANDLE,
	       "handle 0 is none");
	is_res(cuemu_texobj_view(12345, true, &v), CUDA_ERROR_INVALID_HANDLE,
	       "nor a handle never given");
	cuArrayDestroy(a3);
	cuArrayDestroy(lay);
}

/* Objects go with their context: a primary context's reset, its last
 * release. */
static void lifetime(void)
{
	CUDA_RESOURCE_DESC l = lin(g_mem, CU_AD_FORMAT_FLOAT, 1, 4096), rd;
	CUDA_TEXTURE_DESC t = tdesc();
	struct cuemu_texview v;
	CUtexObject h = mktex(&l, &t, NULL);
	CUarray a = mkarr(8, 8, 0, CU_AD_FORMAT_FLOAT, 1, 0);
	CUsurfObject s = mksurf(a);
	CUcontext c;
	int n = 0;

	is_res(cuDevicePrimaryCtxReset(0), CUDA_SUCCESS,
	       "the primary context reset");
	cuDevicePrimaryCtxRetain(&c, 0);
	cuCtxSetCurrent(c);
	is_res(cuemu_texobj_view(h, false, &v), CUDA_ERROR_INVALID_HANDLE,
	       "its texture is gone");
	is_res(cuemu_texobj_view(s, true, &v), CUDA_ERROR_INVALID_HANDLE,
	       "its surface too");
	is_res(cuTexObjectGetResourceDesc(&rd, h), CUDA_ERROR_INVALID_VALUE,
	       "the texture is none to the API");
	/* the reset freed g_mem too */
	cuMemAlloc(&g_mem, 4 * MIB);
	cuDeviceGetCount(&n);
	if (n > 1) {
		CUcontext p1;

		cuDevicePrimaryCtxRetain(&p1, 1);
		cuCtxSetCurrent(p1);
		l = lin(0x200, CU_AD_FORMAT_FLOAT, 1, 64);
		h = mktex(&l, &t, NULL);
		is_res(cuemu_texobj_view(h, false, &v), CUDA_SUCCESS,
		       "a texture in gpu1's primary context");
		is_int(v.device, 1, "of device 1");
		cuCtxSetCurrent(c);
		is_res(cuDevicePrimaryCtxRelease(1), CUDA_SUCCESS,
		       "its last release");
		is_res(cuemu_texobj_view(h, false, &v),
		       CUDA_ERROR_INVALID_HANDLE, "takes the texture with it");
	}
	ok(none_live(), "no object left");
}

/* ---------------------------------------------------------------- runtime */

static void runtime(void)
{
	struct cudaChannelFormatDesc f32 = cudaCreateChannelDesc(
		32, 0, 0, 0, cudaChannelFormatKindFloat);
	struct cudaChannelFormatDesc u8 = cudaCreateChannelDesc(
		8, 0, 0, 0, cudaChannelFormatKindUnsigned);
	struct cudaResourceDesc rd, got;
	struct cudaTextureDesc td, tgot;
	struct cudaResourceViewDesc vd, vgot;
	CUDA_TEXTURE_DESC drv;
	cudaTextureObject_t t;
	cudaSurfaceObject_t s;
	cudaArray_t a, cube;

	memset(&rd, 0, sizeof rd);
	rd.resType = cudaResourceTypeLinear;
	rd.res.linear.devPtr = (void *)(uintptr_t)g_mem;
	rd.res.linear.desc = f32;
	rd.res.linear.sizeInBytes = 4096;
	memset(&td, 0, sizeof td);
	td.addressMode[0] = cudaAddressModeClamp;
	td.filterMode = cudaFilterModeLinear;
	td.readMode = cudaReadModeElementType;
	td.normalizedCoords = 1;
	td.maxAnisotropy = 4;
	is_int(cudaCreateTextureObject(&t, &rd, &td, NULL), cudaSuccess,
	       "cudaCreateTextureObject of linear floats");
	is_res(cuTexObjectGetTextureDesc(&drv, t), CUDA_SUCCESS,
	       "the driver's object");
	is_int(drv.flags, CU_TRSF_NORMALIZED_COORDINATES,
	       "normalized coordinates; floats read as themselves, no "
	       "READ_AS_INTEGER");
	is_int(cudaGetTextureObjectResourceDesc(&got, t), cudaSuccess,
	       "cudaGetTextureObjectResourceDesc");
	ok(got.resType == cudaResourceTypeLinear &&
	   got.res.linear.devPtr == rd.res.linear.devPtr &&
	   got.res.linear.desc.x == 32 && got.res.linear.desc.y == 0 &&
	   got.res.linear.desc.f == cudaChannelFormatKindFloat &&
	   got.res.linear.sizeInBytes == 4096, "the linear resource as made");
	is_int(cudaGetTextureObjectTextureDesc(&tgot, t), cudaSuccess,
	       "cudaGetTextureObjectTextureDesc");
	ok(tgot.filterMode == cudaFilterModeLinear &&
	   tgot.readMode == cudaReadModeElementType &&
	   tgot.normalizedCoords == 1 && tgot.maxAnisotropy == 4 &&
	   tgot.addressMode[0] == cudaAddressModeClamp,
	   "its texture descriptor as made");
	is_int(cudaDestroyTextureObject(t), cudaSuccess,
	       "cudaDestroyTextureObject");
	is_int(cudaDestroyTextureObject(t), cudaSuccess, "and again");

	rd.res.linear.desc = cudaCreateChannelDesc(8, 16, 0, 0,
						   cudaChannelFormatKindUnsigned);
	t = SENTINEL;
	is_int(cudaCreateTextureObject(&t, &rd, &td, NULL),
	       cudaErrorInvalidChannelDescriptor,
	       "channels of 8 and 16 bits: no format has them");
	ok(t == SENTINEL, "the handle as it was");
	rd.res.linear.desc = f32;
	rd.res.linear.devPtr = (void *)(uintptr_t)(g_mem + 4);
	is_int(cudaCreateTextureObject(&t, &rd, &td, NULL),
	       cudaErrorInvalidValue, "a misaligned pointer");
	rd.res.linear.devPtr = (void *)(uintptr_t)g_mem;
	td.filterMode = (enum cudaTextureFilterMode)2;
	is_int(cudaCreateTextureObject(&t, &rd, &td, NULL),
	       cudaErrorInvalidValue, "filter mode 2");
	td.filterMode = cudaFilterModePoint;

	/* integers read as their type: READ_AS_INTEGER */
	cudaMallocArray(&a, &u8, 16, 16, cudaArraySurfaceLoadStore);
	memset(&rd, 0, sizeof rd);
	rd.resType = cudaResourceTypeArray;
	rd.res.array.array = a;
	is_int(cudaCreateTextureObject(&t, &rd, &td, NULL), cudaSuccess,
	       "a texture of a uint8 array, its element type read");
	cuTexObjectGetTextureDesc(&drv, t);
	ok(drv.flags & CU_TRSF_READ_AS_INTEGER, "READ_AS_INTEGER");
	cudaGetTextureObjectTextureDesc(&tgot, t);
	is_int(tgot.readMode, cudaReadModeElementType, "read back so");
	cudaDestroyTextureObject(t);
	td.readMode = cudaReadModeNormalizedFloat;
	td.sRGB = 1;
	is_int(cudaCreateTextureObject(&t, &rd, &td, NULL), cudaSuccess,
	       "and read as normalized floats, sRGB");
	cuTexObjectGetTextureDesc(&drv, t);
	is_int(drv.flags, CU_TRSF_NORMALIZED_COORDINATES | CU_TRSF_SRGB,
	       "no READ_AS_INTEGER, sRGB");
	cudaGetTextureObjectTextureDesc(&tgot, t);
	ok(tgot.readMode == cudaReadModeNormalizedFloat && tgot.sRGB == 1,
	   "read back so");
	is_int(cudaGetTextureObjectResourceDesc(&got, t), cudaSuccess,
	       "its resource");
	ok(got.resType == cudaResourceTypeArray && got.res.array.array == a,
	   "the array");
	cudaDestroyTextureObject(t);

	/* views */
	memset(&vd, 0, sizeof vd);
	vd.format = cudaResViewFormatSignedChar1;
	vd.width = 16;
	vd.height = 16;
	td = (struct cudaTextureDesc){ 0 };
	is_int(cudaCreateTextureObject(&t, &rd, &td, &vd), cudaSuccess,
	       "a view of it as signed chars");
	is_int(cudaGetTextureObjectResourceViewDesc(&vgot, t), cudaSuccess,
	       "cudaGetTextureObjectResourceViewDesc");
	ok(vgot.format == cudaResViewFormatSignedChar1 && vgot.width == 16 &&
	   vgot.height == 16 && vgot.depth == 0, "the view as made");
	cudaDestroyTextureObject(t);
	vd.format = cudaResViewFormatFloat1;
	is_int(cudaCreateTextureObject(&t, &rd, &td, &vd), cudaErrorInvalidValue,
	       "a view of floats of it");

	/* seamless cubemaps, pitch2D */
	{
		struct cudaExtent e = { 8, 8, 6 };

		cudaMalloc3DArray(&cube, &f32, e, cudaArrayCubemap);
	}
	rd.res.array.array = cube;
	td.seamlessCubemap = 1;
	td.disableTrilinearOptimization = 1;
	is_int(cudaCreateTextureObject(&t, &rd, &td, NULL), cudaSuccess,
	       "a seamless cubemap");
	cuTexObjectGetTextureDesc(&drv, t);
	is_int(drv.flags, CU_TRSF_SEAMLESS_CUBEMAP |
	       CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION,
	       "SEAMLESS_CUBEMAP, DISABLE_TRILINEAR_OPTIMIZATION");
	cudaDestroyTextureObject(t);
	rd.res.array.array = a;
	is_int(cudaCreateTextureObject(&t, &rd, &td, NULL),
	       cudaErrorInvalidValue, "seamless filtering of a 2D array");
	td = (struct cudaTextureDesc){ 0 };
	memset(&rd, 0, sizeof rd);
	rd.resType = cudaResourceTypePitch2D;
	rd.res.pitch2D.devPtr = (void *)(uintptr_t)g_mem;
	rd.res.pitch2D.desc = cudaCreateChannelDesc(
		16, 16, 16, 16, cudaChannelFormatKindSigned);
	rd.res.pitch2D.width = 30;
	rd.res.pitch2D.height = 20;
	rd.res.pitch2D.pitchInBytes = 256;
	is_int(cudaCreateTextureObject(&t, &rd, &td, NULL), cudaSuccess,
	       "pitch2D of short4");
	cudaGetTextureObjectResourceDesc(&got, t);
	ok(got.resType == cudaResourceTypePitch2D &&
	   got.res.pitch2D.desc.w == 16 &&
	   got.res.pitch2D.desc.f == cudaChannelFormatKindSigned &&
	   got.res.pitch2D.width == 30 && got.res.pitch2D.height == 20 &&
	   got.res.pitch2D.pitchInBytes == 256, "read back as made");
	cudaDestroyTextureObject(t);

	/* surfaces */
	memset(&rd, 0, sizeof rd);
	rd.resType = cudaResourceTypeArray;
	rd.res.array.array = a;
	is_int(cudaCreateSurfaceObject(&s, &rd), cudaSuccess,
	       "cudaCreateSurfaceObject");
	is_int(cudaGetSurfaceObjectResourceDesc(&got, s), cudaSuccess,
	       "cudaGetSurfaceObjectResourceDesc");
	ok(got.resType == cudaResourceTypeArray && got.res.array.array == a,
	   "its array");
	is_int(cudaDestroySurfaceObject(s), cudaSuccess,
	       "cudaDestroySurfaceObject");
	is_int(cudaGetSurfaceObjectResourceDesc(&got, s), cudaErrorInvalidValue,
	       "then it is none");
	rd.resType = cudaResourceTypeLinear;
	rd.res.linear.devPtr = (void *)(uintptr_t)g_mem;
	rd.res.linear.desc = f32;
	rd.res.linear.sizeInBytes = 64;
	is_int(cudaCreateSurfaceObject(&s, &rd), cudaErrorInvalidValue,
	       "a surface of linear memory");
	cudaFreeArray(a);
	cudaFreeArray(cube);
	ok(none_live(), "no object left");
}

int main(void)
{
	before_init();
	if (cuInit(0) || cuDevicePrimaryCtxRetain(&g_ctx, 0) ||
	    cuCtxSetCurrent(g_ctx) || cuMemAlloc(&g_mem, 4 * MIB)) {
		printf("Bail out! no device\n");
		return 1;
	}
	handles();
	linear();
	pitched();
	arrays();
	order();
	surfaces();
	view();
	lifetime();
	runtime();
	cuMemFree(g_mem);
	cuDevicePrimaryCtxRelease(0);
	return done_testing();
}
