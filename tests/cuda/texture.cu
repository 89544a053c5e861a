// texture.cu - texture and surface objects through the runtime, as
// cuda-samples use them: an image in a CUDA array rotated through a
// normalized, wrapping, bilinear texture (simpleTexture's shape), a
// surface written by a kernel and read back by a copy, tex1Dfetch over
// linear memory, a pitched 2D texture read at each element's centre, a
// layered array, and the objects' descriptors read back. Each result is
// checked against what the Programming Guide's fetch says on the host
// (bilinear results to the 8-bit weights' precision).
#include <cuda_runtime.h>
#include <math.h>
#include <string.h>
#include "check.h"

__global__ void rotate(float *out, cudaTextureObject_t t, int w, int h, float a)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= w || y >= h)
		return;
	float u = (float)x / w - 0.5f, v = (float)y / h - 0.5f;
	float tu = u * cosf(a) - v * sinf(a) + 0.5f;
	float tv = v * cosf(a) + u * sinf(a) + 0.5f;
	out[y * w + x] = tex2D<float>(t, tu, tv);
}

__global__ void fill(cudaSurfaceObject_t s, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
	if (x < w && y < h)
		surf2Dwrite(make_uchar4(x, y, x + y, 255), s, x * 4, y);
}

__global__ void fetch(cudaTextureObject_t t, int n, int *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n + 2)
		out[i] = tex1Dfetch<int>(t, i - 1);
}

__global__ void centres(cudaTextureObject_t t, int w, int h, float *out)
{
	int x = threadIdx.x, y = blockIdx.x;
	if (x < w && y < h)
		out[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}

__global__ void layers(cudaTextureObject_t t, float *out)
{
	int l = threadIdx.x;
	out[l] = tex2DLayered<float>(t, 1.5f, 0.5f, l);
}

// The host's bilinear fetch of img (w x h) at normalized (u, v), wrapping.
static float bilinear(const float *img, int w, int h, float u, float v)
{
	float x = u * w - 0.5f, y = v * h - 0.5f;
	float fx = floorf(x), fy = floorf(y);
	float a = (x - fx), b = (y - fy);
	int x0 = (int)fx, y0 = (int)fy;
	float r = 0;
	for (int j = 0; j < 2; j++)
		for (int i = 0; i < 2; i++) {
			int xi = ((x0 + i) % w + w) % w, yj = ((y0 + j) % h + h) % h;
			r += (i ? a : 1 - a) * (j ? b : 1 - b) * img[yj * w + xi];
		}
	return r;
}

static void rotation(void)
{
	const int w = 64, h = 48;
	float img[w * h], out[w * h], *d;
	for (int i = 0; i < w * h; i++)
		img[i] = (float)((i * 37) % 101) / 100.0f;
	cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
	cudaArray_t a;
	CHECK(cudaMallocArray(&a, &f, w, h));
	CHECK(cudaMemcpy2DToArray(a, 0, 0, img, w * 4, w * 4, h, cudaMemcpyHostToDevice));
	cudaResourceDesc r;
	memset(&r, 0, sizeof r);
	r.resType = cudaResourceTypeArray;
	r.res.array.array = a;
	cudaTextureDesc td;
	memset(&td, 0, sizeof td);
	td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
	td.filterMode = cudaFilterModeLinear;
	td.readMode = cudaReadModeElementType;
	td.normalizedCoords = 1;
	cudaTextureObject_t t;
	CHECK(cudaCreateTextureObject(&t, &r, &td, NULL));
	CHECK(cudaMalloc(&d, sizeof out));
	rotate<<<dim3(4, 3), dim3(16, 16)>>>(d, t, w, h, 0.5f);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost));
	double worst = 0;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			float u = (float)x / w - 0.5f, v = (float)y / h - 0.5f;
			float tu = u * cosf(0.5f) - v * sinf(0.5f) + 0.5f;
			float tv = v * cosf(0.5f) + u * sinf(0.5f) + 0.5f;
			double e = fabs(out[y * w + x] - bilinear(img, w, h, tu, tv));
			worst = e > worst ? e : worst;
		}
	// 8-bit weights: at most half a 256th of the neighbours' spread (1)
	EXPECT(worst < 1.0 / 256);
	cudaResourceDesc back;
	cudaTextureDesc tback;
	CHECK(cudaGetTextureObjectResourceDesc(&back, t));
	EXPECT(back.resType == cudaResourceTypeArray && back.res.array.array == a);
	CHECK(cudaGetTextureObjectTextureDesc(&tback, t));
	EXPECT(tback.filterMode == cudaFilterModeLinear && tback.normalizedCoords &&
	       tback.addressMode[0] == cudaAddressModeWrap);
	CHECK(cudaDestroyTextureObject(t));
	CHECK(cudaFreeArray(a));
	CHECK(cudaFree(d));
}

static void surface(void)
{
	const int w = 40, h = 10;
	unsigned char back[w * h * 4];
	cudaChannelFormatDesc f = cudaCreateChannelDesc<uchar4>();
	cudaArray_t a;
	CHECK(cudaMallocArray(&a, &f, w, h, cudaArraySurfaceLoadStore));
	cudaResourceDesc r;
	memset(&r, 0, sizeof r);
	r.resType = cudaResourceTypeArray;
	r.res.array.array = a;
	cudaSurfaceObject_t s;
	CHECK(cudaCreateSurfaceObject(&s, &r));
	fill<<<dim3(1, h), 64>>>(s, w, h);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy2DFromArray(back, w * 4, a, 0, 0, w * 4, h, cudaMemcpyDeviceToHost));
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			const unsigned char *p = back + (y * w + x) * 4;
			EXPECT(p[0] == x && p[1] == y && p[2] == x + y && p[3] == 255);
		}
	CHECK(cudaDestroySurfaceObject(s));
	CHECK(cudaFreeArray(a));
}

static void linear(void)
{
	const int n = 1000;
	int host[n], out[n + 2], *d, *o;
	for (int i = 0; i < n; i++)
		host[i] = i * 7 - 3000;
	CHECK(cudaMalloc(&d, sizeof host));
	CHECK(cudaMalloc(&o, sizeof out));
	CHECK(cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice));
	cudaResourceDesc r;
	memset(&r, 0, sizeof r);
	r.resType = cudaResourceTypeLinear;
	r.res.linear.devPtr = d;
	r.res.linear.desc = cudaCreateChannelDesc<int>();
	r.res.linear.sizeInBytes = sizeof host;
	cudaTextureDesc td;
	memset(&td, 0, sizeof td);
	td.readMode = cudaReadModeElementType;
	cudaTextureObject_t t;
	CHECK(cudaCreateTextureObject(&t, &r, &td, NULL));
	fetch<<<8, 128>>>(t, n, o);
	CHECK(cudaMemcpy(out, o, sizeof out, cudaMemcpyDeviceToHost));
	EXPECT(out[0] == 0 && out[n + 1] == 0);     // outside: zero
	for (int i = 0; i < n; i++)
		EXPECT(out[i + 1] == host[i]);
	CHECK(cudaDestroyTextureObject(t));
	CHECK(cudaFree(d));
	CHECK(cudaFree(o));
}

static void pitched(void)
{
	const int w = 50, h = 20;
	float host[w * h], out[w * h], *p, *o;
	size_t pitch;
	for (int i = 0; i < w * h; i++)
		host[i] = (float)i * 0.25f;
	CHECK(cudaMallocPitch(&p, &pitch, w * 4, h));
	CHECK(cudaMemcpy2D(p, pitch, host, w * 4, w * 4, h, cudaMemcpyHostToDevice));
	CHECK(cudaMalloc(&o, sizeof out));
	cudaResourceDesc r;
	memset(&r, 0, sizeof r);
	r.resType = cudaResourceTypePitch2D;
	r.res.pitch2D.devPtr = p;
	r.res.pitch2D.desc = cudaCreateChannelDesc<float>();
	r.res.pitch2D.width = w;
	r.res.pitch2D.height = h;
	r.res.pitch2D.pitchInBytes = pitch;
	cudaTextureDesc td;
	memset(&td, 0, sizeof td);
	td.filterMode = cudaFilterModeLinear;   // at centres: the element alone
	cudaTextureObject_t t;
	CHECK(cudaCreateTextureObject(&t, &r, &td, NULL));
	centres<<<h, 64>>>(t, w, h, o);
	CHECK(cudaMemcpy(out, o, sizeof out, cudaMemcpyDeviceToHost));
	EXPECT(!memcmp(out, host, sizeof out));
	CHECK(cudaDestroyTextureObject(t));
	CHECK(cudaFree(p));
	CHECK(cudaFree(o));
}

static void layered(void)
{
	float host[4 * 2 * 3], out[3], *o;
	for (int i = 0; i < 24; i++)
		host[i] = (float)i;
	cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
	cudaArray_t a;
	CHECK(cudaMalloc3DArray(&a, &f, make_cudaExtent(4, 2, 3), cudaArrayLayered));
	cudaMemcpy3DParms m;
	memset(&m, 0, sizeof m);
	m.srcPtr = make_cudaPitchedPtr(host, 16, 4, 2);
	m.dstArray = a;
	m.extent = make_cudaExtent(4, 2, 3);
	m.kind = cudaMemcpyHostToDevice;
	CHECK(cudaMemcpy3D(&m));
	cudaResourceDesc r;
	memset(&r, 0, sizeof r);
	r.resType = cudaResourceTypeArray;
	r.res.array.array = a;
	cudaTextureDesc td;
	memset(&td, 0, sizeof td);
	cudaTextureObject_t t;
	CHECK(cudaCreateTextureObject(&t, &r, &td, NULL));
	CHECK(cudaMalloc(&o, sizeof out));
	layers<<<1, 3>>>(t, o);
	CHECK(cudaMemcpy(out, o, sizeof out, cudaMemcpyDeviceToHost));
	for (int l = 0; l < 3; l++)
		EXPECT(out[l] == host[l * 8 + 1]);  // element (1, 0) of each layer
	CHECK(cudaDestroyTextureObject(t));
	CHECK(cudaFreeArray(a));
	CHECK(cudaFree(o));
}

int main(void)
{
	rotation();
	surface();
	linear();
	pitched();
	layered();
	std::printf("PASS\n");
	return 0;
}
