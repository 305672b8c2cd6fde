void k(const float* d, const float* B, float* out, long N, long M) { for (volatile long i = 0;; i++) out[0] = d[0]; }
