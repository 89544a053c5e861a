/*
 * array.c - CUDA arrays: the formats an array takes and the bytes of an
 * element, the extents a device allows for each kind of array (1D, 2D,
 * 3D, layered, cubemap, gather), the device memory behind an array, and
 * the arrays of the process by id.
 *
 * An array is rows of elements, tightly packed (block-compressed formats
 * count 4x4 blocks): row_bytes = width x element bytes, rows = height (1
 * for 1D), slices = depth (1 for 1D and 2D), each layer or cubemap face a
 * slice. Its bytes live in an anonymous mapping of the process, charged to
 * its device in 2 MiB blocks as the real driver takes them
 * (probes/results/shape.txt: a 16x16 u8 array takes 2 MiB, a 1024x1024
 * float4 one 16 MiB). A sparse or deferred-mapping array has no memory of
 * its own. The handle of an array is its machine-unique id, so a stale or
 * made-up handle is simply not found. Copies reach an array through
 * model/copy.c, which asks for its view under the lock.
 *
 * Locking: the tree of arrays and every struct cuemu_array are guarded
 * by cuemu_lock(); the mapping is made and unmapped without it.
 */
#include "model/internal.h"
#include "model/array.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define ARRAY_BLOCK (2UL << 20)   /* device memory is taken in 2 MiB */
#define ARRAY_TILE (64UL << 10)   /* a sparse tile, a mapping's alignment */

/* ---------------------------------------------------------------- formats */

/* A format arrays take: bytes of one channel (plain formats, 1, 2 or 4
 * channels) or of one element or 4x4 block (the others, whose channels
 * are fixed). */
struct fmt {
	CUarray_format f;
	const char *name;
	unsigned bytes;
	unsigned channels;  /* 0: 1, 2 or 4, each of bytes */
	bool block;         /* a 4x4 block-compressed format */
};

static const struct fmt fmts[] = {
	{ CU_AD_FORMAT_UNSIGNED_INT8, "uint8", 1, 0, false },
	{ CU_AD_FORMAT_UNSIGNED_INT16, "uint16", 2, 0, false },
	{ CU_AD_FORMAT_UNSIGNED_INT32, "uint32", 4, 0, false },
	{ CU_AD_FORMAT_SIGNED_INT8, "int8", 1, 0, false },
	{ CU_AD_FORMAT_SIGNED_INT16, "int16", 2, 0, false },
	{ CU_AD_FORMAT_SIGNED_INT32, "int32", 4, 0, false },
	{ CU_AD_FORMAT_HALF, "half", 2, 0, false },
	{ CU_AD_FORMAT_FLOAT, "float", 4, 0, false },
	{ CU_AD_FORMAT_UNORM_INT_101010_2, "unorm_int_101010_2", 4, 4, false },
	{ CU_AD_FORMAT_UNORM_INT8X1, "unorm_int8x1", 1, 1, false },
	{ CU_AD_FORMAT_UNORM_INT8X2, "unorm_int8x2", 2, 2, false },
	{ CU_AD_FORMAT_UNORM_INT8X4, "unorm_int8x4", 4, 4, false },
	{ CU_AD_FORMAT_UNORM_INT16X1, "unorm_int16x1", 2, 1, false },
	{ CU_AD_FORMAT_UNORM_INT16X2, "unorm_int16x2", 4, 2, false },
	{ CU_AD_FORMAT_UNORM_INT16X4, "unorm_int16x4", 8, 4, false },
	{ CU_AD_FORMAT_SNORM_INT8X1, "snorm_int8x1", 1, 1, false },
	{ CU_AD_FORMAT_SNORM_INT8X2, "snorm_int8x2", 2, 2, false },
	{ CU_AD_FORMAT_SNORM_INT8X4, "snorm_int8x4", 4, 4, false },
	{ CU_AD_FORMAT_SNORM_INT16X1, "snorm_int16x1", 2, 1, false },
	{ CU_AD_FORMAT_SNORM_INT16X2, "snorm_int16x2", 4, 2, false },
	{ CU_AD_FORMAT_SNORM_INT16X4, "snorm_int16x4", 8, 4, false },
	{ CU_AD_FORMAT_BC1_UNORM, "bc1_unorm", 8, 4, true },
	{ CU_AD_FORMAT_BC1_UNORM_SRGB, "bc1_unorm_srgb", 8, 4, true },
	{ CU_AD_FORMAT_BC2_UNORM, "bc2_unorm", 16, 4, true },
	{ CU_AD_FORMAT_BC2_UNORM_SRGB, "bc2_unorm_srgb", 16, 4, true },
	{ CU_AD_FORMAT_BC3_UNORM, "bc3_unorm", 16, 4, true },
	{ CU_AD_FORMAT_BC3_UNORM_SRGB, "bc3_unorm_srgb", 16, 4, true },
	{ CU_AD_FORMAT_BC4_UNORM, "bc4_unorm", 8, 1, true },
	{ CU_AD_FORMAT_BC4_SNORM, "bc4_snorm", 8, 1, true },
	{ CU_AD_FORMAT_BC5_UNORM, "bc5_unorm", 16, 2, true },
	{ CU_AD_FORMAT_BC5_SNORM, "bc5_snorm", 16, 2, true },
	{ CU_AD_FORMAT_BC6H_UF16, "bc6h_uf16", 16, 3, true },
	{ CU_AD_FORMAT_BC6H_SF16, "bc6h_sf16", 16, 3, true },
	{ CU_AD_FORMAT_BC7_UNORM, "bc7_unorm", 16, 4, true },
	{ CU_AD_FORMAT_BC7_UNORM_SRGB, "bc7_unorm_srgb", 16, 4, true },
};

static const struct fmt *fmt_of(CUarray_format f)
{
	for (size_t i = 0; i < sizeof fmts / sizeof *fmts; i++)
		if (fmts[i].f == f)
			return &fmts[i];
	return NULL;
}

const char *cuemu_array_format_name(CUarray_format f)
{
	const struct fmt *t = fmt_of(f);

	return t ? t->name : NULL;
}

/* Bytes of one element (a block for block-compressed formats). */
static size_t elem_bytes(const struct fmt *t, unsigned channels)
{
	return t->channels ? t->bytes : (size_t)t->bytes * channels;
}

/* ---------------------------------------------------------------- checks */

/* INVALID_VALUE, saying why. */
static CUresult bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static CUresult bad(const char *fmt, ...)
{
	char why[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s", why);
}

static int attr(int dev, CUdevice_attribute a)
{
	return cuemu_device(dev)->attrs[a];
}

static bool within(size_t v, int max)
{
	return max > 0 && v <= (size_t)max;
}

/* A layered array (flag LAYERED, not CUBEMAP): 1D or 2D layers. */
static CUresult check_layered(const CUDA_ARRAY3D_DESCRIPTOR *d, int dev)
{
	bool one = d->Height == 0;

	if (d->Depth == 0)
		return bad("a layered array needs at least one layer");
	if (!within(d->Depth, attr(dev, one ?
		    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS :
		    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS)))
		return bad("%zu layers are more than the device allows",
			   d->Depth);
	if (one ? !within(d->Width, attr(dev,
			  CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH)) :
	    !within(d->Width, attr(dev,
		    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH)) ||
	    !within(d->Height, attr(dev,
		    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT)))
		return bad("layers of %zu x %zu are larger than the device "
			   "allows", d->Width, d->Height);
	return CUDA_SUCCESS;
}

/* A cubemap: square faces, 6 of them, or a multiple of 6 when layered. */
static CUresult check_cubemap(const CUDA_ARRAY3D_DESCRIPTOR *d, int dev)
{
	bool layered = d->Flags & CUDA_ARRAY3D_LAYERED;

	if (d->Width != d->Height)
		return bad("cubemap faces must be square, not %zu x %zu",
			   d->Width, d->Height);
	if (layered ? d->Depth == 0 || d->Depth % 6 ||
		      !within(d->Depth, attr(dev,
			CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS)) :
	    d->Depth != 6)
		return bad("a cubemap has 6 faces (a multiple of 6 when "
			   "layered), not %zu", d->Depth);
	if (!within(d->Width, attr(dev, layered ?
		    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH :
		    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH)))
		return bad("cubemap faces of %zu are larger than the device "
			   "allows", d->Width);
	return CUDA_SUCCESS;
}

/* A plain 1D, 2D or 3D array; a 3D one fits the usual or the alternate
 * limits. */
static CUresult check_plain(const CUDA_ARRAY3D_DESCRIPTOR *d, int dev)
{
	if (d->Flags & CUDA_ARRAY3D_TEXTURE_GATHER &&
	    (d->Height == 0 || d->Depth))
		return bad("texture gather takes 2D arrays only");
	if (d->Height == 0 && d->Depth)
		return bad("a 3D array of height 0 (depth %zu)",
			   d->Depth);
	if (d->Height == 0) {
		if (!within(d->Width, attr(dev,
			    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH)))
			return bad("a 1D array of %zu is wider than the device "
				   "allows", d->Width);
		return CUDA_SUCCESS;
	}
	if (d->Depth == 0) {
		if (!within(d->Width, attr(dev,
			    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH)) ||
		    !within(d->Height, attr(dev,
			    CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT)))
			return bad("a 2D array of %zu x %zu is larger than the "
				   "device allows", d->Width, d->Height);
		return CUDA_SUCCESS;
	}
	if ((within(d->Width, attr(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH)) &&
	     within(d->Height, attr(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT)) &&
	     within(d->Depth, attr(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH))) ||
	    (within(d->Width, attr(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE)) &&
	     within(d->Height, attr(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE)) &&
	     within(d->Depth, attr(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE))))
		return CUDA_SUCCESS;
	return bad("a 3D array of %zu x %zu x %zu is larger than the device "
		   "allows", d->Width, d->Height, d->Depth);
}

/* The flags the real H200 takes: depth-texture and color-attachment
 * arrays and unknown bits are refused (probes/results/shape.txt). */
#define ARRAY_FLAGS (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST | \
		     CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_TEXTURE_GATHER | \
		     CUDA_ARRAY3D_SPARSE | CUDA_ARRAY3D_DEFERRED_MAPPING | \
		     CUDA_ARRAY3D_VIDEO_ENCODE_DECODE)

CUresult cuemu_array_check(const CUDA_ARRAY3D_DESCRIPTOR *d, int dev)
{
	const struct fmt *t = fmt_of(d->Format);

	if (!t)
		return bad("format %#zx is not one arrays take",
			   (size_t)d->Format);
	if (t->channels ? d->NumChannels != t->channels :
	    d->NumChannels != 1 && d->NumChannels != 2 &&
	    d->NumChannels != 4)
		return bad("%u channels of format %#zx", d->NumChannels,
			   (size_t)d->Format);
	if (d->Width == 0)
		return bad("an array of width 0");
	if (d->Flags & ~(unsigned)ARRAY_FLAGS)
		return bad("flags %#zx are not ones the device takes",
			   (size_t)d->Flags);
	/* a compressed block is no element a surface stores (the H200:
	 * NOT_SUPPORTED, probes/results/texobj.txt) */
	if (t->block && (d->Flags & CUDA_ARRAY3D_SURFACE_LDST))
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED, "a surface of "
				  "block-compressed format %s", t->name);
	if ((d->Flags & CUDA_ARRAY3D_SPARSE) &&
	    attr(dev, CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED) != 1)
		return bad("gpu%zu does not take sparse arrays "
			   "(sparse_cuda_array_supported)", (size_t)dev);
	if ((d->Flags & CUDA_ARRAY3D_DEFERRED_MAPPING) &&
	    attr(dev, CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED) != 1)
		return bad("gpu%zu does not take deferred-mapping arrays",
			   (size_t)dev);
	if (d->Flags & CUDA_ARRAY3D_CUBEMAP)
		return check_cubemap(d, dev);
	if (d->Flags & CUDA_ARRAY3D_LAYERED)
		return check_layered(d, dev);
	return check_plain(d, dev);
}

/* ---------------------------------------------------------------- the tree */

static int cmp_id(const struct cuemu_array *a, const struct cuemu_array *b)
{
	return a->id < b->id ? -1 : a->id > b->id;
}

RB_HEAD(array_tree, cuemu_array);
CUEMU_RB_STATIC(array_tree, cuemu_array, node, cmp_id)

/* The arrays of the process, by id: one process, one set (lock held). */
static struct array_tree arrays = RB_INITIALIZER(&arrays);

struct cuemu_array *cuemu_array_find(CUarray h)
{
	struct cuemu_array key = { .id = (uint64_t)(uintptr_t)h };

	return h ? RB_FIND(array_tree, &arrays, &key) : NULL;
}

struct cuemu_array *cuemu_array_first(void)
{
	return RB_MIN(array_tree, &arrays);
}

struct cuemu_array *cuemu_array_next(struct cuemu_array *a)
{
	return RB_NEXT(array_tree, &arrays, a);
}

/* ---------------------------------------------------------------- life */

/* Fills a's shape from its descriptor (checked). */
static void shape(struct cuemu_array *a)
{
	const CUDA_ARRAY3D_DESCRIPTOR *d = &a->desc;
	const struct fmt *t = fmt_of(d->Format);
	size_t w = d->Width, h = d->Height ? d->Height : 1;

	if (t->block) {
		w = (w + 3) / 4;
		h = (h + 3) / 4;
	}
	a->elem = elem_bytes(t, d->NumChannels);
	a->row_bytes = w * a->elem;
	a->rows = h;
	a->slices = d->Depth ? d->Depth : 1;
	a->bytes = a->row_bytes * a->rows * a->slices;
}

static bool unbacked(const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	return d->Flags & (CUDA_ARRAY3D_SPARSE | CUDA_ARRAY3D_DEFERRED_MAPPING);
}

static void log_array(const char *what, const struct cuemu_array *a)
{
	cuemu_event_log(what, "id=%llu kind=array size=%zu device=gpu%d "
			"format=%s channels=%u extent=%zux%zux%zu",
			(unsigned long long)a->id, a->bytes, a->device,
			cuemu_array_format_name(a->desc.Format),
			a->desc.NumChannels, a->desc.Width, a->desc.Height,
			a->desc.Depth);
}

CUresult cuemu_array_create(CUcontext ctx, int dev,
			    const CUDA_ARRAY3D_DESCRIPTOR *d, CUarray *out)
{
	struct cuemu_array *a = calloc(1, sizeof *a);
	bool charged = true;

	if (!a)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "out of memory");
	a->desc = *d;
	a->device = dev;
	a->ctx = ctx;
	shape(a);
	if (!unbacked(d)) {
		a->charge = CUEMU_ALIGN_UP(a->bytes, ARRAY_BLOCK);
		a->span = CUEMU_ALIGN_UP(a->bytes, CUEMU_PAGE);
		cuemu_lock();
		charged = cuemu_mem_charge_evicting(dev, a->charge);
		cuemu_unlock();
	}
	if (!charged) {
		size_t bytes = a->bytes;

		free(a);
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "an array of %zu "
				  "bytes does not fit in gpu%d", bytes, dev);
	}
	if (a->span) {
		a->mem = mmap(NULL, a->span, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			      -1, 0);
		if (a->mem == MAP_FAILED) {
			int e = errno;

			cuemu_mem_uncharge(dev, a->charge);
			free(a);
			return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
					  "cannot map an array: %s",
					  strerror(e));
		}
	}
	cuemu_lock();
	a->id = cuemu_next_id();
	RB_INSERT(array_tree, &arrays, a);
	cuemu_obj_changed(a->id);
	log_array("alloc", a);
	cuemu_unlock();
	*out = cuemu_array_handle(a->id);
	return CUDA_SUCCESS;
}

CUresult cuemu_array_destroy(CUarray h)
{
	struct cuemu_array *a;
	CUresult r;

	/* Queued copies may use the array, as cuMemFree's do the memory. */
	if ((r = cuemu_sync_all()))
		return r;
	cuemu_lock();
	if (!(a = cuemu_array_find(h))) {
		cuemu_unlock();
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE, "%p is no array",
				  (void *)h);
	}
	RB_REMOVE(array_tree, &arrays, a);
	cuemu_obj_changed(a->id);
	log_array("free", a);
	cuemu_unlock();
	if (a->mem)
		munmap(a->mem, a->span);
	if (a->charge)
		cuemu_mem_uncharge(a->device, a->charge);
	free(a);
	return CUDA_SUCCESS;
}

size_t cuemu_array_elem(CUarray h)
{
	struct cuemu_array *a;
	size_t e;

	cuemu_lock();
	a = cuemu_array_find(h);
	e = a ? a->elem : 0;
	cuemu_unlock();
	return e;
}

CUresult cuemu_array_describe(CUarray h, CUDA_ARRAY3D_DESCRIPTOR *out)
{
	struct cuemu_array *a;

	cuemu_lock();
	if ((a = cuemu_array_find(h)))
		*out = a->desc;
	cuemu_unlock();
	return a ? CUDA_SUCCESS : cuemu_fail(CUDA_ERROR_INVALID_HANDLE,
					     "%p is no array", (void *)h);
}

CUresult cuemu_array_requirements(CUarray h,
				  CUDA_ARRAY_MEMORY_REQUIREMENTS *out)
{
	struct cuemu_array *a;
	bool deferred;

	cuemu_lock();
	a = cuemu_array_find(h);
	deferred = a && (a->desc.Flags & CUDA_ARRAY3D_DEFERRED_MAPPING);
	if (deferred) {
		memset(out, 0, sizeof *out);
		out->size = CUEMU_ALIGN_UP(a->bytes, ARRAY_TILE);
		out->alignment = ARRAY_TILE;
	}
	cuemu_unlock();
	if (!a)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%p is no array",
				  (void *)h);
	return deferred ? CUDA_SUCCESS :
		cuemu_fail(CUDA_ERROR_INVALID_VALUE, "array %p was not made "
			   "with CUDA_ARRAY3D_DEFERRED_MAPPING", (void *)h);
}

/* The standard tile of 64 KiB for an element of e bytes: 2D, or 3D. */
static void tile_of(size_t e, bool three, unsigned t[3])
{
	static const unsigned two_d[5][3] = {
		{ 256, 256, 1 }, { 256, 128, 1 }, { 128, 128, 1 },
		{ 128, 64, 1 }, { 64, 64, 1 } };
	static const unsigned three_d[5][3] = {
		{ 64, 32, 32 }, { 32, 32, 32 }, { 32, 32, 16 },
		{ 32, 16, 16 }, { 16, 16, 16 } };
	unsigned i = e >= 16 ? 4 : e >= 8 ? 3 : e >= 4 ? 2 : e >= 2 ? 1 : 0;

	memcpy(t, three ? three_d[i] : two_d[i], sizeof(unsigned[3]));
}

CUresult cuemu_array_sparse(CUarray h, CUDA_ARRAY_SPARSE_PROPERTIES *out)
{
	struct cuemu_array *a;
	bool sparse;

	cuemu_lock();
	a = cuemu_array_find(h);
	sparse = a && (a->desc.Flags & CUDA_ARRAY3D_SPARSE);
	if (sparse) {
		unsigned t[3];
		bool three = a->desc.Depth &&
			     !(a->desc.Flags & CUDA_ARRAY3D_LAYERED);

		tile_of(a->elem, three, t);
		memset(out, 0, sizeof *out);
		out->tileExtent.width = t[0];
		out->tileExtent.height = t[1];
		out->tileExtent.depth = t[2];
		/* An array smaller than a tile is all mip tail. */
		if (a->desc.Width < t[0] || a->rows < t[1]) {
			out->miptailFirstLevel = 0;
			out->miptailSize = ARRAY_TILE;
		} else {
			out->miptailFirstLevel = 1;
		}
		out->flags = CU_ARRAY_SPARSE_PROPERTIES_SINGLE_MIPTAIL;
	}
	cuemu_unlock();
	if (!a)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%p is no array",
				  (void *)h);
	return sparse ? CUDA_SUCCESS :
		cuemu_fail(CUDA_ERROR_INVALID_VALUE, "array %p is not sparse",
			   (void *)h);
}

size_t cuemu_ctx_free_arrays(CUcontext ctx)
{
	size_t n = 0;

	for (;;) {
		struct cuemu_array *a;
		uint64_t id = 0;

		cuemu_lock();
		for (a = cuemu_array_first(); a; a = cuemu_array_next(a))
			if (a->ctx == ctx) {
				id = a->id;
				break;
			}
		cuemu_unlock();
		if (!id || cuemu_array_destroy(cuemu_array_handle(id)))
			return n;
		n++;
	}
}
