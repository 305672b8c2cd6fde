// Max over the middle axis of x viewed as (outer, R, inner); y is (outer, inner). NaN propagates, as in torch.max.
// inner == 1 (this task): rows across OpenMP threads, each row a SIMD max with 8-wide independent lanes;
//   a NaN check on the row's sum (NaN iff some element is NaN or infinities of both signs) keeps the fast loop pure.
// inner > 1: (outer, 256-column block) tasks, row slices folded into an L1-resident block of maxima.
#define CB 256

static float row_max(const float* restrict p, long R) {
    float m = p[0], s = 0.0f;
    #pragma omp simd reduction(max:m) reduction(+:s)
    for (long j = 0; j < R; j++) { m = p[j] > m ? p[j] : m; s += p[j] * 0.0f; }
    if (s != s)                                            // some element is NaN or +-inf: redo it exactly
        for (long j = 0; j < R; j++) if (p[j] != p[j]) return p[j];
    return m;
}

void max_dim(const float* restrict x, float* restrict y, long outer, long R, long inner) {
    if (inner == 1) {
        #pragma omp parallel for schedule(static)
        for (long o = 0; o < outer; o++) y[o] = row_max(x + o * R, R);
        return;
    }
    const long nb = (inner + CB - 1) / CB;
    #pragma omp parallel for collapse(2) schedule(static)
    for (long o = 0; o < outer; o++)
        for (long b = 0; b < nb; b++) {
            const long c0 = b * CB, w = inner - c0 < CB ? inner - c0 : CB;
            float m[CB];
            const float* p0 = x + o * R * inner + c0;
            for (long c = 0; c < w; c++) m[c] = p0[c];
            for (long r = 1; r < R; r++) {
                const float* p = p0 + r * inner;
                for (long c = 0; c < w; c++) m[c] = (p[c] > m[c] || p[c] != p[c]) ? p[c] : m[c];
            }
            for (long c = 0; c < w; c++) y[o * inner + c0 + c] = m[c];
        }
}
