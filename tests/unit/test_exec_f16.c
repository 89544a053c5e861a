/*
 * test_exec_f16.c - the half-precision table replayed: every case of
 * probes/f16.h runs through the engine, from nvcc's PTX of the probe
 * (probes/f16.ptx), over the rows an H200 ran, and its outputs are
 * compared with the GPU's (probes/results/f16.txt), on the baseline loop
 * and on the AVX2 build. One TAP line per case; the first differing row
 * is printed. Exact cases compare bits; the .approx ones (ex2, tanh)
 * compare each half within a relative 2^-9 (bf16: 2^-7, one unit of its
 * last place; an H200 gave ex2(1.0078125) as 2.0), NaN with NaN, infinities
 * exactly. Then the atomics from many threads at once (sm_90's vector
 * forms among them: each element added atomically, the old values
 * returned, a misaligned vector refused at run time), the vector forms
 * the ISA lacks refused as invalid PTX, and what the parser refuses of
 * half precision.
 */
#include "tap.h"
#include "exec_mock.h"
#include "probe_rows.h"
#include "probe_replay.h"
#include "../../probes/f16.h"

#include <math.h>

static const struct {
	const char *name;
	int gen, approx;
} cases[] = {
#define X(name, gen, approx) { #name, gen, approx },
	HF_CASES(X)
#undef X
};

/* A 16-bit value as a double: f16, or bf16 where the case is one. */
static double half_value(uint32_t h, bool bf)
{
	int eb = bf ? 8 : 5, mb = bf ? 7 : 10, bias = (1 << (eb - 1)) - 1;
	uint32_t e = h >> mb & ((1u << eb) - 1), m = h & ((1u << mb) - 1);
	double v = e == (1u << eb) - 1 ? (m ? NAN : INFINITY) :
		   e ? ldexp(m | 1u << mb, (int)e - bias - mb) :
		   ldexp(m, 1 - bias - mb);

	return (h & 0x8000) ? -v : v;
}

static bool close_half(const char *name, uint64_t got, uint64_t want)
{
	bool bf = strstr(name, "bf16") != NULL;

	for (int h = 0; h < 2; h++) {
		double g = half_value((uint32_t)(got >> 16 * h) & 0xffff, bf);
		double w = half_value((uint32_t)(want >> 16 * h) & 0xffff, bf);
		if (isnan(g) || isnan(w) || isinf(g) || isinf(w)) {
			if (!((isnan(g) && isnan(w)) || g == w))
				return false;
		} else if (fabs(g - w) > ldexp(fabs(w), bf ? -7 : -9) + 1e-7) {
			return false;
		}
	}
	return (got >> 32) == (want >> 32);
}

/* close_half as replay_case compares */
static bool same_half(const char *name, uint64_t a, uint64_t got, uint64_t want)
{
	(void)a;
	return close_half(name, got, want);
}

/* Registers declared .f16 and .f16x2, as cuda_fp16.h's inline asm
 * declares them (fp16ScalarProduct): a float packed twice into a pair, an
 * fma of pairs, the halves unpacked and widened. */
static void typed_registers(struct mock *mk)
{
	static const char ptx[] =
		".version 8.0\n.target sm_90\n.address_size 64\n"
		".visible .entry k(.param .u64 out, .param .f32 x)\n{\n"
		".reg .f32 %f<4>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n"
		"ld.param.u64 %rd0, [out];\nld.param.f32 %f0, [x];\n"
		"{.reg .f16 low;\ncvt.rn.f16.f32 low, %f0;\nmov.b32 %r0, {low,low};}\n"
		"{.reg .f16x2 acc;\nmov.b32 acc, 0x3c004000;\n"
		"fma.rn.f16x2 %r1, %r0, %r0, acc;}\n"
		"{.reg .f16 lo, hi;\nmov.b32 {lo, hi}, %r1;\n"
		"cvt.f32.f16 %f1, lo;\ncvt.f32.f16 %f2, hi;}\n"
		"st.global.f32 [%rd0], %f1;\nst.global.f32 [%rd0+4], %f2;\n"
		"st.global.u32 [%rd0+8], %r1;\nret;\n}\n";
	struct ex_module *m = NULL;
	struct ex_result r;
	char log[256] = "";
	float *out = mock_alloc(mk, 4096, 0);
	struct { uint64_t out; float x; } params = { (uintptr_t)out, 1.5f };

	if (!ok(ex_module_parse(ptx, sizeof ptx - 1, 90, &m, log, sizeof log) == EX_OK,
		".f16 and .f16x2 registers parse (%s)", log))
		return;
	struct ex_launch l = mock_launch(mk, m, "k", &params, 1, 1, 1, 1, 1);
	ok(ex_launch_run(&l, &r) == EX_OK, "their kernel runs");
	uint32_t pair;
	memcpy(&pair, &out[2], 4);
	ok(out[0] == 4.25f && out[1] == 3.25f && pair == 0x42804440u,
	   "1.5 * 1.5 + {1, 2} is {3.25, 4.25} (got %g %g %08x)", out[1], out[0], pair);
	ex_module_free(m);
}

/* Half-precision atomics are atomic: 64 threads of two blocks, which the
 * engine's two host threads run at once, each add 1.0
 * to one f16 (64.0, 0x5400), and {1, 2} to one bf16x2 ({64, 128}), every
 * add counted though the lanes race; cas.b16 lets one thread of the 64
 * swap. */
static void contended_atomics(struct mock *mk)
{
	static const char ptx[] =
		".version 8.0\n.target sm_90\n.address_size 64\n"
		".visible .entry k(.param .u64 out)\n{\n"
		".reg .b16 %rs<4>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n"
		".reg .pred %p<2>;\n"
		"ld.param.u64 %rd0, [out];\n"
		"mov.b16 %rs0, 0x3c00;\n"
		"atom.global.add.noftz.f16 %rs1, [%rd0], %rs0;\n"
		"mov.b32 %r0, 0x40003f80;\n"
		"red.global.add.noftz.bf16x2 [%rd0+4], %r0;\n"
		"mov.b16 %rs2, 0;\nmov.b16 %rs3, 1;\n"
		"atom.global.cas.b16 %rs1, [%rd0+8], %rs2, %rs3;\n"
		"setp.eq.u16 %p0, %rs1, 0;\n"
		"@%p0 red.global.add.u32 [%rd0+12], 1;\n"
		"ret;\n}\n";
	struct ex_module *m = NULL;
	struct ex_result r;
	char log[256] = "";
	uint16_t *out = mock_alloc(mk, 4096, 0);
	struct { uint64_t out; } params = { (uintptr_t)out };
	uint32_t pair, winners;

	memset(out, 0, 16);
	if (!ok(ex_module_parse(ptx, sizeof ptx - 1, 90, &m, log, sizeof log) == EX_OK,
		"half-precision atomics and cas.b16 load (%s)", log))
		return;
	struct ex_launch l = mock_launch(mk, m, "k", &params, 2, 1, 32, 1, 1);
	ok(ex_launch_run(&l, &r) == EX_OK, "their kernel runs");
	memcpy(&pair, &out[2], 4);
	memcpy(&winners, &out[6], 4);
	is_int(out[0], 0x5400, "64 adds of 1.0 to one f16: 64.0");
	is_int(pair, 0x43004280u, "64 adds of {1, 2} to one bf16x2: {64, 128}");
	ok(out[4] == 1 && winners == 1, "cas.b16 from 0 to 1 by 64 threads: "
	   "one finds 0 (%u winners)", winners);
	ex_module_free(m);
}

/* sm_90's vector atomics from 64 threads at once: each element is added
 * atomically, the old values come back in the result's registers (the
 * zeros to exactly one thread), and an address not aligned to the whole
 * vector is a misaligned address, as it is on the device. */
static void vector_atomics(struct mock *mk)
{
	static const char ptx[] =
		".version 8.0\n.target sm_90\n.address_size 64\n"
		".visible .entry k(.param .u64 out, .param .u64 off)\n{\n"
		".reg .b16 %rs<10>;\n.reg .f32 %f<8>;\n.reg .b32 %r<4>;\n"
		".reg .b64 %rd<3>;\n.reg .pred %p<2>;\n"
		"ld.param.u64 %rd0, [out];\nld.param.u64 %rd1, [off];\n"
		"add.u64 %rd0, %rd0, %rd1;\n"
		"mov.f32 %f0, 0f3F800000;\nmov.f32 %f1, 0f40000000;\n"
		"mov.f32 %f2, 0f40400000;\nmov.f32 %f3, 0f40800000;\n"
		"atom.global.add.v4.f32 {%f4, %f5, %f6, %f7}, [%rd0], "
		"{%f0, %f1, %f2, %f3};\n"
		"mov.b16 %rs0, 0x3c00;\n"
		"atom.add.noftz.v8.f16 {%rs1, %rs2, %rs3, %rs4, %rs5, %rs6, %rs7, "
		"%rs8}, [%rd0+16], {%rs0, %rs0, %rs0, %rs0, %rs0, %rs0, %rs0, "
		"%rs0};\n"
		"mov.u32 %r0, %tid.x;\ncvt.rn.f16.u32 %rs9, %r0;\n"
		"mov.b32 %r1, {%rs9, %rs9};\n"
		"red.global.max.noftz.v2.f16x2 [%rd0+32], {%r1, %r1};\n"
		"setp.eq.f32 %p0, %f7, 0f00000000;\n"
		"@%p0 red.global.add.u32 [%rd0+40], 1;\n"
		"ret;\n}\n";
	struct ex_module *m = NULL;
	struct ex_result r;
	char log[256] = "";
	uint8_t *out = mock_alloc(mk, 4096, 0);
	struct { uint64_t out, off; } params = { (uintptr_t)out, 0 };
	float f[4];
	uint16_t h[8], mx[4];
	uint32_t winners;
	bool all = true;

	memset(out, 0, 64);
	if (!ok(ex_module_parse(ptx, sizeof ptx - 1, 90, &m, log, sizeof log) == EX_OK,
		"vector atomics load (%s)", log))
		return;
	struct ex_launch l = mock_launch(mk, m, "k", &params, 2, 1, 32, 1, 1);
	ok(ex_launch_run(&l, &r) == EX_OK, "their kernel runs");
	memcpy(f, out, 16);
	memcpy(h, out + 16, 16);
	memcpy(mx, out + 32, 8);
	memcpy(&winners, out + 40, 4);
	ok(f[0] == 64 && f[1] == 128 && f[2] == 192 && f[3] == 256,
	   "64 adds of {1, 2, 3, 4} to a v4.f32: {64, 128, 192, 256} (%g %g "
	   "%g %g)", f[0], f[1], f[2], f[3]);
	for (int e = 0; e < 8; e++)
		all &= h[e] == 0x5400;
	ok(all, "64 adds of 1.0 to each of a v8.f16's halves: 64.0 each");
	ok(mx[0] == 0x4fc0 && mx[3] == 0x4fc0, "max of the thread ids into "
	   "a v2.f16x2: 31.0 in each half (%04x %04x)", mx[0], mx[3]);
	is_int(winners, 1, "one thread finds the v4.f32's zeros");
	params.off = 8;
	l = mock_launch(mk, m, "k", &params, 1, 1, 1, 1, 1);
	ok(ex_launch_run(&l, &r) == EX_MISALIGNED_ADDRESS,
	   "a v4.f32 at 8 bytes past 16: a misaligned address");
	ex_module_free(m);
}

/* Vector atomics the ISA does not have, and a vector operand where no
 * vector goes (read as no register, it would compute with zeros): refused
 * at load as invalid PTX, naming why. */
static void vector_refusals(void)
{
	static const struct { const char *text, *why; } bad[] = {
		{ "atom.shared.add.v2.f32 {%f1, %f2}, [%rd1], {%f2, %f3};",
		  "outside global memory" },
		{ "atom.global.min.v2.f32 {%f1, %f2}, [%rd1], {%f2, %f3};",
		  "other than add" },
		{ "atom.global.add.v8.f32 {%f0, %f0, %f0, %f0, %f0, %f0, %f0, "
		  "%f0}, [%rd1], {%f0, %f0, %f0, %f0, %f0, %f0, %f0, %f0};",
		  "other than add" },
		{ "atom.global.add.v2.u32 {%r1, %r2}, [%rd1], {%r2, %r3};",
		  "other than add" },
		{ "atom.global.add.v4.f32 {%f1, %f2}, [%rd1], {%f0, %f1, %f2, %f3};",
		  "result of 2 registers where it takes 4" },
		{ "red.global.add.v2.f32 [%rd1], %f1;",
		  "value of 1 registers where it takes 2" },
		{ "atom.global.add.f32 {%f1, %f2}, [%rd1], {%f2, %f3};",
		  "a vector operand to an instruction that takes none" },
		{ "add.f32 %f1, {%f2, %f3}, %f1;",
		  "a vector operand to an instruction that takes none" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char ptx[512], log[256] = "";
		struct ex_module *m = NULL;
		snprintf(ptx, sizeof ptx,
			 ".version 8.0\n.target sm_90\n.address_size 64\n"
			 ".visible .entry k()\n{\n.reg .f32 %%f<4>;\n"
			 ".reg .b32 %%r<4>;\n.reg .b64 %%rd<2>;\n%s\nret;\n}\n",
			 bad[i].text);
		enum ex_status st = ex_module_parse(ptx, strlen(ptx), 90, &m, log,
						    sizeof log);
		ok(st == EX_INVALID_PTX && strstr(log, "line 9") &&
		   strstr(log, bad[i].why), "invalid: %s (%s)", bad[i].text, log);
		ex_module_free(m);
	}
	/* a last register is .L2::cache_hint's policy */
	static const char hinted[] =
		".version 8.0\n.target sm_90\n.address_size 64\n"
		".visible .entry k()\n{\n.reg .f32 %f<4>;\n.reg .b64 %rd<2>;\n"
		"atom.global.add.L2::cache_hint.v2.f32 {%f1, %f2}, [%rd1], "
		"{%f2, %f3}, %rd0;\nret;\n}\n";
	struct ex_module *m = NULL;
	char log[256] = "";
	ok(ex_module_parse(hinted, sizeof hinted - 1, 90, &m, log, sizeof log) ==
	   EX_OK, "a vector atomic with a cache policy loads (%s)", log);
	ex_module_free(m);
}

/* What the engine still refuses of half precision, by line and name. */
static void refusals(void)
{
	static const char *const texts[] = {
		"atom.global.min.noftz.f16 %rs1, [%rd1], %rs2;",
		"min.xorsign.abs.f16 %rs1, %rs2, %rs3;",
		"ex2.f16 %rs1, %rs2;",
	};
	for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
		char ptx[512], log[256] = "";
		struct ex_module *m = NULL;
		snprintf(ptx, sizeof ptx,
			 ".version 8.0\n.target sm_90\n.address_size 64\n"
			 ".visible .entry k()\n{\n.reg .b16 %%rs<4>;\n.reg .b64 %%rd<2>;\n"
			 "%s\nret;\n}\n", texts[i]);
		enum ex_status st = ex_module_parse(ptx, strlen(ptx), 90, &m, log, sizeof log);
		ok(st == EX_UNSUPPORTED && strstr(log, "line 8"),
		   "refused, naming line 8: %s (%s)", texts[i], log);
		ex_module_free(m);
	}
}

int main(void)
{
	size_t plen = 0, rlen = 0;
	char *ptx = slurp("probes/f16.ptx", &plen);
	char *res = slurp("probes/results/f16.txt", &rlen), log[512] = "";
	struct ex_module *m = NULL;
	struct mock *mk = calloc(1, sizeof *mk);

	mock_init(mk);
	if (!ok(ptx && res, "the probe's PTX and its results are readable") ||
	    !ok(ex_module_parse(ptx, plen, 90, &m, log, sizeof log) == EX_OK,
		"the probe's PTX parses")) {
		printf("# %s\n", log);
		ex_module_free(m);
		mock_free(mk);
		free(mk);
		free(ptx);
		free(res);
		return done_testing();
	}
	struct probe_bufs x = { mock_alloc(mk, 4096 * 8, 0),
				mock_alloc(mk, 4096 * 8, 0),
				mock_alloc(mk, 4096 * 8, 0),
				mock_alloc(mk, 4096 * 8, 0) };
	for (int pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
			replay_case(mk, m, res, cases[k].name,
				    hf_rows(cases[k].gen), cases[k].gen, hf_row,
				    cases[k].approx ? same_half : NULL, &x, pass);
	typed_registers(mk);
	contended_atomics(mk);
	vector_atomics(mk);
	vector_refusals();
	refusals();
	ex_module_free(m);
	mock_free(mk);
	free(mk);
	free(ptx);
	free(res);
	return done_testing();
}
