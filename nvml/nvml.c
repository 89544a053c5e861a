/*
 * nvml.c - libnvidia-ml for the emulated machine: initialization and
 * shutdown, error strings, versions, device count and handles (by index,
 * UUID and PCI bus id), and each device's name, UUID, PCI info and memory.
 * Every answer comes from the machine segment through libcuemu's gpuview
 * (cuemu-private.h), read-only: the library makes no CUDA process and
 * never calls cuInit. See libnvidia-ml-cuemu(3).
 *
 * Locking: init_lock guards the initialization count and the attach; the
 * handles are a static array that never changes.
 */
#include "nvml/nvml_impl.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* What the emulated machine's driver says it is: the driver the reference
 * figures were measured on (shared/reference), and its CUDA version, which
 * cuDriverGetVersion answers too. */
#define NVML_CUEMU_DRIVER "580.159.04"
#define NVML_CUEMU_CUDA 13000
#define NVML_CUEMU_MAX_DEVICES 128

/* The library's state is process-wide, as the vendor's is: one count of
 * nvmlInit calls not yet matched by nvmlShutdown. */
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static int init_count;
static int ndev;
static struct nvmlDevice_st devs[NVML_CUEMU_MAX_DEVICES];

nvmlReturn_t nvml_check_init(void)
{
	return __atomic_load_n(&init_count, __ATOMIC_ACQUIRE) > 0 ?
	       NVML_SUCCESS : NVML_ERROR_UNINITIALIZED;
}

nvmlReturn_t nvml_dev(nvmlDevice_t device, int *index)
{
	nvmlReturn_t r = nvml_check_init();

	if (r != NVML_SUCCESS)
		return r;
	if (device < devs || device >= devs + ndev)
		return NVML_ERROR_INVALID_ARGUMENT;
	*index = device->index;
	return NVML_SUCCESS;
}

nvmlDevice_t nvml_handle(int index)
{
	return &devs[index];
}

nvmlReturn_t nvml_copy_str(char *buf, unsigned int length, const char *s)
{
	size_t n = strlen(s);

	if (n + 1 > length)
		return NVML_ERROR_INSUFFICIENT_SIZE;
	memcpy(buf, s, n + 1);
	return NVML_SUCCESS;
}

/* ---------------------------------------------------------- init */

nvmlReturn_t nvmlInitWithFlags(unsigned int flags)
{
	nvmlReturn_t r = NVML_SUCCESS;
	const char *why = NULL;

	if (flags & ~(unsigned)(NVML_INIT_FLAG_NO_GPUS |
				NVML_INIT_FLAG_NO_ATTACH))
		return NVML_ERROR_INVALID_ARGUMENT;
	pthread_mutex_lock(&init_lock);
	if (init_count == 0) {
		if (cuemuGpuAttach(&why) < 0) {
			ndev = 0;
			if (!(flags & NVML_INIT_FLAG_NO_GPUS))
				r = NVML_ERROR_DRIVER_NOT_LOADED;
		} else {
			ndev = cuemuGpuCount();
			if (ndev > NVML_CUEMU_MAX_DEVICES)
				ndev = NVML_CUEMU_MAX_DEVICES;
		}
		for (int d = 0; d < NVML_CUEMU_MAX_DEVICES; d++)
			devs[d].index = d;
	}
	if (r == NVML_SUCCESS)
		__atomic_add_fetch(&init_count, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&init_lock);
	return r;
}

nvmlReturn_t nvmlInit_v2(void)
{
	return nvmlInitWithFlags(0);
}

/* The first version's name; programs built long ago still call it. */
#undef nvmlInit
nvmlReturn_t nvmlInit(void);
nvmlReturn_t nvmlInit(void)
{
	return nvmlInitWithFlags(0);
}

nvmlReturn_t nvmlShutdown(void)
{
	nvmlReturn_t r = NVML_SUCCESS;

	pthread_mutex_lock(&init_lock);
	if (init_count == 0)
		r = NVML_ERROR_UNINITIALIZED;
	else
		__atomic_sub_fetch(&init_count, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&init_lock);
	return r;
}

const char *nvmlErrorString(nvmlReturn_t result)
{
	static const char *const s[] = {
		[NVML_SUCCESS] = "Success",
		[NVML_ERROR_UNINITIALIZED] = "Uninitialized",
		[NVML_ERROR_INVALID_ARGUMENT] = "Invalid Argument",
		[NVML_ERROR_NOT_SUPPORTED] = "Not Supported",
		[NVML_ERROR_NO_PERMISSION] = "Insufficient Permissions",
		[NVML_ERROR_ALREADY_INITIALIZED] = "Already Initialized",
		[NVML_ERROR_NOT_FOUND] = "Not Found",
		[NVML_ERROR_INSUFFICIENT_SIZE] = "Insufficient Size",
		[NVML_ERROR_INSUFFICIENT_POWER] = "Insufficient External Power",
		[NVML_ERROR_DRIVER_NOT_LOADED] = "Driver Not Loaded",
		[NVML_ERROR_TIMEOUT] = "Timeout",
		[NVML_ERROR_IRQ_ISSUE] = "Interrupt request issue",
		[NVML_ERROR_LIBRARY_NOT_FOUND] = "NVML Shared Library Not Found",
		[NVML_ERROR_FUNCTION_NOT_FOUND] = "Function Not Found",
		[NVML_ERROR_CORRUPTED_INFOROM] = "Corrupted infoROM",
		[NVML_ERROR_GPU_IS_LOST] = "GPU is lost",
		[NVML_ERROR_RESET_REQUIRED] = "GPU requires restart",
		[NVML_ERROR_OPERATING_SYSTEM] =
			"The operating system has blocked the request.",
		[NVML_ERROR_LIB_RM_VERSION_MISMATCH] =
			"RM has detected an NVML/RM version mismatch.",
		[NVML_ERROR_IN_USE] = "In use by another client",
		[NVML_ERROR_MEMORY] = "Insufficient Memory",
		[NVML_ERROR_NO_DATA] = "No data",
		[NVML_ERROR_VGPU_ECC_NOT_SUPPORTED] =
			"ECC is not supported on this vGPU",
		[NVML_ERROR_INSUFFICIENT_RESOURCES] = "Insufficient resources",
		[NVML_ERROR_FREQ_NOT_SUPPORTED] = "Frequency not supported",
		[NVML_ERROR_ARGUMENT_VERSION_MISMATCH] =
			"Argument version mismatch",
		[NVML_ERROR_DEPRECATED] = "Deprecated",
		[NVML_ERROR_NOT_READY] = "Not ready",
		[NVML_ERROR_GPU_NOT_FOUND] = "GPU not found",
		[NVML_ERROR_INVALID_STATE] = "Invalid state",
	};

	if (result >= 0 && (size_t)result < sizeof s / sizeof *s && s[result])
		return s[result];
	return "Unknown Error";
}

/* ---------------------------------------------------------- system */

nvmlReturn_t nvmlSystemGetDriverVersion(char *version, unsigned int length)
{
	nvmlReturn_t r = nvml_check_init();

	if (r != NVML_SUCCESS)
		return r;
	if (!version)
		return NVML_ERROR_INVALID_ARGUMENT;
	return nvml_copy_str(version, length, NVML_CUEMU_DRIVER);
}

nvmlReturn_t nvmlSystemGetNVMLVersion(char *version, unsigned int length)
{
	/* Answered without initialization, as the vendor's library does. */
	if (!version)
		return NVML_ERROR_INVALID_ARGUMENT;
	return nvml_copy_str(version, length, "13." NVML_CUEMU_DRIVER);
}

nvmlReturn_t nvmlSystemGetCudaDriverVersion(int *cudaDriverVersion)
{
	if (!cudaDriverVersion)
		return NVML_ERROR_INVALID_ARGUMENT;
	*cudaDriverVersion = NVML_CUEMU_CUDA;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int *cudaDriverVersion)
{
	return nvmlSystemGetCudaDriverVersion(cudaDriverVersion);
}

/* ---------------------------------------------------------- handles */

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *deviceCount)
{
	nvmlReturn_t r = nvml_check_init();

	if (r != NVML_SUCCESS)
		return r;
	if (!deviceCount)
		return NVML_ERROR_INVALID_ARGUMENT;
	*deviceCount = (unsigned int)ndev;
	return NVML_SUCCESS;
}

#undef nvmlDeviceGetCount
nvmlReturn_t nvmlDeviceGetCount(unsigned int *deviceCount);
nvmlReturn_t nvmlDeviceGetCount(unsigned int *deviceCount)
{
	return nvmlDeviceGetCount_v2(deviceCount);
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index,
					   nvmlDevice_t *device)
{
	nvmlReturn_t r = nvml_check_init();

	if (r != NVML_SUCCESS)
		return r;
	if (!device || index >= (unsigned int)ndev)
		return NVML_ERROR_INVALID_ARGUMENT;
	*device = nvml_handle((int)index);
	return NVML_SUCCESS;
}

#undef nvmlDeviceGetHandleByIndex
nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned int index,
					nvmlDevice_t *device);
nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned int index,
					nvmlDevice_t *device)
{
	return nvmlDeviceGetHandleByIndex_v2(index, device);
}

/* "GPU-" and the UUID's 16 bytes as 8-4-4-4-12 hex digits. */
static void uuid_text(const unsigned char *u, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "GPU-");

	for (int i = 0; i < 16 && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%02x",
				      i == 4 || i == 6 || i == 8 || i == 10 ?
				      "-" : "", u[i]);
}

nvmlReturn_t nvmlDeviceGetHandleByUUID(const char *uuid, nvmlDevice_t *device)
{
	nvmlReturn_t r = nvml_check_init();
	struct cuemuGpu g;
	char text[NVML_DEVICE_UUID_V2_BUFFER_SIZE];

	if (r != NVML_SUCCESS)
		return r;
	if (!uuid || !device)
		return NVML_ERROR_INVALID_ARGUMENT;
	for (int d = 0; d < ndev; d++) {
		if (cuemuGpuInfo(d, &g) < 0)
			continue;
		uuid_text(g.uuid, text, sizeof text);
		if (!strcasecmp(text, uuid)) {
			*device = nvml_handle(d);
			return NVML_SUCCESS;
		}
	}
	return NVML_ERROR_NOT_FOUND;
}

nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char *pciBusId,
					      nvmlDevice_t *device)
{
	nvmlReturn_t r = nvml_check_init();
	int d;

	if (r != NVML_SUCCESS)
		return r;
	if (!pciBusId || !device)
		return NVML_ERROR_INVALID_ARGUMENT;
	if ((d = cuemuGpuByBusId(pciBusId)) == -2)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (d < 0 || d >= ndev)
		return NVML_ERROR_NOT_FOUND;
	*device = nvml_handle(d);
	return NVML_SUCCESS;
}

#undef nvmlDeviceGetHandleByPciBusId
nvmlReturn_t nvmlDeviceGetHandleByPciBusId(const char *pciBusId,
					   nvmlDevice_t *device);
nvmlReturn_t nvmlDeviceGetHandleByPciBusId(const char *pciBusId,
					   nvmlDevice_t *device)
{
	return nvmlDeviceGetHandleByPciBusId_v2(pciBusId, device);
}

nvmlReturn_t nvmlDeviceGetIndex(nvmlDevice_t device, unsigned int *index)
{
	int d;
	nvmlReturn_t r = nvml_dev(device, &d);

	if (r != NVML_SUCCESS)
		return r;
	if (!index)
		return NVML_ERROR_INVALID_ARGUMENT;
	*index = (unsigned int)d;
	return NVML_SUCCESS;
}

/* The minor number of /dev/nvidia<N>: the index, as on a machine whose
 * devices were probed in order. */
nvmlReturn_t nvmlDeviceGetMinorNumber(nvmlDevice_t device,
				      unsigned int *minorNumber)
{
	return nvmlDeviceGetIndex(device, minorNumber);
}

/* ---------------------------------------------------------- identity */

/* The device's info with the handle and pointer checks, in that order. */
static nvmlReturn_t dev_info(nvmlDevice_t device, const void *p,
			     struct cuemuGpu *g)
{
	int d;
	nvmlReturn_t r = nvml_dev(device, &d);

	if (r != NVML_SUCCESS)
		return r;
	if (!p)
		return NVML_ERROR_INVALID_ARGUMENT;
	return cuemuGpuInfo(d, g) == 0 ? NVML_SUCCESS : NVML_ERROR_GPU_IS_LOST;
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name,
			       unsigned int length)
{
	struct cuemuGpu g;
	nvmlReturn_t r = dev_info(device, name, &g);

	return r != NVML_SUCCESS ? r : nvml_copy_str(name, length, g.name);
}

nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char *uuid,
			       unsigned int length)
{
	struct cuemuGpu g;
	char text[NVML_DEVICE_UUID_V2_BUFFER_SIZE];
	nvmlReturn_t r = dev_info(device, uuid, &g);

	if (r != NVML_SUCCESS)
		return r;
	uuid_text(g.uuid, text, sizeof text);
	return nvml_copy_str(uuid, length, text);
}

void nvml_pci_fill(const struct cuemuGpu *g, nvmlPciInfo_t *pci)
{
	memset(pci, 0, sizeof *pci);
	pci->domain = (unsigned int)g->domain;
	pci->bus = (unsigned int)g->bus;
	pci->device = (unsigned int)g->slot;
	pci->pciDeviceId = g->pci_id;
	pci->pciSubSystemId = g->pci_subsys;
	snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "%04X:%02X:%02X.0",
		 pci->domain & 0xffff, pci->bus & 0xff, pci->device & 0x1f);
	snprintf(pci->busId, sizeof pci->busId, "%08X:%02X:%02X.0",
		 pci->domain, pci->bus & 0xff, pci->device & 0x1f);
}

nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t *pci)
{
	struct cuemuGpu g;
	nvmlReturn_t r = dev_info(device, pci, &g);

	if (r == NVML_SUCCESS)
		nvml_pci_fill(&g, pci);
	return r;
}

/* The second version wrote the same structure. */
nvmlReturn_t nvmlDeviceGetPciInfo_v2(nvmlDevice_t device, nvmlPciInfo_t *pci);
nvmlReturn_t nvmlDeviceGetPciInfo_v2(nvmlDevice_t device, nvmlPciInfo_t *pci)
{
	return nvmlDeviceGetPciInfo_v3(device, pci);
}

/* The first version's structure: a 16-byte bus id, the five numbers and
 * four reserved words; it is written no further than that. */
struct nvml_pci_v1 {
	char busId[16];
	unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
	unsigned int reserved[4];
};

#undef nvmlDeviceGetPciInfo
nvmlReturn_t nvmlDeviceGetPciInfo(nvmlDevice_t device, struct nvml_pci_v1 *pci);
nvmlReturn_t nvmlDeviceGetPciInfo(nvmlDevice_t device, struct nvml_pci_v1 *pci)
{
	struct cuemuGpu g;
	nvmlPciInfo_t full;
	nvmlReturn_t r = dev_info(device, pci, &g);

	if (r != NVML_SUCCESS)
		return r;
	nvml_pci_fill(&g, &full);
	memset(pci, 0, sizeof *pci);
	memcpy(pci->busId, full.busIdLegacy, sizeof pci->busId);
	pci->domain = full.domain;
	pci->bus = full.bus;
	pci->device = full.device;
	pci->pciDeviceId = full.pciDeviceId;
	pci->pciSubSystemId = full.pciSubSystemId;
	return NVML_SUCCESS;
}

/* ---------------------------------------------------------- memory */

nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t *memory)
{
	struct cuemuGpu g;
	nvmlReturn_t r = dev_info(device, memory, &g);

	if (r != NVML_SUCCESS)
		return r;
	memory->total = g.total;
	memory->used = g.used;
	memory->free = g.total - g.used;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t device,
					nvmlMemory_v2_t *memory)
{
	struct cuemuGpu g;
	nvmlReturn_t r = dev_info(device, memory, &g);

	if (r != NVML_SUCCESS)
		return r;
	if (memory->version != nvmlMemory_v2)
		return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
	memory->total = g.total;
	memory->reserved = 0;
	memory->used = g.used;
	memory->free = g.total - g.used;
	return NVML_SUCCESS;
}

/* ---------------------------------------------------------- processes */

/* The program a process runs, as its first command-line word (cut to
 * length), for the process lists. */
nvmlReturn_t nvmlSystemGetProcessName(unsigned int pid, char *name,
				      unsigned int length)
{
	char path[64];
	size_t n;
	FILE *f;
	nvmlReturn_t r = nvml_check_init();

	if (r != NVML_SUCCESS)
		return r;
	if (!name || !length)
		return NVML_ERROR_INVALID_ARGUMENT;
	snprintf(path, sizeof path, "/proc/%u/cmdline", pid);
	if (!(f = fopen(path, "r")))
		return NVML_ERROR_NOT_FOUND;
	n = fread(name, 1, length - 1, f);
	fclose(f);
	name[n] = '\0';
	return n ? NVML_SUCCESS : NVML_ERROR_NOT_FOUND;
}
