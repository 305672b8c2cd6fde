// y = A @ x for A (M, K) row-major: memory-bound, so the goal is to stream A once at full bandwidth.
// Each block owns 4 consecutive rows: every thread loads one float4 of x and reuses it for the 4 rows (4 independent
// 16-byte loads of A in flight per step; x, 4*K bytes, stays in L2), then the 4 partial sums are reduced with warp
// shuffles and across warps through shared memory. Scalar path when K % 4 != 0 or a pointer is misaligned.
#define FULL 0xffffffffu
#define RPB 4

extern "C" __global__ void matvec(const float* __restrict__ A, const float* __restrict__ x, float* __restrict__ y,
                                  long M, long K) {
    __shared__ float part[RPB][32];
    const long r0 = (long)blockIdx.x * RPB;
    const int nr = M - r0 < RPB ? (int)(M - r0) : RPB;
    float acc[RPB];
    #pragma unroll
    for (int r = 0; r < RPB; r++) acc[r] = 0.0f;
    if (K % 4 == 0 && ((((unsigned long long)A | (unsigned long long)x) & 15ull) == 0)) {
        const long K4 = K / 4;
        const float4* x4 = reinterpret_cast<const float4*>(x);
        const float4* A4 = reinterpret_cast<const float4*>(A + r0 * K);
        #pragma unroll 2
        for (long j = threadIdx.x; j < K4; j += blockDim.x) {
            const float4 b = x4[j];
            #pragma unroll
            for (int r = 0; r < RPB; r++)
                if (r < nr) {
                    const float4 a = A4[r * K4 + j];
                    acc[r] += (a.x * b.x + a.y * b.y) + (a.z * b.z + a.w * b.w);
                }
        }
    } else {
        const float* Ar = A + r0 * K;
        for (long j = threadIdx.x; j < K; j += blockDim.x) {
            const float b = x[j];
            #pragma unroll
            for (int r = 0; r < RPB; r++)
                if (r < nr) acc[r] += Ar[r * K + j] * b;
        }
    }
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    #pragma unroll
    for (int r = 0; r < RPB; r++) {
        for (int o = 16; o > 0; o >>= 1) acc[r] += __shfl_xor_sync(FULL, acc[r], o);
        if (lane == 0) part[r][warp] = acc[r];
    }
    __syncthreads();
    if (warp == 0) {
        #pragma unroll
        for (int r = 0; r < RPB; r++) {
            float s = lane < nwarps ? part[r][lane] : 0.0f;
            for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(FULL, s, o);
            if (lane == 0 && r < nr) y[r0 + r] = s;
        }
    }
}
