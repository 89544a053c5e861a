/*
 * builtin_types.h - the types every CUDA host program sees: the device
 * types, the runtime's types (driver_types.h), the surface and texture
 * types and the vector types, in the toolkit's order. Like the toolkit's,
 * it has no guard of its own; each header it includes has one.
 */
#include "device_types.h"
#include "driver_types.h"
#include "surface_types.h"
#include "texture_types.h"
#include "vector_types.h"
