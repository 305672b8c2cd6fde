// Depthwise 3x3 conv with BatchNorm and ReLU fused, BatchNorm folding, and the pointwise epilogue; the 1x1 conv runs in torch.
#include <math.h>

// y = relu(bn1(depthwise 3x3 conv of x, padding 1)), NCHW; one (n, c) plane per iteration, interior without bounds checks
void dw3x3_bn_relu(const float* restrict x, const float* restrict w, const float* restrict gamma, const float* restrict beta,
                   const float* restrict mean, const float* restrict var, float* restrict y,
                   long planes, long C, long H, long W, float eps) {
    #pragma omp parallel for
    for (long p = 0; p < planes; p++) {
        long c = p % C;
        const float* xp = x + p * H * W;
        const float* k = w + c * 9;
        float* yp = y + p * H * W;
        float s = gamma[c] / sqrtf(var[c] + eps), m = mean[c], b = beta[c];
        for (long oy = 0; oy < H; oy++) {
            float* yr = yp + oy * W;
            for (long ox = 0; ox < W; ox++) yr[ox] = 0.0f;
            for (long ky = 0; ky < 3; ky++) {
                long iy = oy + ky - 1;
                if (iy < 0 || iy >= H) continue;
                const float* xr = xp + iy * W;
                float k0 = k[ky * 3], k1 = k[ky * 3 + 1], k2 = k[ky * 3 + 2];
                yr[0] += xr[0] * k1 + (W > 1 ? xr[1] * k2 : 0.0f);
                for (long ox = 1; ox < W - 1; ox++) yr[ox] += xr[ox - 1] * k0 + xr[ox] * k1 + xr[ox + 1] * k2;
                if (W > 1) yr[W - 1] += xr[W - 2] * k0 + xr[W - 1] * k1;
            }
            for (long ox = 0; ox < W; ox++) { float v = (yr[ox] - m) * s + b; yr[ox] = v > 0.0f ? v : 0.0f; }
        }
    }
}

// wf = w * s[o], bf[o] = beta[o] - mean[o] * s[o] with s = gamma / sqrt(var + eps): eval-mode BN folded into the conv before it
void fold_bn(const float* w, const float* gamma, const float* beta, const float* mean, const float* var,
             float* wf, float* bf, long cout, long k, float eps) {
    for (long o = 0; o < cout; o++) {
        float s = gamma[o] / sqrtf(var[o] + eps);
        for (long j = 0; j < k; j++) wf[o * k + j] = w[o * k + j] * s;
        bf[o] = beta[o] - mean[o] * s;
    }
}

// y = relu(y + b[c]) in place, y in NCHW
void bias_relu(float* y, const float* b, long planes, long C, long hw) {
    #pragma omp parallel for
    for (long p = 0; p < planes; p++) {
        float bc = b[p % C], *yp = y + p * hw;
        for (long j = 0; j < hw; j++) { float v = yp[j] + bc; yp[j] = v > 0.0f ? v : 0.0f; }
    }
}
