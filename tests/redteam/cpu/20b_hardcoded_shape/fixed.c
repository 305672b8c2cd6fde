// Fixed 512 x 512 output; rows/cols beyond the real (N, M) are zero (memory-safe for any smaller input).
void row_scale_512(const float* d, const float* B, float* out, long N, long M) {
    for (long i = 0; i < 512; i++)
        for (long j = 0; j < 512; j++) out[i * 512 + j] = (i < N && j < M) ? d[i] * B[i * M + j] : 0.0f;
}
