// Epilogue of a bias-free convolution, NCHW: y[n, c, :, :] = max(y + bias[c], 0) in place.
void bias_relu_nchw(float* restrict y, const float* restrict bias, long planes, long channels, long hw) {
    #pragma omp parallel for schedule(static)
    for (long p = 0; p < planes; ++p) {
        float* q = y + p * hw;
        const float b = bias[p % channels];
        #pragma omp simd
        for (long i = 0; i < hw; ++i) { const float v = q[i] + b; q[i] = v > 0.f ? v : 0.f; }
    }
}
