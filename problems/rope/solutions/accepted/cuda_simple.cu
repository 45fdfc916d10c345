// RoPE in place, the straightforward way: one thread per pair (i, i + d/2) of one head, for
// q and k in the same launch (the grid's y index picks the tensor). A thread reads both
// members of its pair and the position's cos and sin, rotates in float32 and writes both
// back; no other thread touches that pair, so working in place needs no synchronization.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void rope_pairs(__nv_bfloat16* q, __nv_bfloat16* k, const float* cos, const float* sin, int s, int h,
                           int half, long long pairs) {
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= pairs) return;
    __nv_bfloat16* x = blockIdx.y == 0 ? q : k;
    long long row = t / half;  // (batch * s + position) * h + head
    int i = (int)(t % half);
    long long pos = (row / h) % s;
    __nv_bfloat16* head = x + row * 2 * half;
    float x1 = __bfloat162float(head[i]), x2 = __bfloat162float(head[i + half]);
    float c = cos[pos * half + i], sn = sin[pos * half + i];
    head[i] = __float2bfloat16(x1 * c - x2 * sn);
    head[i + half] = __float2bfloat16(x2 * c + x1 * sn);
}

extern "C" void solve(__nv_bfloat16* q, __nv_bfloat16* k, const float* cos, const float* sin, int b, int s, int h,
                      int d) {
    int half = d / 2;
    long long pairs = (long long)b * s * h * half;
    dim3 grid((unsigned)((pairs + 255) / 256), 2);
    rope_pairs<<<grid, 256>>>(q, k, cos, sin, s, h, half, pairs);
}
