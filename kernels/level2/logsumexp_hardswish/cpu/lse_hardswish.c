// out[n, 0, p] = hardswish(logsumexp_c x[n, c, p]) for NCHW x: per sample, a running max over the
// channel planes, then a running sum of exp(x - max), both vectorised along the pixels.

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
// log_f for positive normal floats: exponent from the bits, mantissa in [sqrt(1/2), sqrt(2)), then
// log(m) = 2 atanh((m - 1) / (m + 1)) by its odd series; relative error ~1e-7.
static inline float log_f(float x) {
    union { float f; int i; } u; u.f = x;
    int e = ((u.i >> 23) & 0xff) - 127;
    u.i = (u.i & 0x007fffff) | 0x3f800000;
    float m = u.f;
    const int big = m > 1.41421356f;
    m = big ? 0.5f * m : m;
    e += big;
    const float t = (m - 1.f) / (m + 1.f), t2 = t * t;
    float p = __builtin_fmaf(t2, 0.222222222f, 0.285714286f);
    p = __builtin_fmaf(p, t2, 0.4f); p = __builtin_fmaf(p, t2, 0.666666667f); p = __builtin_fmaf(p, t2, 2.f);
    return __builtin_fmaf((float)e, 0.693147180559945f, p * t);
}

void lse_hardswish(const float* restrict x, float* restrict out, float* restrict work, long n, long channels, long hw) {
    #pragma omp parallel for schedule(static)
    for (long s = 0; s < n; ++s) {
        const float* base = x + s * channels * hw; float* m = out + s * hw; float* acc = work + s * hw;
        #pragma omp simd
        for (long p = 0; p < hw; ++p) { m[p] = base[p]; acc[p] = 0.f; }
        for (long c = 1; c < channels; ++c) {
            const float* pc = base + c * hw;
            #pragma omp simd
            for (long p = 0; p < hw; ++p) m[p] = pc[p] > m[p] ? pc[p] : m[p];
        }
        for (long c = 0; c < channels; ++c) {
            const float* pc = base + c * hw;
            #pragma omp simd
            for (long p = 0; p < hw; ++p) acc[p] += exp_f(pc[p] - m[p]);
        }
        #pragma omp simd
        for (long p = 0; p < hw; ++p) {
            const float v = m[p] + log_f(acc[p]);
            float r = v + 3.f;
            r = r < 0.f ? 0.f : r;
            r = r > 6.f ? 6.f : r;
            m[p] = v * r / 6.f;
        }
    }
}
