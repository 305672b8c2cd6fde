// Epilogue of a bias-free GEMM: out[r] = sum_c tanh(y[r, c] + bias[c]), one block of 256 threads per row.
// The GEMM output is read once (float4 when cols % 4 == 0) and never written back.
extern "C" __global__ void __launch_bounds__(256) bias_tanh_rowsum(const float* __restrict__ y, const float* __restrict__ bias,
                                                                    float* __restrict__ out, int cols) {
    __shared__ float sh[8];
    const float* row = y + (long)blockIdx.x * cols;
    float acc = 0.f;
    if ((cols & 3) == 0) {
        const float4* r4 = reinterpret_cast<const float4*>(row);
        const float4* b4 = reinterpret_cast<const float4*>(bias);
        for (int i = threadIdx.x; i < (cols >> 2); i += 256) {
            const float4 v = __ldg(r4 + i), b = __ldg(b4 + i);
            acc += (tanhf(v.x + b.x) + tanhf(v.y + b.y)) + (tanhf(v.z + b.z) + tanhf(v.w + b.w));
        }
    } else {
        for (int i = threadIdx.x; i < cols; i += 256) acc += tanhf(__ldg(row + i) + __ldg(bias + i));
    }
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
    if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0.f;
        #pragma unroll
        for (int k = 0; k < 8; ++k) s += sh[k];
        out[blockIdx.x] = s;
    }
}
