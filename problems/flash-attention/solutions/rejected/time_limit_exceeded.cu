// expect: time_limit_exceeded
// Bug: the key loop's counter is never advanced. The loop updates the output through a
// volatile pointer, so the compiler must keep every iteration (a loop without side effects
// could be assumed to terminate and be removed): the kernel spins until the time limit.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math.h>

__global__ void attention_rowwise(const half* q, const half* k, const half* v, half* o, int s, int d, float scale) {
    const size_t head = (size_t)blockIdx.y * s * d;
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= s) return;
    volatile half* out = o + head + (size_t)row * d;
    float l = 0.0f;
    int j = 0;
    while (j < s) {  // BUG: should be for (int j = 0; j < s; ++j)
        float dot = 0.0f;
        for (int i = 0; i < d; ++i) dot += __half2float(q[head + (size_t)row * d + i]) * __half2float(k[head + (size_t)j * d + i]);
        l += expf(dot * scale);
        out[0] = __float2half(l);
    }
}

extern "C" void solve(const half* q, const half* k, const half* v, half* o, int b, int h, int s, int d) {
    dim3 grid((s + 127) / 128, b * h);
    attention_rowwise<<<grid, 128>>>(q, k, v, o, s, d, 1.0f / sqrtf((float)d));
}
