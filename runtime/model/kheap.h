/*
 * kheap.h - the device heap of a context (kheap.c): what kernels' malloc
 * and free draw from, one device allocation made at the first launch that
 * uses it.
 */
#ifndef CUEMU_MODEL_KHEAP_H
#define CUEMU_MODEL_KHEAP_H

#include "model/internal.h"

struct cuemu_kheap;

/* ctx's heap, made now (CU_LIMIT_MALLOC_HEAP_SIZE bytes of dev's memory)
 * where this life of the context has none; OUT_OF_MEMORY with a message
 * where the device cannot hold it. Takes the process lock; call without
 * it. */
CUresult cuemu_kheap_get(CUcontext ctx, int dev, struct cuemu_kheap **out);
/* Whether ctx's heap is made, so that its size can no longer change. */
bool cuemu_kheap_fixed(CUcontext ctx);
/* Forgets ctx's heap (a context destroyed or reset), its memory freed
 * where free_memory and the context's life is still the heap's. Call with
 * no launch running in ctx, without the process lock. */
void cuemu_kheap_forget(CUcontext ctx, bool free_memory);
/* A block of size bytes, 16-byte aligned: its address, or 0 where no free
 * run holds it. Any thread. */
uint64_t cuemu_kheap_malloc(struct cuemu_kheap *h, uint64_t size);
/* Frees the block at addr; an address no block starts at is ignored. */
void cuemu_kheap_free(struct cuemu_kheap *h, uint64_t addr);

#endif
