/*
 * batch3d.c - cuMemcpy3DBatchAsync: a batch of 3D copies on one stream,
 * in both its forms (CUDA 12.8's, which answers the index of a refused
 * copy, and CUDA 13's), with their _ptsz forms.
 *
 * What the real H200 answers (probes/results/batch3d.txt): the legacy
 * stream is refused (the per-thread one is taken) before anything else is
 * looked at, the failing index included; then the index is set to
 * SIZE_MAX, and no copies, a NULL list or any batch flag are refused; then
 * each copy: a zero extent, a source access order other than stream,
 * during the call or any, a copy flag other than the overlap hint, an
 * operand neither pointer nor array, a row length or layer height below
 * the extent (0 means as tight as the extent), arrays of different element
 * sizes, and then its ends, as a 3D copy's. Extents, offsets and row
 * lengths count elements: an array's, or bytes between two pointers.
 * Every copy is checked before any is queued, so a refused batch copies
 * nothing, and the index says which copy was refused. Pageable memory is
 * taken at either end whatever the access order. The real driver faults
 * on a NULL array operand; here it is refused as an unknown array.
 *
 * Locking: none taken here; the model resolves every end under
 * cuemu_lock() before it queues the first copy.
 */
#define CUEMU_PER_THREAD_ENTRY_POINTS 1
#define CUEMU_SUPERSEDED_ENTRY_POINTS 1
#include "model/internal.h"
#include "model/array.h"
#include "model/copy.h"
#include "driver/driver.h"

/* CUDA 12.8's form is exported under the plain name. */
#undef cuMemcpy3DBatchAsync

#include <stdint.h>
#include <stdlib.h>

/* One operand: the model's end, its element size from an array (0 for a
 * pointer). */
static CUresult operand(const CUmemcpy3DOperand *o, struct cuemu_shape_end *e,
			size_t *elem)
{
	*e = (struct cuemu_shape_end){ 0 };
	*elem = 0;
	if (o->type == CU_MEMCPY_OPERAND_TYPE_POINTER)
		return CUDA_SUCCESS;
	if (o->type != CU_MEMCPY_OPERAND_TYPE_ARRAY)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "operand type %d "
				  "is neither pointer nor array", (int)o->type);
	if (!(*elem = cuemu_array_elem(o->op.array.array)))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%p is no array",
				  (void *)o->op.array.array);
	e->is_array = true;
	e->array = o->op.array.array;
	return CUDA_SUCCESS;
}

/* Fills in a pointer operand's pitch and height, or an array's position,
 * in bytes of elements of elem. */
static CUresult place(const CUmemcpy3DOperand *o, const CUextent3D *x,
		      size_t elem, struct cuemu_shape_end *e)
{
	size_t row = o->op.ptr.rowLength, layer = o->op.ptr.layerHeight;

	if (e->is_array) {
		if (__builtin_mul_overflow(o->op.array.offset.x, elem, &e->x))
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "offset %zu overflows",
					  o->op.array.offset.x);
		e->y = o->op.array.offset.y;
		e->z = o->op.array.offset.z;
		return CUDA_SUCCESS;
	}
	if ((row && row < x->width) || (layer && layer < x->height))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "rows of %zu "
				  "and layers of %zu do not hold %zu x %zu",
				  row, layer, x->width, x->height);
	e->p = o->op.ptr.ptr;
	e->height = layer ? layer : x->height;
	if (__builtin_mul_overflow(row ? row : x->width, elem, &e->pitch))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "row length %zu overflows", row);
	return CUDA_SUCCESS;
}

/* One copy of the batch checked into c. */
static CUresult check_op(const CUDA_MEMCPY3D_BATCH_OP *op,
			 struct cuemu_shape_copy *c)
{
	const CUextent3D *x = &op->extent;
	size_t se, de, elem;
	CUresult r;

	if (!x->width || !x->height || !x->depth)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "an extent of "
				  "%zu x %zu x %zu", x->width, x->height,
				  x->depth);
	if (op->srcAccessOrder < CU_MEMCPY_SRC_ACCESS_ORDER_STREAM ||
	    op->srcAccessOrder > CU_MEMCPY_SRC_ACCESS_ORDER_ANY)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "source access "
				  "order %d", (int)op->srcAccessOrder);
	if (op->flags & ~(unsigned)CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "copy flags %#x",
				  op->flags);
	if ((r = operand(&op->src, &c->src, &se)) ||
	    (r = operand(&op->dst, &c->dst, &de)))
		return r;
	if (se && de && se != de)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "arrays of "
				  "elements of %zu and %zu bytes", se, de);
	elem = se ? se : de ? de : 1;
	if ((r = place(&op->src, x, elem, &c->src)) ||
	    (r = place(&op->dst, x, elem, &c->dst)))
		return r;
	if (__builtin_mul_overflow(x->width, elem, &c->width))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "a width of %zu "
				  "elements overflows", x->width);
	c->height = x->height;
	c->depth = x->depth;
	return CUDA_SUCCESS;
}

static CUresult batch(size_t n, CUDA_MEMCPY3D_BATCH_OP *ops, size_t *failIdx,
		      unsigned long long flags, CUstream h)
{
	struct cuemu_shape_copy *c;
	size_t failed = SIZE_MAX;
	CUstream s;
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)))
		return r;
	if (h == NULL || h == CU_STREAM_LEGACY)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "a batch does not "
				  "run on the legacy stream");
	if ((r = cuemu_stream_get(h, &s)))
		return r;
	if (failIdx)
		*failIdx = SIZE_MAX;
	if (!n || !ops)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "no copies");
	if (flags)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "batch flags %#llx",
				  flags);
	if (!(c = calloc(n, sizeof *c)))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "out of memory");
	for (size_t i = 0; i < n && !r; i++)
		if ((r = check_op(&ops[i], &c[i])))
			failed = i;
	if (!r)
		r = cuemu_copy_shaped_batch(s, c, n, &failed);
	free(c);
	if (r && failIdx)
		*failIdx = failed;
	return r;
}

CUresult cuMemcpy3DBatchAsync(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList,
			      size_t *failIdx, unsigned long long flags,
			      CUstream hStream)
{
	return batch(numOps, opList, failIdx, flags, hStream);
}

CUresult cuMemcpy3DBatchAsync_v2(size_t numOps, CUDA_MEMCPY3D_BATCH_OP *opList,
				 unsigned long long flags, CUstream hStream)
{
	return batch(numOps, opList, NULL, flags, hStream);
}

/* The _ptsz forms: a null stream is the thread's own, which a batch
 * takes. */
CUresult cuMemcpy3DBatchAsync_ptsz(size_t numOps,
				   CUDA_MEMCPY3D_BATCH_OP *opList,
				   size_t *failIdx, unsigned long long flags,
				   CUstream hStream)
{
	return batch(numOps, opList, failIdx, flags,
		     cuemu_ptsz(hStream));
}

CUresult cuMemcpy3DBatchAsync_v2_ptsz(size_t numOps,
				      CUDA_MEMCPY3D_BATCH_OP *opList,
				      unsigned long long flags,
				      CUstream hStream)
{
	return batch(numOps, opList, NULL, flags,
		     cuemu_ptsz(hStream));
}
