// Elementwise epilogues of the MLP block; the two GEMMs run in cuBLAS (addmm).

// h = GELU(h) in place, exact form 0.5*h*(1+erf(h/sqrt(2))) as in F.gelu
extern "C" __global__ void gelu_inplace(float* __restrict__ h, long n) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { float v = h[i]; h[i] = 0.5f * v * (1.0f + erff(v * 0.70710678118654752f)); }
}

// y += x in place (the residual)
extern "C" __global__ void add_inplace(float* __restrict__ y, const float* __restrict__ x, long n) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += x[i];
}
