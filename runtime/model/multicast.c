/*
 * multicast.c - multicast objects: a team of numDevices devices, added one
 * by one; memory of each bound at offsets of the object; and what a store
 * through a mapping of the object does. The object is a VMM handle
 * (vmm.c) with a memfd of its own, so that cuMemMap, cuMemSetAccess and
 * cuMemRelease take it as they take any handle; its mapping shows that
 * memfd. A copy or memset that writes through such a mapping (copy.c) is
 * passed on here: the bytes written go to the memory bound at those
 * offsets on every device of the team, which is what a multicast store
 * does. A read through the mapping reads the object's own memfd: the last
 * bytes stored through it (the real hardware's plain load through a
 * multicast address is not defined; its reductions are kernels'). A store
 * by the host straight to the mapping's pointer, as an emulated kernel
 * would make, reaches the object's memfd only; libcuemu(3) says so.
 *
 * A binding holds a reference on the memory it binds, given back when it
 * is unbound or the object goes. Refusals follow the driver's documented
 * rules; on one GPU the real driver answers NOT_SUPPORTED to every call
 * (probes/results/share.txt), as this does on a machine whose devices
 * lack CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED.
 *
 * Locking: the objects are guarded by cuemu_lock(), which the callers
 * hold; cuemu_mc_fanout takes it, and writes the bound memory through its
 * memfd under it (no user memory of the managed kind is touched).
 */
#include "model/multicast.h"
#include "model/vmm.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct mc {
	RB_ENTRY(mc) node;
	uint64_t id;                   /* its VMM handle */
	size_t size;
	unsigned ndevices;
	cuemu_procmask added;          /* devices added, a mask */
	unsigned long long types;
	struct cuemu_mc_binding *b;    /* in the order bound */
	size_t nb, cap;
};

static int cmp_mc(struct mc *x, struct mc *y)
{
	return x->id < y->id ? -1 : x->id > y->id;
}

RB_HEAD(mc_tree, mc);
CUEMU_RB_STATIC(mc_tree, mc, node, cmp_mc)
/* The process's multicast objects, by handle: process state like the VMM
 * handles they are. */
static struct mc_tree objects = RB_INITIALIZER(&objects);

static struct mc *mc_get(uint64_t id)
{
	struct mc key = { .id = id };

	return RB_FIND(mc_tree, &objects, &key);
}

static CUresult not_mc(CUmemGenericAllocationHandle h)
{
	return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			  "%llu is not a multicast object",
			  (unsigned long long)h);
}

static unsigned popcount(cuemu_procmask m)
{
	return (unsigned)cuemu_mask_count(m);
}

bool cuemu_mc_supported(void)
{
	int n = cuemu_device_count();

	for (int d = 0; d < n; d++)
		if (cuemu_device(d)->attrs[CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED] != 1)
			return false;
	return n > 0;
}

static CUresult check_map(uint64_t id);
static void forget(uint64_t id);

/* What the object's handle asks of it (vmm.c). */
static const struct cuemu_mc_hooks hooks = { check_map, forget };

CUresult cuemu_mc_create(const CUmulticastObjectProp *prop,
			 CUmemGenericAllocationHandle *out)
{
	struct mc *m = calloc(1, sizeof *m);
	CUresult r;

	if (!m)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "no memory");
	if ((r = cuemu_vmm_create_multicast(prop->size, prop->handleTypes,
					    &hooks, out))) {
		free(m);
		return r;
	}
	m->id = (uint64_t)*out;
	m->size = prop->size;
	m->ndevices = prop->numDevices;
	m->types = prop->handleTypes;
	RB_INSERT(mc_tree, &objects, m);
	cuemu_event_log("multicast_create", "id=%llu size=%zu devices=%u",
			(unsigned long long)m->id, m->size, m->ndevices);
	return CUDA_SUCCESS;
}

CUresult cuemu_mc_add_device(CUmemGenericAllocationHandle h, int dev)
{
	struct mc *m = mc_get((uint64_t)h);

	if (!m)
		return not_mc(h);
	if (m->added & ((cuemu_procmask)1 << dev))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "gpu%d is already in multicast object %llu",
				  dev, (unsigned long long)m->id);
	if (popcount(m->added) >= m->ndevices)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "multicast object %llu has its %u devices",
				  (unsigned long long)m->id, m->ndevices);
	m->added |= (cuemu_procmask)1 << dev;
	cuemu_obj_changed(m->id);
	cuemu_event_log("multicast_add", "id=%llu device=gpu%d",
			(unsigned long long)m->id, dev);
	return CUDA_SUCCESS;
}

/* The team is complete: binding and mapping may go on. The real driver
 * waits for the devices still missing (another process may add them);
 * here that wait could never end, so the call is refused. */
static CUresult team_complete(const struct mc *m)
{
	if (popcount(m->added) < m->ndevices)
		return cuemu_fail(CUDA_ERROR_NOT_PERMITTED,
				  "multicast object %llu has %u of its %u "
				  "devices: add them first",
				  (unsigned long long)m->id, popcount(m->added),
				  m->ndevices);
	return CUDA_SUCCESS;
}

/* vmm.c asks whether the object may be mapped: its team is complete. */
static CUresult check_map(uint64_t id)
{
	struct mc *m = mc_get(id);

	return m ? team_complete(m) : not_mc((CUmemGenericAllocationHandle)id);
}

static bool aligned(size_t v)
{
	return v % CUEMU_MC_GRAN_MIN == 0;
}

/* The offsets and size of a bind or unbind against the object's. */
static CUresult check_range(const struct mc *m, size_t off, size_t size)
{
	if (!size || !aligned(off) || !aligned(size))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "offset %zu and size %zu must be non-zero "
				  "multiples of %lu", off, size,
				  CUEMU_MC_GRAN_MIN);
	if (off + size < off || off + size > m->size)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "[%zu, +%zu) runs past multicast object "
				  "%llu (%zu bytes)", off, size,
				  (unsigned long long)m->id, m->size);
	return CUDA_SUCCESS;
}

/* The memory to bind: a live handle of device memory of a device of the
 * team, shareable as the object is, large enough, not bound there yet. */
static CUresult check_mem(const struct mc *m, CUmemGenericAllocationHandle mem,
			  size_t mem_off, size_t mc_off, size_t size, int *dev)
{
	struct cuemu_handle_info hi;

	if (!cuemu_vmm_handle_info(mem, &hi) || hi.multicast)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%llu is not a memory allocation handle",
				  (unsigned long long)mem);
	if (!aligned(mem_off) || mem_off + size < mem_off ||
	    mem_off + size > hi.size)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "[%zu, +%zu) is not inside handle %llu (%zu "
				  "bytes) at the multicast granularity",
				  mem_off, size, (unsigned long long)mem,
				  hi.size);
	if (hi.loc.type != CU_MEM_LOCATION_TYPE_DEVICE ||
	    !(m->added & ((cuemu_procmask)1 << hi.loc.id)))
		return cuemu_fail(CUDA_ERROR_INVALID_DEVICE,
				  "handle %llu is not memory of a device of "
				  "multicast object %llu",
				  (unsigned long long)mem,
				  (unsigned long long)m->id);
	if (m->types && !(hi.handle_types & m->types))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "a shareable multicast object binds only "
				  "shareable memory; handle %llu is not",
				  (unsigned long long)mem);
	*dev = hi.loc.id;
	for (size_t i = 0; i < m->nb; i++)
		if (m->b[i].dev == *dev && m->b[i].mc_off < mc_off + size &&
		    mc_off < m->b[i].mc_off + m->b[i].size)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "gpu%d already has memory bound in "
					  "[%zu, +%zu)", *dev, mc_off, size);
	return CUDA_SUCCESS;
}

CUresult cuemu_mc_bind(CUmemGenericAllocationHandle h, size_t mc_off,
		       CUmemGenericAllocationHandle mem, size_t mem_off,
		       size_t size)
{
	struct mc *m = mc_get((uint64_t)h);
	struct cuemu_mc_binding *nb;
	CUresult r;
	int dev = -1;

	if (!m)
		return not_mc(h);
	if ((r = check_range(m, mc_off, size)) ||
	    (r = check_mem(m, mem, mem_off, mc_off, size, &dev)) ||
	    (r = team_complete(m)))
		return r;
	if (m->nb == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 4;

		if (!(nb = realloc(m->b, cap * sizeof *nb)))
			return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "no memory");
		m->b = nb;
		m->cap = cap;
	}
	m->b[m->nb++] = (struct cuemu_mc_binding){ dev, mc_off, size,
						   (uint64_t)mem, mem_off };
	cuemu_vmm_handle_hold(mem, true);
	cuemu_obj_changed(m->id);
	cuemu_event_log("multicast_bind", "id=%llu device=gpu%d offset=%zu "
			"size=%zu handle=%llu", (unsigned long long)m->id, dev,
			mc_off, size, (unsigned long long)mem);
	return CUDA_SUCCESS;
}

CUresult cuemu_mc_bind_addr(CUmemGenericAllocationHandle h, size_t mc_off,
			    uintptr_t p, size_t size)
{
	struct cuemu_map_info mi;

	if (!mc_get((uint64_t)h))
		return not_mc(h);
	if (!cuemu_vmm_lookup(p, -1, &mi) || mi.multicast ||
	    p + size < p || p + size > mi.map_base + mi.map_size)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "[%#lx, +%zu) is not inside one mapping of "
				  "cuMemCreate memory", (unsigned long)p, size);
	return cuemu_mc_bind(h, mc_off, (CUmemGenericAllocationHandle)
			     mi.handle_id, mi.map_offset + (p - mi.map_base),
			     size);
}

static void unbind_at(struct mc *m, size_t i)
{
	uint64_t mem = m->b[i].mem;

	memmove(&m->b[i], &m->b[i + 1], (m->nb - i - 1) * sizeof *m->b);
	m->nb--;
	cuemu_obj_changed(m->id);
	cuemu_vmm_handle_hold((CUmemGenericAllocationHandle)mem, false);
}

CUresult cuemu_mc_unbind(CUmemGenericAllocationHandle h, int dev,
			 size_t mc_off, size_t size)
{
	struct mc *m = mc_get((uint64_t)h);
	CUresult r;

	if (!m)
		return not_mc(h);
	if ((r = check_range(m, mc_off, size)))
		return r;
	if (!(m->added & ((cuemu_procmask)1 << dev)))
		return cuemu_fail(CUDA_ERROR_INVALID_DEVICE,
				  "gpu%d is not in multicast object %llu", dev,
				  (unsigned long long)m->id);
	for (size_t i = 0; i < m->nb; i++) {
		if (m->b[i].dev != dev || m->b[i].mc_off != mc_off ||
		    m->b[i].size != size)
			continue;
		unbind_at(m, i);
		cuemu_event_log("multicast_unbind", "id=%llu device=gpu%d "
				"offset=%zu size=%zu",
				(unsigned long long)m->id, dev, mc_off, size);
		return CUDA_SUCCESS;
	}
	return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			  "gpu%d has nothing bound at [%zu, +%zu) of "
			  "multicast object %llu", dev, mc_off, size,
			  (unsigned long long)m->id);
}

/* vmm.c says the object's handle is going: its bindings let go of their
 * memory. */
static void forget(uint64_t id)
{
	struct mc *m = mc_get(id);

	if (!m)
		return;
	RB_REMOVE(mc_tree, &objects, m);
	while (m->nb)
		unbind_at(m, m->nb - 1);
	free(m->b);
	free(m);
	cuemu_event_log("multicast_free", "id=%llu", (unsigned long long)id);
}

/* Writes [src, +len) at object offset off to every binding there. */
static void pass_on(const struct mc *m, size_t off, const char *src,
		    size_t len)
{
	struct cuemu_handle_info hi;

	for (size_t i = 0; i < m->nb; i++) {
		const struct cuemu_mc_binding *b = &m->b[i];
		size_t lo = off > b->mc_off ? off : b->mc_off;
		size_t hi_end = off + len < b->mc_off + b->size ?
				off + len : b->mc_off + b->size;

		if (lo >= hi_end || !cuemu_vmm_handle_info(b->mem, &hi))
			continue;
		if (pwrite(hi.fd, src + (lo - off), hi_end - lo,
			   (off_t)(b->mem_off + (lo - b->mc_off))) < 0)
			cuemu_debug("multicast store to handle %llu failed",
				    (unsigned long long)b->mem);
	}
}

void cuemu_mc_fanout(uintptr_t p, size_t n)
{
	struct cuemu_map_info mi;
	uintptr_t at = p, end = p + n;

	cuemu_lock();
	while (at < end && cuemu_vmm_lookup(at, -1, &mi)) {
		uintptr_t stop = mi.map_base + mi.map_size;
		struct mc *m = mi.multicast ? mc_get(mi.handle_id) : NULL;

		if (stop > end)
			stop = end;
		if (m)
			pass_on(m, mi.map_offset + (at - mi.map_base),
				(const char *)at, stop - at);
		at = stop;
	}
	cuemu_unlock();
}

uint64_t cuemu_mc_next(uint64_t id)
{
	struct mc key = { .id = id }, *m = RB_NFIND(mc_tree, &objects, &key);

	if (m && m->id == id)
		m = RB_NEXT(mc_tree, &objects, m);
	return m ? m->id : 0;
}

bool cuemu_mc_view(uint64_t id, struct cuemu_mc_view *v)
{
	struct mc *m = mc_get(id);

	if (!m)
		return false;
	v->id = m->id;
	v->size = m->size;
	v->ndevices = m->ndevices;
	v->devices = m->added;
	v->handle_types = m->types;
	v->nbind = m->nb;
	v->bind = m->b;
	return true;
}
