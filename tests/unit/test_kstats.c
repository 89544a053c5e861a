/*
 * test_kstats.c - the per-kernel accounting (model/kstats.c) through the
 * public API, read back over the control socket as cufs shows it: a real
 * kernel's launches (tests/unit/kernels/pages.ptx) counted by its PTX
 * name with their faults, migrations and bytes (a peer's by its GPU),
 * its allocations' share,
 * a function run as an emulated kernel counted as no kernel, the table
 * bounded (the kernels past 1,024 summed in "(other)"), and the C++ names
 * the kernels' name files show.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cuda.h"
#include "cuemu.h"
#include "tap.h"
#include "ctl.h"
#include "kernel_file.h"

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

bool cuemu_demangle(const char *mangled, char *out, size_t len);

static char buf[1 << 20];

/* The control socket's answer to a get or list of path, or NULL. */
static json_t *ask(const char *op, const char *path)
{
	char req[256];
	json_t *ans, *v;

	snprintf(req, sizeof req, "{\"op\":\"%s\",\"path\":\"%s\"}", op, path);
	if (!*ctl_line(ctl_fd, req, buf, sizeof buf) ||
	    !(ans = json_loads(buf, 0, NULL)))
		return NULL;
	v = json_incref(json_object_get(ans, strcmp(op, "list") ? "value"
							       : "ids"));
	json_decref(ans);
	return v;
}

/* The record of kernel name, found among the kernels listed, or NULL. */
static json_t *kernel(const char *name)
{
	json_t *ids = ask("list", "kernels"), *e, *k = NULL;
	char path[64];
	size_t i;

	json_array_foreach(ids, i, e) {
		snprintf(path, sizeof path, "kernels/%s", json_is_string(e) ?
			 json_string_value(e) : "");
		if (json_is_integer(e))
			snprintf(path, sizeof path, "kernels/%lld",
				 (long long)json_integer_value(e));
		if ((k = ask("get", path)) &&
		    !strcmp(json_string_value(json_object_get(k, "kernel")) ?: "",
			    name))
			break;
		json_decref(k);
		k = NULL;
	}
	json_decref(ids);
	return k;
}

static long long num(json_t *o, const char *k1, const char *k2)
{
	json_t *v = json_object_get(o, k1);

	if (k2)
		v = json_object_get(v, k2);
	return json_is_integer(v) ? json_integer_value(v) : -1;
}

static size_t kernel_count(void)
{
	json_t *ids = ask("list", "kernels");
	size_t n = json_array_size(ids);

	json_decref(ids);
	return n;
}

static CUresult launch(CUfunction f, CUdeviceptr p, unsigned long long n)
{
	unsigned int pages = (unsigned int)(n / 4096);
	void *args[] = { &p, &n };

	return cuLaunchKernel(f, (pages + 127) / 128, 1, 1, 128, 1, 1, 0, NULL,
			      args, NULL);
}

static void test_launches(CUmodule mod)
{
	enum { N = 2 << 20, PAGES = N / 4096 };
	unsigned long long id = 0;
	CUdeviceptr p;
	CUfunction f;
	json_t *k, *a;
	char path[64];

	cuModuleGetFunction(&f, mod, "touch_all");
	cuMemAllocManaged(&p, N, CU_MEM_ATTACH_GLOBAL);
	memset((void *)(uintptr_t)p, 0, N); /* the CPU holds it */
	cuPointerGetAttribute(&id, CU_POINTER_ATTRIBUTE_BUFFER_ID, p);
	ok(!kernel("touch_all"), "no kernel before its first launch");
	is_res(launch(f, p, N), CUDA_SUCCESS, "touch_all over 2 MiB");
	is_res(launch(f, p, N), CUDA_SUCCESS, "and again");
	is_res(cuCtxSynchronize(), CUDA_SUCCESS, "both ran");
	if (!ok((k = kernel("touch_all")) != NULL, "touch_all is a kernel"))
		return;
	is_int(num(k, "launches", NULL), 2, "two launches");
	is_int(num(k, "running", NULL), 0, "none running");
	is_int(num(k, "gpu_faults", NULL), PAGES,
	       "a fault a page, all in the first launch");
	is_int(num(k, "migrated_in", "cpu"), N, "2 MiB brought from the CPU");
	is_int(num(k, "migrated_out", "cpu"), 0, "nothing sent back");
	is_int(num(k, "bytes_written", "managed"), 2 * PAGES,
	       "a byte written a page a launch");
	ok(num(k, "fault_ns", NULL) > 0 &&
	   num(k, "fault_ns", NULL) <= num(k, "model_ns", NULL),
	   "its faults' time is part of its model time");
	is_int((long long)json_array_size(json_object_get(k, "allocations")),
	       1, "it touched one allocation");
	is_int(num(k, "allocations", NULL), -1, "(a list of ids)");
	ok(json_integer_value(json_array_get(json_object_get(k, "allocations"),
					     0)) == (json_int_t)id,
	   "the managed buffer");
	json_decref(k);
	snprintf(path, sizeof path, "allocations/%llu", id);
	a = ask("get", path);
	ok(json_is_array(json_object_get(json_object_get(a, "touched_by"),
					 "touch_all")), "touched_by names it");
	is_int(json_integer_value(json_array_get(json_object_get(json_object_get(
		a, "touched_by"), "touch_all"), 0)), 2 * N,
		"bytes: each page once a launch");
	is_int(num(a, "faults_by_kernel", "touch_all"), PAGES,
	       "faults_by_kernel");
	json_decref(a);
	cuMemFree(p);
	k = kernel("touch_all");
	is_int((long long)json_array_size(json_object_get(k, "allocations")),
	       0, "a freed allocation is no longer among its allocations");
	json_decref(k);
}

/* A kernel on gpu0 reading gpu1's memory through peer access: its bytes
 * are the peer place's, and gpu1's by name. */
static void test_peer_bytes(CUmodule mod)
{
	enum { N = 64 << 10, PAGES = N / 4096 };
	CUcontext c0, c1;
	CUdeviceptr p1 = 0, sum = 0;
	unsigned long long n = N;
	void *args[] = { &p1, &n, &sum };
	CUfunction f;
	json_t *k;
	long long peer0;

	cuCtxGetCurrent(&c0);
	if (cuDevicePrimaryCtxRetain(&c1, 1) || cuCtxSetCurrent(c1) ||
	    cuMemAlloc(&p1, N) || cuMemsetD8(p1, 1, N) ||
	    cuCtxSetCurrent(c0) || cuMemAlloc(&sum, 4) ||
	    cuMemsetD32(sum, 0, 1) || cuCtxEnablePeerAccess(c1, 0)) {
		ok(0, "gpu1's memory, reached from gpu0");
		return;
	}
	cuModuleGetFunction(&f, mod, "read_all");
	k = kernel("read_all");
	peer0 = k ? num(k, "bytes_read", "peer") : 0;
	ok(!k || num(k, "bytes_read", "gpu1") == -1,
	   "no bytes read on gpu1 before");
	json_decref(k);
	is_res(cuLaunchKernel(f, 1, 1, 1, PAGES, 1, 1, 0, NULL, args, NULL),
	       CUDA_SUCCESS, "read_all on gpu0 over gpu1's 64 KiB");
	cuCtxSynchronize();
	k = kernel("read_all");
	is_int(num(k, "bytes_read", "gpu1"), PAGES,
	       "a byte a page read on gpu1, by name");
	is_int(num(k, "bytes_read", "peer") - (peer0 > 0 ? peer0 : 0), PAGES,
	       "... and in the peer place");
	is_int(num(k, "bytes_read", "gpu0"), -1, "no line for its own GPU");
	json_decref(k);
	cuCtxDisablePeerAccess(c1);
	cuMemFree(sum);
	cuCtxSetCurrent(c1);
	cuMemFree(p1);
	cuCtxSetCurrent(c0);
	cuDevicePrimaryCtxRelease(1);
}

static void host_fn(void *arg)
{
	(void)arg;
}

static void test_host_function(void)
{
	size_t before = kernel_count();

	is_res(cuemuLaunchHostFunc(NULL, host_fn, NULL), CUDA_SUCCESS,
	       "a function run as an emulated kernel");
	cuCtxSynchronize();
	is_int((long long)kernel_count(), (long long)before,
	       "is no kernel of the table");
}

/* A module of n empty kernels k0..k<n-1>. */
static char *many_kernels(int n)
{
	size_t cap = 128 + (size_t)n * 48, len;
	char *t = malloc(cap);

	len = (size_t)snprintf(t, cap, ".version 8.0\n.target sm_90\n"
			       ".address_size 64\n");
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(t + len, cap - len,
					".visible .entry k%d()\n{\n\tret;\n}\n", i);
	return t;
}

static void test_bound(void)
{
	enum { N = 1030 };
	char *ptx = many_kernels(N), name[16];
	size_t before = kernel_count();
	CUmodule m;
	CUfunction f;
	json_t *o;
	int bad = 0;

	if (!ok(cuModuleLoadData(&m, ptx) == CUDA_SUCCESS,
		"a module of %d kernels", N)) {
		free(ptx);
		return;
	}
	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof name, "k%d", i);
		bad += cuModuleGetFunction(&f, m, name) != CUDA_SUCCESS ||
		       cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL,
				      NULL) != CUDA_SUCCESS;
	}
	is_res(cuCtxSynchronize(), CUDA_SUCCESS, "each launched once");
	is_int(bad, 0, "every launch taken");
	is_int((long long)kernel_count(), 1024 + 1,
	       "1,024 kernels by name, and one for the rest");
	o = kernel("(other)");
	is_int(num(o, "launches", NULL), (long long)(before + N) - 1024,
	       "the rest's launches summed in (other)");
	json_decref(o);
	ok(!kernel("k1029"), "the last is not a kernel of its own");
	cuModuleUnload(m);
	free(ptx);
}

/* A launch that fails ends as one: counted, not running, failed. */
static void test_failed(void)
{
	char *ptx = kernel_file("basic.ptx", NULL);
	CUmodule m;
	CUfunction f;
	CUdeviceptr bad = 0x10;
	void *args[] = { &bad };
	json_t *k;
	CUresult r = cuModuleLoadData(&m, ptx);

	free(ptx);
	if (!ok(r == CUDA_SUCCESS, "basic.ptx loads") ||
	    cuModuleGetFunction(&f, m, "illegal"))
		return;
	is_res(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL),
	       CUDA_SUCCESS, "a kernel storing to address 0x10");
	is_res(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS,
	       "fails as on the device");
	k = kernel("illegal");
	is_int(num(k, "launches", NULL), 1, "it is counted");
	is_int(num(k, "running", NULL), 0, "and ended");
	is_int(num(k, "failed", NULL), 1, "in an error");
	json_decref(k);
	k = kernel("touch_all");
	is_int(num(k, "failed", NULL), 0, "touch_all's launches did not fail");
	json_decref(k);
}

static void test_demangle(void)
{
	static const char *const cases[][2] = {
		{ "_Z9touch_allPci", "touch_all(char*, int)" },
		{ "_Z5saxpyifPKfPf", "saxpy(int, float, float const*, float*)" },
		{ "_Z11scale_pagesPfyf",
		  "scale_pages(float*, unsigned long long, float)" },
		{ "_Z3addPfS_S_", "add(float*, float*, float*)" },
		{ "_Z4copyPKdPdS1_", "copy(double const*, double*, double*)" },
		{ "_ZN2ns6kernelEPj", "ns::kernel(unsigned int*)" },
		{ "_Z4stepv", "step()" },
		{ "_Z4move6float4", "move(float4)" },
		/* A function's own name is no candidate; its prefixes are,
		 * and every prefix of a type's name (c++filt agrees). */
		{ "_ZN2ns1kEPfS0_", "ns::k(float*, float*)" },
		{ "_ZN2ns1kEPfS_", "ns::k(float*, ns)" },
		{ "_Z1fPN2ns1SES1_S0_", "f(ns::S*, ns::S*, ns::S)" },
		{ "_ZN1a1b1kEPKfS2_S1_",
		  "a::b::k(float const*, float const*, float const)" },
	};
	char out[256], deep[64];

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		ok(cuemu_demangle(cases[i][0], out, sizeof out) &&
		   !strcmp(out, cases[i][1]), "%s is %s (%s)", cases[i][0],
		   cases[i][1], out);
	ok(!cuemu_demangle("saxpy", out, sizeof out),
	   "an extern \"C\" name is left as it is");
	ok(!cuemu_demangle("_Z5scaleIdEvPT_S0_", out, sizeof out),
	   "a template is left to its entry name");
	ok(!cuemu_demangle("_Z9toolong", out, sizeof out),
	   "a name shorter than its length is refused");
	ok(!cuemu_demangle("_Z3addPfS5_", out, sizeof out),
	   "a substitution of nothing seen is refused");
	ok(!cuemu_demangle("_Z3addPf", out, 8), "a name that does not fit is "
	   "refused");
	/* _Z1f, 40 P, f: float and 40 stars would fit the output, but each
	 * level is a frame and the name is the PTX file's to choose. */
	memset(deep, 'P', sizeof deep);
	memcpy(deep, "_Z1f", 4);
	deep[44] = 'f';
	deep[45] = '\0';
	ok(!cuemu_demangle(deep, out, sizeof out),
	   "a type of 40 stacked pointers is left to its entry name, past "
	   "the 32 levels the demangler recurses");
}

int main(void)
{
	CUcontext c;
	CUmodule mod;
	char *ptx;
	CUresult r;

	test_demangle();
	if (cuInit(0) || cuDevicePrimaryCtxRetain(&c, 0) || cuCtxSetCurrent(c))
		return 1;
	if (RUNNING_ON_VALGRIND || getenv("CUEMU_NO_FAULTS")) {
		printf("ok %d - kernels' faults # SKIP real faults are off\n",
		       ++tap_n);
		return done_testing();
	}
	ptx = kernel_file("pages.ptx", NULL);
	r = cuModuleLoadData(&mod, ptx);
	free(ptx);
	if (!ok(ctl_open() == 0, "the control socket answers") ||
	    !ok(r == CUDA_SUCCESS, "pages.ptx loads"))
		return done_testing();
	test_launches(mod);
	test_peer_bytes(mod);
	test_host_function();
	test_failed();
	/* the failed context made anew: the table is the process's */
	cuCtxSetCurrent(NULL);
	cuDevicePrimaryCtxReset(0);
	if (cuDevicePrimaryCtxRetain(&c, 0) || cuCtxSetCurrent(c))
		return 1;
	test_bound();
	close(ctl_fd);
	cuDevicePrimaryCtxRelease(0);
	return done_testing();
}
