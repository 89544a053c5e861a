/*
 * shape.h - what the runtime's 2D/3D copies (copy2d.c), its CUDA arrays
 * (array.c) and its texture and surface objects (texture.c) share: the
 * memory types a cudaMemcpyKind names, a pointer end of a driver copy, an
 * array's element size, and the one mapping between channel descriptors
 * and the driver's formats.
 *
 * Locking: none; the driver API takes what it needs.
 */
#ifndef CUEMU_CUDART_SHAPE_H
#define CUEMU_CUDART_SHAPE_H

#include <stdbool.h>
#include <stddef.h>

#include "cuda.h"
#include "cuda_runtime_api.h"

/* The memory types of the ends kind names; INVALID_VALUE for no kind. */
CUresult cuemu_rt_kind_types(enum cudaMemcpyKind kind, CUmemorytype *src,
                             CUmemorytype *dst);
/* Sets c's source (or destination) to p as memory of type. */
void cuemu_rt_ptr_end(CUmemorytype type, const void *p, bool dst,
                      CUDA_MEMCPY3D *c);
/* The driver's copy of a runtime 3D copy (cudaMemcpy3D's and a graph's
 * copy node's), as cudaMemcpy3D checks it. */
cudaError_t cuemu_rt_copy3d_of(const struct cudaMemcpy3DParms *p,
                               CUDA_MEMCPY3D *c);
/* The bytes of an element of a (a block, for a block-compressed one). */
cudaError_t cuemu_rt_array_elem(cudaArray_const_t a, size_t *elem);
/* The driver's format and channel count of channel descriptor d;
 * cudaErrorInvalidChannelDescriptor for one no format has (array.c). */
cudaError_t cuemu_rt_to_format(const struct cudaChannelFormatDesc *d,
                               CUarray_format *f, unsigned *channels);
/* The channel descriptor of format f with n channels (kind None for a
 * format the runtime has no descriptor of). */
void cuemu_rt_channel_desc(CUarray_format f, unsigned n,
                           struct cudaChannelFormatDesc *d);

#endif
