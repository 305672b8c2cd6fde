// Depthwise 3x3 conv with BatchNorm and ReLU fused, BatchNorm folding, and the pointwise epilogue; the 1x1 conv runs in cuDNN.

// y = relu(bn1(depthwise 3x3 conv of x, padding 1)), NCHW; grid.z walks the (n, c) planes, a 2-D block tiles the plane,
// one thread per output pixel; the BN scale and shift are computed inline from the running statistics
extern "C" __global__ void dw3x3_bn_relu(const float* __restrict__ x, const float* __restrict__ w,
                                         const float* __restrict__ gamma, const float* __restrict__ beta,
                                         const float* __restrict__ mean, const float* __restrict__ var,
                                         float* __restrict__ y, int C, int H, int W, float eps, long planes) {
    int ox = blockIdx.x * blockDim.x + threadIdx.x, oy = blockIdx.y * blockDim.y + threadIdx.y;
    if (ox >= W || oy >= H) return;
    for (long p = blockIdx.z; p < planes; p += gridDim.z) {
        int c = (int)(p % C);
        const float* xp = x + p * H * W;
        const float* wc = w + c * 9;
        float acc = 0.0f;
        #pragma unroll
        for (int ky = 0; ky < 3; ky++) {
            int iy = oy + ky - 1;
            if (iy < 0 || iy >= H) continue;
            #pragma unroll
            for (int kx = 0; kx < 3; kx++) {
                int ix = ox + kx - 1;
                if (ix >= 0 && ix < W) acc += xp[iy * W + ix] * wc[ky * 3 + kx];
            }
        }
        float s = gamma[c] / sqrtf(var[c] + eps);
        y[p * H * W + oy * W + ox] = fmaxf((acc - mean[c]) * s + beta[c], 0.0f);
    }
}

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
