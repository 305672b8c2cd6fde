// BatchNorm folding and the fused epilogues of the ResNet BasicBlock; the 3x3 convolutions run in cuDNN.

// wf = w * s[o], bf[o] = beta[o] - mean[o] * s[o] with s = gamma / sqrt(var + eps): eval-mode BN folded into the conv before it
extern "C" __global__ void fold_bn(const float* __restrict__ w, const float* __restrict__ gamma, const float* __restrict__ beta,
                                   const float* __restrict__ mean, const float* __restrict__ var,
                                   float* __restrict__ wf, float* __restrict__ bf, int cout, int k, float eps) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;    // index into (cout, k)
    if (i >= (long)cout * k) return;
    int o = (int)(i / k);
    float s = gamma[o] / sqrtf(var[o] + eps);
    wf[i] = w[i] * s;
    if (i == (long)o * k) bf[o] = beta[o] - mean[o] * s;
}

// y = relu(y + b[c]) in place, y in NCHW; grid.y walks the (n, c) planes, grid.x the pixels of a plane
extern "C" __global__ void bias_relu(float* __restrict__ y, const float* __restrict__ b, int C, int hw, long planes) {
    for (long p = blockIdx.y; p < planes; p += gridDim.y) {
        float bc = b[p % C];
        float* yp = y + p * hw;
        for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < hw; j += gridDim.x * blockDim.x) yp[j] = fmaxf(yp[j] + bc, 0.0f);
    }
}

// y = relu(y + b[c] + x) in place: the second BN's bias, the identity shortcut and the final ReLU in one pass
extern "C" __global__ void bias_add_relu(float* __restrict__ y, const float* __restrict__ b, const float* __restrict__ x,
                                         int C, int hw, long planes) {
    for (long p = blockIdx.y; p < planes; p += gridDim.y) {
        float bc = b[p % C];
        float* yp = y + p * hw;
        const float* xp = x + p * hw;
        for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < hw; j += gridDim.x * blockDim.x)
            yp[j] = fmaxf(yp[j] + bc + xp[j], 0.0f);
    }
}
