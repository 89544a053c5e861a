/*
 * register.h - what the files of runtime/cudart/ know of the program's
 * registered device code (register.c): its kernels and variables by their
 * host address, each in the library its fat binary became.
 */
#ifndef CUEMU_CUDART_REGISTER_H
#define CUEMU_CUDART_REGISTER_H

#include "cudart/cudart.h"

/* What a host address names: a kernel's stub, a variable's shadow, or a
 * managed variable's pointer. */
enum rt_kind { RT_KERNEL, RT_VAR, RT_MANAGED };

/* A registered kernel: the runtime's handle of it (what cudaGetKernel
 * gives as a cudaKernel_t: its stub's address), and its device-side name. */
struct rt_kernel {
	const void *handle;
	const char *name;
};

/* The kernel whose stub is at host (what <<<>>> and cudaLaunchKernel
 * name); cudaErrorInvalidDeviceFunction for an address no kernel was
 * registered at. */
cudaError_t rt_kernel_of(const void *host, struct rt_kernel *out);

/* The kernel's function in the current context, its fat binary loaded
 * there first if it was not: the load's error (cudaErrorNoKernelImageForDevice,
 * ...) when its fat binary cannot be used, cudaErrorInvalidResourceHandle
 * for a handle that names no registered kernel. */
cudaError_t rt_function_of(const void *handle, CUfunction *fn);

/* The stub of the registered kernel whose function (in some context) is
 * fn: what a graph's kernel node answers as its func; fn itself for a
 * function no registered kernel has. */
const void *rt_stub_of(CUfunction fn);

/* The device address and size of the variable whose shadow is at host
 * (cudaMemcpyToSymbol and friends), in the current context.
 * cudaErrorInvalidSymbol for an address no variable was registered at. */
cudaError_t rt_symbol_of(const void *host, CUdeviceptr *dptr, size_t *size);

/* What nvcc's and clang's host code calls (the toolkit declares them in
 * crt/host_runtime.h, which programs built here do not include): exported,
 * with the signatures that code is compiled against. */
void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
void __cudaUnregisterFatBinary(void **fatCubinHandle);
void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun,
			    char *deviceFun, const char *deviceName,
			    int thread_limit, void *tid, void *bid,
			    void *bDim, void *gDim, int *wSize);
void __cudaRegisterVar(void **fatCubinHandle, char *hostVar,
		       char *deviceAddress, const char *deviceName, int ext,
		       size_t size, int constant, int global);
void __cudaRegisterManagedVar(void **fatCubinHandle,
			      void **hostVarPtrAddress, char *deviceAddress,
			      const char *deviceName, int ext, size_t size,
			      int constant, int global);
char __cudaInitModule(void **fatCubinHandle);
unsigned int __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
					 size_t sharedMem, void *stream);
cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
				       size_t *sharedMem, void *stream);
cudaError_t __cudaGetKernel(cudaKernel_t *kernelPtr, const void *func);
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim,
			       dim3 blockDim, void **args, size_t sharedMem,
			       cudaStream_t stream);
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim,
				    dim3 blockDim, void **args,
				    size_t sharedMem, cudaStream_t stream);


#endif
