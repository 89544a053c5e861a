/*
 * l2.c - each GPU's L2 as its kernels' loads see it: the engine's lines
 * (exec/l2.c, struct ex_l2), one a GPU for the process's life, of the
 * topology's uvm.l2_hold_bytes, fed before each kernel runs with the
 * lines the copies and memsets since the last one read or wrote of its
 * memory (model/kept.c's record), as their bytes passed the L2: one
 * H200 chases a ring of 4 to 24 MiB that a cudaMemcpy had just written
 * at 189 ns a hop where a ring from the DRAM takes 350 and one from the
 * L2 145 (probes/results/l2size.txt), so most of it was there.
 *
 * Global state, one L2 a GPU: the L2 is the GPU's, whichever stream or
 * thread the next kernel comes from (model/kept.c's reason). It is made
 * anew only when the topology's size changes, which a process does not
 * do while its kernels run.
 *
 * Locking: cuemu_lock around the table and the record; the lines
 * themselves are the engine's, shared without a lock (exec/l2.c).
 */
#include "driver/driver.h"
#include "model/kept.h"

static struct ex_l2 *gpu_l2[CUEMU_MAX_DEVICES];

/* The lines of range r's last `most` bytes (0: none) join c, in order. */
static void pass_lines(struct ex_l2 *c, const struct l2_range *r,
		       uint64_t most)
{
	uint64_t end = (r->addr + r->bytes + 127) >> 7;
	uint64_t first = r->addr >> 7;

	if (end - first > most >> 7)
		first = end - (most >> 7);
	for (uint64_t line = first; line < end; line++)
		ex_l2_holds(c, line);
}

struct ex_l2 *cuemu_gpu_l2(int dev, uint64_t bytes)
{
	struct l2_range r[L2_COPIES];
	uint64_t most[L2_COPIES], left = 4 * bytes;
	struct ex_l2 *c;
	int n;

	if (dev < 0 || dev >= CUEMU_MAX_DEVICES)
		return NULL;
	cuemu_lock();
	if (ex_l2_bytes(gpu_l2[dev]) != bytes) {
		ex_l2_free(gpu_l2[dev]);
		gpu_l2[dev] = bytes ? ex_l2_new(bytes) : NULL;
	}
	c = gpu_l2[dev];
	n = l2_copied_take(dev, r);
	cuemu_unlock();
	/* the ranges leave the L2 their last four times its bytes, the
	 * newest first, after which a set keeps a line older than them once
	 * in millions (lines placed at random: 32 came to each set); they
	 * pass it oldest first */
	for (int i = n - 1; i >= 0; i--) {
		most[i] = r[i].bytes + 255 < left ? r[i].bytes + 255 : left;
		left -= most[i];
	}
	for (int i = 0; c && i < n; i++)
		pass_lines(c, &r[i], most[i]);
	return c;
}
