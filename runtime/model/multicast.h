/*
 * multicast.h - multicast objects (model/multicast.c): their teams of
 * devices, the memory bound to them per device, and what a store through
 * a mapping of one does. The cuMulticast* entries (driver/multicast.c)
 * check arguments and call these; vmm.c holds the object's handle and asks
 * before mapping it; copy.c passes a store on; /cu/multicast (outward/
 * ctl_multicast.c) reads the views.
 *
 * Locking: every function runs with cuemu_lock() held, except
 * cuemu_mc_fanout, which takes it.
 */
#ifndef CUEMU_MODEL_MULTICAST_H
#define CUEMU_MODEL_MULTICAST_H

#include "model/internal.h"

/* The multicast granularities: the minimum (the VMM granularity) and the
 * recommended one, as two H100s gave them (probes/results/mcgran.txt):
 * the minimum for an object of up to the minimum, else 512 MiB. */
#define CUEMU_MC_GRAN_MIN CUEMU_GRANULARITY
#define CUEMU_MC_GRAN_REC (512UL << 20)

/* Every device of the machine supports multicast (its attribute). */
bool cuemu_mc_supported(void);

CUresult cuemu_mc_create(const CUmulticastObjectProp *prop,
			 CUmemGenericAllocationHandle *out);
CUresult cuemu_mc_add_device(CUmemGenericAllocationHandle mc, int dev);
/* Binds [mem_off, +size) of the VMM handle mem at mc_off. */
CUresult cuemu_mc_bind(CUmemGenericAllocationHandle mc, size_t mc_off,
		       CUmemGenericAllocationHandle mem, size_t mem_off,
		       size_t size);
/* The mapping at p, [p, +size), names the memory to bind. */
CUresult cuemu_mc_bind_addr(CUmemGenericAllocationHandle mc, size_t mc_off,
			    uintptr_t p, size_t size);
CUresult cuemu_mc_unbind(CUmemGenericAllocationHandle mc, int dev,
			 size_t mc_off, size_t size);

/* copy.c: [p, +n), just written through a multicast mapping, reaches the
 * memory bound at those offsets on every device. Takes the lock. */
void cuemu_mc_fanout(uintptr_t p, size_t n);

/* /cu: the objects in id order (the first id after id; 0 after the
 * last), and one object. */
uint64_t cuemu_mc_next(uint64_t id);
struct cuemu_mc_binding {
	int dev;
	size_t mc_off, size;
	uint64_t mem;
	size_t mem_off;
};
struct cuemu_mc_view {
	uint64_t id;
	size_t size;
	unsigned ndevices;             /* the team's size */
	cuemu_procmask devices;        /* those added, a mask */
	unsigned long long handle_types;
	size_t nbind;
	const struct cuemu_mc_binding *bind;
};
bool cuemu_mc_view(uint64_t id, struct cuemu_mc_view *v);

#endif
