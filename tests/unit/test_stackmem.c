/*
 * test_stackmem.c - the device memory CU_LIMIT_STACK_SIZE holds, as an
 * H200 held it: the replay of probes/results/stackmem.txt, line by line,
 * with the probe's kernels from nvcc's PTX of it (probes/stackmem.ptx) run
 * by libcuemu on the built-in machine. Each set's answer, the limit it
 * reads back and how far free memory moved from the start (exact, in the
 * H200's 2 MiB steps, growing and lowering); each launch's answer, its
 * synchronize's, its result, the limit after it (a kernel whose frame is
 * over the limit raises it) and free memory; with all but 2 GiB taken, a
 * frame whose stack does not fit refuses the launch with
 * CUDA_ERROR_OUT_OF_MEMORY and lets the stacks' memory go, a set that does
 * not fit likewise, and the next launch takes it again. Then the probe's
 * later processes, each on the primary context reset: a stack of 0, a
 * kernel's frame raising it, recursion faulting under it.
 *
 * What the model does not hold is left out of the comparison and said
 * where: the 128 MiB an H200's first launch in a context took, and the
 * further 150 MiB it let go with the stacks at a refusal.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"
#include "probe_rows.h"
#include "tap.h"

static CUmodule mod;
static CUdeviceptr out;         /* device memory: charged before any
				 * comparison, never moved by a launch */
static CUdeviceptr big;         /* the low-memory phase's allocation */
static int64_t h_start, m_start; /* free memory at a process's start,
				  * the H200's and ours */
static int64_t first_launch;    /* what the H200's first launch took */
static int64_t m_before_refusal; /* ours before a refused reservation */
static bool refused_state;      /* the stacks' memory let go */

static int64_t free_now(void)
{
	size_t f = 0, t = 0;

	return cuMemGetInfo(&f, &t) == CUDA_SUCCESS ? (int64_t)f : -1;
}

static size_t limit_now(void)
{
	size_t v = 0;

	cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE);
	return v;
}

static const char *res_name(CUresult r)
{
	const char *s = NULL;

	return cuGetErrorName(r, &s) == CUDA_SUCCESS && s ? s : "?";
}

/* The runtime's name of a CUresult the probe printed through it. */
static const char *rt_name(CUresult r)
{
	return r == CUDA_SUCCESS ? "cudaSuccess" :
	       r == CUDA_ERROR_OUT_OF_MEMORY ? "cudaErrorMemoryAllocation" :
	       r == CUDA_ERROR_ILLEGAL_ADDRESS ? "cudaErrorIllegalAddress" :
	       res_name(r);
}

/* How far free memory moved from the start, the H200's with what the
 * model does not hold taken out. */
static bool moved_alike(int64_t h_free)
{
	int64_t m = m_start - free_now(), h = h_start - h_free - first_launch;

	if (m != h)
		printf("#   free moved %" PRId64 " here, %" PRId64 " on the H200\n", m, h);
	return m == h;
}

/* With all but 2 GiB taken, free memory compared with ours before: a
 * refusal lets the stacks' memory go (free rises), the success after it
 * takes the same again. */
static bool low_alike(bool refused)
{
	bool same = refused ? free_now() > m_before_refusal :
		    !refused_state || free_now() == m_before_refusal;

	refused_state = refused;
	if (!refused)
		m_before_refusal = free_now();
	return same;
}

enum phase { NORMAL, LOW, FRESH };   /* FRESH: a later process of the probe,
				      * its first launch's memory not held */

static void set_line(const char *tag, size_t v, const char *want, size_t want_get,
		     int64_t h_free, enum phase ph)
{
	CUresult r = cuCtxSetLimit(CU_LIMIT_STACK_SIZE, v);
	size_t got = limit_now();
	bool same = !strcmp(res_name(r), want) && got == want_get;

	if (ph == LOW)
		same = low_alike(r != CUDA_SUCCESS) && same;
	else if (ph == NORMAL)
		same = moved_alike(h_free) && same;
	ok(same, "%s: set %zu: %s, reads %zu%s (H200: %s, %zu)", tag, v,
	   res_name(r), got, ph == NORMAL ? ", free memory moved as the H200's" :
	   ph == LOW ? ", the stacks' memory let go or taken again" : "",
	   want, want_get);
}

static const char *kernel_of(const char *tag)
{
	return strstr(tag, "frame64k") ? "frame64k" : strstr(tag, "frame4k") ?
	       "frame4k" : strstr(tag, "frame256") ? "frame256" :
	       strstr(tag, "rec") ? "recurse" : "plain";
}

/* The result the probe checked: out[0] of its kernel for arg. */
static int want_of(const char *kernel, int arg)
{
	int n = !strcmp(kernel, "frame64k") ? 65536 : !strcmp(kernel, "frame4k") ?
		4096 : 256, j, want = 5;

	if (!strcmp(kernel, "plain"))
		return 1;
	if (!strcmp(kernel, "recurse")) {
		for (int d = 1; d <= arg; d++)
			want += d + d % 32;
		return want;
	}
	j = (arg * 7) % (n / 4);
	return ((j - arg % (n / 4) + n / 4) % (n / 4)) ^ arg;
}

static void launch_line(const char *tag, const char *e1, const char *e2,
			const char *right, size_t want_get, int64_t h_free,
			int depth, enum phase ph)
{
	const char *name = kernel_of(tag);
	int arg = !strcmp(name, "recurse") ? depth : !strcmp(name, "plain") ? 0 : 3;
	int host[32], ones[32];
	CUfunction f;
	void *args[] = { &out, &arg };
	CUresult r, s = CUDA_SUCCESS;
	bool same;

	memset(ones, 0xff, sizeof ones);
	memset(host, 0, sizeof host);
	cuMemcpyHtoD(out, ones, sizeof ones);
	if (cuModuleGetFunction(&f, mod, name) != CUDA_SUCCESS) {
		ok(0, "%s: kernel %s is in the probe's PTX", tag, name);
		return;
	}
	r = cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL);
	s = cuCtxSynchronize();
	if (s == CUDA_SUCCESS)
		cuMemcpyDtoH(host, out, sizeof host);
	same = !strcmp(rt_name(r), e1) && !strcmp(rt_name(s), e2) &&
	       (s != CUDA_SUCCESS || !strcmp(right, host[0] == want_of(name, arg) ?
					    "right" : "wrong"));
	if (s == CUDA_SUCCESS)          /* a failed context reads nothing */
		same = same && limit_now() == want_get;
	if (!strcmp(tag, "first"))      /* not held here: see the header */
		first_launch = h_start - h_free - (m_start - free_now());
	if (ph == LOW)
		same = low_alike(r != CUDA_SUCCESS) && same;
	else if (ph == NORMAL)
		same = moved_alike(h_free) && same;
	ok(same, "%s: %s: launch %s, synchronize %s, %s, limit %zu after%s (H200: "
	   "%s %s %s, %zu)", tag, name, rt_name(r), rt_name(s),
	   s ? "-" : host[0] == want_of(name, arg) ? "right" : "wrong",
	   limit_now(), ph == NORMAL ? ", free memory moved as the H200's" :
	   ph == LOW ? ", the stacks' memory let go or taken again" : "",
	   e1, e2, right, want_get);
}

/* A process of the probe begins: the primary context as fresh. */
static void start_line(const char *mode, size_t want_get, int64_t h_free,
		       CUdevice dev)
{
	size_t ptxlen = 0;
	char *ptx = slurp("probes/stackmem.ptx", &ptxlen);
	CUcontext ctx;

	if (mod)
		cuModuleUnload(mod);
	mod = NULL;
	cuDevicePrimaryCtxReset(dev);
	cuDevicePrimaryCtxRetain(&ctx, dev);
	cuCtxSetCurrent(ctx);
	ok(ptx && cuModuleLoadData(&mod, ptx) == CUDA_SUCCESS &&
	   cuMemAlloc(&out, 64 * sizeof(int)) == CUDA_SUCCESS,
	   "%s: the probe's PTX loads", mode);
	free(ptx);
	is_int(limit_now(), want_get, "%s: a fresh context's stack is %zu bytes",
	       mode, want_get);
	h_start = h_free;
	m_start = free_now();
	first_launch = 0;
	refused_state = false;
}

static void replay_line(const char *line, CUdevice dev, enum phase *ph)
{
	char tag[48], want[64], e1[64], e2[64], right[8], mode[16];
	size_t v, got;
	long long hf;
	int n = 0;

	if (sscanf(line, "stackmem.start %15[^:]: get=%zu free=%lld", mode, &got,
		   &hf) == 3) {
		*ph = strcmp(mode, "charge") ? FRESH : NORMAL;
		start_line(mode, got, hf, dev);
	} else if (sscanf(line, "stackmem.low.alloc %zu:%n", &v, &n) == 1 && n) {
		int64_t take = free_now() - ((int64_t)2 << 30);
		ok(take > 0 && cuMemAlloc(&big, (size_t)take) == CUDA_SUCCESS,
		   "all but 2 GiB of free memory taken");
		*ph = LOW;
		m_before_refusal = free_now();
	} else if (sscanf(line, "stackmem.%47[^ ] local=%*u: %63s %63s %7s get=%zu "
			  "free=%lld", tag, e1, e2, right, &got, &hf) == 6) {
		char *dot = strrchr(tag, '.');
		int depth = 0;
		if (!dot || strcmp(dot, ".launch"))
			return;
		*dot = '\0';
		if (strstr(tag, "rec"))
			sscanf(strstr(tag, "rec") + 3, "%d", &depth);
		if (!strcmp(tag, "zero.rec_small"))
			depth = 3;
		else if (!strcmp(tag, "zero.rec_deep"))
			depth = 1000;
		launch_line(tag, e1, e2, right, got, hf, depth, *ph);
	} else if (sscanf(line, "stackmem.%47[^ ] %zu: %63s get=%zu free=%lld", tag,
			  &v, want, &got, &hf) == 5) {
		char *dot = strrchr(tag, '.');
		if (!dot || strcmp(dot, ".set"))
			return;
		*dot = '\0';
		set_line(tag, v, want, got, hf, *ph);
		if (!strcmp(tag, "low.s1024")) {        /* the low phase ends */
			cuMemFree(big);
			*ph = NORMAL;
		}
	}
}

int main(void)
{
	size_t len = 0;
	char *res = slurp("probes/results/stackmem.txt", &len);
	enum phase ph = NORMAL;
	CUdevice dev;
	int lines = 0;

	if (!ok(res && cuInit(0) == CUDA_SUCCESS && cuDeviceGet(&dev, 0) ==
		CUDA_SUCCESS, "probes/results/stackmem.txt is readable, device 0"))
		return done_testing();
	for (char *p = res, *e; *p; p = e + (*e != '\0')) {
		e = p + strcspn(p, "\n");
		char c = *e;

		*e = '\0';
		replay_line(p, dev, &ph);
		*e = c;
		lines++;
	}
	ok(lines > 100, "the probe's %d lines were replayed", lines);
	if (mod)
		cuModuleUnload(mod);
	cuDevicePrimaryCtxReset(dev);
	free(res);
	return done_testing();
}
