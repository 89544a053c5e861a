/*
 * test_exec.c - the PTX engine runs nvcc's PTX of our own kernels
 * (tests/unit/kernels/) over a mock of the model (exec_mock.h): the
 * samples' kernels against host loops, divergence and reconvergence,
 * barriers, device functions, shared, local and module memory, warp
 * operations, atomics under contention, printf, assert, trap and bad
 * addresses, and the translation cache's page() calls counted exactly.
 */
#include "tap.h"
#include "exec_mock.h"

#include <math.h>
#include <unistd.h>

/* A kernel's parameters, packed at their natural alignment. */
struct pb {
	uint8_t b[256];
	uint32_t n;
};
static void put(struct pb *p, const void *v, uint32_t size)
{
	p->n = (p->n + size - 1) & ~(size - 1);
	memcpy(p->b + p->n, v, size);
	p->n += size;
}
static void put_u32(struct pb *p, uint32_t v) { put(p, &v, 4); }
static void put_f32(struct pb *p, float v) { put(p, &v, 4); }
static void put_ptr(struct pb *p, const void *v)
{
	uint64_t a = (uint64_t)(uintptr_t)v;
	put(p, &a, 8);
}

static struct ex_module *load(const char *name, struct mock *mk)
{
	size_t len = 0;
	char *t = mock_read_ptx(name, &len), log[512];
	struct ex_module *m = NULL;
	enum ex_status st;

	if (!t) {
		ok(0, "%s.ptx is readable", name);
		return NULL;
	}
	st = ex_module_parse(t, len, 90, &m, log, sizeof log);
	free(t);
	if (!ok(st == EX_OK, "%s.ptx parses", name)) {
		printf("#   %d: %s\n", st, log);
		return NULL;
	}
	if (mock_bind(mk, m)) {
		ex_module_free(m);
		return NULL;
	}
	return m;
}

static enum ex_status run(struct ex_launch *l, struct ex_result *r)
{
	enum ex_status st = ex_launch_run(l, r);
	if (st != EX_OK)
		printf("# status %d: %s\n", st, r->message);
	return st;
}

/* ------------------------------------------------------------------ */

static void test_vector_add(struct mock *mk, struct ex_module *m)
{
	int n = 50000, bad = 0;
	float *a = mock_alloc(mk, n * 4, 0), *b = mock_alloc(mk, n * 4, 0),
	      *c = mock_alloc(mk, n * 4, 2);
	struct pb p = { 0 };
	struct ex_result r;

	for (int i = 0; i < n; i++) {
		a[i] = (float)i * 0.5f;
		b[i] = (float)(n - i) * 0.25f;
	}
	put_ptr(&p, a); put_ptr(&p, b); put_ptr(&p, c); put_u32(&p, (uint32_t)n);
	struct ex_launch l = mock_launch(mk, m, "vectorAdd", p.b,
					 (n + 255) / 256, 1, 256, 1, 1);
	is_int(run(&l, &r), EX_OK, "vectorAdd of %d floats runs", n);
	for (int i = 0; i < n; i++)
		bad += c[i] != a[i] + b[i];
	is_int(bad, 0, "vectorAdd: every sum is the host's");
	is_int(r.bytes_read[0], 2ull * n * 4, "its reads are counted at their place");
	is_int(r.bytes_written[2], (uint64_t)n * 4, "its writes at theirs");
	is_int(r.sectors_read[0], 2ull * n * 4 / 32, "its reads move each "
	       "32-byte sector of a and b once (the lanes' 4 bytes coalesce)");
	is_int(r.sectors_written[2], (uint64_t)n * 4 / 32, "its writes each "
	       "sector of c once, the last warp's 16 lanes two sectors");
	is_int(r.atoms[0], 2ull * n * 4 / 64, "its reads lie in each 64-byte "
	       "DRAM unit of a and b once");
	is_int(r.atoms[2], (uint64_t)n * 4 / 64, "its writes in each of c's");
	is_int(r.read_requests[0], 2ull * ((n + 31) / 32), "each warp's read "
	       "of a and of b is one request: its sectors run one after "
	       "another");
	is_int(r.read_requests[2], 0, "writes make no read requests");
	is_int(r.lane_instructions > r.warp_instructions * 20, 1,
	       "lane instructions count active lanes (%llu over %llu)",
	       (unsigned long long)r.lane_instructions,
	       (unsigned long long)r.warp_instructions);
}

static void test_saxpy(struct mock *mk, struct ex_module *m)
{
	int n = 1000, bad = 0;
	float *x = mock_alloc(mk, n * 4, 0), *y = mock_alloc(mk, n * 4, 0), want;
	struct pb p = { 0 };
	struct ex_result r;

	for (int i = 0; i < n; i++) {
		x[i] = (float)i / 7.0f;
		y[i] = (float)(i % 13) - 3.0f;
	}
	put_u32(&p, (uint32_t)n); put_f32(&p, 2.5f); put_ptr(&p, x); put_ptr(&p, y);
	struct ex_launch l = mock_launch(mk, m, "saxpy", p.b, 4, 1, 256, 1, 1);
	is_int(run(&l, &r), EX_OK, "saxpy runs with blocks past n");
	for (int i = 0; i < n; i++) {
		want = fmaf(x[i], 2.5f, (float)(i % 13) - 3.0f);
		bad += y[i] != want;
	}
	is_int(bad, 0, "saxpy: each y is the fused multiply-add of the device");
}

static void test_reduce(struct mock *mk, struct ex_module *m)
{
	int n = 100000, blocks = 40;
	float *in = mock_alloc(mk, n * 4, 0), *out = mock_alloc(mk, blocks * 4, 0);
	double want = 0, got = 0;
	struct pb p = { 0 };
	struct ex_result r;

	for (int i = 0; i < n; i++) {
		in[i] = (float)(i % 17);
		want += i % 17;
	}
	put_ptr(&p, in); put_ptr(&p, out); put_u32(&p, (uint32_t)n);
	struct ex_launch l = mock_launch(mk, m, "reduceShfl", p.b, blocks, 1,
					 256, 1, 1);
	is_int(run(&l, &r), EX_OK, "a reduction with shuffles runs");
	for (int i = 0; i < blocks; i++)
		got += out[i];
	ok(got == want, "its partial sums add up to the host's (%.0f, %.0f)",
	   got, want);
}

static void test_histogram(struct mock *mk, struct ex_module *m)
{
	int n = 200000, bad = 0;
	uint8_t *d = mock_alloc(mk, n, 0);
	unsigned *bins = mock_alloc(mk, 256 * 4, 0), want[256] = { 0 };
	struct pb p = { 0 };
	struct ex_result r;

	for (int i = 0; i < n; i++) {
		d[i] = (uint8_t)((i * 2654435761u) >> 13);
		want[d[i]]++;
	}
	put_ptr(&p, d); put_u32(&p, (uint32_t)n); put_ptr(&p, bins);
	struct ex_launch l = mock_launch(mk, m, "histogram256", p.b, 16, 1,
					 256, 1, 1);
	l.threads = 4;
	is_int(run(&l, &r), EX_OK, "a histogram with shared atomics runs on 4 host threads");
	for (int i = 0; i < 256; i++)
		bad += bins[i] != want[i];
	is_int(bad, 0, "every bin holds the host's count");
	ok(r.atomics >= (uint64_t)n, "the atomics are counted (%llu)",
	   (unsigned long long)r.atomics);
}

static void test_transpose(struct mock *mk, struct ex_module *m)
{
	int w = 100, h = 70, bad = 0;
	float *in = mock_alloc(mk, w * h * 4, 0), *out = mock_alloc(mk, w * h * 4, 0);
	struct pb p = { 0 };
	struct ex_result r;

	for (int i = 0; i < w * h; i++)
		in[i] = (float)i;
	put_ptr(&p, out); put_ptr(&p, in); put_u32(&p, (uint32_t)w);
	put_u32(&p, (uint32_t)h);
	struct ex_launch l = mock_launch(mk, m, "transposeCoalesced", p.b,
					 (w + 31) / 32, (h + 31) / 32, 32, 8, 1);
	is_int(run(&l, &r), EX_OK, "a transpose through shared tiles runs");
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			bad += out[x * h + y] != in[y * w + x];
	is_int(bad, 0, "every element is where the transpose puts it");
}

static void test_matmul(struct mock *mk, struct ex_module *m)
{
	int hA = 64, wA = 48, wB = 32, bad = 0;
	float *A = mock_alloc(mk, hA * wA * 4, 0), *B = mock_alloc(mk, wA * wB * 4, 0),
	      *C = mock_alloc(mk, hA * wB * 4, 0);
	struct pb p = { 0 };
	struct ex_result r;

	for (int i = 0; i < hA * wA; i++)
		A[i] = (float)(i % 5) - 2;
	for (int i = 0; i < wA * wB; i++)
		B[i] = (float)(i % 7) - 3;
	put_ptr(&p, C); put_ptr(&p, A); put_ptr(&p, B); put_u32(&p, (uint32_t)wA);
	put_u32(&p, (uint32_t)wB);
	struct ex_launch l = mock_launch(mk, m, "matrixMul16", p.b, wB / 16,
					 hA / 16, 16, 16, 1);
	is_int(run(&l, &r), EX_OK, "a tiled matrix multiply runs");
	for (int i = 0; i < hA; i++)
		for (int j = 0; j < wB; j++) {
			float s = 0;
			for (int k = 0; k < wA; k++)
				s += A[i * wA + k] * B[k * wB + j];
			bad += C[i * wB + j] != s;
		}
	is_int(bad, 0, "every product is the host's");
}

/* ------------------------------------------------------------------ */

static void test_diverge(struct mock *mk, struct ex_module *m)
{
	int *out = mock_alloc(mk, 128 * 4, 0), bad = 0, bad2 = 0;
	int *lo = mock_alloc(mk, 64 * 4, 0);
	struct pb p = { 0 }, q = { 0 };
	struct ex_result r;

	put_ptr(&p, out);
	struct ex_launch l = mock_launch(mk, m, "diverge", p.b, 2, 1, 64, 1, 1);
	is_int(run(&l, &r), EX_OK, "four paths, two nested, run");
	for (int i = 0; i < 128; i++) {
		int t = i % 64, v = (t & 1) ? ((t & 2) ? t * 3 : t + 100) :
				    (t % 3 == 0 ? -t : t << 4);
		bad += out[i] != v;
	}
	is_int(bad, 0, "each lane took its own path and the warp reconverged");
	put_ptr(&q, lo);
	l = mock_launch(mk, m, "loops", q.b, 1, 1, 64, 1, 1);
	is_int(run(&l, &r), EX_OK, "loops of a different trip count per lane run");
	for (int t = 0; t < 64; t++) {
		int s = 0;
		for (int i = 0; i <= t; i++)
			s += i * i;
		bad2 += lo[t] != s;
	}
	is_int(bad2, 0, "each lane left its loop after its own count");
}

static void test_barriers(struct mock *mk, struct ex_module *m)
{
	int *out = mock_alloc(mk, 256 * 4, 0), bad = 0, s[256];
	struct pb p = { 0 };
	struct ex_result r;

	put_ptr(&p, out);
	struct ex_launch l = mock_launch(mk, m, "barrierAfterDivergence", p.b,
					 1, 1, 256, 1, 1);
	is_int(run(&l, &r), EX_OK, "a barrier after divergence runs");
	for (int t = 0; t < 256; t++)
		s[t] = t % 5 == 0 ? t * 2 : t % 5 == 1 ? t + 7 : -t;
	for (int t = 0; t < 256; t++)
		bad += out[t] != s[(t + 37) % 256] + s[255 - t];
	is_int(bad, 0, "every warp saw the others' writes after the barrier");

	int *e = mock_alloc(mk, 128 * 4, 0);
	struct pb q = { 0 };
	put_ptr(&q, e); put_u32(&q, 100);
	for (int t = 0; t < 128; t++)
		e[t] = -5;
	l = mock_launch(mk, m, "earlyExit", q.b, 1, 1, 128, 1, 1);
	is_int(run(&l, &r), EX_OK,
	       "a barrier waits for threads that have not exited only");
	bad = 0;
	for (int t = 0; t < 128; t++)
		bad += e[t] != (t < 100 ? 99 - t : -5);
	is_int(bad, 0, "the threads that stayed exchanged their values");
}

static int collatz(int x)
{
	int s = 0;
	while (x != 1) {
		x = (x & 1) ? 3 * x + 1 : x / 2;
		s++;
	}
	return s;
}

static void test_calls(struct mock *mk, struct ex_module *m)
{
	int *steps = mock_alloc(mk, 64 * 4, 0), bad = 0, badf = 0;
	float *f = mock_alloc(mk, 64 * 4, 0);
	struct pb p = { 0 };
	struct ex_result r;

	put_ptr(&p, steps); put_ptr(&p, f);
	struct ex_launch l = mock_launch(mk, m, "calls", p.b, 1, 1, 64, 1, 1);
	is_int(run(&l, &r), EX_OK, "device functions called from divergent lanes run");
	for (int t = 1; t <= 64; t++) {
		float x = (float)t;
		bad += steps[t - 1] != (t % 3 ? collatz(t) : -1);
		badf += f[t - 1] != (t % 5 > 2 ? x * x * 2.0f : x + 0.5f);
	}
	is_int(bad, 0, "a looping callee returned each lane's own result");
	is_int(badf, 0, "a callee reading __constant__ memory returned its value");
}

static void test_memories(struct mock *mk, struct ex_module *m)
{
	int *d = mock_alloc(mk, 200 * 4, 0), bad = 0;
	struct pb p = { 0 };
	struct ex_result r;

	for (int i = 0; i < 200; i++)
		d[i] = i * 3;
	put_ptr(&p, d);
	struct ex_launch l = mock_launch(mk, m, "dynamicShared", p.b, 1, 1, 200, 1, 1);
	l.dynamic_shared_bytes = 200 * 4;
	is_int(run(&l, &r), EX_OK, "extern __shared__ memory of the launch's size");
	for (int i = 0; i < 200; i++)
		bad += d[i] != (199 - i) * 3;
	is_int(bad, 0, "the block reversed its values through it");
	l.dynamic_shared_bytes = 100 * 4;
	is_int(ex_launch_run(&l, &r), EX_ILLEGAL_ADDRESS,
	       "too little dynamic shared memory: an illegal address");

	int *idx = mock_alloc(mk, 64 * 4, 0), *out = mock_alloc(mk, 64 * 4, 0);
	static const int table[8] = { 3, 1, 4, 1, 5, 9, 2, 6 };
	struct pb q = { 0 };
	for (int t = 0; t < 64; t++)
		idx[t] = t * 5;
	put_ptr(&q, idx); put_ptr(&q, out);
	l = mock_launch(mk, m, "localArray", q.b, 1, 1, 64, 1, 1);
	is_int(run(&l, &r), EX_OK, "a local array indexed at run time");
	bad = 0;
	for (int t = 0; t < 64; t++) {
		int i = (t * 5) & 15;
		bad += out[t] != i * t + table[i & 7];
	}
	is_int(bad, 0, "each thread read its own local memory");

	int *g = mock_alloc(mk, 8, 0);
	struct pb s = { 0 };
	put_ptr(&s, g);
	l = mock_launch(mk, m, "globals", s.b, 1, 1, 1, 1, 1);
	is_int(run(&l, &r), EX_OK, "module globals are read and written");
	is_int(g[0], 9 + 7, "an initialized __device__ array and a __managed__ int read back");
	is_int(g[1], 20, "a __constant__ float read back");
	uint64_t *counter = mock_var(mk, m, "counter");
	int *mv = mock_var(mk, m, "managedValue");
	ok(counter && *counter == 42, "a __device__ counter written by the kernel");
	ok(mv && *mv == 11, "a __managed__ variable written by the kernel");
	ok(r.bytes_read[1] == 4 && r.bytes_written[1] == 4,
	   "the managed variable's bytes count at its place");
}

static void test_special(struct mock *mk, struct ex_module *m)
{
	unsigned *o = mock_alloc(mk, 6 * 24 * 16, 0);
	struct pb p = { 0 };
	struct ex_result r;
	int bad = 0;

	put_ptr(&p, o);
	struct ex_launch l = mock_launch(mk, m, "special", p.b, 3, 2, 4, 3, 2);
	is_int(run(&l, &r), EX_OK, "special registers in 3D grids and blocks");
	for (unsigned by = 0; by < 2; by++)
		for (unsigned bx = 0; bx < 3; bx++)
			for (unsigned t = 0; t < 24; t++) {
				unsigned i = (by * 3 + bx) * 24 + t;
				unsigned tx = t % 4, ty = t / 4 % 3, tz = t / 12;
				bad += o[i * 4] != (tx | ty << 8 | tz << 16);
				bad += o[i * 4 + 1] != (bx | by << 8);
				bad += o[i * 4 + 2] != (4 | 3 << 8 | 2 << 16);
				bad += o[i * 4 + 3] != ((t % 32) | 3 << 8 | 2 << 16 | 1 << 24);
			}
	is_int(bad, 0, "%%tid, %%ctaid, %%ntid, %%nctaid and %%laneid as on the device");
}

/* ------------------------------------------------------------------ */

static void test_warps(struct mock *mk, struct ex_module *w)
{
	int *o = mock_alloc(mk, 32 * 5 * 4, 0), bad = 0;
	struct pb p = { 0 };
	struct ex_result r;

	put_ptr(&p, o);
	struct ex_launch l = mock_launch(mk, w, "shuffles", p.b, 1, 1, 32, 1, 1);
	is_int(run(&l, &r), EX_OK, "shuffles of every mode run");
	for (int t = 0; t < 32; t++) {
		int v = t * 10 + 1, seg = t & ~7;
		bad += o[t * 5] != ((t * 7) & 31) * 10 + 1;
		bad += o[t * 5 + 1] != (t >= 3 ? v - 30 : v);
		bad += o[t * 5 + 2] != (t + 5 < 32 ? v + 50 : v);
		bad += o[t * 5 + 3] != (t ^ 6) * 10 + 1;
		bad += o[t * 5 + 4] != (t + 2 < seg + 8 ? v + 20 : v);
	}
	is_int(bad, 0, "idx, up, down, bfly and a width of 8 as the device");

	unsigned *vo = mock_alloc(mk, 32 * 6 * 4, 0);
	int *in = mock_alloc(mk, 32 * 4, 0);
	unsigned ballot = 0, sum = 0, mx = 0;
	struct pb q = { 0 };
	for (int t = 0; t < 32; t++) {
		in[t] = (t * 37) % 23;
		ballot |= (unsigned)(in[t] > 10) << t;
		sum += (unsigned)in[t];
		mx = (unsigned)in[t] > mx ? (unsigned)in[t] : mx;
	}
	put_ptr(&q, vo); put_ptr(&q, in);
	l = mock_launch(mk, w, "votes", q.b, 1, 1, 32, 1, 1);
	is_int(run(&l, &r), EX_OK, "votes, activemask and redux run");
	int any17 = 0;
	for (int t = 0; t < 32; t++)
		any17 |= in[t] == 17;
	bad = 0;
	for (int t = 0; t < 32; t++) {
		bad += vo[t * 6] != ballot;
		bad += vo[t * 6 + 1] != 1;
		bad += vo[t * 6 + 2] != (unsigned)any17;
		bad += vo[t * 6 + 3] != 1;
		bad += vo[t * 6 + 4] != ((t & 1) ? 0xaaaaaaaau : 0);
		bad += vo[t * 6 + 5] != (sum ^ mx);
	}
	ok(any17, "one lane holds 17");
	is_int(bad, 0, "ballot, all, any, uni, activemask inside a branch, redux");

	unsigned *mo = mock_alloc(mk, 64 * 4, 0);
	int *mi = mock_alloc(mk, 32 * 4, 0);
	struct pb s = { 0 };
	for (int t = 0; t < 32; t++)
		mi[t] = t % 3;
	put_ptr(&s, mo); put_ptr(&s, mi);
	l = mock_launch(mk, w, "matches", s.b, 1, 1, 32, 1, 1);
	is_int(run(&l, &r), EX_OK, "match.sync runs");
	bad = 0;
	for (int t = 0; t < 32; t++) {
		unsigned same = 0;
		for (int k = 0; k < 32; k++)
			same |= (unsigned)(mi[k] == mi[t]) << k;
		bad += mo[t * 2] != same;
		bad += mo[t * 2 + 1] != 0xffffffffu + 1;
	}
	is_int(bad, 0, "match.any groups equal values; match.all of one value is every lane");
}

static void test_atomics(struct mock *mk, struct ex_module *w)
{
	unsigned *c = mock_alloc(mk, 5 * 4, 0), *wrap = mock_alloc(mk, 8, 0);
	float *f = mock_alloc(mk, 4, 0);
	double *d = mock_alloc(mk, 8, 0);
	int *mn = mock_alloc(mk, 8, 0);
	unsigned long long *cas = mock_alloc(mk, 8, 0), want = 0;
	int blocks = 8, threads = 128, n = blocks * threads;
	unsigned x = 0;
	struct pb p = { 0 };
	struct ex_result r;

	c[3] = 0xffffffffu;
	mn[0] = 1 << 30;
	mn[1] = -1;
	put_ptr(&p, c); put_ptr(&p, f); put_ptr(&p, d); put_ptr(&p, mn);
	put_ptr(&p, wrap); put_ptr(&p, cas);
	struct ex_launch l = mock_launch(mk, w, "contention", p.b, blocks, 1,
					 threads, 1, 1);
	l.threads = 4;
	is_int(run(&l, &r), EX_OK, "%d threads contend on atomics from 4 host threads", n);
	for (int t = 0; t < n; t++) {
		x ^= (unsigned)t;
		want += (unsigned long long)t;
	}
	is_int(c[0], n, "atomicAdd: every increment landed");
	ok(*f == 0.5f * n && *d == 0.25 * n, "float and double atomicAdd (%g, %g)",
	   *f, *d);
	ok(mn[0] == 1000 - (n - 1) && mn[1] == n - 1, "atomicMin and atomicMax");
	is_int(wrap[0], n % 10, "atomicInc wraps at its limit");
	is_int(wrap[1], (unsigned)((7 - (n % 7)) % 7), "atomicDec wraps at zero to its limit");
	ok(c[1] == 0xffffffffu && c[2] == x && c[3] == 0,
	   "atomicOr, atomicXor and atomicAnd");
	is_int(*cas, want, "an atomicCAS loop added every thread's share");
	is_int(c[4], 77, "atomicExch");

	int *so = mock_alloc(mk, 3 * 96 * 4, 0), *si = mock_alloc(mk, 96 * 4, 0);
	int cnt = 0, bad = 0;
	struct pb q = { 0 };
	for (int t = 0; t < 96; t++) {
		si[t] = t % 9;
		cnt += si[t] > 3;
	}
	put_ptr(&q, so); put_ptr(&q, si);
	l = mock_launch(mk, w, "syncCounts", q.b, 1, 1, 96, 1, 1);
	is_int(run(&l, &r), EX_OK, "__syncthreads_count/and/or run");
	for (int t = 0; t < 96; t++)
		bad += so[t] != cnt || so[96 + t] != 1 || so[192 + t] != 1;
	is_int(bad, 0, "every thread got the block's count, and, or");
}

/* ------------------------------------------------------------------ */

static void test_faults(struct mock *mk, struct ex_module *m)
{
	struct ex_result r;
	struct pb p = { 0 }, q = { 0 }, s = { 0 };

	put_u32(&p, 2);
	struct ex_launch l = mock_launch(mk, m, "hello", p.b, 2, 1, 4, 1, 1);
	l.threads = 1;
	mk->plen = 0;
	mk->printed[0] = '\0';
	is_int(run(&l, &r), EX_OK, "device printf runs");
	is_int(strcmp(mk->printed,
		      "thread 0 of block 0: 0.000000 ok\n"
		      "thread 1 of block 0: 1.500000 ok\n"
		      "thread 0 of block 1: 0.000000 ok\n"
		      "thread 1 of block 1: 1.500000 ok\n"), 0,
	       "its lines reach ex_memops.vprintf in lane order, arguments packed");
	if (strncmp(mk->printed, "thread 0", 8))
		printf("# printed: %s\n", mk->printed);

	int *v = mock_alloc(mk, 64 * 4, 0);
	for (int t = 0; t < 64; t++)
		v[t] = t == 37 ? 0 : t + 1;
	put_ptr(&q, v);
	l = mock_launch(mk, m, "assertPositive", q.b, 1, 1, 64, 1, 1);
	is_int(ex_launch_run(&l, &r), EX_ASSERT, "a failed assert stops the launch: EX_ASSERT");
	ok(strstr(r.message, "block: [0,0,0], thread: [37,0,0] Assertion `v[threadIdx.x] > 0` failed.") != NULL,
	   "its message names the thread and the assertion");
	if (!strstr(r.message, "thread: [37"))
		printf("# %s\n", r.message);
	is_int(r.thread[0], 37, "ex_result names the thread");
	/* Two lanes of a warp fail: a line each, in lane order, as the
	 * device prints one for each thread (probes/results/launch-env.txt,
	 * launch.risky.assert); the launch stops at the first. */
	v[40] = 0;
	l = mock_launch(mk, m, "assertPositive", q.b, 1, 1, 64, 1, 1);
	is_int(ex_launch_run(&l, &r), EX_ASSERT, "two failed asserts: EX_ASSERT");
	{
		const char *a = strstr(r.message, "thread: [37,0,0] Assertion");
		const char *c = strstr(r.message, "thread: [40,0,0] Assertion");
		ok(a && c && a < c && strchr(a, '\n') && strchr(a, '\n') < c,
		   "a line for each failing lane, lane 37's first");
		if (!c)
			printf("# %s\n", r.message);
	}
	is_int(r.thread[0], 37, "the launch stopped at the first");
	v[40] = 41;

	put_u32(&s, 45);
	l = mock_launch(mk, m, "trapAt", s.b, 3, 1, 64, 1, 1);
	is_int(ex_launch_run(&l, &r), EX_TRAP, "trap stops the launch: EX_TRAP");
	is_int(r.thread[0], 45, "in the thread that trapped");

	struct pb t = { 0 };
	put_ptr(&t, (void *)(uintptr_t)0x10000); put_u32(&t, 1);
	l = mock_launch(mk, m, "store", t.b, 1, 1, 32, 1, 1);
	is_int(ex_launch_run(&l, &r), EX_ILLEGAL_ADDRESS,
	       "a store no allocation holds: EX_ILLEGAL_ADDRESS");
	is_int(r.fault_addr, 0x10000, "ex_result names the address");

	int *one = mock_alloc(mk, 4096, 0);
	struct pb u = { 0 };
	put_ptr(&u, one + 1000); put_u32(&u, 5);
	l = mock_launch(mk, m, "store", u.b, 1, 1, 128, 1, 1);
	is_int(ex_launch_run(&l, &r), EX_ILLEGAL_ADDRESS,
	       "a store running past its allocation's page faults");
	is_int(r.fault_addr, (uint64_t)(uintptr_t)(one + 1024),
	       "at the first address outside");
	is_int(r.thread[0], 24, "in the first thread that reached it");
	is_int(one[1023], 5, "the stores before it landed");

	struct pb w = { 0 };
	put_ptr(&w, (char *)one + 2); put_u32(&w, 5);
	l = mock_launch(mk, m, "store", w.b, 1, 1, 1, 1, 1);
	is_int(ex_launch_run(&l, &r), EX_MISALIGNED_ADDRESS,
	       "a misaligned store: EX_MISALIGNED_ADDRESS");
}

/* page() once per warp and page: counted exactly */
static void test_pages(struct mock *mk, struct ex_module *m)
{
	int *a = mock_alloc(mk, 3 * 4096, 0);
	struct pb p = { 0 };
	struct ex_result r;
	uint64_t before;

	put_ptr(&p, a + 1024 - 16); put_u32(&p, 9);
	struct ex_launch l = mock_launch(mk, m, "store", p.b, 1, 1, 64, 1, 1);
	l.threads = 1;
	before = mk->page_calls;
	is_int(run(&l, &r), EX_OK, "64 stores over two pages run");
	/* warp 0: lanes 0-15 on page 0, 16-31 on page 1; warp 1: page 1 */
	is_int(mk->page_calls - before, 3, "page() was asked once per warp and page");
	before = mk->page_calls;
	mk->generation++;
	is_int(run(&l, &r), EX_OK, "again, after the generation moved");
	is_int(mk->page_calls - before, 3, "each launch asks again");
}

static enum ex_status moving_page(void *ctx, uint64_t page, enum ex_access a,
				  int *place, bool *shared)
{
	struct mock *mk = ctx;
	enum ex_status st = mock_page(ctx, page, a, place, shared);

	mk->generation++;
	return st;
}

static void test_generation(struct mock *mk, struct ex_module *m)
{
	int *p = mock_alloc(mk, 4096, 0);
	struct pb q = { 0 };
	struct ex_result r;
	uint64_t before;

	put_ptr(&q, p);
	struct ex_launch l = mock_launch(mk, m, "twice", q.b, 1, 1, 32, 1, 1);
	before = mk->page_calls;
	is_int(run(&l, &r), EX_OK, "a store, a load and a store of one page");
	is_int(mk->page_calls - before, 2,
	       "page() once to write and once to read: the second store hits");
	ok(p[0] == 3 && p[31] == 3, "the values landed");
	l.mem.page = moving_page;
	before = mk->page_calls;
	is_int(run(&l, &r), EX_OK, "again while every page() moves the generation");
	is_int(mk->page_calls - before, 3,
	       "the cache is dropped when the generation moves: page() each time");
}

/* Where page() says its answer holds for every warp, a host thread's warps
 * share it: page() once a page and thread, again for a new launch or
 * generation; an answer it does not say so of stays each warp's own. */
static void test_shared_pages(struct mock *mk, struct ex_module *m)
{
	int *a = mock_alloc(mk, 3 * 4096, 0), *b = mock_alloc(mk, 3 * 4096, 1);
	struct pb p = { 0 }, q = { 0 };
	struct ex_result r;
	uint64_t before;

	put_ptr(&p, a + 1024 - 16); put_u32(&p, 9);
	struct ex_launch l = mock_launch(mk, m, "store", p.b, 1, 1, 64, 1, 1);
	l.threads = 1;
	mk->shared_below = 1;
	before = mk->page_calls;
	is_int(run(&l, &r), EX_OK, "shared: 64 stores over two pages run");
	is_int(mk->page_calls - before, 2, "shared: page() once a page, the "
	       "second warp answered by the first's");
	before = mk->page_calls;
	is_int(run(&l, &r), EX_OK, "shared: the same launch again");
	is_int(mk->page_calls - before, 2, "shared: a new launch asks again");
	before = mk->page_calls;
	l.mem.page = moving_page;
	is_int(run(&l, &r), EX_OK, "shared: while every page() moves the "
	       "generation");
	is_int(mk->page_calls - before, 3, "shared: nothing kept across a "
	       "generation: each warp asks");
	put_ptr(&q, b + 1024 - 16); put_u32(&q, 9);
	l = mock_launch(mk, m, "store", q.b, 1, 1, 64, 1, 1);
	l.threads = 1;
	before = mk->page_calls;
	is_int(run(&l, &r), EX_OK, "shared: stores to place 1");
	is_int(mk->page_calls - before, 3, "shared: an answer not said to "
	       "hold for all is each warp's own");
	ok(a[1024 - 16] == 9 && b[1024 + 47] == 9, "shared: the values "
	   "landed");
	mk->shared_below = 0;
}

static void test_returns(struct mock *mk, struct ex_module *m)
{
	int *in = mock_alloc(mk, 64 * 4, 0), *out = mock_alloc(mk, 64 * 4, 0);
	struct pb q = { 0 };
	struct ex_result r;
	int bad = 0;

	for (int t = 0; t < 64; t++)
		in[t] = (t % 4 == 0) ? 0 : (t % 4 == 1) ? -t : (t % 4 == 2) ? 500 + t : t;
	put_ptr(&q, in); put_ptr(&q, out);
	struct ex_launch l = mock_launch(mk, m, "returns", q.b, 1, 1, 40, 1, 1);
	is_int(run(&l, &r), EX_OK, "a callee of several paths, a block of 40 threads");
	for (int t = 0; t < 64; t++) {
		int x = in[t], c = x < 0 ? -1 : x == 0 ? 0 : x > 100 ? 2 : 1;
		int y = -x, cy = y < 0 ? -1 : y == 0 ? 0 : y > 100 ? 2 : 1;
		bad += out[t] != (t < 40 ? c * 10 + ((t & 1) ? cy : 5) : 0);
	}
	is_int(bad, 0, "each lane returned its own class; threads past 40 ran nothing");
}

static struct ex_module *inline_ptx(const char *text)
{
	struct ex_module *m = NULL;
	char log[256];

	if (ex_module_parse(text, strlen(text), 90, &m, log, sizeof log))
		printf("# %s\n", log);
	return m;
}

/* Each lane reads a page of its own and the page 16 MiB past it: two
 * float arrays of 2048 rows, row r of each (SYR2K's a[j][k] and b[j][k]). */
static const char far_pages_ptx[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".visible .entry far(.param .u64 a)\n{\n"
	"\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<5>;\n\t.reg .f32 %f<3>;\n"
	"\tld.param.u64 %rd1, [a];\n"
	"\tmov.u32 %r1, %tid.x;\n"
	"\tand.b32 %r2, %r1, 31;\n"
	"\tmul.wide.u32 %rd2, %r2, 4096;\n"
	"\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tld.global.f32 %f1, [%rd3];\n"
	"\tadd.s64 %rd4, %rd3, 16777216;\n"
	"\tld.global.f32 %f2, [%rd4];\n"
	"\tret;\n}\n";

static void test_far_pages(struct mock *mk)
{
	struct ex_module *m = inline_ptx(far_pages_ptx);
	float *a = mock_alloc(mk, (16 << 20) + 32 * 4096, 0);
	struct pb p = { 0 };
	struct ex_result r;
	uint64_t before;

	put_ptr(&p, a);
	struct ex_launch l = mock_launch(mk, m, "far", p.b, 1, 1, 128, 1, 1);
	l.threads = 1;
	mk->shared_below = 1;
	before = mk->page_calls;
	is_int(run(&l, &r), EX_OK, "far pages: four warps read 32 pages and "
	       "the 32 16 MiB past them");
	is_int(mk->page_calls - before, 64, "far pages: page() once a page: "
	       "pages a power of two apart do not evict each other");
	mk->shared_below = 0;
	ex_module_free(m);
}

/* Chains. chase: n loads, each address the load before's value (a
 * pointer chase through zeros). pair: n steps of two loads of a[i] and
 * a[i + 1], then their sum: the second load does not wait for the first.
 * wait: warp 0 chases n loads, the block's warps meet at a barrier, then
 * warp 1 chases n loads. chase_cg: chase's loads with .cg (never from the
 * L1). scatter: n steps of each lane storing to a line of its own, then
 * loading it back (.cg) for the next step's store. */
static const char chains_ptx[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".visible .entry chase(.param .u64 a, .param .u32 n)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [a];\n\tld.param.u32 %r1, [n];\n"
	"\tmov.u32 %r2, 0;\n\tmov.u32 %r3, 0;\n"
	"L:\n\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tld.global.u32 %r2, [%rd3];\n"
	"\tadd.u32 %r3, %r3, 1;\n\tsetp.lt.u32 %p1, %r3, %r1;\n"
	"\t@%p1 bra L;\n\tret;\n}\n"
	".visible .entry pair(.param .u64 a, .param .u32 n)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<7>;\n\t.reg .b64 %rd<3>;\n"
	"\tld.param.u64 %rd1, [a];\n\tld.param.u32 %r1, [n];\n"
	"\tmov.u32 %r3, 0;\n\tmov.u32 %r6, 0;\n"
	"L:\n\tld.global.u32 %r4, [%rd1];\n\tld.global.u32 %r5, [%rd1+4];\n"
	"\tadd.u32 %r6, %r6, %r4;\n\tadd.u32 %r6, %r6, %r5;\n"
	"\tadd.u32 %r3, %r3, 1;\n\tsetp.lt.u32 %p1, %r3, %r1;\n"
	"\t@%p1 bra L;\n\tst.global.u32 [%rd1+8], %r6;\n\tret;\n}\n"
	".visible .entry wait(.param .u64 a, .param .u32 n)\n{\n"
	"\t.reg .pred %p<3>;\n\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [a];\n\tld.param.u32 %r1, [n];\n"
	"\tmov.u32 %r2, 0;\n\tmov.u32 %r3, 0;\n"
	"\tmov.u32 %r4, %tid.x;\n\tsetp.ge.u32 %p2, %r4, 32;\n"
	"\t@%p2 bra B;\n"
	"L:\n\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tld.global.u32 %r2, [%rd3];\n"
	"\tadd.u32 %r3, %r3, 1;\n\tsetp.lt.u32 %p1, %r3, %r1;\n"
	"\t@%p1 bra L;\n"
	"B:\n\tbar.sync 0;\n\t@!%p2 bra E;\n"
	"M:\n\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tld.global.u32 %r2, [%rd3];\n"
	"\tadd.u32 %r3, %r3, 1;\n\tsetp.lt.u32 %p1, %r3, %r1;\n"
	"\t@%p1 bra M;\n"
	"E:\n\tret;\n}\n"
	".visible .entry chase_cg(.param .u64 a, .param .u32 n)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [a];\n\tld.param.u32 %r1, [n];\n"
	"\tmov.u32 %r2, 0;\n\tmov.u32 %r3, 0;\n"
	"L:\n\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tld.global.cg.u32 %r2, [%rd3];\n"
	"\tadd.u32 %r3, %r3, 1;\n\tsetp.lt.u32 %p1, %r3, %r1;\n"
	"\t@%p1 bra L;\n\tret;\n}\n"
	".visible .entry scatter(.param .u64 a, .param .u32 n)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [a];\n\tld.param.u32 %r1, [n];\n"
	"\tmov.u32 %r4, %tid.x;\n\tmul.wide.u32 %rd2, %r4, 128;\n"
	"\tadd.s64 %rd3, %rd1, %rd2;\n\tmov.u32 %r3, 0;\n\tmov.u32 %r5, 0;\n"
	"L:\n\tst.global.u32 [%rd3], %r5;\n\tld.global.cg.u32 %r5, [%rd3];\n"
	"\tadd.u32 %r3, %r3, 1;\n\tsetp.lt.u32 %p1, %r3, %r1;\n"
	"\t@%p1 bra L;\n\tret;\n}\n";

static struct ex_launch chain_launch(struct mock *mk, struct ex_module *m,
				     const char *k, struct pb *p,
				     uint32_t blocks, uint32_t threads)
{
	struct ex_launch l = mock_launch(mk, m, k, p->b, blocks, 1, threads,
					 1, 1);

	l.threads = 1;
	l.latency[EX_LAT_ALU] = 4;
	l.latency[EX_LAT_SHARED] = 30;
	l.latency[EX_LAT_GLOBAL] = 300;
	return l;
}

static void test_chains(struct mock *mk)
{
	struct ex_module *m = inline_ptx(chains_ptx);
	uint32_t *a = mock_alloc(mk, 4096, 0);
	struct pb p = { 0 };
	struct ex_result r;
	struct ex_launch l;

	put_ptr(&p, a); put_u32(&p, 100);
	l = chain_launch(mk, m, "chase", &p, 1, 1);
	is_int(run(&l, &r), EX_OK, "chains: a chase of 100 loads runs");
	/* a step: the address's mul and add wait for the load before (300),
	 * then 4 cycles each; the last load's value waits for nobody */
	ok(r.chain_max >= 99 * 308 && r.chain_max <= 99 * 308 + 40,
	   "chains: each load waits for the one before: %llu cycles, "
	   "99 x 308 and the start", (unsigned long long)r.chain_max);
	is_int((int)r.chain_sum, (int)r.chain_max, "chains: one block: the "
	       "sum is its chain");
	l = chain_launch(mk, m, "chase", &p, 3, 1);
	is_int(run(&l, &r), EX_OK, "chains: three blocks of it");
	ok(r.chain_sum == 3 * r.chain_max && r.chain_max >= 99 * 308,
	   "chains: the blocks' sum is three of the longest");
	l.latency[EX_LAT_GLOBAL] = 0;
	l.latency[EX_LAT_ALU] = 0;
	l.latency[EX_LAT_SHARED] = 0;
	is_int(run(&l, &r), EX_OK, "chains: the same, no latencies given");
	ok(r.chain_max == 0 && r.chain_sum == 0, "chains: untimed: none");

	l = chain_launch(mk, m, "pair", &p, 1, 1);
	is_int(run(&l, &r), EX_OK, "chains: 100 pairs of loads run");
	/* a step: two loads a cycle apart, the first add 300 after the
	 * first load, the second 4 after it (the count's add, compare and
	 * branch issue while they wait): 305, where a second load waiting
	 * for the first would make it 605 */
	ok(r.chain_max >= 100 * 305 && r.chain_max <= 100 * 305 + 20,
	   "chains: the second load of a pair does not wait for the first: "
	   "%llu cycles", (unsigned long long)r.chain_max);

	l = chain_launch(mk, m, "wait", &p, 1, 64);
	is_int(run(&l, &r), EX_OK, "chains: a chase in warp 0, a barrier, a "
	       "chase in warp 1");
	ok(r.chain_max >= 198 * 308 && r.chain_max <= 198 * 308 + 80,
	   "chains: warp 1 leaves the barrier when warp 0 arrives: the "
	   "block's chain is both chases (%llu)",
	   (unsigned long long)r.chain_max);
	ex_module_free(m);
}

/* The SM's L1 and memory pipeline in a warp's chain. */
static void test_chains_l1(struct mock *mk)
{
	struct ex_module *m = inline_ptx(chains_ptx);
	uint32_t *a = mock_alloc(mk, 4096, 0);
	struct pb p = { 0 };
	struct ex_result r;
	struct ex_launch l;
	uint64_t one, four;

	memset(a, 0, 4096);
	put_ptr(&p, a); put_u32(&p, 100);
	l = chain_launch(mk, m, "chase", &p, 1, 1);
	l.l1_lines = 64;
	is_int(run(&l, &r), EX_OK, "l1: a chase of 100 loads of one line");
	/* the first load from the L2 (300), the 99 after from the L1 (30),
	 * each then the address's two steps (4 each) */
	ok(r.chain_max >= 300 + 98 * 38 && r.chain_max <= 300 + 98 * 38 + 40,
	   "l1: the first load brings the line in, the 99 after hit it: %llu "
	   "cycles, not 99 x 308", (unsigned long long)r.chain_max);
	l = chain_launch(mk, m, "chase_cg", &p, 1, 1);
	l.l1_lines = 64;
	is_int(run(&l, &r), EX_OK, "l1: the same chase with ld.global.cg");
	ok(r.chain_max >= 99 * 308 && r.chain_max <= 99 * 308 + 40,
	   "l1: .cg loads are served by the L2 each time (%llu cycles)",
	   (unsigned long long)r.chain_max);

	p = (struct pb){ 0 };
	put_ptr(&p, a); put_u32(&p, 100);
	l = chain_launch(mk, m, "scatter", &p, 1, 32);
	is_int(run(&l, &r), EX_OK, "lsu: 100 steps of a store and a load "
	       "over 32 lines");
	one = r.chain_max;
	/* a step: the store's 32 lines through the pipeline, then the
	 * load's 32, then its latency (299 after its last line); the last
	 * step's store waits for nothing after it */
	ok(one >= 99 * (64 + 299) && one <= 99 * (64 + 299) + 100,
	   "lsu: a step is the store's and the load's 32 lines each, then "
	   "the load's latency: %llu cycles", (unsigned long long)one);
	l.sm_warps = 4;
	is_int(run(&l, &r), EX_OK, "lsu: the same with 4 warps to an SM");
	four = r.chain_max;
	ok(four - one >= 99 * 3 * 64 && four - one <= 99 * 3 * 64 + 200,
	   "lsu: each line waits for the SM's 3 other warps' too: %llu "
	   "cycles more", (unsigned long long)(four - one));
	ex_module_free(m);
}

/* A ring of n 128-byte lines at a for chase_cg: each line's first word
 * is the index of the next's. */
static void ring_of(uint32_t *a, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		a[i * 32] = (i + 1) % n * 32;
}

/* The sectors the L2 never sees, counted apart for the model's caches:
 * those of loads the block's L1 held, of stores to the lines the warp's
 * last store wrote (its SM merges them); and a block's warps go through
 * their loops side by side, so one finds in the L1 the lines the other
 * just brought in. */
static void test_sectors_apart(struct mock *mk)
{
	struct ex_module *m = inline_ptx(chains_ptx);
	uint32_t *a = mock_alloc(mk, 128 * 128, 0);
	struct pb p = { 0 };
	struct ex_result r;
	struct ex_launch l;

	memset(a, 0, 128 * 128);
	put_ptr(&p, a); put_u32(&p, 100);
	l = chain_launch(mk, m, "chase", &p, 1, 1);
	l.l1_lines = 64;
	is_int(run(&l, &r), EX_OK, "apart: a chase of 100 loads of one line");
	is_int(r.sectors_read[0], 100, "apart: a sector each");
	is_int(r.l1_sectors[0], 99, "apart: the L1 served the 99 after the "
	       "first");
	l = chain_launch(mk, m, "chase_cg", &p, 1, 1);
	l.l1_lines = 64;
	is_int(run(&l, &r), EX_OK, "apart: the same with ld.global.cg");
	is_int(r.l1_sectors[0], 0, "apart: .cg: the L2 served them all");

	l = chain_launch(mk, m, "scatter", &p, 1, 32);
	is_int(run(&l, &r), EX_OK, "apart: 100 stores to the same 32 lines");
	is_int(r.sectors_written[0], 3200, "apart: 32 sectors each");
	is_int(r.merged_sectors[0], 99 * 32, "apart: the 99 after the first "
	       "went to the lines of the warp's store before: merged");
	l.latency[EX_LAT_GLOBAL] = 0;
	l.latency[EX_LAT_ALU] = 0;
	l.latency[EX_LAT_SHARED] = 0;
	is_int(run(&l, &r), EX_OK, "apart: the same, chains untimed");
	is_int(r.merged_sectors[0], 0, "apart: untimed: none counted apart");

	ring_of(a, 128);
	p = (struct pb){ 0 };
	put_ptr(&p, a); put_u32(&p, 512);
	l = chain_launch(mk, m, "chase", &p, 1, 64);
	l.l1_lines = 64;
	is_int(run(&l, &r), EX_OK, "apart: two warps each chase a ring of "
	       "128 lines four times round, an L1 of 64");
	is_int(r.sectors_read[0], 1024, "apart: 1,024 loads of a sector");
	ok(r.l1_sectors[0] >= 500 && r.l1_sectors[0] <= 600, "apart: the "
	   "second warp, a few steps behind the first, finds its lines in "
	   "the L1 (%llu hits), where one after the other it would find "
	   "none", (unsigned long long)r.l1_sectors[0]);
	ex_module_free(m);
}

/* The GPU's L2 (exec/l2.c): a chase (.cg, never the L1) through lines it
 * does not hold waits the DRAM's latency each hop and brings them in, so
 * the next launch's chase waits the L2's; a ring eight times the L2 is
 * gone by the time it comes round; a launch given no L2 takes every load
 * as the L2's; stores bring their lines in too. */
static void test_chains_l2(struct mock *mk)
{
	struct ex_module *m = inline_ptx(chains_ptx);
	uint32_t *a = mock_alloc(mk, 4096 * 128, 0);
	uint32_t *b = mock_alloc(mk, 64 * 128, 0);
	struct ex_l2 *l2 = ex_l2_new(64 << 10);   /* 512 lines, 64 sets */
	struct pb p = { 0 };
	struct ex_result r;
	struct ex_launch l;

	ok(ex_l2_new(0) == NULL && ex_l2_new(1023) == NULL,
	   "l2: none holds less than a set of lines");
	if (!ok(l2 && ex_l2_bytes(l2) == 64 << 10, "l2: one of 64 KiB"))
		return;
	ring_of(a, 16);
	put_ptr(&p, a); put_u32(&p, 16);
	l = chain_launch(mk, m, "chase_cg", &p, 1, 1);
	l.latency[EX_LAT_DRAM] = 700;
	l.l2 = l2;
	is_int(run(&l, &r), EX_OK, "l2: a chase of 16 lines");
	/* each hop the load's latency, then the address's two steps (4
	 * each); the last load's value waits for nobody */
	ok(r.chain_max >= 15 * 708 && r.chain_max <= 15 * 708 + 40,
	   "l2: lines it does not hold: the DRAM's latency each (%llu "
	   "cycles)", (unsigned long long)r.chain_max);
	is_int(run(&l, &r), EX_OK, "l2: the same chase again");
	ok(r.chain_max >= 15 * 308 && r.chain_max <= 15 * 308 + 40,
	   "l2: the last launch brought them in: the L2's latency each (%llu "
	   "cycles)", (unsigned long long)r.chain_max);

	ring_of(a, 4096);
	p = (struct pb){ 0 };
	put_ptr(&p, a); put_u32(&p, 4096);
	l = chain_launch(mk, m, "chase_cg", &p, 1, 1);
	l.latency[EX_LAT_DRAM] = 700;
	l.l2 = l2;
	run(&l, &r);
	is_int(run(&l, &r), EX_OK, "l2: a ring of 4,096 lines, twice");
	ok(r.chain_max >= 4095 * 700,
	   "l2: eight times the L2: the second round misses it too (%llu "
	   "cycles)", (unsigned long long)r.chain_max);
	l.l2 = NULL;
	is_int(run(&l, &r), EX_OK, "l2: the same with no L2");
	ok(r.chain_max >= 4095 * 308 && r.chain_max <= 4095 * 308 + 40,
	   "l2: none given: every load is the L2's (%llu cycles)",
	   (unsigned long long)r.chain_max);

	p = (struct pb){ 0 };
	put_ptr(&p, b); put_u32(&p, 1);
	l = chain_launch(mk, m, "scatter", &p, 1, 32);
	l.l2 = l2;
	is_int(run(&l, &r), EX_OK, "l2: a store to 32 lines, each loaded back");
	ok(ex_l2_holds(l2, ((uintptr_t)b >> 7) + 0) &&
	   ex_l2_holds(l2, ((uintptr_t)b >> 7) + 31) &&
	   !ex_l2_holds(l2, ((uintptr_t)b >> 7) + 32),
	   "l2: it holds the 32 lines the warp touched, not the next");
	ex_l2_free(l2);
	ex_module_free(m);
}

/* One warp gathers from a page in no order: lane l reads the first word
 * of sector secs[l] of a (idx from place 1, so a's counts stand alone). */
static const char gather_ptx[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".visible .entry gather(.param .u64 a, .param .u64 idx, "
	".param .u64 out)\n{\n"
	"\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<8>;\n"
	"\tld.param.u64 %rd1, [a];\n\tld.param.u64 %rd2, [idx];\n"
	"\tld.param.u64 %rd3, [out];\n\tmov.u32 %r1, %tid.x;\n"
	"\tmul.wide.u32 %rd4, %r1, 4;\n\tadd.s64 %rd5, %rd2, %rd4;\n"
	"\tld.global.u32 %r2, [%rd5];\n\tmul.wide.u32 %rd6, %r2, 32;\n"
	"\tadd.s64 %rd6, %rd1, %rd6;\n\tld.global.u32 %r3, [%rd6];\n"
	"\tadd.s64 %rd7, %rd3, %rd4;\n\tst.global.u32 [%rd7], %r3;\n"
	"\tret;\n}\n";

/* A warp's gather in no order counts what it moves as a coalesced
 * access does: each distinct sector once, each 64-byte unit once, and a
 * request for each run of sectors one after another. */
static void test_gather_sectors(struct mock *mk)
{
	static const uint32_t secs[32] = {
		5, 4, 3, 2, 1, 0, 10, 9, 12, 12, 12, 20, 21, 30, 31, 32,
		63, 62, 64, 65, 100, 101, 102, 127, 126, 0, 1, 2, 3, 50, 51, 52
	};
	struct ex_module *m = inline_ptx(gather_ptx);
	uint32_t *a = mock_alloc(mk, 4096, 0), *idx = mock_alloc(mk, 128, 1);
	uint32_t *out = mock_alloc(mk, 128, 2);
	struct ex_result r;
	struct ex_launch l;
	struct pb p = { 0 };
	int bad = 0;

	for (uint32_t i = 0; i < 1024; i++)
		a[i] = i;
	memcpy(idx, secs, sizeof secs);
	put_ptr(&p, a); put_ptr(&p, idx); put_ptr(&p, out);
	l = mock_launch(mk, m, "gather", p.b, 1, 1, 32, 1, 1);
	is_int(run(&l, &r), EX_OK, "gather: a warp reads 32 sectors of a "
	       "page in no order");
	for (int i = 0; i < 32; i++)
		bad += out[i] != secs[i] * 8;
	is_int(bad, 0, "gather: each lane read its own word");
	is_int(r.sectors_read[0], 26, "gather: 26 distinct sectors, each "
	       "once (five lanes come back to one read before)");
	is_int(r.atoms[0], 16, "gather: in 16 DRAM units");
	is_int(r.read_requests[0], 9, "gather: 9 runs of sectors one after "
	       "another, a request each");

	/* the SM's pipeline takes a line once, however the lanes come to
	 * it: lanes alternating between two lines cost what the same lanes
	 * in order do, with or without an L2 */
	for (int l2 = 0; l2 < 2; l2++) {
		struct ex_l2 *c = l2 ? ex_l2_new(64 << 10) : NULL;
		uint64_t alt, sorted;

		for (int i = 0; i < 32; i++)
			idx[i] = (uint32_t)(i & 1) * 4;
		l = chain_launch(mk, m, "gather", &p, 1, 32);
		l.l2 = c;
		l.latency[EX_LAT_DRAM] = 300;
		run(&l, &r);   /* the second of each, the L2 warm */
		run(&l, &r);
		alt = r.chain_max;
		for (int i = 0; i < 32; i++)
			idx[i] = (uint32_t)(i >= 16) * 4;
		run(&l, &r);
		run(&l, &r);
		sorted = r.chain_max;
		is_int(alt, sorted, "gather: lanes alternating between two "
		       "lines pass the pipeline as two lines%s (%llu cycles)",
		       l2 ? ", an L2 given" : "", (unsigned long long)alt);
		ex_l2_free(c);
	}
	ex_module_free(m);
}

/* Two warps wait at different named barriers, each counting both: no
 * thread can ever arrive at the other's. */
static const char deadlock_ptx[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".visible .entry stuck()\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<2>;\n"
	"\tmov.u32 %r1, %tid.x;\n"
	"\tsetp.lt.u32 %p1, %r1, 32;\n"
	"\t@%p1 bar.sync 1, 64;\n"
	"\t@!%p1 bar.sync 2, 64;\n"
	"\tret;\n}\n";

/* Warp 0 produces into shared memory and arrives; warp 1 waits for it. */
static const char arrive_ptx[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".visible .entry handoff(.param .u64 out)\n{\n"
	"\t.shared .align 4 .b8 buf[128];\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<4>;\n"
	"\tmov.u32 %r1, %tid.x;\n"
	"\tsetp.lt.u32 %p1, %r1, 32;\n"
	"\tand.b32 %r2, %r1, 31;\n"
	"\tshl.b32 %r3, %r2, 2;\n"
	"\tmov.u32 %r4, buf;\n"
	"\tadd.s32 %r4, %r4, %r3;\n"
	"\t@!%p1 bra $L__consumer;\n"
	"\tmul.lo.s32 %r5, %r2, 7;\n"
	"\tst.shared.u32 [%r4], %r5;\n"
	"\tbar.arrive 1, 64;\n"
	"\tret;\n"
	"$L__consumer:\n"
	"\tbar.sync 1, 64;\n"
	"\tld.shared.u32 %r5, [%r4];\n"
	"\tld.param.u64 %rd1, [out];\n"
	"\tmul.wide.u32 %rd2, %r2, 4;\n"
	"\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tst.global.u32 [%rd3], %r5;\n"
	"\tret;\n}\n";

/* warpSize, as nvcc writes it: PTX's predefined constant WARP_SZ. */
static const char warpsz_ptx[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".visible .entry warpsz(.param .u64 out)\n{\n"
	"\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n"
	"\tmov.u32 %r1, WARP_SZ;\n"
	"\tadd.s32 %r2, %r1, 1;\n"
	"\tld.param.u64 %rd1, [out];\n"
	"\tst.global.u32 [%rd1], %r2;\n"
	"\tret;\n}\n";

static void test_warp_size(struct mock *mk)
{
	struct ex_module *m = inline_ptx(warpsz_ptx);
	int *out = mock_alloc(mk, 4, 0);
	struct ex_result r;
	struct pb q = { 0 };

	if (!ok(m != NULL, "WARP_SZ parses as the constant it is"))
		return;
	put_ptr(&q, out);
	struct ex_launch l = mock_launch(mk, m, "warpsz", q.b, 1, 1, 1, 1, 1);
	is_int(run(&l, &r), EX_OK, "a kernel reading WARP_SZ runs");
	is_int(*out, 33, "WARP_SZ is 32");
	ex_module_free(m);
}

static void test_named_barriers(struct mock *mk)
{
	struct ex_module *m = inline_ptx(deadlock_ptx), *h = inline_ptx(arrive_ptx);
	struct ex_result r;
	int *out = mock_alloc(mk, 32 * 4, 0), bad = 0;
	struct pb q = { 0 };

	if (!ok(m && h, "two hand-written kernels of named barriers parse"))
		goto out;
	struct ex_launch l = mock_launch(mk, m, "stuck", NULL, 1, 1, 64, 1, 1);
	is_int(ex_launch_run(&l, &r), EX_LAUNCH_FAILED,
	       "warps waiting at barriers no thread can complete: the launch fails");
	ok(strstr(r.message, "can never complete") != NULL, "its message says why: %s",
	   r.message);
	put_ptr(&q, out);
	l = mock_launch(mk, h, "handoff", q.b, 1, 1, 64, 1, 1);
	is_int(run(&l, &r), EX_OK, "bar.arrive by a producer warp, bar.sync by a consumer");
	for (int t = 0; t < 32; t++)
		bad += out[t] != t * 7;
	is_int(bad, 0, "the consumer read what the producer wrote before arriving");
out:
	ex_module_free(m);
	ex_module_free(h);
}

/* The reserved shared region, as cooperative groups reach it (nvcc 13's
 * CUDA 13 headers write it for a multi-warp tile): a generic pointer made
 * from %reserved_smem_offset_1, each of 72 threads storing a word there,
 * while the kernel's own variable (after the region) keeps its value. */
static const char reserved_ptx[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".shared .align 4 .b8 own[16];\n"
	".visible .entry reserved(.param .u64 out)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<8>;\n"
	"\tld.param.u64 %rd1, [out];\n"
	"\tmov.u32 %r1, %tid.x;\n"
	"\tsetp.ne.u32 %p1, %r1, 0;\n"
	"\t@%p1 bra $L__fill;\n"
	"\tmov.u32 %r2, 0x77;\n"
	"\tst.shared.u32 [own], %r2;\n"
	"$L__fill:\n"
	"\tbar.sync 0;\n"
	"\tmov.u32 %r3, %reserved_smem_offset_1;\n"
	"\tcvt.u64.u32 %rd2, %r3;\n"
	"\tcvta.shared.u64 %rd3, %rd2;\n"
	"\tmul.wide.u32 %rd4, %r1, 4;\n"
	"\tadd.s64 %rd5, %rd3, %rd4;\n"
	"\tadd.s32 %r4, %r1, 1;\n"
	"\tst.u32 [%rd5], %r4;\n"
	"\tbar.sync 0;\n"
	"\t@%p1 bra $L__done;\n"
	"\tmov.u32 %r5, 0;\n"
	"\tmov.u32 %r6, 0;\n"
	"$L__sum:\n"
	"\tmul.wide.u32 %rd4, %r6, 4;\n"
	"\tadd.s64 %rd5, %rd3, %rd4;\n"
	"\tld.u32 %r7, [%rd5];\n"
	"\tadd.s32 %r5, %r5, %r7;\n"
	"\tadd.s32 %r6, %r6, 1;\n"
	"\tsetp.lt.u32 %p1, %r6, 72;\n"
	"\t@%p1 bra $L__sum;\n"
	"\tst.global.u32 [%rd1], %r5;\n"
	"\tld.shared.u32 %r8, [own];\n"
	"\tst.global.u32 [%rd1+4], %r8;\n"
	"\tmov.u32 %r9, own;\n"
	"\tst.global.u32 [%rd1+8], %r9;\n"
	"\tmov.u32 %r10, %reserved_smem_offset_begin;\n"
	"\tst.global.u32 [%rd1+12], %r10;\n"
	"\tmov.u32 %r11, %reserved_smem_offset_end;\n"
	"\tst.global.u32 [%rd1+16], %r11;\n"
	"\tmov.u32 %r12, %reserved_smem_offset_cap;\n"
	"\tst.global.u32 [%rd1+20], %r12;\n"
	"\tmov.u32 %r13, %reserved_smem_offset_0;\n"
	"\tst.global.u32 [%rd1+24], %r13;\n"
	"\tmov.u32 %r13, %total_smem_size;\n"
	"\tst.global.u32 [%rd1+28], %r13;\n"
	"\tmov.u32 %r13, %aggr_smem_size;\n"
	"\tst.global.u32 [%rd1+32], %r13;\n"
	"$L__done:\n"
	"\tret;\n}\n";

static void test_reserved_shared(struct mock *mk)
{
	struct ex_module *m = inline_ptx(reserved_ptx);
	uint32_t *out = mock_alloc(mk, 9 * 4, 0);
	struct ex_result r;
	struct pb q = { 0 };

	if (!ok(m != NULL, "the %%reserved_smem_offset_* registers parse"))
		return;
	put_ptr(&q, out);
	struct ex_launch l = mock_launch(mk, m, "reserved", q.b, 1, 1, 72, 1, 1);
	l.dynamic_shared_bytes = 100;
	is_int(run(&l, &r), EX_OK, "72 threads store into the reserved region through a generic pointer");
	is_int(out[0], 72 * 73 / 2, "each thread's word is there after the barrier");
	is_int(out[1], 0x77, "the kernel's own variable lies after the region, untouched");
	is_int(out[2], 1024, "its shared address is 1024, after the 1 KiB region, as on an H200");
	is_int(out[3], 0, "%%reserved_smem_offset_begin is 0");
	is_int(out[4], 288, "%%reserved_smem_offset_end is 288");
	is_int(out[5], 1024, "%%reserved_smem_offset_cap is 1024");
	is_int(out[6], 0, "%%reserved_smem_offset_0 is 0");
	is_int(out[7], 128, "%%total_smem_size: 16 + 100 bytes in 128-byte units");
	is_int(out[8], 1024 + 16 + 100, "%%aggr_smem_size: the region, the variable and the dynamic bytes");
	is_int(ex_module_kernel(m, l.kernel)->shared_static_bytes, 16,
	       "the kernel's static shared size leaves the region out");
	ex_module_free(m);
}

/* Warp 0 spins on a shared word until warp 1 sets it, with no barrier
 * between them, as cooperative groups' multi-warp tiles wait. */
static const char spin_ptx[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".visible .entry spin(.param .u64 out)\n{\n"
	"\t.shared .align 4 .u32 flag;\n"
	"\t.reg .pred %p<3>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<2>;\n"
	"\tmov.u32 %r1, %tid.x;\n"
	"\tsetp.lt.u32 %p1, %r1, 32;\n"
	"\t@!%p1 bra $L__set;\n"
	"$L__wait:\n"
	"\tld.volatile.shared.u32 %r2, [flag];\n"
	"\tsetp.eq.u32 %p2, %r2, 0;\n"
	"\t@%p2 bra $L__wait;\n"
	"\tld.param.u64 %rd1, [out];\n"
	"\tst.global.u32 [%rd1], %r2;\n"
	"\tret;\n"
	"$L__set:\n"
	"\tsetp.ne.u32 %p2, %r1, 32;\n"
	"\t@%p2 ret;\n"
	"\tmov.u32 %r3, 42;\n"
	"\tst.volatile.shared.u32 [flag], %r3;\n"
	"\tret;\n}\n";

static void test_spin(struct mock *mk)
{
	struct ex_module *m = inline_ptx(spin_ptx);
	uint32_t *out = mock_alloc(mk, 4, 0);
	struct ex_result r;
	struct pb q = { 0 };

	if (!ok(m != NULL, "a kernel of two warps, one spinning on the other, parses"))
		return;
	put_ptr(&q, out);
	struct ex_launch l = mock_launch(mk, m, "spin", q.b, 1, 1, 64, 1, 1);
	alarm(120);     /* a warp that never gives way spins forever */
	is_int(run(&l, &r), EX_OK, "warp 0 spins until warp 1 sets the word: the warps interleave");
	alarm(0);
	is_int(*out, 42, "warp 0 read warp 1's store");
	ex_module_free(m);
}

static void test_grid_sync(struct mock *mk, struct ex_module *m)
{
	int blocks = 12, threads = 96, n = blocks * threads, rounds = 3, bad = 0;
	int *p = mock_alloc(mk, n * 4, 0), *q = mock_alloc(mk, n * 4, 0);
	struct pb a = { 0 };
	struct ex_result r;

	put_ptr(&a, p); put_ptr(&a, q); put_u32(&a, (uint32_t)rounds);
	struct ex_launch l = mock_launch(mk, m, "gridSync", a.b, blocks, 1,
					 threads, 1, 1);
	ok(ex_module_kernel(m, l.kernel)->uses_grid_sync,
	   "a kernel reading %%envreg says it uses grid sync");
	l.cooperative = true;
	is_int(run(&l, &r), EX_OK, "a cooperative launch of %d blocks syncs its grid %d times",
	       blocks, rounds * 2);
	for (int i = 0; i < n; i++) {
		int want = 0;
		for (int k = 0; k < rounds; k++)
			want += ((i + threads * 3) % n) * 3 + k;
		bad += q[i] != want;
	}
	is_int(bad, 0, "each block read what the others wrote before each sync");
	l.cooperative = false;
	is_int(ex_launch_run(&l, &r), EX_TRAP,
	       "grid.sync() in a launch that is not cooperative traps, as on the device");
}

/* Whole warps at one address and in runs of each element size (the
 * shapes the engine moves without a per-lane walk): the values, sign and
 * zero extension, and the bytes, sectors, DRAM units and requests
 * counted as lane by lane; on the baseline loop and the AVX2 build. */
static void test_spans(struct mock *mk, struct ex_module *m, bool baseline)
{
	const char *on = baseline ? "the baseline loop" :
			 "the AVX2 build where the host has it";
	enum { N = 1024, B = 256 };
	int *one = mock_alloc(mk, 4, 1), *last = mock_alloc(mk, 4, 3), bad = 0;
	int8_t *c = mock_alloc(mk, N, 0);
	int16_t *h = mock_alloc(mk, N * 2, 0);
	uint8_t *u = mock_alloc(mk, N, 0);
	int64_t *q = mock_alloc(mk, N * 8, 0), *out = mock_alloc(mk, N * 8, 2);
	struct pb p = { 0 };
	struct ex_result r;

	*one = 7;
	*last = -1;
	for (int t = 0; t < N; t++) {
		c[t] = (int8_t)(t % 200 - 100);
		h[t] = (int16_t)(t * 37 % 2000 - 1000);
		u[t] = (uint8_t)(200 + t % 50);
		q[t] = -(int64_t)t * 3000000000ll;
	}
	put_ptr(&p, one); put_ptr(&p, c); put_ptr(&p, h); put_ptr(&p, u);
	put_ptr(&p, q); put_ptr(&p, out); put_ptr(&p, last);
	struct ex_launch l = mock_launch(mk, m, "spans", p.b, N / B, 1, B, 1, 1);
	l.baseline = baseline;
	is_int(run(&l, &r), EX_OK, "spans on %s: %d threads in %d blocks",
	       on, N, N / B);
	for (int t = 0; t < N; t++) {
		int mirror = t / B * B + B - 1 - t % B;
		bad += out[t] != 7000000ll + c[t] * 10000ll + h[mirror] * 10ll +
		       u[t] + q[t];
	}
	is_int(bad, 0, "each sum is the host's: a word every lane read, "
	       "signed bytes and shorts extended, unsigned bytes not, 8-byte "
	       "runs, shared memory written in a run and read reversed");
	is_int(*last % 32, 31, "every lane storing to one word leaves the "
	       "last lane's value, as stores in lane order do");
	is_int(r.bytes_read[1], N * 4ull, "a word every lane reads counts "
	       "each lane's 4 bytes");
	is_int(r.sectors_read[1], N / 32, "... one sector a warp");
	is_int(r.atoms[1], N / 32, "... one DRAM unit a warp");
	is_int(r.read_requests[1], N / 32, "... one request a warp");
	is_int(r.bytes_read[0], N * (1ull + 2 + 1 + 8), "the runs' bytes");
	is_int(r.bytes_written[2], N * 8ull, "an 8-byte run's writes");
	is_int(r.sectors_written[2], N * 8 / 32, "... each sector once");
	is_int(r.atoms[2], N * 8 / 64, "... each DRAM unit once");
	is_int(r.read_requests[2], 0, "... and no read request");
	is_int(r.bytes_written[3], N * 4ull, "a word every lane writes counts "
	       "each lane's bytes");
	is_int(r.sectors_written[3], N / 32, "... one sector a warp");
	is_int(r.atoms[3], N / 32, "... one DRAM unit a warp");
}

int main(void)
{
	struct mock *mk = calloc(1, sizeof *mk);
	struct ex_module *s, *c, *w;

	mock_init(mk);
	s = load("samples", mk);
	c = load("control", mk);
	w = load("warps", mk);
	if (s) {
		test_vector_add(mk, s);
		test_saxpy(mk, s);
		test_reduce(mk, s);
		test_histogram(mk, s);
		test_transpose(mk, s);
		test_matmul(mk, s);
	}
	if (c) {
		test_diverge(mk, c);
		test_barriers(mk, c);
		test_calls(mk, c);
		test_memories(mk, c);
		test_spans(mk, c, false);
		test_spans(mk, c, true);
		test_special(mk, c);
		test_faults(mk, c);
		test_pages(mk, c);
		test_generation(mk, c);
		test_shared_pages(mk, c);
		test_far_pages(mk);
		test_chains(mk);
		test_chains_l1(mk);
		test_sectors_apart(mk);
		test_chains_l2(mk);
		test_gather_sectors(mk);
		test_returns(mk, c);
		test_grid_sync(mk, c);
	}
	if (w) {
		test_warps(mk, w);
		test_atomics(mk, w);
	}
	test_named_barriers(mk);
	test_warp_size(mk);
	test_reserved_shared(mk);
	test_spin(mk);
	ex_module_free(s);
	ex_module_free(c);
	ex_module_free(w);
	mock_free(mk);
	free(mk);
	return done_testing();
}
