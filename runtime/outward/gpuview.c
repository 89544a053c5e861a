/*
 * gpuview.c - the machine's devices, links and process table as plain
 * structures for libnvidia-ml (nvml/), which has no CUDA process of its
 * own: the answers come from the same model functions the driver entries
 * use (names, UUIDs, PCI addresses, peer links, memory use), so NVML and
 * CUDA cannot disagree about a device. Declared in cuemu-private.h.
 *
 * No state of its own, no locks beyond the model's (the process table's).
 */
#include "model/internal.h"
#include "model/context.h"
#include "outward/cuemu-private.h"

#include <stdio.h>
#include <string.h>

int cuemuGpuAttach(const char **why)
{
	if (cuemu_machine_attach() == 0)
		return 0;
	*why = cuemu_errmsg();
	return -1;
}

int cuemuGpuCount(void)
{
	return cuemu_device_count();
}

int cuemuGpuInfo(int dev, struct cuemuGpu *out)
{
	const struct cuemu_device_info *info = cuemu_device(dev);
	uint64_t used;

	if (!info)
		return -1;
	memset(out, 0, sizeof *out);
	snprintf(out->name, sizeof out->name, "%s", info->name);
	memcpy(out->uuid, info->uuid, sizeof out->uuid);
	cuemu_device_pci(dev, &out->domain, &out->bus, &out->slot);
	out->pci_id = (unsigned int)
		info->attrs[CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID];
	out->pci_subsys = (unsigned int)
		info->attrs[CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID];
	out->total = info->total;
	used = cuemu_mem_used(dev);
	out->used = used;
	out->numa_node = info->numa_node;
	return 0;
}

int cuemuGpuByBusId(const char *busid)
{
	return cuemu_device_by_bus_id(busid);
}

int cuemuGpuLink(int a, int b)
{
	const struct cuemu_link *l;

	if (a == b || !(l = cuemu_link(a, b)))
		return 0;
	return cuemu_peer_link(a, b) ? l->kind : 0;
}

/* Link i of dev is its i-th NVLink peer by index. */
int cuemuGpuNvlinkPeer(int dev, int link)
{
	for (int p = 0; p < cuemu_device_count() && link >= 0; p++)
		if (cuemuGpuLink(dev, p) == CUEMU_GPU_NVLINK && link-- == 0)
			return p;
	return -1;
}

int cuemuGpuNvlinkCount(int dev)
{
	int n = 0;

	while (cuemuGpuNvlinkPeer(dev, n) >= 0)
		n++;
	return n;
}

int cuemuGpuProcesses(int dev, struct cuemuGpuProc *out, int max)
{
	struct cuemu_proc_use rows[CUEMU_MAX_PROCS];
	int n = cuemu_machine_procs(rows, CUEMU_MAX_PROCS), k = 0;

	if (n > CUEMU_MAX_PROCS)
		n = CUEMU_MAX_PROCS;
	for (int i = 0; i < n; i++) {
		if (!rows[i].used[dev])
			continue;
		if (k < max) {
			out[k].pid = rows[i].pid;
			out[k].used = rows[i].used[dev];
		}
		k++;
	}
	return k;
}
