/*
 * kept.h - what each GPU's L2 keeps from one kernel to the next
 * (kept.c): the pages the last kernels the engine ran on it reached, and
 * the share of them still there.
 *
 * Locking: cuemu_lock, held by the caller of each function.
 */
#ifndef CUEMU_KEPT_H
#define CUEMU_KEPT_H

#include <stdbool.h>
#include <stdint.h>

#include "model/pageset.h"

/* Whether dev's L2 may hold page number pg of its memory: the last
 * kernels on dev reached it, and the L2 kept a share of what they
 * reached. */
bool l2_holds(int dev, uint64_t pg);
/* The share of the last kernels' pages that dev's L2 still holds. */
double l2_share(int dev);
/* ... and of each such page's bytes, the share it holds: 1 where the
 * kernels moved their pages whole, less where they touched a few bytes
 * of each. */
double l2_density(int dev);
/* A kernel on dev has ended, having reached the pages of s (page_bytes
 * each) and moved bytes of them (at most their pages': a kernel touching
 * a few bytes of each page leaves the L2 holding those alone, as one on
 * an H200 did, probes/results/prefnoop.txt): they join what dev's L2
 * holds while both fit, else stand alone. May take s's table (s is then
 * left empty); a full set (its pages not known) keeps nothing. */
void l2_keep(int dev, struct pageset *s, uint64_t page_bytes,
	     uint64_t bytes);

/* The bytes of dev's memory a copy or memset read or wrote pass its L2,
 * whose lines the next kernel's loads may find there (the engine's line
 * by line L2, exec/l2.c, which the driver feeds with them,
 * driver/l2.c): the last L2_COPIES of them since a kernel took them. */
#define L2_COPIES 16
struct l2_range {
	uint64_t addr, bytes;
};
void l2_copied(int dev, uint64_t addr, uint64_t bytes);
/* Takes dev's ranges, oldest first, into out (L2_COPIES); how many. */
int l2_copied_take(int dev, struct l2_range *out);

#endif
