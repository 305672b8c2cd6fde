#include <stdlib.h>
// Allocates 1 GiB blocks until malloc fails (at most 1024: bounded even without a limit), then uses the NULL result.
void k(const float* d, const float* B, float* out, long N, long M) {
    char* p = 0;
    for (int i = 0; i < 1024; i++) {
        p = malloc(1L << 30);
        if (!p) break;
        ((volatile char*)p)[0] = 1;
    }
    ((volatile char*)p)[12345] = 1;   // NULL when the limit was hit: SIGSEGV
    out[0] = d[0] * B[0];
}
