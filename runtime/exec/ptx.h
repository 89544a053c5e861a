/*
 * ptx.h - the engine's compact form of a PTX module, shared by the files of
 * runtime/exec/ and by nobody else: parse.c builds it, cfg.c adds each
 * branch's reconvergence point, warp.c and launch.c run it.
 *
 * Every instruction is decoded once, at load: its opcode, types and
 * modifiers as small enums and flags, and each operand as a register index
 * (into the warp's register file of 32-lane rows), an immediate already in
 * the bits of its type, a special register, a variable or a label resolved
 * to an index. Nothing is looked up by name while a kernel runs.
 *
 * Locking: the form is written only while ex_module_parse runs and read
 * only afterwards, by any number of launches at once (var_addr, written by
 * ex_module_bind_var, is read at each launch's start).
 */
#ifndef CUEMU_EXEC_PTX_H
#define CUEMU_EXEC_PTX_H

#include <stdint.h>
#include <stdbool.h>

#include "exec/exec.h"

/* Scalar types; the low bits of each name say its class. */
enum ptype {
	T_NONE = 0,
	T_B8, T_B16, T_B32, T_B64, T_B128,
	T_U8, T_U16, T_U32, T_U64,
	T_S8, T_S16, T_S32, T_S64,
	T_F16, T_F16X2, T_BF16, T_BF16X2, T_F32, T_F64,
	T_PRED,
	T_TF32,    /* a 32-bit float of 10 mantissa bits (cvt, wmma) */
};

static inline unsigned ptype_bits(enum ptype t)
{
	switch (t) {
	case T_B8: case T_U8: case T_S8: return 8;
	case T_B16: case T_U16: case T_S16: case T_F16: case T_BF16: return 16;
	case T_B32: case T_U32: case T_S32: case T_F32: case T_F16X2:
	case T_BF16X2: case T_TF32: return 32;
	case T_B64: case T_U64: case T_S64: case T_F64: return 64;
	case T_B128: return 128;
	case T_PRED: return 1;
	default: return 0;
	}
}
static inline bool ptype_signed(enum ptype t)
{
	return t == T_S8 || t == T_S16 || t == T_S32 || t == T_S64;
}
static inline bool ptype_float(enum ptype t)
{
	return t == T_F32 || t == T_F64;
}

enum opcode {
	OP_NOP = 0,
	OP_MOV, OP_ADD, OP_SUB, OP_MUL, OP_MAD, OP_MUL24, OP_MAD24, OP_SAD,
	OP_DIV, OP_REM, OP_ABS, OP_NEG, OP_MIN, OP_MAX, OP_FMA,
	OP_RCP, OP_SQRT, OP_RSQRT, OP_SIN, OP_COS, OP_LG2, OP_EX2, OP_TANH,
	OP_COPYSIGN, OP_TESTP,
	OP_AND, OP_OR, OP_XOR, OP_NOT, OP_CNOT, OP_SHL, OP_SHR,
	OP_BFE, OP_BFI, OP_BREV, OP_CLZ, OP_POPC, OP_PRMT, OP_SHF, OP_BFIND,
	OP_BMSK,
	OP_SETP, OP_SET, OP_SELP, OP_SLCT,
	OP_CVT, OP_CVTA,
	OP_LD, OP_ST, OP_ATOM, OP_RED, OP_PREFETCH,
	OP_BRA, OP_CALL, OP_RET, OP_EXIT, OP_FRET,
	OP_BAR, OP_BAR_ARRIVE, OP_BAR_RED, OP_BAR_WARP, OP_MEMBAR,
	OP_SHFL, OP_VOTE, OP_ACTIVEMASK, OP_REDUX, OP_MATCH,
	OP_TRAP, OP_NANOSLEEP, OP_VPRINTF, OP_ASSERTFAIL,
	OP_MALLOC, OP_FREE, /* the device heap's, through ex_memops */
	OP_SETCOND,      /* cudaGraphSetConditional, through ex_memops */
	OP_DEVRT,        /* the device runtime's entries (devrt.c; sub:
			  * enum devrt_fn) */
	OP_MBARRIER,
	OP_CPASYNC,      /* cp.async: global to shared, done at once */
	OP_TEX, OP_TLD4, /* texture fetches through an object's handle */
	OP_SULD, OP_SUST, /* surface loads and stores, .b forms */
	OP_VIDEO,        /* SIMD video: vadd2 ... vset4 (video.c) */
	OP_WMMA,         /* warp matrix load, store, multiply-add (wmma.c) */
	OP_MMA,          /* mma.sync: PTX's own fragment layouts (wmma.c) */
	OP_LDMATRIX,     /* ldmatrix: 8x8 b16 tiles from shared memory */
	OP_COUNT
};

/* State spaces, for ld/st/atom/cvta and variables. */
enum space {
	SP_GENERIC = 0, SP_GLOBAL, SP_SHARED, SP_LOCAL, SP_PARAM, SP_CONST,
	SP_REG,
};

/* Modifier flags (struct insn.flags). */
#define F_FTZ     (1u << 0)
#define F_SAT     (1u << 1)
#define F_APPROX  (1u << 2)
#define F_HI      (1u << 3)
#define F_LO      (1u << 4)
#define F_WIDE    (1u << 5)
#define F_TO      (1u << 6)   /* cvta.to */
#define F_NC      (1u << 7)
#define F_UNI     (1u << 8)
#define F_CC      (1u << 9)   /* add.cc and friends: write the carry */
#define F_CARRYIN (1u << 10)  /* addc, subc, madc */
#define F_CLAMP   (1u << 11)  /* shf.clamp */
#define F_RIGHT   (1u << 12)  /* shf.r */
#define F_SHIFTAMT (1u << 13) /* bfind.shiftamt */
#define F_INT_RND (1u << 14)  /* cvt .rni/.rzi/.rmi/.rpi */
#define F_FULL    (1u << 15)  /* div.full */
#define F_RELU    (1u << 16)
#define F_NOINC   (1u << 17)  /* ld/st of a .param that names a vector */
#define F_NAN     (1u << 18)  /* min/max.NaN: a NaN operand gives NaN */
#define F_HALF    (1u << 19)  /* computes in f16/bf16 (half.c), set at load */
#define F_NOCOMPLETE (1u << 20) /* mbarrier.arrive.noComplete */
#define F_PARITY  (1u << 21)  /* mbarrier.test_wait/try_wait.parity */
#define F_HINT    (1u << 22)  /* .L2::cache_hint: a last operand, the policy */
#define F_CPNOINC (1u << 23)  /* cp.async.mbarrier.arrive.noinc */
#define F_NOL1    (1u << 24)  /* ld .cg, .cv, .volatile, .relaxed, .acquire:
			       * served by the L2, never the SM's L1 */
#define F_LEVEL   (1u << 25)  /* tex.level: an explicit level of detail */
#define F_GRAD    (1u << 26)  /* tex.grad: gradients given */
#define F_VACC    (1u << 27)  /* SIMD video .add: accumulate onto c */
#define F_VD_S    (1u << 28)  /* SIMD video: signed lanes of d, */
#define F_VA_S    (1u << 29)  /* ... of a, */
#define F_VB_S    (1u << 30)  /* ... of b */

enum rnd { R_NONE = 0, R_RN, R_RZ, R_RM, R_RP,
	   R_RNA };  /* cvt to tf32: to nearest, ties away from zero */

/* setp/set comparison and combining operators; atomic and redux
 * operators; shfl and vote modes share one small field (sub). */
enum cmp {
	C_EQ = 1, C_NE, C_LT, C_LE, C_GT, C_GE,
	C_LO, C_LS, C_HI, C_HS,
	C_EQU, C_NEU, C_LTU, C_LEU, C_GTU, C_GEU, C_NUM, C_NAN,
};
enum boolop { B_NONE = 0, B_AND, B_OR, B_XOR };
enum aop {
	A_ADD = 1, A_MIN, A_MAX, A_INC, A_DEC, A_AND, A_OR, A_XOR, A_CAS,
	A_EXCH,
};
enum shflmode { SH_UP = 1, SH_DOWN, SH_BFLY, SH_IDX };
enum votemode { V_ALL = 1, V_ANY, V_UNI, V_BALLOT };
enum matchmode { M_ANY = 1, M_ALL };
enum testpmode { TP_FINITE = 1, TP_INFINITE, TP_NUMBER, TP_NOTANUMBER,
		 TP_NORMAL, TP_SUBNORMAL };
enum mbarmode { MB_INIT = 1, MB_ARRIVE, MB_ARRIVE_DROP, MB_TEST_WAIT,
	       MB_TRY_WAIT, MB_PENDING, MB_INVAL, MB_EXPECT_TX, MB_COMPLETE_TX,
	       MB_ARRIVE_TX };
/* cp.async's forms (sub): a copy, the arrive-on of an mbarrier when the
 * thread's earlier copies complete, a bulk copy from global to shared
 * memory that completes its bytes on an mbarrier, or one from shared
 * memory to global in a bulk group (CP_MBARRIER, CP_BULK0-2 and
 * CP_S2G0-1 only while parsing: the words read so far; CP_BULKGROUP, a
 * bulk group's commit or wait, becomes a nop once parsed). */
enum cpmode { CP_COPY = 1, CP_MBARRIER, CP_ARRIVE, CP_BULK0, CP_BULK1,
	      CP_BULK2, CP_BULK, CP_S2G0, CP_S2G1, CP_BULK_S2G,
	      CP_BULKGROUP };
enum prmtmode { PM_NONE = 0, PM_F4E, PM_B4E, PM_RC8, PM_ECL, PM_ECR,
		PM_RC16 };
/* tex, tld4, suld and sust: the geometry their coordinates name (sub),
 * as ex_tex_shape numbers it; suld's and sust's boundary mode and tld4's
 * component (boolop). */
enum texgeom { G_1D = 1, G_2D, G_3D, G_A1D, G_A2D, G_CUBE, G_ACUBE };
enum surfmode { SB_TRAP = 1, SB_CLAMP, SB_ZERO };
/* wmma's operations (sub), the matrix a load or store names and the
 * layouts (boolop: WM_A ... WM_D, WM_COL_A for the first layout given
 * (a load's or store's, mma's A), WM_COL_B for mma's B) and shapes (vec). */
enum wmop { WM_LOAD = 1, WM_STORE, WM_MMA };
#define WM_A 0
#define WM_B 1
#define WM_C 2
#define WM_D 3
#define WM_WHICH 3
#define WM_COL_A 4
#define WM_COL_B 8
#define WM_SEEN_LAYOUT 16   /* while parsing: a layout word was read */
enum wmshape { WS_M16N16K16 = 1, WS_M8N32K16, WS_M32N8K16, WS_M16N16K8,
	       WS_M8N8K4, WS_M16N8K16, WS_M16N8K8, WS_M16N8K32, WS_M16N8K4 };
#define LDM_TRANS 1         /* ldmatrix .trans (boolop) */
/* The SIMD video instructions' operations (sub; vec the lanes, 2 or 4;
 * vset's comparison in boolop, as enum cmp). */
enum videoop { VO_ADD = 1, VO_SUB, VO_AVRG, VO_ABSDIFF, VO_MIN, VO_MAX,
	       VO_SET };

/* Special registers. The .x/.y/.z forms are consecutive. */
enum sreg {
	S_TID_X = 1, S_TID_Y, S_TID_Z, S_NTID_X, S_NTID_Y, S_NTID_Z,
	S_CTAID_X, S_CTAID_Y, S_CTAID_Z, S_NCTAID_X, S_NCTAID_Y, S_NCTAID_Z,
	S_LANEID, S_WARPID, S_NWARPID, S_SMID, S_NSMID, S_GRIDID,
	S_LANEMASK_EQ, S_LANEMASK_LE, S_LANEMASK_LT, S_LANEMASK_GE,
	S_LANEMASK_GT, S_CLOCK, S_CLOCK64, S_GLOBALTIMER,
	S_GLOBALTIMER_LO, S_GLOBALTIMER_HI,
	S_DYN_SMEM, S_TOTAL_SMEM, S_AGGR_SMEM,
	S_RSMEM_BEGIN, S_RSMEM_END, S_RSMEM_CAP, S_RSMEM_0, S_RSMEM_1,
	S_ENVREG0,
	S_ENVREG31 = S_ENVREG0 + 31,
};

enum okind {
	K_NONE = 0,
	K_REG,     /* reg */
	K_IMM,     /* imm, in the bits of the operand's type */
	K_SREG,    /* sreg */
	K_VAR,     /* the address of variable var (+ imm) in its space */
	K_MEM,     /* [reg + var + imm]: reg and var may be absent (-1) */
	K_VEC,     /* {vec[0..n-1]}, register indices (-1: the sink _) */
	K_LABEL,   /* target: an instruction index */
	K_FUNC,    /* a function index */
	K_LIST,    /* the argument list of a call: vec[] are variables */
	K_TEX,     /* [handle, {coordinates}]: reg (or imm) the handle,
		    * vec[0..n-1] the coordinates' registers */
};

/* a vector's elements: ld/st's four, a warp matrix fragment's eight */
#define MAX_VEC 8

struct operand {
	uint8_t kind;
	uint8_t n;          /* K_VEC: elements; K_LIST: arguments */
	uint8_t neg;        /* !%p */
	uint8_t sreg;
	uint8_t fimm;       /* K_IMM as written: 0 integer, 1 0f, 2 0d, 3 decimal */
	uint8_t frame;      /* K_VAR, K_MEM: var is a recursive function's
			     * .local, at the warp's current frame (fbase) */
	int32_t reg;        /* register index, -1 none */
	int32_t var;        /* variable index, -1 none */
	int32_t target;     /* K_LABEL: instruction; K_FUNC: function */
	int64_t imm;
	int32_t vec[MAX_VEC];
	int32_t *list;      /* K_LIST: variable indices */
};

#define MAX_OPS 6

struct insn {
	uint16_t op;
	uint8_t type, type2;    /* the instruction's type; cvt's and set's source */
	uint8_t space;
	uint8_t rnd;
	uint8_t sub;            /* cmp, aop, shfl/vote/match/testp/prmt mode */
	uint8_t boolop;         /* setp's combining operator; tld4's
				 * component; suld's and sust's enum surfmode;
				 * vset's comparison */
	uint8_t vec;            /* ld/st .v2/.v4: 2 or 4, else 1; wmma: the
				 * shape (enum wmshape) */
	uint8_t nops;
	int8_t guard;           /* -1 none, else 0/1: the predicate's sense */
	uint8_t type3;          /* wmma.mma: the A and B matrices' type */
	int32_t guard_reg;
	int32_t dest2;          /* setp's and shfl's second destination, -1 */
	uint32_t flags;
	int32_t reconv;         /* bra: the immediate post-dominator, -1 exit */
	int32_t func;           /* the function the instruction is in */
	uint32_t line;
	struct operand o[MAX_OPS];
	uint64_t immv[MAX_OPS]; /* each operand's immediate, for lanes */
};

/* The compact form of an instruction (form.c assigns it at load, in
 * ex_module.form beside code, by the same index): the common cases the
 * loop runs at once, their operands already rows. A form is a case of
 * its instruction that needs nothing of struct insn: its type and
 * modifiers are folded into the form and its mask, each source is a
 * register's row or one of the module's constant rows (an immediate
 * broadcast once, at load). FM_SLOW leaves the instruction to the
 * general code, which reads struct insn. */
enum form {
	FM_SLOW = 0,
	FM_MOV,          /* mov, cvta to or from global: D = A & mask */
	FM_MOV_SREG,     /* mov of special register s[0] */
	FM_ZEXT32,       /* cvt.u64.u32 */
	FM_SEXT32,       /* cvt.s64.s32, cvt.u64.s32 */
	FM_ADD, FM_SUB, FM_AND, FM_OR, FM_XOR, FM_MUL_LO, FM_MAD_LO,
	FM_SHL, FM_SHR_U,
	FM_MUL_WIDE_U16, FM_MUL_WIDE_S16, FM_MUL_WIDE_U32, FM_MUL_WIDE_S32,
	FM_MAD_WIDE_U32, FM_MAD_WIDE_S32,
	FM_FADD, FM_FSUB, FM_FMUL, FM_FFMA,   /* f32, .rn, no .ftz/.sat */
	FM_SETP_S32,     /* setp of 32-bit signed integers, by cmp */
	FM_SETP_U,       /* setp of unsigned or bit integers, 32 or 64 */
	FM_SELP,
	FM_LD, FM_ST,    /* do_ld, do_st without the general switch */
	FM_BRA,
	FM_EXIT,         /* exit, and ret outside a device function */
	FM_COUNT
};

struct xinsn {
	uint8_t form;       /* enum form */
	int8_t guard;       /* insn.guard */
	uint8_t cmp;        /* FM_SETP_*: enum cmp */
	uint8_t bits;       /* the type's bits (shifts) */
	int32_t guard_reg;
	int32_t d;          /* the destination register, -1 the sink */
	int32_t s[3];       /* sources: >= 0 a register's row, < 0 the
			     * constant row ~s (ex_module.krow) */
	uint64_t mask;      /* the destination's bits */
};

/* What an instruction waits for and makes wait (chain.c assigns it at
 * load, in ex_module.dep beside code): the registers it reads (its guard,
 * sources and addresses), those it writes, the latency class of what it
 * writes (enum ex_lat), and how it orders memory and the code (DEP_*).
 * Past DEP_SRC or DEP_DST the rest are left out: a chain then runs
 * shorter, never a result otherwise. */
#define DEP_SRC 8
#define DEP_DST 5
#define DEP_LOAD  1u   /* reads memory a store before may have written */
#define DEP_STORE 2u   /* writes memory */
#define DEP_END   4u   /* ends its basic block (a branch, a barrier ...) */
struct xdep {
	int32_t src[DEP_SRC];
	int32_t dst[DEP_DST];
	uint8_t nsrc, ndst;
	uint8_t lat;
	uint8_t mem;
};

/* A variable in any space: module-scope .global/.const/.shared, a
 * function's .local or .shared, its params and a call's params. */
struct pvar {
	char *name;
	uint8_t space;
	uint8_t type;
	bool managed, external, is_extern_shared;
	bool weak;             /* .weak/.common: another definition may stand */
	int unit;              /* the text that declared it (ex_module_link) */
	bool kernel_param;     /* in the launch's parameter buffer */
	uint64_t size;
	uint32_t align;
	uint64_t offset;       /* shared: in the block's shared memory;
				* local: in the thread's local memory;
				* kernel param: in the parameter buffer;
				* other param: in the lane's param memory */
	uint8_t *init;
	int func;              /* the function that declares it, -1 module */
	int pub;               /* index among ex_module_var's, -1 none */
};

struct pfunc {
	char *name;
	bool entry, defined, is_extern;
	bool weak;             /* .weak: another text's definition may stand */
	bool discarded;        /* a weak definition another stood for */
	int unit;              /* the text that defined it (ex_module_link) */
	int builtin;           /* OP_VPRINTF, OP_ASSERTFAIL, OP_MALLOC,
				* OP_FREE, OP_SETCOND or OP_DEVRT for the
				* externs */
	int devrt;             /* OP_DEVRT: which entry (enum devrt_fn) */
	int kernel;            /* an entry's index among the kernels */
	bool addressed;        /* its address is taken (mov, an initializer):
				* an indirect call may reach it */
	bool heap;             /* it calls malloc or free */
	int32_t first, end;    /* instructions [first, end); end is OP_FRET */
	int nret, nparam;
	int32_t ret[4], param[32]; /* variable indices */
	uint32_t local_bytes;  /* this function's own depot and .local */
	bool recursive;        /* it can call itself (a circle of calls):
				* each activation has a frame of its own */
	uint32_t frame_bytes;  /* recursive: a frame's bytes of the stack,
				* its .local and FRAME_SAVE, 16-aligned */
	bool reaches_recursion; /* an entry: it reaches a recursive function */
	uint32_t line;
	int32_t reg_first, reg_end; /* the registers its body declares */
	int32_t reg_lo, reg_hi; /* an entry's: the rows it and its callees
				 * use lie in [reg_lo, reg_hi) */
	/* an entry's shared memory: the variables it and its callees name,
	 * laid out for it alone after the reserved region (offsets by
	 * variable index); where the dynamic window may begin */
	uint32_t *shoff;
	uint32_t shared_static;
	struct ex_kernel_info info;
	struct ex_param *params;
};

struct ex_module {
	int sm;
	unsigned version;      /* major*10+minor */
	struct insn *code;
	int ncode, capcode;
	struct pvar *vars;
	int nvars, capvars;
	struct pfunc *funcs;
	int nfuncs, capfuncs;
	int nregs;             /* register rows of a warp, over the module */
	uint8_t *regtype;      /* nregs */
	uint32_t shared_align; /* the dynamic extern shared's alignment */
	uint32_t local_bytes;  /* a thread's local memory over the module */
	uint32_t lane_param_bytes; /* a lane's param memory (calls) */
	int *kernels;          /* function indices of the entries */
	int nkernels;
	int *pubvars;          /* variable indices of ex_module_var's */
	struct ex_var_info *pubinfo;
	int npub;
	uint64_t *var_addr;    /* bound addresses, by variable index */
	bool uses_clock;
	bool uses_devrt;       /* a function calls the device runtime */
	struct xinsn *form;    /* ncode: each instruction's compact form */
	struct xdep *dep;      /* ncode: each instruction's dependences */
	uint64_t (*krow)[32];  /* the immediates the forms read, as rows */
	int nkrow;
	/* The functions' addresses: function f's is fntab + f * FUNC_STRIDE,
	 * bytes of the process that nothing else is at, so an address is
	 * one function of one module (ex_func_at). */
	uint8_t *fntab;
};

/* The device runtime's entry points (devrt.c), an OP_DEVRT's sub. */
enum devrt_fn {
	DEVRT_PARAM_BUFFER, DEVRT_LAUNCH, DEVRT_PARAM_BUFFER_V1,
	DEVRT_LAUNCH_V1, DEVRT_STREAM_CREATE,
	DEVRT_STREAM_DESTROY, DEVRT_STREAM_WAIT_EVENT, DEVRT_EVENT_CREATE,
	DEVRT_EVENT_RECORD, DEVRT_EVENT_DESTROY, DEVRT_MALLOC, DEVRT_FREE,
	DEVRT_MEMCPY, DEVRT_MEMSET, DEVRT_GET_LAST_ERROR,
	DEVRT_PEEK_LAST_ERROR, DEVRT_ERROR_STRING, DEVRT_ERROR_NAME,
	DEVRT_GET_DEVICE, DEVRT_DEVICE_ATTRIBUTE, DEVRT_RUNTIME_VERSION,
	DEVRT_COUNT
};
/* devrt.c: the entry called name, or -1; whether a call's parameters and
 * results (their bytes) are the entry's. */
int ex_devrt_find(const char *name);
bool ex_devrt_takes(int fn, const uint64_t *param, int nparam,
		    const uint64_t *ret, int nret);

#define FUNC_STRIDE 8   /* an H200's are 8 apart (probes/results/heap.txt) */
/* The function of m at address a that an indirect call may reach, or -1:
 * a defined device function, not an entry nor a builtin. */
int ex_func_at(const struct ex_module *m, uint64_t a);
/* The index of the kernel (.entry) at address a (a launch from the
 * device names it so), or -1. */
int ex_kernel_at(const struct ex_module *m, uint64_t a);

/* form.c: gives every instruction its compact form and the module its
 * constant rows; EX_OUT_OF_MEMORY where they cannot be allocated. */
enum ex_status ex_form_assign(struct ex_module *m);

/* chain.c: gives every instruction its dependence record;
 * EX_OUT_OF_MEMORY where they cannot be allocated. */
enum ex_status ex_chain_assign(struct ex_module *m);

/* cfg.c: fills each bra's reconv (the immediate post-dominator of its
 * basic block, within its function). */
enum ex_status ex_cfg_reconverge(struct ex_module *m, char *log,
				 size_t logsz);

/* Generic address windows: shared, local and kernel-param memory seen
 * through a generic address (cvta), far above any host pointer. */
/* A block's shared window as the GPU lays it out (sm_80 on; the values a
 * real H200 gave, probes/results/kapi.txt): the first SMEM_RESERVED bytes
 * are the hardware's reserved region, which cooperative groups use for
 * their multi-warp barriers and scratch (%reserved_smem_offset_1 is 0, the
 * region in use ends at SMEM_RESERVED_END, its capacity is the whole KiB);
 * the kernel's own .shared variables begin after it, the dynamic window
 * after them. A block is given its own bytes in whole SMEM_UNITs, as the
 * SM allocates them (%total_smem_size): an access past the bytes asked
 * for but inside the last unit runs, as on the device. %aggr_smem_size is
 * the bytes asked for, the reserved region included. */
/* A recursive call's frame holds the callee's .local bytes and what the
 * device saves for the call (its return address, the registers the callee
 * must keep): FRAME_SAVE bytes, from probes/results/stack.txt (a function
 * of 128 bytes of locals overflows the default 1 KiB in its 6th or 7th
 * frame, 4 KiB in its 18th to 25th and 64 KiB in its 258th to 513th: a
 * frame of 164 to 204 bytes). */
#define FRAME_SAVE 48u

#define SMEM_RESERVED 1024u
#define SMEM_RESERVED_END 288u
#define SMEM_UNIT 128u

#define WIN_SHARED 0xfe00000000000000ull
#define WIN_LOCAL  0xfd00000000000000ull
#define WIN_PARAM  0xfc00000000000000ull
/* A cooperative launch's grid-sync words, where %envreg1:%envreg2 point
 * (the convention cooperative_groups' grid.sync() reads). */
#define WIN_GRID   0xfb00000000000000ull
#define GRIDWS_BYTES 64
/* The device runtime's error names and texts (devrt.c), which
 * cudaGetErrorName and cudaGetErrorString in device code point into:
 * read-only. */
#define WIN_RTSTR  0xfa00000000000000ull
#define WIN_MASK   0xff00000000000000ull

#endif
