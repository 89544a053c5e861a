// scale.cu - a program of our own for examples/steering/steer.sh: rounds
// of "the CPU fills a managed buffer, then a kernel scales it on the GPU".
// Between the fill and the launch it waits for a line on standard input,
// so that whoever drives it can steer the buffer through /cu while the
// program runs, and after the last round it waits for one more before it
// ends (its /cu files go with it); it prints what it is doing, a line each
// step.
//
// Build: nvcc -cudart shared -o scale scale.cu
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

// one thread a 4 KiB page: scales the page's first float
extern "C" __global__ void scale(float *p, size_t n, float k)
{
	size_t i = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * 1024;
	if (i < n)
		p[i] *= k;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 3;
	size_t mib = argc > 2 ? strtoul(argv[2], NULL, 10) : 32;
	size_t n = mib << 18; // floats
	unsigned pages = (unsigned)(n / 1024);
	char line[64];
	float *p;

	if (cudaMallocManaged(&p, n * sizeof *p) != cudaSuccess) {
		fprintf(stderr, "scale: no managed memory\n");
		return 1;
	}
	printf("pid %d buffer %zu MiB\n", (int)getpid(), mib);
	for (int r = 1; r <= rounds; r++) {
		for (size_t i = 0; i < n; i += 1024)
			p[i] = 1.0f;
		printf("round %d filled\n", r);
		fflush(stdout);
		if (!fgets(line, sizeof line, stdin))
			break;
		scale<<<(pages + 127) / 128, 128>>>(p, n, 2.0f);
		if (cudaDeviceSynchronize() != cudaSuccess || p[0] != 2.0f) {
			fprintf(stderr, "scale: round %d failed\n", r);
			return 1;
		}
		printf("round %d scaled\n", r);
		fflush(stdout);
	}
	printf("done\n");
	fflush(stdout);
	if (fgets(line, sizeof line, stdin)) {
		// the last line read: the process may end
	}
	cudaFree(p);
	return 0;
}
