/*
 * test_batch.c - the batches (cuMemPrefetchBatchAsync, cuMemDiscardBatchAsync,
 * cuMemDiscardAndPrefetchBatchAsync, cuMemcpyBatchAsync in both forms,
 * cuMemBatchDecompressAsync, their _ptsz forms and the cuda* names), as the
 * real driver answers them (probes/results/batch.txt, families.txt): every
 * error, what a refused batch leaves done, the location index walk, and
 * what a discard does to residency (shown in /cu) and to the bytes.
 */
#define CUEMU_PER_THREAD_ENTRY_POINTS 1
#define CUEMU_SUPERSEDED_ENTRY_POINTS 1
#include <stdint.h>
#include <unistd.h>

#include "cuda.h"
#include "cuda_runtime_api.h"
#include "tap.h"
#include "ctl.h"

#undef cuMemcpyBatchAsync /* the 12.8 form by its own name */

#define MiB (1UL << 20)
enum { N = 4 };

static CUstream s;
static CUdeviceptr m, d, ds[N];
static size_t sz[N], ix[N] = { 0, 2, 3, 0 };
static CUmemLocation ls[N];

static CUmemLocation loc(CUmemLocationType t, int id)
{
	return (CUmemLocation){ t, id };
}

static int lastloc(CUdeviceptr p, size_t n)
{
	int v = -99;

	cuMemRangeGetAttribute(&v, 4, CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION,
			       p, n);
	return v;
}

static void test_prefetch_errors(void)
{
	size_t ix1[2] = { 1, 2 }, ixo[2] = { 0, 4 }, ixd[2] = { 0, 0 };
	CUdeviceptr dd[2] = { m, d };
	size_t dsz[2] = { 2 * MiB, 2 * MiB }, zs[1] = { 0 }, big[1] = { 9 * MiB };
	CUmemLocation bad = loc(CU_MEM_LOCATION_TYPE_DEVICE, 99);
	CUmemLocation inv = loc(CU_MEM_LOCATION_TYPE_INVALID, 0);
	const CUresult V = CUDA_ERROR_INVALID_VALUE;

	is_res(cuMemPrefetchBatchAsync(ds, sz, N, ls, ix, 1, 0, s),
	       CUDA_SUCCESS, "prefetch batch (batch.prefetch.ok)");
	is_res(cuMemPrefetchBatchAsync(ds, sz, 0, ls, ix, 1, 0, s), V, "count 0");
	is_res(cuMemPrefetchBatchAsync(ds, sz, N, ls, ix, 0, 0, s), V,
	       "no location");
	is_res(cuMemPrefetchBatchAsync(ds, sz, N, ls, ix1, 1, 0, s), V,
	       "first index 1");
	is_res(cuMemPrefetchBatchAsync(ds, sz, N, ls, ixd, 2, 0, s),
	       CUDA_SUCCESS, "indices not increasing are taken");
	is_res(cuMemPrefetchBatchAsync(ds, sz, N, ls, ixo, 2, 0, s), V,
	       "an index past the last operation");
	is_res(cuMemPrefetchBatchAsync(ds, sz, 2, ls, ix, 3, 0, s), V,
	       "more locations than operations");
	is_res(cuMemPrefetchBatchAsync(ds, sz, N, ls, ix, 1, 1, s), V, "flags 1");
	is_res(cuMemPrefetchBatchAsync(ds, sz, N, ls, ix, 1, 0, NULL), V,
	       "the null stream");
	is_res(cuMemPrefetchBatchAsync(ds, sz, N, ls, ix, 1, 0, CU_STREAM_LEGACY),
	       V, "the legacy stream");
	is_res(cuMemPrefetchBatchAsync(ds, sz, N, ls, ix, 1, 0,
				       CU_STREAM_PER_THREAD), CUDA_SUCCESS,
	       "the per-thread stream");
	is_res(cuMemPrefetchBatchAsync(NULL, sz, N, ls, ix, 1, 0, s), V,
	       "NULL pointers");
	is_res(cuMemPrefetchBatchAsync(ds, NULL, N, ls, ix, 1, 0, s), V,
	       "NULL sizes");
	is_res(cuMemPrefetchBatchAsync(ds, sz, N, NULL, ix, 1, 0, s), V,
	       "NULL locations");
	is_res(cuMemPrefetchBatchAsync(ds, sz, N, ls, NULL, 1, 0, s), V,
	       "NULL indices");
	is_res(cuMemPrefetchBatchAsync(dd, dsz, 2, ls, ix, 1, 0, s), V,
	       "device memory");
	is_res(cuMemPrefetchBatchAsync(ds, zs, 1, ls, ix, 1, 0, s), V, "size 0");
	is_res(cuMemPrefetchBatchAsync(ds, big, 1, ls, ix, 1, 0, s), V,
	       "past the end");
	is_res(cuMemPrefetchBatchAsync(ds, sz, 1, &bad, ix, 1, 0, s), V,
	       "device 99: INVALID_VALUE, not INVALID_DEVICE");
	is_res(cuMemPrefetchBatchAsync(ds, sz, 1, &inv, ix, 1, 0, s), V,
	       "an INVALID location");
	is_res(cuMemPrefetchBatchAsync_ptsz(ds, sz, N, ls, ix, 1, 0, NULL),
	       CUDA_SUCCESS, "_ptsz takes the null stream as the thread's");
	cuStreamSynchronize(s);
}

static void test_refused_leaves(void)
{
	CUmemLocation h = loc(CU_MEM_LOCATION_TYPE_HOST, 0);
	CUdeviceptr dd[2] = { m, d };
	size_t dsz[2] = { 2 * MiB, 2 * MiB }, one[1] = { 0 };

	cuMemPrefetchBatchAsync(ds, sz, 1, &h, one, 1, 0, s);
	cuStreamSynchronize(s);
	is_int(lastloc(m, 2 * MiB), -1, "first range prefetched to the host");
	is_res(cuMemPrefetchBatchAsync(dd, dsz, 2, ls, one, 1, 0, s),
	       CUDA_ERROR_INVALID_VALUE, "second operation on device memory");
	cuStreamSynchronize(s);
	is_int(lastloc(m, 2 * MiB), 0,
	       "... the first was done all the same (op1_device_mem.op0_lastloc)");
	cuMemPrefetchBatchAsync(ds, sz, 1, &h, one, 1, 0, s);
	is_res(cuMemPrefetchBatchAsync(ds, sz, 2, ls, one, 1, 1, s),
	       CUDA_ERROR_INVALID_VALUE, "flags 1");
	cuStreamSynchronize(s);
	is_int(lastloc(m, 2 * MiB), -1, "... a whole-batch error does nothing");
}

static void test_index_walk(void)
{
	CUmemLocation dh[3] = { loc(CU_MEM_LOCATION_TYPE_DEVICE, 0),
				loc(CU_MEM_LOCATION_TYPE_HOST, 0),
				loc(CU_MEM_LOCATION_TYPE_DEVICE, 0) };
	CUmemLocation hd[3] = { loc(CU_MEM_LOCATION_TYPE_HOST, 0),
				loc(CU_MEM_LOCATION_TYPE_DEVICE, 0),
				loc(CU_MEM_LOCATION_TYPE_DEVICE, 0) };
	size_t i02[2] = { 0, 2 }, i031[3] = { 0, 3, 1 }, i00[2] = { 0, 0 };

	cuMemPrefetchBatchAsync(ds, sz, N, dh, i02, 2, 0, s);
	cuStreamSynchronize(s);
	ok(lastloc(ds[0], sz[0]) == 0 && lastloc(ds[1], sz[1]) == 0 &&
	   lastloc(ds[2], sz[2]) == -1 && lastloc(ds[3], sz[3]) == -1,
	   "indices 0 2: operations 0-1 on gpu0, 2-3 on the host");
	cuMemPrefetchBatchAsync(ds, sz, N, hd, i031, 3, 0, s);
	cuStreamSynchronize(s);
	ok(lastloc(ds[0], sz[0]) == -1 && lastloc(ds[1], sz[1]) == -1 &&
	   lastloc(ds[2], sz[2]) == -1 && lastloc(ds[3], sz[3]) == 0,
	   "indices 0 3 1: the index behind the walk is never reached");
	cuMemPrefetchBatchAsync(ds, sz, N, dh, i00, 2, 0, s);
	cuStreamSynchronize(s);
	ok(lastloc(ds[0], sz[0]) == 0 && lastloc(ds[3], sz[3]) == 0,
	   "indices 0 0: the second location is never reached");
}

static void test_discard(void)
{
	CUdeviceptr dd[2] = { m, d };
	size_t dsz[2] = { 2 * MiB, 2 * MiB };
	const CUresult V = CUDA_ERROR_INVALID_VALUE;
	char buf[256];
	uint32_t v = 0;

	is_res(cuMemDiscardBatchAsync(ds, sz, 0, 0, s), V, "discard: count 0");
	is_res(cuMemDiscardBatchAsync(ds, sz, N, 1, s), V, "discard: flags 1");
	is_res(cuMemDiscardBatchAsync(ds, sz, N, 0, NULL), V,
	       "discard: the null stream");
	is_res(cuMemDiscardBatchAsync(ds, sz, N, 0, CU_STREAM_LEGACY), V,
	       "discard: the legacy stream");
	is_res(cuMemDiscardBatchAsync(dd, dsz, 2, 0, s), V,
	       "discard: device memory");
	is_res(cuMemDiscardBatchAsync(NULL, sz, N, 0, s), V,
	       "discard: NULL pointers");
	is_res(cuMemDiscardBatchAsync(ds, NULL, N, 0, s), V, "discard: NULL sizes");
	is_res(cuMemDiscardBatchAsync(ds, (size_t[]){ 0 }, 1, 0, s), V,
	       "discard: size 0");
	is_res(cuMemDiscardBatchAsync(ds, (size_t[]){ 9 * MiB }, 1, 0, s), V,
	       "discard: past the end");
	is_res(cuMemDiscardBatchAsync_ptsz(ds, sz, 1, 0, NULL), CUDA_SUCCESS,
	       "discard _ptsz: the null stream is the thread's");

	memset((void *)m, 0x5a, 8 * MiB);
	cuMemPrefetchBatchAsync(ds, sz, N, ls, ix, 1, 0, s);
	cuStreamSynchronize(s);
	ok(strstr(ctl_holders(m, buf, sizeof buf), "gpu0") != NULL,
	   "/cu: gpu0 holds the prefetched range");
	is_res(cuMemDiscardBatchAsync(ds, sz, N, 0, s), CUDA_SUCCESS, "discard");
	cuStreamSynchronize(s);
	ctl_holders(m, buf, sizeof buf);
	ok(strstr(buf, "gpu0") == NULL && strstr(buf, "cpu") == NULL,
	   "/cu: a discarded range has no holder");
	if (strstr(buf, "gpu0"))
		printf("#   %s\n", buf);
	is_int(lastloc(m, 8 * MiB), 0, "the last prefetch location stays");
	cuMemcpyDtoH(&v, m + 4 * MiB, 4);
	is_int(v, 0x5a5a5a5a, "the old bytes stay readable by a copy");
	is_int(*(volatile uint32_t *)(m + 6 * MiB), 0x5a5a5a5a,
	       "... and by the CPU");
	is_res(cuMemDiscardAndPrefetchBatchAsync(ds, sz, N, ls, ix, 1, 0, s),
	       CUDA_SUCCESS, "discard and prefetch to gpu0");
	cuStreamSynchronize(s);
	ok(strstr(ctl_holders(m, buf, sizeof buf), "gpu0") != NULL,
	   "/cu: gpu0 holds it again");
	is_res(cuMemDiscardAndPrefetchBatchAsync(ds, sz, N, ls, ix, 1, 0,
						 CU_STREAM_LEGACY),
	       V, "discard and prefetch: the legacy stream");
	is_res(cuMemDiscardAndPrefetchBatchAsync(ds, sz, N, ls,
						 (size_t[]){ 1 }, 1, 0, s),
	       V, "discard and prefetch: first index 1");
	is_res(cuMemDiscardAndPrefetchBatchAsync(dd, dsz, 2, ls, ix, 1, 0, s),
	       V, "discard and prefetch: device memory");
	is_res(cuMemDiscardAndPrefetchBatchAsync_ptsz(ds, sz, 1, ls, ix, 1, 0,
						      NULL),
	       CUDA_SUCCESS, "discard and prefetch _ptsz: the null stream");
	cuStreamSynchronize(s);
}

/* Keeps a stream busy for a while, so that what follows waits. */
static void CUDA_CB busy(void *arg)
{
	(void)arg;
	usleep(50000);
}

static void test_copies(void)
{
	CUdeviceptr d2 = 0;
	char *h = malloc(MiB);
	unsigned char c = 0;
	size_t fi, aix[2] = { 0, 1 };
	CUmemcpyAttributes at[2] = { { .srcAccessOrder =
					     CU_MEMCPY_SRC_ACCESS_ORDER_STREAM } };
	CUmemcpyAttributes bad = { 0 };
	const CUresult V = CUDA_ERROR_INVALID_VALUE;

	at[1] = at[0];
	if (!h || cuMemAlloc(&d2, 2 * MiB)) {
		ok(0, "copy setup");
		free(h);
		return;
	}
	memset(h, 0x33, MiB);
	CUdeviceptr cd[2] = { d, d2 }, cs[2] = { (CUdeviceptr)h, d };
	size_t csz[2] = { MiB, MiB };

	is_res(cuMemcpyBatchAsync_v2(cd, cs, csz, 2, at, aix, 1, s),
	       CUDA_SUCCESS, "copy batch");
	cuStreamSynchronize(s);
	cuMemcpyDtoH(&c, d2 + 100, 1);
	is_int(c, 0x33, "... host to device, then device to device");
	is_res(cuMemcpyBatchAsync_v2(cd, cs, csz, 0, at, aix, 1, s), V, "count 0");
	is_res(cuMemcpyBatchAsync_v2(cd, cs, csz, 2, at, aix, 0, s), V,
	       "no attribute");
	is_res(cuMemcpyBatchAsync_v2(cd, cs, csz, 2, at, (size_t[]){ 1 }, 1, s),
	       V, "first index 1");
	is_res(cuMemcpyBatchAsync_v2(cd, cs, csz, 2, at, (size_t[]){ 0, 0 }, 2,
				     s), V, "indices not increasing");
	is_res(cuMemcpyBatchAsync_v2(cd, cs, csz, 1, at, aix, 2, s), V,
	       "more attributes than copies");
	is_res(cuMemcpyBatchAsync_v2(cd, cs, csz, 2, at, aix, 1, NULL), V,
	       "the null stream");
	is_res(cuMemcpyBatchAsync_v2(cd, cs, csz, 2, at, aix, 1,
				     CU_STREAM_LEGACY), V, "the legacy stream");
	is_res(cuMemcpyBatchAsync_v2_ptsz(cd, cs, csz, 2, at, aix, 1, NULL), V,
	       "_ptsz: the null stream is refused too (memcpy.ptsz_null_stream)");
	is_res(cuMemcpyBatchAsync_v2(cd, cs, csz, 2, &bad, aix, 1, s), V,
	       "source access order INVALID");
	bad.srcAccessOrder = 4;
	is_res(cuMemcpyBatchAsync_v2(cd, cs, csz, 2, &bad, aix, 1, s), V,
	       "source access order 4");
	bad.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_ANY;
	bad.flags = 2;
	is_res(cuMemcpyBatchAsync_v2(cd, cs, csz, 2, &bad, aix, 1, s), V,
	       "attribute flags 2");
	bad.flags = 0;
	bad.dstLocHint = loc(CU_MEM_LOCATION_TYPE_DEVICE, 99);
	is_res(cuMemcpyBatchAsync_v2(cd, cs, csz, 2, &bad, aix, 1, s), V,
	       "a hint on device 99");
	bad.dstLocHint = loc(CU_MEM_LOCATION_TYPE_INVALID, 0);
	is_res(cuMemcpyBatchAsync_v2(cd, cs, csz, 2, &bad, aix, 1, s),
	       CUDA_SUCCESS, "an INVALID hint is no hint");
	CUmemcpyAttributes during = {
		.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL };
	void *pin = NULL;
	if (cuMemAllocHost(&pin, 4096) == CUDA_SUCCESS) {
		CUdeviceptr ps[1] = { (CUdeviceptr)pin };
		memset(pin, 0x55, 4096);
		cuLaunchHostFunc(s, busy, NULL); /* the copy is not first on s */
		is_res(cuMemcpyBatchAsync_v2(cd, ps, (size_t[]){ 4096 }, 1,
					     &during, aix, 1, s), CUDA_SUCCESS,
		       "a copy from pinned memory read during the call");
		memset(pin, 0x44, 4096); /* the caller may reuse it at once */
		cuStreamSynchronize(s);
		c = 0;
		cuMemcpyDtoH(&c, d + 10, 1);
		is_int(c, 0x55, "... the copy has the bytes of the call's time");
		cuMemFreeHost(pin);
	} else {
		ok(0, "pinned memory");
	}
	is_res(cuMemcpyBatchAsync_v2(cd, cs, (size_t[]){ MiB, 0 }, 2, at, aix,
				     1, s), V, "a copy of 0 bytes");
	is_res(cuMemcpyBatchAsync_v2(NULL, cs, csz, 2, at, aix, 1, s), V,
	       "NULL destinations");
	is_res(cuMemcpyBatchAsync_v2(cd, cs, csz, 2, NULL, aix, 1, s), V,
	       "NULL attributes");
	fi = 7;
	is_res(cuMemcpyBatchAsync(cd, cs, csz, 2, at, aix, 1, &fi, s),
	       CUDA_SUCCESS, "12.8 form");
	is_int(fi, SIZE_MAX, "... failIdx SIZE_MAX on success");
	fi = 7;
	is_res(cuMemcpyBatchAsync(cd, cs, (size_t[]){ MiB, 3 * MiB }, 2, at,
				  aix, 1, &fi, s), V, "12.8 form: copy 1 past the end");
	is_int(fi, 1, "... failIdx 1");
	fi = 7;
	is_res(cuMemcpyBatchAsync(cd, cs, csz, 2, at, (size_t[]){ 1 }, 1, &fi,
				  s), V, "12.8 form: first index 1");
	is_int(fi, SIZE_MAX, "... failIdx SIZE_MAX for the whole batch");
	cuStreamSynchronize(s);
	cuMemsetD8(d2, 0, 2 * MiB);
	CUdeviceptr rd[2] = { d2, d }, rs[2] = { (CUdeviceptr)h, d };
	is_res(cuMemcpyBatchAsync_v2(rd, rs, (size_t[]){ MiB, 3 * MiB }, 2, at,
				     aix, 1, s), V, "second copy past the end");
	cuStreamSynchronize(s);
	c = 0;
	cuMemcpyDtoH(&c, d2, 1);
	is_int(c, 0x33, "... the first copy landed (op1_past_end.op0_done)");
	is_int(cudaMemcpyBatchAsync((void *const *)cd, (const void *const *)cs,
				    csz, 2, (struct cudaMemcpyAttributes *)at,
				    aix, 1, (cudaStream_t)s), cudaSuccess,
	       "cudaMemcpyBatchAsync");
	is_int(cudaMemcpyBatchAsync((void *const *)cd, (const void *const *)cs,
				    csz, 0, (struct cudaMemcpyAttributes *)at,
				    aix, 1, (cudaStream_t)s),
	       cudaErrorInvalidValue, "cudaMemcpyBatchAsync: count 0");
	cuStreamSynchronize(s);
	cudaGetLastError();
	cuMemFree(d2);
	free(h);
}

static void test_decompress(void)
{
	CUmemDecompressParams p = { .srcNumBytes = 1024 };
	size_t ei = 12345;
	int v = -1;

	is_res(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_ALGORITHM_MASK, 0),
	       CUDA_SUCCESS, "decompression algorithm mask");
	is_int(v, 0, "... no engine");
	is_res(cuMemBatchDecompressAsync(&p, 1, 0, &ei, s),
	       CUDA_ERROR_NOT_SUPPORTED, "decompression: NOT_SUPPORTED");
	is_int(ei, 12345, "... the error index unwritten");
	is_res(cuMemBatchDecompressAsync(NULL, 0, 1, NULL, CU_STREAM_LEGACY),
	       CUDA_ERROR_NOT_SUPPORTED, "... whatever the arguments");
	is_res(cuMemBatchDecompressAsync_ptsz(&p, 1, 0, &ei, NULL),
	       CUDA_ERROR_NOT_SUPPORTED, "... and in its _ptsz form");
}

static void test_runtime(void)
{
	void *dp[1] = { (void *)m };
	size_t one[1] = { 2 * MiB }, i0[1] = { 0 };
	struct cudaMemLocation l = { cudaMemLocationTypeDevice, 0 };

	is_int(cudaMemPrefetchBatchAsync(dp, one, 1, &l, i0, 1, 0,
					 (cudaStream_t)s), cudaSuccess,
	       "cudaMemPrefetchBatchAsync");
	is_int(cudaMemPrefetchBatchAsync(dp, one, 1, &l, i0, 1, 0, NULL),
	       cudaErrorInvalidValue, "... on the null stream");
	cudaGetLastError();
	is_int(cudaMemDiscardBatchAsync(dp, one, 1, 0, (cudaStream_t)s),
	       cudaSuccess, "cudaMemDiscardBatchAsync");
	is_int(cudaMemDiscardAndPrefetchBatchAsync(dp, one, 1, &l, i0, 1, 0,
						   (cudaStream_t)s),
	       cudaSuccess, "cudaMemDiscardAndPrefetchBatchAsync");
	cuStreamSynchronize(s);
}

static void test_procaddr(void)
{
	CUdriverProcAddressQueryResult st;
	void *p = NULL;

	cuGetProcAddress_v2("cuMemPrefetchBatchAsync", &p, 13000, 0, &st);
	ok(p == (void *)cuMemPrefetchBatchAsync && st == 0,
	   "cuGetProcAddress: cuMemPrefetchBatchAsync at 13000");
	cuGetProcAddress_v2("cuMemDiscardBatchAsync", &p, 12090, 0, &st);
	ok(p == NULL && st == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT,
	   "... cuMemDiscardBatchAsync not before 13000");
	cuGetProcAddress_v2("cuMemcpyBatchAsync", &p, 12090, 0, &st);
	ok(p == (void *)cuMemcpyBatchAsync, "cuMemcpyBatchAsync at 12090: the 12.8 form");
	cuGetProcAddress_v2("cuMemcpyBatchAsync", &p, 13000, 2, &st);
	ok(p == (void *)cuMemcpyBatchAsync_v2_ptsz, "... at 13000 per thread: _v2_ptsz");
	cuGetProcAddress_v2("cuMemBatchDecompressAsync", &p, 12060, 0, &st);
	ok(p == (void *)cuMemBatchDecompressAsync, "cuMemBatchDecompressAsync at 12060");
	cuGetProcAddress_v2("cuMemSetMemPool", &p, 12090, 0, &st);
	ok(p == NULL && st == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT,
	   "cuMemSetMemPool not before 13000");
}

int main(void)
{
	CUdevice dev;
	CUcontext ctx;

	is_res(cuMemPrefetchBatchAsync(ds, sz, N, ls, ix, 1, 0, NULL),
	       CUDA_ERROR_NOT_INITIALIZED, "before cuInit");
	if (cuInit(0) || cuDeviceGet(&dev, 0) ||
	    cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx) ||
	    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) ||
	    cuMemAllocManaged(&m, 8 * MiB, CU_MEM_ATTACH_GLOBAL) ||
	    cuMemAlloc(&d, 2 * MiB)) {
		ok(0, "setup");
		return done_testing();
	}
	for (int i = 0; i < N; i++) {
		ds[i] = m + i * 2 * MiB;
		sz[i] = 2 * MiB;
		ls[i] = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	}
	test_prefetch_errors();
	test_refused_leaves();
	test_index_walk();
	test_discard();
	test_copies();
	test_decompress();
	test_runtime();
	test_procaddr();
	cuMemFree(m);
	cuMemFree(d);
	cuStreamDestroy(s);
	return done_testing();
}
