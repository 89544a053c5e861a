/*
 * builtin_types.h - the types every CUDA host program sees: the device
 * types, the runtime's types (driver_types.h) and the vector types, in the
 * toolkit's order. Like the toolkit's, it has no guard of its own; each
 * header it includes has one.
 *
 * The toolkit also includes surface_types.h and texture_types.h here;
 * libcuemu serves no textures or surfaces, so it has neither.
 */
#include "device_types.h"
#include "driver_types.h"
#include "vector_types.h"
