// RoPE in place at memory speed.
//
// When d/2 is a multiple of 8 (every real head size: 64, 128, ...) and the pointers are
// 16-byte aligned, a thread rotates 8 pairs at once: one 16-byte load from each half of a
// head (8 bf16 each), two float4 loads of cos and of sin, 16 FMAs, two 16-byte stores back.
// A block handles one token: its threads cover every head of q and then of k, so the
// position's cos and sin rows (d/2 floats each, 256 bytes at d = 128) are read by all of them
// from L1 after the first. q and k are loaded with __ldcs and stored with __stcs (streaming:
// each element is touched once). A thread reads exactly the elements it writes, so working in
// place needs no synchronization. Other shapes take one thread per pair (cuda_simple.cu's
// scheme).
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <stdint.h>

__device__ __forceinline__ void rotate8(__nv_bfloat16* head, int j, int half, const float4* c4, const float4* s4) {
    uint4* p1 = reinterpret_cast<uint4*>(head + j);
    uint4* p2 = reinterpret_cast<uint4*>(head + half + j);
    uint4 a = __ldcs(p1), b = __ldcs(p2);
    __nv_bfloat162* a2 = reinterpret_cast<__nv_bfloat162*>(&a);
    __nv_bfloat162* b2 = reinterpret_cast<__nv_bfloat162*>(&b);
    const float c[8] = {c4[0].x, c4[0].y, c4[0].z, c4[0].w, c4[1].x, c4[1].y, c4[1].z, c4[1].w};
    const float s[8] = {s4[0].x, s4[0].y, s4[0].z, s4[0].w, s4[1].x, s4[1].y, s4[1].z, s4[1].w};
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        float2 x1 = __bfloat1622float2(a2[k]), x2 = __bfloat1622float2(b2[k]);
        float c0 = c[2 * k], c1 = c[2 * k + 1], s0 = s[2 * k], s1 = s[2 * k + 1];
        a2[k] = __floats2bfloat162_rn(x1.x * c0 - x2.x * s0, x1.y * c1 - x2.y * s1);
        b2[k] = __floats2bfloat162_rn(x2.x * c0 + x1.x * s0, x2.y * c1 + x1.y * s1);
    }
    __stcs(p1, a);
    __stcs(p2, b);
}

// One block per token (batch * s + position); threads stride over 2 * h * (half / 8) vectors.
__global__ void __launch_bounds__(256) rope_token(__nv_bfloat16* q, __nv_bfloat16* k, const float* __restrict__ cos,
                                                  const float* __restrict__ sin, int s, int h, int half) {
    const long long token = blockIdx.x;
    const int pos = (int)(token % s);
    const int vecs = half / 8;  // 8-pair vectors per head
    const int per_tensor = h * vecs;
    const float* crow = cos + (size_t)pos * half;
    const float* srow = sin + (size_t)pos * half;
    for (int t = threadIdx.x; t < 2 * per_tensor; t += blockDim.x) {
        __nv_bfloat16* x = t < per_tensor ? q : k;
        int u = t < per_tensor ? t : t - per_tensor;
        int head = u / vecs, j = (u % vecs) * 8;
        float4 c4[2] = {__ldg(reinterpret_cast<const float4*>(crow + j)), __ldg(reinterpret_cast<const float4*>(crow + j + 4))};
        float4 s4[2] = {__ldg(reinterpret_cast<const float4*>(srow + j)), __ldg(reinterpret_cast<const float4*>(srow + j + 4))};
        rotate8(x + (token * h + head) * 2 * half, j, half, c4, s4);
    }
}

__global__ void rope_pairs(__nv_bfloat16* q, __nv_bfloat16* k, const float* cos, const float* sin, int s, int h,
                           int half, long long pairs) {
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= pairs) return;
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
    const int half = d / 2;
    const uintptr_t addr = reinterpret_cast<uintptr_t>(q) | reinterpret_cast<uintptr_t>(k) |
                           reinterpret_cast<uintptr_t>(cos) | reinterpret_cast<uintptr_t>(sin);
    if (half % 8 == 0 && (addr & 15) == 0) {
        int work = 2 * h * (half / 8);
        int threads = work >= 256 ? 256 : ((work + 31) / 32) * 32;
        rope_token<<<(unsigned)((long long)b * s), threads>>>(q, k, cos, sin, s, h, half);
    } else {
        long long pairs = (long long)b * s * h * half;
        dim3 grid((unsigned)((pairs + 255) / 256), 2);
        rope_pairs<<<grid, 256>>>(q, k, cos, sin, s, h, half, pairs);
    }
}
