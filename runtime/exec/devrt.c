/*
 * devrt.c - the device runtime as the engine serves it: the entry points
 * of libcudadevrt (CUDA 12's second dynamic parallelism, the
 * __cudaCDP2* functions a kernel built with -rdc calls for the CUDA
 * runtime's calls in device code), and the work a grid's threads queue
 * with them.
 *
 * A module may call the entries this file's table names, with the
 * parameters nvcc declares for them (parse.c checks each call at load);
 * warp.c runs a call lane by lane. What a thread launches (a kernel, an
 * asynchronous copy or memset) is queued on its grid, and the grid runs
 * it after its own blocks, in the order queued, a tail launch after
 * everything else (launch.c). That is one schedule the device may pick:
 * CUDA 12's dynamic parallelism has no wait in device code, so a parent
 * grid never sees its children's work, only the grid after it does, and
 * launches into one stream run in the order made. A child grid is part of
 * its parent's launch: its counts, its time, its errors are the launch's.
 *
 * Locking: a grid's queue is under its lock (struct grid). The table is
 * constant.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/run.h"

/* The parameters of each entry as nvcc declares them (bytes of each,
 * then of its result). */
static const struct devrt_entry {
	const char *name;
	int nparam;
	uint8_t param[6];
	uint8_t ret;
} fns[DEVRT_COUNT] = {
	[DEVRT_PARAM_BUFFER] = { "__cudaCDP2GetParameterBufferV2", 4,
				 { 8, 12, 12, 4 }, 8 },
	[DEVRT_LAUNCH] = { "__cudaCDP2LaunchDeviceV2", 2, { 8, 8 }, 4 },
	[DEVRT_PARAM_BUFFER_V1] = { "__cudaCDP2GetParameterBuffer", 2,
				    { 8, 8 }, 8 },
	[DEVRT_LAUNCH_V1] = { "__cudaCDP2LaunchDevice", 6,
			      { 8, 8, 12, 12, 4, 8 }, 4 },
	[DEVRT_STREAM_CREATE] = { "__cudaCDP2StreamCreateWithFlags", 2,
				  { 8, 4 }, 4 },
	[DEVRT_STREAM_DESTROY] = { "__cudaCDP2StreamDestroy", 1, { 8 }, 4 },
	[DEVRT_STREAM_WAIT_EVENT] = { "__cudaCDP2StreamWaitEvent", 3,
				      { 8, 8, 4 }, 4 },
	[DEVRT_EVENT_CREATE] = { "__cudaCDP2EventCreateWithFlags", 2,
				 { 8, 4 }, 4 },
	[DEVRT_EVENT_RECORD] = { "__cudaCDP2EventRecord", 2, { 8, 8 }, 4 },
	[DEVRT_EVENT_DESTROY] = { "__cudaCDP2EventDestroy", 1, { 8 }, 4 },
	[DEVRT_MALLOC] = { "__cudaCDP2Malloc", 2, { 8, 8 }, 4 },
	[DEVRT_FREE] = { "__cudaCDP2Free", 1, { 8 }, 4 },
	[DEVRT_MEMCPY] = { "__cudaCDP2MemcpyAsync", 5, { 8, 8, 8, 4, 8 }, 4 },
	[DEVRT_MEMSET] = { "__cudaCDP2MemsetAsync", 4, { 8, 4, 8, 8 }, 4 },
	[DEVRT_GET_LAST_ERROR] = { "__cudaCDP2GetLastError", 0, { 0 }, 4 },
	[DEVRT_PEEK_LAST_ERROR] = { "__cudaCDP2PeekAtLastError", 0, { 0 }, 4 },
	[DEVRT_ERROR_STRING] = { "__cudaCDP2GetErrorString", 1, { 4 }, 8 },
	[DEVRT_ERROR_NAME] = { "__cudaCDP2GetErrorName", 1, { 4 }, 8 },
	[DEVRT_GET_DEVICE] = { "__cudaCDP2GetDevice", 1, { 8 }, 4 },
	[DEVRT_DEVICE_ATTRIBUTE] = { "__cudaCDP2DeviceGetAttribute", 3,
				     { 8, 4, 4 }, 4 },
	[DEVRT_RUNTIME_VERSION] = { "__cudaCDP2RuntimeGetVersion", 1, { 8 },
				    4 },
};

int ex_devrt_find(const char *name)
{
	if (strncmp(name, "__cudaCDP2", 10))
		return -1;
	for (int i = 0; i < DEVRT_COUNT; i++)
		if (!strcmp(fns[i].name, name))
			return i;
	return -1;
}

bool ex_devrt_takes(int fn, const uint64_t *param, int nparam,
		    const uint64_t *ret, int nret)
{
	const struct devrt_entry *f = &fns[fn];

	if (nparam != f->nparam || nret != 1 || ret[0] != f->ret)
		return false;
	for (int i = 0; i < nparam; i++)
		if (param[i] != f->param[i])
			return false;
	return true;
}

/* The device runtime's errors by their numbers (cudaError_t), as
 * cudaGetErrorName and cudaGetErrorString answer them in device code:
 * each name, then its text, in one string of strings that kernels read
 * through the WIN_RTSTR window. */
#define ERRS(X) \
	X(DEVRT_SUCCESS, "cudaSuccess", "no error") \
	X(DEVRT_INVALID_VALUE, "cudaErrorInvalidValue", "invalid argument") \
	X(DEVRT_MEMORY_ALLOCATION, "cudaErrorMemoryAllocation", \
	  "out of memory") \
	X(DEVRT_INVALID_CONFIGURATION, "cudaErrorInvalidConfiguration", \
	  "invalid configuration argument") \
	X(DEVRT_MAX_DEPTH_EXCEEDED, "cudaErrorLaunchMaxDepthExceeded", \
	  "launch would exceed maximum depth of nested launches") \
	X(DEVRT_PENDING_COUNT_EXCEEDED, \
	  "cudaErrorLaunchPendingCountExceeded", \
	  "launch failed because launch would exceed " \
	  "cudaLimitDevRuntimePendingLaunchCount") \
	X(DEVRT_INVALID_DEVICE_FUNCTION, "cudaErrorInvalidDeviceFunction", \
	  "invalid device function") \
	X(DEVRT_NOT_SUPPORTED, "cudaErrorNotSupported", \
	  "operation not supported") \
	X(-1, "cudaErrorUnknown", "unknown error")
#define STRINGS(err, name, text) name "\0" text "\0"
static const char strings[] = ERRS(STRINGS);
#define NUMBERS(err, name, text) err,
static const int numbers[] = { ERRS(NUMBERS) };

const char *ex_devrt_strings(size_t *len)
{
	*len = sizeof strings;
	return strings;
}

uint64_t ex_devrt_error(int err, bool name)
{
	size_t at = 0, n = sizeof numbers / sizeof numbers[0], i;

	/* the last, cudaErrorUnknown, for a number none of the others is */
	for (i = 0; i + 1 < n && numbers[i] != err; i++) {
		at += strlen(strings + at) + 1;
		at += strlen(strings + at) + 1;
	}
	if (!name)
		at += strlen(strings + at) + 1;
	return WIN_RTSTR + at;
}

int ex_devq_push(struct grid *g, struct devop *op)
{
	int err = DEVRT_SUCCESS;

	pthread_mutex_lock(&g->lock);
	if (g->npending >= DEVRT_PENDING_MAX) {
		err = DEVRT_PENDING_COUNT_EXCEEDED;
	} else if (op->tail) {
		*g->tails_end = op;
		g->tails_end = &op->next;
		g->npending++;
	} else {
		*g->ops_end = op;
		g->ops_end = &op->next;
		g->npending++;
	}
	pthread_mutex_unlock(&g->lock);
	return err;
}

struct devop *ex_devq_take(struct grid *g)
{
	struct devop *all;

	pthread_mutex_lock(&g->lock);
	*g->ops_end = g->tails;
	all = g->ops;
	g->ops = g->tails = NULL;
	g->ops_end = &g->ops;
	g->tails_end = &g->tails;
	g->npending = 0;
	pthread_mutex_unlock(&g->lock);
	return all;
}

void ex_devq_free(struct devop *op)
{
	while (op) {
		struct devop *next = op->next;
		free(op);
		op = next;
	}
}

/* The pages of [addr, addr + n) granted access a through the launch's
 * memops, n bytes tallied at the last page's place (a copy's side lies
 * in one allocation). */
static enum ex_status span(const struct ex_launch *l, uint64_t addr,
			   uint64_t n, enum ex_access a, uint64_t *bytes)
{
	int place = 0;

	if (!n)
		return EX_OK;
	if (addr + n < addr)
		return EX_ILLEGAL_ADDRESS;
	for (uint64_t pg = addr >> EX_PAGE_SHIFT;
	     pg <= (addr + n - 1) >> EX_PAGE_SHIFT; pg++) {
		bool shared = false;
		enum ex_status st = l->mem.page(l->mem.ctx,
						pg << EX_PAGE_SHIFT, a,
						&place, &shared);
		if (st != EX_OK)
			return st;
	}
	if (place >= 0 && place < EX_MAX_PLACES)
		bytes[place] += n;
	return EX_OK;
}

enum ex_status ex_devop_memory(const struct ex_launch *l,
			       const struct devop *op, struct ex_result *r)
{
	enum ex_status st = EX_OK;
	uint64_t at = op->dst;

	if (op->kind == DEVOP_COPY)
		st = span(l, at = op->src, op->bytes, EX_READ, r->bytes_read);
	if (st == EX_OK)
		st = span(l, at = op->dst, op->bytes, EX_WRITE,
			  r->bytes_written);
	if (st != EX_OK) {
		r->status = st;
		r->fault_addr = at;
		snprintf(r->message, sizeof r->message, "an asynchronous %s "
			 "of %llu bytes a kernel queued touched 0x%llx, which "
			 "no allocation holds",
			 op->kind == DEVOP_COPY ? "copy" : "memset",
			 (unsigned long long)op->bytes,
			 (unsigned long long)at);
		return st;
	}
	if (op->kind == DEVOP_COPY)
		memmove((void *)(uintptr_t)op->dst,
			(const void *)(uintptr_t)op->src, op->bytes);
	else
		memset((void *)(uintptr_t)op->dst, op->value, op->bytes);
	return EX_OK;
}

/* Launches by (block, thread), for the cost's counts. */
struct who {
	uint64_t block;
	uint32_t thread;
};

static int who_cmp(const void *a, const void *b)
{
	const struct who *x = a, *y = b;

	if (x->block != y->block)
		return x->block < y->block ? -1 : 1;
	return x->thread < y->thread ? -1 : x->thread > y->thread;
}

/* The launches sorted by block and thread (O(n log n)), then counted: a
 * block's launches go into its stream one after another, a thread's
 * calls one after another; the longest of them, or the grid's. */
uint64_t ex_devq_cost(const struct devop *ops, const struct ex_devlaunch *c)
{
	uint64_t n = 0, worst = 0, i, j, k;
	struct who *w;

	for (const struct devop *op = ops; op; op = op->next)
		n += op->kind == DEVOP_LAUNCH;
	if (!n)
		return 0;
	if (!(w = malloc(n * sizeof *w)))
		return n * c->call_ns;   /* one thread's, at most */
	i = 0;
	for (const struct devop *op = ops; op; op = op->next)
		if (op->kind == DEVOP_LAUNCH)
			w[i++] = (struct who){ op->from_block, op->from_thread };
	qsort(w, n, sizeof *w, who_cmp);
	for (i = 0; i < n; i = j) {
		uint64_t most = 0;
		for (j = i; j < n && w[j].block == w[i].block; j = k) {
			for (k = j; k < n && w[k].block == w[j].block &&
			     w[k].thread == w[j].thread; k++)
				;
			most = k - j > most ? k - j : most;
		}
		most = (most - 1) * c->call_ns;
		if ((j - i - 1) * c->stream_ns > most)
			most = (j - i - 1) * c->stream_ns;
		worst = most > worst ? most : worst;
	}
	free(w);
	if (n * c->grid_ns > worst)
		worst = n * c->grid_ns;
	return worst;
}
