/*
 * test_exec_table.c - the instruction table replayed: every case of
 * probes/ptx_table.h runs through the engine, from nvcc's PTX of the probe
 * (probes/ptx_table.ptx), over the same rows the real GPU ran, and its
 * outputs are compared with the GPU's (probes/results/ptx_table.txt).
 * One TAP line per case; the first differing row is printed.
 *
 * Exact cases compare bits. Approximate ones (.approx, div.full) compare
 * within the device's documented error: a relative 2^-10 (tanh.approx's
 * bound, the loosest), NaN with NaN, infinities exactly; sin and cos of
 * arguments past 2^16, where the device's range reduction gives up its
 * accuracy, are not compared.
 */
#include "tap.h"
#include "exec_mock.h"
#include "../../probes/ptx_table.h"
#include "probe_rows.h"
#include "probe_replay.h"

#include <math.h>

static const struct {
	const char *name;
	int gen, approx;
} cases[] = {
#define X(name, gen, approx) { #name, gen, approx },
	PT_CASES(X)
#undef X
};

static bool close_enough(const char *name, uint64_t a, uint64_t got,
			 uint64_t want)
{
	bool f64 = strstr(name, "f64") != NULL;
	double g = f64 ? 0 : 0, w = 0, x = 0;

	if (got == want)
		return true;
	if (f64) {
		memcpy(&g, &got, 8);
		memcpy(&w, &want, 8);
		memcpy(&x, &a, 8);
	} else {
		float fg, fw, fx;
		uint32_t bg = (uint32_t)got, bw = (uint32_t)want, bx = (uint32_t)a;
		memcpy(&fg, &bg, 4);
		memcpy(&fw, &bw, 4);
		memcpy(&fx, &bx, 4);
		g = fg, w = fw, x = fx;
	}
	if ((!strncmp(name, "sin", 3) || !strncmp(name, "cos", 3)) &&
	    !(fabs(x) < 65536.0))
		return true;
	if (isnan(g) || isnan(w))
		return isnan(g) && isnan(w);
	if (isinf(g) || isinf(w))
		return g == w;
	return fabs(g - w) <= ldexp(fabs(w), -10) + 1e-30;
}

int main(void)
{
	size_t plen = 0, rlen = 0;
	char *ptx = slurp("probes/ptx_table.ptx", &plen);
	char *res = slurp("probes/results/ptx_table.txt", &rlen), log[512];
	struct ex_module *m = NULL;
	struct mock *mk = calloc(1, sizeof *mk);
	struct probe_bufs x;

	mock_init(mk);
	if (!ok(ptx && res, "the probe's PTX and its results are readable") ||
	    !ok(ex_module_parse(ptx, plen, 90, &m, log, sizeof log) == EX_OK,
		"the probe's PTX parses")) {
		printf("# %s\n", log);
		free(ptx);
		free(res);
		return done_testing();
	}
	x.a = mock_alloc(mk, 4096 * 8, 0);
	x.b = mock_alloc(mk, 4096 * 8, 0);
	x.c = mock_alloc(mk, 4096 * 8, 0);
	x.d = mock_alloc(mk, 4096 * 8, 0);
	/* each case on the baseline loop, then on the AVX2 build where the
	 * host runs it: both must compute what the GPU computed */
	for (int pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
			replay_case(mk, m, res, cases[k].name,
				    pt_rows(cases[k].gen), cases[k].gen, pt_row,
				    cases[k].approx ? close_enough : NULL, &x,
				    pass);
	ex_module_free(m);
	mock_free(mk);
	free(mk);
	free(ptx);
	free(res);
	return done_testing();
}
