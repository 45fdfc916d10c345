// expect: wrong_answer
// expect-message: labels: wrote past the end
// Bug: one thread per point, and no `if (i >= n) return;`. The threads of the last block past
// point n - 1 read rows past the end of points (guard memory: any values), find a nearest
// centroid for them and store it past the end of labels. Right only when 128 divides n. The
// fix: the bounds check before any load or store.
#include <cuda_runtime.h>

__global__ void assign(const float* points, const float* centroids, int* labels, int n, int k, int d) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float* x = points + (long long)i * d;
    float best = __int_as_float(0x7f800000);
    int where = 0;
    for (int j = 0; j < k; ++j) {
        const float* c = centroids + (long long)j * d;
        float dist = 0.0f;
        for (int t = 0; t < d; ++t) {
            const float diff = x[t] - c[t];
            dist += diff * diff;
        }
        if (dist < best) {
            best = dist;
            where = j;
        }
    }
    labels[i] = where;  // BUG: no bounds check
}

extern "C" void solve(const float* points, const float* centroids, int* labels, int n, int k, int d) {
    assign<<<(n + 127) / 128, 128>>>(points, centroids, labels, n, k, d);
}
