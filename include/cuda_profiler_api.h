/*
 * cuda_profiler_api.h - the runtime's profiler control: cudaProfilerStart
 * and cudaProfilerStop. No profiler attaches to the emulation; the calls
 * answer as the real ones do when none is attached (success once the
 * runtime has a device), so code that brackets a region keeps working.
 */
#if !defined(__CUDA_PROFILER_API_H__)
#define __CUDA_PROFILER_API_H__

#include "driver_types.h"

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t CUDARTAPI cudaProfilerStart(void);
cudaError_t CUDARTAPI cudaProfilerStop(void);

#ifdef __cplusplus
}
#endif

#endif /* !__CUDA_PROFILER_API_H__ */
