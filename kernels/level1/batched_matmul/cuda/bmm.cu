// Batched SGEMM C[b] = A[b] @ B[b] (row-major, float32, FFMA: no TF32), a hand-written register-tiled kernel:
// 128 x 128 output tiles, 8 x 8 outputs per thread, double-buffered shared memory. grid = (cdiv(N,128), cdiv(M,128), batch).
#define BM 128
#define BN 128
#define BK 8

// One 128 x 128 tile of C = A[:, kbeg:kend] @ B[kbeg:kend, :] for row-major A (M, K), B (K, N), C (M, N).
// 256 threads; thread (tx, ty) = (tid % 16, tid / 16) owns the 8 x 8 outputs at rows {ty*4.., 64+ty*4..} and
// columns {tx*4.., 64+tx*4..} (split so its float4 shared-memory reads are conflict-free). Each BK = 8 slice of A
// (stored transposed, As[k][m]) and B (Bs[k][n]) goes through two shared-memory buffers: the next slice is fetched
// into registers while the current one is multiplied, so one barrier per slice suffices. Loads are float4 when the
// row length allows it (K % 4, N % 4) and bounds-checked scalars otherwise; out-of-range elements read as 0.
// lower: zero the outputs above the diagonal (m < n), for tril(A @ B).
__device__ __forceinline__ bool al16(const float* p) { return (((unsigned long long)p) & 15ull) == 0; }

__device__ __forceinline__ void gemm_tile(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                                          long M, long N, long K, long m0, long n0, long kbeg, long kend, bool lower) {
    __shared__ __align__(16) float As[2][BK][BM];
    __shared__ __align__(16) float Bs[2][BK][BN];
    const int tid = threadIdx.x, tx = tid & 15, ty = tid >> 4;
    const int ar = tid >> 1, ak = (tid & 1) * 4;          // A loader: one row, 4 consecutive k
    const int bk = tid >> 5, bc = (tid & 31) * 4;         // B loader: one k, 4 consecutive columns
    const bool avec = (K % 4 == 0) && (kbeg % 4 == 0) && al16(A), bvec = (N % 4 == 0) && al16(B);
    const long am = m0 + ar, bn = n0 + bc;
    float4 pa, pb;

    auto load = [&](long k0) {
        const long ka = k0 + ak, kb = k0 + bk;
        if (avec && am < M && ka + 3 < kend) pa = *reinterpret_cast<const float4*>(A + am * K + ka);
        else {
            const float* r = A + am * K;
            const bool ok = am < M;
            pa.x = ok && ka < kend ? r[ka] : 0.f;         pa.y = ok && ka + 1 < kend ? r[ka + 1] : 0.f;
            pa.z = ok && ka + 2 < kend ? r[ka + 2] : 0.f; pa.w = ok && ka + 3 < kend ? r[ka + 3] : 0.f;
        }
        if (bvec && kb < kend && bn + 3 < N) pb = *reinterpret_cast<const float4*>(B + kb * N + bn);
        else {
            const float* r = B + kb * N;
            const bool ok = kb < kend;
            pb.x = ok && bn < N ? r[bn] : 0.f;         pb.y = ok && bn + 1 < N ? r[bn + 1] : 0.f;
            pb.z = ok && bn + 2 < N ? r[bn + 2] : 0.f; pb.w = ok && bn + 3 < N ? r[bn + 3] : 0.f;
        }
    };
    auto stash = [&](int buf) {
        As[buf][ak][ar] = pa.x; As[buf][ak + 1][ar] = pa.y; As[buf][ak + 2][ar] = pa.z; As[buf][ak + 3][ar] = pa.w;
        *reinterpret_cast<float4*>(&Bs[buf][bk][bc]) = pb;
    };

    float acc[8][8];
    #pragma unroll
    for (int i = 0; i < 8; i++)
        #pragma unroll
        for (int j = 0; j < 8; j++) acc[i][j] = 0.f;

    const long nk = (kend - kbeg + BK - 1) / BK;
    if (nk > 0) { load(kbeg); stash(0); }
    __syncthreads();
    for (long t = 0; t < nk; t++) {
        const int buf = t & 1;
        if (t + 1 < nk) load(kbeg + (t + 1) * BK);      // global loads in flight during the FMAs below
        #pragma unroll
        for (int kk = 0; kk < BK; kk++) {
            const float4 a0 = *reinterpret_cast<const float4*>(&As[buf][kk][ty * 4]);
            const float4 a1 = *reinterpret_cast<const float4*>(&As[buf][kk][64 + ty * 4]);
            const float4 b0 = *reinterpret_cast<const float4*>(&Bs[buf][kk][tx * 4]);
            const float4 b1 = *reinterpret_cast<const float4*>(&Bs[buf][kk][64 + tx * 4]);
            const float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
            #pragma unroll
            for (int i = 0; i < 8; i++)
                #pragma unroll
                for (int j = 0; j < 8; j++) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        if (t + 1 < nk) stash(buf ^ 1);                 // the other buffer was last read before the previous barrier
        __syncthreads();
    }

    const bool cvec = (N % 4 == 0) && al16(C);
    #pragma unroll
    for (int i = 0; i < 8; i++) {
        const long m = m0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + i - 4);
        if (m >= M) continue;
        #pragma unroll
        for (int h = 0; h < 2; h++) {
            const long n = n0 + h * 64 + tx * 4;
            float4 v = make_float4(acc[i][h * 4], acc[i][h * 4 + 1], acc[i][h * 4 + 2], acc[i][h * 4 + 3]);
            if (lower) {
                if (n > m) v.x = 0.f;
                if (n + 1 > m) v.y = 0.f;
                if (n + 2 > m) v.z = 0.f;
                if (n + 3 > m) v.w = 0.f;
            }
            float* c = C + m * N + n;
            if (cvec && n + 3 < N) *reinterpret_cast<float4*>(c) = v;
            else {
                if (n < N) c[0] = v.x;
                if (n + 1 < N) c[1] = v.y;
                if (n + 2 < N) c[2] = v.z;
                if (n + 3 < N) c[3] = v.w;
            }
        }
    }
}

extern "C" __global__ void __launch_bounds__(256, 2) bmm(const float* __restrict__ A, const float* __restrict__ B,
                                                          float* __restrict__ C, long M, long N, long K) {
    const long b = blockIdx.z;
    gemm_tile(A + b * M * K, B + b * K * N, C + b * M * N, M, N, K, (long)blockIdx.y * BM, (long)blockIdx.x * BN, 0, K, false);
}
