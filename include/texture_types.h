/*
 * texture_types.h - the runtime's texture types: address, filter and read
 * modes, the texture descriptor, the kinds of texture, and the texture
 * object handle, with the CUDA 13 values and layout, as
 * cudaCreateTextureObject and its getters take them
 * (cudart/texture.c). Types only, no state, nothing to lock.
 */
#if !defined(__TEXTURE_TYPES_H__)
#define __TEXTURE_TYPES_H__

#include "driver_types.h"

/* Kinds of texture (cudaTextureDesc's resource view, layered forms). */
#define cudaTextureType1D             0x01
#define cudaTextureType2D             0x02
#define cudaTextureType3D             0x03
#define cudaTextureTypeCubemap        0x0C
#define cudaTextureType1DLayered      0xF1
#define cudaTextureType2DLayered      0xF2
#define cudaTextureTypeCubemapLayered 0xFC

/* What a fetch outside [0, size) reads. */
enum cudaTextureAddressMode {
    cudaAddressModeWrap   = 0,
    cudaAddressModeClamp  = 1,
    cudaAddressModeMirror = 2,
    cudaAddressModeBorder = 3
};

/* Nearest element or linear interpolation between neighbours. */
enum cudaTextureFilterMode {
    cudaFilterModePoint  = 0,
    cudaFilterModeLinear = 1
};

/* Integer elements as they are, or scaled to [0, 1] / [-1, 1]. */
enum cudaTextureReadMode {
    cudaReadModeElementType     = 0,
    cudaReadModeNormalizedFloat = 1
};

/* How a texture object samples its resource (cudaCreateTextureObject). */
struct cudaTextureDesc {
    enum cudaTextureAddressMode addressMode[3];   /* per dimension */
    enum cudaTextureFilterMode filterMode;
    enum cudaTextureReadMode readMode;
    int sRGB;
    float borderColor[4];
    int normalizedCoords;
    unsigned int maxAnisotropy;
    enum cudaTextureFilterMode mipmapFilterMode;
    float mipmapLevelBias;
    float minMipmapLevelClamp;
    float maxMipmapLevelClamp;
    int disableTrilinearOptimization;
    int seamlessCubemap;
};

/* A texture object: a 64-bit handle, not a pointer. */
typedef unsigned long long cudaTextureObject_t;

#endif /* !__TEXTURE_TYPES_H__ */
