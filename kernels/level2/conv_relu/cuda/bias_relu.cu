// Epilogue of a bias-free convolution, NCHW: y[n, c, :, :] = max(y + bias[c], 0) in place.
// Grid (ceil(hw / 4 / 256), n * channels): blockIdx.y is the (n, c) plane, so the bias is one
// broadcast load per block and no index is divided; float4 accesses when hw % 4 == 0.
extern "C" __global__ void __launch_bounds__(256) bias_relu_nchw(float* __restrict__ y, const float* __restrict__ bias,
                                                                  int channels, int hw) {
    const long plane = blockIdx.y;
    const float b = __ldg(bias + plane % channels);
    float* p = y + plane * hw;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if ((hw & 3) == 0) {
        if (i >= (hw >> 2)) return;
        float4 v = reinterpret_cast<float4*>(p)[i];
        v.x = fmaxf(v.x + b, 0.f); v.y = fmaxf(v.y + b, 0.f); v.z = fmaxf(v.z + b, 0.f); v.w = fmaxf(v.w + b, 0.f);
        reinterpret_cast<float4*>(p)[i] = v;
    } else {
        for (int j = i; j < hw; j += gridDim.x * blockDim.x) p[j] = fmaxf(p[j] + b, 0.f);
    }
}
