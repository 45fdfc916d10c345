// Threat class 6 (detection): honest for as many calls as the problem has tests (13 for
// vector-add), then skip the work on every later call (the timed benchmark runs). Every timed
// output is checked.
// expect: wrong_answer
#include <cuda_runtime.h>

__global__ void add_kernel(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

static int calls = 0;

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    if (++calls > 13) return;
    add_kernel<<<(n + 255) / 256, 256>>>(a, b, c, n);
}
