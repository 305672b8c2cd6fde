// row scaling, with a header included by name and a numeric macro from the flags
#include <stddef.h>

void row_scale(const float* restrict d, const float* restrict B, float* restrict out, long N, long M) {
    #pragma omp parallel for schedule(static)
    for (long i = 0; i < N; i++) {
        const float s = d[i];
        for (long j0 = 0; j0 < M; j0 += UNROLL)   // blocks of UNROLL columns, a number the flags define
            for (long j = j0; j < j0 + UNROLL && j < M; j++) out[i * M + j] = s * B[i * M + j];
    }
}
