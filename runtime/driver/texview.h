/*
 * texview.h - a texture or surface object as the PTX engine reads it
 * (texview.c), for the launch bridge.
 *
 * Locking: takes cuemu_lock itself; call without it.
 */
#ifndef CUEMU_DRIVER_TEXVIEW_H
#define CUEMU_DRIVER_TEXVIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "exec/exec.h"

/* What handle h (a texture object, or a surface object where surface)
 * names to a kernel on device dev: EX_OK with *out filled;
 * EX_ILLEGAL_ADDRESS for no such object of the process or one of
 * another device, EX_UNSUPPORTED for a format the engine does not read,
 * *why saying which. */
enum ex_status cuemu_texview_engine(uint64_t h, bool surface, int dev,
				    struct ex_tex *out, const char **why);

#endif
