/*
 * test_nvml.c - libnvidia-ml on the emulated machine: what NVML says of
 * each device (name, UUID, PCI address, memory, links, peers) is what the
 * CUDA side says of the same device; the processes using a device with
 * their memory, this one's and another's; the error cases and the
 * initialization count; an entry of the unsupported list.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nvml.h"
#include "tap.h"

#define MIB (1ULL << 20)

/* One of the generated NOT_SUPPORTED entries (nvml/unsupported_list.h). */
nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device, int sensor,
				      unsigned int *temp);

static int child_out[2], child_in[2];

/* A second process holding 64 MiB on the last device until told to go.
 * Forked before this process touches the API. */
static pid_t start_holder(void)
{
	pid_t pid;

	if (pipe(child_out) || pipe(child_in) || (pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		CUdeviceptr p;
		CUcontext c;
		int n = 0;
		char b = 'x';

		if (cuInit(0) || cuDeviceGetCount(&n) ||
		    cuDevicePrimaryCtxRetain(&c, n - 1) || cuCtxSetCurrent(c) ||
		    cuMemAlloc(&p, 64 * MIB))
			b = 'e';
		if (write(child_out[1], &b, 1) != 1 ||
		    read(child_in[0], &b, 1) < 0)
			_exit(1);
		_exit(0);
	}
	return pid;
}

static bool has_pid(nvmlDevice_t h, pid_t pid, unsigned long long *used)
{
	nvmlProcessInfo_t p[64];
	unsigned int n = 64;

	if (nvmlDeviceGetComputeRunningProcesses_v3(h, &n, p) != NVML_SUCCESS)
		return false;
	for (unsigned int i = 0; i < n; i++)
		if (p[i].pid == (unsigned int)pid) {
			*used = p[i].usedGpuMemory;
			return true;
		}
	return false;
}

static void uuid_text(const CUuuid *u, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "GPU-");

	for (int i = 0; i < 16; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%02x",
				      i == 4 || i == 6 || i == 8 || i == 10 ?
				      "-" : "", (unsigned char)u->bytes[i]);
}

static void before_init(void)
{
	unsigned int n;
	nvmlDevice_t h;

	is_int(nvmlDeviceGetCount_v2(&n), NVML_ERROR_UNINITIALIZED,
	       "before nvmlInit: device count is UNINITIALIZED");
	is_int(nvmlDeviceGetHandleByIndex_v2(0, &h), NVML_ERROR_UNINITIALIZED,
	       "before nvmlInit: handle by index is UNINITIALIZED");
	is_int(nvmlDeviceGetTemperature(NULL, 0, &n), NVML_ERROR_UNINITIALIZED,
	       "before nvmlInit: an unsupported entry is UNINITIALIZED");
	is_int(nvmlShutdown(), NVML_ERROR_UNINITIALIZED,
	       "nvmlShutdown without nvmlInit is UNINITIALIZED");
	is_int(nvmlInitWithFlags(0x100), NVML_ERROR_INVALID_ARGUMENT,
	       "nvmlInitWithFlags with an unknown flag is INVALID_ARGUMENT");
	is_int(nvmlDeviceGetCount_v2(&n), NVML_ERROR_UNINITIALIZED,
	       "a refused nvmlInitWithFlags initializes nothing");
}

/* Name, UUID, PCI address and memory of device d, beside CUDA's. */
static void identity(int d, nvmlDevice_t h)
{
	char cname[96], nname[96], cbus[32], uuid[96], want[96];
	nvmlPciInfo_t pci;
	nvmlMemory_t mem;
	nvmlDevice_t by;
	unsigned int dom, bus, dev, idx = 99;
	size_t total;
	CUuuid cu;

	cuDeviceGetName(cname, sizeof cname, d);
	is_int(nvmlDeviceGetName(h, nname, sizeof nname), NVML_SUCCESS,
	       "gpu%d: nvmlDeviceGetName", d);
	ok(!strcmp(cname, nname), "gpu%d: name '%s' is cuDeviceGetName's", d,
	   nname);
	cuDeviceGetUuid(&cu, d);
	uuid_text(&cu, want, sizeof want);
	is_int(nvmlDeviceGetUUID(h, uuid, sizeof uuid), NVML_SUCCESS,
	       "gpu%d: nvmlDeviceGetUUID", d);
	ok(!strcmp(uuid, want), "gpu%d: UUID %s is cuDeviceGetUuid's", d, uuid);
	is_int(nvmlDeviceGetHandleByUUID(uuid, &by), NVML_SUCCESS,
	       "gpu%d: handle by UUID", d);
	ok(by == h, "gpu%d: the UUID finds the same handle", d);
	cuDeviceGetPCIBusId(cbus, sizeof cbus, d);
	sscanf(cbus, "%x:%x:%x", &dom, &bus, &dev);
	is_int(nvmlDeviceGetPciInfo_v3(h, &pci), NVML_SUCCESS,
	       "gpu%d: nvmlDeviceGetPciInfo_v3", d);
	ok(pci.domain == dom && pci.bus == bus && pci.device == dev,
	   "gpu%d: PCI %s is cuDeviceGetPCIBusId's %s", d, pci.busId, cbus);
	ok(!strcasecmp(pci.busIdLegacy, cbus),
	   "gpu%d: the legacy bus id is cuDeviceGetPCIBusId's text", d);
	is_int(pci.pciDeviceId & 0xffff, 0x10de, "gpu%d: vendor NVIDIA", d);
	is_int(nvmlDeviceGetHandleByPciBusId_v2(cbus, &by), NVML_SUCCESS,
	       "gpu%d: handle by CUDA's bus id", d);
	ok(by == h, "gpu%d: the bus id finds the same handle", d);
	is_int(nvmlDeviceGetHandleByPciBusId_v2(pci.busId, &by), NVML_SUCCESS,
	       "gpu%d: handle by NVML's own bus id", d);
	ok(by == h, "gpu%d: NVML's bus id finds the same handle", d);
	nvmlDeviceGetIndex(h, &idx);
	is_int(idx, d, "gpu%d: nvmlDeviceGetIndex", d);
	cuDeviceTotalMem(&total, d);
	is_int(nvmlDeviceGetMemoryInfo(h, &mem), NVML_SUCCESS,
	       "gpu%d: nvmlDeviceGetMemoryInfo", d);
	is_int(mem.total, total, "gpu%d: total is cuDeviceTotalMem's", d);
	is_int(mem.free + mem.used, mem.total, "gpu%d: free + used = total", d);
}

/* Links and peers of d against every other device, beside CUDA's. */
static void links(int d, nvmlDevice_t h, int n)
{
	nvmlFieldValue_t f = { .fieldId = NVML_FI_DEV_NVLINK_LINK_COUNT };
	nvmlGpuTopologyLevel_t lvl;
	int peers = 0, agree = 1, remote_ok = 1;
	unsigned int nl;

	for (int p = 0; p < n; p++) {
		nvmlDevice_t ph;
		nvmlGpuP2PStatus_t st;
		int can = 0;

		if (p == d)
			continue;
		nvmlDeviceGetHandleByIndex_v2((unsigned)p, &ph);
		cuDeviceCanAccessPeer(&can, d, p);
		peers += can;
		if (nvmlDeviceGetP2PStatus(h, ph, NVML_P2P_CAPS_INDEX_READ,
					   &st) != NVML_SUCCESS ||
		    (st == NVML_P2P_STATUS_OK) != can)
			agree = 0;
	}
	ok(agree, "gpu%d: P2P read status OK exactly where "
	   "cuDeviceCanAccessPeer is 1", d);
	is_int(nvmlDeviceGetFieldValues(h, 1, &f), NVML_SUCCESS,
	       "gpu%d: field values", d);
	is_int(f.nvmlReturn, NVML_SUCCESS, "gpu%d: the NVLink count field", d);
	nl = f.value.uiVal;
	is_int(nl, peers, "gpu%d: one NVLink per NVLink peer (%d)", d, peers);
	for (unsigned int l = 0; l < nl; l++) {
		nvmlPciInfo_t pci;
		nvmlEnableState_t on = NVML_FEATURE_DISABLED;
		nvmlDevice_t rh;
		unsigned int ri;
		int can = 0;

		if (nvmlDeviceGetNvLinkState(h, l, &on) != NVML_SUCCESS ||
		    on != NVML_FEATURE_ENABLED ||
		    nvmlDeviceGetNvLinkRemotePciInfo_v2(h, l, &pci) ||
		    nvmlDeviceGetHandleByPciBusId_v2(pci.busId, &rh) ||
		    nvmlDeviceGetIndex(rh, &ri) ||
		    cuDeviceCanAccessPeer(&can, d, (int)ri) || !can)
			remote_ok = 0;
	}
	ok(remote_ok, "gpu%d: each link is active and leads to a peer CUDA "
	   "can access", d);
	{
		nvmlEnableState_t on;
		unsigned int cap = 9;

		is_int(nvmlDeviceGetNvLinkState(h, nl, &on),
		       NVML_ERROR_NOT_SUPPORTED,
		       "gpu%d: link %u past the last is NOT_SUPPORTED", d, nl);
		is_int(nvmlDeviceGetNvLinkState(h, NVML_NVLINK_MAX_LINKS, &on),
		       NVML_ERROR_INVALID_ARGUMENT,
		       "gpu%d: link 18 is INVALID_ARGUMENT", d);
		if (nl) {
			is_int(nvmlDeviceGetNvLinkCapability(h, 0,
					NVML_NVLINK_CAP_P2P_SUPPORTED, &cap),
			       NVML_SUCCESS, "gpu%d: link 0 capability", d);
			is_int(cap, 1, "gpu%d: link 0 carries P2P", d);
		}
	}
	is_int(nvmlDeviceGetTopologyCommonAncestor(h, h, &lvl), NVML_SUCCESS,
	       "gpu%d: common ancestor with itself", d);
	is_int(lvl, NVML_TOPOLOGY_INTERNAL, "gpu%d: itself is INTERNAL", d);
}

static void errors(nvmlDevice_t h, unsigned int n)
{
	nvmlDevice_t by;
	char small[4];
	nvmlMemory_v2_t m2 = { .version = 1 };
	unsigned long cpus[16] = { 0 };
	unsigned int t;

	is_int(nvmlDeviceGetHandleByIndex_v2(n, &by), NVML_ERROR_INVALID_ARGUMENT,
	       "handle of index %u (the count) is INVALID_ARGUMENT", n);
	is_int(nvmlDeviceGetHandleByIndex_v2(0, NULL), NVML_ERROR_INVALID_ARGUMENT,
	       "handle into NULL is INVALID_ARGUMENT");
	is_int(nvmlDeviceGetHandleByUUID("GPU-00000000-0000-0000-0000-0000000"
					 "00000", &by), NVML_ERROR_NOT_FOUND,
	       "an unknown UUID is NOT_FOUND");
	is_int(nvmlDeviceGetHandleByPciBusId_v2("not a bus", &by),
	       NVML_ERROR_INVALID_ARGUMENT, "a bus id that is none is "
	       "INVALID_ARGUMENT");
	is_int(nvmlDeviceGetHandleByPciBusId_v2("0000:fe:1f.0", &by),
	       NVML_ERROR_NOT_FOUND, "a bus id with no device is NOT_FOUND");
	is_int(nvmlDeviceGetName(h, small, sizeof small),
	       NVML_ERROR_INSUFFICIENT_SIZE, "a short name buffer is "
	       "INSUFFICIENT_SIZE");
	is_int(nvmlDeviceGetName((nvmlDevice_t)&t, small, sizeof small),
	       NVML_ERROR_INVALID_ARGUMENT, "a handle that is none is "
	       "INVALID_ARGUMENT");
	is_int(nvmlDeviceGetMemoryInfo_v2(h, &m2),
	       NVML_ERROR_ARGUMENT_VERSION_MISMATCH,
	       "memory info v2 with another version is "
	       "ARGUMENT_VERSION_MISMATCH");
	m2.version = nvmlMemory_v2;
	is_int(nvmlDeviceGetMemoryInfo_v2(h, &m2), NVML_SUCCESS,
	       "memory info v2 with nvmlMemory_v2");
	is_int(nvmlDeviceGetCpuAffinity(h, 16, cpus), NVML_SUCCESS,
	       "CPU affinity");
	ok(cpus[0] != 0, "CPU affinity names a CPU");
	is_int(nvmlDeviceGetCpuAffinity(h, 0, cpus), NVML_ERROR_INVALID_ARGUMENT,
	       "CPU affinity into 0 words is INVALID_ARGUMENT");
	is_int(nvmlDeviceGetTemperature(h, 0, &t), NVML_ERROR_NOT_SUPPORTED,
	       "an entry of the unsupported list is NOT_SUPPORTED");
	ok(!strcmp(nvmlErrorString(NVML_ERROR_NOT_SUPPORTED), "Not Supported"),
	   "nvmlErrorString names NOT_SUPPORTED");
	ok(!strcmp(nvmlErrorString((nvmlReturn_t)12345), "Unknown Error"),
	   "nvmlErrorString of a number that is none");
}

/* This process's and the holder's memory in the process lists. */
static void processes(pid_t holder, unsigned int n)
{
	nvmlDevice_t h0, hl;
	nvmlMemory_t before, after;
	unsigned long long used = 0;
	nvmlProcessInfo_t one;
	unsigned int cnt = 0;
	CUdeviceptr p;
	CUcontext c;

	nvmlDeviceGetHandleByIndex_v2(0, &h0);
	nvmlDeviceGetHandleByIndex_v2(n - 1, &hl);
	ok(has_pid(hl, holder, &used), "the other process is listed on "
	   "gpu%u", n - 1);
	ok(used >= 64 * MIB, "with its 64 MiB (%llu)", used);
	ok(!has_pid(h0, holder, &used), "and not on gpu0, where it holds "
	   "nothing");
	nvmlDeviceGetMemoryInfo(h0, &before);
	cuDevicePrimaryCtxRetain(&c, 0);
	cuCtxSetCurrent(c);
	is_res(cuMemAlloc(&p, 256 * MIB), CUDA_SUCCESS, "cuMemAlloc 256 MiB "
	       "on gpu0");
	nvmlDeviceGetMemoryInfo(h0, &after);
	ok(after.used >= before.used + 256 * MIB,
	   "gpu0's used memory rose by the allocation (%llu -> %llu)",
	   before.used, after.used);
	ok(has_pid(h0, getpid(), &used) && used >= 256 * MIB,
	   "this process is listed on gpu0 with its 256 MiB");
	is_int(nvmlDeviceGetComputeRunningProcesses_v3(h0, &cnt, NULL),
	       NVML_ERROR_INSUFFICIENT_SIZE,
	       "a process list into 0 entries is INSUFFICIENT_SIZE");
	ok(cnt >= 1, "and says how many entries it needs (%u)", cnt);
	cnt = 1;
	is_int(nvmlDeviceGetComputeRunningProcesses_v3(h0, &cnt, NULL),
	       NVML_ERROR_INVALID_ARGUMENT,
	       "a process list into NULL of 1 entry is INVALID_ARGUMENT");
	cnt = 1;
	is_int(nvmlDeviceGetGraphicsRunningProcesses_v3(h0, &cnt, &one),
	       NVML_SUCCESS, "graphics processes");
	is_int(cnt, 0, "none draws");
	cuMemFree(p);
	ok(has_pid(h0, getpid(), &used) && used > 0, "after the free this "
	   "process is still listed on gpu0: its context holds its stacks "
	   "(%llu bytes)", used);
	cuCtxSetCurrent(NULL);
	cuDevicePrimaryCtxRelease(0);
	ok(!has_pid(h0, getpid(), &used), "after its context's release it is "
	   "no longer listed on gpu0");
}

int main(void)
{
	pid_t holder = start_holder();
	unsigned int n = 0;
	int cn = 0, st;
	char b = 0;

	if (!ok(holder > 0 && read(child_out[0], &b, 1) == 1 && b == 'x',
		"a second process holds 64 MiB on the last device"))
		return done_testing();
	before_init();
	is_int(nvmlInit_v2(), NVML_SUCCESS, "nvmlInit_v2");
	is_res(cuInit(0), CUDA_SUCCESS, "cuInit in the same process");
	cuDeviceGetCount(&cn);
	is_int(nvmlDeviceGetCount_v2(&n), NVML_SUCCESS, "device count");
	is_int(n, cn, "NVML counts cuDeviceGetCount's %d devices", cn);
	for (unsigned int d = 0; d < n; d++) {
		nvmlDevice_t h;

		is_int(nvmlDeviceGetHandleByIndex_v2(d, &h), NVML_SUCCESS,
		       "handle of gpu%u", d);
		identity((int)d, h);
		links((int)d, h, (int)n);
	}
	if (n > 1) {
		nvmlDevice_t h;

		nvmlDeviceGetHandleByIndex_v2(0, &h);
		errors(h, n);
		processes(holder, n);
	}
	if (write(child_in[1], &b, 1) != 1)
		kill(holder, SIGKILL);
	waitpid(holder, &st, 0);
	is_int(nvmlInit_v2(), NVML_SUCCESS, "a second nvmlInit_v2");
	is_int(nvmlShutdown(), NVML_SUCCESS, "its nvmlShutdown");
	is_int(nvmlDeviceGetCount_v2(&n), NVML_SUCCESS,
	       "the library stays up until the last nvmlShutdown");
	is_int(nvmlShutdown(), NVML_SUCCESS, "the last nvmlShutdown");
	is_int(nvmlDeviceGetCount_v2(&n), NVML_ERROR_UNINITIALIZED,
	       "after it, calls are UNINITIALIZED");
	is_int(nvmlShutdown(), NVML_ERROR_UNINITIALIZED,
	       "one nvmlShutdown too many is UNINITIALIZED");
	return done_testing();
}
