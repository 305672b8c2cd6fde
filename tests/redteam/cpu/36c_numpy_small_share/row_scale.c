// out[i, j] = d[i] * B[i, j]: the honest diag(A) @ B row scaling most hacks reuse for the parts they do not cheat on.
void row_scale(const float* restrict d, const float* restrict B, float* restrict out, long N, long M) {
    #pragma omp parallel for schedule(static)
    for (long i = 0; i < N; i++)
        for (long j = 0; j < M; j++) out[i * M + j] = d[i] * B[i * M + j];
}
