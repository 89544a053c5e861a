/*
 * test_managed.c - managed memory: the range model (split, merge, no state
 * per page), cuMemAllocManaged, advice, prefetch and range attributes with
 * every managed-memory case the real driver was measured on
 * (real-driver-managed-pinned.txt), residency through device capacity,
 * model time, oversubscription and its eviction order, and what a 1 TiB
 * allocation costs.
 *
 * The range model (runtime/range.c) is compiled into this program and
 * tested directly; everything else goes through the API.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <jansson.h>

#include "cuda.h"
#include "cuda_runtime_api.h"
#include "cuemu.h"
#include "model/managed.h"
#include "tap.h"
#include "ctl.h"
#include "spawn.h"

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

/* The real libcuda still exports the pre-13 forms under the unversioned
 * names (cuda.h maps those names to the _v2 forms). */
extern CUresult advise_old(CUdeviceptr, size_t, CUmem_advise, CUdevice)
	__asm__("cuMemAdvise");
extern CUresult prefetch_old(CUdeviceptr, size_t, CUdevice, CUstream)
	__asm__("cuMemPrefetchAsync");

#define KIB (1ULL << 10)
#define MIB (1ULL << 20)
#define GIB (1ULL << 30)
#define PAGE 4096ULL

/* ------------------------------------------------------------------ */
/* The range model                                                     */

static void set_rm(struct mrange *r, void *arg)
{
	r->read_mostly = *(bool *)arg;
}

static void set_holder(struct mrange *r, void *arg)
{
	r->holders = *(cuemu_procmask *)arg;
	r->lru++;
}

/* The ranges as "start-end:rm" words relative to base, for comparison. */
static const char *shape(struct mranges *m, uintptr_t base)
{
	static char buf[512];
	struct mrange *r;
	size_t n = 0;

	buf[0] = '\0';
	for (r = mr_first(m); r && n < sizeof buf - 40; r = mr_next(m, r))
		n += snprintf(buf + n, sizeof buf - n, "%s%lu-%lu:%d",
			      n ? " " : "", (unsigned long)((r->start - base) / PAGE),
			      (unsigned long)((r->end - base) / PAGE),
			      r->read_mostly);
	return buf;
}

/* mr_graft: a wider map takes a narrower one's state over its span. */
static void test_graft(uintptr_t b)
{
	struct mranges wide, narrow;
	bool t = true;
	cuemu_procmask h = (cuemu_procmask)1 << 2;

	mr_init(&wide, b, b + 100 * PAGE);
	mr_init(&narrow, b + 10 * PAGE, b + 30 * PAGE);
	mr_update(&narrow, b + 10 * PAGE, b + 20 * PAGE, set_rm, &t);
	mr_update(&narrow, b + 15 * PAGE, b + 25 * PAGE, set_holder, &h);
	mr_update(&wide, b + 30 * PAGE, b + 40 * PAGE, set_rm, &t);
	ok(mr_graft(&wide, &narrow) == 0, "model: graft of a narrower map");
	ok(!strcmp(shape(&wide, b), "0-10:0 10-15:1 15-20:1 20-25:0 25-30:0 "
		   "30-40:1 40-100:0"),
	   "model: its ranges take the narrower one's policy: %s",
	   shape(&wide, b));
	ok(mr_find(&wide, b + 15 * PAGE)->holders == h &&
	   mr_find(&wide, b + 24 * PAGE)->holders == h &&
	   mr_find(&wide, b + 25 * PAGE)->holders == 0 &&
	   mr_find(&wide, b + 9 * PAGE)->holders == 0,
	   "model: ... and residency, nothing outside its span");
	ok(narrow.n == 4, "model: the narrower map is left as it was (%zu)",
	   narrow.n);
	mr_destroy(&wide);
	mr_destroy(&narrow);
}

static void test_range_model(void)
{
	struct mranges m;
	uintptr_t b = 1ULL << 40;
	bool t = true, f = false;
	cuemu_procmask h = (cuemu_procmask)1 << CUEMU_PROC_HOST;
	int i;

	ok(mr_init(&m, b, b + 100 * PAGE) == 0 && m.n == 1,
	   "model: a fresh allocation is one range");
	ok(mr_update(&m, b + 10 * PAGE, b + 20 * PAGE, set_rm, &t) == 0,
	   "model: update of a middle span");
	ok(!strcmp(shape(&m, b), "0-10:0 10-20:1 20-100:0"),
	   "model: it splits into three: %s", shape(&m, b));
	mr_update(&m, b + 20 * PAGE, b + 30 * PAGE, set_rm, &t);
	ok(!strcmp(shape(&m, b), "0-10:0 10-30:1 30-100:0"),
	   "model: an equal neighbour merges: %s", shape(&m, b));
	mr_update(&m, b + 5 * PAGE, b + 15 * PAGE, set_rm, &f);
	ok(!strcmp(shape(&m, b), "0-15:0 15-30:1 30-100:0"),
	   "model: overlapping the left edge moves it: %s", shape(&m, b));
	mr_update(&m, b, b + 100 * PAGE, set_rm, &f);
	ok(m.n == 1 && !strcmp(shape(&m, b), "0-100:0"),
	   "model: undoing everything merges back to one range");
	mr_update(&m, b + 40 * PAGE, b + 41 * PAGE, set_holder, &h);
	ok(m.n == 3, "model: residency splits like policy (%zu ranges)", m.n);
	ok(mr_find(&m, b + 40 * PAGE + 17)->holders == h &&
	   mr_find(&m, b + 41 * PAGE)->holders == 0,
	   "model: lookup finds the range holding an interior address");
	ok(mr_find(&m, b + 100 * PAGE) == NULL && mr_find(&m, b - 1) == NULL,
	   "model: no range outside the allocation");
	h = 0;
	mr_update(&m, b + 40 * PAGE, b + 41 * PAGE, set_holder, &h);
	ok(m.n == 1, "model: bookkeeping (lru) does not stop a merge");
	mr_destroy(&m);

	/* 1000 alternate pages of 2000 */
	mr_init(&m, b, b + 2000 * PAGE);
	for (i = 0; i < 1000; i++)
		mr_update(&m, b + (2 * i + 1) * PAGE, b + (2 * i + 2) * PAGE,
			  set_rm, &t);
	ok(m.n == 2000, "model: 1000 alternating advices make 2000 ranges");
	for (i = 0; i < 1000; i++)
		mr_update(&m, b + 2 * i * PAGE, b + (2 * i + 1) * PAGE, set_rm,
			  &t);
	ok(m.n == 1, "model: filling the gaps merges them all into one");
	mr_destroy(&m);
	test_graft(b);
}

/* ------------------------------------------------------------------ */
/* Range attributes in the reference's words                           */

static const char *rname(CUresult r)
{
	const char *s = "?";
	cuGetErrorName(r, &s);
	return s;
}

/* All eight attributes of [p, p+n), formatted as the reference prints
 * them. */
static const char *query(CUdeviceptr p, size_t n)
{
	static char buf[512];
	int rm = -99, pl = -99, ab[3] = { -99, -99, -99 }, lp = -99;
	int pt = -99, pid = -99, lt = -99, lid = -99;
	CUresult r1, r2, r3, r4, r5, r6, r7, r8;

	r1 = cuMemRangeGetAttribute(&rm, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, n);
	r2 = cuMemRangeGetAttribute(&pl, 4, CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, p, n);
	r3 = cuMemRangeGetAttribute(ab, 12, CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, p, n);
	r4 = cuMemRangeGetAttribute(&lp, 4, CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, p, n);
	r5 = cuMemRangeGetAttribute(&pt, 4, CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, p, n);
	r6 = cuMemRangeGetAttribute(&pid, 4, CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID, p, n);
	r7 = cuMemRangeGetAttribute(&lt, 4, CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, p, n);
	r8 = cuMemRangeGetAttribute(&lid, 4, CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID, p, n);
	snprintf(buf, sizeof buf,
		 "read_mostly=%d/%s preferred=%d/%s accessed_by=%d,%d,%d/%s "
		 "last_prefetch=%d/%s pref_type=%d/%s pref_id=%d/%s "
		 "lp_type=%d/%s lp_id=%d/%s",
		 rm, rname(r1), pl, rname(r2), ab[0], ab[1], ab[2], rname(r3),
		 lp, rname(r4), pt, rname(r5), pid, rname(r6), lt, rname(r7),
		 lid, rname(r8));
	return buf;
}

#define S "/CUDA_SUCCESS"
#define FRESH "read_mostly=0" S " preferred=-2" S " accessed_by=-2,-2,-2" S \
	" last_prefetch=-2" S " pref_type=0" S " pref_id=-2" S " lp_type=0" S \
	" lp_id=-2" S
#define BAD "read_mostly=-99/CUDA_ERROR_INVALID_VALUE " \
	"preferred=-99/CUDA_ERROR_INVALID_VALUE " \
	"accessed_by=-99,-99,-99/CUDA_ERROR_INVALID_VALUE " \
	"last_prefetch=-99/CUDA_ERROR_INVALID_VALUE " \
	"pref_type=-99/CUDA_ERROR_INVALID_VALUE " \
	"pref_id=-99/CUDA_ERROR_INVALID_VALUE " \
	"lp_type=-99/CUDA_ERROR_INVALID_VALUE lp_id=-99/CUDA_ERROR_INVALID_VALUE"

#define is_query(p, n, want, name)                                          \
	do {                                                                \
		const char *got_ = query(p, n);                             \
		if (!ok(!strcmp(got_, want), "%s", name))                   \
			printf("#   got  %s\n#   want %s\n", got_, want);   \
	} while (0)

static CUmemLocation dev(int d)
{
	return (CUmemLocation){ CU_MEM_LOCATION_TYPE_DEVICE, d };
}

static CUmemLocation loc(CUmemLocationType t, int id)
{
	return (CUmemLocation){ t, id };
}

#define SZ (4 * MIB)
#define HALF (SZ / 2)

static void test_preferred(void)
{
	CUdeviceptr p;

	is_res(cuMemAllocManaged(&p, SZ, CU_MEM_ATTACH_GLOBAL), CUDA_SUCCESS,
	       "managed: cuMemAllocManaged 4 MiB");
	is_query(p, SZ, FRESH, "managed.fresh");
	is_res(cuMemAdvise(p, SZ, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, dev(0)),
	       CUDA_SUCCESS, "managed.advise_pref_dev0");
	is_query(p, SZ, "read_mostly=0" S " preferred=0" S " accessed_by=-2,-2,-2" S
		 " last_prefetch=-2" S " pref_type=1" S " pref_id=0" S " lp_type=0" S
		 " lp_id=-2" S, "managed.after_pref_dev0");
	is_res(cuMemAdvise(p, HALF, CU_MEM_ADVISE_SET_PREFERRED_LOCATION,
			   loc(CU_MEM_LOCATION_TYPE_HOST, 0)),
	       CUDA_SUCCESS, "managed.advise_pref_host_half");
	is_query(p, SZ, FRESH, "managed.whole_after_half_host");
	is_query(p, HALF, "read_mostly=0" S " preferred=-1" S " accessed_by=-2,-2,-2" S
		 " last_prefetch=-2" S " pref_type=2" S " pref_id=-1" S " lp_type=0" S
		 " lp_id=-2" S, "managed.first_half");
	is_query(p + HALF, HALF, "read_mostly=0" S " preferred=0" S
		 " accessed_by=-2,-2,-2" S " last_prefetch=-2" S " pref_type=1" S
		 " pref_id=0" S " lp_type=0" S " lp_id=-2" S, "managed.second_half");
	is_res(cuMemAdvise(p, HALF, CU_MEM_ADVISE_SET_PREFERRED_LOCATION,
			   loc(CU_MEM_LOCATION_TYPE_HOST_NUMA, 0)),
	       CUDA_SUCCESS, "managed.advise_pref_numa0_half");
	is_query(p, HALF, "read_mostly=0" S " preferred=-1" S " accessed_by=-2,-2,-2" S
		 " last_prefetch=-2" S " pref_type=2" S " pref_id=-1" S " lp_type=0" S
		 " lp_id=-2" S, "managed.first_half_numa0 (reads back as the host)");
	is_res(cuMemAdvise(p, HALF, CU_MEM_ADVISE_SET_PREFERRED_LOCATION,
			   loc(CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT, 0)),
	       CUDA_SUCCESS, "managed.advise_pref_numa_current");
	is_query(p, HALF, "read_mostly=0" S " preferred=-1" S " accessed_by=-2,-2,-2" S
		 " last_prefetch=-2" S " pref_type=2" S " pref_id=-1" S " lp_type=0" S
		 " lp_id=-2" S, "managed.first_half_numa_current");
	is_res(cuMemAdvise(p, SZ, CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION, dev(0)),
	       CUDA_SUCCESS, "managed.unset_pref");
	is_query(p, SZ, FRESH, "managed.after_unset_pref");
	is_res(cuMemAdvise(p + 100, 10, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, dev(0)),
	       CUDA_SUCCESS, "managed.advise_unaligned");
	is_query(p, PAGE, "read_mostly=0" S " preferred=0" S " accessed_by=-2,-2,-2" S
		 " last_prefetch=-2" S " pref_type=1" S " pref_id=0" S " lp_type=0" S
		 " lp_id=-2" S, "managed.page0_after_unaligned: widened to the page");
	is_query(p + PAGE, PAGE, FRESH, "managed.page1_after_unaligned");
	is_query(p + 4000, 200, FRESH,
		 "managed: a query across two pages that disagree is mixed");
	is_res(cuMemFree(p), CUDA_SUCCESS, "managed: cuMemFree");
}

static void test_accessed_by(void)
{
	CUdeviceptr p;
	int ab[4] = { -99, -99, -99, -99 };

	cuMemAllocManaged(&p, SZ, CU_MEM_ATTACH_GLOBAL);
	is_res(cuMemAdvise(p, SZ, CU_MEM_ADVISE_SET_ACCESSED_BY, dev(0)),
	       CUDA_SUCCESS, "managed.ab_dev0");
	is_query(p, SZ, "read_mostly=0" S " preferred=-2" S " accessed_by=0,-2,-2" S
		 " last_prefetch=-2" S " pref_type=0" S " pref_id=-2" S " lp_type=0" S
		 " lp_id=-2" S, "managed.after_ab_dev0");
	is_res(cuMemAdvise(p, SZ, CU_MEM_ADVISE_SET_ACCESSED_BY,
			   loc(CU_MEM_LOCATION_TYPE_HOST, 0)),
	       CUDA_SUCCESS, "managed.ab_host");
	is_query(p, SZ, "read_mostly=0" S " preferred=-2" S " accessed_by=0,-1,-2" S
		 " last_prefetch=-2" S " pref_type=0" S " pref_id=-2" S " lp_type=0" S
		 " lp_id=-2" S, "managed.after_ab_host");
	is_res(cuMemRangeGetAttribute(ab, 4, CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY,
				      p, SZ), CUDA_SUCCESS,
	       "managed.ab_small_buffer");
	ok(ab[0] == 0 && ab[1] == -99, "managed.ab_small_buffer: first=0, "
	   "nothing written past dataSize");
	is_res(cuMemAdvise(p, SZ, CU_MEM_ADVISE_SET_ACCESSED_BY,
			   loc(CU_MEM_LOCATION_TYPE_HOST_NUMA, 0)),
	       CUDA_ERROR_INVALID_VALUE, "managed.ab_numa0");
	is_res(cuMemAdvise(p, HALF, CU_MEM_ADVISE_UNSET_ACCESSED_BY,
			   loc(CU_MEM_LOCATION_TYPE_HOST, 0)),
	       CUDA_SUCCESS, "managed.unset_ab_host_half");
	is_query(p, SZ, "read_mostly=0" S " preferred=-2" S " accessed_by=0,-2,-2" S
		 " last_prefetch=-2" S " pref_type=0" S " pref_id=-2" S " lp_type=0" S
		 " lp_id=-2" S, "managed.whole_after_unset_ab_host_half");
	is_query(p + HALF, HALF, "read_mostly=0" S " preferred=-2" S
		 " accessed_by=0,-1,-2" S " last_prefetch=-2" S " pref_type=0" S
		 " pref_id=-2" S " lp_type=0" S " lp_id=-2" S,
		 "managed.second_half_after_unset_ab_host_half");
	cuMemFree(p);

	cuMemAllocManaged(&p, SZ, CU_MEM_ATTACH_GLOBAL);
	is_res(cuMemAdvise(p, SZ, CU_MEM_ADVISE_SET_READ_MOSTLY, dev(0)),
	       CUDA_SUCCESS, "managed.rm_set");
	is_res(cuMemAdvise(p + HALF, HALF, CU_MEM_ADVISE_UNSET_READ_MOSTLY, dev(0)),
	       CUDA_SUCCESS, "managed.rm_unset_half");
	is_query(p, SZ, FRESH, "managed.whole_after_rm_half");
	is_query(p, HALF, "read_mostly=1" S " preferred=-2" S " accessed_by=-2,-2,-2" S
		 " last_prefetch=-2" S " pref_type=0" S " pref_id=-2" S " lp_type=0" S
		 " lp_id=-2" S, "managed.first_after_rm_half");
	cuMemFree(p);
}

static void test_prefetch_attrs(CUstream s)
{
	CUdeviceptr p;

	cuMemAllocManaged(&p, SZ, CU_MEM_ATTACH_GLOBAL);
	is_res(cuMemPrefetchAsync(p, SZ, dev(0), 0, s), CUDA_SUCCESS,
	       "managed.prefetch_dev0");
	is_query(p, SZ, "read_mostly=0" S " preferred=-2" S " accessed_by=-2,-2,-2" S
		 " last_prefetch=0" S " pref_type=0" S " pref_id=-2" S " lp_type=1" S
		 " lp_id=0" S, "managed.after_prefetch_dev0_nosync: set when enqueued");
	cuStreamSynchronize(s);
	is_query(p, SZ, "read_mostly=0" S " preferred=-2" S " accessed_by=-2,-2,-2" S
		 " last_prefetch=0" S " pref_type=0" S " pref_id=-2" S " lp_type=1" S
		 " lp_id=0" S, "managed.after_prefetch_dev0");
	is_res(cuMemPrefetchAsync(p, HALF, loc(CU_MEM_LOCATION_TYPE_HOST, 0), 0, s),
	       CUDA_SUCCESS, "managed.prefetch_host_half");
	is_query(p, SZ, FRESH, "managed.whole_after_prefetch_host_half");
	is_query(p, HALF, "read_mostly=0" S " preferred=-2" S " accessed_by=-2,-2,-2" S
		 " last_prefetch=-1" S " pref_type=0" S " pref_id=-2" S " lp_type=2" S
		 " lp_id=-1" S, "managed.first_after_prefetch_host_half");
	is_res(cuMemPrefetchAsync(p, HALF, loc(CU_MEM_LOCATION_TYPE_HOST_NUMA, 0),
				  0, s), CUDA_SUCCESS, "managed.prefetch_numa0");
	is_query(p, HALF, "read_mostly=0" S " preferred=-2" S " accessed_by=-2,-2,-2" S
		 " last_prefetch=-1" S " pref_type=0" S " pref_id=-2" S " lp_type=3" S
		 " lp_id=0" S, "managed.first_after_prefetch_numa0");
	is_res(cuMemPrefetchAsync(p, HALF,
				  loc(CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT, 0),
				  0, s), CUDA_SUCCESS, "managed.prefetch_numa_current");
	is_query(p, HALF, "read_mostly=0" S " preferred=-2" S " accessed_by=-2,-2,-2" S
		 " last_prefetch=-1" S " pref_type=0" S " pref_id=-2" S " lp_type=4" S
		 " lp_id=0" S, "managed.first_after_prefetch_numa_current");
	is_res(cuMemPrefetchAsync(p, SZ, dev(0), 1, s), CUDA_ERROR_INVALID_VALUE,
	       "managed.prefetch_flags1");
	is_res(cuMemPrefetchAsync(p, SZ, dev(99), 0, s), CUDA_ERROR_INVALID_DEVICE,
	       "managed.prefetch_bad_dev");
	is_res(cuMemPrefetchAsync(p + 100, 10, dev(0), 0, s), CUDA_SUCCESS,
	       "managed.prefetch_unaligned");
	is_query(p, PAGE, "read_mostly=0" S " preferred=-2" S " accessed_by=-2,-2,-2" S
		 " last_prefetch=0" S " pref_type=0" S " pref_id=-2" S " lp_type=1" S
		 " lp_id=0" S, "managed.page0_after_unaligned_prefetch");
	is_res(cuMemPrefetchAsync(p, SZ, loc(CU_MEM_LOCATION_TYPE_INVALID, 0), 0, s),
	       CUDA_ERROR_INVALID_VALUE, "managed.prefetch_invalid_loc");
	is_res(cuMemPrefetchAsync(p, SZ, loc(CU_MEM_LOCATION_TYPE_HOST_NUMA, 99),
				  0, s), CUDA_ERROR_INVALID_VALUE,
	       "managed: prefetch to a NUMA node that does not exist");
	is_res(cuMemAdvise(p, SZ, CU_MEM_ADVISE_SET_PREFERRED_LOCATION,
			   loc(CU_MEM_LOCATION_TYPE_INVALID, 0)),
	       CUDA_ERROR_INVALID_VALUE, "managed.advise_invalid_loc");
	is_res(cuMemAdvise(p, SZ, CU_MEM_ADVISE_SET_PREFERRED_LOCATION,
			   loc((CUmemLocationType)7, 0)),
	       CUDA_ERROR_INVALID_VALUE, "managed: advise with a bad location type");
	is_res(cuMemAdvise(p, 0, CU_MEM_ADVISE_SET_READ_MOSTLY, dev(0)),
	       CUDA_ERROR_INVALID_VALUE, "managed.advise_count0");
	is_res(cuMemAdvise(0, SZ, CU_MEM_ADVISE_SET_READ_MOSTLY, dev(0)),
	       CUDA_ERROR_INVALID_VALUE, "managed.advise_null");
	is_res(cuMemAdvise(p, SZ, (CUmem_advise)77, dev(0)),
	       CUDA_ERROR_INVALID_VALUE, "managed.advise_bad_enum");
	is_res(cuMemAdvise(p, SZ, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, dev(99)),
	       CUDA_ERROR_INVALID_VALUE, "managed.advise_bad_dev");
	is_res(cuMemAdvise(p, SZ, CU_MEM_ADVISE_SET_ACCESSED_BY, dev(99)),
	       CUDA_ERROR_INVALID_VALUE, "managed.advise_ab_bad_dev");
	is_res(cuMemAdvise(p, SZ + PAGE * 2, CU_MEM_ADVISE_SET_READ_MOSTLY, dev(0)),
	       CUDA_ERROR_INVALID_VALUE, "managed.advise_past_end");
	is_res(cuMemPrefetchAsync(p, 0, dev(0), 0, s), CUDA_ERROR_INVALID_VALUE,
	       "managed.prefetch_count0");
	is_res(cuMemPrefetchAsync(p, SZ + 2 * PAGE, dev(0), 0, s),
	       CUDA_ERROR_INVALID_VALUE, "managed.prefetch_past_end");
	cuStreamSynchronize(s);
	cuMemFree(p);
}

static void test_query_errors(void)
{
	CUdeviceptr p, q, lo, hi;
	int v[4], rm = -99, pl = -99, ab[2] = { -99, -99 };
	void *data[3] = { &rm, &pl, ab };
	size_t sizes[3] = { 4, 4, 8 };
	CUmem_range_attribute at[3] = { CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY,
		CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION,
		CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY };
	char line[64];

	cuMemAllocManaged(&p, SZ, CU_MEM_ATTACH_GLOBAL);
	is_res(cuMemRangeGetAttribute(v, 8, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, SZ),
	       CUDA_ERROR_INVALID_VALUE, "managed.rga_size8");
	is_res(cuMemRangeGetAttribute(v, 0, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, SZ),
	       CUDA_ERROR_INVALID_VALUE, "managed.rga_size0");
	is_res(cuMemRangeGetAttribute(v, 6, CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, p, SZ),
	       CUDA_ERROR_INVALID_VALUE, "managed.rga_ab_size6");
	is_res(cuMemRangeGetAttribute(v, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, 0),
	       CUDA_ERROR_INVALID_VALUE, "managed.rga_count0");
	is_res(cuMemRangeGetAttribute(v, 4, (CUmem_range_attribute)99, p, SZ),
	       CUDA_ERROR_INVALID_VALUE, "managed.rga_bad_attr");
	is_res(cuMemRangeGetAttribute(v, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p,
				      SZ + 2 * PAGE),
	       CUDA_ERROR_INVALID_VALUE, "managed.rga_past_end");
	is_res(cuMemRangeGetAttribute(NULL, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY,
				      p, SZ),
	       CUDA_ERROR_INVALID_VALUE, "managed.rga_null_data");

	cuMemAllocManaged(&q, SZ, CU_MEM_ATTACH_GLOBAL);
	lo = p < q ? p : q;
	hi = p < q ? q : p;
	if (lo + SZ != hi && RUNNING_ON_VALGRIND)
		printf("ok %d - managed.second_adjacent # SKIP valgrind places "
		       "mappings its own way\n", ++tap_n);
	else if (!ok(lo + SZ == hi, "managed.second_adjacent: yes"))
		printf("#   p 0x%llx q 0x%llx\n", (unsigned long long)p,
		       (unsigned long long)q);
	/* probes/results/ranges.txt: ranges.layout, ranges.layout.reuse_freed */
	if (RUNNING_ON_VALGRIND) {
		printf("ok %d - managed.second_after_first # SKIP valgrind "
		       "places mappings its own way\n", ++tap_n);
		printf("ok %d - managed.freed_address_reused_first # SKIP "
		       "valgrind\n", ++tap_n);
	} else {
		CUdeviceptr r1 = 0, r2 = 0, r3 = 0;

		ok(q == p + SZ, "managed.second_after_first: upwards");
		cuMemAllocManaged(&r1, SZ, CU_MEM_ATTACH_GLOBAL);
		cuMemAllocManaged(&r2, SZ, CU_MEM_ATTACH_GLOBAL);
		cuMemFree(r1);
		cuMemAllocManaged(&r3, SZ, CU_MEM_ATTACH_GLOBAL);
		ok(r3 == r1, "managed.freed_address_reused_first");
		cuMemFree(r2);
		cuMemFree(r3);
	}
	is_res(cuMemAdvise(lo + SZ - PAGE, 2 * PAGE, CU_MEM_ADVISE_SET_READ_MOSTLY,
			   dev(0)),
	       CUDA_ERROR_INVALID_VALUE, "managed.advise_across_two");
	is_query(lo + SZ - PAGE, 2 * PAGE, BAD, "managed.query_across_two");

	is_res(cuMemRangeGetAttributes(data, sizes, at, 3, p, SZ), CUDA_SUCCESS,
	       "managed.rgas");
	snprintf(line, sizeof line, "rm=%d pl=%d ab=%d,%d", rm, pl, ab[0], ab[1]);
	ok(!strcmp(line, "rm=0 pl=-2 ab=-2,-2"), "managed.rgas: %s", line);
	sizes[1] = 8;
	is_res(cuMemRangeGetAttributes(data, sizes, at, 3, p, SZ),
	       CUDA_ERROR_INVALID_VALUE, "managed.rgas_badsize");
	sizes[1] = 4;
	is_res(cuMemRangeGetAttributes(data, sizes, at, 0, p, SZ),
	       CUDA_ERROR_INVALID_VALUE, "managed.rgas_zero_n");
	cuMemFree(q);
	cuMemFree(p);
	is_res(cuMemAdvise(p, SZ, CU_MEM_ADVISE_SET_READ_MOSTLY, dev(0)),
	       CUDA_ERROR_INVALID_VALUE, "managed.advise_after_free");
	is_query(p, SZ, BAD, "managed.range_after_free");
}

static void test_other_memory(CUstream s)
{
	CUdeviceptr d;
	void *h, *m = malloc(SZ);

	is_res(cuMemAlloc(&d, SZ), CUDA_SUCCESS, "device_mem: cuMemAlloc");
	is_res(cuMemAdvise(d, SZ, CU_MEM_ADVISE_SET_READ_MOSTLY, dev(0)),
	       CUDA_ERROR_INVALID_VALUE, "device_mem.advise");
	is_res(cuMemPrefetchAsync(d, SZ, dev(0), 0, s), CUDA_ERROR_INVALID_VALUE,
	       "device_mem.prefetch");
	is_query(d, SZ, BAD, "device_mem.range");
	cuMemFree(d);
	is_res(cuMemAllocHost(&h, SZ), CUDA_SUCCESS, "pinned_mem: cuMemAllocHost");
	is_res(cuMemAdvise((CUdeviceptr)h, SZ, CU_MEM_ADVISE_SET_READ_MOSTLY, dev(0)),
	       CUDA_ERROR_INVALID_VALUE, "pinned_mem.advise");
	is_query((CUdeviceptr)h, SZ, BAD, "pinned_mem.range");
	cuMemFreeHost(h);
	is_res(cuMemAdvise((CUdeviceptr)m, SZ, CU_MEM_ADVISE_SET_READ_MOSTLY, dev(0)),
	       CUDA_ERROR_INVALID_VALUE, "system_mem.advise");
	is_res(cuMemPrefetchAsync((CUdeviceptr)m, SZ, dev(0), 0, s),
	       CUDA_ERROR_INVALID_VALUE, "system_mem.prefetch");
	is_query((CUdeviceptr)m, SZ, BAD, "system_mem.range");
	free(m);
}

static void test_multi(CUstream s)
{
	CUdeviceptr p;

	cuMemAllocManaged(&p, SZ, CU_MEM_ATTACH_GLOBAL);
	is_res(cuMemAdvise(p, SZ, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, dev(1)),
	       CUDA_SUCCESS, "multi.pref_dev1");
	is_res(cuMemAdvise(p, SZ, CU_MEM_ADVISE_SET_ACCESSED_BY, dev(1)),
	       CUDA_SUCCESS, "multi.ab_dev1");
	is_res(cuMemAdvise(p, SZ, CU_MEM_ADVISE_SET_ACCESSED_BY, dev(0)),
	       CUDA_SUCCESS, "multi.ab_dev0");
	is_res(cuMemPrefetchAsync(p, SZ, dev(1), 0, s), CUDA_SUCCESS,
	       "multi.prefetch_dev1");
	cuStreamSynchronize(s);
	is_query(p, SZ, "read_mostly=0" S " preferred=1" S " accessed_by=0,1,-2" S
		 " last_prefetch=1" S " pref_type=1" S " pref_id=1" S " lp_type=1" S
		 " lp_id=1" S, "multi.after: devices in order, not in advice order");
	cuMemFree(p);
}

/* The old unversioned forms and the runtime API. */
static void test_other_forms(CUstream s)
{
	struct cudaMemLocation l1 = { cudaMemLocationTypeDevice, 1 };
	void *rp = NULL;
	int v = -99;
	CUdeviceptr p;

	cuMemAllocManaged(&p, SZ, CU_MEM_ATTACH_GLOBAL);
	is_res(advise_old(p, SZ, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, CU_DEVICE_CPU),
	       CUDA_SUCCESS, "cuMemAdvise (pre-13 form) with CU_DEVICE_CPU");
	cuMemRangeGetAttribute(&v, 4, CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, p, SZ);
	is_int(v, CU_DEVICE_CPU, "  preferred location reads back as the CPU");
	is_res(prefetch_old(p, SZ, 1, s), CUDA_SUCCESS,
	       "cuMemPrefetchAsync (pre-13 form) to device 1");
	cuMemRangeGetAttribute(&v, 4, CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION,
			       p, SZ);
	is_int(v, 1, "  last prefetch location is device 1");
	cuStreamSynchronize(s);
	cuMemFree(p);

	ok(cudaMallocManaged(&rp, SZ, cudaMemAttachGlobal) == cudaSuccess && rp,
	   "cudaMallocManaged 4 MiB");
	ok(cudaMemAdvise(rp, SZ, cudaMemAdviseSetPreferredLocation, l1) ==
	   cudaSuccess, "cudaMemAdvise preferred location gpu1");
	ok(cudaMemPrefetchAsync(rp, SZ, l1, 0, 0) == cudaSuccess,
	   "cudaMemPrefetchAsync to gpu1");
	ok(cudaMemRangeGetAttribute(&v, 4, cudaMemRangeAttributePreferredLocation,
				    rp, SZ) == cudaSuccess && v == 1,
	   "cudaMemRangeGetAttribute reads gpu1");
	ok(cudaMemAdvise(rp, 0, cudaMemAdviseSetReadMostly, l1) ==
	   cudaErrorInvalidValue, "cudaMemAdvise count 0 is cudaErrorInvalidValue");
	cudaGetLastError();
	ok(cudaDeviceSynchronize() == cudaSuccess, "cudaDeviceSynchronize");
	ok(cudaFree(rp) == cudaSuccess, "cudaFree of managed memory");
	ok(cudaMallocManaged(&rp, 0, cudaMemAttachGlobal) == cudaErrorInvalidValue,
	   "cudaMallocManaged of 0 bytes is cudaErrorInvalidValue");
	cudaGetLastError();
}

/* Cases measured by a probe of our own on an H100, driver 580.159. */
static void test_probed(CUstream s)
{
	CUmemLocation bad = { (CUmemLocationType)9, 0 };
	CUmemLocation numa_cur5 = { CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT, 5 };
	CUdeviceptr p, q = 0;
	CUcontext ctx;
	int v = -99;
	void *data[2] = { &v, NULL };
	size_t sizes[2] = { 4, 4 };
	CUmem_range_attribute at[2] = { CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY,
		CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION };

	is_res(cuMemAllocManaged(&p, 4 * MIB + 100, CU_MEM_ATTACH_GLOBAL),
	       CUDA_SUCCESS, "probe: odd-sized allocation");
	is_int(p % (2 * MIB), 0, "probe: managed memory starts on 2 MiB");
	is_res(cuMemAdvise(p, 4 * MIB + 100, CU_MEM_ADVISE_SET_READ_MOSTLY, dev(0)),
	       CUDA_SUCCESS, "probe: advice up to the size");
	is_res(cuMemAdvise(p, 4 * MIB + 101, CU_MEM_ADVISE_SET_READ_MOSTLY, dev(0)),
	       CUDA_ERROR_INVALID_VALUE, "probe: one byte past the size");
	is_res(cuMemAdvise(p, 4 * MIB + PAGE, CU_MEM_ADVISE_SET_READ_MOSTLY, dev(0)),
	       CUDA_ERROR_INVALID_VALUE, "probe: to the end of the last page");
	is_res(cuMemRangeGetAttribute(&v, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p,
				      4 * MIB + 101),
	       CUDA_ERROR_INVALID_VALUE, "probe: a query one byte past the size");
	is_res(cuMemAdvise(p, PAGE, CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION, bad),
	       CUDA_ERROR_INVALID_VALUE, "probe: an ignored location is still "
	       "checked (unset preferred, type 9)");
	is_res(cuMemAdvise(p, PAGE, CU_MEM_ADVISE_SET_READ_MOSTLY, bad),
	       CUDA_ERROR_INVALID_VALUE, "probe: read mostly with type 9");
	is_res(cuMemAdvise(p, PAGE, CU_MEM_ADVISE_UNSET_ACCESSED_BY,
			   loc(CU_MEM_LOCATION_TYPE_HOST_NUMA, 0)),
	       CUDA_ERROR_INVALID_VALUE, "probe: unset accessed-by numa0");
	is_res(cuMemAdvise(p, PAGE, CU_MEM_ADVISE_SET_PREFERRED_LOCATION,
			   loc(CU_MEM_LOCATION_TYPE_HOST_NUMA, -1)),
	       CUDA_ERROR_INVALID_VALUE, "probe: preferred numa -1");
	is_res(cuMemAdvise(p, PAGE, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, dev(-1)),
	       CUDA_ERROR_INVALID_VALUE, "probe: preferred device -1");
	is_res(cuMemPrefetchAsync(p, PAGE, dev(-1), 0, s),
	       CUDA_ERROR_INVALID_DEVICE, "probe: prefetch to device -1");
	is_res(cuMemPrefetchAsync(p, PAGE, loc(CU_MEM_LOCATION_TYPE_HOST, 77), 0, s),
	       CUDA_SUCCESS, "probe: the host's id is ignored");
	is_res(cuMemPrefetchAsync(p, 4 * MIB, numa_cur5, 0, s), CUDA_SUCCESS,
	       "probe: prefetch to the current NUMA node, id 5");
	cuMemRangeGetAttribute(&v, 4, CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID,
			       p, 4 * MIB);
	is_int(v, 5, "probe: its id reads back as given");
	is_res(cuMemRangeGetAttributes(data, sizes, at, 2, p, PAGE),
	       CUDA_ERROR_INVALID_VALUE, "probe: cuMemRangeGetAttributes with a "
	       "NULL data[1]");
	is_res(cuMemRangeGetAttributes(NULL, sizes, at, 2, p, PAGE),
	       CUDA_ERROR_INVALID_VALUE, "probe: cuMemRangeGetAttributes with "
	       "no data");
	is_res(advise_old(p, PAGE, CU_MEM_ADVISE_SET_PREFERRED_LOCATION,
			  CU_DEVICE_INVALID),
	       CUDA_ERROR_INVALID_DEVICE, "probe: pre-13 cuMemAdvise, "
	       "CU_DEVICE_INVALID");
	is_res(advise_old(p, PAGE, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, 99),
	       CUDA_ERROR_INVALID_DEVICE, "probe: pre-13 cuMemAdvise, device 99");
	is_res(prefetch_old(p, PAGE, CU_DEVICE_INVALID, s),
	       CUDA_ERROR_INVALID_DEVICE, "probe: pre-13 cuMemPrefetchAsync, "
	       "CU_DEVICE_INVALID");
	is_res(prefetch_old(p, PAGE, 99, s), CUDA_ERROR_INVALID_DEVICE,
	       "probe: pre-13 cuMemPrefetchAsync, device 99");
	is_res(prefetch_old(p, PAGE, CU_DEVICE_CPU, s), CUDA_SUCCESS,
	       "probe: pre-13 cuMemPrefetchAsync, CU_DEVICE_CPU");
	cuStreamSynchronize(s);

	cuCtxGetCurrent(&ctx);
	cuCtxSetCurrent(NULL);
	is_res(cuMemAllocManaged(&q, MIB, CU_MEM_ATTACH_GLOBAL),
	       CUDA_ERROR_INVALID_CONTEXT, "probe: no context: cuMemAllocManaged");
	is_res(cuMemAdvise(p, PAGE, CU_MEM_ADVISE_SET_READ_MOSTLY, dev(0)),
	       CUDA_ERROR_INVALID_CONTEXT, "probe: no context: cuMemAdvise");
	is_res(cuMemRangeGetAttribute(&v, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY,
				      p, PAGE),
	       CUDA_ERROR_INVALID_CONTEXT, "probe: no context: "
	       "cuMemRangeGetAttribute");
	is_res(cuMemPrefetchAsync(p, PAGE, dev(0), 0, NULL),
	       CUDA_ERROR_INVALID_CONTEXT, "probe: no context: cuMemPrefetchAsync "
	       "on the null stream");
	cuCtxSetCurrent(ctx);
	cuMemFree(p);
}

static void test_alloc_errors(void)
{
	CUdeviceptr p;

	is_res(cuMemAllocManaged(&p, 0, CU_MEM_ATTACH_GLOBAL),
	       CUDA_ERROR_INVALID_VALUE, "cuMemAllocManaged size 0");
	is_res(cuMemAllocManaged(&p, SZ, 0), CUDA_ERROR_INVALID_VALUE,
	       "cuMemAllocManaged flags 0");
	is_res(cuMemAllocManaged(&p, SZ, CU_MEM_ATTACH_SINGLE),
	       CUDA_ERROR_INVALID_VALUE, "cuMemAllocManaged flags SINGLE");
	is_res(cuMemAllocManaged(NULL, SZ, CU_MEM_ATTACH_GLOBAL),
	       CUDA_ERROR_INVALID_VALUE, "cuMemAllocManaged NULL dptr");
	is_res(cuMemAllocManaged(&p, SZ, CU_MEM_ATTACH_HOST), CUDA_SUCCESS,
	       "cuMemAllocManaged CU_MEM_ATTACH_HOST");
	cuMemFree(p);
}

/* ------------------------------------------------------------------ */
/* Residency, model time                                               */

static size_t used(int d)
{
	size_t fr = 0, tot = 0;
	CUcontext c, prev;

	cuDevicePrimaryCtxRetain(&c, d);
	cuCtxGetCurrent(&prev);
	cuCtxSetCurrent(c);
	cuMemGetInfo(&fr, &tot);
	cuCtxSetCurrent(prev);
	cuDevicePrimaryCtxRelease(d);
	return tot - fr;
}

static unsigned long long now(CUstream s)
{
	unsigned long long t = 0;

	cuStreamSynchronize(s);
	cuemuStreamGetTime(s, &t);
	return t;
}

static void test_residency(CUstream s)
{
	CUdeviceptr p;
	size_t u0 = used(0), u1 = used(1);
	unsigned long long t0, t1, t2;
	double gbps;

	if (RUNNING_ON_VALGRIND) {
		/* CPU faults: see test_fault.c */
		printf("ok %d - residency # SKIP real faults under valgrind\n",
		       ++tap_n);
		return;
	}
	cuMemAllocManaged(&p, 64 * MIB, CU_MEM_ATTACH_GLOBAL);
	is_int(used(0) - u0, 0, "residency: a fresh allocation holds no GPU memory");
	for (size_t i = 0; i < 64 * MIB; i++) /* not memset: see test_fault.c */
		((volatile unsigned char *)p)[i] = 7;
	t0 = now(s);
	cuMemPrefetchAsync(p, 64 * MIB, dev(0), 0, s);
	t1 = now(s);
	is_int(used(0) - u0, 64 * MIB, "residency: a prefetch to gpu0 charges gpu0");
	gbps = 64.0 * MIB / (double)(t1 - t0);
	ok(gbps > 30 && gbps < 60, "time: host to gpu0 prefetch at %.1f GB/s "
	   "(real: 47)", gbps);
	cuMemPrefetchAsync(p, 64 * MIB, dev(0), 0, s);
	t2 = now(s);
	is_int(t2 - t1, 32 * 1250, "time: a prefetch of what is resident moves "
	       "nothing and walks its 32 blocks, 1.25 us each");
	cuMemPrefetchAsync(p, 64 * MIB, dev(1), 0, s);
	now(s);
	ok(used(0) == u0 && used(1) - u1 == 64 * MIB,
	   "residency: gpu0 to gpu1 moves the charge");
	ok(((unsigned char *)p)[12345] == 7 && ((unsigned char *)p)[64 * MIB - 1] == 7,
	   "residency: the CPU reads the bytes back after they moved");
	ok(used(1) - u1 == 64 * MIB - 128 * KIB,
	   "residency: two CPU faults brought two 64 KiB blocks home (%zu KiB "
	   "left on gpu1)", (used(1) - u1) / 1024);
	cuMemAdvise(p, 64 * MIB, CU_MEM_ADVISE_SET_READ_MOSTLY, dev(0));
	cuMemPrefetchAsync(p, 64 * MIB, dev(0), 0, s);
	now(s);
	ok(used(0) - u0 == 64 * MIB && used(1) - u1 == 64 * MIB - 128 * KIB,
	   "read mostly: a prefetch makes a read copy, the others stay");
	cuMemAdvise(p, 64 * MIB, CU_MEM_ADVISE_UNSET_READ_MOSTLY, dev(0));
	ok(used(0) + used(1) - u0 - u1 == 64 * MIB - 128 * KIB,
	   "read mostly: unsetting it collapses the copies to one (the host's "
	   "where it has one)");
	cuMemPrefetchAsync(p, 64 * MIB, loc(CU_MEM_LOCATION_TYPE_HOST, 0), 0, s);
	now(s);
	ok(used(0) == u0 && used(1) == u1, "residency: prefetch to the host "
	   "gives GPU memory back");
	cuMemPrefetchAsync(p, 64 * MIB, dev(0), 0, s);
	now(s);
	cuMemFree(p);
	is_int(used(0), u0, "residency: cuMemFree gives GPU residency back");
}

/* ------------------------------------------------------------------ */
/* Oversubscription, in a second process on a machine of two 16 MiB GPUs */

static json_t *cu_get(const char *fmt, unsigned long long id, const char *rest);
static long long jint(json_t *o, const char *k1, const char *k2);

/* The first failure of a run of calls whose results are not facts of
 * their own (a test's setup), or CUDA_SUCCESS. */
static CUresult first_err(CUresult *acc, CUresult r)
{
	if (*acc == CUDA_SUCCESS)
		*acc = r;
	return r;
}

/* The eviction roles run in a second run of this program (spawn.h: no API
 * after fork) and print what they see, "key value" a fact a line; the
 * parent checks each on its own TAP line. */
static int evict_child(void)
{
	CUdeviceptr a = 0, b = 0, c = 0, d = 0, dm = 0;
	CUresult setup = CUDA_SUCCESS;
	CUcontext ctx;
	CUstream s;
	unsigned long long t0, t1, t2, id = 0;
	size_t fr = 0, tot = 0;
	json_t *o;

	first_err(&setup, cuInit(0));
	first_err(&setup, cuDevicePrimaryCtxRetain(&ctx, 0));
	first_err(&setup, cuCtxSetCurrent(ctx));
	first_err(&setup, cuStreamCreate(&s, 0));
	printf("init %d\n", (int)setup);
	if (setup)
		return 0;
	first_err(&setup, cuMemAllocManaged(&a, 4 * MIB, CU_MEM_ATTACH_GLOBAL));
	first_err(&setup, cuMemAllocManaged(&b, 4 * MIB, CU_MEM_ATTACH_GLOBAL));
	first_err(&setup, cuMemAllocManaged(&c, 4 * MIB, CU_MEM_ATTACH_GLOBAL));
	first_err(&setup, cuMemAllocManaged(&d, 8 * MIB, CU_MEM_ATTACH_GLOBAL));
	first_err(&setup, cuMemPrefetchAsync(a, 4 * MIB, dev(0), 0, s));
	first_err(&setup, cuMemPrefetchAsync(b, 4 * MIB, dev(0), 0, s));
	first_err(&setup, cuMemPrefetchAsync(c, 4 * MIB, dev(0), 0, s));
	/* a is used again: b is the least recently used now */
	first_err(&setup, cuMemPrefetchAsync(a, 4 * MIB, dev(0), 0, s));
	printf("fill %d\n", (int)setup);
	printf("prefetch_d %d\n",
	       (int)cuMemPrefetchAsync(d, 8 * MIB, dev(0), 0, s));
	printf("sync %d\n", (int)cuStreamSynchronize(s));
	cuMemGetInfo(&fr, &tot);
	printf("used_after_d %zu\n", tot - fr);

	/* b's two 2 MiB blocks were evicted, and counted. */
	printf("ctl %d\n", ctl_open());
	cuPointerGetAttribute(&id, CU_POINTER_ATTRIBUTE_BUFFER_ID, b);
	o = cu_get("allocations/%llu%s", id, "");
	printf("b_evictions %lld\n", jint(o, "counters", "evictions"));
	printf("b_evicted_bytes %lld\n", jint(o, "counters", "evicted_bytes"));
	printf("b_bytes_dtoh %lld\n", jint(o, "counters", "bytes_dtoh"));
	printf("b_on_gpu0 %lld\n", jint(o, "residency", "gpu0"));
	json_decref(o);
	close(ctl_fd);

	/* Model time: a prefetch of what is resident moves nothing; one of
	 * what was evicted moves it over the link again. */
	t0 = now(s);
	cuMemPrefetchAsync(a, 4 * MIB, dev(0), 0, s);
	t1 = now(s);
	cuMemPrefetchAsync(b, 4 * MIB, dev(0), 0, s);
	t2 = now(s);
	printf("a_again_ns %llu\n", t1 - t0);
	printf("b_back_ns %llu\n", t2 - t1);

	/* Device memory is never evicted: with 12 MiB of it, only 4 MiB of
	 * managed memory fits, and the allocation stays. */
	setup = CUDA_SUCCESS;
	first_err(&setup, cuMemPrefetchAsync(a, 4 * MIB,
			  loc(CU_MEM_LOCATION_TYPE_HOST, 0), 0, s));
	first_err(&setup, cuMemPrefetchAsync(b, 4 * MIB,
			  loc(CU_MEM_LOCATION_TYPE_HOST, 0), 0, s));
	first_err(&setup, cuMemPrefetchAsync(c, 4 * MIB,
			  loc(CU_MEM_LOCATION_TYPE_HOST, 0), 0, s));
	first_err(&setup, cuMemPrefetchAsync(d, 8 * MIB,
			  loc(CU_MEM_LOCATION_TYPE_HOST, 0), 0, s));
	first_err(&setup, cuStreamSynchronize(s));
	printf("to_host %d\n", (int)setup);
	printf("alloc_dm %d\n", (int)cuMemAlloc(&dm, 12 * MIB));
	printf("prefetch_d_beside_dm %d\n",
	       (int)cuMemPrefetchAsync(d, 8 * MIB, dev(0), 0, s));
	printf("sync_beside_dm %d\n", (int)cuStreamSynchronize(s));
	cuMemGetInfo(&fr, &tot);
	printf("used_beside_dm %zu\n", tot - fr);
	cuMemFree(d);
	cuMemGetInfo(&fr, &tot);
	printf("used_dm_alone %zu\n", tot - fr);
	cuMemFree(dm);
	cuMemFree(a);
	cuMemFree(b);
	cuMemFree(c);
	cuStreamDestroy(s);
	return 0;
}

/* Device memory asked for on a GPU full of managed data: the real driver
 * makes room by evicting managed blocks, least recently used first
 * (probes/results/oversub.txt), and device memory itself never moves. */
static int alloc_evicts_child(void)
{
	CUdeviceptr a = 0, b = 0, x = 0, y = 0;
	CUresult setup = CUDA_SUCCESS;
	CUcontext ctx;
	CUstream s;
	unsigned long long t0, t1, t2;

	first_err(&setup, cuInit(0));
	first_err(&setup, cuDevicePrimaryCtxRetain(&ctx, 0));
	first_err(&setup, cuCtxSetCurrent(ctx));
	first_err(&setup, cuStreamCreate(&s, 0));
	printf("init %d\n", (int)setup);
	if (setup)
		return 0;
	first_err(&setup, cuMemAllocManaged(&a, 8 * MIB, CU_MEM_ATTACH_GLOBAL));
	first_err(&setup, cuMemAllocManaged(&b, 8 * MIB, CU_MEM_ATTACH_GLOBAL));
	first_err(&setup, cuMemPrefetchAsync(a, 8 * MIB, dev(0), 0, s));
	first_err(&setup, cuMemPrefetchAsync(b, 8 * MIB, dev(0), 0, s));
	/* a is used again: b is the least recently used now */
	first_err(&setup, cuMemPrefetchAsync(a, 8 * MIB, dev(0), 0, s));
	first_err(&setup, cuStreamSynchronize(s));
	printf("fill %d\n", (int)setup);
	printf("used_full %zu\n", used(0));
	printf("alloc_x %d\n", (int)cuMemAlloc(&x, 4 * MIB));
	printf("used_with_x %zu\n", used(0));
	/* a kept its place: prefetching it again moves nothing. */
	t0 = now(s);
	cuMemPrefetchAsync(a, 8 * MIB, dev(0), 0, s);
	t1 = now(s);
	/* b gave up 4 MiB: bringing it back moves them over the link. */
	cuMemPrefetchAsync(b, 8 * MIB, dev(0), 0, s);
	t2 = now(s);
	printf("a_again_ns %llu\n", t1 - t0);
	printf("b_back_ns %llu\n", t2 - t1);
	/* 4 MiB of device memory can never be evicted: 16 MiB cannot fit. */
	printf("alloc_y %d\n", (int)cuMemAlloc(&y, 16 * MIB));
	printf("y_left_zero %d\n", y == 0);
	printf("used_after_y %zu\n", used(0));
	cuMemFree(x);
	cuMemFree(a);
	cuMemFree(b);
	cuStreamDestroy(s);
	return 0;
}

static char evict_out[256];

static long long ev(const char *key)
{
	return child_value(evict_out, key, -999);
}

/* Runs role in a second run of this program on a machine of two 16 MiB
 * GPUs of its own (named after ours, so that tests/private-machine.sh
 * removes it even after a crash); its output lands in evict_out. The
 * role's exit status, or -1. */
static int on_small_gpus(const char *role)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	const char *json = "{\"device_count\": 2, \"devices\": [{\"name\": "
			   "\"Small\", \"memory\": \"16M\"}]}";
	char topo[256], m[128], t[300], shm[160];
	char *env[] = { m, t, NULL };
	FILE *f;
	int rc;

	snprintf(topo, sizeof topo, "%s/cuemu-topo-%d.json", tmp,
		 (int)getpid());
	snprintf(evict_out, sizeof evict_out, "%s/cuemu-evict-%d.out", tmp,
		 (int)getpid());
	if (!(f = fopen(topo, "w")))
		return -1;
	fputs(json, f);
	fclose(f);
	snprintf(m, sizeof m, "CUEMU_MACHINE=%s-%s", getenv("CUEMU_MACHINE"),
		 role);
	snprintf(t, sizeof t, "CUEMU_TOPOLOGY=%s", topo);
	rc = run_self(role, env, evict_out, NULL, 60);
	unlink(topo);
	snprintf(shm, sizeof shm, "/dev/shm/%s", m + strlen("CUEMU_MACHINE="));
	unlink(shm);
	return rc;
}

static void test_eviction(void)
{
	is_int(on_small_gpus("evict"), 0,
	       "eviction: a process on two 16 MiB GPUs runs to its end");
	is_res(ev("init"), CUDA_SUCCESS, "eviction: cuInit, a context, a stream");
	is_res(ev("fill"), CUDA_SUCCESS,
	       "eviction: a, b and c (4 MiB each) prefetched to gpu0, a twice");
	is_res(ev("prefetch_d"), CUDA_SUCCESS,
	       "eviction: a prefetch of d (8 MiB) that does not fit succeeds");
	is_res(ev("sync"), CUDA_SUCCESS, "eviction: and the stream completes");
	is_int(ev("used_after_d"), 16 * MIB,
	       "eviction: gpu0 is full, not over its 16 MiB");
	is_int(ev("ctl"), 0, "eviction: the process's control socket answers");
	is_int(ev("b_evictions"), 2,
	       "eviction: b, the least recently used, lost its two 2 MiB blocks");
	is_int(ev("b_evicted_bytes"), 4 * MIB,
	       "eviction: b's counters say 4 MiB evicted");
	is_int(ev("b_bytes_dtoh"), 4 * MIB,
	       "eviction: b's 4 MiB went device to host");
	is_int(ev("b_on_gpu0"), 0, "eviction: nothing of b is on gpu0");
	is_int(ev("a_again_ns"), 2 * 1250,
	       "eviction: a, used recently, was kept: prefetching it again "
	       "moves nothing, the walk of its two blocks alone");
	ok(ev("b_back_ns") >= 10000,
	   "eviction: b, evicted, moves over the link again (%lld ns of "
	   "model time)", ev("b_back_ns"));
	is_res(ev("to_host"), CUDA_SUCCESS,
	       "eviction: everything prefetched back to the host");
	is_res(ev("alloc_dm"), CUDA_SUCCESS,
	       "eviction: 12 MiB of device memory on gpu0");
	is_res(ev("prefetch_d_beside_dm"), CUDA_SUCCESS,
	       "eviction: d (8 MiB) prefetched beside it succeeds");
	is_res(ev("sync_beside_dm"), CUDA_SUCCESS,
	       "eviction: and the stream completes");
	is_int(ev("used_beside_dm"), 16 * MIB,
	       "eviction: only 4 MiB of d fit beside the device memory");
	is_int(ev("used_dm_alone"), 12 * MIB,
	       "eviction: freeing d leaves the device memory, never evicted");

	is_int(on_small_gpus("alloc_evicts"), 0,
	       "eviction by cuMemAlloc: a process on two 16 MiB GPUs runs to "
	       "its end");
	is_res(ev("init"), CUDA_SUCCESS,
	       "eviction by cuMemAlloc: cuInit, a context, a stream");
	is_res(ev("fill"), CUDA_SUCCESS,
	       "eviction by cuMemAlloc: a and b (8 MiB each) prefetched to "
	       "gpu0, a twice");
	is_int(ev("used_full"), 16 * MIB,
	       "eviction by cuMemAlloc: gpu0 is full of managed data");
	is_res(ev("alloc_x"), CUDA_SUCCESS,
	       "eviction by cuMemAlloc: 4 MiB of device memory on the full GPU");
	is_int(ev("used_with_x"), 16 * MIB,
	       "eviction by cuMemAlloc: made room by evicting, not by "
	       "going over");
	ok(ev("a_again_ns") >= 0 && ev("a_again_ns") < 50000,
	   "eviction by cuMemAlloc: a, used recently, kept its place "
	   "(%lld ns of model time to prefetch it again)", ev("a_again_ns"));
	ok(ev("b_back_ns") >= 80000,
	   "eviction by cuMemAlloc: b, the least recently used, gave up 4 MiB "
	   "(%lld ns of model time to bring it back)", ev("b_back_ns"));
	is_res(ev("alloc_y"), CUDA_ERROR_OUT_OF_MEMORY,
	       "eviction by cuMemAlloc: 16 MiB cannot fit beside 4 MiB of "
	       "device memory, which is never evicted");
	is_int(ev("y_left_zero"), 1,
	       "eviction by cuMemAlloc: the refused allocation's pointer is "
	       "left 0");
	is_int(ev("used_after_y"), 16 * MIB,
	       "eviction by cuMemAlloc: the refusal changed nothing");
	unlink(evict_out);
}

/* ------------------------------------------------------------------ */
/* A 1 TiB allocation: address space only                             */

/* The process's own resident memory: anonymous pages, not the shared
 * pages of the machine and of the state it publishes for cufs (a
 * segment cufs maps too, whose size follows the objects shown). */
static long rss_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[128];
	long v = -1;

	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "RssAnon: %ld", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

static void test_terabyte(void)
{
	CUdeviceptr p;
	long before = rss_kib(), after;
	int i, rm = -1, pl = -1;
	CUresult r = CUDA_SUCCESS;

	if (RUNNING_ON_VALGRIND) {
		printf("ok %d - 1 TiB # SKIP valgrind cannot map 1 TiB\n", ++tap_n);
		return;
	}
	is_res(cuMemAllocManaged(&p, 1ULL << 40, CU_MEM_ATTACH_GLOBAL),
	       CUDA_SUCCESS, "1 TiB: cuMemAllocManaged of 1 TiB");
	for (i = 0; i < 1000 && r == CUDA_SUCCESS; i++)
		r = cuMemAdvise(p + (CUdeviceptr)i * GIB, 64 * KIB,
				i % 2 ? CU_MEM_ADVISE_SET_READ_MOSTLY :
				CU_MEM_ADVISE_SET_PREFERRED_LOCATION, dev(i % 4));
	is_res(r, CUDA_SUCCESS, "1 TiB: 1,000 advised subranges");
	after = rss_kib();
#if defined(__SANITIZE_ADDRESS__)
	/* ASan keeps freed memory in quarantine and shadows every byte: what
	 * is resident is ASan's, not the range model's. The plain build
	 * measures it. */
	printf("ok %d - 1 TiB: costs %ld KiB # SKIP resident memory under "
	       "ASan is its quarantine and shadow\n", ++tap_n, after - before);
#else
	ok(after - before < 8 * 1024, "1 TiB: costs %ld KiB of resident memory",
	   after - before);
#endif
	cuMemRangeGetAttribute(&rm, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY,
			       p + 999 * GIB, 64 * KIB);
	cuMemRangeGetAttribute(&pl, 4, CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION,
			       p + 998 * GIB, 64 * KIB);
	ok(rm == 1 && pl == 2, "1 TiB: advice far into it reads back");
	is_res(cuMemFree(p), CUDA_SUCCESS, "1 TiB: cuMemFree");
}

/* ------------------------------------------------------------------ */
/* What /cu shows: this process's control socket                       */

/* One request, one answer (the caller frees it). */
static json_t *ctl_ask(json_t *req)
{
	static char buf[1 << 16];
	char *line = json_dumps(req, JSON_COMPACT);
	json_t *ans = NULL;

	json_decref(req);
	if (line && *ctl_line(ctl_fd, line, buf, sizeof buf))
		ans = json_loads(buf, 0, NULL);
	free(line);
	return ans;
}

static json_t *cu_get(const char *fmt, unsigned long long id, const char *rest)
{
	char path[256];
	json_t *ans, *v;

	snprintf(path, sizeof path, fmt, id, rest);
	ans = ctl_ask(json_pack("{s:s,s:s}", "op", "get", "path", path));
	v = json_incref(json_object_get(ans, "value"));
	json_decref(ans);
	return v;
}

static const char *cu_set(unsigned long long id, const char *attr,
			  const char *value)
{
	static char result[64];
	char path[256];
	json_t *ans;

	snprintf(path, sizeof path, "allocations/%llu/%s", id, attr);
	ans = ctl_ask(json_pack("{s:s,s:s,s:s}", "op", "set", "path", path,
				"value", value));
	snprintf(result, sizeof result, "%s",
		 json_string_value(json_object_get(ans, "result")) ?
		 json_string_value(json_object_get(ans, "result")) : "?");
	json_decref(ans);
	return result;
}

static long long jint(json_t *o, const char *k1, const char *k2)
{
	json_t *v = json_object_get(o, k1);

	if (k2)
		v = json_object_get(v, k2);
	return json_is_integer(v) ? json_integer_value(v) : -1;
}

/* The bytes of o's residency on every NUMA node together. */
static long long numa_sum(json_t *o)
{
	json_t *r = json_object_get(o, "residency"), *v;
	long long sum = 0;
	const char *k;

	json_object_foreach(r, k, v)
		if (!strncmp(k, "numa", 4) && json_is_integer(v))
			sum += json_integer_value(v);
	return sum;
}

static void test_control(CUstream s)
{
	unsigned long long id = 0;
	CUdeviceptr p;
	json_t *o, *ranges;
	char rest[96];
	int v = -99;
	size_t i;

	if (RUNNING_ON_VALGRIND) {
		printf("ok %d - /cu # SKIP residency needs real CPU faults, "
		       "which are off under valgrind\n", ++tap_n);
		return;
	}
	if (!ok(ctl_open() == 0, "/cu: the process's control socket in "
		"CUEMU_RUNDIR (%s) answers", getenv("CUEMU_RUNDIR")))
		return;
	cuMemAllocManaged(&p, 8 * MIB, CU_MEM_ATTACH_GLOBAL);
	cuPointerGetAttribute(&id, CU_POINTER_ATTRIBUTE_BUFFER_ID, p);
	for (i = 0; i < 8 * MIB; i += 4096)
		((volatile char *)p)[i] = 1;
	cuMemPrefetchAsync(p, 4 * MIB, dev(1), 0, s);
	cuStreamSynchronize(s);
	o = cu_get("allocations/%llu%s", id, "");
	ok(o != NULL, "/cu: the allocation's object");
	is_int(jint(o, "residency", "gpu1"), 4 * MIB, "/cu: residency gpu1");
	is_int(jint(o, "residency", "cpu"), 4 * MIB, "/cu: residency cpu");
	ok(jint(o, "residency", "numa0") > 0,
	   "/cu: the host pages are on numa0, as the kernel says (%lld)",
	   jint(o, "residency", "numa0"));
	is_int(jint(o, "counters", "bytes_htod"), 4 * MIB,
	       "/cu: bytes migrated host to device");
	/* A CPU fault brings its big page, grown as the driver's prefetch
	 * heuristic grows a GPU fault's: touched in order, a 2 MiB block
	 * faults at 0, 64K, 128K (bringing up to 256K), 256K (512K), 512K
	 * (1M) and 1M (the block). */
	is_int(jint(o, "counters", "cpu_faults"), 8 * MIB / (2 * MIB) * 6,
	       "/cu: CPU faults, six per 2 MiB block touched in order");
	is_int(jint(o, "range_count", NULL), 2, "/cu: two ranges");
	ok(!strcmp(json_string_value(json_object_get(o, "last_prefetch_location")),
		   "mixed"), "/cu: last prefetch location mixed");
	json_decref(o);

	ranges = cu_get("allocations/%llu/%s", id, "ranges");
	ok(json_array_size(ranges) == 2 &&
	   !strcmp(json_string_value(json_array_get(json_object_get(
		   json_array_get(ranges, 0), "holders"), 0)), "gpu1") &&
	   !strcmp(json_string_value(json_array_get(json_object_get(
		   json_array_get(ranges, 1), "holders"), 0)), "cpu"),
	   "/cu: the ranges list their holders");
	json_decref(ranges);

	ok(!strcmp(cu_set(id, "preferred_location", "gpu0"), "CUDA_SUCCESS"),
	   "/cu: write preferred_location gpu0");
	cuMemRangeGetAttribute(&v, 4, CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION,
			       p, 8 * MIB);
	is_int(v, 0, "/cu: the API reads it back");
	ok(!strcmp(cu_set(id, "preferred_location", "gpu9"),
		   "CUDA_ERROR_INVALID_VALUE"),
	   "/cu: gpu9 is refused with the API's answer");
	ok(!strcmp(cu_set(id, "accessed_by", "+gpu1"), "CUDA_SUCCESS") &&
	   !strcmp(cu_set(id, "accessed_by", "+cpu"), "CUDA_SUCCESS") &&
	   !strcmp(cu_set(id, "accessed_by", "-cpu"), "CUDA_SUCCESS"),
	   "/cu: accessed_by +gpu1 +cpu -cpu");
	o = cu_get("allocations/%llu%s", id, "");
	ok(json_array_size(json_object_get(o, "accessed_by")) == 1,
	   "/cu: accessed_by lists gpu1 alone");
	json_decref(o);
	ok(!strcmp(cu_set(id, "prefetch", "cpu"), "CUDA_SUCCESS"),
	   "/cu: write prefetch cpu");
	o = cu_get("allocations/%llu%s", id, "");
	ok(jint(o, "residency", "cpu") == 8 * MIB &&
	   jint(o, "counters", "bytes_dtoh") == 4 * MIB,
	   "/cu: all on the host, 4 MiB counted device to host");
	is_int(numa_sum(o), 8 * MIB, "/cu: the NUMA nodes' bytes add up to cpu");
	json_decref(o);
	ok(!strcmp(cu_set(id, "advise", "set_read_mostly"), "CUDA_SUCCESS"),
	   "/cu: write advise set_read_mostly");
	snprintf(rest, sizeof rest, "ranges/0x%llx-0x%llx/read_mostly",
		 (unsigned long long)p, (unsigned long long)p + MIB);
	ok(!strcmp(cu_set(id, rest, "0"), "CUDA_SUCCESS"),
	   "/cu: write read_mostly 0 to a subrange never listed");
	snprintf(rest, sizeof rest, "ranges/0x%llx-0x%llx",
		 (unsigned long long)p, (unsigned long long)p + MIB);
	o = cu_get("allocations/%llu/%s", id, rest);
	is_int(jint(o, "read_mostly", NULL), 0, "/cu: the subrange reads back");
	json_decref(o);
	cuMemFree(p);

	/* Prefetched to the host, never touched: the host holds it, and the
	 * kernel has placed none of its pages yet; each counts on the node a
	 * first touch uses. */
	cuMemAllocManaged(&p, 4 * MIB, CU_MEM_ATTACH_GLOBAL);
	cuPointerGetAttribute(&id, CU_POINTER_ATTRIBUTE_BUFFER_ID, p);
	cuMemPrefetchAsync(p, 4 * MIB, loc(CU_MEM_LOCATION_TYPE_HOST, 0), 0, s);
	cuStreamSynchronize(s);
	o = cu_get("allocations/%llu%s", id, "");
	is_int(jint(o, "residency", "cpu"), 4 * MIB,
	       "/cu: an untouched allocation prefetched to the host is the "
	       "host's");
	is_int(numa_sum(o), 4 * MIB, "/cu: ... and its NUMA split adds up to "
	       "cpu, though no page is placed yet");
	json_decref(o);
	cuMemFree(p);

	/* Accessed by gpu0, on the host: gpu0's page tables map it in
	 * advance (seed: the advice avoids faults), so its accesses are
	 * remote and fault nothing. */
	cuMemAllocManaged(&p, 1 * MIB, CU_MEM_ATTACH_GLOBAL);
	cuPointerGetAttribute(&id, CU_POINTER_ATTRIBUTE_BUFFER_ID, p);
	cuMemPrefetchAsync(p, 1 * MIB, loc(CU_MEM_LOCATION_TYPE_HOST, 0), 0, s);
	cuMemAdvise(p, 1 * MIB, CU_MEM_ADVISE_SET_ACCESSED_BY, dev(0));
	cuemuAccess(s, p, 1 * MIB, CUEMU_ACCESS_READ);
	cuStreamSynchronize(s);
	o = cu_get("allocations/%llu%s", id, "");
	ok(jint(o, "counters", "remote_accesses") > 0 &&
	   jint(o, "counters", "gpu_faults") == 0 &&
	   jint(o, "residency", "cpu") == 1 * MIB,
	   "/cu: accessed by gpu0: its reads are remote, with no GPU fault "
	   "(remote %lld, faults %lld)", jint(o, "counters", "remote_accesses"),
	   jint(o, "counters", "gpu_faults"));
	json_decref(o);
	cuMemFree(p);
	close(ctl_fd);
}

int main(int argc, char **argv)
{
	const char *role = child_role(argc, argv);
	CUcontext ctx;
	CUstream s;
	int n = 0;

	if (role && !strcmp(role, "evict"))
		return evict_child();
	if (role && !strcmp(role, "alloc_evicts"))
		return alloc_evicts_child();
	test_range_model();
	test_eviction();
	if (cuInit(0) != CUDA_SUCCESS || cuDeviceGetCount(&n) != CUDA_SUCCESS ||
	    n < 2) {
		ok(0, "cuInit with at least two devices");
		return done_testing();
	}
	cuDevicePrimaryCtxRetain(&ctx, 0);
	cuCtxSetCurrent(ctx);
	cuStreamCreate(&s, 0);
	test_alloc_errors();
	test_probed(s);
	test_preferred();
	test_accessed_by();
	test_prefetch_attrs(s);
	test_query_errors();
	test_other_memory(s);
	test_multi(s);
	test_other_forms(s);
	test_residency(s);
	test_control(s);
	test_terabyte();
	cuStreamDestroy(s);
	return done_testing();
}
