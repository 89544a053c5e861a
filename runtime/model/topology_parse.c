/*
 * topology_parse.c - the parser of topology files (JSON, jansson; format
 * in man/cuemu-topology(5)) over the built-in default of topology.c, and
 * the one checker of a topology wherever it came from (a file, or a
 * machine segment another process wrote). Every rejection names the
 * file, the field and the reason. Pure functions over the struct they
 * are given; no global state, no locks.
 */
#include "model/topology.h"

#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- parser */

/* The compute term's figures within what a GPU could have: warp
 * instructions an SM issues a clock, SMs, the SM clock in kHz (1 MHz to
 * 10 GHz). */
#define WARP_ISSUE_MAX 16
#define SM_COUNT_MAX 1024
#define CLOCK_KHZ_MIN 1000
#define CLOCK_KHZ_MAX 10000000

struct parse {
	const char *path;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 3, 4)))
static int reject(struct parse *p, const char *field, const char *fmt, ...)
{
	char why[192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	snprintf(p->err, p->errlen, "%s: %s: %s", p->path, field, why);
	return -1;
}

/* Allowed keys of an object: anything else is a typo worth refusing. */
static int only_keys(struct parse *p, json_t *o, const char *field,
		     const char *const *keys)
{
	const char *k;
	json_t *v;

	json_object_foreach(o, k, v) {
		int found = 0;
		for (const char *const *q = keys; *q; q++)
			found |= !strcmp(*q, k);
		if (!found)
			return reject(p, field, "unknown key '%s'", k);
	}
	return 0;
}

static int get_size(struct parse *p, json_t *v, const char *field, uint64_t *out)
{
	if (json_is_integer(v) && json_integer_value(v) > 0) {
		*out = (uint64_t)json_integer_value(v);
		return 0;
	}
	if (json_is_string(v) && cuemu_size_parse(json_string_value(v), out) == 0
	    && *out > 0)
		return 0;
	return reject(p, field, "not a size (bytes, or a string like \"141G\")");
}

static int get_number(struct parse *p, json_t *v, const char *field,
		      double lo, double hi, double *out)
{
	if (!json_is_number(v))
		return reject(p, field, "not a number");
	*out = json_number_value(v);
	if (*out < lo || *out > hi)
		return reject(p, field, "%g is out of range [%g, %g]", *out, lo, hi);
	return 0;
}

static int parse_attrs(struct parse *p, json_t *o, const char *field, int *attrs)
{
	const char *k;
	json_t *v;
	char f[160];

	if (!json_is_object(o))
		return reject(p, field, "not an object");
	json_object_foreach(o, k, v) {
		int a = cuemu_attr_by_name(k);
		snprintf(f, sizeof f, "%s.%s", field, k);
		if (a < 0)
			return reject(p, f, "unknown device attribute");
		if (!json_is_integer(v) || json_integer_value(v) < INT32_MIN + 1 ||
		    json_integer_value(v) > INT32_MAX)
			return reject(p, f, "not a 32-bit integer");
		attrs[a] = (int)json_integer_value(v);
	}
	return 0;
}

/* "GPU-" and 32 hex digits in the groups 8-4-4-4-12, not all zero. */
static int parse_uuid(const char *s, uint8_t *u)
{
	static const int group_end[] = { 8, 12, 16, 20, 32 };
	int g = 0, k = 0;
	bool nonzero = false;

	if (strncmp(s, "GPU-", 4))
		return -1;
	s += 4;
	for (int digits = 0; digits < 32; digits += 2) {
		unsigned int b;

		if (!isxdigit((unsigned char)s[0]) ||
		    !isxdigit((unsigned char)s[1]) ||
		    sscanf(s, "%2x", &b) != 1)
			return -1;
		u[k++] = (uint8_t)b;
		nonzero |= b != 0;
		s += 2;
		if (digits + 2 == group_end[g] && ++g < 5 && *s++ != '-')
			return -1;
	}
	return *s || !nonzero ? -1 : 0;
}

static int parse_device(struct parse *p, struct cuemu_topology *t, int d, json_t *o)
{
	static const char *const keys[] = { "name", "memory", "numa_node",
					    "uuid", "attributes",
					    "warp_issue_per_clock", NULL };
	struct cuemu_device_info *dev = &t->dev[d];
	char f[64];
	json_t *v;

	snprintf(f, sizeof f, "devices[%d]", d);
	if (!json_is_object(o))
		return reject(p, f, "not an object");
	if (only_keys(p, o, f, keys) < 0)
		return -1;
	if ((v = json_object_get(o, "name"))) {
		if (!json_is_string(v) || json_string_length(v) == 0 ||
		    json_string_length(v) >= sizeof dev->name)
			return reject(p, f, "name must be a string of 1 to 63 bytes");
		snprintf(dev->name, sizeof dev->name, "%s", json_string_value(v));
	}
	if ((v = json_object_get(o, "memory"))) {
		snprintf(f, sizeof f, "devices[%d].memory", d);
		if (get_size(p, v, f, &dev->total) < 0)
			return -1;
	}
	if ((v = json_object_get(o, "numa_node"))) {
		snprintf(f, sizeof f, "devices[%d].numa_node", d);
		if (!json_is_integer(v) || json_integer_value(v) < -1 ||
		    json_integer_value(v) >= t->nnuma)
			return reject(p, f, "not a host NUMA node (-1 or 0..%d)",
				      t->nnuma - 1);
		dev->numa_node = (int)json_integer_value(v);
		dev->attrs[CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID] = dev->numa_node;
	}
	if ((v = json_object_get(o, "uuid"))) {
		snprintf(f, sizeof f, "devices[%d].uuid", d);
		if (!json_is_string(v) ||
		    parse_uuid(json_string_value(v), dev->uuid) < 0)
			return reject(p, f, "not a GPU UUID (GPU-xxxxxxxx-xxxx-"
				      "xxxx-xxxx-xxxxxxxxxxxx, hex, not all 0)");
		dev->uuid_given = 1;
	}
	if ((v = json_object_get(o, "attributes"))) {
		snprintf(f, sizeof f, "devices[%d].attributes", d);
		if (parse_attrs(p, v, f, dev->attrs) < 0)
			return -1;
	}
	if ((v = json_object_get(o, "warp_issue_per_clock"))) {
		double x;

		snprintf(f, sizeof f, "devices[%d].warp_issue_per_clock", d);
		if (!json_is_integer(v))
			return reject(p, f, "not a whole number");
		if (get_number(p, v, f, 1, WARP_ISSUE_MAX, &x) < 0)
			return -1;
		dev->warp_issue = (int)x;
	}
	return 0;
}

/* "numa_nodes": how many host NUMA nodes, or an array of their sizes;
 * read before the devices, whose numa_node must name one. */
static int parse_numa(struct parse *p, struct cuemu_topology *t, json_t *root)
{
	json_t *v = json_object_get(root, "numa_nodes"), *e;
	char f[64];
	size_t i, n;

	if (!v)
		return 0;
	if (json_is_integer(v))
		n = json_integer_value(v) < 1 ? 0 : (size_t)json_integer_value(v);
	else if (json_is_array(v))
		n = json_array_size(v);
	else
		return reject(p, "numa_nodes", "not a count or an array of sizes");
	if (n < 1 || n > CUEMU_NUMA_LIMIT)
		return reject(p, "numa_nodes", "must be 1..%d nodes",
			      CUEMU_NUMA_LIMIT);
	if (cuemu_topology_size(t, t->ndev, (int)n) < 0)
		return reject(p, "numa_nodes", "no memory for %zu nodes", n);
	if (!json_is_array(v))
		return 0;
	json_array_foreach(v, i, e) {
		snprintf(f, sizeof f, "numa_nodes[%zu]", i);
		if (get_size(p, e, f, &t->numa_total[i]) < 0)
			return -1;
	}
	return 0;
}

static int parse_devices(struct parse *p, struct cuemu_topology *t, json_t *root)
{
	json_t *devs = json_object_get(root, "devices");
	json_t *count = json_object_get(root, "device_count");
	size_t n;
	int n_dev;

	if (!devs && !count)
		return 0;
	if (devs && !json_is_array(devs))
		return reject(p, "devices", "not an array");
	n = devs ? json_array_size(devs) : 0;
	if (count) {
		if (!json_is_integer(count) || json_integer_value(count) < 1 ||
		    json_integer_value(count) > CUEMU_MAX_DEVICES)
			return reject(p, "device_count", "must be 1..%d",
				      CUEMU_MAX_DEVICES);
		if (n > 1 && (size_t)json_integer_value(count) != n)
			return reject(p, "device_count",
				      "disagrees with the %zu devices listed", n);
		n_dev = (int)json_integer_value(count);
	} else {
		if (n < 1 || n > CUEMU_MAX_DEVICES)
			return reject(p, "devices", "must list 1..%d devices",
				      CUEMU_MAX_DEVICES);
		n_dev = (int)n;
	}
	if (cuemu_topology_size(t, n_dev, t->nnuma) < 0)
		return reject(p, "devices", "no memory for %d devices", n_dev);
	for (int d = 0; d < t->ndev; d++) {
		json_t *o = n == 0 ? NULL : json_array_get(devs, n == 1 ? 0 : d);
		if (o && parse_device(p, t, d, o) < 0)
			return -1;
	}
	return 0;
}

static const char *const link_kinds[] = { "none", "nvlink", "pcie", "local",
					   "c2c", NULL };

static int parse_link(struct parse *p, json_t *o, const char *field,
		      struct cuemu_link *l)
{
	static const char *const keys[] = { "kind", "gbps", "latency_ns",
					    "from", "to", NULL };
	json_t *v;
	double x;
	char f[96];

	if (!json_is_object(o))
		return reject(p, field, "not an object");
	if (only_keys(p, o, field, keys) < 0)
		return -1;
	if ((v = json_object_get(o, "kind"))) {
		int k = -1;
		for (int i = 0; link_kinds[i]; i++)
			if (json_is_string(v) && !strcmp(json_string_value(v), link_kinds[i]))
				k = i;
		if (k < 0)
			return reject(p, field, "kind must be none, nvlink, pcie, "
				      "local or c2c");
		l->kind = k;
	}
	if ((v = json_object_get(o, "gbps"))) {
		snprintf(f, sizeof f, "%s.gbps", field);
		if (get_number(p, v, f, 0.001, 1e6, &x) < 0)
			return -1;
		l->gbps = x;
	}
	if ((v = json_object_get(o, "latency_ns"))) {
		snprintf(f, sizeof f, "%s.latency_ns", field);
		if (get_number(p, v, f, 0, 1e10, &x) < 0)
			return -1;
		l->lat_ns = (uint64_t)x;
	}
	return 0;
}

/* "gpu3" or "cpu" to a processor index of this topology. */
static int proc_of(struct parse *p, struct cuemu_topology *t, json_t *v,
		   const char *field, int *out)
{
	CUmemLocation loc;
	int proc;

	if (!json_is_string(v) || cuemu_loc_parse(json_string_value(v), &loc) < 0)
		return reject(p, field, "not a processor (gpuN or cpu)");
	proc = cuemu_loc_proc(loc);
	if (loc.type == CU_MEM_LOCATION_TYPE_HOST)
		proc = CUEMU_PROC_HOST;
	else if (loc.type != CU_MEM_LOCATION_TYPE_DEVICE || proc < 0 ||
		 proc >= t->ndev)
		return reject(p, field, "no such processor '%s'", json_string_value(v));
	*out = proc;
	return 0;
}

static int parse_links(struct parse *p, struct cuemu_topology *t, json_t *root)
{
	static const char *const keys[] = { "gpu_gpu", "host_to_gpu", "gpu_to_host",
					    "gpu_local", "host_local", "pairs", NULL };
	json_t *links = json_object_get(root, "links"), *v;
	struct cuemu_link tmpl;
	size_t i;

	if (!links)
		return 0;
	if (!json_is_object(links))
		return reject(p, "links", "not an object");
	if (only_keys(p, links, "links", keys) < 0)
		return -1;
	for (int a = 0; a <= t->ndev; a++) {
		for (int b = 0; b <= t->ndev; b++) {
			int from = a == t->ndev ? CUEMU_PROC_HOST : a;
			int to = b == t->ndev ? CUEMU_PROC_HOST : b;
			const char *k = from == CUEMU_PROC_HOST ?
				(to == CUEMU_PROC_HOST ? "host_local" : "host_to_gpu") :
				(to == CUEMU_PROC_HOST ? "gpu_to_host" :
				 from == to ? "gpu_local" : "gpu_gpu");
			char f[64];
			if (!(v = json_object_get(links, k)))
				continue;
			snprintf(f, sizeof f, "links.%s", k);
			tmpl = *cuemu_topo_link(t, from, to);
			if (parse_link(p, v, f, &tmpl) < 0)
				return -1;
			*cuemu_topo_link(t, from, to) = tmpl;
		}
	}
	if (!(v = json_object_get(links, "pairs")))
		return 0;
	if (!json_is_array(v))
		return reject(p, "links.pairs", "not an array");
	for (i = 0; i < json_array_size(v); i++) {
		json_t *o = json_array_get(v, i);
		char f[64], ff[80];
		int from, to;

		snprintf(f, sizeof f, "links.pairs[%zu]", i);
		if (!json_is_object(o))
			return reject(p, f, "not an object");
		snprintf(ff, sizeof ff, "%s.from", f);
		if (proc_of(p, t, json_object_get(o, "from"), ff, &from) < 0)
			return -1;
		snprintf(ff, sizeof ff, "%s.to", f);
		if (proc_of(p, t, json_object_get(o, "to"), ff, &to) < 0)
			return -1;
		tmpl = *cuemu_topo_link(t, from, to);
		if (parse_link(p, o, f, &tmpl) < 0)
			return -1;
		*cuemu_topo_link(t, from, to) = tmpl;
	}
	return 0;
}

static int parse_faults(struct parse *p, struct cuemu_topology *t, json_t *root)
{
	static const char *const keys[] = { "gpu_fault_ns", "cpu_fault_ns", NULL };
	json_t *o = json_object_get(root, "faults"), *v;
	double x;

	if (!o)
		return 0;
	if (!json_is_object(o))
		return reject(p, "faults", "not an object");
	if (only_keys(p, o, "faults", keys) < 0)
		return -1;
	if ((v = json_object_get(o, "gpu_fault_ns"))) {
		if (get_number(p, v, "faults.gpu_fault_ns", 0, 1e9, &x) < 0)
			return -1;
		t->gpu_fault_ns = (uint64_t)x;
	}
	if ((v = json_object_get(o, "cpu_fault_ns"))) {
		if (get_number(p, v, "faults.cpu_fault_ns", 0, 1e9, &x) < 0)
			return -1;
		t->cpu_fault_ns = (uint64_t)x;
	}
	return 0;
}

/* ------------------------------------------------------------- uvm model */

/* The "uvm" keys: a number within [lo, hi] or a boolean (lo = hi = -1),
 * stored at off in struct cuemu_uvm as the type says. */
enum uvm_type { U_U32, U_U64, U_DBL, U_BOOL };
static const struct {
	const char *key;
	enum uvm_type type;
	size_t off;
	double lo, hi;
} uvm_keys[] = {
#define UK(k, f, t, lo, hi) { k, t, offsetof(struct cuemu_uvm, f), lo, hi }
	UK("fault_batch", batch_faults, U_U32, 1, 65536),
	UK("batch_ns", batch_ns, U_U64, 0, 1e9),
	UK("fault_ns", fault_ns, U_U64, 0, 1e9),
	UK("fault_wave_ns", fault_wave_ns, U_U64, 0, 1e9),
	UK("host_page_ns", host_page_ns, U_U64, 0, 1e9),
	UK("peer_page_ns", peer_page_ns, U_U64, 0, 1e9),
	UK("peer_map_ns", peer_map_ns, U_U64, 0, 1e9),
	UK("peer_copy_cross_ns", peer_copy_cross_ns, U_U64, 0, 1e9),
	UK("prefetch", prefetch, U_BOOL, -1, -1),
	UK("prefetch_threshold", prefetch_threshold, U_U32, 1, 100),
	UK("prefetch_block_ns", prefetch_block_ns, U_U64, 0, 1e9),
	UK("peer_prefetch_first_ns", peer_prefetch_first_ns, U_U64, 0, 1e9),
	UK("remote_host_gbps", remote_host_gbps, U_DBL, 0.001, 1e6),
	UK("remote_host_read_gbps", remote_host_read_gbps, U_DBL, 0.001, 1e6),
	UK("remote_host_write_gbps", remote_host_write_gbps, U_DBL, 0.001, 1e6),
	UK("remote_host_read_mrps", remote_host_read_mrps, U_DBL, 0.001, 1e6),
	UK("remote_peer_gbps", remote_peer_gbps, U_DBL, 0.001, 1e6),
	UK("cache_gbps", cache_gbps, U_DBL, 0.001, 1e6),
	UK("l1_gbps", l1_gbps, U_DBL, 0.001, 1e6),
	UK("store_gbps", store_gbps, U_DBL, 0.001, 1e6),
	UK("dram_page_mps", dram_page_mps, U_DBL, 0.001, 1e6),
	UK("advise_accessed_by_ns_mib", advise_accessed_by_ns_mib, U_DBL, 0, 1e6),
	UK("advise_read_mostly_ns_mib", advise_read_mostly_ns_mib, U_DBL, 0, 1e6),
	UK("advise_preferred_ns_mib", advise_preferred_ns_mib, U_DBL, 0, 1e6),
	UK("alu_latency_ns", alu_latency_ns, U_DBL, 0, 1e6),
	UK("l1_latency_ns", l1_latency_ns, U_DBL, 0, 1e6),
	UK("load_latency_ns", load_latency_ns, U_DBL, 0, 1e6),
	UK("l1_bytes", l1_bytes, U_U64, 0, 1e9),
	UK("dram_latency_ns", dram_latency_ns, U_DBL, 0, 1e6),
	UK("l2_hold_bytes", l2_hold_bytes, U_U64, 0, 1e12),
	UK("l2_keep_bytes", l2_keep_bytes, U_U64, 0, 1e12),
	UK("l2_keep_none_bytes", l2_keep_none_bytes, U_U64, 0, 1e12),
	UK("launch_ns", launch_ns, U_U64, 0, 1e9),
	UK("launch_call_ns", launch_call_ns, U_U64, 0, 1e9),
	UK("graph_launch_call_ns", graph_launch_call_ns, U_U64, 0, 1e9),
	UK("graph_launch_ns", graph_launch_ns, U_U64, 0, 1e9),
	UK("graph_node_ns", graph_node_ns, U_U64, 0, 1e9),
	UK("graph_capture_call_ns", graph_capture_call_ns, U_U64, 0, 1e9),
	UK("copy_after_kernel_ns", copy_after_kernel_ns, U_U64, 0, 1e9),
	UK("copy_call_ns", copy_call_ns, U_U64, 0, 1e9),
	UK("copy_kernel_call_ns", copy_kernel_call_ns, U_U64, 0, 1e9),
	UK("copy_kernel_after_kernel_ns", copy_kernel_after_kernel_ns, U_U64, 0, 1e9),
	UK("kernel_after_copy_ns", kernel_after_copy_ns, U_U64, 0, 1e9),
	UK("pageable_async_bytes", pageable_async_bytes, U_U64, 0, 1e12),
	UK("pageable_async_call_ns", pageable_async_call_ns, U_U64, 0, 1e9),
	UK("pageable_async_gbps", pageable_async_gbps, U_DBL, 0.001, 1e6),
	UK("memset_short_call_ns", memset_short_call_ns, U_U64, 0, 1e9),
	UK("memset_short_after_kernel_ns", memset_short_after_kernel_ns, U_U64, 0, 1e9),
	UK("graph_cond_ns", graph_cond_ns, U_U64, 0, 1e9),
	UK("graph_cond_body_ns", graph_cond_body_ns, U_U64, 0, 1e9),
	UK("device_launch_ns", device_launch_ns, U_U64, 0, 1e9),
	UK("device_launch_call_ns", device_launch_call_ns, U_U64, 0, 1e9),
	UK("device_launch_stream_ns", device_launch_stream_ns, U_U64, 0, 1e9),
	UK("device_launch_grid_ns", device_launch_grid_ns, U_U64, 0, 1e9),
	UK("device_launch_first_ns", device_launch_first_ns, U_U64, 0, 1e9),
	UK("device_runtime_load_ns", device_runtime_load_ns, U_U64, 0, 1e10),
	UK("device_launch_block_ns", device_launch_block_ns, U_U64, 0, 1e9),
	UK("graph_instantiate_ns", graph_instantiate_ns, U_U64, 0, 1e9),
	UK("graph_instantiate_node_ns", graph_instantiate_node_ns, U_U64, 0, 1e9),
	UK("graph_upload_node_ns", graph_upload_node_ns, U_U64, 0, 1e9),
	UK("block_launch_ns", block_launch_ns, U_U64, 0, 1e9),
	UK("init_ns", init_ns, U_U64, 0, 1e10),
	UK("init_device_ns", init_device_ns, U_U64, 0, 1e10),
	UK("context_create_ns", ctx_create_ns, U_U64, 0, 1e10),
	UK("context_destroy_ns", ctx_destroy_ns, U_U64, 0, 1e10),
	UK("wake_after_ns", wake_after_ns, U_U64, 0, 1e10),
	UK("wake_decade_ns", wake_decade_ns, U_U64, 0, 1e9),
	UK("wake_max_ns", wake_max_ns, U_U64, 0, 1e9),
	UK("wake_peer_share", wake_peer_share, U_DBL, 0, 1),
	UK("read_mostly_write_ns", rm_upgrade_ns, U_U64, 0, 1e9),
	UK("read_mostly_migrate_ns", rm_migrate_ns, U_U64, 0, 1e9),
	UK("read_mostly_block_ns", rm_block_ns, U_U64, 0, 1e9),
	UK("thrashing", thrash, U_BOOL, -1, -1),
	UK("thrash_threshold", thrash_threshold, U_U32, 1, 255),
	UK("thrash_lapse_ns", thrash_lapse_ns, U_U64, 1000, 1e10),
	UK("thrash_nap", thrash_nap, U_U32, 1, 100),
	UK("thrash_pin_threshold", thrash_pin_threshold, U_U32, 1, 255),
	UK("thrash_pin", thrash_pin, U_U32, 0, 1e6),
	UK("thrash_epoch", thrash_epoch, U_U32, 1, 1e6),
	UK("access_counters", access_counters, U_BOOL, -1, -1),
	UK("access_counter_granularity", ac_granularity, U_U64, 65536, 1UL << 30),
	UK("access_counter_threshold", ac_threshold, U_U32, 1, 65535),
#undef UK
};
#define NUVM_KEYS (sizeof uvm_keys / sizeof uvm_keys[0])

static int parse_uvm_key(struct parse *p, struct cuemu_uvm *u, size_t i,
			 json_t *v)
{
	char f[64];
	char *at = (char *)u + uvm_keys[i].off;
	double x;

	snprintf(f, sizeof f, "uvm.%s", uvm_keys[i].key);
	if (uvm_keys[i].type == U_BOOL) {
		if (!json_is_boolean(v))
			return reject(p, f, "not true or false");
		*(bool *)at = json_is_true(v);
		return 0;
	}
	if (get_number(p, v, f, uvm_keys[i].lo, uvm_keys[i].hi, &x) < 0)
		return -1;
	if (uvm_keys[i].type == U_U32)
		*(uint32_t *)at = (uint32_t)x;
	else if (uvm_keys[i].type == U_U64)
		*(uint64_t *)at = (uint64_t)x;
	else
		*(double *)at = x;
	return 0;
}

static int parse_uvm(struct parse *p, struct cuemu_topology *t, json_t *root)
{
	json_t *o = json_object_get(root, "uvm"), *v;
	const char *k;

	if (!o)
		return 0;
	if (!json_is_object(o))
		return reject(p, "uvm", "not an object");
	json_object_foreach(o, k, v) {
		size_t i;

		for (i = 0; i < NUVM_KEYS && strcmp(uvm_keys[i].key, k); i++)
			;
		if (i == NUVM_KEYS)
			return reject(p, "uvm", "unknown key '%s'", k);
		if (parse_uvm_key(p, &t->uvm, i, v) < 0)
			return -1;
	}
	if (t->uvm.ac_granularity & (t->uvm.ac_granularity - 1))
		return reject(p, "uvm.access_counter_granularity",
			      "not a power of two");
	return 0;
}

/* A rate of the uvm block: finite, within [0.001, 1e6]. */
static bool in_rate(double x)
{
	return isfinite(x) && x >= 0.001 && x <= 1e6;
}

static bool in_latency(double ns)
{
	return isfinite(ns) && ns >= 0 && ns <= 1e6;
}

/* What a topology's uvm block must satisfy wherever it came from. */
static int check_uvm(struct parse *p, const struct cuemu_uvm *u)
{
	if (u->batch_faults < 1 || u->batch_faults > 65536)
		return reject(p, "uvm.fault_batch", "not in [1, 65536]");
	if (u->prefetch_threshold < 1 || u->prefetch_threshold > 100)
		return reject(p, "uvm.prefetch_threshold", "not in [1, 100]");
	if (!isfinite(u->remote_host_gbps) || u->remote_host_gbps < 0.001 ||
	    u->remote_host_gbps > 1e6)
		return reject(p, "uvm.remote_host_gbps", "not in [0.001, 1e6]");
	if (!in_rate(u->remote_host_read_gbps) ||
	    !in_rate(u->remote_host_write_gbps))
		return reject(p, "uvm.remote_host_read_gbps", "a host link "
			      "direction's rate is not in [0.001, 1e6]");
	if (!in_rate(u->cache_gbps))
		return reject(p, "uvm.cache_gbps", "not in [0.001, 1e6]");
	if (!in_rate(u->l1_gbps))
		return reject(p, "uvm.l1_gbps", "not in [0.001, 1e6]");
	if (!in_rate(u->store_gbps))
		return reject(p, "uvm.store_gbps", "not in [0.001, 1e6]");
	if (!in_rate(u->dram_page_mps))
		return reject(p, "uvm.dram_page_mps", "not in [0.001, 1e6]");
	if (!in_latency(u->alu_latency_ns))
		return reject(p, "uvm.alu_latency_ns", "not in [0, 1e6]");
	if (!in_latency(u->l1_latency_ns))
		return reject(p, "uvm.l1_latency_ns", "not in [0, 1e6]");
	if (!in_latency(u->load_latency_ns))
		return reject(p, "uvm.load_latency_ns", "not in [0, 1e6]");
	if (u->l1_bytes > 1000000000ULL)
		return reject(p, "uvm.l1_bytes", "not in [0, 1e9]");
	if (!in_latency(u->dram_latency_ns))
		return reject(p, "uvm.dram_latency_ns", "not in [0, 1e6]");
	if (u->l2_hold_bytes > 1000000000000ULL)
		return reject(p, "uvm.l2_hold_bytes", "not in [0, 1e12]");
	if (u->l2_keep_none_bytes > 1000000000000ULL ||
	    u->l2_keep_bytes > u->l2_keep_none_bytes)
		return reject(p, "uvm.l2_keep_bytes", "not at most "
			      "uvm.l2_keep_none_bytes, itself at most 1e12");
	if (!in_rate(u->remote_host_read_mrps))
		return reject(p, "uvm.remote_host_read_mrps",
			      "not in [0.001, 1e6]");
	if (!isfinite(u->remote_peer_gbps) || (u->remote_peer_gbps != 0 &&
	    (u->remote_peer_gbps < 0.001 || u->remote_peer_gbps > 1e6)))
		return reject(p, "uvm.remote_peer_gbps", "not 0 or in "
			      "[0.001, 1e6]");
	if (u->batch_ns > 1000000000ULL || u->fault_ns > 1000000000ULL ||
	    u->fault_wave_ns > 1000000000ULL ||
	    u->host_page_ns > 1000000000ULL || u->rm_upgrade_ns > 1000000000ULL ||
	    u->rm_migrate_ns > 1000000000ULL || u->rm_block_ns > 1000000000ULL ||
	    u->launch_ns > 1000000000ULL || u->block_launch_ns > 1000000000ULL ||
	    u->launch_call_ns > 1000000000ULL ||
	    u->wake_decade_ns > 1000000000ULL || u->wake_max_ns > 1000000000ULL ||
	    u->prefetch_block_ns > 1000000000ULL ||
	    u->peer_prefetch_first_ns > 1000000000ULL ||
	    u->peer_page_ns > 1000000000ULL || u->peer_map_ns > 1000000000ULL ||
	    u->peer_copy_cross_ns > 1000000000ULL)
		return reject(p, "uvm", "a cost is over a second");
	if (u->wake_after_ns > 10000000000ULL)
		return reject(p, "uvm.wake_after_ns", "over 10 seconds");
	if (!isfinite(u->wake_peer_share) || u->wake_peer_share < 0 ||
	    u->wake_peer_share > 1)
		return reject(p, "uvm.wake_peer_share", "not in [0, 1]");
	if (u->init_ns > 10000000000ULL || u->init_device_ns > 10000000000ULL ||
	    u->ctx_create_ns > 10000000000ULL ||
	    u->ctx_destroy_ns > 10000000000ULL)
		return reject(p, "uvm", "a driver cost is over 10 seconds");
	if (u->thrash_threshold < 1 || u->thrash_threshold > 255 ||
	    u->thrash_pin_threshold < 1 || u->thrash_pin_threshold > 255 ||
	    u->thrash_nap < 1 || u->thrash_nap > 100 || u->thrash_epoch < 1 ||
	    u->thrash_epoch > 1000000 || u->thrash_pin > 1000000 ||
	    u->thrash_lapse_ns < 1000 || u->thrash_lapse_ns > 10000000000ULL)
		return reject(p, "uvm", "a thrashing setting is out of range");
	if (u->ac_granularity < 65536 || u->ac_granularity > (1UL << 30) ||
	    (u->ac_granularity & (u->ac_granularity - 1)) ||
	    u->ac_threshold < 1 || u->ac_threshold > 65535)
		return reject(p, "uvm", "an access counter setting is out of "
			      "range");
	return 0;
}


/* The "copies" keys, the rate each sets and, for a pageable copy, the rate
 * of the host's own time that its host_ keys set (-1: none). */
static const struct {
	const char *key;
	int rate, host;
} copy_keys[] = {
	{ "pinned_to_gpu", CUEMU_RATE_PINNED_HTOD, -1 },
	{ "gpu_to_pinned", CUEMU_RATE_PINNED_DTOH, -1 },
	{ "pageable_to_gpu", CUEMU_RATE_PAGEABLE_HTOD,
	  CUEMU_RATE_PAGEABLE_HTOD_HOST },
	{ "gpu_to_pageable", CUEMU_RATE_PAGEABLE_DTOH,
	  CUEMU_RATE_PAGEABLE_DTOH_HOST },
	{ "gpu_local", CUEMU_RATE_DEVICE, -1 },
	{ "memset", CUEMU_RATE_MEMSET, -1 },
	{ "gpu_to_gpu", CUEMU_RATE_PEER, -1 },
};
#define NCOPY_KEYS (sizeof copy_keys / sizeof copy_keys[0])

/* o's key prefix + name into *out, a number within [lo, hi]; *out stays
 * as it is when the key is absent. */
static int rate_field(struct parse *p, json_t *o, const char *field,
		      const char *prefix, const char *name, double lo,
		      double hi, double *out)
{
	char k[32], f[96];
	json_t *v;

	snprintf(k, sizeof k, "%s%s", prefix, name);
	if (!(v = json_object_get(o, k)))
		return 0;
	snprintf(f, sizeof f, "%s.%s", field, k);
	return get_number(p, v, f, lo, hi, out);
}

/* A rate's bandwidth and latency: "gbps" and "latency_ns" after prefix. */
static int parse_rate(struct parse *p, json_t *o, const char *field,
		      const char *prefix, struct cuemu_rate *r)
{
	double gbps = r->gbps, lat = (double)r->lat_ns;

	if (rate_field(p, o, field, prefix, "gbps", 0.001, 1e6, &gbps) < 0 ||
	    rate_field(p, o, field, prefix, "latency_ns", 0, 1e9, &lat) < 0)
		return -1;
	r->gbps = gbps;
	r->lat_ns = (uint64_t)lat;
	return 0;
}

/* One "copies" entry: its rate, the short path, the host's own time. */
static int parse_copy(struct parse *p, struct cuemu_topology *t, size_t i,
		      json_t *o)
{
	static const char *const keys[] = { "gbps", "latency_ns",
		"small_bytes", "small_latency_ns", NULL };
	static const char *const host_keys[] = { "gbps", "latency_ns",
		"small_bytes", "small_latency_ns", "host_gbps",
		"host_latency_ns", NULL };
	struct cuemu_rate *r = &t->copy[copy_keys[i].rate];
	double small = (double)r->small_bytes, slat = (double)r->small_lat_ns;
	char f[64];

	snprintf(f, sizeof f, "copies.%s", copy_keys[i].key);
	if (!json_is_object(o))
		return reject(p, f, "not an object");
	if (only_keys(p, o, f, copy_keys[i].host < 0 ? keys : host_keys) < 0 ||
	    parse_rate(p, o, f, "", r) < 0 ||
	    rate_field(p, o, f, "", "small_bytes", 0, 1099511627776.0,
		       &small) < 0 ||
	    rate_field(p, o, f, "", "small_latency_ns", 0, 1e9, &slat) < 0)
		return -1;
	r->small_bytes = (uint64_t)small;
	r->small_lat_ns = (uint64_t)slat;
	if (copy_keys[i].host >= 0)
		return parse_rate(p, o, f, "host_", &t->copy[copy_keys[i].host]);
	return 0;
}

static int parse_copies(struct parse *p, struct cuemu_topology *t,
			json_t *root)
{
	json_t *o = json_object_get(root, "copies"), *v;
	const char *k;

	if (!o)
		return 0;
	if (!json_is_object(o))
		return reject(p, "copies", "not an object");
	json_object_foreach(o, k, v) {
		size_t i = 0;

		while (i < NCOPY_KEYS && strcmp(copy_keys[i].key, k))
			i++;
		if (i == NCOPY_KEYS)
			return reject(p, "copies", "unknown key '%s'", k);
		if (parse_copy(p, t, i, v) < 0)
			return -1;
	}
	return 0;
}

/* The one parser of a topology document, whichever way it was read:
 * root's fields over the built-in default. Consumes root. */
static int parse_root(struct parse *p, json_t *root, struct cuemu_topology *t)
{
	static const char *const keys[] = { "name", "memory_model",
					    "numa_nodes", "devices",
					    "device_count", "links", "faults",
					    "copies", "uvm", NULL };
	json_t *v;
	int rc = -1;

	if (!json_is_object(root)) {
		reject(p, "(top)", "not a JSON object");
		goto out;
	}
	if (only_keys(p, root, "(top)", keys) < 0)
		goto out;
	if ((v = json_object_get(root, "name"))) {
		if (!json_is_string(v) || json_string_length(v) >= sizeof t->name) {
			reject(p, "name", "must be a string of at most 63 bytes");
			goto out;
		}
		snprintf(t->name, sizeof t->name, "%s", json_string_value(v));
	}
	if ((v = json_object_get(root, "memory_model"))) {
		t->paradigm = -1;
		for (int m = 0; cuemu_paradigm_name(m); m++)
			if (json_is_string(v) &&
			    !strcmp(json_string_value(v), cuemu_paradigm_name(m)))
				t->paradigm = m;
		if (t->paradigm < 0) {
			reject(p, "memory_model", "must be software-coherent, "
			       "hmm or hardware-coherent");
			goto out;
		}
	}
	if (parse_numa(p, t, root) < 0 ||
	    parse_devices(p, t, root) < 0 ||
	    (cuemu_topology_paradigm(t), 0) || parse_links(p, t, root) < 0 ||
	    (cuemu_topology_remote_host(t), 0) ||
	    parse_faults(p, t, root) < 0 || parse_copies(p, t, root) < 0 ||
	    parse_uvm(p, t, root) < 0 ||
	    cuemu_topology_check(t, p->path, p->err, p->errlen) < 0)
		goto out;
	rc = 0;
out:
	json_decref(root);
	if (rc < 0)
		cuemu_topology_free(t);
	return rc;
}

int cuemu_topology_load(const char *path, struct cuemu_topology *t,
			char *err, size_t errlen)
{
	struct parse p = { path, err, errlen };
	json_error_t jerr;
	json_t *root;

	if (cuemu_topology_default(t) < 0) {
		snprintf(err, errlen, "%s: no memory", path);
		return -1;
	}
	root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		snprintf(err, errlen, "%s: line %d column %d: %s", path, jerr.line,
			 jerr.column, jerr.text);
		cuemu_topology_free(t);
		return -1;
	}
	return parse_root(&p, root, t);
}

int cuemu_topology_parse(const char *buf, size_t len, const char *what,
			 struct cuemu_topology *t, char *err, size_t errlen)
{
	struct parse p = { what, err, errlen };
	json_error_t jerr;
	json_t *root;

	if (cuemu_topology_default(t) < 0) {
		snprintf(err, errlen, "%s: no memory", what);
		return -1;
	}
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		snprintf(err, errlen, "%s: line %d column %d: %s", what, jerr.line,
			 jerr.column, jerr.text);
		cuemu_topology_free(t);
		return -1;
	}
	return parse_root(&p, root, t);
}

/* ---------------------------------------------------------------- checks */

/* A string of a fixed array is terminated inside it. */
static bool terminated(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

static int check_link(struct parse *p, const struct cuemu_link *l, int a,
		      int b)
{
	char f[64];

	snprintf(f, sizeof f, "links[%d][%d]", a, b);
	if (l->kind < 0 || l->kind > 4)
		return reject(p, f, "kind %d is not a link kind", l->kind);
	/* 0 (no link) or what the parser takes: a bandwidth near zero makes
	 * a copy's cost overflow. */
	if (!isfinite(l->gbps) || (l->gbps != 0 && l->gbps < 0.001) ||
	    l->gbps < 0 || l->gbps > 1e6)
		return reject(p, f, "bandwidth %g GB/s is not 0 or a number in "
			      "[0.001, 1e6]", l->gbps);
	if (l->lat_ns > 1000000000ULL)
		return reject(p, f, "latency %llu ns is over a second",
			      (unsigned long long)l->lat_ns);
	return 0;
}

/* A rate the cost functions can divide by and add up without overflow. */
static int check_rate(struct parse *p, const struct cuemu_rate *r, int kind)
{
	static const char *const names[CUEMU_RATE__COUNT] = {
		[CUEMU_RATE_PINNED_HTOD] = "copies.pinned_to_gpu",
		[CUEMU_RATE_PINNED_DTOH] = "copies.gpu_to_pinned",
		[CUEMU_RATE_PAGEABLE_HTOD] = "copies.pageable_to_gpu",
		[CUEMU_RATE_PAGEABLE_DTOH] = "copies.gpu_to_pageable",
		[CUEMU_RATE_PAGEABLE_HTOD_HOST] = "copies.pageable_to_gpu.host",
		[CUEMU_RATE_PAGEABLE_DTOH_HOST] = "copies.gpu_to_pageable.host",
		[CUEMU_RATE_DEVICE] = "copies.gpu_local",
		[CUEMU_RATE_MEMSET] = "copies.memset",
		[CUEMU_RATE_PEER] = "copies.gpu_to_gpu",
	};
	const char *f = names[kind];

	/* A peer copy's rate may be unset as a whole: the link's, then. */
	if (kind == CUEMU_RATE_PEER && r->gbps == 0 && r->lat_ns == 0 &&
	    r->small_bytes == 0 && r->small_lat_ns == 0)
		return 0;

	if (!isfinite(r->gbps) || r->gbps < 0.001 || r->gbps > 1e6)
		return reject(p, f, "bandwidth %g GB/s is not a number in "
			      "[0.001, 1e6]", r->gbps);
	if (r->lat_ns > 1000000000ULL || r->small_lat_ns > 1000000000ULL)
		return reject(p, f, "a latency is over a second");
	if (r->small_bytes > (1ULL << 40))
		return reject(p, f, "small_bytes %llu is over 1 TiB",
			      (unsigned long long)r->small_bytes);
	return 0;
}

/* What the compute term divides by (kernel.c): SMs, their clock and
 * issue rate, each within what a GPU could have. */
static int check_compute(struct parse *p, const struct cuemu_device_info *dev,
			 int d)
{
	const int *a = dev->attrs;
	char f[80];

	snprintf(f, sizeof f, "devices[%d].warp_issue_per_clock", d);
	if (dev->warp_issue < 1 || dev->warp_issue > WARP_ISSUE_MAX)
		return reject(p, f, "%d is not in [1, %d]", dev->warp_issue,
			      WARP_ISSUE_MAX);
	snprintf(f, sizeof f, "devices[%d].attributes.multiprocessor_count", d);
	if (a[CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT] < 1 ||
	    a[CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT] > SM_COUNT_MAX)
		return reject(p, f, "%d is not in [1, %d]",
			      a[CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT],
			      SM_COUNT_MAX);
	snprintf(f, sizeof f, "devices[%d].attributes.clock_rate", d);
	if (a[CU_DEVICE_ATTRIBUTE_CLOCK_RATE] < CLOCK_KHZ_MIN ||
	    a[CU_DEVICE_ATTRIBUTE_CLOCK_RATE] > CLOCK_KHZ_MAX)
		return reject(p, f, "%d kHz is not in [%d, %d]",
			      a[CU_DEVICE_ATTRIBUTE_CLOCK_RATE], CLOCK_KHZ_MIN,
			      CLOCK_KHZ_MAX);
	return 0;
}

static int check_device(struct parse *p, const struct cuemu_topology *t,
			int d)
{
	const struct cuemu_device_info *dev = &t->dev[d];
	char f[64];

	snprintf(f, sizeof f, "devices[%d].name", d);
	if (!terminated(dev->name, sizeof dev->name))
		return reject(p, f, "not terminated within %zu bytes",
			      sizeof dev->name);
	snprintf(f, sizeof f, "devices[%d].memory", d);
	if (dev->total == 0 || dev->total > (1ULL << 50))
		return reject(p, f, "%llu bytes is not in (0, 1 PiB]",
			      (unsigned long long)dev->total);
	snprintf(f, sizeof f, "devices[%d].numa_node", d);
	if (dev->numa_node < -1 || dev->numa_node >= t->nnuma)
		return reject(p, f, "%d is not -1 or a host node",
			      dev->numa_node);
	return check_compute(p, dev, d);
}

/* A device's attributes say the machine's paradigm, as it was made. */
static int check_paradigm(struct parse *p, const struct cuemu_topology *t,
			  int d)
{
	const int *a = t->dev[d].attrs;
	bool hmm = t->paradigm != CUEMU_SOFTWARE_COHERENT;
	bool hw = t->paradigm == CUEMU_HARDWARE_COHERENT;
	char f[64];

	snprintf(f, sizeof f, "devices[%d].attributes", d);
	if (a[CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS] != hmm ||
	    a[CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES]
	    != hw ||
	    a[CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST] != hw)
		return reject(p, f, "pageable and host access attributes are "
			      "not those of a %s machine",
			      cuemu_paradigm_name(t->paradigm));
	return 0;
}

/* Two GPUs are told apart by their UUIDs and their PCI addresses, as
 * CUDA_VISIBLE_DEVICES and cuDeviceGetByPCIBusId tell them (a UUID not
 * yet stamped, all zero, is not compared). */
static int check_distinct(struct parse *p, const struct cuemu_topology *t,
			  int d)
{
	static const uint8_t zero[16];
	const int *a = t->dev[d].attrs;
	char f[64];

	for (int e = 0; e < d; e++) {
		const int *b = t->dev[e].attrs;

		snprintf(f, sizeof f, "devices[%d].uuid", d);
		if (memcmp(t->dev[d].uuid, zero, 16) &&
		    !memcmp(t->dev[d].uuid, t->dev[e].uuid, 16))
			return reject(p, f, "the same as devices[%d]'s", e);
		snprintf(f, sizeof f, "devices[%d].attributes", d);
		if (a[CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID] ==
		    b[CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID] &&
		    a[CU_DEVICE_ATTRIBUTE_PCI_BUS_ID] ==
		    b[CU_DEVICE_ATTRIBUTE_PCI_BUS_ID] &&
		    a[CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID] ==
		    b[CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID])
			return reject(p, f, "the same PCI address as "
				      "devices[%d]", e);
	}
	return 0;
}

int cuemu_topology_check(const struct cuemu_topology *t, const char *what,
			 char *err, size_t errlen)
{
	struct parse p = { what, err, errlen };

	if (!terminated(t->name, sizeof t->name))
		return reject(&p, "name", "not terminated within %zu bytes",
			      sizeof t->name);
	if (t->ndev < 1 || t->ndev > CUEMU_MAX_DEVICES)
		return reject(&p, "device_count", "%d is not in [1, %d]",
			      t->ndev, CUEMU_MAX_DEVICES);
	if (t->nnuma < 0 || t->nnuma > CUEMU_NUMA_LIMIT)
		return reject(&p, "numa_nodes", "%d is not in [0, %d]",
			      t->nnuma, CUEMU_NUMA_LIMIT);
	if (!t->dev || !t->link || !t->numa_total)
		return reject(&p, "(top)", "no tables");
	if (!cuemu_paradigm_name(t->paradigm))
		return reject(&p, "memory_model", "%d is not a paradigm",
			      t->paradigm);
	for (int d = 0; d < t->ndev; d++)
		if (check_device(&p, t, d) < 0 || check_distinct(&p, t, d) < 0 ||
		    check_paradigm(&p, t, d) < 0)
			return -1;
	for (int a = 0; a <= t->ndev; a++)
		for (int b = 0; b <= t->ndev; b++)
			if (check_link(&p, &t->link[a * (t->ndev + 1) + b], a,
				       b) < 0)
				return -1;
	if (t->gpu_fault_ns > 1000000000ULL || t->cpu_fault_ns > 1000000000ULL)
		return reject(&p, "faults", "a fault service time is over a "
			      "second");
	for (int k = 0; k < CUEMU_RATE__COUNT; k++)
		if (check_rate(&p, &t->copy[k], k) < 0)
			return -1;
	if (check_uvm(&p, &t->uvm) < 0)
		return -1;
	return 0;
}
