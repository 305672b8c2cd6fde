// Row L2 normalisation: rows across OpenMP threads; per row a SIMD sum of squares with 32 partial sums (four 8-wide
// vectors, so the adds are not one latency-bound chain), then y = x * (1 / ||x||) while the row is still in L1/L2.
#include <math.h>
#define L 32

void l2_norm_rows(const float* restrict x, float* restrict y, long rows, long D) {
    #pragma omp parallel for schedule(static)
    for (long i = 0; i < rows; i++) {
        const float* xr = x + i * D;
        float* yr = y + i * D;
        float acc[L] = {0};
        long j = 0;
        for (; j + L <= D; j += L)
            for (int k = 0; k < L; k++) acc[k] += xr[j + k] * xr[j + k];
        float ss = 0.0f;
        for (; j < D; j++) ss += xr[j] * xr[j];
        for (int k = 0; k < L; k++) ss += acc[k];
        const float inv = 1.0f / sqrtf(ss);
        #pragma omp simd
        for (long j = 0; j < D; j++) yr[j] = xr[j] * inv;
    }
}
