// expect: wrong_answer
// expect-message: c: wrote past the end
// Bug: no bounds check. The grid is rounded up, as it should be, but the kernel lacks its
// `if (i < n)`, so the threads of the last block whose i is n or more read past the ends of
// a and b and write past the end of c. Every value inside c is right; the stores after it
// are the bug. Right only when n is a multiple of 256.
#include <cuda_runtime.h>

__global__ void add_kernel(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = a[i] + b[i];  // BUG: needs if (i < n)
}

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    int threads = 256;
    int blocks = (n + threads - 1) / threads;
    add_kernel<<<blocks, threads>>>(a, b, c, n);
}
