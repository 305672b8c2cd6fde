// Row-wise inclusive scan, one block per row, the row walked in chunks of 4 * blockDim elements:
//  each thread scans its 4 consecutive elements in registers; the thread totals are scanned inside each warp with
//  __shfl_up_sync; the warp totals go through shared memory and every warp scans them itself (one barrier); the
//  running carry from earlier chunks is added on the way out. The next chunk is loaded before the current one is
//  scanned, so a load is always in flight. float4 loads/stores when N % 4 == 0 and the pointers are aligned.
#define FULL 0xffffffffu

__device__ __forceinline__ float4 load4(const float* __restrict__ p, long j, long n, bool vec) {
    if (vec) return j < n ? *reinterpret_cast<const float4*>(p + j) : make_float4(0.f, 0.f, 0.f, 0.f);
    return make_float4(j < n ? p[j] : 0.f, j + 1 < n ? p[j + 1] : 0.f, j + 2 < n ? p[j + 2] : 0.f, j + 3 < n ? p[j + 3] : 0.f);
}

__device__ __forceinline__ float warp_inclusive(float v, int lane) {
    for (int o = 1; o < 32; o <<= 1) { const float u = __shfl_up_sync(FULL, v, o); if (lane >= o) v += u; }
    return v;
}

extern "C" __global__ void cumsum_rows(const float* __restrict__ x, float* __restrict__ y, long n) {
    __shared__ float wsum[32];
    const float* xr = x + (long)blockIdx.x * n;
    float* yr = y + (long)blockIdx.x * n;
    const bool vec = (n % 4 == 0) && ((((unsigned long long)x | (unsigned long long)y) & 15ull) == 0);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    const long chunk = 4L * blockDim.x;
    float carry = 0.0f;
    float4 cur = load4(xr, 4L * threadIdx.x, n, vec);
    for (long c0 = 0; c0 < n; c0 += chunk) {
        const long j = c0 + 4L * threadIdx.x;
        const float4 nxt = load4(xr, j + chunk, n, vec);          // prefetch the next chunk
        float4 v = cur;
        v.y += v.x; v.z += v.y; v.w += v.z;                          // scan of this thread's 4 values
        const float inc = warp_inclusive(v.w, lane);
        if (lane == 31) wsum[warp] = inc;
        __syncthreads();
        const float ws = lane < nwarps ? wsum[lane] : 0.0f;
        const float wi = warp_inclusive(ws, lane);                  // every warp scans the warp totals
        const float warp_before = __shfl_sync(FULL, wi - ws, warp);
        const float chunk_total = __shfl_sync(FULL, wi, 31);
        const float off = carry + warp_before + (inc - v.w);
        v.x += off; v.y += off; v.z += off; v.w += off;
        if (vec) { if (j < n) *reinterpret_cast<float4*>(yr + j) = v; }
        else {
            if (j < n) yr[j] = v.x;
            if (j + 1 < n) yr[j + 1] = v.y;
            if (j + 2 < n) yr[j + 2] = v.z;
            if (j + 3 < n) yr[j + 3] = v.w;
        }
        carry += chunk_total;
        cur = nxt;
        __syncthreads();                                            // wsum is rewritten by the next chunk
    }
}
