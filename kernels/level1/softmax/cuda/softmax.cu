// Row softmax, one block per row.
// softmax_rows_reg (rows of up to 8 * blockDim float4, D % 4 == 0, aligned): the row is loaded once into registers
//   (8 independent 16-byte loads per thread in flight), then max -> exp(x - max) kept in place -> sum -> scale and
//   store: one DRAM read, one write, one expf per element. Block reductions: warp shuffles, then shared memory.
// softmax_rows (any D, fallback): an online (max, sum-of-exp) sweep with rescaling, merged across the block, then a
//   second sweep writing exp(x - m) / s (that re-read mostly hits L2). blockDim % 32 == 0 for both.
#define FULL 0xffffffffu
#define NEG_INF __int_as_float(0xff800000)
#define VPT 8

__device__ __forceinline__ float block_max(float v, float* sh) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(FULL, v, o));
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    if (lane == 0) sh[warp] = v;
    __syncthreads();
    v = lane < nwarps ? sh[lane] : NEG_INF;           // every warp reduces the per-warp results itself
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(FULL, v, o));
    return v;
}

__device__ __forceinline__ float block_sum(float v, float* sh) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(FULL, v, o);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    if (lane == 0) sh[warp] = v;
    __syncthreads();
    v = lane < nwarps ? sh[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(FULL, v, o);
    return v;
}

extern "C" __global__ void __launch_bounds__(1024) softmax_rows_reg(const float* __restrict__ x, float* __restrict__ y, long D) {
    __shared__ float s_max[32], s_sum[32];
    const long D4 = D / 4;
    const float4* x4 = reinterpret_cast<const float4*>(x + (long)blockIdx.x * D);
    float4* y4 = reinterpret_cast<float4*>(y + (long)blockIdx.x * D);
    float4 v[VPT];
    float m = NEG_INF;
    #pragma unroll
    for (int k = 0; k < VPT; k++) {
        const long j = threadIdx.x + (long)k * blockDim.x;
        if (j < D4) v[k] = x4[j];
    }
    #pragma unroll
    for (int k = 0; k < VPT; k++)
        if (threadIdx.x + (long)k * blockDim.x < D4) m = fmaxf(m, fmaxf(fmaxf(v[k].x, v[k].y), fmaxf(v[k].z, v[k].w)));
    m = block_max(m, s_max);
    float s = 0.0f;
    #pragma unroll
    for (int k = 0; k < VPT; k++)
        if (threadIdx.x + (long)k * blockDim.x < D4) {
            v[k].x = expf(v[k].x - m); v[k].y = expf(v[k].y - m); v[k].z = expf(v[k].z - m); v[k].w = expf(v[k].w - m);
            s += (v[k].x + v[k].y) + (v[k].z + v[k].w);
        }
    const float inv = 1.0f / block_sum(s, s_sum);
    #pragma unroll
    for (int k = 0; k < VPT; k++) {
        const long j = threadIdx.x + (long)k * blockDim.x;
        if (j < D4) { float4 o = v[k]; o.x *= inv; o.y *= inv; o.z *= inv; o.w *= inv; y4[j] = o; }
    }
}

__device__ __forceinline__ void merge(float& m, float& s, float m2, float s2) {
    const float M = fmaxf(m, m2);
    if (M == NEG_INF) return;                         // both sides still empty
    s = s * expf(m - M) + s2 * expf(m2 - M);
    m = M;
}

extern "C" __global__ void softmax_rows(const float* __restrict__ x, float* __restrict__ y, long D) {
    __shared__ float sm[32], ss[32];
    const float* xr = x + (long)blockIdx.x * D;
    float* yr = y + (long)blockIdx.x * D;
    float m = NEG_INF, s = 0.0f;
    for (long j = threadIdx.x; j < D; j += blockDim.x) {
        const float v = xr[j];
        if (v > m) { s = s * expf(m - v) + 1.0f; m = v; }
        else s += expf(v - m);
    }
    for (int o = 16; o > 0; o >>= 1) merge(m, s, __shfl_xor_sync(FULL, m, o), __shfl_xor_sync(FULL, s, o));
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    if (lane == 0) { sm[warp] = m; ss[warp] = s; }
    __syncthreads();
    m = lane < nwarps ? sm[lane] : NEG_INF;
    s = lane < nwarps ? ss[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1) merge(m, s, __shfl_xor_sync(FULL, m, o), __shfl_xor_sync(FULL, s, o));
    const float inv = 1.0f / s;
    for (long j = threadIdx.x; j < D; j += blockDim.x) yr[j] = expf(xr[j] - m) * inv;
}
