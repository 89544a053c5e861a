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
	uint64_t *A, *B, *C, *D, want[4096];

	mock_init(mk);
	if (!ok(ptx && res, "the probe's PTX and its results are readable") ||
	    !ok(ex_module_parse(ptx, plen, 90, &m, log, sizeof log) == EX_OK,
		"the probe's PTX parses")) {
		printf("# %s\n", log);
		free(ptx);
		free(res);
		return done_testing();
	}
	A = mock_alloc(mk, 4096 * 8, 0);
	B = mock_alloc(mk, 4096 * 8, 0);
	C = mock_alloc(mk, 4096 * 8, 0);
	D = mock_alloc(mk, 4096 * 8, 0);
	/* each case on the baseline loop, then on the AVX2 build where the
	 * host runs it: both must compute what the GPU computed */
	for (size_t pass = 0; pass < 2; pass++) {
		for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
			const char *name = cases[k].name;
			const char *how = pass ? "" : " (baseline)";
			int n = pt_rows(cases[k].gen), got = recorded(res, name, want, 4096);
			struct ex_result r;
			int bad = -1;

			for (int i = 0; i < n; i++) {
				pt_row(cases[k].gen, i, &A[i], &B[i], &C[i]);
				D[i] = 0xcdcdcdcdcdcdcdcdull;
			}
			struct {
				uint64_t a, b, c, d;
				int32_t n;
			} params = { (uintptr_t)A, (uintptr_t)B, (uintptr_t)C, (uintptr_t)D, n };
			struct ex_launch l = mock_launch(mk, m, name, &params,
							 (uint32_t)(n + 127) / 128, 1, 128, 1, 1);
			l.baseline = !pass;
			if (got != n || l.kernel < 0) {
				ok(0, "%s%s: %d rows recorded, the kernel is in the PTX", name,
				   how, got);
				continue;
			}
			if (ex_launch_run(&l, &r) != EX_OK) {
				ok(0, "%s%s runs", name, how);
				printf("#   %s\n", r.message);
				continue;
			}
			for (int i = 0; i < n && bad < 0; i++)
				if (cases[k].approx ? !close_enough(name, A[i], D[i], want[i])
						    : D[i] != want[i])
					bad = i;
			if (!ok(bad < 0, "%s%s: %d rows as the GPU computed them",
				name, how, n))
				printf("#   row %d: a=%llx b=%llx c=%llx: got %llx, want %llx\n",
				       bad, (unsigned long long)A[bad],
				       (unsigned long long)B[bad], (unsigned long long)C[bad],
				       (unsigned long long)D[bad],
				       (unsigned long long)want[bad]);
		}
	}
	ex_module_free(m);
	mock_free(mk);
	free(mk);
	free(ptx);
	free(res);
	return done_testing();
}
