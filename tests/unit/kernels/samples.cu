// samples.cu - kernels written the way cuda-samples and UVMBench write
// theirs (our own code): vectorAdd, saxpy, a reduction with shuffles, a
// histogram with shared atomics, a transpose through shared memory and a
// tiled matrix multiply; test_exec.c runs them against host loops. And a
// resampling through a texture, which bench_exec.c times.

extern "C" __global__ void vectorAdd(const float *A, const float *B, float *C,
				     int numElements)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;
	if (i < numElements)
		C[i] = A[i] + B[i] + 0.0f;
}

extern "C" __global__ void saxpy(int n, float a, const float *x, float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
}

// One partial sum per block: a grid-stride loop, shuffles within each
// warp, then the warps' sums through shared memory.
extern "C" __global__ void reduceShfl(const float *in, float *out, int n)
{
	__shared__ float warpSums[32];
	float v = 0;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += blockDim.x * gridDim.x)
		v += in[i];
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_down_sync(0xffffffff, v, o);
	if ((threadIdx.x & 31) == 0)
		warpSums[threadIdx.x / 32] = v;
	__syncthreads();
	if (threadIdx.x < 32) {
		v = threadIdx.x < blockDim.x / 32 ? warpSums[threadIdx.x] : 0;
		for (int o = 16; o > 0; o >>= 1)
			v += __shfl_xor_sync(0xffffffff, v, o);
		if (threadIdx.x == 0)
			out[blockIdx.x] = v;
	}
}

// 256 bins per block in shared memory, merged with global atomics.
extern "C" __global__ void histogram256(const unsigned char *data, int n,
					unsigned int *bins)
{
	__shared__ unsigned int h[256];
	for (int i = threadIdx.x; i < 256; i += blockDim.x)
		h[i] = 0;
	__syncthreads();
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += blockDim.x * gridDim.x)
		atomicAdd(&h[data[i]], 1u);
	__syncthreads();
	for (int i = threadIdx.x; i < 256; i += blockDim.x)
		if (h[i])
			atomicAdd(&bins[i], h[i]);
}

#define TILE 32
#define ROWS 8
// The cuda-samples transpose: 32x32 tiles, 8 rows of threads, a padded
// shared tile against bank conflicts.
extern "C" __global__ void transposeCoalesced(float *odata,
					      const float *idata, int width,
					      int height)
{
	__shared__ float tile[TILE][TILE + 1];
	int x = blockIdx.x * TILE + threadIdx.x;
	int y = blockIdx.y * TILE + threadIdx.y;
	for (int j = 0; j < TILE; j += ROWS)
		if (x < width && y + j < height)
			tile[threadIdx.y + j][threadIdx.x] =
				idata[(y + j) * width + x];
	__syncthreads();
	x = blockIdx.y * TILE + threadIdx.x;
	y = blockIdx.x * TILE + threadIdx.y;
	for (int j = 0; j < TILE; j += ROWS)
		if (x < height && y + j < width)
			odata[(y + j) * height + x] =
				tile[threadIdx.x][threadIdx.y + j];
}

// C = A * B with BLOCK x BLOCK tiles in shared memory (wA, wB multiples
// of the block size), as matrixMul does.
template <int BLOCK>
__device__ void matrixMulTiled(float *C, const float *A, const float *B,
			       int wA, int wB)
{
	int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
	int aBegin = wA * BLOCK * by, aEnd = aBegin + wA - 1, aStep = BLOCK;
	int bBegin = BLOCK * bx, bStep = BLOCK * wB;
	float Csub = 0;
	for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
		__shared__ float As[BLOCK][BLOCK];
		__shared__ float Bs[BLOCK][BLOCK];
		As[ty][tx] = A[a + wA * ty + tx];
		Bs[ty][tx] = B[b + wB * ty + tx];
		__syncthreads();
#pragma unroll
		for (int k = 0; k < BLOCK; ++k)
			Csub += As[ty][k] * Bs[k][tx];
		__syncthreads();
	}
	int c = wB * BLOCK * by + BLOCK * bx;
	C[c + wB * ty + tx] = Csub;
}

extern "C" __global__ void matrixMul16(float *C, const float *A,
				       const float *B, int wA, int wB)
{
	matrixMulTiled<16>(C, A, B, wA, wB);
}

// UVMBench BN's inner loop (genScoreKernel): each thread walks the rows of
// a table of cols columns, comparing the columns its parents name through
// a local array indexed at run time (pre[], local memory) until one
// differs: gathers within a row in no order, lanes leaving early.
extern "C" __global__ void gatherRows(const int *data, int rows, int cols,
				      int *out)
{
	int id = blockIdx.x * blockDim.x + threadIdx.x;
	int pre[48], parent[4], count = 0;

	for (int i = 0; i < cols; i++)
		pre[i] = cols - 1 - i;
	for (int k = 0; k < 4; k++)
		parent[k] = (id * 7 + k * 13) % cols;
	for (int t = 0; t < rows; t++) {
		int k = 0;

		while (k < 4 && data[t * cols + pre[parent[k]]] == ((t >> k) & 1))
			k++;
		count += k == 4;
	}
	out[id] = count;
}

// A resampling through a bilinear texture (cuda-samples' simpleTexture
// and convolutionTexture read images so): each thread fetches its pixel
// of a w x h output from a texture scaled by s.
extern "C" __global__ void texResample(cudaTextureObject_t t, float *out,
				       int w, int h, float s)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
	if (x < w && y < h)
		out[y * w + x] = tex2D<float>(t, x * s + 0.25f, y * s + 0.25f);
}
