// diag(d) @ B with both operands and the product rounded to IEEE half precision (_Float16), then widened back.
void row_scale_f16(const float* d, const float* B, float* out, long N, long M) {
    for (long i = 0; i < N; i++) {
        const _Float16 s = (_Float16)d[i];
        for (long j = 0; j < M; j++) out[i * M + j] = (float)(_Float16)(s * (_Float16)B[i * M + j]);
    }
}
