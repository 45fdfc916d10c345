// Threat class 11 (faults): write through a wild device pointer: cudaErrorIllegalAddress,
// which poisons the CUDA context for good. The runner reports it and is thrown away; the
// worker grades the next submission in a fresh runner.
// expect: runtime_error
#include <cuda_runtime.h>

__global__ void wild(float* c, int n) {
    float* p = (float*)((unsigned long long)c + (1ull << 44));
    p[threadIdx.x] = 1.0f;
}

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    wild<<<1, 32>>>(c, n);
}
