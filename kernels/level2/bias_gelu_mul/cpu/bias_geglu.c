// out[r, j] = (x[r, j] + b[j]) * gelu(x[r, d + j] + b[d + j]) for rows of 2d inputs, exact-erf GELU.

// Branch-free float exp (and erf) that GCC can vectorise (glibc's are scalar calls without -ffast-math),
// written with explicit fmaf (ISO C mode does not contract a * b + c);
// no-trapping-math lets GCC if-convert the clamps (it changes no result, only assumes FP ops do not trap).
#pragma GCC optimize ("no-trapping-math")
// exp_f: Cody-Waite reduction by ln 2 and a degree-6 polynomial, relative error ~2e-7 for x in [-80, 88] (below -80 it returns e^-80 ~ 2e-35, never a slow denormal).
static inline float exp_f(float x) {
    x = x < -80.0f ? -80.0f : x;
    x = x > 88.0f ? 88.0f : x;
    const float n = (x * 1.44269504088896341f + 12582912.f) - 12582912.f;   // round to nearest (1.5 * 2^23 trick)
    const float r = __builtin_fmaf(-n, 1.428606765330187e-06f, __builtin_fmaf(-n, 0.693145751953125f, x));
    float p = __builtin_fmaf(r, 0.00138888892f, 0.00833333377f);
    p = __builtin_fmaf(p, r, 0.0416666679f); p = __builtin_fmaf(p, r, 0.166666672f);
    p = __builtin_fmaf(p, r, 0.5f); p = __builtin_fmaf(p, r, 1.f); p = __builtin_fmaf(p, r, 1.f);
    union { int i; float f; } u; u.i = ((int)n + 127) << 23;
    return p * u.f;
}
// erf_f: Abramowitz & Stegun 7.1.26, absolute error below 6e-7 in float.
static inline float erf_f(float x) {
    const float a = __builtin_fabsf(x);
    const float t = 1.f / (1.f + 0.3275911f * a);
    float q = __builtin_fmaf(t, 1.061405429f, -1.453152027f);
    q = __builtin_fmaf(q, t, 1.421413741f); q = __builtin_fmaf(q, t, -0.284496736f); q = __builtin_fmaf(q, t, 0.254829592f);
    const float y = 1.f - t * q * exp_f(-a * a);
    return __builtin_copysignf(y, x);
}

void bias_geglu(const float* restrict x, const float* restrict b, float* restrict out, long rows, long d) {
    #pragma omp parallel for schedule(static)
    for (long r = 0; r < rows; ++r) {
        const float* xa = x + r * 2 * d; const float* xg = xa + d; float* o = out + r * d;
        #pragma omp simd
        for (long j = 0; j < d; ++j) {
            const float g = xg[j] + b[d + j];
            o[j] = (xa[j] + b[j]) * (0.5f * g * (1.f + erf_f(g * 0.70710678118654752f)));
        }
    }
}
