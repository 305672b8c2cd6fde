// Max over the middle axis of x viewed as (outer, R, inner); y is (outer, inner). NaN propagates, as in torch.max.
// max_rows (inner == 1): one warp per row, float4 loads when R % 4 == 0 and x is aligned (scalar loads otherwise,
//   still coalesced: lane j reads element j of each 32-wide step), shuffle reduction.
// max_cols (inner > 1): block (32, ny); threadIdx.x picks one of 32 adjacent columns (128 contiguous bytes per warp
//   and step), threadIdx.y strides over R, the ny partial maxima meet in shared memory.
#define FULL 0xffffffffu
#define NEG_INF __int_as_float(0xff800000)

__device__ __forceinline__ float nan_max(float a, float b) { return (b > a || b != b) ? b : a; }

extern "C" __global__ void max_rows(const float* __restrict__ x, float* __restrict__ y, long rows, long R) {
    const long row = (long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    const int lane = threadIdx.x & 31;
    if (row >= rows) return;                                      // whole warps leave together
    const float* p = x + row * R;
    float m = NEG_INF;
    if (R % 4 == 0 && (((unsigned long long)x & 15ull) == 0)) {
        const float4* p4 = reinterpret_cast<const float4*>(p);
        #pragma unroll 4
        for (long j = lane; j < R / 4; j += 32) {
            const float4 v = p4[j];
            m = nan_max(m, nan_max(nan_max(v.x, v.y), nan_max(v.z, v.w)));
        }
    } else {
        #pragma unroll 4
        for (long j = lane; j < R; j += 32) m = nan_max(m, p[j]);
    }
    for (int o = 16; o > 0; o >>= 1) m = nan_max(m, __shfl_xor_sync(FULL, m, o));
    if (lane == 0) y[row] = m;
}

extern "C" __global__ void max_cols(const float* __restrict__ x, float* __restrict__ y, long outer, long R, long inner) {
    __shared__ float part[32][33];
    const long col = (long)blockIdx.x * 32 + threadIdx.x;
    for (long o = blockIdx.y; o < outer; o += gridDim.y) {        // uniform over the block: barriers are safe
        float m = NEG_INF;
        if (col < inner) {
            const float* p = x + o * R * inner + col;
            #pragma unroll 8
            for (long r = threadIdx.y; r < R; r += blockDim.y) m = nan_max(m, p[r * inner]);
        }
        part[threadIdx.y][threadIdx.x] = m;
        __syncthreads();
        if (threadIdx.y == 0 && col < inner) {
            float t = NEG_INF;
            for (int k = 0; k < blockDim.y; k++) t = nan_max(t, part[k][threadIdx.x]);
            y[o * inner + col] = t;
        }
        __syncthreads();
    }
}
