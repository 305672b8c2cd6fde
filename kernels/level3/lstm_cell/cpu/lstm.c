// The fused gate math of one LSTM step; the two GEMMs run in torch's BLAS (addmm).
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

static inline float vsigmoidf(float v) { return 1.0f / (1.0f + vexpf(-v)); }
static inline float vtanhf(float v) { return 2.0f / (1.0f + vexpf(-2.0f * v)) - 1.0f; }

// gates (B, 4H) = x W_ih^T + b_ih + h W_hh^T (b_hh still to add); out (2, B, H) = stacked (h', c')
void lstm_gates(const float* restrict gates, const float* restrict b_hh, const float* restrict c, float* restrict out,
                long B, long H) {
    #pragma omp parallel for
    for (long b = 0; b < B; b++) {
        const float* restrict g = gates + b * 4 * H;
        const float* restrict cb = c + b * H;
        float* restrict ho = out + b * H;
        float* restrict co = out + B * H + b * H;
        #pragma omp simd
        for (long j = 0; j < H; j++) {
            float ig = vsigmoidf(g[j] + b_hh[j]);
            float fg = vsigmoidf(g[H + j] + b_hh[H + j]);
            float gg = vtanhf(g[2 * H + j] + b_hh[2 * H + j]);
            float og = vsigmoidf(g[3 * H + j] + b_hh[3 * H + j]);
            float cn = fg * cb[j] + ig * gg;
            ho[j] = og * vtanhf(cn);
            co[j] = cn;
        }
    }
}
