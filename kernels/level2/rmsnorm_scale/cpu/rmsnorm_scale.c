// out = x * rsqrt(mean(x^2) + eps) * weight * scale over rows of length d, rows in parallel.
void rmsnorm_scale(const float* restrict x, const float* restrict w, const float* restrict s, float* restrict out,
                   long rows, long d, float eps) {
    #pragma omp parallel for schedule(static)
    for (long i = 0; i < rows; ++i) {
        const float* a = x + i * d; float* o = out + i * d;
        float q = 0.f;
        #pragma omp simd reduction(+:q)
        for (long k = 0; k < d; ++k) q += a[k] * a[k];
        const float rinv = 1.f / __builtin_sqrtf(q / d + eps);
        #pragma omp simd
        for (long k = 0; k < d; ++k) o[k] = a[k] * rinv * w[k] * s[k];
    }
}
