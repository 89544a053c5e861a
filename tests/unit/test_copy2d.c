/*
 * test_copy2d.c - 2D and 3D copies and 2D memsets: the bytes of a box
 * arrive and the bytes between its rows are left alone, in every
 * direction (host, device, managed, another GPU); the checks in the real
 * driver's order (context, a NULL copy, a zero extent that succeeds
 * whatever else the copy says, memory types, pitches, heights, the ends),
 * each refusal changing nothing; the cost of a 2D copy is that of its
 * bytes on their path; the _ptds/_ptsz forms and the 32-bit ones; the
 * runtime's cudaMemcpy2D/3D(Peer), cudaMalloc3D and cudaMemset2D/3D; the
 * batch of 3D copies (cuMemcpy3DBatchAsync, both forms). The facts follow
 * probes/results/shape.txt and batch3d.txt.
 */
#define _GNU_SOURCE
#define CUEMU_PER_THREAD_ENTRY_POINTS 1
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"
#include "cuda_runtime_api.h"
#include "cuemu.h"
#include "tap.h"

#define KIB 1024UL

static CUDA_MEMCPY2D dd(CUdeviceptr dst, size_t dp, CUdeviceptr src,
			size_t sp, size_t w, size_t h)
{
	CUDA_MEMCPY2D c;

	memset(&c, 0, sizeof c);
	c.srcMemoryType = c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	c.srcDevice = src;
	c.srcPitch = sp;
	c.dstDevice = dst;
	c.dstPitch = dp;
	c.WidthInBytes = w;
	c.Height = h;
	return c;
}

static CUDA_MEMCPY2D hd(CUdeviceptr dst, size_t dp, const void *src,
			size_t sp, size_t w, size_t h)
{
	CUDA_MEMCPY2D c = dd(dst, dp, 0, sp, w, h);

	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = src;
	return c;
}

static CUDA_MEMCPY2D dh(void *dst, size_t dp, CUdeviceptr src, size_t sp,
			size_t w, size_t h)
{
	CUDA_MEMCPY2D c = dd(0, dp, src, sp, w, h);

	c.dstMemoryType = CU_MEMORYTYPE_HOST;
	c.dstHost = dst;
	return c;
}

static unsigned char pat(size_t i)
{
	return (unsigned char)(i * 7 + 3);
}

/* Rows of w bytes at pitch dp in got hold src's rows (pitch sp) and the
 * rest of each row is still fill. How many bytes are wrong. */
static int box_wrong(const unsigned char *got, size_t dp, const unsigned char *src,
		     size_t sp, size_t w, size_t h, unsigned char fill)
{
	int bad = 0;

	for (size_t y = 0; y < h; y++)
		for (size_t x = 0; x < dp; x++)
			if (got[y * dp + x] != (x < w ? src[y * sp + x] : fill))
				bad++;
	return bad;
}

static void copies_2d(void)
{
	unsigned char *h = malloc(64 * KIB), *g = malloc(64 * KIB);
	CUdeviceptr a, b;
	size_t pa = 0;
	CUDA_MEMCPY2D c;

	for (size_t i = 0; i < 64 * KIB; i++)
		h[i] = pat(i);
	is_res(cuMemAllocPitch(&a, &pa, 100, 64, 4), CUDA_SUCCESS,
	       "a pitched allocation of 64 rows of 100 bytes");
	is_int(pa, 512, "its pitch is 512");
	cuMemAlloc(&b, 64 * KIB);

	cuMemsetD8(a, 0xee, pa * 64);
	c = hd(a, pa, h, 128, 100, 64);
	is_res(cuMemcpy2D(&c), CUDA_SUCCESS, "cuMemcpy2D host to device");
	cuMemcpyDtoH(g, a, pa * 64);
	is_int(box_wrong(g, pa, h, 128, 100, 64, 0xee), 0,
	       "each row arrives; the padding between rows is untouched");
	memset(g, 0x11, 64 * KIB);
	c = dh(g, 200, a, pa, 100, 64);
	is_res(cuMemcpy2D(&c), CUDA_SUCCESS, "cuMemcpy2D device to host");
	is_int(box_wrong(g, 200, h, 128, 100, 64, 0x11), 0,
	       "back on the host, with the host's padding untouched");
	cuMemsetD8(b, 0x22, 64 * KIB);
	c = dd(b, 256, a, pa, 100, 64);
	is_res(cuMemcpy2DUnaligned(&c), CUDA_SUCCESS,
	       "cuMemcpy2DUnaligned device to device");
	cuMemcpyDtoH(g, b, 256 * 64);
	is_int(box_wrong(g, 256, h, 128, 100, 64, 0x22), 0,
	       "device to device: rows at the new pitch");
	c = dd(b, 512, b + 16 * KIB, 512, 64, 4);
	c.srcXInBytes = 1;
	c.dstXInBytes = 3;
	is_res(cuMemcpy2D(&c), CUDA_SUCCESS,
	       "cuMemcpy2D checks no alignment of x or pitch");

	/* the order of the checks */
	is_res(cuMemcpy2D(NULL), CUDA_ERROR_INVALID_VALUE, "a NULL copy");
	c = dd(0, 0, 0, 0, 0, 64);
	c.srcMemoryType = 0;
	is_res(cuMemcpy2D(&c), CUDA_SUCCESS,
	       "width 0 succeeds even with a bad memory type and NULL ends");
	c = dd(b, 10, a, 10, 100, 0);
	is_res(cuMemcpy2D(&c), CUDA_SUCCESS,
	       "height 0 succeeds even with a width over the pitch");
	memset(&c, 0, sizeof c);
	is_res(cuMemcpy2D(&c), CUDA_SUCCESS, "an all-zero copy succeeds");
	cuMemsetD8(b, 0x33, 64 * KIB);
	c = dd(b, 512, a, pa, 100, 4);
	c.srcMemoryType = 0;
	is_res(cuMemcpy2D(&c), CUDA_ERROR_INVALID_VALUE, "memory type 0");
	c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	c.dstMemoryType = 5;
	is_res(cuMemcpy2D(&c), CUDA_ERROR_INVALID_VALUE, "memory type 5");
	c = dd(b, 512, a, 64, 100, 4);
	is_res(cuMemcpy2D(&c), CUDA_ERROR_INVALID_VALUE,
	       "a source pitch below the width");
	c = dd(b, 64, a, pa, 100, 1);
	is_res(cuMemcpy2D(&c), CUDA_ERROR_INVALID_VALUE,
	       "a destination pitch below the width, even for one row");
	c = dd(b, 0, a, 0, 100, 1);
	is_res(cuMemcpy2D(&c), CUDA_SUCCESS, "pitches of 0 for one row");
	cuMemsetD8(b, 0x33, 64 * KIB);
	c = dd(b, 512, a, pa, 100, 4);
	c.srcXInBytes = pa - 50;
	is_res(cuMemcpy2D(&c), CUDA_ERROR_INVALID_VALUE,
	       "x plus the width past the pitch");
	c = dd(b, 512, a, pa, 100, 64);
	c.srcY = 1;
	is_res(cuMemcpy2D(&c), CUDA_ERROR_INVALID_VALUE,
	       "a last row past the end of the source");
	c = hd(b, 512, NULL, 128, 100, 4);
	is_res(cuMemcpy2D(&c), CUDA_ERROR_INVALID_VALUE, "a NULL host end");
	c = dd(b, 512, (CUdeviceptr)h, 128, 100, 4);
	is_res(cuMemcpy2D(&c), CUDA_ERROR_INVALID_VALUE,
	       "pageable memory named a device end");
	cuMemcpyDtoH(g, b, 64 * KIB);
	{
		int bad = 0;

		for (size_t i = 0; i < 64 * KIB; i++)
			bad += g[i] != 0x33;
		is_int(bad, 0, "the refused copies wrote nothing");
	}
	c = hd(b, 512, h, 128, 100, 4);
	c.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
	c.srcDevice = (CUdeviceptr)h;
	c.srcHost = NULL;
	is_res(cuMemcpy2D(&c), CUDA_SUCCESS,
	       "pageable memory named a unified end");
	c = dd(b + 8, 512, b, 512, 256, 8);
	is_res(cuMemcpy2D(&c), CUDA_SUCCESS,
	       "overlapping rows in one allocation");

	/* managed, another GPU, async, the stream's own */
	{
		CUdeviceptr m, o;
		CUstream s;
		CUcontext c1;

		cuMemAllocManaged(&m, 64 * KIB, CU_MEM_ATTACH_GLOBAL);
		c = hd(m, 512, h, 128, 100, 8);
		is_res(cuMemcpy2D(&c), CUDA_SUCCESS, "host to managed");
		ok(!memcmp((char *)m + 512 * 7, h + 128 * 7, 100) &&
		   ((unsigned char *)m)[512 * 7 + 100] == 0,
		   "the managed rows hold the data and nothing more");
		cuMemFree(m);
		cuDevicePrimaryCtxRetain(&c1, 1);
		cuCtxPushCurrent(c1);
		cuMemAlloc(&o, 64 * KIB);
		cuCtxPopCurrent(NULL);
		c = dd(o, 128, a, pa, 100, 64);
		is_res(cuMemcpy2DAsync(&c, 0), CUDA_SUCCESS,
		       "async, to another GPU");
		cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
		c = dh(g, 100, o, 128, 100, 64);
		memset(g, 0, 64 * KIB);
		cuCtxSynchronize();
		is_res(cuMemcpy2DAsync_v2_ptsz(&c, s), CUDA_SUCCESS,
		       "the _ptsz form on a stream");
		is_res(cuStreamSynchronize(s), CUDA_SUCCESS, "synchronized");
		is_int(box_wrong(g, 100, h, 128, 100, 64, 0), 0,
		       "the rows came back from the other GPU");
		c = dd(b, 512, a, pa, 1000, 64);
		is_res(cuMemcpy2DAsync(&c, s), CUDA_ERROR_INVALID_VALUE,
		       "an async copy is checked at the call");
		is_res(cuMemcpy2D_v2_ptds(&c), CUDA_ERROR_INVALID_VALUE,
		       "and so is the _ptds form");
		cuStreamDestroy(s);
		cuMemFree(o);
		cuDevicePrimaryCtxRelease(1);
	}

	/* cost: the bytes on their path, as a 1D copy of as many */
	{
		CUdeviceptr x, y;
		size_t px, py;
		unsigned long long t0, t1, t2;

		cuMemAllocPitch(&x, &px, 1024, 1024, 16);
		cuMemAllocPitch(&y, &py, 1024, 1024, 16);
		c = dd(y, py, x, px, 1024, 1024);
		cuMemcpyDtoD(y, x, 1 << 20);
		cuemuStreamGetTime(NULL, &t0);
		cuMemcpy2D(&c);
		cuemuStreamGetTime(NULL, &t1);
		cuMemcpyDtoD(y, x, 1 << 20);
		cuemuStreamGetTime(NULL, &t2);
		ok(t1 > t0 && t1 - t0 == t2 - t1,
		   "1 MiB as 1024 rows costs what 1 MiB in one copy costs "
		   "(%llu ns, %llu ns)", t1 - t0, t2 - t1);
		cuMemFree(x);
		cuMemFree(y);
	}

	/* no context */
	{
		CUcontext cur;

		cuCtxGetCurrent(&cur);
		cuCtxSetCurrent(NULL);
		c = dd(b, 512, a, pa, 100, 4);
		is_res(cuMemcpy2D(&c), CUDA_ERROR_INVALID_CONTEXT,
		       "no context");
		is_res(cuMemcpy2D(NULL), CUDA_ERROR_INVALID_CONTEXT,
		       "no context comes before a NULL copy");
		is_res(cuMemsetD2D8(a, pa, 1, 100, 4),
		       CUDA_ERROR_INVALID_CONTEXT, "a memset with no context");
		cuCtxSetCurrent(cur);
	}
	cuMemFree(a);
	cuMemFree(b);
	free(h);
	free(g);
}

static void memsets_2d(void)
{
	unsigned char *g = malloc(64 * KIB);
	CUdeviceptr a;
	size_t pa;
	int bad = 0;

	cuMemAllocPitch(&a, &pa, 100, 64, 4);
	cuMemsetD8(a, 0x55, pa * 64);
	is_res(cuMemsetD2D8(a, pa, 0xab, 100, 64), CUDA_SUCCESS,
	       "cuMemsetD2D8");
	cuMemcpyDtoH(g, a, pa * 64);
	for (size_t y = 0; y < 64; y++)
		for (size_t x = 0; x < pa; x++)
			bad += g[y * pa + x] != (x < 100 ? 0xab : 0x55);
	is_int(bad, 0, "each row set, the padding untouched");
	is_res(cuMemsetD2D32(a, pa, 0xabcdef01, 25, 64), CUDA_SUCCESS,
	       "cuMemsetD2D32");
	cuMemcpyDtoH(g, a, 8);
	ok(g[0] == 0x01 && g[3] == 0xab && g[4] == 0x01,
	   "32-bit elements in the device's byte order");
	is_res(cuMemsetD2D16Async(a, pa, 0x1234, 50, 64, 0), CUDA_SUCCESS,
	       "cuMemsetD2D16Async");
	is_res(cuMemsetD2D8Async_ptsz(a, pa, 2, 100, 64, 0), CUDA_SUCCESS,
	       "cuMemsetD2D8Async_ptsz");
	is_res(cuMemsetD2D32_v2_ptds(a, pa, 3, 25, 64), CUDA_SUCCESS,
	       "cuMemsetD2D32_v2_ptds");
	cuCtxSynchronize();

	cuMemsetD8(a, 0x66, pa * 64);
	is_res(cuMemsetD2D8(0, 0, 1, 0, 4), CUDA_SUCCESS,
	       "width 0 succeeds with a NULL pointer");
	is_res(cuMemsetD2D8(0, 0, 1, 100, 0), CUDA_SUCCESS, "so does height 0");
	is_res(cuMemsetD2D8(0, 512, 1, 100, 4), CUDA_ERROR_INVALID_VALUE,
	       "a NULL pointer");
	is_res(cuMemsetD2D8(a, 50, 1, 100, 4), CUDA_ERROR_INVALID_VALUE,
	       "a pitch below the width");
	is_res(cuMemsetD2D8(a, 50, 1, 100, 1), CUDA_SUCCESS,
	       "one row needs no pitch");
	cuMemsetD8(a, 0x66, pa * 64);
	is_res(cuMemsetD2D8(a, pa, 1, 100, 65), CUDA_ERROR_INVALID_VALUE,
	       "rows past the end");
	is_res(cuMemsetD2D16(a, 101, 1, 50, 4), CUDA_ERROR_INVALID_VALUE,
	       "a 16-bit memset with an odd pitch");
	is_res(cuMemsetD2D16(a, 101, 1, 50, 1), CUDA_SUCCESS,
	       "which one row does not mind");
	cuMemsetD8(a, 0x66, pa * 64);
	is_res(cuMemsetD2D16(a + 1, pa, 1, 50, 4), CUDA_ERROR_INVALID_VALUE,
	       "a 16-bit memset at an odd address");
	is_res(cuMemsetD2D32(a, 102, 1, 25, 4), CUDA_ERROR_INVALID_VALUE,
	       "a 32-bit memset with a pitch of 2 mod 4");
	is_res(cuMemsetD2D32Async(a + 2, pa, 2, 25, 64, 0),
	       CUDA_ERROR_INVALID_VALUE, "an async one at a misaligned address");
	is_res(cuMemsetD2D32(a + 2, pa, 1, 0, 4), CUDA_SUCCESS,
	       "width 0 succeeds before the alignment is checked");
	cuMemcpyDtoH(g, a, pa * 64);
	bad = 0;
	for (size_t i = 0; i < pa * 64; i++)
		bad += g[i] != 0x66;
	is_int(bad, 0, "the refused memsets wrote nothing");
	cuMemFree(a);
	free(g);
}

static void copies_3d(void)
{
	unsigned char *h = malloc(256 * KIB), *g = malloc(256 * KIB);
	CUDA_MEMCPY3D c, base;
	CUdeviceptr a, b;
	int bad = 0;

	for (size_t i = 0; i < 256 * KIB; i++)
		h[i] = pat(i * 3);
	cuMemAlloc(&a, 256 * KIB);
	cuMemAlloc(&b, 256 * KIB);
	cuMemsetD8(a, 0x77, 256 * KIB);
	memset(&c, 0, sizeof c);
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = h;
	c.srcPitch = 128;
	c.srcHeight = 16;
	c.srcXInBytes = 4;
	c.srcY = 2;
	c.srcZ = 1;
	c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	c.dstDevice = a;
	c.dstPitch = 256;
	c.dstHeight = 10;
	c.dstXInBytes = 8;
	c.dstY = 1;
	c.dstZ = 1;
	c.WidthInBytes = 64;
	c.Height = 8;
	c.Depth = 4;
	c.reserved0 = (void *)1;
	c.srcLOD = 3;
	base = c;
	is_res(cuMemcpy3D(&c), CUDA_SUCCESS,
	       "cuMemcpy3D of a box between offsets (reserved and LOD "
	       "ignored)");
	cuMemcpyDtoH(g, a, 256 * 10 * 6);
	for (int z = 0; z < 6; z++)
		for (int y = 0; y < 10; y++)
			for (int x = 0; x < 256; x++) {
				int in = z >= 1 && z < 5 && y >= 1 && y < 9 &&
					 x >= 8 && x < 72;
				unsigned char want = in ?
					h[z * 2048 + (y + 1) * 128 + x - 4] :
					0x77;

				bad += g[z * 2560 + y * 256 + x] != want;
			}
	is_int(bad, 0, "the box arrives, everything around it untouched");
	c.Depth = 0;
	c.srcMemoryType = 0;
	is_res(cuMemcpy3D(&c), CUDA_SUCCESS,
	       "depth 0 succeeds even with a bad memory type");
	is_res(cuMemcpy3D(NULL), CUDA_ERROR_INVALID_VALUE, "a NULL copy");
	c = base;
	c.srcHeight = 4;
	is_res(cuMemcpy3D(&c), CUDA_ERROR_INVALID_VALUE,
	       "a source height below the rows copied");
	c = base;
	c.dstY = 3;
	is_res(cuMemcpy3D(&c), CUDA_ERROR_INVALID_VALUE,
	       "y plus the rows past the destination height");
	c = base;
	c.dstHeight = 4;
	c.Depth = 1;
	is_res(cuMemcpy3D(&c), CUDA_ERROR_INVALID_VALUE,
	       "a short height, even for one slice");
	c = base;
	c.srcHeight = 0;
	c.Depth = 1;
	is_res(cuMemcpy3D(&c), CUDA_SUCCESS, "a height of 0 is not checked");
	c = base;
	c.dstZ = 100;
	is_res(cuMemcpy3D(&c), CUDA_ERROR_INVALID_VALUE, "slices past the end");
	c = base;
	c.srcMemoryType = 9;
	is_res(cuMemcpy3DAsync(&c, 0), CUDA_ERROR_INVALID_VALUE,
	       "memory type 9, async");
	is_res(cuMemcpy3D_v2_ptds(&base), CUDA_SUCCESS, "the _ptds form");
	is_res(cuMemcpy3DAsync_v2_ptsz(&base, 0), CUDA_SUCCESS,
	       "the _ptsz form");
	cuCtxSynchronize();

	/* peer, across GPUs, contexts ignored */
	{
		CUDA_MEMCPY3D_PEER p;
		CUcontext c1;
		CUdeviceptr o;

		cuDevicePrimaryCtxRetain(&c1, 1);
		cuCtxPushCurrent(c1);
		cuMemAlloc(&o, 256 * KIB);
		cuCtxPopCurrent(NULL);
		memset(&p, 0, sizeof p);
		p.srcMemoryType = p.dstMemoryType = CU_MEMORYTYPE_DEVICE;
		p.srcDevice = a;
		p.srcPitch = 256;
		p.srcHeight = 10;
		p.dstDevice = o;
		p.dstPitch = 256;
		p.dstHeight = 10;
		p.WidthInBytes = 256;
		p.Height = 10;
		p.Depth = 6;
		is_res(cuMemcpy3DPeer(&p), CUDA_SUCCESS,
		       "cuMemcpy3DPeer to gpu1 with NULL contexts");
		memset(g, 0, 256 * KIB);
		cuMemcpyDtoH(g, o, 256 * 10 * 6);
		memset(h, 0, 256 * 10 * 6);
		cuMemcpyDtoH(h, a, 256 * 10 * 6);
		ok(!memcmp(g, h, 256 * 10 * 6), "the volume arrived on gpu1");
		is_res(cuMemcpy3DPeerAsync_ptsz(&p, 0), CUDA_SUCCESS,
		       "cuMemcpy3DPeerAsync_ptsz");
		is_res(cuMemcpy3DPeer_ptds(&p), CUDA_SUCCESS,
		       "cuMemcpy3DPeer_ptds");
		p.srcPitch = 10;
		is_res(cuMemcpy3DPeerAsync(&p, 0), CUDA_ERROR_INVALID_VALUE,
		       "a peer copy's pitch is checked");
		is_res(cuMemcpy3DPeer(NULL), CUDA_ERROR_INVALID_VALUE,
		       "a NULL peer copy (the real driver faults)");
		cuCtxSynchronize();
		cuMemFree(o);
		cuDevicePrimaryCtxRelease(1);
	}
	cuMemFree(a);
	cuMemFree(b);
	free(h);
	free(g);
}

static CUDA_MEMCPY3D_BATCH_OP bop(CUdeviceptr dst, CUdeviceptr src, size_t w,
			       size_t h, size_t d)
{
	CUDA_MEMCPY3D_BATCH_OP o;

	memset(&o, 0, sizeof o);
	o.src.type = o.dst.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
	o.src.op.ptr.ptr = src;
	o.dst.op.ptr.ptr = dst;
	o.extent.width = w;
	o.extent.height = h;
	o.extent.depth = d;
	o.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
	return o;
}

typedef CUresult (*batch_v1)(size_t, CUDA_MEMCPY3D_BATCH_OP *, size_t *,
			     unsigned long long, CUstream);

static void batches(void)
{
	unsigned char *h = malloc(64 * KIB), *g = malloc(64 * KIB);
	CUDA_MEMCPY3D_BATCH_OP o[2];
	CUdriverProcAddressQueryResult st;
	batch_v1 v1 = NULL;
	CUdeviceptr a, b;
	CUarray fa;
	CUDA_ARRAY3D_DESCRIPTOR d = { 16, 8, 0, CU_AD_FORMAT_FLOAT, 1, 0 };
	CUstream s;
	size_t fi;

	for (size_t i = 0; i < 64 * KIB; i++)
		h[i] = pat(i);
	cuMemAlloc(&a, 64 * KIB);
	cuMemAlloc(&b, 64 * KIB);
	cuMemcpyHtoD(a, h, 64 * KIB);
	cuMemsetD8(b, 0, 64 * KIB);
	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	o[0] = bop(b, a, 64, 4, 2);
	o[0].src.op.ptr.rowLength = 100;
	o[0].src.op.ptr.layerHeight = 5;
	o[0].dst.op.ptr.rowLength = 128;
	is_res(cuMemcpy3DBatchAsync(1, o, 0, s), CUDA_SUCCESS,
	       "cuMemcpy3DBatchAsync: rows of 100 bytes, layers of 5 rows, "
	       "into rows of 128");
	cuStreamSynchronize(s);
	cuMemcpyDtoH(g, b, 4096);
	ok(!memcmp(g + 128, h + 100, 64) && !memcmp(g + 512, h + 500, 64) &&
	   g[64] == 0, "row 1 and slice 1 arrived; the dst's padding is 0");
	o[0] = bop(b, a, 64, 4, 2);
	is_res(cuMemcpy3DBatchAsync(1, o, 0, NULL), CUDA_ERROR_INVALID_VALUE,
	       "not on the legacy stream");
	is_res(cuMemcpy3DBatchAsync(1, o, 0, CU_STREAM_PER_THREAD),
	       CUDA_SUCCESS, "the per-thread stream is taken");
	is_res(cuMemcpy3DBatchAsync(0, o, 0, s), CUDA_ERROR_INVALID_VALUE,
	       "no copies");
	is_res(cuMemcpy3DBatchAsync(1, NULL, 0, s), CUDA_ERROR_INVALID_VALUE,
	       "a NULL list");
	is_res(cuMemcpy3DBatchAsync(1, o, 1, s), CUDA_ERROR_INVALID_VALUE,
	       "batch flags");
	o[0].extent.depth = 0;
	is_res(cuMemcpy3DBatchAsync(1, o, 0, s), CUDA_ERROR_INVALID_VALUE,
	       "a depth of 0");
	o[0] = bop(b, a, 64, 4, 2);
	o[0].srcAccessOrder = 0;
	is_res(cuMemcpy3DBatchAsync(1, o, 0, s), CUDA_ERROR_INVALID_VALUE,
	       "access order 0");
	o[0].srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_ANY;
	o[0].flags = CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE;
	is_res(cuMemcpy3DBatchAsync(1, o, 0, s), CUDA_SUCCESS,
	       "access order any, the overlap hint");
	o[0].flags = 2;
	is_res(cuMemcpy3DBatchAsync(1, o, 0, s), CUDA_ERROR_INVALID_VALUE,
	       "copy flag 2");
	o[0] = bop(b, a, 64, 4, 2);
	o[0].src.type = 3;
	is_res(cuMemcpy3DBatchAsync(1, o, 0, s), CUDA_ERROR_INVALID_VALUE,
	       "operand type 3");
	o[0] = bop(b, a, 64, 4, 2);
	o[0].src.op.ptr.rowLength = 32;
	is_res(cuMemcpy3DBatchAsync(1, o, 0, s), CUDA_ERROR_INVALID_VALUE,
	       "a row length below the width");
	o[0] = bop(b, (CUdeviceptr)h, 64, 4, 2);
	is_res(cuMemcpy3DBatchAsync(1, o, 0, s), CUDA_SUCCESS,
	       "a pageable source in stream order");
	cuStreamSynchronize(s);

	cuArray3DCreate(&fa, &d);
	memset(o, 0, sizeof o);
	o[0].src.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
	o[0].src.op.ptr.ptr = a;
	o[0].src.op.ptr.rowLength = 25;
	o[0].dst.type = CU_MEMCPY_OPERAND_TYPE_ARRAY;
	o[0].dst.op.array.array = fa;
	o[0].dst.op.array.offset.x = 1;
	o[0].dst.op.array.offset.y = 2;
	o[0].extent.width = 10;
	o[0].extent.height = 3;
	o[0].extent.depth = 1;
	o[0].srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
	is_res(cuMemcpy3DBatchAsync_v2_ptsz(1, o, 0, s), CUDA_SUCCESS,
	       "device to array, in the array's elements (_v2_ptsz)");
	cuStreamSynchronize(s);
	memset(g, 0, 1024);
	cuMemcpyAtoH(g, fa, 0, 64);
	{
		CUDA_MEMCPY2D c;

		memset(&c, 0, sizeof c);
		c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
		c.srcArray = fa;
		c.dstMemoryType = CU_MEMORYTYPE_HOST;
		c.dstHost = g;
		c.dstPitch = 64;
		c.WidthInBytes = 64;
		c.Height = 8;
		cuMemcpy2D(&c);
	}
	ok(!memcmp(g + 2 * 64 + 4, h, 40) && !memcmp(g + 3 * 64 + 4, h + 100, 40),
	   "rows of 25 floats of the source, at element 1 of row 2");
	o[0].extent.depth = 2;
	is_res(cuMemcpy3DBatchAsync(1, o, 0, s), CUDA_ERROR_INVALID_VALUE,
	       "two slices of a 2D array");

	/* CUDA 12.8's form: the failing index */
	cuGetProcAddress("cuMemcpy3DBatchAsync", (void **)&v1, 12080, 0, &st);
	ok(v1 != NULL, "cuMemcpy3DBatchAsync of CUDA 12.8");
	if (v1) {
		cuMemsetD8(b, 0, 64 * KIB);
		o[0] = bop(b, a, 64, 1, 1);
		o[1] = bop(b + 1024, a, 64, 1, 1);
		o[1].srcAccessOrder = 0;
		fi = 777;
		is_res(v1(2, o, &fi, 0, s), CUDA_ERROR_INVALID_VALUE,
		       "the second copy refused");
		is_int(fi, 1, "the index says which");
		cuStreamSynchronize(s);
		cuMemcpyDtoH(g, b, 64);
		ok(g[0] == 0 && g[63] == 0, "and the first was not made");
		fi = 777;
		is_res(v1(0, o, &fi, 0, s), CUDA_ERROR_INVALID_VALUE,
		       "no copies");
		ok(fi == SIZE_MAX, "index SIZE_MAX: no copy in particular");
		fi = 777;
		is_res(v1(1, o, &fi, 0, NULL), CUDA_ERROR_INVALID_VALUE,
		       "the legacy stream");
		is_int(fi, 777, "refused before the index is written");
		o[1].srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
		fi = 777;
		is_res(v1(2, o, &fi, 0, s), CUDA_SUCCESS, "both copies");
		ok(fi == SIZE_MAX, "index SIZE_MAX on success");
		is_res(v1(2, o, NULL, 0, s), CUDA_SUCCESS, "a NULL index");
		cuStreamSynchronize(s);
	}
	{
		struct cudaMemcpy3DBatchOp r;

		memset(&r, 0, sizeof r);
		r.src.type = r.dst.type = cudaMemcpyOperandTypePointer;
		r.src.op.ptr.ptr = (void *)(uintptr_t)a;
		r.dst.op.ptr.ptr = (void *)(uintptr_t)(b + 4096);
		r.extent = make_cudaExtent(16, 2, 1);
		r.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
		is_int(cudaMemcpy3DBatchAsync(1, &r, 0, s), cudaSuccess,
		       "cudaMemcpy3DBatchAsync");
		cuStreamSynchronize(s);
		cuMemcpyDtoH(g, b + 4096, 32);
		ok(!memcmp(g, h, 32), "its copy arrived");
		is_int(cudaMemcpy3DBatchAsync(1, &r, 0, 0),
		       cudaErrorInvalidValue, "not on the legacy stream");
	}
	cuArrayDestroy(fa);
	cuStreamDestroy(s);
	cuMemFree(a);
	cuMemFree(b);
	free(h);
	free(g);
}

static void versions(void)
{
	CUresult (*v1)(const void *) = NULL;
	void *p = NULL, *q = NULL;
	CUdriverProcAddressQueryResult st;

	is_res(cuGetProcAddress("cuMemcpy2D", &p, 13000,
				CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
				&st), CUDA_SUCCESS, "cuGetProcAddress(cuMemcpy2D)");
	ok(p == (void *)cuMemcpy2D_v2_ptds,
	   "per thread, it is cuMemcpy2D_v2_ptds");
	is_res(cuGetProcAddress("cuMemsetD2D8Async", &q, 13000, 0, &st),
	       CUDA_SUCCESS, "cuGetProcAddress(cuMemsetD2D8Async)");
	ok(q == (void *)cuMemsetD2D8Async, "by default, cuMemsetD2D8Async");
	is_res(cuGetProcAddress("cuMemcpy3D", (void **)&v1, 2000, 0, &st),
	       CUDA_SUCCESS, "cuMemcpy3D of CUDA 2.0");
	if (v1)
		is_res(v1(NULL), CUDA_ERROR_INVALID_CONTEXT,
		       "its 32-bit form has no context in a 64-bit process");
	else
		ok(0, "its 32-bit form has no context in a 64-bit process");
}

static void runtime(void)
{
	unsigned char *h = malloc(64 * KIB), *g = malloc(64 * KIB);
	struct cudaPitchedPtr pp;
	struct cudaMemcpy3DParms p;
	int bad = 0;

	for (size_t i = 0; i < 64 * KIB; i++)
		h[i] = pat(i + 5);
	is_int(cudaMalloc3D(&pp, make_cudaExtent(100, 8, 4)), cudaSuccess,
	       "cudaMalloc3D");
	ok(pp.ptr && pp.pitch == 512 && pp.xsize == 100 && pp.ysize == 8,
	   "a pitched pointer: pitch 512, xsize 100, ysize 8");
	is_int(cudaMemset3D(pp, 0x44, make_cudaExtent(100, 8, 4)),
	       cudaSuccess, "cudaMemset3D of the whole volume");
	is_int(cudaMemset3D(pp, 0x45, make_cudaExtent(10, 2, 4)), cudaSuccess,
	       "cudaMemset3D of a box in each slice");
	cudaMemcpy(g, pp.ptr, 512 * 32, cudaMemcpyDeviceToHost);
	for (size_t z = 0; z < 4; z++)
		for (size_t y = 0; y < 8; y++)
			for (size_t x = 0; x < 100; x++)
				bad += g[z * 4096 + y * 512 + x] !=
				       (x < 10 && y < 2 ? 0x45 : 0x44);
	is_int(bad, 0, "only the box of each slice was set");
	is_int(cudaMemset3D(pp, 0x46, make_cudaExtent(10, 2, 5)),
	       cudaErrorInvalidValue, "a box past the last slice");
	cudaMemcpy(g, pp.ptr, 512 * 32, cudaMemcpyDeviceToHost);
	ok(g[0] == 0x45, "and it set no slice at all");
	is_int(cudaMemcpy2D(pp.ptr, pp.pitch, h, 100, 100, 8,
			    cudaMemcpyHostToDevice), cudaSuccess,
	       "cudaMemcpy2D host to device");
	is_int(cudaMemcpy2D(g, 100, pp.ptr, pp.pitch, 100, 8,
			    cudaMemcpyDefault), cudaSuccess,
	       "and back, by cudaMemcpyDefault");
	ok(!memcmp(g, h, 800), "the rows made the round trip");
	is_int(cudaMemcpy2D(g, 50, pp.ptr, pp.pitch, 100, 8,
			    cudaMemcpyDeviceToHost),
	       cudaErrorInvalidPitchValue, "a pitch below the width");
	is_int(cudaMemcpy2D(g, 100, pp.ptr, pp.pitch, 100, 8,
			    (enum cudaMemcpyKind)7),
	       cudaErrorInvalidMemcpyDirection, "an unknown kind");
	is_int(cudaMemcpy2DAsync(g, 100, pp.ptr, pp.pitch, 100, 8,
				 cudaMemcpyDeviceToHost, 0), cudaSuccess,
	       "cudaMemcpy2DAsync");
	is_int(cudaMemset2D(pp.ptr, pp.pitch, 0x12, 100, 8), cudaSuccess,
	       "cudaMemset2D");
	is_int(cudaMemset2DAsync(pp.ptr, pp.pitch, 0x13, 100, 8, 0),
	       cudaSuccess, "cudaMemset2DAsync");
	is_int(cudaMemset3DAsync(pp, 0x14, make_cudaExtent(100, 8, 4), 0),
	       cudaSuccess, "cudaMemset3DAsync");
	cudaDeviceSynchronize();

	memset(&p, 0, sizeof p);
	p.srcPtr = make_cudaPitchedPtr(h, 128, 100, 16);
	p.srcPos = make_cudaPos(4, 1, 0);
	p.dstPtr = pp;
	p.dstPos = make_cudaPos(0, 0, 1);
	p.extent = make_cudaExtent(64, 4, 2);
	p.kind = cudaMemcpyHostToDevice;
	is_int(cudaMemcpy3D(&p), cudaSuccess, "cudaMemcpy3D of a box");
	cudaMemcpy(g, pp.ptr, 512 * 32, cudaMemcpyDeviceToHost);
	ok(!memcmp(g + 4096, h + 128 + 4, 64) &&
	   !memcmp(g + 2 * 4096 + 3 * 512, h + 2048 + 4 * 128 + 4, 64) &&
	   g[4096 + 64] == 0x14, "the box landed in slices 1 and 2");
	is_int(cudaMemcpy3D(NULL), cudaErrorInvalidValue, "a NULL copy");
	p.kind = (enum cudaMemcpyKind)9;
	is_int(cudaMemcpy3DAsync(&p, 0), cudaErrorInvalidMemcpyDirection,
	       "an unknown kind");
	{
		struct cudaMemcpy3DPeerParms q;

		memset(&q, 0, sizeof q);
		q.srcPtr = pp;
		q.dstPtr = pp;
		q.dstDevice = 7;
		q.extent = make_cudaExtent(10, 1, 1);
		is_int(cudaMemcpy3DPeer(&q), cudaErrorInvalidDevice,
		       "cudaMemcpy3DPeer to no device");
		q.dstDevice = 0;
		q.dstPos = make_cudaPos(200, 0, 0);
		is_int(cudaMemcpy3DPeerAsync(&q, 0), cudaSuccess,
		       "cudaMemcpy3DPeerAsync within a device");
	}
	cudaDeviceSynchronize();
	cudaFree(pp.ptr);
	is_int(cudaMalloc3D(&pp, make_cudaExtent(0, 8, 4)), cudaSuccess,
	       "an empty cudaMalloc3D");
	ok(pp.ptr == NULL && pp.pitch == 0, "gives NULL and pitch 0");
	free(h);
	free(g);
}

int main(void)
{
	CUcontext ctx;

	if (cuInit(0) || cuDevicePrimaryCtxRetain(&ctx, 0) ||
	    cuCtxSetCurrent(ctx)) {
		printf("Bail out! no device\n");
		return 1;
	}
	copies_2d();
	memsets_2d();
	copies_3d();
	batches();
	versions();
	runtime();
	return done_testing();
}
