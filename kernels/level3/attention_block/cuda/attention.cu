// Layout kernels and the row softmax of the attention block; the four GEMMs run in cuBLAS (addmm, bmm).

// q, v (B*H, T, D) from the packed qkv rows (B*T, 3E); grid.y walks the B*T rows, threads the E columns of q (and v)
extern "C" __global__ void split_qv(const float* __restrict__ qkv, float* __restrict__ q, float* __restrict__ v,
                                    int T, int E, int H, int D, long rows) {
    int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= E) return;
    int h = e / D, d = e - h * D;
    for (long row = blockIdx.y; row < rows; row += gridDim.y) {
        long b = row / T; int t = (int)(row - b * T);
        long dst = ((b * H + h) * T + t) * D + d;
        q[dst] = qkv[row * 3 * E + e];
        v[dst] = qkv[row * 3 * E + 2 * E + e];
    }
}

// kT (B*H, D, T) from the packed qkv rows: 32x32 tiles transposed through shared memory, coalesced both ways
extern "C" __global__ void split_kT(const float* __restrict__ qkv, float* __restrict__ kT, int T, int E, int H, int D) {
    __shared__ float tile[32][33];
    int bh = blockIdx.z, b = bh / H, h = bh - b * H;
    int t0 = blockIdx.x * 32, d0 = blockIdx.y * 32;
    const float* src = qkv + (long)b * T * 3 * E + E + h * D;
    for (int i = threadIdx.y; i < 32; i += blockDim.y) {
        int t = t0 + i, d = d0 + threadIdx.x;
        if (t < T && d < D) tile[i][threadIdx.x] = src[(long)t * 3 * E + d];
    }
    __syncthreads();
    float* dst = kT + (long)bh * D * T;
    for (int i = threadIdx.y; i < 32; i += blockDim.y) {
        int d = d0 + i, t = t0 + threadIdx.x;
        if (d < D && t < T) dst[(long)d * T + t] = tile[threadIdx.x][i];
    }
}

__device__ __forceinline__ float warp_max(float v) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

#define PER_LANE 32   // rows up to 32 * PER_LANE = 1024 long stay in registers: one read and one write per element

// s = softmax(s * scale) along rows of length cols, in place; one warp per row
extern "C" __global__ void softmax_rows(float* __restrict__ s, long rows, int cols, float scale) {
    long row = (long)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x & 31;
    if (row >= rows) return;                   // whole warps leave together
    float* r = s + row * cols;
    const float lowest = -3.402823466e38f;
    float m = lowest, sum = 0.0f;
    if (cols <= 32 * PER_LANE) {
        float v[PER_LANE];
        #pragma unroll
        for (int k = 0; k < PER_LANE; k++) { int j = lane + 32 * k; v[k] = j < cols ? r[j] : lowest; m = fmaxf(m, v[k]); }
        m = warp_max(m);
        #pragma unroll
        for (int k = 0; k < PER_LANE; k++) { int j = lane + 32 * k; v[k] = j < cols ? expf((v[k] - m) * scale) : 0.0f; sum += v[k]; }
        float inv = 1.0f / warp_sum(sum);
        #pragma unroll
        for (int k = 0; k < PER_LANE; k++) { int j = lane + 32 * k; if (j < cols) r[j] = v[k] * inv; }
    } else {                                   // long rows: three passes over the row (L2-resident)
        for (int j = lane; j < cols; j += 32) m = fmaxf(m, r[j]);
        m = warp_max(m);
        for (int j = lane; j < cols; j += 32) { float e = expf((r[j] - m) * scale); r[j] = e; sum += e; }
        float inv = 1.0f / warp_sum(sum);
        for (int j = lane; j < cols; j += 32) r[j] *= inv;
    }
}

// o (B*T, E) from per-head outputs y (B*H, T, D): heads merged back side by side; grid.y walks the B*T rows
extern "C" __global__ void merge_heads(const float* __restrict__ y, float* __restrict__ o, int T, int E, int H, int D, long rows) {
    int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= E) return;
    int h = e / D, d = e - h * D;
    for (long row = blockIdx.y; row < rows; row += gridDim.y) {
        long b = row / T; int t = (int)(row - b * T);
        o[row * E + e] = y[((b * H + h) * T + t) * D + d];
    }
}
