/*
 * test_exec_stack.c - device recursion. probes/stack.cu's kernel (a
 * function with 128 bytes of locals calling itself to a depth) runs
 * through the engine, from nvcc's PTX of the probe (probes/stack.ptx), at
 * each depth and stack limit an H200 ran it, and must succeed or stop with
 * an illegal address where the H200 did (probes/results/stack.txt). Then
 * kernels of our own (tests/unit/kernels/recursion.cu): values returned up
 * the calls with lanes at different depths, a callee writing into its
 * caller's frame, mutual recursion, and cuda::barrier's phases. Last, the
 * same kernel under a stack of 0 (probes/results/stackmem.txt, whose
 * recursion is stack.cu's): the first recursive call faults, as on the
 * H200, where the engine once ran it on 1 KiB.
 */
#include "tap.h"
#include "exec_mock.h"
#include "probe_rows.h"

/* One recorded run: "stack.D.L.launch RESULT right|-", L's ".set" line
 * saying whether the limit took. */
static void replay_line(struct mock *mk, struct ex_module *m, const char *res,
			const char *line)
{
	int depth = 0, *out = mock_alloc(mk, 4096, 0);
	unsigned long long lim = 0;
	char err[64] = "", right[8] = "", key[96];
	struct ex_result r;

	if (sscanf(line, "stack.%d.%llu.launch %63s %7s", &depth, &lim, err, right) != 4)
		return;
	snprintf(key, sizeof key, "stack.%d.%llu.set cudaErrorInvalidValue", depth, lim);
	if (strstr(res, key))
		lim = 0;                /* refused: the default stays */
	struct { uint64_t out; int32_t depth; } params = { (uintptr_t)out, depth };
	struct ex_launch l = mock_launch(mk, m, "run", &params, 1, 1, 32, 1, 1);
	l.stack_bytes = lim ? (uint32_t)lim : 1024;
	int want = 5;
	for (int d = 1; d <= depth; d++)
		want += d + d % 32;
	enum ex_status st = ex_launch_run(&l, &r);
	if (!strcmp(err, "cudaSuccess"))
		ok(st == EX_OK && out[31] == want && out[0] == want,
		   "depth %d under a stack of %llu: runs and sums right, as on the H200 (%s)",
		   depth, lim ? lim : 1024, r.message);
	else
		ok(st == EX_ILLEGAL_ADDRESS && strstr(r.message, "stack overflow"),
		   "depth %d under a stack of %llu: an illegal address, as on the H200 (%s)",
		   depth, lim ? lim : 1024, r.message);
}

static void replay(struct mock *mk)
{
	size_t plen = 0, rlen = 0;
	char *ptx = slurp("probes/stack.ptx", &plen);
	char *res = slurp("probes/results/stack.txt", &rlen), log[256] = "";
	struct ex_module *m = NULL;
	int n = 0;

	if (ok(ptx && res, "the probe's PTX and its results are readable") &&
	    ok(ex_module_parse(ptx, plen, 90, &m, log, sizeof log) == EX_OK,
	       "the probe's recursive PTX parses (%s)", log)) {
		for (const char *p = res; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p) {
			char line[256];
			size_t len = strcspn(p, "\n");
			if (len >= sizeof line || !strstr(line, "") || len < 6)
				continue;
			memcpy(line, p, len);
			line[len] = '\0';
			if (strstr(line, ".launch ")) {
				replay_line(mk, m, res, line);
				n++;
			}
		}
		ok(n == 46, "%d recorded launches replayed", n);
	}
	ex_module_free(m);
	free(ptx);
	free(res);
}

/* stackmem.txt's "stackmem.recD.launch ..." lines: the recursion D deep
 * (D from 0: one call of the recursive function) under a stack of 0. */
static void zero_stack(struct mock *mk)
{
	size_t plen = 0, rlen = 0;
	char *ptx = slurp("probes/stack.ptx", &plen);
	char *res = slurp("probes/results/stackmem.txt", &rlen), log[256] = "";
	struct ex_module *m = NULL;
	int n = 0;

	if (!ok(ptx && res && ex_module_parse(ptx, plen, 90, &m, log, sizeof log) ==
		EX_OK, "stack.ptx and results/stackmem.txt (%s)", log))
		goto out;
	for (const char *p = res; (p = strstr(p, "stackmem.rec")); p++) {
		int depth, *out = mock_alloc(mk, 4096, 0);
		char err[64] = "";
		struct ex_result r;

		if (sscanf(p, "stackmem.rec%d.launch local=0: cudaSuccess %63s",
			   &depth, err) != 2)
			continue;
		struct { uint64_t out; int32_t depth; } params = { (uintptr_t)out, depth };
		struct ex_launch l = mock_launch(mk, m, "run", &params, 1, 1, 32, 1, 1);
		l.stack_bytes = 0;
		enum ex_status st = ex_launch_run(&l, &r);
		ok(!strcmp(err, "cudaErrorIllegalAddress") && st == EX_ILLEGAL_ADDRESS &&
		   strstr(r.message, "stack overflow"),
		   "depth %d under a stack of 0: an illegal address at the first "
		   "recursive call, as on the H200 (%s)", depth, r.message);
		n++;
	}
	ok(n == 3, "%d recorded launches under a stack of 0 replayed", n);
out:
	ex_module_free(m);
	free(ptx);
	free(res);
}

static int fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static void fill(int *parent, int d)
{
	int mine[8];

	for (int i = 0; i < 8; i++)
		mine[i] = d * 10 + i;
	if (d > 0)
		fill(mine, d - 1);
	for (int i = 0; i < 8; i++)
		parent[i] += mine[(i + d) & 7];
}

static void own(struct mock *mk)
{
	size_t len = 0;
	char *ptx = mock_read_ptx("recursion", &len), log[256] = "";
	struct ex_module *m = NULL;
	int *out = mock_alloc(mk, 1 << 16, 0), bad;
	struct ex_result r;
	struct { uint64_t out; int32_t depth; } params = { (uintptr_t)out, 3 };

	if (!ok(ptx && ex_module_parse(ptx, len, 90, &m, log, sizeof log) == EX_OK,
		"recursion.ptx parses (%s)", log)) {
		free(ptx);
		return;
	}
	struct ex_launch l = mock_launch(mk, m, "fibs", &params, 1, 1, 64, 1, 1);
	l.stack_bytes = 8192;
	bad = ex_launch_run(&l, &r) == EX_OK ? -1 : 0;
	for (int t = 0; t < 64 && bad < 0; t++)
		if (out[t] != fib(t % 13))
			bad = t;
	ok(bad < 0, "fib(t %% 13) in 64 threads, each lane its own depth (%s)", r.message);

	l = mock_launch(mk, m, "frames", &params, 1, 1, 32, 1, 1);
	l.stack_bytes = 8192;
	bad = ex_launch_run(&l, &r) == EX_OK ? -1 : 0;
	for (int t = 0; t < 32 && bad < 0; t++) {
		int acc[8] = { 0 };
		fill(acc, 3 + (t & 3));
		for (int i = 0; i < 8; i++)
			if (out[t * 8 + i] != acc[i])
				bad = t;
	}
	ok(bad < 0, "each frame's array is its own: a callee adds into its caller's (%s)",
	   r.message);

	l = mock_launch(mk, m, "frames", &params, 1, 1, 32, 1, 1);
	l.stack_bytes = 64;
	ok(ex_launch_run(&l, &r) == EX_ILLEGAL_ADDRESS &&
	   strstr(r.message, "stack overflow") && strstr(r.message, "64 bytes"),
	   "a stack of 64 bytes cannot hold a frame: an illegal address naming "
	   "the limit (%s)", r.message);

	l = mock_launch(mk, m, "parity", &params, 1, 1, 40, 1, 1);
	l.stack_bytes = 8192;
	bad = ex_launch_run(&l, &r) == EX_OK ? -1 : 0;
	for (int t = 0; t < 40 && bad < 0; t++)
		if (out[t] != !(t & 1))
			bad = t;
	ok(bad < 0, "two functions calling each other (%s)", r.message);

	l = mock_launch(mk, m, "phases", &params, 1, 1, 128, 1, 1);
	bad = ex_launch_run(&l, &r) == EX_OK ? -1 : 0;
	for (int t = 0; t < 128 && bad < 0; t++)
		if (out[t] != 4 * ((t + 1) % 128) + 6)
			bad = t;
	ok(bad < 0, "cuda::barrier: four phases of 128 threads, the last dropping out "
	   "(%s)", r.message);
	ex_module_free(m);
	free(ptx);
}

int main(void)
{
	struct mock *mk = calloc(1, sizeof *mk);

	mock_init(mk);
	replay(mk);
	own(mk);
	zero_stack(mk);
	mock_free(mk);
	free(mk);
	return done_testing();
}
