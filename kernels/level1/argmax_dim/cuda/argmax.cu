// Argmax over the middle axis of x viewed as (outer, R, inner); y (int64) is (outer, inner).
// Ties go to the lowest index and the first NaN wins, as in torch.argmax.
// argmax_cols (inner > 1): block (32, 16); threadIdx.x picks one of 32 adjacent columns (128 contiguous bytes per
//   warp and row), the 16 thread rows split R in increasing order with 4 rows' loads in flight per step (explicit
//   ILP); the 16 (value, index) pairs per column meet in shared memory.
// argmax_rows (inner == 1): one warp per row, coalesced loads, (value, index) shuffle reduction.
#define FULL 0xffffffffu
#define NEG_INF __int_as_float(0xff800000)

// does (v, i) beat (bv, bi)?
__device__ __forceinline__ bool beats(float v, long i, float bv, long bi) {
    if (bv != bv) return v != v && i < bi;        // a NaN best loses only to an earlier NaN
    if (v != v) return true;
    return v > bv || (v == bv && i < bi);
}

#define NY 16

// fold v (index i, visited in increasing i) into the running (bv, bi); bi == -1 means "nothing yet"
__device__ __forceinline__ void take(float v, long i, float& bv, long& bi) {
    if (v > bv || (v != v && bv == bv) || bi < 0) { bv = v; bi = i; }
}

extern "C" __global__ void argmax_cols(const float* __restrict__ x, long* __restrict__ y, long outer, long R, long inner) {
    __shared__ float pv[NY][33];
    __shared__ long pi[NY][33];
    const long col = (long)blockIdx.x * 32 + threadIdx.x;
    for (long o = blockIdx.y; o < outer; o += gridDim.y) {        // uniform over the block: barriers are safe
        float bv = NEG_INF;
        long bi = -1;
        if (col < inner) {
            const float* p = x + o * R * inner + col;
            long r = threadIdx.y;
            for (; r + 3 * NY < R; r += 4 * NY) {
                const float a = p[r * inner], b = p[(r + NY) * inner], c = p[(r + 2 * NY) * inner], d = p[(r + 3 * NY) * inner];
                take(a, r, bv, bi); take(b, r + NY, bv, bi); take(c, r + 2 * NY, bv, bi); take(d, r + 3 * NY, bv, bi);
            }
            for (; r < R; r += NY) take(p[r * inner], r, bv, bi);
        }
        pv[threadIdx.y][threadIdx.x] = bv;
        pi[threadIdx.y][threadIdx.x] = bi < 0 ? R : bi;             // "no index": loses every tie
        __syncthreads();
        if (threadIdx.y == 0 && col < inner) {
            bi = pi[0][threadIdx.x];
            for (int k = 1; k < NY; k++)
                if (beats(pv[k][threadIdx.x], pi[k][threadIdx.x], bv, bi)) { bv = pv[k][threadIdx.x]; bi = pi[k][threadIdx.x]; }
            y[o * inner + col] = bi;
        }
        __syncthreads();
    }
}

extern "C" __global__ void argmax_rows(const float* __restrict__ x, long* __restrict__ y, long rows, long R) {
    const long row = (long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    const int lane = threadIdx.x & 31;
    if (row >= rows) return;                                      // whole warps leave together
    const float* p = x + row * R;
    float bv = NEG_INF;
    long bi = R;
    #pragma unroll 4
    for (long j = lane; j < R; j += 32) {
        const float v = p[j];
        if (v > bv || (v != v && bv == bv) || bi == R) { bv = v; bi = j; }
    }
    for (int o = 16; o > 0; o >>= 1) {
        const float v = __shfl_xor_sync(FULL, bv, o);
        const long i = __shfl_xor_sync(FULL, bi, o);
        if (beats(v, i, bv, bi)) { bv = v; bi = i; }
    }
    if (lane == 0) y[row] = bi;
}
