// Epilogue of a bias-free GEMM: y[r, c] = gelu(y[r, c] + bias[c]) in place, exact erf GELU.
__device__ __forceinline__ float gelu(float v) { return 0.5f * v * (1.f + erff(v * 0.70710678118654752f)); }

// Grid (ceil(cols / 4 / 256), rows): blockIdx.y is the row, so the bias index needs no division;
// float4 accesses when cols is a multiple of 4 (rows then stay 16-byte aligned).
extern "C" __global__ void __launch_bounds__(256) bias_gelu_inplace(float* __restrict__ y, const float* __restrict__ bias,
                                                                     int rows, int cols) {
    const long r = blockIdx.y;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float* row = y + r * cols;
    if ((cols & 3) == 0) {
        if (i >= (cols >> 2)) return;
        float4 v = reinterpret_cast<float4*>(row)[i];
        const float4 b = __ldg(reinterpret_cast<const float4*>(bias) + i);
        v.x = gelu(v.x + b.x); v.y = gelu(v.y + b.y); v.z = gelu(v.z + b.z); v.w = gelu(v.w + b.w);
        reinterpret_cast<float4*>(row)[i] = v;
    } else {
        for (int c = i; c < cols; c += gridDim.x * blockDim.x) row[c] = gelu(row[c] + __ldg(bias + c));
    }
}
