// Threat class 2 (deferred work): launch on a created non-blocking stream (which does not
// synchronise with the legacy default stream the timer's events are recorded on) and return
// without waiting. The runner ends each call with cudaDeviceSynchronize (all streams), so
// the work is timed; the result is correct and its time honest.
// expect: accepted, with a time no better than the GPU's speed of light (the side-stream work
// counted)
#include <cuda_runtime.h>

__global__ void add_kernel(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

static cudaStream_t side = nullptr;

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    if (!side) cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    add_kernel<<<(n + 255) / 256, 256, 0, side>>>(a, b, c, n);
}
