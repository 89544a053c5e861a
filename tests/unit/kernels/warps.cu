// warps.cu - warp-synchronous code: shuffles of every mode, votes,
// ballots, activemask, redux and match; atomics under contention in
// global and shared memory; __syncthreads_count/and/or.

extern "C" __global__ void shuffles(int *out)
{
	int t = threadIdx.x, v = t * 10 + 1;
	out[t * 5 + 0] = __shfl_sync(0xffffffff, v, (t * 7) & 31);
	out[t * 5 + 1] = __shfl_up_sync(0xffffffff, v, 3);
	out[t * 5 + 2] = __shfl_down_sync(0xffffffff, v, 5);
	out[t * 5 + 3] = __shfl_xor_sync(0xffffffff, v, 6);
	out[t * 5 + 4] = __shfl_down_sync(0xffffffff, v, 2, 8);
}

extern "C" __global__ void votes(unsigned *out, const int *in)
{
	int t = threadIdx.x, x = in[t];
	out[t * 6 + 0] = __ballot_sync(0xffffffff, x > 10);
	out[t * 6 + 1] = __all_sync(0xffffffff, x >= 0);
	out[t * 6 + 2] = __any_sync(0xffffffff, x == 17);
	out[t * 6 + 3] = __uni_sync(0xffffffff, x > 1000);
	if (t & 1)
		out[t * 6 + 4] = __activemask();
	else
		out[t * 6 + 4] = 0;
	out[t * 6 + 5] = __reduce_add_sync(0xffffffff, (unsigned)x) ^
			 __reduce_max_sync(0xffffffff, (unsigned)x);
}

extern "C" __global__ void matches(unsigned *out, const int *in)
{
	int t = threadIdx.x, pred;
	out[t * 2 + 0] = __match_any_sync(0xffffffff, in[t]);
	out[t * 2 + 1] = __match_all_sync(0xffffffff, in[t] & 0, &pred) + pred;
}

extern "C" __global__ void contention(unsigned *c, float *f, double *d,
				      int *mn, unsigned *wrap,
				      unsigned long long *cas)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	atomicAdd(&c[0], 1u);
	atomicAdd(f, 0.5f);
	atomicAdd(d, 0.25);
	atomicMin(&mn[0], 1000 - t);
	atomicMax(&mn[1], t);
	atomicInc(&wrap[0], 9u);
	atomicDec(&wrap[1], 6u);
	atomicOr(&c[1], 1u << (t & 31));
	atomicXor(&c[2], (unsigned)t);
	atomicAnd(&c[3], ~(1u << (t & 31)));
	unsigned long long old = *cas, seen;
	while ((seen = atomicCAS(cas, old, old + t)) != old)
		old = seen;
	atomicExch(&c[4], 77u);
}

extern "C" __global__ void syncCounts(int *out, const int *in)
{
	int t = threadIdx.x;
	out[0 * blockDim.x + t] = __syncthreads_count(in[t] > 3);
	out[1 * blockDim.x + t] = __syncthreads_and(in[t] >= 0);
	out[2 * blockDim.x + t] = __syncthreads_or(in[t] == 5);
}
