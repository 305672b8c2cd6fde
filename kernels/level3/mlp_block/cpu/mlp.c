// Elementwise epilogues of the MLP block; the two GEMMs run in torch's BLAS (addmm).
#pragma GCC optimize ("no-trapping-math")   // lets gcc vectorize the clamps below without -ffast-math; results are unchanged
#include <math.h>

// exp(x) in float (about 1 ulp), written so gcc vectorizes it: n = round(x/ln2) by the 1.5*2^23 trick,
// Cephes' polynomial on the remainder, 2^n from the exponent bits
static inline float vexpf(float x) {
    x = x < -87.0f ? -87.0f : x;
    x = x > 88.0f ? 88.0f : x;
    float n = (x * 1.44269504088896341f + 12582912.0f) - 12582912.0f;
    float r = x - n * 0.693359375f + n * 2.12194440e-4f;
    float p = 1.9875691500E-4f;
    p = p * r + 1.3981999507E-3f;
    p = p * r + 8.3334519073E-3f;
    p = p * r + 4.1665795894E-2f;
    p = p * r + 1.6666665459E-1f;
    p = p * r + 5.0000001201E-1f;
    p = p * r * r + r + 1.0f;
    union { int i; float f; } u; u.i = ((int)n + 127) << 23;
    return p * u.f;
}

// erf(x), Abramowitz-Stegun 7.1.26 (max abs error 1.5e-7; PyTorch's vectorized CPU erf uses the same form)
static inline float verff(float x) {
    float a = fabsf(x);
    float t = 1.0f / (1.0f + 0.3275911f * a);
    float p = 1.061405429f;
    p = p * t - 1.453152027f;
    p = p * t + 1.421413741f;
    p = p * t - 0.284496736f;
    p = p * t + 0.254829592f;
    return copysignf(1.0f - p * t * vexpf(-a * a), x);
}

// h = GELU(h) in place, exact form 0.5*h*(1+erf(h/sqrt(2))) as in F.gelu
void gelu_inplace(float* h, long n) {
    #pragma omp parallel for
    for (long i = 0; i < n; i++) { float v = h[i]; h[i] = 0.5f * v * (1.0f + verff(v * 0.70710678118654752f)); }
}

// y += x in place (the residual)
void add_inplace(float* restrict y, const float* restrict x, long n) {
    #pragma omp parallel for
    for (long i = 0; i < n; i++) y[i] += x[i];
}
