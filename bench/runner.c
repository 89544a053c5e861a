/*
 * runner.c - cuemu-bench: times every row of every bench_*_rows table and
 * prints the median, 10th and 90th percentile of one call beside the real
 * driver's median (bench/reference.txt lists those figures).
 *
 *   cuemu-bench [--filter SUBSTR] [--reps N]
 *
 * Each op is timed alone with CLOCK_MONOTONIC, as the real driver's figures
 * were, after a warm-up. Rows that report a quantity print it instead. The
 * runner asserts nothing: the table is for reading.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda.h"
#include "bench.h"

#define DEFAULT_REPS 2000

static const struct bench_row *const tables[] = {
	bench_core_rows, bench_memory_rows, bench_managed_rows,
	bench_pool_rows, bench_vmm_rows, bench_copy_rows,
	bench_batch_rows,
	bench_shape_rows,
	bench_share_rows,
	bench_uvm_rows,
	bench_start_rows,
	bench_exec_rows,
	bench_clock_rows,
};

struct options {
	const char *filter;
	unsigned reps;      /* 0: each row's own, else DEFAULT_REPS */
};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: cuemu-bench [--filter SUBSTR] [--reps N]\n"
		"Times each benchmark row and prints median, p10, p90 per call "
		"beside the real driver's median.\n");
}

static int parse(int argc, char **argv, struct options *o)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--filter") && i + 1 < argc) {
			o->filter = argv[++i];
		} else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
			char *end;
			unsigned long n = strtoul(argv[++i], &end, 10);
			if (*end || n == 0 || n > 100000000) {
				fprintf(stderr, "cuemu-bench: --reps wants a "
					"count from 1 to 1e8\n");
				return -1;
			}
			o->reps = (unsigned)n;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			exit(0);
		} else {
			usage(stderr);
			return -1;
		}
	}
	return 0;
}

/* A duration in the unit that keeps it short. */
static const char *fmt_ns(double ns, char *buf, size_t len)
{
	if (ns >= 1e6)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else if (ns >= 1e4)
		snprintf(buf, len, "%.1f us", ns / 1e3);
	else
		snprintf(buf, len, "%.0f ns", ns);
	return buf;
}

static void print_header(void)
{
	printf("%-52s | %10s | %10s | %10s | %10s | %7s\n", "row", "median",
	       "p10", "p90", "real", "ratio");
	printf("%.*s\n", 52 + 5 * 13 + 10, "----------------------------------"
	       "------------------------------------------------------------"
	       "------------------------------------------------------------");
}

static void report_row(const struct bench_row *r)
{
	char value[64] = "", unit[32] = "";

	if (r->report(value, sizeof value, unit, sizeof unit))
		printf("%-52s | skipped\n", r->name);
	else
		printf("%-52s | %s %s\n", r->name, value, unit);
}

/* Runs reps timed calls after a warm-up; fills samples. -1 if op failed. */
static int time_op(const struct bench_row *r, void *ctx, double *samples,
		   unsigned reps)
{
	unsigned warm = reps / 10 < 100 ? reps / 10 + 1 : 100;

	for (unsigned i = 0; i < warm; i++)
		if (r->op(ctx))
			return -1;
	for (unsigned i = 0; i < reps; i++) {
		double t0 = now_ns();
		if (r->op(ctx))
			return -1;
		samples[i] = now_ns() - t0;
	}
	return 0;
}

static void latency_row(const struct bench_row *r, const struct options *o)
{
	unsigned reps = o->reps ? o->reps : r->reps ? r->reps : DEFAULT_REPS;
	char m[32], lo[32], hi[32], real[32] = "-", ratio[32] = "-";
	double *s = calloc(reps, sizeof *s), med;
	void *ctx = NULL;
	int rc;

	if (!s || (r->setup && r->setup(&ctx))) {
		printf("%-52s | skipped (setup failed)\n", r->name);
		free(s);
		return;
	}
	rc = time_op(r, ctx, s, reps);
	if (r->teardown)
		r->teardown(ctx);
	if (rc) {
		printf("%-52s | skipped (op failed)\n", r->name);
		free(s);
		return;
	}
	qsort(s, reps, sizeof *s, cmp_double);
	med = s[reps / 2];
	if (r->real_ns > 0) {
		fmt_ns(r->real_ns, real, sizeof real);
		snprintf(ratio, sizeof ratio, "%.2f", med / r->real_ns);
	}
	printf("%-52s | %10s | %10s | %10s | %10s | %7s\n", r->name,
	       fmt_ns(med, m, sizeof m), fmt_ns(s[reps / 10], lo, sizeof lo),
	       fmt_ns(s[reps * 9 / 10], hi, sizeof hi), real, ratio);
	fflush(stdout);
	free(s);
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	CUcontext ctx;

	if (argc == 3 && !strcmp(argv[1], "--first-alloc"))
		return bench_first_alloc_child(atoi(argv[2]));
	if (parse(argc, argv, &o) < 0)
		return 2;
	/* A benchmark is not a process to inspect through /cu. */
	setenv("CUEMU_CONTROL", "0", 0);
	if (cuInit(0) != CUDA_SUCCESS ||
	    cuDevicePrimaryCtxRetain(&ctx, 0) != CUDA_SUCCESS ||
	    cuCtxSetCurrent(ctx) != CUDA_SUCCESS) {
		fprintf(stderr, "cuemu-bench: cannot start device 0\n");
		return 1;
	}
	print_header();
	for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
		for (const struct bench_row *r = tables[t]; r->name; r++) {
			if (o.filter && !strstr(r->name, o.filter))
				continue;
			if (r->report)
				report_row(r);
			else if (r->op)
				latency_row(r, &o);
		}
	}
	cuCtxSynchronize();
	cuDevicePrimaryCtxRelease(0);
	return 0;
}
