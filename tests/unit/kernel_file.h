/*
 * kernel_file.h - the tests' one reader of a file of tests/unit/kernels/
 * (PTX, fatbins, cubins nvcc made of our own kernels): its bytes, NUL
 * terminated, and their count; a file that cannot be read bails out. And
 * a loaded module's kernel by name, or a bail-out; managed memory for a
 * kernel's arguments, zeroed.
 */
#ifndef CUEMU_TEST_KERNEL_FILE_H
#define CUEMU_TEST_KERNEL_FILE_H

#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline char *kernel_file(const char *name, size_t *len)
{
	char path[1024];
	const char *src = getenv("top_srcdir");
	char *b;
	FILE *f;
	long n;

	snprintf(path, sizeof path, "%s/tests/unit/kernels/%s",
		 src ? src : ".", name);
	if (!(f = fopen(path, "rb"))) {
		printf("Bail out! cannot open %s\n", path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	b = n >= 0 ? calloc(1, (size_t)n + 1) : NULL;
	if (!b || fread(b, 1, (size_t)n, f) != (size_t)n) {
		printf("Bail out! cannot read %s\n", path);
		exit(1);
	}
	fclose(f);
	if (len)
		*len = (size_t)n;
	return b;
}

/* n bytes of managed memory, zeroed, for a kernel's arguments and
 * results; a bail-out where none is had. */
static inline void *kernel_managed(size_t n)
{
	CUdeviceptr p = 0;

	if (cuMemAllocManaged(&p, n, CU_MEM_ATTACH_GLOBAL) != CUDA_SUCCESS) {
		printf("Bail out! no managed memory\n");
		exit(1);
	}
	memset((void *)(uintptr_t)p, 0, n);
	return (void *)(uintptr_t)p;
}

/* dev's primary context afresh (reset, retained, made current) with ptx
 * loaded in it (name says which in a bail-out): a test's start again
 * after a launch that ended its context. */
static inline CUmodule kernel_fresh(CUdevice dev, const char *ptx,
				    const char *name)
{
	CUcontext ctx;
	CUmodule mod;

	cuCtxSetCurrent(NULL);
	cuDevicePrimaryCtxReset(dev);
	cuDevicePrimaryCtxRetain(&ctx, dev);
	cuCtxSetCurrent(ctx);
	if (cuModuleLoadData(&mod, ptx) != CUDA_SUCCESS) {
		printf("Bail out! %s does not load\n", name);
		exit(1);
	}
	return mod;
}

static inline CUfunction kernel_fn(CUmodule mod, const char *name)
{
	CUfunction f = NULL;

	if (cuModuleGetFunction(&f, mod, name) != CUDA_SUCCESS) {
		printf("Bail out! no kernel %s\n", name);
		exit(1);
	}
	return f;
}

#endif
