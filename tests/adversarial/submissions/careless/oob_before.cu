// Threat class 12 (careless memory bug): thread 0 of block 0 also writes c[-1] (a misplaced
// "halo" store). The guard bands must report it: wrong_answer, "wrote before the start".
#include <cuda_runtime.h>
// expect: GPU wrong_answer (c: wrote before the start); CPU not_run

__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
    if (i == 0) c[i - 1] = 0.0f;
}

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    add<<<(n + 255) / 256, 256>>>(a, b, c, n);
}
