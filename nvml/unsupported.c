/*
 * unsupported.c - the NVML entry points the emulated machine has nothing
 * to answer with, made from the one list (unsupported_list.h): each
 * answers NVML_ERROR_UNINITIALIZED before nvmlInit, else
 * NVML_ERROR_NOT_SUPPORTED, and touches none of its arguments (so its
 * parameters need not be declared: the caller's are ignored).
 *
 * No state, no locks.
 */
#include "nvml/nvml_impl.h"

static nvmlReturn_t unsupported(void)
{
	nvmlReturn_t r = nvml_check_init();

	return r != NVML_SUCCESS ? r : NVML_ERROR_NOT_SUPPORTED;
}

#define U(name) \
	nvmlReturn_t name(void); \
	nvmlReturn_t name(void) { return unsupported(); }
#include "nvml/unsupported_list.h"
#undef U
