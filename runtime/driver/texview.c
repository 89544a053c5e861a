/*
 * texview.c - a texture or surface object as the PTX engine reads it: the
 * model's object (model/texobj.c) turned into struct ex_tex, its
 * resource's elements, their format and how a texture samples them. The
 * launch bridge (launch.c) answers ex_memops.texture with it.
 *
 * Arrays are the engine's to read at once (their bytes are the model's
 * mapping, tallied as the device's own memory); linear and pitched
 * resources are device memory, read through page() like any load. An
 * object of a format the engine does not sample (block-compressed, packed
 * video formats) or of another device is refused, named in the message
 * the kernel's failure carries.
 *
 * Locking: none of its own; cuemu_texobj_view takes cuemu_lock.
 */
#include "model/internal.h"
#include "model/texobj.h"
#include "driver/driver.h"
#include "driver/texview.h"

#include <string.h>

/* The engine's format of an array format, and whether it always reads as
 * a normalized float (the UNORM and SNORM formats, which carry their
 * channel count in the format). 0 where the engine has none. */
static int format_of(CUarray_format f, unsigned *channels, bool *norm)
{
	*norm = false;
	switch (f) {
	case CU_AD_FORMAT_UNSIGNED_INT8: return EX_TF_U8;
	case CU_AD_FORMAT_UNSIGNED_INT16: return EX_TF_U16;
	case CU_AD_FORMAT_UNSIGNED_INT32: return EX_TF_U32;
	case CU_AD_FORMAT_SIGNED_INT8: return EX_TF_S8;
	case CU_AD_FORMAT_SIGNED_INT16: return EX_TF_S16;
	case CU_AD_FORMAT_SIGNED_INT32: return EX_TF_S32;
	case CU_AD_FORMAT_HALF: return EX_TF_F16;
	case CU_AD_FORMAT_FLOAT: return EX_TF_F32;
	default: break;
	}
	*norm = true;
	switch (f) {
	case CU_AD_FORMAT_UNORM_INT8X1: *channels = 1; return EX_TF_U8;
	case CU_AD_FORMAT_UNORM_INT8X2: *channels = 2; return EX_TF_U8;
	case CU_AD_FORMAT_UNORM_INT8X4: *channels = 4; return EX_TF_U8;
	case CU_AD_FORMAT_UNORM_INT16X1: *channels = 1; return EX_TF_U16;
	case CU_AD_FORMAT_UNORM_INT16X2: *channels = 2; return EX_TF_U16;
	case CU_AD_FORMAT_UNORM_INT16X4: *channels = 4; return EX_TF_U16;
	case CU_AD_FORMAT_SNORM_INT8X1: *channels = 1; return EX_TF_S8;
	case CU_AD_FORMAT_SNORM_INT8X2: *channels = 2; return EX_TF_S8;
	case CU_AD_FORMAT_SNORM_INT8X4: *channels = 4; return EX_TF_S8;
	case CU_AD_FORMAT_SNORM_INT16X1: *channels = 1; return EX_TF_S16;
	case CU_AD_FORMAT_SNORM_INT16X2: *channels = 2; return EX_TF_S16;
	case CU_AD_FORMAT_SNORM_INT16X4: *channels = 4; return EX_TF_S16;
	default: return 0;
	}
}

static unsigned format_bytes(int f)
{
	switch (f) {
	case EX_TF_U8: case EX_TF_S8: return 1;
	case EX_TF_U16: case EX_TF_S16: case EX_TF_F16: return 2;
	default: return 4;
	}
}

/* Sets the format, channels and element size of out; false where the
 * engine cannot read the format. */
static bool set_format(struct ex_tex *out, CUarray_format f, unsigned channels,
		       bool *norm)
{
	int ef = format_of(f, &channels, norm);

	if (!ef || (channels != 1 && channels != 2 && channels != 4))
		return false;
	out->format = (uint8_t)ef;
	out->channels = (uint8_t)channels;
	out->elem = (uint8_t)(format_bytes(ef) * channels);
	return true;
}

/* An array's shape from its descriptor's flags and extent. */
static int shape_of(const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	bool layered = d->Flags & CUDA_ARRAY3D_LAYERED;

	if (d->Flags & CUDA_ARRAY3D_CUBEMAP)
		return layered ? EX_TS_ACUBE : EX_TS_CUBE;
	if (layered)
		return d->Height ? EX_TS_A2D : EX_TS_A1D;
	return d->Depth ? EX_TS_3D : d->Height ? EX_TS_2D : EX_TS_1D;
}

static bool resource(const struct cuemu_texview *v, struct ex_tex *out,
		     bool *norm)
{
	const CUDA_RESOURCE_DESC *r = &v->res;

	switch (r->resType) {
	case CU_RESOURCE_TYPE_ARRAY:
		if (!set_format(out, v->array.Format, v->array.NumChannels, norm))
			return false;
		out->base = (uint64_t)(uintptr_t)v->mem;
		out->pitch = v->row_bytes;
		out->slice = v->row_bytes * v->rows;
		out->bytes = out->slice * v->slices;
		out->width = (uint32_t)v->array.Width;
		out->height = (uint32_t)v->array.Height;
		out->depth = (uint32_t)v->array.Depth;
		out->shape = (uint8_t)shape_of(&v->array);
		return true;
	case CU_RESOURCE_TYPE_LINEAR:
		if (!set_format(out, r->res.linear.format,
				r->res.linear.numChannels, norm))
			return false;
		out->base = r->res.linear.devPtr;
		out->bytes = r->res.linear.sizeInBytes;
		out->pitch = out->slice = out->bytes;
		out->width = (uint32_t)(out->bytes / out->elem);
		out->shape = EX_TS_1D;
		out->global = true;
		out->fetch_only = true;
		return true;
	case CU_RESOURCE_TYPE_PITCH2D:
		if (!set_format(out, r->res.pitch2D.format,
				r->res.pitch2D.numChannels, norm))
			return false;
		out->base = r->res.pitch2D.devPtr;
		out->pitch = r->res.pitch2D.pitchInBytes;
		out->width = (uint32_t)r->res.pitch2D.width;
		out->height = (uint32_t)r->res.pitch2D.height;
		out->slice = out->pitch * out->height;
		out->bytes = out->pitch * (out->height - 1) +
			     (uint64_t)out->width * out->elem;
		out->shape = EX_TS_2D;
		out->global = true;
		return true;
	default:
		return false;
	}
}

enum ex_status cuemu_texview_engine(uint64_t h, bool surface, int dev,
				    struct ex_tex *out, const char **why)
{
	struct cuemu_texview v;
	bool norm = false;

	memset(out, 0, sizeof *out);
	if (cuemu_texobj_view(h, surface, &v) != CUDA_SUCCESS) {
		*why = surface ? "no surface object of this handle" :
				 "no texture object of this handle";
		return EX_ILLEGAL_ADDRESS;
	}
	if (v.device != dev) {
		*why = "a texture or surface object of another device";
		return EX_ILLEGAL_ADDRESS;
	}
	if (!resource(&v, out, &norm)) {
		*why = "a texture or surface of a format the engine does not "
		       "sample (block-compressed or packed)";
		return EX_UNSUPPORTED;
	}
	if (surface)
		return EX_OK;
	for (int d = 0; d < 3; d++)
		out->address[d] = (uint8_t)v.tex.addressMode[d];
	out->linear_filter = v.tex.filterMode == CU_TR_FILTER_MODE_LINEAR;
	out->normalized_coords = v.tex.flags & CU_TRSF_NORMALIZED_COORDINATES;
	out->read_integer = !norm && (v.tex.flags & CU_TRSF_READ_AS_INTEGER);
	out->srgb = v.tex.flags & CU_TRSF_SRGB;
	memcpy(out->border, v.tex.borderColor, sizeof out->border);
	return EX_OK;
}
