// rt_errors: what the CUDA 13 runtime answers for names it does not know
// and configurations the device cannot run.
#include <cstdio>
__global__ void k(float *f) { }
__device__ int dv;
#define P(what, call) printf("%s: %s\n", what, cudaGetErrorName(call))
int main() { cudaFuncAttributes a; int n; size_t s; cudaFunction_t fn; cudaKernel_t kk; int x[2]; float *f;
 cudaMalloc(&f, 4);
 k<<<1,2048>>>(f); P("launch block 2048", cudaGetLastError());
 k<<<0,32>>>(f); P("launch grid 0", cudaGetLastError());
 k<<<1,dim3(32,32,2)>>>(f); P("launch block 32x32x2", cudaGetLastError());
 k<<<1,dim3(1,1,65)>>>(f); P("launch block z 65", cudaGetLastError());
 k<<<dim3(1,65536),1>>>(f); P("launch grid y 65536", cudaGetLastError());
 k<<<1,32,300000>>>(f); P("launch shared 300000", cudaGetLastError());
 k<<<1,32,49153>>>(f); P("launch shared 49153", cudaGetLastError());
 void *args[]={&f};
 P("cudaLaunchKernel not a kernel", cudaLaunchKernel((const void*)main, 1,1,args,0,0));
 P("last after it", cudaGetLastError());
 P("cudaFuncGetAttributes not a kernel", cudaFuncGetAttributes(&a, (const void*)main));
 P("cudaFuncGetAttributes NULL", cudaFuncGetAttributes(NULL, (const void*)k));
 P("cudaOccupancy not a kernel", cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void*)main, 32, 0));
 P("cudaGetFuncBySymbol not a kernel", cudaGetFuncBySymbol(&fn, (const void*)main));
 P("cudaGetKernel not a kernel", cudaGetKernel(&kk, (const void*)main));
 P("cudaFuncSetAttribute not a kernel", cudaFuncSetAttribute((const void*)main, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024));
 P("cudaGetSymbolSize not a symbol", cudaGetSymbolSize(&s, &s));
 P("cudaMemcpyToSymbol past end", cudaMemcpyToSymbol(dv, x, 8));
 P("cudaMemcpyToSymbol DeviceToHost", cudaMemcpyToSymbol(dv, x, 4, 0, cudaMemcpyDeviceToHost));
 P("cudaMemcpyFromSymbol HostToDevice", cudaMemcpyFromSymbol(x, dv, 4, 0, cudaMemcpyHostToDevice));
 P("cudaMemcpyToSymbol offset past end, count 0", cudaMemcpyToSymbol(dv, x, 0, 8));
 P("last", cudaGetLastError());
}
