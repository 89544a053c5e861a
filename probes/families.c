/* The CUDA 12.8/13 managed-memory families beyond the first reference set
 * (shared/reference/real-driver-api-families.txt): cuGetProcAddress edges,
 * per-thread default streams, stream attach edges, location and managed
 * pools, the prefetch/discard/copy batches and their errors, and the
 * latency of the bench rows of entry points, batches and managed pools
 * (median of 2000). */
#include "common.h"
#include <dlfcn.h>
#include <time.h>
#include <sys/wait.h>

static void *g_lib;

/* the export of libcuda that p is, among the usual suffixes of name */
static const char *which(const char *name, void *p)
{
	static const char *suf[] = { "", "_v2", "_v3", "_ptsz", "_ptds",
				     "_v2_ptsz", "_v2_ptds", "_v3_ptsz", NULL };
	static char buf[160];

	if (!p)
		return "null";
	for (int i = 0; suf[i]; i++) {
		snprintf(buf, sizeof buf, "%s%s", name, suf[i]);
		if (dlsym(g_lib, buf) == p)
			return buf;
	}
	return "other";
}

static void pa(const char *name, int ver, cuuint64_t flags)
{
	void *p = (void *)1;
	CUdriverProcAddressQueryResult st = (CUdriverProcAddressQueryResult)-1;
	CUresult r = cuGetProcAddress_v2(name, &p, ver, flags, &st);

	P("families.procaddr.%s_%d_%llu: %s status=%d is=%s\n", name, ver,
	  (unsigned long long)flags, en(r), (int)st,
	  p == (void *)1 ? "untouched" : which(name, p));
}

/* A call that may fault inside the driver on a bad argument: the fault is
 * caught and printed as "SIGNAL n" instead of ending the probe. */
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

static void procaddr(void)
{
	void *p = (void *)1;
	CUdriverProcAddressQueryResult st = (CUdriverProcAddressQueryResult)-1;
	CUresult r;

	g_lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
	pa("cuMemAlloc", 0, 0);
	pa("cuMemAlloc", -1, 0);
	pa("cuMemAlloc", 1000, 0);
	pa("cuMemAlloc", 2000, 0);
	pa("cuMemAlloc", 13010, 0);
	pa("cuMemAlloc", 13020, 0);
	pa("cuMemAlloc", 14000, 0);
	pa("cuMemAlloc", 13000, 1);
	pa("cuMemAlloc", 13000, 2);
	pa("cuMemAlloc", 13000, 3);
	pa("cuMemAlloc", 13000, 4);
	pa("cuMemcpyAsync", 13000, 0);
	pa("cuMemcpyAsync", 13000, 1);
	pa("cuMemcpyAsync", 13000, 2);
	pa("cuMemcpyAsync", 3000, 2);
	pa("cuMemcpyAsync", 7000, 2);
	pa("cuMemcpyHtoD", 13000, 2);
	pa("cuMemcpyHtoD", 3000, 2);
	pa("cuMemcpyHtoD", 2000, 2);
	pa("cuMemcpy", 13000, 2);
	pa("cuMemsetD8", 13000, 2);
	pa("cuMemsetD8Async", 13000, 2);
	pa("cuStreamSynchronize", 13000, 2);
	pa("cuStreamAttachMemAsync", 13000, 2);
	pa("cuMemAllocAsync", 13000, 2);
	pa("cuMemAllocAsync", 11000, 0);
	pa("cuMemAllocAsync", 11020, 0);
	pa("cuMemPrefetchBatchAsync", 12000, 0);
	pa("cuMemPrefetchBatchAsync", 12080, 0);
	pa("cuMemPrefetchBatchAsync", 12080, 2);
	pa("cuMemcpyBatchAsync", 12080, 0);
	pa("cuMemcpyBatchAsync", 13000, 0);
	pa("cuMemcpyBatchAsync", 13000, 2);
	pa("cuMemGetDefaultMemPool", 12090, 0);
	pa("cuMemGetDefaultMemPool", 13000, 0);
	pa("cuGetProcAddress", 12000, 0);
	pa("cuGetProcAddress", 13000, 0);
	pa("cuGetProcAddress_v2", 13000, 0);
	pa("cuMemAlloc_v2", 13000, 0);
	pa("cuNoSuchCall", 13000, 0);
	pa("cuNoSuchCall", 99999, 0);
	pa("cuMemAlloc", 13000, 8);
	pa("", 13000, 0);
	pa("cuGetErrorName", 13000, 2);
	pa("cuCtxCreate", 13000, 0);
	pa("cuDeviceTotalMem", 13000, 0);
	TRY(r, "families.procaddr.null_symbol", cuGetProcAddress_v2(NULL, &p, 13000, 0, &st));
	TRY(r, "families.procaddr.null_pfn", cuGetProcAddress_v2("cuMemAlloc", NULL, 13000, 0, &st));
	p = (void *)1;
	r = cuGetProcAddress_v2("cuMemAlloc", &p, 13000, 0, NULL);
	P("families.procaddr.null_status: %s is=%s\n", en(r), which("cuMemAlloc", p));
	p = (void *)1;
	r = cuGetProcAddress_v2("cuNoSuchCall", &p, 13000, 0, NULL);
	P("families.procaddr.null_status_notfound: %s is=%s\n", en(r),
	  p == (void *)1 ? "untouched" : which("x", p));
	{
		CUresult (*v1)(const char *, void **, int, cuuint64_t) =
			(CUresult (*)(const char *, void **, int, cuuint64_t))dlsym(g_lib, "cuGetProcAddress");
		p = (void *)1;
		r = v1 ? v1("cuMemAdvise", &p, 12020, 0) : CUDA_ERROR_UNKNOWN;
		P("families.procaddr.v1_cuMemAdvise_12020: %s is=%s\n", en(r), which("cuMemAdvise", p));
		p = (void *)1;
		r = v1 ? v1("cuNoSuchCall", &p, 12020, 0) : CUDA_ERROR_UNKNOWN;
		P("families.procaddr.v1_notfound: %s is=%s\n", en(r), p == (void *)1 ? "untouched" : which("x", p));
		p = (void *)1;
		r = v1 ? v1("cuMemPrefetchBatchAsync", &p, 12000, 0) : CUDA_ERROR_UNKNOWN;
		P("families.procaddr.v1_too_old: %s is=%s\n", en(r), p == (void *)1 ? "untouched" : which("cuMemPrefetchBatchAsync", p));
		p = (void *)1;
		r = v1 ? v1("cuMemAlloc", &p, 99999, 0) : CUDA_ERROR_UNKNOWN;
		P("families.procaddr.v1_bad_version: %s is=%s\n", en(r), p == (void *)1 ? "untouched" : which("cuMemAlloc", p));
	}
}

/* Per-thread default stream: does work on it wait for a blocked user stream,
 * and does the legacy stream wait for it? */
static volatile int g_gate;
static void CUDA_CB gate(void *a) { (void)a; while (!g_gate) usleep(1000); }

static void ptds(void)
{
	CUstream s;
	CUresult r;

	CK(cuStreamCreate(&s, 0));
	g_gate = 0;
	CK(cuLaunchHostFunc(s, gate, NULL));
	TRY(r, "families.ptds.query_while_other_blocked", cuStreamQuery(CU_STREAM_PER_THREAD));
	TRY(r, "families.ptds.legacy_query_while_other_blocked", cuStreamQuery(CU_STREAM_LEGACY));
	g_gate = 1;
	CK(cuStreamSynchronize(s));
	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	unsigned f = 99;
	r = cuStreamGetFlags(CU_STREAM_PER_THREAD, &f);
	P("families.ptds.getflags: %s flags=%u\n", en(r), f);
	unsigned long long id = 0;
	TRY(r, "families.ptds.getid", cuStreamGetId(CU_STREAM_PER_THREAD, &id));
	cuStreamDestroy(s);
	TRY(r, "families.ptds.destroy", cuStreamDestroy(CU_STREAM_PER_THREAD));
}

static void attach(void)
{
	CUdeviceptr m, d;
	CUstream s;
	CUresult r;

	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CK(cuMemAllocManaged(&m, 1 * MiB, CU_MEM_ATTACH_GLOBAL));
	TRY(r, "families.attach.per_thread_single", cuStreamAttachMemAsync(CU_STREAM_PER_THREAD, m, 0, CU_MEM_ATTACH_SINGLE));
	TRY(r, "families.attach.legacy_host", cuStreamAttachMemAsync(CU_STREAM_LEGACY, m, 0, CU_MEM_ATTACH_HOST));
	TRY(r, "families.attach.interior_len0", cuStreamAttachMemAsync(s, m + 4096, 0, CU_MEM_ATTACH_GLOBAL));
	TRY(r, "families.attach.len_over", cuStreamAttachMemAsync(s, m, 1 * MiB + 1, CU_MEM_ATTACH_GLOBAL));
	TRY(r, "families.attach.null_ptr", cuStreamAttachMemAsync(s, 0, 0, CU_MEM_ATTACH_GLOBAL));
	/* flags 0 faults inside the real driver (SIGSEGV, 2026-11-25) and
	 * leaves it unusable: not asked again. */
	TRY(r, "families.attach.flags_two", cuStreamAttachMemAsync(s, m, 0, CU_MEM_ATTACH_GLOBAL | CU_MEM_ATTACH_HOST));
	void *h;
	CK(cuMemAllocHost(&h, 4096));
	TRY(r, "families.attach.pinned", cuStreamAttachMemAsync(s, (CUdeviceptr)h, 0, CU_MEM_ATTACH_GLOBAL));
	void *sys = malloc(8192);
	TRY(r, "families.attach.malloc", cuStreamAttachMemAsync(s, (CUdeviceptr)sys, 0, CU_MEM_ATTACH_GLOBAL));
	TRY(r, "families.attach.malloc_len", cuStreamAttachMemAsync(s, (CUdeviceptr)sys, 4096, CU_MEM_ATTACH_GLOBAL));
	free(sys);
	cuMemFreeHost(h);
	CK(cuMemAllocAsync(&d, 4096, s));
	TRY(r, "families.attach.pool_block", cuStreamAttachMemAsync(s, d, 0, CU_MEM_ATTACH_GLOBAL));
	cuMemFreeAsync(d, s);
	CK(cuMemFree(m));
	TRY(r, "families.attach.freed", cuStreamAttachMemAsync(s, m, 0, CU_MEM_ATTACH_GLOBAL));
	TRY(r, "families.attach.alloc_size0_host", cuMemAllocManaged(&m, 0, CU_MEM_ATTACH_HOST));
	cuStreamSynchronize(s);
	cuStreamDestroy(s);
}

static CUmemLocation loc(CUmemLocationType t, int id)
{
	CUmemLocation l = { .type = t, .id = id };
	return l;
}

static void poolloc(void)
{
	CUmemoryPool p = NULL, q = NULL, mp = NULL;
	CUmemLocation l;
	CUresult r;
	int v = -1;

	r = cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_HOST_NUMA_MEMORY_POOLS_SUPPORTED, g_dev[0]);
	P("families.poolloc.attr_host_numa_pools: %s value=%d\n", en(r), v);
	v = -1;
	r = cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, g_dev[0]);
	P("families.poolloc.attr_pools: %s value=%d\n", en(r), v);
	l = loc(CU_MEM_LOCATION_TYPE_HOST_NUMA, 0);
	TRY(r, "families.poolloc.default_numa_managed", cuMemGetDefaultMemPool(&p, &l, CU_MEM_ALLOCATION_TYPE_MANAGED));
	l = loc(CU_MEM_LOCATION_TYPE_HOST_NUMA, 99);
	TRY(r, "families.poolloc.default_numa99", cuMemGetDefaultMemPool(&p, &l, CU_MEM_ALLOCATION_TYPE_PINNED));
	l = loc(CU_MEM_LOCATION_TYPE_NONE, 0);
	TRY(r, "families.poolloc.default_none_managed", cuMemGetDefaultMemPool(&p, &l, CU_MEM_ALLOCATION_TYPE_MANAGED));
	l = loc(CU_MEM_LOCATION_TYPE_INVALID, 0);
	TRY(r, "families.poolloc.default_invalid_loc", cuMemGetDefaultMemPool(&p, &l, CU_MEM_ALLOCATION_TYPE_PINNED));
	l = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	TRY(r, "families.poolloc.default_null_out", cuMemGetDefaultMemPool(NULL, &l, CU_MEM_ALLOCATION_TYPE_PINNED));
	l = loc(CU_MEM_LOCATION_TYPE_HOST, 0);
	CUmemoryPool hp = NULL, hq = NULL;
	cuMemGetDefaultMemPool(&hp, &l, CU_MEM_ALLOCATION_TYPE_PINNED);
	r = cuMemGetMemPool(&hq, &l, CU_MEM_ALLOCATION_TYPE_PINNED);
	P("families.poolloc.current_host: %s same=%s\n", en(r), hp == hq ? "yes" : "no");
	l = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	CUmemoryPool dm = NULL, dp = NULL;
	cuMemGetDefaultMemPool(&dm, &l, CU_MEM_ALLOCATION_TYPE_MANAGED);
	cuMemGetDefaultMemPool(&dp, &l, CU_MEM_ALLOCATION_TYPE_PINNED);
	P("families.poolloc.dev_managed_is_pinned: %s\n", dm == dp ? "yes" : "no");
	CUmemoryPool hm = NULL;
	l = loc(CU_MEM_LOCATION_TYPE_HOST, 0);
	cuMemGetDefaultMemPool(&hm, &l, CU_MEM_ALLOCATION_TYPE_MANAGED);
	P("families.poolloc.host_managed_is_dev_managed: %s\n", hm == dm ? "yes" : "no");
	/* setting: a device pool at a host location, a pinned pool as managed */
	l = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	cuMemGetDefaultMemPool(&q, &l, CU_MEM_ALLOCATION_TYPE_PINNED);
	l = loc(CU_MEM_LOCATION_TYPE_HOST, 0);
	TRY(r, "families.poolloc.set_host_to_dev_pool", cuMemSetMemPool(&l, CU_MEM_ALLOCATION_TYPE_PINNED, q));
	l = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	TRY(r, "families.poolloc.set_managed_to_pinned_pool", cuMemSetMemPool(&l, CU_MEM_ALLOCATION_TYPE_MANAGED, q));
	TRY(r, "families.poolloc.set_null_pool", cuMemSetMemPool(&l, CU_MEM_ALLOCATION_TYPE_PINNED, NULL));
	TRY(r, "families.poolloc.set_null_loc", cuMemSetMemPool(NULL, CU_MEM_ALLOCATION_TYPE_PINNED, q));
	/* a managed pool */
	CUmemPoolProps pr = { 0 };
	pr.allocType = CU_MEM_ALLOCATION_TYPE_MANAGED;
	pr.location = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	TRY(r, "families.managedpool.create_dev", cuMemPoolCreate(&mp, &pr));
	if (r == CUDA_SUCCESS) {
		l = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
		TRY(r, "families.managedpool.set_managed", cuMemSetMemPool(&l, CU_MEM_ALLOCATION_TYPE_MANAGED, mp));
		TRY(r, "families.managedpool.set_as_pinned", cuMemSetMemPool(&l, CU_MEM_ALLOCATION_TYPE_PINNED, mp));
		l = loc(CU_MEM_LOCATION_TYPE_HOST, 0);
		TRY(r, "families.managedpool.set_host", cuMemSetMemPool(&l, CU_MEM_ALLOCATION_TYPE_MANAGED, mp));
		TRY(r, "families.managedpool.device_set", cuDeviceSetMemPool(g_dev[0], mp));
		CUstream s;
		CUdeviceptr b = 0;
		CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
		TRY(r, "families.managedpool.alloc", cuMemAllocFromPoolAsync(&b, 4 * MiB, mp, s));
		cuStreamSynchronize(s);
		CUmemLocation gl = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
		TRY(r, "families.managedpool.advise_preferred", cuMemAdvise_v2(b, 4 * MiB, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, gl));
		TRY(r, "families.managedpool.advise_read_mostly", cuMemAdvise_v2(b, 4 * MiB, CU_MEM_ADVISE_SET_READ_MOSTLY, gl));
		TRY(r, "families.managedpool.advise_accessed_by", cuMemAdvise_v2(b, 4 * MiB, CU_MEM_ADVISE_SET_ACCESSED_BY, gl));
		TRY(r, "families.managedpool.prefetch_gpu", cuMemPrefetchAsync_v2(b, 4 * MiB, gl, 0, s));
		CUmemLocation cl = loc(CU_MEM_LOCATION_TYPE_HOST, 0);
		TRY(r, "families.managedpool.prefetch_host", cuMemPrefetchAsync_v2(b, 4 * MiB, cl, 0, s));
		cuStreamSynchronize(s);
		int sig = 0;
		if (!(sig = sigsetjmp(g_jmp, 1))) {
			g_jmp_armed = 1;
			*(volatile uint32_t *)b = 7;
			g_jmp_armed = 0;
		}
		uint32_t got = sig ? 0 : safe_read32((void *)b, &sig);
		P("families.managedpool.cpu_rw: value=%u sig=%d\n", got, sig);
		int lastloc = -99;
		r = cuMemRangeGetAttribute(&lastloc, 4, CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, b, 4 * MiB);
		P("families.managedpool.range_attr_last_prefetch: %s value=%d\n", en(r), lastloc);
		TRY(r, "families.managedpool.attach", cuStreamAttachMemAsync(s, b, 0, CU_MEM_ATTACH_GLOBAL));
		CUdeviceptr bs[1] = { b };
		size_t ss[1] = { 4 * MiB }, ix[1] = { 0 };
		TRY(r, "families.managedpool.prefetch_batch", cuMemPrefetchBatchAsync(bs, ss, 1, &gl, ix, 1, 0, s));
		cuStreamSynchronize(s);
		cuuint64_t u = 0;
		cuMemPoolGetAttribute(mp, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &u);
		P("families.managedpool.reserved: %llu\n", (unsigned long long)u);
		CUmemAccessDesc ad = { .location = gl, .flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE };
		TRY(r, "families.managedpool.setaccess_owner", cuMemPoolSetAccess(mp, &ad, 1));
		CUmemAccess_flags af = 99;
		r = cuMemPoolGetAccess(&af, mp, &gl);
		P("families.managedpool.getaccess_owner: %s flags=%d\n", en(r), (int)af);
		af = 99;
		r = cuMemPoolGetAccess(&af, mp, &cl);
		P("families.managedpool.getaccess_host: %s flags=%d\n", en(r), (int)af);
		int fd = -1;
		TRY(r, "families.managedpool.export", cuMemPoolExportToShareableHandle(&fd, mp, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
		cuMemFreeAsync(b, s);
		cuStreamSynchronize(s);
		cuStreamDestroy(s);
		cuMemPoolDestroy(mp);
		l = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
		r = cuMemGetMemPool(&p, &l, CU_MEM_ALLOCATION_TYPE_MANAGED);
		P("families.managedpool.after_destroy_current_is_default: %s same=%s\n", en(r), p == dm ? "yes" : "no");
	}
	pr.location = loc(CU_MEM_LOCATION_TYPE_HOST, 0);
	TRY(r, "families.managedpool.create_host", cuMemPoolCreate(&mp, &pr));
	if (r == CUDA_SUCCESS)
		cuMemPoolDestroy(mp);
	pr.location = loc(CU_MEM_LOCATION_TYPE_HOST_NUMA, 0);
	TRY(r, "families.managedpool.create_numa", cuMemPoolCreate(&mp, &pr));
	if (r == CUDA_SUCCESS)
		cuMemPoolDestroy(mp);
	pr.location = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	pr.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
	TRY(r, "families.managedpool.create_posix_fd", cuMemPoolCreate(&mp, &pr));
	if (r == CUDA_SUCCESS)
		cuMemPoolDestroy(mp);
}

static void batch(void)
{
	enum { N = 4 };
	CUdeviceptr m, d, ds[N];
	size_t sz[N], ix[N] = { 0, 2, 3, 0 };
	CUmemLocation ls[N];
	CUstream s;
	CUresult r;

	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CK(cuMemAllocManaged(&m, 8 * MiB, CU_MEM_ATTACH_GLOBAL));
	CK(cuMemAlloc(&d, 2 * MiB));
	memset((void *)m, 0x5a, 8 * MiB);
	for (int i = 0; i < N; i++) {
		ds[i] = m + i * 2 * MiB;
		sz[i] = 2 * MiB;
		ls[i] = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	}
#define PB(name, ...) TRY(r, "families.batch.prefetch." name, cuMemPrefetchBatchAsync(__VA_ARGS__))
	PB("ok", ds, sz, N, ls, ix, 1, 0, s);
	PB("two_locs", ds, sz, N, ls, ix, 2, 0, s);
	PB("count0", ds, sz, 0, ls, ix, 1, 0, s);
	PB("numlocs0", ds, sz, N, ls, ix, 0, 0, s);
	size_t ix1[2] = { 1, 2 };
	PB("first_idx_1", ds, sz, N, ls, ix1, 1, 0, s);
	size_t ixd[2] = { 0, 0 };
	PB("idx_not_increasing", ds, sz, N, ls, ixd, 2, 0, s);
	size_t ixo[2] = { 0, 4 };
	PB("idx_past_count", ds, sz, N, ls, ixo, 2, 0, s);
	PB("more_locs_than_ops", ds, sz, 2, ls, ix, 3, 0, s);
	PB("flags1", ds, sz, N, ls, ix, 1, 1, s);
	PB("null_stream", ds, sz, N, ls, ix, 1, 0, (CUstream)0);
	PB("legacy_stream", ds, sz, N, ls, ix, 1, 0, CU_STREAM_LEGACY);
	PB("per_thread_stream", ds, sz, N, ls, ix, 1, 0, CU_STREAM_PER_THREAD);
	PB("null_dptrs", NULL, sz, N, ls, ix, 1, 0, s);
	PB("null_sizes", ds, NULL, N, ls, ix, 1, 0, s);
	PB("null_locs", ds, sz, N, NULL, ix, 1, 0, s);
	PB("null_idxs", ds, sz, N, ls, NULL, 1, 0, s);
	CUdeviceptr dd[2] = { m, d };
	size_t dsz[2] = { 2 * MiB, 2 * MiB };
	PB("device_mem", dd, dsz, 2, ls, ix, 1, 0, s);
	void *sys = malloc(8192);
	CUdeviceptr sp[1] = { (CUdeviceptr)sys };
	size_t ssz[1] = { 4096 };
	PB("malloc_mem", sp, ssz, 1, ls, ix, 1, 0, s);
	free(sys);
	size_t zs[1] = { 0 };
	PB("size0", ds, zs, 1, ls, ix, 1, 0, s);
	size_t big[1] = { 9 * MiB };
	PB("past_end", ds, big, 1, ls, ix, 1, 0, s);
	CUdeviceptr un[1] = { m + 100 };
	size_t usz[1] = { 1000 };
	PB("unaligned", un, usz, 1, ls, ix, 1, 0, s);
	CUmemLocation bad[1] = { loc(CU_MEM_LOCATION_TYPE_DEVICE, 99) };
	PB("bad_device", ds, sz, 1, bad, ix, 1, 0, s);
	CUmemLocation hl[1] = { loc(CU_MEM_LOCATION_TYPE_HOST, 0) };
	PB("host", ds, sz, 1, hl, ix, 1, 0, s);
	CUmemLocation nl[1] = { loc(CU_MEM_LOCATION_TYPE_HOST_NUMA, 0) };
	PB("host_numa", ds, sz, 1, nl, ix, 1, 0, s);
	CUmemLocation il[1] = { loc(CU_MEM_LOCATION_TYPE_INVALID, 0) };
	PB("invalid_loc", ds, sz, 1, il, ix, 1, 0, s);
	cuStreamSynchronize(s);
	int last = -99;
	cuMemRangeGetAttribute(&last, 4, CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, 2 * MiB);
	P("families.batch.prefetch.last_loc_after_host: %d\n", last);

#define DB(name, ...) TRY(r, "families.batch.discard." name, cuMemDiscardBatchAsync(__VA_ARGS__))
	PB("to_gpu0_before_discard", ds, sz, N, ls, ix, 1, 0, s);
	cuStreamSynchronize(s);
	DB("ok", ds, sz, N, 0, s);
	cuStreamSynchronize(s);
	last = -99;
	r = cuMemRangeGetAttribute(&last, 4, CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, 2 * MiB);
	P("families.batch.discard.last_loc_after: %s value=%d\n", en(r), last);
	int sig = 0;
	uint32_t v = safe_read32((void *)m, &sig);
	P("families.batch.discard.cpu_read_after: value=%#x sig=%d\n", v, sig);
	DB("count0", ds, sz, 0, 0, s);
	DB("flags1", ds, sz, N, 1, s);
	DB("null_stream", ds, sz, N, 0, (CUstream)0);
	DB("legacy_stream", ds, sz, N, 0, CU_STREAM_LEGACY);
	DB("per_thread_stream", ds, sz, N, 0, CU_STREAM_PER_THREAD);
	DB("device_mem", dd, dsz, 2, 0, s);
	DB("null_dptrs", NULL, sz, N, 0, s);
	DB("size0", ds, zs, 1, 0, s);
	DB("unaligned", un, usz, 1, 0, s);
	DB("past_end", ds, big, 1, 0, s);
	cuStreamSynchronize(s);
#define DP(name, ...) TRY(r, "families.batch.discard_prefetch." name, cuMemDiscardAndPrefetchBatchAsync(__VA_ARGS__))
	DP("ok", ds, sz, N, ls, ix, 1, 0, s);
	DP("count0", ds, sz, 0, ls, ix, 1, 0, s);
	DP("numlocs0", ds, sz, N, ls, ix, 0, 0, s);
	DP("first_idx_1", ds, sz, N, ls, ix1, 1, 0, s);
	DP("legacy_stream", ds, sz, N, ls, ix, 1, 0, (CUstream)0);
	DP("flags1", ds, sz, N, ls, ix, 1, 1, s);
	DP("device_mem", dd, dsz, 2, ls, ix, 1, 0, s);
	DP("host", ds, sz, 1, hl, ix, 1, 0, s);
	cuStreamSynchronize(s);
	v = safe_read32((void *)m, &sig);
	P("families.batch.discard_prefetch.cpu_read_after: value=%#x sig=%d\n", v, sig);

	/* copies */
	CUdeviceptr d2;
	CK(cuMemAlloc(&d2, 2 * MiB));
	char *hbuf = malloc(2 * MiB);
	memset(hbuf, 0x33, 2 * MiB);
	CUdeviceptr cd[2] = { d, d2 }, cs[2] = { (CUdeviceptr)hbuf, d };
	size_t csz[2] = { 1 * MiB, 1 * MiB }, aix[2] = { 0, 1 };
	CUmemcpyAttributes at[2];
	memset(at, 0, sizeof at);
	at[0].srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
	at[1] = at[0];
#define CB(name, ...) TRY(r, "families.batch.memcpy." name, cuMemcpyBatchAsync_v2(__VA_ARGS__))
	CB("ok", cd, cs, csz, 2, at, aix, 1, s);
	cuStreamSynchronize(s);
	char back[16] = { 0 };
	cuMemcpyDtoH(back, d2, 16);
	P("families.batch.memcpy.ok_effect: %s\n", back[0] == 0x33 && back[15] == 0x33 ? "copied" : "not copied");
	CB("two_attrs", cd, cs, csz, 2, at, aix, 2, s);
	CB("count0", cd, cs, csz, 0, at, aix, 1, s);
	CB("numattrs0", cd, cs, csz, 2, at, aix, 0, s);
	size_t aix1[1] = { 1 };
	CB("first_idx_1", cd, cs, csz, 2, at, aix1, 1, s);
	size_t aixd[2] = { 0, 0 };
	CB("idx_not_increasing", cd, cs, csz, 2, at, aixd, 2, s);
	size_t aixo[2] = { 0, 2 };
	CB("idx_past_count", cd, cs, csz, 2, at, aixo, 2, s);
	CB("more_attrs_than_ops", cd, cs, csz, 1, at, aix, 2, s);
	CB("null_stream", cd, cs, csz, 2, at, aix, 1, (CUstream)0);
	CB("legacy_stream", cd, cs, csz, 2, at, aix, 1, CU_STREAM_LEGACY);
	CB("per_thread_stream", cd, cs, csz, 2, at, aix, 1, CU_STREAM_PER_THREAD);
	CUmemcpyAttributes ainv[1];
	memset(ainv, 0, sizeof ainv);
	CB("order_invalid", cd, cs, csz, 2, ainv, aix, 1, s);
	ainv[0].srcAccessOrder = 4;
	CB("order_4", cd, cs, csz, 2, ainv, aix, 1, s);
	ainv[0].srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_ANY;
	ainv[0].flags = 2;
	CB("attr_flags2", cd, cs, csz, 2, ainv, aix, 1, s);
	ainv[0].flags = CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE;
	CB("attr_flags1", cd, cs, csz, 2, ainv, aix, 1, s);
	ainv[0].flags = 0;
	ainv[0].srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL;
	CB("order_during_call", cd, cs, csz, 2, ainv, aix, 1, s);
	size_t zero2[2] = { 0, 1 * MiB };
	CB("size0", cd, cs, zero2, 2, at, aix, 1, s);
	CB("null_dsts", NULL, cs, csz, 2, at, aix, 1, s);
	CB("null_attrs", cd, cs, csz, 2, NULL, aix, 1, s);
	/* a destination of 0x10 faults inside the real driver (SIGSEGV) */
	size_t over[2] = { 3 * MiB, 1 * MiB };
	CB("past_end", cd, cs, over, 2, at, aix, 1, s);
	ainv[0].srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
	ainv[0].srcLocHint = loc(CU_MEM_LOCATION_TYPE_DEVICE, 99);
	CB("bad_hint", cd, cs, csz, 2, ainv, aix, 1, s);
	cuStreamSynchronize(s);
	{
		size_t fi = 12345;
		CUresult (*v1)(CUdeviceptr *, CUdeviceptr *, size_t *, size_t,
			       CUmemcpyAttributes *, size_t *, size_t, size_t *, CUstream) =
			(CUresult (*)(CUdeviceptr *, CUdeviceptr *, size_t *, size_t,
				      CUmemcpyAttributes *, size_t *, size_t, size_t *, CUstream))
			dlsym(g_lib, "cuMemcpyBatchAsync");
		r = v1 ? v1(cd, cs, csz, 2, at, aix, 1, &fi, s) : CUDA_ERROR_UNKNOWN;
		P("families.batch.memcpy_v1.ok: %s failidx=%zu\n", en(r), fi);
		fi = 12345;
		r = v1 ? v1(cd, cs, csz, 0, at, aix, 1, &fi, s) : CUDA_ERROR_UNKNOWN;
		P("families.batch.memcpy_v1.count0: %s failidx=%zu\n", en(r), fi);
		fi = 12345;
		r = v1 ? v1(cd, cs, csz, 2, ainv, aix, 1, &fi, s) : CUDA_ERROR_UNKNOWN;
		P("families.batch.memcpy_v1.bad_hint: %s failidx=%zu\n", en(r), fi);
		/* a NULL failIdx or a destination of 0x10 faults inside the
		 * real driver (SIGSEGV) and leaves it unusable */
		cuStreamSynchronize(s);
	}
	/* 3D batch of one pointer-to-pointer op */
	CUDA_MEMCPY3D_BATCH_OP op;
	memset(&op, 0, sizeof op);
	op.src.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
	op.src.op.ptr.ptr = d;
	op.src.op.ptr.rowLength = 256;
	op.src.op.ptr.layerHeight = 4;
	op.dst = op.src;
	op.dst.op.ptr.ptr = d2;
	op.extent.width = 256;
	op.extent.height = 4;
	op.extent.depth = 2;
	op.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
#define C3(name, ...) TRY(r, "families.batch.memcpy3d." name, cuMemcpy3DBatchAsync_v2(__VA_ARGS__))
	C3("ok", 1, &op, 0, s);
	C3("count0", 0, &op, 0, s);
	C3("flags1", 1, &op, 1, s);
	C3("null_ops", 1, NULL, 0, s);
	C3("legacy_stream", 1, &op, 0, (CUstream)0);
	CUDA_MEMCPY3D_BATCH_OP o2 = op;
	o2.srcAccessOrder = 0;
	C3("order_invalid", 1, &o2, 0, s);
	o2 = op;
	o2.src.type = 0;
	C3("operand_type0", 1, &o2, 0, s);
	o2 = op;
	o2.src.op.ptr.rowLength = 100;
	C3("rowlength_lt_width", 1, &o2, 0, s);
	o2 = op;
	o2.extent.depth = 0;
	C3("depth0", 1, &o2, 0, s);
	o2 = op;
	o2.flags = 2;
	C3("op_flags2", 1, &o2, 0, s);
	cuStreamSynchronize(s);
	free(hbuf);
	cuMemFree(d2);
	cuMemFree(d);
	cuMemFree(m);
	cuStreamDestroy(s);
}

#define REPS 2000
static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}
static int cmpll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return x < y ? -1 : x > y;
}
static long long t_ns[REPS];
static void report(const char *name, CUresult r)
{
	qsort(t_ns, REPS, sizeof t_ns[0], cmpll);
	P("families.latency.%s: %s median_ns=%lld p10_ns=%lld p90_ns=%lld\n", name, en(r),
	  t_ns[REPS / 2], t_ns[REPS / 10], t_ns[REPS * 9 / 10]);
}

static void latency(void)
{
	CUresult r = CUDA_SUCCESS;
	CUstream s;
	void *p;
	CUdriverProcAddressQueryResult st;

	for (int i = 0; i < REPS; i++) {
		long long t = now_ns();
		r = cuGetProcAddress_v2("cuMemAlloc", &p, 13000, 0, &st);
		t_ns[i] = now_ns() - t;
	}
	report("cuGetProcAddress.one_name", r);

	/* 64 ranges of 64 KiB, already resident on gpu0: the call's own cost */
	enum { NR = 64 };
	CUdeviceptr m, ds[NR];
	size_t sz[NR], ix[1] = { 0 };
	CUmemLocation l = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CK(cuMemAllocManaged(&m, NR * 64 * KiB, CU_MEM_ATTACH_GLOBAL));
	for (int i = 0; i < NR; i++) {
		ds[i] = m + i * 64 * KiB;
		sz[i] = 64 * KiB;
	}
	CK(cuMemPrefetchBatchAsync(ds, sz, NR, &l, ix, 1, 0, s));
	CK(cuStreamSynchronize(s));
	for (int i = 0; i < REPS; i++) {
		long long t = now_ns();
		r = cuMemPrefetchBatchAsync(ds, sz, NR, &l, ix, 1, 0, s);
		t_ns[i] = now_ns() - t;
	}
	cuStreamSynchronize(s);
	report("cuMemPrefetchBatchAsync.64x64KiB.resident", r);
	for (int i = 0; i < REPS; i++) {
		long long t = now_ns();
		r = cuMemPrefetchBatchAsync(ds, sz, NR, &l, ix, 1, 0, s);
		if (r == CUDA_SUCCESS)
			r = cuStreamSynchronize(s);
		t_ns[i] = now_ns() - t;
	}
	report("cuMemPrefetchBatchAsync.64x64KiB.resident+sync", r);
	cuMemFree(m);

	CUmemoryPool mp;
	CUmemPoolProps pr = { 0 };
	pr.allocType = CU_MEM_ALLOCATION_TYPE_MANAGED;
	pr.location = l;
	r = cuMemPoolCreate(&mp, &pr);
	if (r == CUDA_SUCCESS) {
		CUdeviceptr b;
		for (int i = 0; i < REPS; i++) {
			long long t = now_ns();
			r = cuMemAllocFromPoolAsync(&b, 1 * MiB, mp, s);
			if (r == CUDA_SUCCESS)
				r = cuMemFreeAsync(b, s);
			t_ns[i] = now_ns() - t;
		}
		cuStreamSynchronize(s);
		report("cuMemAllocFromPoolAsync+cuMemFreeAsync.managed_pool.1MiB", r);
		cuMemPoolDestroy(mp);
	}
	cuStreamDestroy(s);
}

int main(void)
{
	setup("families");
	procaddr();
	ptds();
	attach();
	poolloc();
	batch();
	latency();
	teardown("families");
	return 0;
}
