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
 * Who may join: the segment is created 0660 with the group CUEMU_GROUP
 * names, else the default group (CUEMU_DEFAULT_GROUP, "cuemu" unless
 * configure --with-group says otherwise) when the host has it, else 0600,
 * its creator's alone: the group plays the part of the render nodes' group
 * of a real GPU. Every member can write the whole segment, so what is read
 * from it is outside input (segment.h); what each user's processes hold
 * (allocations, control sockets) stays in the processes themselves.
 *
 * A segment stays after its last process exits; cuemu_machine_remove
 * (cufs --remove-machine) removes one its owner asks for while no process
 * is attached.
 *
 * Whom it trusts: a process joins an existing segment only when it is
 * made as here (0660 with its group, by root or a member; or 0600, its
 * own), and nothing it reads there is a pointer or handed to code that
 * follows one. cufs reads it through a private copy (reader mode).
 *
 * Locking: use and counters are atomics; the process table is changed
 * under the table lock, an open-file-description lock on a byte of the
 * segment's file (segment.h) that the kernel frees when its holder dies,
 * taken with a bound and never by a reader; threads of the process take
 * turns at table_mu first. It is the innermost lock of the runtime. Each
 * process holds its row's lock byte while it lives: a row counts only
 * while someone does.
 */
#include "model/segment.h"
#include "model/clock.h"
#include "model/procstat.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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

/* The segment's topology as it was checked at attach. It never changes once
 * the segment is ready, and any process may write the segment, so every
 * query reads this copy: a later scribble cannot make a count or a string
 * lie out of bounds. Set once under attach_lock, before seg. */
static struct cuemu_topology topo;

/* Where the segment's arrays are, from the counts of topo (checked): its
 * whole size, each device's use, the counters ((ndev + 1) processors, the
 * host last) and each row's use of each device. Set with seg. */
static struct seg_layout lay;
/* s_used: each device's orphaned bytes (segment.h); its use is those and
 * the sum over the rows (sum_rows). */
static uint64_t *s_used, *s_ctr, *s_rows;

/* Row i's use of each device. */
static uint64_t *row_used(int i)
{
	return s_rows + (size_t)i * (size_t)topo.ndev;
}

/* The process's view of the machine (cudaenv.c sets it at cuInit from
 * CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER): its device ordinal i is
 * the machine's GPU view[i]. nview -1: no view, ordinals are the
 * machine's indices (cufs, and a process before cuInit). Every query
 * below that takes a device or processor takes an ordinal and maps it
 * here, so the rest of the model speaks ordinals only. Set once, under
 * the model's init lock, before the model is marked initialized. */
static int view[CUEMU_MAX_DEVICES];
static int nview = -1;

/* How long the process-table lock is waited for: a lock word that another
 * process scribbled on (or a holder stopped for ever) must end in an error,
 * never a hang. One holder keeping it SEG_LOCK_TIMEOUT_S is stuck; a lock
 * that changes hands meanwhile is only busy (hundreds of processes
 * starting at once) and is waited for up to SEG_LOCK_BUSY_S. */
#define SEG_LOCK_TIMEOUT_S 2
#define SEG_LOCK_BUSY_S 60

/* The shm name of the attached segment, for messages. */
static char seg_name[256];

/* Process-table rows already reported as corrupt (reported once each). */
static uint8_t row_reported[SEG_PROCS];

/* The real uid of a process, from /proc/<pid>/status; -1 when it cannot
 * be read (gone, or hidden from us by hidepid). */
static long proc_uid(pid_t pid)
{
	char path[64], line[256];
	long uid = -1;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	if (!(f = fopen(path, "r")))
		return -1;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "Uid: %ld", &uid) == 1)
			break;
	fclose(f);
	return uid;
}

/* Whether the row's process still runs. Rows are every user's: a row is
 * given up only on proof that its process is gone (no such pid, or a pid
 * now used by another process: another start time or another user).
 * When /proc hides another user's processes (hidepid) the row is kept:
 * freeing a live process's row would hand its memory out twice. */
static bool proc_alive(const struct seg_proc *r)
{
	uint64_t start;
	long uid;

	if (kill(r->pid, 0) < 0 && errno == ESRCH)
		return false;
	start = cuemu_proc_start_time(r->pid);
	uid = proc_uid(r->pid);
	if (start == 0 && uid < 0)
		return kill(r->pid, 0) == 0 || errno != ESRCH;
	if (uid >= 0 && (uint32_t)uid != r->uid)
		return false;
	return start == r->start;
}

/* The segment's open file description, kept for its locks (segment.h):
 * the process-table lock and this process's row lock are held through it.
 * -1 before attach, and in a forked child until it needs it again (the
 * parent's description is not the child's: a lock held through it would
 * outlive the parent in the child). Set under attach_lock. */
static int seg_fd = -1;

/* The threads of this process share seg_fd, and a description's lock
 * never excludes itself: they take turns here before the file's lock. */
static pthread_mutex_t table_mu = PTHREAD_MUTEX_INITIALIZER;

/* One byte's open-file-description lock on seg_fd: F_OFD_SETLK with
 * type (F_WRLCK, F_UNLCK), never waiting. 0, or -1 with errno. */
static int ofd_lock(off_t at, short type)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET,
			    .l_start = at, .l_len = 1 };

	return fcntl(seg_fd, F_OFD_SETLK, &fl);
}

/* Whether any open file description but ours holds byte at. */
static bool ofd_held(off_t at)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET,
			    .l_start = at, .l_len = 1 };

	return fcntl(seg_fd, F_OFD_GETLK, &fl) == 0 && fl.l_type != F_UNLCK;
}

static void seg_unlock(void)
{
	ofd_lock(SEG_LOCK_TABLE, F_UNLCK);
	pthread_mutex_unlock(&table_mu);
}

/* The table lock if it is free now: a reader never waits on it. */
static bool seg_trylock(void)
{
	if (seg_fd < 0 || pthread_mutex_trylock(&table_mu) != 0)
		return false;
	if (ofd_lock(SEG_LOCK_TABLE, F_WRLCK) == 0)
		return true;
	pthread_mutex_unlock(&table_mu);
	return false;
}

static void say_lock_held(bool busy)
{
	if (busy)
		cuemu_fail(CUDA_ERROR_OPERATING_SYSTEM, "machine segment %s: "
			   "its process-table lock stayed busy for %d s (too "
			   "many processes starting at once)", seg_name,
			   SEG_LOCK_BUSY_S);
	else
		cuemu_fail(CUDA_ERROR_OPERATING_SYSTEM, "machine segment %s: "
			   "its process-table lock was held for %d s by a "
			   "process of the machine that does not release it "
			   "(stopped, or not a libcuemu process: the lock is "
			   "released when its holder ends)", seg_name,
			   SEG_LOCK_TIMEOUT_S);
}

/* Takes the process-table lock: false, with a message saying why, when
 * one holder keeps it SEG_LOCK_TIMEOUT_S, or it stays busy (changing
 * hands, lock_turns moving) for SEG_LOCK_BUSY_S. The kernel keeps the
 * lock and frees it when its holder dies, so no holder is ever dead; one
 * that keeps it is waited for with a bound, never for ever. */
static bool seg_lock(void)
{
	struct timespec t0, since, t;
	uint64_t turns, was;
	long nap_us = 100;

	if (seg_fd < 0) {
		cuemu_fail(CUDA_ERROR_OPERATING_SYSTEM, "machine segment %s: "
			   "not open", seg_name);
		return false;
	}
	pthread_mutex_lock(&table_mu);
	was = __atomic_load_n(&seg->lock_turns, __ATOMIC_RELAXED);
	cuemu_libc.clock_gettime(CLOCK_MONOTONIC, &t0);
	since = t0;
	while (ofd_lock(SEG_LOCK_TABLE, F_WRLCK) < 0) {
		if (errno != EAGAIN && errno != EACCES && errno != EINTR) {
			cuemu_fail(CUDA_ERROR_OPERATING_SYSTEM, "machine "
				   "segment %s: cannot lock its process table: "
				   "%s", seg_name, strerror(errno));
			pthread_mutex_unlock(&table_mu);
			return false;
		}
		cuemu_libc.clock_gettime(CLOCK_MONOTONIC, &t);
		turns = __atomic_load_n(&seg->lock_turns, __ATOMIC_RELAXED);
		if (turns != was) {
			was = turns;
			since = t;
		}
		if (t.tv_sec - since.tv_sec >= SEG_LOCK_TIMEOUT_S ||
		    t.tv_sec - t0.tv_sec >= SEG_LOCK_BUSY_S) {
			say_lock_held(t.tv_sec - since.tv_sec <
				      SEG_LOCK_TIMEOUT_S);
			pthread_mutex_unlock(&table_mu);
			return false;
		}
		cuemu_libc.usleep((useconds_t)nap_us);
		nap_us = nap_us < 10000 ? nap_us * 2 : 10000;
	}
	__atomic_add_fetch(&seg->lock_turns, 1, __ATOMIC_RELAXED);
	return true;
}

/* A row holds a plausible process: a pid, and no more on any device than
 * the device has. Rows of a scribbled segment fail this and are ignored. */
static bool row_valid(int i)
{
	const uint64_t *u = row_used(i);

	if (seg->procs[i].pid <= 0)
		return false;
	for (int d = 0; d < topo.ndev; d++)
		if (u[d] > topo.dev[d].total)
			return false;
	return true;
}

/* Row i free, and using nothing. */
static void row_clear(int i)
{
	memset(&seg->procs[i], 0, sizeof seg->procs[i]);
	memset(row_used(i), 0, (size_t)topo.ndev * sizeof(uint64_t));
}

/* Subtracts, never below zero: the segment's counts are outside input. */
static void sub_sat(uint64_t *p, uint64_t n)
{
	uint64_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);

	while (!__atomic_compare_exchange_n(p, &cur, cur > n ? cur - n : 0,
					    true, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED))
		;
}

static void report_row(int i, const struct seg_proc *r)
{
	if (row_reported[i])
		return;
	row_reported[i] = 1;
	fprintf(stderr, "cuemu: machine segment %s: process-table row %d is "
		"corrupt (pid %d); ignored\n", seg_name, i, (int)r->pid);
}

/* Whether row i (r, a copy) is a live process's: some process holds its
 * lock byte (the kernel's word, not the row's), and the row's pid lives
 * with its start time and uid. A row written by hand, with no process
 * holding its byte, is no one's, however real the pid it names. Our own
 * row is ours: our own lock never conflicts with us. */
static bool row_live(int i, const struct seg_proc *r)
{
	if (i == my_row)
		return true;
	return ofd_held(SEG_LOCK_ROW(i)) && proc_alive(r);
}

/* Gives back what dead processes held; a row that is not valid is freed
 * without giving anything back. Segment lock held. */
static void reclaim_dead(void)
{
	for (int i = 0; i < SEG_PROCS; i++) {
		struct seg_proc r;

		memcpy(&r, &seg->procs[i], sizeof r);
		if (!r.pid || i == my_row)
			continue;
		if (!row_valid(i)) {
			report_row(i, &r);
			row_clear(i);
			continue;
		}
		if (row_live(i, &r))
			continue;
		cuemu_debug("reclaimed machine row %d of pid %d, which holds "
			    "it no more", i, r.pid);
		row_clear(i);
	}
}

/* Reclaims dead rows if the lock is free now; if not, whoever holds it
 * may be doing just that, and the caller (a reader of the use, or a
 * charge that did not fit) goes on with the counts as they are: a reader
 * never waits on the process table. */
static void reclaim_if_lockable(void)
{
	if (!seg_trylock())
		return;
	reclaim_dead();
	seg_unlock();
}

/* Takes the first free row for this process: its index, or -1. A row is
 * free when its pid is 0 and no process holds its lock byte, which this
 * process then holds for as long as it lives. Segment lock held. */
static int take_free_row(void)
{
	for (int i = 0; i < SEG_PROCS; i++) {
		if (seg->procs[i].pid || ofd_lock(SEG_LOCK_ROW(i), F_WRLCK) < 0)
			continue;
		row_clear(i);
		seg->procs[i].pid = getpid();
		seg->procs[i].uid = getuid();
		seg->procs[i].start = cuemu_proc_start_time(getpid());
		return i;
	}
	return -1;
}

static int claim_row(void)
{
	int row;

	if (!seg_lock())
		return -1;
	/* Dead rows are looked for only when no row is free: each look
	 * reads /proc for every live row, and a thousand processes starting
	 * at once, each looking under the lock, kept it busy for minutes. */
	if ((row = take_free_row()) < 0) {
		reclaim_dead();
		row = take_free_row();
	}
	if (row >= 0 && __atomic_load_n(&seg->rows_hi, __ATOMIC_RELAXED) <=
	    (uint32_t)row)
		__atomic_store_n(&seg->rows_hi, (uint32_t)row + 1,
				 __ATOMIC_RELEASE);
	seg_unlock();
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
	char err[512], file[4200];

	if (!path || !*path) {
		if (cuemu_topology_default(t) == 0)
			return 0;
		cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "no memory for the topology");
		return -1;
	}
	if (cuemu_topology_find(path, file, sizeof file) < 0) {
		cuemu_fail(CUDA_ERROR_INVALID_VALUE, "topology rejected: '%s' is "
			   "no file and no shipped topology (%s)", path,
			   cuemu_topology_dir());
		cuemu_tell();
		return -1;
	}
	if (cuemu_topology_load(file, t, err, sizeof err) < 0) {
		cuemu_fail(CUDA_ERROR_INVALID_VALUE, "topology rejected: %s", err);
		cuemu_tell();
		return -1;
	}
	return 0;
}

/* Writes topology t into the new segment s of layout l. */
static int init_segment(struct segment *s, const struct cuemu_topology *t,
			const struct seg_layout *l)
{
	size_t p = (size_t)t->ndev + 1;

	memset(s, 0, sizeof *s);
	s->magic = SEG_MAGIC;
	s->version = SEG_VERSION;
	s->size = l->size;
	s->topo = *t;
	s->topo.dev = NULL;
	s->topo.numa_total = NULL;
	s->topo.link = NULL;
	memcpy(seg_at(s, l->dev), t->dev, (size_t)t->ndev * sizeof *t->dev);
	memcpy(seg_at(s, l->numa), t->numa_total,
	       (size_t)t->nnuma * sizeof *t->numa_total);
	memcpy(seg_at(s, l->link), t->link, p * p * sizeof *t->link);
	s->next_id = 1;
	__atomic_store_n(&s->ready, 1, __ATOMIC_RELEASE);
	return 0;
}

static struct segment *map_fd(int fd, size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	return p == MAP_FAILED ? NULL : p;
}

/* The arrays of the segment of layout l, for the queries. */
static void point_at(struct segment *s, const struct seg_layout *l)
{
	lay = *l;
	s_used = seg_at(s, l->used);
	s_ctr = seg_at(s, l->counters);
	s_rows = seg_at(s, l->rows);
}

/* Copies the topology of a segment after checking it, so that the queries
 * never read what another process may change. -1 with a message naming the
 * field when it does not hold. */
static int adopt_topology(const struct segment *s, size_t size,
			  const char *shm)
{
	char what[300], err[512];
	struct cuemu_topology t;
	struct seg_layout l;
	size_t p;

	memcpy(&t, &s->topo, sizeof t);
	snprintf(what, sizeof what, "machine segment %s", shm);
	if (seg_layout(t.ndev, t.nnuma, &l) < 0 || l.size != size ||
	    s->size != size) {
		snprintf(err, sizeof err, "%s: %s: %d devices and %d NUMA "
			 "nodes do not make a segment of %zu bytes", what,
			 t.nnuma < 0 || t.nnuma > SEG_MAX_NUMA ? "numa_nodes" :
			 "device_count", t.ndev, t.nnuma, size);
		goto refused;
	}
	memset(&topo, 0, sizeof topo);
	if (cuemu_topology_size(&topo, t.ndev, t.nnuma) < 0) {
		cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "no memory for the topology");
		return -1;
	}
	p = (size_t)t.ndev + 1;
	memcpy(topo.dev, seg_at(s, l.dev), (size_t)t.ndev * sizeof *topo.dev);
	memcpy(topo.numa_total, seg_at(s, l.numa),
	       (size_t)t.nnuma * sizeof *topo.numa_total);
	memcpy(topo.link, seg_at(s, l.link), p * p * sizeof *topo.link);
	t.dev = topo.dev;
	t.numa_total = topo.numa_total;
	t.link = topo.link;
	topo = t;
	if (cuemu_topology_check(&topo, what, err, sizeof err) < 0) {
		cuemu_topology_free(&topo);
		goto refused;
	}
	point_at((struct segment *)s, &l);
	return 0;
refused:
	cuemu_fail(CUDA_ERROR_NO_DEVICE, "%s: remove /dev/shm%s", err, shm);
	cuemu_tell();
	return -1;
}

/* ---------------------------------------------------------------- sharing */

#ifndef CUEMU_DEFAULT_GROUP
#define CUEMU_DEFAULT_GROUP "cuemu"
#endif

/* The group a segment this process creates is shared with. */
struct share {
	bool group;           /* false: its creator's alone (0600) */
	gid_t gid;
	char name[64];
};

/* A group by name or number. 0, or -1 when the host has no such group. */
static int find_group(const char *want, struct share *sh)
{
	struct group gr, *g = NULL;
	char buf[4096], *end;
	unsigned long n;

	if (getgrnam_r(want, &gr, buf, sizeof buf, &g) == 0 && g) {
		sh->gid = g->gr_gid;
		snprintf(sh->name, sizeof sh->name, "%s", g->gr_name);
		return 0;
	}
	errno = 0;
	n = strtoul(want, &end, 10);
	if (*want < '0' || *want > '9' || *end || errno || n > 0x7fffffffUL)
		return -1;
	sh->gid = (gid_t)n;
	if (getgrgid_r(sh->gid, &gr, buf, sizeof buf, &g) == 0 && g)
		snprintf(sh->name, sizeof sh->name, "%s", g->gr_name);
	else
		snprintf(sh->name, sizeof sh->name, "%lu", n);
	return 0;
}

/* Reads CUEMU_GROUP: a group name or number, or "none" for a machine of
 * its creator's alone. Unset, the default group when the host has it: a
 * machine shared by those an administrator chose, as a GPU's device nodes
 * are; without the group, private, as before the group was configured.
 * A group named but missing is an error, not a silent private machine:
 * the user asked for others to join. */
static int machine_group(struct share *sh)
{
	const char *want = getenv("CUEMU_GROUP");

	memset(sh, 0, sizeof *sh);
	if (want && strcmp(want, "none") == 0)
		return 0;
	if (want && *want) {
		if (find_group(want, sh) < 0) {
			cuemu_fail(CUDA_ERROR_NO_DEVICE, "CUEMU_GROUP '%s' is no "
				   "group of this host: name an existing group "
				   "(getent group), or none for a machine of your "
				   "own", want);
			cuemu_tell();
			return -1;
		}
		sh->group = true;
		return 0;
	}
	if (find_group(CUEMU_DEFAULT_GROUP, sh) == 0)
		sh->group = true;
	else
		cuemu_debug("no group %s on this host: a machine this process "
			    "makes is its user's alone", CUEMU_DEFAULT_GROUP);
	return 0;
}

/* Gives a new segment its group and mode (0660), whatever the umask. A
 * user may give a file only a group of their own: otherwise the machine
 * is not made, since a machine of one user under the shared name would
 * keep the group out for as long as it exists. */
static int share_fd(int fd, const char *shm, const struct share *sh)
{
	if (!sh->group)
		return fchmod(fd, 0600) < 0 ? -1 : 0;
	if (fchown(fd, (uid_t)-1, sh->gid) < 0 || fchmod(fd, 0660) < 0) {
		cuemu_fail(CUDA_ERROR_NO_DEVICE, "cannot make machine segment "
			   "%s shared with group %s: %s%s", shm, sh->name,
			   strerror(errno), errno == EPERM ? " (you are not a "
			   "member: ask an administrator to add you, or use a "
			   "machine of your own: CUEMU_MACHINE=NAME "
			   "CUEMU_GROUP=none)" : "");
		cuemu_tell();
		return -1;
	}
	return 0;
}

static const char *user_name(uid_t uid, char *buf, size_t len)
{
	struct passwd pw, *p = NULL;
	char tmp[4096];

	if (getpwuid_r(uid, &pw, tmp, sizeof tmp, &p) == 0 && p)
		snprintf(buf, len, "%s", p->pw_name);
	else
		snprintf(buf, len, "%u", (unsigned)uid);
	return buf;
}

static const char *group_name(gid_t gid, char *buf, size_t len)
{
	struct group gr, *g = NULL;
	char tmp[4096];

	if (getgrgid_r(gid, &gr, tmp, sizeof tmp, &g) == 0 && g)
		snprintf(buf, len, "%s", g->gr_name);
	else
		snprintf(buf, len, "%u", (unsigned)gid);
	return buf;
}

/* The machine exists and this process may not open it: says who owns it,
 * who may join and what to do, on stderr whatever CUEMU_DEBUG says, since
 * cuInit can only answer CUDA_ERROR_NO_DEVICE. */
static void say_denied(const char *shm)
{
	char path[300], me[64], owner[64], group[64];
	struct stat st;

	snprintf(path, sizeof path, "/dev/shm%s", shm);
	user_name(getuid(), me, sizeof me);
	if (stat(path, &st) < 0) {
		cuemu_fail(CUDA_ERROR_NO_DEVICE, "permission denied on machine "
			   "segment %s (user %s)", shm, me);
	} else if (!(st.st_mode & S_IRWXG)) {
		cuemu_fail(CUDA_ERROR_NO_DEVICE, "permission denied on machine "
			   "segment %s (%s: owner %s, group %s, mode %04o): it "
			   "is its owner's alone, made with no group to share it "
			   "(CUEMU_GROUP=none, or no group %s on the host then); "
			   "its owner may remove it when its processes are done "
			   "so that the next one makes it shared, or use a "
			   "machine of your own: CUEMU_MACHINE=NAME", shm, path,
			   user_name(st.st_uid, owner, sizeof owner),
			   group_name(st.st_gid, group, sizeof group),
			   (unsigned)(st.st_mode & 07777), CUEMU_DEFAULT_GROUP);
	} else {
		cuemu_fail(CUDA_ERROR_NO_DEVICE, "permission denied on machine "
			   "segment %s (%s: owner %s, group %s, mode %04o): user "
			   "%s is not in group %s; an administrator adds it with "
			   "'usermod -aG %s %s' (effective at the next login), or "
			   "use a machine of your own: CUEMU_MACHINE=NAME", shm,
			   path, user_name(st.st_uid, owner, sizeof owner),
			   group_name(st.st_gid, group, sizeof group),
			   (unsigned)(st.st_mode & 07777), me, group, group, me);
	}
	cuemu_tell();
}

/* Whether user uid is a member of group gid: its primary group, or a
 * supplementary one (as the host's group database says). */
static bool user_in_group(uid_t uid, gid_t gid)
{
	struct passwd pw, *p = NULL;
	char tmp[4096];
	gid_t groups[256];
	int n = 256;

	if (getpwuid_r(uid, &pw, tmp, sizeof tmp, &p) != 0 || !p)
		return false;
	if (p->pw_gid == gid)
		return true;
	if (getgrouplist(p->pw_name, p->pw_gid, groups, &n) < 0)
		n = 256;
	for (int i = 0; i < n; i++)
		if (groups[i] == gid)
			return true;
	return false;
}

/* Why an existing segment (st) may not be trusted, or NULL: a machine is
 * shared only as made here (share_fd): 0660 with its group, made by root
 * or a member of that group, or 0600, ours alone. Anything else another
 * user made to be joined (a machine squatted under the shared name, a
 * chmod 666) and is refused, whatever the kernel lets us open. With a
 * group asked for (sh), a machine of another group is not ours either. */
static const char *distrust(const struct stat *st, const struct share *sh,
			    char *why, size_t len)
{
	unsigned mode = (unsigned)(st->st_mode & 07777);
	char u[64], g[64];

	if (!S_ISREG(st->st_mode))
		return "it is not a regular file";
	if (mode == 0600) {
		if (st->st_uid == getuid())
			return NULL;
		snprintf(why, len, "mode 0600 makes it user %s's alone, not "
			 "a machine to join", user_name(st->st_uid, u, sizeof u));
		return why;
	}
	if (mode != 0660) {
		snprintf(why, len, "mode %04o is not 0660 (a machine shared "
			 "by its group) nor 0600 (its owner's)", mode);
		return why;
	}
	if (sh->group && st->st_gid != sh->gid) {
		snprintf(why, len, "its group is %s, not %s (CUEMU_GROUP, else "
			 "the default group)", group_name(st->st_gid, g,
			 sizeof g), sh->name);
		return why;
	}
	if (st->st_uid != 0 && st->st_uid != getuid() &&
	    !user_in_group(st->st_uid, st->st_gid)) {
		snprintf(why, len, "its owner %s is not root nor a member of "
			 "its group %s", user_name(st->st_uid, u, sizeof u),
			 group_name(st->st_gid, g, sizeof g));
		return why;
	}
	return NULL;
}

/* Refuses the segment shm (st) when distrust() says why: -1, errno
 * EPROTO, the reason on stderr. */
static int check_trust(const char *shm, const struct stat *st,
		       const struct share *sh)
{
	char buf[256], u[64], g[64];
	const char *why = distrust(st, sh, buf, sizeof buf);

	if (!why)
		return 0;
	cuemu_fail(CUDA_ERROR_NO_DEVICE, "machine segment %s (/dev/shm%s: "
		   "owner %s, group %s, mode %04o) is not joined: %s; an "
		   "administrator removes it and makes the machine as "
		   "libcuemu(3) says (SHARING)", shm, shm,
		   user_name(st->st_uid, u, sizeof u),
		   group_name(st->st_gid, g, sizeof g),
		   (unsigned)(st->st_mode & 07777), why);
	cuemu_tell();
	errno = EPROTO;
	return -1;
}

/* Waits (up to 5 s) for the creator of the segment open on fd to give it
 * its size; st then holds what fstat says. -1 with errno ENOENT when the
 * creator gave up and removed it, EPROTO when it is too small. */
static int wait_for_size(int fd, const char *shm, struct stat *st)
{
	for (int tries = 0; tries < 500; tries++) {
		if (fstat(fd, st) < 0)
			return -1;
		if ((size_t)st->st_size >= sizeof(struct segment))
			return 0;
		/* Its creator gave up (it could not share it) and removed
		 * it: make it again. */
		if (st->st_nlink == 0) {
			errno = ENOENT;
			return -1;
		}
		cuemu_libc.usleep(10000);
	}
	cuemu_fail(CUDA_ERROR_NO_DEVICE, "machine segment %s has another "
		   "layout (an older version?): remove /dev/shm%s", shm, shm);
	cuemu_tell();
	errno = EPROTO;
	return -1;
}

/* cufs reads the machine and never writes it (cuemu_machine_read_only):
 * its segment is a private copy of the file, refreshed with pread, so a
 * file truncated under it reads short instead of raising SIGBUS, and no
 * lock is taken. Set before the first attach; never changes after. */
static bool reader;

/* The reader's copy of the segment read short: the file shrank under it
 * (reader mode). Reported once. */
static bool shrunk;

/* A private copy of size bytes of the segment open on fd: NULL when it
 * cannot be read whole. */
static struct segment *read_copy(int fd, size_t size)
{
	struct segment *s = malloc(size);

	if (s && pread(fd, s, size, 0) != (ssize_t)size) {
		free(s);
		errno = EIO;
		return NULL;
	}
	return s;
}

/* Reader mode: the file is shorter than the copy; said once. */
static void mark_shrunk(void)
{
	if (__atomic_exchange_n(&shrunk, true, __ATOMIC_RELAXED))
		return;
	fprintf(stderr, "cuemu: machine segment %s shrank under this reader "
		"(another process truncated it): its values stay as last "
		"read\n", seg_name);
}

/* Reader mode: pread len bytes at off into the copy, again. A short read
 * leaves the copy as it was and says once that the file shrank. */
static void refresh(size_t off, size_t len)
{
	if (!reader || __atomic_load_n(&shrunk, __ATOMIC_RELAXED))
		return;
	if (off <= lay.size && len <= lay.size - off &&
	    pread(seg_fd, seg_at(seg, off), len, (off_t)off) == (ssize_t)len)
		return;
	mark_shrunk();
}

static void drop_segment(struct segment *s, size_t size)
{
	if (reader)
		free(s);
	else
		munmap(s, size);
}

/* Opens an existing segment and waits (up to 5 s) for its creator. The
 * descriptor is kept in seg_fd for the segment's locks. */
static struct segment *open_existing(const char *shm, const struct share *sh)
{
	struct segment *s;
	struct stat st;
	size_t size;
	int fd, tries;

	if ((fd = shm_open(shm, (reader ? O_RDONLY : O_RDWR) | O_CLOEXEC,
			   0)) < 0)
		return NULL;
	if (wait_for_size(fd, shm, &st) < 0 || check_trust(shm, &st, sh) < 0)
		goto fail;
	size = (size_t)st.st_size;
	if (!(s = reader ? read_copy(fd, size) : map_fd(fd, size)))
		goto fail;
	for (tries = 0; tries < 500 && !__atomic_load_n(&s->ready,
							__ATOMIC_ACQUIRE); tries++) {
		cuemu_libc.usleep(10000);
		if (reader && pread(fd, s, size, 0) != (ssize_t)size)
			break;
	}
	if (s->magic != SEG_MAGIC || s->version != SEG_VERSION || !s->ready) {
		cuemu_fail(CUDA_ERROR_NO_DEVICE, "machine segment %s is not "
			   "usable (%s): remove /dev/shm%s", shm,
			   s->magic != SEG_MAGIC ? "not a machine" :
			   s->version != SEG_VERSION ? "another version" :
			   "never made ready", shm);
		cuemu_tell();
		drop_segment(s, size);
		errno = EPROTO;
		goto fail;
	}
	if (adopt_topology(s, size, shm) < 0) {
		drop_segment(s, size);
		errno = EPROTO;
		goto fail;
	}
	seg_fd = fd;
	return s;
fail:
	tries = errno;
	close(fd);
	errno = tries;
	return NULL;
}

/* Reader mode, for the machine this process just made: its private copy
 * in place of the mapping (unmapped). NULL without memory. */
static struct segment *reader_of_mapping(struct segment *m, size_t size)
{
	struct segment *s = malloc(size);

	if (s)
		memcpy(s, m, size);
	munmap(m, size);
	return s;
}

/* Whether the machine a topology asked for is the one that exists: its
 * name, counts, memory model and devices (the UUIDs aside: the machine's
 * name derives those). */
static bool same_shape(const struct cuemu_topology *a,
		       const struct cuemu_topology *b)
{
	if (strcmp(a->name, b->name) || a->ndev != b->ndev ||
	    a->nnuma != b->nnuma || a->paradigm != b->paradigm)
		return false;
	for (int d = 0; d < a->ndev; d++)
		if (strcmp(a->dev[d].name, b->dev[d].name) ||
		    a->dev[d].total != b->dev[d].total)
			return false;
	return true;
}

/* A process that asked for a topology (CUEMU_TOPOLOGY, cufs --topology, a
 * workload's "topology") on a machine made earlier of another shape runs
 * on the machine as it is, and says so on stderr, naming both: nothing
 * else would tell it why it sees other GPUs. Once, at attach. */
static void say_other_shape(const char *shm, const struct cuemu_topology *want)
{
	const char *path = getenv("CUEMU_TOPOLOGY");

	if (!path || !*path || same_shape(want, &topo))
		return;
	fprintf(stderr, "cuemu: CUEMU_TOPOLOGY=%s asks for '%s' (%d GPU%s), "
		"but machine %s exists already as '%s' (%d GPU%s) and is used "
		"as it is: remove it once its processes are done (rm "
		"/dev/shm%s), or give this process a machine of its own "
		"(CUEMU_MACHINE=NAME)\n", path, want->name, want->ndev,
		want->ndev == 1 ? "" : "s", shm + 1, topo.name, topo.ndev,
		topo.ndev == 1 ? "" : "s", shm);
}

static struct segment *make_or_open(const char *shm, struct cuemu_topology *t)
{
	struct seg_layout l;
	struct share share;
	struct segment *s;
	int fd;

	/* Validate our own topology file even when the machine exists: a bad
	 * file is an error the user must hear about. */
	if (load_topology(t) < 0)
		return NULL;
	if (machine_group(&share) < 0 || seg_layout(t->ndev, t->nnuma, &l) < 0)
		return NULL;
	for (int attempt = 0; attempt < 3; attempt++) {
		fd = shm_open(shm, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd >= 0) {
			/* Shared before it has a size: a process that opens it
			 * meanwhile waits for the size, and one that comes
			 * after the unlink of a failure makes it again. */
			if (share_fd(fd, shm, &share) < 0) {
				close(fd);
				shm_unlink(shm);
				return NULL;
			}
			if (ftruncate(fd, (off_t)l.size) < 0 ||
			    !(s = map_fd(fd, l.size))) {
				cuemu_fail(CUDA_ERROR_NO_DEVICE, "cannot make machine "
					   "segment %s: %s", shm, strerror(errno));
				close(fd);
				shm_unlink(shm);
				return NULL;
			}
			cuemu_topology_stamp(t, shm + 1);
			init_segment(s, t, &l);
			/* This process keeps the topology it wrote. */
			topo = *t;
			memset(t, 0, sizeof *t);
			seg_fd = fd;
			if (reader && !(s = reader_of_mapping(s, l.size))) {
				cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "no memory "
					   "for a copy of machine segment %s", shm);
				close(fd);
				seg_fd = -1;
				cuemu_topology_free(&topo);
				return NULL;
			}
			point_at(s, &l);
			return s;
		}
		if (errno != EEXIST)
			break;
		if ((s = open_existing(shm, &share))) {
			say_other_shape(shm, t);
			return s;
		}
		if (errno == EPROTO)
			return s;
		if (errno == EACCES) {
			say_denied(shm);
			return NULL;
		}
	}
	cuemu_fail(CUDA_ERROR_NO_DEVICE, "cannot open machine segment %s: %s",
		   shm, strerror(errno));
	return NULL;
}

/* The topology this process loads to make the machine: given to topo
 * when it makes it, else freed. Under attach_lock. */
static struct cuemu_topology new_topo;

static struct segment *create_or_open(const char *shm)
{
	struct segment *s = make_or_open(shm, &new_topo);

	cuemu_topology_free(&new_topo);
	return s;
}
/* A fork waits for this process's turn at the table lock, so that the
 * child never inherits table_mu held by a thread it does not have. */
static void fork_prepare(void)
{
	pthread_mutex_lock(&table_mu);
}

static void fork_parent(void)
{
	pthread_mutex_unlock(&table_mu);
}

/* A forked child is another process: it must charge a row of its own, or
 * what it holds would never be reclaimed when it dies; and its locks
 * must be its own, on a description of its own: the one it inherited is
 * the parent's, whose locks it would otherwise keep alive after the
 * parent's death. */
static void fork_child(void)
{
	pthread_mutex_unlock(&table_mu);
	my_row = -1;
	if (seg_fd < 0)
		return;
	close(seg_fd);
	seg_fd = shm_open(seg_name, (reader ? O_RDONLY : O_RDWR) | O_CLOEXEC,
			  0);
}

/* Whether the fork handlers are registered: once, however many times
 * the fuzzer attaches. */
static bool atfork_set;

/* Reader mode, at each use: a file shorter than the copy was truncated,
 * and reads as such before any value is read from it. */
static void look_at_size(void)
{
	struct stat st;

	if (fstat(seg_fd, &st) == 0 && (uint64_t)st.st_size < lay.size)
		mark_shrunk();
}

/* Reader mode: the copy read short once, so the machine is not shown. */
static int say_shrunk(void)
{
	struct stat st;

	cuemu_fail(CUDA_ERROR_NO_DEVICE, "machine segment %s is %lld bytes, "
		   "not the %zu it was made with: another process truncated "
		   "it; remove /dev/shm%s and make the machine again",
		   seg_name, fstat(seg_fd, &st) == 0 ? (long long)st.st_size :
		   -1LL, lay.size, seg_name);
	return -1;
}

/* A new process's first look at the table lock: better now than at its
 * first allocation, since a lock nobody releases makes the machine
 * unusable. cufs (reader mode) takes no lock a member could hold. */
static int check_lock(void)
{
	if (reader)
		return 0;
	if (!seg_lock())
		return -1;
	seg_unlock();
	return 0;
}

static void forget_segment(void)
{
	if (seg)
		drop_segment(seg, lay.size);
	seg = NULL;
	if (seg_fd >= 0)
		close(seg_fd);
	seg_fd = -1;
	shrunk = false;
	cuemu_topology_free(&topo);
}

int cuemu_machine_attach(void)
{
	const char *name = getenv("CUEMU_MACHINE");
	char shm[256];
	int rc = 0;

	pthread_mutex_lock(&attach_lock);
	if (seg) {
		if (reader)
			look_at_size();
		if (__atomic_load_n(&shrunk, __ATOMIC_RELAXED))
			rc = say_shrunk();
		goto out;
	}
	if (!name || !*name)
		name = "cuemu";
	if (!valid_name(name)) {
		cuemu_fail(CUDA_ERROR_INVALID_VALUE, "CUEMU_MACHINE '%s' must be "
			   "letters, digits, '-', '_' or '.'", name);
		rc = -1;
		goto out;
	}
	snprintf(shm, sizeof shm, "/%s", name);
	snprintf(seg_name, sizeof seg_name, "%s", shm);
	if (!(seg = create_or_open(shm))) {
		rc = -1;
	} else if (check_lock() < 0) {
		forget_segment();
		cuemu_fail(CUDA_ERROR_NO_DEVICE, "%s", cuemu_errmsg());
		cuemu_tell();
		rc = -1;
	} else if (!atfork_set) {
		atfork_set = pthread_atfork(fork_prepare, fork_parent,
					    fork_child) == 0;
	}
out:
	pthread_mutex_unlock(&attach_lock);
	return rc;
}

void cuemu_machine_read_only(void)
{
	reader = true;
}

void cuemu_machine_detach(void)
{
	pthread_mutex_lock(&attach_lock);
	forget_segment();
	my_row = -1;
	nview = -1;
	seg_name[0] = '\0';
	memset(row_reported, 0, sizeof row_reported);
	pthread_mutex_unlock(&attach_lock);
}

/* ---------------------------------------------------------------- removal */

/* Whether any open file description but fd's holds byte at of fd's file. */
static bool byte_held(int fd, off_t at)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET,
			    .l_start = at, .l_len = 1 };

	return fcntl(fd, F_OFD_GETLK, &fl) == 0 && fl.l_type != F_UNLCK;
}

/* Why shm (a segment this user cannot open) stays: whose it is. */
static int not_yours(const char *name, uid_t owner, char *why, size_t len)
{
	char u[64];

	snprintf(why, len, "machine %s belongs to %s: only they or root may "
		 "remove it", name, user_name(owner, u, sizeof u));
	return -EPERM;
}

/* The processes attached to the segment open at fd: rows whose lock byte
 * someone holds. The caller holds the table lock, so none joins. */
static int attached(int fd)
{
	int n = 0;

	for (int i = 0; i < SEG_PROCS; i++)
		n += byte_held(fd, SEG_LOCK_ROW(i));
	return n;
}

int cuemu_machine_remove(const char *name, char *why, size_t len)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET,
			    .l_start = SEG_LOCK_TABLE, .l_len = 1 };
	char shm[256], path[300];
	uint64_t magic = 0;
	struct stat st;
	int fd, n, rc = 0;

	if (!valid_name(name)) {
		snprintf(why, len, "'%s' is no machine name (letters, digits, "
			 "'-', '_' or '.')", name);
		return -EINVAL;
	}
	snprintf(shm, sizeof shm, "/%s", name);
	snprintf(path, sizeof path, "/dev/shm/%s", name);
	if ((fd = shm_open(shm, O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0)) < 0) {
		int e = errno;

		if (e == EACCES && lstat(path, &st) == 0)
			return not_yours(name, st.st_uid, why, len);
		snprintf(why, len, "machine %s: %s", name, e == ENOENT ?
			 "there is no such machine segment" : strerror(e));
		return -e;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		rc = -EINVAL;
	else if (st.st_uid != geteuid() && geteuid() != 0)
		rc = not_yours(name, st.st_uid, why, len);
	else if (pread(fd, &magic, sizeof magic, 0) != sizeof magic ||
		 magic != SEG_MAGIC)
		rc = -EINVAL;
	if (rc == -EINVAL)
		snprintf(why, len, "%s is not a machine segment", path);
	/* The table lock, held to the unlink: no process joins meanwhile. */
	if (!rc && fcntl(fd, F_OFD_SETLK, &fl) < 0) {
		snprintf(why, len, "machine %s: a process is joining or leaving "
			 "it; try again", name);
		rc = -EBUSY;
	}
	if (!rc && (n = attached(fd)) > 0) {
		snprintf(why, len, "machine %s has %d process%s attached: end "
			 "%s first (cufs shows them under processes/)", name, n,
			 n == 1 ? "" : "es", n == 1 ? "it" : "them");
		rc = -EBUSY;
	}
	if (!rc && shm_unlink(shm) < 0) {
		rc = -errno;
		snprintf(why, len, "machine %s: %s", name, strerror(errno));
	}
	close(fd);
	return rc;
}

/* ---------------------------------------------------------------- queries */

/* The machine index of ordinal or processor p (CUEMU_PROC_HOST stays
 * itself), or -1 when p names nothing this process sees. */
static int mach(int p)
{
	if (!seg)
		return -1;
	if (p == CUEMU_PROC_HOST)
		return p;
	if (nview >= 0)
		return p >= 0 && p < nview ? view[p] : -1;
	return p >= 0 && p < topo.ndev ? p : -1;
}

int cuemu_device_count(void)
{
	if (!seg)
		return 0;
	return nview >= 0 ? nview : topo.ndev;
}

const struct cuemu_device_info *cuemu_device(int dev)
{
	int m = mach(dev);

	return m >= 0 && m != CUEMU_PROC_HOST ? &topo.dev[m] : NULL;
}

int cuemu_proc_next(int p)
{
	if (p + 1 < cuemu_device_count())
		return p + 1;
	return p < CUEMU_PROC_HOST ? CUEMU_PROC_HOST : CUEMU_NPROC;
}

int cuemu_machine_gpu_count(void)
{
	return seg ? topo.ndev : 0;
}

const struct cuemu_device_info *cuemu_machine_gpu(int index)
{
	if (!seg || index < 0 || index >= topo.ndev)
		return NULL;
	return &topo.dev[index];
}

int cuemu_machine_gpu_of(int dev)
{
	int m = mach(dev);

	return m == CUEMU_PROC_HOST ? -1 : m;
}

int cuemu_machine_set_view(const int *map, int n)
{
	if (!seg || n < 0 || n > topo.ndev)
		return -1;
	for (int i = 0; i < n; i++)
		if (map[i] < 0 || map[i] >= topo.ndev)
			return -1;
	memcpy(view, map, (size_t)n * sizeof *map);
	nview = n;
	return 0;
}

int cuemu_numa_count(void)
{
	return seg ? topo.nnuma : 0;
}

bool cuemu_numa_valid(int node)
{
	return seg && node >= 0 && node < topo.nnuma;
}

uint64_t cuemu_numa_total(int node)
{
	return cuemu_numa_valid(node) ? topo.numa_total[node] : 0;
}

const char *cuemu_machine_id(void)
{
	const char *m = getenv("CUEMU_MACHINE");

	if (seg_name[0] == '/')
		return seg_name + 1;
	return m && *m ? m : "cuemu";
}

const char *cuemu_machine_paradigm(void)
{
	return seg ? cuemu_paradigm_name(topo.paradigm) : "";
}

bool cuemu_machine_coherent(void)
{
	return seg && topo.paradigm == CUEMU_HARDWARE_COHERENT;
}

bool cuemu_machine_pageable(void)
{
	return seg && topo.paradigm != CUEMU_SOFTWARE_COHERENT;
}

const char *cuemu_machine_name(void)
{
	return seg ? topo.name : "";
}

const struct cuemu_link *cuemu_link(int from, int to)
{
	static const struct cuemu_link none;
	int a = mach(from), b = mach(to);

	if (a < 0 || b < 0)
		return &none;
	return cuemu_topo_link(&topo, a, b);
}

const struct cuemu_topology *cuemu_machine_topo(void)
{
	return seg ? &topo : NULL;
}

/* ---------------------------------------------------------------- accounting */

/* Reader mode: the copy's first n rows, their use and the orphaned
 * counts read again. */
static void refresh_rows(uint32_t n)
{
	refresh(offsetof(struct segment, procs), n * sizeof *seg->procs);
	refresh(lay.rows, (size_t)n * (size_t)topo.ndev * sizeof(uint64_t));
	refresh(lay.used, (size_t)topo.ndev * sizeof(uint64_t));
}

/* Reader mode: the rows found to be no live process's at the last look
 * (row_live), each as a key of the pid and start time it had then (0:
 * none). The reader reclaims nothing (it writes nothing), so it leaves
 * such a row out of its sums while the row still says the same; a row a
 * new process took says otherwise and counts. Looked at once a second
 * (reader_look); read by every thread. */
static uint64_t reader_dead[SEG_PROCS];
static pthread_mutex_t reader_mu = PTHREAD_MUTEX_INITIALIZER;

static uint64_t dead_key(const struct seg_proc *r)
{
	uint64_t k = r->start * 0x9e3779b97f4a7c15ULL ^ (uint32_t)r->pid;

	return k ? k : 1;
}

/* Whether row i (r) is one the last look found dead. */
static bool reader_skips(int i, const struct seg_proc *r)
{
	uint64_t k = __atomic_load_n(&reader_dead[i], __ATOMIC_RELAXED);

	return k && k == dead_key(r);
}

/* Reader mode: which rows are no live process's now; never waits (a
 * look under way in another thread serves). */
static void reader_look(void)
{
	uint32_t n;

	if (pthread_mutex_trylock(&reader_mu) != 0)
		return;
	refresh(offsetof(struct segment, rows_hi), sizeof seg->rows_hi);
	n = __atomic_load_n(&seg->rows_hi, __ATOMIC_RELAXED);
	n = n < SEG_PROCS ? n : SEG_PROCS;
	refresh_rows(n);
	for (uint32_t i = 0; i < n; i++) {
		struct seg_proc r;

		memcpy(&r, &seg->procs[i], sizeof r);
		__atomic_store_n(&reader_dead[i], r.pid && (!row_valid((int)i) ||
				 !row_live((int)i, &r)) ? dead_key(&r) : 0,
				 __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&reader_mu);
}

/* The sum of a device's counts over the rows and its orphaned bytes,
 * saturating: the rows are outside input. Lock-free: every count is one
 * word of one row, so a process killed anywhere leaves its row right, and
 * a device's use is this sum, at most the device's size. */
static uint64_t sum_rows(int dev)
{
	uint32_t n;
	uint64_t sum, u;

	refresh(offsetof(struct segment, rows_hi), sizeof seg->rows_hi);
	n = __atomic_load_n(&seg->rows_hi, __ATOMIC_ACQUIRE);
	if (n > SEG_PROCS)
		n = SEG_PROCS;
	refresh_rows(n);
	sum = __atomic_load_n(&s_used[dev], __ATOMIC_RELAXED);
	for (uint32_t i = 0; i < n; i++) {
		if (__atomic_load_n(&seg->procs[i].pid, __ATOMIC_RELAXED) <= 0 ||
		    (reader && reader_skips((int)i, &seg->procs[i])))
			continue;
		u = __atomic_load_n(&row_used((int)i)[dev], __ATOMIC_RELAXED);
		sum = u > UINT64_MAX - sum ? UINT64_MAX : sum + u;
	}
	return sum;
}

/* Charges our row, then looks whether the device holds every row's
 * count; if not, takes ours back. Two processes charging at once near a
 * full device may both see the other's bytes and both be refused; never
 * both admitted beyond the size. */
static bool try_charge(int dev, uint64_t bytes)
{
	uint64_t total = topo.dev[dev].total;
	uint64_t *mine = &row_used(my_row)[dev];
	uint64_t cur = __atomic_load_n(mine, __ATOMIC_RELAXED);

	/* Never more in one row than the device has: such a row is corrupt
	 * (row_valid), and another process would free it. */
	do {
		if (bytes > total || cur > total - bytes)
			return false;
	} while (!__atomic_compare_exchange_n(mine, &cur, cur + bytes, true,
					      __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	if (sum_rows(dev) <= total)
		return true;
	sub_sat(mine, bytes);
	return false;
}

/* Whether our row is still ours: any member of the machine may have
 * freed it (wrongly thinking us dead, or scribbling), and charging a row
 * another process took would put our use on its account. */
static bool row_still_mine(void)
{
	const struct seg_proc *r = &seg->procs[my_row];
	static bool reported;

	if (__atomic_load_n(&r->pid, __ATOMIC_RELAXED) == getpid() &&
	    __atomic_load_n(&r->uid, __ATOMIC_RELAXED) == getuid())
		return true;
	/* Its lock byte is no use to us now; another may take the row. */
	ofd_lock(SEG_LOCK_ROW(my_row), F_UNLCK);
	if (!reported) {
		reported = true;
		fprintf(stderr, "cuemu: machine segment %s: process-table row "
			"%d was taken from this process (pid %d); a new row "
			"counts what it holds from now on\n", seg_name, my_row,
			(int)getpid());
	}
	return false;
}

/* A process without a row cannot be charged, so what it asks for is
 * refused: said once on stderr, whatever the caller says after. false. */
static bool say_table_full(void)
{
	static bool said;
	int n = 0;

	for (int i = 0; i < SEG_PROCS; i++)
		n += __atomic_load_n(&seg->procs[i].pid, __ATOMIC_RELAXED) != 0;
	if (n < SEG_PROCS || __atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
		return false;
	fprintf(stderr, "cuemu: machine segment %s: its process table is full "
		"(%d processes hold rows): device memory for process %d cannot "
		"be counted, so it is refused\n", seg_name, SEG_PROCS,
		(int)getpid());
	return false;
}

bool cuemu_mem_charge(int ordinal, uint64_t bytes)
{
	int dev = cuemu_machine_gpu_of(ordinal);

	/* A reader (cufs) holds nothing and charges nothing. */
	if (dev < 0 || reader)
		return false;
	if (my_row >= 0 && !row_still_mine()) {
		pthread_mutex_lock(&attach_lock);
		my_row = -1;
		pthread_mutex_unlock(&attach_lock);
	}
	if (my_row < 0) {
		pthread_mutex_lock(&attach_lock);
		if (my_row < 0)
			my_row = claim_row();
		pthread_mutex_unlock(&attach_lock);
		if (my_row < 0)
			return say_table_full();
	}
	if (!try_charge(dev, bytes)) {
		/* A dead process may still hold what we need. */
		reclaim_if_lockable();
		if (!try_charge(dev, bytes))
			return false;
	}
	return true;
}

void cuemu_mem_uncharge(int ordinal, uint64_t bytes)
{
	int dev = cuemu_machine_gpu_of(ordinal);

	if (dev < 0 || my_row < 0)
		return;
	if (row_still_mine())
		sub_sat(&row_used(my_row)[dev], bytes);
}

void cuemu_mem_uncharge_part(int ordinal, uint64_t bytes, bool total,
			     bool row)
{
	int dev = cuemu_machine_gpu_of(ordinal);

	if (dev < 0)
		return;
	/* The exporter's share moves to the orphaned count, added first: a
	 * kill between the two counts leaves the bytes counted twice, never
	 * not at all while an importer maps them. */
	if (row && !total)
		__atomic_add_fetch(&s_used[dev], bytes, __ATOMIC_SEQ_CST);
	if (total && !row)
		sub_sat(&s_used[dev], bytes);
	if (row && my_row >= 0 && row_still_mine())
		sub_sat(&row_used(my_row)[dev], bytes);
}

uint64_t cuemu_mem_used(int ordinal)
{
	return cuemu_machine_gpu_used(cuemu_machine_gpu_of(ordinal));
}

void cuemu_counter_add(int proc, enum cuemu_counter c, uint64_t n)
{
	int m = mach(proc);

	if (m >= 0)
		__atomic_add_fetch(&s_ctr[cuemu_topo_proc(&topo, m) *
					  CUEMU_CTR__COUNT + c], n,
				   __ATOMIC_RELAXED);
	cuemu_proc_counter_add(c, n);
}

uint64_t cuemu_counter_get(int proc, enum cuemu_counter c)
{
	int m = mach(proc);
	size_t i;

	if (m < 0)
		return 0;
	i = (size_t)cuemu_topo_proc(&topo, m) * CUEMU_CTR__COUNT + c;
	refresh(lay.counters + i * sizeof *s_ctr, sizeof *s_ctr);
	return __atomic_load_n(&s_ctr[i], __ATOMIC_RELAXED);
}

/* The last id this process took: its ids only rise, whatever another
 * process writes to the shared counter. Global with the machine. */
static uint64_t last_id;

/* Says once that the shared counter stood below this process's ids (or
 * past 2^63): another process wrote it, and ids may meet another's
 * (cufs then shows neither under the shared name: cufs(8)). */
static void say_counter_back(uint64_t cur, uint64_t mine)
{
	static bool said;

	if (__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
		return;
	fprintf(stderr, "cuemu: machine segment %s: its id counter stood at "
		"%llu, which this process's ids cannot follow (its last was "
		"%llu): another process wrote it; this process's ids go on "
		"from its own\n", seg_name, (unsigned long long)cur,
		(unsigned long long)mine);
}

uint64_t cuemu_next_id(void)
{
	/* Ids must be unique across processes; before the machine exists
	 * (never in practice: cuInit attaches first) fall back to a local
	 * counter so callers need not check. */
	static uint64_t local = 1ULL << 62;
	uint64_t mine, cur, want;

	if (!seg || reader)
		return __atomic_fetch_add(&local, 1, __ATOMIC_RELAXED);
	/* The shared counter hands out ids across processes; our own last
	 * id is a floor it cannot take us under. A value taken from the
	 * counter but lost to another thread's turn is skipped: ids need
	 * not be dense. */
	for (;;) {
		mine = __atomic_load_n(&last_id, __ATOMIC_ACQUIRE);
		cur = __atomic_load_n(&seg->next_id, __ATOMIC_RELAXED);
		/* A counter at 2^63 or past was written there: ids that
		 * far would wrap. */
		want = cur > mine && cur < 1ULL << 63 ? cur : mine + 1;
		if (!__atomic_compare_exchange_n(&seg->next_id, &cur, want + 1,
						 false, __ATOMIC_RELAXED,
						 __ATOMIC_RELAXED))
			continue;
		if (__atomic_compare_exchange_n(&last_id, &mine, want, false,
						__ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED))
			break;
	}
	if (want != cur)
		say_counter_back(cur, mine);
	return want;
}

/* ---------------------------------------------------------------- NVML
 * The machine's own GPUs by machine index, whatever this process sees:
 * what NVML answers (it ignores CUDA_VISIBLE_DEVICES, as the real one). */

uint64_t cuemu_machine_gpu_used(int index)
{
	/* Readers (cuMemGetInfo, /cu, NVML) should not see what a killed
	 * process held; look for dead rows at most once a second. */
	static time_t last_reclaim;
	time_t now = cuemu_libc.time(NULL);
	uint64_t used;

	if (!seg || index < 0 || index >= topo.ndev)
		return 0;
	if (now != __atomic_load_n(&last_reclaim, __ATOMIC_RELAXED)) {
		__atomic_store_n(&last_reclaim, now, __ATOMIC_RELAXED);
		if (reader)
			reader_look();
		else
			reclaim_if_lockable();
	}
	/* Never more than the device has, whatever was written there: the
	 * callers subtract it from the total. */
	used = sum_rows(index);
	return used < topo.dev[index].total ? used : topo.dev[index].total;
}

int cuemu_machine_gpu_procs(int index, int *pids, uint64_t *used, int max)
{
	int n = 0;

	if (!seg || index < 0 || index >= topo.ndev)
		return 0;
	if (!reader)
		reclaim_if_lockable();
	refresh_rows(SEG_PROCS);
	for (int i = 0; i < SEG_PROCS; i++) {
		struct seg_proc r;
		uint64_t u;

		memcpy(&r, &seg->procs[i], sizeof r);
		if (!row_valid(i) || !row_live(i, &r))
			continue;
		if (!(u = __atomic_load_n(&row_used(i)[index], __ATOMIC_RELAXED)))
			continue;
		if (n < max) {
			pids[n] = r.pid;
			used[n] = u;
		}
		n++;
	}
	return n;
}

int cuemu_machine_gpu_link(int a, int b)
{
	if (!seg || a == b || a < 0 || b < 0 || a >= topo.ndev ||
	    b >= topo.ndev)
		return 0;
	return cuemu_topo_link(&topo, a, b)->kind;
}

void cuemu_device_pci(const struct cuemu_device_info *d, int *domain,
		      int *bus, int *slot)
{
	const int *a = d->attrs;

	*domain = a[CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID];
	*bus = a[CU_DEVICE_ATTRIBUTE_PCI_BUS_ID];
	*slot = a[CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID];
}

/* Reads [domain]:[bus]:[device].[function], [domain]:[bus]:[device] or
 * [bus]:[device].[function], all hex, as the driver accepts them. */
static bool parse_bus_id(const char *s, int *domain, int *bus, int *slot)
{
	unsigned int d, b, v, f;
	int end = -1;

	if (sscanf(s, "%x:%x:%x.%x%n", &d, &b, &v, &f, &end) == 4 &&
	    end > 0 && !s[end])
		goto found;
	end = -1;
	if (sscanf(s, "%x:%x:%x%n", &d, &b, &v, &end) == 3 && end > 0 &&
	    !s[end])
		goto found;
	end = -1;
	d = 0;
	if (sscanf(s, "%x:%x.%x%n", &b, &v, &f, &end) == 3 && end > 0 &&
	    !s[end])
		goto found;
	return false;
found:
	if (d > 0xffff || b > 0xff || v > 0x1f)
		return false;
	*domain = (int)d;
	*bus = (int)b;
	*slot = (int)v;
	return true;
}

/* The first of n devices, fetched by get, at the bus id s: its index, -1
 * for none, -2 for text that is not a bus id. */
static int by_bus_id(const char *s, int n,
		     const struct cuemu_device_info *(*get)(int))
{
	int domain, bus, slot;

	if (!parse_bus_id(s, &domain, &bus, &slot))
		return -2;
	for (int d = 0; d < n; d++) {
		int dd, db, ds;

		if (!get(d))
			continue;
		cuemu_device_pci(get(d), &dd, &db, &ds);
		if (dd == domain && db == bus && ds == slot)
			return d;
	}
	return -1;
}

int cuemu_device_by_bus_id(const char *s)
{
	return by_bus_id(s, cuemu_device_count(), cuemu_device);
}

int cuemu_machine_gpu_by_bus_id(const char *s)
{
	return by_bus_id(s, cuemu_machine_gpu_count(), cuemu_machine_gpu);
}
