// The whole squeeze-and-excitation block in four CUDA kernels, no library calls.

__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// p[n*C+c] = mean of plane (n, c) of x over hw; one block per plane
extern "C" __global__ void plane_mean(const float* __restrict__ x, float* __restrict__ p, long hw) {
    __shared__ float sh[32];
    const float* xp = x + (long)blockIdx.x * hw;
    float s = 0.0f;
    for (long j = threadIdx.x; j < hw; j += blockDim.x) s += xp[j];
    s = warp_sum(s);
    if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = s;
    __syncthreads();
    if (threadIdx.x < 32) {
        s = threadIdx.x < (blockDim.x >> 5) ? sh[threadIdx.x] : 0.0f;
        s = warp_sum(s);
        if (threadIdx.x == 0) p[blockIdx.x] = s / (float)hw;
    }
}

// z (N, R) = relu(p (N, C) W1^T + b1), W1 (R, C); one thread per output
extern "C" __global__ void fc_relu(const float* __restrict__ p, const float* __restrict__ w, const float* __restrict__ b,
                                   float* __restrict__ z, int N, int C, int R) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N * R) return;
    int n = i / R, r = i - n * R;
    const float* pn = p + (long)n * C;
    const float* wr = w + (long)r * C;
    float acc = b[r];
    for (int c = 0; c < C; c++) acc += pn[c] * wr[c];
    z[i] = fmaxf(acc, 0.0f);
}

// s (N, C) = sigmoid(z (N, R) W2^T + b2), W2 (C, R); one thread per output
extern "C" __global__ void fc_sigmoid(const float* __restrict__ z, const float* __restrict__ w, const float* __restrict__ b,
                                      float* __restrict__ s, int N, int C, int R) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N * C) return;
    int n = i / C, c = i - n * C;
    const float* zn = z + (long)n * R;
    const float* wc = w + (long)c * R;
    float acc = b[c];
    for (int r = 0; r < R; r++) acc += zn[r] * wc[r];
    s[i] = 1.0f / (1.0f + expf(-acc));
}

// out = relu(x * s[n, c] + identity): the excitation, the shortcut and the ReLU in one pass;
// grid.y walks the (n, c) planes, grid.x the pixels of a plane
extern "C" __global__ void scale_add_relu(const float* __restrict__ x, const float* __restrict__ s,
                                          const float* __restrict__ id, float* __restrict__ out, int hw, long planes) {
    for (long p = blockIdx.y; p < planes; p += gridDim.y) {
        float sp = s[p];
        long o = p * hw;
        for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < hw; j += gridDim.x * blockDim.x)
            out[o + j] = fmaxf(x[o + j] * sp + id[o + j], 0.0f);
    }
}
