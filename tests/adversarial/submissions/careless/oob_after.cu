// Threat class 12 (careless memory bug): the kernel has no `if (i < n)`, so the last block
// writes past the end of c. The guard bands must report it: wrong_answer, "wrote past the end".
#include <cuda_runtime.h>
// expect: GPU wrong_answer (c: wrote past the end); CPU not_run

__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = a[i] + b[i];
}

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    add<<<(n + 255) / 256, 256>>>(a, b, c, n);
}
