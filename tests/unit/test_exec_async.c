/*
 * test_exec_async.c - cp.async, global to shared memory, as cuda-samples'
 * globalToShmemAsyncCopy stages its tiles (tests/unit/kernels/async.cu,
 * nvcc's PTX beside it): whole copies, copies cut short by a source size
 * and zero-filled, two groups in flight, the ignore-src predicate; the
 * forms the engine does not run and malformed ones refused at load.
 * cp.async.mbarrier.arrive in both forms (PTX text): without .noinc the
 * pending count is raised before the arrive-on, so the phase and count are
 * as before it; with .noinc it is one of the barrier's expected arrivals,
 * one per lane, and may complete the phase. cp.async.bulk completing its
 * bytes on an mbarrier before and after the expect_tx that counts them: a
 * phase waits for its bytes as for its arrivals.
 * A variable zero-fill is a switch of nvcc's whose default traps: a warp
 * whose lanes take several cases meets again before the barrier (cfg.c),
 * or its first case's lanes would pass it for the whole warp and the
 * others' copies land after their neighbours read them.
 */
#include "tap.h"
#include "exec_mock.h"

struct pb {
	uint8_t b[64];
	uint32_t n;
};
static void put(struct pb *p, const void *v, uint32_t size)
{
	p->n = (p->n + size - 1) & ~(size - 1);
	memcpy(p->b + p->n, v, size);
	p->n += size;
}
static void put_ptr(struct pb *p, const void *v)
{
	uint64_t a = (uint64_t)(uintptr_t)v;
	put(p, &a, 8);
}

static enum ex_status parse(const char *text, struct ex_module **m,
			    char *log, size_t n)
{
	*m = NULL;
	log[0] = '\0';
	return ex_module_parse(text, strlen(text), 90, m, log, n);
}

static enum ex_status run(struct ex_launch *l, struct ex_result *r)
{
	enum ex_status st = ex_launch_run(l, r);
	if (st != EX_OK)
		printf("# status %d: %s\n", st, r->message);
	return st;
}

/* 256 threads copy 16 bytes each of an input whose first valid bytes
 * count: thread t's chunk holds (t*16 + j) < valid ? its bytes : 0. */
static void test_stage(struct mock *mk, struct ex_module *m, int valid)
{
	uint8_t *in = mock_alloc(mk, 4096, 0), *out = mock_alloc(mk, 4096, 0);
	struct pb p = { 0 };
	struct ex_result r;
	int bad = 0;

	if (!in || !out)
		return;
	for (int i = 0; i < 4096; i++)
		in[i] = (uint8_t)(i * 7 + 1);
	put_ptr(&p, in); put_ptr(&p, out); put(&p, &valid, 4);
	struct ex_launch l = mock_launch(mk, m, "stage", p.b, 1, 1, 256, 1, 1);
	is_int(run(&l, &r), EX_OK, "stage: 256 cp.async of 16 bytes, %d valid", valid);
	for (int t = 0; t < 256; t++) {
		int c = (t + 1) % 256;
		for (int j = 0; j < 16; j++) {
			int i = c * 16 + j;
			bad += out[t * 16 + j] != (i < valid ? in[i] : 0);
		}
	}
	is_int(bad, 0, "each tile reads its neighbour's copy, zero past the source size%s",
	       valid % 16 ? " (a warp's lanes in three cases of the switch)" : "");
}

static void test_twostage(struct mock *mk, struct ex_module *m)
{
	int *in = mock_alloc(mk, 256 * 4, 0), *out = mock_alloc(mk, 256 * 4, 0);
	struct pb p = { 0 };
	struct ex_result r;
	int bad = 0;

	if (!in || !out)
		return;
	for (int i = 0; i < 256; i++)
		in[i] = i * 3 - 100;
	put_ptr(&p, in); put_ptr(&p, out);
	struct ex_launch l = mock_launch(mk, m, "twostage", p.b, 1, 1, 128, 1, 1);
	is_int(run(&l, &r), EX_OK, "twostage: two groups committed, waited for in turn");
	for (int t = 0; t < 128; t++) {
		bad += out[t] != in[127 - t];
		bad += out[128 + t] != in[128 + 127 - t];
	}
	is_int(bad, 0, "both groups' copies read back reversed");
}

static const char ignore_ptx[] =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry ign(.param .u64 in, .param .u64 out)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<8>;\n"
	"\t.shared .align 16 .b8 buf[512];\n"
	"\tld.param.u64 %rd1, [in];\n\tld.param.u64 %rd2, [out];\n"
	"\tmov.u32 %r1, %tid.x;\n"
	"\tsetp.eq.u32 %p1, %r1, 3;\n"
	"\tmul.wide.u32 %rd3, %r1, 8;\n"
	"\tadd.s64 %rd4, %rd1, %rd3;\n"
	"\tmov.u32 %r2, buf;\n\tshl.b32 %r3, %r1, 3;\n\tadd.u32 %r2, %r2, %r3;\n"
	"\tst.shared.u64 [%r2], 77;\n"
	"\tcp.async.ca.shared.global [%r2], [%rd4], 8, %p1;\n"
	"\tcp.async.wait_all;\n\tbar.sync 0;\n"
	"\tld.shared.u64 %rd5, [%r2];\n"
	"\tadd.s64 %rd6, %rd2, %rd3;\n\tst.global.u64 [%rd6], %rd5;\n"
	"\tret;\n}\n";

static void test_ignore_src(struct mock *mk)
{
	uint64_t *in = mock_alloc(mk, 32 * 8, 0), *out = mock_alloc(mk, 32 * 8, 0);
	struct ex_module *m;
	struct pb p = { 0 };
	struct ex_result r;
	char log[256];
	int bad = 0;

	if (!ok(parse(ignore_ptx, &m, log, sizeof log) == EX_OK,
		"cp.async with an ignore-src predicate parses") || !in || !out) {
		printf("# %s\n", log);
		return;
	}
	for (int i = 0; i < 32; i++)
		in[i] = 1000 + (uint64_t)i;
	put_ptr(&p, in); put_ptr(&p, out);
	struct ex_launch l = mock_launch(mk, m, "ign", p.b, 1, 1, 32, 1, 1);
	is_int(run(&l, &r), EX_OK, "a warp copies with lane 3 ignoring its source");
	for (int i = 0; i < 32; i++)
		bad += out[i] != (i == 3 ? 0 : 1000 + (uint64_t)i);
	is_int(bad, 0, "lane 3's 8 bytes are zeros (not its old 77), the others copies");
	ex_module_free(m);
}

/* one kernel around an instruction, for the refusals */
static enum ex_status one(const char *insn, char *log, size_t n)
{
	char text[1024];
	struct ex_module *m;
	enum ex_status st;

	snprintf(text, sizeof text,
		 ".version 8.0\n.target sm_90\n.address_size 64\n"
		 ".visible .entry k(.param .u64 a)\n{\n"
		 "\t.reg .b32 %%r<4>;\n\t.reg .b64 %%rd<4>;\n"
		 "\t.shared .align 16 .b8 buf[64];\n"
		 "\tld.param.u64 %%rd1, [a];\n\tmov.u32 %%r1, buf;\n"
		 "\t%s\n\tret;\n}\n", insn);
	st = parse(text, &m, log, n);
	ex_module_free(m);
	return st;
}

static void test_refusals(void)
{
	static const struct { const char *insn, *why; enum ex_status st; } c[] = {
		{ "cp.async.bulk.shared::cluster.global [%r1], [%rd1], 16, [%rd1];",
		  "cp.async.bulk", EX_UNSUPPORTED },
		{ "cp.async.mbarrier.arrive.expect_tx.b64 [%rd1];",
		  "cp.async.mbarrier.arrive.expect_tx", EX_UNSUPPORTED },
		{ "cp.async.mbarrier.b64 [%rd1];", "cp.async.mbarrier",
		  EX_UNSUPPORTED },
		{ "cp.async.mbarrier.arrive.shared.b32 [%r1];", "takes .b64",
		  EX_INVALID_PTX },
		{ "cp.async.mbarrier.arrive.shared.b64 [%r1], 1;", "takes .b64",
		  EX_INVALID_PTX },
		{ "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
		  ".multicast::cluster [%r1], [%rd1], 16, [%r1], 1;",
		  "cp.async.bulk' with '.multicast::cluster", EX_UNSUPPORTED },
		{ "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
		  " [%r1], [%rd1], 24, [%r1];", "16-byte units", EX_INVALID_PTX },
		{ "cp.reduce.async.bulk.global.shared::cta [%rd1], [%r1], 16;",
		  "cp.reduce", EX_UNSUPPORTED },
		{ "cp.async.ca.shared.global [%r1], [%rd1], 12;", "size of 4, 8 or 16",
		  EX_INVALID_PTX },
		{ "cp.async.ca.shared.global [%r1], [%rd1], 8, 9;", "source size",
		  EX_INVALID_PTX },
		{ "cp.async.ca.shared.global [%r1], %rd1, 8;", "[global]",
		  EX_INVALID_PTX },
	};
	char log[256];

	for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
		enum ex_status st = one(c[i].insn, log, sizeof log);
		is_int(st, c[i].st, "refused: %s", c[i].insn);
		ok(strstr(log, c[i].why) != NULL, "  saying '%s': %s", c[i].why, log);
	}
	is_int(one("cp.async.cg.shared.global.L2::cache_hint [%r1], [%rd1], 16, %rd1;",
		   log, sizeof log), EX_OK,
	       "a cache policy operand is taken and ignored");
}

static void test_misaligned(struct mock *mk, struct ex_module *m)
{
	uint8_t *in = mock_alloc(mk, 8192, 0), *out = mock_alloc(mk, 4096, 0);
	struct pb p = { 0 };
	struct ex_result r;
	int valid = 4096;

	if (!in || !out)
		return;
	put_ptr(&p, in + 8); put_ptr(&p, out); put(&p, &valid, 4);
	struct ex_launch l = mock_launch(mk, m, "stage", p.b, 1, 1, 256, 1, 1);
	is_int(ex_launch_run(&l, &r), EX_MISALIGNED_ADDRESS,
	       "a 16-byte copy from an 8-byte aligned source fails the launch");
	ok(strstr(r.message, "misaligned") != NULL, "saying so: %s", r.message);
}

#define HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

/* One thread: init for two arrivals, a 16-byte copy, the cp.async arrive
 * of the given form, then a plain arrival. out[0]: phase 0 complete after
 * the cp.async arrive; out[1], out[2]: the plain arrival's pending count
 * before it and its phase; out[3]: phase 0 complete after it; out[4]: the
 * copied bytes. */
static const char arrive_steps[] = HEAD
	".visible .entry steps(.param .u64 src, .param .u64 out)\n{\n"
	".reg .pred %%p<3>;\n.reg .b32 %%r<4>;\n.reg .b64 %%rd<8>;\n"
	".shared .align 8 .b64 bar;\n.shared .align 16 .b8 buf[16];\n"
	"ld.param.u64 %%rd1, [src];\nld.param.u64 %%rd2, [out];\n"
	"mov.u32 %%r1, bar;\nmov.u32 %%r2, buf;\n"
	"mbarrier.init.shared.b64 [%%r1], 2;\n"
	"cp.async.ca.shared.global [%%r2], [%%rd1], 16;\n"
	"cp.async.mbarrier.arrive%s.shared.b64 [%%r1];\n"
	"mbarrier.test_wait.parity.shared.b64 %%p1, [%%r1], 0;\n"
	"selp.u64 %%rd3, 1, 0, %%p1;\nst.global.u64 [%%rd2], %%rd3;\n"
	"mbarrier.arrive.shared.b64 %%rd4, [%%r1];\n"
	"mbarrier.pending_count.b64 %%r3, %%rd4;\n"
	"cvt.u64.u32 %%rd5, %%r3;\nst.global.u64 [%%rd2+8], %%rd5;\n"
	"shr.u64 %%rd6, %%rd4, 63;\nst.global.u64 [%%rd2+16], %%rd6;\n"
	"mbarrier.test_wait.parity.shared.b64 %%p2, [%%r1], 0;\n"
	"selp.u64 %%rd3, 1, 0, %%p2;\nst.global.u64 [%%rd2+24], %%rd3;\n"
	"ld.shared.u64 %%rd7, [%%r2];\nst.global.u64 [%%rd2+32], %%rd7;\n"
	"ret;\n}\n";

static void test_arrive_steps(struct mock *mk, bool noinc)
{
	const char *form = noinc ? ".noinc" : "";
	uint64_t *src = mock_alloc(mk, 4096, 0), *out = mock_alloc(mk, 4096, 0);
	/* without .noinc: nothing changed, two arrivals still pending */
	const uint64_t want[2][4] = { { 0, 2, 0, 0 }, { 0, 1, 0, 1 } };
	struct ex_module *m = NULL;
	struct ex_result r;
	struct pb p = { 0 };
	char text[2048], log[256];

	if (!src || !out)
		return;
	snprintf(text, sizeof text, arrive_steps, form);
	if (!ok(parse(text, &m, log, sizeof log) == EX_OK,
		"cp.async.mbarrier.arrive%s.shared.b64 parses (%s)", form, log)) {
		ex_module_free(m);
		return;
	}
	src[0] = 0x0123456789abcdefull;
	put_ptr(&p, src); put_ptr(&p, out);
	struct ex_launch l = mock_launch(mk, m, "steps", p.b, 1, 1, 1, 1, 1);
	if (ok(run(&l, &r) == EX_OK, "arrive%s: the steps run", form)) {
		is_int(out[0], want[noinc][0],
		       "arrive%s: phase 0 still incomplete after it", form);
		is_int(out[1], want[noinc][1],
		       "arrive%s: the next arrival finds %llu pending", form,
		       (unsigned long long)want[noinc][1]);
		is_int(out[2], 0, "arrive%s: that arrival is in phase 0", form);
		is_int(out[3], want[noinc][3], "arrive%s: phase 0 %s after it",
		       form, noinc ? "complete" : "still incomplete");
		is_int(out[4], src[0], "arrive%s: the copy landed", form);
	}
	ex_module_free(m);
}

/* A warp of 32 lanes, a barrier for 32 arrivals: 32 arrive-ons without
 * .noinc leave phase 0 incomplete (out[t]: 0), 32 with it complete it
 * (out[32 + t]: 1). */
static void test_arrive_warp(struct mock *mk)
{
	static const char text[] = HEAD
		".visible .entry warp(.param .u64 out)\n{\n"
		".reg .pred %p<3>;\n.reg .b32 %r<6>;\n.reg .b64 %rd<6>;\n"
		".shared .align 8 .b64 bar;\n"
		"ld.param.u64 %rd1, [out];\nmov.u32 %r1, bar;\n"
		"mov.u32 %r4, %tid.x;\nsetp.eq.u32 %p0, %r4, 0;\n"
		"@%p0 mbarrier.init.shared.b64 [%r1], 32;\nbar.sync 0;\n"
		"mul.wide.u32 %rd2, %r4, 8;\nadd.u64 %rd3, %rd1, %rd2;\n"
		"cp.async.mbarrier.arrive.shared.b64 [%r1];\n"
		"mbarrier.test_wait.parity.shared.b64 %p1, [%r1], 0;\n"
		"selp.u64 %rd4, 1, 0, %p1;\nst.global.u64 [%rd3], %rd4;\n"
		"bar.sync 0;\n"
		"cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%r1];\n"
		"bar.sync 0;\n"
		"mbarrier.test_wait.parity.shared.b64 %p2, [%r1], 0;\n"
		"selp.u64 %rd4, 1, 0, %p2;\nst.global.u64 [%rd3+256], %rd4;\n"
		"ret;\n}\n";
	uint64_t *out = mock_alloc(mk, 4096, 0);
	struct ex_module *m = NULL;
	struct ex_result r;
	struct pb p = { 0 };
	char log[256];
	int incomplete = 0, complete = 0;

	if (!out || !ok(parse(text, &m, log, sizeof log) == EX_OK,
			"the warp's kernel parses (%s)", log)) {
		ex_module_free(m);
		return;
	}
	memset(out, 0xff, 512);
	put_ptr(&p, out);
	struct ex_launch l = mock_launch(mk, m, "warp", p.b, 1, 1, 32, 1, 1);
	if (ok(run(&l, &r) == EX_OK, "the warp's kernel runs")) {
		for (int t = 0; t < 32; t++) {
			incomplete += out[t] == 0;
			complete += out[32 + t] == 1;
		}
		is_int(incomplete, 32, "32 lanes' arrive-ons without .noinc: "
		       "no lane sees phase 0 complete");
		is_int(complete, 32, "32 lanes' arrive-ons with .noinc: "
		       "every lane sees phase 0 complete");
	}
	ex_module_free(m);
}

/* One thread, a barrier for one arrival: 32 bytes copied in bulk before
 * their expect_tx (out[0], out[1]: phase 0 still incomplete after each),
 * 16 more expected, the arrival (out[2]: still incomplete, 16 bytes
 * pending), those 16 copied (out[3]: complete); out[4], out[5]: the
 * copied words at 0 and 40. */
static void test_bulk(struct mock *mk)
{
	static const char text[] = HEAD
		".visible .entry bulk(.param .u64 src, .param .u64 out)\n{\n"
		".reg .pred %p<5>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<9>;\n"
		".shared .align 8 .b64 bar;\n.shared .align 16 .b8 buf[48];\n"
		"ld.param.u64 %rd1, [src];\nld.param.u64 %rd2, [out];\n"
		"mov.u32 %r1, bar;\nmov.u32 %r2, buf;\nmov.u32 %r3, 32;\n"
		"mbarrier.init.shared.b64 [%r1], 1;\n"
		"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
		" [%r2], [%rd1], %r3, [%r1];\n"
		"mbarrier.test_wait.parity.shared.b64 %p1, [%r1], 0;\n"
		"selp.u64 %rd3, 1, 0, %p1;\nst.global.u64 [%rd2], %rd3;\n"
		"mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r1], %r3;\n"
		"mbarrier.test_wait.parity.shared.b64 %p2, [%r1], 0;\n"
		"selp.u64 %rd3, 1, 0, %p2;\nst.global.u64 [%rd2+8], %rd3;\n"
		"mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r1], 16;\n"
		"mbarrier.arrive.shared::cta.b64 %rd4, [%r1];\n"
		"mbarrier.test_wait.parity.shared.b64 %p3, [%r1], 0;\n"
		"selp.u64 %rd3, 1, 0, %p3;\nst.global.u64 [%rd2+16], %rd3;\n"
		"add.u64 %rd5, %rd1, 32;\n"
		"cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes"
		" [%r2+32], [%rd5], 16, [%r1];\n"
		"mbarrier.test_wait.parity.shared.b64 %p4, [%r1], 0;\n"
		"selp.u64 %rd3, 1, 0, %p4;\nst.global.u64 [%rd2+24], %rd3;\n"
		"ld.shared.u64 %rd6, [%r2];\nst.global.u64 [%rd2+32], %rd6;\n"
		"ld.shared.u64 %rd7, [%r2+40];\nst.global.u64 [%rd2+40], %rd7;\n"
		"ret;\n}\n";
	uint64_t *src = mock_alloc(mk, 4096, 0), *out = mock_alloc(mk, 4096, 0);
	const uint64_t want[4] = { 0, 0, 0, 1 };
	static const char *const what[4] = {
		"phase 0 incomplete with 32 bytes completed, none expected yet",
		"phase 0 incomplete after their expect_tx, the arrival pending",
		"phase 0 incomplete after the arrival, 16 bytes pending",
		"phase 0 complete once those 16 bytes are copied",
	};
	struct ex_module *m = NULL;
	struct ex_result r;
	struct pb p = { 0 };
	char log[256];

	if (!src || !out || !ok(parse(text, &m, log, sizeof log) == EX_OK,
				"cp.async.bulk and mbarrier.expect_tx parse (%s)", log)) {
		ex_module_free(m);
		return;
	}
	for (int i = 0; i < 8; i++)
		src[i] = 0x1111111111111111ull * (uint64_t)(i + 1);
	put_ptr(&p, src); put_ptr(&p, out);
	struct ex_launch l = mock_launch(mk, m, "bulk", p.b, 1, 1, 1, 1, 1);
	if (ok(run(&l, &r) == EX_OK, "the bulk copies run")) {
		for (int i = 0; i < 4; i++)
			is_int(out[i], want[i], "%s", what[i]);
		is_int(out[4], src[0], "the first copy landed");
		is_int(out[5], src[5], "the second copy landed");
	}
	ex_module_free(m);
}

/* A bulk size in a register that is not a multiple of 16 fails the
 * launch. */
static void test_bulk_size(struct mock *mk)
{
	static const char text[] = HEAD
		".visible .entry k(.param .u64 src)\n{\n"
		".reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n"
		".shared .align 8 .b64 bar;\n.shared .align 16 .b8 buf[48];\n"
		"ld.param.u64 %rd1, [src];\nmov.u32 %r1, bar;\nmov.u32 %r2, buf;\n"
		"mov.u32 %r3, 24;\nmbarrier.init.shared.b64 [%r1], 1;\n"
		"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
		" [%r2], [%rd1], %r3, [%r1];\nret;\n}\n";
	uint64_t *src = mock_alloc(mk, 4096, 0);
	struct ex_module *m = NULL;
	struct ex_result r;
	struct pb p = { 0 };
	char log[256];

	if (!src || !ok(parse(text, &m, log, sizeof log) == EX_OK,
			"a bulk copy of a register's size parses (%s)", log)) {
		ex_module_free(m);
		return;
	}
	put_ptr(&p, src);
	struct ex_launch l = mock_launch(mk, m, "k", p.b, 1, 1, 1, 1, 1);
	is_int(ex_launch_run(&l, &r), EX_MISALIGNED_ADDRESS,
	       "a bulk copy of 24 bytes fails the launch");
	ok(strstr(r.message, "multiple of 16") != NULL, "saying so: %s", r.message);
	ex_module_free(m);
}

/* An arrive-on at an address past the block's shared memory, either form. */
static void test_arrive_outside(struct mock *mk, bool noinc)
{
	char text[512], log[256];
	struct ex_module *m = NULL;
	struct ex_result r;

	snprintf(text, sizeof text, HEAD ".visible .entry k()\n{\n"
		 ".reg .b32 %%r<2>;\n.shared .align 8 .b64 bar;\n"
		 "mov.u32 %%r0, bar;\nadd.u32 %%r1, %%r0, 65536;\n"
		 "mbarrier.init.shared.b64 [%%r0], 1;\n"
		 "cp.async.mbarrier.arrive%s.shared.b64 [%%r1];\nret;\n}\n",
		 noinc ? ".noinc" : "");
	if (ok(parse(text, &m, log, sizeof log) == EX_OK,
	       "an out-of-range arrive%s parses (%s)", noinc ? ".noinc" : "", log)) {
		struct ex_launch l = mock_launch(mk, m, "k", NULL, 1, 1, 32, 1, 1);
		is_int(ex_launch_run(&l, &r), EX_ILLEGAL_ADDRESS,
		       "arrive%s past the block's shared memory: an illegal address",
		       noinc ? ".noinc" : "");
	}
	ex_module_free(m);
}

int main(void)
{
	struct mock *mk = calloc(1, sizeof *mk);
	struct ex_module *m = NULL;
	size_t len = 0;
	char *t, log[512];

	mock_init(mk);
	t = mock_read_ptx("async", &len);
	if (!ok(t && ex_module_parse(t, len, 90, &m, log, sizeof log) == EX_OK,
		"async.ptx parses")) {
		printf("# %s\n", t ? log : "async.ptx unreadable");
	} else if (!mock_bind(mk, m)) {
		test_stage(mk, m, 4096);
		test_stage(mk, m, 200 * 16 + 5);
		test_stage(mk, m, 0);
		test_twostage(mk, m);
		test_misaligned(mk, m);
	}
	free(t);
	test_ignore_src(mk);
	test_refusals();
	test_arrive_steps(mk, false);
	test_arrive_steps(mk, true);
	test_arrive_warp(mk);
	test_arrive_outside(mk, false);
	test_arrive_outside(mk, true);
	test_bulk(mk);
	test_bulk_size(mk);
	ex_module_free(m);
	mock_free(mk);
	free(mk);
	return done_testing();
}
