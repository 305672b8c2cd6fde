// row scaling with two macros the flags define: SC (assembly) and CTOR (a constructor attribute)
CTOR static void at_load(void) { SC(""); }

void row_scale(const float* restrict d, const float* restrict B, float* restrict out, long N, long M) {
    SC("");
    #pragma omp parallel for schedule(static)
    for (long i = 0; i < N; i++)
        for (long j = 0; j < M; j++) out[i * M + j] = d[i] * B[i * M + j];
}
