/*
 * machine.c - the emulated machine every process on the host shares: a
 * POSIX shared-memory segment (named by CUEMU_MACHINE, default "cuemu")
 * holding the topology, each device's capacity and use, machine-wide
 * counters, the id counter and the process table.
 *
 * The first process to attach creates the segment from CUEMU_TOPOLOGY (a
 * JSON file) or the built-in default; the others map it and wait until it
 * is marked ready, so two processes started together agree on everything.
 * Each process that charges memory takes a row of the process table and
 * charges its row as well as the device; a row whose process is gone is
 * reclaimed (its use given back) by the next process that attaches or runs
 * short of memory.
 *
 * Locking: use and counters are atomics; the process table is changed under
 * the segment's robust, process-shared mutex, which is the innermost lock
 * of the runtime.
 */
#include "model/topology.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SEG_MAGIC 0x6375656d756d6368ULL /* "cuemumch" */
#define SEG_VERSION 1
#define SEG_PROCS 256

struct seg_proc {
	int32_t pid;          /* 0: free */
	uint32_t uid;
	uint64_t start;       /* /proc/<pid>/stat start time: pid reuse guard */
	uint64_t used[CUEMU_MAX_DEVICES];
};

struct segment {
	uint64_t magic;
	uint32_t version;
	uint32_t ready;       /* set (release) once the topology is written */
	uint64_t size;        /* sizeof(struct segment), a layout check */
	pthread_mutex_t lock; /* process table */
	struct cuemu_topology topo;
	uint64_t next_id;
	uint64_t used[CUEMU_MAX_DEVICES];
	uint64_t counters[CUEMU_NPROC][CUEMU_CTR__COUNT];
	struct seg_proc procs[SEG_PROCS];
};

const char *const cuemu_counter_names[CUEMU_CTR__COUNT] = {
	[CUEMU_CTR_GPU_FAULTS] = "gpu_faults",
	[CUEMU_CTR_CPU_FAULTS] = "cpu_faults",
	[CUEMU_CTR_BYTES_HTOD] = "bytes_htod",
	[CUEMU_CTR_BYTES_DTOH] = "bytes_dtoh",
	[CUEMU_CTR_BYTES_DTOD] = "bytes_dtod",
	[CUEMU_CTR_MIGRATIONS] = "migrations",
	[CUEMU_CTR_EVICTIONS] = "evictions",
	[CUEMU_CTR_EVICTED_BYTES] = "evicted_bytes",
	[CUEMU_CTR_THRASH] = "thrash",
	[CUEMU_CTR_REMOTE_ACCESSES] = "remote_accesses",
};

/* The mapped segment and this process's row in it. Global because the
 * machine is one per process by definition; set once under attach_lock. */
static struct segment *seg;
static int my_row = -1;
static pthread_mutex_t attach_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t proc_start_time(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long start = 0;
	FILE *f;
	int field;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "r")))
		return 0;
	if (!fgets(buf, sizeof buf, f))
		buf[0] = '\0';
	fclose(f);
	/* Field 22 (starttime) counts from after the ")" that ends comm. */
	if (!(p = strrchr(buf, ')')))
		return 0;
	for (field = 2; *p && field < 22; p++)
		if (*p == ' ')
			field++;
	sscanf(p, "%llu", &start);
	return start;
}

static bool proc_alive(const struct seg_proc *r)
{
	if (kill(r->pid, 0) < 0 && errno == ESRCH)
		return false;
	return proc_start_time(r->pid) == r->start;
}

static void seg_lock(void)
{
	if (pthread_mutex_lock(&seg->lock) == EOWNERDEAD)
		pthread_mutex_consistent(&seg->lock);
}

/* Gives back what dead processes held. Segment lock held. */
static void reclaim_dead(void)
{
	for (int i = 0; i < SEG_PROCS; i++) {
		struct seg_proc *r = &seg->procs[i];
		if (!r->pid || i == my_row || proc_alive(r))
			continue;
		for (int d = 0; d < CUEMU_MAX_DEVICES; d++)
			__atomic_sub_fetch(&seg->used[d], r->used[d], __ATOMIC_RELAXED);
		cuemu_debug("reclaimed machine row %d of dead pid %d", i, r->pid);
		memset(r, 0, sizeof *r);
	}
}

static int claim_row(void)
{
	int row = -1;

	seg_lock();
	reclaim_dead();
	for (int i = 0; i < SEG_PROCS && row < 0; i++) {
		if (seg->procs[i].pid)
			continue;
		row = i;
		memset(&seg->procs[i], 0, sizeof seg->procs[i]);
		seg->procs[i].pid = getpid();
		seg->procs[i].uid = getuid();
		seg->procs[i].start = proc_start_time(getpid());
	}
	pthread_mutex_unlock(&seg->lock);
	return row;
}

static int valid_name(const char *name)
{
	if (!*name || strlen(name) > 200)
		return 0;
	for (const char *p = name; *p; p++)
		if (!(isalnum((unsigned char)*p) || *p == '-' || *p == '_' || *p == '.'))
			return 0;
	return 1;
}

static int load_topology(struct cuemu_topology *t)
{
	const char *path = getenv("CUEMU_TOPOLOGY");
	char err[512];

	if (!path || !*path) {
		cuemu_topology_default(t);
		return 0;
	}
	if (cuemu_topology_load(path, t, err, sizeof err) < 0) {
		fprintf(stderr, "cuemu: topology rejected: %s\n", err);
		cuemu_fail(CUDA_ERROR_INVALID_VALUE, "topology rejected: %s", err);
		return -1;
	}
	return 0;
}

static int init_segment(struct segment *s, const struct cuemu_topology *t)
{
	pthread_mutexattr_t ma;

	memset(s, 0, sizeof *s);
	s->magic = SEG_MAGIC;
	s->version = SEG_VERSION;
	s->size = sizeof *s;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_mutexattr_setrobust(&ma, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(&s->lock, &ma);
	pthread_mutexattr_destroy(&ma);
	s->topo = *t;
	s->next_id = 1;
	__atomic_store_n(&s->ready, 1, __ATOMIC_RELEASE);
	return 0;
}

static struct segment *map_fd(int fd)
{
	void *p = mmap(NULL, sizeof(struct segment), PROT_READ | PROT_WRITE,
		       MAP_SHARED, fd, 0);
	return p == MAP_FAILED ? NULL : p;
}

/* Opens an existing segment and waits (up to 5 s) for its creator. */
static struct segment *open_existing(const char *shm)
{
	struct segment *s;
	struct stat st;
	int fd, tries;

	if ((fd = shm_open(shm, O_RDWR, 0)) < 0)
		return NULL;
	for (tries = 0; tries < 500; tries++) {
		if (fstat(fd, &st) == 0 && (size_t)st.st_size >= sizeof *s)
			break;
		usleep(10000);
	}
	if ((size_t)st.st_size != sizeof *s) {
		close(fd);
		cuemu_fail(CUDA_ERROR_NO_DEVICE, "machine segment %s has another "
			   "layout (an older version?): remove /dev/shm%s", shm, shm);
		errno = EPROTO;
		return NULL;
	}
	s = map_fd(fd);
	close(fd);
	if (!s)
		return NULL;
	for (tries = 0; tries < 500 && !__atomic_load_n(&s->ready, __ATOMIC_ACQUIRE); tries++)
		usleep(10000);
	if (s->magic != SEG_MAGIC || s->version != SEG_VERSION ||
	    s->size != sizeof *s || !s->ready) {
		munmap(s, sizeof *s);
		cuemu_fail(CUDA_ERROR_NO_DEVICE, "machine segment %s is not "
			   "usable: remove /dev/shm%s", shm, shm);
		errno = EPROTO;
		return NULL;
	}
	return s;
}

static struct segment *create_or_open(const char *shm)
{
	struct cuemu_topology t;
	struct segment *s;
	int fd;

	/* Validate our own topology file even when the machine exists: a bad
	 * file is an error the user must hear about. */
	if (load_topology(&t) < 0)
		return NULL;
	for (int attempt = 0; attempt < 3; attempt++) {
		fd = shm_open(shm, O_RDWR | O_CREAT | O_EXCL, 0600);
		if (fd >= 0) {
			if (ftruncate(fd, sizeof *s) < 0 || !(s = map_fd(fd))) {
				close(fd);
				shm_unlink(shm);
				return NULL;
			}
			close(fd);
			init_segment(s, &t);
			return s;
		}
		if (errno != EEXIST)
			break;
		if ((s = open_existing(shm)) || errno == EPROTO)
			return s;
	}
	cuemu_fail(CUDA_ERROR_NO_DEVICE, "cannot open machine segment %s: %s",
		   shm, strerror(errno));
	return NULL;
}

/* A forked child is another process: it must charge a row of its own, or
 * what it holds would never be reclaimed when it dies. */
static void forget_row_in_child(void)
{
	my_row = -1;
}

int cuemu_machine_attach(void)
{
	const char *name = getenv("CUEMU_MACHINE");
	char shm[256];
	int rc = 0;

	pthread_mutex_lock(&attach_lock);
	if (seg)
		goto out;
	if (!name || !*name)
		name = "cuemu";
	if (!valid_name(name)) {
		cuemu_fail(CUDA_ERROR_INVALID_VALUE, "CUEMU_MACHINE '%s' must be "
			   "letters, digits, '-', '_' or '.'", name);
		rc = -1;
		goto out;
	}
	snprintf(shm, sizeof shm, "/%s", name);
	if (!(seg = create_or_open(shm)))
		rc = -1;
	else
		pthread_atfork(NULL, NULL, forget_row_in_child);
out:
	pthread_mutex_unlock(&attach_lock);
	return rc;
}

/* ---------------------------------------------------------------- queries */

int cuemu_device_count(void)
{
	return seg ? seg->topo.ndev : 0;
}

const struct cuemu_device_info *cuemu_device(int dev)
{
	if (!seg || dev < 0 || dev >= seg->topo.ndev)
		return NULL;
	return &seg->topo.dev[dev];
}

int cuemu_numa_count(void)
{
	return seg ? seg->topo.nnuma : 0;
}

bool cuemu_numa_valid(int node)
{
	return seg && node >= 0 && node < seg->topo.nnuma;
}

uint64_t cuemu_numa_total(int node)
{
	return cuemu_numa_valid(node) ? seg->topo.numa_total[node] : 0;
}

const char *cuemu_machine_name(void)
{
	return seg ? seg->topo.name : "";
}

static bool proc_ok(int p)
{
	return seg && ((p >= 0 && p < seg->topo.ndev) || p == CUEMU_PROC_HOST);
}

const struct cuemu_link *cuemu_link(int from, int to)
{
	static const struct cuemu_link none;

	if (!proc_ok(from) || !proc_ok(to))
		return &none;
	return &seg->topo.link[from][to];
}

uint64_t cuemu_copy_cost_ns(int from, int to, size_t bytes)
{
	const struct cuemu_link *l = cuemu_link(from, to);

	if (l->gbps <= 0)
		return 0;
	/* GB/s is bytes per nanosecond. */
	return l->lat_ns + (uint64_t)((double)bytes / l->gbps);
}

uint64_t cuemu_fault_latency_ns(void)
{
	return seg ? seg->topo.gpu_fault_ns : 0;
}

uint64_t cuemu_fault_cost_ns(int from, int to, size_t bytes, size_t page_bytes)
{
	const struct cuemu_link *l = cuemu_link(from, to);
	uint64_t faults, per;

	if (!seg || page_bytes == 0)
		return 0;
	faults = (bytes + page_bytes - 1) / page_bytes;
	per = to == CUEMU_PROC_HOST ? seg->topo.cpu_fault_ns : seg->topo.gpu_fault_ns;
	return faults * per + (l->gbps > 0 ? (uint64_t)((double)bytes / l->gbps) : 0);
}

/* ---------------------------------------------------------------- accounting */

static bool try_charge(int dev, uint64_t bytes)
{
	uint64_t total = seg->topo.dev[dev].total;
	uint64_t cur = __atomic_load_n(&seg->used[dev], __ATOMIC_RELAXED);

	do {
		if (cur + bytes < cur || cur + bytes > total)
			return false;
	} while (!__atomic_compare_exchange_n(&seg->used[dev], &cur, cur + bytes,
					      true, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	return true;
}

bool cuemu_mem_charge(int dev, uint64_t bytes)
{
	if (!seg || dev < 0 || dev >= seg->topo.ndev)
		return false;
	if (my_row < 0) {
		pthread_mutex_lock(&attach_lock);
		if (my_row < 0)
			my_row = claim_row();
		pthread_mutex_unlock(&attach_lock);
		if (my_row < 0)
			return false;
	}
	if (!try_charge(dev, bytes)) {
		/* A dead process may still hold what we need. */
		seg_lock();
		reclaim_dead();
		pthread_mutex_unlock(&seg->lock);
		if (!try_charge(dev, bytes))
			return false;
	}
	__atomic_add_fetch(&seg->procs[my_row].used[dev], bytes, __ATOMIC_RELAXED);
	return true;
}

void cuemu_mem_uncharge(int dev, uint64_t bytes)
{
	if (!seg || dev < 0 || dev >= seg->topo.ndev || my_row < 0)
		return;
	__atomic_sub_fetch(&seg->used[dev], bytes, __ATOMIC_RELAXED);
	__atomic_sub_fetch(&seg->procs[my_row].used[dev], bytes, __ATOMIC_RELAXED);
}

uint64_t cuemu_mem_used(int dev)
{
	/* Readers (cuMemGetInfo, /cu) should not see what a killed process
	 * held; look for dead rows at most once a second. */
	static time_t last_reclaim;
	time_t now = time(NULL);

	if (!seg || dev < 0 || dev >= seg->topo.ndev)
		return 0;
	if (now != __atomic_load_n(&last_reclaim, __ATOMIC_RELAXED)) {
		__atomic_store_n(&last_reclaim, now, __ATOMIC_RELAXED);
		seg_lock();
		reclaim_dead();
		pthread_mutex_unlock(&seg->lock);
	}
	return __atomic_load_n(&seg->used[dev], __ATOMIC_RELAXED);
}

void cuemu_counter_add(int dev, enum cuemu_counter c, uint64_t n)
{
	if (proc_ok(dev))
		__atomic_add_fetch(&seg->counters[dev][c], n, __ATOMIC_RELAXED);
	cuemu_proc_counter_add(c, n);
}

uint64_t cuemu_counter_get(int dev, enum cuemu_counter c)
{
	return proc_ok(dev) ? __atomic_load_n(&seg->counters[dev][c],
					      __ATOMIC_RELAXED) : 0;
}

uint64_t cuemu_next_id(void)
{
	/* Ids must be unique across processes; before the machine exists
	 * (never in practice: cuInit attaches first) fall back to a local
	 * counter so callers need not check. */
	static uint64_t local = 1ULL << 62;

	if (!seg)
		return __atomic_fetch_add(&local, 1, __ATOMIC_RELAXED);
	return __atomic_fetch_add(&seg->next_id, 1, __ATOMIC_RELAXED);
}
