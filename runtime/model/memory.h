/*
 * memory.h - the allocations of the process and the address map that holds
 * them: the kinds of memory, struct cuemu_alloc (the one record every
 * family's allocation, registration and reservation is), the address map
 * (vaspace.c), and the life of device, pinned and registered memory
 * (memory.c). The managed, pool and VMM families make and keep their own
 * entries in the same map.
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
	CUEMU_KIND_IPC,         /* cuIpcOpenMemHandle: another process's */
	CUEMU_KIND_SYSTEM,      /* malloc/mmap memory on a pageable machine */
};
/* The word /cu and the event log show for each kind (vaspace.c). */
extern const char *const cuemu_kind_names[];

/* The longest label, in bytes of UTF-8, without its NUL. */
#define CUEMU_LABEL_MAX 63

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
	char label[CUEMU_LABEL_MAX + 1]; /* cuemuSetLabel, shown in /cu */
	void *priv;              /* the owning subsystem's state */
	/* Device memory (model/ipc.c): where in the process's device memory
	 * file of its device it lives, the file's epoch (a forked child has
	 * files of its own), and whether a handle to it went out. */
	uint64_t file_off;
	uint32_t file_epoch;
	uint32_t ipc_slot;       /* its shared slot once exported (ipc.c) */
	bool ipc_exported;
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
/* A /cu write runs its calls expecting allocation id (0: none) on this
 * thread; the lookup of the allocation a call acts on then answers
 * CUDA_ERROR_NOT_FOUND for any other (cuemu_va_check_expected). */
void cuemu_va_expect(uint64_t id);
CUresult cuemu_va_check_expected(const struct cuemu_alloc *a);
/* In-order iteration by address. */
struct cuemu_alloc *cuemu_va_first(void);
struct cuemu_alloc *cuemu_va_next(struct cuemu_alloc *a);
size_t cuemu_va_count(void);
/* System-allocated memory tracked on a pageable machine (kind SYSTEM):
 * not in the address map above, in one of its own, found by id too. */
int cuemu_sys_insert(struct cuemu_alloc *a); /* -1: overlaps anything */
void cuemu_sys_remove(struct cuemu_alloc *a);
struct cuemu_alloc *cuemu_sys_find(uintptr_t p);
struct cuemu_alloc *cuemu_sys_overlap(uintptr_t p, size_t len);
struct cuemu_alloc *cuemu_sys_first(void);
struct cuemu_alloc *cuemu_sys_next(struct cuemu_alloc *a);
/* Kinds whose residency the range model tracks (managed.h). */
static inline bool cuemu_kind_ranged(enum cuemu_kind k)
{
	return k == CUEMU_KIND_MANAGED || k == CUEMU_KIND_SYSTEM;
}

/* ------------------------------------------------------------------ */
/* Device, pinned and registered memory (memory.c). The driver entries
 * check the arguments and find the current context (ctx, dev); these do
 * the work. Each fails with a message in cuemu_errmsg().               */

/* Maps size (> 0) bytes of device memory of dev, charged against its
 * capacity, and publishes it. Takes the lock. */
CUresult cuemu_device_alloc(CUcontext ctx, int dev, size_t size,
                            CUdeviceptr *dptr);
/* The pitch of rows of width bytes (both > 0) and the bytes of height of
 * them; OUT_OF_MEMORY when they overflow. */
CUresult cuemu_pitch_layout(size_t width, size_t height, size_t *pitch,
                            size_t *total);
/* Frees the allocation that starts at p (not 0) through the free path of
 * its kind: device memory here, managed memory in managed.c, a pool block
 * in pool.c. Waits for every stream first. Takes the lock. */
CUresult cuemu_device_free(uintptr_t p);

/* Maps size (> 0) bytes of pinned host memory near dev, locked when the
 * limits allow, and publishes it. flags: CU_MEMHOSTALLOC_*, checked by the
 * caller. Takes the lock. */
CUresult cuemu_host_alloc(CUcontext ctx, int dev, size_t size,
                          unsigned flags, void **pp);
/* Frees the pinned allocation that starts at p (not NULL), after every
 * stream. Takes the lock. */
CUresult cuemu_host_free(void *p);
/* The pinned or registered entry containing p, or NULL. Lock held. */
struct cuemu_alloc *cuemu_host_entry(uintptr_t p);

/* Every page of [lo, hi) is mapped in the process, and writable unless
 * read_only. No lock needed. */
bool cuemu_host_range_usable(uintptr_t lo, uintptr_t hi, bool read_only);
/* Records [p, p+size) (checked by the caller) as registered by ctx of
 * dev, unless it overlaps memory the map knows. Takes the lock. */
CUresult cuemu_host_register(CUcontext ctx, int dev, uintptr_t p,
                             size_t size, unsigned flags);
/* Forgets the registration that starts at p (not NULL), after every
 * stream. Takes the lock. */
CUresult cuemu_host_unregister(uintptr_t p);
/* Frees every device, pinned, registered and managed allocation made in
 * ctx (a primary context's reset); how many went. Lock not held. */
size_t cuemu_ctx_free_memory(CUcontext ctx);

/* The range cuMemGetAddressRange answers for p, dev asking: the
 * allocation, or the one mapping of a reservation, that contains it;
 * false when there is none. Lock held. */
bool cuemu_address_range(uintptr_t p, int dev, uintptr_t *base,
                         size_t *size);
/* Names the allocation containing p with label (one line, checked by the
 * caller; a newline at its end is dropped); false when p is in none. Lock
 * held. */
bool cuemu_alloc_set_label(uintptr_t p, const char *label);
/* The word for a's owning device ("gpu1", or "cpu" for the host). */
const char *cuemu_alloc_device_str(const struct cuemu_alloc *a, char *buf,
                                   size_t len);

#endif
