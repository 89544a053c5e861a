/*
 * surface_types.h - the runtime's surface types: boundary and format
 * modes, the kinds of surface and the surface object handle, with the
 * CUDA 13 values, as cudaCreateSurfaceObject and its getter take them
 * (cudart/texture.c). Types only, no state, nothing to lock.
 */
#if !defined(__SURFACE_TYPES_H__)
#define __SURFACE_TYPES_H__

#include "driver_types.h"

/* Kinds of surface, as the texture kinds. */
#define cudaSurfaceType1D             0x01
#define cudaSurfaceType2D             0x02
#define cudaSurfaceType3D             0x03
#define cudaSurfaceTypeCubemap        0x0C
#define cudaSurfaceType1DLayered      0xF1
#define cudaSurfaceType2DLayered      0xF2
#define cudaSurfaceTypeCubemapLayered 0xFC

/* What an access outside the surface does: reads zero, clamps, or traps. */
enum cudaSurfaceBoundaryMode {
    cudaBoundaryModeZero  = 0,
    cudaBoundaryModeClamp = 1,
    cudaBoundaryModeTrap  = 2
};

/* Whether a surface access converts the format it was given. */
enum cudaSurfaceFormatMode {
    cudaFormatModeForced = 0,
    cudaFormatModeAuto   = 1
};

/* A surface object: a 64-bit handle, not a pointer. */
typedef unsigned long long cudaSurfaceObject_t;

#endif /* !__SURFACE_TYPES_H__ */
