/*
 * kept.c - what each GPU's L2 keeps from one kernel to the next: the
 * pages of its own memory that the last kernels the engine ran on it
 * read or wrote, and the share of them still there, which their
 * footprint decides. On one H200 (probes/results/l2keep.txt) a kernel
 * reading S MiB right after one that read or wrote the same S MiB takes
 * it from the L2
 * whole up to 32 MiB, less and less of it to nothing at 48 MiB (a scan
 * longer than the L2 evicts what the next one would find): the topology's
 * uvm.l2_keep_bytes and l2_keep_none_bytes, the share linear between.
 * A kernel's reads of pages kept here do not come from the DRAM
 * (km_work.kept; batch.c km_dram_kept). What a kernel reached joins what
 * the L2 held while the two fit (a small kernel between two passes over
 * the same data evicts little of it); where they do not, the L2 holds
 * the kernel's pages alone, the share its footprint leaves.
 *
 * Global state, one set a GPU: the L2 is the GPU's, whichever stream or
 * thread the next kernel comes from.
 *
 * Locking: cuemu_lock, held by the caller of each function.
 */
#include "model/kept.h"
#include "model/internal.h"
#include "model/uvm.h"

static struct {
	struct pageset pages;   /* the last kernel's pages of its memory */
	uint64_t bytes;         /* the bytes of them the L2 must hold */
	uint64_t page_bytes;    /* a page's size */
	double share;           /* the share of them the L2 still holds */
	/* copies' and memsets' ranges no kernel took yet: a ring, the
	 * oldest at copied[first] */
	struct l2_range copied[L2_COPIES];
	int first, ncopied;
} kept[CUEMU_MAX_DEVICES];

/* The share of a kernel's footprint of bytes the L2 holds after it. */
static double share_of(uint64_t bytes)
{
	const struct cuemu_uvm *u = cuemu_uvm();

	if (bytes <= u->l2_keep_bytes)
		return 1;
	if (bytes >= u->l2_keep_none_bytes)
		return 0;
	return (double)(u->l2_keep_none_bytes - bytes) /
	       (double)(u->l2_keep_none_bytes - u->l2_keep_bytes);
}

bool l2_holds(int dev, uint64_t pg)
{
	if (dev < 0 || dev >= CUEMU_MAX_DEVICES || !kept[dev].share)
		return false;
	return pageset_has(&kept[dev].pages, pg);
}

double l2_share(int dev)
{
	return dev >= 0 && dev < CUEMU_MAX_DEVICES ? kept[dev].share : 0;
}

double l2_density(int dev)
{
	double all;

	if (dev < 0 || dev >= CUEMU_MAX_DEVICES)
		return 0;
	all = (double)kept[dev].pages.n * (double)kept[dev].page_bytes;
	return all > 0 && (double)kept[dev].bytes < all ?
	       (double)kept[dev].bytes / all : 1;
}

/* dev's L2 holds s now, alone: the kernel's scan of s evicted the rest.
 * A footprint it keeps none of is not kept (its table may be large). */
static void keep_alone(int dev, struct pageset *s, uint64_t bytes)
{
	double share = share_of(bytes);

	pageset_free(&kept[dev].pages);
	kept[dev].share = share;
	kept[dev].bytes = bytes;
	if (share > 0) {
		kept[dev].pages = *s;
		*s = (struct pageset){ 0 };
	}
}

void l2_copied(int dev, uint64_t addr, uint64_t bytes)
{
	int i;

	if (dev < 0 || dev >= CUEMU_MAX_DEVICES || !bytes)
		return;
	if (kept[dev].ncopied == L2_COPIES) {   /* the oldest goes */
		kept[dev].first = (kept[dev].first + 1) % L2_COPIES;
		kept[dev].ncopied--;
	}
	i = (kept[dev].first + kept[dev].ncopied++) % L2_COPIES;
	kept[dev].copied[i] = (struct l2_range){ addr, bytes };
}

int l2_copied_take(int dev, struct l2_range *out)
{
	int n;

	if (dev < 0 || dev >= CUEMU_MAX_DEVICES)
		return 0;
	n = kept[dev].ncopied;
	for (int i = 0; i < n; i++)
		out[i] = kept[dev].copied[(kept[dev].first + i) % L2_COPIES];
	kept[dev].first = kept[dev].ncopied = 0;
	return n;
}

void l2_keep(int dev, struct pageset *s, uint64_t page_bytes,
	     uint64_t bytes)
{
	struct pageset *k;
	uint64_t both;

	if (dev < 0 || dev >= CUEMU_MAX_DEVICES)
		return;
	k = &kept[dev].pages;
	kept[dev].page_bytes = page_bytes;
	if (s->full) {
		pageset_free(k);
		kept[dev].share = 0;
		return;
	}
	bytes = cuemu_min_u(bytes, (uint64_t)s->n * page_bytes);
	/* a small kernel leaves the L2 what it held, with its own pages;
	 * one whose pages span past what it keeps is not merged (its pages
	 * alone, under the process lock, could be millions; a sparse one
	 * then stands alone, with the bytes it moved). The two footprints
	 * together are at most their sum, at most their pages' bytes. */
	if (kept[dev].share > 0 &&
	    (uint64_t)s->n * page_bytes < cuemu_uvm()->l2_keep_none_bytes) {
		both = kept[dev].bytes + bytes;
		pageset_merge(k, s);
		if (!k->full) {
			both = cuemu_min_u(both, (uint64_t)k->n * page_bytes);
			kept[dev].share = share_of(both);
			kept[dev].bytes = both;
			if (kept[dev].share > 0)
				return;
		}
	}
	keep_alone(dev, s, bytes);
}
