/*
 * ctl_managed.c - managed memory's part of an allocation's /cu directory:
 * the policy and residency files (preferred_location, accessed_by,
 * read_mostly, last_prefetch_location, holders, residency), the counters,
 * the ranges/ entries, and the writes (preferred_location, accessed_by,
 * read_mostly, prefetch, advise). The allocations ctl class calls these.
 *
 * Reads look at the range model (model/managed.h) and aggregate a span of
 * it the way the range attributes do. Writes run the public entry points
 * (cuMemAdvise_v2, cuMemPrefetchAsync_v2) in the allocation's context, so
 * that a write to /cu takes the same code path, checks and answers as the
 * program's own call.
 *
 * Locking: reads run with the process lock held (control.c takes it for a
 * whole answer, so a file's text is one moment of the process); writes run
 * without it, and the entry points they call take it.
 */
#include "outward/outward.h"
#include "model/managed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline cuemu_procmask bit(int proc)
{
	return (cuemu_procmask)1 << proc;
}

/* ------------------------------------------------------------------ */
/* Reading: the managed keys of an allocation and its ranges/          */

static json_t *loc_json(CUmemLocation l, bool mixed)
{
	char w[24];

	return json_string(mixed ? "mixed" : cuemu_loc_str(l, w, sizeof w));
}

static json_t *procs_json(cuemu_procmask m)
{
	json_t *arr = json_array();
	char w[16];
	int p;

	for (p = cuemu_mask_next(m, 0); p >= 0; p = cuemu_mask_next(m, p + 1))
		if (m & bit(p))
			json_array_append_new(arr, json_string(
				cuemu_proc_str(p, w, sizeof w)));
	return arr;
}

static json_t *residency_json(struct mstate *st, uintptr_t s, uintptr_t e,
			      const struct mg_agg *g)
{
	uint64_t *node = calloc((size_t)cuemu_numa_count() + 1, sizeof *node);
	json_t *o = json_object();
	char w[16];
	int p;

	if (!node) {
		json_decref(o);
		return NULL;
	}
	for (p = 0; p < cuemu_device_count(); p++)
		json_object_set_new(o, cuemu_proc_str(p, w, sizeof w),
				    cuemu_json_u64(g->bytes[p]));
	json_object_set_new(o, "cpu",
			    cuemu_json_u64(g->bytes[CUEMU_PROC_HOST]));
	mg_numa_bytes(st, s, e, node);
	for (p = 0; p < cuemu_numa_count(); p++) {
		snprintf(w, sizeof w, "numa%d", p);
		json_object_set_new(o, w, cuemu_json_u64(node[p]));
	}
	free(node);
	return o;
}

static void add_writable(json_t *obj)
{
	static const char *const w[] = { "preferred_location", "accessed_by",
		"read_mostly", "prefetch", "advise" };
	json_t *arr = json_object_get(obj, "writable");
	size_t i;

	if (!json_is_array(arr)) {
		arr = json_array();
		json_object_set_new(obj, "writable", arr);
	}
	for (i = 0; i < sizeof w / sizeof *w; i++)
		json_array_append_new(arr, json_string(w[i]));
}

/* The policy and residency keys of a span: shared by the allocation and
 * its ranges/ entries. */
static void span_json(struct mstate *st, uintptr_t s, uintptr_t e, json_t *o)
{
	struct mg_agg g;

	mg_aggregate(st, s, e, &g, false);
	json_object_set_new(o, "preferred_location", loc_json(g.pref, g.pref_mixed));
	json_object_set_new(o, "accessed_by", procs_json(g.accessed_by));
	json_object_set_new(o, "read_mostly", json_integer(g.read_mostly));
	json_object_set_new(o, "last_prefetch_location",
			    loc_json(g.lp, g.lp_mixed));
	json_object_set_new(o, "holders", procs_json(g.holders_all));
	json_object_set_new(o, "residency", residency_json(st, s, e, &g));
}

void cuemu_managed_json(struct cuemu_alloc *a, json_t *obj)
{
	struct mstate *st = a->priv;
	json_t *ctr = json_object();
	int c;

	if (!st)
		return;
	span_json(st, a->base, a->base + a->span, obj);
	for (c = 0; c < CUEMU_CTR__COUNT; c++)
		json_object_set_new(ctr, cuemu_counter_names[c],
				    cuemu_json_u64(st->ctr[c]));
	json_object_set_new(ctr, "fault_ns", cuemu_json_u64(st->fault_ns));
	json_object_set_new(ctr, "migration_ns",
			    cuemu_json_u64(st->migration_ns));
	json_object_set_new(obj, "counters", ctr);
	json_object_set_new(obj, "range_count",
			    json_integer((json_int_t)st->ranges.n));
	/* cuStreamAttachMemAsync: the attachment and, for single, the
	 * stream's id (as cuStreamGetId would give it), else "none" */
	json_object_set_new(obj, "attach",
			    json_string(mg_attach_name(st->attach)));
	json_object_set_new(obj, "attach_stream", st->attach_stream ?
			    cuemu_json_u64(st->attach_stream) :
			    json_string("none"));
	add_writable(obj);
}

static json_t *range_json(struct mstate *st, uintptr_t s, uintptr_t e)
{
	json_t *o = json_object();
	char b[32];

	snprintf(b, sizeof b, "0x%lx", (unsigned long)s);
	json_object_set_new(o, "start", json_string(b));
	snprintf(b, sizeof b, "0x%lx", (unsigned long)e);
	json_object_set_new(o, "end", json_string(b));
	span_json(st, s, e, o);
	return o;
}

json_t *cuemu_managed_ranges(struct cuemu_alloc *a)
{
	struct mstate *st = a->priv;
	json_t *arr = json_array();
	struct mrange *r;

	if (!st)
		return arr;
	for (r = mr_first(&st->ranges); r; r = mr_next(&st->ranges, r))
		json_array_append_new(arr, range_json(st, r->start, r->end));
	return arr;
}

json_t *cuemu_managed_range_get(struct cuemu_alloc *a, uintptr_t start,
				uintptr_t end, CUresult *err)
{
	struct mstate *st = a->priv;
	json_t *o;

	if (!st || start >= end || start % CUEMU_PAGE || end % CUEMU_PAGE ||
	    start < a->base || end > a->base + a->span) {
		*err = cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "not a page-aligned range of the allocation");
		return NULL;
	}
	o = range_json(st, start, end);
	add_writable(o);
	*err = CUDA_SUCCESS;
	return o;
}

/* ------------------------------------------------------------------ */
/* Writing: through the API, as a program would                        */

/* Runs a prefetch through the API on a stream of our own, and waits. */
static CUresult ctl_prefetch(uintptr_t s, uintptr_t e, CUmemLocation loc)
{
	CUstream st = NULL;
	CUresult r;

	if ((r = cuStreamCreate(&st, CU_STREAM_NON_BLOCKING)) != CUDA_SUCCESS)
		return r;
	r = cuMemPrefetchAsync_v2((CUdeviceptr)s, e - s, loc, 0, st);
	if (r == CUDA_SUCCESS)
		r = cuStreamSynchronize(st);
	cuStreamDestroy(st);
	return r;
}

/* The processor a word of an accessed_by list names: gpuN or cpu. */
static CUresult accessor(const char *w, CUmemLocation *l, int *proc)
{
	if (cuemu_loc_parse(w, l) < 0)
		return CUDA_ERROR_INVALID_VALUE;
	if ((*proc = cuemu_loc_proc(*l)) < 0 ||
	    (l->type != CU_MEM_LOCATION_TYPE_DEVICE &&
	     l->type != CU_MEM_LOCATION_TYPE_HOST))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "accessed_by takes gpuN or cpu, not '%s'", w);
	if (l->type == CU_MEM_LOCATION_TYPE_DEVICE && !mg_dev_ok(l->id))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "no device %d",
				  l->id);
	return CUDA_SUCCESS;
}

/* "+gpu1", "-gpu1", "none", or a list of locations that becomes the exact
 * set. */
static CUresult ctl_accessed_by(uintptr_t s, uintptr_t e, const char *value)
{
	char w[CUEMU_NPROC][CUEMU_WORD];
	cuemu_procmask want = 0;
	CUmemLocation l;
	CUresult r;
	int n, p;

	if ((n = cuemu_words(value, w, CUEMU_NPROC)) < 0)
		return CUDA_ERROR_INVALID_VALUE;
	if (n == 0)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "accessed_by takes "
				  "+LOCATION, -LOCATION, a list of locations, "
				  "or none");
	if (w[0][0] == '+' || w[0][0] == '-') {
		if (n != 1)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "+ and - "
					  "take one location");
		if ((r = accessor(w[0] + 1, &l, &p)) != CUDA_SUCCESS)
			return r;
		return cuMemAdvise_v2(s, e - s, w[0][0] == '+' ?
			      CU_MEM_ADVISE_SET_ACCESSED_BY :
			      CU_MEM_ADVISE_UNSET_ACCESSED_BY, l);
	}
	if (n == 1 && !strcmp(w[0], "none"))
		n = 0;
	for (int i = 0; i < n; i++) {
		if ((r = accessor(w[i], &l, &p)) != CUDA_SUCCESS)
			return r;
		want |= bit(p);
	}
	/* Unset what is not wanted and set the rest: the exact set. */
	for (p = 0; p < CUEMU_NPROC; p = cuemu_proc_next(p)) {
		CUmemLocation pl = p == CUEMU_PROC_HOST ?
			(CUmemLocation){ CU_MEM_LOCATION_TYPE_HOST, 0 } :
			(CUmemLocation){ CU_MEM_LOCATION_TYPE_DEVICE, p };
		if (p < CUEMU_PROC_HOST && !mg_dev_ok(p))
			continue;
		r = cuMemAdvise_v2(s, e - s, (want & bit(p)) ?
			   CU_MEM_ADVISE_SET_ACCESSED_BY :
			   CU_MEM_ADVISE_UNSET_ACCESSED_BY, pl);
		if (r != CUDA_SUCCESS)
			return r;
	}
	return CUDA_SUCCESS;
}

/* "set_preferred_location gpu1", "unset_accessed_by cpu", ... */
static CUresult ctl_advise(uintptr_t s, uintptr_t e, const char *value)
{
	CUmemLocation l = { CU_MEM_LOCATION_TYPE_INVALID, 0 };
	char w[2][CUEMU_WORD];
	int i, n = cuemu_words(value, w, 2);

	if (n < 0)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "advise takes "
				  "'<advice> [location]': %s", cuemu_errmsg());
	if (n == 0)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "no advice given");
	for (i = 1; i <= 6; i++)
		if (!strcmp(w[0], mg_advice_name((CUmem_advise)i)))
			break;
	if (i > 6)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "'%s' is not an advice", w[0]);
	if (n == 2 && cuemu_loc_parse(w[1], &l) < 0)
		return CUDA_ERROR_INVALID_VALUE;
	return cuMemAdvise_v2(s, e - s, (CUmem_advise)i, l);
}

/* The one location a value names. */
static CUresult one_location(const char *attr, const char *value,
			     CUmemLocation *l)
{
	char w[1][CUEMU_WORD];
	int n = cuemu_words(value, w, 1);

	if (n != 1)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s takes one "
				  "location (gpuN, cpu, numaN, numa_current "
				  "or none)", attr);
	return cuemu_loc_parse(w[0], l) < 0 ? CUDA_ERROR_INVALID_VALUE :
					      CUDA_SUCCESS;
}

/* 0 or 1, and nothing else. */
static CUresult flag(const char *attr, const char *value, bool *on)
{
	char w[1][CUEMU_WORD];

	if (cuemu_words(value, w, 1) != 1 ||
	    (strcmp(w[0], "0") && strcmp(w[0], "1")))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s takes 0 or 1",
				  attr);
	*on = w[0][0] == '1';
	return CUDA_SUCCESS;
}

CUresult cuemu_managed_set(CUcontext ctx, uintptr_t start, uintptr_t end,
			   const char *attr, const char *value)
{
	CUmemLocation l;
	CUresult r;
	bool on = false;

	/* The API calls below need a current context, as a program's would:
	 * the one the allocation was made in. They look the range up again,
	 * so an allocation freed meanwhile is refused, not touched. */
	if ((r = cuCtxSetCurrent(ctx)) != CUDA_SUCCESS)
		return r;
	if (start >= end)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "empty range");
	if (!strcmp(attr, "preferred_location")) {
		if ((r = one_location(attr, value, &l)) != CUDA_SUCCESS)
			return r;
		return cuMemAdvise_v2(start, end - start,
			      l.type == CU_MEM_LOCATION_TYPE_INVALID ?
			      CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION :
			      CU_MEM_ADVISE_SET_PREFERRED_LOCATION, l);
	}
	if (!strcmp(attr, "accessed_by"))
		return ctl_accessed_by(start, end, value);
	if (!strcmp(attr, "read_mostly")) {
		if ((r = flag(attr, value, &on)) != CUDA_SUCCESS)
			return r;
		l = (CUmemLocation){ CU_MEM_LOCATION_TYPE_INVALID, 0 };
		return cuMemAdvise_v2(start, end - start, on ?
			      CU_MEM_ADVISE_SET_READ_MOSTLY :
			      CU_MEM_ADVISE_UNSET_READ_MOSTLY, l);
	}
	if (!strcmp(attr, "prefetch")) {
		if ((r = one_location(attr, value, &l)) != CUDA_SUCCESS)
			return r;
		return ctl_prefetch(start, end, l);
	}
	if (!strcmp(attr, "advise"))
		return ctl_advise(start, end, value);
	return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED, "%s is not writable", attr);
}
