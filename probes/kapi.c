/* Issue 33's last entry points and registers, settled on the real driver:
 * the reserved shared memory registers (%reserved_smem_offset_begin, _end,
 * _cap, _0, _1) beside the shared sizes and the addresses of a kernel's own
 * shared variables, for kernels with and without static and dynamic shared
 * memory; cuFuncGetParamInfo and cuKernelGetParamInfo over a kernel of
 * mixed parameters (bytes, pointers, an aligned struct, a vector), their
 * bad handles, indices and NULL outputs; cuKernelSetCacheConfig's checks;
 * cuLibraryGetManaged with no context at all; the JIT logs of
 * cuLibraryLoadData's options; and whether cuLaunchCooperativeKernelMultiDevice,
 * which CUDA 13's cuda.h no longer declares, still resolves and what it
 * answers. Lines are "kapi.<case>: RESULT details", never addresses. */
#include "common.h"
#include <dlfcn.h>

#define G(call) ({ CUresult _r; int _s = sigsetjmp(g_jmp, 1); \
	if (_s) _r = (CUresult)-_s; \
	else { g_jmp_armed = 1; _r = (call); g_jmp_armed = 0; } _r; })

static const char *rn(CUresult r)
{
	return (int)r < 0 ? "SIGNAL" : en(r);
}

/* One kernel's registers: thread 0 writes them to out[0..9]; then thread 0
 * stores a word at the start of the reserved region and thread 1 reads it
 * back after a barrier (out[10]). */
#define SREG_BODY \
	"	.reg .b32 %r<16>;\n" \
	"	.reg .b64 %rd<4>;\n" \
	"	.reg .pred %p<2>;\n" \
	"	ld.param.u64 %rd1, [out];\n" \
	"	cvta.to.global.u64 %rd1, %rd1;\n" \
	"	mov.u32 %r0, %tid.x;\n" \
	"	mov.u32 %r1, %reserved_smem_offset_begin;\n" \
	"	mov.u32 %r2, %reserved_smem_offset_end;\n" \
	"	mov.u32 %r3, %reserved_smem_offset_cap;\n" \
	"	mov.u32 %r4, %reserved_smem_offset_0;\n" \
	"	mov.u32 %r5, %reserved_smem_offset_1;\n" \
	"	mov.u32 %r6, %total_smem_size;\n" \
	"	mov.u32 %r7, %aggr_smem_size;\n" \
	"	mov.u32 %r8, %dynamic_smem_size;\n" \
	"	setp.ne.u32 %p1, %r0, 0;\n" \
	"	@%p1 bra L1;\n" \
	"	st.global.u32 [%rd1], %r1;\n" \
	"	st.global.u32 [%rd1+4], %r2;\n" \
	"	st.global.u32 [%rd1+8], %r3;\n" \
	"	st.global.u32 [%rd1+12], %r4;\n" \
	"	st.global.u32 [%rd1+16], %r5;\n" \
	"	st.global.u32 [%rd1+20], %r6;\n" \
	"	st.global.u32 [%rd1+24], %r7;\n" \
	"	st.global.u32 [%rd1+28], %r8;\n" \
	"	mov.u32 %r9, 0x5eed;\n" \
	"	st.shared.u32 [%r5], %r9;\n" \
	"L1:\n" \
	"	bar.sync 0;\n" \
	"	setp.ne.u32 %p1, %r0, 1;\n" \
	"	@%p1 bra L2;\n" \
	"	ld.shared.u32 %r10, [%r5];\n" \
	"	st.global.u32 [%rd1+40], %r10;\n" \
	"L2:\n"

static const char g_ptx[] =
	".version 8.5\n"
	".target sm_90\n"
	".address_size 64\n"
	".extern .shared .align 16 .b8 dyn[];\n"
	".shared .align 8 .b8 sv[40];\n"
	".shared .align 16 .b8 big[40960];\n"
	/* static shared, and the dynamic window's start */
	".visible .entry withshared(.param .u64 out)\n{\n" SREG_BODY
	"	setp.ne.u32 %p1, %r0, 0;\n"
	"	@%p1 bra L3;\n"
	"	mov.u32 %r11, sv;\n"
	"	st.global.u32 [%rd1+32], %r11;\n"
	"	mov.u32 %r12, dyn;\n"
	"	st.global.u32 [%rd1+36], %r12;\n"
	"	st.shared.u32 [sv], %r12;\n"
	"	st.shared.u32 [dyn], %r12;\n"
	"L3:\n"
	"	ret;\n}\n"
	/* no shared memory of its own */
	".visible .entry noshared(.param .u64 out)\n{\n" SREG_BODY
	"	ret;\n}\n"
	/* 40 KiB of static shared memory */
	".visible .entry bigshared(.param .u64 out)\n{\n" SREG_BODY
	"	setp.ne.u32 %p1, %r0, 0;\n"
	"	@%p1 bra L3;\n"
	"	mov.u32 %r11, big;\n"
	"	st.global.u32 [%rd1+32], %r11;\n"
	"	st.shared.u32 [big+40956], %r11;\n"
	"L3:\n"
	"	ret;\n}\n"
	/* parameters of mixed types: a byte, a pointer, an 8-aligned struct
	 * of 24 bytes, a float, a 16-aligned vector, a short, a 4-aligned
	 * struct of 12 bytes, an int */
	".visible .entry mixed(.param .u8 a, .param .u64 b,\n"
	"	.param .align 8 .b8 s[24], .param .f32 c,\n"
	"	.param .align 16 .b8 v[16], .param .u16 d,\n"
	"	.param .align 4 .b8 t[12], .param .u32 e)\n{\n	ret;\n}\n"
	".visible .entry empty()\n{\n	ret;\n}\n"
	".global .attribute(.managed) .align 4 .u32 counter = 7;\n";

static const char g_broken[] =
	".version 8.5\n.target sm_90\n.address_size 64\n"
	".visible .entry bad()\n{\n	frobnicate.u32 %r1;\n	ret;\n}\n";

/* ------------------------------------------------- reserved shared */

static void sregs_launch(CUmodule m, const char *name, unsigned block,
			 unsigned dyn)
{
	CUfunction f;
	CUdeviceptr d;
	uint32_t h[11];
	int ssz = -1;
	char label[64];

	snprintf(label, sizeof label, "%s.b%u.d%u", name, block, dyn);
	CK(cuModuleGetFunction(&f, m, name));
	cuFuncGetAttribute(&ssz, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f);
	if (dyn > 48 * 1024 - 40960)
		cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
				   (int)dyn);
	CK(cuMemAlloc(&d, sizeof h));
	CK(cuMemsetD32(d, 0xa5a5a5a5, 11));
	void *args[] = { &d };
	CUresult r = cuLaunchKernel(f, 1, 1, 1, block, 1, 1, dyn, NULL, args, NULL);
	CUresult s = cuCtxSynchronize();
	CK(cuMemcpyDtoH(h, d, sizeof h));
	P("kapi.sreg.%s: %s/%s static=%d begin=%u end=%u cap=%u off0=%u off1=%u "
	  "total=%u aggr=%u dyn=%u var=%u dynvar=%u readback=0x%x\n",
	  label, en(r), en(s), ssz, h[0], h[1], h[2], h[3], h[4], h[5], h[6],
	  h[7], h[8], h[9], h[10]);
	cuMemFree(d);
}

static void sregs(void)
{
	CUmodule m;
	int v = -1;

	cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK, g_dev[0]);
	P("kapi.sreg.device_reserved: %d\n", v);
	CUresult r = cuModuleLoadData(&m, g_ptx);
	P("kapi.sreg.load: %s\n", en(r));
	if (r != CUDA_SUCCESS)
		return;
	sregs_launch(m, "withshared", 32, 0);
	sregs_launch(m, "withshared", 128, 256);
	sregs_launch(m, "withshared", 1024, 4096);
	sregs_launch(m, "noshared", 32, 0);
	sregs_launch(m, "noshared", 64, 100);
	sregs_launch(m, "bigshared", 32, 0);
	sregs_launch(m, "bigshared", 32, 8192);
	cuModuleUnload(m);
}

/* ------------------------------------------------------ param info */

typedef CUresult (*pinfo_fn)(void *, size_t, size_t *, size_t *);

static void pinfo_cases(const char *who, pinfo_fn fn, void *h, void *empty,
			void *wrong)
{
	size_t off, sz;
	CUresult r;

	for (size_t i = 0; i < 8; i++) {
		off = sz = 0xa5a5a5a5;
		r = G(fn(h, i, &off, &sz));
		P("kapi.%s.p%zu: %s off=%zu size=%zu\n", who, i, rn(r), off, sz);
	}
	off = sz = 0xa5a5a5a5;
	r = G(fn(h, 8, &off, &sz));
	P("kapi.%s.index_past: %s off=0x%zx size=0x%zx\n", who, rn(r), off, sz);
	r = G(fn(h, (size_t)-1, &off, &sz));
	P("kapi.%s.index_max: %s\n", who, rn(r));
	off = 0xa5a5a5a5;
	r = G(fn(h, 2, &off, NULL));
	P("kapi.%s.null_size: %s off=%zu\n", who, rn(r), off);
	sz = 0xa5a5a5a5;
	r = G(fn(h, 2, NULL, &sz));
	P("kapi.%s.null_offset: %s size=0x%zx\n", who, rn(r), sz);
	r = G(fn(h, 2, NULL, NULL));
	P("kapi.%s.null_both: %s\n", who, rn(r));
	r = G(fn(h, 8, NULL, &sz));
	P("kapi.%s.null_offset_index_past: %s\n", who, rn(r));
	r = G(fn(NULL, 0, &off, &sz));
	P("kapi.%s.null_handle: %s\n", who, rn(r));
	r = G(fn(NULL, 8, NULL, NULL));
	P("kapi.%s.null_handle_all_bad: %s\n", who, rn(r));
	r = G(fn(wrong, 0, &off, &sz));
	P("kapi.%s.other_kind_handle: %s\n", who, rn(r));
	r = G(fn(empty, 0, &off, &sz));
	P("kapi.%s.no_params: %s\n", who, rn(r));
}

static CUresult func_pinfo(void *h, size_t i, size_t *o, size_t *s)
{
	return cuFuncGetParamInfo((CUfunction)h, i, o, s);
}

static CUresult kernel_pinfo(void *h, size_t i, size_t *o, size_t *s)
{
	return cuKernelGetParamInfo((CUkernel)h, i, o, s);
}

static void pinfo(void)
{
	CUlibrary lib;
	CUkernel k, ke;
	CUfunction f, fe;
	size_t off = 0, sz = 0;

	CK(cuLibraryLoadData(&lib, g_ptx, NULL, NULL, 0, NULL, NULL, 0));
	CK(cuLibraryGetKernel(&k, lib, "mixed"));
	CK(cuLibraryGetKernel(&ke, lib, "empty"));
	CK(cuKernelGetFunction(&f, k));
	CK(cuKernelGetFunction(&fe, ke));
	pinfo_cases("funcparam", func_pinfo, f, fe, k);
	pinfo_cases("kernelparam", kernel_pinfo, k, ke, f);
	/* a function handle is a context's; a kernel is not */
	CK(cuCtxSetCurrent(NULL));
	CUresult r = G(cuFuncGetParamInfo(f, 1, &off, &sz));
	P("kapi.funcparam.no_context: %s off=%zu\n", rn(r), off);
	r = G(cuKernelGetParamInfo(k, 1, &off, &sz));
	P("kapi.kernelparam.no_context: %s off=%zu\n", rn(r), off);
	CK(cuCtxSetCurrent(g_ctx[0]));
	/* the cache preference of a kernel, per device */
	r = G(cuKernelSetCacheConfig(k, CU_FUNC_CACHE_PREFER_SHARED, g_dev[0]));
	P("kapi.kcache.ok: %s\n", rn(r));
	r = G(cuKernelSetCacheConfig(k, CU_FUNC_CACHE_PREFER_EQUAL, g_dev[g_ndev > 1]));
	P("kapi.kcache.second_device: %s\n", rn(r));
	r = G(cuKernelSetCacheConfig(k, CU_FUNC_CACHE_PREFER_NONE, g_dev[0]));
	P("kapi.kcache.none: %s\n", rn(r));
	r = G(cuKernelSetCacheConfig(k, CU_FUNC_CACHE_PREFER_L1, g_dev[0]));
	P("kapi.kcache.l1: %s\n", rn(r));
	r = G(cuKernelSetCacheConfig(k, (CUfunc_cache)4, g_dev[0]));
	P("kapi.kcache.config4: %s\n", rn(r));
	r = G(cuKernelSetCacheConfig(k, (CUfunc_cache)-1, g_dev[0]));
	P("kapi.kcache.config_minus1: %s\n", rn(r));
	r = G(cuKernelSetCacheConfig(k, CU_FUNC_CACHE_PREFER_SHARED, 99));
	P("kapi.kcache.dev99: %s\n", rn(r));
	r = G(cuKernelSetCacheConfig(k, CU_FUNC_CACHE_PREFER_SHARED, -1));
	P("kapi.kcache.dev_minus1: %s\n", rn(r));
	r = G(cuKernelSetCacheConfig(NULL, CU_FUNC_CACHE_PREFER_SHARED, g_dev[0]));
	P("kapi.kcache.null_kernel: %s\n", rn(r));
	r = G(cuKernelSetCacheConfig((CUkernel)f, CU_FUNC_CACHE_PREFER_SHARED, g_dev[0]));
	P("kapi.kcache.function_handle: %s\n", rn(r));
	r = G(cuKernelSetCacheConfig(NULL, (CUfunc_cache)4, 99));
	P("kapi.kcache.null_kernel_bad_config_dev99: %s\n", rn(r));
	r = G(cuKernelSetCacheConfig(k, (CUfunc_cache)4, 99));
	P("kapi.kcache.bad_config_dev99: %s\n", rn(r));
	r = G(cuKernelSetCacheConfig(NULL, CU_FUNC_CACHE_PREFER_SHARED, 99));
	P("kapi.kcache.null_kernel_dev99: %s\n", rn(r));
	r = G(cuKernelSetCacheConfig(NULL, (CUfunc_cache)4, g_dev[0]));
	P("kapi.kcache.null_kernel_bad_config: %s\n", rn(r));
	CK(cuCtxSetCurrent(NULL));
	r = G(cuKernelSetCacheConfig(k, CU_FUNC_CACHE_PREFER_L1, g_dev[0]));
	P("kapi.kcache.no_context: %s\n", rn(r));
	CK(cuCtxSetCurrent(g_ctx[0]));
	/* the launch still runs after a preference */
	CUfunction fn;
	CUmodule mod;
	CK(cuLibraryGetModule(&mod, lib));
	CK(cuModuleGetFunction(&fn, mod, "empty"));
	r = cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL);
	P("kapi.kcache.launch_after: %s/%s\n", en(r), en(cuCtxSynchronize()));
	cuLibraryUnload(lib);
}

/* ------------------------------------- the managed variable, no context */

/* Before any context exists: the library's managed variable. */
static void managed_noctx(void)
{
	CUlibrary lib;
	CUdeviceptr d = 0, d2 = 0;
	size_t sz = 0;
	unsigned flags = 0;
	int active = -1;
	CUcontext cur = (CUcontext)1;

	CUresult r = cuLibraryLoadData(&lib, g_ptx, NULL, NULL, 0, NULL, NULL, 0);
	P("kapi.managed.noctx_load: %s\n", en(r));
	if (r != CUDA_SUCCESS)
		return;
	r = G(cuLibraryGetManaged(&d, &sz, lib, "counter"));
	P("kapi.managed.noctx_get: %s size=%zu\n", rn(r), sz);
	cuDevicePrimaryCtxGetState(0, &flags, &active);
	cuCtxGetCurrent(&cur);
	P("kapi.managed.noctx_after: primary_active=%d current_null=%d\n",
	  active, cur == NULL);
	if (r == CUDA_SUCCESS) {
		int sig = 0;
		uint32_t v = safe_read32((void *)(uintptr_t)d, &sig);
		P("kapi.managed.noctx_value: %u sig=%d\n", v, sig);
	}
	r = G(cuLibraryGetManaged(&d2, NULL, lib, "counter"));
	P("kapi.managed.noctx_again: %s same=%d\n", rn(r), d == d2);
	r = G(cuLibraryGetManaged(&d2, &sz, lib, "nothere"));
	P("kapi.managed.noctx_missing: %s\n", rn(r));
	r = G(cuLibraryGetGlobal(&d2, &sz, lib, "counter"));
	P("kapi.managed.noctx_global: %s\n", rn(r));
	CUcontext c;
	CK(cuDevicePrimaryCtxRetain(&c, 0));
	CK(cuCtxSetCurrent(c));
	r = G(cuLibraryGetManaged(&d2, &sz, lib, "counter"));
	P("kapi.managed.inctx_get: %s same=%d size=%zu\n", rn(r), d == d2, sz);
	cuCtxSetCurrent(NULL);
	cuLibraryUnload(lib);
	cuDevicePrimaryCtxRelease(0);
}

/* ------------------------------------------------------------ JIT logs */

static char g_info[1024], g_err[1024];

static void jit_case(const char *name, const char *img, int verbose,
		     size_t errsize)
{
	CUjit_option o[6] = { CU_JIT_INFO_LOG_BUFFER,
		CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
		CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_WALL_TIME,
		CU_JIT_LOG_VERBOSE };
	void *v[6];
	float wall = -1;
	CUlibrary lib = NULL;
	CUkernel k;

	memset(g_info, 'Z', sizeof g_info);
	memset(g_err, 'Z', sizeof g_err);
	g_info[sizeof g_info - 1] = g_err[sizeof g_err - 1] = 0;
	v[0] = g_info;
	v[1] = (void *)(uintptr_t)sizeof g_info;
	v[2] = g_err;
	v[3] = (void *)(uintptr_t)errsize;
	v[4] = &wall;
	v[5] = (void *)(uintptr_t)verbose;
	CUresult r = G(cuLibraryLoadData(&lib, img, o, v, 6, NULL, NULL, 0));
	memcpy(&wall, &v[4], sizeof wall);
	P("kapi.jit.%s: %s info_size=%zu err_size=%zu wall_set=%d\n", name,
	  rn(r), (size_t)(uintptr_t)v[1], (size_t)(uintptr_t)v[3], wall >= 0);
	P("kapi.jit.%s.info: %.60s\n", name, g_info[0] == 'Z' ? "(untouched)" : g_info);
	P("kapi.jit.%s.error: %.60s\n", name, g_err[0] == 'Z' ? "(untouched)" : g_err);
	if (r != CUDA_SUCCESS)
		return;
	memset(g_err, 'Z', 16);
	r = G(cuLibraryGetKernel(&k, lib, "bad"));
	P("kapi.jit.%s.getkernel: %s error_after=%.60s\n", name, rn(r),
	  g_err[0] == 'Z' ? "(untouched)" : g_err);
	cuLibraryUnload(lib);
}

static void jit(void)
{
	jit_case("broken", g_broken, 0, sizeof g_err);
	jit_case("broken_small", g_broken, 0, 8);
	jit_case("good_verbose", g_ptx, 1, sizeof g_err);
	jit_case("good_quiet", g_ptx, 0, sizeof g_err);
	jit_case("garbage", "this is no image", 0, sizeof g_err);
}

/* ------------------------------------- the multi-device cooperative launch */

typedef CUresult (*multi_fn)(CUDA_LAUNCH_PARAMS *, unsigned, unsigned);

static void multi(void)
{
	/* the recorded run asked dlopen("libcuda.so.1", RTLD_NOLOAD) for it;
	 * the loaded driver by whatever name answers the same */
	void *sym = dlsym(RTLD_DEFAULT, "cuLaunchCooperativeKernelMultiDevice");
	void *pa = NULL;
	CUdriverProcAddressQueryResult st = -1;
	int v = -1;

	P("kapi.multi.dlsym: %s\n", sym ? "found" : "absent");
	cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH, g_dev[0]);
	P("kapi.multi.attribute: %d\n", v);
	static const int vers[] = { 9000, 12000, 12090, 13000 };
	for (int i = 0; i < 4; i++) {
		void *p = NULL;
		st = -1;
		CUresult r = cuGetProcAddress("cuLaunchCooperativeKernelMultiDevice",
					      &p, vers[i], CU_GET_PROC_ADDRESS_DEFAULT, &st);
		P("kapi.multi.procaddr_%d: %s status=%d found=%d same_as_dlsym=%d\n",
		  vers[i], en(r), (int)st, p != NULL, p == sym);
		if (p)
			pa = p;
	}
	multi_fn fn = (multi_fn)(sym ? sym : pa);
	if (!fn)
		return;
	CUmodule m;
	CUfunction f[2];
	CUstream s[2];
	CUdeviceptr d[2];
	CUDA_LAUNCH_PARAMS lp[2];
	void *args[2][1];
	int n = g_ndev > 1 ? 2 : 1;

	for (int i = 0; i < n; i++) {
		CK(cuCtxSetCurrent(g_ctx[i]));
		CK(cuModuleLoadData(&m, g_ptx));
		CK(cuModuleGetFunction(&f[i], m, "noshared"));
		CK(cuStreamCreate(&s[i], CU_STREAM_NON_BLOCKING));
		CK(cuMemAlloc(&d[i], 64));
		CK(cuMemsetD32(d[i], 0, 16));
		args[i][0] = &d[i];
		memset(&lp[i], 0, sizeof lp[i]);
		lp[i].function = f[i];
		lp[i].gridDimX = lp[i].gridDimY = lp[i].gridDimZ = 1;
		lp[i].blockDimX = 32;
		lp[i].blockDimY = lp[i].blockDimZ = 1;
		lp[i].hStream = s[i];
		lp[i].kernelParams = args[i];
	}
	CK(cuCtxSetCurrent(g_ctx[0]));
	CUresult r = G(fn(NULL, 1, 0));
	P("kapi.multi.null_params: %s\n", rn(r));
	r = G(fn(lp, 0, 0));
	P("kapi.multi.zero_devices: %s\n", rn(r));
	r = G(fn(lp, 1, 4));
	P("kapi.multi.flags4: %s\n", rn(r));
	r = G(fn(lp, 1, 0));
	CUresult q = cuStreamSynchronize(s[0]);
	uint32_t out[11] = { 0 };
	cuMemcpyDtoH(out, d[0], 44);
	P("kapi.multi.one_device: %s/%s ran=%d\n", rn(r), en(q), out[10] == 0x5eed);
	r = G(fn(lp, (unsigned)n, CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_PRE_LAUNCH_SYNC |
		 CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_POST_LAUNCH_SYNC));
	P("kapi.multi.all_devices_flags3: %s n=%d\n", rn(r), n);
	r = G(fn(lp, (unsigned)n, 0));
	P("kapi.multi.all_devices: %s n=%d\n", rn(r), n);
	CUDA_LAUNCH_PARAMS twice[2] = { lp[0], lp[0] };
	r = G(fn(twice, 2, 0));
	P("kapi.multi.same_device_twice: %s\n", rn(r));
	CUDA_LAUNCH_PARAMS nulls = lp[0];
	nulls.hStream = NULL;
	r = G(fn(&nulls, 1, 0));
	P("kapi.multi.null_stream: %s\n", rn(r));
	nulls = lp[0];
	nulls.function = NULL;
	r = G(fn(&nulls, 1, 0));
	P("kapi.multi.null_function: %s\n", rn(r));
	nulls = lp[0];
	nulls.blockDimX = 2048;
	r = G(fn(&nulls, 1, 0));
	P("kapi.multi.block_too_big: %s\n", rn(r));
	nulls = lp[0];
	nulls.gridDimX = 1u << 20;
	r = G(fn(&nulls, 1, 0));
	P("kapi.multi.grid_too_big: %s\n", rn(r));
	if (n > 1) {
		CUDA_LAUNCH_PARAMS cross = lp[0];
		cross.hStream = s[1];
		r = G(fn(&cross, 1, 0));
		P("kapi.multi.function_other_stream: %s\n", rn(r));
	}
	for (int i = 0; i < n; i++) {
		cuCtxSetCurrent(g_ctx[i]);
		cuCtxSynchronize();
		cuStreamDestroy(s[i]);
		cuMemFree(d[i]);
	}
	CK(cuCtxSetCurrent(g_ctx[0]));
}

int main(void)
{
	/* The crash handler goes first, so that a driver that handles faults
	 * of its own (libcuemu's managed memory) finds it and passes on what
	 * is not its own; setup() would install it again over the driver's,
	 * after managed_noctx() made managed memory. */
	signal(SIGSEGV, on_sig);
	signal(SIGBUS, on_sig);
	CK(cuInit(0));
	managed_noctx();
	CK(cuDeviceGetCount(&g_ndev));
	int ver = 0;
	cuDriverGetVersion(&ver);
	P("kapi.devices: %d driver=%d\n", g_ndev, ver);
	for (int i = 0; i < g_ndev && i < 2; i++) {
		CK(cuDeviceGet(&g_dev[i], i));
		CK(cuDevicePrimaryCtxRetain(&g_ctx[i], g_dev[i]));
	}
	CK(cuCtxSetCurrent(g_ctx[0]));
	sregs();
	pinfo();
	jit();
	multi();
	teardown("kapi");
	return 0;
}
