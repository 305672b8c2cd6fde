// out = LayerNorm(x + r) over rows of length d: one block of 256 threads per row, the summed row
// kept in registers (float4, up to MAXV per thread: d <= 256 * 4 * MAXV), two-pass mean/variance.
#define THREADS 256
#define MAXV 8

__device__ __forceinline__ float block_sum(float v, float* sh) {
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    __syncthreads();                                  // sh may still be read by a previous call
    if (lane == 0) sh[warp] = v;
    __syncthreads();
    float t = 0.f;
    #pragma unroll
    for (int k = 0; k < THREADS / 32; ++k) t += sh[k];   // broadcast reads: every thread gets the total
    return t;
}

extern "C" __global__ void __launch_bounds__(THREADS) add_layer_norm(const float* __restrict__ x, const float* __restrict__ r,
        const float* __restrict__ gamma, const float* __restrict__ beta, float* __restrict__ out, int d, float eps) {
    __shared__ float sh[32];
    const long base = (long)blockIdx.x * d;
    const int n4 = d >> 2;
    const float4* x4 = reinterpret_cast<const float4*>(x + base);
    const float4* r4 = reinterpret_cast<const float4*>(r + base);
    float4 v[MAXV];
    float s = 0.f;
    #pragma unroll
    for (int k = 0; k < MAXV; ++k) {
        const int i = threadIdx.x + k * THREADS;
        if (i < n4) {
            float4 a = __ldg(x4 + i), b = __ldg(r4 + i);
            v[k] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
            s += (v[k].x + v[k].y) + (v[k].z + v[k].w);
        }
    }
    const float mean = block_sum(s, sh) / d;
    float q = 0.f;
    #pragma unroll
    for (int k = 0; k < MAXV; ++k) {
        const int i = threadIdx.x + k * THREADS;
        if (i < n4) {
            float a = v[k].x - mean, b = v[k].y - mean, c = v[k].z - mean, e = v[k].w - mean;
            q += (a * a + b * b) + (c * c + e * e);
        }
    }
    const float rstd = rsqrtf(block_sum(q, sh) / d + eps);
    float4* o4 = reinterpret_cast<float4*>(out + base);
    #pragma unroll
    for (int k = 0; k < MAXV; ++k) {
        const int i = threadIdx.x + k * THREADS;
        if (i < n4) {
            const float4 g = __ldg(reinterpret_cast<const float4*>(gamma) + i);
            const float4 b = __ldg(reinterpret_cast<const float4*>(beta) + i);
            o4[i] = make_float4((v[k].x - mean) * rstd * g.x + b.x, (v[k].y - mean) * rstd * g.y + b.y,
                                (v[k].z - mean) * rstd * g.z + b.z, (v[k].w - mean) * rstd * g.w + b.w);
        }
    }
}
