// out[n, 0, p] = hardswish(logsumexp_c x[n, c, p]) for NCHW x.
// Grid (ceil(hw / 4 / 256), n): each thread owns 4 adjacent pixels (float4 when hw % 4 == 0) and runs an
// online max / sum-of-exp over the channels, so x is read exactly once (eager: max, subtract, exp, sum,
// log, add, hardswish as separate passes); consecutive threads read consecutive addresses of each plane.
__device__ __forceinline__ void online(float v, float& m, float& s) {
    if (v > m) { s = s * expf(m - v) + 1.f; m = v; } else s += expf(v - m);
}
__device__ __forceinline__ float hardswish(float v) { return v * fminf(fmaxf(v + 3.f, 0.f), 6.f) / 6.f; }

extern "C" __global__ void __launch_bounds__(256) lse_hardswish(const float* __restrict__ x, float* __restrict__ out,
                                                                 int channels, int hw) {
    const long n = blockIdx.y;
    const float* base = x + n * channels * (long)hw;
    float* o = out + n * (long)hw;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if ((hw & 3) == 0) {
        if (i >= (hw >> 2)) return;
        float4 v = __ldg(reinterpret_cast<const float4*>(base) + i);
        float4 m = v, s = make_float4(1.f, 1.f, 1.f, 1.f);
        #pragma unroll 4
        for (int c = 1; c < channels; ++c) {
            v = __ldg(reinterpret_cast<const float4*>(base + (long)c * hw) + i);
            online(v.x, m.x, s.x); online(v.y, m.y, s.y); online(v.z, m.z, s.z); online(v.w, m.w, s.w);
        }
        reinterpret_cast<float4*>(o)[i] = make_float4(hardswish(m.x + logf(s.x)), hardswish(m.y + logf(s.y)),
                                                      hardswish(m.z + logf(s.z)), hardswish(m.w + logf(s.w)));
    } else {
        for (int p = i; p < hw; p += gridDim.x * blockDim.x) {
            float m = __ldg(base + p), s = 1.f;
            for (int c = 1; c < channels; ++c) online(__ldg(base + (long)c * hw + p), m, s);
            o[p] = hardswish(m + logf(s));
        }
    }
}
