/*
 * exec.h - the PTX engine's interface: the one header through which the
 * rest of libcuemu reaches runtime/exec/.
 *
 * The engine parses PTX text once into a compact form (a module of
 * kernels, device functions and variables) and runs a kernel's grid on the
 * host's CPUs, warps of 32 lanes in lockstep. It knows nothing of the
 * memory model, streams or CUDA handles: what it needs of the machine it
 * asks through struct ex_memops (may this GPU make this access to this
 * page, and where do its bytes go), and what it did it reports in struct
 * ex_result. Dependencies point one way: runtime/driver/ calls this
 * header; nothing in runtime/exec/ includes a header of runtime/model/,
 * runtime/driver/ or cuda.h.
 *
 * Addresses are the process's own: a generic or global address that
 * ex_memops.page accepted is dereferenced as a host pointer. Shared,
 * local and param memory are the engine's own.
 *
 * Locking: a parsed module is immutable once ex_module_parse returns (its
 * variables' addresses are bound before its first launch); any number of
 * launches may run it at once. One ex_launch_run call owns its launch.
 */
#ifndef CUEMU_EXEC_H
#define CUEMU_EXEC_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

/* What a parse or a launch answers. The driver maps each to its CUresult
 * (EX_INVALID_PTX to CUDA_ERROR_INVALID_PTX, and so on). */
enum ex_status {
	EX_OK = 0,
	EX_INVALID_PTX,          /* text that is not PTX, or wrong PTX */
	EX_UNSUPPORTED_PTX,      /* .version newer than the engine reads */
	EX_NO_BINARY_FOR_GPU,    /* .target above the device's compute capability */
	EX_UNSUPPORTED,          /* valid PTX the engine cannot run (named in the log) */
	EX_OUT_OF_MEMORY,
	EX_ILLEGAL_ADDRESS,      /* a load or store no allocation holds */
	EX_MISALIGNED_ADDRESS,
	EX_ILLEGAL_INSTRUCTION,
	EX_ASSERT,               /* __assertfail */
	EX_TRAP,                 /* trap, brkpt */
	EX_INVALID_PC,           /* an indirect call to no function */
	EX_LAUNCH_FAILED,        /* anything else that stops a running kernel */
};

struct ex_module;

/* Parses PTX text (len bytes, NUL not required). On failure *log gets one
 * line per problem, "line N: what" (truncated to logsz, always NUL
 * terminated when logsz > 0). sm is the device's compute capability as
 * major*10+minor (90 for sm_90), checked against .target. */
enum ex_status ex_module_parse(const char *ptx, size_t len, int sm,
			       struct ex_module **out, char *log, size_t logsz);
void ex_module_free(struct ex_module *m);

/* Several PTX texts as one module, as the driver's linker joins them
 * (cuLinkComplete): each text has its .version and .target, and its own
 * scope for the names it declares without .visible, .weak or .extern; a
 * function or variable declared .extern in one is the .visible one of
 * that name in another (declared before or after it); of .weak
 * definitions of one name the first stands; two other definitions of one
 * name are EX_INVALID_PTX ("defined twice"), and a call of a function no
 * text defines too ("unresolved extern function"). A refusal's log line
 * names the text (with EX_LINK_NAMED) before its line; one calling a
 * function no text defines says "undefined reference to 'f' in 'text'".
 * One text unlinked is ex_module_parse. */
struct ex_text {
	const char *ptx;
	size_t len;
	const char *name;   /* for the log; NULL: "(unnamed)" */
};
/* flags: EX_LINK_NAMED, the log names the text; EX_LINK_PARTIAL, one
 * object checked before the link (cuLinkAddData): its calls of functions
 * no text defines are let be, and no module is made (*out stays NULL) */
#define EX_LINK_NAMED 1u
#define EX_LINK_PARTIAL 2u
enum ex_status ex_module_link(const struct ex_text *texts, int n,
			      unsigned flags, int sm, struct ex_module **out,
			      char *log, size_t logsz);

/* A kernel's parameter, in declaration order. */
struct ex_param {
	uint32_t offset;   /* in the parameter buffer, aligned as declared */
	uint32_t size;
	uint32_t align;
};

/* An entry (.entry) and what cuFuncGetAttribute answers of it. */
struct ex_kernel_info {
	const char *name;              /* the mangled PTX name */
	uint32_t nparams;
	const struct ex_param *params;
	uint32_t param_bytes;          /* the whole buffer, last param's end */
	uint32_t shared_static_bytes;  /* .shared variables it can reach */
	uint32_t local_bytes;          /* .local depot per thread */
	uint32_t registers;            /* an estimate: PTX registers used, capped at 255 */
	uint32_t maxntid[3];           /* .maxntid, 0 where not given */
	uint32_t reqntid[3];           /* .reqntid, 0 where not given */
	uint32_t minnctapersm;         /* .minnctapersm, 0 where not given */
	uint32_t max_cluster_rank;     /* .maxclusterrank, 0 where not given */
	bool uses_grid_sync;           /* reads %envreg for a cooperative launch */
	bool uses_heap;                /* calls malloc or free (the device heap) */
};

int ex_module_kernel_count(const struct ex_module *m);
/* Whether any of its functions calls the device runtime (dynamic
 * parallelism): loading such a module costs the device more. */
bool ex_module_uses_device_runtime(const struct ex_module *m);
const struct ex_kernel_info *ex_module_kernel(const struct ex_module *m, int i);
/* The index of the entry named name, or -1. */
int ex_module_find_kernel(const struct ex_module *m, const char *name);

/* A module-scope variable that lives in device memory: .global and .const
 * (.shared ones are the engine's, per block). The loader allocates it
 * (managed where .attribute(.managed)), copies init (size bytes, zeros
 * where init is NULL) and binds its address before the first launch. */
enum ex_var_space { EX_VAR_GLOBAL, EX_VAR_CONST };
struct ex_var_info {
	const char *name;
	enum ex_var_space space;
	bool managed;
	bool external;             /* .extern: defined in another module */
	uint64_t size;
	uint32_t align;
	const uint8_t *init;       /* NULL: zeros */
};

int ex_module_var_count(const struct ex_module *m);
const struct ex_var_info *ex_module_var(const struct ex_module *m, int i);
int ex_module_find_var(const struct ex_module *m, const char *name);
/* Binds variable i to its device address; every launch after sees it. */
void ex_module_bind_var(struct ex_module *m, int i, uint64_t addr);

/* ------------------------------------------------------------------ */
/* Launching                                                           */

#define EX_PAGE_SHIFT 12
#define EX_PAGE ((uint64_t)1 << EX_PAGE_SHIFT)

enum ex_access { EX_READ = 1, EX_WRITE = 2, EX_ATOMIC = 3 };

/* How many places bytes are tallied by: ex_memops.page names one of them
 * for each page it accepts (the bridge's own numbering: its GPU, each
 * peer, the host, each of them again for managed memory...). */
#define EX_MAX_PLACES 32
/* The unit the memory moves global memory in: a warp instruction's
 * active lanes move each 32-byte sector they touch once, whatever bytes
 * of it they use. */
#define EX_SECTOR_SHIFT 5

/* A texture or surface object as a kernel reads it (ex_memops.texture):
 * its resource's elements, their format, and how a texture samples them.
 * The engine samples; the bridge says what the handle names. */
enum ex_tex_format {
	EX_TF_U8 = 1, EX_TF_U16, EX_TF_U32, EX_TF_S8, EX_TF_S16, EX_TF_S32,
	EX_TF_F16, EX_TF_F32,
};
/* The resource's shape: its dimensions, and layers or cube faces. */
enum ex_tex_shape {
	EX_TS_1D = 1, EX_TS_2D, EX_TS_3D, EX_TS_A1D, EX_TS_A2D, EX_TS_CUBE,
	EX_TS_ACUBE,
};
/* What a coordinate outside [0, size) reads (cudaTextureAddressMode's
 * values). */
enum ex_tex_address { EX_TA_WRAP, EX_TA_CLAMP, EX_TA_MIRROR, EX_TA_BORDER };

struct ex_tex {
	/* where element (x, y, s) lies: base + s * slice + y * pitch +
	 * x * elem; s is the slice of a 3D resource, the layer of a layered
	 * one, layer * 6 + face of a cube map */
	uint64_t base, pitch, slice;
	uint64_t bytes;                /* from base: nothing past it is read */
	uint32_t width, height, depth; /* depth: 3D's, or layers (cube maps:
					* faces, 6 a layer) */
	uint8_t format;                /* enum ex_tex_format */
	uint8_t channels;              /* 1, 2 or 4 */
	uint8_t elem;                  /* bytes of an element */
	uint8_t shape;                 /* enum ex_tex_shape */
	/* base is device memory, each element read through page() and
	 * tallied at its place (linear and pitched resources); otherwise
	 * the engine's to read at once, tallied at place (arrays) */
	bool global;
	bool fetch_only;               /* linear memory: integer fetches,
					* 0 outside it */
	int place;
	/* textures: sampling */
	bool linear_filter;            /* else the nearest element */
	bool normalized_coords;        /* [0, 1) spans each dimension */
	bool read_integer;             /* integer formats read as integers,
					* else as floats in [0, 1] ([-1, 1]) */
	bool srgb;
	uint8_t address[3];            /* enum ex_tex_address, by dimension */
	float border[4];
};

/* A string a kernel names by a generic address of its own shared, local
 * or param memory (a char array on a thread's stack), which only the
 * engine can read: at(s, addr, &room) answers where its bytes are and
 * how many may be read there (room), or NULL for an address of global
 * memory, which is the bridge's to check. */
struct ex_str {
	const char *(*at)(const struct ex_str *s, uint64_t addr, size_t *room);
	void *b, *w;   /* the engine's: the block and warp asking */
	int lane;
};

/* A grid a kernel launched from the device, as the model times it: its
 * shape and what its own blocks did (not its children's). */
struct ex_grid_time {
	uint32_t grid[3], block[3];
	uint64_t warp_instructions;
	uint64_t chain_max, chain_sum;    /* cycles, as in ex_result */
};

struct ex_memops {
	void *ctx;
	/* May the launching GPU make this access to the 4 KiB page at page?
	 * The model resolves it as a GPU fault would (migrate, map remotely,
	 * duplicate) and answers EX_OK with *place set, or
	 * EX_ILLEGAL_ADDRESS. Called on a miss of the engine's translation
	 * cache, once per warp and page, never per lane or per byte; from
	 * any of the launch's worker threads at once. *shared comes false;
	 * the model sets it where its answer holds for every warp of the
	 * launch until the generation moves (no entry of the warp's own is
	 * counted): a host thread's warps then share it and ask once. */
	enum ex_status (*page)(void *ctx, uint64_t page, enum ex_access a,
			       int *place, bool *shared);
	/* Bumped by the model whenever a page an earlier page() accepted may
	 * have lost that access (eviction, migration away, a view change):
	 * the engine drops its translation caches when it moves. May be NULL
	 * when nothing can change under a launch. */
	const volatile uint64_t *generation;
	/* Device printf: fmt and its argument buffer as vprintf received
	 * them (the buffer laid out as the PTX ABI packs it). The bridge
	 * formats it and keeps it for the flush at the next synchronization
	 * point; a %s argument it reads through str (struct ex_str). May be
	 * NULL: printf then does nothing and returns 0. */
	int (*vprintf)(void *ctx, const char *fmt, const void *args,
		       const struct ex_str *str);
	/* The device heap: malloc of size bytes answers a 16-byte aligned
	 * address or 0 where the heap holds no such run; free of an
	 * address malloc answered (0 does nothing). From any of the
	 * launch's threads at once. May be NULL: malloc answers 0. */
	uint64_t (*malloc)(void *ctx, uint64_t size);
	void (*free)(void *ctx, uint64_t addr);
	/* Called on each pool thread the engine hires for a launch, with
	 * true before its first block and false after its last (never on
	 * the thread that called ex_launch_run): the bridge makes the
	 * thread's touches of memory the launching device's, as the
	 * caller's are. May be NULL. */
	void (*worker)(void *ctx, bool begin);
	/* What texture object (surface false) or surface object (true)
	 * handle h names: EX_OK with *out filled, or EX_ILLEGAL_ADDRESS
	 * (EX_UNSUPPORTED: an object of a kind the engine cannot read, the
	 * bridge's message in *why). Asked once per warp instruction and
	 * handle; from any of the launch's threads at once. May be NULL: no
	 * handle names anything. */
	enum ex_status (*texture)(void *ctx, uint64_t h, bool surface,
				  struct ex_tex *out, const char **why);
	/* cudaGraphSetConditional(h, value) of one lane: the conditional
	 * handle h of the graph the kernel runs in, EX_OK; a kernel outside
	 * a graph, or a handle its graph has not, EX_ILLEGAL_ADDRESS (as
	 * on the device: probes/results/conditional.txt). From any of the
	 * launch's threads at once. May be NULL: the call does nothing. */
	enum ex_status (*set_conditional)(void *ctx, uint64_t h,
					  uint32_t value);
	/* cudaDeviceGetAttribute in device code: attribute attr of device
	 * dev into *value, answering cudaError_t's number (0 success). May
	 * be NULL: the call answers cudaErrorNotSupported. */
	int (*attribute)(void *ctx, int attr, int dev, int *value);
	/* How long such a grid runs on the device, ns: its blocks over the
	 * SMs, its instructions at their issue rate, its chains. May be
	 * NULL: its longest chain at ex_device.clock_khz. */
	uint64_t (*grid_ns)(void *ctx, const struct ex_grid_time *g);
};

/* What the device is, for special registers and the compute term. */
struct ex_device {
	int sm;                /* compute capability, major*10+minor */
	uint32_t sm_count;     /* %nsmid */
	uint32_t warps_per_sm; /* %nwarpid */
	uint64_t (*globaltimer)(void *ctx); /* %globaltimer, ns; NULL: 0 */
	uint32_t clock_khz;    /* its SMs' clock: a launched grid's chains
				* in time (0: they take none) */
	int ordinal;           /* cudaGetDevice in device code */
	int runtime_version;   /* cudaRuntimeGetVersion in device code */
};

/* The latency classes of what an instruction writes (chain.c): an
 * arithmetic result; a load from shared or local memory (the L1) or a
 * shuffle; a load or atomic of global memory (from the L2); and, known
 * only as it runs, a global load a line of which its GPU's L2 did not
 * hold (from the DRAM). */
enum ex_lat { EX_LAT_ALU, EX_LAT_SHARED, EX_LAT_GLOBAL, EX_LAT_DRAM,
	      EX_LAT_COUNT };

/* A GPU's L2 as its kernels' loads see it: which 128-byte lines it
 * holds, in sets of eight placed by a hash, each taking the lines it
 * lacks in turn, the oldest going (l2.c). It outlives a launch (the next
 * kernel finds what the last left) and is shared by every block of one:
 * its lines are read and written with relaxed atomics, so blocks on
 * other host threads may race for a way, never for memory. */
struct ex_l2;
/* An L2 holding bytes of lines, empty; NULL where bytes holds no set of
 * them, or out of memory. */
struct ex_l2 *ex_l2_new(uint64_t bytes);
void ex_l2_free(struct ex_l2 *c);
/* The bytes of lines it holds. */
uint64_t ex_l2_bytes(const struct ex_l2 *c);
/* Whether c holds line (a 128-byte line's number, an address >> 7); it
 * does from now on (taken into its set in turn where it was not). */
bool ex_l2_holds(struct ex_l2 *c, uint64_t line);

struct ex_launch {
	const struct ex_module *module;
	int kernel;                       /* index in the module */
	uint32_t grid[3], block[3];
	uint32_t dynamic_shared_bytes;
	const void *params;               /* param_bytes of the kernel, packed */
	bool cooperative;                 /* every block resident: grid sync works */
	int threads;                      /* host threads to run blocks on; 0: one */
	bool baseline;                    /* run the baseline x86-64 loop even where
					   * the AVX2 build could (tests compare them) */
	uint32_t stack_bytes;             /* a thread's stack for recursive
					   * device functions' frames
					   * (CU_LIMIT_STACK_SIZE; 0: none) */
	struct ex_device dev;
	struct ex_memops mem;
	/* each class's latency in cycles: a warp's dependent instruction
	 * issues that long after the one it waits for; all 0: chains are
	 * not timed (ex_result.chain_*) */
	uint32_t latency[EX_LAT_COUNT];
	/* the warps of the launch an SM holds at once, which share its
	 * memory pipeline: a warp's global access takes it a cycle for each
	 * 128-byte line it touches, and as long again for each of the
	 * others doing the same (0 or 1: its own lines alone) */
	uint32_t sm_warps;
	/* the 128-byte lines of its SM's L1 a block has: a global load
	 * whose lines the block's loads brought in since it began is served
	 * by it, at the shared class's latency (0: no L1) */
	uint32_t l1_lines;
	/* the lines its GPU's L2 holds: a global load finding a line of it
	 * elsewhere waits the DRAM class's latency, and brings it in, as a
	 * store does (NULL: every global load is taken as the L2's) */
	struct ex_l2 *l2;
	/* how deep in launches from the device this grid is: 0 for the
	 * host's (the device runtime refuses a launch past
	 * DEVRT_DEPTH_MAX) */
	uint32_t depth;
	/* what launches from the device cost, ns (the model's): the grids
	 * a grid launched start start_ns after it (a chain of nested or
	 * tail launches pays it at each step), and beside that the
	 * launches themselves take the longest of: a thread's launches
	 * one after another, call_ns each past its first; a block's into
	 * its stream, stream_ns each past its first; and the grid's, grid_ns
	 * each (ex_result.device_launch_ns); a grid the host launched
	 * pays first_ns more, once, where it launches any; a tree of
	 * launches takes at least grid_ns a grid and block_ns a block of
	 * them */
	struct ex_devlaunch {
		uint32_t start_ns, call_ns, stream_ns, grid_ns, first_ns;
		uint32_t block_ns;
	} devlaunch;
};

/* What one launch did. Counts are exact: tests compare them. */
struct ex_result {
	enum ex_status status;
	uint64_t warp_instructions;       /* instructions issued, per warp */
	uint64_t lane_instructions;       /* the same, per active lane */
	uint64_t bytes_read[EX_MAX_PLACES];
	uint64_t bytes_written[EX_MAX_PLACES];
	/* 32-byte sectors each warp instruction touched, by place: the
	 * distinct sectors of its active lanes, counted in lane order (a
	 * sector its lanes come back to after another counts again, which
	 * the lanes of a coalesced or strided access never do) */
	uint64_t sectors_read[EX_MAX_PLACES];
	uint64_t sectors_written[EX_MAX_PLACES];
	/* the 64-byte units of DRAM those sectors lie in (DRAM moves 64
	 * bytes at a time), read and written, counted the same way */
	uint64_t atoms[EX_MAX_PLACES];
	/* the requests each warp instruction's reads make: each run of
	 * sectors one after another is one (a coalesced read is one
	 * request, a lane a sector apart from the others one of its own) */
	uint64_t read_requests[EX_MAX_PLACES];
	/* of those sectors, by place, where chains are timed: the load
	 * sectors the block's L1 served (an access whose lines it held in
	 * part, that share of its sectors), and the store sectors to the
	 * lines the warp's last store wrote (an SM merges them: a warp
	 * storing its sum each step) */
	uint64_t l1_sectors[EX_MAX_PLACES];
	uint64_t merged_sectors[EX_MAX_PLACES];
	uint64_t atomics;
	/* grids its threads launched (dynamic parallelism), at any depth,
	 * each run after the grid that launched it: their counts are in
	 * the rest, their chains in their time, which follows the launch's
	 * own (ex_launch.devlaunch; launch.c run_queued) */
	uint64_t device_launches;
	uint64_t device_launch_blocks;    /* ... and their blocks */
	uint64_t device_launch_ns;
	/* of warp_instructions, those the launched grids issued: they ran
	 * on SMs of their own, in their time, not in the launch's blocks' */
	uint64_t device_warp_instructions;
	/* Cycles of the blocks' chains (a block's: its slowest warp's, from
	 * its first instruction's issue to its last's, barriers waiting for
	 * the last warp to arrive): the longest block's, and their sum. 0
	 * where the launch gave no latency. */
	uint64_t chain_max, chain_sum;
	/* Where it stopped, when status is not EX_OK. */
	uint64_t fault_addr;
	uint32_t block[3], thread[3];
	char message[8192];               /* assert text (a line a failing
					   * lane), the instruction, ... */
};

/* Runs the whole grid and returns when every block has ended or the first
 * error stopped it (blocks not yet started are not started; r->status
 * says why). */
enum ex_status ex_launch_run(const struct ex_launch *l, struct ex_result *r);

#endif
