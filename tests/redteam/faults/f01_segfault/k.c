void k(const float* d, const float* B, float* out, long N, long M) { *(volatile float*)0 = d[0] * B[0]; }
