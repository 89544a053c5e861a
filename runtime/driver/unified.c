/*
 * unified.c - the driver API's Unified Addressing module: the pointer
 * attributes (cuPointerGetAttribute, cuPointerGetAttributes,
 * cuPointerSetAttribute) and managed memory's advice (cuMemAdvise in both
 * forms), prefetch (cuMemPrefetchAsync in all forms) and range attributes
 * (cuMemRangeGetAttribute, cuMemRangeGetAttributes).
 *
 * Pointer attributes answer for every kind of memory the address map holds
 * (device, pool blocks, pinned, registered, managed, VMM mappings) and for
 * memory it does not know. A query takes one snapshot of what the map says
 * about the pointer, under the lock, then answers every attribute from the
 * snapshot with no lock held: the caller's result buffers may themselves be
 * managed memory, whose first touch faults into fault.c. Each attribute is
 * written with the width the real driver writes, and the errors and
 * defaults are its own (probes/results/ptrattr.txt).
 *
 * Advice, prefetch and range attributes check their arguments here, in the
 * real driver's order, and leave the range model to model/managed.c.
 *
 * Locking: cuemu_lock() while taking a pointer snapshot, setting
 * SYNC_MEMOPS or aggregating a range's attributes; advice and prefetch take
 * it in the model (model/managed.h).
 */
#include "driver/driver.h"
#include "model/managed.h"
#include "model/pool.h"
#include "model/vmm.h"
#include "model/ipc.h"

#include <string.h>

#define NATTR CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE

/* What the map says about one pointer. */
struct pinfo {
	bool known;              /* in an allocation, or mapped in a
	                          * reservation */
	bool in_resv;            /* unknown, but inside a reservation:
	                          * range_* is the reservation */
	enum cuemu_kind kind;
	uintptr_t range_base;    /* allocation, or the reservation */
	size_t range_size;
	uintptr_t map_base;      /* what the device maps it with */
	size_t map_size;
	uint64_t id, block_id;
	CUcontext ctx;
	int device;              /* ordinal; host memory: the device current
	                          * when it was made */
	bool on_device;          /* the bytes are device memory */
	bool reachable;          /* the current device can address it */
	bool host_pool;          /* a block of a HOST or HOST_NUMA pool */
	bool host_mapped;        /* VMM memory on the host that the host
	                          * was given access to */
	bool sync_memops;
	CUmemoryPool pool;
	unsigned long long handle_types;
	unsigned access;         /* CUpointer_attribute_access_flags */
};

/* Width in bytes of each attribute's value as the real driver writes it
 * (probes/results/ptrattr.txt): booleans are 32-bit, the handle type mask
 * 64-bit, and of the P2P token pair only its two members. */
#define P2P_WIDTH (sizeof(unsigned long long) + sizeof(unsigned int))
static const unsigned char width[NATTR + 1] = {
	[CU_POINTER_ATTRIBUTE_CONTEXT] = sizeof(CUcontext),
	[CU_POINTER_ATTRIBUTE_MEMORY_TYPE] = sizeof(unsigned int),
	[CU_POINTER_ATTRIBUTE_DEVICE_POINTER] = sizeof(CUdeviceptr),
	[CU_POINTER_ATTRIBUTE_HOST_POINTER] = sizeof(void *),
	[CU_POINTER_ATTRIBUTE_P2P_TOKENS] = P2P_WIDTH,
	[CU_POINTER_ATTRIBUTE_SYNC_MEMOPS] = sizeof(unsigned int),
	[CU_POINTER_ATTRIBUTE_BUFFER_ID] = sizeof(unsigned long long),
	[CU_POINTER_ATTRIBUTE_IS_MANAGED] = sizeof(unsigned int),
	[CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL] = sizeof(int),
	[CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE] = sizeof(unsigned int),
	[CU_POINTER_ATTRIBUTE_RANGE_START_ADDR] = sizeof(CUdeviceptr),
	[CU_POINTER_ATTRIBUTE_RANGE_SIZE] = sizeof(size_t),
	[CU_POINTER_ATTRIBUTE_MAPPED] = sizeof(unsigned int),
	[CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES] = sizeof(unsigned long long),
	[CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE] = sizeof(unsigned int),
	[CU_POINTER_ATTRIBUTE_ACCESS_FLAGS] = sizeof(unsigned int),
	[CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE] = sizeof(CUmemoryPool),
	[CU_POINTER_ATTRIBUTE_MAPPING_SIZE] = sizeof(size_t),
	[CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR] = sizeof(void *),
	[CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID] = sizeof(unsigned long long),
	[CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE] = sizeof(unsigned int),
};

/* The vaSpaceToken the real driver answers for its one address space. */
#define VA_SPACE_TOKEN 0xfe00u

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

static void snap_vmm(uintptr_t p, int curdev, struct cuemu_alloc *a,
		     struct pinfo *pi)
{
	struct cuemu_map_info mi;
	int proc;

	if (!cuemu_vmm_lookup(p, curdev, &mi))
		return;
	proc = cuemu_loc_proc(mi.loc);
	pi->known = true;
	pi->range_base = mi.resv_base;
	pi->range_size = mi.resv_size;
	pi->map_base = mi.map_base;
	pi->map_size = mi.map_size;
	pi->id = mi.buffer_id;
	pi->block_id = mi.handle_id;
	pi->on_device = proc >= 0 && proc != CUEMU_PROC_HOST;
	pi->host_mapped = !pi->on_device &&
		mi.host_access != CU_MEM_ACCESS_FLAGS_PROT_NONE;
	pi->device = pi->on_device ? proc : curdev;
	pi->handle_types = mi.handle_types;
	pi->access = (unsigned)mi.access;
	pi->reachable = mi.access != CU_MEM_ACCESS_FLAGS_PROT_NONE;
	pi->sync_memops = a->sync_memops;
}

/* A pool block (probes/results/ptrsweep.txt): mapped with its pool's
 * chunk, exportable as the pool is; a block of a pool on the host is a
 * device pointer only to a device the pool gives access, has the
 * allocating device's ordinal and, as the real driver answers, a range
 * start of 0. */
static void snap_pool(int curdev, struct cuemu_alloc *a, struct pinfo *pi)
{
	CUmemoryPool p = cuemu_pool_of(a);

	pi->pool = p;
	cuemu_pool_block_chunk(a, &pi->map_base, &pi->map_size);
	if (!cuemu_pool_imported(p))
		pi->handle_types = cuemu_pool_props(p)->handleTypes;
	if (a->device >= 0)
		return;
	pi->host_pool = true;
	pi->device = a->ctx ? cuemu_ctx_device(a->ctx) : curdev;
	pi->reachable = curdev >= 0 && cuemu_pool_access(p, curdev) !=
		CU_MEM_ACCESS_FLAGS_PROT_NONE;
}

static void snap_alloc(int curdev, struct cuemu_alloc *a, struct pinfo *pi)
{
	struct cuemu_ipc_view iv;

	pi->known = true;
	pi->range_base = pi->map_base = a->base;
	pi->range_size = a->size;
	/* The driver maps device, pinned and managed memory in 2 MiB pages;
	 * a registration is mapped as it is. */
	pi->map_size = a->kind == CUEMU_KIND_REGISTERED ? a->size :
		CUEMU_ALIGN_UP(a->size, CUEMU_GRANULARITY);
	pi->id = pi->block_id = a->id;
	if (a->kind == CUEMU_KIND_DEVICE)
		cuemu_devheap_mapping(a, &pi->map_base, &pi->map_size,
				      &pi->block_id);
	/* An opened IPC mapping answers the exporter's buffer id
	 * (probes/results/share.txt, imp.attr_buffer_id). */
	if (cuemu_ipc_view(a, &iv)) {
		pi->id = iv.exporter_id;
		pi->map_base = iv.map_base;
		pi->map_size = iv.map_size;
	}
	pi->ctx = a->kind == CUEMU_KIND_POOL ? NULL : a->ctx;
	pi->device = a->device;
	pi->sync_memops = a->sync_memops;
	/* A pool on the host (HOST or HOST_NUMA location) hands out host
	 * memory: the driver reports MEMORY_TYPE host for it
	 * (probes/results/pool.txt, pool.host_numa.memtype). */
	pi->on_device = a->kind == CUEMU_KIND_DEVICE ||
			a->kind == CUEMU_KIND_IPC ||
			(a->kind == CUEMU_KIND_POOL && a->device >= 0);
	pi->reachable = !pi->on_device || a->kind == CUEMU_KIND_POOL ||
			(curdev >= 0 && (a->device == curdev ||
					 cuemu_peer_enabled(curdev, a->device)));
	pi->pool = cuemu_pool_of(a); /* managed pools' blocks too */
	if (pi->pool && a->kind == CUEMU_KIND_MANAGED) {
		pi->ctx = NULL;
		cuemu_pool_block_chunk(a, &pi->map_base, &pi->map_size);
	}
	if (a->kind == CUEMU_KIND_POOL)
		snap_pool(curdev, a, pi);
	pi->access = a->kind == CUEMU_KIND_REGISTERED &&
		(a->flags & CU_MEMHOSTREGISTER_READ_ONLY) ?
		CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READ :
		CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE;
}

static void snapshot(uintptr_t p, int curdev, struct pinfo *pi)
{
	struct cuemu_alloc *a;

	memset(pi, 0, sizeof *pi);
	pi->device = CU_DEVICE_INVALID;
	cuemu_lock();
	a = cuemu_va_find(p);
	if (a && a->kind == CUEMU_KIND_RESERVATION)
		snap_vmm(p, curdev, a, pi);
	else if (a)
		snap_alloc(curdev, a, pi);
	if (a && !pi->known && a->kind == CUEMU_KIND_RESERVATION) {
		pi->in_resv = true;
		pi->range_base = a->base;
		pi->range_size = a->size;
	}
	if (pi->known)
		pi->kind = a->kind;
	cuemu_unlock();
}

/* Querying P2P tokens sets SYNC_MEMOPS, as the driver documents. */
static void mark_sync(uintptr_t p)
{
	struct cuemu_alloc *a;

	cuemu_lock();
	if ((a = cuemu_va_find(p)))
		a->sync_memops = true;
	cuemu_unlock();
}

/* ------------------------------------------------------------ answers */

/* The value of attr for a known pointer. An attribute this kind of memory
 * has no value for answers an error and 0, as the driver writes it. */
static CUresult value_of(const struct pinfo *pi, CUpointer_attribute attr,
			 uintptr_t p, bool have_ctx, uint64_t *v)
{
	bool plain = pi->kind == CUEMU_KIND_DEVICE;

	*v = 0;
	switch (attr) {
	case CU_POINTER_ATTRIBUTE_CONTEXT:
		*v = (uintptr_t)pi->ctx;
		break;
	case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
		*v = pi->on_device || pi->kind == CUEMU_KIND_MANAGED ?
			CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
		break;
	case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
		if (!have_ctx)
			return CUDA_ERROR_INVALID_CONTEXT;
		if (!pi->reachable)
			return CUDA_ERROR_INVALID_VALUE;
		*v = p;
		break;
	case CU_POINTER_ATTRIBUTE_HOST_POINTER:
		/* VMM memory has one only on the host, once the host was
		 * given access (probes/results/edges.txt, hostvmm). */
		if (pi->on_device ||
		    (pi->kind == CUEMU_KIND_RESERVATION && !pi->host_mapped))
			return CUDA_ERROR_INVALID_VALUE;
		*v = p;
		break;
	case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:
		*v = pi->sync_memops;
		break;
	case CU_POINTER_ATTRIBUTE_BUFFER_ID:
		*v = pi->id;
		break;
	case CU_POINTER_ATTRIBUTE_IS_MANAGED:
		*v = pi->kind == CUEMU_KIND_MANAGED;
		break;
	case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
		*v = (uint32_t)pi->device;
		break;
	case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
	case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE:
	case CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE:
		/* Only cuMemAlloc memory is, on the real H200. */
		*v = plain;
		break;
	case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
		*v = pi->host_pool ? 0 : pi->range_base;
		break;
	case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
		*v = pi->range_size;
		break;
	case CU_POINTER_ATTRIBUTE_MAPPED:
		*v = 1;
		break;
	case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
		*v = pi->handle_types;
		break;
	case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS:
		*v = pi->access;
		break;
	case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
		*v = (uintptr_t)pi->pool;
		break;
	case CU_POINTER_ATTRIBUTE_MAPPING_SIZE:
		*v = pi->map_size;
		break;
	case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR:
		*v = pi->map_base;
		break;
	case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID:
		*v = pi->block_id;
		break;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	return CUDA_SUCCESS;
}

/* P2P tokens: device-side memory only. The emulation has no nv-p2p kernel
 * interface to honour them; the values are the real driver's shape. */
static CUresult p2p_tokens(const struct pinfo *pi, uintptr_t p, void *data)
{
	CUDA_POINTER_ATTRIBUTE_P2P_TOKENS t = { 0, 0 };
	bool ok = pi->on_device || pi->kind == CUEMU_KIND_MANAGED;

	if (ok)
		t.vaSpaceToken = VA_SPACE_TOKEN;
	memcpy(data, &t, P2P_WIDTH);
	if (!ok)
		return CUDA_ERROR_INVALID_VALUE;
	mark_sync(p);
	return CUDA_SUCCESS;
}

/* cuPointerGetAttribute's answer for one attribute. */
static CUresult answer(const struct pinfo *pi, CUpointer_attribute attr,
		       uintptr_t p, bool have_ctx, void *data)
{
	uint64_t v;
	CUresult r;

	/* A pointer the runtime does not know gets nothing written. */
	if (!pi->known)
		return CUDA_ERROR_INVALID_VALUE;
	if (attr == CU_POINTER_ATTRIBUTE_P2P_TOKENS)
		return p2p_tokens(pi, p, data);
	r = value_of(pi, attr, p, have_ctx, &v);
	put(data, attr, v);
	return r;
}

/* cuPointerGetAttributes' answer: defaults for what the runtime does not
 * know (its own range is left unwritten, as the driver does, but for an
 * unmapped address of a reservation), and no per-attribute errors. */
static void answer_many(const struct pinfo *pi, CUpointer_attribute attr,
			uintptr_t p, bool have_ctx, void *data)
{
	uint64_t v;

	if (pi->known) {
		value_of(pi, attr, p, have_ctx, &v);
		put(data, attr, v);
		return;
	}
	switch (attr) {
	case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
	case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
		/* Inside a reservation, unmapped: its range, as the driver
		 * answers (ptrattr.getattrs.vmm.reserved_unmapped). */
		if (pi->in_resv)
			put(data, attr, attr == CU_POINTER_ATTRIBUTE_RANGE_SIZE ?
			    pi->range_size : pi->range_base);
		return;
	case CU_POINTER_ATTRIBUTE_HOST_POINTER:
		put(data, attr, p);
		return;
	case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
		put(data, attr, (uint32_t)CU_DEVICE_INVALID);
		return;
	default:
		put(data, attr, 0);
	}
}

/* ------------------------------------------------------------ driver API */

/* The current device, or -1 when no context is current: most attributes
 * answer without one. */
static CUresult current_dev(int *dev)
{
	CUresult r;

	if ((r = cuemu_check_init()))
		return r;
	if (cuemu_current(NULL, dev) != CUDA_SUCCESS) {
		cuemu_errmsg_clear();
		*dev = -1;
	}
	return CUDA_SUCCESS;
}

CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute,
			       CUdeviceptr ptr)
{
	struct pinfo pi;
	CUresult r;
	int dev;

	if ((r = current_dev(&dev)))
		return r;
	if (!data)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "data is NULL");
	if (!attr_valid(attribute))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "unknown pointer attribute %d",
				  (int)attribute);
	snapshot(ptr, dev, &pi);
	if ((r = answer(&pi, attribute, ptr, dev >= 0, data)))
		return cuemu_fail(r, "%#llx has no attribute %d%s",
				  (unsigned long long)ptr, (int)attribute,
				  pi.known ? " for this kind of memory or "
				  "this context" :
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

	if ((r = current_dev(&dev)))
		return r;
	if (numAttributes == 0 || !attributes || !data)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "no attributes to answer");
	for (i = 0; i < numAttributes; i++)
		if (!data[i])
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "data[%u] is NULL", i);
	snapshot(ptr, dev, &pi);
	/* In order, stopping at the first attribute it cannot answer (the
	 * ones before it are written, as the driver does). */
	for (i = 0; i < numAttributes; i++) {
		if (!attr_valid(attributes[i]) ||
		    attributes[i] == CU_POINTER_ATTRIBUTE_P2P_TOKENS)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "pointer attribute %d cannot be "
					  "asked here", (int)attributes[i]);
		answer_many(&pi, attributes[i], ptr, dev >= 0, data[i]);
	}
	return CUDA_SUCCESS;
}

CUresult cuPointerSetAttribute(const void *value, CUpointer_attribute attribute,
			       CUdeviceptr ptr)
{
	struct cuemu_alloc *a;
	enum cuemu_kind kind = CUEMU_KIND_DEVICE;
	CUresult r;

	if ((r = cuemu_check_init()))
		return r;
	if (!value)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "value is NULL");
	if (attribute != CU_POINTER_ATTRIBUTE_SYNC_MEMOPS)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "only SYNC_MEMOPS can be set, not %d",
				  (int)attribute);
	cuemu_lock();
	a = cuemu_va_find(ptr);
	if (a)
		kind = a->kind;
	if (a && kind != CUEMU_KIND_RESERVATION)
		a->sync_memops = *(const unsigned int *)value != 0;
	cuemu_unlock();
	if (!a)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%#llx is in no allocation",
				  (unsigned long long)ptr);
	if (kind == CUEMU_KIND_RESERVATION)
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED,
				  "SYNC_MEMOPS cannot be set on virtual "
				  "memory mappings");
	/* Our synchronous copies always synchronize: nothing else to do. */
	return CUDA_SUCCESS;
}

/* ------------------------------------------------------------ advice */

/* Validates the location an advice takes; resolves NUMA_CURRENT. *proc:
 * the processor an accessed-by advice names. */
static CUresult advice_loc(CUmem_advise what, CUmemLocation *loc, int *proc)
{
	switch (what) {
	case CU_MEM_ADVISE_SET_READ_MOSTLY:
	case CU_MEM_ADVISE_UNSET_READ_MOSTLY:
	case CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION:
		return CUDA_SUCCESS; /* the location is ignored */
	case CU_MEM_ADVISE_SET_PREFERRED_LOCATION:
		switch (loc->type) {
		case CU_MEM_LOCATION_TYPE_DEVICE:
			if (!mg_dev_ok(loc->id))
				return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
						  "device %d cannot hold managed "
						  "memory", loc->id);
			return CUDA_SUCCESS;
		case CU_MEM_LOCATION_TYPE_HOST:
			loc->id = 0;
			return CUDA_SUCCESS;
		case CU_MEM_LOCATION_TYPE_HOST_NUMA:
			if (!cuemu_numa_valid(loc->id))
				return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
						  "no host NUMA node %d", loc->id);
			return CUDA_SUCCESS;
		case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT:
			loc->type = CU_MEM_LOCATION_TYPE_HOST_NUMA;
			loc->id = mg_current_node();
			return CUDA_SUCCESS;
		default:
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "location type %d is not a place",
					  (int)loc->type);
		}
	case CU_MEM_ADVISE_SET_ACCESSED_BY:
	case CU_MEM_ADVISE_UNSET_ACCESSED_BY:
		if (loc->type == CU_MEM_LOCATION_TYPE_HOST) {
			*proc = CUEMU_PROC_HOST;
			return CUDA_SUCCESS;
		}
		if (loc->type == CU_MEM_LOCATION_TYPE_DEVICE && mg_dev_ok(loc->id)) {
			*proc = loc->id;
			return CUDA_SUCCESS;
		}
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "accessed-by takes a device or the host");
	default:
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "advice %d is unknown",
				  (int)what);
	}
}

CUresult cuMemAdvise_v2(CUdeviceptr devPtr, size_t count, CUmem_advise advice,
			CUmemLocation location)
{
	CUresult r = cuemu_current(NULL, NULL);
	int proc = -1;

	if (r != CUDA_SUCCESS)
		return r;
	/* Checked even for the advices that ignore the location. */
	if ((unsigned)location.type > CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "location type %d is not a place",
				  (int)location.type);
	if ((r = advice_loc(advice, &location, &proc)) != CUDA_SUCCESS)
		return r;
	return mg_advise(devPtr, count, advice, location, proc);
}

/* The form before CUDA 13 (a device, CU_DEVICE_CPU for the host), which
 * the real libcuda still exports under the unversioned name. */
static CUmemLocation dev_loc(CUdevice d)
{
	CUmemLocation l = { CU_MEM_LOCATION_TYPE_DEVICE, d };

	if (d == CU_DEVICE_CPU)
		l = (CUmemLocation){ CU_MEM_LOCATION_TYPE_HOST, 0 };
	else if (d < 0)
		l = (CUmemLocation){ CU_MEM_LOCATION_TYPE_INVALID, d };
	return l;
}

#undef cuMemAdvise
CUresult cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice,
		     CUdevice device);
CUresult cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice,
		     CUdevice device)
{
	bool uses = advice == CU_MEM_ADVISE_SET_PREFERRED_LOCATION ||
		    advice == CU_MEM_ADVISE_SET_ACCESSED_BY ||
		    advice == CU_MEM_ADVISE_UNSET_ACCESSED_BY;

	/* This form answers INVALID_DEVICE where _v2 answers INVALID_VALUE
	 * (probe: old.advise_pref_invalid, old.advise_pref_dev99). */
	if (uses && device != CU_DEVICE_CPU &&
	    (device < 0 || device >= cuemu_device_count()))
		return cuemu_fail(CUDA_ERROR_INVALID_DEVICE, "no device %d",
				  device);
	return cuMemAdvise_v2(devPtr, count, advice, dev_loc(device));
}

/* ------------------------------------------------------------ prefetch */

/* The processor (and host node, or -1) a prefetch to loc brings data to;
 * a host location reads back with id 0 (driver.h). */
CUresult cuemu_prefetch_target(CUmemLocation *loc, int *dst, int *node)
{
	*node = -1;
	switch (loc->type) {
	case CU_MEM_LOCATION_TYPE_DEVICE:
		if (loc->id < 0 || loc->id >= cuemu_device_count())
			return cuemu_fail(CUDA_ERROR_INVALID_DEVICE,
					  "no device %d", loc->id);
		*dst = loc->id;
		return CUDA_SUCCESS;
	case CU_MEM_LOCATION_TYPE_HOST:
		*dst = CUEMU_PROC_HOST;
		loc->id = 0;
		return CUDA_SUCCESS;
	case CU_MEM_LOCATION_TYPE_HOST_NUMA:
		if (!cuemu_numa_valid(loc->id))
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "no host NUMA node %d", loc->id);
		*dst = CUEMU_PROC_HOST;
		*node = loc->id;
		return CUDA_SUCCESS;
	case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT:
		/* The id reads back as given (probe: lp_id 5 for id 5). */
		*dst = CUEMU_PROC_HOST;
		*node = mg_current_node();
		return CUDA_SUCCESS;
	default:
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "location type %d is not a place",
				  (int)loc->type);
	}
}

CUresult cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count,
			       CUmemLocation location, unsigned int flags,
			       CUstream hStream)
{
	CUresult r = cuemu_check_init();
	int dst = CUEMU_PROC_HOST, node;
	CUstream s;

	if (r != CUDA_SUCCESS)
		return r;
	if (flags != 0)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "flags must be 0, not 0x%x", flags);
	if ((r = cuemu_prefetch_target(&location, &dst, &node)) != CUDA_SUCCESS)
		return r;
	if ((r = cuemu_stream_get(hStream, &s)) != CUDA_SUCCESS)
		return r;
	return mg_prefetch(s, devPtr, count, location, dst, node);
}

#undef cuMemPrefetchAsync
CUresult cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count,
			    CUdevice dstDevice, CUstream hStream);
CUresult cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count,
			    CUdevice dstDevice, CUstream hStream)
{
	if (dstDevice < CU_DEVICE_CPU)
		return cuemu_fail(CUDA_ERROR_INVALID_DEVICE, "no device %d",
				  dstDevice);
	return cuMemPrefetchAsync_v2(devPtr, count, dev_loc(dstDevice), 0,
				     hStream);
}

/* The per-thread-default-stream forms: a null stream means the thread's. */
CUresult cuMemPrefetchAsync_v2_ptsz(CUdeviceptr devPtr, size_t count,
				    CUmemLocation location, unsigned int flags,
				    CUstream hStream);
CUresult cuMemPrefetchAsync_v2_ptsz(CUdeviceptr devPtr, size_t count,
				    CUmemLocation location, unsigned int flags,
				    CUstream hStream)
{
	return cuMemPrefetchAsync_v2(devPtr, count, location, flags,
				     cuemu_ptsz(hStream));
}

CUresult cuMemPrefetchAsync_ptsz(CUdeviceptr devPtr, size_t count,
				 CUdevice dstDevice, CUstream hStream);
CUresult cuMemPrefetchAsync_ptsz(CUdeviceptr devPtr, size_t count,
				 CUdevice dstDevice, CUstream hStream)
{
	return cuMemPrefetchAsync(devPtr, count, dstDevice,
				  cuemu_ptsz(hStream));
}

/* ------------------------------------------------------------ range attributes */

/* A location as a CUdevice: the GPU, CU_DEVICE_CPU for any host kind. */
static int loc_device(CUmemLocation l)
{
	switch (l.type) {
	case CU_MEM_LOCATION_TYPE_DEVICE:
		return l.id;
	case CU_MEM_LOCATION_TYPE_HOST:
	case CU_MEM_LOCATION_TYPE_HOST_NUMA:
	case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT:
		return CU_DEVICE_CPU;
	default:
		return CU_DEVICE_INVALID;
	}
}

/* A location's id as the range attributes report it. */
static int loc_id(CUmemLocation l)
{
	switch (l.type) {
	case CU_MEM_LOCATION_TYPE_DEVICE:
	case CU_MEM_LOCATION_TYPE_HOST_NUMA:
	case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT:
		return l.id;
	case CU_MEM_LOCATION_TYPE_HOST:
		return CU_DEVICE_CPU;
	default:
		return CU_DEVICE_INVALID;
	}
}

static CUresult check_size(CUmem_range_attribute attr, size_t size)
{
	switch (attr) {
	case CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY:
	case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION:
	case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION:
	case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID:
	case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID:
		if (size != 4)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "dataSize must be 4, not %zu", size);
		return CUDA_SUCCESS;
	case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE:
	case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE:
		if (size != sizeof(CUmemLocationType))
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "dataSize must be %zu, not %zu",
					  sizeof(CUmemLocationType), size);
		return CUDA_SUCCESS;
	case CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY:
		if (size == 0 || size % 4)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "dataSize must be a non-zero multiple "
					  "of 4, not %zu", size);
		return CUDA_SUCCESS;
	default:
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "range attribute %d is unknown", (int)attr);
	}
}

static void fill(void *data, size_t size, CUmem_range_attribute attr,
		 const struct mg_agg *g)
{
	int32_t *out = data;
	size_t i = 0, n = size / 4;
	int p;

	switch (attr) {
	case CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY:
		*out = g->read_mostly;
		break;
	case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION:
		*out = loc_device(g->pref);
		break;
	case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION:
		*out = loc_device(g->lp);
		break;
	case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE:
		*(CUmemLocationType *)data = g->pref.type;
		break;
	case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID:
		*out = loc_id(g->pref);
		break;
	case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE:
		*(CUmemLocationType *)data = g->lp.type;
		break;
	case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID:
		*out = loc_id(g->lp);
		break;
	case CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY:
		/* GPUs in order, then the CPU; padded with CU_DEVICE_INVALID. */
		for (p = cuemu_mask_next(g->accessed_by, 0); p >= 0 && i < n;
		     p = cuemu_mask_next(g->accessed_by, p + 1))
			if (g->accessed_by & ((cuemu_procmask)1 << p))
				out[i++] = p == CUEMU_PROC_HOST ? CU_DEVICE_CPU : p;
		for (; i < n; i++)
			out[i] = CU_DEVICE_INVALID;
		break;
	default:
		break;
	}
}

CUresult cuMemRangeGetAttributes(void **data, size_t *dataSizes,
				 CUmem_range_attribute *attributes,
				 size_t numAttributes, CUdeviceptr devPtr,
				 size_t count)
{
	CUresult r = cuemu_check_init();
	struct mstate *st;
	struct mg_agg g;
	uintptr_t s, e;
	size_t i;

	if (r != CUDA_SUCCESS)
		return r;
	if ((r = cuemu_current(NULL, NULL)) != CUDA_SUCCESS)
		return r;
	if (numAttributes == 0 || !data || !dataSizes || !attributes)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "no attributes to query");
	for (i = 0; i < numAttributes; i++) {
		if (!data[i])
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "data[%zu] is NULL", i);
		if ((r = check_size(attributes[i], dataSizes[i])) != CUDA_SUCCESS)
			return r;
	}
	cuemu_lock();
	r = mg_check_range(devPtr, count, &st, &s, &e);
	if (r == CUDA_SUCCESS) {
		mg_aggregate(st, s, e, &g, true);
		for (i = 0; i < numAttributes; i++)
			fill(data[i], dataSizes[i], attributes[i], &g);
	}
	cuemu_unlock();
	return r;
}

CUresult cuMemRangeGetAttribute(void *data, size_t dataSize,
				CUmem_range_attribute attribute,
				CUdeviceptr devPtr, size_t count)
{
	return cuMemRangeGetAttributes(&data, &dataSize, &attribute, 1, devPtr,
				       count);
}
