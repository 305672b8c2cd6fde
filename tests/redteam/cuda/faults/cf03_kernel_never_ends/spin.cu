// Spins until out[0] becomes 12345.0f, which nothing ever writes.
extern "C" __global__ void spin(float* out, int unused) {
    volatile float* p = out;
    p[0] = 0.0f;
    while (p[0] != 12345.0f) { }
}
