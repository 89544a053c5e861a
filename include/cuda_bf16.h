/*
 * cuda_bf16.h - the host side of bfloat16 (1 sign, 8 exponent, 7 fraction
 * bits: float's range, fewer digits): the __nv_bfloat16_raw and
 * __nv_bfloat162_raw bit containers (C and C++), and in C++ the
 * __nv_bfloat16 and __nv_bfloat162 types with the toolkit's host
 * conversions (float in each rounding mode, double and integers to nearest
 * even, back to integers towards zero), conversions to and from __half,
 * reinterpretations, arithmetic and comparisons, computed as the toolkit
 * computes them on the host. Rounding is cuda_fp16.h's one routine.
 * Header-only, no state, nothing to lock.
 */
#if !defined(__CUDA_BF16_H__)
#define __CUDA_BF16_H__

#include "cuda_fp16.h"

/* The bits of a bfloat16, for static initialisation and for C. */
typedef struct __align__(2) {
    unsigned short x;
} __nv_bfloat16_raw;

/* The bits of two bfloat16s: x the low one, y the high one. */
typedef struct __align__(4) {
    unsigned short x;
    unsigned short y;
} __nv_bfloat162_raw;

#if defined(__cplusplus)

/* bfloat16's widths: a constant, not state. */
static const struct __cuemu_fp_format __cuemu_bf16 = { 8, 7 };

struct __nv_bfloat16;
static inline __nv_bfloat16 __float2bfloat16(const float a);
static inline __nv_bfloat16 __double2bfloat16(const double a);
static inline float __bfloat162float(const __nv_bfloat16 a);
static inline __nv_bfloat16 __ll2bfloat16_rn(const long long i);
static inline __nv_bfloat16 __ull2bfloat16_rn(const unsigned long long i);
static inline long long __bfloat162ll_rz(const __nv_bfloat16 h);
static inline unsigned long long __bfloat162ull_rz(const __nv_bfloat16 h);

/* A bfloat16: its bits are protected; __nv_bfloat16_raw reads and writes
 * them. */
struct __align__(2) __nv_bfloat16 {
protected:
    unsigned short __x;

public:
    __nv_bfloat16() = default;
    constexpr __nv_bfloat16(const __nv_bfloat16_raw &hr) : __x(hr.x) {}
    __nv_bfloat16 &operator=(const __nv_bfloat16_raw &hr) { __x = hr.x; return *this; }
    volatile __nv_bfloat16 &operator=(const __nv_bfloat16_raw &hr) volatile
    { __x = hr.x; return *this; }
    volatile __nv_bfloat16 &operator=(const volatile __nv_bfloat16_raw &hr) volatile
    { __x = hr.x; return *this; }
    operator __nv_bfloat16_raw() const { __nv_bfloat16_raw r; r.x = __x; return r; }
    operator __nv_bfloat16_raw() const volatile { __nv_bfloat16_raw r; r.x = __x; return r; }

    /* As __half's, hidden by __CUDA_NO_BFLOAT16_CONVERSIONS__. */
#if !defined(__CUDA_NO_BFLOAT16_CONVERSIONS__)
    explicit __nv_bfloat16(const __half f);
    __nv_bfloat16(const float f) { __x = static_cast<__nv_bfloat16_raw>(__float2bfloat16(f)).x; }
    __nv_bfloat16(const double f) { __x = static_cast<__nv_bfloat16_raw>(__double2bfloat16(f)).x; }
    operator float() const { return __bfloat162float(*this); }
    __nv_bfloat16 &operator=(const float f) { return *this = __nv_bfloat16(f); }
    __nv_bfloat16 &operator=(const double f) { return *this = __nv_bfloat16(f); }

    /* Integers convert to nearest even; back, towards zero, saturating. */
    __nv_bfloat16(const short v) { *this = __ll2bfloat16_rn(v); }
    __nv_bfloat16(const unsigned short v) { *this = __ull2bfloat16_rn(v); }
    __nv_bfloat16(const int v) { *this = __ll2bfloat16_rn(v); }
    __nv_bfloat16(const unsigned int v) { *this = __ull2bfloat16_rn(v); }
    __nv_bfloat16(const long v) { *this = __ll2bfloat16_rn(v); }
    __nv_bfloat16(const unsigned long v) { *this = __ull2bfloat16_rn(v); }
    __nv_bfloat16(const long long v) { *this = __ll2bfloat16_rn(v); }
    __nv_bfloat16(const unsigned long long v) { *this = __ull2bfloat16_rn(v); }
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
    operator long() const { return (long)__bfloat162ll_rz(*this); }
    operator unsigned long() const { return (unsigned long)__bfloat162ull_rz(*this); }
    operator long long() const { return __bfloat162ll_rz(*this); }
    operator unsigned long long() const { return __bfloat162ull_rz(*this); }
    __nv_bfloat16 &operator=(const short v) { return *this = __nv_bfloat16(v); }
    __nv_bfloat16 &operator=(const unsigned short v) { return *this = __nv_bfloat16(v); }
    __nv_bfloat16 &operator=(const int v) { return *this = __nv_bfloat16(v); }
    __nv_bfloat16 &operator=(const unsigned int v) { return *this = __nv_bfloat16(v); }
    __nv_bfloat16 &operator=(const long long v) { return *this = __nv_bfloat16(v); }
    __nv_bfloat16 &operator=(const unsigned long long v) { return *this = __nv_bfloat16(v); }
    constexpr operator bool() const { return (__x & 0x7fffu) != 0u; }
#endif /* !__CUDA_NO_BFLOAT16_CONVERSIONS__ */
};

/* Two bfloat16s, x the low one; public members, as the toolkit has them. */
struct __align__(4) __nv_bfloat162 {
    __nv_bfloat16 x;
    __nv_bfloat16 y;

    __nv_bfloat162() = default;
    constexpr __nv_bfloat162(const __nv_bfloat16 &a, const __nv_bfloat16 &b) : x(a), y(b) {}
    __nv_bfloat162(const __nv_bfloat162_raw &r)
    {
        __nv_bfloat16_raw t;
        t.x = r.x;
        x = t;
        t.x = r.y;
        y = t;
    }
    __nv_bfloat162 &operator=(const __nv_bfloat162_raw &r) { return *this = __nv_bfloat162(r); }
    operator __nv_bfloat162_raw() const
    {
        __nv_bfloat162_raw r;
        r.x = static_cast<__nv_bfloat16_raw>(x).x;
        r.y = static_cast<__nv_bfloat16_raw>(y).x;
        return r;
    }
};

typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

/* The conversions between the two 16-bit types go through float, which
 * holds either exactly: one rounding, to nearest even. */
#if !defined(__CUDA_NO_BFLOAT16_CONVERSIONS__)
inline __nv_bfloat16::__nv_bfloat16(const __half f)
{ *this = __float2bfloat16(__half2float(f)); }
#endif
#if !defined(__CUDA_NO_HALF_CONVERSIONS__)
inline __half::__half(const __nv_bfloat16 f)
{ *this = __float2half(__bfloat162float(f)); }
#endif

/* ----------------------------------------------------------- conversions */

static inline __nv_bfloat16 __cuemu_bfloat16_bits(unsigned short b)
{
    __nv_bfloat16_raw r;
    r.x = b;
    return __nv_bfloat16(r);
}

static inline __nv_bfloat16 __float2bfloat16_rn(const float a)
{ return __cuemu_bfloat16_bits(__cuemu_fp_from(__cuemu_bf16, a, __CUEMU_RN)); }
static inline __nv_bfloat16 __float2bfloat16_rz(const float a)
{ return __cuemu_bfloat16_bits(__cuemu_fp_from(__cuemu_bf16, a, __CUEMU_RZ)); }
static inline __nv_bfloat16 __float2bfloat16_rd(const float a)
{ return __cuemu_bfloat16_bits(__cuemu_fp_from(__cuemu_bf16, a, __CUEMU_RD)); }
static inline __nv_bfloat16 __float2bfloat16_ru(const float a)
{ return __cuemu_bfloat16_bits(__cuemu_fp_from(__cuemu_bf16, a, __CUEMU_RU)); }
static inline __nv_bfloat16 __float2bfloat16(const float a) { return __float2bfloat16_rn(a); }
static inline __nv_bfloat16 __double2bfloat16(const double a)
{ return __cuemu_bfloat16_bits(__cuemu_fp_from(__cuemu_bf16, a, __CUEMU_RN)); }

/* Exact: a bfloat16 is the high half of a float. */
static inline float __bfloat162float(const __nv_bfloat16 a)
{
    return __cuemu_bits_to_float((unsigned int)static_cast<__nv_bfloat16_raw>(a).x << 16);
}

static inline unsigned short __bfloat16_as_ushort(const __nv_bfloat16 h)
{ return static_cast<__nv_bfloat16_raw>(h).x; }
static inline short __bfloat16_as_short(const __nv_bfloat16 h)
{ return (short)static_cast<__nv_bfloat16_raw>(h).x; }
static inline __nv_bfloat16 __ushort_as_bfloat16(const unsigned short i)
{ return __cuemu_bfloat16_bits(i); }
static inline __nv_bfloat16 __short_as_bfloat16(const short i)
{ return __cuemu_bfloat16_bits((unsigned short)i); }

/* Integers to bfloat16, to nearest even (the toolkit's host forms). */
static inline __nv_bfloat16 __short2bfloat16_rn(const short i)
{ return __cuemu_bfloat16_bits(__cuemu_fp_from_ll(__cuemu_bf16, i, __CUEMU_RN)); }
static inline __nv_bfloat16 __int2bfloat16_rn(const int i)
{ return __cuemu_bfloat16_bits(__cuemu_fp_from_ll(__cuemu_bf16, i, __CUEMU_RN)); }
static inline __nv_bfloat16 __ll2bfloat16_rn(const long long i)
{ return __cuemu_bfloat16_bits(__cuemu_fp_from_ll(__cuemu_bf16, i, __CUEMU_RN)); }
static inline __nv_bfloat16 __ushort2bfloat16_rn(const unsigned short i)
{ return __cuemu_bfloat16_bits(__cuemu_fp_from_ull(__cuemu_bf16, i, __CUEMU_RN)); }
static inline __nv_bfloat16 __uint2bfloat16_rn(const unsigned int i)
{ return __cuemu_bfloat16_bits(__cuemu_fp_from_ull(__cuemu_bf16, i, __CUEMU_RN)); }
static inline __nv_bfloat16 __ull2bfloat16_rn(const unsigned long long i)
{ return __cuemu_bfloat16_bits(__cuemu_fp_from_ull(__cuemu_bf16, i, __CUEMU_RN)); }

/* bfloat16 to integers, towards zero, saturating; NaN is 0. */
static inline signed char __bfloat162char_rz(const __nv_bfloat16 h)
{ return (signed char)__cuemu_fp_to_int(__bfloat162float(h), __CUEMU_SCHAR); }
static inline unsigned char __bfloat162uchar_rz(const __nv_bfloat16 h)
{ return (unsigned char)__cuemu_fp_to_uint(__bfloat162float(h), __CUEMU_UCHAR); }
static inline short __bfloat162short_rz(const __nv_bfloat16 h)
{ return (short)__cuemu_fp_to_int(__bfloat162float(h), __CUEMU_SHORT); }
static inline unsigned short __bfloat162ushort_rz(const __nv_bfloat16 h)
{ return (unsigned short)__cuemu_fp_to_uint(__bfloat162float(h), __CUEMU_USHORT); }
static inline int __bfloat162int_rz(const __nv_bfloat16 h)
{ return (int)__cuemu_fp_to_int(__bfloat162float(h), __CUEMU_INT); }
static inline unsigned int __bfloat162uint_rz(const __nv_bfloat16 h)
{ return (unsigned int)__cuemu_fp_to_uint(__bfloat162float(h), __CUEMU_UINT); }
static inline long long __bfloat162ll_rz(const __nv_bfloat16 h)
{ return __cuemu_fp_to_int(__bfloat162float(h), __CUEMU_LL); }
static inline unsigned long long __bfloat162ull_rz(const __nv_bfloat16 h)
{ return __cuemu_fp_to_uint(__bfloat162float(h), __CUEMU_ULL); }

/* Pairs. */
static inline __nv_bfloat162 __halves2bfloat162(const __nv_bfloat16 a, const __nv_bfloat16 b)
{ return __nv_bfloat162(a, b); }
static inline __nv_bfloat162 __bfloat162bfloat162(const __nv_bfloat16 a) { return __nv_bfloat162(a, a); }
static inline __nv_bfloat162 __float2bfloat162_rn(const float a)
{ return __bfloat162bfloat162(__float2bfloat16_rn(a)); }
static inline __nv_bfloat162 __floats2bfloat162_rn(const float a, const float b)
{ return __nv_bfloat162(__float2bfloat16_rn(a), __float2bfloat16_rn(b)); }
static inline __nv_bfloat162 __float22bfloat162_rn(const float2 a)
{ return __floats2bfloat162_rn(a.x, a.y); }
static inline float2 __bfloat1622float2(const __nv_bfloat162 a)
{
    float2 f;
    f.x = __bfloat162float(a.x);
    f.y = __bfloat162float(a.y);
    return f;
}
static inline __nv_bfloat16 __low2bfloat16(const __nv_bfloat162 a) { return a.x; }
static inline __nv_bfloat16 __high2bfloat16(const __nv_bfloat162 a) { return a.y; }
static inline float __low2float(const __nv_bfloat162 a) { return __bfloat162float(a.x); }
static inline float __high2float(const __nv_bfloat162 a) { return __bfloat162float(a.y); }
static inline __nv_bfloat162 __low2bfloat162(const __nv_bfloat162 a) { return __nv_bfloat162(a.x, a.x); }
static inline __nv_bfloat162 __high2bfloat162(const __nv_bfloat162 a) { return __nv_bfloat162(a.y, a.y); }
static inline __nv_bfloat162 __lows2bfloat162(const __nv_bfloat162 a, const __nv_bfloat162 b)
{ return __nv_bfloat162(a.x, b.x); }
static inline __nv_bfloat162 __highs2bfloat162(const __nv_bfloat162 a, const __nv_bfloat162 b)
{ return __nv_bfloat162(a.y, b.y); }
static inline __nv_bfloat162 __lowhigh2highlow(const __nv_bfloat162 a) { return __nv_bfloat162(a.y, a.x); }

/* ------------------------------------------- arithmetic and comparisons */

/* In float, rounded once to nearest even, as for halves. */
static inline __nv_bfloat16 __hadd(const __nv_bfloat16 a, const __nv_bfloat16 b)
{ return __float2bfloat16(__bfloat162float(a) + __bfloat162float(b)); }
static inline __nv_bfloat16 __hsub(const __nv_bfloat16 a, const __nv_bfloat16 b)
{ return __float2bfloat16(__bfloat162float(a) - __bfloat162float(b)); }
static inline __nv_bfloat16 __hmul(const __nv_bfloat16 a, const __nv_bfloat16 b)
{ return __float2bfloat16(__bfloat162float(a) * __bfloat162float(b)); }
static inline __nv_bfloat16 __hdiv(const __nv_bfloat16 a, const __nv_bfloat16 b)
{ return __float2bfloat16(__bfloat162float(a) / __bfloat162float(b)); }
static inline __nv_bfloat16 __hneg(const __nv_bfloat16 a)
{ return __float2bfloat16(-__bfloat162float(a)); }
static inline bool __hisnan(const __nv_bfloat16 a) { return (__bfloat16_as_ushort(a) & 0x7fffu) > 0x7f80u; }
static inline int __hisinf(const __nv_bfloat16 a)
{
    const unsigned short b = __bfloat16_as_ushort(a);
    return b == 0x7f80u ? 1 : b == 0xff80u ? -1 : 0;
}
/* A NaN comes back as 0x7fff, as from the host's float path. */
static inline __nv_bfloat16 __habs(const __nv_bfloat16 a)
{ return __cuemu_bfloat16_bits(__hisnan(a) ? 0x7fffu : (unsigned short)(__bfloat16_as_ushort(a) & 0x7fffu)); }
static inline bool __heq(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __bfloat162float(a) == __bfloat162float(b); }
static inline bool __hne(const __nv_bfloat16 a, const __nv_bfloat16 b)
{ return !__hisnan(a) && !__hisnan(b) && __bfloat162float(a) != __bfloat162float(b); }
static inline bool __hneu(const __nv_bfloat16 a, const __nv_bfloat16 b)
{ return __bfloat162float(a) != __bfloat162float(b); }
static inline bool __hlt(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __bfloat162float(a) < __bfloat162float(b); }
static inline bool __hle(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __bfloat162float(a) <= __bfloat162float(b); }
static inline bool __hgt(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __bfloat162float(a) > __bfloat162float(b); }
static inline bool __hge(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __bfloat162float(a) >= __bfloat162float(b); }

#if !defined(__CUDA_NO_BFLOAT16_OPERATORS__)
static inline __nv_bfloat16 operator+(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hadd(a, b); }
static inline __nv_bfloat16 operator-(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hsub(a, b); }
static inline __nv_bfloat16 operator*(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hmul(a, b); }
static inline __nv_bfloat16 operator/(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hdiv(a, b); }
static inline __nv_bfloat16 &operator+=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { return a = __hadd(a, b); }
static inline __nv_bfloat16 &operator-=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { return a = __hsub(a, b); }
static inline __nv_bfloat16 &operator*=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { return a = __hmul(a, b); }
static inline __nv_bfloat16 &operator/=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { return a = __hdiv(a, b); }
static inline __nv_bfloat16 &operator++(__nv_bfloat16 &h) { return h = __hadd(h, __ushort_as_bfloat16(0x3f80u)); }
static inline __nv_bfloat16 &operator--(__nv_bfloat16 &h) { return h = __hsub(h, __ushort_as_bfloat16(0x3f80u)); }
static inline __nv_bfloat16 operator++(__nv_bfloat16 &h, const int) { __nv_bfloat16 o = h; ++h; return o; }
static inline __nv_bfloat16 operator--(__nv_bfloat16 &h, const int) { __nv_bfloat16 o = h; --h; return o; }
static inline __nv_bfloat16 operator+(const __nv_bfloat16 &h) { return h; }
static inline __nv_bfloat16 operator-(const __nv_bfloat16 &h) { return __hneg(h); }
static inline bool operator==(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __heq(a, b); }
static inline bool operator!=(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hneu(a, b); }
static inline bool operator>(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hgt(a, b); }
static inline bool operator<(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hlt(a, b); }
static inline bool operator>=(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hge(a, b); }
static inline bool operator<=(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hle(a, b); }

#endif /* !__CUDA_NO_BFLOAT16_OPERATORS__ */

#if !defined(__CUDA_NO_BFLOAT162_OPERATORS__)
/* Pairs lane by lane; a comparison holds when it holds in both lanes. */
static inline __nv_bfloat162 operator+(const __nv_bfloat162 &a, const __nv_bfloat162 &b)
{ return __nv_bfloat162(__hadd(a.x, b.x), __hadd(a.y, b.y)); }
static inline __nv_bfloat162 operator-(const __nv_bfloat162 &a, const __nv_bfloat162 &b)
{ return __nv_bfloat162(__hsub(a.x, b.x), __hsub(a.y, b.y)); }
static inline __nv_bfloat162 operator*(const __nv_bfloat162 &a, const __nv_bfloat162 &b)
{ return __nv_bfloat162(__hmul(a.x, b.x), __hmul(a.y, b.y)); }
static inline __nv_bfloat162 operator/(const __nv_bfloat162 &a, const __nv_bfloat162 &b)
{ return __nv_bfloat162(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); }
static inline __nv_bfloat162 &operator+=(__nv_bfloat162 &a, const __nv_bfloat162 &b) { return a = a + b; }
static inline __nv_bfloat162 &operator-=(__nv_bfloat162 &a, const __nv_bfloat162 &b) { return a = a - b; }
static inline __nv_bfloat162 &operator*=(__nv_bfloat162 &a, const __nv_bfloat162 &b) { return a = a * b; }
static inline __nv_bfloat162 &operator/=(__nv_bfloat162 &a, const __nv_bfloat162 &b) { return a = a / b; }
static inline __nv_bfloat162 &operator++(__nv_bfloat162 &h)
{ return h = h + __nv_bfloat162(__ushort_as_bfloat16(0x3f80u), __ushort_as_bfloat16(0x3f80u)); }
static inline __nv_bfloat162 &operator--(__nv_bfloat162 &h)
{ return h = h - __nv_bfloat162(__ushort_as_bfloat16(0x3f80u), __ushort_as_bfloat16(0x3f80u)); }
static inline __nv_bfloat162 operator++(__nv_bfloat162 &h, const int) { __nv_bfloat162 o = h; ++h; return o; }
static inline __nv_bfloat162 operator--(__nv_bfloat162 &h, const int) { __nv_bfloat162 o = h; --h; return o; }
static inline __nv_bfloat162 operator+(const __nv_bfloat162 &h) { return h; }
static inline __nv_bfloat162 operator-(const __nv_bfloat162 &h) { return __nv_bfloat162(__hneg(h.x), __hneg(h.y)); }
static inline bool operator==(const __nv_bfloat162 &a, const __nv_bfloat162 &b)
{ return __heq(a.x, b.x) && __heq(a.y, b.y); }
static inline bool operator!=(const __nv_bfloat162 &a, const __nv_bfloat162 &b)
{ return __hneu(a.x, b.x) && __hneu(a.y, b.y); }
static inline bool operator>(const __nv_bfloat162 &a, const __nv_bfloat162 &b)
{ return __hgt(a.x, b.x) && __hgt(a.y, b.y); }
static inline bool operator<(const __nv_bfloat162 &a, const __nv_bfloat162 &b)
{ return __hlt(a.x, b.x) && __hlt(a.y, b.y); }
static inline bool operator>=(const __nv_bfloat162 &a, const __nv_bfloat162 &b)
{ return __hge(a.x, b.x) && __hge(a.y, b.y); }
static inline bool operator<=(const __nv_bfloat162 &a, const __nv_bfloat162 &b)
{ return __hle(a.x, b.x) && __hle(a.y, b.y); }
#endif /* !__CUDA_NO_BFLOAT162_OPERATORS__ */

#endif /* __cplusplus */
#endif /* !__CUDA_BF16_H__ */
