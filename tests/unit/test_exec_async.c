/*
 * test_exec_async.c - cp.async, global to shared memory, as cuda-samples'
 * globalToShmemAsyncCopy stages its tiles (tests/unit/kernels/async.cu,
 * nvcc's PTX beside it): whole copies, copies cut short by a source size
 * and zero-filled, two groups in flight, the ignore-src predicate; the
 * forms the engine does not run and malformed ones refused at load.
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
		{ "cp.async.mbarrier.arrive.b64 [%rd1];", "cp.async.mbarrier",
		  EX_UNSUPPORTED },
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
	ex_module_free(m);
	mock_free(mk);
	free(mk);
	return done_testing();
}
