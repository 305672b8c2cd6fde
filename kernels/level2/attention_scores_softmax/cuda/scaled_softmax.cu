// In-place softmax(s * scale) over rows of length n (scale > 0): one warp per row, 8 rows per block.
#define NEG_INF __int_as_float(0xff800000)

__device__ __forceinline__ float warp_max(float v) {
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// Register path for n % 4 == 0 and n <= 32 * 4 * MAXV: the row is read once into registers (float4,
// coalesced), max and sum are warp-shuffle reductions, and the row is written once.
#define MAXV 16
extern "C" __global__ void __launch_bounds__(256) scaled_softmax_reg(float* __restrict__ s, long rows, int n, float scale) {
    const long row = (long)blockIdx.x * 8 + (threadIdx.x >> 5);
    const int lane = threadIdx.x & 31, n4 = n >> 2;
    if (row >= rows) return;
    float4* p = reinterpret_cast<float4*>(s + row * n);
    float4 v[MAXV];
    float m = NEG_INF;
    #pragma unroll
    for (int k = 0; k < MAXV; ++k) {
        const int i = lane + 32 * k;
        if (i < n4) { v[k] = p[i]; m = fmaxf(m, fmaxf(fmaxf(v[k].x, v[k].y), fmaxf(v[k].z, v[k].w))); }
    }
    m = warp_max(m);
    float l = 0.f;
    #pragma unroll
    for (int k = 0; k < MAXV; ++k) {
        const int i = lane + 32 * k;
        if (i < n4) {
            v[k].x = expf((v[k].x - m) * scale); v[k].y = expf((v[k].y - m) * scale);
            v[k].z = expf((v[k].z - m) * scale); v[k].w = expf((v[k].w - m) * scale);
            l += (v[k].x + v[k].y) + (v[k].z + v[k].w);
        }
    }
    const float inv = 1.f / warp_sum(l);
    #pragma unroll
    for (int k = 0; k < MAXV; ++k) {
        const int i = lane + 32 * k;
        if (i < n4) p[i] = make_float4(v[k].x * inv, v[k].y * inv, v[k].z * inv, v[k].w * inv);
    }
}

// Any n: online max/sum per lane (one read), merged across the warp, then a second pass that writes.
extern "C" __global__ void __launch_bounds__(256) scaled_softmax_any(float* __restrict__ s, long rows, int n, float scale) {
    const long row = (long)blockIdx.x * 8 + (threadIdx.x >> 5);
    const int lane = threadIdx.x & 31;
    if (row >= rows) return;
    float* p = s + row * n;
    float m = NEG_INF, l = 0.f;
    for (int i = lane; i < n; i += 32) {
        const float v = p[i] * scale;
        if (v > m) { l = l * expf(m - v) + 1.f; m = v; } else l += expf(v - m);
    }
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float m2 = __shfl_xor_sync(0xffffffffu, m, o), l2 = __shfl_xor_sync(0xffffffffu, l, o);
        const float mm = fmaxf(m, m2);
        l = (m == mm ? l : l * expf(m - mm)) + (m2 == mm ? l2 : l2 * expf(m2 - mm));
        m = mm;
    }
    const float inv = 1.f / l;
    for (int i = lane; i < n; i += 32) p[i] = expf(p[i] * scale - m) * inv;
}
