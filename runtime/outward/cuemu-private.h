/*
 * cuemu-private.h - what libcuemu exports for cufs and nothing else: the
 * machine as JSON and where control sockets live. Not installed; the names
 * carry the cuemu prefix only because the library exports no other names.
 * Defined in runtime/outward/machine.c (the JSON) and control.c (the
 * run directory). No state of its own.
 */
#ifndef CUEMU_PRIVATE_H
#define CUEMU_PRIVATE_H

#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The machine named by CUEMU_MACHINE (attached read-write, created from
 * CUEMU_TOPOLOGY or the default if no process made it yet) as malloc'd
 * JSON text:
 *   {"name":..., "devices":[{"index","name","uuid","pci_bus_id","total_memory",
 *     "used_memory","free_memory","numa_node","peers":[...],
 *     "links":{"gpu1":{"kind","gbps","latency_ns"},...},"counters":{...}}],
 *    "cpu":{"numa_nodes":N,"node0":{"memory":{"total_memory",
 *     "free_memory"}},...,"links":{...},"counters":{...}}}
 * or {"error":"<why>"} when the segment cannot be attached. NULL only when
 * memory runs out. The caller frees it. */
char *cuemuMachineJson(void);
/* One part of that: device index's object, or the "cpu" object for -1;
 * {"error":"..."} for a device that does not exist or a machine that
 * cannot be attached. The caller frees it. */
char *cuemuDeviceJson(int index);
/* The machine without its parts: {"name", "machine", "memory_model",
 * "device_count"}, or {"error":...}: what a listing of devices/ needs,
 * at no cost per device. The caller frees it. */
char *cuemuMachineSummaryJson(void);
/* The same three as jansson objects, for a caller in the same program
 * that walks them (cufs): no text made only to be parsed again. NULL only
 * when memory runs out. The caller takes the reference. */
struct json_t *cuemuMachineObject(void);
struct json_t *cuemuMachineSummaryObject(void);
struct json_t *cuemuDeviceObject(int index);
/* This program only reads the machine (cufs): call before any of the
 * above. It then takes no lock another process could hold, writes
 * nothing to the machine segment, and reads it through a private copy,
 * so a segment truncated under it answers {"error":...} (the size it has
 * and had), never SIGBUS. */
void cuemuMachineReadOnly(void);
/* Removes the machine segment name (cufs --remove-machine): 0, or a
 * negative errno with why written into why: not a machine's name or
 * segment (-EINVAL), none (-ENOENT), another user's (-EPERM), processes
 * attached to it (-EBUSY). */
int cuemuMachineRemove(const char *name, char *why, size_t len);
/* Member key of device index's object, the value cuemuDeviceObject has
 * there, built alone: what a read of one of its files needs. 0 and *out
 * (the caller takes the reference); -ENOENT for a device or a key that
 * does not exist; -EIO and *why where the machine cannot be attached. */
int cuemuDeviceMember(int index, const char *key, struct json_t **out,
		      const char **why);
/* The "error" of cuemuDeviceJson for an index that names no device. */
#define CUEMU_NO_SUCH_DEVICE "no such device"

/* Writes the control socket directory into buf: CUEMU_RUNDIR, else
 * $XDG_RUNTIME_DIR/cuemu, else /run/cuemu. 0, or -1 (ENAMETOOLONG). */
int cuemuRundir(char *buf, size_t len);

/* The address of dir's control socket of pid, <dir>/<pid>.sock, for
 * bind(2) or connect(2) however deep dir lies (it is reached through a
 * descriptor of dir: /proc/self/fd/N/<pid>.sock). Answers that
 * descriptor, to be closed once the call is made, or -1 with errno (dir
 * cannot be opened). */
struct sockaddr_un;
int cuemuCtlAddr(const char *dir, pid_t pid, struct sockaddr_un *sa);

/* The longest request line the control server accepts (answers may be
 * longer: a snapshot has no bound). */
#define CUEMU_CTL_MAX_LINE 65536
/* The longest path a request may name. */
#define CUEMU_CTL_MAX_PATH 4096

/* ------------------------------------------------ the machine for NVML
 * Plain structures for libnvidia-ml (nvml/, outward/gpuview.c), which
 * attaches to the machine without a CUDA process of its own. */

/* Attaches to the machine as cufs does; 0, or -1 with *why set. */
int cuemuGpuAttach(const char **why);
int cuemuGpuCount(void);
struct cuemuGpu {
	char name[64];
	unsigned char uuid[16];     /* cuDeviceGetUuid's bytes */
	int domain, bus, slot;      /* cuDeviceGetPCIBusId's address */
	unsigned int pci_id;        /* device id << 16 | vendor id */
	unsigned int pci_subsys;
	unsigned long long total, used; /* bytes; used: the machine's use */
	int numa_node;              /* host NUMA node, or -1 */
};
/* 0, or -1 for an index that names no device. */
int cuemuGpuInfo(int dev, struct cuemuGpu *out);
/* The device at a PCI bus id as cuDeviceGetByPCIBusId reads it: its
 * index, -1 for none, -2 for text that is not a bus id. */
int cuemuGpuByBusId(const char *busid);
/* The peer link between two devices, as cuDeviceCanAccessPeer sees it:
 * 0 none, else the link's kind. */
#define CUEMU_GPU_NVLINK 1
#define CUEMU_GPU_PCIE 2
int cuemuGpuLink(int a, int b);
/* NVLink link i of dev leads to its i-th NVLink peer (by index): that
 * peer, or -1; and how many links dev has. */
int cuemuGpuNvlinkPeer(int dev, int link);
int cuemuGpuNvlinkCount(int dev);
/* The live processes holding memory on dev (the machine's process table):
 * at most max into out, and the count, which may be more. */
struct cuemuGpuProc {
	int pid;
	unsigned long long used;
};
int cuemuGpuProcesses(int dev, struct cuemuGpuProc *out, int max);

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_PRIVATE_H */
