/*
 * pointer.c - pointer attributes: cuPointerGetAttribute,
 * cuPointerGetAttributes, cuPointerSetAttribute and the runtime's
 * cudaPointerGetAttributes, for every kind of memory the address map holds
 * (device, pool blocks, pinned, registered, managed, VMM mappings) and for
 * memory it does not know.
 *
 * A query takes one snapshot of what the map says about the pointer, under
 * the lock, then answers every attribute from the snapshot with no lock
 * held: the caller's result buffers may themselves be managed memory, whose
 * first touch faults into fault.c. Each attribute is written with the width
 * the real driver writes (probes/results/ptrattr.txt).
 *
 * Locking: cuemu_lock() only while taking the snapshot or setting
 * SYNC_MEMOPS.
 */
#include "internal.h"

#include <string.h>

#define NATTR CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE

/* What the map says about one pointer. */
struct pinfo {
	bool known;              /* in an allocation, or mapped in a
	                          * reservation */
	bool in_resv;            /* inside a reservation, mapped or not */
	enum cuemu_kind kind;
	uintptr_t range_base;    /* allocation, or the reservation */
	size_t range_size;
	uintptr_t map_base;      /* allocation, or the one mapping */
	size_t map_size;
	uint64_t id, block_id;
	CUcontext ctx;
	int device;              /* ordinal; host memory: the device current
	                          * when it was made */
	int proc;                /* where the bytes are: GPU or host */
	unsigned flags;
	bool sync_memops;
	CUmemoryPool pool;
	unsigned long long handle_types;
	unsigned access;         /* CUpointer_attribute_access_flags */
};

/* Width in bytes of each attribute's value, as the real driver writes it. */
static const unsigned char width[NATTR + 1] = {
	[CU_POINTER_ATTRIBUTE_CONTEXT] = sizeof(CUcontext),
	[CU_POINTER_ATTRIBUTE_MEMORY_TYPE] = sizeof(unsigned int),
	[CU_POINTER_ATTRIBUTE_DEVICE_POINTER] = sizeof(CUdeviceptr),
	[CU_POINTER_ATTRIBUTE_HOST_POINTER] = sizeof(void *),
	[CU_POINTER_ATTRIBUTE_P2P_TOKENS] =
		sizeof(CUDA_POINTER_ATTRIBUTE_P2P_TOKENS),
	[CU_POINTER_ATTRIBUTE_SYNC_MEMOPS] = sizeof(bool),
	[CU_POINTER_ATTRIBUTE_BUFFER_ID] = sizeof(unsigned long long),
	[CU_POINTER_ATTRIBUTE_IS_MANAGED] = sizeof(bool),
	[CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL] = sizeof(int),
	[CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE] = sizeof(bool),
	[CU_POINTER_ATTRIBUTE_RANGE_START_ADDR] = sizeof(CUdeviceptr),
	[CU_POINTER_ATTRIBUTE_RANGE_SIZE] = sizeof(size_t),
	[CU_POINTER_ATTRIBUTE_MAPPED] = sizeof(bool),
	[CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES] = sizeof(unsigned long long),
	[CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE] = sizeof(bool),
	[CU_POINTER_ATTRIBUTE_ACCESS_FLAGS] = sizeof(unsigned int),
	[CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE] = sizeof(CUmemoryPool),
	[CU_POINTER_ATTRIBUTE_MAPPING_SIZE] = sizeof(size_t),
	[CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR] = sizeof(void *),
	[CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID] = sizeof(unsigned long long),
	[CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE] = sizeof(bool),
};

static bool attr_valid(CUpointer_attribute attr)
{
	return attr >= CU_POINTER_ATTRIBUTE_CONTEXT && attr <= NATTR;
}

/* Writes the low `width[attr]` bytes of v (little-endian host). */
static void put(void *data, CUpointer_attribute attr, uint64_t v)
{
	memcpy(data, &v, width[attr]);
}

/* ------------------------------------------------------------ snapshot */

static unsigned device_access(int owner, int curdev)
{
	if (curdev < 0)
		return CU_POINTER_ATTRIBUTE_ACCESS_FLAG_NONE;
	return owner == curdev || cuemu_peer_enabled(curdev, owner) ?
		CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE :
		CU_POINTER_ATTRIBUTE_ACCESS_FLAG_NONE;
}

static void snap_vmm(uintptr_t p, int curdev, struct cuemu_alloc *a,
		     struct pinfo *pi)
{
	struct cuemu_map_info mi;

	pi->in_resv = true;
	pi->range_base = a->base;
	pi->range_size = a->size;
	if (!cuemu_vmm_lookup(p, curdev, &mi))
		return;
	pi->known = true;
	pi->range_base = mi.resv_base;
	pi->range_size = mi.resv_size;
	pi->map_base = mi.map_base;
	pi->map_size = mi.map_size;
	pi->id = a->id;
	pi->block_id = mi.handle_id;
	pi->proc = cuemu_loc_proc(mi.loc);
	if (pi->proc < 0)
		pi->proc = CUEMU_PROC_HOST;
	pi->device = pi->proc == CUEMU_PROC_HOST ? curdev : pi->proc;
	pi->handle_types = mi.handle_types;
	pi->access = (unsigned)mi.access;
}

static void snapshot(uintptr_t p, int curdev, struct pinfo *pi)
{
	struct cuemu_alloc *a;

	memset(pi, 0, sizeof *pi);
	pi->device = CU_DEVICE_INVALID;
	cuemu_lock();
	a = cuemu_va_find(p);
	if (a && a->kind == CUEMU_KIND_RESERVATION) {
		pi->kind = a->kind;
		snap_vmm(p, curdev, a, pi);
	} else if (a) {
		pi->known = true;
		pi->kind = a->kind;
		pi->range_base = pi->map_base = a->base;
		pi->range_size = pi->map_size = a->size;
		pi->id = pi->block_id = a->id;
		pi->ctx = a->ctx;
		pi->device = a->device;
		pi->flags = a->flags;
		pi->sync_memops = a->sync_memops;
		if (a->kind == CUEMU_KIND_POOL)
			pi->pool = cuemu_pool_of(a);
		pi->proc = a->kind == CUEMU_KIND_DEVICE ||
			   a->kind == CUEMU_KIND_POOL ? a->device :
			   CUEMU_PROC_HOST;
		if (a->kind == CUEMU_KIND_DEVICE)
			pi->access = device_access(a->device, curdev);
		else if (a->kind == CUEMU_KIND_REGISTERED &&
			 (a->flags & CU_MEMHOSTREGISTER_READ_ONLY))
			pi->access = CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READ;
		else
			pi->access = CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE;
	}
	cuemu_unlock();
	/* A pool decides who may reach its blocks; ask it without the lock. */
	if (pi->pool && curdev >= 0) {
		CUmemLocation loc = { CU_MEM_LOCATION_TYPE_DEVICE, curdev };
		CUmemAccess_flags f;

		if (cuMemPoolGetAccess(&f, pi->pool, &loc) == CUDA_SUCCESS)
			pi->access = (unsigned)f;
	}
}

/* ------------------------------------------------------------ answers */

static bool on_device(const struct pinfo *pi)
{
	return pi->proc != CUEMU_PROC_HOST && pi->kind != CUEMU_KIND_MANAGED;
}

/* The value of attr for a known pointer, or an error for an attribute that
 * has none for this kind of memory. */
static CUresult value_of(const struct pinfo *pi, CUpointer_attribute attr,
			 uintptr_t p, uint64_t *v)
{
	bool vmm = pi->kind == CUEMU_KIND_RESERVATION;

	switch (attr) {
	case CU_POINTER_ATTRIBUTE_CONTEXT:
		*v = (uintptr_t)pi->ctx;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
		*v = on_device(pi) || pi->kind == CUEMU_KIND_MANAGED ?
			CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
		*v = p;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_HOST_POINTER:
		*v = p;
		return on_device(pi) ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:
		*v = pi->sync_memops;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_BUFFER_ID:
		*v = pi->id;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_IS_MANAGED:
		*v = pi->kind == CUEMU_KIND_MANAGED;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
		*v = (uint32_t)pi->device;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
		*v = pi->kind == CUEMU_KIND_DEVICE;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
		*v = pi->range_base;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
		*v = pi->range_size;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_MAPPED:
		*v = 1;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
		*v = pi->handle_types;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE:
		*v = pi->kind == CUEMU_KIND_DEVICE ||
		     pi->kind == CUEMU_KIND_POOL || (vmm && on_device(pi));
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS:
		*v = pi->access;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
		*v = (uintptr_t)pi->pool;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_MAPPING_SIZE:
		*v = pi->map_size;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR:
		*v = pi->map_base;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID:
		*v = pi->block_id;
		return CUDA_SUCCESS;
	case CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE:
		/* Hopper has no decompression engine. */
		*v = 0;
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

/* One attribute into data: the value, or an error and nothing written. */
static CUresult answer(const struct pinfo *pi, CUpointer_attribute attr,
		       uintptr_t p, void *data)
{
	uint64_t v = 0;
	CUresult r;

	if (!pi->known) {
		/* An unmapped address of a reservation still says so. */
		if (pi->in_resv && attr == CU_POINTER_ATTRIBUTE_MAPPED) {
			put(data, attr, 0);
			return CUDA_SUCCESS;
		}
		return CUDA_ERROR_INVALID_VALUE;
	}
	/* Tokens are for the nv-p2p kernel interface, which no emulated
	 * device has. */
	if (attr == CU_POINTER_ATTRIBUTE_P2P_TOKENS)
		return pi->kind == CUEMU_KIND_DEVICE ?
			CUDA_ERROR_NOT_SUPPORTED : CUDA_ERROR_INVALID_VALUE;
	if ((r = value_of(pi, attr, p, &v)))
		return r;
	put(data, attr, v);
	return CUDA_SUCCESS;
}

/* What cuPointerGetAttributes writes for an attribute with no value. */
static void put_default(void *data, CUpointer_attribute attr)
{
	if (attr == CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL)
		put(data, attr, (uint32_t)CU_DEVICE_INVALID);
	else if (attr == CU_POINTER_ATTRIBUTE_P2P_TOKENS)
		memset(data, 0, sizeof(CUDA_POINTER_ATTRIBUTE_P2P_TOKENS));
	else
		put(data, attr, 0);
}

/* ------------------------------------------------------------ driver API */

CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute,
			       CUdeviceptr ptr)
{
	struct pinfo pi;
	CUresult r;
	int dev;

	if ((r = cuemu_current(NULL, &dev)))
		return r;
	if (!data)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "data is NULL");
	if (!attr_valid(attribute))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "unknown pointer attribute %d",
				  (int)attribute);
	snapshot(ptr, dev, &pi);
	if ((r = answer(&pi, attribute, ptr, data)))
		return cuemu_fail(r, "%#llx has no attribute %d%s",
				  (unsigned long long)ptr, (int)attribute,
				  pi.known ? " for its kind of memory" :
				  ": the runtime does not know it");
	return CUDA_SUCCESS;
}

CUresult cuPointerGetAttributes(unsigned int numAttributes,
				CUpointer_attribute *attributes, void **data,
				CUdeviceptr ptr)
{
	struct pinfo pi;
	unsigned i;
	CUresult r;
	int dev;

	if ((r = cuemu_current(NULL, &dev)))
		return r;
	if (numAttributes == 0 || !attributes || !data)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "no attributes to answer");
	for (i = 0; i < numAttributes; i++)
		if (!attr_valid(attributes[i]))
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "unknown pointer attribute %d",
					  (int)attributes[i]);
	snapshot(ptr, dev, &pi);
	/* Unlike cuPointerGetAttribute, a pointer the runtime does not know
	 * answers defaults rather than an error. */
	for (i = 0; i < numAttributes; i++) {
		if (!data[i])
			continue;
		if (answer(&pi, attributes[i], ptr, data[i]))
			put_default(data[i], attributes[i]);
	}
	return CUDA_SUCCESS;
}

CUresult cuPointerSetAttribute(const void *value, CUpointer_attribute attribute,
			       CUdeviceptr ptr)
{
	struct cuemu_alloc *a;
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)))
		return r;
	if (!value)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "value is NULL");
	if (attribute != CU_POINTER_ATTRIBUTE_SYNC_MEMOPS)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "only SYNC_MEMOPS can be set, not %d",
				  (int)attribute);
	cuemu_lock();
	a = cuemu_va_find(ptr);
	if (a && a->kind != CUEMU_KIND_RESERVATION)
		a->sync_memops = *(const unsigned int *)value != 0;
	cuemu_unlock();
	if (!a || a->kind == CUEMU_KIND_RESERVATION)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%#llx is in no allocation",
				  (unsigned long long)ptr);
	/* Our synchronous copies always synchronize: nothing else to do. */
	return CUDA_SUCCESS;
}

/* ------------------------------------------------------------ runtime API */

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes,
				     const void *ptr)
{
	uintptr_t p = (uintptr_t)ptr;
	struct pinfo pi;
	CUresult r;
	int dev;

	if ((r = cuemu_rt_current(NULL, &dev)))
		return cuemu_rt_result(r);
	if (!attributes)
		return cuemu_rt_result(cuemu_fail(CUDA_ERROR_INVALID_VALUE,
						  "attributes is NULL"));
	snapshot(p, dev, &pi);
	memset(attributes, 0, sizeof *attributes);
	attributes->type = cudaMemoryTypeUnregistered;
	attributes->device = CU_DEVICE_INVALID;
	if (!pi.known)
		return cudaSuccess;
	attributes->device = pi.device;
	attributes->devicePointer = (void *)p;
	if (pi.kind == CUEMU_KIND_MANAGED) {
		attributes->type = cudaMemoryTypeManaged;
		attributes->hostPointer = (void *)p;
	} else if (on_device(&pi)) {
		attributes->type = cudaMemoryTypeDevice;
	} else {
		attributes->type = cudaMemoryTypeHost;
		attributes->hostPointer = (void *)p;
	}
	return cudaSuccess;
}
