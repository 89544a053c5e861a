/*
 * error.c - the runtime API's error handling: each thread's last error
 * (cudaGetLastError, cudaPeekAtLastError), the names and sentences of
 * cudaError_t, and the CUresult to cudaError_t mapping every cuda* entry
 * returns through.
 *
 * State: the last error is per thread, as the runtime's is; no locks.
 */
#include "cudart/cudart.h"

#include <stddef.h>

/* The thread's last error: sticky until cudaGetLastError reads it. */
static __thread cudaError_t rt_last;

cudaError_t cuemu_rt_result(CUresult r)
{
	/* Since CUDA 11 the runtime's codes share the driver's values for
	 * the same conditions (OUT_OF_MEMORY 2 is cudaErrorMemoryAllocation,
	 * INVALID_CONTEXT 201 is cudaErrorDeviceUninitialized, ...). */
	cudaError_t e = (cudaError_t)r;

	if (e != cudaSuccess)
		rt_last = e;
	return e;
}

cudaError_t cuemu_rt_fail(cudaError_t e)
{
	rt_last = e;
	return e;
}

cudaError_t cudaGetLastError(void)
{
	cudaError_t e = rt_last;

	rt_last = cudaSuccess;
	return e;
}

cudaError_t cudaPeekAtLastError(void)
{
	return rt_last;
}

#define N(e) { e, #e }
static const struct {
	cudaError_t e;
	const char *name;
} rt_names[] = {
	N(cudaSuccess),
	N(cudaErrorInvalidValue),
	N(cudaErrorMemoryAllocation),
	N(cudaErrorInitializationError),
	N(cudaErrorCudartUnloading),
	N(cudaErrorProfilerDisabled),
	N(cudaErrorProfilerNotInitialized),
	N(cudaErrorProfilerAlreadyStarted),
	N(cudaErrorProfilerAlreadyStopped),
	N(cudaErrorInvalidConfiguration),
	N(cudaErrorInvalidPitchValue),
	N(cudaErrorInvalidSymbol),
	N(cudaErrorInvalidHostPointer),
	N(cudaErrorInvalidDevicePointer),
	N(cudaErrorInvalidTexture),
	N(cudaErrorInvalidTextureBinding),
	N(cudaErrorInvalidChannelDescriptor),
	N(cudaErrorInvalidMemcpyDirection),
	N(cudaErrorAddressOfConstant),
	N(cudaErrorTextureFetchFailed),
	N(cudaErrorTextureNotBound),
	N(cudaErrorSynchronizationError),
	N(cudaErrorInvalidFilterSetting),
	N(cudaErrorInvalidNormSetting),
	N(cudaErrorMixedDeviceExecution),
	N(cudaErrorNotYetImplemented),
	N(cudaErrorMemoryValueTooLarge),
	N(cudaErrorStubLibrary),
	N(cudaErrorInsufficientDriver),
	N(cudaErrorCallRequiresNewerDriver),
	N(cudaErrorInvalidSurface),
	N(cudaErrorDuplicateVariableName),
	N(cudaErrorDuplicateTextureName),
	N(cudaErrorDuplicateSurfaceName),
	N(cudaErrorDevicesUnavailable),
	N(cudaErrorIncompatibleDriverContext),
	N(cudaErrorMissingConfiguration),
	N(cudaErrorPriorLaunchFailure),
	N(cudaErrorLaunchMaxDepthExceeded),
	N(cudaErrorLaunchFileScopedTex),
	N(cudaErrorLaunchFileScopedSurf),
	N(cudaErrorSyncDepthExceeded),
	N(cudaErrorLaunchPendingCountExceeded),
	N(cudaErrorInvalidDeviceFunction),
	N(cudaErrorNoDevice),
	N(cudaErrorInvalidDevice),
	N(cudaErrorDeviceNotLicensed),
	N(cudaErrorSoftwareValidityNotEstablished),
	N(cudaErrorStartupFailure),
	N(cudaErrorInvalidKernelImage),
	N(cudaErrorDeviceUninitialized),
	N(cudaErrorMapBufferObjectFailed),
	N(cudaErrorUnmapBufferObjectFailed),
	N(cudaErrorArrayIsMapped),
	N(cudaErrorAlreadyMapped),
	N(cudaErrorNoKernelImageForDevice),
	N(cudaErrorAlreadyAcquired),
	N(cudaErrorNotMapped),
	N(cudaErrorNotMappedAsArray),
	N(cudaErrorNotMappedAsPointer),
	N(cudaErrorECCUncorrectable),
	N(cudaErrorUnsupportedLimit),
	N(cudaErrorDeviceAlreadyInUse),
	N(cudaErrorPeerAccessUnsupported),
	N(cudaErrorInvalidPtx),
	N(cudaErrorInvalidGraphicsContext),
	N(cudaErrorNvlinkUncorrectable),
	N(cudaErrorJitCompilerNotFound),
	N(cudaErrorUnsupportedPtxVersion),
	N(cudaErrorJitCompilationDisabled),
	N(cudaErrorUnsupportedExecAffinity),
	N(cudaErrorUnsupportedDevSideSync),
	N(cudaErrorContained),
	N(cudaErrorInvalidSource),
	N(cudaErrorFileNotFound),
	N(cudaErrorSharedObjectSymbolNotFound),
	N(cudaErrorSharedObjectInitFailed),
	N(cudaErrorOperatingSystem),
	N(cudaErrorInvalidResourceHandle),
	N(cudaErrorIllegalState),
	N(cudaErrorLossyQuery),
	N(cudaErrorSymbolNotFound),
	N(cudaErrorNotReady),
	N(cudaErrorIllegalAddress),
	N(cudaErrorLaunchOutOfResources),
	N(cudaErrorLaunchTimeout),
	N(cudaErrorLaunchIncompatibleTexturing),
	N(cudaErrorPeerAccessAlreadyEnabled),
	N(cudaErrorPeerAccessNotEnabled),
	N(cudaErrorSetOnActiveProcess),
	N(cudaErrorContextIsDestroyed),
	N(cudaErrorAssert),
	N(cudaErrorTooManyPeers),
	N(cudaErrorHostMemoryAlreadyRegistered),
	N(cudaErrorHostMemoryNotRegistered),
	N(cudaErrorHardwareStackError),
	N(cudaErrorIllegalInstruction),
	N(cudaErrorMisalignedAddress),
	N(cudaErrorInvalidAddressSpace),
	N(cudaErrorInvalidPc),
	N(cudaErrorLaunchFailure),
	N(cudaErrorCooperativeLaunchTooLarge),
	N(cudaErrorTensorMemoryLeak),
	N(cudaErrorNotPermitted),
	N(cudaErrorNotSupported),
	N(cudaErrorSystemNotReady),
	N(cudaErrorSystemDriverMismatch),
	N(cudaErrorCompatNotSupportedOnDevice),
	N(cudaErrorMpsConnectionFailed),
	N(cudaErrorMpsRpcFailure),
	N(cudaErrorMpsServerNotReady),
	N(cudaErrorMpsMaxClientsReached),
	N(cudaErrorMpsMaxConnectionsReached),
	N(cudaErrorMpsClientTerminated),
	N(cudaErrorCdpNotSupported),
	N(cudaErrorCdpVersionMismatch),
	N(cudaErrorStreamCaptureUnsupported),
	N(cudaErrorStreamCaptureInvalidated),
	N(cudaErrorStreamCaptureMerge),
	N(cudaErrorStreamCaptureUnmatched),
	N(cudaErrorStreamCaptureUnjoined),
	N(cudaErrorStreamCaptureIsolation),
	N(cudaErrorStreamCaptureImplicit),
	N(cudaErrorCapturedEvent),
	N(cudaErrorStreamCaptureWrongThread),
	N(cudaErrorTimeout),
	N(cudaErrorGraphExecUpdateFailure),
	N(cudaErrorExternalDevice),
	N(cudaErrorInvalidClusterSize),
	N(cudaErrorFunctionNotLoaded),
	N(cudaErrorInvalidResourceType),
	N(cudaErrorInvalidResourceConfiguration),
	N(cudaErrorUnknown),
};
#undef N

/* Text of the codes that have no driver counterpart. */
static const struct {
	cudaError_t e;
	const char *text;
} rt_texts[] = {
	{ cudaErrorCudartUnloading, "driver shutting down" },
	{ cudaErrorInvalidConfiguration, "invalid configuration argument" },
	{ cudaErrorInvalidPitchValue, "invalid pitch argument" },
	{ cudaErrorInvalidSymbol, "invalid device symbol" },
	{ cudaErrorInvalidHostPointer, "invalid host pointer" },
	{ cudaErrorInvalidDevicePointer, "invalid device pointer" },
	{ cudaErrorInvalidMemcpyDirection, "invalid copy direction for memcpy" },
	{ cudaErrorInsufficientDriver, "CUDA driver version is insufficient "
	  "for CUDA runtime version" },
	{ cudaErrorInvalidDeviceFunction, "invalid device function" },
	{ cudaErrorMissingConfiguration, "__global__ function call is not "
	  "configured" },
};

const char *cudaGetErrorName(cudaError_t error)
{
	for (size_t i = 0; i < sizeof rt_names / sizeof rt_names[0]; i++)
		if (rt_names[i].e == error)
			return rt_names[i].name;
	return "unrecognized error code";
}

const char *cudaGetErrorString(cudaError_t error)
{
	const char *s = NULL;

	for (size_t i = 0; i < sizeof rt_texts / sizeof rt_texts[0]; i++)
		if (rt_texts[i].e == error)
			return rt_texts[i].text;
	if (error == cudaErrorInitializationError)
		return "initialization error";
	if (cuGetErrorString((CUresult)error, &s) == CUDA_SUCCESS && s)
		return s;
	return "unrecognized error code";
}
