/*
 * bench_exec.c - the PTX engine beside the same loop in C (gcc -O2, this
 * file), measured in the same run: saxpy over 16M floats, the shared-tile
 * transpose of a 2048x2048 matrix, a reduction with shuffles over 16M
 * floats, a 256-bin histogram with shared atomics over 16M bytes and a
 * 2048-square resampling through a bilinear texture of 1024-square
 * floats, each from nvcc's PTX of tests/unit/kernels/samples.cu, on two
 * host threads;
 * what a small launch costs (one block, 2,000 times, beside the C loop
 * over its 256 floats, and 8 blocks on the two threads); and the
 * engine's lane instructions per second
 * over the four big kernels.
 *
 * The model is left out: page() accepts every page at once (it is asked
 * once per warp and page), so the rows time the engine alone. The goal
 * (DESIGN.md, "The PTX engine") is saxpy within 30x of the C loop and the
 * others within 60x; the rows print the ratio and assert nothing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "exec/exec.h"

#define N (16u << 20)
#define TDIM 2048
#define THREADS 2

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The process's CPU time: on a loaded machine the wall clock says more
 * of the other processes than of the engine, so each row gives both. */
static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Times of the last launch and of the last C loop. */
static struct { double wall, cpu; } le, lc;

static void c_begin(void)
{
	lc.wall = now_s();
	lc.cpu = cpu_s();
}

static double c_end(void)
{
	lc.wall = now_s() - lc.wall;
	lc.cpu = cpu_s() - lc.cpu;
	return lc.wall;
}

static enum ex_status any_page(void *ctx, uint64_t page, enum ex_access a,
			       int *place, bool *shared)
{
	*place = 0;
	*shared = true;  /* device memory: the driver says so of it */
	return EX_OK;
}

/* Global: the four rows share one parsed module and add to one tally of
 * lane instructions, read by the last row; the runner runs rows in turn. */
static struct {
	struct ex_module *m;
	bool tried;
	uint64_t lanes;
	double secs;
} g;

static struct ex_module *module(void)
{
	char path[1024], log[256];
	FILE *f;
	char *buf;
	long n;

	if (g.tried)
		return g.m;
	g.tried = true;
	snprintf(path, sizeof path, "%s/tests/unit/kernels/samples.ptx",
		 EXEC_SRCDIR);
	if (!(f = fopen(path, "rb")))
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n &&
	    ex_module_parse(buf, (size_t)n, 90, &g.m, log, sizeof log) != EX_OK)
		g.m = NULL;
	free(buf);
	fclose(f);
	return g.m;
}

/* Runs kernel name over grid x block, textures answered by tex (NULL:
 * none); its seconds, or -1. */
static double launch_with(const char *name, const void *params, uint32_t gx,
			  uint32_t gy, uint32_t bx, uint32_t by,
			  enum ex_status (*tex)(void *, uint64_t, bool,
						struct ex_tex *, const char **))
{
	struct ex_launch l = { 0 };
	struct ex_result r;
	double t0;

	l.module = module();
	if (!l.module || (l.kernel = ex_module_find_kernel(l.module, name)) < 0)
		return -1;
	l.grid[0] = gx; l.grid[1] = gy; l.grid[2] = 1;
	l.block[0] = bx; l.block[1] = by; l.block[2] = 1;
	l.params = params;
	l.threads = THREADS;
	l.dev.sm = 90;
	l.dev.sm_count = 132;
	l.dev.warps_per_sm = 64;
	l.mem.page = any_page;
	l.mem.texture = tex;
	t0 = now_s();
	le.cpu = cpu_s();
	if (ex_launch_run(&l, &r) != EX_OK)
		return -1;
	t0 = now_s() - t0;
	le.cpu = cpu_s() - le.cpu;
	le.wall = t0;
	g.lanes += r.lane_instructions;
	g.secs += t0;
	return t0;
}

static double launch(const char *name, const void *params, uint32_t gx,
		     uint32_t gy, uint32_t bx, uint32_t by)
{
	return launch_with(name, params, gx, gy, bx, by, NULL);
}

static int row(char *value, size_t len, char *unit, size_t ulen,
	       double engine, double c)
{
	if (engine < 0 || c <= 0 || lc.cpu <= 0)
		return 1;
	snprintf(value, len, "%.0f ms, C -O2 %.1f ms: %.1fx (CPU time %.1fx)",
		 engine * 1e3, c * 1e3, engine / c, le.cpu / lc.cpu);
	snprintf(unit, ulen, "%s", "");
	return 0;
}

/* Keeps a result alive past the optimizer. */
static volatile float sink;

static int saxpy(char *value, size_t len, char *unit, size_t ulen)
{
	float *x = malloc(N * 4), *y = malloc(N * 4), a = 2.5f;
	double e, c;
	struct { uint32_t n; float a; uint64_t x, y; } p;
	int rc;

	if (!x || !y) {
		free(x);
		free(y);
		return 1;
	}
	for (uint32_t i = 0; i < N; i++) {
		x[i] = (float)i;
		y[i] = 1.0f;
	}
	p.n = N; p.a = a; p.x = (uintptr_t)x; p.y = (uintptr_t)y;
	e = launch("saxpy", &p, N / 256, 1, 256, 1);
	c_begin();
	for (uint32_t i = 0; i < N; i++)
		y[i] = a * x[i] + y[i];
	c = c_end();
	sink = y[N / 2];
	rc = row(value, len, unit, ulen, e, c);
	free(x);
	free(y);
	return rc;
}

static int transpose(char *value, size_t len, char *unit, size_t ulen)
{
	float *in = malloc(TDIM * TDIM * 4), *out = malloc(TDIM * TDIM * 4);
	struct { uint64_t out, in; int32_t w, h; } p;
	double e, c;
	int rc;

	if (!in || !out) {
		free(in);
		free(out);
		return 1;
	}
	for (uint32_t i = 0; i < TDIM * TDIM; i++)
		in[i] = (float)i;
	p.out = (uintptr_t)out; p.in = (uintptr_t)in; p.w = TDIM; p.h = TDIM;
	e = launch("transposeCoalesced", &p, TDIM / 32, TDIM / 32, 32, 8);
	c_begin();
	for (uint32_t y = 0; y < TDIM; y++)
		for (uint32_t x = 0; x < TDIM; x++)
			out[x * TDIM + y] = in[y * TDIM + x];
	c = c_end();
	sink = out[TDIM + 1];
	rc = row(value, len, unit, ulen, e, c);
	free(in);
	free(out);
	return rc;
}

static int reduce(char *value, size_t len, char *unit, size_t ulen)
{
	float *in = malloc(N * 4), *out = malloc(1024 * 4), s = 0;
	struct { uint64_t in, out; int32_t n; } p;
	double e, c;
	int rc;

	if (!in || !out) {
		free(in);
		free(out);
		return 1;
	}
	for (uint32_t i = 0; i < N; i++)
		in[i] = (float)(i & 7);
	p.in = (uintptr_t)in; p.out = (uintptr_t)out; p.n = (int32_t)N;
	e = launch("reduceShfl", &p, 1024, 1, 256, 1);
	c_begin();
	for (uint32_t i = 0; i < N; i++)
		s += in[i];
	c = c_end();
	sink = s;
	rc = row(value, len, unit, ulen, e, c);
	free(in);
	free(out);
	return rc;
}

static int histogram(char *value, size_t len, char *unit, size_t ulen)
{
	unsigned char *d = malloc(N);
	unsigned *bins = calloc(256, 4), ref[256] = { 0 };
	struct { uint64_t d; int32_t n; uint64_t bins; } p;
	double e, c;
	int rc;

	if (!d || !bins) {
		free(d);
		free(bins);
		return 1;
	}
	for (uint32_t i = 0; i < N; i++)
		d[i] = (unsigned char)((i * 2654435761u) >> 13);
	p.d = (uintptr_t)d; p.n = (int32_t)N; p.bins = (uintptr_t)bins;
	e = launch("histogram256", &p, 256, 1, 256, 1);
	c_begin();
	for (uint32_t i = 0; i < N; i++)
		ref[d[i]]++;
	c = c_end();
	sink = (float)ref[7];
	rc = row(value, len, unit, ulen, e, c);
	free(d);
	free(bins);
	return rc;
}

/* UVMBench BN's inner loop (gatherRows): 64K threads each walking 600
 * rows of a 45-column table of 0s and 1s, comparing the columns its four
 * parents name through a local array until one differs. */
#define GROWS 600
#define GCOLS 45
#define GTHREADS (64u << 10)

static int gather(char *value, size_t len, char *unit, size_t ulen)
{
	int *d = malloc(GROWS * GCOLS * 4), *out = malloc(GTHREADS * 4);
	struct { uint64_t d; int32_t rows, cols; uint64_t out; } p;
	int pre[GCOLS];
	unsigned total = 0;
	double e, c;
	int rc;

	if (!d || !out) {
		free(d);
		free(out);
		return 1;
	}
	for (uint32_t i = 0; i < GROWS * GCOLS; i++)
		d[i] = (int)((i * 2654435761u) >> 31);
	p.d = (uintptr_t)d; p.rows = GROWS; p.cols = GCOLS;
	p.out = (uintptr_t)out;
	e = launch("gatherRows", &p, GTHREADS / 256, 1, 256, 1);
	c_begin();
	for (int i = 0; i < GCOLS; i++)
		pre[i] = GCOLS - 1 - i;
	for (uint32_t id = 0; id < GTHREADS; id++) {
		int parent[4], count = 0;

		for (int k = 0; k < 4; k++)
			parent[k] = (int)((id * 7 + (unsigned)k * 13) % GCOLS);
		for (int t = 0; t < GROWS; t++) {
			int k = 0;

			while (k < 4 &&
			       d[t * GCOLS + pre[parent[k]]] == ((t >> k) & 1))
				k++;
			count += k == 4;
		}
		total += (unsigned)count;
	}
	c = c_end();
	sink = (float)total;
	rc = row(value, len, unit, ulen, e, c);
	free(d);
	free(out);
	return rc;
}

/* LAUNCHES launches of saxpy over blocks blocks of 256 floats, beside the
 * C loop over the same floats as many times. */
#define LAUNCHES 2000
static int launches_of(uint32_t blocks, char *value, size_t len, char *unit,
		       size_t ulen)
{
	static float x[8 * 256], y[8 * 256];
	struct { uint32_t n; float a; uint64_t x, y; } p;
	double e = 0, cpu = 0, c, secs = g.secs;
	uint64_t lanes = g.lanes;
	uint32_t n = blocks * 256;

	for (uint32_t i = 0; i < n; i++) {
		x[i] = (float)i;
		y[i] = 1.0f;
	}
	p.n = n; p.a = 2.5f; p.x = (uintptr_t)x; p.y = (uintptr_t)y;
	for (int k = 0; k < LAUNCHES; k++) {
		double t = launch("saxpy", &p, blocks, 1, 256, 1);
		if (t < 0)
			return 1;
		e += t;
		cpu += le.cpu;
	}
	g.secs = secs;     /* the rate row is the four big kernels' */
	g.lanes = lanes;
	c_begin();
	for (int k = 0; k < LAUNCHES; k++) {
		for (uint32_t i = 0; i < n; i++)
			y[i] = p.a * x[i] + y[i];
		sink = y[(uint32_t)k % n];   /* each pass is kept */
	}
	c = c_end();
	if (c <= 0 || lc.cpu <= 0)
		return 1;
	snprintf(value, len, "%.1f us a launch (CPU %.1f us), C -O2 %.2f us a "
		 "pass: %.0fx", e * 1e6 / LAUNCHES, cpu * 1e6 / LAUNCHES,
		 c * 1e6 / LAUNCHES, cpu / lc.cpu);
	snprintf(unit, ulen, "%s", "");
	return 0;
}

/* Many small launches (cuda-samples' scan and simpleStreams launch
 * thousands): one block. What a launch costs beyond its work: the grid's
 * and the block's set-up. */
static int small_launches(char *value, size_t len, char *unit, size_t ulen)
{
	return launches_of(1, value, len, unit, ulen);
}

/* The same over 8 blocks on the rows' two host threads: what handing a
 * launch's blocks to a second thread costs (a thread created and joined
 * each launch before the pool). */
static int small_launches_8(char *value, size_t len, char *unit, size_t ulen)
{
	return launches_of(8, value, len, unit, ulen);
}

/* The texture the resampling reads: a 1024-square float array of the
 * engine's (read at once, as an array's bytes are), bilinear, clamped. */
#define TSRC 1024
#define TOUT 2048
static struct ex_tex tex_src;

static enum ex_status one_texture(void *ctx, uint64_t h, bool surface,
				  struct ex_tex *out, const char **why)
{
	(void)ctx;
	if (h != 1 || surface) {
		*why = "no such object";
		return EX_ILLEGAL_ADDRESS;
	}
	*out = tex_src;
	return EX_OK;
}

/* The C loop's bilinear fetch at (x, y), in elements, clamped. */
static float bilinear(const float *a, float x, float y)
{
	float xb = x - 0.5f, yb = y - 0.5f;
	int i = (int)floorf(xb), j = (int)floorf(yb);
	float fx = xb - (float)i, fy = yb - (float)j, r = 0;

	for (int v = 0; v < 2; v++)
		for (int u = 0; u < 2; u++) {
			int xi = i + u < 0 ? 0 : i + u >= TSRC ? TSRC - 1 : i + u;
			int yj = j + v < 0 ? 0 : j + v >= TSRC ? TSRC - 1 : j + v;
			r += (u ? fx : 1 - fx) * (v ? fy : 1 - fy) * a[yj * TSRC + xi];
		}
	return r;
}

static int texture(char *value, size_t len, char *unit, size_t ulen)
{
	float *src = malloc(sizeof *src * TSRC * TSRC);
	float *out = malloc(sizeof *out * TOUT * TOUT);
	double e, c;
	int rc = 1;

	if (!src || !out)
		goto done;
	for (uint32_t i = 0; i < TSRC * TSRC; i++)
		src[i] = (float)(i % 977) * 0.25f;
	tex_src = (struct ex_tex){ .base = (uint64_t)(uintptr_t)src,
		.pitch = TSRC * 4, .slice = (uint64_t)TSRC * TSRC * 4,
		.bytes = (uint64_t)TSRC * TSRC * 4, .width = TSRC,
		.height = TSRC, .format = EX_TF_F32, .channels = 1, .elem = 4,
		.shape = EX_TS_2D, .linear_filter = true,
		.address = { EX_TA_CLAMP, EX_TA_CLAMP, EX_TA_CLAMP } };
	struct { uint64_t t, out; int32_t w, h; float s; } p =
		{ 1, (uint64_t)(uintptr_t)out, TOUT, TOUT, 0.5f };
	e = launch_with("texResample", &p, TOUT / 256, TOUT, 256, 1,
			one_texture);
	c_begin();
	for (uint32_t y = 0; y < TOUT; y++)
		for (uint32_t x = 0; x < TOUT; x++)
			out[y * TOUT + x] = bilinear(src, x * 0.5f + 0.25f,
						     y * 0.5f + 0.25f);
	c = c_end();
	sink = out[TOUT * TOUT / 2 + 7];
	rc = row(value, len, unit, ulen, e, c);
done:
	free(src);
	free(out);
	return rc;
}

static int rate(char *value, size_t len, char *unit, size_t ulen)
{
	if (g.secs <= 0)
		return 1;
	snprintf(value, len, "%.0f", g.lanes / g.secs / 1e6);
	snprintf(unit, ulen, "M lane-instructions/s");
	return 0;
}

const struct bench_row bench_exec_rows[] = {
	{ .name = "engine: saxpy 16M floats (goal 30x)", .report = saxpy },
	{ .name = "engine: transpose 2048^2 shared tiles (goal 60x)",
	  .report = transpose },
	{ .name = "engine: reduction with shuffles 16M (goal 60x)",
	  .report = reduce },
	{ .name = "engine: histogram 16M bytes, atomics (goal 60x)",
	  .report = histogram },
	{ .name = "engine: BN's gather, 64K threads x 600 rows, local indices",
	  .report = gather },
	{ .name = "engine: texture resampling 2048^2, bilinear (goal 60x)",
	  .report = texture },
	{ .name = "engine: 2,000 launches of one block, 256 floats",
	  .report = small_launches },
	{ .name = "engine: 2,000 launches of 8 blocks, 2 threads",
	  .report = small_launches_8 },
	{ .name = "engine: lane instructions per second, 2 threads",
	  .report = rate },
	{ 0 },
};
