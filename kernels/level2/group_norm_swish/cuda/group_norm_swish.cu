// GroupNorm + Swish, NCHW: one block per (n, group); the group's channels are contiguous in memory.
// Pass 1 reads the group once for shifted sums (shift = the group's first value, which keeps
// E[x^2] - E[x]^2 free of cancellation), pass 2 reads it again and writes swish(x * a[c] + b[c]).
#define THREADS 512

__device__ __forceinline__ float swish(float v) { return v / (1.f + expf(-v)); }

extern "C" __global__ void __launch_bounds__(THREADS) group_norm_swish(const float* __restrict__ x, const float* __restrict__ gamma,
        const float* __restrict__ beta, float* __restrict__ out, int channels, int groups, int hw, float eps) {
    __shared__ float sh1[THREADS / 32], sh2[THREADS / 32];
    __shared__ float stat[2];
    const int cpg = channels / groups;
    const int g = blockIdx.x % groups;
    const long base = (long)blockIdx.x * cpg * hw;           // blockIdx.x = n * groups + g
    const long count = (long)cpg * hw;
    const float k = __ldg(x + base);
    float s1 = 0.f, s2 = 0.f;
    const bool vec = (hw & 3) == 0;
    if (vec) {
        const float4* p = reinterpret_cast<const float4*>(x + base);
        for (long i = threadIdx.x; i < (count >> 2); i += THREADS) {
            const float4 v = __ldg(p + i);
            const float a = v.x - k, b = v.y - k, c = v.z - k, d = v.w - k;
            s1 += (a + b) + (c + d);
            s2 += (a * a + b * b) + (c * c + d * d);
        }
    } else {
        for (long i = threadIdx.x; i < count; i += THREADS) { const float a = __ldg(x + base + i) - k; s1 += a; s2 += a * a; }
    }
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) { s1 += __shfl_xor_sync(0xffffffffu, s1, o); s2 += __shfl_xor_sync(0xffffffffu, s2, o); }
    if ((threadIdx.x & 31) == 0) { sh1[threadIdx.x >> 5] = s1; sh2[threadIdx.x >> 5] = s2; }
    __syncthreads();
    if (threadIdx.x == 0) {
        float t1 = 0.f, t2 = 0.f;
        #pragma unroll
        for (int w = 0; w < THREADS / 32; ++w) { t1 += sh1[w]; t2 += sh2[w]; }
        const float m = t1 / count;
        const float var = fmaxf(t2 / count - m * m, 0.f);
        stat[0] = k + m;
        stat[1] = rsqrtf(var + eps);
    }
    __syncthreads();
    const float mean = stat[0], rstd = stat[1];
    for (int c = 0; c < cpg; ++c) {                          // per channel: one scale and one shift
        const int ch = g * cpg + c;
        const float a = __ldg(gamma + ch) * rstd;
        const float b = __ldg(beta + ch) - mean * a;
        const long off = base + (long)c * hw;
        if (vec) {
            const float4* p = reinterpret_cast<const float4*>(x + off);
            float4* q = reinterpret_cast<float4*>(out + off);
            for (int i = threadIdx.x; i < (hw >> 2); i += THREADS) {
                const float4 v = __ldg(p + i);
                q[i] = make_float4(swish(v.x * a + b), swish(v.y * a + b), swish(v.z * a + b), swish(v.w * a + b));
            }
        } else {
            for (int i = threadIdx.x; i < hw; i += THREADS) out[off + i] = swish(__ldg(x + off + i) * a + b);
        }
    }
}
