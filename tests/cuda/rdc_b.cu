// rdc_b.cu - the device function rdc_a.cu's kernel calls (see there).
__device__ int twice(int x)
{
	return 2 * x;
}
