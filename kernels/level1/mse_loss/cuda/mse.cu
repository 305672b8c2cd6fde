// mean((a - b)^2) in two launches, no atomics (deterministic):
//  sq_diff_partial: a grid-stride loop with float4 loads of both inputs; each thread keeps its own sum, the block
//    reduces with warp shuffles and shared memory and writes one partial per block.
//  mean_of_partials: one block sums the partials the same way and divides by n.
// Torch runs a subtraction, a square and a mean (three passes, two temporaries); this reads each input once.
#define FULL 0xffffffffu

__device__ __forceinline__ float block_sum(float a) {
    __shared__ float sa[32];
    for (int o = 16; o > 0; o >>= 1) a += __shfl_xor_sync(FULL, a, o);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    if (lane == 0) sa[warp] = a;
    __syncthreads();
    a = lane < nwarps ? sa[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1) a += __shfl_xor_sync(FULL, a, o);
    return a;
}

extern "C" __global__ void sq_diff_partial(const float* __restrict__ a, const float* __restrict__ b,
                                           float* __restrict__ part, long n) {
    const long tid = (long)blockIdx.x * blockDim.x + threadIdx.x;
    const long stride = (long)gridDim.x * blockDim.x;
    float acc = 0.0f;
    long done = 0;
    if ((((unsigned long long)a | (unsigned long long)b) & 15ull) == 0) {
        const float4* a4 = reinterpret_cast<const float4*>(a);
        const float4* b4 = reinterpret_cast<const float4*>(b);
        const long n4 = n / 4;
        #pragma unroll 4
        for (long i = tid; i < n4; i += stride) {
            const float4 u = a4[i], v = b4[i];
            const float d0 = u.x - v.x, d1 = u.y - v.y, d2 = u.z - v.z, d3 = u.w - v.w;
            acc += (d0 * d0 + d1 * d1) + (d2 * d2 + d3 * d3);
        }
        done = n4 * 4;
    }
    for (long i = done + tid; i < n; i += stride) { const float d = a[i] - b[i]; acc += d * d; }
    acc = block_sum(acc);
    if (threadIdx.x == 0) part[blockIdx.x] = acc;
}

extern "C" __global__ void mean_of_partials(const float* __restrict__ part, float* __restrict__ out, long nparts, long n) {
    float acc = 0.0f;
    for (long i = threadIdx.x; i < nparts; i += blockDim.x) acc += part[i];
    acc = block_sum(acc);
    if (threadIdx.x == 0) out[0] = acc / (float)n;
}
