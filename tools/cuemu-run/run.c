/*
 * run.c - replays a checked workload (workload.h) through the public
 * driver API: the allocations, labelled; then every stream in a host
 * thread of its own, its steps in order; then the frees.
 *
 * A kernel is the emulated kind of cuemu.h: its parts are declared with
 * cuemuAccess on its stream, which faults them in on the stream's device
 * as a kernel touching them would, and its computation is
 * cuemuStreamSleep. Events join the streams' threads too: the k-th wait
 * of a stream on an event waits, on the host, until the event has been
 * recorded k times, then makes the stream wait for it (cuStreamWaitEvent),
 * so a description means the same however the threads are scheduled.
 *
 * Locking: one mutex (run.lock) guards the events' record counts and the
 * first failure; each thread owns its stream and counters.
 */
#include "workload.h"
#include "cuemu.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct ev_state {
	CUevent ev;
	int device;          /* of the first stream that records it */
	unsigned long records;
	int recorders;       /* threads that record it, still running */
};

struct run {
	struct workload *w;
	const struct run_opts *o;
	CUcontext ctx[64];
	struct ev_state *evs;
	CUstream *streams;   /* each stream's, kept until the frees */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool failed;
	char *err;
	size_t errlen;
	unsigned long long model_ns;
	/* the earliest stream's clock when made: what the setup before
	 * (cuInit, the contexts, the allocations) took is not the run's */
	unsigned long long start_ns;
};

struct worker {
	struct run *r;
	struct w_stream *st;
	CUstream s;
	unsigned long *waits;  /* per event: waits done so far */
	bool cpu_last;         /* a cpu step came after the last operation */
	pthread_t t;
};

/* The first failure is kept; every later one is dropped. Always -1. */
static int fail(struct run *r, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct run *r, int line, const char *fmt, ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&r->lock);
	if (!r->failed) {
		r->failed = true;
		snprintf(r->err, r->errlen, "%s:%d: %s", r->o->file, line, why);
	}
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
	return -1;
}

/* r's CUresult as a failure: "what: NAME (the library's message)". */
static int api(struct run *r, int line, CUresult res, const char *what)
{
	const char *name = NULL, *text = NULL;

	if (res == CUDA_SUCCESS)
		return 0;
	cuGetErrorName(res, &name);
	cuGetErrorString(res, &text);
	return fail(r, line, "%s: %s (%s)", what, name ? name : "?",
		    text ? text : "?");
}

static bool failed(struct run *r)
{
	bool f;

	pthread_mutex_lock(&r->lock);
	f = r->failed;
	pthread_mutex_unlock(&r->lock);
	return f;
}

/* ---------------------------------------------------------------- steps */

static unsigned touch_flags(const struct w_span *p)
{
	return (p->read ? CUEMU_ACCESS_READ : 0) |
	       (p->write ? CUEMU_ACCESS_WRITE : 0);
}

/* Calls fn(base + from, len) for each piece of p, pass after pass. */
static int each_piece(struct run *r, const struct w_span *p,
		      int (*fn)(struct worker *, const struct w_span *,
				uintptr_t, size_t), struct worker *k)
{
	uintptr_t base = (uintptr_t)r->w->allocs[p->alloc].ptr + p->offset;

	for (unsigned pass = 0; pass < p->passes; pass++) {
		if (!p->stride) {
			if (fn(k, p, base, p->length) < 0)
				return -1;
			continue;
		}
		for (uint64_t at = 0; at < p->length; at += p->stride) {
			size_t n = p->chunk < p->length - at ? p->chunk
							     : p->length - at;
			if (fn(k, p, base + at, n) < 0)
				return -1;
		}
	}
	return 0;
}

static int gpu_piece(struct worker *k, const struct w_span *p, uintptr_t at,
		     size_t n)
{
	return api(k->r, p->line, cuemuAccess(k->s, (CUdeviceptr)at, n,
					      touch_flags(p)), "cuemuAccess");
}

/* The CPU touches a piece: reads a byte of every page, writes all. */
static int cpu_piece(struct worker *k, const struct w_span *p, uintptr_t at,
		     size_t n)
{
	volatile unsigned char *b = (volatile unsigned char *)at;
	unsigned sum = 0;

	(void)k;
	if (p->read) {
		for (size_t i = 0; i < n; i += 4096)
			sum += b[i];
		sum += b[n - 1];
	}
	if (p->write)
		memset((void *)at, (int)(sum | 0x5a) & 0xff, n);
	return 0;
}

static int run_steps(struct worker *k, const struct w_step *st, size_t n);

static int do_wait(struct worker *k, const struct w_step *st)
{
	struct run *r = k->r;
	struct ev_state *e = &r->evs[st->u.event];
	unsigned long want = ++k->waits[st->u.event];
	bool ok;

	pthread_mutex_lock(&r->lock);
	while (e->records < want && e->recorders > 0 && !r->failed)
		pthread_cond_wait(&r->cond, &r->lock);
	ok = e->records >= want;
	pthread_mutex_unlock(&r->lock);
	if (!ok)
		return failed(r) ? -1 : fail(r, st->line, "wait %lu for event "
			"\"%s\": it is recorded only %lu times", want,
			r->w->events[st->u.event].name, e->records);
	return api(r, st->line, cuStreamWaitEvent(k->s, e->ev, 0),
		   "cuStreamWaitEvent");
}

static int do_record(struct worker *k, const struct w_step *st)
{
	struct run *r = k->r;
	struct ev_state *e = &r->evs[st->u.event];

	if (api(r, st->line, cuEventRecord(e->ev, k->s), "cuEventRecord") < 0)
		return -1;
	pthread_mutex_lock(&r->lock);
	e->records++;
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
	return 0;
}

static CUmem_advise advice_of(const struct w_step *st)
{
	static const CUmem_advise set[] = {
		[ADV_READ_MOSTLY] = CU_MEM_ADVISE_SET_READ_MOSTLY,
		[ADV_PREFERRED] = CU_MEM_ADVISE_SET_PREFERRED_LOCATION,
		[ADV_ACCESSED_BY] = CU_MEM_ADVISE_SET_ACCESSED_BY,
	};

	/* Each UNSET follows its SET. */
	return (CUmem_advise)(set[st->u.advise.advice] +
			      (st->u.advise.unset ? 1 : 0));
}

/* Whether a step puts an operation on the stream: one that starts no
 * earlier than the thread's own time (after a cpu step's faults). */
static bool enqueues(enum step_kind kind)
{
	return kind != ST_CPU && kind != ST_ADVISE && kind != ST_SYNC &&
	       kind != ST_REPEAT;
}

static int run_step(struct worker *k, const struct w_step *st)
{
	struct run *r = k->r;
	struct w_alloc *a = r->w->allocs;

	if (st->kind == ST_CPU)
		k->cpu_last = true;
	else if (enqueues(st->kind))
		k->cpu_last = false;
	switch (st->kind) {
	case ST_KERNEL:
		for (size_t i = 0; i < st->u.kernel.n; i++)
			if (each_piece(r, &st->u.kernel.spans[i], gpu_piece, k) < 0)
				return -1;
		if (!st->u.kernel.compute_ns)
			return 0;
		return api(r, st->line, cuemuStreamSleep(k->s,
			   st->u.kernel.compute_ns), "cuemuStreamSleep");
	case ST_PREFETCH:
		return api(r, st->line, cuMemPrefetchAsync(
			a[st->u.prefetch.alloc].ptr + st->u.prefetch.offset,
			st->u.prefetch.length, st->u.prefetch.to, 0, k->s),
			"cuMemPrefetchAsync");
	case ST_ADVISE:
		return api(r, st->line, cuMemAdvise(
			a[st->u.advise.alloc].ptr + st->u.advise.offset,
			st->u.advise.length, advice_of(st), st->u.advise.loc),
			"cuMemAdvise");
	case ST_MEMCPY:
		return api(r, st->line, cuMemcpyAsync(
			a[st->u.memcpy.dst].ptr + st->u.memcpy.dst_offset,
			a[st->u.memcpy.src].ptr + st->u.memcpy.src_offset,
			st->u.memcpy.length, k->s), "cuMemcpyAsync");
	case ST_MEMSET:
		return api(r, st->line, cuMemsetD8Async(
			a[st->u.memset.alloc].ptr + st->u.memset.offset,
			(unsigned char)st->u.memset.value, st->u.memset.length,
			k->s), "cuMemsetD8Async");
	case ST_RECORD:
		return do_record(k, st);
	case ST_WAIT:
		return do_wait(k, st);
	case ST_SYNC:
		return api(r, st->line, cuStreamSynchronize(k->s),
			   "cuStreamSynchronize");
	case ST_CPU:
		/* The CPU's part comes after the stream's work so far. */
		if (api(r, st->line, cuStreamSynchronize(k->s),
			"cuStreamSynchronize") < 0)
			return -1;
		return each_piece(r, &st->u.cpu, cpu_piece, k);
	case ST_SLEEP:
		return api(r, st->line, cuemuStreamSleep(k->s, st->u.sleep_ns),
			   "cuemuStreamSleep");
	case ST_REPEAT:
		for (unsigned i = 0; i < st->u.repeat.count; i++)
			if (run_steps(k, st->u.repeat.steps, st->u.repeat.n) < 0)
				return -1;
		return 0;
	}
	return fail(r, st->line, "no such step");
}

static int run_steps(struct worker *k, const struct w_step *st, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (failed(k->r) || run_step(k, &st[i]) < 0)
			return -1;
	return 0;
}

/* ---------------------------------------------------------------- threads */

static bool stream_records(const struct w_step *st, size_t n, int ev)
{
	for (size_t i = 0; i < n; i++) {
		if (st[i].kind == ST_RECORD && st[i].u.event == ev)
			return true;
		if (st[i].kind == ST_REPEAT &&
		    stream_records(st[i].u.repeat.steps, st[i].u.repeat.n, ev))
			return true;
	}
	return false;
}

/* Waiters for what st would have recorded learn that no more comes. */
static void stream_gone(struct run *r, const struct w_stream *st)
{
	pthread_mutex_lock(&r->lock);
	for (size_t e = 0; e < r->w->nevents; e++)
		if (stream_records(st->steps, st->n, (int)e))
			r->evs[e].recorders--;
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
}

static void *worker_main(void *arg)
{
	struct worker *k = arg;
	struct run *r = k->r;
	unsigned long long ns = 0;

	if (api(r, k->st->line, cuCtxSetCurrent(r->ctx[k->st->device]),
		"cuCtxSetCurrent") == 0 &&
	    api(r, k->st->line, cuStreamCreate(&k->s, CU_STREAM_NON_BLOCKING),
		"cuStreamCreate") == 0) {
		if (cuemuStreamGetTime(k->s, &ns) == CUDA_SUCCESS) {
			pthread_mutex_lock(&r->lock);
			if (ns < r->start_ns)
				r->start_ns = ns;
			pthread_mutex_unlock(&r->lock);
		}
		run_steps(k, k->st->steps, k->st->n);
		/* What a cpu step after the last operation cost (its
		 * faults, its remote reads) is on the thread's clock: an
		 * empty operation, which starts no earlier, brings it into
		 * the stream's, so that the run's time counts it. */
		if (k->cpu_last)
			api(r, k->st->line, cuemuStreamSleep(k->s, 0),
			    "cuemuStreamSleep");
		api(r, k->st->line, cuStreamSynchronize(k->s),
		    "cuStreamSynchronize");
		if (cuemuStreamGetTime(k->s, &ns) == CUDA_SUCCESS) {
			pthread_mutex_lock(&r->lock);
			if (ns > r->model_ns)
				r->model_ns = ns;
			pthread_mutex_unlock(&r->lock);
		}
		/* Kept, so that /cu shows it while the workload lingers. */
		r->streams[k->st - r->w->streams] = k->s;
	}
	stream_gone(r, k->st);
	return NULL;
}

static int run_streams(struct run *r)
{
	struct workload *w = r->w;
	struct worker *k = calloc(w->nstreams, sizeof *k);
	size_t started = 0;

	if (!k || !(r->streams = calloc(w->nstreams, sizeof *r->streams))) {
		free(k);
		return fail(r, 1, "out of memory");
	}
	for (size_t i = 0; i < w->nstreams; i++) {
		k[i] = (struct worker){ .r = r, .st = &w->streams[i] };
		if (w->nevents && !(k[i].waits = calloc(w->nevents,
							 sizeof *k[i].waits))) {
			fail(r, w->streams[i].line, "out of memory");
			break;
		}
	}
	for (size_t i = 0; i < w->nstreams && !failed(r); i++, started++) {
		if (pthread_create(&k[i].t, NULL, worker_main, &k[i]) != 0) {
			fail(r, w->streams[i].line, "no thread for the stream");
			break;
		}
	}
	for (size_t i = 0; i < started; i++)
		pthread_join(k[i].t, NULL);
	for (size_t i = 0; i < w->nstreams; i++)
		free(k[i].waits);
	free(k);
	return failed(r) ? -1 : 0;
}

/* ---------------------------------------------------------------- setup */

static int check_device(struct run *r, int line, int dev, int count,
			const char *what)
{
	if (dev < count)
		return 0;
	return fail(r, line, "%s: gpu%d: the machine has %d GPU%s", what, dev,
		    count, count == 1 ? "" : "s");
}

static int check_loc(struct run *r, int line, CUmemLocation loc, int count,
		     const char *what)
{
	if (loc.type != CU_MEM_LOCATION_TYPE_DEVICE)
		return 0;
	return check_device(r, line, loc.id, count, what);
}

static int check_steps(struct run *r, const struct w_step *st, size_t n,
		       int count)
{
	for (size_t i = 0; i < n; i++) {
		int rc = 0;

		if (st[i].kind == ST_PREFETCH)
			rc = check_loc(r, st[i].line, st[i].u.prefetch.to, count,
				       "prefetch");
		else if (st[i].kind == ST_ADVISE)
			rc = check_loc(r, st[i].line, st[i].u.advise.loc, count,
				       "advise");
		else if (st[i].kind == ST_REPEAT)
			rc = check_steps(r, st[i].u.repeat.steps,
					 st[i].u.repeat.n, count);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* What only the machine can say: its devices are those named. */
static int check_machine(struct run *r, int count)
{
	struct workload *w = r->w;

	for (size_t i = 0; i < w->nallocs; i++)
		if (check_device(r, w->allocs[i].line, w->allocs[i].device,
				 count, "allocation") < 0 ||
		    (w->allocs[i].has_location &&
		     check_loc(r, w->allocs[i].line, w->allocs[i].location,
			       count, "location") < 0))
			return -1;
	for (size_t i = 0; i < w->nstreams; i++)
		if (check_device(r, w->streams[i].line, w->streams[i].device,
				 count, "stream") < 0 ||
		    check_steps(r, w->streams[i].steps, w->streams[i].n,
				count) < 0)
			return -1;
	return 0;
}

static int first_recorder(const struct workload *w, int ev)
{
	for (size_t i = 0; i < w->nstreams; i++)
		if (stream_records(w->streams[i].steps, w->streams[i].n, ev))
			return (int)i;
	return -1;
}

static int make_events(struct run *r)
{
	struct workload *w = r->w;

	if (w->nevents && !(r->evs = calloc(w->nevents, sizeof *r->evs)))
		return fail(r, 1, "out of memory");
	for (size_t e = 0; e < w->nevents; e++) {
		struct ev_state *es = &r->evs[e];
		int first = first_recorder(w, (int)e);

		/* An event belongs to a context: the first recorder's. */
		es->device = w->streams[first].device;
		for (size_t i = 0; i < w->nstreams; i++)
			es->recorders += stream_records(w->streams[i].steps,
				w->streams[i].n, (int)e);
		if (api(r, w->events[e].line, cuCtxSetCurrent(r->ctx[es->device]),
			"cuCtxSetCurrent") < 0 ||
		    api(r, w->events[e].line, cuEventCreate(&es->ev,
			CU_EVENT_DEFAULT), "cuEventCreate") < 0)
			return -1;
	}
	return 0;
}

static int allocate(struct run *r, struct w_alloc *a)
{
	CUresult res;
	void *host;

	if (api(r, a->line, cuCtxSetCurrent(r->ctx[a->device]),
		"cuCtxSetCurrent") < 0)
		return -1;
	switch (a->kind) {
	case AK_MANAGED:
		res = cuMemAllocManaged(&a->ptr, a->size, CU_MEM_ATTACH_GLOBAL);
		break;
	case AK_DEVICE:
		res = cuMemAlloc(&a->ptr, a->size);
		break;
	default:
		res = cuMemAllocHost(&host, a->size);
		a->ptr = res == CUDA_SUCCESS ? (CUdeviceptr)(uintptr_t)host : 0;
		break;
	}
	if (api(r, a->line, res, "allocation") < 0 ||
	    api(r, a->line, cuemuSetLabel(a->ptr, a->label), "cuemuSetLabel") < 0)
		return -1;
	if (!a->has_location)
		return 0;
	if (api(r, a->line, cuMemPrefetchAsync(a->ptr, a->size, a->location,
					       0, NULL), "cuMemPrefetchAsync") < 0)
		return -1;
	return api(r, a->line, cuCtxSynchronize(), "cuCtxSynchronize");
}

static void release(struct run *r)
{
	struct workload *w = r->w;

	for (size_t i = 0; i < w->nallocs; i++) {
		if (!w->allocs[i].ptr)
			continue;
		if (w->allocs[i].kind == AK_PINNED)
			cuMemFreeHost((void *)(uintptr_t)w->allocs[i].ptr);
		else
			cuMemFree(w->allocs[i].ptr);
		w->allocs[i].ptr = 0;
	}
	for (size_t i = 0; r->streams && i < w->nstreams; i++)
		if (r->streams[i])
			cuStreamDestroy(r->streams[i]);
	free(r->streams);
	for (size_t e = 0; r->evs && e < w->nevents; e++)
		if (r->evs[e].ev)
			cuEventDestroy(r->evs[e].ev);
	free(r->evs);
}

/* "pid PID" then "ID LABEL" a line, renamed into place when whole. */
static int write_ids(struct run *r)
{
	char tmp[4200];
	unsigned long long id;
	FILE *f;
	int ok;

	snprintf(tmp, sizeof tmp, "%s.tmp", r->o->ids);
	if (!(f = fopen(tmp, "w")))
		return fail(r, 1, "%s: %s", tmp, strerror(errno));
	fprintf(f, "pid %d\n", (int)getpid());
	for (size_t i = 0; i < r->w->nallocs; i++) {
		id = 0;
		cuPointerGetAttribute(&id, CU_POINTER_ATTRIBUTE_BUFFER_ID,
				      r->w->allocs[i].ptr);
		fprintf(f, "%llu %s\n", id, r->w->allocs[i].label);
	}
	ok = fclose(f) == 0 && rename(tmp, r->o->ids) == 0;
	if (!ok)
		return fail(r, 1, "%s: %s", r->o->ids, strerror(errno));
	return 0;
}

static int touch(struct run *r, const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f || fclose(f) != 0)
		return fail(r, 1, "%s: %s", path, strerror(errno));
	return 0;
}

static void wait_for_file(const char *path)
{
	struct timespec t = { 0, 5000000 };
	struct stat sb;

	while (stat(path, &sb) < 0)
		nanosleep(&t, NULL);
}

int workload_run(struct workload *w, const struct run_opts *o, char *err,
		 size_t errlen)
{
	struct run r = { .w = w, .o = o, .err = err, .errlen = errlen,
			 .lock = PTHREAD_MUTEX_INITIALIZER,
			 .cond = PTHREAD_COND_INITIALIZER,
			 .start_ns = ~0ULL };
	int count = 0, rc = -1;

	/* The machine the workload was written for, unless told otherwise;
	 * a machine that exists already keeps its own. */
	if (w->topology[0] && setenv("CUEMU_TOPOLOGY", w->topology, 0) < 0)
		return fail(&r, 1, "setenv: %s", strerror(errno));
	if (api(&r, 1, cuInit(0), "cuInit") < 0 ||
	    api(&r, 1, cuDeviceGetCount(&count), "cuDeviceGetCount") < 0 ||
	    check_machine(&r, count) < 0)
		return -1;
	for (int d = 0; d < count && d < 64; d++)
		if (api(&r, 1, cuDevicePrimaryCtxRetain(&r.ctx[d], d),
			"cuDevicePrimaryCtxRetain") < 0)
			goto out;
	for (size_t i = 0; i < w->nallocs; i++)
		if (allocate(&r, &w->allocs[i]) < 0)
			goto out;
	if (make_events(&r) < 0 || (o->ids && write_ids(&r) < 0))
		goto out;
	if (o->wait_for)
		wait_for_file(o->wait_for);
	if (run_streams(&r) < 0)
		goto out;
	if (o->done && touch(&r, o->done) < 0)
		goto out;
	if (o->exit_when)
		wait_for_file(o->exit_when);
	if (!o->quiet)
		printf("%s: model time %llu ns\n", w->name[0] ? w->name : o->file,
		       r.model_ns > r.start_ns ? r.model_ns - r.start_ns : 0);
	rc = 0;
out:
	release(&r);
	for (int d = 0; d < count && d < 64; d++)
		if (r.ctx[d])
			cuDevicePrimaryCtxRelease(d);
	return rc;
}
