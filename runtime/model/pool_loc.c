/*
 * pool_loc.c - each location's pools (CUDA 13: cuMemGetDefaultMemPool,
 * cuMemGetMemPool, cuMemSetMemPool): for pinned memory, a device (the
 * pools pool.c keeps for cuDeviceGet/SetMemPool, one setting for both
 * APIs), the host and each host NUMA node; for managed memory, a device,
 * the host, each NUMA node and no location at all (NONE). Every one of
 * them has a default pool of its own, made on first use, that cannot be
 * destroyed (probes/results/batch.txt: all are distinct pools), and a
 * current pool, the default until set. A current pool that is destroyed
 * reads as the default again.
 *
 * Locking: cuemu_lock() held by every caller (model/pool.h).
 */
#include "model/pool_impl.h"

/* One location and type's pools: the default, and the id of the current
 * one (0: the default). Ids are never reused, so a destroyed pool is
 * never mistaken for a new one at the same address. */
struct slot {
	bool used;
	CUmemLocation loc;
	CUmemAllocationType type;
	CUmemoryPool dflt;
	uint64_t cur;
};

/* The process's location pools, as pool.c's default pools are the
 * process's: every location and type at most once. Guarded by
 * cuemu_lock(). */
#define NSLOTS (2 * (CUEMU_MAX_DEVICES + CUEMU_NUMA_LIMIT + 2))
static struct slot slots[NSLOTS];
/* Slots at and past this one were never used: a lookup costs the pools
 * the process made, not every location the machine could have. */
static size_t slots_seen;

static bool pinned_device(const CUmemLocation *loc, CUmemAllocationType type)
{
	return type == CU_MEM_ALLOCATION_TYPE_PINNED &&
	       loc->type == CU_MEM_LOCATION_TYPE_DEVICE;
}

/* The location as a key: the host and NONE have no id. */
static CUmemLocation key(const CUmemLocation *loc)
{
	CUmemLocation k = *loc;

	if (k.type == CU_MEM_LOCATION_TYPE_HOST ||
	    k.type == CU_MEM_LOCATION_TYPE_NONE)
		k.id = 0;
	return k;
}

static struct slot *slot_of(const CUmemLocation *loc, CUmemAllocationType type)
{
	CUmemLocation k = key(loc);
	struct slot *free_slot = NULL;

	for (size_t i = 0; i < slots_seen; i++) {
		struct slot *s = &slots[i];

		if (!s->used) {
			if (!free_slot)
				free_slot = s;
			continue;
		}
		if (s->type == type && s->loc.type == k.type && s->loc.id == k.id)
			return s;
	}
	if (!free_slot && slots_seen < NSLOTS)
		free_slot = &slots[slots_seen++];
	if (free_slot) {
		free_slot->used = true;
		free_slot->loc = k;
		free_slot->type = type;
	}
	return free_slot;
}

CUresult cuemu_pool_loc_default(const CUmemLocation *loc,
				CUmemAllocationType type, CUmemoryPool *out)
{
	CUmemPoolProps props = { .allocType = type };
	struct slot *s;
	CUresult r;

	if (pinned_device(loc, type))
		return cuemu_pool_default(loc->id, out);
	if (!(s = slot_of(loc, type)))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "no room for a pool");
	if (!s->dflt) {
		props.location = s->loc;
		if ((r = cuemu_pool_create_default(&props, &s->dflt)))
			return r;
	}
	*out = s->dflt;
	return CUDA_SUCCESS;
}

CUresult cuemu_pool_loc_current(const CUmemLocation *loc,
				CUmemAllocationType type, CUmemoryPool *out)
{
	struct slot *s;
	CUmemoryPool p;

	if (pinned_device(loc, type))
		return cuemu_pool_current(loc->id, out);
	s = slot_of(loc, type);
	if (s && s->cur && (p = cuemu_pool_by_id(s->cur))) {
		*out = p;
		return CUDA_SUCCESS;
	}
	return cuemu_pool_loc_default(loc, type, out);
}

void cuemu_pool_loc_set(const CUmemLocation *loc, CUmemAllocationType type,
			CUmemoryPool p)
{
	struct slot *s;

	if (pinned_device(loc, type)) {
		cuemu_pool_set_current(loc->id, p);
		return;
	}
	if ((s = slot_of(loc, type)))
		s->cur = p->is_default ? 0 : p->id;
	cuemu_obj_changed(p->id);
}

bool cuemu_pool_loc_fits(CUmemoryPool p, const CUmemLocation *loc,
			 CUmemAllocationType type)
{
	CUmemLocation a = key(&p->props.location), b = key(loc);

	return p->props.allocType == type && a.type == b.type && a.id == b.id;
}
