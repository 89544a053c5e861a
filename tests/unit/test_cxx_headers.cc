/*
 * test_cxx_headers.cc - the headers as C++ wrapper libraries use them,
 * compiled as C++17: builtin_types.h and vector_types.h included by name,
 * dim3 and the vector types in constexpr code, the typed overloads of
 * cuda_runtime.h (cudaMalloc(&T*, n), cudaMallocHost with flags,
 * cudaEventCreate with flags, cudaMallocAsync from a pool), RAII owners
 * with std::unique_ptr deleters, and error checks by exception; the types
 * a wrapper library names whether or not it calls them (stream capture,
 * graphs, launch configurations, external memory) and the 16-bit float
 * types of cuda_fp16.h and cuda_bf16.h. Then it runs them against
 * libcuemu. One fact a TAP line (tap.h).
 */
#include <builtin_types.h>
#include <vector_types.h>
#include <driver_types.h>
#include <cuda_runtime.h>
#include <cuda_profiler_api.h>
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <library_types.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "tap.h"

/* What a wrapper library checks at compile time. */
static_assert(sizeof(float4) == 16 && alignof(float4) == 16, "float4");
static_assert(sizeof(double2) == 16 && alignof(double2) == 16, "double2");
static_assert(sizeof(dim3) == 12, "dim3");
static_assert(std::is_same<cudaStream_t, CUstream>::value,
	      "a runtime stream is a driver stream");
static_assert(CUDART_VERSION >= 12000 && CUDA_VERSION == CUDART_VERSION,
	      "versions");
#if !defined(__DRIVER_TYPES_H__) || !defined(__CUDA_RUNTIME_H__) || \
    !defined(__cuda_cuda_h__) || !defined(__VECTOR_TYPES_H__)
#error "the toolkit's guard macros"
#endif

/* Types a wrapper library's headers name, served by libcuemu or not. */
static_assert(std::is_enum<CUstreamCaptureMode>::value &&
	      CU_STREAM_CAPTURE_MODE_RELAXED == 2, "CUstreamCaptureMode");
static_assert(int(cudaStreamCaptureModeRelaxed) == 2, "cudaStreamCaptureMode");
static_assert(std::is_same<cudaGraph_t, CUgraph>::value &&
	      std::is_same<cudaGraphExec_t, CUgraphExec>::value &&
	      std::is_same<cudaGraphNode_t, CUgraphNode>::value,
	      "the runtime's graphs are the driver's");
static_assert(sizeof(CUlaunchAttributeValue) == 64 &&
	      sizeof(cudaLaunchAttributeValue) == 64, "launch attribute values");
static_assert(std::is_same<cudaStreamAttrValue, cudaLaunchAttributeValue>::value,
	      "stream attributes are launch attributes");
static_assert(sizeof(CUDA_EXTERNAL_MEMORY_HANDLE_DESC) == 104 &&
	      sizeof(cudaExternalSemaphoreHandleDesc) == 96,
	      "external memory and semaphore descriptors");
static_assert(alignof(CUtensorMap) == 128 && sizeof(CUtensorMap) == 128,
	      "CUtensorMap");
static_assert(sizeof(__half) == 2 && alignof(__half2) == 4 &&
	      sizeof(__nv_bfloat162) == 4, "16-bit float types");
static_assert(CUDA_R_16BF == 14 && CUDA_R_16F == 2, "their data types");

constexpr dim3 grid(4, 2);
static_assert(grid.x == 4 && grid.y == 2 && grid.z == 1, "dim3 defaults");

/* The usual checked call: a failure throws with the runtime's name. */
struct cuda_error : std::runtime_error {
	cudaError_t code;
	cuda_error(cudaError_t e, const char *what)
		: std::runtime_error(std::string(what) + ": " +
				     cudaGetErrorName(e)), code(e) {}
};

static void check(cudaError_t e, const char *what)
{
	if (e != cudaSuccess)
		throw cuda_error(e, what);
}

/* A typed device buffer that frees itself. */
template <class T> struct device_buffer {
	struct deleter {
		void operator()(T *p) const { cudaFree(p); }
	};
	std::unique_ptr<T, deleter> p;
	size_t n;

	explicit device_buffer(size_t count) : n(count)
	{
		T *raw = nullptr;

		check(cudaMalloc(&raw, count * sizeof(T)), "cudaMalloc");
		p.reset(raw);
	}
	T *get() const { return p.get(); }
};

/* A stream and an event that end with their owner. */
struct stream_owner {
	cudaStream_t s = nullptr;
	stream_owner() { check(cudaStreamCreateWithFlags(&s,
				cudaStreamNonBlocking), "stream"); }
	~stream_owner() { cudaStreamDestroy(s); }
};

int main()
{
	setenv("CUEMU_CONTROL", "0", 1);
	unsetenv("CUEMU_TOPOLOGY");

	int n = 0;
	is_int(cudaGetDeviceCount(&n), cudaSuccess, "cudaGetDeviceCount");
	is_int(n, 4, "four devices on the default machine");

	{
		device_buffer<float4> d(1024);
		std::vector<float4> h(1024), back(1024);

		for (size_t i = 0; i < h.size(); i++)
			h[i] = float4{float(i), 1.f, 2.f, 3.f};
		ok(d.get() != nullptr, "cudaMalloc(&float4 *, n) through the template");
		is_int(cudaMemcpy(d.get(), h.data(), 1024 * sizeof(float4),
				  cudaMemcpyHostToDevice), cudaSuccess,
		       "copy float4s to the device");
		is_int(cudaMemcpy(back.data(), d.get(), 1024 * sizeof(float4),
				  cudaMemcpyDeviceToHost), cudaSuccess,
		       "and back");
		ok(!std::memcmp(h.data(), back.data(), 1024 * sizeof(float4)),
		   "the round trip keeps every float4");
	}

	double *pinned = nullptr;
	is_int(cudaMallocHost(&pinned, 4096, cudaHostAllocPortable),
	       cudaSuccess, "cudaMallocHost(&double *, n, flags)");
	unsigned int hf = 0;
	cudaHostGetFlags(&hf, pinned);
	ok(hf & cudaHostAllocPortable, "the flags reached cudaHostAlloc (%#x)", hf);
	is_int(cudaFreeHost(pinned), cudaSuccess, "cudaFreeHost");

	int *managed = nullptr;
	is_int(cudaMallocManaged(&managed, 64 * sizeof(int)), cudaSuccess,
	       "cudaMallocManaged(&int *, n) with the default attach flag");
	managed[63] = 7;
	ok(managed[63] == 7, "managed memory is usable from the host");
	cudaFree(managed);

	cudaEvent_t ev = nullptr;
	is_int(cudaEventCreate(&ev, cudaEventDisableTiming), cudaSuccess,
	       "cudaEventCreate(&ev, flags), the C++ overload");
	{
		stream_owner st;
		cudaMemPool_t pool = nullptr;
		short2 *block = nullptr;

		cudaDeviceGetDefaultMemPool(&pool, 0);
		is_int(cudaMallocAsync(&block, 1 << 16, pool, st.s), cudaSuccess,
		       "cudaMallocAsync(&short2 *, n, pool, stream)");
		is_int(cudaFreeAsync(block, st.s), cudaSuccess, "cudaFreeAsync");
		is_int(cudaEventRecord(ev, st.s), cudaSuccess, "cudaEventRecord");
		is_int(cudaEventSynchronize(ev), cudaSuccess,
		       "cudaEventSynchronize");
	}
	cudaEventDestroy(ev);

	try {
		device_buffer<char> huge(size_t(1) << 50);
		ok(false, "a petabyte allocation throws");
	} catch (const cuda_error &e) {
		is_int(e.code, cudaErrorMemoryAllocation,
		       "a petabyte allocation throws cudaErrorMemoryAllocation");
	}
	is_int(cudaGetLastError(), cudaErrorMemoryAllocation,
	       "and leaves it as the last error");
	/* The 16-bit float types as host code uses them. */
	__half h = 1.5f;
	h += __half(2.25f);
	ok(float(h) == 3.75f, "__half arithmetic on the host (%g)", double(float(h)));
	__half_raw hr = __float2half_rn(65520.0f);
	is_int(hr.x, 0x7c00, "65520 rounds to the half infinity");
	is_int(static_cast<__half_raw>(__float2half_rz(65520.0f)).x, 0x7bff,
	       "... and towards zero to 65504");
	__nv_bfloat16 b = 3.14159265f;
	is_int(static_cast<__nv_bfloat16_raw>(b).x, 0x4049,
	       "pi as a bfloat16 is 0x4049");
	ok(int(__nv_bfloat16(1e10f)) == 2147483647,
	   "a bfloat16 too large for an int saturates");
	std::vector<__half> hv(256, __half(0.0f));
	device_buffer<__half> dh(256);
	for (size_t i = 0; i < hv.size(); i++)
		hv[i] = __half(float(i) / 4);
	is_int(cudaMemcpy(dh.get(), hv.data(), 256 * sizeof(__half),
			  cudaMemcpyHostToDevice), cudaSuccess,
	       "a vector of __half to the device");
	std::vector<__half> hb(256);
	cudaMemcpy(hb.data(), dh.get(), 256 * sizeof(__half),
		   cudaMemcpyDeviceToHost);
	ok(float(hb[255]) == 63.75f, "and back: %g", double(float(hb[255])));

	is_int(cudaProfilerStart(), cudaSuccess, "cudaProfilerStart from C++");
	is_int(cudaProfilerStop(), cudaSuccess, "cudaProfilerStop from C++");
	return done_testing();
}
