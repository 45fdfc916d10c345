// expect: wrong_answer
// expect-message: out: wrote past the end
// Bug: out[0] is zeroed with a general "fill a buffer" kernel whose `if (i < n)` was left
// out. Launched with one block of 32 threads for out's single element, it writes 31 zeros
// past the end of out (on a GPU, into someone else's data). The dot product itself is right,
// so only those writes are wrong, for every n. The fix: if (i < n) in fill, or
// cudaMemsetAsync(out, 0, sizeof(float)).
#include <cuda_runtime.h>

constexpr int THREADS = 256;

__global__ void fill(float* p, float value, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    p[i] = value;  // BUG: needs if (i < n)
}

__global__ void dot_kernel(const float* a, const float* b, float* out, int n) {
    __shared__ float s[THREADS];
    int i = blockIdx.x * THREADS + threadIdx.x;
    s[threadIdx.x] = i < n ? a[i] * b[i] : 0.0f;
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) s[threadIdx.x] += s[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, s[0]);
}

extern "C" void solve(const float* a, const float* b, float* out, int n) {
    fill<<<1, 32>>>(out, 0.0f, 1);  // out has 1 element
    dot_kernel<<<(n + THREADS - 1) / THREADS, THREADS>>>(a, b, out, n);
}
