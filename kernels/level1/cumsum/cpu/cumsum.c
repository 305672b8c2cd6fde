// Row-wise inclusive scan. One row alone is a chain of dependent adds (4 cycles each), so eight rows are scanned
// together: a tile of 8 rows x 16 columns (one cache line per row) is copied into a small transposed block, the
// 16 column steps each add one 8-wide vector (the running sums of the 8 rows) in SIMD, and the tile is written back.
// Whole cache lines are used per row, which avoids the set conflicts of eight streams 4 KiB-multiples apart.
// Groups of eight rows go across OpenMP threads; leftover rows and columns are scanned one by one.
#define G 8
#define W 16

void cumsum_rows(const float* restrict x, float* restrict y, long rows, long n) {
    const long groups = rows / G, nw = n / W * W;
    #pragma omp parallel for schedule(static)
    for (long g = 0; g < groups; g++) {
        const float* xr = x + g * G * n;
        float* yr = y + g * G * n;
        float acc[G] = {0}, t[W][G];
        for (long j0 = 0; j0 < nw; j0 += W) {
            for (int r = 0; r < G; r++)
                for (int c = 0; c < W; c++) t[c][r] = xr[r * n + j0 + c];
            for (int c = 0; c < W; c++) {
                #pragma omp simd
                for (int r = 0; r < G; r++) { acc[r] += t[c][r]; t[c][r] = acc[r]; }
            }
            for (int r = 0; r < G; r++)
                for (int c = 0; c < W; c++) yr[r * n + j0 + c] = t[c][r];
        }
        for (int r = 0; r < G; r++)
            for (long j = nw; j < n; j++) { acc[r] += xr[r * n + j]; yr[r * n + j] = acc[r]; }
    }
    for (long i = groups * G; i < rows; i++) {
        float acc = 0.0f;
        for (long j = 0; j < n; j++) { acc += x[i * n + j]; y[i * n + j] = acc; }
    }
}
