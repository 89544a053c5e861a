/*
 * array.h - CUDA arrays (array.c): their formats and shapes, the device
 * memory behind them, and the view a copy takes of one.
 *
 * Locking: the arrays of the process are guarded by cuemu_lock(); each
 * function says whether it expects the lock held or takes it itself.
 */
#ifndef CUEMU_ARRAY_H
#define CUEMU_ARRAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sys/tree.h> /* libbsd's red-black trees */

#include "cuda.h"

struct cuemu_array {
	RB_ENTRY(cuemu_array) node;  /* by id */
	uint64_t id;                 /* machine-unique; also the handle */
	int device;
	CUcontext ctx;
	CUDA_ARRAY3D_DESCRIPTOR desc;
	size_t elem;                 /* bytes of an element (a 4x4 block) */
	size_t row_bytes;            /* bytes of a row of elements (blocks) */
	size_t rows;                 /* rows of a slice */
	size_t slices;               /* slices (layers, faces, depth) */
	size_t bytes;                /* row_bytes * rows * slices */
	size_t charge;               /* device memory it takes */
	void *mem;                   /* its bytes; NULL when not backed */
	size_t span;                 /* bytes mapped at mem */
};

/* The handle of an array is its id. */
static inline CUarray cuemu_array_handle(uint64_t id)
{
	return (CUarray)(uintptr_t)id;
}

/* The word /cu shows for a format ("float", "uint8", "bc1_unorm"), or
 * NULL for a format arrays do not take. */
const char *cuemu_array_format_name(CUarray_format f);

/* d is an array dev can have: a format with its channels, an extent
 * within the device's limits for its flags. INVALID_VALUE with a message
 * otherwise. No lock needed. */
CUresult cuemu_array_check(const CUDA_ARRAY3D_DESCRIPTOR *d, int dev);
/* Makes an array of d (checked) on dev in ctx: its device memory charged
 * (none for a sparse or deferred-mapping one, which the application
 * backs), published. Takes the lock. */
CUresult cuemu_array_create(CUcontext ctx, int dev,
                            const CUDA_ARRAY3D_DESCRIPTOR *d, CUarray *out);
/* Destroys h after every stream of the process; INVALID_HANDLE for no
 * array. Takes the lock. */
CUresult cuemu_array_destroy(CUarray h);
/* The descriptor h was made with; INVALID_HANDLE for no array. Takes
 * the lock. */
CUresult cuemu_array_describe(CUarray h, CUDA_ARRAY3D_DESCRIPTOR *out);
/* What a deferred-mapping array needs of memory; INVALID_VALUE for any
 * other array. Takes the lock. */
CUresult cuemu_array_requirements(CUarray h,
                                  CUDA_ARRAY_MEMORY_REQUIREMENTS *out);
/* A sparse array's tiles; INVALID_VALUE for any other. Takes the lock. */
CUresult cuemu_array_sparse(CUarray h, CUDA_ARRAY_SPARSE_PROPERTIES *out);

/* The bytes of an element of h, or 0 for no array. Takes the lock. */
size_t cuemu_array_elem(CUarray h);
/* Lock held: the array of h or id, or NULL; the first and next by id. */
struct cuemu_array *cuemu_array_find(CUarray h);
struct cuemu_array *cuemu_array_first(void);
struct cuemu_array *cuemu_array_next(struct cuemu_array *a);
/* Destroys every array of ctx (a primary context's reset); how many. Lock
 * not held. */
size_t cuemu_ctx_free_arrays(CUcontext ctx);

#endif
