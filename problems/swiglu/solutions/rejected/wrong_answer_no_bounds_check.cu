// expect: wrong_answer
// expect-message: y: wrote past the end
// Bug: no bounds check. The grid is rounded up to whole blocks of 256 threads, and when m*n
// is not a multiple of 256 the threads of the last block past the end read after gate and up
// and write past the end of y. Every value inside y is right; the stores after it are the
// bug (on a GPU they overwrite a neighbour's data). The fix: if (i < total).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void swiglu(const __nv_bfloat16* gate, const __nv_bfloat16* up, __nv_bfloat16* y) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;  // BUG: i may be >= m * n
    float g = __bfloat162float(gate[i]);
    y[i] = __float2bfloat16(g / (1.0f + expf(-g)) * __bfloat162float(up[i]));
}

extern "C" void solve(const __nv_bfloat16* gate, const __nv_bfloat16* up, __nv_bfloat16* y, int m, int n) {
    long long total = (long long)m * n;
    swiglu<<<(unsigned)((total + 255) / 256), 256>>>(gate, up, y);
}
