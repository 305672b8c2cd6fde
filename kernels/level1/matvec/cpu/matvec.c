// y = A @ x for A (M, K) row-major: rows across OpenMP threads, four rows per step sharing each loaded slice of x,
// each dot product a SIMD reduction (the omp simd reduction lets GCC reassociate the sum without -ffast-math).
void matvec(const float* restrict A, const float* restrict x, float* restrict y, long M, long K) {
    const long M4 = M / 4 * 4;
    #pragma omp parallel for schedule(static)
    for (long i = 0; i < M4; i += 4) {
        const float* a0 = A + i * K, *a1 = a0 + K, *a2 = a1 + K, *a3 = a2 + K;
        float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
        #pragma omp simd reduction(+:s0, s1, s2, s3)
        for (long j = 0; j < K; j++) {
            const float b = x[j];
            s0 += a0[j] * b; s1 += a1[j] * b; s2 += a2[j] * b; s3 += a3[j] * b;
        }
        y[i] = s0; y[i + 1] = s1; y[i + 2] = s2; y[i + 3] = s3;
    }
    for (long i = M4; i < M; i++) {
        const float* a = A + i * K;
        float s = 0.0f;
        #pragma omp simd reduction(+:s)
        for (long j = 0; j < K; j++) s += a[j] * x[j];
        y[i] = s;
    }
}
