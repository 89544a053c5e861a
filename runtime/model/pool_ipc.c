/*
 * pool_ipc.c - pools shared between processes: the one sparse memfd a
 * shareable pool's arenas live in (its header says what pool it is), the
 * export of that descriptor and its import as a pool of the importer's
 * own, and the export and import of single blocks, which the importer maps
 * from the descriptor at the exporter's offset.
 *
 * Locking: as the rest of the allocator's model (pool.c), guarded by
 * cuemu_lock(), which the callers hold; cuemu_pool_read_fd reads only the
 * descriptor and needs none.
 */
#include "model/pool_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* In a shareable pool's memfd the header comes first, arenas after it. */
#define POOL_FD_DATA CUEMU_GRANULARITY
#define POOL_MAGIC 0x6c6f6f70756d6563ULL /* "cemupool" */
#define PTR_MAGIC 0x7274707570756d65ULL  /* "emupuptr" */

/* What a shareable pool's memfd starts with: how an importer learns what
 * pool the descriptor is. */
struct fd_header {
	uint64_t magic;
	uint64_t uid;
	int32_t loc_type, loc_id;
	uint64_t max_size;
	uint64_t handle_types;
};

/* CUmemPoolPtrExportData's 64 bytes. */
struct ptr_export {
	uint64_t magic;
	uint64_t uid;
	uint64_t off;                  /* in the memfd */
	uint64_t size;                 /* what the exporter asked for */
	uint64_t len;
	uint64_t id;                   /* the exporter's allocation id */
	uint64_t spare[2];
};
_Static_assert(sizeof(struct ptr_export) <= sizeof(CUmemPoolPtrExportData),
	       "export data fits the API's 64 bytes");

/* Backs a shareable pool with one sparse memfd: arenas are ranges of it, so
 * the exported descriptor maps the same bytes in another process. */
int cuemu_pool_memfd(CUmemoryPool p)
{
	struct fd_header h = {
		.magic = POOL_MAGIC, .uid = p->uid,
		.loc_type = p->props.location.type,
		.loc_id = p->props.location.id,
		.max_size = p->max_size,
		.handle_types = p->props.handleTypes,
	};

	p->fd = memfd_create("cuemu-pool", MFD_CLOEXEC);
	if (p->fd < 0)
		return -1;
	p->file_end = POOL_FD_DATA;
	if (ftruncate(p->fd, (off_t)p->file_end) < 0 ||
	    pwrite(p->fd, &h, sizeof h, 0) != (ssize_t)sizeof h) {
		close(p->fd);
		p->fd = -1;
		return -1;
	}
	return 0;
}

void cuemu_pool_unmap_imported(CUmemoryPool p, struct seg *g)
{
	munmap(g->map, g->maplen);
	TAILQ_REMOVE(&p->live, g, lnode);
	p->nlive--;
	free(g);
}

CUresult cuemu_pool_export_fd(CUmemoryPool p, int *out)
{
	int fd = fcntl(p->fd, F_DUPFD_CLOEXEC, 0);

	if (fd < 0)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "dup: %s",
				  strerror(errno));
	*out = fd;
	return CUDA_SUCCESS;
}

CUresult cuemu_pool_read_fd(int fd, CUmemPoolProps *props, uint64_t *uid)
{
	struct fd_header h;
	struct stat st;

	/* The driver answers UNKNOWN for a descriptor that is not a pool,
	 * -1 included. */
	if (fstat(fd, &st) < 0)
		return cuemu_fail(CUDA_ERROR_UNKNOWN, "not a descriptor");
	if (pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h ||
	    h.magic != POOL_MAGIC || (uint64_t)st.st_size < POOL_FD_DATA)
		return cuemu_fail(CUDA_ERROR_UNKNOWN,
				  "the descriptor is not an exported pool");
	memset(props, 0, sizeof *props);
	props->allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	props->handleTypes = (CUmemAllocationHandleType)h.handle_types;
	props->location.type = (CUmemLocationType)h.loc_type;
	props->location.id = h.loc_id;
	props->maxSize = h.max_size;
	*uid = h.uid;
	return CUDA_SUCCESS;
}

CUresult cuemu_pool_import(int fd, const CUmemPoolProps *props, uint64_t uid,
			   CUmemoryPool *out)
{
	CUmemoryPool p = cuemu_pool_alloc_struct(props);

	if (!p)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "no memory for a pool");
	if ((p->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0) {
		free(p);
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "dup: %s",
				  strerror(errno));
	}
	p->uid = uid;
	p->imported = true;
	cuemu_pool_add(p);
	cuemu_event_log("pool_import", "pool=%llu location=gpu%d",
			(unsigned long long)p->id, p->dev);
	*out = p;
	return CUDA_SUCCESS;
}

CUresult cuemu_pool_export_ptr(struct cuemu_alloc *a,
			       CUmemPoolPtrExportData *out)
{
	struct ptr_export e = { .magic = PTR_MAGIC };
	struct seg *g = a->priv;

	if (a->kind != CUEMU_KIND_POOL) /* a managed pool's: never shared */
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "a managed pool is not shareable");
	if (!g->arena || g->pool->fd < 0)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "the block's pool is not shareable");
	e.uid = g->pool->uid;
	e.off = g->arena->file_off + (g->addr - g->arena->base);
	e.size = a->size;
	e.len = g->len;
	e.id = a->id;
	memset(out, 0, sizeof *out);
	memcpy(out, &e, sizeof e);
	return CUDA_SUCCESS;
}

static uint64_t file_size(int fd)
{
	struct stat st;

	return fstat(fd, &st) < 0 ? 0 : (uint64_t)st.st_size;
}

/* Maps an exported block of imported pool p. Lock held. */
static CUresult import_block(CUmemoryPool p, const struct ptr_export *e,
			     CUcontext ctx, CUdeviceptr *out)
{
	uint64_t page = CUEMU_ALIGN_DOWN(e->off, CUEMU_PAGE);
	size_t delta = e->off - page;
	size_t maplen = CUEMU_ALIGN_UP(delta + e->len, CUEMU_PAGE);
	struct seg *g = calloc(1, sizeof *g);
	void *m;

	if (!g)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "no memory");
	m = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_SHARED, p->fd,
		 (off_t)page);
	if (m == MAP_FAILED) {
		free(g);
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "mmap: %s",
				  strerror(errno));
	}
	g->pool = p;
	g->map = m;
	g->maplen = maplen;
	g->addr = (uintptr_t)m + delta;
	g->len = e->len;
	g->state = SEG_USED;
	cuemu_pool_fill_alloc(g, e->size, ctx);
	if (cuemu_va_insert(&g->a) < 0)
		cuemu_debug("imported block %#lx overlaps the address map",
			    (unsigned long)g->addr);
	TAILQ_INSERT_TAIL(&p->live, g, lnode);
	p->nlive++;
	cuemu_obj_changed(p->id);
	*out = (CUdeviceptr)g->addr;
	return CUDA_SUCCESS;
}

CUresult cuemu_pool_import_ptr(CUmemoryPool p,
			       const CUmemPoolPtrExportData *data,
			       CUcontext ctx, CUdeviceptr *out)
{
	struct ptr_export e;

	memcpy(&e, data, sizeof e);
	if (e.magic != PTR_MAGIC || e.uid != p->uid ||
	    e.off < POOL_FD_DATA || e.size > e.len ||
	    e.off + e.len > file_size(p->fd))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "the export data is not of this pool");
	return import_block(p, &e, ctx, out);
}
