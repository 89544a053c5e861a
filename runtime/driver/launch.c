/*
 * launch.c - cuLaunchKernel: a module's kernel run by the PTX engine in
 * stream order, as an emulated kernel of the model (fault.c's
 * fault_launch_looked, since page() looks each managed page up before
 * the engine touches it): the address space shows the device's view while
 * it runs, so a load or store of managed memory the device does not hold is
 * a GPU fault the timing model services, and the launch's model time is
 * its faults' service, then the longer of its memory and compute time
 * (kernel.c). This file is the bridge
 * between engine and model: ex_memops.page lets the engine touch only
 * pages inside an allocation the device may reach (its own memory and
 * managed memory, pinned and registered host memory, a peer's memory
 * where peer access is on, pool blocks where the pool grants access and
 * until their stream-ordered free runs, VMM mappings where cuMemSetAccess
 * grants it, IPC-opened memory on its device or, over a link, another's,
 * as the opening enabled peer access for it; a page is the allocation's
 * that holds any byte of it, as small device allocations share pages);
 * anything else is ILLEGAL_ADDRESS, and
 * the context stays failed as on the device. The launch checks run in the real
 * driver's order (probes/results/launch.txt); after them the context's
 * stacks are made to hold the kernel's frame (model/stackmem.c), which may
 * raise the stack limit or refuse the launch with CUDA_ERROR_OUT_OF_MEMORY.
 *
 * A kernel that calls malloc or free gets the context's device heap
 * (model/kheap.c), made by the first such launch, before it is queued.
 *
 * No state of its own: a launch owns its job until the stream runs it,
 * and the job holds its module (cuemu_module_hold) until it has run, so
 * that an unload waits for it rather than freeing the code, the kernel's
 * name and the variables it uses.
 * page() takes cuemu_lock for the address map; the kernel's thread holds
 * fault.c's kernel_lock around it (kernel_lock, then cuemu_lock).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "model/context.h"
#include "model/kheap.h"
#include "model/managed.h"
#include "model/memory.h"
#include "model/module.h"
#include "model/pageset.h"
#include "model/kept.h"
#include "model/clock.h"
#include "model/uvm.h"
#include "model/perf.h"
#include "model/pool.h"
#include "model/stream.h"
#include "model/vmm.h"
#include "driver/driver.h"
#include "driver/texview.h"
#include "driver/graph.h"
#include "exec/exec.h"

/* Places the engine tallies bytes and sectors by (ex_memops.page's
 * *place): the launching GPU's memory, host memory, and from PLACE_PEER
 * on, a place for each peer whose memory the kernel reached (the job's
 * peer table); each of them again from PLACE_MANAGED on for managed
 * memory, at the processor the kernel model says serves the access, so
 * that its sectors are priced where they are and its bytes still count
 * as managed in /cu. */
enum { PLACE_DEVICE, PLACE_HOST, PLACE_PEER,
       PLACE_MANAGED = EX_MAX_PLACES / 2 };
#define PEER_PLACES (PLACE_MANAGED - PLACE_PEER)

struct job {
	struct ex_launch l;
	struct ex_result res;
	CUcontext ctx;
	int dev;
	CUmodule mod;         /* held until the job has run */
	const char *name;     /* the kernel's, as long as its module lives */
	uint32_t shared_bytes, registers; /* as cuFuncGetAttribute answers */
	uint32_t resident;    /* its blocks an SM holds at once; 0 unknown */
	bool graph;           /* a graph's node: the node's launch time */
	/* its graph's conditional values, which cudaGraphSetConditional
	 * sets (NULL outside a graph); the executable graph keeps them */
	uint32_t *conds;
	size_t nconds;
	/* %globaltimer's origin: the model time the kernel started at, and
	 * the host's monotonic clock then */
	uint64_t timer_model_ns, timer_host_ns;
	uint64_t l2_bytes;    /* the lines its GPU's L2 holds (l2.c); 0 none */
	uint8_t *params;
	/* The peer whose bytes each peer place counts, in the order the
	 * kernel first reached them; cuemu_lock (page() holds it). Peers past
	 * PEER_PLACES share the last place, at its first peer's rate. */
	int peer[PEER_PLACES];
	int npeers;
	struct cuemu_kheap *heap; /* the context's, where the kernel uses it */
	/* The distinct pages of its own GPU's memory it reached, and how:
	 * what the DRAM moves at least once (account); cuemu_lock (page()
	 * holds it). */
	struct pageset own;
	/* ... and of those it read, the pages its GPU's L2 held from the
	 * kernel before (model/kept.c); cuemu_lock */
	uint64_t kept;
};

/* The place of peer memory on device d. */
static int peer_place(struct job *j, int d)
{
	int i;

	for (i = 0; i < j->npeers; i++)
		if (j->peer[i] == d)
			return PLACE_PEER + i;
	if (j->npeers == PEER_PLACES)
		return PLACE_MANAGED - 1;
	j->peer[j->npeers] = d;
	return PLACE_PEER + j->npeers++;
}

/* The place a processor's memory is to the job's kernel. */
static int place_of(struct job *j, int proc)
{
	return proc == j->dev ? PLACE_DEVICE :
	       proc == CUEMU_PROC_HOST || proc < 0 ? PLACE_HOST :
	       peer_place(j, proc);
}

/* Whether an access that needs write may be made under access flags f. */
static bool access_allows(CUmemAccess_flags f, bool write)
{
	return f == CU_MEM_ACCESS_FLAGS_PROT_READWRITE ||
	       (f == CU_MEM_ACCESS_FLAGS_PROT_READ && !write);
}

/* A pool block: its own device's, or another's where the pool grants the
 * job's GPU access (cuMemPoolSetAccess), as the device checks it: not
 * peer access. */
static bool pool_reachable(struct job *j, struct cuemu_alloc *a, bool write,
			   int *place)
{
	int owner = a->device >= 0 ? a->device : CUEMU_PROC_HOST;

	*place = place_of(j, owner);
	return owner == j->dev ||
	       access_allows(cuemu_pool_access(cuemu_pool_of(a), j->dev),
			     write);
}

/* Memory mapped into a reservation (cuMemMap): reached where its mapping
 * gives the job's GPU the access (cuMemSetAccess), at the place its
 * memory lies. */
static bool vmm_reachable(struct job *j, uintptr_t pg, bool write,
			  int *place)
{
	struct cuemu_map_info mi;

	if (!cuemu_vmm_lookup(pg, j->dev, &mi) ||
	    !access_allows(mi.access, write))
		return false;
	*place = mi.multicast ? PLACE_DEVICE :
		 place_of(j, cuemu_loc_proc(mi.loc));
	return true;
}

/* Whether the job's GPU may reach page pg of allocation a, and at which
 * place. *own: the answer is this warp's alone (a fault entry of its
 * own); every other holds for the launch's warps until the generation
 * moves. */
static bool reachable(struct job *j, struct cuemu_alloc *a, uintptr_t pg,
		      bool write, int *place, bool *own)
{
	int dev = j->dev;

	*own = false;
	switch (a->kind) {
	case CUEMU_KIND_DEVICE:
	case CUEMU_KIND_IPC: /* another process's memory */
		if (a->device == dev) {
			*place = PLACE_DEVICE;
			return true;
		}
		/* An opening asks for CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS
		 * (cuIpcOpenMemHandle refuses it without): peer access is
		 * enabled as the mapping needs it, wherever there is a link. */
		if (a->kind == CUEMU_KIND_IPC ?
		    !cuemu_peer_link(dev, a->device) :
		    !cuemu_peer_enabled(dev, a->device))
			return false;
		*place = peer_place(j, a->device);
		return true;
	case CUEMU_KIND_POOL:
		return pool_reachable(j, a, write, place);
	case CUEMU_KIND_MANAGED:
		fault_look(pg); /* the touch then faults as the device's */
		*place = PLACE_MANAGED + place_of(j, km_lookup(pg, dev, write,
								 own));
		return true;
	case CUEMU_KIND_HOST:
	case CUEMU_KIND_REGISTERED:
		*place = PLACE_HOST;
		return true;
	case CUEMU_KIND_RESERVATION:
		return vmm_reachable(j, pg, write, place);
	default:
		/* system memory is not reached by kernels here */
		return false;
	}
}

/* The kernel reached page number pg of its GPU's memory: in its set, and
 * counted among those its GPU's L2 kept where it reads one for the first
 * time that the kernel before reached. cuemu_lock held. */
static void own_page(struct job *j, uint64_t pg, enum ex_access acc)
{
	unsigned before = pageset_add(&j->own, pg,
				      (acc & EX_READ ? PAGESET_READ : 0) |
				      (acc & EX_WRITE ? PAGESET_WRITE : 0));

	if ((acc & EX_READ) && !(before & PAGESET_READ) &&
	    l2_holds(j->dev, pg))
		j->kept++;
}

static enum ex_status page(void *ctx, uint64_t pg, enum ex_access acc,
			   int *place, bool *shared)
{
	struct job *j = ctx;
	struct cuemu_alloc *a;
	bool ok, own = true, write = acc != EX_READ;
	int owner;

	cuemu_lock();
	/* allocations under 2 MiB are packed 512 bytes apart (devheap.c):
	 * a page's first bytes may be free while a later piece is live */
	a = cuemu_va_find((uintptr_t)pg);
	if (!a)
		a = cuemu_va_overlap((uintptr_t)pg, EX_PAGE);
	ok = a && reachable(j, a, (uintptr_t)pg, write, place, &own);
	/* the engine's other warps may take the answer as theirs, but for
	 * a block whose stream-ordered free is pending (below) */
	*shared = ok && !own;
	/* A block freed in stream order is its pool's until the free runs:
	 * a kernel queued before cudaFreeAsync still reads and writes it. */
	if (!a && cuemu_pool_pending_at((uintptr_t)pg, &owner)) {
		ok = owner == j->dev || owner == CUEMU_PROC_HOST || owner < 0 ||
		     cuemu_peer_enabled(j->dev, owner);
		if (ok)
			*place = place_of(j, owner);
	}
	if (ok && a)
		fault_launch_page(a->id, (uintptr_t)pg, write);
	if (ok && (*place == PLACE_DEVICE ||
		   *place == PLACE_MANAGED + PLACE_DEVICE))
		own_page(j, pg >> EX_PAGE_SHIFT, acc);
	/* It changed nothing the lookup must publish: what the kernel's
	 * faults changed is theirs to publish (fault.c), and a kernel's
	 * counts are published with its end. */
	cuemu_unlock_deferred();
	return ok ? EX_OK : EX_ILLEGAL_ADDRESS;
}

/* The engine's worker threads touch memory as the device, as the stream's
 * thread does while the kernel runs (fault.c). */
static uint64_t host_ns(void)
{
	struct timespec t;

	/* the C library's clock, never the program's model clock */
	cuemu_libc.clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* %globaltimer: the model time the kernel started at, moving on with the
 * host's clock while it runs, so that a kernel that waits on the timer
 * (a timeout, a delay) ends as on the device, whatever the engine's
 * speed; nanoseconds, as the device's timer. */
static uint64_t dev_globaltimer(void *ctx)
{
	const struct job *j = ctx;

	return j->timer_model_ns + (host_ns() - j->timer_host_ns);
}

static void worker_mark(void *ctx, bool begin)
{
	struct job *j = ctx;

	fault_kernel_thread(begin ? j->dev : -1);
}

/* Device malloc and free: the context's heap (model/kheap.c). */
static uint64_t dev_malloc(void *ctx, uint64_t size)
{
	return cuemu_kheap_malloc(((struct job *)ctx)->heap, size);
}

static void dev_free(void *ctx, uint64_t addr)
{
	cuemu_kheap_free(((struct job *)ctx)->heap, addr);
}

/* Device printf goes to the process's buffer (printf.c). */
static int dev_vprintf(void *ctx, const char *fmt, const void *args,
		       const struct ex_str *str)
{
	(void)ctx;
	return cuemu_devprintf(fmt, args, str);
}

static CUresult status_result(enum ex_status s)
{
	switch (s) {
	case EX_OK:
		return CUDA_SUCCESS;
	case EX_ILLEGAL_ADDRESS:
		return CUDA_ERROR_ILLEGAL_ADDRESS;
	case EX_MISALIGNED_ADDRESS:
		return CUDA_ERROR_MISALIGNED_ADDRESS;
	case EX_ILLEGAL_INSTRUCTION:
		return CUDA_ERROR_ILLEGAL_INSTRUCTION;
	case EX_INVALID_PC:
		return CUDA_ERROR_INVALID_PC;
	case EX_ASSERT:
		return CUDA_ERROR_ASSERT;
	case EX_OUT_OF_MEMORY:
		return CUDA_ERROR_OUT_OF_MEMORY;
	case EX_TRAP:
	default:
		return CUDA_ERROR_LAUNCH_FAILED;
	}
}

/* What place p and its managed twin counted in by (the engine's sectors
 * read, written, DRAM units or read requests). */
static uint64_t place_sum(const uint64_t *by, int p)
{
	return by[p] + by[PLACE_MANAGED + p];
}

/* Adds place p's counts to processor proc's in w: every sector and DRAM
 * unit moved whole, and those of them an L1 served or an SM merged. */
static void add_place(struct km_work *w, const struct ex_result *res,
		      int p, int proc)
{
	w->read[proc] += place_sum(res->sectors_read, p) << EX_SECTOR_SHIFT;
	w->written[proc] += place_sum(res->sectors_written, p)
			    << EX_SECTOR_SHIFT;
	w->dram[proc] += place_sum(res->atoms, p) << (EX_SECTOR_SHIFT + 1);
	w->requests[proc] += place_sum(res->read_requests, p);
	w->l1_read[proc] += place_sum(res->l1_sectors, p) << EX_SECTOR_SHIFT;
	w->merged[proc] += place_sum(res->merged_sectors, p)
			   << EX_SECTOR_SHIFT;
}

/* Of the pages a kernel found kept, the share of their bytes that
 * count as held for it: all where the L2 held as much of each page as
 * the kernel moves of its pages (dram of compulsory), else what it held
 * of that. Where all, the pages open no row of the DRAM. */
static double held_for(const struct km_work *w, int dev, double density)
{
	double need = w->compulsory && w->dram[dev] < w->compulsory ?
		      (double)w->dram[dev] / (double)w->compulsory : 1;

	return density >= need ? 1 : density / need;
}

/* What the engine did, for the kernel's model time (kernel.c, km_work):
 * its instructions over its grid, and what its memory moved by the
 * processor that holds it, managed memory's among them; kept_share, the
 * share of the pages it found kept that its GPU's L2 held, density, the
 * share of each such page's bytes. Returns the bytes of its GPU's memory
 * the L2 holds of it after: its pages', or where its DRAM units came to
 * less (a touch of a few bytes a page), those. */
static uint64_t account(const struct job *j, double kept_share,
			double density)
{
	const struct ex_result *res = &j->res;
	uint64_t threads = (uint64_t)j->l.block[0] * j->l.block[1] *
			   j->l.block[2];
	struct km_work w = { 0 };
	uint64_t kept;
	double held;

	/* the grids it launched issued theirs on SMs of their own, their
	 * time in device_launch_ns */
	w.warp_instructions = res->warp_instructions -
			      res->device_warp_instructions;
	w.blocks = (uint64_t)j->l.grid[0] * j->l.grid[1] * j->l.grid[2];
	w.warps = w.blocks * ((threads + 31) / 32);
	add_place(&w, res, PLACE_DEVICE, j->dev);
	if (!j->own.full) {
		w.compulsory = (j->own.nread + j->own.nwritten) * EX_PAGE;
		w.distinct = j->own.n * EX_PAGE;
	}
	kept = (uint64_t)((double)j->kept * kept_share);
	held = held_for(&w, j->dev, density);
	w.kept = (uint64_t)((double)(kept * EX_PAGE) * held);
	if (!j->own.full)
		w.dram_pages = j->own.n - (held >= 1 ? kept : 0);
	w.chain_max = res->chain_max;
	w.chain_sum = res->chain_sum;
	w.resident = j->resident;
	w.graph_node = j->graph;
	w.device_launch_ns = res->device_launch_ns;
	add_place(&w, res, PLACE_HOST, CUEMU_PROC_HOST);
	for (int i = 0; i < j->npeers; i++)
		add_place(&w, res, PLACE_PEER + i, j->peer[i]);
	km_work(&w);
	return cuemu_min_u(w.distinct, w.dram[j->dev]);
}

/* The engine's tallies by the kernel accounting's places (perf.h): every
 * peer's place counts as the one peer place there. */
static void perf_places(const uint64_t *by, uint64_t out[PERF_PLACES])
{
	out[PERF_PLACE_DEVICE] = by[PLACE_DEVICE];
	out[PERF_PLACE_HOST] = by[PLACE_HOST];
	out[PERF_PLACE_MANAGED] = 0;
	for (int i = PLACE_MANAGED; i < EX_MAX_PLACES; i++)
		out[PERF_PLACE_MANAGED] += by[i];
	out[PERF_PLACE_PEER] = 0;
	for (int i = PLACE_PEER; i < PLACE_MANAGED; i++)
		out[PERF_PLACE_PEER] += by[i];
}

/* The launch has ended (r): its counts go to the kernel accounting, the
 * peers' by the GPU each peer place counted (a place past PEER_PLACES
 * shared counts as its first peer's). */
static void launch_end(const struct job *j, CUresult r)
{
	uint64_t rd[PERF_PLACES], wr[PERF_PLACES];
	uint64_t prd[CUEMU_MAX_DEVICES] = { 0 }, pwr[CUEMU_MAX_DEVICES] = { 0 };

	perf_places(j->res.bytes_read, rd);
	perf_places(j->res.bytes_written, wr);
	for (int i = 0; i < j->npeers; i++) {
		prd[j->peer[i]] += j->res.bytes_read[PLACE_PEER + i];
		pwr[j->peer[i]] += j->res.bytes_written[PLACE_PEER + i];
	}
	fault_launch_end(rd, wr, prd, pwr, r);
}

static void hold_drop(void *mod)
{
	cuemu_module_release(mod);
}

/* The stream's operation: runs the grid, then says how it ended. A
 * kernel that failed still took the time it ran. Its module is let go
 * once the stream has published the launch's end, so that an unload
 * that waited for it finds the stream past it. */
static void run(void *arg)
{
	struct job *j = arg;
	double kept_share, density;
	uint64_t footprint;
	CUresult r;

	memset(&j->res, 0, sizeof j->res);
	/* the GPU's L2 as the copies before the kernel left it */
	if (j->l2_bytes)
		j->l.l2 = cuemu_gpu_l2(j->dev, j->l2_bytes);
	fault_launch_begin(j->name, j->l.grid, j->l.block, j->shared_bytes,
			   j->registers);
	j->timer_model_ns = cuemu_model_now();
	j->timer_host_ns = host_ns();
	ex_launch_run(&j->l, &j->res);
	cuemu_lock();
	kept_share = l2_share(j->dev);
	density = l2_density(j->dev);
	cuemu_unlock();
	footprint = account(j, kept_share, density);
	cuemu_lock();
	l2_keep(j->dev, &j->own, EX_PAGE, footprint);
	cuemu_unlock();
	pageset_free(&j->own);
	r = status_result(j->res.status);
	launch_end(j, r);
	if (r != CUDA_SUCCESS) {
		/* assert's text goes to stderr, as the device's does */
		if (j->res.status == EX_ASSERT)
			fprintf(stderr, "%s\n", j->res.message);
		cuemu_debug("kernel %s failed (%d) at 0x%llx, block [%u,%u,%u] "
			    "thread [%u,%u,%u]: %s", j->name, (int)r,
			    (unsigned long long)j->res.fault_addr,
			    j->res.block[0], j->res.block[1], j->res.block[2],
			    j->res.thread[0], j->res.thread[1],
			    j->res.thread[2], j->res.message);
		cuemu_ctx_fail_sticky(j->ctx, r);
	}
	cuemu_op_then(hold_drop, j->mod);
	free(j->params);
	free(j);
}

/* The grid's and block's dimensions, as the driver checks them. */
static CUresult dims_check(CUfunction f, const unsigned g[3],
			   const unsigned b[3])
{
	uint64_t threads = (uint64_t)b[0] * b[1] * b[2];
	int max = cuemu_function_attr(f, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);

	if (!g[0] || !g[1] || !g[2] || g[0] > 0x7fffffffu || g[1] > 65535 ||
	    g[2] > 65535)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "grid %ux%ux%u: 1 to 2^31-1 by 65535 by 65535",
				  g[0], g[1], g[2]);
	if (!b[0] || !b[1] || !b[2] || b[0] > 1024 || b[1] > 1024 ||
	    b[2] > 64 || threads > 1024)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "block %ux%ux%u: at most 1024x1024x64 and "
				  "1024 threads", b[0], b[1], b[2]);
	if (threads > (uint64_t)max)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "block of %llu threads: %s allows %d",
				  (unsigned long long)threads,
				  cuemu_function_name(f), max);
	return CUDA_SUCCESS;
}

/* A cluster the kernel requires must tile the grid. */
static CUresult cluster_check(CUfunction f, const unsigned g[3])
{
	for (int i = 0; i < 3; i++) {
		int c = cuemu_function_attr(f, (CUfunction_attribute)(
				CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH + i));
		if (c > 0 && g[i] % (unsigned)c)
			return cuemu_fail(CUDA_ERROR_INVALID_CLUSTER_SIZE,
					  "grid dimension %d of %u is no "
					  "multiple of the required cluster's "
					  "%d", i, g[i], c);
	}
	return CUDA_SUCCESS;
}

static CUresult smem_check(CUfunction f, unsigned smem)
{
	int max = cuemu_function_attr(
		f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);

	if ((int64_t)smem > max)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%u bytes of dynamic shared memory: %s "
				  "allows %d (cuFuncSetAttribute raises it)",
				  smem, cuemu_function_name(f), max);
	return CUDA_SUCCESS;
}

static struct job *job_new(CUfunction f, const struct ex_kernel_info *k,
			   CUcontext ctx, int dev)
{
	struct job *j = calloc(1, sizeof *j);

	if (!j)
		return NULL;
	if (!(j->params = calloc(1, k->param_bytes ? k->param_bytes : 1))) {
		free(j);
		return NULL;
	}
	j->ctx = ctx;
	j->dev = dev;
	j->mod = cuemu_function_module(f);
	j->name = cuemu_function_name(f);
	j->registers = (uint32_t)cuemu_function_attr(f,
					CU_FUNC_ATTRIBUTE_NUM_REGS);
	j->shared_bytes = (uint32_t)cuemu_function_attr(f,
					CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
	return j;
}

/* The shared memory an SM sets aside of its L1 for blocks that need
 * `need` bytes of it together: the least of compute capability 9.0's
 * sizes (the CUDA Programming Guide's) that holds them, at least 16 KiB.
 * probes/results/l1.txt, one H200: a shuffled ring of lines is whole in
 * the L1 to 208 KiB, half at 256, gone at 320 for a kernel of no shared
 * memory (256 KiB less 16, in the engine's eight-way sets: whole to 208,
 * 0.44 at 256, none at 304), and whole to 80 KiB, 0.7 at 96, beside 160
 * KiB of it (the 164 KiB size: 92 KiB of L1). */
static uint64_t carveout(uint64_t need)
{
	static const unsigned kib[] = { 16, 32, 64, 100, 132, 164, 196, 228 };

	for (size_t i = 0; i < sizeof kib / sizeof kib[0]; i++)
		if (need <= (uint64_t)kib[i] << 10)
			return (uint64_t)kib[i] << 10;
	return 228ULL << 10;
}

/* The latencies the engine times the kernel's chains with, how many of
 * its blocks an SM holds at once (the occupancy calculator's answer:
 * what km_chain_ns needs), and so the warps sharing an SM's memory
 * pipeline: those of the blocks it holds, no more than the grid's share
 * of the SMs gives it. */
static void chains_fill(struct job *j, CUfunction f, const unsigned g[3],
			const unsigned b[3], unsigned smem)
{
	uint64_t blocks = (uint64_t)g[0] * g[1] * g[2];
	uint64_t warps = ((uint64_t)b[0] * b[1] * b[2] + 31) / 32;
	uint64_t sms = cuemu_max_u(j->l.dev.sm_count, 1), held, carve;
	struct km_latency lat;
	int per_sm = 0;

	km_latency_of(j->dev, &lat);
	j->l.latency[EX_LAT_ALU] = lat.alu;
	j->l.latency[EX_LAT_SHARED] = lat.l1;
	j->l.latency[EX_LAT_GLOBAL] = lat.load;
	j->l.latency[EX_LAT_DRAM] = lat.dram;
	j->l2_bytes = lat.l2_bytes;
	if (cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f,
			(int)(b[0] * b[1] * b[2]), smem) == CUDA_SUCCESS &&
	    per_sm > 0)
		j->resident = (uint32_t)per_sm;
	held = cuemu_min_u(cuemu_max_u(j->resident, 1), (blocks + sms - 1) / sms);
	j->l.sm_warps = (uint32_t)cuemu_min_u(held * warps,
					      cuemu_max_u(j->l.dev.warps_per_sm, 1));
	/* the L1 is what the shared memory carveout for the blocks leaves,
	 * in equal shares */
	carve = carveout(held * ((uint64_t)j->shared_bytes + 1024));
	if (lat.l1_bytes > carve)
		j->l.l1_lines = (uint32_t)cuemu_min_u((lat.l1_bytes - carve) /
						      held / 128, UINT32_MAX);
}

/* ex_memops.set_conditional: handle h of the graph the kernel runs in
 * (numbered from 1). */
static enum ex_status dev_setcond(void *ctx, uint64_t h, uint32_t v)
{
	struct job *j = ctx;

	if (h < 1 || h > j->nconds)
		return EX_ILLEGAL_ADDRESS;
	__atomic_store_n(&j->conds[h - 1], v, __ATOMIC_RELAXED);
	return EX_OK;
}

/* ex_memops.attribute: cudaDeviceGetAttribute in device code, the
 * driver's answer (the runtime's attribute numbers are the driver's, and
 * so are the numbers of the errors it can answer: INVALID_VALUE 1,
 * INVALID_DEVICE 101). */
static int dev_attribute(void *ctx, int attr, int dev, int *value)
{
	(void)ctx;
	return (int)cuDeviceGetAttribute(value, (CUdevice_attribute)attr,
					 (CUdevice)dev);
}

/* ex_memops.grid_ns: a grid launched from the device timed as the
 * kernel model times a launch's blocks (their issue, dispatch and
 * chains; an SM holding as many of them as its warps allow), its bytes
 * being the launch's. */
static uint64_t dev_grid_ns(void *ctx, const struct ex_grid_time *g)
{
	struct job *j = ctx;
	struct km_work w = { 0 };
	struct km_rates r;
	uint64_t warps = ((uint64_t)g->block[0] * g->block[1] * g->block[2] +
			  31) / 32;

	km_rates_of(j->dev, &r);
	w.warp_instructions = g->warp_instructions;
	w.blocks = (uint64_t)g->grid[0] * g->grid[1] * g->grid[2];
	w.warps = w.blocks * warps;
	w.chain_max = g->chain_max;
	w.chain_sum = g->chain_sum;
	w.resident = (uint32_t)cuemu_min_u(cuemu_max_u(
		j->l.dev.warps_per_sm / cuemu_max_u(warps, 1), 1), 32);
	return cuemu_max_u(cuemu_max_u(km_compute_ns(&w, &r),
				       km_dispatch_ns(&w, &r)),
			   km_chain_ns(&w, &r));
}

/* ex_memops.texture: the object a handle names, on the job's device. */
static enum ex_status texture(void *ctx, uint64_t h, bool surface,
			      struct ex_tex *out, const char **why)
{
	struct job *j = ctx;
	enum ex_status st = cuemu_texview_engine(h, surface, j->dev, out, why);

	out->place = PLACE_DEVICE;
	return st;
}

/* Fills what the engine needs to know of the device and the launch. */
static void job_fill(struct job *j, CUfunction f, const unsigned g[3],
		     const unsigned b[3], unsigned smem)
{
	const struct cuemu_uvm *u = cuemu_uvm();
	int v = 0;
	size_t stack;

	j->l.module = cuemu_module_code(cuemu_function_module(f));
	j->l.kernel = cuemu_function_index(f);
	memcpy(j->l.grid, g, sizeof j->l.grid);
	memcpy(j->l.block, b, sizeof j->l.block);
	j->l.dynamic_shared_bytes = smem;
	j->shared_bytes += smem;
	j->l.params = j->params;
	/* the kernel runs on its stream's thread and the pool threads the
	 * engine hires; worker_mark makes theirs the device's touches too */
	j->l.threads = cuemu_kernel_threads();
	cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
			     j->dev);
	j->l.dev.sm = v * 10;
	cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
			     j->dev);
	j->l.dev.sm += v;
	cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
			     j->dev);
	j->l.dev.sm_count = (uint32_t)v;
	cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, j->dev);
	j->l.dev.clock_khz = (uint32_t)v;
	cuDeviceGetAttribute(&v,
			     CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
			     j->dev);
	j->l.dev.warps_per_sm = (uint32_t)v / 32;
	/* recursive device functions' frames come out of the thread's stack */
	cuemu_lock();
	stack = cuemu_ctx_limit(j->ctx, CU_LIMIT_STACK_SIZE);
	cuemu_unlock();
	j->l.stack_bytes = stack > UINT32_MAX ? UINT32_MAX : (uint32_t)stack;
	j->l.mem.ctx = j;
	j->l.dev.globaltimer = dev_globaltimer;
	j->l.mem.page = page;
	j->l.mem.generation = cuemu_reach_generation();
	j->l.mem.vprintf = dev_vprintf;
	if (j->heap) {
		j->l.mem.malloc = dev_malloc;
		j->l.mem.free = dev_free;
	}
	j->l.mem.worker = worker_mark;
	j->l.mem.texture = texture;
	j->l.mem.set_conditional = dev_setcond;
	j->l.mem.attribute = dev_attribute;
	j->l.mem.grid_ns = dev_grid_ns;
	j->l.dev.ordinal = j->dev;
	/* what cudaRuntimeGetVersion answers in device code on the H200
	 * (probes/results/cdp.txt): the device runtime's own version */
	j->l.dev.runtime_version = 6000;
	j->l.devlaunch.start_ns = (uint32_t)cuemu_min_u(u->device_launch_ns,
						       UINT32_MAX);
	j->l.devlaunch.call_ns = (uint32_t)cuemu_min_u(u->device_launch_call_ns,
						      UINT32_MAX);
	j->l.devlaunch.stream_ns = (uint32_t)cuemu_min_u(
		u->device_launch_stream_ns, UINT32_MAX);
	j->l.devlaunch.grid_ns = (uint32_t)cuemu_min_u(u->device_launch_grid_ns,
						      UINT32_MAX);
	j->l.devlaunch.first_ns = (uint32_t)cuemu_min_u(
		u->device_launch_first_ns, UINT32_MAX);
	j->l.devlaunch.block_ns = (uint32_t)cuemu_min_u(
		u->device_launch_block_ns, UINT32_MAX);
	chains_fill(j, f, g, b, smem);
}

/* A launch as every entry asks for it. */
struct launch_req {
	CUfunction f;
	unsigned g[3], b[3], smem;
	CUstream stream;
	void **params, **extra;
	bool cooperative;
	bool graph;           /* a graph's node, its launch paid for */
	uint32_t *conds;      /* the graph's conditional values */
	size_t nconds;
	const CUlaunchAttribute *attrs; /* cuLaunchKernelEx's, checked */
	unsigned nattrs;
};

/* A cooperative grid must be resident at once: at most the blocks an SM
 * holds of it (the occupancy calculator's answer) times the SMs. */
static CUresult coop_check(const struct launch_req *q, int dev)
{
	uint64_t blocks = (uint64_t)q->g[0] * q->g[1] * q->g[2];
	int per_sm = 0, sms = 0;
	CUresult r;

	if ((r = cuOccupancyMaxActiveBlocksPerMultiprocessor(
		     &per_sm, q->f, (int)(q->b[0] * q->b[1] * q->b[2]),
		     q->smem)) != CUDA_SUCCESS ||
	    (r = cuDeviceGetAttribute(&sms,
				      CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
				      dev)) != CUDA_SUCCESS)
		return r;
	if (blocks > (uint64_t)per_sm * (uint64_t)sms)
		return cuemu_fail(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
				  "cooperative grid of %llu blocks: %d SMs "
				  "hold %d blocks of %s each",
				  (unsigned long long)blocks, sms, per_sm,
				  cuemu_function_name(q->f));
	return CUDA_SUCCESS;
}

/* The function a launch names, in the current context: a CUkernel is
 * resolved there; a function of another context is no handle here. */
static CUresult launch_function(CUfunction *f, CUcontext ctx)
{
	CUresult r;

	if (!*f)
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE, "f is NULL");
	if ((r = cuemu_function_resolve(*f, f)) != CUDA_SUCCESS)
		return r;
	if (cuemu_module_ctx(cuemu_function_module(*f)) != ctx)
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE,
				  "function %s belongs to another context",
				  cuemu_function_name(*f));
	return CUDA_SUCCESS;
}

/* What a launch's events (cuLaunchKernelEx's programmatic and completion
 * events) are recorded with: after the kernel, in its stream, so that
 * both fire no earlier than the real ones may. */
static CUresult launch_events(const struct launch_req *q, CUstream s)
{
	CUresult r = CUDA_SUCCESS;

	for (unsigned i = 0; i < q->nattrs && r == CUDA_SUCCESS; i++) {
		const CUlaunchAttributeValue *v = &q->attrs[i].value;
		if (q->attrs[i].id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT)
			r = cuEventRecord(v->programmaticEvent.event, s);
		else if (q->attrs[i].id ==
			 CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT)
			r = cuEventRecord(v->launchCompletionEvent.event, s);
	}
	return r;
}

/* A launch's checks of its function, shape and parameters in the
 * driver's order (probes/results/launch.txt, library.txt), for context
 * ctx on dev; the kernel's description in *k. */
static CUresult launch_checks(struct launch_req *q, CUcontext ctx, int dev,
			      const struct ex_kernel_info **k)
{
	CUresult r;

	if ((r = launch_function(&q->f, ctx)) != CUDA_SUCCESS ||
	    (r = dims_check(q->f, q->g, q->b)) != CUDA_SUCCESS)
		return r;
	*k = ex_module_kernel(cuemu_module_code(cuemu_function_module(q->f)),
			      cuemu_function_index(q->f));
	if ((r = cuemu_kargs_check(*k, q->params, q->extra)) != CUDA_SUCCESS ||
	    (q->cooperative && (r = coop_check(q, dev)) != CUDA_SUCCESS) ||
	    (r = cluster_check(q->f, q->g)) != CUDA_SUCCESS)
		return r;
	return smem_check(q->f, q->smem);
}

/* The context a launch runs in: its stream's, whichever is current, as
 * the driver runs a function of A on A's stream with B current and
 * refuses it on B's (probes/results/xctx.txt). An implicit stream, or a
 * handle that names none (refused in its turn), leaves the current one. */
static void launch_ctx(CUstream h, CUcontext *ctx, int *dev)
{
	CUcontext sc;
	CUstream s;

	if (cuemu_stream_get(h, &s) == CUDA_SUCCESS &&
	    (sc = cuemu_stream_ctx(s)) && sc != *ctx) {
		*ctx = sc;
		*dev = cuemu_ctx_device(sc);
	}
}

/* launch_checks in ctx, made current for them where it is not (a
 * CUkernel is resolved to its function in the current context). */
static CUresult checks_in(struct launch_req *q, CUcontext ctx, CUcontext cur,
			  int dev, const struct ex_kernel_info **k)
{
	CUresult r;

	if (ctx == cur)
		return launch_checks(q, ctx, dev, k);
	if ((r = cuCtxPushCurrent(ctx)) != CUDA_SUCCESS)
		return r;
	r = launch_checks(q, ctx, dev, k);
	cuCtxPopCurrent(NULL);
	return r;
}

/* A launch's events belong to its context, checked before it is queued
 * so that a refused launch runs nothing (probes/results/xctx.txt). */
static CUresult events_check(const struct launch_req *q, CUcontext ctx)
{
	CUresult r = CUDA_SUCCESS;

	for (unsigned i = 0; i < q->nattrs && r == CUDA_SUCCESS; i++) {
		const CUlaunchAttributeValue *v = &q->attrs[i].value;
		if (q->attrs[i].id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT)
			r = cuemu_event_check_ctx(v->programmaticEvent.event,
						  ctx);
		else if (q->attrs[i].id ==
			 CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT)
			r = cuemu_event_check_ctx(
				v->launchCompletionEvent.event, ctx);
	}
	return r;
}

/* The context's stacks made to hold the kernel's frame, the limit raised
 * to it where it is more, as the driver does at a launch; a reservation
 * that does not fit refuses the launch with CUDA_ERROR_OUT_OF_MEMORY, and
 * the context goes on (probes/results/stackmem.txt, model/stackmem.c). */
static CUresult stack_fit(CUcontext ctx, const struct ex_kernel_info *k)
{
	CUresult r;

	cuemu_lock();
	r = cuemu_stack_fit(ctx, k->local_bytes);
	cuemu_unlock();
	return r;
}

/* A launch on a capturing stream: a kernel node of the capture's graph,
 * its arguments copied now, as the driver copies them. */
static CUresult capture_launch(const struct launch_req *q,
			       const struct ex_kernel_info *k, CUcontext ctx)
{
	struct gkernel gk = { 0 };
	CUgraphNode n;
	CUresult r;

	if ((r = cuemu_gkernel_fill(&gk, q->f, k, q->g, q->b, q->smem,
				    q->params, q->extra)) != CUDA_SUCCESS)
		return r;
	gk.ctx = ctx;
	gk.cooperative = q->cooperative;
	if ((r = cuemu_capture_node(q->stream, CU_GRAPH_NODE_TYPE_KERNEL,
				    &n)) != CUDA_SUCCESS) {
		cuemu_gkernel_free(&gk);
		return r;
	}
	n->p.k = gk;
	return CUDA_SUCCESS;
}

/* Every launch: its checks, then the job queued. */
static CUresult launch_work(struct launch_req *q)
{
	const struct ex_kernel_info *k;
	CUcontext ctx, cur;
	CUstream s;
	struct job *j;
	int dev;
	CUresult r;

	if ((r = cuemu_current(&cur, &dev)) != CUDA_SUCCESS)
		return r;
	ctx = cur;
	launch_ctx(q->stream, &ctx, &dev);
	if ((r = checks_in(q, ctx, cur, dev, &k)) != CUDA_SUCCESS ||
	    (r = cuemu_stream_get(q->stream, &s)) != CUDA_SUCCESS ||
	    (r = events_check(q, ctx)) != CUDA_SUCCESS)
		return r;
	if (cuemu_capturing(q->stream))
		return capture_launch(q, k, ctx);
	if ((r = stack_fit(ctx, k)) != CUDA_SUCCESS)
		return r;
	if (!(j = job_new(q->f, k, ctx, dev)))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "launch");
	r = cuemu_kargs_copy(k, q->params, q->extra, j->params);
	/* the context's device heap is made (and its size fixed) by the
	 * first launch of a kernel that calls malloc or free */
	if (r == CUDA_SUCCESS && k->uses_heap)
		r = cuemu_kheap_get(ctx, dev, &j->heap);
	if (r == CUDA_SUCCESS && !cuemu_module_hold(j->mod))
		r = cuemu_fail(CUDA_ERROR_INVALID_HANDLE, "the function's "
			       "module was unloaded");
	else if (r == CUDA_SUCCESS) {
		job_fill(j, q->f, q->g, q->b, q->smem);
		j->l.cooperative = q->cooperative;
		j->graph = q->graph;
		j->conds = q->conds;
		j->nconds = q->nconds;
		/* the call's own time, before the kernel can start; a graph's
		 * node has none (the graph's launch paid once) */
		if (!q->graph)
			cuemu_host_advance(cuemu_uvm()->launch_call_ns);
		if ((r = fault_launch_looked(s, run, j)) != CUDA_SUCCESS)
			cuemu_module_release(j->mod);
	}
	if (r != CUDA_SUCCESS) {
		free(j->params);
		free(j);
		return r;
	}
	if ((r = launch_events(q, q->stream)) != CUDA_SUCCESS)
		return r;
	if (cuemu_launch_blocking())
		return cuemu_stream_sync(s);
	return CUDA_SUCCESS;
}

/* A launch as the program's clock sees it (CUEMU_CLOCK=model): the
 * call's price on one H200 (uvm.launch_call_ns), not libcuemu's CPU time
 * for it, which is the host's and its load's: 13 to 16 us a call here on
 * two busy cores against the H200's 4 (probes/results/launchloop.txt). */
static CUresult launch(struct launch_req *q)
{
	CUresult r;

	cuemu_clock_enter();
	r = launch_work(q);
	cuemu_clock_leave();
	return r;
}

/* ------------------------------------------------ what graphs ask of it */

CUresult cuemu_launch_shape_check(CUfunction f, const unsigned g[3],
				  const unsigned b[3], unsigned smem,
				  const struct ex_kernel_info **k)
{
	CUcontext ctx;
	CUresult r;

	if ((r = cuemu_current(&ctx, NULL)) != CUDA_SUCCESS ||
	    (r = launch_function(&f, ctx)) != CUDA_SUCCESS ||
	    (r = dims_check(f, g, b)) != CUDA_SUCCESS ||
	    (r = smem_check(f, smem)) != CUDA_SUCCESS)
		return r;
	*k = ex_module_kernel(cuemu_module_code(cuemu_function_module(f)),
			      cuemu_function_index(f));
	return CUDA_SUCCESS;
}

CUresult cuemu_launch_node(const struct gkernel *k, CUstream s,
			   uint32_t *conds, size_t nconds)
{
	size_t size = k->nbytes;
	void *extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, k->bytes,
			  CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
			  CU_LAUNCH_PARAM_END };
	struct launch_req q = {
		.f = k->f, .g = { k->g[0], k->g[1], k->g[2] },
		.b = { k->b[0], k->b[1], k->b[2] }, .smem = k->smem,
		.stream = s, .extra = extra, .cooperative = k->cooperative,
		.graph = true, .conds = conds, .nconds = nconds,
	};

	return launch_work(&q);
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX,
			unsigned int gridDimY, unsigned int gridDimZ,
			unsigned int blockDimX, unsigned int blockDimY,
			unsigned int blockDimZ, unsigned int sharedMemBytes,
			CUstream hStream, void **kernelParams, void **extra)
{
	struct launch_req q = {
		.f = f, .g = { gridDimX, gridDimY, gridDimZ },
		.b = { blockDimX, blockDimY, blockDimZ },
		.smem = sharedMemBytes, .stream = hStream,
		.params = kernelParams, .extra = extra,
	};

	return launch(&q);
}

CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX,
				   unsigned int gridDimY,
				   unsigned int gridDimZ,
				   unsigned int blockDimX,
				   unsigned int blockDimY,
				   unsigned int blockDimZ,
				   unsigned int sharedMemBytes,
				   CUstream hStream, void **kernelParams)
{
	struct launch_req q = {
		.f = f, .g = { gridDimX, gridDimY, gridDimZ },
		.b = { blockDimX, blockDimY, blockDimZ },
		.smem = sharedMemBytes, .stream = hStream,
		.params = kernelParams, .cooperative = true,
	};

	return launch(&q);
}

/* ------------------------------------------ one grid over several GPUs */

/* One part of a multi-device launch: a named stream (the legacy stream
 * cannot take one), the function of that stream's context, a device no
 * other part has; then the launch's own checks in that context. */
static CUresult multi_part(const CUDA_LAUNCH_PARAMS *p, bool *seen,
			   struct launch_req *q, CUcontext *ctx)
{
	const struct ex_kernel_info *k;
	CUstream s;
	int dev;
	CUresult r;

	*q = (struct launch_req){
		.f = p->function,
		.g = { p->gridDimX, p->gridDimY, p->gridDimZ },
		.b = { p->blockDimX, p->blockDimY, p->blockDimZ },
		.smem = p->sharedMemBytes, .stream = p->hStream,
		.params = p->kernelParams, .cooperative = true,
	};
	if (!p->hStream)
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE,
				  "a multi-device launch's part names the "
				  "NULL stream");
	if ((r = cuemu_stream_get(p->hStream, &s)) != CUDA_SUCCESS ||
	    (r = cuStreamGetCtx(p->hStream, ctx)) != CUDA_SUCCESS)
		return r;
	dev = cuemu_ctx_device(*ctx);
	if (seen[dev])
		return cuemu_fail(CUDA_ERROR_INVALID_DEVICE,
				  "two parts of a multi-device launch on "
				  "device %d", dev);
	seen[dev] = true;
	if ((r = cuCtxPushCurrent(*ctx)) != CUDA_SUCCESS)
		return r;
	r = launch_checks(q, *ctx, dev, &k);
	cuCtxPopCurrent(NULL);
	return r;
}

/* Makes each of the n streams wait for what the others hold now: the
 * synchronization the flags may leave out before and after the grids. */
static CUresult multi_sync(const struct launch_req *q, const CUcontext *ctx,
			   unsigned n)
{
	CUevent e;
	CUresult r = CUDA_SUCCESS;

	for (unsigned j = 0; j < n && r == CUDA_SUCCESS; j++) {
		if ((r = cuCtxPushCurrent(ctx[j])) != CUDA_SUCCESS)
			return r;
		if ((r = cuEventCreate(&e, CU_EVENT_DISABLE_TIMING)) ==
		    CUDA_SUCCESS) {
			r = cuEventRecord(e, q[j].stream);
			for (unsigned i = 0; i < n && r == CUDA_SUCCESS; i++)
				if (i != j)
					r = cuStreamWaitEvent(q[i].stream, e,
							      0);
			cuEventDestroy(e);
		}
		cuCtxPopCurrent(NULL);
	}
	return r;
}

/* Deprecated and gone from CUDA 13's cuda.h, yet the driver still exports
 * it and cuGetProcAddress finds it at every version asked, and it runs
 * (probes/results/kapi.txt); so here. Every part is checked before any is
 * queued. */
CUresult cuLaunchCooperativeKernelMultiDevice(CUDA_LAUNCH_PARAMS *list,
					      unsigned int numDevices,
					      unsigned int flags)
{
	const unsigned known = CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_PRE_LAUNCH_SYNC |
			       CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_POST_LAUNCH_SYNC;
	struct launch_req *q;
	CUcontext *ctx;
	bool *seen;
	int ndev = 0;
	CUresult r = cuemu_check_init();

	if (r != CUDA_SUCCESS)
		return r;
	if (!list || !numDevices || (flags & ~known))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%s", !list ? "launchParamsList is NULL" :
				  !numDevices ? "numDevices is 0" :
				  "flags beyond the two syncs");
	if ((r = cuDeviceGetCount(&ndev)) != CUDA_SUCCESS)
		return r;
	/* each part on a device of its own: past ndev parts, a repeat */
	q = calloc((size_t)ndev, sizeof *q);
	ctx = calloc((size_t)ndev, sizeof *ctx);
	seen = calloc((size_t)ndev, sizeof *seen);
	if (!q || !ctx || !seen)
		r = cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "multi-device launch");
	for (unsigned i = 0; i < numDevices && r == CUDA_SUCCESS; i++)
		r = multi_part(&list[i], seen, &q[i < (unsigned)ndev ? i : 0],
			       &ctx[i < (unsigned)ndev ? i : 0]);
	if (r == CUDA_SUCCESS &&
	    !(flags & CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_PRE_LAUNCH_SYNC))
		r = multi_sync(q, ctx, numDevices);
	for (unsigned i = 0; i < numDevices && r == CUDA_SUCCESS; i++)
		if ((r = cuCtxPushCurrent(ctx[i])) == CUDA_SUCCESS) {
			r = launch(&q[i]);
			cuCtxPopCurrent(NULL);
		}
	if (r == CUDA_SUCCESS &&
	    !(flags & CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_POST_LAUNCH_SYNC))
		r = multi_sync(q, ctx, numDevices);
	free(q);
	free(ctx);
	free(seen);
	return r;
}

/* A cluster dimension cuLaunchKernelEx was given: each side a divisor
 * of the grid's, at most 8 blocks (16 where the kernel allows a
 * non-portable size); 0x0x0 is none. */
static CUresult ex_cluster(const CUlaunchConfig *c, CUfunction f,
			   const unsigned d[3])
{
	const unsigned g[3] = { c->gridDimX, c->gridDimY, c->gridDimZ };
	uint64_t n = (uint64_t)d[0] * d[1] * d[2];
	CUfunction fn;
	unsigned max = 8;

	if (!d[0] && !d[1] && !d[2])
		return CUDA_SUCCESS;
	if (cuemu_function_resolve(f, &fn) == CUDA_SUCCESS &&
	    cuemu_function_attr(fn,
			CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED))
		max = 16;
	if (!n || n > max)
		return cuemu_fail(CUDA_ERROR_INVALID_CLUSTER_SIZE,
				  "cluster %ux%ux%u: 1 to %u blocks", d[0],
				  d[1], d[2], max);
	for (int i = 0; i < 3; i++)
		if (g[i] % d[i])
			return cuemu_fail(CUDA_ERROR_INVALID_CLUSTER_SIZE,
					  "cluster %ux%ux%u does not tile grid "
					  "%ux%ux%u", d[0], d[1], d[2], g[0],
					  g[1], g[2]);
	return CUDA_SUCCESS;
}

/* An event an attribute names: NULL or a dead one is no handle. */
static CUresult ex_event(CUevent e)
{
	CUresult r;

	if (!e)
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE,
				  "the attribute's event is NULL");
	r = cuEventQuery(e);
	return r == CUDA_ERROR_NOT_READY ? CUDA_SUCCESS : r;
}

/* One attribute of cuLaunchKernelEx, as the driver takes or refuses it
 * (probes/results/library.txt); *coop set by COOPERATIVE, *cluster by
 * CLUSTER_DIMENSION. */
static CUresult ex_attr(const CUlaunchAttribute *a, int dev, bool *coop,
			const unsigned **cluster)
{
	const CUlaunchAttributeValue *v = &a->value;

	switch (a->id) {
	case CU_LAUNCH_ATTRIBUTE_IGNORE:
	case CU_LAUNCH_ATTRIBUTE_PRIORITY: /* any: clamped to the range */
	case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION:
	case CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING:
	case CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION: /* ex_launch */
		return CUDA_SUCCESS;
	case CU_LAUNCH_ATTRIBUTE_COOPERATIVE:
		*coop = v->cooperative != 0;
		return CUDA_SUCCESS;
	case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
		*cluster = &v->clusterDim.x;
		return CUDA_SUCCESS;
	case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
		return cuemu_attr_common_check(a->id, v, dev);
	case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
		return cuemu_attr_common_check(a->id, v, dev);
	case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT:
		return ex_event(v->programmaticEvent.event);
	case CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT:
		return ex_event(v->launchCompletionEvent.event);
	case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
	case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
		return cuemu_attr_common_check(a->id, v, dev);
	case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
		return cuemu_attr_common_check(a->id, v, dev);
	case CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE:
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED,
				  "device-updatable kernel nodes are a "
				  "graph's");
	case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "the synchronization policy is a stream's");
	default:
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "launch attribute %d is none",
				  (int)a->id);
	}
}

/* A preferred cluster needs a cluster it is a multiple of. */
static CUresult ex_preferred(const CUlaunchConfig *c, const unsigned *cl)
{
	for (unsigned i = 0; i < c->numAttrs; i++) {
		const CUlaunchAttribute *a = &c->attrs[i];
		const unsigned *p = &a->value.preferredClusterDim.x;
		if (a->id != CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION)
			continue;
		for (int d = 0; d < 3; d++)
			if (!cl || !cl[d] || !p[d] || p[d] % cl[d])
				return cuemu_fail(
					CUDA_ERROR_INVALID_CLUSTER_SIZE,
					"a preferred cluster needs a cluster "
					"dimension it is a multiple of");
	}
	return CUDA_SUCCESS;
}

CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f,
			  void **kernelParams, void **extra)
{
	const unsigned *cluster = NULL;
	struct launch_req q;
	bool coop = false;
	int dev;
	CUresult r;

	if ((r = cuemu_current(NULL, &dev)) != CUDA_SUCCESS)
		return r;
	if (!config)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "config is NULL");
	if (config->numAttrs && !config->attrs)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%u attributes at NULL", config->numAttrs);
	for (unsigned i = 0; i < config->numAttrs; i++)
		if ((r = ex_attr(&config->attrs[i], dev, &coop, &cluster)) !=
		    CUDA_SUCCESS)
			return r;
	if ((r = ex_preferred(config, cluster)) != CUDA_SUCCESS ||
	    (cluster && (r = ex_cluster(config, f, cluster)) != CUDA_SUCCESS))
		return r;
	q = (struct launch_req){
		.f = f, .g = { config->gridDimX, config->gridDimY,
			       config->gridDimZ },
		.b = { config->blockDimX, config->blockDimY,
		       config->blockDimZ },
		.smem = config->sharedMemBytes, .stream = config->hStream,
		.params = kernelParams, .extra = extra, .cooperative = coop,
		.attrs = config->attrs, .nattrs = config->numAttrs,
	};
	return launch(&q);
}
