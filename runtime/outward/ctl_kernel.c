/*
 * ctl_kernel.c - the /cu "kernels" class: one record per kernel the
 * process has launched (the per-kernel accounting, model/kstats.h), shown
 * by cufs as processes/<pid>/kernels/<entry name>/ (and kernels/<id>/):
 * what its launches did, and a link per allocation it touched; and the
 * allocations' part of it, touched_by and faults_by_kernel
 * (cuemu_kernels_of_alloc, for ctl_alloc.c). Nothing here is writable.
 *
 * Locking: list and get run with cuemu_lock() held (control.c, publish.c),
 * as the accounting is read.
 */
#include "outward/outward.h"
#include "model/kstats.h"
#include "model/memory.h"

#include <stdio.h>
#include <unistd.h>

static const char *const place_names[PERF_PLACES] = {
	[PERF_PLACE_DEVICE] = "device",
	[PERF_PLACE_PEER] = "peer",
	[PERF_PLACE_HOST] = "host",
	[PERF_PLACE_MANAGED] = "managed",
};

static json_t *ctl_list(void)
{
	json_t *ids = json_array();
	struct kstat *const *all;
	size_t n;

	all = kstats_all(&n);
	for (size_t i = 0; ids && i < n; i++)
		json_array_append_new(ids, json_integer((json_int_t)all[i]->id));
	return ids;
}

/* Bytes by place, and the peer place's again by the GPU they were on
 * (a line "gpuN" each). */
static json_t *places_json(const uint64_t *v, const struct kstat_move *peers,
			   size_t npeers)
{
	json_t *o = json_object();
	char w[16];

	for (int p = 0; p < PERF_PLACES; p++)
		json_object_set_new(o, place_names[p], cuemu_json_u64(v[p]));
	for (size_t i = 0; i < npeers; i++)
		json_object_set_new(o, cuemu_proc_str(peers[i].proc, w, sizeof w),
				    cuemu_json_u64(peers[i].bytes));
	return o;
}

/* Bytes by processor: the host's line always, so that the file is one
 * (an empty object would be a directory of /cu). */
static json_t *moves_json(const struct kstat_move *v, size_t n)
{
	json_t *o = json_object();
	char w[16];

	json_object_set_new(o, cuemu_proc_str(CUEMU_PROC_HOST, w, sizeof w),
			    json_integer(0));
	for (size_t i = 0; i < n; i++)
		json_object_set_new(o, cuemu_proc_str(v[i].proc, w, sizeof w),
				    cuemu_json_u64(v[i].bytes));
	return o;
}

/* The allocations it touched that are still there. */
static json_t *allocs_json(const struct kstat *k)
{
	json_t *a = json_array();

	for (size_t i = 0; i < k->nallocs; i++)
		if (cuemu_va_by_id(k->allocs[i].id))
			json_array_append_new(a, json_integer(
				(json_int_t)k->allocs[i].id));
	return a;
}

static json_t *kernel_json(const struct kstat *k)
{
	char name[512], dev[16];

	if (!cuemu_demangle(k->kernel, name, sizeof name))
		snprintf(name, sizeof name, "%s", k->kernel);
	return json_pack("{s:I,s:s,s:s,s:i,s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,"
			 "s:[i,i,i],s:[i,i,i],s:i,s:i,s:o,s:o,s:o,s:o,s:o}",
		"id", (json_int_t)k->id, "kernel", k->kernel, "name", name,
		"pid", (int)getpid(),
		"device", cuemu_proc_str(k->last_dev, dev, sizeof dev),
		"launches", cuemu_json_u64(k->launches),
		"running", cuemu_json_u64(k->running),
		"last_launch", cuemu_json_u64(k->last_launch),
		"failed", cuemu_json_u64(k->failed),
		"model_ns", cuemu_json_u64(k->model_ns),
		"fault_ns", cuemu_json_u64(k->fault_ns),
		"gpu_faults", cuemu_json_u64(k->gpu_faults),
		"remote_accesses", cuemu_json_u64(k->remote_accesses),
		"last_grid", (int)k->last_grid[0], (int)k->last_grid[1],
		(int)k->last_grid[2],
		"last_block", (int)k->last_block[0], (int)k->last_block[1],
		(int)k->last_block[2],
		"shared_bytes", (int)k->shared_bytes,
		"registers", (int)k->registers,
		"bytes_read", places_json(k->bytes_read, k->peer_rd,
					  k->npeer_rd),
		"bytes_written", places_json(k->bytes_written, k->peer_wr,
					     k->npeer_wr),
		"migrated_in", moves_json(k->in, k->nin),
		"migrated_out", moves_json(k->out, k->nout),
		"allocations", allocs_json(k));
}

static json_t *ctl_get(uint64_t id, const char *rest, CUresult *err)
{
	const struct kstat *k = kstats_by_id(id);

	*err = CUDA_SUCCESS;
	if (k && rest[0] == '\0')
		return kernel_json(k);
	*err = CUDA_ERROR_NOT_FOUND;
	return NULL;
}

static CUresult ctl_set(uint64_t id, const char *rest, const char *value)
{
	(void)value;
	return cuemu_fail(CUDA_ERROR_NOT_PERMITTED, "kernels/%llu/%s: a "
			  "kernel's files are read-only", (unsigned long long)id,
			  rest);
}

void cuemu_kernels_of_alloc(uint64_t id, json_t *obj)
{
	json_t *touched = json_object(), *faults = json_object();
	struct kstat *const *all;
	size_t n;

	all = kstats_all(&n);
	for (size_t i = 0; i < n; i++) {
		const struct kstat_alloc *a = kstats_alloc(all[i], id);

		if (!a)
			continue;
		json_object_set_new(touched, all[i]->kernel, json_pack(
			"[o,o]", cuemu_json_u64(a->bytes),
			cuemu_json_u64(a->faults)));
		json_object_set_new(faults, all[i]->kernel,
				    cuemu_json_u64(a->faults));
	}
	/* No kernel yet: an empty file (an empty object would be a
	 * directory of /cu). */
	json_object_set_new(obj, "touched_by", json_object_size(touched) ?
			    touched : (json_decref(touched), json_null()));
	json_object_set_new(obj, "faults_by_kernel", json_object_size(faults) ?
			    faults : (json_decref(faults), json_null()));
}

const struct cuemu_ctl_class cuemu_ctl_kernels = {
	.name = "kernels",
	.list = ctl_list,
	.get = ctl_get,
	.set = ctl_set,
};
