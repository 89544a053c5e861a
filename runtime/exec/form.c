/*
 * form.c - each instruction's compact form (struct xinsn, ptx.h), given
 * once at load: the common cases of the common instructions get a form of
 * their own, with their type and modifiers folded into it and their
 * sources resolved to rows, so that warp.c's loop runs them by one switch
 * over a dense enum, reading one small record, with no look at the type,
 * the flags or the kind of an operand. Everything else is FM_SLOW: the
 * general code, which reads struct insn, runs it.
 *
 * An immediate source becomes one of the module's constant rows (its value
 * in all 32 lanes, made once here and shared by every warp), so a form
 * never broadcasts a value while it runs. Rows are shared between equal
 * values; past MAX_KROWS of them an instruction stays FM_SLOW, which costs
 * speed, never a result.
 *
 * Locking: runs inside ex_module_parse, before anyone else sees the
 * module; the forms and rows are read only afterwards.
 */
#include "exec/ptx.h"

#include <stdlib.h>

/* Bounds the constant rows at 1 MiB a module; the index of values to
 * rows is open-addressed at twice that many slots. */
#define MAX_KROWS 4096
#define KSLOTS (2 * MAX_KROWS)

struct kpool {
	struct ex_module *m;
	int cap;
	int full;            /* an allocation failed */
	int slot[KSLOTS];    /* row + 1 by the value's hash; 0 empty */
};

/* The constant row holding v, made where none does yet; -1 none. */
static int krow_of(struct kpool *k, uint64_t v)
{
	struct ex_module *m = k->m;
	uint32_t h = (uint32_t)((v * 0x9e3779b97f4a7c15ull) >> 51) % KSLOTS;

	for (; k->slot[h]; h = (h + 1) % KSLOTS)
		if (m->krow[k->slot[h] - 1][0] == v)
			return k->slot[h] - 1;
	if (m->nkrow >= MAX_KROWS)
		return -1;
	if (m->nkrow == k->cap) {
		int cap = k->cap ? 2 * k->cap : 16;
		uint64_t (*r)[32] = realloc(m->krow, (size_t)cap * sizeof *r);
		if (!r) {
			k->full = 1;
			return -1;
		}
		m->krow = r;
		k->cap = cap;
	}
	for (int l = 0; l < 32; l++)
		m->krow[m->nkrow][l] = v;
	k->slot[h] = m->nkrow + 1;
	return m->nkrow++;
}

/* Source i of in as a form's source (a register's row or ~constant
 * row); false where it is neither (a special register, a variable's
 * address, a negated predicate, a vector). */
static bool source(struct kpool *k, const struct insn *in, int i,
		   int32_t *out)
{
	const struct operand *o = &in->o[i];
	int r;

	if (i >= in->nops)
		return false;
	if (o->kind == K_REG && o->reg >= 0 && !o->neg) {
		*out = o->reg;
		return true;
	}
	if (o->kind != K_IMM || (r = krow_of(k, in->immv[i])) < 0)
		return false;
	*out = ~r;
	return true;
}

static uint64_t mask_of(unsigned bits)
{
	return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* The form of an integer operation, as the general code computes it for
 * the cases named (ptx.h); FM_SLOW for the rest. */
static int int_form(const struct insn *in, unsigned bits)
{
	bool s = ptype_signed(in->type), wide = in->flags & F_WIDE;

	if (in->flags & ~(F_LO | F_WIDE))
		return FM_SLOW;
	switch (in->op) {
	case OP_ADD: return FM_ADD;
	case OP_SUB: return FM_SUB;
	case OP_AND: return FM_AND;
	case OP_OR: return FM_OR;
	case OP_XOR: return FM_XOR;
	case OP_SHL: return FM_SHL;
	case OP_SHR: return s ? FM_SLOW : FM_SHR_U;
	case OP_MUL:
		if (!wide)
			return FM_MUL_LO;
		if (bits == 16)
			return s ? FM_MUL_WIDE_S16 : FM_MUL_WIDE_U16;
		if (bits == 32)
			return s ? FM_MUL_WIDE_S32 : FM_MUL_WIDE_U32;
		return FM_SLOW;
	case OP_MAD:
		if (!wide)
			return FM_MAD_LO;
		if (bits == 32)
			return s ? FM_MAD_WIDE_S32 : FM_MAD_WIDE_U32;
		return FM_SLOW;
	default:
		return FM_SLOW;
	}
}

static int f32_form(const struct insn *in)
{
	if ((in->flags & (F_FTZ | F_SAT)) || (in->rnd && in->rnd != R_RN))
		return FM_SLOW;
	switch (in->op) {
	case OP_ADD: return FM_FADD;
	case OP_SUB: return FM_FSUB;
	case OP_MUL: return FM_FMUL;
	case OP_FMA: case OP_MAD: return FM_FFMA;
	default: return FM_SLOW;
	}
}

/* setp of integers without a combining predicate; the comparison made
 * one of EQ, NE, LT, LE, GT, GE. */
static int setp_form(const struct insn *in, unsigned bits, uint8_t *cmp)
{
	static const uint8_t canon[] = {
		[C_EQ] = C_EQ, [C_NE] = C_NE, [C_LT] = C_LT, [C_LE] = C_LE,
		[C_GT] = C_GT, [C_GE] = C_GE, [C_LO] = C_LT, [C_LS] = C_LE,
		[C_HI] = C_GT, [C_HS] = C_GE,
	};
	bool s = ptype_signed(in->type);

	if (in->boolop || in->dest2 >= 0 || ptype_float(in->type) ||
	    in->type == T_PRED || bits < 32 || in->sub > C_HS)
		return FM_SLOW;
	if (s && (bits != 32 || in->sub > C_GE))
		return FM_SLOW;
	*cmp = canon[in->sub];
	return s ? FM_SETP_S32 : FM_SETP_U;
}

/* What an instruction with a register destination computes in a form,
 * and how many sources it reads. */
static int value_form(const struct insn *in, int *nsrc, uint64_t *mask,
		      uint8_t *cmp)
{
	unsigned bits = ptype_bits(in->type);

	*nsrc = 2;
	*mask = mask_of(bits);
	switch (in->op) {
	case OP_MOV:
		*nsrc = 1;
		*mask = mask_of(in->type == T_PRED ? 1 : bits);
		if (in->o[1].kind == K_SREG) {
			*nsrc = 0;
			return FM_MOV_SREG;
		}
		return in->o[1].kind == K_VEC ? FM_SLOW : FM_MOV;
	case OP_CVTA:
		*nsrc = 1;
		*mask = ~0ull;
		return in->space == SP_GLOBAL || in->space == SP_CONST ||
		       in->space == SP_GENERIC ? FM_MOV : FM_SLOW;
	case OP_CVT:
		*nsrc = 1;
		if (in->flags || in->rnd)
			return FM_SLOW;
		if (in->type == T_U64 && (in->type2 == T_U32 || in->type2 == T_B32))
			return FM_ZEXT32;
		if ((in->type == T_S64 || in->type == T_U64) && in->type2 == T_S32)
			return FM_SEXT32;
		return FM_SLOW;
	case OP_SETP:
		*mask = mask_of(bits);
		return setp_form(in, bits, cmp);
	case OP_SELP:
		*nsrc = 3;
		return FM_SELP;
	case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD: case OP_FMA:
	case OP_AND: case OP_OR: case OP_XOR: case OP_SHL: case OP_SHR:
		*nsrc = in->op == OP_MAD || in->op == OP_FMA ? 3 : 2;
		if (in->type == T_F32)
			return f32_form(in);
		if (ptype_float(in->type) || in->type == T_PRED)
			return FM_SLOW;
		return int_form(in, bits);
	default:
		return FM_SLOW;
	}
}

static void assign(struct kpool *k, const struct insn *in, struct xinsn *x)
{
	int f, nsrc = 0;
	uint8_t cmp = 0;
	uint64_t mask = 0;

	*x = (struct xinsn){ .form = FM_SLOW, .guard = in->guard,
			     .guard_reg = in->guard_reg, .d = -1,
			     .bits = (uint8_t)ptype_bits(in->type) };
	if (in->flags & F_HALF)
		return;                 /* half.c's, through the general code */
	switch (in->op) {
	case OP_LD: x->form = FM_LD; return;
	case OP_ST: x->form = FM_ST; return;
	case OP_BRA: x->form = FM_BRA; return;
	case OP_EXIT: case OP_RET: x->form = FM_EXIT; return;
	default: break;
	}
	if (in->nops < 1 || in->o[0].kind != K_REG)
		return;
	f = value_form(in, &nsrc, &mask, &cmp);
	if (f == FM_SLOW)
		return;
	for (int i = 0; i < nsrc; i++)
		if (!source(k, in, i + 1, &x->s[i]))
			return;
	x->form = (uint8_t)f;
	if (f == FM_MOV_SREG)
		x->s[0] = in->o[1].sreg;
	x->d = in->o[0].reg;
	x->mask = mask;
	x->cmp = cmp;
}

enum ex_status ex_form_assign(struct ex_module *m)
{
	struct kpool *k = calloc(1, sizeof *k);
	enum ex_status st;

	m->form = calloc(m->ncode ? (size_t)m->ncode : 1, sizeof *m->form);
	if (!m->form || !k) {
		free(k);
		return EX_OUT_OF_MEMORY;
	}
	k->m = m;
	for (int i = 0; i < m->ncode; i++)
		assign(k, &m->code[i], &m->form[i]);
	st = k->full ? EX_OUT_OF_MEMORY : EX_OK;
	free(k);
	return st;
}
