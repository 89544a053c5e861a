/*
 * ctl_vmm.c - /cu/reservations and /cu/handles: each reservation with its
 * mappings and their access per location, and each physical handle with
 * its references and where it is mapped, read from the model
 * (model/vmm.h). A write of access runs cuMemSetAccess over the mappings
 * it names, as a program would; nothing of a handle is writable.
 *
 * Locking: list and get run with cuemu_lock() held, as control.c calls
 * them; set runs without it and takes it only to read what it will write,
 * since cuMemSetAccess takes it again.
 */
#include "outward/outward.h"
#include "model/vmm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *hex(uintptr_t v)
{
	char b[32];

	snprintf(b, sizeof b, "0x%lx", (unsigned long)v);
	return json_string(b);
}

/* Follows rest ("mappings/0x200000/access") down the object's tree. */
json_t *cuemu_ctl_walk(json_t *o, const char *rest, CUresult *err)
{
	char part[64];
	json_t *cur = o;

	while (rest && *rest && cur) {
		size_t n = strcspn(rest, "/");

		if (n >= sizeof part) {
			cur = NULL;
			break;
		}
		memcpy(part, rest, n);
		part[n] = '\0';
		cur = json_is_object(cur) ? json_object_get(cur, part) : NULL;
		rest += n + (rest[n] == '/');
	}
	if (!cur) {
		*err = CUDA_ERROR_NOT_FOUND;
		json_decref(o);
		return NULL;
	}
	json_incref(cur);
	json_decref(o);
	return cur;
}

/* Processors /cu names: the machine's GPUs, then the host. */
static bool shown(int proc)
{
	return proc >= CUEMU_PROC_HOST || proc < cuemu_device_count();
}

/* ---------------------------------------------------------------- reservations */

/* Access of every processor that has some, by location word. */
static json_t *mapping_access_json(const struct cuemu_mapping_view *m)
{
	json_t *o = json_object();
	char w[16];

	for (int i = 0; i < CUEMU_NPROC; i = cuemu_proc_next(i))
		if (shown(i))
			json_object_set_new(o, cuemu_proc_str(i, w, sizeof w),
					    json_string(cuemu_access_str(
						    m->access[i])));
	return o;
}

/* Access over the whole reservation: one word when every mapping agrees,
 * "mixed" when they differ, "none" when nothing is mapped. */
static json_t *resv_access_json(const struct cuemu_resv *r, size_t n)
{
	struct cuemu_mapping_view first, m;
	json_t *o = json_object();
	char w[16];

	if (n)
		cuemu_vmm_mapping_view(r, 0, &first);
	for (int i = 0; i < CUEMU_NPROC; i = cuemu_proc_next(i)) {
		const char *word = n ? cuemu_access_str(first.access[i]) : "none";

		if (!shown(i))
			continue;
		for (size_t k = 1; k < n; k++) {
			cuemu_vmm_mapping_view(r, k, &m);
			if (m.access[i] != first.access[i])
				word = "mixed";
		}
		json_object_set_new(o, cuemu_proc_str(i, w, sizeof w),
				    json_string(word));
	}
	return o;
}

static json_t *mapping_json(const struct cuemu_resv_view *r,
			    const struct cuemu_mapping_view *m)
{
	return json_pack("{s:o,s:o,s:I,s:I,s:o,s:[s]}",
			 "offset", hex(m->base - r->base),
			 "address", hex(m->base),
			 "size", (json_int_t)m->size,
			 "handle", (json_int_t)m->handle,
			 "access", mapping_access_json(m),
			 "writable", "access");
}

static json_t *resv_json(const struct cuemu_resv *r)
{
	struct cuemu_resv_view v;
	struct cuemu_mapping_view m;
	json_t *maps = json_object();
	char key[32];

	cuemu_vmm_resv_view(r, &v);
	for (size_t i = 0; i < v.nmaps; i++) {
		cuemu_vmm_mapping_view(r, i, &m);
		snprintf(key, sizeof key, "0x%lx",
			 (unsigned long)(m.base - v.base));
		json_object_set_new(maps, key, mapping_json(&v, &m));
	}
	return json_pack("{s:I,s:o,s:I,s:I,s:o,s:o,s:[s]}",
			 "id", (json_int_t)v.id,
			 "base", hex(v.base),
			 "size", (json_int_t)v.size,
			 "alignment", (json_int_t)v.align,
			 "access", resv_access_json(r, v.nmaps),
			 "mappings", maps,
			 "writable", "access");
}

static json_t *resv_list(void)
{
	json_t *arr = json_array();

	for (struct cuemu_alloc *a = cuemu_va_first(); a; a = cuemu_va_next(a))
		if (cuemu_vmm_resv_of(a))
			json_array_append_new(arr, json_integer((json_int_t)a->id));
	return arr;
}

static json_t *resv_get(uint64_t id, const char *rest, CUresult *err)
{
	struct cuemu_resv *r = cuemu_vmm_resv_by_id(id);

	if (!r) {
		*err = CUDA_ERROR_NOT_FOUND;
		return NULL;
	}
	return cuemu_ctl_walk(resv_json(r), rest, err);
}

/* The maximal runs of back-to-back mappings of r (or the one mapping at
 * offset off when one is true), as [base, size) pairs. Lock held. */
static size_t resv_runs(const struct cuemu_resv *r, bool one, uintptr_t off,
			uintptr_t *base, size_t *size, size_t max)
{
	struct cuemu_resv_view v;
	struct cuemu_mapping_view m;
	size_t n = 0;

	cuemu_vmm_resv_view(r, &v);
	for (size_t i = 0; i < v.nmaps; i++) {
		cuemu_vmm_mapping_view(r, i, &m);
		if (one && m.base - v.base != off)
			continue;
		if (!one && n && base[n - 1] + size[n - 1] == m.base) {
			size[n - 1] += m.size;
			continue;
		}
		if (n == max)
			break;
		base[n] = m.base;
		size[n++] = m.size;
	}
	return n;
}

static CUresult resv_set(uint64_t id, const char *rest, const char *value)
{
	enum { MAXRUNS = 64 };
	uintptr_t base[MAXRUNS], off = 0;
	size_t size[MAXRUNS], n = 0;
	CUmemAccessDesc d;
	struct cuemu_resv *r;
	bool one = false;
	char *end;
	CUresult res;

	if (strncmp(rest, "mappings/", 9) == 0) {
		off = strtoull(rest + 9, &end, 0);
		if (strcmp(end, "/access"))
			return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED,
					  "%s cannot be written", rest);
		one = true;
	} else if (strcmp(rest, "access")) {
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED,
				  "%s cannot be written", rest);
	}
	if ((res = cuemu_access_parse(value, &d)) != CUDA_SUCCESS)
		return res;
	cuemu_lock();
	r = cuemu_vmm_resv_by_id(id);
	if (r)
		n = resv_runs(r, one, off, base, size, MAXRUNS);
	cuemu_unlock();
	if (!r)
		return cuemu_fail(CUDA_ERROR_NOT_FOUND, "no reservation %llu",
				  (unsigned long long)id);
	if (!n)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  one ? "no mapping at that offset" :
				  "nothing is mapped in the reservation");
	for (size_t i = 0; i < n; i++)
		if ((res = cuMemSetAccess(base[i], size[i], &d, 1)) != CUDA_SUCCESS)
			return res;
	return CUDA_SUCCESS;
}

const struct cuemu_ctl_class cuemu_ctl_reservations = {
	.name = "reservations",
	.list = resv_list,
	.get = resv_get,
	.set = resv_set,
};

/* ---------------------------------------------------------------- handles */

static json_t *handle_list(void)
{
	json_t *arr = json_array();

	for (uint64_t id = cuemu_vmm_handle_next(0); id;
	     id = cuemu_vmm_handle_next(id))
		json_array_append_new(arr, json_integer((json_int_t)id));
	return arr;
}

/* Addresses where handle id is mapped: a walk of the reservations. Lock
 * held. */
static json_t *handle_mappings(uint64_t id)
{
	struct cuemu_resv_view v;
	struct cuemu_mapping_view m;
	json_t *arr = json_array();

	for (struct cuemu_alloc *a = cuemu_va_first(); a; a = cuemu_va_next(a)) {
		struct cuemu_resv *r = cuemu_vmm_resv_of(a);

		if (!r)
			continue;
		cuemu_vmm_resv_view(r, &v);
		for (size_t i = 0; i < v.nmaps; i++) {
			cuemu_vmm_mapping_view(r, i, &m);
			if (m.handle == id)
				json_array_append_new(arr, hex(m.base));
		}
	}
	return arr;
}

static json_t *handle_get_json(uint64_t id, const char *rest, CUresult *err)
{
	struct cuemu_handle_view h;
	char loc[32];

	if (!cuemu_vmm_handle_view(id, &h)) {
		*err = CUDA_ERROR_NOT_FOUND;
		return NULL;
	}
	return cuemu_ctl_walk(json_pack("{s:I,s:I,s:s,s:s,s:i,s:i,s:o,s:i,s:i}",
			      "id", (json_int_t)h.id,
			      "size", (json_int_t)h.size,
			      "location", cuemu_loc_str(h.loc, loc, sizeof loc),
			      "handle_types", h.handle_types ? "posix_fd" : "none",
			      "refs", (int)h.refs,
			      "mapping_count", (int)h.maps,
			      "mappings", h.maps ? handle_mappings(h.id) :
					  json_array(),
			      "exported", h.exported,
			      "imported", h.imported),
		    rest, err);
}

static CUresult handle_set(uint64_t id, const char *rest, const char *value)
{
	(void)id;
	(void)value;
	return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED, "%s cannot be written",
			  rest);
}

const struct cuemu_ctl_class cuemu_ctl_handles = {
	.name = "handles",
	.list = handle_list,
	.get = handle_get_json,
	.set = handle_set,
};
