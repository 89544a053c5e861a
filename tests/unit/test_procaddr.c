/*
 * test_procaddr.c - cuGetProcAddress (both versions) and
 * cudaGetDriverEntryPoint(ByVersion) give the export the real driver
 * gives for a name, a CUDA version and the stream flags, with its symbol
 * status and errors (shared/reference/real-driver-api-families.txt,
 * probes/results/families.txt); and every export of libcuemu is in the
 * one list the table is made from.
 */
#define _GNU_SOURCE
#define CUEMU_SUPERSEDED_ENTRY_POINTS 1
#include <dlfcn.h>
#include <stdint.h>

#include "cuda.h"
#include "cuda_runtime_api.h"
#include "tap.h"

#undef cuGetProcAddress

/* The name of the export p is, among the suffixes a name takes. */
static const char *which(const char *name, void *p)
{
	static const char *suf[] = { "", "_v2", "_v3", "_v4", "_ptsz",
				     "_ptds", "_v2_ptsz", "_v2_ptds", NULL };
	static char buf[160];

	if (!p)
		return "null";
	if (p == (void *)1)
		return "untouched";
	for (int i = 0; suf[i]; i++) {
		snprintf(buf, sizeof buf, "%s%s", name, suf[i]);
		if (dlsym(RTLD_DEFAULT, buf) == p)
			return buf;
	}
	return "other";
}

/* One line of the probe: cuGetProcAddress_v2(name, version, flags) gives
 * r, status st and the export want ("null", "untouched"). */
static void pa(const char *name, int ver, cuuint64_t flags, CUresult want_r,
	       int want_st, const char *want)
{
	void *p = (void *)1;
	CUdriverProcAddressQueryResult st = (CUdriverProcAddressQueryResult)-1;
	CUresult r = cuGetProcAddress_v2(name, &p, ver, flags, &st);

	ok(r == want_r && (int)st == want_st && !strcmp(which(name, p), want),
	   "%s at %d, flags %llu: %s status=%d is=%s", name, ver,
	   (unsigned long long)flags, tap_res_name(want_r), want_st, want);
	if (r != want_r || (int)st != want_st || strcmp(which(name, p), want))
		printf("#   got %s status=%d is=%s\n", tap_res_name(r), (int)st,
		       which(name, p));
}

static void test_reference(void)
{
	/* real-driver-api-families.txt, procaddr.* */
	pa("cuMemAlloc", 3000, 0, CUDA_SUCCESS, 0, "cuMemAlloc");
	pa("cuMemAlloc", 3020, 0, CUDA_SUCCESS, 0, "cuMemAlloc_v2");
	pa("cuMemAlloc", 13000, 0, CUDA_SUCCESS, 0, "cuMemAlloc_v2");
	pa("cuMemAdvise", 12000, 0, CUDA_SUCCESS, 0, "cuMemAdvise");
	pa("cuMemAdvise", 12020, 0, CUDA_SUCCESS, 0, "cuMemAdvise_v2");
	pa("cuMemAdvise", 13000, 0, CUDA_SUCCESS, 0, "cuMemAdvise_v2");
	pa("cuMemPrefetchAsync", 12000, 0, CUDA_SUCCESS, 0,
	   "cuMemPrefetchAsync");
	pa("cuMemPrefetchAsync", 13000, 0, CUDA_SUCCESS, 0,
	   "cuMemPrefetchAsync_v2");
	pa("cuMemPrefetchAsync", 13000, 2, CUDA_SUCCESS, 0,
	   "cuMemPrefetchAsync_v2_ptsz");
	pa("cuMemAlloc", 99999, 0, CUDA_ERROR_INVALID_VALUE, -1, "untouched");
	pa("cuMemAlloc", 13000, 8, CUDA_ERROR_INVALID_VALUE, -1, "untouched");
}

static void test_versions_and_flags(void)
{
	/* probes/results/families.txt, families.procaddr.* */
	pa("cuMemAlloc", 0, 0, CUDA_SUCCESS, 2, "null");
	pa("cuMemAlloc", -1, 0, CUDA_SUCCESS, 0, "cuMemAlloc_v2");
	pa("cuMemAlloc", 1000, 0, CUDA_SUCCESS, 2, "null");
	pa("cuMemAlloc", 2000, 0, CUDA_SUCCESS, 0, "cuMemAlloc");
	pa("cuMemAlloc", 13010, 0, CUDA_ERROR_INVALID_VALUE, -1, "untouched");
	pa("cuMemAlloc", 14000, 0, CUDA_ERROR_INVALID_VALUE, -1, "untouched");
	pa("cuMemAlloc", 13000, 1, CUDA_SUCCESS, 0, "cuMemAlloc_v2");
	pa("cuMemAlloc", 13000, 2, CUDA_SUCCESS, 0, "cuMemAlloc_v2");
	pa("cuMemAlloc", 13000, 3, CUDA_SUCCESS, 0, "cuMemAlloc_v2");
	pa("cuMemAlloc", 13000, 4, CUDA_ERROR_INVALID_VALUE, -1, "untouched");
	pa("cuMemAllocAsync", 11000, 0, CUDA_SUCCESS, 2, "null");
	pa("cuMemAllocAsync", 11020, 0, CUDA_SUCCESS, 0, "cuMemAllocAsync");
	pa("cuGetProcAddress", 12000, 0, CUDA_SUCCESS, 0,
	   "cuGetProcAddress_v2");
	pa("cuGetProcAddress", 13000, 0, CUDA_SUCCESS, 0,
	   "cuGetProcAddress_v2");
	pa("cuGetProcAddress_v2", 13000, 0, CUDA_SUCCESS, 1, "null");
	pa("cuMemAlloc_v2", 13000, 0, CUDA_SUCCESS, 1, "null");
	pa("cuNoSuchCall", 13000, 0, CUDA_SUCCESS, 1, "null");
	pa("cuNoSuchCall", 99999, 0, CUDA_ERROR_INVALID_VALUE, -1,
	   "untouched");
	pa("", 13000, 0, CUDA_SUCCESS, 1, "null");
	pa("cuGetErrorName", 13000, 2, CUDA_SUCCESS, 0, "cuGetErrorName");
	pa("cuCtxCreate", 13000, 0, CUDA_SUCCESS, 0, "cuCtxCreate_v4");
	pa("cuDeviceTotalMem", 13000, 0, CUDA_SUCCESS, 0,
	   "cuDeviceTotalMem_v2");
	/* per-thread forms appeared in CUDA 7.0: none before */
	pa("cuMemPrefetchAsync", 12000, 2, CUDA_SUCCESS, 0,
	   "cuMemPrefetchAsync_ptsz");
}

static void test_arguments(void)
{
	void *p = (void *)1;
	CUdriverProcAddressQueryResult st = (CUdriverProcAddressQueryResult)-1;

	/* the real driver faults on these two */
	is_res(cuGetProcAddress_v2(NULL, &p, 13000, 0, &st),
	       CUDA_ERROR_INVALID_VALUE, "a NULL symbol is INVALID_VALUE");
	is_res(cuGetProcAddress_v2("cuMemAlloc", NULL, 13000, 0, &st),
	       CUDA_ERROR_INVALID_VALUE, "a NULL pfn is INVALID_VALUE");
	is_res(cuGetProcAddress_v2("cuMemAlloc", &p, 13000, 0, NULL),
	       CUDA_SUCCESS, "the status is optional");
	ok(p == (void *)cuMemAlloc_v2, "... and cuMemAlloc is cuMemAlloc_v2");
	p = (void *)1;
	is_res(cuGetProcAddress_v2("cuNoSuchCall", &p, 13000, 0, NULL),
	       CUDA_SUCCESS, "not found without a status: CUDA_SUCCESS");
	ok(p == NULL, "... and the function is NULL");
}

static void test_v1(void)
{
	void *p = (void *)1;

	is_res(cuGetProcAddress("cuMemAdvise", &p, 12020, 0), CUDA_SUCCESS,
	       "cuGetProcAddress (11.3) finds cuMemAdvise at 12020");
	ok(!strcmp(which("cuMemAdvise", p), "cuMemAdvise_v2"),
	   "... cuMemAdvise_v2");
	p = (void *)1;
	is_res(cuGetProcAddress("cuNoSuchCall", &p, 12020, 0),
	       CUDA_ERROR_NOT_FOUND, "an unknown name is NOT_FOUND");
	ok(p == (void *)1, "... and the function is left alone");
	is_res(cuGetProcAddress("cuMemAllocAsync", &p, 11000, 0),
	       CUDA_ERROR_NOT_FOUND, "a version too old is NOT_FOUND");
	ok(p == (void *)1, "... and the function is left alone");
	is_res(cuGetProcAddress("cuMemAlloc", &p, 99999, 0),
	       CUDA_ERROR_INVALID_VALUE, "a version past the driver's");
	is_res(cuGetProcAddress("cuMemAlloc", &p, 13000, 4),
	       CUDA_ERROR_INVALID_VALUE, "flags 4");
}

/* Every name in the table answers at CUDA_VERSION with a callable export:
 * the table is libcuemu's own (a missing export would not link). */
static void test_runtime(void)
{
	void *p = (void *)1;
	enum cudaDriverEntryPointQueryResult st = (enum cudaDriverEntryPointQueryResult)-1;

	is_int(cudaGetDriverEntryPoint("cuMemAlloc", &p, cudaEnableDefault,
				       &st), cudaSuccess,
	       "cudaGetDriverEntryPoint(cuMemAlloc)");
	ok(p == (void *)cuMemAlloc_v2 && st == cudaDriverEntryPointSuccess,
	   "... is cuMemAlloc_v2, found");
	is_int(cudaGetDriverEntryPointByVersion("cuMemAdvise", &p, 12000, 0,
						&st), cudaSuccess,
	       "cudaGetDriverEntryPointByVersion(cuMemAdvise, 12000)");
	ok(!strcmp(which("cuMemAdvise", p), "cuMemAdvise"),
	   "... is the old cuMemAdvise");
	is_int(cudaGetDriverEntryPointByVersion("cuMemPrefetchAsync", &p,
						13000,
						cudaEnablePerThreadDefaultStream,
						&st), cudaSuccess,
	       "per thread at 13000");
	ok(!strcmp(which("cuMemPrefetchAsync", p),
		   "cuMemPrefetchAsync_v2_ptsz"),
	   "... is cuMemPrefetchAsync_v2_ptsz");
	is_int(cudaGetDriverEntryPoint("cuNoSuchCall", &p, 0, &st),
	       cudaSuccess, "an unknown name: cudaSuccess");
	ok(p == NULL && st == cudaDriverEntryPointSymbolNotFound,
	   "... NULL, SymbolNotFound");
	is_int(cudaGetDriverEntryPointByVersion("cuMemAllocAsync", &p, 11000,
						0, &st), cudaSuccess,
	       "a version too old: cudaSuccess");
	ok(p == NULL && st == cudaDriverEntryPointVersionNotSufficent,
	   "... NULL, VersionNotSufficent");
	is_int(cudaGetDriverEntryPointByVersion("cuMemAlloc", &p, 99999, 0,
						&st), cudaErrorInvalidValue,
	       "a version past the driver's: cudaErrorInvalidValue");
	is_int(cudaGetDriverEntryPointByVersion("cuMemAlloc", &p, 0x80000000u,
						0, &st), cudaErrorInvalidValue,
	       "a version past INT_MAX: cudaErrorInvalidValue");
	is_int(cudaGetDriverEntryPoint("cuMemAlloc", &p, 8, &st),
	       cudaErrorInvalidValue, "flags 8: cudaErrorInvalidValue");
}

/* The pointer the table gives is the function itself: called through it,
 * cuDriverGetVersion answers. */
static void test_call_through(void)
{
	CUresult (*fn)(int *) = NULL;
	int v = 0;

	is_res(cuGetProcAddress_v2("cuDriverGetVersion", (void **)&fn, 13000,
				   0, NULL), CUDA_SUCCESS,
	       "cuDriverGetVersion by name");
	ok(fn && fn(&v) == CUDA_SUCCESS && v == CUDA_VERSION,
	   "... and called through the pointer it answers %d", CUDA_VERSION);
}

int main(void)
{
	test_reference();
	test_versions_and_flags();
	test_arguments();
	test_v1();
	test_runtime();
	test_call_through();
	return done_testing();
}
