/*
 * ipc.h - device memory that other processes can reach (model/ipc.c): the
 * process's device memory files (devmem.c), legacy IPC handles of device memory and
 * their opening in another process, and the shared state of interprocess
 * events. The driver's cuIpc* entries (driver/ipc.c) check arguments and
 * call these; memory.c maps device memory through cuemu_devmem_*; event.c
 * keeps an interprocess event's state in a cuemu_evshare.
 *
 * Locking: the device memory files have a leaf lock of their own (taken
 * under or without the process lock); the IPC handle functions take the
 * process lock themselves unless they say otherwise.
 */
#ifndef CUEMU_MODEL_IPC_H
#define CUEMU_MODEL_IPC_H

#include "model/internal.h"

/* ---------------------------------------------------------- device memory */

/* Maps size bytes of device memory of dev of this process (devheap.c):
 * packed into a shared 2 MiB block when small, else a mapping of its own;
 * *addr, *off (in the device's file) and *epoch say where. -1 with errno
 * when the file or the mapping cannot be made. No lock needed. */
int cuemu_devmem_map(int dev, size_t size, void **addr, uint64_t *off,
		     uint32_t *epoch);
/* Gives a's memory back, unless a handle to it went out (an importer may
 * still map it; its pages stay). true when another process maps it
 * still: the device's memory is then given back by the last of them to
 * close it, and the caller gives back only its own share
 * (cuemu_mem_uncharge_part). */
bool cuemu_devmem_release(const struct cuemu_alloc *a);
/* What an allocation of size bytes is charged on its device: the request
 * rounded up to the host page, packed or not. */
size_t cuemu_devmem_charge(size_t size);   /* devmem.c */

/* devheap.c: the placement of device memory. Packed allocations are
 * CUEMU_DEVMEM_ALIGN aligned and rounded; cuemu_devheap_span is the bytes
 * an allocation of size covers in the address map. */
#define CUEMU_DEVMEM_ALIGN 512UL
bool cuemu_devheap_packs(size_t size);
size_t cuemu_devheap_span(size_t size);
/* Whether a's bytes up to p + len lie in one run of the file from
 * a->file_off on (false where a freed neighbour's pages moved, devheap.c:
 * its importer keeps the old ones). */
bool cuemu_devheap_linear(const struct cuemu_alloc *a, uintptr_t p,
			  size_t len);
/* Address space for span bytes, 2 MiB aligned from 2 MiB up, PROT_NONE;
 * NULL when there is none (the caller maps anywhere). */
void *cuemu_devheap_place(size_t span);
/* Gives a's place back (mine: it is in this process's file, not a forked
 * parent's; keep: its pages stay, as an importer may map them). */
void cuemu_devheap_free(const struct cuemu_alloc *a, bool mine, bool keep);
/* The mapping a lies in (CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR, _SIZE,
 * MEMORY_BLOCK_ID): its 2 MiB block, or its own mapping rounded up to
 * 2 MiB. */
void cuemu_devheap_mapping(const struct cuemu_alloc *a, uintptr_t *base,
			   size_t *size, uint64_t *block_id);

/* devmem.c: the device memory files. A fresh range of len bytes of dev's
 * file (*off), and the file's descriptor; -1 with errno. */
int cuemu_devmem_file(int dev, uint64_t len, uint64_t *off);
/* Punches [off, off+len) of dev's file out: the pages go back. */
void cuemu_devmem_punch(int dev, uint64_t off, uint64_t len);
/* The files' epoch: a forked child's files are new. */
uint32_t cuemu_devmem_epoch(void);
/* The descriptor of dev's file (for a dma-buf over it), or -1. */
int cuemu_devmem_fd(int dev);

/* ------------------------------------------------------- legacy IPC */

/* The handle of the device allocation containing p (the same for every
 * address in it). INVALID_VALUE for any other memory. Lock held. */
CUresult cuemu_ipc_mem_get(uintptr_t p, CUipcMemHandle *out);
/* The handle cuemu_ipc_mem_get gave for p before, if it still holds:
 * true with *out filled. Takes no lock (a miss asks cuemu_ipc_mem_get). */
bool cuemu_ipc_mem_get_known(uintptr_t p, CUipcMemHandle *out);
/* Opens a handle of another process in ctx: the mapping already open here
 * with one more reference, or what the exporter has at the handle's
 * address now, mapped. INVALID_VALUE for a handle that is none or whose
 * memory was freed, INVALID_CONTEXT for this process's own,
 * INVALID_HANDLE when the exporter is gone. Takes the lock. */
CUresult cuemu_ipc_mem_open(const CUipcMemHandle *h, CUcontext ctx,
			    CUdeviceptr *out);
/* Drops one reference of the opened mapping at p; the last unmaps it.
 * Takes the lock. */
CUresult cuemu_ipc_mem_close(uintptr_t p);
/* What /cu and the pointer attributes show of an opened mapping: the
 * exporting process, its allocation id, the references. Lock held. */
struct cuemu_ipc_view {
	pid_t exporter;
	uint64_t exporter_id;
	unsigned refs;
	uintptr_t map_base;     /* the mapping it lies in: the exporter's */
	size_t map_size;        /* block for a packed allocation */
};
bool cuemu_ipc_view(const struct cuemu_alloc *a, struct cuemu_ipc_view *v);

/* -------------------------------------------------- interprocess events */

/* An interprocess event's state, shared by every process that has it:
 * the records asked for and the newest one reached (monotonic). */
struct cuemu_evshare {
	uint64_t recorded;
	uint64_t done;
};

/* A slot of this process's event file for a new exported event, and the
 * handle naming it. No lock needed. */
CUresult cuemu_evshare_new(struct cuemu_evshare **out, CUipcEventHandle *h);
/* Maps the slot a handle of another process names; MAP_FAILED for a
 * handle that is none, INVALID_CONTEXT for one of this process. */
CUresult cuemu_evshare_open(const CUipcEventHandle *h,
			    struct cuemu_evshare **out);
/* Unmaps a slot cuemu_evshare_open mapped. */
void cuemu_evshare_close(struct cuemu_evshare *s);

/* ---------------------------------------------------------------- dma-buf */

/* The machine can make a dma-buf: /dev/udmabuf opens, or a memfd opens
 * again through /proc/self/fd. */
bool cuemu_dmabuf_available(void);
/* A dma-buf of [p, +size) (page aligned, checked by the caller) of device
 * memory: a udmabuf, or else the memfd behind it opened anew with its file
 * position at the range (mapping the descriptor at that offset maps the
 * range; a udmabuf's position is 0). INVALID_VALUE when the range is not
 * inside one allocation of it, NOT_SUPPORTED where the machine can make
 * neither. Lock held. */
CUresult cuemu_dmabuf_get(uintptr_t p, size_t size, int *fd);

#endif
