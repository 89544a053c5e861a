/*
 * ctl_alloc.c - the /cu "allocations" class: one directory per allocation,
 * registration, pool block and CUDA array of the process (reservations
 * are the VMM family's class), with its kind, base, size, device, flags
 * and label (an array: its format, channels and extent instead of a base
 * and a label, none of them writable); for device memory whether a legacy
 * IPC handle to it went out, for memory opened from another process's
 * handle (kind "ipc") the exporter's pid and allocation id and the opens
 * that hold it; and
 * for managed memory the files and ranges the managed family renders
 * (cuemu_managed_json, cuemu_managed_ranges, cuemu_managed_range_get). A
 * range is named "ranges/<start>-<end>", each bound 0x-prefixed or bare
 * hex, or decimal.
 *
 * Locking: list and get run with cuemu_lock() held (control.c), so that an
 * answer is one moment of the process. set runs without it and takes it
 * only to copy what it needs of the allocation; the write itself goes
 * through the API's entry points (cuemuSetLabel, the managed setter), so
 * it is checked as a caller's would be.
 */
#include "outward/outward.h"
#include "model/internal.h"
#include "model/pool.h"
#include "model/array.h"
#include "model/ipc.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static json_t *ctl_list(void)
{
	json_t *ids = json_array();
	struct cuemu_alloc *a;

	for (a = cuemu_va_first(); ids && a; a = cuemu_va_next(a))
		if (a->kind != CUEMU_KIND_RESERVATION)
			json_array_append_new(ids, json_integer((json_int_t)a->id));
	for (a = cuemu_sys_first(); ids && a; a = cuemu_sys_next(a))
		json_array_append_new(ids, json_integer((json_int_t)a->id));
	for (struct cuemu_array *r = cuemu_array_first(); ids && r;
	     r = cuemu_array_next(r))
		json_array_append_new(ids, json_integer((json_int_t)r->id));
	return ids;
}

/* A CUDA array: its memory is its bytes on its device; it has no address
 * and no label. */
static json_t *array_json(const struct cuemu_array *r)
{
	char flags[16], dev[16];

	snprintf(flags, sizeof flags, "0x%x", r->desc.Flags);
	return json_pack("{s:I,s:s,s:i,s:I,s:s,s:s,s:s,s:I,s:[I,I,I],s:[]}",
			 "id", (json_int_t)r->id,
			 "kind", "array",
			 "pid", (int)getpid(),
			 "size", (json_int_t)r->bytes,
			 "device", cuemu_proc_str(r->device, dev, sizeof dev),
			 "flags", flags,
			 "format", cuemu_array_format_name(r->desc.Format),
			 "channels", (json_int_t)r->desc.NumChannels,
			 "extent", (json_int_t)r->desc.Width,
			 (json_int_t)r->desc.Height, (json_int_t)r->desc.Depth,
			 "writable");
}

static struct cuemu_alloc *ctl_find(uint64_t id)
{
	struct cuemu_alloc *a = cuemu_va_by_id(id);

	return a && a->kind != CUEMU_KIND_RESERVATION ? a : NULL;
}

/* An opened IPC mapping: whose memory it is, and how many opens hold it. */
static void ipc_json(struct cuemu_alloc *a, json_t *obj)
{
	struct cuemu_ipc_view v;

	if (!cuemu_ipc_view(a, &v))
		return;
	json_object_set_new(obj, "exporter", json_integer(v.exporter));
	json_object_set_new(obj, "exporter_id",
			    cuemu_json_u64(v.exporter_id));
	json_object_set_new(obj, "opens", json_integer(v.refs));
}

static json_t *alloc_json(struct cuemu_alloc *a)
{
	char base[32], flags[16], dev[16];
	json_t *obj;

	snprintf(base, sizeof base, "0x%lx", (unsigned long)a->base);
	snprintf(flags, sizeof flags, "0x%x", a->flags);
	obj = json_pack("{s:I,s:s,s:i,s:s,s:I,s:s,s:s,s:s,s:[s]}",
			"id", (json_int_t)a->id,
			"kind", cuemu_kind_names[a->kind],
			"pid", (int)getpid(),
			"base", base,
			"size", (json_int_t)a->size,
			"device", cuemu_alloc_device_str(a, dev, sizeof dev),
			"flags", flags,
			"label", a->label,
			"writable", "label");
	if (obj && cuemu_kind_ranged(a->kind))
		cuemu_managed_json(a, obj);
	if (obj && a->kind == CUEMU_KIND_DEVICE)
		json_object_set_new(obj, "ipc_exported",
				    json_integer(a->ipc_exported));
	if (obj && a->kind == CUEMU_KIND_IPC)
		ipc_json(a, obj);
	if (obj)
		cuemu_kernels_of_alloc(a->id, obj);
	if (obj && cuemu_pool_of(a)) /* a managed pool's blocks too */
		json_object_set_new(obj, "pool",
				    json_integer((json_int_t)cuemu_pool_id(cuemu_pool_of(a))));
	return obj;
}

/* One bound of "<start>-<end>": 0x-prefixed or bare hex, or decimal. */
static int parse_bound(const char *s, const char **end, uintptr_t *out)
{
	size_t n = strcspn(s, "-/"), i;
	int base = 10;
	char *e;

	for (i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			base = 16;
	errno = 0;
	*out = (uintptr_t)strtoull(s, &e, base);
	if (errno || n == 0 || e != s + n)
		return -1;
	*end = e;
	return 0;
}

/* Parses "ranges/<s>-<e>[/<attr>]"; 0 or -1. */
static int parse_range(const char *rest, uintptr_t *s, uintptr_t *e,
		       const char **attr)
{
	const char *p;

	if (strncmp(rest, "ranges/", 7))
		return -1;
	if (parse_bound(rest + 7, &p, s) || *p != '-' ||
	    parse_bound(p + 1, &p, e) || *e <= *s)
		return -1;
	if (*p == '/')
		*attr = p + 1;
	else if (*p == '\0')
		*attr = NULL;
	else
		return -1;
	return 0;
}

static json_t *ctl_get(uint64_t id, const char *rest, CUresult *err)
{
	struct cuemu_alloc *a = ctl_find(id);
	const char *attr;
	struct cuemu_array *arr;
	uintptr_t s, e;

	*err = CUDA_SUCCESS;
	if (a && rest[0] == '\0')
		return alloc_json(a);
	if (!a && rest[0] == '\0' &&
	    (arr = cuemu_array_find(cuemu_array_handle(id))))
		return array_json(arr);
	if (a && cuemu_kind_ranged(a->kind)) {
		if (strcmp(rest, "ranges") == 0)
			return cuemu_managed_ranges(a);
		if (parse_range(rest, &s, &e, &attr) == 0 && !attr)
			return cuemu_managed_range_get(a, s, e, err);
	}
	*err = CUDA_ERROR_NOT_FOUND;
	return NULL;
}

/* r, the answer of a write to allocation id at base; or, when it failed
 * because the allocation was freed while the write ran (its range then
 * is no managed memory, or another allocation's), CUDA_ERROR_NOT_FOUND
 * as for one freed before: the write found no allocation id. */
static CUresult freed_meanwhile(uint64_t id, uintptr_t base, CUresult r)
{
	struct cuemu_alloc *a;
	bool same;

	if (r == CUDA_SUCCESS)
		return r;
	cuemu_lock();
	a = ctl_find(id);
	same = a && a->base == base;
	cuemu_unlock();
	return same ? r : cuemu_fail(CUDA_ERROR_NOT_FOUND, "allocation %llu "
				     "was freed while the write ran",
				     (unsigned long long)id);
}

/* A write runs through the API, as any caller's would: the label through
 * cuemuSetLabel, a managed attribute through managed's setter. */
static CUresult set_on(uint64_t id, const char *rest, const char *value)
{
	struct cuemu_alloc *a;
	uintptr_t s = 0, e = 0;
	const char *attr;
	CUcontext ctx = NULL;
	uintptr_t a_base;
	bool managed;

	cuemu_lock();
	a = ctl_find(id);
	managed = a && cuemu_kind_ranged(a->kind);
	if (a)
		s = a->base, e = a->base + a->size, ctx = a->ctx;
	a_base = s;
	/* A managed pool's block belongs to no context: its writes run in
	 * its device's primary context. */
	if (a && managed && !ctx)
		ctx = cuemu_primary_ctx(a->device >= 0 ? a->device : 0);
	cuemu_unlock();
	/* a may be freed from here on: only the copies above are used. */
	if (!a)
		return cuemu_fail(CUDA_ERROR_NOT_FOUND, "no allocation %llu",
				  (unsigned long long)id);
	if (strcmp(rest, "label") == 0)
		return freed_meanwhile(id, s, cuemuSetLabel((CUdeviceptr)s,
							     value));
	if (!managed)
		return cuemu_fail(CUDA_ERROR_NOT_FOUND,
				  "allocation %llu has no file %s",
				  (unsigned long long)id, rest);
	/* The managed family checks the attribute names and the range. */
	if (strncmp(rest, "ranges/", 7) != 0)
		return freed_meanwhile(id, s, cuemu_managed_set(ctx, s, e, rest,
								 value));
	if (parse_range(rest, &s, &e, &attr) || !attr)
		return cuemu_fail(CUDA_ERROR_NOT_FOUND, "no file %s", rest);
	return freed_meanwhile(id, a_base, cuemu_managed_set(ctx, s, e, attr,
							      value));
}

/* The calls a write runs act on allocation id or on none: an allocation
 * made at its address after it was freed is not it. */
static CUresult ctl_set(uint64_t id, const char *rest, const char *value)
{
	CUresult r;

	cuemu_va_expect(id);
	r = set_on(id, rest, value);
	cuemu_va_expect(0);
	return r;
}

const struct cuemu_ctl_class cuemu_ctl_allocations = {
	.name = "allocations",
	.list = ctl_list,
	.get = ctl_get,
	.set = ctl_set,
};
