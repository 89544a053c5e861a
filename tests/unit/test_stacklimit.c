/*
 * test_stacklimit.c - cuCtxSetLimit and cuCtxGetLimit of the stack size,
 * the printf FIFO and the device heap answer as an H200 did: the replay
 * of probes/results/stacklimit.txt, line by line in its order (the
 * stack's rounding depends on the value before), then the same bounds
 * through cudaDeviceSetLimit. Runs on the built-in 4 x H200 machine.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"
#include "cuda_runtime.h"
#include "probe_rows.h"
#include "tap.h"

static const char *res_name(CUresult r)
{
	const char *s = NULL;

	return cuGetErrorName(r, &s) == CUDA_SUCCESS && s ? s : "?";
}

static CUlimit limit_of(const char *name)
{
	if (!strcmp(name, "stack"))
		return CU_LIMIT_STACK_SIZE;
	if (!strcmp(name, "printf"))
		return CU_LIMIT_PRINTF_FIFO_SIZE;
	return CU_LIMIT_MALLOC_HEAP_SIZE;
}

/* An order.* line: the call it names, with or without a context. */
static void order_line(const char *name, const char *want, CUcontext ctx)
{
	size_t v = 0;
	CUresult r;

	if (!strncmp(name, "noctx_", 6))
		cuCtxSetCurrent(NULL);
	if (!strcmp(name, "get_null_bad"))
		r = cuCtxGetLimit(NULL, (CUlimit)99);
	else if (!strcmp(name, "get_null") || !strcmp(name, "noctx_get_null"))
		r = cuCtxGetLimit(NULL, CU_LIMIT_STACK_SIZE);
	else if (!strcmp(name, "get_bad"))
		r = cuCtxGetLimit(&v, (CUlimit)99);
	else if (!strcmp(name, "set_bad") || !strcmp(name, "noctx_set_bad"))
		r = cuCtxSetLimit((CUlimit)99, 1024);
	else if (!strcmp(name, "set_bad_huge"))
		r = cuCtxSetLimit((CUlimit)99, SIZE_MAX);
	else if (!strcmp(name, "noctx_set_huge"))
		r = cuCtxSetLimit(CU_LIMIT_STACK_SIZE, SIZE_MAX);
	else if (!strcmp(name, "noctx_set_zero"))
		r = cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 0);
	else {
		ok(0, "order.%s is a case the replay knows", name);
		return;
	}
	cuCtxSetCurrent(ctx);
	ok(!strcmp(res_name(r), want), "order.%s: %s (H200: %s)", name,
	   res_name(r), want);
}

/* A set line: the answer and what reads back after it. */
static void set_line(const char *lim, const char *tag, size_t value,
		     const char *want, size_t want_get)
{
	CUlimit l = limit_of(lim);
	CUresult r = cuCtxSetLimit(l, value);
	size_t v = 0;

	cuCtxGetLimit(&v, l);
	ok(!strcmp(res_name(r), want) && v == want_get,
	   "%s.%s: set %zu: %s, reads %zu (H200: %s, %zu)", lim, tag, value,
	   res_name(r), v, want, want_get);
}

/* One line of the probe's output; low is true between the stack's
 * allocation of nearly all memory and its restore, which the replay
 * leaves out: where its bisection ends depends on 150 MiB the H200 let go
 * beside the stacks at each refusal, which the model does not hold
 * (DESIGN.md, "The stacks' memory"; test_stackmem replays the stacks'
 * memory and its refusals). */
static void replay_line(const char *line, bool *low, CUcontext ctx)
{
	char lim[16], tag[32], want[64];
	size_t value, got, v = 0;
	int n = 0;

	if (sscanf(line, "stacklimit.order.%31[^:]: %63s", tag, want) == 2) {
		order_line(tag, want, ctx);
	} else if (sscanf(line, "stacklimit.%15[^.].default: %zu", lim,
			  &got) == 2) {
		cuCtxGetLimit(&v, limit_of(lim));
		is_int(v, got, "%s: a fresh context reads %zu", lim, got);
	} else if (sscanf(line, "stacklimit.stack.alloc %zu:%n", &value,
			  &n) == 1 && n) {
		*low = true;
	} else if (sscanf(line, "stacklimit.%15[^.].%31[^.].set %zu: %63s "
			  "get=%zu", lim, tag, &value, want, &got) == 5) {
		if (!strcmp(lim, "stack") && !strcmp(tag, "restore"))
			*low = false;
		if (!*low)
			set_line(lim, tag, value, want, got);
	}
}

static void replay(CUcontext ctx)
{
	size_t len = 0;
	char *res = slurp("probes/results/stacklimit.txt", &len);
	bool low = false;
	int lines = 0;

	if (!ok(res != NULL, "probes/results/stacklimit.txt is readable"))
		return;
	for (char *p = res, *e; *p; p = e + (*e != '\0')) {
		e = p + strcspn(p, "\n");
		char c = *e;

		*e = '\0';
		replay_line(p, &low, ctx);
		*e = c;
		lines++;
	}
	ok(lines > 100, "the probe's %d lines were replayed", lines);
	free(res);
}

/* The runtime's entries reach the same bounds, with the runtime's codes. */
static void runtime(void)
{
	size_t v = 0;

	is_int(cudaDeviceSetLimit(cudaLimitStackSize, 4096), cudaSuccess,
	       "cudaDeviceSetLimit stack 4 KiB");
	is_int(cudaDeviceSetLimit(cudaLimitStackSize, (size_t)1 << 30),
	       cudaErrorInvalidValue, "a stack of 1 GiB: cudaErrorInvalidValue");
	is_int(cudaGetLastError(), cudaErrorInvalidValue,
	       "and it is the last error");
	cudaDeviceGetLimit(&v, cudaLimitStackSize);
	is_int(v, 4096, "the refused stack left 4 KiB");
	is_int(cudaDeviceSetLimit(cudaLimitStackSize, 523712), cudaSuccess,
	       "the largest stack, 523712 bytes");
	is_int(cudaDeviceSetLimit(cudaLimitStackSize, 523713),
	       cudaErrorInvalidValue, "a byte more is refused");
	is_int(cudaDeviceSetLimit(cudaLimitStackSize, 1025), cudaSuccess,
	       "cudaDeviceSetLimit stack 1025");
	cudaDeviceGetLimit(&v, cudaLimitStackSize);
	is_int(v, 1040, "reads back 1040, 16-byte steps");
	cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 0);
	cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize);
	is_int(v, 512 << 10, "a printf FIFO of 0 is 512 KiB");
	cudaDeviceSetLimit(cudaLimitMallocHeapSize, (size_t)1 << 40);
	cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize);
	is_int(v, 17681179680ull, "a 1 TiB heap is capped as on the H200");
	cudaDeviceSetLimit(cudaLimitStackSize, 1024);
	cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 8650752);
	cudaDeviceSetLimit(cudaLimitMallocHeapSize, 8 << 20);
}

int main(void)
{
	CUdevice dev;
	CUcontext ctx = NULL;

	if (!ok(cuInit(0) == CUDA_SUCCESS && cuDeviceGet(&dev, 0) ==
		CUDA_SUCCESS && cuDevicePrimaryCtxRetain(&ctx, dev) ==
		CUDA_SUCCESS && cuCtxSetCurrent(ctx) == CUDA_SUCCESS,
		"device 0's primary context is current"))
		return done_testing();
	replay(ctx);
	cuCtxSetCurrent(NULL);
	cuDevicePrimaryCtxRelease(dev);
	runtime();
	return done_testing();
}
