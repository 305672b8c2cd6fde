// Row L2 normalisation, one block per row.
// l2_norm_rows_reg (D % 4 == 0, D <= 8 * 4 * blockDim, aligned): the row is loaded once into registers (up to 8
//   independent 16-byte loads per thread in flight), the sum of squares is reduced across the block (warp shuffles,
//   then shared memory) and y = x * (1 / ||x||) is stored from the registers: one DRAM read, one write.
// l2_norm_rows (fallback, any D): a sum-of-squares sweep, then a scaling sweep (that re-read mostly hits L2).
// blockDim % 32 == 0 for both.
#define FULL 0xffffffffu
#define VPT 8

__device__ __forceinline__ float block_sum(float v, float* sh) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(FULL, v, o);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    if (lane == 0) sh[warp] = v;
    __syncthreads();
    v = lane < nwarps ? sh[lane] : 0.0f;              // every warp reduces the per-warp sums itself
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(FULL, v, o);
    return v;
}

extern "C" __global__ void __launch_bounds__(1024) l2_norm_rows_reg(const float* __restrict__ x, float* __restrict__ y, long D) {
    __shared__ float sh[32];
    const long D4 = D / 4;
    const float4* x4 = reinterpret_cast<const float4*>(x + (long)blockIdx.x * D);
    float4* y4 = reinterpret_cast<float4*>(y + (long)blockIdx.x * D);
    float4 v[VPT];
    #pragma unroll
    for (int k = 0; k < VPT; k++) {
        const long j = threadIdx.x + (long)k * blockDim.x;
        if (j < D4) v[k] = x4[j];
    }
    float ss = 0.0f;
    #pragma unroll
    for (int k = 0; k < VPT; k++)
        if (threadIdx.x + (long)k * blockDim.x < D4) ss += (v[k].x * v[k].x + v[k].y * v[k].y) + (v[k].z * v[k].z + v[k].w * v[k].w);
    const float inv = 1.0f / sqrtf(block_sum(ss, sh));
    #pragma unroll
    for (int k = 0; k < VPT; k++) {
        const long j = threadIdx.x + (long)k * blockDim.x;
        if (j < D4) { float4 o = v[k]; o.x *= inv; o.y *= inv; o.z *= inv; o.w *= inv; y4[j] = o; }
    }
}

extern "C" __global__ void l2_norm_rows(const float* __restrict__ x, float* __restrict__ y, long D) {
    __shared__ float sh[32];
    const float* xr = x + (long)blockIdx.x * D;
    float* yr = y + (long)blockIdx.x * D;
    float ss = 0.0f;
    for (long j = threadIdx.x; j < D; j += blockDim.x) ss += xr[j] * xr[j];
    const float inv = 1.0f / sqrtf(block_sum(ss, sh));
    for (long j = threadIdx.x; j < D; j += blockDim.x) yr[j] = xr[j] * inv;
}
