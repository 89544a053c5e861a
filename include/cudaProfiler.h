/*
 * cudaProfiler.h - the driver's profiler control: cuProfilerStart and
 * cuProfilerStop for the current context. No profiler attaches to the
 * emulation; the calls answer as the real ones do when none is attached:
 * success with a current context, CUDA_ERROR_INVALID_CONTEXT without one.
 * cuProfilerInitialize left CUDA 12's API and is not declared.
 */
#ifndef cuda_profiler_H
#define cuda_profiler_H

#include <cuda.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Output formats of the removed cuProfilerInitialize. */
typedef enum CUoutput_mode_enum {
    CU_OUT_KEY_VALUE_PAIR = 0x00,
    CU_OUT_CSV            = 0x01
} CUoutput_mode;

CUresult CUDAAPI cuProfilerStart(void);
CUresult CUDAAPI cuProfilerStop(void);

#ifdef __cplusplus
}
#endif

#endif /* cuda_profiler_H */
