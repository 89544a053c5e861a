/*
 * array.c - the CUDA array entries: cuArrayCreate, cuArray3DCreate,
 * cuArrayDestroy, cuArrayGetDescriptor, cuArray3DGetDescriptor,
 * cuArrayGetMemoryRequirements, cuArrayGetPlane,
 * cuArrayGetSparseProperties, and the 1D copies to and from arrays
 * (cuMemcpyHtoA, AtoH, AtoD, DtoA, AtoA, HtoAAsync, AtoHAsync) with their
 * _ptds and _ptsz forms.
 *
 * What the real H200 answers (probes/results/shape.txt): creating needs a
 * current context (checked before anything else); describing, destroying
 * and the other questions do not. A NULL handle is INVALID_HANDLE to
 * describe, destroy or split into planes, INVALID_VALUE elsewhere. No
 * format arrays take is planar, so cuArrayGetPlane has no plane to give.
 * A 1D copy reaches the first row of an array: offset + count within its
 * width in bytes; offsets and counts need no alignment; a count of 0
 * succeeds whatever the rest says.
 *
 * Locking: none taken here; the model (model/array.c, model/copy.c)
 * takes cuemu_lock().
 */
#define CUEMU_PER_THREAD_ENTRY_POINTS 1
#include "model/internal.h"
#include "model/array.h"
#include "model/copy.h"
#include "driver/driver.h"

#include <string.h>

/* ---------------------------------------------------------------- life */

static CUresult create(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	CUcontext ctx;
	CUresult r;
	int dev;

	if ((r = cuemu_current(&ctx, &dev)))
		return r;
	if (!pHandle || !d)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "no handle or descriptor given");
	if ((r = cuemu_array_check(d, dev)))
		return r;
	return cuemu_array_create(ctx, dev, d, pHandle);
}

CUresult cuArrayCreate(CUarray *pHandle,
		       const CUDA_ARRAY_DESCRIPTOR *pAllocateArray)
{
	CUDA_ARRAY3D_DESCRIPTOR d = { 0 };

	if (pAllocateArray) {
		d.Width = pAllocateArray->Width;
		d.Height = pAllocateArray->Height;
		d.Format = pAllocateArray->Format;
		d.NumChannels = pAllocateArray->NumChannels;
	}
	return create(pHandle, pAllocateArray ? &d : NULL);
}

CUresult cuArray3DCreate(CUarray *pHandle,
			 const CUDA_ARRAY3D_DESCRIPTOR *pAllocateArray)
{
	return create(pHandle, pAllocateArray);
}

CUresult cuArrayDestroy(CUarray hArray)
{
	CUresult r;

	if ((r = cuemu_check_init()))
		return r;
	return cuemu_array_destroy(hArray);
}

CUresult cuArray3DGetDescriptor(CUDA_ARRAY3D_DESCRIPTOR *pArrayDescriptor,
				CUarray hArray)
{
	CUresult r;

	if ((r = cuemu_check_init()))
		return r;
	if (!pArrayDescriptor)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "no descriptor given");
	return cuemu_array_describe(hArray, pArrayDescriptor);
}

CUresult cuArrayGetDescriptor(CUDA_ARRAY_DESCRIPTOR *pArrayDescriptor,
			      CUarray hArray)
{
	CUDA_ARRAY3D_DESCRIPTOR d;
	CUresult r;

	if ((r = cuemu_check_init()))
		return r;
	if (!pArrayDescriptor)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "no descriptor given");
	if ((r = cuemu_array_describe(hArray, &d)))
		return r;
	pArrayDescriptor->Width = d.Width;
	pArrayDescriptor->Height = d.Height;
	pArrayDescriptor->Format = d.Format;
	pArrayDescriptor->NumChannels = d.NumChannels;
	return CUDA_SUCCESS;
}

CUresult cuArrayGetMemoryRequirements(
	CUDA_ARRAY_MEMORY_REQUIREMENTS *memoryRequirements, CUarray array,
	CUdevice device)
{
	CUresult r;

	if ((r = cuemu_check_init()))
		return r;
	if (!memoryRequirements)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "no requirements given");
	if ((r = cuemu_array_requirements(array, memoryRequirements)))
		return r;
	if (device < 0 || device >= cuemu_device_count())
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "device %d is none of the machine's",
				  device);
	return CUDA_SUCCESS;
}

CUresult cuArrayGetPlane(CUarray *pPlaneArray, CUarray hArray,
			 unsigned int planeIdx)
{
	CUDA_ARRAY3D_DESCRIPTOR d;
	CUresult r;

	if ((r = cuemu_check_init()))
		return r;
	if (!pPlaneArray)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "no plane handle given");
	if ((r = cuemu_array_describe(hArray, &d)))
		return r;
	return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "array %p (format %s) "
			  "has no plane %u: it is not planar", (void *)hArray,
			  cuemu_array_format_name(d.Format), planeIdx);
}

CUresult cuArrayGetSparseProperties(
	CUDA_ARRAY_SPARSE_PROPERTIES *sparseProperties, CUarray array)
{
	CUresult r;

	if ((r = cuemu_check_init()))
		return r;
	if (!sparseProperties)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "no properties given");
	return cuemu_array_sparse(array, sparseProperties);
}

/* ---------------------------------------------------------------- 1D copies */

static struct cuemu_shape_end arr(CUarray a, size_t off)
{
	return (struct cuemu_shape_end){ .is_array = true, .array = a,
					 .x = off };
}

static struct cuemu_shape_end host(const void *p)
{
	return (struct cuemu_shape_end){ .p = (uintptr_t)p };
}

static struct cuemu_shape_end dev(CUdeviceptr p)
{
	return (struct cuemu_shape_end){ .p = p, .dev_side = true };
}

/* Every 1D array copy: n bytes as one row, on stream h. */
static CUresult copy1d(struct cuemu_shape_end dst, struct cuemu_shape_end src,
		       size_t n, CUstream h, bool sync)
{
	CUstream s;
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)) || (r = cuemu_stream_get(h, &s)))
		return r;
	if (n == 0)
		return CUDA_SUCCESS;
	return cuemu_copy_shaped(s, &dst, &src, n, 1, 1, sync);
}

CUresult cuMemcpyHtoA(CUarray dstArray, size_t dstOffset, const void *srcHost,
		      size_t ByteCount)
{
	return copy1d(arr(dstArray, dstOffset), host(srcHost), ByteCount,
		      NULL, true);
}

CUresult cuMemcpyAtoH(void *dstHost, CUarray srcArray, size_t srcOffset,
		      size_t ByteCount)
{
	return copy1d(host(dstHost), arr(srcArray, srcOffset), ByteCount,
		      NULL, true);
}

CUresult cuMemcpyAtoD(CUdeviceptr dstDevice, CUarray srcArray,
		      size_t srcOffset, size_t ByteCount)
{
	return copy1d(dev(dstDevice), arr(srcArray, srcOffset), ByteCount,
		      NULL, true);
}

CUresult cuMemcpyDtoA(CUarray dstArray, size_t dstOffset,
		      CUdeviceptr srcDevice, size_t ByteCount)
{
	return copy1d(arr(dstArray, dstOffset), dev(srcDevice), ByteCount,
		      NULL, true);
}

CUresult cuMemcpyAtoA(CUarray dstArray, size_t dstOffset, CUarray srcArray,
		      size_t srcOffset, size_t ByteCount)
{
	return copy1d(arr(dstArray, dstOffset), arr(srcArray, srcOffset),
		      ByteCount, NULL, true);
}

CUresult cuMemcpyHtoAAsync(CUarray dstArray, size_t dstOffset,
			   const void *srcHost, size_t ByteCount,
			   CUstream hStream)
{
	return copy1d(arr(dstArray, dstOffset), host(srcHost), ByteCount,
		      hStream, false);
}

CUresult cuMemcpyAtoHAsync(void *dstHost, CUarray srcArray, size_t srcOffset,
			   size_t ByteCount, CUstream hStream)
{
	return copy1d(host(dstHost), arr(srcArray, srcOffset), ByteCount,
		      hStream, false);
}

/* ------------------------------------------- per-thread default stream */

CUresult cuMemcpyHtoA_v2_ptds(CUarray dstArray, size_t dstOffset,
			      const void *srcHost, size_t ByteCount)
{
	return copy1d(arr(dstArray, dstOffset), host(srcHost), ByteCount,
		      CU_STREAM_PER_THREAD, true);
}

CUresult cuMemcpyAtoH_v2_ptds(void *dstHost, CUarray srcArray,
			      size_t srcOffset, size_t ByteCount)
{
	return copy1d(host(dstHost), arr(srcArray, srcOffset), ByteCount,
		      CU_STREAM_PER_THREAD, true);
}

CUresult cuMemcpyAtoD_v2_ptds(CUdeviceptr dstDevice, CUarray srcArray,
			      size_t srcOffset, size_t ByteCount)
{
	return copy1d(dev(dstDevice), arr(srcArray, srcOffset), ByteCount,
		      CU_STREAM_PER_THREAD, true);
}

CUresult cuMemcpyDtoA_v2_ptds(CUarray dstArray, size_t dstOffset,
			      CUdeviceptr srcDevice, size_t ByteCount)
{
	return copy1d(arr(dstArray, dstOffset), dev(srcDevice), ByteCount,
		      CU_STREAM_PER_THREAD, true);
}

CUresult cuMemcpyAtoA_v2_ptds(CUarray dstArray, size_t dstOffset,
			      CUarray srcArray, size_t srcOffset,
			      size_t ByteCount)
{
	return copy1d(arr(dstArray, dstOffset), arr(srcArray, srcOffset),
		      ByteCount, CU_STREAM_PER_THREAD, true);
}

CUresult cuMemcpyHtoAAsync_v2_ptsz(CUarray dstArray, size_t dstOffset,
				   const void *srcHost, size_t ByteCount,
				   CUstream hStream)
{
	return copy1d(arr(dstArray, dstOffset), host(srcHost), ByteCount,
		      cuemu_ptsz(hStream),
		      false);
}

CUresult cuMemcpyAtoHAsync_v2_ptsz(void *dstHost, CUarray srcArray,
				   size_t srcOffset, size_t ByteCount,
				   CUstream hStream)
{
	return copy1d(host(dstHost), arr(srcArray, srcOffset), ByteCount,
		      cuemu_ptsz(hStream),
		      false);
}
