/*
 * l2.c - a GPU's L2 as its kernels' loads see it: which 128-byte lines it
 * holds. One H200 (probes/results/l2size.txt): a thread chasing a
 * shuffled ring of lines with loads the L1 never answers waits 145 ns a
 * hop while the L2 holds the ring, 350 where it comes from the DRAM
 * (probes/results/tlb.txt: whatever the span the lines lie over, 512 KiB
 * to 1 GiB, and whatever the memory: the address translations add
 * nothing to speak of). A ring the L2 held on its first pass is held
 * whole on the second to 16 MiB; past that the L2 loses a share of it,
 * 0.17 at 24 MiB, 0.43 at 32, 0.58 at 40, 0.81 at 64 for lines spread
 * over 1 GiB (a ring of lines one after another holds on longer, to 24
 * MiB), all of it at 128. Lines placed at random in 36 MiB of
 * eight-way sets, least recently used replaced, lose the same shares
 * (0.17, 0.41, 0.66, 0.97), so the sets here are placed by a hash that
 * scatters lines as at random (splitmix64's finalizer; the L1's golden
 * ratio hash spreads a run of lines too evenly for this).
 *
 * Locking: none. The L2 is shared by every block of a launch and by the
 * launches on its GPU after it: each way is read and written with
 * relaxed atomics (plain moves on x86-64), so two host threads that
 * change one set at once may each reorder it as they saw it, and one may
 * lose the other's line (a later hit becomes a miss); neither tears a
 * line's number, and a block alone on its host thread sees what it did.
 */
#include "exec/run.h"

#include <stdlib.h>

struct ex_l2 {
	uint64_t bytes;
	uint64_t sets;
	uint64_t way[];      /* sets * L2_WAYS: a line's number + 1, 0 empty,
			      * each set most recent first */
};

struct ex_l2 *ex_l2_new(uint64_t bytes)
{
	uint64_t sets = bytes / 128 / L2_WAYS;
	struct ex_l2 *c;

	if (!sets || sets > UINT32_MAX)
		return NULL;
	c = calloc(1, sizeof *c + sets * L2_WAYS * sizeof c->way[0]);
	if (!c)
		return NULL;
	c->bytes = bytes;
	c->sets = sets;
	return c;
}

void ex_l2_free(struct ex_l2 *c)
{
	free(c);
}

uint64_t ex_l2_bytes(const struct ex_l2 *c)
{
	return c ? c->bytes : 0;
}

/* splitmix64's finalizer: a line's set looks drawn at random, as an
 * H200's L2 behaves (above). */
static inline uint64_t scatter(uint64_t x)
{
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

bool ex_l2_holds(struct ex_l2 *c, uint64_t line)
{
	uint64_t *set = &c->way[(((scatter(line) >> 32) * c->sets) >> 32) *
				L2_WAYS];

	return lru_holds(set, L2_WAYS, line + 1);
}
