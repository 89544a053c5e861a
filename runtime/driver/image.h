/*
 * image.h - what a module image holds (image.c): PTX text, or the fatbin
 * container nvcc makes (magic 0xBA55ED50) with its PTX entries plain, LZ4
 * or Zstandard compressed, and the wrapper nvcc's host code registers
 * (magic 0x466243B1) around a container. The loader (module.c) asks for
 * the one PTX text the device should run, as the driver's JIT picks it.
 */
#ifndef CUEMU_DRIVER_IMAGE_H
#define CUEMU_DRIVER_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuda.h"

#define CUEMU_FATBIN_MAGIC 0xBA55ED50u
#define CUEMU_FATBIN_WRAPPER_MAGIC 0x466243B1u

/* The image cuLinkComplete hands out (libcuemu's own, where the driver
 * hands out a cubin): the PTX texts the link joined, each with the name
 * it was added under, to be parsed again as one module wherever the image
 * is loaded (cuModuleLoadData, cuLibraryLoadData). Little endian: a
 * 24-byte header (u32 magic 0x4B4E4C43, "CLNK"; u16 version 1; u16
 * header size 24; u32 units; u32 zero; u64 bytes of the whole image,
 * header included), then each unit: u32 name bytes and u64 text bytes
 * (each with its NUL) after a u32 zero, the name, the text, each padded
 * to 8 bytes. */
#define CUEMU_LINKED_MAGIC 0x4B4E4C43u
#define CUEMU_LINKED_HEADER 24
#define CUEMU_LINKED_UNITS_MAX 4096

/* The PTX an image gave, NUL terminated and owned; for a linked image
 * the image's bytes themselves, checked (cuemu_image_unit reads them). */
struct cuemu_image {
	char *ptx;
	size_t len;      /* without the NUL; a linked image's bytes */
	unsigned arch;   /* the fatbin entry's compute capability; 0: bare PTX */
	int from_fatbin;
	int linked;      /* a linked image (cuemu_image_unit reads it) */
	int units;       /* its texts, none for an empty link */
};

/* A linked image of n texts (none for an empty link), each NUL terminated (lens without it), in
 * *out (malloc'd, *outlen bytes); CUDA_ERROR_OUT_OF_MEMORY or
 * CUDA_ERROR_INVALID_VALUE (a text or name too large) otherwise. */
CUresult cuemu_image_link(int n, const char *const *names,
			  const char *const *texts, const size_t *lens,
			  void **out, size_t *outlen);

/* Unit i of a linked image: its name and its text (len without the
 * NUL). The image was checked when it was read. */
void cuemu_image_unit(const struct cuemu_image *im, int i, const char **name,
		      const char **text, size_t *len);

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

/* Whether a fatbin container of len bytes is the device runtime's
 * library (libcudadevrt's object, machine code only): its machine code
 * defines __cudaCDP2LaunchDeviceV2. The engine serves that library's
 * entry points itself (exec.h), so the linker takes such a container as
 * contributing nothing rather than as machine code it cannot use. */
bool cuemu_image_device_runtime(const void *data, size_t len);

/* The fatbin containers a host object (ELF, as nvcc and the host
 * compiler leave it) carries in its .nv_fatbin and __nv_relfatbin
 * sections, at most CUEMU_OBJECT_FATBINS_MAX: fb[i] and len[i] point into
 * data. Bytes that are no 64-bit little-endian ELF hold none (*n 0, as
 * the driver takes them); an ELF whose section table does not hold
 * together is CUDA_ERROR_INVALID_IMAGE. */
#define CUEMU_OBJECT_FATBINS_MAX 64
CUresult cuemu_object_fatbins(const void *data, size_t size, const void **fb,
			      size_t *len, int *n, char *log, size_t logsz);

/* The member of an ar archive at *at (0 for the first), its bytes in
 * *member and *len, *at moved past it; *member NULL at the end. Bytes that
 * are no archive, or a member past its end, are
 * CUDA_ERROR_INVALID_IMAGE. */
CUresult cuemu_archive_next(const void *data, size_t size, size_t *at,
			    const void **member, size_t *len, char *log,
			    size_t logsz);

void cuemu_image_free(struct cuemu_image *im);

#endif
