/*
 * ctl_pool.c - /cu/pools: each pool of the process as a directory (its
 * location, limits, attributes, memory counts, access per device, live
 * allocations), read from the model (model/pool.h); a write of an
 * attribute, of access or of trim runs the public entry point that does
 * the same (cuMemPoolSetAttribute, cuMemPoolSetAccess, cuMemPoolTrimTo).
 *
 * Locking: list and get run with cuemu_lock() held, as control.c calls
 * them; set runs without it and takes it only to find the pool by its id,
 * since the entry point it calls takes it again.
 */
#include "outward/outward.h"
#include "model/pool.h"

#include <stdio.h>
#include <string.h>

static json_t *ctl_list(void)
{
	json_t *arr = json_array();

	for (CUmemoryPool p = cuemu_pool_next(NULL); p; p = cuemu_pool_next(p))
		json_array_append_new(arr, json_integer((json_int_t)cuemu_pool_id(p)));
	return arr;
}

static const char *handle_words(const struct cuemu_pool_view *v)
{
	switch ((unsigned)v->handle_types) {
	case CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR:
		return "posix_fd";
	case CU_MEM_HANDLE_TYPE_FABRIC:
		return "fabric";
	case CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR | CU_MEM_HANDLE_TYPE_FABRIC:
		return "posix_fd fabric";
	default:
		return "none";
	}
}

static json_t *access_json(const struct cuemu_pool_view *v)
{
	json_t *o = json_object();
	char w[16];

	if (v->dev < 0)
		json_object_set_new(o, cuemu_loc_str(v->location, w, sizeof w),
				    json_string("rw"));
	for (int d = 0; d < cuemu_device_count(); d++) {
		snprintf(w, sizeof w, "gpu%d", d);
		json_object_set_new(o, w, json_string(
			cuemu_access_str(v->access[d])));
	}
	return o;
}

static json_t *allocs_json(CUmemoryPool p)
{
	json_t *arr = json_array();

	for (struct cuemu_alloc *a = cuemu_pool_block_next(p, NULL); a;
	     a = cuemu_pool_block_next(p, a))
		json_array_append_new(arr, json_integer((json_int_t)a->id));
	return arr;
}

static json_t *ctl_get(uint64_t id, const char *rest, CUresult *err)
{
	CUmemoryPool p = cuemu_pool_by_id(id);
	struct cuemu_pool_view v;
	json_t *o;
	char loc[32];

	if (!p || (rest && *rest)) {
		*err = CUDA_ERROR_NOT_FOUND;
		return NULL;
	}
	cuemu_pool_view(p, &v);
	o = json_pack("{s:I,s:s,s:o,s:s,s:o,s:i,s:i,s:i,s:o,s:o,s:o,s:o,"
		      "s:o,s:o,s:i,s:i,s:s,s:s}",
		"id", (json_int_t)v.id,
		"location", cuemu_loc_str(v.location, loc, sizeof loc),
		"max_size", cuemu_json_u64(v.max_size),
		"handle_types", handle_words(&v),
		"release_threshold", cuemu_json_u64(v.threshold),
		"reuse_follow_event_dependencies", v.reuse_follow,
		"reuse_allow_opportunistic", v.reuse_opportunistic,
		"reuse_allow_internal_dependencies", v.reuse_internal,
		"reserved_mem_current", cuemu_json_u64(v.reserved),
		"reserved_mem_high", cuemu_json_u64(v.reserved_high),
		"used_mem_current", cuemu_json_u64(v.used),
		"used_mem_high", cuemu_json_u64(v.used_high),
		"access", access_json(&v),
		"allocations", allocs_json(p),
		"default", v.is_default,
		"imported", v.imported,
		"trim", "",
		"alloc_type", v.managed ? "managed" : "pinned");
	if (o)
		json_object_set_new(o, "writable", json_pack("[s,s,s,s,s,s,s,s]",
			"release_threshold", "reuse_follow_event_dependencies",
			"reuse_allow_opportunistic",
			"reuse_allow_internal_dependencies", "reserved_mem_high",
			"used_mem_high", "access", "trim"));
	return o;
}

static const struct {
	const char *name;
	CUmemPool_attribute attr;
	bool is_int; /* an int attribute, else cuuint64_t */
} ctl_attrs[] = {
	{ "release_threshold", CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, false },
	{ "reuse_follow_event_dependencies",
	  CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES, true },
	{ "reuse_allow_opportunistic", CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, true },
	{ "reuse_allow_internal_dependencies",
	  CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES, true },
	{ "reserved_mem_high", CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, false },
	{ "used_mem_high", CU_MEMPOOL_ATTR_USED_MEM_HIGH, false },
	{ "reserved_mem_current", CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, false },
	{ "used_mem_current", CU_MEMPOOL_ATTR_USED_MEM_CURRENT, false },
};

static CUresult ctl_set_attr(CUmemoryPool p, const char *name, const char *value)
{
	uint64_t v;
	int iv;

	for (size_t i = 0; i < sizeof ctl_attrs / sizeof ctl_attrs[0]; i++) {
		if (strcmp(ctl_attrs[i].name, name))
			continue;
		if (cuemu_size_parse(value, &v) < 0)
			return CUDA_ERROR_INVALID_VALUE;
		if (!ctl_attrs[i].is_int)
			return cuMemPoolSetAttribute(p, ctl_attrs[i].attr, &v);
		if (v > 1)
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "%s is 0 or 1", name);
		iv = (int)v;
		return cuMemPoolSetAttribute(p, ctl_attrs[i].attr, &iv);
	}
	return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED, "%s cannot be written", name);
}

static CUresult ctl_set(uint64_t id, const char *rest, const char *value)
{
	CUmemAccessDesc d;
	CUmemoryPool p;
	uint64_t keep;
	CUresult r;

	cuemu_lock();
	p = cuemu_pool_by_id(id);
	cuemu_unlock();
	if (!p)
		return cuemu_fail(CUDA_ERROR_NOT_FOUND, "no pool %llu",
				  (unsigned long long)id);
	if (!strcmp(rest, "trim")) {
		if (cuemu_size_parse(value, &keep) < 0)
			return CUDA_ERROR_INVALID_VALUE;
		return cuMemPoolTrimTo(p, keep);
	}
	if (!strcmp(rest, "access")) {
		if ((r = cuemu_access_parse(value, &d)) != CUDA_SUCCESS)
			return r;
		return cuMemPoolSetAccess(p, &d, 1);
	}
	return ctl_set_attr(p, rest, value);
}

const struct cuemu_ctl_class cuemu_ctl_pools = {
	.name = "pools",
	.list = ctl_list,
	.get = ctl_get,
	.set = ctl_set,
};
