// y[i] = dot(W[i, :], x) for a row-major W (N, K), K a multiple of 4; one warp per row, float4 loads.
extern "C" __global__ void matvec_rows(const float* __restrict__ W, const float* __restrict__ x, float* __restrict__ y,
                                       long N, long K) {
    long row = (long)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    if (row >= N) return;
    const float4* w = reinterpret_cast<const float4*>(W + row * K);
    const float4* v = reinterpret_cast<const float4*>(x);
    float s = 0.f;
    for (long j = lane; j < K / 4; j += 32) {
        float4 a = w[j], b = v[j];
        s += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    }
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if (lane == 0) y[row] = s;
}
