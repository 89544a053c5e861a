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
/* The "error" of cuemuDeviceJson for an index that names no device. */
#define CUEMU_NO_SUCH_DEVICE "no such device"

/* Writes the control socket directory into buf: CUEMU_RUNDIR, else
 * $XDG_RUNTIME_DIR/cuemu, else /run/cuemu. 0, or -1 (ENAMETOOLONG). */
int cuemuRundir(char *buf, size_t len);

/* The longest request line the control server accepts (answers may be
 * longer: a snapshot has no bound). */
#define CUEMU_CTL_MAX_LINE 65536
/* The longest path a request may name. */
#define CUEMU_CTL_MAX_PATH 4096

#ifdef __cplusplus
}
#endif

#endif /* CUEMU_PRIVATE_H */
