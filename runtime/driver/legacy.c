/*
 * legacy.c - the entry points of CUDA 3.1 and before, which take 32-bit
 * device addresses and sizes. The real libcuda still exports them and
 * answers CUDA_ERROR_INVALID_CONTEXT from every one in a 64-bit process,
 * whatever context is current (probes/results/legacy.txt), so a binary
 * that links them gets that answer here too. cuMemHostRegister, whose
 * first version took no 32-bit address, behaves as cuMemHostRegister_v2.
 * No state, no locks.
 */
#define CUEMU_SUPERSEDED_ENTRY_POINTS 1
#include "model/internal.h"
#include "driver/hookable.h"

#undef cuMemGetInfo
#undef cuMemAlloc
#undef cuMemAllocPitch
#undef cuMemFree
#undef cuMemGetAddressRange
#undef cuMemAllocHost
#undef cuMemHostGetDevicePointer
#undef cuMemHostRegister
#undef cuMemcpyHtoD
#undef cuMemcpyDtoH
#undef cuMemcpyDtoD
#undef cuMemcpyHtoDAsync
#undef cuMemcpyDtoHAsync
#undef cuMemcpyDtoDAsync
#undef cuMemsetD8
#undef cuMemsetD16
#undef cuMemsetD32
#undef cuMemcpyHtoA
#undef cuMemcpyAtoH
#undef cuMemcpyAtoD
#undef cuMemcpyDtoA
#undef cuMemcpyAtoA
#undef cuMemcpyHtoAAsync
#undef cuMemcpyAtoHAsync
#undef cuMemcpy2D
#undef cuMemcpy2DUnaligned
#undef cuMemcpy2DAsync
#undef cuMemcpy3D
#undef cuMemcpy3DAsync
#undef cuMemsetD2D8
#undef cuMemsetD2D16
#undef cuMemsetD2D32
#undef cuArrayCreate
#undef cuArrayGetDescriptor
#undef cuArray3DCreate
#undef cuArray3DGetDescriptor

static CUresult v1(const char *name)
{
	CUresult r = cuemu_check_init();

	if (r != CUDA_SUCCESS)
		return r;
	return cuemu_fail(CUDA_ERROR_INVALID_CONTEXT, "%s takes 32-bit device "
			  "addresses, which a 64-bit process has no context for: "
			  "use %s_v2", name, name);
}

CUresult cuMemGetInfo(unsigned int *f, unsigned int *t)
{
	(void)f, (void)t;
	return v1("cuMemGetInfo");
}

CUEMU_HOOKABLE(cuMemAlloc)
CUresult CUEMU_HOOKED(cuMemAlloc)(CUdeviceptr_v1 *dptr, unsigned int bytesize)
{
	(void)dptr, (void)bytesize;
	return v1("cuMemAlloc");
}

CUEMU_HOOKABLE(cuMemAllocPitch)
CUresult CUEMU_HOOKED(cuMemAllocPitch)(CUdeviceptr_v1 *dptr, unsigned int *pitch,
			 unsigned int width, unsigned int height,
			 unsigned int elem)
{
	(void)dptr, (void)pitch, (void)width, (void)height, (void)elem;
	return v1("cuMemAllocPitch");
}

CUEMU_HOOKABLE(cuMemFree)
CUresult CUEMU_HOOKED(cuMemFree)(CUdeviceptr_v1 dptr)
{
	(void)dptr;
	return v1("cuMemFree");
}

CUresult cuMemGetAddressRange(CUdeviceptr_v1 *base, unsigned int *size,
			      CUdeviceptr_v1 dptr)
{
	(void)base, (void)size, (void)dptr;
	return v1("cuMemGetAddressRange");
}

CUresult cuMemAllocHost(void **pp, unsigned int bytesize)
{
	(void)pp, (void)bytesize;
	return v1("cuMemAllocHost");
}

CUresult cuMemHostGetDevicePointer(CUdeviceptr_v1 *dptr, void *p,
				   unsigned int flags)
{
	(void)dptr, (void)p, (void)flags;
	return v1("cuMemHostGetDevicePointer");
}

CUresult cuMemHostRegister(void *p, size_t bytesize, unsigned int flags)
{
	return cuMemHostRegister_v2(p, bytesize, flags);
}

CUresult cuMemcpyHtoD(CUdeviceptr_v1 dst, const void *src, unsigned int n)
{
	(void)dst, (void)src, (void)n;
	return v1("cuMemcpyHtoD");
}

CUresult cuMemcpyDtoH(void *dst, CUdeviceptr_v1 src, unsigned int n)
{
	(void)dst, (void)src, (void)n;
	return v1("cuMemcpyDtoH");
}

CUresult cuMemcpyDtoD(CUdeviceptr_v1 dst, CUdeviceptr_v1 src, unsigned int n)
{
	(void)dst, (void)src, (void)n;
	return v1("cuMemcpyDtoD");
}

CUresult cuMemcpyHtoDAsync(CUdeviceptr_v1 dst, const void *src,
			   unsigned int n, CUstream s)
{
	(void)dst, (void)src, (void)n, (void)s;
	return v1("cuMemcpyHtoDAsync");
}

CUresult cuMemcpyDtoHAsync(void *dst, CUdeviceptr_v1 src, unsigned int n,
			   CUstream s)
{
	(void)dst, (void)src, (void)n, (void)s;
	return v1("cuMemcpyDtoHAsync");
}

CUresult cuMemcpyDtoDAsync(CUdeviceptr_v1 dst, CUdeviceptr_v1 src,
			   unsigned int n, CUstream s)
{
	(void)dst, (void)src, (void)n, (void)s;
	return v1("cuMemcpyDtoDAsync");
}

CUresult cuMemsetD8(CUdeviceptr_v1 dst, unsigned char uc, unsigned int n)
{
	(void)dst, (void)uc, (void)n;
	return v1("cuMemsetD8");
}

CUresult cuMemsetD16(CUdeviceptr_v1 dst, unsigned short us, unsigned int n)
{
	(void)dst, (void)us, (void)n;
	return v1("cuMemsetD16");
}

CUresult cuMemsetD32(CUdeviceptr_v1 dst, unsigned int ui, unsigned int n)
{
	(void)dst, (void)ui, (void)n;
	return v1("cuMemsetD32");
}

/* ------------------------------------------ 2D/3D copies and arrays */

/* Their 32-bit forms: the same answer. */
CUresult cuMemcpyHtoA(CUarray a, unsigned int off, const void *src,
		      unsigned int n)
{
	(void)a, (void)off, (void)src, (void)n;
	return v1("cuMemcpyHtoA");
}

CUresult cuMemcpyAtoH(void *dst, CUarray a, unsigned int off, unsigned int n)
{
	(void)dst, (void)a, (void)off, (void)n;
	return v1("cuMemcpyAtoH");
}

CUresult cuMemcpyAtoD(CUdeviceptr_v1 dst, CUarray a, unsigned int off,
		      unsigned int n)
{
	(void)dst, (void)a, (void)off, (void)n;
	return v1("cuMemcpyAtoD");
}

CUresult cuMemcpyDtoA(CUarray a, unsigned int off, CUdeviceptr_v1 src,
		      unsigned int n)
{
	(void)a, (void)off, (void)src, (void)n;
	return v1("cuMemcpyDtoA");
}

CUresult cuMemcpyAtoA(CUarray da, unsigned int doff, CUarray sa,
		      unsigned int soff, unsigned int n)
{
	(void)da, (void)doff, (void)sa, (void)soff, (void)n;
	return v1("cuMemcpyAtoA");
}

CUresult cuMemcpyHtoAAsync(CUarray a, unsigned int off, const void *src,
			   unsigned int n, CUstream s)
{
	(void)a, (void)off, (void)src, (void)n, (void)s;
	return v1("cuMemcpyHtoAAsync");
}

CUresult cuMemcpyAtoHAsync(void *dst, CUarray a, unsigned int off,
			   unsigned int n, CUstream s)
{
	(void)dst, (void)a, (void)off, (void)n, (void)s;
	return v1("cuMemcpyAtoHAsync");
}

CUresult cuMemcpy2D(const CUDA_MEMCPY2D_v1 *c)
{
	(void)c;
	return v1("cuMemcpy2D");
}

CUresult cuMemcpy2DUnaligned(const CUDA_MEMCPY2D_v1 *c)
{
	(void)c;
	return v1("cuMemcpy2DUnaligned");
}

CUresult cuMemcpy2DAsync(const CUDA_MEMCPY2D_v1 *c, CUstream s)
{
	(void)c, (void)s;
	return v1("cuMemcpy2DAsync");
}

CUresult cuMemcpy3D(const CUDA_MEMCPY3D_v1 *c)
{
	(void)c;
	return v1("cuMemcpy3D");
}

CUresult cuMemcpy3DAsync(const CUDA_MEMCPY3D_v1 *c, CUstream s)
{
	(void)c, (void)s;
	return v1("cuMemcpy3DAsync");
}

CUresult cuMemsetD2D8(CUdeviceptr_v1 d, unsigned int pitch, unsigned char v,
		      unsigned int w, unsigned int h)
{
	(void)d, (void)pitch, (void)v, (void)w, (void)h;
	return v1("cuMemsetD2D8");
}

CUresult cuMemsetD2D16(CUdeviceptr_v1 d, unsigned int pitch, unsigned short v,
		       unsigned int w, unsigned int h)
{
	(void)d, (void)pitch, (void)v, (void)w, (void)h;
	return v1("cuMemsetD2D16");
}

CUresult cuMemsetD2D32(CUdeviceptr_v1 d, unsigned int pitch, unsigned int v,
		       unsigned int w, unsigned int h)
{
	(void)d, (void)pitch, (void)v, (void)w, (void)h;
	return v1("cuMemsetD2D32");
}

CUresult cuArrayCreate(CUarray *h, const CUDA_ARRAY_DESCRIPTOR_v1 *d)
{
	(void)h, (void)d;
	return v1("cuArrayCreate");
}

CUresult cuArrayGetDescriptor(CUDA_ARRAY_DESCRIPTOR_v1 *d, CUarray h)
{
	(void)d, (void)h;
	return v1("cuArrayGetDescriptor");
}

CUresult cuArray3DCreate(CUarray *h, const CUDA_ARRAY3D_DESCRIPTOR_v1 *d)
{
	(void)h, (void)d;
	return v1("cuArray3DCreate");
}

CUresult cuArray3DGetDescriptor(CUDA_ARRAY3D_DESCRIPTOR_v1 *d, CUarray h)
{
	(void)d, (void)h;
	return v1("cuArray3DGetDescriptor");
}
