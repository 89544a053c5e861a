/*
 * test_heap.c - the device heap and indirect calls as an H200 answered
 * them (probes/heap.cu, probes/results/heap.txt; each check names the
 * line it replays), through tests/unit/kernels/heap.cu: the default size,
 * a size set after a launch that did not use the heap, blocks 16-byte
 * aligned (malloc(0) one too), the size refused once a launch has used
 * it, what a heap holds of blocks its own size and half of it (and of a
 * 4 MiB heap set before any use), blocks freed by another kernel, a
 * function table, virtual functions, function addresses as the host
 * reads them, and the launch errors of calls through 0 and a misaligned
 * address. Also a packed allocation read by a kernel while the one that
 * began its page is freed (newdelete's placement new met it).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "kernel_file.h"

typedef unsigned long long u64;

static CUdevice dev;
static CUmodule mod;
static char *ptx;

static CUfunction fn(const char *name)
{
	return kernel_fn(mod, name);
}

/* The primary context afresh (its heap with it), heap.ptx loaded in it. */
static void fresh(void)
{
	mod = kernel_fresh(dev, ptx, "heap.ptx");
}

static CUresult run1(const char *k, unsigned threads, void **args)
{
	CUresult r = cuLaunchKernel(fn(k), 1, 1, 1, threads, 1, 1, 0, NULL,
				    args, NULL);
	return r ? r : cuCtxSynchronize();
}

/* How many blocks of size one thread takes before malloc answers NULL;
 * they are freed again by another kernel. */
static int count(u64 size, int cap)
{
	int *got = kernel_managed(sizeof *got), n;
	u64 *keep = kernel_managed((size_t)cap * sizeof *keep + 8);
	void *a[] = { &size, &cap, &got, &keep };

	*got = -1;
	if (run1("take", 1, a) != CUDA_SUCCESS)
		return -2;
	n = *got;
	void *f[] = { &keep, &n };
	if (run1("frees", 1, f) != CUDA_SUCCESS)
		n = -3;
	cuMemFree((CUdeviceptr)(uintptr_t)got);
	cuMemFree((CUdeviceptr)(uintptr_t)keep);
	return n;
}

static void test_limit_and_blocks(void)
{
	static const u64 sz[] = { 1, 3, 16, 17, 100, 0, 4096, 1 << 20, 24, 8 };
	int n = (int)(sizeof sz / sizeof sz[0]), aligned = 0, apart = 1;
	u64 *sizes = kernel_managed(sizeof sz), *addr = kernel_managed(sizeof sz);
	int *o = kernel_managed(64);
	size_t lim = 0, fr0, fr1, tot;
	void *a0[] = { &o }, *a1[] = { &sizes, &n, &addr }, *a2[] = { &addr, &n };

	cuCtxGetLimit(&lim, CU_LIMIT_MALLOC_HEAP_SIZE);
	is_int(lim, 8388608, "heap.default_limit: 8 MiB");
	is_res(run1("nomalloc", 1, a0), CUDA_SUCCESS, "a kernel without malloc");
	is_res(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 8 << 20), CUDA_SUCCESS,
	       "heap.set_after_nomalloc: the size may still change");
	memcpy(sizes, sz, sizeof sz);
	cuMemGetInfo(&fr0, &tot);
	is_res(run1("allocs", 1, a1), CUDA_SUCCESS, "heap.first_malloc_launch");
	cuMemGetInfo(&fr1, &tot);
	ok(fr0 - fr1 >= (8u << 20), "the heap is the device's memory: "
	   "free fell by %zu", fr0 - fr1);
	for (int i = 0; i < n; i++) {
		aligned += addr[i] && addr[i] % 16 == 0;
		for (int j = 0; j < n; j++)   /* no two blocks overlap */
			if (i != j && addr[i] <= addr[j] &&
			    addr[j] < addr[i] + (sz[i] ? sz[i] : 1))
				apart = 0;
	}
	is_int(aligned, n, "heap.align.*: every block 16-byte aligned, "
	       "malloc(0) one too");
	ok(apart, "no two blocks overlap");
	is_res(cuMemFree((CUdeviceptr)addr[0]), CUDA_ERROR_INVALID_VALUE,
	       "heap.host.cudafree: the host cannot free a block");
	is_res(run1("frees", 1, a2), CUDA_SUCCESS, "heap.frees: another "
	       "kernel frees them");
	is_res(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 16 << 20),
	       CUDA_ERROR_INVALID_VALUE, "heap.set_after_use: INVALID_VALUE");
	cuCtxGetLimit(&lim, CU_LIMIT_MALLOC_HEAP_SIZE);
	is_int(lim, 8388608, "and the size stays 8 MiB");
	is_res(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 8 << 20),
	       CUDA_ERROR_INVALID_VALUE, "heap.set_same_after_use: the same "
	       "size too");
	is_res(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 2048), CUDA_SUCCESS,
	       "the stack's size still changes");
	is_int(count(8 << 20, 4), 0, "heap.count.8388608: no block of the "
	       "whole heap");
	is_int(count(9 << 20, 4), 0, "heap.count.9437184: nor a larger one");
	is_int(count(4 << 20, 4), 1, "heap.count.4194304: one of half of it");
}

/* Every thread of 4096 takes 16 KiB, more than the heap holds; another
 * kernel reads each thread's word back, another frees them all, and the
 * heap holds as many 1 MiB blocks as before. */
static void test_many(void)
{
	enum { T = 4096 };
	u64 *addr = kernel_managed(T * sizeof *addr), size = 16384;
	int *sum = kernel_managed(sizeof *sum), n = 0, want = 0, before, k = 0;
	void *a[] = { &size, &addr }, *s[] = { &addr, &k, &sum },
	     *f[] = { &addr, &k };

	before = count(1 << 20, 64);
	is_res(cuLaunchKernel(fn("each"), T / 1024, 1, 1, 1024, 1, 1, 0,
			      NULL, a, NULL), CUDA_SUCCESS, "4096 threads "
	       "malloc 16 KiB each");
	is_res(cuCtxSynchronize(), CUDA_SUCCESS, "heap.many.4096x16384");
	for (int t = 0; t < T; t++)
		if (addr[t]) {
			want += t;
			addr[k++] = addr[t];
			n++;
		}
	ok(n > 0 && n < T, "some got a block, not all (%d)", n);
	is_res(run1("sum_each", 1, s), CUDA_SUCCESS, "heap.many.readback: a "
	       "later kernel reads them");
	is_int(*sum, want, "each block holds its thread's number");
	is_res(run1("frees", 1, f), CUDA_SUCCESS, "heap.many.freed_by_other");
	is_int(count(1 << 20, 64), before, "heap.count_after_other_free: as "
	       "many 1 MiB blocks as before (%d)", before);
}

static void test_calls(void)
{
	int *out = kernel_managed(64 * sizeof *out), right = 1, vright = 1;
	u64 *fp = kernel_managed(3 * sizeof *fp), host[3], a;
	CUdeviceptr tab;
	size_t tsize;
	void *args[] = { &out, &fp }, *at[] = { &a, &out };

	is_res(run1("calls", 32, args), CUDA_SUCCESS, "heap.fp: a table and "
	       "virtual functions, divergent in a warp");
	for (int t = 0; t < 32; t++) {
		right &= out[t] == (t % 3 == 0 ? t + 1 : t % 3 == 1 ? 2 * t : -t);
		vright &= out[32 + t] == ((t & 1) ? t * t : 2 * t);
	}
	ok(right, "heap.fp.table: right");
	ok(vright, "heap.fp.virtual: right");
	cuModuleGetGlobal(&tab, &tsize, mod, "table");
	cuMemcpyDtoH(host, tab, sizeof host);
	ok(tsize == 24 && host[0] == fp[0] && host[1] == fp[1],
	   "heap.fp.host_table_equals_device: yes");
	ok(fp[2] == fp[0], "heap.fp.address_of_equals_table: yes");
	ok(fp[0] % 8 == 0 && fp[1] - fp[0] == 8 && fp[2] != 0,
	   "heap.fp.values: 8-aligned, 8 apart");
	a = fp[1];
	out[0] = 0;
	is_res(run1("callat", 1, at), CUDA_SUCCESS,
	       "heap.fp.callat_host_value: an address from the host");
	is_int(out[0], 14, "calls dbl");
	a = 0;
	is_res(run1("callat", 1, at), CUDA_ERROR_INVALID_PC,
	       "heap.bad.null: INVALID_PC");
	is_res(cuCtxSynchronize(), CUDA_ERROR_INVALID_PC, "and it stays");
	fresh();
	a = host[0] + 4;
	is_res(run1("callat", 1, at), CUDA_ERROR_MISALIGNED_ADDRESS,
	       "heap.bad.plus4: MISALIGNED_ADDRESS");
	fresh();
}

/* probes/results/heap.txt, heap.setbefore.0 and 4194304: the heap raised
 * to 4 MiB holds three 1 MiB blocks and no block of its whole size. */
static void test_set_before(void)
{
	size_t lim = 0;

	is_res(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 0), CUDA_SUCCESS,
	       "heap.setbefore.0.set");
	cuCtxGetLimit(&lim, CU_LIMIT_MALLOC_HEAP_SIZE);
	is_int(lim, 4194304, "reads 4 MiB");
	is_int(count(1 << 20, 4096), 3, "heap.setbefore.0.count.1048576: 3");
	is_int(count(4 << 20, 4), 0, "heap.setbefore.0.count.whole: 0");
	fresh();
}

/* Allocations under 2 MiB share pages 512 bytes apart: with the one that
 * begins a page freed, a kernel still reads the next one. */
static void test_packed(void)
{
	CUdeviceptr p[16], first = 0, next = 0;
	int *out = kernel_managed(sizeof *out), v = 77;
	void *args[] = { &next, &out };

	for (int i = 0; i < 16; i++)
		cuMemAlloc(&p[i], 512);
	for (int i = 0; i + 1 < 16 && !first; i++)
		if (p[i] % 4096 == 0 && p[i + 1] == p[i] + 512) {
			first = p[i];
			next = p[i + 1];
		}
	ok(first != 0, "a page begun by one allocation, the next beside it");
	cuMemcpyHtoD(next, &v, sizeof v);
	cuMemFree(first);
	*out = 0;
	is_res(run1("readword", 1, args), CUDA_SUCCESS,
	       "a kernel reads the second with the first freed");
	is_int(*out, 77, "and reads its word");
	for (int i = 0; i < 16; i++)
		if (p[i] != first)
			cuMemFree(p[i]);
}

int main(void)
{
	ptx = kernel_file("heap.ptx", NULL);
	cuInit(0);
	cuDeviceGet(&dev, 0);
	fresh();
	test_limit_and_blocks();
	test_many();
	fresh();
	test_calls();
	test_set_before();
	test_packed();
	cuModuleUnload(mod);
	cuDevicePrimaryCtxRelease(dev);
	free(ptx);
	return done_testing();
}
