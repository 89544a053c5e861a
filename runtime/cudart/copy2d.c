/*
 * copy2d.c - the runtime's pitched memory and its 2D and 3D copies and
 * memsets: cudaMalloc3D, cudaMemcpy2D(Async), cudaMemcpy3D(Async),
 * cudaMemcpy3DPeer(Async), cudaMemcpy3DBatchAsync, cudaMemset2D(Async),
 * cudaMemset3D(Async), each on the driver's cuMemAllocPitch, cuMemcpy2D*,
 * cuMemcpy3D*, cuMemcpy3DBatchAsync and cuMemsetD2D8*.
 *
 * What the runtime decides before calling down: a cudaMemcpyKind names
 * the memory types of the ends (cudaMemcpyDefault: unified at both); a
 * 2D copy's pitches must hold its width (cudaErrorInvalidPitchValue); a
 * 3D copy's ends are an array or a pitched pointer, never both, and an
 * array's positions and the width count elements of it (array.c has the
 * element sizes). A 3D memset whose slices are not contiguous rows is one
 * 2D memset a slice.
 *
 * Locking: none of its own; the driver API takes what it needs.
 */
#include "cudart/cudart.h"
#include "cudart/shape.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

CUresult cuemu_rt_kind_types(enum cudaMemcpyKind kind, CUmemorytype *src,
			     CUmemorytype *dst)
{
	static const CUmemorytype t[][2] = {
		[cudaMemcpyHostToHost] = { CU_MEMORYTYPE_HOST, CU_MEMORYTYPE_HOST },
		[cudaMemcpyHostToDevice] = { CU_MEMORYTYPE_HOST, CU_MEMORYTYPE_DEVICE },
		[cudaMemcpyDeviceToHost] = { CU_MEMORYTYPE_DEVICE, CU_MEMORYTYPE_HOST },
		[cudaMemcpyDeviceToDevice] = { CU_MEMORYTYPE_DEVICE, CU_MEMORYTYPE_DEVICE },
		[cudaMemcpyDefault] = { CU_MEMORYTYPE_UNIFIED, CU_MEMORYTYPE_UNIFIED },
	};

	if ((unsigned)kind > cudaMemcpyDefault)
		return CUDA_ERROR_INVALID_VALUE;
	*src = t[kind][0];
	*dst = t[kind][1];
	return CUDA_SUCCESS;
}

void cuemu_rt_ptr_end(CUmemorytype type, const void *p, bool dst,
		      CUDA_MEMCPY3D *c)
{
	if (dst) {
		c->dstMemoryType = type;
		if (type == CU_MEMORYTYPE_HOST)
			c->dstHost = (void *)p;
		else
			c->dstDevice = (CUdeviceptr)(uintptr_t)p;
	} else {
		c->srcMemoryType = type;
		if (type == CU_MEMORYTYPE_HOST)
			c->srcHost = p;
		else
			c->srcDevice = (CUdeviceptr)(uintptr_t)p;
	}
}

/* ---------------------------------------------------------------- alloc */

cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr,
			 struct cudaExtent extent)
{
	size_t rows, pitch = 0;
	CUdeviceptr p = 0;
	CUresult r;

	RT_BEGIN();
	if (!pitchedDevPtr)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	/* As cudaMallocPitch: an empty extent gives NULL and pitch 0. */
	if (!extent.width || !extent.height || !extent.depth) {
		*pitchedDevPtr = make_cudaPitchedPtr(NULL, 0, extent.width,
						     extent.height);
		return cudaSuccess;
	}
	if (__builtin_mul_overflow(extent.height, extent.depth, &rows))
		return cuemu_rt_fail(cudaErrorMemoryAllocation);
	if ((r = cuMemAllocPitch(&p, &pitch, extent.width, rows, 4)))
		return cuemu_rt_result(r);
	*pitchedDevPtr = make_cudaPitchedPtr((void *)(uintptr_t)p, pitch,
					     extent.width, extent.height);
	return cudaSuccess;
}

/* ---------------------------------------------------------------- 2D */

static cudaError_t rt_copy2d(void *dst, size_t dpitch, const void *src,
			     size_t spitch, size_t width, size_t height,
			     enum cudaMemcpyKind kind, cudaStream_t stream,
			     bool sync)
{
	CUDA_MEMCPY3D c3 = { 0 };
	CUDA_MEMCPY2D c = { 0 };
	CUmemorytype st, dt;

	RT_BEGIN();
	if (cuemu_rt_kind_types(kind, &st, &dt))
		return cuemu_rt_fail(cudaErrorInvalidMemcpyDirection);
	if (width && height && (width > dpitch || width > spitch))
		return cuemu_rt_fail(cudaErrorInvalidPitchValue);
	cuemu_rt_ptr_end(st, src, false, &c3);
	cuemu_rt_ptr_end(dt, dst, true, &c3);
	c.srcMemoryType = c3.srcMemoryType;
	c.srcHost = c3.srcHost;
	c.srcDevice = c3.srcDevice;
	c.srcPitch = spitch;
	c.dstMemoryType = c3.dstMemoryType;
	c.dstHost = c3.dstHost;
	c.dstDevice = c3.dstDevice;
	c.dstPitch = dpitch;
	c.WidthInBytes = width;
	c.Height = height;
	return cuemu_rt_result(sync ? cuMemcpy2D(&c) :
			       cuMemcpy2DAsync(&c, (CUstream)stream));
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src,
			 size_t spitch, size_t width, size_t height,
			 enum cudaMemcpyKind kind)
{
	return rt_copy2d(dst, dpitch, src, spitch, width, height, kind, NULL,
			 true);
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
			      size_t spitch, size_t width, size_t height,
			      enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return rt_copy2d(dst, dpitch, src, spitch, width, height, kind,
			 stream, false);
}

/* ---------------------------------------------------------------- 3D */

/* One end of a cudaMemcpy3DParms: an array at pos (x in its elements), or
 * a pitched pointer (x in bytes). *elem: the array's element bytes. */
static cudaError_t end3d(cudaArray_t a, struct cudaPos pos,
			 struct cudaPitchedPtr ptr, CUmemorytype type,
			 bool dst, CUDA_MEMCPY3D *c, size_t *elem)
{
	size_t x = pos.x;
	cudaError_t e;

	if (a && ptr.ptr)
		return cudaErrorInvalidValue;
	if (a) {
		if ((e = cuemu_rt_array_elem(a, elem)))
			return e;
		if (__builtin_mul_overflow(pos.x, *elem, &x))
			return cudaErrorInvalidValue;
	} else {
		cuemu_rt_ptr_end(type, ptr.ptr, dst, c);
	}
	if (dst) {
		if (a) {
			c->dstMemoryType = CU_MEMORYTYPE_ARRAY;
			c->dstArray = (CUarray)a;
		}
		c->dstXInBytes = x;
		c->dstY = pos.y;
		c->dstZ = pos.z;
		c->dstPitch = ptr.pitch;
		c->dstHeight = ptr.ysize;
	} else {
		if (a) {
			c->srcMemoryType = CU_MEMORYTYPE_ARRAY;
			c->srcArray = (CUarray)a;
		}
		c->srcXInBytes = x;
		c->srcY = pos.y;
		c->srcZ = pos.z;
		c->srcPitch = ptr.pitch;
		c->srcHeight = ptr.ysize;
	}
	return cudaSuccess;
}

/* The driver's 3D copy of a runtime one; kind: the types of pointer
 * ends. */
static cudaError_t to_3d(cudaArray_t sa, struct cudaPos sp,
			 struct cudaPitchedPtr sptr, cudaArray_t da,
			 struct cudaPos dp, struct cudaPitchedPtr dptr,
			 struct cudaExtent ext, enum cudaMemcpyKind kind,
			 CUDA_MEMCPY3D *c)
{
	size_t selem = 0, delem = 0, elem;
	CUmemorytype st, dt;
	cudaError_t e;

	memset(c, 0, sizeof *c);
	if (cuemu_rt_kind_types(kind, &st, &dt))
		return cudaErrorInvalidMemcpyDirection;
	if ((e = end3d(sa, sp, sptr, st, false, c, &selem)) ||
	    (e = end3d(da, dp, dptr, dt, true, c, &delem)))
		return e;
	/* With an array at either end, the width counts its elements. */
	elem = selem ? selem : delem ? delem : 1;
	if (__builtin_mul_overflow(ext.width, elem, &c->WidthInBytes))
		return cudaErrorInvalidValue;
	c->Height = ext.height;
	c->Depth = ext.depth;
	return cudaSuccess;
}

cudaError_t cuemu_rt_copy3d_of(const struct cudaMemcpy3DParms *p,
			       CUDA_MEMCPY3D *c)
{
	return to_3d(p->srcArray, p->srcPos, p->srcPtr, p->dstArray,
		     p->dstPos, p->dstPtr, p->extent, p->kind, c);
}

/* A 3D copy, once built, on stream (or now, when sync). */
static cudaError_t issue3d(const CUDA_MEMCPY3D *c, cudaStream_t stream,
			   bool sync)
{
	return cuemu_rt_result(sync ? cuMemcpy3D(c) :
			       cuMemcpy3DAsync(c, (CUstream)stream));
}

static cudaError_t rt_copy3d(const struct cudaMemcpy3DParms *p,
			     cudaStream_t stream, bool sync)
{
	CUDA_MEMCPY3D c;
	cudaError_t e;

	RT_BEGIN();
	if (!p)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((e = to_3d(p->srcArray, p->srcPos, p->srcPtr, p->dstArray,
		       p->dstPos, p->dstPtr, p->extent, p->kind, &c)))
		return cuemu_rt_fail(e);
	return issue3d(&c, stream, sync);
}

cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
	return rt_copy3d(p, NULL, true);
}

cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p,
			      cudaStream_t stream)
{
	return rt_copy3d(p, stream, false);
}

/* Under unified addressing a peer copy is a 3D copy between whatever
 * memory the ends are; the device numbers are only checked. */
static cudaError_t rt_peer3d(const struct cudaMemcpy3DPeerParms *p,
			     cudaStream_t stream, bool sync)
{
	CUDA_MEMCPY3D c;
	cudaError_t e;
	CUresult r;
	int n = 0;

	RT_BEGIN();
	if (!p)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((r = cuDeviceGetCount(&n)))
		return cuemu_rt_result(r);
	if (p->srcDevice < 0 || p->srcDevice >= n || p->dstDevice < 0 ||
	    p->dstDevice >= n)
		return cuemu_rt_fail(cudaErrorInvalidDevice);
	if ((e = to_3d(p->srcArray, p->srcPos, p->srcPtr, p->dstArray,
		       p->dstPos, p->dstPtr, p->extent, cudaMemcpyDefault,
		       &c)))
		return cuemu_rt_fail(e);
	return issue3d(&c, stream, sync);
}

cudaError_t cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms *p)
{
	return rt_peer3d(p, NULL, true);
}

cudaError_t cudaMemcpy3DPeerAsync(const struct cudaMemcpy3DPeerParms *p,
				  cudaStream_t stream)
{
	return rt_peer3d(p, stream, false);
}

/* A runtime batch op is laid out as the driver's (header_compat checks
 * both against the toolkit's). */
cudaError_t cudaMemcpy3DBatchAsync(size_t numOps,
				   struct cudaMemcpy3DBatchOp *opList,
				   unsigned long long flags,
				   cudaStream_t stream)
{
	_Static_assert(sizeof(struct cudaMemcpy3DBatchOp) ==
		       sizeof(CUDA_MEMCPY3D_BATCH_OP), "batch op layouts");
	RT_BEGIN();
	return cuemu_rt_result(cuMemcpy3DBatchAsync(
		numOps, (CUDA_MEMCPY3D_BATCH_OP *)opList, flags,
		(CUstream)stream));
}

/* ---------------------------------------------------------------- memsets */

static CUresult set2d(void *p, size_t pitch, int value, size_t w, size_t h,
		      cudaStream_t stream, bool sync)
{
	CUdeviceptr d = (CUdeviceptr)(uintptr_t)p;

	return sync ? cuMemsetD2D8(d, pitch, (unsigned char)value, w, h) :
		cuMemsetD2D8Async(d, pitch, (unsigned char)value, w, h,
				  (CUstream)stream);
}

cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width,
			 size_t height)
{
	RT_BEGIN();
	return cuemu_rt_result(set2d(devPtr, pitch, value, width, height,
				     NULL, true));
}

cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value,
			      size_t width, size_t height, cudaStream_t stream)
{
	RT_BEGIN();
	return cuemu_rt_result(set2d(devPtr, pitch, value, width, height,
				     stream, false));
}

/* The last byte of a 3D memset of several slices lies in the allocation
 * of its first. */
static CUresult last_row_fits(struct cudaPitchedPtr p, struct cudaExtent e,
			      size_t slice)
{
	CUdeviceptr base = 0, at = (CUdeviceptr)(uintptr_t)p.ptr;
	size_t size = 0, span, t;
	CUresult r;

	if ((r = cuMemGetAddressRange(&base, &size, at)))
		return r;
	if (__builtin_mul_overflow(e.depth - 1, slice, &span) ||
	    __builtin_mul_overflow(e.height - 1, p.pitch, &t) ||
	    __builtin_add_overflow(span, t, &span) ||
	    __builtin_add_overflow(span, e.width, &span) ||
	    at - base + span > size)
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

/* Slices of ysize rows, extent.height of them set: one 2D memset when the
 * slices are contiguous, else one a slice. */
static cudaError_t rt_set3d(struct cudaPitchedPtr p, int value,
			    struct cudaExtent e, cudaStream_t stream,
			    bool sync)
{
	size_t rows, slice;
	CUresult r = CUDA_SUCCESS;

	RT_BEGIN();
	if (!e.width || !e.height || !e.depth)
		return cudaSuccess;
	if (p.ysize < e.height && e.depth > 1)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if (p.ysize == e.height || e.depth == 1) {
		if (__builtin_mul_overflow(e.height, e.depth, &rows))
			return cuemu_rt_fail(cudaErrorInvalidValue);
		return cuemu_rt_result(set2d(p.ptr, p.pitch, value, e.width,
					     rows, stream, sync));
	}
	if (__builtin_mul_overflow(p.pitch, p.ysize, &slice))
		return cuemu_rt_fail(cudaErrorInvalidValue);
	/* A refused memset sets nothing: the last slice's last row is
	 * checked to lie in the allocation before the first is set. */
	if ((r = last_row_fits(p, e, slice)))
		return cuemu_rt_result(r);
	for (size_t z = 0; z < e.depth && !r; z++)
		r = set2d((char *)p.ptr + z * slice, p.pitch, value, e.width,
			  e.height, stream, sync);
	return cuemu_rt_result(r);
}

cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value,
			 struct cudaExtent extent)
{
	return rt_set3d(pitchedDevPtr, value, extent, NULL, true);
}

cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value,
			      struct cudaExtent extent, cudaStream_t stream)
{
	return rt_set3d(pitchedDevPtr, value, extent, stream, false);
}
