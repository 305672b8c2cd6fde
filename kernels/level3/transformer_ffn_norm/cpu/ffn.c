// LayerNorm and the elementwise epilogues of the pre-norm feed-forward; the two GEMMs run in torch's BLAS (addmm).
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

// y = (x - mean) / sqrt(var + eps) * w + b per row of length cols (two-pass statistics)
void layernorm(const float* restrict x, const float* restrict w, const float* restrict b, float* restrict y,
               long rows, long cols, float eps) {
    #pragma omp parallel for
    for (long r = 0; r < rows; r++) {
        const float* xr = x + r * cols;
        float* yr = y + r * cols;
        float s = 0.0f, q = 0.0f;
        for (long j = 0; j < cols; j++) s += xr[j];
        float mean = s / cols;
        for (long j = 0; j < cols; j++) { float d = xr[j] - mean; q += d * d; }
        float rstd = 1.0f / sqrtf(q / cols + eps);
        for (long j = 0; j < cols; j++) yr[j] = (xr[j] - mean) * rstd * w[j] + b[j];
    }
}

// h = GELU(h) in place, tanh form 0.5*h*(1+tanh(u)) with u = sqrt(2/pi)*(h+0.044715 h^3); 1+tanh(u) = 2/(1+exp(-2u))
void gelu_tanh_inplace(float* h, long n) {
    #pragma omp parallel for
    for (long i = 0; i < n; i++) {
        float v = h[i], u = 0.7978845608028654f * (v + 0.044715f * v * v * v);
        h[i] = v / (1.0f + vexpf(-2.0f * u));
    }
}

// y += x in place (the residual)
void add_inplace(float* restrict y, const float* restrict x, long n) {
    #pragma omp parallel for
    for (long i = 0; i < n; i++) y[i] += x[i];
}
