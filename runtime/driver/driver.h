/*
 * driver.h - what the driver API's entry points share among themselves and
 * nothing below them needs: the device check every device entry starts
 * with (device.c), the stream priority range, and how a refused
 * allocation leaves its output (memory.c).
 */
#ifndef CUEMU_DRIVER_H
#define CUEMU_DRIVER_H

#include "model/internal.h"
#include "exec/exec.h"

/* The stream priorities the devices support, least and greatest
 * (lower is greater), as the real H200 answers. */
#define CUEMU_STREAM_PRIORITY_LEAST 0
#define CUEMU_STREAM_PRIORITY_GREATEST (-5)

/* Initialized, and dev names a device of the machine: CUDA_SUCCESS, or
 * NOT_INITIALIZED / INVALID_DEVICE as the driver answers. */
CUresult cuemu_check_dev(CUdevice dev);

/* r, having written 0 to *dptr (when given) if r is a failure, as the real
 * driver does to a refused allocation's output (memory.c). */
CUresult cuemu_zero_ptr(CUresult r, CUdeviceptr *dptr);

/* Where a prefetch to *loc brings data: the processor *dst and, for a
 * host NUMA location, the node *node (else -1); NUMA_CURRENT resolved and
 * a host location's id made 0. INVALID_DEVICE for a device the machine
 * lacks, INVALID_VALUE for what is no place (unified.c; batch.c answers
 * INVALID_VALUE for both, as the real batches do). */
CUresult cuemu_prefetch_target(CUmemLocation *loc, int *dst, int *node);

/* printf.c: device printf. A kernel's vprintf formatted into the
 * process's buffer (answers the number of arguments, as the device's
 * printf does); the buffer written to stdout, as at a synchronization. */
int cuemu_devprintf(const char *fmt, const void *args,
		    const struct ex_str *str);
void cuemu_devprintf_flush(void);

/* l2.c: dev's L2 as its kernels' loads see it, holding bytes of lines
 * (made anew where it held another size), with the lines the copies and
 * memsets since the last kernel passed through it; NULL where bytes is 0
 * or out of memory (every load is then taken as the L2's). */
struct ex_l2 *cuemu_gpu_l2(int dev, uint64_t bytes);

/* launch.c: the multi-device cooperative launch, which the driver still
 * exports though CUDA 13's cuda.h no longer declares it. */
CUresult cuLaunchCooperativeKernelMultiDevice(CUDA_LAUNCH_PARAMS *list,
					      unsigned int numDevices,
					      unsigned int flags);

/* module.c, for the libraries (library.c). */
struct cuemu_image;
struct cuemu_func_desc;
/* What a load's JIT options ask to be answered, and where. */
struct cuemu_jit {
	char *info, *error;
	size_t info_size, error_size;
	void **info_size_out, **error_size_out, **wall_out;
	bool verbose;
};
/* Checks JIT options as cuModuleLoadDataEx does, noting in j where the
 * answers go. */
CUresult cuemu_jit_read(unsigned n, CUjit_option *o, void **v,
			struct cuemu_jit *j);
/* Writes a load's logs (info where verbose was asked) and wall time into
 * what j names, each log's size option the bytes written, NUL included;
 * nothing where j is NULL. */
void cuemu_jit_answer(const struct cuemu_jit *j, const char *info,
		      const char *error, float ms);
struct cuemu_lib_vars;
/* Loads len bytes of a library's PTX text as a module of the current
 * context, binding the library's managed variables lv. */
CUresult cuemu_module_load_ptx(const char *ptx, size_t len,
			       const struct cuemu_lib_vars *lv, CUmodule *out);
/* The PTX an image holds for device dev in *im (cuemu_image_free), its
 * *nf kernels described as a module's are (cuemu_func_descs_free), and
 * its managed variables made the program's on dev (*lv, for a library);
 * on failure the CUresult a load of it answers, its log written where j
 * asks, and nothing made. */
CUresult cuemu_image_kernels(const void *image, int dev,
			     struct cuemu_image *im,
			     struct cuemu_func_desc **f, int *nf,
			     struct cuemu_lib_vars *lv,
			     const struct cuemu_jit *j);
/* cuFuncGetParamInfo's checks after the handle's and its answer: the
 * offset and size of f's parameter i (size optional). */
CUresult cuemu_function_param_info(CUfunction f, size_t i, size_t *offset,
				   size_t *size);
void cuemu_func_descs_free(struct cuemu_func_desc *f, int nf);
/* The whole of a file, or the CUresult the driver answers for it. */
CUresult cuemu_read_file(const char *path, char **data, size_t *len);
/* Whether *value may be set for attribute a of a kernel with stat bytes
 * of static shared memory on dev, as cuFuncSetAttribute and
 * cuKernelSetAttribute check it; where it may, *value is made what the
 * driver keeps (a permission as 0 or 1). */
CUresult cuemu_func_attr_value(int stat, int dev, CUfunction_attribute a,
			       int *value);
/* What the cuFunc* and cuKernel* entries that answer through a pointer
 * check first, in the driver's order: cuInit was called, then out (named
 * name in the refusal) is not NULL. */
CUresult cuemu_out_check(const void *out, const char *name);
/* INVALID_VALUE for an attribute that is none, as cuFuncGetAttribute and
 * cuKernelGetAttribute answer it after their handle. */
CUresult cuemu_func_attr_known(CUfunction_attribute a);
/* A device's compute capability as major*10+minor, 0 where unknown. */
int cuemu_device_sm(int dev);
/* The CUresult of the engine's refusal of PTX, as a module's load
 * answers it (EX_UNSUPPORTED_PTX: UNSUPPORTED_PTX_VERSION; every other
 * refusal of the text INVALID_PTX). */
CUresult cuemu_parse_result(enum ex_status s);

/* library.c: f itself where it names a function; the function of kernel
 * (CUkernel)f in the current context where f names a kernel (the driver
 * takes a CUkernel wherever a launch or the occupancy calculator takes a
 * CUfunction); else INVALID_HANDLE. */
CUresult cuemu_function_resolve(CUfunction f, CUfunction *out);

/* stream.c: an attribute's value checked alike for a stream, a launch
 * and a kernel node: an access policy window, a memory sync domain or
 * domain map, a cluster scheduling policy, a shared memory carveout (id
 * one of the five). */
CUresult cuemu_attr_common_check(CUlaunchAttributeID id,
				 const CUlaunchAttributeValue *v, int dev);

/* A per-thread (_ptsz, _ptds) export's stream: the null stream is the
 * calling thread's own; every such form takes its stream through this. */
static inline CUstream cuemu_ptsz(CUstream h)
{
	return h ? h : CU_STREAM_PER_THREAD;
}

#endif
