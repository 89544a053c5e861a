/*
 * test_copyone.c - the default machine replays what one H200 did with
 * asynchronous copies between pinned host memory and the GPU, within the
 * GPU and memsets (probes/copyone.cu, raw output in
 * probes/results/copyone.txt):
 *  - a copy alone on an idle stream takes the call's own time on the
 *    host (uvm.copy_call_ns, 1.25 us) and the "copies" rates' time (the
 *    defaults' fit to 100 queued back to back, which the calls overlap);
 *  - a copy queued behind a kernel on its stream waits 3.6 us more for
 *    the kernel's end to reach the copy engine
 *    (uvm.copy_after_kernel_ns), once: 100 copies behind one kernel pay
 *    it for the first;
 *  - a copy within the GPU, or a memset past 4 KiB, is a kernel there:
 *    its call costs the host 3.5 us (uvm.copy_kernel_call_ns), which
 *    bounds 100 queued back to back, and behind a kernel it waits 1.4 us
 *    (uvm.copy_kernel_after_kernel_ns);
 *  - a kernel queued behind such a copy waits 2.7 us more than behind
 *    a kernel (uvm.kernel_after_copy_ns; probes/afterop.cu: 1.7 to 9.6
 *    us more than the copy on the H200, 4.4 the median, where the
 *    model's kernel took its own 1.7);
 *  - an asynchronous copy from pageable memory of up to 2 MiB is staged
 *    at its call and does not wait for its stream; one of 3 MiB does
 *    (probes/pageable.cu);
 *  - a graph's copy and memset nodes cost no call each (its launch's
 *    call is paid once);
 *  - a memset of 4 KiB (the short path) calls in 0.8 us and waits 1.2
 *    behind a kernel (uvm.memset_short_call_ns, _after_kernel_ns);
 *  - a copy the host queues after the kernel's end does not wait.
 * Each case prints the model's time beside the H200's and their ratio,
 * and asserts it within 1.25x (the probe's two runs agree within a
 * tenth). The machine is one of its own (CUEMU_MACHINE with "-copyone").
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda.h"
#include "cuemu.h"
#include "tap.h"
#include "probe_timing.h"

#define KIB (1UL << 10)
#define MIB (1UL << 20)

static const char ptx[] =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry empty()\n{\n\tret;\n}\n";

static CUfunction empty;
static CUcontext ctx;
static CUstream s;
static CUdeviceptr dev, dev2;
static void *pinned;
static char results[4096], afterop[2][4096];

/* The us= figure of the line of file that starts with key, or -1. */
static double us_of(const char *file, const char *key)
{
	char line[256];
	double us = -1;
	FILE *f = fopen(file, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, key, strlen(key))) {
			us = strtod(line + strlen(key), NULL);
			break;
		}
	fclose(f);
	return us;
}

/* copyone.cu's figure for case c, path p, size n KiB. */
static double real_us(const char *c, const char *p, unsigned long n)
{
	char key[128];

	snprintf(key, sizeof key, "copyone.%s %s nonblocking %luKiB: us=", c,
		 p, n);
	return us_of(results, key);
}

/* afterop.cu's figure for seq on path p, size n KiB: the mean of its two
 * runs. */
static double afterop_us(const char *seq, const char *p, unsigned long n)
{
	char key[128];
	double a, b;

	snprintf(key, sizeof key, "afterop.%s %s %luKiB: us=", seq, p, n);
	a = us_of(afterop[0], key);
	b = us_of(afterop[1], key);
	return a > 0 && b > 0 ? (a + b) / 2 : -1;
}

/* The probe's paths: pinned memory to the GPU and back, within the GPU,
 * a memset of GPU memory. */
enum path { HTOD, DTOH, DTOD, MEMSET };
static const char *const path_name[] = { "pinned_to_gpu", "gpu_to_pinned",
					 "gpu_local", "memset" };

static CUresult copy(enum path p, size_t n)
{
	switch (p) {
	case HTOD: return cuMemcpyHtoDAsync(dev, pinned, n, s);
	case DTOH: return cuMemcpyDtoHAsync(pinned, dev, n, s);
	case DTOD: return cuMemcpyDtoDAsync(dev2, dev, n, s);
	default: return cuMemsetD8Async(dev, 1, n, s);
	}
}

struct copies {
	enum path p;
	size_t n;
	int count;
};

static CUresult copies(CUstream st, void *arg)
{
	const struct copies *c = arg;
	CUresult r = CUDA_SUCCESS;

	(void)st;
	for (int i = 0; !r && i < c->count; i++)
		r = copy(c->p, c->n);
	return r;
}

/* Model us of count copies on path p of n bytes on s, behind an empty
 * kernel or not, by events around them: us a copy. */
static double timed(enum path p, size_t n, int count, bool behind)
{
	struct copies c = { p, n, count };
	double ms;

	/* behind: the stream busy 2 ms (the probe's spinning kernel), then
	 * the kernel, so that the host's calls are done before it ends */
	if (cuStreamSynchronize(s) ||
	    (behind && (cuemuStreamSleep(s, 2000000) ||
			cuLaunchKernel(empty, 1, 1, 1, 1, 1, 1, 0, s, NULL, NULL))))
		return -1;
	ms = timed_step(ctx, s, copies, &c);
	return ms < 0 ? -1 : ms * 1e3 / count;
}

static void compare(const char *what, double model, double real,
		    double bound)
{
	double ratio = real > 0 ? model / real : 0;

	printf("# %-40s model %8.3f us  H200 %8.3f us  ratio %.2f\n", what,
	       model, real, ratio);
	ok(real > 0 && ratio <= bound && ratio >= 1 / bound,
	   "%s: model within %.2fx of the H200 (%.2fx)", what, bound, ratio);
}

static void replay(void)
{
	static const struct { const char *c; int count; bool behind; } cases[] = {
		{ "one", 1, false }, { "b2b", 100, false },
		{ "dev_one", 1, true }, { "dev_b2b", 100, true },
	};
	for (int p = HTOD; p <= MEMSET; p++)
		for (size_t n = 4 * KIB; n <= 1 * MIB; n *= 16)
			for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
				const char *pn = path_name[p];
				char what[96];

				snprintf(what, sizeof what, "%s %s %zu KiB",
					 cases[k].c, pn, n / KIB);
				compare(what, timed(p, n, cases[k].count,
						    cases[k].behind),
					real_us(cases[k].c, pn, n / KIB), 1.25);
			}
}

/* The handoff is the copy engine's, from a kernel it is queued behind. */
static void mechanism(void)
{
	double alone = timed(DTOH, 4 * KIB, 1, false);
	double queued = timed(DTOH, 4 * KIB, 100, false);
	double behind = timed(DTOH, 4 * KIB, 1, true);
	double local = timed(DTOD, 4 * KIB, 100, false);
	double local_dev = timed(DTOD, 4 * KIB, 100, true);
	double local_behind = timed(DTOD, 4 * KIB, 1, true);
	CUevent a = NULL, b = NULL;
	float ms = -1;

	/* alone, the events see the call's 1.25 us (uvm.copy_call_ns) before
	 * the copy: 99 of 100 queued ones are issued while others run */
	ok(alone - queued > 1.20 && alone - queued < 1.26,
	   "a copy alone takes its call's 1.25 us more than each of 100 "
	   "queued (%.3f us more)", alone - queued);
	/* behind a kernel the call is done before the kernel ends: the
	 * copy's own time and the 3.6 us handoff */
	ok(behind - (alone - 1.25) > 3.59 && behind - (alone - 1.25) < 3.61,
	   "a copy behind a kernel waits 3.6 us more than its own time "
	   "(%.3f us more)", behind - (alone - 1.25));
	/* within the GPU, a kernel's: its call bounds 100 queued, its own
	 * time those queued behind a kernel, and behind one it waits 1.4 */
	ok(local > 3.49 && local < 3.53, "copies within the GPU queued back "
	   "to back go at their calls' 3.5 us (%.3f us each)", local);
	ok(local_dev < 2.0, "behind a kernel the GPU takes each in its own "
	   "time (%.3f us)", local_dev);
	ok(local_behind - 1.65 - 4096 / 2540e3 > 1.39 &&
	   local_behind - 1.65 - 4096 / 2540e3 < 1.41,
	   "one within the GPU behind a kernel waits 1.4 us more than its own "
	   "time (%.3f us)", local_behind);

	/* the kernel done before the host queues the copy */
	cuLaunchKernel(empty, 1, 1, 1, 1, 1, 1, 0, s, NULL, NULL);
	cuStreamSynchronize(s);
	cuEventCreate(&a, 0);
	cuEventCreate(&b, 0);
	cuEventRecord(a, s);
	copy(DTOH, 4 * KIB);
	cuEventRecord(b, s);
	cuEventSynchronize(b);
	cuEventElapsedTime(&ms, a, b);
	ok(ms * 1e3 > alone - 0.01 && ms * 1e3 < alone + 0.01,
	   "a copy queued after the kernel's end does not (%.3f us, alone "
	   "%.3f)", ms * 1e3, alone);

	/* a memset of 4 KiB (the short path): alone, its call's 0.8 us
	 * (uvm.memset_short_call_ns) and its own 1.4; behind a kernel, its
	 * call done before the kernel ends, 1.2 us more
	 * (uvm.memset_short_after_kernel_ns) */
	double set_alone = timed(MEMSET, 4 * KIB, 1, false);
	double set_behind = timed(MEMSET, 4 * KIB, 1, true);
	ok(set_alone > 2.19 && set_alone < 2.21, "a memset of 4 KiB alone: its "
	   "0.8 us call and its 1.4 (%.3f us)", set_alone);
	ok(set_behind > 2.59 && set_behind < 2.61, "behind a kernel: its 1.4 "
	   "and 1.2 us more (%.3f us)", set_behind);
	cuEventDestroy(a);
	cuEventDestroy(b);
}

struct seq {
	const char *ops;   /* 'C' the operation, 'K' an empty kernel */
	enum path p;
	size_t n;
};

static CUresult run_seq(CUstream st, void *arg)
{
	const struct seq *q = arg;
	CUresult r = CUDA_SUCCESS;

	for (const char *c = q->ops; !r && *c; c++)
		r = *c == 'K' ? cuLaunchKernel(empty, 1, 1, 1, 1, 1, 1, 0, st,
					       NULL, NULL)
			      : copy(q->p, q->n);
	return r;
}

/* afterop.cu's sequences behind a busy stream and a kernel: an operation,
 * it and a kernel, it twice; the H200's the mean of two runs, which
 * differ by up to 1.76x on a row (a kernel behind 64 KiB to the host:
 * 10.0 and 17.6 us), so within 1.5x. */
static void after_ops(void)
{
	static const char *const seqs[] = { "C", "CK", "CC" };

	for (int p = HTOD; p <= MEMSET; p++)
		for (size_t n = 4 * KIB; n <= (p <= DTOH ? 16 : 1) * MIB;
		     n *= p <= DTOH ? 4 : 256)
			for (int k = 0; k < 3; k++) {
				struct seq q = { seqs[k], p, n };
				char what[96];
				double ms;

				if (cuStreamSynchronize(s) ||
				    cuemuStreamSleep(s, 2000000) ||
				    cuLaunchKernel(empty, 1, 1, 1, 1, 1, 1, 0, s,
						   NULL, NULL))
					return;
				ms = timed_step(ctx, s, run_seq, &q);
				snprintf(what, sizeof what, "%s %s %zu KiB",
					 seqs[k], path_name[p], n / KIB);
				compare(what, ms * 1e3,
					afterop_us(seqs[k], path_name[p], n / KIB),
					1.5);
			}
}

/* A host function that holds its stream until released (or 1 s). */
static int held, released;

static void hold(void *arg)
{
	(void)arg;
	__atomic_store_n(&held, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 1000 && !__atomic_load_n(&released, __ATOMIC_ACQUIRE);
	     i++)
		usleep(1000);
	__atomic_store_n(&held, 2, __ATOMIC_RELEASE);
}

/* An asynchronous copy of n bytes from pageable memory behind a held
 * stream: whether the call returned while the stream was still held, and
 * whether the GPU got the bytes as they were at the call. */
static void pageable_behind(size_t n, bool *returned_early, bool *bytes_ok)
{
	unsigned char *src = malloc(n), *back = malloc(n);

	*returned_early = *bytes_ok = false;
	if (!src || !back)
		goto out;
	memset(src, 0x5a, n);
	__atomic_store_n(&held, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&released, 0, __ATOMIC_RELEASE);
	if (cuLaunchHostFunc(s, hold, NULL) ||
	    cuMemcpyHtoDAsync(dev, src, n, s))
		goto out;
	*returned_early = __atomic_load_n(&held, __ATOMIC_ACQUIRE) != 2;
	memset(src, 0xa5, n);   /* the program reuses its buffer */
	__atomic_store_n(&released, 1, __ATOMIC_RELEASE);
	if (cuStreamSynchronize(s) || cuMemcpyDtoH(back, dev, n))
		goto out;
	*bytes_ok = back[0] == 0x5a && back[n - 1] == 0x5a;
out:
	free(src);
	free(back);
}

/* probes/pageable.cu: up to 2 MiB such a copy is staged at its call and
 * queued; from 3 MiB the call waits for its stream. */
static void pageable(void)
{
	bool early, bytes;

	pageable_behind(2 * MIB, &early, &bytes);
	ok(early, "a pageable copy of 2 MiB returns while its stream is still "
	   "busy (uvm.pageable_async_bytes)");
	ok(bytes, "and the GPU gets the bytes as they were at the call");
	pageable_behind(3 * MIB, &early, &bytes);
	ok(!early && bytes, "one of 3 MiB waits for its stream (early %d, "
	   "bytes %d)", early, bytes);
}

struct graph_arg {
	CUgraphExec x;
};

static CUresult launch_graph(CUstream st, void *arg)
{
	return cuGraphLaunch(((struct graph_arg *)arg)->x, st);
}

/* A graph's memset nodes cost the host no call each: its launch's call is
 * paid once. */
static void graph_nodes(void)
{
	CUDA_MEMSET_NODE_PARAMS m = { .dst = dev, .pitch = 64 * KIB, .value = 1,
				      .elementSize = 1, .width = 64 * KIB,
				      .height = 1 };
	CUgraphNode n[10];
	struct graph_arg g = { NULL };
	CUgraph graph = NULL;
	double ms;

	cuGraphCreate(&graph, 0);
	for (int i = 0; i < 10; i++)
		cuGraphAddMemsetNode(&n[i], graph, i ? &n[i - 1] : NULL, i ? 1 : 0,
				     &m, ctx);
	if (cuGraphInstantiate(&g.x, graph, 0) || cuGraphLaunch(g.x, s) ||
	    cuStreamSynchronize(s)) {
		ok(0, "a graph of ten memsets runs");
		return;
	}
	ms = timed_step(ctx, s, launch_graph, &g);
	ok(ms * 1e3 < 25, "a graph of ten 64 KiB memsets takes its launch and "
	   "their device time, no call each (%.3f us; a 3.5 us call each "
	   "made it 39)", ms * 1e3);
	cuGraphExecDestroy(g.x);
	cuGraphDestroy(graph);
}

int main(void)
{
	const char *src = getenv("top_srcdir"), *machine = getenv("CUEMU_MACHINE");
	char name[256];
	CUmodule m;

	snprintf(results, sizeof results, "%s/probes/results/copyone.txt",
		 src ? src : ".");
	snprintf(afterop[0], sizeof afterop[0],
		 "%s/probes/results/afterop.txt", src ? src : ".");
	snprintf(afterop[1], sizeof afterop[1],
		 "%s/probes/results/afterop-run2.txt", src ? src : ".");
	snprintf(name, sizeof name, "%.200s-copyone",
		 machine ? machine : "cuemu-test");
	setenv("CUEMU_MACHINE", name, 1);
	unsetenv("CUEMU_TOPOLOGY");
	ok(real_us("one", "pinned_to_gpu", 4) > 0 &&
	   afterop_us("CK", "pinned_to_gpu", 4) > 0, "the probes' output is "
	   "there (%s, %s)", results, afterop[0]);
	if (cuInit(0) || cuDevicePrimaryCtxRetain(&ctx, 0) ||
	    cuCtxSetCurrent(ctx) || cuModuleLoadData(&m, ptx) ||
	    cuModuleGetFunction(&empty, m, "empty") ||
	    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) ||
	    cuMemAlloc(&dev, 16 * MIB) || cuMemAlloc(&dev2, 16 * MIB) ||
	    cuMemAllocHost(&pinned, 16 * MIB)) {
		printf("Bail out! no device\n");
		return 1;
	}
	replay();
	mechanism();
	after_ops();
	pageable();
	graph_nodes();
	cuMemFreeHost(pinned);
	cuMemFree(dev);
	cuMemFree(dev2);
	cuStreamDestroy(s);
	cuModuleUnload(m);
	cuDevicePrimaryCtxRelease(0);
	return done_testing();
}
