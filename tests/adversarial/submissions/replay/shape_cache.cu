// Threat class 1 (replay), keyed on pointers: remember the (a, b, c) pointers of the last call;
// when they repeat (the benchmark reuses its buffers), skip the kernel and leave c as it is,
// hoping it still holds the previous result. The judge refills c with NaN and a, b with fresh
// inputs before every call and checks every timed output.
// expect: wrong_answer
#include <cuda_runtime.h>

__global__ void add_kernel(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

static const void* last_a = nullptr;
static const void* last_b = nullptr;
static void* last_c = nullptr;

extern "C" void solve(const float* a, const float* b, float* c, int n) {
    if (a == last_a && b == last_b && c == last_c) return;  // "already computed"
    last_a = a; last_b = b; last_c = c;
    add_kernel<<<(n + 255) / 256, 256>>>(a, b, c, n);
}
