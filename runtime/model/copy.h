/*
 * copy.h - copies and memsets as operations of a stream (copy.c).
 *
 * Locking: call with no lock held; each takes cuemu_lock() to resolve the
 * ends and touches user memory without it.
 */
#ifndef CUEMU_COPY_H
#define CUEMU_COPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuda.h"

/* Copies n (> 0) bytes from src to dst in the order of stream s (a
 * resolved handle). dst_dev, src_dev: the API names that end a device
 * pointer, so it must be memory a device can reach. sync: return once the
 * copy ran; a copy with a pageable end waits all the same. */
CUresult cuemu_copy(CUstream s, uintptr_t dst, uintptr_t src, size_t n,
                    bool dst_dev, bool src_dev, bool sync);

/* Writes bytes / elem elements of elem (1, 2 or 4) bytes of value at dst
 * (aligned to elem, bytes > 0) in the order of stream s, as a kernel of
 * its GPU would. sync as for cuemu_copy. */
CUresult cuemu_memset(CUstream s, uintptr_t dst, uint32_t value,
                      unsigned elem, size_t bytes, bool sync);

#endif
