/*
 * test_exec_mbarrier.c - mbarrier as an H200 answered it: probes/mbarrier.cu's
 * kernels, from nvcc's PTX of the probe (probes/mbarrier.ptx), run through
 * the engine. One thread's steps (init, arrivals with counts, the states
 * they return and pending_count of them, test_wait and try_wait with and
 * without a suspend hint and by parity before and after each phase
 * completes, arrive.noComplete, arrive_drop, inval) are compared line by
 * line with probes/results/mbarrier.txt, all but the object's own bits
 * (the engine's layout is its own) and a state's bits 0-42 (the device
 * fills them with 0, 1 or 2, which no operation reads); a block of 128 threads runs eight
 * phases with no thread passing its wait early. Then the transaction
 * count, from probes/mbartx.cu (probes/mbartx.ptx, results/mbartx.txt):
 * arrive.expect_tx, expect_tx and complete_tx before and after the
 * arrivals, a count below zero brought back, the largest count, a bulk
 * copy's bytes, compared as above (the states' bits 0-42 hold bytes too
 * on the device, in a form no operation reads); nvcc's cuda::memcpy_async
 * with a cuda::barrier, cuda::device::memcpy_async_tx with
 * barrier_arrive_tx, and cp.async.bulk from shared memory to global in
 * bulk groups, each over four phases of 128 threads; an arrival of more
 * than the phase waits for fails the launch, as on the H200. Then a
 * barrier past the block's shared memory and what the parser refuses.
 */
#include "tap.h"
#include "exec_mock.h"
#include "probe_rows.h"

/* The recorded steps: the value of each line after "<probe>.steps:" up
 * to the next line with a colon, in order, whether it is the object's
 * bits or a timing (not compared) and whether an arrival's state. */
static int steps_recorded(const char *res, const char *probe, uint64_t *v,
			  bool *skip, bool *state, int max)
{
	char head[32];
	const char *p;
	size_t plen = strlen(probe);
	int n = 0;

	snprintf(head, sizeof head, "%s.steps:", probe);
	p = strstr(res, head);
	p = p ? strchr(p, '\n') : NULL;
	while (p && n < max && !strncmp(p + 1, probe, plen) && p[plen + 1] == '.') {
		const char *sp = strchr(p + 1, ' '), *nl = strchr(p + 1, '\n');
		if (!sp || !nl || sp > nl || sp[-1] == ':')
			break;
		skip[n] = (sp - p > 4 && !strncmp(sp - 4, ".raw", 4)) ||
			  (sp - p > 5 && !strncmp(sp - 5, ".spun", 5));
		state[n] = sp - p > 6 && !strncmp(sp - 6, ".state", 6);
		v[n++] = strtoull(sp + 1, NULL, 16);
		p = nl;
	}
	return n;
}

/* Kernel "steps" of a probe (params: out, then src) by one thread, its
 * outputs compared with the recorded ones. */
static void steps(struct mock *mk, struct ex_module *m, const char *res,
		  const char *probe, int want_n, const void *src)
{
	uint64_t want[64], *out = mock_alloc(mk, 4096, 0);
	bool skip[64], state[64];
	int n = steps_recorded(res, probe, want, skip, state, 64), bad = -1,
	    compared = 0;
	struct { uint64_t out, src; } params = { (uintptr_t)out, (uintptr_t)src };
	struct ex_launch l = mock_launch(mk, m, "steps", &params, 1, 1, 1, 1, 1);
	struct ex_result r;

	if (!ok(n == want_n && l.kernel >= 0, "%s: %d steps recorded (%d), the "
		"kernel is in the PTX", probe, want_n, n))
		return;
	if (!ok(ex_launch_run(&l, &r) == EX_OK, "%s: the steps run", probe)) {
		printf("#   %s\n", r.message);
		return;
	}
	for (int i = 0; i < n; i++) {
		if (skip[i])
			continue;
		compared++;
		if (state[i]) {         /* bits 0-42: filled, never read */
			out[i] >>= 43;
			want[i] >>= 43;
		}
		if (bad < 0 && out[i] != want[i])
			bad = i;
	}
	if (!ok(bad < 0, "%s: %d steps' states, pending counts and waits as the "
		"H200 answered", probe, compared))
		printf("#   step %d: got %llx, want %llx\n", bad,
		       (unsigned long long)out[bad], (unsigned long long)want[bad]);
}

static void phases(struct mock *mk, struct ex_module *m)
{
	uint64_t *out = mock_alloc(mk, 4096, 0);
	struct { uint64_t out; } params = { (uintptr_t)out };
	struct ex_launch l = mock_launch(mk, m, "phases", &params, 1, 1, 128, 1, 1);
	struct ex_result r;

	out[0] = 99;
	enum ex_status st = ex_launch_run(&l, &r);
	ok(st == EX_OK && out[0] == 0,
	   "128 threads, eight phases: no thread passes try_wait before every "
	   "thread's store of its phase (early readers %llu)", (unsigned long long)out[0]);
}

#define HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

/* An mbarrier past the block's shared memory is an illegal address. */
static void outside(struct mock *mk)
{
	static const char ptx[] = HEAD
		".visible .entry k()\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n"
		".shared .align 8 .b64 bar;\n"
		"mov.u32 %r0, bar;\nadd.u32 %r1, %r0, 65536;\n"
		"mbarrier.init.shared.b64 [%r0], 1;\n"
		"mbarrier.arrive.shared.b64 %rd0, [%r1];\nret;\n}\n";
	struct ex_module *m = NULL;
	struct ex_result r;
	char log[256] = "";

	if (!ok(ex_module_parse(ptx, sizeof ptx - 1, 90, &m, log, sizeof log) == EX_OK,
		"an mbarrier kernel parses (%s)", log))
		return;
	struct ex_launch l = mock_launch(mk, m, "k", NULL, 1, 1, 32, 1, 1);
	ok(ex_launch_run(&l, &r) == EX_ILLEGAL_ADDRESS,
	   "an arrival on an object past the block's shared memory: EX_ILLEGAL_ADDRESS (%s)",
	   r.message);
	ex_module_free(m);
}

static void refused(const char *insn, enum ex_status want, const char *why)
{
	char ptx[512], log[256] = "";
	struct ex_module *m = NULL;

	snprintf(ptx, sizeof ptx, HEAD ".visible .entry k()\n{\n.reg .b32 %%r<2>;\n"
		 ".reg .b64 %%rd<2>;\n.reg .pred %%p;\n%s\nret;\n}\n", insn);
	ok(ex_module_parse(ptx, strlen(ptx), 90, &m, log, sizeof log) == want &&
	   strstr(log, "line 9") && strstr(log, why),
	   "%s: refused at its line (%s)", insn, log);
	ex_module_free(m);
}

/* A kernel of probes/mbartx.cu (params: g, o) on 128 threads: its
 * recorded line says "bad 0"; o[0] counts the values that did not
 * arrive. */
static void lib_kernel(struct mock *mk, struct ex_module *m, const char *res,
		       const char *name, const int *g, int *o)
{
	char line[64];
	struct { uint64_t g, o; } params = { (uintptr_t)g, (uintptr_t)o };
	struct ex_launch l = mock_launch(mk, m, name, &params, 1, 1, 128, 1, 1);
	struct ex_result r;
	enum ex_status st;

	snprintf(line, sizeof line, "mbartx.%s: cudaSuccess bad 0", name);
	o[0] = 0;
	st = ex_launch_run(&l, &r);
	ok(strstr(res, line) && st == EX_OK && o[0] == 0,
	   "%s: four phases of 128 threads, every value arrived (%d wrong; "
	   "H200: '%s') %s", name, o[0], line, st ? r.message : "");
}

/* probes/mbartx.cu through the engine against the H200's answers. */
static void transactions(struct mock *mk)
{
	size_t plen = 0, rlen = 0;
	char *ptx = slurp("probes/mbartx.ptx", &plen);
	char *res = slurp("probes/results/mbartx.txt", &rlen), log[512] = "";
	struct ex_module *m = NULL;
	int *g = mock_alloc(mk, 4096, 0), *o = mock_alloc(mk, 4096, 0), bad = 0;
	uint64_t *out = mock_alloc(mk, 4096, 0);
	struct { uint64_t out; } params = { (uintptr_t)out };
	struct ex_result r;

	if (!ok(ptx && res, "mbartx's PTX and its results are readable") ||
	    !ok(ex_module_parse(ptx, plen, 90, &m, log, sizeof log) == EX_OK,
		"mbartx's PTX parses: arrive.expect_tx, complete_tx, bulk "
		"copies both ways, bulk groups (%s)", log))
		goto out;
	for (int i = 0; i < 1024; i++)
		g[i] = i;
	lib_kernel(mk, m, res, "lib_copy", g, o);
	for (int i = 0; i < 1024; i++)
		o[i] = -1;
	lib_kernel(mk, m, res, "lib_tx", g, o);
	for (int i = 0; i < 256; i++)
		bad += o[256 + i] != 7 * i;
	for (int i = 0; i < 128; i++)
		bad += o[512 + i] != 7 * (128 + i);
	for (int i = 640; i < 1024; i++)
		bad += o[i] != -1;
	ok(bad == 0 && strstr(res, "mbartx.bulk_s2g: bad 0"),
	   "cp.async.bulk shared::cta to global in two bulk groups: 1 KiB and "
	   "512 bytes where they belong, nothing past them (%d wrong)", bad);
	steps(mk, m, res, "mbartx", 45, g);
	struct ex_launch l = mock_launch(mk, m, "over", &params, 1, 1, 1, 1, 1);
	ok(strstr(res, "mbartx.over: cudaErrorLaunchFailure") &&
	   ex_launch_run(&l, &r) == EX_LAUNCH_FAILED && strstr(r.message, "arrival of 3"),
	   "an arrival of 3 where 2 are pending fails the launch, as on the H200 "
	   "(%s)", r.message);
out:
	ex_module_free(m);
	free(ptx);
	free(res);
}

int main(void)
{
	size_t plen = 0, rlen = 0;
	char *ptx = slurp("probes/mbarrier.ptx", &plen);
	char *res = slurp("probes/results/mbarrier.txt", &rlen), log[512] = "";
	struct ex_module *m = NULL;
	struct mock *mk = calloc(1, sizeof *mk);

	mock_init(mk);
	if (ok(ptx && res, "the probe's PTX and its results are readable") &&
	    ok(ex_module_parse(ptx, plen, 90, &m, log, sizeof log) == EX_OK,
	       "the probe's PTX parses (%s)", log)) {
		steps(mk, m, res, "mbarrier", 46, NULL);
		phases(mk, m);
	}
	ex_module_free(m);
	m = NULL;
	transactions(mk);
	outside(mk);
	refused("mbarrier.arrive.expect_tx.shared.b64 %rd0, [%r0];", EX_INVALID_PTX,
		"operands");
	refused("mbarrier.complete_tx.shared.b64 [%r0];", EX_INVALID_PTX, "operands");
	refused("mbarrier.arrive.expect_tx.shared::cluster.b64 _, [%r0], 16;",
		EX_UNSUPPORTED, "shared::cluster");
	refused("cp.async.bulk.global.shared::cta.bulk_group [%rd0], [%r0], 24;",
		EX_INVALID_PTX, "16-byte");
	refused("cp.async.bulk.global.shared::cta [%rd0], [%r0], 16;",
		EX_UNSUPPORTED, "completion");
	refused("cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint "
		"[%rd0], [%r0], 16, %rd1;", EX_UNSUPPORTED, "L2::cache_hint");
	refused("cp.async.bulk.wait_group %r0;", EX_INVALID_PTX, "a count");
	refused("mbarrier.expect_tx.shared.b64 [%r0];", EX_INVALID_PTX, "operands");
	refused("mbarrier.arrive.shared.b64 %rd0, [%r0], 1, 2;", EX_INVALID_PTX, "operands");
	refused("mbarrier.test_wait.shared.b64 %p, %r0, %rd0;", EX_INVALID_PTX, "operands");
	refused("mbarrier.shared.b64 %rd0, [%r0];", EX_INVALID_PTX, "without an operation");
	ex_module_free(m);
	mock_free(mk);
	free(mk);
	free(ptx);
	free(res);
	return done_testing();
}
