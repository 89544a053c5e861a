/*
 * texobj.h - texture and surface objects (texobj.c): their checks as the
 * real driver makes them, their life, their descriptors read back, and
 * what a launch samples through one.
 *
 * Locking: the objects of the process are guarded by cuemu_lock(); every
 * function here takes it itself (none is called with it held).
 */
#ifndef CUEMU_TEXOBJ_H
#define CUEMU_TEXOBJ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuda.h"

/* What a launch samples through handle h: the object's descriptors and,
 * for an array resource, the array's bytes and shape, copied under the
 * lock. INVALID_HANDLE where h is no object of that kind (texture or
 * surface) of the process, or its array is gone. */
struct cuemu_texview {
	bool surface;
	int device;
	CUDA_RESOURCE_DESC res;
	CUDA_TEXTURE_DESC tex;          /* zeros for a surface */
	CUDA_RESOURCE_VIEW_DESC view;
	bool has_view;
	/* res.resType == CU_RESOURCE_TYPE_ARRAY: the array as made */
	CUDA_ARRAY3D_DESCRIPTOR array;  /* its descriptor (Width, Height, Depth, Format, NumChannels, Flags) */
	void *mem;                      /* its bytes, row-major: x fastest, then rows, then slices */
	size_t elem, row_bytes, rows, slices;
};
CUresult cuemu_texobj_view(uint64_t h, bool surface, struct cuemu_texview *out);

/* Checks a texture object of res sampled as tex through view (NULL: none)
 * for ctx, current, on dev, and makes it: its handle in *out. Every refusal
 * is INVALID_VALUE but an array of another context's, PEER_ACCESS_NOT_
 * ENABLED once all else passed; a view of format NONE that passes every
 * other check writes 0 to *out before its INVALID_VALUE, as the driver
 * does. */
CUresult cuemu_texobj_create(CUcontext ctx, int dev,
                             const CUDA_RESOURCE_DESC *res,
                             const CUDA_TEXTURE_DESC *tex,
                             const CUDA_RESOURCE_VIEW_DESC *view,
                             CUtexObject *out);
/* Checks a surface object of res and makes it in ctx, the current
 * context, or where none is current (ctx NULL) in the primary context of
 * the array's device. In the driver's order: the resource (an existing
 * array, flags 0: INVALID_VALUE), then no current context with no out
 * (INVALID_CONTEXT), no out (INVALID_VALUE: the driver faults), the
 * primary context inactive (INVALID_CONTEXT), the array of another
 * context (PEER_ACCESS_NOT_ENABLED). */
CUresult cuemu_surfobj_create(CUcontext ctx, const CUDA_RESOURCE_DESC *res,
                              CUsurfObject *out);
/* Destroys the texture (surface false) or surface object h of ctx once
 * ctx's work is done; nothing where h is none of ctx's of that kind, as
 * the driver, which answers success either way. */
void cuemu_texobj_destroy(CUcontext ctx, uint64_t h, bool surface);
/* What the driver's getters write, from the object h of that kind of
 * ctx: the resource (its kind, that kind's fields and the flags; the rest
 * of *res left as it was), the texture descriptor (all but borderColor
 * and reserved, left as they were), the view (all of it; *view left as it
 * was and success where the object was made without one). INVALID_VALUE
 * for no such object of ctx. Any out may be NULL. */
CUresult cuemu_texobj_describe(CUcontext ctx, uint64_t h, bool surface,
                               CUDA_RESOURCE_DESC *res,
                               CUDA_TEXTURE_DESC *tex,
                               CUDA_RESOURCE_VIEW_DESC *view);
/* Destroys every texture and surface object of ctx (its destruction, a
 * primary context's reset or last release); how many. */
size_t cuemu_ctx_free_texobjs(CUcontext ctx);

#endif
