// expect: runtime_error
// Bug: the output offset is computed as if o were [s, b*h, d] instead of [b, h, s, d] and with
// the head index multiplied by a 64-bit constant far too large: the stores land ~2^40 bytes
// past the buffer, an address no allocation covers. The GPU raises an illegal memory access,
// which the host sees as an error at the next synchronization.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math.h>

__global__ void attention_rowwise(const half* q, const half* k, const half* v, half* o, int s, int d, float scale) {
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
    const size_t bad = ((size_t)1 << 40) + (size_t)row * d;  // BUG: wildly wrong offset
    for (int i = 0; i < d; ++i) o[bad + i] = __float2half(l);
}

extern "C" void solve(const half* q, const half* k, const half* v, half* o, int b, int h, int s, int d) {
    dim3 grid((s + 127) / 128, b * h);
    attention_rowwise<<<grid, 128>>>(q, k, v, o, s, d, 1.0f / sqrtf((float)d));
}
