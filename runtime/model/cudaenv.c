/*
 * cudaenv.c - what cuInit reads from the environment, as the real driver
 * reads it (probes/visible.c, probes/startup.c; results in
 * probes/results/visible.txt and startup.txt):
 *
 *   CUDA_DEVICE_ORDER     FASTEST_FIRST (the default) or PCI_BUS_ID, in
 *                         capitals; anything else makes cuInit answer
 *                         CUDA_ERROR_INVALID_DEVICE.
 *   CUDA_VISIBLE_DEVICES  which of the machine's GPUs the process sees,
 *                         in the order listed: comma-separated entries,
 *                         each an index into the order above (leading
 *                         blanks and a sign allowed, anything after the
 *                         digits ignored: " 0", "+0", "0a" are 0) or
 *                         GPU-<uuid> / MIG-<uuid>, where the uuid may be
 *                         cut to any non-empty prefix that names one GPU
 *                         (hex digits in either case; anything past a
 *                         whole uuid ignored). The first entry that names
 *                         no GPU (empty, negative, out of range, no
 *                         match, an ambiguous prefix) ends the list. An
 *                         index given twice makes cuInit answer
 *                         CUDA_ERROR_INVALID_DEVICE; a GPU named again
 *                         another way is left out. No GPU left: cuInit
 *                         answers CUDA_ERROR_NO_DEVICE, and so does every
 *                         later cuInit.
 *   CUDA_LAUNCH_BLOCKING  1: a kernel launch returns once the kernel is
 *                         done; the driver's memsets are kernels, copies
 *                         are not and stay asynchronous.
 *
 * and one of libcuemu's own:
 *
 *   CUEMU_KERNEL_THREADS  the host threads a kernel's blocks run on, 1 to
 *                         64; unset (or anything else) the CPUs the
 *                         process may run on, at most 64.
 *
 * The result is handed to machine.c (cuemu_machine_set_view), which maps
 * every ordinal the model uses to the machine's GPU.
 *
 * Locking: everything here is written once, by cuemu_select_devices under
 * the model's init lock before the model is marked initialized, and only
 * read afterwards.
 */
#include "model/internal.h"

#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What cuInit read: global because the driver reads the environment once
 * per process, and /cu shows it for the process's whole life. */
static bool launch_blocking;
static bool pci_order;
static char cvd_copy[512];
static bool cvd_set;
static int kernel_threads;      /* 0: the process's CPUs */

/* More host threads than this only add their start to every launch. */
#define MAX_KERNEL_THREADS 64

bool cuemu_launch_blocking(void)
{
	return launch_blocking;
}

/* Asked each launch, not once: a program may change its affinity
 * between launches, and one system call is little beside starting a
 * launch's threads. */
int cuemu_kernel_threads(void)
{
	cpu_set_t set;
	long n = 0;

	if (kernel_threads > 0)
		return kernel_threads;
	if (sched_getaffinity(0, sizeof set, &set) == 0)
		n = CPU_COUNT(&set);
	if (n <= 0)
		n = sysconf(_SC_NPROCESSORS_ONLN);
	return n <= 0 ? 1 : n > MAX_KERNEL_THREADS ? MAX_KERNEL_THREADS : (int)n;
}

/* CUEMU_KERNEL_THREADS: a count from 1 to 64 (0 unset: the default), or
 * -1 when it is none: refused at cuInit, as CUEMU_CLOCK is, rather than a
 * typo running every launch on a count nobody asked for. */
static int read_kernel_threads(const char *v)
{
	char *end;
	long n;

	if (!v || !*v)
		return 0;
	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || *end || n < 1 || n > MAX_KERNEL_THREADS)
		return -1;
	return (int)n;
}

CUresult cuemu_kernel_threads_check_env(void)
{
	const char *v = getenv("CUEMU_KERNEL_THREADS");

	kernel_threads = read_kernel_threads(v);
	if (kernel_threads >= 0)
		return CUDA_SUCCESS;
	kernel_threads = 0;
	return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "CUEMU_KERNEL_THREADS "
			  "'%.40s' is no count from 1 to %d", v,
			  MAX_KERNEL_THREADS);
}

const char *cuemu_device_order(void)
{
	return pci_order ? "PCI_BUS_ID" : "FASTEST_FIRST";
}

const char *cuemu_visible_devices_env(void)
{
	return cvd_set ? cvd_copy : NULL;
}

void cuemu_uuid_str(const uint8_t u[16], char *buf, size_t len)
{
	snprintf(buf, len, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3], u[4],
		 u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
		 u[14], u[15]);
}

void cuemu_pci_str(const struct cuemu_device_info *d, char *buf, size_t len)
{
	int domain, bus, slot;

	/* domain:bus:device.function, in hex; cut to len, terminated. */
	cuemu_device_pci(d, &domain, &bus, &slot);
	snprintf(buf, len, "%04x:%02x:%02x.0", (unsigned)domain,
		 (unsigned)bus, (unsigned)slot);
}

/* ---------------------------------------------------------------- order */

/* A GPU's PCI address as one number: domain, bus, device. */
static uint64_t pci_key(const struct cuemu_device_info *d)
{
	const int *a = d->attrs;

	return (uint64_t)(uint32_t)a[CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID] << 16 |
	       (uint64_t)(a[CU_DEVICE_ATTRIBUTE_PCI_BUS_ID] & 0xff) << 8 |
	       (uint64_t)(a[CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID] & 0xff);
}

/* The driver's guess of a GPU's speed for FASTEST_FIRST: multiprocessors
 * times their clock, compute capability first. */
static uint64_t speed(const struct cuemu_device_info *d)
{
	const int *a = d->attrs;
	uint64_t cc = (uint64_t)(a[CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR]
				 * 10 + a[CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR]);
	uint64_t sm = (uint64_t)(uint32_t)a[CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT];
	uint64_t clk = (uint64_t)(uint32_t)a[CU_DEVICE_ATTRIBUTE_CLOCK_RATE];

	return cc << 48 | ((sm * clk) & ((1ULL << 48) - 1));
}

/* Whether machine GPU a comes before b in the order in force: the faster
 * first (FASTEST_FIRST), then by PCI address, then by machine index. */
static bool before(int a, int b)
{
	const struct cuemu_device_info *x = cuemu_machine_gpu(a);
	const struct cuemu_device_info *y = cuemu_machine_gpu(b);

	if (!pci_order && speed(x) != speed(y))
		return speed(x) > speed(y);
	if (pci_key(x) != pci_key(y))
		return pci_key(x) < pci_key(y);
	return a < b;
}

/* order[0..n): the machine's GPUs in the order in force (insertion sort:
 * once per process, over a machine's few GPUs). */
static void sort_gpus(int *order, int n)
{
	for (int i = 0; i < n; i++) {
		int v = i, j = i;

		while (j > 0 && before(v, order[j - 1])) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = v;
	}
}

/* ---------------------------------------------------------------- entries */

/* The GPU whose uuid starts with the len bytes at s (case aside; what
 * lies past a whole uuid ignored): its machine index, or -1 for none or
 * more than one. */
static int by_uuid(const char *s, size_t len, int n)
{
	char u[48];
	int found = -1;

	if (len == 0)
		return -1;
	for (int m = 0; m < n; m++) {
		size_t k;

		cuemu_uuid_str(cuemu_machine_gpu(m)->uuid, u, sizeof u);
		k = strlen(u + 4);
		if (strncasecmp(u + 4, s, len < k ? len : k) != 0)
			continue;
		if (found >= 0)
			return -1;
		found = m;
	}
	return found;
}

/* An index entry: leading blanks, a sign, digits, the rest ignored. The
 * index, or -1 when there are no digits, it is negative or too large. */
static long index_of(const char *s, size_t len)
{
	char buf[32];
	char *end;
	long v;

	snprintf(buf, sizeof buf, "%.*s", (int)(len < 31 ? len : 31), s);
	errno = 0;
	v = strtol(buf, &end, 10);
	if (end == buf || errno || v < 0)
		return -1;
	return v;
}

/* Reads the list into map; how many GPUs it names, or -1 (INVALID_DEVICE,
 * said) for an index given twice. */
static int read_list(const char *list, const int *order, int n, int *map)
{
	bool seen_index[CUEMU_MAX_DEVICES] = { false };
	bool taken[CUEMU_MAX_DEVICES] = { false };
	const char *p = list;
	int count = 0;

	for (;;) {
		size_t len = strcspn(p, ",");
		const char *e = p;
		int m;

		while (e < p + len && isspace((unsigned char)*e))
			e++;
		if (!strncmp(e, "GPU-", 4) || !strncmp(e, "MIG-", 4)) {
			m = by_uuid(e + 4, len - (size_t)(e + 4 - p), n);
		} else {
			long i = index_of(p, len);

			if (i < 0 || i >= n)
				break;
			if (seen_index[i]) {
				cuemu_fail(CUDA_ERROR_INVALID_DEVICE,
					   "CUDA_VISIBLE_DEVICES names index "
					   "%ld twice", i);
				return -1;
			}
			seen_index[i] = true;
			m = order[i];
		}
		if (m < 0)
			break;
		if (!taken[m]) {
			taken[m] = true;
			map[count++] = m;
		}
		if (!p[len])
			break;
		p += len + 1;
	}
	return count;
}

CUresult cuemu_select_devices(void)
{
	const char *ord = getenv("CUDA_DEVICE_ORDER");
	const char *cvd = getenv("CUDA_VISIBLE_DEVICES");
	const char *lb = getenv("CUDA_LAUNCH_BLOCKING");
	int n = cuemu_machine_gpu_count(), order[CUEMU_MAX_DEVICES];
	int map[CUEMU_MAX_DEVICES], count = n;

	if (ord && strcmp(ord, "FASTEST_FIRST") && strcmp(ord, "PCI_BUS_ID"))
		return cuemu_fail(CUDA_ERROR_INVALID_DEVICE,
				  "CUDA_DEVICE_ORDER '%.40s' is neither "
				  "FASTEST_FIRST nor PCI_BUS_ID", ord);
	pci_order = ord && !strcmp(ord, "PCI_BUS_ID");
	launch_blocking = lb && !strcmp(lb, "1");
	sort_gpus(order, n);
	memcpy(map, order, (size_t)n * sizeof *map);
	cvd_set = cvd != NULL;
	if (cvd) {
		snprintf(cvd_copy, sizeof cvd_copy, "%s", cvd);
		if ((count = read_list(cvd, order, n, map)) < 0)
			return CUDA_ERROR_INVALID_DEVICE;
		if (count == 0)
			return cuemu_fail(CUDA_ERROR_NO_DEVICE,
					  "CUDA_VISIBLE_DEVICES '%.40s' names "
					  "no GPU of the machine", cvd);
	}
	if (cuemu_machine_set_view(map, count) < 0)
		return cuemu_fail(CUDA_ERROR_NO_DEVICE, "no machine attached");
	return CUDA_SUCCESS;
}
