// B[i, j] *= d[i] in place (mutates the input), and a plain copy.
void scale_in_place(const float* d, float* B, long N, long M) {
    for (long i = 0; i < N; i++) for (long j = 0; j < M; j++) B[i * M + j] *= d[i];
}
void copy_f(const float* src, float* dst, long n) { for (long i = 0; i < n; i++) dst[i] = src[i]; }
