/*
 * copy.c - the Memory Management module's copies and memsets: cuMemcpy,
 * cuMemcpyHtoD/DtoH/DtoD/Peer and their Async forms, cuMemsetD8/D16/D32
 * and their Async forms.
 *
 * Each entry says which ends the API names device pointers, checks the
 * context, the stream and the sizes, and hands the copy to the model
 * (model/copy.c), which runs it as an operation of the stream. The
 * synchronous forms run on the legacy stream and wait; their _ptds
 * forms on the calling thread's per-thread stream, and the _ptsz forms of
 * the Async ones take a null stream as that stream.
 *
 * Locking: none taken here; the model resolves the ends under cuemu_lock().
 */
#define CUEMU_PER_THREAD_ENTRY_POINTS 1
#include "model/internal.h"
#include "model/copy.h"
#include "driver/driver.h"
#include "driver/graph.h"

/* An async copy on a capturing stream: a copy node of its graph, a box of
 * one row (an end the API does not call device memory is whatever
 * memory it is, as cuMemcpyAsync's ends). */
static CUresult capture_copy(uintptr_t dst, uintptr_t src, size_t n,
			     bool dst_dev, bool src_dev, CUstream h)
{
	CUDA_MEMCPY3D c = {
		.srcMemoryType = src_dev ? CU_MEMORYTYPE_DEVICE :
					   CU_MEMORYTYPE_UNIFIED,
		.srcDevice = src,
		.dstMemoryType = dst_dev ? CU_MEMORYTYPE_DEVICE :
					   CU_MEMORYTYPE_UNIFIED,
		.dstDevice = dst,
		.WidthInBytes = n, .Height = 1, .Depth = 1,
	};

	return cuemu_capture_copy(h, &c);
}

/* A memset on a capturing stream: a memset node of its graph. */
static CUresult capture_set(uintptr_t dst, uint32_t value, unsigned elem,
			    size_t N, CUstream h)
{
	const CUDA_MEMSET_NODE_PARAMS m = {
		.dst = dst, .value = value, .elementSize = elem,
		.width = N, .height = 1,
	};

	return cuemu_capture_memset(h, &m);
}

/* The common path of every copy. dst_dev/src_dev: the API calls that end a
 * device pointer. */
static CUresult do_copy(uintptr_t dst, uintptr_t src, size_t n, bool dst_dev,
			bool src_dev, CUstream h, bool sync)
{
	CUstream s;
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)))
		return r;
	if ((r = cuemu_stream_get(h, &s)))
		return r;
	if (n == 0)
		return CUDA_SUCCESS;
	if (!sync && cuemu_capturing(h))
		return capture_copy(dst, src, n, dst_dev, src_dev, h);
	return cuemu_copy(s, dst, src, n, dst_dev, src_dev, sync);
}

static CUresult do_set(uintptr_t dst, uint32_t value, unsigned elem, size_t N,
		       CUstream h, bool sync)
{
	size_t bytes;
	CUstream s;
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)))
		return r;
	if ((r = cuemu_stream_get(h, &s)))
		return r;
	if (N == 0)
		return CUDA_SUCCESS;
	if (dst % elem)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%#lx is not aligned to %u bytes",
				  (unsigned long)dst, elem);
	if (__builtin_mul_overflow(N, (size_t)elem, &bytes))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%zu elements overflow", N);
	if (!sync && cuemu_capturing(h))
		return capture_set(dst, value, elem, N, h);
	return cuemu_memset(s, dst, value, elem, bytes, sync);
}

/* ------------------------------------------------------------ driver API */

CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)
{
	return do_copy(dst, src, ByteCount, false, false, NULL, true);
}

CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount,
		       CUstream hStream)
{
	return do_copy(dst, src, ByteCount, false, false, hStream, false);
}

CUresult cuMemcpyHtoD(CUdeviceptr dstDevice, const void *srcHost,
		      size_t ByteCount)
{
	return do_copy(dstDevice, (uintptr_t)srcHost, ByteCount, true, false,
		       NULL, true);
}

CUresult cuMemcpyDtoH(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
{
	return do_copy((uintptr_t)dstHost, srcDevice, ByteCount, false, true,
		       NULL, true);
}

CUresult cuMemcpyDtoD(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
		      size_t ByteCount)
{
	return do_copy(dstDevice, srcDevice, ByteCount, true, true, NULL, true);
}

CUresult cuMemcpyHtoDAsync(CUdeviceptr dstDevice, const void *srcHost,
			   size_t ByteCount, CUstream hStream)
{
	return do_copy(dstDevice, (uintptr_t)srcHost, ByteCount, true, false,
		       hStream, false);
}

CUresult cuMemcpyDtoHAsync(void *dstHost, CUdeviceptr srcDevice,
			   size_t ByteCount, CUstream hStream)
{
	return do_copy((uintptr_t)dstHost, srcDevice, ByteCount, false, true,
		       hStream, false);
}

CUresult cuMemcpyDtoDAsync(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
			   size_t ByteCount, CUstream hStream)
{
	return do_copy(dstDevice, srcDevice, ByteCount, true, true, hStream,
		       false);
}

/* The real driver ignores the contexts of a peer copy under unified
 * addressing: NULL or mismatched ones succeed (probes/results/ctx.txt). */
static CUresult peer_check(CUcontext dstContext, CUcontext srcContext)
{
	(void)dstContext;
	(void)srcContext;
	return cuemu_current(NULL, NULL);
}

CUresult cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext,
		      CUdeviceptr srcDevice, CUcontext srcContext,
		      size_t ByteCount)
{
	CUresult r = peer_check(dstContext, srcContext);

	return r ? r : do_copy(dstDevice, srcDevice, ByteCount, true, true,
			       NULL, true);
}

CUresult cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext,
			   CUdeviceptr srcDevice, CUcontext srcContext,
			   size_t ByteCount, CUstream hStream)
{
	CUresult r = peer_check(dstContext, srcContext);

	return r ? r : do_copy(dstDevice, srcDevice, ByteCount, true, true,
			       hStream, false);
}

CUresult cuMemsetD8(CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
	return do_set(dstDevice, uc, 1, N, NULL, true);
}

CUresult cuMemsetD16(CUdeviceptr dstDevice, unsigned short us, size_t N)
{
	return do_set(dstDevice, us, 2, N, NULL, true);
}

CUresult cuMemsetD32(CUdeviceptr dstDevice, unsigned int ui, size_t N)
{
	return do_set(dstDevice, ui, 4, N, NULL, true);
}

CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N,
			 CUstream hStream)
{
	return do_set(dstDevice, uc, 1, N, hStream, false);
}

CUresult cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N,
			  CUstream hStream)
{
	return do_set(dstDevice, us, 2, N, hStream, false);
}

CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N,
			  CUstream hStream)
{
	return do_set(dstDevice, ui, 4, N, hStream, false);
}

/* ------------------------------------------- per-thread default stream */

CUresult cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)
{
	return do_copy(dst, src, ByteCount, false, false,
		       CU_STREAM_PER_THREAD, true);
}

CUresult cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src,
			    size_t ByteCount, CUstream hStream)
{
	return cuMemcpyAsync(dst, src, ByteCount, cuemu_ptsz(hStream));
}

CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr dstDevice, const void *srcHost,
			      size_t ByteCount)
{
	return do_copy(dstDevice, (uintptr_t)srcHost, ByteCount, true, false,
		       CU_STREAM_PER_THREAD, true);
}

CUresult cuMemcpyDtoH_v2_ptds(void *dstHost, CUdeviceptr srcDevice,
			      size_t ByteCount)
{
	return do_copy((uintptr_t)dstHost, srcDevice, ByteCount, false, true,
		       CU_STREAM_PER_THREAD, true);
}

CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
			      size_t ByteCount)
{
	return do_copy(dstDevice, srcDevice, ByteCount, true, true,
		       CU_STREAM_PER_THREAD, true);
}

CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dstDevice, const void *srcHost,
				   size_t ByteCount, CUstream hStream)
{
	return cuMemcpyHtoDAsync(dstDevice, srcHost, ByteCount,
				 cuemu_ptsz(hStream));
}

CUresult cuMemcpyDtoHAsync_v2_ptsz(void *dstHost, CUdeviceptr srcDevice,
				   size_t ByteCount, CUstream hStream)
{
	return cuMemcpyDtoHAsync(dstHost, srcDevice, ByteCount,
				 cuemu_ptsz(hStream));
}

CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dstDevice,
				   CUdeviceptr srcDevice, size_t ByteCount,
				   CUstream hStream)
{
	return cuMemcpyDtoDAsync(dstDevice, srcDevice, ByteCount,
				 cuemu_ptsz(hStream));
}

CUresult cuMemcpyPeer_ptds(CUdeviceptr dstDevice, CUcontext dstContext,
			   CUdeviceptr srcDevice, CUcontext srcContext,
			   size_t ByteCount)
{
	CUresult r = peer_check(dstContext, srcContext);

	return r ? r : do_copy(dstDevice, srcDevice, ByteCount, true, true,
			       CU_STREAM_PER_THREAD, true);
}

CUresult cuMemcpyPeerAsync_ptsz(CUdeviceptr dstDevice, CUcontext dstContext,
				CUdeviceptr srcDevice, CUcontext srcContext,
				size_t ByteCount, CUstream hStream)
{
	return cuMemcpyPeerAsync(dstDevice, dstContext, srcDevice, srcContext,
				 ByteCount, cuemu_ptsz(hStream));
}

CUresult cuMemsetD8_v2_ptds(CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
	return do_set(dstDevice, uc, 1, N, CU_STREAM_PER_THREAD, true);
}

CUresult cuMemsetD16_v2_ptds(CUdeviceptr dstDevice, unsigned short us,
			     size_t N)
{
	return do_set(dstDevice, us, 2, N, CU_STREAM_PER_THREAD, true);
}

CUresult cuMemsetD32_v2_ptds(CUdeviceptr dstDevice, unsigned int ui, size_t N)
{
	return do_set(dstDevice, ui, 4, N, CU_STREAM_PER_THREAD, true);
}

CUresult cuMemsetD8Async_ptsz(CUdeviceptr dstDevice, unsigned char uc,
			      size_t N, CUstream hStream)
{
	return do_set(dstDevice, uc, 1, N, cuemu_ptsz(hStream), false);
}

CUresult cuMemsetD16Async_ptsz(CUdeviceptr dstDevice, unsigned short us,
			       size_t N, CUstream hStream)
{
	return do_set(dstDevice, us, 2, N, cuemu_ptsz(hStream), false);
}

CUresult cuMemsetD32Async_ptsz(CUdeviceptr dstDevice, unsigned int ui,
			       size_t N, CUstream hStream)
{
	return do_set(dstDevice, ui, 4, N, cuemu_ptsz(hStream), false);
}
