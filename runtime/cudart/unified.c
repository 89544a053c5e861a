/*
 * unified.c - the runtime API's managed memory and unified addressing calls:
 * cudaMallocManaged, cudaMemAdvise, cudaMemPrefetchAsync, the range
 * attributes and cudaPointerGetAttributes, each on the driver entry point
 * that does the same (cuMemAllocManaged, cuMemAdvise_v2,
 * cuMemPrefetchAsync_v2, cuMemRangeGetAttribute(s), cuPointerGetAttributes).
 *
 * The runtime initializes itself first (cuemu_rt_current), so every call
 * has a current context; its codes are the driver's (cuemu_rt_result).
 *
 * Locking: none of its own; the driver entries take what they need.
 */
#define CUEMU_PER_THREAD_ENTRY_POINTS 1
#include "cudart/cudart.h"

#include <stdint.h>
#include <string.h>

/* The runtime's location has the driver's layout and values. */
static CUmemLocation rt_loc(struct cudaMemLocation l)
{
	return (CUmemLocation){ (CUmemLocationType)l.type, l.id };
}

cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
	CUdeviceptr d = 0;
	CUresult r = cuemu_rt_current(NULL, NULL);

	if (r != CUDA_SUCCESS)
		return cuemu_rt_result(r);
	if (!devPtr)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	r = cuMemAllocManaged(&d, size, flags);
	if (r == CUDA_SUCCESS)
		*devPtr = (void *)(uintptr_t)d;
	return cuemu_rt_result(r);
}

cudaError_t cudaMemAdvise(const void *devPtr, size_t count,
			  enum cudaMemoryAdvise advice,
			  struct cudaMemLocation location)
{
	CUresult r = cuemu_rt_current(NULL, NULL);

	if (r == CUDA_SUCCESS)
		r = cuMemAdvise_v2((CUdeviceptr)(uintptr_t)devPtr, count,
				   (CUmem_advise)advice, rt_loc(location));
	return cuemu_rt_result(r);
}

#undef cudaMemPrefetchAsync
cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
				 struct cudaMemLocation location,
				 unsigned int flags, cudaStream_t stream)
{
	CUresult r = cuemu_rt_current(NULL, NULL);

	if (r == CUDA_SUCCESS)
		r = cuMemPrefetchAsync_v2((CUdeviceptr)(uintptr_t)devPtr, count,
					  rt_loc(location), flags,
					  (CUstream)stream);
	return cuemu_rt_result(r);
}

/* The per-thread-default-stream form: a null stream means the thread's. */
cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count,
				      struct cudaMemLocation location,
				      unsigned int flags, cudaStream_t stream);
cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count,
				      struct cudaMemLocation location,
				      unsigned int flags, cudaStream_t stream)
{
	CUresult r = cuemu_rt_current(NULL, NULL);

	if (r == CUDA_SUCCESS)
		r = cuMemPrefetchAsync_v2_ptsz((CUdeviceptr)(uintptr_t)devPtr,
					       count, rt_loc(location), flags,
					       (CUstream)stream);
	return cuemu_rt_result(r);
}

cudaError_t cudaMemRangeGetAttribute(void *data, size_t dataSize,
				     enum cudaMemRangeAttribute attribute,
				     const void *devPtr, size_t count)
{
	CUresult r = cuemu_rt_current(NULL, NULL);

	if (r == CUDA_SUCCESS)
		r = cuMemRangeGetAttribute(data, dataSize,
					   (CUmem_range_attribute)attribute,
					   (CUdeviceptr)(uintptr_t)devPtr,
					   count);
	return cuemu_rt_result(r);
}

cudaError_t cudaMemRangeGetAttributes(void **data, size_t *dataSizes,
				      enum cudaMemRangeAttribute *attributes,
				      size_t numAttributes, const void *devPtr,
				      size_t count)
{
	CUresult r = cuemu_rt_current(NULL, NULL);

	/* The two enums have the same values and size. */
	if (r == CUDA_SUCCESS)
		r = cuMemRangeGetAttributes(data, dataSizes,
					    (CUmem_range_attribute *)attributes,
					    numAttributes,
					    (CUdeviceptr)(uintptr_t)devPtr,
					    count);
	return cuemu_rt_result(r);
}

/* What cudaPointerGetAttributes needs, asked of the driver in one call
 * (one look at the address map). A pointer the driver does not know
 * answers memory type 0: every known pointer is host or device memory. */
struct ptr_answer {
	unsigned int type;
	unsigned int managed;
	int device;
	CUdeviceptr dptr;
};

static CUresult ask_driver(CUdeviceptr p, struct ptr_answer *a)
{
	CUpointer_attribute attrs[] = {
		CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
		CU_POINTER_ATTRIBUTE_IS_MANAGED,
		CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
		CU_POINTER_ATTRIBUTE_DEVICE_POINTER,
	};
	void *data[] = { &a->type, &a->managed, &a->device, &a->dptr };

	memset(a, 0, sizeof *a);
	return cuPointerGetAttributes(sizeof attrs / sizeof *attrs, attrs,
				      data, p);
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes,
				     const void *ptr)
{
	uintptr_t p = (uintptr_t)ptr;
	struct ptr_answer a;
	CUresult r;

	if ((r = cuemu_rt_current(NULL, NULL)))
		return cuemu_rt_result(r);
	if (!attributes)
		return cuemu_rt_fail(cudaErrorInvalidValue);
	if ((r = ask_driver(p, &a)))
		return cuemu_rt_result(r);
	memset(attributes, 0, sizeof *attributes);
	attributes->type = cudaMemoryTypeUnregistered;
	attributes->device = CU_DEVICE_INVALID;
	/* Unregistered memory: the runtime hands the pointer back as the
	 * host's, unchecked, as cuPointerGetAttributes does. */
	attributes->hostPointer = (void *)p;
	if (a.type == 0)
		return cudaSuccess;
	attributes->hostPointer = NULL;
	attributes->device = a.device;
	/* The driver answers 0 where the current device cannot reach it. */
	attributes->devicePointer = (void *)(uintptr_t)a.dptr;
	if (a.managed) {
		attributes->type = cudaMemoryTypeManaged;
		attributes->hostPointer = (void *)p;
	} else if (a.type == CU_MEMORYTYPE_DEVICE) {
		attributes->type = cudaMemoryTypeDevice;
	} else {
		attributes->type = cudaMemoryTypeHost;
		attributes->hostPointer = (void *)p;
	}
	return cudaSuccess;
}
