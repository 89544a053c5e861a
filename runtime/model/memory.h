/*
 * memory.h - the allocations of the process and the address map that holds
 * them: the kinds of memory, struct cuemu_alloc (the one record every
 * family's allocation, registration and reservation is) and the address
 * map (vaspace.c). Every family makes and keeps its own entries in it.
 *
 * Locking: the address map and every struct cuemu_alloc are guarded by
 * cuemu_lock() (model/internal.h); each function says whether it expects
 * the lock held or takes it itself.
 */
#ifndef CUEMU_MEMORY_H
#define CUEMU_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sys/tree.h> /* libbsd's red-black trees */

#include "cuda.h"

/* ------------------------------------------------------------------ */
/* Allocations                                                          */

enum cuemu_kind {
	CUEMU_KIND_DEVICE,      /* cuMemAlloc, cuMemAllocPitch */
	CUEMU_KIND_HOST,        /* cuMemAllocHost, cuMemHostAlloc */
	CUEMU_KIND_REGISTERED,  /* cuMemHostRegister */
	CUEMU_KIND_MANAGED,     /* cuMemAllocManaged */
	CUEMU_KIND_POOL,        /* cuMemAllocAsync and friends: one block */
	CUEMU_KIND_RESERVATION, /* cuMemAddressReserve */
};
/* The word /cu and the event log show for each kind (vaspace.c). */
extern const char *const cuemu_kind_names[];

struct cuemu_alloc {
	RB_ENTRY(cuemu_alloc) va_node; /* address index (vaspace.c) */
	RB_ENTRY(cuemu_alloc) id_node; /* id index (vaspace.c) */

	uintptr_t base;
	size_t size;             /* bytes the caller asked for */
	size_t span;             /* bytes the map covers (size rounded to pages) */
	enum cuemu_kind kind;
	uint64_t id;             /* machine-unique; CU_POINTER_ATTRIBUTE_BUFFER_ID */
	int device;              /* owning device, or CU_DEVICE_CPU */
	unsigned int flags;      /* the flags the allocating call took */
	CUcontext ctx;   /* context it was made in */
	bool sync_memops;        /* CU_POINTER_ATTRIBUTE_SYNC_MEMOPS */
	char label[64];          /* cuemuSetLabel, shown in /cu */
	void *priv;              /* the owning subsystem's state */
};

/* ------------------------------------------------------------------ */
/* The address map (vaspace.c): every allocation, registration and
 * reservation of the process, ordered by address; O(log n) lookups.
 * Lock held for every call.                                            */

/* Inserts a; fails (returns -1) if [base, base+span) overlaps an entry. */
int cuemu_va_insert(struct cuemu_alloc *a);
void cuemu_va_remove(struct cuemu_alloc *a);
/* The entry whose [base, base+span) contains p, or NULL. */
struct cuemu_alloc *cuemu_va_find(uintptr_t p);
/* The first entry that overlaps [p, p+len), or NULL. */
struct cuemu_alloc *cuemu_va_overlap(uintptr_t p, size_t len);
struct cuemu_alloc *cuemu_va_by_id(uint64_t id);
/* In-order iteration by address. */
struct cuemu_alloc *cuemu_va_first(void);
struct cuemu_alloc *cuemu_va_next(struct cuemu_alloc *a);
size_t cuemu_va_count(void);

#endif
