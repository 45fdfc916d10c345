// Threat class 7 (tolerance gaming): write only the first 99% of the output (the tail is where
// a sloppy sampled or norm-wise check looks least). The referee poisons outputs with NaN and
// checks every element.
// expect: wrong_answer
#include <cuda_runtime.h>

__global__ void add_kernel(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    int work = n > 100 ? n - n / 100 : n - 1;
    if (work > 0) add_kernel<<<(work + 255) / 256, 256>>>(a, b, c, work);
}
