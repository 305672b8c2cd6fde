void copy_f(const float* src, float* dst, long n) { for (long i = 0; i < n; i++) dst[i] = src[i]; }
