/* Texture and surface objects: the checks of cuTexObjectCreate,
 * cuTexObjectDestroy, cuTexObjectGet{Resource,Texture,ResourceView}Desc,
 * cuSurfObjectCreate, cuSurfObjectDestroy and cuSurfObjectGetResourceDesc
 * in the order the driver makes them (NULL pointers, no context, resource
 * types, linear and pitch2D extents and alignments, filter and address
 * modes, flags, resource views), what the descriptors read back as, and
 * the handle values the driver gives. Cases that hand the driver a handle
 * it never gave (or gave and took back) run one per process, as
 * "texobj risky NAME", after the rest. */
#include "common.h"

#include <sys/wait.h>

#define R(label, call) do { \
	int _s = sigsetjmp(g_jmp, 1); \
	if (_s) { \
		P("texobj.%s: SIGNAL %d\n", label, _s); \
	} else { \
		g_jmp_armed = 1; \
		CUresult _r = (call); \
		g_jmp_armed = 0; \
		P("texobj.%s: %s\n", label, en(_r)); \
	} \
} while (0)

#define SENTINEL 0xdeadbeefcafeull

static CUdeviceptr g_mem;          /* 4 MiB of device memory */
static CUdeviceptr g_small;        /* 64 KiB */

/* ------------------------------------------------------------ builders */

static CUDA_RESOURCE_DESC rlin(CUdeviceptr p, CUarray_format f, unsigned n,
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

static CUDA_RESOURCE_DESC rpitch(CUdeviceptr p, CUarray_format f, unsigned n,
				 size_t w, size_t h, size_t pitch)
{
	CUDA_RESOURCE_DESC r;
	memset(&r, 0, sizeof r);
	r.resType = CU_RESOURCE_TYPE_PITCH2D;
	r.res.pitch2D.devPtr = p;
	r.res.pitch2D.format = f;
	r.res.pitch2D.numChannels = n;
	r.res.pitch2D.width = w;
	r.res.pitch2D.height = h;
	r.res.pitch2D.pitchInBytes = pitch;
	return r;
}

static CUDA_RESOURCE_DESC rarr(CUarray a)
{
	CUDA_RESOURCE_DESC r;
	memset(&r, 0, sizeof r);
	r.resType = CU_RESOURCE_TYPE_ARRAY;
	r.res.array.hArray = a;
	return r;
}

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
	CUDA_ARRAY3D_DESCRIPTOR ad;
	CUarray a = NULL;
	memset(&ad, 0, sizeof ad);
	ad.Width = w;
	ad.Height = h;
	ad.Depth = d;
	ad.Format = f;
	ad.NumChannels = n;
	ad.Flags = flags;
	CUresult r = cuArray3DCreate(&a, &ad);
	if (r) {
		P("texobj.mkarr_%zux%zux%zu_f%d_n%u_fl%u: %s\n", w, h, d,
		  (int)f, n, flags, en(r));
		return NULL;
	}
	return a;
}

/* Creates a texture, prints the result, what the handle reads afterwards
 * (untouched: the sentinel left as it was), and destroys it. */
static void tex(const char *label, const CUDA_RESOURCE_DESC *res,
		const CUDA_TEXTURE_DESC *t, const CUDA_RESOURCE_VIEW_DESC *v)
{
	CUtexObject h = SENTINEL;
	CUresult r = cuTexObjectCreate(&h, res, t, v);
	if (h == SENTINEL)
		P("texobj.%s: %s out=untouched\n", label, en(r));
	else
		P("texobj.%s: %s out=%llu\n", label, en(r), h);
	if (r == CUDA_SUCCESS)
		cuTexObjectDestroy(h);
}

static void surf(const char *label, const CUDA_RESOURCE_DESC *res)
{
	CUsurfObject h = SENTINEL;
	CUresult r = cuSurfObjectCreate(&h, res);
	if (h == SENTINEL)
		P("texobj.%s: %s out=untouched\n", label, en(r));
	else
		P("texobj.%s: %s out=%llu\n", label, en(r), h);
	if (r == CUDA_SUCCESS)
		cuSurfObjectDestroy(h);
}

static CUtexObject mktex(const CUDA_RESOURCE_DESC *res,
			 const CUDA_TEXTURE_DESC *t,
			 const CUDA_RESOURCE_VIEW_DESC *v)
{
	CUtexObject h = 0;
	CK(cuTexObjectCreate(&h, res, t, v));
	return h;
}

static CUsurfObject mksurf(CUarray a)
{
	CUDA_RESOURCE_DESC r = rarr(a);
	CUsurfObject h = 0;
	CK(cuSurfObjectCreate(&h, &r));
	return h;
}

/* ------------------------------------------------------------ printing */

static void print_res(const char *label, CUresult r,
		      const CUDA_RESOURCE_DESC *d)
{
	const unsigned char *b = (const unsigned char *)d;
	size_t nonff = 0;
	/* bytes of the union past the kind's fields still 0xab */
	for (size_t i = 0; i < sizeof *d; i++)
		if (b[i] == 0xab)
			nonff++;
	switch (d->resType) {
	case CU_RESOURCE_TYPE_LINEAR:
		P("texobj.%s: %s type=linear ptr_off=%lld format=%d ch=%u "
		  "size=%zu flags=%u ab_bytes=%zu\n", label, en(r),
		  (long long)(d->res.linear.devPtr - g_mem),
		  (int)d->res.linear.format, d->res.linear.numChannels,
		  d->res.linear.sizeInBytes, d->flags, nonff);
		break;
	case CU_RESOURCE_TYPE_PITCH2D:
		P("texobj.%s: %s type=pitch2d ptr_off=%lld format=%d ch=%u "
		  "w=%zu h=%zu pitch=%zu flags=%u ab_bytes=%zu\n", label,
		  en(r), (long long)(d->res.pitch2D.devPtr - g_mem),
		  (int)d->res.pitch2D.format, d->res.pitch2D.numChannels,
		  d->res.pitch2D.width, d->res.pitch2D.height,
		  d->res.pitch2D.pitchInBytes, d->flags, nonff);
		break;
	default:
		P("texobj.%s: %s type=%d handle=%s flags=%u ab_bytes=%zu\n",
		  label, en(r), (int)d->resType,
		  d->res.array.hArray ? "nonnull" : "null", d->flags, nonff);
	}
}

static void print_tex(const char *label, CUresult r,
		      const CUDA_TEXTURE_DESC *t)
{
	P("texobj.%s: %s addr=%d,%d,%d filter=%d flags=%#x aniso=%u "
	  "mipfilter=%d bias=%g minclamp=%g maxclamp=%g border=%g,%g,%g,%g "
	  "reserved0=%d\n", label, en(r), (int)t->addressMode[0],
	  (int)t->addressMode[1], (int)t->addressMode[2], (int)t->filterMode,
	  t->flags, t->maxAnisotropy, (int)t->mipmapFilterMode,
	  t->mipmapLevelBias, t->minMipmapLevelClamp, t->maxMipmapLevelClamp,
	  t->borderColor[0], t->borderColor[1], t->borderColor[2],
	  t->borderColor[3], t->reserved[0]);
}

static void print_view(const char *label, CUresult r,
		       const CUDA_RESOURCE_VIEW_DESC *v)
{
	P("texobj.%s: %s format=%d w=%zu h=%zu d=%zu mip=%u-%u layers=%u-%u "
	  "reserved0=%u\n", label, en(r), (int)v->format, v->width, v->height,
	  v->depth, v->firstMipmapLevel, v->lastMipmapLevel, v->firstLayer,
	  v->lastLayer, v->reserved[0]);
}

/* All three getters of texture h. */
static void get_all(const char *label, CUtexObject h)
{
	CUDA_RESOURCE_DESC rd;
	CUDA_TEXTURE_DESC td;
	CUDA_RESOURCE_VIEW_DESC vd;
	char l[128];
	CUresult r;

	memset(&rd, 0xab, sizeof rd);
	r = cuTexObjectGetResourceDesc(&rd, h);
	snprintf(l, sizeof l, "%s.res", label);
	print_res(l, r, &rd);
	memset(&td, 0xab, sizeof td);
	r = cuTexObjectGetTextureDesc(&td, h);
	snprintf(l, sizeof l, "%s.tex", label);
	print_tex(l, r, &td);
	memset(&vd, 0xab, sizeof vd);
	r = cuTexObjectGetResourceViewDesc(&vd, h);
	snprintf(l, sizeof l, "%s.view", label);
	if (r)
		P("texobj.%s: %s view_untouched=%d\n", l, en(r),
		  vd.width == (size_t)0xababababababababull);
	else
		print_view(l, r, &vd);
}

/* ------------------------------------------------------------ cases */

static void attrs(void)
{
	static const int a[] = { 14, 30, 51, 55, 56, 57, 58, 59, 60, 61, 62,
				 63, 64, 65, 66, 67, 68, 69, 70, 71, 72 };
	for (unsigned i = 0; i < sizeof a / sizeof *a; i++) {
		int v = -1;
		CUresult r = cuDeviceGetAttribute(&v, a[i], g_dev[0]);
		P("texobj.attr.%d: %s %d\n", a[i], en(r), v);
	}
}

static void handles(void)
{
	CUarray a = mkarr(64, 64, 0, CU_AD_FORMAT_FLOAT, 1,
			  CUDA_ARRAY3D_SURFACE_LDST);
	CUDA_RESOURCE_DESC lin = rlin(g_mem, CU_AD_FORMAT_FLOAT, 1, 4096);
	CUDA_RESOURCE_DESC ar = rarr(a);
	CUDA_TEXTURE_DESC t = tdesc();
	CUtexObject t1, t2, t3, t4, t5;
	CUsurfObject s1, s2, s3, s4;

	t1 = mktex(&lin, &t, NULL);
	t2 = mktex(&ar, &t, NULL);
	s1 = mksurf(a);
	t3 = mktex(&lin, &t, NULL);
	s2 = mksurf(a);
	P("texobj.handles.first: tex1=%llu tex2=%llu surf1=%llu tex3=%llu "
	  "surf2=%llu\n", t1, t2, s1, t3, s2);
	CK(cuTexObjectDestroy(t2));
	t4 = mktex(&lin, &t, NULL);
	CK(cuSurfObjectDestroy(s1));
	s3 = mksurf(a);
	P("texobj.handles.after_destroy: tex4=%llu (tex2 destroyed) "
	  "surf3=%llu (surf1 destroyed)\n", t4, s3);
	t5 = mktex(&lin, &t, NULL);
	s4 = mksurf(a);
	P("texobj.handles.next: tex5=%llu surf4=%llu\n", t5, s4);
	cuTexObjectDestroy(t1);
	cuTexObjectDestroy(t3);
	cuTexObjectDestroy(t4);
	cuTexObjectDestroy(t5);
	cuSurfObjectDestroy(s2);
	cuSurfObjectDestroy(s3);
	cuSurfObjectDestroy(s4);
	t1 = mktex(&lin, &t, NULL);
	s1 = mksurf(a);
	P("texobj.handles.after_all_destroyed: tex=%llu surf=%llu\n", t1, s1);
	cuTexObjectDestroy(t1);
	cuSurfObjectDestroy(s1);
	cuArrayDestroy(a);
}

static void create_order(void)
{
	CUDA_RESOURCE_DESC lin = rlin(g_mem, CU_AD_FORMAT_FLOAT, 1, 4096);
	CUDA_RESOURCE_DESC bad = lin;
	CUDA_TEXTURE_DESC t = tdesc();
	CUtexObject h;

	bad.resType = 9;
	tex("create.ok_linear", &lin, &t, NULL);
	R("create.null_out", cuTexObjectCreate(NULL, &lin, &t, NULL));
	tex("create.null_res", NULL, &t, NULL);
	tex("create.null_tex", &lin, NULL, NULL);
	R("create.null_all", cuTexObjectCreate(NULL, NULL, NULL, NULL));
	R("create.null_out_bad_restype", cuTexObjectCreate(NULL, &bad, &t,
							    NULL));
	tex("create.null_tex_bad_restype", &bad, NULL, NULL);
	tex("create.bad_restype", &bad, &t, NULL);
	CK(cuCtxSetCurrent(NULL));
	tex("create.noctx", &lin, &t, NULL);
	R("create.noctx_null_out", cuTexObjectCreate(NULL, &lin, &t, NULL));
	tex("create.noctx_null_res", NULL, &t, NULL);
	CK(cuCtxSetCurrent(g_ctx[0]));

	bad = lin;
	bad.resType = 4;
	tex("create.restype4", &bad, &t, NULL);
	bad.resType = (CUresourcetype)-1;
	tex("create.restype_neg1", &bad, &t, NULL);
	bad = lin;
	bad.flags = 1;
	tex("create.res_flags1", &bad, &t, NULL);
	bad.flags = 0x80000000u;
	tex("create.res_flags_high", &bad, &t, NULL);
	bad = rarr(NULL);
	tex("create.array_null", &bad, &t, NULL);
	bad.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
	tex("create.mipmap_null", &bad, &t, NULL);
	/* a resource flag beside a NULL out */
	bad = lin;
	bad.flags = 1;
	R("create.null_out_res_flags1", cuTexObjectCreate(NULL, &bad, &t,
							   NULL));
	h = 0;
	(void)h;
}

static void linear(void)
{
	CUDA_TEXTURE_DESC t = tdesc();
	CUDA_RESOURCE_DESC r;
	CUdeviceptr host_mapped = 0, managed = 0;
	void *pinned = NULL, *plain = NULL;
	char l[64];

	static const struct { CUarray_format f; unsigned n; } okf[] = {
		{ CU_AD_FORMAT_FLOAT, 1 }, { CU_AD_FORMAT_FLOAT, 2 },
		{ CU_AD_FORMAT_FLOAT, 4 }, { CU_AD_FORMAT_UNSIGNED_INT8, 1 },
		{ CU_AD_FORMAT_SIGNED_INT16, 2 }, { CU_AD_FORMAT_HALF, 4 },
		{ CU_AD_FORMAT_UNSIGNED_INT32, 4 },
		{ CU_AD_FORMAT_UNORM_INT8X1, 1 }, { CU_AD_FORMAT_UNORM_INT8X4, 4 },
		{ CU_AD_FORMAT_SNORM_INT16X2, 2 },
		{ CU_AD_FORMAT_UNORM_INT_101010_2, 4 },
		{ CU_AD_FORMAT_BC1_UNORM, 4 }, { CU_AD_FORMAT_BC4_UNORM, 1 },
		{ CU_AD_FORMAT_FLOAT, 3 }, { CU_AD_FORMAT_FLOAT, 0 },
		{ CU_AD_FORMAT_FLOAT, 5 }, { CU_AD_FORMAT_UNORM_INT8X4, 1 },
		{ CU_AD_FORMAT_UNORM_INT8X1, 4 }, { 0, 1 }, { 0x99, 1 },
		{ CU_AD_FORMAT_NV12, 1 }, { CU_AD_FORMAT_UNORM_INT8X1, 0 },
	};
	for (unsigned i = 0; i < sizeof okf / sizeof *okf; i++) {
		r = rlin(g_mem, okf[i].f, okf[i].n, 4096);
		snprintf(l, sizeof l, "linear.format_%#x_ch%u", okf[i].f,
			 okf[i].n);
		tex(l, &r, &t, NULL);
	}

	r = rlin(0, CU_AD_FORMAT_FLOAT, 1, 4096);
	tex("linear.devptr0", &r, &t, NULL);
	r = rlin(g_mem + 4, CU_AD_FORMAT_FLOAT, 1, 4096);
	tex("linear.misaligned4", &r, &t, NULL);
	r = rlin(g_mem + 256, CU_AD_FORMAT_FLOAT, 1, 4096);
	tex("linear.misaligned256", &r, &t, NULL);
	r = rlin(g_mem + 512, CU_AD_FORMAT_FLOAT, 1, 4096);
	tex("linear.offset512", &r, &t, NULL);
	r = rlin(g_mem + 1, CU_AD_FORMAT_UNSIGNED_INT8, 1, 4096);
	tex("linear.misaligned1_u8", &r, &t, NULL);
	r = rlin(g_mem, CU_AD_FORMAT_FLOAT, 1, 0);
	tex("linear.size0", &r, &t, NULL);
	r = rlin(g_mem, CU_AD_FORMAT_FLOAT, 1, 1023);
	tex("linear.size1023_float", &r, &t, NULL);
	r = rlin(g_mem, CU_AD_FORMAT_FLOAT, 1, 2);
	tex("linear.size2_float", &r, &t, NULL);
	r = rlin(g_mem, CU_AD_FORMAT_FLOAT, 4, 8);
	tex("linear.size8_float4", &r, &t, NULL);
	r = rlin(g_mem, CU_AD_FORMAT_FLOAT, 1, 1);
	tex("linear.size1_float", &r, &t, NULL);
	r = rlin(g_small, CU_AD_FORMAT_FLOAT, 1, 128 * KiB);
	tex("linear.size_over_allocation", &r, &t, NULL);
	r = rlin(g_mem, CU_AD_FORMAT_FLOAT, 1, (size_t)4 << 28);
	tex("linear.elems_2p28_float", &r, &t, NULL);
	r = rlin(g_mem, CU_AD_FORMAT_FLOAT, 1, ((size_t)4 << 28) + 4);
	tex("linear.elems_2p28_plus1_float", &r, &t, NULL);
	r = rlin(g_mem, CU_AD_FORMAT_UNSIGNED_INT8, 1, (size_t)1 << 28);
	tex("linear.elems_2p28_u8", &r, &t, NULL);
	r = rlin(g_mem, CU_AD_FORMAT_UNSIGNED_INT8, 1, ((size_t)1 << 28) + 1);
	tex("linear.elems_2p28_plus1_u8", &r, &t, NULL);
	r = rlin(g_mem, CU_AD_FORMAT_FLOAT, 4, (size_t)16 << 28);
	tex("linear.elems_2p28_float4", &r, &t, NULL);
	r = rlin(g_mem, CU_AD_FORMAT_FLOAT, 4, ((size_t)16 << 28) + 16);
	tex("linear.elems_2p28_plus1_float4", &r, &t, NULL);
	r = rlin(g_mem, CU_AD_FORMAT_FLOAT, 1, (size_t)-1);
	tex("linear.size_max", &r, &t, NULL);
	/* a misaligned pointer and a bad format, together */
	r = rlin(g_mem + 4, 0x99, 1, 4096);
	tex("linear.misaligned_and_bad_format", &r, &t, NULL);
	r = rlin(g_mem + 4, CU_AD_FORMAT_FLOAT, 1, 0);
	tex("linear.misaligned_and_size0", &r, &t, NULL);
	r = rlin(g_mem, 0x99, 1, 0);
	tex("linear.bad_format_and_size0", &r, &t, NULL);
	r = rlin(g_mem, CU_AD_FORMAT_FLOAT, 3, 0);
	tex("linear.ch3_and_size0", &r, &t, NULL);
	r = rlin(0, 0x99, 1, 4096);
	tex("linear.devptr0_and_bad_format", &r, &t, NULL);

	/* memory of other kinds */
	if (cuMemAllocHost(&pinned, 64 * KiB) == CUDA_SUCCESS) {
		CK(cuMemHostGetDevicePointer(&host_mapped, pinned, 0));
		r = rlin(host_mapped, CU_AD_FORMAT_FLOAT, 1, 4096);
		tex("linear.pinned_host", &r, &t, NULL);
	}
	if (cuMemAllocManaged(&managed, 64 * KiB, CU_MEM_ATTACH_GLOBAL) ==
	    CUDA_SUCCESS) {
		r = rlin(managed, CU_AD_FORMAT_FLOAT, 1, 4096);
		tex("linear.managed", &r, &t, NULL);
	}
	if (posix_memalign(&plain, 4096, 64 * KiB) == 0) {
		r = rlin((CUdeviceptr)(uintptr_t)plain, CU_AD_FORMAT_FLOAT, 1,
			 4096);
		tex("linear.pageable_host", &r, &t, NULL);
	}
	r = rlin((CUdeviceptr)0x7f0000000000ull, CU_AD_FORMAT_FLOAT, 1, 4096);
	tex("linear.unmapped_address", &r, &t, NULL);

	/* the sampling modes on a linear resource */
	r = rlin(g_mem, CU_AD_FORMAT_FLOAT, 1, 4096);
	t = tdesc();
	t.filterMode = CU_TR_FILTER_MODE_LINEAR;
	tex("linear.filter_linear", &r, &t, NULL);
	t.filterMode = 2;
	tex("linear.filter2", &r, &t, NULL);
	t = tdesc();
	t.addressMode[0] = CU_TR_ADDRESS_MODE_WRAP;
	tex("linear.wrap_unnormalized", &r, &t, NULL);
	t.addressMode[0] = 4;
	tex("linear.address4", &r, &t, NULL);
	t = tdesc();
	t.flags = 0x80;
	tex("linear.flags_0x80", &r, &t, NULL);
	t.flags = CU_TRSF_SEAMLESS_CUBEMAP;
	tex("linear.seamless", &r, &t, NULL);
	t = tdesc();
	t.mipmapFilterMode = 2;
	tex("linear.mipfilter2", &r, &t, NULL);
	r = rlin(g_mem, CU_AD_FORMAT_UNSIGNED_INT8, 1, 4096);
	t = tdesc();
	t.filterMode = CU_TR_FILTER_MODE_LINEAR;
	t.flags = CU_TRSF_READ_AS_INTEGER;
	tex("linear.u8_linear_filter_read_as_int", &r, &t, NULL);
	{
		CUDA_RESOURCE_VIEW_DESC v = vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32,
						  1024, 0, 0);
		r = rlin(g_mem, CU_AD_FORMAT_FLOAT, 1, 4096);
		t = tdesc();
		tex("linear.with_view", &r, &t, &v);
		v = vdesc(CU_RES_VIEW_FORMAT_NONE, 0, 0, 0);
		tex("linear.with_view_zero", &r, &t, &v);
	}
	if (pinned)
		cuMemFreeHost(pinned);
	if (managed)
		cuMemFree(managed);
	free(plain);
}

static void pitch2d(void)
{
	CUDA_TEXTURE_DESC t = tdesc();
	CUDA_RESOURCE_DESC r;
	CUdeviceptr p = g_mem;

	r = rpitch(p, CU_AD_FORMAT_FLOAT, 1, 100, 64, 512);
	tex("pitch2d.ok", &r, &t, NULL);
	r = rpitch(0, CU_AD_FORMAT_FLOAT, 1, 100, 64, 512);
	tex("pitch2d.devptr0", &r, &t, NULL);
	r = rpitch(p + 4, CU_AD_FORMAT_FLOAT, 1, 100, 64, 512);
	tex("pitch2d.misaligned4", &r, &t, NULL);
	r = rpitch(p + 32, CU_AD_FORMAT_FLOAT, 1, 100, 64, 512);
	tex("pitch2d.misaligned32", &r, &t, NULL);
	r = rpitch(p + 256, CU_AD_FORMAT_FLOAT, 1, 100, 64, 512);
	tex("pitch2d.misaligned256", &r, &t, NULL);
	r = rpitch(p, CU_AD_FORMAT_FLOAT, 1, 100, 64, 500);
	tex("pitch2d.pitch500", &r, &t, NULL);
	r = rpitch(p, CU_AD_FORMAT_FLOAT, 1, 100, 64, 416);
	tex("pitch2d.pitch416_row400", &r, &t, NULL);
	r = rpitch(p, CU_AD_FORMAT_FLOAT, 1, 100, 64, 400);
	tex("pitch2d.pitch400_row400", &r, &t, NULL);
	r = rpitch(p, CU_AD_FORMAT_FLOAT, 1, 100, 64, 384);
	tex("pitch2d.pitch384_row400", &r, &t, NULL);
	r = rpitch(p, CU_AD_FORMAT_FLOAT, 1, 100, 64, 0);
	tex("pitch2d.pitch0", &r, &t, NULL);
	r = rpitch(p, CU_AD_FORMAT_FLOAT, 1, 0, 64, 512);
	tex("pitch2d.width0", &r, &t, NULL);
	r = rpitch(p, CU_AD_FORMAT_FLOAT, 1, 100, 0, 512);
	tex("pitch2d.height0", &r, &t, NULL);
	r = rpitch(p, CU_AD_FORMAT_FLOAT, 1, 1, 1, 32);
	tex("pitch2d.1x1", &r, &t, NULL);
	r = rpitch(p, CU_AD_FORMAT_UNSIGNED_INT8, 1, 131072, 2, 131072);
	tex("pitch2d.width131072", &r, &t, NULL);
	r = rpitch(p, CU_AD_FORMAT_UNSIGNED_INT8, 1, 131073, 2, 131104);
	tex("pitch2d.width131073", &r, &t, NULL);
	r = rpitch(p, CU_AD_FORMAT_UNSIGNED_INT8, 1, 16, 65000, 32);
	tex("pitch2d.height65000", &r, &t, NULL);
	r = rpitch(p, CU_AD_FORMAT_UNSIGNED_INT8, 1, 16, 65001, 32);
	tex("pitch2d.height65001", &r, &t, NULL);
	r = rpitch(p, CU_AD_FORMAT_UNSIGNED_INT8, 1, 16, 65536, 32);
	tex("pitch2d.height65536", &r, &t, NULL);
	r = rpitch(p, CU_AD_FORMAT_UNSIGNED_INT8, 1, 16, 2, 2097120);
	tex("pitch2d.pitch2097120", &r, &t, NULL);
	r = rpitch(p, CU_AD_FORMAT_UNSIGNED_INT8, 1, 16, 2, 2097152);
	tex("pitch2d.pitch2097152", &r, &t, NULL);
	r = rpitch(p, CU_AD_FORMAT_FLOAT, 4, 131072, 2, 2097152);
	tex("pitch2d.float4_width131072_pitch2m", &r, &t, NULL);
	r = rpitch(g_small, CU_AD_FORMAT_FLOAT, 1, 100, 1024, 512);
	tex("pitch2d.over_allocation", &r, &t, NULL);
	r = rpitch(p, 0x99, 1, 100, 64, 512);
	tex("pitch2d.bad_format", &r, &t, NULL);
	r = rpitch(p, CU_AD_FORMAT_FLOAT, 3, 100, 64, 512);
	tex("pitch2d.ch3", &r, &t, NULL);
	r = rpitch(p, CU_AD_FORMAT_BC1_UNORM, 4, 64, 64, 512);
	tex("pitch2d.bc1", &r, &t, NULL);
	/* together: which first */
	r = rpitch(p + 4, CU_AD_FORMAT_FLOAT, 1, 100, 64, 500);
	tex("pitch2d.misaligned_and_pitch500", &r, &t, NULL);
	r = rpitch(p, CU_AD_FORMAT_FLOAT, 1, 0, 64, 500);
	tex("pitch2d.width0_and_pitch500", &r, &t, NULL);
	r = rpitch(p, 0x99, 1, 0, 64, 512);
	tex("pitch2d.bad_format_and_width0", &r, &t, NULL);
	r = rpitch(p + 4, 0x99, 1, 100, 64, 512);
	tex("pitch2d.misaligned_and_bad_format", &r, &t, NULL);
	r = rpitch(p, CU_AD_FORMAT_FLOAT, 1, 200, 64, 512);
	tex("pitch2d.row_over_pitch_and_pitch_ok", &r, &t, NULL);
	/* sampling modes on pitch2D */
	r = rpitch(p, CU_AD_FORMAT_FLOAT, 1, 100, 64, 512);
	t = tdesc();
	t.filterMode = 2;
	tex("pitch2d.filter2", &r, &t, NULL);
	t = tdesc();
	t.addressMode[1] = CU_TR_ADDRESS_MODE_WRAP;
	tex("pitch2d.wrap_unnormalized", &r, &t, NULL);
	t.flags = CU_TRSF_NORMALIZED_COORDINATES;
	tex("pitch2d.wrap_normalized", &r, &t, NULL);
	t = tdesc();
	t.addressMode[2] = 7;
	tex("pitch2d.address_z7", &r, &t, NULL);
	r = rpitch(p, CU_AD_FORMAT_UNSIGNED_INT8, 1, 100, 64, 512);
	t = tdesc();
	t.filterMode = CU_TR_FILTER_MODE_LINEAR;
	t.flags = CU_TRSF_READ_AS_INTEGER;
	tex("pitch2d.u8_linear_filter_read_as_int", &r, &t, NULL);
	{
		CUDA_RESOURCE_VIEW_DESC v = vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32,
						  100, 64, 0);
		r = rpitch(p, CU_AD_FORMAT_FLOAT, 1, 100, 64, 512);
		t = tdesc();
		tex("pitch2d.with_view", &r, &t, &v);
	}
}

static void arrays(void)
{
	CUarray f2 = mkarr(64, 64, 0, CU_AD_FORMAT_FLOAT, 1, 0);
	CUarray f1 = mkarr(256, 0, 0, CU_AD_FORMAT_FLOAT, 1, 0);
	CUarray f3 = mkarr(16, 16, 16, CU_AD_FORMAT_FLOAT, 4, 0);
	CUarray lay = mkarr(32, 32, 4, CU_AD_FORMAT_FLOAT, 1,
			    CUDA_ARRAY3D_LAYERED);
	CUarray cube = mkarr(16, 16, 6, CU_AD_FORMAT_FLOAT, 1,
			     CUDA_ARRAY3D_CUBEMAP);
	CUarray u8 = mkarr(64, 64, 0, CU_AD_FORMAT_UNSIGNED_INT8, 1, 0);
	CUarray u32 = mkarr(64, 64, 0, CU_AD_FORMAT_UNSIGNED_INT32, 1, 0);
	CUarray u32x2 = mkarr(16, 16, 0, CU_AD_FORMAT_UNSIGNED_INT32, 2, 0);
	CUarray s16 = mkarr(64, 64, 0, CU_AD_FORMAT_SIGNED_INT16, 2, 0);
	CUarray h4 = mkarr(64, 64, 0, CU_AD_FORMAT_HALF, 4, 0);
	CUarray un8 = mkarr(64, 64, 0, CU_AD_FORMAT_UNORM_INT8X4, 4, 0);
	CUarray u8x4 = mkarr(64, 64, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0);
	CUarray bc1 = mkarr(64, 64, 0, CU_AD_FORMAT_BC1_UNORM, 4, 0);
	CUarray ldst = mkarr(64, 64, 0, CU_AD_FORMAT_FLOAT, 1,
			     CUDA_ARRAY3D_SURFACE_LDST);
	CUarray gather = mkarr(64, 64, 0, CU_AD_FORMAT_FLOAT, 1,
			       CUDA_ARRAY3D_TEXTURE_GATHER);
	CUDA_TEXTURE_DESC t = tdesc();
	CUDA_RESOURCE_DESC r;
	char l[96];

	struct { const char *n; CUarray a; } kinds[] = {
		{ "2d", f2 }, { "1d", f1 }, { "3d", f3 }, { "layered", lay },
		{ "cubemap", cube }, { "u8", u8 }, { "u32", u32 },
		{ "s16x2", s16 }, { "half4", h4 }, { "unorm8x4", un8 },
		{ "bc1", bc1 }, { "ldst", ldst }, { "gather", gather },
	};
	for (unsigned i = 0; i < sizeof kinds / sizeof *kinds; i++) {
		r = rarr(kinds[i].a);
		snprintf(l, sizeof l, "array.ok_%s", kinds[i].n);
		tex(l, &r, &t, NULL);
	}

	/* filtering an integer format */
	static const struct { const char *n; int which; unsigned flags; } filt[] = {
		{ "u8_linear", 0, 0 },
		{ "u8_linear_read_as_int", 0, CU_TRSF_READ_AS_INTEGER },
		{ "u8_linear_read_as_int_normalized", 0,
		  CU_TRSF_READ_AS_INTEGER | CU_TRSF_NORMALIZED_COORDINATES },
		{ "u32_linear", 1, 0 },
		{ "u32_linear_read_as_int", 1, CU_TRSF_READ_AS_INTEGER },
		{ "s16x2_linear_read_as_int", 2, CU_TRSF_READ_AS_INTEGER },
		{ "float_linear_read_as_int", 3, CU_TRSF_READ_AS_INTEGER },
		{ "half4_linear_read_as_int", 4, CU_TRSF_READ_AS_INTEGER },
		{ "unorm8x4_linear_read_as_int", 5, CU_TRSF_READ_AS_INTEGER },
		{ "bc1_linear", 6, 0 },
		{ "bc1_linear_read_as_int", 6, CU_TRSF_READ_AS_INTEGER },
		{ "u8x4_linear_read_as_int", 7, CU_TRSF_READ_AS_INTEGER },
		{ "u8_point_read_as_int", 8, CU_TRSF_READ_AS_INTEGER },
		{ "u32_point_read_as_int", 9, CU_TRSF_READ_AS_INTEGER },
	};
	CUarray fa[] = { u8, u32, s16, f2, h4, un8, bc1, u8x4, u8, u32 };
	for (unsigned i = 0; i < sizeof filt / sizeof *filt; i++) {
		r = rarr(fa[filt[i].which]);
		t = tdesc();
		t.filterMode = filt[i].which >= 8 ? CU_TR_FILTER_MODE_POINT :
			       CU_TR_FILTER_MODE_LINEAR;
		t.flags = filt[i].flags;
		snprintf(l, sizeof l, "array.%s", filt[i].n);
		tex(l, &r, &t, NULL);
	}

	/* filter, address modes, flags */
	r = rarr(f2);
	t = tdesc();
	t.filterMode = 2;
	tex("array.filter2", &r, &t, NULL);
	t.filterMode = (CUfilter_mode)-1;
	tex("array.filter_neg1", &r, &t, NULL);
	for (int d = 0; d < 3; d++) {
		t = tdesc();
		t.addressMode[d] = 4;
		snprintf(l, sizeof l, "array.2d_address%d_4", d);
		tex(l, &r, &t, NULL);
	}
	r = rarr(f1);
	t = tdesc();
	t.addressMode[1] = 4;
	tex("array.1d_address1_4", &r, &t, NULL);
	r = rarr(f2);
	static const struct { const char *n; CUaddress_mode m; } am[] = {
		{ "wrap", CU_TR_ADDRESS_MODE_WRAP },
		{ "mirror", CU_TR_ADDRESS_MODE_MIRROR },
		{ "border", CU_TR_ADDRESS_MODE_BORDER },
	};
	for (unsigned i = 0; i < 3; i++) {
		t = tdesc();
		t.addressMode[0] = am[i].m;
		snprintf(l, sizeof l, "array.%s_unnormalized", am[i].n);
		tex(l, &r, &t, NULL);
		t.flags = CU_TRSF_NORMALIZED_COORDINATES;
		snprintf(l, sizeof l, "array.%s_normalized", am[i].n);
		tex(l, &r, &t, NULL);
	}
	static const unsigned fl[] = { 0x04, 0x08, 0x80, 0x100, 0x80000000u,
				       CU_TRSF_SRGB,
				       CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION,
				       CU_TRSF_SEAMLESS_CUBEMAP };
	for (unsigned i = 0; i < sizeof fl / sizeof *fl; i++) {
		t = tdesc();
		t.flags = fl[i];
		snprintf(l, sizeof l, "array.flags_%#x", fl[i]);
		tex(l, &r, &t, NULL);
	}
	r = rarr(un8);
	t = tdesc();
	t.flags = CU_TRSF_SRGB;
	tex("array.srgb_unorm8x4", &r, &t, NULL);
	r = rarr(u8x4);
	tex("array.srgb_u8x4", &r, &t, NULL);
	t.flags = CU_TRSF_SRGB | CU_TRSF_READ_AS_INTEGER;
	tex("array.srgb_u8x4_read_as_int", &r, &t, NULL);
	r = rarr(cube);
	t = tdesc();
	t.flags = CU_TRSF_SEAMLESS_CUBEMAP;
	tex("array.seamless_cubemap", &r, &t, NULL);
	r = rarr(f2);
	t = tdesc();
	t.mipmapFilterMode = 2;
	tex("array.mipfilter2", &r, &t, NULL);
	t = tdesc();
	t.mipmapFilterMode = CU_TR_FILTER_MODE_LINEAR;
	t.mipmapLevelBias = 1.5f;
	t.minMipmapLevelClamp = 0.5f;
	t.maxMipmapLevelClamp = 3.0f;
	tex("array.mip_fields_nonmipmapped", &r, &t, NULL);
	t = tdesc();
	t.maxAnisotropy = 100;
	tex("array.aniso100", &r, &t, NULL);
	t = tdesc();
	t.reserved[0] = 1;
	tex("array.tex_reserved1", &r, &t, NULL);
	t = tdesc();
	t.borderColor[0] = 0.0f / 0.0f;
	tex("array.border_nan", &r, &t, NULL);
	/* together: which first */
	t = tdesc();
	t.filterMode = 2;
	t.addressMode[0] = 4;
	tex("array.filter2_and_address4", &r, &t, NULL);
	t = tdesc();
	t.addressMode[0] = 4;
	t.flags = 0x80;
	tex("array.address4_and_flags_0x80", &r, &t, NULL);
	r.flags = 1;
	t = tdesc();
	t.filterMode = 2;
	tex("array.res_flags1_and_filter2", &r, &t, NULL);
	r = rarr(NULL);
	tex("array.null_and_filter2", &r, &t, NULL);
	R("array.null_out_and_filter2", cuTexObjectCreate(NULL, &r, &t,
							   NULL));

	/* round trips */
	{
		CUtexObject h;
		r = rarr(f2);
		t = tdesc();
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
		t.borderColor[1] = 0.5f;
		t.borderColor[2] = 0.75f;
		t.borderColor[3] = 1.0f;
		h = mktex(&r, &t, NULL);
		get_all("get.array_all_fields", h);
		{
			CUDA_RESOURCE_DESC rd;
			memset(&rd, 0, sizeof rd);
			CK(cuTexObjectGetResourceDesc(&rd, h));
			P("texobj.get.array_same_handle: %d\n",
			  rd.res.array.hArray == f2);
		}
		cuTexObjectDestroy(h);
		t = tdesc();
		t.maxAnisotropy = 0;
		h = mktex(&r, &t, NULL);
		get_all("get.array_aniso0", h);
		cuTexObjectDestroy(h);
		t.maxAnisotropy = 16;
		t.flags = CU_TRSF_READ_AS_INTEGER;
		h = mktex(&r, &t, NULL);
		get_all("get.array_float_read_as_int", h);
		cuTexObjectDestroy(h);
		r = rarr(u32);
		t = tdesc();
		h = mktex(&r, &t, NULL);
		get_all("get.array_u32_no_flags", h);
		cuTexObjectDestroy(h);
		r = rarr(cube);
		t = tdesc();
		t.flags = CU_TRSF_SEAMLESS_CUBEMAP;
		t.addressMode[0] = CU_TR_ADDRESS_MODE_WRAP;
		h = mktex(&r, &t, NULL);
		get_all("get.cubemap_seamless_wrap", h);
		cuTexObjectDestroy(h);
		r = rlin(g_mem + 1024, CU_AD_FORMAT_HALF, 2, 8192);
		t = tdesc();
		t.filterMode = CU_TR_FILTER_MODE_LINEAR;
		t.addressMode[0] = CU_TR_ADDRESS_MODE_WRAP;
		t.flags = CU_TRSF_NORMALIZED_COORDINATES;
		h = mktex(&r, &t, NULL);
		get_all("get.linear", h);
		cuTexObjectDestroy(h);
		r = rpitch(g_mem + 512, CU_AD_FORMAT_UNSIGNED_INT16, 4, 60, 30,
			   512);
		t = tdesc();
		t.flags = CU_TRSF_READ_AS_INTEGER;
		h = mktex(&r, &t, NULL);
		get_all("get.pitch2d", h);
		cuTexObjectDestroy(h);
	}

	/* resource views */
	{
		CUDA_RESOURCE_VIEW_DESC v;
		CUtexObject h;

		r = rarr(f2);
		t = tdesc();
		v = vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 64, 64, 0);
		tex("view.same", &r, &t, &v);
		h = mktex(&r, &t, &v);
		get_all("get.view_same", h);
		cuTexObjectDestroy(h);
		v = vdesc(CU_RES_VIEW_FORMAT_NONE, 64, 64, 0);
		tex("view.format_none", &r, &t, &v);
		v = vdesc(CU_RES_VIEW_FORMAT_NONE, 0, 0, 0);
		tex("view.all_zero", &r, &t, &v);
		v = vdesc(CU_RES_VIEW_FORMAT_UINT_1X32, 64, 64, 0);
		tex("view.uint32_on_float", &r, &t, &v);
		v = vdesc(CU_RES_VIEW_FORMAT_UINT_1X8, 64, 64, 0);
		tex("view.uint8_on_float", &r, &t, &v);
		v = vdesc(CU_RES_VIEW_FORMAT_FLOAT_2X32, 64, 64, 0);
		tex("view.float2_on_float", &r, &t, &v);
		v = vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 32, 64, 0);
		tex("view.width32", &r, &t, &v);
		v = vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 64, 32, 0);
		tex("view.height32", &r, &t, &v);
		v = vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 64, 64, 1);
		tex("view.depth1_on_2d", &r, &t, &v);
		v = vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 64, 64, 0);
		v.firstMipmapLevel = 1;
		v.lastMipmapLevel = 1;
		tex("view.mip1", &r, &t, &v);
		v = vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 64, 64, 0);
		v.lastMipmapLevel = 1;
		tex("view.lastmip1", &r, &t, &v);
		v = vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 64, 64, 0);
		v.firstLayer = 1;
		v.lastLayer = 1;
		tex("view.layer1_on_2d", &r, &t, &v);
		v = vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 64, 64, 0);
		v.reserved[0] = 1;
		tex("view.reserved1", &r, &t, &v);
		v = vdesc(99, 64, 64, 0);
		tex("view.format99", &r, &t, &v);
		/* layered */
		r = rarr(lay);
		v = vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 32, 32, 4);
		tex("view.layered_all", &r, &t, &v);
		v.firstLayer = 1;
		v.lastLayer = 2;
		tex("view.layered_1_2", &r, &t, &v);
		h = mktex(&r, &t, &v);
		get_all("get.view_layered_1_2", h);
		cuTexObjectDestroy(h);
		v.depth = 2;
		tex("view.layered_1_2_depth2", &r, &t, &v);
		v.depth = 4;
		v.firstLayer = 2;
		v.lastLayer = 1;
		tex("view.layered_2_1", &r, &t, &v);
		v.firstLayer = 0;
		v.lastLayer = 4;
		tex("view.layered_0_4", &r, &t, &v);
		v = vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 32, 32, 0);
		tex("view.layered_depth0", &r, &t, &v);
		/* 3D */
		r = rarr(f3);
		v = vdesc(CU_RES_VIEW_FORMAT_FLOAT_4X32, 16, 16, 16);
		tex("view.3d_same", &r, &t, &v);
		v.depth = 8;
		tex("view.3d_depth8", &r, &t, &v);
		/* block-compressed views of uint32 arrays, and on bc1 */
		r = rarr(u32x2);
		v = vdesc(CU_RES_VIEW_FORMAT_UNSIGNED_BC1, 64, 64, 0);
		tex("view.bc1_on_u32x2", &r, &t, &v);
		v = vdesc(CU_RES_VIEW_FORMAT_UNSIGNED_BC1, 16, 16, 0);
		tex("view.bc1_on_u32x2_same_extent", &r, &t, &v);
		v = vdesc(CU_RES_VIEW_FORMAT_UNSIGNED_BC2, 64, 64, 0);
		tex("view.bc2_on_u32x2", &r, &t, &v);
		r = rarr(bc1);
		v = vdesc(CU_RES_VIEW_FORMAT_UNSIGNED_BC1, 64, 64, 0);
		tex("view.bc1_on_bc1", &r, &t, &v);
		v = vdesc(CU_RES_VIEW_FORMAT_NONE, 64, 64, 0);
		tex("view.none_on_bc1", &r, &t, &v);
		/* together */
		r = rarr(f2);
		t = tdesc();
		t.filterMode = 2;
		v = vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 32, 64, 0);
		tex("view.width32_and_filter2", &r, &t, &v);
		t = tdesc();
		r = rarr(f2);
		v = vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 64, 64, 0);
		h = mktex(&r, &t, NULL);
		get_all("get.no_view", h);
		cuTexObjectDestroy(h);
	}

	CUarray all[] = { f2, f1, f3, lay, cube, u8, u32, u32x2, s16, h4, un8,
			  u8x4, bc1, ldst, gather };
	for (unsigned i = 0; i < sizeof all / sizeof *all; i++)
		if (all[i])
			cuArrayDestroy(all[i]);
}

static void getters(void)
{
	CUDA_RESOURCE_DESC lin = rlin(g_mem, CU_AD_FORMAT_FLOAT, 1, 4096);
	CUDA_TEXTURE_DESC t = tdesc();
	CUarray a = mkarr(64, 64, 0, CU_AD_FORMAT_FLOAT, 1,
			  CUDA_ARRAY3D_SURFACE_LDST);
	CUtexObject h = mktex(&lin, &t, NULL);
	CUsurfObject s = mksurf(a);
	CUDA_RESOURCE_DESC rd;
	CUDA_TEXTURE_DESC td;
	CUDA_RESOURCE_VIEW_DESC vd;

	R("get.tex_res_null", cuTexObjectGetResourceDesc(NULL, h));
	R("get.tex_tex_null", cuTexObjectGetTextureDesc(NULL, h));
	R("get.tex_view_null", cuTexObjectGetResourceViewDesc(NULL, h));
	R("get.surf_res_null", cuSurfObjectGetResourceDesc(NULL, s));
	R("get.tex_res_handle0", cuTexObjectGetResourceDesc(&rd, 0));
	R("get.tex_tex_handle0", cuTexObjectGetTextureDesc(&td, 0));
	R("get.tex_view_handle0", cuTexObjectGetResourceViewDesc(&vd, 0));
	R("get.surf_res_handle0", cuSurfObjectGetResourceDesc(&rd, 0));
	R("get.tex_res_null_handle0", cuTexObjectGetResourceDesc(NULL, 0));
	R("get.surf_res_null_handle0", cuSurfObjectGetResourceDesc(NULL, 0));
	memset(&rd, 0xab, sizeof rd);
	print_res("get.surf", cuSurfObjectGetResourceDesc(&rd, s), &rd);
	P("texobj.get.surf_same_handle: %d\n", rd.res.array.hArray == a);

	CK(cuCtxSetCurrent(NULL));
	R("get.noctx_tex_res", cuTexObjectGetResourceDesc(&rd, h));
	R("get.noctx_tex_tex", cuTexObjectGetTextureDesc(&td, h));
	R("get.noctx_tex_view", cuTexObjectGetResourceViewDesc(&vd, h));
	R("get.noctx_surf_res", cuSurfObjectGetResourceDesc(&rd, s));
	R("get.noctx_tex_res_null", cuTexObjectGetResourceDesc(NULL, h));
	R("get.noctx_tex_res_handle0", cuTexObjectGetResourceDesc(&rd, 0));
	R("destroy.noctx_tex_handle0", cuTexObjectDestroy(0));
	R("destroy.noctx_surf_handle0", cuSurfObjectDestroy(0));
	R("destroy.noctx_tex", cuTexObjectDestroy(h));
	R("destroy.noctx_surf", cuSurfObjectDestroy(s));
	CK(cuCtxSetCurrent(g_ctx[0]));
	CK(cuTexObjectDestroy(h));
	CK(cuSurfObjectDestroy(s));

	R("destroy.tex_handle0", cuTexObjectDestroy(0));
	R("destroy.surf_handle0", cuSurfObjectDestroy(0));

	/* an object of one context, from another context of the device */
	{
		CUcontext c2;
		CK(cuCtxCreate(&c2, NULL, 0, g_dev[0]));
		CK(cuCtxSetCurrent(g_ctx[0]));
		h = mktex(&lin, &t, NULL);
		s = mksurf(a);
		CK(cuCtxSetCurrent(c2));
		R("get.otherctx_tex_res", cuTexObjectGetResourceDesc(&rd, h));
		R("get.otherctx_surf_res", cuSurfObjectGetResourceDesc(&rd, s));
		R("destroy.otherctx_tex", cuTexObjectDestroy(h));
		R("destroy.otherctx_surf", cuSurfObjectDestroy(s));
		/* the array of the primary context, a texture in c2 */
		{
			CUDA_RESOURCE_DESC ar = rarr(a);
			tex("create.otherctx_array", &ar, &t, NULL);
			surf("surf.otherctx_array", &ar);
		}
		CK(cuCtxSetCurrent(g_ctx[0]));
		CK(cuCtxDestroy(c2));
		CK(cuCtxSetCurrent(g_ctx[0]));
	}
	cuArrayDestroy(a);
}

static void surfaces(void)
{
	CUarray ldst2 = mkarr(64, 64, 0, CU_AD_FORMAT_FLOAT, 1,
			      CUDA_ARRAY3D_SURFACE_LDST);
	CUarray ldst1 = mkarr(256, 0, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4,
			      CUDA_ARRAY3D_SURFACE_LDST);
	CUarray ldst3 = mkarr(16, 16, 16, CU_AD_FORMAT_FLOAT, 4,
			      CUDA_ARRAY3D_SURFACE_LDST);
	CUarray ldstl = mkarr(32, 32, 4, CU_AD_FORMAT_HALF, 2,
			      CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_LAYERED);
	CUarray ldstc = mkarr(16, 16, 6, CU_AD_FORMAT_FLOAT, 1,
			      CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_CUBEMAP);
	CUarray plain = mkarr(64, 64, 0, CU_AD_FORMAT_FLOAT, 1, 0);
	CUarray bcl = mkarr(64, 64, 0, CU_AD_FORMAT_BC1_UNORM, 4,
			    CUDA_ARRAY3D_SURFACE_LDST);
	CUarray unl = mkarr(64, 64, 0, CU_AD_FORMAT_UNORM_INT8X4, 4,
			    CUDA_ARRAY3D_SURFACE_LDST);
	CUDA_RESOURCE_DESC r;

	r = rarr(ldst2);
	surf("surf.ok_2d", &r);
	r = rarr(ldst1);
	surf("surf.ok_1d", &r);
	r = rarr(ldst3);
	surf("surf.ok_3d", &r);
	r = rarr(ldstl);
	surf("surf.ok_layered", &r);
	r = rarr(ldstc);
	surf("surf.ok_cubemap", &r);
	r = rarr(unl);
	surf("surf.ok_unorm8x4", &r);
	if (bcl) {
		r = rarr(bcl);
		surf("surf.bc1_ldst", &r);
	}
	r = rarr(plain);
	surf("surf.no_ldst", &r);
	/* a NULL out with a valid array faults in the driver: risky
	 * surf_null_out */
	r = rarr(ldst2);
	surf("surf.null_res", NULL);
	R("surf.null_both", cuSurfObjectCreate(NULL, NULL));
	CK(cuCtxSetCurrent(NULL));
	surf("surf.noctx", &r);
	surf("surf.noctx_null_res", NULL);
	CK(cuCtxSetCurrent(g_ctx[0]));
	r = rarr(ldst2);
	r.flags = 1;
	surf("surf.res_flags1", &r);
	r = rarr(plain);
	r.flags = 1;
	surf("surf.res_flags1_no_ldst", &r);
	r = rarr(NULL);
	surf("surf.array_null", &r);
	r.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
	surf("surf.mipmap_null", &r);
	r = rlin(g_mem, CU_AD_FORMAT_FLOAT, 1, 4096);
	surf("surf.linear", &r);
	r.res.linear.devPtr = g_mem + 4;
	surf("surf.linear_misaligned", &r);
	r = rpitch(g_mem, CU_AD_FORMAT_FLOAT, 1, 100, 64, 512);
	surf("surf.pitch2d", &r);
	r = rarr(ldst2);
	r.resType = 9;
	surf("surf.restype9", &r);
	r = rlin(g_mem, CU_AD_FORMAT_FLOAT, 1, 4096);
	R("surf.null_out_linear", cuSurfObjectCreate(NULL, &r));
	{
		CUsurfObject s = mksurf(ldst3);
		CUDA_RESOURCE_DESC rd;
		memset(&rd, 0xab, sizeof rd);
		print_res("get.surf_3d", cuSurfObjectGetResourceDesc(&rd, s),
			  &rd);
		cuSurfObjectDestroy(s);
	}
	CUarray all[] = { ldst2, ldst1, ldst3, ldstl, ldstc, plain, bcl, unl };
	for (unsigned i = 0; i < sizeof all / sizeof *all; i++)
		if (all[i])
			cuArrayDestroy(all[i]);
}

/* What the first run left open: the linear size bound, numbering across
 * contexts, a destroy from another context, the address modes a kind
 * checks, layer ranges, views on linear and pitch2D memory, which check
 * comes first beside PEER_ACCESS_NOT_ENABLED, a view of format NONE, where
 * a surface made with no current context lives, and a freed handle's
 * reuse. */
static void followups(void)
{
	CUDA_TEXTURE_DESC t = tdesc();
	CUDA_RESOURCE_DESC r;
	char l[96];

	static const struct { CUarray_format f; unsigned n; size_t bytes;
			      const char *n2; } sz[] = {
		{ CU_AD_FORMAT_FLOAT, 1, (size_t)1 << 32, "float_2p32" },
		{ CU_AD_FORMAT_FLOAT, 1, ((size_t)1 << 32) + 4, "float_2p32_plus4" },
		{ CU_AD_FORMAT_FLOAT, 1, ((size_t)1 << 31), "float_2p31" },
		{ CU_AD_FORMAT_FLOAT, 1, ((size_t)1 << 31) + 4, "float_2p31_plus4" },
		{ CU_AD_FORMAT_UNSIGNED_INT8, 1, (size_t)1 << 32, "u8_2p32" },
		{ CU_AD_FORMAT_UNSIGNED_INT8, 1, ((size_t)1 << 32) + 1, "u8_2p32_plus1" },
		{ CU_AD_FORMAT_UNSIGNED_INT8, 1, ((size_t)1 << 30), "u8_2p30" },
		{ CU_AD_FORMAT_UNSIGNED_INT8, 1, ((size_t)1 << 30) + 1, "u8_2p30_plus1" },
		{ CU_AD_FORMAT_UNSIGNED_INT8, 1, ((size_t)1 << 29) + 1, "u8_2p29_plus1" },
		{ CU_AD_FORMAT_FLOAT, 2, (size_t)1 << 32, "float2_2p32" },
		{ CU_AD_FORMAT_FLOAT, 2, ((size_t)1 << 32) + 8, "float2_2p32_plus8" },
		{ CU_AD_FORMAT_FLOAT, 4, ((size_t)1 << 32) + 1, "float4_2p32_plus1" },
		{ CU_AD_FORMAT_FLOAT, 4, ((size_t)1 << 32) + 15, "float4_2p32_plus15" },
		{ CU_AD_FORMAT_HALF, 1, ((size_t)1 << 32) + 2, "half_2p32_plus2" },
		{ CU_AD_FORMAT_UNSIGNED_INT8, 1, (size_t)1 << 33, "u8_2p33" },
	};
	for (unsigned i = 0; i < sizeof sz / sizeof *sz; i++) {
		r = rlin(g_mem, sz[i].f, sz[i].n, sz[i].bytes);
		snprintf(l, sizeof l, "more.linear_size_%s", sz[i].n2);
		tex(l, &r, &t, NULL);
	}
	static const struct { CUarray_format f; unsigned n; } lf[] = {
		{ CU_AD_FORMAT_UNORM_INT_101010_2, 1 },
		{ CU_AD_FORMAT_UNORM_INT16X1, 1 }, { CU_AD_FORMAT_SNORM_INT8X1, 1 },
		{ CU_AD_FORMAT_SNORM_INT16X4, 4 }, { CU_AD_FORMAT_UNSIGNED_INT16, 4 },
		{ CU_AD_FORMAT_SIGNED_INT32, 2 },
	};
	for (unsigned i = 0; i < sizeof lf / sizeof *lf; i++) {
		r = rlin(g_mem, lf[i].f, lf[i].n, 4096);
		snprintf(l, sizeof l, "more.linear_format_%#x_ch%u", lf[i].f,
			 lf[i].n);
		tex(l, &r, &t, NULL);
		r = rpitch(g_mem, lf[i].f, lf[i].n, 16, 16, 512);
		snprintf(l, sizeof l, "more.pitch2d_format_%#x_ch%u", lf[i].f,
			 lf[i].n);
		tex(l, &r, &t, NULL);
	}

	/* freed handles: back to back, and with a pause */
	{
		CUDA_RESOURCE_DESC lin = rlin(g_mem, CU_AD_FORMAT_FLOAT, 1, 4096);
		CUtexObject keep = mktex(&lin, &t, NULL), h[8];
		char b[256];
		int n = 0;
		for (int i = 0; i < 8; i++) {
			h[i] = mktex(&lin, &t, NULL);
			CK(cuTexObjectDestroy(h[i]));
		}
		n = snprintf(b, sizeof b, "keep=%llu", keep);
		for (int i = 0; i < 8; i++)
			n += snprintf(b + n, sizeof b - n, " %llu", h[i]);
		P("texobj.more.reuse_back_to_back: %s\n", b);
		for (int i = 0; i < 8; i++) {
			h[i] = mktex(&lin, &t, NULL);
			CK(cuTexObjectDestroy(h[i]));
			usleep(20000);
		}
		n = 0;
		for (int i = 0; i < 8; i++)
			n += snprintf(b + n, sizeof b - n, " %llu", h[i]);
		P("texobj.more.reuse_paused_20ms:%s\n", b);
		for (int i = 0; i < 8; i++) {
			h[i] = mktex(&lin, &t, NULL);
			CK(cuTexObjectDestroy(h[i]));
			CK(cuCtxSynchronize());
		}
		n = 0;
		for (int i = 0; i < 8; i++)
			n += snprintf(b + n, sizeof b - n, " %llu", h[i]);
		P("texobj.more.reuse_synchronized:%s\n", b);
		cuTexObjectDestroy(keep);
	}

	/* address modes past a kind's dimensions */
	{
		CUarray l1 = mkarr(32, 0, 4, CU_AD_FORMAT_FLOAT, 1,
				   CUDA_ARRAY3D_LAYERED);
		CUarray l2 = mkarr(32, 32, 4, CU_AD_FORMAT_FLOAT, 1,
				   CUDA_ARRAY3D_LAYERED);
		CUarray cb = mkarr(16, 16, 6, CU_AD_FORMAT_FLOAT, 1,
				   CUDA_ARRAY3D_CUBEMAP);
		CUarray cbl = mkarr(16, 16, 12, CU_AD_FORMAT_FLOAT, 1,
				    CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED);
		CUarray a3 = mkarr(16, 16, 16, CU_AD_FORMAT_FLOAT, 1, 0);
		CUarray a1 = mkarr(64, 0, 0, CU_AD_FORMAT_FLOAT, 1, 0);
		struct { const char *n; CUarray a; } k[] = {
			{ "1d", a1 }, { "layered1d", l1 }, { "layered2d", l2 },
			{ "cubemap", cb }, { "cubemap_layered", cbl },
			{ "3d", a3 },
		};
		for (unsigned i = 0; i < sizeof k / sizeof *k; i++)
			for (int d = 0; d < 3; d++) {
				r = rarr(k[i].a);
				t = tdesc();
				t.addressMode[d] = 4;
				snprintf(l, sizeof l, "more.address%d_4_%s", d,
					 k[i].n);
				tex(l, &r, &t, NULL);
			}
		r = rlin(g_mem, CU_AD_FORMAT_FLOAT, 1, 4096);
		for (int d = 1; d < 3; d++) {
			t = tdesc();
			t.addressMode[d] = 4;
			snprintf(l, sizeof l, "more.address%d_4_linear", d);
			tex(l, &r, &t, NULL);
		}
		r = rarr(cbl);
		t = tdesc();
		t.flags = CU_TRSF_SEAMLESS_CUBEMAP;
		tex("more.seamless_cubemap_layered", &r, &t, NULL);
		/* layer ranges */
		static const struct { const char *n; unsigned f, la; size_t d; } lr[] = {
			{ "0_3", 0, 3, 4 }, { "0_5", 0, 5, 4 }, { "0_100", 0, 100, 4 },
			{ "4_4", 4, 4, 4 }, { "3_3", 3, 3, 4 }, { "5_5", 5, 5, 4 },
		};
		for (unsigned i = 0; i < sizeof lr / sizeof *lr; i++) {
			CUDA_RESOURCE_VIEW_DESC v = vdesc(
				CU_RES_VIEW_FORMAT_FLOAT_1X32, 32, 32, lr[i].d);
			v.firstLayer = lr[i].f;
			v.lastLayer = lr[i].la;
			r = rarr(l2);
			t = tdesc();
			snprintf(l, sizeof l, "more.view_layers_%s", lr[i].n);
			tex(l, &r, &t, &v);
		}
		{
			CUDA_RESOURCE_VIEW_DESC v = vdesc(
				CU_RES_VIEW_FORMAT_FLOAT_1X32, 32, 0, 4);
			r = rarr(l1);
			tex("more.view_layered1d", &r, &t, &v);
			v = vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 16, 16, 6);
			r = rarr(cb);
			tex("more.view_cubemap", &r, &t, &v);
			v.firstLayer = 1;
			v.lastLayer = 1;
			tex("more.view_cubemap_layer1", &r, &t, &v);
			v = vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 16, 16, 12);
			v.firstLayer = 6;
			v.lastLayer = 11;
			r = rarr(cbl);
			tex("more.view_cubemap_layered_6_11", &r, &t, &v);
			v = vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 64, 0, 0);
			r = rarr(a1);
			tex("more.view_1d", &r, &t, &v);
			v.height = 1;
			tex("more.view_1d_height1", &r, &t, &v);
		}
		CUarray all[] = { l1, l2, cb, cbl, a3, a1 };
		for (unsigned i = 0; i < 6; i++)
			if (all[i])
				cuArrayDestroy(all[i]);
	}

	/* views on linear and pitch2D memory */
	{
		CUDA_RESOURCE_VIEW_DESC v = vdesc(CU_RES_VIEW_FORMAT_UINT_1X32,
						  1024, 0, 0);
		CUtexObject h;
		r = rlin(g_mem, CU_AD_FORMAT_FLOAT, 1, 4096);
		t = tdesc();
		h = mktex(&r, &t, &v);
		get_all("get.linear_view", h);
		cuTexObjectDestroy(h);
		v = vdesc(99, 7, 7, 7);
		v.reserved[0] = 5;
		v.firstMipmapLevel = 3;
		tex("more.linear_view_garbage", &r, &t, &v);
		r = rpitch(g_mem, CU_AD_FORMAT_FLOAT, 1, 100, 64, 512);
		v = vdesc(CU_RES_VIEW_FORMAT_UINT_1X8, 3, 3, 3);
		tex("more.pitch2d_view_mismatch", &r, &t, &v);
		v = vdesc(CU_RES_VIEW_FORMAT_UINT_1X32, 100, 64, 0);
		h = mktex(&r, &t, &v);
		get_all("get.pitch2d_view", h);
		cuTexObjectDestroy(h);
	}

	/* views of format NONE */
	{
		CUarray f = mkarr(64, 64, 0, CU_AD_FORMAT_FLOAT, 1, 0);
		CUarray u = mkarr(64, 64, 0, CU_AD_FORMAT_UNSIGNED_INT32, 2, 0);
		CUarray lay = mkarr(32, 32, 4, CU_AD_FORMAT_FLOAT, 1,
				    CUDA_ARRAY3D_LAYERED);
		CUDA_RESOURCE_VIEW_DESC v;
		r = rarr(f);
		t = tdesc();
		v = vdesc(CU_RES_VIEW_FORMAT_NONE, 64, 64, 0);
		tex("more.view_none_same", &r, &t, &v);
		v = vdesc(CU_RES_VIEW_FORMAT_NONE, 32, 64, 0);
		tex("more.view_none_width32", &r, &t, &v);
		v = vdesc(CU_RES_VIEW_FORMAT_NONE, 64, 64, 0);
		v.lastMipmapLevel = 1;
		tex("more.view_none_lastmip1", &r, &t, &v);
		r = rarr(u);
		v = vdesc(CU_RES_VIEW_FORMAT_NONE, 64, 64, 0);
		tex("more.view_none_u32x2", &r, &t, &v);
		v = vdesc(CU_RES_VIEW_FORMAT_UINT_2X32, 64, 64, 0);
		tex("more.view_u32x2_same", &r, &t, &v);
		v = vdesc(CU_RES_VIEW_FORMAT_SINT_2X32, 64, 64, 0);
		tex("more.view_s32x2_on_u32x2", &r, &t, &v);
		v = vdesc(CU_RES_VIEW_FORMAT_FLOAT_2X32, 64, 64, 0);
		tex("more.view_f32x2_on_u32x2", &r, &t, &v);
		v = vdesc(CU_RES_VIEW_FORMAT_UINT_4X16, 64, 64, 0);
		tex("more.view_u16x4_on_u32x2", &r, &t, &v);
		v = vdesc(CU_RES_VIEW_FORMAT_UINT_1X32, 64, 64, 0);
		tex("more.view_u32x1_on_u32x2", &r, &t, &v);
		v = vdesc(CU_RES_VIEW_FORMAT_SIGNED_BC4, 256, 256, 0);
		tex("more.view_sbc4_on_u32x2", &r, &t, &v);
		v = vdesc(CU_RES_VIEW_FORMAT_UNSIGNED_BC1, 256, 255, 0);
		tex("more.view_bc1_height255", &r, &t, &v);
		r = rarr(lay);
		v = vdesc(CU_RES_VIEW_FORMAT_NONE, 32, 32, 4);
		v.firstLayer = 1;
		v.lastLayer = 2;
		tex("more.view_none_layered", &r, &t, &v);
		cuArrayDestroy(f);
		cuArrayDestroy(u);
		cuArrayDestroy(lay);
	}

	/* contexts: numbering, a destroy from another context, the order
	 * beside PEER_ACCESS_NOT_ENABLED, a surface made with none current */
	{
		CUDA_RESOURCE_DESC lin = rlin(g_mem, CU_AD_FORMAT_FLOAT, 1, 4096);
		CUarray a = mkarr(64, 64, 0, CU_AD_FORMAT_FLOAT, 1,
				  CUDA_ARRAY3D_SURFACE_LDST);
		CUcontext c2;
		CUtexObject p1, p2, q1, q2;
		CUsurfObject ps, qs, ns;
		CUDA_RESOURCE_DESC rd;
		CUDA_RESOURCE_VIEW_DESC v;

		t = tdesc();
		p1 = mktex(&lin, &t, NULL);
		ps = mksurf(a);
		CK(cuCtxCreate(&c2, NULL, 0, g_dev[0]));
		q1 = mktex(&lin, &t, NULL);
		{
			CUarray b = mkarr(64, 64, 0, CU_AD_FORMAT_FLOAT, 1,
					  CUDA_ARRAY3D_SURFACE_LDST);
			qs = mksurf(b);
			q2 = mktex(&lin, &t, NULL);
			P("texobj.more.two_contexts: primary tex=%llu surf=%llu "
			  "second tex=%llu surf=%llu tex=%llu\n", p1, ps, q1, qs,
			  q2);
			R("more.otherctx_destroy_tex", cuTexObjectDestroy(p1));
			R("more.otherctx_destroy_surf", cuSurfObjectDestroy(ps));
			r = rarr(a);
			t.filterMode = 2;
			tex("more.otherctx_array_and_filter2", &r, &t, NULL);
			t = tdesc();
			r.flags = 1;
			tex("more.otherctx_array_and_res_flags1", &r, &t, NULL);
			r = rarr(a);
			v = vdesc(CU_RES_VIEW_FORMAT_FLOAT_1X32, 3, 3, 0);
			tex("more.otherctx_array_and_bad_view", &r, &t, &v);
			R("more.otherctx_array_null_out",
			  cuTexObjectCreate(NULL, &r, &t, NULL));
			t.flags = 0x80;
			tex("more.otherctx_array_and_flags_0x80", &r, &t, NULL);
			t = tdesc();
			CK(cuCtxSetCurrent(NULL));
			ns = SENTINEL;
			r = rarr(b);
			R("more.noctx_surf_of_second", cuSurfObjectCreate(&ns, &r));
			P("texobj.more.noctx_surf_of_second_handle: %llu\n", ns);
			CK(cuCtxSetCurrent(c2));
			memset(&rd, 0, sizeof rd);
			R("more.noctx_surf_in_second", cuSurfObjectGetResourceDesc(&rd, ns));
			CK(cuCtxSetCurrent(g_ctx[0]));
			R("more.noctx_surf_in_primary", cuSurfObjectGetResourceDesc(&rd, ns));
			CK(cuCtxSetCurrent(c2));
			cuSurfObjectDestroy(ns);
			cuSurfObjectDestroy(qs);
			cuTexObjectDestroy(q1);
			cuTexObjectDestroy(q2);
			cuArrayDestroy(b);
		}
		CK(cuCtxSetCurrent(g_ctx[0]));
		memset(&rd, 0, sizeof rd);
		R("more.primary_tex_after_otherctx_destroy",
		  cuTexObjectGetResourceDesc(&rd, p1));
		R("more.primary_surf_after_otherctx_destroy",
		  cuSurfObjectGetResourceDesc(&rd, ps));
		p2 = mktex(&lin, &t, NULL);
		P("texobj.more.primary_next: %llu\n", p2);
		CK(cuCtxDestroy(c2));
		CK(cuCtxSetCurrent(g_ctx[0]));
		cuTexObjectDestroy(p1);
		cuTexObjectDestroy(p2);
		cuSurfObjectDestroy(ps);
		cuArrayDestroy(a);
	}
}

/* ------------------------------------------------------------ risky */

static const char *const risky_cases[] = {
	"noinit", "tex_destroy_twice", "surf_destroy_twice",
	"tex_desc_destroyed", "surf_desc_destroyed", "tex_garbage",
	"surf_garbage", "tex_as_surf", "surf_as_tex", "array_garbage",
	"mipmap_garbage", "array_destroyed", "array_destroy_with_objects",
	"ctx_destroyed", "surf_first", "surf_null_out",
};

static int risky(const char *name)
{
	static char label[96];
	CUDA_TEXTURE_DESC t = tdesc();
	CUDA_RESOURCE_DESC rd, lin;
	CUDA_TEXTURE_DESC td;
	CUDA_RESOURCE_VIEW_DESC vd;
	CUtexObject h;
	CUsurfObject s;
	CUarray a;

	alarm(20);
	snprintf(label, sizeof label, "texobj.risky.%s", name);
	CASE(label);
	signal(SIGSEGV, on_sig);
	signal(SIGBUS, on_sig);
	signal(SIGABRT, on_sig);
	if (!strcmp(name, "noinit")) {
		memset(&lin, 0, sizeof lin);
		h = SENTINEL;
		R("risky.noinit.tex_create", cuTexObjectCreate(&h, &lin, &t,
							       NULL));
		R("risky.noinit.tex_create_null", cuTexObjectCreate(NULL, NULL,
								    NULL, NULL));
		R("risky.noinit.tex_destroy", cuTexObjectDestroy(1));
		R("risky.noinit.tex_res", cuTexObjectGetResourceDesc(&rd, 1));
		R("risky.noinit.tex_tex", cuTexObjectGetTextureDesc(&td, 1));
		R("risky.noinit.tex_view", cuTexObjectGetResourceViewDesc(&vd,
									 1));
		R("risky.noinit.surf_create", cuSurfObjectCreate(&s, &lin));
		R("risky.noinit.surf_destroy", cuSurfObjectDestroy(1));
		R("risky.noinit.surf_res", cuSurfObjectGetResourceDesc(&rd, 1));
		return 0;
	}
	CK(cuInit(0));
	CK(cuDeviceGet(&g_dev[0], 0));
	CK(cuDevicePrimaryCtxRetain(&g_ctx[0], g_dev[0]));
	CK(cuCtxSetCurrent(g_ctx[0]));
	CK(cuMemAlloc(&g_mem, 4 * MiB));
	lin = rlin(g_mem, CU_AD_FORMAT_FLOAT, 1, 4096);
	a = mkarr(64, 64, 0, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_SURFACE_LDST);

	if (!strcmp(name, "tex_destroy_twice")) {
		h = mktex(&lin, &t, NULL);
		R("risky.tex_destroy_twice.first", cuTexObjectDestroy(h));
		R("risky.tex_destroy_twice.second", cuTexObjectDestroy(h));
		CUtexObject h2 = mktex(&lin, &t, NULL);
		P("texobj.risky.tex_destroy_twice.next: old=%llu new=%llu\n",
		  h, h2);
	} else if (!strcmp(name, "surf_destroy_twice")) {
		s = mksurf(a);
		R("risky.surf_destroy_twice.first", cuSurfObjectDestroy(s));
		R("risky.surf_destroy_twice.second", cuSurfObjectDestroy(s));
	} else if (!strcmp(name, "tex_desc_destroyed")) {
		h = mktex(&lin, &t, NULL);
		CK(cuTexObjectDestroy(h));
		R("risky.tex_desc_destroyed.res", cuTexObjectGetResourceDesc(&rd, h));
		R("risky.tex_desc_destroyed.tex", cuTexObjectGetTextureDesc(&td, h));
		R("risky.tex_desc_destroyed.view",
		  cuTexObjectGetResourceViewDesc(&vd, h));
	} else if (!strcmp(name, "surf_desc_destroyed")) {
		s = mksurf(a);
		CK(cuSurfObjectDestroy(s));
		R("risky.surf_desc_destroyed.res",
		  cuSurfObjectGetResourceDesc(&rd, s));
	} else if (!strcmp(name, "tex_garbage")) {
		h = mktex(&lin, &t, NULL);
		R("risky.tex_garbage.res_h_plus_1000",
		  cuTexObjectGetResourceDesc(&rd, h + 1000));
		R("risky.tex_garbage.res_0x123456789",
		  cuTexObjectGetResourceDesc(&rd, 0x123456789ull));
		R("risky.tex_garbage.tex_h_plus_1000",
		  cuTexObjectGetTextureDesc(&td, h + 1000));
		R("risky.tex_garbage.destroy_h_plus_1000",
		  cuTexObjectDestroy(h + 1000));
		R("risky.tex_garbage.destroy_all_ones",
		  cuTexObjectDestroy(~0ull));
	} else if (!strcmp(name, "surf_garbage")) {
		s = mksurf(a);
		R("risky.surf_garbage.res_s_plus_1000",
		  cuSurfObjectGetResourceDesc(&rd, s + 1000));
		R("risky.surf_garbage.destroy_s_plus_1000",
		  cuSurfObjectDestroy(s + 1000));
		R("risky.surf_garbage.destroy_all_ones",
		  cuSurfObjectDestroy(~0ull));
	} else if (!strcmp(name, "tex_as_surf")) {
		h = mktex(&lin, &t, NULL);
		R("risky.tex_as_surf.res", cuSurfObjectGetResourceDesc(&rd, h));
		R("risky.tex_as_surf.destroy", cuSurfObjectDestroy(h));
		R("risky.tex_as_surf.tex_still_there",
		  cuTexObjectGetResourceDesc(&rd, h));
	} else if (!strcmp(name, "surf_as_tex")) {
		s = mksurf(a);
		R("risky.surf_as_tex.res", cuTexObjectGetResourceDesc(&rd, s));
		R("risky.surf_as_tex.tex", cuTexObjectGetTextureDesc(&td, s));
		R("risky.surf_as_tex.view",
		  cuTexObjectGetResourceViewDesc(&vd, s));
		R("risky.surf_as_tex.destroy", cuTexObjectDestroy(s));
		R("risky.surf_as_tex.surf_still_there",
		  cuSurfObjectGetResourceDesc(&rd, s));
	} else if (!strcmp(name, "array_garbage")) {
		rd = rarr((CUarray)(uintptr_t)0x12345678);
		h = SENTINEL;
		R("risky.array_garbage.tex", cuTexObjectCreate(&h, &rd, &t, NULL));
		R("risky.array_garbage.surf", cuSurfObjectCreate(&s, &rd));
	} else if (!strcmp(name, "mipmap_garbage")) {
		rd = rarr((CUarray)(uintptr_t)0x12345678);
		rd.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
		R("risky.mipmap_garbage.tex", cuTexObjectCreate(&h, &rd, &t, NULL));
		R("risky.mipmap_garbage.surf", cuSurfObjectCreate(&s, &rd));
	} else if (!strcmp(name, "array_destroyed")) {
		CUarray b = mkarr(64, 64, 0, CU_AD_FORMAT_FLOAT, 1,
				  CUDA_ARRAY3D_SURFACE_LDST);
		CK(cuArrayDestroy(b));
		rd = rarr(b);
		R("risky.array_destroyed.tex", cuTexObjectCreate(&h, &rd, &t, NULL));
		R("risky.array_destroyed.surf", cuSurfObjectCreate(&s, &rd));
	} else if (!strcmp(name, "array_destroy_with_objects")) {
		rd = rarr(a);
		h = mktex(&rd, &t, NULL);
		s = mksurf(a);
		R("risky.array_destroy_with_objects.array_destroy",
		  cuArrayDestroy(a));
		memset(&rd, 0, sizeof rd);
		R("risky.array_destroy_with_objects.tex_res",
		  cuTexObjectGetResourceDesc(&rd, h));
		R("risky.array_destroy_with_objects.surf_res",
		  cuSurfObjectGetResourceDesc(&rd, s));
		R("risky.array_destroy_with_objects.tex_destroy",
		  cuTexObjectDestroy(h));
		R("risky.array_destroy_with_objects.surf_destroy",
		  cuSurfObjectDestroy(s));
	} else if (!strcmp(name, "ctx_destroyed")) {
		CUcontext c2;
		CUarray b;
		CUsurfObject s2;
		CK(cuCtxCreate(&c2, NULL, 0, g_dev[0]));
		b = mkarr(64, 64, 0, CU_AD_FORMAT_FLOAT, 1,
			  CUDA_ARRAY3D_SURFACE_LDST);
		rd = rarr(b);
		h = mktex(&rd, &t, NULL);
		s2 = mksurf(b);
		P("texobj.risky.ctx_destroyed.handles: tex=%llu surf=%llu\n",
		  h, s2);
		CK(cuCtxDestroy(c2));
		CK(cuCtxSetCurrent(g_ctx[0]));
		R("risky.ctx_destroyed.tex_res", cuTexObjectGetResourceDesc(&rd, h));
		R("risky.ctx_destroyed.surf_res",
		  cuSurfObjectGetResourceDesc(&rd, s2));
		R("risky.ctx_destroyed.tex_destroy", cuTexObjectDestroy(h));
		R("risky.ctx_destroyed.surf_destroy", cuSurfObjectDestroy(s2));
		CUtexObject h2 = mktex(&lin, &t, NULL);
		P("texobj.risky.ctx_destroyed.next_tex: %llu\n", h2);
	} else if (!strcmp(name, "surf_null_out")) {
		CUarray plain = mkarr(64, 64, 0, CU_AD_FORMAT_FLOAT, 1, 0);
		rd = rarr(a);
		R("risky.surf_null_out.ldst", cuSurfObjectCreate(NULL, &rd));
		rd = rarr(plain);
		R("risky.surf_null_out.no_ldst", cuSurfObjectCreate(NULL, &rd));
		CK(cuCtxSetCurrent(NULL));
		rd = rarr(a);
		R("risky.surf_null_out.noctx", cuSurfObjectCreate(NULL, &rd));
	} else if (!strcmp(name, "surf_first")) {
		s = mksurf(a);
		h = mktex(&lin, &t, NULL);
		CUsurfObject s2 = mksurf(a);
		P("texobj.risky.surf_first.handles: surf1=%llu tex1=%llu "
		  "surf2=%llu\n", s, h, s2);
	} else {
		P("%s: unknown case\n", label);
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "risky"))
		return risky(argv[2]);
	setup("texobj");
	CK(cuMemAlloc(&g_mem, 4 * MiB));
	CK(cuMemAlloc(&g_small, 64 * KiB));
	P("texobj.mem_align: base%%512=%llu small%%512=%llu\n",
	  (unsigned long long)(g_mem % 512),
	  (unsigned long long)(g_small % 512));
	handles();
	attrs();
	create_order();
	linear();
	pitch2d();
	arrays();
	getters();
	surfaces();
	followups();
	cuMemFree(g_small);
	cuMemFree(g_mem);
	teardown("texobj");

	for (unsigned i = 0; i < sizeof risky_cases / sizeof *risky_cases;
	     i++) {
		pid_t pid = fork();
		if (pid == 0) {
			execl("/proc/self/exe", argv[0], "risky",
			      risky_cases[i], (char *)NULL);
			_exit(127);
		}
		int st = 0;
		waitpid(pid, &st, 0);
		printf("texobj.risky.%s.exit: %d\n", risky_cases[i],
		       WIFEXITED(st) ? WEXITSTATUS(st) :
		       WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1);
		fflush(stdout);
	}
	return 0;
}
