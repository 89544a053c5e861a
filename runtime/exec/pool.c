/*
 * pool.c - the process's launch threads: host threads a launch's blocks
 * run on besides the thread that launches, made the first time a launch
 * asks for more than are idle and kept for every later launch (a
 * pthread_create and pthread_join per thread per launch cost a small
 * launch more than its blocks did). At most POOL_MAX, the most threads a
 * launch may ask for (CUEMU_KERNEL_THREADS); a launch that finds none idle
 * and the pool full runs on the threads it got, its caller's at least.
 *
 * A launch hires helpers (ex_pool_hire): each idle thread is handed the
 * crew and its index and woken; it runs fn(arg, index) and comes back
 * idle. The launch's own thread runs index 0, then waits for its helpers
 * (ex_pool_wait). An idle thread sleeps on its own condition variable:
 * nothing spins.
 *
 * fork: the child has none of the parent's threads, so its pool starts
 * empty (the prepare handler takes the lock, so that the child's copy of
 * the slots is whole). exit: a destructor closes the pool, so that a
 * launch after it runs on its caller alone; the idle threads stay asleep
 * and end with the process (woken, they would be ending while the exit
 * handlers run, leak checkers among them, which then cannot stop them to
 * read what they hold), and a thread still running a launch's share
 * finishes it or ends with the process. The pool's state is static and
 * never freed, so no thread touches anything freed.
 *
 * Locking: pool.lock guards every field of the pool, of its slots and of
 * a crew's left; it is a leaf, held only to hand out or take back a
 * thread, never while a block runs.
 */
#include "exec/run.h"

#include <signal.h>
#include <stdbool.h>
#include <string.h>

/* The most threads the pool makes: the most one launch may ask for
 * (model/cudaenv.c's MAX_KERNEL_THREADS, its caller among them), so that
 * a launch alone is never short; launches at once share them. */
#define POOL_MAX 64

struct slot {
	pthread_cond_t wake;      /* job set */
	struct ex_crew *job;      /* NULL: idle */
	int index;                /* the job's share */
	void *kept;               /* the thread's block memory (ex_pool_keep) */
};

/* The pool: one per process, as its threads are; static so that it
 * outlives every thread that uses it (see exit above). */
static struct {
	pthread_mutex_t lock;
	struct slot slot[POOL_MAX];
	int nslots;               /* threads made (slot[0..nslots)) */
	int idle[POOL_MAX];       /* the idle ones' slots, a stack */
	int nidle;
	bool closed;              /* at exit: no more hiring */
	/* A child of fork's copy of its parent's threads' block memory:
	 * those threads are not the child's, and what they held must stay
	 * reachable, not leak (a leak checker at the child's exit). */
	void *orphans[POOL_MAX];
} pool = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The slot of the pool thread running here; NULL on other threads. */
static __thread struct slot *my_slot;

static void *pool_thread(void *arg)
{
	struct slot *s = arg;

	my_slot = s;
	pthread_mutex_lock(&pool.lock);
	for (;;) {   /* until the process ends */
		struct ex_crew *c;
		int index;

		while (!s->job)
			pthread_cond_wait(&s->wake, &pool.lock);
		c = s->job;
		index = s->index;
		pthread_mutex_unlock(&pool.lock);
		c->fn(c->arg, index);
		pthread_mutex_lock(&pool.lock);
		s->job = NULL;
		pool.idle[pool.nidle++] = (int)(s - pool.slot);
		/* signalled under the lock: the crew is the launch's until
		 * its thread, woken, takes the lock back */
		if (--c->left == 0)
			pthread_cond_signal(&c->done);
	}
	return NULL;
}

/* The signals a program sends itself or is sent, for its own threads: a
 * pool thread blocks them. Not every signal: a leak checker stops the
 * process's threads with one of its own at exit. */
static const int program_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM,
	SIGVTALRM, SIGPROF, SIGCHLD, SIGPIPE, SIGWINCH, SIGIO, SIGURG,
};

/* A new thread in the next slot; NULL when the pool is full or the
 * thread cannot start. Lock held. The thread takes none of the program's
 * signals (above), only the faults its own touches raise, which the model
 * serves. */
static struct slot *grow(void)
{
	struct slot *s = &pool.slot[pool.nslots];
	sigset_t async, old;
	pthread_attr_t attr;
	pthread_t t;
	int rc;

	if (pool.nslots == POOL_MAX)
		return NULL;
	memset(s, 0, sizeof *s);
	if (pthread_cond_init(&s->wake, NULL))
		return NULL;
	sigemptyset(&async);
	for (size_t i = 0; i < sizeof program_signals / sizeof *program_signals;
	     i++)
		sigaddset(&async, program_signals[i]);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_sigmask(SIG_SETMASK, &async, &old);
	rc = pthread_create(&t, &attr, pool_thread, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (rc) {
		pthread_cond_destroy(&s->wake);
		return NULL;
	}
	pool.nslots++;
	return s;
}

int ex_pool_hire(struct ex_crew *c, int want, void (*fn)(void *, int),
		 void *arg)
{
	c->fn = NULL;   /* nothing for ex_pool_wait until done is made */
	c->arg = arg;
	c->given = 0;
	c->left = 0;
	if (want <= 0 || pthread_cond_init(&c->done, NULL))
		return 0;
	c->fn = fn;
	pthread_mutex_lock(&pool.lock);
	while (c->given < want && !pool.closed) {
		struct slot *s = pool.nidle ?
			&pool.slot[pool.idle[--pool.nidle]] : grow();
		if (!s)
			break;
		s->job = c;
		s->index = ++c->given;
		c->left++;
		pthread_cond_signal(&s->wake);
	}
	pthread_mutex_unlock(&pool.lock);
	return c->given;
}

void ex_pool_wait(struct ex_crew *c)
{
	if (!c->fn)
		return;
	pthread_mutex_lock(&pool.lock);
	while (c->left)
		pthread_cond_wait(&c->done, &pool.lock);
	pthread_mutex_unlock(&pool.lock);
	pthread_cond_destroy(&c->done);
	c->fn = NULL;
}

void ex_pool_keep(void *mem)
{
	if (my_slot)
		my_slot->kept = mem;
}

int ex_pool_threads(int *idle)
{
	int n;

	pthread_mutex_lock(&pool.lock);
	n = pool.nslots;
	if (idle)
		*idle = pool.nidle;
	pthread_mutex_unlock(&pool.lock);
	return n;
}

/* fork: the lock is taken, so that no slot is half handed out in the
 * child's copy; the child, which has none of the threads, starts empty. */
static void pool_prepare(void)
{
	pthread_mutex_lock(&pool.lock);
}

static void pool_parent(void)
{
	pthread_mutex_unlock(&pool.lock);
}

static void pool_child(void)
{
	/* a slot used again is made anew (grow), its condition variable
	 * with it: the parent's threads waited on the copies here */
	for (int i = 0; i < pool.nslots; i++)
		if (pool.slot[i].kept)
			pool.orphans[i] = pool.slot[i].kept;
	pool.nslots = 0;
	pool.nidle = 0;
	pthread_mutex_unlock(&pool.lock);
}

__attribute__((constructor)) static void pool_init(void)
{
	pthread_atfork(pool_prepare, pool_parent, pool_child);
}

/* At exit no launch hires; the threads are left as they are (above). */
__attribute__((destructor)) static void pool_close(void)
{
	pthread_mutex_lock(&pool.lock);
	pool.closed = true;
	pthread_mutex_unlock(&pool.lock);
}
