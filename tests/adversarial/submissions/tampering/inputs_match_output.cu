// Threat class 5 (input tampering): cast away const, write c = 1 and rewrite the inputs to
// a = 1, b = 0 so that the buffers satisfy c == a + b after the call. The referee checks
// against expected values it computed from its private copy of the inputs.
// expect: wrong_answer
#include <cuda_runtime.h>

__global__ void tamper(float* a, float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { c[i] = 1.0f; a[i] = 1.0f; b[i] = 0.0f; }
}

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    tamper<<<(n + 255) / 256, 256>>>(const_cast<float*>(a), const_cast<float*>(b), c, n);
}
