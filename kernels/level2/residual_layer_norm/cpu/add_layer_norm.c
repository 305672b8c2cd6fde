// out = LayerNorm(x + r) over rows of length d: the sum is written to the output row, then
// two-pass mean/variance on it (cache-resident), then normalised in place.
void add_layer_norm(const float* restrict x, const float* restrict r, const float* restrict gamma,
                    const float* restrict beta, float* restrict out, long rows, long d, float eps) {
    #pragma omp parallel for schedule(static)
    for (long i = 0; i < rows; ++i) {
        const float* a = x + i * d; const float* b = r + i * d; float* o = out + i * d;
        float s = 0.f;
        #pragma omp simd reduction(+:s)
        for (long k = 0; k < d; ++k) { o[k] = a[k] + b[k]; s += o[k]; }
        const float mean = s / d;
        float q = 0.f;
        #pragma omp simd reduction(+:q)
        for (long k = 0; k < d; ++k) { float t = o[k] - mean; q += t * t; }
        const float rstd = 1.f / __builtin_sqrtf(q / d + eps);
        #pragma omp simd
        for (long k = 0; k < d; ++k) o[k] = (o[k] - mean) * rstd * gamma[k] + beta[k];
    }
}
