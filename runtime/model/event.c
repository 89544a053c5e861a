/*
 * event.c - the stream engine's events (model/stream.h): their registry,
 * a record as an operation of its stream, what a recorded event stands for
 * (its position and the vector clock of its stream), queries, waits, the
 * model time a record reached, and a stream made to wait for one. The
 * engine's streams, positions and clocks are stream.c's (stream_impl.h).
 * An event belongs to the context current at its making: it is recorded
 * only on that context's streams, where any stream may wait for it.
 *
 * An interprocess event (cuIpcGetEventHandle, cuIpcOpenEventHandle) also
 * keeps its records in a slot every process that has it shares (model/
 * ipc.c): the number of records asked for and the newest one reached.
 * Its query, synchronize and stream wait read that slot, so that a record
 * in one process is waited for in another.
 *
 * Locking: ev_lock guards the registry and is taken inside no stream lock;
 * each event's own lock guards its record, taken after ev_lock and never
 * around a wait.
 */
#include "model/stream_impl.h"
#include "model/clock.h"
#include "model/ipc.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

struct CUevent_st {
	RB_ENTRY(CUevent_st) node;
	CUcontext ctx;                  /* current at its making; fixed */
	unsigned int flags;
	pthread_mutex_t lock;
	unsigned int refs;              /* the handle, and pending records */
	bool recorded;
	uint64_t gen;                   /* records so far */
	struct cuemu_spos pos;          /* the last record's operation */
	struct vclock vc;               /* its stream's clock at that record */
	uint64_t ns;                    /* model time the record reached */
	struct cuemu_evshare *share;    /* an interprocess event's slot */
	bool imported;                  /* opened from another process */
	CUipcEventHandle handle;        /* the exported slot's handle */
};

static int cmp_event(struct CUevent_st *a, struct CUevent_st *b)
{
	return a < b ? -1 : a > b;
}

RB_HEAD(event_tree, CUevent_st);
CUEMU_RB_STATIC(event_tree, CUevent_st, node, cmp_event)

/* The registry. Global because event handles are process-wide (any thread
 * may use any handle) and a stale handle must be recognized without
 * dereferencing it. */
static pthread_mutex_t ev_lock = PTHREAD_MUTEX_INITIALIZER;
static struct event_tree events = RB_INITIALIZER(&events);

static void event_unref(CUevent e)
{
	bool last;

	pthread_mutex_lock(&e->lock);
	last = --e->refs == 0;
	pthread_mutex_unlock(&e->lock);
	if (!last)
		return;
	if (e->imported)
		cuemu_evshare_close(e->share);
	pthread_mutex_destroy(&e->lock);
	cuemu_vc_free(&e->vc);
	free(e);
}

/* A live event, with a reference the caller drops with event_unref. */
static CUresult event_get(CUevent h, CUevent *out)
{
	CUresult r;
	CUevent e;

	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&ev_lock);
	if ((e = RB_FIND(event_tree, &events, h))) {
		pthread_mutex_lock(&e->lock);
		e->refs++;
		pthread_mutex_unlock(&e->lock);
	}
	pthread_mutex_unlock(&ev_lock);
	if (!e)
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE,
				  "event %p does not exist", (void *)h);
	*out = e;
	return CUDA_SUCCESS;
}

CUresult cuemu_event_new(CUcontext ctx, unsigned int Flags, CUevent *phEvent)
{
	CUevent e;

	if (!(e = calloc(1, sizeof *e)))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "event");
	e->ctx = ctx;
	e->flags = Flags;
	e->refs = 1;
	pthread_mutex_init(&e->lock, NULL);
	pthread_mutex_lock(&ev_lock);
	RB_INSERT(event_tree, &events, e);
	pthread_mutex_unlock(&ev_lock);
	*phEvent = e;
	return CUDA_SUCCESS;
}

CUresult cuemu_event_release(CUevent hEvent)
{
	CUevent e;

	pthread_mutex_lock(&ev_lock);
	if ((e = RB_FIND(event_tree, &events, hEvent)))
		RB_REMOVE(event_tree, &events, e);
	pthread_mutex_unlock(&ev_lock);
	if (!e)
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE,
				  "event %p does not exist", (void *)hEvent);
	/* A record still pending keeps it until it is reached. */
	event_unref(e);
	return CUDA_SUCCESS;
}

struct record {
	CUevent e;
	uint64_t gen;
	struct cuemu_evshare *sh;  /* the shared slot when the record began */
	uint64_t sgen;   /* its number among the slot's records */
};

/* The shared slot's newest record reached is at least gen. */
static void share_reached(struct cuemu_evshare *sh, uint64_t gen)
{
	uint64_t d = __atomic_load_n(&sh->done, __ATOMIC_ACQUIRE);

	while (d < gen && !__atomic_compare_exchange_n(&sh->done, &d, gen,
			false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		;
}

/* The records of a shared slot up to target are reached (or a later
 * one is, which the event stands for). */
static bool share_done(struct cuemu_evshare *sh, uint64_t target)
{
	return __atomic_load_n(&sh->done, __ATOMIC_ACQUIRE) >= target;
}

static void share_wait(struct cuemu_evshare *sh, uint64_t target)
{
	const struct timespec nap = { 0, 20000 };

	while (!share_done(sh, target))
		cuemu_libc.nanosleep(&nap, NULL);
}

static void record_op(CUstream s, void *arg)
{
	struct record *rec = arg;

	if (rec->sh)
		share_reached(rec->sh, rec->sgen);
	pthread_mutex_lock(&rec->e->lock);
	if (rec->e->gen == rec->gen)
		rec->e->ns = cuemu_stream_now(s);
	pthread_mutex_unlock(&rec->e->lock);
	event_unref(rec->e);
	free(rec);
}

/* A record a forked child drops unreached gives back its reference. */
static void record_drop(void *arg)
{
	struct record *rec = arg;

	event_unref(rec->e);
	free(rec);
}

/* Whether e belongs to ctx: the driver records an event, and names it in
 * a launch, only in the context it was made in (INVALID_HANDLE otherwise,
 * probes/results/xctx.txt), where a stream may wait for any context's. */
static CUresult event_in(CUevent e, CUcontext ctx)
{
	if (e->ctx == ctx)
		return CUDA_SUCCESS;
	return cuemu_fail(CUDA_ERROR_INVALID_HANDLE, "event %p belongs to "
			  "context %p, not %p", (void *)e, (void *)e->ctx,
			  (void *)ctx);
}

CUresult cuemu_event_check_ctx(CUevent h, CUcontext ctx)
{
	CUresult r;
	CUevent e;

	if ((r = event_get(h, &e)) != CUDA_SUCCESS)
		return r;
	r = event_in(e, ctx);
	event_unref(e);
	return r;
}

/* The context whose work s runs: a user stream's own, the current one's
 * for an implicit stream (found current by cuemu_stream_get). */
static CUcontext stream_context(CUstream s)
{
	CUcontext ctx = cuemu_stream_ctx(s);

	if (!ctx && cuemu_current(&ctx, NULL) != CUDA_SUCCESS)
		ctx = NULL;
	return ctx;
}

CUresult cuemu_event_record(CUevent hEvent, CUstream hStream)
{
	struct vclock vc = { 0 };
	struct record *rec;
	uint64_t gen, seq;
	CUstream s;
	CUevent e;
	CUresult r;

	if ((r = event_get(hEvent, &e)) != CUDA_SUCCESS)
		return r;
	if ((r = cuemu_stream_get(hStream, &s)) != CUDA_SUCCESS ||
	    (r = event_in(e, stream_context(s))) != CUDA_SUCCESS ||
	    !(rec = malloc(sizeof *rec))) {
		event_unref(e);
		return r ? r : cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "record");
	}
	pthread_mutex_lock(&e->lock);
	gen = ++e->gen;
	*rec = (struct record){ e, gen, e->share, 0 };
	if (e->share)
		rec->sgen = __atomic_add_fetch(&e->share->recorded, 1,
					       __ATOMIC_ACQ_REL);
	pthread_mutex_unlock(&e->lock);
	/* The record is an operation of s and holds the reference taken
	 * above until it is reached. */
	if ((r = cuemu_st_enqueue(s, record_op, rec, record_drop, true, NULL, 0, NULL,
			 &seq, &vc)) !=
	    CUDA_SUCCESS) {
		cuemu_vc_free(&vc);
		free(rec);
		event_unref(e);
		return r;
	}
	/* The event stands for this position and all that came before it. */
	cuemu_vc_raise(&vc, cuemu_st_uid(s), seq);
	pthread_mutex_lock(&e->lock);
	if (e->gen == gen) {
		cuemu_vc_free(&e->vc);
		e->vc = vc;
		vc = (struct vclock){ 0 };
		e->pos = (struct cuemu_spos){ cuemu_st_uid(s), seq };
		e->recorded = true;
	}
	pthread_mutex_unlock(&e->lock);
	cuemu_vc_free(&vc);
	return CUDA_SUCCESS;
}

/* What a recorded event stands for, read consistently. */
struct event_state {
	bool recorded;
	unsigned int flags;
	struct cuemu_spos pos;
	uint64_t ns;
	struct cuemu_evshare *share;
};

static struct event_state event_state(CUevent e)
{
	struct event_state st;

	pthread_mutex_lock(&e->lock);
	st = (struct event_state){ e->recorded, e->flags, e->pos, e->ns,
				   e->share };
	pthread_mutex_unlock(&e->lock);
	return st;
}

/* What the live event h stands for now: looked up, read, let go. */
static CUresult event_look(CUevent h, struct event_state *st)
{
	CUresult r;
	CUevent e;

	if ((r = event_get(h, &e)) != CUDA_SUCCESS)
		return r;
	*st = event_state(e);
	event_unref(e);
	return CUDA_SUCCESS;
}

CUresult cuemu_event_query(CUevent hEvent)
{
	struct event_state st;
	CUresult r;

	if ((r = event_look(hEvent, &st)) != CUDA_SUCCESS)
		return r;
	/* An interprocess event waits for the newest record of any process,
	 * and for a record of this one made before it was shared. */
	if (st.share && !share_done(st.share, __atomic_load_n(
			&st.share->recorded, __ATOMIC_ACQUIRE)))
		return CUDA_ERROR_NOT_READY;
	/* An event never recorded has nothing to wait for. */
	if (st.recorded && !cuemu_spos_done(st.pos))
		return CUDA_ERROR_NOT_READY;
	return CUDA_SUCCESS;
}

CUresult cuemu_event_sync(CUevent hEvent)
{
	struct event_state st;
	CUresult r;
	CUevent e;

	if ((r = event_get(hEvent, &e)) != CUDA_SUCCESS)
		return r;
	st = event_state(e);
	if (st.share)
		share_wait(st.share, __atomic_load_n(&st.share->recorded,
						     __ATOMIC_ACQUIRE));
	if (st.recorded) {
		cuemu_spos_wait(st.pos);
		cuemu_st_host_saw_ns(event_state(e).ns);
	}
	event_unref(e);
	return CUDA_SUCCESS;
}

/* Why an event cannot be timed, whether or not its record is reached:
 * INVALID_HANDLE for an event without timing or never recorded. */
static CUresult event_timeable(CUevent h, const struct event_state *st)
{
	if (st->flags & CU_EVENT_DISABLE_TIMING)
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE,
				  "event %p was created with DISABLE_TIMING",
				  (void *)h);
	if (!st->recorded)
		return cuemu_fail(CUDA_ERROR_INVALID_HANDLE,
				  "event %p was never recorded", (void *)h);
	return CUDA_SUCCESS;
}

CUresult cuemu_event_timed(CUevent h)
{
	struct event_state st;
	CUresult r;

	if ((r = event_look(h, &st)) != CUDA_SUCCESS)
		return r;
	return event_timeable(h, &st);
}

/* The model time a completed, timed event reached, or why not. */
CUresult cuemu_event_time(CUevent h, uint64_t *ns)
{
	struct event_state st;
	CUresult r;
	CUevent e;

	if ((r = event_get(h, &e)) != CUDA_SUCCESS)
		return r;
	st = event_state(e);
	if (st.recorded && cuemu_spos_done(st.pos))
		st = event_state(e); /* the record has written its time */
	event_unref(e);
	if ((r = event_timeable(h, &st)) != CUDA_SUCCESS)
		return r;
	if (!cuemu_spos_done(st.pos))
		return CUDA_ERROR_NOT_READY;
	*ns = st.ns;
	return CUDA_SUCCESS;
}

struct share_hold {
	CUevent e;
	uint64_t target;
};

/* A stream operation that holds its stream until the shared slot's
 * record it waits for is reached, in whatever process records it. */
static void share_hold_op(CUstream s, void *arg)
{
	struct share_hold *h = arg;

	(void)s;
	share_wait(h->e->share, h->target);
	event_unref(h->e);
	free(h);
}

/* Makes s wait for the newest record of an interprocess event e (held by
 * the caller). */
static CUresult share_stream_wait(CUstream s, CUevent e)
{
	struct share_hold *h;
	uint64_t target = __atomic_load_n(&e->share->recorded,
					  __ATOMIC_ACQUIRE);
	CUresult r;

	if (share_done(e->share, target))
		return CUDA_SUCCESS;
	if (!(h = malloc(sizeof *h)))
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "event wait");
	pthread_mutex_lock(&e->lock);
	e->refs++;
	pthread_mutex_unlock(&e->lock);
	*h = (struct share_hold){ e, target };
	if ((r = cuemu_stream_enqueue_user(s, share_hold_op, h))) {
		event_unref(e);
		free(h);
	}
	return r;
}

CUresult cuemu_event_ipc_export(CUevent hEvent, CUipcEventHandle *out)
{
	CUresult r;
	CUevent e;

	if ((r = event_get(hEvent, &e)) != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&e->lock);
	if (!(e->flags & CU_EVENT_INTERPROCESS) || e->imported)
		r = cuemu_fail(CUDA_ERROR_INVALID_HANDLE, "event %p was not "
			       "created with CU_EVENT_INTERPROCESS",
			       (void *)hEvent);
	else if (!e->share)
		r = cuemu_evshare_new(&e->share, &e->handle);
	if (r == CUDA_SUCCESS)
		*out = e->handle;
	pthread_mutex_unlock(&e->lock);
	event_unref(e);
	return r;
}

CUresult cuemu_event_ipc_open(const CUipcEventHandle *h, CUevent *out)
{
	struct cuemu_evshare *sh;
	CUresult r;
	CUevent e;

	CUcontext ctx = NULL;

	if ((r = cuemu_evshare_open(h, &sh)) != CUDA_SUCCESS)
		return r;
	/* The opened event times nothing and cannot be exported again; it
	 * belongs to the context that opened it. */
	if (cuemu_current(&ctx, NULL) != CUDA_SUCCESS)
		ctx = NULL;
	if ((r = cuemu_event_new(ctx, CU_EVENT_DISABLE_TIMING, &e))) {
		cuemu_evshare_close(sh);
		return r;
	}
	pthread_mutex_lock(&e->lock);
	e->share = sh;
	e->imported = true;
	pthread_mutex_unlock(&e->lock);
	*out = e;
	return CUDA_SUCCESS;
}

CUresult cuemu_stream_wait_event(CUstream hStream, CUevent hEvent)
{
	struct cuemu_spos pos;
	struct vclock vc = { 0 };
	bool recorded;
	CUstream s;
	CUevent e;
	CUresult r;

	if ((r = event_get(hEvent, &e)) != CUDA_SUCCESS)
		return r;
	if ((r = cuemu_stream_get(hStream, &s)) != CUDA_SUCCESS) {
		event_unref(e);
		return r;
	}
	if (e->share && (r = share_stream_wait(s, e))) {
		event_unref(e);
		return r;
	}
	pthread_mutex_lock(&e->lock);
	recorded = e->recorded;
	pos = e->pos;
	if (recorded && cuemu_vc_merge(&vc, &e->vc) < 0)
		r = cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "event clock");
	pthread_mutex_unlock(&e->lock);
	event_unref(e);
	/* Waiting for an event never recorded waits for nothing. */
	if (r == CUDA_SUCCESS && recorded && pos.stream != cuemu_st_uid(s))
		r = cuemu_st_enqueue(s, NULL, NULL, NULL, true, &pos, 1, &vc, NULL,
			    NULL);
	cuemu_vc_free(&vc);
	return r;
}

/* A forked child makes the registry's locks anew: their holders do not
 * exist there. Registered from a constructor, before any thread can hold
 * one, so that the stream engine need not know events exist. */
static void events_after_fork(void)
{
	CUevent e;

	pthread_mutex_init(&ev_lock, NULL);
	RB_FOREACH(e, event_tree, &events)
		pthread_mutex_init(&e->lock, NULL);
}

__attribute__((constructor)) static void events_fork_register(void)
{
	pthread_atfork(NULL, NULL, events_after_fork);
}
