/*
 * test_link.c - the JIT linker beyond what probes/link.c asked two H200s
 * (replay.sh replays that): texts that name internal functions and
 * variables alike, each keeping its own; an .extern variable declared
 * after its definition; weak functions; nvcc's relocatable PTX linked from
 * a host object and from an archive and run; the linked image's container
 * refused when it does not hold together (a unit past the image's end, a
 * name without its NUL, too many units, another version), and left as it
 * was; a refusal's log naming the text and line; a state destroyed twice.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"
#include "tap.h"
#include "kernel_file.h"

/* Two texts with an internal function h and variable g of their own
 * (each entry must reach its own), one visible function f in the first
 * that the second calls, and a variable v the second defines and the
 * first declares after its own use of f. */
static const char text_a[] =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".global .align 4 .u32 g = 10;\n"
	".func (.param .b32 r) h()\n{\n	.reg .b32 %r<2>;\n"
	"	ld.global.u32 %r1, [g];\n	st.param.b32 [r], %r1;\n	ret;\n}\n"
	".visible .func (.param .b32 r) f()\n{\n	.reg .b32 %r<2>;\n"
	"	mov.u32 %r1, 7;\n	st.param.b32 [r], %r1;\n	ret;\n}\n"
	".extern .global .align 4 .u32 v;\n"
	".visible .entry ka(.param .u64 out)\n{\n"
	"	.reg .b32 %r<4>;\n	.reg .b64 %rd<2>;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	{\n	.param .b32 r0;\n	call.uni (r0), h, ();\n"
	"	ld.param.b32 %r1, [r0];\n	}\n"
	"	ld.global.u32 %r2, [v];\n	add.u32 %r1, %r1, %r2;\n"
	"	st.global.u32 [%rd1], %r1;\n	ret;\n}\n";
static const char text_b[] =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".visible .global .align 4 .u32 v = 1000;\n"
	".global .align 4 .u32 g = 20;\n"
	".func (.param .b32 r) h()\n{\n	.reg .b32 %r<2>;\n"
	"	ld.global.u32 %r1, [g];\n	st.param.b32 [r], %r1;\n	ret;\n}\n"
	".extern .func (.param .b32 r) f();\n"
	".visible .entry kb(.param .u64 out)\n{\n"
	"	.reg .b32 %r<4>;\n	.reg .b64 %rd<2>;\n"
	"	ld.param.u64 %rd1, [out];\n"
	"	{\n	.param .b32 r0;\n	call.uni (r0), h, ();\n"
	"	ld.param.b32 %r1, [r0];\n	}\n"
	"	{\n	.param .b32 r1;\n	call.uni (r1), f, ();\n"
	"	ld.param.b32 %r2, [r1];\n	}\n"
	"	add.u32 %r1, %r1, %r2;\n"
	"	st.global.u32 [%rd1], %r1;\n	ret;\n}\n";
static const char bad[] =
	".version 8.0\n.target sm_80\n.address_size 64\n"
	".visible .entry kbad()\n{\n	frobnicate.u32 %r1;\n	ret;\n}\n";

static char err[1024];

/* The options live as long as the state: the driver writes the log's
 * size back into v at each add and at complete, as the real one does. */
static CUjit_option o[] = { CU_JIT_ERROR_LOG_BUFFER,
			    CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
static void *v[2];

static CUlinkState make(void)
{
	CUlinkState s = NULL;

	err[0] = '\0';
	v[0] = err;
	v[1] = (void *)(uintptr_t)sizeof err;
	if (cuLinkCreate(2, o, v, &s) != CUDA_SUCCESS) {
		printf("Bail out! cuLinkCreate\n");
		exit(1);
	}
	return s;
}

static CUresult add(CUlinkState s, const char *t, const char *name)
{
	return cuLinkAddData(s, CU_JIT_INPUT_PTX, (void *)t, strlen(t) + 1,
			     name, 0, NULL, NULL);
}

/* Runs kernel kn of image on one thread; its word, or ~0u. */
static unsigned run1(const void *image, const char *kn, CUdeviceptr out)
{
	CUmodule m;
	CUfunction f;
	unsigned word = ~0u;
	void *a[] = { &out };

	if (cuModuleLoadData(&m, image) != CUDA_SUCCESS)
		return ~0u;
	if (cuModuleGetFunction(&f, m, kn) == CUDA_SUCCESS &&
	    cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, a, NULL) ==
		    CUDA_SUCCESS &&
	    cuCtxSynchronize() == CUDA_SUCCESS)
		(void)cuMemcpyDtoH(&word, out, sizeof word);
	cuModuleUnload(m);
	return word;
}

static void scopes(CUdeviceptr out)
{
	CUlinkState s = make();
	void *image;
	size_t size;

	is_res(add(s, text_a, "a"), CUDA_SUCCESS,
	       "a text with internal g and h is taken");
	is_res(add(s, text_b, "b"), CUDA_SUCCESS,
	       "a second text naming its own internal g and h is taken");
	is_res(cuLinkComplete(s, &image, &size), CUDA_SUCCESS,
	       "the two link: f and v resolve across them");
	is_int(run1(image, "ka", out), 10 + 1000,
	       "ka reads its own g through its own h, and b's v");
	is_int(run1(image, "kb", out), 20 + 7,
	       "kb reads its own g, and calls a's f");
	is_res(cuLinkDestroy(s), CUDA_SUCCESS, "destroyed");
	is_res(cuLinkDestroy(s), CUDA_ERROR_INVALID_HANDLE,
	       "destroyed again: INVALID_HANDLE, nothing read");

	s = make();
	is_res(add(s, text_b, "b"), CUDA_SUCCESS, "b first");
	is_res(add(s, text_a, "a"), CUDA_SUCCESS, "a after it");
	is_res(cuLinkComplete(s, &image, &size), CUDA_SUCCESS,
	       "linked in the other order");
	is_int(run1(image, "kb", out), 27, "kb the same");
	cuLinkDestroy(s);

	s = make();
	is_res(add(s, text_a, "first"), CUDA_SUCCESS, "a");
	is_res(add(s, bad, "broken"), CUDA_ERROR_INVALID_PTX,
	       "a text the engine refuses: INVALID_PTX at its add");
	ok(strstr(err, "broken: line 6") != NULL,
	   "the error log names the text and its line (%s)", err);
	is_res(add(s, text_a, "again"), CUDA_ERROR_UNKNOWN,
	       "a's definitions a second time: UNKNOWN at the add");
	ok(strstr(err, "again") && strstr(err, "defined twice"),
	   "the log says which (%s)", err);
	cuLinkDestroy(s);
}

/* nvcc's relocatable rdc_b.cu as a host object and in an archive, beside
 * rdc_a's PTX: doubled's thread 0 writes twice(0) + offset = 100. */
static void objects(CUdeviceptr out)
{
	static const struct { const char *file; CUjitInputType t; } in[] = {
		{ "rdc_b.o", CU_JIT_INPUT_OBJECT },
		{ "librdc_b.a", CU_JIT_INPUT_LIBRARY },
		{ "rdc_b.ptx", CU_JIT_INPUT_PTX },
	};
	size_t la, lb;
	char *a = kernel_file("rdc_a.ptx", &la);

	for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
		char *b = kernel_file(in[i].file, &lb);
		CUlinkState s = make();
		void *image = NULL;
		size_t size;

		is_res(cuLinkAddData(s, CU_JIT_INPUT_PTX, a, la, "rdc_a", 0,
				     NULL, NULL), CUDA_SUCCESS,
		       "rdc_a.ptx taken");
		is_res(cuLinkAddData(s, in[i].t, b, lb, in[i].file, 0, NULL,
				     NULL), CUDA_SUCCESS, "%s taken",
		       in[i].file);
		is_res(cuLinkComplete(s, &image, &size), CUDA_SUCCESS,
		       "rdc_a with %s links", in[i].file);
		is_int(run1(image, "_Z7doubledPi", out), 100,
		       "doubled calls twice and reads offset of %s",
		       in[i].file);
		cuLinkDestroy(s);
		free(b);
	}
	free(a);
}

/* The image's container as cuLinkComplete made it, then broken. */
static void container(void)
{
	CUlinkState s = make();
	CUmodule m;
	void *image;
	size_t size;
	unsigned char *copy;

	add(s, text_a, "a");
	add(s, text_b, "b");
	if (cuLinkComplete(s, &image, &size) != CUDA_SUCCESS) {
		ok(0, "the pair links");
		cuLinkDestroy(s);
		return;
	}
	copy = malloc(size);
	ok(copy && size > 24 && !memcmp(image, "CLNK", 4),
	   "the image starts with its magic (%zu bytes)", size);
	if (!copy) {
		cuLinkDestroy(s);
		return;
	}
	memcpy(copy, image, size);
	is_res(cuModuleLoadData(&m, copy), CUDA_SUCCESS, "a copy loads");
	cuModuleUnload(m);

	copy[8] = 0xff;   /* units: far more than the image holds */
	copy[9] = 0xff;
	is_res(cuModuleLoadData(&m, copy), CUDA_ERROR_INVALID_IMAGE,
	       "a count of units past the image: INVALID_IMAGE");
	memcpy(copy, image, size);
	copy[4] = 2;      /* another version */
	is_res(cuModuleLoadData(&m, copy), CUDA_ERROR_INVALID_IMAGE,
	       "another version of the header: INVALID_IMAGE");
	memcpy(copy, image, size);
	copy[24 + 8] = 0xff;  /* the first text's bytes past the image */
	copy[24 + 9] = 0xff;
	is_res(cuModuleLoadData(&m, copy), CUDA_ERROR_INVALID_IMAGE,
	       "a text past the image's end: INVALID_IMAGE");
	memcpy(copy, image, size);
	copy[24 + 16 + 1] = 'X'; /* "a" loses its NUL */
	is_res(cuModuleLoadData(&m, copy), CUDA_ERROR_INVALID_IMAGE,
	       "a name without its NUL: INVALID_IMAGE");
	ok(!memcmp(image, "CLNK", 4), "the state's own image is unchanged");
	free(copy);
	cuLinkDestroy(s);
}

int main(void)
{
	CUdevice dev;
	CUcontext ctx;
	CUdeviceptr out;

	if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) ||
	    cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx) ||
	    cuMemAlloc(&out, 64)) {
		printf("Bail out! no context\n");
		return 1;
	}
	scopes(out);
	objects(out);
	container();
	cuMemFree(out);
	cuDevicePrimaryCtxRelease(dev);
	return done_testing();
}
