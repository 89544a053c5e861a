/*
 * ipc.c - device memory other processes can reach: cuMemAlloc memory lies
 * in the process's device memory file of its device (devmem.c), MAP_SHARED,
 * where devheap.c places it: packed into 2 MiB blocks under 2 MiB, else a
 * fresh range of its own (a free punches the pages out). A legacy IPC handle names the exporting process (pid and
 * start time), the file's descriptor number there and the allocation's
 * address; the importer finds what range of the file is mapped at that
 * address now (/proc/<pid>/maps), opens the file through /proc/<pid>/fd
 * and maps the same pages, so stores on either side are seen by the
 * other: a packed allocation's whole block, mapped once for every
 * allocation of it opened, each at its offset in it, as the real driver
 * maps it. The importer's mapping keeps the pages alive when
 * the exporter frees the allocation or exits, as the real driver keeps the
 * memory (probes/results/share.txt): the exporter does not punch out an
 * allocation whose handle went out (a packed one only while an importer
 * maps it; once freed, its handle opens nothing). Opening a handle twice in a process
 * gives the one mapping, with a reference per open. A second memfd of
 * 64-byte slots holds what processes share beside the bytes: for each
 * exported allocation the count of importers' mappings and whether the
 * exporter freed it (the last importer to let go of freed memory gives the
 * device's memory back, as the real driver does), and each interprocess
 * event's records. A dma-buf of
 * an address range is made by the kernel's udmabuf driver over the same
 * memfd (of the device memory file, or of a VMM handle), where
 * /dev/udmabuf can be opened; elsewhere it is that memfd opened anew
 * (/proc/self/fd) with its file position at the range, so that whoever
 * maps it there maps the device's bytes. Only where neither can be done do
 * the devices answer DMA_BUF_SUPPORTED 0 and the call NOT_SUPPORTED.
 *
 * Locking: the slot file has its own leaf lock (slot_lock),
 * taken inside the process lock or without it; a slot's contents are
 * atomics. The table of handles already given out (known[]) is written
 * under the process lock and read without it, each entry a seqlock. The opened mappings and the exporters' blocks mapped here (the
 * trees below) and their address-map entries are guarded by cuemu_lock().
 */
#include "model/ipc.h"
#include "model/procstat.h"

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/udmabuf.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/vmm.h"

#define MEM_MAGIC 0x636d656dU /* "memc" */
#define EV_MAGIC 0x6376656d756d6563ULL  /* "cemumevc" */
#define SLOT_BYTES 64
#define SLOT_FILE (64UL << 20)    /* a million shared slots a process */

/* The slot file. Global because it is the process's: its descriptor
 * number goes out in handles. */
static pthread_mutex_t slot_lock = PTHREAD_MUTEX_INITIALIZER;
static int slots_fd = -1;
static unsigned char *slots;
static uint64_t slots_next;
static pid_t self_pid;          /* this process, for handles: getpid() is a
                                 * system call, more than half of what
                                 * taking a handle cost (bench/,
                                 * cuIpcGetMemHandle); atomic, as threads
                                 * may find it at once */
static uint64_t self_start;     /* this process's start time, for handles */
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Handles already given out, by the address asked with, so that asking
 * again (a transport exports the same buffer for every message) is
 * answered without the process lock: its pair was most of the call's
 * cost (bench/, cuIpcGetMemHandle). An entry holds while the address map
 * loses nothing (the reach generation, which moves when any entry goes)
 * and the process is the one that filled it (a forked child empties the
 * table). Direct-mapped, so O(1) and a few KiB whatever the allocations.
 * Written only under the process lock; read without it, an entry's seq
 * odd while it is being written, so a reader that sees seq move retries
 * under the lock. Global because the handles are the process's. */
#define KNOWN_SLOTS 64
#define HANDLE_WORDS (sizeof(CUipcMemHandle) / sizeof(uint64_t))
struct known {
	uint64_t seq;
	uint64_t addr;
	uint64_t reach;       /* the reach generation it was made at */
	uint64_t filled;      /* 0: empty */
	uint64_t words[HANDLE_WORDS];
};
static struct known known[KNOWN_SLOTS];

static struct known *known_slot(uintptr_t p)
{
	return &known[(p >> 9 ^ p >> 21) % KNOWN_SLOTS];
}

static void known_forget_all(void)
{
	memset(known, 0, sizeof known);
}

static int slot_new(uint64_t *index, void **ptr);
static void *slot_map(pid_t pid, int fd, uint64_t start, uint64_t index);
static void slot_unmap(void *p);

/* A forked child gets a slot file of its own and finds itself anew. */
static void child_after_fork(void)
{
	pthread_mutex_init(&slot_lock, NULL);
	if (slots_fd >= 0)
		close(slots_fd);
	slots_fd = -1;
	slots = NULL;
	slots_next = 0;
	self_pid = 0;
	self_start = 0;
	known_forget_all();
}

static void init_once(void)
{
	pthread_atfork(NULL, NULL, child_after_fork);
}

/* This process and its start time, found once (again in a forked
 * child: init_once's fork handler forgets them). */
static pid_t my_pid(void)
{
	pid_t p = __atomic_load_n(&self_pid, __ATOMIC_RELAXED);

	if (!p) {
		pthread_once(&once, init_once);
		p = getpid();
		__atomic_store_n(&self_pid, p, __ATOMIC_RELAXED);
	}
	return p;
}

static uint64_t my_start(void)
{
	if (!self_start)
		self_start = cuemu_proc_start_time(my_pid());
	return self_start;
}

/* ---------------------------------------------------------- device memory */

/* An exported allocation's slot holds the importers' mappings (twice
 * their number) and, in its low bit, that the exporter freed it. */
#define SLOT_FREED 1ULL
#define SLOT_OPEN 2ULL

bool cuemu_devmem_release(const struct cuemu_alloc *a)
{
	bool mine = a->file_epoch == cuemu_devmem_epoch(), held = false;
	uint64_t *slot;

	/* The pages of an exported allocation stay for the importers; the
	 * last of them to let go gives the device's memory back
	 * (ipc_mem_close). A packed one nobody maps goes back to its block
	 * at once: no importer can map it from now on (map_new). A forked
	 * child's inherited memory is in its parent's file. */
	if (mine && a->ipc_exported) {
		slot = (uint64_t *)(slots + (uint64_t)a->ipc_slot * SLOT_BYTES);
		held = __atomic_fetch_or(slot, SLOT_FREED, __ATOMIC_ACQ_REL) >=
			SLOT_OPEN;
	}
	cuemu_devheap_free(a, mine, mine && a->ipc_exported &&
			   (held || !cuemu_devheap_packs(a->size)));
	return held;
}

/* ------------------------------------------------------- legacy IPC */

/* A memory handle's 64 bytes. */
struct mem_wire {
	uint32_t magic;
	int32_t pid, fd;
	int32_t slot_fd;        /* the exporter's slot file */
	uint64_t start;         /* the exporter's start time */
	uint64_t base;          /* the allocation's address there */
	uint64_t span, size;
	uint64_t id;            /* the exporter's allocation */
	int32_t dev;
	uint32_t slot;          /* the allocation's slot there */
};
_Static_assert(sizeof(struct mem_wire) <= sizeof(CUipcMemHandle),
	       "a memory handle fits the API's 64 bytes");

/* An opened mapping: the importer's record of one exporter allocation. */
struct opened {
	RB_ENTRY(opened) node;
	pid_t pid;
	uint64_t start, id;
	unsigned refs;
	uint64_t *slot;         /* the exporter's count of mappings, or NULL */
	struct imblock *blk;    /* the exporter's block it lies in, or NULL */
	void *map;              /* else the mapping: whole pages around a */
	size_t map_len;
	size_t charge;          /* the device memory the allocation holds */
	struct cuemu_alloc a;
};

static int cmp_opened(struct opened *x, struct opened *y)
{
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

RB_HEAD(opened_tree, opened);
CUEMU_RB_STATIC(opened_tree, opened, node, cmp_opened)
/* The mappings this process opened, by exporter allocation. Global as the
 * address map is: handles are the process's, whatever context opens them. */
static struct opened_tree opened_all = RB_INITIALIZER(&opened_all);

/* A handle's field written straight into the API's bytes: a mem_wire
 * built on the stack and copied whole is read back in 16-byte loads from
 * its 4- and 8-byte stores, which cannot be forwarded and stall the
 * copy (a third of the call's time). */
#define WIRE_PUT(out, field, value) do {				\
	__typeof__(((struct mem_wire *)0)->field) v_ = (value);		\
	memcpy((char *)(out) + offsetof(struct mem_wire, field), &v_,	\
	       sizeof v_);						\
} while (0)

/* Keeps the handle just made for p. Process lock held: writers are one
 * at a time, and the reach generation moves only under it. */
static void known_put(uintptr_t p, const CUipcMemHandle *h)
{
	struct known *k = known_slot(p);
	uint64_t w[HANDLE_WORDS], seq = k->seq;

	memcpy(w, h, sizeof w);
	__atomic_store_n(&k->seq, seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&k->addr, p, __ATOMIC_RELAXED);
	__atomic_store_n(&k->reach, *cuemu_reach_generation(),
			 __ATOMIC_RELAXED);
	__atomic_store_n(&k->filled, 1, __ATOMIC_RELAXED);
	for (size_t i = 0; i < HANDLE_WORDS; i++)
		__atomic_store_n(&k->words[i], w[i], __ATOMIC_RELAXED);
	__atomic_store_n(&k->seq, seq + 2, __ATOMIC_RELEASE);
}

CUresult cuemu_ipc_mem_get(uintptr_t p, CUipcMemHandle *out)
{
	struct cuemu_alloc *a = cuemu_va_find(p);
	int fd;

	if (!a || p >= a->base + a->size)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%#lx is in no allocation", (unsigned long)p);
	if (a->kind != CUEMU_KIND_DEVICE)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%#lx is %s memory; only cuMemAlloc memory "
				  "has a legacy IPC handle", (unsigned long)p,
				  cuemu_kind_names[a->kind]);
	if ((fd = cuemu_devmem_fd(a->device)) < 0 ||
	    a->file_epoch != cuemu_devmem_epoch())
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "allocation %llu is not in this process's "
				  "device memory file",
				  (unsigned long long)a->id);
	if (!a->ipc_exported) {
		uint64_t index;
		void *sp;

		if (slot_new(&index, &sp) < 0)
			return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "no "
					  "interprocess slot is left in this "
					  "process");
		a->ipc_slot = (uint32_t)index;
		a->ipc_exported = true;
		cuemu_obj_changed(a->id);
		cuemu_event_log("ipc_export", "id=%llu",
				(unsigned long long)a->id);
	}
	memset(out, 0, sizeof *out);
	WIRE_PUT(out, magic, MEM_MAGIC);
	WIRE_PUT(out, pid, (int32_t)my_pid());
	WIRE_PUT(out, fd, fd);
	WIRE_PUT(out, slot_fd, slots_fd);
	WIRE_PUT(out, start, my_start());
	WIRE_PUT(out, base, a->base);
	WIRE_PUT(out, span, a->span);
	WIRE_PUT(out, size, a->size);
	WIRE_PUT(out, id, a->id);
	WIRE_PUT(out, dev, a->device);
	WIRE_PUT(out, slot, a->ipc_slot);
	known_put(p, out);
	return CUDA_SUCCESS;
}

bool cuemu_ipc_mem_get_known(uintptr_t p, CUipcMemHandle *out)
{
	const struct known *k = known_slot(p);
	uint64_t seq = __atomic_load_n(&k->seq, __ATOMIC_ACQUIRE);
	uint64_t w[HANDLE_WORDS];

	if ((seq & 1) || !__atomic_load_n(&k->filled, __ATOMIC_RELAXED) ||
	    __atomic_load_n(&k->addr, __ATOMIC_RELAXED) != p ||
	    __atomic_load_n(&k->reach, __ATOMIC_RELAXED) !=
		    __atomic_load_n(cuemu_reach_generation(), __ATOMIC_ACQUIRE))
		return false;
	for (size_t i = 0; i < HANDLE_WORDS; i++)
		w[i] = __atomic_load_n(&k->words[i], __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (__atomic_load_n(&k->seq, __ATOMIC_RELAXED) != seq)
		return false;
	memcpy(out, w, sizeof w);
	return true;
}

/* Where the exporter's device memory at w->base is now: like the real
 * driver, a handle names an address of the exporter, so a handle of a
 * freed allocation opens nothing (INVALID_VALUE) and one whose address has
 * been allocated again opens the new allocation (probes/results/
 * share.txt, read_reopened_after_free). The exporter's /proc/<pid>/maps
 * says which range of which file is mapped there; *off and *len get the
 * file offset and the bytes to map. INVALID_HANDLE when the exporter is
 * gone. */
static CUresult exporter_range(const struct mem_wire *w, uint64_t *off,
			       uint64_t *len, uint64_t *vlo, uint64_t *vhi)
{
	char path[64], want[32], line[512];
	unsigned long lo, hi, fo;
	CUresult r = CUDA_ERROR_INVALID_VALUE;
	int pos = 0;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/maps", (int)w->pid);
	snprintf(want, sizeof want, "/memfd:cuemu-gpu%d ", (int)w->dev);
	if (!(f = fopen(path, "re")) ||
	    cuemu_proc_start_time(w->pid) != w->start) {
		if (f)
			fclose(f);
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE, "process %d, "
				  "which exported the handle, is gone",
				  (int)w->pid);
	}
	while (fgets(line, sizeof line, f)) {
		if (sscanf(line, "%lx-%lx %*s %lx %*s %*s %n", &lo, &hi, &fo,
			   &pos) != 3 || w->base < lo || w->base >= hi)
			continue;
		if (pos > 0 && !strncmp(line + pos, want, strlen(want))) {
			*off = fo + (w->base - lo);
			*len = hi - w->base < w->span ? hi - w->base : w->span;
			*vlo = lo;
			*vhi = hi;
			r = CUDA_SUCCESS;
		}
		break;
	}
	fclose(f);
	if (r)
		return cuemu_fail(r, "process %d has no device memory at %#llx "
				  "any more (freed)", (int)w->pid,
				  (unsigned long long)w->base);
	return CUDA_SUCCESS;
}

/* Opens the exporter's file through /proc and checks that it is a device
 * memory file of the handle's device holding [off, off+len). -1 when not. */
static int open_exporter_file(const struct mem_wire *w, uint64_t off,
			      uint64_t len)
{
	char path[64], link[64], want[32];
	struct stat st;
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)w->pid, (int)w->fd);
	if ((fd = open(path, O_RDWR | O_CLOEXEC)) < 0)
		return -1;
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	snprintf(want, sizeof want, "/memfd:cuemu-gpu%d ", (int)w->dev);
	n = readlink(link, path, sizeof path - 1);
	path[n > 0 ? n : 0] = '\0';
	if (strncmp(path, want, strlen(want)) || fstat(fd, &st) < 0 ||
	    (uint64_t)st.st_size < off + len ||
	    cuemu_proc_start_time(w->pid) != w->start) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The exporter's slot of the allocation, counting this mapping; NULL when
 * the exporter freed it (what the handle's address holds now is another
 * allocation, counted by its own slot). */
static uint64_t *mem_slot_hold(const struct mem_wire *w)
{
	uint64_t *s = slot_map(w->pid, w->slot_fd, w->start, w->slot);
	uint64_t v;

	if (!s)
		return NULL;
	v = __atomic_load_n(s, __ATOMIC_ACQUIRE);
	do {
		if (v & SLOT_FREED) {
			slot_unmap(s);
			return NULL;
		}
	} while (!__atomic_compare_exchange_n(s, &v, v + SLOT_OPEN, false,
					      __ATOMIC_ACQ_REL,
					      __ATOMIC_ACQUIRE));
	return s;
}

/* Lets go of the count of a mapping; the last one of memory the exporter
 * freed gives the device's memory back, as the real driver does
 * (probes/results/share.txt, big_close_gives_mib). */
static void mem_slot_release(uint64_t *s, int dev, size_t span)
{
	if (!s)
		return;
	if (__atomic_sub_fetch(s, SLOT_OPEN, __ATOMIC_ACQ_REL) == SLOT_FREED)
		cuemu_mem_uncharge_part(dev, span, true, false);
	slot_unmap(s);
}

/* An exporter's 2 MiB block of packed allocations, mapped here once for
 * every allocation of it opened, as the real driver maps it: the opened
 * allocations keep their offsets in it, and the bytes between them are
 * the exporter's neighbours (probes/results/pack.txt, pack.ipc.imp). */
struct imblock {
	RB_ENTRY(imblock) node;
	pid_t pid;
	uint64_t start;
	int dev;
	uint64_t off;           /* the block's offset in the exporter's file */
	void *map;
	unsigned users;         /* opened allocations in it */
};

static int cmp_imblock(struct imblock *x, struct imblock *y)
{
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

RB_HEAD(imblock_tree, imblock);
CUEMU_RB_STATIC(imblock_tree, imblock, node, cmp_imblock)
/* The exporters' blocks mapped here. Global as opened_all is; guarded by
 * cuemu_lock(). */
static struct imblock_tree imblocks = RB_INITIALIZER(&imblocks);

#define BLOCK CUEMU_GRANULARITY

/* The exporter's block holding a packed allocation whose bytes lie at off
 * of its file, the mapping [vlo, vhi) of the file there: mapped here, or
 * NULL (not a whole aligned block; the caller maps pages instead). Lock
 * held. */
static struct imblock *imblock_get(const struct mem_wire *w, uint64_t off,
				   uint64_t vlo, uint64_t vhi)
{
	uint64_t in = w->base % BLOCK, bbase = w->base - in;
	struct imblock key = { .pid = w->pid, .start = w->start,
			       .dev = w->dev, .off = off - in }, *b;
	void *at, *m = MAP_FAILED;
	int fd;

	if (!cuemu_devheap_packs(w->size) || bbase < vlo ||
	    bbase + BLOCK > vhi || in + w->size > BLOCK)
		return NULL;
	if ((b = RB_FIND(imblock_tree, &imblocks, &key)))
		return b;
	if (!(b = calloc(1, sizeof *b)))
		return NULL;
	if ((fd = open_exporter_file(w, key.off, BLOCK)) >= 0) {
		at = cuemu_devheap_place(BLOCK);
		m = mmap(at, BLOCK, PROT_READ | PROT_WRITE, MAP_SHARED |
			 MAP_NORESERVE | (at ? MAP_FIXED : 0), fd,
			 (off_t)key.off);
		if (m == MAP_FAILED && at)
			munmap(at, BLOCK);
		close(fd);
	}
	if (m == MAP_FAILED) {
		free(b);
		return NULL;
	}
	*b = key;
	b->map = m;
	RB_INSERT(imblock_tree, &imblocks, b);
	return b;
}

/* Lets go of an opened allocation's mapping. Lock held. */
static void opened_unmap(struct opened *o)
{
	if (!o->blk) {
		munmap(o->map, o->map_len);
		return;
	}
	if (--o->blk->users)
		return;
	RB_REMOVE(imblock_tree, &imblocks, o->blk);
	munmap(o->blk->map, BLOCK);
	free(o->blk);
}

/* Maps a handle not yet open here: a packed allocation in its block,
 * else the whole pages around the allocation's bytes. Lock held. */
static CUresult map_new(const struct mem_wire *w, CUcontext ctx,
			struct opened **out)
{
	uint64_t off = 0, len = 0, vlo = 0, vhi = 0, moff, mlen;
	struct imblock *blk;
	struct opened *o;
	void *m = MAP_FAILED;
	CUresult r;
	int fd = -1;

	if ((r = exporter_range(w, &off, &len, &vlo, &vhi)))
		return r;
	moff = CUEMU_ALIGN_DOWN(off, CUEMU_PAGE);
	mlen = CUEMU_ALIGN_UP(off + len, CUEMU_PAGE) - moff;
	o = calloc(1, sizeof *o);
	if ((blk = o ? imblock_get(w, off, vlo, vhi) : NULL)) {
		blk->users++;
		o->blk = blk;
		m = (char *)blk->map + (w->base % BLOCK);
	} else if (o && (fd = open_exporter_file(w, moff, mlen)) >= 0) {
		m = mmap(NULL, mlen, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_NORESERVE, fd, (off_t)moff);
		close(fd);
		o->map = m;
		o->map_len = mlen;
		if (m != MAP_FAILED)
			m = (char *)m + (off - moff);
	}
	if (!o || m == MAP_FAILED) {
		free(o);
		return cuemu_fail(!o ? CUDA_ERROR_OUT_OF_MEMORY :
				  fd < 0 ? CUDA_ERROR_INVALID_HANDLE :
				  CUDA_ERROR_OUT_OF_MEMORY,
				  "the allocation of process %d cannot be "
				  "mapped (the process is gone, or the handle "
				  "is stale)", (int)w->pid);
	}
	o->pid = w->pid;
	o->start = w->start;
	o->id = w->id;
	o->charge = cuemu_devmem_charge(w->size);
	o->slot = mem_slot_hold(w);
	if (!o->slot && cuemu_devheap_packs(w->size)) {
		/* A packed allocation's place is reused once freed: what
		 * lies there now is no allocation of the handle's. */
		opened_unmap(o);
		free(o);
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "process %d "
				  "freed the allocation the handle names",
				  (int)w->pid);
	}
	o->a.kind = CUEMU_KIND_IPC;
	o->a.base = (uintptr_t)m;
	o->a.size = w->size < len ? w->size : len;
	o->a.span = len;
	o->a.device = w->dev;
	o->a.ctx = ctx;
	o->a.id = cuemu_next_id();
	o->a.priv = o;
	if (cuemu_va_insert(&o->a) < 0) {
		mem_slot_release(o->slot, w->dev, o->charge);
		opened_unmap(o);
		free(o);
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "the mapping overlaps the address map");
	}
	RB_INSERT(opened_tree, &opened_all, o);
	cuemu_event_log("ipc_open", "id=%llu exporter=%d exporter_id=%llu "
			"size=%zu", (unsigned long long)o->a.id, (int)w->pid,
			(unsigned long long)w->id, o->a.size);
	*out = o;
	return CUDA_SUCCESS;
}

CUresult cuemu_ipc_mem_open(const CUipcMemHandle *h, CUcontext ctx,
			    CUdeviceptr *out)
{
	struct opened key, *o;
	struct mem_wire w;
	CUresult r;

	memcpy(&w, h, sizeof w);
	if (w.magic != MEM_MAGIC || w.pid <= 0 || w.fd < 0 || w.dev < 0 ||
	    w.dev >= cuemu_device_count() || !w.span || w.size > w.span ||
	    w.span != cuemu_devheap_span(w.size) ||
	    w.base % CUEMU_DEVMEM_ALIGN)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "the handle is not a legacy IPC handle");
	pthread_once(&once, init_once);
	if (w.pid == my_pid() && w.start == my_start())
		return cuemu_fail(CUDA_ERROR_INVALID_CONTEXT,
				  "the handle is this process's own; use the "
				  "allocation itself");
	key.pid = w.pid;
	key.start = w.start;
	key.id = w.id;
	cuemu_lock();
	if ((o = RB_FIND(opened_tree, &opened_all, &key)))
		o->refs++;
	else if ((r = map_new(&w, ctx, &o))) {
		cuemu_unlock();
		return r;
	} else {
		o->refs = 1;
	}
	cuemu_obj_changed(o->a.id);
	*out = (CUdeviceptr)o->a.base;
	cuemu_unlock();
	return CUDA_SUCCESS;
}

CUresult cuemu_ipc_mem_close(uintptr_t p)
{
	struct cuemu_alloc *a;
	struct opened *o;

	cuemu_lock();
	a = cuemu_va_find(p);
	if (!a || a->kind != CUEMU_KIND_IPC || a->base != p) {
		cuemu_unlock();
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%#lx is not the start of memory opened "
				  "with cuIpcOpenMemHandle", (unsigned long)p);
	}
	o = a->priv;
	if (--o->refs) {
		cuemu_obj_changed(a->id);
		cuemu_unlock();
		return CUDA_SUCCESS;
	}
	RB_REMOVE(opened_tree, &opened_all, o);
	cuemu_va_remove(a);
	opened_unmap(o);
	cuemu_unlock();
	cuemu_event_log("ipc_close", "id=%llu exporter=%d",
			(unsigned long long)a->id, (int)o->pid);
	mem_slot_release(o->slot, a->device, o->charge);
	free(o);
	return CUDA_SUCCESS;
}

bool cuemu_ipc_view(const struct cuemu_alloc *a, struct cuemu_ipc_view *v)
{
	const struct opened *o;

	if (a->kind != CUEMU_KIND_IPC)
		return false;
	o = a->priv;
	v->exporter = o->pid;
	v->exporter_id = o->id;
	v->refs = o->refs;
	v->map_base = o->blk ? (uintptr_t)o->blk->map : a->base;
	v->map_size = o->blk ? BLOCK : CUEMU_ALIGN_UP(a->size, BLOCK);
	return true;
}

/* ------------------------------------------------------------ shared slots */

/* A slot of this process's slot file, zeroed, and its index; -1 when none
 * is left. No lock held. */
static int slot_new(uint64_t *index, void **ptr)
{
	int rc = -1;

	pthread_once(&once, init_once);
	pthread_mutex_lock(&slot_lock);
	if (slots_fd < 0) {
		int fd = memfd_create("cuemu-slots", MFD_CLOEXEC);
		void *m = MAP_FAILED;

		if (fd >= 0 && ftruncate(fd, SLOT_FILE) == 0)
			m = mmap(NULL, SLOT_FILE, PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_NORESERVE, fd, 0);
		if (m == MAP_FAILED) {
			if (fd >= 0)
				close(fd);
		} else {
			slots_fd = fd;
			slots = m;
		}
	}
	if (slots_fd >= 0 && slots_next < SLOT_FILE / SLOT_BYTES) {
		*index = slots_next++;
		*ptr = slots + *index * SLOT_BYTES;
		rc = 0;
	}
	pthread_mutex_unlock(&slot_lock);
	return rc;
}

/* Maps slot index of the slot file that process pid (started at start)
 * has as descriptor fd: a pointer into one page, or NULL. */
static void *slot_map(pid_t pid, int fd, uint64_t start, uint64_t index)
{
	char path[64];
	struct stat st;
	uint64_t off = CUEMU_ALIGN_DOWN(index * SLOT_BYTES, CUEMU_PAGE);
	void *m = MAP_FAILED;
	int f;

	if (pid <= 0 || fd < 0 || index >= SLOT_FILE / SLOT_BYTES)
		return NULL;
	snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)pid, fd);
	if ((f = open(path, O_RDWR | O_CLOEXEC)) >= 0) {
		if (fstat(f, &st) == 0 && st.st_size == SLOT_FILE &&
		    cuemu_proc_start_time(pid) == start)
			m = mmap(NULL, CUEMU_PAGE, PROT_READ | PROT_WRITE,
				 MAP_SHARED, f, (off_t)off);
		close(f);
	}
	return m == MAP_FAILED ? NULL :
		(unsigned char *)m + (index * SLOT_BYTES - off);
}

static void slot_unmap(void *p)
{
	munmap((void *)CUEMU_ALIGN_DOWN((uintptr_t)p, CUEMU_PAGE), CUEMU_PAGE);
}

/* -------------------------------------------------- interprocess events */

struct ev_wire {
	uint64_t magic;
	int32_t pid, fd;
	uint64_t start;
	uint64_t slot;
};
_Static_assert(sizeof(struct ev_wire) <= sizeof(CUipcEventHandle),
	       "an event handle fits the API's 64 bytes");

CUresult cuemu_evshare_new(struct cuemu_evshare **out, CUipcEventHandle *h)
{
	struct ev_wire w = { .magic = EV_MAGIC };
	void *p;

	if (slot_new(&w.slot, &p) < 0)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "no interprocess "
				  "slot is left in this process");
	w.pid = (int32_t)my_pid();
	w.fd = slots_fd;
	w.start = my_start();
	*out = p;
	memset(h, 0, sizeof *h);
	memcpy(h, &w, sizeof w);
	return CUDA_SUCCESS;
}

CUresult cuemu_evshare_open(const CUipcEventHandle *h,
			    struct cuemu_evshare **out)
{
	struct ev_wire w;

	memcpy(&w, h, sizeof w);
	if (w.magic != EV_MAGIC || w.pid <= 0 || w.fd < 0 ||
	    w.slot >= SLOT_FILE / SLOT_BYTES)
		return cuemu_fail(CUDA_ERROR_MAP_FAILED,
				  "the handle is not an event handle");
	pthread_once(&once, init_once);
	if (w.pid == my_pid() && w.start == my_start())
		return cuemu_fail(CUDA_ERROR_INVALID_CONTEXT,
				  "the event handle is this process's own");
	if (!(*out = slot_map(w.pid, w.fd, w.start, w.slot)))
		return cuemu_fail(CUDA_ERROR_MAP_FAILED,
				  "the event of process %d cannot be mapped",
				  (int)w.pid);
	return CUDA_SUCCESS;
}

void cuemu_evshare_close(struct cuemu_evshare *s)
{
	slot_unmap(s);
}

/* ---------------------------------------------------------------- dma-buf */

/* How this process makes a dma-buf, found once: udmabuf where the device
 * opens, else a memfd opened anew through /proc/self/fd where that works.
 * Global: a property of the host for the life of the process. */
static enum dmabuf_way { WAY_UNKNOWN, WAY_NONE, WAY_UDMABUF, WAY_REOPEN }
	dmabuf_way_found;

static bool reopen_works(void)
{
	char path[64];
	int fd = memfd_create("cuemu-dmabuf-check", MFD_CLOEXEC), again;

	if (fd < 0)
		return false;
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	again = open(path, O_RDWR | O_CLOEXEC);
	close(fd);
	if (again < 0)
		return false;
	close(again);
	return true;
}

static enum dmabuf_way dmabuf_way(void)
{
	enum dmabuf_way w = __atomic_load_n(&dmabuf_way_found,
					    __ATOMIC_ACQUIRE);
	int fd;

	if (w != WAY_UNKNOWN)
		return w;
	fd = open("/dev/udmabuf", O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		w = WAY_UDMABUF;
	} else {
		w = reopen_works() ? WAY_REOPEN : WAY_NONE;
	}
	__atomic_store_n(&dmabuf_way_found, w, __ATOMIC_RELEASE);
	return w;
}

bool cuemu_dmabuf_available(void)
{
	return dmabuf_way() != WAY_NONE;
}

/* The memfd and offset behind [p, +size): device memory or one VMM
 * mapping of cuMemCreate memory. Lock held. */
static CUresult range_backing(uintptr_t p, size_t size, int *fd,
			      uint64_t *off)
{
	struct cuemu_alloc *a = cuemu_va_find(p);
	struct cuemu_handle_info hi;
	struct cuemu_map_info mi;

	if (a && a->kind == CUEMU_KIND_DEVICE && p + size >= p &&
	    p + size <= a->base + a->span &&
	    a->file_epoch == cuemu_devmem_epoch() &&
	    cuemu_devheap_linear(a, p, size)) {
		*fd = cuemu_devmem_fd(a->device);
		*off = a->file_off + (p - a->base);
		return *fd < 0 ? cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
					    "no device memory file") :
			CUDA_SUCCESS;
	}
	if (a && a->kind == CUEMU_KIND_RESERVATION &&
	    cuemu_vmm_lookup(p, -1, &mi) && !mi.multicast &&
	    p + size >= p && p + size <= mi.map_base + mi.map_size &&
	    cuemu_vmm_handle_info((CUmemGenericAllocationHandle)mi.handle_id,
				  &hi) &&
	    hi.loc.type == CU_MEM_LOCATION_TYPE_DEVICE) {
		*fd = hi.fd;
		*off = mi.map_offset + (p - mi.map_base);
		return CUDA_SUCCESS;
	}
	return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
			  "[%#lx, +%zu) is not inside one allocation of "
			  "device memory (cuMemAlloc, or a mapping of "
			  "cuMemCreate memory)", (unsigned long)p, size);
}

/* The memfd fd opened anew, its position at off: a descriptor of its own
 * that maps the same pages at that offset. */
static CUresult reopen_at(int fd, uint64_t off, int *out)
{
	char path[64];
	int again;

	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	if ((again = open(path, O_RDWR | O_CLOEXEC)) < 0)
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED, "cannot open the "
				  "device memory file again (%s): %s", path,
				  strerror(errno));
	if (lseek(again, (off_t)off, SEEK_SET) < 0) {
		close(again);
		return cuemu_fail(CUDA_ERROR_OPERATING_SYSTEM, "lseek: %s",
				  strerror(errno));
	}
	*out = again;
	return CUDA_SUCCESS;
}

static CUresult udmabuf_of(int fd, uint64_t off, size_t size, int *out)
{
	struct udmabuf_create c = { .flags = UDMABUF_FLAGS_CLOEXEC };
	int dev, buf;

	if ((dev = open("/dev/udmabuf", O_RDWR | O_CLOEXEC)) < 0)
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED,
				  "/dev/udmabuf: %s", strerror(errno));
	c.memfd = (uint32_t)fd;
	c.offset = off;
	c.size = size;
	buf = ioctl(dev, UDMABUF_CREATE, &c);
	close(dev);
	if (buf < 0)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "udmabuf: %s", strerror(errno));
	*out = buf;
	return CUDA_SUCCESS;
}

CUresult cuemu_dmabuf_get(uintptr_t p, size_t size, int *out)
{
	uint64_t off = 0;
	CUresult r;
	int fd = -1;

	if ((r = range_backing(p, size, &fd, &off)))
		return r;
	switch (dmabuf_way()) {
	case WAY_UDMABUF:
		return udmabuf_of(fd, off, size, out);
	case WAY_REOPEN:
		return reopen_at(fd, off, out);
	default:
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED, "this machine "
				  "cannot make a dma-buf (neither /dev/udmabuf "
				  "nor /proc/self/fd opens): the devices answer "
				  "DMA_BUF_SUPPORTED 0");
	}
}
