/* cuMemcpy3DBatchAsync (both symbols) on the real driver: what a batch of
 * 3D copies checks and does, and a few cases of the 2D/3D family that
 * shape.c left open (the 32-bit entry points, a copy into a deferred-mapping
 * array, a 3D copy whose source height is 0). CUDA 12.8's form, which
 * answers the failing index, is found by name in libcuda. */
#include "common.h"
#include <dlfcn.h>

#define R(label, call) do { \
	int _s = sigsetjmp(g_jmp, 1); \
	if (_s) { \
		P("batch3d.%s: SIGNAL %d\n", label, _s); \
	} else { \
		g_jmp_armed = 1; \
		CUresult _r = (call); \
		g_jmp_armed = 0; \
		P("batch3d.%s: %s\n", label, en(_r)); \
	} \
} while (0)

typedef CUresult (*batch_v1_t)(size_t, CUDA_MEMCPY3D_BATCH_OP *, size_t *,
			       unsigned long long, CUstream);

static CUDA_MEMCPY3D_BATCH_OP ptr_op(CUdeviceptr dst, CUdeviceptr src,
				     size_t w, size_t h, size_t d)
{
	CUDA_MEMCPY3D_BATCH_OP o;
	memset(&o, 0, sizeof o);
	o.src.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
	o.src.op.ptr.ptr = src;
	o.dst.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
	o.dst.op.ptr.ptr = dst;
	o.extent.width = w;
	o.extent.height = h;
	o.extent.depth = d;
	o.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
	return o;
}

int main(void)
{
	void *lib;
	batch_v1_t v1;
	CUdeviceptr a, b;
	CUstream s;
	CUDA_MEMCPY3D_BATCH_OP o[2];
	unsigned char *h = malloc(64 * KiB), *g = malloc(64 * KiB);
	size_t fi;

	setup("batch3d");
	lib = dlopen("libcuda.so.1", RTLD_NOW);
	v1 = lib ? (batch_v1_t)dlsym(lib, "cuMemcpy3DBatchAsync") : NULL;
	P("batch3d.v1_symbol: %s\n", v1 ? "found" : "missing");
	for (int i = 0; i < 64 * 1024; i++)
		h[i] = (unsigned char)(i * 7 + 3);
	CK(cuMemAlloc(&a, 64 * KiB));
	CK(cuMemAlloc(&b, 64 * KiB));
	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CK(cuMemcpyHtoD(a, h, 64 * KiB));
	CK(cuMemsetD8(b, 0, 64 * KiB));

	/* a tight 64x4x2 box device to device */
	o[0] = ptr_op(b, a, 64, 4, 2);
	R("dd", cuMemcpy3DBatchAsync(1, o, 0, s));
	CK(cuStreamSynchronize(s));
	CK(cuMemcpyDtoH(g, b, 1024));
	P("batch3d.dd_effect: %s\n", memcmp(g, h, 512) ? "differ" : "equal");
	/* pitched: rows of 100 in src, 128 in dst, layers of 5 rows */
	CK(cuMemsetD8(b, 0, 64 * KiB));
	o[0] = ptr_op(b, a, 64, 4, 2);
	o[0].src.op.ptr.rowLength = 100;
	o[0].src.op.ptr.layerHeight = 5;
	o[0].dst.op.ptr.rowLength = 128;
	R("dd_pitched", cuMemcpy3DBatchAsync(1, o, 0, s));
	CK(cuStreamSynchronize(s));
	CK(cuMemcpyDtoH(g, b, 4096));
	P("batch3d.dd_pitched_effect: row1=%s slice1row0=%s pad=%u\n",
	  memcmp(g + 128, h + 100, 64) ? "differ" : "equal",
	  memcmp(g + 512, h + 500, 64) ? "differ" : "equal", g[64]);

	o[0] = ptr_op(b, a, 64, 4, 2);
	R("legacy_stream", cuMemcpy3DBatchAsync(1, o, 0, NULL));
	R("per_thread_stream", cuMemcpy3DBatchAsync(1, o, 0, CU_STREAM_PER_THREAD));
	R("legacy_handle", cuMemcpy3DBatchAsync(1, o, 0, CU_STREAM_LEGACY));
	R("numops0", cuMemcpy3DBatchAsync(0, o, 0, s));
	R("oplist_null", cuMemcpy3DBatchAsync(1, NULL, 0, s));
	R("numops0_null", cuMemcpy3DBatchAsync(0, NULL, 0, s));
	R("flags1", cuMemcpy3DBatchAsync(1, o, 1, s));
	o[0].extent.width = 0;
	R("width0", cuMemcpy3DBatchAsync(1, o, 0, s));
	o[0] = ptr_op(b, a, 64, 4, 0);
	R("depth0", cuMemcpy3DBatchAsync(1, o, 0, s));
	o[0] = ptr_op(b, a, 64, 4, 2);
	o[0].srcAccessOrder = 0;
	R("order0", cuMemcpy3DBatchAsync(1, o, 0, s));
	o[0].srcAccessOrder = 4;
	R("order4", cuMemcpy3DBatchAsync(1, o, 0, s));
	o[0].srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_ANY;
	R("order_any", cuMemcpy3DBatchAsync(1, o, 0, s));
	o[0].srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL;
	R("order_during_call", cuMemcpy3DBatchAsync(1, o, 0, s));
	o[0] = ptr_op(b, a, 64, 4, 2);
	o[0].flags = 1;
	R("opflags1", cuMemcpy3DBatchAsync(1, o, 0, s));
	o[0].flags = 2;
	R("opflags2", cuMemcpy3DBatchAsync(1, o, 0, s));
	o[0] = ptr_op(b, a, 64, 4, 2);
	o[0].src.type = 0;
	R("srctype0", cuMemcpy3DBatchAsync(1, o, 0, s));
	o[0].src.type = 3;
	R("srctype3", cuMemcpy3DBatchAsync(1, o, 0, s));
	o[0] = ptr_op(b, a, 64, 4, 2);
	o[0].src.op.ptr.rowLength = 32;
	R("rowlength_lt_width", cuMemcpy3DBatchAsync(1, o, 0, s));
	o[0] = ptr_op(b, a, 64, 4, 2);
	o[0].dst.op.ptr.layerHeight = 2;
	R("layerheight_lt_height", cuMemcpy3DBatchAsync(1, o, 0, s));
	o[0] = ptr_op(b, a, 64 * 1024, 1, 2);
	R("past_end", cuMemcpy3DBatchAsync(1, o, 0, s));
	o[0] = ptr_op(b, 0, 64, 4, 2);
	R("src_null", cuMemcpy3DBatchAsync(1, o, 0, s));
	/* pageable ends */
	o[0] = ptr_op(b, (CUdeviceptr)h, 64, 4, 2);
	R("pageable_src_stream", cuMemcpy3DBatchAsync(1, o, 0, s));
	o[0].srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL;
	R("pageable_src_during_call", cuMemcpy3DBatchAsync(1, o, 0, s));
	o[0].srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_ANY;
	R("pageable_src_any", cuMemcpy3DBatchAsync(1, o, 0, s));
	o[0] = ptr_op((CUdeviceptr)g, a, 64, 4, 2);
	R("pageable_dst", cuMemcpy3DBatchAsync(1, o, 0, s));
	CK(cuStreamSynchronize(s));

	/* arrays: elements of the array's size */
	{
		CUarray fa, ua;
		CUDA_ARRAY3D_DESCRIPTOR d = { 16, 8, 0, CU_AD_FORMAT_FLOAT, 1, 0 };
		CUDA_ARRAY3D_DESCRIPTOR du = { 16, 8, 0, CU_AD_FORMAT_UNSIGNED_INT8, 1, 0 };
		CK(cuArray3DCreate(&fa, &d));
		CK(cuArray3DCreate(&ua, &du));
		CK(cuMemcpyHtoA(fa, 0, h + 1000, 64));
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
		R("dtoa", cuMemcpy3DBatchAsync(1, o, 0, s));
		CK(cuStreamSynchronize(s));
		CUDA_MEMCPY2D c;
		memset(&c, 0, sizeof c);
		c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
		c.srcArray = fa;
		c.dstMemoryType = CU_MEMORYTYPE_HOST;
		c.dstHost = g;
		c.dstPitch = 64;
		c.WidthInBytes = 64;
		c.Height = 8;
		memset(g, 0, 1024);
		CK(cuMemcpy2D(&c));
		P("batch3d.dtoa_effect: row2=%s row3=%s row0=%s\n",
		  memcmp(g + 2 * 64 + 4, h, 40) ? "differ" : "elements",
		  memcmp(g + 3 * 64 + 4, h + 100, 40) ? "differ" : "rowlength_elements",
		  memcmp(g, h + 1000, 64) ? "differ" : "untouched");
		o[0].dst.op.array.offset.y = 6;
		R("dtoa_past_end", cuMemcpy3DBatchAsync(1, o, 0, s));
		o[0].dst.op.array.offset.y = 2;
		o[0].src.op.ptr.rowLength = 0;
		o[0].extent.depth = 2;
		R("dtoa_depth2_2d_array", cuMemcpy3DBatchAsync(1, o, 0, s));
		o[0].extent.depth = 1;
		o[0].src.type = CU_MEMCPY_OPERAND_TYPE_ARRAY;
		o[0].src.op.array.array = ua;
		memset(&o[0].src.op.array.offset, 0, sizeof o[0].src.op.array.offset);
		R("atoa_elem_mismatch", cuMemcpy3DBatchAsync(1, o, 0, s));
		o[0].src.op.array.array = fa;
		R("atoa_same_elem", cuMemcpy3DBatchAsync(1, o, 0, s));
		o[0].dst.op.array.array = NULL;
		R("array_null", cuMemcpy3DBatchAsync(1, o, 0, s));
		CK(cuStreamSynchronize(s));

		/* two ops, the second bad: does the first run? failIdx */
		CK(cuMemsetD8(b, 0, 64 * KiB));
		o[0] = ptr_op(b, a, 64, 1, 1);
		o[1] = ptr_op(b + 1024, a, 64, 1, 1);
		o[1].srcAccessOrder = 0;
		R("second_bad", cuMemcpy3DBatchAsync(2, o, 0, s));
		CK(cuStreamSynchronize(s));
		CK(cuMemcpyDtoH(g, b, 64));
		P("batch3d.second_bad_first_ran: %s\n", memcmp(g, h, 64) ? "no" : "yes");
		if (v1) {
			fi = 777;
			R("v1_second_bad", v1(2, o, &fi, 0, s));
			P("batch3d.v1_second_bad_failidx: %lld\n", (long long)fi);
			fi = 777;
			R("v1_numops0", v1(0, o, &fi, 0, s));
			P("batch3d.v1_numops0_failidx: %lld\n", (long long)fi);
			fi = 777;
			R("v1_legacy", v1(1, o, &fi, 0, NULL));
			P("batch3d.v1_legacy_failidx: %lld\n", (long long)fi);
			o[1].srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
			fi = 777;
			R("v1_ok", v1(2, o, &fi, 0, s));
			P("batch3d.v1_ok_failidx: %lld\n", (long long)fi);
			R("v1_failidx_null", v1(2, o, NULL, 0, s));
			CK(cuStreamSynchronize(s));
		}
		CK(cuArrayDestroy(fa));
		CK(cuArrayDestroy(ua));
	}

	/* extras for the 2D/3D family */
	if (lib) {
		typedef CUresult (*f1_t)(const void *);
		typedef CUresult (*arr1_t)(CUarray *, const void *);
		typedef CUresult (*set1_t)(unsigned, unsigned, unsigned char, unsigned, unsigned);
		f1_t m2 = (f1_t)dlsym(lib, "cuMemcpy2D");
		arr1_t ac = (arr1_t)dlsym(lib, "cuArrayCreate");
		set1_t sd = (set1_t)dlsym(lib, "cuMemsetD2D8");
		unsigned d1[4] = { 16, 16, 1, 1 };
		CUarray x = NULL;
		if (m2) R("extra.v1_cuMemcpy2D_null", m2(NULL));
		if (ac) {
			R("extra.v1_cuArrayCreate", ac(&x, d1));
			if (x)
				cuArrayDestroy(x);
		}
		if (sd) R("extra.v1_cuMemsetD2D8", sd(0, 512, 1, 16, 4));
	}
	{
		CUarray da;
		CUDA_ARRAY3D_DESCRIPTOR d = { 32, 32, 0, CU_AD_FORMAT_FLOAT, 1,
					      CUDA_ARRAY3D_DEFERRED_MAPPING };
		CK(cuArray3DCreate(&da, &d));
		R("extra.deferred_htoa", cuMemcpyHtoA(da, 0, h, 16));
		CK(cuArrayDestroy(da));
	}
	{
		CUDA_MEMCPY3D c;
		memset(&c, 0, sizeof c);
		c.srcMemoryType = CU_MEMORYTYPE_HOST;
		c.srcHost = h;
		c.srcPitch = 64;
		c.srcHeight = 0;
		c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
		c.dstDevice = b;
		c.dstPitch = 64;
		c.dstHeight = 4;
		c.WidthInBytes = 64;
		c.Height = 2;
		c.Depth = 2;
		CK(cuMemsetD8(b, 0, 64 * KiB));
		R("extra.srcheight0_depth2", cuMemcpy3D(&c));
		CK(cuMemcpyDtoH(g, b, 1024));
		P("batch3d.extra.srcheight0_slice1: %s\n",
		  !memcmp(g + 256, h, 64) ? "stride0" :
		  !memcmp(g + 256, h + 128, 64) ? "tight" : "other");
	}
	{
		CUdeviceptr p;
		size_t pp;
		CK(cuMemAllocPitch(&p, &pp, 100, 8, 4));
		R("extra.set16_dst_odd_h1", cuMemsetD2D16(p + 1, pp, 1, 10, 1));
		R("extra.set32_pitch_odd_h2_w0", cuMemsetD2D32(p, 3, 1, 0, 2));
		CK(cuMemFree(p));
	}
	CK(cuStreamDestroy(s));
	CK(cuMemFree(a));
	CK(cuMemFree(b));
	free(h);
	free(g);
	teardown("batch3d");
	return 0;
}
