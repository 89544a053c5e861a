/*
 * vmm.c - virtual memory management's model: address reservations,
 * physical handles, the mappings of handles into reservations with their
 * access per location, shareable handles (POSIX file descriptors), and what
 * pointer.c and copy.c ask of a mapped address (cuemu_vmm_lookup). The
 * cuMem* VMM entry points are driver/vmm.c's, /cu/reservations and
 * /cu/handles outward/ctl_vmm.c's; model/vmm.h is what they may call.
 *
 * Model:
 *   - A reservation is PROT_NONE anonymous address space (MAP_NORESERVE),
 *     an entry of kind CUEMU_KIND_RESERVATION in the address map, placed at
 *     the hint when that range is free. Its mappings are kept in a sorted
 *     array (binary search, O(log n)); a mapping lies inside one
 *     reservation.
 *   - A physical handle is a memfd of its size, named
 *     "cuemu-handle:<location>" so that an importer learns where the memory
 *     lives. Device memory is charged to its device in the machine segment
 *     by the process that created the handle (an import charges nothing: it
 *     is the same memory). Export dups the memfd; import dups it back, so
 *     two processes map the same bytes.
 *   - cuMemMap maps the memfd MAP_SHARED over the reservation, PROT_NONE.
 *     Access is kept per processor (GPUs, then the host). The host's view of
 *     a mapping, which is what emulated device code and copies use, gets the
 *     most permissive access granted to any location: after gpu0 is given
 *     read-only access (and nobody more), a write through the pointer
 *     faults; with no access at all, a read faults.
 *   - A handle lives while it has references (create, import, retain) or
 *     mappings; the memory is freed (uncharged, memfd closed) when the last
 *     of either goes. A released handle that is still mapped still answers
 *     properties, retain and map, as the driver's does.
 *   - Return codes are the real driver's (probes/results/vmm.txt), with one
 *     exception: the driver lets a mapping run past the end of its
 *     reservation; here that would map over memory the emulator does not
 *     own, so it is CUDA_ERROR_INVALID_VALUE.
 *
 * Locking: every reservation, mapping and handle is guarded by cuemu_lock(),
 * which the callers hold (the entries take it once their arguments are
 * checked). Under it this file makes the mmap/mprotect calls that go with
 * the bookkeeping (these never touch user memory) and calls no API entry
 * point.
 */
#include "model/vmm.h"

#include <errno.h>
#include <fcntl.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define G CUEMU_GRANULARITY
#define MEMFD_PREFIX "cuemu-handle:"

struct handle {
	RB_ENTRY(handle) node;       /* by id */
	uint64_t id;                 /* the CUmemGenericAllocationHandle */
	size_t size;
	CUmemAllocationProp prop;    /* type, location, handle types */
	int fd;                      /* the memfd */
	unsigned refs;               /* create, import, retain; release */
	unsigned maps;               /* live cuMemMap mappings */
	int charged;                 /* device this process charged, or -1 */
	bool exported;
	bool imported;
	bool multicast;              /* a multicast object (multicast.c) */
	const struct cuemu_mc_hooks *mc; /* its owner's, when multicast */
};

struct mapping {
	uintptr_t base;
	size_t size;
	size_t offset;               /* in the handle */
	struct handle *h;
	uint64_t buffer_id;          /* CU_POINTER_ATTRIBUTE_BUFFER_ID: each
	                              * cuMemMap is a buffer of its own; the
	                              * first in a reservation has the
	                              * reservation's id (buffer_id_of) */
	uint8_t access[CUEMU_NPROC]; /* CUmemAccess_flags per processor */
};

struct cuemu_resv {
	struct cuemu_alloc a;        /* the address-map entry; a.priv = this */
	size_t align;
	struct mapping *m;           /* sorted by base, never overlapping */
	size_t n, cap;
	bool mapped_once;            /* its id went to a mapping's buffer */
};

static int handle_cmp(struct handle *a, struct handle *b)
{
	return a->id < b->id ? -1 : a->id > b->id;
}

RB_HEAD(handle_tree, handle);
CUEMU_RB_STATIC(handle_tree, handle, node, handle_cmp)

/* The process's physical handles: process state like the address map, and
 * reached from every entry point and from /cu by id. */
static struct handle_tree handles = RB_INITIALIZER(&handles);

/* ---------------------------------------------------------------- lookups */

/* A live handle: referenced, or released but still mapped (the driver
 * still answers for it then: properties, map, export). Lock held. */
static struct handle *handle_get(CUmemGenericAllocationHandle v)
{
	struct handle key = { .id = (uint64_t)v };

	return RB_FIND(handle_tree, &handles, &key);
}

/* The reservation containing p, or NULL. Lock held. */
static struct cuemu_resv *resv_at(uintptr_t p)
{
	struct cuemu_alloc *a = cuemu_va_find(p);

	return a && a->kind == CUEMU_KIND_RESERVATION ? a->priv : NULL;
}

/* Index of the first mapping of r that ends after p (r->n if none). */
static size_t map_lower(const struct cuemu_resv *r, uintptr_t p)
{
	size_t lo = 0, hi = r->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->m[mid].base + r->m[mid].size <= p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The mapping containing p, or NULL; *rp gets its reservation. */
static struct mapping *map_at(uintptr_t p, struct cuemu_resv **rp)
{
	struct cuemu_resv *r = resv_at(p);
	size_t i;

	if (rp)
		*rp = r;
	if (!r)
		return NULL;
	i = map_lower(r, p);
	if (i < r->n && r->m[i].base <= p)
		return &r->m[i];
	return NULL;
}

/* The mappings [*first, *last) that exactly tile [p, p+len), contiguous
 * with no hole. false when the range is not fully mapped by whole
 * mappings of one reservation. */
static bool map_span(uintptr_t p, size_t len, struct cuemu_resv **rp,
		     size_t *first, size_t *last)
{
	struct cuemu_resv *r = resv_at(p);
	uintptr_t at = p, end = p + len;
	size_t i;

	if (!r || end < p || end > r->a.base + r->a.size)
		return false;
	i = map_lower(r, p);
	if (i >= r->n || r->m[i].base != p)
		return false;
	*first = i;
	while (i < r->n && r->m[i].base == at && at < end)
		at += r->m[i++].size;
	if (at != end)
		return false;
	*rp = r;
	*last = i;
	return true;
}

static uint8_t most_access(const struct mapping *m)
{
	uint8_t most = 0;

	for (int i = 0; i < CUEMU_NPROC; i = cuemu_proc_next(i))
		most |= m->access[i];
	return most;
}

/* The host view of a mapping: the most permissive access of any location
 * (see the top of the file). */
static int mapping_prot(const struct mapping *m)
{
	uint8_t most = most_access(m);

	if (most & 2)
		return PROT_READ | PROT_WRITE;
	return most ? PROT_READ : PROT_NONE;
}

static bool loc_is_host(const CUmemLocation *l)
{
	return l->type == CU_MEM_LOCATION_TYPE_HOST ||
	       l->type == CU_MEM_LOCATION_TYPE_HOST_NUMA;
}

/* ---------------------------------------------------------------- handles */

/* Charges the location for size bytes; false when it does not fit. Host
 * memory is not accounted machine-wide: it must fit the node (or host). */
static bool charge(const CUmemLocation *l, size_t size, int *charged)
{
	uint64_t total = 0;

	*charged = -1;
	if (l->type == CU_MEM_LOCATION_TYPE_DEVICE) {
		if (!cuemu_mem_charge_evicting(l->id, size))
			return false;
		*charged = l->id;
		return true;
	}
	if (l->type == CU_MEM_LOCATION_TYPE_HOST_NUMA)
		return size <= cuemu_numa_total(l->id);
	for (int n = 0; n < cuemu_numa_count(); n++)
		total += cuemu_numa_total(n);
	return !total || size <= total;
}

/* Binds the memfd's pages to a host NUMA node: the policy of a shared
 * mapping of shmem belongs to the file, so it holds for every mapping. */
static void bind_numa(int fd, size_t size, int node)
{
	void *p;

	if (numa_available() < 0)
		return;
	p = mmap(NULL, size, PROT_NONE, MAP_SHARED | MAP_NORESERVE, fd, 0);
	if (p == MAP_FAILED)
		return;
	numa_tonode_memory(p, size, node);
	munmap(p, size);
}

static int make_memfd(const CUmemAllocationProp *p, size_t size)
{
	char name[64], loc[32];
	int fd;

	snprintf(name, sizeof name, MEMFD_PREFIX "%s",
		 cuemu_loc_str(p->location, loc, sizeof loc));
	fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)size) < 0) {
		close(fd);
		return -1;
	}
	/* The size is the handle's: nobody may change it under a mapping. */
	fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
	if (p->location.type == CU_MEM_LOCATION_TYPE_HOST_NUMA)
		bind_numa(fd, size, p->location.id);
	return fd;
}

/* A new handle of one reference over fd; NULL on no memory. */
static struct handle *handle_new(int fd, size_t size,
				 const CUmemAllocationProp *p)
{
	struct handle *h = calloc(1, sizeof *h);

	if (!h)
		return NULL;
	h->id = cuemu_next_id();
	h->size = size;
	h->prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
	h->prop.location = p->location;
	h->prop.requestedHandleTypes = p->requestedHandleTypes;
	h->fd = fd;
	h->refs = 1;
	h->charged = -1;
	return h;
}

/* Frees h once nothing holds it any more. Lock held. */
static void handle_put(struct handle *h)
{
	cuemu_obj_changed(h->id); /* its references or mappings changed */
	if (h->refs || h->maps)
		return;
	RB_REMOVE(handle_tree, &handles, h);
	if (h->multicast)
		h->mc->forget(h->id);
	if (h->charged >= 0)
		cuemu_mem_uncharge(h->charged, h->size);
	close(h->fd);
	cuemu_event_log("vmm_free_memory", "handle=%llu size=%zu",
			(unsigned long long)h->id, h->size);
	free(h);
}

CUresult cuemu_vmm_create(const CUmemAllocationProp *prop, size_t size,
			  CUmemGenericAllocationHandle *out)
{
	struct handle *h;
	char loc[32];
	int fd, charged;

	if (!charge(&prop->location, size, &charged))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "%s cannot hold %zu more bytes",
				  cuemu_loc_str(prop->location, loc, sizeof loc),
				  size);
	fd = make_memfd(prop, size);
	h = fd < 0 ? NULL : handle_new(fd, size, prop);
	if (!h) {
		if (fd >= 0)
			close(fd);
		if (charged >= 0)
			cuemu_mem_uncharge(charged, size);
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "cannot make the handle's memory: %s",
				  strerror(errno));
	}
	h->charged = charged;
	RB_INSERT(handle_tree, &handles, h);
	cuemu_obj_changed(h->id);
	cuemu_event_log("vmm_create", "handle=%llu size=%zu location=%s",
			(unsigned long long)h->id, size,
			cuemu_loc_str(prop->location, loc, sizeof loc));
	*out = (CUmemGenericAllocationHandle)h->id;
	return CUDA_SUCCESS;
}

static CUresult not_a_handle(CUmemGenericAllocationHandle handle)
{
	return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			  "%llu is not a live allocation handle",
			  (unsigned long long)handle);
}

CUresult cuemu_vmm_release(CUmemGenericAllocationHandle handle)
{
	struct handle *h = handle_get(handle);

	if (!h || !h->refs)
		return not_a_handle(handle);
	h->refs--;
	cuemu_event_log("vmm_release", "handle=%llu refs=%u mappings=%u",
			(unsigned long long)h->id, h->refs, h->maps);
	handle_put(h);
	return CUDA_SUCCESS;
}

CUresult cuemu_vmm_prop(CUmemGenericAllocationHandle handle,
			CUmemAllocationProp *prop)
{
	struct handle *h = handle_get(handle);

	if (!h)
		return not_a_handle(handle);
	*prop = h->prop;
	return CUDA_SUCCESS;
}

CUresult cuemu_vmm_retain(uintptr_t addr, CUmemGenericAllocationHandle *out)
{
	struct mapping *m = map_at(addr, NULL);

	if (!m)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%p is not mapped by cuMemMap", (void *)addr);
	m->h->refs++;
	cuemu_obj_changed(m->h->id);
	*out = (CUmemGenericAllocationHandle)m->h->id;
	return CUDA_SUCCESS;
}

/* ---------------------------------------------------------------- sharing */

CUresult cuemu_vmm_export(CUmemGenericAllocationHandle handle,
			  CUmemAllocationHandleType type, int *out)
{
	struct handle *h = handle_get(handle);
	int fd;

	if (!h)
		return not_a_handle(handle);
	/* A multicast object's team and bindings live in its process. */
	if (h->multicast)
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED, "multicast object "
				  "%llu cannot be shared with another process "
				  "here", (unsigned long long)h->id);
	if (!(h->prop.requestedHandleTypes & type) ||
	    type != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "handle %llu was not created with handle type "
				  "%#x", (unsigned long long)h->id,
				  (unsigned)type);
	if ((fd = fcntl(h->fd, F_DUPFD, 0)) < 0)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "cannot duplicate the memfd: %s",
				  strerror(errno));
	h->exported = true;
	cuemu_obj_changed(h->id);
	cuemu_event_log("vmm_export", "handle=%llu fd=%d",
			(unsigned long long)h->id, fd);
	*out = fd;
	return CUDA_SUCCESS;
}

/* Reads location and handle types back from a memfd made by make_memfd.
 * false when fd is not such a memfd. */
static bool parse_memfd(int fd, CUmemAllocationProp *p, size_t *size)
{
	char link[64], target[256], loc[32];
	struct stat st;
	ssize_t n;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    st.st_size % G)
		return false;
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof target - 1);
	if (n <= 0)
		return false;
	target[n] = '\0';
	if (sscanf(target, "/memfd:" MEMFD_PREFIX "%31[^ ]", loc) != 1)
		return false;
	memset(p, 0, sizeof *p);
	if (cuemu_loc_parse(loc, &p->location) < 0)
		return false;
	cuemu_errmsg_clear();
	p->type = CU_MEM_ALLOCATION_TYPE_PINNED;
	*size = (size_t)st.st_size;
	return true;
}

CUresult cuemu_vmm_import(int fd, CUmemGenericAllocationHandle *out)
{
	CUmemAllocationProp p;
	struct handle *h;
	char loc[32];
	size_t size;
	int own;

	if (fd < 0 || !parse_memfd(fd, &p, &size))
		return cuemu_fail(CUDA_ERROR_UNKNOWN,
				  "fd %d is not an exported allocation", fd);
	/* Each import is a handle of its own, and it reports no handle
	 * types (it cannot be exported again), as the driver answers. */
	own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	h = own < 0 ? NULL : handle_new(own, size, &p);
	if (!h) {
		if (own >= 0)
			close(own);
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "cannot import fd %d: %s", fd, strerror(errno));
	}
	h->imported = true;
	RB_INSERT(handle_tree, &handles, h);
	cuemu_obj_changed(h->id);
	cuemu_event_log("vmm_import", "handle=%llu size=%zu location=%s",
			(unsigned long long)h->id, size,
			cuemu_loc_str(p.location, loc, sizeof loc));
	*out = (CUmemGenericAllocationHandle)h->id;
	return CUDA_SUCCESS;
}

/* ---------------------------------------------------------------- reservations */

/* Address space of size bytes aligned to align, at hint when that range is
 * free; NULL when there is none. Lock held (the hint check reads the map). */
static void *place(size_t size, size_t align, uintptr_t hint)
{
	const int fl = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
	uintptr_t a, start;
	size_t len;
	void *p;

	if (hint && hint % align == 0 && hint + size > hint &&
	    !cuemu_va_overlap(hint, size)) {
		p = mmap((void *)hint, size, PROT_NONE,
			 fl | MAP_FIXED_NOREPLACE, -1, 0);
		if (p == (void *)hint)
			return p;
		if (p != MAP_FAILED) /* a kernel that ignores NOREPLACE */
			munmap(p, size);
	}
	len = size + align - CUEMU_PAGE;
	if (len < size)
		return NULL;
	p = mmap(NULL, len, PROT_NONE, fl, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	start = (uintptr_t)p;
	a = CUEMU_ALIGN_UP(start, align);
	if (a > start)
		munmap(p, a - start);
	if (start + len > a + size)
		munmap((void *)(a + size), start + len - (a + size));
	return (void *)a;
}

CUresult cuemu_vmm_reserve(size_t size, size_t align, uintptr_t hint,
			   CUdeviceptr *out)
{
	struct cuemu_resv *r = calloc(1, sizeof *r);
	void *p;

	if (!r)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "no memory");
	p = place(size, align, hint);
	if (p) {
		r->align = align;
		r->a.base = (uintptr_t)p;
		r->a.size = r->a.span = size;
		r->a.kind = CUEMU_KIND_RESERVATION;
		r->a.id = cuemu_next_id();
		r->a.device = CU_DEVICE_INVALID;
		r->a.priv = r;
		if (cuemu_va_insert(&r->a) < 0) {
			munmap(p, size);
			p = NULL;
		}
	}
	if (!p) {
		free(r);
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "no free address range of %zu bytes aligned "
				  "to %zu", size, align);
	}
	cuemu_event_log("vmm_reserve", "reservation=%llu base=%#lx size=%zu "
			"alignment=%zu", (unsigned long long)r->a.id,
			(unsigned long)r->a.base, size, align);
	*out = (CUdeviceptr)r->a.base;
	return CUDA_SUCCESS;
}

CUresult cuemu_vmm_address_free(uintptr_t p, size_t size)
{
	struct cuemu_resv *r = resv_at(p);

	if (!r || r->a.base != p)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%#lx is not the start of a reservation",
				  (unsigned long)p);
	if (r->a.size != size)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "reservation %#lx is %zu bytes, not %zu",
				  (unsigned long)p, r->a.size, size);
	if (r->n)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "reservation %#lx still has %zu mappings",
				  (unsigned long)p, r->n);
	cuemu_va_remove(&r->a);
	munmap((void *)r->a.base, r->a.size);
	cuemu_event_log("vmm_address_free", "reservation=%llu",
			(unsigned long long)r->a.id);
	free(r->m);
	free(r);
	return CUDA_SUCCESS;
}

/* ---------------------------------------------------------------- mappings */

static CUresult check_map(struct cuemu_resv *r, uintptr_t p, size_t size,
			  size_t offset, const struct handle *h)
{
	size_t i;

	if (!h)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "not a live allocation handle");
	/* A mapping is the whole handle, no more and no less, and that is
	 * checked before the address (probes/results/vmmsweep.txt:
	 * map.smaller_than_handle, map.va_plus_4K). */
	if (offset + size < offset || offset + size != h->size)
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED,
				  "offset %zu + size %zu is not the size of "
				  "handle %llu (%zu bytes)", offset, size,
				  (unsigned long long)h->id, h->size);
	if (p % CUEMU_GRANULARITY)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "address %#lx is not a multiple of the "
				  "granularity (%lu)", (unsigned long)p,
				  (unsigned long)CUEMU_GRANULARITY);
	if (!r)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%#lx is in no reservation", (unsigned long)p);
	/* The driver lets a mapping run on past its reservation; here it
	 * would be mapped over memory the emulator does not own. */
	if (p + size < p || p + size > r->a.base + r->a.size)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "[%#lx, +%zu) runs past the end of its "
				  "reservation", (unsigned long)p, size);
	i = map_lower(r, p);
	if (i < r->n && r->m[i].base < p + size)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "[%#lx, +%zu) overlaps the mapping at %#lx",
				  (unsigned long)p, size,
				  (unsigned long)r->m[i].base);
	return CUDA_SUCCESS;
}

/* Inserts a mapping into r in address order. Lock held. */
static struct mapping *map_insert(struct cuemu_resv *r, uintptr_t p,
				  size_t size)
{
	size_t i = map_lower(r, p);

	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 4;
		struct mapping *m = realloc(r->m, cap * sizeof *m);

		if (!m)
			return NULL;
		r->m = m;
		r->cap = cap;
	}
	memmove(&r->m[i + 1], &r->m[i], (r->n - i) * sizeof *r->m);
	r->n++;
	memset(&r->m[i], 0, sizeof r->m[i]);
	cuemu_obj_changed(r->a.id);
	r->m[i].base = p;
	r->m[i].size = size;
	return &r->m[i];
}

/* The id a new mapping of r answers as its BUFFER_ID. Each mapping is a
 * buffer of its own, as the real driver's are (probes/results/edges.txt,
 * ids); the first one made in a reservation takes the reservation's id,
 * which no buffer has, so that a program finds the reservation's /cu
 * directory (reservations/<id>) from the address it mapped, as it finds
 * every other allocation's. */
static uint64_t buffer_id_of(struct cuemu_resv *r)
{
	if (r->mapped_once)
		return cuemu_next_id();
	r->mapped_once = true;
	return r->a.id;
}

CUresult cuemu_vmm_map(uintptr_t p, size_t size, size_t offset,
		       CUmemGenericAllocationHandle handle)
{
	struct handle *h = handle_get(handle);
	struct cuemu_resv *r = resv_at(p);
	struct mapping *m;
	CUresult res = check_map(r, p, size, offset, h);

	if (res == CUDA_SUCCESS && h->multicast)
		res = h->mc->check_map(h->id);
	if (res != CUDA_SUCCESS)
		return res;
	if (mmap((void *)p, size, PROT_NONE, MAP_SHARED | MAP_FIXED, h->fd,
		 (off_t)offset) == MAP_FAILED)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "cannot map the handle's memory: %s",
				  strerror(errno));
	m = map_insert(r, p, size);
	if (!m) {
		mmap((void *)p, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
		     MAP_NORESERVE | MAP_FIXED, -1, 0);
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "no memory");
	}
	m->h = h;
	m->offset = offset;
	m->buffer_id = buffer_id_of(r);
	h->maps++;
	cuemu_obj_changed(h->id);
	cuemu_event_log("vmm_map", "reservation=%llu address=%#lx size=%zu "
			"handle=%llu", (unsigned long long)r->a.id,
			(unsigned long)p, size, (unsigned long long)h->id);
	return CUDA_SUCCESS;
}

/* The mappings [*first, *last) of r that [p, end) touches; false when it
 * cuts one of them. */
static bool unmap_span(const struct cuemu_resv *r, uintptr_t p, uintptr_t end,
		       size_t *first, size_t *last)
{
	size_t i = map_lower(r, p);

	*first = i;
	for (; i < r->n && r->m[i].base < end; i++)
		if (r->m[i].base < p || r->m[i].base + r->m[i].size > end)
			return false;
	*last = i;
	return true;
}

/* Unmaps r->m[i]: back to reserved address space (PROT_NONE, no memory),
 * dropping the handle's mapping. Lock held. */
static void unmap_one(struct cuemu_resv *r, size_t i)
{
	struct mapping m = r->m[i];

	mmap((void *)m.base, m.size, PROT_NONE,
	     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
	memmove(&r->m[i], &r->m[i + 1], (r->n - i - 1) * sizeof *r->m);
	r->n--;
	m.h->maps--;
	cuemu_obj_changed(r->a.id);
	cuemu_event_log("vmm_unmap", "reservation=%llu address=%#lx size=%zu "
			"handle=%llu", (unsigned long long)r->a.id,
			(unsigned long)m.base, m.size,
			(unsigned long long)m.h->id);
	handle_put(m.h);
}

/* As the driver does: [p, p+size) starts in a reservation and takes every
 * mapping it covers whole; it may hold unmapped space (even none at all),
 * but cutting a mapping is refused. */
CUresult cuemu_vmm_unmap(uintptr_t p, size_t size)
{
	uintptr_t end = p + size, at;
	size_t first = 0, last = 0;
	struct cuemu_resv *r = resv_at(p);

	if (!r || !size || end < p)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "[%#lx, +%zu) does not start in a "
				  "reservation", (unsigned long)p, size);
	/* The range may run on past its reservation, through the ones that
	 * follow it and into free address space, as the real driver lets it
	 * (probes/results/vmmsweep.txt: unmap.past_reservation_end); it may
	 * cut no mapping anywhere. */
	for (at = p; r && at < end; r = resv_at(at)) {
		if (!unmap_span(r, at, end, &first, &last))
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "[%#lx, +%zu) cuts a mapping: unmap "
					  "what cuMemMap mapped",
					  (unsigned long)p, size);
		at = r->a.base + r->a.size;
	}
	for (at = p, r = resv_at(p); r && at < end; r = resv_at(at)) {
		unmap_span(r, at, end, &first, &last);
		while (last-- > first)
			unmap_one(r, last);
		at = r->a.base + r->a.size;
	}
	return CUDA_SUCCESS;
}

/* ---------------------------------------------------------------- access */

/* The access slot desc names for memory of handle h; a CUresult when
 * the location cannot be given access to it. */
static CUresult access_slot(const CUmemLocation *l, const struct handle *h,
			    int *slot)
{
	const CUmemLocation *own = &h->prop.location;

	switch (l->type) {
	case CU_MEM_LOCATION_TYPE_DEVICE:
		if (l->id < 0 || l->id >= cuemu_device_count())
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "no device %d", l->id);
		*slot = l->id;
		return CUDA_SUCCESS;
	case CU_MEM_LOCATION_TYPE_HOST:
	case CU_MEM_LOCATION_TYPE_HOST_NUMA:
		if (!loc_is_host(own))
			return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED,
					  "the host cannot be given access to "
					  "device memory");
		if (l->type == CU_MEM_LOCATION_TYPE_HOST_NUMA &&
		    own->type != CU_MEM_LOCATION_TYPE_HOST_NUMA)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "HOST_NUMA access is only for "
					  "HOST_NUMA allocations");
		*slot = CUEMU_PROC_HOST;
		return CUDA_SUCCESS;
	default:
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "location type %d cannot be given access",
				  (int)l->type);
	}
}

static CUresult check_access(const struct cuemu_resv *r, size_t first,
			     size_t last, const CUmemAccessDesc *desc,
			     size_t count)
{
	CUresult res;
	int slot;

	for (size_t k = 0; k < count; k++) {
		if (desc[k].flags != CU_MEM_ACCESS_FLAGS_PROT_NONE &&
		    desc[k].flags != CU_MEM_ACCESS_FLAGS_PROT_READ &&
		    desc[k].flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "access flags %#x are not NONE, READ "
					  "or READWRITE", (unsigned)desc[k].flags);
		for (size_t i = first; i < last; i++)
			if ((res = access_slot(&desc[k].location, r->m[i].h,
					       &slot)) != CUDA_SUCCESS)
				return res;
	}
	return CUDA_SUCCESS;
}

/* Gives every mapping of [first, last) of r the access desc says. */
static void apply_access(struct cuemu_resv *r, size_t first, size_t last,
			 const CUmemAccessDesc *desc, size_t count)
{
	int slot;

	cuemu_obj_changed(r->a.id);
	for (size_t i = first; i < last; i++) {
		struct mapping *m = &r->m[i];

		for (size_t k = 0; k < count; k++) {
			access_slot(&desc[k].location, m->h, &slot);
			m->access[slot] = (uint8_t)desc[k].flags;
		}
		mprotect((void *)m->base, m->size, mapping_prot(m));
	}
}

CUresult cuemu_vmm_set_access(uintptr_t p, size_t size,
			      const CUmemAccessDesc *desc, size_t count)
{
	size_t first = 0, last = 0;
	struct cuemu_resv *r = NULL;
	CUresult res;
	char w[32];

	if (!map_span(p, size, &r, &first, &last))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "[%#lx, +%zu) is not fully mapped by whole "
				  "mappings", (unsigned long)p, size);
	if ((res = check_access(r, first, last, desc, count)) != CUDA_SUCCESS)
		return res;
	apply_access(r, first, last, desc, count);
	for (size_t k = 0; k < count; k++)
		cuemu_event_log("vmm_access", "reservation=%llu address=%#lx "
				"size=%zu %s %s", (unsigned long long)r->a.id,
				(unsigned long)p, size,
				cuemu_loc_str(desc[k].location, w, sizeof w),
				cuemu_access_str(desc[k].flags));
	return CUDA_SUCCESS;
}

/* What cuMemGetAccess answers for l, as the driver does: the host of
 * device memory reads as the most permissive access any location has
 * (which is also the host view here), a host NUMA node as none. */
static CUresult read_access(const struct mapping *m, const CUmemLocation *l,
			    unsigned long long *flags)
{
	bool host_mem = loc_is_host(&m->h->prop.location);

	switch (l->type) {
	case CU_MEM_LOCATION_TYPE_DEVICE:
		if (l->id < 0 || l->id >= cuemu_device_count())
			return cuemu_fail(CUDA_ERROR_INVALID_DEVICE,
					  "no device %d", l->id);
		*flags = m->access[l->id];
		return CUDA_SUCCESS;
	case CU_MEM_LOCATION_TYPE_HOST:
		*flags = host_mem ? m->access[CUEMU_PROC_HOST] : most_access(m);
		return CUDA_SUCCESS;
	case CU_MEM_LOCATION_TYPE_HOST_NUMA:
		*flags = host_mem ? m->access[CUEMU_PROC_HOST] : 0;
		return CUDA_SUCCESS;
	default:
		return cuemu_fail(CUDA_ERROR_INVALID_DEVICE,
				  "location type %d has no access",
				  (int)l->type);
	}
}

CUresult cuemu_vmm_get_access(uintptr_t p, const CUmemLocation *l,
			      unsigned long long *flags)
{
	struct mapping *m = map_at(p, NULL);
	struct cuemu_alloc *a;

	if (m)
		return read_access(m, l, flags);
	/* Memory of the other allocators gives no VMM access, and says so
	 * without an error (probes/results/vmmsweep.txt: getaccess.cuMemAlloc,
	 * .managed, .cuMemAllocHost, .pool_block). */
	a = cuemu_va_find(p);
	if (a && a->kind != CUEMU_KIND_RESERVATION) {
		*flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;
		return CUDA_SUCCESS;
	}
	return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			  "%#lx is not mapped by cuMemMap", (unsigned long)p);
}

/* ---------------------------------------------------------------- pointer.c */

bool cuemu_vmm_lookup(uintptr_t p, int dev, struct cuemu_map_info *out)
{
	struct cuemu_resv *r;
	struct mapping *m = map_at(p, &r);
	int slot = dev >= 0 && dev < CUEMU_MAX_DEVICES ? dev : CUEMU_PROC_HOST;

	if (!m)
		return false;
	out->resv_base = r->a.base;
	out->resv_size = r->a.size;
	out->map_base = m->base;
	out->map_size = m->size;
	out->handle_id = m->h->id;
	out->buffer_id = m->buffer_id;
	out->loc = m->h->prop.location;
	out->handle_types = (unsigned long long)m->h->prop.requestedHandleTypes;
	out->access = (CUmemAccess_flags)m->access[slot];
	out->host_access = (CUmemAccess_flags)m->access[CUEMU_PROC_HOST];
	out->map_offset = m->offset;
	out->multicast = m->h->multicast;
	return true;
}

/* ------------------------------------------------------------ multicast */

CUresult cuemu_vmm_create_multicast(size_t size, unsigned long long types,
				    const struct cuemu_mc_hooks *hooks,
				    CUmemGenericAllocationHandle *out)
{
	int fd = memfd_create("cuemu-multicast", MFD_CLOEXEC);
	CUmemAllocationProp p = { .type = CU_MEM_ALLOCATION_TYPE_PINNED };
	struct handle *h;

	p.requestedHandleTypes = (CUmemAllocationHandleType)types;
	if (fd >= 0 && ftruncate(fd, (off_t)size) < 0) {
		close(fd);
		fd = -1;
	}
	h = fd < 0 ? NULL : handle_new(fd, size, &p);
	if (!h) {
		if (fd >= 0)
			close(fd);
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "cannot make a multicast object");
	}
	h->multicast = true;
	h->mc = hooks;
	RB_INSERT(handle_tree, &handles, h);
	cuemu_obj_changed(h->id);
	*out = (CUmemGenericAllocationHandle)h->id;
	return CUDA_SUCCESS;
}

bool cuemu_vmm_handle_info(CUmemGenericAllocationHandle handle,
			   struct cuemu_handle_info *out)
{
	struct handle *h = handle_get(handle);

	if (!h)
		return false;
	out->size = h->size;
	out->loc = h->prop.location;
	out->handle_types = (unsigned long long)h->prop.requestedHandleTypes;
	out->multicast = h->multicast;
	out->fd = h->fd;
	return true;
}

void cuemu_vmm_handle_hold(CUmemGenericAllocationHandle handle, bool hold)
{
	struct handle *h = handle_get(handle);

	if (!h)
		return;
	if (hold) {
		h->refs++;
		cuemu_obj_changed(h->id);
	} else if (h->refs) {
		h->refs--;
		handle_put(h);
	}
}

/* ---------------------------------------------------------------- /cu */

struct cuemu_resv *cuemu_vmm_resv_of(struct cuemu_alloc *a)
{
	return a && a->kind == CUEMU_KIND_RESERVATION ? a->priv : NULL;
}

struct cuemu_resv *cuemu_vmm_resv_by_id(uint64_t id)
{
	return cuemu_vmm_resv_of(cuemu_va_by_id(id));
}

void cuemu_vmm_resv_view(const struct cuemu_resv *r, struct cuemu_resv_view *v)
{
	v->id = r->a.id;
	v->base = r->a.base;
	v->size = r->a.size;
	v->align = r->align;
	v->nmaps = r->n;
}

void cuemu_vmm_mapping_view(const struct cuemu_resv *r, size_t i,
			    struct cuemu_mapping_view *v)
{
	const struct mapping *m = &r->m[i];

	v->base = m->base;
	v->size = m->size;
	v->handle = m->h->id;
	memcpy(v->access, m->access, sizeof v->access);
}

uint64_t cuemu_vmm_handle_next(uint64_t id)
{
	struct handle key = { .id = id + 1 };
	struct handle *h = RB_NFIND(handle_tree, &handles, &key);

	/* A multicast object is /cu/multicast's (multicast.c), not a handle
	 * of memory. */
	while (h && h->multicast)
		h = RB_NEXT(handle_tree, &handles, h);
	return h ? h->id : 0;
}

bool cuemu_vmm_handle_view(uint64_t id, struct cuemu_handle_view *v)
{
	struct handle *h = handle_get((CUmemGenericAllocationHandle)id);

	if (!h || h->multicast)
		return false;
	v->id = h->id;
	v->size = h->size;
	v->loc = h->prop.location;
	v->handle_types = (unsigned long long)h->prop.requestedHandleTypes;
	v->refs = h->refs;
	v->maps = h->maps;
	v->exported = h->exported;
	v->imported = h->imported;
	return true;
}
