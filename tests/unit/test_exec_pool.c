/*
 * test_exec_pool.c - the engine's pool of launch threads (runtime/exec/
 * pool.c) over the mock of the model (exec_mock.h): the helpers a launch
 * hires are the same threads launch after launch; a launch asks for
 * threads as ex_launch.threads (CUEMU_KERNEL_THREADS) says, 1 hiring none,
 * and the pool never holds more than its most; launches from many threads
 * at once share it and compute what they must; a cooperative launch that
 * finds the pool taken still runs every block resident on its caller; a
 * child of fork starts with an empty pool and launches, also while the
 * parent's pool is busy; and a process exits with its launches' threads
 * still busy.
 *
 * Children run under alarm(): a pool that deadlocks fails its run instead
 * of hanging make check. Every launch that holds threads is released
 * before the test goes on, also when a check fails.
 */
#include "tap.h"
#include "exec_mock.h"
#include "exec/run.h"

#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define POOL_MOST 64

struct pb {
	uint8_t b[64];
	uint32_t n;
};

static void put(struct pb *p, const void *v, uint32_t size)
{
	p->n = (p->n + size - 1) & ~(size - 1);
	memcpy(p->b + p->n, v, size);
	p->n += size;
}

static void put_ptr(struct pb *p, const void *v)
{
	uint64_t a = (uint64_t)(uintptr_t)v;

	put(p, &a, 8);
}

/* Every thread of a launch spins until *flag is not 0: a launch of it
 * holds each thread it was given until the test lets it go. */
static const char hold_ptx[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".visible .entry hold(.param .u64 flag)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n"
	"\tld.param.u64 %rd1, [flag];\n"
	"$L__wait:\n"
	"\tld.volatile.global.u32 %r1, [%rd1];\n"
	"\tsetp.eq.u32 %p1, %r1, 0;\n"
	"\t@%p1 bra $L__wait;\n"
	"\tret;\n}\n";

/* Global: the mock and the two modules every case uses, and the helper
 * threads the worker hook saw (the hook has no other way out). */
static struct mock mk;
static struct ex_module *samples, *holdm, *control;
static struct {
	pthread_mutex_t lock;
	long tid[4096];
	int n;          /* hook calls that began a share */
} seen = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void seen_reset(void)
{
	pthread_mutex_lock(&seen.lock);
	seen.n = 0;
	pthread_mutex_unlock(&seen.lock);
}

static void hook(void *ctx, bool begin)
{
	(void)ctx;
	pthread_mutex_lock(&seen.lock);
	if (begin && seen.n < 4096)
		seen.tid[seen.n++] = (long)syscall(SYS_gettid);
	pthread_mutex_unlock(&seen.lock);
}

/* The distinct threads the hook saw since seen_reset. */
static int seen_distinct(void)
{
	int d = 0;

	pthread_mutex_lock(&seen.lock);
	for (int i = 0; i < seen.n; i++) {
		int k = 0;
		while (k < i && seen.tid[k] != seen.tid[i])
			k++;
		d += k == i;
	}
	pthread_mutex_unlock(&seen.lock);
	return d;
}

static struct ex_module *parse(const char *text, const char *name)
{
	char *t = NULL, log[512];
	size_t len = 0;
	struct ex_module *m = NULL;

	if (!text && !(text = t = mock_read_ptx(name, &len)))
		return NULL;
	if (ex_module_parse(text, t ? len : strlen(text), 90, &m, log,
			    sizeof log) != EX_OK) {
		printf("# %s: %s\n", name, log);
		m = NULL;
	}
	free(t);
	if (m && mock_bind(&mk, m)) {
		ex_module_free(m);
		m = NULL;
	}
	return m;
}

/* A saxpy's buffers, allocated by the main thread (the mock's
 * allocations are not for several threads at once) and used again. */
struct sx {
	float *x, *y;
	int n;
};

static struct sx sx_new(int n)
{
	struct sx v = { mock_alloc(&mk, (size_t)n * 4, 0),
			mock_alloc(&mk, (size_t)n * 4, 0), n };

	for (int i = 0; v.x && v.y && i < n; i++)
		v.x[i] = (float)i;
	return v;
}

/* saxpy over v's n floats in blocks of 256 on threads host threads: the
 * elements that are not 2.5 x + 1. */
static int saxpy(struct sx *v, int threads, enum ex_status *st)
{
	struct ex_result *r = malloc(sizeof *r);
	struct pb p = { 0 };
	float a = 2.5f;
	int bad = 0;

	if (!v->x || !v->y || !r) {
		free(r);
		*st = EX_OUT_OF_MEMORY;
		return v->n;
	}
	for (int i = 0; i < v->n; i++)
		v->y[i] = 1.0f;
	put(&p, &v->n, 4);
	put(&p, &a, 4);
	put_ptr(&p, v->x);
	put_ptr(&p, v->y);
	struct ex_launch l = mock_launch(&mk, samples, "saxpy", p.b,
					 (uint32_t)(v->n + 255) / 256, 1, 256,
					 1, 1);
	l.threads = threads;
	l.mem.worker = hook;
	*st = ex_launch_run(&l, r);
	for (int i = 0; i < v->n; i++)
		bad += v->y[i] != 2.5f * (float)i + 1.0f;
	free(r);
	return bad;
}

/* Global: the buffers every case shares, the most any uses. */
static struct sx big;

static void test_kept(void)
{
	enum ex_status st = EX_OK;
	int bad = 0, made, idle = -1;

	struct sx v = sx_new(8 * 256);

	seen_reset();
	for (int k = 0; k < 20; k++)
		bad += saxpy(&v, 4, &st);
	is_int(st, EX_OK, "20 launches of 8 blocks on 4 host threads run");
	is_int(bad, 0, "each computes saxpy");
	is_int(seen_distinct(), 3, "their helpers are 3 threads, the same "
	       "each launch (a thread each launch made 60)");
	made = ex_pool_threads(&idle);
	ok(made == 3 && idle == 3, "the pool holds 3 threads, all idle "
	   "between launches (%d, %d idle)", made, idle);
}

static void test_counts(void)
{
	struct sx v16 = sx_new(16 * 256), v2 = sx_new(2 * 256),
		  v128 = sx_new(128 * 256);
	enum ex_status st = EX_OK;
	int bad, made, idle = -1;

	seen_reset();
	bad = saxpy(&v16, 1, &st);
	ok(st == EX_OK && bad == 0 && seen.n == 0,
	   "a launch on 1 host thread runs on its caller alone (%d helpers)",
	   seen.n);
	seen_reset();
	bad = saxpy(&v2, 8, &st);
	ok(st == EX_OK && bad == 0 && seen.n == 1,
	   "a launch of 2 blocks on 8 asks for 1 helper, not 7 (%d)", seen.n);
	seen_reset();
	bad = saxpy(&v128, 8, &st);
	ok(st == EX_OK && bad == 0 && seen_distinct() == 7,
	   "128 blocks on 8 host threads: 7 helpers (%d)", seen_distinct());
	bad = saxpy(&big, 200, &st);
	made = ex_pool_threads(&idle);
	ok(st == EX_OK && bad == 0 && made == POOL_MOST && idle == POOL_MOST,
	   "asked for 200, a launch runs on the pool's most, %d, and its "
	   "caller (%d made, %d idle)", POOL_MOST, made, idle);
}

struct launcher {
	pthread_t t;
	struct sx v;
	int bad;
	enum ex_status st;
};

static void *launcher(void *arg)
{
	struct launcher *L = arg;

	for (int k = 0; k < 25 && L->st == EX_OK && !L->bad; k++)
		L->bad += saxpy(&L->v, 4, &L->st);
	return NULL;
}

static void test_many(void)
{
	struct launcher L[8];
	int bad = 0, failed = 0, made, idle = -1, started = 0;

	memset(L, 0, sizeof L);
	for (int i = 0; i < 8; i++)
		L[i].v = sx_new(16 * 256);
	for (int i = 0; i < 8; i++)
		started += !pthread_create(&L[i].t, NULL, launcher, &L[i]);
	for (int i = 0; i < 8; i++) {
		pthread_join(L[i].t, NULL);
		bad += L[i].bad;
		failed += L[i].st != EX_OK;
	}
	ok(started == 8 && bad == 0 && failed == 0,
	   "8 threads launching 25 times each at once, on 4 host threads "
	   "each, all compute saxpy (%d wrong, %d failed)", bad, failed);
	made = ex_pool_threads(&idle);
	ok(made <= POOL_MOST && idle == made,
	   "after them the pool holds %d threads, all idle", made);
}

/* A launch of hold on threads host threads, one block each, run on a
 * thread of its own until *flag is set. */
struct holder {
	pthread_t t;
	uint32_t *flag;
	int threads;
	enum ex_status st;
	struct ex_result r;
};

static void *holder(void *arg)
{
	struct holder *h = arg;
	struct pb p = { 0 };

	put_ptr(&p, h->flag);
	struct ex_launch l = mock_launch(&mk, holdm, "hold", p.b,
					 (uint32_t)h->threads, 1, 32, 1, 1);
	l.threads = h->threads;
	h->st = ex_launch_run(&l, &h->r);
	return NULL;
}

/* Starts h; true once its helpers left the idle ones (it hires the
 * idle first, as many as it asks for). */
static bool hold_start(struct holder *h, int threads)
{
	int idle = -1, after;

	ex_pool_threads(&idle);
	after = threads - 1 >= idle ? 0 : idle - (threads - 1);
	memset(h, 0, sizeof *h);
	h->flag = mock_alloc(&mk, 4, 0);
	h->threads = threads;
	if (!h->flag || pthread_create(&h->t, NULL, holder, h))
		return false;
	for (int i = 0; i < 20000; i++) {
		ex_pool_threads(&idle);
		if (idle <= after)
			return true;
		usleep(1000);
	}
	return false;
}

static enum ex_status hold_end(struct holder *h)
{
	__atomic_store_n(h->flag, 1, __ATOMIC_RELEASE);
	pthread_join(h->t, NULL);
	return h->st;
}

/* The grid-sync kernel of test_exec, cooperative, on threads host
 * threads: the elements that are not what the syncs make them. */
static int grid_sync(int threads, enum ex_status *st)
{
	int blocks = 12, per = 96, n = blocks * per, rounds = 3, bad = 0;
	int *p = mock_alloc(&mk, (size_t)n * 4, 0),
	    *q = mock_alloc(&mk, (size_t)n * 4, 0);
	struct ex_result *r = malloc(sizeof *r);
	struct pb a = { 0 };

	if (!p || !q || !r) {
		free(r);
		*st = EX_OUT_OF_MEMORY;
		return n;
	}
	put_ptr(&a, p);
	put_ptr(&a, q);
	put(&a, &rounds, 4);
	struct ex_launch l = mock_launch(&mk, control, "gridSync", a.b,
					 (uint32_t)blocks, 1, (uint32_t)per,
					 1, 1);
	l.cooperative = true;
	l.threads = threads;
	*st = ex_launch_run(&l, r);
	for (int i = 0; i < n; i++) {
		int want = 0;
		for (int k = 0; k < rounds; k++)
			want += ((i + per * 3) % n) * 3 + k;
		bad += q[i] != want;
	}
	free(r);
	return bad;
}

static void test_cooperative_short(void)
{
	struct holder h;
	enum ex_status st = EX_LAUNCH_FAILED;
	int bad = -1;
	bool held = hold_start(&h, POOL_MOST + 1);

	alarm(120);
	if (held)
		bad = grid_sync(4, &st);
	ok(held && st == EX_OK && bad == 0,
	   "with every pool thread held by another launch, a cooperative "
	   "launch's caller holds all its blocks and their grid syncs "
	   "complete (%d wrong)", bad);
	is_int(hold_end(&h), EX_OK, "the holding launch ends when let go");
	alarm(0);
	bad = grid_sync(4, &st);
	ok(st == EX_OK && bad == 0, "a cooperative launch on 4 threads of "
	   "the pool syncs its grid (%d wrong)", bad);
}

/* A child's status: its exit code, or 128 + the signal that ended it. */
static int child_status(pid_t pid)
{
	int status;

	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) :
	       128 + WTERMSIG(status);
}

/* In a child: 0 when its pool started empty and a launch on 4 threads
 * computed saxpy with 3 helpers of its own. */
static int child_launch(void)
{
	enum ex_status st;
	int made = ex_pool_threads(NULL), bad;

	alarm(60);
	seen_reset();
	bad = saxpy(&big, 4, &st);
	if (made != 0)
		return 1;
	if (st != EX_OK || bad)
		return 2;
	if (seen_distinct() != 3 || ex_pool_threads(NULL) != 3)
		return 3;
	return 0;
}

static void test_fork(void)
{
	struct holder h;
	pid_t pid;
	bool held;

	pid = fork();
	if (pid == 0)
		_exit(child_launch());
	is_int(child_status(pid), 0, "a child of fork starts with no pool "
	       "threads and its launch hires 3 of its own");
	held = hold_start(&h, 5);
	pid = held ? fork() : -1;
	if (pid == 0)
		_exit(child_launch());
	is_int(child_status(pid), 0, "so does one forked while the parent's "
	       "pool threads run a launch");
	is_int(hold_end(&h), EX_OK, "the parent's launch ends when let go");
}

static void test_exit(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct holder h;

		alarm(60);
		if (!hold_start(&h, 8))
			_exit(1);
		saxpy(&big, 4, &(enum ex_status){ 0 });
		exit(0);   /* the held launch's threads still spin */
	}
	is_int(child_status(pid), 0, "a process exits while its launch's "
	       "pool threads are busy and others idle");
}

int main(void)
{
	mock_init(&mk);
	samples = parse(NULL, "samples");
	control = parse(NULL, "control");
	holdm = parse(hold_ptx, "hold");
	big = sx_new(256 * 256);
	if (!ok(samples && control && holdm && big.x && big.y,
		"the kernels parse"))
		return done_testing();
	test_kept();
	test_counts();
	test_many();
	test_cooperative_short();
	test_fork();
	test_exit();
	ex_module_free(samples);
	ex_module_free(control);
	ex_module_free(holdm);
	mock_free(&mk);
	return done_testing();
}
