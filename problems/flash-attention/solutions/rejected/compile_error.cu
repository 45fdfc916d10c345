// expect: compile_error
// Type error: a `const half*` input is passed where the kernel expects `half*` (inputs are const
// in the signature), so nvcc stops with "argument of type const __half * is incompatible".
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math.h>

__global__ void attention_rowwise(half* q, const half* k, const half* v, half* o, int s, int d, float scale) {
    const size_t head = (size_t)blockIdx.y * s * d;
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= s) return;
    float m = -INFINITY, l = 0.0f;
    for (int j = 0; j < s; ++j) {
        float dot = 0.0f;
        for (int i = 0; i < d; ++i) dot += __half2float(q[head + (size_t)row * d + i]) * __half2float(k[head + (size_t)j * d + i]);
        const float m_new = fmaxf(m, dot * scale);
        l = l * expf(m - m_new) + expf(dot * scale - m_new);
        m = m_new;
    }
    for (int i = 0; i < d; ++i) {
        float acc = 0.0f;
        for (int j = 0; j < s; ++j) {
            float dot = 0.0f;
            for (int c = 0; c < d; ++c) dot += __half2float(q[head + (size_t)row * d + c]) * __half2float(k[head + (size_t)j * d + c]);
            acc += expf(dot * scale - m) * __half2float(v[head + (size_t)j * d + i]);
        }
        o[head + (size_t)row * d + i] = __float2half(acc / l);
    }
}

extern "C" void solve(const half* q, const half* k, const half* v, half* o, int b, int h, int s, int d) {
    dim3 grid((s + 127) / 128, b * h);
    attention_rowwise<<<grid, 128>>>(q, k, v, o, s, d, 1.0f / sqrtf((float)d));
}
