/* check.h - what every program here uses: a failed CUDA call or a wrong
 * value prints where and exits 1; the last line of a passing program is
 * "PASS". */
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                        \
	do {                                                               \
		cudaError_t e_ = (call);                                   \
		if (e_ != cudaSuccess) {                                   \
			std::printf("FAIL %s:%d: %s: %s\n", __FILE__,      \
				    __LINE__, #call,                       \
				    cudaGetErrorName(e_));                 \
			std::exit(1);                                      \
		}                                                          \
	} while (0)

#define EXPECT(cond)                                                       \
	do {                                                               \
		if (!(cond)) {                                             \
			std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, \
				    #cond);                                \
			std::exit(1);                                      \
		}                                                          \
	} while (0)
