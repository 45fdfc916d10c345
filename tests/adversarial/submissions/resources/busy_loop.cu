// Threat class 9 (resource attacks): a GPU kernel that never ends (the compiler cannot prove
// it, so it is not optimised away). The referee's per-call limit ends it, and the runner (and
// its CUDA context) is killed.
// expect: time_limit_exceeded
#include <cuda_runtime.h>

__global__ void spin(float* c, int n) {
    volatile float* p = c;
    while (p[0] == p[0] || true) { p[0] = p[0] + 1.0f; }
}

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    spin<<<1, 1>>>(c, n);
}
