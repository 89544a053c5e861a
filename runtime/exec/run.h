/*
 * run.h - what the two halves of a running launch share: launch.c (the
 * grid, its blocks over host threads, barriers) and warp.c (one warp's
 * instructions, its SIMT stack, its translation cache). Nobody else
 * includes it.
 *
 * Locking: a struct blk and its warps belong to the one host thread that
 * runs the block; struct grid is shared by the launch's threads: its
 * stop flag and next block are atomics, its error is under its lock.
 */
#ifndef CUEMU_EXEC_RUN_H
#define CUEMU_EXEC_RUN_H

#include <pthread.h>

#include "exec/ptx.h"

#define WARP 32
#define FULL 0xffffffffu
#define TLB_SIZE 256
/* A warp's SIMT stack: its first size, and how far it may grow (each
 * recursive call takes an entry). */
#define SIMT_DEPTH 256
#define SIMT_MAX (1 << 16)
/* How deep calls may nest (recursion is bounded by the stack first). */
#define CALL_DEPTH (1 << 16)
#define NBAR 16
/* A lane's param memory is addressed from here in the param space;
 * below it lies the kernel's parameter buffer. */
#define LPARAM_BASE 0x40000000u

struct tlb {
	uint64_t tag;      /* page number + 1; 0 empty */
	uint8_t granted;   /* EX_READ/EX_WRITE bits the model granted */
	int8_t place;
};

/* A host thread's translation cache behind its warps', of the answers
 * the model says hold for every warp (ex_memops.page): two ways a set,
 * its entries valid for the launch and generation they were filled in,
 * so nothing is cleared between launches. 4,096 pages: a column walk of
 * a 2048-square float matrix. Both caches place a page by a hash of its
 * number (tlb_slot), not its low bits: arrays of a power of two of pages
 * lie that far apart, and a kernel reading a row of each at once (a[r],
 * b[r]) would have their pages evict each other at every step. */
#define STLB_SIZE 4096
#define STLB_WAYS 2
struct stlb {
	uint64_t tag;      /* page number + 1; 0 empty */
	uint64_t epoch;    /* the launch's (struct grid) */
	uint64_t gen;      /* the model's generation when filled */
	uint8_t granted;
	int8_t place;
};

struct simt {
	int32_t pc, rpc;   /* rpc: where this entry's lanes reconverge, -1 */
	uint32_t mask;
};

struct frame {
	int32_t ret_pc;
	int32_t call;      /* the OP_CALL instruction */
	int32_t callee;    /* the function called (an indirect call's
			    * found by its address) */
	uint32_t fbase;    /* the caller's frame, to return to */
	int64_t save;      /* a recursive callee's: where the registers and
			    * params it overwrites are kept (warp.save), -1 */
};

enum wstate { W_RUN, W_BAR, W_DONE };
/* What ex_warp_run returns besides its state: its time slice is spent
 * (so that a warp spinning on another's progress lets it run), or its
 * mbarrier.try_wait found the phase incomplete (the device suspends it). */
#define W_YIELD 3
/* Branches a warp takes before it yields to its block's others; fewer
 * where the block has an L1, so that its warps go through their loops
 * side by side as an SM's do and find the lines the others brought in
 * (a naive matrix product's warps share each row of b they read). */
#define SLICE 256
#define SLICE_L1 4
/* The ways of a set of a block's L1: lines a power of two apart do not
 * conflict in an H200's L1 (probes/results/l1.txt), so its sets are
 * placed by a hash; eight ways, least recently used replaced, lose a
 * ring of lines a little longer than the L1 as the H200's does. */
#define L1_WAYS 8
/* The ways of a set of a GPU's L2 (l2.c): eight 32-bit fingerprints,
 * half a host cache line. */
#define L2_WAYS 8

struct warp {
	uint64_t (*r)[WARP];      /* the register file: r[reg][lane], for
				   * the kernel's rows [reg_lo, reg_hi) */
	uint64_t *ready;          /* the cycle each row's value is ready,
				   * the same rows; NULL: chains untimed */
	uint64_t cyc;             /* the cycle its basic block began */
	uint64_t end;             /* ... the last of its instructions so far
				   * issued, at one a cycle at most */
	uint64_t st;              /* the cycle its last store issued */
	uint64_t issued;          /* the cycle its last instruction issued */
	uint64_t lsu;             /* the cycle its SM's memory pipeline is
				   * through with its accesses so far */
	uint64_t st_line;         /* its last global store's first line + 1
				   * (0 none), ... */
	uint32_t st_lines;        /* ... and its lines (chains timed) */
	uint32_t count;           /* the block's instructions issued */
	uint32_t id;              /* warp index in the block */
	uint32_t valid;           /* lanes that are threads of the block */
	uint32_t exited;
	enum wstate state;
	int bar;                  /* the barrier waited at */
	uint32_t bar_count;       /* its thread count, 0: every thread */
	int bar_red;              /* bar.red: the instruction, -1 none */
	uint32_t bar_mask;        /* the lanes that arrived */
	int sp, capstack, ncalls, capcalls;
	struct simt *stack;       /* capstack entries, grown as needed */
	struct frame *calls;      /* capcalls, grown as calls nest */
	uint32_t fbase, ssp;      /* the current recursive frame and the
				   * stack's top, bytes past the static
				   * locals of each lane */
	uint8_t *save;            /* recursive calls' saved rows, a stack */
	size_t nsave, capsave;
	uint64_t tid[3][WARP], lane[WARP];
	uint8_t *local;           /* local_bytes per lane */
	uint8_t *lparam;          /* lane_param_bytes per lane */
	uint8_t carry[WARP];       /* CC.CF of add.cc and friends */
	uint64_t gen;
	uint64_t clock;
	uint32_t ran;              /* branches taken in this slice */
	uint32_t launched[WARP];   /* each lane's launches from the device
				    * so far (devrt: the next one's place
				    * among its thread's calls) */
	struct tlb tlb[TLB_SIZE];
};

struct grid;

struct blk {
	struct grid *g;
	const struct ex_launch *l;
	const struct ex_module *m;
	const struct pfunc *k;
	uint32_t ctaid[3];
	uint64_t linear;          /* the block's linear index */
	uint8_t *shared;
	uint32_t shared_bytes;
	struct warp *warps;
	int nwarps;
	uint64_t (*regs)[WARP];   /* the warps' register rows, one slab */
	uint32_t local_bytes, lparam_bytes;
	uint64_t scalar[S_ENVREG31 + 1]; /* uniform special registers */
	uint32_t arrived[NBAR];   /* bar.arrive's warps, until the barrier opens */
	uint32_t slice;           /* SLICE in a cooperative launch, 0 none */
	struct stlb *stlb;        /* the host thread's, STLB_SIZE; NULL none */
	const uint32_t *lat;      /* the launch's latencies; NULL: untimed */
	uint32_t sm_warps;        /* ex_launch.sm_warps, at least 1 */
	uint64_t *l1;             /* its L1's lines (each line's number + 1,
				   * 0 empty), in sets of L1_WAYS placed by
				   * a hash (l1_holds); NULL: no L1 */
	uint32_t l1_sets;         /* ... so many sets */
	uint64_t scratch[MAX_OPS][WARP];
	uint64_t sink[WARP];
	/* the texture and surface objects this thread's blocks of the
	 * launch named, as ex_memops.texture answered: asked once a launch
	 * (an object outlives the kernels that read it), not at each fetch */
	struct texheld {
		uint64_t h;
		bool surface;
		struct ex_tex t;
	} tex[4];
	int ntex;
	/* what this host thread counted, merged into the result at the end */
	uint64_t warp_insns, lane_insns, atomics;
	uint64_t chain_max, chain_sum;
	uint64_t bytes_read[EX_MAX_PLACES], bytes_written[EX_MAX_PLACES];
	uint64_t sectors_read[EX_MAX_PLACES], sectors_written[EX_MAX_PLACES];
	uint64_t atoms[EX_MAX_PLACES], read_requests[EX_MAX_PLACES];
	uint64_t l1_sectors[EX_MAX_PLACES], merged_sectors[EX_MAX_PLACES];
	/* the sectors counted so far, any place, and the place of the last:
	 * what an access moved is the difference across it (sectors_apart) */
	uint64_t sectors_moved;
	int last_place;
};

/* What they answer (cudaError_t's numbers: the engine includes no CUDA
 * header). */
#define DEVRT_SUCCESS 0
#define DEVRT_INVALID_VALUE 1
#define DEVRT_MEMORY_ALLOCATION 2
#define DEVRT_INVALID_CONFIGURATION 9
#define DEVRT_MAX_DEPTH_EXCEEDED 65
#define DEVRT_PENDING_COUNT_EXCEEDED 69
#define DEVRT_INVALID_DEVICE_FUNCTION 98
#define DEVRT_NOT_SUPPORTED 801
/* Launches and copies a grid's threads may have queued and not yet run.
 * The H200 took 3,000 launches from one thread without a refusal
 * (probes/results/cdp.txt: its children run while the parent goes on
 * launching, where here they wait for its end); the bound only keeps the
 * queue's memory finite. */
#define DEVRT_PENDING_MAX (1u << 20)
/* How deep launches from the device may nest (the host's grid is depth
 * 0). The H200 ran a chain 30 deep without a refusal (cdp.txt); each
 * level here is a frame of the launching thread's stack, so a chain
 * deeper than this is refused (cudaErrorLaunchMaxDepthExceeded). */
#define DEVRT_DEPTH_MAX 256
/* The stream handles device code names by value (driver_types.h). */
#define DEVRT_STREAM_TAIL 3
#define DEVRT_STREAM_FIRE_AND_FORGET 4
/* ... and those it makes (cudaStreamCreateWithFlags, events too) start
 * here */
#define DEVRT_STREAM_MADE 0x100
/* A parameter buffer's header, before the bytes the kernel is given
 * (devrt.c): what GetParameterBufferV2 was asked for, kept in the heap
 * block beside them and checked again at the launch, as the thread may
 * have written over it. */
#define DEVRT_HEADER 64
#define DEVRT_MAGIC 0x32504443u   /* "CDP2" */

enum devop_kind { DEVOP_LAUNCH, DEVOP_COPY, DEVOP_SET };
/* One piece of work a thread queued: a launch of kernel (its
 * configuration and parameter bytes after the struct), or an
 * asynchronous copy or memset of device memory. */
struct devop {
	struct devop *next;
	enum devop_kind kind;
	bool tail;                /* into cudaStreamTailLaunch: after the rest */
	bool alone;               /* fire-and-forget: a stream of its own */
	uint64_t stream;          /* a stream the device made, or 0: the
				   * launching block's own */
	uint64_t from_block;      /* the launching thread's block (linear) */
	uint32_t from_thread;     /* ... and its index in it */
	uint32_t nth;             /* its place among that thread's launches */
	int kernel;
	uint32_t grid[3], block[3], shared_bytes;
	uint64_t dst, src, bytes;
	uint8_t value;
	uint8_t params[];
};

struct grid {
	const struct ex_launch *l;
	const struct ex_module *m;
	const struct pfunc *k;
	const uint64_t *varaddr;  /* each variable's address in its space */
	uint64_t nblocks;
	uint64_t next;            /* atomic: the next block to start */
	uint8_t *gridws;          /* a cooperative launch's grid-sync words */
	int nthreads;
	uint32_t shared_aggr;     /* the window's bytes asked for (ptx.h) */
	int (*run)(struct blk *, struct warp *); /* ex_warp_run or its AVX2 build */
	int stop;                 /* atomic: an error stops the launch */
	uint64_t epoch;           /* the launch's, unique in the process */
	pthread_mutex_t lock;     /* result and the queue below */
	struct ex_result *r;
	/* what its threads queued (devrt.c): launches, copies and memsets
	 * in order, then tail launches */
	struct devop *ops, **ops_end, *tails, **tails_end;
	uint32_t npending;
	int last_error;           /* atomic: the device runtime's last
				   * error of the grid's threads */
	uint64_t streams;         /* atomic: device streams and events made */
};

/* devrt.c: */
/* An error's name or text as cudaGetErrorName/String answer it: its
 * address in the WIN_RTSTR window. */
uint64_t ex_devrt_error(int err, bool name);
/* The window's bytes (strings back to back, each with its NUL). */
const char *ex_devrt_strings(size_t *len);
/* Queues op on g (DEVRT_SUCCESS), or refuses it: the grid holds
 * DEVRT_PENDING_MAX already. */
int ex_devq_push(struct grid *g, struct devop *op);
/* What g queued, in the order to run it; the queue emptied. */
struct devop *ex_devq_take(struct grid *g);
void ex_devq_free(struct devop *op);
/* What making the launches among ops takes, ns, as ex_launch.devlaunch
 * prices them (their start and run are launch.c's). */
uint64_t ex_devq_cost(const struct devop *ops, const struct ex_devlaunch *c);
/* A queued copy or memset done, through l's memops, tallied in r;
 * EX_ILLEGAL_ADDRESS (r says where) where memory no allocation holds. */
enum ex_status ex_devop_memory(const struct ex_launch *l,
			       const struct devop *op, struct ex_result *r);

/* Runs warp w of block b until it waits at a barrier (W_BAR), ends
 * (W_DONE), yields (W_YIELD) or fails (-1, the error recorded in the
 * grid). */
int ex_warp_run(struct blk *b, struct warp *w);
/* The same, compiled for AVX2 and FMA (warp_avx2.c); launch.c calls it
 * where the host has both. */
int ex_warp_run_avx2(struct blk *b, struct warp *w);
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define EX_HAVE_AVX2 1
#endif

/* A launch's helpers from the process's pool of launch threads (pool.c):
 * fn(arg, i) runs once for each i in [1, given] on a thread of its own. */
struct ex_crew {
	void (*fn)(void *arg, int index);
	void *arg;
	int given;                /* helpers hired */
	int left;                 /* helpers still in fn; the pool's lock */
	pthread_cond_t done;      /* left reached 0 */
};

/* Hires up to want idle threads of the pool (starting new ones while it
 * has fewer than the most a launch may ask for) and sets each running
 * fn(arg, i); answers how many, 0 when none could be had. */
int ex_pool_hire(struct ex_crew *c, int want, void (*fn)(void *, int),
		 void *arg);
/* Returns once every helper hire gave c has returned from fn. */
void ex_pool_wait(struct ex_crew *c);
/* On a pool thread: mem is the thread's block memory, for as long as the
 * thread lives; kept where the pool's state is, so that it stays
 * reachable also in a child of fork, which has not the thread. */
void ex_pool_keep(void *mem);
/* The threads the pool has made, and (idle) how many wait for work. */
int ex_pool_threads(int *idle);

/* Records the first error of a launch, where it happened; stops it. */
void ex_grid_fail(struct blk *b, struct warp *w, int lane,
		  enum ex_status st, uint64_t addr, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

#endif
