// y = 0.5 * x * (1 + erf(x / sqrt(2))) with a vectorisable erf: Eigen's rational approximation
// erf(a) = a * P(a^2) / Q(a^2) on |a| clamped to 4 (erf(4) == 1 in float), max error ~1e-7 relative.
// The clamp and the sign are done on the bit patterns (integer selects) so GCC vectorises the loop
// without -ffast-math; threads split the array, each chunk runs in AVX2.
#include <stdint.h>

typedef union { float f; uint32_t u; } fu32;

static inline float erf_f(float x) {
    fu32 ab = {x};
    ab.u &= 0x7fffffffu;                                   // |x|
    ab.u = ab.u < 0x40800000u ? ab.u : 0x40800000u;        // min(|x|, 4.0f): non-negative floats order like their bits
    const float a = ab.f, a2 = a * a;
    float p = -2.72614225801306e-10f;
    p = p * a2 + 2.77068142495902e-08f;
    p = p * a2 - 2.10102402082508e-06f;
    p = p * a2 - 5.69250639462346e-05f;
    p = p * a2 - 7.34990630326855e-04f;
    p = p * a2 - 2.95459980854025e-03f;
    p = p * a2 - 1.60960333262415e-02f;
    float q = -1.45660718464996e-05f;
    q = q * a2 - 2.13374055278905e-04f;
    q = q * a2 - 1.68282697438203e-03f;
    q = q * a2 - 7.37332916720468e-03f;
    q = q * a2 - 1.42647390514189e-02f;
    fu32 r = {a * p / q}, sx = {x};
    r.u |= sx.u & 0x80000000u;                             // erf is odd: copy the sign of x
    return r.f;
}

void gelu(const float* restrict x, float* restrict y, long n) {
    #pragma omp parallel for simd schedule(static)
    for (long i = 0; i < n; i++) {
        const float v = x[i];
        y[i] = 0.5f * v * (1.0f + erf_f(v * 0.70710678118654752f));
    }
}

// GELU in its tanh form (Hendrycks and Gimpel's approximation of the erf curve): a few 1e-4 off, inside atol = rtol = 1e-2
void gelu_approx(const float* restrict x, float* restrict y, long n) {
    #pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        const float v = x[i];
        y[i] = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
    }
}
