// tiny.cu - one small kernel, for the seeds of the fatbin fuzz harness
// (fuzz/corpus/fatbin/): its fatbins are a few hundred bytes.
extern "C" __global__ void add1(int *p)
{
	p[threadIdx.x] += 1;
}
