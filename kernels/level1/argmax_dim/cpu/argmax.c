// Argmax over the middle axis of x viewed as (outer, R, inner); y (int64) is (outer, inner).
// inner > 1 (this task): (outer, 256-column block) tasks across OpenMP threads; each scans the R row slices in
//   memory order, keeping a block of running maxima and their indices in L1 (strict > keeps the first maximum;
//   a NaN wins once, like torch.argmax). inner == 1: one scan per row.
#define CB 256

void argmax_dim(const float* restrict x, long* restrict y, long outer, long R, long inner) {
    const long nb = (inner + CB - 1) / CB;
    #pragma omp parallel for collapse(2) schedule(static)
    for (long o = 0; o < outer; o++)
        for (long b = 0; b < nb; b++) {
            const long c0 = b * CB, w = inner - c0 < CB ? inner - c0 : CB;
            float bv[CB];
            long bi[CB];
            const float* p0 = x + o * R * inner + c0;
            for (long c = 0; c < w; c++) { bv[c] = p0[c]; bi[c] = 0; }
            for (long r = 1; r < R; r++) {
                const float* p = p0 + r * inner;
                for (long c = 0; c < w; c++) {
                    const float v = p[c];
                    const int take = (v > bv[c]) | ((v != v) & (bv[c] == bv[c]));
                    bv[c] = take ? v : bv[c];
                    bi[c] = take ? r : bi[c];
                }
            }
            for (long c = 0; c < w; c++) y[o * inner + c0 + c] = bi[c];
        }
}
