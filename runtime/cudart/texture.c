/*
 * texture.c - the runtime's texture and surface objects:
 * cudaCreateTextureObject, cudaDestroyTextureObject,
 * cudaGetTextureObjectResourceDesc, cudaGetTextureObjectTextureDesc,
 * cudaGetTextureObjectResourceViewDesc, cudaCreateSurfaceObject,
 * cudaDestroySurfaceObject and cudaGetSurfaceObjectResourceDesc, on the
 * driver's cuTexObject* and cuSurfObject*.
 *
 * The runtime's descriptors carry what the driver's carry in other words:
 * linear and pitched memory name their element by a channel descriptor
 * (shape.h maps it to a format and a channel count:
 * cudaErrorInvalidChannelDescriptor for one that has none); the texture
 * descriptor's booleans are the driver's flags, and its read mode is
 * CU_TRSF_READ_AS_INTEGER where the element type of an integer format
 * (8-, 16- or 32-bit, signed or unsigned) is asked for; read back, an
 * integer format without that flag reads cudaReadModeNormalizedFloat,
 * any other cudaReadModeElementType. The driver gives no border colour
 * back (probes/results/texobj.txt), so neither does this: it reads 0. A
 * view's formats are the driver's, number for number; where the object
 * was made without one, the view reads as zeros.
 *
 * Locking: none of its own; the driver API takes what it needs.
 */
#include "cudart/cudart.h"
#include "cudart/shape.h"

#include <stdbool.h>
#include <string.h>

/* ---------------------------------------------------------------- formats */

static bool integer_format(CUarray_format f)
{
	switch (f) {
	case CU_AD_FORMAT_UNSIGNED_INT8:
	case CU_AD_FORMAT_UNSIGNED_INT16:
	case CU_AD_FORMAT_UNSIGNED_INT32:
	case CU_AD_FORMAT_SIGNED_INT8:
	case CU_AD_FORMAT_SIGNED_INT16:
	case CU_AD_FORMAT_SIGNED_INT32:
		return true;
	default:
		return false;
	}
}

/* Whether the driver's resource r holds integers (an array asked for its
 * format; one that is gone holds none). */
static bool integer_resource(const CUDA_RESOURCE_DESC *r)
{
	CUDA_ARRAY3D_DESCRIPTOR d;

	switch (r->resType) {
	case CU_RESOURCE_TYPE_LINEAR:
		return integer_format(r->res.linear.format);
	case CU_RESOURCE_TYPE_PITCH2D:
		return integer_format(r->res.pitch2D.format);
	case CU_RESOURCE_TYPE_ARRAY:
		return cuArray3DGetDescriptor(&d, r->res.array.hArray) ==
		       CUDA_SUCCESS && integer_format(d.Format);
	default:
		return false;
	}
}

/* ---------------------------------------------------------------- to the driver */

static cudaError_t to_res(const struct cudaResourceDesc *in,
			  CUDA_RESOURCE_DESC *out)
{
	memset(out, 0, sizeof *out);
	out->resType = (CUresourcetype)in->resType;
	out->flags = in->flags;
	switch (in->resType) {
	case cudaResourceTypeArray:
		out->res.array.hArray = (CUarray)in->res.array.array;
		return cudaSuccess;
	case cudaResourceTypeMipmappedArray:
		out->res.mipmap.hMipmappedArray =
			(CUmipmappedArray)in->res.mipmap.mipmap;
		return cudaSuccess;
	case cudaResourceTypeLinear:
		out->res.linear.devPtr = (CUdeviceptr)in->res.linear.devPtr;
		out->res.linear.sizeInBytes = in->res.linear.sizeInBytes;
		return cuemu_rt_to_format(&in->res.linear.desc,
					  &out->res.linear.format,
					  &out->res.linear.numChannels);
	case cudaResourceTypePitch2D:
		out->res.pitch2D.devPtr = (CUdeviceptr)in->res.pitch2D.devPtr;
		out->res.pitch2D.width = in->res.pitch2D.width;
		out->res.pitch2D.height = in->res.pitch2D.height;
		out->res.pitch2D.pitchInBytes = in->res.pitch2D.pitchInBytes;
		return cuemu_rt_to_format(&in->res.pitch2D.desc,
					  &out->res.pitch2D.format,
					  &out->res.pitch2D.numChannels);
	default:
		/* the driver refuses the kind */
		return cudaSuccess;
	}
}

static cudaError_t to_tex(const struct cudaTextureDesc *in, bool integer,
			  CUDA_TEXTURE_DESC *out)
{
	memset(out, 0, sizeof *out);
	if ((unsigned)in->readMode > cudaReadModeNormalizedFloat)
		return cudaErrorInvalidValue;
	for (int i = 0; i < 3; i++)
		out->addressMode[i] = (CUaddress_mode)in->addressMode[i];
	out->filterMode = (CUfilter_mode)in->filterMode;
	if (in->readMode == cudaReadModeElementType && integer)
		out->flags |= CU_TRSF_READ_AS_INTEGER;
	if (in->normalizedCoords)
		out->flags |= CU_TRSF_NORMALIZED_COORDINATES;
	if (in->sRGB)
		out->flags |= CU_TRSF_SRGB;
	if (in->disableTrilinearOptimization)
		out->flags |= CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION;
	if (in->seamlessCubemap)
		out->flags |= CU_TRSF_SEAMLESS_CUBEMAP;
	out->maxAnisotropy = in->maxAnisotropy;
	out->mipmapFilterMode = (CUfilter_mode)in->mipmapFilterMode;
	out->mipmapLevelBias = in->mipmapLevelBias;
	out->minMipmapLevelClamp = in->minMipmapLevelClamp;
	out->maxMipmapLevelClamp = in->maxMipmapLevelClamp;
	memcpy(out->borderColor, in->borderColor, sizeof out->borderColor);
	return cudaSuccess;
}

static void to_view(const struct cudaResourceViewDesc *in,
		    CUDA_RESOURCE_VIEW_DESC *out)
{
	memset(out, 0, sizeof *out);
	out->format = (CUresourceViewFormat)in->format;
	out->width = in->width;
	out->height = in->height;
	out->depth = in->depth;
	out->firstMipmapLevel = in->firstMipmapLevel;
	out->lastMipmapLevel = in->lastMipmapLevel;
	out->firstLayer = in->firstLayer;
	out->lastLayer = in->lastLayer;
	memcpy(out->reserved, in->reserved, sizeof out->reserved);
}

/* ---------------------------------------------------------------- back */

static void from_res(const CUDA_RESOURCE_DESC *in,
		     struct cudaResourceDesc *out)
{
	memset(out, 0, sizeof *out);
	out->resType = (enum cudaResourceType)in->resType;
	out->flags = in->flags;
	switch (in->resType) {
	case CU_RESOURCE_TYPE_LINEAR:
		out->res.linear.devPtr = (void *)(uintptr_t)in->res.linear.devPtr;
		out->res.linear.sizeInBytes = in->res.linear.sizeInBytes;
		cuemu_rt_channel_desc(in->res.linear.format,
				      in->res.linear.numChannels,
				      &out->res.linear.desc);
		break;
	case CU_RESOURCE_TYPE_PITCH2D:
		out->res.pitch2D.devPtr =
			(void *)(uintptr_t)in->res.pitch2D.devPtr;
		out->res.pitch2D.width = in->res.pitch2D.width;
		out->res.pitch2D.height = in->res.pitch2D.height;
		out->res.pitch2D.pitchInBytes = in->res.pitch2D.pitchInBytes;
		cuemu_rt_channel_desc(in->res.pitch2D.format,
				      in->res.pitch2D.numChannels,
				      &out->res.pitch2D.desc);
		break;
	case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
		out->res.mipmap.mipmap =
			(cudaMipmappedArray_t)in->res.mipmap.hMipmappedArray;
		break;
	default:
		out->res.array.array = (cudaArray_t)in->res.array.hArray;
	}
}

static void from_tex(const CUDA_TEXTURE_DESC *in, bool integer,
		     struct cudaTextureDesc *out)
{
	memset(out, 0, sizeof *out);
	for (int i = 0; i < 3; i++)
		out->addressMode[i] =
			(enum cudaTextureAddressMode)in->addressMode[i];
	out->filterMode = (enum cudaTextureFilterMode)in->filterMode;
	out->readMode = integer && !(in->flags & CU_TRSF_READ_AS_INTEGER) ?
			cudaReadModeNormalizedFloat : cudaReadModeElementType;
	out->sRGB = !!(in->flags & CU_TRSF_SRGB);
	out->normalizedCoords = !!(in->flags & CU_TRSF_NORMALIZED_COORDINATES);
	out->disableTrilinearOptimization =
		!!(in->flags & CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION);
	out->seamlessCubemap = !!(in->flags & CU_TRSF_SEAMLESS_CUBEMAP);
	out->maxAnisotropy = in->maxAnisotropy;
	out->mipmapFilterMode = (enum cudaTextureFilterMode)in->mipmapFilterMode;
	out->mipmapLevelBias = in->mipmapLevelBias;
	out->minMipmapLevelClamp = in->minMipmapLevelClamp;
	out->maxMipmapLevelClamp = in->maxMipmapLevelClamp;
	memcpy(out->borderColor, in->borderColor, sizeof out->borderColor);
}

static void from_view(const CUDA_RESOURCE_VIEW_DESC *in,
		      struct cudaResourceViewDesc *out)
{
	memset(out, 0, sizeof *out);
	out->format = (enum cudaResourceViewFormat)in->format;
	out->width = in->width;
	out->height = in->height;
	out->depth = in->depth;
	out->firstMipmapLevel = in->firstMipmapLevel;
	out->lastMipmapLevel = in->lastMipmapLevel;
	out->firstLayer = in->firstLayer;
	out->lastLayer = in->lastLayer;
	memcpy(out->reserved, in->reserved, sizeof out->reserved);
}

/* ---------------------------------------------------------------- textures */

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
				    const struct cudaResourceDesc *pResDesc,
				    const struct cudaTextureDesc *pTexDesc,
				    const struct cudaResourceViewDesc *pResViewDesc)
{
	CUDA_RESOURCE_DESC res;
	CUDA_TEXTURE_DESC tex;
	CUDA_RESOURCE_VIEW_DESC view;
	cudaError_t e;

	RT_BEGIN();
	if (pResDesc && (e = to_res(pResDesc, &res)))
		return cuemu_rt_fail(e);
	if (pTexDesc && (e = to_tex(pTexDesc, pResDesc &&
				    integer_resource(&res), &tex)))
		return cuemu_rt_fail(e);
	if (pResViewDesc)
		to_view(pResViewDesc, &view);
	return cuemu_rt_result(cuTexObjectCreate(
		(CUtexObject *)pTexObject, pResDesc ? &res : NULL,
		pTexDesc ? &tex : NULL, pResViewDesc ? &view : NULL));
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
	RT_BEGIN();
	return cuemu_rt_result(cuTexObjectDestroy(texObject));
}

/* A texture's or surface's resource through the driver's getter of it. */
static cudaError_t resource_of(struct cudaResourceDesc *out,
			       unsigned long long h,
			       CUresult (*get)(CUDA_RESOURCE_DESC *,
					       unsigned long long))
{
	CUDA_RESOURCE_DESC res;
	CUresult r;

	memset(&res, 0, sizeof res);
	if ((r = get(out ? &res : NULL, h)))
		return cuemu_rt_result(r);
	from_res(&res, out);
	return cudaSuccess;
}

cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
					     cudaTextureObject_t texObject)
{
	RT_BEGIN();
	return resource_of(pResDesc, texObject, cuTexObjectGetResourceDesc);
}

cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc,
					    cudaTextureObject_t texObject)
{
	CUDA_RESOURCE_DESC res;
	CUDA_TEXTURE_DESC tex;
	CUresult r;

	RT_BEGIN();
	memset(&res, 0, sizeof res);
	memset(&tex, 0, sizeof tex);
	if ((r = cuTexObjectGetTextureDesc(pTexDesc ? &tex : NULL,
					   texObject)) ||
	    (r = cuTexObjectGetResourceDesc(&res, texObject)))
		return cuemu_rt_result(r);
	from_tex(&tex, integer_resource(&res), pTexDesc);
	return cudaSuccess;
}

cudaError_t cudaGetTextureObjectResourceViewDesc(
	struct cudaResourceViewDesc *pResViewDesc,
	cudaTextureObject_t texObject)
{
	CUDA_RESOURCE_VIEW_DESC view;
	CUresult r;

	RT_BEGIN();
	memset(&view, 0, sizeof view);
	if ((r = cuTexObjectGetResourceViewDesc(pResViewDesc ? &view : NULL,
						texObject)))
		return cuemu_rt_result(r);
	from_view(&view, pResViewDesc);
	return cudaSuccess;
}

/* ---------------------------------------------------------------- surfaces */

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
				    const struct cudaResourceDesc *pResDesc)
{
	CUDA_RESOURCE_DESC res;
	cudaError_t e;

	RT_BEGIN();
	if (pResDesc && (e = to_res(pResDesc, &res)))
		return cuemu_rt_fail(e);
	return cuemu_rt_result(cuSurfObjectCreate((CUsurfObject *)pSurfObject,
						  pResDesc ? &res : NULL));
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject)
{
	RT_BEGIN();
	return cuemu_rt_result(cuSurfObjectDestroy(surfObject));
}

cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc,
					     cudaSurfaceObject_t surfObject)
{
	RT_BEGIN();
	return resource_of(pResDesc, surfObject, cuSurfObjectGetResourceDesc);
}
