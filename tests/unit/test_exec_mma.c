/*
 * test_exec_mma.c - mma.sync and ldmatrix as an H200 computed them: every
 * case of probes/mma.h and both ldmatrix cases run through the engine from
 * the probe's own PTX (probes/mma.ptx) and compared with
 * probes/results/mma.txt, register by register and lane by lane. Their
 * fragments lie where the PTX ISA puts them, so ldmatrix, f16 sums into
 * f16, integer sums (saturated too) and f64 agree to the bit; sums into
 * f32 follow the tensor unit's truncating sum (wmma.c), each case held to
 * the count and distance of its misses this replay found.
 */
#include "tap.h"
#include "exec_mock.h"
#include "probe_rows.h"
#include "../../probes/mma.h"

static const struct {
	const char *name;
	int ab, cd, na, nb, nc, nd;
	int differ;          /* registers not to the bit, at most */
	unsigned units;      /* their distance in units of the last place */
} cases[] = {
	{ "mma_f16_f32_k16", WK_F16, WK_F32, 4, 2, 4, 4, 108, 64 },
	{ "mma_bf16_f32_k16", WK_BF16, WK_F32, 4, 2, 4, 4, 65, 4 },
	{ "mma_f16_f16_k16", WK_F16, WK_F16, 4, 2, 2, 2, 0, 0 },
	{ "mma_f16_f32_k8", WK_F16, WK_F32, 2, 1, 4, 4, 77, 32 },
	{ "mma_bf16_f32_k8", WK_BF16, WK_F32, 2, 1, 4, 4, 54, 8 },
	{ "mma_s8_s32_k32", WK_S8, WK_S32, 4, 2, 4, 4, 0, 0 },
	{ "mma_u8_s32_k16_sat", WK_U8, WK_S32_EDGE, 2, 1, 4, 4, 0, 0 },
	{ "mma_tf32_f32_k8", WK_F32, WK_F32, 4, 2, 4, 4, 82, 32 },
	{ "mma_f64_k4", WK_F64, WK_F64, 2, 2, 4, 4, 0, 0 },
};

static void check(const char *res, const char *name, const uint32_t *got,
		  int n, int allowed, unsigned bound)
{
	static uint64_t want[MMA_TILES * 32 * 4];
	int m = recorded(res, name, want, MMA_TILES * 32 * 4), differ = 0;
	unsigned units = 0;

	for (int i = 0; i < n && m == n; i++)
		if (got[i] != (uint32_t)want[i]) {
			uint32_t a = got[i], b = (uint32_t)want[i];
			differ++;
			units = a > b ? (a - b > units ? a - b : units) :
					(b - a > units ? b - a : units);
		}
	ok(m == n && differ <= allowed && units <= bound,
	   "%s: %d registers, %d not to the bit (at most %d), %u units apart "
	   "at most (%u)", name, m, differ, allowed, units, bound);
}

static void ldmatrix(struct mock *mk, struct ex_module *m, const char *res,
		     const char *name)
{
	uint16_t *e = mock_alloc(mk, 512, 0);
	uint32_t *out = mock_alloc(mk, 128 * 4, 0);
	struct { uint64_t e, out; } p = { (uintptr_t)e, (uintptr_t)out };
	struct ex_launch l = mock_launch(mk, m, name, &p, 1, 1, 32, 1, 1);
	struct ex_result r;

	for (int i = 0; i < 256; i++)
		e[i] = (uint16_t)i;
	if (l.kernel < 0 || ex_launch_run(&l, &r) != EX_OK) {
		ok(0, "%s runs", name);
		return;
	}
	check(res, name, out, 128, 0, 0);
}

static void mma(struct mock *mk, struct ex_module *m, const char *res,
		size_t k)
{
	unsigned *in = mock_alloc(mk, MMA_TILES * 32 * 64, 0);
	uint32_t *out = mock_alloc(mk, MMA_TILES * 32 * 16, 0);
	static uint32_t got[MMA_TILES * 32 * 4];
	struct { uint64_t in, out; } p = { (uintptr_t)in, (uintptr_t)out };
	struct ex_launch l = mock_launch(mk, m, cases[k].name, &p, MMA_TILES, 1,
					 32, 1, 1);
	struct ex_result r;
	int n = 0;

	memset(in, 0, MMA_TILES * 32 * 64);
	mma_lanes(in, cases[k].ab, cases[k].cd, cases[k].na, cases[k].nb,
		  cases[k].nc);
	if (l.kernel < 0 || ex_launch_run(&l, &r) != EX_OK) {
		ok(0, "%s runs", cases[k].name);
		return;
	}
	for (int t = 0; t < MMA_TILES; t++)
		for (int ln = 0; ln < 32; ln++)
			for (int i = 0; i < cases[k].nd; i++)
				got[n++] = out[((size_t)t * 32 + ln) * 4 + i];
	check(res, cases[k].name, got, n, cases[k].differ, cases[k].units);
}

/* What the engine does not run is refused at load, naming the line. */
static void refusals(void)
{
	static const struct { const char *text; enum ex_status st; } texts[] = {
		{ "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r1, %r2}, "
		  "{%r1, %r2, %r3, %r4}, {%r1, %r2}, {%r1, %r2, %r3, %r4};",
		  EX_INVALID_PTX },
		{ "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%r1, %r2, "
		  "%r3, %r4}, {%r1, %r2, %r3, %r4}, {%r1, %r2}, {%r1, %r2, %r3, %r4};",
		  EX_UNSUPPORTED },
		{ "mma.sync.aligned.m16n8k16.col.row.f32.f16.f16.f32 {%r1, %r2, %r3, "
		  "%r4}, {%r1, %r2, %r3, %r4}, {%r1, %r2}, {%r1, %r2, %r3, %r4};",
		  EX_UNSUPPORTED },
		{ "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2}, [%r1];",
		  EX_INVALID_PTX },
	};

	for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
		char ptx[512], log[256] = "";
		struct ex_module *m = NULL;
		snprintf(ptx, sizeof ptx,
			 ".version 8.0\n.target sm_90\n.address_size 64\n"
			 ".visible .entry k()\n{\n.reg .b32 %%r<5>;\n"
			 ".reg .b64 %%rd<3>;\n%s\nret;\n}\n", texts[i].text);
		enum ex_status st = ex_module_parse(ptx, strlen(ptx), 90, &m, log,
						    sizeof log);
		ok(st == texts[i].st && strstr(log, "line 8"),
		   "refused (%d), naming line 8: %s (%s)", (int)st, texts[i].text,
		   log);
		ex_module_free(m);
	}
}

int main(void)
{
	size_t plen = 0, rlen = 0;
	char *ptx = slurp("probes/mma.ptx", &plen);
	char *res = slurp("probes/results/mma.txt", &rlen), log[512] = "";
	struct ex_module *m = NULL;
	struct mock *mk = calloc(1, sizeof *mk);

	mock_init(mk);
	if (ok(ptx && res, "the probe's PTX and its results are readable") &&
	    ok(ex_module_parse(ptx, plen, 90, &m, log, sizeof log) == EX_OK,
	       "the probe's PTX parses: %s", log)) {
		ldmatrix(mk, m, res, "ldmatrix_x4");
		ldmatrix(mk, m, res, "ldmatrix_x4_trans");
		for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
			mma(mk, m, res, k);
	}
	refusals();
	ex_module_free(m);
	mock_free(mk);
	free(mk);
	free(ptx);
	free(res);
	return done_testing();
}
