// Batched SGEMM C[b] = A[b] @ B[b] (row-major float32), no BLAS. (batch, 16-column strip) tasks across OpenMP
// threads. Each task packs its K x 16 strip of B contiguously (one pass; the strided rows of B would otherwise
// fight over a few L1 sets), then sweeps 6-row blocks of A over it with a 6 x 16 accumulator block kept in AVX
// registers for the whole K loop (12 of the 16 ymm): per k, 6 broadcasts of A, two 8-wide loads of the strip, 12 FMAs.
// fmaf gives single rounding per step and maps to vfmadd. Row and column tails use plain loops.
#include <math.h>
#include <stdlib.h>
#define MR 6
#define NR 16

void bmm(const float* restrict A, const float* restrict B, float* restrict C, long batch, long M, long N, long K) {
    const long ns = (N + NR - 1) / NR, mfull = M / MR * MR;
    #pragma omp parallel
    {
        float* bp = malloc(sizeof(float) * (K > 0 ? K : 1) * NR);
        #pragma omp for collapse(2) schedule(static)
        for (long bt = 0; bt < batch; bt++)
            for (long s = 0; s < ns; s++) {
                const float* Ab = A + bt * M * K;
                const float* Bb = B + bt * K * N;
                float* Cb = C + bt * M * N;
                const long j0 = s * NR, w = N - j0 < NR ? N - j0 : NR;
                for (long k = 0; k < K; k++)                      // pack the strip, zero-padded to 16 columns
                    for (int c = 0; c < NR; c++) bp[k * NR + c] = c < w ? Bb[k * N + j0 + c] : 0.0f;
                for (long i0 = 0; i0 < mfull; i0 += MR) {
                    float acc[MR][NR] = {{0}};
                    for (long k = 0; k < K; k++) {
                        const float* b = bp + k * NR;
                        for (int r = 0; r < MR; r++) {
                            const float a = Ab[(i0 + r) * K + k];
                            #pragma omp simd
                            for (int c = 0; c < NR; c++) acc[r][c] = fmaf(a, b[c], acc[r][c]);
                        }
                    }
                    for (int r = 0; r < MR; r++)
                        for (int c = 0; c < w; c++) Cb[(i0 + r) * N + j0 + c] = acc[r][c];
                }
                for (long i = mfull; i < M; i++) {                 // leftover rows
                    float acc[NR] = {0};
                    for (long k = 0; k < K; k++) {
                        const float a = Ab[i * K + k];
                        #pragma omp simd
                        for (int c = 0; c < NR; c++) acc[c] = fmaf(a, bp[k * NR + c], acc[c]);
                    }
                    for (int c = 0; c < w; c++) Cb[i * N + j0 + c] = acc[c];
                }
            }
        free(bp);
    }
}
