// loading.cu - CUDA_MODULE_LOADING: LAZY (the default) loads a program's
// module at its first use, EAGER when the runtime starts. A module's
// 64 MiB __device__ variable is device memory once the module is loaded,
// so cudaMemGetInfo tells when that happened. The program checks LAZY,
// then runs itself again under EAGER.
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

__device__ char big[64 << 20];

__global__ void touch()
{
	big[threadIdx.x] = 1;
}

// What the first launch took of the device's free memory, in bytes.
static long long launch_takes()
{
	size_t before, after, total;

	CHECK(cudaFree(0));  // the runtime starts, the context is current
	CHECK(cudaMemGetInfo(&before, &total));
	touch<<<1, 32>>>();
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemGetInfo(&after, &total));
	return (long long)before - (long long)after;
}

int main(int argc, char **argv)
{
	bool eager = argc > 1 && !std::strcmp(argv[1], "eager");
	long long took = launch_takes();
	int status;
	pid_t pid;

	std::printf("%s: the first launch took %lld MiB\n",
		    eager ? "EAGER" : "LAZY", took >> 20);
	if (eager) {
		EXPECT(took < (1 << 20));   // loaded when the runtime started
		std::puts("PASS");
		return 0;
	}
	EXPECT(took >= (64 << 20));         // loaded by the launch
	std::fflush(stdout);
	if ((pid = fork()) == 0) {
		setenv("CUDA_MODULE_LOADING", "EAGER", 1);
		execl("/proc/self/exe", argv[0], "eager", (char *)NULL);
		_exit(127);
	}
	EXPECT(pid > 0 && waitpid(pid, &status, 0) == pid);
	EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	std::puts("PASS");
	return 0;
}
