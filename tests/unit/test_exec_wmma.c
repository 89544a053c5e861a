/*
 * test_exec_wmma.c - the warp matrix instructions as an H200 computed
 * them: every case of probes/wmma.h (f16 into f32 and into f16 on each
 * shape, A and B in each layout, bf16, tf32 through cvt.rna.tf32.f32, s8
 * and saturated u8, f64, and fragments changed element by element) run
 * through the engine from the probe's own PTX (probes/wmma.ptx) over the
 * same tiles and compared with probes/results/wmma.txt. f16 sums into
 * f16, integers and f64 agree to the bit; sums into f32 follow the
 * tensor unit's truncating sum (wmma.c), which gives the H200's bits for
 * most and misses the rest by a few units: each such case is held to
 * the count and the distance this replay found, so that a change that
 * moves any element further fails. Then what is refused at load.
 */
#include "tap.h"
#include "exec_mock.h"
#include "probe_rows.h"
#include "../../probes/wmma.h"

static const struct {
	const char *name;
	int ab, cd, m, n, k;
	int differ;          /* elements not to the bit, at most */
	unsigned units;      /* their distance in units of the last place */
} cases[] = {
#define X(name, ab, cd, m, n, k) { #name, ab, cd, m, n, k, 0, 0 },
	WMMA_CASES(X)
#undef X
};

/* The bounds of the cases that sum into f32 (this replay's, 2048
 * elements each). */
static const struct { const char *name; int differ; unsigned units; } bounds[] = {
	{ "f16_f32_16x16x16", 181, 12 },
	{ "f16_f32_16x16x16_colrow", 186, 64 },
	{ "f16_f32_8x32x16", 190, 40 },
	{ "f16_f32_32x8x16", 203, 16 },
	{ "bf16_f32_16x16x16", 162, 2048 },
	{ "tf32_f32_16x16x8", 658, 3072 },
	{ "f32_scaled_16x16x16", 183, 48 },
};

static void replay(struct mock *mk, struct ex_module *m, const char *res,
		   size_t k, uint8_t *a, uint8_t *b, uint8_t *c, uint8_t *d)
{
	static uint64_t want[WMMA_TILES * WMMA_ELEMS];
	int mn = cases[k].m * cases[k].n, sz = wmma_bytes(cases[k].cd);
	int n = recorded(res, cases[k].name, want, WMMA_TILES * WMMA_ELEMS);
	int differ = 0, allowed = 0, first = -1;
	unsigned units = 0, bound = 0;
	struct { uint64_t a, b, c, d; } p = { (uintptr_t)a, (uintptr_t)b,
		(uintptr_t)c, (uintptr_t)d };
	struct ex_launch l = mock_launch(mk, m, cases[k].name, &p, WMMA_TILES,
					 1, 32, 1, 1);
	struct ex_result r;

	for (size_t i = 0; i < sizeof bounds / sizeof *bounds; i++)
		if (!strcmp(bounds[i].name, cases[k].name)) {
			allowed = bounds[i].differ;
			bound = bounds[i].units;
		}
	wmma_fill(a, cases[k].ab, 1, cases[k].m * cases[k].k);
	wmma_fill(b, cases[k].ab, 2, cases[k].k * cases[k].n);
	wmma_fill(c, cases[k].cd, 3, mn);
	memset(d, 0xcd, (size_t)WMMA_TILES * WMMA_ELEMS * 8);
	if (n != WMMA_TILES * mn || l.kernel < 0 ||
	    ex_launch_run(&l, &r) != EX_OK) {
		ok(0, "%s: %d elements recorded, its kernel runs", cases[k].name, n);
		return;
	}
	for (int t = 0; t < WMMA_TILES; t++)
		for (int i = 0; i < mn; i++) {
			uint64_t got = 0, w = want[t * mn + i];
			unsigned dist;
			memcpy(&got, d + ((size_t)t * WMMA_ELEMS + i) * sz, (size_t)sz);
			if (got == w)
				continue;
			differ++;
			dist = (unsigned)(got > w ? got - w : w - got);
			units = dist > units ? dist : units;
			if (first < 0)
				first = t * mn + i;
		}
	if (!ok(differ <= allowed && units <= bound,
		"%s: %d elements, %d not to the bit (at most %d), %u units apart "
		"at most (%u)", cases[k].name, n, differ, allowed, units, bound) &&
	    first >= 0)
		printf("#   element %d: want %llx\n", first,
		       (unsigned long long)want[first]);
}

/* An mma counts, to the compute term, the issue slots its tensor cores'
 * time is at Hopper's rate: a kernel of one mma and ret. */
static void slots(struct mock *mk)
{
	static const struct { const char *mma; uint64_t want; } mmas[] = {
		{ "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f1, %f2, %f3, "
		  "%f4, %f5, %f6, %f7, %f8}, {%r1, %r2, %r3, %r4, %r5, %r6, %r7, "
		  "%r8}, {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, {%f1, %f2, %f3, "
		  "%f4, %f5, %f6, %f7, %f8};", 1 + 9 },
		{ "wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32 {%r1, %r2, "
		  "%r3, %r4, %r5, %r6, %r7, %r8}, {%r1, %r2}, {%r1, %r2}, {%r1, "
		  "%r2, %r3, %r4, %r5, %r6, %r7, %r8};", 1 + 5 },
		{ "wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64.rn {%fd1, "
		  "%fd2}, {%fd1}, {%fd2}, {%fd1, %fd2};", 1 + 8 },
	};

	for (size_t i = 0; i < sizeof mmas / sizeof *mmas; i++) {
		char ptx[1024], log[256] = "";
		struct ex_module *m = NULL;
		struct ex_result r;
		struct ex_launch l;

		snprintf(ptx, sizeof ptx,
			 ".version 8.0\n.target sm_90\n.address_size 64\n"
			 ".visible .entry k()\n{\n.reg .b32 %%r<9>;\n"
			 ".reg .f32 %%f<9>;\n.reg .f64 %%fd<3>;\n%s\nret;\n}\n",
			 mmas[i].mma);
		memset(&r, 0, sizeof r);
		if (ex_module_parse(ptx, strlen(ptx), 90, &m, log, sizeof log) ||
		    (l = mock_launch(mk, m, "k", NULL, 1, 1, 32, 1, 1)).kernel < 0 ||
		    ex_launch_run(&l, &r) != EX_OK)
			ok(0, "an mma alone runs: %s", log);
		else
			ok(r.warp_instructions == mmas[i].want, "an mma and ret: "
			   "%llu warp instructions (%llu)",
			   (unsigned long long)r.warp_instructions,
			   (unsigned long long)mmas[i].want);
		ex_module_free(m);
	}
}

/* Shapes and types PTX does not pair, and the instruction's misuse, are
 * refused at load, naming the line. */
static void refusals(void)
{
	static const struct { const char *text; enum ex_status st; } texts[] = {
		{ "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1, %r2}, [%rd1];",
		  EX_INVALID_PTX },
		{ "wmma.mma.sync.aligned.row.col.m16n16k8.f32.f32 {%r1, %r2, %r3, "
		  "%r4, %r1, %r2, %r3, %r4}, {%r1}, {%r1}, {%r1};",
		  EX_UNSUPPORTED },
		{ "wmma.store.a.sync.aligned.row.m16n16k16.global.f32 [%rd1], {%r1};",
		  EX_INVALID_PTX },
		{ "wmma.fill.sync.aligned.m16n16k16.f32 {%r1}, 0f00000000;",
		  EX_UNSUPPORTED },
		{ "wmma.load.a.sync.aligned.row.m16n16k16.global.f16.x {%r1}, [%rd1];",
		  EX_UNSUPPORTED },
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
	size_t plen = 0, rlen = 0, bytes = (size_t)WMMA_TILES * WMMA_ELEMS * 8;
	char *ptx = slurp("probes/wmma.ptx", &plen);
	char *res = slurp("probes/results/wmma.txt", &rlen), log[512] = "";
	struct ex_module *m = NULL;
	struct mock *mk = calloc(1, sizeof *mk);

	mock_init(mk);
	if (ok(ptx && res, "the probe's PTX and its results are readable") &&
	    ok(ex_module_parse(ptx, plen, 90, &m, log, sizeof log) == EX_OK,
	       "the probe's PTX parses: %s", log)) {
		uint8_t *a = mock_alloc(mk, bytes, 0), *b = mock_alloc(mk, bytes, 0);
		uint8_t *c = mock_alloc(mk, bytes, 0), *d = mock_alloc(mk, bytes, 0);
		for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
			replay(mk, m, res, k, a, b, c, d);
	}
	slots(mk);
	refusals();
	ex_module_free(m);
	mock_free(mk);
	free(mk);
	free(ptx);
	free(res);
	return done_testing();
}
