/*
 * chain.c - what each instruction waits for and makes others wait for
 * (struct xdep, ptx.h), given once at load: the registers it reads, those
 * it writes, the latency class of its result, and whether it loads,
 * stores or ends its basic block. warp.c's loop follows them to time each
 * warp's chain of dependent instructions, in cycles. A chain is what a
 * kernel of few warps waits for: PolyBench's CORR adds a product into
 * global memory four million times a thread, a load's latency each time
 * (probes/chains.cu), where its bytes and instructions take milliseconds.
 *
 * A warp issues as the device's compiled code does, which is PTX
 * scheduled by ptxas: within a basic block an instruction issues once its
 * sources are ready (a load's result is ready its latency after it
 * issued), loads ahead of the arithmetic that waits for them, but never
 * ahead of a store before them (a pointer may alias: the compiler keeps
 * their order) unless they read memory nothing writes (ld.param,
 * ld.const, ld.global.nc); a block ends when the last of its
 * instructions has issued, at one a cycle at most, and the next begins
 * then. So a loop of independent loads overlaps them as far as it was
 * unrolled, and a load, add and store of the same sum each step waits a
 * load's latency a step, as on an H200.
 *
 * The classes are the engine's: the launch gives each one's latency in
 * cycles (ex_launch.latency); what a class is here, and which loads are
 * which, is the model's simplification, said in DESIGN.md ("Chains").
 *
 * Locking: runs inside ex_module_parse, before anyone else sees the
 * module; the records are read only afterwards.
 */
#include "exec/ptx.h"

#include <stdlib.h>

/* Instructions whose first operand is not a register they write. */
static bool writes_first(int op)
{
	switch (op) {
	case OP_ST: case OP_RED: case OP_PREFETCH: case OP_BRA: case OP_CALL:
	case OP_RET: case OP_EXIT: case OP_FRET: case OP_BAR:
	case OP_BAR_ARRIVE: case OP_BAR_WARP: case OP_MEMBAR: case OP_TRAP:
	case OP_NANOSLEEP: case OP_ASSERTFAIL: case OP_NOP: case OP_CPASYNC:
	case OP_FREE: case OP_SUST: case OP_SETCOND:
		return false;
	default:
		return true;
	}
}

/* The latency class of what the instruction writes. */
static uint8_t lat_class(const struct insn *in)
{
	switch (in->op) {
	case OP_LD: case OP_ATOM:
		switch (in->space) {
		case SP_SHARED: case SP_LOCAL:
			return EX_LAT_SHARED;
		case SP_PARAM: case SP_CONST:
			return EX_LAT_ALU;
		default:
			return EX_LAT_GLOBAL;
		}
	case OP_SHFL: case OP_REDUX: case OP_MATCH: case OP_BAR_RED:
		return EX_LAT_SHARED;
	case OP_TEX: case OP_TLD4: case OP_SULD:
		return EX_LAT_GLOBAL;
	case OP_WMMA:
		/* a fragment's load from where it is; a multiply-add
		 * waits about as long as a shared load does */
		return in->sub == WM_LOAD && in->space != SP_SHARED ?
		       EX_LAT_GLOBAL : EX_LAT_SHARED;
	case OP_MMA: case OP_LDMATRIX:
		return EX_LAT_SHARED;
	default:
		return EX_LAT_ALU;
	}
}

static void add_src(struct xdep *d, int32_t reg)
{
	if (reg >= 0 && d->nsrc < DEP_SRC)
		d->src[d->nsrc++] = reg;
}

static void add_dst(struct xdep *d, int32_t reg)
{
	if (reg >= 0 && d->ndst < DEP_DST)
		d->dst[d->ndst++] = reg;
}

/* The registers operand o names, as sources or destinations. */
static void add_operand(struct xdep *d, const struct operand *o, bool dst)
{
	switch (o->kind) {
	case K_REG:
		dst ? add_dst(d, o->reg) : add_src(d, o->reg);
		break;
	case K_MEM:
		add_src(d, o->reg);
		break;
	case K_TEX:
		add_src(d, o->reg);
		for (int e = 0; e < o->n && e < MAX_VEC; e++)
			add_src(d, o->vec[e]);
		break;
	case K_VEC:
		for (int e = 0; e < o->n && e < MAX_VEC; e++)
			dst ? add_dst(d, o->vec[e]) : add_src(d, o->vec[e]);
		break;
	default:
		break;
	}
}

/* How the instruction orders memory and the code. */
static uint8_t mem_order(const struct insn *in)
{
	switch (in->op) {
	case OP_LD:
		return in->space == SP_PARAM || in->space == SP_CONST ||
		       (in->flags & F_NC) ? 0 : DEP_LOAD;
	case OP_SULD:
		return DEP_LOAD;
	case OP_ST: case OP_RED: case OP_SUST:
		return DEP_STORE;
	case OP_ATOM: case OP_CPASYNC:
		return DEP_LOAD | DEP_STORE;
	case OP_WMMA:
		return in->sub == WM_LOAD ? DEP_LOAD :
		       in->sub == WM_STORE ? DEP_STORE : 0;
	case OP_LDMATRIX:
		return DEP_LOAD;
	case OP_BRA: case OP_CALL: case OP_RET: case OP_EXIT: case OP_FRET:
	case OP_BAR: case OP_BAR_ARRIVE: case OP_BAR_RED: case OP_BAR_WARP:
		return DEP_END;
	default:
		return 0;
	}
}

static void assign(const struct insn *in, struct xdep *d)
{
	/* wmma.store's first operand is its address */
	bool w = writes_first(in->op) &&
		 !(in->op == OP_WMMA && in->sub == WM_STORE);

	if (in->guard >= 0)
		add_src(d, in->guard_reg);
	for (int i = 0; i < in->nops; i++)
		add_operand(d, &in->o[i], w && i == 0);
	add_dst(d, in->dest2);
	d->lat = lat_class(in);
	d->mem = mem_order(in);
}

enum ex_status ex_chain_assign(struct ex_module *m)
{
	m->dep = calloc(m->ncode ? (size_t)m->ncode : 1, sizeof *m->dep);
	if (!m->dep)
		return EX_OUT_OF_MEMORY;
	for (int i = 0; i < m->ncode; i++)
		assign(&m->code[i], &m->dep[i]);
	return EX_OK;
}
