/*
 * userobj.c - user objects: cuUserObjectCreate, Retain and Release, a
 * program's resource with a count of references and a destructor called
 * when the count reaches 0, and the holds graphs take of them
 * (graphnode.c: a graph's references go with it, a clone's and an
 * executable graph's copy retain their own). The destructor runs in the
 * thread that lets the last reference go, which must call no CUDA API
 * from it, as CU_USER_OBJECT_NO_DESTRUCTOR_SYNC, the one flag taken,
 * says. A leaf of the driver layer.
 *
 * State: none but the objects, each its count updated atomically; a
 * handle is checked by a magic word, the program's to keep alive while
 * it holds references, as CUDA asks.
 */
#include "driver/graph.h"

#include <stdlib.h>

#define UOBJ_MAGIC 0x756f626au /* "uobj" */

struct CUuserObject_st {
	uint32_t magic;
	void *ptr;
	CUhostFn destroy;
	unsigned refs;          /* atomic */
};

CUresult cuemu_uobj_check(CUuserObject o)
{
	if (!o || o->magic != UOBJ_MAGIC)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s",
				  o ? "no such user object" :
				  "the user object is NULL");
	return CUDA_SUCCESS;
}

void cuemu_uobj_ref(CUuserObject o, unsigned count)
{
	__atomic_add_fetch(&o->refs, count, __ATOMIC_ACQ_REL);
}

void cuemu_uobj_unref(CUuserObject o, unsigned count)
{
	if (__atomic_sub_fetch(&o->refs, count, __ATOMIC_ACQ_REL))
		return;
	o->magic = 0;
	o->destroy(o->ptr);
	free(o);
}

CUresult cuUserObjectCreate(CUuserObject *object_out, void *ptr,
			    CUhostFn destroy, unsigned int initialRefcount,
			    unsigned int flags)
{
	CUuserObject o;
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)) != CUDA_SUCCESS)
		return r;
	if (!object_out || !destroy || !initialRefcount ||
	    flags != CU_USER_OBJECT_NO_DESTRUCTOR_SYNC)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s",
				  !object_out ? "object_out is NULL" :
				  !destroy ? "no destructor" :
				  !initialRefcount ? "a count of 0" :
				  "flags must be NO_DESTRUCTOR_SYNC");
	if (!(o = calloc(1, sizeof *o)))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "user object");
	*o = (struct CUuserObject_st){ .magic = UOBJ_MAGIC, .ptr = ptr,
				       .destroy = destroy,
				       .refs = initialRefcount };
	*object_out = o;
	return CUDA_SUCCESS;
}

CUresult cuUserObjectRetain(CUuserObject object, unsigned int count)
{
	CUresult r;

	if ((r = cuemu_uobj_check(object)) != CUDA_SUCCESS)
		return r;
	if (!count)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "a count of 0");
	cuemu_uobj_ref(object, count);
	return CUDA_SUCCESS;
}

CUresult cuUserObjectRelease(CUuserObject object, unsigned int count)
{
	CUresult r;

	if ((r = cuemu_uobj_check(object)) != CUDA_SUCCESS)
		return r;
	if (!count || count > __atomic_load_n(&object->refs, __ATOMIC_ACQUIRE))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s",
				  !count ? "a count of 0" :
				  "more references than the object has");
	cuemu_uobj_unref(object, count);
	return CUDA_SUCCESS;
}
