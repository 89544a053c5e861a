// cpuwait.cu - kernels of our own for a CPU thread touching managed memory
// while kernels run (test_cpuwait): one writes results over many pages, as
// a program that reads them back without synchronizing expects finished;
// one polls a flag the CPU writes, as a kernel that legitimately shares
// managed memory with a running program does. The PTX beside this file is
// nvcc's output for it (Makefile.am, "kernels"), committed so that
// machines without nvcc test the same image.

// adds one to each of y[0, n)
extern "C" __global__ void bump(int n, int *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] += 1;
}

// waits until the CPU sets *flag (read through a volatile pointer, so each
// read goes to memory), then reports what it read in *seen
extern "C" __global__ void wait_flag(volatile int *flag, int *seen)
{
	int v;

	if (threadIdx.x != 0)
		return;
	while ((v = *flag) == 0)
		;
	*seen = v;
}
