// diag(d) @ B with operands and product rounded to bfloat16 (round-to-nearest-even on the top 16 bits).
__device__ __forceinline__ float bf16(float x) {
    unsigned u = __float_as_uint(x);
    u += 0x7fffu + ((u >> 16) & 1u);
    return __uint_as_float(u & 0xffff0000u);
}
extern "C" __global__ void row_scale_bf16(const float* __restrict__ d, const float* __restrict__ B, float* __restrict__ out,
                                          long N, long M) {
    for (long i = blockIdx.y; i < N; i += gridDim.y)
        for (long j = (long)blockIdx.x * blockDim.x + threadIdx.x; j < M; j += (long)gridDim.x * blockDim.x)
            out[i * M + j] = bf16(bf16(d[i]) * bf16(B[i * M + j]));
}
