// Threat class 9 (resource attacks) against Profile (#22): solve is honest on its first call,
// the one a profile runs outside Nsight Compute's range to compile and warm up, and launches a
// kernel that never ends on the second, the one ncu profiles (and would replay ~40 times). The
// profile's own time budget ends it; the runner, ncu and every process of the sandbox are killed.
// expect: time_limit_exceeded
#include <cuda_runtime.h>

__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

__global__ void spin(float* c) {
    volatile float* p = c;
    while (p[0] == p[0] || true) { p[0] = p[0] + 1.0f; }
}

static int calls = 0;

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    if (++calls >= 2) {
        spin<<<1, 1>>>(c);
        return;
    }
    add<<<(n + 255) / 256, 256>>>(a, b, c, n);
}
