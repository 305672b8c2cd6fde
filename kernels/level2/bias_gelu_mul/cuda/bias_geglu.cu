// out[r, j] = (x[r, j] + b[j]) * gelu(x[r, d + j] + b[d + j]) for rows of 2d inputs, exact erf GELU.
// Grid (ceil(d / 4 / 256), rows): blockIdx.y is the row, float4 accesses when d % 4 == 0; the input
// is read once and the half-size output written once (eager: bias add, GELU and product, 3 kernels).
__device__ __forceinline__ float gelu(float v) { return 0.5f * v * (1.f + erff(v * 0.70710678118654752f)); }

extern "C" __global__ void __launch_bounds__(256) bias_geglu(const float* __restrict__ x, const float* __restrict__ b,
                                                              float* __restrict__ out, int d) {
    const long r = blockIdx.y;
    const float* xa = x + r * 2 * d;
    const float* xg = xa + d;
    float* o = out + r * d;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if ((d & 3) == 0) {
        if (i >= (d >> 2)) return;
        const float4 a = __ldg(reinterpret_cast<const float4*>(xa) + i), g = __ldg(reinterpret_cast<const float4*>(xg) + i);
        const float4 ba = __ldg(reinterpret_cast<const float4*>(b) + i), bg = __ldg(reinterpret_cast<const float4*>(b + d) + i);
        reinterpret_cast<float4*>(o)[i] = make_float4((a.x + ba.x) * gelu(g.x + bg.x), (a.y + ba.y) * gelu(g.y + bg.y),
                                                      (a.z + ba.z) * gelu(g.z + bg.z), (a.w + ba.w) * gelu(g.w + bg.w));
    } else {
        for (int j = i; j < d; j += gridDim.x * blockDim.x) o[j] = (xa[j] + b[j]) * gelu(xg[j] + b[d + j]);
    }
}
