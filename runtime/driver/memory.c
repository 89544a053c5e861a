/*
 * memory.c - device, pinned host and registered host memory: cuMemAlloc,
 * cuMemAllocPitch, cuMemFree, cuMemAllocHost, cuMemHostAlloc,
 * cuMemFreeHost, cuMemHostGetFlags, cuMemHostGetDevicePointer,
 * cuMemHostRegister/Unregister, cuMemGetAddressRange, cuMemGetInfo,
 * cuemuSetLabel and the /cu "allocations" class.
 *
 * Memory is real. Device memory is one anonymous mapping per allocation
 * (MAP_NORESERVE, populated when touched), charged against its device's
 * capacity in the machine segment, so that cuMemGetInfo in any process sees
 * it. The charge is the mapping's size, the request rounded up to the host
 * page: that is what the process can touch, and it keeps a hundred thousand
 * small allocations inside a device (the real driver's 2 MiB sub-allocation
 * granularity would not). Pinned host memory is an anonymous mapping bound
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

#include <ctype.h>
#include <errno.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* cuMemAllocPitch's pitch alignment on Hopper (textureAlignment). */
#define PITCH_ALIGN 512UL

#define HOSTALLOC_FLAGS                                                       \
	(CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP |               \
	 CU_MEMHOSTALLOC_WRITECOMBINED)
#define REGISTER_FLAGS                                                        \
	(CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP |         \
	 CU_MEMHOSTREGISTER_IOMEMORY | CU_MEMHOSTREGISTER_READ_ONLY)

static const char *dev_word(int dev, char *buf, size_t len)
{
	return cuemu_proc_str(dev >= 0 && dev < CUEMU_MAX_DEVICES ?
			      dev : CUEMU_PROC_HOST, buf, len);
}

static void log_alloc(const char *what, const struct cuemu_alloc *a)
{
	char w[16];

	cuemu_event_log(what, "id=%llu kind=%s size=%zu device=%s",
			(unsigned long long)a->id, cuemu_kind_names[a->kind],
			a->size, dev_word(a->device, w, sizeof w));
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

/* ---------------------------------------------------------------- device */

static CUresult device_alloc(CUdeviceptr *dptr, size_t size, unsigned flags)
{
	struct cuemu_alloc *a;
	CUcontext ctx;
	bool charged;
	size_t span;
	CUresult r;
	void *p;
	int dev;

	if ((r = cuemu_current(&ctx, &dev)))
		return r;
	if (!dptr)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "dptr is NULL");
	if (size == 0)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "size is 0");
	span = CUEMU_ALIGN_UP(size, CUEMU_PAGE);
	cuemu_lock();
	charged = span >= size && cuemu_mem_charge_evicting(dev, span);
	cuemu_unlock();
	if (!charged)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "%zu bytes do not fit in gpu%d (%llu of "
				  "%llu used)", size, dev,
				  (unsigned long long)cuemu_mem_used(dev),
				  (unsigned long long)cuemu_device(dev)->total);
	p = mmap(NULL, span, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	a = p == MAP_FAILED ? NULL :
		new_alloc(CUEMU_KIND_DEVICE, (uintptr_t)p, size, span, dev,
			  flags, ctx);
	if (!a || (r = publish(a))) {
		if (p != MAP_FAILED)
			munmap(p, span);
		cuemu_mem_uncharge(dev, span);
		free(a);
		return a ? r : cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
					  "cannot map %zu bytes: %s", span,
					  strerror(errno));
	}
	*dptr = (CUdeviceptr)a->base;
	return CUDA_SUCCESS;
}

CUresult cuMemAlloc(CUdeviceptr *dptr, size_t bytesize)
{
	return device_alloc(dptr, bytesize, 0);
}

static CUresult pitch_alloc(CUdeviceptr *dptr, size_t *pitch, size_t width,
			    size_t height)
{
	size_t p, total;
	CUresult r;

	if (!dptr || !pitch)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "dptr or pPitch is NULL");
	if (width == 0 || height == 0)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "width and height must not be 0");
	p = CUEMU_ALIGN_UP(width, PITCH_ALIGN);
	if (p < width || __builtin_mul_overflow(p, height, &total))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "%zu rows of %zu bytes overflow", height, p);
	if ((r = device_alloc(dptr, total, 0)))
		return r;
	*pitch = p;
	return CUDA_SUCCESS;
}

CUresult cuMemAllocPitch(CUdeviceptr *dptr, size_t *pPitch,
			 size_t WidthInBytes, size_t Height,
			 unsigned int ElementSizeBytes)
{
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)))
		return r;
	if (ElementSizeBytes != 4 && ElementSizeBytes != 8 &&
	    ElementSizeBytes != 16)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "ElementSizeBytes %u is not 4, 8 or 16",
				  ElementSizeBytes);
	return pitch_alloc(dptr, pPitch, WidthInBytes, Height);
}

/* Takes a device or host allocation out of the map and gives it back. The
 * caller has checked kind and base under the lock and still holds it. */
static void release_locked(struct cuemu_alloc *a)
{
	cuemu_va_remove(a);
	cuemu_unlock();
	log_alloc("free", a);
	if (a->kind == CUEMU_KIND_DEVICE || a->kind == CUEMU_KIND_HOST)
		munmap((void *)a->base, a->span);
	if (a->kind == CUEMU_KIND_DEVICE)
		cuemu_mem_uncharge(a->device, a->span);
	free(a);
}

CUresult cuMemFree(CUdeviceptr dptr)
{
	struct cuemu_alloc *a;
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)))
		return r;
	if (dptr == 0)
		return CUDA_SUCCESS;
	/* The real cuMemFree synchronizes: queued copies may use the memory. */
	if ((r = cuemu_sync_all()))
		return r;
	cuemu_lock();
	a = cuemu_va_find(dptr);
	if (!a || a->base != dptr || a->kind == CUEMU_KIND_HOST ||
	    a->kind == CUEMU_KIND_REGISTERED ||
	    a->kind == CUEMU_KIND_RESERVATION) {
		cuemu_unlock();
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%#llx is not the start of a device "
				  "allocation", (unsigned long long)dptr);
	}
	if (a->kind == CUEMU_KIND_MANAGED) {
		cuemu_unlock();
		return cuemu_managed_free(a);
	}
	if (a->kind == CUEMU_KIND_POOL) {
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

/* null0: a zero-byte request answers NULL (cuMemHostAlloc) or leaves *pp
 * as it was (cuMemAllocHost), as the real driver does. */
static CUresult host_alloc(void **pp, size_t size, unsigned flags, bool null0)
{
	struct cuemu_alloc *a;
	CUcontext ctx;
	size_t span;
	CUresult r;
	void *p;
	int dev;

	if ((r = cuemu_current(&ctx, &dev)))
		return r;
	if (!pp)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "pp is NULL");
	if (flags & ~HOSTALLOC_FLAGS)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "unknown flags %#x", flags & ~HOSTALLOC_FLAGS);
	if (size == 0) {
		if (null0)
			*pp = NULL;
		return CUDA_SUCCESS;
	}
	span = CUEMU_ALIGN_UP(size, CUEMU_PAGE);
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

CUresult cuMemAllocHost(void **pp, size_t bytesize)
{
	return host_alloc(pp, bytesize, 0, false);
}

CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
{
	return host_alloc(pp, bytesize, Flags, true);
}

CUresult cuMemFreeHost(void *p)
{
	struct cuemu_alloc *a;
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)))
		return r;
	if (!p)
		return CUDA_SUCCESS;
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

/* The host or registered entry containing p, lock held; NULL otherwise. */
static struct cuemu_alloc *host_entry(uintptr_t p)
{
	struct cuemu_alloc *a = cuemu_va_find(p);

	if (a && (a->kind == CUEMU_KIND_HOST ||
		  a->kind == CUEMU_KIND_REGISTERED) && p < a->base + a->size)
		return a;
	return NULL;
}

CUresult cuMemHostGetFlags(unsigned int *pFlags, void *p)
{
	struct cuemu_alloc *a;
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)))
		return r;
	if (!pFlags)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "pFlags is NULL");
	cuemu_lock();
	a = host_entry((uintptr_t)p);
	/* Every pinned range is mapped under unified addressing; a
	 * registration reports only PORTABLE of its own flags. */
	if (a)
		*pFlags = CU_MEMHOSTALLOC_DEVICEMAP |
			  (a->kind == CUEMU_KIND_HOST ? a->flags :
			   a->flags & CU_MEMHOSTREGISTER_PORTABLE);
	cuemu_unlock();
	if (!a)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%p is not pinned or registered host memory",
				  p);
	return CUDA_SUCCESS;
}

CUresult cuMemHostGetDevicePointer(CUdeviceptr *pdptr, void *p,
				   unsigned int Flags)
{
	struct cuemu_alloc *a;
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)))
		return r;
	if (!pdptr)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "pdptr is NULL");
	if (Flags != 0)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "Flags must be 0, not %#x", Flags);
	cuemu_lock();
	a = host_entry((uintptr_t)p);
	cuemu_unlock();
	if (!a)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%p is not pinned or registered host memory",
				  p);
	/* Unified addressing: the device sees the host address. */
	*pdptr = (CUdeviceptr)(uintptr_t)p;
	return CUDA_SUCCESS;
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

/* Every page of [lo, hi) is mapped, and writable unless read_only: the
 * driver pins the pages for the device to write. /proc/self/maps is read
 * once a registration, which is as slow a call on the real driver. */
static bool range_usable(uintptr_t lo, uintptr_t hi, bool read_only)
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

CUresult cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags)
{
	uintptr_t base = (uintptr_t)p, lo, hi;
	struct cuemu_alloc *a;
	CUcontext ctx;
	CUresult r;
	int dev;

	if ((r = cuemu_current(&ctx, &dev)))
		return r;
	if (!p || bytesize == 0)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "p is NULL or bytesize is 0");
	if (Flags & ~REGISTER_FLAGS)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "unknown flags %#x", Flags & ~REGISTER_FLAGS);
	if (base + bytesize < base)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "range wraps the address space");
	lo = CUEMU_ALIGN_DOWN(base, CUEMU_PAGE);
	hi = CUEMU_ALIGN_UP(base + bytesize, CUEMU_PAGE);
	if (!range_usable(lo, hi, Flags & CU_MEMHOSTREGISTER_READ_ONLY))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "[%p, +%zu) is not mapped%s memory", p,
				  bytesize, Flags & CU_MEMHOSTREGISTER_READ_ONLY ?
				  "" : ", writable");
	if (Flags & CU_MEMHOSTREGISTER_IOMEMORY)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%p is ordinary memory, not I/O memory", p);
	a = new_alloc(CUEMU_KIND_REGISTERED, base, bytesize, bytesize, dev,
		      Flags, ctx);
	if (!a)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "out of host memory");
	cuemu_lock();
	r = check_register_overlap(base, bytesize);
	if (!r && cuemu_va_insert(a))
		r = cuemu_fail(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
			       "%p is already registered", p);
	cuemu_unlock();
	if (r) {
		free(a);
		return r;
	}
	log_alloc("alloc", a);
	return CUDA_SUCCESS;
}

CUresult cuMemHostUnregister(void *p)
{
	struct cuemu_alloc *a;
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)))
		return r;
	if (!p)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "p is NULL");
	if ((r = cuemu_sync_all()))
		return r;
	cuemu_lock();
	a = cuemu_va_find((uintptr_t)p);
	if (!a) {
		cuemu_unlock();
		return cuemu_fail(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED,
				  "%p is not registered", p);
	}
	if (a->kind != CUEMU_KIND_REGISTERED) {
		cuemu_unlock();
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%p is %s memory, not a registration", p,
				  cuemu_kind_names[a->kind]);
	}
	if (a->base != (uintptr_t)p) {
		cuemu_unlock();
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%p is inside the registration at %#lx; "
				  "unregister that address", p,
				  (unsigned long)a->base);
	}
	release_locked(a);
	return CUDA_SUCCESS;
}

/* ------------------------------------------------------------ queries */

CUresult cuMemGetAddressRange(CUdeviceptr *pbase, size_t *psize,
			      CUdeviceptr dptr)
{
	struct cuemu_map_info mi;
	struct cuemu_alloc *a;
	uintptr_t base = 0;
	size_t size = 0;
	CUresult r;
	int dev;

	if ((r = cuemu_current(NULL, &dev)))
		return r;
	cuemu_lock();
	a = cuemu_va_find(dptr);
	if (a && a->kind == CUEMU_KIND_RESERVATION) {
		/* A reservation answers with the mapping that covers dptr. */
		if (cuemu_vmm_lookup(dptr, dev, &mi)) {
			base = mi.map_base;
			size = mi.map_size;
		} else {
			a = NULL;
		}
	} else if (a && a->kind == CUEMU_KIND_REGISTERED) {
		/* The driver answers SUCCESS and an empty range for user
		 * memory it has only registered (probed on H100, CUDA 13). */
	} else if (a && dptr < a->base + a->size) {
		base = a->base;
		size = a->size;
	} else {
		a = NULL;
	}
	cuemu_unlock();
	if (!a)
		return cuemu_fail(CUDA_ERROR_NOT_FOUND,
				  "%#llx is in no allocation",
				  (unsigned long long)dptr);
	if (pbase)
		*pbase = (CUdeviceptr)base;
	if (psize)
		*psize = size;
	return CUDA_SUCCESS;
}

CUresult cuMemGetInfo(size_t *free_bytes, size_t *total)
{
	const struct cuemu_device_info *d;
	uint64_t used;
	CUresult r;
	int dev;

	if ((r = cuemu_current(NULL, &dev)))
		return r;
	d = cuemu_device(dev);
	used = cuemu_mem_used(dev);
	/* Either out may be NULL, as the driver allows. */
	if (total)
		*total = d->total;
	if (free_bytes)
		*free_bytes = used < d->total ? d->total - used : 0;
	return CUDA_SUCCESS;
}

CUresult cuemuSetLabel(CUdeviceptr ptr, const char *label)
{
	struct cuemu_alloc *a;
	CUresult r;

	if ((r = cuemu_check_init()))
		return r;
	if (!label)
		label = "";
	cuemu_lock();
	a = cuemu_va_find(ptr);
	if (a && a->kind != CUEMU_KIND_RESERVATION)
		snprintf(a->label, sizeof a->label, "%.*s",
			 (int)strcspn(label, "\n"), label);
	cuemu_unlock();
	if (!a || a->kind == CUEMU_KIND_RESERVATION)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%#llx is in no allocation",
				  (unsigned long long)ptr);
	return CUDA_SUCCESS;
}

/* -------------------------------------------------------------- /cu */

static json_t *ctl_list(void)
{
	json_t *ids = json_array();
	struct cuemu_alloc *a;

	for (a = cuemu_va_first(); ids && a; a = cuemu_va_next(a))
		if (a->kind != CUEMU_KIND_RESERVATION)
			json_array_append_new(ids, json_integer((json_int_t)a->id));
	return ids;
}

static struct cuemu_alloc *ctl_find(uint64_t id)
{
	struct cuemu_alloc *a = cuemu_va_by_id(id);

	return a && a->kind != CUEMU_KIND_RESERVATION ? a : NULL;
}

static json_t *alloc_json(struct cuemu_alloc *a)
{
	char base[32], flags[16], dev[16];
	json_t *obj;

	snprintf(base, sizeof base, "0x%lx", (unsigned long)a->base);
	snprintf(flags, sizeof flags, "0x%x", a->flags);
	obj = json_pack("{s:I,s:s,s:i,s:s,s:I,s:s,s:s,s:s,s:[s]}",
			"id", (json_int_t)a->id,
			"kind", cuemu_kind_names[a->kind],
			"pid", (int)getpid(),
			"base", base,
			"size", (json_int_t)a->size,
			"device", dev_word(a->device, dev, sizeof dev),
			"flags", flags,
			"label", a->label,
			"writable", "label");
	if (obj && a->kind == CUEMU_KIND_MANAGED)
		cuemu_managed_json(a, obj);
	if (obj && a->kind == CUEMU_KIND_POOL)
		json_object_set_new(obj, "pool",
				    json_integer((json_int_t)cuemu_pool_id(cuemu_pool_of(a))));
	return obj;
}

/* One bound of "<start>-<end>": 0x-prefixed or bare hex, or decimal. */
static int parse_bound(const char *s, const char **end, uintptr_t *out)
{
	size_t n = strcspn(s, "-/"), i;
	int base = 10;
	char *e;

	for (i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			base = 16;
	errno = 0;
	*out = (uintptr_t)strtoull(s, &e, base);
	if (errno || n == 0 || e != s + n)
		return -1;
	*end = e;
	return 0;
}

/* Parses "ranges/<s>-<e>[/<attr>]"; 0 or -1. */
static int parse_range(const char *rest, uintptr_t *s, uintptr_t *e,
		       const char **attr)
{
	const char *p;

	if (strncmp(rest, "ranges/", 7))
		return -1;
	if (parse_bound(rest + 7, &p, s) || *p != '-' ||
	    parse_bound(p + 1, &p, e) || *e <= *s)
		return -1;
	if (*p == '/')
		*attr = p + 1;
	else if (*p == '\0')
		*attr = NULL;
	else
		return -1;
	return 0;
}

static json_t *ctl_get(uint64_t id, const char *rest, CUresult *err)
{
	struct cuemu_alloc *a = ctl_find(id);
	const char *attr;
	uintptr_t s, e;

	*err = CUDA_SUCCESS;
	if (a && rest[0] == '\0')
		return alloc_json(a);
	if (a && a->kind == CUEMU_KIND_MANAGED) {
		if (strcmp(rest, "ranges") == 0)
			return cuemu_managed_ranges(a);
		if (parse_range(rest, &s, &e, &attr) == 0 && !attr)
			return cuemu_managed_range_get(a, s, e, err);
	}
	*err = CUDA_ERROR_NOT_FOUND;
	return NULL;
}

static CUresult ctl_set(uint64_t id, const char *rest, const char *value)
{
	struct cuemu_alloc *a;
	uintptr_t s = 0, e = 0;
	const char *attr;
	CUcontext ctx = NULL;
	bool managed;

	cuemu_lock();
	a = ctl_find(id);
	if (a && strcmp(rest, "label") == 0)
		snprintf(a->label, sizeof a->label, "%.*s",
			 (int)strcspn(value, "\n"), value);
	managed = a && a->kind == CUEMU_KIND_MANAGED;
	if (a)
		s = a->base, e = a->base + a->size, ctx = a->ctx;
	cuemu_unlock();
	/* a may be freed from here on: only the copies above are used. */
	if (!a)
		return cuemu_fail(CUDA_ERROR_NOT_FOUND, "no allocation %llu",
				  (unsigned long long)id);
	if (strcmp(rest, "label") == 0)
		return CUDA_SUCCESS;
	if (!managed)
		return cuemu_fail(CUDA_ERROR_NOT_FOUND,
				  "allocation %llu has no file %s",
				  (unsigned long long)id, rest);
	/* managed.c checks the attribute names and the range. */
	if (strncmp(rest, "ranges/", 7) != 0)
		return cuemu_managed_set(ctx, s, e, rest, value);
	if (parse_range(rest, &s, &e, &attr) || !attr)
		return cuemu_fail(CUDA_ERROR_NOT_FOUND, "no file %s", rest);
	return cuemu_managed_set(ctx, s, e, attr, value);
}

const struct cuemu_ctl_class cuemu_ctl_allocations = {
	.name = "allocations",
	.list = ctl_list,
	.get = ctl_get,
	.set = ctl_set,
};
