/*
 * array.c - the runtime's CUDA arrays: cudaMallocArray, cudaMalloc3DArray,
 * cudaFreeArray, cudaArrayGetInfo, cudaGetChannelDesc, cudaArrayGetPlane,
 * cudaArrayGetMemoryRequirements, cudaArrayGetSparseProperties,
 * cudaCreateChannelDesc, and the copies to and from arrays:
 * cudaMemcpy2DToArray, cudaMemcpy2DFromArray, cudaMemcpy2DArrayToArray
 * (and Async), and the older cudaMemcpyToArray, cudaMemcpyFromArray,
 * cudaMemcpyArrayToArray (and Async), on the driver's cuArray* and
 * cuMemcpy2D*.
 *
 * The runtime speaks of an element by its channel descriptor (bits of x,
 * y, z, w and a kind); the driver by a format and a channel count. The
 * table here is the one mapping between them (shape.h gives it to
 * texture.c). 2D array copies take x offsets and widths in bytes; the
 * older 1D forms run on from row to row (row-major), so they are split
 * into at most three 2D copies, checked as a whole first so that a
 * refused one copies nothing.
 *
 * Locking: none of its own; the driver API takes what it needs.
 */
#include "cudart/cudart.h"
#include "cudart/shape.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* ---------------------------------------------------------------- formats */

/* A kind whose element is fixed: its format, channel bits and bytes. */
static const struct fixed {
	enum cudaChannelFormatKind kind;
	CUarray_format format;
	int bits[4];
	unsigned elem;   /* bytes of an element, or of a 4x4 block */
	bool block;
} fixed[] = {
	{ cudaChannelFormatKindUnsignedNormalized8X1, CU_AD_FORMAT_UNORM_INT8X1, { 8 }, 1, false },
	{ cudaChannelFormatKindUnsignedNormalized8X2, CU_AD_FORMAT_UNORM_INT8X2, { 8, 8 }, 2, false },
	{ cudaChannelFormatKindUnsignedNormalized8X4, CU_AD_FORMAT_UNORM_INT8X4, { 8, 8, 8, 8 }, 4, false },
	{ cudaChannelFormatKindUnsignedNormalized16X1, CU_AD_FORMAT_UNORM_INT16X1, { 16 }, 2, false },
	{ cudaChannelFormatKindUnsignedNormalized16X2, CU_AD_FORMAT_UNORM_INT16X2, { 16, 16 }, 4, false },
	{ cudaChannelFormatKindUnsignedNormalized16X4, CU_AD_FORMAT_UNORM_INT16X4, { 16, 16, 16, 16 }, 8, false },
	{ cudaChannelFormatKindSignedNormalized8X1, CU_AD_FORMAT_SNORM_INT8X1, { 8 }, 1, false },
	{ cudaChannelFormatKindSignedNormalized8X2, CU_AD_FORMAT_SNORM_INT8X2, { 8, 8 }, 2, false },
	{ cudaChannelFormatKindSignedNormalized8X4, CU_AD_FORMAT_SNORM_INT8X4, { 8, 8, 8, 8 }, 4, false },
	{ cudaChannelFormatKindSignedNormalized16X1, CU_AD_FORMAT_SNORM_INT16X1, { 16 }, 2, false },
	{ cudaChannelFormatKindSignedNormalized16X2, CU_AD_FORMAT_SNORM_INT16X2, { 16, 16 }, 4, false },
	{ cudaChannelFormatKindSignedNormalized16X4, CU_AD_FORMAT_SNORM_INT16X4, { 16, 16, 16, 16 }, 8, false },
	{ cudaChannelFormatKindUnsignedBlockCompressed1, CU_AD_FORMAT_BC1_UNORM, { 8, 8, 8, 8 }, 8, true },
	{ cudaChannelFormatKindUnsignedBlockCompressed1SRGB, CU_AD_FORMAT_BC1_UNORM_SRGB, { 8, 8, 8, 8 }, 8, true },
	{ cudaChannelFormatKindUnsignedBlockCompressed2, CU_AD_FORMAT_BC2_UNORM, { 8, 8, 8, 8 }, 16, true },
	{ cudaChannelFormatKindUnsignedBlockCompressed2SRGB, CU_AD_FORMAT_BC2_UNORM_SRGB, { 8, 8, 8, 8 }, 16, true },
	{ cudaChannelFormatKindUnsignedBlockCompressed3, CU_AD_FORMAT_BC3_UNORM, { 8, 8, 8, 8 }, 16, true },
	{ cudaChannelFormatKindUnsignedBlockCompressed3SRGB, CU_AD_FORMAT_BC3_UNORM_SRGB, { 8, 8, 8, 8 }, 16, true },
	{ cudaChannelFormatKindUnsignedBlockCompressed4, CU_AD_FORMAT_BC4_UNORM, { 8 }, 8, true },
	{ cudaChannelFormatKindSignedBlockCompressed4, CU_AD_FORMAT_BC4_SNORM, { 8 }, 8, true },
	{ cudaChannelFormatKindUnsignedBlockCompressed5, CU_AD_FORMAT_BC5_UNORM, { 8, 8 }, 16, true },
	{ cudaChannelFormatKindSignedBlockCompressed5, CU_AD_FORMAT_BC5_SNORM, { 8, 8 }, 16, true },
	{ cudaChannelFormatKindUnsignedBlockCompressed6H, CU_AD_FORMAT_BC6H_UF16, { 16, 16, 16 }, 16, true },
	{ cudaChannelFormatKindSignedBlockCompressed6H, CU_AD_FORMAT_BC6H_SF16, { 16, 16, 16 }, 16, true },
	{ cudaChannelFormatKindUnsignedBlockCompressed7, CU_AD_FORMAT_BC7_UNORM, { 8, 8, 8, 8 }, 16, true },
	{ cudaChannelFormatKindUnsignedBlockCompressed7SRGB, CU_AD_FORMAT_BC7_UNORM_SRGB, { 8, 8, 8, 8 }, 16, true },
	{ cudaChannelFormatKindUnsignedNormalized1010102, CU_AD_FORMAT_UNORM_INT_101010_2, { 10, 10, 10, 2 }, 4, false },
};

/* A kind of 1, 2 or 4 channels of one width: its format by bits. */
static const struct plain {
	enum cudaChannelFormatKind kind;
	int bits;
	CUarray_format format;
} plain[] = {
	{ cudaChannelFormatKindUnsigned, 8, CU_AD_FORMAT_UNSIGNED_INT8 },
	{ cudaChannelFormatKindUnsigned, 16, CU_AD_FORMAT_UNSIGNED_INT16 },
	{ cudaChannelFormatKindUnsigned, 32, CU_AD_FORMAT_UNSIGNED_INT32 },
	{ cudaChannelFormatKindSigned, 8, CU_AD_FORMAT_SIGNED_INT8 },
	{ cudaChannelFormatKindSigned, 16, CU_AD_FORMAT_SIGNED_INT16 },
	{ cudaChannelFormatKindSigned, 32, CU_AD_FORMAT_SIGNED_INT32 },
	{ cudaChannelFormatKindFloat, 16, CU_AD_FORMAT_HALF },
	{ cudaChannelFormatKindFloat, 32, CU_AD_FORMAT_FLOAT },
};

#define N(a) (sizeof(a) / sizeof *(a))

cudaError_t cuemu_rt_to_format(const struct cudaChannelFormatDesc *d,
			       CUarray_format *f, unsigned *channels)
{
	const int b[4] = { d->x, d->y, d->z, d->w };
	unsigned n = 0;

	for (size_t i = 0; i < N(fixed); i++)
		if (fixed[i].kind == d->f) {
			*f = fixed[i].format;
			*channels = 0;
			while (n < 4 && fixed[i].bits[n])
				n++;
			*channels = n;
			return cudaSuccess;
		}
	while (n < 4 && b[n])
		n++;
	for (unsigned i = n; i < 4; i++)
		if (b[i])
			return cudaErrorInvalidChannelDescriptor;
	for (unsigned i = 1; i < n; i++)
		if (b[i] != b[0])
			return cudaErrorInvalidChannelDescriptor;
	for (size_t i = 0; n && i < N(plain); i++)
		if (plain[i].kind == d->f && plain[i].bits == b[0]) {
			*f = plain[i].format;
			*channels = n;
			return cudaSuccess;
		}
	return cudaErrorInvalidChannelDescriptor;
}

/* The channel descriptor of format f with n channels; the element bytes
 * and whether it is a block. */
static void from_format(CUarray_format f, unsigned n,
			struct cudaChannelFormatDesc *d, size_t *elem,
			bool *block)
{
	memset(d, 0, sizeof *d);
	d->f = cudaChannelFormatKindNone;
	*elem = 0;
	*block = false;
	for (size_t i = 0; i < N(fixed); i++)
		if (fixed[i].format == f) {
			d->x = fixed[i].bits[0];
			d->y = fixed[i].bits[1];
			d->z = fixed[i].bits[2];
			d->w = fixed[i].bits[3];
			d->f = fixed[i].kind;
			*elem = fixed[i].elem;
			*block = fixed[i].block;
			return;
		}
	for (size_t i = 0; i < N(plain); i++)
		if (plain[i].format == f) {
			int *c[4] = { &d->x, &d->y, &d->z, &d->w };

			for (unsigned k = 0; k < n && k < 4; k++)
				*c[k] = plain[i].bits;
			d->f = plain[i].kind;
			*elem = (size_t)plain[i].bits / 8 * n;
			return;
		}
}

void cuemu_rt_channel_desc(CUarray_format f, unsigned n,
			   struct cudaChannelFormatDesc *d)
{
	size_t elem;
	bool block;

	from_format(f, n, d, &elem, &block);
}

struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z,
						   int w,
						   enum cudaChannelFormatKind f)
{
	struct cudaChannelFormatDesc d = { x, y, z, w, f };

	return d;
}

/* An array's descriptor, element and row in bytes, rows. */
struct shape {
	CUDA_ARRAY3D_DESCRIPTOR d;
	struct cudaChannelFormatDesc desc;
	size_t elem, row, rows;
};

static CUresult shape_of(cudaArray_const_t a, struct shape *s)
{
	bool block;
	size_t w, h;
	CUresult r;

	if ((r = cuArray3DGetDescriptor(&s->d, (CUarray)a)))
		return r;
	from_format(s->d.Format, s->d.NumChannels, &s->desc, &s->elem,
		    &block);
	w = block ? (s->d.Width + 3) / 4 : s->d.Width;
	h = s->d.Height ? s->d.Height : 1;
	s->rows = block ? (h + 3) / 4 : h;
	s->row = w * s->elem;
	return CUDA_SUCCESS;
}

cudaError_t cuemu_rt_array_elem(cudaArray_const_t a, size_t *elem)
{
	struct shape s;
	CUresult r;

	if ((r = shape_of(a, &s)))
		return cuemu_rt_result(r);
	*elem = s.elem;
	return cudaSuccess;
}

/* ---------------------------------------------------------------- life */

static cudaError_t make(cudaArray_t *array,
			const struct cudaChannelFormatDesc *desc, size_t w,
			size_t h, size_t d, unsigned flags)
{
	CUDA_ARRAY3D_DESCRIPTOR ad = { w, h, d, 0, 0, flags };
	cudaError_t e;

	RT_BEGIN();
	if (!array || !desc)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((e = cuemu_rt_to_format(desc, &ad.Format, &ad.NumChannels)))
		return cuemu_rt_fail(e);
	return cuemu_rt_result(cuArray3DCreate((CUarray *)array, &ad));
}

cudaError_t cudaMallocArray(cudaArray_t *array,
			    const struct cudaChannelFormatDesc *desc,
			    size_t width, size_t height, unsigned int flags)
{
	return make(array, desc, width, height, 0, flags);
}

cudaError_t cudaMalloc3DArray(cudaArray_t *array,
			      const struct cudaChannelFormatDesc *desc,
			      struct cudaExtent extent, unsigned int flags)
{
	return make(array, desc, extent.width, extent.height, extent.depth,
		    flags);
}

cudaError_t cudaFreeArray(cudaArray_t array)
{
	RT_BEGIN();
	/* The runtime frees no array as it frees no pointer: quietly. */
	if (!array)
		return cudaSuccess;
	return cuemu_rt_result(cuArrayDestroy((CUarray)array));
}

cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc,
			     struct cudaExtent *extent, unsigned int *flags,
			     cudaArray_t array)
{
	struct shape s;
	CUresult r;

	RT_BEGIN();
	if ((r = shape_of(array, &s)))
		return cuemu_rt_result(r);
	if (desc)
		*desc = s.desc;
	if (extent)
		*extent = make_cudaExtent(s.d.Width, s.d.Height, s.d.Depth);
	if (flags)
		*flags = s.d.Flags;
	return cudaSuccess;
}

cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc,
			       cudaArray_const_t array)
{
	struct shape s;
	CUresult r;

	RT_BEGIN();
	if (!desc)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((r = shape_of(array, &s)))
		return cuemu_rt_result(r);
	*desc = s.desc;
	return cudaSuccess;
}

cudaError_t cudaArrayGetPlane(cudaArray_t *pPlaneArray, cudaArray_t hArray,
			      unsigned int planeIdx)
{
	RT_BEGIN();
	return cuemu_rt_result(cuArrayGetPlane((CUarray *)pPlaneArray,
					       (CUarray)hArray, planeIdx));
}

cudaError_t cudaArrayGetMemoryRequirements(
	struct cudaArrayMemoryRequirements *memoryRequirements,
	cudaArray_t array, int device)
{
	RT_BEGIN();
	return cuemu_rt_result(cuArrayGetMemoryRequirements(
		(CUDA_ARRAY_MEMORY_REQUIREMENTS *)memoryRequirements,
		(CUarray)array, device));
}

cudaError_t cudaArrayGetSparseProperties(
	struct cudaArraySparseProperties *sparseProperties, cudaArray_t array)
{
	RT_BEGIN();
	return cuemu_rt_result(cuArrayGetSparseProperties(
		(CUDA_ARRAY_SPARSE_PROPERTIES *)sparseProperties,
		(CUarray)array));
}

/* ---------------------------------------------------------------- 2D copies */

/* One end of a 2D copy: an array at (x bytes, y), or a pitched pointer of
 * the kind's type. */
struct end2d {
	cudaArray_const_t a;
	const void *p;
	size_t pitch, x, y;
};

/* The fields of a CUDA_MEMCPY2D that start with pfx (src or dst). */
#define PUT_END(c, pfx, e, type, t)                                          \
	do {                                                                 \
		(c)->pfx##MemoryType = (type);                               \
		(c)->pfx##Array = (CUarray)(e)->a;                           \
		(c)->pfx##Host = (t).pfx##Host;                              \
		(c)->pfx##Device = (t).pfx##Device;                          \
		(c)->pfx##Pitch = (e)->pitch;                                \
		(c)->pfx##XInBytes = (e)->x;                                 \
		(c)->pfx##Y = (e)->y;                                        \
	} while (0)

static void put_end(const struct end2d *e, CUmemorytype type, bool dst,
		    CUDA_MEMCPY2D *c)
{
	CUDA_MEMCPY3D t = { 0 };

	if (e->a)
		type = CU_MEMORYTYPE_ARRAY;
	else
		cuemu_rt_ptr_end(type, e->p, dst, &t);
	if (dst)
		PUT_END(c, dst, e, type, t);
	else
		PUT_END(c, src, e, type, t);
}

static CUresult copy2d(const struct end2d *dst, const struct end2d *src,
		       size_t width, size_t height, CUmemorytype st,
		       CUmemorytype dt, cudaStream_t stream, bool sync)
{
	CUDA_MEMCPY2D c = { 0 };

	put_end(src, st, false, &c);
	put_end(dst, dt, true, &c);
	c.WidthInBytes = width;
	c.Height = height;
	return sync ? cuMemcpy2D(&c) : cuMemcpy2DAsync(&c, (CUstream)stream);
}

static cudaError_t rt_2d(const struct end2d *dst, const struct end2d *src,
			 size_t width, size_t height,
			 enum cudaMemcpyKind kind, cudaStream_t stream,
			 bool sync)
{
	CUmemorytype st, dt;

	RT_BEGIN();
	if (cuemu_rt_kind_types(kind, &st, &dt))
		return cuemu_rt_fail(cudaErrorInvalidMemcpyDirection);
	if (width && height &&
	    ((!dst->a && width > dst->pitch) || (!src->a && width > src->pitch)))
		return cuemu_rt_fail(cudaErrorInvalidPitchValue);
	return cuemu_rt_result(copy2d(dst, src, width, height, st, dt, stream,
				      sync));
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset,
				size_t hOffset, const void *src,
				size_t spitch, size_t width, size_t height,
				enum cudaMemcpyKind kind)
{
	struct end2d d = { .a = dst, .x = wOffset, .y = hOffset };
	struct end2d s = { .p = src, .pitch = spitch };

	return rt_2d(&d, &s, width, height, kind, NULL, true);
}

cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset,
				     size_t hOffset, const void *src,
				     size_t spitch, size_t width,
				     size_t height, enum cudaMemcpyKind kind,
				     cudaStream_t stream)
{
	struct end2d d = { .a = dst, .x = wOffset, .y = hOffset };
	struct end2d s = { .p = src, .pitch = spitch };

	return rt_2d(&d, &s, width, height, kind, stream, false);
}

cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch,
				  cudaArray_const_t src, size_t wOffset,
				  size_t hOffset, size_t width, size_t height,
				  enum cudaMemcpyKind kind)
{
	struct end2d d = { .p = dst, .pitch = dpitch };
	struct end2d s = { .a = src, .x = wOffset, .y = hOffset };

	return rt_2d(&d, &s, width, height, kind, NULL, true);
}

cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch,
				       cudaArray_const_t src, size_t wOffset,
				       size_t hOffset, size_t width,
				       size_t height, enum cudaMemcpyKind kind,
				       cudaStream_t stream)
{
	struct end2d d = { .p = dst, .pitch = dpitch };
	struct end2d s = { .a = src, .x = wOffset, .y = hOffset };

	return rt_2d(&d, &s, width, height, kind, stream, false);
}

cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst,
				     size_t hOffsetDst, cudaArray_const_t src,
				     size_t wOffsetSrc, size_t hOffsetSrc,
				     size_t width, size_t height,
				     enum cudaMemcpyKind kind)
{
	struct end2d d = { .a = dst, .x = wOffsetDst, .y = hOffsetDst };
	struct end2d s = { .a = src, .x = wOffsetSrc, .y = hOffsetSrc };

	return rt_2d(&d, &s, width, height, kind, NULL, true);
}

/* ---------------------------------------------- the older, row-major forms */

/* count bytes from (x, y) of array a on, row after row: at most three 2D
 * copies (the rest of the first row, whole rows, the start of the last),
 * the whole run checked against the array first. The pointer end moves on
 * by the bytes each piece copies. */
static CUresult run_rows(cudaArray_const_t a, size_t x, size_t y,
			 struct end2d *other, bool array_is_dst, size_t count,
			 CUmemorytype st, CUmemorytype dt,
			 cudaStream_t stream, bool sync)
{
	struct end2d ae = { .a = a, .x = x, .y = y };
	size_t start, n, rows;
	struct shape s;
	CUresult r;

	if ((r = shape_of(a, &s)))
		return r;
	if (x > s.row || __builtin_mul_overflow(y, s.row, &start) ||
	    __builtin_add_overflow(start, x, &start) ||
	    start > s.row * s.rows || count > s.row * s.rows - start)
		return CUDA_ERROR_INVALID_VALUE;
	for (int piece = 0; count && piece < 3; piece++) {
		n = s.row - ae.x;
		rows = 1;
		if (ae.x == 0 && count >= s.row) {
			n = s.row;
			rows = count / s.row;
		} else if (n > count) {
			n = count;
		}
		other->pitch = rows > 1 ? s.row : n;
		r = array_is_dst ?
			copy2d(&ae, other, n, rows, st, dt, stream, sync) :
			copy2d(other, &ae, n, rows, st, dt, stream, sync);
		if (r)
			return r;
		other->p = (const char *)other->p + n * rows;
		count -= n * rows;
		ae.x = (ae.x + n) % s.row;
		ae.y += ae.x == 0 ? rows : 0;
	}
	return CUDA_SUCCESS;
}

static cudaError_t rt_rows(cudaArray_const_t a, size_t x, size_t y,
			   const void *p, bool array_is_dst, size_t count,
			   enum cudaMemcpyKind kind, cudaStream_t stream,
			   bool sync)
{
	struct end2d other = { .p = p };
	CUmemorytype st, dt;

	RT_BEGIN();
	if (cuemu_rt_kind_types(kind, &st, &dt))
		return cuemu_rt_fail(cudaErrorInvalidMemcpyDirection);
	if (!count)
		return cudaSuccess;
	return cuemu_rt_result(run_rows(a, x, y, &other, array_is_dst, count,
					st, dt, stream, sync));
}

cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset,
			      size_t hOffset, const void *src, size_t count,
			      enum cudaMemcpyKind kind)
{
	return rt_rows(dst, wOffset, hOffset, src, true, count, kind, NULL,
		       true);
}

cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset,
				   size_t hOffset, const void *src,
				   size_t count, enum cudaMemcpyKind kind,
				   cudaStream_t stream)
{
	return rt_rows(dst, wOffset, hOffset, src, true, count, kind, stream,
		       false);
}

cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src,
				size_t wOffset, size_t hOffset, size_t count,
				enum cudaMemcpyKind kind)
{
	return rt_rows(src, wOffset, hOffset, dst, false, count, kind, NULL,
		       true);
}

cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src,
				     size_t wOffset, size_t hOffset,
				     size_t count, enum cudaMemcpyKind kind,
				     cudaStream_t stream)
{
	return rt_rows(src, wOffset, hOffset, dst, false, count, kind, stream,
		       false);
}

/* Array to array, row-major at both ends: one 2D copy of a row (or the
 * part of one) at a time, as far as both ends' rows go. */
cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst,
				   size_t hOffsetDst, cudaArray_const_t src,
				   size_t wOffsetSrc, size_t hOffsetSrc,
				   size_t count, enum cudaMemcpyKind kind)
{
	struct shape ds, ss;
	CUmemorytype st, dt;
	size_t dpos, spos;
	CUresult r;

	RT_BEGIN();
	if (cuemu_rt_kind_types(kind, &st, &dt))
		return cuemu_rt_fail(cudaErrorInvalidMemcpyDirection);
	if (!count)
		return cudaSuccess;
	if ((r = shape_of(dst, &ds)) || (r = shape_of(src, &ss)))
		return cuemu_rt_result(r);
	dpos = hOffsetDst * ds.row + wOffsetDst;
	spos = hOffsetSrc * ss.row + wOffsetSrc;
	if (wOffsetDst > ds.row || wOffsetSrc > ss.row ||
	    dpos > ds.row * ds.rows || count > ds.row * ds.rows - dpos ||
	    spos > ss.row * ss.rows || count > ss.row * ss.rows - spos)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	while (count) {
		struct end2d d = { .a = dst, .x = dpos % ds.row,
				   .y = dpos / ds.row };
		struct end2d s = { .a = src, .x = spos % ss.row,
				   .y = spos / ss.row };
		size_t n = ds.row - d.x < ss.row - s.x ? ds.row - d.x :
			   ss.row - s.x;

		if (n > count)
			n = count;
		if ((r = copy2d(&d, &s, n, 1, st, dt, NULL, true)))
			return cuemu_rt_result(r);
		dpos += n;
		spos += n;
		count -= n;
	}
	return cudaSuccess;
}
