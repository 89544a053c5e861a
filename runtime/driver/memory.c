/*
 * memory.c - the Memory Management module's allocation entries: cuMemAlloc,
 * cuMemAllocPitch, cuMemFree, cuMemAllocHost, cuMemHostAlloc,
 * cuMemFreeHost, cuMemHostGetFlags, cuMemHostGetDevicePointer,
 * cuMemHostRegister/Unregister, cuMemGetAddressRange, cuMemGetInfo and
 * cuemuSetLabel. (The /cu "allocations" class is outward/ctl_alloc.c.)
 *
 * Each entry checks its arguments in the driver's order and calls the
 * model (model/memory.c), which makes, publishes and gives back the memory
 * and says why it could not.
 *
 * Locking: the entries that only look at the address map take
 * cuemu_lock() around the model's lookup; the allocating and freeing
 * functions of the model take it themselves, since they map memory and
 * wait for streams outside it.
 */
#include "model/internal.h"
#include "driver/driver.h"
#include "driver/hookable.h"
#include "driver/graph.h"

#include <stdbool.h>

#define HOSTALLOC_FLAGS                                                       \
	(CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP |               \
	 CU_MEMHOSTALLOC_WRITECOMBINED)
#define REGISTER_FLAGS                                                        \
	(CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP |         \
	 CU_MEMHOSTREGISTER_IOMEMORY | CU_MEMHOSTREGISTER_READ_ONLY)

/* ---------------------------------------------------------------- device */

/* The real driver writes 0 to an allocation's outputs when it refuses it
 * (probes/results/ctx.txt: memalloc_size0, allocpitch_*,
 * memalloc_total_plus_1GiB): a caller that reads them then sees no
 * pointer rather than what was there. */
CUresult cuemu_zero_ptr(CUresult r, CUdeviceptr *dptr)
{
	if (r != CUDA_SUCCESS && dptr)
		*dptr = 0;
	return r;
}

CUEMU_HOOKABLE(cuMemAlloc)
CUresult CUEMU_HOOKED(cuMemAlloc)(CUdeviceptr *dptr, size_t bytesize)
{
	CUcontext ctx;
	CUresult r;
	int dev;

	if ((r = cuemu_current(&ctx, &dev)))
		return r;
	if (!dptr)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "dptr is NULL");
	if (bytesize == 0)
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE, "size is 0");
	else if (!(r = cuemu_capture_unsafe("an allocation")))
		r = cuemu_device_alloc(ctx, dev, bytesize, dptr);
	return cuemu_zero_ptr(r, dptr);
}

CUEMU_HOOKABLE(cuMemAllocPitch)
CUresult CUEMU_HOOKED(cuMemAllocPitch)(CUdeviceptr *dptr, size_t *pPitch,
			 size_t WidthInBytes, size_t Height,
			 unsigned int ElementSizeBytes)
{
	size_t pitch, total;
	CUcontext ctx;
	CUresult r;
	int dev;

	if ((r = cuemu_current(&ctx, &dev)))
		return r;
	if (ElementSizeBytes != 4 && ElementSizeBytes != 8 &&
	    ElementSizeBytes != 16)
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			       "ElementSizeBytes %u is not 4, 8 or 16",
			       ElementSizeBytes);
	else if (!dptr || !pPitch)
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			       "dptr or pPitch is NULL");
	else if (WidthInBytes == 0 || Height == 0)
		r = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			       "width and height must not be 0");
	else if (!(r = cuemu_capture_unsafe("an allocation")) &&
		 !(r = cuemu_pitch_layout(WidthInBytes, Height, &pitch,
					  &total)))
		r = cuemu_device_alloc(ctx, dev, total, dptr);
	if (pPitch)
		*pPitch = r == CUDA_SUCCESS ? pitch : 0;
	return cuemu_zero_ptr(r, dptr);
}

CUEMU_HOOKABLE(cuMemFree)
CUresult CUEMU_HOOKED(cuMemFree)(CUdeviceptr dptr)
{
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)))
		return r;
	if (dptr == 0)
		return CUDA_SUCCESS;
	if ((r = cuemu_capture_unsafe("a free")))
		return r;
	/* a graph's memory is the graph's as long as it lives */
	if (cuemu_gmem_owns(dptr))
		return CUDA_SUCCESS;
	return cuemu_device_free(dptr);
}

/* ---------------------------------------------------------------- pinned */

/* null0: a zero-byte request answers NULL (cuMemHostAlloc) or leaves *pp
 * as it was (cuMemAllocHost), as the real driver does. */
static CUresult host_alloc(void **pp, size_t size, unsigned flags, bool null0)
{
	CUcontext ctx;
	CUresult r;
	int dev;

	if ((r = cuemu_current(&ctx, &dev)))
		return r;
	if (!pp)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "pp is NULL");
	if (flags & ~HOSTALLOC_FLAGS)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "unknown flags %#x", flags & ~HOSTALLOC_FLAGS);
	if (size == 0) {
		if (null0)
			*pp = NULL;
		return CUDA_SUCCESS;
	}
	if ((r = cuemu_capture_unsafe("an allocation")))
		return r;
	return cuemu_host_alloc(ctx, dev, size, flags, pp);
}

CUresult cuMemAllocHost(void **pp, size_t bytesize)
{
	return host_alloc(pp, bytesize, 0, false);
}

CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
{
	return host_alloc(pp, bytesize, Flags, true);
}

CUEMU_HOOKABLE(cuMemFreeHost)
CUresult CUEMU_HOOKED(cuMemFreeHost)(void *p)
{
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)))
		return r;
	if (!p)
		return CUDA_SUCCESS;
	if ((r = cuemu_capture_unsafe("a free")))
		return r;
	return cuemu_host_free(p);
}

CUresult cuMemHostGetFlags(unsigned int *pFlags, void *p)
{
	struct cuemu_alloc *a;
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)))
		return r;
	if (!pFlags)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "pFlags is NULL");
	cuemu_lock();
	a = cuemu_host_entry((uintptr_t)p);
	/* Every pinned range is mapped under unified addressing; a
	 * registration reports only PORTABLE of its own flags, and managed
	 * memory, which the host maps too, DEVICEMAP alone
	 * (probes/results/edges.txt, hostflags). */
	if (a)
		*pFlags = CU_MEMHOSTALLOC_DEVICEMAP |
			  (a->kind == CUEMU_KIND_HOST ? a->flags :
			   a->flags & CU_MEMHOSTREGISTER_PORTABLE);
	else if ((a = cuemu_va_find((uintptr_t)p)) &&
		 a->kind == CUEMU_KIND_MANAGED)
		*pFlags = CU_MEMHOSTALLOC_DEVICEMAP;
	else
		a = NULL;
	cuemu_unlock();
	if (!a)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%p is not pinned, "
				  "registered or managed memory", p);
	return CUDA_SUCCESS;
}

CUresult cuMemHostGetDevicePointer(CUdeviceptr *pdptr, void *p,
				   unsigned int Flags)
{
	bool known;
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)))
		return r;
	if (!pdptr)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "pdptr is NULL");
	if (Flags != 0)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "Flags must be 0, not %#x", Flags);
	cuemu_lock();
	known = cuemu_host_entry((uintptr_t)p) != NULL;
	cuemu_unlock();
	if (!known)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%p is not pinned or registered host memory",
				  p);
	/* Unified addressing: the device sees the host address. */
	*pdptr = (CUdeviceptr)(uintptr_t)p;
	return CUDA_SUCCESS;
}

/* --------------------------------------------------------------- register */

CUresult cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags)
{
	uintptr_t base = (uintptr_t)p, lo, hi;
	CUcontext ctx;
	CUresult r;
	int dev;

	if ((r = cuemu_current(&ctx, &dev)))
		return r;
	if (!p || bytesize == 0)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "p is NULL or bytesize is 0");
	if (Flags & ~REGISTER_FLAGS)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "unknown flags %#x", Flags & ~REGISTER_FLAGS);
	if (base + bytesize < base)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "range wraps the address space");
	lo = CUEMU_ALIGN_DOWN(base, CUEMU_PAGE);
	hi = CUEMU_ALIGN_UP(base + bytesize, CUEMU_PAGE);
	if (!cuemu_host_range_usable(lo, hi,
				     Flags & CU_MEMHOSTREGISTER_READ_ONLY))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "[%p, +%zu) is not mapped%s memory", p,
				  bytesize, Flags & CU_MEMHOSTREGISTER_READ_ONLY ?
				  "" : ", writable");
	if (Flags & CU_MEMHOSTREGISTER_IOMEMORY)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%p is ordinary memory, not I/O memory", p);
	return cuemu_host_register(ctx, dev, base, bytesize, Flags);
}

CUresult cuMemHostUnregister(void *p)
{
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)))
		return r;
	if (!p)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "p is NULL");
	return cuemu_host_unregister((uintptr_t)p);
}

/* ------------------------------------------------------------ queries */

CUresult cuMemGetAddressRange(CUdeviceptr *pbase, size_t *psize,
			      CUdeviceptr dptr)
{
	uintptr_t base;
	size_t size;
	CUresult r;
	bool found;
	int dev;

	if ((r = cuemu_current(NULL, &dev)))
		return r;
	cuemu_lock();
	found = cuemu_address_range(dptr, dev, &base, &size);
	cuemu_unlock();
	if (!found) {
		/* The real driver answers no range, not what was there
		 * (probes/results/ctx.txt: addressrange_malloc). */
		base = 0;
		size = 0;
		r = cuemu_fail(CUDA_ERROR_NOT_FOUND, "%#llx is in no "
			       "allocation", (unsigned long long)dptr);
	}
	if (pbase)
		*pbase = (CUdeviceptr)base;
	if (psize)
		*psize = size;
	return r;
}

CUresult cuMemGetInfo(size_t *free_bytes, size_t *total)
{
	const struct cuemu_device_info *d;
	uint64_t used;
	CUresult r;
	int dev;

	if ((r = cuemu_current(NULL, &dev)))
		return r;
	d = cuemu_device(dev);
	used = cuemu_mem_used(dev);
	/* Either out may be NULL, as the driver allows. */
	if (total)
		*total = d->total;
	if (free_bytes)
		*free_bytes = used < d->total ? d->total - used : 0;
	return CUDA_SUCCESS;
}

CUresult cuemuSetLabel(CUdeviceptr ptr, const char *label)
{
	CUresult r;
	bool found;

	if ((r = cuemu_check_init()))
		return r;
	/* Stored whole or not at all: a label cut short could end inside a
	 * UTF-8 character, and /cu could then show nothing of it. */
	if (label && cuemu_line_check(label, CUEMU_LABEL_MAX) < 0)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "label: %s",
				  cuemu_errmsg());
	cuemu_lock();
	found = cuemu_alloc_set_label(ptr, label ? label : "");
	cuemu_unlock();
	if (!found)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%#llx is in no allocation",
				  (unsigned long long)ptr);
	return CUDA_SUCCESS;
}
