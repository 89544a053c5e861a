/*
 * launch.c - cuLaunchKernel: a module's kernel run by the PTX engine in
 * stream order, as an emulated kernel of the model (fault.c's
 * fault_launch): the address space shows the device's view while it
 * runs, so a load or store of managed memory the device does not hold is
 * a GPU fault the timing model services, and the launch's model time is
 * its faults' service, then the longer of its memory and compute time
 * (kernel.c). This file is the bridge
 * between engine and model: ex_memops.page lets the engine touch only
 * pages inside an allocation the device may reach (its own memory and
 * managed memory, pinned and registered host memory, a peer's memory
 * where peer access is on); anything else is ILLEGAL_ADDRESS, and the
 * context stays failed as on the device. The launch checks run in the real
 * driver's order (probes/results/launch.txt).
 *
 * No state of its own: a launch owns its job until the stream runs it.
 * page() takes cuemu_lock for the address map; the kernel's thread holds
 * fault.c's kernel_lock around it (kernel_lock, then cuemu_lock).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/managed.h"
#include "model/memory.h"
#include "model/module.h"
#include "model/perf.h"
#include "driver/driver.h"
#include "exec/exec.h"

/* Places the engine tallies bytes by (ex_memops.page's *place): the
 * launching GPU's memory, pinned or registered host memory, managed
 * memory (whose time the kernel model charges where its looks find it),
 * and from PLACE_PEER on, a place for each peer whose memory the kernel
 * reached (the job's peer table). */
enum { PLACE_DEVICE, PLACE_HOST, PLACE_MANAGED, PLACE_PEER };
#define PEER_PLACES (EX_MAX_PLACES - PLACE_PEER)

struct job {
	struct ex_launch l;
	struct ex_result res;
	CUcontext ctx;
	int dev;
	const char *name;     /* the kernel's, as long as its module lives */
	uint32_t shared_bytes, registers; /* as cuFuncGetAttribute answers */
	uint8_t *params;
	/* The peer whose bytes each peer place counts, in the order the
	 * kernel first reached them; cuemu_lock (page() holds it). Peers past
	 * PEER_PLACES share the last place, at its first peer's rate. */
	int peer[PEER_PLACES];
	int npeers;
};

/* The place of peer memory on device d. */
static int peer_place(struct job *j, int d)
{
	int i;

	for (i = 0; i < j->npeers; i++)
		if (j->peer[i] == d)
			return PLACE_PEER + i;
	if (j->npeers == PEER_PLACES)
		return EX_MAX_PLACES - 1;
	j->peer[j->npeers] = d;
	return PLACE_PEER + j->npeers++;
}

/* Whether the job's GPU may reach allocation a, and at which place. */
static bool reachable(struct job *j, const struct cuemu_alloc *a, int *place)
{
	int dev = j->dev;

	switch (a->kind) {
	case CUEMU_KIND_DEVICE:
	case CUEMU_KIND_POOL:
		if (a->device == dev) {
			*place = PLACE_DEVICE;
			return true;
		}
		if (!cuemu_peer_enabled(dev, a->device))
			return false;
		*place = peer_place(j, a->device);
		return true;
	case CUEMU_KIND_MANAGED:
		*place = PLACE_MANAGED;
		return true;
	case CUEMU_KIND_HOST:
	case CUEMU_KIND_REGISTERED:
		*place = PLACE_HOST;
		return true;
	default:
		/* reservations (mapped or not), other processes' memory and
		 * system memory are not reached by kernels here */
		return false;
	}
}

static enum ex_status page(void *ctx, uint64_t pg, enum ex_access acc,
			   int *place)
{
	struct job *j = ctx;
	struct cuemu_alloc *a;
	bool ok;

	cuemu_lock();
	a = cuemu_va_find((uintptr_t)pg);
	ok = a && reachable(j, a, place);
	if (ok)
		fault_launch_page(a->id, (uintptr_t)pg, acc != EX_READ);
	/* It changed nothing the lookup must publish: what the kernel's
	 * faults changed is theirs to publish (fault.c), and a kernel's
	 * counts are published with its end. */
	cuemu_unlock_deferred();
	return ok ? EX_OK : EX_ILLEGAL_ADDRESS;
}

/* The engine's worker threads touch memory as the device, as the stream's
 * thread does while the kernel runs (fault.c). */
static void worker_mark(void *ctx, bool begin)
{
	struct job *j = ctx;

	fault_kernel_thread(begin ? j->dev : -1);
}

/* Device printf goes to the process's buffer (printf.c). */
static int dev_vprintf(void *ctx, const char *fmt, const void *args)
{
	(void)ctx;
	return cuemu_devprintf(fmt, args);
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
	case EX_ASSERT:
		return CUDA_ERROR_ASSERT;
	case EX_OUT_OF_MEMORY:
		return CUDA_ERROR_OUT_OF_MEMORY;
	case EX_TRAP:
	default:
		return CUDA_ERROR_LAUNCH_FAILED;
	}
}

/* What the engine did, for the kernel's model time (kernel.c, km_work):
 * its instructions over its grid, and its bytes by the processor that
 * holds them (managed bytes are the kernel model's own). */
static void account(const struct job *j)
{
	const struct ex_result *res = &j->res;
	uint64_t threads = (uint64_t)j->l.block[0] * j->l.block[1] *
			   j->l.block[2];
	struct km_work w = { 0 };

	w.warp_instructions = res->warp_instructions;
	w.blocks = (uint64_t)j->l.grid[0] * j->l.grid[1] * j->l.grid[2];
	w.warps = w.blocks * ((threads + 31) / 32);
	w.traffic[j->dev] = res->bytes_read[PLACE_DEVICE] +
			    res->bytes_written[PLACE_DEVICE];
	w.traffic[CUEMU_PROC_HOST] = res->bytes_read[PLACE_HOST] +
				     res->bytes_written[PLACE_HOST];
	for (int i = 0; i < j->npeers; i++)
		w.traffic[j->peer[i]] += res->bytes_read[PLACE_PEER + i] +
					 res->bytes_written[PLACE_PEER + i];
	km_work(&w);
}

/* The engine's tallies by the kernel accounting's places (perf.h): every
 * peer's place counts as the one peer place there. */
static void perf_places(const uint64_t *by, uint64_t out[PERF_PLACES])
{
	out[PERF_PLACE_DEVICE] = by[PLACE_DEVICE];
	out[PERF_PLACE_HOST] = by[PLACE_HOST];
	out[PERF_PLACE_MANAGED] = by[PLACE_MANAGED];
	out[PERF_PLACE_PEER] = 0;
	for (int i = PLACE_PEER; i < EX_MAX_PLACES; i++)
		out[PERF_PLACE_PEER] += by[i];
}

/* The launch has ended (r): its counts go to the kernel accounting. */
static void launch_end(const struct job *j, CUresult r)
{
	uint64_t rd[PERF_PLACES], wr[PERF_PLACES];

	perf_places(j->res.bytes_read, rd);
	perf_places(j->res.bytes_written, wr);
	fault_launch_end(rd, wr, r);
}

/* The stream's operation: runs the grid, then says how it ended. A
 * kernel that failed still took the time it ran. */
static void run(void *arg)
{
	struct job *j = arg;
	CUresult r;

	memset(&j->res, 0, sizeof j->res);
	fault_launch_begin(j->name, j->l.grid, j->l.block, j->shared_bytes,
			   j->registers);
	ex_launch_run(&j->l, &j->res);
	account(j);
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
	free(j->params);
	free(j);
}

/* The parameter buffer from kernelParams: each argument copied to its
 * offset, as the kernel declares it. */
static CUresult params_from_list(const struct ex_kernel_info *k, void **kp,
				 uint8_t *buf)
{
	for (uint32_t i = 0; i < k->nparams; i++) {
		if (!kp[i])
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "kernelParams[%u] is NULL", i);
		memcpy(buf + k->params[i].offset, kp[i], k->params[i].size);
	}
	return CUDA_SUCCESS;
}

/* The parameter buffer from `extra`: a pointer and a size, then END. The
 * driver takes a size other than the kernel's (probes/README.md); bytes
 * past what was given read as zeros here. */
static CUresult params_from_extra(const struct ex_kernel_info *k,
				  void **extra, uint8_t *buf)
{
	const void *p = NULL;
	const size_t *size = NULL;

	for (size_t i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
		if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
			p = extra[i + 1];
		else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE)
			size = extra[i + 1];
		else
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "extra[%zu] is no launch key", i);
	}
	if (!p || !size)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "extra lacks its %s", p ? "size" : "pointer");
	memcpy(buf, p, *size < k->param_bytes ? *size : k->param_bytes);
	return CUDA_SUCCESS;
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
	j->name = cuemu_function_name(f);
	j->registers = (uint32_t)cuemu_function_attr(f,
					CU_FUNC_ATTRIBUTE_NUM_REGS);
	j->shared_bytes = (uint32_t)cuemu_function_attr(f,
					CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
	return j;
}

/* Fills what the engine needs to know of the device and the launch. */
static void job_fill(struct job *j, CUfunction f, const unsigned g[3],
		     const unsigned b[3], unsigned smem)
{
	int v = 0;

	j->l.module = cuemu_module_code(cuemu_function_module(f));
	j->l.kernel = cuemu_function_index(f);
	memcpy(j->l.grid, g, sizeof j->l.grid);
	memcpy(j->l.block, b, sizeof j->l.block);
	j->l.dynamic_shared_bytes = smem;
	j->shared_bytes += smem;
	j->l.params = j->params;
	/* the kernel runs on its stream's thread and the workers the engine
	 * starts; worker_mark makes theirs the device's touches too */
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
	cuDeviceGetAttribute(&v,
			     CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
			     j->dev);
	j->l.dev.warps_per_sm = (uint32_t)v / 32;
	j->l.mem.ctx = j;
	j->l.mem.page = page;
	j->l.mem.generation = cuemu_reach_generation();
	j->l.mem.vprintf = dev_vprintf;
	j->l.mem.worker = worker_mark;
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX,
			unsigned int gridDimY, unsigned int gridDimZ,
			unsigned int blockDimX, unsigned int blockDimY,
			unsigned int blockDimZ, unsigned int sharedMemBytes,
			CUstream hStream, void **kernelParams, void **extra)
{
	const unsigned g[3] = { gridDimX, gridDimY, gridDimZ };
	const unsigned b[3] = { blockDimX, blockDimY, blockDimZ };
	const struct ex_kernel_info *k;
	CUcontext ctx;
	CUstream s;
	struct job *j;
	int dev;
	CUresult r;

	if ((r = cuemu_current(&ctx, &dev)) != CUDA_SUCCESS)
		return r;
	if (!f)
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE, "f is NULL");
	if ((r = cuemu_function_check(f)) != CUDA_SUCCESS ||
	    (r = dims_check(f, g, b)) != CUDA_SUCCESS)
		return r;
	k = ex_module_kernel(cuemu_module_code(cuemu_function_module(f)),
			     cuemu_function_index(f));
	if (kernelParams && extra)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "both kernelParams and extra");
	if (k->nparams && !kernelParams && !extra)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%s takes %u parameters; none given",
				  k->name, k->nparams);
	if ((r = cluster_check(f, g)) != CUDA_SUCCESS ||
	    (r = smem_check(f, sharedMemBytes)) != CUDA_SUCCESS ||
	    (r = cuemu_stream_get(hStream, &s)) != CUDA_SUCCESS)
		return r;
	if (!(j = job_new(f, k, ctx, dev)))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "launch");
	r = kernelParams ? params_from_list(k, kernelParams, j->params) :
	    extra ? params_from_extra(k, extra, j->params) : CUDA_SUCCESS;
	if (r == CUDA_SUCCESS) {
		job_fill(j, f, g, b, sharedMemBytes);
		r = fault_launch(s, run, j);
	}
	if (r != CUDA_SUCCESS) {
		free(j->params);
		free(j);
		return r;
	}
	if (cuemu_launch_blocking())
		return cuemu_stream_sync(s);
	return CUDA_SUCCESS;
}
