// RMSNorm and the SwiGLU product of the gated feed-forward; the three GEMMs run in cuBLAS (mm, addmm).

__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// y = x / sqrt(mean(x^2) + eps) * w per row of length cols; one block per row
extern "C" __global__ void rmsnorm(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y,
                                   int cols, float eps) {
    __shared__ float sh[32];
    const float* xr = x + (long)blockIdx.x * cols;
    float* yr = y + (long)blockIdx.x * cols;
    float q = 0.0f;
    for (int j = threadIdx.x; j < cols; j += blockDim.x) q += xr[j] * xr[j];
    q = warp_sum(q);
    if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = q;
    __syncthreads();
    q = (threadIdx.x & 31) < (blockDim.x >> 5) ? sh[threadIdx.x & 31] : 0.0f;
    q = warp_sum(q);
    float r = 1.0f / sqrtf(q / cols + eps);
    for (int j = threadIdx.x; j < cols; j += blockDim.x) yr[j] = xr[j] * r * w[j];
}

// g = silu(g) * u in place
extern "C" __global__ void silu_mul(float* __restrict__ g, const float* __restrict__ u, long n) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { float v = g[i]; g[i] = v / (1.0f + expf(-v)) * u[i]; }
}
