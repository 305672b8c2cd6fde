// out = x * rsqrt(mean(x^2) + eps) * weight * scale over rows of length d: one block of 256 threads
// per row, the row held in registers (float4, up to MAXV per thread: d <= 256 * 4 * MAXV), one read
// and one write; the two learned vectors are multiplied on the fly (no folded weight is stored).
#define THREADS 256
#define MAXV 8

extern "C" __global__ void __launch_bounds__(THREADS) rmsnorm_scale(const float* __restrict__ x, const float* __restrict__ w,
        const float* __restrict__ s, float* __restrict__ out, int d, float eps) {
    __shared__ float sh[THREADS / 32];
    const long base = (long)blockIdx.x * d;
    const int n4 = d >> 2;
    const float4* x4 = reinterpret_cast<const float4*>(x + base);
    float4 v[MAXV];
    float q = 0.f;
    #pragma unroll
    for (int k = 0; k < MAXV; ++k) {
        const int i = threadIdx.x + k * THREADS;
        if (i < n4) {
            v[k] = __ldg(x4 + i);
            q += (v[k].x * v[k].x + v[k].y * v[k].y) + (v[k].z * v[k].z + v[k].w * v[k].w);
        }
    }
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) q += __shfl_xor_sync(0xffffffffu, q, o);
    if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = q;
    __syncthreads();
    q = 0.f;
    #pragma unroll
    for (int k = 0; k < THREADS / 32; ++k) q += sh[k];
    const float rinv = rsqrtf(q / d + eps);
    float4* o4 = reinterpret_cast<float4*>(out + base);
    const float4* w4 = reinterpret_cast<const float4*>(w);
    const float4* s4 = reinterpret_cast<const float4*>(s);
    #pragma unroll
    for (int k = 0; k < MAXV; ++k) {
        const int i = threadIdx.x + k * THREADS;
        if (i < n4) {
            const float4 a = __ldg(w4 + i), b = __ldg(s4 + i);
            o4[i] = make_float4(v[k].x * rinv * a.x * b.x, v[k].y * rinv * a.y * b.y,
                                v[k].z * rinv * a.z * b.z, v[k].w * rinv * a.w * b.w);
        }
    }
}
