/*
 * stream.c - the stream engine: streams, their workers and model clocks,
 * and positions in stream order; events are event.c's, over what
 * stream_impl.h shares. The cuStream* and cuEvent* entry points are
 * driver/stream.c's and driver/event.c's.
 *
 * Each stream runs its operations in order on a worker thread of its own,
 * started by the first operation that needs it. An operation may first wait
 * for positions on other streams (cuStreamWaitEvent, the legacy default
 * stream's implicit synchronization, the pool allocator's dependencies). A
 * position is a stream uid, never reused, and an operation number in that
 * stream; it is done when the stream has finished that operation, or the
 * stream is gone.
 *
 * Each stream also keeps a vector clock: for every other stream, the latest
 * operation that work enqueued from now on is ordered after. It makes
 * cuemu_stream_follows exact across chains of event waits.
 *
 * Inline operations: handing an operation to the worker costs two thread
 * wake-ups, far more than the model work of most operations. So an
 * operation of model work (never user code: see internal.h) whose stream
 * has nothing queued or running ahead of it, and whose dependencies are all
 * done, runs in the thread that enqueues it, through the same run_op as on
 * the worker: same model time, same end record, same wake-up of waiters.
 * While it runs it sits at the head of the queue marked claimed: later work
 * on the stream queues behind it and the worker leaves it alone.
 *
 * Model time: each stream has a clock in nanoseconds that operations advance
 * (copies, migrations). An operation starts no earlier than the host's model
 * time when it was enqueued, and no earlier than what it waited for; the
 * host's model time moves forward when it synchronizes with a stream, and
 * by its own work (staging a pageable copy); a stream the host synchronizes
 * with comes up to the host's time when it is idle (catch_up). Events record the clock of
 * their stream when reached.
 *
 * Locking, outermost first: the process lock (never held while waiting, and
 * never held by a thread that runs an operation inline); reg_lock, a
 * read-write lock (the registries of streams, and each legacy stream:
 * lookups read, so that a done check never waits behind another lookup);
 * one stream's lock (its queue and vector clock; never two at once);
 * ev_lock (the registry of events, event.c); an event's lock; done_lock (a leaf: the
 * condition every waiter sleeps on). No stream lock is held while an
 * operation runs.
 */
#include "model/stream_impl.h"
#include "model/clock.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* End times of a stream's recent operations, so that a waiter learns the
 * model time of the very operation it waited for. */
#define END_RING 64

enum stream_kind { KIND_USER, KIND_LEGACY, KIND_PER_THREAD };

struct op {
	struct op *next;
	cuemu_op_fn fn;
	void *arg;
	/* Gives arg back when a forked child drops the operation unrun (fn
	 * would have); NULL when arg is not the operation's (a synchronous
	 * caller's stack). */
	void (*drop)(void *arg);
	bool started;           /* fn has been called (see child_after_fork) */
	bool claimed;           /* runs in its enqueuer's thread, not the
	                         * worker's (the queue's head while it runs) */
	uint64_t seq;
	uint64_t host_ns;       /* host model time when enqueued */
	size_t ndeps;
	struct cuemu_spos deps[];
};

struct CUstream_st {
	RB_ENTRY(CUstream_st) h_node;   /* by handle: user streams */
	RB_ENTRY(CUstream_st) u_node;   /* by uid: every stream */
	uint64_t uid;
	CUcontext ctx;
	int dev;
	unsigned int flags;
	int priority;
	enum stream_kind kind;
	struct cuemu_stream_attrs attrs; /* under lock */

	pthread_mutex_t lock;
	pthread_cond_t cond;            /* work queued, the inline head done,
	                                 * or destroying */
	struct op *head, *tail;         /* head: atomic store, for the spin */
	struct vclock vc;
	bool running;                   /* the worker thread exists */
	bool destroying;
	struct { uint64_t seq, ns; } ends[END_RING];

	bool capturing;                 /* atomic: under stream capture */
	uint64_t enq_seq;               /* atomic: last operation enqueued */
	uint64_t done_seq;              /* atomic: last operation finished */
	uint64_t clock;                 /* atomic: model time, ns */
	uint64_t end_at;                /* atomic: the clock at the end of
	                                 * the last kernel or engine copy,
	                                 * +1 (0: none) */
	int end_kind;                   /* atomic: which (enum cuemu_stream_end) */
};

static int cmp_handle(struct CUstream_st *a, struct CUstream_st *b)
{
	return a < b ? -1 : a > b;
}

static int cmp_uid(struct CUstream_st *a, struct CUstream_st *b)
{
	return a->uid < b->uid ? -1 : a->uid > b->uid;
}

RB_HEAD(handle_tree, CUstream_st);
RB_HEAD(uid_tree, CUstream_st);
CUEMU_RB_STATIC(handle_tree, CUstream_st, h_node, cmp_handle)
CUEMU_RB_STATIC(uid_tree, CUstream_st, u_node, cmp_uid)

/* The registries. Global because stream handles are process-wide (any
 * thread may use any handle) and a stale handle must be recognized without
 * dereferencing it. Guarded by reg_lock; events have a lock of their own
 * (event.c), so that an event's lookup never waits for a walk of the
 * streams. */
static pthread_rwlock_t reg_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct handle_tree streams = RB_INITIALIZER(&streams);
static struct uid_tree by_uid = RB_INITIALIZER(&by_uid);
static CUstream legacy[CUEMU_MAX_DEVICES];
static uint64_t next_uid = 1;
/* Stream capture (driver/capture.c): each device's blocking streams
 * under capture, which its legacy stream may not run beside (atomic),
 * and who hears of a refusal. Global as the streams are. */
static int capturing_blocking[CUEMU_MAX_DEVICES];
static void (*capture_refused)(CUstream s, CUresult r);

/* Every finished operation bumps done_gen under done_lock and wakes all
 * waiters, which recheck their position. Global: a waiter may wait for any
 * stream of the process. */
static pthread_mutex_t done_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER;
static uint64_t done_gen;
/* Threads asleep on done_cond (atomic): a finished operation takes
 * done_lock only when someone sleeps there. */
static unsigned int sleepers;

/* The host's model time: the latest stream time it has synchronized with.
 * Process-wide because the host thread that enqueues and the one that
 * synchronizes need not be the same. Atomic. */
static uint64_t host_ns;

/* The stream whose worker the calling thread is (NULL on other threads). */
static __thread CUstream self_worker;
/* The stream whose operation the calling thread runs now, inline or on
 * the worker: what the model time of an event it emits is read from. */
static __thread CUstream running_op;
/* What the operation the calling thread runs asked to run once its end is
 * published (cuemu_op_then); thread-local as running_op is. */
static __thread void (*then_fn)(void *);
static __thread void *then_arg;
/* The furthest any stream's clock has reached in this process, destroyed
 * streams' included, or a thread's own time (its CPU faults and remote
 * accesses, cuemu_host_advance) (processes/<pid>/model_time). Atomic;
 * global for the same reason as host_ns. */
static uint64_t furthest_ns;

/* The calling thread's per-thread default stream, one per device. */
static __thread CUstream per_thread[CUEMU_MAX_DEVICES];
static pthread_key_t per_thread_key;
static pthread_once_t per_thread_once = PTHREAD_ONCE_INIT;

static void stream_destroy(CUstream s);

/* ---------------------------------------------------------------- clocks */

static uint64_t atomic_get(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void atomic_max(uint64_t *p, uint64_t v)
{
	uint64_t cur = atomic_get(p);

	while (cur < v && !__atomic_compare_exchange_n(p, &cur, v, false,
			  __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		;
}

/* The calling thread's own model time beyond what the host saw: the CPU
 * faults and remote accesses it took. A thread's clock is the later of the two, and what it
 * enqueues starts no earlier. Thread-local because each CPU thread pays
 * for its own faults. */
static __thread uint64_t tls_host_ns;

/* The thread's clock, which under CUEMU_CLOCK=model first takes in the
 * program's CPU time since it was last read (clock.c). */
static uint64_t thread_now(void)
{
	uint64_t h = atomic_get(&host_ns);
	uint64_t cpu = cuemu_clock_cpu_take();

	if (cpu) {
		tls_host_ns = (tls_host_ns > h ? tls_host_ns : h) + cpu;
		atomic_max(&furthest_ns, tls_host_ns);
		cuemu_time_moved();
	}
	return tls_host_ns > h ? tls_host_ns : h;
}

void cuemu_host_advance(uint64_t ns)
{
	tls_host_ns = thread_now() + ns;
	atomic_max(&furthest_ns, tls_host_ns);
	cuemu_time_moved();
}

uint64_t cuemu_host_now(void)
{
	return thread_now();
}

bool cuemu_op_clock(uint64_t *ns)
{
	if (!running_op)
		return false;
	*ns = atomic_get(&running_op->clock);
	return true;
}

/* What work enqueued on s after now is ordered after: s's vector clock
 * and s's own last operation. s's lock not held. */
static int vc_snapshot(CUstream s, struct vclock *out)
{
	int rc;

	pthread_mutex_lock(&s->lock);
	rc = cuemu_vc_merge(out, &s->vc);
	if (rc == 0)
		rc = cuemu_vc_raise(out, s->uid, atomic_get(&s->enq_seq));
	pthread_mutex_unlock(&s->lock);
	return rc;
}

/* ---------------------------------------------------------------- positions */

/* reg_lock held. */
static CUstream find_uid(uint64_t uid)
{
	struct CUstream_st key = { .uid = uid };

	return RB_FIND(uid_tree, &by_uid, &key);
}

bool cuemu_spos_done(struct cuemu_spos p)
{
	CUstream s;
	bool done;

	pthread_rwlock_rdlock(&reg_lock);
	s = find_uid(p.stream);
	done = !s || atomic_get(&s->done_seq) >= p.seq;
	pthread_rwlock_unlock(&reg_lock);
	return done;
}

/* Model time at which the operation at p ended: exact while it is among
 * its stream's last END_RING operations, else the stream's clock now. */
static uint64_t spos_end_ns(struct cuemu_spos p)
{
	uint64_t ns = 0;
	CUstream s;

	pthread_rwlock_rdlock(&reg_lock);
	if ((s = find_uid(p.stream))) {
		pthread_mutex_lock(&s->lock);
		if (s->ends[p.seq % END_RING].seq == p.seq)
			ns = s->ends[p.seq % END_RING].ns;
		else
			ns = atomic_get(&s->clock);
		pthread_mutex_unlock(&s->lock);
	}
	pthread_rwlock_unlock(&reg_lock);
	return ns;
}

/* ---------------------------------------------------------------- spinning */

/* How long a thread that waits for another spins before it sleeps. Work
 * that must stay on a worker (a host function) costs a round trip between
 * two threads; a thread woken from a condition variable costs two context
 * switches, some 10 to 25 us here, more than the real driver's whole host
 * function round trip (16 us). An operation that is already under way
 * ends within a few microseconds, and a program that waits for a stream
 * usually enqueues its next work as soon as the wait returns; so the
 * synchronizing thread spins this long for the worker to finish, and the
 * worker this long for more work, before either sleeps. Bounded, so that a
 * waiter for a long operation, or an idle worker, spins 20 us at most and
 * then sleeps as before; 50 and 100 us measured no better. */
#define SPIN_NS 20000

static uint64_t mono_ns(void)
{
	struct timespec ts;

	cuemu_libc.clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Spins until ready(arg) or *deadline (set on the first call, 0 before)
 * passes: whether it became ready. A machine of one CPU never spins: the
 * thread it waits for cannot run meanwhile. */
static bool spin_until(bool (*ready)(const void *arg), const void *arg,
		       uint64_t *deadline)
{
	/* Read once: whether the machine has more than one CPU (every
	 * thread that computes it stores the same value). */
	static int ncpu;
	int n = __atomic_load_n(&ncpu, __ATOMIC_RELAXED);

	if (!n) {
		n = sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 2 : 1;
		__atomic_store_n(&ncpu, n, __ATOMIC_RELAXED);
	}
	if (n == 1)
		return false;
	if (!*deadline)
		*deadline = mono_ns() + SPIN_NS;
	for (;;) {
		if (ready(arg))
			return true;
		/* Yield, not pause: on a busy machine the thread waited for
		 * is often queued on this very CPU, and a pause loop would
		 * keep it off for the whole budget (measured: 48 us a host
		 * function round trip with a pause loop under load, 1 to 4
		 * us yielding; bench/, the host function row). */
		sched_yield();
		if (mono_ns() >= *deadline)
			return ready(arg);
	}
}

struct gen_arg {
	uint64_t gen;
};

static bool gen_moved(const void *arg)
{
	return atomic_get(&done_gen) != ((const struct gen_arg *)arg)->gen;
}

/* Sleeps until done_gen moves past gen. */
static void sleep_gen(uint64_t gen)
{
	pthread_mutex_lock(&done_lock);
	__atomic_add_fetch(&sleepers, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&done_gen, __ATOMIC_SEQ_CST) == gen)
		pthread_cond_wait(&done_cond, &done_lock);
	__atomic_sub_fetch(&sleepers, 1, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&done_lock);
}

/* Waits until p is done: spins a while, then sleeps. No lock held. The
 * spin's CPU time is not the waiting thread's model time: its wait ends
 * at the model time of what it waited for (clock.c). */
void cuemu_spos_wait(struct cuemu_spos p)
{
	uint64_t deadline = 0;

	cuemu_clock_enter();
	for (;;) {
		uint64_t gen = atomic_get(&done_gen);
		if (cuemu_spos_done(p))
			break;
		if (!spin_until(gen_moved, &(struct gen_arg){ gen }, &deadline))
			sleep_gen(gen);
	}
	cuemu_clock_leave();
}

/* Something finished: waiters recheck. The generation moves first and the
 * sleepers are counted after (both sequentially consistent), so a waiter
 * that counted itself before the move is woken, and one that counts itself
 * after it sees the new generation and does not sleep. */
static void wake_waiters(void)
{
	__atomic_add_fetch(&done_gen, 1, __ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&sleepers, __ATOMIC_SEQ_CST))
		return;
	pthread_mutex_lock(&done_lock);
	pthread_cond_broadcast(&done_cond);
	pthread_mutex_unlock(&done_lock);
}

struct cuemu_spos cuemu_stream_pos(CUstream s)
{
	return (struct cuemu_spos){ s->uid, atomic_get(&s->enq_seq) };
}

static bool blocking(CUstream s)
{
	return s->kind != KIND_LEGACY && !(s->flags & CU_STREAM_NON_BLOCKING);
}

/* The legacy stream and a blocking stream of the same device order each
 * other's later work after all earlier work of the other. */
static bool implicitly_ordered(CUstream s, uint64_t other_uid)
{
	CUstream o;
	bool yes = false;

	pthread_rwlock_rdlock(&reg_lock);
	if ((o = find_uid(other_uid)) && o->dev == s->dev)
		yes = (s->kind == KIND_LEGACY && blocking(o)) ||
		      (o->kind == KIND_LEGACY && blocking(s));
	pthread_rwlock_unlock(&reg_lock);
	return yes;
}

bool cuemu_stream_follows(CUstream s, struct cuemu_spos p)
{
	bool yes;

	if (p.stream == s->uid)
		return p.seq <= atomic_get(&s->enq_seq);
	pthread_mutex_lock(&s->lock);
	yes = cuemu_vc_get(&s->vc, p.stream) >= p.seq;
	pthread_mutex_unlock(&s->lock);
	return yes || implicitly_ordered(s, p.stream);
}

/* ---------------------------------------------------------------- host sync */

/* What a host synchronization sets off above the stream engine (the pool
 * allocator's release to threshold). Global because the hooks belong to the
 * process's model, not to a stream; written only from constructors, before
 * any thread can synchronize, and read-only after. */
#define HOST_SYNC_HOOKS 4
static void (*host_sync_hooks[HOST_SYNC_HOOKS])(void);
static int host_sync_nhooks;

void cuemu_on_host_sync(void (*fn)(void))
{
	if (host_sync_nhooks < HOST_SYNC_HOOKS)
		host_sync_hooks[host_sync_nhooks++] = fn;
}

void cuemu_host_synced(void)
{
	for (int i = 0; i < host_sync_nhooks; i++)
		host_sync_hooks[i]();
}

/* ---------------------------------------------------------------- workers */

static double time_scale(void)
{
	/* Read once: the scale is a property of the process's start. */
	static double scale = -1;

	if (scale < 0) {
		const char *e = getenv("CUEMU_TIME_SCALE");
		double v = e ? strtod(e, NULL) : 0;
		scale = v > 0 ? v : 0;
	}
	return scale;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u),
			       (long)(ns % 1000000000u) };

	while (cuemu_libc.nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Waits for what op depends on, then runs it and publishes its end. */
static void run_op(CUstream s, struct op *op)
{
	uint64_t before, after;

	for (size_t i = 0; i < op->ndeps; i++) {
		cuemu_spos_wait(op->deps[i]);
		atomic_max(&s->clock, spos_end_ns(op->deps[i]));
	}
	atomic_max(&s->clock, op->host_ns);
	before = atomic_get(&s->clock);
	/* From here on fn owns arg: a fork must not give it back again. The
	 * fence orders the flag before anything fn writes (its free). */
	__atomic_store_n(&op->started, true, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	running_op = s;
	if (op->fn)
		op->fn(s, op->arg);
	running_op = NULL;
	after = atomic_get(&s->clock);
	atomic_max(&furthest_ns, after);
	pthread_mutex_lock(&s->lock);
	s->ends[op->seq % END_RING].seq = op->seq;
	s->ends[op->seq % END_RING].ns = after;
	__atomic_store_n(&s->done_seq, op->seq, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&s->lock);
	wake_waiters();
	if (then_fn) {
		void (*fn)(void *) = then_fn;

		then_fn = NULL;
		fn(then_arg);
	}
	cuemu_time_moved();
	if (time_scale() > 0 && after > before)
		sleep_ns((uint64_t)((double)(after - before) * time_scale()));
}

static void stream_free(CUstream s)
{
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	cuemu_vc_free(&s->vc);
	free(s);
}

/* Takes s out of the uid registry (its positions are all done from now on)
 * and frees it. */
static void stream_retire(CUstream s)
{
	pthread_rwlock_wrlock(&reg_lock);
	RB_REMOVE(uid_tree, &by_uid, s);
	pthread_rwlock_unlock(&reg_lock);
	wake_waiters();
	stream_free(s);
}

/* Takes the finished head op off s's queue; s's lock held. */
static void pop_head(CUstream s, struct op *op)
{
	__atomic_store_n(&s->head, op->next, __ATOMIC_RELEASE);
	if (!op->next)
		s->tail = NULL;
}

/* The operation s's worker runs next; NULL while none is queued or the
 * head runs inline in its enqueuer's thread. s's lock held. */
static struct op *runnable(CUstream s)
{
	return s->head && !s->head->claimed ? s->head : NULL;
}

/* Something for the worker to look at, read without s's lock. */
static bool work_queued(const void *arg)
{
	const struct CUstream_st *s = arg;

	return __atomic_load_n(&s->head, __ATOMIC_ACQUIRE) ||
	       __atomic_load_n(&s->destroying, __ATOMIC_ACQUIRE);
}

/* The worker's wait for work, s's lock held: after running something it
 * first spins a while for the next operation without the lock (see
 * SPIN_NS), then sleeps. Returns the next operation, or NULL when s is
 * being destroyed and nothing is left. */
static struct op *next_op(CUstream s, bool spin)
{
	struct op *op;

	while (!(op = runnable(s)) && !(s->destroying && !s->head)) {
		if (spin) {
			uint64_t deadline = 0;

			pthread_mutex_unlock(&s->lock);
			spin_until(work_queued, s, &deadline);
			pthread_mutex_lock(&s->lock);
			spin = false;
			continue;
		}
		pthread_cond_wait(&s->cond, &s->lock);
	}
	return op;
}

static void *worker(void *arg)
{
	CUstream s = arg;
	struct op *op;
	bool spin = false;

	self_worker = s;
	pthread_mutex_lock(&s->lock);
	while ((op = next_op(s, spin))) {
		pthread_mutex_unlock(&s->lock);
		run_op(s, op);
		pthread_mutex_lock(&s->lock);
		pop_head(s, op);
		free(op);
		spin = true;
	}
	pthread_mutex_unlock(&s->lock);
	/* Destroyed and drained: nobody holds the handle any more. */
	stream_retire(s);
	return NULL;
}

/* Runs op, the claimed head of s, in the calling thread, then lets the
 * worker have what queued behind it. A stream destroyed meanwhile that has
 * no worker goes here, as the worker would have retired it. */
static void run_inline(CUstream s, struct op *op)
{
	bool retire;

	/* The model's work, not the program's: its CPU time is not the
	 * thread's model time (clock.c). */
	cuemu_clock_enter();
	run_op(s, op);
	cuemu_clock_leave();
	pthread_mutex_lock(&s->lock);
	pop_head(s, op);
	if (s->head || s->destroying)
		pthread_cond_signal(&s->cond);
	retire = s->destroying && !s->running && !s->head;
	pthread_mutex_unlock(&s->lock);
	free(op);
	if (retire)
		stream_retire(s);
}

/* s's lock held. */
static CUresult start_worker(CUstream s)
{
	pthread_attr_t attr;
	pthread_t t;
	int rc;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	rc = pthread_create(&t, &attr, worker, s);
	pthread_attr_destroy(&attr);
	if (rc != 0)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
				  "no worker thread for stream %llu: %s",
				  (unsigned long long)s->uid, strerror(rc));
	s->running = true;
	return CUDA_SUCCESS;
}

/* ---------------------------------------------------------------- enqueue */

/* Adds o, an implicit dependency of new work, to deps (while its last
 * operation is not done) and its clock to vc; reg_lock held. */
static void implicit_dep(CUstream o, struct cuemu_spos *deps, size_t *n,
			 size_t max, struct vclock *vc, int *err)
{
	uint64_t last = atomic_get(&o->enq_seq);

	if (!last)
		return;
	if (atomic_get(&o->done_seq) < last && *n < max)
		deps[(*n)++] = (struct cuemu_spos){ o->uid, last };
	if (vc_snapshot(o, vc) < 0)
		*err = -1;
}

/* The implicit dependencies of new work on s: the legacy stream waits for
 * every blocking stream of its device, a blocking stream for the legacy
 * stream (the one stream it need look at). Adds them to deps (room for
 * max) and their clocks to vc; returns how many. */
static size_t implicit_deps(CUstream s, struct cuemu_spos *deps, size_t max,
			    struct vclock *vc, int *err)
{
	CUstream o;
	size_t n = 0;

	pthread_rwlock_rdlock(&reg_lock);
	if (s->kind != KIND_LEGACY) {
		if ((o = legacy[s->dev]))
			implicit_dep(o, deps, &n, max, vc, err);
	} else {
		RB_FOREACH(o, uid_tree, &by_uid)
			if (o != s && o->dev == s->dev && blocking(o))
				implicit_dep(o, deps, &n, max, vc, err);
	}
	pthread_rwlock_unlock(&reg_lock);
	return n;
}

static size_t stream_count(void)
{
	CUstream o;
	size_t n = 0;

	pthread_rwlock_rdlock(&reg_lock);
	RB_FOREACH(o, uid_tree, &by_uid)
		n++;
	pthread_rwlock_unlock(&reg_lock);
	return n;
}

static bool deps_done(const struct op *op)
{
	for (size_t i = 0; i < op->ndeps; i++)
		if (!cuemu_spos_done(op->deps[i]))
			return false;
	return true;
}

/* May op, of model work, run in the calling thread once s has nothing
 * ahead of it? Not in a worker's thread (a host function or an emulated
 * kernel calling the API: its thread is the kernel's, with its view of
 * managed memory), not under the process lock (the operation may take
 * it), not while time is scaled (the caller would sleep the operation's
 * time), and only when everything it depends on is done. */
static bool may_run_here(const struct op *op)
{
	return !self_worker && !cuemu_lock_held() && time_scale() == 0 &&
	       deps_done(op);
}

/* Work the capture of a stream refuses: on the stream itself, what is no
 * node of a graph (a prefetch, a callback: STREAM_CAPTURE_UNSUPPORTED);
 * on the legacy stream while a blocking stream of its device captures,
 * which would join the two (STREAM_CAPTURE_IMPLICIT), whatever the
 * capture's mode (probes/results/graph.txt). */
static CUresult capture_gate(CUstream s)
{
	CUresult r = CUDA_SUCCESS;

	if (__atomic_load_n(&s->capturing, __ATOMIC_ACQUIRE))
		r = cuemu_fail(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
			       "the operation cannot be captured");
	else if (s->kind == KIND_LEGACY &&
		 __atomic_load_n(&capturing_blocking[s->dev], __ATOMIC_ACQUIRE))
		r = cuemu_fail(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT,
			       "the legacy stream of device %d would join a "
			       "blocking stream's capture", s->dev);
	if (r != CUDA_SUCCESS && capture_refused)
		capture_refused(s, r);
	return r;
}

void cuemu_stream_set_capturing(CUstream s, bool on)
{
	if (__atomic_exchange_n(&s->capturing, on, __ATOMIC_ACQ_REL) == on)
		return;
	if (blocking(s))
		__atomic_add_fetch(&capturing_blocking[s->dev], on ? 1 : -1,
				   __ATOMIC_ACQ_REL);
}

void cuemu_on_capture_refusal(void (*fn)(CUstream s, CUresult r))
{
	capture_refused = fn;
}

bool cuemu_stream_blocking(CUstream s)
{
	return blocking(s);
}

/* Enqueues fn(arg) on s after the positions in deps (and the implicit ones)
 * and makes later work on s follow vc. here: fn is model work that may run
 * in the calling thread (internal.h); it does when may_run_here and s has
 * nothing queued or running. drop: how a forked child gives back an arg
 * that fn owns (struct op). *seq gets the operation's number; snap, if
 * given, what the operation is ordered after (s's vector clock as it
 * enqueued, without s itself). */
CUresult cuemu_st_enqueue(CUstream s, cuemu_op_fn fn, void *arg,
			void (*drop)(void *arg), bool here,
			const struct cuemu_spos *deps, size_t ndeps,
			const struct vclock *vc, uint64_t *seq,
			struct vclock *snap)
{
	bool implicit = s->kind == KIND_LEGACY || blocking(s);
	size_t room = ndeps + (!implicit ? 0 :
			       s->kind == KIND_LEGACY ? stream_count() + 1 : 1);
	struct vclock ivc = { 0 };
	struct op *op;
	CUresult r;
	int err = 0;

	if ((r = capture_gate(s)) != CUDA_SUCCESS)
		return r;
	if (!(op = malloc(sizeof *op + room * sizeof op->deps[0])))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "stream operation");
	*op = (struct op){ .fn = fn, .arg = arg, .drop = drop, .ndeps = ndeps,
			   .host_ns = thread_now() };
	if (ndeps)
		memcpy(op->deps, deps, ndeps * sizeof *deps);
	if (implicit)
		op->ndeps += implicit_deps(s, op->deps + ndeps, room - ndeps,
					   &ivc, &err);
	here = here && may_run_here(op);
	pthread_mutex_lock(&s->lock);
	if (s->destroying)
		r = cuemu_fail(CUDA_ERROR_INVALID_HANDLE, "stream %llu is "
			       "being destroyed", (unsigned long long)s->uid);
	else if ((vc && cuemu_vc_merge(&s->vc, vc) < 0) || err ||
		 cuemu_vc_merge(&s->vc, &ivc) < 0 ||
		 (snap && cuemu_vc_merge(snap, &s->vc) < 0))
		r = cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "stream clock");
	/* Nothing queued and nothing running (the worker pops an operation
	 * only once it has run, and an inline one stays at the head). */
	here = here && !s->head;
	if (r == CUDA_SUCCESS && !here && !s->running)
		r = start_worker(s);
	if (r == CUDA_SUCCESS) {
		op->seq = __atomic_add_fetch(&s->enq_seq, 1, __ATOMIC_ACQ_REL);
		op->claimed = here;
		if (s->tail)
			s->tail->next = op;
		else
			__atomic_store_n(&s->head, op, __ATOMIC_RELEASE);
		s->tail = op;
		if (!here)
			pthread_cond_signal(&s->cond);
		if (seq)
			*seq = op->seq;
	}
	pthread_mutex_unlock(&s->lock);
	cuemu_vc_free(&ivc);
	if (r != CUDA_SUCCESS)
		free(op);
	else if (here)
		run_inline(s, op);
	return r;
}

CUresult cuemu_stream_enqueue(CUstream s, cuemu_op_fn fn, void *arg)
{
	/* internal.h: arg is malloc'd and fn frees it; model work. */
	return cuemu_st_enqueue(s, fn, arg, free, true, NULL, 0, NULL, NULL, NULL);
}

void cuemu_op_then(void (*fn)(void *), void *arg)
{
	then_fn = fn;
	then_arg = arg;
}

CUresult cuemu_stream_enqueue_user(CUstream s, cuemu_op_fn fn, void *arg)
{
	/* internal.h: user code runs on the worker, always. */
	return cuemu_st_enqueue(s, fn, arg, free, false, NULL, 0, NULL, NULL, NULL);
}

/* The host has seen p finish: its model time catches up. */
static void host_saw(struct cuemu_spos p)
{
	atomic_max(&host_ns, spos_end_ns(p));
}

CUresult cuemu_stream_run(CUstream s, cuemu_op_fn fn, void *arg)
{
	struct cuemu_spos p = { s->uid, 0 };
	CUresult r;

	/* From an operation of s itself (a host function calling the API),
	 * waiting would never end: s runs it now, in its own order. */
	if (self_worker == s) {
		fn(s, arg);
		return CUDA_SUCCESS;
	}
	if ((r = cuemu_st_enqueue(s, fn, arg, NULL, true, NULL, 0, NULL, &p.seq,
			 NULL)) !=
	    CUDA_SUCCESS)
		return r;
	cuemu_spos_wait(p);
	host_saw(p);
	return CUDA_SUCCESS;
}

CUresult cuemu_stream_wait_pos(CUstream s, struct cuemu_spos p)
{
	struct vclock vc = { 0 };
	CUresult r;

	if (p.stream == s->uid || cuemu_spos_done(p))
		return CUDA_SUCCESS;
	if (cuemu_vc_raise(&vc, p.stream, p.seq) < 0)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "stream clock");
	r = cuemu_st_enqueue(s, NULL, NULL, NULL, true, &p, 1, &vc, NULL, NULL);
	cuemu_vc_free(&vc);
	return r;
}

void cuemu_stream_advance(CUstream s, uint64_t ns)
{
	__atomic_add_fetch(&s->clock, ns, __ATOMIC_ACQ_REL);
}

uint64_t cuemu_stream_now(CUstream s)
{
	return atomic_get(&s->clock);
}

void cuemu_stream_ended(CUstream s, enum cuemu_stream_end what)
{
	__atomic_store_n(&s->end_kind, (int)what, __ATOMIC_RELAXED);
	__atomic_store_n(&s->end_at, atomic_get(&s->clock) + 1,
			 __ATOMIC_RELEASE);
}

bool cuemu_stream_behind(CUstream s, enum cuemu_stream_end what)
{
	return __atomic_load_n(&s->end_at, __ATOMIC_ACQUIRE) ==
	       atomic_get(&s->clock) + 1 &&
	       __atomic_load_n(&s->end_kind, __ATOMIC_RELAXED) == (int)what;
}

/* The host's clock moves on by work of its own (staging a pageable copy),
 * not only by what it sees a stream finish. */
void cuemu_host_busy_until(uint64_t ns)
{
	atomic_max(&host_ns, ns);
}

int cuemu_stream_device(CUstream s)
{
	return s->dev;
}

bool cuemu_stream_legacy(CUstream s)
{
	return s->kind == KIND_LEGACY;
}

/* Model time at which s's operation seq ended, seq done: as spos_end_ns,
 * from the caller's handle, without the registry. */
static uint64_t stream_end_ns(CUstream s, uint64_t seq)
{
	uint64_t ns;

	pthread_mutex_lock(&s->lock);
	if (s->ends[seq % END_RING].seq == seq)
		ns = s->ends[seq % END_RING].ns;
	else
		ns = atomic_get(&s->clock);
	pthread_mutex_unlock(&s->lock);
	return ns;
}

/* The host has waited for s: when s is idle now, its clock comes up to
 * the calling thread's time. What is enqueued on s next starts no earlier
 * anyway (run_op); but a clock left where s's last operation ended would
 * count, in the next difference of two readings, whatever the host and
 * other streams did while s sat idle as s's own time (a kernel on gpu1
 * measured around by two synchronized readings was charged everything gpu0
 * did since gpu1 last ran). s's lock: no operation is queued or running. */
static void catch_up(CUstream s)
{
	pthread_mutex_lock(&s->lock);
	if (!s->head)
		atomic_max(&s->clock, thread_now());
	pthread_mutex_unlock(&s->lock);
}

void cuemu_stream_not_before(CUstream t, uint64_t ns)
{
	pthread_mutex_lock(&t->lock);
	if (!t->head)
		atomic_max(&t->clock, ns);
	pthread_mutex_unlock(&t->lock);
}

CUresult cuemu_stream_join(CUstream s, CUstream t)
{
	struct cuemu_spos p = cuemu_stream_pos(t);

	if (self_worker == t)
		return cuemu_fail(CUDA_ERROR_NOT_PERMITTED, "a stream's own "
				  "operation cannot wait for the stream");
	if (!p.seq)
		return CUDA_SUCCESS;
	cuemu_spos_wait(p);
	atomic_max(&s->clock, spos_end_ns(p));
	return CUDA_SUCCESS;
}

bool cuemu_stream_on_worker(void)
{
	return self_worker != NULL;
}

CUresult cuemu_stream_sync(CUstream s)
{
	struct cuemu_spos p = cuemu_stream_pos(s);

	if (self_worker == s)
		return cuemu_fail(CUDA_ERROR_NOT_PERMITTED, "a stream's own "
				  "operation cannot wait for the stream");
	/* An idle stream (the common case, now that work runs inline)
	 * takes only its own lock, briefly. */
	if (p.seq && atomic_get(&s->done_seq) >= p.seq) {
		atomic_max(&host_ns, stream_end_ns(s, p.seq));
	} else if (p.seq) {
		cuemu_spos_wait(p);
		host_saw(p);
	}
	catch_up(s);
	return CUDA_SUCCESS;
}

/* ---------------------------------------------------------------- fork */

/* A forked child has none of the parent's workers: the work the parent had
 * queued is the parent's, and is dropped; each stream starts a new worker
 * on its next operation; the arguments of operations that never started
 * are given back. A stream the parent was destroying goes. The
 * registry's locks are made anew: their holders do not exist here. */
static void child_after_fork(void)
{
	CUstream s, next;

	pthread_rwlock_init(&reg_lock, NULL);
	pthread_mutex_init(&done_lock, NULL);
	pthread_cond_init(&done_cond, NULL);
	for (s = RB_MIN(uid_tree, &by_uid); s; s = next) {
		next = RB_NEXT(uid_tree, &by_uid, s);
		pthread_mutex_init(&s->lock, NULL);
		pthread_cond_init(&s->cond, NULL);
		while (s->head) {
			struct op *op = s->head;
			s->head = op->next;
			/* An operation fn never saw still owns its arg. */
			if (op->drop && !op->started)
				op->drop(op->arg);
			free(op);
		}
		s->tail = NULL;
		s->running = false;
		s->done_seq = s->enq_seq;
		if (s->destroying) {
			RB_REMOVE(uid_tree, &by_uid, s);
			stream_free(s);
		}
	}
}

static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static void fork_register(void)
{
	pthread_atfork(NULL, NULL, child_after_fork);
}

/* ---------------------------------------------------------------- streams */

static CUstream stream_new(CUcontext ctx, int dev, unsigned int flags,
			   int priority, enum stream_kind kind)
{
	CUstream s = calloc(1, sizeof *s);

	pthread_once(&fork_once, fork_register);
	if (!s)
		return NULL;
	s->ctx = ctx;
	s->dev = dev;
	s->flags = flags;
	s->priority = priority;
	s->kind = kind;
	/* as a new stream answers them: no policy set, domain map 0 -> 0,
	 * remote -> 1 */
	s->attrs.sync_policy = -1;
	s->attrs.domain_map.remote = 1;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	/* A new stream starts at the host's model time: nothing enqueued
	 * later can have happened earlier. */
	s->clock = thread_now();
	return s;
}

/* reg_lock held. */
static void register_uid(CUstream s)
{
	s->uid = next_uid++;
	RB_INSERT(uid_tree, &by_uid, s);
}

/* The legacy default stream of dev, made on first use. */
static CUresult legacy_stream(int dev, CUstream *out)
{
	CUstream s;

	/* Made once and kept: the common case only reads. */
	pthread_rwlock_rdlock(&reg_lock);
	s = legacy[dev];
	pthread_rwlock_unlock(&reg_lock);
	if (s) {
		*out = s;
		return CUDA_SUCCESS;
	}
	pthread_rwlock_wrlock(&reg_lock);
	if (!(s = legacy[dev]) &&
	    (s = stream_new(cuemu_primary_ctx(dev), dev, 0, 0, KIND_LEGACY))) {
		register_uid(s);
		legacy[dev] = s;
	}
	pthread_rwlock_unlock(&reg_lock);
	if (!s)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "legacy stream");
	*out = s;
	return CUDA_SUCCESS;
}

/* At thread exit, the thread's per-thread streams finish and go. */
static void per_thread_exit(void *unused)
{
	for (int d = 0; d < cuemu_device_count(); d++) {
		if (per_thread[d])
			stream_destroy(per_thread[d]);
		per_thread[d] = NULL;
	}
}

static void per_thread_key_make(void)
{
	pthread_key_create(&per_thread_key, per_thread_exit);
}

static CUresult per_thread_stream(CUcontext ctx, int dev, CUstream *out)
{
	CUstream s = per_thread[dev];

	if (!s) {
		pthread_once(&per_thread_once, per_thread_key_make);
		if (!(s = stream_new(ctx, dev, 0, 0, KIND_PER_THREAD)))
			return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY,
					  "per-thread stream");
		pthread_rwlock_wrlock(&reg_lock);
		register_uid(s);
		pthread_rwlock_unlock(&reg_lock);
		per_thread[dev] = s;
		/* Any non-NULL value: the destructor runs only for those. */
		pthread_setspecific(per_thread_key, per_thread);
	}
	*out = s;
	return CUDA_SUCCESS;
}

CUresult cuemu_stream_get(CUstream h, CUstream *out)
{
	CUcontext ctx;
	CUstream s;
	CUresult r;
	int dev;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if (!h || h == CU_STREAM_LEGACY || h == CU_STREAM_PER_THREAD) {
		if ((r = cuemu_current(&ctx, &dev)) != CUDA_SUCCESS)
			return r;
		return h == CU_STREAM_PER_THREAD ?
		       per_thread_stream(ctx, dev, out) :
		       legacy_stream(dev, out);
	}
	pthread_rwlock_rdlock(&reg_lock);
	s = RB_FIND(handle_tree, &streams, h);
	pthread_rwlock_unlock(&reg_lock);
	if (!s)
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE,
				  "stream %p does not exist", (void *)h);
	*out = s;
	return CUDA_SUCCESS;
}

CUresult cuemu_stream_create(CUcontext ctx, unsigned int flags, int priority,
			     CUstream *out)
{
	CUstream s = stream_new(ctx, cuemu_ctx_device(ctx), flags, priority,
				KIND_USER);

	if (!s)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "stream");
	pthread_rwlock_wrlock(&reg_lock);
	register_uid(s);
	RB_INSERT(handle_tree, &streams, s);
	pthread_rwlock_unlock(&reg_lock);
	*out = s;
	return CUDA_SUCCESS;
}

/* Marks s for destruction: its worker drains the queue, then frees it. A
 * stream that never ran anything goes at once. s is out of the handle
 * registry already, or was never in it. */
static void stream_destroy(CUstream s)
{
	bool running;

	pthread_mutex_lock(&s->lock);
	__atomic_store_n(&s->destroying, true, __ATOMIC_RELEASE);
	/* An operation running inline retires s when it ends (run_inline). */
	running = s->running || s->head;
	pthread_cond_signal(&s->cond);
	pthread_mutex_unlock(&s->lock);
	if (!running)
		stream_retire(s);
}

CUresult cuemu_stream_release(CUstream h)
{
	CUstream s;

	pthread_rwlock_wrlock(&reg_lock);
	if ((s = RB_FIND(handle_tree, &streams, h)))
		RB_REMOVE(handle_tree, &streams, s);
	pthread_rwlock_unlock(&reg_lock);
	if (!s)
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE,
				  "stream %p does not exist", (void *)h);
	stream_destroy(s);
	return CUDA_SUCCESS;
}

int cuemu_stream_priority(CUstream s)
{
	return __atomic_load_n(&s->priority, __ATOMIC_RELAXED);
}

void cuemu_stream_set_priority(CUstream s, int priority)
{
	__atomic_store_n(&s->priority, priority, __ATOMIC_RELAXED);
}

void cuemu_stream_attrs_get(CUstream s, struct cuemu_stream_attrs *out)
{
	pthread_mutex_lock(&s->lock);
	*out = s->attrs;
	pthread_mutex_unlock(&s->lock);
}

void cuemu_stream_attrs_set(CUstream s, const struct cuemu_stream_attrs *a)
{
	pthread_mutex_lock(&s->lock);
	s->attrs = *a;
	pthread_mutex_unlock(&s->lock);
}

unsigned int cuemu_stream_flags(CUstream s)
{
	return s->flags;
}

CUcontext cuemu_stream_ctx(CUstream s)
{
	return s->kind == KIND_USER ? s->ctx : NULL;
}

bool cuemu_stream_idle(CUstream s)
{
	return atomic_get(&s->done_seq) >= atomic_get(&s->enq_seq);
}

/* The running operation is done_seq + 1: the worker runs them in order. */
bool cuemu_stream_more_queued(CUstream s)
{
	return atomic_get(&s->enq_seq) > atomic_get(&s->done_seq) + 1;
}

/* ---------------------------------------------------------------- all */

/* Positions of the last operation of every stream that matches. */
static size_t positions(struct cuemu_spos **out, CUcontext ctx)
{
	struct cuemu_spos *p;
	size_t n = 0, cap = stream_count() + 8;
	CUstream s;

	if (!(p = calloc(cap, sizeof *p)))
		return 0;
	pthread_rwlock_rdlock(&reg_lock);
	RB_FOREACH(s, uid_tree, &by_uid) {
		bool match = !ctx || s->ctx == ctx ||
			     (s->kind != KIND_USER &&
			      s->dev == cuemu_ctx_device(ctx));
		if (match && n < cap)
			p[n++] = cuemu_stream_pos(s);
	}
	pthread_rwlock_unlock(&reg_lock);
	*out = p;
	return n;
}

static CUresult wait_all(CUcontext ctx)
{
	struct cuemu_spos *p = NULL;
	size_t n = positions(&p, ctx);

	if (!p)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "stream list");
	for (size_t i = 0; i < n; i++) {
		cuemu_spos_wait(p[i]);
		host_saw(p[i]);
	}
	free(p);
	return CUDA_SUCCESS;
}

CUresult cuemu_sync_all(void)
{
	return wait_all(NULL);
}

CUresult cuemu_ctx_sync(CUcontext ctx)
{
	return wait_all(ctx);
}

void cuemu_ctx_streams_destroy(CUcontext ctx)
{
	CUstream s, next;
	CUstream *gone = NULL;
	size_t n = 0, cap = stream_count();

	if (cap && !(gone = calloc(cap, sizeof *gone)))
		cap = 0;
	pthread_rwlock_wrlock(&reg_lock);
	for (s = RB_MIN(handle_tree, &streams); s; s = next) {
		next = RB_NEXT(handle_tree, &streams, s);
		if (s->ctx == ctx && n < cap) {
			RB_REMOVE(handle_tree, &streams, s);
			gone[n++] = s;
		}
	}
	pthread_rwlock_unlock(&reg_lock);
	for (size_t i = 0; i < n; i++)
		stream_destroy(gone[i]);
	free(gone);
	wait_all(ctx);
}

uint64_t cuemu_st_uid(CUstream s)
{
	return s->uid;
}

uint64_t cuemu_stream_uid(CUstream s)
{
	return s->uid;
}

void cuemu_st_host_saw_ns(uint64_t ns)
{
	atomic_max(&host_ns, ns);
}

/* ---------------------------------------------------------------- views */

static const char *kind_word(enum stream_kind k)
{
	return k == KIND_USER ? "user" : k == KIND_LEGACY ? "legacy"
			      : "per_thread";
}

size_t cuemu_streams_each(void (*fn)(const struct cuemu_stream_info *i,
				     void *arg), void *arg)
{
	struct cuemu_stream_info i;
	size_t n = 0;
	CUstream s;

	pthread_rwlock_rdlock(&reg_lock);
	RB_FOREACH(s, uid_tree, &by_uid) {
		i = (struct cuemu_stream_info){
			.uid = s->uid, .dev = s->dev, .kind = kind_word(s->kind),
			.clock_ns = atomic_get(&s->clock),
			.queued = atomic_get(&s->enq_seq),
			.completed = atomic_get(&s->done_seq),
		};
		fn(&i, arg);
		n++;
	}
	pthread_rwlock_unlock(&reg_lock);
	return n;
}

uint64_t cuemu_model_time(void)
{
	uint64_t f = atomic_get(&furthest_ns), h = atomic_get(&host_ns);

	return f > h ? f : h;
}

uint64_t cuemu_model_now(void)
{
	CUstream s = running_op;

	return s ? atomic_get(&s->clock) : atomic_get(&host_ns);
}

/* An operation that only takes time: a kernel's computation. */
static void sleep_op(CUstream s, void *arg)
{
	cuemu_stream_advance(s, *(uint64_t *)arg);
	free(arg);
}

CUresult cuemu_stream_sleep(CUstream s, uint64_t ns)
{
	uint64_t *arg = malloc(sizeof *arg);
	CUresult r;

	if (!arg)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "stream sleep");
	*arg = ns;
	if ((r = cuemu_stream_enqueue(s, sleep_op, arg)) != CUDA_SUCCESS)
		free(arg);
	return r;
}
