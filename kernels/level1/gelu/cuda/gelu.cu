// y = 0.5 * x * (1 + erf(x / sqrt(2))), full-precision erff (no tanh approximation, no fast-math intrinsics).
// Grid-stride loop over float4 (16-byte loads/stores) when both pointers are 16-byte aligned, four independent
// float4 loads in flight per thread per step (explicit ILP), then a scalar tail.
#define ILP 4
__device__ __forceinline__ float gelu_f(float x) { return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f)); }
__device__ __forceinline__ float4 gelu4(float4 v) { return make_float4(gelu_f(v.x), gelu_f(v.y), gelu_f(v.z), gelu_f(v.w)); }

extern "C" __global__ void gelu(const float* __restrict__ x, float* __restrict__ y, long n) {
    const long tid = (long)blockIdx.x * blockDim.x + threadIdx.x;
    const long stride = (long)gridDim.x * blockDim.x;
    long done = 0;
    if ((((unsigned long long)x | (unsigned long long)y) & 15ull) == 0) {
        const long n4 = n / 4;
        const float4* x4 = reinterpret_cast<const float4*>(x);
        float4* y4 = reinterpret_cast<float4*>(y);
        long i = tid;
        for (; i + (ILP - 1) * stride < n4; i += ILP * stride) {
            float4 v[ILP];
            #pragma unroll
            for (int k = 0; k < ILP; k++) v[k] = x4[i + k * stride];
            #pragma unroll
            for (int k = 0; k < ILP; k++) y4[i + k * stride] = gelu4(v[k]);
        }
        for (; i < n4; i += stride) y4[i] = gelu4(x4[i]);
        done = n4 * 4;
    }
    for (long i = done + tid; i < n; i += stride) y[i] = gelu_f(x[i]);
}
