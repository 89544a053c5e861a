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
 * (0.17, 0.41, 0.66, 0.97), and so do lines taken into a set in turn,
 * the oldest going (below), so the sets here are placed by a hash that
 * scatters lines as at random (splitmix64's finalizer; the L1's golden
 * ratio hash spreads a run of lines too evenly for this).
 *
 * Locking: none. The L2 is shared by every block of a launch and by the
 * launches on its GPU after it: each way is read and written with
 * relaxed atomics (plain moves on x86-64), so two host threads taking a
 * line into one set at once may take the same way, and one line is lost
 * (a later hit becomes a miss); neither tears a line's number, and a
 * block alone on its host thread sees what it did.
 */
#include "exec/run.h"

#include <stdlib.h>
#include <string.h>

struct ex_l2 {
	uint64_t bytes;
	uint64_t sets;
	uint8_t *next;       /* each set's way the next line it takes goes to */
	/* sets * L2_WAYS: each line's fingerprint, 0 empty, from a host
	 * cache line's start. A set's eight are half a host cache line and
	 * the whole 36 MiB L2 1.2 MB of the host's (whole line numbers took
	 * 2.4 MB; 16-bit fingerprints, half of this, were no faster: a
	 * lookup waits for the host's L3 either way, a quarter of
	 * UVMBench's CORR by perf). A line is taken for another of its set
	 * once in 2^28 lookups. */
	uint32_t *way;
};

struct ex_l2 *ex_l2_new(uint64_t bytes)
{
	uint64_t sets = bytes / 128 / L2_WAYS;
	size_t wb = sets * L2_WAYS * sizeof(uint32_t);   /* a multiple of 32 */
	struct ex_l2 *c;

	if (!sets || sets > UINT32_MAX)
		return NULL;
	if (!(c = calloc(1, sizeof *c)))
		return NULL;
	c->next = calloc(sets, 1);
	c->way = aligned_alloc(64, (wb + 63) & ~(size_t)63);
	if (!c->next || !c->way) {
		ex_l2_free(c);
		return NULL;
	}
	memset(c->way, 0, wb);
	c->bytes = bytes;
	c->sets = sets;
	return c;
}

void ex_l2_free(struct ex_l2 *c)
{
	if (!c)
		return;
	free(c->next);
	free(c->way);
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

/* A set takes a line it lacks into its ways in turn, the oldest line it
 * took going first: a hit writes nothing, so host threads sharing the L2
 * trade no host cache lines over what they both read. On a ring longer
 * than the L2 this loses what least-recently-used replacement loses
 * (both keep none of a ring a set cannot hold), and the shares above.
 * The hash's high half places the line, its low half is the line's
 * fingerprint (never 0). */
bool ex_l2_holds(struct ex_l2 *c, uint64_t line)
{
	uint64_t h = scatter(line), s = ((h >> 32) * c->sets) >> 32;
	uint32_t *set = &c->way[s * L2_WAYS], tag = (uint32_t)h | 1;
	uint8_t k;

	for (int i = 0; i < L2_WAYS; i++)
		if (__atomic_load_n(&set[i], __ATOMIC_RELAXED) == tag)
			return true;
	k = __atomic_load_n(&c->next[s], __ATOMIC_RELAXED) % L2_WAYS;
	__atomic_store_n(&c->next[s], (uint8_t)(k + 1), __ATOMIC_RELAXED);
	__atomic_store_n(&set[k], tag, __ATOMIC_RELAXED);
	return false;
}
