/*
 * nvml_topo.c - libnvidia-ml's answers about where a device sits and who
 * uses it: CPU and NUMA affinity, NVLink state, capabilities and remote
 * PCI info, field values (the NVLink count), topology common ancestor,
 * P2P status and the processes using each device. Links and peers come
 * from the machine through gpuview, the same functions that answer
 * cuDeviceCanAccessPeer and cuDeviceGetP2PAttribute.
 *
 * NVLink numbering: link i of a device leads to its i-th NVLink peer by
 * index, one link per peer (libnvidia-ml-cuemu(3)).
 *
 * No state of its own, no locks.
 */
#include "nvml/nvml_impl.h"

#include <numa.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------- affinity */

/* Sets bit i of a set of size words. */
static void set_bit(unsigned long *set, unsigned int size, unsigned int i)
{
	unsigned int w = i / (8 * sizeof *set);

	if (w < size)
		set[w] |= 1UL << (i % (8 * sizeof *set));
}

/* The host CPUs of the device's NUMA node where the host has that node,
 * else every CPU the host has configured. */
static void cpus_of(int node, unsigned long *set, unsigned int size)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	struct bitmask *bm;

	memset(set, 0, size * sizeof *set);
	if (node >= 0 && numa_available() >= 0 && node <= numa_max_node() &&
	    (bm = numa_allocate_cpumask())) {
		if (numa_node_to_cpus(node, bm) == 0) {
			for (unsigned int c = 0; c < bm->size; c++)
				if (numa_bitmask_isbitset(bm, c))
					set_bit(set, size, c);
			numa_free_cpumask(bm);
			return;
		}
		numa_free_cpumask(bm);
	}
	for (long c = 0; c < ncpu; c++)
		set_bit(set, size, (unsigned int)c);
}

nvmlReturn_t nvmlDeviceGetCpuAffinityWithinScope(nvmlDevice_t device,
		unsigned int cpuSetSize, unsigned long *cpuSet,
		nvmlAffinityScope_t scope)
{
	struct cuemuGpu g;
	int d;
	nvmlReturn_t r = nvml_dev(device, &d);

	if (r != NVML_SUCCESS)
		return r;
	if (!cpuSet || !cpuSetSize || (scope != NVML_AFFINITY_SCOPE_NODE &&
				       scope != NVML_AFFINITY_SCOPE_SOCKET))
		return NVML_ERROR_INVALID_ARGUMENT;
	if (cuemuGpuInfo(d, &g) < 0)
		return NVML_ERROR_GPU_IS_LOST;
	cpus_of(g.numa_node, cpuSet, cpuSetSize);
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetCpuAffinity(nvmlDevice_t device,
				      unsigned int cpuSetSize,
				      unsigned long *cpuSet)
{
	return nvmlDeviceGetCpuAffinityWithinScope(device, cpuSetSize, cpuSet,
						   NVML_AFFINITY_SCOPE_NODE);
}

/* The emulated NUMA node of the device (no bit for one with none). */
nvmlReturn_t nvmlDeviceGetMemoryAffinity(nvmlDevice_t device,
		unsigned int nodeSetSize, unsigned long *nodeSet,
		nvmlAffinityScope_t scope)
{
	struct cuemuGpu g;
	int d;
	nvmlReturn_t r = nvml_dev(device, &d);

	if (r != NVML_SUCCESS)
		return r;
	if (!nodeSet || !nodeSetSize || (scope != NVML_AFFINITY_SCOPE_NODE &&
					 scope != NVML_AFFINITY_SCOPE_SOCKET))
		return NVML_ERROR_INVALID_ARGUMENT;
	if (cuemuGpuInfo(d, &g) < 0)
		return NVML_ERROR_GPU_IS_LOST;
	memset(nodeSet, 0, nodeSetSize * sizeof *nodeSet);
	if (g.numa_node >= 0)
		set_bit(nodeSet, nodeSetSize, (unsigned int)g.numa_node);
	return NVML_SUCCESS;
}

/* ---------------------------------------------------------- NVLink */

/* The peer on a device's link: NVML_SUCCESS with *peer, or the error for
 * a link number out of range (INVALID_ARGUMENT) or with nothing behind it
 * (NOT_SUPPORTED). */
static nvmlReturn_t link_peer(nvmlDevice_t device, unsigned int link,
			      const void *p, int *peer)
{
	int d;
	nvmlReturn_t r = nvml_dev(device, &d);

	if (r != NVML_SUCCESS)
		return r;
	if (!p || link >= NVML_NVLINK_MAX_LINKS)
		return NVML_ERROR_INVALID_ARGUMENT;
	if ((*peer = cuemuGpuNvlinkPeer(d, (int)link)) < 0)
		return NVML_ERROR_NOT_SUPPORTED;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetNvLinkState(nvmlDevice_t device, unsigned int link,
				      nvmlEnableState_t *isActive)
{
	int peer;
	nvmlReturn_t r = link_peer(device, link, isActive, &peer);

	if (r == NVML_SUCCESS)
		*isActive = NVML_FEATURE_ENABLED;
	return r;
}

nvmlReturn_t nvmlDeviceGetNvLinkCapability(nvmlDevice_t device,
		unsigned int link, nvmlNvLinkCapability_t capability,
		unsigned int *capResult)
{
	int peer;
	nvmlReturn_t r = link_peer(device, link, capResult, &peer);

	if (r != NVML_SUCCESS)
		return r;
	switch (capability) {
	case NVML_NVLINK_CAP_P2P_SUPPORTED:
	case NVML_NVLINK_CAP_P2P_ATOMICS:
	case NVML_NVLINK_CAP_VALID:
		*capResult = 1;
		break;
	case NVML_NVLINK_CAP_SYSMEM_ACCESS:  /* the host is on PCIe */
	case NVML_NVLINK_CAP_SYSMEM_ATOMICS:
	case NVML_NVLINK_CAP_SLI_BRIDGE:
		*capResult = 0;
		break;
	default:
		return NVML_ERROR_INVALID_ARGUMENT;
	}
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetNvLinkRemotePciInfo_v2(nvmlDevice_t device,
		unsigned int link, nvmlPciInfo_t *pci)
{
	struct cuemuGpu g;
	int peer;
	nvmlReturn_t r = link_peer(device, link, pci, &peer);

	if (r != NVML_SUCCESS)
		return r;
	if (cuemuGpuInfo(peer, &g) < 0)
		return NVML_ERROR_GPU_IS_LOST;
	nvml_pci_fill(&g, pci);
	return NVML_SUCCESS;
}

#undef nvmlDeviceGetNvLinkRemotePciInfo
nvmlReturn_t nvmlDeviceGetNvLinkRemotePciInfo(nvmlDevice_t device,
		unsigned int link, nvmlPciInfo_t *pci);
nvmlReturn_t nvmlDeviceGetNvLinkRemotePciInfo(nvmlDevice_t device,
		unsigned int link, nvmlPciInfo_t *pci)
{
	return nvmlDeviceGetNvLinkRemotePciInfo_v2(device, link, pci);
}

nvmlReturn_t nvmlDeviceGetFieldValues(nvmlDevice_t device, int valuesCount,
				      nvmlFieldValue_t *values)
{
	struct timespec ts;
	int d;
	nvmlReturn_t r = nvml_dev(device, &d);

	if (r != NVML_SUCCESS)
		return r;
	if (!values || valuesCount <= 0)
		return NVML_ERROR_INVALID_ARGUMENT;
	clock_gettime(CLOCK_REALTIME, &ts);
	for (int i = 0; i < valuesCount; i++) {
		nvmlFieldValue_t *v = &values[i];

		v->timestamp = (long long)ts.tv_sec * 1000000 +
			       ts.tv_nsec / 1000;
		v->latencyUsec = 0;
		if (v->fieldId == NVML_FI_DEV_NVLINK_LINK_COUNT) {
			v->valueType = NVML_VALUE_TYPE_UNSIGNED_INT;
			v->value.uiVal = (unsigned int)cuemuGpuNvlinkCount(d);
			v->nvmlReturn = NVML_SUCCESS;
		} else {
			v->nvmlReturn = NVML_ERROR_NOT_SUPPORTED;
		}
	}
	return NVML_SUCCESS;
}

/* ---------------------------------------------------------- topology */

/* Two devices and the pointer checks, in the vendor's order. */
static nvmlReturn_t dev_pair(nvmlDevice_t a, nvmlDevice_t b, const void *p,
			     struct cuemuGpu *ga, struct cuemuGpu *gb,
			     int *da, int *db)
{
	nvmlReturn_t r;

	if ((r = nvml_dev(a, da)) != NVML_SUCCESS ||
	    (r = nvml_dev(b, db)) != NVML_SUCCESS)
		return r;
	if (!p)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (cuemuGpuInfo(*da, ga) < 0 || cuemuGpuInfo(*db, gb) < 0)
		return NVML_ERROR_GPU_IS_LOST;
	return NVML_SUCCESS;
}

/* The same device is INTERNAL; two on one host NUMA node meet at that
 * node (each H200 has a PCIe switch of its own), others across the
 * sockets' interconnect (SYSTEM). */
nvmlReturn_t nvmlDeviceGetTopologyCommonAncestor(nvmlDevice_t device1,
		nvmlDevice_t device2, nvmlGpuTopologyLevel_t *pathInfo)
{
	struct cuemuGpu a, b;
	int da, db;
	nvmlReturn_t r = dev_pair(device1, device2, pathInfo, &a, &b, &da, &db);

	if (r != NVML_SUCCESS)
		return r;
	if (da == db)
		*pathInfo = NVML_TOPOLOGY_INTERNAL;
	else if (a.numa_node == b.numa_node)
		*pathInfo = NVML_TOPOLOGY_NODE;
	else
		*pathInfo = NVML_TOPOLOGY_SYSTEM;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetP2PStatus(nvmlDevice_t device1,
		nvmlDevice_t device2, nvmlGpuP2PCapsIndex_t p2pIndex,
		nvmlGpuP2PStatus_t *p2pStatus)
{
	struct cuemuGpu a, b;
	int da, db, link;
	nvmlReturn_t r = dev_pair(device1, device2, p2pStatus, &a, &b, &da,
				  &db);

	if (r != NVML_SUCCESS)
		return r;
	if ((unsigned)p2pIndex >= NVML_P2P_CAPS_INDEX_UNKNOWN)
		return NVML_ERROR_INVALID_ARGUMENT;
	link = cuemuGpuLink(da, db);
	if (p2pIndex == NVML_P2P_CAPS_INDEX_NVLINK)
		link = link == CUEMU_GPU_NVLINK;
	*p2pStatus = link ? NVML_P2P_STATUS_OK : NVML_P2P_STATUS_NOT_SUPPORTED;
	return NVML_SUCCESS;
}

/* ---------------------------------------------------------- processes */

/* The processes of a device into infos of *count entries: each of size
 * bytes, written by put. The vendor's protocol: a short or absent array
 * gets the count needed and NVML_ERROR_INSUFFICIENT_SIZE. */
static nvmlReturn_t list_procs(nvmlDevice_t device, unsigned int *count,
			       void *infos, size_t size, bool graphics,
			       void (*put)(void *, const struct cuemuGpuProc *))
{
	struct cuemuGpuProc p[NVML_CUEMU_MAX_PROCS];
	int d, n;
	nvmlReturn_t r = nvml_dev(device, &d);

	if (r != NVML_SUCCESS)
		return r;
	if (!count || (!infos && *count))
		return NVML_ERROR_INVALID_ARGUMENT;
	/* Every emulated process is a compute one; none draws. */
	n = graphics ? 0 : cuemuGpuProcesses(d, p, NVML_CUEMU_MAX_PROCS);
	if (n > NVML_CUEMU_MAX_PROCS)
		n = NVML_CUEMU_MAX_PROCS;
	if (*count < (unsigned int)n) {
		*count = (unsigned int)n;
		return NVML_ERROR_INSUFFICIENT_SIZE;
	}
	for (int i = 0; i < n; i++)
		put((char *)infos + (size_t)i * size, &p[i]);
	*count = (unsigned int)n;
	return NVML_SUCCESS;
}

static void put_v1(void *to, const struct cuemuGpuProc *p)
{
	nvmlProcessInfo_v1_t *i = to;

	i->pid = (unsigned int)p->pid;
	i->usedGpuMemory = p->used;
}

static void put_v2(void *to, const struct cuemuGpuProc *p)
{
	nvmlProcessInfo_t *i = to;

	i->pid = (unsigned int)p->pid;
	i->usedGpuMemory = p->used;
	i->gpuInstanceId = 0xffffffffu;    /* no MIG */
	i->computeInstanceId = 0xffffffffu;
}

nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t device,
		unsigned int *infoCount, nvmlProcessInfo_t *infos)
{
	return list_procs(device, infoCount, infos, sizeof *infos, false,
			  put_v2);
}

nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v2(nvmlDevice_t device,
		unsigned int *infoCount, nvmlProcessInfo_t *infos);
nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v2(nvmlDevice_t device,
		unsigned int *infoCount, nvmlProcessInfo_t *infos)
{
	return list_procs(device, infoCount, infos, sizeof *infos, false,
			  put_v2);
}

#undef nvmlDeviceGetComputeRunningProcesses
nvmlReturn_t nvmlDeviceGetComputeRunningProcesses(nvmlDevice_t device,
		unsigned int *infoCount, nvmlProcessInfo_v1_t *infos);
nvmlReturn_t nvmlDeviceGetComputeRunningProcesses(nvmlDevice_t device,
		unsigned int *infoCount, nvmlProcessInfo_v1_t *infos)
{
	return list_procs(device, infoCount, infos, sizeof *infos, false,
			  put_v1);
}

nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses_v3(nvmlDevice_t device,
		unsigned int *infoCount, nvmlProcessInfo_t *infos)
{
	return list_procs(device, infoCount, infos, sizeof *infos, true,
			  put_v2);
}

nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses_v2(nvmlDevice_t device,
		unsigned int *infoCount, nvmlProcessInfo_t *infos);
nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses_v2(nvmlDevice_t device,
		unsigned int *infoCount, nvmlProcessInfo_t *infos)
{
	return list_procs(device, infoCount, infos, sizeof *infos, true,
			  put_v2);
}

#undef nvmlDeviceGetGraphicsRunningProcesses
nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses(nvmlDevice_t device,
		unsigned int *infoCount, nvmlProcessInfo_v1_t *infos);
nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses(nvmlDevice_t device,
		unsigned int *infoCount, nvmlProcessInfo_v1_t *infos)
{
	return list_procs(device, infoCount, infos, sizeof *infos, true,
			  put_v1);
}

/* No MPS server runs on the emulated machine. */
nvmlReturn_t nvmlDeviceGetMPSComputeRunningProcesses_v3(nvmlDevice_t device,
		unsigned int *infoCount, nvmlProcessInfo_t *infos)
{
	return list_procs(device, infoCount, infos, sizeof *infos, true,
			  put_v2);
}
