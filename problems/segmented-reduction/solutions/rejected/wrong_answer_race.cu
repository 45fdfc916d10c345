// expect: wrong_answer
// Bug: a race. Elements are split evenly between threads (16 each, as in the editorial), and a
// segment that spans several threads gets its parts added with `out[seg] += part`: a read, an
// add and a write that other threads interleave with, so two threads read the same old value
// and one part is lost. It needs atomicAdd. Segments inside one thread's elements come out
// right, so only the long segments show it (on a GPU; the CPU only compiles CUDA).
#include <cuda_runtime.h>

constexpr int K = 16;

__global__ void zero(float* out, int segments) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < segments) out[i] = 0.0f;
}

__global__ void segment_chunks(const float* x, const int* offsets, float* out, int n, int segments) {
    const long long lo64 = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * K;
    if (lo64 >= n) return;
    const int lo = (int)lo64, hi = min(lo + K, n);
    int a = 0, b = segments - 1;  // the last segment with offsets[seg] <= lo
    while (a < b) {
        const int mid = (a + b + 1) >> 1;
        if (offsets[mid] <= lo) a = mid; else b = mid - 1;
    }
    int seg = a, seg_end = offsets[seg + 1];
    float part = 0.0f;
    for (int i = lo; i < hi; ++i) {
        while (i >= seg_end) {
            out[seg] += part;  // BUG: atomicAdd(out + seg, part)
            part = 0.0f;
            seg_end = offsets[++seg + 1];
        }
        part += x[i];
    }
    out[seg] += part;  // BUG: atomicAdd(out + seg, part)
}

extern "C" void solve(const float* x, const int* offsets, float* out, int n, int segments) {
    zero<<<(segments + 255) / 256, 256>>>(out, segments);
    const int threads = (n + K - 1) / K;
    segment_chunks<<<(threads + 255) / 256, 256>>>(x, offsets, out, n, segments);
}
