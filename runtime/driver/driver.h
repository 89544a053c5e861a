/*
 * driver.h - what the driver API's entry points share among themselves and
 * nothing below them needs: the device check every device entry starts
 * with (device.c).
 */
#ifndef CUEMU_DRIVER_H
#define CUEMU_DRIVER_H

#include "model/internal.h"

/* Initialized, and dev names a device of the machine: CUDA_SUCCESS, or
 * NOT_INITIALIZED / INVALID_DEVICE as the driver answers. */
CUresult cuemu_check_dev(CUdevice dev);

#endif
