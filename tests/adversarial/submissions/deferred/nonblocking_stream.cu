// Threat class 2 (deferred work): launch on a created non-blocking stream (which does not
// synchronise with the legacy default stream solve is called on) and return without waiting.
// Solve's stream waits at the referee's gate (gate.py); this stream does not, so the work runs
// before the gate opens, both clocks see almost nothing, and the speed-of-light bound rejects
// the time.
// expect: GPU rejected (faster than the speed of light); CPU not_run
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
