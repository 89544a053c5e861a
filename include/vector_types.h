/*
 * vector_types.h - the builtin vector types of CUDA host code (char1 to
 * double4, their unsigned and long long forms) and dim3, with the sizes and
 * alignments of CUDA 13: host structures that a program shares with device
 * code, or passes to a library, keep the toolkit's layout.
 *
 * As in CUDA 13, long4, ulong4, longlong4, ulonglong4 and double4 are
 * deprecated in favour of the explicitly aligned _16a and _32a forms.
 */
#if !defined(__VECTOR_TYPES_H__)
#define __VECTOR_TYPES_H__

#include "host_defines.h"

#if defined(__GNUC__) || defined(__clang__)
#define CUEMU_VECTOR_DEPRECATED(msg) __attribute__((deprecated(msg)))
#else
#define CUEMU_VECTOR_DEPRECATED(msg)
#endif

struct char1 {
    signed char x;
};
struct __align__(2) char2 {
    signed char x, y;
};
struct char3 {
    signed char x, y, z;
};
struct __align__(4) char4 {
    signed char x, y, z, w;
};
struct uchar1 {
    unsigned char x;
};
struct __align__(2) uchar2 {
    unsigned char x, y;
};
struct uchar3 {
    unsigned char x, y, z;
};
struct __align__(4) uchar4 {
    unsigned char x, y, z, w;
};
struct short1 {
    short x;
};
struct __align__(4) short2 {
    short x, y;
};
struct short3 {
    short x, y, z;
};
struct __align__(8) short4 {
    short x, y, z, w;
};
struct ushort1 {
    unsigned short x;
};
struct __align__(4) ushort2 {
    unsigned short x, y;
};
struct ushort3 {
    unsigned short x, y, z;
};
struct __align__(8) ushort4 {
    unsigned short x, y, z, w;
};
struct int1 {
    int x;
};
struct __align__(8) int2 {
    int x, y;
};
struct int3 {
    int x, y, z;
};
struct __align__(16) int4 {
    int x, y, z, w;
};
struct uint1 {
    unsigned int x;
};
struct __align__(8) uint2 {
    unsigned int x, y;
};
struct uint3 {
    unsigned int x, y, z;
};
struct __align__(16) uint4 {
    unsigned int x, y, z, w;
};
struct long1 {
    long int x;
};
struct __align__(2*sizeof(long int)) long2 {
    long int x, y;
};
struct long3 {
    long int x, y, z;
};
struct CUEMU_VECTOR_DEPRECATED("use long4_16a or long4_32a") __align__(16) long4 {
    long int x, y, z, w;
};
struct __align__(16) long4_16a {
    long int x, y, z, w;
};
struct __align__(32) long4_32a {
    long int x, y, z, w;
};
struct ulong1 {
    unsigned long int x;
};
struct __align__(2*sizeof(long int)) ulong2 {
    unsigned long int x, y;
};
struct ulong3 {
    unsigned long int x, y, z;
};
struct CUEMU_VECTOR_DEPRECATED("use ulong4_16a or ulong4_32a") __align__(16) ulong4 {
    unsigned long int x, y, z, w;
};
struct __align__(16) ulong4_16a {
    unsigned long int x, y, z, w;
};
struct __align__(32) ulong4_32a {
    unsigned long int x, y, z, w;
};
struct float1 {
    float x;
};
struct __align__(8) float2 {
    float x, y;
};
struct float3 {
    float x, y, z;
};
struct __align__(16) float4 {
    float x, y, z, w;
};
struct longlong1 {
    long long int x;
};
struct __align__(16) longlong2 {
    long long int x, y;
};
struct longlong3 {
    long long int x, y, z;
};
struct CUEMU_VECTOR_DEPRECATED("use longlong4_16a or longlong4_32a") __align__(16) longlong4 {
    long long int x, y, z, w;
};
struct __align__(16) longlong4_16a {
    long long int x, y, z, w;
};
struct __align__(32) longlong4_32a {
    long long int x, y, z, w;
};
struct ulonglong1 {
    unsigned long long int x;
};
struct __align__(16) ulonglong2 {
    unsigned long long int x, y;
};
struct ulonglong3 {
    unsigned long long int x, y, z;
};
struct CUEMU_VECTOR_DEPRECATED("use ulonglong4_16a or ulonglong4_32a") __align__(16) ulonglong4 {
    unsigned long long int x, y, z, w;
};
struct __align__(16) ulonglong4_16a {
    unsigned long long int x, y, z, w;
};
struct __align__(32) ulonglong4_32a {
    unsigned long long int x, y, z, w;
};
struct double1 {
    double x;
};
struct __align__(16) double2 {
    double x, y;
};
struct double3 {
    double x, y, z;
};
struct CUEMU_VECTOR_DEPRECATED("use double4_16a or double4_32a") __align__(16) double4 {
    double x, y, z, w;
};
struct __align__(16) double4_16a {
    double x, y, z, w;
};
struct __align__(32) double4_32a {
    double x, y, z, w;
};

typedef struct char1 char1;
typedef struct char2 char2;
typedef struct char3 char3;
typedef struct char4 char4;
typedef struct uchar1 uchar1;
typedef struct uchar2 uchar2;
typedef struct uchar3 uchar3;
typedef struct uchar4 uchar4;
typedef struct short1 short1;
typedef struct short2 short2;
typedef struct short3 short3;
typedef struct short4 short4;
typedef struct ushort1 ushort1;
typedef struct ushort2 ushort2;
typedef struct ushort3 ushort3;
typedef struct ushort4 ushort4;
typedef struct int1 int1;
typedef struct int2 int2;
typedef struct int3 int3;
typedef struct int4 int4;
typedef struct uint1 uint1;
typedef struct uint2 uint2;
typedef struct uint3 uint3;
typedef struct uint4 uint4;
typedef struct long1 long1;
typedef struct long2 long2;
typedef struct long3 long3;
typedef struct long4_16a long4_16a;
typedef struct long4_32a long4_32a;
typedef struct ulong1 ulong1;
typedef struct ulong2 ulong2;
typedef struct ulong3 ulong3;
typedef struct ulong4_16a ulong4_16a;
typedef struct ulong4_32a ulong4_32a;
typedef struct float1 float1;
typedef struct float2 float2;
typedef struct float3 float3;
typedef struct float4 float4;
typedef struct longlong1 longlong1;
typedef struct longlong2 longlong2;
typedef struct longlong3 longlong3;
typedef struct longlong4_16a longlong4_16a;
typedef struct longlong4_32a longlong4_32a;
typedef struct ulonglong1 ulonglong1;
typedef struct ulonglong2 ulonglong2;
typedef struct ulonglong3 ulonglong3;
typedef struct ulonglong4_16a ulonglong4_16a;
typedef struct ulonglong4_32a ulonglong4_32a;
typedef struct double1 double1;
typedef struct double2 double2;
typedef struct double3 double3;
typedef struct double4_16a double4_16a;
typedef struct double4_32a double4_32a;

/* The deprecated forms: using them warns, as with the toolkit; declaring
 * their typedefs here does not. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
typedef struct long4 long4;
typedef struct ulong4 ulong4;
typedef struct longlong4 longlong4;
typedef struct ulonglong4 ulonglong4;
typedef struct double4 double4;
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif

/* Grid and block dimensions; unset dimensions are 1. */
struct dim3 {
    unsigned int x, y, z;
#if defined(__cplusplus)
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                   unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3(void) const { return uint3{x, y, z}; }
#endif
};
typedef struct dim3 dim3;

#endif /* !__VECTOR_TYPES_H__ */
