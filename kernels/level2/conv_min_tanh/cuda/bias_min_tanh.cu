// Epilogue of a bias-free convolution, NCHW: out[n, 0, p] = tanh(tanh(min_c (y[n, c, p] + bias[c]))).
// Grid (ceil(hw / 4 / 256), n): each thread owns 4 adjacent pixels (float4 when hw % 4 == 0) and walks
// the channels; consecutive threads read consecutive addresses of each channel plane (coalesced).
// The conv output is read once; only the 1/C-size result is written.
extern "C" __global__ void __launch_bounds__(256) bias_min_tanh(const float* __restrict__ y, const float* __restrict__ bias,
                                                                 float* __restrict__ out, int channels, int hw) {
    const long n = blockIdx.y;
    const float* base = y + n * channels * (long)hw;
    float* o = out + n * (long)hw;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if ((hw & 3) == 0) {
        if (i >= (hw >> 2)) return;
        float4 m = make_float4(3.402823466e38f, 3.402823466e38f, 3.402823466e38f, 3.402823466e38f);
        #pragma unroll 4
        for (int c = 0; c < channels; ++c) {
            const float4 v = __ldg(reinterpret_cast<const float4*>(base + (long)c * hw) + i);
            const float b = __ldg(bias + c);
            m.x = fminf(m.x, v.x + b); m.y = fminf(m.y, v.y + b); m.z = fminf(m.z, v.z + b); m.w = fminf(m.w, v.w + b);
        }
        reinterpret_cast<float4*>(o)[i] = make_float4(tanhf(tanhf(m.x)), tanhf(tanhf(m.y)), tanhf(tanhf(m.z)), tanhf(tanhf(m.w)));
    } else {
        for (int p = i; p < hw; p += gridDim.x * blockDim.x) {
            float m = 3.402823466e38f;
            for (int c = 0; c < channels; ++c) m = fminf(m, __ldg(base + (long)c * hw + p) + __ldg(bias + c));
            o[p] = tanhf(tanhf(m));
        }
    }
}
