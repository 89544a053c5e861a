/*
 * test_devrt.c - dynamic parallelism: kernels that call the device
 * runtime (tests/unit/kernels/devrt.cu, its PTX made with -rdc=true) load
 * and run through the driver API, the engine serving libcudadevrt's entry
 * points. What the calls answer is what an H200 answered
 * (probes/results/cdp.txt, each check naming its line) or, where the
 * probe did not ask, libcuemu's rule (said so); the order queued work runs
 * in; a chain refused past its depth; a copy to no allocation ending the
 * launch; what launches from the device cost in model time
 * (uvm.device_launch_*, probes/results/cdp-time.txt), children side by
 * side in streams of their own, a spin on clock64 ending with the SM's
 * cycles, a module's load. And the linker:
 * NVIDIA's libcudadevrt.a, where the toolkit is installed, links as
 * adding nothing.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "kernel_file.h"

static CUdevice dev;
static CUmodule mod;
static char *ptx;

/* The primary context afresh, devrt.ptx loaded in it. */
static void fresh(void)
{
	mod = kernel_fresh(dev, ptx, "devrt.ptx");
}

static CUresult run(const char *k, unsigned blocks, unsigned threads,
		    void **args)
{
	CUresult r = cuLaunchKernel(kernel_fn(mod, k), blocks, 1, 1, threads,
				    1, 1, 0, NULL, args, NULL);
	return r ? r : cuCtxSynchronize();
}

static void *var(const char *name)
{
	CUdeviceptr p = 0;
	size_t n;

	cuModuleGetGlobal(&p, &n, mod, name);
	return (void *)(uintptr_t)p;
}

static void test_order(void)
{
	int *out = kernel_managed(64 * sizeof *out), *trace = var("trace");
	unsigned *ntrace = var("ntrace");
	void *a[] = { &out };
	int fives = 0;

	is_res(run("parent", 1, 1, a), CUDA_SUCCESS,
	       "a kernel launching kernels runs to its children's end");
	for (int i = 0; i < 64; i++)
		fives += out[i] == 5;
	is_int(fives, 64, "the child of two blocks of 32 wrote every word");
	is_int(*ntrace, 3, "three notes, one each");
	is_int(trace[2], 3, "cdp.order: the tail launch, made first, ran last");
}

static void test_answers(void)
{
	int *o = kernel_managed(32 * sizeof *o);
	char *name = kernel_managed(64), *text = kernel_managed(128);
	void *a[] = { &o, &name, &text };

	is_res(run("answers", 1, 1, a), CUDA_SUCCESS, "the calls' kernel");
	is_int(o[0], 1, "cdp.event_create_0: an event without "
	       "cudaEventDisableTiming is cudaErrorInvalidValue");
	is_int(o[1], 0, "cdp.event_create_disable_timing: made");
	is_int(o[2], 0, "cdp.stream_create_0: a stream of flags 0 is made");
	is_int(o[3], 1, "a stream of flags that are none is "
	       "cudaErrorInvalidValue (libcuemu's rule)");
	is_int(o[4], 1, "cdp.last_error_after_calls: the last error is the "
	       "refusal's");
	is_int(o[5], 0, "and reading it cleared it");
	is_int(o[6], 9, "cdp.bad_block_peek: a launch of 2,048 threads a block "
	       "leaves cudaErrorInvalidConfiguration");
	is_int(o[7], 9, "cdp.bad_block_get: cudaGetLastError reads it too");
	is_int(o[8], 1, "cdp.param_buffer_no_kernel: cudaGetParameterBuffer "
	       "gives a buffer");
	is_int(o[9], 9, "cudaLaunchDevice of a bad shape answers "
	       "cudaErrorInvalidConfiguration");
	is_int(o[10], 0, "cudaLaunchDeviceV2 of a buffer launches");
	is_int(o[11], 1, "the same buffer launched again is "
	       "cudaErrorInvalidValue (libcuemu's rule: a buffer is used once)");
	is_int(o[12], 0, "cdp.malloc: cudaMalloc in device code succeeds");
	is_int(o[13], 1, "cdp.malloc: aligned16=1");
	is_int(o[14], 0, "cdp.malloc: free=0");
	is_int(o[15], 0, "cdp.get_device: 0");
	is_int(o[16], 0, "cdp.get_device: device=0");
	is_int(o[17], 0, "cdp.runtime_version: 0");
	is_int(o[18], 6000, "cdp.runtime_version: value=6000, the device "
	       "runtime's own");
	ok(!strcmp(name, "cudaErrorInvalidConfiguration"), "cdp.names: an "
	   "error's name is memory the kernel reads: '%s'", name);
	ok(!strcmp(text, "launch would exceed maximum depth of nested "
		   "launches"), "an error's text too: '%s'", text);
}

static void test_deep(void)
{
	int *o = kernel_managed(2 * sizeof *o), depth = 0, limit = 300;
	void *a[] = { &depth, &limit, &o };

	is_res(run("deep", 1, 1, a), CUDA_SUCCESS, "a chain of nested launches");
	is_int(o[0], 256, "it nests 256 deep (cdp.deep: the H200 took 30 "
	       "without a refusal)");
	is_int(o[1], 65 * 1000 + 256, "the launch past that is "
	       "cudaErrorLaunchMaxDepthExceeded");
	limit = 30;
	o[0] = o[1] = 0;
	is_res(run("deep", 1, 1, a), CUDA_SUCCESS, "a chain 30 deep");
	ok(o[0] == 30 && o[1] == 0, "cdp.deep: deepest=30 refused=0");
}

static void test_copies(void)
{
	int *src = kernel_managed(16 * sizeof *src), *dst = kernel_managed(16 * sizeof *dst);
	void *a[] = { &src, &dst }, *b[] = { &src };
	int right = 0;

	is_res(run("copies", 1, 1, a), CUDA_SUCCESS, "copies queued in device "
	       "code");
	for (int i = 0; i < 4; i++)
		right += dst[i] == 7 && dst[4 + i] == -1;
	is_int(right, 4, "cdp.order: a copy queued behind a launch into the "
	       "same stream copies what the launch wrote; a memset sets");
	is_res(run("bad_copy", 1, 1, b), CUDA_ERROR_ILLEGAL_ADDRESS,
	       "a copy to memory no allocation holds ends the launch with an "
	       "illegal address");
}

/* A launch of what is no parameter buffer (libcuemu's rules: the probe
 * did not ask): the thread's own memory is cudaErrorInvalidValue; an
 * address no allocation holds ends the launch, as a load of it would. */
static void test_bad_buffer(void)
{
	int *o = kernel_managed(2 * sizeof *o);
	void *a[] = { &o };

	is_res(run("bad_buffer", 1, 1, a), CUDA_ERROR_ILLEGAL_ADDRESS,
	       "a buffer at an address of nothing ends the launch with an "
	       "illegal address");
	is_int(o[0], 1, "a buffer in the thread's local memory is "
	       "cudaErrorInvalidValue");
	is_int(o[1], 1, "and the thread went no further than the bad one");
}

/* Device time of one launch of k by events (ms). */
static float timed(const char *k, unsigned blocks, void **args)
{
	CUevent e0, e1;
	float ms = -1;

	cuEventCreate(&e0, CU_EVENT_DEFAULT);
	cuEventCreate(&e1, CU_EVENT_DEFAULT);
	cuEventRecord(e0, NULL);
	cuLaunchKernel(kernel_fn(mod, k), blocks, 1, 1, 1, 1, 1, 0, NULL, args,
		       NULL);
	cuEventRecord(e1, NULL);
	cuEventSynchronize(e1);
	cuEventElapsedTime(&ms, e0, e1);
	cuEventDestroy(e0);
	cuEventDestroy(e1);
	return ms;
}

/* A shape's cost beside the empty kernel's, against the H200's (ms, the
 * mean of cdp-time.txt's five), within 1.35x. */
static void near(const char *what, double model, double real)
{
	double r = model / real;

	ok(r > 1 / 1.35 && r < 1.35, "%s: %.4f ms, the H200's %.4f (%.2f)",
	   what, model, real, r);
}

static void test_time(void)
{
	int n;
	void *a[] = { &n };
	float empty = timed("empty", 1, NULL);

	near("cdp.time.empty", empty, 0.0069);
	n = 100;
	near("cdp.time.serial n=100: 100 children from one thread",
	     timed("serial", 1, a), 0.6681);
	near("cdp.time.blocks n=100: one from each of 100 blocks",
	     timed("each", 100, NULL), 0.0610);
	n = 16;
	near("cdp.time.chain n=16: a chain 16 deep", timed("chain", 1, a),
	     0.1686);
	n = 100;
	near("cdp.time.tail n=100: 100 tail launches one after another",
	     timed("tail", 1, a), 1.0350);
	n = 1;
	near("cdp.time.serial n=1: one child", timed("serial", 1, a), 0.0218);
}

/* A kernel spinning on clock64 ends when that many of its SM's cycles
 * passed in model time; children spinning in streams of their own run
 * side by side, in the block's stream one after another (cdp-overlap.txt:
 * 64 children of 20 us, 0.52 and 1.41 ms). */
static void test_overlap(void)
{
	long long cycles = 39600;   /* 20 us at the H200's 1,980 MHz */
	int n = 64;
	void *one[] = { &cycles }, *a[] = { &n, &cycles };
	float alone = timed("spin", 1, one), side, serial;

	ok(alone > 0.020 && alone < 0.030, "a kernel spinning 39,600 cycles "
	   "of clock64 takes 20 us and its launch: %.4f ms", alone);
	side = timed("spin_streams", 1, a);
	serial = timed("spin_serial", 1, a);
	near("cdp.time.spin_streams n=64: in streams of their own", side,
	     0.5209);
	near("cdp.time.spin_serial n=64: in the block's stream", serial,
	     1.4111);
}

/* A tree of 2,047 grids of 64 blocks takes the device its launches and
 * their blocks, far past its critical path (cdp-wide.txt: 1.38 ms). */
static void test_tree(void)
{
	int depth = 10, node = 0;
	void *a[] = { &depth, &node };
	CUevent e0, e1;
	float ms = -1;

	cuEventCreate(&e0, CU_EVENT_DEFAULT);
	cuEventCreate(&e1, CU_EVENT_DEFAULT);
	cuEventRecord(e0, NULL);
	cuLaunchKernel(kernel_fn(mod, "tree_wide"), 64, 1, 1, 128, 1, 1, 0,
		       NULL, a, NULL);
	cuEventRecord(e1, NULL);
	cuEventSynchronize(e1);
	cuEventElapsedTime(&ms, e0, e1);
	near("cdp.time.tree_wide n=10: 2,047 grids of 64 blocks", ms, 1.3752);
	cuEventDestroy(e0);
	cuEventDestroy(e1);
}

/* Loading a module that calls the device runtime takes the loading
 * thread uvm.device_runtime_load_ns: events around the load on an idle
 * stream see it (cdp-first.txt: 6.1 to 8.1 ms). */
static void test_load(void)
{
	CUevent e0, e1;
	CUmodule m;
	float ms = -1;

	cuEventCreate(&e0, CU_EVENT_DEFAULT);
	cuEventCreate(&e1, CU_EVENT_DEFAULT);
	cuEventRecord(e0, NULL);
	is_res(cuModuleLoadData(&m, ptx), CUDA_SUCCESS, "devrt.ptx loads again");
	cuEventRecord(e1, NULL);
	cuEventSynchronize(e1);
	cuEventElapsedTime(&ms, e0, e1);
	ok(ms > 6.7 && ms < 7.0, "its load took the host 6.8 ms of model "
	   "time: %.3f", ms);
	cuModuleUnload(m);
	cuEventDestroy(e0);
	cuEventDestroy(e1);
}

/* NVIDIA's libcudadevrt.a: machine code only, taken by the linker as the
 * device runtime the engine is, beside PTX that calls it. */
static void test_link(void)
{
	const char *lib = "/usr/local/cuda/lib64/libcudadevrt.a";
	CUlinkState st;
	void *image;
	size_t len;
	CUmodule m;

	if (access(lib, R_OK)) {
		ok(1, "# SKIP %s is not installed", lib);
		return;
	}
	is_res(cuLinkCreate(0, NULL, NULL, &st), CUDA_SUCCESS, "a link");
	is_res(cuLinkAddData(st, CU_JIT_INPUT_PTX, ptx, strlen(ptx) + 1,
			     "devrt.ptx", 0, NULL, NULL), CUDA_SUCCESS,
	       "PTX calling the device runtime is added");
	is_res(cuLinkAddFile(st, CU_JIT_INPUT_LIBRARY, lib, 0, NULL, NULL),
	       CUDA_SUCCESS, "libcudadevrt.a is added: the device runtime");
	is_res(cuLinkComplete(st, &image, &len), CUDA_SUCCESS, "the link "
	       "completes");
	is_res(cuModuleLoadData(&m, image), CUDA_SUCCESS, "and its image loads");
	cuModuleUnload(m);
	cuLinkDestroy(st);
}

int main(void)
{
	ptx = kernel_file("devrt.ptx", NULL);
	cuInit(0);
	cuDeviceGet(&dev, 0);
	fresh();
	test_order();
	test_answers();
	test_deep();
	test_time();
	test_overlap();
	test_tree();
	test_load();
	test_link();
	test_copies();   /* its illegal address ends the context */
	fresh();
	test_bad_buffer();
	cuModuleUnload(mod);
	cuDevicePrimaryCtxRelease(dev);
	free(ptx);
	return done_testing();
}
