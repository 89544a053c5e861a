/*
 * vmm.h - virtual memory management's model (model/vmm.c): address
 * reservations, physical handles, the mappings of handles into
 * reservations with their access per location, and shareable handles. The
 * entries of driver/vmm.c check their arguments and call it; /cu/reservations
 * and /cu/handles (outward/ctl_vmm.c) read it; pointer.c, memory.c and
 * copy.c ask it about a mapped address (cuemu_vmm_lookup).
 *
 * Locking: every function here runs with cuemu_lock() held. Those that
 * take a handle or an address find it themselves and answer the driver's
 * code when it is not there.
 */
#ifndef CUEMU_MODEL_VMM_H
#define CUEMU_MODEL_VMM_H

#include "model/internal.h"

/* ---------------------------------------------------------------- handles */

/* A handle of size bytes (a non-zero multiple of the granularity) with
 * properties the caller checked; OUT_OF_MEMORY when the location cannot
 * hold it. */
CUresult cuemu_vmm_create(const CUmemAllocationProp *prop, size_t size,
			  CUmemGenericAllocationHandle *out);
/* Drops one reference; the memory goes once no reference or mapping is
 * left. */
CUresult cuemu_vmm_release(CUmemGenericAllocationHandle handle);
CUresult cuemu_vmm_prop(CUmemGenericAllocationHandle handle,
			CUmemAllocationProp *prop);
/* A new reference to the handle mapped at addr. */
CUresult cuemu_vmm_retain(uintptr_t addr, CUmemGenericAllocationHandle *out);
/* A new descriptor of the handle's memory (the one type emulated). */
CUresult cuemu_vmm_export(CUmemGenericAllocationHandle handle,
			  CUmemAllocationHandleType type, int *fd);
/* A handle of its own over an exported descriptor; UNKNOWN when fd is not
 * one. */
CUresult cuemu_vmm_import(int fd, CUmemGenericAllocationHandle *out);

/* ---------------------------------------------------------------- reservations */

/* size bytes of address space aligned to align (both multiples of the
 * granularity), at hint when that range is free. */
CUresult cuemu_vmm_reserve(size_t size, size_t align, uintptr_t hint,
			   CUdeviceptr *out);
CUresult cuemu_vmm_address_free(uintptr_t p, size_t size);
/* Maps [offset, offset+size) of the handle at p (checked for granularity
 * by the caller). */
CUresult cuemu_vmm_map(uintptr_t p, size_t size, size_t offset,
		       CUmemGenericAllocationHandle handle);
CUresult cuemu_vmm_unmap(uintptr_t p, size_t size);
CUresult cuemu_vmm_set_access(uintptr_t p, size_t size,
			      const CUmemAccessDesc *desc, size_t count);
CUresult cuemu_vmm_get_access(uintptr_t p, const CUmemLocation *l,
			      unsigned long long *flags);

/* What pointer.c needs to answer the pointer attributes of a mapped
 * address of a reservation. false when p is not mapped. */
struct cuemu_map_info {
	uintptr_t resv_base;    /* the reservation */
	size_t resv_size;
	uintptr_t map_base;     /* the one cuMemMap that covers p */
	size_t map_size;
	uint64_t handle_id;     /* CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID */
	uint64_t buffer_id;     /* CU_POINTER_ATTRIBUTE_BUFFER_ID: the mapping's */
	CUmemLocation loc;      /* where the physical memory lives */
	unsigned long long handle_types; /* CUmemAllocationHandleType mask */
	CUmemAccess_flags access; /* for the location asking (see vmm.c) */
	CUmemAccess_flags host_access; /* given to the host (HOST or HOST_NUMA) */
	size_t map_offset;      /* where in the handle the mapping starts */
	bool multicast;         /* the handle is a multicast object */
};
bool cuemu_vmm_lookup(uintptr_t p, int dev, struct cuemu_map_info *out);

/* ---------------------------------------------------------------- multicast */

/* A multicast object's handle: its own memfd of size bytes (what a store
 * through a mapping of it writes, before multicast.c passes it on to the
 * bound memory), no memory charged. */
struct cuemu_mc_hooks {
	/* CUDA_SUCCESS when the object may be mapped now. Lock held. */
	CUresult (*check_map)(uint64_t id);
	/* The object's handle is gone: its team and bindings go. Lock
	 * held. */
	void (*forget)(uint64_t id);
};
/* hooks are what vmm.c asks of the object's owner (multicast.c), passed
 * here so that the handles need not know of teams and bindings; they must
 * outlive the handle. */
CUresult cuemu_vmm_create_multicast(size_t size, unsigned long long types,
				    const struct cuemu_mc_hooks *hooks,
				    CUmemGenericAllocationHandle *out);
struct cuemu_handle_info {
	size_t size;
	CUmemLocation loc;
	unsigned long long handle_types;
	bool multicast;
	int fd;                 /* its memfd, for multicast.c's writes */
};
/* false when handle is not live. */
bool cuemu_vmm_handle_info(CUmemGenericAllocationHandle handle,
			   struct cuemu_handle_info *out);
/* A reference a binding holds on bound memory (hold), or gives back. */
void cuemu_vmm_handle_hold(CUmemGenericAllocationHandle handle, bool hold);

/* ---------------------------------------------------------------- /cu */

struct cuemu_resv;

/* The reservation behind an address-map entry, or NULL for another kind. */
struct cuemu_resv *cuemu_vmm_resv_of(struct cuemu_alloc *a);
struct cuemu_resv *cuemu_vmm_resv_by_id(uint64_t id);

struct cuemu_resv_view {
	uint64_t id;
	uintptr_t base;
	size_t size, align;
	size_t nmaps;            /* its mappings, by address */
};
void cuemu_vmm_resv_view(const struct cuemu_resv *r, struct cuemu_resv_view *v);

struct cuemu_mapping_view {
	uintptr_t base;
	size_t size;
	uint64_t handle;
	uint8_t access[CUEMU_NPROC]; /* CUmemAccess_flags per processor */
};
/* Mapping i (< nmaps) of r. */
void cuemu_vmm_mapping_view(const struct cuemu_resv *r, size_t i,
			    struct cuemu_mapping_view *v);

/* The handles in id order: the first id after id (0 gives the first), or
 * 0 after the last. */
uint64_t cuemu_vmm_handle_next(uint64_t id);

struct cuemu_handle_view {
	uint64_t id;
	size_t size;
	CUmemLocation loc;
	unsigned long long handle_types;
	unsigned refs, maps;
	bool exported, imported;
};
/* false when there is no handle id. */
bool cuemu_vmm_handle_view(uint64_t id, struct cuemu_handle_view *v);

#endif
