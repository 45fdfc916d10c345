// expect: wrong_answer
// expect-message: wrote past the end
// Bug: no bounds check. The grid is rounded up to whole blocks of 256 threads; when the
// number of pairs is not a multiple of 256, the threads past the end rotate "pairs" made of
// the memory after q and k, and write them back past the ends of q and k. Every value inside
// them is right; the stores after them are the bug. The fix: if (t >= pairs) return;
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void rope_pairs(__nv_bfloat16* q, __nv_bfloat16* k, const float* cos, const float* sin, int s, int h,
                           int half) {
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;  // BUG: t may be >= pairs
    __nv_bfloat16* x = blockIdx.y == 0 ? q : k;
    long long row = t / half;
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
    rope_pairs<<<grid, 256>>>(q, k, cos, sin, s, h, half);
}
