// Row softmax: rows across OpenMP threads; per row a SIMD max, then y = exp(x - max) with the running sum,
// then a scale by 1/sum (the row is in L1/L2 by then). exp is a Cephes-style polynomial (~1e-7 relative error)
// written so GCC vectorises it without -ffast-math; the argument is x - max <= 0, clamped below at -87.
#include <stdint.h>

typedef union { float f; uint32_t u; int32_t i; } fu32;

static inline float exp_neg(float x) {           // exp(x) for x <= 0
    fu32 c = {x};
    c.u = c.u < 0xC2AE0000u ? c.u : 0xC2AE0000u;  // max(x, -87.0f): negative floats order like their bits, reversed
    x = c.f;
    const float n = (x * 1.44269504088896341f + 12582912.0f) - 12582912.0f;   // round(x / ln 2)
    const float r = x - n * 0.693359375f + n * 2.12194440e-4f;                // x - n ln 2, in two parts
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * r * r + r + 1.0f;
    fu32 s; s.i = ((int32_t)n + 127) << 23;       // 2^n
    return p * s.f;
}

void softmax_rows(const float* restrict x, float* restrict y, long rows, long D) {
    #pragma omp parallel for schedule(static)
    for (long i = 0; i < rows; i++) {
        const float* xr = x + i * D;
        float* yr = y + i * D;
        float m = xr[0];
        #pragma omp simd reduction(max:m)
        for (long j = 0; j < D; j++) m = xr[j] > m ? xr[j] : m;
        float s = 0.0f;
        #pragma omp simd reduction(+:s)
        for (long j = 0; j < D; j++) { const float e = exp_neg(xr[j] - m); yr[j] = e; s += e; }
        const float inv = 1.0f / s;
        #pragma omp simd
        for (long j = 0; j < D; j++) yr[j] *= inv;
    }
}
