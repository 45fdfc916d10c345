// K-means assignment, the straightforward way: one thread per point. It walks the centroids
// in order, sums the squared differences over the d coordinates, and keeps the least distance
// and its index; only a strictly smaller distance replaces it, so ties keep the first index.
// Every thread of a warp reads the same centroid at the same time (a broadcast), but each
// reads its own point's row, d floats apart: the points are re-read from cache k times.
#include <cuda_runtime.h>

__global__ void assign(const float* points, const float* centroids, int* labels, int n, int k, int d) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float* x = points + (long long)i * d;
    float best = __int_as_float(0x7f800000);  // +inf
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
    labels[i] = where;
}

extern "C" void solve(const float* points, const float* centroids, int* labels, int n, int k, int d) {
    assign<<<(n + 127) / 128, 128>>>(points, centroids, labels, n, k, d);
}
