/*
 * memory.c - the life of device, pinned host and registered host memory:
 * making a struct cuemu_alloc and publishing it in the address map, the
 * device mapping and its charge on the machine, the pitch of a 2D
 * allocation, pinned memory bound near its device, registration records and
 * their overlap rules, and giving each back. The driver
 * entries (driver/memory.c) check the arguments and call these.
 *
 * Memory is real. Device memory lies in the process's device memory file
 * of its device (a sparse memfd, model/ipc.c, so that a legacy IPC handle
 * can name it; populated when touched), placed by model/devheap.c as the
 * real driver places it: under 2 MiB packed 512 B apart into shared 2 MiB
 * blocks, larger on a mapping of its own, 2 MiB aligned. It is charged
 * against its device's capacity in the machine segment, so that
 * cuMemGetInfo in any process sees it. The charge is the request rounded
 * up to the host page (cuemu_devmem_charge), packed or not: it keeps a
 * million small allocations inside a device (the real driver's 2 MiB
 * blocks would charge more for a few and less for many). Pinned host memory is an anonymous mapping bound
 * to the NUMA node of the current device, locked when the system allows it.
 * Registration records a caller's range; it neither copies nor moves it.
 *
 * Locking: the address map and every struct cuemu_alloc are guarded by
 * cuemu_lock(). mmap, munmap, mlock and NUMA binding run outside it (they
 * can be slow and take no lock of ours); the machine charge is taken before
 * the lock and given back after it. Frees first wait for every stream of
 * the process, as the real cuMemFree does, so that no queued copy touches
 * memory that is gone.
 */
#include "model/internal.h"
#include "model/pool.h"
#include "model/vmm.h"
#include "model/ipc.h"

#include <errno.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* cuMemAllocPitch's pitch alignment on Hopper (textureAlignment). */
#define PITCH_ALIGN 512UL

const char *cuemu_alloc_device_str(const struct cuemu_alloc *a, char *buf,
				   size_t len)
{
	int dev = a->device;

	return cuemu_proc_str(dev >= 0 && dev < CUEMU_MAX_DEVICES ?
			      dev : CUEMU_PROC_HOST, buf, len);
}

static void log_alloc(const char *what, const struct cuemu_alloc *a)
{
	char w[16];

	cuemu_event_log(what, "id=%llu kind=%s size=%zu device=%s",
			(unsigned long long)a->id, cuemu_kind_names[a->kind],
			a->size, cuemu_alloc_device_str(a, w, sizeof w));
}

static struct cuemu_alloc *new_alloc(enum cuemu_kind kind, uintptr_t base,
				     size_t size, size_t span, int dev,
				     unsigned flags, CUcontext ctx)
{
	struct cuemu_alloc *a = calloc(1, sizeof *a);

	if (!a)
		return NULL;
	a->kind = kind;
	a->base = base;
	a->size = size;
	a->span = span;
	a->device = dev;
	a->flags = flags;
	a->ctx = ctx;
	a->id = cuemu_next_id();
	return a;
}

/* Device memory that could not be mapped. Small allocations share
 * blocks, but each large one and each block is a mapping, so a process
 * with tens of thousands of large ones meets the kernel's limit on
 * mappings (vm.max_map_count) first: say so, since nothing else about the
 * failure would tell. */
static CUresult map_failure(size_t span, int err)
{
	long max = -1;
	FILE *f;

	if (err != ENOMEM)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "cannot map %zu "
				  "bytes: %s", span, strerror(err));
	if ((f = fopen("/proc/sys/vm/max_map_count", "re"))) {
		if (fscanf(f, "%ld", &max) != 1)
			max = -1;
		fclose(f);
	}
	return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "cannot map %zu bytes: "
			  "out of mappings? each allocation of 2 MiB or more is "
			  "one, "
			  "and the kernel allows a process vm.max_map_count "
			  "(%ld)",
			  span, max);
}

/* Inserts a fresh allocation into the map. Fails only when a registration
 * of memory the caller has since unmapped still claims the address. */
static CUresult publish(struct cuemu_alloc *a)
{
	int rc;

	cuemu_lock();
	rc = cuemu_va_insert(a);
	cuemu_unlock();
	if (rc)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "address %#lx is still claimed by a stale "
				  "registration", (unsigned long)a->base);
	log_alloc("alloc", a);
	return CUDA_SUCCESS;
}

/* Takes a device or host allocation out of the map and gives it back. The
 * caller has checked kind and base under the lock and still holds it. */
static void release_locked(struct cuemu_alloc *a)
{
	cuemu_va_remove(a);
	cuemu_unlock();
	log_alloc("free", a);
	if (a->kind == CUEMU_KIND_HOST)
		munmap((void *)a->base, a->span);
	if (a->kind == CUEMU_KIND_DEVICE) {
		size_t charge = cuemu_devmem_charge(a->size);

		if (cuemu_devmem_release(a))
			cuemu_mem_uncharge_part(a->device, charge, false, true);
		else
			cuemu_mem_uncharge(a->device, charge);
	}
	free(a);
}

/* ---------------------------------------------------------------- device */

CUresult cuemu_device_alloc(CUcontext ctx, int dev, size_t size,
			    CUdeviceptr *dptr)
{
	size_t charge = cuemu_devmem_charge(size);
	struct cuemu_alloc *a;
	uint32_t epoch = 0;
	uint64_t off = 0;
	bool charged;
	CUresult r;
	int map_errno = ENOMEM;
	void *p = NULL;

	cuemu_lock();
	charged = charge >= size && cuemu_mem_charge_evicting(dev, charge);
	cuemu_unlock();
	if (!charged)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "%zu bytes do not fit in gpu%d (%llu of "
				  "%llu used)", size, dev,
				  (unsigned long long)cuemu_mem_used(dev),
				  (unsigned long long)cuemu_device(dev)->total);
	if (cuemu_devmem_map(dev, size, &p, &off, &epoch) < 0) {
		p = NULL;
		map_errno = errno;
	}
	a = p ? new_alloc(CUEMU_KIND_DEVICE, (uintptr_t)p, size,
			  cuemu_devheap_span(size), dev, 0, ctx) : NULL;
	if (a) {
		a->file_off = off;
		a->file_epoch = epoch;
	}
	if (!a || (r = publish(a))) {
		if (a)
			cuemu_devheap_free(a, true, false);
		cuemu_mem_uncharge(dev, charge);
		free(a);
		return a ? r : map_failure(charge, map_errno);
	}
	*dptr = (CUdeviceptr)a->base;
	return CUDA_SUCCESS;
}

CUresult cuemu_pitch_layout(size_t width, size_t height, size_t *pitch,
			    size_t *total)
{
	size_t p = CUEMU_ALIGN_UP(width, PITCH_ALIGN);

	if (p < width || __builtin_mul_overflow(p, height, total))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "%zu rows of %zu bytes overflow", height, p);
	*pitch = p;
	return CUDA_SUCCESS;
}

CUresult cuemu_device_free(uintptr_t p)
{
	struct cuemu_alloc *a;
	CUresult r;

	/* The real cuMemFree synchronizes: queued copies may use the memory. */
	if ((r = cuemu_sync_all()))
		return r;
	cuemu_lock();
	a = cuemu_va_find(p);
	if (!a || a->base != p || a->kind == CUEMU_KIND_HOST ||
	    a->kind == CUEMU_KIND_REGISTERED ||
	    a->kind == CUEMU_KIND_RESERVATION || a->kind == CUEMU_KIND_IPC) {
		cuemu_unlock();
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%#llx is not the start of a device "
				  "allocation", (unsigned long long)p);
	}
	/* Managed memory and pool blocks have free paths of their own; a
	 * managed pool's block is both, and goes back to its pool. */
	if (a->kind == CUEMU_KIND_MANAGED && !cuemu_pool_of(a)) {
		cuemu_unlock();
		return cuemu_managed_free(a);
	}
	if (a->kind == CUEMU_KIND_POOL || a->kind == CUEMU_KIND_MANAGED) {
		cuemu_unlock();
		return cuemu_pool_free_now(a);
	}
	release_locked(a);
	return CUDA_SUCCESS;
}

/* ---------------------------------------------------------------- pinned */

/* Pinned memory lives near the device that allocated it. */
static void bind_near(void *p, size_t len, int dev)
{
	const struct cuemu_device_info *d = cuemu_device(dev);

	if (d && d->numa_node >= 0 && numa_available() >= 0 &&
	    cuemu_numa_valid(d->numa_node))
		numa_tonode_memory(p, len, d->numa_node);
}

CUresult cuemu_host_alloc(CUcontext ctx, int dev, size_t size,
			  unsigned flags, void **pp)
{
	size_t span = CUEMU_ALIGN_UP(size, CUEMU_PAGE);
	struct cuemu_alloc *a;
	CUresult r;
	void *p;

	if (span < size)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "size overflows");
	p = mmap(NULL, span, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "cannot map %zu bytes: %s", span,
				  strerror(errno));
	bind_near(p, span, dev);
	/* Page-locked when the limits allow; ordinary memory otherwise. */
	(void)mlock(p, span);
	a = new_alloc(CUEMU_KIND_HOST, (uintptr_t)p, size, span, dev, flags,
		      ctx);
	if (!a || (r = publish(a))) {
		munmap(p, span);
		free(a);
		return a ? r : cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
					  "out of host memory");
	}
	*pp = p;
	return CUDA_SUCCESS;
}

CUresult cuemu_host_free(void *p)
{
	struct cuemu_alloc *a;
	CUresult r;

	if ((r = cuemu_sync_all()))
		return r;
	cuemu_lock();
	a = cuemu_va_find((uintptr_t)p);
	if (!a || a->kind != CUEMU_KIND_HOST || a->base != (uintptr_t)p) {
		cuemu_unlock();
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%p is not the start of a pinned host "
				  "allocation", p);
	}
	release_locked(a);
	return CUDA_SUCCESS;
}

struct cuemu_alloc *cuemu_host_entry(uintptr_t p)
{
	struct cuemu_alloc *a = cuemu_va_find(p);

	if (a && (a->kind == CUEMU_KIND_HOST ||
		  a->kind == CUEMU_KIND_REGISTERED) && p < a->base + a->size)
		return a;
	return NULL;
}

/* --------------------------------------------------------------- register */

/* Refuses a range that overlaps another registration (ALREADY_REGISTERED)
 * or any other memory of ours (INVALID_VALUE). Ranges are byte exact, as
 * the driver's are: two registrations may share a page. Lock held. */
static CUresult check_register_overlap(uintptr_t p, size_t size)
{
	struct cuemu_alloc *a = cuemu_va_overlap(p, size);

	if (!a)
		return CUDA_SUCCESS;
	if (a->kind == CUEMU_KIND_REGISTERED)
		return cuemu_fail(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
				  "[%#lx, %#lx) overlaps registration %llu",
				  (unsigned long)p, (unsigned long)(p + size),
				  (unsigned long long)a->id);
	return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			  "[%#lx, %#lx) overlaps %s allocation %llu",
			  (unsigned long)p, (unsigned long)(p + size),
			  cuemu_kind_names[a->kind], (unsigned long long)a->id);
}

/* The driver pins the pages for the device to write, so they must be
 * there. /proc/self/maps is read once a registration, which is as slow a
 * call on the real driver. */
bool cuemu_host_range_usable(uintptr_t lo, uintptr_t hi, bool read_only)
{
	FILE *f = fopen("/proc/self/maps", "re");
	unsigned long s, e;
	char perms[8];
	bool ok = false;

	if (!f)
		return true; /* no /proc: trust the caller */
	while (fscanf(f, "%lx-%lx %7s%*[^\n]", &s, &e, perms) == 3) {
		if (e <= lo)
			continue;
		if (s > lo || (!read_only && perms[1] != 'w'))
			break;
		lo = e;
		if (lo >= hi) {
			ok = true;
			break;
		}
	}
	fclose(f);
	return ok;
}

CUresult cuemu_host_register(CUcontext ctx, int dev, uintptr_t p,
			     size_t size, unsigned flags)
{
	struct cuemu_alloc *a;
	CUresult r;

	a = new_alloc(CUEMU_KIND_REGISTERED, p, size, size, dev, flags, ctx);
	if (!a)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "out of host memory");
	cuemu_lock();
	r = check_register_overlap(p, size);
	if (!r && cuemu_va_insert(a))
		r = cuemu_fail(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
			       "%p is already registered", (void *)p);
	cuemu_unlock();
	if (r) {
		free(a);
		return r;
	}
	log_alloc("alloc", a);
	return CUDA_SUCCESS;
}

CUresult cuemu_host_unregister(uintptr_t p)
{
	struct cuemu_alloc *a;
	CUresult r;

	if ((r = cuemu_sync_all()))
		return r;
	cuemu_lock();
	a = cuemu_va_find(p);
	if (!a) {
		cuemu_unlock();
		return cuemu_fail(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED,
				  "%p is not registered", (void *)p);
	}
	if (a->kind != CUEMU_KIND_REGISTERED) {
		cuemu_unlock();
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%p is %s memory, not a registration",
				  (void *)p, cuemu_kind_names[a->kind]);
	}
	if (a->base != p) {
		cuemu_unlock();
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%p is inside the registration at %#lx; "
				  "unregister that address", (void *)p,
				  (unsigned long)a->base);
	}
	release_locked(a);
	return CUDA_SUCCESS;
}

/* ------------------------------------------------------------ queries */

bool cuemu_address_range(uintptr_t p, int dev, uintptr_t *base,
			 size_t *size)
{
	struct cuemu_alloc *a = cuemu_va_find(p);
	struct cuemu_map_info mi;

	*base = 0;
	*size = 0;
	if (a && a->kind == CUEMU_KIND_RESERVATION) {
		/* A reservation answers with the mapping that covers p. */
		if (!cuemu_vmm_lookup(p, dev, &mi))
			return false;
		*base = mi.map_base;
		*size = mi.map_size;
		return true;
	}
	/* The driver answers SUCCESS and an empty range for user memory it
	 * has only registered (probed on H100, CUDA 13). */
	if (a && a->kind == CUEMU_KIND_REGISTERED)
		return true;
	if (a && p < a->base + a->size) {
		*base = a->base;
		*size = a->size;
		return true;
	}
	return false;
}

bool cuemu_alloc_set_label(uintptr_t p, const char *label)
{
	struct cuemu_alloc *a = cuemu_va_find(p);

	/* A reservation is address space, not memory: it has no label. */
	if (!a || a->kind == CUEMU_KIND_RESERVATION ||
	    cuemu_va_check_expected(a) != CUDA_SUCCESS)
		return false;
	snprintf(a->label, sizeof a->label, "%.*s",
		 (int)strcspn(label, "\n"), label);
	cuemu_obj_changed(a->id);
	return true;
}

/* ------------------------------------------------- a context's memory */

/*
 * Frees every device, pinned, registered and managed allocation made in
 * ctx, as resetting a primary context does: the addresses are gathered
 * under the lock, then each goes through its own free path (which takes
 * the lock itself and synchronizes as that path does). Pool blocks and
 * VMM mappings belong to pools and reservations, which outlive the reset
 * here. Returns how many allocations went.
 */
size_t cuemu_ctx_free_memory(CUcontext ctx)
{
	struct cuemu_alloc *a;
	struct { uintptr_t base; enum cuemu_kind kind; } *v = NULL, *nv;
	size_t n = 0, cap = 0, freed = 0;

	cuemu_lock();
	for (a = cuemu_va_first(); a; a = cuemu_va_next(a)) {
		if (a->ctx != ctx || (a->kind != CUEMU_KIND_DEVICE &&
		    a->kind != CUEMU_KIND_HOST &&
		    a->kind != CUEMU_KIND_REGISTERED &&
		    a->kind != CUEMU_KIND_MANAGED))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			if (!(nv = realloc(v, cap * sizeof *v)))
				break;	/* what was gathered still goes */
			v = nv;
		}
		v[n].base = a->base;
		v[n++].kind = a->kind;
	}
	cuemu_unlock();
	for (size_t i = 0; i < n; i++) {
		CUresult r;

		if (v[i].kind == CUEMU_KIND_HOST)
			r = cuemu_host_free((void *)v[i].base);
		else if (v[i].kind == CUEMU_KIND_REGISTERED)
			r = cuemu_host_unregister(v[i].base);
		else
			r = cuemu_device_free(v[i].base);
		freed += r == CUDA_SUCCESS;
	}
	free(v);
	return freed;
}
