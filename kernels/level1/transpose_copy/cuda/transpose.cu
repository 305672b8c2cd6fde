// y[b, j, i] = x[b, i, j] for x (B, M, N): 32 x 32 tiles through shared memory, block (32, 8), 4 rows per thread.
// Reads are coalesced along x's rows and writes along y's rows; the +1 column of padding keeps the transposed
// shared-memory reads free of bank conflicts. grid = (cdiv(N, 32), cdiv(M, 32), B); edges are bounds-checked.
#define TILE 32

extern "C" __global__ void transpose_batched(const float* __restrict__ x, float* __restrict__ y, long M, long N) {
    __shared__ float tile[TILE][TILE + 1];
    const long b = blockIdx.z;
    const float* xb = x + b * M * N;
    float* yb = y + b * M * N;
    const long i0 = (long)blockIdx.y * TILE, j0 = (long)blockIdx.x * TILE;
    const long j = j0 + threadIdx.x;
    #pragma unroll
    for (int k = threadIdx.y; k < TILE; k += 8) {
        const long i = i0 + k;
        if (i < M && j < N) tile[k][threadIdx.x] = xb[i * N + j];
    }
    __syncthreads();
    const long i = i0 + threadIdx.x;                 // now threadIdx.x walks y's rows' contiguous axis (x's rows)
    #pragma unroll
    for (int k = threadIdx.y; k < TILE; k += 8) {
        const long jj = j0 + k;
        if (jj < N && i < M) yb[jj * M + i] = tile[threadIdx.x][k];
    }
}
