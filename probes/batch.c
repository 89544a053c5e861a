/* The batches, location pools and managed pools past what families.c
 * asked: which error a call answers when two are wrong at once (the order
 * of the checks), whether a refused batch leaves its valid operations
 * undone, where each operation of a prefetch batch goes by the location
 * index rules, what a discard does to residency and to the bytes, copy
 * batches' failure index, host and host-NUMA location pools, the managed
 * pools' attributes and blocks, and cuMemBatchDecompressAsync on a GPU
 * without a decompression engine. Run `batch risky decompress_null_index`
 * for the one case that may fault inside the driver. */
#include "common.h"
#include <dlfcn.h>

#define TRY(r, label, call) do { \
	int _s = sigsetjmp(g_jmp, 1); \
	if (_s) { \
		P("%s: SIGNAL %d\n", label, _s); \
	} else { \
		g_jmp_armed = 1; \
		r = (call); \
		g_jmp_armed = 0; \
		P("%s: %s\n", label, en(r)); \
	} \
} while (0)

static CUmemLocation loc(CUmemLocationType t, int id)
{
	CUmemLocation l = { .type = t, .id = id };
	return l;
}

/* An export by name: the _ptsz forms are not declared without
 * per-thread default streams. */
static void *fn(const char *name)
{
	return dlsym(RTLD_DEFAULT, name);
}
typedef CUresult (*pb_fn)(CUdeviceptr *, size_t *, size_t, CUmemLocation *,
			  size_t *, size_t, unsigned long long, CUstream);
typedef CUresult (*db_fn)(CUdeviceptr *, size_t *, size_t, unsigned long long,
			  CUstream);
typedef CUresult (*cb_fn)(CUdeviceptr *, CUdeviceptr *, size_t *, size_t,
			  CUmemcpyAttributes *, size_t *, size_t, CUstream);
typedef CUresult (*dc_fn)(CUmemDecompressParams *, size_t, unsigned int,
			  size_t *, CUstream);

static long long free_mem(void)
{
	size_t f = 0, t = 0;
	cuMemGetInfo(&f, &t);
	return (long long)f;
}

/* The last prefetch location of [p, p+n) as "type:id"-free text: the
 * device ordinal the attribute gives (-1 host, -2 never/mixed). */
static int lastloc(CUdeviceptr p, size_t n)
{
	int v = -99;
	cuMemRangeGetAttribute(&v, 4, CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, p, n);
	return v;
}

static const char *mib_delta(long long before, long long after)
{
	static char b[64];
	snprintf(b, sizeof b, "%lldMiB", (before - after) / (long long)MiB);
	return b;
}

static void procaddr(void)
{
	static const struct { const char *n; int v; int f; } q[] = {
		{ "cuMemPrefetchBatchAsync", 13000, 0 },
		{ "cuMemPrefetchBatchAsync", 13000, 2 },
		{ "cuMemDiscardBatchAsync", 12090, 0 },
		{ "cuMemDiscardBatchAsync", 13000, 0 },
		{ "cuMemDiscardBatchAsync", 13000, 2 },
		{ "cuMemDiscardAndPrefetchBatchAsync", 13000, 0 },
		{ "cuMemDiscardAndPrefetchBatchAsync", 13000, 2 },
		{ "cuMemcpyBatchAsync", 12070, 0 },
		{ "cuMemcpyBatchAsync", 12080, 2 },
		{ "cuMemcpyBatchAsync", 12090, 0 },
		{ "cuMemBatchDecompressAsync", 12050, 0 },
		{ "cuMemBatchDecompressAsync", 12060, 0 },
		{ "cuMemBatchDecompressAsync", 13000, 0 },
		{ "cuMemBatchDecompressAsync", 13000, 2 },
		{ "cuMemGetMemPool", 13000, 0 },
		{ "cuMemSetMemPool", 13000, 0 },
		{ "cuMemSetMemPool", 12090, 0 },
	};
	void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
	for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
		void *p = (void *)1;
		CUdriverProcAddressQueryResult st = (CUdriverProcAddressQueryResult)-1;
		CUresult r = cuGetProcAddress_v2(q[i].n, &p, q[i].v, q[i].f, &st);
		const char *is = p == (void *)1 ? "untouched" : p ? "other" : "null";
		static const char *suf[] = { "", "_ptsz", "_v2", "_v2_ptsz", NULL };
		char b[128];
		for (int k = 0; p && p != (void *)1 && suf[k]; k++) {
			snprintf(b, sizeof b, "%s%s", q[i].n, suf[k]);
			if (dlsym(lib ? lib : RTLD_DEFAULT, b) == p) {
				is = b;
				break;
			}
		}
		P("batch.procaddr.%s_%d_%d: %s status=%d is=%s\n", q[i].n, q[i].v,
		  q[i].f, en(r), (int)st, is);
	}
}

/* ---------------------------------------------------------------- prefetch */

enum { N = 4 };
static CUdeviceptr g_m, g_d, ds[N];
static size_t sz[N], ix[N] = { 0, 2, 3, 0 };
static CUmemLocation ls[N];
static CUstream g_s;

static void prefetch_order(void)
{
	CUresult r;
	size_t ix1[2] = { 1, 2 }, ixo[2] = { 0, 4 };
	CUdeviceptr dd[2] = { 0, 0 };
	size_t dsz[2] = { 2 * MiB, 2 * MiB }, zs[2] = { 2 * MiB, 0 };
	CUmemLocation bad[2] = { loc(CU_MEM_LOCATION_TYPE_DEVICE, 0),
				 loc(CU_MEM_LOCATION_TYPE_DEVICE, 99) };
	dd[0] = g_m;
	dd[1] = g_d;
#define PB(name, ...) TRY(r, "batch.prefetch." name, cuMemPrefetchBatchAsync(__VA_ARGS__))
	/* two wrong at once */
	PB("count0+flags1", ds, sz, 0, ls, ix, 1, 1, g_s);
	PB("count0+legacy", ds, sz, 0, ls, ix, 1, 0, CU_STREAM_LEGACY);
	PB("count0+null_dptrs", NULL, sz, 0, ls, ix, 1, 0, g_s);
	PB("count0+numlocs0", ds, sz, 0, ls, ix, 0, 0, g_s);
	PB("flags1+legacy", ds, sz, N, ls, ix, 1, 1, CU_STREAM_LEGACY);
	PB("flags1+null_dptrs", NULL, sz, N, ls, ix, 1, 1, g_s);
	PB("flags1+numlocs0", ds, sz, N, ls, ix, 0, 1, g_s);
	PB("legacy+null_dptrs", NULL, sz, N, ls, ix, 1, 0, CU_STREAM_LEGACY);
	PB("legacy+numlocs0", ds, sz, N, ls, ix, 0, 0, CU_STREAM_LEGACY);
	PB("legacy+first_idx_1", ds, sz, N, ls, ix1, 1, 0, CU_STREAM_LEGACY);
	PB("legacy+device_mem", dd, dsz, 2, ls, ix, 1, 0, CU_STREAM_LEGACY);
	PB("numlocs0+null_dptrs", NULL, sz, N, ls, ix, 0, 0, g_s);
	PB("null_locs+numlocs0", ds, sz, N, NULL, ix, 0, 0, g_s);
	PB("first_idx_1+null_dptrs", NULL, sz, N, ls, ix1, 1, 0, g_s);
	PB("first_idx_1+device_mem", dd, dsz, 2, ls, ix1, 1, 0, g_s);
	PB("idx_past_count+device_mem", dd, dsz, 2, ls, ixo, 2, 0, g_s);
	PB("bad_loc1+device_mem0", dd + 1, dsz, 1, bad + 1, ix, 1, 0, g_s);
	PB("bad_loc+first_idx_1", ds, sz, N, bad + 1, ix1, 1, 0, g_s);
	PB("more_locs+device_mem", dd, dsz, 1, ls, ix, 2, 0, g_s);
	PB("more_locs+first_idx_1", ds, sz, 1, ls, ix1, 2, 0, g_s);
	PB("null_sizes+null_dptrs", NULL, NULL, N, ls, ix, 1, 0, g_s);
	PB("null_idxs+null_locs", ds, sz, N, NULL, NULL, 1, 0, g_s);
	/* one operation wrong after a good one: is the good one done? */
	cuStreamSynchronize(g_s);
	CUmemLocation hl = loc(CU_MEM_LOCATION_TYPE_HOST, 0);
	size_t one[1] = { 0 };
	CUdeviceptr first[1] = { g_m };
	size_t fsz[1] = { 2 * MiB };
	cuMemPrefetchBatchAsync(first, fsz, 1, &hl, one, 1, 0, g_s);
	cuStreamSynchronize(g_s);
	PB("op1_device_mem", dd, dsz, 2, ls, ix, 1, 0, g_s);
	cuStreamSynchronize(g_s);
	P("batch.prefetch.op1_device_mem.op0_lastloc: %d\n", lastloc(g_m, 2 * MiB));
	PB("op1_size0", ds, zs, 2, ls, ix, 1, 0, g_s);
	cuStreamSynchronize(g_s);
	P("batch.prefetch.op1_size0.op0_lastloc: %d\n", lastloc(g_m, 2 * MiB));
	size_t ix01[2] = { 0, 1 };
	PB("loc1_bad", ds, sz, 2, bad, ix01, 2, 0, g_s);
	cuStreamSynchronize(g_s);
	P("batch.prefetch.loc1_bad.op0_lastloc: %d\n", lastloc(g_m, 2 * MiB));
	PB("op0_device_mem+loc0_bad", dd, dsz, 2, bad + 1, ix, 1, 0, g_s);
	PB("op1_size0+loc1_bad", ds, zs, 2, bad, ix01, 2, 0, g_s);
	PB("op1_device_mem+loc0_bad", dd, dsz, 2, bad + 1, ix, 1, 0, g_s);
}

/* Which location each operation takes: locs[i] applies from
 * prefetchLocIdxs[i] until the next index. */
static void prefetch_indices(void)
{
	CUresult r;
	CUmemLocation two[3] = { loc(CU_MEM_LOCATION_TYPE_DEVICE, 0),
				 loc(CU_MEM_LOCATION_TYPE_HOST, 0),
				 loc(CU_MEM_LOCATION_TYPE_DEVICE, 0) };
	size_t i02[2] = { 0, 2 };
	PB("idx_0_2", ds, sz, N, two, i02, 2, 0, g_s);
	cuStreamSynchronize(g_s);
	P("batch.prefetch.idx_0_2.lastlocs: %d %d %d %d\n", lastloc(ds[0], sz[0]),
	  lastloc(ds[1], sz[1]), lastloc(ds[2], sz[2]), lastloc(ds[3], sz[3]));
	size_t i031[3] = { 0, 3, 1 };
	CUmemLocation h3[3] = { loc(CU_MEM_LOCATION_TYPE_HOST, 0),
				loc(CU_MEM_LOCATION_TYPE_DEVICE, 0),
				loc(CU_MEM_LOCATION_TYPE_DEVICE, 0) };
	PB("idx_0_3_1", ds, sz, N, h3, i031, 3, 0, g_s);
	cuStreamSynchronize(g_s);
	P("batch.prefetch.idx_0_3_1.lastlocs: %d %d %d %d\n", lastloc(ds[0], sz[0]),
	  lastloc(ds[1], sz[1]), lastloc(ds[2], sz[2]), lastloc(ds[3], sz[3]));
	size_t i00[2] = { 0, 0 };
	CUmemLocation dh[2] = { loc(CU_MEM_LOCATION_TYPE_DEVICE, 0),
				loc(CU_MEM_LOCATION_TYPE_HOST, 0) };
	PB("idx_0_0", ds, sz, N, dh, i00, 2, 0, g_s);
	cuStreamSynchronize(g_s);
	P("batch.prefetch.idx_0_0.lastlocs: %d %d %d %d\n", lastloc(ds[0], sz[0]),
	  lastloc(ds[1], sz[1]), lastloc(ds[2], sz[2]), lastloc(ds[3], sz[3]));
	size_t i0n[2] = { 0, 3 };
	PB("idx_last_op", ds, sz, N, dh, i0n, 2, 0, g_s);
	cuStreamSynchronize(g_s);
	P("batch.prefetch.idx_last_op.lastlocs: %d %d %d %d\n", lastloc(ds[0], sz[0]),
	  lastloc(ds[1], sz[1]), lastloc(ds[2], sz[2]), lastloc(ds[3], sz[3]));
	/* overlapping operations, the same range twice, two allocations */
	CUdeviceptr ov[2] = { g_m, g_m + MiB };
	size_t ovs[2] = { 2 * MiB, 2 * MiB };
	PB("overlapping", ov, ovs, 2, ls, ix, 1, 0, g_s);
	CUmemLocation nc = loc(CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT, 0);
	PB("numa_current", ds, sz, 1, &nc, ix, 1, 0, g_s);
	cuStreamSynchronize(g_s);
	P("batch.prefetch.numa_current.lastloc: %d\n", lastloc(ds[0], sz[0]));
	TRY(r, "batch.prefetch.ptsz_null_stream", ((pb_fn)fn("cuMemPrefetchBatchAsync_ptsz"))(ds, sz, N, ls, ix, 1, 0, (CUstream)0));
	cuStreamSynchronize(g_s);
	/* residency: free memory drops by what a prefetch to the GPU brings */
	CUmemLocation h = loc(CU_MEM_LOCATION_TYPE_HOST, 0);
	PB("all_to_host", ds, sz, N, &h, ix, 1, 0, g_s);
	cuStreamSynchronize(g_s);
	long long b = free_mem();
	PB("all_to_gpu", ds, sz, N, ls, ix, 1, 0, g_s);
	cuStreamSynchronize(g_s);
	P("batch.prefetch.all_to_gpu.free_drop: %s\n", mib_delta(b, free_mem()));
}

static void discard(void)
{
	CUresult r;
	CUdeviceptr dd[2] = { g_m, g_d };
	size_t dsz[2] = { 2 * MiB, 2 * MiB };
#define DB(name, ...) TRY(r, "batch.discard." name, cuMemDiscardBatchAsync(__VA_ARGS__))
	DB("count0+flags1", ds, sz, 0, 1, g_s);
	DB("count0+legacy", ds, sz, 0, 0, CU_STREAM_LEGACY);
	DB("flags1+legacy", ds, sz, N, 1, CU_STREAM_LEGACY);
	DB("legacy+device_mem", dd, dsz, 2, 0, CU_STREAM_LEGACY);
	DB("flags1+null_dptrs", NULL, sz, N, 1, g_s);
	DB("null_sizes", ds, NULL, N, 0, g_s);
	DB("null_sizes+null_dptrs", NULL, NULL, N, 0, g_s);
	TRY(r, "batch.discard.ptsz_null_stream", ((db_fn)fn("cuMemDiscardBatchAsync_ptsz"))(ds, sz, 1, 0, (CUstream)0));
	cuStreamSynchronize(g_s);
	/* what a discard does to data on the GPU, on the host, never touched */
	memset((void *)g_m, 0x5a, 8 * MiB);
	CUmemLocation h = loc(CU_MEM_LOCATION_TYPE_HOST, 0);
	cuMemPrefetchBatchAsync(ds, sz, N, ls, ix, 1, 0, g_s);
	cuStreamSynchronize(g_s);
	long long b = free_mem();
	DB("gpu_resident", ds, sz, N, 0, g_s);
	cuStreamSynchronize(g_s);
	P("batch.discard.gpu_resident.free_rise: %s\n", mib_delta(free_mem(), b));
	P("batch.discard.gpu_resident.lastloc: %d\n", lastloc(g_m, 8 * MiB));
	uint32_t v = 0;
	cuMemcpyDtoH(&v, g_m + 4 * MiB, 4);
	P("batch.discard.gpu_resident.copy_read: %#x\n", v);
	int sig = 0;
	v = safe_read32((void *)(g_m + 6 * MiB), &sig);
	P("batch.discard.gpu_resident.cpu_read: %#x sig=%d\n", v, sig);
	cuMemPrefetchBatchAsync(ds, sz, N, &h, ix, 1, 0, g_s);
	cuStreamSynchronize(g_s);
	DB("host_resident", ds, sz, N, 0, g_s);
	cuStreamSynchronize(g_s);
	v = safe_read32((void *)g_m, &sig);
	P("batch.discard.host_resident.cpu_read: %#x sig=%d\n", v, sig);
	P("batch.discard.host_resident.lastloc: %d\n", lastloc(g_m, 8 * MiB));
	/* a write after a discard, then a prefetch: the new bytes move */
	*(volatile uint32_t *)g_m = 0x11223344;
	cuMemPrefetchBatchAsync(ds, sz, 1, ls, ix, 1, 0, g_s);
	cuStreamSynchronize(g_s);
	cuMemcpyDtoH(&v, g_m, 4);
	P("batch.discard.write_then_prefetch.copy_read: %#x\n", v);
	CUdeviceptr fresh;
	CK(cuMemAllocManaged(&fresh, 2 * MiB, CU_MEM_ATTACH_GLOBAL));
	CUdeviceptr fp[1] = { fresh };
	size_t fs[1] = { 2 * MiB };
	DB("never_touched", fp, fs, 1, 0, g_s);
	cuStreamSynchronize(g_s);
	P("batch.discard.never_touched.lastloc: %d\n", lastloc(fresh, 2 * MiB));
	/* one discard that is refused after a good one: is the good one done? */
	cuMemPrefetchBatchAsync(fp, fs, 1, ls, ix, 1, 0, g_s);
	cuStreamSynchronize(g_s);
	b = free_mem();
	CUdeviceptr mix[2] = { fresh, g_d };
	DB("op1_device_mem", mix, dsz, 2, 0, g_s);
	cuStreamSynchronize(g_s);
	P("batch.discard.op1_device_mem.free_rise: %s\n", mib_delta(free_mem(), b));
	/* a range attribute on a discarded range */
	DB("again", fp, fs, 1, 0, g_s);
	cuStreamSynchronize(g_s);
	int pref = -99;
	r = cuMemRangeGetAttribute(&pref, 4, CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, fresh, 2 * MiB);
	P("batch.discard.preferred_after: %s value=%d\n", en(r), pref);
	cuMemFree(fresh);
}

static void discard_prefetch(void)
{
	CUresult r;
	size_t ix1[2] = { 1, 2 }, ixo[2] = { 0, 4 };
	CUdeviceptr dd[2] = { g_m, g_d };
	size_t dsz[2] = { 2 * MiB, 2 * MiB };
	CUmemLocation bad = loc(CU_MEM_LOCATION_TYPE_DEVICE, 99);
	CUmemLocation h = loc(CU_MEM_LOCATION_TYPE_HOST, 0);
#define DP(name, ...) TRY(r, "batch.discard_prefetch." name, cuMemDiscardAndPrefetchBatchAsync(__VA_ARGS__))
	DP("legacy", ds, sz, N, ls, ix, 1, 0, CU_STREAM_LEGACY);
	DP("per_thread", ds, sz, N, ls, ix, 1, 0, CU_STREAM_PER_THREAD);
	DP("idx_past_count", ds, sz, N, ls, ixo, 2, 0, g_s);
	DP("more_locs_than_ops", ds, sz, 2, ls, ix, 3, 0, g_s);
	DP("null_dptrs", NULL, sz, N, ls, ix, 1, 0, g_s);
	DP("null_locs", ds, sz, N, NULL, ix, 1, 0, g_s);
	DP("null_idxs", ds, sz, N, ls, NULL, 1, 0, g_s);
	DP("bad_device", ds, sz, 1, &bad, ix, 1, 0, g_s);
	DP("host_numa", ds, sz, 1, &(CUmemLocation){ CU_MEM_LOCATION_TYPE_HOST_NUMA, 0 }, ix, 1, 0, g_s);
	DP("invalid_loc", ds, sz, 1, &(CUmemLocation){ CU_MEM_LOCATION_TYPE_INVALID, 0 }, ix, 1, 0, g_s);
	DP("size0", ds, (size_t[]){ 0 }, 1, ls, ix, 1, 0, g_s);
	DP("past_end", ds, (size_t[]){ 9 * MiB }, 1, ls, ix, 1, 0, g_s);
	DP("count0+flags1", ds, sz, 0, ls, ix, 1, 1, g_s);
	DP("flags1+legacy", ds, sz, N, ls, ix, 1, 1, CU_STREAM_LEGACY);
	DP("legacy+first_idx_1", ds, sz, N, ls, ix1, 1, 0, CU_STREAM_LEGACY);
	DP("first_idx_1+device_mem", dd, dsz, 2, ls, ix1, 1, 0, g_s);
	TRY(r, "batch.discard_prefetch.ptsz_null_stream", ((pb_fn)fn("cuMemDiscardAndPrefetchBatchAsync_ptsz"))(ds, sz, 1, ls, ix, 1, 0, (CUstream)0));
	cuStreamSynchronize(g_s);
	/* effect: from the host to the GPU, then GPU to the host */
	memset((void *)g_m, 0x6b, 8 * MiB);
	cuMemPrefetchBatchAsync(ds, sz, N, &h, ix, 1, 0, g_s);
	cuStreamSynchronize(g_s);
	long long b = free_mem();
	DP("to_gpu", ds, sz, N, ls, ix, 1, 0, g_s);
	cuStreamSynchronize(g_s);
	P("batch.discard_prefetch.to_gpu.free_drop: %s\n", mib_delta(b, free_mem()));
	P("batch.discard_prefetch.to_gpu.lastloc: %d\n", lastloc(g_m, 8 * MiB));
	uint32_t v = 0;
	cuMemcpyDtoH(&v, g_m, 4);
	P("batch.discard_prefetch.to_gpu.copy_read: %#x\n", v);
	b = free_mem();
	DP("to_host", ds, sz, N, &h, ix, 1, 0, g_s);
	cuStreamSynchronize(g_s);
	P("batch.discard_prefetch.to_host.free_rise: %s\n", mib_delta(free_mem(), b));
	P("batch.discard_prefetch.to_host.lastloc: %d\n", lastloc(g_m, 8 * MiB));
	int sig = 0;
	v = safe_read32((void *)(g_m + 4 * MiB), &sig);
	P("batch.discard_prefetch.to_host.cpu_read: %#x sig=%d\n", v, sig);
}

/* ---------------------------------------------------------------- copies */

static void memcpy_batch(void)
{
	CUresult r;
	CUdeviceptr d2, d3;
	CK(cuMemAlloc(&d2, 2 * MiB));
	CK(cuMemAlloc(&d3, 2 * MiB));
	char *hbuf = malloc(2 * MiB);
	memset(hbuf, 0x33, 2 * MiB);
	CUdeviceptr cd[2] = { g_d, d2 }, cs[2] = { (CUdeviceptr)hbuf, g_d };
	size_t csz[2] = { 1 * MiB, 1 * MiB }, aix[2] = { 0, 1 }, aix1[1] = { 1 };
	CUmemcpyAttributes at[2], bad[1];
	memset(at, 0, sizeof at);
	at[0].srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
	at[1] = at[0];
	memset(bad, 0, sizeof bad);
#define CB(name, ...) TRY(r, "batch.memcpy." name, cuMemcpyBatchAsync_v2(__VA_ARGS__))
	CB("count0+legacy", cd, cs, csz, 0, at, aix, 1, CU_STREAM_LEGACY);
	CB("count0+null_dsts", NULL, cs, csz, 0, at, aix, 1, g_s);
	CB("count0+numattrs0", cd, cs, csz, 0, at, aix, 0, g_s);
	CB("legacy+null_dsts", NULL, cs, csz, 2, at, aix, 1, CU_STREAM_LEGACY);
	CB("legacy+order_invalid", cd, cs, csz, 2, bad, aix, 1, CU_STREAM_LEGACY);
	CB("legacy+numattrs0", cd, cs, csz, 2, at, aix, 0, CU_STREAM_LEGACY);
	CB("numattrs0+null_dsts", NULL, cs, csz, 2, at, aix, 0, g_s);
	CB("null_srcs", cd, NULL, csz, 2, at, aix, 1, g_s);
	CB("null_sizes", cd, cs, NULL, 2, at, aix, 1, g_s);
	CB("null_idxs", cd, cs, csz, 2, at, NULL, 1, g_s);
	CB("first_idx_1+order_invalid", cd, cs, csz, 2, bad, aix1, 1, g_s);
	CB("more_attrs+order_invalid", cd, cs, csz, 1, bad, aix, 2, g_s);
	CB("order_invalid+size0", cd, cs, (size_t[]){ 0, MiB }, 2, bad, aix, 1, g_s);
	CB("op1_size0", cd, cs, (size_t[]){ MiB, 0 }, 2, at, aix, 1, g_s);
	TRY(r, "batch.memcpy.ptsz_null_stream", ((cb_fn)fn("cuMemcpyBatchAsync_v2_ptsz"))(cd, cs, csz, 2, at, aix, 1, (CUstream)0));
	cuStreamSynchronize(g_s);
	/* a refused batch: is its good first copy done? */
	cuMemsetD8(d3, 0, 2 * MiB);
	CUdeviceptr rd[2] = { d3, d2 }, rs[2] = { (CUdeviceptr)hbuf, g_d };
	CB("op1_past_end", rd, rs, (size_t[]){ MiB, 3 * MiB }, 2, at, aix, 1, g_s);
	cuStreamSynchronize(g_s);
	unsigned char c = 0xff;
	cuMemcpyDtoH(&c, d3, 1);
	P("batch.memcpy.op1_past_end.op0_done: %s\n", c == 0x33 ? "yes" : "no");
	/* kinds: host to host, managed both ways, device to device */
	char *h2 = malloc(MiB);
	memset(h2, 0, MiB);
	CUdeviceptr kd[3] = { (CUdeviceptr)h2, g_m, d3 }, ks[3] = { (CUdeviceptr)hbuf, (CUdeviceptr)hbuf, g_m };
	CB("kinds", kd, ks, (size_t[]){ MiB, MiB, MiB }, 3, at, aix, 1, g_s);
	cuStreamSynchronize(g_s);
	c = 0;
	cuMemcpyDtoH(&c, d3 + 100, 1);
	P("batch.memcpy.kinds.effect: host=%s managed_to_dev=%s\n",
	  h2[MiB - 1] == 0x33 ? "copied" : "not copied", c == 0x33 ? "copied" : "not copied");
	CUmemcpyAttributes hint[1];
	memset(hint, 0, sizeof hint);
	hint[0].srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_ANY;
	hint[0].srcLocHint = loc(CU_MEM_LOCATION_TYPE_HOST, 0);
	hint[0].dstLocHint = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	CB("hints_valid", cd, cs, csz, 2, hint, aix, 1, g_s);
	hint[0].dstLocHint = loc(CU_MEM_LOCATION_TYPE_DEVICE, 99);
	CB("dst_hint_bad", cd, cs, csz, 2, hint, aix, 1, g_s);
	hint[0].dstLocHint = loc(CU_MEM_LOCATION_TYPE_HOST_NUMA, 0);
	CB("dst_hint_numa", cd, cs, csz, 2, hint, aix, 1, g_s);
	hint[0].dstLocHint = loc(CU_MEM_LOCATION_TYPE_INVALID, 0);
	hint[0].srcLocHint = loc(CU_MEM_LOCATION_TYPE_INVALID, 0);
	CB("hints_invalid_type", cd, cs, csz, 2, hint, aix, 1, g_s);
	hint[0].srcLocHint = loc(7, 0);
	CB("src_hint_type7", cd, cs, csz, 2, hint, aix, 1, g_s);
	hint[0].srcLocHint = loc(CU_MEM_LOCATION_TYPE_INVALID, 0);
	hint[0].srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL;
	CB("during_call_pageable", cd, cs, csz, 2, hint, aix, 1, g_s);
	cuStreamSynchronize(g_s);
	/* failIdx of the first form */
	CUresult (*v1)(CUdeviceptr *, CUdeviceptr *, size_t *, size_t,
		       CUmemcpyAttributes *, size_t *, size_t, size_t *, CUstream) =
		(CUresult (*)(CUdeviceptr *, CUdeviceptr *, size_t *, size_t,
			      CUmemcpyAttributes *, size_t *, size_t, size_t *, CUstream))
		dlsym(RTLD_DEFAULT, "cuMemcpyBatchAsync");
	size_t fi;
#define V1(name, ...) do { fi = 12345; r = v1 ? v1(__VA_ARGS__, &fi, g_s) : CUDA_ERROR_UNKNOWN; \
	P("batch.memcpy_v1." name ": %s failidx=%zu\n", en(r), fi); } while (0)
	V1("op1_size0", cd, cs, (size_t[]){ MiB, 0 }, 2, at, aix, 1);
	V1("op1_past_end", cd, cs, (size_t[]){ MiB, 3 * MiB }, 2, at, aix, 1);
	V1("op0_past_end", cd, cs, (size_t[]){ 3 * MiB, MiB }, 2, at, aix, 1);
	V1("attr1_order_invalid", cd, cs, csz, 2, (CUmemcpyAttributes[]){ at[0], bad[0] }, aix, 2);
	V1("first_idx_1", cd, cs, csz, 2, at, aix1, 1);
	V1("null_dsts", NULL, cs, csz, 2, at, aix, 1);
	V1("numattrs0", cd, cs, csz, 2, at, aix, 0);
	fi = 12345;
	r = v1 ? v1(cd, cs, csz, 2, at, aix, 1, &fi, CU_STREAM_LEGACY) : CUDA_ERROR_UNKNOWN;
	P("batch.memcpy_v1.legacy: %s failidx=%zu\n", en(r), fi);
	cuStreamSynchronize(g_s);
	free(h2);
	free(hbuf);
	cuMemFree(d2);
	cuMemFree(d3);
}

/* ---------------------------------------------------------------- decompress */

static void decompress(void)
{
	CUresult r;
	int v = -1;
	r = cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_ALGORITHM_MASK, g_dev[0]);
	P("batch.decompress.attr_algorithm_mask: %s value=%d\n", en(r), v);
	v = -1;
	r = cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_MAXIMUM_LENGTH, g_dev[0]);
	P("batch.decompress.attr_maximum_length: %s value=%d\n", en(r), v);
	CUdeviceptr src, dst, act;
	CK(cuMemAlloc(&src, MiB));
	CK(cuMemAlloc(&dst, MiB));
	CK(cuMemAlloc(&act, 4096));
	unsigned hw = 99;
	cuPointerGetAttribute(&hw, CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE, src);
	P("batch.decompress.ptr_hw_capable: %u\n", hw);
	CUmemDecompressParams p[2];
	memset(p, 0, sizeof p);
	p[0].srcNumBytes = 1024;
	p[0].dstNumBytes = 4096;
	p[0].dstActBytes = (cuuint32_t *)act;
	p[0].src = (void *)src;
	p[0].dst = (void *)dst;
	p[0].algo = CU_MEM_DECOMPRESS_ALGORITHM_DEFLATE;
	p[1] = p[0];
	p[1].algo = CU_MEM_DECOMPRESS_ALGORITHM_SNAPPY;
	size_t ei;
#define DC(name, params, count, flags, stream) do { ei = 12345; \
	TRY(r, "batch.decompress." name, cuMemBatchDecompressAsync(params, count, flags, &ei, stream)); \
	P("batch.decompress." name ".error_index: %zu\n", ei); } while (0)
	DC("deflate", p, 1, 0, g_s);
	DC("snappy", p + 1, 1, 0, g_s);
	DC("two", p, 2, 0, g_s);
	DC("count0", p, 0, 0, g_s);
	DC("null_params", NULL, 1, 0, g_s);
	DC("flags1", p, 1, 1, g_s);
	DC("legacy", p, 1, 0, CU_STREAM_LEGACY);
	DC("null_stream", p, 1, 0, (CUstream)0);
	DC("per_thread", p, 1, 0, CU_STREAM_PER_THREAD);
	ei = 12345;
	TRY(r, "batch.decompress.ptsz_null_stream", ((dc_fn)fn("cuMemBatchDecompressAsync_ptsz"))(p, 1, 0, &ei, (CUstream)0));
	CUmemDecompressParams q = p[0];
	q.algo = 0;
	DC("algo0", &q, 1, 0, g_s);
	q.algo = 4;
	DC("algo4", &q, 1, 0, g_s);
	q = p[0];
	q.srcNumBytes = 0;
	DC("src_bytes0", &q, 1, 0, g_s);
	q = p[0];
	q.src = NULL;
	DC("null_src", &q, 1, 0, g_s);
	q = p[0];
	q.padding[0] = 1;
	DC("padding_set", &q, 1, 0, g_s);
	void *h = malloc(4096);
	q = p[0];
	q.src = h;
	DC("malloc_src", &q, 1, 0, g_s);
	free(h);
	DC("count0+flags1", p, 0, 1, g_s);
	DC("flags1+legacy", p, 1, 1, CU_STREAM_LEGACY);
	cuStreamSynchronize(g_s);
	r = cuStreamQuery(g_s);
	P("batch.decompress.stream_after: %s\n", en(r));
	cuMemFree(src);
	cuMemFree(dst);
	cuMemFree(act);
}

/* ---------------------------------------------------------------- pools */

static void location_pools(void)
{
	CUresult r;
	CUmemLocation l;
	CUmemoryPool a = NULL, b = NULL, c = NULL;
	cuuint64_t u;

#define PL(name, call) TRY(r, "batch.poolloc." name, call)
	l = loc(CU_MEM_LOCATION_TYPE_HOST_NUMA, 0);
	PL("numa_default_pinned", cuMemGetDefaultMemPool(&a, &l, CU_MEM_ALLOCATION_TYPE_PINNED));
	r = cuMemGetMemPool(&b, &l, CU_MEM_ALLOCATION_TYPE_PINNED);
	P("batch.poolloc.numa_current_pinned: %s same=%s\n", en(r), a == b ? "yes" : "no");
	CUmemLocation hl = loc(CU_MEM_LOCATION_TYPE_HOST, 0);
	cuMemGetDefaultMemPool(&c, &hl, CU_MEM_ALLOCATION_TYPE_PINNED);
	P("batch.poolloc.numa0_is_host: %s\n", a == c ? "yes" : "no");
	hl.id = 5;
	CUmemoryPool c5 = NULL;
	PL("host_id5", cuMemGetDefaultMemPool(&c5, &hl, CU_MEM_ALLOCATION_TYPE_PINNED));
	P("batch.poolloc.host_id5_is_host: %s\n", c5 == c ? "yes" : "no");
	hl.id = 0;
	u = 77;
	r = cuMemPoolGetAttribute(a, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &u);
	P("batch.poolloc.numa_default_threshold: %s value=%llu\n", en(r), (unsigned long long)u);
	CUmemAccess_flags af = 99;
	CUmemLocation d0 = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	r = cuMemPoolGetAccess(&af, a, &d0);
	P("batch.poolloc.numa_default_access_dev0: %s flags=%d\n", en(r), (int)af);
	af = 99;
	r = cuMemPoolGetAccess(&af, a, &l);
	P("batch.poolloc.numa_default_access_numa0: %s flags=%d\n", en(r), (int)af);
	af = 99;
	r = cuMemPoolGetAccess(&af, c, &hl);
	P("batch.poolloc.host_default_access_host: %s flags=%d\n", en(r), (int)af);
	af = 99;
	r = cuMemPoolGetAccess(&af, c, &d0);
	P("batch.poolloc.host_default_access_dev0: %s flags=%d\n", en(r), (int)af);
	PL("destroy_numa_default", cuMemPoolDestroy(a));
	PL("destroy_host_default", cuMemPoolDestroy(c));
	CUstream s;
	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CUdeviceptr p = 0;
	PL("alloc_numa_default", cuMemAllocFromPoolAsync(&p, MiB, a, s));
	cuStreamSynchronize(s);
	unsigned mt = 0;
	cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p);
	P("batch.poolloc.alloc_numa_default.memtype: %u\n", mt);
	u = 0;
	cuMemPoolGetAttribute(a, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &u);
	P("batch.poolloc.alloc_numa_default.reserved: %llu\n", (unsigned long long)u);
	int sig = 0;
	if (p && !(sig = sigsetjmp(g_jmp, 1))) {
		g_jmp_armed = 1;
		*(volatile int *)p = 5;
		g_jmp_armed = 0;
	}
	P("batch.poolloc.alloc_numa_default.cpu_rw: sig=%d\n", sig);
	cuMemFreeAsync(p, s);
	cuStreamSynchronize(s);
	/* set a created NUMA pool as the node's pool */
	CUmemPoolProps pr = { 0 };
	pr.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	pr.location = l;
	CUmemoryPool np = NULL;
	CK(cuMemPoolCreate(&np, &pr));
	PL("set_numa_pinned", cuMemSetMemPool(&l, CU_MEM_ALLOCATION_TYPE_PINNED, np));
	r = cuMemGetMemPool(&b, &l, CU_MEM_ALLOCATION_TYPE_PINNED);
	P("batch.poolloc.numa_after_set: %s same=%s\n", en(r), b == np ? "yes" : "no");
	r = cuMemGetMemPool(&b, &hl, CU_MEM_ALLOCATION_TYPE_PINNED);
	P("batch.poolloc.host_after_numa_set: %s is_numa_pool=%s\n", en(r), b == np ? "yes" : "no");
	PL("set_host_to_numa_pool", cuMemSetMemPool(&hl, CU_MEM_ALLOCATION_TYPE_PINNED, np));
	PL("set_dev_to_numa_pool", cuMemSetMemPool(&d0, CU_MEM_ALLOCATION_TYPE_PINNED, np));
	CUmemLocation n1 = loc(CU_MEM_LOCATION_TYPE_HOST_NUMA, 1);
	PL("set_numa1_to_numa0_pool", cuMemSetMemPool(&n1, CU_MEM_ALLOCATION_TYPE_PINNED, np));
	CUmemLocation ncur = loc(CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT, 0);
	PL("set_numa_current", cuMemSetMemPool(&ncur, CU_MEM_ALLOCATION_TYPE_PINNED, np));
	PL("get_numa_current", cuMemGetMemPool(&b, &ncur, CU_MEM_ALLOCATION_TYPE_PINNED));
	PL("default_numa_current_managed", cuMemGetDefaultMemPool(&b, &ncur, CU_MEM_ALLOCATION_TYPE_MANAGED));
	PL("destroy_set_numa_pool", cuMemPoolDestroy(np));
	r = cuMemGetMemPool(&b, &l, CU_MEM_ALLOCATION_TYPE_PINNED);
	P("batch.poolloc.numa_after_destroy_is_default: %s same=%s\n", en(r), b == a ? "yes" : "no");
	/* the device: cuMemSetMemPool and cuDeviceGetMemPool see one setting */
	CUmemoryPool dp = NULL, dq = NULL, dc = NULL;
	pr.location = d0;
	CK(cuMemPoolCreate(&dp, &pr));
	PL("set_dev_pinned", cuMemSetMemPool(&d0, CU_MEM_ALLOCATION_TYPE_PINNED, dp));
	cuDeviceGetMemPool(&dq, g_dev[0]);
	P("batch.poolloc.device_get_after_set: %s\n", dq == dp ? "same" : "other");
	CUdeviceptr ap = 0;
	cuMemAllocAsync(&ap, 4096, s);
	CUmemoryPool ph = NULL;
	cuPointerGetAttribute(&ph, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, ap);
	P("batch.poolloc.allocasync_uses_set_pool: %s\n", ph == dp ? "yes" : "no");
	cuMemFreeAsync(ap, s);
	cuStreamSynchronize(s);
	cuDeviceGetDefaultMemPool(&dq, g_dev[0]);
	cuDeviceSetMemPool(g_dev[0], dq);
	r = cuMemGetMemPool(&dc, &d0, CU_MEM_ALLOCATION_TYPE_PINNED);
	P("batch.poolloc.get_after_device_set: %s same=%s\n", en(r), dc == dq ? "yes" : "no");
	cuMemPoolDestroy(dp);
	/* two wrong at once */
	CUmemLocation bad = loc(CU_MEM_LOCATION_TYPE_DEVICE, 99);
	PL("null_out+bad_loc", cuMemGetDefaultMemPool(NULL, &bad, CU_MEM_ALLOCATION_TYPE_PINNED));
	PL("null_out+bad_type", cuMemGetDefaultMemPool(NULL, &d0, 0));
	PL("bad_loc+bad_type", cuMemGetDefaultMemPool(&b, &bad, 0));
	PL("null_loc+bad_type", cuMemGetDefaultMemPool(&b, NULL, 0));
	PL("type7", cuMemGetDefaultMemPool(&b, &d0, 7));
	PL("get_bad_dev", cuMemGetMemPool(&b, &bad, CU_MEM_ALLOCATION_TYPE_PINNED));
	PL("get_null_out", cuMemGetMemPool(NULL, &d0, CU_MEM_ALLOCATION_TYPE_PINNED));
	PL("get_type0", cuMemGetMemPool(&b, &d0, 0));
	PL("get_numa99", cuMemGetMemPool(&b, &(CUmemLocation){ CU_MEM_LOCATION_TYPE_HOST_NUMA, 99 }, CU_MEM_ALLOCATION_TYPE_PINNED));
	PL("set_bad_dev", cuMemSetMemPool(&bad, CU_MEM_ALLOCATION_TYPE_PINNED, dq));
	PL("set_type0", cuMemSetMemPool(&d0, 0, dq));
	PL("set_null_pool+bad_type", cuMemSetMemPool(&d0, 0, NULL));
	PL("set_destroyed_pool", cuMemSetMemPool(&d0, CU_MEM_ALLOCATION_TYPE_PINNED, dp));
	PL("default_none_pinned", cuMemGetDefaultMemPool(&b, &(CUmemLocation){ CU_MEM_LOCATION_TYPE_NONE, 0 }, CU_MEM_ALLOCATION_TYPE_PINNED));
	PL("get_none_managed", cuMemGetMemPool(&b, &(CUmemLocation){ CU_MEM_LOCATION_TYPE_NONE, 0 }, CU_MEM_ALLOCATION_TYPE_MANAGED));
	/* the managed defaults */
	CUmemoryPool mn = NULL, md = NULL, mh = NULL, mnu = NULL;
	cuMemGetDefaultMemPool(&mn, &(CUmemLocation){ CU_MEM_LOCATION_TYPE_NONE, 0 }, CU_MEM_ALLOCATION_TYPE_MANAGED);
	cuMemGetDefaultMemPool(&md, &d0, CU_MEM_ALLOCATION_TYPE_MANAGED);
	cuMemGetDefaultMemPool(&mh, &hl, CU_MEM_ALLOCATION_TYPE_MANAGED);
	cuMemGetDefaultMemPool(&mnu, &l, CU_MEM_ALLOCATION_TYPE_MANAGED);
	P("batch.poolloc.managed_defaults: none_is_dev=%s none_is_host=%s numa_is_host=%s\n",
	  mn == md ? "yes" : "no", mn == mh ? "yes" : "no", mnu == mh ? "yes" : "no");
	PL("destroy_managed_default", cuMemPoolDestroy(md));
	CUdeviceptr mp = 0;
	PL("alloc_managed_default", cuMemAllocFromPoolAsync(&mp, MiB, md, s));
	cuStreamSynchronize(s);
	unsigned ism = 9;
	cuPointerGetAttribute(&ism, CU_POINTER_ATTRIBUTE_IS_MANAGED, mp);
	ph = NULL;
	cuPointerGetAttribute(&ph, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, mp);
	P("batch.poolloc.alloc_managed_default.ptr: is_managed=%u pool_is_md=%s\n", ism, ph == md ? "yes" : "no");
	sig = 0;
	if (mp && !(sig = sigsetjmp(g_jmp, 1))) {
		g_jmp_armed = 1;
		*(volatile int *)mp = 3;
		g_jmp_armed = 0;
	}
	P("batch.poolloc.alloc_managed_default.cpu_rw: sig=%d\n", sig);
	cuMemFreeAsync(mp, s);
	cuStreamSynchronize(s);
	mp = 0;
	PL("alloc_host_managed_default", cuMemAllocFromPoolAsync(&mp, MiB, mh, s));
	cuStreamSynchronize(s);
	if (mp) {
		cuMemFreeAsync(mp, s);
		cuStreamSynchronize(s);
	}
	cuStreamDestroy(s);
}

static void pool_attrs(const char *who, CUmemoryPool p)
{
	static const struct { CUmemPool_attribute a; const char *n; } at[] = {
		{ CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES, "follow" },
		{ CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, "opportunistic" },
		{ CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES, "internal" },
		{ CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, "threshold" },
		{ CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, "reserved" },
		{ CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, "reserved_high" },
		{ CU_MEMPOOL_ATTR_USED_MEM_CURRENT, "used" },
		{ CU_MEMPOOL_ATTR_USED_MEM_HIGH, "used_high" },
	};
	for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
		cuuint64_t v = 0;
		int *iv = (int *)&v;
		CUresult r = cuMemPoolGetAttribute(p, at[i].a, &v);
		if (i < 3)
			P("batch.managedpool.%s.attr.%s: %s value=%d\n", who, at[i].n, en(r), *iv);
		else
			P("batch.managedpool.%s.attr.%s: %s value=%llu\n", who, at[i].n, en(r), (unsigned long long)v);
	}
}

static void managed_pools(void)
{
	CUresult r;
	CUmemoryPool mp = NULL, np = NULL;
	CUmemPoolProps pr = { 0 };
	CUstream s;
	CUmemLocation d0 = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	CUmemLocation h = loc(CU_MEM_LOCATION_TYPE_HOST, 0);

	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
#define MP(name, call) TRY(r, "batch.managedpool." name, call)
	pr.allocType = CU_MEM_ALLOCATION_TYPE_MANAGED;
	pr.location = d0;
	CK(cuMemPoolCreate(&mp, &pr));
	pool_attrs("dev", mp);
	pr.location = loc(CU_MEM_LOCATION_TYPE_NONE, 0);
	MP("create_none", cuMemPoolCreate(&np, &pr));
	if (np) {
		pool_attrs("none", np);
		CUmemAccess_flags af = 99;
		r = cuMemPoolGetAccess(&af, np, &d0);
		P("batch.managedpool.none.access_dev0: %s flags=%d\n", en(r), (int)af);
		CUdeviceptr b = 0;
		MP("none.alloc", cuMemAllocFromPoolAsync(&b, MiB, np, s));
		cuStreamSynchronize(s);
		int ord = -9;
		cuPointerGetAttribute(&ord, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, b);
		P("batch.managedpool.none.alloc.ordinal: %d\n", ord);
		if (b)
			cuMemFreeAsync(b, s);
		cuStreamSynchronize(s);
		cuMemPoolDestroy(np);
	}
	pr.location = loc(CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT, 0);
	MP("create_numa_current", cuMemPoolCreate(&np, &pr));
	pr.location = loc(CU_MEM_LOCATION_TYPE_DEVICE, 99);
	MP("create_dev99", cuMemPoolCreate(&np, &pr));
	pr.location = d0;
	pr.maxSize = 64 * MiB;
	MP("create_maxsize", cuMemPoolCreate(&np, &pr));
	if (r == CUDA_SUCCESS) {
		CUdeviceptr x = 0, y = 0;
		MP("maxsize.alloc40", cuMemAllocFromPoolAsync(&x, 40 * MiB, np, s));
		MP("maxsize.alloc30", cuMemAllocFromPoolAsync(&y, 30 * MiB, np, s));
		if (x)
			cuMemFreeAsync(x, s);
		if (y)
			cuMemFreeAsync(y, s);
		cuStreamSynchronize(s);
		cuMemPoolDestroy(np);
	}
	pr.maxSize = 0;
	pr.usage = CU_MEM_POOL_CREATE_USAGE_HW_DECOMPRESS;
	MP("create_hw_decompress", cuMemPoolCreate(&np, &pr));
	if (r == CUDA_SUCCESS)
		cuMemPoolDestroy(np);
	pr.usage = 0;
	pr.handleTypes = CU_MEM_HANDLE_TYPE_FABRIC;
	MP("create_fabric", cuMemPoolCreate(&np, &pr));
	if (r == CUDA_SUCCESS)
		cuMemPoolDestroy(np);
	pr.handleTypes = 0;

	/* a block: memory before and after a prefetch, reuse, attributes */
	long long f0 = free_mem();
	CUdeviceptr b = 0, b2 = 0;
	MP("alloc", cuMemAllocFromPoolAsync(&b, 64 * MiB, mp, s));
	cuStreamSynchronize(s);
	P("batch.managedpool.alloc.free_drop: %s\n", mib_delta(f0, free_mem()));
	pool_attrs("dev_after_alloc", mp);
	unsigned mt = 0, ism = 9;
	cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, b);
	cuPointerGetAttribute(&ism, CU_POINTER_ATTRIBUTE_IS_MANAGED, b);
	CUmemoryPool ph = NULL;
	cuPointerGetAttribute(&ph, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, b);
	CUcontext pc = (CUcontext)1;
	cuPointerGetAttribute(&pc, CU_POINTER_ATTRIBUTE_CONTEXT, b);
	CUdeviceptr rs = 0;
	size_t rsz = 0;
	cuPointerGetAttribute(&rs, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, b + 4096);
	cuPointerGetAttribute(&rsz, CU_POINTER_ATTRIBUTE_RANGE_SIZE, b + 4096);
	P("batch.managedpool.ptr: memtype=%u is_managed=%u pool=%s ctx=%s range_is_block=%s\n",
	  mt, ism, ph == mp ? "yes" : "no", pc ? "set" : "null",
	  rs == b && rsz == 64 * MiB ? "yes" : "no");
	CUdeviceptr ab = 0;
	size_t asz = 0;
	r = cuMemGetAddressRange(&ab, &asz, b + 100);
	P("batch.managedpool.address_range: %s is_block=%s\n", en(r), ab == b && asz == 64 * MiB ? "yes" : "no");
	int lp = -9;
	r = cuMemRangeGetAttribute(&lp, 4, CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, b, 64 * MiB);
	P("batch.managedpool.range_preferred: %s value=%d\n", en(r), lp);
	lp = -9;
	r = cuMemRangeGetAttribute(&lp, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, b, 64 * MiB);
	P("batch.managedpool.range_read_mostly: %s value=%d\n", en(r), lp);
	lp = -9;
	r = cuMemRangeGetAttribute(&lp, 4, CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, b, 64 * MiB);
	P("batch.managedpool.range_last_prefetch_fresh: %s value=%d\n", en(r), lp);
	MP("advise_unset_preferred", cuMemAdvise_v2(b, 64 * MiB, CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION, d0));
	MP("advise_unset_read_mostly", cuMemAdvise_v2(b, 64 * MiB, CU_MEM_ADVISE_UNSET_READ_MOSTLY, d0));
	MP("advise_unset_accessed_by", cuMemAdvise_v2(b, 64 * MiB, CU_MEM_ADVISE_UNSET_ACCESSED_BY, d0));
	MP("advise_bad_advice", cuMemAdvise_v2(b, 64 * MiB, (CUmem_advise)99, d0));
	MP("advise_past_end", cuMemAdvise_v2(b, 65 * MiB, CU_MEM_ADVISE_SET_READ_MOSTLY, d0));
	MP("advise_half", cuMemAdvise_v2(b, 32 * MiB, CU_MEM_ADVISE_SET_READ_MOSTLY, d0));
	long long f1 = free_mem();
	MP("prefetch_gpu", cuMemPrefetchAsync_v2(b, 64 * MiB, d0, 0, s));
	cuStreamSynchronize(s);
	P("batch.managedpool.prefetch_gpu.free_drop: %s\n", mib_delta(f1, free_mem()));
	lp = -9;
	cuMemRangeGetAttribute(&lp, 4, CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, b, 64 * MiB);
	P("batch.managedpool.prefetch_gpu.lastloc: %d\n", lp);
	MP("memset", cuMemsetD8Async(b, 0x42, 64 * MiB, s));
	cuStreamSynchronize(s);
	unsigned char c = 0;
	MP("copy_dtoh", cuMemcpyDtoH(&c, b + 1000, 1));
	P("batch.managedpool.copy_dtoh.value: %#x\n", c);
	int sig = 0;
	uint32_t v = safe_read32((void *)(b + 8 * MiB), &sig);
	P("batch.managedpool.cpu_read: %#x sig=%d\n", v, sig);
	CUdeviceptr bp[1] = { b };
	size_t bsz[1] = { 64 * MiB }, z[1] = { 0 };
	f1 = free_mem();
	cuMemPrefetchAsync_v2(b, 64 * MiB, d0, 0, s);
	cuStreamSynchronize(s);
	f1 = free_mem();
	MP("discard", cuMemDiscardBatchAsync(bp, bsz, 1, 0, s));
	cuStreamSynchronize(s);
	P("batch.managedpool.discard.free_rise: %s\n", mib_delta(free_mem(), f1));
	MP("discard_prefetch", cuMemDiscardAndPrefetchBatchAsync(bp, bsz, 1, &h, z, 1, 0, s));
	cuStreamSynchronize(s);
	MP("attach_single", cuStreamAttachMemAsync(s, b, 0, CU_MEM_ATTACH_SINGLE));
	MP("attach_host", cuStreamAttachMemAsync(s, b, 0, CU_MEM_ATTACH_HOST));
	int fd = -1;
	MP("export_ptr", cuMemPoolExportPointer(&(CUmemPoolPtrExportData){ 0 }, b));
	(void)fd;
	MP("trim_while_live", cuMemPoolTrimTo(mp, 0));
	pool_attrs("dev_after_trim_live", mp);
	CUdeviceptr old = b;
	MP("free", cuMemFreeAsync(b, s));
	MP("alloc_again", cuMemAllocFromPoolAsync(&b2, 64 * MiB, mp, s));
	P("batch.managedpool.alloc_again.same_address: %s\n", b2 == old ? "yes" : "no");
	cuStreamSynchronize(s);
	lp = -9;
	cuMemRangeGetAttribute(&lp, 4, CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, b2, 64 * MiB);
	P("batch.managedpool.alloc_again.lastloc: %d\n", lp);
	cuMemFreeAsync(b2, s);
	cuStreamSynchronize(s);
	pool_attrs("dev_after_free_sync", mp);
	MP("set_threshold", cuMemPoolSetAttribute(mp, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &(cuuint64_t){ 128 * MiB }));
	CUdeviceptr x = 0;
	MP("alloc_size0", cuMemAllocFromPoolAsync(&x, 0, mp, s));
	P("batch.managedpool.alloc_size0.ptr: %s\n", x ? "set" : "0");
	MP("cumemfree_block", cuMemAllocFromPoolAsync(&x, MiB, mp, s));
	cuStreamSynchronize(s);
	MP("cumemfree", cuMemFree(x));
	/* cuMemAllocAsync after a managed pool is the device's pool */
	MP("device_set", cuDeviceSetMemPool(g_dev[0], mp));
	x = 0;
	MP("allocasync_after_device_set", cuMemAllocAsync(&x, MiB, s));
	cuStreamSynchronize(s);
	ism = 9;
	cuPointerGetAttribute(&ism, CU_POINTER_ATTRIBUTE_IS_MANAGED, x);
	P("batch.managedpool.allocasync_after_device_set.is_managed: %u\n", ism);
	if (x)
		cuMemFreeAsync(x, s);
	cuStreamSynchronize(s);
	CUmemoryPool dflt = NULL;
	cuDeviceGetDefaultMemPool(&dflt, g_dev[0]);
	cuDeviceSetMemPool(g_dev[0], dflt);
	MP("destroy", cuMemPoolDestroy(mp));
	/* a pool of the host */
	pr.location = h;
	CK(cuMemPoolCreate(&np, &pr));
	pool_attrs("host", np);
	CUdeviceptr hb = 0;
	f0 = free_mem();
	MP("host.alloc", cuMemAllocFromPoolAsync(&hb, 8 * MiB, np, s));
	cuStreamSynchronize(s);
	int ord = -9;
	cuPointerGetAttribute(&ord, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, hb);
	P("batch.managedpool.host.alloc.ordinal: %d\n", ord);
	MP("host.prefetch_gpu", cuMemPrefetchAsync_v2(hb, 8 * MiB, d0, 0, s));
	cuStreamSynchronize(s);
	P("batch.managedpool.host.prefetch_gpu.free_drop: %s\n", mib_delta(f0, free_mem()));
	MP("host.advise", cuMemAdvise_v2(hb, 8 * MiB, CU_MEM_ADVISE_SET_READ_MOSTLY, d0));
	cuMemFreeAsync(hb, s);
	cuStreamSynchronize(s);
	cuMemPoolDestroy(np);
	cuStreamDestroy(s);
}

int main(int argc, char **argv)
{
	setup("batch");
	if (argc == 3 && !strcmp(argv[1], "risky")) {
		CUstream s;
		CUresult r;
		CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
		if (!strcmp(argv[2], "decompress_null_index")) {
			CUmemDecompressParams p;
			memset(&p, 0, sizeof p);
			TRY(r, "batch.risky.decompress_null_index", cuMemBatchDecompressAsync(&p, 1, 0, NULL, s));
		}
		return 0;
	}
	procaddr();
	CK(cuStreamCreate(&g_s, CU_STREAM_NON_BLOCKING));
	CK(cuMemAllocManaged(&g_m, 8 * MiB, CU_MEM_ATTACH_GLOBAL));
	CK(cuMemAlloc(&g_d, 2 * MiB));
	memset((void *)g_m, 0x5a, 8 * MiB);
	for (int i = 0; i < N; i++) {
		ds[i] = g_m + i * 2 * MiB;
		sz[i] = 2 * MiB;
		ls[i] = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	}
	prefetch_order();
	prefetch_indices();
	discard();
	discard_prefetch();
	memcpy_batch();
	location_pools();
	managed_pools();
	decompress();
	cuMemFree(g_m);
	cuMemFree(g_d);
	cuStreamDestroy(g_s);
	teardown("batch");
	return 0;
}
