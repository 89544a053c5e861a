/*
 * machine.c - the machine as cufs shows it under /cu/devices: each device
 * with its memory, use, links and counters, and the host's NUMA nodes, as
 * JSON (cuemuMachineObject, cuemuMachineJson, cuemu-private.h), and removes
 * an idle machine for cufs (cuemuMachineRemove). It reads the machine
 * segment through the model; no state of its own, no locks.
 */
#include "model/internal.h"
#include "outward/outward.h"
#include "outward/cuemu-private.h"

#include <errno.h>
#include <numa.h>
#include <stdlib.h>
#include <string.h>

static const char *link_kind(int kind)
{
	static const char *const k[] = { "none", "nvlink", "pcie", "local",
					 "c2c" };

	return kind >= 0 && kind < 5 ? k[kind] : "unknown";
}

static json_t *counters_json(int proc)
{
	json_t *o = json_object();

	for (int c = 0; c < CUEMU_CTR__COUNT; c++)
		json_object_set_new(o, cuemu_counter_names[c], cuemu_json_u64(
			cuemu_counter_get(proc, (enum cuemu_counter)c)));
	return o;
}

/* The link from one processor to another, or NULL where there is none. */
static const struct cuemu_link *link_to(int from, int to)
{
	const struct cuemu_link *l;

	if ((to < CUEMU_PROC_HOST && to >= cuemu_device_count()) ||
	    to == from || !(l = cuemu_link(from, to)) || !l->kind)
		return NULL;
	return l;
}

static json_t *links_json(int from)
{
	json_t *links = json_object();
	const struct cuemu_link *l;
	char w[16];

	for (int to = 0; to < CUEMU_NPROC; to = cuemu_proc_next(to)) {
		if (!(l = link_to(from, to)))
			continue;
		cuemu_proc_str(to, w, sizeof w);
		json_object_set_new(links, w, json_pack("{s:s,s:f,s:I}",
			"kind", link_kind(l->kind), "gbps", l->gbps,
			"latency_ns", (json_int_t)l->lat_ns));
	}
	return links;
}

/* The devices a device has a link to. */
static json_t *peers_json(int from)
{
	json_t *peers = json_array();
	char w[16];

	for (int to = 0; to < CUEMU_PROC_HOST; to = cuemu_proc_next(to)) {
		if (!link_to(from, to))
			continue;
		cuemu_proc_str(to, w, sizeof w);
		json_array_append_new(peers, json_string(w));
	}
	return peers;
}

/* A device's members in the order its object lists them. */
static const char *const device_keys[] = {
	"index", "name", "uuid", "pci_bus_id", "total_memory", "used_memory",
	"free_memory", "numa_node", "peers", "links", "counters",
};

/* Member key of device d, built alone (a read of devices/gpu0/total_memory
 * pays for that number, not for the links and counters beside it), or
 * NULL for a key a device does not have. */
static json_t *device_member(int d, const char *key)
{
	const struct cuemu_device_info *info = cuemu_device(d);
	uint64_t used;
	char text[48];

	if (!strcmp(key, "index"))
		return json_integer(d);
	if (!strcmp(key, "name"))
		return json_string(info->name);
	if (!strcmp(key, "uuid")) {
		cuemu_uuid_str(info->uuid, text, sizeof text);
		return json_string(text);
	}
	if (!strcmp(key, "pci_bus_id")) {
		cuemu_pci_str(info, text, sizeof text);
		return json_string(text);
	}
	if (!strcmp(key, "total_memory"))
		return cuemu_json_u64(info->total);
	if (!strcmp(key, "used_memory") || !strcmp(key, "free_memory")) {
		used = cuemu_mem_used(d);
		return cuemu_json_u64(key[0] == 'u' ? used : used < info->total ?
				      info->total - used : 0);
	}
	if (!strcmp(key, "numa_node"))
		return json_integer(info->numa_node);
	if (!strcmp(key, "peers"))
		return peers_json(d);
	if (!strcmp(key, "links"))
		return links_json(d);
	if (!strcmp(key, "counters"))
		return counters_json(d);
	return NULL;
}

static json_t *device_json(int d)
{
	json_t *o = json_object();

	for (size_t i = 0; i < sizeof device_keys / sizeof *device_keys; i++)
		json_object_set_new(o, device_keys[i],
				    device_member(d, device_keys[i]));
	return o;
}

/* devices/cpu: node<N>/memory for each host NUMA node, so that each node
 * is a directory (an object of objects). */
static json_t *cpu_json(void)
{
	json_t *cpu = json_pack("{s:i}", "numa_nodes", cuemu_numa_count());
	char key[16];

	for (int n = 0; n < cuemu_numa_count(); n++) {
		json_t *mem = json_pack("{s:I}", "total_memory",
					(json_int_t)cuemu_numa_total(n));
		long long fr = -1;

		/* Free memory is the kernel's, where the node is real. */
		if (numa_available() >= 0 && n <= numa_max_node() &&
		    numa_node_size64(n, &fr) >= 0 && fr >= 0)
			json_object_set_new(mem, "free_memory", json_integer(fr));
		snprintf(key, sizeof key, "node%d", n);
		json_object_set_new(cpu, key, json_pack("{s:o}", "memory", mem));
	}
	json_object_set_new(cpu, "links", links_json(CUEMU_PROC_HOST));
	json_object_set_new(cpu, "counters", counters_json(CUEMU_PROC_HOST));
	return cpu;
}

/* The text of o (or of the reason the machine cannot be attached). */
static char *text_of(json_t *o)
{
	char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;

	json_decref(o);
	return s;
}

int cuemuMachineRemove(const char *name, char *why, size_t len)
{
	return cuemu_machine_remove(name, why, len);
}

void cuemuMachineReadOnly(void)
{
	cuemu_machine_read_only();
}

/* Why the machine cannot be attached, and whether the library said so on
 * stderr already ("told"), so that cufs does not say it twice. */
static json_t *attach_error(void)
{
	return json_pack("{s:s,s:b}", "error", cuemu_errmsg(), "told",
			 cuemu_errmsg_told());
}

json_t *cuemuMachineObject(void)
{
	json_t *devs;

	if (cuemu_machine_attach() < 0)
		return attach_error();
	devs = json_array();
	for (int d = 0; d < cuemu_device_count(); d++)
		json_array_append_new(devs, device_json(d));
	return json_pack("{s:s,s:s,s:s,s:o,s:o}", "name", cuemu_machine_name(),
			 "machine", cuemu_machine_id(), "memory_model",
			 cuemu_machine_paradigm(), "devices", devs,
			 "cpu", cpu_json());
}

json_t *cuemuMachineSummaryObject(void)
{
	if (cuemu_machine_attach() < 0)
		return attach_error();
	return json_pack("{s:s,s:s,s:s,s:i}", "name", cuemu_machine_name(),
			 "machine", cuemu_machine_id(), "memory_model",
			 cuemu_machine_paradigm(), "device_count",
			 cuemu_device_count());
}

/* One device's part alone: a read of devices/gpu0/total_memory pays for
 * gpu0, not for every device and the host's NUMA nodes (whose free memory
 * the kernel gives through sysfs, the costly part). */
json_t *cuemuDeviceObject(int index)
{
	if (cuemu_machine_attach() < 0)
		return attach_error();
	if (index == -1)
		return cpu_json();
	if (index < 0 || index >= cuemu_device_count())
		return json_pack("{s:s}", "error", CUEMU_NO_SUCH_DEVICE);
	return device_json(index);
}

int cuemuDeviceMember(int index, const char *key, json_t **out,
		      const char **why)
{
	*out = NULL;
	if (cuemu_machine_attach() < 0) {
		*why = cuemu_errmsg();
		return -EIO;
	}
	if (index < 0 || index >= cuemu_device_count() ||
	    !(*out = device_member(index, key)))
		return -ENOENT;
	return 0;
}

char *cuemuMachineJson(void)
{
	return text_of(cuemuMachineObject());
}

char *cuemuMachineSummaryJson(void)
{
	return text_of(cuemuMachineSummaryObject());
}

char *cuemuDeviceJson(int index)
{
	return text_of(cuemuDeviceObject(index));
}
