// The whole squeeze-and-excitation block in C loops, no library calls.
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

// p[n*C+c] = mean of plane (n, c) of x over hw
void plane_mean(const float* restrict x, float* restrict p, long planes, long hw) {
    #pragma omp parallel for
    for (long q = 0; q < planes; q++) {
        const float* xp = x + q * hw;
        float s = 0.0f;
        for (long j = 0; j < hw; j++) s += xp[j];
        p[q] = s / (float)hw;
    }
}

// the bottleneck: s (N, C) = sigmoid(relu(p W1^T + b1) W2^T + b2), W1 (R, C), W2 (C, R); z (N, R) is scratch
void excite(const float* restrict p, const float* restrict w1, const float* restrict b1, const float* restrict w2,
            const float* restrict b2, float* restrict z, float* restrict s, long N, long C, long R) {
    for (long n = 0; n < N; n++)
        for (long r = 0; r < R; r++) {
            float acc = b1[r];
            for (long c = 0; c < C; c++) acc += p[n * C + c] * w1[r * C + c];
            z[n * R + r] = acc > 0.0f ? acc : 0.0f;
        }
    for (long n = 0; n < N; n++)
        for (long c = 0; c < C; c++) {
            float acc = b2[c];
            for (long r = 0; r < R; r++) acc += z[n * R + r] * w2[c * R + r];
            s[n * C + c] = 1.0f / (1.0f + vexpf(-acc));
        }
}

// out = relu(x * s[n, c] + identity): the excitation, the shortcut and the ReLU in one pass
void scale_add_relu(const float* restrict x, const float* restrict s, const float* restrict id, float* restrict out,
                    long planes, long hw) {
    #pragma omp parallel for
    for (long q = 0; q < planes; q++) {
        const float* xp = x + q * hw;
        const float* ip = id + q * hw;
        float* op = out + q * hw;
        float sq = s[q];
        for (long j = 0; j < hw; j++) { float v = xp[j] * sq + ip[j]; op[j] = v > 0.0f ? v : 0.0f; }
    }
}
