// Sum over the middle axis of x viewed as (outer, R, inner); y is (outer, inner).
// inner > 1: (outer, 256-column block) tasks across OpenMP threads; each adds R contiguous row slices (four at a
//   time) into an accumulator block that stays in L1, the column loop in SIMD (x is read once, in memory order).
// inner == 1: one SIMD reduction per row.
#define CB 256

void sum_dim(const float* restrict x, float* restrict y, long outer, long R, long inner) {
    if (inner == 1) {
        #pragma omp parallel for schedule(static)
        for (long o = 0; o < outer; o++) {
            const float* p = x + o * R;
            float s = 0.0f;
            #pragma omp simd reduction(+:s)
            for (long j = 0; j < R; j++) s += p[j];
            y[o] = s;
        }
        return;
    }
    const long nb = (inner + CB - 1) / CB;
    #pragma omp parallel for collapse(2) schedule(static)
    for (long o = 0; o < outer; o++)
        for (long b = 0; b < nb; b++) {
            const long c0 = b * CB, w = inner - c0 < CB ? inner - c0 : CB;
            float acc[CB];
            for (long c = 0; c < w; c++) acc[c] = 0.0f;
            long r = 0;
            for (; r + 4 <= R; r += 4) {                    // four rows per sweep: a quarter of the acc traffic
                const float* p = x + (o * R + r) * inner + c0;
                #pragma omp simd
                for (long c = 0; c < w; c++) acc[c] += (p[c] + p[c + inner]) + (p[c + 2 * inner] + p[c + 3 * inner]);
            }
            for (; r < R; r++) {
                const float* p = x + (o * R + r) * inner + c0;
                #pragma omp simd
                for (long c = 0; c < w; c++) acc[c] += p[c];
            }
            for (long c = 0; c < w; c++) y[o * inner + c0 + c] = acc[c];
        }
}
