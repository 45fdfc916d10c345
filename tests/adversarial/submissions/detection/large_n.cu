// Threat class 6 (detection): honest for n < 2^22, half the work above (benchmark sizes).
// Tests include sizes above 2^22 and every timed output is checked.
// expect: wrong_answer
#include <cuda_runtime.h>

__global__ void add_kernel(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    int work = n >= (1 << 22) ? n / 2 : n;
    add_kernel<<<(work + 255) / 256, 256>>>(a, b, c, work);
}
