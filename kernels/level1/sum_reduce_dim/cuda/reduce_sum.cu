// Sum over the middle axis of x viewed as (outer, R, inner); y is (outer, inner).
// sum_cols4 (inner % 4 == 0, x aligned): block (32, 16); each thread owns 4 adjacent columns (one float4, so a warp
//   reads 512 contiguous bytes per row), the 16 thread rows split R, and each thread keeps 4 rows' loads in flight
//   (explicit ILP) before adding them; the 16 partial float4 sums meet in shared memory.
// sum_cols (inner > 1, any alignment): the same with one column per thread (128 contiguous bytes per warp and row).
// sum_rows (inner == 1): one warp per row, float4 loads when R % 4 == 0 and x is aligned, shuffle reduction.
// One read of x, one write of y; gridDim.y strides over outer, so any size works.
#define FULL 0xffffffffu
#define NY 16

extern "C" __global__ void sum_cols4(const float* __restrict__ x, float* __restrict__ y, long outer, long R, long inner) {
    __shared__ float4 part[NY][32];
    const long c4 = (long)blockIdx.x * 32 + threadIdx.x, inner4 = inner / 4;
    for (long o = blockIdx.y; o < outer; o += gridDim.y) {        // uniform over the block: barriers are safe
        float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
        if (c4 < inner4) {
            const float4* p = reinterpret_cast<const float4*>(x + o * R * inner) + c4;
            long r = threadIdx.y;
            for (; r + 3 * NY < R; r += 4 * NY) {
                const float4 a = p[r * inner4], b = p[(r + NY) * inner4], c = p[(r + 2 * NY) * inner4], d = p[(r + 3 * NY) * inner4];
                acc.x += (a.x + b.x) + (c.x + d.x); acc.y += (a.y + b.y) + (c.y + d.y);
                acc.z += (a.z + b.z) + (c.z + d.z); acc.w += (a.w + b.w) + (c.w + d.w);
            }
            for (; r < R; r += NY) { const float4 a = p[r * inner4]; acc.x += a.x; acc.y += a.y; acc.z += a.z; acc.w += a.w; }
        }
        part[threadIdx.y][threadIdx.x] = acc;
        __syncthreads();
        if (threadIdx.y == 0 && c4 < inner4) {
            float4 t = part[0][threadIdx.x];
            for (int k = 1; k < NY; k++) { const float4 u = part[k][threadIdx.x]; t.x += u.x; t.y += u.y; t.z += u.z; t.w += u.w; }
            reinterpret_cast<float4*>(y + o * inner)[c4] = t;
        }
        __syncthreads();
    }
}

extern "C" __global__ void sum_cols(const float* __restrict__ x, float* __restrict__ y, long outer, long R, long inner) {
    __shared__ float part[NY][33];
    const long col = (long)blockIdx.x * 32 + threadIdx.x;
    for (long o = blockIdx.y; o < outer; o += gridDim.y) {
        float acc = 0.0f;
        if (col < inner) {
            const float* p = x + o * R * inner + col;
            long r = threadIdx.y;
            for (; r + 3 * NY < R; r += 4 * NY) {
                const float a = p[r * inner], b = p[(r + NY) * inner], c = p[(r + 2 * NY) * inner], d = p[(r + 3 * NY) * inner];
                acc += (a + b) + (c + d);
            }
            for (; r < R; r += NY) acc += p[r * inner];
        }
        part[threadIdx.y][threadIdx.x] = acc;
        __syncthreads();
        if (threadIdx.y == 0 && col < inner) {
            float t = 0.0f;
            for (int k = 0; k < NY; k++) t += part[k][threadIdx.x];
            y[o * inner + col] = t;
        }
        __syncthreads();
    }
}

extern "C" __global__ void sum_rows(const float* __restrict__ x, float* __restrict__ y, long rows, long R) {
    const long row = (long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    const int lane = threadIdx.x & 31;
    if (row >= rows) return;                                      // whole warps leave together
    const float* p = x + row * R;
    float acc = 0.0f;
    if (R % 4 == 0 && (((unsigned long long)x & 15ull) == 0)) {
        const float4* p4 = reinterpret_cast<const float4*>(p);
        #pragma unroll 4
        for (long j = lane; j < R / 4; j += 32) { const float4 v = p4[j]; acc += (v.x + v.y) + (v.z + v.w); }
    } else {
        #pragma unroll 4
        for (long j = lane; j < R; j += 32) acc += p[j];
    }
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(FULL, acc, o);
    if (lane == 0) y[row] = acc;
}
