// LayerNorm over the last dimension, one block per row.
// layer_norm_rows_reg (H % 4 == 0, H <= 8 * 4 * blockDim, aligned pointers): the row is loaded once into registers
//   (up to 8 independent 16-byte loads per thread in flight); mean = block sum / H, then the exact two-pass variance
//   sum((x - mean)^2) / H from the same registers, then y = (x - mean) * rstd * w + b stored: one DRAM read and one
//   write. Block sums: warp shuffles, then shared memory (a separate scratch array per reduction).
// layer_norm_rows (fallback, any H): shifted sums - with c = the row's first element, sum d = x - c and d*d in one
//   sweep (the shift avoids the cancellation of a plain sum of squares) - then a second sweep that normalises.
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

extern "C" __global__ void __launch_bounds__(1024) layer_norm_rows_reg(const float* __restrict__ x, const float* __restrict__ w,
        const float* __restrict__ bias, float* __restrict__ y, long H, float eps) {
    __shared__ float s_mean[32], s_var[32];
    const long H4 = H / 4;
    const float4* x4 = reinterpret_cast<const float4*>(x + (long)blockIdx.x * H);
    float4* y4 = reinterpret_cast<float4*>(y + (long)blockIdx.x * H);
    const float4* w4 = reinterpret_cast<const float4*>(w);
    const float4* b4 = reinterpret_cast<const float4*>(bias);
    float4 v[VPT];
    #pragma unroll
    for (int k = 0; k < VPT; k++) {
        const long j = threadIdx.x + (long)k * blockDim.x;
        if (j < H4) v[k] = x4[j];
    }
    float s = 0.0f;
    #pragma unroll
    for (int k = 0; k < VPT; k++)
        if (threadIdx.x + (long)k * blockDim.x < H4) s += (v[k].x + v[k].y) + (v[k].z + v[k].w);
    const float mean = block_sum(s, s_mean) / (float)H;
    float q = 0.0f;
    #pragma unroll
    for (int k = 0; k < VPT; k++)
        if (threadIdx.x + (long)k * blockDim.x < H4) {
            const float a = v[k].x - mean, b = v[k].y - mean, c = v[k].z - mean, d = v[k].w - mean;
            q += (a * a + b * b) + (c * c + d * d);
        }
    const float rstd = 1.0f / sqrtf(block_sum(q, s_var) / (float)H + eps);
    #pragma unroll
    for (int k = 0; k < VPT; k++) {
        const long j = threadIdx.x + (long)k * blockDim.x;
        if (j < H4) {
            const float4 g = w4[j], bb = b4[j];
            float4 o;
            o.x = (v[k].x - mean) * rstd * g.x + bb.x;
            o.y = (v[k].y - mean) * rstd * g.y + bb.y;
            o.z = (v[k].z - mean) * rstd * g.z + bb.z;
            o.w = (v[k].w - mean) * rstd * g.w + bb.w;
            y4[j] = o;
        }
    }
}

extern "C" __global__ void layer_norm_rows(const float* __restrict__ x, const float* __restrict__ w,
                                           const float* __restrict__ bias, float* __restrict__ y, long H, float eps) {
    __shared__ float sa[32], sb[32];
    const float* xr = x + (long)blockIdx.x * H;
    float* yr = y + (long)blockIdx.x * H;
    const float c = xr[0];
    float s1 = 0.0f, s2 = 0.0f;
    for (long j = threadIdx.x; j < H; j += blockDim.x) { const float d = xr[j] - c; s1 += d; s2 += d * d; }
    s1 = block_sum(s1, sa);
    s2 = block_sum(s2, sb);
    const float md = s1 / (float)H;
    const float mean = c + md;
    const float rstd = 1.0f / sqrtf(fmaxf(s2 / (float)H - md * md, 0.0f) + eps);
    for (long j = threadIdx.x; j < H; j += blockDim.x) yr[j] = (xr[j] - mean) * rstd * w[j] + bias[j];
}
