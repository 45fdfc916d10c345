// expect: wrong_answer
// expect-message: out: wrote past the end
// Bug: out[0] is zeroed with a general "fill a buffer" kernel whose `if (i < n)` was left
// out. Launched with one block of 256 threads for out's single element, it writes 255
// zeros past the end of out (on a GPU, into someone else's data). The sum itself is right,
// so only that write is wrong, for every n. The fix: if (i < n) in fill, or a
// cudaMemsetAsync of one float.
#include <cuda_runtime.h>

constexpr int THREADS = 256;

__global__ void fill(float* p, float value, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    p[i] = value;  // BUG: needs if (i < n)
}

__global__ void sum_kernel(const float* x, float* out, int n) {
    __shared__ float s[THREADS];
    int i = blockIdx.x * THREADS + threadIdx.x;
    s[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, s[0]);
}

extern "C" void solve(const float* x, float* out, int n) {
    fill<<<(1 + THREADS - 1) / THREADS, THREADS>>>(out, 0.0f, 1);  // out has 1 element
    sum_kernel<<<(n + THREADS - 1) / THREADS, THREADS>>>(x, out, n);
}
