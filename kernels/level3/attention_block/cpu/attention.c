// Layout loops and the row softmax of the attention block; the four GEMMs run in torch's BLAS (addmm, bmm).
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

// q, v (B*H, T, D) and kT (B*H, D, T) from the packed qkv rows (B*T, 3E)
void split_heads(const float* restrict qkv, float* restrict q, float* restrict kT, float* restrict v,
                 long B, long T, long E, long H, long D) {
    #pragma omp parallel for collapse(2)
    for (long b = 0; b < B; b++)
        for (long h = 0; h < H; h++) {
            float* qb = q + (b * H + h) * T * D;
            float* vb = v + (b * H + h) * T * D;
            float* kb = kT + (b * H + h) * D * T;
            for (long t = 0; t < T; t++) {
                const float* row = qkv + (b * T + t) * 3 * E + h * D;
                for (long d = 0; d < D; d++) {
                    qb[t * D + d] = row[d];
                    kb[d * T + t] = row[E + d];
                    vb[t * D + d] = row[2 * E + d];
                }
            }
        }
}

// s = softmax(s * scale) along rows of length cols, in place
void softmax_rows(float* s, long rows, long cols, float scale) {
    #pragma omp parallel for
    for (long i = 0; i < rows; i++) {
        float* r = s + i * cols;
        float m = r[0];
        for (long j = 1; j < cols; j++) m = r[j] > m ? r[j] : m;
        float sum = 0.0f;
        for (long j = 0; j < cols; j++) { float e = vexpf((r[j] - m) * scale); r[j] = e; sum += e; }
        float inv = 1.0f / sum;
        for (long j = 0; j < cols; j++) r[j] *= inv;
    }
}

// o (B*T, E) from per-head outputs y (B*H, T, D)
void merge_heads(const float* restrict y, float* restrict o, long B, long T, long E, long H, long D) {
    #pragma omp parallel for collapse(2)
    for (long b = 0; b < B; b++)
        for (long t = 0; t < T; t++)
            for (long h = 0; h < H; h++)
                for (long d = 0; d < D; d++)
                    o[(b * T + t) * E + h * D + d] = y[((b * H + h) * T + t) * D + d];
}
