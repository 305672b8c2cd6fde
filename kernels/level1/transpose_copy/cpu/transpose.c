// y[b, j, i] = x[b, i, j] for x (B, M, N): 32 x 32 tiles spread over OpenMP threads, each done as 8 x 8 blocks:
// 8 contiguous 32-byte row loads, an in-register transpose (AVX unpack/shuffle/permute when the compiler targets AVX,
// a scalar loop otherwise), 8 contiguous 32-byte stores. Output rows are the outer loop inside a tile, so each
// output cache line is completed at once. Partial edge tiles use a plain loop.
#define T 32
#ifdef __AVX__
#include <immintrin.h>
static inline void block8(const float* restrict s, long ls, float* restrict d, long ld) {
    __m256 r0 = _mm256_loadu_ps(s), r1 = _mm256_loadu_ps(s + ls), r2 = _mm256_loadu_ps(s + 2 * ls),
           r3 = _mm256_loadu_ps(s + 3 * ls), r4 = _mm256_loadu_ps(s + 4 * ls), r5 = _mm256_loadu_ps(s + 5 * ls),
           r6 = _mm256_loadu_ps(s + 6 * ls), r7 = _mm256_loadu_ps(s + 7 * ls);
    __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1), t2 = _mm256_unpacklo_ps(r2, r3),
           t3 = _mm256_unpackhi_ps(r2, r3), t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5),
           t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
    __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE),
           u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE),
           u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE),
           u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    _mm256_storeu_ps(d,          _mm256_permute2f128_ps(u0, u4, 0x20));
    _mm256_storeu_ps(d + ld,     _mm256_permute2f128_ps(u1, u5, 0x20));
    _mm256_storeu_ps(d + 2 * ld, _mm256_permute2f128_ps(u2, u6, 0x20));
    _mm256_storeu_ps(d + 3 * ld, _mm256_permute2f128_ps(u3, u7, 0x20));
    _mm256_storeu_ps(d + 4 * ld, _mm256_permute2f128_ps(u0, u4, 0x31));
    _mm256_storeu_ps(d + 5 * ld, _mm256_permute2f128_ps(u1, u5, 0x31));
    _mm256_storeu_ps(d + 6 * ld, _mm256_permute2f128_ps(u2, u6, 0x31));
    _mm256_storeu_ps(d + 7 * ld, _mm256_permute2f128_ps(u3, u7, 0x31));
}
#else
static inline void block8(const float* restrict s, long ls, float* restrict d, long ld) {
    for (int c = 0; c < 8; c++)
        for (int r = 0; r < 8; r++) d[c * ld + r] = s[r * ls + c];
}
#endif

void transpose_batched(const float* restrict x, float* restrict y, long B, long M, long N) {
    const long ti = (M + T - 1) / T, tj = (N + T - 1) / T;
    #pragma omp parallel for collapse(3) schedule(static)
    for (long b = 0; b < B; b++)
        for (long bi = 0; bi < ti; bi++)
            for (long bj = 0; bj < tj; bj++) {
                const float* xb = x + b * M * N;
                float* yb = y + b * M * N;
                const long i0 = bi * T, j0 = bj * T;
                if (i0 + T <= M && j0 + T <= N) {
                    for (int j = 0; j < T; j += 8)
                        for (int i = 0; i < T; i += 8) block8(xb + (i0 + i) * N + j0 + j, N, yb + (j0 + j) * M + i0 + i, M);
                } else {
                    const long i1 = i0 + T < M ? i0 + T : M, j1 = j0 + T < N ? j0 + T : N;
                    for (long j = j0; j < j1; j++)
                        for (long i = i0; i < i1; i++) yb[j * M + i] = xb[i * N + j];
                }
            }
}
