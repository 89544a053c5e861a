/* Managed ranges at their edges: advice, prefetch and range attributes over ranges inside one
 * allocation, touching its end, spanning two adjacent allocations, running past the last one, and with
 * unaligned ends (page rounding). Four managed allocations are made in a row (4 MiB, 4 MiB, 100 KiB+3,
 * 4 MiB) and their placement is printed as offsets between them. Each case sets three advices and
 * prefetches to device 0 over its range, reads the attributes of the 4 KiB pages on both sides of the
 * range's start and end, then unsets them and prefetches to the host; the allocations are reset between
 * cases. Lines carry no addresses. */
#include "common.h"

#define SZ (4 * MiB)
#define ODD (100 * KiB + 3)
#define PG (4 * KiB)

static CUdeviceptr A[4];
static size_t Asz[4] = { SZ, SZ, ODD, SZ };
static CUdeviceptr L, U, Last; /* the lower and upper of an adjacent pair, the highest allocation */
static size_t Lastsz;

static CUmemLocation dev0(void) { CUmemLocation l = { CU_MEM_LOCATION_TYPE_DEVICE, 0 }; return l; }
static CUmemLocation host(void) { CUmemLocation l = { CU_MEM_LOCATION_TYPE_HOST, 0 }; return l; }

static CUresult prefetch(CUdeviceptr p, size_t n, CUmemLocation l)
{
    CUresult r = cuMemPrefetchAsync(p, n, l, 0, 0);
    cuStreamSynchronize(0);
    return r;
}

/* every allocation back to no advice, resident on the host */
static void reset(void)
{
    for (int i = 0; i < 4; i++) {
        CUresult r = cuMemAdvise(A[i], Asz[i], CU_MEM_ADVISE_UNSET_READ_MOSTLY, dev0());
        if (!r) r = cuMemAdvise(A[i], Asz[i], CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION, dev0());
        if (!r) r = cuMemAdvise(A[i], Asz[i], CU_MEM_ADVISE_UNSET_ACCESSED_BY, dev0());
        if (!r) r = prefetch(A[i], Asz[i], host());
        if (r) P("ranges.reset.%d: %s\n", i, en(r));
    }
}

/* the attributes of [p, p+n) in one line */
static void window(const char *c, const char *w, CUdeviceptr p, size_t n)
{
    int rm = -9, pl = -9, lp = -9, plt = -9, pli = -9, lpt = -9, lpi = -9, ab[4] = { -9, -9, -9, -9 };
    CUresult r1 = cuMemRangeGetAttribute(&rm, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, n);
    CUresult r2 = cuMemRangeGetAttribute(&pl, 4, CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, p, n);
    CUresult r3 = cuMemRangeGetAttribute(ab, sizeof ab, CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, p, n);
    CUresult r4 = cuMemRangeGetAttribute(&lp, 4, CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, p, n);
    void *d[4] = { &plt, &pli, &lpt, &lpi };
    size_t ds[4] = { 4, 4, 4, 4 };
    CUmem_range_attribute at[4] = { CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE,
                                    CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID,
                                    CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE,
                                    CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID };
    CUresult r5 = cuMemRangeGetAttributes(d, ds, at, 4, p, n);
    P("ranges.%s.win.%s: read_mostly=%d/%s preferred=%d/%s accessed_by=%d,%d,%d,%d/%s last_prefetch=%d/%s "
      "v2=%d:%d,%d:%d/%s\n", c, w, rm, en(r1), pl, en(r2), ab[0], ab[1], ab[2], ab[3], en(r3), lp, en(r4),
      plt, pli, lpt, lpi, en(r5));
}

static void one(const char *c, CUdeviceptr s, size_t n)
{
    CUresult r;
    r = cuMemAdvise(s, n, CU_MEM_ADVISE_SET_READ_MOSTLY, dev0());
    P("ranges.%s.advise_read_mostly: %s\n", c, en(r));
    r = cuMemAdvise(s, n, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, dev0());
    P("ranges.%s.advise_preferred_dev0: %s\n", c, en(r));
    r = cuMemAdvise(s, n, CU_MEM_ADVISE_SET_ACCESSED_BY, dev0());
    P("ranges.%s.advise_accessed_by_dev0: %s\n", c, en(r));
    r = prefetch(s, n, dev0());
    P("ranges.%s.prefetch_dev0: %s\n", c, en(r));
    int rm = -9;
    r = cuMemRangeGetAttribute(&rm, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, s, n);
    P("ranges.%s.range_read_mostly: %s value=%d\n", c, en(r), rm);
    int lp = -9;
    void *d[1] = { &lp };
    size_t ds[1] = { 4 };
    CUmem_range_attribute at[1] = { CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION };
    r = cuMemRangeGetAttributes(d, ds, at, 1, s, n);
    P("ranges.%s.range_attrs_last_prefetch: %s value=%d\n", c, en(r), lp);
    CUdeviceptr s0 = s & ~(CUdeviceptr)(PG - 1), e0 = (s + n + PG - 1) & ~(CUdeviceptr)(PG - 1);
    window(c, "page_before_start", s0 - PG, PG);
    window(c, "page_at_start", s0, PG);
    window(c, "page_before_end", e0 - PG, PG);
    window(c, "page_at_end", e0, PG);
    r = prefetch(s, n, host());
    P("ranges.%s.prefetch_host: %s\n", c, en(r));
    r = cuMemAdvise(s, n, CU_MEM_ADVISE_UNSET_READ_MOSTLY, dev0());
    P("ranges.%s.unset_read_mostly: %s\n", c, en(r));
    r = cuMemAdvise(s, n, CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION, dev0());
    P("ranges.%s.unset_preferred: %s\n", c, en(r));
    r = cuMemAdvise(s, n, CU_MEM_ADVISE_UNSET_ACCESSED_BY, dev0());
    P("ranges.%s.unset_accessed_by_dev0: %s\n", c, en(r));
    reset();
}

int main(void)
{
    setup("ranges");
    for (int i = 0; i < 4; i++) {
        CK(cuMemAllocManaged(&A[i], Asz[i], CU_MEM_ATTACH_GLOBAL));
        CK(cuMemsetD8(A[i], 1, Asz[i]));
    }
    CK(cuCtxSynchronize());
    P("ranges.layout: b_minus_a=%lld c_minus_b=%lld d_minus_c=%lld\n", (long long)(A[1] - A[0]),
      (long long)(A[2] - A[1]), (long long)(A[3] - A[2]));
    int adj = 0;
    if (A[1] == A[0] + SZ) { L = A[0]; U = A[1]; adj = 1; }
    else if (A[0] == A[1] + SZ) { L = A[1]; U = A[0]; adj = 1; }
    else { L = A[0] < A[1] ? A[0] : A[1]; U = A[0] < A[1] ? A[1] : A[0]; }
    Last = A[0];
    Lastsz = Asz[0];
    for (int i = 1; i < 4; i++)
        if (A[i] > Last) { Last = A[i]; Lastsz = Asz[i]; }
    P("ranges.layout.pair_adjacent: %s\n", adj ? "yes" : "no");
    P("ranges.layout.last_is: %s\n", Last == A[0] ? "a" : Last == A[1] ? "b" : Last == A[2] ? "c" : "d");
    reset();
    window("initial", "first_page", L, PG);

    one("inside", L + 2 * PG, 2 * PG);
    one("inside_unaligned", L + 2 * PG + 100, PG + 100);
    one("whole_one", L, SZ);
    one("touch_end", L + SZ - 2 * PG, 2 * PG);
    one("touch_end_unaligned_start", L + SZ - 2 * PG + 1, 2 * PG - 1);
    one("cross_end_by_1", L + SZ - PG, PG + 1);
    one("span_two", L, U + SZ - L);
    one("span_two_unaligned", L + SZ - 100, U + 100 - (L + SZ - 100));
    one("past_last", Last + Lastsz - PG, 2 * PG);
    one("at_end_of_last", Last + Lastsz, PG);
    one("size0", L + PG, 0);
    one("one_byte_unaligned", L + 1, 1);
    one("odd_whole", A[2], ODD);
    one("odd_touch_end", A[2] + ODD - 10, 10);
    one("odd_past_size_same_page", A[2] + ODD - 10, 20);
    one("odd_to_page_end", A[2] + ODD - 10, ((ODD + PG - 1) & ~(PG - 1)) - ODD + 10);

    for (int i = 0; i < 4; i++)
        CK(cuMemFree(A[i]));

    /* where managed allocations of other sizes land, each after the one before */
    static const size_t sz[] = { 1, 4096, 64 * KiB + 1, MiB, 1, 3 * MiB, 2 * MiB + 1, 1, 4096 };
    CUdeviceptr q[sizeof sz / sizeof sz[0]];
    char line[512];
    int o = snprintf(line, sizeof line, "ranges.layout.sizes:");
    for (size_t i = 0; i < sizeof sz / sizeof sz[0]; i++) {
        CK(cuMemAllocManaged(&q[i], sz[i], CU_MEM_ATTACH_GLOBAL));
        if (i) o += snprintf(line + o, sizeof line - o, " %zu->%lld", sz[i], (long long)(q[i] - q[i - 1]));
        else o += snprintf(line + o, sizeof line - o, " first_mod_2MiB=%llu", (unsigned long long)(q[0] % (2 * MiB)));
    }
    P("%s\n", line);
    for (size_t i = 0; i < sizeof sz / sizeof sz[0]; i++)
        CK(cuMemFree(q[i]));
    CUdeviceptr r1, r2;
    CK(cuMemAllocManaged(&r1, MiB, CU_MEM_ATTACH_GLOBAL));
    CK(cuMemAllocManaged(&r2, MiB, CU_MEM_ATTACH_GLOBAL));
    CK(cuMemFree(r1));
    CUdeviceptr r3;
    CK(cuMemAllocManaged(&r3, MiB, CU_MEM_ATTACH_GLOBAL));
    P("ranges.layout.reuse_freed: %s\n", r3 == r1 ? "same_address" : "other");
    CK(cuMemFree(r2));
    CK(cuMemFree(r3));
    teardown("ranges");
    return 0;
}
