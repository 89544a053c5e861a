/*
 * ctl_multicast.c - the /cu "multicast" class: one directory per multicast
 * object of the process (model/multicast.c), with its size per device, its
 * team (the devices it takes and those added), its shareable handle types
 * and its bindings, "gpuN@offset" each, saying how much of which handle
 * at which offset of it. Nothing here is writable: binding is an API
 * call's.
 *
 * Locking: list and get run with cuemu_lock() held (control.c).
 */
#include "outward/outward.h"
#include "model/multicast.h"

#include <stdio.h>

static json_t *mc_list(void)
{
	json_t *arr = json_array();

	for (uint64_t id = cuemu_mc_next(0); arr && id; id = cuemu_mc_next(id))
		json_array_append_new(arr, cuemu_json_u64(id));
	return arr;
}

static json_t *devices_json(cuemu_procmask mask)
{
	json_t *arr = json_array();
	char w[16];

	for (int d = 0; arr && d < cuemu_device_count(); d++)
		if (mask & ((cuemu_procmask)1 << d))
			json_array_append_new(arr, json_string(
				cuemu_proc_str(d, w, sizeof w)));
	return arr;
}

static json_t *bindings_json(const struct cuemu_mc_view *v)
{
	json_t *obj = json_object();
	char key[48], val[96], w[16];

	for (size_t i = 0; obj && i < v->nbind; i++) {
		const struct cuemu_mc_binding *b = &v->bind[i];

		snprintf(key, sizeof key, "%s@0x%zx",
			 cuemu_proc_str(b->dev, w, sizeof w), b->mc_off);
		snprintf(val, sizeof val, "size=%zu handle=%llu "
			 "handle_offset=0x%zx", b->size,
			 (unsigned long long)b->mem, b->mem_off);
		json_object_set_new(obj, key, json_string(val));
	}
	return obj;
}

static json_t *mc_get(uint64_t id, const char *rest, CUresult *err)
{
	struct cuemu_mc_view v;

	if (!cuemu_mc_view(id, &v)) {
		*err = CUDA_ERROR_NOT_FOUND;
		return NULL;
	}
	return cuemu_ctl_walk(json_pack("{s:o,s:s,s:o,s:i,s:o,s:s,s:i,s:o}",
		"id", cuemu_json_u64(v.id),
		"kind", "multicast",
		"size", cuemu_json_u64(v.size),
		"team", (int)v.ndevices,
		"devices", devices_json(v.devices),
		"handle_types", v.handle_types ? "posix_fd" : "none",
		"binding_count", (int)v.nbind,
		"bindings", bindings_json(&v)), rest, err);
}

static CUresult mc_set(uint64_t id, const char *rest, const char *value)
{
	(void)id;
	(void)value;
	return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED, "%s cannot be written",
			  rest);
}

const struct cuemu_ctl_class cuemu_ctl_multicast = {
	.name = "multicast",
	.list = mc_list,
	.get = mc_get,
	.set = mc_set,
};
