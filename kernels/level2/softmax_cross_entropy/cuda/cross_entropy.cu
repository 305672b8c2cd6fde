// loss[r] = logsumexp(x[r, :]) - x[r, target[r]]: one block of 256 threads per row, each thread keeps an
// online max and sum of exponentials over its strided elements (one read of the logits, coalesced; rows of
// odd length are not 16-byte aligned, so plain loads, four in flight), then a block merge of the (max, sum) pairs.
#define THREADS 256
#define NEG_INF __int_as_float(0xff800000)

__device__ __forceinline__ void online(float v, float& m, float& s) {
    if (v > m) { s = s * expf(m - v) + 1.f; m = v; } else s += expf(v - m);
}
__device__ __forceinline__ void merge(float& m, float& s, float m2, float s2) {
    const float mm = fmaxf(m, m2);
    s = (m == mm ? s : s * expf(m - mm)) + (m2 == mm ? s2 : s2 * expf(m2 - mm));   // no inf - inf when both empty
    m = mm;
}

extern "C" __global__ void __launch_bounds__(THREADS) cross_entropy_rows(const float* __restrict__ x, const long* __restrict__ target,
                                                                          float* __restrict__ loss, int classes) {
    __shared__ float shm[THREADS / 32], shs[THREADS / 32];
    const float* row = x + (long)blockIdx.x * classes;
    float m = NEG_INF, s = 0.f;
    int i = threadIdx.x;
    for (; i + 3 * THREADS < classes; i += 4 * THREADS) {
        const float a = __ldg(row + i), b = __ldg(row + i + THREADS), c = __ldg(row + i + 2 * THREADS), d = __ldg(row + i + 3 * THREADS);
        online(a, m, s); online(b, m, s); online(c, m, s); online(d, m, s);
    }
    for (; i < classes; i += THREADS) online(__ldg(row + i), m, s);
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) merge(m, s, __shfl_xor_sync(0xffffffffu, m, o), __shfl_xor_sync(0xffffffffu, s, o));
    if ((threadIdx.x & 31) == 0) { shm[threadIdx.x >> 5] = m; shs[threadIdx.x >> 5] = s; }
    __syncthreads();
    if (threadIdx.x == 0) {
        float M = shm[0], S = shs[0];
        #pragma unroll
        for (int w = 1; w < THREADS / 32; ++w) merge(M, S, shm[w], shs[w]);
        loss[blockIdx.x] = M + logf(S) - __ldg(row + target[blockIdx.x]);
    }
}
