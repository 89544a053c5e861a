/*
 * procaddr.c - cuGetProcAddress (CUDA 11.3's, and CUDA 12's _v2 with the
 * symbol status): a base name, a CUDA version and the stream flags mapped
 * to the export the real driver gives, from the one table of exports
 * (procaddr.h, made from procaddr_list.h).
 *
 * What the real driver answers (probes/results/families.txt): a version
 * above the driver's own, or flags beyond LEGACY_STREAM and
 * PER_THREAD_DEFAULT_STREAM, is INVALID_VALUE and writes nothing; a
 * negative version means the newest; otherwise _v2 answers CUDA_SUCCESS
 * with the status (found, not found, version not sufficient) and a NULL
 * function where none fits, and the first cuGetProcAddress answers
 * NOT_FOUND and leaves the function alone. With the per-thread flag a
 * name that has per-thread forms gives the newest one its version allows,
 * and none (version not sufficient) before them; a name without them
 * gives its ordinary export. The real driver faults on a NULL symbol or
 * function; here they are INVALID_VALUE.
 *
 * Needs no cuInit, as libcudart asks for cuInit itself through it.
 *
 * Locking: the sorted index is built once (pthread_once) and read-only
 * after; nothing else is shared.
 */
/* for the first cuGetProcAddress's prototype */
#define CUEMU_SUPERSEDED_ENTRY_POINTS 1
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "driver/driver.h"
#include "driver/procaddr.h"

#define PROC_FLAGS (CU_GET_PROC_ADDRESS_LEGACY_STREAM | \
		    CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM)

/* The exports ordered by name, then ordinary before per-thread, then by
 * version: a name's records are one run, found by binary search. Global
 * because the table is the process's and built once. */
static const struct cuemu_export **by_name;
static pthread_once_t by_name_once = PTHREAD_ONCE_INIT;

static int export_cmp(const void *a, const void *b)
{
	const struct cuemu_export *x = *(const struct cuemu_export *const *)a;
	const struct cuemu_export *y = *(const struct cuemu_export *const *)b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->per_thread != y->per_thread)
		return x->per_thread - y->per_thread;
	return (x->version > y->version) - (x->version < y->version);
}

static void by_name_build(void)
{
	const struct cuemu_export **v = malloc(cuemu_nexports * sizeof *v);

	if (!v)
		return;	/* every lookup then finds nothing, and says so */
	for (size_t i = 0; i < cuemu_nexports; i++)
		v[i] = &cuemu_exports[i];
	qsort(v, cuemu_nexports, sizeof *v, export_cmp);
	by_name = v;
}

/* The index of the first record of name, or cuemu_nexports. */
static size_t first_of(const char *name)
{
	size_t lo = 0, hi = cuemu_nexports;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(by_name[mid]->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < cuemu_nexports && !strcmp(by_name[lo]->name, name) ?
	       lo : cuemu_nexports;
}

/* The export name gives at version, per thread or not: *fn and the
 * status the real driver reports. */
static CUdriverProcAddressQueryResult lookup(const char *name, int version,
					     int per_thread, void **fn)
{
	size_t i, n = cuemu_nexports;
	int has_pt = 0;
	const struct cuemu_export *best = NULL;

	*fn = NULL;
	pthread_once(&by_name_once, by_name_build);
	if (!by_name || (i = first_of(name)) == n)
		return CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
	for (size_t j = i; j < n && !strcmp(by_name[j]->name, name); j++)
		has_pt |= by_name[j]->per_thread;
	per_thread = per_thread && has_pt;
	for (; i < n && !strcmp(by_name[i]->name, name); i++)
		if (by_name[i]->per_thread == per_thread &&
		    by_name[i]->version <= version)
			best = by_name[i];
	if (!best)
		return CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
	*fn = (void *)best->fn;
	return CU_GET_PROC_ADDRESS_SUCCESS;
}

/* The checks both versions make, in the real driver's order; the version
 * to search at in *version. */
static CUresult check(const char *symbol, void **pfn, int *version,
		      cuuint64_t flags)
{
	if (!symbol || !pfn)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "symbol or pfn is NULL");
	if (*version > CUDA_VERSION)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "CUDA version %d is newer than the "
				  "driver's %d", *version, CUDA_VERSION);
	if (flags & ~(cuuint64_t)PROC_FLAGS)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "flags 0x%llx: use CU_GET_PROC_ADDRESS_*",
				  (unsigned long long)flags);
	if (*version < 0)
		*version = CUDA_VERSION;
	return CUDA_SUCCESS;
}

CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion,
			     cuuint64_t flags,
			     CUdriverProcAddressQueryResult *symbolStatus)
{
	CUdriverProcAddressQueryResult st;
	CUresult r = check(symbol, pfn, &cudaVersion, flags);

	if (r != CUDA_SUCCESS)
		return r;
	st = lookup(symbol, cudaVersion,
		    !!(flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM),
		    pfn);
	if (symbolStatus)
		*symbolStatus = st;
	return CUDA_SUCCESS;
}

#undef cuGetProcAddress
CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion,
			  cuuint64_t flags)
{
	void *fn;
	CUresult r = check(symbol, pfn, &cudaVersion, flags);

	if (r != CUDA_SUCCESS)
		return r;
	if (lookup(symbol, cudaVersion,
		   !!(flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM),
		   &fn) != CU_GET_PROC_ADDRESS_SUCCESS)
		return cuemu_fail(CUDA_ERROR_NOT_FOUND,
				  "no %s for CUDA %d", symbol, cudaVersion);
	*pfn = fn;
	return CUDA_SUCCESS;
}
