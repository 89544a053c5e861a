/*
 * texobj.c - texture and surface objects: the checks the real driver makes
 * of a resource, a texture descriptor and a resource view, the objects of
 * the process by handle, their descriptors read back, and the view a
 * launch takes of one to sample it (kernels read them with tex, tld4,
 * suld and sust).
 *
 * What the real H200 answers (probes/results/texobj.txt): every refusal
 * is INVALID_VALUE, but an array of another context's, which is
 * PEER_ACCESS_NOT_ENABLED after every other check passed. A linear or
 * pitch2D pointer is not looked up (host, managed and unmapped addresses
 * are taken), only aligned to the texture alignment; its formats are the
 * plain ones (8-, 16- and 32-bit integers, half, float, 1, 2 or 4
 * channels) and UNORM_INT_101010_2; pitch2D's pitch is aligned to the
 * texture pitch alignment and bounded, with its width and height, by the
 * device's linear limits, but not compared with the row nor the
 * allocation (width 0, height 0 and pitch 0 are taken). A linear size
 * counts whole elements: at most 4 x MAXIMUM_TEXTURE1D_LINEAR_WIDTH of
 * them and 16 x as many bytes (2^30 elements, 4 GiB on an H200). The
 * filter, mipmap filter and flags (0x7f, seamless for cubemaps only) are
 * checked, an address mode only for the dimensions the resource has (1
 * for linear and 1D arrays, layered or not, 2 for pitch2D, 2D, 2D layered
 * and cubemaps, 3 for 3D), and the descriptor's reserved words; nothing
 * else (linear filtering of integers read as integers, wrap unnormalized,
 * sRGB of any format, any anisotropy and mipmap fields are taken). A view
 * is ignored for linear and pitch2D memory, refused for block-compressed
 * arrays, and otherwise must keep the array's extent (a block-compressed
 * view of an unsigned 32-bit array four times it) and its element's
 * bytes, with no mipmap levels and no layers for an array that has none
 * (a layered array's layer range is only ordered, not bounded); one of
 * format NONE that passes all that writes 0 to the handle and is refused.
 * A surface takes an array (one made without SURFACE_LDST too), and where
 * no context is current, the primary one. Objects outlive their array's
 * destruction; the view of one whose array is gone is INVALID_HANDLE.
 *
 * Handles are small numbers from 1, the lowest free first, textures and
 * surfaces alike. The driver numbers each context's objects on their own
 * and finds an object in the current context only; here the numbers are
 * the process's, so that a launch finds an object by its handle alone
 * (cuemu_texobj_view), and the API finds it in the current context only,
 * as the driver: a program with one context at a time sees the driver's
 * numbers. (The driver takes a freed number back only a moment later;
 * here at once, as it does after a synchronization.)
 *
 * Locking: the objects, the freed handles and the next handle are guarded
 * by cuemu_lock(); every function takes it itself.
 */
#include "model/internal.h"
#include "model/array.h"
#include "model/context.h"
#include "model/texobj.h"

#include <stdlib.h>
#include <string.h>

struct texobj {
	RB_ENTRY(texobj) node;       /* in objects, or in freed */
	uint64_t handle;
	bool surface;
	CUcontext ctx;
	int device;
	CUDA_RESOURCE_DESC res;
	CUDA_TEXTURE_DESC tex;
	CUDA_RESOURCE_VIEW_DESC view;
	bool has_view;
};

static int cmp_handle(const struct texobj *a, const struct texobj *b)
{
	return a->handle < b->handle ? -1 : a->handle > b->handle;
}

RB_HEAD(texobj_tree, texobj);
CUEMU_RB_STATIC(texobj_tree, texobj, node, cmp_handle)

/* The objects of the process by handle, the handles freed below the
 * highest given (kept as the nodes that held them, reused first, lowest
 * first), and the next handle past them: one process, one numbering, as a
 * launch finds an object by its handle alone (lock held). */
static struct texobj_tree objects = RB_INITIALIZER(&objects);
static struct texobj_tree freed = RB_INITIALIZER(&freed);
static uint64_t next_handle = 1;

/* The texture flags the driver takes (0x04 and 0x08 have no name). */
#define TEX_FLAGS 0x7fu

/* ---------------------------------------------------------------- checks */

static int attr(int dev, CUdevice_attribute a)
{
	return cuemu_device(dev)->attrs[a];
}

/* The bytes of an element of format f with n channels in linear or
 * pitch2D memory, or 0 for a format and count it does not take. */
static size_t linear_elem(CUarray_format f, unsigned n)
{
	unsigned bytes;

	switch (f) {
	case CU_AD_FORMAT_UNSIGNED_INT8:
	case CU_AD_FORMAT_SIGNED_INT8:
		bytes = 1;
		break;
	case CU_AD_FORMAT_UNSIGNED_INT16:
	case CU_AD_FORMAT_SIGNED_INT16:
	case CU_AD_FORMAT_HALF:
		bytes = 2;
		break;
	case CU_AD_FORMAT_UNSIGNED_INT32:
	case CU_AD_FORMAT_SIGNED_INT32:
	case CU_AD_FORMAT_FLOAT:
		bytes = 4;
		break;
	case CU_AD_FORMAT_UNORM_INT_101010_2:
		/* one 32-bit word whatever the channels (1 and 4 taken) */
		return n == 1 || n == 2 || n == 4 ? 4 : 0;
	default:
		return 0;
	}
	return n == 1 || n == 2 || n == 4 ? (size_t)bytes * n : 0;
}

/* What the checks learn of a resource: the dimensions its address modes
 * cover, and its array (lock held) where it is one. */
struct resinfo {
	int dims;
	struct cuemu_array *array;
};

/* The dimensions an array's texture addresses: layers are no dimension,
 * a cubemap's faces are addressed in 2. */
static int array_dims(const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	if (d->Flags & CUDA_ARRAY3D_CUBEMAP)
		return 2;
	if (d->Flags & CUDA_ARRAY3D_LAYERED)
		return d->Height ? 2 : 1;
	return !d->Height ? 1 : !d->Depth ? 2 : 3;
}

static CUresult check_pointer(CUdeviceptr p, int dev)
{
	int align = attr(dev, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT);

	if (!p)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "a texture of no memory (devPtr 0)");
	if (align > 0 && p % (unsigned)align)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "devPtr %#llx is "
				  "not aligned to the texture alignment, %d",
				  (unsigned long long)p, align);
	return CUDA_SUCCESS;
}

static CUresult check_linear(const CUDA_RESOURCE_DESC *r, int dev)
{
	size_t e = linear_elem(r->res.linear.format,
			       r->res.linear.numChannels);
	size_t max = (size_t)attr(dev,
			CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH);
	size_t n;
	CUresult rc;

	if (!e)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "linear memory "
				  "of %u channels of format %#x is no texture",
				  r->res.linear.numChannels,
				  (unsigned)r->res.linear.format);
	if ((rc = check_pointer(r->res.linear.devPtr, dev)))
		return rc;
	n = r->res.linear.sizeInBytes / e;
	if (n > 4 * max || n * e > 16 * max)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%zu bytes of "
				  "linear memory are more than a texture takes",
				  r->res.linear.sizeInBytes);
	return CUDA_SUCCESS;
}

static CUresult check_pitch2d(const CUDA_RESOURCE_DESC *r, int dev)
{
	size_t e = linear_elem(r->res.pitch2D.format,
			       r->res.pitch2D.numChannels);
	int align = attr(dev, CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT);
	size_t w = r->res.pitch2D.width, h = r->res.pitch2D.height,
	       pitch = r->res.pitch2D.pitchInBytes;
	CUresult rc;

	if (!e)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "pitched memory "
				  "of %u channels of format %#x is no texture",
				  r->res.pitch2D.numChannels,
				  (unsigned)r->res.pitch2D.format);
	if ((rc = check_pointer(r->res.pitch2D.devPtr, dev)))
		return rc;
	if (align > 0 && pitch % (unsigned)align)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "a pitch of %zu "
				  "is not aligned to the texture pitch "
				  "alignment, %d", pitch, align);
	if (w > (size_t)attr(dev,
			CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH) ||
	    h > (size_t)attr(dev,
			CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT) ||
	    pitch > (size_t)attr(dev,
			CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%zu x %zu "
				  "elements %zu bytes apart are more than a "
				  "pitched texture takes", w, h, pitch);
	return CUDA_SUCCESS;
}

/* res as a texture (surface false) or surface resource on dev. Lock
 * held: ri->array is the array's, valid while it is held. */
static CUresult check_res(const CUDA_RESOURCE_DESC *r, int dev, bool surface,
			  struct resinfo *ri)
{
	memset(ri, 0, sizeof *ri);
	if (r->flags)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "resource flags "
				  "%#x: they must be 0", r->flags);
	if (surface && r->resType != CU_RESOURCE_TYPE_ARRAY)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "a surface takes "
				  "an array, not resource type %d",
				  (int)r->resType);
	switch (r->resType) {
	case CU_RESOURCE_TYPE_ARRAY:
		if (!(ri->array = cuemu_array_find(r->res.array.hArray)))
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%p is no "
					  "array", (void *)r->res.array.hArray);
		ri->dims = array_dims(&ri->array->desc);
		return CUDA_SUCCESS;
	case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%p is no "
				  "mipmapped array (libcuemu makes none)",
				  (void *)r->res.mipmap.hMipmappedArray);
	case CU_RESOURCE_TYPE_LINEAR:
		ri->dims = 1;
		return check_linear(r, dev);
	case CU_RESOURCE_TYPE_PITCH2D:
		ri->dims = 2;
		return check_pitch2d(r, dev);
	default:
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "resource type %d "
				  "is none", (int)r->resType);
	}
}

static CUresult check_tex(const CUDA_TEXTURE_DESC *t,
			  const struct resinfo *ri)
{
	if ((unsigned)t->filterMode > CU_TR_FILTER_MODE_LINEAR ||
	    (unsigned)t->mipmapFilterMode > CU_TR_FILTER_MODE_LINEAR)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "filter mode %d "
				  "(mipmap %d) is none", (int)t->filterMode,
				  (int)t->mipmapFilterMode);
	for (int i = 0; i < ri->dims; i++)
		if ((unsigned)t->addressMode[i] > CU_TR_ADDRESS_MODE_BORDER)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "address "
					  "mode %d of dimension %d is none",
					  (int)t->addressMode[i], i);
	if (t->flags & ~TEX_FLAGS)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "texture flags "
				  "%#x are not ones the driver takes",
				  t->flags);
	if ((t->flags & CU_TRSF_SEAMLESS_CUBEMAP) &&
	    !(ri->array && ri->array->desc.Flags & CUDA_ARRAY3D_CUBEMAP))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "seamless cubemap "
				  "filtering of a resource that is no cubemap");
	for (size_t i = 0; i < sizeof t->reserved / sizeof *t->reserved; i++)
		if (t->reserved[i])
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "reserved "
					  "word %zu of the texture descriptor "
					  "is not 0", i);
	return CUDA_SUCCESS;
}

static bool block_format(CUarray_format f)
{
	return f >= CU_AD_FORMAT_BC1_UNORM && f <= CU_AD_FORMAT_BC7_UNORM_SRGB;
}

/* The bytes of an element of a plain view format (1 to 24), 0 for none. */
static size_t view_elem(CUresourceViewFormat f)
{
	static const unsigned char chan[8] = { 1, 1, 2, 2, 4, 4, 2, 4 };
	static const unsigned char count[3] = { 1, 2, 4 };

	if (f < CU_RES_VIEW_FORMAT_UINT_1X8 || f > CU_RES_VIEW_FORMAT_FLOAT_4X32)
		return 0;
	return (size_t)chan[(f - 1) / 3] * count[(f - 1) % 3];
}

/* The channels of unsigned 32-bit words a block-compressed view format
 * needs of its array: 2 for BC1 and BC4, 4 for the others. */
static unsigned view_block_channels(CUresourceViewFormat f)
{
	return f == CU_RES_VIEW_FORMAT_UNSIGNED_BC1 ||
	       f == CU_RES_VIEW_FORMAT_UNSIGNED_BC4 ||
	       f == CU_RES_VIEW_FORMAT_SIGNED_BC4 ? 2 : 4;
}

/* A view of array a (lock held). *none: it passed with format NONE, which
 * the driver then refuses. */
static CUresult check_view(const CUDA_RESOURCE_VIEW_DESC *v,
			   const struct cuemu_array *a, bool *none)
{
	const CUDA_ARRAY3D_DESCRIPTOR *d = &a->desc;
	size_t w = d->Width, h = d->Height;
	bool block = v->format >= CU_RES_VIEW_FORMAT_UNSIGNED_BC1 &&
		     v->format <= CU_RES_VIEW_FORMAT_UNSIGNED_BC7;

	*none = false;
	if (block_format(d->Format))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "a view of a "
				  "block-compressed array");
	for (size_t i = 0; i < sizeof v->reserved / sizeof *v->reserved; i++)
		if (v->reserved[i])
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "reserved "
					  "word %zu of the view is not 0", i);
	if ((unsigned)v->format > CU_RES_VIEW_FORMAT_UNSIGNED_BC7)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "view format %d "
				  "is none", (int)v->format);
	if (v->firstMipmapLevel || v->lastMipmapLevel)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "mipmap levels "
				  "%u to %u of an array that has none",
				  v->firstMipmapLevel, v->lastMipmapLevel);
	if (block) {
		if (d->Format != CU_AD_FORMAT_UNSIGNED_INT32 ||
		    d->NumChannels != view_block_channels(v->format))
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "view "
					  "format %d needs an array of %u "
					  "unsigned 32-bit channels",
					  (int)v->format,
					  view_block_channels(v->format));
		w *= 4;
		h *= 4;
	} else if (v->format != CU_RES_VIEW_FORMAT_NONE &&
		   view_elem(v->format) != a->elem) {
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "view format %d "
				  "has elements of %zu bytes, the array's are "
				  "%zu", (int)v->format, view_elem(v->format),
				  a->elem);
	}
	if (v->width != w || v->height != h || v->depth != d->Depth)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "a view of %zu x "
				  "%zu x %zu of an array of %zu x %zu x %zu",
				  v->width, v->height, v->depth, w, h,
				  d->Depth);
	if (d->Flags & CUDA_ARRAY3D_LAYERED ? v->firstLayer > v->lastLayer :
	    v->firstLayer || v->lastLayer)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "layers %u to %u "
				  "of the array", v->firstLayer, v->lastLayer);
	*none = v->format == CU_RES_VIEW_FORMAT_NONE;
	return CUDA_SUCCESS;
}

/* ---------------------------------------------------------------- the table */

/* A handle and a node for a new object: the lowest freed, else the next
 * (lock held). spare is a node to take where none was freed; NULL where
 * it is taken or reused. */
static struct texobj *take_handle(struct texobj **spare)
{
	struct texobj *o = RB_MIN(texobj_tree, &freed);
	uint64_t h;

	if (o) {
		RB_REMOVE(texobj_tree, &freed, o);
		h = o->handle;
	} else {
		o = *spare;
		*spare = NULL;
		h = next_handle++;
	}
	memset(o, 0, sizeof *o);
	o->handle = h;
	return o;
}

/* Removes o from the objects and gives its handle back (lock held): the
 * node is kept among the freed, or freed with the handles above the
 * highest still given. */
static void put_handle(struct texobj *o)
{
	struct texobj *m;

	RB_REMOVE(texobj_tree, &objects, o);
	RB_INSERT(texobj_tree, &freed, o);
	while ((m = RB_MAX(texobj_tree, &freed)) &&
	       m->handle == next_handle - 1) {
		RB_REMOVE(texobj_tree, &freed, m);
		next_handle--;
		free(m);
	}
}

/* The object h of that kind (lock held), or NULL. */
static struct texobj *find(uint64_t h, bool surface)
{
	struct texobj key = { .handle = h }, *o;

	o = h ? RB_FIND(texobj_tree, &objects, &key) : NULL;
	return o && o->surface == surface ? o : NULL;
}

/* Inserts an object of ctx on dev (lock held, the checks passed). */
static uint64_t insert(struct texobj **spare, CUcontext ctx, int dev,
		       bool surface, const CUDA_RESOURCE_DESC *res,
		       const CUDA_TEXTURE_DESC *tex,
		       const CUDA_RESOURCE_VIEW_DESC *view)
{
	struct texobj *o = take_handle(spare);

	o->surface = surface;
	o->ctx = ctx;
	o->device = dev;
	o->res = *res;
	if (tex)
		o->tex = *tex;
	if (view) {
		o->view = *view;
		o->has_view = true;
	}
	RB_INSERT(texobj_tree, &objects, o);
	return o->handle;
}

/* ---------------------------------------------------------------- life */

CUresult cuemu_texobj_create(CUcontext ctx, int dev,
			     const CUDA_RESOURCE_DESC *res,
			     const CUDA_TEXTURE_DESC *tex,
			     const CUDA_RESOURCE_VIEW_DESC *view,
			     CUtexObject *out)
{
	struct texobj *spare = calloc(1, sizeof *spare);
	struct resinfo ri;
	bool none = false;
	CUresult r;

	if (!spare)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "out of memory");
	cuemu_lock();
	if ((r = check_res(res, dev, false, &ri)) || (r = check_tex(tex, &ri)))
		goto out;
	/* linear and pitched memory have no view: one given is ignored */
	if (!ri.array)
		view = NULL;
	if (view && (r = check_view(view, ri.array, &none)))
		goto out;
	if (none) {
		*out = 0;
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE, "a view of format "
			       "NONE");
		goto out;
	}
	if (ri.array && ri.array->ctx != ctx) {
		r = cuemu_fail(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, "array %p "
			       "is another context's",
			       (void *)res->res.array.hArray);
		goto out;
	}
	*out = insert(&spare, ctx, dev, false, res, tex, view);
out:
	cuemu_unlock();
	free(spare);
	return r;
}

CUresult cuemu_surfobj_create(CUcontext ctx, const CUDA_RESOURCE_DESC *res,
			      CUsurfObject *out)
{
	struct texobj *spare = calloc(1, sizeof *spare);
	struct resinfo ri;
	CUresult r;
	int dev;

	if (!spare)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "out of memory");
	cuemu_lock();
	/* a surface's resource is an array: no device limit is read */
	if ((r = check_res(res, 0, true, &ri)))
		goto out;
	dev = ri.array->device;
	if (!ctx && !out) {
		r = cuemu_fail(CUDA_ERROR_INVALID_CONTEXT, "no context is "
			       "current to this thread");
		goto out;
	}
	if (!out) {
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE, "no handle given");
		goto out;
	}
	if (!ctx) {
		if (!cuemu_primary_retained(dev)) {
			r = cuemu_fail(CUDA_ERROR_INVALID_CONTEXT, "no context "
				       "is current, and gpu%d's primary is "
				       "inactive", dev);
			goto out;
		}
		ctx = cuemu_primary_ctx(dev);
	}
	if (ri.array->ctx != ctx) {
		r = cuemu_fail(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, "array %p "
			       "is another context's",
			       (void *)res->res.array.hArray);
		goto out;
	}
	*out = insert(&spare, ctx, cuemu_ctx_device(ctx), true, res, NULL,
		      NULL);
out:
	cuemu_unlock();
	free(spare);
	return r;
}

void cuemu_texobj_destroy(CUcontext ctx, uint64_t h, bool surface)
{
	struct texobj *o;
	bool mine;

	cuemu_lock();
	o = find(h, surface);
	mine = o && o->ctx == ctx;
	cuemu_unlock();
	if (!mine)
		return;
	/* Kernels queued in ctx may sample it: the driver takes a freed
	 * object back only once its work is done. What the work answers is
	 * the synchronization's to say, not this call's. */
	(void)cuemu_ctx_sync(ctx);
	cuemu_lock();
	if ((o = find(h, surface)) && o->ctx == ctx)
		put_handle(o);
	cuemu_unlock();
}

CUresult cuemu_texobj_describe(CUcontext ctx, uint64_t h, bool surface,
			       CUDA_RESOURCE_DESC *res,
			       CUDA_TEXTURE_DESC *tex,
			       CUDA_RESOURCE_VIEW_DESC *view)
{
	struct texobj *o;

	cuemu_lock();
	o = find(h, surface);
	if (!o || o->ctx != ctx) {
		cuemu_unlock();
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%llu is no %s "
				  "object of the current context",
				  (unsigned long long)h,
				  surface ? "surface" : "texture");
	}
	if (res) {
		res->resType = o->res.resType;
		switch (o->res.resType) {
		case CU_RESOURCE_TYPE_LINEAR:
			res->res.linear = o->res.res.linear;
			break;
		case CU_RESOURCE_TYPE_PITCH2D:
			res->res.pitch2D = o->res.res.pitch2D;
			break;
		default:
			res->res.array = o->res.res.array;
		}
		res->flags = o->res.flags;
	}
	if (tex) {
		tex->addressMode[0] = o->tex.addressMode[0];
		tex->addressMode[1] = o->tex.addressMode[1];
		tex->addressMode[2] = o->tex.addressMode[2];
		tex->filterMode = o->tex.filterMode;
		tex->flags = o->tex.flags;
		tex->maxAnisotropy = o->tex.maxAnisotropy;
		tex->mipmapFilterMode = o->tex.mipmapFilterMode;
		tex->mipmapLevelBias = o->tex.mipmapLevelBias;
		tex->minMipmapLevelClamp = o->tex.minMipmapLevelClamp;
		tex->maxMipmapLevelClamp = o->tex.maxMipmapLevelClamp;
	}
	if (view && o->has_view)
		*view = o->view;
	cuemu_unlock();
	return CUDA_SUCCESS;
}

size_t cuemu_ctx_free_texobjs(CUcontext ctx)
{
	struct texobj *o, *next;
	size_t n = 0;

	cuemu_lock();
	for (o = RB_MIN(texobj_tree, &objects); o; o = next) {
		next = RB_NEXT(texobj_tree, &objects, o);
		if (o->ctx == ctx) {
			put_handle(o);
			n++;
		}
	}
	cuemu_unlock();
	return n;
}

/* ---------------------------------------------------------------- launches */

CUresult cuemu_texobj_view(uint64_t h, bool surface, struct cuemu_texview *out)
{
	struct cuemu_array *a = NULL;
	struct texobj *o;

	cuemu_lock();
	o = find(h, surface);
	if (o && o->res.resType == CU_RESOURCE_TYPE_ARRAY &&
	    !(a = cuemu_array_find(o->res.res.array.hArray)))
		o = NULL;
	if (o) {
		memset(out, 0, sizeof *out);
		out->surface = o->surface;
		out->device = o->device;
		out->res = o->res;
		out->tex = o->tex;
		out->view = o->view;
		out->has_view = o->has_view;
		if (a) {
			out->array = a->desc;
			out->mem = a->mem;
			out->elem = a->elem;
			out->row_bytes = a->row_bytes;
			out->rows = a->rows;
			out->slices = a->slices;
		}
	}
	cuemu_unlock();
	if (!o)
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE, "%llu is no %s "
				  "object, or its array is gone",
				  (unsigned long long)h,
				  surface ? "surface" : "texture");
	return CUDA_SUCCESS;
}
