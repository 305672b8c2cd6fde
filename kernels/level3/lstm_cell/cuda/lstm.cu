// The fused gate math of one LSTM step; the two GEMMs run in cuBLAS (addmm).

__device__ __forceinline__ float sigmoidf(float v) { return 1.0f / (1.0f + expf(-v)); }

// gates (B, 4H) = x W_ih^T + b_ih + h W_hh^T (b_hh still to add); out (2, B, H) = stacked (h', c')
extern "C" __global__ void lstm_gates(const float* __restrict__ gates, const float* __restrict__ b_hh,
                                      const float* __restrict__ c, float* __restrict__ out, int B, int H) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;           // hidden unit; grid.y walks the batch rows
    if (j >= H) return;
    for (long b = blockIdx.y; b < B; b += gridDim.y) {
        const float* g = gates + b * 4 * H;
        long i = b * H + j;
        float ig = sigmoidf(g[j] + b_hh[j]);
        float fg = sigmoidf(g[H + j] + b_hh[H + j]);
        float gg = tanhf(g[2 * H + j] + b_hh[2 * H + j]);
        float og = sigmoidf(g[3 * H + j] + b_hh[3 * H + j]);
        float cn = fg * c[i] + ig * gg;
        out[i] = og * tanhf(cn);
        out[(long)B * H + i] = cn;
    }
}
