/* stacklimit.c - what cuCtxSetLimit accepts and cuCtxGetLimit reads back for
 * CU_LIMIT_STACK_SIZE, CU_LIMIT_PRINTF_FIFO_SIZE and CU_LIMIT_MALLOC_HEAP_SIZE:
 * the largest value accepted (bisected), the rounding of values that are not
 * multiples of 16, a value of 0, whether the largest depends on the memory
 * free, and which error comes first. No kernels run.
 * Build: gcc -O2 -o stacklimit stacklimit.c -I/usr/local/cuda/include -lcuda */
#include "common.h"

static const char *lname(CUlimit l)
{
    return l == CU_LIMIT_STACK_SIZE ? "stack" :
           l == CU_LIMIT_PRINTF_FIFO_SIZE ? "printf" : "heap";
}

static size_t get(CUlimit l)
{
    size_t v = 0;
    CUresult r = cuCtxGetLimit(&v, l);
    return r == CUDA_SUCCESS ? v : (size_t)-1;
}

/* set v, print the answer, what reads back and the free memory after */
static void try_set(CUlimit l, const char *tag, size_t v)
{
    size_t fr = 0, tot = 0;
    CUresult r = cuCtxSetLimit(l, v);
    cuMemGetInfo(&fr, &tot);
    P("stacklimit.%s.%s.set %zu: %s get=%zu free=%zu\n", lname(l), tag, v,
      en(r), get(l), fr);
}

/* the largest value in [lo, hi] that is accepted, lo accepted */
static size_t bisect(CUlimit l, size_t lo, size_t hi)
{
    if (cuCtxSetLimit(l, hi) == CUDA_SUCCESS)
        return hi;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (cuCtxSetLimit(l, mid) == CUDA_SUCCESS)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static void limit_cases(CUlimit l, size_t dflt, size_t top)
{
    static const size_t odd[] = { 1, 2, 7, 8, 15, 16, 17, 24, 31, 33, 100,
        127, 129, 255, 257, 1000, 1023, 1025, 1030, 1040, 4095, 4097,
        65535, 65537, 100000, 1000001 };
    char tag[32];
    size_t fr = 0, tot = 0;

    P("stacklimit.%s.default: %zu\n", lname(l), get(l));
    try_set(l, "zero", 0);
    try_set(l, "after_zero", dflt);
    for (unsigned i = 0; i < sizeof odd / sizeof odd[0]; i++) {
        snprintf(tag, sizeof tag, "odd%u", i);
        try_set(l, tag, odd[i]);
    }
    try_set(l, "kib", 1024);
    size_t max = bisect(l, 1024, top);
    P("stacklimit.%s.max: %zu (bisected in [1024, %zu])\n", lname(l), max, top);
    try_set(l, "at_max", max);
    try_set(l, "over_max", max + 1);
    try_set(l, "max_plus_16", max + 16);
    try_set(l, "gib", 1ull << 30);
    try_set(l, "huge", (size_t)1 << 40);
    try_set(l, "size_max", (size_t)-1);
    /* does a refused set keep the value before it? */
    try_set(l, "before_refusal", 4096);
    try_set(l, "refused", (size_t)-1);
    /* with most of the memory taken */
    cuMemGetInfo(&fr, &tot);
    CUdeviceptr big = 0;
    size_t take = fr - 2 * 1024 * MiB;
    CUresult r = cuMemAlloc(&big, take);
    cuMemGetInfo(&fr, &tot);
    P("stacklimit.%s.alloc %zu: %s free=%zu total=%zu\n", lname(l), take,
      en(r), fr, tot);
    try_set(l, "low_mem_dflt", dflt);
    size_t max2 = bisect(l, 1024, top);
    P("stacklimit.%s.max_low_mem: %zu\n", lname(l), max2);
    try_set(l, "low_mem_at_max", max);
    if (big)
        cuMemFree(big);
    try_set(l, "restore", dflt);
}

int main(void)
{
    size_t v = 0;

    setup("stacklimit");
    size_t fr = 0, tot = 0;
    cuMemGetInfo(&fr, &tot);
    P("stacklimit.mem: free=%zu total=%zu\n", fr, tot);
    /* order of checks */
    P("stacklimit.order.get_null_bad: %s\n", en(cuCtxGetLimit(NULL, 99)));
    P("stacklimit.order.get_null: %s\n", en(cuCtxGetLimit(NULL, CU_LIMIT_STACK_SIZE)));
    P("stacklimit.order.get_bad: %s\n", en(cuCtxGetLimit(&v, 99)));
    P("stacklimit.order.set_bad: %s\n", en(cuCtxSetLimit(99, 1024)));
    P("stacklimit.order.set_bad_huge: %s\n", en(cuCtxSetLimit(99, (size_t)-1)));
    cuCtxSetCurrent(NULL);
    P("stacklimit.order.noctx_set_bad: %s\n", en(cuCtxSetLimit(99, 1024)));
    P("stacklimit.order.noctx_set_huge: %s\n", en(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, (size_t)-1)));
    P("stacklimit.order.noctx_set_zero: %s\n", en(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 0)));
    P("stacklimit.order.noctx_get_null: %s\n", en(cuCtxGetLimit(NULL, CU_LIMIT_STACK_SIZE)));
    CK(cuCtxSetCurrent(g_ctx[0]));
    limit_cases(CU_LIMIT_STACK_SIZE, 1024, 1ull << 30);
    limit_cases(CU_LIMIT_PRINTF_FIFO_SIZE, 1 << 20, (size_t)1 << 40);
    limit_cases(CU_LIMIT_MALLOC_HEAP_SIZE, 8 << 20, (size_t)1 << 40);
    teardown("stacklimit");
    return 0;
}
