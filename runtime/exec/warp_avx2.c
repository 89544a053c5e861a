/*
 * warp_avx2.c - warp.c compiled a second time for x86-64 hosts with AVX2
 * and FMA, as ex_warp_run_avx2: a warp's lanes are rows of 32 values, and
 * with 256-bit vectors the loops over them take half the instructions,
 * fmaf becomes one instruction instead of a call. launch.c picks it for a
 * launch where the CPU has both (and CUEMU_EXEC_BASELINE is unset).
 *
 * Floating-point contraction is off, as in the baseline build (which has
 * no FMA to contract into): a PTX mul followed by an add must round
 * twice, so the compiler may not fuse what warp.c writes as two steps.
 *
 * Locking: warp.c's.
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC target("avx2,fma")
#pragma GCC optimize("fp-contract=off")
#define EX_WARP_RUN ex_warp_run_avx2
#include "exec/warp.c"
#endif
