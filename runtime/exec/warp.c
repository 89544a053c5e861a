/*
 * warp.c - one warp's instructions: 32 lanes in lockstep over an active
 * mask, a SIMT stack for divergence (entries reconverge at the
 * post-dominator cfg.c found), device-function calls (indirect ones by
 * the callee's address in the module's table, each target's lanes in
 * turn), malloc and free through ex_memops, and every memory access
 * through the warp's translation cache of 4 KiB pages.
 *
 * The loop decodes nothing: it reads each instruction's compact form
 * (form.c), one switch over a dense enum, and the common cases run as a
 * tight loop over their active lanes with their sources already rows (a
 * register's, or the module's constant row of an immediate); the rest go
 * to the general code, which reads the instruction's full decoding.
 * Global and generic accesses ask ex_memops.page once per warp and page
 * on a cache miss, never per lane or per byte, and count their bytes,
 * 32-byte sectors, the 64-byte DRAM units those lie in and their read
 * requests (runs of sectors one after another) by the place the model
 * named (what the memory and the links move: model time is priced by
 * them); a whole warp aligned on one page (or in shared memory) is
 * checked once and moved by a plain loop, and where its lanes are all at
 * one address or in a run of consecutive elements (the common cases) it
 * is found so in one pass and read once or copied as a block, its sectors
 * counted from its first and last lane. The loops over
 * a whole warp are marked free of dependences between lanes (a
 * destination row is a source row or none of it), so gcc vectorizes them;
 * warp_avx2.c builds this file again for AVX2 and FMA.
 *
 * Locking: a warp belongs to the host thread running its block; global
 * memory is shared with other blocks' threads, so atomics on it are host
 * atomics (__atomic builtins).
 */
#include "exec/run.h"
#include "exec/half.h"
#include "exec/texture.h"
#include "exec/video.h"
#include "exec/wmma.h"

#include <fenv.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* An operand's 32 lanes: a register's row, or a value broadcast into
 * the block's scratch row for its slot. */
struct src {
	const uint64_t *p;
};
#define V(s, l) ((s).p[l])
#define FOR_LANES(l, mask)                                                   \
	for (uint32_t mm_ = (mask), l = 0;                                   \
	     mm_ && ((l = (uint32_t)__builtin_ctz(mm_)), 1); mm_ &= mm_ - 1)
/* The body for each active lane l: a plain loop the compiler can
 * vectorize when the whole warp is active, the set bits otherwise. */
#define LANES(act, ...)                                                      \
	do {                                                                 \
		if ((act) == FULL) {                                         \
			_Pragma("GCC ivdep")                                 \
			for (uint32_t l = 0; l < WARP; l++) { __VA_ARGS__; } \
		} else {                                                     \
			FOR_LANES(l, act) { __VA_ARGS__; }                   \
		}                                                            \
	} while (0)

static inline int lanes_of(uint32_t m)
{
	if (m == FULL)
		return WARP;
	m = m - ((m >> 1) & 0x55555555u);
	m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
	return (int)((((m + (m >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

static inline struct src broadcast(uint64_t *row, uint64_t v)
{
	for (int l = 0; l < WARP; l++)
		row[l] = v;
	return (struct src){ row };
}

/* ------------------------------------------------------------------ */
/* Values                                                              */

static inline uint64_t bits_mask(unsigned bits)
{
	return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}
static inline int64_t sext(uint64_t v, unsigned bits)
{
	return bits >= 64 ? (int64_t)v :
	       (int64_t)(v << (64 - bits)) >> (64 - bits);
}
static inline float f32(uint64_t v)
{
	uint32_t b = (uint32_t)v;
	float f;
	memcpy(&f, &b, 4);
	return f;
}
static inline uint64_t bf32(float f)
{
	uint32_t b;
	memcpy(&b, &f, 4);
	return b;
}
static inline double f64(uint64_t v)
{
	double d;
	memcpy(&d, &v, 8);
	return d;
}
static inline uint64_t bf64(double d)
{
	uint64_t b;
	memcpy(&b, &d, 8);
	return b;
}
/* A subnormal f32 flushed to a zero of its sign (.ftz). */
static inline float ftz(float f)
{
	uint32_t b = (uint32_t)bf32(f);
	return (b & 0x7f800000u) == 0 && (b & 0x7fffffu) ? f32(b & 0x80000000u) : f;
}
/* The device's one NaN for the f32 results it computes (the table in
 * probes/results/ptx_table.txt shows it); f64 results propagate a NaN
 * operand quieted and make fff8000000000000 of none, as the host does. */
static inline uint64_t canon32(float f)
{
	return isnan(f) ? 0x7fffffffu : bf32(f);
}
static inline uint64_t quiet64(uint64_t b)
{
	return b | 0x0008000000000000ull;
}

static int fe_mode(int rnd)
{
	switch (rnd) {
	case R_RZ: return FE_TOWARDZERO;
	case R_RM: return FE_DOWNWARD;
	case R_RP: return FE_UPWARD;
	default: return FE_TONEAREST;
	}
}

/* ------------------------------------------------------------------ */
/* Operands                                                            */

static struct src sreg_src(struct blk *b, struct warp *w, int sr, int slot)
{
	uint64_t *s = b->scratch[slot];

	switch (sr) {
	case S_TID_X: case S_TID_Y: case S_TID_Z:
		return (struct src){ w->tid[sr - S_TID_X] };
	case S_LANEID:
		return (struct src){ w->lane };
	case S_LANEMASK_EQ: case S_LANEMASK_LE: case S_LANEMASK_LT:
	case S_LANEMASK_GE: case S_LANEMASK_GT:
		for (int l = 0; l < WARP; l++) {
			uint32_t eq = 1u << l;
			s[l] = sr == S_LANEMASK_EQ ? eq :
			       sr == S_LANEMASK_LE ? (eq << 1) - 1 :
			       sr == S_LANEMASK_LT ? eq - 1 :
			       sr == S_LANEMASK_GE ? ~(eq - 1) : ~((eq << 1) - 1);
			s[l] &= 0xffffffffu;
		}
		return (struct src){ s };
	case S_WARPID:
		return broadcast(s, w->id);
	case S_CLOCK: case S_CLOCK64: {
		/* where chains are timed, the cycle the warp has reached (a
		 * loop spinning on it ends when the SM's cycles would have
		 * passed, as on the device); else one tick an instruction */
		uint64_t c = b->lat ? w->end : w->clock;
		return broadcast(s, sr == S_CLOCK ? (uint32_t)c : c);
	}
	case S_GLOBALTIMER: case S_GLOBALTIMER_LO: case S_GLOBALTIMER_HI: {
		uint64_t t = b->l->dev.globaltimer ?
			b->l->dev.globaltimer(b->l->mem.ctx) : 0;
		return broadcast(s, sr == S_GLOBALTIMER ? t :
				 sr == S_GLOBALTIMER_LO ? (uint32_t)t : t >> 32);
	}
	default:
		return broadcast(s, b->scalar[sr]);
	}
}

static struct src src_of(struct blk *b, struct warp *w, const struct insn *in,
			 int i)
{
	const struct operand *o = &in->o[i];

	switch (o->kind) {
	case K_REG:
		if (o->reg < 0)
			return (struct src){ b->sink };
		if (o->neg) {
			for (int l = 0; l < WARP; l++)
				b->scratch[i][l] = !(w->r[o->reg][l] & 1);
			return (struct src){ b->scratch[i] };
		}
		return (struct src){ w->r[o->reg] };
	case K_SREG:
		return sreg_src(b, w, o->sreg, i);
	case K_VAR:
		return broadcast(b->scratch[i], b->g->varaddr[o->var] +
				 (uint64_t)o->imm + (o->frame ? w->fbase : 0));
	default:
		return broadcast(b->scratch[i], in->immv[i]);
	}
}

static inline uint64_t *dst_of(struct blk *b, struct warp *w, int reg)
{
	return reg >= 0 ? w->r[reg] : b->sink;
}

/* ------------------------------------------------------------------ */
/* Memory                                                              */

static void tlb_flush(struct warp *w)
{
	memset(w->tlb, 0, sizeof w->tlb);
}

/* The model's generation now (0 where nothing moves under a launch). */
static uint64_t generation(const struct blk *b)
{
	const volatile uint64_t *gen = b->l->mem.generation;

	return gen ? *gen : 0;
}

/* Where page pg lies in a cache of 2^bits slots or sets: the high bits
 * of its number times 2^64 over the golden ratio, which spreads pages a
 * power of two apart, and keeps neighbours apart too. */
static inline size_t tlb_slot(uint64_t pg, unsigned bits)
{
	return (size_t)((pg * 0x9e3779b97f4a7c15ull) >> (64 - bits));
}

#define TLB_BITS 8
#define STLB_SET_BITS 11
_Static_assert((1u << TLB_BITS) == TLB_SIZE, "TLB_BITS");
_Static_assert((1u << STLB_SET_BITS) * STLB_WAYS == STLB_SIZE,
	       "STLB_SET_BITS");

/* The ways of the host thread's set for page pg. */
static inline struct stlb *stlb_set(const struct blk *b, uint64_t pg)
{
	return &b->stlb[tlb_slot(pg, STLB_SET_BITS) * STLB_WAYS];
}

/* Does s hold page pg for this launch and generation? */
static inline bool stlb_holds(const struct blk *b, const struct stlb *s,
			      uint64_t pg, uint64_t gen)
{
	return s->tag == pg + 1 && s->epoch == b->g->epoch && s->gen == gen;
}

/* The host thread's shared answer for access a to page pg, where it holds
 * one of this launch and generation: its place, else -1. */
static int stlb_find(const struct blk *b, uint64_t pg, enum ex_access a)
{
	const struct stlb *set;
	uint64_t gen;

	if (!b->stlb)
		return -1;
	set = stlb_set(b, pg);
	gen = generation(b);
	for (int i = 0; i < STLB_WAYS; i++)
		if (stlb_holds(b, &set[i], pg, gen) &&
		    (set[i].granted & a) == a)
			return set[i].place;
	return -1;
}

/* Keeps the model's answer, which holds for every warp, for the thread's
 * others: in the way that holds the page, else in the first, the way
 * before it moving to the second (the older of the two leaves). */
static void stlb_fill(struct blk *b, uint64_t pg, enum ex_access a, int pl,
		      uint64_t gen)
{
	struct stlb *set, *s = NULL;

	if (!b->stlb)
		return;
	set = stlb_set(b, pg);
	for (int i = 0; i < STLB_WAYS && !s; i++)
		if (stlb_holds(b, &set[i], pg, gen))
			s = &set[i];
	if (!s) {
		memmove(&set[1], &set[0], (STLB_WAYS - 1) * sizeof *set);
		s = &set[0];
		*s = (struct stlb){ pg + 1, b->g->epoch, gen, 0, (int8_t)pl };
	}
	s->granted |= (uint8_t)a;
}

/* tlb_check's miss: asks the host thread's shared cache, then the model,
 * for the page and fills the entry. */
static int tlb_miss(struct blk *b, struct warp *w, int lane, uint64_t addr,
		    enum ex_access a, int *place)
{
	uint64_t pg = addr >> EX_PAGE_SHIFT;
	struct tlb *t = &w->tlb[tlb_slot(pg, TLB_BITS)];
	const struct ex_memops *mo = &b->l->mem;
	enum ex_status st = EX_OK;
	uint64_t gen = generation(b);
	int pl = stlb_find(b, pg, a);

	if (pl < 0) {
		bool shared = false;

		pl = 0;
		st = mo->page ? mo->page(mo->ctx, pg << EX_PAGE_SHIFT, a, &pl,
					 &shared) : EX_ILLEGAL_ADDRESS;
		if (st == EX_OK && shared)
			stlb_fill(b, pg, a, pl, gen);
	}
	if (st != EX_OK) {
		ex_grid_fail(b, w, lane, st == EX_OK ? EX_ILLEGAL_ADDRESS : st,
			     addr, "%s of address 0x%llx",
			     a == EX_READ ? "a read" : a == EX_WRITE ?
			     "a write" : "an atomic", (unsigned long long)addr);
		return -1;
	}
	if (pl < 0 || pl >= EX_MAX_PLACES)
		pl = 0;
	if (t->tag != pg + 1)
		t->granted = 0;
	t->tag = pg + 1;
	t->granted |= (uint8_t)a;
	t->place = (int8_t)pl;
	*place = pl;
	return 0;
}

/* May this warp make access a to the page of addr? A hit is answered
 * inline (every whole-warp access asks); a miss asks the model, -1 with
 * the launch failed where it refuses. */
static inline int tlb_check(struct blk *b, struct warp *w, int lane,
			    uint64_t addr, enum ex_access a, int *place)
{
	uint64_t pg = addr >> EX_PAGE_SHIFT;
	const struct tlb *t = &w->tlb[tlb_slot(pg, TLB_BITS)];

	if (t->tag == pg + 1 && (t->granted & a) == a) {
		*place = t->place;
		return 0;
	}
	return tlb_miss(b, w, lane, addr, a, place);
}

/* The state of one memory instruction over its lanes: the last page
 * checked, so a warp's lanes on one page cost one lookup. */
struct macc {
	uint64_t lastpg;
	int place;
	enum ex_access a;
	uint64_t bytes;     /* at place, not yet counted */
	uint64_t sectors;   /* ... and the sectors they were in */
	uint64_t atoms;     /* ... the 64-byte units of DRAM */
	uint64_t runs;      /* ... the runs of sectors one after another */
	uint64_t lastsec;   /* the sector of the lane before */
};

/* Counts the bytes the instruction's lanes moved at its place since the
 * place last changed, their sectors, DRAM units and (for a read)
 * requests. */
static inline void mem_flush(struct blk *b, struct macc *c)
{
	if (!c->bytes)
		return;
	if (c->a & EX_READ) {
		b->bytes_read[c->place] += c->bytes;
		b->sectors_read[c->place] += c->sectors;
		b->read_requests[c->place] += c->runs;
	}
	if (c->a & EX_WRITE) {
		b->bytes_written[c->place] += c->bytes;
		b->sectors_written[c->place] += c->sectors;
	}
	b->atoms[c->place] += c->atoms;
	b->sectors_moved += c->sectors;
	b->last_place = c->place;
	c->bytes = 0;
	c->sectors = 0;
	c->atoms = 0;
	c->runs = 0;
}

/* A lane's size bytes at global address addr, on the instruction's
 * current page: an aligned access of at most 32 bytes lies in one sector,
 * counted unless the lane before was in it too; so is its 64-byte DRAM
 * unit, and a request unless it is the sector after the lane before's. */
static inline void mem_count(struct macc *c, uint64_t addr, unsigned size)
{
	uint64_t sec = addr >> EX_SECTOR_SHIFT;

	c->bytes += size;
	c->sectors += sec != c->lastsec;
	c->atoms += sec >> 1 != c->lastsec >> 1;
	c->runs += sec != c->lastsec && sec != c->lastsec + 1;
	c->lastsec = sec;
}

/* Lane l's bytes at address addr of space sp, size bytes (aligned to
 * size as PTX requires), as a host pointer; NULL once the launch failed. */
static uint8_t *lane_ptr(struct blk *b, struct warp *w, int l, int sp,
			 uint64_t addr, unsigned size, struct macc *c)
{
	uint64_t off;

	if (sp == SP_GENERIC) {
		switch (addr & WIN_MASK) {
		case WIN_SHARED: sp = SP_SHARED; addr -= WIN_SHARED; break;
		case WIN_LOCAL: sp = SP_LOCAL; addr -= WIN_LOCAL; break;
		case WIN_PARAM: sp = SP_PARAM; addr -= WIN_PARAM; break;
		default: sp = SP_GLOBAL; break;
		}
	}
	if ((addr & WIN_MASK) == WIN_GRID && b->g->gridws &&
	    (sp == SP_GLOBAL || sp == SP_GENERIC)) {
		/* the grid-sync words: the engine's, shared by every block */
		off = addr - WIN_GRID;
		if (off + size <= GRIDWS_BYTES && !(addr & (size - 1)))
			return b->g->gridws + off;
	}
	if ((addr & WIN_MASK) == WIN_RTSTR && c->a == EX_READ &&
	    (sp == SP_GLOBAL || sp == SP_GENERIC)) {
		/* the device runtime's error strings: read-only */
		size_t len;
		const char *t = ex_devrt_strings(&len);
		off = addr - WIN_RTSTR;
		if (off < len && size <= len - off)
			return (uint8_t *)(uintptr_t)(t + off);
	}
	if (addr & (size - 1)) {
		ex_grid_fail(b, w, l, EX_MISALIGNED_ADDRESS, addr,
			     "a misaligned access of %u bytes at 0x%llx", size,
			     (unsigned long long)addr);
		return NULL;
	}
	switch (sp) {
	case SP_SHARED:
		off = addr & 0xffffffffull;
		if (off + size > b->shared_bytes)
			break;
		return b->shared + off;
	case SP_LOCAL:
		off = addr & 0xffffffffull;
		if (off + size > b->local_bytes)
			break;
		return w->local + (size_t)l * b->local_bytes + off;
	case SP_PARAM:
		off = addr & 0xffffffffull;
		if (off >= LPARAM_BASE) {
			off -= LPARAM_BASE;
			if (off + size > b->lparam_bytes)
				break;
			return w->lparam + (size_t)l * b->lparam_bytes + off;
		}
		if (c->a != EX_READ || off + size > b->k->info.param_bytes)
			break;
		return (uint8_t *)b->l->params + off;
	default: {
		uint64_t pg = addr >> EX_PAGE_SHIFT;
		if (pg != c->lastpg) {
			int pl;

			c->lastpg = ~0ull;
			if (tlb_check(b, w, l, addr, c->a, &pl)) {
				mem_flush(b, c);
				return NULL;
			}
			/* what the lanes before moved is counted at their
			 * place when the place changes, not the page: lanes
			 * a page apart each would otherwise cost a count */
			if (pl != c->place) {
				mem_flush(b, c);
				c->place = pl;
			}
			c->lastpg = pg;
		}
		mem_count(c, addr, size);
		return (uint8_t *)(uintptr_t)addr;
	}
	}
	ex_grid_fail(b, w, l, EX_ILLEGAL_ADDRESS, addr,
		     "an access of %u bytes at 0x%llx outside its %s memory",
		     size, (unsigned long long)addr,
		     sp == SP_SHARED ? "shared" : sp == SP_LOCAL ? "local" :
		     "param");
	return NULL;
}

static inline void mem_begin(struct blk *b, struct warp *w, struct macc *c,
			     enum ex_access a)
{
	uint64_t gen = generation(b);

	c->lastpg = ~0ull;
	c->place = 0;
	c->a = a;
	c->bytes = 0;
	c->sectors = 0;
	c->atoms = 0;
	c->runs = 0;
	c->lastsec = ~0ull;
	if (gen != w->gen) {
		w->gen = gen;
		tlb_flush(w);
	}
}

/* lane_ptr's common cases inline: a global or generic access on the page
 * the previous lane used, or on a page the warp's translation cache holds
 * at the instruction's place (a warp whose lanes each read a row of their
 * own: CORR's symmat, a page a lane); a shared access inside the block's
 * memory; a lane's own local memory. */
static inline uint8_t *fast_ptr(struct blk *b, struct warp *w, int l, int sp,
				uint64_t addr, unsigned size, struct macc *c)
{
	if (!(addr & (size - 1))) {
		uint64_t pg = addr >> EX_PAGE_SHIFT;

		if (sp <= SP_GLOBAL && pg == c->lastpg) {
			mem_count(c, addr, size);
			return (uint8_t *)(uintptr_t)addr;
		}
		if (sp <= SP_GLOBAL && !(addr & WIN_MASK)) {
			const struct tlb *t = &w->tlb[tlb_slot(pg, TLB_BITS)];

			if (t->tag == pg + 1 && (t->granted & c->a) == c->a &&
			    t->place == c->place) {
				c->lastpg = pg;
				mem_count(c, addr, size);
				return (uint8_t *)(uintptr_t)addr;
			}
		}
		if (sp == SP_SHARED && (addr & 0xffffffffull) + size <= b->shared_bytes)
			return b->shared + (addr & 0xffffffffull);
		/* a lane's own local memory (lane_ptr's case, inline: local
		 * arrays indexed at run time are read a lane at a time) */
		if (sp == SP_LOCAL && (addr & 0xffffffffull) + size <= b->local_bytes)
			return w->local + (size_t)l * b->local_bytes +
			       (addr & 0xffffffffull);
	}
	return lane_ptr(b, w, l, sp, addr, size, c);
}

/* What a whole warp's lanes at base[l] + off move, all on one page:
 * their distinct sectors, the 64-byte DRAM units those lie in, and the
 * requests they make (runs of sectors one after another, as the lanes of
 * a coalesced access make one). Where the lanes' addresses never go down
 * (coalesced and strided accesses) each lane in a sector other than the
 * lane before's starts one, in one pass the compiler vectorizes;
 * otherwise (a gather in no order) the page's 128 sectors are a bitmap:
 * the sectors are its bits, the units its bits taken in pairs, the runs
 * the bits whose sector before is not set. */
struct wsec {
	uint64_t sectors, atoms, runs;
};

static void warp_sectors(const uint64_t *base, uint64_t off, struct wsec *o)
{
	uint64_t n = 1, a = 1, r = 1, down = 0, bm[2] = { 0, 0 }, pairs = 0;

	_Pragma("GCC ivdep")
	for (uint32_t l = 1; l < WARP; l++) {
		uint64_t s0 = (base[l - 1] + off) >> EX_SECTOR_SHIFT;
		uint64_t s1 = (base[l] + off) >> EX_SECTOR_SHIFT;
		n += s1 != s0;
		a += s1 >> 1 != s0 >> 1;
		r += s1 != s0 && s1 != s0 + 1;
		down |= s1 < s0;
	}
	if (down) {
		for (uint32_t l = 0; l < WARP; l++) {
			/* the sector's index in its page: 0 to 127 */
			uint64_t i = ((base[l] + off) >> EX_SECTOR_SHIFT) &
				     ((EX_PAGE >> EX_SECTOR_SHIFT) - 1);

			bm[i >> 6] |= 1ull << (i & 63);
			pairs |= 1ull << (i >> 1);
		}
		n = (uint64_t)__builtin_popcountll(bm[0]) +
		    (uint64_t)__builtin_popcountll(bm[1]);
		a = (uint64_t)__builtin_popcountll(pairs);
		r = (uint64_t)__builtin_popcountll(bm[0] & ~(bm[0] << 1)) +
		    (uint64_t)__builtin_popcountll(bm[1] &
						   ~((bm[1] << 1) | (bm[0] >> 63)));
	}
	o->sectors = n;
	o->atoms = a;
	o->runs = r;
}

/* How a whole warp's lanes lie, which warp_span finds in one pass the
 * compiler vectorizes: all at one address (a kernel's pointer argument,
 * read by every thread), one after another size bytes apart (the
 * coalesced access of consecutive elements), or anyhow. The first two
 * need no per-lane minimum, maximum or sector walk: their sectors, DRAM
 * units and requests follow from the first and last lane. */
enum wpat { WP_ANY, WP_ONE, WP_RUN };

static enum wpat warp_pattern(const uint64_t *base, unsigned size)
{
	uint64_t one = 0, run = 0, b0 = base[0];

	_Pragma("GCC ivdep")
	for (uint32_t l = 0; l < WARP; l++) {
		one |= base[l] ^ b0;
		run |= base[l] - b0 - (uint64_t)(l * size);
	}
	return !one ? WP_ONE : !run ? WP_RUN : WP_ANY;
}

/* warp_span for shared memory: a shared address is its low 32 bits, as
 * lane_ptr reads it, so the lanes' bound is a maximum of 32-bit values
 * (one vector instruction a step), taken with their alignment in one
 * pass; lanes at one address or in a run need neither. */
static int shared_span(struct blk *b, const uint64_t *base, uint64_t off,
		       unsigned size, enum wpat pat, uint64_t *amask,
		       uint64_t *delta)
{
	uint32_t top = 0, any = 0, o = (uint32_t)off;

	if (pat != WP_ANY) {
		any = (uint32_t)base[0] + o;
		top = any + (pat == WP_RUN ? (WARP - 1) * size : 0);
		if (top < any)   /* the run wraps past 4 GiB */
			return 0;
	} else {
		_Pragma("GCC ivdep")
		for (uint32_t l = 0; l < WARP; l++) {
			uint32_t x = (uint32_t)base[l] + o;
			top = x > top ? x : top;
			any |= x;
		}
	}
	if (any & (size - 1) || (uint64_t)top + size > b->shared_bytes)
		return 0;
	*amask = 0xffffffffull;
	*delta = (uint64_t)(uintptr_t)b->shared;
	return 1;
}

/* A whole warp's access of size bytes at base[l] + off, when it needs no
 * lane-by-lane care: every lane aligned and in the block's shared memory,
 * or every lane on one page of global memory, which is translated once
 * for the warp and its bytes counted. Lane l's host pointer is then
 * ((base[l] + off) & *amask) + *delta, and *pat says how the lanes lie
 * (WP_RUN only where size is at most a sector). 1: so; 0: the lanes
 * take the per-lane path; -1: the page was refused (the launch failed). */
static int warp_span(struct blk *b, struct warp *w, int sp,
		     const uint64_t *base, uint64_t off, unsigned size,
		     enum ex_access a, uint64_t *amask, uint64_t *delta,
		     enum wpat *pat)
{
	uint64_t lo = ~0ull, hi = 0, any = 0;
	struct wsec ws;
	int place;

	if (sp != SP_SHARED && sp > SP_GLOBAL)
		return 0;
	*pat = warp_pattern(base, size);
	if (*pat == WP_RUN && size > 1u << EX_SECTOR_SHIFT)
		*pat = WP_ANY;
	if (sp == SP_SHARED)
		return shared_span(b, base, off, size, *pat, amask, delta);
	if (*pat != WP_ANY) {
		lo = any = base[0] + off;
		hi = lo + (*pat == WP_RUN ? (uint64_t)(WARP - 1) * size : 0);
	} else {
		for (uint32_t l = 0; l < WARP; l++) {
			uint64_t x = base[l] + off;
			lo = x < lo ? x : lo;
			hi = x > hi ? x : hi;
			any |= x;
		}
	}
	if (any & (size - 1))
		return 0;
	/* global, or generic outside the engine's windows (which lie above
	 * any host pointer): aligned lanes on one page stay on it */
	if (hi >> 56 || (lo >> EX_PAGE_SHIFT) != (hi >> EX_PAGE_SHIFT))
		return 0;
	if (tlb_check(b, w, 0, lo, a, &place))
		return -1;
	/* the next warps read on from here, but hundreds of host
	 * instructions apart, more than the processor looks ahead: fetch the
	 * line they will want (a prefetch never faults) */
	__builtin_prefetch((const void *)(uintptr_t)(hi + 1024), 0, 0);
	if (*pat != WP_ANY) {
		/* a run at most a sector apart touches every sector (and
		 * unit) from the first lane's to the last's, in one request */
		ws.sectors = (hi >> EX_SECTOR_SHIFT) - (lo >> EX_SECTOR_SHIFT) + 1;
		ws.atoms = (hi >> (EX_SECTOR_SHIFT + 1)) -
			   (lo >> (EX_SECTOR_SHIFT + 1)) + 1;
		ws.runs = 1;
	} else {
		warp_sectors(base, off, &ws);
	}
	if (a & EX_READ) {
		b->bytes_read[place] += (uint64_t)WARP * size;
		b->sectors_read[place] += ws.sectors;
		b->read_requests[place] += ws.runs;
	}
	if (a & EX_WRITE) {
		b->bytes_written[place] += (uint64_t)WARP * size;
		b->sectors_written[place] += ws.sectors;
	}
	b->atoms[place] += ws.atoms;
	b->sectors_moved += ws.sectors;
	b->last_place = place;
	*amask = ~0ull;
	*delta = 0;
	return 1;
}

static inline uint64_t load(const uint8_t *p, unsigned size)
{
	switch (size) {
	case 1: return *p;
	case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
	case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
	default: { uint64_t v; memcpy(&v, p, 8); return v; }
	}
}

static inline void store(uint8_t *p, uint64_t v, unsigned size)
{
	switch (size) {
	case 1: *p = (uint8_t)v; break;
	case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
	case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
	default: memcpy(p, &v, 8); break;
	}
}

/* warp_span's lanes loaded into D, sign-extended where sgn and cut to the
 * register's mask as the per-lane path does, and stored from S. Lanes at
 * one address read it once; a run of single elements (n == 1) is one
 * plain copy the compiler vectorizes. A store of lanes at one address
 * leaves the last lane's value, as storing them in lane order does. */
#define WARP_PTR(l) ((void *)(uintptr_t)(((base[l] + off) & am) + dl))
#define WARP_LOAD(T, ST)                                                     \
	for (uint32_t l = 0; l < WARP; l++) {                                \
		T v_;                                                        \
		memcpy(&v_, WARP_PTR(l), sizeof v_);                         \
		D[l] = sgn ? (uint64_t)(int64_t)(ST)v_ & mask : v_;          \
	}
#define RUN_LOAD(T, ST)                                                      \
	_Pragma("GCC ivdep")                                                 \
	for (uint32_t l = 0; l < WARP; l++) {                                \
		T v_;                                                        \
		memcpy(&v_, p0 + l * sizeof v_, sizeof v_);                  \
		D[l] = sgn ? (uint64_t)(int64_t)(ST)v_ & mask : v_;          \
	}
#define WARP_STORE(T)                                                        \
	for (uint32_t l = 0; l < WARP; l++) {                                \
		T v_ = (T)S[l];                                              \
		memcpy(WARP_PTR(l), &v_, sizeof v_);                         \
	}
#define RUN_STORE(T)                                                         \
	_Pragma("GCC ivdep")                                                 \
	for (uint32_t l = 0; l < WARP; l++) {                                \
		T v_ = (T)S[l];                                              \
		memcpy(p0 + l * sizeof v_, &v_, sizeof v_);                  \
	}

static inline void warp_load(uint64_t *D, const uint64_t *base, uint64_t off,
			     uint64_t am, uint64_t dl, unsigned size, bool sgn,
			     uint64_t mask, enum wpat pat, unsigned n)
{
	const uint8_t *p0 = WARP_PTR(0);

	if (pat == WP_ONE) {
		uint64_t v = load(p0, size);
		if (sgn)
			v = (uint64_t)sext(v, size * 8) & mask;
		for (uint32_t l = 0; l < WARP; l++)
			D[l] = v;
		return;
	}
	if (pat == WP_RUN && n == 1) {
		switch (size) {
		case 1: RUN_LOAD(uint8_t, int8_t); break;
		case 2: RUN_LOAD(uint16_t, int16_t); break;
		case 4: RUN_LOAD(uint32_t, int32_t); break;
		default: RUN_LOAD(uint64_t, int64_t); break;
		}
		return;
	}
	switch (size) {
	case 1: WARP_LOAD(uint8_t, int8_t); break;
	case 2: WARP_LOAD(uint16_t, int16_t); break;
	case 4: WARP_LOAD(uint32_t, int32_t); break;
	default: WARP_LOAD(uint64_t, int64_t); break;
	}
}

static inline void warp_store(const uint64_t *S, const uint64_t *base,
			      uint64_t off, uint64_t am, uint64_t dl,
			      unsigned size, enum wpat pat, unsigned n)
{
	uint8_t *p0 = WARP_PTR(0);

	if (pat == WP_ONE) {
		store(p0, S[WARP - 1], size);
		return;
	}
	if (pat == WP_RUN && n == 1) {
		switch (size) {
		case 1: RUN_STORE(uint8_t); break;
		case 2: RUN_STORE(uint16_t); break;
		case 4: RUN_STORE(uint32_t); break;
		default: RUN_STORE(uint64_t); break;
		}
		return;
	}
	switch (size) {
	case 1: WARP_STORE(uint8_t); break;
	case 2: WARP_STORE(uint16_t); break;
	case 4: WARP_STORE(uint32_t); break;
	default: WARP_STORE(uint64_t); break;
	}
}
#undef WARP_LOAD
#undef RUN_LOAD
#undef WARP_STORE
#undef RUN_STORE
#undef WARP_PTR

/* The address of operand i (K_MEM) for lane l. */
static inline uint64_t addr_of(struct blk *b, struct warp *w,
			       const struct operand *o, int l)
{
	uint64_t a = (uint64_t)o->imm;

	if (o->reg >= 0)
		a += w->r[o->reg][l];
	if (o->var >= 0)
		a += b->g->varaddr[o->var] + (o->frame ? w->fbase : 0);
	return a;
}

static int do_ld(struct blk *b, struct warp *w, const struct insn *in,
		 uint32_t act)
{
	unsigned size = ptype_bits(in->type) / 8, n = in->vec;
	const struct operand *d = &in->o[0], *a = &in->o[1];
	bool sgn = ptype_signed(in->type);
	uint64_t *dst[MAX_VEC], mask[MAX_VEC], off;
	const uint64_t *base;
	struct macc c;

	if (a->kind != K_MEM)
		return ex_grid_fail(b, w, 0, EX_ILLEGAL_INSTRUCTION, 0,
				    "ld without an address"), -1;
	/* each element's register, and the width it is written at: the
	 * register's, at least the access's */
	for (unsigned e = 0; e < n; e++) {
		int reg = n > 1 ? d->vec[e] : d->reg;
		unsigned rb = reg >= 0 ? ptype_bits(b->m->regtype[reg]) : 64;
		dst[e] = dst_of(b, w, reg);
		mask[e] = bits_mask(rb < size * 8 ? size * 8 : rb);
	}
	base = a->reg >= 0 ? w->r[a->reg] : NULL;
	off = (uint64_t)a->imm + (a->var >= 0 ? b->g->varaddr[a->var] : 0);
	mem_begin(b, w, &c, EX_READ);
	if (in->space == SP_PARAM && !base && off < LPARAM_BASE &&
	    off + (uint64_t)size * n <= b->k->info.param_bytes &&
	    !(off & (size - 1))) {
		/* a kernel parameter: one value for every lane */
		for (unsigned e = 0; e < n; e++) {
			uint64_t v = load((const uint8_t *)b->l->params + off +
					  e * size, size);
			if (sgn)
				v = (uint64_t)sext(v, size * 8);
			v &= mask[e];
			LANES(act, dst[e][l] = v);
		}
		return 0;
	}
	if (act == FULL && base && size <= 8) {
		uint64_t am, dl;
		enum wpat pat;
		int rc = warp_span(b, w, in->space, base, off, size * n,
				   EX_READ, &am, &dl, &pat);
		if (rc < 0)
			return -1;
		if (rc > 0) {
			for (unsigned e = 0; e < n; e++)
				warp_load(dst[e], base, off + e * size, am, dl,
					  size, sgn, mask[e], pat, n);
			return 0;
		}
	}
	if (n == 1 && !sgn && size == 4 && base) {   /* the usual load */
		uint64_t *D = dst[0];
		LANES(act,
			uint8_t *p = fast_ptr(b, w, (int)l, in->space,
					      base[l] + off, 4, &c);
			if (!p)
				return -1;
			uint32_t v;
			memcpy(&v, p, 4);
			D[l] = v);
		mem_flush(b, &c);
		return 0;
	}
	FOR_LANES(l, act) {
		uint8_t *p = fast_ptr(b, w, (int)l, in->space,
				      (base ? base[l] : 0) + off, size * n, &c);
		if (!p)
			return -1;
		for (unsigned e = 0; e < n; e++) {
			uint64_t v = load(p + e * size, size);
			if (sgn)
				v = (uint64_t)sext(v, size * 8);
			dst[e][l] = v & mask[e];
		}
	}
	mem_flush(b, &c);
	return 0;
}

static int do_st(struct blk *b, struct warp *w, const struct insn *in,
		 uint32_t act)
{
	unsigned size = ptype_bits(in->type) / 8, n = in->vec;
	const struct operand *a = &in->o[0], *v = &in->o[1];
	const uint64_t *val[MAX_VEC], *base;
	uint64_t off;
	struct macc c;

	if (a->kind != K_MEM)
		return ex_grid_fail(b, w, 0, EX_ILLEGAL_INSTRUCTION, 0,
				    "st without an address"), -1;
	if (n == 1)
		val[0] = src_of(b, w, in, 1).p;
	for (unsigned e = 0; n > 1 && e < n; e++)
		val[e] = v->vec[e] >= 0 ? w->r[v->vec[e]] : b->sink;
	base = a->reg >= 0 ? w->r[a->reg] : NULL;
	off = (uint64_t)a->imm + (a->var >= 0 ? b->g->varaddr[a->var] : 0);
	mem_begin(b, w, &c, EX_WRITE);
	if (act == FULL && base && size <= 8) {
		uint64_t am, dl;
		enum wpat pat;
		int rc = warp_span(b, w, in->space, base, off, size * n,
				   EX_WRITE, &am, &dl, &pat);
		if (rc < 0)
			return -1;
		if (rc > 0) {
			for (unsigned e = 0; e < n; e++)
				warp_store(val[e], base, off + e * size, am, dl,
					   size, pat, n);
			return 0;
		}
	}
	if (n == 1 && size == 4 && base) {   /* the usual store */
		const uint64_t *S = val[0];
		LANES(act,
			uint8_t *p = fast_ptr(b, w, (int)l, in->space,
					      base[l] + off, 4, &c);
			if (!p)
				return -1;
			uint32_t x = (uint32_t)S[l];
			memcpy(p, &x, 4));
		mem_flush(b, &c);
		return 0;
	}
	FOR_LANES(l, act) {
		uint8_t *p = fast_ptr(b, w, (int)l, in->space,
				      (base ? base[l] : 0) + off, size * n, &c);
		if (!p)
			return -1;
		for (unsigned e = 0; e < n; e++)
			store(p + e * size, val[e][l], size);
	}
	mem_flush(b, &c);
	return 0;
}

/* cp.async: each lane's cp-size bytes from global memory to shared, the
 * part past its source size (or all, where ignore-src holds) zeroed. Made
 * at once: commit_group and wait_group are no-ops (parse.c). */
static int do_cpasync(struct blk *b, struct warp *w, const struct insn *in,
		      uint32_t act)
{
	unsigned size = (unsigned)in->o[2].imm;
	int n = in->nops - ((in->flags & F_HINT) ? 1 : 0);
	const struct operand *z = n > 3 ? &in->o[3] : NULL;
	bool pred = z && z->kind == K_REG && b->m->regtype[z->reg] == T_PRED;
	struct macc cs, cd;

	mem_begin(b, w, &cs, EX_READ);
	mem_begin(b, w, &cd, EX_WRITE);
	FOR_LANES(l, act) {
		uint64_t v = size;
		uint8_t *to, *from;

		if (z && z->kind == K_IMM)
			v = (uint64_t)z->imm;
		else if (pred)
			v = ((w->r[z->reg][l] & 1) ^ z->neg) ? 0 : size;
		else if (z)
			v = w->r[z->reg][l] < size ? w->r[z->reg][l] : size;
		to = fast_ptr(b, w, (int)l, SP_SHARED,
			      addr_of(b, w, &in->o[0], l), size, &cd);
		if (!to)
			return -1;
		if (v) {
			from = fast_ptr(b, w, (int)l, SP_GLOBAL,
					addr_of(b, w, &in->o[1], l), size, &cs);
			if (!from)
				return -1;
			memcpy(to, from, v);
		}
		memset(to + v, 0, size - v);
	}
	mem_flush(b, &cs);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Atomics                                                             */

static uint64_t atom_int(uint8_t *p, int op, enum ptype t, uint64_t b,
			 uint64_t c)
{
	unsigned bits = ptype_bits(t);
	bool s = ptype_signed(t);

	if (bits == 32) {
		uint32_t *q = (uint32_t *)p, old = __atomic_load_n(q, __ATOMIC_RELAXED),
			 x = (uint32_t)b, nv;
		switch (op) {
		case A_ADD: return __atomic_fetch_add(q, x, __ATOMIC_SEQ_CST);
		case A_AND: return __atomic_fetch_and(q, x, __ATOMIC_SEQ_CST);
		case A_OR: return __atomic_fetch_or(q, x, __ATOMIC_SEQ_CST);
		case A_XOR: return __atomic_fetch_xor(q, x, __ATOMIC_SEQ_CST);
		case A_EXCH: return __atomic_exchange_n(q, x, __ATOMIC_SEQ_CST);
		case A_CAS:
			__atomic_compare_exchange_n(q, &old, old, false,
						    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
			nv = x;
			old = nv;
			__atomic_compare_exchange_n(q, &old, (uint32_t)c, false,
						    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
			return old;
		default:
			break;
		}
		do {
			switch (op) {
			case A_MIN: nv = s ? ((int32_t)old < (int32_t)x ? old : x) :
					     (old < x ? old : x); break;
			case A_MAX: nv = s ? ((int32_t)old > (int32_t)x ? old : x) :
					     (old > x ? old : x); break;
			case A_INC: nv = old >= x ? 0 : old + 1; break;
			case A_DEC: nv = (old == 0 || old > x) ? x : old - 1; break;
			default: nv = old; break;
			}
		} while (!__atomic_compare_exchange_n(q, &old, nv, true,
						      __ATOMIC_SEQ_CST,
						      __ATOMIC_RELAXED));
		return old;
	} else {
		uint64_t *q = (uint64_t *)p, old = __atomic_load_n(q, __ATOMIC_RELAXED),
			 nv;
		switch (op) {
		case A_ADD: return __atomic_fetch_add(q, b, __ATOMIC_SEQ_CST);
		case A_AND: return __atomic_fetch_and(q, b, __ATOMIC_SEQ_CST);
		case A_OR: return __atomic_fetch_or(q, b, __ATOMIC_SEQ_CST);
		case A_XOR: return __atomic_fetch_xor(q, b, __ATOMIC_SEQ_CST);
		case A_EXCH: return __atomic_exchange_n(q, b, __ATOMIC_SEQ_CST);
		case A_CAS:
			old = b;
			__atomic_compare_exchange_n(q, &old, c, false,
						    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
			return old;
		default:
			break;
		}
		do {
			switch (op) {
			case A_MIN: nv = s ? ((int64_t)old < (int64_t)b ? old : b) :
					     (old < b ? old : b); break;
			case A_MAX: nv = s ? ((int64_t)old > (int64_t)b ? old : b) :
					     (old > b ? old : b); break;
			case A_INC: nv = old >= b ? 0 : old + 1; break;
			case A_DEC: nv = (old == 0 || old > b) ? b : old - 1; break;
			default: nv = old; break;
			}
		} while (!__atomic_compare_exchange_n(q, &old, nv, true,
						      __ATOMIC_SEQ_CST,
						      __ATOMIC_RELAXED));
		return old;
	}
}

/* Float add, min, max and exch: a compare-and-swap loop on the bits. */
static uint64_t atom_float(uint8_t *p, int op, enum ptype t, uint64_t b)
{
	if (t == T_F32) {
		uint32_t *q = (uint32_t *)p, old = __atomic_load_n(q, __ATOMIC_RELAXED), nv;
		if (op == A_EXCH)
			return __atomic_exchange_n(q, (uint32_t)b, __ATOMIC_SEQ_CST);
		do {
			float o = f32(old), x = f32(b), r;
			/* atom.add.f32 flushes subnormals, rounds to nearest */
			r = op == A_ADD ? ftz(ftz(o) + ftz(x)) :
			    op == A_MIN ? fminf(o, x) : fmaxf(o, x);
			nv = (uint32_t)canon32(r);
		} while (!__atomic_compare_exchange_n(q, &old, nv, true,
						      __ATOMIC_SEQ_CST,
						      __ATOMIC_RELAXED));
		return old;
	} else {
		uint64_t *q = (uint64_t *)p, old = __atomic_load_n(q, __ATOMIC_RELAXED), nv;
		if (op == A_EXCH)
			return __atomic_exchange_n(q, b, __ATOMIC_SEQ_CST);
		do {
			double o = f64(old), x = f64(b), r;
			r = op == A_ADD ? o + x : op == A_MIN ? fmin(o, x) : fmax(o, x);
			nv = bf64(r);
		} while (!__atomic_compare_exchange_n(q, &old, nv, true,
						      __ATOMIC_SEQ_CST,
						      __ATOMIC_RELAXED));
		return old;
	}
}

/* Half-precision add.noftz, min or max (f16, bf16, or a pair of either in
 * 32 bits): a compare-and-swap loop on the bits, the result as add.rn,
 * min or max of the type gives it, subnormals kept. */
static uint64_t atom_half(uint8_t *p, int op, enum ptype t, uint64_t b)
{
	struct insn add = { .op = op == A_MIN ? OP_MIN : op == A_MAX ? OP_MAX :
			      OP_ADD, .type = t };

	if (t == T_F16 || t == T_BF16) {
		uint16_t *q = (uint16_t *)p, old = __atomic_load_n(q, __ATOMIC_RELAXED), nv;
		do
			nv = (uint16_t)hf_arith(&add, old, b, 0);
		while (!__atomic_compare_exchange_n(q, &old, nv, true,
						    __ATOMIC_SEQ_CST,
						    __ATOMIC_RELAXED));
		return old;
	} else {
		uint32_t *q = (uint32_t *)p, old = __atomic_load_n(q, __ATOMIC_RELAXED), nv;
		do
			nv = (uint32_t)hf_arith(&add, old, b, 0);
		while (!__atomic_compare_exchange_n(q, &old, nv, true,
						    __ATOMIC_SEQ_CST,
						    __ATOMIC_RELAXED));
		return old;
	}
}

/* cas.b16: the old 16 bits either way. */
static uint64_t atom_cas16(uint8_t *p, uint64_t b, uint64_t c)
{
	uint16_t old = (uint16_t)b;

	__atomic_compare_exchange_n((uint16_t *)p, &old, (uint16_t)c, false,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	return old;
}

/* atom.shared.add.u32 by a whole warp (a histogram's): when every lane's
 * word lies in the block's shared memory, the lanes add in lane order,
 * plainly, as the block's shared memory is its host thread's alone. 0,
 * or -1 with the launch failed; the per-lane path where the lanes are
 * not all inside. */
static int shared_add_warp(struct blk *b, struct warp *w,
			   const struct operand *a, const uint64_t *S,
			   uint64_t *D)
{
	uint64_t off = (uint64_t)a->imm +
		       (a->var >= 0 ? b->g->varaddr[a->var] : 0), am, dl;
	const uint64_t *base = w->r[a->reg];
	struct macc c = { .lastpg = ~0ull, .a = EX_ATOMIC };
	enum wpat pat;

	if (warp_span(b, w, SP_SHARED, base, off, 4, EX_ATOMIC, &am, &dl,
		      &pat) > 0) {
		for (uint32_t l = 0; l < WARP; l++) {
			uint8_t *p = (uint8_t *)(uintptr_t)(((base[l] + off) & am) + dl);
			uint32_t old, x = (uint32_t)S[l];
			memcpy(&old, p, 4);
			D[l] = old;   /* after x: D may be S's register */
			old += x;
			memcpy(p, &old, 4);
		}
		b->atomics += WARP;
		return 0;
	}
	for (uint32_t l = 0; l < WARP; l++) {
		uint8_t *p = fast_ptr(b, w, (int)l, SP_SHARED, base[l] + off, 4, &c);
		uint32_t old, x = (uint32_t)S[l];
		if (!p)
			return -1;
		b->atomics++;
		memcpy(&old, p, 4);
		D[l] = old;
		old += x;
		memcpy(p, &old, 4);
	}
	return 0;
}

/* A vector atom or red (parse.c atom_vector_check: global memory, f32
 * add, halves' add, min and max): each lane's vector aligned to its whole
 * size, each element an atomic of its own, as the ISA makes them. */
static int do_atom_vector(struct blk *b, struct warp *w,
			  const struct insn *in, uint32_t act)
{
	bool red = in->op == OP_RED;
	const struct operand *a = &in->o[red ? 0 : 1], *v = &in->o[red ? 1 : 2];
	const struct operand *d = &in->o[0];
	unsigned size = ptype_bits(in->type) / 8, n = in->vec;
	struct macc c;

	mem_begin(b, w, &c, EX_ATOMIC);
	FOR_LANES(l, act) {
		uint8_t *p = fast_ptr(b, w, (int)l, in->space,
				      addr_of(b, w, a, (int)l), size * n, &c);
		uint64_t old[MAX_VEC];
		if (!p)
			return -1;
		b->atomics++;
		for (unsigned e = 0; e < n; e++) {
			uint64_t x = v->vec[e] >= 0 ? w->r[v->vec[e]][l] : 0;
			old[e] = ptype_half(in->type) ?
				 atom_half(p + e * size, in->sub, in->type, x) :
				 atom_float(p + e * size, in->sub, in->type, x);
		}
		/* after every element: a result may name a value's register */
		for (unsigned e = 0; !red && e < n; e++)
			if (d->vec[e] >= 0)
				w->r[d->vec[e]][l] = old[e];
	}
	mem_flush(b, &c);
	return 0;
}

/* atom{.space}.op.type d, [a], b{, c}; red{.space}.op.type [a], b */
static int do_atom(struct blk *b, struct warp *w, const struct insn *in,
		   uint32_t act)
{
	bool red = in->op == OP_RED;
	const struct operand *a = &in->o[red ? 0 : 1];
	struct src sb = src_of(b, w, in, red ? 1 : 2), sc = { 0 };
	uint64_t *D = red ? b->sink : dst_of(b, w, in->o[0].reg);
	unsigned size = ptype_bits(in->type) / 8;
	struct macc c;

	if (in->vec > 1)
		return do_atom_vector(b, w, in, act);
	if (size != 2 && size != 4 && size != 8)
		return ex_grid_fail(b, w, 0, EX_ILLEGAL_INSTRUCTION, 0,
				    "line %u: an atomic of %u bytes", in->line,
				    size), -1;
	if (in->sub == A_CAS)
		sc = src_of(b, w, in, 3);
	mem_begin(b, w, &c, EX_ATOMIC);
	if (act == FULL && in->space == SP_SHARED && size == 4 &&
	    in->sub == A_ADD && !ptype_float(in->type) && a->kind == K_MEM &&
	    a->reg >= 0)
		return shared_add_warp(b, w, a, sb.p, D);
	FOR_LANES(l, act) {
		uint8_t *p = fast_ptr(b, w, (int)l, in->space,
				      addr_of(b, w, a, (int)l), size, &c);
		if (!p)
			return -1;
		b->atomics++;
		if (in->space == SP_SHARED && size == 4 && in->sub == A_ADD &&
		    !ptype_float(in->type)) {
			/* a block's shared memory is its host thread's alone */
			uint32_t old, x = (uint32_t)V(sb, l);
			memcpy(&old, p, 4);
			D[l] = old;   /* after x: D may be b's register */
			old += x;
			memcpy(p, &old, 4);
			continue;
		}
		if (ptype_half(in->type))
			D[l] = atom_half(p, in->sub, in->type, V(sb, l));
		else if (size == 2)
			D[l] = atom_cas16(p, V(sb, l), V(sc, l));
		else if (ptype_float(in->type) && in->sub != A_CAS)
			D[l] = atom_float(p, in->sub, in->type, V(sb, l));
		else
			D[l] = atom_int(p, in->sub, in->type, V(sb, l),
					in->sub == A_CAS ? V(sc, l) : 0);
	}
	mem_flush(b, &c);
	return 0;
}

/* mbarrier objects: 8 bytes of the block's shared memory, laid out by the
 * engine (the device's bits are its own: probes/mbarrier.cu read zeros
 * through ld.shared while one was live): the expected count in bits 0-19,
 * the arrivals the current phase still waits for in 20-39, its
 * transaction count (bytes expected less bytes completed, signed) in
 * 40-60, the phase's parity in bit 63; a phase completes when neither
 * arrivals nor bytes are pending. An arrival's state is what an H200 returns: the
 * phase's parity in bit 63 and the pending count before the arrival,
 * negated, in bits 43-62 (pending_count reads it back). */
#define MB_COUNT 0xfffffull

static uint64_t mb_state(uint64_t bar)
{
	return (bar & 1ull << 63) |
	       ((-(bar >> 20 & MB_COUNT)) & MB_COUNT) << 43;
}

#define MB_TX 0x1fffffull   /* 21 bits, two's complement */

/* The object from its parts; the phase completes (its parity flips, the
 * counts start again) when neither arrivals nor bytes are pending. */
static uint64_t mb_pack(uint64_t bar, uint64_t expect, uint64_t pending,
			uint64_t tx)
{
	if (pending == 0 && (tx & MB_TX) == 0)
		return ((bar & 1ull << 63) ^ 1ull << 63) | expect << 20 | expect;
	return (bar & 1ull << 63) | (tx & MB_TX) << 40 | pending << 20 | expect;
}

/* One lane's arrival of count (arrive_drop: the expected count drops by
 * it first), the state it returns in *state; false, changing nothing,
 * where count is more than the phase still waits for: an H200 fails the
 * launch (probes/results/mbartx.txt, mbartx.over). */
static bool mb_arrive(uint8_t *p, uint64_t count, bool drop, uint64_t *state)
{
	uint64_t bar, expect, pending;

	memcpy(&bar, p, 8);
	expect = bar & MB_COUNT;
	pending = bar >> 20 & MB_COUNT;
	if (count > pending)
		return false;
	*state = mb_state(bar);
	if (drop)
		expect = expect > count ? expect - count : 0;
	bar = mb_pack(bar, expect, pending - count, bar >> 40);
	memcpy(p, &bar, 8);
	return true;
}

/* The launch's failure at an arrival of count that mb_arrive refused. */
static int mb_over(struct blk *b, struct warp *w, int l, const struct insn *in,
		   uint64_t count)
{
	ex_grid_fail(b, w, l, EX_LAUNCH_FAILED, 0,
		     "line %u: an arrival of %llu on an mbarrier that waits for "
		     "fewer", in->line, (unsigned long long)count);
	return -1;
}

/* expect_tx (bytes > 0) and complete_tx (bytes < 0): the phase's
 * transaction count moves by bytes, and the phase completes if that
 * leaves nothing pending (a bulk copy made at once completes its bytes
 * before the expect_tx that usually follows it). */
static void mb_tx(uint8_t *p, int64_t bytes)
{
	uint64_t bar;

	memcpy(&bar, p, 8);
	bar = mb_pack(bar, bar & MB_COUNT, bar >> 20 & MB_COUNT,
		      (bar >> 40) + (uint64_t)bytes);
	memcpy(p, &bar, 8);
}

/* cp.async.mbarrier.arrive(.noinc) over the active lanes: each lane's
 * arrive-on, made at once as its copies were. Without .noinc the pending
 * count is raised by one before the arrive-on lowers it by one: the object
 * is left as it was (the phase cannot complete), only its address is
 * checked. With .noinc the arrive-on is one of the arrivals the barrier
 * was initialized for. 0, or -1 on a bad address. */
static int do_cp_arrive(struct blk *b, struct warp *w, const struct insn *in,
			uint32_t act)
{
	struct macc c;

	mem_begin(b, w, &c, EX_ATOMIC);
	FOR_LANES(l, act) {
		uint8_t *p = lane_ptr(b, w, (int)l, in->space,
				      addr_of(b, w, &in->o[0], (int)l), 8, &c);
		if (!p)
			return -1;
		uint64_t st;
		if ((in->flags & F_CPNOINC) && !mb_arrive(p, 1, false, &st))
			return mb_over(b, w, (int)l, in, 1);
	}
	mem_flush(b, &c);
	return 0;
}

/* cp.async.bulk: each lane's size bytes (a multiple of 16, both
 * addresses 16-byte aligned) copied at once, from global to shared memory
 * then the bytes completed on its mbarrier (complete_tx), or from shared
 * memory to global (a bulk group, whose wait has nothing left to wait
 * for). 0, or -1 on a bad address or size. */
static int do_cpbulk(struct blk *b, struct warp *w, const struct insn *in,
		     uint32_t act)
{
	bool to_shared = in->sub == CP_BULK;
	int dsp = to_shared ? SP_SHARED : SP_GLOBAL,
	    ssp = to_shared ? SP_GLOBAL : SP_SHARED;
	struct src sz = src_of(b, w, in, 2);
	struct macc cs, cd, cb;

	mem_begin(b, w, &cs, EX_READ);
	mem_begin(b, w, &cd, EX_WRITE);
	mem_begin(b, w, &cb, EX_ATOMIC);
	FOR_LANES(l, act) {
		uint64_t n = V(sz, l) & 0xffffffffu, to = addr_of(b, w, &in->o[0], l),
			 from = addr_of(b, w, &in->o[1], l);
		uint8_t *d, *s, *bar;

		if (n % 16) {
			ex_grid_fail(b, w, (int)l, EX_MISALIGNED_ADDRESS, from,
				     "line %u: cp.async.bulk of %llu bytes, not a "
				     "multiple of 16", in->line, (unsigned long long)n);
			return -1;
		}
		for (uint64_t i = 0; i < n; i += 16) {
			d = fast_ptr(b, w, (int)l, dsp, to + i, 16, &cd);
			s = d ? fast_ptr(b, w, (int)l, ssp, from + i, 16, &cs) : NULL;
			if (!s)
				return -1;
			memcpy(d, s, 16);
		}
		if (!to_shared)
			continue;
		bar = lane_ptr(b, w, (int)l, SP_SHARED,
			       addr_of(b, w, &in->o[3], l), 8, &cb);
		if (!bar)
			return -1;
		mb_tx(bar, -(int64_t)n);
	}
	mem_flush(b, &cs);
	mem_flush(b, &cd);
	mem_flush(b, &cb);
	return 0;
}

/* mbarrier.init, arrive, arrive_drop, arrive.expect_tx, expect_tx,
 * complete_tx, test_wait, try_wait, pending_count, inval over the active
 * lanes, one lane after another. A try_wait some
 * lane of which found its phase incomplete gives the warp's turn away
 * (1), as the device suspends it; 0 otherwise, -1 on a bad address. */
static int do_mbarrier(struct blk *b, struct warp *w, const struct insn *in,
		       uint32_t act)
{
	int mode = in->sub, mi = mode == MB_INIT || mode == MB_INVAL ||
		mode == MB_EXPECT_TX || mode == MB_COMPLETE_TX ? 0 : 1;
	uint64_t *D = dst_of(b, w, in->o[0].reg);
	struct src sv = src_of(b, w, in, mode == MB_PENDING ? 1 : mi + 1);
	bool yield = false;
	struct macc c;

	if (mode == MB_PENDING) {
		FOR_LANES(l, act)
			D[l] = (-(V(sv, l) >> 43)) & MB_COUNT;
		return 0;
	}
	mem_begin(b, w, &c, mode == MB_TEST_WAIT || mode == MB_TRY_WAIT ?
		  EX_READ : EX_ATOMIC);
	FOR_LANES(l, act) {
		uint8_t *p = lane_ptr(b, w, (int)l, in->space,
				      addr_of(b, w, &in->o[mi], (int)l), 8, &c);
		uint64_t bar, n = in->nops > 2 ? V(sv, l) : 1;
		if (!p)
			return -1;
		switch (mode) {
		case MB_INIT:
			n = V(sv, l) & MB_COUNT;
			bar = n << 20 | n;
			memcpy(p, &bar, 8);
			break;
		case MB_INVAL:
			memset(p, 0, 8);
			break;
		case MB_ARRIVE: case MB_ARRIVE_DROP:
			if (!mb_arrive(p, n & MB_COUNT, mode == MB_ARRIVE_DROP, &D[l]))
				return mb_over(b, w, (int)l, in, n & MB_COUNT);
			break;
		case MB_EXPECT_TX:
			mb_tx(p, (int64_t)(V(sv, l) & MB_COUNT));
			break;
		case MB_COMPLETE_TX:
			mb_tx(p, -(int64_t)(V(sv, l) & MB_COUNT));
			break;
		case MB_ARRIVE_TX:      /* the bytes first, then one arrival */
			mb_tx(p, (int64_t)(V(sv, l) & MB_COUNT));
			if (!mb_arrive(p, 1, false, &D[l]))
				return mb_over(b, w, (int)l, in, 1);
			break;
		default:                /* test_wait, try_wait */
			memcpy(&bar, p, 8);
			n = (in->flags & F_PARITY) ? V(sv, l) & 1 : V(sv, l) >> 63;
			D[l] = n != bar >> 63;
			yield |= mode == MB_TRY_WAIT && !D[l];
			break;
		}
	}
	mem_flush(b, &c);
	return yield;
}

/* The SIMD video instructions (video.c), lane by lane. */
static void do_video(struct blk *b, struct warp *w, const struct insn *in,
		     uint32_t act)
{
	struct src sa = src_of(b, w, in, 1), sb = src_of(b, w, in, 2),
		   sc = src_of(b, w, in, 3);
	uint64_t *D = dst_of(b, w, in->o[0].reg);

	FOR_LANES(l, act)
		D[l] = ex_video(in, (uint32_t)V(sa, l), (uint32_t)V(sb, l),
				(uint32_t)V(sc, l));
}

/* ------------------------------------------------------------------ */
/* Textures and surfaces (texture.c samples; this reads the elements)  */

/* One lane's reads of a texture's or surface's elements: within its
 * resource, through the translation cache where the resource is device
 * memory (tallied as a load of it), at once for an array (tallied at
 * the array's place). */
struct tex_lane {
	struct blk *b;
	struct warp *w;
	int l;
	struct macc *c;
	const struct ex_tex *t;
};

static const uint8_t *tex_at(void *arg, uint64_t a, unsigned size)
{
	struct tex_lane *x = arg;
	const struct ex_tex *t = x->t;

	if (a < t->base || a - t->base > t->bytes ||
	    t->bytes - (a - t->base) < size) {
		ex_grid_fail(x->b, x->w, x->l, EX_ILLEGAL_ADDRESS, a,
			     "a texture or surface access at 0x%llx outside "
			     "its resource", (unsigned long long)a);
		return NULL;
	}
	if (t->global)
		return fast_ptr(x->b, x->w, x->l, SP_GLOBAL, a, size, x->c);
	mem_count(x->c, a, size);
	return (const uint8_t *)(uintptr_t)a;
}

/* The object lane l's handle h names: the one the instruction's lanes
 * before named (*have, h + 1), or one this thread's blocks of the launch
 * named before, or else the bridge's answer. */
static int tex_object(struct blk *b, struct warp *w, const struct insn *in,
		      int l, uint64_t h, struct ex_tex *t, uint64_t *have,
		      struct macc *c)
{
	const struct ex_memops *mo = &b->l->mem;
	bool surface = in->op == OP_SULD || in->op == OP_SUST;
	const char *why = NULL;
	enum ex_status st;
	int k;

	if (*have == h + 1)
		return 0;
	mem_flush(b, c);
	for (k = 0; k < b->ntex; k++)
		if (b->tex[k].h == h && b->tex[k].surface == surface)
			break;
	if (k < b->ntex) {
		*t = b->tex[k].t;
	} else {
		st = mo->texture ? mo->texture(mo->ctx, h, surface, t, &why) :
				   EX_ILLEGAL_ADDRESS;
		if (st != EX_OK) {
			ex_grid_fail(b, w, l, st, h, "line %u: %s", in->line,
				     why ? why : surface ?
				     "no surface object of this handle" :
				     "no texture object of this handle");
			return -1;
		}
		k = b->ntex < 4 ? b->ntex++ : (int)(h & 3);
		b->tex[k] = (struct texheld){ h, surface, *t };
	}
	if (!t->global) {
		c->place = t->place;
		c->lastpg = ~0ull;
	}
	*have = h + 1;
	return 0;
}

/* tex and tld4: a fetch each active lane, four 32-bit results. */
static int do_tex(struct blk *b, struct warp *w, const struct insn *in,
		  uint32_t act)
{
	const struct operand *d = &in->o[0], *a = &in->o[1];
	uint64_t *dst[4], have = 0;
	struct ex_tex t;
	struct macc c;

	for (int e = 0; e < 4; e++)
		dst[e] = dst_of(b, w, d->vec[e]);
	mem_begin(b, w, &c, EX_READ);
	FOR_LANES(l, act) {
		struct tex_query q = { in->sub, in->type2 == T_S32,
				       in->op == OP_TLD4 ? in->boolop : -1,
				       { 0, 0, 0, 0 } };
		struct tex_lane x = { b, w, (int)l, &c, &t };
		struct tex_reader rd = { tex_at, &x };
		uint32_t out[4];

		for (int e = 0; e < a->n && e < 4; e++)
			q.c[e] = a->vec[e] >= 0 ? (uint32_t)w->r[a->vec[e]][l] : 0;
		if (tex_object(b, w, in, (int)l, w->r[a->reg][l], &t, &have, &c) ||
		    tex_fetch(&t, &q, &rd, out))
			return -1;
		for (int e = 0; e < 4; e++)
			dst[e][l] = out[e];
	}
	mem_flush(b, &c);
	return 0;
}

/* A surface access's x (bytes), y and layer or slice from lane l's
 * coordinates, by geometry ({x}, {x, y}, {x, y, z, _}, {layer, x},
 * {layer, x, y, _}). */
static void surf_coords(const struct warp *w, const struct insn *in,
			const struct operand *a, int l, int64_t xyz[3])
{
	int32_t v[4] = { 0, 0, 0, 0 };
	int first = in->sub == G_A1D || in->sub == G_A2D;

	for (int e = 0; e < a->n && e < 4; e++)
		v[e] = a->vec[e] >= 0 ? (int32_t)w->r[a->vec[e]][l] : 0;
	xyz[0] = v[first];
	xyz[1] = in->sub == G_A1D ? 0 : v[first + 1];
	xyz[2] = first ? v[0] : in->sub == G_3D ? v[2] : 0;
}

/* suld.b and sust.b: each active lane's element of in->vec values of
 * the instruction's type, at its byte x. */
static int do_surf(struct blk *b, struct warp *w, const struct insn *in,
		   uint32_t act)
{
	bool st = in->op == OP_SUST;
	const struct operand *a = &in->o[st ? 0 : 1], *v = &in->o[st ? 1 : 0];
	unsigned esz = ptype_bits(in->type) / 8, size = esz * in->vec;
	uint64_t have = 0;
	struct ex_tex t;
	struct macc c;

	mem_begin(b, w, &c, st ? EX_WRITE : EX_READ);
	FOR_LANES(l, act) {
		struct tex_lane x = { b, w, (int)l, &c, &t };
		int64_t xyz[3];
		uint64_t addr = 0;
		uint8_t *p = NULL;

		if (tex_object(b, w, in, (int)l, w->r[a->reg][l], &t, &have, &c))
			return -1;
		surf_coords(w, in, a, (int)l, xyz);
		switch (tex_surface_at(&t, in->sub, in->boolop, xyz[0], xyz[1],
				       xyz[2], size, &addr)) {
		case TEX_SURF_MISALIGNED:
			ex_grid_fail(b, w, (int)l, EX_MISALIGNED_ADDRESS, addr,
				     "line %u: a surface access of %u bytes at "
				     "byte %lld", in->line, size, (long long)xyz[0]);
			return -1;
		case TEX_SURF_TRAP:
			ex_grid_fail(b, w, (int)l, EX_ILLEGAL_ADDRESS, addr,
				     "line %u: a surface access at (%lld, %lld, "
				     "%lld) outside its surface (.trap)", in->line,
				     (long long)xyz[0], (long long)xyz[1],
				     (long long)xyz[2]);
			return -1;
		case TEX_SURF_ZERO:
			break;
		default:
			p = (uint8_t *)tex_at(&x, addr, size);
			if (!p)
				return -1;
			break;
		}
		for (unsigned e = 0; e < in->vec; e++) {
			int reg = v->vec[e];
			if (st) {
				if (p && reg >= 0)
					store(p + e * esz, w->r[reg][l], esz);
			} else {
				dst_of(b, w, reg)[l] = p ? load(p + e * esz, esz) : 0;
			}
		}
	}
	mem_flush(b, &c);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Arithmetic                                                          */

static uint64_t int_add(uint64_t a, uint64_t b, unsigned bits, bool sat)
{
	if (sat) {   /* add.sat.s32 */
		int64_t r = (int64_t)(int32_t)a + (int32_t)b;
		r = r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r;
		return (uint32_t)r;
	}
	return (a + b) & bits_mask(bits);
}

static uint64_t mul_hi(uint64_t a, uint64_t b, unsigned bits, bool s)
{
	if (bits == 64) {
		if (s)
			return (uint64_t)(((__int128)(int64_t)a * (int64_t)b) >> 64);
		return (uint64_t)(((unsigned __int128)a * b) >> 64);
	}
	if (s)
		return (uint64_t)((sext(a, bits) * sext(b, bits)) >> bits) &
		       bits_mask(bits);
	return (((a & bits_mask(bits)) * (b & bits_mask(bits))) >> bits) &
	       bits_mask(bits);
}

static uint64_t mul_wide(uint64_t a, uint64_t b, unsigned bits, bool s)
{
	if (s)
		return (uint64_t)(sext(a, bits) * sext(b, bits)) &
		       bits_mask(bits * 2);
	return ((a & bits_mask(bits)) * (b & bits_mask(bits))) &
	       bits_mask(bits * 2);
}

static uint64_t int_div(uint64_t a, uint64_t b, unsigned bits, bool s, bool rem)
{
	uint64_t m = bits_mask(bits);

	if ((b & m) == 0)
		return m;   /* the device's answer to a division by zero */
	if (s) {
		int64_t x = sext(a, bits), y = sext(b, bits);
		if (y == -1)
			return rem ? 0 : (uint64_t)(-(uint64_t)x) & m;
		return (uint64_t)(rem ? x % y : x / y) & m;
	}
	a &= m;
	b &= m;
	return rem ? a % b : a / b;
}

static uint64_t int_minmax(uint64_t a, uint64_t b, unsigned bits, bool s,
			   bool max)
{
	if (s) {
		int64_t x = sext(a, bits), y = sext(b, bits);
		return (uint64_t)((max ? x > y : x < y) ? x : y) & bits_mask(bits);
	}
	a &= bits_mask(bits);
	b &= bits_mask(bits);
	return (max ? a > b : a < b) ? a : b;
}

static float fminmax32(float a, float b, bool max)
{
	if (isnan(a) && isnan(b))
		return f32(0x7fffffff);
	if (isnan(a))
		return b;
	if (isnan(b))
		return a;
	if (a == 0 && b == 0) {
		uint32_t x = (uint32_t)bf32(a), y = (uint32_t)bf32(b);
		return f32(max ? (x & y) : (x | y));
	}
	return max ? (a > b ? a : b) : (a < b ? a : b);
}

static double fminmax64(double a, double b, bool max)
{
	if (isnan(a) && isnan(b))   /* the second, quieted */
		return f64(quiet64(bf64(b)));
	if (isnan(a))
		return b;
	if (isnan(b))
		return a;
	if (a == 0 && b == 0) {
		uint64_t x = bf64(a), y = bf64(b);
		return f64(max ? (x & y) : (x | y));
	}
	return max ? (a > b ? a : b) : (a < b ? a : b);
}

/* .sat: NaN and -0 are +0 */
static inline float sat01(float f)
{
	return isnan(f) || f <= 0 ? 0.0f : f > 1 ? 1.0f : f;
}
static inline double sat01d(double f)
{
	return isnan(f) || f <= 0 ? 0.0 : f > 1 ? 1.0 : f;
}

/* div.approx.f32: a / b within its 2 ulp, and 0 (NaN for an infinite a) where
 * 2^126 < |b| < 2^128, as PTX defines it. */
static float div_approx(float a, float b)
{
	float m = fabsf(b);

	if (m > 0x1p126f && m < INFINITY)
		return isinf(a) ? NAN : 0.0f * a;
	return (float)((double)a / b);
}

/* A float operation of one or more operands, for every active lane. */
static void float_op(struct blk *b, struct warp *w, const struct insn *in,
		     uint32_t act)
{
	uint64_t *D = dst_of(b, w, in->o[0].reg);
	struct src sa = src_of(b, w, in, 1), sb = { 0 }, sc = { 0 };
	bool fz = in->flags & F_FTZ, sat = in->flags & F_SAT;
	int op = in->op, old = 0, mode = fe_mode(in->rnd);

	if (in->nops > 2)
		sb = src_of(b, w, in, 2);
	if (in->nops > 3)
		sc = src_of(b, w, in, 3);
	if (mode != FE_TONEAREST) {
		old = fegetround();
		fesetround(mode);
	}
	if (in->type == T_F32) {
		FOR_LANES(l, act) {
			float x = f32(V(sa, l)), y = 0, z = 0, r;
			if (in->nops > 2) y = f32(V(sb, l));
			if (in->nops > 3) z = f32(V(sc, l));
			if (fz) { x = ftz(x); y = ftz(y); z = ftz(z); }
			switch (op) {
			case OP_ADD: r = x + y; break;
			case OP_SUB: r = x - y; break;
			case OP_MUL: r = x * y; break;
			case OP_MAD: case OP_FMA: r = fmaf(x, y, z); break;
			case OP_DIV:
				r = (in->flags & F_APPROX) ? div_approx(x, y) : x / y;
				break;
			case OP_ABS: r = isnan(x) ? x : f32(bf32(x) & 0x7fffffffu); break;
			case OP_NEG: r = isnan(x) ? x : f32(bf32(x) ^ 0x80000000u); break;
			case OP_MIN: r = fminmax32(x, y, false); D[l] = bf32(fz ? ftz(r) : r); continue;
			case OP_MAX: r = fminmax32(x, y, true); D[l] = bf32(fz ? ftz(r) : r); continue;
			case OP_RCP: r = 1.0f / x; break;
			case OP_SQRT: r = sqrtf(x); break;
			case OP_RSQRT: r = 1.0f / sqrtf(x); break;
			case OP_SIN: r = sinf(x); break;
			case OP_COS: r = cosf(x); break;
			case OP_LG2: r = log2f(x); break;
			case OP_EX2: r = exp2f(x); break;
			case OP_TANH: r = tanhf(x); break;
			case OP_COPYSIGN: r = copysignf(y, x); D[l] = bf32(r); continue;
			default: r = 0; break;
			}
			if (sat)
				r = sat01(r);
			if (fz)
				r = ftz(r);
			D[l] = canon32(r);
		}
	} else {
		FOR_LANES(l, act) {
			double x = f64(V(sa, l)), y = 0, z = 0, r;
			if (in->nops > 2) y = f64(V(sb, l));
			if (in->nops > 3) z = f64(V(sc, l));
			switch (op) {
			case OP_ADD: r = x + y; break;
			case OP_SUB: r = x - y; break;
			case OP_MUL: r = x * y; break;
			case OP_MAD: case OP_FMA: r = fma(x, y, z); break;
			case OP_DIV: r = x / y; break;
			case OP_ABS:
				D[l] = isnan(x) ? quiet64(bf64(x)) & ~(1ull << 63) :
				       bf64(x) & ~(1ull << 63);
				continue;
			case OP_NEG:
				D[l] = isnan(x) ? quiet64(bf64(x)) : bf64(x) ^ (1ull << 63);
				continue;
			case OP_MIN: D[l] = bf64(fminmax64(x, y, false)); continue;
			case OP_MAX: D[l] = bf64(fminmax64(x, y, true)); continue;
			case OP_RCP: r = 1.0 / x; break;
			case OP_SQRT: r = sqrt(x); break;
			case OP_RSQRT: r = 1.0 / sqrt(x); break;
			case OP_SIN: r = sin(x); break;
			case OP_COS: r = cos(x); break;
			case OP_LG2: r = log2(x); break;
			case OP_EX2: r = exp2(x); break;
			case OP_TANH: r = tanh(x); break;
			case OP_COPYSIGN: D[l] = bf64(copysign(y, x)); continue;
			default: r = 0; break;
			}
			if (sat)
				r = sat01d(r);
			D[l] = bf64(r);
		}
	}
	if (mode != FE_TONEAREST)
		fesetround(old);
}

/* Integer arithmetic and logic, every active lane. */
static void int_op(struct blk *b, struct warp *w, const struct insn *in,
		   uint32_t act)
{
	uint64_t *D = dst_of(b, w, in->o[0].reg);
	struct src sa = src_of(b, w, in, 1), sb = { 0 }, sc = { 0 };
	unsigned bits = ptype_bits(in->type);
	bool s = ptype_signed(in->type), sat = in->flags & F_SAT;
	uint64_t m = bits_mask(bits);
	uint32_t f = in->flags;

	if (in->type == T_PRED)
		bits = 1, m = 1;
	if (in->nops > 2)
		sb = src_of(b, w, in, 2);
	if (in->nops > 3)
		sc = src_of(b, w, in, 3);
	switch (in->op) {
	case OP_ADD: case OP_SUB:
		FOR_LANES(l, act) {
			uint64_t x = V(sa, l), y = V(sb, l), cin = 0, r;
			if (in->op == OP_SUB)
				y = ~y & m, cin = 1;
			if (f & F_CARRYIN)   /* subc's flag is a borrow */
				cin = in->op == OP_SUB ? !w->carry[l] : w->carry[l];
			if (sat && in->op == OP_SUB) {
				int64_t rr = (int64_t)(int32_t)x - (int32_t)V(sb, l);
				rr = rr > INT32_MAX ? INT32_MAX : rr < INT32_MIN ? INT32_MIN : rr;
				D[l] = (uint32_t)rr;
				continue;
			}
			if (sat) {
				D[l] = int_add(x, y, bits, true);
				continue;
			}
			r = (x & m) + (y & m) + cin;
			if (f & F_CC) {
				bool carry = bits == 64 ?
					(bool)(((unsigned __int128)x + y + cin) >> 64) :
					(bool)((r >> bits) & 1);
				/* sub.cc's flag is a borrow: no carry out */
				w->carry[l] = in->op == OP_SUB ? !carry : carry;
			}
			D[l] = r & m;
		}
		break;
	case OP_MUL: case OP_MUL24:
		FOR_LANES(l, act) {
			uint64_t x = V(sa, l), y = V(sb, l);
			if (in->op == OP_MUL24) {
				x = s ? (uint64_t)sext(x, 24) : x & 0xffffff;
				y = s ? (uint64_t)sext(y, 24) : y & 0xffffff;
				D[l] = (f & F_HI) ? ((x * y) >> 16) & m : (x * y) & m;
			} else if (f & F_HI)
				D[l] = mul_hi(x, y, bits, s);
			else if (f & F_WIDE)
				D[l] = mul_wide(x, y, bits, s);
			else
				D[l] = (x * y) & m;
		}
		break;
	case OP_MAD: case OP_MAD24:
		FOR_LANES(l, act) {
			uint64_t x = V(sa, l), y = V(sb, l), z = V(sc, l), p;
			if (in->op == OP_MAD24) {
				x = s ? (uint64_t)sext(x, 24) : x & 0xffffff;
				y = s ? (uint64_t)sext(y, 24) : y & 0xffffff;
				p = (f & F_HI) ? (x * y) >> 16 : x * y;
				D[l] = (p + z) & m;
				continue;
			}
			if (f & F_HI) {
				p = mul_hi(x, y, bits, s);
			} else if (f & F_WIDE) {
				D[l] = (mul_wide(x, y, bits, s) + z) & bits_mask(bits * 2);
				continue;
			} else {
				p = x * y;
			}
			if (sat && (f & F_HI)) {
				int64_t r = (int64_t)(int32_t)p + (int32_t)z;
				r = r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r;
				D[l] = (uint32_t)r;
				continue;
			}
			D[l] = (p + z + ((f & F_CARRYIN) ? w->carry[l] : 0)) & m;
		}
		break;
	case OP_SAD:
		FOR_LANES(l, act) {
			uint64_t x = V(sa, l), y = V(sb, l), z = V(sc, l);
			uint64_t d = s ? (uint64_t)(sext(x, bits) > sext(y, bits) ?
				sext(x, bits) - sext(y, bits) : sext(y, bits) - sext(x, bits)) :
				((x & m) > (y & m) ? (x & m) - (y & m) : (y & m) - (x & m));
			D[l] = (d + z) & m;
		}
		break;
	case OP_DIV: case OP_REM:
		FOR_LANES(l, act)
			D[l] = int_div(V(sa, l), V(sb, l), bits, s, in->op == OP_REM);
		break;
	case OP_ABS:
		FOR_LANES(l, act) {
			int64_t x = sext(V(sa, l), bits);
			D[l] = (uint64_t)(x < 0 ? -(uint64_t)x : (uint64_t)x) & m;
		}
		break;
	case OP_NEG:
		FOR_LANES(l, act)
			D[l] = (0 - V(sa, l)) & m;
		break;
	case OP_MIN: case OP_MAX:
		FOR_LANES(l, act)
			D[l] = int_minmax(V(sa, l), V(sb, l), bits, s, in->op == OP_MAX);
		break;
	case OP_AND:
		FOR_LANES(l, act) D[l] = V(sa, l) & V(sb, l) & m;
		break;
	case OP_OR:
		FOR_LANES(l, act) D[l] = (V(sa, l) | V(sb, l)) & m;
		break;
	case OP_XOR:
		FOR_LANES(l, act) D[l] = (V(sa, l) ^ V(sb, l)) & m;
		break;
	case OP_NOT:
		FOR_LANES(l, act) D[l] = ~V(sa, l) & m;
		break;
	case OP_CNOT:
		FOR_LANES(l, act) D[l] = (V(sa, l) & m) == 0;
		break;
	case OP_SHL:
		FOR_LANES(l, act) {
			uint64_t n = V(sb, l) & 0xffffffffu;
			D[l] = n >= bits ? 0 : (V(sa, l) << n) & m;
		}
		break;
	case OP_SHR:
		FOR_LANES(l, act) {
			uint64_t n = V(sb, l) & 0xffffffffu;
			if (s) {
				int64_t x = sext(V(sa, l), bits);
				D[l] = (uint64_t)(x >> (n >= bits ? bits - 1 : n)) & m;
			} else {
				D[l] = n >= bits ? 0 : ((V(sa, l) & m) >> n);
			}
		}
		break;
	default:
		break;
	}
}

/* bfe, bfi, brev, clz, popc, prmt, shf, bfind */
static void bit_op(struct blk *b, struct warp *w, const struct insn *in,
		   uint32_t act)
{
	uint64_t *D = dst_of(b, w, in->o[0].reg);
	struct src sa = src_of(b, w, in, 1), sb = { 0 }, sc = { 0 }, sd = { 0 };
	unsigned bits = ptype_bits(in->type);
	uint64_t m = bits_mask(bits);
	bool s = ptype_signed(in->type);

	if (in->nops > 2) sb = src_of(b, w, in, 2);
	if (in->nops > 3) sc = src_of(b, w, in, 3);
	if (in->nops > 4) sd = src_of(b, w, in, 4);
	FOR_LANES(l, act) {
		uint64_t a = V(sa, l) & m, r = 0;
		switch (in->op) {
		case OP_BFE: {
			unsigned pos = V(sb, l) & 0xff, len = V(sc, l) & 0xff;
			unsigned msb = bits - 1;
			uint64_t sbit = 0;
			if (s && len)
				sbit = (a >> (pos + len - 1 < msb ? pos + len - 1 : msb)) & 1;
			for (unsigned i = 0; i <= msb; i++) {
				uint64_t bit = (i < len && pos + i <= msb) ?
					(a >> (pos + i)) & 1 : sbit;
				r |= bit << i;
			}
			break;
		}
		case OP_BFI: {
			uint64_t base = V(sb, l) & m;
			unsigned pos = V(sc, l) & 0xff, len = V(sd, l) & 0xff;
			r = base;
			for (unsigned i = 0; i < len && pos + i < bits; i++) {
				r &= ~(1ull << (pos + i));
				r |= ((a >> i) & 1) << (pos + i);
			}
			break;
		}
		case OP_BREV:
			for (unsigned i = 0; i < bits; i++)
				r |= ((a >> i) & 1) << (bits - 1 - i);
			break;
		case OP_CLZ:
			r = a ? (uint64_t)(__builtin_clzll(a) - (64 - (int)bits)) : bits;
			break;
		case OP_POPC:
			r = (uint64_t)__builtin_popcountll(a);
			break;
		case OP_PRMT: {
			uint64_t x = (V(sa, l) & 0xffffffffu) |
				     (V(sb, l) & 0xffffffffu) << 32;
			uint32_t c = (uint32_t)V(sc, l);
			for (int i = 0; i < 4; i++) {
				unsigned sel = (c >> (4 * i)) & 0xf;
				uint64_t byte = (x >> ((sel & 7) * 8)) & 0xff;
				if (sel & 8)
					byte = (byte & 0x80) ? 0xff : 0;
				r |= byte << (8 * i);
			}
			break;
		}
		case OP_BMSK: {
			/* b bits set from bit a (wrap: each mod 32; clamp: a
			 * position past 31 gives none, a width past 31 all
			 * bits from a up) */
			uint32_t pos = (uint32_t)a, len = (uint32_t)V(sb, l);
			uint64_t lo, hi;
			if (in->flags & F_CLAMP) {
				pos = pos > 32 ? 32 : pos;
				len = len > 32 ? 32 : len;
			} else {
				pos &= 31;
				len &= 31;
			}
			lo = (~0ull << pos) & 0xffffffffu;
			hi = pos + len >= 32 ? 0 : (~0ull << (pos + len)) & 0xffffffffu;
			r = lo & ~hi;
			break;
		}
		case OP_SHF: {
			uint64_t hi = V(sb, l) & 0xffffffffu, lo = a & 0xffffffffu;
			uint64_t cat = hi << 32 | lo;
			uint32_t n = (uint32_t)V(sc, l);
			n = (in->flags & F_CLAMP) ? (n > 32 ? 32 : n) : n & 31;
			if (in->flags & F_RIGHT)
				r = (cat >> n) & 0xffffffffu;
			else
				r = ((cat << n) >> 32) & 0xffffffffu;
			break;
		}
		case OP_BFIND: {
			uint64_t x = a;
			if (s && ((x >> (bits - 1)) & 1))
				x = ~x & m;
			if (!x) {
				r = 0xffffffffu;
				break;
			}
			r = 63 - (uint64_t)__builtin_clzll(x);
			if (in->flags & F_SHIFTAMT)
				r = bits - 1 - r;
			D[l] = r;
			continue;
		}
		default:
			break;
		}
		D[l] = in->op == OP_POPC || in->op == OP_CLZ ? r : r & m;
	}
}

/* ------------------------------------------------------------------ */
/* Comparisons, selection, conversion                                  */

static bool compare(const struct insn *in, enum ptype t, uint64_t a,
		    uint64_t b)
{
	int c = in->sub;

	if (t == T_F32 || t == T_F64) {
		double x = t == T_F32 ? (double)((in->flags & F_FTZ) ? ftz(f32(a)) : f32(a)) : f64(a);
		double y = t == T_F32 ? (double)((in->flags & F_FTZ) ? ftz(f32(b)) : f32(b)) : f64(b);
		bool un = isnan(x) || isnan(y);
		switch (c) {
		case C_EQ: return !un && x == y;
		case C_NE: return !un && x != y;
		case C_LT: return !un && x < y;
		case C_LE: return !un && x <= y;
		case C_GT: return !un && x > y;
		case C_GE: return !un && x >= y;
		case C_EQU: return un || x == y;
		case C_NEU: return un || x != y;
		case C_LTU: return un || x < y;
		case C_LEU: return un || x <= y;
		case C_GTU: return un || x > y;
		case C_GEU: return un || x >= y;
		case C_NUM: return !un;
		case C_NAN: return un;
		default: return false;
		}
	}
	unsigned bits = ptype_bits(t);
	if (t == T_PRED)
		bits = 1;
	if (ptype_signed(t) && c >= C_LT && c <= C_GE) {
		int64_t x = sext(a, bits), y = sext(b, bits);
		switch (c) {
		case C_LT: return x < y;
		case C_LE: return x <= y;
		case C_GT: return x > y;
		default: return x >= y;
		}
	}
	a &= bits_mask(bits);
	b &= bits_mask(bits);
	switch (c) {
	case C_EQ: return a == b;
	case C_NE: return a != b;
	case C_LT: case C_LO: return a < b;
	case C_LE: case C_LS: return a <= b;
	case C_GT: case C_HI: return a > b;
	case C_GE: case C_HS: return a >= b;
	default: return false;
	}
}

static inline bool combine(int op, bool t, bool c)
{
	switch (op) {
	case B_AND: return t && c;
	case B_OR: return t || c;
	case B_XOR: return t != c;
	default: return t;
	}
}

static void do_setp(struct blk *b, struct warp *w, const struct insn *in,
		    uint32_t act)
{
	bool set = in->op == OP_SET;
	uint64_t *D = dst_of(b, w, in->o[0].reg), *Q = dst_of(b, w, in->dest2);
	struct src sa = src_of(b, w, in, 1), sb = src_of(b, w, in, 2), sc = { 0 };
	enum ptype t = set ? in->type2 : in->type;
	bool hasc = in->boolop && in->nops > 3;

	if (hasc)
		sc = src_of(b, w, in, 3);
	FOR_LANES(l, act) {
		bool r = compare(in, t, V(sa, l), V(sb, l));
		bool c = hasc ? (V(sc, l) & 1) : false;
		bool p = combine(in->boolop, r, c);
		if (!set) {
			D[l] = p;
			if (in->dest2 >= 0)
				Q[l] = combine(in->boolop, !r, c);
			continue;
		}
		if (in->type == T_F32)
			D[l] = p ? 0x3f800000u : 0;
		else
			D[l] = p ? 0xffffffffu : 0;
	}
}

static void do_selp(struct blk *b, struct warp *w, const struct insn *in,
		    uint32_t act)
{
	uint64_t *D = dst_of(b, w, in->o[0].reg);
	struct src sa = src_of(b, w, in, 1), sb = src_of(b, w, in, 2),
		   sc = src_of(b, w, in, 3);

	if (in->op == OP_SELP) {
		FOR_LANES(l, act)
			D[l] = (V(sc, l) & 1) ? V(sa, l) : V(sb, l);
		return;
	}
	FOR_LANES(l, act) {   /* slct: c >= 0 */
		bool ge = in->type2 == T_F32 ?
			((in->flags & F_FTZ) ? ftz(f32(V(sc, l))) : f32(V(sc, l))) >= 0 :
			(int32_t)V(sc, l) >= 0;
		D[l] = ge ? V(sa, l) : V(sb, l);
	}
}

/* A float to an integer type: rounded, saturated. NaN is 0 from f32 to
 * 32 bits, the top bit alone otherwise (as the device answers). */
static uint64_t f2i(double x, int rnd, enum ptype t, bool from32)
{
	unsigned bits = ptype_bits(t);

	if (isnan(x))
		return from32 && bits <= 32 ? 0 : 1ull << (bits - 1);
	x = ex_round_int(x, rnd ? rnd : R_RZ);
	if (ptype_signed(t)) {
		double lo = -ldexp(1, (int)bits - 1), hi = ldexp(1, (int)bits - 1);
		if (x < lo)
			return (uint64_t)(int64_t)lo & bits_mask(bits);
		if (x >= hi)
			return bits_mask(bits - 1);
		return (uint64_t)(int64_t)x & bits_mask(bits);
	}
	if (x <= 0)
		return 0;
	if (x >= ldexp(1, (int)bits))
		return bits_mask(bits);
	return (uint64_t)x;
}

static uint64_t cvt_one(const struct insn *in, uint64_t a)
{
	enum ptype d = in->type, s = in->type2;
	unsigned db = ptype_bits(d), sb = ptype_bits(s);
	bool fz = in->flags & F_FTZ, sat = in->flags & F_SAT;

	if (d == T_TF32)    /* cvt.rna.tf32.f32 and its .rn, .rz forms */
		return wm_tf32((uint32_t)a, in->rnd);

	if (ptype_float(s)) {
		double x = s == T_F32 ? (double)(fz ? ftz(f32(a)) : f32(a)) : f64(a);
		if (!ptype_float(d))
			return f2i(x, in->rnd, d, s == T_F32);
		if (in->flags & F_INT_RND)
			x = isnan(x) ? x : ex_round_int(x, in->rnd);
		if (sat)
			x = sat01d(x);
		if (d == T_F64)   /* a NaN kept, quieted, as the host converts */
			return s == T_F64 && isnan(x) ? quiet64(a) : bf64(x);
		/* f64 to f32 rounds in the mode do_cvt set */
		float f = (float)x;
		if (fz)
			f = ftz(f);
		if (s == T_F64)
			return bf32(f);
		return s == T_F32 && !isnan(x) && !(in->flags & (F_INT_RND | F_SAT)) &&
		       !fz ? a & 0xffffffffu : canon32(f);
	}
	/* from an integer */
	int64_t sv = ptype_signed(s) ? sext(a, sb) : (int64_t)(a & bits_mask(sb));
	uint64_t uv = a & bits_mask(sb);
	if (ptype_float(d)) {
		if (d == T_F32) {
			float f = ptype_signed(s) ? (float)sv : (float)uv;
			if (sat) f = sat01(f);
			return bf32(f);
		}
		double x = ptype_signed(s) ? (double)sv : (double)uv;
		if (sat) x = sat01d(x);
		return bf64(x);
	}
	if (sat) {
		if (ptype_signed(d)) {
			int64_t lo = -(int64_t)(1ull << (db - 1) >> 0);
			int64_t hi = (int64_t)((1ull << (db - 1)) - 1);
			if (db == 64) { lo = INT64_MIN; hi = INT64_MAX; }
			if (!ptype_signed(s) && uv > (uint64_t)hi)
				return (uint64_t)hi & bits_mask(db);
			if (ptype_signed(s) && sv < lo)
				return (uint64_t)lo & bits_mask(db);
			if (ptype_signed(s) && sv > hi)
				return (uint64_t)hi;
			return (ptype_signed(s) ? (uint64_t)sv : uv) & bits_mask(db);
		}
		if (ptype_signed(s) && sv < 0)
			return 0;
		if ((ptype_signed(s) ? (uint64_t)sv : uv) > bits_mask(db))
			return bits_mask(db);
		return (ptype_signed(s) ? (uint64_t)sv : uv);
	}
	/* widen by the source's sign, narrow by truncation; a signed
	 * destination narrower than its register reads sign-extended */
	uint64_t r = ptype_signed(s) ? (uint64_t)sv : uv;
	if (db < sb || db == sb)
		r &= bits_mask(db);
	if (ptype_signed(d) && db < 32)
		r = (uint64_t)sext(r, db) & 0xffffffffu;
	return r & (db >= 32 ? bits_mask(db) : 0xffffffffu);
}

static void do_cvt(struct blk *b, struct warp *w, const struct insn *in,
		   uint32_t act)
{
	uint64_t *D = dst_of(b, w, in->o[0].reg);
	struct src sa = src_of(b, w, in, 1);
	bool rounds = !(in->flags & F_INT_RND) && in->rnd && in->rnd != R_RN &&
		      ptype_float(in->type);
	int old = 0;

	if (rounds) {
		old = fegetround();
		fesetround(fe_mode(in->rnd));
	}
	FOR_LANES(l, act)
		D[l] = cvt_one(in, V(sa, l));
	if (rounds)
		fesetround(old);
}

/* setp and set over f16/bf16 (pairs: each half, p the low one's), the
 * comparison of compare on the values as doubles. */
static void half_compare(struct blk *b, struct warp *w, const struct insn *in,
			 uint32_t act)
{
	bool set = in->op == OP_SET, ftz = in->flags & F_FTZ;
	enum ptype t = set ? in->type2 : in->type, d = in->type;
	bool pair = t == T_F16X2 || t == T_BF16X2, hasc = in->boolop && in->nops > 3;
	uint64_t *D = dst_of(b, w, in->o[0].reg), *Q = dst_of(b, w, in->dest2);
	struct src sa = src_of(b, w, in, 1), sb = src_of(b, w, in, 2), sc = { 0 };
	/* set's true: the destination's 1.0 or all ones, a half at a time */
	uint64_t one = d == T_F16 || d == T_F16X2 ? 0x3c00 :
		       d == T_BF16 || d == T_BF16X2 ? 0x3f80 :
		       d == T_F32 ? 0x3f800000u : pair ? 0xffff : 0xffffffffu;

	if (hasc)
		sc = src_of(b, w, in, 3);
	FOR_LANES(l, act) {
		bool c = hasc ? (V(sc, l) & 1) : false, r[2] = { false, false };
		for (int h = 0; h <= pair; h++) {
			double x = hf_decode(V(sa, l) >> 16 * h & 0xffff, t, ftz);
			double y = hf_decode(V(sb, l) >> 16 * h & 0xffff, t, ftz);
			r[h] = compare(in, T_F64, bf64(x), bf64(y));
		}
		if (!set && pair) {
			D[l] = combine(in->boolop, r[0], c);
			if (in->dest2 >= 0)
				Q[l] = combine(in->boolop, r[1], c);
		} else if (!set) {
			D[l] = combine(in->boolop, r[0], c);
			if (in->dest2 >= 0)
				Q[l] = combine(in->boolop, !r[0], c);
		} else {
			D[l] = (combine(in->boolop, r[0], c) ? one : 0) |
			       (pair && combine(in->boolop, r[1], c) ? one << 16 : 0);
		}
	}
}

/* An instruction computing in f16 or bf16 (F_HALF): half.c's arithmetic
 * and conversions lane by lane; a conversion to an integer goes through
 * f2i as an f32's does (NaN is 0 up to 32 bits, the top bit in 64). */
static void do_half(struct blk *b, struct warp *w, const struct insn *in,
		    uint32_t act)
{
	uint64_t *D = dst_of(b, w, in->o[0].reg);
	struct src sa = src_of(b, w, in, 1);
	struct src sb = in->nops > 2 ? src_of(b, w, in, 2) : sa;
	struct src sc = in->nops > 3 ? src_of(b, w, in, 3) : sa;

	if (in->op == OP_SETP || in->op == OP_SET) {
		half_compare(b, w, in, act);
		return;
	}
	if (in->op == OP_CVT && !ptype_half(in->type) && !ptype_float(in->type)) {
		FOR_LANES(l, act)
			D[l] = f2i(hf_decode(V(sa, l) & 0xffff, in->type2,
					     in->flags & F_FTZ),
				   in->rnd, in->type, true);
		return;
	}
	if (in->op == OP_CVT) {
		FOR_LANES(l, act)
			D[l] = hf_cvt(in, V(sa, l), V(sb, l));
		return;
	}
	FOR_LANES(l, act)
		D[l] = hf_arith(in, V(sa, l), V(sb, l), V(sc, l));
}

static void do_cvta(struct blk *b, struct warp *w, const struct insn *in,
		    uint32_t act)
{
	uint64_t *D = dst_of(b, w, in->o[0].reg);
	struct src sa = src_of(b, w, in, 1);
	uint64_t win = in->space == SP_SHARED ? WIN_SHARED :
		       in->space == SP_LOCAL ? WIN_LOCAL :
		       in->space == SP_PARAM ? WIN_PARAM : 0;
	uint64_t m = bits_mask(ptype_bits(in->type));

	FOR_LANES(l, act) {
		uint64_t a = V(sa, l);
		if (!win)
			D[l] = a & m;
		else if (in->flags & F_TO)
			D[l] = (a & WIN_MASK) == win ? (a - win) & m : a & m & 0xffffffffu;
		else
			D[l] = (win + (a & 0xffffffffu)) & m;
	}
}

/* mov, with the packing forms mov.b64 d, {a, b} and mov.b64 {a, b}, d. */
static void do_mov(struct blk *b, struct warp *w, const struct insn *in,
		   uint32_t act)
{
	const struct operand *d = &in->o[0], *a = &in->o[1];
	unsigned bits = ptype_bits(in->type);

	if (in->type == T_PRED)
		bits = 1;
	if (a->kind == K_VEC) {
		uint64_t *D = dst_of(b, w, d->reg);
		unsigned eb = bits / a->n;
		FOR_LANES(l, act) {
			uint64_t r = 0;
			for (int e = 0; e < a->n; e++)
				if (a->vec[e] >= 0)
					r |= (w->r[a->vec[e]][l] & bits_mask(eb)) << (e * eb);
			D[l] = r;
		}
		return;
	}
	struct src sa = src_of(b, w, in, 1);
	if (d->kind == K_VEC) {
		unsigned eb = bits / d->n;
		FOR_LANES(l, act)
			for (int e = 0; e < d->n; e++)
				if (d->vec[e] >= 0)
					w->r[d->vec[e]][l] = (V(sa, l) >> (e * eb)) & bits_mask(eb);
		return;
	}
	uint64_t *D = dst_of(b, w, d->reg), m = bits_mask(bits);
	FOR_LANES(l, act)
		D[l] = V(sa, l) & m;
}

static void do_testp(struct blk *b, struct warp *w, const struct insn *in,
		     uint32_t act)
{
	uint64_t *D = dst_of(b, w, in->o[0].reg);
	struct src sa = src_of(b, w, in, 1);

	FOR_LANES(l, act) {
		double x = in->type == T_F32 ? (double)f32(V(sa, l)) : f64(V(sa, l));
		int c = in->type == T_F32 ? fpclassify(f32(V(sa, l))) : fpclassify(x);
		bool r;
		switch (in->sub) {
		case TP_FINITE: r = isfinite(x); break;
		case TP_INFINITE: r = isinf(x); break;
		case TP_NUMBER: r = !isnan(x); break;
		case TP_NOTANUMBER: r = isnan(x); break;
		case TP_NORMAL: r = c == FP_NORMAL || c == FP_ZERO; break;
		default: r = c == FP_SUBNORMAL; break;
		}
		D[l] = r;
	}
}

/* ------------------------------------------------------------------ */
/* Warp-wide operations                                                */

static void do_shfl(struct blk *b, struct warp *w, const struct insn *in,
		    uint32_t act)
{
	uint64_t *D = dst_of(b, w, in->o[0].reg), *P = dst_of(b, w, in->dest2);
	struct src sa = src_of(b, w, in, 1), sb = src_of(b, w, in, 2),
		   sc = src_of(b, w, in, 3);
	uint64_t val[WARP], out[WARP], pv[WARP];

	for (int l = 0; l < WARP; l++)
		val[l] = V(sa, l);
	FOR_LANES(l, act) {
		uint32_t bv = V(sb, l) & 31, c = (uint32_t)V(sc, l);
		uint32_t cv = c & 31, seg = (c >> 8) & 31;
		uint32_t maxl = (l & seg) | (cv & ~seg), minl = l & seg;
		int32_t j;
		bool p;
		switch (in->sub) {
		case SH_UP: j = (int32_t)l - (int32_t)bv; p = j >= (int32_t)maxl; break;
		case SH_DOWN: j = (int32_t)(l + bv); p = j <= (int32_t)maxl; break;
		case SH_BFLY: j = (int32_t)(l ^ bv); p = j <= (int32_t)maxl; break;
		default: j = (int32_t)(minl | (bv & ~seg)); p = j <= (int32_t)maxl; break;
		}
		if (!p)
			j = (int32_t)l;
		out[l] = val[j & 31] & 0xffffffffu;
		pv[l] = p;
	}
	FOR_LANES(l, act) {
		D[l] = out[l];
		P[l] = pv[l];
	}
}

static void do_vote(struct blk *b, struct warp *w, const struct insn *in,
		    uint32_t act)
{
	uint64_t *D = dst_of(b, w, in->o[0].reg);
	struct src sa = src_of(b, w, in, 1), sm = src_of(b, w, in, 2);
	uint32_t ballot = 0;

	FOR_LANES(l, act)
		if (V(sa, l) & 1)
			ballot |= 1u << l;
	FOR_LANES(l, act) {
		uint32_t mm = (uint32_t)V(sm, l) & act, bl = ballot & mm;
		switch (in->sub) {
		case V_ALL: D[l] = bl == mm; break;
		case V_ANY: D[l] = bl != 0; break;
		case V_UNI: D[l] = bl == 0 || bl == mm; break;
		default: D[l] = bl; break;
		}
	}
}

static void do_redux(struct blk *b, struct warp *w, const struct insn *in,
		     uint32_t act)
{
	uint64_t *D = dst_of(b, w, in->o[0].reg);
	struct src sa = src_of(b, w, in, 1), sm = src_of(b, w, in, 2);
	bool s = ptype_signed(in->type);

	FOR_LANES(l, act) {
		uint32_t mm = (uint32_t)V(sm, l) & act;
		uint64_t r = 0;
		bool first = true;
		for (uint32_t k = 0; k < WARP; k++) {
			uint32_t x;
			if (!(mm >> k & 1))
				continue;
			x = (uint32_t)V(sa, k);
			if (first) { r = x; first = false; continue; }
			switch (in->sub) {
			case A_ADD: r = (uint32_t)(r + x); break;
			case A_AND: r &= x; break;
			case A_OR: r |= x; break;
			case A_XOR: r ^= x; break;
			case A_MIN: r = s ? (uint32_t)((int32_t)r < (int32_t)x ? (int32_t)r : (int32_t)x) :
				    (r < x ? r : x); break;
			case A_MAX: r = s ? (uint32_t)((int32_t)r > (int32_t)x ? (int32_t)r : (int32_t)x) :
				    (r > x ? r : x); break;
			default: break;
			}
		}
		D[l] = r & 0xffffffffu;
	}
}

static void do_match(struct blk *b, struct warp *w, const struct insn *in,
		     uint32_t act)
{
	uint64_t *D = dst_of(b, w, in->o[0].reg), *P = dst_of(b, w, in->dest2);
	struct src sa = src_of(b, w, in, 1), sm = src_of(b, w, in, 2);
	uint64_t m = bits_mask(ptype_bits(in->type));

	FOR_LANES(l, act) {
		uint32_t mm = (uint32_t)V(sm, l) & act, same = 0;
		for (uint32_t k = 0; k < WARP; k++)
			if ((mm >> k & 1) && (V(sa, k) & m) == (V(sa, l) & m))
				same |= 1u << k;
		if (in->sub == M_ANY) {
			D[l] = same;
		} else {
			D[l] = same == mm ? mm : 0;
			P[l] = same == mm;
		}
	}
}

/* ------------------------------------------------------------------ */
/* Calls, printf, assert                                               */

static uint64_t lane_param_addr(struct blk *b, int var)
{
	return b->g->varaddr[var];
}

static int copy_params(struct blk *b, struct warp *w, const int32_t *from,
		       const int32_t *to, int n, uint32_t act)
{
	for (int i = 0; i < n; i++) {
		const struct pvar *s = &b->m->vars[from[i]], *d = &b->m->vars[to[i]];
		uint64_t so = lane_param_addr(b, from[i]) - LPARAM_BASE;
		uint64_t dof = lane_param_addr(b, to[i]) - LPARAM_BASE;
		uint64_t n2 = s->size < d->size ? s->size : d->size;
		FOR_LANES(l, act)
			memmove(w->lparam + (size_t)l * b->lparam_bytes + dof,
				w->lparam + (size_t)l * b->lparam_bytes + so, n2);
	}
	return 0;
}

/* A recursive function's registers and params, all lanes, pushed on the
 * warp's save stack (to) or popped back (from). */
static int save_rows(struct blk *b, struct warp *w, const struct pfunc *f,
		     bool to)
{
	size_t rows = (size_t)(f->reg_end - f->reg_first) * sizeof w->r[0];
	size_t need = rows;

	for (int i = 0; i < f->nparam; i++)
		need += (size_t)WARP * b->m->vars[f->param[i]].size;
	if (to && w->nsave + need > w->capsave) {
		size_t cap = w->capsave ? 2 * w->capsave : 1 << 16;
		uint8_t *p;
		while (cap < w->nsave + need)
			cap *= 2;
		if (!(p = realloc(w->save, cap)))
			return -1;
		w->save = p;
		w->capsave = cap;
	}
	if (!to)
		w->nsave -= need;
	uint8_t *at = w->save + w->nsave;
	if (rows)
		to ? memcpy(at, w->r[f->reg_first], rows)
		   : memcpy(w->r[f->reg_first], at, rows);
	at += rows;
	for (int i = 0; i < f->nparam; i++) {
		const struct pvar *v = &b->m->vars[f->param[i]];
		uint64_t off = lane_param_addr(b, f->param[i]) - LPARAM_BASE;
		for (int l = 0; l < WARP; l++, at += v->size) {
			uint8_t *lp = w->lparam + (size_t)l * b->lparam_bytes + off;
			to ? memcpy(at, lp, v->size) : memcpy(lp, at, v->size);
		}
	}
	if (to)
		w->nsave += need;
	return 0;
}

/* A call of a recursive function: a frame of its own on the thread's
 * stack, past which the stack limit is an illegal address (as the device
 * faults), and its registers and params kept for the activation it may
 * interrupt. */
static int recursive_call(struct blk *b, struct warp *w, const struct pfunc *f,
			  uint32_t act, struct frame *fr)
{
	uint32_t stack = b->local_bytes - b->m->local_bytes;

	if ((uint64_t)w->ssp + f->frame_bytes > stack)
		return ex_grid_fail(b, w, __builtin_ctz(act), EX_ILLEGAL_ADDRESS,
				    WIN_LOCAL + b->m->local_bytes + w->ssp,
				    "stack overflow: a frame of %u bytes for '%s' "
				    "past the %u bytes of the stack limit "
				    "(CU_LIMIT_STACK_SIZE), %u in use",
				    f->frame_bytes, f->name, stack, w->ssp), -1;
	fr->save = (int64_t)w->nsave;
	if (save_rows(b, w, f, true))
		return ex_grid_fail(b, w, __builtin_ctz(act), EX_LAUNCH_FAILED, 0,
				    "out of memory for the frames of '%s'",
				    f->name), -1;
	fr->fbase = w->fbase;
	w->fbase = w->ssp;
	w->ssp += f->frame_bytes;
	return 0;
}

/* Room for n more entries on the warp's SIMT stack; false where it may
 * grow no further. */
static bool simt_room(struct warp *w, int n)
{
	int cap = w->capstack;
	struct simt *s;

	if (w->sp + n <= cap)
		return true;
	while (cap < w->sp + n)
		cap *= 2;
	if (cap > SIMT_MAX || !(s = realloc(w->stack, (size_t)cap * sizeof *s)))
		return false;
	w->stack = s;
	w->capstack = cap;
	return true;
}

/* A call of function fi by the lanes act. A recursive callee's lanes
 * always get an entry of their own, which its return pops (RPC_CALL
 * never matches a pc): its body is its caller's, so a reconvergence point
 * of the caller's inside it must not end the callee's entry. The loop has
 * set the caller's entry to go on at pc + 1. */
#define RPC_CALL (-2)
static int call_into(struct blk *b, struct warp *w, const struct insn *in,
		     int fi, int pc, uint32_t act)
{
	const struct pfunc *f = &b->m->funcs[fi];
	struct simt *top;
	struct frame fr = { pc + 1, pc, fi, w->fbase, -1 };

	if (w->ncalls >= CALL_DEPTH || !simt_room(w, 1))
		return ex_grid_fail(b, w, __builtin_ctz(act), EX_LAUNCH_FAILED, 0,
				    "calls nested too deep"), -1;
	if (w->ncalls == w->capcalls) {
		int cap = w->capcalls ? 2 * w->capcalls : 16;
		struct frame *c = realloc(w->calls, (size_t)cap * sizeof *c);
		if (!c)
			return ex_grid_fail(b, w, __builtin_ctz(act), EX_LAUNCH_FAILED,
					    0, "out of memory for calls"), -1;
		w->calls = c;
		w->capcalls = cap;
	}
	if (f->recursive && recursive_call(b, w, f, act, &fr))
		return -1;
	copy_params(b, w, in->o[2].list, f->param, f->nparam, act);
	w->calls[w->ncalls++] = fr;
	top = &w->stack[w->sp - 1];
	if (act == top->mask && !f->recursive)
		top->pc = f->first;
	else
		w->stack[w->sp++] = (struct simt){ f->first,
			f->recursive ? RPC_CALL : pc + 1, act };
	return 0;
}

/* An indirect call: the lanes whose address is the first active lane's
 * call that function now; the others get an entry that runs the call
 * again once these return, so each target is called once with its lanes,
 * as the device serializes a divergent indirect call. An address that is
 * no function of the module fails the launch as an H200 does
 * (probes/results/heap.txt): 0 is an invalid pc, one not 8-byte aligned
 * a misaligned address; any other the device runs as code, and hung or
 * faulted: here it is an invalid pc too. */
static int do_icall(struct blk *b, struct warp *w, const struct insn *in,
		    int pc, uint32_t act)
{
	const uint64_t *a = w->r[in->o[1].reg];
	int l0 = __builtin_ctz(act), fi = ex_func_at(b->m, a[l0]);
	uint32_t same = 0;
	const struct pfunc *f;

	if (fi < 0)
		return ex_grid_fail(b, w, l0, a[l0] % 8 ? EX_MISALIGNED_ADDRESS :
				    EX_INVALID_PC, a[l0], "line %u: an indirect "
				    "call to 0x%llx, no function of the module",
				    in->line, (unsigned long long)a[l0]), -1;
	f = &b->m->funcs[fi];
	if (in->o[2].n != f->nparam || in->o[0].n != f->nret)
		return ex_grid_fail(b, w, l0, EX_ILLEGAL_INSTRUCTION, 0,
				    "line %u: an indirect call of '%s' with %d "
				    "arguments for %d", in->line, f->name,
				    in->o[2].n, f->nparam), -1;
	FOR_LANES(l, act)
		same |= (uint32_t)(a[l] == a[l0]) << l;
	if (same != act) {
		if (!simt_room(w, 2))
			return ex_grid_fail(b, w, l0, EX_LAUNCH_FAILED, 0,
					    "calls nested too deep"), -1;
		w->stack[w->sp++] = (struct simt){ pc, pc + 1, act & ~same };
	}
	return call_into(b, w, in, fi, pc, same);
}

static int do_call(struct blk *b, struct warp *w, const struct insn *in,
		   int pc, uint32_t act)
{
	if (in->o[1].kind == K_REG)
		return do_icall(b, w, in, pc, act);
	return call_into(b, w, in, in->o[1].target, pc, act);
}

static int do_fret(struct blk *b, struct warp *w, uint32_t act)
{
	struct frame fr;
	const struct insn *call;
	const struct pfunc *f;

	if (w->ncalls == 0)
		return 1;   /* a kernel's end: its lanes exit */
	fr = w->calls[--w->ncalls];
	call = &b->m->code[fr.call];
	f = &b->m->funcs[fr.callee];
	copy_params(b, w, f->ret, call->o[0].list, f->nret, act);
	if (fr.save >= 0) {     /* the activation it interrupted comes back */
		save_rows(b, w, f, false);
		w->ssp = w->fbase;
		w->fbase = fr.fbase;
		w->sp--;        /* its entry; the caller's goes on at ret_pc */
		return 0;
	}
	w->stack[w->sp - 1].pc = fr.ret_pc;
	return 0;
}

/* A NUL-terminated string in global memory, checked page by page. */
static const char *global_str(struct blk *b, struct warp *w, int l,
			      uint64_t addr)
{
	struct macc c;
	uint64_t a = addr;

	mem_begin(b, w, &c, EX_READ);
	for (;;) {
		const uint8_t *p = lane_ptr(b, w, l, SP_GENERIC, a, 1, &c);
		if (!p)
			return NULL;
		if ((addr & WIN_MASK) == WIN_SHARED || (addr & WIN_MASK) == WIN_LOCAL) {
			if (!*p)
				return (const char *)lane_ptr(b, w, l, SP_GENERIC,
							      addr, 1, &c);
			a++;
			continue;
		}
		/* the rest of this page at once */
		uint64_t end = (a | (EX_PAGE - 1)) + 1;
		const char *z = memchr(p, 0, end - a);
		c.bytes = 0;   /* the string is the bridge's to read, not a load */
		if (z)
			return (const char *)(uintptr_t)addr;
		a = end;
	}
}

static uint64_t lane_param_u64(struct blk *b, struct warp *w, int var, int l,
			       unsigned size)
{
	uint64_t off = lane_param_addr(b, var) - LPARAM_BASE;
	return load(w->lparam + (size_t)l * b->lparam_bytes + off, size);
}

/* ex_str.at: a string in the asking lane's shared, local or param
 * window, and the bytes of the window from it; NULL for any other
 * address. */
static const char *window_str(const struct ex_str *s, uint64_t addr,
			      size_t *room)
{
	struct blk *b = s->b;
	struct warp *w = s->w;
	uint64_t off = addr & 0xffffffffull;
	size_t l = (size_t)s->lane;

	switch (addr & WIN_MASK) {
	case WIN_RTSTR: {
		size_t len;
		const char *t = ex_devrt_strings(&len);
		if (addr - WIN_RTSTR >= len)
			return NULL;
		*room = len - (addr - WIN_RTSTR);
		return t + (addr - WIN_RTSTR);
	}
	case WIN_SHARED:
		if (off >= b->shared_bytes)
			return NULL;
		*room = b->shared_bytes - off;
		return (const char *)b->shared + off;
	case WIN_LOCAL:
		if (off >= b->local_bytes)
			return NULL;
		*room = b->local_bytes - off;
		return (const char *)w->local + l * b->local_bytes + off;
	case WIN_PARAM:
		if (off >= LPARAM_BASE && off - LPARAM_BASE < b->lparam_bytes) {
			off -= LPARAM_BASE;
			*room = b->lparam_bytes - off;
			return (const char *)w->lparam + l * b->lparam_bytes + off;
		}
		if (off >= b->k->info.param_bytes)
			return NULL;
		*room = b->k->info.param_bytes - off;
		return (const char *)b->l->params + off;
	}
	return NULL;
}

static int do_vprintf(struct blk *b, struct warp *w, const struct insn *in,
		      uint32_t act)
{
	const struct ex_memops *mo = &b->l->mem;

	FOR_LANES(l, act) {
		uint64_t fmt = lane_param_u64(b, w, in->o[2].list[0], (int)l, 8);
		uint64_t args = in->o[2].n > 1 ?
			lane_param_u64(b, w, in->o[2].list[1], (int)l, 8) : 0;
		const char *f = global_str(b, w, (int)l, fmt);
		const void *ap = NULL;
		int rc = 0;
		struct macc c;
		if (!f)
			return -1;
		if (args) {
			mem_begin(b, w, &c, EX_READ);
			ap = lane_ptr(b, w, (int)l, SP_GENERIC, args, 1, &c);
			if (!ap)
				return -1;
		}
		if (mo->vprintf) {
			struct ex_str s = { window_str, b, w, (int)l };
			rc = mo->vprintf(mo->ctx, f, ap, &s);
		}
		if (in->o[0].n) {
			uint64_t off = lane_param_addr(b, in->o[0].list[0]) - LPARAM_BASE;
			store(w->lparam + (size_t)l * b->lparam_bytes + off,
			      (uint32_t)rc, 4);
		}
	}
	return 0;
}

/* malloc and free from the device heap (ex_memops), lane by lane in lane
 * order; without a heap malloc answers 0. */
static void do_heap(struct blk *b, struct warp *w, const struct insn *in,
		    uint32_t act)
{
	const struct ex_memops *mo = &b->l->mem;

	FOR_LANES(l, act) {
		uint64_t v = lane_param_u64(b, w, in->o[2].list[0], (int)l, 8);
		if (in->op == OP_FREE) {
			if (v && mo->free)
				mo->free(mo->ctx, v);
			continue;
		}
		v = mo->malloc ? mo->malloc(mo->ctx, v) : 0;
		uint64_t off = lane_param_addr(b, in->o[0].list[0]) - LPARAM_BASE;
		store(w->lparam + (size_t)l * b->lparam_bytes + off, v, 8);
	}
}

/* ------------------------------------------------------------ wmma */

/* n bytes of a tile's line at addr moved to or from buf, in the largest
 * aligned pieces of at most 16 bytes (each a lane's access, counted as
 * lane l's), none across a 4 KiB page. */
static int wm_bytes(struct blk *b, struct warp *w, int l, int sp,
		    uint64_t addr, uint8_t *buf, unsigned n, bool write,
		    struct macc *c)
{
	while (n) {
		unsigned part = 16;
		uint8_t *p;

		while (part > 1 && ((addr & (part - 1)) || part > n))
			part >>= 1;
		if (!(p = fast_ptr(b, w, l, sp, addr, part, c)))
			return -1;
		if (write)
			memcpy(p, buf, part);
		else
			memcpy(buf, p, part);
		addr += part;
		buf += part;
		n -= part;
	}
	return 0;
}

/* The tile's elements from the warp's fragment registers (o's). */
static void wm_gather(struct warp *w, const struct wm_frag *f,
		      const struct operand *o, uint64_t *elems)
{
	uint64_t emask = bits_mask(f->ebits);

	for (unsigned i = 0; i < f->regs; i++) {
		const uint64_t *R = o->vec[i] >= 0 ? w->r[o->vec[i]] : NULL;
		for (unsigned l = 0; l < 32; l++)
			for (unsigned p = 0; p < f->per_reg; p++)
				elems[wm_elem(f, l, i * f->per_reg + p)] =
					R ? (R[l] >> (p * f->ebits)) & emask : 0;
	}
}

/* ... and into them, for the active lanes. */
static void wm_scatter(struct blk *b, struct warp *w, const struct wm_frag *f,
		       const struct operand *o, const uint64_t *elems,
		       uint32_t act)
{
	uint64_t emask = bits_mask(f->ebits);

	for (unsigned i = 0; i < f->regs; i++) {
		uint64_t *D = dst_of(b, w, o->vec[i]);
		FOR_LANES(l, act) {
			uint64_t v = 0;
			for (unsigned p = 0; p < f->per_reg; p++)
				v |= (elems[wm_elem(f, l, i * f->per_reg + p)] &
				      emask) << (p * f->ebits);
			D[l] = v;
		}
	}
}

/* A fragment operand of the registers f takes. */
static int wm_operand(struct blk *b, struct warp *w, const struct insn *in,
		      const struct operand *o, const struct wm_frag *f)
{
	if (o->kind == K_VEC && o->n == f->regs)
		return 0;
	return ex_grid_fail(b, w, 0, EX_ILLEGAL_INSTRUCTION, 0, "line %u: "
			    "a fragment of %u registers where wmma takes %u",
			    in->line, o->kind == K_VEC ? o->n : 1, f->regs), -1;
}

/* wmma.load and wmma.store: the tile at the address the warp's first
 * active lane gives, a row (or a column, col layout) every stride
 * elements (the tile's width where no stride is given). */
static int wm_tile(struct blk *b, struct warp *w, const struct insn *in,
		   uint32_t act)
{
	bool put = in->sub == WM_STORE, col = in->boolop & WM_COL_A;
	int which = put ? WM_D : in->boolop & WM_WHICH;
	const struct operand *frag = &in->o[put ? 1 : 0];
	const struct operand *a = &in->o[put ? 0 : 1];
	const struct operand *st = in->nops > 2 ? &in->o[2] : NULL;
	int l0 = __builtin_ctz(act);
	uint64_t elems[WM_MAX_ELEMS], addr, stride;
	uint8_t buf[128];
	struct wm_frag f;
	struct macc c;
	unsigned esz, lines, inner;

	if (!wm_frag_of(which, in->vec, in->type, &f) || a->kind != K_MEM)
		return ex_grid_fail(b, w, l0, EX_ILLEGAL_INSTRUCTION, 0,
				    "line %u: a wmma %s of no fragment PTX "
				    "has", in->line, put ? "store" : "load"),
		       -1;
	if (wm_operand(b, w, in, frag, &f))
		return -1;
	esz = f.ebits / 8;
	lines = col ? f.cols : f.rows;
	inner = col ? f.rows : f.cols;
	addr = (a->reg >= 0 ? w->r[a->reg][l0] : 0) + (uint64_t)a->imm +
	       (a->var >= 0 ? b->g->varaddr[a->var] : 0);
	stride = !st ? inner : st->kind == K_IMM ? (uint64_t)st->imm :
		 st->kind == K_REG ? w->r[st->reg][l0] & 0xffffffffu : inner;
	if (put)
		wm_gather(w, &f, frag, elems);
	mem_begin(b, w, &c, put ? EX_WRITE : EX_READ);
	for (unsigned line = 0; line < lines; line++) {
		for (unsigned i = 0; put && i < inner; i++)
			store(buf + i * esz, elems[col ? i * f.cols + line :
						   line * f.cols + i], esz);
		if (wm_bytes(b, w, (int)(line % 32), in->space,
			     addr + (uint64_t)line * stride * esz, buf,
			     inner * esz, put, &c))
			return -1;
		for (unsigned i = 0; !put && i < inner; i++)
			elems[col ? i * f.cols + line : line * f.cols + i] =
				load(buf + i * esz, esz);
	}
	mem_flush(b, &c);
	if (!put)
		wm_scatter(b, w, &f, frag, elems, act);
	return 0;
}

/* wmma.mma: D = A B + C over the warp's fragments. */
static int wm_mma_warp(struct blk *b, struct warp *w, const struct insn *in,
		       uint32_t act)
{
	int atype = in->type3 ? in->type3 : T_F16;
	uint64_t ea[WM_MAX_ELEMS], eb[WM_MAX_ELEMS], ec[WM_MAX_ELEMS],
		 ed[WM_MAX_ELEMS];
	struct wm_frag fa, fb, fc, fd;

	if (in->nops != 4 || !wm_frag_of(WM_A, in->vec, atype, &fa) ||
	    !wm_frag_of(WM_B, in->vec, atype, &fb) ||
	    !wm_frag_of(WM_C, in->vec, in->type2, &fc) ||
	    !wm_frag_of(WM_D, in->vec, in->type, &fd))
		return ex_grid_fail(b, w, __builtin_ctz(act),
				    EX_ILLEGAL_INSTRUCTION, 0, "line %u: a "
				    "wmma.mma of types PTX does not have",
				    in->line), -1;
	if (wm_operand(b, w, in, &in->o[0], &fd) ||
	    wm_operand(b, w, in, &in->o[1], &fa) ||
	    wm_operand(b, w, in, &in->o[2], &fb) ||
	    wm_operand(b, w, in, &in->o[3], &fc))
		return -1;
	wm_gather(w, &fa, &in->o[1], ea);
	wm_gather(w, &fb, &in->o[2], eb);
	wm_gather(w, &fc, &in->o[3], ec);
	wm_mma(in->vec, atype, in->type2, in->type, in->flags & F_SAT, ea, eb,
	       ec, ed);
	wm_scatter(b, w, &fd, &in->o[0], ed, act);
	/* the tensor cores' time, as issue slots (the loop counted one) */
	b->warp_insns += wm_issue_slots(in->vec, atype) - 1;
	return 0;
}

/* mma.sync's tile elements from (or into) the warp's registers of
 * operand o, in the PTX ISA's layout (wmma.c's mma_pos). */
static void mma_gather(struct warp *w, const struct operand *o,
		       const struct mma_frag *f, uint64_t *elems)
{
	unsigned bits = f->per > 1 ? 32 / f->per : f->type == T_F64 ? 64 : 32;
	unsigned cols = f->which == WM_A ? wm_cols(f->shape, WM_A) :
			wm_cols(f->shape, f->which), row, col;
	uint64_t emask = bits_mask(bits);

	for (unsigned l = 0; l < 32; l++)
		for (unsigned i = 0; i < f->elems; i++) {
			int reg = o->vec[i / f->per];
			uint64_t v = reg >= 0 ? w->r[reg][l] : 0;
			mma_pos(f, l, i, &row, &col);
			elems[row * cols + col] = (v >> (bits * (i % f->per))) & emask;
		}
}

static void mma_scatter(struct blk *b, struct warp *w, const struct operand *o,
			const struct mma_frag *f, const uint64_t *elems,
			uint32_t act)
{
	unsigned bits = f->per > 1 ? 32 / f->per : f->type == T_F64 ? 64 : 32;
	unsigned cols = wm_cols(f->shape, WM_D), row, col;
	uint64_t emask = bits_mask(bits);

	for (unsigned r = 0; r < f->elems / f->per; r++) {
		uint64_t *D = dst_of(b, w, o->vec[r]);
		FOR_LANES(l, act) {
			uint64_t v = 0;
			for (unsigned i = r * f->per; i < (r + 1) * f->per; i++) {
				mma_pos(f, l, i, &row, &col);
				v |= (elems[row * cols + col] & emask) <<
				     (bits * (i % f->per));
			}
			D[l] = v;
		}
	}
}

/* mma.sync.aligned...row.col: D = A B + C as the tensor unit sums
 * (wmma.c), the fragments in PTX's layout. */
static int do_mma(struct blk *b, struct warp *w, const struct insn *in,
		  uint32_t act)
{
	uint64_t ea[WM_MAX_ELEMS], eb[WM_MAX_ELEMS], ec[WM_MAX_ELEMS],
		 ed[WM_MAX_ELEMS];
	struct mma_frag fa, fb, fc, fd;

	mma_frag_of(in->vec, WM_A, in->type3, &fa);
	mma_frag_of(in->vec, WM_B, in->type3, &fb);
	mma_frag_of(in->vec, WM_C, in->type2, &fc);
	mma_frag_of(in->vec, WM_D, in->type, &fd);
	mma_gather(w, &in->o[1], &fa, ea);
	mma_gather(w, &in->o[2], &fb, eb);
	mma_gather(w, &in->o[3], &fc, ec);
	wm_mma(in->vec, in->type3, in->type2, in->type, in->flags & F_SAT,
	       ea, eb, ec, ed);
	mma_scatter(b, w, &in->o[0], &fd, ed, act);
	b->warp_insns += wm_issue_slots(in->vec, in->type3) - 1;
	return 0;
}

/* ldmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}.b16: tile j's row r at the
 * address lane 8j + r gives; lane l's register j holds the tile's row l/4,
 * columns 2(l%4) and one more (.trans: the column l/4, rows 2(l%4) and
 * one more), the first in its low half. */
static int do_ldmatrix(struct blk *b, struct warp *w, const struct insn *in,
		       uint32_t act)
{
	const struct operand *a = &in->o[1];
	bool trans = in->boolop & LDM_TRANS;
	uint16_t tile[4][8][8];
	struct macc c;

	mem_begin(b, w, &c, EX_READ);
	for (unsigned j = 0; j < in->vec; j++)
		for (unsigned r = 0; r < 8; r++) {
			unsigned l = 8 * j + r;
			uint64_t addr = (a->reg >= 0 ? w->r[a->reg][l] : 0) +
					(uint64_t)a->imm +
					(a->var >= 0 ? b->g->varaddr[a->var] : 0);
			uint8_t *p = fast_ptr(b, w, (int)l, in->space, addr, 16, &c);
			if (!p)
				return -1;
			memcpy(tile[j][r], p, 16);
		}
	mem_flush(b, &c);
	for (unsigned j = 0; j < in->vec; j++) {
		uint64_t *D = dst_of(b, w, in->o[0].vec[j]);
		FOR_LANES(l, act) {
			unsigned r = l / 4, k = 2 * (l % 4);
			uint32_t lo = trans ? tile[j][k][r] : tile[j][r][k];
			uint32_t hi = trans ? tile[j][k + 1][r] : tile[j][r][k + 1];
			D[l] = lo | hi << 16;
		}
	}
	return 0;
}

static int do_wmma(struct blk *b, struct warp *w, const struct insn *in,
		   uint32_t act)
{
	return in->sub == WM_MMA ? wm_mma_warp(b, w, in, act) :
	       wm_tile(b, w, in, act);
}

/* cudaGraphSetConditional: each lane's value into its handle, in lane
 * order (racing calls are undefined on the device; the last lane's
 * stands). A handle of no graph the kernel runs in ends the launch. */
static int do_setcond(struct blk *b, struct warp *w, const struct insn *in,
		      uint32_t act)
{
	const struct ex_memops *mo = &b->l->mem;

	FOR_LANES(l, act) {
		uint64_t h = lane_param_u64(b, w, in->o[2].list[0], (int)l, 8);
		uint64_t v = lane_param_u64(b, w, in->o[2].list[1], (int)l, 4);
		enum ex_status st = mo->set_conditional ?
			mo->set_conditional(mo->ctx, h, (uint32_t)v) : EX_OK;
		if (st != EX_OK) {
			ex_grid_fail(b, w, (int)l, st, h, "line %u: "
				     "conditional handle %llu is none of the "
				     "graph the kernel runs in", in->line,
				     (unsigned long long)h);
			return -1;
		}
	}
	return 0;
}

/* ------------------------------------------------------ device runtime */

/* Bytes of a call's parameter at byte off of it, lane l's. */
static uint64_t lane_param_at(struct blk *b, struct warp *w, int var, int l,
			      unsigned off, unsigned size)
{
	uint64_t at = lane_param_addr(b, var) - LPARAM_BASE + off;
	return load(w->lparam + (size_t)l * b->lparam_bytes + at, size);
}

/* Lane l's store of v (size bytes) where a pointer it passed points, as
 * the device runtime writes its results; -1 where the launch failed. */
static int lane_out(struct blk *b, struct warp *w, int l, uint64_t addr,
		    uint64_t v, unsigned size)
{
	struct macc c;
	uint8_t *p;

	mem_begin(b, w, &c, EX_WRITE);
	if (!(p = lane_ptr(b, w, l, SP_GENERIC, addr, size, &c)))
		return -1;
	store(p, v, size);
	mem_flush(b, &c);
	return 0;
}

/* Whether lane l may access the n bytes of global memory at addr: each
 * page asked of the model as the lane's own access would be (an address
 * no allocation holds ends the launch: false). */
static bool lane_global(struct blk *b, struct warp *w, int l, uint64_t addr,
			uint64_t n, enum ex_access a)
{
	struct macc c;

	mem_begin(b, w, &c, a);
	for (uint64_t at = addr; at - addr < n; at = (at | (EX_PAGE - 1)) + 1)
		if (!lane_ptr(b, w, l, SP_GLOBAL, at, 1, &c))
			return false;
	mem_flush(b, &c);
	return true;
}

/* A parameter buffer's header (DEVRT_HEADER bytes before what the thread
 * is given): the launch it was asked for, where it was (the kernel -1
 * where not), and the bytes given. */
struct devrt_hdr {
	uint32_t magic;
	int32_t kernel;
	uint32_t grid[3], block[3], shared, bytes;
};

/* A launch's shape the device runtime takes, or the error it answers. */
static int devrt_shape(const uint32_t grid[3], const uint32_t block[3])
{
	uint64_t threads = (uint64_t)block[0] * block[1] * block[2];

	if (!grid[0] || !grid[1] || !grid[2] || grid[0] > 0x7fffffffu ||
	    grid[1] > 65535 || grid[2] > 65535 || !threads ||
	    threads > 1024 || block[2] > 64)
		return DEVRT_INVALID_CONFIGURATION;
	return DEVRT_SUCCESS;
}

/* The dim3 a call passed as parameter var (12 bytes), lane l's. */
static void lane_dim3(struct blk *b, struct warp *w, int var, int l,
		      uint32_t d[3])
{
	for (int i = 0; i < 3; i++)
		d[i] = (uint32_t)lane_param_at(b, w, var, l, 4 * (unsigned)i, 4);
}

/* A heap block of h's bytes behind its header: the address the thread
 * is given, or 0 (*err says why). */
static uint64_t devrt_alloc(struct blk *b, const struct devrt_hdr *h,
			    int *err)
{
	const struct ex_memops *mo = &b->l->mem;
	uint64_t base = mo->malloc ?
		mo->malloc(mo->ctx, DEVRT_HEADER + (uint64_t)h->bytes) : 0;

	if (!base) {
		*err = DEVRT_MEMORY_ALLOCATION;
		return 0;
	}
	memcpy((void *)(uintptr_t)base, h, sizeof *h);
	return base + DEVRT_HEADER;
}

/* cudaGetParameterBufferV2 (func, grid, block, shared bytes): a buffer
 * for that launch's parameters; cudaGetParameterBuffer (alignment, size):
 * one of size bytes, the launch named when it is made. */
static uint64_t devrt_buffer(struct blk *b, struct warp *w,
			     const struct insn *in, int l, int *err)
{
	const int32_t *p = in->o[2].list;
	struct devrt_hdr h = { .magic = DEVRT_MAGIC, .kernel = -1 };

	if (in->sub == DEVRT_PARAM_BUFFER_V1) {
		uint64_t size = lane_param_u64(b, w, p[1], l, 8);
		if (size > 0xffffffffu) {
			*err = DEVRT_INVALID_VALUE;
			return 0;
		}
		h.bytes = (uint32_t)size;
		return devrt_alloc(b, &h, err);
	}
	h.kernel = ex_kernel_at(b->m, lane_param_u64(b, w, p[0], l, 8));
	if (h.kernel < 0) {
		*err = DEVRT_INVALID_DEVICE_FUNCTION;
		return 0;
	}
	lane_dim3(b, w, p[1], l, h.grid);
	lane_dim3(b, w, p[2], l, h.block);
	h.shared = (uint32_t)lane_param_u64(b, w, p[3], l, 4);
	if ((*err = devrt_shape(h.grid, h.block)) != DEVRT_SUCCESS)
		return 0;
	h.bytes = b->m->funcs[b->m->kernels[h.kernel]].info.param_bytes;
	return devrt_alloc(b, &h, err);
}

/* The launch h describes queued on the grid with buf's parameters; the
 * buffer given back to the heap either way. */
static int devrt_queue(struct blk *b, struct warp *w, int l, uint64_t buf,
		       const struct devrt_hdr *h, uint64_t stream)
{
	const struct ex_memops *mo = &b->l->mem;
	uint32_t bytes = b->m->funcs[b->m->kernels[h->kernel]].info.param_bytes;
	bool deep = b->l->depth + 1 > DEVRT_DEPTH_MAX;
	struct devop *op;
	int err;

	if (!lane_global(b, w, l, buf, bytes, EX_READ))
		return -1;
	op = deep ? NULL : calloc(1, sizeof *op + bytes);
	if (op) {
		op->kind = DEVOP_LAUNCH;
		op->tail = stream == DEVRT_STREAM_TAIL;
		op->alone = stream == DEVRT_STREAM_FIRE_AND_FORGET;
		op->stream = stream >= DEVRT_STREAM_MADE ? stream : 0;
		op->from_block = b->linear;
		op->from_thread = w->id * WARP + (uint32_t)l;
		op->nth = w->launched[l]++;
		op->kernel = h->kernel;
		memcpy(op->grid, h->grid, sizeof op->grid);
		memcpy(op->block, h->block, sizeof op->block);
		op->shared_bytes = h->shared;
		memcpy(op->params, (const void *)(uintptr_t)buf, bytes);
	}
	if (mo->free)
		mo->free(mo->ctx, buf - DEVRT_HEADER);
	if (!op)
		return deep ? DEVRT_MAX_DEPTH_EXCEEDED : DEVRT_MEMORY_ALLOCATION;
	if ((err = ex_devq_push(b->g, op)) != DEVRT_SUCCESS)
		free(op);
	return err;
}

/* cudaLaunchDeviceV2 (buffer, stream) and cudaLaunchDevice (func,
 * buffer, grid, block, shared bytes, stream): the buffer's header read
 * back and checked (the thread may have written over it), used once;
 * -1 where the launch failed (a buffer of no allocation). */
static int devrt_launch(struct blk *b, struct warp *w, const struct insn *in,
			int l)
{
	const int32_t *p = in->o[2].list;
	bool v1 = in->sub == DEVRT_LAUNCH_V1;
	uint64_t buf = lane_param_u64(b, w, p[v1 ? 1 : 0], l, 8);
	struct devrt_hdr h;
	int err;

	/* the buffer is the device heap's: global memory the thread may
	 * have written anything over, or an address of nothing */
	if (buf < DEVRT_HEADER || (buf & WIN_MASK))
		return DEVRT_INVALID_VALUE;
	if (!lane_global(b, w, l, buf - DEVRT_HEADER, sizeof h, EX_WRITE))
		return -1;
	memcpy(&h, (const void *)(uintptr_t)(buf - DEVRT_HEADER), sizeof h);
	if (h.magic != DEVRT_MAGIC)
		return DEVRT_INVALID_VALUE;
	memset((void *)(uintptr_t)(buf - DEVRT_HEADER), 0, 4);
	if (v1) {
		h.kernel = ex_kernel_at(b->m, lane_param_u64(b, w, p[0], l, 8));
		lane_dim3(b, w, p[2], l, h.grid);
		lane_dim3(b, w, p[3], l, h.block);
		h.shared = (uint32_t)lane_param_u64(b, w, p[4], l, 4);
		err = h.kernel < 0 ? DEVRT_INVALID_DEVICE_FUNCTION :
			devrt_shape(h.grid, h.block);
		if (err == DEVRT_SUCCESS && h.bytes <
		    b->m->funcs[b->m->kernels[h.kernel]].info.param_bytes)
			err = DEVRT_INVALID_VALUE;
	} else {
		err = h.kernel < 0 || h.kernel >= b->m->nkernels ||
			h.bytes < b->m->funcs[b->m->kernels[h.kernel]].info.param_bytes ||
			devrt_shape(h.grid, h.block) ? DEVRT_INVALID_VALUE :
			DEVRT_SUCCESS;
	}
	if (err != DEVRT_SUCCESS) {
		if (b->l->mem.free)
			b->l->mem.free(b->l->mem.ctx, buf - DEVRT_HEADER);
		return err;
	}
	return devrt_queue(b, w, l, buf, &h,
			   lane_param_u64(b, w, p[v1 ? 5 : 1], l, 8));
}

/* cudaMemcpyAsync and cudaMemsetAsync: queued as a launch is. */
static int devrt_memory(struct blk *b, enum devop_kind kind, uint64_t dst,
			uint64_t src, uint64_t bytes, uint8_t value)
{
	struct devop *op = calloc(1, sizeof *op);
	int err;

	if (!op)
		return DEVRT_MEMORY_ALLOCATION;
	op->kind = kind;
	op->dst = dst;
	op->src = src;
	op->bytes = bytes;
	op->value = value;
	if ((err = ex_devq_push(b->g, op)) != DEVRT_SUCCESS)
		free(op);
	return err;
}

/* A handle for a stream or event made in device code: distinct, never 0
 * nor one of the handles named by value. */
static uint64_t devrt_handle(struct blk *b)
{
	return DEVRT_STREAM_MADE + 8 * __atomic_fetch_add(&b->g->streams, 1,
							   __ATOMIC_RELAXED);
}

/* One lane's call of entry fn: what it returns in *v, the error it
 * leaves the thread in *err; false where the launch failed (a pointer it
 * passed no allocation holds). */
static bool devrt_lane(struct blk *b, struct warp *w, const struct insn *in,
		       int l, int *err, uint64_t *v)
{
	const struct ex_memops *mo = &b->l->mem;
	const int32_t *p = in->o[2].list;
	uint64_t a0 = in->o[2].n ? lane_param_u64(b, w, p[0], l, 8) : 0;
	int value = 0;

	*v = 0;
	switch (in->sub) {
	case DEVRT_PARAM_BUFFER: case DEVRT_PARAM_BUFFER_V1:
		*v = devrt_buffer(b, w, in, l, err);
		return true;
	case DEVRT_LAUNCH: case DEVRT_LAUNCH_V1:
		if ((*err = devrt_launch(b, w, in, l)) < 0)
			return false;
		break;
	case DEVRT_STREAM_CREATE:
		/* default or non-blocking: the H200 takes both (cdp.txt) */
		if (lane_param_u64(b, w, p[1], l, 4) > 1)
			*err = DEVRT_INVALID_VALUE;
		else if (lane_out(b, w, l, a0, devrt_handle(b), 8))
			return false;
		break;
	case DEVRT_EVENT_CREATE:
		/* an event of the device takes no time: it must say so */
		if (!(lane_param_u64(b, w, p[1], l, 4) & 2))
			*err = DEVRT_INVALID_VALUE;
		else if (lane_out(b, w, l, a0, devrt_handle(b), 8))
			return false;
		break;
	case DEVRT_STREAM_DESTROY: case DEVRT_STREAM_WAIT_EVENT:
	case DEVRT_EVENT_RECORD: case DEVRT_EVENT_DESTROY:
		/* the queue runs in the order made: nothing to wait for */
		break;
	case DEVRT_MALLOC: {
		uint64_t size = lane_param_u64(b, w, p[1], l, 8);
		uint64_t got = mo->malloc ? mo->malloc(mo->ctx, size) : 0;
		if (lane_out(b, w, l, a0, got, 8))
			return false;
		if (!got)
			*err = DEVRT_MEMORY_ALLOCATION;
		break;
	}
	case DEVRT_FREE:
		if (a0 && mo->free)
			mo->free(mo->ctx, a0);
		break;
	case DEVRT_MEMCPY:
		*err = devrt_memory(b, DEVOP_COPY, a0,
				    lane_param_u64(b, w, p[1], l, 8),
				    lane_param_u64(b, w, p[2], l, 8), 0);
		break;
	case DEVRT_MEMSET:
		*err = devrt_memory(b, DEVOP_SET, a0, 0,
				    lane_param_u64(b, w, p[2], l, 8),
				    (uint8_t)lane_param_u64(b, w, p[1], l, 4));
		break;
	case DEVRT_GET_LAST_ERROR:
		*v = (uint64_t)__atomic_exchange_n(&b->g->last_error, 0,
						   __ATOMIC_RELAXED);
		return true;
	case DEVRT_PEEK_LAST_ERROR:
		*v = (uint64_t)__atomic_load_n(&b->g->last_error,
					       __ATOMIC_RELAXED);
		return true;
	case DEVRT_ERROR_STRING: case DEVRT_ERROR_NAME:
		*v = ex_devrt_error((int)lane_param_u64(b, w, p[0], l, 4),
				    in->sub == DEVRT_ERROR_NAME);
		return true;
	case DEVRT_GET_DEVICE:
		if (lane_out(b, w, l, a0, (uint64_t)b->l->dev.ordinal, 4))
			return false;
		break;
	case DEVRT_DEVICE_ATTRIBUTE:
		*err = mo->attribute ?
			mo->attribute(mo->ctx,
				      (int)lane_param_u64(b, w, p[1], l, 4),
				      (int)lane_param_u64(b, w, p[2], l, 4),
				      &value) : DEVRT_NOT_SUPPORTED;
		if (*err == DEVRT_SUCCESS &&
		    lane_out(b, w, l, a0, (uint32_t)value, 4))
			return false;
		break;
	case DEVRT_RUNTIME_VERSION:
		if (lane_out(b, w, l, a0,
			     (uint64_t)b->l->dev.runtime_version, 4))
			return false;
		break;
	default:
		*err = DEVRT_NOT_SUPPORTED;
		break;
	}
	*v = (uint64_t)*err;
	return true;
}

/* The device runtime's entries, lane by lane in lane order; an error a
 * call answers is also the grid's last (cudaGetLastError). */
static int do_devrt(struct blk *b, struct warp *w, const struct insn *in,
		    uint32_t act)
{
	FOR_LANES(l, act) {
		int err = DEVRT_SUCCESS;
		uint64_t v;
		uint64_t off = lane_param_addr(b, in->o[0].list[0]) - LPARAM_BASE;
		if (!devrt_lane(b, w, in, (int)l, &err, &v))
			return -1;
		if (err != DEVRT_SUCCESS)
			__atomic_store_n(&b->g->last_error, err,
					 __ATOMIC_RELAXED);
		store(w->lparam + (size_t)l * b->lparam_bytes + off, v,
		      (unsigned)b->m->vars[in->o[0].list[0]].size);
	}
	return 0;
}

/* One line for each lane that failed, in lane order, as the device
 * prints one for each of its threads; the first names the thread the
 * launch stops at. */
static int do_assertfail(struct blk *b, struct warp *w, const struct insn *in,
			 uint32_t act)
{
	const int32_t *p = in->o[2].list;
	char text[sizeof ((struct ex_result *)0)->message];
	size_t used = 0;

	if (in->o[2].n < 4)
		return ex_grid_fail(b, w, __builtin_ctz(act), EX_ASSERT, 0,
				    "assertion failed"), -1;
	text[0] = 0;
	for (uint32_t m = act; m; m &= m - 1) {
		int l = __builtin_ctz(m);
		const char *msg, *file, *fn;
		unsigned line;

		msg = global_str(b, w, l, lane_param_u64(b, w, p[0], l, 8));
		file = msg ? global_str(b, w, l,
					lane_param_u64(b, w, p[1], l, 8)) : NULL;
		line = (unsigned)lane_param_u64(b, w, p[2], l, 4);
		fn = file ? global_str(b, w, l,
				       lane_param_u64(b, w, p[3], l, 8)) : NULL;
		if (!fn)
			return -1;
		if (used < sizeof text)
			used += (size_t)snprintf(text + used, sizeof text - used,
				"%s%s:%u: %s: block: [%u,%u,%u], thread: "
				"[%u,%u,%u] Assertion `%s` failed.",
				used ? "\n" : "", file, line, fn,
				b->ctaid[0], b->ctaid[1], b->ctaid[2],
				(unsigned)w->tid[0][l], (unsigned)w->tid[1][l],
				(unsigned)w->tid[2][l], msg);
	}
	return ex_grid_fail(b, w, __builtin_ctz(act), EX_ASSERT, 0, "%s",
			    text), -1;
}

/* ------------------------------------------------------------------ */
/* The common instructions, each as one loop the compiler can vectorize */

/* The forms (form.c): each a loop over the active lanes of one small
 * record's rows. ROW(i) is source i: a register's row or the module's
 * constant row. */
#define ROW(i) (x->s[i] >= 0 ? (const uint64_t *)w->r[x->s[i]] :            \
		(const uint64_t *)krow[~x->s[i]])
#define FORM1(expr)                                                          \
	do {                                                                 \
		const uint64_t *A = ROW(0);                                  \
		LANES(act, D[l] = (expr));                                   \
	} while (0)
#define FORM2(expr)                                                          \
	do {                                                                 \
		const uint64_t *A = ROW(0), *B = ROW(1);                     \
		LANES(act, D[l] = (expr));                                   \
	} while (0)
#define FORM3(expr)                                                          \
	do {                                                                 \
		const uint64_t *A = ROW(0), *B = ROW(1), *C = ROW(2);        \
		LANES(act, D[l] = (expr));                                   \
	} while (0)

static void setp_s32(const struct xinsn *x, uint64_t *D, const uint64_t *A,
		     const uint64_t *B, uint32_t act)
{
#define SCMP(op) LANES(act, D[l] = (int32_t)A[l] op (int32_t)B[l])
	switch (x->cmp) {
	case C_EQ: SCMP(==); break;
	case C_NE: SCMP(!=); break;
	case C_LT: SCMP(<); break;
	case C_LE: SCMP(<=); break;
	case C_GT: SCMP(>); break;
	default: SCMP(>=); break;
	}
#undef SCMP
}

static void setp_u(const struct xinsn *x, uint64_t *D, const uint64_t *A,
		   const uint64_t *B, uint32_t act)
{
	uint64_t m = x->mask;
#define UCMP(op) LANES(act, D[l] = (A[l] & m) op (B[l] & m))
	switch (x->cmp) {
	case C_EQ: UCMP(==); break;
	case C_NE: UCMP(!=); break;
	case C_LT: UCMP(<); break;
	case C_LE: UCMP(<=); break;
	case C_GT: UCMP(>); break;
	default: UCMP(>=); break;
	}
#undef UCMP
}

/* Runs a value form (one that writes register x->d and cannot fail). */
static void run_form(struct blk *b, struct warp *w, const struct xinsn *x,
		     uint32_t act)
{
	const uint64_t (*krow)[WARP] = (const uint64_t (*)[WARP])b->m->krow;
	uint64_t *D = dst_of(b, w, x->d);
	const uint64_t m = x->mask;
	const unsigned bits = x->bits;

	switch ((enum form)x->form) {
	case FM_MOV: FORM1(A[l] & m); break;
	case FM_MOV_SREG: {
		const uint64_t *A = sreg_src(b, w, x->s[0], 1).p;
		LANES(act, D[l] = A[l] & m);
		break;
	}
	case FM_ZEXT32: FORM1(A[l] & 0xffffffffu); break;
	case FM_SEXT32: FORM1((uint64_t)(int64_t)(int32_t)A[l]); break;
	case FM_ADD: FORM2((A[l] + B[l]) & m); break;
	case FM_SUB: FORM2((A[l] - B[l]) & m); break;
	case FM_AND: FORM2(A[l] & B[l] & m); break;
	case FM_OR: FORM2((A[l] | B[l]) & m); break;
	case FM_XOR: FORM2((A[l] ^ B[l]) & m); break;
	case FM_MUL_LO: FORM2((A[l] * B[l]) & m); break;
	case FM_MAD_LO: FORM3((A[l] * B[l] + C[l]) & m); break;
	case FM_SHL:
		FORM2((B[l] & 0xffffffffu) >= bits ? 0 :
		      (A[l] << (B[l] & 63)) & m);
		break;
	case FM_SHR_U:
		FORM2((B[l] & 0xffffffffu) >= bits ? 0 :
		      (A[l] & m) >> (B[l] & 63));
		break;
	case FM_MUL_WIDE_U16:   /* a byte's index times 4 */
		FORM2((uint64_t)(uint16_t)A[l] * (uint16_t)B[l]);
		break;
	case FM_MUL_WIDE_S16:
		FORM2((uint32_t)((int32_t)(int16_t)A[l] * (int16_t)B[l]));
		break;
	case FM_MUL_WIDE_U32:
		FORM2((uint64_t)(uint32_t)A[l] * (uint32_t)B[l]);
		break;
	case FM_MUL_WIDE_S32:
		FORM2((uint64_t)((int64_t)(int32_t)A[l] * (int32_t)B[l]));
		break;
	case FM_MAD_WIDE_U32:
		FORM3((uint64_t)(uint32_t)A[l] * (uint32_t)B[l] + C[l]);
		break;
	case FM_MAD_WIDE_S32:
		FORM3((uint64_t)((int64_t)(int32_t)A[l] * (int32_t)B[l]) + C[l]);
		break;
	case FM_FADD: FORM2(canon32(f32(A[l]) + f32(B[l]))); break;
	case FM_FSUB: FORM2(canon32(f32(A[l]) - f32(B[l]))); break;
	case FM_FMUL: FORM2(canon32(f32(A[l]) * f32(B[l]))); break;
	case FM_FFMA:
		FORM3(canon32(fmaf(f32(A[l]), f32(B[l]), f32(C[l]))));
		break;
	case FM_SETP_S32:
		setp_s32(x, D, ROW(0), ROW(1), act);
		break;
	case FM_SETP_U:
		setp_u(x, D, ROW(0), ROW(1), act);
		break;
	case FM_SELP: FORM3((C[l] & 1) ? A[l] : B[l]); break;
	default:
		break;
	}
}
#undef FORM1
#undef FORM2
#undef FORM3
#undef ROW

/* ------------------------------------------------------------------ */
/* The loop                                                            */

/* Lanes leave the warp: from every entry of its stack. */
static void lanes_exit(struct warp *w, uint32_t lanes)
{
	w->exited |= lanes;
	for (int i = 0; i < w->sp; i++)
		w->stack[i].mask &= ~lanes;
}

static void branch(struct warp *w, const struct insn *in, int pc,
		   uint32_t act, uint32_t taken)
{
	uint32_t fall = act & ~taken;
	bool room = taken == act || !taken || simt_room(w, 2);
	struct simt *top = &w->stack[w->sp - 1];

	if (taken == act) {
		top->pc = in->o[0].target;
	} else if (!taken) {
		top->pc = pc + 1;
	} else if (!room) {
		/* too deep to split: run the paths one after the other */
		top->pc = in->o[0].target;
		top->mask = taken;
		w->stack[w->sp++] = (struct simt){ pc + 1, -1, fall };
	} else {
		/* the entry waits at the reconvergence point; the paths run
		 * first, the taken one on top */
		top->pc = in->reconv;
		if (in->reconv < 0) {
			/* no reconvergence: each path runs to its end */
			top->mask = fall;
			top->pc = pc + 1;
			w->stack[w->sp++] = (struct simt){ in->o[0].target,
							   top->rpc, taken };
			return;
		}
		w->stack[w->sp++] = (struct simt){ pc + 1, in->reconv, fall };
		w->stack[w->sp++] = (struct simt){ in->o[0].target, in->reconv,
						   taken };
	}
}

static uint32_t guard_mask(const struct warp *w, const struct xinsn *x,
			   uint32_t act)
{
	uint32_t m = 0;
	const uint64_t *p;

	if (x->guard < 0)
		return act;
	p = w->r[x->guard_reg];
	for (uint32_t l = 0; l < WARP; l++)
		m |= (uint32_t)((p[l] & 1) == (uint64_t)x->guard) << l;
	return m & act;
}

/* The warp issues instruction d (chain.c): once its basic block began
 * and its sources are ready, a load not before the last store; what it
 * writes is ready its class's latency later. A branch or barrier ends
 * the block when its last instruction has issued. */
static inline void chain_issue(struct warp *w, const struct xdep *d,
			       const uint32_t *lat)
{
	uint64_t t = w->cyc + 1, r;

	for (int i = 0; i < d->nsrc; i++)
		t = t > w->ready[d->src[i]] ? t : w->ready[d->src[i]];
	if ((d->mem & DEP_LOAD) && t <= w->st)
		t = w->st + 1;
	if ((d->mem & DEP_STORE) && t > w->st)
		w->st = t;
	r = t + lat[d->lat];
	for (int i = 0; i < d->ndst; i++)
		w->ready[d->dst[i]] = r;
	w->issued = t;
	w->count++;
	if (t < w->cyc + w->count)
		t = w->cyc + w->count;
	if (t > w->end)
		w->end = t;
	if (d->mem & DEP_END) {
		w->cyc = w->end;
		w->count = 0;
	}
}

/* Line's set in the block's L1: the high half of the line's number
 * times 2^64 over the golden ratio (tlb_slot's hash), scaled to the sets
 * the L1 has. */
static inline uint64_t *l1_set(const struct blk *b, uint64_t line)
{
	uint64_t h = (line * 0x9e3779b97f4a7c15ull) >> 32;

	return &b->l1[((h * b->l1_sets) >> 32) * L1_WAYS];
}

/* Whether the block's L1 holds line; it does from now on, the most
 * recently used of its set (l1_set), whose least recently used it
 * replaces; a set's ways are kept most recent first. So a ring of lines
 * is whole in the L1 to about its size and gone at 1.25 times it, as on
 * an H200 (S KiB of a shuffled ring, no shared memory: all hits to 208,
 * 0.49 of them at 256, none at 320; here 0.45 at 256, none at 304:
 * probes/results/l1.txt). */
static inline bool l1_holds(struct blk *b, uint64_t line)
{
	uint64_t *set = l1_set(b, line), tag = line + 1;
	bool hit;
	int k = 1;

	if (set[0] == tag)   /* the most recent already: nothing moves */
		return true;
	/* k: the way it is in, else the last, least recent, which goes */
	while (k < L1_WAYS - 1 && set[k] != tag)
		k++;
	hit = set[k] == tag;
	for (int i = k; i > 0; i--)
		set[i] = set[i - 1];
	set[0] = tag;
	return hit;
}

/* The 128-byte lines a whole warp's access at base + off touches where
 * its lanes never go down (the coalesced and strided accesses), each
 * lane in a line other than the lane before's starting one: one pass the
 * compiler can vectorize; 0 where they go down (warp_lines walks them). */
static uint32_t full_lines(const uint64_t *base, uint64_t off)
{
	uint32_t n = 1;
	uint64_t down = 0;

	for (uint32_t l = 1; l < WARP; l++) {
		uint64_t a = (base[l - 1] + off) >> 7, c = (base[l] + off) >> 7;

		n += c != a;
		down |= c < a;
	}
	return down ? 0 : n;
}

/* Whether an access of space sp goes through the SM's memory pipeline to
 * the caches (a generic address is taken as global). */
static inline bool global_space(int sp)
{
	return sp == SP_GLOBAL || sp == SP_GENERIC;
}

/* Where a warp's load found its lines: each of them in its block's L1
 * (the L1's latency), some not in its GPU's L2 (the DRAM's), else the
 * class its instruction writes (the L2's). */
struct lines {
	uint32_t n;          /* the 128-byte lines it touched; 0: untimed */
	uint32_t hits;       /* ... of which the L1 held so many (all of
			      * them: the L1's latency) */
	bool dram;           /* the L2 did not hold one, read from the DRAM */
	bool merged;         /* a store to the lines of the warp's last */
};

/* Whether the block's L1 holds line, changing nothing (a store keeps
 * the lines as they are). */
static inline bool l1_has(const struct blk *b, uint64_t line)
{
	const uint64_t *set = l1_set(b, line);

	for (int k = 0; k < L1_WAYS; k++)
		if (set[k] == line + 1)
			return true;
	return false;
}

/* Where a line of a global access was found. */
enum seen { SEEN_L2, SEEN_L1, SEEN_DRAM };

/* One line of a global access: it joins the block's L1 (for a load that
 * may use it, l1) and, where the L1 did not hold it, the GPU's L2; a
 * load that finds it in neither waits the DRAM's latency. A store to a
 * line the L1 holds is taken to find it in the L2 too (a load brought it
 * there), and does not ask. A value, not a write through a pointer: the
 * caller's loop keeps its counts in registers. */
static inline enum seen line_seen(struct blk *b, uint64_t line, bool l1,
				  bool load)
{
	if (l1 && l1_holds(b, line))
		return SEEN_L1;
	if (!load && b->l1 && l1_has(b, line))
		return SEEN_L2;
	if (b->l->l2 && !ex_l2_holds(b->l->l2, line) && load)
		return SEEN_DRAM;
	return SEEN_L2;
}

/* Whether line is one of the n seen. */
static inline bool seen_before(const uint64_t *seen, uint32_t n,
			       uint64_t line)
{
	for (uint32_t i = 0; i < n; i++)
		if (seen[i] == line)
			return true;
	return false;
}

/* A store's lines against the warp's last store's: the same first line
 * and as many lines is the same lines (a warp storing its sum each step),
 * which its SM merges (l1rate.cu's store_same: 15 TB/s of sectors on an
 * H200, where stores to new lines go at 4.6). This store is the warp's
 * last from now on. */
static inline void store_lines(struct warp *w, struct lines *s,
			       uint64_t first)
{
	s->merged = w->st_line == first + 1 && w->st_lines == s->n;
	w->st_line = first + 1;
	w->st_lines = s->n;
}

/* The distinct 128-byte lines a warp's global access (operand a)
 * touches, as its sectors are counted: a lane in the line of the lane
 * before, or (lanes in no order) of any lane before, adds none; none
 * where chains are untimed or the access is not global. A load's lines
 * join the block's L1 (where the launch gave it one and the load may use
 * it), and every access's lines the L2's; a store's are compared with
 * the warp's last store's (store_lines). */
static struct lines warp_lines(struct blk *b, struct warp *w,
			       const struct insn *in, const struct operand *a,
			       uint32_t act)
{
	const uint64_t *base = a->reg >= 0 ? w->r[a->reg] : NULL;
	uint64_t off = (uint64_t)a->imm +
		       (a->var >= 0 ? b->g->varaddr[a->var] : 0);
	bool load = in->op == OP_LD;
	bool l1 = b->l1 && load && !(in->flags & F_NOL1);
	struct lines s = { 0 };
	uint64_t last = ~0ull, top = 0, seen[WARP];
	uint32_t n = 0, hits = 0;
	bool dram = false;

	if (!b->lat || !global_space(in->space) || !act)
		return s;
	if (!base) {
		enum seen at = line_seen(b, off >> 7, l1, load);

		s.n = 1;
		s.hits = at == SEEN_L1;
		s.dram = at == SEEN_DRAM;
		if (!load)
			store_lines(w, &s, off >> 7);
		return s;
	}
	if (!l1 && !b->l->l2 && act == FULL &&
	    (s.n = full_lines(base, off)) != 0) {
		if (!load)
			store_lines(w, &s, (base[0] + off) >> 7);
		return s;
	}
	FOR_LANES(l, act) {
		uint64_t line = (base[l] + off) >> 7;
		enum seen at;

		if (line == last || (line < top && seen_before(seen, n, line)))
			continue;
		seen[n++] = line;
		last = line;
		top = line > top ? line : top;
		at = line_seen(b, line, l1, load);
		hits += at == SEEN_L1;
		dram |= at == SEEN_DRAM;
	}
	s.n = n;
	s.hits = hits;
	s.dram = dram;
	if (!load && n)
		store_lines(w, &s, seen[0]);
	return s;
}

/* The sectors the access just counted (b->sectors_moved past before),
 * at the place of its last lanes, that the L2 did not see: a load's
 * share of its lines the L1 held, a merged store's all (model/batch.c
 * prices them apart). */
static inline void sectors_apart(struct blk *b, struct lines s,
				 uint64_t before, bool load)
{
	uint64_t moved = b->sectors_moved - before;

	if (!s.n || !moved)
		return;
	if (load && s.hits)
		b->l1_sectors[b->last_place] += s.hits == s.n ? moved :
						moved * s.hits / s.n;
	else if (!load && s.merged)
		b->merged_sectors[b->last_place] += moved;
}

/* The access passes its SM's memory pipeline (chains timed): it starts
 * when the warp's accesses before it are through, takes a cycle a line
 * for itself and for each of the SM's other warps doing the same
 * (blk.sm_warps), and a load's values are ready its latency after its
 * last line went: the latency of where it found its lines (warp_lines).
 * So a store scattered over 32 lines in each of a block's eight warps
 * holds the loads after it 256 cycles: CORR's step is twice a lone
 * load's on an H200 (probes/chains.cu). */
static inline void lsu_pass(const struct blk *b, struct warp *w,
			    const struct xdep *d, struct lines s, bool load)
{
	uint64_t start = w->issued > w->lsu ? w->issued : w->lsu;
	uint32_t lat;

	if (!s.n)   /* chains untimed (b->lat NULL), or no lane active */
		return;
	w->lsu = start + (uint64_t)s.n * b->sm_warps;
	lat = b->lat[s.dram ? EX_LAT_DRAM :
		     s.hits == s.n ? EX_LAT_SHARED : d->lat];
	if (load)
		for (int i = 0; i < d->ndst; i++)
			w->ready[d->dst[i]] = w->lsu - 1 + lat;
}

/* The baseline build's name; warp_avx2.c compiles this file again under
 * another. */
#ifndef EX_WARP_RUN
#define EX_WARP_RUN ex_warp_run
#endif

int EX_WARP_RUN(struct blk *b, struct warp *w)
{
	const struct insn *code = b->m->code;
	const struct xinsn *form = b->m->form;

	for (;;) {
		struct simt *top;
		const struct insn *in;
		const struct xinsn *x;
		uint32_t act, mask;
		int pc;

		if (w->sp == 0) {
			w->state = W_DONE;
			return W_DONE;
		}
		top = &w->stack[w->sp - 1];
		if (top->mask == 0 || top->pc == top->rpc) {
			w->sp--;
			continue;
		}
		pc = top->pc;
		x = &form[pc];
		mask = top->mask;
		act = guard_mask(w, x, mask);
		b->warp_insns++;
		b->lane_insns += (uint64_t)lanes_of(act);
		w->clock++;
		if (b->lat)
			chain_issue(w, &b->m->dep[pc], b->lat);
		top->pc = pc + 1;
		in = &code[pc];
		if (!act && (x->form != FM_SLOW || in->op != OP_FRET))
			continue;
		/* the compact forms first: one switch over a dense enum */
		switch ((enum form)x->form) {
		case FM_SLOW:
			break;
		case FM_LD: {
			struct lines s = warp_lines(b, w, in, &in->o[1], act);
			uint64_t before = b->sectors_moved;

			if (do_ld(b, w, in, act))
				return -1;
			sectors_apart(b, s, before, true);
			lsu_pass(b, w, &b->m->dep[pc], s, true);
			continue;
		}
		case FM_ST: {
			struct lines s = warp_lines(b, w, in, &in->o[0], act);
			uint64_t before = b->sectors_moved;

			if (do_st(b, w, in, act))
				return -1;
			sectors_apart(b, s, before, false);
			lsu_pass(b, w, &b->m->dep[pc], s, false);
			continue;
		}
		case FM_BRA:
			/* another block's error stops this one at its next
			 * branch: every loop has one */
			if (__atomic_load_n(&b->g->stop, __ATOMIC_RELAXED))
				return -1;
			branch(w, in, pc, mask, act);
			if (b->slice && ++w->ran >= b->slice) {
				w->ran = 0;
				return W_YIELD;
			}
			continue;
		case FM_EXIT:
			lanes_exit(w, act);
			continue;
		default:
			run_form(b, w, x, act);
			continue;
		}
		if (in->flags & F_HALF) {
			do_half(b, w, in, act);
			continue;
		}
		switch (in->op) {
		case OP_NOP: case OP_PREFETCH: case OP_MEMBAR: case OP_BAR_WARP:
			break;
		case OP_MOV:
			do_mov(b, w, in, act);
			break;
		case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD: case OP_DIV:
		case OP_ABS: case OP_NEG: case OP_MIN: case OP_MAX:
			if (ptype_float(in->type))
				float_op(b, w, in, act);
			else
				int_op(b, w, in, act);
			break;
		case OP_FMA: case OP_RCP: case OP_SQRT: case OP_RSQRT:
		case OP_SIN: case OP_COS: case OP_LG2: case OP_EX2:
		case OP_TANH: case OP_COPYSIGN:
			float_op(b, w, in, act);
			break;
		case OP_MUL24: case OP_MAD24: case OP_SAD: case OP_REM:
		case OP_AND: case OP_OR: case OP_XOR: case OP_NOT: case OP_CNOT:
		case OP_SHL: case OP_SHR:
			int_op(b, w, in, act);
			break;
		case OP_BFE: case OP_BFI: case OP_BREV: case OP_CLZ:
		case OP_POPC: case OP_PRMT: case OP_SHF: case OP_BFIND:
		case OP_BMSK:
			bit_op(b, w, in, act);
			break;
		case OP_TESTP:
			do_testp(b, w, in, act);
			break;
		case OP_SETP: case OP_SET:
			do_setp(b, w, in, act);
			break;
		case OP_SELP: case OP_SLCT:
			do_selp(b, w, in, act);
			break;
		case OP_CVT:
			do_cvt(b, w, in, act);
			break;
		case OP_CVTA:
			do_cvta(b, w, in, act);
			break;
		case OP_ATOM: case OP_RED:
			if (do_atom(b, w, in, act))
				return -1;
			break;
		case OP_CALL:
			if (do_call(b, w, in, pc, act))
				return -1;
			break;
		case OP_FRET:
			if (do_fret(b, w, mask) > 0)
				lanes_exit(w, mask);
			break;
		case OP_BAR: case OP_BAR_ARRIVE: case OP_BAR_RED: {
			struct src sa = src_of(b, w, in, in->op == OP_BAR_RED ? 1 : 0);
			w->bar = (int)(V(sa, __builtin_ctz(act)) & (NBAR - 1));
			w->bar_count = 0;
			if (in->nops > (in->op == OP_BAR_RED ? 3 : 1)) {
				struct src sb = src_of(b, w, in,
						       in->op == OP_BAR_RED ? 2 : 1);
				w->bar_count = (uint32_t)V(sb, __builtin_ctz(act));
			}
			w->bar_red = in->op == OP_BAR_RED ? pc : -1;
			w->bar_mask = act;
			if (in->op == OP_BAR_ARRIVE) {
				w->state = W_RUN;
				w->bar = -1 - w->bar;   /* an arrival only */
				return W_BAR;
			}
			w->state = W_BAR;
			return W_BAR;
		}
		case OP_SHFL:
			do_shfl(b, w, in, act);
			break;
		case OP_VOTE:
			do_vote(b, w, in, act);
			break;
		case OP_ACTIVEMASK: {
			uint64_t *D = dst_of(b, w, in->o[0].reg);
			FOR_LANES(l, act) D[l] = act;
			break;
		}
		case OP_REDUX:
			do_redux(b, w, in, act);
			break;
		case OP_MATCH:
			do_match(b, w, in, act);
			break;
		case OP_MBARRIER: {
			int rc = do_mbarrier(b, w, in, act);
			if (rc < 0)
				return -1;
			if (rc > 0)
				return W_YIELD;
			break;
		}
		case OP_TRAP:
			ex_grid_fail(b, w, __builtin_ctz(act), EX_TRAP, 0,
				     "line %u: trap", in->line);
			return -1;
		case OP_NANOSLEEP:
			w->clock += in->nops && in->o[0].kind == K_IMM ?
				in->immv[0] : 0;
			break;
		case OP_VPRINTF:
			if (do_vprintf(b, w, in, act))
				return -1;
			break;
		case OP_ASSERTFAIL:
			do_assertfail(b, w, in, act);
			return -1;
		case OP_MALLOC: case OP_FREE:
			do_heap(b, w, in, act);
			break;
		case OP_SETCOND:
			if (do_setcond(b, w, in, act))
				return -1;
			break;
		case OP_DEVRT:
			if (do_devrt(b, w, in, act))
				return -1;
			break;
		case OP_WMMA:
			if (do_wmma(b, w, in, act))
				return -1;
			break;
		case OP_MMA:
			do_mma(b, w, in, act);
			break;
		case OP_LDMATRIX:
			if (do_ldmatrix(b, w, in, act))
				return -1;
			break;
		case OP_VIDEO:
			do_video(b, w, in, act);
			break;
		case OP_TEX: case OP_TLD4:
			if (do_tex(b, w, in, act))
				return -1;
			break;
		case OP_SULD: case OP_SUST:
			if (do_surf(b, w, in, act))
				return -1;
			break;
		case OP_CPASYNC:
			if ((in->sub == CP_ARRIVE ? do_cp_arrive(b, w, in, act) :
			     in->sub == CP_BULK || in->sub == CP_BULK_S2G ?
			     do_cpbulk(b, w, in, act) :
			     do_cpasync(b, w, in, act)))
				return -1;
			break;
		default:
			ex_grid_fail(b, w, __builtin_ctz(act),
				     EX_ILLEGAL_INSTRUCTION, 0,
				     "line %u: an instruction the engine cannot run",
				     in->line);
			return -1;
		}
	}
}
