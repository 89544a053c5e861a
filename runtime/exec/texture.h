/*
 * texture.h - the texture unit (texture.c): what a fetch through a texture
 * object returns and where a surface access goes, one lane at a time.
 * warp.c runs the instructions (tex, tld4, suld, sust) and reads the
 * elements; nobody else includes this.
 *
 * Locking: none; the functions read the object's description and the
 * elements the reader returns.
 */
#ifndef CUEMU_EXEC_TEXTURE_H
#define CUEMU_EXEC_TEXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "exec/exec.h"

/* The bytes of the element at address a (t->base plus its offset), elem
 * bytes of them, or NULL where it cannot be read (the launch failed). */
struct tex_reader {
	const uint8_t *(*at)(void *arg, uint64_t a, unsigned elem);
	void *arg;
};

/* A fetch: its geometry (enum texgeom), coordinates as the instruction's
 * registers hold them (c[0] the layer where the geometry has one, then
 * x, y, z), whether they are integers (.s32), and tld4's component (-1
 * for tex). */
struct tex_query {
	int geom;
	bool int_coords;
	int comp;
	uint32_t c[4];
};

/* The four results of a fetch of t, as 32-bit registers: floats where
 * the texture returns floats, integers where it reads integer elements
 * as they are. 0, or -1 where the reader failed. */
int tex_fetch(const struct ex_tex *t, const struct tex_query *q,
	      const struct tex_reader *rd, uint32_t out[4]);

/* A surface access of size bytes at byte x, row y and layer or slice s
 * (those the geometry does not have 0) with boundary mode mode (enum
 * surfmode): TEX_SURF_IN at the address *a, TEX_SURF_ZERO where it reads
 * 0 and writes nothing, TEX_SURF_TRAP where it is out of range under
 * .trap, TEX_SURF_MISALIGNED where x is no multiple of size. */
enum tex_surf { TEX_SURF_IN, TEX_SURF_ZERO, TEX_SURF_TRAP,
		TEX_SURF_MISALIGNED };
enum tex_surf tex_surface_at(const struct ex_tex *t, int geom, int mode,
			     int64_t x, int64_t y, int64_t s, unsigned size,
			     uint64_t *a);

#endif
