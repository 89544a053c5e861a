/*
 * kargs.c - a kernel's arguments as a launch and a graph's kernel node
 * take them: kernelParams (a pointer to each argument) or extra (one
 * buffer and its size), checked as the driver checks them
 * (probes/results/launch.txt, library.txt) and copied into the kernel's
 * parameter buffer at each parameter's offset. A leaf of the driver
 * layer: launch.c and graphnode.c both call it, it calls neither.
 *
 * No state.
 */
#include "driver/graph.h"

#include <string.h>

CUresult cuemu_kargs_check(const struct ex_kernel_info *k, void **params,
			   void **extra)
{
	if (params && extra)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "both kernelParams and extra");
	if (k->nparams && !params && !extra)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "%s takes %u parameters; none given",
				  k->name, k->nparams);
	return CUDA_SUCCESS;
}

/* The parameter buffer from kernelParams: each argument copied to its
 * offset, as the kernel declares it. */
static CUresult params_from_list(const struct ex_kernel_info *k, void **kp,
				 uint8_t *buf)
{
	for (uint32_t i = 0; i < k->nparams; i++) {
		if (!kp[i])
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "kernelParams[%u] is NULL", i);
		memcpy(buf + k->params[i].offset, kp[i], k->params[i].size);
	}
	return CUDA_SUCCESS;
}

/* The parameter buffer from `extra`: a pointer and a size, then END. The
 * driver takes a size short of the kernel's (bytes past it read as zeros
 * here) and refuses a longer one (probes/results/library.txt). */
static CUresult params_from_extra(const struct ex_kernel_info *k,
				  void **extra, uint8_t *buf)
{
	const void *p = NULL;
	const size_t *size = NULL;

	for (size_t i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
		if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
			p = extra[i + 1];
		else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE)
			size = extra[i + 1];
		else
			return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
					  "extra[%zu] is no launch key", i);
	}
	if (!p || !size)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "extra lacks its %s", p ? "size" : "pointer");
	if (*size > k->param_bytes)
		return cuemu_fail(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES,
				  "extra's %zu bytes of parameters: %s takes "
				  "%u", *size, k->name, k->param_bytes);
	memcpy(buf, p, *size < k->param_bytes ? *size : k->param_bytes);
	return CUDA_SUCCESS;
}

CUresult cuemu_kargs_copy(const struct ex_kernel_info *k, void **params,
			  void **extra, uint8_t *buf)
{
	return params ? params_from_list(k, params, buf) :
	       extra ? params_from_extra(k, extra, buf) : CUDA_SUCCESS;
}

CUresult cuemu_launch_args(const struct ex_kernel_info *k, void **params,
			   void **extra, uint8_t *buf)
{
	CUresult r = cuemu_kargs_check(k, params, extra);

	return r ? r : cuemu_kargs_copy(k, params, extra, buf);
}
