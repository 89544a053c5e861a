/*
 * test_array.c - CUDA arrays: the formats and channels an array takes,
 * the extents each kind of array may have (1D, 2D, 3D and its alternate
 * limits, layered, cubemap, gather) and the flags; the device memory an
 * array takes and gives back; descriptors read back as made; what
 * deferred-mapping and sparse arrays answer; planes; the 1D copies (first
 * row only, no alignment) and arrays at either end of 2D and 3D copies;
 * the errors in the real driver's order; a primary context's reset
 * freeing its arrays; /cu's record of an array; the runtime's
 * cudaMallocArray, cudaMalloc3DArray, cudaArrayGetInfo and array copies.
 * The facts follow probes/results/shape.txt.
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
#define MIB (1024UL * KIB)

static CUresult make2(CUarray *a, size_t w, size_t h, CUarray_format f,
		      unsigned n)
{
	CUDA_ARRAY_DESCRIPTOR d = { w, h, f, n };

	return cuArrayCreate(a, &d);
}

static CUresult make3(CUarray *a, size_t w, size_t h, size_t dp,
		      CUarray_format f, unsigned n, unsigned flags)
{
	CUDA_ARRAY3D_DESCRIPTOR d = { w, h, dp, f, n, flags };

	return cuArray3DCreate(a, &d);
}

/* Creates (and destroys) the array; its answer. */
static CUresult try2(size_t w, size_t h, CUarray_format f, unsigned n)
{
	CUarray a = NULL;
	CUresult r = make2(&a, w, h, f, n);

	if (!r)
		cuArrayDestroy(a);
	return r;
}

static CUresult try3(size_t w, size_t h, size_t dp, unsigned flags)
{
	CUarray a = NULL;
	CUresult r = make3(&a, w, h, dp, CU_AD_FORMAT_FLOAT, 1, flags);

	if (!r)
		cuArrayDestroy(a);
	return r;
}

static size_t free_mem(void)
{
	size_t f = 0, t = 0;

	cuMemGetInfo(&f, &t);
	return f;
}

static void shapes(void)
{
	CUarray a = NULL;

	is_res(try2(64, 64, CU_AD_FORMAT_UNSIGNED_INT8, 1), CUDA_SUCCESS,
	       "uint8, 1 channel");
	is_res(try2(64, 64, CU_AD_FORMAT_FLOAT, 4), CUDA_SUCCESS,
	       "float, 4 channels");
	is_res(try2(64, 64, CU_AD_FORMAT_HALF, 2), CUDA_SUCCESS,
	       "half, 2 channels");
	is_res(try2(64, 64, CU_AD_FORMAT_FLOAT, 3), CUDA_ERROR_INVALID_VALUE,
	       "3 channels");
	is_res(try2(64, 64, CU_AD_FORMAT_FLOAT, 0), CUDA_ERROR_INVALID_VALUE,
	       "0 channels");
	is_res(try2(64, 64, (CUarray_format)0, 1), CUDA_ERROR_INVALID_VALUE,
	       "format 0");
	is_res(try2(64, 64, CU_AD_FORMAT_UNORM_INT8X2, 2), CUDA_SUCCESS,
	       "unorm int8x2 with its 2 channels");
	is_res(try2(64, 64, CU_AD_FORMAT_UNORM_INT8X2, 1),
	       CUDA_ERROR_INVALID_VALUE, "unorm int8x2 with 1 channel");
	is_res(try2(64, 64, CU_AD_FORMAT_BC6H_UF16, 3), CUDA_SUCCESS,
	       "BC6H with its 3 channels");
	is_res(make3(&a, 64, 64, 0, CU_AD_FORMAT_BC1_UNORM, 4,
		     CUDA_ARRAY3D_SURFACE_LDST), CUDA_ERROR_NOT_SUPPORTED,
	       "BC1 for surface stores: not supported (an H200's answer)");
	is_res(try2(64, 64, CU_AD_FORMAT_NV12, 1), CUDA_ERROR_INVALID_VALUE,
	       "NV12 is no format cuArrayCreate takes");
	is_res(try2(0, 16, CU_AD_FORMAT_UNSIGNED_INT8, 1),
	       CUDA_ERROR_INVALID_VALUE, "width 0");
	is_res(try2(131072, 0, CU_AD_FORMAT_UNSIGNED_INT8, 1), CUDA_SUCCESS,
	       "1D of the device's maximum, 131072");
	is_res(try2(131073, 0, CU_AD_FORMAT_UNSIGNED_INT8, 1),
	       CUDA_ERROR_INVALID_VALUE, "1D of 131073");
	is_res(try2(16, 65536, CU_AD_FORMAT_UNSIGNED_INT8, 1), CUDA_SUCCESS,
	       "2D of height 65536");
	is_res(try2(16, 65537, CU_AD_FORMAT_UNSIGNED_INT8, 1),
	       CUDA_ERROR_INVALID_VALUE, "2D of height 65537");
	is_res(try3(16, 16, 16384, 0), CUDA_SUCCESS, "3D of depth 16384");
	is_res(try3(16, 16, 16385, 0), CUDA_SUCCESS,
	       "3D of depth 16385, within the alternate limits");
	is_res(try3(16385, 16, 16, 0), CUDA_ERROR_INVALID_VALUE,
	       "3D of width 16385");
	is_res(try3(32, 0, 4, 0), CUDA_ERROR_INVALID_VALUE,
	       "3D of height 0");
	is_res(try3(32, 32, 4, CUDA_ARRAY3D_LAYERED), CUDA_SUCCESS,
	       "4 layers");
	is_res(try3(32, 0, 4, CUDA_ARRAY3D_LAYERED), CUDA_SUCCESS,
	       "4 layers of 1D");
	is_res(try3(32, 32, 0, CUDA_ARRAY3D_LAYERED), CUDA_ERROR_INVALID_VALUE,
	       "layered with no layer");
	is_res(try3(16, 16, 2049, CUDA_ARRAY3D_LAYERED),
	       CUDA_ERROR_INVALID_VALUE, "2049 layers");
	is_res(try3(32, 32, 6, CUDA_ARRAY3D_CUBEMAP), CUDA_SUCCESS,
	       "a cubemap");
	is_res(try3(32, 32, 5, CUDA_ARRAY3D_CUBEMAP), CUDA_ERROR_INVALID_VALUE,
	       "a cubemap of 5 faces");
	is_res(try3(32, 16, 6, CUDA_ARRAY3D_CUBEMAP), CUDA_ERROR_INVALID_VALUE,
	       "a cubemap of faces not square");
	is_res(try3(32, 32, 12, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED),
	       CUDA_SUCCESS, "two layered cubemaps");
	is_res(try3(32, 32, 7, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED),
	       CUDA_ERROR_INVALID_VALUE, "a layered cubemap of 7 faces");
	is_res(try3(32, 32, 0, CUDA_ARRAY3D_TEXTURE_GATHER), CUDA_SUCCESS,
	       "2D texture gather");
	is_res(try3(32, 32, 32, CUDA_ARRAY3D_TEXTURE_GATHER),
	       CUDA_ERROR_INVALID_VALUE, "3D texture gather");
	is_res(try3(32, 32, 0, CUDA_ARRAY3D_DEPTH_TEXTURE),
	       CUDA_ERROR_INVALID_VALUE, "a depth texture");
	is_res(try3(32, 32, 0, 0x200), CUDA_ERROR_INVALID_VALUE,
	       "an unknown flag");
	is_res(try3(32, 32, 0, CUDA_ARRAY3D_SPARSE), CUDA_ERROR_INVALID_VALUE,
	       "a sparse array on a device without sparse arrays");
	is_res(try3(32, 32, 0, CUDA_ARRAY3D_SURFACE_LDST |
		    CUDA_ARRAY3D_VIDEO_ENCODE_DECODE), CUDA_SUCCESS,
	       "surface load/store and video flags");
	is_res(cuArrayCreate(&a, NULL), CUDA_ERROR_INVALID_VALUE,
	       "a NULL descriptor");
	is_res(make2(NULL, 16, 16, CU_AD_FORMAT_FLOAT, 1),
	       CUDA_ERROR_INVALID_VALUE, "a NULL handle");
	is_res(cuArray3DCreate(&a, NULL), CUDA_ERROR_INVALID_VALUE,
	       "a NULL 3D descriptor");
}

static void handles(void)
{
	CUDA_ARRAY3D_DESCRIPTOR d3;
	CUDA_ARRAY_DESCRIPTOR d2;
	CUDA_ARRAY_MEMORY_REQUIREMENTS m;
	CUDA_ARRAY_SPARSE_PROPERTIES sp;
	CUarray a, b, pl = NULL;
	size_t f0, f1, f2;

	f0 = free_mem();
	is_res(make2(&a, 64, 32, CU_AD_FORMAT_UNSIGNED_INT16, 2), CUDA_SUCCESS,
	       "a 64x32 uint16x2 array");
	f1 = free_mem();
	is_int(f0 - f1, 2 * MIB, "it takes one 2 MiB block of the device");
	is_res(cuArrayGetDescriptor(&d2, a), CUDA_SUCCESS, "its descriptor");
	ok(d2.Width == 64 && d2.Height == 32 &&
	   d2.Format == CU_AD_FORMAT_UNSIGNED_INT16 && d2.NumChannels == 2,
	   "as made");
	is_res(cuArray3DGetDescriptor(&d3, a), CUDA_SUCCESS,
	       "its 3D descriptor");
	ok(d3.Depth == 0 && d3.Flags == 0 && d3.Width == 64,
	   "depth 0, flags 0");
	is_res(cuArrayGetDescriptor(NULL, a), CUDA_ERROR_INVALID_VALUE,
	       "a NULL descriptor");
	is_res(cuArrayGetDescriptor(&d2, NULL), CUDA_ERROR_INVALID_HANDLE,
	       "a NULL array");
	is_res(cuArrayGetMemoryRequirements(&m, a, 0),
	       CUDA_ERROR_INVALID_VALUE,
	       "memory requirements of an array with memory of its own");
	is_res(cuArrayGetSparseProperties(&sp, a), CUDA_ERROR_INVALID_VALUE,
	       "sparse properties of an array not sparse");
	is_res(cuArrayGetSparseProperties(&sp, NULL), CUDA_ERROR_INVALID_VALUE,
	       "sparse properties of NULL");
	is_res(cuArrayGetPlane(&pl, a, 0), CUDA_ERROR_INVALID_VALUE,
	       "no plane 0 of an array not planar");
	is_res(cuArrayGetPlane(&pl, NULL, 0), CUDA_ERROR_INVALID_HANDLE,
	       "no plane of NULL");
	is_res(cuArrayGetPlane(NULL, a, 0), CUDA_ERROR_INVALID_VALUE,
	       "a NULL plane handle");

	is_res(make3(&b, 1024, 1024, 0, CU_AD_FORMAT_FLOAT, 4, 0),
	       CUDA_SUCCESS, "a 1024x1024 float4 array");
	f2 = free_mem();
	is_int(f1 - f2, 16 * MIB, "it takes 16 MiB");
	is_res(cuArrayDestroy(b), CUDA_SUCCESS, "destroyed");
	is_int(free_mem(), f1, "which gives the 16 MiB back");
	is_res(cuArrayDestroy(b), CUDA_ERROR_INVALID_HANDLE,
	       "destroying it again");
	is_res(cuArrayGetDescriptor(&d2, b), CUDA_ERROR_INVALID_HANDLE,
	       "a destroyed array has no descriptor");
	is_res(cuArrayDestroy(NULL), CUDA_ERROR_INVALID_HANDLE,
	       "destroying NULL");

	is_res(make3(&b, 32, 32, 0, CU_AD_FORMAT_FLOAT, 1,
		     CUDA_ARRAY3D_DEFERRED_MAPPING), CUDA_SUCCESS,
	       "a deferred-mapping array");
	is_int(free_mem(), f1, "takes no memory of its own");
	memset(&m, 0, sizeof m);
	is_res(cuArrayGetMemoryRequirements(&m, b, 0), CUDA_SUCCESS,
	       "its memory requirements");
	ok(m.size == 65536 && m.alignment == 65536,
	   "64 KiB, aligned to 64 KiB");
	is_res(cuArrayGetMemoryRequirements(NULL, b, 0),
	       CUDA_ERROR_INVALID_VALUE, "NULL requirements");
	is_res(cuArrayGetMemoryRequirements(&m, b, 99),
	       CUDA_ERROR_INVALID_VALUE, "device 99");
	{
		unsigned char h[16] = { 0 };

		is_res(cuMemcpyHtoA(b, 0, h, 16), CUDA_ERROR_INVALID_VALUE,
		       "a copy into a deferred array that has no memory");
	}
	cuArrayDestroy(b);

	/* no context: create needs one, the rest does not */
	{
		CUcontext cur;
		CUarray c;

		cuCtxGetCurrent(&cur);
		cuCtxSetCurrent(NULL);
		is_res(make2(&c, 16, 16, CU_AD_FORMAT_FLOAT, 1),
		       CUDA_ERROR_INVALID_CONTEXT, "create with no context");
		is_res(cuArrayCreate(&c, NULL), CUDA_ERROR_INVALID_CONTEXT,
		       "which comes before a NULL descriptor");
		is_res(cuArrayGetDescriptor(&d2, a), CUDA_SUCCESS,
		       "a descriptor needs no context");
		is_res(cuArrayDestroy(a), CUDA_SUCCESS,
		       "nor does destroying");
		cuCtxSetCurrent(cur);
	}
	is_int(free_mem(), f0, "all given back");
}

static void copies(void)
{
	unsigned char *h = malloc(64 * KIB), *g = malloc(64 * KIB);
	CUarray a1, a2, a2d, af, a3;
	CUdeviceptr dv;
	CUDA_MEMCPY2D c;
	CUDA_MEMCPY3D c3;
	int bad = 0;

	for (size_t i = 0; i < 64 * KIB; i++)
		h[i] = (unsigned char)(i * 5 + 9);
	make2(&a1, 1024, 0, CU_AD_FORMAT_FLOAT, 1);
	make2(&a2, 1024, 0, CU_AD_FORMAT_FLOAT, 1);
	cuMemAlloc(&dv, 64 * KIB);
	is_res(cuMemcpyHtoA(a1, 0, h, 4096), CUDA_SUCCESS, "cuMemcpyHtoA");
	is_res(cuMemcpyHtoA(a1, 1, h + 100, 5), CUDA_SUCCESS,
	       "an odd offset and count need no alignment");
	memset(g, 0, 4096);
	is_res(cuMemcpyAtoH(g, a1, 0, 4096), CUDA_SUCCESS, "cuMemcpyAtoH");
	ok(g[0] == h[0] && !memcmp(g + 1, h + 100, 5) &&
	   !memcmp(g + 6, h + 6, 4090), "both copies arrived");
	is_res(cuMemcpyHtoA(a1, 16, h, 4096), CUDA_ERROR_INVALID_VALUE,
	       "past the end");
	is_res(cuMemcpyAtoH(g, a1, 4, 4096), CUDA_ERROR_INVALID_VALUE,
	       "from past the end");
	is_res(cuMemcpyHtoA(NULL, 0, NULL, 0), CUDA_SUCCESS,
	       "a count of 0 succeeds whatever the rest");
	is_res(cuMemcpyHtoA(NULL, 0, h, 4), CUDA_ERROR_INVALID_VALUE,
	       "a NULL array");
	is_res(cuMemcpyHtoA(a1, 0, NULL, 4), CUDA_ERROR_INVALID_VALUE,
	       "a NULL source");
	is_res(cuMemcpyAtoD(dv, a1, 0, 4096), CUDA_SUCCESS, "cuMemcpyAtoD");
	is_res(cuMemcpyAtoD((CUdeviceptr)g, a1, 0, 16),
	       CUDA_ERROR_INVALID_VALUE, "to pageable memory named a device");
	is_res(cuMemcpyDtoA(a2, 8, dv, 1024), CUDA_SUCCESS, "cuMemcpyDtoA");
	is_res(cuMemcpyAtoA(a2, 2000, a1, 0, 64), CUDA_SUCCESS,
	       "cuMemcpyAtoA");
	is_res(cuMemcpyAtoA(a2, 8, a1, 0, 4096), CUDA_ERROR_INVALID_VALUE,
	       "an array-to-array copy past the end");
	memset(g, 0, 4096);
	cuMemcpyAtoH_v2_ptds(g, a2, 0, 4096);
	ok(!memcmp(g + 8, h, 1) && !memcmp(g + 2000, h, 1) &&
	   g[9] == h[100], "both arrived in the second array");
	is_res(cuMemcpyHtoAAsync(a1, 0, h, 4096, 0), CUDA_SUCCESS,
	       "cuMemcpyHtoAAsync");
	is_res(cuMemcpyAtoHAsync_v2_ptsz(g, a1, 0, 4096, 0), CUDA_SUCCESS,
	       "cuMemcpyAtoHAsync_v2_ptsz");
	is_res(cuMemcpyHtoAAsync(a1, 4, h, 4096, 0), CUDA_ERROR_INVALID_VALUE,
	       "an async copy past the end is refused at the call");
	cuCtxSynchronize();

	/* a 2D array: 1D copies reach its first row; 2D copies all of it */
	make2(&a2d, 64, 16, CU_AD_FORMAT_UNSIGNED_INT8, 1);
	is_res(cuMemcpyHtoA(a2d, 0, h, 64), CUDA_SUCCESS,
	       "a 1D copy of the first row of a 2D array");
	is_res(cuMemcpyHtoA(a2d, 0, h, 128), CUDA_ERROR_INVALID_VALUE,
	       "a 1D copy of two rows");
	is_res(cuMemcpyHtoA(a2d, 64, h, 64), CUDA_ERROR_INVALID_VALUE,
	       "a 1D copy into the second row");
	memset(&c, 0, sizeof c);
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = h;
	c.srcPitch = 100;
	c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	c.dstArray = a2d;
	c.dstPitch = 3; /* ignored for an array */
	c.WidthInBytes = 64;
	c.Height = 16;
	is_res(cuMemcpy2D(&c), CUDA_SUCCESS, "cuMemcpy2D host to array");
	{
		CUDA_MEMCPY2D back;

		memset(&back, 0, sizeof back);
		back.srcMemoryType = CU_MEMORYTYPE_ARRAY;
		back.srcArray = a2d;
		back.dstMemoryType = CU_MEMORYTYPE_HOST;
		back.dstHost = g;
		back.dstPitch = 64;
		back.WidthInBytes = 64;
		back.Height = 16;
		memset(g, 0, 2048);
		is_res(cuMemcpy2D(&back), CUDA_SUCCESS,
		       "cuMemcpy2D array to host");
		for (int y = 0; y < 16; y++)
			bad += memcmp(g + y * 64, h + y * 100, 64) != 0;
		is_int(bad, 0, "every row made the round trip");
	}
	c.WidthInBytes = 65;
	is_res(cuMemcpy2D(&c), CUDA_ERROR_INVALID_VALUE,
	       "rows wider than the array");
	c.WidthInBytes = 64;
	c.dstY = 1;
	is_res(cuMemcpy2D(&c), CUDA_ERROR_INVALID_VALUE,
	       "rows past the array's last");
	c.dstY = 0;
	c.dstArray = NULL;
	is_res(cuMemcpy2D(&c), CUDA_ERROR_INVALID_VALUE, "a NULL array");
	c.WidthInBytes = 0;
	is_res(cuMemcpy2D(&c), CUDA_SUCCESS,
	       "width 0 with a NULL array succeeds");

	/* array to array and to device in 2D, element offsets in bytes */
	make2(&af, 16, 16, CU_AD_FORMAT_FLOAT, 1);
	memset(&c, 0, sizeof c);
	c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
	c.srcArray = a2d;
	c.srcXInBytes = 3;
	c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	c.dstArray = af;
	c.dstXInBytes = 2;
	c.WidthInBytes = 60;
	c.Height = 16;
	is_res(cuMemcpy2D(&c), CUDA_SUCCESS,
	       "array to array at byte offsets inside elements");
	c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	c.dstDevice = dv;
	c.dstPitch = 100;
	is_res(cuMemcpy2D(&c), CUDA_SUCCESS, "array to device");
	cuMemcpyDtoH(g, dv + 100 + 2, 60);
	ok(!memcmp(g, h + 100 + 3, 60),
	   "the second row at the device's pitch, from x 2");

	/* 3D with a 3D array: its own pitch and height */
	make3(&a3, 16, 8, 4, CU_AD_FORMAT_UNSIGNED_INT8, 2, 0);
	memset(&c3, 0, sizeof c3);
	c3.srcMemoryType = CU_MEMORYTYPE_HOST;
	c3.srcHost = h;
	c3.srcPitch = 40;
	c3.srcHeight = 9;
	c3.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	c3.dstArray = a3;
	c3.dstPitch = 1;
	c3.dstHeight = 1;
	c3.WidthInBytes = 32;
	c3.Height = 8;
	c3.Depth = 4;
	is_res(cuMemcpy3D(&c3), CUDA_SUCCESS,
	       "cuMemcpy3D into a 3D array (its pitch and height ignored)");
	{
		CUDA_MEMCPY3D b3;

		memset(&b3, 0, sizeof b3);
		b3.srcMemoryType = CU_MEMORYTYPE_ARRAY;
		b3.srcArray = a3;
		b3.dstMemoryType = CU_MEMORYTYPE_HOST;
		b3.dstHost = g;
		b3.dstPitch = 32;
		b3.dstHeight = 8;
		b3.WidthInBytes = 32;
		b3.Height = 8;
		b3.Depth = 4;
		memset(g, 0, 1024);
		is_res(cuMemcpy3D(&b3), CUDA_SUCCESS, "and out again");
		bad = 0;
		for (int z = 0; z < 4; z++)
			for (int y = 0; y < 8; y++)
				bad += memcmp(g + z * 256 + y * 32,
					      h + z * 360 + y * 40, 32) != 0;
		is_int(bad, 0, "every row of every slice");
	}
	c3.Depth = 5;
	is_res(cuMemcpy3D(&c3), CUDA_ERROR_INVALID_VALUE, "a slice too many");
	memset(&c, 0, sizeof c);
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = h;
	c.srcPitch = 32;
	c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	c.dstArray = a3;
	c.WidthInBytes = 32;
	c.Height = 8;
	is_res(cuMemcpy2D(&c), CUDA_SUCCESS,
	       "a 2D copy into the first slice of a 3D array");
	c.Height = 32;
	is_res(cuMemcpy2D(&c), CUDA_ERROR_INVALID_VALUE,
	       "which cannot run on into the next slices");

	cuArrayDestroy(a3);
	cuArrayDestroy(af);
	cuArrayDestroy(a2d);
	cuArrayDestroy(a2);
	cuArrayDestroy(a1);
	cuMemFree(dv);
	free(h);
	free(g);
}

static void reset(void)
{
	CUDA_ARRAY_DESCRIPTOR d;
	CUcontext ctx;
	CUarray a;
	size_t f0;

	cuCtxSynchronize();
	f0 = free_mem();
	make2(&a, 256, 256, CU_AD_FORMAT_FLOAT, 4);
	ok(free_mem() < f0, "an array takes memory");
	is_res(cuDevicePrimaryCtxReset(0), CUDA_SUCCESS,
	       "the primary context is reset");
	cuDevicePrimaryCtxRetain(&ctx, 0);
	cuCtxSetCurrent(ctx);
	is_res(cuArrayGetDescriptor(&d, a), CUDA_ERROR_INVALID_HANDLE,
	       "the reset destroyed the array");
	is_int(free_mem(), f0, "and gave its memory back");
}

static void runtime(void)
{
	struct cudaChannelFormatDesc desc = cudaCreateChannelDesc(
		32, 0, 0, 0, cudaChannelFormatKindFloat), got;
	unsigned char *h = malloc(64 * KIB), *g = malloc(64 * KIB);
	struct cudaMemcpy3DParms p;
	struct cudaExtent ext;
	cudaArray_t a, b, l;
	unsigned flags = 7;

	for (size_t i = 0; i < 64 * KIB; i++)
		h[i] = (unsigned char)(i * 11 + 1);
	is_int(cudaMallocArray(&a, &desc, 16, 8, 0), cudaSuccess,
	       "cudaMallocArray of 16x8 floats");
	is_int(cudaArrayGetInfo(&got, &ext, &flags, a), cudaSuccess,
	       "cudaArrayGetInfo");
	ok(got.x == 32 && got.y == 0 && got.f == cudaChannelFormatKindFloat &&
	   ext.width == 16 && ext.height == 8 && ext.depth == 0 && flags == 0,
	   "as made: float x32, 16 x 8 x 0, flags 0");
	is_int(cudaGetChannelDesc(&got, a), cudaSuccess, "cudaGetChannelDesc");
	desc = cudaCreateChannelDesc(8, 16, 0, 0, cudaChannelFormatKindUnsigned);
	is_int(cudaMallocArray(&b, &desc, 16, 8, 0),
	       cudaErrorInvalidChannelDescriptor,
	       "channels of different widths");
	desc = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindSigned);
	is_int(cudaMalloc3DArray(&l, &desc, make_cudaExtent(16, 16, 3),
				 cudaArrayLayered), cudaSuccess,
	       "cudaMalloc3DArray: 3 layers of char4");
	is_int(cudaArrayGetInfo(&got, &ext, &flags, l), cudaSuccess,
	       "its info");
	ok(got.w == 8 && got.f == cudaChannelFormatKindSigned &&
	   ext.depth == 3 && flags == cudaArrayLayered, "char4, 3 layers");

	is_int(cudaMemcpy2DToArray(a, 4, 1, h, 100, 60, 7,
				   cudaMemcpyHostToDevice), cudaSuccess,
	       "cudaMemcpy2DToArray at (4 bytes, row 1)");
	memset(g, 0, 4096);
	is_int(cudaMemcpy2DFromArray(g, 64, a, 0, 0, 64, 8,
				     cudaMemcpyDeviceToHost), cudaSuccess,
	       "cudaMemcpy2DFromArray of the whole array");
	ok(!memcmp(g + 64 + 4, h, 60) && !memcmp(g + 7 * 64 + 4, h + 600, 60),
	   "the rows landed where asked");
	is_int(cudaMemcpy2DToArray(a, 0, 0, h, 10, 64, 8,
				   cudaMemcpyHostToDevice),
	       cudaErrorInvalidPitchValue, "a pitch below the width");
	is_int(cudaMemcpyToArray(a, 40, 2, h, 200, cudaMemcpyHostToDevice),
	       cudaSuccess, "cudaMemcpyToArray running on over rows");
	memset(g, 0, 4096);
	cudaMemcpy2DFromArray(g, 64, a, 0, 0, 64, 8, cudaMemcpyDeviceToHost);
	ok(!memcmp(g + 2 * 64 + 40, h, 200), "row-major, from (40, 2)");
	memset(g, 0, 4096);
	is_int(cudaMemcpyFromArray(g, a, 40, 2, 200, cudaMemcpyDeviceToHost),
	       cudaSuccess, "cudaMemcpyFromArray the same way");
	ok(!memcmp(g, h, 200), "the same 200 bytes");
	is_int(cudaMemcpyToArray(a, 40, 7, h, 200, cudaMemcpyHostToDevice),
	       cudaErrorInvalidValue, "running past the last row");
	desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
	is_int(cudaMallocArray(&b, &desc, 16, 8, 0), cudaSuccess,
	       "a second float array");
	is_int(cudaMemcpyArrayToArray(b, 0, 0, a, 0, 0, 512,
				      cudaMemcpyDeviceToDevice), cudaSuccess,
	       "cudaMemcpyArrayToArray");
	is_int(cudaMemcpy2DArrayToArray(b, 0, 0, a, 0, 0, 64, 8,
					cudaMemcpyDeviceToDevice), cudaSuccess,
	       "cudaMemcpy2DArrayToArray");

	memset(&p, 0, sizeof p);
	p.srcArray = a;
	p.srcPos = make_cudaPos(1, 2, 0);
	p.dstPtr = make_cudaPitchedPtr(g, 64, 16, 8);
	p.extent = make_cudaExtent(10, 3, 1);
	p.kind = cudaMemcpyDeviceToHost;
	memset(g, 0, 4096);
	is_int(cudaMemcpy3D(&p), cudaSuccess,
	       "cudaMemcpy3D from an array, positions in elements");
	ok(!memcmp(g, h + 100, 36) && !memcmp(g + 36, h, 4) && g[40] == 0,
	   "40 bytes from element 1 of row 2");
	p.dstArray = b;
	is_int(cudaMemcpy3D(&p), cudaErrorInvalidValue,
	       "an end that is both an array and a pointer");
	is_int(cudaFreeArray(NULL), cudaSuccess, "cudaFreeArray(NULL)");
	is_int(cudaFreeArray(a), cudaSuccess, "cudaFreeArray");
	is_int(cudaFreeArray(a), cudaErrorInvalidResourceHandle,
	       "freeing it again");
	cudaFreeArray(b);
	cudaFreeArray(l);
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
	shapes();
	handles();
	copies();
	reset();
	runtime();
	return done_testing();
}
