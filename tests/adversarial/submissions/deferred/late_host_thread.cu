// Threat class 2 (deferred work): solve starts a host std::thread that launches the kernel
// 300 ms later and returns at once. The referee checks the output right after solve returns
// (it still holds the NaN it was poisoned with) and rejects outputs that change afterwards.
// expect: wrong_answer (or rejected)
#include <cuda_runtime.h>
#include <chrono>
#include <thread>

__global__ void add_kernel(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    std::thread([=] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        add_kernel<<<(n + 255) / 256, 256>>>(a, b, c, n);
    }).detach();
}
