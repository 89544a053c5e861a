/*
 * texture.c - the texture and surface object entries: cuTexObjectCreate,
 * cuTexObjectDestroy, cuTexObjectGetResourceDesc,
 * cuTexObjectGetTextureDesc, cuTexObjectGetResourceViewDesc,
 * cuSurfObjectCreate, cuSurfObjectDestroy and cuSurfObjectGetResourceDesc.
 * The objects, and what is checked of them, are model/texobj.c's.
 *
 * What the real H200 answers (probes/results/texobj.txt): every entry
 * answers NOT_INITIALIZED before cuInit and, cuSurfObjectCreate aside,
 * INVALID_CONTEXT with no current context, before it looks at its
 * arguments. A NULL pointer, a handle that is no object of that kind in
 * the current context (0, destroyed, another context's, a surface's
 * asked as a texture's) are INVALID_VALUE to create and describe;
 * destroying one succeeds and changes nothing. A texture made without a
 * view describes its view as a success that writes nothing.
 * cuSurfObjectCreate checks its resource first, and without a current
 * context makes the object in the array's device's primary context
 * (INVALID_CONTEXT without a handle to write); with one, a NULL handle
 * faults in the driver, answered INVALID_VALUE here.
 *
 * Locking: none taken here; the model (model/texobj.c) takes cuemu_lock().
 */
#include "model/internal.h"
#include "model/context.h"
#include "model/texobj.h"
#include "driver/driver.h"

/* ---------------------------------------------------------------- textures */

CUresult cuTexObjectCreate(CUtexObject *pTexObject,
			   const CUDA_RESOURCE_DESC *pResDesc,
			   const CUDA_TEXTURE_DESC *pTexDesc,
			   const CUDA_RESOURCE_VIEW_DESC *pResViewDesc)
{
	CUcontext ctx;
	CUresult r;
	int dev;

	if ((r = cuemu_current(&ctx, &dev)))
		return r;
	if (!pTexObject || !pResDesc || !pTexDesc)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "no handle, "
				  "resource or texture descriptor given");
	return cuemu_texobj_create(ctx, dev, pResDesc, pTexDesc, pResViewDesc,
				   pTexObject);
}

/* Destroys the texture or surface h of the current context; what is no
 * such object is let be. */
static CUresult destroy(uint64_t h, bool surface)
{
	CUcontext ctx;
	CUresult r;

	if ((r = cuemu_current(&ctx, NULL)))
		return r;
	cuemu_texobj_destroy(ctx, h, surface);
	return CUDA_SUCCESS;
}

CUresult cuTexObjectDestroy(CUtexObject texObject)
{
	return destroy(texObject, false);
}

/* A getter of the texture or surface h: its out given, then the object. */
static CUresult describe(const void *out, uint64_t h, bool surface,
			 CUDA_RESOURCE_DESC *res, CUDA_TEXTURE_DESC *tex,
			 CUDA_RESOURCE_VIEW_DESC *view)
{
	CUcontext ctx;
	CUresult r;

	if ((r = cuemu_current(&ctx, NULL)))
		return r;
	if (!out)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "no descriptor given");
	return cuemu_texobj_describe(ctx, h, surface, res, tex, view);
}

CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc,
				    CUtexObject texObject)
{
	return describe(pResDesc, texObject, false, pResDesc, NULL, NULL);
}

CUresult cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *pTexDesc,
				   CUtexObject texObject)
{
	return describe(pTexDesc, texObject, false, NULL, pTexDesc, NULL);
}

CUresult cuTexObjectGetResourceViewDesc(CUDA_RESOURCE_VIEW_DESC *pResViewDesc,
					CUtexObject texObject)
{
	return describe(pResViewDesc, texObject, false, NULL, NULL,
			pResViewDesc);
}

/* ---------------------------------------------------------------- surfaces */

CUresult cuSurfObjectCreate(CUsurfObject *pSurfObject,
			    const CUDA_RESOURCE_DESC *pResDesc)
{
	CUcontext ctx = NULL;
	CUresult r;

	if ((r = cuemu_check_init()))
		return r;
	if (!pResDesc)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "no resource descriptor given");
	/* no current context is no error yet: the model picks one */
	if (cuemu_ctx_top() && (r = cuemu_current(&ctx, NULL)))
		return r;
	return cuemu_surfobj_create(ctx, pResDesc, pSurfObject);
}

CUresult cuSurfObjectDestroy(CUsurfObject surfObject)
{
	return destroy(surfObject, true);
}

CUresult cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC *pResDesc,
				     CUsurfObject surfObject)
{
	return describe(pResDesc, surfObject, true, pResDesc, NULL, NULL);
}
