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

/* NVML numbers the machine's GPUs by machine index, as the real library
 * ignores CUDA_VISIBLE_DEVICES. */
int cuemuGpuCount(void)
{
	return cuemu_machine_gpu_count();
}

int cuemuGpuInfo(int dev, struct cuemuGpu *out)
{
	const struct cuemu_device_info *info = cuemu_machine_gpu(dev);

	if (!info)
		return -1;
	memset(out, 0, sizeof *out);
	snprintf(out->name, sizeof out->name, "%s", info->name);
	memcpy(out->uuid, info->uuid, sizeof out->uuid);
	cuemu_device_pci(info, &out->domain, &out->bus, &out->slot);
	out->pci_id = (unsigned int)
		info->attrs[CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID];
	out->pci_subsys = (unsigned int)
		info->attrs[CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID];
	out->total = info->total;
	out->used = cuemu_machine_gpu_used(dev);
	out->numa_node = info->numa_node;
	return 0;
}

int cuemuGpuByBusId(const char *busid)
{
	return cuemu_machine_gpu_by_bus_id(busid);
}

/* The link cuDeviceCanAccessPeer answers from (cuemu_peer_link). */
int cuemuGpuLink(int a, int b)
{
	return cuemu_machine_gpu_link(a, b);
}

/* Link i of dev is its i-th NVLink peer by index. */
int cuemuGpuNvlinkPeer(int dev, int link)
{
	for (int p = 0; p < cuemu_machine_gpu_count() && link >= 0; p++)
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
	int pids[CUEMU_MAX_PROCS];
	uint64_t used[CUEMU_MAX_PROCS];
	int n = cuemu_machine_gpu_procs(dev, pids, used, CUEMU_MAX_PROCS);

	for (int i = 0; i < n && i < CUEMU_MAX_PROCS && i < max; i++) {
		out[i].pid = pids[i];
		out[i].used = used[i];
	}
	return n;
}
