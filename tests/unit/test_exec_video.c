/*
 * test_exec_video.c - the SIMD video instructions as an H200 computed
 * them: every case of probes/video.h (vadd, vsub, vavrg, vabsdiff, vmin,
 * vmax and vset over halves and bytes, unsigned and signed lanes,
 * saturated, merged or accumulated) run through the engine from the
 * probe's own PTX (probes/video.ptx) over the same 512 rows, and compared
 * with probes/results/video.txt to the bit; then what is refused at load.
 */
#include "tap.h"
#include "exec_mock.h"
#include "probe_rows.h"
#include "../../probes/video.h"

static const char *const cases[] = {
#define X(name, ins) #name,
	VIDEO_CASES(X)
#undef X
};

/* Case name over the table's rows: 1 where every row is the H200's. */
static void replay(struct mock *mk, struct ex_module *m, const char *res,
		   const char *name, uint32_t *a, uint32_t *b, uint32_t *c,
		   uint32_t *d)
{
	static uint64_t want[VIDEO_ROWS];
	int n = recorded(res, name, want, VIDEO_ROWS), bad = -1;
	struct { uint64_t a, b, c, d; int32_t n; } p = { (uintptr_t)a,
		(uintptr_t)b, (uintptr_t)c, (uintptr_t)d, VIDEO_ROWS };
	struct ex_launch l = mock_launch(mk, m, name, &p, VIDEO_ROWS / 128, 1,
					 128, 1, 1);
	struct ex_result r;

	for (int i = 0; i < VIDEO_ROWS; i++)
		d[i] = 0xcdcdcdcdu;
	if (n != VIDEO_ROWS || l.kernel < 0 || ex_launch_run(&l, &r) != EX_OK) {
		ok(0, "%s: %d rows recorded, its kernel runs", name, n);
		return;
	}
	for (int i = 0; i < VIDEO_ROWS && bad < 0; i++)
		if (d[i] != (uint32_t)want[i])
			bad = i;
	if (!ok(bad < 0, "%s: %d rows as the H200 computed them", name, n))
		printf("#   row %d: a=%08x b=%08x c=%08x: got %08x, want %08x\n",
		       bad, a[bad], b[bad], c[bad], d[bad], (uint32_t)want[bad]);
}

/* What the engine does not run, or is no SIMD video instruction, is
 * refused at load, naming the line. */
static void refusals(void)
{
	static const struct { const char *text; enum ex_status st; } texts[] = {
		{ "vadd4.u32.u32.u32 %r1.b20, %r2, %r3, %r4;", EX_UNSUPPORTED },
		{ "vabsdiff2.u32.u32.u32 %r1, %r2.h01, %r3, %r4;", EX_UNSUPPORTED },
		{ "vadd4.u32.u32.u32.sat.add %r1, %r2, %r3, %r4;", EX_INVALID_PTX },
		{ "vset4.u32.u32 %r1, %r2, %r3, %r4;", EX_INVALID_PTX },
		{ "vmin4.u32.u32.u32 %r1, %r2, %r3;", EX_INVALID_PTX },
		{ "vmax2.u32.u32.u32.u32 %r1, %r2, %r3, %r4;", EX_INVALID_PTX },
		{ "vadd.u32.u32.u32 %r1, %r2, %r3, %r4;", EX_UNSUPPORTED },
	};

	for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
		char ptx[512], log[256] = "";
		struct ex_module *m = NULL;
		snprintf(ptx, sizeof ptx,
			 ".version 8.0\n.target sm_90\n.address_size 64\n"
			 ".visible .entry k()\n{\n.reg .b32 %%r<5>;\n%s\nret;\n}\n",
			 texts[i].text);
		enum ex_status st = ex_module_parse(ptx, strlen(ptx), 90, &m, log,
						    sizeof log);
		ok(st == texts[i].st && strstr(log, "line 7"),
		   "refused (%d), naming line 7: %s (%s)", (int)st, texts[i].text, log);
		ex_module_free(m);
	}
}

int main(void)
{
	size_t plen = 0, rlen = 0;
	char *ptx = slurp("probes/video.ptx", &plen);
	char *res = slurp("probes/results/video.txt", &rlen), log[512] = "";
	struct ex_module *m = NULL;
	struct mock *mk = calloc(1, sizeof *mk);

	mock_init(mk);
	if (ok(ptx && res, "the probe's PTX and its results are readable") &&
	    ok(ex_module_parse(ptx, plen, 90, &m, log, sizeof log) == EX_OK,
	       "the probe's PTX parses: %s", log)) {
		uint32_t *a = mock_alloc(mk, 4 * VIDEO_ROWS, 0);
		uint32_t *b = mock_alloc(mk, 4 * VIDEO_ROWS, 0);
		uint32_t *c = mock_alloc(mk, 4 * VIDEO_ROWS, 0);
		uint32_t *d = mock_alloc(mk, 4 * VIDEO_ROWS, 0);
		for (int i = 0; i < VIDEO_ROWS; i++)
			video_row(i, &a[i], &b[i], &c[i]);
		for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
			replay(mk, m, res, cases[k], a, b, c, d);
	}
	refusals();
	ex_module_free(m);
	mock_free(mk);
	free(mk);
	free(ptx);
	free(res);
	return done_testing();
}
