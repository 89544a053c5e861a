// rdc_b.cu - what rdc_a.cu's kernel calls and reads (see there).
__device__ int offset = 100;

__device__ int twice(int x)
{
	return 2 * x;
}

__global__ void bump(int by)
{
	offset += by;
}
