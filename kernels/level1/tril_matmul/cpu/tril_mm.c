// tril(A @ B) for lower-triangular A, B (N, N). Entry (i, j), i >= j, only sums k in [j, i]: A[i, k] = 0 for k > i
// and B[k, j] = 0 for k < j. Tasks are 16-column strips (dynamic schedule, widest-work strips first). A strip
// j0..j0+15 packs rows k >= j0 of B contiguously (the strided rows would fight over a few L1 sets), then walks
// 4-row blocks i0 >= j0 - 3: each sums k over [j0, min(i0 + 3, N - 1)] into a 4 x 16 accumulator held in AVX
// registers (4 broadcasts of A, two 8-wide loads, eight FMAs per k) - about N^3/6 multiply-adds instead of the dense
// N^3. Rows above the strip's first block are zero-filled; entries above the diagonal are written as exact zeros.
#include <math.h>
#include <stdlib.h>
#define MR 4
#define NR 16

void tril_mm(const float* restrict A, const float* restrict B, float* restrict C, long N) {
    const long ns = (N + NR - 1) / NR;
    #pragma omp parallel
    {
        float* bp = malloc(sizeof(float) * (N > 0 ? N : 1) * NR);
        #pragma omp for schedule(dynamic, 1)
        for (long s = 0; s < ns; s++) {
            const long j0 = s * NR, w = N - j0 < NR ? N - j0 : NR;
            for (long k = j0; k < N; k++)                            // pack rows k >= j0 of the strip
                for (int c = 0; c < NR; c++) bp[k * NR + c] = c < w ? B[k * N + j0 + c] : 0.0f;
            const long ib0 = j0 / MR;                                // first row block that reaches the diagonal
            for (long i = 0; i < ib0 * MR; i++)
                for (int c = 0; c < w; c++) C[i * N + j0 + c] = 0.0f;
            for (long i0 = ib0 * MR; i0 < N; i0 += MR) {
                const long rows = N - i0 < MR ? N - i0 : MR;
                const long kend = i0 + rows;                          // A[i, k] = 0 for k > i
                float acc[MR][NR] = {{0}};
                if (rows == MR) {
                    for (long k = j0; k < kend; k++) {
                        const float* b = bp + k * NR;
                        for (int r = 0; r < MR; r++) {
                            const float a = A[(i0 + r) * N + k];
                            #pragma omp simd
                            for (int c = 0; c < NR; c++) acc[r][c] = fmaf(a, b[c], acc[r][c]);
                        }
                    }
                } else {
                    for (long k = j0; k < kend; k++)
                        for (int r = 0; r < rows; r++) {
                            const float a = A[(i0 + r) * N + k];
                            for (int c = 0; c < NR; c++) acc[r][c] = fmaf(a, bp[k * NR + c], acc[r][c]);
                        }
                }
                for (int r = 0; r < rows; r++)
                    for (int c = 0; c < w; c++) C[(i0 + r) * N + j0 + c] = j0 + c <= i0 + r ? acc[r][c] : 0.0f;
            }
        }
        free(bp);
    }
}
