/*
 * cuda_fp16.h - the host side of IEEE 754 half precision (binary16): the
 * __half_raw and __half2_raw bit containers (C and C++), and in C++ the
 * __half and __half2 types with the toolkit's conversions (float, double
 * and integers, each rounding mode), reinterpretations, arithmetic and
 * comparisons, computed on the host as the toolkit computes them there:
 * exactly rounded from the wider value, arithmetic in float and rounded
 * once to nearest even. Nothing here runs on a device; libcuemu has none.
 *
 * Also the one rounding routine (__cuemu_fp_round) that cuda_bf16.h uses
 * for bfloat16. Header-only, no state, nothing to lock.
 */
#if !defined(__CUDA_FP16_H__)
#define __CUDA_FP16_H__

#include "host_defines.h"
#include "vector_types.h"

/* The bits of a half, for static initialisation and for C. */
typedef struct __align__(2) {
    unsigned short x;
} __half_raw;

/* The bits of two halves: x the low one, y the high one. */
typedef struct __align__(4) {
    unsigned short x;
    unsigned short y;
} __half2_raw;

#if defined(__cplusplus)

#include <cstring>

/* ------------------------------------------------- the rounding routine */

/* IEEE rounding directions, in the order of the _rn/_rz/_rd/_ru suffixes. */
enum { __CUEMU_RN = 0, __CUEMU_RZ = 1, __CUEMU_RD = 2, __CUEMU_RU = 3 };

/* A binary format of 16 bits: exponent and fraction widths. */
struct __cuemu_fp_format {
    int ebits;
    int mbits;
};

/*
 * The 16-bit encoding nearest, in direction MODE, to (-1)^neg * m * 2^e,
 * in format F: every finite value rounds exactly once, whatever its width,
 * so float, double and 64-bit integers all come here. Overflow gives the
 * infinity or the largest finite value the direction asks for; values too
 * small for a subnormal give zero or the smallest subnormal likewise.
 */
static inline unsigned short __cuemu_fp_round(struct __cuemu_fp_format f,
                                              bool neg, unsigned long long m,
                                              int e, int mode)
{
    const unsigned short sign = neg ? (unsigned short)(1u << (f.ebits + f.mbits)) : 0;
    const int bias = (1 << (f.ebits - 1)) - 1;
    const unsigned int inf = ((1u << f.ebits) - 1u) << f.mbits;

    if (m == 0)
        return sign;
    int top = 63;
    while (!(m >> top))
        top--;
    const int exp = top + e;                    /* of the leading bit */
    const bool away = (mode == __CUEMU_RU && !neg) || (mode == __CUEMU_RD && neg);
    if (exp > bias) {                           /* beyond every finite value */
        if (mode == __CUEMU_RN || away)
            return (unsigned short)(sign | inf);
        return (unsigned short)(sign | (inf - 1u));
    }
    /* The weight of the last fraction bit, normal or subnormal. */
    const int quantum = (exp >= 1 - bias ? exp : 1 - bias) - f.mbits;
    const int shift = quantum - e;
    unsigned long long r, rem = 0, half = 0;
    bool tail = false;                          /* rem below half, not zero */
    if (shift <= 0) {
        r = m << -shift;
    } else if (shift < 64) {
        r = m >> shift;
        rem = m & ((1ull << shift) - 1);
        half = 1ull << (shift - 1);
    } else {
        r = 0;
        if (shift == 64) {
            half = 1ull << 63;
            rem = m;
        } else {
            tail = true;
        }
    }
    const bool inexact = tail || rem != 0;
    if (mode == __CUEMU_RN) {
        if (!tail && (rem > half || (rem == half && half && (r & 1))))
            r++;
    } else if (away && inexact) {
        r++;
    }
    unsigned int bits;
    if (exp >= 1 - bias)    /* the carry of r into the exponent is right */
        bits = ((unsigned int)(exp + bias) << f.mbits) +
               (unsigned int)(r - (1ull << f.mbits));
    else
        bits = (unsigned int)r;
    if (bits > inf)
        bits = inf;
    return (unsigned short)(sign | bits);
}

/* float's sign, significand and exponent, for __cuemu_fp_round; NaN and
 * infinity are the caller's. */
static inline void __cuemu_fp_split(float v, bool *neg, unsigned long long *m, int *e)
{
    unsigned int u;
    std::memcpy(&u, &v, sizeof u);
    *neg = (u >> 31) != 0;
    const int exp = (int)((u >> 23) & 0xffu);
    *m = u & 0x7fffffu;
    *e = exp ? exp - 150 : -149;
    if (exp)
        *m |= 0x800000u;
}

static inline void __cuemu_fp_split(double v, bool *neg, unsigned long long *m, int *e)
{
    unsigned long long u;
    std::memcpy(&u, &v, sizeof u);
    *neg = (u >> 63) != 0;
    const int exp = (int)((u >> 52) & 0x7ffu);
    *m = u & 0xfffffffffffffull;
    *e = exp ? exp - 1075 : -1074;
    if (exp)
        *m |= 1ull << 52;
}

/* A float or double in format F; NaN becomes the canonical 0x7fff. */
template <class T>
static inline unsigned short __cuemu_fp_from(struct __cuemu_fp_format f, T v, int mode)
{
    bool neg;
    unsigned long long m;
    int e;

    if (v != v)
        return 0x7fffu;
    __cuemu_fp_split(v, &neg, &m, &e);
    if (v - v != v - v) {                       /* infinite */
        const unsigned int inf = ((1u << f.ebits) - 1u) << f.mbits;
        return (unsigned short)((neg ? 1u << (f.ebits + f.mbits) : 0u) | inf);
    }
    return __cuemu_fp_round(f, neg, m, e, mode);
}

static inline unsigned short __cuemu_fp_from_ll(struct __cuemu_fp_format f,
                                                long long v, int mode)
{
    const unsigned long long m = v < 0 ? 0ull - (unsigned long long)v
                                       : (unsigned long long)v;
    return __cuemu_fp_round(f, v < 0, m, 0, mode);
}

static inline unsigned short __cuemu_fp_from_ull(struct __cuemu_fp_format f,
                                                 unsigned long long v, int mode)
{
    return __cuemu_fp_round(f, false, v, 0, mode);
}

static inline float __cuemu_bits_to_float(unsigned int u)
{
    float v;
    std::memcpy(&v, &u, sizeof v);
    return v;
}

/* A float truncated to an integer type of range [LO, HI], saturating, and
 * NaN as NAN (the toolkit's _rz conversions: 0 for the narrow types, the
 * device's "integer indefinite" 1 << 63 for the 64-bit ones). The
 * comparisons are in double, where each bound is exact or rounds to the
 * power of two above it, so that no value outside the range reaches the
 * cast. */
static inline long long __cuemu_fp_to_int(float v, long long lo, long long hi,
                                          long long nan)
{
    if (v != v)
        return nan;
    if ((double)v >= (double)hi)
        return hi;
    if ((double)v <= (double)lo)
        return lo;
    return (long long)v;
}

static inline unsigned long long __cuemu_fp_to_uint(float v, unsigned long long hi,
                                                    unsigned long long nan)
{
    if (v != v)
        return nan;
    if (v <= 0.0f)
        return 0;
    if ((double)v >= (double)hi)
        return hi;
    return (unsigned long long)v;
}

/* The ranges of the integer types the conversions saturate to, and what
 * NaN converts to. */
#define __CUEMU_SCHAR  -128ll, 127ll, 0ll
#define __CUEMU_UCHAR  255ull, 0ull
#define __CUEMU_SHORT  -32768ll, 32767ll, 0ll
#define __CUEMU_USHORT 65535ull, 0ull
#define __CUEMU_INT    -2147483647ll - 1, 2147483647ll, 0ll
#define __CUEMU_UINT   4294967295ull, 0ull
#define __CUEMU_LL     -9223372036854775807ll - 1, 9223372036854775807ll, \
                       -9223372036854775807ll - 1
#define __CUEMU_ULL    18446744073709551615ull, 9223372036854775808ull

/* ------------------------------------------------------------ the types */

/* binary16's widths: a constant, not state. */
static const struct __cuemu_fp_format __cuemu_fp16 = { 5, 10 };

struct __half;
static inline __half __float2half(const float a);
static inline __half __double2half(const double a);
static inline float __half2float(const __half a);
static inline __half __ll2half_rn(const long long i);
static inline __half __ull2half_rn(const unsigned long long i);
static inline long long __half2ll_rz(const __half h);
static inline unsigned long long __half2ull_rz(const __half h);
struct __nv_bfloat16;

/* A half: its bits are protected; __half_raw reads and writes them. */
struct __align__(2) __half {
protected:
    unsigned short __x;

public:
    __half() = default;
    constexpr __half(const __half_raw &hr) : __x(hr.x) {}
    __half &operator=(const __half_raw &hr) { __x = hr.x; return *this; }
    volatile __half &operator=(const __half_raw &hr) volatile
    { __x = hr.x; return *this; }
    volatile __half &operator=(const volatile __half_raw &hr) volatile
    { __x = hr.x; return *this; }
    operator __half_raw() const { __half_raw r; r.x = __x; return r; }
    operator __half_raw() const volatile { __half_raw r; r.x = __x; return r; }

    /* Code that brings its own conversions defines
     * __CUDA_NO_HALF_CONVERSIONS__, and the type keeps only its bits. */
#if !defined(__CUDA_NO_HALF_CONVERSIONS__)
    explicit __half(const __nv_bfloat16 f);     /* in cuda_bf16.h */
    __half(const float f) { __x = static_cast<__half_raw>(__float2half(f)).x; }
    __half(const double f) { __x = static_cast<__half_raw>(__double2half(f)).x; }
    operator float() const { return __half2float(*this); }
    __half &operator=(const float f) { return *this = __half(f); }
    __half &operator=(const double f) { return *this = __half(f); }

    /* Integers convert to nearest even; back, towards zero, saturating. */
    __half(const short v) { *this = __ll2half_rn(v); }
    __half(const unsigned short v) { *this = __ull2half_rn(v); }
    __half(const int v) { *this = __ll2half_rn(v); }
    __half(const unsigned int v) { *this = __ull2half_rn(v); }
    __half(const long v) { *this = __ll2half_rn(v); }
    __half(const unsigned long v) { *this = __ull2half_rn(v); }
    __half(const long long v) { *this = __ll2half_rn(v); }
    __half(const unsigned long long v) { *this = __ull2half_rn(v); }
    operator signed char() const
    { return (signed char)__cuemu_fp_to_int(float(*this), __CUEMU_SCHAR); }
    operator unsigned char() const
    { return (unsigned char)__cuemu_fp_to_uint(float(*this), __CUEMU_UCHAR); }
    operator char() const
    { return (char)__cuemu_fp_to_int(float(*this), __CUEMU_SCHAR); }
    operator short() const
    { return (short)__cuemu_fp_to_int(float(*this), __CUEMU_SHORT); }
    operator unsigned short() const
    { return (unsigned short)__cuemu_fp_to_uint(float(*this), __CUEMU_USHORT); }
    operator int() const
    { return (int)__cuemu_fp_to_int(float(*this), __CUEMU_INT); }
    operator unsigned int() const
    { return (unsigned int)__cuemu_fp_to_uint(float(*this), __CUEMU_UINT); }
    operator long() const { return (long)__half2ll_rz(*this); }
    operator unsigned long() const { return (unsigned long)__half2ull_rz(*this); }
    operator long long() const { return __half2ll_rz(*this); }
    operator unsigned long long() const { return __half2ull_rz(*this); }
    __half &operator=(const short v) { return *this = __half(v); }
    __half &operator=(const unsigned short v) { return *this = __half(v); }
    __half &operator=(const int v) { return *this = __half(v); }
    __half &operator=(const unsigned int v) { return *this = __half(v); }
    __half &operator=(const long long v) { return *this = __half(v); }
    __half &operator=(const unsigned long long v) { return *this = __half(v); }
    constexpr operator bool() const { return (__x & 0x7fffu) != 0u; }
#endif /* !__CUDA_NO_HALF_CONVERSIONS__ */
};

/* Two halves, x the low one; public members, as the toolkit has them. */
struct __align__(4) __half2 {
    __half x;
    __half y;

    __half2() = default;
    constexpr __half2(const __half &a, const __half &b) : x(a), y(b) {}
    __half2(const __half2_raw &r)
    {
        __half_raw t;
        t.x = r.x;
        x = t;
        t.x = r.y;
        y = t;
    }
    __half2 &operator=(const __half2_raw &r) { return *this = __half2(r); }
    operator __half2_raw() const
    {
        __half2_raw r;
        r.x = static_cast<__half_raw>(x).x;
        r.y = static_cast<__half_raw>(y).x;
        return r;
    }
};

typedef __half half;
typedef __half2 half2;
typedef __half __nv_half;
typedef __half2 __nv_half2;
typedef __half_raw __nv_half_raw;
typedef __half2_raw __nv_half2_raw;
typedef __half nv_half;
typedef __half2 nv_half2;

/* ----------------------------------------------------------- conversions */

static inline __half __cuemu_half_bits(unsigned short b)
{
    __half_raw r;
    r.x = b;
    return __half(r);
}

static inline __half __float2half_rn(const float a)
{ return __cuemu_half_bits(__cuemu_fp_from(__cuemu_fp16, a, __CUEMU_RN)); }
static inline __half __float2half_rz(const float a)
{ return __cuemu_half_bits(__cuemu_fp_from(__cuemu_fp16, a, __CUEMU_RZ)); }
static inline __half __float2half_rd(const float a)
{ return __cuemu_half_bits(__cuemu_fp_from(__cuemu_fp16, a, __CUEMU_RD)); }
static inline __half __float2half_ru(const float a)
{ return __cuemu_half_bits(__cuemu_fp_from(__cuemu_fp16, a, __CUEMU_RU)); }
static inline __half __float2half(const float a) { return __float2half_rn(a); }
static inline __half __double2half(const double a)
{ return __cuemu_half_bits(__cuemu_fp_from(__cuemu_fp16, a, __CUEMU_RN)); }

/* Exact: every half is a float. Every NaN becomes the one NaN 0x7fffffff. */
static inline float __half2float(const __half a)
{
    const unsigned int h = static_cast<__half_raw>(a).x;
    const unsigned int sign = (h & 0x8000u) << 16;
    const unsigned int exp = (h >> 10) & 0x1fu, frac = h & 0x3ffu;

    if (exp == 0x1fu)
        return __cuemu_bits_to_float(frac ? 0x7fffffffu : sign | 0x7f800000u);
    if (exp == 0) {     /* subnormal or zero: frac * 2^-24, exact */
        const float v = (float)frac * 5.9604644775390625e-08f;
        return sign ? -v : v;
    }
    return __cuemu_bits_to_float(sign | ((exp + 112u) << 23) | (frac << 13));
}

static inline unsigned short __half_as_ushort(const __half h)
{ return static_cast<__half_raw>(h).x; }
static inline short __half_as_short(const __half h)
{ return (short)static_cast<__half_raw>(h).x; }
static inline __half __ushort_as_half(const unsigned short i)
{ return __cuemu_half_bits(i); }
static inline __half __short_as_half(const short i)
{ return __cuemu_half_bits((unsigned short)i); }

/* Integers to half, in each direction. */
#define __CUEMU_HALF_FROM_INT(name, type, how)                              \
    static inline __half name##_rn(const type i)                            \
    { return __cuemu_half_bits(how(__cuemu_fp16, i, __CUEMU_RN)); }         \
    static inline __half name##_rz(const type i)                            \
    { return __cuemu_half_bits(how(__cuemu_fp16, i, __CUEMU_RZ)); }         \
    static inline __half name##_rd(const type i)                            \
    { return __cuemu_half_bits(how(__cuemu_fp16, i, __CUEMU_RD)); }         \
    static inline __half name##_ru(const type i)                            \
    { return __cuemu_half_bits(how(__cuemu_fp16, i, __CUEMU_RU)); }
__CUEMU_HALF_FROM_INT(__short2half, short, __cuemu_fp_from_ll)
__CUEMU_HALF_FROM_INT(__int2half, int, __cuemu_fp_from_ll)
__CUEMU_HALF_FROM_INT(__ll2half, long long, __cuemu_fp_from_ll)
__CUEMU_HALF_FROM_INT(__ushort2half, unsigned short, __cuemu_fp_from_ull)
__CUEMU_HALF_FROM_INT(__uint2half, unsigned int, __cuemu_fp_from_ull)
__CUEMU_HALF_FROM_INT(__ull2half, unsigned long long, __cuemu_fp_from_ull)
#undef __CUEMU_HALF_FROM_INT

/* Half to integers, towards zero, saturating; NaN is 0. */
static inline signed char __half2char_rz(const __half h)
{ return (signed char)__cuemu_fp_to_int(__half2float(h), __CUEMU_SCHAR); }
static inline unsigned char __half2uchar_rz(const __half h)
{ return (unsigned char)__cuemu_fp_to_uint(__half2float(h), __CUEMU_UCHAR); }
static inline short __half2short_rz(const __half h)
{ return (short)__cuemu_fp_to_int(__half2float(h), __CUEMU_SHORT); }
static inline unsigned short __half2ushort_rz(const __half h)
{ return (unsigned short)__cuemu_fp_to_uint(__half2float(h), __CUEMU_USHORT); }
static inline int __half2int_rz(const __half h)
{ return (int)__cuemu_fp_to_int(__half2float(h), __CUEMU_INT); }
static inline unsigned int __half2uint_rz(const __half h)
{ return (unsigned int)__cuemu_fp_to_uint(__half2float(h), __CUEMU_UINT); }
static inline long long __half2ll_rz(const __half h)
{ return __cuemu_fp_to_int(__half2float(h), __CUEMU_LL); }
static inline unsigned long long __half2ull_rz(const __half h)
{ return __cuemu_fp_to_uint(__half2float(h), __CUEMU_ULL); }

/* Pairs. */
static inline __half2 __halves2half2(const __half a, const __half b)
{ return __half2(a, b); }
static inline __half2 __half2half2(const __half a) { return __half2(a, a); }
static inline __half2 __float2half2_rn(const float a)
{ return __half2half2(__float2half_rn(a)); }
static inline __half2 __floats2half2_rn(const float a, const float b)
{ return __half2(__float2half_rn(a), __float2half_rn(b)); }
static inline __half2 __float22half2_rn(const float2 a)
{ return __floats2half2_rn(a.x, a.y); }
static inline float2 __half22float2(const __half2 a)
{
    float2 f;
    f.x = __half2float(a.x);
    f.y = __half2float(a.y);
    return f;
}
static inline __half __low2half(const __half2 a) { return a.x; }
static inline __half __high2half(const __half2 a) { return a.y; }
static inline float __low2float(const __half2 a) { return __half2float(a.x); }
static inline float __high2float(const __half2 a) { return __half2float(a.y); }
static inline __half2 __low2half2(const __half2 a) { return __half2(a.x, a.x); }
static inline __half2 __high2half2(const __half2 a) { return __half2(a.y, a.y); }
static inline __half2 __lows2half2(const __half2 a, const __half2 b)
{ return __half2(a.x, b.x); }
static inline __half2 __highs2half2(const __half2 a, const __half2 b)
{ return __half2(a.y, b.y); }
static inline __half2 __lowhigh2highlow(const __half2 a) { return __half2(a.y, a.x); }

/* ------------------------------------------- arithmetic and comparisons */

/* In float, rounded once to nearest even: a float holds every sum,
 * difference and product of two halves exactly enough for that. */
static inline __half __hadd(const __half a, const __half b)
{ return __float2half(__half2float(a) + __half2float(b)); }
static inline __half __hsub(const __half a, const __half b)
{ return __float2half(__half2float(a) - __half2float(b)); }
static inline __half __hmul(const __half a, const __half b)
{ return __float2half(__half2float(a) * __half2float(b)); }
static inline __half __hdiv(const __half a, const __half b)
{ return __float2half(__half2float(a) / __half2float(b)); }
/* Through float, as the host does: a NaN comes back as 0x7fff. */
static inline __half __hneg(const __half a) { return __float2half(-__half2float(a)); }
static inline bool __hisnan(const __half a) { return (__half_as_ushort(a) & 0x7fffu) > 0x7c00u; }
static inline int __hisinf(const __half a)
{
    const unsigned short b = __half_as_ushort(a);
    return b == 0x7c00u ? 1 : b == 0xfc00u ? -1 : 0;
}
/* A NaN comes back as 0x7fff, as from the host's float path. */
static inline __half __habs(const __half a)
{ return __cuemu_half_bits(__hisnan(a) ? 0x7fffu : (unsigned short)(__half_as_ushort(a) & 0x7fffu)); }
static inline bool __heq(const __half a, const __half b) { return __half2float(a) == __half2float(b); }
static inline bool __hne(const __half a, const __half b)
{ return !__hisnan(a) && !__hisnan(b) && __half2float(a) != __half2float(b); }
static inline bool __hneu(const __half a, const __half b)
{ return __half2float(a) != __half2float(b); }
static inline bool __hlt(const __half a, const __half b) { return __half2float(a) < __half2float(b); }
static inline bool __hle(const __half a, const __half b) { return __half2float(a) <= __half2float(b); }
static inline bool __hgt(const __half a, const __half b) { return __half2float(a) > __half2float(b); }
static inline bool __hge(const __half a, const __half b) { return __half2float(a) >= __half2float(b); }

#if !defined(__CUDA_NO_HALF_OPERATORS__)
static inline __half operator+(const __half &a, const __half &b) { return __hadd(a, b); }
static inline __half operator-(const __half &a, const __half &b) { return __hsub(a, b); }
static inline __half operator*(const __half &a, const __half &b) { return __hmul(a, b); }
static inline __half operator/(const __half &a, const __half &b) { return __hdiv(a, b); }
static inline __half &operator+=(__half &a, const __half &b) { return a = __hadd(a, b); }
static inline __half &operator-=(__half &a, const __half &b) { return a = __hsub(a, b); }
static inline __half &operator*=(__half &a, const __half &b) { return a = __hmul(a, b); }
static inline __half &operator/=(__half &a, const __half &b) { return a = __hdiv(a, b); }
static inline __half &operator++(__half &h) { return h = __hadd(h, __ushort_as_half(0x3c00u)); }
static inline __half &operator--(__half &h) { return h = __hsub(h, __ushort_as_half(0x3c00u)); }
static inline __half operator++(__half &h, const int) { __half o = h; ++h; return o; }
static inline __half operator--(__half &h, const int) { __half o = h; --h; return o; }
static inline __half operator+(const __half &h) { return h; }
static inline __half operator-(const __half &h) { return __hneg(h); }
static inline bool operator==(const __half &a, const __half &b) { return __heq(a, b); }
static inline bool operator!=(const __half &a, const __half &b) { return __hneu(a, b); }
static inline bool operator>(const __half &a, const __half &b) { return __hgt(a, b); }
static inline bool operator<(const __half &a, const __half &b) { return __hlt(a, b); }
static inline bool operator>=(const __half &a, const __half &b) { return __hge(a, b); }
static inline bool operator<=(const __half &a, const __half &b) { return __hle(a, b); }

#endif /* !__CUDA_NO_HALF_OPERATORS__ */

#if !defined(__CUDA_NO_HALF2_OPERATORS__)
/* Pairs lane by lane; a comparison holds when it holds in both lanes. */
static inline __half2 operator+(const __half2 &a, const __half2 &b)
{ return __half2(__hadd(a.x, b.x), __hadd(a.y, b.y)); }
static inline __half2 operator-(const __half2 &a, const __half2 &b)
{ return __half2(__hsub(a.x, b.x), __hsub(a.y, b.y)); }
static inline __half2 operator*(const __half2 &a, const __half2 &b)
{ return __half2(__hmul(a.x, b.x), __hmul(a.y, b.y)); }
static inline __half2 operator/(const __half2 &a, const __half2 &b)
{ return __half2(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); }
static inline __half2 &operator+=(__half2 &a, const __half2 &b) { return a = a + b; }
static inline __half2 &operator-=(__half2 &a, const __half2 &b) { return a = a - b; }
static inline __half2 &operator*=(__half2 &a, const __half2 &b) { return a = a * b; }
static inline __half2 &operator/=(__half2 &a, const __half2 &b) { return a = a / b; }
static inline __half2 &operator++(__half2 &h)
{ return h = h + __half2(__ushort_as_half(0x3c00u), __ushort_as_half(0x3c00u)); }
static inline __half2 &operator--(__half2 &h)
{ return h = h - __half2(__ushort_as_half(0x3c00u), __ushort_as_half(0x3c00u)); }
static inline __half2 operator++(__half2 &h, const int) { __half2 o = h; ++h; return o; }
static inline __half2 operator--(__half2 &h, const int) { __half2 o = h; --h; return o; }
static inline __half2 operator+(const __half2 &h) { return h; }
static inline __half2 operator-(const __half2 &h) { return __half2(__hneg(h.x), __hneg(h.y)); }
static inline bool operator==(const __half2 &a, const __half2 &b)
{ return __heq(a.x, b.x) && __heq(a.y, b.y); }
static inline bool operator!=(const __half2 &a, const __half2 &b)
{ return __hneu(a.x, b.x) && __hneu(a.y, b.y); }
static inline bool operator>(const __half2 &a, const __half2 &b)
{ return __hgt(a.x, b.x) && __hgt(a.y, b.y); }
static inline bool operator<(const __half2 &a, const __half2 &b)
{ return __hlt(a.x, b.x) && __hlt(a.y, b.y); }
static inline bool operator>=(const __half2 &a, const __half2 &b)
{ return __hge(a.x, b.x) && __hge(a.y, b.y); }
static inline bool operator<=(const __half2 &a, const __half2 &b)
{ return __hle(a.x, b.x) && __hle(a.y, b.y); }
#endif /* !__CUDA_NO_HALF2_OPERATORS__ */

#endif /* __cplusplus */
#endif /* !__CUDA_FP16_H__ */
