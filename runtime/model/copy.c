/*
 * copy.c - a copy or a memset as an operation on a stream: where each end
 * lives, touching managed ends, moving the bytes, and the time it takes.
 * The driver entries (driver/copy.c) check the arguments and the stream
 * and call cuemu_copy or cuemu_memset.
 *
 * A copy runs on the stream's worker in stream order, moves the bytes for
 * real, and advances the stream's model clock by the cost of its path
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
 * move; the copy itself is then local to that processor. An asynchronous copy with a pageable end waits all the same,
 * as the real driver stages pageable memory before it returns, so the
 * caller may reuse its buffer at once.
 *
 * Locking: ends are resolved under cuemu_lock() when the call is made; the
 * operation touches user memory with no lock held (managed memory may fault
 * into fault.c, which takes the process lock).
 */
#include "model/internal.h"
#include "model/vmm.h"
#include "model/multicast.h"
#include "model/copy.h"

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

struct copy_op {
	struct end dst, src;
	size_t bytes;
	unsigned elem;    /* memset: element size (1, 2, 4); 0 for a copy */
	uint32_t value;   /* memset: the element */
	bool heap;        /* freed by the operation */
	bool sync;        /* the caller waits for it */
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

/* Advances s by op's path; a synchronous pageable copy keeps the host busy
 * staging it from the copy's start. */
static void charge(CUstream s, const struct copy_op *op)
{
	enum cuemu_path path = pick_path(op);
	uint64_t start = cuemu_stream_now(s);
	uint64_t host = op->sync ? cuemu_path_host_ns(path, op->bytes) : 0;

	cuemu_stream_advance(s, cuemu_path_cost_ns(path, op->src.proc,
						   op->dst.proc, op->bytes));
	if (host)
		cuemu_host_busy_until(start + host);
}

static void copy_run(CUstream s, void *arg)
{
	struct copy_op *op = arg;
	size_t n = op->bytes;

	if (op->src.managed && !op->elem)
		cuemu_managed_touch(op->src.p, n, op->src.proc, false, s);
	if (op->dst.managed)
		cuemu_managed_touch(op->dst.p, n, op->dst.proc, true, s);
	if (op->elem)
		fill((void *)op->dst.p, op->value, op->elem,
		     op->bytes / op->elem);
	else
		memmove((void *)op->dst.p, (const void *)op->src.p, n);
	if (op->dst.multicast)
		cuemu_mc_fanout(op->dst.p, n);
	charge(s, op);
	if (!op->elem)
		count_bytes(op->src.proc, op->dst.proc, n);
	if (op->heap)
		free(op);
}

/* Runs op on stream s: waits for it when sync (or when an end is
 * pageable), else queues a copy of it. */
static CUresult submit(CUstream s, struct copy_op *op, bool sync)
{
	struct copy_op *q;
	CUresult r;

	op->sync = sync;
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

/* ------------------------------------------------------------ the calls */

CUresult cuemu_copy(CUstream s, uintptr_t dst, uintptr_t src, size_t n,
		    bool dst_dev, bool src_dev, bool sync)
{
	struct copy_op op = { .bytes = n };
	int dev = cuemu_stream_device(s);
	CUresult r;

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
	struct copy_op op = { .bytes = bytes, .elem = elem, .value = value };
	int dev = cuemu_stream_device(s);
	CUresult r;

	cuemu_lock();
	r = resolve(dst, bytes, true, true, dev, &op.dst);
	cuemu_unlock();
	if (r)
		return r;
	/* A memset is a kernel of the stream's GPU writing the memory. */
	op.src.proc = dev;
	if (op.dst.managed)
		op.dst.proc = op.src.proc;
	return submit(s, &op, sync);
}
