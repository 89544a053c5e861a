/*
 * host_defines.h - the qualifier and attribute macros that CUDA headers and
 * host code written for CUDA use: __host__, __device__, __align__ and the
 * calling convention CUDARTAPI. Everything libcuemu serves runs on the
 * host, so the execution-space qualifiers expand to nothing and code marked
 * __host__ __device__ compiles as plain host code, as it does in a host
 * compiler's pass over the toolkit's headers.
 */
#if !defined(__HOST_DEFINES_H__)
#define __HOST_DEFINES_H__

#if defined(__GNUC__) || defined(__clang__)
#define __forceinline__     __inline__ __attribute__((always_inline))
#define __align__(n)        __attribute__((aligned(n)))
#elif defined(_MSC_VER)
#define __forceinline__     __forceinline
#define __align__(n)        __declspec(align(n))
#endif

/* The alignment the toolkit gives its builtin vector types. */
#define __builtin_align__(n) __align__(n)

/* Execution spaces and builtin markers: host code only here. */
#ifndef __host__
#define __host__
#endif
#ifndef __device__
#define __device__
#endif
#ifndef __global__
#define __global__
#endif
#ifndef __shared__
#define __shared__
#endif
#ifndef __constant__
#define __constant__
#endif
#ifndef __managed__
#define __managed__
#endif
#define __device_builtin__
#define __device_builtin_texture_type__
#define __device_builtin_surface_type__
#define __cudart_builtin__

/* Calling convention of the runtime's entry points. */
#ifdef _WIN32
#define CUDARTAPI __stdcall
#else
#define CUDARTAPI
#endif

#endif /* !__HOST_DEFINES_H__ */
