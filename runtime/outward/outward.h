/*
 * outward.h - what the files of runtime/outward/ (what leaves the process:
 * the control server, the ctl classes, the event log) share among
 * themselves. Nothing below them includes it.
 */
#ifndef CUEMU_OUTWARD_H
#define CUEMU_OUTWARD_H

#include "model/internal.h"

#include <stdio.h>

/* An unsigned count as JSON: an integer while jansson can hold it, else
 * its decimal digits as a string, so that a file shows 18446744073709551615
 * and never -1. */
static inline json_t *cuemu_json_u64(uint64_t v)
{
	char d[24];

	if (v <= (uint64_t)INT64_MAX) /* json_int_t is long long */
		return json_integer((json_int_t)v);
	snprintf(d, sizeof d, "%llu", (unsigned long long)v);
	return json_string(d);
}

/* The event log (events.c): lines after sequence number since (exclusive),
 * at most max, as a JSON array of {"seq":N,"line":"..."}; *last gets the
 * newest seq. */
json_t *cuemu_event_since(uint64_t since, size_t max, uint64_t *last);

/* publish.c: what processes/<pid>/ shows (pid, uid, cmdline, machine,
 * counters, last_error), and an object's record as /cu shows it (its
 * class's get, with "ranges" for a managed allocation) with its class
 * (enum pub_class), or NULL when no class has id. Lock held. */
json_t *cuemu_process_json(void);
/* The process's command line, its arguments joined by spaces. */
const char *cuemu_cmdline(void);
json_t *cuemu_object_json(uint64_t id, uint32_t *cls);

/* The process's last refused /cu write: CUresult name and a sentence. */
void cuemu_set_last_error(CUresult r, const char *msg);
json_t *cuemu_last_error_json(void);

/* ------------------------------------------------------------------ */
/* The control surface (control.c routes /cu paths; a ctl class of each
 * family answers).
 * Paths look like "allocations/12/preferred_location". get answers a JSON
 * object whose keys are the file names of the object's directory; a scalar
 * is the file's one line, an array its words, an object its "key value"
 * lines. get runs with the process lock held, so that an answer is one
 * moment of the process. set runs without it, through the API's code path. */
struct cuemu_ctl_class {
	const char *name;                 /* "allocations", "pools", ... */
	json_t *(*list)(void);            /* array of ids */
	/* rest: "" for the object, or "ranges", "ranges/<s>-<e>", ... */
	json_t *(*get)(uint64_t id, const char *rest, CUresult *err);
	CUresult (*set)(uint64_t id, const char *rest, const char *value);
};
extern const struct cuemu_ctl_class cuemu_ctl_allocations; /* ctl_alloc.c */
extern const struct cuemu_ctl_class cuemu_ctl_pools;       /* ctl_pool.c */
extern const struct cuemu_ctl_class cuemu_ctl_reservations;/* ctl_vmm.c */
extern const struct cuemu_ctl_class cuemu_ctl_handles;     /* ctl_vmm.c */
extern const struct cuemu_ctl_class cuemu_ctl_multicast;   /* ctl_multicast.c */
extern const struct cuemu_ctl_class cuemu_ctl_kernels;     /* ctl_kernel.c */
/* ctl_kernel.c: an allocation's touched_by and faults_by_kernel into obj
 * (lock held). */
void cuemu_kernels_of_alloc(uint64_t id, json_t *obj);
/* demangle.c: mangled's C++ name, "f(int, float*)", into out; false
 * where it is no mangled function name it reads. */
bool cuemu_demangle(const char *mangled, char *out, size_t len);
/* ctl_vmm.c: the part of o that rest names ("mappings/0x200000/access"),
 * o consumed; NULL with *err NOT_FOUND when there is none. */
json_t *cuemu_ctl_walk(json_t *o, const char *rest, CUresult *err);

/* outward/ctl_managed.c: managed memory's part of an allocation's
 * directory (lock held). */
void cuemu_managed_json(struct cuemu_alloc *a, json_t *obj);
json_t *cuemu_managed_ranges(struct cuemu_alloc *a);
json_t *cuemu_managed_range_get(struct cuemu_alloc *a, uintptr_t start,
                                uintptr_t end, CUresult *err);
/* attr: preferred_location, accessed_by, read_mostly, prefetch, advise,
 * over the absolute addresses [start, end), run in ctx (the allocation's
 * context) through the API. No lock held; takes no allocation pointer, since
 * the allocation may be freed while the write runs. */
CUresult cuemu_managed_set(CUcontext ctx, uintptr_t start, uintptr_t end,
                           const char *attr, const char *value);

/* control.c: serves data as one connection's requests from uid peer,
 * answers read and dropped; for the fuzzer. 0, or -1 when it would be dropped. */
int cuemu_control_feed(const char *data, size_t n, uid_t peer);

/* The run directory (rundir.c): made if missing, checked to be safe, and
 * this process's control socket listening in it. Its name lands in dir
 * and the socket's path in path; the descriptor, or -1 with cuemu_fail()
 * saying why. */
int cuemu_ctl_listen(char *dir, size_t dlen, char *path, size_t plen);

#endif
