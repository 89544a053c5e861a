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
 * phases with no thread passing its wait early. Then a barrier past the
 * block's shared memory and what the parser refuses.
 */
#include "tap.h"
#include "exec_mock.h"
#include "probe_rows.h"

/* The recorded steps: the value of each line after "mbarrier.steps:", in
 * order, whether it is the object's bits and whether an arrival's state. */
static int steps_recorded(const char *res, uint64_t *v, bool *raw,
			  bool *state, int max)
{
	const char *p = strstr(res, "mbarrier.steps:");
	int n = 0;

	p = p ? strchr(p, '\n') : NULL;
	while (p && n < max && !strncmp(p + 1, "mbarrier.", 9)) {
		const char *sp = strchr(p + 1, ' '), *nl = strchr(p + 1, '\n');
		if (!sp || !nl || sp > nl || !strncmp(p + 1, "mbarrier.phases", 15))
			break;
		raw[n] = sp - p > 4 && !strncmp(sp - 4, ".raw", 4);
		state[n] = sp - p > 6 && !strncmp(sp - 6, ".state", 6);
		v[n++] = strtoull(sp + 1, NULL, 16);
		p = nl;
	}
	return n;
}

static void steps(struct mock *mk, struct ex_module *m, const char *res)
{
	uint64_t want[64], *out = mock_alloc(mk, 4096, 0);
	bool raw[64], state[64];
	int n = steps_recorded(res, want, raw, state, 64), bad = -1, compared = 0;
	struct { uint64_t out; } params = { (uintptr_t)out };
	struct ex_launch l = mock_launch(mk, m, "steps", &params, 1, 1, 1, 1, 1);
	struct ex_result r;

	if (!ok(n == 46 && l.kernel >= 0, "46 steps recorded, the kernel is in the PTX"))
		return;
	if (!ok(ex_launch_run(&l, &r) == EX_OK, "the steps run")) {
		printf("#   %s\n", r.message);
		return;
	}
	for (int i = 0; i < n; i++) {
		if (raw[i])
			continue;
		compared++;
		if (state[i]) {         /* bits 0-42: filled, never read */
			out[i] >>= 43;
			want[i] >>= 43;
		}
		if (bad < 0 && out[i] != want[i])
			bad = i;
	}
	if (!ok(bad < 0, "%d steps' states, pending counts and waits as the H200 answered",
		compared))
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
		steps(mk, m, res);
		phases(mk, m);
	}
	outside(mk);
	refused("mbarrier.arrive.expect_tx.shared.b64 %rd0, [%r0], 16;", EX_UNSUPPORTED,
		"expect_tx");
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
