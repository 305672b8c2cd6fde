// LayerNorm and the elementwise epilogues of the pre-norm feed-forward; the two GEMMs run in cuBLAS (addmm).

__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// sum of v over the block (blockDim.x a multiple of 32, at most 1024); every thread gets the total
__device__ float block_sum(float v, float* sh) {
    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nw = blockDim.x >> 5;
    v = warp_sum(v);
    __syncthreads();                       // sh may still be read by a previous call
    if (lane == 0) sh[wid] = v;
    __syncthreads();
    v = lane < nw ? sh[lane] : 0.0f;
    return warp_sum(v);
}

// y = (x - mean) / sqrt(var + eps) * w + b per row of length cols (two-pass statistics); one block per row
extern "C" __global__ void layernorm(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ b,
                                     float* __restrict__ y, int cols, float eps) {
    __shared__ float sh[32];
    const float* xr = x + (long)blockIdx.x * cols;
    float* yr = y + (long)blockIdx.x * cols;
    float s = 0.0f;
    for (int j = threadIdx.x; j < cols; j += blockDim.x) s += xr[j];
    float mean = block_sum(s, sh) / cols;
    float q = 0.0f;
    for (int j = threadIdx.x; j < cols; j += blockDim.x) { float d = xr[j] - mean; q += d * d; }
    float rstd = 1.0f / sqrtf(block_sum(q, sh) / cols + eps);
    for (int j = threadIdx.x; j < cols; j += blockDim.x) yr[j] = (xr[j] - mean) * rstd * w[j] + b[j];
}

// h = GELU(h) in place, tanh form 0.5*h*(1+tanh(sqrt(2/pi)*(h+0.044715 h^3))) as in F.gelu(approximate='tanh')
extern "C" __global__ void gelu_tanh_inplace(float* __restrict__ h, long n) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { float v = h[i]; h[i] = 0.5f * v * (1.0f + tanhf(0.7978845608028654f * (v + 0.044715f * v * v * v))); }
}

// y += x in place (the residual)
extern "C" __global__ void add_inplace(float* __restrict__ y, const float* __restrict__ x, long n) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += x[i];
}
