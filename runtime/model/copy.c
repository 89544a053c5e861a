/*
 * copy.c - a copy or a memset as an operation on a stream: where each end
 * lives, touching managed ends, moving the bytes, and the time it takes.
 * The driver entries (driver/copy.c) check the arguments and the stream
 * and call cuemu_copy or cuemu_memset.
 *
 * A copy moves a box: rows of a width, a pitch apart, in slices a slice
 * apart, one row at a time, so the bytes between rows are never touched; a
 * plain copy is a box of one row, a 2D or 3D copy (driver/copy2d.c) a box
 * whose ends are pointers or CUDA arrays (model/array.c, the array's own
 * rows and slices), and a batch of them is checked whole before its first
 * is queued. A copy runs on the stream's worker in stream order, moves the
 * bytes for real, and advances the stream's model clock by the cost of its path
 * (cuemu_path_cost_ns): pinned or pageable host memory to or from a GPU,
 * within one GPU, GPU to GPU, host to host; a memset is its GPU writing
 * its own memory, or a copy to wherever the memory is. A synchronous copy
 * with a pageable end also keeps the host busy staging it, so the host's
 * clock moves on by that much from the copy's start. Where each end lives
 * comes from the address map: device and pool memory on their GPU, pinned,
 * registered and unknown (pageable) memory on the host, VMM mappings where
 * their physical memory is. A VMM end must be mapped and give the stream's GPU the access the
 * copy needs (cuMemSetAccess): that is checked when the call is made, as
 * the host's view of such a mapping would otherwise fault inside the copy.
 * Managed memory is first touched through the managed family
 * (cuemu_managed_touch), as the processor at the other end would touch it
 * (the stream's GPU when both ends are managed), so that it faults and
 * migrates as a real access does, charged as a migration only when pages
 * move; the copy itself is then local to that processor. An asynchronous
 * copy with a pageable end waits all the same, as the real driver stages
 * pageable memory before it returns, so the caller may reuse its buffer at
 * once; but one of up to uvm.pageable_async_bytes from pageable memory into
 * a GPU's is staged at the call and queued, not waited for (stages()).
 *
 * Locking: ends are resolved under cuemu_lock() when the call is made; the
 * operation touches user memory with no lock held (managed memory may fault
 * into fault.c, which takes the process lock).
 */
#include "model/internal.h"
#include "model/array.h"
#include "model/clock.h"
#include "model/vmm.h"
#include "model/multicast.h"
#include "model/pool.h"
#include "model/copy.h"
#include "model/kept.h"
#include "model/uvm.h"
#include "model/wake.h"

#include <stdlib.h>
#include <string.h>

/* Where one end of a copy is. */
struct end {
	uintptr_t p;
	int proc;      /* GPU index or CUEMU_PROC_HOST; for managed: the
	                * processor that touches it */
	bool managed;
	bool pageable; /* host memory the runtime does not know */
	bool multicast; /* crosses a mapping of a multicast object */
};

/* A copy or memset moves bytes of width x height x depth: rows of width
 * bytes, pitch apart, in slices of rows slice apart (one row, one slice
 * for a plain copy). */
struct copy_op {
	struct end dst, src;
	size_t bytes;     /* width x height x depth */
	size_t width, height, depth;
	size_t dpitch, dslice, spitch, sslice;
	unsigned elem;    /* memset: element size (1, 2, 4); 0 for a copy */
	uint32_t value;   /* memset: the element */
	bool heap;        /* freed by the operation */
	bool sync;        /* the caller waits for it */
	void *staged;     /* a pageable source's bytes, taken at the call:
	                   * src.p; freed by the operation */
};

/* ------------------------------------------------------------ resolve */

/* The access a copy needs of a mapping: READ to read it, READWRITE to
 * write it. */
static bool access_allows(CUmemAccess_flags have, bool write)
{
	if (write)
		return have == CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	return have == CU_MEM_ACCESS_FLAGS_PROT_READ ||
	       have == CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
}

/* An end in a reservation: every byte of [p, p+n) must be mapped, and every
 * mapping it crosses must give dev (the GPU whose stream copies) the access
 * the copy needs. Checked here, before the operation runs, because the
 * host's view of a mapping without that access is PROT_NONE or read-only
 * (vmm.c): touching it would kill the process instead of failing the call.
 * Lock held. */
static CUresult resolve_vmm(uintptr_t p, size_t n, bool write, int dev,
			    struct end *e)
{
	struct cuemu_map_info mi;
	uintptr_t at = p, end = p + n;
	char w[16];

	if (end < p)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "[%#lx, +%zu) wraps around",
				  (unsigned long)p, n);
	e->proc = -1;
	while (at < end) {
		if (!cuemu_vmm_lookup(at, dev, &mi))
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "[%#lx, +%zu) is not mapped in its "
					  "reservation at %#lx",
					  (unsigned long)p, n,
					  (unsigned long)at);
		if (!access_allows(mi.access, write))
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "mapping [%#lx, +%zu) of handle %llu "
					  "gives %s %s access, and a %s needs "
					  "%s (cuMemSetAccess)",
					  (unsigned long)mi.map_base,
					  mi.map_size,
					  (unsigned long long)mi.handle_id,
					  cuemu_proc_str(dev, w, sizeof w),
					  cuemu_access_str(mi.access),
					  write ? "write" : "read",
					  write ? "rw" : "ro");
		/* A multicast mapping is written by the stream's GPU, and
		 * what it writes is passed on (cuemu_mc_fanout). */
		if (mi.multicast)
			e->multicast = true;
		if (e->proc < 0)
			e->proc = mi.multicast ? dev : cuemu_loc_proc(mi.loc);
		at = mi.map_base + mi.map_size;
	}
	if (e->proc < 0)
		e->proc = CUEMU_PROC_HOST;
	return CUDA_SUCCESS;
}

/* Fills e for [p, p+n); dev_side: the API names this end a device pointer,
 * so it must be memory a device can reach; write: the copy writes it; dev:
 * the GPU whose stream copies. Lock held. */
static CUresult resolve(uintptr_t p, size_t n, bool dev_side, bool write,
			int dev, struct end *e)
{
	struct cuemu_alloc *a = cuemu_va_find(p);

	memset(e, 0, sizeof *e);
	e->p = p;
	if (!a) {
		if (dev_side || !p)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "%#lx is not device-accessible "
					  "memory", (unsigned long)p);
		e->proc = CUEMU_PROC_HOST;
		e->pageable = true;
		return CUDA_SUCCESS;
	}
	if (a->kind == CUEMU_KIND_RESERVATION)
		return resolve_vmm(p, n, write, dev, e);
	if (p + n > a->base + a->size || p + n < p)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "[%#lx, +%zu) runs past the end of %s "
				  "allocation %llu (%zu bytes)",
				  (unsigned long)p, n,
				  cuemu_kind_names[a->kind],
				  (unsigned long long)a->id, a->size);
	if (write && a->kind == CUEMU_KIND_REGISTERED &&
	    (a->flags & CU_MEMHOSTREGISTER_READ_ONLY))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%#lx is registered read-only for devices",
				  (unsigned long)p);
	if (a->kind == CUEMU_KIND_POOL && dev_side && !write &&
	    cuemu_pool_props(cuemu_pool_of(a))->location.type ==
	    CU_MEM_LOCATION_TYPE_HOST_NUMA)
		/* The real driver refuses a host-NUMA pool block as the device
		 * end a copy reads, though a GPU memset of it runs
		 * (probes/results/pool.txt, memset_by_dev0). */
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%#lx is a host-NUMA pool block, not the "
				  "device memory the copy names it",
				  (unsigned long)p);
	switch (a->kind) {
	case CUEMU_KIND_DEVICE:
	case CUEMU_KIND_POOL:
	case CUEMU_KIND_IPC:
		e->proc = a->device >= 0 ? a->device : CUEMU_PROC_HOST;
		break;
	case CUEMU_KIND_MANAGED:
		e->managed = true;
		break;
	default:
		e->proc = CUEMU_PROC_HOST;
		break;
	}
	return CUDA_SUCCESS;
}

/* Managed ends are touched by the processor at the other end. */
static void pick_touchers(struct copy_op *op, int stream_dev)
{
	if (op->dst.managed && op->src.managed)
		op->dst.proc = op->src.proc = stream_dev;
	else if (op->dst.managed)
		op->dst.proc = op->src.proc;
	else if (op->src.managed)
		op->src.proc = op->dst.proc;
}

/* ------------------------------------------------------------ the operation */

static void count_bytes(int from, int to, size_t n)
{
	if (from == CUEMU_PROC_HOST && to != CUEMU_PROC_HOST)
		cuemu_counter_add(to, CUEMU_CTR_BYTES_HTOD, n);
	else if (from != CUEMU_PROC_HOST && to == CUEMU_PROC_HOST)
		cuemu_counter_add(from, CUEMU_CTR_BYTES_DTOH, n);
	else if (from != CUEMU_PROC_HOST)
		cuemu_counter_add(to, CUEMU_CTR_BYTES_DTOD, n);
}

/* Writes n elements of elem bytes: one, then doubling copies. */
static void fill(void *dst, uint32_t value, unsigned elem, size_t n)
{
	size_t total = n * elem, done = elem;
	uint16_t v16 = (uint16_t)value;
	char *d = dst;

	if (elem == 1) {
		memset(dst, (int)value, n);
		return;
	}
	memcpy(d, elem == 2 ? (const void *)&v16 : (const void *)&value, elem);
	while (done < total) {
		size_t c = done < total - done ? done : total - done;

		memcpy(d + done, d, c);
		done += c;
	}
}

/* The path op takes, from where its ends are once managed ends are
 * resident (pick_touchers): host memory is pageable only when the runtime
 * does not know it. */
static enum cuemu_path pick_path(const struct copy_op *op)
{
	int from = op->src.proc, to = op->dst.proc;

	if (from == CUEMU_PROC_HOST && to == CUEMU_PROC_HOST)
		return CUEMU_PATH_HOST;
	if (from == CUEMU_PROC_HOST)
		return op->src.pageable ? CUEMU_PATH_PAGEABLE_HTOD
					: CUEMU_PATH_PINNED_HTOD;
	if (to == CUEMU_PROC_HOST)
		return op->dst.pageable ? CUEMU_PATH_PAGEABLE_DTOH
					: CUEMU_PATH_PINNED_DTOH;
	if (from != to)
		return CUEMU_PATH_PEER;
	return op->elem ? CUEMU_PATH_MEMSET : CUEMU_PATH_DEVICE;
}

/* What runs an operation on the device (probes/results/copyone.txt): a
 * copy engine (between pinned memory and a GPU), a kernel (a copy within
 * a GPU, a memset past the short path), or the short path's memset; the
 * rest are not measured. Each has its call on the host and its wait when
 * it starts at a kernel's end on its stream (cost_of). */
enum runner { RUN_OTHER, RUN_ENGINE, RUN_KERNEL, RUN_SHORT };

static enum runner runner_of(enum cuemu_path path, size_t bytes,
			     bool staged)
{
	if (staged)
		return RUN_OTHER;   /* its DMA waits for no kernel's end */
	switch (path) {
	case CUEMU_PATH_PINNED_HTOD: case CUEMU_PATH_PINNED_DTOH:
		return RUN_ENGINE;
	case CUEMU_PATH_DEVICE:
		return RUN_KERNEL;
	case CUEMU_PATH_MEMSET:
		return cuemu_path_short(path, bytes) ? RUN_SHORT : RUN_KERNEL;
	default:
		return RUN_OTHER;
	}
}

/* What r costs (probes/results/copyone.txt, afterop.txt): the call on
 * the calling thread, a copy engine's 1.2 to 1.3 us (uvm.copy_call_ns), a
 * kernel's 2.9 to 3.8 (uvm.copy_kernel_call_ns), a memset on the short
 * path 0.8 (uvm.memset_short_call_ns); and the wait of one that starts at
 * a kernel's end on its stream (uvm.copy_after_kernel_ns,
 * copy_kernel_after_kernel_ns, memset_short_after_kernel_ns). */
struct run_cost {
	uint64_t call_ns, after_kernel_ns;
};

static struct run_cost cost_of(enum runner r)
{
	const struct cuemu_uvm *u = cuemu_uvm();

	switch (r) {
	case RUN_ENGINE:
		return (struct run_cost){ u->copy_call_ns, u->copy_after_kernel_ns };
	case RUN_KERNEL:
		return (struct run_cost){ u->copy_kernel_call_ns,
					  u->copy_kernel_after_kernel_ns };
	case RUN_SHORT:
		return (struct run_cost){ u->memset_short_call_ns,
					  u->memset_short_after_kernel_ns };
	default:
		return (struct run_cost){ 0, 0 };
	}
}

/* Advances s by op's path; a synchronous pageable copy keeps the host busy
 * staging it from the copy's start. */
static void charge(CUstream s, const struct copy_op *op)
{
	enum cuemu_path path = pick_path(op);
	uint64_t start = cuemu_stream_now(s);
	uint64_t host = op->sync ? cuemu_path_host_ns(path, op->bytes) : 0;

	/* Row by row, a copy costs its bytes on its path: the real H200
	 * moves 1 MiB as 1024 rows in the time of one 1 MiB copy
	 * (probes/results/shapelat.txt). */

	uint64_t ns = cuemu_path_cost_ns(path, op->src.proc, op->dst.proc,
					 op->bytes);

	/* A copy over a link between the GPUs that the source GPU's own
	 * stream does not carry (the destination's, or a legacy stream)
	 * waits for the other GPU (probes/results/peermig.txt) */
	if (path == CUEMU_PATH_PEER &&
	    cuemu_link(op->src.proc, op->dst.proc)->kind &&
	    (cuemu_stream_legacy(s) || cuemu_stream_device(s) != op->src.proc))
		ns += cuemu_uvm()->peer_copy_cross_ns;
	/* Queued behind a kernel, a copy engine's copy starts once the
	 * kernel's end reaches the engine, and a kernel-run one (within a
	 * GPU, a memset past the short path) after a shorter wait
	 * (probes/results/copyone.txt) */
	if (cuemu_stream_behind(s, CUEMU_END_KERNEL))
		ns += cost_of(runner_of(path, op->bytes,
					op->staged)).after_kernel_ns;

	cuemu_stream_advance(s, ns);
	if (runner_of(path, op->bytes, op->staged) == RUN_ENGINE)
		cuemu_stream_ended(s, CUEMU_END_ENGINE);
	if (host)
		cuemu_host_busy_until(start + host);
	if (path == CUEMU_PATH_PEER) {
		/* Both GPUs' memory is busy while the bytes cross: each
		 * wakes faster after it (wake.c). */
		wake_memory_busy(op->src.proc, start + ns);
		wake_memory_busy(op->dst.proc, start + ns);
	}
}

/* The bytes [p, p + span) a shaped end covers, for touching managed
 * memory: its first row to the end of its last. */
static size_t extent_of(const struct copy_op *op, size_t pitch, size_t slice)
{
	return (op->depth - 1) * slice + (op->height - 1) * pitch + op->width;
}

/* The one row loop: each row of each slice moved (or filled) by itself,
 * so the bytes between rows are never touched. */
static void move_rows(const struct copy_op *op)
{
	for (size_t z = 0; z < op->depth; z++)
		for (size_t y = 0; y < op->height; y++) {
			char *d = (char *)op->dst.p + z * op->dslice +
				  y * op->dpitch;
			const char *sp = (const char *)op->src.p +
					 z * op->sslice + y * op->spitch;

			if (op->elem)
				fill(d, op->value, op->elem,
				     op->width / op->elem);
			else
				memmove(d, sp, op->width);
		}
}

/* The ends of op in a GPU's memory passed its L2 (kept.c). */
static void copied_through_l2(const struct copy_op *op)
{
	cuemu_lock();
	if (op->dst.proc != CUEMU_PROC_HOST)
		l2_copied(op->dst.proc, op->dst.p,
			  extent_of(op, op->dpitch, op->dslice));
	if (!op->elem && op->src.proc != CUEMU_PROC_HOST)
		l2_copied(op->src.proc, op->src.p,
			  extent_of(op, op->spitch, op->sslice));
	cuemu_unlock();
}

static void copy_run(CUstream s, void *arg)
{
	struct copy_op *op = arg;
	size_t n = op->bytes;

	if (op->src.managed && !op->elem)
		cuemu_managed_touch(op->src.p, extent_of(op, op->spitch,
							 op->sslice),
				    op->src.proc, false, s);
	if (op->dst.managed)
		cuemu_managed_touch(op->dst.p, extent_of(op, op->dpitch,
							 op->dslice),
				    op->dst.proc, true, s);
	move_rows(op);
	copied_through_l2(op);
	if (op->dst.multicast)
		cuemu_mc_fanout(op->dst.p, extent_of(op, op->dpitch, op->dslice));
	charge(s, op);
	if (!op->elem)
		count_bytes(op->src.proc, op->dst.proc, n);
	free(op->staged);
	if (op->heap)
		free(op);
}

/* Whether an asynchronous copy from pageable memory is staged at the call
 * and queued, not waited for: one row into a GPU's own memory, up to
 * uvm.pageable_async_bytes. probes/results/pageable.txt (one H200): up to
 * 2 MiB the call returned while a 10 ms kernel ahead of it still ran, and
 * the GPU got the bytes as they were at the call; from 3 MiB it waited
 * for the stream. */
static bool stages(const struct copy_op *op)
{
	return op->src.pageable && !op->dst.pageable && !op->dst.managed &&
	       !op->elem && op->dst.proc != CUEMU_PROC_HOST &&
	       op->height == 1 && op->depth == 1 &&
	       op->bytes <= cuemu_uvm()->pageable_async_bytes;
}

/* Takes the source's bytes now, at the host's staging cost
 * (uvm.pageable_async_call_ns, pageable_async_gbps), and queues their DMA
 * from the staging copy at the pinned rate. */
static CUresult stage(CUstream s, const struct copy_op *op)
{
	const struct cuemu_uvm *u = cuemu_uvm();
	struct copy_op *q = malloc(sizeof *q);
	void *buf = malloc(op->bytes);
	CUresult r;

	if (!q || !buf) {
		free(q);
		free(buf);
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "out of memory");
	}
	memcpy(buf, (const void *)op->src.p, op->bytes);
	*q = *op;
	q->src.p = (uintptr_t)buf;
	q->src.pageable = false;
	q->staged = buf;
	q->heap = true;
	cuemu_host_advance(u->pageable_async_call_ns +
			   (uint64_t)((double)op->bytes / u->pageable_async_gbps));
	if ((r = cuemu_stream_enqueue(s, copy_run, q))) {
		free(buf);
		free(q);
	}
	return r;
}

/* Runs op on stream s: waits for it when sync (or when an end is
 * pageable, but for a small one staged), else queues a copy of it. */
static CUresult queue(CUstream s, struct copy_op *op, bool sync)
{
	struct copy_op *q;
	CUresult r;

	op->sync = sync;
	if (!sync && stages(op))
		return stage(s, op);
	if (sync || op->src.pageable || op->dst.pageable) {
		op->heap = false;
		return cuemu_stream_run(s, copy_run, op);
	}
	q = malloc(sizeof *q);
	if (!q)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "out of memory");
	*q = *op;
	q->heap = true;
	if ((r = cuemu_stream_enqueue(s, copy_run, q)))
		free(q);
	return r;
}

/* Whether the calling thread's copies cost it no call (a graph's launch
 * replaying its nodes). Thread-local: the replaying thread's alone. */
static __thread bool calls_unpriced;

void cuemu_copy_calls_unpriced(bool on)
{
	calls_unpriced = on;
}

/* The operation queued as the program's clock sees it (CUEMU_CLOCK=model):
 * libcuemu's CPU for it is not the program's; the call costs the calling
 * thread the H200's (cost_of) before the operation can start. */
static CUresult submit(CUstream s, struct copy_op *op, bool sync)
{
	CUresult r;

	cuemu_clock_enter();
	if (!calls_unpriced)
		cuemu_host_advance(cost_of(runner_of(pick_path(op),
						     op->bytes, false)).call_ns);
	r = queue(s, op, sync);
	cuemu_clock_leave();
	return r;
}

/* ------------------------------------------------------------ the calls */

/* One row of n bytes. */
static void flat(struct copy_op *op, size_t n)
{
	op->bytes = op->width = n;
	op->height = op->depth = 1;
	op->dpitch = op->dslice = op->spitch = op->sslice = n;
}

CUresult cuemu_copy(CUstream s, uintptr_t dst, uintptr_t src, size_t n,
		    bool dst_dev, bool src_dev, bool sync)
{
	struct copy_op op = { 0 };
	int dev = cuemu_stream_device(s);
	CUresult r;

	flat(&op, n);
	cuemu_lock();
	r = resolve(dst, n, dst_dev, true, dev, &op.dst);
	if (!r)
		r = resolve(src, n, src_dev, false, dev, &op.src);
	cuemu_unlock();
	if (r)
		return r;
	pick_touchers(&op, dev);
	return submit(s, &op, sync);
}

CUresult cuemu_memset(CUstream s, uintptr_t dst, uint32_t value,
		      unsigned elem, size_t bytes, bool sync)
{
	return cuemu_memset_shaped(s, dst, bytes, value, elem, bytes, 1, sync);
}

CUresult cuemu_memset_shaped(CUstream s, uintptr_t dst, size_t pitch,
			     uint32_t value, unsigned elem, size_t width,
			     size_t height, bool sync)
{
	struct copy_op op = { .elem = elem, .value = value, .width = width,
			      .height = height, .depth = 1, .dpitch = pitch };
	int dev = cuemu_stream_device(s);
	size_t span;
	CUresult r;

	if (__builtin_mul_overflow(height - 1, pitch, &span) ||
	    __builtin_add_overflow(span, width, &span) ||
	    __builtin_mul_overflow(width, height, &op.bytes))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%zu rows of %zu "
				  "bytes, %zu apart, overflow", height, width,
				  pitch);
	op.dslice = span;
	cuemu_lock();
	r = resolve(dst, span, true, true, dev, &op.dst);
	cuemu_unlock();
	if (r)
		return r;
	/* A memset is a kernel of the stream's GPU writing the memory. */
	op.src.proc = dev;
	if (op.dst.managed)
		op.dst.proc = op.src.proc;
	/* A kernel, so CUDA_LAUNCH_BLOCKING=1 makes it return once done. */
	return submit(s, &op, sync || cuemu_launch_blocking());
}

/* ------------------------------------------------------------ shaped ends */

/* An array end: its bytes at (x, y, z) for a box of w x h x d, within the
 * array; rows and slices are the array's own. Lock held. */
static CUresult resolve_array(const struct cuemu_shape_end *e, size_t w,
			      size_t h, size_t d, struct end *out,
			      size_t *pitch, size_t *slice)
{
	struct cuemu_array *a = cuemu_array_find(e->array);

	memset(out, 0, sizeof *out);
	if (!a)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%p is no array",
				  (void *)e->array);
	if (!a->mem)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "array %p has no "
				  "memory of its own (sparse or deferred "
				  "mapping)", (void *)e->array);
	if (e->x > a->row_bytes || w > a->row_bytes - e->x ||
	    e->y > a->rows || h > a->rows - e->y ||
	    e->z > a->slices || d > a->slices - e->z)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "a box of %zu "
				  "bytes x %zu x %zu at (%zu, %zu, %zu) runs "
				  "past array %p (rows of %zu bytes, %zu "
				  "rows, %zu slices)", w, h, d, e->x, e->y,
				  e->z, (void *)e->array, a->row_bytes,
				  a->rows, a->slices);
	*pitch = a->row_bytes;
	*slice = a->row_bytes * a->rows;
	out->p = (uintptr_t)a->mem + e->z * *slice + e->y * *pitch + e->x;
	out->proc = a->device;
	return CUDA_SUCCESS;
}

/* A pointer end: (x, y, z) from p in rows of pitch and slices of
 * e->height rows, the whole box inside one allocation. Lock held. */
static CUresult resolve_ptr(const struct cuemu_shape_end *e, size_t w,
			    size_t h, size_t d, bool write, int dev,
			    struct end *out, size_t *pitch, size_t *slice)
{
	size_t start, span, t;

	if (!e->p)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "a NULL %s end",
				  write ? "destination" : "source");
	if (__builtin_mul_overflow(e->pitch, e->height, slice) ||
	    __builtin_mul_overflow(e->z, *slice, &start) ||
	    __builtin_mul_overflow(e->y, e->pitch, &t) ||
	    __builtin_add_overflow(start, t, &start) ||
	    __builtin_add_overflow(start, e->x, &start) ||
	    __builtin_add_overflow(start, e->p, &start) ||
	    __builtin_mul_overflow(d - 1, *slice, &span) ||
	    __builtin_mul_overflow(h - 1, e->pitch, &t) ||
	    __builtin_add_overflow(span, t, &span) ||
	    __builtin_add_overflow(span, w, &span))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "the box at "
				  "(%zu, %zu, %zu) with pitch %zu overflows",
				  e->x, e->y, e->z, e->pitch);
	*pitch = e->pitch;
	return resolve(start, span, e->dev_side, write, dev, out);
}

static CUresult resolve_shaped(const struct cuemu_shape_end *e, size_t w,
			       size_t h, size_t d, bool write, int dev,
			       struct end *out, size_t *pitch, size_t *slice)
{
	if (e->is_array)
		return resolve_array(e, w, h, d, out, pitch, slice);
	return resolve_ptr(e, w, h, d, write, dev, out, pitch, slice);
}

/* Resolves a shaped copy into op (lock held). */
static CUresult prepare_shaped(const struct cuemu_shape_copy *c, int dev,
			       struct copy_op *op)
{
	CUresult r;

	memset(op, 0, sizeof *op);
	op->width = c->width;
	op->height = c->height;
	op->depth = c->depth;
	if (__builtin_mul_overflow(c->width, c->height, &op->bytes) ||
	    __builtin_mul_overflow(op->bytes, c->depth, &op->bytes))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "a box of %zu x "
				  "%zu x %zu bytes overflows", c->width,
				  c->height, c->depth);
	r = resolve_shaped(&c->dst, c->width, c->height, c->depth, true, dev,
			   &op->dst, &op->dpitch, &op->dslice);
	if (!r)
		r = resolve_shaped(&c->src, c->width, c->height, c->depth,
				   false, dev, &op->src, &op->spitch,
				   &op->sslice);
	if (!r)
		pick_touchers(op, dev);
	return r;
}

CUresult cuemu_copy_shaped(CUstream s, const struct cuemu_shape_end *dst,
			   const struct cuemu_shape_end *src, size_t width,
			   size_t height, size_t depth, bool sync)
{
	struct cuemu_shape_copy c = { *dst, *src, width, height, depth };
	struct copy_op op;
	CUresult r;

	cuemu_lock();
	r = prepare_shaped(&c, cuemu_stream_device(s), &op);
	cuemu_unlock();
	return r ? r : submit(s, &op, sync);
}

CUresult cuemu_copy_shaped_batch(CUstream s, const struct cuemu_shape_copy *c,
				 size_t n, size_t *failed)
{
	int dev = cuemu_stream_device(s);
	struct copy_op *ops = calloc(n, sizeof *ops);
	CUresult r = CUDA_SUCCESS;
	size_t i;

	if (!ops)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "out of memory");
	cuemu_lock();
	for (i = 0; i < n && !r; i++)
		if ((r = prepare_shaped(&c[i], dev, &ops[i])))
			*failed = i;
	cuemu_unlock();
	/* Every copy was checked before the first is queued: a refused
	 * batch copies nothing. */
	for (i = 0; i < n && !r; i++)
		r = submit(s, &ops[i], false);
	free(ops);
	return r;
}
