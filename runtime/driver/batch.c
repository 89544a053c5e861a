/*
 * batch.c - the batches of the driver API (CUDA 12.8 and 13):
 * cuMemPrefetchBatchAsync, cuMemDiscardBatchAsync,
 * cuMemDiscardAndPrefetchBatchAsync, cuMemcpyBatchAsync (the 12.8 form
 * with a failure index, and the CUDA 13 _v2), cuMemBatchDecompressAsync,
 * and their _ptsz exports.
 *
 * The real driver (probes/results/batch.txt, families.txt) answers
 * INVALID_VALUE to every refused batch, so the order of its checks shows
 * only in what a refused batch leaves done: the whole-batch checks (count,
 * arrays, flags, stream, the location or attribute index rules, every
 * location or attribute) come first and leave nothing done; then each
 * operation is checked and enqueued in turn, and one that is refused ends
 * the batch with those before it enqueued (a copy batch's first copy
 * lands though its second is refused). The failure index of the 12.8 copy
 * batch is that operation's, or SIZE_MAX for a whole-batch error.
 *
 * Location indices: prefetchLocs[0] applies from operation 0; location k
 * takes over at operation prefetchLocIdxs[k] when the walk reaches it. The
 * first index must be 0, none may reach count and there may not be more
 * locations than operations; the prefetch batches accept indices out of
 * order (an index behind the walk is never reached), the copy batch wants
 * them increasing.
 *
 * Locking: none here; the model calls (mg_prefetch, mg_discard, cuemu_copy)
 * take cuemu_lock() themselves.
 */
#define CUEMU_PER_THREAD_ENTRY_POINTS 1
#include "driver/driver.h"
#include "model/copy.h"
#include "model/managed.h"

#include <stdint.h>
#include <stdlib.h>

static CUresult bad(const char *why)
{
	return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s", why);
}

/* A batch runs on a created stream or the per-thread one: the null stream
 * and the legacy one are refused. */
static CUresult batch_stream(CUstream h, CUstream *s)
{
	if (!h || h == CU_STREAM_LEGACY)
		return bad("a batch does not run on the legacy stream");
	return cuemu_stream_get(h, s);
}

/* The index rules of a batch of count operations with n locations (or
 * attributes) starting at idxs; increasing: each index past the last. */
static CUresult check_idxs(const size_t *idxs, size_t n, size_t count,
			   bool increasing)
{
	if (!n)
		return bad("no location or attribute for the batch");
	if (n > count)
		return bad("more locations or attributes than operations");
	if (idxs[0] != 0)
		return bad("the first location or attribute index is not 0");
	for (size_t k = 1; k < n; k++) {
		if (idxs[k] >= count)
			return bad("an index is past the last operation");
		if (increasing && idxs[k] <= idxs[k - 1])
			return bad("the attribute indices do not increase");
	}
	return CUDA_SUCCESS;
}

/* ------------------------------------------------------------ prefetch */

struct target {
	CUmemLocation loc;
	int dst, node;
};

/* Every location of a prefetch batch, resolved; INVALID_VALUE for a
 * device the machine lacks, as for what is no place. */
static CUresult resolve_locs(const CUmemLocation *locs, size_t n,
			     struct target *t)
{
	for (size_t k = 0; k < n; k++) {
		t[k].loc = locs[k];
		if (cuemu_prefetch_target(&t[k].loc, &t[k].dst, &t[k].node) !=
		    CUDA_SUCCESS)
			return bad("a prefetch location is not a place");
	}
	return CUDA_SUCCESS;
}

/* The checks of the two prefetching batches, before any operation. */
static CUresult prefetch_checks(CUdeviceptr *dptrs, size_t *sizes,
				size_t count, CUmemLocation *locs,
				size_t *idxs, size_t nlocs,
				unsigned long long flags)
{
	if (!count)
		return bad("count is 0");
	if (!dptrs || !sizes || !locs || !idxs)
		return bad("NULL array");
	if (flags)
		return bad("flags must be 0");
	return check_idxs(idxs, nlocs, count, false);
}

/* Runs a prefetch batch, each operation discarded first when discard. */
static CUresult prefetch_batch(CUdeviceptr *dptrs, size_t *sizes, size_t count,
			       CUmemLocation *locs, size_t *idxs, size_t nlocs,
			       unsigned long long flags, CUstream h,
			       bool discard)
{
	CUresult r = cuemu_current(NULL, NULL);
	size_t cur = 0, next = 1;
	struct target *t;
	CUstream s;

	if (r != CUDA_SUCCESS)
		return r;
	if ((r = prefetch_checks(dptrs, sizes, count, locs, idxs, nlocs,
				 flags)) != CUDA_SUCCESS)
		return r;
	if ((r = batch_stream(h, &s)) != CUDA_SUCCESS)
		return r;
	if (!(t = calloc(nlocs, sizeof *t)))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "out of host memory");
	r = resolve_locs(locs, nlocs, t);
	for (size_t i = 0; r == CUDA_SUCCESS && i < count; i++) {
		if (i && next < nlocs && idxs[next] == i)
			cur = next++;
		if (discard)
			r = mg_discard(s, dptrs[i], sizes[i]);
		if (r == CUDA_SUCCESS)
			r = mg_prefetch(s, dptrs[i], sizes[i], t[cur].loc,
					t[cur].dst, t[cur].node);
	}
	free(t);
	return r;
}

CUresult cuMemPrefetchBatchAsync(CUdeviceptr *dptrs, size_t *sizes,
				 size_t count, CUmemLocation *prefetchLocs,
				 size_t *prefetchLocIdxs, size_t numPrefetchLocs,
				 unsigned long long flags, CUstream hStream)
{
	return prefetch_batch(dptrs, sizes, count, prefetchLocs,
			      prefetchLocIdxs, numPrefetchLocs, flags, hStream,
			      false);
}

CUresult cuMemDiscardAndPrefetchBatchAsync(CUdeviceptr *dptrs, size_t *sizes,
					   size_t count,
					   CUmemLocation *prefetchLocs,
					   size_t *prefetchLocIdxs,
					   size_t numPrefetchLocs,
					   unsigned long long flags,
					   CUstream hStream)
{
	return prefetch_batch(dptrs, sizes, count, prefetchLocs,
			      prefetchLocIdxs, numPrefetchLocs, flags, hStream,
			      true);
}

CUresult cuMemDiscardBatchAsync(CUdeviceptr *dptrs, size_t *sizes,
				size_t count, unsigned long long flags,
				CUstream hStream)
{
	CUresult r = cuemu_current(NULL, NULL);
	CUstream s;

	if (r != CUDA_SUCCESS)
		return r;
	if (!count)
		return bad("count is 0");
	if (!dptrs || !sizes)
		return bad("NULL array");
	if (flags)
		return bad("flags must be 0");
	if ((r = batch_stream(hStream, &s)) != CUDA_SUCCESS)
		return r;
	for (size_t i = 0; r == CUDA_SUCCESS && i < count; i++)
		r = mg_discard(s, dptrs[i], sizes[i]);
	return r;
}

/* ------------------------------------------------------------ copies */

/* A hint names a place or nothing (INVALID); a device must exist. */
static bool hint_ok(CUmemLocation l)
{
	switch (l.type) {
	case CU_MEM_LOCATION_TYPE_INVALID:
	case CU_MEM_LOCATION_TYPE_HOST:
	case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT:
		return true;
	case CU_MEM_LOCATION_TYPE_HOST_NUMA:
		return cuemu_numa_valid(l.id);
	case CU_MEM_LOCATION_TYPE_DEVICE:
		return l.id >= 0 && l.id < cuemu_device_count();
	default:
		return false;
	}
}

static CUresult check_attrs(const CUmemcpyAttributes *a, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		if (a[k].srcAccessOrder < CU_MEMCPY_SRC_ACCESS_ORDER_STREAM ||
		    a[k].srcAccessOrder > CU_MEMCPY_SRC_ACCESS_ORDER_ANY)
			return bad("a source access order is not one of STREAM, "
				   "DURING_API_CALL, ANY");
		if (a[k].flags & ~(unsigned)CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE)
			return bad("unknown copy attribute flags");
		if (!hint_ok(a[k].srcLocHint) || !hint_ok(a[k].dstLocHint))
			return bad("a location hint is not a place");
	}
	return CUDA_SUCCESS;
}

/* Both copy batches; *fail: the refused copy, or SIZE_MAX. Copies are
 * ordered on the stream; one whose attribute says its source is read
 * during the call (DURING_API_CALL) is made before the call returns, so
 * that the caller may change the source at once. ANY is read in stream
 * order, which is one of the orders it allows. */
static CUresult copy_batch(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes,
			   size_t count, CUmemcpyAttributes *attrs,
			   size_t *idxs, size_t nattrs, CUstream h,
			   size_t *fail)
{
	CUresult r = cuemu_current(NULL, NULL);
	CUstream s;

	*fail = SIZE_MAX;
	if (r != CUDA_SUCCESS)
		return r;
	if (!count)
		return bad("count is 0");
	if (!dsts || !srcs || !sizes || !attrs || !idxs)
		return bad("NULL array");
	if ((r = batch_stream(h, &s)) != CUDA_SUCCESS)
		return r;
	if ((r = check_idxs(idxs, nattrs, count, true)) != CUDA_SUCCESS ||
	    (r = check_attrs(attrs, nattrs)) != CUDA_SUCCESS)
		return r;
	for (size_t i = 0, cur = 0; i < count; i++) {
		if (cur + 1 < nattrs && idxs[cur + 1] == i)
			cur++;
		if (!sizes[i])
			r = bad("a copy of 0 bytes");
		else
			r = cuemu_copy(s, dsts[i], srcs[i], sizes[i], false,
				       false, attrs[cur].srcAccessOrder ==
				       CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL);
		if (r != CUDA_SUCCESS) {
			*fail = i;
			return r;
		}
	}
	return CUDA_SUCCESS;
}

CUresult cuMemcpyBatchAsync_v2(CUdeviceptr *dsts, CUdeviceptr *srcs,
			       size_t *sizes, size_t count,
			       CUmemcpyAttributes *attrs, size_t *attrsIdxs,
			       size_t numAttrs, CUstream hStream)
{
	size_t fail;

	return copy_batch(dsts, srcs, sizes, count, attrs, attrsIdxs,
			  numAttrs, hStream, &fail);
}

/* The 12.8 form: failIdx is written in every case, SIZE_MAX when no one
 * copy is to blame (success included). The real driver faults on a NULL
 * failIdx; here it only goes unwritten. */
#undef cuMemcpyBatchAsync
CUresult cuMemcpyBatchAsync(CUdeviceptr *dsts, CUdeviceptr *srcs,
			    size_t *sizes, size_t count,
			    CUmemcpyAttributes *attrs, size_t *attrsIdxs,
			    size_t numAttrs, size_t *failIdx, CUstream hStream);
CUresult cuMemcpyBatchAsync(CUdeviceptr *dsts, CUdeviceptr *srcs,
			    size_t *sizes, size_t count,
			    CUmemcpyAttributes *attrs, size_t *attrsIdxs,
			    size_t numAttrs, size_t *failIdx, CUstream hStream)
{
	size_t fail;
	CUresult r = copy_batch(dsts, srcs, sizes, count, attrs, attrsIdxs,
				numAttrs, hStream, &fail);

	if (failIdx)
		*failIdx = fail;
	return r;
}

/* ------------------------------------------------------------ decompress */

/* The emulated H200, as the real one, has no decompression engine
 * (CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_ALGORITHM_MASK 0): the real driver
 * answers NOT_SUPPORTED to every batch, whatever its arguments, and
 * writes no error index. */
CUresult cuMemBatchDecompressAsync(CUmemDecompressParams *paramsArray,
				   size_t count, unsigned int flags,
				   size_t *errorIndex, CUstream stream)
{
	CUresult r = cuemu_current(NULL, NULL);

	(void)paramsArray;
	(void)count;
	(void)flags;
	(void)errorIndex;
	(void)stream;
	if (r != CUDA_SUCCESS)
		return r;
	return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED,
			  "no device has a decompression engine");
}

/* ------------------------------------------------------------ _ptsz */

/* The prefetch and discard batches take a null stream as the thread's
 * own (cuemu_ptsz); the copy batches do not (the real _ptsz copy batch
 * refuses it). */

CUresult cuMemPrefetchBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes,
				      size_t count, CUmemLocation *locs,
				      size_t *idxs, size_t nlocs,
				      unsigned long long flags, CUstream h)
{
	return cuMemPrefetchBatchAsync(dptrs, sizes, count, locs, idxs, nlocs,
				       flags, cuemu_ptsz(h));
}

CUresult cuMemDiscardBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes,
				     size_t count, unsigned long long flags,
				     CUstream h)
{
	return cuMemDiscardBatchAsync(dptrs, sizes, count, flags, cuemu_ptsz(h));
}

CUresult cuMemDiscardAndPrefetchBatchAsync_ptsz(CUdeviceptr *dptrs,
						size_t *sizes, size_t count,
						CUmemLocation *locs,
						size_t *idxs, size_t nlocs,
						unsigned long long flags,
						CUstream h)
{
	return cuMemDiscardAndPrefetchBatchAsync(dptrs, sizes, count, locs,
						 idxs, nlocs, flags, cuemu_ptsz(h));
}

CUresult cuMemcpyBatchAsync_v2_ptsz(CUdeviceptr *dsts, CUdeviceptr *srcs,
				    size_t *sizes, size_t count,
				    CUmemcpyAttributes *attrs,
				    size_t *attrsIdxs, size_t numAttrs,
				    CUstream h)
{
	return cuMemcpyBatchAsync_v2(dsts, srcs, sizes, count, attrs,
				     attrsIdxs, numAttrs, h);
}

CUresult cuMemcpyBatchAsync_ptsz(CUdeviceptr *dsts, CUdeviceptr *srcs,
				 size_t *sizes, size_t count,
				 CUmemcpyAttributes *attrs, size_t *attrsIdxs,
				 size_t numAttrs, size_t *failIdx, CUstream h)
{
	return cuMemcpyBatchAsync(dsts, srcs, sizes, count, attrs, attrsIdxs,
				  numAttrs, failIdx, h);
}

CUresult cuMemBatchDecompressAsync_ptsz(CUmemDecompressParams *paramsArray,
					size_t count, unsigned int flags,
					size_t *errorIndex, CUstream stream)
{
	return cuMemBatchDecompressAsync(paramsArray, count, flags, errorIndex,
					 cuemu_ptsz(stream));
}
