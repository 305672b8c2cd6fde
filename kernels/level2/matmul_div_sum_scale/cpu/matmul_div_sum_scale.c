// Matmul-divide-sum-scale, collapsed: out[b] = (scale / 2) * dot(x[b, :], colsum(W)).

// wsum[k] = sum_j W[j, k]: each thread owns a slice of columns and streams the rows (vectorised adds).
void weight_colsum(const float* restrict w, float* restrict wsum, long hidden, long in) {
    #pragma omp parallel
    {
        #pragma omp for schedule(static)
        for (long c0 = 0; c0 < in; c0 += 256) {
            long c1 = c0 + 256 < in ? c0 + 256 : in;
            float acc[256];
            for (long k = c0; k < c1; ++k) acc[k - c0] = 0.f;
            for (long j = 0; j < hidden; ++j) {
                const float* row = w + j * in;
                for (long k = c0; k < c1; ++k) acc[k - c0] += row[k];
            }
            for (long k = c0; k < c1; ++k) wsum[k] = acc[k - c0];
        }
    }
}

// out[b] = alpha * dot(x[b, :], v)
void row_dot(const float* restrict x, const float* restrict v, float* restrict out, long batch, long in, float alpha) {
    #pragma omp parallel for schedule(static)
    for (long b = 0; b < batch; ++b) {
        const float* row = x + b * in;
        float acc = 0.f;
        #pragma omp simd reduction(+:acc)
        for (long k = 0; k < in; ++k) acc += row[k] * v[k];
        out[b] = acc * alpha;
    }
}
