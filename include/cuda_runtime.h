/*
 * cuda_runtime.h - the libcuemu runtime API as a program includes it: the
 * declarations of cuda_runtime_api.h over builtin_types.h and
 * library_types.h, in the toolkit's order, plus, for C++, the typed
 * overloads that the toolkit's cuda_runtime.h gives host code
 * (cudaMalloc(&typed_ptr, n) and the like), so code written against the
 * toolkit's header builds unchanged. Valid C11 as well as C++.
 */
#if !defined(__CUDA_RUNTIME_H__)
#define __CUDA_RUNTIME_H__

#include "host_defines.h"
#include "builtin_types.h"
#include "library_types.h"
#include "cuda_runtime_api.h"

#if defined(__cplusplus)

/* The runtime's C++ conveniences: each is a thin cast over the C entry
 * point it names, and returns what that returns. */

static __inline__ __host__ cudaError_t cudaEventCreate(cudaEvent_t *event,
						       unsigned int flags)
{
	return ::cudaEventCreateWithFlags(event, flags);
}

static __inline__ __host__ cudaError_t cudaMallocHost(void **ptr, size_t size,
						      unsigned int flags)
{
	return ::cudaHostAlloc(ptr, size, flags);
}

template <class T>
static __inline__ __host__ cudaError_t cudaHostAlloc(T **ptr, size_t size,
						     unsigned int flags)
{
	return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}

template <class T>
static __inline__ __host__ cudaError_t cudaHostGetDevicePointer(T **pDevice,
	void *pHost, unsigned int flags)
{
	return ::cudaHostGetDevicePointer((void **)(void *)pDevice, pHost,
					  flags);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMallocManaged(T **devPtr,
	size_t size, unsigned int flags = cudaMemAttachGlobal)
{
	return ::cudaMallocManaged((void **)(void *)devPtr, size, flags);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMalloc(T **devPtr, size_t size)
{
	return ::cudaMalloc((void **)(void *)devPtr, size);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMallocHost(T **ptr, size_t size,
	unsigned int flags = 0)
{
	return ::cudaMallocHost((void **)(void *)ptr, size, flags);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMallocPitch(T **devPtr,
	size_t *pitch, size_t width, size_t height)
{
	return ::cudaMallocPitch((void **)(void *)devPtr, pitch, width, height);
}

/* A stream-ordered allocation from a given pool. */
static __inline__ __host__ cudaError_t cudaMallocAsync(void **ptr,
	size_t size, cudaMemPool_t memPool, cudaStream_t stream)
{
	return ::cudaMallocFromPoolAsync(ptr, size, memPool, stream);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMallocAsync(T **ptr, size_t size,
	cudaMemPool_t memPool, cudaStream_t stream)
{
	return ::cudaMallocFromPoolAsync((void **)(void *)ptr, size, memPool,
					 stream);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMallocAsync(T **ptr, size_t size,
	cudaStream_t stream)
{
	return ::cudaMallocAsync((void **)(void *)ptr, size, stream);
}

template <class T>
static __inline__ __host__ cudaError_t cudaMallocFromPoolAsync(T **ptr,
	size_t size, cudaMemPool_t memPool, cudaStream_t stream)
{
	return ::cudaMallocFromPoolAsync((void **)(void *)ptr, size, memPool,
					 stream);
}

#endif /* __cplusplus */

#endif /* !__CUDA_RUNTIME_H__ */
