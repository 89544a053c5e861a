/*
 * kheap.c - the device heap: the memory kernels' malloc and free (and C++
 * new and delete, which lower to them) draw from. A context has one, made
 * at the first launch of a kernel that calls either, of the size
 * CU_LIMIT_MALLOC_HEAP_SIZE had then; from that launch on the limit is
 * fixed (cuCtxSetLimit answers INVALID_VALUE, as an H200 does:
 * probes/results/heap.txt). The heap is one device allocation of the
 * context (cuemu_device_alloc: charged to the device, in the address map
 * the engine's pages are checked against, shown by /cu), carved here:
 * each block takes its size rounded up to 16 bytes and 16 bytes more (an
 * H200's heap fits no allocation of its whole size, and one of half of it
 * once), 16-byte aligned, none at the allocation's base (cuMemFree of a
 * block is INVALID_VALUE, as on the device); malloc(0) is a block too. A
 * request no free run holds answers 0. Any kernel may free any kernel's
 * block; an address that is no block's start is ignored.
 *
 * The free runs are a sorted array (by offset, neighbours joined), the
 * live blocks another (by offset, for free's lookup): first fit, O(n) in
 * the runs and blocks, which a kernel's heap keeps in the thousands.
 * The bookkeeping lies outside the heap, so a kernel's stray store cannot
 * corrupt it.
 *
 * Locking: heaps_lock (a leaf) guards the list of heaps and each heap's
 * arrays; malloc and free come from any of a launch's threads at once.
 * cuemu_device_alloc and cuemu_device_free take the process lock, never
 * under heaps_lock.
 */
#include "model/kheap.h"
#include "model/context.h"
#include "model/memory.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define KH_ALIGN 16u
#define KH_OVERHEAD 16u   /* what each block costs beyond its size */

struct run { uint64_t off, len; };

struct cuemu_kheap {
	CUcontext ctx;
	uint64_t ctx_id;          /* the context's life this heap is of */
	uint64_t base, size;
	struct run *free_runs;    /* by offset, disjoint, not touching */
	size_t nfree, capfree;
	struct run *live;         /* by offset */
	size_t nlive, caplive;
	struct cuemu_kheap *next;
};

/* The process's heaps, one per context that launched a kernel using one.
 * Global because a context's heap outlives any one call, and contexts
 * carry no slot for it; guarded by heaps_lock. */
static struct cuemu_kheap *heaps;
static pthread_mutex_t heaps_lock = PTHREAD_MUTEX_INITIALIZER;

/* The heap of ctx's current life, or NULL. heaps_lock held. */
static struct cuemu_kheap *find(CUcontext ctx)
{
	uint64_t id = cuemu_ctx_id(ctx);

	for (struct cuemu_kheap *h = heaps; h; h = h->next)
		if (h->ctx == ctx && h->ctx_id == id)
			return h;
	return NULL;
}

static bool grow(struct run **a, size_t n, size_t *cap)
{
	struct run *p;
	size_t c = *cap ? *cap * 2 : 64;

	if (n < *cap)
		return true;
	if (!(p = realloc(*a, c * sizeof *p)))
		return false;
	*a = p;
	*cap = c;
	return true;
}

/* The index of the first run of a (n of them) at or past off. */
static size_t lower(const struct run *a, size_t n, uint64_t off)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (a[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool cuemu_kheap_fixed(CUcontext ctx)
{
	bool fixed;

	pthread_mutex_lock(&heaps_lock);
	fixed = find(ctx) != NULL;
	pthread_mutex_unlock(&heaps_lock);
	return fixed;
}

static void heap_free(struct cuemu_kheap *h)
{
	free(h->free_runs);
	free(h->live);
	free(h);
}

/* A heap of size bytes at base, all of it one free run; NULL without
 * memory. */
static struct cuemu_kheap *heap_new(CUcontext ctx, uint64_t base,
				    uint64_t size)
{
	struct cuemu_kheap *h = calloc(1, sizeof *h);

	if (!h || !grow(&h->free_runs, 0, &h->capfree)) {
		free(h);
		return NULL;
	}
	h->ctx = ctx;
	h->ctx_id = cuemu_ctx_id(ctx);
	h->base = base;
	h->size = size;
	/* no block at the allocation's base: a program that frees a block
	 * with cuMemFree gets INVALID_VALUE, not the whole heap freed */
	h->free_runs[0] = (struct run){ KH_ALIGN, size - KH_ALIGN };
	h->nfree = 1;
	return h;
}

CUresult cuemu_kheap_get(CUcontext ctx, int dev, struct cuemu_kheap **out)
{
	struct cuemu_kheap *h, *raced;
	CUdeviceptr base = 0;
	size_t size;
	CUresult r;

	pthread_mutex_lock(&heaps_lock);
	h = find(ctx);
	pthread_mutex_unlock(&heaps_lock);
	if ((*out = h))
		return CUDA_SUCCESS;
	cuemu_lock();
	size = cuemu_ctx_limit(ctx, CU_LIMIT_MALLOC_HEAP_SIZE);
	cuemu_unlock();
	if ((r = cuemu_device_alloc(ctx, dev, size, &base)) != CUDA_SUCCESS)
		return r;
	if (!(h = heap_new(ctx, base, size))) {
		cuemu_device_free(base);
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "no memory for the device heap's records");
	}
	pthread_mutex_lock(&heaps_lock);
	if ((raced = find(ctx)) == NULL) {   /* another launch made one */
		h->next = heaps;
		heaps = h;
	}
	pthread_mutex_unlock(&heaps_lock);
	if (raced) {
		cuemu_device_free(base);
		heap_free(h);
		h = raced;
	}
	*out = h;
	return CUDA_SUCCESS;
}

void cuemu_kheap_forget(CUcontext ctx, bool free_memory)
{
	struct cuemu_kheap **p, *h = NULL;

	pthread_mutex_lock(&heaps_lock);
	for (p = &heaps; *p; p = &(*p)->next)
		if ((*p)->ctx == ctx) {
			h = *p;
			*p = h->next;
			break;
		}
	pthread_mutex_unlock(&heaps_lock);
	if (!h)
		return;
	if (free_memory && h->ctx_id == cuemu_ctx_id(ctx))
		cuemu_device_free(h->base);
	heap_free(h);
}

/* Takes [off, off+len) out of free run i, which holds it at its start. */
static void take(struct cuemu_kheap *h, size_t i, uint64_t len)
{
	h->free_runs[i].off += len;
	h->free_runs[i].len -= len;
	if (!h->free_runs[i].len) {
		memmove(&h->free_runs[i], &h->free_runs[i + 1],
			(h->nfree - i - 1) * sizeof *h->free_runs);
		h->nfree--;
	}
}

uint64_t cuemu_kheap_malloc(struct cuemu_kheap *h, uint64_t size)
{
	uint64_t len, off = 0;
	size_t i, at;
	bool found = false;

	if (size > h->size)
		return 0;
	len = (size + KH_ALIGN - 1) / KH_ALIGN * KH_ALIGN + KH_OVERHEAD;
	pthread_mutex_lock(&heaps_lock);
	for (i = 0; i < h->nfree && !found; i++)
		found = h->free_runs[i].len >= len;
	if (found && grow(&h->live, h->nlive, &h->caplive)) {
		off = h->free_runs[--i].off;
		take(h, i, len);
		at = lower(h->live, h->nlive, off);
		memmove(&h->live[at + 1], &h->live[at],
			(h->nlive - at) * sizeof *h->live);
		h->live[at] = (struct run){ off, len };
		h->nlive++;
	} else {
		found = false;
	}
	pthread_mutex_unlock(&heaps_lock);
	return found ? h->base + off : 0;
}

/* Gives [off, off+len) back, joined with the runs it touches. heaps_lock
 * held. False where the free runs cannot grow (the block stays taken). */
static bool give(struct cuemu_kheap *h, uint64_t off, uint64_t len)
{
	size_t i = lower(h->free_runs, h->nfree, off);
	bool left = i > 0 &&
		h->free_runs[i - 1].off + h->free_runs[i - 1].len == off;
	bool right = i < h->nfree && off + len == h->free_runs[i].off;

	if (left && right) {
		h->free_runs[i - 1].len += len + h->free_runs[i].len;
		memmove(&h->free_runs[i], &h->free_runs[i + 1],
			(h->nfree - i - 1) * sizeof *h->free_runs);
		h->nfree--;
	} else if (left) {
		h->free_runs[i - 1].len += len;
	} else if (right) {
		h->free_runs[i].off = off;
		h->free_runs[i].len += len;
	} else {
		if (!grow(&h->free_runs, h->nfree, &h->capfree))
			return false;
		memmove(&h->free_runs[i + 1], &h->free_runs[i],
			(h->nfree - i) * sizeof *h->free_runs);
		h->free_runs[i] = (struct run){ off, len };
		h->nfree++;
	}
	return true;
}

void cuemu_kheap_free(struct cuemu_kheap *h, uint64_t addr)
{
	uint64_t off = addr - h->base;
	size_t at;

	if (addr < h->base || off >= h->size)
		return;
	pthread_mutex_lock(&heaps_lock);
	at = lower(h->live, h->nlive, off);
	if (at < h->nlive && h->live[at].off == off &&
	    give(h, off, h->live[at].len)) {
		memmove(&h->live[at], &h->live[at + 1],
			(h->nlive - at - 1) * sizeof *h->live);
		h->nlive--;
	}
	pthread_mutex_unlock(&heaps_lock);
}
