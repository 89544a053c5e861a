/*
 * batch.c - the runtime's batches: cudaMemPrefetchBatchAsync,
 * cudaMemDiscardBatchAsync, cudaMemDiscardAndPrefetchBatchAsync and
 * cudaMemcpyBatchAsync (and the _ptsz exports a per-thread build calls),
 * each on its driver entry, whose checks and results are the driver's. The
 * runtime's locations and copy attributes have the driver's layout.
 *
 * Locking: none here.
 */
#define CUEMU_PER_THREAD_ENTRY_POINTS 1
#include "cudart/cudart.h"

#include <stdint.h>

/* The runtime's structures have the driver's layout and values. */
_Static_assert(sizeof(struct cudaMemLocation) == sizeof(CUmemLocation),
	       "cudaMemLocation is CUmemLocation");
_Static_assert(sizeof(struct cudaMemcpyAttributes) ==
	       sizeof(CUmemcpyAttributes),
	       "cudaMemcpyAttributes is CUmemcpyAttributes");

cudaError_t cudaMemPrefetchBatchAsync(void **dptrs, size_t *sizes,
				      size_t count,
				      struct cudaMemLocation *prefetchLocs,
				      size_t *prefetchLocIdxs,
				      size_t numPrefetchLocs,
				      unsigned long long flags,
				      cudaStream_t stream)
{
	RT_BEGIN();
	return cuemu_rt_result(cuMemPrefetchBatchAsync(
		(CUdeviceptr *)dptrs, sizes, count,
		(CUmemLocation *)prefetchLocs, prefetchLocIdxs,
		numPrefetchLocs, flags, (CUstream)stream));
}

cudaError_t cudaMemDiscardBatchAsync(void **dptrs, size_t *sizes,
				     size_t count, unsigned long long flags,
				     cudaStream_t stream)
{
	RT_BEGIN();
	return cuemu_rt_result(cuMemDiscardBatchAsync((CUdeviceptr *)dptrs,
						      sizes, count, flags,
						      (CUstream)stream));
}

cudaError_t cudaMemDiscardAndPrefetchBatchAsync(
	void **dptrs, size_t *sizes, size_t count,
	struct cudaMemLocation *prefetchLocs, size_t *prefetchLocIdxs,
	size_t numPrefetchLocs, unsigned long long flags, cudaStream_t stream)
{
	RT_BEGIN();
	return cuemu_rt_result(cuMemDiscardAndPrefetchBatchAsync(
		(CUdeviceptr *)dptrs, sizes, count,
		(CUmemLocation *)prefetchLocs, prefetchLocIdxs,
		numPrefetchLocs, flags, (CUstream)stream));
}

cudaError_t cudaMemcpyBatchAsync(void *const *dsts, const void *const *srcs,
				 const size_t *sizes, size_t count,
				 struct cudaMemcpyAttributes *attrs,
				 size_t *attrsIdxs, size_t numAttrs,
				 cudaStream_t stream)
{
	RT_BEGIN();
	return cuemu_rt_result(cuMemcpyBatchAsync_v2(
		(CUdeviceptr *)dsts, (CUdeviceptr *)srcs, (size_t *)sizes,
		count, (CUmemcpyAttributes *)attrs, attrsIdxs, numAttrs,
		(CUstream)stream));
}

/* ---- the per-thread forms: on the driver's _ptsz exports */

cudaError_t cudaMemPrefetchBatchAsync_ptsz(void **dptrs, size_t *sizes,
	size_t count, struct cudaMemLocation *locs, size_t *idxs,
	size_t nlocs, unsigned long long flags, cudaStream_t stream);
cudaError_t cudaMemPrefetchBatchAsync_ptsz(void **dptrs, size_t *sizes,
	size_t count, struct cudaMemLocation *locs, size_t *idxs,
	size_t nlocs, unsigned long long flags, cudaStream_t stream)
{
	RT_BEGIN();
	return cuemu_rt_result(cuMemPrefetchBatchAsync_ptsz(
		(CUdeviceptr *)dptrs, sizes, count, (CUmemLocation *)locs,
		idxs, nlocs, flags, (CUstream)stream));
}

cudaError_t cudaMemDiscardBatchAsync_ptsz(void **dptrs, size_t *sizes,
	size_t count, unsigned long long flags, cudaStream_t stream);
cudaError_t cudaMemDiscardBatchAsync_ptsz(void **dptrs, size_t *sizes,
	size_t count, unsigned long long flags, cudaStream_t stream)
{
	RT_BEGIN();
	return cuemu_rt_result(cuMemDiscardBatchAsync_ptsz(
		(CUdeviceptr *)dptrs, sizes, count, flags, (CUstream)stream));
}

cudaError_t cudaMemDiscardAndPrefetchBatchAsync_ptsz(void **dptrs,
	size_t *sizes, size_t count, struct cudaMemLocation *locs,
	size_t *idxs, size_t nlocs, unsigned long long flags,
	cudaStream_t stream);
cudaError_t cudaMemDiscardAndPrefetchBatchAsync_ptsz(void **dptrs,
	size_t *sizes, size_t count, struct cudaMemLocation *locs,
	size_t *idxs, size_t nlocs, unsigned long long flags,
	cudaStream_t stream)
{
	RT_BEGIN();
	return cuemu_rt_result(cuMemDiscardAndPrefetchBatchAsync_ptsz(
		(CUdeviceptr *)dptrs, sizes, count, (CUmemLocation *)locs,
		idxs, nlocs, flags, (CUstream)stream));
}

cudaError_t cudaMemcpyBatchAsync_ptsz(void *const *dsts,
	const void *const *srcs, const size_t *sizes, size_t count,
	struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
	size_t numAttrs, cudaStream_t stream);
cudaError_t cudaMemcpyBatchAsync_ptsz(void *const *dsts,
	const void *const *srcs, const size_t *sizes, size_t count,
	struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
	size_t numAttrs, cudaStream_t stream)
{
	RT_BEGIN();
	return cuemu_rt_result(cuMemcpyBatchAsync_v2_ptsz(
		(CUdeviceptr *)dsts, (CUdeviceptr *)srcs, (size_t *)sizes,
		count, (CUmemcpyAttributes *)attrs, attrsIdxs, numAttrs,
		(CUstream)stream));
}
