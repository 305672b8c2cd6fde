// Epilogue of a bias-free convolution y (n, c, h, w): out[n] = sum_{c, i, j} tanh(avgpool_p(y)[n, c, i, j] + bias[c]).
// Stage 1: one block per (n, c) plane pools, adds the bias, applies tanh and reduces the plane to one
// partial (the conv output is read once, no pooled tensor is written). Stage 2: one warp per sample sums
// its c partials in a fixed order, so the result is deterministic (no atomics).
#define THREADS 256

extern "C" __global__ void __launch_bounds__(THREADS) pool_tanh_plane_sum(const float* __restrict__ y, const float* __restrict__ bias,
        float* __restrict__ partial, int channels, int h, int w, int p) {
    __shared__ float sh[THREADS / 32];
    const long plane = blockIdx.x;                       // n * channels + c
    const float* src = y + plane * h * (long)w;
    const float b = __ldg(bias + plane % channels);
    const int ph = h / p, pw = w / p, cnt = ph * pw;
    const float inv = 1.f / (p * p);
    float acc = 0.f;
    if (p == 2 && (w & 1) == 0) {                        // 2x2 windows as two float2 loads (8-byte aligned)
        for (int k = threadIdx.x; k < cnt; k += THREADS) {
            const int i = k / pw, j = k - i * pw;
            const float2 a = __ldg(reinterpret_cast<const float2*>(src + (2 * i) * (long)w) + j);
            const float2 c = __ldg(reinterpret_cast<const float2*>(src + (2 * i + 1) * (long)w) + j);
            acc += tanhf(((a.x + a.y) + (c.x + c.y)) * inv + b);
        }
    } else {
        for (int k = threadIdx.x; k < cnt; k += THREADS) {
            const int i = k / pw, j = k - i * pw;
            float s = 0.f;
            for (int di = 0; di < p; ++di)
                for (int dj = 0; dj < p; ++dj) s += __ldg(src + (i * p + di) * (long)w + j * p + dj);
            acc += tanhf(s * inv + b);
        }
    }
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
    if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0.f;
        #pragma unroll
        for (int k = 0; k < THREADS / 32; ++k) s += sh[k];
        partial[plane] = s;
    }
}

extern "C" __global__ void sum_partials(const float* __restrict__ partial, float* __restrict__ out, int n, int channels) {
    const int s = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5), lane = threadIdx.x & 31;
    if (s >= n) return;
    float acc = 0.f;
    for (int c = lane; c < channels; c += 32) acc += partial[(long)s * channels + c];
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
    if (lane == 0) out[s] = acc;
}
