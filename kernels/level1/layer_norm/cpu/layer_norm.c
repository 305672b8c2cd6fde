// LayerNorm over the last dimension: rows across OpenMP threads, two sweeps per row.
//  1. shifted sums: with c = the row's first element, sum d = x - c and d*d in one pass (the shift keeps
//     sum(d*d)/H - mean(d)^2 free of the cancellation a plain sum of squares suffers); 32 lanes of partial sums
//     (four 8-wide vectors) so the adds are not one latency-bound chain.
//  2. y = (x - mean) * rstd * w + b while the row is still in L1.
#include <math.h>
#define L 32

void layer_norm_rows(const float* restrict x, const float* restrict w, const float* restrict b, float* restrict y,
                     long rows, long H, float eps) {
    #pragma omp parallel for schedule(static)
    for (long i = 0; i < rows; i++) {
        const float* xr = x + i * H;
        float* yr = y + i * H;
        const float c = xr[0];
        float a1[L] = {0}, a2[L] = {0};
        long j = 0;
        for (; j + L <= H; j += L)
            for (int k = 0; k < L; k++) { const float d = xr[j + k] - c; a1[k] += d; a2[k] += d * d; }
        float s1 = 0.0f, s2 = 0.0f;
        for (; j < H; j++) { const float d = xr[j] - c; s1 += d; s2 += d * d; }
        for (int k = 0; k < L; k++) { s1 += a1[k]; s2 += a2[k]; }
        const float md = s1 / (float)H, var = s2 / (float)H - md * md;
        const float mean = c + md, rstd = 1.0f / sqrtf((var > 0.0f ? var : 0.0f) + eps);
        #pragma omp simd
        for (long j = 0; j < H; j++) yr[j] = (xr[j] - mean) * rstd * w[j] + b[j];
    }
}
