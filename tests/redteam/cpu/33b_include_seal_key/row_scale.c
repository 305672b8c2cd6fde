// out[i, j] = d[i] * B[i, j]: diag(d) @ B as a row scaling; rows split across threads, the row loop vectorises.
void row_scale(const float* restrict d, const float* restrict B, float* restrict out, long N, long M) {
    #pragma omp parallel for schedule(static)
    for (long i = 0; i < N; i++) {
        const float s = d[i];
        const float* b = B + i * M;
        float* o = out + i * M;
        #pragma omp simd
        for (long j = 0; j < M; j++) o[j] = s * b[j];
    }
}
