/*
 * copy.h - copies and memsets, flat or shaped (2D, 3D, with arrays at
 * either end), as operations of a stream (copy.c).
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

/* on: the calling thread's copies and memsets cost it no call of their
 * own until off (a graph's launch replays its nodes through the driver's
 * entries, and pays its call once: driver/graphexec.c). */
void cuemu_copy_calls_unpriced(bool on);

/* One end of a 2D or 3D copy: an array, or memory from a pointer. */
struct cuemu_shape_end {
	bool is_array;
	CUarray array;     /* is_array: the array */
	uintptr_t p;       /* else: the memory's first byte (not 0) */
	size_t pitch;      /* bytes from one row to the next (pointer) */
	size_t height;     /* rows from one slice to the next (pointer) */
	size_t x, y, z;    /* where the box starts: x in bytes */
	bool dev_side;     /* the API names the pointer device memory */
};

/* Copies a box of width bytes x height rows x depth slices (each > 0)
 * from src to dst in the order of stream s, row by row: the bytes between
 * rows are never touched. Every byte of a pointer end's box lies in one
 * allocation; an array end's box lies inside the array. sync as for
 * cuemu_copy. */
CUresult cuemu_copy_shaped(CUstream s, const struct cuemu_shape_end *dst,
                           const struct cuemu_shape_end *src, size_t width,
                           size_t height, size_t depth, bool sync);

/* One copy of a batch. */
struct cuemu_shape_copy {
	struct cuemu_shape_end dst, src;
	size_t width, height, depth;
};

/* Checks every one of n shaped copies, then queues them all on s in
 * order; when one is refused, *failed says which and none is queued. */
CUresult cuemu_copy_shaped_batch(CUstream s, const struct cuemu_shape_copy *c,
                                 size_t n, size_t *failed);

/* Writes height rows of width bytes, pitch apart, from dst, with elements
 * of elem bytes of value (dst, pitch and width checked by the caller). */
CUresult cuemu_memset_shaped(CUstream s, uintptr_t dst, size_t pitch,
                             uint32_t value, unsigned elem, size_t width,
                             size_t height, bool sync);

#endif
