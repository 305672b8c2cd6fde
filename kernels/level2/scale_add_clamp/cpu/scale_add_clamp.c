// out = clamp(x * scale + y, lo, hi) in one vectorised pass.
#pragma GCC optimize ("no-trapping-math")   // lets GCC turn the clamp into vector min/max (results unchanged)

void scale_add_clamp(const float* restrict x, const float* restrict y, float* restrict out, long n,
                     float s, float lo, float hi) {
    #pragma omp parallel for simd schedule(static)
    for (long i = 0; i < n; ++i) {
        float v = x[i] * s + y[i];
        v = v < lo ? lo : v;
        out[i] = v > hi ? hi : v;
    }
}
