// out[k, :] = x[idx[k], :]: rows gathered by an integer index
#include <string.h>

void gather_rows(const float* restrict x, const long* restrict idx, float* restrict out, long K, long M) {
    #pragma omp parallel for schedule(static)
    for (long k = 0; k < K; k++) memcpy(out + k * M, x + idx[k] * M, (size_t)M * sizeof(float));
}

// a copy of the index, kept by the caller between calls
void keep_index(const long* restrict idx, long* restrict kept, long K) { memcpy(kept, idx, (size_t)K * sizeof(long)); }
