// mean((a - b)^2) in one pass: chunks of 4096 elements across OpenMP threads, each chunk a SIMD sum in float
// (short sums keep rounding small), chunk sums combined by the OpenMP reduction; then divided by n.
#define CHUNK 4096

void mse(const float* restrict a, const float* restrict b, float* restrict out, long n) {
    const long nc = (n + CHUNK - 1) / CHUNK;
    float total = 0.0f;
    #pragma omp parallel for reduction(+:total) schedule(static)
    for (long c = 0; c < nc; c++) {
        const long lo = c * CHUNK, hi = lo + CHUNK < n ? lo + CHUNK : n;
        float s = 0.0f;
        #pragma omp simd reduction(+:s)
        for (long i = lo; i < hi; i++) { const float d = a[i] - b[i]; s += d * d; }
        total += s;
    }
    out[0] = total / (float)n;
}
