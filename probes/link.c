/* The driver's JIT linker (cuLinkCreate, cuLinkAddData, cuLinkAddFile,
 * cuLinkComplete, cuLinkDestroy) on the real driver: what each entry
 * answers for bad arguments and in which order it checks them (no cuInit,
 * no context, NULL state, NULL data, size 0, an unknown input type, bad
 * JIT options), what an undefined extern, a duplicate definition, weak
 * definitions and an empty link answer at complete, what the logs and the
 * wall time say, which inputs are taken (PTX, a fatbin, machine code,
 * garbage objects), and that a linked image loads as a module and as a
 * library and runs: a kernel of one PTX module calling a function and
 * reading a variable of another; nvcc's relocatable PTX of tests/cuda's
 * rdc_a.cu and rdc_b.cu, rdc_b as a host object and in an archive.
 * argv[1] is tests/unit/kernels (basic.fatbin, basic.ptx,
 * basic-sm90.cubin, rdc_a.ptx, rdc_b.ptx, rdc_b.o, librdc_b.a). Lines are "link.<case>: RESULT details", never
 * addresses. */
#include "common.h"

#define G(call) ({ CUresult _r; int _s = sigsetjmp(g_jmp, 1); \
	if (_s) _r = (CUresult)-_s; \
	else { g_jmp_armed = 1; _r = (call); g_jmp_armed = 0; } _r; })

static const char *rn(CUresult r)
{
	return (int)r < 0 ? "SIGNAL" : en(r);
}

/* A kernel that calls an extern function and reads an extern variable. */
static const char ptx_main[] =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".extern .func (.param .b32 r) twice(.param .b32 x);\n"
	".extern .global .align 4 .u32 bias;\n"
	".visible .entry k(.param .u64 out)\n{\n"
	"	.reg .b32 %r<4>;\n	.reg .b64 %rd<4>;\n"
	"	ld.param.u64 %rd1, [out];\n	cvta.to.global.u64 %rd1, %rd1;\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	{\n	.param .b32 p0;\n	.param .b32 r0;\n"
	"	st.param.b32 [p0], %r1;\n"
	"	call.uni (r0), twice, (p0);\n"
	"	ld.param.b32 %r2, [r0];\n	}\n"
	"	ld.global.u32 %r3, [bias];\n	add.u32 %r2, %r2, %r3;\n"
	"	mul.wide.u32 %rd2, %r1, 4;\n	add.s64 %rd3, %rd1, %rd2;\n"
	"	st.global.u32 [%rd3], %r2;\n	ret;\n}\n";
/* What it needs, and a private helper of the same name as one of
 * ptx_weak's (internal linkage: no clash). */
static const char ptx_lib[] =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".visible .global .align 4 .u32 bias = 1000;\n"
	".func (.param .b32 r) helper(.param .b32 x)\n{\n"
	"	.reg .b32 %r<3>;\n	ld.param.b32 %r1, [x];\n"
	"	shl.b32 %r2, %r1, 1;\n	st.param.b32 [r], %r2;\n	ret;\n}\n"
	".visible .func (.param .b32 r) twice(.param .b32 x)\n{\n"
	"	.reg .b32 %r<3>;\n	ld.param.b32 %r1, [x];\n"
	"	{\n	.param .b32 p0;\n	.param .b32 r0;\n"
	"	st.param.b32 [p0], %r1;\n"
	"	call.uni (r0), helper, (p0);\n"
	"	ld.param.b32 %r2, [r0];\n	}\n"
	"	st.param.b32 [r], %r2;\n	ret;\n}\n";
/* twice again, defined (a duplicate of ptx_lib's) */
static const char ptx_dup[] =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".visible .func (.param .b32 r) twice(.param .b32 x)\n{\n"
	"	.reg .b32 %r<3>;\n	ld.param.b32 %r1, [x];\n"
	"	add.u32 %r2, %r1, %r1;\n	st.param.b32 [r], %r2;\n	ret;\n}\n";
/* a weak function both weak modules define, and helper again */
#define WEAK(tag, val) \
	".version 8.0\n.target sm_80\n.address_size 64\n" \
	".weak .func (.param .b32 r) w(.param .b32 x)\n{\n" \
	"	.reg .b32 %r<3>;\n	ld.param.b32 %r1, [x];\n" \
	"	add.u32 %r2, %r1, " #val ";\n	st.param.b32 [r], %r2;\n	ret;\n}\n" \
	".func (.param .b32 r) helper(.param .b32 x)\n{\n" \
	"	.reg .b32 %r<3>;\n	ld.param.b32 %r1, [x];\n" \
	"	st.param.b32 [r], %r1;\n	ret;\n}\n" \
	".visible .entry " tag "(.param .u64 out)\n{\n" \
	"	.reg .b32 %r<3>;\n	.reg .b64 %rd<2>;\n" \
	"	ld.param.u64 %rd1, [out];\n	cvta.to.global.u64 %rd1, %rd1;\n" \
	"	mov.u32 %r1, 1;\n" \
	"	{\n	.param .b32 p0;\n	.param .b32 r0;\n" \
	"	st.param.b32 [p0], %r1;\n" \
	"	call.uni (r0), w, (p0);\n" \
	"	ld.param.b32 %r2, [r0];\n	}\n" \
	"	st.global.u32 [%rd1], %r2;\n	ret;\n}\n"
static const char ptx_weak1[] = WEAK("kw1", 10);
static const char ptx_weak2[] = WEAK("kw2", 20);
/* an extern nobody defines */
static const char ptx_undef[] =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".extern .func (.param .b32 r) missing(.param .b32 x);\n"
	".visible .entry ku(.param .u64 out)\n{\n"
	"	.reg .b32 %r<3>;\n	mov.u32 %r1, 1;\n"
	"	{\n	.param .b32 p0;\n	.param .b32 r0;\n"
	"	st.param.b32 [p0], %r1;\n"
	"	call.uni (r0), missing, (p0);\n"
	"	ld.param.b32 %r2, [r0];\n	}\n	ret;\n}\n";
/* a declared extern that nothing calls */
static const char ptx_unused_extern[] =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".extern .func (.param .b32 r) nobody(.param .b32 x);\n"
	".visible .entry kn()\n{\n	ret;\n}\n";
static const char ptx_newer[] =
	".version 8.0\n.target sm_100\n.address_size 64\n"
	".visible .entry kz()\n{\n	ret;\n}\n";
static const char ptx_bad[] =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".visible .entry kb()\n{\n	frobnicate.u32 %r1;\n	ret;\n}\n";

static char info[4096], err[4096];
static float wall;

/* Options as a program passes them: both logs, their sizes, wall time. */
static CUjit_option jo[] = { CU_JIT_INFO_LOG_BUFFER,
	CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
	CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_WALL_TIME,
	CU_JIT_LOG_VERBOSE };
static void *jv[6];

static CUlinkState make(void)
{
	CUlinkState s = NULL;
	info[0] = err[0] = 0;
	jv[0] = info;
	jv[1] = (void *)(uintptr_t)sizeof info;
	jv[2] = err;
	jv[3] = (void *)(uintptr_t)sizeof err;
	jv[4] = NULL;
	jv[5] = (void *)1;
	CK(cuLinkCreate(6, jo, jv, &s));
	return s;
}

static CUresult add(CUlinkState s, const char *ptx, const char *name)
{
	return cuLinkAddData(s, CU_JIT_INPUT_PTX, (void *)ptx,
			     strlen(ptx) + 1, name, 0, NULL, NULL);
}

/* The logs' sizes as the options were given back (0 or not). */
static void logs(const char *c)
{
	char line[160];
	P("link.%s.logs: info=%s error=%s errsize=%s\n", c,
	  info[0] ? "text" : "empty", err[0] ? "text" : "empty",
	  (uintptr_t)jv[3] ? "nonzero" : "0");
	/* the log's words, for the reader (the JIT's own text) */
	snprintf(line, sizeof line, "%s", err);
	for (char *q = line; *q; q++)
		if (*q == '\n')
			*q = ' ';
	if (err[0])
		P("link.%s.errlog: %s\n", c, line);
}

/* Completes s and, where it links, loads and runs kernel kn on 4 threads
 * of out; prints the first word(s) of out. */
static void complete_run(CUlinkState s, const char *c, const char *kn,
			 CUdeviceptr out)
{
	void *cubin = NULL;
	size_t size = 0;
	CUresult r = cuLinkComplete(s, &cubin, &size);
	memcpy(&wall, &jv[4], sizeof wall);
	P("link.%s.complete: %s image=%s\n", c, rn(r),
	  r == CUDA_SUCCESS && cubin && size ? "yes" : "no");
	logs(c);
	if (r != CUDA_SUCCESS || !kn)
		return;
	CUmodule m;
	CUfunction f;
	unsigned v[4] = { 0 };
	void *a[] = { &out };
	r = cuModuleLoadData(&m, cubin);
	P("link.%s.load: %s\n", c, rn(r));
	if (r != CUDA_SUCCESS)
		return;
	CK(cuMemsetD32(out, 0, 4));
	r = cuModuleGetFunction(&f, m, kn);
	if (r == CUDA_SUCCESS)
		r = cuLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, NULL, a, NULL);
	if (r == CUDA_SUCCESS)
		r = cuCtxSynchronize();
	if (r == CUDA_SUCCESS)
		CK(cuMemcpyDtoH(v, out, sizeof v));
	P("link.%s.run: %s %u %u %u %u\n", c, rn(r), v[0], v[1], v[2], v[3]);
	CUlibrary l;
	CUkernel k;
	r = cuLibraryLoadData(&l, cubin, NULL, NULL, 0, NULL, NULL, 0);
	P("link.%s.library: %s\n", c, rn(r));
	if (r == CUDA_SUCCESS) {
		r = cuLibraryGetKernel(&k, l, kn);
		P("link.%s.library_kernel: %s\n", c, rn(r));
		cuLibraryUnload(l);
	}
	cuModuleUnload(m);
}

static void args(void)
{
	CUlinkState s = NULL, t;
	void *cubin;
	size_t size;
	CUresult r;

	r = cuLinkCreate(0, NULL, NULL, NULL);
	P("link.create.null_state: %s\n", rn(r));
	r = cuLinkCreate(1, NULL, NULL, &s);
	P("link.create.null_options: %s\n", rn(r));
	CUjit_option o1[] = { CU_JIT_WALL_TIME };
	r = cuLinkCreate(1, o1, NULL, &s);
	P("link.create.null_values: %s\n", rn(r));
	CUjit_option obad[] = { (CUjit_option)99 };
	void *vbad[] = { NULL };
	r = cuLinkCreate(1, obad, vbad, &s);
	P("link.create.unknown_option: %s\n", rn(r));
	CUjit_option ot[] = { CU_JIT_TARGET };
	void *vt[] = { (void *)(uintptr_t)CU_TARGET_COMPUTE_100 };
	s = NULL;
	r = cuLinkCreate(1, ot, vt, &s);
	P("link.create.target_100: %s\n", rn(r));
	if (r == CUDA_SUCCESS) {
		r = add(s, ptx_lib, "lib");
		P("link.create.target_100.add: %s\n", rn(r));
		cubin = NULL;
		r = cuLinkComplete(s, &cubin, &size);
		P("link.create.target_100.complete: %s\n", rn(r));
		cuLinkDestroy(s);
	}
	vt[0] = (void *)(uintptr_t)12345;
	s = NULL;
	r = cuLinkCreate(1, ot, vt, &s);
	P("link.create.target_bad: %s\n", rn(r));
	if (r == CUDA_SUCCESS)
		cuLinkDestroy(s);
	CUjit_option oo[] = { CU_JIT_OPTIMIZATION_LEVEL };
	void *vo[] = { (void *)(uintptr_t)7 };
	s = NULL;
	r = cuLinkCreate(1, oo, vo, &s);
	P("link.create.opt_level_7: %s\n", rn(r));
	if (r == CUDA_SUCCESS)
		cuLinkDestroy(s);
	CUjit_option og[] = { CU_JIT_GENERATE_DEBUG_INFO,
			      CU_JIT_GENERATE_LINE_INFO,
			      CU_JIT_OPTIMIZATION_LEVEL,
			      CU_JIT_TARGET_FROM_CUCONTEXT };
	void *vg[] = { (void *)1, (void *)1, (void *)(uintptr_t)4, NULL };
	s = NULL;
	r = cuLinkCreate(4, og, vg, &s);
	P("link.create.debug_line_opt4: %s\n", rn(r));
	if (r == CUDA_SUCCESS)
		cuLinkDestroy(s);

	s = make();
	r = cuLinkAddData(NULL, CU_JIT_INPUT_PTX, (void *)ptx_lib,
			  sizeof ptx_lib, "x", 0, NULL, NULL);
	P("link.add.null_state: %s\n", rn(r));
	r = cuLinkAddData(s, CU_JIT_INPUT_PTX, NULL, sizeof ptx_lib, "x", 0,
			  NULL, NULL);
	P("link.add.null_data: %s\n", rn(r));
	r = cuLinkAddData(s, CU_JIT_INPUT_PTX, (void *)ptx_lib, 0, "x", 0,
			  NULL, NULL);
	P("link.add.size0: %s\n", rn(r));
	r = cuLinkAddData(s, (CUjitInputType)77, (void *)ptx_lib,
			  sizeof ptx_lib, "x", 0, NULL, NULL);
	P("link.add.unknown_type: %s\n", rn(r));
	r = cuLinkAddData(s, (CUjitInputType)77, NULL, 0, "x", 0, NULL, NULL);
	P("link.add.unknown_type_null_data: %s\n", rn(r));
	r = cuLinkAddData(s, CU_JIT_INPUT_PTX, NULL, 0, "x", 0, NULL, NULL);
	P("link.add.null_data_size0: %s\n", rn(r));
	r = cuLinkAddData(s, CU_JIT_INPUT_PTX, (void *)ptx_lib,
			  sizeof ptx_lib, "x", 1, NULL, NULL);
	P("link.add.null_options: %s\n", rn(r));
	r = cuLinkAddData(s, CU_JIT_INPUT_PTX, (void *)ptx_lib,
			  sizeof ptx_lib, "x", 1, obad, vbad);
	P("link.add.unknown_option: %s\n", rn(r));
	r = cuLinkAddData(s, CU_JIT_INPUT_PTX, (void *)ptx_lib,
			  sizeof ptx_lib - 1, NULL, 0, NULL, NULL);
	P("link.add.no_nul_null_name: %s\n", rn(r));
	r = cuLinkAddData(s, CU_JIT_INPUT_PTX, (void *)"garbage", 8, "g", 0,
			  NULL, NULL);
	P("link.add.garbage_ptx: %s\n", rn(r));
	logs("add.garbage_ptx");
	r = cuLinkAddData(s, CU_JIT_INPUT_PTX, (void *)ptx_bad,
			  sizeof ptx_bad, "bad", 0, NULL, NULL);
	P("link.add.bad_insn: %s\n", rn(r));
	logs("add.bad_insn");
	r = cuLinkAddData(s, CU_JIT_INPUT_PTX, (void *)ptx_newer,
			  sizeof ptx_newer, "newer", 0, NULL, NULL);
	P("link.add.target_sm100: %s\n", rn(r));
	r = cuLinkAddData(s, CU_JIT_INPUT_FATBINARY, (void *)"garbage", 8,
			  "g", 0, NULL, NULL);
	P("link.add.garbage_fatbin: %s\n", rn(r));
	r = cuLinkAddData(s, CU_JIT_INPUT_CUBIN, (void *)"garbage", 8, "g", 0,
			  NULL, NULL);
	P("link.add.garbage_cubin: %s\n", rn(r));
	r = cuLinkAddData(s, CU_JIT_INPUT_OBJECT, (void *)"garbage", 8, "g",
			  0, NULL, NULL);
	P("link.add.garbage_object: %s\n", rn(r));
	r = cuLinkAddData(s, CU_JIT_INPUT_LIBRARY, (void *)"garbage", 8, "g",
			  0, NULL, NULL);
	P("link.add.garbage_library: %s\n", rn(r));
	r = cuLinkAddData(s, CU_JIT_INPUT_NVVM, (void *)"garbage", 8, "g", 0,
			  NULL, NULL);
	P("link.add.nvvm: %s\n", rn(r));
	r = cuLinkAddFile(NULL, CU_JIT_INPUT_PTX, "/nonexistent.ptx", 0, NULL,
			  NULL);
	P("link.file.null_state: %s\n", rn(r));
	r = cuLinkAddFile(s, CU_JIT_INPUT_PTX, NULL, 0, NULL, NULL);
	P("link.file.null_path: %s\n", rn(r));
	r = cuLinkAddFile(s, CU_JIT_INPUT_PTX, "/nonexistent.ptx", 0, NULL,
			  NULL);
	P("link.file.missing: %s\n", rn(r));
	r = cuLinkAddFile(s, (CUjitInputType)77, "/nonexistent.ptx", 0, NULL,
			  NULL);
	P("link.file.unknown_type_missing: %s\n", rn(r));
	r = cuLinkAddFile(s, CU_JIT_INPUT_PTX, "/", 0, NULL, NULL);
	P("link.file.directory: %s\n", rn(r));
	r = cuLinkAddFile(s, CU_JIT_INPUT_PTX, "/dev/null", 0, NULL, NULL);
	P("link.file.empty: %s\n", rn(r));

	r = cuLinkComplete(NULL, &cubin, &size);
	P("link.complete.null_state: %s\n", rn(r));
	r = cuLinkComplete(s, NULL, &size);
	P("link.complete.null_cubin: %s\n", rn(r));
	r = cuLinkComplete(s, &cubin, NULL);
	P("link.complete.null_size: %s\n", rn(r));
	cubin = NULL;
	size = 0;
	r = cuLinkComplete(s, &cubin, &size);
	P("link.complete.nothing_added: %s image=%s\n", rn(r),
	  cubin && size ? "yes" : "no");
	r = cuLinkDestroy(s);
	P("link.destroy.after_failures: %s\n", rn(r));
	r = cuLinkDestroy(NULL);
	P("link.destroy.null: %s\n", rn(r));

	t = make();
	r = add(t, ptx_lib, "lib");
	P("link.again.add: %s\n", rn(r));
	r = cuLinkComplete(t, &cubin, &size);
	P("link.again.complete1: %s image=%s\n", rn(r),
	  cubin && size ? "yes" : "no");
	void *c2 = NULL;
	r = cuLinkComplete(t, &c2, &size);
	P("link.again.complete2: %s same=%d\n", rn(r), c2 == cubin);
	r = add(t, ptx_dup, "dup");
	P("link.again.add_after_complete: %s\n", rn(r));
	r = cuLinkDestroy(t);
	P("link.again.destroy: %s\n", rn(r));

	t = make();
	r = cuLinkComplete(t, &cubin, &size);
	P("link.empty.complete: %s\n", rn(r));
	cuLinkDestroy(t);

	/* which failure a state keeps: the first or the last */
	t = make();
	r = cuLinkAddData(t, CU_JIT_INPUT_PTX, (void *)ptx_bad,
			  sizeof ptx_bad, "bad", 0, NULL, NULL);
	P("link.sticky.add_bad: %s\n", rn(r));
	r = cuLinkAddData(t, CU_JIT_INPUT_PTX, (void *)"garbage", 8, "g", 0,
			  NULL, NULL);
	P("link.sticky.add_garbage: %s\n", rn(r));
	r = add(t, ptx_lib, "lib");
	P("link.sticky.add_good: %s\n", rn(r));
	r = cuLinkComplete(t, &cubin, &size);
	P("link.sticky.complete: %s\n", rn(r));
	cuLinkDestroy(t);

	/* whether a refused argument sticks */
	t = make();
	r = cuLinkAddData(t, CU_JIT_INPUT_PTX, NULL, 8, "n", 0, NULL, NULL);
	P("link.argfail.add_null: %s\n", rn(r));
	r = cuLinkAddData(t, (CUjitInputType)77, (void *)ptx_lib,
			  sizeof ptx_lib, "x", 0, NULL, NULL);
	P("link.argfail.add_type: %s\n", rn(r));
	r = add(t, ptx_lib, "lib");
	P("link.argfail.add_good: %s\n", rn(r));
	r = cuLinkComplete(t, &cubin, &size);
	P("link.argfail.complete: %s\n", rn(r));
	cuLinkDestroy(t);

	t = make();
	r = add(t, ptx_lib, "lib");
	P("link.sizenull.add: %s\n", rn(r));
	r = cuLinkComplete(t, &cubin, NULL);
	P("link.sizenull.complete: %s\n", rn(r));
	cuLinkDestroy(t);
}

static void links(CUdeviceptr out, const char *dir)
{
	CUlinkState s;
	CUresult r;
	char path[4096];

	s = make();
	r = add(s, ptx_main, "main");
	P("link.pair.add_main: %s\n", rn(r));
	r = add(s, ptx_lib, "lib");
	P("link.pair.add_lib: %s\n", rn(r));
	complete_run(s, "pair", "k", out);
	P("link.pair.wall: %s\n", wall >= 0 ? "ok" : "negative");
	cuLinkDestroy(s);

	s = make();
	r = add(s, ptx_lib, "lib");
	P("link.reversed.add_lib: %s\n", rn(r));
	r = add(s, ptx_main, "main");
	P("link.reversed.add_main: %s\n", rn(r));
	complete_run(s, "reversed", "k", out);
	cuLinkDestroy(s);

	s = make();
	r = add(s, ptx_undef, "undef");
	P("link.undef.add: %s\n", rn(r));
	complete_run(s, "undef", NULL, out);
	cuLinkDestroy(s);

	s = make();
	r = add(s, ptx_main, "main");
	P("link.undef_main.add: %s\n", rn(r));
	complete_run(s, "undef_main", NULL, out);
	cuLinkDestroy(s);

	s = make();
	r = add(s, ptx_unused_extern, "unused");
	P("link.unused_extern.add: %s\n", rn(r));
	complete_run(s, "unused_extern", "kn", out);
	cuLinkDestroy(s);

	s = make();
	r = add(s, ptx_lib, "lib");
	P("link.dup.add_lib: %s\n", rn(r));
	r = add(s, ptx_dup, "dup");
	P("link.dup.add_dup: %s\n", rn(r));
	complete_run(s, "dup", NULL, out);
	cuLinkDestroy(s);

	s = make();
	r = add(s, ptx_lib, "lib");
	P("link.same_twice.add1: %s\n", rn(r));
	r = add(s, ptx_lib, "lib");
	P("link.same_twice.add2: %s\n", rn(r));
	complete_run(s, "same_twice", NULL, out);
	cuLinkDestroy(s);

	s = make();
	r = add(s, ptx_weak1, "w1");
	P("link.weak.add1: %s\n", rn(r));
	r = add(s, ptx_weak2, "w2");
	P("link.weak.add2: %s\n", rn(r));
	complete_run(s, "weak", "kw1", out);
	complete_run(s, "weak_k2", "kw2", out);
	cuLinkDestroy(s);

	s = make();
	snprintf(path, sizeof path, "%s/basic.fatbin", dir);
	r = cuLinkAddFile(s, CU_JIT_INPUT_FATBINARY, path, 0, NULL, NULL);
	P("link.fatbin.add_file: %s\n", rn(r));
	complete_run(s, "fatbin", NULL, out);
	cuLinkDestroy(s);

	s = make();
	snprintf(path, sizeof path, "%s/basic.ptx", dir);
	r = cuLinkAddFile(s, CU_JIT_INPUT_PTX, path, 0, NULL, NULL);
	P("link.ptxfile.add_file: %s\n", rn(r));
	complete_run(s, "ptxfile", NULL, out);
	cuLinkDestroy(s);

	s = make();
	snprintf(path, sizeof path, "%s/basic-sm90.cubin", dir);
	r = cuLinkAddFile(s, CU_JIT_INPUT_CUBIN, path, 0, NULL, NULL);
	P("link.cubin.add_file: %s\n", rn(r));
	logs("cubin.add");
	complete_run(s, "cubin", NULL, out);
	cuLinkDestroy(s);

	s = make();
	snprintf(path, sizeof path, "%s/basic.fatbin", dir);
	r = cuLinkAddFile(s, CU_JIT_INPUT_PTX, path, 0, NULL, NULL);
	P("link.fatbin_as_ptx.add_file: %s\n", rn(r));
	cuLinkDestroy(s);

	/* nvcc's relocatable PTX (tests/cuda/rdc_a.cu, rdc_b.cu): the pair,
	 * rdc_a alone, rdc_b as a host object and in an archive */
	static const struct { const char *c, *second; CUjitInputType t; }
		nv[] = { { "nvcc_pair", "rdc_b.ptx", CU_JIT_INPUT_PTX },
			 { "nvcc_alone", NULL, CU_JIT_INPUT_PTX },
			 { "nvcc_object", "rdc_b.o", CU_JIT_INPUT_OBJECT },
			 { "nvcc_library", "librdc_b.a", CU_JIT_INPUT_LIBRARY },
			 { "nvcc_object_as_ptx", "rdc_b.o", CU_JIT_INPUT_PTX } };
	for (size_t i = 0; i < sizeof nv / sizeof nv[0]; i++) {
		char c[64];
		s = make();
		snprintf(path, sizeof path, "%s/rdc_a.ptx", dir);
		r = cuLinkAddFile(s, CU_JIT_INPUT_PTX, path, 0, NULL, NULL);
		P("link.%s.add_a: %s\n", nv[i].c, rn(r));
		if (nv[i].second) {
			snprintf(path, sizeof path, "%s/%s", dir, nv[i].second);
			r = cuLinkAddFile(s, nv[i].t, path, 0, NULL, NULL);
			P("link.%s.add_b: %s\n", nv[i].c, rn(r));
		}
		snprintf(c, sizeof c, "%s", nv[i].c);
		complete_run(s, c, "_Z7doubledPi", out);
		cuLinkDestroy(s);
	}

	/* rdc_a alone again, with fewer options: only the error log, and
	 * none */
	for (int k = 0; k < 2; k++) {
		CUjit_option eo[] = { CU_JIT_ERROR_LOG_BUFFER,
				      CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
		void *ev[] = { err, (void *)(uintptr_t)sizeof err };
		void *cubin = NULL;
		size_t size = 0;
		s = NULL;
		CK(cuLinkCreate(k ? 0 : 2, k ? NULL : eo, k ? NULL : ev, &s));
		snprintf(path, sizeof path, "%s/rdc_a.ptx", dir);
		r = cuLinkAddFile(s, CU_JIT_INPUT_PTX, path, 0, NULL, NULL);
		P("link.nvcc_alone_%s.add_a: %s\n", k ? "nolog" : "errlog",
		  rn(r));
		r = cuLinkComplete(s, &cubin, &size);
		P("link.nvcc_alone_%s.complete: %s\n",
		  k ? "nolog" : "errlog", rn(r));
		cuLinkDestroy(s);
		s = NULL;
		CK(cuLinkCreate(k ? 0 : 2, k ? NULL : eo, k ? NULL : ev, &s));
		r = add(s, ptx_undef, "undef");
		P("link.undef_%s.add: %s\n", k ? "nolog" : "errlog", rn(r));
		r = cuLinkComplete(s, &cubin, &size);
		P("link.undef_%s.complete: %s\n", k ? "nolog" : "errlog",
		  rn(r));
		cuLinkDestroy(s);
	}

	/* an empty link's image */
	s = make();
	{
		void *cubin = NULL;
		size_t size = 0;
		CUmodule m;
		unsigned count = 99;
		r = cuLinkComplete(s, &cubin, &size);
		P("link.empty_image.complete: %s image=%s\n", rn(r),
		  cubin && size ? "yes" : "no");
		if (r == CUDA_SUCCESS) {
			r = cuModuleLoadData(&m, cubin);
			P("link.empty_image.load: %s\n", rn(r));
			if (r == CUDA_SUCCESS) {
				r = cuModuleGetFunctionCount(&count, m);
				P("link.empty_image.functions: %s %u\n",
				  rn(r), count);
				cuModuleUnload(m);
			}
		}
	}
	cuLinkDestroy(s);

	/* a state made in one context, completed in another */
	s = make();
	r = add(s, ptx_lib, "lib");
	P("link.xctx.add: %s\n", rn(r));
	if (g_ndev > 1) {
		void *cubin = NULL;
		size_t size = 0;
		CK(cuCtxSetCurrent(g_ctx[1]));
		r = cuLinkComplete(s, &cubin, &size);
		P("link.xctx.complete_other: %s\n", rn(r));
		CK(cuCtxSetCurrent(g_ctx[0]));
	}
	cuLinkDestroy(s);
}

int main(int argc, char **argv)
{
	CUlinkState s = NULL;
	CUresult r;
	CUdeviceptr out;
	const char *dir = argc > 1 ? argv[1] : ".";

	r = cuLinkCreate(0, NULL, NULL, &s);
	P("link.noinit.create: %s\n", rn(r));
	r = cuLinkDestroy(NULL);
	P("link.noinit.destroy: %s\n", rn(r));
	setup("link");
	CK(cuCtxSetCurrent(NULL));
	s = NULL;
	r = cuLinkCreate(0, NULL, NULL, &s);
	P("link.noctx.create: %s\n", rn(r));
	if (r == CUDA_SUCCESS) {
		r = add(s, ptx_lib, "lib");
		P("link.noctx.add: %s\n", rn(r));
		cuLinkDestroy(s);
	}
	CK(cuCtxSetCurrent(g_ctx[0]));
	s = NULL;
	r = cuLinkCreate(0, NULL, NULL, &s);
	P("link.create.no_options: %s state=%s\n", rn(r), s ? "set" : "NULL");
	if (r == CUDA_SUCCESS) {
		CK(cuCtxSetCurrent(NULL));
		r = add(s, ptx_lib, "lib");
		P("link.noctx.add_to_made: %s\n", rn(r));
		CK(cuCtxSetCurrent(g_ctx[0]));
		cuLinkDestroy(s);
	}
	args();
	CK(cuMemAlloc(&out, 64));
	links(out, dir);
	cuMemFree(out);

	s = make();
	r = cuLinkDestroy(s);
	P("link.destroy.once: %s\n", rn(r));
	r = G(cuLinkDestroy(s));
	P("link.destroy.twice: %s\n", rn(r));
	teardown("link");
	return 0;
}
