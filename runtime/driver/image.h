/*
 * image.h - what a module image holds (image.c): PTX text, or the fatbin
 * container nvcc makes (magic 0xBA55ED50) with its PTX entries plain, LZ4
 * or Zstandard compressed, and the wrapper nvcc's host code registers
 * (magic 0x466243B1) around a container. The loader (module.c) asks for
 * the one PTX text the device should run, as the driver's JIT picks it.
 */
#ifndef CUEMU_DRIVER_IMAGE_H
#define CUEMU_DRIVER_IMAGE_H

#include <stddef.h>
#include <stdint.h>
#include "cuda.h"

#define CUEMU_FATBIN_MAGIC 0xBA55ED50u
#define CUEMU_FATBIN_WRAPPER_MAGIC 0x466243B1u

/* The PTX an image gave, NUL terminated and owned. */
struct cuemu_image {
	char *ptx;
	size_t len;      /* without the NUL */
	unsigned arch;   /* the fatbin entry's compute capability; 0: bare PTX */
	int from_fatbin;
};

/* The PTX in len bytes of an image (a file, a fuzz input): a fatbin
 * container or PTX text. sm is the device's compute capability as
 * major*10+minor. On failure the CUresult the driver answers for that
 * image, with one line saying why in log (logsz > 0: always NUL
 * terminated): CUDA_ERROR_INVALID_IMAGE (neither, or a container that
 * does not hold together), CUDA_ERROR_NO_BINARY_FOR_GPU (machine code
 * only, or PTX for newer GPUs only), CUDA_ERROR_UNKNOWN (a compressed
 * entry that does not decompress, as the driver answers),
 * CUDA_ERROR_OUT_OF_MEMORY. */
CUresult cuemu_image_from_bytes(const void *data, size_t len, int sm,
				struct cuemu_image *out, char *log,
				size_t logsz);

/* The same for an image given as a pointer alone (cuModuleLoadData): a
 * container's length is the one its header declares, PTX text ends at its
 * NUL. The wrapper is refused (CUDA_ERROR_INVALID_IMAGE), as the driver
 * refuses it: only the runtime's registration unwraps it. */
CUresult cuemu_image_from_pointer(const void *image, int sm,
				  struct cuemu_image *out, char *log,
				  size_t logsz);

/* The container a wrapper points at, or NULL where w is no wrapper (bad
 * magic or version). */
const void *cuemu_image_unwrap(const void *w);

void cuemu_image_free(struct cuemu_image *im);

#endif
