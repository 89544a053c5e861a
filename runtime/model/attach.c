/*
 * attach.c - the stream attachment of managed allocations
 * (cuStreamAttachMemAsync, and the flags of cuMemAllocManaged): which
 * allocation may be attached, and the attachment each one has.
 *
 * On every device of the emulated machine concurrent managed access is 1,
 * as on the H200, so an attachment restricts no access: the real driver
 * then keeps it as a hint to the migration engine. It is kept here, and
 * shown in /cu, so that a program's attachments can be seen and checked.
 * The attachment is recorded when the call is made, not when the stream
 * reaches it, as the last prefetch location is.
 *
 * Locking: mg_attach takes the process lock (cuemu_lock) for the lookup
 * and the write; readers (outward) hold it too.
 */
#include "model/managed.h"

const char *mg_attach_name(unsigned flags)
{
	switch (flags) {
	case CU_MEM_ATTACH_GLOBAL:
		return "global";
	case CU_MEM_ATTACH_HOST:
		return "host";
	case CU_MEM_ATTACH_SINGLE:
		return "single";
	default:
		return "unknown";
	}
}

/* The real driver takes only the base of the allocation with a length of
 * 0 or the whole size (shared/reference: attach.length_part, interior). */
static CUresult attach_check(struct cuemu_alloc *a, CUdeviceptr p,
			     size_t length)
{
	if (!a || a->kind != CUEMU_KIND_MANAGED || !a->priv)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%#llx is not managed memory",
				  (unsigned long long)p);
	if (((struct mstate *)a->priv)->pool)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "a managed pool's block is not attached "
				  "to streams");
	if (p != a->base)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%#llx is inside an allocation: attach its "
				  "base", (unsigned long long)p);
	if (length != 0 && length != a->size)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "length %zu: use 0 or the allocation's size "
				  "%zu", length, a->size);
	return CUDA_SUCCESS;
}

CUresult mg_attach(CUstream s, CUdeviceptr p, size_t length, unsigned flags)
{
	struct cuemu_alloc *a;
	struct mstate *st;
	CUresult r;

	cuemu_lock();
	a = cuemu_va_find((uintptr_t)p);
	if ((r = attach_check(a, p, length)) == CUDA_SUCCESS) {
		st = a->priv;
		st->attach = flags;
		st->attach_stream = flags == CU_MEM_ATTACH_SINGLE ?
				    cuemu_stream_pos(s).stream : 0;
		cuemu_obj_changed(a->id); /* what /cu publishes of it */
	}
	cuemu_unlock();
	return r;
}
