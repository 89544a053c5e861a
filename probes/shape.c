/* 2D and 3D copies, 2D memsets and CUDA arrays: the checks of
 * cuMemcpy2D(Unaligned/Async), cuMemcpy3D(Peer), cuMemsetD2D*, the
 * cuArray* calls and the array copies (AtoH, HtoA, AtoD, DtoA, AtoA), in
 * the order the driver makes them; what is copied and what is left alone;
 * the sizes and alignments arrays take; descriptor round trips. */
#include "common.h"

/* a case whose call may fault inside the driver prints SIGNAL n */
#define R(label, call) do { \
	int _s = sigsetjmp(g_jmp, 1); \
	if (_s) { \
		P("shape.%s: SIGNAL %d\n", label, _s); \
	} else { \
		g_jmp_armed = 1; \
		CUresult _r = (call); \
		g_jmp_armed = 0; \
		P("shape.%s: %s\n", label, en(_r)); \
	} \
} while (0)

static CUDA_MEMCPY2D c2(void)
{
	CUDA_MEMCPY2D c;
	memset(&c, 0, sizeof c);
	return c;
}

static CUDA_MEMCPY3D c3(void)
{
	CUDA_MEMCPY3D c;
	memset(&c, 0, sizeof c);
	return c;
}

/* A device-to-device 2D copy between a and b with the given pitches. */
static CUDA_MEMCPY2D dd(CUdeviceptr dst, size_t dp, CUdeviceptr src, size_t sp,
			size_t w, size_t h)
{
	CUDA_MEMCPY2D c = c2();
	c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	c.srcDevice = src;
	c.srcPitch = sp;
	c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	c.dstDevice = dst;
	c.dstPitch = dp;
	c.WidthInBytes = w;
	c.Height = h;
	return c;
}

static CUDA_MEMCPY2D hd(CUdeviceptr dst, size_t dp, const void *src, size_t sp,
			size_t w, size_t h)
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

static void attrs(void)
{
	static const int a[] = { 11, 14, 21, 22, 23, 24, 25, 26, 27, 28, 29,
				 30, 42, 43, 45, 46, 51, 52, 53, 54, 55,
				 69, 70, 71, 72, 112, 121 };
	for (unsigned i = 0; i < sizeof a / sizeof *a; i++) {
		int v = -1;
		CUresult r = cuDeviceGetAttribute(&v, a[i], g_dev[0]);
		P("shape.attr.%d: %s %d\n", a[i], en(r), v);
	}
}

/* ------------------------------------------------------------ 2D */

static void copy2d(void)
{
	CUdeviceptr a, b;
	size_t pa = 0, pb;
	unsigned char *h = malloc(64 * KiB), *g = malloc(64 * KiB);
	CUDA_MEMCPY2D c;
	int bad = 0;

	CK(cuMemAllocPitch(&a, &pa, 100, 64, 4));
	P("shape.2d.pitch_100x64: %zu\n", pa);
	CK(cuMemAlloc(&b, 64 * KiB));
	pb = 512;
	for (int i = 0; i < 64 * 1024; i++)
		h[i] = (unsigned char)(i * 7 + 3);

	R("2d.null", cuMemcpy2D(NULL));
	R("2d.unaligned_null", cuMemcpy2DUnaligned(NULL));
	R("2d.async_null", cuMemcpy2DAsync(NULL, 0));

	/* what the copy touches: 100 bytes a row, padding left alone */
	CK(cuMemsetD8(a, 0xee, pa * 64));
	c = hd(a, pa, h, 128, 100, 64);
	R("2d.htod", cuMemcpy2D(&c));
	CK(cuMemcpyDtoH(g, a, pa * 64));
	for (int y = 0; y < 64; y++)
		for (size_t x = 0; x < pa; x++)
			if (g[y * pa + x] != (x < 100 ? h[y * 128 + x] : 0xee))
				bad++;
	P("shape.2d.htod_effect: bad=%d\n", bad);
	memset(g, 0x11, 64 * KiB);
	c = dh(g, 200, a, pa, 100, 64);
	R("2d.dtoh", cuMemcpy2D(&c));
	bad = 0;
	for (int y = 0; y < 64; y++)
		for (int x = 0; x < 200; x++)
			if (g[y * 200 + x] != (x < 100 ? h[y * 128 + x] : 0x11))
				bad++;
	P("shape.2d.dtoh_effect: bad=%d\n", bad);

	/* zero extents, and zero extents with bad arguments */
	c = dd(b, pb, a, pa, 0, 64);
	R("2d.width0", cuMemcpy2D(&c));
	c = dd(b, pb, a, pa, 100, 0);
	R("2d.height0", cuMemcpy2D(&c));
	c = dd(0, 0, 0, 0, 0, 0);
	R("2d.all0_null", cuMemcpy2D(&c));
	c = c2();
	R("2d.zeroed", cuMemcpy2D(&c));
	c = dd(b, pb, a, pa, 0, 4);
	c.srcMemoryType = 0;
	R("2d.width0_badtype", cuMemcpy2D(&c));
	c = dd(b, pb, a, pa, 0, 4);
	c.srcMemoryType = 7;
	R("2d.width0_type7", cuMemcpy2D(&c));
	c = dd(b, 10, a, 10, 100, 0);
	R("2d.height0_width_over_pitch", cuMemcpy2D(&c));
	c = dd(0, pb, 0, pa, 0, 4);
	R("2d.width0_null_ptrs", cuMemcpy2D(&c));
	c = dd(0, pb, 0, pa, 4, 0);
	R("2d.height0_null_ptrs", cuMemcpy2D(&c));

	/* memory types */
	c = dd(b, pb, a, pa, 100, 4);
	c.srcMemoryType = 0;
	R("2d.srctype0", cuMemcpy2D(&c));
	c = dd(b, pb, a, pa, 100, 4);
	c.dstMemoryType = 5;
	R("2d.dsttype5", cuMemcpy2D(&c));
	c = dd(b, pb, a, pa, 100, 4);
	c.srcMemoryType = 0;
	c.dstMemoryType = 5;
	c.WidthInBytes = 1000;
	R("2d.badtype_and_width_over_pitch", cuMemcpy2D(&c));
	c = dd(b, pb, a, pa, 100, 4);
	c.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
	R("2d.src_unified_device", cuMemcpy2D(&c));
	c = hd(b, pb, h, 128, 100, 4);
	c.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
	c.srcDevice = (CUdeviceptr)h;
	c.srcHost = NULL;
	R("2d.src_unified_pageable", cuMemcpy2D(&c));
	c = hd(b, pb, NULL, 128, 100, 4);
	c.srcDevice = a;
	R("2d.host_type_device_field", cuMemcpy2D(&c));
	c = dd(b, pb, 0, pa, 100, 4);
	c.srcHost = (void *)(uintptr_t)a;
	R("2d.device_type_host_field", cuMemcpy2D(&c));
	c = dd(b, pb, a, pa, 100, 4);
	c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
	R("2d.array_type_null_array", cuMemcpy2D(&c));

	/* pitches */
	c = dd(b, pb, a, 64, 100, 4);
	R("2d.src_pitch_lt_width", cuMemcpy2D(&c));
	c = dd(b, 64, a, pa, 100, 4);
	R("2d.dst_pitch_lt_width", cuMemcpy2D(&c));
	c = dd(b, 64, a, 64, 100, 1);
	R("2d.pitch_lt_width_h1", cuMemcpy2D(&c));
	c = dd(b, 0, a, 0, 100, 1);
	R("2d.pitch0_h1", cuMemcpy2D(&c));
	c = dd(b, pb, a, pa, 100, 4);
	c.srcXInBytes = pa - 50;
	R("2d.srcx_plus_width_over_pitch", cuMemcpy2D(&c));
	c = hd(b, pb, h, 128, 100, 4);
	c.srcXInBytes = 100;
	R("2d.host_srcx_plus_width_over_pitch", cuMemcpy2D(&c));
	c = hd(b, pb, h, (size_t)1 << 31, 16, 1);
	R("2d.host_pitch_2g_h1", cuMemcpy2D(&c));
	c = dd(b, pb, a, (size_t)1 << 21, 16, 1);
	R("2d.dev_pitch_2m_h1", cuMemcpy2D(&c));
	c = dd(b, (size_t)1 << 31, a, pa, 16, 1);
	R("2d.dev_dstpitch_2g_h1", cuMemcpy2D(&c));
	c = dd(b, 256, a, pa, 16, 2);
	R("2d.dev_dstpitch_256", cuMemcpy2D(&c));

	/* alignment: cuMemcpy2D against cuMemcpy2DUnaligned */
	{
		static const struct { const char *n; size_t sx, dx, sp, dp, w; } k[] = {
			{ "srcx1", 1, 0, 512, 512, 64 },
			{ "dstx1", 0, 1, 512, 512, 64 },
			{ "srcx2", 2, 0, 512, 512, 64 },
			{ "srcx4", 4, 0, 512, 512, 64 },
			{ "srcx8", 8, 0, 512, 512, 64 },
			{ "srcx16", 16, 0, 512, 512, 64 },
			{ "width3", 0, 0, 512, 512, 3 },
			{ "width1", 0, 0, 512, 512, 1 },
			{ "pitch513", 0, 0, 513, 512, 64 },
			{ "pitch100", 0, 0, 100, 512, 64 },
			{ "pitch260", 0, 0, 260, 512, 64 },
			{ "pitch1", 0, 0, 1, 1, 1 },
			{ "dpitch4", 0, 0, 512, 4, 4 },
			{ "dpitch2", 0, 0, 512, 2, 2 },
			{ "pitch3_w3", 0, 0, 3, 3, 3 },
		};
		char lab[96];
		for (unsigned i = 0; i < sizeof k / sizeof *k; i++) {
			c = dd(b, k[i].dp, b + 16 * KiB, k[i].sp, k[i].w, 4);
			c.srcXInBytes = k[i].sx;
			c.dstXInBytes = k[i].dx;
			snprintf(lab, sizeof lab, "2d.dd_%s", k[i].n);
			R(lab, cuMemcpy2D(&c));
			snprintf(lab, sizeof lab, "2d.dd_%s_unaligned", k[i].n);
			R(lab, cuMemcpy2DUnaligned(&c));
			c.srcMemoryType = CU_MEMORYTYPE_HOST;
			c.srcHost = h;
			c.srcDevice = 0;
			snprintf(lab, sizeof lab, "2d.hd_%s", k[i].n);
			R(lab, cuMemcpy2D(&c));
			c = dd(b, k[i].dp, b + 16 * KiB, k[i].sp, k[i].w, 4);
			c.srcXInBytes = k[i].sx;
			c.dstXInBytes = k[i].dx;
			c.dstMemoryType = CU_MEMORYTYPE_HOST;
			c.dstHost = g;
			c.dstDevice = 0;
			snprintf(lab, sizeof lab, "2d.dh_%s", k[i].n);
			R(lab, cuMemcpy2D(&c));
		}
	}

	/* out of range */
	c = dd(b, 512, a, pa, 100, 64);
	c.srcY = 1;
	R("2d.src_last_row_past_end", cuMemcpy2D(&c));
	c = dd(a, pa, b, 512, 100, 64);
	c.dstY = 1;
	R("2d.dst_last_row_past_end", cuMemcpy2D(&c));
	c = dd(a, pa, b, 512, 100, 64);
	c.dstXInBytes = pa - 100 + 4;
	R("2d.dst_x_into_padding_last_row", cuMemcpy2D(&c));
	c = dd(b, 512, a, pa, 100, 2);
	c.srcY = 62;
	R("2d.src_last_two_rows", cuMemcpy2D(&c));
	c = dd(b, 512, a + 64 * pa, pa, 4, 1);
	R("2d.src_just_past_end", cuMemcpy2D(&c));
	c = hd(b, 512, NULL, 128, 100, 4);
	R("2d.host_null", cuMemcpy2D(&c));
	c = dd(b, 512, 0x1000, 128, 100, 4);
	R("2d.dev_garbage", cuMemcpy2D(&c));
	c = dd(b, 512, (CUdeviceptr)h, 128, 100, 4);
	R("2d.dev_is_pageable", cuMemcpy2D(&c));

	/* overlapping, same allocation */
	CK(cuMemsetD8(b, 0, 64 * KiB));
	c = hd(b, 512, h, 512, 512, 8);
	CK(cuMemcpy2D(&c));
	c = dd(b + 8, 512, b, 512, 256, 8);
	R("2d.overlap", cuMemcpy2D(&c));
	CK(cuMemcpyDtoH(g, b, 4096));
	P("shape.2d.overlap_first: %u %u %u\n", g[8], g[9], g[16]);

	/* async */
	CUstream s;
	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	c = hd(a, pa, h, 128, 100, 64);
	R("2d.async_pageable", cuMemcpy2DAsync(&c, s));
	c = dd(b, 512, a, pa, 100, 64);
	R("2d.async_dd", cuMemcpy2DAsync(&c, s));
	c = dd(b, 512, a, pa, 1000, 64);
	R("2d.async_width_over_pitch", cuMemcpy2DAsync(&c, s));
	R("2d.async_sync", cuStreamSynchronize(s));
	CK(cuStreamDestroy(s));

	/* managed and pinned ends */
	{
		CUdeviceptr m;
		void *ph;
		CK(cuMemAllocManaged(&m, 64 * KiB, CU_MEM_ATTACH_GLOBAL));
		CK(cuMemAllocHost(&ph, 64 * KiB));
		c = hd(m, 512, h, 128, 100, 8);
		R("2d.htom", cuMemcpy2D(&c));
		P("shape.2d.htom_value: %s\n",
		  memcmp((void *)m + 512 * 7, h + 128 * 7, 100) ? "differ" : "equal");
		c = dd(m, 512, 0, 0, 100, 8);
		c.srcMemoryType = CU_MEMORYTYPE_HOST;
		c.srcHost = ph;
		c.srcPitch = 128;
		c.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
		R("2d.pinned_to_managed_unified", cuMemcpy2D(&c));
		c = dh(ph, 128, m, 512, 100, 8);
		c.srcMemoryType = CU_MEMORYTYPE_HOST;
		c.srcHost = (void *)m;
		c.srcDevice = 0;
		R("2d.managed_as_host", cuMemcpy2D(&c));
		c = dd(m, 512, (CUdeviceptr)ph, 128, 100, 8);
		R("2d.pinned_as_device", cuMemcpy2D(&c));
		CK(cuMemFreeHost(ph));
		CK(cuMemFree(m));
	}

	/* memsets */
	CK(cuMemsetD8(a, 0x55, pa * 64));
	R("2d.set8", cuMemsetD2D8(a, pa, 0xab, 100, 64));
	CK(cuMemcpyDtoH(g, a, pa * 64));
	bad = 0;
	for (int y = 0; y < 64; y++)
		for (size_t x = 0; x < pa; x++)
			if (g[y * pa + x] != (x < 100 ? 0xab : 0x55))
				bad++;
	P("shape.2d.set8_effect: bad=%d\n", bad);
	R("2d.set16", cuMemsetD2D16(a, pa, 0xabcd, 50, 64));
	R("2d.set32", cuMemsetD2D32(a, pa, 0xabcdef01, 25, 64));
	CK(cuMemcpyDtoH(g, a, 16));
	P("shape.2d.set32_value: %02x%02x%02x%02x\n", g[0], g[1], g[2], g[3]);
	R("2d.set8_width0", cuMemsetD2D8(a, pa, 1, 0, 64));
	R("2d.set8_height0", cuMemsetD2D8(a, pa, 1, 100, 0));
	R("2d.set8_null_h0", cuMemsetD2D8(0, 0, 1, 100, 0));
	R("2d.set8_null_w0", cuMemsetD2D8(0, 0, 1, 0, 4));
	R("2d.set8_null", cuMemsetD2D8(0, 512, 1, 100, 4));
	R("2d.set8_pitch_lt_width", cuMemsetD2D8(a, 50, 1, 100, 4));
	R("2d.set8_pitch_lt_width_h1", cuMemsetD2D8(a, 50, 1, 100, 1));
	R("2d.set8_pitch0_h1", cuMemsetD2D8(a, 0, 1, 100, 1));
	R("2d.set8_pitch_odd", cuMemsetD2D8(a, 101, 1, 100, 4));
	R("2d.set8_past_end", cuMemsetD2D8(a, pa, 1, 100, 65));
	R("2d.set8_last_row_padding", cuMemsetD2D8(a + 64 * pa - 100, pa, 1, 100, 1));
	R("2d.set8_dst_odd", cuMemsetD2D8(a + 1, pa, 1, 100, 4));
	R("2d.set8_pageable", cuMemsetD2D8((CUdeviceptr)h, 128, 1, 100, 4));
	R("2d.set16_pitch_odd", cuMemsetD2D16(a, 101, 1, 50, 4));
	R("2d.set16_pitch_2mod4", cuMemsetD2D16(a, 102, 1, 50, 4));
	R("2d.set16_dst_odd", cuMemsetD2D16(a + 1, pa, 1, 50, 4));
	R("2d.set16_pitch_lt_width", cuMemsetD2D16(a, 64, 1, 50, 4));
	R("2d.set16_pitch_odd_h1", cuMemsetD2D16(a, 101, 1, 50, 1));
	R("2d.set16_pitch_odd_h0", cuMemsetD2D16(a, 101, 1, 50, 0));
	R("2d.set32_pitch_2mod4", cuMemsetD2D32(a, 102, 1, 25, 4));
	R("2d.set32_dst_2", cuMemsetD2D32(a + 2, pa, 1, 25, 4));
	R("2d.set32_pitch_lt_width", cuMemsetD2D32(a, 64, 1, 25, 4));
	R("2d.set32_pitch_lt_width_w0", cuMemsetD2D32(a, 64, 1, 0, 4));
	R("2d.set32_dst_2_w0", cuMemsetD2D32(a + 2, pa, 1, 0, 4));
	R("2d.set8_async", cuMemsetD2D8Async(a, pa, 2, 100, 64, 0));
	R("2d.set16_async", cuMemsetD2D16Async(a, pa, 2, 50, 64, 0));
	R("2d.set32_async", cuMemsetD2D32Async(a, pa, 2, 25, 64, 0));
	R("2d.set32_async_bad", cuMemsetD2D32Async(a + 2, pa, 2, 25, 64, 0));
	R("2d.set_sync", cuCtxSynchronize());
	{
		CUdeviceptr m;
		CK(cuMemAllocManaged(&m, 64 * KiB, CU_MEM_ATTACH_GLOBAL));
		R("2d.set8_managed", cuMemsetD2D8(m, 512, 0x3c, 100, 8));
		CK(cuCtxSynchronize());
		P("shape.2d.set8_managed_value: %u %u\n",
		  ((unsigned char *)m)[512 * 7 + 99], ((unsigned char *)m)[512 * 7 + 100]);
		CK(cuMemFree(m));
	}

	/* no context */
	CK(cuCtxSetCurrent(NULL));
	c = dd(b, 512, a, pa, 100, 4);
	R("2d.noctx", cuMemcpy2D(&c));
	R("2d.noctx_null", cuMemcpy2D(NULL));
	R("2d.set8_noctx", cuMemsetD2D8(a, pa, 1, 100, 4));
	CK(cuCtxSetCurrent(g_ctx[0]));

	CK(cuMemFree(a));
	CK(cuMemFree(b));
	free(h);
	free(g);
}

/* ------------------------------------------------------------ 3D */

static void copy3d(void)
{
	CUdeviceptr a, b;
	unsigned char *h = malloc(256 * KiB), *g = malloc(256 * KiB);
	CUDA_MEMCPY3D c;
	int bad = 0;

	CK(cuMemAlloc(&a, 256 * KiB));
	CK(cuMemAlloc(&b, 256 * KiB));
	for (int i = 0; i < 256 * 1024; i++)
		h[i] = (unsigned char)(i * 13 + 1);
	R("3d.null", cuMemcpy3D(NULL));
	R("3d.async_null", cuMemcpy3DAsync(NULL, 0));
	R("3d.peer_null", cuMemcpy3DPeer(NULL));

	/* 64 x 8 x 4 box from a 128-pitch 16-row host volume into a 256-pitch
	 * 10-row device volume at (8, 1, 1) */
	CK(cuMemsetD8(a, 0x77, 256 * KiB));
	c = c3();
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
	R("3d.htod", cuMemcpy3D(&c));
	CK(cuMemcpyDtoH(g, a, 256 * 10 * 6));
	for (int z = 0; z < 6; z++)
		for (int y = 0; y < 10; y++)
			for (int x = 0; x < 256; x++) {
				int in = z >= 1 && z < 5 && y >= 1 && y < 9 && x >= 8 && x < 72;
				unsigned char want = in ? h[(z - 1 + 1) * 128 * 16 + (y - 1 + 2) * 128 + (x - 8 + 4)] : 0x77;
				if (g[z * 2560 + y * 256 + x] != want)
					bad++;
			}
	P("shape.3d.htod_effect: bad=%d\n", bad);
	CUDA_MEMCPY3D base = c;
	c = base;
	c.Depth = 0;
	R("3d.depth0", cuMemcpy3D(&c));
	c = base;
	c.Height = 0;
	R("3d.height0", cuMemcpy3D(&c));
	c = base;
	c.WidthInBytes = 0;
	R("3d.width0", cuMemcpy3D(&c));
	c = c3();
	R("3d.zeroed", cuMemcpy3D(&c));
	c = base;
	c.Depth = 0;
	c.srcMemoryType = 0;
	R("3d.depth0_badtype", cuMemcpy3D(&c));
	c = base;
	c.reserved0 = (void *)1;
	R("3d.reserved0", cuMemcpy3D(&c));
	c = base;
	c.reserved1 = (void *)1;
	R("3d.reserved1", cuMemcpy3D(&c));
	c = base;
	c.srcLOD = 1;
	R("3d.srclod1", cuMemcpy3D(&c));
	c = base;
	c.dstLOD = 1;
	R("3d.dstlod1", cuMemcpy3D(&c));
	c = base;
	c.srcHeight = 4;
	R("3d.srcheight_lt_height", cuMemcpy3D(&c));
	c = base;
	c.dstHeight = 4;
	R("3d.dstheight_lt_height", cuMemcpy3D(&c));
	c = base;
	c.dstHeight = 4;
	c.Depth = 1;
	R("3d.dstheight_lt_height_d1", cuMemcpy3D(&c));
	c = base;
	c.srcHeight = 0;
	c.Depth = 1;
	R("3d.srcheight0_d1", cuMemcpy3D(&c));
	c = base;
	c.srcHeight = 0;
	R("3d.srcheight0", cuMemcpy3D(&c));
	c = base;
	c.dstY = 3;
	R("3d.dsty_plus_height_over_dstheight", cuMemcpy3D(&c));
	c = base;
	c.srcPitch = 32;
	R("3d.srcpitch_lt_width", cuMemcpy3D(&c));
	c = base;
	c.dstPitch = 32;
	R("3d.dstpitch_lt_width", cuMemcpy3D(&c));
	c = base;
	c.dstZ = 100;
	R("3d.dst_past_end", cuMemcpy3D(&c));
	c = base;
	c.srcMemoryType = 9;
	R("3d.badtype", cuMemcpy3D(&c));
	c = base;
	c.dstXInBytes = 1;
	R("3d.dstx1", cuMemcpy3D(&c));
	c = base;
	c.dstPitch = 257;
	R("3d.dstpitch257", cuMemcpy3D(&c));

	/* device to device and back */
	c = c3();
	c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	c.srcDevice = a;
	c.srcPitch = 256;
	c.srcHeight = 10;
	c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	c.dstDevice = b;
	c.dstPitch = 512;
	c.dstHeight = 12;
	c.WidthInBytes = 256;
	c.Height = 10;
	c.Depth = 6;
	R("3d.dtod", cuMemcpy3D(&c));
	c.dstMemoryType = CU_MEMORYTYPE_HOST;
	c.dstHost = g;
	c.srcDevice = b;
	c.srcPitch = 512;
	c.srcHeight = 12;
	c.dstPitch = 256;
	c.dstHeight = 10;
	memset(g, 0, 256 * KiB);
	R("3d.dtoh", cuMemcpy3D(&c));
	R("3d.async", cuMemcpy3DAsync(&c, 0));
	CK(cuCtxSynchronize());
	{
		unsigned char *g2 = malloc(256 * 10 * 6);
		CK(cuMemcpyDtoH(g2, a, 256 * 10 * 6));
		P("shape.3d.roundtrip: %s\n", memcmp(g, g2, 256 * 10 * 6) ? "differ" : "equal");
		free(g2);
	}

	/* peer forms with this device at both ends */
	CUDA_MEMCPY3D_PEER p;
	memset(&p, 0, sizeof p);
	p.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	p.srcDevice = a;
	p.srcPitch = 256;
	p.srcHeight = 10;
	p.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	p.dstDevice = b;
	p.dstPitch = 256;
	p.dstHeight = 10;
	p.WidthInBytes = 256;
	p.Height = 10;
	p.Depth = 2;
	p.srcContext = g_ctx[0];
	p.dstContext = g_ctx[0];
	R("3d.peer", cuMemcpy3DPeer(&p));
	p.srcContext = p.dstContext = NULL;
	R("3d.peer_null_ctx", cuMemcpy3DPeer(&p));
	R("3d.peer_async_null_ctx", cuMemcpy3DPeerAsync(&p, 0));
	p.srcMemoryType = CU_MEMORYTYPE_HOST;
	p.srcHost = h;
	p.srcDevice = 0;
	p.srcContext = g_ctx[0];
	p.dstContext = g_ctx[0];
	R("3d.peer_host_src", cuMemcpy3DPeer(&p));
	p.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	p.srcDevice = a;
	p.srcHost = NULL;
	p.Depth = 0;
	R("3d.peer_depth0", cuMemcpy3DPeer(&p));
	p.Depth = 2;
	p.srcPitch = 10;
	R("3d.peer_pitch_lt_width", cuMemcpy3DPeer(&p));
	CK(cuCtxSynchronize());

	CK(cuCtxSetCurrent(NULL));
	R("3d.noctx", cuMemcpy3D(&base));
	CK(cuCtxSetCurrent(g_ctx[0]));
	CK(cuMemFree(a));
	CK(cuMemFree(b));
	free(h);
	free(g);
}

/* ------------------------------------------------------------ arrays */

static const char *fmt_name(int f)
{
	static char b[16];
	snprintf(b, sizeof b, "0x%02x", f);
	return b + 2;
}

static void print_desc3(const char *label, CUarray arr)
{
	CUDA_ARRAY3D_DESCRIPTOR d;
	memset(&d, 0xa5, sizeof d);
	CUresult r = cuArray3DGetDescriptor(&d, arr);
	P("shape.%s: %s w=%zu h=%zu d=%zu f=%d n=%u flags=%u\n", label, en(r),
	  d.Width, d.Height, d.Depth, (int)d.Format, d.NumChannels, d.Flags);
}

static void print_desc2(const char *label, CUarray arr)
{
	CUDA_ARRAY_DESCRIPTOR d;
	memset(&d, 0xa5, sizeof d);
	CUresult r = cuArrayGetDescriptor(&d, arr);
	P("shape.%s: %s w=%zu h=%zu f=%d n=%u\n", label, en(r), d.Width,
	  d.Height, (int)d.Format, d.NumChannels);
}

static void print_req(const char *label, CUarray arr)
{
	CUDA_ARRAY_MEMORY_REQUIREMENTS m;
	memset(&m, 0, sizeof m);
	CUresult r = cuArrayGetMemoryRequirements(&m, arr, g_dev[0]);
	P("shape.%s: %s size=%zu align=%zu\n", label, en(r), m.size, m.alignment);
}

/* size and alignment of one 3D shape; free memory it takes */
static void req3(const char *label, size_t w, size_t h, size_t dp, int f, unsigned n,
		 unsigned flags)
{
	CUDA_ARRAY3D_DESCRIPTOR d = { w, h, dp, f, n, flags };
	CUarray arr = NULL;
	size_t f0, f1, t;
	char lab[96];

	CK(cuMemGetInfo(&f0, &t));
	CUresult r = cuArray3DCreate(&arr, &d);
	CK(cuMemGetInfo(&f1, &t));
	P("shape.%s: %s freed=%lld\n", label, en(r), (long long)(f0 - f1));
	if (r)
		return;
	snprintf(lab, sizeof lab, "%s.req", label);
	print_req(lab, arr);
	CK(cuArrayDestroy(arr));
}

static void arrays(void)
{
	CUarray arr = NULL, b2 = NULL;
	CUDA_ARRAY_DESCRIPTOR d2;
	CUDA_ARRAY3D_DESCRIPTOR d3;
	char lab[96];
	CUresult r;

	/* formats and channels */
	static const int fmts[] = { 0, 1, 2, 3, 4, 7, 8, 9, 10, 11, 0x10, 0x20,
				    0x50, 0x91, 0x97, 0x9b, 0xa5, 0xb0, 0xc0,
				    0xc1, 0xc2, 0xc5, 0xcb };
	for (unsigned i = 0; i < sizeof fmts / sizeof *fmts; i++)
		for (unsigned n = 0; n <= 5; n++) {
			d2.Width = 64;
			d2.Height = 64;
			d2.Format = fmts[i];
			d2.NumChannels = n;
			arr = NULL;
			r = cuArrayCreate(&arr, &d2);
			P("shape.array.fmt_%s_n%u: %s\n", fmt_name(fmts[i]), n, en(r));
			if (!r) {
				snprintf(lab, sizeof lab, "array.fmt_%s_n%u.desc",
					 fmt_name(fmts[i]), n);
				print_desc2(lab, arr);
				snprintf(lab, sizeof lab, "array.fmt_%s_n%u.req",
					 fmt_name(fmts[i]), n);
				print_req(lab, arr);
				CK(cuArrayDestroy(arr));
			}
		}

	/* extents */
	static const struct { const char *n; size_t w, h; } ext[] = {
		{ "w0", 0, 16 }, { "h0", 16, 0 }, { "w0h0", 0, 0 },
		{ "w131072_1d", 131072, 0 }, { "w131073_1d", 131073, 0 },
		{ "w1m_1d", 1 << 20, 0 }, { "w1m_plus_1d", (1 << 20) + 1, 0 },
		{ "w268m_1d", 1 << 28, 0 },
		{ "w131072_h1", 131072, 1 }, { "w131073_h1", 131073, 1 },
		{ "h65536", 16, 65536 }, { "h65537", 16, 65537 },
		{ "h131072", 16, 131072 },
		{ "w1_h1", 1, 1 }, { "w3_h5", 3, 5 },
	};
	for (unsigned i = 0; i < sizeof ext / sizeof *ext; i++) {
		d2.Width = ext[i].w;
		d2.Height = ext[i].h;
		d2.Format = CU_AD_FORMAT_UNSIGNED_INT8;
		d2.NumChannels = 1;
		arr = NULL;
		r = cuArrayCreate(&arr, &d2);
		P("shape.array.ext_%s: %s\n", ext[i].n, en(r));
		if (!r)
			CK(cuArrayDestroy(arr));
	}
	R("array.create_null_desc", cuArrayCreate(&arr, NULL));
	d2.Width = 16; d2.Height = 16; d2.Format = 1; d2.NumChannels = 1;
	R("array.create_null_handle", cuArrayCreate(NULL, &d2));
	R("array.create3d_null_desc", cuArray3DCreate(&arr, NULL));

	/* 3D: flags and extents */
	static const struct { const char *n; size_t w, h, d; unsigned fl; } e3[] = {
		{ "plain", 32, 32, 32, 0 },
		{ "d0", 32, 32, 0, 0 },
		{ "h0d0", 32, 0, 0, 0 },
		{ "h0d4", 32, 0, 4, 0 },
		{ "w0", 0, 32, 32, 0 },
		{ "layered", 32, 32, 4, 1 },
		{ "layered_d0", 32, 32, 0, 1 },
		{ "layered_1d", 32, 0, 4, 1 },
		{ "surface", 32, 32, 32, 2 },
		{ "cubemap", 32, 32, 6, 4 },
		{ "cubemap_d5", 32, 32, 5, 4 },
		{ "cubemap_w_ne_h", 32, 16, 6, 4 },
		{ "cubemap_layered", 32, 32, 12, 5 },
		{ "cubemap_layered_d7", 32, 32, 7, 5 },
		{ "gather_2d", 32, 32, 0, 8 },
		{ "gather_3d", 32, 32, 32, 8 },
		{ "depth_tex", 32, 32, 0, 0x10 },
		{ "color_att", 32, 32, 0, 0x20 },
		{ "sparse", 32, 32, 0, 0x40 },
		{ "deferred", 32, 32, 0, 0x80 },
		{ "video", 32, 32, 0, 0x100 },
		{ "flag200", 32, 32, 0, 0x200 },
		{ "flag10000", 32, 32, 0, 0x10000 },
		{ "d2048", 16, 16, 2048, 0 },
		{ "d16384", 16, 16, 16384, 0 },
		{ "d16385", 16, 16, 16385, 0 },
		{ "w16384_3d", 16384, 16, 16, 0 },
		{ "w16385_3d", 16385, 16, 16, 0 },
		{ "layers2048", 16, 16, 2048, 1 },
		{ "layers2049", 16, 16, 2049, 1 },
	};
	for (unsigned i = 0; i < sizeof e3 / sizeof *e3; i++) {
		d3.Width = e3[i].w;
		d3.Height = e3[i].h;
		d3.Depth = e3[i].d;
		d3.Format = CU_AD_FORMAT_FLOAT;
		d3.NumChannels = 1;
		d3.Flags = e3[i].fl;
		arr = NULL;
		r = cuArray3DCreate(&arr, &d3);
		P("shape.array3d.%s: %s\n", e3[i].n, en(r));
		if (!r) {
			snprintf(lab, sizeof lab, "array3d.%s.desc3", e3[i].n);
			print_desc3(lab, arr);
			snprintf(lab, sizeof lab, "array3d.%s.desc2", e3[i].n);
			print_desc2(lab, arr);
			snprintf(lab, sizeof lab, "array3d.%s.req", e3[i].n);
			print_req(lab, arr);
			CUDA_ARRAY_SPARSE_PROPERTIES sp;
			memset(&sp, 0xa5, sizeof sp);
			r = cuArrayGetSparseProperties(&sp, arr);
			P("shape.array3d.%s.sparse: %s tile=%u,%u,%u miptail=%u,%llu flags=%u\n",
			  e3[i].n, en(r), sp.tileExtent.width, sp.tileExtent.height,
			  sp.tileExtent.depth, sp.miptailFirstLevel,
			  (unsigned long long)sp.miptailSize, sp.flags);
			CK(cuArrayDestroy(arr));
		}
	}

	/* sizes the driver takes */
	req3("size.u8_1x1", 1, 1, 0, 1, 1, 0);
	req3("size.u8_1d_1", 1, 0, 0, 1, 1, 0);
	req3("size.u8_1d_1000", 1000, 0, 0, 1, 1, 0);
	req3("size.u8_1d_65536", 65536, 0, 0, 1, 1, 0);
	req3("size.u8_100x100", 100, 100, 0, 1, 1, 0);
	req3("size.u8x4_100x100", 100, 100, 0, 1, 4, 0);
	req3("size.f32_1024x1024", 1024, 1024, 0, 0x20, 1, 0);
	req3("size.f32x4_1024x1024", 1024, 1024, 0, 0x20, 4, 0);
	req3("size.f32x4_2048x2048", 2048, 2048, 0, 0x20, 4, 0);
	req3("size.u16x2_333x77", 333, 77, 0, 2, 2, 0);
	req3("size.u8_64x64x64", 64, 64, 64, 1, 1, 0);
	req3("size.f32_100x100x10", 100, 100, 10, 0x20, 1, 0);
	req3("size.f32_100x100x10_layered", 100, 100, 10, 0x20, 1, 1);
	req3("size.f32_256x256_surface", 256, 256, 0, 0x20, 1, 2);
	req3("size.u8_4096x4096", 4096, 4096, 0, 1, 1, 0);
	req3("size.u8_16x16", 16, 16, 0, 1, 1, 0);

	/* handles */
	d2.Width = 64; d2.Height = 32; d2.Format = CU_AD_FORMAT_UNSIGNED_INT16;
	d2.NumChannels = 2;
	CK(cuArrayCreate(&arr, &d2));
	print_desc2("array.desc2_roundtrip", arr);
	print_desc3("array.desc3_of_2d", arr);
	R("array.getdesc_null", cuArrayGetDescriptor(NULL, arr));
	R("array.getdesc3_null", cuArray3DGetDescriptor(NULL, arr));
	{
		CUDA_ARRAY_DESCRIPTOR x;
		R("array.getdesc_null_array", cuArrayGetDescriptor(&x, NULL));
	}
	{
		CUDA_ARRAY_MEMORY_REQUIREMENTS m;
		R("array.req_null", cuArrayGetMemoryRequirements(NULL, arr, g_dev[0]));
		R("array.req_null_array", cuArrayGetMemoryRequirements(&m, NULL, g_dev[0]));
		R("array.req_dev99", cuArrayGetMemoryRequirements(&m, arr, 99));
		R("array.req_dev_minus1", cuArrayGetMemoryRequirements(&m, arr, -1));
	}
	{
		CUDA_ARRAY_SPARSE_PROPERTIES sp;
		R("array.sparse_null", cuArrayGetSparseProperties(NULL, arr));
		R("array.sparse_null_array", cuArrayGetSparseProperties(&sp, NULL));
	}
	{
		CUarray pl = (CUarray)1;
		r = cuArrayGetPlane(&pl, arr, 0);
		P("shape.array.plane0_nonplanar: %s same=%d\n", en(r), pl == arr);
		R("array.plane1_nonplanar", cuArrayGetPlane(&pl, arr, 1));
		R("array.plane_null", cuArrayGetPlane(NULL, arr, 0));
		R("array.plane_null_array", cuArrayGetPlane(&pl, NULL, 0));
	}
	{
		CUDA_ARRAY_DESCRIPTOR nd = { 64, 64, CU_AD_FORMAT_NV12, 1 };
		CUarray nv = NULL, pl = NULL;
		r = cuArrayCreate(&nv, &nd);
		P("shape.array.nv12: %s\n", en(r));
		if (!r) {
			print_desc3("array.nv12.desc3", nv);
			print_req("array.nv12.req", nv);
			for (unsigned k = 0; k < 3; k++) {
				pl = NULL;
				r = cuArrayGetPlane(&pl, nv, k);
				snprintf(lab, sizeof lab, "array.nv12.plane%u", k);
				P("shape.%s: %s\n", lab, en(r));
				if (!r) {
					snprintf(lab, sizeof lab, "array.nv12.plane%u.desc3", k);
					print_desc3(lab, pl);
				}
			}
			CK(cuArrayDestroy(nv));
		}
	}

	/* copies: 1D forms on a 1D array */
	unsigned char *h = malloc(64 * KiB), *g = malloc(64 * KiB);
	for (int i = 0; i < 64 * 1024; i++)
		h[i] = (unsigned char)(i * 5 + 9);
	CUarray a1;
	d2.Width = 1024; d2.Height = 0; d2.Format = CU_AD_FORMAT_FLOAT;
	d2.NumChannels = 1;
	CK(cuArrayCreate(&a1, &d2));
	R("acopy.htoa", cuMemcpyHtoA(a1, 0, h, 4096));
	R("acopy.htoa_off", cuMemcpyHtoA(a1, 16, h, 4080));
	R("acopy.htoa_past_end", cuMemcpyHtoA(a1, 16, h, 4096));
	R("acopy.htoa_off_odd", cuMemcpyHtoA(a1, 1, h, 4));
	R("acopy.htoa_off2", cuMemcpyHtoA(a1, 2, h, 4));
	R("acopy.htoa_count_odd", cuMemcpyHtoA(a1, 0, h, 3));
	R("acopy.htoa_count0", cuMemcpyHtoA(a1, 0, h, 0));
	R("acopy.htoa_count0_null", cuMemcpyHtoA(NULL, 0, NULL, 0));
	R("acopy.htoa_null_array", cuMemcpyHtoA(NULL, 0, h, 4));
	R("acopy.htoa_null_src", cuMemcpyHtoA(a1, 0, NULL, 4));
	memset(g, 0, 4096);
	R("acopy.atoh", cuMemcpyAtoH(g, a1, 0, 4096));
	P("shape.acopy.atoh_value: %s\n",
	  memcmp(g, h, 16) == 0 && memcmp(g + 16, h, 4080) == 0 ? "equal" : "differ");
	R("acopy.atoh_past_end", cuMemcpyAtoH(g, a1, 4, 4096));
	R("acopy.atoh_off_odd", cuMemcpyAtoH(g, a1, 3, 4));
	R("acopy.atoh_count_odd", cuMemcpyAtoH(g, a1, 0, 5));
	{
		CUdeviceptr dv;
		CK(cuMemAlloc(&dv, 64 * KiB));
		CK(cuMemsetD8(dv, 0, 64 * KiB));
		R("acopy.atod", cuMemcpyAtoD(dv, a1, 0, 4096));
		R("acopy.atod_past_end", cuMemcpyAtoD(dv, a1, 8, 4096));
		R("acopy.atod_dst_odd", cuMemcpyAtoD(dv + 1, a1, 0, 16));
		R("acopy.atod_count_odd", cuMemcpyAtoD(dv, a1, 0, 6));
		R("acopy.atod_dst_past_end", cuMemcpyAtoD(dv + 64 * KiB - 8, a1, 0, 16));
		R("acopy.atod_dst_pageable", cuMemcpyAtoD((CUdeviceptr)g, a1, 0, 16));
		R("acopy.dtoa", cuMemcpyDtoA(a1, 64, dv, 1024));
		R("acopy.dtoa_src_odd", cuMemcpyDtoA(a1, 0, dv + 1, 16));
		R("acopy.dtoa_past_end", cuMemcpyDtoA(a1, 64, dv, 4096));
		CUarray a2;
		CK(cuArrayCreate(&a2, &d2));
		R("acopy.atoa", cuMemcpyAtoA(a2, 0, a1, 0, 4096));
		R("acopy.atoa_off", cuMemcpyAtoA(a2, 8, a1, 4, 1024));
		R("acopy.atoa_past_end", cuMemcpyAtoA(a2, 8, a1, 0, 4096));
		R("acopy.atoa_odd", cuMemcpyAtoA(a2, 1, a1, 0, 8));
		R("acopy.atoa_count_odd", cuMemcpyAtoA(a2, 0, a1, 0, 7));
		R("acopy.atoa_same", cuMemcpyAtoA(a1, 0, a1, 64, 1024));
		memset(g, 0, 4096);
		CK(cuMemcpyAtoH(g, a2, 0, 4096));
		P("shape.acopy.atoa_value: %s\n",
		  memcmp(g + 8, h + 4, 8) == 0 ? "equal" : "differ");
		/* other formats: element size 16 */
		CUarray a4;
		CUDA_ARRAY_DESCRIPTOR d4 = { 256, 0, CU_AD_FORMAT_FLOAT, 4 };
		CK(cuArrayCreate(&a4, &d4));
		R("acopy.f32x4_off4", cuMemcpyHtoA(a4, 4, h, 16));
		R("acopy.f32x4_off16", cuMemcpyHtoA(a4, 16, h, 16));
		R("acopy.f32x4_count4", cuMemcpyHtoA(a4, 0, h, 4));
		R("acopy.f32x4_count20", cuMemcpyHtoA(a4, 0, h, 20));
		CK(cuArrayDestroy(a4));
		/* 1D copies on a 2D array */
		CUarray a2d;
		CUDA_ARRAY_DESCRIPTOR dd2 = { 64, 16, CU_AD_FORMAT_UNSIGNED_INT8, 1 };
		CK(cuArrayCreate(&a2d, &dd2));
		R("acopy.htoa_2d_row", cuMemcpyHtoA(a2d, 0, h, 64));
		R("acopy.htoa_2d_two_rows", cuMemcpyHtoA(a2d, 0, h, 128));
		R("acopy.htoa_2d_all", cuMemcpyHtoA(a2d, 0, h, 1024));
		R("acopy.htoa_2d_off_row1", cuMemcpyHtoA(a2d, 64, h, 64));
		R("acopy.atoh_2d_two_rows", cuMemcpyAtoH(g, a2d, 0, 128));
		R("acopy.atod_2d_two_rows", cuMemcpyAtoD(dv, a2d, 0, 128));
		R("acopy.atoa_2d_1d", cuMemcpyAtoA(a1, 0, a2d, 0, 64));

		/* 2D copies with array ends */
		CUDA_MEMCPY2D c = c2();
		c.srcMemoryType = CU_MEMORYTYPE_HOST;
		c.srcHost = h;
		c.srcPitch = 100;
		c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
		c.dstArray = a2d;
		c.WidthInBytes = 64;
		c.Height = 16;
		R("acopy.2d_htoa", cuMemcpy2D(&c));
		memset(g, 0, 2048);
		CUDA_MEMCPY2D back = c2();
		back.srcMemoryType = CU_MEMORYTYPE_ARRAY;
		back.srcArray = a2d;
		back.dstMemoryType = CU_MEMORYTYPE_HOST;
		back.dstHost = g;
		back.dstPitch = 64;
		back.WidthInBytes = 64;
		back.Height = 16;
		R("acopy.2d_atoh", cuMemcpy2D(&back));
		int bad = 0;
		for (int y = 0; y < 16; y++)
			if (memcmp(g + y * 64, h + y * 100, 64))
				bad++;
		P("shape.acopy.2d_roundtrip: bad_rows=%d\n", bad);
		/* the 1D view of a 2D array: row-major */
		memset(g, 0, 2048);
		R("acopy.atoh_2d_linear", cuMemcpyAtoH(g, a2d, 64, 64));
		P("shape.acopy.atoh_2d_linear_value: %s\n",
		  memcmp(g, h + 100, 64) ? "differ" : "row1");
		c.WidthInBytes = 65;
		R("acopy.2d_htoa_width_over", cuMemcpy2D(&c));
		c.WidthInBytes = 64;
		c.Height = 17;
		R("acopy.2d_htoa_height_over", cuMemcpy2D(&c));
		c.Height = 16;
		c.dstXInBytes = 1;
		c.WidthInBytes = 63;
		R("acopy.2d_htoa_x1", cuMemcpy2D(&c));
		c.dstXInBytes = 0;
		c.WidthInBytes = 64;
		c.dstY = 1;
		R("acopy.2d_htoa_y1_over", cuMemcpy2D(&c));
		c.dstY = 0;
		c.dstPitch = 3;
		R("acopy.2d_htoa_pitch_ignored", cuMemcpy2D(&c));
		c.dstArray = NULL;
		R("acopy.2d_htoa_null_array", cuMemcpy2D(&c));
		c.dstArray = a2d;
		c.srcPitch = 10;
		R("acopy.2d_htoa_srcpitch_lt_width", cuMemcpy2D(&c));
		c.srcPitch = 100;
		c.WidthInBytes = 0;
		c.dstArray = NULL;
		R("acopy.2d_htoa_width0_null_array", cuMemcpy2D(&c));
		/* element alignment in 2D on a 4-byte format */
		CUarray af;
		CUDA_ARRAY_DESCRIPTOR df = { 16, 16, CU_AD_FORMAT_FLOAT, 1 };
		CK(cuArrayCreate(&af, &df));
		c = c2();
		c.srcMemoryType = CU_MEMORYTYPE_HOST;
		c.srcHost = h;
		c.srcPitch = 64;
		c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
		c.dstArray = af;
		c.WidthInBytes = 64;
		c.Height = 16;
		R("acopy.2d_f32", cuMemcpy2D(&c));
		c.WidthInBytes = 62;
		R("acopy.2d_f32_width62", cuMemcpy2D(&c));
		c.WidthInBytes = 60;
		c.dstXInBytes = 2;
		R("acopy.2d_f32_x2", cuMemcpy2D(&c));
		c.dstXInBytes = 4;
		R("acopy.2d_f32_x4", cuMemcpy2D(&c));
		R("acopy.2d_f32_x4_unaligned", cuMemcpy2DUnaligned(&c));
		c.dstXInBytes = 2;
		R("acopy.2d_f32_x2_unaligned", cuMemcpy2DUnaligned(&c));
		/* array to array and array to device in 2D */
		CUarray ag;
		CK(cuArrayCreate(&ag, &df));
		c = c2();
		c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
		c.srcArray = af;
		c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
		c.dstArray = ag;
		c.WidthInBytes = 64;
		c.Height = 16;
		R("acopy.2d_atoa", cuMemcpy2D(&c));
		c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
		c.dstDevice = dv;
		c.dstPitch = 512;
		R("acopy.2d_atod", cuMemcpy2D(&c));
		c.dstPitch = 100;
		R("acopy.2d_atod_pitch100", cuMemcpy2D(&c));
		R("acopy.2d_atod_pitch100_unaligned", cuMemcpy2DUnaligned(&c));
		c.dstPitch = 128;
		c.dstXInBytes = 1;
		R("acopy.2d_atod_dstx1", cuMemcpy2D(&c));
		R("acopy.2d_async_atod", cuMemcpy2DAsync(&c, 0));
		CK(cuCtxSynchronize());

		/* 3D with arrays */
		CUarray a3;
		CUDA_ARRAY3D_DESCRIPTOR d33 = { 16, 8, 4, CU_AD_FORMAT_UNSIGNED_INT8, 2, 0 };
		CK(cuArray3DCreate(&a3, &d33));
		CUDA_MEMCPY3D c3d = c3();
		c3d.srcMemoryType = CU_MEMORYTYPE_HOST;
		c3d.srcHost = h;
		c3d.srcPitch = 40;
		c3d.srcHeight = 9;
		c3d.dstMemoryType = CU_MEMORYTYPE_ARRAY;
		c3d.dstArray = a3;
		c3d.WidthInBytes = 32;
		c3d.Height = 8;
		c3d.Depth = 4;
		R("acopy.3d_htoa", cuMemcpy3D(&c3d));
		CUDA_MEMCPY3D b3 = c3();
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
		R("acopy.3d_atoh", cuMemcpy3D(&b3));
		bad = 0;
		for (int z = 0; z < 4; z++)
			for (int y = 0; y < 8; y++)
				if (memcmp(g + z * 256 + y * 32, h + z * 360 + y * 40, 32))
					bad++;
		P("shape.acopy.3d_roundtrip: bad_rows=%d\n", bad);
		c3d.Depth = 5;
		R("acopy.3d_htoa_depth_over", cuMemcpy3D(&c3d));
		c3d.Depth = 4;
		c3d.dstZ = 1;
		R("acopy.3d_htoa_z1_over", cuMemcpy3D(&c3d));
		c3d.dstZ = 0;
		c3d.dstXInBytes = 1;
		c3d.WidthInBytes = 30;
		R("acopy.3d_htoa_x1", cuMemcpy3D(&c3d));
		c3d.dstXInBytes = 2;
		R("acopy.3d_htoa_x2", cuMemcpy3D(&c3d));
		c3d.dstXInBytes = 0;
		c3d.WidthInBytes = 32;
		c3d.srcHeight = 4;
		R("acopy.3d_htoa_srcheight_lt", cuMemcpy3D(&c3d));
		c3d.srcHeight = 9;
		c3d.dstHeight = 1;
		c3d.dstPitch = 1;
		R("acopy.3d_htoa_dst_pitch_height_ignored", cuMemcpy3D(&c3d));
		/* a 2D copy into one layer of a 3D array */
		c = c2();
		c.srcMemoryType = CU_MEMORYTYPE_HOST;
		c.srcHost = h;
		c.srcPitch = 32;
		c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
		c.dstArray = a3;
		c.WidthInBytes = 32;
		c.Height = 8;
		R("acopy.2d_into_3d", cuMemcpy2D(&c));
		c.Height = 32;
		R("acopy.2d_into_3d_all_layers", cuMemcpy2D(&c));
		R("acopy.htoa_3d", cuMemcpyHtoA(a3, 0, h, 32));

		/* async forms */
		CUstream s;
		CK(cuStreamCreate(&s, 0));
		R("acopy.htoa_async", cuMemcpyHtoAAsync(a1, 0, h, 4096, s));
		R("acopy.atoh_async", cuMemcpyAtoHAsync(g, a1, 0, 4096, s));
		R("acopy.htoa_async_past_end", cuMemcpyHtoAAsync(a1, 4, h, 4096, s));
		R("acopy.async_sync", cuStreamSynchronize(s));
		CK(cuStreamDestroy(s));

		/* memory info across destroy */
		size_t f0, f1, t;
		CK(cuMemGetInfo(&f0, &t));
		CK(cuArrayDestroy(a3));
		CK(cuMemGetInfo(&f1, &t));
		P("shape.array.destroy_gives_back: %lld\n", (long long)(f1 - f0));
		CK(cuArrayDestroy(ag));
		CK(cuArrayDestroy(af));
		CK(cuArrayDestroy(a2d));
		CK(cuArrayDestroy(a2));
		CK(cuMemFree(dv));
	}
	CK(cuArrayDestroy(a1));
	R("array.destroy_null", cuArrayDestroy(NULL));

	/* no context */
	CK(cuCtxSetCurrent(NULL));
	d2.Width = 16; d2.Height = 16; d2.Format = 1; d2.NumChannels = 1;
	R("array.create_noctx", cuArrayCreate(&b2, &d2));
	R("array.create_noctx_null_desc", cuArrayCreate(&b2, NULL));
	CK(cuCtxSetCurrent(g_ctx[0]));
	CK(cuArrayCreate(&b2, &d2));
	CK(cuCtxSetCurrent(NULL));
	print_desc2("array.getdesc_noctx", b2);
	print_req("array.req_noctx", b2);
	R("array.destroy_noctx", cuArrayDestroy(b2));
	CK(cuCtxSetCurrent(g_ctx[0]));
	free(h);
	free(g);
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	setup("shape");
	attrs();
	copy2d();
	copy3d();
	arrays();
	teardown("shape");
	return 0;
}
