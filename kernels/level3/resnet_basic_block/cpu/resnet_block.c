// BatchNorm folding and the fused epilogues of the ResNet BasicBlock; the 3x3 convolutions run in torch (oneDNN).
#include <math.h>

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

// y = relu(y + b[c] + x) in place: the second BN's bias, the identity shortcut and the final ReLU in one pass
void bias_add_relu(float* restrict y, const float* restrict b, const float* restrict x, long planes, long C, long hw) {
    #pragma omp parallel for
    for (long p = 0; p < planes; p++) {
        float bc = b[p % C], *yp = y + p * hw;
        const float* xp = x + p * hw;
        for (long j = 0; j < hw; j++) { float v = yp[j] + bc + xp[j]; yp[j] = v > 0.0f ? v : 0.0f; }
    }
}
