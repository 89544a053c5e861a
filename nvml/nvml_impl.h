/*
 * nvml_impl.h - what the files of libnvidia-ml share: the library's
 * initialization count and the device handles (nvml.c owns both).
 *
 * Locking: the count and the attach are under nvml.c's lock; handles are
 * static and never change once made.
 */
#ifndef CUEMU_NVML_IMPL_H
#define CUEMU_NVML_IMPL_H

#include <nvml.h>
#include "outward/cuemu-private.h"

/* The rows of the machine's process table. */
#define NVML_CUEMU_MAX_PROCS 256

/* A device handle: an element of nvml.c's array, one per device. */
struct nvmlDevice_st {
	int index;
};

/* NVML_SUCCESS when the library is initialized, else
 * NVML_ERROR_UNINITIALIZED. */
nvmlReturn_t nvml_check_init(void);
/* The index behind a handle (with the init check): NVML_SUCCESS, or
 * NVML_ERROR_UNINITIALIZED / NVML_ERROR_INVALID_ARGUMENT. */
nvmlReturn_t nvml_dev(nvmlDevice_t device, int *index);
/* The handle of index (which must be a device's). */
nvmlDevice_t nvml_handle(int index);
/* Fills a PCI info from a device's (busId 8-digit domain, busIdLegacy
 * 4-digit, as the vendor's library writes them). */
void nvml_pci_fill(const struct cuemuGpu *g, nvmlPciInfo_t *pci);
/* Writes s into buf of length; NVML_ERROR_INSUFFICIENT_SIZE when it does
 * not fit with its terminator. */
nvmlReturn_t nvml_copy_str(char *buf, unsigned int length, const char *s);

#endif
