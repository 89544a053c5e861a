/*
 * cuda_runtime.h - the libcuemu runtime API as a program includes it: the
 * declarations of cuda_runtime_api.h plus the small conveniences below.
 * Source-compatible with the CUDA 13 API; valid C11 as well as C++.
 */
#ifndef CUEMU_CUDA_RUNTIME_H
#define CUEMU_CUDA_RUNTIME_H

#include "cuda_runtime_api.h"

/*
 * Host code written for CUDA sometimes marks functions __host__. Every
 * function here runs on the host, so the qualifier expands to nothing.
 */
#ifndef __host__
#define __host__
#endif

#endif /* CUEMU_CUDA_RUNTIME_H */
