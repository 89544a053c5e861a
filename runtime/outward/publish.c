/*
 * publish.c - keeps what /cu shows of this process in its published-state
 * segment (pubseg.h), so that cufs reads it without asking the process:
 * each object's record is the JSON text its ctl class renders (a managed
 * allocation with its "ranges", as a snapshot has it), and the process
 * record (id 0) is what processes/<pid>/ shows.
 *
 * What triggers a publish: the model names every object it changes
 * (cuemu_obj_changed) and hands the names over when the process lock is
 * released (cuemu_on_change); each named object is rendered again, once,
 * and its record replaced, or removed when no class has it any more. The
 * cost is that of the objects changed, never of all of them.
 *
 * Locking: every write to the segment runs under the process lock: the
 * change sink is called with it held, and init takes it. Readers take no
 * lock (the seqlock of pubseg.h), so an API call never waits on a reader.
 * The segment is made at init (like the control socket, not for a process
 * that sets CUEMU_CONTROL=0), its name unlinked at exit; the segment of a
 * dead process is removed by the next process to start, or by cufs.
 */
#include "model/context.h"
#include "model/clock.h"
#include "outward/outward.h"
#include "outward/pubseg.h"

#include <errno.h>
#include <pthread.h>
#include <pwd.h>
#include <sys/stat.h>
#include <signal.h>
#include <time.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The segment of this process: one per process by definition, so global.
 * Guarded by the process lock; owner says which process made it (a
 * forked child inherits the mapping but publishes nothing). */
static struct {
	struct pubseg seg;
	pid_t owner;
	json_t *visible;   /* visible_json(), made once: it never changes */
} pub;

static const struct {
	uint32_t cls;
	const struct cuemu_ctl_class *c;
} classes[] = {
	{ PUB_ALLOCATIONS, &cuemu_ctl_allocations },
	{ PUB_POOLS, &cuemu_ctl_pools },
	{ PUB_RESERVATIONS, &cuemu_ctl_reservations },
	{ PUB_HANDLES, &cuemu_ctl_handles },
	{ PUB_MULTICAST, &cuemu_ctl_multicast },
	{ PUB_KERNELS, &cuemu_ctl_kernels },
};

/* ---------------------------------------------------------------- process */

/* /proc/self/cmdline with its NULs as spaces. Global because it is the
 * process's own; read once, as it stays the same for the process's whole
 * life (exec starts another image, with fresh statics). */
static char cmdline[4096];
static pthread_once_t cmdline_once = PTHREAD_ONCE_INIT;

static void read_cmdline(void)
{
	ssize_t n = 0;
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		n = read(fd, cmdline, sizeof cmdline - 1);
		close(fd);
	}
	if (n < 0)
		n = 0;
	while (n > 0 && cmdline[n - 1] == '\0')
		n--;
	for (ssize_t i = 0; i < n; i++)
		if (cmdline[i] == '\0')
			cmdline[i] = ' ';
	cmdline[n] = '\0';
}

const char *cuemu_cmdline(void)
{
	pthread_once(&cmdline_once, read_cmdline);
	return cmdline;
}

/* Which of the machine's GPUs each of the process's ordinals is, as
 * cuInit chose them (CUDA_VISIBLE_DEVICES, CUDA_DEVICE_ORDER): "gpu0"
 * to [the machine's name of it, its UUID, its PCI bus id]. */
static json_t *visible_json(void)
{
	json_t *o = json_object();
	char ord[16], mach[16], uuid[48], pci[16];

	for (int d = 0; d < cuemu_device_count(); d++) {
		const struct cuemu_device_info *i = cuemu_device(d);

		cuemu_proc_str(d, ord, sizeof ord);
		cuemu_proc_str(cuemu_machine_gpu_of(d), mach, sizeof mach);
		cuemu_uuid_str(i->uuid, uuid, sizeof uuid);
		cuemu_pci_str(i, pci, sizeof pci);
		json_object_set_new(o, ord, json_pack("[s,s,s]", mach, uuid,
						      pci));
	}
	return o;
}

/* ---------------------------------------------------------------- model time
 * A stream's clock and counts move with every operation it finishes,
 * mostly without the process lock, so they are not named as changed
 * objects: a finished operation marks the process record stale and wakes
 * the clock publisher, a thread that renders it at most every
 * CLOCK_PERIOD_NS, so that a burst of operations costs one render. */
#define CLOCK_PERIOD_NS 10000000L

static void stream_json(const struct cuemu_stream_info *i, void *arg)
{
	char key[24], dev[16];

	snprintf(key, sizeof key, "%llu", (unsigned long long)i->uid);
	/* "operations" is an object, so that the stream is a directory of
	 * /cu (cufs/tree.c) and its counts one file. */
	json_object_set_new(arg, key, json_pack("{s:I,s:s,s:s,s:o,s:{s:o,s:o}}",
		"id", (json_int_t)i->uid,
		"device", cuemu_proc_str(i->dev, dev, sizeof dev),
		"kind", i->kind, "clock_ns", cuemu_json_u64(i->clock_ns),
		"operations", "queued", cuemu_json_u64(i->queued),
		"completed", cuemu_json_u64(i->completed)));
}

/* The clock publisher's state. Global with pub: one per process. stale
 * is atomic; the rest is guarded by lock. */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int stale;
	bool started;
} clk = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, false };

static void *clock_publisher(void *arg)
{
	struct timespec period = { 0, CLOCK_PERIOD_NS };

	(void)arg;
	for (;;) {
		pthread_mutex_lock(&clk.lock);
		while (!__atomic_load_n(&clk.stale, __ATOMIC_ACQUIRE))
			pthread_cond_wait(&clk.cond, &clk.lock);
		pthread_mutex_unlock(&clk.lock);
		cuemu_libc.nanosleep(&period, NULL);
		__atomic_store_n(&clk.stale, 0, __ATOMIC_RELEASE);
		cuemu_lock();
		cuemu_obj_changed(0);
		cuemu_unlock();
	}
	return NULL;
}

/* The time sink (model/notify.c): only the first operation after a
 * render wakes the publisher. */
static void clock_moved(void)
{
	if (__atomic_exchange_n(&clk.stale, 1, __ATOMIC_ACQ_REL))
		return;
	pthread_mutex_lock(&clk.lock);
	pthread_cond_signal(&clk.cond);
	pthread_mutex_unlock(&clk.lock);
}

static void clock_publisher_start(void)
{
	pthread_attr_t attr;
	pthread_t t;
	sigset_t all, old;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	/* The application's signals are for its own threads. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	clk.started = pthread_create(&t, &attr, clock_publisher, NULL) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (clk.started)
		cuemu_on_time(clock_moved);
	else
		cuemu_debug("publish: no clock publisher: streams show the "
			    "time of the last other change");
}

json_t *cuemu_process_json(void)
{
	json_t *ctr = json_object(), *streams = json_object();

	if (!pub.visible)
		pub.visible = visible_json();
	for (int c = 0; c < CUEMU_CTR__COUNT; c++)
		json_object_set_new(ctr, cuemu_counter_names[c], cuemu_json_u64(
			cuemu_proc_counter_get((enum cuemu_counter)c)));
	cuemu_streams_each(stream_json, streams);
	return json_pack("{s:i,s:i,s:s,s:s,s:o,s:o,s:o,s:o,s:s,s:o}",
			 "pid", (int)getpid(), "uid", (int)getuid(),
			 "cmdline", cuemu_cmdline(), "machine", cuemu_machine_id(),
			 "counters", ctr, "last_error", cuemu_last_error_json(),
			 "model_time", cuemu_json_u64(cuemu_model_time()),
			 "streams", streams,
			 "device_order", cuemu_device_order(),
			 "visible_devices", json_incref(pub.visible));
}

/* ---------------------------------------------------------------- records */

json_t *cuemu_object_json(uint64_t id, uint32_t *cls)
{
	const char *kind;
	json_t *v, *r;
	CUresult err;

	for (size_t i = 0; i < sizeof classes / sizeof *classes; i++) {
		if (!(v = classes[i].c->get(id, "", &err)))
			continue;
		kind = json_string_value(json_object_get(v, "kind"));
		if (classes[i].cls == PUB_ALLOCATIONS && kind &&
		    !strcmp(kind, "managed") &&
		    (r = classes[i].c->get(id, "ranges", &err)))
			json_object_set_new(v, "ranges", r);
		*cls = classes[i].cls;
		return v;
	}
	return NULL;
}

/* v's compact text as id's record; v is consumed. */
static void put(uint32_t cls, uint64_t id, json_t *v)
{
	char small[8192], *s = small;
	size_t n = v ? json_dumpb(v, small, sizeof small, JSON_COMPACT) : 0;
	int rc;

	if (n > sizeof small && (s = malloc(n)))
		n = json_dumpb(v, s, n, JSON_COMPACT);
	json_decref(v);
	rc = s && n ? pubseg_put(&pub.seg, cls, id, s, n) : -ENOMEM;
	if (rc < 0)
		cuemu_debug("publish: record %llu not written: %s",
			    (unsigned long long)id, strerror(-rc));
	if (s != small)
		free(s);
}

/* The change sink: each named object again, and the process record
 * (its counters move with every change). Lock held. */
static void publish_changed(const uint64_t *ids, size_t n)
{
	char msg[256];
	uint32_t cls;
	json_t *v;
	int e = errno;

	if (pub.owner != getpid() || !pub.seg.h)
		return;
	/* The call that is releasing the lock may still say why it failed:
	 * what renders here must not change its message or errno. */
	snprintf(msg, sizeof msg, "%s", cuemu_errmsg());
	for (size_t i = 0; i < n; i++) {
		if (!ids[i])
			continue;
		if ((v = cuemu_object_json(ids[i], &cls)))
			put(cls, ids[i], v);
		else
			pubseg_remove(&pub.seg, ids[i]);
	}
	put(PUB_PROCESS, 0, cuemu_process_json());
	pubseg_commit(&pub.seg);
	if (strcmp(msg, cuemu_errmsg())) {
		if (msg[0])
			cuemu_fail(CUDA_SUCCESS, "%s", msg);
		else
			cuemu_errmsg_clear();
	}
	errno = e;
}

/* ---------------------------------------------------------------- life */

/* CUEMU_REPORT=FILE: the process record, as processes/<pid>/ shows it
 * last, written to FILE when the process exits (cufs-experiment reads
 * it: the process is gone from /cu by then), whether or not it
 * publishes. Best effort: a file that cannot be written is said on
 * stderr. Global: the process that asked (not a forked child). */
static pid_t report_owner;

/* The kernels' records (ctl_kernel.c), for the report: cufs-experiment
 * breaks a policy's model time down by kernel. */
static json_t *kernels_json(void)
{
	json_t *a = json_array(), *ids, *e, *k;
	CUresult err;
	size_t i;

	cuemu_lock();
	ids = cuemu_ctl_kernels.list();
	json_array_foreach(ids, i, e)
		if ((k = cuemu_ctl_kernels.get((uint64_t)json_integer_value(e),
					       "", &err)))
			json_array_append_new(a, k);
	cuemu_unlock();
	json_decref(ids);
	return a;
}

static void write_report(void)
{
	const char *path = getenv("CUEMU_REPORT");
	json_t *v;

	if (report_owner != getpid() || !path || !*path)
		return;
	if ((v = cuemu_process_json()))
		json_object_set_new(v, "kernels", kernels_json());
	if (!v ||
	    json_dump_file(v, path, JSON_INDENT(2) | JSON_SORT_KEYS) < 0)
		fprintf(stderr, "libcuemu: CUEMU_REPORT %s not written\n", path);
	json_decref(v);
}

static void publish_exit(void)
{
	if (pub.owner == getpid())
		pubseg_unlink(&pub.seg);
}

/* Says, with or without CUEMU_DEBUG, that this process publishes nothing
 * and so is not in /cu: the user would otherwise look for it there in
 * vain. A file of another user's at the name (/dev/shm is sticky, so it
 * stays) is named with its owner. */
static void say_unpublished(const char *path, int err)
{
	struct passwd pw, *who = NULL;
	char buf[1024];
	struct stat st;

	if (lstat(path, &st) == 0 && st.st_uid != geteuid()) {
		getpwuid_r(st.st_uid, &pw, buf, sizeof buf, &who);
		fprintf(stderr, "cuemu: cannot publish this process's state: "
			"%s is held by a file of %s%s%u%s, made before this "
			"process started; cufs will not show pid %d\n", path,
			who ? who->pw_name : "uid ", who ? " (uid " : "",
			(unsigned)st.st_uid, who ? ")" : "", (int)getpid());
		return;
	}
	fprintf(stderr, "cuemu: cannot publish this process's state at %s: "
		"%s; cufs will not show pid %d\n", path, strerror(err),
		(int)getpid());
}

static void publish_at_init(void)
{
	const char *env = getenv("CUEMU_CONTROL");
	char path[256];
	int rc = -ENAMETOOLONG;

	if (getenv("CUEMU_REPORT")) {
		report_owner = getpid();
		atexit(write_report);
	}
	if (env && !strcmp(env, "0"))
		return;
	/* Segments of processes that died without unlinking theirs. */
	pub_reap(cuemu_machine_id());
	if (pub_path(path, sizeof path, cuemu_machine_id(), getpid()) < 0 ||
	    (rc = pubseg_create(&pub.seg, path)) < 0) {
		say_unpublished(path, -rc);
		return;
	}
	pub.owner = getpid();
	atexit(publish_exit);
	cuemu_on_change(publish_changed);
	clock_publisher_start();
	cuemu_lock();
	cuemu_obj_changed(0);
	cuemu_unlock();
}

__attribute__((constructor)) static void publish_hook_init(void)
{
	cuemu_on_init(publish_at_init);
}
