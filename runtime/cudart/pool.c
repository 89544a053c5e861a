/*
 * pool.c - the runtime API's stream-ordered allocator: cudaMallocAsync,
 * cudaMallocFromPoolAsync, cudaFreeAsync, cudaMemPool* and the device pool
 * calls and a location's pools (cudaMem{GetDefault,Get,Set}MemPool), each a
 * client of its cu* twin (driver/pool.c, driver/poolloc.c). What the runtime
 * adds: its lazy initialization before every call, the conversion of its
 * structs (cudaMemPoolProps, cudaMemAccessDesc, cudaMemLocation) to the
 * driver's, the NULL checks it makes before the driver sees a call, and the
 * mapping of the result to a cudaError_t with the sticky last error.
 *
 * Locking: none of its own; the driver API takes the process lock.
 */
#include "cudart/cudart.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The runtime initializes itself and makes its device current first. */
static CUresult rt_enter(void)
{
	return cuemu_rt_current(NULL, NULL);
}

/* ---------------------------------------------------------------- allocation */

cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream)
{
	CUdeviceptr d = 0;
	CUresult r = rt_enter();

	if (r != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	if (!devPtr)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	r = cuMemAllocAsync(&d, size, (CUstream)hStream);
	if (r == CUDA_SUCCESS)
		*devPtr = (void *)(uintptr_t)d;
	return cuemu_rt_result(r);
}

cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size,
				    cudaMemPool_t memPool, cudaStream_t stream)
{
	CUdeviceptr d = 0;
	CUresult r = rt_enter();

	if (r != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	if (!ptr)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	r = cuMemAllocFromPoolAsync(&d, size, (CUmemoryPool)memPool,
				    (CUstream)stream);
	if (r == CUDA_SUCCESS)
		*ptr = (void *)(uintptr_t)d;
	return cuemu_rt_result(r);
}

cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream)
{
	CUresult r = rt_enter();

	if (r == CUDA_SUCCESS)
		r = cuMemFreeAsync((CUdeviceptr)(uintptr_t)devPtr,
				   (CUstream)hStream);
	return cuemu_rt_result(r);
}

/* ---------------------------------------------------------------- pools */

static void props_from_rt(const struct cudaMemPoolProps *in, CUmemPoolProps *out)
{
	memset(out, 0, sizeof *out);
	out->allocType = (CUmemAllocationType)in->allocType;
	out->handleTypes = (CUmemAllocationHandleType)in->handleTypes;
	out->location.type = (CUmemLocationType)in->location.type;
	out->location.id = in->location.id;
	out->maxSize = in->maxSize;
}

cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool,
			      const struct cudaMemPoolProps *poolProps)
{
	CUmemPoolProps props;
	CUresult r = rt_enter();

	if (r != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	if (!poolProps)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	props_from_rt(poolProps, &props);
	return cuemu_rt_result(cuMemPoolCreate((CUmemoryPool *)memPool, &props));
}

cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool)
{
	CUresult r = rt_enter();

	if (r == CUDA_SUCCESS)
		r = cuMemPoolDestroy((CUmemoryPool)memPool);
	return cuemu_rt_result(r);
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool,
				    enum cudaMemPoolAttr attr, void *value)
{
	CUresult r = rt_enter();

	if (r == CUDA_SUCCESS)
		r = cuMemPoolGetAttribute((CUmemoryPool)memPool,
					  (CUmemPool_attribute)attr, value);
	return cuemu_rt_result(r);
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool,
				    enum cudaMemPoolAttr attr, void *value)
{
	CUresult r = rt_enter();

	if (r == CUDA_SUCCESS)
		r = cuMemPoolSetAttribute((CUmemoryPool)memPool,
					  (CUmemPool_attribute)attr, value);
	return cuemu_rt_result(r);
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep)
{
	CUresult r = rt_enter();

	if (r == CUDA_SUCCESS)
		r = cuMemPoolTrimTo((CUmemoryPool)memPool, minBytesToKeep);
	return cuemu_rt_result(r);
}

/* ---------------------------------------------------------------- access */

cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool,
				 const struct cudaMemAccessDesc *descList,
				 size_t count)
{
	CUmemAccessDesc one[8], *d = one;
	CUresult r = rt_enter();

	if (r != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	if (count && !descList)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if (count > 8 && !(d = calloc(count, sizeof *d)))
		return cuemu_rt_fail(cudaErrorMemoryAllocation);
	for (size_t i = 0; i < count; i++) {
		d[i].location.type = (CUmemLocationType)descList[i].location.type;
		d[i].location.id = descList[i].location.id;
		d[i].flags = (CUmemAccess_flags)descList[i].flags;
	}
	/* No list at all is the driver's INVALID_VALUE, even for count 0
	 * (probes/results/pool.txt, pool.setaccess.count0_null). */
	r = cuMemPoolSetAccess((CUmemoryPool)memPool, descList ? d : NULL,
			       count);
	if (d != one)
		free(d);
	return cuemu_rt_result(r);
}

cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags,
				 cudaMemPool_t memPool,
				 struct cudaMemLocation *location)
{
	CUmemAccess_flags f = CU_MEM_ACCESS_FLAGS_PROT_NONE;
	CUmemLocation loc = { 0 };
	CUresult r = rt_enter();

	if (r != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	if (!flags || !location)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	loc.type = (CUmemLocationType)location->type;
	loc.id = location->id;
	r = cuMemPoolGetAccess(&f, (CUmemoryPool)memPool, &loc);
	if (r == CUDA_SUCCESS)
		*flags = (enum cudaMemAccessFlags)f;
	return cuemu_rt_result(r);
}

/* ---------------------------------------------------------------- IPC */

cudaError_t cudaMemPoolExportToShareableHandle(void *shareableHandle,
					       cudaMemPool_t memPool,
					       enum cudaMemAllocationHandleType handleType,
					       unsigned int flags)
{
	CUresult r = rt_enter();

	if (r == CUDA_SUCCESS)
		r = cuMemPoolExportToShareableHandle(shareableHandle,
			(CUmemoryPool)memPool,
			(CUmemAllocationHandleType)handleType, flags);
	return cuemu_rt_result(r);
}

cudaError_t cudaMemPoolImportFromShareableHandle(cudaMemPool_t *memPool,
						 void *shareableHandle,
						 enum cudaMemAllocationHandleType handleType,
						 unsigned int flags)
{
	CUresult r = rt_enter();

	if (r == CUDA_SUCCESS)
		r = cuMemPoolImportFromShareableHandle((CUmemoryPool *)memPool,
			shareableHandle, (CUmemAllocationHandleType)handleType,
			flags);
	return cuemu_rt_result(r);
}

cudaError_t cudaMemPoolExportPointer(struct cudaMemPoolPtrExportData *exportData,
				     void *ptr)
{
	CUresult r = rt_enter();

	if (r == CUDA_SUCCESS)
		r = cuMemPoolExportPointer((CUmemPoolPtrExportData *)exportData,
					   (CUdeviceptr)(uintptr_t)ptr);
	return cuemu_rt_result(r);
}

cudaError_t cudaMemPoolImportPointer(void **ptr, cudaMemPool_t memPool,
				     struct cudaMemPoolPtrExportData *exportData)
{
	CUdeviceptr d = 0;
	CUresult r = rt_enter();

	if (r != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	if (!ptr)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	r = cuMemPoolImportPointer(&d, (CUmemoryPool)memPool,
				   (CUmemPoolPtrExportData *)exportData);
	if (r == CUDA_SUCCESS)
		*ptr = (void *)(uintptr_t)d;
	return cuemu_rt_result(r);
}

/* ---------------------------------------------------------------- device pools */

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device)
{
	CUresult r = rt_enter();

	if (r == CUDA_SUCCESS)
		r = cuDeviceGetDefaultMemPool((CUmemoryPool *)memPool, device);
	return cuemu_rt_result(r);
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device)
{
	CUresult r = rt_enter();

	if (r == CUDA_SUCCESS)
		r = cuDeviceGetMemPool((CUmemoryPool *)memPool, device);
	return cuemu_rt_result(r);
}

cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool)
{
	CUresult r = rt_enter();

	if (r == CUDA_SUCCESS)
		r = cuDeviceSetMemPool(device, (CUmemoryPool)memPool);
	return cuemu_rt_result(r);
}

/* ---------------------------------------------------------------- a location's pools */

/* cudaMemLocation and cudaMemAllocationType have the driver's layout and
 * values (cudart/batch.c checks the location's size). */
cudaError_t cudaMemGetDefaultMemPool(cudaMemPool_t *memPool,
				     struct cudaMemLocation *location,
				     enum cudaMemAllocationType type)
{
	CUresult r = rt_enter();

	if (r == CUDA_SUCCESS)
		r = cuMemGetDefaultMemPool((CUmemoryPool *)memPool,
					   (CUmemLocation *)location,
					   (CUmemAllocationType)type);
	return cuemu_rt_result(r);
}

cudaError_t cudaMemGetMemPool(cudaMemPool_t *memPool,
			      struct cudaMemLocation *location,
			      enum cudaMemAllocationType type)
{
	CUresult r = rt_enter();

	if (r == CUDA_SUCCESS)
		r = cuMemGetMemPool((CUmemoryPool *)memPool,
				    (CUmemLocation *)location,
				    (CUmemAllocationType)type);
	return cuemu_rt_result(r);
}

cudaError_t cudaMemSetMemPool(struct cudaMemLocation *location,
			      enum cudaMemAllocationType type,
			      cudaMemPool_t memPool)
{
	CUresult r = rt_enter();

	if (r == CUDA_SUCCESS)
		r = cuMemSetMemPool((CUmemLocation *)location,
				    (CUmemAllocationType)type,
				    (CUmemoryPool)memPool);
	return cuemu_rt_result(r);
}
