// out[i, j] = d[i] * B[i, j]: diag(d) @ B without the diagonal matrix or the GEMM.
// grid.y walks rows (strided, so any N works), grid.x/threads walk a row's columns;
// 16-byte float4 loads/stores when M % 4 == 0 and the pointers are 16-byte aligned, scalar otherwise.
extern "C" __global__ void row_scale(const float* __restrict__ d, const float* __restrict__ B,
                                     float* __restrict__ out, long N, long M) {
    const bool vec = (M % 4 == 0) && ((((unsigned long long)B | (unsigned long long)out) & 15ull) == 0);
    const long tid = (long)blockIdx.x * blockDim.x + threadIdx.x;
    const long stride = (long)gridDim.x * blockDim.x;
    for (long i = blockIdx.y; i < N; i += gridDim.y) {
        const float s = d[i];
        const float* b = B + i * M;
        float* o = out + i * M;
        if (vec) {
            const long M4 = M / 4;
            for (long j = tid; j < M4; j += stride) {
                float4 v = reinterpret_cast<const float4*>(b)[j];
                v.x *= s; v.y *= s; v.z *= s; v.w *= s;
                reinterpret_cast<float4*>(o)[j] = v;
            }
        } else {
            for (long j = tid; j < M; j += stride) o[j] = s * b[j];
        }
    }
}
