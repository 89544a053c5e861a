/*
 * device_types.h - the rounding modes of device arithmetic, included by
 * builtin_types.h as in the CUDA toolkit.
 */
#if !defined(__DEVICE_TYPES_H__)
#define __DEVICE_TYPES_H__

#include "host_defines.h"

enum cudaRoundMode {
    cudaRoundNearest,
    cudaRoundZero,
    cudaRoundPosInf,
    cudaRoundMinInf
};

#endif /* !__DEVICE_TYPES_H__ */
